"""The matcher: which target lines were copied from which upstream lines.

The method, in the order it runs, each step with the function that does it (every step is
linear in the number of lines, never in the number of file pairs):

1. **Hits** (:func:`lineage.match.hits.find_hits`). Each informative target line is looked up by
   its normal form among all upstream lines at once; boilerplate forms seed nothing; lines whose
   text is found nowhere upstream also hit through their abstract form. Each hit has a weight.
2. **Runs** (:func:`lineage.match.regions.group_runs`). Hits on one diagonal of one
   (target file, upstream file) pair, a few lines apart at most, form a run.
3. **Regions** (:func:`lineage.match.regions.chain_runs`). Runs of one file pair that follow
   each other in both files chain into a candidate region; the region rule (how much evidence
   makes a region) is in :mod:`lineage.match.regions`. Whole identical files are candidates too
   (:func:`lineage.match.claims.identical_files`), and so are files that follow one upstream
   file over nearly all their lines in order (:mod:`lineage.match.near_identical`). A (target
   file, upstream file) pair whose candidates hold too few distinctive lines (config defaults,
   ``load_weights`` loops: forms many upstream files write alike) forms none
   (:class:`lineage.match.idioms.IdiomFilter`).
4. **Claims** (:func:`lineage.match.claims.sort_chains`, :meth:`~lineage.match.claims.FileClaims.claim`).
   Candidates compete for target lines in one order (:func:`lineage.match.claims.claim_order`),
   so each target line has at most one source.
5. **Labels** (:class:`lineage.match.labels.FileLabeller`). Inside an accepted region each target
   line is paired with one upstream line, along the diagonal, across gaps and past the ends;
   :func:`lineage.match.labels.pair_label` says ``verbatim`` or ``near``.
6. **Fill** (:func:`lineage.match.fill.fill`). Inside each established file pair (an accepted
   region, a provenance marker naming the upstream file, or the same relative path,
   :func:`same_paths`, also below a renamed package, :mod:`lineage.match.renames`), lines no
   region reached are aligned in order with the pair's paired lines (an LCS): between two of
   them every aligned line is paired, repetitive forms that could never seed too (table rows,
   repeated argument lines); elsewhere only distinctive identical lines, lone survivors of a
   rewritten file. The reasons and limits are in :mod:`lineage.match.fill`. After it, a header
   paired with an upstream header of another name follows its body to the upstream definition
   of its own name (:func:`lineage.match.class_names.headers_follow_bodies`).
7. **Second copies** (:func:`lineage.match.second_copies.drop_second_copies`). A near line
   whose upstream line the same target file holds verbatim elsewhere is the file's own second,
   edited copy: unpaired.
8. **Lone lines** (:func:`lineage.match.lone.drop_lone_lines`). A paired line that neither
   neighbour continues in order is copied only if it is evidence on its own (a distinctive form,
   long enough; a lone near line also similar enough): ``else:`` placed by position is not. In a
   file whose markers do not name the upstream, a small isolated group of such lines (a
   signature's common parameters, an import block) is judged the same way, and in one whose
   markers do, a group that is all the file pairs with that upstream file
   (``lone_group_attributed_alone``). Then a free line that
   its statement shows copied (``else:``, a decorator, ``try:``, ``except``, brackets alone) is
   paired with its statement's upstream line (:func:`lineage.match.lone_pairs.pair_free_lines`).
   Last, a run of free lines that repeats, line for line, lines the file pairs with one upstream
   file, in a function of the same name (a method written again for another class), is paired as
   they are (:func:`lineage.match.repeats.pair_repeats`; the fill pairs an upstream line once).
9. **Weak pairs** (:func:`lineage.match.weak_pairs.drop_weak_pairs`). In a file whose markers
   name no upstream, an upstream file neither named nor at the file's place keeps its lines
   only if the two share a run of ``weak_pair_min_run`` identical lines in order (code lines,
   or code, docstring and comment lines together).

Every threshold is a field of :class:`MatchParams` (:mod:`lineage.match.params`); the match cache
is :mod:`lineage.match.store`. Steps 1 to 3 run over all target files at once (steps 1 and 2 per
range of target files in worker processes when there are many: :func:`lineage.match.regions.find_runs`,
the same runs, while this process does step 3, which reads no run); steps 4 to 9 per target
file, in worker processes when there are many (:mod:`lineage.match.workers`).

For example, a target function copied with one line inserted::

    target                          upstream
    def area(w, h):          <-->   def area(w, h):       verbatim  (run 1)
        check(w, h)                                       none      (inserted)
        return w * h         <-->       return w * h      verbatim  (run 2, same region)
"""

from __future__ import annotations

import importlib
import posixpath
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lineage.match.hits import Side
    from lineage.match.params import MatchParams
    from lineage.match.records import FileMatch, MatchResult, Region
    from lineage.match.workers import MatchWorkers

# Names this package exports, and the module each lives in: imported on first use, so that
# ``lineage.match.params`` (which the CLI's --help reads) does not pull in numpy and the matcher.
_EXPORTS = {
    "MATCH_NAMES": "records", "NEAR": "records", "NONE": "records", "VERBATIM": "records",
    "FileMatch": "records", "MatchResult": "records", "Region": "records",
    "MatchParams": "params", "param_keys": "params", "params_from_settings": "params",
    "Side": "hits", "line_similarity": "labels", "pair_label": "labels", "MatchWorkers": "workers",
}
__all__ = sorted([*_EXPORTS, "FileMatcher", "match_sides", "same_paths"])


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"lineage.match.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'lineage.match' has no attribute {name!r}")

def same_paths(path: str) -> set[str]:
    """Upstream paths that are the same relative path as target ``path``: the path itself, and
    each ending of it that still holds a folder (``pip/_vendor/six/moves.py`` -> ``six/moves.py``,
    a vendored copy; never the bare ``moves.py``, which any project may have)."""
    parts = path.split("/")
    return {path} | {"/".join(parts[k:]) for k in range(1, len(parts) - 1)}


def match_sides(target: Side, upstream: Side, params: MatchParams | None = None,
                preferred_paths: Sequence[set[str]] | None = None,
                tick: Callable[[int], None] | None = None, workers: MatchWorkers | None = None,
                attributed: Sequence[bool] | None = None, renames: dict[str, str] | None = None) -> MatchResult:
    """Label every line of every target file. ``preferred_paths[t]``: upstream paths named by
    file t's provenance markers (they break ties, and establish the file pair for step 6).
    ``attributed[t]``: file t's markers name the upstream (step 8 keeps its small groups beside
    other lines of their pair).
    ``tick(n)``: n more target files done (for a progress bar). ``workers``: steps 4 to 9 run
    per target file, in that many forked processes when there are enough files
    (:class:`lineage.match.workers.MatchWorkers`; default: in this process); the result is the
    same either way. ``renames``: the folder renames of the whole target tree
    (:mod:`lineage.match.renames`); None learns them from the votes of the files given, right
    only when they are the whole tree. The result holds every file's vote."""
    from lineage.match.params import MatchParams
    from lineage.match.renames import folder_renames

    params = params or MatchParams()
    matcher = FileMatcher(target, upstream, params, list(preferred_paths) if preferred_paths else None,
                          list(attributed) if attributed else None, workers)
    if renames is None:
        renames = folder_renames([f.path for f in target.files], matcher.votes, params)
    found = matcher.match_files(list(range(len(target.files))), renames, tick, workers)
    return matcher.result(found)


class FileMatcher:
    """Steps 1 to 3 over all target files at once (:meth:`__init__`, which also finds each
    file's vote for a folder rename, :attr:`votes`), then steps 4 to 9 for one target file at a
    time (:meth:`match_file`, with the renames :meth:`match_files` was given), which reads what
    the first part built and changes nothing another file's matching reads (memos aside)."""

    def __init__(self, target: Side, upstream: Side, params: MatchParams,
                 preferred: list[set[str]] | None, attributed: list[bool] | None = None,
                 workers: MatchWorkers | None = None, pinned: list[int] | None = None) -> None:
        from lineage.match.claims import identical_files, recorded_identical_files
        from lineage.match.idioms import IdiomFilter
        from lineage.match.near_identical import near_identical_files
        from lineage.match.regions import find_runs
        from lineage.match.renames import best_upstream_files, upstream_votes

        self.target, self.upstream, self.params, self.preferred = target, upstream, params, preferred
        self.attributed = attributed
        self.pinned = pinned  # per target file: the upstream a vendoring record pins, or -1 (claim_order)
        self.renames: dict[str, str] = {}
        self.up_paths = [f.path for f in upstream.files]
        self.by_path: dict[str, list[int]] = {}
        for number, path in enumerate(self.up_paths):
            self.by_path.setdefault(path, []).append(number)
        # Nothing to match on one side: every file is left ``none`` and votes for nothing.
        self.empty = len(target.h_norm) == 0 or len(upstream.h_norm) == 0
        self.votes: list[str | None] = [None] * len(target.files)
        if self.empty:
            return
        self.up_names = [posixpath.basename(p) for p in self.up_paths]

        def global_steps() -> None:
            # Step 3 reads no run: with workers, this process does it while they find the runs
            # (before, one core stood idle for each part: about a second on the pinned pair).
            self.identical = identical_files(target, upstream, params, self.up_paths, self.up_names, preferred,
                                             pinned)
            self.near_identical = near_identical_files(target, upstream, params, self.identical, self._pick_copy)
            self.recorded_identical = (recorded_identical_files(target, upstream, pinned, self.identical)
                                       if params.recorded_identical_rule else {})
            self.idioms = IdiomFilter(target, upstream, params)

        self.runs_by_file = find_runs(target, upstream, params, workers, meanwhile=global_steps)
        self.votes = upstream_votes(best_upstream_files(*self.runs_by_file.file_pairs()), self.up_paths,
                                    len(target.files))

    def _pinned(self, t_file: int) -> int:
        return self.pinned[t_file] if self.pinned else -1

    def _pick_copy(self, t_file: int, u_files: list[int]) -> int:
        """Of upstream files that are copies of one file, the one target file ``t_file`` is
        credited to: the first in the claim order (a path its markers name, the same path, ...)."""
        from lineage.match.claims import claim_order

        preferred = self.preferred[t_file] if self.preferred else set()
        rank = claim_order(self.upstream, self.target.files[t_file].path, preferred, self.up_paths, self.up_names,
                           pinned=self._pinned(t_file))
        return min(u_files, key=lambda u: rank(u, 0.0, 0.0))

    def renamed(self, t_file: int) -> tuple[str, ...]:
        """The renamed upstream paths target file ``t_file`` is matched with (under the renames
        :meth:`match_files` was last given)."""
        from lineage.match.renames import renamed_upstream_paths

        return renamed_upstream_paths(self.target.files[t_file].path, self.renames, self.by_path,
                                      weak_pairs=self.params.judges_weak_pairs)

    def match_files(self, files: list[int], renames: dict[str, str], tick: Callable[[int], None] | None = None,
                    workers: MatchWorkers | None = None) -> list[tuple[FileMatch, list[Region]] | None]:
        """:meth:`match_file` of each of target files ``files`` (in that order) under folder
        renames ``renames``, in worker processes when ``workers`` says it pays
        (:func:`lineage.match.workers.run_per_file`); the result is the same either way."""
        from lineage.match.workers import run_per_file

        self.renames = dict(renames)
        if self.empty:
            if tick is not None and files:
                tick(len(files))
            return [None] * len(files)
        starts = self.target.file_start
        weights = [int(starts[t + 1] - starts[t]) + 1 for t in files]  # content lines (+1: a file's own cost)
        return run_per_file(lambda k: self.match_file(files[k]), weights, workers, tick)

    def result(self, found: list[tuple[FileMatch, list[Region]] | None]) -> MatchResult:
        """All target files' labels and regions from :meth:`match_files` over every file in order
        (None: every line ``none``), with their votes."""
        from lineage.match.records import MatchResult, empty_match

        results = [empty_match(f.n_lines) for f in self.target.files]
        regions: list[Region] = []
        for t_file, one in enumerate(found):
            if one is not None:
                results[t_file] = one[0]
                regions.extend(one[1])
        return MatchResult(results, regions, list(self.votes))

    def _whole_file(self, t_file: int, u_file: int) -> tuple[FileMatch, list[Region]]:
        """Every content line of target file ``t_file`` verbatim with the same line of the
        byte-identical upstream file ``u_file``, as one region (``recorded_identical_rule``)."""
        from lineage.match.labels import VERBATIM, FileLabeller
        from lineage.match.regions import Chain

        labeller = FileLabeller(self.target, self.upstream, t_file, self.params)
        u_rows, _ = labeller.upstream_lines(u_file)
        for tc in range(len(labeller.t_rows)):  # identical bytes: the same content rows, in order
            labeller.set_pair(tc, u_file, int(u_rows[tc]), VERBATIM, 1.0, 0)
        return labeller.result, labeller.regions([Chain(u_file, [], 0.0)])

    def match_file(self, t_file: int) -> tuple[FileMatch, list[Region]] | None:
        """Target file ``t_file``'s labels and regions; None when no candidate nor established
        pair reaches it (every line ``none``). Call through :meth:`match_files` (the renames)."""
        from lineage.match.claims import claim_order, sort_chains
        from lineage.match.class_names import headers_follow_bodies, yield_to_named_classes
        from lineage.match.fill import fill
        from lineage.match.identical_twins import move_to_identical_twins
        from lineage.match.labels import FileLabeller
        from lineage.match.lone import drop_lone_lines
        from lineage.match.regions import Chain, chain_runs
        from lineage.match.renames import renamed_paths, split_module_paths
        from lineage.match.repeats import pair_repeats
        from lineage.match.second_copies import drop_second_copies
        from lineage.match.weak_pairs import drop_weak_pairs

        target, upstream, params = self.target, self.upstream, self.params
        if t_file in self.recorded_identical:
            return self._whole_file(t_file, self.recorded_identical[t_file])
        preferred = self.preferred[t_file] if self.preferred else set()
        t_path = target.files[t_file].path
        placed_paths = same_paths(t_path) | renamed_paths(t_path, self.renames)
        named = {u for path in preferred | placed_paths for u in self.by_path.get(path, ())}
        placed = {u for path in placed_paths for u in self.by_path.get(path, ())}
        chains: list[Chain] = chain_runs(self.runs_by_file.get(t_file, []), params)
        if t_file in self.identical:
            chains.append(self.identical[t_file])
        chains = self.idioms.keep(t_file, chains, named, self.identical.get(t_file))
        # the whole-file candidate only where no region candidate of its upstream file is left:
        # where there is one, the regions and the fill align the pair (moved code included)
        near = self.near_identical.get(t_file)
        if near is not None and not any(chain.up_file == near.up_file for chain in chains):
            chains.append(near)
        if not chains and not named:
            return None
        attributed = bool(self.attributed[t_file]) if self.attributed else False
        # the files claimed first: those the markers name (a file naming the upstream), and the
        # one at the file's place (claim_named_file_first, claim_placed_file_first)
        first = preferred if attributed and params.claim_named_file_first else set()
        if placed and params.claim_placed_file_first:
            first = first | {self.up_paths[u] for u in placed}
        sort_chains(chains, claim_order(upstream, target.files[t_file].path, first | preferred, self.up_paths,
                                        self.up_names, bool(first), params.region_min_weight, self._pinned(t_file),
                                        first))
        labeller = FileLabeller(target, upstream, t_file, params)
        labeller.placed = frozenset(placed)
        if params.fill_module_split:
            labeller.split_from = frozenset(u for path in split_module_paths(placed_paths)
                                            for u in self.by_path.get(path, ()))
        claimed = [kept for chain in chains if (kept := labeller.claim(chain)) is not None]
        accepted: list[Chain] = []
        for chain in claimed:
            if labeller.label(chain, len(accepted)):
                accepted.append(chain)
        move_to_identical_twins(labeller)
        if params.second_copy_before_fill:
            drop_second_copies(labeller)  # so the fill may pair such a line with its own upstream line
        yield_to_named_classes(labeller)  # so the fill may pair the class that kept the upstream name
        accepted += fill(labeller, accepted, named, placed, attributed)
        headers_follow_bodies(labeller)
        move_to_identical_twins(labeller)
        drop_second_copies(labeller, off_chain=True)
        drop_lone_lines(labeller, self.idioms, attributed, frozenset(placed))
        pair_repeats(labeller, self.idioms)
        # a file at an upstream file's place, a part of a split upstream module or below a renamed
        # folder descends from the upstream as a whole (weak_pairs.py's docstring)
        descends = bool(placed or labeller.split_from or renamed_paths(t_path, self.renames))
        drop_weak_pairs(labeller, attributed or descends, frozenset(named))
        labeller.drop_below_floor()  # no near pair under the floor, whatever rule made it
        found = labeller.result, labeller.regions(accepted)
        # The statements it keeps refer back to it: without this the labeller (and its memos)
        # would wait for a full garbage collection instead of going on return.
        labeller.statement_rules = None
        return found
