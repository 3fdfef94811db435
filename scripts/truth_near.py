"""The truth set's near lines in unmarked files, each with the evidence a precision rule could use.

    .venv/bin/python scripts/truth_near.py out/sglang-vllm [--truth corpora/sglang-vllm-truth.csv]
        [--lines]

A diagnostic for issue 8's precision (round prec174): the report-wide estimate
(`truth_estimate.py`) puts the weakest copied lines in the near lines of unmarked files (file
groups `copies` and `plain` of `truth_sample.groups`). Takes every truth-set code line that the
report labels `near` in such a file, true copies and false ones alike, and gives each, from the
report's `lines.csv` and the two wheels alone:

  diff      what differs between the two texts, by tokens (comments left out): `comment` (only a
            comment), `names` (identifiers replaced one for one), `literal` (strings or numbers),
            `names+literal`, `structure` (anything else: tokens added, removed or of other kinds)
  verbatim  how many of the three code lines either side are verbatim from the same upstream file
  other     how many paired code lines among them are paired with another upstream file
  order     False when the nearest paired code line above (below), at most three code lines away
            and paired with the same upstream file, names a later (earlier) upstream line
  skew      the smallest difference, over the nearest paired neighbours in the same upstream file,
            between the target's and the upstream's distance to them
  edge      no paired code line within three code lines on one side
  shared    how many of the neighbours are paired with the very same upstream line

and prints one table row per line (``--lines``) and, per feature value, how many of those lines
are copies (TP) and how many are not (FP). The matcher rule that last paired each line is
`truth_rules.py`'s to trace (it reruns the match). Bad input: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import difflib
import keyword
import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from truth_sample import load_report  # noqa: E402
from truth_score import COPIED, TRUTH, fail, read_truth  # noqa: E402

UNMARKED = ("copies", "plain")
REACH = 3  # code lines either side that count as neighbours

_TOKEN = re.compile(r"#.*|\"[^\"]*\"|'[^']*'|\d[\w.]*|[A-Za-z_]\w*|\S")
FEATURES = ["diff", "verbatim", "other", "order", "skew", "edge", "shared"]


def tokens(text: str) -> list[str]:
    """The line's tokens, comments left out (a rough split, enough to compare two lines)."""
    return [t for t in _TOKEN.findall(text) if not t.startswith("#")]


def _kind(token: str) -> str:
    if token[0] in "'\"" or token[0].isdigit():
        return "literal"
    if keyword.iskeyword(token):
        return "keyword"
    if token[0].isalpha() or token[0] == "_":
        return "name"
    return "punctuation"


def diff_kind(target: str, upstream: str) -> str:
    """What differs between a target line and its upstream partner (see the module docstring)."""
    a, b = tokens(target), tokens(upstream)
    if a == b:
        return "comment"
    kinds: set[str] = set()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op != "replace" or i2 - i1 != j2 - j1:
            return "structure"
        kinds |= {_kind(t) for t in a[i1:i2] + b[j1:j2]}
    if kinds == {"name"}:
        return "names"
    if kinds == {"literal"}:
        return "literal"
    if kinds == {"name", "literal"}:
        return "names+literal"
    return "structure"


def line_features(code: pd.DataFrame, line: int) -> dict[str, object]:
    """The neighbourhood features of target ``line`` (module docstring) from ``code``: one file's
    code rows of ``lines.csv`` (``line``, ``match``, ``upstream_path``, ``upstream_line``)."""
    code = code.sort_values("line").reset_index(drop=True)
    at = int(code.index[code["line"] == line][0])
    me = code.loc[at]
    u_path, u_line = me["upstream_path"], int(me["upstream_line"])
    above = code.loc[max(0, at - REACH):at - 1]
    below = code.loc[at + 1:at + REACH]
    near = pd.concat([above, below])
    paired = near[near["match"].isin(COPIED)]
    same = paired[paired["upstream_path"] == u_path]
    order, skews = True, []
    for side, step in ((above[above["match"].isin(COPIED)], -1), (below[below["match"].isin(COPIED)], 1)):
        if side.empty:
            continue
        nearest = side.iloc[-1] if step < 0 else side.iloc[0]
        if nearest["upstream_path"] != u_path:
            continue
        n_line = int(nearest["upstream_line"])
        if (n_line - u_line) * step < 0:
            order = False
        skews.append(abs((n_line - u_line) - (int(nearest["line"]) - line)))
    return {
        "verbatim": int(((near["match"] == "verbatim") & (near["upstream_path"] == u_path)).sum()),
        "other": int(len(paired) - len(same)),
        "order": order,
        "skew": min(skews) if skews else None,
        "edge": not above["match"].isin(COPIED).any() or not below["match"].isin(COPIED).any(),
        "shared": int((same["upstream_line"].astype(int) == u_line).sum()),
    }


def near_lines(lines: pd.DataFrame, group: dict[str, str], truth: pd.DataFrame,
               target: dict[str, list[str]], upstream: dict[str, list[str]]) -> pd.DataFrame:
    """One row per truth-set code line the report labels near in an unmarked file: ``true``
    (the truth calls it copied), the two texts and the features."""
    joined = truth.astype({"line": int}).merge(lines, on=["target_path", "line"], how="inner")
    joined = joined[(joined["kind"] == "code") & (joined["match"] == "near")
                    & joined["target_path"].map(lambda p: group.get(p, "plain") in UNMARKED)]
    code = lines[lines["kind"] == "code"]
    by_file = {p: g for p, g in code[code["target_path"].isin(set(joined["target_path"]))].groupby("target_path")}
    rows = []
    for r in joined.itertuples(index=False):
        t_text = target[r.target_path][r.line - 1].strip()
        u_text = upstream[r.upstream_path][int(r.upstream_line) - 1].strip()
        rows.append({"target_path": r.target_path, "line": r.line, "true": r.expected in COPIED,
                     "similarity": r.similarity, "upstream": f"{r.upstream_path}:{r.upstream_line}",
                     "diff": diff_kind(t_text, u_text), **line_features(by_file[r.target_path], r.line),
                     "target_text": t_text, "upstream_text": u_text})
    # the columns even with no row: a report without such lines prints a table of none
    columns = ["target_path", "line", "true", "similarity", "upstream", *FEATURES, "target_text", "upstream_text"]
    return pd.DataFrame(rows, columns=columns)


def feature_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per feature and value: TP (copies) and FP (not copies) among ``rows``."""
    out = []
    for feature in FEATURES:
        for value, part in rows.groupby(rows[feature].astype(str)):
            out.append({"feature": feature, "value": value, "TP": int(part["true"].sum()),
                        "FP": int((~part["true"]).sum())})
    return pd.DataFrame(out, columns=["feature", "value", "TP", "FP"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--truth", type=Path, default=TRUTH)
    parser.add_argument("--lines", action="store_true", help="print one row per line too")
    args = parser.parse_args(argv)
    if not (args.report / "lines.csv").exists():
        fail(f"no lines.csv in {args.report}")
    truth = read_truth(args.truth)
    target, upstream, _, group, _ = load_report(args.report)
    lines = pd.read_csv(args.report / "lines.csv", keep_default_na=False,
                        usecols=["target_path", "line", "kind", "match", "upstream_path", "upstream_line",
                                 "similarity"])
    lines = lines[lines["target_path"].isin(target.keys())]
    rows = near_lines(lines, group, truth, target, upstream)
    print(f"{len(rows)} near code lines of unmarked files in the truth set: "
          f"{int(rows['true'].sum())} copies, {int((~rows['true']).sum())} not\n")
    print("| feature | value | TP | FP |\n|---|---|---:|---:|")
    for r in feature_table(rows).itertuples(index=False):
        print(f"| {r.feature} | {r.value} | {r.TP} | {r.FP} |")
    if args.lines:
        print("\n| line | copy | sim | upstream | " + " | ".join(FEATURES) + " |")
        print("|---|---|---:|---|" + "---|" * len(FEATURES))
        for r in rows.sort_values(["true", "target_path", "line"]).itertuples(index=False):
            values = " | ".join(str(getattr(r, f)) for f in FEATURES)
            print(f"| {r.target_path}:{r.line} | {'yes' if r.true else 'no'} | {r.similarity:.3f} | "
                  f"{r.upstream} | {values} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
