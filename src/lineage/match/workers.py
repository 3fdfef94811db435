"""Matching target files in worker processes: steps 4 to 9 of :mod:`lineage.match`, per file.

Once the global steps are done (hits, runs, identical files, the idiom rule's upstream counts;
the hits and runs themselves per range of target files, in the same kind of workers),
each target file is claimed, labelled, filled and trimmed on its own: nothing one file does is
read by another (the memos it fills, upstream lines read and idiom tests, give the same answer
whoever fills them). So the files can be shared out to processes, and the labels are the same
whatever the number of processes or the order they finish in.

The workers are forked from the process that built the arrays: they inherit the target and
upstream sides, the runs and the idiom counts as they are, copy-on-write, and nothing large is
pickled; only the file numbers go out and each file's labels and regions come back. The files
are cut into chunks of about equal line count (consecutive files, so that neighbouring files,
which often draw on the same upstream files, share a worker's memos), largest first, and handed
out as workers come free. A worker that dies while it works (killed by the system, out of
memory) stops the run with a :class:`~lineage.errors.WorkerError` (the pool would replace it and
wait for its chunk forever); ``multiprocessing.Pool`` is kept for its prompt, clean end on Ctrl-C
and on a failed task. Without ``fork`` (Windows; macOS, where forking a process that has loaded
system frameworks is unsafe), or in a daemonic process (a pool's worker, which may not start
processes), the files are matched in the calling process.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from lineage.errors import WorkerError
from lineage.settings import DEFAULT_MATCH_MIN_FILES
from lineage.worker_exit import release_signals, signals_held

if TYPE_CHECKING:
    from lineage.settings import RunSettings

T = TypeVar("T")


@dataclass(frozen=True)
class MatchWorkers:
    """How many processes match target files (``jobs``), and from how many target files to
    match on (``min_files``) it pays to start them. ``chunks_per_job``: the files are handed out
    in this many chunks per worker (more chunks even out the workers' loads; each costs a round
    trip). Nothing here changes a label."""

    jobs: int = 1
    min_files: int = DEFAULT_MATCH_MIN_FILES
    chunks_per_job: int = 8

    def __post_init__(self) -> None:
        for name in ("jobs", "min_files", "chunks_per_job"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"MatchWorkers.{name} must be a whole number >= 1, got {value!r}")

    @classmethod
    def of(cls, settings: RunSettings) -> MatchWorkers:
        """A run's: ``settings.jobs`` processes (default one per CPU) from
        ``settings.match_min_files`` files on."""
        return cls(jobs=settings.workers, min_files=settings.match_min_files)

    def processes(self, n_files: int) -> int:
        """Worker processes to start for ``n_files`` target files: 0 means match them here."""
        if self.jobs <= 1 or n_files < self.min_files or n_files < 2:
            return 0
        if (sys.platform == "darwin" or "fork" not in multiprocessing.get_all_start_methods()
                or multiprocessing.current_process().daemon):
            return 0
        return min(self.jobs, n_files)


def chunks(weights: Sequence[int], n_chunks: int) -> list[list[int]]:
    """Cut items 0..len(weights)-1 into at most ``n_chunks`` runs of consecutive items of about
    equal total weight (each item goes to the share its middle falls in, so an item heavier than
    a share takes a chunk of its own or nearly), heaviest chunk first (ties: in item order)."""
    total = sum(weights)
    n_chunks = max(1, n_chunks)
    share = total / n_chunks if total > 0 else 1.0
    out: dict[int, list[int]] = {}
    held = 0
    for item, weight in enumerate(weights):
        out.setdefault(min(n_chunks - 1, int((held + weight / 2) / share)), []).append(item)
        held += weight
    sized = [(sum(weights[i] for i in chunk), chunk) for chunk in out.values()]
    sized.sort(key=lambda wc: (-wc[0], wc[1][0]))
    return [chunk for _, chunk in sized]


class LateValue:
    """A value the calling process of :func:`run_per_file` makes while its workers already run
    (``meanwhile``), handed to each worker that reads it: :meth:`give` once, :meth:`take` in a
    worker, which waits for it. Made before the fork (the workers inherit its file and pipe): the
    value is pickled into an anonymous file (a memfd, else an unlinked temporary file), then one
    byte per worker is written to a pipe, so the giver never waits for a reader (a worker that
    died, or never reads it), and each reader waits only until it is given. Close it once the
    workers have ended. OSError when no such file can be made (then make the value before the fork).
    """

    def __init__(self) -> None:
        try:
            self._file = os.memfd_create("lineage-value")
        except (AttributeError, OSError):  # not Linux, or no memfd here
            import tempfile

            self._file, name = tempfile.mkstemp(prefix="lineage-")
            os.unlink(name)  # unlinked: gone with the last process holding it
        try:
            self._ready, self._signal = os.pipe()
        except OSError:
            os.close(self._file)
            raise

    def give(self, value: object, readers: int) -> None:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        written = 0
        while written < len(data):
            written += os.pwrite(self._file, memoryview(data)[written:], written)
        os.write(self._signal, b"." * readers)  # at most a pipe's buffer: a byte per worker

    def take(self) -> Any:
        if not os.read(self._ready, 1):  # every giver closed without giving
            raise RuntimeError("the value was never given")
        return pickle.loads(os.pread(self._file, os.fstat(self._file).st_size, 0))

    def close(self) -> None:
        for fd in (self._ready, self._signal, self._file):
            with contextlib.suppress(OSError):
                os.close(fd)


# The task of the pool being started: set just before the fork, so the workers inherit it (and
# everything it refers to) instead of receiving it pickled.
_TASK: Callable[[int], Any] | None = None


def _init_worker() -> None:
    # The parent handles Ctrl-C and SIGTERM and ends the pool; a worker dies quietly. No
    # lineage.worker_exit here: Pool forks replacement workers from its handler thread, whose exit
    # at terminate() would kill one holding the task queue's lock, and terminate() then waits for
    # that lock forever (5 runs of 20 of the killed-worker test under load); Pool's workers end
    # with a parent killed outright anyway (tests/test_worker_exit.py).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    release_signals()  # forked with them blocked (run_per_file): a SIGTERM sent meanwhile ends it now


def _run_chunk(chunk: list[int]) -> list[Any]:
    assert _TASK is not None, "a match worker runs only in a process forked by run_per_file"
    return [_TASK(item) for item in chunk]


# How often (s) a wait for the next chunk looks whether a worker died.
_WATCH_EVERY = 1.0


def _next_result(done: Any, ours: set[Any], what: str) -> list[Any]:
    """The next chunk's results from ``done`` (``Pool.imap``), waiting as long as it takes while
    every worker of ``ours`` lives; a worker that ended with a signal or an error status (the
    system killed it, out of memory; a crash in compiled code) raises :class:`WorkerError`."""
    while True:
        try:
            return done.next(_WATCH_EVERY)
        except multiprocessing.TimeoutError:
            if any(child.exitcode not in (None, 0) for child in ours):
                raise WorkerError(what) from None


def run_per_file(task: Callable[[int], T], weights: Sequence[int], workers: MatchWorkers | None,
                 tick: Callable[[int], None] | None = None,
                 meanwhile: Callable[[], None] | None = None, what: str = "matching") -> list[T]:
    """``[task(0), task(1), ...]`` for one item per entry of ``weights`` (its cost, e.g. its
    lines), in forked workers when ``workers`` says it pays (see :class:`MatchWorkers`), else
    here. ``tick(n)``: n more items done. The list is in item order either way.
    ``meanwhile``: work of this process that the tasks do not read, called once the workers
    have their tasks (so that it runs while they do; they were forked before it, and see none of
    it), or after the tasks when they run here; it must not call this function. ``what``: the
    workers' job, as a dead worker's error names it."""
    global _TASK
    n = len(weights)
    processes = (workers or MatchWorkers()).processes(n)
    if processes == 0:
        out = []
        for item in range(n):
            out.append(task(item))
            if tick is not None:
                tick(1)
        if meanwhile is not None:
            meanwhile()
        return out
    assert workers is not None
    results: list[Any] = [None] * n
    if _TASK is not None:
        raise RuntimeError("run_per_file is already running in this process")
    _TASK = task
    # Objects alive now are the workers' inherited state: out of the collector's reach, a
    # worker's collections do not walk them (nor copy the pages they lie on).
    gc.freeze()
    before = set(multiprocessing.active_children())
    try:
        context = multiprocessing.get_context("fork")
        with contextlib.ExitStack() as stack:
            with signals_held():  # until each worker's _init_worker (worker_exit.signals_held)
                pool = stack.enter_context(context.Pool(processes, initializer=_init_worker))
            # The pool's own workers (forked by Pool() just now): one that ends while the pool
            # runs was killed (the pool replaces it and its chunk is lost: imap would wait
            # forever).
            ours = set(multiprocessing.active_children()) - before
            parts = chunks(weights, processes * workers.chunks_per_job)
            done = pool.imap(_run_chunk, parts)  # handed out now, by the pool's own thread
            if meanwhile is not None:
                meanwhile()
            for chunk in parts:
                found = _next_result(done, ours, what)
                for item, value in zip(chunk, found, strict=True):
                    results[item] = value
                if tick is not None:
                    tick(len(chunk))
    finally:
        _TASK = None
        gc.unfreeze()
    return results
