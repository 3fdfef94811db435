"""summary.json (versioned, machine-readable) and summary.md (for people), with the headline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from lineage import __version__
from lineage.licences.obligations import obligation_counts, source_licence
from lineage.report.markdown import md_code, md_text
from lineage.results import Numbers, percent

if TYPE_CHECKING:
    from lineage.api import Comparison

SUMMARY_FORMAT = "lineage.summary"
# Change log:
# 1: first version.
# 2: "licences" (declared licence and licence files of the target and each upstream) and
#    "obligations" (counts from obligations.csv: pairs, what is missing, conflicts).
SUMMARY_VERSION = 2


def numbers_of(files: pd.DataFrame) -> Numbers:
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


def _groups(files: pd.DataFrame) -> dict[str, pd.DataFrame]:
    indexed = files[files["status"] == "indexed"]
    marked = indexed["marker"] != ""
    copied = (indexed["verbatim_lines"] + indexed["near_lines"]) > 0
    return {
        "marked": indexed[marked],
        "marked_with_copied": indexed[marked & copied],
        "marked_without_copied": indexed[marked & ~copied],
        "unmarked_with_copied": indexed[~marked & copied],
    }


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


def headline_lines(comparison: Comparison) -> list[str]:
    """The headline in the project's style, for marked files and all files, code and non-blank."""
    files = comparison.files
    names = ", ".join(comparison.upstream_names)
    indexed = files[files["status"] == "indexed"]
    marked = _groups(files)["marked"]
    n_all, n_marked = numbers_of(files), numbers_of(files[files["marker"] != ""])
    intro = f"{len(marked):,} of {len(indexed):,} files carry a marker naming {names}; "
    return [
        _sentence(intro, n_marked, "code"),
        _sentence("in those marked files, ", n_marked, "nonblank"),
        _sentence(f"in all {len(indexed):,} files, ", n_all, "code"),
        _sentence(f"in all {len(indexed):,} files, ", n_all, "nonblank"),
    ]


def summary_dict(comparison: Comparison) -> dict[str, object]:
    files = comparison.files
    groups = _groups(files)
    lines = comparison.lines
    copied = lines[lines["match"] != "none"]
    per_upstream = {
        str(label): {
            "lines": int(len(group)),
            "verbatim": int((group["match"] == "verbatim").sum()),
            "near": int((group["match"] == "near").sum()),
            "files": int(group["target_path"].nunique()),
        }
        for label, group in copied.groupby("upstream", sort=True, observed=True)
    }
    target = comparison.target
    return {
        "format": SUMMARY_FORMAT,
        "format_version": SUMMARY_VERSION,
        "lineage_version": __version__,
        "target": {"spec": target.info.spec, "label": target.info.label, "digest": target.info.digest,
                   "tree_digest": target.tree_digest},
        "upstreams": [{"spec": u.info.spec, "label": label, "digest": u.info.digest,
                       "tree_digest": u.tree_digest}
                      for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True)],
        "files": {
            "python": int(len(files)),
            "indexed": int((files["status"] == "indexed").sum()),
            "skipped": int((files["status"] == "skipped").sum()),
            "with_parse_errors": int(files["reason"].str.startswith("syntax errors").sum()),
            "marked": int(len(groups["marked"])),
            "with_copied_lines": int(len(groups["marked_with_copied"]) + len(groups["unmarked_with_copied"])),
        },
        "all_files": numbers_of(files).to_dict(),
        "marked_files": numbers_of(groups["marked"]).to_dict(),
        "unmarked_files": numbers_of(files[files["marker"] == ""]).to_dict(),
        "per_upstream": per_upstream,
        "regions": int(len(comparison.regions)),
        "headline": headline_lines(comparison),
        "lists": {name: sorted(frame["target_path"].tolist()) for name, frame in groups.items()},
        "licences": {"target": source_licence(target).to_dict(),
                     "upstreams": {label: source_licence(u).to_dict()
                                   for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True)}},
        "obligations": obligation_counts(comparison.obligations),
    }


def _table(frame: pd.DataFrame, limit: int = 60) -> list[str]:
    if frame.empty:
        return ["(none)", ""]
    out = ["| target file | code lines | verbatim code | near code | upstream file | marker |",
           "|---|---:|---:|---:|---|---|"]
    ranked = frame.assign(copied=frame["verbatim_code_lines"] + frame["near_code_lines"]).sort_values(
        ["copied", "target_path"], ascending=[False, True], kind="stable")
    for row in ranked.head(limit).itertuples():
        out.append(f"| {md_code(row.target_path)} | {row.code_lines:,} | {row.verbatim_code_lines:,} | "
                   f"{row.near_code_lines:,} | {md_code(row.upstream_path)} | {md_text(row.marker, 80)} |")
    if len(ranked) > limit:
        out.append(f"| ... {len(ranked) - limit} more (see files.csv) | | | | | |")
    out.append("")
    return out


def summary_markdown(comparison: Comparison) -> str:
    summary = summary_dict(comparison)
    groups = _groups(comparison.files)
    files = summary["files"]
    assert isinstance(files, dict)
    out = [f"# lineage: {md_text(comparison.target.info.label)} against "
           f"{md_text(', '.join(comparison.upstream_names))}", ""]
    out += [f"- {line}." for line in summary["headline"]]  # type: ignore[union-attr]
    out += ["", f"Target: {md_code(comparison.target.info.spec)} ({comparison.target.tree_digest}).  "]
    for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True):
        out.append(f"Upstream {md_text(label)}: {md_code(u.info.spec)} ({u.info.digest or u.tree_digest}).  ")
    out += ["", f"Python files: {files['python']:,} ({files['indexed']:,} indexed, {files['skipped']:,} "
            f"skipped, {files['with_parse_errors']:,} with syntax errors indexed from the "
            "error-tolerant parse). A line is *verbatim* when its stripped text equals the upstream "
            "line it names; *near* when it was copied with edits. Only lines inside a copied region "
            "count: a common line that merely exists upstream is not evidence.", ""]
    titles = {
        "marked_with_copied": "Marked files with copied code",
        "marked_without_copied": "Marked files with no copied code",
        "unmarked_with_copied": "Unmarked files with copied code (review these)",
    }
    for key, title in titles.items():
        out += [f"## {title}: {len(groups[key]):,}", ""] + _table(groups[key])
    from lineage.report.obligations import obligations_markdown

    out += obligations_markdown(comparison)
    return "\n".join(out) + "\n"


def write_summary(comparison: Comparison, out_dir: Path) -> list[Path]:
    json_path = out_dir / "summary.json"
    json_path.write_text(json.dumps(summary_dict(comparison), indent=2, sort_keys=False) + "\n",
                         encoding="utf-8")
    md_path = out_dir / "summary.md"
    md_path.write_text(summary_markdown(comparison), encoding="utf-8")
    return [json_path, md_path]
