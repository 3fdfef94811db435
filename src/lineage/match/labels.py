"""Step 5, labels: inside each accepted region, pair every target line with one upstream line.

Along a run's diagonal; in the gaps between runs by a character alignment of the two gaps (which
also maps calls re-wrapped over other line breaks); outward from the region's ends while lines
keep matching, a statement re-wrapped past the last hit included (same tokens, other line
breaks). Which label a pair gets is decided in one place, :func:`pair_label`: ``verbatim`` when
the stripped texts are identical, else ``near`` with its :func:`similarity` (never below
``near_floor_similarity``). Whether a pair
is made at all is each placement's own rule (the same normal form, enough similarity, enough
aligned characters).
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from lineage.index import CODE
from lineage.index.normalise import similarity_text
from lineage.index.project import import_parts
from lineage.match.claims import FileClaims
from lineage.match.hits import Side
from lineage.match.imports import imports_disagree, tree_rename
from lineage.match.params import MatchParams
from lineage.match.records import NEAR, NONE, VERBATIM, Region, empty_match
from lineage.match.regions import Chain, Run, is_strong, weak_region_proven
from lineage.match.renames import shared_ending_folders

if TYPE_CHECKING:
    from lineage.match.file_statements import Statements
    from lineage.match.fill_lines import AlignForms

_DEFAULT = MatchParams()
# The first words of a line that opens a definition (its header or a decorator).
_DEFINITION_STARTS = ("def ", "async def ", "class ", "@")


def is_fragment(t_text: str, u_text: str, p: MatchParams = _DEFAULT) -> bool:
    """The target line is short enough beside the upstream line to be scored as a piece of it
    (:func:`line_similarity` with ``short_fragments``)."""
    return len(similarity_text(t_text)) * p.fragment_length_ratio < len(similarity_text(u_text))


def line_similarity(t_text: str, u_text: str, short_fragments: bool = True,
                    p: MatchParams = _DEFAULT, whole: bool = False) -> float:
    """How well two stripped lines align, in 0..1 (rapidfuzz): the test for pairing them.

    The plain ratio (the reported :func:`similarity`), except that a line much shorter than its
    upstream line (a fragment of a re-wrapped call) is scored by its best alignment inside the longer line. With
    ``short_fragments`` off (beyond a region's last hit), only a fragment long enough to say
    something is: ``)`` is found inside almost any line. With ``whole`` (the target line is a
    statement of its own, :meth:`FileLabeller.whole_statement`) it is no fragment of anything.
    """
    a, b = similarity_text(t_text), similarity_text(u_text)
    if not a or not b:
        return 0.0
    fragment = not whole and len(a) * p.fragment_length_ratio < len(b) and (
        short_fragments or len(a) >= p.fragment_min_chars)
    score = fuzz.partial_ratio(a, b) if fragment else fuzz.ratio(a, b)
    return math.floor(score * 10) / 1000  # 3 decimals, never rounded up to 1.0


def similarity(t_text: str, u_text: str, p: MatchParams = _DEFAULT) -> float:
    """The ``similarity`` column, in 0..1: :func:`line_similarity` (rapidfuzz ``ratio`` of the two
    stripped, whitespace-folded texts; for a piece of a re-wrapped statement, a line less than
    ``1 / fragment_length_ratio`` as long as its upstream line, ``partial_ratio``: how well the
    piece aligns inside the upstream line), floored to 3 decimals. Exactly 1.0 only for identical
    stripped texts (``verbatim``), at most 0.999 otherwise."""
    if t_text == u_text:
        return 1.0
    return min(line_similarity(t_text, u_text, True, p), 0.999)


def pair_label(t_text: str, u_text: str, p: MatchParams,
               packages: tuple[str, frozenset[str]] = ("", frozenset())) -> tuple[int, float] | None:
    """The label and similarity of a target line paired with an upstream line (stripped texts):
    verbatim when identical, else near; None when the texts are too far apart to be called a
    copy at all (similarity below ``near_floor_similarity``; two imports of other modules binding
    other names, ``near_imports_same_module``, with ``packages`` from
    :meth:`FileLabeller.packages`), whatever placed the pair."""
    sim = similarity(t_text, u_text, p)
    if sim == 1.0:
        return VERBATIM, 1.0
    if sim < p.near_floor_similarity:
        return None
    if p.near_imports_same_module and imports_disagree(t_text, u_text, packages):
        return None
    return NEAR, sim


def _stray(runs: Sequence[Run], k: int, max_skip: int) -> bool:
    """Run k is one line right next to a neighbouring run in the target, on a diagonal more than
    ``max_skip`` lines off every neighbour's: it says the target left out (or repeated) several
    upstream lines exactly there, with no target line between to show it. (Leaving out up to
    ``max_skip`` lines is a tight continuation, as for the lone-line rule; after a re-wrapped
    call the diagonal moves too, but target lines lie between, and that gap is aligned.)"""
    run = runs[k]
    if run.t0 != run.t1 or len(runs) < 2:
        return False
    near = [j for j in (k - 1, k + 1) if 0 <= j < len(runs)]
    if any(abs(runs[j].diag - run.diag) <= max_skip for j in near):
        return False
    return (k > 0 and runs[k - 1].t1 + 1 == run.t0) or (k + 1 < len(runs) and run.t1 + 1 == runs[k + 1].t0)


class FileLabeller:
    """Claims and labels the lines of one target file."""

    def __init__(self, target: Side, upstream: Side, t_file: int, p: MatchParams) -> None:
        self.target, self.upstream, self.t_file, self.p = target, upstream, t_file, p
        self.t_rows = target.content_rows(t_file)
        self.t_lines = target.read_lines(t_file)
        self._t_top = target.import_top(t_file)  # the target file's top package
        self.claims = FileClaims(len(self.t_rows), p)
        self.result = empty_match(target.files[t_file].n_lines)
        self._journal: list[tuple[int, int, int]] | None = None  # (content line, upstream row, label)
        # the spans (first and last content line, first and last upstream row) of the strong
        # regions labelled so far, by upstream file: what anchors a weak region (weak_region_proven)
        self._strong_spans: dict[int, list[tuple[int, int, int, int]]] = {}
        self._up_cache: dict[int, tuple[np.ndarray, list[str]]] = {}
        self._statements: np.ndarray | None = None
        self._stripped: list[str] | None = None
        # the target file's align forms (lineage.match.fill_lines.align_forms), made on first use
        self.align_forms: AlignForms | None = None
        # the target file's statements for the statement rules (Statements.of), made on first use
        self.statement_rules: Statements | None = None
        # upstream modules this file is a part of, split into a package of the module's name at
        # the module's place (``fill_module_split``; set by the matcher)
        self.split_from: frozenset[int] = frozenset()
        # upstream files at this file's place (the same path, below a renamed folder; set by
        # the matcher): with ``split_from``, the files a weak region may be anchored in
        self.placed: frozenset[int] = frozenset()
        # per upstream file, content lines the fill may not pair with it (lineage.match.class_names)
        self.blocked: dict[int, set[int]] = {}
        # per upstream file, content lines the signature rule paired by their name alone
        # (``fill_signature_name_line``): no anchor of order for a later rule (late_alignment).
        # Only while that pair stands: set_pair and unpair take a line out (a later rule that
        # pairs it again pairs it on its own evidence)
        self.name_only: dict[int, set[int]] = {}

    def claim(self, chain: Chain) -> Chain | None:
        return self.claims.claim(chain)

    def upstream_lines(self, u_file: int) -> tuple[np.ndarray, list[str]]:
        if u_file not in self._up_cache:
            self._up_cache[u_file] = (self.upstream.content_rows(u_file), self.upstream.read_lines(u_file))
        return self._up_cache[u_file]

    def statements(self) -> np.ndarray:
        """:func:`~lineage.match.statements.statement_ids` of the target file's content lines,
        without a length limit (made once: the fill and the lone-line rule both read them)."""
        if self._statements is None:
            from lineage.match.statements import file_statement_ids

            self._statements = file_statement_ids(self.target.kind, int(self.target.file_start[self.t_file]),
                                                  [self.t_lines[row] for row in self.t_rows.tolist()])
        return self._statements

    def stripped(self) -> list[str]:
        """The target file's content lines, stripped (made once: the lone-line rules scan them)."""
        if self._stripped is None:
            self._stripped = [self.t_lines[row].strip() for row in self.t_rows.tolist()]
        return self._stripped

    def ends_definition_above(self, tc: int) -> bool:
        """Content line ``tc`` stands right above a definition's header (``def``, ``async def``,
        ``class``, a decorator) and is indented deeper than it: the last line of the body of
        the definition before (an enclosing ``class`` header, or a module constant, is not)."""
        if not 0 <= tc < len(self.t_rows) - 1 or self.target_kind(tc + 1) != CODE:
            return False
        above, header = self.t_lines[self.t_rows[tc]], self.t_lines[self.t_rows[tc + 1]]
        return header.lstrip().startswith(_DEFINITION_STARTS) and \
            len(above) - len(above.lstrip()) > len(header) - len(header.lstrip())

    def whole_statement(self, tc: int) -> bool:
        """Content line ``tc`` is a statement on one line (``near_whole_statements``: on)."""
        if not self.p.near_whole_statements:
            return False
        ids = self.statements()
        own = int(ids[tc])
        return own >= 0 and (tc == 0 or int(ids[tc - 1]) != own) and (tc + 1 == len(ids) or int(ids[tc + 1]) != own)

    def texts(self, tc: int, uc: int, u_rows: np.ndarray, u_lines: list[str]) -> tuple[str, str]:
        return self.t_lines[self.t_rows[tc]].strip(), u_lines[u_rows[uc]].strip()

    def label(self, chain: Chain, number: int) -> bool:
        """Label the chain's lines as region ``number``; False (and nothing labelled) when the
        chain does not prove itself (see :func:`weak_region_proven`)."""
        self._journal = []
        self._label(chain, number)
        journal, self._journal = self._journal, None
        span = _span(journal)
        if is_strong(chain.weight, self.p):
            if span is not None:
                self._strong_spans.setdefault(chain.up_file, []).append(span)
            return True
        anchored = (chain.up_file in self.placed or chain.up_file in self.split_from) and \
            _in_order(span, self._strong_spans.get(chain.up_file, ()))
        if weak_region_proven(chain.weight, _longest_verbatim_block(journal, self.upstream_lines(chain.up_file)[0]),
                              self.p, anchored):
            return True
        self.claims.release(chain)
        r = self.result
        for tc, _, _ in journal:
            row = self.t_rows[tc]
            r.match[row], r.up_file[row], r.up_row[row] = NONE, -1, -1
            r.similarity[row], r.region[row] = 0.0, -1
        return False

    def _label(self, chain: Chain, number: int) -> None:
        u_rows, u_lines = self.upstream_lines(chain.up_file)
        n_t, n_u = len(self.t_rows), len(u_rows)
        owner_no = self.claims.number(chain)
        owner = self.claims.owner

        def free(tc: int) -> bool:
            return owner[tc] in (-1, owner_no) and self.result.match[self.t_rows[tc]] == NONE

        used: set[int] = set()

        def pair(tc: int, uc: int, threshold: float, edge: bool = False, identical: bool = False,
                 dry: bool = False) -> bool:
            if not (0 <= tc < n_t and 0 <= uc < n_u) or not free(tc):
                return False
            if edge and uc in used:
                return False
            if not self._same_kind(tc, chain.up_file, uc):
                return False
            t_text, u_text = self.texts(tc, uc, u_rows, u_lines)
            labelled = pair_label(t_text, u_text, self.p, self.packages(chain.up_file))
            if labelled is None or (identical and labelled[0] != VERBATIM):
                return False
            # Beyond the outermost hit only the same tokens or a similar text extend a region;
            # between hits the same shape (renamed names, edited literals) is enough. A line
            # that is a whole statement is compared whole: it is no piece of a re-wrapped one
            # (``near_whole_statements``).
            if labelled[0] == NEAR and not (
                    self.keys_equal(tc, chain.up_file, uc, shape=not edge)
                    or line_similarity(t_text, u_text, not edge, self.p,
                                       whole=self.whole_statement(tc)) >= threshold):
                return False
            if dry:
                return True
            self.set_pair(tc, chain.up_file, int(u_rows[uc]), *labelled, number)
            used.add(uc)
            return True

        def walk(tc: int, uc: int, step: int) -> tuple[bool, int, int]:
            # One step of an edge walk: where the line in place would pair, the walk goes on at
            # the diagonal of identical lines a dropped or inserted line moved it to
            # (``edge_shift``), or stops there; a walk that would stop stops.
            def ok(t: int, u: int, dry: bool = False) -> bool:
                identical = step < 0 and bool(self.p.edge_definition_boundary) and self.ends_definition_above(t)
                return pair(t, u, self.p.edge_min_similarity, edge=True, identical=identical, dry=dry)

            if not ok(tc, uc, dry=True):
                return False, tc, uc
            t2, u2 = edge_shift(t_keys, u_keys, t_tokens, tc, uc, step, self.p)
            # moved: the line in place is not the copy of the line opposite, even when the
            # identical line found is paired already (by another region)
            return ok(t2, u2), t2, u2

        # A one-line run far off the diagonal of its neighbours and right next to one of them is a
        # lone hit (``bound_setattr(`` of a call re-wrapped there, found opposite another call's
        # first line): it does not set where a gap or the region's end is, and is paired last,
        # if its line is still free.
        stray = [_stray(chain.runs, k, self.p.lone_max_skip) for k in range(len(chain.runs))]
        runs = [r for r, s in zip(chain.runs, stray, strict=True) if not s]
        strays = [r for r, s in zip(chain.runs, stray, strict=True) if s] if runs else []
        runs = runs or chain.runs
        t_keys = self.target.h_norm[self.target.file_start[self.t_file]:][:n_t]
        u_keys = self.upstream.h_norm[self.upstream.file_start[chain.up_file]:][:n_u]
        t_tokens = self.target.ntok[self.target.file_start[self.t_file]:][:n_t]
        for run in runs:
            for tc, uc in run_pairs(t_keys, u_keys, run.t0, run.t1, run.diag):
                if uc is not None:
                    pair(tc, uc, self.p.near_min_similarity)
        for before, after in zip(runs, runs[1:], strict=False):
            t_lo, t_hi = before.t1 + 1, after.t0 - 1
            u_lo, u_hi = before.t1 + before.diag + 1, after.t0 + after.diag - 1
            if t_lo <= t_hi and u_lo <= u_hi:
                self.align_gap(chain.up_file, number, range(t_lo, t_hi + 1), range(u_lo, u_hi + 1),
                                u_rows, u_lines, free)
        # outward from both ends while lines keep matching; above a definition's header (the
        # region's first line, or a line reached since) only identical lines where the line is
        # indented deeper than the header: it is the body of the definition before
        # (``edge_definition_boundary``)
        tc, uc = runs[0].t0 - 1, runs[0].t0 + runs[0].diag - 1
        paired, tc, uc = walk(tc, uc, -1)
        while paired:
            paired, tc, uc = walk(tc - 1, uc - 1, -1)
        tc, uc = runs[-1].t1 + 1, runs[-1].t1 + runs[-1].diag + 1
        while True:
            paired, tc, uc = walk(tc, uc, 1)
            while paired:
                paired, tc, uc = walk(tc + 1, uc + 1, 1)
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
                labelled = pair_label(*self.texts(tc + k, u_k, u_rows, u_lines), self.p, self.packages(chain.up_file))
                if labelled is not None and self._same_kind(tc + k, chain.up_file, u_k):
                    self.set_pair(tc + k, chain.up_file, int(u_rows[u_k]), *labelled, number)
                    used.add(u_k)
            tc, uc = tc + len(step[0]), uc + step[1]
        for run in strays:
            if run.t0 + run.diag not in used:
                pair(run.t0, run.t0 + run.diag, self.p.near_min_similarity)

    def _rewrapped(self, tc: int, uc: int, u_rows: np.ndarray, u_lines: list[str],
                   free: Callable[[int], bool], first_taken: bool = False) -> tuple[list[int], int] | None:
        """Past a region's end: the next statement re-wrapped over other line breaks.

        Finds k target lines and m upstream lines (k != m, both at most ``rewrap_max_lines``)
        whose texts, with all whitespace and commas removed, are identical: the same tokens,
        wrapped differently (a formatter adds a trailing comma when it splits a call). Returns the
        upstream line of each target line (the one holding its first character) and m; None if
        there is no such statement.
        """
        if not (0 <= tc < len(self.t_rows) and 0 <= uc < len(u_rows)):
            return None
        most = self.p.rewrap_max_lines
        t_parts: list[str] = []
        for k in range(most):
            if tc + k >= len(self.t_rows) or not (free(tc + k) or (first_taken and k == 0)):
                break
            t_parts.append(_rewrap_form(self.t_lines[self.t_rows[tc + k]]))
        u_parts = [_rewrap_form(u_lines[u_rows[uc + m]]) for m in range(min(most, len(u_rows) - uc))]
        u_ends = np.cumsum([len(x) for x in u_parts]).tolist()
        u_text = "".join(u_parts)
        t_joined = ""
        for k, part in enumerate(t_parts):
            t_joined += part
            if len(t_joined) < self.p.rewrap_min_chars or not u_text.startswith(t_joined):
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

    def _same_kind(self, tc: int, u_file: int, uc: int) -> bool:
        """Code pairs only with code, comments with comments, docstrings with docstrings."""
        return self.target_kind(tc) == self.upstream_kind(u_file, uc)

    def target_kind(self, tc: int) -> int:
        return int(self.target.kind[self.target.file_start[self.t_file] + tc])

    def target_kinds(self) -> np.ndarray:
        """The kind of each of the target file's content lines (a view)."""
        start = int(self.target.file_start[self.t_file])
        return self.target.kind[start : start + len(self.t_rows)]

    def upstream_kinds(self, u_file: int) -> np.ndarray:
        """The kind of each content line of upstream file ``u_file`` (a view)."""
        start = int(self.upstream.file_start[u_file])
        return self.upstream.kind[start : int(self.upstream.file_start[u_file + 1])]

    def blocked_from(self, u_file: int, tc: int) -> bool:
        """Whether content line ``tc`` may not be paired with upstream file ``u_file`` at all
        (:attr:`blocked`, set by :mod:`lineage.match.class_names`): every rule that pairs a line
        after that asks here."""
        return tc in self.blocked.get(u_file, ())

    def upstream_kind(self, u_file: int, uc: int) -> int:
        return int(self.upstream.kind[self.upstream.file_start[u_file] + uc])

    def target_tokens(self, tc: int) -> int:
        return int(self.target.ntok[self.target.file_start[self.t_file] + tc])

    def upstream_tokens(self, u_file: int, uc: int) -> int:
        return int(self.upstream.ntok[self.upstream.file_start[u_file] + uc])

    def packages(self, u_file: int) -> tuple[str, frozenset[str]]:
        """The target file's top package (:meth:`Side.import_top`; empty for a file at the top)
        and the top-level packages and modules of the upstream tree ``u_file`` belongs to
        (:meth:`Side.top_packages`), for :func:`pair_label`'s import test; when the two trees
        differ in one top-level name each (``import_tree_rename``), that rename for every file
        of the target, its tests and scripts too (:func:`tree_rename`)."""
        ups = self.upstream.top_packages(int(self.upstream.upstream_of[u_file]))
        renamed = tree_rename(self.target.tree_tops, ups) if self.p.import_tree_rename else None
        return (renamed[0], frozenset({renamed[1]})) if renamed else (self._t_top, ups)

    def renamed_modules(self, u_file: int) -> tuple[str, str]:
        """The folders above the target file's and upstream file ``u_file``'s shared path ending,
        dotted as their imports name them (``lightning.pytorch`` and ``pytorch_lightning`` for
        ``lightning/pytorch/loggers/__init__.py`` and ``pytorch_lightning/loggers/__init__.py``);
        ("", "") when the paths share no ending or are the same. For
        :func:`~lineage.match.imports.as_upstream_folder`, in a pair at the target file's place."""
        t_path = "/".join(import_parts(self.target.files[self.t_file].path, self.target.package_roots))
        u_path = "/".join(import_parts(self.upstream.files[u_file].path, self.upstream.package_roots))
        folders = shared_ending_folders(t_path, u_path)
        return ("", "") if folders is None else (folders[0].replace("/", "."), folders[1].replace("/", "."))

    def distinctive(self, text: str, tokens: int) -> bool:
        """A line that may be paired alone in an established pair (a lone survivor)."""
        return tokens >= self.p.survivor_min_tokens and len(text) >= self.p.survivor_min_chars

    def keys_equal(self, tc: int, u_file: int, uc: int, shape: bool = True) -> bool:
        t_i = self.target.file_start[self.t_file] + tc
        u_i = self.upstream.file_start[u_file] + uc
        if self.target.h_norm[t_i] == self.upstream.h_norm[u_i]:
            return True
        return shape and bool(self.target.h_abs[t_i] == self.upstream.h_abs[u_i])

    def align_gap(self, u_file: int, number: int, t_range: Sequence[int], u_range: Sequence[int],
                  u_rows: np.ndarray, u_lines: list[str], free: Callable[[int], bool],
                  min_similarity: float = 0.0) -> None:
        """Pair lines in the gap between two runs by aligning the gaps' characters.

        One alignment of the whole gap handles edited lines and calls re-wrapped over other line
        breaks alike: each target line is mapped to the upstream line most of its aligned
        characters fall in, and kept if enough of its characters align (and, when
        ``min_similarity`` is set, if its :func:`line_similarity` to that line, fragments
        shorter than ``fragment_min_chars`` and whole statements (``near_whole_statements``)
        compared whole, reaches it). In a gap of one length on both sides, lines of one shape
        are first paired in place, except (``gap_in_place_yields``) a line the alignment places
        at another upstream line and keeps there: position only fills what it misses.
        """
        t_texts = [similarity_text(self.t_lines[self.t_rows[tc]]) for tc in t_range]
        u_texts = [similarity_text(u_lines[u_rows[uc]]) for uc in u_range]
        t_joined = " ".join(t_texts)
        u_joined, u_owner = _joined(u_texts)
        aligned = np.zeros(len(t_joined), bool)
        target_of = np.full(len(t_joined), -1, np.int64)
        # the alignment's equal stretches, marked in one pass (a pair of slice assignments per
        # stretch cost more than the alignment)
        blocks = np.array([(m.a, m.b, m.size) for m in Indel.opcodes(t_joined, u_joined).as_matching_blocks()
                           if m.size], np.int64).reshape(-1, 3)
        if len(blocks):
            sizes = blocks[:, 2]
            step = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
            src = np.repeat(blocks[:, 0], sizes) + step
            aligned[src] = True
            target_of[src] = u_owner[np.repeat(blocks[:, 1], sizes) + step]
        nonspace = np.frombuffer(t_joined.encode("utf-32-le", "surrogatepass"), np.uint32) != ord(" ")
        # Line k's characters: its own slice of the joined text (the space after it is no
        # character of it); every line's counts of characters and of aligned ones at once.
        lengths = np.array([len(text) for text in t_texts], np.int64)
        ends = np.cumsum(lengths) + np.arange(len(lengths))
        starts = ends - lengths
        counted = np.concatenate(([0], np.cumsum(nonspace)))
        hits = np.concatenate(([0], np.cumsum(nonspace & aligned)))
        chars, aligned_chars = (counted[ends] - counted[starts]).tolist(), (hits[ends] - hits[starts]).tolist()

        def mapping() -> dict[int, tuple[int, int]]:
            """Gap position -> (upstream content line most of its aligned characters fall in,
            its characters), for each free line enough of whose characters align."""
            mapped: dict[int, tuple[int, int]] = {}
            for k, (tc, start, end) in enumerate(zip(t_range, starts.tolist(), ends.tolist(), strict=True)):
                if not free(tc):
                    continue
                n_chars = chars[k]
                if n_chars == 0 or aligned_chars[k] / n_chars < self.p.gap_min_aligned:
                    continue
                here = slice(start, end)
                hit = nonspace[here] & aligned[here]
                mapped[k] = (u_range[int(np.bincount(target_of[here][hit]).argmax())], n_chars)
            return mapped

        def kept(k: int, uc: int, n_chars: int, mapped: dict[int, tuple[int, int]]) -> tuple[int, float] | None:
            """The label of gap line k mapped to upstream line ``uc``, None if it is not kept."""
            tc = t_range[k]
            t_text, u_text = self.texts(tc, uc, u_rows, u_lines)
            # A few characters (``)``, ``else:``) align with almost anything: a short line
            # counts only if identical, or as part of a re-wrapped statement whose neighbouring
            # line maps to the same upstream line.
            if n_chars < self.p.gap_min_chars and t_text != u_text and not any(
                    mapped.get(j, (None, 0))[0] == uc for j in (k - 1, k + 1)):
                return None
            # a code line half found inside a longer upstream line is a piece of it only beside
            # another piece (``gap_fragment_siblings``); a shortened comment or docstring line is
            # prose cut, not a statement re-wrapped
            if self.p.gap_fragment_siblings and t_text != u_text and not self.whole_statement(tc) and \
                    int(self.target_kinds()[tc]) == CODE and is_fragment(t_text, u_text, self.p) and \
                    line_similarity(t_text, u_text, True, self.p) < self.p.near_min_similarity and not any(
                        mapped.get(j, (None, 0))[0] == uc or self.paired_with(tc + j - k, u_file, u_rows[uc])
                        for j in (k - 1, k + 1)):
                return None
            if min_similarity and t_text != u_text and \
                    line_similarity(t_text, u_text, False, self.p, self.whole_statement(tc)) < min_similarity:
                return None
            # A whole statement much shorter than the line it maps to would be scored as a
            # piece of it: compared whole, it must be as similar as a line between two hits
            # (``near_whole_statements``).
            if not min_similarity and t_text != u_text and self.whole_statement(tc) and \
                    is_fragment(t_text, u_text, self.p) and \
                    line_similarity(t_text, u_text, True, self.p, whole=True) < self.p.near_min_similarity:
                return None
            labelled = pair_label(t_text, u_text, self.p, self.packages(u_file))
            return labelled if labelled is not None and self._same_kind(tc, u_file, uc) else None

        if len(t_range) == len(u_range):
            # Gaps of equal length: first pair lines of the same shape in place (edited literals
            # in a list, a renamed name), which a character alignment may miss on short lines;
            # not a line the alignment places at another upstream line (``gap_in_place_yields``).
            elsewhere: set[int] = set()
            if self.p.gap_in_place_yields:
                probe = mapping()
                elsewhere = {k for k, (uc, n_chars) in probe.items()
                             if uc != u_range[k] and kept(k, uc, n_chars, probe) is not None}
            for k, (tc, uc) in enumerate(zip(t_range, u_range, strict=True)):
                if k in elsewhere:
                    continue
                if free(tc) and self.keys_equal(tc, u_file, uc) and self._same_kind(tc, u_file, uc):
                    texts = self.texts(tc, uc, u_rows, u_lines)
                    labelled = pair_label(*texts, self.p, self.packages(u_file))
                    if labelled is not None and (not min_similarity or labelled[0] == VERBATIM
                                                 or line_similarity(*texts, False, self.p, self.whole_statement(tc))
                                                 >= min_similarity):
                        self.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
        mapped = mapping()
        for k, (uc, n_chars) in mapped.items():
            labelled = kept(k, uc, n_chars, mapped)
            if labelled is not None:
                self.set_pair(t_range[k], u_file, int(u_rows[uc]), *labelled, number)

    def paired_with(self, tc: int, u_file: int, u_row: int) -> bool:
        """Content line ``tc`` (any index; out of the file is no line) is paired with that upstream row."""
        if not 0 <= tc < len(self.t_rows):
            return False
        r, row = self.result, self.t_rows[tc]
        return r.match[row] != NONE and int(r.up_file[row]) == u_file and int(r.up_row[row]) == int(u_row)

    def set_pair(self, tc: int, u_file: int, u_row: int, label: int, sim: float, number: int) -> None:
        if self._journal is not None:
            self._journal.append((tc, u_row, label))
        self._not_name_only(tc)
        row = self.t_rows[tc]
        r = self.result
        r.match[row] = label
        r.up_file[row] = u_file
        r.up_row[row] = u_row
        r.similarity[row] = sim
        r.region[row] = number

    def drop_below_floor(self) -> int:
        """Unpair every ``near`` line whose similarity is under ``near_floor_similarity`` (a comment
        or docstring line: ``near_floor_similarity_prose``), whatever
        rule paired it (the floor :func:`pair_label` holds each pair to; a rule that places a line
        by its statement, a closing bracket beside the upstream line that holds its partner's, can
        leave a pair whose texts share nothing: ``)`` near ``states_ptr += pid_c * ...``, 0.0).
        Returns how many."""
        rows = self.t_rows
        r = self.result
        prose = self.target_kinds() != CODE
        floor = np.where(prose, max(self.p.near_floor_similarity, self.p.near_floor_similarity_prose),
                         self.p.near_floor_similarity)
        low = np.flatnonzero((r.match[rows] == NEAR) & (r.similarity[rows] < floor))
        for tc in low.tolist():
            self.unpair(tc)
        return len(low)

    def unpair(self, tc: int) -> None:
        """Make content line ``tc`` unpaired again (``none``, no region)."""
        self._not_name_only(tc)
        row = self.t_rows[tc]
        r = self.result
        r.match[row], r.up_file[row], r.up_row[row] = NONE, -1, -1
        r.similarity[row], r.region[row] = 0.0, -1

    def _not_name_only(self, tc: int) -> None:
        """Forget that ``tc`` was paired by its name alone (its pair is about to change)."""
        for lines in self.name_only.values():
            lines.discard(tc)

    def regions(self, chains: list[Chain]) -> list[Region]:
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


def edge_shift(t_keys: np.ndarray, u_keys: np.ndarray, t_tokens: np.ndarray, tc: int, uc: int, step: int,
               p: MatchParams) -> tuple[int, int]:
    """Where a region's edge walk (``step`` 1 down, -1 up) goes on from target line ``tc`` and
    upstream line ``uc`` (content lines): the same place when those two are identical (by normal
    form) or no shift is found; else the nearest place at most ``edge_shift_max_lines`` further
    on one side (the upstream's lines skipped first: a line it dropped) from which consecutive
    lines identical on both sides hold at least ``edge_shift_min_tokens`` tokens
    (``t_tokens``: the target's per content line)."""
    n_t, n_u = len(t_keys), len(u_keys)

    def same(t: int, u: int) -> bool:
        return 0 <= t < n_t and 0 <= u < n_u and t_keys[t] != 0 and t_keys[t] == u_keys[u]

    def run_tokens(t: int, u: int) -> int:
        total = 0
        while same(t, u) and total < p.edge_shift_min_tokens:
            total += int(t_tokens[t])
            t, u = t + step, u + step
        return total

    if not p.edge_shift_max_lines or not (0 <= tc < n_t and 0 <= uc < n_u) or same(tc, uc):
        return tc, uc
    for skip in range(1, p.edge_shift_max_lines + 1):
        for t, u in ((tc, uc + step * skip), (tc + step * skip, uc)):
            if run_tokens(t, u) >= p.edge_shift_min_tokens:
                return t, u
    return tc, uc


def run_pairs(t_keys: np.ndarray, u_keys: np.ndarray, t0: int, t1: int, diag: int) -> list[tuple[int, int | None]]:
    """The upstream line each line of a run (target content lines ``t0``..``t1`` on diagonal
    ``diag``) is tried with: its partner on the diagonal, unless between two lines identical to
    their partners (same ``h_norm`` key) a line stands identical to an upstream line of that
    stretch at another offset (an item inserted upstream into a list: ``'consumer',`` opposite
    the new ``'constrained_batches',``, the same ``'consumer',`` one line below). Then the
    stretch's identical lines are paired first, in order (a longest common subsequence of the
    keys), and any other line of it only with its diagonal partner when that lies in order with
    them and is not theirs; otherwise with none (None)."""
    t_all = np.arange(t0, t1 + 1)
    u_all = t_all + diag
    inside = (u_all >= 0) & (u_all < len(u_keys))
    same = np.zeros(len(t_all), bool)
    same[inside] = t_keys[t_all[inside]] == u_keys[u_all[inside]]
    out: list[tuple[int, int | None]] = list(zip(t_all.tolist(), u_all.tolist(), strict=True))  # type: ignore[arg-type]
    if same.all():
        return out
    # each stretch of lines that differ from their diagonal partners
    edges = np.flatnonzero(np.diff(np.concatenate(([1], same.astype(np.int8), [1]))))
    for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
        tc, end = t0 + start, t0 + stop - 1
        lo, hi = max(tc + diag, 0), min(end + diag, len(u_keys) - 1)
        if hi < lo:
            continue
        t_stretch, u_stretch = t_keys[tc:end + 1].tolist(), u_keys[lo:hi + 1].tolist()
        if not set(t_stretch) & set(u_stretch):
            continue
        matcher = difflib.SequenceMatcher(None, t_stretch, u_stretch, autojunk=False)
        found = {tc + b.a + k: lo + b.b + k for b in matcher.get_matching_blocks() for k in range(b.size)}
        taken = set(found.values())
        for k in range(tc, end + 1):
            partner = k + diag
            if k in found:
                out[k - t0] = (k, found[k])
            elif not (partner not in taken and all(u < partner for t, u in found.items() if t < k)
                      and all(u > partner for t, u in found.items() if t > k)):
                out[k - t0] = (k, None)
    return out


def _joined(texts: list[str]) -> tuple[str, np.ndarray]:
    """Join lines with a space; return the text and, per character, which line it belongs to."""
    joined = " ".join(texts)
    owner = np.repeat(np.arange(len(texts)), [len(t) + 1 for t in texts])[: len(joined)]
    return joined, owner


def _span(journal: list[tuple[int, int, int]]) -> tuple[int, int, int, int] | None:
    """First and last content line, first and last upstream row a region labelled."""
    if not journal:
        return None
    tcs = [tc for tc, _, _ in journal]
    u_rows = [u_row for _, u_row, _ in journal]
    return min(tcs), max(tcs), min(u_rows), max(u_rows)


def _in_order(span: tuple[int, int, int, int] | None, strong: Sequence[tuple[int, int, int, int]]) -> bool:
    """``span`` lies wholly before or wholly after each of ``strong`` (at least one) in both files."""
    if span is None or not strong:
        return False
    t_lo, t_hi, u_lo, u_hi = span
    return all((t_hi < s_t_lo and u_hi < s_u_lo) or (t_lo > s_t_hi and u_lo > s_u_hi)
               for s_t_lo, s_t_hi, s_u_lo, s_u_hi in strong)


def _longest_verbatim_block(journal: list[tuple[int, int, int]], u_rows: np.ndarray) -> int:
    """Longest series of verbatim pairs that are consecutive content lines on both sides."""
    best = run = 0
    previous: tuple[int, int] | None = None
    entries = sorted(journal)
    # each verbatim pair's upstream content line, found in one call (a call per pair cost more)
    at = iter(np.searchsorted(u_rows, [u_row for _, u_row, label in entries if label == VERBATIM]).tolist())
    for tc, _, label in entries:
        if label != VERBATIM:
            previous = None
            run = 0
            continue
        uc = next(at)
        run = run + 1 if previous is not None and (tc, uc) == (previous[0] + 1, previous[1] + 1) else 1
        best = max(best, run)
        previous = (tc, uc)
    return best


def _rewrap_form(line: str) -> str:
    return "".join(line.split()).replace(",", "")
