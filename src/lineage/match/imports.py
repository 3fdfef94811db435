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
- :func:`as_upstream_package`: a fork's import of its own renamed package as the upstream wrote
  it (``import nextcord`` -> ``import discord``); the fill's import rule pairs it with the
  upstream's and the lone-line rule keeps it as it keeps a verbatim one.
- :func:`tree_rename`: which top-level package of the target stands for which of the upstream's
  (one name differing on each side), so that the test above applies to every file of the tree.
- :func:`as_upstream_folder`: the same for an import of a module below a renamed folder that is
  no single top package (``lightning.pytorch.loggers`` -> ``pytorch_lightning.loggers``).
- :func:`imports_disagree`: two import statements of other modules that bind other names
  (``import io`` / ``import asyncio``): never an edit of one another, whatever their place
  (:func:`lineage.match.labels.pair_label` refuses them).
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


def as_upstream_package(text: str, packages: tuple[str, frozenset[str]]) -> str | None:
    """A one-line import of the target file's own top package as the upstream wrote it, when
    that package stands in place of the upstream's one top-level package (a fork's rename:
    ``from nextcord.backoff import ExponentialBackoff`` -> ``from discord.backoff import
    ExponentialBackoff``, ``import nextcord`` -> ``import discord``); None for any other line,
    and when the upstream tree has several top-level packages (which one was renamed cannot be
    told) or a package of the target's name."""
    top, upstream_packages = packages
    if not top or top in upstream_packages or len(upstream_packages) != 1 or not is_import_line(text):
        return None
    m = _MODULE.match(text)
    named = 1 if m is not None and m.group(1) else 2  # the group of the module's name (``from X``, ``import X``)
    if m is None or m.group(named).split(".")[0] != top:
        return None
    (theirs,) = upstream_packages
    at = m.start(named)  # where the name stands (``import im``: not the keyword's "im")
    return text[:at] + theirs + text[at + len(top):]


def tree_rename(target_tops: frozenset[str], upstream_tops: frozenset[str]) -> tuple[str, str] | None:
    """(the target's name, the upstream's) when the two trees' top-level names (packages and
    modules, :func:`lineage.index.project.top_level`) differ in exactly one on each side: that
    package was renamed, and an import of it anywhere in the target, a test or demo script's as
    much as the package's own, is the upstream's import but for the rename (ssh 1.8.0's
    ``demos/demo.py``: ``import ssh`` <- paramiko 1.8.0's ``import paramiko``, whose sdist also
    holds ``demos/``, ``test.py`` and ``setup_helper.py``, so :func:`as_upstream_package` alone
    could not tell which of its four names was renamed). None otherwise (no name of the target
    known, the same names, several differing)."""
    mine, theirs = target_tops - upstream_tops, upstream_tops - target_tops
    if len(mine) != 1 or len(theirs) != 1:
        return None
    return next(iter(mine)), next(iter(theirs))


def as_upstream_folder(text: str, modules: tuple[str, str]) -> str | None:
    """A one-line import of a module below the target file's renamed folder as the upstream wrote
    it, in a pair at the target file's place below a folder rename (``modules``: the dotted
    folders above the two files' shared path ending, :meth:`lineage.match.labels.FileLabeller.renamed_modules`).
    lightning 2.4.0's ``lightning/pytorch/loggers/__init__.py`` stands where pytorch-lightning's
    ``pytorch_lightning/loggers/__init__.py`` does: ``from lightning.pytorch.loggers.csv_logs
    import CSVLogger`` -> ``from pytorch_lightning.loggers.csv_logs import CSVLogger``. The
    rename of a package below the top, or of one of several top packages, which
    :func:`as_upstream_package` cannot tell; None for any other line, and when either folder
    is the tree's root (a vendored copy's imports: :func:`unvendored_import`)."""
    mine, theirs = modules
    if not mine or not theirs or mine == theirs or not is_import_line(text):
        return None
    m = _MODULE.match(text)
    if m is None:
        return None
    named = 1 if m.group(1) else 2  # the group of the module's name (``from X``, ``import X``)
    name = m.group(named)
    if name != mine and not name.startswith(mine + "."):
        return None
    at = m.start(named)
    return text[:at] + theirs + text[at + len(mine):]


def is_absolute_import(text: str) -> bool:
    """Whether a stripped code line is an absolute import."""
    return bool(_ABSOLUTE.match(normalise_code(text)[1]))


def _import_names(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """What a one-line import imports and what it binds: (the full names imported, the names
    bound in the module). ``from a import b as c, d`` -> ({a.b, a.d}, {c, d}); ``import a.b`` ->
    ({a.b}, {a}); ``import a.b as c`` -> ({a.b}, {c}); a star imports ``a.*`` and binds no name
    of its own. None when the line shows no complete list of names: the opening line of a
    bracketed list, a line continued with a backslash, two statements on one line."""
    code = text.split("#", 1)[0].strip()
    if "\\" in code or ";" in code:
        return None
    if m := _FROM.fullmatch(code):
        module, names = m.group(1), m.group(2).strip()
        if names.startswith("("):
            if not names.endswith(")"):
                return None
            names = names[1:-1]
        parts = [part.split() for part in names.split(",") if part.split()]
        if not parts or any(len(p) not in (1, 3) or (len(p) == 3 and p[1] != "as") for p in parts):
            return None
        return (frozenset(f"{module}.{p[0]}" for p in parts),
                frozenset(p[-1] for p in parts if p[-1] != "*"))
    if m := _PLAIN.fullmatch(code):
        parts = [part.split() for part in (m.group(1) + m.group(2)).split(",") if part.split()]
        if not parts or any(len(p) not in (1, 3) or (len(p) == 3 and p[1] != "as") for p in parts):
            return None
        return (frozenset(p[0] for p in parts), frozenset(p[-1] if len(p) == 3 else p[0].split(".")[0] for p in parts))
    return None


def imports_disagree(t_text: str, u_text: str,
                     packages: tuple[str, frozenset[str]] = ("", frozenset())) -> bool:
    """Whether two stripped lines are import statements (by their first line) that import other
    modules and bind other names, so that one cannot be an edit of the other. They agree on the
    same module; on a module of the same name in another package (``sglang.srt.layers.linear`` /
    ``vllm.model_executor.layers.linear``: a module moved, or re-rooted by a vendoring tool,
    ``pip._vendor.urllib3.exceptions`` / ``urllib3.exceptions``); on the target file's own top
    package in place of one of the upstream's (``packages``: the target file's top package, its
    path's first folder below a ``src/`` or ``lib/`` layout root, and the upstream tree's
    top-level packages and modules, :mod:`lineage.index.project`; ``import nextcord`` in
    ``nextcord/client.py`` / ``import discord``: a renamed package); on the same full names
    imported (``import torch.nn as nn`` / ``from torch import nn``) or the same names bound, a
    star aside (``from pip._vendor import six`` / ``import six``, ``import typing as t`` /
    ``import typing_extensions as t``); and whenever either line shows no complete list of names
    (the opening line of a bracketed list: its pieces are judged). Any other pair of lines:
    False. Whether a fork's import of its own module is a copy at all is the statement rule's
    question (:func:`import_module`); this test refuses ``import io`` opposite ``import
    asyncio``, the place in a sorted block."""
    t_module, u_module = import_module(t_text), import_module(u_text)
    if t_module is None or u_module is None or t_module == u_module:
        return False
    t_parts, u_parts = t_module.split("."), u_module.split(".")
    t_top, upstream_packages = packages
    if (t_top and t_parts[0] == t_top and u_parts[0] in upstream_packages and t_top not in upstream_packages
            and t_parts[1:] == u_parts[1:]):
        return False
    if t_parts[-1] and t_parts[-1] == u_parts[-1]:
        return False
    t_names, u_names = _import_names(t_text), _import_names(u_text)
    if t_names is None or u_names is None:
        return False
    return t_names[0] != u_names[0] and (t_names[1] != u_names[1] or not t_names[1])
