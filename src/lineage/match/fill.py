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
other hits. The rules, each in its module with its reasons:

* **Alignment inside a copy** (:mod:`lineage.match.fill_inside`): between two anchors, every free
  line that aligns by its fold form is paired, and then the lines edited in place between them.
  In a target file standing where the upstream file stands (the same path, a vendored copy's path
  ending, or the same below a folder rename the tree shows, :mod:`lineage.match.renames`;
  ``fill_same_place_end_anchor``), the files' ends are an anchor too: the stretch after the last
  paired line is aligned the same way.
  There too, a block between two aligned lines that is long on one side only (code added or
  removed around old lines edited in place) has its code lines paired by their most similar
  pairs at a higher floor (``fill_placed_unequal_edits``, :func:`~lineage.match.fill_inside._unequal_edits`).
* **Lone survivors** (:mod:`lineage.match.fill_survivors`): everywhere else, only distinctive
  lines with identical text, in order; survivors then anchor the alignment where the target file
  is the upstream file's later version; edge blocks before the first paired line and after the
  last, each then bounding the stretch between it and the copy (``fill_edge_block_anchors``).
* **Statements re-wrapped in place** and **signatures that outlived a rewrite**
  (:mod:`lineage.match.fill_statements`), with the statement rule's edited and completed
  statements.
* **Statements of one shape** (:mod:`lineage.match.shapes`, ``fill_shape_max_lines``; in a file of
  the upstream file's own name, at most ``fill_shape_max_edits`` tokens edited): the edited pieces
  of a call broken one argument a line, paired whole with the upstream statement of the same
  abstract shape once one of its lines is. A witnessed-renames rule lives there too (own-name
  files, each rename witnessed by ``fill_rename_min_witnesses`` near pairs, 2).
* **The header of a second copy** (:func:`lineage.match.fill_statements.second_copy_headers`,
  ``fill_second_copy_headers``): a function copied twice into the target file (a method copied
  into a sibling class) has its second body paired by the regions; its signature, free, is
  paired with the upstream signature the first copy holds.
* **The body below a late signature** (:func:`lineage.match.fill_inside.signature_bodies`,
  ``fill_signature_bodies``): the body below a ``def`` the signature rule paired, on both
  sides, is read by rule (a) as a stretch between two anchors is (ruamel.yaml's exploded
  ``__init__`` bodies, over ``fill_edit_max_gap`` while the class body was one stretch).
* **Rule (a) between later pairs** (:func:`lineage.match.fill_inside.late_alignment`,
  ``fill_late_alignment``): each stretch of the pair's final in-order chain that a line the
  later rules paired bounds (inside the span of the lines paired before them; lines paired in
  any order are no anchors) is aligned as rule (a) aligns one, when short enough: those rules
  run after rule (a), so such a stretch was never aligned (an old body moved into a new method
  between two late ``def`` lines).
* **Lines edited between later pairs** (:func:`lineage.match.fill_inside.late_edits`,
  ``fill_late_edit_max_gap``): after the rules above, rule (a)'s edited-lines pass once more on
  the short stretches of the pair's final in-order chain, between lines those rules paired.
* **Imports out of order** (:mod:`lineage.match.fill_survivors`): in the file's main pair, a
  one-line import the upstream file also has is paired in any order.
* **Lines moved within the file** (:mod:`lineage.match.fill_survivors`, ``fill_moved_min_alnum``):
  in a pair at the target file's own path (a renamed folder's included), a line standing once
  in each file with at least 20 letters and digits is paired in any order.

The survivors and imports this step pairs are judged once more by step 7, the lone-line rule
(:mod:`lineage.match.lone`): one that no paired neighbour continues in order stays only if its
form is rare (``import os`` alone, with the target's own imports around it, does not, except in
a pair at the target file's own place that its content links too: ``lone_placed_imports``).

Filled lines join the region of the anchor before them (the first anchor's before it); in a pair
with no anchor they form a new region of weight 0 (no seed supports it). Upstream lines already
paired in this target file are not paired again.

Where each rule lives: the driver (:func:`fill`, each pair's stretches between its anchors) here;
what the rules share (free lines, keys, alignment, anchors) in :mod:`lineage.match.fill_lines`;
rule (a), alignment inside a copy and lines edited in place, in :mod:`lineage.match.fill_inside`;
lone survivors, edge blocks and imports out of order in :mod:`lineage.match.fill_survivors`; the
statement rules (edited, completed, re-wrapped statements, signature survivors) in
:mod:`lineage.match.fill_statements`; statements of one shape and witnessed renames in
:mod:`lineage.match.shapes`.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from lineage.match.blocks import enclosing_function, function_end, function_start
from lineage.match.file_statements import Statements
from lineage.match.fill_inside import align_inside, late_alignment, late_edits, signature_bodies
from lineage.match.fill_lines import (
    fold_form,
    increasing_pairs,
    is_own_file,
    statement_rule,
)
from lineage.match.fill_statements import (
    collection_survivors,
    complete_statements,
    misnamed_headers,
    resorted_arguments,
    second_copy_headers,
    signature_survivors,
    split_at_rewrapped,
)
from lineage.match.fill_survivors import (
    edge_blocks,
    first_code_survivor,
    imports_in_any_order,
    lone_survivors,
    moved_lines,
)
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE
from lineage.match.regions import Chain
from lineage.match.shapes import complete_same_shape, pair_renamed

__all__ = ["fill", "fold_form", "increasing_pairs"]


def fill(lab: FileLabeller, accepted: list[Chain], named: Iterable[int],
         placed: Iterable[int] = (), attributed: bool = True) -> list[Chain]:
    """Fill every established pair of the labeller's target file (see the module docstring).

    ``accepted``: the file's accepted regions, in region-number order; ``named``: upstream files
    established without a region (named by a marker, same path); ``placed``: those of them at
    the target file's own path (also below a renamed folder), where lines moved within the file
    are paired; ``attributed``: the target file's markers name the upstream (with ``placed``,
    where lone survivors are paired: ``survivor_place_or_marker``). Returns the new regions'
    chains (pairs with no anchor), numbered after ``accepted``.
    """
    r, rows = lab.result, lab.t_rows
    paired = r.up_file[rows][r.match[rows] != NONE]
    pairs: list[int] = []
    for chain in accepted:
        if chain.up_file not in pairs:
            pairs.append(chain.up_file)
    named, placed = set(named), set(placed)
    # The main pair: the upstream file most lines are paired with (the earliest on a tie).
    main = max(pairs, key=lambda u: (int((paired == u).sum()), -pairs.index(u))) if pairs else -1
    pairs += sorted(named - set(pairs))
    added: list[Chain] = []
    statements = Statements.of(lab)
    for u_file in pairs:
        _fill_pair(lab, statements, u_file, len(accepted) + len(added), added, u_file == main or u_file in named,
                   u_file in placed, attributed or u_file in placed or not lab.p.survivor_place_or_marker)
    return added


def _inside_edge_block(lab: FileLabeller, statements: Statements, u_file: int, blocks: list[int],
                       t_span: range, u_span: range, leading: bool, used: set[int], number: int,
                       placed: bool = False) -> list[int]:
    """An edge block (:func:`~lineage.match.fill_survivors.edge_blocks`, upstream lines
    ``blocks``) is part of the copy: the stretch between it and the pair's first paired line
    (``leading``; else between the last paired line and the block) is then bounded on both
    sides and aligned as inside a copy, when short enough (``align_max_gap``). A module's
    ``__all__`` re-quoted by a formatter, some entries dropped since, had its first run of
    consecutive entries paired as a block and its later entries, between that block and the
    first copied function, left none (``nextcord/enums.py``: ``"AuditLogAction",``,
    ``"UserFlags",`` ... and the tuple's ``)``)."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    u_rows, _ = lab.upstream_lines(u_file)
    mine = [tc for tc in t_span if r.match[rows[tc]] != NONE and r.up_file[rows[tc]] == u_file
            and int(np.searchsorted(u_rows, r.up_row[rows[tc]])) in blocks]
    if not mine:
        return []
    tc = mine[-1] if leading else mine[0]
    uc = int(np.searchsorted(u_rows, r.up_row[rows[tc]]))
    t_in = range(tc + 1, t_span.stop) if leading else range(t_span.start, tc)
    u_in = range(uc + 1, u_span.stop) if leading else range(u_span.start, uc)
    if not t_in or not u_in or len(t_in) > p.align_max_gap or len(u_in) > p.align_max_gap:
        return []
    done: list[int] = []
    for t_piece, u_piece in split_at_rewrapped(lab, statements, u_file, t_in, u_in, used, number):
        done += align_inside(lab, statements, u_file, t_piece, u_piece, used | set(done), number,
                             placed=placed)
    return done


def _function_window(lab: FileLabeller, statements: Statements, u_file: int, anchor: tuple[int, int],
                     t_span: range, u_span: range, before: bool, used: set[int], number: int) -> list[int]:
    """The edge of a pair that is not the target file's main pair, next to its first paired line
    (``before``) or its last (``anchor``), read as inside a copy when that line and its partner
    stand in functions of the same name, most of whose lines the pair already holds
    (``fill_edge_function_window``, ``fill_edge_function_min_share``): a function moved in from
    another file, whose region stopped short of its edited end or began after its edited start
    (nextcord's ``Context.clean_prefix``, its ``@property`` and edited header above the region
    from discord.py's ``HelpCommand.clean_prefix``; ``Client.create_dm`` <- ``User.create_dm``).
    The window runs from the anchor to that function's end (or from its first decorator, else its
    header, to the anchor; an anchor on a decorator line stands in the function it decorates)
    on each side, never into the next function: past a
    region's edge in two parallel implementations (sglang's and vLLM's model files) stands the
    next function of each, whose generic lines (``super().__init__()``, ``self,``) align by
    chance. The name is the evidence that the lines on both sides are one function's, and the
    share that the function was taken, not written again alike: nextcord's webhook adapter's
    ``request`` and discord.py's ``HTTPClient.request`` share a quarter of their lines (the
    retry loop's ``continue``/``raise``), and read past the edge paired lines the fork wrote anew.
    A function's name does not carry its package's, so a renamed package needs no map here."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    t_kinds, u_kinds = lab.target_kinds(), lab.upstream_kinds(u_file)
    tc, uc = anchor
    mine = enclosing_function(lab.t_lines, lab.t_rows, t_kinds, tc)
    theirs = enclosing_function(u_lines, u_rows, u_kinds, uc)
    if mine is None or theirs is None or mine[1] != theirs[1]:
        return []
    # a function's lines: from its first decorator (``@property``) to its last code line
    t_start = function_start(lab.t_lines, lab.t_rows, t_kinds, mine[0])
    u_start = function_start(u_lines, u_rows, u_kinds, theirs[0])
    t_end = function_end(lab.t_lines, lab.t_rows, t_kinds, mine[0])
    u_end = function_end(u_lines, u_rows, u_kinds, theirs[0])
    # Two functions of one name written apart share a few generic lines; a function moved has
    # most of its lines paired with its old self (counted on the shorter of the two).
    r, rows = lab.result, lab.t_rows
    held = np.flatnonzero((r.match[rows[t_start:t_end]] != NONE) & (r.up_file[rows[t_start:t_end]] == u_file))
    partners = np.searchsorted(u_rows, r.up_row[rows[t_start + held]])
    share = int(((partners >= u_start) & (partners < u_end)).sum()) / min(t_end - t_start, u_end - u_start)
    if share < lab.p.fill_edge_function_min_share:
        return []
    if before:
        t_in, u_in = range(max(t_start, t_span.start), tc), range(max(u_start, u_span.start), uc)
    else:
        t_in, u_in = range(tc + 1, min(t_end, t_span.stop)), range(uc + 1, min(u_end, u_span.stop))
    p = lab.p
    if not t_in or not u_in or len(t_in) > p.align_max_gap or len(u_in) > p.align_max_gap:
        return []
    done: list[int] = []
    for t_piece, u_piece in split_at_rewrapped(lab, statements, u_file, t_in, u_in, used, number):
        done += align_inside(lab, statements, u_file, t_piece, u_piece, used | set(done), number)
    return done


def _fill_pair(lab: FileLabeller, statements: Statements, u_file: int, new_number: int, added: list[Chain],
               survivors: bool, placed: bool = False, lone: bool = True) -> None:
    r, rows, p = lab.result, lab.t_rows, lab.p
    before = len(added)
    new_chain: Chain | None = None
    # Inner stretches too long to be aligned (rewritten code between two parts of the copy):
    # only lone survivors are paired there, and then, with ``fill_survivor_anchors``, the
    # stretches between the survivors, now short enough, are aligned as inside a copy.
    long_inner: list[range] = []
    # The target file is the upstream file's own continuation (the same file name): a copy
    # from edge to edge, not a part taken into a file of another name.
    own_file = is_own_file(lab, u_file)
    # At the upstream file's place (``placed``: the same path, a path ending of a vendored copy, or
    # the same below a folder rename the tree shows), the target file is that file's later version.
    same_place = bool(p.fill_same_place_end_anchor) and placed
    # There, old lines edited among code added around them are read too (fill_inside._unequal_edits).
    unequal = bool(p.fill_placed_unequal_edits) and placed
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
            # In a file at the upstream file's place the files' ends anchor the last stretch too.
            end = same_place and bool(anchors) and i == len(anchors)
            inside = (inner or end) and len(t_span) <= p.align_max_gap and len(u_span) <= p.align_max_gap
            if second and not (inside and any(t_span.start >= w.start and t_span.stop <= w.stop
                                              for w in long_inner)):
                continue
            number = int(r.region[rows[anchors[max(i - 1, 0)][0]]]) if anchors else new_number
            if number == new_number and new_chain is None:
                new_chain = Chain(u_file, [], 0.0)
            if not inside and not survivors:  # never in the second pass, which reads inner stretches only
                if not inner and anchors and p.fill_edge_function_window:
                    anchor = anchors[0] if i == 0 else anchors[-1]
                    used.update(_function_window(lab, statements, u_file, anchor, t_span, u_span, i == 0,
                                                 used, number))
                continue
            if inside:
                done = []
                for t_piece, u_piece in split_at_rewrapped(lab, statements, u_file, t_span, u_span, used, number):
                    done += align_inside(lab, statements, u_file, t_piece, u_piece, used | set(done), number,
                                         placed=unequal)
            else:
                done = lone_survivors(lab, u_file, t_span, u_span, used, number) if lone else []
                if done and (inner or (i > 0 and p.fill_edge_survivor_anchors and own_file)):
                    long_inner.append(t_span)
                elif done and i == 0 and p.fill_leading_survivor_anchors and own_file:
                    start = first_code_survivor(lab, u_file, t_span)
                    if start is not None:
                        long_inner.append(range(start, t_span.stop))
                if not inner and anchors and p.fill_edge_block_lines > 0:
                    blocks = edge_blocks(lab, u_file, t_span, u_span, used | set(done), number)
                    done += blocks
                    if blocks and p.fill_edge_block_anchors:
                        done += _inside_edge_block(lab, statements, u_file, blocks, t_span, u_span,
                                                   i == 0, used | set(done), number, unequal)
            used.update(done)
    # The lines paired with this upstream file when rule (a) is done (the anchors it read
    # between), and those the two rules of lines in any order pair next (no anchors of order).
    aligned_first = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    if survivors and p.fill_import_min_tokens > 0:
        imports_in_any_order(lab, u_file, new_number, placed)
    # Moved lines are one-line regions numbered after this pair's new region (renumbered below
    # when that one stays empty).
    moved = moved_lines(lab, u_file, new_number + 1) if survivors and placed and p.fill_moved_min_alnum > 0 else 0
    unordered = (r.match[rows] != NONE) & (r.up_file[rows] == u_file) & ~aligned_first
    # Collections (several items of evidence) before signatures (one statement, often one line):
    # each must stand in order with the pair's lines, so the one placed first sets that order.
    if p.fill_collection_survivors and statement_rule(lab, u_file):
        collection_survivors(lab, statements, u_file)
    if p.fill_header_names and statement_rule(lab, u_file):
        misnamed_headers(lab, statements, u_file)  # first: it frees upstream headers for the next
    if p.fill_signature_survivors and statement_rule(lab, u_file):
        paired_before = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
        signature_survivors(lab, statements, u_file)
        if p.fill_signature_bodies:
            signature_bodies(lab, statements, u_file, paired_before)
    if p.fill_second_copy_headers and statement_rule(lab, u_file):
        second_copy_headers(lab, statements, u_file)
    if statement_rule(lab, u_file):
        complete_statements(lab, statements, u_file)
        if p.fill_resorted_arguments:
            resorted_arguments(lab, statements, u_file)
    if p.fill_shape_max_lines > 0 and (not p.fill_shape_own_file or own_file):
        # Statements of the same shape (lineage.match.shapes): the edited pieces of a re-wrapped call.
        complete_same_shape(lab, statements.target(p.fill_shape_max_lines)[0],
                            statements.upstream(u_file, p.fill_shape_max_lines)[0], u_file)
    if p.fill_rename_min_witnesses > 0 and (not p.fill_rename_own_file or own_file):
        # Lines whose only edit is a rename the pair's other lines witness (lineage.match.shapes).
        pair_renamed(lab, u_file, increasing_pairs)
    if p.fill_late_alignment:
        late_alignment(lab, statements, u_file, aligned_first, unordered)
    if p.fill_late_edit_max_gap > 0:
        late_edits(lab, statements, u_file)
    if new_chain is None and (r.region[rows] == new_number).any():
        new_chain = Chain(u_file, [], 0.0)  # imports alone (rule c)
    if new_chain is not None and (r.region[rows] == new_number).any():
        added.append(new_chain)
    # One chain per moved line still paired, numbered on from this pair's last chain, in order
    # (``new_number`` is the number the first chain added here gets).
    for number in range(new_number + 1, new_number + 1 + moved):
        mine = rows[r.region[rows] == number]
        if len(mine):
            r.region[mine] = new_number + len(added) - before
            added.append(Chain(u_file, [], 0.0))

