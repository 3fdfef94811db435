"""Step 1, hits: which upstream lines each informative target line may have come from.

Each informative target line is looked up, by the hash of its whitespace/comment-insensitive
form, among all upstream lines at once (a sorted array, not an all-pairs comparison). A form
found in more than ``seed_max_count`` upstream places is too common to be evidence on its own
(``)``, ``else:``, ``import torch``, licence headers) and seeds nothing. Long lines whose text is
found nowhere upstream also hit through their abstract form (names and literals abstracted), so a
consistently renamed function is still found. Each hit weighs its token count, discounted by how
common the form is upstream.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from lineage.arrays import distinct_sorted, isin_sorted, unique
from lineage.index import BLANK, CODE, COMMENT, DOCSTRING, FileIndex
from lineage.index.normalise import stable_hash
from lineage.index.project import import_parts, top_level
from lineage.match.headers import header_rows
from lineage.match.params import MatchParams

if TYPE_CHECKING:
    from lineage.match.fill_lines import AlignForms


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
    kind: np.ndarray = field(init=False)  # CODE / COMMENT / DOCSTRING of each content line
    _headers: dict[int, np.ndarray] = field(init=False, default_factory=dict)
    # (file, statement length limit) -> statement numbers and sizes (lineage.match.fill): an
    # upstream file is paired with many target files, and its statements do not change.
    statement_memo: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = field(init=False, default_factory=dict)
    # file -> the names it defines once (lineage.match.fill's signature survivors), likewise.
    def_names_memo: dict[tuple[int, bool], frozenset[str]] = field(init=False, default_factory=dict)
    # (file, statement length limit, overloads) -> its definitions by name qualified by the
    # classes around them, each defined once (the signature survivors), likewise.
    qualified_memo: dict[tuple[int, int, bool], dict[str, list[int]]] = field(init=False, default_factory=dict)
    # (file, statement length limit) -> its collections by assigned name (lineage.match.fill's
    # collection survivors), likewise.
    collection_memo: dict[tuple[int, int], dict[str, list[list[int]]]] = field(init=False, default_factory=dict)
    # (file, statement length limit, overloads) -> per content line the number of the ``def``
    # statement it lies in, and each number's name (lineage.match.fill's misnamed headers), likewise.
    def_numbers_memo: dict[tuple[int, int, bool], tuple[np.ndarray, list[str]]] = field(init=False,
                                                                                        default_factory=dict)
    # (file, annotations stripped) -> the key each content line aligns on inside a copy
    # (lineage.match.fill_lines.align_forms), likewise.
    align_memo: dict[tuple[int, bool], AlignForms] = field(init=False, default_factory=dict)
    # file -> (content line, fold form, sorted names key) of each of its import lines
    # (lineage.match.fill_survivors' imports in any order), likewise.
    import_memo: dict[int, list[tuple[int, str, str | None]]] = field(init=False, default_factory=dict)
    # file -> per physical row its top-level class, and the class names it defines once
    # (lineage.match.class_names), likewise.
    class_memo: dict[int, tuple[np.ndarray, set[str]]] = field(init=False, default_factory=dict)
    # upstream number -> its top-level packages and modules (top_packages), made on first use.
    packages_memo: dict[int, frozenset[str]] = field(init=False, default_factory=dict)
    # which of src/ and lib/ are packages in the whole tree (lineage.index.project.package_roots):
    # a target Side may hold only the files a run rematches
    package_roots: frozenset[str] = frozenset()
    # the whole tree's top-level packages and modules (lineage.index.project.top_level), for the
    # target: its files here may be only those a run rematches (lineage.match.imports.tree_rename)
    tree_tops: frozenset[str] = frozenset()
    # The arrays below as an earlier run built them for the same files (lineage.side_cache), and
    # the idiom rule's per-form file counts (lineage.match.idioms.form_file_counts) when known.
    arrays: dict[str, np.ndarray] | None = field(default=None, repr=False)
    form_counts: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.arrays is not None:
            for name, array in self.arrays.items():
                setattr(self, name, array)
            self.arrays = None
            return
        rows = [np.flatnonzero(f.kinds != BLANK).astype(np.int32) for f in self.files]
        counts = np.array([len(r) for r in rows], dtype=np.int64)
        self.file_start = np.concatenate(([0], np.cumsum(counts)))
        self.file_of = np.repeat(np.arange(len(self.files), dtype=np.int32), counts)
        self.row_of = np.concatenate(rows) if rows else np.zeros(0, np.int32)
        self.cidx = (np.arange(len(self.row_of), dtype=np.int64) - self.file_start[self.file_of]).astype(np.int32)
        self.h_norm = _gather(self.files, rows, "h_norm", np.int64)
        self.h_abs = _gather(self.files, rows, "h_abs", np.int64)
        self.ntok = _gather(self.files, rows, "ntok", np.uint16).astype(np.int32)
        self.kind = _gather(self.files, rows, "kinds", np.uint8)

    def top_packages(self, which: int) -> frozenset[str]:
        """The top-level packages and modules of this side's files of upstream ``which``
        (``upstream_of``): the names their imports start with
        (:func:`lineage.index.project.top_level`)."""
        found = self.packages_memo.get(which)
        if found is None:
            found = self.packages_memo[which] = frozenset(top.name for top in top_level(
                f.path for f, u in zip(self.files, self.upstream_of.tolist(), strict=True) if u == which))
        return found

    def import_top(self, file_no: int) -> str:
        """The package a file's imports of its own tree start with (the first folder of its path,
        below a ``src/`` or ``lib/`` root that is no package of the whole tree,
        :attr:`package_roots`: :func:`lineage.index.project.import_parts`), or "" for a
        top-level module."""
        parts = import_parts(self.files[file_no].path, self.package_roots)
        return parts[0] if len(parts) > 1 else ""

    def content_rows(self, file_no: int) -> np.ndarray:
        return self.row_of[self.file_start[file_no] : self.file_start[file_no + 1]]

    def header_rows(self, file_no: int, lines: list[str] | None = None) -> np.ndarray:
        """Per physical row of the file: a licence or copyright header line (memoised)."""
        found = self._headers.get(file_no)
        if found is None:
            text = lines if lines is not None else self.read_lines(file_no)
            found = self._headers[file_no] = header_rows(text, self.files[file_no].kinds)
        return found


@lru_cache(maxsize=8)
def generic_signatures(max_params: int) -> np.ndarray:
    """Abstract-form hashes of short generic method signatures (``def keys(self):``,
    ``def __radd__(self, other):``, with or without ``-> T``): every class writes them the same
    way, so they never seed a match (they are still labelled inside a region)."""
    shapes = []
    for first in ("self", "cls", "I"):
        for extra in range(max_params):
            params = " , ".join([first] + ["I"] * extra)
            for head in ("def", "async def"):
                for tail in (":", "-> I :"):
                    shapes.append(f"{head} I ( {params} ) {tail}")
    shapes += [f"{head} I ( ) {tail}" for head in ("def", "async def") for tail in (":", "-> I :")]
    return np.unique(np.array([stable_hash(s) for s in shapes], dtype=np.int64))


def _gather(files: list[FileIndex], rows: list[np.ndarray], name: str, dtype: type) -> np.ndarray:
    parts = [getattr(f, name)[r] for f, r in zip(files, rows, strict=True)]
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


def lookup(keys_u: np.ndarray, files_u: np.ndarray, keys_t: np.ndarray, eligible: np.ndarray,
            max_count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All (target line, upstream line) pairs with equal keys, for eligible target lines whose
    key occurs 1..max_count times upstream. Returns (t_idx, u_idx, count of the key upstream,
    count of the key in that upstream line's own file).

    Upstream lines are first narrowed to the keys the target has (one vectorised pass, no sort
    of the whole upstream): re-matching one changed file costs little more than that pass.
    """
    empty = np.zeros(0, np.int64)
    # Only the eligible lines are looked up (a worker's own files of the whole target side), and
    # sorted needles make the binary searches walk memory in order: several times faster. The
    # same sort gives the distinct keys wanted upstream.
    sel = np.flatnonzero(eligible)
    needles = keys_t[sel]
    n_order = np.argsort(needles, kind="stable")
    sorted_needles = needles[n_order]
    wanted = distinct_sorted(sorted_needles)
    if len(wanted) == 0 or len(keys_u) == 0:
        return empty, empty, empty, empty
    sub = np.flatnonzero(isin_sorted(keys_u, wanted))  # every upstream line of every wanted key
    sub_order = np.argsort(keys_u[sub], kind="stable")
    order = sub[sub_order]
    sorted_keys = keys_u[order]
    in_file = _count_in_file(keys_u[sub], files_u[sub])[sub_order]
    lo = np.empty(len(sel), np.int64)
    hi = np.empty(len(sel), np.int64)
    lo[n_order] = np.searchsorted(sorted_keys, sorted_needles, side="left")
    hi[n_order] = np.searchsorted(sorted_keys, sorted_needles, side="right")
    count = hi - lo
    keep = (count > 0) & (count <= max_count)
    t_sel, lengths = sel[keep], count[keep]
    total = int(lengths.sum())
    t_idx = np.repeat(t_sel, lengths)
    starts = np.repeat(lo[keep], lengths)
    within = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    at = starts + within
    return t_idx, order[at], np.repeat(lengths, lengths), in_file[at]


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


def find_hits(target: Side, upstream: Side, p: MatchParams, files: range | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every evidence pair: (target line, upstream line, weight), global content-line numbers;
    with ``files``, those of target files ``files`` only (every rule below is per target file,
    so the pairs are exactly the whole tree's pairs of those files)."""
    cap = np.minimum(target.ntok, p.token_weight_cap).astype(np.float64)
    mine = np.ones(len(target.h_norm), bool)
    if files is not None:
        mine[:] = False
        mine[int(target.file_start[files.start]) : int(target.file_start[files.stop])] = True
    t1, u1, c1, f1 = lookup(upstream.h_norm, upstream.file_of, target.h_norm,
                            mine & (target.ntok >= p.short_seed_min_tokens), p.seed_max_count)
    # Two-token lines are evidence only when (nearly) unique upstream: the items of a copied
    # ``__all__`` or re-export list, not ``return x``.
    strong = (target.ntok[t1] >= p.seed_min_tokens) | (c1 <= p.short_seed_max_count)
    # A line repeated many times inside one upstream file (a register call, a table row) would
    # seed a grid of hits on every diagonal; its copies are reached from neighbouring seeds.
    strong &= f1 <= p.seed_max_per_file
    t1, u1, c1 = t1[strong], u1[strong], c1[strong]
    w1 = cap[t1] / (1.0 + np.log2(c1))
    t2, u2, c2, f2 = lookup(upstream.h_abs, upstream.file_of, target.h_abs,
                            mine & (target.ntok >= p.abstract_seed_min_tokens), p.abstract_seed_max_count)
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
    supported = rare | isin_sorted(pair_key, unique(pair_key[rare]))
    t_idx, u_idx, weight = t_idx[supported], u_idx[supported], weight[supported]
    # Code pairs only with code, comments with comments, docstrings with docstrings.
    same_kind = target.kind[t_idx] == upstream.kind[u_idx]
    t_idx, u_idx, weight = t_idx[same_kind], u_idx[same_kind], weight[same_kind]
    quiet = quiet_lines(target, t_idx, p)
    t_idx, u_idx, weight = t_idx[~quiet], u_idx[~quiet], weight[~quiet]
    # One pair may hit at both levels: keep its larger weight.
    pair = t_idx.astype(np.int64) * len(upstream.h_norm) + u_idx
    order = np.lexsort((-weight, pair))
    first = np.ones(len(order), bool)
    first[1:] = pair[order][1:] != pair[order][:-1]
    keep = order[first]
    return t_idx[keep], u_idx[keep], weight[keep]


def quiet_lines(target: Side, t_idx: np.ndarray, p: MatchParams) -> np.ndarray:
    """Per hit: whether its target line may not seed. Short generic method signatures (by their
    abstract form) and licence or copyright header lines (read from the text of the files that
    hit on a comment or docstring line) are found in every project that holds such code."""
    quiet = (target.kind[t_idx] == CODE) & np.isin(target.h_abs[t_idx], generic_signatures(
        p.generic_signature_max_params))
    prose = np.flatnonzero((target.kind[t_idx] == COMMENT) | (target.kind[t_idx] == DOCSTRING))
    if len(prose):
        lines = t_idx[prose]
        files = target.file_of[lines]
        for file_no in np.unique(files).tolist():
            mine = prose[files == file_no]
            rows = target.row_of[t_idx[mine]]
            quiet[mine] = target.header_rows(file_no)[rows]
    return quiet
