"""Steps 2 and 3, runs and regions: hits that follow each other in both files.

Hits that fall on one diagonal of one (target file, upstream file) pair, a few lines apart at
most, form a run: a stretch copied in order. Runs of the same file pair that follow each other in
both files with small gaps (inserted or deleted lines) chain into a candidate region.

A region as reported (:func:`report_regions`, after the gate) is a stretch of the target file:
the fill rules label lines of a file pair far from the chain that opened it (survivors, edits
in a long aligned gap, statements) with that chain's number, so each chain's lines are cut into
pieces where more than ``region_split_gap`` non-blank target lines hold none of them, and each
piece is a region of its own (with its chain's evidence weight). A region's span then never
claims thousands of lines that hold a handful of copies. The upstream side is held to the same
rule: a region is cut too where two of its consecutive lines (in target order) stand more than
``region_split_jump`` non-blank upstream lines apart, forwards or backwards, so its upstream
span holds no more than that many non-blank lines in a row that none of its lines is paired with
(each step between consecutive lines covers its part of the span). A fill label (a survivor, a
statement, a repeated line) may pair a line anywhere in the upstream file, and the upstream
span (first to last upstream line) is read as where the copied code came from: uncut,
one ``import ast`` paired with a function-local ``import ast`` 310 lines down stretched a 2-line
region of pytest's ``_code/source.py`` over py's lines 3-313. Every line keeps its own pair;
only the grouping and the spans change.

The other way round, two regions as reported are one (:func:`join_abutting`, knob
``region_join_abutting``) where they are one stretch in both files: the same upstream file,
nothing between them in the target but lines no region holds and the gate set nothing apart from,
the later one's upstream span after the earlier one's, and the step from the one to the other
within the cut rule above (:func:`region_cuts` would not cut there were they one chain's lines).
Two chains meet so when the hits between them are too few to chain them: a block of edited lines
(pydantic 2.10.6's ``v1/fields.py``, 1.10.19's ``fields.py`` with ``pydantic.v1`` written for
``pydantic`` in its imports: the chains of lines 1-10 and 27-1111 left the imports between to the
labels, which carried each chain to the other) or common lines that seed nothing. Where they met
said nothing of the copy, yet a reviewer read two SPDX snippets and two SARIF results for one
copied file. The join keeps each line's pair and lines.csv's labels; the joined region's evidence
weight is the sum of its chains'.

The region rule lives here, once: a region counts if its hits weigh at least
``region_min_weight`` (:func:`is_strong`), or, when lighter but at least
:attr:`MatchParams.weak_region_min_weight`, if it proves itself by a block of
``weak_region_min_lines`` identical consecutive lines or, in a target file at its upstream file's
place, stands in order with a strong region of that file pair (:func:`weak_region_proven`). Every stage
that drops candidates early (:func:`group_runs`, :func:`chain_runs`, the claims) asks
:func:`may_hold_region` or :func:`claim_keeps`, so no stage can drop what a later one would
accept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from lineage.arrays import lexsort_ints
from lineage.index import BLANK, FileIndex
from lineage.match.hits import Side, find_hits
from lineage.match.params import MatchParams
from lineage.match.records import NEAR, VERBATIM, FileMatch, MatchResult, Region

if TYPE_CHECKING:
    from lineage.match.workers import MatchWorkers


def is_strong(weight: float, p: MatchParams) -> bool:
    """A region this heavy counts without further proof."""
    return weight >= p.region_min_weight


def may_hold_region(weight: float, p: MatchParams) -> bool:
    """A candidate lighter than this can never become a region, strong or weak."""
    return weight >= p.weak_region_min_weight


def claim_keeps(chain_weight: float, kept_weight: float, kept_hits: int, p: MatchParams) -> bool:
    """After heavier regions took their lines, is what is left of a chain still a candidate?

    A strong chain must keep a strong region's weight, a weak one a weak region's weight; and
    one line, however long and rare, is never a region on its own (``region_min_hits``).
    """
    floor = p.region_min_weight if is_strong(chain_weight, p) else p.weak_region_min_weight
    return kept_weight >= floor and kept_hits >= p.region_min_hits


def weak_region_proven(chain_weight: float, longest_block: int, p: MatchParams, anchored: bool = False) -> bool:
    """Once labelled: strong regions stand; weak ones need a block of identical lines, or (knob
    ``weak_region_anchored``) to be anchored: the caller says so when the target file stands at
    the upstream file's place (the same path, below a renamed folder, a part of the module split
    into a package) and the weak region stands in order with a strong region of that file pair.

    The block asks a light region to prove on its own that it is no coincidence. A file at its
    upstream file's place, tied to it by a strong region, descends from it as a whole (the
    reason ``weak_pairs.py`` trusts such pairs): a light region of the two files that keeps
    their order (wholly before or wholly after each strong region of the pair, in the target
    and in the upstream file) is that copy continued past edits, such as the body of a method
    whose signature and neighbours were rewritten. A light region crossing a strong one of its
    pair (out of order in one file) is not anchored; nor is one of another upstream file, which
    only the block proves (a file of another place shares idioms with many)."""
    if is_strong(chain_weight, p) or longest_block >= p.weak_region_min_lines:
        return True
    return anchored and bool(p.weak_region_anchored)


# A run: hits on one diagonal of one file pair. Content-line coordinates, inclusive.
@dataclass
class Run:
    up_file: int
    diag: int  # upstream content index minus target content index
    t0: int
    t1: int
    weight: float
    hits: np.ndarray  # target content lines that hit, sorted; t0 and t1 are the first and last


@dataclass
class Chain:
    up_file: int
    runs: list[Run]
    weight: float
    t_end: int = -1  # last target content line
    u_end: int = -1  # last upstream content line

    def add(self, run: Run) -> None:
        self.runs.append(run)
        self.weight += run.weight
        self.t_end = run.t1
        self.u_end = run.t1 + run.diag


def group_runs(target: Side, upstream: Side, t_idx: np.ndarray, u_idx: np.ndarray, weight: np.ndarray,
               p: MatchParams) -> RunsByFile:
    """Group hits into diagonal runs, vectorised; drop file pairs too light to hold a region."""
    if len(t_idx) == 0:
        empty = np.zeros(0, np.int64)
        return RunsByFile(empty, *(empty,) * 8)
    t_file = target.file_of[t_idx].astype(np.int64)
    u_file = upstream.file_of[u_idx].astype(np.int64)
    tc = target.cidx[t_idx].astype(np.int64)
    diag = upstream.cidx[u_idx].astype(np.int64) - tc
    order = lexsort_ints((tc, diag, u_file, t_file))
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
    order = lexsort_ints((run_t0, run_uf, run_tf))
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
        (cluster_w >= p.weak_region_min_weight) & (cluster_best_run >= p.weak_region_min_run_hits))
    keep = keep_cluster[cluster]
    kept_starts, kept_ends = starts[keep], ends[keep]
    return RunsByFile(tc, kept_starts, kept_ends, run_w[keep], run_tf[keep], run_uf[keep], diag[kept_starts],
                      run_t0[keep], run_t1[keep])


def find_runs(target: Side, upstream: Side, p: MatchParams, workers: MatchWorkers | None = None,
              meanwhile: Callable[[], None] | None = None) -> RunsByFile:
    """Steps 1 and 2 for every target file: hits (:func:`~lineage.match.hits.find_hits`) grouped
    into runs (:func:`group_runs`). With ``workers`` and enough target files, the target is cut
    into consecutive file ranges of about equal size, one per process, and their runs joined
    (:meth:`RunsByFile.concat`): both steps are per target file, so the runs are the same, and
    the parent no longer does about a sixth of the matcher's CPU alone before the per-file steps.
    ``meanwhile``: the caller's work that does not read the runs, done by this process while the
    workers find them (:func:`~lineage.match.workers.run_per_file`), or after them without workers."""
    from lineage.match.workers import MatchWorkers, chunks, run_per_file

    n_files = len(target.files)
    parts = workers.processes(n_files) if workers is not None else 0
    if parts < 2:
        runs = group_runs(target, upstream, *find_hits(target, upstream, p), p)
        if meanwhile is not None:
            meanwhile()
        return runs
    sizes = np.diff(target.file_start).tolist()
    spans = [range(chunk[0], chunk[-1] + 1) for chunk in sorted(chunks(sizes, parts))]
    # One task per range and one chunk per task: equal weights, so that run_per_file's own cut
    # (chunks) cannot put two ranges in one worker (with their file counts as weights it did,
    # from 8 ranges on with the pinned pair's files: the slowest worker then had twice the lines).
    found = run_per_file(lambda k: group_runs(target, upstream, *find_hits(target, upstream, p, spans[k]), p),
                         [1] * len(spans), MatchWorkers(jobs=parts, min_files=1, chunks_per_job=1),
                         meanwhile=meanwhile, what="finding hits")
    return RunsByFile.concat(found)


class RunsByFile:
    """The runs :func:`group_runs` kept, by target file: arrays over all runs (sorted by target
    file, upstream file, first line), made into :class:`Run` objects only for the file asked
    for (:meth:`get`), so that the per-file steps, wherever they run, build only their own."""

    def __init__(self, tc: np.ndarray, starts: np.ndarray, ends: np.ndarray, weight: np.ndarray,
                 t_file: np.ndarray, up_file: np.ndarray, diag: np.ndarray, t0: np.ndarray, t1: np.ndarray) -> None:
        self._tc = tc
        self._columns = (starts, ends, weight, up_file, diag, t0, t1)
        self._t_file = t_file

    def get(self, t_file: int, default: list[Run] | None = None) -> list[Run]:
        """A new list of target file ``t_file``'s runs, in that order (``default`` when it has none)."""
        lo, hi = np.searchsorted(self._t_file, [t_file, t_file + 1])
        if lo == hi:
            return [] if default is None else default
        # Python lists, not numpy scalars, in the loop: this runs once per kept run.
        columns = [column[lo:hi].tolist() for column in self._columns]
        tc = self._tc
        return [Run(uf, d, t0, t1, w, tc[s : e + 1]) for s, e, w, uf, d, t0, t1 in zip(*columns, strict=True)]

    @classmethod
    def concat(cls, parts: Sequence[RunsByFile]) -> RunsByFile:
        """The runs of consecutive target-file ranges, in range order, as one: what
        :func:`group_runs` gives for their hits together (it sorts by target file first)."""
        offsets = np.cumsum([0] + [len(part._tc) for part in parts[:-1]])
        columns = [np.concatenate([part._columns[k] + (offset if k < 2 else 0)
                                   for part, offset in zip(parts, offsets, strict=True)])
                   for k in range(len(parts[0]._columns))]
        tc = np.concatenate([part._tc for part in parts])
        starts, ends, weight, up_file, diag, t0, t1 = columns
        return cls(tc, starts, ends, weight, np.concatenate([part._t_file for part in parts]), up_file, diag, t0, t1)

    def file_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every kept run's target file, upstream file and weight (arrays over all runs)."""
        return self._t_file, self._columns[3], self._columns[2]

    def __len__(self) -> int:
        """How many runs were kept, over all target files."""
        return len(self._t_file)


def chain_runs(runs: list[Run], p: MatchParams) -> list[Chain]:
    """Chain runs of the same upstream file that follow each other in both files.

    Runs that start on the same target line (a line whose form stands twice in the upstream
    file, ``x = re.compile(...)`` of two patterns) are taken heaviest first: the run that goes on
    places the line, and the lone hit on the other diagonal is then left out.
    """
    runs.sort(key=lambda r: (r.up_file, r.t0, -r.weight, r.diag))
    chains: list[Chain] = []
    open_chains: list[Chain] = []
    current_file = -1
    for run in runs:
        if run.up_file != current_file:
            open_chains = []
            current_file = run.up_file
        best: Chain | None = None
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
            best = Chain(run.up_file, [], 0.0)
            chains.append(best)
            open_chains.append(best)
            best.add(run)
        elif best_start == run.t0:
            best.add(run)
        else:
            share = (run.t1 - best_start + 1) / (run.t1 - run.t0 + 1)
            best.add(Run(run.up_file, run.diag, best_start, run.t1, run.weight * share, best_hits))
        if len(open_chains) > p.max_open_chains or open_chains[0].t_end < run.t0 - p.chain_max_gap - 1:
            open_chains = [c for c in open_chains if run.t0 - c.t_end <= p.chain_max_gap + 1]
            open_chains = open_chains[-p.max_open_chains:]
    return [c for c in chains if may_hold_region(c.weight, p)]


def region_cuts(t_rows: np.ndarray, t_kinds: np.ndarray, u_rows: np.ndarray, u_kinds: np.ndarray,
                max_gap: int, max_jump: int) -> np.ndarray:
    """Where one region's labelled lines are cut into regions as reported (module docstring):
    the positions k (1 <= k < len) at which a new piece starts, because more than ``max_gap``
    non-blank target lines lie strictly between target rows ``t_rows[k - 1]`` and ``t_rows[k]``
    (sorted), or more than ``max_jump`` non-blank upstream lines strictly between their
    upstream rows ``u_rows[k - 1]`` and ``u_rows[k]``, in either order (a jump back counts as
    one forward). ``t_kinds``/``u_kinds``: the two files' line kinds (blank lines never count)."""
    if len(t_rows) < 2:
        return np.zeros(0, np.int64)
    t_before = np.cumsum(t_kinds != BLANK)  # non-blank rows up to and with each row
    t_between = t_before[t_rows[1:] - 1] - t_before[t_rows[:-1]]
    u_before = np.cumsum(u_kinds != BLANK)
    lo, hi = np.minimum(u_rows[:-1], u_rows[1:]), np.maximum(u_rows[:-1], u_rows[1:])
    # the same upstream row twice (a repeated line) has nothing between: hi - 1 < lo
    u_between = np.where(hi > lo, u_before[np.maximum(hi - 1, 0)] - u_before[lo], 0)
    return np.flatnonzero((t_between > max_gap) | (u_between > max_jump)) + 1


def join_abutting(pieces: Sequence[tuple[np.ndarray, Region]], m: FileMatch, t_kinds: np.ndarray,
                  up_files: Sequence[FileIndex], apart: np.ndarray | None, max_gap: int,
                  max_jump: int) -> list[list[int]]:
    """Which of one target file's pieces (each its rows, sorted, and the region it was cut from;
    ``m`` the file's labels) are reported as one region (module docstring): groups of piece
    numbers, each group's pieces in target order, the groups in the order of their first piece
    number. Piece k joins the group holding the last labelled row before k's first row when
    that group ends there, draws on the same upstream file, ends upstream before k's upstream
    span begins, no row between is set apart (``apart``: the gate's shared rows, per physical
    row), and :func:`region_cuts` would not cut the step between the two rows."""
    owner = np.full(len(m.region), -1, np.int64)  # per row: its piece
    for k, (rows, _) in enumerate(pieces):
        owner[rows] = k
    group_of = list(range(len(pieces)))
    members: dict[int, list[int]] = {k: [k] for k in range(len(pieces))}
    up_end = {k: int(m.up_row[rows].max()) for k, (rows, _) in enumerate(pieces)}
    last_row = {k: int(rows[-1]) for k, (rows, _) in enumerate(pieces)}
    for k in sorted(range(len(pieces)), key=lambda k: int(pieces[k][0][0])):
        rows, region = pieces[k]
        first = int(rows[0])
        before = np.flatnonzero(owner[:first] >= 0)
        if not len(before):
            continue
        row = int(before[-1])
        g = group_of[int(owner[row])]
        if (last_row[g] != row or pieces[g][1].up_file != region.up_file
                or int(m.up_row[rows].min()) <= up_end[g]
                or (apart is not None and bool(apart[row + 1:first].any()))):
            continue
        step = np.array([row, first])
        if len(region_cuts(step, t_kinds, m.up_row[step], up_files[region.up_file].kinds, max_gap, max_jump)):
            continue
        members[g] += members.pop(k)
        for j in members[g]:
            group_of[j] = g
        up_end[g] = max(up_end[g], int(m.up_row[rows].max()))
        last_row[g] = max(last_row[g], int(rows[-1]))
    return sorted(members.values(), key=min)


def report_regions(result: MatchResult, files: Sequence[FileIndex], up_files: Sequence[FileIndex],
                   max_gap: int, max_jump: int, join: bool = False,
                   apart: Sequence[np.ndarray] | None = None) -> MatchResult:
    """The regions as reported (module docstring): every region of ``result`` cut where more
    than ``max_gap`` non-blank target lines hold none of its lines, or where two of its
    consecutive lines lie more than ``max_jump`` non-blank lines apart in upstream file
    ``up_files[region.up_file]`` (:func:`region_cuts`); with ``join``, pieces that are one
    stretch in both files then one region again (:func:`join_abutting`; ``apart``: per target
    file, the rows the gate set apart, or None). The regions are numbered anew per file in the
    order of their (first) pieces: by region, then by line; the labels' ``region`` follow."""
    by_file: dict[int, list[Region]] = {}
    for r in result.regions:
        by_file.setdefault(r.target_file, []).append(r)
    out_files, out_regions = [], []
    for t, m in enumerate(result.files):
        regions = by_file.get(t)
        if not regions:
            out_files.append(m)
            continue
        pieces: list[tuple[np.ndarray, Region]] = []
        for r in regions:
            rows = np.flatnonzero(m.region == r.region)
            if not len(rows):
                continue
            cuts = region_cuts(rows, files[t].kinds, m.up_row[rows], up_files[r.up_file].kinds, max_gap, max_jump)
            pieces += [(piece, r) for piece in np.split(rows, cuts)]
        groups = (join_abutting(pieces, m, files[t].kinds, up_files, apart[t] if apart is not None else None,
                                max_gap, max_jump)
                  if join else [[k] for k in range(len(pieces))])
        numbers = np.full_like(m.region, -1)
        for count, group in enumerate(groups):
            rows = np.sort(np.concatenate([pieces[k][0] for k in group]))
            numbers[rows] = count
            ups = m.up_row[rows]
            chains = {pieces[k][1].region: pieces[k][1].weight for k in group}  # a chain's weight once
            out_regions.append(Region(
                target_file=t, region=count, up_file=pieces[group[0]][1].up_file,
                target_start=int(rows[0]) + 1, target_end=int(rows[-1]) + 1,
                upstream_start=int(ups.min()) + 1, upstream_end=int(ups.max()) + 1,
                verbatim=int((m.match[rows] == VERBATIM).sum()), near=int((m.match[rows] == NEAR).sum()),
                weight=round(sum(chains.values()), 3) if len(chains) > 1 else pieces[group[0]][1].weight))
        out_files.append(FileMatch(m.match, m.up_file, m.up_row, m.similarity, numbers))
    return replace(result, files=out_files, regions=out_regions)
