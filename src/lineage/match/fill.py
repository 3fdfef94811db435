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

* **Alignment inside a copy** (:func:`~lineage.match.fill_inside.align_inside`). Between two
  anchors, when neither side of the stretch is longer than ``align_max_gap`` content lines, every
  free line that aligns is paired, whatever its form: it sits in order between hits of a certain
  pair. Lines align by their fold form (:func:`fold_form`: tokens without a trailing comment, one
  quote character, no trailing comma: the edits formatters make).
  :func:`~lineage.match.labels.pair_label` says verbatim (identical stripped text) or near, and a
  near pair must pass the rule for lines between hits (same normal or abstract form, or
  ``near_min_similarity``). Then, between two lines so aligned, the lines left on both sides
  (edited in place: an annotation added, a name or a literal changed, a call re-wrapped) are
  paired when neither side exceeds ``fill_edit_max_gap`` lines, by their most similar pairs
  (``fill_edit_min_similarity``) and then by the character alignment of a region's gap
  (:func:`~lineage.match.fill_inside._edited_lines`).
* **Lone survivors** (:func:`~lineage.match.fill_survivors.lone_survivors`). Everywhere else in an
  established pair (before the first anchor, after the last, longer stretches, and pairs with no
  anchor at all), only distinctive lines align (at least ``survivor_min_tokens`` tokens and
  ``survivor_min_chars`` characters), and only on identical stripped text: each is paired
  verbatim, even alone. In a file rewritten over years a signature or a ``raise`` with its message
  survives between new code; alone it could never be a region, but the pair is already known and
  the line is in order with the pair's other lines. Of the pairs established by a region, only the
  file's main pair (the upstream file most of its lines are paired with) gets survivors: a file
  that took a function from a second upstream file shares that file's imports and idioms (``from
  .user import User``) far more often than it kept its lines (on the real renamed fork, 8 of 42
  such lines were copies, against 261 of 333 in the main pairs, with align_max_gap 40). In a long
  inner stretch the survivors then serve as anchors, and the stretches between them short enough
  are aligned as inside a copy (``fill_survivor_anchors``). So they do **after the pair's last
  paired line** (``fill_edge_survivor_anchors``), when the target file has the upstream file's
  name: a region can end early (on the real renamed fork, ``nextcord/http.py``'s regions stopped a
  third of the way in, where new endpoints were inserted, and the hundreds of methods after them,
  annotated and re-wrapped, were left to the survivors, each method's unchanged ``return
  self.request(r, reason=reason)``), and a file of the upstream file's own name is its later
  version from edge to edge, so the lines between two of its survivors are copied code edited in
  place. Not in a file of another name (one that took a part of the upstream file: outside that
  part, its own code, ``nextcord/webhook/async_.py`` <- ``discord/webhook.py``, 25 of 30 such
  lines new by git blame), and not before the pair's first paired line: there stand the imports,
  which a derived file rewrites to its own modules, and aligning them between survivors paired
  them with the upstream's imports of other modules (``from .enums import (`` <- ``from .channel
  import *``; on the sglang/vLLM pair, sglang's ``from sglang.srt.layers... import`` lines).
  **Before the pair's first paired line**, in a target file of the upstream file's own name, the
  survivors anchor the alignment too, but only from the first of them that is not an import on
  (``fill_leading_survivor_anchors``): the file is its later version from edge to edge, as above,
  and below its import block the module's code is the old code edited (``nextcord/http.py``:
  ``pass`` / ``return text`` of the old ``json_or_text`` between two survivors, above the first
  region). This also takes a pair with **no paired line at all** before the fill (established by
  its path or a marker, no region: a file rewritten over years, ``nextcord/sticker.py`` <-
  ``discord/sticker.py``, annotated line by line), whose survivors are the only places where the
  copy can be seen; alone, each would face the lone-line rule, which drops most of them (a
  ``return self.name`` survives in many files).
* **Statements re-wrapped in place** (:func:`~lineage.match.fill_statements.split_at_rewrapped`,
  ``fill_rewrapped_max_lines``, on by default). Inside a stretch between two anchors, a statement
  whose tokens (without type annotations) are those of one upstream statement of the stretch, each
  found once there and of several lines on one side, is Black's re-wrap of it: no piece of it
  aligns by its fold form, so it is paired piece by piece first and the stretch is cut at it. It
  judges no similarity, unlike the statement rule (``fill_statement_max_lines``; the similar
  statements of :mod:`lineage.match.statements`, on by default since recall5 but only in a file of
  the upstream file's own name, :func:`~lineage.match.fill_lines.statement_rule`): on the real
  renamed fork it raised recall 0.849 -> 0.881 with precision 0.965 -> 0.966, and on the
  sglang/vLLM pair it added about 50 code lines, its truth-set scores unchanged. A statement found
  once on each side can still be one moved past copied lines; cut there, the stretch would lose
  them, so a statement pair that crosses more of the stretch's fold-form alignments than it has
  lines is not used (sglang's ``gemma3n_causal.py`` moved ``first_kv_shared_layer_idx = (...)``
  below a copied ``o_proj`` call and lost its 17 lines). A piece a region paired alone out of the
  pair's order (``bound_setattr(``, the opening line of another exploded call upstream) counts as
  free here (:func:`~lineage.match.fill_statements._strays`, ``fill_rewrapped_strays``), so the
  call it belongs to is whole again.
* **Statements of one shape** (:mod:`lineage.match.shapes`, ``fill_shape_max_lines``; in a file of
  the upstream file's own name, at most ``fill_shape_max_edits`` tokens edited): the edited pieces
  of a call broken one argument a line, paired whole with the upstream statement of the same
  abstract shape once one of its lines is. A witnessed-renames rule lives there too (own-name
  files, each rename witnessed by ``fill_rename_min_witnesses`` near pairs, 2).
* **Signatures that outlived a rewrite**
  (:func:`~lineage.match.fill_statements.signature_survivors`, ``fill_signature_survivors``; where
  the statement rule works): a ``def`` statement exploded and edited (a parameter added) next to a
  rewritten body is paired as a statement with the upstream ``def`` of the same name, a name each
  file defines once, in order with the pair.
* **Imports out of order** (:func:`~lineage.match.fill_survivors.imports_in_any_order`). In the
  same pairs as the survivors, a one-line import the upstream file also has is paired in any
  order: isort sorts a fork's imports again.

The survivors and imports this step pairs are judged once more by step 7, the lone-line rule
(:mod:`lineage.match.lone`): one that no paired neighbour continues in order stays only if its
form is rare (``import os`` alone, with the target's own imports around it, does not).

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

from lineage.match.fill_inside import align_inside
from lineage.match.fill_lines import (
    fold_form,
    increasing_pairs,
    is_own_file,
    statement_rule,
)
from lineage.match.fill_statements import (
    Statements,
    complete_statements,
    signature_survivors,
    split_at_rewrapped,
)
from lineage.match.fill_survivors import edge_blocks, first_code_survivor, imports_in_any_order, lone_survivors
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE
from lineage.match.regions import Chain
from lineage.match.shapes import complete_same_shape, pair_renamed

__all__ = ["fill", "fold_form", "increasing_pairs"]


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
    statements = Statements(lab)
    for u_file in pairs:
        _fill_pair(lab, statements, u_file, len(accepted) + len(added), added, u_file == main or u_file in named)
    return added


def _fill_pair(lab: FileLabeller, statements: Statements, u_file: int, new_number: int, added: list[Chain],
               survivors: bool) -> None:
    r, rows, p = lab.result, lab.t_rows, lab.p
    new_chain: Chain | None = None
    # Inner stretches too long to be aligned (rewritten code between two parts of the copy):
    # only lone survivors are paired there, and then, with ``fill_survivor_anchors``, the
    # stretches between the survivors, now short enough, are aligned as inside a copy.
    long_inner: list[range] = []
    # The target file is the upstream file's own continuation (the same file name): a copy
    # from edge to edge, not a part taken into a file of another name.
    own_file = is_own_file(lab, u_file)
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
                for t_piece, u_piece in split_at_rewrapped(lab, statements, u_file, t_span, u_span, used, number):
                    done += align_inside(lab, statements, u_file, t_piece, u_piece, used | set(done), number)
            else:
                done = lone_survivors(lab, u_file, t_span, u_span, used, number)
                if done and (inner or (i > 0 and p.fill_edge_survivor_anchors and own_file)):
                    long_inner.append(t_span)
                elif done and i == 0 and p.fill_leading_survivor_anchors and own_file:
                    start = first_code_survivor(lab, u_file, t_span)
                    if start is not None:
                        long_inner.append(range(start, t_span.stop))
                if not inner and anchors and p.fill_edge_block_lines > 0:
                    done += edge_blocks(lab, u_file, t_span, u_span, used | set(done), number)
            used.update(done)
    if survivors and p.fill_import_min_tokens > 0:
        imports_in_any_order(lab, u_file, new_number)
    if p.fill_signature_survivors and statement_rule(lab, u_file):
        signature_survivors(lab, statements, u_file)
    if statement_rule(lab, u_file):
        complete_statements(lab, statements, u_file)
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
