"""Free lines paired through their statement, after the lone-line rules (step 8, :mod:`lineage.match.lone`).

A line that holds no text of its own (``else:``, ``try:``, ``@property``, a ``)``) is paired by
the gap alignment and the fill by its text and place, which the lone-line rules distrust; the
rules here pair such a line the other way round, when the statement it belongs to shows where
it came from. Each pairs only a free target line with a free upstream line, each rule after the
one before has paired its lines, and each has its switch in
:class:`~lineage.match.params.MatchParams`.

A free decorator line whose definition is paired with an upstream ``def`` or ``class``
line is paired with that definition's own identical decorator, free (``lone_decorator_pairs``):
the alignment had given the upstream ``@property`` to the one above the target's own new method
before it (the one ``lone_decorators`` drops: requests' ``is_redirect``), and the copied
``apparent_encoding``'s own ``@property`` stayed free.

And a free ``try:`` whose block's first paired line (not inside a further ``try:`` of that
block) lies in the block of an upstream ``try:``, free, is that ``try:`` (``lone_try_pairs``): it
holds no text, its block says which statement it opens (requests' ``__init__.py`` kept its
``try:`` and ``pyopenssl.inject_into_urllib3()``, and wrapped new code around the import
between them).

The other way round (``lone_clause_pairs``, 2026-12-05, late): a free ``else:`` or ``finally:``
whose clause header is paired with an upstream header, the first paired line of the header's
block with a line of the upstream header's block, is paired with that upstream statement's
own ``else:``/``finally:`` (the next line at the header's indentation, the same clause, free
too): the compound statement was copied, and the clause continues it. The alignment had put the
upstream ``else:`` opposite an ``else:`` of a new statement nested inside (the one this rule
drops: requests' ``if not os.path.isdir(cert_loc): ... else:``) or another line, and the
statement's own ``else:`` stayed free.

Likewise a free ``except ...:`` whose block's first paired line (in its own block, not a block
inside it) lies in the block of an upstream ``except ...:``, free, is that clause
(``lone_except_pairs``, 2026-12-05, night), near when its text changed: the exception a library
raises changes with the library (requests' ``except (ProtocolError, OSError) as err:`` <-
``except socket.error as sockerr:``, ``except ProtocolError as e:`` <- ``except IncompleteRead
as e:``, each block's ``raise`` kept), so its text is too unlike for the fill, and its block says
which clause it is, as a ``try:``'s does.

And a free line of **brackets alone** (``)``, ``},``, ``) -> None:``, an opening ``{``) whose
partner bracket stands on a paired line is paired with the upstream line that holds the partner
of that line's bracket (``lone_bracket_pairs``, 2026-12-05, night), near unless the texts are
equal: the bracket of a ``dict(`` call turned into a literal closes on the upstream's
``rfc2109=False,)``, the ``),`` of an exploded ``308: (`` entry on the upstream's one line
``308: ("resume_incomplete", "resume"),``. The statement rule pairs a bracket only with a
bracket line of the upstream statement, and a line of brackets shares no text with an argument
line. Only when at least ``lone_bracket_min_share`` of the code lines between the two brackets
are paired with that upstream file: the bracketed content was copied, not only the line that
opens it (an import list re-sorted with new names keeps its ``from .compat import (``, whose git
history made its ``)`` new). On requests 2.0.0 -> 2.32.3 the two rules took 10 of lineage's 78
misses (8 brackets, 2 ``except``) and no false copy; on the renamed fork 15 blame copies.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from lineage.index import CODE
from lineage.match.blocks import CLAUSE, CLOSER, DECORATOR, block_of, clause_header, opens_with_closer
from lineage.match.file_statements import def_key
from lineage.match.fill_survivors import indentation
from lineage.match.labels import FileLabeller, similarity
from lineage.match.records import NEAR, NONE, VERBATIM
from lineage.match.statements import OPENERS, bracket_tokens


def _paired_upstream_lines(lab: FileLabeller) -> set[tuple[int, int]]:
    """(upstream file, upstream row) of every paired line of the file: taken, for the rules
    below that pair a free line with a free upstream line."""
    r, rows = lab.result, lab.t_rows
    paired = rows[r.match[rows] != NONE]
    return set(zip(r.up_file[paired].tolist(), r.up_row[paired].tolist(), strict=True))


def clause_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, its header's content line) of the free ``else:``/``finally:``
    lines whose clause header is paired with an upstream header that the same clause continues,
    free too (``lone_clause_pairs``, see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    texts = lab.stripped()
    free = [tc for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist() if texts[tc] in CLAUSE]
    if not free:
        return []
    taken = _paired_upstream_lines(lab)
    found = []
    for tc in free:
        head = clause_header(lab.t_lines, rows, kinds, tc)
        if head < 0 or match[head] == NONE:
            continue
        u_file, u_head_row = int(r.up_file[rows[head]]), int(r.up_row[rows[head]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_kinds = lab.upstream_kinds(u_file)
        u_head = int(np.searchsorted(u_rows, u_head_row))
        # the header's own block copied too (its first paired line inside the upstream header's
        # block): a lone ``except KeyError:`` paired near with another function's ``except
        # ValueError:`` is no statement copied
        first = next((b for b in block_of(lab.t_lines, rows, kinds, head) if match[b] != NONE), -1)
        if first < 0 or int(r.up_file[rows[first]]) != u_file or \
                int(np.searchsorted(u_rows, r.up_row[rows[first]])) not in block_of(u_lines, u_rows, u_kinds, u_head):
            continue
        depth, text = indentation(u_lines[u_head_row]), lab.t_lines[rows[tc]].strip()
        # the upstream compound's clauses at the header's depth, up to its first line that is none
        for k in range(u_head + 1, len(u_rows)):
            line = u_lines[u_rows[k]]
            if u_kinds[k] != CODE or indentation(line) > depth or opens_with_closer(line):
                continue
            if indentation(line) < depth or line.strip() != text:
                break
            if clause_header(u_lines, u_rows, u_kinds, k) == u_head and (u_file, int(u_rows[k])) not in taken \
                    and not lab.blocked_from(u_file, tc):
                found.append((tc, u_file, int(u_rows[k]), head))
                taken.add((u_file, int(u_rows[k])))
            break
    return found


def decorator_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, its definition's content line) of the
    free decorator lines whose definition is paired with an upstream ``def``/``class`` line
    decorated by the same text, free (``lone_decorator_pairs``, see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    texts = lab.stripped()
    free = [tc for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist()
            if DECORATOR.match(texts[tc]) is not None]
    if not free:
        return []
    taken = _paired_upstream_lines(lab)
    found = []
    for tc in free:
        d = tc + 1  # the definition: past further decorators and comments
        while d < len(rows) and (kinds[d] != CODE or DECORATOR.match(texts[d]) is not None):
            d += 1
        if d >= len(rows) or match[d] == NONE or def_key(texts[d]) is None:
            continue
        u_file, u_def_row = int(r.up_file[rows[d]]), int(r.up_row[rows[d]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        if def_key(u_lines[u_def_row].strip()) is None:
            continue
        u_kinds = lab.upstream_kinds(u_file)
        k = int(np.searchsorted(u_rows, u_def_row)) - 1
        # the upstream definition's own decorators, right above it
        while k >= 0 and (u_kinds[k] != CODE or DECORATOR.match(u_lines[u_rows[k]].strip())):
            u_row = int(u_rows[k])
            if u_kinds[k] == CODE and u_lines[u_row].strip() == texts[tc] \
                    and (u_file, u_row) not in taken and not lab.blocked_from(u_file, tc):
                found.append((tc, u_file, u_row, d))
                taken.add((u_file, u_row))
                break
            k -= 1
    return found


def _enclosing_try(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the nearest ``try:`` whose block holds the line at ``at`` (through
    the blocks between), -1 if none."""
    depth = indentation(lines[rows[at]])
    for k in range(at - 1, -1, -1):
        text = lines[rows[k]]
        if kinds[k] != CODE or opens_with_closer(text) or indentation(text) >= depth:
            continue
        depth = indentation(text)
        if text.strip() == "try:":
            return k
    return -1


def try_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the paired line of its block) of the
    free ``try:`` lines whose block's first paired line lies in the block of an upstream ``try:``,
    free (``lone_try_pairs``, see the module docstring); not when that line lies in another
    ``try:`` of the block."""
    return _block_pairs(lab, lambda text: text.strip() == "try:", _enclosing_try)


def _block_pairs(lab: FileLabeller, is_head: Callable[[str], bool],
                 enclosing: Callable[[list[str], np.ndarray, np.ndarray, int], int]) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the paired line of its block) of the
    free clause lines ``is_head`` holds for whose block's first paired line ``enclosing`` finds
    them, each with the line ``enclosing`` finds above that line's upstream line, when
    ``is_head`` holds for it and it is free: the block says which clause it is."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    free = [tc for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist()
            if is_head(lab.t_lines[rows[tc]])]
    if not free:
        return []
    taken = _paired_upstream_lines(lab)
    found = []
    for tc in free:
        first = next((b for b in block_of(lab.t_lines, rows, kinds, tc) if match[b] != NONE), -1)
        if first < 0 or enclosing(lab.t_lines, rows, kinds, first) != tc:
            continue  # no paired line, or the first one inside a further clause of the block
        u_file = int(r.up_file[rows[first]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_kinds = lab.upstream_kinds(u_file)
        k = enclosing(u_lines, u_rows, u_kinds, int(np.searchsorted(u_rows, r.up_row[rows[first]])))
        if k >= 0 and is_head(u_lines[u_rows[k]]) and (u_file, int(u_rows[k])) not in taken \
                and not lab.blocked_from(u_file, tc):
            found.append((tc, u_file, int(u_rows[k]), first))
            taken.add((u_file, int(u_rows[k])))
    return found


# A line of opening brackets alone (the ``{`` of ``CaseInsensitiveDict(`` / ``{`` / ``})``).
_OPENER = re.compile(r"[(\[{]+")
_BRACKET_STARTS = frozenset("([{)]}")  # the first character of every line CLOSER or _OPENER matches


def _bracket_line(text: str) -> str:
    """``close`` for a line of closing brackets alone (as ``CLOSER``; a trailing comment aside),
    ``open`` for one of opening brackets alone, else ``""``."""
    if text.lstrip()[:1] not in _BRACKET_STARTS:  # both shapes start with a bracket: most lines end here
        return ""
    code = text.split("#", 1)[0].strip()
    if CLOSER.fullmatch(code):
        return "close"
    return "open" if _OPENER.fullmatch(code) else ""


def _still_open(text: str) -> list[int]:
    """Positions (among the line's brackets) of its opening brackets still open at its end,
    outermost first."""
    stack: list[int] = []
    for k, b in enumerate(bracket_tokens(text.strip())):
        if b in OPENERS:
            stack.append(k)
        elif stack:
            stack.pop()
    return stack


def _opened_above(text: str) -> list[int]:
    """Positions (among the line's brackets) of its closing brackets that close a bracket
    opened above it, innermost (first) first."""
    depth, out = 0, []
    for k, b in enumerate(bracket_tokens(text.strip())):
        if b in OPENERS:
            depth += 1
        elif depth:
            depth -= 1
        else:
            out.append(k)
    return out


def _partner(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int, need: int, forward: bool,
             limit: int) -> tuple[int, int]:
    """(index in ``rows``, position among that line's brackets) of the bracket that closes
    (``forward``) or opens the ``need``-th bracket left open at the end (the start) of line
    ``at``, counted from the innermost; (-1, -1) within ``limit`` code lines none, or a line
    that is not code first (a string's lines)."""
    extra, k, seen = 0, at, 0
    while seen < limit:
        k += 1 if forward else -1
        if k < 0 or k >= len(rows) or kinds[k] != CODE:
            return -1, -1
        seen += 1
        found = bracket_tokens(lines[rows[k]].strip())
        order = range(len(found)) if forward else range(len(found) - 1, -1, -1)
        for pos in order:
            if (found[pos] in OPENERS) == forward:
                extra += 1
            elif extra:
                extra -= 1
            else:
                need -= 1
                if need == 0:
                    return k, pos
    return -1, -1


def bracket_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the content line of its partner
    bracket) of the free lines of brackets alone whose partner bracket's line is paired: each
    with the upstream line holding the partner of that line's bracket (``lone_bracket_pairs``,
    see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    limit = lab.p.fill_statement_max_lines
    found = []
    t_rows = rows.tolist()
    for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist():
        shape = _bracket_line(lab.t_lines[t_rows[tc]])
        if not shape:
            continue
        closes = shape == "close"
        # a closer's first bracket ends the innermost bracket open above it; an opener's last
        # bracket is the innermost, closed first below it
        x, pos = _partner(lab.t_lines, rows, kinds, tc, 1, not closes, limit)
        if x < 0 or match[x] == NONE:
            continue
        u_file = int(r.up_file[rows[x]])
        if lab.blocked_from(u_file, tc):
            continue
        # the bracketed content copied too: at least ``lone_bracket_min_share`` of the code lines
        # between the two brackets paired with that upstream file (an import list re-sorted and
        # renamed keeps its ``from .compat import (`` line, not its ``)``)
        inside = [k for k in range(min(x, tc) + 1, max(x, tc)) if kinds[k] == CODE]
        if not inside or sum(match[k] != NONE and int(r.up_file[rows[k]]) == u_file for k in inside) \
                < lab.p.lone_bracket_min_share * len(inside):
            continue
        # which of line x's brackets open past it (closing above it) that one is, counted from
        # the outermost (the innermost): the same one of the upstream line x is paired with
        x_text = lab.t_lines[rows[x]]
        listed = _still_open(x_text) if closes else _opened_above(x_text)
        if pos not in listed:
            continue
        index = listed.index(pos)
        y_row = int(r.up_row[rows[x]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_kinds = lab.upstream_kinds(u_file)
        y = int(np.searchsorted(u_rows, y_row))
        if u_kinds[y] != CODE:
            continue
        theirs = _still_open(u_lines[y_row]) if closes else _opened_above(u_lines[y_row])
        z = y  # its bracket opens and closes on that line (``308: ("resume_incomplete", "resume"),``)
        if index < len(theirs):
            z, _ = _partner(u_lines, u_rows, u_kinds, y, len(theirs) - index if closes else index + 1, closes, limit)
            if z < 0:
                continue
        found.append((tc, u_file, int(u_rows[z]), x))
    return found


def _header_above(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the header of the block holding the line at ``at``: the nearest
    code line above it indented less (the closer of a header broken over lines aside); -1 if none."""
    depth = indentation(lines[rows[at]])
    for k in range(at - 1, -1, -1):
        text = lines[rows[k]]
        if kinds[k] == CODE and not opens_with_closer(text) and indentation(text) < depth:
            return k
    return -1


def _is_except(text: str) -> bool:
    stripped = text.strip()
    return stripped.endswith(":") and re.match(r"except\b", stripped) is not None


def except_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the paired line of its block) of the
    free ``except ...:`` lines whose block's first paired line (in that block, not a block
    inside it) is a line of the block of an upstream ``except ...:``, free (``lone_except_pairs``,
    see the module docstring)."""
    return _block_pairs(lab, _is_except, _header_above)


def pair_free_lines(lab: FileLabeller) -> None:
    """Pair the free lines the rules above find (``lone_clause_pairs``, ``lone_decorator_pairs``,
    ``lone_try_pairs``, ``lone_except_pairs``, ``lone_bracket_pairs``), in that order."""
    r, rows = lab.result, lab.t_rows
    for on, found in ((lab.p.lone_clause_pairs, clause_pairs), (lab.p.lone_decorator_pairs, decorator_pairs),
                      (lab.p.lone_try_pairs, try_pairs), (lab.p.lone_except_pairs, except_pairs),
                      (lab.p.lone_bracket_pairs, bracket_pairs)):
        if on:  # each rule after the one before has paired its lines (``taken`` then holds them)
            for tc, u_file, u_row, anchor in found(lab):
                t_text, u_text = lab.t_lines[rows[tc]].strip(), lab.upstream_lines(u_file)[1][u_row].strip()
                # the first three pair identical texts; an ``except`` or a bracket may be edited
                label = VERBATIM if t_text == u_text else NEAR
                lab.set_pair(tc, u_file, u_row, label, similarity(t_text, u_text, lab.p), int(r.region[rows[anchor]]))
