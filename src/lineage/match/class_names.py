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

After the fill, a header goes where its body went (:func:`headers_follow_bodies`,
``header_follows_body``): a ``def`` or ``class`` header paired near with an upstream header of
another name (a region's edge or the fill's in-order alignment placed it by similarity: flask
3.0.3's ``class MethodView(View):`` opposite 0.12's metaclass ``class MethodViewType(type):``,
right below the copied code), while more of its definition's lines pair into an upstream
definition of its own name, is paired with that definition's header, and its decorators with
that definition's when both have as many (a method moved and dedented in the synthetic
``dedent_methods`` cases had its ``@staticmethod`` and ``def`` paired with its neighbour's).
Code lines count first: a method's docstring may be its neighbour's word for word.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from lineage.index import CODE
from lineage.match.file_statements import def_key
from lineage.match.labels import FileLabeller, pair_label
from lineage.match.records import NEAR, NONE

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


def _header_row(lines: list[str], start: int, end: int, key: str) -> int:
    """The row of the header of a definition spanning 1-based lines ``start``..``end`` (its
    decorators above it) whose :func:`def_key` is ``key``; -1 if none."""
    return next((row for row in range(start - 1, min(end, len(lines))) if def_key(lines[row]) == key), -1)


def headers_follow_bodies(lab: FileLabeller) -> int:
    """A ``def`` or ``class`` header paired near with an upstream header of another name, while
    more of its definition's lines are paired into the upstream file's one definition of its own
    name than into the other's, is paired with that definition's header instead
    (``header_follows_body``): flask 3.0.3's ``class MethodView(View):`` was near flask 0.12's
    ``class MethodViewType(type):`` (0.8, the metaclass right above 0.12's ``class
    MethodView(with_metaclass(MethodViewType, View)):``) while its docstring copies 0.12's
    MethodView docstring. Returns how many headers moved."""
    if not lab.p.header_follows_body:
        return 0
    r, rows = lab.result, lab.t_rows
    kinds = lab.target_kinds()
    moved = 0
    row_of = {int(row): tc for tc, row in enumerate(rows.tolist())}
    for d in lab.target.files[lab.t_file].definitions:
        key = f"{'class' if d.kind == 'class' else 'def'} {d.qualname.rpartition('.')[2]}"
        row = _header_row(lab.t_lines, d.start, d.end, key)
        tc = row_of.get(row)
        if tc is None or r.match[row] != NEAR:
            continue
        u_file, u_row = int(r.up_file[row]), int(r.up_row[row])
        u_lines = lab.upstream_lines(u_file)[1]
        other = def_key(u_lines[u_row])
        if other is None or other == key:
            continue
        at = np.flatnonzero((rows >= d.start) & (rows < d.end) & (rows != row))
        at = at[(r.match[rows[at]] != NONE) & (r.up_file[rows[at]] == u_file)]
        lines = r.up_row[rows[at]].astype(np.int64) + 1
        code = kinds[at] == CODE

        def inside(start: int, end: int, lines: np.ndarray = lines, code: np.ndarray = code) -> tuple[int, int]:
            """The body's pairs inside upstream lines start..end: code lines (a method's
            docstring may be its neighbour's, word for word), then all."""
            hit = (lines >= start) & (lines <= end)
            return int((hit & code).sum()), int(hit.sum())

        # the other definition: the one the header is paired with; its own: of those of its
        # name, the one holding most of the body's pairs
        own: tuple[int, int] | None = None
        held = theirs = (0, 0)
        for u in lab.upstream.files[u_file].definitions:
            u_key = f"{'class' if u.kind == 'class' else 'def'} {u.qualname.rpartition('.')[2]}"
            if u_key == key and inside(u.start, u.end) > held:
                own, held = (u.start, u.end), inside(u.start, u.end)
            elif u_key == other and u.start <= u_row + 1 <= u.end:
                theirs = max(theirs, inside(u.start, u.end))
        if own is None or held <= theirs:
            continue
        header = _header_row(u_lines, own[0], own[1], key)
        if header < 0:
            continue
        # the header and its decorators, which go with it when both have as many
        t_decorated = [k for k in range(d.start - 1, row) if lab.t_lines[k].lstrip().startswith("@")] + [row]
        u_decorated = [k for k in range(own[0] - 1, header) if u_lines[k].lstrip().startswith("@")] + [header]
        if len(t_decorated) != len(u_decorated):
            t_decorated, u_decorated = [row], [header]
        number = int(r.region[row])
        for t_row, u_at in zip(t_decorated, u_decorated, strict=True):
            if (t_tc := row_of.get(t_row)) is None:
                continue
            labelled = pair_label(lab.t_lines[t_row].strip(), u_lines[u_at].strip(), lab.p, lab.packages(u_file))
            if labelled is not None:
                lab.set_pair(t_tc, u_file, u_at, *labelled, number)
            elif t_row == row:
                lab.unpair(t_tc)
        moved += 1
    return moved
