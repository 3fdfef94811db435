"""Where marker text is read: comment and docstring segments of each physical line.

The rules are in the docstring of :mod:`lineage.markers` (section "Where text is read").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# Markers sit near the start of a comment; bounding the text keeps the regexes cheap on
# pathological (minified, generated) lines.
MAX_SCAN = 4000


@dataclass(frozen=True)
class Segment:
    line: int  # 0-based
    col: int
    source: str  # "comment" | "string"
    text: str  # cleaned text
    whole_line: bool  # nothing but indentation before it (continuations must be whole lines)
    statement: bool  # a string literal that starts a statement: docstring-like


_PREFIX_CHARS = "rRbBuUfFtT"
_INTERESTING_RE = re.compile(r"[#\"'()\[\]{}]")
# A top-level statement resets the bracket depth, so one scanner slip does not hide every
# later docstring.
_TOP_LEVEL_RE = re.compile(r"(?:async\s+def|def|class|import|from)\b|@")


_CLOSE_RES = {q: re.compile(r"\\.?|" + re.escape(q)) for q in ('"""', "'''", '"', "'")}


def _find_close(line: str, start: int, quote: str) -> int:
    """Index just past the closing ``quote`` at or after ``start``, or -1."""
    for m in _CLOSE_RES[quote].finditer(line, start):
        # An escaped quote never closes, even in raw strings.
        if not m.group(0).startswith("\\"):
            return m.end()
    return -1


def scan(lines: Sequence[str]) -> list[list[Segment]]:
    """Raw comment and string segments per line (text not yet cleaned)."""
    out: list[list[Segment]] = []
    open_quote: str | None = None
    open_statement = False
    depth = 0
    for idx, line in enumerate(lines):
        segs: list[Segment] = []
        pos = 0
        n = len(line)
        if open_quote is not None:
            end = _find_close(line, 0, open_quote)
            body = line if end < 0 else line[: end - len(open_quote)]
            segs.append(Segment(idx, 0, "string", body, True, open_statement))
            if end < 0:
                out.append(segs)
                continue
            open_quote = None
            pos = end
        elif _TOP_LEVEL_RE.match(line):
            depth = 0
        while pos < n:
            hit = _INTERESTING_RE.search(line, pos)
            if hit is None:
                break
            pos = hit.start()
            ch = line[pos]
            if ch == "#":
                segs.append(Segment(idx, pos, "comment", line[pos + 1 :], not line[:pos].strip(), False))
                break
            if ch in "\"'":
                start = pos
                while start > 0 and pos - start < 2 and line[start - 1] in _PREFIX_CHARS:
                    start -= 1
                whole = not line[:start].strip()
                statement = whole and depth == 0
                quote = ch * 3 if line.startswith(ch * 3, pos) else ch
                body_start = pos + len(quote)
                end = _find_close(line, body_start, quote)
                if end < 0:
                    if len(quote) == 3:
                        open_quote, open_statement = quote, statement
                    # An unclosed one-quote string is a syntax error or a scanner slip; either
                    # way nothing after it on this line is trustworthy.
                    segs.append(Segment(idx, pos, "string", line[body_start:], whole, statement))
                    break
                segs.append(Segment(idx, pos, "string", line[body_start : end - len(quote)], whole, statement))
                pos = end
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth = max(0, depth - 1)
            pos += 1
        out.append(segs)
    return out


_TOOL_PRAGMA_RE = re.compile(
    r"\s+#\s*(?:noqa|type\s*:|pylint\s*:|pragma\b|fmt\s*:|isort\s*:|nosec|mypy\s*:|pyright\s*:"
    r"|ruff\s*:).*$",
    re.IGNORECASE,
)
_LEADING_PUNCT = " \t\f\v#*>•:-"
_RAW_DOCSTRING_OPEN_RE = re.compile(r"^\s*[rRuUbBfF]{0,2}(?:\"\"\"|'''|\"|')")
_RAW_DOCSTRING_CLOSE_RE = re.compile(r"(?:\"\"\"|'''|\"|')\s*[,)]?\s*$")


def clean(text: str) -> str:
    """A segment's text as markers are read from it: tool pragmas and leading punctuation off."""
    text = text[:MAX_SCAN]
    text = _TOOL_PRAGMA_RE.sub("", text)
    return text.lstrip(_LEADING_PUNCT).rstrip()


def select(lines: Sequence[str], kinds: Sequence[str] | None, scanned: list[list[Segment]]) -> list[list[Segment]]:
    """The segments to read markers from, with cleaned text."""
    selected: list[list[Segment]] = []
    for idx, line in enumerate(lines):
        raw = scanned[idx]
        if kinds is None:
            keep = [s for s in raw if s.source == "comment" or s.statement]
        else:
            kind = kinds[idx] if idx < len(kinds) else "code"
            if kind == "blank":
                keep = []
            elif kind == "docstring":
                keep = [s for s in raw if s.source in ("string", "comment")]
                if not any(s.source == "string" for s in raw):
                    # The caller knows better than the scanner: read the whole line.
                    text = _RAW_DOCSTRING_CLOSE_RE.sub("", _RAW_DOCSTRING_OPEN_RE.sub("", line))
                    keep = [Segment(idx, 0, "string", text, True, True)]
            else:
                keep = [s for s in raw if s.source == "comment"]
                if not keep and kind == "comment" and line.lstrip().startswith("#"):
                    col = line.index("#")
                    keep = [Segment(idx, col, "comment", line[col + 1 :], True, False)]
        selected.append([Segment(s.line, s.col, s.source, clean(s.text), s.whole_line, s.statement) for s in keep])
    return selected

