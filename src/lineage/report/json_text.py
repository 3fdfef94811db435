"""JSON text for the large attachments (SPDX, CycloneDX, SARIF): the outer containers laid out
one member per line, each deeper value on one line of its own.

Why not ``json.dump(..., indent=N)``: with an indent the standard library encodes in pure
Python, 0.25 s for the pinned pair's 5 MB SPDX document, on every rerun, in the one-changed-file
run that issue 13 times; compact values go through its C encoder (a tenth of that). And a file,
snippet, relationship, component or result per line is what a reviewer diffing two runs wants:
one changed element is one changed line. The text parses to the same value as ``json.dumps``'s
(tested), in the key order given.
"""

from __future__ import annotations

import json
from typing import Any

_COMPACT = json.JSONEncoder(ensure_ascii=True, separators=(", ", ": ")).encode


class Encoded(str):
    """A value's JSON text, made already by :func:`compact` (a writer's element kept between runs
    as its text: neither decoded nor encoded again); :func:`dumps_lines` writes it as it is, where
    it writes a value on one line."""


def compact(value: Any) -> str:
    """``value`` as :func:`dumps_lines` writes a value on one line."""
    return _COMPACT(value)


def dumps_lines(value: Any, levels: int, indent: str = "  ") -> str:
    """``value`` as JSON text: dicts and lists nested fewer than ``levels`` containers deep (the
    outermost is level 1) one member per line, each indented by ``indent`` per level; everything
    deeper (and every empty container) on its member's line, as ``json.dumps`` writes it with
    ``separators=(", ", ": ")`` (an :class:`Encoded` value: its text). No trailing newline."""
    parts: list[str] = []
    _write(value, levels, indent, "", parts)
    return "".join(parts)


def _key(key: object) -> str:
    """A member's name as ``json.dumps`` writes it: a string as it is, ``True``/``False``/``None``
    and numbers as their JSON text in quotes; another key is refused, as ``json.dumps`` does."""
    if isinstance(key, str):
        return _COMPACT(key)
    if key is None or isinstance(key, bool | int | float):
        return _COMPACT(_COMPACT(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _write(value: Any, levels: int, indent: str, pad: str, parts: list[str]) -> None:
    if isinstance(value, Encoded):
        if levels > 0:  # its members would go one per line: the text is laid out otherwise
            raise ValueError("an encoded value where members go one per line")
        parts.append(value)
        return
    if levels <= 0 or not isinstance(value, dict | list) or not value:
        parts.append(_COMPACT(value))
        return
    inner = pad + indent
    if isinstance(value, dict):
        parts.append("{")
        for number, (key, member) in enumerate(value.items()):
            parts.append(("\n" if number == 0 else ",\n") + inner + _key(key) + ": ")
            _write(member, levels - 1, indent, inner, parts)
        parts.append("\n" + pad + "}")
        return
    parts.append("[")
    for number, member in enumerate(value):
        parts.append(("\n" if number == 0 else ",\n") + inner)
        _write(member, levels - 1, indent, inner, parts)
    parts.append("\n" + pad + "]")
