"""Step 8b, repeated copies: free lines that repeat, line for line, a copy the same file holds.

Every step before this one pairs an upstream line with at most one line of a target file where
it places lines by position (the fill's alignment takes each upstream line once, and step 7
unpairs an edited second copy); only a region (step 3) may pair one upstream span twice, and a
short repeat of a form the upstream file writes many times seeds none (``seed_max_per_file``).
A file that holds one copied block twice, written out again for another class, keeps the first
copy and leaves the second ``none``: nextcord's ``BanIterator``, ``ThreadIterator`` and two
scheduled-event iterators each repeat the ``try:`` / ``except asyncio.QueueEmpty:`` / ``raise
NoMoreItems()`` of the ``next`` discord.py 1.7.0's iterators all hold, ``ForumChannel._update``
repeats five annotated assignments of ``TextChannel._update``, the sticker and scheduled-event
converters the body of the emoji converter. Git blame counts them copies (``-C``: a block copied
within the file keeps its origin), and the text says so too: the lines of a copy, in its order.

So a *repeat* is a run of free code lines, each with the same stripped text as the line at one
fixed distance from it (in content lines), that line paired with one upstream file, the paired
lines' upstream lines in order (never decreasing: the pieces of one re-wrapped statement name
one upstream line). Two lines of the run lie at most ``repeat_max_gap`` content lines apart (the
lines between them the second copy edited or added, left as they are); a line of brackets alone
belongs to it only with another line of its statement (a ``)`` equals every ``)``). It holds at
least ``repeat_min_lines`` lines, of at least ``repeat_min_statements`` statements (one signature
re-wrapped over lines, ``def forward(`` / ``self,`` / ``hidden_states: torch.Tensor,``, is a
shape many methods share, and an ``@overload`` repeats the signature below it), at least
``repeat_min_evidence`` of them evidence on their own (:meth:`FileLabeller.distinctive` and
:meth:`IdiomFilter.rare`, the lone-line rule's test: ``except KeyError:`` / ``pass`` / ``else:``
of another ``try`` is no repeat, though blame credits such lines too). With
``repeat_same_name``, the run's first line and its twin stand in functions of one name, not a
dunder (a method written again for another class; a nested one in functions of the same names),
and no evidence line of the run stands paired in the run's own function as well (a block
written twice inside one function is that function's own second copy,
:mod:`lineage.match.second_copies`). Without that test the first draft took, on the fork, 120
true copies and 353 false ones: nextcord's new functions repeat the lines of its own re-wrapped
copies (a ``Route(...)`` call, a signature's parameters), which blame calls new.

Each line of a repeat is paired with the upstream line its twin names, with the twin's label,
similarity and region (the texts are equal). The rule runs after the lone-line rule, so the copy
it repeats is final, and before the weak-pair rule, which judges the repeat's pair with the rest.
``repeat_min_lines`` 0 turns it off.
"""

from __future__ import annotations

import numpy as np

from lineage.index import CODE
from lineage.match.blocks import CLOSER, opens_with_closer
from lineage.match.file_statements import def_key
from lineage.match.fill_survivors import indentation
from lineage.match.idioms import IdiomFilter
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE


def repeats(lab: FileLabeller, idioms: IdiomFilter) -> list[list[tuple[int, int]]]:
    """The repeats of the labeller's file (see the module docstring): each a list of (free
    content line, its paired twin), in target order, repeats in the order of their first line."""
    p = lab.p
    if p.repeat_min_lines <= 0:
        return []
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    code = lab.target_kinds() == CODE
    texts = lab.stripped()
    free = (match == NONE) & code
    paired = np.flatnonzero((match != NONE) & code)
    if len(paired) == 0 or not free.any():
        return []
    by_text: dict[str, list[int]] = {}
    for tc in paired.tolist():
        by_text.setdefault(texts[tc], []).append(tc)
    functions: dict[int, tuple[tuple[str, ...], int]] = {}

    def function_of(tc: int) -> tuple[tuple[str, ...], int]:
        if tc not in functions:
            functions[tc] = enclosing_functions(lab, tc)
        return functions[tc]

    def same_definition(run: list[tuple[int, int]]) -> bool:
        """The repeat's first line and its twin stand in functions of one name (and a nested one
        in functions of the same names), not a dunder (``repeat_same_name``), and no line of
        the repeat that is evidence on its own stands paired in the repeat's own function too (a
        block written twice inside one function is that function's own second copy, as
        :mod:`lineage.match.second_copies` says)."""
        a, b = run[0]
        (names, here), (theirs, _) = function_of(a), function_of(b)
        if p.repeat_same_name and (not names or names != theirs or
                                   (names[-1].startswith("__") and names[-1].endswith("__"))):
            return False
        return here < 0 or not any(evidence(x) and any(function_of(y)[1] == here for y in by_text[texts[x]])
                                   for x, _ in run)

    start = int(lab.target.file_start[lab.t_file])
    n = len(rows)
    evidence_memo: dict[int, bool] = {}

    def evidence(tc: int) -> bool:
        """Line ``tc`` is evidence on its own: long enough and rare (the lone-line rule's test)."""
        if tc not in evidence_memo:
            ntok = int(lab.target.ntok[start + tc])
            evidence_memo[tc] = lab.distinctive(texts[tc], ntok) and \
                bool(idioms.rare(np.array([start + tc], np.int64), lab.t_lines)[0])
        return evidence_memo[tc]

    def twin(a: int, d: int) -> bool:
        b = a + d
        return 0 <= a < n and 0 <= b < n and bool(free[a]) and match[b] != NONE and bool(code[b]) \
            and texts[a] == texts[b]

    found: list[list[tuple[int, int]]] = []
    taken = np.zeros(n, bool)
    # Seeds: free lines that are evidence on their own (any, with ``repeat_min_evidence`` 0) and
    # stand paired elsewhere in the file; each grows along its distance both ways.
    for a in np.flatnonzero(free).tolist():
        if taken[a] or texts[a] not in by_text or (p.repeat_min_evidence > 0 and not evidence(a)):
            continue
        best: list[tuple[int, int]] = []
        for b in by_text[texts[a]]:
            run = _pieces_only(lab, _grow(a, b - a, twin, p.repeat_max_gap, taken))
            if len(run) > len(best) and _follows_copy(lab, run) and same_definition(run):
                best = run
        if len(best) >= p.repeat_min_lines and sum(evidence(x) for x, _ in best) >= p.repeat_min_evidence:
            found.append(best)
            for x, _ in best:
                taken[x] = True
    return found


def _grow(a: int, d: int, twin, max_gap: int, taken: np.ndarray) -> list[tuple[int, int]]:
    """The twin lines at distance ``d`` around line ``a``: outward from it while the next one
    lies at most ``max_gap`` lines on, never into the span of the twins themselves."""
    run = [a]
    for step in (-1, 1):
        at, gap = a, 0
        while gap <= max_gap:
            at += step
            if at < 0 or at >= len(taken):
                break
            if not taken[at] and twin(at, d):
                run.append(at)
                gap = 0
            else:
                gap += 1
    run.sort()
    # the repeat and the copy it repeats must not overlap (a table's rows repeat each other)
    if abs(d) <= run[-1] - run[0]:
        return []
    return [(x, x + d) for x in run]


def _pieces_only(lab: FileLabeller, run: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``run`` without its lines of brackets alone whose statement has no other line in it: a
    ``)`` equals every other ``)``, and the one at the repeat's distance may close another
    statement than its twin does."""
    ids = lab.statements()
    texts = lab.stripped()
    held: dict[int, int] = {}
    for a, _ in run:
        if not CLOSER.fullmatch(texts[a]):
            held[int(ids[a])] = held.get(int(ids[a]), 0) + 1
    return [(a, b) for a, b in run if not CLOSER.fullmatch(texts[a]) or held.get(int(ids[a]), 0) > 0]


def _follows_copy(lab: FileLabeller, run: list[tuple[int, int]]) -> bool:
    """The twins of ``run`` are paired with one upstream file, in order (never decreasing), and
    its lines belong to at least ``repeat_min_statements`` statements."""
    r, rows = lab.result, lab.t_rows
    files = {int(r.up_file[rows[b]]) for _, b in run}
    ups = [int(r.up_row[rows[b]]) for _, b in run]
    ids = lab.statements()
    return len(files) == 1 and all(u1 <= u2 for u1, u2 in zip(ups, ups[1:], strict=False)) and \
        len({int(ids[a]) for a, _ in run}) >= lab.p.repeat_min_statements


def enclosing_functions(lab: FileLabeller, tc: int) -> tuple[tuple[str, ...], int]:
    """The names of the functions holding content line ``tc``, outermost first (its own last,
    for a ``def`` line; classes skipped: a method of another class is the same method), and the
    content line of the innermost one's header (-1 outside any)."""
    rows, lines = lab.t_rows, lab.t_lines
    code = lab.target_kinds() == CODE
    text = lines[rows[tc]]
    key = def_key(text.strip())
    names = [key.partition(" ")[2]] if key is not None and key.startswith("def ") else []
    header = tc if names else -1
    limit = indentation(text)
    for k in range(tc - 1, -1, -1):
        if limit == 0:
            break
        text = lines[rows[k]]
        if not code[k] or not text.strip() or opens_with_closer(text) or indentation(text) >= limit:
            continue
        key = def_key(text.strip())
        if key is not None and key.startswith("def "):
            names.append(key.partition(" ")[2])
            header = k if header < 0 else header
        limit = indentation(text)
    return tuple(reversed(names)), header


def pair_repeats(lab: FileLabeller, idioms: IdiomFilter) -> int:
    """Pair the lines of the labeller's repeats with their twins' upstream lines; returns how
    many lines were paired."""
    r, rows = lab.result, lab.t_rows
    done = 0
    for run in repeats(lab, idioms):
        for a, b in run:
            row = rows[b]
            lab.set_pair(a, int(r.up_file[row]), int(r.up_row[row]), int(r.match[row]), float(r.similarity[row]),
                         int(r.region[row]))
            done += 1
    return done
