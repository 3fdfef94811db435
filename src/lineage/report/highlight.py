"""Syntax colouring of chosen lines (Pygments) and the inner differences of a `near` pair (difflib).

Only the lines a page shows unfolded are coloured. Each stretch of them is lexed from the
nearest earlier line where no string is open (line 1, a def/class start, the line after a
def/class ends, a line that begins with a comment: from tree-sitter's spans and line kinds), so a
multi-line string keeps its colour without lexing the whole file; overlapping stretches are
lexed once. Everything that reaches HTML goes
through :func:`html.escape` here.
"""

from __future__ import annotations

import bisect
import difflib
import html
import re
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES, _TokenType

# A line is a list of (css class, text) pieces; class "" is plain text.
Pieces = list[tuple[str, str]]

# Longer lines are coloured but not diffed inside (difflib is quadratic in the line length).
MAX_DIFF_CHARS = 400
STYLE = "default"

_LEXER = PythonLexer(stripnl=False, stripall=False, ensurenl=True, tabsize=0)


@lru_cache(maxsize=1)
def _groups() -> tuple[dict[str, str], str]:
    """Pygments' short classes merged by the style they get: short class -> group class, and the CSS.

    Tokens the style leaves plain (names, punctuation) get no element at all, and whitespace is
    not marked, which keeps pages small.
    """
    defs = HtmlFormatter(style=STYLE).get_style_defs(".hl")
    rule = re.compile(r"^\.hl \.([\w-]+) \{ (.*) \}")
    by_style: dict[str, str] = {}
    group: dict[str, str] = {}
    for line in defs.splitlines():
        found = rule.match(line)
        if not found or found.group(1) in ("hll", "w"):
            continue
        style = found.group(2)
        group[found.group(1)] = by_style.setdefault(style, f"t{len(by_style)}")
    css = "\n".join(f".hl i.{name}{{font-style:normal;{style}}}" for style, name in by_style.items())
    return group, css


def style_css() -> str:
    """The CSS of the colour groups (``<i class=tN>`` inside ``.hl``)."""
    return _groups()[1]


@cache
def _css_class(ttype: _TokenType) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return _groups()[0].get(STANDARD_TYPES[ttype], "")


def statement_starts(n_lines: int, spans: Iterable[tuple[int, int]], comments: Iterable[int] = ()) -> list[int]:
    """Sorted 1-based lines where lexing may start, as no string is open there: line 1, each
    def/class span's start and the line after it, and lines that begin with a comment."""
    starts = {1, *comments}
    for start, end in spans:
        starts.add(start)
        if end < n_lines:
            starts.add(end + 1)
    return sorted(starts)


def _lex(lines: Sequence[str], first: int, last: int) -> list[Pieces]:
    """Pieces of lines ``first..last`` (1-based, inclusive), lexed as one text from ``first``."""
    out: list[Pieces] = [[]]
    text = "\n".join(lines[first - 1 : last]) + "\n"
    for _, ttype, value in _LEXER.get_tokens_unprocessed(text):
        cls = _css_class(ttype)
        parts = value.split("\n")
        for k, part in enumerate(parts):
            if k:
                out.append([])
            if part:
                line = out[-1]
                if line and line[-1][0] == cls:  # merge neighbours of one colour
                    line[-1] = (cls, line[-1][1] + part)
                else:
                    line.append((cls, part))
    if out and not out[-1]:
        out.pop()
    expected = lines[first - 1 : last]
    if len(out) != len(expected) or any("".join(t for _, t in p) != e for p, e in zip(out, expected, strict=True)):
        return [[("", e)] if e else [] for e in expected]  # the lexer changed the text: plain, exact lines
    return out


def colour(lines: Sequence[str], starts: list[int], wanted: Iterable[tuple[int, int]]) -> dict[int, Pieces]:
    """Pieces of every line in the ``wanted`` 1-based inclusive ranges, keyed by line number."""
    out: dict[int, Pieces] = {}
    spans: list[list[int]] = []
    for a, b in sorted(wanted):
        a, b = max(a, 1), min(b, len(lines))
        if a > b:
            continue
        begin = starts[bisect.bisect_right(starts, a) - 1]
        if spans and begin <= spans[-1][1] + 1:
            spans[-1][1] = max(spans[-1][1], b)
        else:
            spans.append([begin, b])
    for a, b in spans:
        for k, pieces in enumerate(_lex(lines, a, b)):
            out[a + k] = pieces
    return out


def plain(line: str) -> Pieces:
    return [("", line)] if line else []


def render(pieces: Pieces, marks: Sequence[tuple[int, int]] = ()) -> str:
    """HTML of one line; ``marks`` are sorted, disjoint character ranges wrapped in ``<mark>``."""
    out = []
    pos = 0
    m = 0
    for cls, text in pieces:
        end = pos + len(text)
        inner = []
        cut = pos
        while m < len(marks) and marks[m][0] < end:
            a, b = max(marks[m][0], cut), min(marks[m][1], end)
            if a > cut:
                inner.append(html.escape(text[cut - pos : a - pos], quote=False))
            if b > a:
                inner.append("<mark>" + html.escape(text[a - pos : b - pos], quote=False) + "</mark>")
                cut = b
            if marks[m][1] <= end:
                m += 1
            else:
                break
        if cut < end:
            inner.append(html.escape(text[cut - pos :], quote=False))
        body = "".join(inner)
        out.append(f"<i class={cls}>{body}</i>" if cls else body)
        pos = end
    return "".join(out)


_WORDS = re.compile(r"\w+|\s+|[^\w\s]")


def inner_differences(a: str, b: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Character ranges of ``a`` and of ``b`` that differ, word by word (a renamed identifier is
    marked whole), ignoring leading and trailing blanks."""
    if len(a) > MAX_DIFF_CHARS or len(b) > MAX_DIFF_CHARS:
        return [], []
    a_off, b_off = len(a) - len(a.lstrip()), len(b) - len(b.lstrip())
    wa, wb = _WORDS.findall(a.strip()), _WORDS.findall(b.strip())
    ends_a, ends_b = _ends(wa, a_off), _ends(wb, b_off)
    ra: list[tuple[int, int]] = []
    rb: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            ra.append((ends_a[i1], ends_a[i2]))
        if j2 > j1:
            rb.append((ends_b[j1], ends_b[j2]))
    return ra, rb


def _ends(words: list[str], offset: int) -> list[int]:
    """Character offset of each word's start, and of the end."""
    out = [offset]
    for w in words:
        out.append(out[-1] + len(w))
    return out
