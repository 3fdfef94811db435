"""Format tables and wrapped paragraphs for terminal output."""

from __future__ import annotations

import textwrap

from minipkg.mathutil import clamp

DEFAULT_WIDTH = 72


def wrap_paragraph(text: str, width: int = DEFAULT_WIDTH, indent: str = "") -> str:
    """Re-flow ``text`` into lines of at most ``width`` characters."""
    width = int(clamp(width, 20, 200))
    return textwrap.fill(
        " ".join(text.split()),
        width=width,
        initial_indent=indent,
        subsequent_indent=indent,
    )


def format_table(rows: list[list[object]], headers: list[str] | None = None) -> str:
    """Render rows as a plain-text table with left-aligned columns.

    Every cell is converted with ``str``; columns are as wide as their
    widest cell, and a dashed rule separates the headers from the body.
    """
    cells = [[str(cell) for cell in row] for row in rows]
    if headers:
        cells.insert(0, list(headers))
    if not cells:
        return ""
    columns = max(len(row) for row in cells)
    for row in cells:
        row.extend([""] * (columns - len(row)))
    widths = [max(len(row[index]) for row in cells) for index in range(columns)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    ]
    if headers:
        rule = "  ".join("-" * width for width in widths)
        lines.insert(1, rule)
    return "\n".join(lines)


def human_size(size: float, binary: bool = True) -> str:
    """Format a byte count, e.g. 1536 -> '1.5 KiB'."""
    base = 1024.0 if binary else 1000.0
    units = ["B", "KiB", "MiB", "GiB", "TiB"] if binary else ["B", "kB", "MB", "GB", "TB"]
    for unit in units[:-1]:
        if abs(size) < base:
            return f"{size:.1f} {unit}" if unit != "B" else f"{int(size)} B"
        size /= base
    return f"{size:.1f} {units[-1]}"


def banner(title: str, char: str = "=", width: int = DEFAULT_WIDTH) -> str:
    # A centred title between two rules of the same width.
    rule = char * width
    return "\n".join([rule, title.center(width), rule])
