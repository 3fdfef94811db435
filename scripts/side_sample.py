"""Draw a side sample: code lines whose label a candidate rule changes, for labelling by eye.

    .venv/bin/python scripts/side_sample.py BASE_REPORT CANDIDATE_REPORT --stratum NAME \\
        [--n 40] [--seed 20261205] [--direction removed|added] [--truth corpora/sglang-vllm-truth.csv] > SAMPLE.csv

A rule that trades copied lines for precision (or adds lines for recall) is judged on the lines it
changes, not only on the truth set, which may hold few of them: run the main job twice, once as it
is (BASE_REPORT) and once with the rule (CANDIDATE_REPORT, e.g. ``lineage corpus ... --set
KNOB=VALUE``), then draw from the code lines BASE labels copied (verbatim or near) and CANDIDATE
labels none (``--direction removed``), or the reverse (``added``), leaving out lines the truth set
already holds. Label the sample by eye with ``scripts/truth_view.py SAMPLE.csv BASE_REPORT`` by the
rules of ``corpora/sglang-vllm-truth.md``, save the labels with the truth set's columns and score
any report against them with ``scripts/truth_score.py REPORT --truth LABELS.csv``: the share of
copies among the changed lines says whether the rule gains more than it loses.

The draw is ``pandas.DataFrame.sample(n, random_state=seed)`` over the changed code lines in the
order of BASE's ``lines.csv``; the sample is written sorted by path and line, with columns
``target_path,line,stratum``. The two side samples of 2026-12-04/05 in ``corpora/`` were drawn this
way (their sections in ``corpora/sglang-vllm-truth.md`` name the reports and seeds).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ["target_path", "line", "kind", "match"]


def changed_code_lines(base: pd.DataFrame, candidate: pd.DataFrame, direction: str) -> pd.DataFrame:
    """Code lines (in ``base``'s row order) that ``base`` labels copied and ``candidate`` none
    (``removed``), or the reverse (``added``)."""
    merged = base[COLUMNS].merge(candidate[["target_path", "line", "match"]], on=["target_path", "line"],
                                 suffixes=("_base", "_candidate"))
    copied_base, copied_candidate = merged["match_base"] != "none", merged["match_candidate"] != "none"
    changed = copied_base & ~copied_candidate if direction == "removed" else ~copied_base & copied_candidate
    return merged[changed & (merged["kind"] == "code")][["target_path", "line"]]


def draw(base: pd.DataFrame, candidate: pd.DataFrame, n: int, seed: int, stratum: str,
         direction: str = "removed", exclude: pd.DataFrame | None = None) -> pd.DataFrame:
    """The sample: ``n`` changed code lines not in ``exclude`` (path, line), drawn with ``seed``."""
    pool = changed_code_lines(base, candidate, direction)
    if exclude is not None and len(exclude):
        pool = pool.merge(exclude[["target_path", "line"]], on=["target_path", "line"], how="left", indicator=True)
        pool = pool[pool["_merge"] == "left_only"][["target_path", "line"]]
    if len(pool) < n:
        _fail(f"only {len(pool)} changed code lines, {n} asked for")
    sample = pool.sample(n, random_state=seed).assign(stratum=stratum)
    return sample.sort_values(["target_path", "line"]).reset_index(drop=True)


def _fail(message: str) -> NoReturn:
    """Bad input: one line on stderr, exit status 2."""
    print(f"side_sample: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _lines(report: Path) -> pd.DataFrame:
    path = report / "lines.csv"
    if not path.exists():
        _fail(f"no lines.csv in {report}")
    return pd.read_csv(path, usecols=COLUMNS, keep_default_na=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="report directory without the rule")
    parser.add_argument("candidate", type=Path, help="report directory with the rule")
    parser.add_argument("--stratum", required=True, help="the stratum name written in every row")
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--direction", choices=["removed", "added"], default="removed")
    parser.add_argument("--truth", type=Path, default=ROOT / "corpora" / "sglang-vllm-truth.csv",
                        help="rows to leave out (a truth CSV); 'none' for no exclusion")
    args = parser.parse_args(argv)
    exclude = None if str(args.truth) == "none" else pd.read_csv(args.truth, usecols=["target_path", "line"],
                                                                  keep_default_na=False)
    sample = draw(_lines(args.base), _lines(args.candidate), args.n, args.seed, args.stratum,
                  args.direction, exclude)
    sample[["target_path", "line", "stratum"]].to_csv(sys.stdout, index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
