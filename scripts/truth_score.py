"""Score a report of the sglang/vLLM pair against the real-pair truth set.

    .venv/bin/python scripts/truth_score.py out/sglang-vllm [--truth corpora/sglang-vllm-truth.csv] [--by stratum]
        [--half even|odd] [--disagreements]

With `--disagreements`, lists the code lines where report and truth disagree (with the truth's
reason) instead. Otherwise prints a Markdown table, one row per stratum group (or per stratum
with `--by stratum`), then all lines and code lines only (kinds from the report's lines.csv). Columns:

  lines      truth lines in the row (`expected copied` of them copied by the truth set)
  P, R, F1   precision, recall and F1 of "copied" (verbatim or near) against the truth
  label acc  share of lines whose label (verbatim / near / none) equals the truth's exactly
  src file   of the lines both call copied, share whose upstream file is the truth's
  src line   of the same lines, share whose upstream file and line are the truth's

`--half` scores one of two fixed halves of the truth set (:func:`half_of`: sha256 of
`target_path:line`, even or odd), so that a matcher rule can be tuned on one half and checked on
the other.

A truth line missing from the report counts as `none` and is reported on stderr. Undefined ratios
(no line in the denominator) print as `–`.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import pandas as pd

TRUTH = Path(__file__).resolve().parent.parent / "corpora" / "sglang-vllm-truth.csv"
COPIED = ("verbatim", "near")
TRUTH_COLUMNS = ["target_path", "line", "stratum", "expected", "expected_upstream_path",
                 "expected_upstream_line", "reason"]
REPORT_COLUMNS = ["target_path", "line", "kind", "match", "upstream_path", "upstream_line"]


def fail(message: str) -> None:
    print(f"truth: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def read_truth(path: Path) -> pd.DataFrame:
    if not path.exists():
        fail(f"no truth set at {path}")
    truth = pd.read_csv(path, keep_default_na=False, dtype=str)
    missing = [c for c in TRUTH_COLUMNS if c not in truth.columns]
    if missing:
        fail(f"{path} lacks columns {', '.join(missing)}")
    bad = sorted(set(truth["expected"]) - {"verbatim", "near", "none"})
    if bad:
        fail(f"{path}: unknown expected labels {', '.join(bad)}")
    truth["line"] = truth["line"].astype(int)
    return truth


def half_of(target_path: str, line: int) -> str:
    """The fixed half of the truth set a line belongs to: "even" or "odd" (sha256 of path:line)."""
    digest = hashlib.sha256(f"{target_path}:{line}".encode()).digest()
    return "odd" if digest[-1] % 2 else "even"


def read_report(report: Path, paths: set[str]) -> pd.DataFrame:
    """The report's rows for the target files the truth set names (lines.csv is large)."""
    lines_csv = report / "lines.csv"
    if not lines_csv.exists():
        fail(f"no lines.csv in {report}")
    header = pd.read_csv(lines_csv, nrows=0).columns
    missing = [c for c in REPORT_COLUMNS if c not in header]
    if missing:
        fail(f"{lines_csv} lacks columns {', '.join(missing)}")
    chunks = [c[c["target_path"].isin(paths)]
              for c in pd.read_csv(lines_csv, usecols=REPORT_COLUMNS, keep_default_na=False,
                                   dtype=str, chunksize=1_000_000)]
    rows = pd.concat(chunks, ignore_index=True)
    rows["line"] = rows["line"].astype(int)
    return rows


def join(truth: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """Each truth line with the report's label, kind and upstream (missing lines: `none`)."""
    joined = truth.merge(rows, on=["target_path", "line"], how="left", indicator=True)
    joined["missing"] = joined["_merge"] == "left_only"
    joined = joined.drop(columns="_merge")
    joined["match"] = joined["match"].fillna("none")
    joined[["kind", "upstream_path", "upstream_line"]] = joined[
        ["kind", "upstream_path", "upstream_line"]].fillna("")
    return joined


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def metrics(rows: pd.DataFrame) -> dict[str, object]:
    want = rows["expected"].isin(COPIED)
    got = rows["match"].isin(COPIED)
    tp = int((want & got).sum())
    p, r = _ratio(tp, int(got.sum())), _ratio(tp, int(want.sum()))
    f1 = 2 * p * r / (p + r) if p is not None and r is not None and p + r else (
        0.0 if p is not None and r is not None else None)
    both = rows[want & got]
    same_file = both["upstream_path"] == both["expected_upstream_path"]
    same_line = same_file & (both["upstream_line"].astype(str) == both["expected_upstream_line"].astype(str))
    return {
        "lines": len(rows), "expected copied": int(want.sum()), "labelled copied": int(got.sum()),
        "P": p, "R": r, "F1": f1,
        "label acc": _ratio(int((rows["match"] == rows["expected"]).sum()), len(rows)),
        "src file": _ratio(int(same_file.sum()), len(both)),
        "src line": _ratio(int(same_line.sum()), len(both)),
    }


def score(truth: pd.DataFrame, rows: pd.DataFrame, by: str = "group") -> pd.DataFrame:
    """One row of metrics per stratum group (the part before the dot) or per stratum, then
    `ALL` and `ALL code`."""
    joined = join(truth, rows)
    key = joined["stratum"].str.split(".").str[0] if by == "group" else joined["stratum"]
    out = [{"stratum": name, **metrics(part)} for name, part in joined.groupby(key, sort=True)]
    out.append({"stratum": "ALL", **metrics(joined)})
    out.append({"stratum": "ALL code", **metrics(joined[joined["kind"] == "code"])})
    return pd.DataFrame(out)


def disagreements(joined: pd.DataFrame) -> str:
    """A Markdown table of the code lines where the report and the truth disagree: false copies,
    missed copies, and copies named with another upstream file or line; the reason is the truth's."""
    copied = ("verbatim", "near")
    rows = []
    for r in joined[joined["kind"] == "code"].itertuples(index=False):
        want, got = r.expected in copied, r.match in copied
        if want == got and (not want or (r.upstream_path == r.expected_upstream_path
                                          and str(r.upstream_line) == str(r.expected_upstream_line))):
            continue
        kind = "false copy" if not want else "missed" if not got else "other upstream"
        report = f"{r.match} `{r.upstream_path.rsplit('/', 1)[-1]}:{r.upstream_line}`" if got else "none"
        rows.append((kind, r.stratum, f"`{r.target_path}:{r.line}`", half_of(r.target_path, r.line), report,
                     str(r.reason).replace("|", "/")))
    lines = ["| kind | stratum | target line | half | report | truth's reason |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in sorted(rows)]
    return "\n".join(lines) + "\n"


def markdown(table: pd.DataFrame) -> str:
    cols = list(table.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" if c == "stratum" else "---:" for c in cols) + "|"]
    for row in table.itertuples(index=False):
        cells = []
        for value in row:
            if value is None or (isinstance(value, float) and pd.isna(value)):
                cells.append("–")
            elif isinstance(value, float):
                cells.append(f"{value:.3f}")
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="a report directory (holding lines.csv)")
    parser.add_argument("--truth", type=Path, default=TRUTH)
    parser.add_argument("--by", choices=["group", "stratum"], default="group")
    parser.add_argument("--half", choices=["even", "odd"], default=None, help="score one half only")
    parser.add_argument("--disagreements", action="store_true",
                        help="list the code lines where report and truth disagree, instead of the scores")
    args = parser.parse_args()
    truth = read_truth(args.truth)
    if args.half:
        truth = truth[[half_of(p, n) == args.half for p, n in zip(truth["target_path"], truth["line"], strict=True)]]
    rows = read_report(args.report, set(truth["target_path"]))
    joined = join(truth, rows)
    if joined["missing"].any():
        print(f"truth: {int(joined['missing'].sum())} truth lines not in the report, counted as none",
              file=sys.stderr)
    sys.stdout.write(disagreements(joined) if args.disagreements else markdown(score(truth, rows, args.by)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
