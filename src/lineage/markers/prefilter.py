"""The one pre-filter: which lines can hold a marker, so the reader skips the rest.

Every marker contains one of :data:`HINTS` (lower-cased, as a plain substring): each phrase its
verb, a URL ``http`` or its code host's name (``github.com/...`` needs no scheme), an SPDX line
``spdx``, a copyright line ``copyright``, ``©``, ``(c)`` or (the ASF header's form) ``licensed
to``; a line whose text opens with "from", a name and a release, :data:`BARE_FROM_HINT_RE`
(a regular expression: a plain ``from`` would hit every sentence).
:func:`lineage.markers.find_markers` reads only segments that hold a hint;
:func:`lineage.markers.find_file_markers` (the index's reader) reads only windows of lines around
them. One tuple and one expression serve both, so they cannot drift.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from lineage.markers.attribution import HOLDER_LINES

HINTS: tuple[str, ...] = (
    # phrase verbs (vocabulary._FROM_VERBS, based on, inspired by, "a copy of", "a port of",
    # "a port (...) of": with its space, "port" alone is in every "import"; "an adaptation of";
    # "a rewrite of" / "a rewriting of")
    "derived", "adapted", "adopted", "copied", "vendored", "modified", "ported", "taken",
    "borrowed", "forked", "stolen", "copy", "based", "inspired", " port of", " port (", "adaptation", "rewrit",
    "brought", "lifted", "cribbed", "translated",  # "brought over from", ... (vocabulary._FROM_VERBS)
    "duplicate",  # "duplicated from", "duplicate logic from" (vocabulary._OBJECT_VERBS)
    "adapts", "borrows",  # "adapts logic from" (vocabulary._OBJECT_VERBS)
    "code from",  # "(Original) code from: URL" (vocabulary._CODE_FROM)
    "originally from",  # "This file is originally from ..." (vocabulary._ORIGINALLY_FROM)
    "come", "came", "pulled",  # "The code here comes (came, is pulled) from" (vocabulary._COMES_FROM_RE)
    # URLs (urls._CODE_HOSTS), licence and copyright lines (attribution)
    "http", "github", "gitlab", "spdx", "copyright", "©", "(c)", "licensed to",
    "license at", "licence at", "license is at", "licence is at",  # licence pointers (pointers)
)
# "from" opening a line's text (or its comment), a name and a release: "# from jaraco.functools 3.3"
# (vocabulary._BARE_FROM_RE)
BARE_FROM_HINT_RE = re.compile(r"(?:^|#)\s*from\s+[`'\"*]*[a-z][\w.-]*[`'\"*]*\s+v?\d+\.\d", re.MULTILINE)
# Lines read around a hit: a phrase's source, URL or "with A->B" may sit up to two lines below
# it, a line's judgement looks at the line above, and a copyright line of years alone takes its
# holders from up to HOLDER_LINES lines below.
WINDOW = max(4, HOLDER_LINES)
_SEGMENT_KINDS = ("comment", "docstring")  # lines whose whole text the reader reads
_DOCSTRING_ROWS = ("docstring", "blank")


def may_hold_marker(text: str) -> bool:
    """Whether ``text`` (one segment) contains a hint, so it may hold a marker."""
    lower = text.lower()
    return any(hint in lower for hint in HINTS) or bool(BARE_FROM_HINT_RE.search(lower))


def word_offsets(text: str, words: Sequence[str]) -> list[int]:
    """Where each of ``words`` starts in ``text``, every occurrence (not overlapping one of the
    same word), word by word: one ``str.find`` scan of the whole text per word, for the callers
    that look for a few words in many joined lines at once (also
    :func:`lineage.match.headers.header_rows`' notice words)."""
    offsets: list[int] = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            offsets.append(at)
            at = text.find(word, at + len(word))
    return offsets


def _docstring_start(kinds: Sequence[str] | None, lo: int) -> int:
    """``lo``, or the first line of the docstring it falls inside: the reader's scanner, started
    inside one, takes a quoted word of its text for a string of its own ("Copyright (c) 2009" in
    pandas' ``Appender("Copyright (c) 2009", join='\\n')`` example read as a copyright line)."""
    if kinds is None or lo >= len(kinds) or kinds[lo] not in _DOCSTRING_ROWS:
        return lo
    row = lo
    while row > 0 and kinds[row - 1] in _DOCSTRING_ROWS:  # a docstring's blank lines are "blank"
        row -= 1
        if kinds[row] == "docstring":
            lo = row
    return lo


def hint_windows(lines: Sequence[str], kinds: Sequence[str] | None = None,
                 text: str | None = None) -> list[tuple[int, int]] | None:
    """Half-open row ranges ``[lo, hi)`` around every line holding a hint, merged and sorted.

    With ``kinds`` (the reader's per-line kinds), only lines that can hold a segment are
    searched: comment and docstring lines, and any other line holding ``#`` (a code line gives
    the reader only the text after its ``#``; a blank line gives nothing). A hint anywhere else
    starts no marker, and every line that can start one keeps its whole window, so the reader
    finds the same markers while the searches cover a fraction of the file. A window opening
    inside a docstring opens at its first line, where the reader's scanner knows it is in one.

    None when the text cannot be searched this way (lower-casing changed the file's length, so
    offsets would drift): the caller then reads every line. ``text``: ``lines`` joined by
    newlines, when the caller has it (it is joined here otherwise).
    """
    joined = "\n".join(lines) if text is None else text
    if not joined.isascii() and len(joined.lower()) != len(joined):
        return None  # the same test as on the whole file (ASCII text keeps its length)
    rows = list(range(len(lines))) if kinds is None else \
        [row for row, line in enumerate(lines) if "#" in line or (row < len(kinds) and kinds[row] in _SEGMENT_KINDS)]
    text = "\n".join([lines[row] for row in rows]).lower()
    offsets = word_offsets(text, HINTS) + [m.end() - 1 for m in BARE_FROM_HINT_RE.finditer(text)]
    line_starts: list[int] = []
    start = 0
    for row in rows:
        line_starts.append(start)
        start += len(lines[row]) + 1
    windows: list[tuple[int, int]] = []
    for row in sorted({rows[bisect_right(line_starts, at) - 1] for at in offsets}):
        lo, hi = _docstring_start(kinds, max(0, row - WINDOW)), min(len(lines), row + WINDOW + 1)
        if windows and lo <= windows[-1][1]:
            windows[-1] = (min(windows[-1][0], lo), max(windows[-1][1], hi))
        else:
            windows.append((lo, hi))
    return windows
