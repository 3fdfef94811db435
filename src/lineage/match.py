"""The matcher: which target lines were copied from which upstream lines.

The method, in the order it runs (every step is linear in the number of lines, never in the
number of file pairs):

1. **Hits.** Each informative target line (enough tokens) is looked up, by the hash of its
   whitespace/comment-insensitive form, among all upstream lines at once (a sorted array, not an
   all-pairs comparison). A form found in more than ``seed_max_count`` upstream places is too
   common to be evidence on its own (``)``, ``else:``, ``import torch``, licence headers) and seeds
   nothing. Long lines whose text is found nowhere upstream also hit through their abstract form
   (names and literals abstracted), so a consistently renamed function is still found. Each hit
   weighs its token count, discounted by how common the form is upstream.
2. **Runs.** Hits that fall on one diagonal of one (target file, upstream file) pair, a few lines
   apart at most, form a run: a stretch copied in order.
3. **Regions.** Runs of the same file pair that follow each other in both files with small gaps
   (inserted or deleted lines) chain into a region. A region is evidence of copying only if its
   hits weigh at least ``region_min_weight``; a lone coincidental line never is.
4. **Claims.** Regions compete for target lines, heaviest first; ties go to the upstream file
   that contributes most to this target file, then to a later ``--upstream`` (the third party a
   primary upstream itself vendored), then to a path named by a provenance marker, then to the
   same file name, then to the path in sorted order. So each target line has at most one source.
5. **Labels.** Inside an accepted region each target line is paired with one upstream line:
   along a run's diagonal, in the gaps between runs by a character alignment of the two gaps
   (which also maps calls re-wrapped over other line breaks), and outward from the region's ends
   while lines keep matching, a statement re-wrapped past the last hit included (same tokens,
   other line breaks). A pair is ``verbatim`` when the stripped texts are identical, ``near``
   when the normal forms agree or the text is similar enough; other lines stay ``none``.
"""

from __future__ import annotations

import math
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from lineage.index import BLANK, FileIndex
from lineage.normalise import similarity_text

NONE, NEAR, VERBATIM = 0, 1, 2
MATCH_NAMES = ("none", "near", "verbatim")


@dataclass(frozen=True)
class MatchParams:
    """Every knob of the matcher; all of them are written to the manifest."""

    seed_min_tokens: int = 3  # a line with fewer tokens (``return x``) never seeds a match
    seed_max_count: int = 128  # a form found in more upstream places than this is boilerplate
    short_seed_max_count: int = 2  # a two-token line (``"name",`` in a list) seeds only if this rare
    seed_max_per_file: int = 4  # a form repeated more often inside one upstream file seeds nothing
    nominate_max_count: int = 16  # a commoner form only supports file pairs that rarer ones found
    abstract_seed_min_tokens: int = 8
    abstract_seed_max_count: int = 8
    abstract_weight: float = 0.5  # an abstract-only hit is weaker evidence than a textual one
    token_weight_cap: int = 16  # one very long line must not outweigh a copied block
    run_max_gap: int = 3  # content lines between two hits on one diagonal
    chain_max_gap: int = 12  # content lines between two runs of one region
    region_min_weight: float = 16.0  # about two distinctive lines
    # A lighter region (at least half that weight: a small function moved on its own) counts only
    # if it holds this many consecutive lines identical, in order, to consecutive upstream lines.
    weak_region_min_lines: int = 6
    near_min_similarity: float = 0.6  # a line between two hits on the same diagonal
    edge_min_similarity: float = 0.75  # a line beyond the outermost hit
    gap_min_aligned: float = 0.7  # share of a gap line's characters aligned to upstream text

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


@dataclass
class Side:
    """All indexed files of one side, flattened to arrays over their non-blank lines."""

    files: list[FileIndex]
    read_lines: Callable[[int], list[str]]  # file number -> physical lines
    upstream_of: np.ndarray  # per file: which upstream (0 for the target side)
    file_of: np.ndarray = field(init=False)
    row_of: np.ndarray = field(init=False)  # physical row (0-based) of each content line
    cidx: np.ndarray = field(init=False)  # content-line number within its file
    file_start: np.ndarray = field(init=False)  # first global content line of each file
    h_norm: np.ndarray = field(init=False)
    h_abs: np.ndarray = field(init=False)
    ntok: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        rows = [np.flatnonzero(f.kinds != BLANK).astype(np.int32) for f in self.files]
        counts = np.array([len(r) for r in rows], dtype=np.int64)
        self.file_start = np.concatenate(([0], np.cumsum(counts)))
        self.file_of = np.repeat(np.arange(len(self.files), dtype=np.int32), counts)
        self.row_of = np.concatenate(rows) if rows else np.zeros(0, np.int32)
        self.cidx = (np.arange(len(self.row_of), dtype=np.int64) - self.file_start[self.file_of]).astype(np.int32)
        self.h_norm = _gather(self.files, rows, "h_norm", np.int64)
        self.h_abs = _gather(self.files, rows, "h_abs", np.int64)
        self.ntok = _gather(self.files, rows, "ntok", np.uint16).astype(np.int32)

    def content_rows(self, file_no: int) -> np.ndarray:
        return self.row_of[self.file_start[file_no] : self.file_start[file_no + 1]]


def _gather(files: list[FileIndex], rows: list[np.ndarray], name: str, dtype: type) -> np.ndarray:
    parts = [getattr(f, name)[r] for f, r in zip(files, rows, strict=True)]
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


@dataclass
class FileMatch:
    """Per physical line of one target file: label, source and similarity."""

    match: np.ndarray  # uint8: NONE / NEAR / VERBATIM
    up_file: np.ndarray  # int32: upstream file number, -1 when none
    up_row: np.ndarray  # int32: upstream physical row (0-based), -1 when none
    similarity: np.ndarray  # float32
    region: np.ndarray  # int32: region number within this file, -1 when none


@dataclass(frozen=True)
class Region:
    """A copied region as finally labelled: 1-based inclusive spans on both sides."""

    target_file: int
    region: int
    up_file: int
    target_start: int
    target_end: int
    upstream_start: int
    upstream_end: int
    verbatim: int
    near: int
    weight: float


@dataclass
class MatchResult:
    files: list[FileMatch]
    regions: list[Region]


# A run: hits on one diagonal of one file pair. Content-line coordinates, inclusive.
@dataclass
class _Run:
    up_file: int
    diag: int  # upstream content index minus target content index
    t0: int
    t1: int
    weight: float
    hits: np.ndarray  # target content lines that hit, sorted; t0 and t1 are the first and last


@dataclass
class _Chain:
    up_file: int
    runs: list[_Run]
    weight: float
    t_end: int = -1  # last target content line
    u_end: int = -1  # last upstream content line

    def add(self, run: _Run) -> None:
        self.runs.append(run)
        self.weight += run.weight
        self.t_end = run.t1
        self.u_end = run.t1 + run.diag


def match_sides(target: Side, upstream: Side, params: MatchParams | None = None,
                preferred_paths: Sequence[set[str]] | None = None) -> MatchResult:
    """Label every line of every target file. ``preferred_paths[t]``: upstream paths named by
    file t's provenance markers (used to break ties only)."""
    params = params or MatchParams()
    results = [_empty_match(f.n_lines) for f in target.files]
    regions: list[Region] = []
    if len(target.h_norm) == 0 or len(upstream.h_norm) == 0:
        return MatchResult(results, regions)
    t_idx, u_idx, weight = _hits(target, upstream, params)
    runs_by_file = _runs(target, upstream, t_idx, u_idx, weight, params)
    up_paths = [f.path for f in upstream.files]
    up_names = [posixpath.basename(p) for p in up_paths]
    identical = _identical_files(target, upstream, params, up_paths, up_names)
    for t_file in sorted(set(runs_by_file) | set(identical)):
        chains = _chains(runs_by_file.get(t_file, []), params)
        if t_file in identical:
            chains.append(identical[t_file])
        if not chains:
            continue
        preferred = preferred_paths[t_file] if preferred_paths else set()
        t_name = posixpath.basename(target.files[t_file].path)
        labeller = _FileLabeller(target, upstream, t_file, params)
        score: dict[int, float] = {}
        for chain in chains:
            score[chain.up_file] = score.get(chain.up_file, 0.0) + chain.weight
        chains.sort(key=lambda c: (
            -round(c.weight, 6),
            -round(score[c.up_file], 6),
            -int(upstream.upstream_of[c.up_file]),
            up_paths[c.up_file] not in preferred,
            up_names[c.up_file] != t_name,
            up_paths[c.up_file],
            c.runs[0].t0,
        ))
        claimed = [kept for chain in chains if (kept := labeller.claim(chain)) is not None]
        accepted: list[_Chain] = []
        for chain in claimed:
            if labeller.label(chain, len(accepted)):
                accepted.append(chain)
        results[t_file] = labeller.result
        regions.extend(labeller.regions(accepted))
    return MatchResult(results, regions)


def _identical_files(target: Side, upstream: Side, p: MatchParams, up_paths: list[str],
                     up_names: list[str]) -> dict[int, _Chain]:
    """Target files byte-identical to an upstream file, as one whole-file chain each.

    A whole identical file is the strongest evidence there is, even when none of its lines is
    distinctive alone (a re-export list, an ``__all__``), provided it holds at least one region's
    worth of tokens: an empty ``__init__.py`` or a one-line version file proves nothing. Among
    identical upstream files: a further upstream first, then the same path, the same name, the
    first path in order.
    """
    by_digest: dict[str, list[int]] = {}
    for number, f in enumerate(upstream.files):
        by_digest.setdefault(f.digest, []).append(number)
    found: dict[int, _Chain] = {}
    for t_file, f in enumerate(target.files):
        candidates = by_digest.get(f.digest)
        if not candidates:
            continue
        start, end = int(target.file_start[t_file]), int(target.file_start[t_file + 1])
        tokens = float(np.minimum(target.ntok[start:end], p.token_weight_cap).sum())
        if end == start or tokens < p.region_min_weight:
            continue
        name = posixpath.basename(f.path)
        u_file = min(candidates, key=lambda u: (-int(upstream.upstream_of[u]), up_paths[u] != f.path,
                                                 up_names[u] != name, up_paths[u]))
        n = end - start
        run = _Run(u_file, 0, 0, n - 1, tokens, np.arange(n, dtype=np.int64))
        chain = _Chain(u_file, [], 0.0)
        chain.add(run)
        found[t_file] = chain
    return found


def _empty_match(n: int) -> FileMatch:
    return FileMatch(
        match=np.zeros(n, np.uint8),
        up_file=np.full(n, -1, np.int32),
        up_row=np.full(n, -1, np.int32),
        similarity=np.zeros(n, np.float32),
        region=np.full(n, -1, np.int32),
    )


def _lookup(keys_u: np.ndarray, files_u: np.ndarray, keys_t: np.ndarray, eligible: np.ndarray,
            max_count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All (target line, upstream line) pairs with equal keys, for eligible target lines whose
    key occurs 1..max_count times upstream. Returns (t_idx, u_idx, count of the key upstream,
    count of the key in that upstream line's own file).

    Upstream lines are first narrowed to the keys the target has (one vectorised pass, no sort
    of the whole upstream): re-matching one changed file costs little more than that pass.
    """
    empty = np.zeros(0, np.int64)
    wanted = np.unique(keys_t[eligible])
    if len(wanted) == 0 or len(keys_u) == 0:
        return empty, empty, empty, empty
    pos = np.minimum(np.searchsorted(wanted, keys_u), len(wanted) - 1)
    sub = np.flatnonzero(wanted[pos] == keys_u)  # every upstream line of every wanted key
    sub_order = np.argsort(keys_u[sub], kind="stable")
    order = sub[sub_order]
    sorted_keys = keys_u[order]
    in_file = _count_in_file(keys_u[sub], files_u[sub])[sub_order]
    # Sorted needles make the binary searches walk memory in order: several times faster.
    t_order = np.argsort(keys_t, kind="stable")
    lo = np.empty(len(keys_t), np.int64)
    hi = np.empty(len(keys_t), np.int64)
    lo[t_order] = np.searchsorted(sorted_keys, keys_t[t_order], side="left")
    hi[t_order] = np.searchsorted(sorted_keys, keys_t[t_order], side="right")
    count = hi - lo
    keep = eligible & (count > 0) & (count <= max_count)
    t_sel = np.flatnonzero(keep)
    lengths = count[t_sel]
    total = int(lengths.sum())
    t_idx = np.repeat(t_sel, lengths)
    starts = np.repeat(lo[t_sel], lengths)
    within = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    at = starts + within
    return t_idx, order[at], np.repeat(count[t_sel], lengths), in_file[at]


def _count_in_file(keys: np.ndarray, file_of: np.ndarray) -> np.ndarray:
    """For each upstream line: how many lines of its own file share its key."""
    order = np.lexsort((keys, file_of))
    k, f = keys[order], file_of[order]
    new = np.ones(len(k), bool)
    new[1:] = (k[1:] != k[:-1]) | (f[1:] != f[:-1])
    group = np.cumsum(new) - 1
    sizes = np.bincount(group)
    counts = np.empty(len(keys), np.int64)
    counts[order] = sizes[group]
    return counts


def _hits(target: Side, upstream: Side, p: MatchParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cap = np.minimum(target.ntok, p.token_weight_cap).astype(np.float64)
    t1, u1, c1, f1 = _lookup(upstream.h_norm, upstream.file_of, target.h_norm, target.ntok >= 2,
                             p.seed_max_count)
    # Two-token lines are evidence only when (nearly) unique upstream: the items of a copied
    # ``__all__`` or re-export list, not ``return x``.
    strong = (target.ntok[t1] >= p.seed_min_tokens) | (c1 <= p.short_seed_max_count)
    # A line repeated many times inside one upstream file (a register call, a table row) would
    # seed a grid of hits on every diagonal; its copies are reached from neighbouring seeds.
    strong &= f1 <= p.seed_max_per_file
    t1, u1, c1 = t1[strong], u1[strong], c1[strong]
    w1 = cap[t1] / (1.0 + np.log2(c1))
    t2, u2, c2, f2 = _lookup(upstream.h_abs, upstream.file_of, target.h_abs,
                             target.ntok >= p.abstract_seed_min_tokens, p.abstract_seed_max_count)
    # The abstract level is a fallback for lines whose text was edited: a line whose exact tokens
    # are found upstream is seeded by those places only, or a same-shaped neighbour (functions
    # that differ only in names) would pull it onto the wrong diagonal.
    has_text_hit = np.zeros(len(target.h_norm), bool)
    has_text_hit[t1] = True
    fallback = ~has_text_hit[t2]
    fallback &= f2 <= p.seed_max_per_file
    t2, u2, c2 = t2[fallback], u2[fallback], c2[fallback]
    w2 = p.abstract_weight * cap[t2] / (1.0 + np.log2(c2))
    t_idx = np.concatenate((t1, t2))
    u_idx = np.concatenate((u1, u2))
    weight = np.concatenate((w1, w2))
    count = np.concatenate((c1, c2))
    # Common forms (found in many upstream places) support a (target file, upstream file) pair
    # that rarer forms nominated, but nominate none themselves: a hundred-fold line would
    # otherwise put a hit in a hundred files for every target line that holds it.
    pair_key = target.file_of[t_idx].astype(np.int64) * (len(upstream.files) + 1) + upstream.file_of[u_idx]
    rare = count <= p.nominate_max_count
    supported = rare | np.isin(pair_key, np.unique(pair_key[rare]))
    t_idx, u_idx, weight = t_idx[supported], u_idx[supported], weight[supported]
    # One pair may hit at both levels: keep its larger weight.
    pair = t_idx.astype(np.int64) * len(upstream.h_norm) + u_idx
    order = np.lexsort((-weight, pair))
    first = np.ones(len(order), bool)
    first[1:] = pair[order][1:] != pair[order][:-1]
    keep = order[first]
    return t_idx[keep], u_idx[keep], weight[keep]


def _runs(target: Side, upstream: Side, t_idx: np.ndarray, u_idx: np.ndarray, weight: np.ndarray,
          p: MatchParams) -> dict[int, list[_Run]]:
    """Group hits into diagonal runs, vectorised; drop file pairs too light to hold a region."""
    if len(t_idx) == 0:
        return {}
    t_file = target.file_of[t_idx].astype(np.int64)
    u_file = upstream.file_of[u_idx].astype(np.int64)
    tc = target.cidx[t_idx].astype(np.int64)
    diag = upstream.cidx[u_idx].astype(np.int64) - tc
    order = np.lexsort((tc, diag, u_file, t_file))
    t_file, u_file, tc, diag, weight = t_file[order], u_file[order], tc[order], diag[order], weight[order]
    brk = np.ones(len(tc), bool)
    brk[1:] = ((t_file[1:] != t_file[:-1]) | (u_file[1:] != u_file[:-1]) | (diag[1:] != diag[:-1])
               | (tc[1:] - tc[:-1] > p.run_max_gap + 1))
    starts = np.flatnonzero(brk)
    ends = np.concatenate((starts[1:], [len(tc)])) - 1
    run_w = np.add.reduceat(weight, starts)
    run_tf, run_uf = t_file[starts], u_file[starts]
    run_t0, run_t1 = tc[starts], tc[ends]
    # Runs of one file pair that lie within chaining distance of each other form a cluster; a
    # chain never spans two clusters, so a cluster lighter than one region holds no region.
    # (Vectorised, so the Python chaining below only sees runs that can matter.)
    order = np.lexsort((run_t0, run_uf, run_tf))
    starts, ends = starts[order], ends[order]
    run_w, run_tf, run_uf, run_t0, run_t1 = (a[order] for a in (run_w, run_tf, run_uf, run_t0, run_t1))
    new_pair = np.ones(len(starts), bool)
    new_pair[1:] = (run_tf[1:] != run_tf[:-1]) | (run_uf[1:] != run_uf[:-1])
    pair_no = np.cumsum(new_pair) - 1
    span = int(run_t1.max()) + 2 * p.chain_max_gap + 4
    reach = np.maximum.accumulate(run_t1 + pair_no * span)  # furthest line so far, per pair
    new_cluster = new_pair.copy()
    new_cluster[1:] |= (run_t0[1:] + pair_no[1:] * span) - reach[:-1] > p.chain_max_gap + 1
    cluster = np.cumsum(new_cluster) - 1
    cluster_w = np.bincount(cluster, weights=run_w)
    # A lighter cluster may still prove itself by a block of identical lines (see label), but
    # only one with a run of two hits on one diagonal can: single coincidental hits are dropped.
    cluster_best_run = np.zeros(len(cluster_w), np.int64)
    np.maximum.at(cluster_best_run, cluster, ends - starts + 1)
    keep_cluster = (cluster_w >= p.region_min_weight) | (
        (cluster_w >= p.region_min_weight / 2) & (cluster_best_run >= 2))
    keep = keep_cluster[cluster]
    by_file: dict[int, list[_Run]] = {}
    kept_starts, kept_ends = starts[keep], ends[keep]
    # Python lists, not numpy scalars, in the loop: this runs once per kept run.
    for s, e, w, tf, uf, d, t0, t1 in zip(kept_starts.tolist(), kept_ends.tolist(), run_w[keep].tolist(),
                                          run_tf[keep].tolist(), run_uf[keep].tolist(),
                                          diag[kept_starts].tolist(), run_t0[keep].tolist(),
                                          run_t1[keep].tolist(), strict=True):
        runs = by_file.get(tf)
        if runs is None:
            runs = by_file[tf] = []
        runs.append(_Run(uf, d, t0, t1, w, tc[s : e + 1]))
    return by_file


# Chains a run may join. Code repeated many times in one file (tables, register calls) would
# otherwise make chaining quadratic; the most recent chains are the ones that can continue.
_MAX_OPEN_CHAINS = 32


def _chains(runs: list[_Run], p: MatchParams) -> list[_Chain]:
    """Chain runs of the same upstream file that follow each other in both files."""
    runs.sort(key=lambda r: (r.up_file, r.t0, r.diag))
    chains: list[_Chain] = []
    open_chains: list[_Chain] = []
    current_file = -1
    for run in runs:
        if run.up_file != current_file:
            open_chains = []
            current_file = run.up_file
        best: _Chain | None = None
        best_gap = best_start = 0
        best_hits = run.hits
        for chain in open_chains:
            # A run overlapping the chain's end (a spurious hit on a nearby diagonal, or a
            # repeated line) continues the chain from the chain's last line on. The upstream side
            # must advance too: one upstream line never absorbs a series of repeated target lines.
            if run.t1 <= chain.t_end:
                continue
            if run.t0 > chain.t_end:
                start, later = run.t0, run.hits
            else:
                later = run.hits[run.hits > chain.t_end]
                start = int(later[0])
            t_gap = start - chain.t_end - 1
            u_gap = start + run.diag - chain.u_end - 1
            if t_gap <= p.chain_max_gap and 0 <= u_gap <= p.chain_max_gap:
                gap = t_gap + max(u_gap, 0)
                if best is None or gap < best_gap:
                    best, best_gap, best_start, best_hits = chain, gap, start, later
        if best is None:
            best = _Chain(run.up_file, [], 0.0)
            chains.append(best)
            open_chains.append(best)
            best.add(run)
        elif best_start == run.t0:
            best.add(run)
        else:
            share = (run.t1 - best_start + 1) / (run.t1 - run.t0 + 1)
            best.add(_Run(run.up_file, run.diag, best_start, run.t1, run.weight * share, best_hits))
        if len(open_chains) > _MAX_OPEN_CHAINS or open_chains[0].t_end < run.t0 - p.chain_max_gap - 1:
            open_chains = [c for c in open_chains if run.t0 - c.t_end <= p.chain_max_gap + 1]
            open_chains = open_chains[-_MAX_OPEN_CHAINS:]
    return [c for c in chains if c.weight >= p.region_min_weight / 2]


class _FileLabeller:
    """Claims and labels the lines of one target file."""

    def __init__(self, target: Side, upstream: Side, t_file: int, p: MatchParams) -> None:
        self.target, self.upstream, self.t_file, self.p = target, upstream, t_file, p
        self.t_rows = target.content_rows(t_file)
        self.t_lines = target.read_lines(t_file)
        self.owner = np.full(len(self.t_rows), -1, np.int64)  # content line -> chain number
        self.result = _empty_match(target.files[t_file].n_lines)
        self._claimed: list[_Chain] = []
        self._journal: list[tuple[int, int, int]] | None = None  # (content line, upstream row, label)
        self._up_cache: dict[int, tuple[np.ndarray, list[str]]] = {}

    def claim(self, chain: _Chain) -> _Chain | None:
        """Take the chain's run lines that no heavier chain took; None if too little is left."""
        number = len(self._claimed)
        kept: list[_Run] = []
        kept_weight = 0.0
        for run in chain.runs:
            free = self.owner[run.t0 : run.t1 + 1] < 0
            if not free.any():
                continue
            # split the run around lines already claimed
            for seg_start, seg_end in _true_segments(free):
                lo, hi = run.t0 + seg_start, run.t0 + seg_end
                part = _Run(run.up_file, run.diag, lo, hi,
                            run.weight * (hi - lo + 1) / (run.t1 - run.t0 + 1),
                            run.hits[(run.hits >= lo) & (run.hits <= hi)])
                kept.append(part)
                kept_weight += part.weight
        weak = chain.weight < self.p.region_min_weight
        if kept_weight < (self.p.region_min_weight / 2 if weak else self.p.region_min_weight):
            return None
        # One line, however long and rare, is never a region on its own: an idiom such as
        # ``pytestmark = pytest.mark.skipif(...)`` is written the same way in many projects.
        if sum(len(run.hits) for run in kept) < 2:
            return None
        for run in kept:
            self.owner[run.t0 : run.t1 + 1] = number
        result = _Chain(chain.up_file, sorted(kept, key=lambda r: r.t0), kept_weight)
        self._claimed.append(result)
        return result

    def _upstream(self, u_file: int) -> tuple[np.ndarray, list[str]]:
        if u_file not in self._up_cache:
            self._up_cache[u_file] = (self.upstream.content_rows(u_file), self.upstream.read_lines(u_file))
        return self._up_cache[u_file]

    def label(self, chain: _Chain, number: int) -> bool:
        """Label the chain's lines as region ``number``; False (and nothing labelled) when a weak
        chain does not hold a block of identical consecutive lines."""
        self._journal = []
        self._label(chain, number)
        journal, self._journal = self._journal, None
        if chain.weight >= self.p.region_min_weight or _longest_verbatim_block(
                journal, self._upstream(chain.up_file)[0]) >= self.p.weak_region_min_lines:
            return True
        owner_no = self._claimed.index(chain)
        self.owner[self.owner == owner_no] = -1
        r = self.result
        for tc, _, _ in journal:
            row = self.t_rows[tc]
            r.match[row], r.up_file[row], r.up_row[row] = NONE, -1, -1
            r.similarity[row], r.region[row] = 0.0, -1
        return False

    def _label(self, chain: _Chain, number: int) -> None:
        u_rows, u_lines = self._upstream(chain.up_file)
        n_t, n_u = len(self.t_rows), len(u_rows)
        owner_no = self._claimed.index(chain)

        def free(tc: int) -> bool:
            return self.owner[tc] in (-1, owner_no) and self.result.match[self.t_rows[tc]] == NONE

        used: set[int] = set()

        def pair(tc: int, uc: int, threshold: float, edge: bool = False) -> bool:
            if not (0 <= tc < n_t and 0 <= uc < n_u) or not free(tc):
                return False
            if edge and uc in used:
                return False
            t_text = self.t_lines[self.t_rows[tc]].strip()
            u_text = u_lines[u_rows[uc]].strip()
            if t_text == u_text:
                self._set(tc, chain.up_file, int(u_rows[uc]), VERBATIM, 1.0, number)
                used.add(uc)
                return True
            # Beyond the outermost hit only the same tokens or a similar text extend a region;
            # between hits the same shape (renamed names, edited literals) is enough.
            keys_equal = self._keys_equal(tc, chain.up_file, uc, shape=not edge)
            sim = line_similarity(t_text, u_text, short_fragments=not edge)
            if keys_equal or sim >= threshold:
                self._set(tc, chain.up_file, int(u_rows[uc]), NEAR, sim, number)
                used.add(uc)
                return True
            return False

        runs = chain.runs
        for run in runs:
            for tc in range(run.t0, run.t1 + 1):
                pair(tc, tc + run.diag, self.p.near_min_similarity)
        for before, after in zip(runs, runs[1:], strict=False):
            t_lo, t_hi = before.t1 + 1, after.t0 - 1
            u_lo, u_hi = before.t1 + before.diag + 1, after.t0 + after.diag - 1
            if t_lo <= t_hi and u_lo <= u_hi:
                self._align_gap(chain.up_file, number, range(t_lo, t_hi + 1), range(u_lo, u_hi + 1),
                                u_rows, u_lines, free)
        # outward from both ends while lines keep matching
        tc, uc = runs[0].t0 - 1, runs[0].t0 + runs[0].diag - 1
        while pair(tc, uc, self.p.edge_min_similarity, edge=True):
            tc, uc = tc - 1, uc - 1
        tc, uc = runs[-1].t1 + 1, runs[-1].t1 + runs[-1].diag + 1
        while True:
            while pair(tc, uc, self.p.edge_min_similarity, edge=True):
                tc, uc = tc + 1, uc + 1
            # The statement may have begun on the last line paired (a re-wrapped call's first
            # line is similar enough to pair; its other pieces are not).
            start_tc, start_uc = tc, uc
            step = None
            if tc > 0 and self.result.match[self.t_rows[tc - 1]] == NEAR and \
                    self.result.up_row[self.t_rows[tc - 1]] == (u_rows[uc - 1] if uc > 0 else -2):
                step = self._rewrapped(tc - 1, uc - 1, u_rows, u_lines, free, first_taken=True)
                if step is not None:
                    start_tc, start_uc = tc - 1, uc - 1
            if step is None:
                step = self._rewrapped(tc, uc, u_rows, u_lines, free)
            if step is None:
                break
            tc, uc = start_tc, start_uc
            for k, u_k in enumerate(step[0]):
                t_text = self.t_lines[self.t_rows[tc + k]].strip()
                u_text = u_lines[u_rows[u_k]].strip()
                self._set(tc + k, chain.up_file, int(u_rows[u_k]), VERBATIM if t_text == u_text else NEAR,
                          1.0 if t_text == u_text else line_similarity(t_text, u_text), number)
                used.add(u_k)
            tc, uc = tc + len(step[0]), uc + step[1]

    def _rewrapped(self, tc: int, uc: int, u_rows: np.ndarray, u_lines: list[str],
                   free: Callable[[int], bool], first_taken: bool = False) -> tuple[list[int], int] | None:
        """Past a region's end: the next statement re-wrapped over other line breaks.

        Finds k target lines and m upstream lines (k != m, both at most ``_REWRAP_MAX``) whose
        texts, with all whitespace and commas removed, are identical: the same tokens, wrapped
        differently (a formatter adds a trailing comma when it splits a call). Returns the
        upstream line of each target line (the one holding its first character) and m; None if
        there is no such statement.
        """
        if not (0 <= tc < len(self.t_rows) and 0 <= uc < len(u_rows)):
            return None
        t_parts: list[str] = []
        for k in range(_REWRAP_MAX):
            if tc + k >= len(self.t_rows) or not (free(tc + k) or (first_taken and k == 0)):
                break
            t_parts.append(_rewrap_form(self.t_lines[self.t_rows[tc + k]]))
        u_parts = [_rewrap_form(u_lines[u_rows[uc + m]]) for m in range(min(_REWRAP_MAX, len(u_rows) - uc))]
        u_ends = np.cumsum([len(x) for x in u_parts]).tolist()
        u_text = "".join(u_parts)
        t_joined = ""
        for k, part in enumerate(t_parts):
            t_joined += part
            if len(t_joined) < _REWRAP_MIN_CHARS or not u_text.startswith(t_joined):
                if not u_text.startswith(t_joined):
                    return None
                continue
            if len(t_joined) in u_ends:
                m = u_ends.index(len(t_joined)) + 1
                if m == k + 1:
                    return None  # same line breaks: the line-by-line extension already failed
                owners, offset = [], 0
                for piece in t_parts[: k + 1]:
                    owners.append(uc + sum(1 for end in u_ends if end <= offset))
                    offset += len(piece)
                return owners, m
        return None

    def _keys_equal(self, tc: int, u_file: int, uc: int, shape: bool = True) -> bool:
        t_i = self.target.file_start[self.t_file] + tc
        u_i = self.upstream.file_start[u_file] + uc
        if self.target.h_norm[t_i] == self.upstream.h_norm[u_i]:
            return True
        return shape and bool(self.target.h_abs[t_i] == self.upstream.h_abs[u_i])

    def _align_gap(self, u_file: int, number: int, t_range: range, u_range: range,
                   u_rows: np.ndarray, u_lines: list[str], free: Callable[[int], bool]) -> None:
        """Pair lines in the gap between two runs by aligning the gaps' characters.

        One alignment of the whole gap handles edited lines and calls re-wrapped over other line
        breaks alike: each target line is mapped to the upstream line most of its aligned
        characters fall in, and kept if enough of its characters align.
        """
        if len(t_range) == len(u_range):
            # Gaps of equal length: first pair lines of the same shape in place (edited literals
            # in a list, a renamed name), which a character alignment may miss on short lines.
            for tc, uc in zip(t_range, u_range, strict=True):
                if free(tc) and self._keys_equal(tc, u_file, uc):
                    t_text = self.t_lines[self.t_rows[tc]].strip()
                    u_text = u_lines[u_rows[uc]].strip()
                    same = t_text == u_text
                    self._set(tc, u_file, int(u_rows[uc]), VERBATIM if same else NEAR,
                              1.0 if same else line_similarity(t_text, u_text), number)
        t_texts = [similarity_text(self.t_lines[self.t_rows[tc]]) for tc in t_range]
        u_texts = [similarity_text(u_lines[u_rows[uc]]) for uc in u_range]
        t_joined, t_owner = _joined(t_texts)
        u_joined, u_owner = _joined(u_texts)
        aligned = np.zeros(len(t_joined), bool)
        target_of = np.full(len(t_joined), -1, np.int64)
        for op in Indel.opcodes(t_joined, u_joined):
            if op.tag == "equal":
                aligned[op.src_start : op.src_end] = True
                target_of[op.src_start : op.src_end] = u_owner[op.dest_start : op.dest_end]
        nonspace = np.array([c != " " for c in t_joined], dtype=bool)
        mapped: dict[int, tuple[int, int]] = {}  # gap position -> (upstream content line, chars)
        for k, tc in enumerate(t_range):
            if not free(tc):
                continue
            mask = (t_owner == k) & nonspace
            n_chars = int(mask.sum())
            if n_chars == 0:
                continue
            hit = mask & aligned
            if hit.sum() / n_chars < self.p.gap_min_aligned:
                continue
            mapped[k] = (u_range[int(np.bincount(target_of[hit]).argmax())], n_chars)
        for k, (uc, n_chars) in mapped.items():
            tc = t_range[k]
            t_text = self.t_lines[self.t_rows[tc]].strip()
            u_text = u_lines[u_rows[uc]].strip()
            # A few characters (``)``, ``else:``) align with almost anything: a short line
            # counts only if identical, or as part of a re-wrapped statement whose neighbouring
            # line maps to the same upstream line.
            if n_chars < _GAP_MIN_CHARS and t_text != u_text and not any(
                    mapped.get(j, (None, 0))[0] == uc for j in (k - 1, k + 1)):
                continue
            if t_text == u_text:
                self._set(tc, u_file, int(u_rows[uc]), VERBATIM, 1.0, number)
            else:
                self._set(tc, u_file, int(u_rows[uc]), NEAR, line_similarity(t_text, u_text), number)

    def _set(self, tc: int, u_file: int, u_row: int, label: int, sim: float, number: int) -> None:
        if self._journal is not None:
            self._journal.append((tc, u_row, label))
        row = self.t_rows[tc]
        r = self.result
        r.match[row] = label
        r.up_file[row] = u_file
        r.up_row[row] = u_row
        r.similarity[row] = sim
        r.region[row] = number

    def regions(self, chains: list[_Chain]) -> list[Region]:
        out: list[Region] = []
        r = self.result
        for number, chain in enumerate(chains):
            rows = np.flatnonzero(r.region == number)
            if len(rows) == 0:
                continue
            ups = r.up_row[rows]
            out.append(Region(
                target_file=self.t_file, region=number, up_file=chain.up_file,
                target_start=int(rows.min()) + 1, target_end=int(rows.max()) + 1,
                upstream_start=int(ups.min()) + 1, upstream_end=int(ups.max()) + 1,
                verbatim=int((r.match[rows] == VERBATIM).sum()),
                near=int((r.match[rows] == NEAR).sum()), weight=round(chain.weight, 3),
            ))
        return out


def _joined(texts: list[str]) -> tuple[str, np.ndarray]:
    """Join lines with a space; return the text and, per character, which line it belongs to."""
    joined = " ".join(texts)
    owner = np.repeat(np.arange(len(texts)), [len(t) + 1 for t in texts])[: len(joined)]
    return joined, owner


def _longest_verbatim_block(journal: list[tuple[int, int, int]], u_rows: np.ndarray) -> int:
    """Longest series of verbatim pairs that are consecutive content lines on both sides."""
    best = run = 0
    previous: tuple[int, int] | None = None
    for tc, u_row, label in sorted(journal):
        if label != VERBATIM:
            previous = None
            run = 0
            continue
        uc = int(np.searchsorted(u_rows, u_row))
        run = run + 1 if previous is not None and (tc, uc) == (previous[0] + 1, previous[1] + 1) else 1
        best = max(best, run)
        previous = (tc, uc)
    return best


def _true_segments(mask: np.ndarray) -> list[tuple[int, int]]:
    """Inclusive (start, end) index pairs of the runs of True in a boolean array."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(s), int(e) - 1) for s, e in zip(edges[::2], edges[1::2], strict=True)]


_FRAGMENT_MIN_CHARS = 8  # shorter lines are compared whole, never as fragments
_REWRAP_MAX = 8  # lines one re-wrapped statement may span on either side
_REWRAP_MIN_CHARS = 20  # a re-wrapped statement this short is not evidence
_GAP_MIN_CHARS = 6  # shorter gap lines (``)``, ``else:``) need identical text or a re-wrap group


def _rewrap_form(line: str) -> str:
    return "".join(line.split()).replace(",", "")


def line_similarity(t_text: str, u_text: str, short_fragments: bool = True) -> float:
    """Similarity of two stripped lines in 0..1 (rapidfuzz).

    The plain ratio, except that a line much shorter than its upstream line (a fragment of a
    re-wrapped call) is scored by its best alignment inside the longer line. With
    ``short_fragments`` off (beyond a region's last hit), only a fragment long enough to say
    something is: ``)`` is found inside almost any line.
    """
    a, b = similarity_text(t_text), similarity_text(u_text)
    if not a or not b:
        return 0.0
    fragment = len(a) * 2 < len(b) and (short_fragments or len(a) >= _FRAGMENT_MIN_CHARS)
    score = fuzz.partial_ratio(a, b) if fragment else fuzz.ratio(a, b)
    return math.floor(score * 10) / 1000  # 3 decimals, never rounded up to 1.0
