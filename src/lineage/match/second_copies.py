"""Step 7, second copies: an edited line whose upstream line the file also holds verbatim.

A target file often holds a block twice: once as copied from the upstream, and once more as
its own variant of that copy (a second group constructor after the first, the MoE version of a
linear method's requant block, a Summary wrapper's ``observe`` after the Histogram's). The
region gaps and the fill pair the variant's lines by position with the upstream lines that sit
at the same place, so the variant's edited lines come out ``near`` the very upstream lines the
first copy holds verbatim. Issue 8's truth set labels them as the file's own second copy, not
a copy from the upstream: the upstream line is credited to the verbatim copy.

So a ``near`` line whose upstream line is also paired ``verbatim`` with another line of the same
target file is unpaired, unless the two are one *unit* (consecutive paired lines naming the same
upstream line, of one statement with ``second_copy_statement_units``: the pieces of one
re-wrapped statement). A piece of a statement re-wrapped over
several target lines stays too: the statement as a whole was aligned with the upstream line, by
its characters in order, which is more than a position (a check repeated in two functions, both
re-wrapped from the upstream's one line). Verbatim lines are never touched, and a near line
whose upstream line is only paired ``near`` elsewhere stays (which of two edited copies is the
first cannot be told). ``second_copy_rule`` 0 turns the step off.

After the fill, a near line whose upstream line another line of the *same outermost function*
names too is a second copy also when it stands out of the pair's order while that other line is
on the pair's longest in-order chain (``second_copy_off_chain``, 2026-12-05, night): requests
wrote the SHA-256 and SHA-512 blocks of ``build_digest_header`` from its MD5 and SHA blocks above
them, and the alignment paired their re-quoted ``x = x.encode("utf-8")`` and ``elif _algorithm ==
"SHA-512":`` near with the old lines the first blocks hold near, in order. Which one is first
can be told there: the one in the pair's order. Out of order means not between the chain's lines
around it (of two lines naming one upstream line in order, the chain holds either); a piece of a
statement of several lines stays (an import list whose names isort sorted). Not across
functions: a method written from another (the fork's ``VoiceChannel.purge`` from
``TextChannel.purge``) is a copy by git blame (34 of the fork's blame copies when tried), and
not before the fill, whose in-order alignment may yet pair the first copy.
"""

from __future__ import annotations

import numpy as np

from lineage.match.fill_lines import increasing_pairs
from lineage.match.labels import FileLabeller
from lineage.match.records import NEAR, NONE, VERBATIM


def second_copy_lines(lab: FileLabeller, off_chain: bool = False) -> np.ndarray:
    """Content-line indices (of the labeller's file) of the near lines that are a second copy
    of an upstream line the file holds verbatim elsewhere (see the module docstring); with
    ``off_chain``, also those of ``second_copy_off_chain``."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    paired = np.flatnonzero(match != NONE)
    if len(paired) == 0:
        return paired
    key = (r.up_file[rows[paired]].astype(np.int64) << 32) | r.up_row[rows[paired]].astype(np.int64)
    brk = key[1:] != key[:-1]
    if lab.p.second_copy_statement_units:
        # pieces of one statement: two statements naming one upstream line with an unpaired
        # line between them are no unit (a verbatim ``self._emojis.pop(emoji.id, None)`` and,
        # two lines below, its edited copy ``self._stickers.pop(sticker.id, None)``)
        ids = lab.statements()[paired]
        brk |= (ids[1:] != ids[:-1]) | (ids[1:] < 0)
    unit = np.cumsum(np.r_[True, brk])
    verbatim = match[paired] == VERBATIM
    units_of: dict[int, set[int]] = {}
    for k, u in zip(key[verbatim].tolist(), unit[verbatim].tolist(), strict=True):
        units_of.setdefault(k, set()).add(u)
    size = np.bincount(unit)
    near = np.flatnonzero((match[paired] == NEAR) & (size[unit] == 1))
    second = [i for i, k, u in zip(near.tolist(), key[near].tolist(), unit[near].tolist(), strict=True)
              if units_of.get(k, set()) - {u}]
    if off_chain and lab.p.second_copy_off_chain:
        second = sorted(set(second) | set(_off_chain_near(lab, paired, key, unit).tolist()))
    return paired[np.array(second, np.int64)] if second else np.zeros(0, np.int64)


def _outermost_functions(lab: FileLabeller, paired: np.ndarray) -> np.ndarray:
    """Per paired line, the first line of the outermost function holding it (-1 outside any)."""
    line = lab.t_rows[paired].astype(np.int64) + 1
    out = np.full(len(paired), -1, np.int64)
    # functions nest: the outermost holding a line is the one that starts first; from the last
    # start to the first, each function overwrites the lines it holds
    for start, end in sorted(((d.start, d.end) for d in lab.target.files[lab.t_file].definitions
                              if d.kind == "function"), reverse=True):
        out[(line >= start) & (line <= end)] = start
    return out


def _off_chain_near(lab: FileLabeller, paired: np.ndarray, key: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """Positions (in ``paired``) of near lines, alone in their unit and a statement of their own,
    whose upstream line another unit of the same outermost function names too, that one on the
    longest in-order chain of the file's lines paired with the upstream file and this one out of
    its order (not between the chain's lines around it: of two lines naming one upstream line in
    order, the chain holds either) (``second_copy_off_chain``)."""
    r, rows = lab.result, lab.t_rows
    up_file, up_row = r.up_file[rows[paired]], r.up_row[rows[paired]]
    on_chain = np.zeros(len(paired), bool)
    in_order = np.zeros(len(paired), bool)  # on the chain, or between its neighbours there
    for u in np.unique(up_file).tolist():
        mine = np.flatnonzero(up_file == u)
        chain = np.array([k for k, _ in increasing_pairs(mine.tolist(), up_row[mine].tolist())], np.int64)
        on_chain[chain] = True
        # the chain's upstream lines around each line's place in the target (chain[:at] before it)
        bounds = np.r_[-1, up_row[chain].astype(np.int64), np.iinfo(np.int64).max]
        at = np.searchsorted(chain, mine)
        in_order[mine] = (bounds[at] <= up_row[mine]) & (up_row[mine] <= bounds[at + 1])
    size = np.bincount(unit)
    match = r.match[rows[paired]]
    # a statement of one line: a piece of a longer one was aligned with its statement (an import
    # list whose names isort sorted, each piece naming the line that held it)
    ids = lab.statements()
    pieces = np.bincount(ids[ids >= 0], minlength=1)
    statement = ids[paired]
    alone = (statement < 0) | (pieces[np.maximum(statement, 0)] == 1)
    candidates = np.flatnonzero((match == NEAR) & (size[unit] == 1) & ~in_order & alone)
    if len(candidates) == 0:
        return candidates
    function = _outermost_functions(lab, paired)
    # the units on the chain naming each (upstream line, function) a candidate names
    chained: dict[tuple[int, int], set[int]] = {}
    named = on_chain & (function >= 0) & np.isin(key, key[candidates])
    for k, u, f in zip(key[named].tolist(), unit[named].tolist(), function[named].tolist(), strict=True):
        chained.setdefault((k, f), set()).add(u)
    return np.array([i for i in candidates.tolist()
                     if chained.get((int(key[i]), int(function[i])), set()) - {int(unit[i])}], np.int64)


def drop_second_copies(lab: FileLabeller, off_chain: bool = False) -> int:
    """Unpair the labeller's near lines that are second copies; returns how many. ``off_chain``
    only after the fill: before it, the chain is the regions' alone, and the first copy may be
    the part the fill has yet to pair."""
    if not lab.p.second_copy_rule:
        return 0
    drop = second_copy_lines(lab, off_chain)
    for tc in drop.tolist():
        lab.unpair(tc)
    return len(drop)
