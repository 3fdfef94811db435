"""Reporters: one module per output, each a view of a :class:`lineage.results.Comparison`.

Figure files (CSV, summary) are byte-identical for identical inputs; only the manifest carries
a timestamp and timings.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from lineage.errors import LineageError
from lineage.report.folder import ReportFolder, file_sha256
from lineage.report.outdir import atomic_out_dir

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


class _Reporters(Mapping[str, Reporter]):
    """Reporters by name, each module imported on first use: the SPDX and CycloneDX libraries
    take seconds to import, which a run answered by the result cache (or ``--help``) never needs."""

    def __init__(self, where: dict[str, str]) -> None:
        self._where = where  # name -> "module:Class"
        self._made: dict[str, Reporter] = {}

    def __getitem__(self, name: str) -> Reporter:
        if name not in self._made:
            module, cls = self._where[name].split(":")
            self._made[name] = getattr(importlib.import_module(f"lineage.report.{module}"), cls)()
        return self._made[name]

    def __contains__(self, name: object) -> bool:  # by name, without importing
        return name in self._where

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


# Always written, in this order.
_ALWAYS = _Reporters({"tables": "tables:TablesReporter", "summary": "summary:SummaryReporter",
                      "obligations": "obligations:ObligationsReporter"})
# Attachments for reviewers' tools, chosen with ``--formats`` (all by default).
ATTACHMENTS: Mapping[str, Reporter] = _Reporters({"spdx": "spdx:SpdxReporter",
                                                  "cyclonedx": "cyclonedx:CycloneDxReporter",
                                                  "sarif": "sarif:SarifReporter"})
_HTML = _Reporters({"html": "html:HtmlReporter"})  # unless --no-html
# Each reporter's rough cost (twentieths of a CPU second in a worker, imports and the hashing of
# its files included, on the pinned pair with one target file changed: SPDX 0.7, CycloneDX 0.45,
# the tables 0.35 with lines.csv's digests, SARIF 0.2, summary 0.1, obligations 0.05; HTML's a
# guess above all): with workers the costliest start first, so that the longest (SPDX, fourth of
# six) does not start behind short ones and then end the writing alone, and the others follow
# in that order, each a task of its own, as processes come free (two processes: 1.07 and 1.03 s,
# where the earlier costs, which put SARIF last, gave 1.14 and 0.96). Only the order of the work
# follows it, not the files or the manifest. Measured again in round speed172 (tables 0.30, SPDX
# 0.37, CycloneDX 0.17, SARIF 0.11, summary 0.13, obligations 0.03 s): an order by these would
# gain at most 0.04 s, so it stands; summary and obligations are now the parent's (_IN_PARENT).
_COST = {"html": 80, "spdx": 14, "tables": 7, "cyclonedx": 9, "sarif": 4, "summary": 2, "obligations": 1}
# lines.csv rendered whole rather than joined from the per-file cache (lineage.report.lines_csv):
# on a run that reused no table rows (a cold one) the tables cost 1.2 s, the most of all.
_TABLES_WHOLE_COST = 24
# reporters that never read ``Comparison.obligations`` (so need not wait for it: :func:`_write_all`);
# not the HTML since 2026-12-07: each file page's header shows the file's obligations
_WITHOUT_OBLIGATIONS = frozenset({"tables"})
# reporters the parent writes itself, once it has made the obligations table, while the workers
# write the others (round speed172): two light ones that read the table, which the parent holds
# (the workers unpickle it), and which would otherwise queue behind the tables and SARIF
_IN_PARENT = frozenset({"summary", "obligations"})


def _cost(name: str, comparison: Comparison) -> int:
    """:data:`_COST` of reporter ``name`` for this comparison."""
    if name == "tables" and not comparison.table_rows_reused:
        return _TABLES_WHOLE_COST
    return _COST.get(name, 1)


def __getattr__(name: str) -> Any:
    if name == "REPORTS":  # the always-written reporters, as a tuple
        return tuple(_ALWAYS.values())
    if name == "HTML":
        return _HTML["html"]
    raise AttributeError(f"module 'lineage.report' has no attribute {name!r}")


def write_reports(comparison: Comparison, out_dir: Path, html: bool = True,
                  formats: Sequence[str] = tuple(ATTACHMENTS), csv_cache: Path | None = None,
                  jobs: int = 1, on_written: Callable[[Path, dict[str, tuple[int, str]]], None] | None = None,
                  ) -> list[Path]:
    """Write every report into ``out_dir``, whole or not at all (see :mod:`lineage.report.outdir`);
    the manifest last, with the others' digests and ``"complete": true``. ``csv_cache``: a cache
    root under which lines.csv is kept per target file and reused (:mod:`lineage.report.lines_csv`;
    the same bytes), for a comparison whose tables are as :func:`lineage.api.compare` built them.
    ``jobs``: the reporters run in that many forked processes (:func:`_write_all`); the files
    are the same either way. ``on_written``: called with the fresh folder once every file is in
    it, before it replaces ``out_dir`` (the whole-result cache links this run's files from there),
    and the :func:`lineage.report.cache.file_checksum` of those the workers hashed (by name)."""
    unknown = [name for name in formats if name not in ATTACHMENTS]
    if unknown:
        raise LineageError(f"unknown report format {unknown[0]!r} (choose from {', '.join(ATTACHMENTS)})")
    from lineage.report.attachments import report_time
    from lineage.report.manifest import write_manifest

    # (mapping, name) of each reporter, made where it runs: a worker imports its own reporter's libraries
    reporters = [*((_ALWAYS, name) for name in _ALWAYS), *((ATTACHMENTS, name) for name in formats),
                 *([(_HTML, "html")] if html else [])]
    sources = [tree.info.location for tree in (comparison.target, *comparison.upstreams)]
    with atomic_out_dir(out_dir, sources) as fresh, report_time():
        folder = ReportFolder(fresh, csv_cache)
        checksums: dict[Path, tuple[int, str]] = {}
        _write_all(reporters, comparison, folder, jobs, checksums if on_written is not None else None)
        written = [*folder.written, write_manifest(comparison, fresh, folder.written, folder.digests)]
        if on_written is not None:
            on_written(fresh, {path.relative_to(fresh).as_posix(): value for path, value in checksums.items()})
    return [out_dir / path.relative_to(fresh) for path in written]


def _write_all(reporters: Sequence[tuple[Mapping[str, Reporter], str]], comparison: Comparison,
               folder: ReportFolder, jobs: int, checksums: dict[Path, tuple[int, str]] | None = None) -> None:
    """Each reporter (``mapping[name]``, imported on first use) writes its files into ``folder``:
    here, or with ``jobs`` > 1 in forked processes (:func:`lineage.match.workers.run_per_file`, one
    reporter per task, handed out costliest first (:func:`_cost`; two light neighbours may go
    together) as processes come free; the SPDX and CycloneDX libraries are then imported by the
    worker that writes their file; the parent, once it has made the obligations table, writes
    :data:`_IN_PARENT`'s itself). The HTML pages, most of the writing on a large pair, are
    split into one task per process (:meth:`lineage.report.html.HtmlReporter.write_part`). A
    reporter reads the comparison and writes only its own files, so the files are the same
    either way; ``folder.written`` keeps the reporters' order, and the HTML files the order
    its one-process writer gives them (the index, then the others sorted). ``checksums``: filled
    with the result cache's checksum of each file a worker wrote, read once with its sha256."""
    from lineage.match.workers import MatchWorkers, run_per_file

    workers = MatchWorkers(jobs=max(1, jobs), min_files=2, chunks_per_job=len(reporters))
    processes = workers.processes(len(reporters))
    if processes == 0:
        for mapping, name in reporters:
            mapping[name].write(comparison, folder)
        return
    from lineage.match.workers import LateValue
    from lineage.report.attachments import created_at, report_time

    # The obligations table, read by every reporter but the tables': made once, here, while the
    # workers start (they import their libraries meanwhile), and handed to each when it reads it.
    late = None
    if "obligations" not in comparison.__dict__:
        try:
            late = LateValue()
        except OSError:  # no file to hand it over in: made before the fork, and inherited
            _ = comparison.obligations
    at = created_at()  # this run's report time (report_time above), passed on explicitly
    # (mapping, name, part, parts): the HTML reporter in one part per process
    tasks = [(mapping, name, k, processes if mapping is _HTML else 1)
             for mapping, name in reporters for k in range(processes if mapping is _HTML else 1)]
    # the parent's own share (_IN_PARENT), written once it holds the table, when the workers keep two tasks
    here = [i for i, (mapping, name, _, _) in enumerate(tasks) if mapping is _ALWAYS and name in _IN_PARENT]
    here = here if len(tasks) - len(here) >= 2 else []
    away = [i for i in range(len(tasks)) if i not in here]
    workers = MatchWorkers(jobs=processes, min_files=2, chunks_per_job=len(away))

    def task(i: int) -> tuple[list[Path], dict[Path, tuple[str, tuple[int, str] | None]]]:
        if late is not None and "obligations" not in comparison.__dict__:  # in a worker: made by the parent
            comparison.obligations_from = late.take
        own = ReportFolder(folder.root, folder.csv_cache)
        mapping, name, k, n = tasks[i]
        with report_time(at):
            if n == 1:
                mapping[name].write(comparison, own)
            else:
                mapping[name].write_part(comparison, own, k, n)  # type: ignore[attr-defined]
        # Hashed here, side by side with the other reporters, not by the manifest after them all
        # (nor by the result cache, when it stores them: one read for both)
        if checksums is None:
            return own.written, {path: (file_sha256(path), None) for path in own.written if path.is_file()}
        from lineage.report.cache import file_digests

        return own.written, {path: file_digests(path) for path in own.written if path.is_file()}

    done_here: dict[int, tuple[list[Path], dict[Path, tuple[str, tuple[int, str] | None]]]] = {}

    def meanwhile() -> None:
        if late is not None:
            late.give(comparison.obligations, processes)
        for i in here:
            done_here[i] = task(i)

    costs = [-(-_cost(name, comparison) // n) for _, name, _, n in (tasks[i] for i in away)]
    if late is not None:
        # the reporters that do not read the obligations table go first, while the parent makes
        # it: the others would only wait for it (the tables of a rerun, about a third of a second)
        free = [tasks[i][1] in _WITHOUT_OBLIGATIONS for i in away]
        first = max((cost for cost, f in zip(costs, free, strict=True) if not f), default=0) + 1
        costs = [max(cost, first) if f else cost for cost, f in zip(costs, free, strict=True)]
    html_files: list[Path] = []
    try:
        found = run_per_file(lambda j: task(away[j]), costs, workers, meanwhile=meanwhile, what="writing reports")
    finally:
        if late is not None:
            late.close()
    by_task = {**done_here, **dict(zip(away, found, strict=True))}
    results = [by_task[i] for i in range(len(tasks))]
    for (mapping, *_), (paths, digests) in zip(tasks, results, strict=True):
        (html_files if mapping is _HTML else folder.written).extend(paths)
        for path, (digest, checksum) in digests.items():
            folder.digests[path] = digest
            if checksums is not None and checksum is not None:
                checksums[path] = checksum
    if html_files:  # the HTML reporter is the last: its files in its one-process order
        index = [p for p in html_files if p.name == "index.html" and p.parent.name == "html"]
        folder.written.extend([*index, *sorted(p for p in html_files if p not in index)])
