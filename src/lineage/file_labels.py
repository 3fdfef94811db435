"""Each target file's labels for :func:`lineage.api.compare_trees`: from the memo or the match
cache when they hold the file, else matched, and kept there.

A file's entry (:class:`lineage.match.records.MatchEntry`: labels, regions, its vote for the
folder renames and the renamed upstream paths it was matched with) is looked up by the file's
digest and path, first in the memo a caller keeps between comparisons (``history``), then in
the match cache (:class:`lineage.match.store.MatchCache`). A file neither holds is matched:
steps 1 to 3 of :mod:`lineage.match` first (:meth:`FileLabels.prepare`, which also gives the
file's vote, so the renames can be learnt from every file before any is matched), then steps 4
to 8 (:meth:`FileLabels.labels`), in worker processes when there are enough files. The upstream
side is built once, on the first file that needs it (or read from :mod:`lineage.side_cache`),
and dropped once no prepared file waits for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from lineage.index import TreeIndex
from lineage.match import FileMatcher, MatchParams, MatchWorkers, Side
from lineage.match.records import MatchEntry, empty_match
from lineage.match.store import MatchCache
from lineage.progress import meter
from lineage.settings import DEFAULT_MATCH_CONTEXTS, print_progress


class FileLabels:
    """The labels of one target tree's files against one set of upstream trees and parameters
    (``context``: :func:`lineage.api.match_context`), through ``memo`` and the match cache."""

    def __init__(self, target: TreeIndex, upstreams: Sequence[TreeIndex], labels: Sequence[str],
                 up_of: Sequence[int], params: MatchParams, preferred: Sequence[set[str]],
                 attributed: Sequence[bool], cache_root: Path | None, context: str,
                 memo: dict[tuple[str, str, str], MatchEntry], pinned: Sequence[int] | None = None,
                 roots: frozenset[str] = frozenset(), keep_contexts: int = DEFAULT_MATCH_CONTEXTS,
                 tops: frozenset[str] = frozenset()) -> None:
        self.target, self.upstreams, self.labels = target, upstreams, list(labels)
        self.up_of, self.params = list(up_of), params
        self.preferred, self.attributed = preferred, attributed
        self.pinned = list(pinned) if pinned is not None else [-1] * len(target.files)
        self.cache_root = cache_root
        self.cache = MatchCache(cache_root, context, keep_contexts)  # the newest contexts kept
        self.context = context  # part of the memo's keys too: a caller may keep it across contexts
        self.memo = memo
        self.package_roots = roots  # which of src/ and lib/ are packages of the whole target (in ``context``)
        self.tops = tops  # the whole target's top-level names (in ``context``)
        self.hits = self.misses = 0
        self._from_cache: set[int] = set()  # target files whose entry was read from the match cache
        # What matching files no cache holds needs: the upstream side (built once) and, per target
        # file whose steps 1 to 3 are done, its matcher and its number there (dropped once matched).
        self._side: list[Side] = []
        self.prepared: dict[int, tuple[FileMatcher, int]] = {}
        self._readers = [(tree, f.path) for tree in upstreams for f in tree.files]

    def prepare(self, todo: list[int], workers: MatchWorkers | None = None) -> None:
        """Steps 1 to 3 of target files ``todo`` (their votes too), to match them later;
        ``workers``: steps 1 and 2 shared out to processes when it pays (the same runs)."""
        if not self._side:  # kept between runs (lineage.side_cache): the same arrays either way
            from lineage.side_cache import upstream_side as cached_side

            readers = self._readers
            self._side.append(cached_side(self.cache_root, self.labels, [tree.files for tree in self.upstreams],
                                          lambda k: readers[k][0].lines(readers[k][1]),
                                          np.array(self.up_of, dtype=np.int32)))
        target = self.target
        files_todo = [target.files[t] for t in todo]
        target_side = Side(files_todo, lambda k: target.lines(files_todo[k].path), np.zeros(len(files_todo), np.int32),
                           package_roots=self.package_roots, tree_tops=self.tops)
        matcher = FileMatcher(target_side, self._side[0], self.params, [self.preferred[t] for t in todo],
                              [self.attributed[t] for t in todo], workers,
                              [self.pinned[t] for t in todo] if any(self.pinned[t] >= 0 for t in todo) else None)
        for k, t in enumerate(todo):
            self.prepared[t] = (matcher, k)

    def vote(self, t: int) -> str | None:
        """The vote of prepared target file ``t``."""
        matcher, k = self.prepared[t]
        return matcher.votes[k]

    def entry(self, t: int) -> MatchEntry | None:
        """Target file ``t``'s entry from the memo or the match cache, whatever renames it was
        matched with."""
        f = self.target.files[t]
        found = self.memo.get((self.context, f.digest, f.path))
        if found is None:
            found = self.cache.get(f.digest, f.path, f.n_lines)
            if found is not None:
                self.memo[(self.context, f.digest, f.path)] = found
                self._from_cache.add(t)
        return found

    def labels_of(self, todo: list[int], renames: dict[str, str], renamed: Sequence[tuple[str, ...]],
                  progress: Callable[[str], None] | None, workers: MatchWorkers | None,
                  n_up_files: int) -> list[MatchEntry]:
        """The entries of target files ``todo``: from the memo or the match cache when matched
        with the current renamed paths (``renamed[t]``), else matched with ``renames``."""
        target = self.target
        per_file: list[MatchEntry | None] = []
        for t in todo:
            found = self.entry(t)
            per_file.append(found if found is not None and found.renamed == renamed[t] else None)
        missing = [k for k, found in enumerate(per_file) if found is None]
        self.hits += sum(1 for k, t in enumerate(todo) if per_file[k] is not None and t in self._from_cache)
        if todo and not missing and progress is not None:  # none to look up: the reused rows say so
            progress(f"matching: all {len(todo)} target files cached")
        if missing:
            self.misses += len(missing)
            need = [todo[k] for k in missing if todo[k] not in self.prepared]
            if need:
                self.prepare(need, workers)
            groups: dict[int, list[int]] = {}  # matcher -> positions in todo, in order
            for k in missing:
                groups.setdefault(id(self.prepared[todo[k]][0]), []).append(k)
            # The CLI's callback (print_progress) is drawn as a bar on a terminal; any other gets lines.
            with meter(len(missing), "matching", "files", progress, bar=progress is print_progress,
                       note=f" of {len(todo):,} (the others cached) against {n_up_files:,} upstream "
                       "files") as tick:
                for ks in groups.values():
                    matcher = self.prepared[todo[ks[0]]][0]
                    numbers = [self.prepared[todo[k]][1] for k in ks]
                    for k, j, found in zip(ks, numbers, matcher.match_files(numbers, renames, tick, workers),
                                           strict=True):
                        t = todo[k]
                        f = target.files[t]
                        del self.prepared[t]
                        labels, regions = found if found is not None else (empty_match(f.n_lines), [])
                        entry = MatchEntry(labels, regions, matcher.votes[j], matcher.renamed(j))
                        per_file[k] = self.memo[(self.context, f.digest, f.path)] = entry
                        self.cache.put(f.digest, f.path, entry)
        if not self.prepared:
            self._side.clear()  # (and its memos) not kept while the tables are built
        return per_file  # type: ignore[return-value]

    def release(self) -> None:
        """Drop what matching needed (prepared files, the upstream side)."""
        self.prepared.clear()
        self._side.clear()
