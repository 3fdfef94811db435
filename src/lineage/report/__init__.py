"""Reporters: one module per output, each a view of a :class:`lineage.api.Comparison`.

Figure files (CSV, summary) are byte-identical for identical inputs; only the manifest carries
a timestamp and timings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lineage.report.cyclonedx import write_cyclonedx
from lineage.report.html import write_html
from lineage.report.manifest import write_manifest
from lineage.report.obligations import write_obligations
from lineage.report.sarif import write_sarif
from lineage.report.spdx import write_spdx
from lineage.report.summary import write_summary
from lineage.report.tables import write_tables

if TYPE_CHECKING:
    from lineage.api import Comparison


# Attachments for reviewers' tools, chosen with ``--formats`` (all by default).
ATTACHMENTS: dict[str, Callable[[Comparison, Path], list[Path]]] = {
    "spdx": write_spdx,  # lineage.spdx.json
    "cyclonedx": write_cyclonedx,  # lineage.cdx.json
    "sarif": write_sarif,  # lineage.sarif
}


def write_reports(comparison: Comparison, out_dir: Path, html: bool = True,
                  formats: Sequence[str] = tuple(ATTACHMENTS)) -> list[Path]:
    """Write every report into ``out_dir``; the manifest last, with the others' digests."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = write_tables(comparison, out_dir)
    written += write_summary(comparison, out_dir)
    written += write_obligations(comparison, out_dir)
    for name in formats:
        written += ATTACHMENTS[name](comparison, out_dir)
    if html:
        written += write_html(comparison, out_dir)
    written.append(write_manifest(comparison, out_dir, written))
    return written
