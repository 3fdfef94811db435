"""lineage.heap.return_freed_memory: the free pages inside the C heap go back to the system."""

from __future__ import annotations

import subprocess
import sys

import pytest

# A child process (a clean heap): 100 MB of 64 KiB blocks (below glibc's mmap threshold, so
# on the heap), one block allocated after them so the heap's top stays in use, the rest freed.
_CHILD = """
import sys
from lineage.heap import return_freed_memory
def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6
blocks = [bytearray(64 * 1024) for _ in range(1600)]
pin = bytearray(64 * 1024)
del blocks
before = rss_mb()
if sys.argv[1] == "trim":
    return_freed_memory()
print(before, rss_mb())
"""


def _rss_before_after(mode: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, mode], capture_output=True, text=True, check=True).stdout
    before, after = map(float, out.split())
    return before, after


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's")
def test_freed_heap_pages_are_returned_to_the_system() -> None:
    before, after = _rss_before_after("keep")
    assert after > before - 10  # freed, yet still resident: what the run held before the writers forked
    before, after = _rss_before_after("trim")
    assert after < before - 80  # the 100 MB freed leave the resident set
