"""Reporters: one module per output, each a view of a :class:`lineage.results.Comparison`.

Figure files (CSV, summary) are byte-identical for identical inputs; only the manifest carries
a timestamp and timings.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from lineage.errors import LineageError
from lineage.report.attachments import report_time
from lineage.report.cyclonedx import CycloneDxReporter
from lineage.report.folder import ReportFolder
from lineage.report.html import HtmlReporter
from lineage.report.manifest import write_manifest
from lineage.report.obligations import ObligationsReporter
from lineage.report.outdir import atomic_out_dir
from lineage.report.sarif import SarifReporter
from lineage.report.spdx import SpdxReporter
from lineage.report.summary import SummaryReporter
from lineage.report.tables import TablesReporter

if TYPE_CHECKING:
    from lineage.results import Comparison


@runtime_checkable
class Reporter(Protocol):
    """One output format. ``report_type`` names it (attachments by the name ``--formats`` takes);
    ``write`` renders the comparison into files of the :class:`ReportFolder` it is given.

    The folder is :func:`write_reports`'s: it makes it, removes it on failure, records every file
    written through it in the manifest and moves the whole into place. A reporter computes no figure:
    the conclusions are properties of :class:`lineage.results.Comparison`."""

    report_type: str

    def write(self, comparison: Comparison, folder: ReportFolder) -> None: ...


# Always written, in this order.
REPORTS: tuple[Reporter, ...] = (TablesReporter(), SummaryReporter(), ObligationsReporter())
# Attachments for reviewers' tools, chosen with ``--formats`` (all by default).
ATTACHMENTS: dict[str, Reporter] = {r.report_type: r for r in (SpdxReporter(), CycloneDxReporter(), SarifReporter())}
HTML: Reporter = HtmlReporter()  # unless --no-html


def write_reports(comparison: Comparison, out_dir: Path, html: bool = True,
                  formats: Sequence[str] = tuple(ATTACHMENTS)) -> list[Path]:
    """Write every report into ``out_dir``, whole or not at all (see :mod:`lineage.report.outdir`);
    the manifest last, with the others' digests and ``"complete": true``."""
    unknown = [name for name in formats if name not in ATTACHMENTS]
    if unknown:
        raise LineageError(f"unknown report format {unknown[0]!r} (choose from {', '.join(ATTACHMENTS)})")
    reporters = [*REPORTS, *(ATTACHMENTS[name] for name in formats), *([HTML] if html else [])]
    sources = [tree.info.location for tree in (comparison.target, *comparison.upstreams)]
    with atomic_out_dir(out_dir, sources) as fresh, report_time():
        folder = ReportFolder(fresh)
        for reporter in reporters:
            reporter.write(comparison, folder)
        written = [*folder.written, write_manifest(comparison, fresh, folder.written)]
    return [out_dir / path.relative_to(fresh) for path in written]
