"""Reporters: one module per output, each a view of a :class:`lineage.api.Comparison`.

Figure files (CSV, summary) are byte-identical for identical inputs; only the manifest carries
a timestamp and timings.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lineage.report.html import write_html
from lineage.report.manifest import write_manifest
from lineage.report.summary import write_summary
from lineage.report.tables import write_tables

if TYPE_CHECKING:
    from lineage.api import Comparison


def write_reports(comparison: Comparison, out_dir: Path, html: bool = True) -> list[Path]:
    """Write every report into ``out_dir``; the manifest last, with the others' digests."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = write_tables(comparison, out_dir)
    written += write_summary(comparison, out_dir)
    if html:
        written += write_html(comparison, out_dir)
    written.append(write_manifest(comparison, out_dir, written))
    return written
