"""Before the fill: a new class that holds only its model's prose yields its model's code.

A fork often writes a second class from an upstream class and keeps the first under its old
name: nextcord's ``appinfo.py`` has ``AppInfo`` (discord.py's ``AppInfo``, annotated) and
``PartialAppInfo``, written after it from ``AppInfo``'s docstring, slots and ``__init__``. Both
classes' docstrings repeat the upstream docstring's lines, and regions pair them in both. The
fill then aligns the stretch after its last anchor, and the LCS went through ``PartialAppInfo``'s
docstring into its body: ``AppInfo``'s slots, ``__init__`` and ``__repr__`` were left none (25
code lines), ``PartialAppInfo``'s new lines paired (16).

So, before the fill, a top-level target class ``X`` whose pairs with the lines of an upstream
class ``Y`` are all comment or docstring lines the target's own class ``Y`` holds too (``Y``
defined once in each file, ``X`` not in the upstream file: ``X`` is new and ``Y`` kept its
name) is no copy of ``Y``: its pairs with that upstream file are dropped and the fill may not
pair its lines with that file (:attr:`FileLabeller.blocked`, asked through
:meth:`FileLabeller.blocked_from` by the fill and by every rule that pairs a line after it),
so the fill aligns the upstream class with the class of its name. A new class holding a code
line of ``Y`` (a region seeded in it), or a line ``Y`` does not hold, keeps everything: nextcord's
``ForumChannel`` methods written from ``TextChannel``'s, ``StreamIntegration`` (the old
``Integration``) below a new base class of the old name. ``class_name_yield`` 0 turns it off.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from lineage.index import CODE
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE

_CLASS_RE = re.compile(r"class\s+(\w+)")


def top_classes(lines: list[str]) -> tuple[np.ndarray, set[str]]:
    """Per physical row, the name of the top-level class it stands in ("" outside one, or in a
    class whose name the file defines twice), and the names defined once. A class runs from its
    ``class`` line to the next non-blank line at column 0 that is not a comment (a decorator, a
    def, another statement; a string's line at column 0 ends it early, which can only leave
    lines out of the rule)."""
    owner = np.full(len(lines), -1, np.int64)
    names: list[str] = []
    current = -1
    for row, line in enumerate(lines):
        if line[:1] not in ("", " ", "\t", "#") and line.strip():
            found = _CLASS_RE.match(line)
            if found:
                names.append(found.group(1))
                current = len(names) - 1
            else:
                current = -1
        owner[row] = current
    counts = Counter(names)
    once = {name for name, n in counts.items() if n == 1}
    return np.array([names[k] if k >= 0 and names[k] in once else "" for k in owner.tolist()], object), once


def _upstream_classes(lab: FileLabeller, u_file: int) -> tuple[np.ndarray, set[str]]:
    """:func:`top_classes` of upstream file ``u_file`` (kept for the run in the upstream side: an
    upstream file is paired with many target files)."""
    memo = lab.upstream.class_memo
    if u_file not in memo:
        memo[u_file] = top_classes(lab.upstream_lines(u_file)[1])
    return memo[u_file]


def yield_to_named_classes(lab: FileLabeller) -> int:
    """Drop the pairs of the new classes that hold only prose of an upstream class the target
    file also defines, and block their lines from that upstream file (see the module
    docstring); returns how many lines were unpaired."""
    if not lab.p.class_name_yield:
        return 0
    r, rows = lab.result, lab.t_rows
    paired = np.flatnonzero(r.match[rows] != NONE)
    if len(paired) == 0:
        return 0
    t_class, t_names = top_classes(lab.t_lines)
    if len(t_names) < 2:
        return 0
    p_rows = rows[paired]
    # who holds each upstream line: (upstream file, upstream row) -> target classes
    holders: dict[tuple[int, int], set[str]] = {}
    for row, u_file, u_row in zip(p_rows.tolist(), r.up_file[p_rows].tolist(), r.up_row[p_rows].tolist(), strict=True):
        holders.setdefault((u_file, u_row), set()).add(t_class[row])
    by_file: dict[int, tuple[np.ndarray, set[str]]] = {}
    dropped = 0
    # (new class, upstream file) pairs with an upstream class of a target class's name: those
    # of prose that class holds too, and any other
    shared: set[tuple[str, int]] = set()
    alone: set[tuple[str, int]] = set()
    for tc, row, u_file, u_row in zip(paired.tolist(), p_rows.tolist(), r.up_file[p_rows].tolist(),
                                      r.up_row[p_rows].tolist(), strict=True):
        x = t_class[row]
        if not x:
            continue
        if u_file not in by_file:
            by_file[u_file] = _upstream_classes(lab, u_file)
        u_class, u_names = by_file[u_file]
        y = u_class[u_row]
        if y and y != x and y in t_names and x not in u_names:
            shared_line = y in holders[(u_file, u_row)] and lab.target_kind(tc) != CODE
            (shared if shared_line else alone).add((x, u_file))
    for x, u_file in shared - alone:
        mine = lab.blocked.setdefault(u_file, set())
        for tc in np.flatnonzero(t_class[rows] == x).tolist():
            mine.add(tc)
            if r.match[rows[tc]] != NONE and int(r.up_file[rows[tc]]) == u_file:
                lab.unpair(tc)
                dropped += 1
    return dropped
