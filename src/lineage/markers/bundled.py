"""A bundling record written as code: ``_BUNDLED_METADATA = {"pypi_name": "six", "version": "1.16.0"}``.

ansible-core keeps one such module-level assignment in each package it bundles
(``ansible/module_utils/six/__init__.py``, ``ansible/module_utils/distro/__init__.py``) so that a
script can update the bundled code: it names the distribution and its release as a ``vendor.txt``
line would, but inside the file, where the comment and docstring reader never looks. Read as a
``copied_from`` marker at its line, ``project`` the distribution, ``ref`` the version (ansible
2.17.5's six was marked by Benjamin Peterson's copyright line alone, the weakest evidence).
Only a whole code line at the module's top, the dict written out on that line as literals
with a string ``pypi_name``: anything else (an indented line, a name, a call) is code, not a
record.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from lineage.markers.record import Marker, one_line

BUNDLED_NAME = "_BUNDLED_METADATA"
_ASSIGN_RE = re.compile(rf"{BUNDLED_NAME}\s*=\s*(?P<value>\{{.*\}})\s*(?:#.*)?")


def bundled_markers(lines: Sequence[str], kinds: Sequence[str] | None = None,
                    text: str | None = None) -> list[Marker]:
    """The bundling records among a file's physical ``lines`` (``kinds`` per line, as for
    :func:`lineage.markers.find_markers`: only a ``code`` line counts when given), one
    ``copied_from`` marker each, in line order. ``text``: ``lines`` joined by newlines, when the
    caller has it: a text without the name holds no record, and its lines are not looked at."""
    out: list[Marker] = []
    if text is not None and BUNDLED_NAME not in text:
        return out
    if not any(BUNDLED_NAME in line for line in lines if line[:1] == "_"):  # most files: one pass, no record
        return out
    for row, line in enumerate(lines):
        if not line.startswith(BUNDLED_NAME) or (kinds is not None and row < len(kinds) and kinds[row] != "code"):
            continue
        m = _ASSIGN_RE.fullmatch(line.rstrip())
        if m is None:
            continue
        try:
            value = ast.literal_eval(m.group("value"))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue  # not literals: computed at run time, no record
        name = value.get("pypi_name") if isinstance(value, dict) else None
        if not isinstance(name, str) or not name.strip():
            continue
        version = value.get("version")
        out.append(Marker(line=row + 1, kind="copied_from", text=one_line(line), project=name.strip(),
                          ref=version.strip() if isinstance(version, str) else ""))
    return out
