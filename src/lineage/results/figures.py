"""The conclusions drawn from the tables: line counts, the review lists, shared-line figures and
the headline. Reporters render these; none computes a figure of its own.

Each function reads the ``files`` (and ``lines``) tables of :mod:`lineage.results.tables`, so the
same figures come out of a full comparison and of a ``figures_only`` one (``history``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import pandas as pd

from lineage.index.records import PYTHON_SUFFIXES

if TYPE_CHECKING:
    from lineage.index.vendoring import VendorRecord

# The review lists of summary.json ("lists"), in the order they are written.
LIST_NAMES = ("marked", "marked_with_copied", "marked_without_copied", "unmarked_with_copied",
              "reexport_with_copied", "shared_third_party", "shared_from_target", "prose_only_copied")


@dataclass
class Numbers:
    """Line counts over a set of files; ``+`` adds them (like coverage.py's Numbers)."""

    files: int = 0
    code: int = 0
    code_verbatim: int = 0
    code_near: int = 0
    nonblank: int = 0
    nonblank_verbatim: int = 0
    nonblank_near: int = 0

    def __add__(self, other: Numbers) -> Numbers:
        return Numbers(*(a + b for a, b in zip(asdict(self).values(), asdict(other).values(), strict=True)))

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def percent(part: int, whole: int) -> str:
    """``part/whole`` as a percentage with one decimal that never shows 0.0 or 100.0 unless exact."""
    if whole == 0:
        return "n/a"
    if part == 0:
        return "0 %"
    if part == whole:
        return "100 %"
    value = 100.0 * part / whole
    text = f"{value:.1f}"
    if text == "0.0":
        return "<0.1 %"
    if text == "100.0":
        return ">99.9 %"
    return f"{text} %"


def numbers_of(files: pd.DataFrame) -> Numbers:
    """The line counts of the indexed files of a files table."""
    indexed = files[files["status"] == "indexed"]
    return Numbers(
        files=len(indexed),
        code=int(indexed["code_lines"].sum()),
        code_verbatim=int(indexed["verbatim_code_lines"].sum()),
        code_near=int(indexed["near_code_lines"].sum()),
        nonblank=int(indexed["nonblank_lines"].sum()),
        nonblank_verbatim=int(indexed["verbatim_lines"].sum()),
        nonblank_near=int(indexed["near_lines"].sum()),
    )


def rows_where(frame: pd.DataFrame, mask: pd.Series, columns: Sequence[str]) -> pd.DataFrame:
    """``frame.loc[mask, columns]``, the rows kept by a filter per column. pandas picks rows by
    their positions (a take), and pyarrow's take of a column in several chunks first copies the
    chunks into one: the lines table a rerun assembles from reused rows has three, and its
    ``target_path`` alone is about 100 MB on a large target, copied (its pages touched anew in
    every worker process) on each such selection. A filter works chunk by chunk."""
    keep = mask.to_numpy(dtype=bool)
    return pd.DataFrame({name: frame[name].array[keep] for name in columns}, index=frame.index[keep])


def _column(frame: pd.DataFrame, name: str, default: object) -> pd.Series:
    return frame[name] if name in frame else pd.Series(default, index=frame.index)


def _copied_code(files: pd.DataFrame) -> pd.Series:
    """Which files hold a copied code line."""
    return (files["verbatim_code_lines"] + files["near_code_lines"]) > 0


def holds_copied_code(files: pd.DataFrame) -> pd.Series:
    """Which files count as *with copied code*: a copied code line, and not a re-export-only file
    (its copies are not evidence on their own). The review lists and the vendored copies' counts
    both use it, so that their figures agree."""
    return _copied_code(files) & (_column(files, "file_role", "") != "reexport")


def review_groups(files: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The review lists (:data:`LIST_NAMES`), as rows of the files table. A file is listed as
    holding copied code only with at least one copied code line (copied comments or docstrings
    alone are not), and not when it only re-exports; a file that only re-exports with copied code
    lines is in ``reexport_with_copied`` alone, marked or not (so "without copied code" means
    what it says)."""
    indexed = files[files["status"] == "indexed"]
    marked = indexed["marker"] != ""
    copied_code = _copied_code(indexed)
    reexport = _column(indexed, "file_role", "") == "reexport"
    evidence = holds_copied_code(indexed)
    groups = {
        "marked": indexed[marked],
        "marked_with_copied": indexed[marked & evidence],
        "marked_without_copied": indexed[marked & ~copied_code],  # a re-export's copies are listed apart
        "unmarked_with_copied": indexed[~marked & evidence],
        "reexport_with_copied": indexed[copied_code & reexport],
        "shared_third_party": indexed[_column(indexed, "shared_third_party_lines", 0) > 0],
        "shared_from_target": indexed[_column(indexed, "shared_from_target_lines", 0) > 0],
        # copied comments or docstrings but no copied code line: in none of the lists of copied
        # code, yet text a licence covers too (werkzeug 3.0.4's routing/__init__.py: 78 docstring
        # lines of 2.0.3's word for word)
        "prose_only_copied": indexed[~copied_code & ((_column(indexed, "verbatim_lines", 0)
                                                      + _column(indexed, "near_lines", 0)) > 0)],
    }
    assert tuple(groups) == LIST_NAMES
    return groups


def review_lists(groups: dict[str, pd.DataFrame]) -> dict[str, list[str]]:
    """The review lists (:func:`review_groups`) as sorted target paths."""
    return {name: sorted(frame["target_path"].tolist()) for name, frame in groups.items()}


def file_numbers(files: pd.DataFrame, groups: dict[str, pd.DataFrame]) -> dict[str, Numbers]:
    """Line counts of all, marked and unmarked files (``groups``: :func:`review_groups` of ``files``)."""
    return {"all_files": numbers_of(files),
            "marked_files": numbers_of(groups["marked"]),
            "unmarked_files": numbers_of(files[files["marker"] == ""])}


def vendored_copies(files: pd.DataFrame, versions: dict[str, str]) -> list[dict[str, object]]:
    """Per vendoring record that marks files (files.csv ``marker_kind`` ``vendored``, one record
    per marker text): the version it pins against the release compared (``versions``: upstream
    label -> version), and how much of its files' code is copied. A pin other than the release
    compared explains near lines: compare against the pinned release to see what was changed."""
    marked = files[(files["status"] == "indexed") & (_column(files, "marker_kind", "") == "vendored")]
    out: list[dict[str, object]] = []
    for record, group in marked.groupby("marker", sort=True):
        labels = sorted({str(u) for u in group["upstream"] if u})
        n = numbers_of(group)
        with_copied = int(holds_copied_code(group).sum())
        out.append({"record": str(record), "declared_version": str(group["marker_ref"].iloc[0]),
                    "upstreams": [{"label": label, "version": versions.get(label, "")} for label in labels],
                    "files": n.files, "files_with_copied_code": with_copied, "code_lines": n.code,
                    "verbatim_code_lines": n.code_verbatim, "near_code_lines": n.code_near})
    return out


def vendored_not_compared(records: Sequence[VendorRecord], files: pd.DataFrame) -> list[dict[str, object]]:
    """Per vendoring record of the target that marks no file here (its text is no indexed file's
    files.csv ``marker``: it names no upstream of this comparison, or the files it covers are
    absent), in the records' order: the Python files it speaks for (a file nested records cover
    is the innermost one's, as for the markers), their code lines, and the ``--upstream`` that
    would compare them when it pins a release. pex 2.20.3 compared with appdirs alone said
    nothing of the pip, setuptools and attrs it vendors. Not the record's line: it is no part of
    the recorded input (``lineage reproduce`` ignores it), so a comment added above a record
    would make a rerun differ."""
    from lineage.index.vendoring import vendor_markers

    indexed = files[files["status"] == "indexed"]
    marking = set(indexed.loc[_column(indexed, "marker_kind", "") == "vendored", "marker"])
    rest = [r for r in records if r.describe() not in marking]
    if not rest:
        return []
    code = dict(zip(indexed["target_path"], indexed["code_lines"], strict=True))
    innermost: dict[str, list[str]] = {}
    for path, found in vendor_markers(records, sorted(code)).items():
        innermost.setdefault(found[0].text, []).append(path)
    out: list[dict[str, object]] = []
    for r in rest:
        paths = innermost.get(r.describe(), [])
        out.append({"record": r.describe(), "name": r.name, "declared_version": r.version, "source": r.source,
                    "folder": r.folder, "files": len(paths),  # not its line: no input (lineage reproduce)
                    "code_lines": int(sum(code[p] for p in paths)),
                    "upstream_spec": _pypi_spec(r.name, r.version)})
    return out


def _pypi_spec(name: str, version: str) -> str:
    """``pypi:NAME==VERSION`` for a pin PyPI can hold, else "": none, one that is no version, or
    a local version (``44.0.0+3acb925...``, pex's patched setuptools), which no public index serves
    (PEP 440)."""
    from packaging.version import InvalidVersion, Version

    try:
        return "" if Version(version).local else f"pypi:{name}=={version}"
    except InvalidVersion:
        return ""


_RELEASE_REF = re.compile(r"v?(\d+(?:\.\d+)+(?:(?:a|b|rc|\.post|\.dev)\d+)*)")
_COMMIT_REF = re.compile(r"[0-9a-f]{7,40}")


def names_missing_file(marker_path: object, marker_path_found: object) -> bool:
    """A files-table row's marker names an upstream file that the trees compared do not hold
    (files.csv ``marker_path`` set, ``marker_path_found`` not true): the rule :func:`named_files`
    counts by, for the reporters that say it of one file."""
    return isinstance(marker_path, str) and bool(marker_path) and not (
        not pd.isna(marker_path_found) and bool(marker_path_found))


def named_files(marked_without_copied: pd.DataFrame) -> dict[str, object]:
    """Why a marked file may hold no copied code, as far as its marker says: of the marked files
    without copied code that hold a code line (``no_code``: how many hold none), how many name an
    upstream file that the compared trees hold
    (``named_file_present``: the code was rewritten since, or never taken), how many one they do
    not hold (``named_file_absent``: removed, renamed or moved in the upstream since the copy, so
    the release compared cannot show it), how many a file that is no Python file
    (``named_file_not_python``: a C or CUDA source its comment cites, which no comparison of Python
    files can hold: pandas 2.2.3's ``blocks.py`` names numpy's ``calculation.c``), and how many name
    no file (``no_file_named``); and the
    refs (tag, branch or commit of a URL, files.csv ``marker_ref``) the absent files' markers name,
    most files first: ``releases`` (a tag that reads as a version, ``v0.7.3`` -> ``0.7.3``),
    ``commits``, ``other`` (a branch such as ``main``), ``none`` (no ref)."""
    # a file without a code line (an empty or docstring-only ``__init__.py``) cannot show copied
    # code: counted apart (``no_code``), since "rewritten since" would misexplain it (pipenv
    # 2024.0.1: 23 vendored empty ``__init__.py`` files were said to name a file "rewritten since")
    code = _column(marked_without_copied, "code_lines", 1).fillna(1).astype(int) > 0
    group = marked_without_copied[code]
    found = _column(group, "marker_path_found", pd.NA)
    paths = _column(group, "marker_path", "").fillna("").astype(str)
    named = paths != ""
    present = named & (found.astype("boolean").fillna(False))
    python = paths.str.endswith(PYTHON_SUFFIXES)  # the files a comparison reads: no other can be answered
    not_python = named & ~present & ~python
    absent = named & ~present & ~not_python
    refs: dict[str, dict[str, int]] = {"releases": {}, "commits": {}, "other": {}}
    no_ref = 0
    for ref in _column(group, "marker_ref", "").fillna("").astype(str)[absent]:
        release = _RELEASE_REF.fullmatch(ref)
        kind = "releases" if release else "commits" if _COMMIT_REF.fullmatch(ref) else "other" if ref else ""
        if not kind:
            no_ref += 1
            continue
        key = release.group(1) if release else ref
        refs[kind][key] = refs[kind].get(key, 0) + 1
    ranked = {kind: [{"ref": ref, "files": n} for ref, n in sorted(found_refs.items(), key=lambda kv: (-kv[1], kv[0]))]
              for kind, found_refs in refs.items()}
    return {"named_file_present": int(present.sum()), "named_file_absent": int(absent.sum()),
            "named_file_not_python": int(not_python.sum()),
            "no_file_named": int((~named).sum()), "no_code": int((~code).sum()), **ranked, "none": no_ref}


def file_counts(files: pd.DataFrame, groups: dict[str, pd.DataFrame]) -> dict[str, int]:
    """How many Python files were indexed, skipped, parsed with errors, marked, hold a copied
    line (``with_copied_lines``: the files obligations.csv and the SPDX document name, re-export-only
    and prose-only ones included) and are listed with copied code (``with_copied_code``)."""
    indexed = files[files["status"] == "indexed"]
    return {
        "python": int(len(files)),
        "indexed": int(len(indexed)),
        "skipped": int((files["status"] == "skipped").sum()),
        "with_parse_errors": int(files["reason"].str.startswith("syntax errors").sum()),
        "marked": int(len(groups["marked"])),
        "with_copied_lines": int(((indexed["verbatim_lines"] + indexed["near_lines"]) > 0).sum()),
        "with_copied_code": int(len(groups["marked_with_copied"]) + len(groups["unmarked_with_copied"])),
    }


def per_upstream(lines: pd.DataFrame) -> dict[str, dict[str, int]]:
    """Copied lines, verbatim, near and target files, by the upstream they came from."""
    copied = rows_where(lines, lines["match"] != "none", ["upstream", "match", "target_path"])
    return {
        str(label): {
            "lines": int(len(group)),
            "verbatim": int((group["match"] == "verbatim").sum()),
            "near": int((group["match"] == "near").sum()),
            "files": int(group["target_path"].nunique()),
        }
        for label, group in copied.groupby("upstream", sort=True, observed=True)
    }


def shared_figures(files: pd.DataFrame, lines: pd.DataFrame) -> dict[str, object]:
    """Figures of what the matcher paired but does not count as copied (lineage.match.origin)."""
    indexed = files[files["status"] == "indexed"]
    out: dict[str, object] = {}
    for kind in ("third_party", "from_target"):
        n_lines = _column(indexed, f"shared_{kind}_lines", 0)
        n_code = _column(indexed, f"shared_{kind}_code_lines", 0)
        out[kind] = {"files": int((n_lines > 0).sum()), "lines": int(n_lines.sum()), "code_lines": int(n_code.sum())}
    if "shared_origin" in lines:
        shared = rows_where(lines, (lines["shared_origin"] != "") & (lines["kind"] != "blank"),
                            ["shared_origin", "kind", "target_path", "shared_path"])
        by_origin: dict[str, dict[str, int]] = {}
        for origin, group in shared.groupby("shared_origin", sort=True, observed=True):
            by_origin[str(origin)] = {"files": int(group["target_path"].nunique()), "lines": int(len(group)),
                                      "code_lines": int((group["kind"] == "code").sum()),
                                      "upstream_files": int(group["shared_path"].nunique())}
        out["third_party"]["by_name"] = {k.split(":", 1)[1]: v for k, v in by_origin.items()  # type: ignore[index]
                                         if k.startswith("third_party:")}
        out["headers"] = by_origin.get("header", {"files": 0, "lines": 0, "code_lines": 0, "upstream_files": 0})
        out["generated"] = by_origin.get("generated", {"files": 0, "lines": 0, "code_lines": 0, "upstream_files": 0})
    out["header_copied_lines"] = int(_column(indexed, "header_copied_lines", 0).sum())
    out["files_sharing_header_lines"] = int((_column(indexed, "header_shared_lines", 0) > 0).sum())
    return out


def _sentence(who: str, n: Numbers, unit: str) -> str:
    if unit == "code":
        total, verbatim, near = n.code, n.code_verbatim, n.code_near
        lines = "code lines"
    else:
        total, verbatim, near = n.nonblank, n.nonblank_verbatim, n.nonblank_near
        lines = "non-blank lines"
    return (f"{who}{verbatim:,} of {total:,} {lines} are verbatim ({percent(verbatim, total)}), "
            f"{near:,} more near ({percent(near, total)}); copied in all "
            f"{verbatim + near:,} ({percent(verbatim + near, total)})")


def headline(files: pd.DataFrame, upstream_names: Sequence[str],
             numbers: dict[str, Numbers] | None = None) -> list[str]:
    """The headline in the project's style, for marked files and all files, code and non-blank;
    ``numbers``: :func:`file_numbers` of ``files`` when the caller has them already."""
    names = ", ".join(upstream_names)
    numbers = numbers if numbers is not None else file_numbers(files, review_groups(files))
    # Numbers.files counts indexed files: the marked ones, and all of them
    n_all, n_marked = numbers["all_files"], numbers["marked_files"]
    # A vendoring record (vendor.txt, a vendored dist-info) marks files from outside them: said apart.
    by_record = int(((files["status"] == "indexed") & (files["marker_kind"] == "vendored")).sum()) \
        if "marker_kind" in files else 0
    records = f" ({by_record:,} of them through a vendoring record)" if by_record else ""
    # a one-file tree reads "0 of 1 file carries", "in the 1 file" (not "of 1 files carry")
    one = n_all.files == 1
    intro = (f"{n_marked.files:,} of {n_all.files:,} {'file carries' if one else 'files carry'} a marker naming "
             f"{names}{records}; ")
    everywhere = "in the 1 file, " if one else f"in all {n_all.files:,} files, "
    # no marked file: say so rather than "0 of 0 code lines ... (n/a)" (a release against an older one of itself)
    marked = ([_sentence(intro, n_marked, "code"), _sentence("in those marked files, ", n_marked, "nonblank")]
              if n_marked.files else [intro.rstrip("; "), "in those marked files: none to count"])
    return [
        *marked,
        _sentence(everywhere, n_all, "code"),
        _sentence(everywhere, n_all, "nonblank"),
    ]
