"""Compound statements read from their lines: a clause's header and block, a decorator, a closer.

Pure functions over a file's lines (``lines``, its content rows ``rows`` and their kinds
``kinds``, as the matcher's labeller holds them), shared by the lone-line rules that drop a
paired line (:mod:`lineage.match.lone`) and those that pair a free one
(:mod:`lineage.match.lone_pairs`).
"""

from __future__ import annotations

import re

import numpy as np

from lineage.index import CODE
from lineage.match.fill_survivors import indentation

# A decorator line: ``@`` then a name (``@property``, ``@torch.compile(...)``); a continuation
# line starting with the matrix product (``@ key_states.transpose(-1, -2)``) is none.
DECORATOR = re.compile(r"@[A-Za-z_]")
# A line that only closes brackets: ``)``, ``],``, ``})``, ``):``, ``) -> None:``.
CLOSER = re.compile(r"[)\]}]+[,:]?(\s*->\s*[\w.\[\], |]+:)?")

CLAUSE = {"else:", "finally:"}
# The first word of a clause header an ``else:``/``finally:`` may follow.
_HEADS = ("if", "elif", "for", "async", "while", "try", "except")


def opens_with_closer(text: str) -> bool:
    """A line that begins with a closing bracket (an exploded header's ``):``)."""
    return text.lstrip()[:1] in (")", "]", "}")


def clause_header(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the clause header the clause at ``at`` continues: the nearest code
    line above it at its indentation that does not begin with a closing bracket, if it begins
    with a clause keyword; -1 if there is none (a line less indented comes first)."""
    depth = indentation(lines[rows[at]])
    for k in range(at - 1, -1, -1):
        if kinds[k] != CODE:
            continue
        text = lines[rows[k]]
        if opens_with_closer(text):
            continue  # the closer of a header broken over lines (``):``)
        here = indentation(text)
        if here < depth:
            return -1
        if here == depth:
            word = text.strip().split(maxsplit=1)[0].rstrip(":") if text.strip() else ""
            return k if word in _HEADS else -1
    return -1


# A ``def`` header line's opening, and the function's name (:func:`enclosing_def`,
# :func:`enclosing_function`).
_DEF_NAME = re.compile(r"(?:async\s+)?def\s+(\w+)")


def enclosing_def(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the ``def`` header line whose body holds the code line at ``at``
    directly (the nearest code line above it that is less indented and does not begin with a
    closing bracket, if it is a ``def``; the first line of a header broken over lines); -1 if
    that line is no ``def``; at once for a line at the module's depth, which no line holds)."""
    depth = indentation(lines[rows[at]])
    if depth == 0:
        return -1
    for k in range(at - 1, -1, -1):
        text = lines[rows[k]]
        if kinds[k] != CODE or opens_with_closer(text) or indentation(text) >= depth:
            continue
        return k if _DEF_NAME.match(text.lstrip()) else -1
    return -1


def enclosing_function(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> tuple[int, str] | None:
    """The innermost ``def`` holding the content line at ``at`` (through any clause between: the
    nearest code line above each depth that is less indented and does not begin with a closing
    bracket), or the one it heads: that header's index (in ``rows``) and the function's name;
    None for a line in no function (a class body, the module). A line opening with a closing
    bracket (an exploded header's ``) -> int:``) is its statement's, whose first line stands at
    its depth: read from one deeper, so that header is found (it was passed by, and a method's
    closer was read as in no function, a nested def's as in the outer one). A decorator line
    heads the ``def`` it decorates (:func:`decorated_def`), and so do its own lines (a call's
    arguments): a method's ``@property`` was read as in no function, the class's body."""
    text = lines[rows[at]]
    if kinds[at] == CODE and (match := _DEF_NAME.match(text.lstrip())) is not None:
        return at, match.group(1)
    if kinds[at] == CODE and DECORATOR.match(text.lstrip()) is not None:
        header = decorated_def(lines, rows, kinds, at)
        if header >= 0:
            return enclosing_function(lines, rows, kinds, header)
    depth = indentation(text) + (1 if kinds[at] == CODE and opens_with_closer(text) else 0)
    for k in range(at - 1, -1, -1):
        if depth == 0:
            break
        text = lines[rows[k]]
        if kinds[k] != CODE or not text.strip() or opens_with_closer(text) or indentation(text) >= depth:
            continue
        if (match := _DEF_NAME.match(text.lstrip())) is not None:
            return k, match.group(1)
        # a line of a decorator's own statement (a class's decorator: read on, as its class)
        if DECORATOR.match(text.lstrip()) is not None and (header := decorated_def(lines, rows, kinds, k)) >= 0:
            return enclosing_function(lines, rows, kinds, header)
        depth = indentation(text)
    return None


def decorated_def(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the ``def`` header the decorator line at ``at`` decorates: the
    first code line below it at its depth past further decorators (a decorator's own lines below
    it, deeper or a closer, and comments passed by); -1 when that is no ``def`` (a class)."""
    depth = indentation(lines[rows[at]])
    for k in range(at + 1, len(rows)):
        text = lines[rows[k]]
        if kinds[k] != CODE or indentation(text) > depth or opens_with_closer(text):
            continue
        if DECORATOR.match(text.lstrip()) is not None and indentation(text) == depth:
            continue
        return k if indentation(text) == depth and _DEF_NAME.match(text.lstrip()) else -1
    return -1


def function_start(lines: list[str], rows: np.ndarray, kinds: np.ndarray, header: int) -> int:
    """Index (in ``rows``) of the first line of the function whose ``def`` header is at
    ``header``: its first decorator (``@property`` above ``def clean_prefix``), the header when
    it has none. Walks up past the decorators at the header's depth, their own lines (deeper, or
    a closer) and comments; stops at any other code line."""
    depth = indentation(lines[rows[header]])
    start = header
    for k in range(header - 1, -1, -1):
        text = lines[rows[k]]
        if kinds[k] != CODE:
            continue
        here = indentation(text)
        if here == depth and DECORATOR.match(text.lstrip()) is not None:
            start = k
        elif here < depth or (here == depth and not opens_with_closer(text)):
            break
    return start


def function_end(lines: list[str], rows: np.ndarray, kinds: np.ndarray, header: int) -> int:
    """One past the last code line of the function whose ``def`` header is at ``header`` (its
    header's own lines and its body; comments after its last code line belong to what follows)."""
    last = last_code_line(kinds, block_of(lines, rows, kinds, header))
    return max(last, header) + 1


def last_code_line(kinds: np.ndarray, block: range) -> int:
    """The last code line of a block (an index in its rows), -1 if it has none."""
    return next((k for k in reversed(block) if kinds[k] == CODE), -1)


def block_of(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> range:
    """The content lines of the block the clause at ``at`` opens: up to the next code line
    indented no deeper than the clause (a closing bracket at its depth aside, as above)."""
    depth = indentation(lines[rows[at]])
    k = at + 1
    while k < len(rows):
        text = lines[rows[k]]
        if kinds[k] == CODE and indentation(text) <= depth and not opens_with_closer(text):
            break
        k += 1
    return range(at + 1, k)
