"""Worker processes end with a parent that is killed outright (lineage.worker_exit)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG) is Linux's")

# A parent that starts a pool with lineage's own worker initializer, prints the worker's pid once it
# runs, then waits to be killed.
PARENT = {
    "index": """
        import os, time
        from concurrent.futures import ProcessPoolExecutor
        from lineage.index.tree import _init_worker
        pool = ProcessPoolExecutor(1, initializer=_init_worker, initargs=(1000, os.getpid()))
        print(pool.submit(os.getpid).result(), flush=True)
        time.sleep(120)
    """,
    "match": """
        import multiprocessing, os, time
        from lineage.match.workers import _init_worker
        pool = multiprocessing.get_context("fork").Pool(1, initializer=_init_worker)
        print(pool.apply(os.getpid), flush=True)
        time.sleep(120)
    """,
}


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        state = next(line for line in status.read_text().splitlines() if line.startswith("State:"))
    except (FileNotFoundError, ProcessLookupError):
        return False
    return " Z " not in state and "zombie" not in state  # a zombie has ended; its reaper may be slow


@pytest.mark.parametrize("stage", sorted(PARENT))
def test_a_worker_ends_when_its_parent_is_killed(stage: str) -> None:
    parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent(PARENT[stage])], stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert worker != parent.pid and _alive(worker)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=30)
    deadline = time.monotonic() + 20
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)  # leave nothing behind, then fail
    assert not alive, f"the {stage} worker outlived its killed parent"


def test_a_worker_whose_parent_died_before_it_asked_ends_at_once() -> None:
    # The parent named is not this process's parent: it died before the request, so the
    # kernel will never signal, and the process ends itself.
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import time
        from lineage.worker_exit import end_with_parent
        end_with_parent(parent=1)  # pid 1 is never our parent here
        time.sleep(60)
    """)], env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        child.kill()  # a no-op once it ended
        child.wait()

