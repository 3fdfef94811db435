"""How one run is carried out (not what it computes): cache root, workers, file size limit, progress.

:class:`RunSettings` is made once, by the CLI or by a caller of :mod:`lineage.api`, and validated
there; every stage takes it instead of loose ``cache_dir``/``jobs``/``progress`` arguments. Nothing
here changes a figure: the matcher's thresholds live in :class:`lineage.match.MatchParams`.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from lineage.errors import LineageError

# Larger Python files are listed as skipped, not indexed: generated tables, not code people copy.
DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024
# The non-Python files read for what a source declares (licence files, METADATA/PKG-INFO, RECORD,
# pyproject.toml, vendor.txt, top_level.txt, READMEs; lineage.sources.base.DeclaredView): a larger
# one is not read at all (noted in manifest.json's skipped_members), never inflated whole. The
# readers' own caps (a licence file 1 MiB, metadata and records 4 MiB) are at most this, so a file
# left unread here is one they would have ignored after reading it.
MAX_DECLARED_FILE_BYTES = 4 * 1024 * 1024
# Whole-result cache entries kept (lineage.report.cache), the most recently written or used: an
# entry is as large as its report (about 190 MB for the pinned pair without HTML), and reruns of the
# same few comparisons are what it is for.
DEFAULT_RESULT_ENTRIES = 4
# Match cache contexts kept (lineage.match.store), the most recently used: one per upstream set,
# parameters and matcher code (44 MB for the pinned pair, `du -sh`; a small target's are far
# smaller). Without a bound the folder only grew: every lineage upgrade, `forkpoint` candidate and
# `scan` upstream adds one (5,602 MB in 1,272 contexts on the development machine by 2026-12-06).
# Enough for a forkpoint over many releases to be rerun from the cache (the pip case of
# tests/eval/real/forkpoint_pip.py makes up to 198); a loop over more recomputes on a rerun.
DEFAULT_MATCH_CONTEXTS = 256
# The matcher starts its workers only for at least this many target files to match; fewer (a rerun
# where the match cache holds all but a few files, a history step) are matched in the calling
# process. On the pinned pair (tests/bench/README.md, round speed4) a file costs about 4 ms, starting
# two workers about 0.06 s, and each worker reads and tests again the upstream files the others
# already did: at 64 files two workers were slower than one process, at 256 about even to 1.5x faster.
DEFAULT_MATCH_MIN_FILES = 256
# Record packs kept (lineage.index.store.RecordPack: every index record of one source in one entry,
# read by a rerun instead of one entry per file): about 45 MB for the pair's target, 30 MB for its
# upstream; two per comparison.
DEFAULT_INDEX_PACKS = 8
# A source's pack is written again only when more of its records than this were not in it: writing
# one costs about as much as reading this many records one by one (round speed6).
DEFAULT_INDEX_PACK_REWRITE_AFTER = 16


# The allocator the lineage command asks pyarrow for (its ARROW_DEFAULT_MEMORY_POOL, unless the user set
# that): the wheels' default, mimalloc, spent 0.3 to 1.0 s of system time handing pages back while
# a rerun read its table cache (2-CPU machine, round speed6), the C library's allocator 0.2 s, with a
# peak RSS 120 MB lower. Only the command sets it: an API caller's process keeps its own pool.
ARROW_MEMORY_POOL = "system"
# The cyclic garbage collector's thresholds for the command's process (``gc.set_threshold``;
# Python's default is (700, 10, 10)). A run builds millions of small objects that live to its end
# (index records, table rows, reporters' documents), and every young collection that ends in a
# full one walks them all: about 11 % of the CPU of a rerun that changed one file (perf, round
# speed7), about 0.5 s of its wall, against 0.6 s with the collector off. Cycles are still freed:
# young collections run about 70 times less often, full ones about 290 times. Only the command
# sets it: an API caller's process keeps its own.
GC_THRESHOLDS = (50_000, 20, 20)


def default_cache_dir() -> Path:
    """``$LINEAGE_CACHE_DIR``, else the user cache directory (``$XDG_CACHE_HOME/lineage``)."""
    env = os.environ.get("LINEAGE_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir("lineage", appauthor=False))


def source_date() -> datetime | None:
    """``$SOURCE_DATE_EPOCH`` (reproducible builds) as the time attachments carry; None when unset
    or empty. A value that is not a whole number of seconds within datetime's years is refused:
    the convention asks a build to fail on a malformed one rather than use the current time."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if not epoch:
        return None
    try:
        if not re.fullmatch(r"[0-9]+", epoch):
            raise ValueError(epoch)
        return datetime.fromtimestamp(int(epoch), UTC)
    except (ValueError, OverflowError, OSError):
        raise LineageError("SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 (before the "
                           f"year 10000), got {epoch!r}") from None


def default_jobs() -> int:
    """Worker processes: one per CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def print_progress(message: str) -> None:
    """The CLI's progress callback: one ``lineage: ...`` line on stderr."""
    print(f"lineage: {message}", file=sys.stderr)


def _whole_at_least_one(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


@dataclass(frozen=True)
class RunSettings:
    """Run options, validated once: ``jobs`` and ``max_file_bytes`` whole numbers >= 1, the cache
    folder a folder or not there yet (else :class:`LineageError`).

    ``cache_dir`` None means :func:`default_cache_dir` (resolved here, once); ``use_cache`` False
    keeps the index and match caches off (downloads still go under the cache root). ``jobs`` None
    means one worker per CPU. ``progress`` receives one-line messages; None is silent.
    ``result_entries``: how many whole-result cache entries are kept (the least recently written or
    used beyond that are removed after each store), a whole number >= 1. ``match_contexts``: how
    many match cache contexts are kept (the least recently used beyond that are removed when a new
    one is made; :class:`lineage.match.store.MatchCache`), a whole number >= 1. ``match_min_files``: the
    matcher shares the target files out to ``jobs`` processes only from this many files to match
    (``lineage.match.workers.MatchWorkers.of``), a whole number >= 1. ``reuse_tables`` (with
    ``use_cache``): keep the last tables, and on a rerun build only the changed target files' rows
    (:mod:`lineage.results.reuse`; the tables are the same either way). ``index_packs`` (with
    ``use_cache``): how many record packs :func:`lineage.api.compare` keeps, a whole number >= 0 (0:
    none, every record read from its own entry); ``index_pack_rewrite_after``: a source's pack is
    rewritten when more of its records than this were missing from it, a whole number >= 0
    (:class:`lineage.index.store.RecordPack`; the records are the same either way).
    """

    cache_dir: Path | None = None
    jobs: int | None = None
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    use_cache: bool = True
    result_entries: int = DEFAULT_RESULT_ENTRIES
    match_contexts: int = DEFAULT_MATCH_CONTEXTS
    match_min_files: int = DEFAULT_MATCH_MIN_FILES
    reuse_tables: bool = True
    index_packs: int = DEFAULT_INDEX_PACKS
    index_pack_rewrite_after: int = DEFAULT_INDEX_PACK_REWRITE_AFTER
    progress: Callable[[str], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        from lineage.cachedir import check_root

        # The messages name the CLI options; an API caller gets the same refusals.
        if self.jobs is not None and not _whole_at_least_one(self.jobs):
            raise LineageError(f"--jobs must be a whole number >= 1, got {self.jobs!r}")
        if not _whole_at_least_one(self.max_file_bytes):
            raise LineageError(f"--max-file-bytes must be a whole number >= 1, got {self.max_file_bytes!r}")
        if not _whole_at_least_one(self.result_entries):
            raise LineageError(f"result_entries must be a whole number >= 1, got {self.result_entries!r}")
        if not _whole_at_least_one(self.match_contexts):
            raise LineageError(f"match_contexts must be a whole number >= 1, got {self.match_contexts!r}")
        if not _whole_at_least_one(self.match_min_files):
            raise LineageError(f"match_min_files must be a whole number >= 1, got {self.match_min_files!r}")
        for name in ("index_packs", "index_pack_rewrite_after"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise LineageError(f"{name} must be a whole number >= 0, got {value!r}")
        root = Path(self.cache_dir).expanduser() if self.cache_dir is not None else default_cache_dir()
        check_root(root)  # a cache folder that is a file (or lies under one) is refused before any work
        object.__setattr__(self, "cache_dir", root)

    @property
    def cache_root(self) -> Path:
        """Where downloads and (with ``use_cache``) the index and match caches live."""
        assert self.cache_dir is not None  # set in __post_init__
        return self.cache_dir

    @property
    def store_root(self) -> Path | None:
        """The index/match cache root, or None when caching is off."""
        return self.cache_root if self.use_cache else None

    @property
    def workers(self) -> int:
        return self.jobs or default_jobs()

    def log(self, message: str) -> None:
        if self.progress is not None:
            self.progress(message)
