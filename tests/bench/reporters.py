"""Time each reporter as a run that missed the whole-result cache writes it: in a forked worker.

    .venv/bin/python tests/bench/reporters.py TARGET UPSTREAM [--repeat N]

(e.g. a directory of the target's files with one of them edited, and ``pypi:vllm==0.32.0``.)
:func:`lineage.api.compare` runs once, with the caches on as the command has them; then, as
:func:`lineage.compare_and_write.compare_and_write` and :func:`lineage.report._write_all` do, the
obligations table is made here with the files' licences kept under the cache, the collector set
to the command's thresholds and the heap frozen; then each reporter writes alone in a process
forked from here (lines.csv through the CSV cache), into a temporary folder. Printed: per repeat,
the seconds and CPU seconds of the obligations table and of each reporter's write, its imports
included (a worker imports the SPDX and CycloneDX libraries itself), then the medians. For an A/B
of two checkouts, run it alternately under each one's ``PYTHONPATH=CHECKOUT/src``; set
``SOURCE_DATE_EPOCH`` and ``LINEAGE_OFFLINE=1`` as for the command. A script, not a test: pytest
never collects it.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lineage.api import compare
from lineage.report import _ALWAYS, ATTACHMENTS
from lineage.report.attachments import report_time
from lineage.report.folder import ReportFolder
from lineage.results.file_licences import kept
from lineage.settings import GC_THRESHOLDS, RunSettings


def _timed_in_fork(write: Callable[[], None]) -> tuple[float, float]:
    """(seconds, CPU seconds) of ``write()`` in a forked child, which reports them through a pipe."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: time, report, leave without running the parent's exit handlers
        status = 1
        try:
            wall0, cpu0 = time.perf_counter(), time.process_time()
            write()
            os.write(write_end, f"{time.perf_counter() - wall0} {time.process_time() - cpu0}".encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    _, status = os.waitpid(pid, 0)
    answer = os.read(read_end, 100).decode()
    os.close(read_end)
    if status != 0 or not answer:
        raise RuntimeError(f"the reporter's process failed (status {status})")
    seconds, cpu = answer.split()
    return float(seconds), float(cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", help="target spec (a directory, archive, git or pypi spec)")
    parser.add_argument("upstream", help="upstream spec")
    parser.add_argument("--repeat", type=int, default=1, help="timed rounds of all reporters (default 1)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    settings = RunSettings()
    comparison = compare(args.target, [args.upstream], settings=settings)
    gc.set_threshold(*GC_THRESHOLDS)
    names = [*((_ALWAYS, name) for name in _ALWAYS), *((ATTACHMENTS, name) for name in ATTACHMENTS)]
    samples: dict[str, list[tuple[float, float]]] = {}
    with kept(settings.store_root), report_time(), tempfile.TemporaryDirectory() as scratch:
        wall0, cpu0 = time.perf_counter(), time.process_time()
        _ = comparison.obligations  # read by five reporters: made once, before the fork
        samples["obligations table (here)"] = [(time.perf_counter() - wall0, time.process_time() - cpu0)]
        gc.freeze()  # as run_per_file: the inherited heap out of the workers' collections
        for repeat in range(args.repeat):
            for mapping, name in names:
                folder = ReportFolder(Path(scratch) / f"{repeat}-{name}", settings.store_root)
                found = _timed_in_fork(lambda m=mapping, n=name, f=folder: m[n].write(comparison, f))
                samples.setdefault(name, []).append(found)
            print(f"repeat {repeat + 1}: " + ", ".join(
                f"{name} {runs[-1][0]:.3f} s ({runs[-1][1]:.3f} CPU)" for name, runs in samples.items()), flush=True)
    print("medians: " + ", ".join(
        f"{name} {statistics.median(s for s, _ in runs):.3f} s ({statistics.median(c for _, c in runs):.3f} CPU)"
        for name, runs in samples.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
