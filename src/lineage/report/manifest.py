"""manifest.json: what was compared, with which tool and parameters, so anyone can rerun it.

The only report allowed to differ between two runs on the same inputs: it records when the run
happened and how long it took.
"""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from lineage.report import tool
from lineage.report.attachments import created_at
from lineage.report.folder import file_sha256
from lineage.results.obligations import source_licence

if TYPE_CHECKING:
    from lineage.index import TreeIndex
    from lineage.results import Comparison

tool_info = tool.tool_info  # re-exported: callers import it from here

MANIFEST_FORMAT = "lineage.manifest"
# Change log:
# 1: first version.
# 2: each source has "licence": its declared licence and licence files (lineage.licences);
#    "complete": true, written last into a report folder that is moved into place whole.
# 3: for `lineage reproduce`: "tool" has "commit" (and "dirty") when lineage runs from a git
#    checkout; "attachments_created" is the creation time SPDX and CycloneDX carry.
# 4: each source has "vendoring": its vendoring records (lineage.index.vendoring), which decide
#    which files are marked: `lineage reproduce` checks a folder input's records as its Python files.
# 5: a source's "licence" has "package_copyrights" when its top-level package states a
#    ``__copyright__`` string (summary format 15).
# 6: each source has "other_code": its source files in another language, per suffix, which
#    lineage does not compare (summary format 17).
# 7: a vendoring record of a dist-info without a RECORD has "tops": the imports its top_level.txt
#    lists, which its record covers beside those its name gives (pex 2.20.3's attrs: "attr").
#    Also since 7, "skipped_members" may name a licence, metadata or vendoring file left unread for
#    its size ("not read for declarations: over LIMIT bytes").
MANIFEST_VERSION = 7
# The libraries whose versions decide figures (parsing, similarity); `lineage reproduce` reports a change.
FIGURE_PACKAGES = ("tree-sitter", "tree-sitter-python", "rapidfuzz")
_PACKAGES = (*FIGURE_PACKAGES, "pandas", "numpy", "GitPython", "license-expression",
             "spdx-tools", "cyclonedx-python-lib")


def package_version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return ""


def describe_tree(tree: TreeIndex, label: str | None = None) -> dict[str, object]:
    info = tree.info
    return {
        "spec": info.spec,
        "kind": info.kind,
        "label": label or info.label,
        "location": info.location,
        "digest": info.digest,
        "details": info.details,
        "tree_digest": tree.tree_digest,
        "python_files": len(tree.files) + len(tree.skipped),
        "indexed_files": len(tree.files),
        "other_files": tree.other_files,
        "other_code": dict(tree.other_code),
        "skipped_files": [{"path": p, "reason": r} for p, r in tree.skipped],
        "files_with_syntax_errors": sorted(f.path for f in tree.files if f.parse_errors),
        "skipped_members": [{"path": p, "reason": r} for p, r in info.skipped],
        "cache_hits": tree.cache_hits,
        "cache_misses": tree.cache_misses,
        "index_seconds": round(tree.seconds, 3),
        "licence": source_licence(tree).to_dict(),
        "vendoring": [r.to_dict() for r in tree.vendoring],
    }


def manifest_dict(comparison: Comparison, outputs: list[Path], out_dir: Path,
                  digests: Mapping[Path, str] | None = None) -> dict[str, object]:
    """The manifest of ``outputs`` (files below ``out_dir``); ``digests``: the sha256 of some of
    them, already computed where they were written."""
    digests = digests or {}
    return {
        "format": MANIFEST_FORMAT,
        "format_version": MANIFEST_VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "attachments_created": created_at().isoformat(),  # the time SPDX and CycloneDX carry
        "command": sys.argv,
        "tool": tool.tool_info(),
        "environment": {"python": platform.python_version(), "platform": platform.platform(),
                        **{p: package_version(p) for p in _PACKAGES}},
        "parameters": comparison.params.to_dict(),
        "options": comparison.options,
        "target": describe_tree(comparison.target),
        "upstreams": [describe_tree(u, label)
                      for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True)],
        "outputs": {p.relative_to(out_dir).as_posix(): "sha256:" + (digests.get(p) or file_sha256(p))
                    for p in outputs if p.is_file()},
        "match_cache": {"hits": comparison.match_cache_hits, "misses": comparison.match_cache_misses,
                        "table_rows_reused": comparison.table_rows_reused},
        "timings_seconds": {k: round(v, 3) for k, v in comparison.timings.items()},
        "complete": True,  # readers refuse a report whose manifest does not say so
    }


def write_manifest(comparison: Comparison, out_dir: Path, outputs: list[Path],
                   digests: Mapping[Path, str] | None = None) -> Path:
    path = out_dir / "manifest.json"
    path.write_text(json.dumps(manifest_dict(comparison, outputs, out_dir, digests), indent=2) + "\n",
                    encoding="utf-8")
    return path
