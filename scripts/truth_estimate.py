"""Estimate from the truth set how many of a report's copied code lines are copies, report-wide.

    .venv/bin/python scripts/truth_estimate.py out/sglang-vllm [--truth corpora/sglang-vllm-truth.csv]
        [--draws 20000] [--seed 2026]

`truth_score.py` scores the truth set's lines as drawn: the strata oversample the hard places
(unmarked files sharing lines with vLLM, near lines), so its precision is not the share of the
report's copied lines that are copies. This script weights the sample back to the report
(post-stratification): every code line the report labels copied falls in a *cell*, its file group
(`truth_sample.groups`: marked, third_party, reverse, copies, plain; rules on the two wheels, not
the matcher) and its label (verbatim, near). In each cell the truth lines drawn uniformly over it
are counted: draws `GROUP.uniform` and `GROUP.copied` and `near.uniform` (with their `retired.`
forms, drawn the same way from earlier reports), each a uniform sample of the lines of its group,
of its group's copied lines, or of all near lines, and so of every cell inside it; and the draws
`cell.GROUP.LABEL` (`truth_cells.py`), uniform over one cell and counted in that cell only (a line
whose cell has changed since, in a later report, is left out). The `shared` draws (lines chosen
because vLLM holds their text) and the `header` draws (comment lines) are left out: they are not
uniform over any cell.

A cell's precision p is drawn from its Jeffreys posterior Beta(TP + 1/2, FP + 1/2); the report-wide
precision is sum(N_cell * p) / sum(N_cell), N_cell the report's copied code lines in the cell, and
its 95 % interval the 2.5 and 97.5 percentiles over `--draws` Monte Carlo draws (numpy, seeded). A
cell with no truth line gets Beta(1/2, 1/2), the interval it deserves. Printed: one row per cell,
one per group, one for all; twice, over all uniform draws and over the fresh ones only.

Read the two estimates together. The `retired.` draws were made from earlier reports: a line the
report labels copied now but did not then was not in their pool (56 of the 253 retired lines are
not labelled copied any more), and the matcher's rules were tuned on those lines, so they are
right more often than fresh lines of the same cells (a Cochran-Mantel-Haenszel test over the
cells, review of 2026-12-05: odds ratio 0.44, p about 0.005). The fresh draws alone are a fair
sample of today's report, with wider intervals; all draws together lean toward the rules' tuning.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from truth_sample import load_report  # noqa: E402
from truth_score import COPIED, TRUTH, fail, read_truth  # noqa: E402

GROUPS = ("marked", "third_party", "reverse", "copies", "plain")
# Draws uniform over a group's code lines, over its copied lines, or over all near lines.
UNIFORM_DRAWS = {f"{g}.{how}" for g in GROUPS for how in ("uniform", "copied")} | {"near.uniform"}


def drawn_cell(stratum: str) -> tuple[str, str] | None:
    """The one cell a `cell.GROUP.LABEL` draw was made in (``truth_cells.py``), else None."""
    parts = stratum.removeprefix("retired.").split(".")
    if len(parts) == 3 and parts[0] == "cell" and parts[1] in GROUPS and parts[2] in COPIED:
        return parts[1], parts[2]
    return None


def uniform_draw(stratum: str) -> bool:
    """Whether truth lines of ``stratum`` were drawn uniformly over a set of cells."""
    return stratum.removeprefix("retired.") in UNIFORM_DRAWS or drawn_cell(stratum) is not None


def read_report(report: Path) -> tuple[pd.DataFrame, dict[str, str]]:
    """The report's lines of the target wheel's files, and every target file's group."""
    if not (report / "lines.csv").exists():
        fail(f"no lines.csv in {report}")
    _, _, lines, group, _ = load_report(report)
    return lines, group


def copied_code(report_lines: pd.DataFrame, group: dict[str, str]) -> pd.DataFrame:
    """The report's copied code lines, each with its cell: ``group`` and ``match``."""
    code = report_lines[(report_lines["kind"] == "code") & report_lines["match"].isin(COPIED)]
    return code.assign(group=code["target_path"].map(group).fillna("plain"))


def cells(report_lines: pd.DataFrame, group: dict[str, str], truth: pd.DataFrame) -> pd.DataFrame:
    """One row per (group, label) cell of the report's copied code lines: ``lines`` (N), and the
    uniform truth lines in it that the truth calls copied (``tp``) and none (``fp``)."""
    code = copied_code(report_lines, group)
    sizes = code.groupby(["group", "match"]).size().rename("lines")
    sample = truth[truth["stratum"].map(uniform_draw).astype(bool)].merge(
        code[["target_path", "line", "group", "match"]], on=["target_path", "line"], how="inner")
    # A cell draw is uniform over its own cell only.
    own = np.array([drawn_cell(s) in (None, (g, m)) for s, g, m in
                    zip(sample["stratum"], sample["group"], sample["match"], strict=True)], dtype=bool)
    sample = sample[own]
    sample = sample.assign(true=sample["expected"].isin(COPIED))
    tp = sample[sample["true"]].groupby(["group", "match"]).size().rename("tp")
    fp = sample[~sample["true"]].groupby(["group", "match"]).size().rename("fp")
    index = pd.MultiIndex.from_product([GROUPS, COPIED], names=["group", "match"])
    table = pd.concat([sizes, tp, fp], axis=1).reindex(index).fillna(0).astype(int)
    return table[table["lines"] > 0].reset_index()


def estimate(table: pd.DataFrame, draws: int, seed: int) -> pd.DataFrame:
    """Precision (posterior mean and 95 % interval) per cell, per group and for all cells."""
    rng = np.random.default_rng(seed)
    p = rng.beta(table["tp"].to_numpy() + 0.5, table["fp"].to_numpy() + 0.5, size=(draws, len(table)))
    n = table["lines"].to_numpy()
    rows = []

    def row(name: str, label: str, mask: np.ndarray) -> None:
        true = (p[:, mask] * n[mask]).sum(axis=1)
        share = true / n[mask].sum()
        low, high = np.percentile(share, [2.5, 97.5])
        rows.append({"group": name, "match": label, "lines": int(n[mask].sum()),
                     "tp": int(table["tp"][mask].sum()), "fp": int(table["fp"][mask].sum()),
                     "precision": float(share.mean()), "low": float(low), "high": float(high),
                     "copies": float(true.mean())})

    for k, cell in table.iterrows():
        row(cell["group"], cell["match"], (table.index == k))
    for g in GROUPS:
        if (table["group"] == g).any():
            row(g, "copied", (table["group"] == g).to_numpy())
    for label in COPIED:
        row("ALL", label, (table["match"] == label).to_numpy())
    row("ALL", "copied", np.ones(len(table), dtype=bool))
    return pd.DataFrame(rows)


def markdown(result: pd.DataFrame) -> str:
    out = ["| group | label | copied code lines | truth lines TP / FP | precision | 95 % interval | est. copies |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for r in result.itertuples(index=False):
        out.append(f"| {r.group} | {r.match} | {r.lines:,} | {r.tp} / {r.fp} | {r.precision:.3f} | "
                   f"{r.low:.3f}-{r.high:.3f} | {r.copies:,.0f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="a report directory of the sglang/vLLM pair")
    parser.add_argument("--truth", type=Path, default=TRUTH)
    parser.add_argument("--draws", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if args.draws < 100:
        fail("--draws must be at least 100")
    truth = read_truth(args.truth)
    lines, group = read_report(args.report)
    fresh = truth[~truth["stratum"].str.startswith("retired.")]
    for title, sample in (("All uniform draws", truth), ("Fresh draws only (no `retired.` stratum)", fresh)):
        print(f"## {title}\n\n{markdown(estimate(cells(lines, group, sample), args.draws, args.seed))}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
