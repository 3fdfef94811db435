"""Identical twins: a near pair gives its upstream line to the identical line beside it.

A region pairs the lines between its hits by position (along a run's diagonal, and outward from
its ends while lines stay similar), and a position is only as good as the lines around it. Where
the target inserted or swapped a line, the line at the upstream line's place is a neighbour,
similar by chance, while the upstream line itself stands, unchanged, a few lines away:

* requests' ``dispatch_hook`` swapped two lines (``hooks = hooks.get(key)`` / ``if hooks:``,
  the ``if`` rewritten): the diagonal paired ``if hooks:`` near (0.71) with the upstream's
  ``hooks = hooks.get(key)``, and the line identical to it, one line up, stayed ``none``;
* a method inserted before an old one of the same signature (``def handle_redirect(self, r,
  **kwargs):`` before ``def handle_401(self, r, **kwargs):``): the new method's header was
  paired near (0.85) with the old header, which the target still holds verbatim four lines on.

So, in a target file, a ``near`` line paired alone (not a piece of a re-wrapped statement: no
neighbour names the same upstream line) whose upstream line's stripped text is the text of a
free line of the same kind, between the same two paired lines of that upstream file (so the
identical line is just as much in order with the pair as the near one), gives that upstream
line to the identical line, ``verbatim``; the near line is free again (the fill may pair it with
the line it really edits). Identical text in the same place is more evidence than similar text
in the same place, and an upstream line is credited to one line of the stretch. Only one free
identical line may stand there (two would leave the choice to position again). The rule runs
where the second-copies rule does (:mod:`lineage.match.second_copies`), before and after the
fill; ``identical_twin_rule`` 0 turns it off.

A ``def`` header paired near with an upstream header of another name looks for its identical
twin in the whole file, not only in its stretch (``identical_twin_headers``, 2026-12-05, late),
when the upstream name is defined once in each file: a definition's place is its name. requests
added ``iterkeys`` above ``keys``; the region paired ``def iterkeys(self):`` near with the old
``def keys(self):``, and the target's own ``def keys(self):``, nine lines on past the paired
docstring, stayed none. A header that is only similar (``def blurple(cls) -> Self:``, new, beside
``og_blurple``, the old ``blurple`` renamed) is no twin: the renamed pair stays.
"""

from __future__ import annotations

import numpy as np

from lineage.match.labels import FileLabeller
from lineage.match.records import NEAR, NONE, VERBATIM


def identical_twin_moves(lab: FileLabeller) -> list[tuple[int, int]]:
    """(near content line, identical free content line) of the labeller's file whose pair
    should move (see the module docstring), in target order."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    paired = np.flatnonzero(match != NONE)
    if len(paired) == 0:
        return []
    up_file, up_row = r.up_file[rows], r.up_row[rows]
    paired_file, paired_row = up_file[paired], up_row[paired]
    # a paired line naming the upstream line its paired neighbour names is a piece of a statement
    # re-wrapped over several target lines; the others of the near lines are the candidates
    piece = np.zeros(len(paired), bool)
    shared = (paired_file[1:] == paired_file[:-1]) & (paired_row[1:] == paired_row[:-1])
    piece[1:] |= shared
    piece[:-1] |= shared
    free_of: dict[str, list[int]] | None = None  # free lines by text, made for the first candidate
    moves: list[tuple[int, int]] = []
    taken: set[int] = set()
    candidate = (match[paired] == NEAR) & ~piece
    same_file: dict[int, np.ndarray] = {}  # upstream file -> the lines paired with it, made once per file
    found = list(zip(paired[candidate].tolist(), paired_file[candidate].tolist(), paired_row[candidate].tolist(),
                     strict=True))
    texts = [lab.upstream.read_lines(f)[u].strip() for _, f, u in found]
    for (tc, f, u), text in zip(found, texts, strict=True):
        same = same_file.get(f)
        if same is None:
            same = same_file[f] = paired[paired_file == f]
        at = int(np.searchsorted(same, tc))
        lo = int(same[at - 1]) if at > 0 else -1
        hi = int(same[at + 1]) if at + 1 < len(same) else len(rows)
        # A ``def`` header's place is its name's definition, not the stretch
        # (``identical_twin_headers``): the whole file, for a header of another name.
        header = bool(lab.p.identical_twin_headers) and _other_name_header(lab, tc, text, f)
        if not header and ((lo >= 0 and up_row[lo] >= u) or (hi < len(rows) and up_row[hi] <= u)):
            continue  # the identical line must sit in the same stretch, in order with both of its ends
        uc = int(np.searchsorted(lab.upstream_lines(f)[0], u))
        if free_of is None:  # most files have no candidate: the text of every free line unread
            free_of = {}
            free = np.flatnonzero(match == NONE)
            lines = lab.t_lines
            wanted = set(texts)  # only the free lines some candidate's upstream text could name
            for k, row in zip(free.tolist(), rows[free].tolist(), strict=True):  # plain ints: no numpy scalars
                stripped = lines[row].strip()
                if stripped in wanted:
                    free_of.setdefault(stripped, []).append(k)
        twins = [t for t in free_of.get(text, []) if (header or lo < t < hi) and t not in taken
                 and lab.target_kind(t) == lab.upstream_kind(f, uc) and not lab.blocked_from(f, t)]
        if len(twins) == 1:
            moves.append((tc, twins[0]))
            taken.add(twins[0])
    return moves


def _other_name_header(lab: FileLabeller, tc: int, up_text: str, u_file: int) -> bool:
    """Whether target line ``tc`` is a ``def`` header paired with the upstream header
    ``up_text`` of another name, that name defined once in the target file and once in upstream
    file ``u_file``."""
    from lineage.match.file_statements import Statements, def_key

    mine, theirs = def_key(lab.t_lines[lab.t_rows[tc]].strip()), def_key(up_text)
    if mine is None or theirs is None or not theirs.startswith("def ") or mine == theirs:
        return False
    statements = Statements.of(lab)
    return theirs in statements.target_names_once() and theirs in statements.upstream_names_once(u_file)


def move_to_identical_twins(lab: FileLabeller) -> int:
    """Apply :func:`identical_twin_moves`; returns how many pairs moved."""
    if not lab.p.identical_twin_rule:
        return 0
    moves = identical_twin_moves(lab)
    r, rows = lab.result, lab.t_rows
    for near, twin in moves:
        f, u, region = int(r.up_file[rows[near]]), int(r.up_row[rows[near]]), int(r.region[rows[near]])
        lab.unpair(near)
        lab.set_pair(twin, f, u, VERBATIM, 1.0, region)
    return len(moves)
