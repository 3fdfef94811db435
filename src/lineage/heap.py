"""Freed heap memory handed back to the system before the report writers fork.

CPython frees a large object (a numpy array, a column of a table, a long list) to the C
allocator, and glibc keeps the pages of a freed chunk that is not at the top of its heap: the
process's resident size stays at its high-water mark. The main job's cold run builds its tables
(about 330 MB more in the main process within the 1.6 s of the tables stage) and then forks the
report writers, each starting from the whole resident heap; measured 2026-12-08 (round rss179,
``tests/bench/README.md``) the main process was at 934 to 970 MiB when the writers forked and
at 809 and 850 MiB after ``malloc_trim(0)``, which returns the free pages inside the heap as
well as its top; the writers' peaks fell from 869-904 to 721 and 768 MiB. The run's peak is
the tables stage's and stays. Elsewhere (not glibc) this is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys


def return_freed_memory() -> bool:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim(0)``); True when
    some were returned. The objects alive are untouched: only pages no allocation uses are dropped."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # musl and other C libraries have no malloc_trim
        return False
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return bool(trim(0))
