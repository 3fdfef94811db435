"""Copyright lines of a module's ``__license__`` string: a licence notice written as code.

feedparser 5.2.1's ``feedparser.py`` states its holders ("Copyright 2010-2015 Kurt McKee",
"Copyright 2002-2008 Mark Pilgrim") only in ``__license__ = \"\"\"...\"\"\"`` at its top level,
whose lines are code, so no comment or docstring reading saw them and its copied code was
credited to the release's licence file's holders. The notice's copyright lines are the file's,
as they would be in a header comment; only those: the licence text around them states no
provenance.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lineage.markers.detect import detect
from lineage.markers.record import Marker
from lineage.markers.text import Segment, clean

_NAME = "__license__"  # the name the notice is assigned to (no line can start with it unless the text holds it)
# ``__license__ = "`` (or annotated, ``__license__: str = '''``) at a module's top level.
_LICENCE_STRING_RE = re.compile(
    r"^__license__[ \t]*(?::[^=\n]*)?=[ \t]*[rRuU]?(?P<q>\"\"\"|'''|\"|')")


def licence_string_copyrights(lines: Sequence[str], text: str | None = None) -> list[Marker]:
    """The copyright markers (1-based lines) of each top-level ``__license__`` string of the
    file's physical ``lines``, read as a docstring's lines are. ``text``: ``lines`` joined by
    newlines, when the caller has it: a text without the name holds no such string, and its
    lines are not looked at."""
    out: list[Marker] = []
    if text is not None and _NAME not in text:
        return out
    starts = [idx for idx, line in enumerate(lines) if line[:1] == "_" and line.startswith(_NAME)]
    for idx in starts:  # most files: one pass over the lines, none of them copied
        line = str(lines[idx])
        opened = _LICENCE_STRING_RE.match(line)
        if opened is None:
            continue
        quote = opened.group("q")
        body: list[tuple[int, str]] = []
        rest, at = line[opened.end():], idx
        while True:  # the string's lines, up to its closing quote (a one-quote string: one line)
            end = rest.find(quote)
            body.append((at, rest if end < 0 else rest[:end]))
            if end >= 0 or len(quote) == 1 or at + 1 >= len(lines):
                break
            at += 1
            rest = str(lines[at])
        selected: list[list[Segment]] = [[] for _ in lines]  # detect indexes it by line
        for n, text in body:
            selected[n] = [Segment(n, 0, "string", clean(text), True, True)]
        for n, _ in body:
            out.extend(marker for _, marker in detect(selected[n][0], selected, set()) if marker.kind == "copyright")
    return out
