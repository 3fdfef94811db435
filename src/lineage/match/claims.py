"""Step 4, claims: regions compete for target lines, so each line has at most one source.

Candidates are taken in the order of one key, :func:`claim_order` (the tie-break rule, in one
place): in a target file whose markers name the upstream, candidates of region weight from an
upstream file they name come first (``claim_named_file_first``); then the heaviest first; on
equal weight the upstream file that contributes most to this target file, then a later
``--upstream`` (the third party a primary upstream itself vendored), then a path named by the
target file's provenance markers, then the same path, then the same file name, then the path in
sorted order. A candidate keeps only the run lines no earlier one took
(:meth:`FileClaims.claim`), and is dropped when what is left fails :func:`claim_keeps`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

import numpy as np

from lineage.match.hits import Side
from lineage.match.params import MatchParams
from lineage.match.regions import Chain, Run, claim_keeps


def claim_order(upstream: Side, target_path: str, preferred: set[str], up_paths: list[str],
                up_names: list[str], named_first: bool = False,
                min_weight: float = 0.0, pinned: int = -1,
                first: set[str] | None = None) -> Callable[[int, float, float], tuple]:
    """The one ranking of candidate sources of a target file: a key of (upstream file, the
    candidate's weight, that upstream file's total weight in this target file); smaller first.
    ``named_first``: a candidate from a file the markers name, weighing at least ``min_weight``,
    before any other (``claim_named_file_first``; only for a target file whose markers name the
    upstream: a bare ``Adapted from qwen2_moe.py`` names the target project's own file as often as
    the upstream's). A lighter one waits its turn: a stray named run claimed first would cut a
    real region of another file to pieces. ``pinned``: the upstream (number) whose release a
    vendoring record of the target file pins: on equal evidence before the others (two releases
    of one distribution hold the same lines; the record says which one was taken). ``first``: the
    paths ``named_first`` puts first (default ``preferred``; the matcher adds the file at the
    target file's place, ``claim_placed_file_first``)."""
    t_name = posixpath.basename(target_path)
    first = preferred if first is None else first

    def key(u_file: int, weight: float, file_score: float) -> tuple:
        return (
            named_first and (up_paths[u_file] not in first or weight < min_weight),
            -round(weight, 6),
            -round(file_score, 6),
            pinned >= 0 and int(upstream.upstream_of[u_file]) != pinned,
            -int(upstream.upstream_of[u_file]),
            up_paths[u_file] not in preferred,
            up_paths[u_file] != target_path,
            up_names[u_file] != t_name,
            up_paths[u_file],
        )

    return key


def sort_chains(chains: list[Chain], rank: Callable[[int, float, float], tuple]) -> None:
    """Sort candidates in claim order; among equals of one upstream file, the earlier first."""
    score: dict[int, float] = {}
    for chain in chains:
        score[chain.up_file] = score.get(chain.up_file, 0.0) + chain.weight
    chains.sort(key=lambda c: (*rank(c.up_file, c.weight, score[c.up_file]), c.runs[0].t0))


def identical_files(target: Side, upstream: Side, p: MatchParams, up_paths: list[str],
                    up_names: list[str], preferred_paths: list[set[str]] | None,
                    pinned: list[int] | None = None) -> dict[int, Chain]:
    """Target files byte-identical to an upstream file, as one whole-file chain each.

    A whole identical file is the strongest evidence there is, even when none of its lines is
    distinctive alone (a re-export list, an ``__all__``), provided it holds at least one region's
    worth of tokens: an empty ``__init__.py`` or a one-line version file proves nothing. Among
    identical upstream files, the first in :func:`claim_order`.
    """
    by_digest: dict[str, list[int]] = {}
    for number, f in enumerate(upstream.files):
        by_digest.setdefault(f.digest, []).append(number)
    found: dict[int, Chain] = {}
    for t_file, f in enumerate(target.files):
        candidates = by_digest.get(f.digest)
        if not candidates:
            continue
        start, end = int(target.file_start[t_file]), int(target.file_start[t_file + 1])
        tokens = float(np.minimum(target.ntok[start:end], p.token_weight_cap).sum())
        if end == start or tokens < p.region_min_weight:
            continue
        preferred = preferred_paths[t_file] if preferred_paths else set()
        rank = claim_order(upstream, f.path, preferred, up_paths, up_names,  # equal weights: named first anyway
                           pinned=pinned[t_file] if pinned else -1)
        u_file = min(candidates, key=lambda u: rank(u, tokens, tokens))
        n = end - start
        chain = Chain(u_file, [], 0.0)
        chain.add(Run(u_file, 0, 0, n - 1, tokens, np.arange(n, dtype=np.int64)))
        found[t_file] = chain
    return found


def recorded_identical_files(target: Side, upstream: Side, pinned: list[int] | None,
                             found: dict[int, Chain]) -> dict[int, int]:
    """Target file -> upstream file, for the files :func:`identical_files` leaves out as too small
    (not in ``found``) that a vendoring record pins (``pinned``: per target file the upstream a
    record pins, or -1) and that are byte-identical to that upstream's file at the target file's
    own place (:func:`lineage.match.same_paths`). The record and the place are the evidence such a
    file cannot give by its lines (a one-line ``__version__``); see ``recorded_identical_rule``."""
    from lineage.match import same_paths

    if not pinned:
        return {}
    by_place: dict[tuple[str, str], int] = {}
    for number, f in enumerate(upstream.files):
        by_place.setdefault((f.path, f.digest), number)
    out: dict[int, int] = {}
    for t_file, f in enumerate(target.files):
        if t_file in found or pinned[t_file] < 0 or f.n_lines == 0:
            continue
        for path in sorted(same_paths(f.path), key=len, reverse=True):  # the longest place first
            u_file = by_place.get((path, f.digest))
            if u_file is not None and int(upstream.upstream_of[u_file]) == pinned[t_file]:
                out[t_file] = u_file
                break
    return out


class FileClaims:
    """Which candidate owns each content line of one target file."""

    def __init__(self, n_content: int, p: MatchParams) -> None:
        self.p = p
        self.owner = np.full(n_content, -1, np.int64)  # content line -> claimed chain number
        self.claimed: list[Chain] = []

    def claim(self, chain: Chain) -> Chain | None:
        """Take the chain's run lines that no earlier chain took; None if too little is left."""
        number = len(self.claimed)
        kept: list[Run] = []
        kept_weight = 0.0
        for run in chain.runs:
            free = self.owner[run.t0 : run.t1 + 1] < 0
            if not free.any():
                continue
            # split the run around lines already claimed (most runs are wholly free: one segment)
            for seg_start, seg_end in [(0, len(free) - 1)] if free.all() else _true_segments(free):
                lo, hi = run.t0 + seg_start, run.t0 + seg_end
                part = Run(run.up_file, run.diag, lo, hi,
                           run.weight * (hi - lo + 1) / (run.t1 - run.t0 + 1),
                           run.hits[(run.hits >= lo) & (run.hits <= hi)])
                kept.append(part)
                kept_weight += part.weight
        if not claim_keeps(chain.weight, kept_weight, sum(len(run.hits) for run in kept), self.p):
            return None
        for run in kept:
            self.owner[run.t0 : run.t1 + 1] = number
        result = Chain(chain.up_file, sorted(kept, key=lambda r: r.t0), kept_weight)
        self.claimed.append(result)
        return result

    def number(self, chain: Chain) -> int:
        return self.claimed.index(chain)

    def release(self, chain: Chain) -> None:
        """A claimed chain that failed to prove itself gives its lines back."""
        self.owner[self.owner == self.number(chain)] = -1


def _true_segments(mask: np.ndarray) -> list[tuple[int, int]]:
    """Inclusive (start, end) index pairs of the runs of True in a boolean array."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(s), int(e) - 1) for s, e in zip(edges[::2], edges[1::2], strict=True)]
