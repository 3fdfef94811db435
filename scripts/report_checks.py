"""Cross-checks of a report folder: every figure written in more than one file agrees.

    .venv/bin/python scripts/report_checks.py OUT [--readme README.md]

A licence reviewer's check before signing: each figure is recomputed here from the raw tables
(lines.csv first, with pandas; files.csv only for what lines.csv does not hold: markers, file
roles) by rules written in this file from the README's definitions, never by lineage's own
figure code, and compared with every place that states it: summary.json, summary.md, files.csv,
regions.csv, functions.csv, obligations.csv, ATTRIBUTION.md, the SPDX, CycloneDX and SARIF
attachments, the HTML index and pages, manifest.json's output digests and inputs, and in a
`lineage scan` folder scan.json against candidates.csv and the manifest. lines.csv
itself is checked against its definitions (similarity, pairing). ``--readme`` also compares the
main job's figures a README states (its headline bullets, list counts, the real-pair checks'
counts, the estimate table's lines, the licence review, CI gate and HTML size figures) with the
report: a README states those of one report, so they disagree once later rules move them.

Prints one row per invariant: how many items it compared and how many disagree (with examples);
exits 1 when any disagrees. ``check_report`` returns the rows for tests.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd

NUMBER = r"\d[\d,]*"
REVIEW_TITLES = {  # summary.md's section titles of the review lists
    "marked_with_copied": "Marked files with copied code",
    "marked_without_copied": "Marked files with no copied code",
    "unmarked_with_copied": "Unmarked files with copied code (review these)",
    "reexport_with_copied": "Re-export-only files with copied code lines",
    "prose_only_copied": "Files with copied comments or docstrings only",
}
TABLE_LIMIT = 60  # rows summary.md shows of a list
MARKER_CUT = 80  # characters of a marker summary.md shows
MISSING_KINDS = ("copyright", "licence-notice", "modification-notice", "NOTICE")
ASSETS = {"index.html", "lineage.css", "lineage.js"}


@dataclass
class Check:
    name: str
    checked: int = 0
    bad: list[str] = field(default_factory=list)

    def compare(self, what: object, stated: object, expected: object) -> None:
        """One comparison: ``stated`` (what a file says) against ``expected`` (recomputed)."""
        self.checked += 1
        if stated != expected:
            self.bad.append(f"{what}: {stated!r} != {expected!r}")

    def items(self, what: object, stated: list, expected: list) -> None:
        """Two lists compared item by item (each a comparison): the first differences are named."""
        self.checked += max(len(stated), len(expected))
        if stated != expected:
            extra = [x for x in stated if x not in expected][:3]
            lacking = [x for x in expected if x not in stated][:3]
            self.bad.append(f"{what}: {len(stated)} stated, {len(expected)} recomputed; only stated {extra}, "
                            f"only recomputed {lacking}")



def mw_no_code(s: dict) -> int:
    """summary.json's count of marked files without copied code that hold no code line (0 before
    summary version 12, which counted them with the others)."""
    return int(s["marked_without_copied_files"].get("no_code", 0))

def num(text: str) -> int:
    return int(text.replace(",", ""))


def percent_ok(text: str, part: int, whole: int) -> bool:
    """The documented rule: one decimal, nearest (either way on an exact tie), never 0 % or
    100 % unless exact, ``<0.1 %`` / ``>99.9 %`` instead; ``n/a`` of nothing."""
    if whole == 0:
        return text == "n/a"
    if part == 0 or part == whole:
        return text == ("0 %" if part == 0 else "100 %")
    value = Fraction(100 * part, whole)
    if text == "<0.1 %":
        return value <= Fraction(1, 20)
    if text == ">99.9 %":
        return value >= Fraction(1999, 20)  # 99.95
    m = re.fullmatch(r"(\d+\.\d) %", text)
    if not m:
        return False
    shown = Fraction(m.group(1))
    return abs(shown - value) <= Fraction(1, 20) and Fraction(1, 10) <= shown <= Fraction(999, 10)


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


def read_csv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, dtype=str)


def ints(frame: pd.DataFrame, *columns: str, empty: int = 0) -> pd.DataFrame:
    """Integer columns; an empty cell (a count of a skipped file, no region) reads as ``empty``."""
    for c in columns:
        frame[c] = pd.to_numeric(frame[c].replace("", str(empty))).astype("int64")
    return frame


@dataclass
class Report:
    out: Path
    lines: pd.DataFrame
    files: pd.DataFrame
    regions: pd.DataFrame
    functions: pd.DataFrame
    obligations: pd.DataFrame
    summary: dict
    md: str
    # recomputed from lines.csv, one row per target file that has lines
    per_file: pd.DataFrame = field(default_factory=pd.DataFrame)


# What :func:`load` reads (the HTML view is checked only when the report has it).
REPORT_FILES = ("lines.csv", "files.csv", "regions.csv", "functions.csv", "obligations.csv", "ATTRIBUTION.md",
                "summary.json", "summary.md", "manifest.json")


def load(out: Path) -> Report:
    lines = read_csv(out / "lines.csv")
    ints(lines, "line")
    ints(lines, "upstream_line", "region", empty=-1)  # regions are numbered from 0
    files = read_csv(out / "files.csv")
    ints(files, "lines", "nonblank_lines", "code_lines", "verbatim_lines", "near_lines", "verbatim_code_lines",
         "near_code_lines", "upstream_files", "shared_third_party_lines", "shared_third_party_code_lines",
         "shared_from_target_lines", "shared_from_target_code_lines", "header_copied_lines", "header_shared_lines")
    regions = ints(read_csv(out / "regions.csv"), "region", "target_start", "target_end", "upstream_start",
                   "upstream_end", "verbatim_lines", "near_lines")
    functions = ints(read_csv(out / "functions.csv"), "start_line", "end_line", "code_lines", "copied_code_lines")
    obligations = ints(read_csv(out / "obligations.csv"), "copied_lines", "verbatim_lines", "near_lines",
                       "first_line", "last_line", "notice_lines_missing")
    report = Report(out, lines, files, regions, functions, obligations,
                    json.loads((out / "summary.json").read_text(encoding="utf-8")),
                    (out / "summary.md").read_text(encoding="utf-8"))
    report.per_file = per_file(lines)
    return report


def per_file(lines: pd.DataFrame) -> pd.DataFrame:
    """Each target file's counts, from lines.csv alone (the README's definitions)."""
    nonblank = lines["kind"] != "blank"
    code = lines["kind"] == "code"
    verbatim, near = lines["match"] == "verbatim", lines["match"] == "near"
    third = lines["shared_origin"].str.startswith("third_party:")
    back = lines["shared_origin"] == "from_target"
    flags = pd.DataFrame({
        "target_path": lines["target_path"], "lines": 1, "nonblank_lines": nonblank, "code_lines": code,
        "verbatim_lines": verbatim & nonblank, "near_lines": near & nonblank,
        "verbatim_code_lines": verbatim & code, "near_code_lines": near & code,
        "copied_any": verbatim | near,
        "shared_third_party_lines": third & nonblank, "shared_third_party_code_lines": third & code,
        "shared_from_target_lines": back & nonblank, "shared_from_target_code_lines": back & code,
    })
    return flags.groupby("target_path", sort=True).sum().astype("int64")


def marked_paths(r: Report) -> set[str]:
    indexed = r.files[r.files["status"] == "indexed"]
    return set(indexed.loc[indexed["marker"] != "", "target_path"])


# ---------------------------------------------------------------------------------------------
# files.csv, regions.csv, functions.csv, obligations.csv against lines.csv
# ---------------------------------------------------------------------------------------------

FILE_COUNTS = ("lines", "nonblank_lines", "code_lines", "verbatim_lines", "near_lines", "verbatim_code_lines",
               "near_code_lines", "shared_third_party_lines", "shared_third_party_code_lines",
               "shared_from_target_lines", "shared_from_target_code_lines")


def check_files(r: Report) -> list[Check]:
    counts, sources, share = Check("files.csv counts = lines.csv"), Check("files.csv main upstream file = lines.csv"), \
        Check("files.csv copied_share = (verbatim+near)/non-blank, 4 decimals")
    cover = Check("files.csv indexed paths = lines.csv paths (+ files without lines)")
    indexed = r.files[r.files["status"] == "indexed"].set_index("target_path")
    cover.compare("paths of lines.csv not in files.csv", sorted(set(r.per_file.index) - set(indexed.index))[:5], [])
    empty = indexed.index.difference(r.per_file.index)
    cover.compare("files.csv rows without lines.csv rows that have lines",
                  sorted(p for p in empty if indexed.loc[p, "lines"] != 0)[:5], [])
    copied = r.lines[(r.lines["match"] != "none") & (r.lines["kind"] != "blank")]
    by_file = {p: g for p, g in copied.groupby("target_path", sort=False)}
    for path, row in indexed.iterrows():
        mine = r.per_file.loc[path] if path in r.per_file.index else None
        for c in FILE_COUNTS:
            counts.compare(f"{path} {c}", int(row[c]), int(mine[c]) if mine is not None else 0)
        nonblank = int(mine["nonblank_lines"]) if mine is not None else 0
        n_copied = int(mine["verbatim_lines"] + mine["near_lines"]) if mine is not None else 0
        share.compare(f"{path}", float(row["copied_share"] or 0),
                      round(n_copied / nonblank, 4) if nonblank else 0.0)
        group = by_file.get(path)
        ranked = (Counter(zip(group["upstream"], group["upstream_path"], strict=True)).items()
                  if group is not None else [])
        ranked = sorted(ranked, key=lambda kv: (-kv[1], kv[0][0], kv[0][1]))
        sources.compare(f"{path} upstream_files", int(row["upstream_files"]), len(ranked))
        sources.compare(f"{path} upstream/upstream_path", (row["upstream"], row["upstream_path"]),
                        ranked[0][0] if ranked else ("", ""))
        sources.compare(f"{path} upstream_paths", row["upstream_paths"],
                        "; ".join(f"{u[1]} ({n})" for u, n in ranked))
    return [cover, counts, share, sources]


def check_lines(r: Report) -> list[Check]:
    """lines.csv against its own definitions (README *Figures and columns*) and the run's floors."""
    check = Check("lines.csv similarity and pairing as defined (floors from manifest.json)")
    params = json.loads((r.out / "manifest.json").read_text(encoding="utf-8"))["parameters"]
    floor, prose_floor = float(params["near_floor_similarity"]), float(params.get("near_floor_similarity_prose", 0))
    lines = r.lines
    sim = pd.to_numeric(lines["similarity"])
    prose = lines["kind"].isin(["comment", "docstring"])
    paired = (lines["upstream_path"] != "") & (lines["upstream_line"] > 0)
    shared = lines["shared_origin"] != ""
    for what, bad in (
            ("verbatim with similarity other than 1.0", (lines["match"] == "verbatim") & (sim != 1.0)),
            ("near outside [floor, 0.999]", (lines["match"] == "near") & (
                (sim > 0.999) | (sim < floor) | (prose & (sim < max(floor, prose_floor))))),
            ("none with similarity other than 0", (lines["match"] == "none") & (sim != 0)),
            ("similarity with more than 3 decimals", (sim * 1000 - (sim * 1000).round()).abs() > 1e-6),
            ("copied without upstream file and line, or in no region",
             (lines["match"] != "none") & (~paired | (lines["region"] < 0) | (lines["upstream"] == ""))),
            ("none with an upstream file or region", (lines["match"] == "none") & (paired | (lines["region"] >= 0))),
            ("blank lines copied or shared", (lines["kind"] == "blank") & ((lines["match"] != "none") | shared)),
            ("shared lines copied, or without the upstream line they share",
             shared & ((lines["match"] != "none") | (lines["shared_path"] == ""))),
    ):
        check.checked += len(lines)
        if bad.any():
            first = lines[bad].iloc[0]
            check.bad.append(f"{what}: {int(bad.sum())} rows, e.g. {first['target_path']}:{first['line']}")
    return [check]


def check_regions(r: Report) -> list[Check]:
    rows = Check("regions.csv rows = regions of lines.csv (one each, none empty)")
    spans = Check("regions.csv counts and spans = lines.csv")
    copied = r.lines[r.lines["match"] != "none"]
    no_region = copied[copied["region"] < 0]
    rows.compare("copied lines without a region", len(no_region), 0)
    keys = r.regions[["target_path", "region"]].apply(tuple, axis=1)
    rows.compare("duplicate (target_path, region) in regions.csv", int(keys.duplicated().sum()), 0)
    groups = {k: g for k, g in copied.groupby(["target_path", "region"], sort=False)}
    rows.compare("regions of lines.csv missing from regions.csv", sorted(set(groups) - set(keys))[:5], [])
    rows.compare("regions.csv rows without copied lines", sorted(set(keys) - set(groups))[:5], [])
    for reg in r.regions.itertuples(index=False):
        g = groups.get((reg.target_path, reg.region))
        if g is None:
            continue
        what = f"{reg.target_path}#R{reg.region}"
        spans.compare(f"{what} verbatim/near", (reg.verbatim_lines, reg.near_lines),
                      (int((g["match"] == "verbatim").sum()), int((g["match"] == "near").sum())))
        spans.compare(f"{what} target span", (reg.target_start, reg.target_end),
                      (int(g["line"].min()), int(g["line"].max())))
        spans.compare(f"{what} upstream span", (reg.upstream_start, reg.upstream_end),
                      (int(g["upstream_line"].min()), int(g["upstream_line"].max())))
        spans.compare(f"{what} upstream file", {(reg.upstream, reg.upstream_path)},
                      set(zip(g["upstream"], g["upstream_path"], strict=True)))
    return [rows, spans]


def check_functions(r: Report) -> list[Check]:
    check = Check("functions.csv code and copied code lines = lines.csv over each span")
    code = (r.lines["kind"] == "code").to_numpy()
    copied = code & (r.lines["match"] != "none").to_numpy()
    code_sum = pd.Series(code).groupby(r.lines["target_path"].to_numpy()).cumsum().to_numpy()
    copied_sum = pd.Series(copied).groupby(r.lines["target_path"].to_numpy()).cumsum().to_numpy()
    # position of (path, line) in lines.csv; cumulative sums are per file
    first = r.lines.reset_index(drop=True).groupby("target_path", sort=False).head(1)
    start_of = dict(zip(first["target_path"], first.index, strict=True))

    def upto(sums: object, path: str, line: int) -> int:
        return int(sums[start_of[path] + line - 1]) if line >= 1 else 0  # type: ignore[index]

    copied_rows = r.lines[copied]
    sources = {p: g for p, g in copied_rows.groupby("target_path", sort=False)}
    for f in r.functions.itertuples(index=False):
        if f.upstream_path:  # the upstream def/class most copied code lines came from: one of their files
            g = sources.get(f.target_path)
            span = g[(g["line"] >= f.start_line) & (g["line"] <= f.end_line)] if g is not None else None
            inside = set() if span is None else set(zip(span["upstream"], span["upstream_path"], strict=True))
            check.compare(f"{f.target_path}:{f.qualname} upstream file among its copied lines' files",
                          (f.upstream, f.upstream_path) in inside, True)
        n_code = upto(code_sum, f.target_path, f.end_line) - upto(code_sum, f.target_path, f.start_line - 1)
        n_copied = upto(copied_sum, f.target_path, f.end_line) - upto(copied_sum, f.target_path, f.start_line - 1)
        what = f"{f.target_path}:{f.qualname}"
        check.compare(f"{what} code/copied", (f.code_lines, f.copied_code_lines), (n_code, n_copied))
        check.compare(f"{what} copied_share", float(f.copied_share), round(n_copied / n_code, 4) if n_code else 0.0)
        check.compare(f"{what} upstream named iff copied", bool(f.upstream_path), n_copied > 0)
    return [check]


# Where the next copyright line of a joined obligations.csv cell starts (docs/tables.md: the lines
# are joined with "; ", and a line may hold "; " itself, "...Foundation; All Rights Reserved").
_NEXT_LINE_RE = re.compile(r"; (?=(?:portions\s+)?(?:©|\(c\)|copyright|spdx-filecopyrighttext|licensed to ))",
                           re.IGNORECASE)


def copyright_lines(cell: str) -> list[str]:
    """The copyright lines of an ``upstream_copyrights`` or ``copyrights_missing`` cell, each whole:
    "Copyright 2022 The HuggingFace Inc. team." is not "Copyright 2022 The HuggingFace Inc. team.
    All rights reserved.", which a substring test counted as it (vLLM 0.32.0 against transformers
    5.16.1: 5 pairs for 4)."""
    return [x.strip() for x in _NEXT_LINE_RE.split(cell) if x.strip()]


def check_obligations(r: Report) -> list[Check]:
    pairs = Check("obligations.csv rows = (target file, upstream file) pairs sharing copied lines")
    figures = Check("obligations.csv counts and first/last lines = lines.csv")
    copied = r.lines[r.lines["match"] != "none"]
    groups = {k: g for k, g in copied.groupby(["target_path", "upstream", "upstream_path"], sort=False)}
    keys = list(zip(r.obligations["target_path"], r.obligations["upstream"], r.obligations["upstream_path"],
                    strict=True))
    pairs.items("rows", sorted(keys), sorted(groups))
    marked = marked_paths(r)
    kept = Check("obligations.csv copyrights_missing: upstream_copyrights' lines, iff keeps_copyright is no")
    for row, key in zip(r.obligations.itertuples(index=False), keys, strict=True):
        kept.compare(f"{key}", (bool(row.copyrights_missing), all(
            part in copyright_lines(row.upstream_copyrights) for part in copyright_lines(row.copyrights_missing))),
                     (row.keeps_copyright == "no", True))
        g = groups.get(key)
        if g is None:
            continue
        figures.compare(f"{key}", (row.copied_lines, row.verbatim_lines, row.near_lines, row.first_line,
                                   row.last_line, row.marked),
                        (len(g), int((g["match"] == "verbatim").sum()), int((g["match"] == "near").sum()),
                         int(g["line"].min()), int(g["line"].max()), "yes" if key[0] in marked else "no"))
    return [pairs, figures, kept]


def check_attribution(r: Report) -> list[Check]:
    check = Check("ATTRIBUTION.md tables = obligations.csv rows")
    text = (r.out / "ATTRIBUTION.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]*)` \| `([^`]*)` \| (" + NUMBER + r") \|", text, flags=re.M)
    check.items("rows (target, upstream file, copied lines)", sorted((t, u, num(n)) for t, u, n in rows),
                  sorted(zip(r.obligations["target_path"], r.obligations["upstream_path"],
                             r.obligations["copied_lines"].astype(int), strict=True)))
    return [check]


# ---------------------------------------------------------------------------------------------
# summary.json against the tables
# ---------------------------------------------------------------------------------------------


def numbers(per: pd.DataFrame) -> dict[str, int]:
    return {"files": len(per), "code": int(per["code_lines"].sum()),
            "code_verbatim": int(per["verbatim_code_lines"].sum()), "code_near": int(per["near_code_lines"].sum()),
            "nonblank": int(per["nonblank_lines"].sum()), "nonblank_verbatim": int(per["verbatim_lines"].sum()),
            "nonblank_near": int(per["near_lines"].sum())}


def expected_lists(r: Report) -> dict[str, list[str]]:
    """The review lists by the README's definitions, from lines.csv (copied code) and files.csv
    (marker, file_role)."""
    indexed = r.files[r.files["status"] == "indexed"].set_index("target_path")
    per = r.per_file.reindex(indexed.index, fill_value=0)
    marked = indexed["marker"] != ""
    code = (per["verbatim_code_lines"] + per["near_code_lines"]) > 0
    prose = ((per["verbatim_lines"] + per["near_lines"]) > 0) & ~code
    reexport = indexed["file_role"] == "reexport"

    def paths(mask: pd.Series) -> list[str]:
        return sorted(mask.index[mask])

    return {"marked": paths(marked), "marked_with_copied": paths(marked & code & ~reexport),
            "marked_without_copied": paths(marked & ~code), "unmarked_with_copied": paths(~marked & code & ~reexport),
            "reexport_with_copied": paths(code & reexport),
            "shared_third_party": paths(per["shared_third_party_lines"] > 0),
            "shared_from_target": paths(per["shared_from_target_lines"] > 0), "prose_only_copied": paths(prose)}


def headline_numbers(sentence: str) -> list[tuple[int, int, str]]:
    """(part, whole, percent text) of each figure a headline sentence states."""
    m = re.search(rf"({NUMBER}) of ({NUMBER}) (?:code|non-blank) lines are verbatim \(([^)]*)\), ({NUMBER}) more "
                  rf"near \(([^)]*)\); copied in all ({NUMBER}) \(([^)]*)\)", sentence)
    if not m:
        return []
    v, total, pv, n, pn, c, pc = m.groups()
    return [(num(v), num(total), pv), (num(n), num(total), pn), (num(c), num(total), pc)]


def check_summary_json(r: Report) -> list[Check]:
    s = r.summary
    counts, lists, nums = Check("summary.json files counts"), Check("summary.json lists = README definitions"), \
        Check("summary.json all/marked/unmarked figures = lines.csv")
    head, up, shared = Check("summary.json headline = its figures, percentages as documented"), \
        Check("summary.json per_upstream = lines.csv"), Check("summary.json shared = lines.csv and files.csv")
    other = Check("summary.json regions, obligations, marked_without_copied_files, third_parties")
    f = r.files
    indexed = f[f["status"] == "indexed"]
    want = expected_lists(r)
    counts.compare("python", s["files"]["python"], len(f))
    counts.compare("indexed", s["files"]["indexed"], len(indexed))
    counts.compare("skipped", s["files"]["skipped"], int((f["status"] == "skipped").sum()))
    counts.compare("with_parse_errors", s["files"]["with_parse_errors"],
                   int(f["reason"].str.startswith("syntax errors").sum()))
    counts.compare("marked", s["files"]["marked"], len(want["marked"]))
    per_indexed = r.per_file.reindex(indexed["target_path"], fill_value=0)
    counts.compare("with_copied_lines (files with a copied line)", s["files"]["with_copied_lines"],
                   int(((per_indexed["verbatim_lines"] + per_indexed["near_lines"]) > 0).sum()))
    counts.compare("with_copied_code (files listed with copied code)", s["files"].get("with_copied_code"),
                   len(want["marked_with_copied"]) + len(want["unmarked_with_copied"]))
    for name, paths in want.items():
        lists.items(name, s["lists"].get(name, []), paths)
    lists.compare("list names", sorted(s["lists"]), sorted(want))
    per = r.per_file.reindex(indexed["target_path"], fill_value=0)
    marked = set(want["marked"])
    groups = {"all_files": per, "marked_files": per[per.index.isin(marked)],
              "unmarked_files": per[~per.index.isin(marked)]}
    for name, frame in groups.items():
        nums.compare(name, s[name], numbers(frame))
    # the headline: its numbers are the figures above, its percentages as documented
    n_all, n_marked = numbers(groups["all_files"]), numbers(groups["marked_files"])
    lines_ = s["headline"]
    m = re.match(rf"({NUMBER}) of ({NUMBER}) (?:files carry|file carries) a marker", lines_[0])
    head.compare("files carrying a marker / all", (num(m.group(1)), num(m.group(2))) if m else None,
                 (n_marked["files"], n_all["files"]))
    expected = []
    if n_marked["files"]:
        expected += [(n_marked, "code"), (n_marked, "nonblank")]
    expected += [(n_all, "code"), (n_all, "nonblank")]
    stated = [headline_numbers(x) for x in lines_ if headline_numbers(x)]
    head.compare("sentences with figures", len(stated), len(expected))
    for k, ((n, unit), figures_) in enumerate(zip(expected, stated, strict=False)):
        v, near = n[f"{unit}_verbatim"], n[f"{unit}_near"]
        head.compare(f"sentence {k + 1} numbers", [(p, w) for p, w, _ in figures_],
                     [(v, n[unit]), (near, n[unit]), (v + near, n[unit])])
        for p, w, text in figures_:
            head.checked += 1
            if not percent_ok(text, p, w):
                head.bad.append(f"sentence {k + 1}: {text} for {p}/{w}")
    copied = r.lines[r.lines["match"] != "none"]
    expected_up = {label: {"lines": len(g), "verbatim": int((g["match"] == "verbatim").sum()),
                           "near": int((g["match"] == "near").sum()), "files": int(g["target_path"].nunique())}
                   for label, g in copied.groupby("upstream", sort=True)}
    up.compare("per_upstream", s["per_upstream"], expected_up)
    # shared lines: lines.csv's shared_origin, non-blank
    sh = s["shared"]
    lines = r.lines[(r.lines["shared_origin"] != "") & (r.lines["kind"] != "blank")]
    for kind, mask in (("third_party", lines["shared_origin"].str.startswith("third_party:")),
                       ("from_target", lines["shared_origin"] == "from_target")):
        g = lines[mask]
        shared.compare(kind, {k: sh[kind][k] for k in ("files", "lines", "code_lines")},
                       {"files": int(g["target_path"].nunique()), "lines": len(g),
                        "code_lines": int((g["kind"] == "code").sum())})
    by_name = {}
    for origin, g in lines.groupby("shared_origin", sort=True):
        by_name[origin] = {"files": int(g["target_path"].nunique()), "lines": len(g),
                           "code_lines": int((g["kind"] == "code").sum()),
                           "upstream_files": int(g["shared_path"].nunique())}
    shared.compare("third_party.by_name", sh["third_party"].get("by_name"),
                   {k.split(":", 1)[1]: v for k, v in by_name.items() if k.startswith("third_party:")})
    zero = {"files": 0, "lines": 0, "code_lines": 0, "upstream_files": 0}
    shared.compare("headers", sh.get("headers"), by_name.get("header", zero))
    shared.compare("generated", sh.get("generated"), by_name.get("generated", zero))
    shared.compare("header_copied_lines", sh["header_copied_lines"], int(indexed["header_copied_lines"].sum()))
    shared.compare("files_sharing_header_lines", sh["files_sharing_header_lines"],
                   int((indexed["header_shared_lines"] > 0).sum()))
    other.compare("regions", s["regions"], len(r.regions))
    ob = r.obligations
    missing = [set(m.split("; ")) - {""} for m in ob["missing"]]
    other.compare("obligations", {k: s["obligations"][k] for k in ("rows", "target_files", "rows_missing_something",
                                                                  "missing", "conflicts", "unknown_compatibility")},
                  {"rows": len(ob), "target_files": int(ob["target_path"].nunique()),
                   "rows_missing_something": sum(bool(m) for m in missing),
                   "missing": {k: sum(k in m for m in missing) for k in MISSING_KINDS},
                   "conflicts": int((ob["conflict"] == "yes").sum()),
                   "unknown_compatibility": int((ob["conflict"] == "unknown").sum())})
    other.compare("obligations.upstream_licences", s["obligations"]["upstream_licences"],
                  {k: int(v) for k, v in ob.groupby("upstream_licence")["target_path"].nunique().items()})
    listed = indexed[indexed["target_path"].isin(want["marked_without_copied"])]
    has_code = listed["code_lines"].astype(int) > 0  # a file with no code line is counted apart
    other.compare("marked_without_copied_files no_code", mw_no_code(s), int((~has_code).sum()))
    without = listed[has_code]
    named = without["marker_path"] != ""
    found = without["marker_path_found"].str.lower() == "true"
    python = without["marker_path"].str.endswith((".py", ".pyi"))  # a C source can be held by no comparison
    mw = s["marked_without_copied_files"]
    other.compare("marked_without_copied_files present/absent/not Python/none",
                  (mw["named_file_present"], mw["named_file_absent"], mw.get("named_file_not_python", 0),
                   mw["no_file_named"]),
                  (int((named & found).sum()), int((named & ~found & python).sum()),
                   int((named & ~found & ~python).sum()), int((~named).sum())))
    other.compare("marked_without_copied_files refs add up to the absent ones",
                  sum(x["files"] for k in ("releases", "commits", "other") for x in mw[k]) + mw["none"],
                  mw["named_file_absent"])
    other.compare("third_parties counts = shared.third_party.by_name",
                  {p["name"]: {k: p[k] for k in ("files", "lines", "code_lines", "upstream_files")} if "files" in p
                   else p.get("counts") for p in s["third_parties"]} if s["third_parties"] else {},
                  sh["third_party"].get("by_name", {}))
    return [counts, lists, nums, head, up, shared, other]


# ---------------------------------------------------------------------------------------------
# summary.md against summary.json and files.csv
# ---------------------------------------------------------------------------------------------


def shown_marker(marker: str) -> str:
    """A marker as a list table's cell shows it: its first MARKER_CUT characters, without the
    space a cut may end on (a Markdown cell's edge spaces are no text: transformers' deit marker
    "...The HuggingFace Inc. team" cut after "Inc. "), and "…" after a cut."""
    return marker[:MARKER_CUT].strip() + "…" if len(marker) > MARKER_CUT else marker.strip()


def marker_names_another_file(upstream_path: str, named: str) -> bool:
    """Whether a list table shows the file the marker names beside the main upstream file: it is
    neither that file nor a folder holding it."""
    return bool(upstream_path and named) and named != upstream_path \
        and not upstream_path.startswith(named.rstrip("/") + "/")


def md_cell(text: str) -> str:
    """A cell's text as written from the input (md_code/md_text undone)."""
    text = text.strip()
    m = re.fullmatch(r"(`+) ?(.*?) ?\1", text)
    if m:
        return m.group(2).replace("\\|", "|")
    return html.unescape(re.sub(r"\\([|\\`])", r"\1", text))


def md_sections(md: str) -> dict[str, list[str]]:
    """summary.md's '## ' sections: title line -> its lines."""
    out: dict[str, list[str]] = {}
    current = ""
    for line in md.splitlines():
        if line.startswith("## "):
            current = line[3:]
            out[current] = []
        elif current:
            out[current].append(line)
    return out


def md_rows(section: list[str]) -> tuple[list[list[str]], int]:
    """The first table's body rows (cells) and the 'N more' it states."""
    rows, more, seen = [], 0, False
    for line in section:
        if line.startswith("|"):
            seen = True
            cells = re.split(r"(?<!\\)\|", line)[1:-1]
            m = re.match(rf"\| \.\.\. ({NUMBER}) more ", line)
            if m:
                more = num(m.group(1))
            elif not re.fullmatch(r"\|[-:|]+\|", line) and not line.startswith("| target file") \
                    and not line.startswith("| third party") and not line.startswith("| upstream file"):
                rows.append(cells)
        elif seen:
            break
    return rows, more


def section_count(title: str) -> int | None:
    """N of a section title 'Shared ...: N files'."""
    m = re.search(rf": ({NUMBER})(?: target files?| files?)?$", title)
    return num(m.group(1)) if m else None


def check_summary_md(r: Report) -> list[Check]:
    s, md = r.summary, r.md
    head, sections, tables = Check("summary.md headline = summary.json"), \
        Check("summary.md section counts = summary.json"), Check("summary.md list tables = files.csv")
    prose = Check("summary.md sentences = summary.json / obligations.csv")
    bullets = [line[2:] for line in md.split("\n\n", 2)[1].splitlines() if line.startswith("- ")]
    head.compare("bullets", bullets, [f"{h}." for h in s["headline"]])
    f = s["files"]
    m = re.search(rf"Python files: ({NUMBER}) \(({NUMBER}) indexed, ({NUMBER}) skipped, ({NUMBER}) with syntax", md)
    prose.compare("Python files sentence", tuple(num(x) for x in m.groups()) if m else None,
                  (f["python"], f["indexed"], f["skipped"], f["with_parse_errors"]))
    secs = md_sections(md)
    files = r.files.set_index("target_path")
    for key, title in REVIEW_TITLES.items():
        found = [t for t in secs if t.startswith(title + ": ")]
        n = len(s["lists"][key])
        optional = key in ("reexport_with_copied", "prose_only_copied")
        sections.compare(f"'{title}'", [num(t.rsplit(": ", 1)[1]) for t in found], [] if optional and not n else [n])
        if not found:
            continue
        rows, more = md_rows(secs[found[0]])
        listed = files.loc[s["lists"][key]]
        if key == "prose_only_copied":
            listed = listed.assign(copied=listed["verbatim_lines"] + listed["near_lines"])
        else:
            listed = listed.assign(copied=listed["verbatim_code_lines"] + listed["near_code_lines"])
        ranked = listed.reset_index().sort_values(["copied", "target_path"], ascending=[False, True], kind="stable")
        tables.compare(f"'{title}' rows shown + more", (len(rows), more),
                       (min(len(ranked), TABLE_LIMIT), len(ranked) - min(len(ranked), TABLE_LIMIT)))
        for cells, row in zip(rows, ranked.itertuples(index=False), strict=False):
            if key == "prose_only_copied":
                want = [row.target_path, f"{row.nonblank_lines:,}", f"{row.verbatim_lines:,}", f"{row.near_lines:,}"]
            else:
                want = [row.target_path, f"{row.code_lines:,}", f"{row.verbatim_code_lines:,}",
                        f"{row.near_code_lines:,}"]
            upstream = row.marker_path if key == "marked_without_copied" else row.upstream_path
            want += [upstream or "–", shown_marker(row.marker)]
            got = [md_cell(c) for c in cells]
            other = None if key == "marked_without_copied" else \
                re.fullmatch(r"(.*) \(the marker names `(.*)`\)", got[4])
            if other:  # the file the marker names, when it is not the one most copied lines came from
                got[4] = md_cell(other.group(1))
                tables.compare(f"{row.target_path} 'the marker names'", other.group(2), row.marker_upstream_path)
            tables.compare(f"{row.target_path} marker names another file",
                           bool(other), marker_names_another_file(row.upstream_path, row.marker_upstream_path))
            if key == "marked_without_copied" and got[4].endswith(" (not in the trees compared)"):
                got[4] = md_cell(got[4].removesuffix(" (not in the trees compared)"))
                tables.compare(f"{row.target_path} 'not in the trees compared'", row.marker_path_found.lower(), "false")
            found_as = re.fullmatch(r"(.*) \(found as `(.*)`\)", got[4]) if key == "marked_without_copied" else None
            if found_as:  # the upstream file a marker's path was found as, when another path
                got[4] = md_cell(found_as.group(1))
                tables.compare(f"{row.target_path} 'found as'", found_as.group(2), row.marker_upstream_path)
            if key == "marked_without_copied":
                tables.compare(f"{row.target_path} 'found as' shown",
                               bool(found_as), row.marker_path_found.lower() == "true"
                               and row.marker_upstream_path.strip("/") not in ("", row.marker_path.strip("/")))
            tables.compare(row.target_path, got, want)
    # the marked files without copied code: the sentence above the table
    mw = s["marked_without_copied_files"]
    title = next((t for t in secs if t.startswith(REVIEW_TITLES["marked_without_copied"])), "")
    text = " ".join(secs.get(title, []))
    m = re.search(rf"({NUMBER}) holds? no code line", text)
    prose.compare("marked without copied code: no_code", num(m.group(1)) if m else 0, mw_no_code(s))
    for key, words in (("named_file_absent", "an upstream file that the trees compared do not hold"),
                       ("named_file_not_python", "a file that is no Python file"),
                       ("named_file_present", "one they hold"), ("no_file_named", "no file")):
        m = re.search(rf"({NUMBER}) names? {re.escape(words)}", text)
        prose.compare(f"marked without copied code: {key}", num(m.group(1)) if m else 0, mw.get(key, 0))
    for ref in mw["releases"]:
        prose.compare(f"release {ref['ref']}", f"`{ref['ref']}` ({ref['files']:,})" in text, True)
    if mw["releases"] or mw["commits"] or mw["other"]:  # the sentence on the refs is written
        m = re.search(rf"({NUMBER}) states? no release or commit", text)
        prose.compare("marked without copied code: refs none", num(m.group(1)) if m else 0, mw.get("none", 0))
    # shared sections
    sh = s["shared"]
    third = next((t for t in secs if t.startswith("Shared third-party code: ")), "")
    m = re.search(rf"({NUMBER}) non-blank lines \(({NUMBER}) code\)", " ".join(secs.get(third, [])))
    prose.compare("shared third-party files/lines/code",
                  (section_count(third), *(num(x) for x in (m.groups() if m else ()))),
                  (sh["third_party"]["files"], sh["third_party"]["lines"], sh["third_party"]["code_lines"]))
    rows, more = md_rows(secs.get(third, []))
    parties = s["third_parties"]
    tables.compare("third-party table rows + more", len(rows) + more, len(parties))
    for cells, p in zip(rows, parties, strict=False):
        counts = p.get("counts", p)
        tables.compare(f"third party {p['name']}", [md_cell(c) for c in cells[1:5]],
                       [f"{counts[k]:,}" for k in ("files", "lines", "code_lines", "upstream_files")])
    back = next((t for t in secs if t.startswith("Shared with an upstream file that was taken from the target: ")), "")
    body = " ".join(secs.get(back, []))
    m = re.search(rf"({NUMBER}) non-blank lines \(({NUMBER}) code\)", body)
    prose.compare("from-target files/lines/code",
                  (section_count(back), *(num(x) for x in (m.groups() if m else ()))),
                  (sh["from_target"]["files"], sh["from_target"]["lines"], sh["from_target"]["code_lines"]))
    origins = [o for o in s["upstream_origins"] if o["origin"] == "from_target"]
    # a vendored folder's row names no line
    listed = re.findall(r"^\| `([^`]*)`(?: \(lines (\d+)-(\d+)\))? \| (?:line (\d+): |folder )",
                        "\n".join(secs.get(back, [])), flags=re.M)
    m = re.search(rf"The ({NUMBER}) upstream files or parts whose header"
                  r"(?:, marker or vendored folder| or marker) says", body)
    if m:  # said above the table since fdce51e
        prose.compare("from-target origins counted", num(m.group(1)), len(origins))
    prose.compare("from-target origins table", [(p, a, b, int(n) if n else None) for p, a, b, n in listed],
                  [(o["path"], *(map(str, o["lines"]) if o["lines"] else ("", "")), o["line"]) for o in origins])
    m = re.search(rf"Licence and copyright header lines: ({NUMBER}) labelled copied as part of copied code; "
                  rf"({NUMBER}) paired outside copied code and not counted; ({NUMBER}) target files? .*? Generated "
                  rf"files set apart: ({NUMBER}); re-export-only files with copied lines, not listed above: ({NUMBER})",
                  body)
    prose.compare("header/generated/re-export sentence", tuple(num(x) for x in m.groups()) if m else None,
                  (sh["header_copied_lines"], sh.get("headers", {}).get("lines", 0), sh["files_sharing_header_lines"],
                   sh.get("generated", {}).get("files", 0), len(s["lists"]["reexport_with_copied"])))
    # licence obligations
    ob = s["obligations"]
    lic = " ".join(secs.get("Licence obligations", []))
    if ob["rows"]:
        m = re.search(rf"({NUMBER}) \(target file, upstream file\) pairs? in ({NUMBER}) target files?", lic)
        prose.compare("obligation pairs/files", tuple(num(x) for x in m.groups()) if m else None,
                      (ob["rows"], ob["target_files"]))
        for kind in MISSING_KINDS:
            m = re.search(rf"- {re.escape(kind)}: ({NUMBER}) pairs?", lic)
            prose.compare(f"missing {kind}", num(m.group(1)) if m else None, ob["missing"][kind])
        # the copyright lines said not kept: each with the pairs whose copyrights_missing holds it,
        # most first; said exactly when some pair misses a copyright
        bullet = next((x for x in secs.get("Licence obligations", []) if x.startswith("- copyright: ")), "")
        named = re.findall(rf'"(.+?)" \(({NUMBER}) pairs?\)', bullet.split("; not kept (`copyrights_missing`): ", 1)[-1]
                           if "; not kept (" in bullet else "")
        prose.compare("'not kept' said iff a pair misses copyright", bool(named), ob["missing"]["copyright"] > 0)
        cells = r.obligations["copyrights_missing"]
        for text, count in named:
            line = md_cell(text)
            prose.compare(f"not kept: {line[:60]}", num(count),
                          int(cells.map(lambda c, x=line: x in copyright_lines(c)).sum()))
        prose.compare("not kept: most first", [num(c) for _, c in named],
                      sorted((num(c) for _, c in named), reverse=True))
        m = re.search(rf"licence conflicts: ({NUMBER}) pairs?; compatibility unknown: ({NUMBER})", lic)
        prose.compare("conflicts/unknown", tuple(num(x) for x in m.groups()) if m else None,
                      (ob["conflicts"], ob["unknown_compatibility"]))
        rows, more = md_rows(secs.get("Licence obligations", []))
        prose.compare("obligations table rows + more", len(rows) + more, ob["rows_missing_something"])
    # the target's own statements of reuse: one section, one quote per statement, in order
    declared = s.get("declared_reuse", [])
    found = [t for t in secs if t.startswith("Reuse the target's description states: ")]
    sections.compare("'Reuse the target's description states'", [num(t.rsplit(": ", 1)[1]) for t in found],
                     [len(declared)] if declared else [])
    quotes = [line for t in found for line in secs[t] if line.startswith("- ")]
    prose.compare("declared reuse quotes", len(quotes), len(declared))
    for line, statement in zip(quotes, declared, strict=False):
        where = f"`{statement['path']}` line {statement['line']}: \u201c"
        prose.compare(f"declared reuse {statement['path']}:{statement['line']}",
                      line.startswith(f"- {statement['upstream']}, ") and where in line, True)
    return [head, sections, tables, prose]


# ---------------------------------------------------------------------------------------------
# The attachments: SPDX, CycloneDX, SARIF
# ---------------------------------------------------------------------------------------------


def kept_regions(r: Report) -> pd.DataFrame:
    return r.regions[(r.regions["verbatim_lines"] + r.regions["near_lines"]) > 0]


def check_spdx(r: Report) -> list[Check]:
    path = r.out / "lineage.spdx.json"
    if not path.exists():
        return []
    doc = json.loads(path.read_text(encoding="utf-8"))
    files, snippets = Check("SPDX Files = target files with copied lines"), Check("SPDX Snippets = copied regions")
    by_id = {f["SPDXID"]: f["fileName"].removeprefix("./") for f in doc.get("files", [])}
    regions = kept_regions(r)
    with_copies = sorted(set(r.lines.loc[r.lines["match"] != "none", "target_path"]))
    files.items("files", sorted(by_id.values()), with_copies)
    per = r.per_file
    for f in doc.get("files", []):
        p = f["fileName"].removeprefix("./")
        n = regions[regions["target_path"] == p]
        copied = int(per.loc[p, "copied_any"]) if p in per.index else 0
        files.compare(f"{p} comment", f.get("comment"), f"{copied} copied lines in {len(n)} regions")
    got = sorted((by_id.get(s["snippetFromFile"], "?"),
                  *next(((x["startPointer"]["lineNumber"], x["endPointer"]["lineNumber"]) for x in s["ranges"]
                         if "lineNumber" in x["startPointer"]), (0, 0)), s.get("comment", ""))
                 for s in doc.get("snippets", []))
    want = sorted((t.target_path, t.target_start, t.target_end,
                   f"copied from {t.upstream} {t.upstream_path} lines {t.upstream_start}-{t.upstream_end}: "
                   f"{t.verbatim_lines} verbatim, {t.near_lines} near") for t in regions.itertuples(index=False))
    snippets.compare("count", len(got), len(want))
    for g, w in zip(got, want, strict=False):
        snippets.compare(f"{w[0]}:{w[1]}", g, w)
    licence = {(t.target_path, t.upstream, t.upstream_path): t.upstream_licence
               for t in r.obligations.itertuples(index=False)}
    concluded = sorted((by_id.get(x["snippetFromFile"], "?"), x.get("comment", ""), x.get("licenseConcluded"))
                       for x in doc.get("snippets", []))
    wanted = sorted((t.target_path, f"copied from {t.upstream} {t.upstream_path} lines {t.upstream_start}-"
                     f"{t.upstream_end}: {t.verbatim_lines} verbatim, {t.near_lines} near",
                     licence.get((t.target_path, t.upstream, t.upstream_path)) or "NOASSERTION")
                    for t in regions.itertuples(index=False))
    snippets.items("licenseConcluded = obligations.csv upstream_licence of the pair", concluded, wanted)
    rel = Counter((x["relationshipType"], x["spdxElementId"].split("-")[1]) for x in doc.get("relationships", []))
    snippets.compare("DESCENDANT_OF per snippet, CONTAINS per file, DESCENDANT_OF per upstream copied from",
                     (rel[("DESCENDANT_OF", "Snippet")], rel[("CONTAINS", "Package")],
                      rel[("DESCENDANT_OF", "Package")]),
                     (len(want), len(by_id), regions["upstream"].nunique()))
    return [files, snippets]


def check_cyclonedx(r: Report) -> list[Check]:
    path = r.out / "lineage.cdx.json"
    if not path.exists():
        return []
    bom = json.loads(path.read_text(encoding="utf-8"))
    check = Check("CycloneDX occurrences = copied regions, per upstream")
    ancestors = bom["metadata"]["component"].get("pedigree", {}).get("ancestors", [])
    # The library writes ancestors sorted by name (pip against rich-13.7.1 and distlib: distlib
    # first); the n-th upstream is the one whose bom-ref is upstream-n (cyclonedx.py names them so).
    ancestors = sorted(ancestors, key=lambda a: int(m.group(1)) if (m := re.fullmatch(
        r"upstream-(\d+)", str(a.get("bom-ref", "")))) else 1 << 30)
    regions = kept_regions(r)
    # ancestors: the upstreams the report finds copied code from, in the run's order
    copied_from = set(regions["upstream"].astype(str))
    upstreams = [u["label"] for u in r.summary["upstreams"] if u["label"] in copied_from]
    check.compare("ancestors", [a["name"] for a in ancestors], upstreams)
    for a, label in zip(ancestors, upstreams, strict=False):
        got = sorted((o["location"], o["line"], o.get("additionalContext", ""))
                     for o in a.get("evidence", {}).get("occurrences", []))
        mine = regions[regions["upstream"] == label]
        want = sorted((t.target_path, t.target_start,
                       f"target lines {t.target_start}-{t.target_end} copied from {t.upstream_path} lines "
                       f"{t.upstream_start}-{t.upstream_end}: {t.verbatim_lines} verbatim, {t.near_lines} near")
                      for t in mine.itertuples(index=False))
        check.items(f"{label} occurrences", got, want)
        check.compare(f"{label} evidence licences = obligations.csv upstream licences",
                      sorted(x.get("expression", x.get("license", {}).get("id", ""))
                             for x in a.get("evidence", {}).get("licenses", [])),
                      all_of(set(r.obligations.loc[r.obligations["upstream"] == label, "upstream_licence"]) - {""}))
    return [check]


def all_of(licences: set[str]) -> list[str]:
    """The one expression a BOM's evidence holds for these licences: ``A AND (B OR C)``, sorted.
    WITH binds tighter than AND (SPDX), so a licence with its exception stands bare: poetry-core
    1.9.1's lark holds ``GPL-2.0-or-later WITH Bootloader-exception AND MIT AND MPL-2.0``."""
    return [" AND ".join(f"({x})" if (" AND " in x or " OR " in x) and len(licences) > 1 else x
                         for x in sorted(licences))] if licences else []


def check_sarif(r: Report) -> list[Check]:
    path = r.out / "lineage.sarif"
    if not path.exists():
        return []
    results = json.loads(path.read_text(encoding="utf-8"))["runs"][0]["results"]
    copies, notices, conflicts = Check("SARIF unmarked-copy = regions of unmarked files with copied code"), \
        Check("SARIF missing-notice = obligations.csv missing"), Check("SARIF licence-conflict = conflicts")
    unique = Check("SARIF fingerprints unique")

    def where(x: dict) -> tuple[str, int, int]:
        loc = x["locations"][0]["physicalLocation"]
        from urllib.parse import unquote
        return unquote(loc["artifactLocation"]["uri"]), loc["region"]["startLine"], loc["region"]["endLine"]

    by_rule: dict[str, list[dict]] = {}
    for x in results:
        by_rule.setdefault(x["ruleId"], []).append(x)
    review = set(r.summary["lists"]["unmarked_with_copied"])
    regions = kept_regions(r)
    mine = regions[regions["target_path"].isin(review)]
    copies.items("results", sorted(where(x) for x in by_rule.get("unmarked-copy", [])),
                   sorted((t.target_path, max(1, t.target_start), max(1, t.target_start, t.target_end))
                          for t in mine.itertuples(index=False)))
    counted = Counter(m.split(" ", 1)[0] for x in by_rule.get("unmarked-copy", [])
                      for m in [x["message"]["text"]])
    copies.compare("every region of a listed file", sum(counted.values()), len(mine))
    ob = r.obligations
    want = sorted((t.target_path, kind) for t in ob.itertuples(index=False) for kind in t.missing.split("; ") if kind)
    kinds = {"the copyright line": "copyright", "licence notice": "licence-notice",
             "a licence notice of one of": "licence-notice", "the file was changed": "modification-notice",
             "upstream NOTICE": "NOTICE"}
    got = sorted((where(x)[0], next((k for w, k in kinds.items() if w in x["message"]["text"]), "?"))
                 for x in by_rule.get("missing-notice", []))
    notices.items("results (file, kind)", got, want)
    conflicts.items("results", sorted(where(x) for x in by_rule.get("licence-conflict", [])),
                      sorted((t.target_path, t.first_line, t.last_line)
                             for t in ob[ob["conflict"] == "yes"].itertuples(index=False)))
    prints = [x["partialFingerprints"]["lineageFinding/v2"] for x in results]
    unique.compare("duplicates", len(prints) - len(set(prints)), 0)
    return [copies, notices, conflicts, unique]


# ---------------------------------------------------------------------------------------------
# HTML
# ---------------------------------------------------------------------------------------------


class _Cells(HTMLParser):
    """Rows of cells (text, attributes) of the index's table and its headline items."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, dict]]] = []
        self.headline: list[str] = []
        self.links: list[str] = []
        self._in_body = self._in_li = False
        self._ul = ""

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "tbody":
            self._in_body = True
        elif tag == "ul":
            self._ul = a.get("class") or ""
        elif tag == "li" and self._ul == "headline":
            self._in_li = True
            self.headline.append("")
        elif self._in_body and tag == "tr":
            self.rows.append([])
        elif self._in_body and tag == "td":
            self.rows[-1].append(["", a])
        elif self._in_body and tag == "a":
            self.links.append(a.get("href", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False
        elif tag == "li":
            self._in_li = False
        elif tag == "ul":
            self._ul = ""

    def handle_data(self, data: str) -> None:
        if self._in_li:
            self.headline[-1] += data
        elif self._in_body and self.rows and self.rows[-1]:
            self.rows[-1][-1][0] += data


def page_file(target_path: str) -> str:
    """The README's page name: the path with other characters as ``_``, of a long path its last
    whole names within 80 characters, then 12 hex of its SHA-256."""
    names = [re.sub(r"[^A-Za-z0-9._-]+", "_", n) for n in target_path.split("/") if n]
    stem = names[-1] if names else ""
    for name in reversed(names[:-1]):
        if len(name) + 1 + len(stem) > 80:
            break
        stem = f"{name}_{stem}"
    stem = stem[-80:].strip("._") or "file"
    return f"{stem}-{hashlib.sha256(target_path.encode('utf-8', 'surrogateescape')).hexdigest()[:12]}.html"


def check_html(r: Report) -> list[Check]:
    folder = r.out / "html"
    if not folder.is_dir():
        return []
    index, pages = Check("HTML index rows = files.csv (copied lines, shared code or a marker)"), \
        Check("HTML pages: one per index row, header and regions = files.csv/regions.csv/lines.csv")
    head = Check("HTML headline = summary.json")
    parser = _Cells()
    parser.feed((folder / "index.html").read_text(encoding="utf-8"))
    head.compare("headline", parser.headline, [f"{h}." for h in r.summary["headline"]])
    indexed = r.files[r.files["status"] == "indexed"]
    per = r.per_file.reindex(indexed["target_path"], fill_value=0)
    shared_code = (per["shared_third_party_code_lines"] + per["shared_from_target_code_lines"]).to_numpy()
    shown = indexed[((per["verbatim_lines"] + per["near_lines"]).to_numpy() > 0) | (shared_code > 0)
                    | (indexed["marker"] != "").to_numpy()]
    shown = shown.sort_values("target_path", kind="stable")
    index.compare("rows", len(parser.rows), len(shown))
    for cells, row in zip(parser.rows, shown.itertuples(index=False), strict=False):
        p = per.loc[row.target_path]
        copied = int(p["verbatim_lines"] + p["near_lines"])
        texts = [c[0] for c in cells]
        shared = int(p["shared_third_party_lines"] + p["shared_from_target_lines"])
        upstream = row.upstream_path or (f"{row.shared_upstream_path} (shared, not counted)" if shared else "")
        want = [row.target_path, f"{int(p['nonblank_lines']):,}", f"{int(p['verbatim_lines']):,}",
                f"{int(p['near_lines']):,}", texts[4] if len(texts) > 4 else "", upstream, row.marker,
                f"{shared:,}"]
        index.compare(row.target_path, texts, want)
        index.checked += 1
        if len(texts) > 4 and not percent_ok(texts[4], copied, int(p["nonblank_lines"])):
            index.bad.append(f"{row.target_path}: share {texts[4]} for {copied}/{int(p['nonblank_lines'])}")
    m = re.search(rf"({NUMBER}) of ({NUMBER}) target files have copied lines, shared code or a marker",
                  (folder / "index.html").read_text(encoding="utf-8"))
    index.compare("note", tuple(num(x) for x in m.groups()) if m else None, (len(shown), len(indexed)))
    names = {page_file(p): p for p in shown["target_path"]}
    pages.items("index links = page names", sorted(parser.links), sorted(names))
    on_disk = {p.name for p in folder.iterdir()} - ASSETS
    pages.compare("pages on disk = index rows", sorted(on_disk ^ set(names))[:5], [])
    regions = r.regions.sort_values(["target_path", "target_start"], kind="stable")
    by_file = {p: g for p, g in regions.groupby("target_path", sort=False)}
    copied = r.lines[r.lines["match"] != "none"]
    rows_of = {p: Counter(g["match"]) for p, g in copied.groupby("target_path", sort=False)}
    for name, path in names.items():
        if name not in on_disk:
            continue
        text = (folder / name).read_text(encoding="utf-8")
        p = per.loc[path]
        m = re.search(rf"<p>({NUMBER}) non-blank lines: ({NUMBER}) verbatim, ({NUMBER}) near, "
                      r"copied share ([<>]?[\d.]+ %|n/a)", text)
        pages.compare(f"{path} header", tuple(num(x) for x in m.groups()[:3]) if m else None,
                      (int(p["nonblank_lines"]), int(p["verbatim_lines"]), int(p["near_lines"])))
        if m:
            pages.checked += 1
            if not percent_ok(m.group(4), int(p["verbatim_lines"] + p["near_lines"]), int(p["nonblank_lines"])):
                pages.bad.append(f"{path}: share {m.group(4)}")
        heads = re.findall(rf"<tr id=R(\d+) class=rh><td colspan=4><a href=#R\d+>region (\d+) \((\d+) of (\d+) "
                           rf"here\)</a>: target "
                           rf"<a href=#L(\d+)>L\d+</a>–L(\d+) from .*? lines (\d+)–(\d+) \(({NUMBER}) verbatim, "
                           rf"({NUMBER}) near\)", text)
        g = by_file.get(path)
        want = [] if g is None else [
            (str(t.region), str(t.region), str(k), str(len(g)), str(t.target_start), str(t.target_end),
             str(t.upstream_start), str(t.upstream_end), f"{t.verbatim_lines:,}", f"{t.near_lines:,}")
            for k, t in enumerate(g.itertuples(index=False), start=1)]
        pages.compare(f"{path} region heads", heads, want)
        shown_rows = Counter(re.findall(r"<tr id=L\d+ class=([ve])[ >]", text))
        made = rows_of.get(path, Counter())
        pages.compare(f"{path} verbatim/near rows", (shown_rows["v"], shown_rows["e"]),
                      (made["verbatim"], made["near"]))
    return [head, index, pages]


# ---------------------------------------------------------------------------------------------
# manifest.json
# ---------------------------------------------------------------------------------------------


def check_manifest(r: Report) -> list[Check]:
    check = Check("manifest.json outputs: sha256 of every file, every file listed")
    manifest = json.loads((r.out / "manifest.json").read_text(encoding="utf-8"))
    outputs = manifest["outputs"]
    on_disk = sorted(p.relative_to(r.out).as_posix() for p in r.out.rglob("*")
                     if p.is_file() and p.name != "manifest.json")
    if scan_json(r) is not None:  # the scan's own files, checked against each other by check_scan
        on_disk = [name for name in on_disk if name not in SCAN_FILES]
    check.compare("listed files = files on disk", sorted(set(outputs) ^ set(on_disk))[:5], [])
    for name, digest in sorted(outputs.items()):
        path = r.out / name
        if path.is_file():
            check.compare(name, digest, "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest())
    check.compare("complete", manifest.get("complete"), True)
    inputs = Check("manifest.json inputs = summary.json, summary.md and files.csv")
    t, f, s = manifest["target"], r.files, r.summary
    inputs.compare("target python/indexed files", (t["python_files"], t["indexed_files"]),
                   (s["files"]["python"], s["files"]["indexed"]))
    inputs.compare("target skipped files", sorted(x["path"] for x in t["skipped_files"]),
                   sorted(f.loc[f["status"] == "skipped", "target_path"]))
    inputs.compare("target files with syntax errors", sorted(t["files_with_syntax_errors"]),
                   sorted(f.loc[f["reason"].str.startswith("syntax errors"), "target_path"]))
    inputs.compare("target spec/digest/tree digest", (t["spec"], t["digest"], t["tree_digest"]),
                   (s["target"]["spec"], s["target"]["digest"], s["target"]["tree_digest"]))
    inputs.compare("upstreams spec/label/digest/tree digest",
                   [(u["spec"], u["label"], u["digest"], u["tree_digest"]) for u in manifest["upstreams"]],
                   [(u["spec"], u["label"], u["digest"], u["tree_digest"]) for u in s["upstreams"]])
    def named(source: dict) -> str:  # each digest says what it is of (archive or commit, Python tree)
        digest = source["digest"]
        archive = (f"archive {digest}; " if digest.startswith("sha256:") else f"{digest}; ") if digest else ""
        return f"({archive}Python tree {source['tree_digest']})."

    inputs.compare("summary.md's target line", f"Target: `{t['spec']}` {named(t)}" in r.md, True)
    inputs.compare("summary.md's upstream lines",
                   [f": `{u['spec']}` {named(u)}" in r.md for u in manifest["upstreams"]],
                   [True] * len(manifest["upstreams"]))
    return [check, inputs]


# ---------------------------------------------------------------------------------------------
# scan.json and candidates.csv (a `lineage scan` folder)
# ---------------------------------------------------------------------------------------------

# What `lineage scan` writes beside the compare report. The manifest describes the compare (what
# `lineage reproduce` reruns from its inputs), not the store lookup, so it does not list them:
# scan.json carries candidates.csv's sha256, and the compare's upstreams must be what it names.
SCAN_FILES = ("candidates.csv", "scan.json")


def scan_json(r: Report) -> dict | None:
    path = r.out / "scan.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) and data.get("format") == "lineage.scan" else None


def check_scan(r: Report) -> list[Check]:
    data = scan_json(r)
    if data is None:
        return []
    check = Check("scan.json = candidates.csv and the compare's manifest")
    raw = (r.out / "candidates.csv").read_bytes()
    check.compare("candidates.csv sha256", data.get("candidates_sha256"), hashlib.sha256(raw).hexdigest())
    rows = pd.read_csv(io.BytesIO(raw), dtype=str, keep_default_na=False).to_dict("records")
    stated = [{k: str(v) for k, v in c.items()} for c in data["candidates"]]
    check.items("candidates", [{k: (f"{float(v):.6f}" if k == "score" else v) for k, v in c.items()}
                               for c in stated], rows)
    cands = data["candidates"]
    check.compare("ranks 1..n", [c["rank"] for c in cands], list(range(1, len(cands) + 1)))
    check.compare("rank order (score, then distinct lines, descending)",
                  [(c["score"], c["distinct_lines"]) for c in cands],
                  sorted(((c["score"], c["distinct_lines"]) for c in cands), reverse=True))
    check.compare("version-only lines <= distinct lines",
                  [c["release"] for c in cands if int(c.get("version_only_lines", 0)) > int(c["distinct_lines"])], [])
    # the README's rule: the best-ranked release of each of the top K projects, in rank order
    wanted: dict[str, str] = {}
    for c in cands:
        if len(wanted) < data["params"]["top"]:
            wanted.setdefault(c.get("project", c["release"]), c["release"])  # scan.json 1: per release
    check.compare("upstreams = best release of each top-K project", data["upstreams"], list(wanted.values()))
    check.compare("no release of the target's own project ranked",
                  [c["release"] for c in cands if c["release"] in set(data.get("own_releases", []))], [])
    manifest = json.loads((r.out / "manifest.json").read_text(encoding="utf-8"))
    check.compare("upstreams = the compare's (manifest.json)", data["upstreams"],
                  [u["spec"] for u in manifest["upstreams"]])
    check.compare("target = the compare's (manifest.json)", (data["target"]["spec"], data["target"]["digest"]),
                  (manifest["target"]["spec"], manifest["target"]["tree_digest"]))
    if "copied_lines" in data:  # scan.json 4: each compared release's copied lines, summary.json's per_upstream
        per = r.summary["per_upstream"]
        check.compare("copied_lines = summary.json's per_upstream lines", data["copied_lines"],
                      {u["spec"]: per.get(u["label"], {}).get("lines", 0) for u in manifest["upstreams"]})
    return [check]


# ---------------------------------------------------------------------------------------------
# A README's figures of the main job
# ---------------------------------------------------------------------------------------------


def check_readme(r: Report, readme: Path) -> list[Check]:
    """The main job's figures a README states: its headline bullets (summary.md's, word for
    word), the review lists' counts and the real-pair checks' counts that are the report's."""
    check = Check(f"{readme.name}: the main job's figures = the report")
    text = readme.read_text(encoding="utf-8")
    s = r.summary
    bullets = [f"- {h}." for h in s["headline"]]
    for b in bullets:
        check.compare(f"headline bullet {b[:40]}...", b in text.splitlines(), True)
    n = {k: len(v) for k, v in s["lists"].items()}
    m = re.search(rf"Of the ({NUMBER}) marked files, ({NUMBER}) hold copied code; ({NUMBER}) unmarked files hold", text)
    check.compare("lists sentence", tuple(num(x) for x in m.groups()) if m else None,
                  (n["marked"], n["marked_with_copied"], n["unmarked_with_copied"]))
    mw = s["marked_without_copied_files"]
    m = re.search(rf"Of the ({NUMBER}) marked files without copied code, ({NUMBER}) name a vLLM file", text)
    check.compare("marked without copied code sentence", tuple(num(x) for x in m.groups()) if m else None,
                  (n["marked_without_copied"], mw["named_file_absent"]))
    m = re.search(rf"({NUMBER}) names? a file 0\.32\.0 holds and ({NUMBER}) names? no file", text)
    check.compare("present / no file", tuple(num(x) for x in m.groups()) if m else None,
                  (mw["named_file_present"], mw["no_file_named"]))
    m = re.search(rf"`marked_with_copied` \(({NUMBER})\) / `unmarked_with_copied` \(({NUMBER})\)", text)
    check.compare("real-pair checks: list sizes", tuple(num(x) for x in m.groups()) if m else None,
                  (n["marked_with_copied"], n["unmarked_with_copied"]))
    m = re.search(rf"`verbatim` lines \(({NUMBER})\) whose stripped text differs", text)
    check.compare("real-pair checks: verbatim rows", num(m.group(1)) if m else None,
                  int((r.lines["match"] == "verbatim").sum()))
    ob = s["obligations"]
    m = re.search(rf"`obligations.csv` has ({NUMBER}) rows for ({NUMBER}) target files; ({NUMBER}) rows lack "
                  rf"something: the upstream\s+copyright line in ({NUMBER}).*?a licence notice in ({NUMBER}), a\s+"
                  rf"modification notice in ({NUMBER})", text, flags=re.S)
    check.compare("licence review: obligations", tuple(num(x) for x in m.groups()) if m else None,
                  (ob["rows"], ob["target_files"], ob["rows_missing_something"], ob["missing"]["copyright"],
                   ob["missing"]["licence-notice"], ob["missing"]["modification-notice"]))
    spdx = json.loads((r.out / "lineage.spdx.json").read_text(encoding="utf-8"))
    m = re.search(rf"`lineage.spdx.json`: ({NUMBER}) files, ({NUMBER}) snippets", text)
    check.compare("licence review: SPDX files/snippets", tuple(num(x) for x in m.groups()) if m else None,
                  (len(spdx["files"]), len(spdx["snippets"])))
    rules = Counter(x["ruleId"] for x in json.loads((r.out / "lineage.sarif").read_text(encoding="utf-8"))
                    ["runs"][0]["results"])
    m = re.search(rf"({NUMBER}) `unmarked-copy` \(the regions.*?and ({NUMBER}) `missing-notice` results", text,
                  flags=re.S)
    check.compare("licence review: SARIF results", tuple(num(x) for x in m.groups()) if m else None,
                  (rules["unmarked-copy"], rules["missing-notice"]))
    u = s["unmarked_files"]
    m = re.search(rf"unmarked copied code lines: ({NUMBER}), more than", text)
    check.compare("CI gate: unmarked copied code lines", num(m.group(1)) if m else None,
                  u["code_verbatim"] + u["code_near"])
    f = r.files[(r.files["status"] == "indexed") & (r.files["marker"] == "")]
    big = f[(f["verbatim_code_lines"] + f["near_code_lines"]) >= 500]
    m = re.search(r"`--require-marker-min-lines 500` exits 1 with (\d+) files?", text)
    check.compare("CI gate: unmarked files with 500+ copied code lines", int(m.group(1)) if m else None, len(big))
    pages = len([p for p in (r.out / "html").iterdir()]) if (r.out / "html").is_dir() else 0
    m = re.search(rf"`html/` is [\d.]+ MB in ({NUMBER}) files \(({NUMBER}) pages", text)
    check.compare("HTML size: files and pages", tuple(num(x) for x in m.groups()) if m else None,
                  (pages, pages - len(ASSETS)))
    a = s["all_files"]
    for label, value in (("`verbatim`, all files", a["code_verbatim"]), ("`near`, all files", a["code_near"]),
                         ("all", a["code_verbatim"] + a["code_near"])):
        m = re.search(rf"^\| {re.escape(label)} \| ({NUMBER}) \|", text, flags=re.M)
        check.compare(f"estimate table row '{label}'", num(m.group(1)) if m else None, value)
    return [check]


# ---------------------------------------------------------------------------------------------


def check_report(out: Path, readme: Path | None = None) -> list[Check]:
    r = load(out)
    checks = [*check_lines(r), *check_files(r), *check_regions(r), *check_functions(r), *check_obligations(r),
              *check_attribution(r), *check_summary_json(r), *check_summary_md(r), *check_spdx(r),
              *check_cyclonedx(r), *check_sarif(r), *check_html(r), *check_manifest(r),
              *check_scan(r)]
    if readme is not None:
        checks += check_readme(r, readme)
    return checks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report", type=Path)
    ap.add_argument("--readme", type=Path, help="also compare the main job's figures this README states")
    args = ap.parse_args()
    # a report the checks cannot read is one line and exit 2, as lineage's own bad input
    needed = [args.report / name for name in REPORT_FILES] + ([args.readme] if args.readme else [])
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        print(f"report_checks: not a complete lineage report: {missing[0]} is missing", file=sys.stderr)
        return 2
    try:
        checks = check_report(args.report, args.readme)
    except (ValueError, KeyError) as exc:  # a file of another format (an older report's)
        print(f"report_checks: cannot read {args.report}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    width = max(len(c.name) for c in checks)
    for c in checks:
        print(f"{c.name:<{width}}  {c.checked:>9,} compared  {len(c.bad):>6} disagree  {'; '.join(c.bad[:3])[:600]}")
    return 1 if any(c.bad for c in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
