"""What every rule of the fill (:mod:`lineage.match.fill`) reads of an established file pair:
which target lines are free, the keys lines align on (:func:`fold_form`, without annotations:
:func:`align_form`), the LCS alignment of two lists of keys (:func:`align_keys`), the longest
chain of pairs increasing on both sides (:func:`increasing_pairs`, the pair's anchors), and
whether a target file is the upstream file's own later version (:func:`is_own_file`), where the
statement rule works (:func:`statement_rule`)."""

from __future__ import annotations

import bisect
import posixpath

import numpy as np
from rapidfuzz.distance import Indel

from lineage.index import CODE
from lineage.index.normalise import fold_whitespace
from lineage.match.hits import Side
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE
from lineage.match.statements import (
    _lineforms,
    annotation_free_of,
    code_tokens,
    without_trailing_comma,
)

# increasing_pairs_reference in C (None without the extension, or a build that predates it)
_increasing_pairs = getattr(_lineforms, "increasing_pairs", None)


def align_form(line: str, kind: int, strip: bool) -> str:
    """The key lines align on inside a copy: :func:`fold_form`, for a code line without its
    type annotations too when ``strip`` (``fill_strip_annotations``). Asked once per line of a
    file (:class:`AlignForms` keeps it), so past :func:`annotation_free`'s memo."""
    if strip and kind == CODE:
        return annotation_free_of(line)
    return fold_form(line, kind)


class AlignForms:
    """:func:`align_form` of the content lines of one file, each made on first use and kept: the
    fill's rules align many stretches of one file pair, and an upstream file is paired with many
    target files (:func:`align_forms`)."""

    __slots__ = ("_forms", "_kinds", "_lines", "_rows", "_strip")

    def __init__(self, side: Side, number: int, rows: np.ndarray, lines: list[str], strip: bool) -> None:
        start = int(side.file_start[number])
        self._kinds = side.kind[start : start + len(rows)].tolist()
        self._rows, self._lines, self._strip = rows.tolist(), lines, strip
        self._forms: list[str | None] = [None] * len(rows)

    def __getitem__(self, content_line: int) -> str:
        form = self._forms[content_line]
        if form is None:
            form = self._forms[content_line] = align_form(self._lines[self._rows[content_line]],
                                                          self._kinds[content_line], self._strip)
        return form

    def keys(self, keys: Keys, span: range, wanted: list[bool]) -> list[int]:
        """``keys.of(kind, self[c] if wanted else None)`` for each content line ``c`` of
        ``span`` (``wanted``: one flag per line), in order: one loop without a call per line
        (the fill asks for the keys of long edge stretches of a pair again and again). The
        rule is :meth:`Keys.of`'s, inlined (tested equal in ``tests/test_match_memos.py``)."""
        forms, lines, rows, kinds, strip = self._forms, self._lines, self._rows, self._kinds, self._strip
        ids = keys.ids
        out: list[int] = []
        for c, ok in zip(span, wanted, strict=True):
            if not ok:
                keys.unique -= 1
                out.append(keys.unique)
                continue
            form = forms[c]
            if form is None:
                form = forms[c] = align_form(lines[rows[c]], kinds[c], strip)
            out.append(ids.setdefault((kinds[c], form), len(ids)))
        return out


def align_forms(lab: FileLabeller, u_file: int | None = None) -> AlignForms:
    """The :class:`AlignForms` of the labeller's target file (``u_file`` None; kept by the
    labeller) or of upstream file ``u_file`` (kept by the upstream side for the run)."""
    strip = bool(lab.p.fill_strip_annotations)
    if u_file is None:
        if lab.align_forms is None:
            lab.align_forms = AlignForms(lab.target, lab.t_file, lab.t_rows, lab.t_lines, strip)
        return lab.align_forms
    memo = lab.upstream.align_memo
    if (u_file, strip) not in memo:
        memo[(u_file, strip)] = AlignForms(lab.upstream, u_file, *lab.upstream_lines(u_file), strip)
    return memo[(u_file, strip)]


def fold_form(line: str, kind: int) -> str:
    """The key lines align on inside a copy: the code's tokens without a trailing comment, one
    quote character and no trailing comma (comments and docstrings: words, one quote character).
    Formatters change exactly these; a different token is a different line."""
    if kind != CODE:
        return fold_whitespace(line).replace("'", '"')
    # Quotes replaced once on the joined text: the same as token by token (the joint holds none).
    return " ".join(without_trailing_comma(code_tokens(line))).replace("'", '"')


def is_own_file(lab: FileLabeller, u_file: int) -> bool:
    """Whether the labeller's target file has the upstream file's name: its later version (a
    fork's, a vendored copy's), not a file that took a part of it; or is a part of the upstream
    module split into a package of the module's name at the module's place
    (``fill_module_split``: ``nextcord/webhook/async_.py`` <- ``discord/webhook.py``)."""
    return (posixpath.basename(lab.target.files[lab.t_file].path) == posixpath.basename(lab.upstream.files[u_file].path)
            or u_file in lab.split_from)


def statement_rule(lab: FileLabeller, u_file: int) -> bool:
    """Whether the statement rule (:mod:`lineage.match.statements`) pairs edited statements in
    this pair: ``fill_statement_max_lines`` on, and with ``fill_statement_own_file`` only in a
    target file of the upstream file's own name. A file's later version keeps its signatures
    and calls in place, edited (annotations added, re-wrapped one argument a line, a keyword
    added); a file that took code from an upstream file of another name writes its own
    signatures and calls next to the ones it took, and a statement of it resembles one of the
    upstream's by the shape all such statements share (``prefix: str = "",`` of a model's
    ``__init__``, ``super().__init__(`` of another class: the false copies the rule made on
    the sglang/vLLM pair were all in files of other names)."""
    p = lab.p
    return p.fill_statement_max_lines > 0 and (not p.fill_statement_own_file or is_own_file(lab, u_file))


def is_free(lab: FileLabeller, u_file: int, tc: int) -> bool:
    """Unlabelled, and not inside a span claimed by a region of another upstream file."""
    if lab.result.match[lab.t_rows[tc]] != NONE or lab.blocked_from(u_file, tc):
        return False
    owner = int(lab.claims.owner[tc])
    return owner < 0 or lab.claims.claimed[owner].up_file == u_file


def free_mask(lab: FileLabeller, u_file: int, span: range) -> np.ndarray:
    """:func:`is_free` of every content line of ``span`` at once."""
    owner = lab.claims.owner[span.start : span.stop]
    claimed_up = np.array([c.up_file for c in lab.claims.claimed] + [-1], np.int64)
    unlabelled = lab.result.match[lab.t_rows[span.start : span.stop]] == NONE
    for tc in lab.blocked.get(u_file, ()):
        if span.start <= tc < span.stop:
            unlabelled[tc - span.start] = False
    return unlabelled & ((owner < 0) | (claimed_up[owner] == u_file))


def span_arrays(side: Side, start: int, span: range) -> tuple[np.ndarray, np.ndarray]:
    """Kinds and token counts of a file's content lines ``span`` (``start``: the file's first)."""
    return side.kind[start + span.start : start + span.stop], side.ntok[start + span.start : start + span.stop]


def align_keys(t_keys: list[int], u_keys: list[int]) -> list[tuple[int, int]]:
    """Positions (in the two key lists) of the lines an LCS aligns; negative keys never align."""
    out: list[tuple[int, int]] = []
    for op in Indel.opcodes(t_keys, u_keys):
        if op.tag == "equal":
            out += zip(range(op.src_start, op.src_end), range(op.dest_start, op.dest_end), strict=True)
    return out


class Keys:
    """Line keys as small integers; a line that may not align gets a key of its own (negative)."""

    def __init__(self) -> None:
        self.ids: dict[tuple[int, str], int] = {}
        self.unique = 0

    def of(self, kind: int, text: str | None) -> int:
        if text is None:
            self.unique -= 1
            return self.unique
        return self.ids.setdefault((kind, text), len(self.ids))


def stretch_keys(lab: FileLabeller, u_file: int, t_span: range, u_span: range,
                  used: set[int]) -> tuple[list[int], list[int]]:
    """The keys the free lines of a stretch align on inside a copy (:func:`align_form`); a line
    not free, or an upstream line already used, gets a key of its own."""
    keys = Keys()
    t_keys = align_forms(lab).keys(keys, t_span, free_mask(lab, u_file, t_span).tolist())
    u_keys = align_forms(lab, u_file).keys(keys, u_span, [uc not in used for uc in u_span])
    return t_keys, u_keys


def increasing_pairs(t: list[int], u: list[int]) -> list[tuple[int, int]]:
    """A longest chain of (t, u) pairs increasing in both, for ``t`` strictly increasing (one
    upstream line per target line): :func:`increasing_pairs_reference`, in C when the extension is
    built (``lineage._lineforms.increasing_pairs``; the same pairs, the tests hold them to it) and
    both are lists of one length of ints within 64 bits."""
    if _increasing_pairs is not None and type(t) is list and type(u) is list:
        found = _increasing_pairs(t, u)
        if found is not NotImplemented:
            return found
    return increasing_pairs_reference(t, u)


def increasing_pairs_reference(t: list[int], u: list[int]) -> list[tuple[int, int]]:
    """:func:`increasing_pairs` in Python, its definition: a longest strictly increasing
    subsequence of ``u``, by patience sorting, O(n log n)."""
    tails: list[int] = []  # per chain length: index of the pair that ends the best such chain
    tail_u: list[int] = []
    back = [-1] * len(t)
    for k, uk in enumerate(u):
        at = bisect.bisect_left(tail_u, uk)
        back[k] = tails[at - 1] if at > 0 else -1
        if at == len(tails):
            tails.append(k)
            tail_u.append(uk)
        else:
            tails[at] = k
            tail_u[at] = uk
    out: list[tuple[int, int]] = []
    k = tails[-1] if tails else -1
    while k >= 0:
        out.append((t[k], u[k]))
        k = back[k]
    return out[::-1]


def pair_of(lab: FileLabeller, tc: int) -> tuple[int, int, int, float, int]:
    """The pair of content line ``tc`` as :meth:`FileLabeller.set_pair` takes it."""
    r, row = lab.result, lab.t_rows[tc]
    return int(r.up_file[row]), int(r.up_row[row]), int(r.match[row]), float(r.similarity[row]), int(r.region[row])
