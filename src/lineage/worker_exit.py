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

import ctypes
import ctypes.util
import os
import signal
import sys

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
