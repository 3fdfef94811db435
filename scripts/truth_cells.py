"""Draw fresh truth lines uniformly within the cells `truth_estimate.py` post-stratifies by.

    .venv/bin/python scripts/truth_cells.py out/sglang-vllm --total 150 --seed 20261205 \
        [--minimum 15] [--min-share 0.01] [--sizes SIZES.csv] > /tmp/cells.csv

A cell is a file group (`truth_sample.groups`: rules on the two wheels, not the matcher) and a
label (verbatim, near): the report's copied code lines fall in one cell each. `--total` lines are
shared among the cells holding at least `--min-share` of the report's copied code lines, in
proportion to their lines, each at least `--minimum` (largest remainders round); smaller cells get
none (their lines bound what they can move the estimate: their share of all copied lines). In
each cell the lines are drawn uniformly (numpy, seeded) from its copied code lines that are not
already in the truth set (`--exclude`, default `corpora/sglang-vllm-truth.csv`). Stratum of a drawn
line: `cell.GROUP.LABEL`; `truth_estimate.py` counts it as a fresh uniform draw of that cell only.
Printed: target_path, line, stratum (label the lines by eye, then add them to the truth set).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from truth_estimate import copied_code, read_report  # noqa: E402
from truth_score import TRUTH, fail, read_truth  # noqa: E402

Cell = tuple[str, str]


def allocate(sizes: dict[Cell, int], total: int, minimum: int, min_share: float) -> dict[Cell, int]:
    """Lines to draw per cell: proportional to its lines, at least `minimum`, none for cells under
    `min_share` of all lines; the counts sum to `total`."""
    whole = sum(sizes.values())
    kept = {c: n for c, n in sizes.items() if whole and n / whole >= min_share}
    if minimum * len(kept) > total:
        fail(f"--total {total} cannot give {len(kept)} cells {minimum} lines each")
    fixed: dict[Cell, int] = {}
    while True:  # cells whose proportional share falls under the minimum get the minimum
        rest = {c: n for c, n in kept.items() if c not in fixed}
        left = total - sum(fixed.values())
        share = {c: left * n / sum(rest.values()) for c, n in rest.items()}
        low = {c for c, s in share.items() if s < minimum}
        if not low:
            break
        fixed.update({c: minimum for c in low})
    counts = {c: int(s) for c, s in share.items()}
    by_remainder = sorted(share, key=lambda c: (-(share[c] - counts[c]), c))
    for c in by_remainder[:left - sum(counts.values())]:
        counts[c] += 1
    return {c: fixed.get(c, counts.get(c, 0)) for c in sizes}


def draw_cells(copied: pd.DataFrame, plan: dict[Cell, int], exclude: set[tuple[str, int]],
               seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """`copied`: the report's copied code lines with `group` and `match`. The drawn lines
    (target_path, line, stratum) and per cell its lines, its pool (less `exclude`) and draws."""
    rng = np.random.default_rng(seed)
    rows, sizes = [], []
    for (group, label), n in sorted(plan.items()):
        sel = copied[(copied["group"] == group) & (copied["match"] == label)]
        cell = set(zip(sel["target_path"], sel["line"], strict=True))
        pool = sorted(cell - exclude)
        if len(pool) < n:
            fail(f"cell {group}.{label} has {len(pool)} lines to draw from, needs {n}")
        sizes.append((f"cell.{group}.{label}", len(cell), len(pool), n))
        for k in sorted(rng.choice(len(pool), size=n, replace=False)):
            rows.append((pool[k][0], pool[k][1], f"cell.{group}.{label}"))
    return (pd.DataFrame(rows, columns=["target_path", "line", "stratum"]),
            pd.DataFrame(sizes, columns=["stratum", "cell_lines", "pool_lines", "drawn"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="a report directory of the sglang/vLLM pair")
    parser.add_argument("--total", type=int, default=150)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--minimum", type=int, default=15, help="lines per drawn cell, at least")
    parser.add_argument("--min-share", type=float, default=0.01,
                        help="cells holding less of the copied code lines get no draw")
    parser.add_argument("--exclude", type=Path, default=TRUTH, help="a truth CSV whose lines are not drawn")
    parser.add_argument("--sizes", type=Path, help="also write each cell's pool size to this CSV")
    args = parser.parse_args()
    copied = copied_code(*read_report(args.report))
    sizes = copied.groupby(["group", "match"]).size().to_dict()
    plan = allocate(sizes, args.total, args.minimum, args.min_share)
    truth = read_truth(args.exclude)
    exclude = set(zip(truth["target_path"], truth["line"], strict=True))
    sample, pools = draw_cells(copied, plan, exclude, args.seed)
    if args.sizes:
        pools.to_csv(args.sizes, index=False)
    sample.to_csv(sys.stdout, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
