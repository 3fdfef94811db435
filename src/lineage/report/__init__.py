"""Reporters: one module per output, each a view of a :class:`lineage.results.Comparison`.

Figure files (CSV, summary) are byte-identical for identical inputs; only the manifest carries
a timestamp and timings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lineage.report.attachments import report_time
from lineage.report.cyclonedx import write_cyclonedx
from lineage.report.html import write_html
from lineage.report.manifest import write_manifest
from lineage.report.obligations import write_obligations
from lineage.report.outdir import atomic_out_dir
from lineage.report.sarif import write_sarif
from lineage.report.spdx import write_spdx
from lineage.report.summary import write_summary
from lineage.report.tables import write_tables

if TYPE_CHECKING:
    from lineage.results import Comparison


# Attachments for reviewers' tools, chosen with ``--formats`` (all by default).
ATTACHMENTS: dict[str, Callable[[Comparison, Path], list[Path]]] = {
    "spdx": write_spdx,  # lineage.spdx.json
    "cyclonedx": write_cyclonedx,  # lineage.cdx.json
    "sarif": write_sarif,  # lineage.sarif
}


def write_reports(comparison: Comparison, out_dir: Path, html: bool = True,
                  formats: Sequence[str] = tuple(ATTACHMENTS)) -> list[Path]:
    """Write every report into ``out_dir``, whole or not at all (see :mod:`lineage.report.outdir`);
    the manifest last, with the others' digests and ``"complete": true``."""
    sources = [tree.info.location for tree in (comparison.target, *comparison.upstreams)]
    with atomic_out_dir(out_dir, sources) as fresh, report_time():
        written = write_tables(comparison, fresh)
        written += write_summary(comparison, fresh)
        written += write_obligations(comparison, fresh)
        for name in formats:
            written += ATTACHMENTS[name](comparison, fresh)
        if html:
            written += write_html(comparison, fresh)
        written.append(write_manifest(comparison, fresh, written))
    return [out_dir / path.relative_to(fresh) for path in written]
