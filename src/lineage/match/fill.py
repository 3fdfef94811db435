"""Step 6, fill: lines of an established file pair that no region reached.

A region grows from seeds, and some copied lines never seed: a form repeated many times in one
upstream file (table rows, the repeated argument lines of a signature, generated clients) is
dropped by ``seed_max_per_file``, and a single line that survived in a rewritten file is too
light to be a region. Once a (target file, upstream file) pair is *established*, such lines need
no evidence of their own, only their place. A pair is established when one of its regions was
accepted in the target file, or when the target file's provenance markers name that upstream
file, or when the upstream file has the same path (also below a package the target renamed,
:mod:`lineage.match.renames`).

The pair's *anchors* are the target lines already paired with that upstream file, taken in order
in both files (the longest chain increasing on both sides; lines out of that order keep their
labels but are not anchors). Each stretch between two anchors, and before the first and after
the last, is aligned line by line with its upstream counterpart (an LCS of line keys, rapidfuzz
``Indel``, the alignment ``git diff`` makes), so a filled line is always in order with the pair's
other hits. Three rules, each with its reason:

* **Alignment inside a copy** (:func:`_align_inside`). Between two anchors, when neither side of
  the stretch is longer than ``align_max_gap`` content lines, every free line that aligns is
  paired, whatever its form: it sits in order between hits of a certain pair. Lines align by
  their fold form (:func:`fold_form`: tokens without a trailing comment, one quote character,
  no trailing comma: the edits formatters make). :func:`~lineage.match.labels.pair_label` says
  verbatim (identical stripped text) or near, and a near pair must pass the rule for lines
  between hits (same normal or abstract form, or ``near_min_similarity``). Then, between two
  lines so aligned, the lines left on both sides (edited in place: an annotation added, a name
  or a literal changed, a call re-wrapped) are paired when neither side exceeds
  ``fill_edit_max_gap`` lines, by their most similar pairs (``fill_edit_min_similarity``) and
  then by the character alignment of a region's gap (:func:`_edited_lines`).
* **Lone survivors** (:func:`_survivors`). Everywhere else in an established pair (before the
  first anchor, after the last, longer stretches, and pairs with no anchor at all), only
  distinctive lines align (at least ``survivor_min_tokens`` tokens and ``survivor_min_chars``
  characters), and only on identical stripped text: each is paired verbatim, even alone. In a
  file rewritten over years a signature or a ``raise`` with its message survives between new
  code; alone it could never be a region, but the pair is already known and the line is in
  order with the pair's other lines. Of the pairs established by a region, only the file's main
  pair (the upstream file most of its lines are paired with) gets survivors: a file that took
  a function from a second upstream file shares that file's imports and idioms
  (``from .user import User``) far more often than it kept its lines (on the real renamed fork,
  8 of 42 such lines were copies, against 261 of 333 in the main pairs, with align_max_gap 40).
  In a long inner stretch the survivors then serve as anchors, and the stretches between them
  short enough are aligned as inside a copy (``fill_survivor_anchors``). So they do **after the
  pair's last paired line** (``fill_edge_survivor_anchors``), when the target file has the
  upstream file's name: a region can end early (on the real renamed fork, ``nextcord/http.py``'s
  regions stopped a third of the way in, where new endpoints were inserted, and the hundreds of
  methods after them, annotated and re-wrapped, were left to the survivors, each method's
  unchanged ``return self.request(r, reason=reason)``), and a file of the upstream file's own
  name is its later version from edge to edge, so the lines between two of its survivors are
  copied code edited in place. Not in a file of another name (one that took a part of the
  upstream file: outside that part, its own code, ``nextcord/webhook/async_.py`` <-
  ``discord/webhook.py``, 25 of 30 such lines new by git blame), and not before the pair's first
  paired line: there stand the imports, which a derived file rewrites to its own modules, and
  aligning them between survivors paired them with the upstream's imports of other modules
  (``from .enums import (`` <- ``from .channel import *``; on the sglang/vLLM pair, sglang's
  ``from sglang.srt.layers... import`` lines). **Before the pair's first paired line**, in a
  target file of the upstream file's own name, the survivors anchor the alignment too, but only
  from the first of them that is not an import on (``fill_leading_survivor_anchors``): the file
  is its later version from edge to edge, as above, and below its import block the module's
  code is the old code edited (``nextcord/http.py``: ``pass`` / ``return text`` of the old
  ``json_or_text`` between two survivors, above the first region). This also takes a pair with
  **no paired line at all** before the fill (established by its path or a marker, no region: a
  file rewritten over years, ``nextcord/sticker.py`` <- ``discord/sticker.py``, annotated line
  by line), whose survivors are the only places where the copy can be seen; alone, each would
  face the lone-line rule, which drops most of them (a ``return self.name`` survives in many files).
* **Statements re-wrapped in place** (:func:`_split_at_rewrapped`, ``fill_rewrapped_max_lines``,
  on by default). Inside a stretch between two anchors, a statement whose tokens (without type
  annotations) are those of one upstream statement of the stretch, each found once there and of
  several lines on one side, is Black's re-wrap of it: no piece of it aligns by its fold form,
  so it is paired piece by piece first and the stretch is cut at it. It judges no similarity,
  unlike the statement rule (``fill_statement_max_lines``; the similar statements of
  :mod:`lineage.match.statements`, on by default since recall5 but only in a file of the
  upstream file's own name, :func:`_statement_rule`): on the real renamed fork it raised recall
  0.849 -> 0.881 with precision 0.965 -> 0.966, and on the sglang/vLLM pair it added about 50
  code lines, its truth-set scores unchanged. A statement found once on each side can still be
  one moved past copied lines; cut there, the stretch would lose them, so a statement pair that
  crosses more of the stretch's fold-form alignments than it has lines is not used (sglang's
  ``gemma3n_causal.py`` moved ``first_kv_shared_layer_idx = (...)`` below a copied ``o_proj``
  call and lost its 17 lines). A piece a region paired alone out of the pair's order
  (``bound_setattr(``, the opening line of another exploded call upstream) counts as free here
  (:func:`_strays`, ``fill_rewrapped_strays``), so the call it belongs to is whole again.
* **Statements of one shape** (:mod:`lineage.match.shapes`, ``fill_shape_max_lines``; in a file
  of the upstream file's own name, at most ``fill_shape_max_edits`` tokens edited): the edited
  pieces of a call broken one argument a line, paired whole with the upstream statement of the
  same abstract shape once one of its lines is. A witnessed-renames rule lives there too
  (own-name files, each rename witnessed by ``fill_rename_min_witnesses`` near pairs, 2).
* **Signatures that outlived a rewrite** (:func:`_signature_survivors`,
  ``fill_signature_survivors``; where the statement rule works): a ``def`` statement exploded
  and edited (a parameter added) next to a rewritten body is paired as a statement with the
  upstream ``def`` of the same name, a name each file defines once, in order with the pair.
* **Imports out of order** (:func:`_imports`). In the same pairs as the survivors, a one-line
  import the upstream file also has is paired in any order: isort sorts a fork's imports again.

The survivors and imports this step pairs are judged once more by step 7, the lone-line rule
(:mod:`lineage.match.lone`): one that no paired neighbour continues in order stays only if its
form is rare (``import os`` alone, with the target's own imports around it, does not).

Filled lines join the region of the anchor before them (the first anchor's before it); in a pair
with no anchor they form a new region of weight 0 (no seed supports it). Upstream lines already
paired in this target file are not paired again.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections import Counter
from collections.abc import Iterable

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel

from lineage.index import CODE
from lineage.index.normalise import fold_whitespace, similarity_text
from lineage.match.hits import Side
from lineage.match.imports import import_module, is_import_line, unvendored_import
from lineage.match.labels import FileLabeller, line_similarity, pair_label
from lineage.match.origin import vendored_root
from lineage.match.records import NEAR, NONE
from lineage.match.regions import Chain
from lineage.match.shapes import complete_same_shape, pair_renamed
from lineage.match.statements import (
    annotation_free,
    best_in_order,
    code_tokens,
    line_partners,
    piece_text,
    statement_ids,
    statement_key,
    whole_statements,
    without_trailing_comma,
)


def _align_form(line: str, kind: int, strip: bool) -> str:
    """The key lines align on inside a copy: :func:`fold_form`, for a code line without its
    type annotations too when ``strip`` (``fill_strip_annotations``)."""
    if strip and kind == CODE:
        return annotation_free(line)
    return fold_form(line, kind)


def fold_form(line: str, kind: int) -> str:
    """The key lines align on inside a copy: the code's tokens without a trailing comment, one
    quote character and no trailing comma (comments and docstrings: words, one quote character).
    Formatters change exactly these; a different token is a different line."""
    if kind != CODE:
        return fold_whitespace(line).replace("'", '"')
    # Quotes replaced once on the joined text: the same as token by token (the joint holds none).
    return " ".join(without_trailing_comma(code_tokens(line))).replace("'", '"')


def fill(lab: FileLabeller, accepted: list[Chain], named: Iterable[int]) -> list[Chain]:
    """Fill every established pair of the labeller's target file (see the module docstring).

    ``accepted``: the file's accepted regions, in region-number order; ``named``: upstream files
    established without a region (named by a marker, same path). Returns the new regions' chains
    (pairs with no anchor), numbered after ``accepted``.
    """
    r, rows = lab.result, lab.t_rows
    paired = r.up_file[rows][r.match[rows] != NONE]
    pairs: list[int] = []
    for chain in accepted:
        if chain.up_file not in pairs:
            pairs.append(chain.up_file)
    named = set(named)
    # The main pair: the upstream file most lines are paired with (the earliest on a tie).
    main = max(pairs, key=lambda u: (int((paired == u).sum()), -pairs.index(u))) if pairs else -1
    pairs += sorted(named - set(pairs))
    added: list[Chain] = []
    statements = _Statements(lab)
    for u_file in pairs:
        _fill_pair(lab, statements, u_file, len(accepted) + len(added), added, u_file == main or u_file in named)
    return added


def _fill_pair(lab: FileLabeller, statements: _Statements, u_file: int, new_number: int, added: list[Chain],
               survivors: bool) -> None:
    r, rows, p = lab.result, lab.t_rows, lab.p
    new_chain: Chain | None = None
    # Inner stretches too long to be aligned (rewritten code between two parts of the copy):
    # only lone survivors are paired there, and then, with ``fill_survivor_anchors``, the
    # stretches between the survivors, now short enough, are aligned as inside a copy.
    long_inner: list[range] = []
    # The target file is the upstream file's own continuation (the same file name): a copy
    # from edge to edge, not a part taken into a file of another name.
    own_file = _own_file(lab, u_file)
    for second in (False, True):
        if second and not (long_inner and p.fill_survivor_anchors):
            break
        u_rows, _ = lab.upstream_lines(u_file)
        paired = np.flatnonzero((r.match[rows] != NONE) & (r.up_file[rows] == u_file))
        paired_uc = np.searchsorted(u_rows, r.up_row[rows[paired]])
        used = set(paired_uc.tolist())
        anchors = increasing_pairs(paired.tolist(), paired_uc.tolist())
        bounds = [(-1, -1), *anchors, (len(rows), len(u_rows))]
        for i in range(len(bounds) - 1):
            (ta, ua), (tb, ub) = bounds[i], bounds[i + 1]
            t_span, u_span = range(ta + 1, tb), range(ua + 1, ub)
            if not t_span or not u_span:
                continue
            inner = 0 < i < len(anchors)
            inside = inner and len(t_span) <= p.align_max_gap and len(u_span) <= p.align_max_gap
            if second and not (inside and any(t_span.start >= w.start and t_span.stop <= w.stop
                                              for w in long_inner)):
                continue
            number = int(r.region[rows[anchors[max(i - 1, 0)][0]]]) if anchors else new_number
            if number == new_number and new_chain is None:
                new_chain = Chain(u_file, [], 0.0)
            if not inside and not survivors:
                continue
            if inside:
                done = []
                for t_piece, u_piece in _split_at_rewrapped(lab, statements, u_file, t_span, u_span, used, number):
                    done += _align_inside(lab, statements, u_file, t_piece, u_piece, used | set(done), number)
            else:
                done = _survivors(lab, u_file, t_span, u_span, used, number)
                if done and (inner or (i > 0 and p.fill_edge_survivor_anchors and own_file)):
                    long_inner.append(t_span)
                elif done and i == 0 and p.fill_leading_survivor_anchors and own_file:
                    start = _first_code_survivor(lab, u_file, t_span)
                    if start is not None:
                        long_inner.append(range(start, t_span.stop))
                if not inner and anchors and p.fill_edge_block_lines > 0:
                    done += _edge_blocks(lab, u_file, t_span, u_span, used | set(done), number)
            used.update(done)
    if survivors and p.fill_import_min_tokens > 0:
        _imports(lab, u_file, new_number)
    if p.fill_signature_survivors and _statement_rule(lab, u_file):
        _signature_survivors(lab, statements, u_file)
    if _statement_rule(lab, u_file):
        _complete_statements(lab, statements, u_file)
    if p.fill_shape_max_lines > 0 and (not p.fill_shape_own_file or own_file):
        # Statements of the same shape (lineage.match.shapes): the edited pieces of a re-wrapped call.
        complete_same_shape(lab, statements.target(p.fill_shape_max_lines)[0],
                            statements.upstream(u_file, p.fill_shape_max_lines)[0], u_file)
    if p.fill_rename_min_witnesses > 0 and (not p.fill_rename_own_file or own_file):
        # Lines whose only edit is a rename the pair's other lines witness (lineage.match.shapes).
        pair_renamed(lab, u_file, increasing_pairs)
    if new_chain is None and (r.region[rows] == new_number).any():
        new_chain = Chain(u_file, [], 0.0)  # imports alone (rule c)
    if new_chain is not None and (r.region[rows] == new_number).any():
        added.append(new_chain)


def _first_code_survivor(lab: FileLabeller, u_file: int, t_span: range) -> int | None:
    """The first code line of ``t_span`` paired with ``u_file`` that is not an import (the
    leading survivors anchor the alignment from there on: below the import block; a licence
    header's comment lines stand above it)."""
    r, rows = lab.result, lab.t_rows
    for tc in t_span:
        row = rows[tc]
        if (r.match[row] != NONE and r.up_file[row] == u_file and lab.target_kind(tc) == CODE
                and import_module(lab.t_lines[row]) is None):
            return tc
    return None


def _own_file(lab: FileLabeller, u_file: int) -> bool:
    """Whether the labeller's target file has the upstream file's name: its later version (a
    fork's, a vendored copy's), not a file that took a part of it."""
    return posixpath.basename(lab.target.files[lab.t_file].path) == posixpath.basename(lab.upstream.files[u_file].path)


def _statement_rule(lab: FileLabeller, u_file: int) -> bool:
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
    return p.fill_statement_max_lines > 0 and (not p.fill_statement_own_file or _own_file(lab, u_file))



def _imports(lab: FileLabeller, u_file: int, new_number: int) -> None:
    """Rule (c), imports out of order: a tool such as isort sorts a file's imports again, so
    the copied imports stand in another order than upstream and the in-order rules leave them
    none. In the file's main pair (the pair that gets lone survivors), a free one-line import
    statement of at least ``fill_import_min_tokens`` tokens whose fold form is that of an
    import of the upstream file not yet paired is paired with it, in any order. This runs
    after the in-order rules and its lines are never their anchors: on the real sglang/vLLM
    pair, imports as anchors let the alignment pair the generic lines between them (``try:``,
    ``)``, imports of each project's own modules). They join the region of the pair's first
    paired line (a new region when there is none). In a vendored copy of the upstream file
    (``fill_vendored_imports``; :func:`~lineage.match.origin.vendored_root`), a target import
    is compared as it was before the vendoring tool re-rooted it (:func:`unvendored_import`:
    ``from pip._vendor import requests`` <- ``import requests``), and paired near."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    r, rows = lab.result, lab.t_rows
    root = vendored_root(lab.target.files[lab.t_file].path, lab.upstream.files[u_file].path,
                         lab.p.vendor_folder_names) if lab.p.fill_vendored_imports else None
    module_root = root.replace("/", ".") if root is not None else None
    mine = np.flatnonzero((r.match[rows] != NONE) & (r.up_file[rows] == u_file))
    used = set(np.searchsorted(u_rows, r.up_row[rows[mine]]).tolist())
    number = int(r.region[rows[mine[0]]]) if len(mine) else new_number
    u, t = lab.upstream, lab.target
    u_start, t_start = int(u.file_start[u_file]), int(t.file_start[lab.t_file])
    by_form: dict[str, list[int]] = {}
    # Only code lines can be imports (the kind test once, on the arrays), and an import's
    # stripped text starts with one of two words (a cheap test before the pattern).
    for uc in np.flatnonzero(u.kind[u_start : u_start + len(u_rows)] == CODE).tolist():
        text = u_lines[u_rows[uc]].strip()
        if uc not in used and is_import_line(text):
            by_form.setdefault(fold_form(text, CODE), []).append(uc)
    if not by_form:
        return
    # Free lines only change here by this loop pairing the line it is at, so the tests on the
    # arrays (code, enough tokens, unlabelled) can be made once, before it.
    n = len(rows)
    candidates = np.flatnonzero((t.kind[t_start : t_start + n] == CODE) & (r.match[rows] == NONE)
                                & (t.ntok[t_start : t_start + n] >= lab.p.fill_import_min_tokens))
    for tc in candidates.tolist():
        text = lab.t_lines[rows[tc]].strip()
        if not is_import_line(text) or not _free(lab, u_file, tc):
            continue
        free_ups = by_form.get(fold_form(unvendored_import(text, module_root) if module_root else text, CODE))
        if not free_ups:
            continue
        uc = free_ups.pop(0)
        labelled = pair_label(text, u_lines[u_rows[uc]].strip(), lab.p)
        if labelled is not None:
            lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
            used.add(uc)


def _free(lab: FileLabeller, u_file: int, tc: int) -> bool:
    """Unlabelled, and not inside a span claimed by a region of another upstream file."""
    if lab.result.match[lab.t_rows[tc]] != NONE:
        return False
    owner = int(lab.claims.owner[tc])
    return owner < 0 or lab.claims.claimed[owner].up_file == u_file


def _free_mask(lab: FileLabeller, u_file: int, span: range) -> np.ndarray:
    """:func:`_free` of every content line of ``span`` at once."""
    owner = lab.claims.owner[span.start : span.stop]
    claimed_up = np.array([c.up_file for c in lab.claims.claimed] + [-1], np.int64)
    unlabelled = lab.result.match[lab.t_rows[span.start : span.stop]] == NONE
    return unlabelled & ((owner < 0) | (claimed_up[owner] == u_file))


def _span_arrays(side: Side, start: int, span: range) -> tuple[np.ndarray, np.ndarray]:
    """Kinds and token counts of a file's content lines ``span`` (``start``: the file's first)."""
    return side.kind[start + span.start : start + span.stop], side.ntok[start + span.start : start + span.stop]


def _align(t_keys: list[int], u_keys: list[int]) -> list[tuple[int, int]]:
    """Positions (in the two key lists) of the lines an LCS aligns; negative keys never align."""
    out: list[tuple[int, int]] = []
    for op in Indel.opcodes(t_keys, u_keys):
        if op.tag == "equal":
            out += zip(range(op.src_start, op.src_end), range(op.dest_start, op.dest_end), strict=True)
    return out


class _Keys:
    """Line keys as small integers; a line that may not align gets a key of its own (negative)."""

    def __init__(self) -> None:
        self.ids: dict[tuple[int, str], int] = {}
        self.unique = 0

    def of(self, kind: int, text: str | None) -> int:
        if text is None:
            self.unique -= 1
            return self.unique
        return self.ids.setdefault((kind, text), len(self.ids))


def _align_inside(lab: FileLabeller, statements: _Statements, u_file: int, t_span: range, u_span: range,
                  used: set[int], number: int) -> list[int]:
    """Rule (a): every free line of a stretch between two anchors that aligns, by fold form."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    strip = bool(lab.p.fill_strip_annotations)
    done: list[int] = []
    aligned = _align(*_stretch_keys(lab, u_file, t_span, u_span, used))
    for i, j in aligned:
        tc, uc = t_span[i], u_span[j]
        t_text, u_text = lab.texts(tc, uc, u_rows, u_lines)
        labelled = pair_label(t_text, u_text, lab.p)
        if labelled is None:
            continue
        # Aligned on the fold form: the rule for lines between hits. Aligned only once the
        # annotations are gone: the annotations are the edit, and the line is near as it is.
        kind = lab.target_kind(tc)
        annotated = strip and kind == CODE and fold_form(t_text, kind) != fold_form(u_text, kind)
        if labelled[0] == NEAR and not annotated and not (
                lab.keys_equal(tc, u_file, uc)
                or line_similarity(t_text, u_text, True, lab.p) >= lab.p.near_min_similarity):
            continue
        lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
        done.append(uc)
    done += _edited_lines(lab, statements, u_file, t_span, u_span, aligned, used | set(done), number)
    return done


def _stretch_keys(lab: FileLabeller, u_file: int, t_span: range, u_span: range,
                  used: set[int]) -> tuple[list[int], list[int]]:
    """The keys the free lines of a stretch align on inside a copy (:func:`_align_form`); a line
    not free, or an upstream line already used, gets a key of its own."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    keys = _Keys()
    t_kinds, _ = _span_arrays(lab.target, int(lab.target.file_start[lab.t_file]), t_span)
    strip = bool(lab.p.fill_strip_annotations)
    t_keys = [keys.of(k, _align_form(lab.t_lines[row], k, strip) if ok else None)
              for k, ok, row in zip(t_kinds.tolist(), _free_mask(lab, u_file, t_span).tolist(),
                                    lab.t_rows[t_span.start : t_span.stop].tolist(), strict=True)]
    u_kinds, _ = _span_arrays(lab.upstream, int(lab.upstream.file_start[u_file]), u_span)
    u_keys = [keys.of(k, _align_form(u_lines[row], k, strip) if uc not in used else None)
              for uc, k, row in zip(u_span, u_kinds.tolist(), u_rows[u_span.start : u_span.stop].tolist(), strict=True)]
    return t_keys, u_keys


def _edited_lines(lab: FileLabeller, statements: _Statements, u_file: int, t_span: range, u_span: range,
                  aligned: list[tuple[int, int]], used: set[int], number: int) -> list[int]:
    """Rule (a), second pass: between two lines the alignment paired, the lines left over on
    both sides are lines edited in place (an annotation added, a name or a literal changed, a
    call re-wrapped by a formatter), when neither side is longer than ``fill_edit_max_gap``
    content lines (a longer block is code rewritten there). Such a block can hold new code
    opposite old code, so a pair must reach ``fill_edit_min_similarity``: the most similar pair
    of the block is paired and the parts before and after it are treated the same way (the rule
    of difflib's ``Differ``); what is left between those pairs is aligned by characters as a
    region's gap is (:meth:`FileLabeller.align_gap`: the pieces of a re-wrapped call)."""
    if lab.p.fill_edit_max_gap <= 0:
        return []
    u_rows, u_lines = lab.upstream_lines(u_file)
    bounds = [(-1, -1), *aligned, (len(t_span), len(u_span))]

    def free(tc: int) -> bool:
        return _free(lab, u_file, tc)

    for (ia, ja), (ib, jb) in zip(bounds, bounds[1:], strict=False):
        t_gap = [t_span[i] for i in range(ia + 1, ib) if free(t_span[i])]
        u_gap = [u_span[j] for j in range(ja + 1, jb) if u_span[j] not in used]
        if not t_gap or not u_gap or max(len(t_gap), len(u_gap)) > lab.p.fill_edit_max_gap:
            continue
        if _statement_rule(lab, u_file):
            taken = _edited_statements(lab, statements, u_file, t_gap, u_gap, number)
            t_gap = [tc for tc in t_gap if free(tc)]
            u_gap = [uc for uc in u_gap if uc not in taken]
            if not t_gap or not u_gap:
                continue
        t_texts = [lab.t_lines[lab.t_rows[tc]] for tc in t_gap]
        u_texts = [u_lines[u_rows[uc]] for uc in u_gap]
        best = [(a, b) for a, b in _best_pairs(t_texts, u_texts, lab.p.fill_edit_min_similarity,
                                               lab.p.gap_min_chars, bool(lab.p.fill_strip_annotations))
                if lab.target_kind(t_gap[a]) == lab.upstream_kind(u_file, u_gap[b])]
        for a, b in best:
            labelled = pair_label(t_texts[a].strip(), u_texts[b].strip(), lab.p)
            if labelled is not None:
                lab.set_pair(t_gap[a], u_file, int(u_rows[u_gap[b]]), *labelled, number)
        edges = [(-1, -1), *best, (len(t_gap), len(u_gap))]
        for (a0, b0), (a1, b1) in zip(edges, edges[1:], strict=False):
            rest_t, rest_u = t_gap[a0 + 1 : a1], u_gap[b0 + 1 : b1]
            if rest_t and rest_u:
                lab.align_gap(u_file, number, rest_t, rest_u, u_rows, u_lines, free, lab.p.fill_edit_min_similarity)
    rows = lab.t_rows[t_span.start : t_span.stop]
    mine = (lab.result.up_file[rows] == u_file) & (lab.result.region[rows] == number)
    return sorted({int(uc) for uc in np.searchsorted(u_rows, lab.result.up_row[rows[mine]])} - used)


def _best_pairs(t_texts: list[str], u_texts: list[str], threshold: float,
                min_chars: int, annotations_off: bool = False) -> list[tuple[int, int]]:
    """In-order pairs by repeated best match: the most similar pair (rapidfuzz ``ratio`` of the
    whitespace-folded texts, ties to the first) if it reaches ``threshold``, then the same on
    both sides of it. Lines shorter than ``min_chars`` (``)``, ``try:``) take no part: they are
    the same everywhere (the character alignment after it judges them with their neighbours).
    With ``annotations_off``, a pair also scores the ratio of its two lines without type
    annotations (:func:`~lineage.match.statements.annotation_free`), if that is higher: an
    annotation added is not an edit of what the line does."""
    t_sim, u_sim = [similarity_text(t) for t in t_texts], [similarity_text(u) for u in u_texts]
    scores = process.cdist(t_sim, u_sim, scorer=fuzz.ratio, dtype=np.float32)
    if annotations_off:
        t_free, u_free = [annotation_free(t) for t in t_texts], [annotation_free(u) for u in u_texts]
        bare = process.cdist(t_free, u_free, scorer=fuzz.ratio, dtype=np.float32)
        bare[[not t for t in t_free], :] = 0.0
        bare[:, [not u for u in u_free]] = 0.0
        scores = np.maximum(scores, bare)
    scores[[len(t) < min_chars for t in t_sim], :] = -1.0
    scores[:, [len(u) < min_chars for u in u_sim]] = -1.0
    return best_in_order(scores, threshold * 100)


def _survivors(lab: FileLabeller, u_file: int, t_span: range, u_span: range, used: set[int],
               number: int) -> list[int]:
    """Rule (b): distinctive lines with identical stripped text, aligned in order, each verbatim."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    keys = _Keys()
    # The same keys as before line by line, with the tests on the arrays (free, kind, tokens)
    # made at once; the key ids are given in the same order, so the alignment is the same.
    t_kinds, t_tokens = _span_arrays(lab.target, int(lab.target.file_start[lab.t_file]), t_span)
    t_keys = [keys.of(kind, text if ok and lab.distinctive(text := lab.t_lines[row].strip(), tokens) else None)
              for kind, tokens, ok, row in zip(t_kinds.tolist(), t_tokens.tolist(),
                                               _free_mask(lab, u_file, t_span).tolist(),
                                               lab.t_rows[t_span.start : t_span.stop].tolist(), strict=True)]
    u_kinds, u_tokens = _span_arrays(lab.upstream, int(lab.upstream.file_start[u_file]), u_span)
    u_keys = [keys.of(kind, text if uc not in used and lab.distinctive(text := u_lines[row].strip(), tokens) else None)
              for uc, kind, tokens, row in zip(u_span, u_kinds.tolist(), u_tokens.tolist(),
                                               u_rows[u_span.start : u_span.stop].tolist(), strict=True)]
    done: list[int] = []
    for i, j in _align(t_keys, u_keys):
        tc, uc = t_span[i], u_span[j]
        t_text, u_text = lab.texts(tc, uc, u_rows, u_lines)
        labelled = pair_label(t_text, u_text, lab.p)
        if labelled is not None:
            lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
            done.append(uc)
    return done


_DEF_NAME = re.compile(r"\s*(?:async\s+)?def\s+(\w+)")


def _signature_survivors(lab: FileLabeller, statements: _Statements, u_file: int) -> None:
    """Lone survivors as statements (``fill_signature_survivors``; see its comment in
    :class:`~lineage.match.params.MatchParams`). Once the pair's other rules are done: a target
    ``def`` statement with a free line, whose other lines (if any) are paired with the upstream
    ``def`` statement of the same name, is paired with it when that name is defined once in each
    whole file (``__init__``, ``forward`` of a model file's many classes are not: there the same
    name is another class's interface), the two statements are ``fill_statement_min_similarity``
    alike and the upstream statement lies between the upstream lines of the pair's paired lines
    around it (in order with the copy). Each line goes to the upstream line it copies
    (:func:`_pair_statement`); a parameter the target added stays new."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    # The names first, by a text scan: the statements (tokenised lines) only for the pairs
    # that share one.
    names = statements.target_names_once() & statements.upstream_names_once(u_file)
    if not names:
        return
    t_defs = statements.target_defs(p.fill_statement_max_lines, names)
    u_defs = statements.upstream_defs(u_file, p.fill_statement_max_lines, names)
    found = sorted((t_stmt, u_defs[name]) for name, t_stmt in t_defs.items() if name in u_defs)
    if not found:
        return
    u_rows, _ = lab.upstream_lines(u_file)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    for t_stmt, u_stmt in found:
        if max(len(t_stmt), len(u_stmt)) < 2:
            continue
        free = [tc for tc in t_stmt if _free(lab, u_file, tc)]
        taken = [tc for tc in t_stmt if not _free(lab, u_file, tc)]
        if not free or any(not mine[tc] for tc in taken):
            continue
        taken_uc = set(np.searchsorted(u_rows, r.up_row[rows[taken]]).tolist())
        if not taken_uc <= set(u_stmt):
            continue
        # In order: between the upstream lines of the pair's paired lines before and after it.
        paired = np.flatnonzero(mine)
        before, after = paired[paired < t_stmt[0]], paired[paired > t_stmt[-1]]
        lo = int(np.searchsorted(u_rows, r.up_row[rows[before[-1]]])) if len(before) else -1
        hi = int(np.searchsorted(u_rows, r.up_row[rows[after[0]]])) if len(after) else len(u_rows)
        if not (lo < u_stmt[0] and u_stmt[-1] < hi) or not len(before) + len(after):
            continue
        if _statement_similarity(lab, u_file, t_stmt, u_stmt) < p.fill_statement_min_similarity:
            continue
        number = int(r.region[rows[before[-1] if len(before) else after[0]]])
        if _pair_statement(lab, u_file, t_stmt, u_stmt, number):
            mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)


def increasing_pairs(t: list[int], u: list[int]) -> list[tuple[int, int]]:
    """A longest chain of (t, u) pairs increasing in both, for ``t`` strictly increasing (one
    upstream line per target line): a longest strictly increasing subsequence of ``u``, by
    patience sorting, O(n log n)."""
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


class _Statements:
    """Statement numbers (:func:`~lineage.match.statements.statement_ids`) of the labeller's
    target file and of its upstream files, made once each per statement length limit
    (``fill_rewrapped_max_lines``, ``fill_statement_max_lines``), with each statement's size; an
    upstream file's once per run, kept in its :class:`~lineage.match.hits.Side`."""

    def __init__(self, lab: FileLabeller) -> None:
        self.lab = lab
        self._target: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._target_names: frozenset[str] | None = None

    @staticmethod
    def _of(side: Side, start: int, lines: list[str], max_lines: int) -> tuple[np.ndarray, np.ndarray]:
        ids = statement_ids(lines, side.kind[start : start + len(lines)].tolist(), max_lines)
        return ids, np.bincount(ids[ids >= 0], minlength=int(ids.max(initial=-1)) + 1)

    def target(self, max_lines: int) -> tuple[np.ndarray, np.ndarray]:
        if max_lines not in self._target:
            lab = self.lab
            lines = [lab.t_lines[row] for row in lab.t_rows.tolist()]
            self._target[max_lines] = self._of(lab.target, int(lab.target.file_start[lab.t_file]), lines, max_lines)
        return self._target[max_lines]

    @staticmethod
    def _names_once(lines: list[str]) -> frozenset[str]:
        """The names a file defines once (``def``/``async def``): a text scan, no tokens."""
        counts = Counter(m.group(1) for line in lines if "def" in line and (m := _DEF_NAME.match(line)))
        return frozenset(name for name, n in counts.items() if n == 1)

    @staticmethod
    def _defs(ids: np.ndarray, sizes: np.ndarray, lines: list[str], names: frozenset[str]) -> dict[str, list[int]]:
        """The ``def`` statements of a file named in ``names``, by name."""
        named: dict[str, list[int]] = {}
        for stmt in whole_statements(ids, sizes, range(len(lines))):
            head = lines[stmt[0]]
            if "def" in head and (match := _DEF_NAME.match(head)) and match.group(1) in names:
                named[match.group(1)] = stmt
        return named

    def _target_lines(self) -> list[str]:
        return [self.lab.t_lines[row] for row in self.lab.t_rows.tolist()]

    def _upstream_lines(self, u_file: int) -> list[str]:
        u_rows, u_lines = self.lab.upstream_lines(u_file)
        return [u_lines[row] for row in u_rows.tolist()]

    def target_names_once(self) -> frozenset[str]:
        if self._target_names is None:
            self._target_names = self._names_once(self._target_lines())
        return self._target_names

    def upstream_names_once(self, u_file: int) -> frozenset[str]:
        memo = self.lab.upstream.def_names_memo  # kept for the run, as the statements are
        if u_file not in memo:
            memo[u_file] = self._names_once(self._upstream_lines(u_file))
        return memo[u_file]

    def target_defs(self, max_lines: int, names: frozenset[str]) -> dict[str, list[int]]:
        """The target file's ``def`` statements of these names (each defined once in it)."""
        return self._defs(*self.target(max_lines), self._target_lines(), names)

    def upstream_defs(self, u_file: int, max_lines: int, names: frozenset[str]) -> dict[str, list[int]]:
        return self._defs(*self.upstream(u_file, max_lines), self._upstream_lines(u_file), names)

    def upstream(self, u_file: int, max_lines: int) -> tuple[np.ndarray, np.ndarray]:
        memo = self.lab.upstream.statement_memo  # shared by every target file of the run
        if (u_file, max_lines) not in memo:
            lab = self.lab
            u_rows, u_lines = lab.upstream_lines(u_file)
            lines = [u_lines[row] for row in u_rows.tolist()]
            memo[(u_file, max_lines)] = self._of(lab.upstream, int(lab.upstream.file_start[u_file]), lines, max_lines)
        return memo[(u_file, max_lines)]


def _pair_statement(lab: FileLabeller, u_file: int, t_stmt: list[int], u_stmt: list[int], number: int) -> bool:
    """Pair the free lines of target statement ``t_stmt`` with the lines of upstream statement
    ``u_stmt`` they copy (:func:`~lineage.match.statements.line_partners`); True if any was."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    t_texts = [lab.t_lines[lab.t_rows[tc]] for tc in t_stmt]
    u_texts = [u_lines[u_rows[uc]] for uc in u_stmt]
    any_paired = False
    partners = line_partners(t_texts, u_texts, lab.p.fill_statement_min_word_share,
                             bool(lab.p.fill_strip_annotations),
                             bool(lab.p.fill_statement_kept_keywords) and _own_file(lab, u_file))
    for tc, text, j in zip(t_stmt, t_texts, partners, strict=True):
        if j is None or not _free(lab, u_file, tc):
            continue
        labelled = pair_label(text.strip(), u_texts[j].strip(), lab.p)
        if labelled is None and lab.p.fill_strip_annotations:
            # A piece that only the annotations set apart (``reason: Optional[str] = None,``
            # of ``def delete_channel(self, channel_id, *, reason=None):``) is near as its
            # pieces compare without them.
            bare = pair_label(piece_text(text), piece_text(u_texts[j]), lab.p)
            labelled = (NEAR, min(bare[1], 0.999)) if bare is not None else None
        if labelled is not None:
            lab.set_pair(tc, u_file, int(u_rows[u_stmt[j]]), *labelled, number)
            any_paired = True
    return any_paired


def _statement_similarity(lab: FileLabeller, u_file: int, t_stmt: list[int], u_stmt: list[int]) -> float:
    u_rows, u_lines = lab.upstream_lines(u_file)
    keep = not lab.p.fill_strip_annotations
    t_key = statement_key([lab.t_lines[lab.t_rows[tc]] for tc in t_stmt], keep)
    u_key = statement_key([u_lines[u_rows[uc]] for uc in u_stmt], keep)
    return fuzz.ratio(t_key, u_key) / 100.0


def _edited_statements(lab: FileLabeller, statements: _Statements, u_file: int, t_gap: list[int],
                       u_gap: list[int], number: int) -> set[int]:
    """Statements edited in place (:mod:`lineage.match.statements`): in a stretch of free lines
    between two aligned lines, the whole statements on both sides are paired by their most
    similar pairs (``fill_statement_min_similarity`` of their joined tokens), at least one of the
    two of several lines (two one-line statements are the line rule's); each line of a target
    statement so paired is paired with the upstream line it copies. Returns the upstream lines
    of the statements paired."""
    limit = lab.p.fill_statement_max_lines
    (t_ids, t_sizes), (u_ids, u_sizes) = statements.target(limit), statements.upstream(u_file, limit)
    t_stmts = whole_statements(t_ids, t_sizes, t_gap)
    u_stmts = whole_statements(u_ids, u_sizes, u_gap)
    if not t_stmts or not u_stmts or all(len(s) == 1 for s in t_stmts + u_stmts):
        return set()
    u_rows, u_lines = lab.upstream_lines(u_file)
    keep = not lab.p.fill_strip_annotations
    t_keys = [statement_key([lab.t_lines[lab.t_rows[tc]] for tc in s], keep) for s in t_stmts]
    u_keys = [statement_key([u_lines[u_rows[uc]] for uc in s], keep) for s in u_stmts]
    scores = process.cdist(t_keys, u_keys, scorer=fuzz.ratio, dtype=np.float32) / 100.0
    t_single = np.array([len(s) == 1 for s in t_stmts])
    u_single = np.array([len(s) == 1 for s in u_stmts])
    scores[np.outer(t_single, u_single)] = -1.0
    if lab.p.fill_statement_same_module:
        t_mods = [import_module(lab.t_lines[lab.t_rows[st[0]]]) for st in t_stmts]
        u_mods = [import_module(u_lines[u_rows[st[0]]]) for st in u_stmts]
        for a, tm in enumerate(t_mods):
            for b, um in enumerate(u_mods):
                if (tm is not None or um is not None) and tm != um:
                    scores[a, b] = -1.0
    taken: set[int] = set()
    for a, b in best_in_order(scores, lab.p.fill_statement_min_similarity):
        if len(t_stmts[a]) == 1 and len(u_stmts[b]) == 1:
            continue
        if _pair_statement(lab, u_file, t_stmts[a], u_stmts[b], number):
            taken.update(u_stmts[b])
    return taken


def _complete_statements(lab: FileLabeller, statements: _Statements, u_file: int) -> None:
    """A statement some of whose lines are paired with lines of one upstream statement, and the
    rest free (the region's character alignment paired the long pieces of a re-wrapped call, not
    its ``)`` or ``self,``): when the two statements are at least ``fill_statement_min_similarity``
    alike, its free lines are paired with the upstream statement's lines they copy."""
    r, rows = lab.result, lab.t_rows
    limit = lab.p.fill_statement_max_lines
    (t_ids, _), (u_ids, _) = statements.target(limit), statements.upstream(u_file, limit)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file) & (t_ids >= 0)
    if not mine.any():
        return
    u_rows, _ = lab.upstream_lines(u_file)
    partial: dict[int, set[int]] = {}
    for tc in np.flatnonzero(mine).tolist():
        partial.setdefault(int(t_ids[tc]), set()).add(int(u_ids[np.searchsorted(u_rows, r.up_row[rows[tc]])]))
    for sid, u_sids in partial.items():
        t_stmt = np.flatnonzero(t_ids == sid).tolist()
        if len(u_sids) != 1 or -1 in u_sids or not any(_free(lab, u_file, tc) for tc in t_stmt):
            continue
        u_stmt = np.flatnonzero(u_ids == next(iter(u_sids))).tolist()
        if lab.p.fill_statement_same_module and import_module(lab.t_lines[rows[t_stmt[0]]]) != import_module(
                lab.upstream_lines(u_file)[1][u_rows[u_stmt[0]]]):
            continue
        if _statement_similarity(lab, u_file, t_stmt, u_stmt) < lab.p.fill_statement_min_similarity:
            continue
        number = int(r.region[rows[next(tc for tc in t_stmt if mine[tc])]])
        _pair_statement(lab, u_file, t_stmt, u_stmt, number)


def _split_at_rewrapped(lab: FileLabeller, statements: _Statements, u_file: int, t_span: range, u_span: range,
                        used: set[int], number: int) -> list[tuple[range, range]]:
    """Statements re-wrapped over other line breaks (the same tokens, without annotations when
    ``fill_strip_annotations``), of several lines on one side and found once on each side of
    a stretch between two paired lines, are paired first, and the stretch is cut at them: each
    piece is then aligned on its own. A re-wrapped statement has no line that aligns by its
    fold form, so in a stretch where new code was inserted nothing else would say where the
    old code stands (``return self.request(`` / ``Route(...)`` / ``)`` opposite one line).
    Returns the pieces (the whole stretch when there is no such statement)."""
    if lab.p.fill_rewrapped_max_lines <= 0:
        return [(t_span, u_span)]
    limit = lab.p.fill_rewrapped_max_lines
    (t_ids, t_sizes), (u_ids, u_sizes) = statements.target(limit), statements.upstream(u_file, limit)
    u_rows, u_lines = lab.upstream_lines(u_file)
    strays = _strays(lab, u_file, t_span, u_span, u_rows) if lab.p.fill_rewrapped_strays else set()
    t_free = [tc for tc in t_span if tc in strays or _free(lab, u_file, tc)]
    t_stmts = whole_statements(t_ids, t_sizes, t_free)
    u_stmts = whole_statements(u_ids, u_sizes, [uc for uc in u_span if uc not in used])
    if not t_stmts or not u_stmts:
        return [(t_span, u_span)]
    keep = not lab.p.fill_strip_annotations
    t_keys = [statement_key([lab.t_lines[lab.t_rows[tc]] for tc in st], keep) for st in t_stmts]
    u_keys = [statement_key([u_lines[u_rows[uc]] for uc in st], keep) for st in u_stmts]
    t_count, u_count = Counter(t_keys), Counter(u_keys)
    u_at = {key: b for b, key in enumerate(u_keys) if u_count[key] == 1 and t_count[key] == 1
            and len(key.replace(" ", "")) >= lab.p.rewrap_min_chars}
    found = [(a, u_at[key]) for a, key in enumerate(t_keys)
             if key in u_at and (len(t_stmts[a]) > 1 or len(u_stmts[u_at[key]]) > 1)]
    if found:
        # A statement found once on each side can still be a moved one: the lines that align
        # in the stretch by their fold form say where the rest of the copy stands, and a
        # statement pair that would put more of them out of order than it has lines is not cut
        # at (``first_kv_shared_layer_idx = (...)`` moved below a copied ``o_proj`` call).
        aligned = np.array([(t_span[i], u_span[j]) for i, j in
                            _align(*_stretch_keys(lab, u_file, t_span, u_span, used))], np.int64).reshape(-1, 2)
        found = [(a, b) for a, b in found
                 if int((((aligned[:, 0] < t_stmts[a][0]) & (aligned[:, 1] > u_stmts[b][-1]))
                         | ((aligned[:, 0] > t_stmts[a][-1]) & (aligned[:, 1] < u_stmts[b][0]))).sum())
                 <= len(t_stmts[a])]
    chain = increasing_pairs([a for a, _ in found], [b for _, b in found])
    pieces: list[tuple[range, range]] = []
    t_at, u_from = t_span.start, u_span.start
    for a, b in chain:
        kept = [(tc, _pair_of(lab, tc)) for tc in t_stmts[a] if tc in strays]
        for tc, _ in kept:
            lab.unpair(tc)
        paired = _pair_statement(lab, u_file, t_stmts[a], u_stmts[b], number)
        for tc, pair in kept:  # a stray the statement did not take keeps its pair
            if lab.result.match[lab.t_rows[tc]] == NONE:
                lab.set_pair(tc, *pair)
        if not paired:
            continue
        pieces.append((range(t_at, t_stmts[a][0]), range(u_from, u_stmts[b][0])))
        t_at, u_from = t_stmts[a][-1] + 1, u_stmts[b][-1] + 1
    pieces.append((range(t_at, t_span.stop), range(u_from, u_span.stop)))
    return [(t, u) for t, u in pieces if t and u]


def _strays(lab: FileLabeller, u_file: int, t_span: range, u_span: range, u_rows: np.ndarray) -> set[int]:
    """Lines of a stretch between two anchors paired alone with this upstream file, with a line
    outside the stretch's upstream side: out of the pair's order, a piece of a re-wrapped
    statement that also stands elsewhere upstream (``bound_setattr(`` paired with the opening
    line of another call of it) and that :func:`_split_at_rewrapped` may pair again. Alone: no
    neighbour is paired with the next or previous upstream line (a run of such lines is another
    part of the upstream file copied here, out of the anchors' order but a copy of its own)."""
    r, rows = lab.result, lab.t_rows
    span_rows = rows[t_span.start : t_span.stop]
    mine = (r.match[span_rows] != NONE) & (r.up_file[span_rows] == u_file)
    if not mine.any():
        return set()
    strays: set[int] = set()
    for k in np.flatnonzero(mine).tolist():
        tc = t_span.start + k
        up_row = int(r.up_row[rows[tc]])
        uc = int(np.searchsorted(u_rows, up_row))
        if u_span.start <= uc < u_span.stop:
            continue
        alone = True
        for step in (-1, 1):
            if 0 <= tc + step < len(rows):
                row = rows[tc + step]
                if (r.match[row] != NONE and r.up_file[row] == u_file
                        and 0 <= uc + step < len(u_rows) and int(r.up_row[row]) == int(u_rows[uc + step])):
                    alone = False
        if alone:
            strays.add(tc)
    return strays


def _pair_of(lab: FileLabeller, tc: int) -> tuple[int, int, int, float, int]:
    """The pair of content line ``tc`` as :meth:`FileLabeller.set_pair` takes it."""
    r, row = lab.result, lab.t_rows[tc]
    return int(r.up_file[row]), int(r.up_row[row]), int(r.match[row]), float(r.similarity[row]), int(r.region[row])


def _edge_blocks(lab: FileLabeller, u_file: int, t_span: range, u_span: range, used: set[int],
                 number: int) -> list[int]:
    """Before the pair's first paired line and after its last, only one side of a stretch is
    bounded by the copy, so a line there aligns by chance as readily as by descent, and only
    lone survivors are paired. A block of at least ``fill_edge_block_lines`` consecutive code
    lines that align, in order, with as many consecutive upstream lines (by the key lines
    align on inside a copy: fold form, without annotations) is no chance: a module's
    ``__all__`` or constants re-quoted by a formatter (``"Status",`` <- ``'Status',``) have
    no line identical to upstream and seed nothing, and sit above the first copied function."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    strip = bool(lab.p.fill_strip_annotations)
    keys = _Keys()
    t_kinds, _ = _span_arrays(lab.target, int(lab.target.file_start[lab.t_file]), t_span)
    t_keys = [keys.of(k, _align_form(lab.t_lines[row], k, strip) if ok and k == CODE else None)
              for k, ok, row in zip(t_kinds.tolist(), _free_mask(lab, u_file, t_span).tolist(),
                                    lab.t_rows[t_span.start : t_span.stop].tolist(), strict=True)]
    u_kinds, _ = _span_arrays(lab.upstream, int(lab.upstream.file_start[u_file]), u_span)
    u_keys = [keys.of(k, _align_form(u_lines[row], k, strip) if uc not in used and k == CODE else None)
              for uc, k, row in zip(u_span, u_kinds.tolist(), u_rows[u_span.start : u_span.stop].tolist(), strict=True)]
    aligned = _align(t_keys, u_keys)
    blocks: list[list[tuple[int, int]]] = []
    for i, j in aligned:
        if blocks and blocks[-1][-1] == (i - 1, j - 1):
            blocks[-1].append((i, j))
        else:
            blocks.append([(i, j)])
    done: list[int] = []
    for block in blocks:
        if len(block) < lab.p.fill_edge_block_lines:
            continue
        for i, j in block:
            tc, uc = t_span[i], u_span[j]
            labelled = pair_label(*lab.texts(tc, uc, u_rows, u_lines), lab.p)
            if labelled is not None:
                lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
                done.append(uc)
    return done
