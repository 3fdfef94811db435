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
upstream line: the pieces of one re-wrapped statement). A piece of a statement re-wrapped over
several target lines stays too: the statement as a whole was aligned with the upstream line, by
its characters in order, which is more than a position (a check repeated in two functions, both
re-wrapped from the upstream's one line). Verbatim lines are never touched, and a near line
whose upstream line is only paired ``near`` elsewhere stays (which of two edited copies is the
first cannot be told). ``second_copy_rule`` 0 turns the step off.
"""

from __future__ import annotations

import numpy as np

from lineage.match.labels import FileLabeller
from lineage.match.records import NEAR, NONE, VERBATIM


def second_copy_lines(lab: FileLabeller) -> np.ndarray:
    """Content-line indices (of the labeller's file) of the near lines that are a second copy
    of an upstream line the file holds verbatim elsewhere (see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    paired = np.flatnonzero(match != NONE)
    if len(paired) == 0:
        return paired
    key = (r.up_file[rows[paired]].astype(np.int64) << 32) | r.up_row[rows[paired]].astype(np.int64)
    unit = np.cumsum(np.r_[True, key[1:] != key[:-1]])
    verbatim = match[paired] == VERBATIM
    units_of: dict[int, set[int]] = {}
    for k, u in zip(key[verbatim].tolist(), unit[verbatim].tolist(), strict=True):
        units_of.setdefault(k, set()).add(u)
    size = np.bincount(unit)
    near = np.flatnonzero((match[paired] == NEAR) & (size[unit] == 1))
    second = [i for i, k, u in zip(near.tolist(), key[near].tolist(), unit[near].tolist(), strict=True)
              if units_of.get(k, set()) - {u}]
    return paired[np.array(second, np.int64)] if second else np.zeros(0, np.int64)


def drop_second_copies(lab: FileLabeller) -> int:
    """Unpair the labeller's near lines that are second copies; returns how many."""
    if not lab.p.second_copy_rule:
        return 0
    drop = second_copy_lines(lab)
    for tc in drop.tolist():
        lab.unpair(tc)
    return len(drop)
