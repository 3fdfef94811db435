"""The fill's rule (a), alignment inside a copy (step 6, :mod:`lineage.match.fill`; its reasons
below): between two anchors, every free line that aligns by its fold form is paired
(:func:`align_inside`); between two lines so aligned, the lines edited in place are paired by
their most similar pairs and then by characters (:func:`_edited_lines`).

* **Alignment inside a copy** (:func:`~lineage.match.fill_inside.align_inside`). Between two
  anchors, when neither side of the stretch is longer than ``align_max_gap`` content lines, every
  free line that aligns is paired, whatever its form: it sits in order between hits of a certain
  pair. Lines align by their fold form (:func:`~lineage.match.fill_lines.fold_form`: tokens
  without a trailing comment, one quote character, no trailing comma: the edits formatters make).
  :func:`~lineage.match.labels.pair_label` says verbatim (identical stripped text) or near, and a
  near pair must pass the rule for lines between hits (same normal or abstract form, or
  ``near_min_similarity``). Then, between two lines so aligned, the lines left on both sides
  (edited in place: an annotation added, a name or a literal changed, a call re-wrapped) are
  paired when neither side exceeds ``fill_edit_max_gap`` lines, by their most similar pairs
  (``fill_edit_min_similarity``) and then by the character alignment of a region's gap
  (:func:`~lineage.match.fill_inside._edited_lines`). In a file at the upstream file's place, a
  block over that bound on one side only is code added (or removed) around old lines edited in
  place: its code lines are paired by their most similar pairs at
  ``fill_unequal_edit_min_similarity`` (:func:`~lineage.match.fill_inside._unequal_edits`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import numpy as np
from rapidfuzz import fuzz, process

from lineage.index import CODE
from lineage.index.normalise import similarity_text
from lineage.match.blocks import function_end
from lineage.match.file_statements import Statements, bare_name
from lineage.match.fill_lines import (
    align_keys,
    fold_form,
    increasing_pairs,
    is_free,
    statement_rule,
    stretch_keys,
)
from lineage.match.fill_statements import edited_statements
from lineage.match.labels import FileLabeller, line_similarity, pair_label
from lineage.match.records import NEAR, NONE
from lineage.match.statements import (
    added_arguments,
    annotation_free,
    best_in_order,
    name_share,
)


def align_inside(lab: FileLabeller, statements: Statements, u_file: int, t_span: range, u_span: range,
                  used: set[int], number: int, min_name_share: float = 0.0, placed: bool = False) -> list[int]:
    """Rule (a): every free line of a stretch between two anchors that aligns, by fold form.
    ``min_name_share``: the floor of :func:`_edited_lines`'s pairs (a signature's body);
    ``placed``: the target file stands at the upstream file's place (:func:`_unequal_edits`)."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    strip = bool(lab.p.fill_strip_annotations)
    done: list[int] = []
    aligned = align_keys(*stretch_keys(lab, u_file, t_span, u_span, used))
    for i, j in aligned:
        tc, uc = t_span[i], u_span[j]
        t_text, u_text = lab.texts(tc, uc, u_rows, u_lines)
        labelled = pair_label(t_text, u_text, lab.p, lab.packages(u_file))
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
    done += _edited_lines(lab, statements, u_file, t_span, u_span, aligned, used | set(done), number,
                          min_name_share, placed)
    return done


def _edited_lines(lab: FileLabeller, statements: Statements, u_file: int, t_span: range, u_span: range,
                  aligned: list[tuple[int, int]], used: set[int], number: int,
                  min_name_share: float = 0.0, placed: bool = False) -> list[int]:
    """Rule (a), second pass: between two lines the alignment paired, the lines left over on
    both sides are lines edited in place (an annotation added, a name or a literal changed, a
    call re-wrapped by a formatter), when neither side is longer than ``fill_edit_max_gap``
    content lines (a longer block is code rewritten there). Such a block can hold new code
    opposite old code, so a pair must reach ``fill_edit_min_similarity``: the most similar pair
    of the block is paired and the parts before and after it are treated the same way (the rule
    of difflib's ``Differ``); what is left between those pairs is aligned by characters as a
    region's gap is (:meth:`FileLabeller.align_gap`: the pieces of a re-wrapped call). With
    ``min_name_share`` (``fill_body_min_name_share``, a signature's body), a code line so paired
    must share that share of its names with its partner (:func:`_names_kept`; the statement
    rule's pairs have their own word share): a pair under it is no candidate, and a line it
    leaves unpaired that was the most similar to a line, or that the character alignment
    placed, may not be paired with ``u_file`` by a later rule (:attr:`FileLabeller.blocked`).
    A block over the bound on one side only, in a file ``placed`` at the upstream file's place,
    is read by :func:`_unequal_edits`."""
    if lab.p.fill_edit_max_gap <= 0:
        return []
    u_rows, u_lines = lab.upstream_lines(u_file)
    bounds = [(-1, -1), *aligned, (len(t_span), len(u_span))]

    def free(tc: int) -> bool:
        return is_free(lab, u_file, tc)

    refused: set[int] = set()
    for (ia, ja), (ib, jb) in zip(bounds, bounds[1:], strict=False):
        t_gap = [t_span[i] for i in range(ia + 1, ib) if free(t_span[i])]
        u_gap = [u_span[j] for j in range(ja + 1, jb) if u_span[j] not in used]
        if not t_gap or not u_gap:
            continue
        if max(len(t_gap), len(u_gap)) > lab.p.fill_edit_max_gap:
            if placed and min_name_share <= 0 and min(len(t_gap), len(u_gap)) <= lab.p.fill_edit_max_gap:
                _unequal_edits(lab, statements, u_file, t_gap, u_gap, used, number)
            continue
        if statement_rule(lab, u_file):
            taken = edited_statements(lab, statements, u_file, t_gap, u_gap, number)
            t_gap = [tc for tc in t_gap if free(tc)]
            u_gap = [uc for uc in u_gap if uc not in taken]
            if not t_gap or not u_gap:
                continue
        t_texts = [lab.t_lines[lab.t_rows[tc]] for tc in t_gap]
        u_texts = [u_lines[u_rows[uc]] for uc in u_gap]
        args = (lab.p.fill_edit_min_similarity, lab.p.gap_min_chars, bool(lab.p.fill_strip_annotations),
                bool(lab.p.fill_added_arguments))
        barred = None
        if min_name_share > 0:
            barred = np.array([[not _names_kept(lab, tc, t, u, min_name_share) for u in u_texts]
                               for tc, t in zip(t_gap, t_texts, strict=True)], bool).reshape(len(t_gap), len(u_gap))
        other = other_named_defs(lab, statements, u_file, t_gap, u_gap, used) if lab.p.fill_edit_own_name_defs else None
        best = [(a, b) for a, b in _best_pairs(t_texts, u_texts, *args,
                                               barred=barred if other is None else other if barred is None
                                               else barred | other)
                if lab.target_kind(t_gap[a]) == lab.upstream_kind(u_file, u_gap[b])]
        if barred is not None and barred.any():
            # a line whose most similar partner the floor took away: another body's line (not
            # one of a definition of another name: its own definition stands elsewhere)
            refused.update(t_gap[a] for a, b in _best_pairs(t_texts, u_texts, *args, barred=other) if barred[a, b])
            refused.difference_update(t_gap[a] for a, _ in best)
        for a, b in best:
            labelled = pair_label(t_texts[a].strip(), u_texts[b].strip(), lab.p, lab.packages(u_file))
            if labelled is not None:
                lab.set_pair(t_gap[a], u_file, int(u_rows[u_gap[b]]), *labelled, number)
        edges = [(-1, -1), *best, (len(t_gap), len(u_gap))]
        for (a0, b0), (a1, b1) in zip(edges, edges[1:], strict=False):
            rest_t, rest_u = t_gap[a0 + 1 : a1], u_gap[b0 + 1 : b1]
            if rest_t and rest_u:
                lab.align_gap(u_file, number, rest_t, rest_u, u_rows, u_lines, free, lab.p.fill_edit_min_similarity)
                if other is not None:  # nor by characters
                    for a, b in zip(*np.nonzero(other), strict=True):
                        row = lab.t_rows[t_gap[a]]
                        if lab.result.up_file[row] == u_file and lab.result.up_row[row] == u_rows[u_gap[b]] \
                                and lab.result.match[row] != NONE:
                            lab.unpair(t_gap[a])
                for tc in rest_t if min_name_share > 0 else ():
                    row = lab.t_rows[tc]
                    if lab.result.match[row] != NONE and not _names_kept(
                            lab, tc, lab.t_lines[row], u_lines[lab.result.up_row[row]], min_name_share):
                        lab.unpair(tc)
                        refused.add(tc)
    # The floor's refusals stay this upstream file's no-copies: a later rule reading the same
    # stretch (``late_edits``) would pair them again by similarity alone.
    for tc in refused:
        if free(tc):
            lab.blocked.setdefault(u_file, set()).add(tc)
    rows = lab.t_rows[t_span.start : t_span.stop]
    mine = (lab.result.up_file[rows] == u_file) & (lab.result.region[rows] == number)
    return sorted({int(uc) for uc in np.searchsorted(u_rows, lab.result.up_row[rows[mine]])} - used)


def other_named_defs(lab: FileLabeller, statements: Statements, u_file: int, t_gap: list[int], u_gap: list[int],
                     used: set[int]) -> np.ndarray | None:
    """The (target line, upstream line) pairs of a stretch's edited lines that are a ``def`` and
    a ``def`` of another name while the upstream file defines the target's own name, free
    (``fill_edit_own_name_defs``; read by :func:`_edited_lines` and :func:`_unequal_edits`): a
    matrix of the two sides, None when there is none. Names are
    qualified by the classes around them (``def BaseCursor.close``), each defined once in its
    file (:meth:`Statements.target_qualified_defs`); a line paired with ``u_file`` in this
    target file, or in ``used``, is not free. The other way round (the target file defines the
    upstream's name) is not barred: the identical-twin rule gives such a header to the target's
    own definition after the fill (:mod:`lineage.match.identical_twins`), and a first draft that
    barred it too left sglang's ``async def async_request_openai_completions(`` none, the pair
    that rule moves to it never made."""
    t_defs = [k for k, tc in enumerate(t_gap) if "def" in lab.t_lines[lab.t_rows[tc]]]
    if not t_defs:
        return None
    u_rows, u_lines = lab.upstream_lines(u_file)
    u_defs = [k for k, uc in enumerate(u_gap) if "def" in u_lines[u_rows[uc]]]
    if not u_defs:
        return None
    max_lines = lab.p.fill_statement_max_lines
    t_keys = {stmt[0]: key for key, stmt in statements.target_qualified_defs(max_lines).items()
              if key.startswith("def ")}
    u_qualified = statements.upstream_qualified_defs(u_file, max_lines)
    u_keys = {stmt[0]: key for key, stmt in u_qualified.items() if key.startswith("def ")}
    r, rows = lab.result, lab.t_rows
    taken = set(r.up_row[rows[(r.match[rows] != NONE) & (r.up_file[rows] == u_file)]].tolist())
    barred = np.zeros((len(t_gap), len(u_gap)), bool)
    pairs = [(a, b, t_keys.get(t_gap[a]), u_keys.get(u_gap[b])) for a in t_defs for b in u_defs]
    for a, b, mine, theirs in pairs:
        if mine is None or theirs is None or bare_name(mine) == bare_name(theirs):
            continue
        own = u_qualified.get(mine)  # the upstream definition of the target's name
        if own is not None and own[0] not in used and int(u_rows[own[0]]) not in taken:
            barred[a, b] = True
    return barred if barred.any() else None


def _unequal_edits(lab: FileLabeller, statements: Statements, u_file: int, t_gap: list[int], u_gap: list[int],
                   used: set[int], number: int) -> None:
    """Old lines edited in place among code added around them (``fill_placed_unequal_edits``).

    A package copied years ago and edited since (a fork, a vendored copy kept up by hand) adds
    code inside its old functions: a new branch, a new argument's handling, a helper's body
    written between two lines it kept. Between two lines rule (a) aligned, the target side of
    the block is then long and the upstream side short, and the old lines among the new ones
    are still edited in place (``if avatar is not MISSING:`` <- ``if avatar is not None:``,
    ``return self.request(route, form=form, files=files)`` <- ``return self.request(r, form=
    form, files=files)``, ``def callback(`` exploded above its new annotations: nextcord 2.6.0
    against discord.py 1.7.0); the other way, code removed around kept lines (``class
    AssetMixin:`` <- ``class Asset:``, the old class's body gone). :func:`_edited_lines` reads
    no block either side of which is over ``fill_edit_max_gap``, since such a block holds new
    code opposite old code. Where the pair says the target file is the upstream file's later
    version (at its place: ``placed``), a block whose short side is within that bound is read
    here: its code lines are paired by their most similar pairs in order (:func:`_best_pairs`,
    annotations off) at the higher floor ``fill_unequal_edit_min_similarity``, and nothing by
    character alignment (on a long side it would place the short side's lines anywhere), and a
    code line must keep ``fill_body_min_name_share`` of its names (:func:`_names_kept`): a long
    block of new code holds lines of the old ones' shape with other names (``both, _ =
    self.both_proj(x)`` opposite ``left, _ = self.left_proj(x)``, a merged projection). Only
    at the upstream file's place: two files of one name at different places (a model file of
    one serving engine and another's) are parallel implementations, whose long blocks hold
    lines as alike by the shape of the code they share (``def forward_musa(`` <-
    ``def forward_cuda(``, the sglang/vLLM pair's same-name files, with the rule read in every
    file of the upstream file's name). A ``def`` is not paired with a ``def`` of another name
    while the upstream file's own definition of its name is free (:func:`other_named_defs`, with
    ``fill_edit_own_name_defs``, as in :func:`_edited_lines`): a function the fork moved into a
    long block of new code is that function, not the upstream one it stands opposite."""
    p = lab.p
    u_rows, u_lines = lab.upstream_lines(u_file)
    t_texts = [lab.t_lines[lab.t_rows[tc]] for tc in t_gap]
    u_texts = [u_lines[u_rows[uc]] for uc in u_gap]
    other = other_named_defs(lab, statements, u_file, t_gap, u_gap, used) if p.fill_edit_own_name_defs else None

    def refused(a: int, b: int) -> bool:
        # the name floor read only for pairs the similarity floor lets through: one side of the
        # block is unbounded, and a pair below the floor is never paired whether barred or not
        return bool(other is not None and other[a, b]) or not _names_kept(
            lab, t_gap[a], t_texts[a], u_texts[b], p.fill_body_min_name_share)

    for a, b in _best_pairs(t_texts, u_texts, p.fill_unequal_edit_min_similarity, p.gap_min_chars,
                            bool(p.fill_strip_annotations), refused=refused):
        if lab.target_kind(t_gap[a]) != CODE or lab.upstream_kind(u_file, u_gap[b]) != CODE:
            continue  # prose in a long block: a docstring's lines are alike by their words
        labelled = pair_label(t_texts[a].strip(), u_texts[b].strip(), p, lab.packages(u_file))
        if labelled is not None:
            lab.set_pair(t_gap[a], u_file, int(u_rows[u_gap[b]]), *labelled, number)


def _names_kept(lab: FileLabeller, tc: int, t_text: str, u_text: str, floor: float) -> bool:
    """Whether target content line ``tc`` (``t_text``), paired with ``u_text`` as edited in
    place, passes the name floor: off at 0, prose is not held to it, nor a line of no name."""
    if floor <= 0 or lab.target_kind(tc) != CODE:
        return True
    share = name_share(t_text, u_text)
    return share is None or share >= floor


_WORD_END = re.compile(r"[ ([{]")


def _first_word(text: str) -> str:
    """A line's first word, as :func:`_best_pairs` compares two lines by it: up to its first
    space or opening bracket (a call's name, a keyword)."""
    return _WORD_END.split(text, maxsplit=1)[0]


def _best_pairs(t_texts: list[str], u_texts: list[str], threshold: float,
                min_chars: int, annotations_off: bool = False, arguments: bool = False,
                barred: np.ndarray | None = None,
                refused: Callable[[int, int], bool] | None = None) -> list[tuple[int, int]]:
    """In-order pairs by repeated best match: the most similar pair (rapidfuzz ``ratio`` of the
    whitespace-folded texts, ties to the first) if it reaches ``threshold``, then the same on
    both sides of it. Lines shorter than ``min_chars`` (``)``, ``try:``) take no part: they are
    the same everywhere (the character alignment after it judges them with their neighbours).
    With ``annotations_off``, a pair also scores the ratio of its two lines without type
    annotations (:func:`~lineage.match.statements.annotation_free`), if that is higher: an
    annotation added is not an edit of what the line does. With ``arguments``
    (``fill_added_arguments``), a target line that is the upstream line with arguments added
    (:func:`~lineage.match.statements.added_arguments`) scores at least ``threshold``. A pair
    ``barred`` (a matrix of the two sides) is none, and so is a pair reaching ``threshold`` for
    which ``refused(a, b)`` holds (asked of those pairs only: one below it is never taken)."""
    t_sim, u_sim = [similarity_text(t) for t in t_texts], [similarity_text(u) for u in u_texts]
    scores = process.cdist(t_sim, u_sim, scorer=fuzz.ratio, dtype=np.float32)
    if annotations_off:
        t_free, u_free = [annotation_free(t) for t in t_texts], [annotation_free(u) for u in u_texts]
        bare = process.cdist(t_free, u_free, scorer=fuzz.ratio, dtype=np.float32)
        bare[[not t for t in t_free], :] = 0.0
        bare[:, [not u for u in u_free]] = 0.0
        scores = np.maximum(scores, bare)
    if arguments:
        # Only a pair whose target line is the longer and starts with the same word can be one:
        # those found on the whole matrix at once, then tested one by one. The word ends at a
        # space or an opening bracket: ``self.clear(views=False)`` <- ``self.clear()`` has no space.
        words: dict[str, int] = {}
        t_word = np.array([words.setdefault(_first_word(t), len(words)) for t in t_sim], np.int64)
        u_word = np.array([words.setdefault(_first_word(u), len(words)) for u in u_sim], np.int64)
        t_len, u_len = np.array([len(t) for t in t_sim]), np.array([len(u) for u in u_sim])
        maybe = (scores < threshold * 100) & (t_word[:, None] == u_word[None, :]) & (t_len[:, None] > u_len[None, :])
        for a, b in zip(*np.nonzero(maybe), strict=True):
            if added_arguments(t_texts[a], u_texts[b]):
                scores[a, b] = threshold * 100
    scores[[len(t) < min_chars for t in t_sim], :] = -1.0
    scores[:, [len(u) < min_chars for u in u_sim]] = -1.0
    if barred is not None:
        scores[barred] = -1.0
    if refused is not None:
        for a, b in zip(*np.nonzero(scores >= threshold * 100), strict=True):
            if refused(int(a), int(b)):
                scores[a, b] = -1.0
    return best_in_order(scores, threshold * 100)


def late_edits(lab: FileLabeller, statements: Statements, u_file: int) -> None:
    """Lines edited in place between pairs the later fill rules made (``fill_late_edit_max_gap``).

    Rule (a) pairs the edited lines between two lines it aligned itself; the statement, signature
    and shape rules run after it and pair more lines (a re-typed signature, a re-wrapped call),
    and the lines between two of those were never looked at: ``return Permissions(int(data))``
    <- ``return Permissions(data)`` stood alone between two typed ``def _transform_...`` headers
    the signature rule paired (``nextcord/audit_logs.py``). In the pair's final chain of lines
    in order on both sides, a stretch of at most this many content lines on each side is read
    as rule (a)'s second pass reads one: its most similar pairs at ``fill_edit_min_similarity``,
    code lines only (a comment between two survivors is ``fill_survivor_gap_lines``'s to pair).
    A ``def`` is not paired with a ``def`` of another name while the upstream file's own
    definition of its name is free (:func:`other_named_defs`, with ``fill_edit_own_name_defs``,
    as in :func:`_edited_lines` and :func:`_unequal_edits`): the bar rule (a) honoured would
    otherwise be undone here, where the same stretch is read again by similarity alone.
    """
    r, rows, p = lab.result, lab.t_rows, lab.p
    u_rows, u_lines = lab.upstream_lines(u_file)
    paired = np.flatnonzero((r.match[rows] != NONE) & (r.up_file[rows] == u_file))
    if len(paired) < 2:
        return
    paired_uc = np.searchsorted(u_rows, r.up_row[rows[paired]])
    used = set(paired_uc.tolist())
    anchors = increasing_pairs(paired.tolist(), paired_uc.tolist())
    for (ta, ua), (tb, ub) in zip(anchors, anchors[1:], strict=False):
        if not (0 < tb - ta - 1 <= p.fill_late_edit_max_gap and 0 < ub - ua - 1 <= p.fill_late_edit_max_gap):
            continue
        t_gap = [tc for tc in range(ta + 1, tb) if is_free(lab, u_file, tc)]
        u_gap = [uc for uc in range(ua + 1, ub) if uc not in used]
        if not t_gap or not u_gap:
            continue
        t_texts = [lab.t_lines[lab.t_rows[tc]] for tc in t_gap]
        u_texts = [u_lines[u_rows[uc]] for uc in u_gap]
        number = int(r.region[rows[ta]])
        other = other_named_defs(lab, statements, u_file, t_gap, u_gap, used) if p.fill_edit_own_name_defs else None
        for a, b in _best_pairs(t_texts, u_texts, p.fill_edit_min_similarity, p.gap_min_chars,
                                bool(p.fill_strip_annotations), bool(p.fill_added_arguments), barred=other):
            if lab.target_kind(t_gap[a]) != CODE or lab.upstream_kind(u_file, u_gap[b]) != CODE:
                continue  # comments between two survivors: ``fill_survivor_gap_lines``'s rule
            labelled = pair_label(t_texts[a].strip(), u_texts[b].strip(), p, lab.packages(u_file))
            if labelled is not None:
                lab.set_pair(t_gap[a], u_file, int(u_rows[u_gap[b]]), *labelled, number)


def late_alignment(lab: FileLabeller, statements: Statements, u_file: int, before: np.ndarray,
                   unordered: np.ndarray) -> None:
    """Rule (a) once more between anchors the later rules made (``fill_late_alignment``).

    Rule (a) aligns the stretches between the anchors the pair has when the fill starts; the
    signature survivors, the re-wrapped and completed statements and the bodies below late
    signatures pair lines after it, and a stretch one of whose two ends is such a line was never
    aligned as a whole: ``signature_bodies`` reads a body below a late ``def`` only up to the end
    of that function, and ``late_edits`` only stretches of a few lines. A fork that moved the
    old ``__init__`` body into a new method (nextcord's ``Sticker``: ``self._from_data(data)``,
    then ``def _from_data(self, data):`` holding discord.py's ``self.id = int(data['id'])`` ...,
    typed) keeps that body between two lines paired late (the last line of ``__init__``, the
    ``def __repr__`` the signature rule paired), and it stayed none although it sits in order
    between two hits of the pair like any edited line rule (a) reads. Here each stretch of the
    pair's final chain of lines in order on both sides, bounded by two anchors of which at least
    one was not paired with ``u_file`` in ``before`` (per target content line: paired before the
    later rules ran), is read by :func:`align_inside` with the body floor
    ``fill_body_min_name_share`` (the stretch may span a function added between the two), when
    neither side is longer than ``fill_edit_max_gap`` content lines, and only between the first
    and the last line paired with ``u_file`` in ``before``: rule (a) reads no stretch before a
    pair's first line (a file's imports and new code), and a late line there (a class header
    the signature rule paired above a copied body) does not make the lines between it and the
    copy part of it (sglang's ``Glm4Attention.__init__`` signature, which vLLM's 170 attention
    classes share, was so paired with vLLM's ``glm4.py``). Lines ``unordered`` (paired
    by the rules of lines in any order: imports, lines moved within the file) are no anchors:
    they say nothing of the order, and between one and a late ``__all__`` of a file written
    from another (nextcord's ``webhook/async_.py`` against ``discord/webhook.py``) the module's
    other imports aligned with the old module's by similarity alone. Nor are the name lines the
    signature rule paired by their name alone (``fill_signature_name_line``, which bound no
    later survivor either): below such a class header, a ``__slots__`` whose items are all new
    had its head and bracket paired by the statement rule with the old class's."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    u_rows, u_lines = lab.upstream_lines(u_file)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    name_only = lab.name_only.get(u_file, set())
    if name_only:
        unordered = unordered.copy()
        unordered[sorted(name_only)] = True
    if not (mine & ~before & ~unordered).any():
        return
    used = set(np.searchsorted(u_rows, r.up_row[rows[mine]]).tolist())
    paired = np.flatnonzero(mine & ~unordered)
    if len(paired) < 2:
        return
    paired_uc = np.searchsorted(u_rows, r.up_row[rows[paired]])
    anchors = increasing_pairs(paired.tolist(), paired_uc.tolist())
    first = np.flatnonzero(mine & before)
    if not len(first):
        return
    inside = range(int(first[0]), int(first[-1]) + 1)
    for (ta, ua), (tb, ub) in zip(anchors, anchors[1:], strict=False):
        if before[ta] and before[tb]:
            continue  # read by rule (a) already
        if ta not in inside or tb not in inside:
            continue  # before the pair's first line or after its last: rule (a) reads no edge
        t_span, u_span = range(ta + 1, tb), range(ua + 1, ub)
        if not t_span or not u_span or len(t_span) > p.fill_edit_max_gap or len(u_span) > p.fill_edit_max_gap:
            continue
        if not any(is_free(lab, u_file, tc) for tc in t_span) or all(uc in used for uc in u_span):
            continue
        used.update(align_inside(lab, statements, u_file, t_span, u_span, used, int(r.region[rows[ta]]),
                                 p.fill_body_min_name_share))


def signature_bodies(lab: FileLabeller, statements: Statements, u_file: int, before: np.ndarray) -> None:
    """The body below a signature the signature survivors paired (``fill_signature_bodies``).

    Rule (a) reads each stretch between two of the pair's anchors once, before the statement
    rules; a ``def`` that Black exploded and annotated seeds nothing, so its whole class body
    was one stretch then, and its target side, three times the upstream's lines once the calls
    were exploded too, was over ``fill_edit_max_gap``: no line of it was read. ruamel.yaml
    0.18.6's ``dumper.py``: each of the three ``__init__`` signatures is paired by
    ``fill_signature_qualified``, and the body below each, ``Emitter.__init__(`` / ``self,`` /
    ``stream,`` / ``canonical=canonical,`` ... with ``dumper=self,`` added, 27 lines of PyYAML
    3.11's 9, stayed none. Here, in each stretch of the pair's final in-order chain whose opening
    anchor is the last line of a ``def`` statement on both sides, paired since ``before`` (per
    target content line: paired with ``u_file`` before the signature rule ran), the two
    functions' bodies (the stretch's lines up to the function's last code line,
    :func:`lineage.match.blocks.function_end`, on each side) are read by rule (a) as a stretch between two anchors is
    (:func:`align_inside`, the statement rule first), when neither is longer than
    ``fill_edit_max_gap`` content lines. Bodies only: a stretch that runs on past the function
    into the next class would pair that class's lines with whatever the upstream stretch holds."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    u_rows, u_lines = lab.upstream_lines(u_file)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    paired = np.flatnonzero(mine)
    if len(paired) < 2 or not (mine & ~before).any():
        return
    paired_uc = np.searchsorted(u_rows, r.up_row[rows[paired]])
    used = set(paired_uc.tolist())
    anchors = increasing_pairs(paired.tolist(), paired_uc.tolist())
    t_ids = statements.target(p.fill_statement_max_lines)[0]
    u_ids = statements.upstream(u_file, p.fill_statement_max_lines)[0]
    t_texts = [lab.t_lines[row] for row in rows.tolist()]
    u_texts = [u_lines[row] for row in u_rows.tolist()]
    for (ta, ua), (tb, ub) in zip(anchors, anchors[1:], strict=False):
        if before[ta] or tb - ta < 2 or ub - ua < 2:
            continue
        t_def, u_def = _definition_head(t_ids, t_texts, ta), _definition_head(u_ids, u_texts, ua)
        if t_def is None or u_def is None:
            continue
        t_body = range(ta + 1, min(tb, function_end(lab.t_lines, rows, lab.target_kinds(), t_def)))
        u_body = range(ua + 1, min(ub, function_end(u_lines, u_rows, lab.upstream_kinds(u_file), u_def)))
        if not t_body or not u_body or len(t_body) > p.fill_edit_max_gap or len(u_body) > p.fill_edit_max_gap:
            continue
        used.update(align_inside(lab, statements, u_file, t_body, u_body, used, int(r.region[rows[ta]]),
                                 p.fill_body_min_name_share))
    if p.fill_moved_def_bodies:
        _moved_def_bodies(lab, statements, u_file, before, {ta for ta, _ in anchors}, used,
                          (t_ids, t_texts), (u_ids, u_texts))


def _moved_def_bodies(lab: FileLabeller, statements: Statements, u_file: int, before: np.ndarray,
                      in_chain: set[int], used: set[int], target: tuple[np.ndarray, list[str]],
                      upstream: tuple[np.ndarray, list[str]]) -> None:
    """The body below a ``def`` the signature rule paired out of the pair's in-order chain
    (``fill_moved_def_bodies``): a function the fork moved within its file (``fill_signature_any_order``
    pairs its signature wherever it stands). :func:`signature_bodies` reads only stretches of the
    chain, so such a body stayed none below its paired signature: suds-community 1.2.0 sorted
    ``FileCache``'s methods by name, and ``cache.py``'s ``def get(self, id):`` was paired with
    suds-jurko 0.6's ``get``, out of order, while its body, seven lines verbatim and ``f =
    self._getf(id)`` for ``f = self.getf(id)``, stayed none (round user175's Left (a), the same
    for ``cursors.py``'s ``close``). Here each such ``def`` statement's last line, paired since
    ``before`` and not an anchor of the chain (``in_chain``), nor a name line paired by its name
    alone (``fill_signature_name_line``), has its body (the lines below it up to the function's
    last code line, :func:`lineage.match.blocks.function_end`, the extent ``fill.py``'s edge
    window reads too) read against the upstream function's body by rule (a)
    (:func:`align_inside`, the body floor ``fill_body_min_name_share``), when neither is longer
    than ``fill_edit_max_gap`` content lines and a code line stands in both by its fold form
    (:func:`_share_a_code_line`): the two bodies are one function's, so their order with the
    rest of the file says nothing of them, but only a line kept whole says the body is kept.
    ``target``, ``upstream``: each side's statement ids and content lines' texts, as
    :func:`signature_bodies` read them (not built again per pair)."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    u_rows, u_lines = lab.upstream_lines(u_file)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    name_only = lab.name_only.get(u_file, set())
    late = [int(tc) for tc in np.flatnonzero(mine & ~before) if int(tc) not in in_chain and int(tc) not in name_only]
    if not late:
        return
    (t_ids, t_texts), (u_ids, u_texts) = target, upstream
    for ta in late:
        ua = int(np.searchsorted(u_rows, r.up_row[rows[ta]]))
        t_def, u_def = _definition_head(t_ids, t_texts, ta), _definition_head(u_ids, u_texts, ua)
        if t_def is None or u_def is None:
            continue
        t_body = range(ta + 1, function_end(lab.t_lines, rows, lab.target_kinds(), t_def))
        u_body = range(ua + 1, function_end(u_lines, u_rows, lab.upstream_kinds(u_file), u_def))
        if not t_body or not u_body or len(t_body) > p.fill_edit_max_gap or len(u_body) > p.fill_edit_max_gap:
            continue
        if not _share_a_code_line(lab, u_file, t_body, u_body):
            continue  # a body rewritten whole: no line of it stands in the other, only edits would pair
        used.update(align_inside(lab, statements, u_file, t_body, u_body, used, int(r.region[rows[ta]]),
                                 p.fill_body_min_name_share))


def _share_a_code_line(lab: FileLabeller, u_file: int, t_body: range, u_body: range) -> bool:
    """Whether a code line holding a letter or digit stands in both bodies by its fold form (as
    rule (a) aligns lines): the evidence that the moved function's body is the upstream one's.
    Without it the body is rewritten and rule (a)'s edited pass would pair a line by its edits
    alone, with no line around it in the other file to place it: nextcord's ``return
    self.request(route, ...)`` bodies, ``"PATCH",`` paired with discord.py's one-line ``return
    self.request('PATCH', ...)``, and sglang's ``return (`` with vLLM's ``return self._enum ==
    PlatformEnum.XPU``."""
    u_rows, u_lines = lab.upstream_lines(u_file)

    def forms(keys: Iterable[str]) -> set[str]:
        return {form for form in keys if any(ch.isalnum() for ch in form)}

    t_forms = forms(fold_form(lab.t_lines[lab.t_rows[tc]].strip(), CODE) for tc in t_body
                    if lab.target_kind(tc) == CODE)
    u_forms = forms(fold_form(u_lines[u_rows[uc]].strip(), CODE) for uc in u_body
                    if lab.upstream_kind(u_file, uc) == CODE)
    return bool(t_forms & u_forms)


def _definition_head(ids: np.ndarray, texts: list[str], line: int) -> int | None:
    """The first line of the ``def`` statement whose last line is content line ``line``, None
    when ``line`` ends no ``def`` (a line of no statement is a statement of its own)."""
    first = line
    if ids[line] >= 0:
        if line + 1 < len(ids) and ids[line + 1] == ids[line]:
            return None
        while first > 0 and ids[first - 1] == ids[line]:
            first -= 1
    return first if texts[first].lstrip().startswith(("def ", "async def ")) else None
