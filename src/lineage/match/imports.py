"""Import statements, as the matcher's rules read them (one place for every import test).

Imports are the commonest lines two unrelated Python files share, so several rules look at them,
each asking its own question of a line:

- :func:`is_import_line`: a whole one-line import (``import os``, ``from a.b import c, d``; not
  the opening line of a bracketed list). The fill pairs these in any order (isort moved them) and
  the lone-line rule lets two adjacent ones continue each other.
- :func:`import_module`: the module an import statement names, read from its first line
  (``from sglang.srt.layers.linear import (`` -> ``sglang.srt.layers.linear``). The statement
  rule pairs an import only with an import of the same module.
- :func:`unvendored_import`: a vendored copy's import with the vendoring root taken out
  (``from pip._vendor import requests`` -> ``import requests``), the line the vendoring tool
  rewrote; the fill's import rule pairs it with the upstream's.
- :func:`is_absolute_import`: an absolute import, on the line's abstract form (``from I . I
  import``); a relative one (``from . import x``) names the upstream's own module layout, so the
  idiom rule keeps it as evidence and does not count the absolute kind as distinctive.
"""

from __future__ import annotations

import re

from lineage.index.normalise import normalise_code

_ONE_LINE = re.compile(r"(?:import\s+[\w.]+|from\s+[\w.]+\s+import\s+[^(]+)(?:\s*#.*)?")
_WORDS = ("import", "from")  # every text _ONE_LINE matches starts with one of them
_MODULE = re.compile(r"\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+))")
_ABSOLUTE = re.compile(r"^(?:from I(?: \. I)* )?import ")


def is_import_line(text: str) -> bool:
    """Whether a stripped code line is a one-line import statement."""
    return text.startswith(_WORDS) and _ONE_LINE.fullmatch(text) is not None


def import_module(first_line: str) -> str | None:
    """The module an import statement (given by its first line) names; None for any other
    statement. A fork's ``from sglang.srt.layers.linear import (`` block is its own module's
    names, not a copy of ``from vllm.model_executor.layers.linear import (``, however alike."""
    m = _MODULE.match(first_line)
    return (m.group(1) or m.group(2)) if m else None


_FROM = re.compile(r"from\s+([\w.]+)\s+import\s+(.+)")
_PLAIN = re.compile(r"import\s+([\w.]+)(.*)")


def unvendored_import(text: str, root: str) -> str:
    """A one-line import of a vendored copy as its upstream wrote it, before the vendoring tool
    re-rooted it at ``root`` (a dotted module, ``pip._vendor``): ``from pip._vendor.x.y import z``
    -> ``from x.y import z``; ``from pip._vendor import tomli as tomllib`` -> ``import tomli as
    tomllib``; ``import pip._vendor.x`` -> ``import x``. Any other line is returned as it is."""
    if m := _FROM.fullmatch(text):
        module, names = m.groups()
        if module == root:
            return f"import {names}"
        if module.startswith(root + "."):
            return f"from {module[len(root) + 1:]} import {names}"
    elif (m := _PLAIN.fullmatch(text)) and m.group(1).startswith(root + "."):
        return f"import {m.group(1)[len(root) + 1:]}{m.group(2)}"
    return text


def is_absolute_import(text: str) -> bool:
    """Whether a stripped code line is an absolute import."""
    return bool(_ABSOLUTE.match(normalise_code(text)[1]))
