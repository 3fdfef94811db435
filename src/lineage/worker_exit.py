"""Worker processes end when the process that started them dies.

A forked worker of the index stage's ``ProcessPoolExecutor`` waits for its next task on a queue
whose pipe it inherited whole, write end included, so when its parent is killed outright
(SIGKILL, the system's out-of-memory killer) the pipe never reaches end-of-file and the worker
waits forever, holding its share of the parent's memory. Measured on the main job (2026-12-05):
a SIGKILLed run while indexing left both index workers asleep, adopted by init, a minute later.

On Linux the kernel can send the worker a signal when the thread that forked it exits
(``prctl(PR_SET_PDEATHSIG)``); the workers are forked by the thread that builds the pool, which
outlives it. SIGKILL, not SIGTERM: the workers inherit the command's SIGTERM handler, and a worker
has nothing of its own to clean up (the parent writes every cache entry and report file). Elsewhere
this is a no-op: the worker is then ended as before, by its pool.

Only for pools whose workers are all forked by the thread that uses the pool (the index stage's
``ProcessPoolExecutor`` under fork). ``multiprocessing.Pool`` forks replacement workers from its
handler thread, which exits inside ``terminate()``: the signal then kills a worker that may hold
the task queue's lock, and ``terminate()`` waits for that lock forever. The match stage's Pool
workers end with a parent killed outright on their own (``tests/test_worker_exit.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Iterator

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def end_with_parent(parent: int | None = None) -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies; True when that is armed.
    ``parent``: the parent's pid as the pool's creator saw it (``os.getpid()`` before the fork),
    so that a parent that died before the request is noticed (the signal is then not sent)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
        return False
    if parent is not None and os.getppid() != parent:  # the parent died before we asked
        os.kill(os.getpid(), signal.SIGKILL)
    return True


# The signals a forked worker must not take before its initializer has chosen what they do.
_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM blocked in this thread for the block: a worker forked inside (and any
    thread started inside, such as a pool's, and what it forks) starts with them blocked, until its
    initializer calls :func:`release_signals`; they are delivered to this process at the block's end.

    A forked worker inherits the command's Python handlers (``raise KeyboardInterrupt``). A
    SIGTERM from ``Pool.terminate()`` (or a Ctrl-C) that reached a worker just forked ran that
    handler at once: before the fork code's ``try`` the exception left the worker running the
    parent's code (pytest's, in a test run: it then waited on a lock forever, and so did the
    parent joining it); in the instant before the initializer set SIGTERM's default action,
    Python dropped it and the worker waited for a task forever (8 of 400 pool starts and ends of
    two tiny tasks hung so under load). Blocked, the signal waits for the initializer."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: no fork either
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def release_signals() -> None:
    """In a worker's initializer, once its own handlers are set: take SIGINT and SIGTERM again
    (a pending one is delivered now, to those handlers)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
