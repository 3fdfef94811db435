"""Text from the inputs (file names, marker text, labels, specs) made safe for Markdown tables.

File names may hold ``|`` or backticks and marker text may hold HTML (``<script>``): left raw,
they break a table or run in a viewer that renders Markdown. Everything from the inputs passes
through one of these two functions; lineage's own words do not need to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_ENTITY_LIKE = re.compile(r"&(?=#?[0-9A-Za-z]+;)")  # an & that a renderer would read as a reference
_TEXT_SPECIAL = str.maketrans({"|": "\\|", "\\": "\\\\", "`": "\\`", "\n": " ", "\r": " "})


def md_text(text: object, limit: int = 0) -> str:
    """Plain text for a table cell: ``<`` and ``>`` HTML escaped, ``&`` only where it would start
    an entity or character reference (``&copy;``, ``&#169;``: Markdown shows any other ``&`` as it
    is, so "Rapptz & contributors" stays readable in the raw file), ``|`` and backticks escaped,
    one line.

    ``limit`` cuts the text (before escaping, so no escape is cut in half) and ends it with "…",
    so a cut URL or commit hash is not taken for a whole one (seaborn 0.13.2's appdirs marker
    showed an 80-character URL cut inside its commit hash)."""
    raw = str(text)
    if limit and len(raw) > limit:
        raw = raw[:limit].rstrip() + "…"
    return _ENTITY_LIKE.sub("&amp;", raw).replace("<", "&lt;").replace(">", "&gt;").translate(_TEXT_SPECIAL)


def counted(n: int, noun: str) -> str:
    """A count with its noun in the number it needs: "1 pair", "2 pairs", "1 target file"."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def md_code(text: object) -> str:
    """A code span that holds the text whatever it contains (one line; fenced past its backticks).

    Inside a code span Markdown shows characters as they are, so ``<`` and ``|`` need no escape
    except that ``|`` still ends a table cell in most renderers: it is written as ``\\|``.
    """
    raw = str(text).replace("\n", " ").replace("\r", " ").replace("|", "\\|")
    longest = run = 0
    for ch in raw:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if raw.startswith("`") or raw.endswith("`") else ""
    return f"{fence}{pad}{raw}{pad}{fence}"


def md_table(columns: Sequence[str], aligns: Sequence[str], rows: Iterable[Sequence[str]], total: int,
             more: str) -> list[str]:
    """Table lines: a header, the given rows (the first of ``total``), a row saying how many more
    there are and where they are (``more``, e.g. ``files.csv``), then a blank line."""
    out = ["| " + " | ".join(columns) + " |", "|" + "|".join(aligns) + "|"]
    shown = 0
    for cells in rows:
        out.append("| " + " | ".join(cells) + " |")
        shown += 1
    if total > shown:
        out.append(f"| ... {total - shown} more (see {more}) |" + " |" * (len(columns) - 1))
    out.append("")
    return out
