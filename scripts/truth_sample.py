"""Draw the real-pair truth sample: 400 target lines of the sglang 0.5.23 / vLLM 0.32.0 report.

    .venv/bin/python scripts/truth_sample.py out/sglang-vllm --seed 20261202 > /tmp/sample.csv

The strata are defined by the two wheels and simple text rules in `truth_common.py` (file groups by
header text and by lines shared with vLLM), not by the matcher, so that a changed matcher is
scored on the same lines. Only line kinds (and, for three oversampling draws, the current match
label) come from the report. See corpora/sglang-vllm-truth.md for the strata.

File groups, first rule that holds wins (a "shared" line is a code line whose stripped text, at
least 20 characters long, occurs in 1 to 8 places of vLLM):
  marked       the file has a comment naming vLLM as its origin (`truth_common.names_vllm`)
  third_party  at least 5 distinct shared lines, and at least half of them, occur in a vLLM
               third-party file (`truth_common.is_third_party`)
  reverse      the same for vLLM files that say they came from sglang (`truth_common.is_from_sglang`)
  copies       at least 5 distinct shared lines
  plain        the rest
Draws (stratum = group.draw): uniform code lines of the group; shared lines (for third_party and
reverse: shared with such a vLLM file); lines the given report labels copied; plus `header`
(licence and copyright comment lines in a file's first 40 lines) and `near` (code lines the
report labels near). Every draw excludes lines already drawn.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import truth_common as tc  # noqa: E402

MIN_SHARED_CHARS = 20
MIN_SHARED_LINES = 5
# A shared line is distinctive only if vLLM holds its text in at most this many places.
MAX_SHARED_PLACES = 8
# (stratum, draw, n): 400 lines.
PLAN = [
    ("marked", "uniform", 30), ("marked", "shared", 30), ("marked", "copied", 20),
    ("third_party", "shared", 35), ("third_party", "uniform", 15),
    ("reverse", "shared", 35), ("reverse", "uniform", 15),
    ("copies", "uniform", 25), ("copies", "shared", 30), ("copies", "copied", 25),
    ("plain", "uniform", 20), ("plain", "shared", 10), ("plain", "copied", 10),
    ("header", "shared", 30), ("header", "uniform", 10),
    ("near", "uniform", 60),
]


def groups(target: dict[str, list[str]], upstream: dict[str, list[str]],
           code: dict[str, set[int]]) -> tuple[dict[str, str], dict[str, dict[str, set[int]]]]:
    """File group of every target file, and per file its shared lines by kind of vLLM file."""
    where = tc.line_index(upstream)
    third = {p for p, lines in upstream.items() if tc.is_third_party(p, lines)}
    reverse = {p for p, lines in upstream.items() if tc.is_from_sglang(lines)}
    group: dict[str, str] = {}
    shared: dict[str, dict[str, set[int]]] = {}
    for path, lines in target.items():
        s: dict[str, set[int]] = defaultdict(set)
        texts: dict[str, set[str]] = defaultdict(set)
        for i in sorted(code.get(path, ())):
            text = lines[i - 1].strip()
            hits = where.get(text)
            if not hits or len(text) < MIN_SHARED_CHARS or len(hits) > MAX_SHARED_PLACES:
                continue
            kinds = {"any"} | {"third_party" for p, _ in hits if p in third} | {
                "reverse" for p, _ in hits if p in reverse}
            for k in kinds:
                s[k].add(i)
                texts[k].add(text)
        shared[path] = s
        if tc.names_vllm(lines):
            group[path] = "marked"
        elif MIN_SHARED_LINES <= len(texts["third_party"]) >= len(texts["any"]) / 2:
            group[path] = "third_party"
        elif MIN_SHARED_LINES <= len(texts["reverse"]) >= len(texts["any"]) / 2:
            group[path] = "reverse"
        elif len(texts["any"]) >= MIN_SHARED_LINES:
            group[path] = "copies"
        else:
            group[path] = "plain"
    return group, shared


Files = dict[str, list[str]]


def load_report(report: Path) -> tuple[Files, Files, pd.DataFrame, dict[str, str], dict[str, dict[str, set[int]]]]:
    """Both wheels, the report's lines of the target wheel's files, and the files' groups and
    shared lines (:func:`groups`)."""
    target_wheel, upstream_wheel = tc.wheel_paths()
    target, upstream = tc.read_wheel(target_wheel), tc.read_wheel(upstream_wheel)
    lines = pd.read_csv(report / "lines.csv", usecols=["target_path", "line", "kind", "match"],
                        keep_default_na=False)
    lines = lines[lines["target_path"].isin(target.keys())]
    code = lines[lines["kind"] == "code"].groupby("target_path")["line"].apply(set).to_dict()
    return target, upstream, lines, *groups(target, upstream, code)


def draw(report: Path, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The sample (target_path, line, stratum) and the size of every stratum's pool."""
    target, upstream, lines, group, shared = load_report(report)
    upstream_where = tc.line_index(upstream)
    lines = lines.assign(group=lines["target_path"].map(group))
    rng = np.random.default_rng(seed)
    taken: set[tuple[str, int]] = set()
    rows = []
    sizes = []
    for stratum, how, n in PLAN:
        if stratum == "header":
            head = lines[lines["line"] <= 40]
            pool = [(p, i) for p, i in zip(head["target_path"], head["line"], strict=True)
                    if tc.is_licence_line(target[p][i - 1])]
            if how == "shared":
                pool = [(p, i) for p, i in pool if target[p][i - 1].strip() in upstream_where]
        elif stratum == "near":
            sel = lines[(lines["kind"] == "code") & (lines["match"] == "near")]
            pool = list(zip(sel["target_path"], sel["line"], strict=True))
        else:
            sel = lines[(lines["group"] == stratum) & (lines["kind"] == "code")]
            if how == "copied":
                sel = sel[sel["match"] != "none"]
            pool = list(zip(sel["target_path"], sel["line"], strict=True))
            if how == "shared":
                key = stratum if stratum in ("third_party", "reverse") else "any"
                pool = [(p, i) for p, i in pool if i in shared[p].get(key, ())]
        sizes.append((f"{stratum}.{how}", len(set(pool)),
                      int(lines.loc[lines["group"] == stratum, "target_path"].nunique())
                      if stratum in group.values() else None, n))
        pool = sorted(set(pool) - taken)
        if len(pool) < n:
            raise SystemExit(f"truth: error: stratum {stratum}.{how} has {len(pool)} lines, needs {n}")
        for k in sorted(rng.choice(len(pool), size=n, replace=False)):
            taken.add(pool[k])
            rows.append((pool[k][0], pool[k][1], f"{stratum}.{how}"))
    return (pd.DataFrame(rows, columns=["target_path", "line", "stratum"]),
            pd.DataFrame(sizes, columns=["stratum", "pool_lines", "group_files", "drawn"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="a report directory of the sglang/vLLM pair")
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--sizes", type=Path, help="also write each stratum's pool size to this CSV")
    args = parser.parse_args()
    if not (args.report / "lines.csv").exists():
        raise SystemExit(f"truth: error: no lines.csv in {args.report}")
    sample, sizes = draw(args.report, args.seed)
    if args.sizes:
        sizes.to_csv(args.sizes, index=False)
    sample.to_csv(sys.stdout, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
