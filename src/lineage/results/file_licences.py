"""One Python file's licence, copyright lines and modification notice.

Read from what the index already holds: the ``spdx`` and ``copyright`` markers of
:mod:`lineage.markers` (one place for those rules), and the comment and docstring lines of the
file's head for licence notice texts (:mod:`lineage.licences.notices`). A copyright the file
states in code, a top-level ``__copyright__ = "Copyright (C) 2010 Mariano Reingart"`` among its
head lines (PyFPDF 1.7.2's ``template.py`` and ``html.py``, whose only copyright line it is), is
one of its copyright lines too (the rule of :func:`lineage.licences.declared.dunder_copyrights`,
which reads a package's): else the upstream file named no holder and a copy that dropped it
was not told to keep it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from lineage.index import CODE, COMMENT, DOCSTRING
from lineage.licences.declared import dunder_copyrights
from lineage.licences.expressions import combine_all, normalise
from lineage.licences.notices import (
    CHANGE_MARKER_KINDS,
    change_statements,
    distinct_copyrights,
    fold,
    source_notice_ids,
)
from lineage.markers import Marker

if TYPE_CHECKING:
    from lineage.index import FileIndex


@dataclass(frozen=True)
class FileLicence:
    expression: str  # SPDX-License-Identifier expression(s), else the notices found, else ""
    found_by: str  # "spdx" | "notice" | ""
    notice_ids: tuple[str, ...]  # licences whose notice text the head holds
    copyrights: tuple[str, ...]  # copyright lines (SPDX-FileCopyrightText or "Copyright ...")
    # modification notices, folded: each marker saying the code was changed (adapted, based on,
    # ...) and each head comment line saying it was modified; a pair's obligations count only
    # those its upstream file does not hold too (a copied "Adapted from X" is the upstream's)
    changes: tuple[str, ...]
    text: str  # folded head comment text (to look for NOTICE lines in)

    @property
    def states_change(self) -> bool:
        return bool(self.changes)


def head_comments(lines: Sequence[str], kinds: np.ndarray, limit: int) -> str:
    """The comment and docstring lines among the first ``limit`` lines (``licence_head_lines``)."""
    n = min(len(lines), int(kinds.shape[0]), limit)
    return "\n".join(lines[i] for i in range(n) if kinds[i] in (COMMENT, DOCSTRING))


def file_licence(lines: Sequence[str], kinds: np.ndarray, markers: Sequence[Marker], head_lines: int
                 ) -> FileLicence:
    """``head_lines``: how many first lines are read for notices
    (:attr:`lineage.match.MatchParams.licence_head_lines`)."""
    head = head_comments(lines, kinds, head_lines)
    folded = fold(head)
    ids = source_notice_ids(head, folded)
    spdx = combine_all(normalise(m.licence) for m in markers if m.kind == "spdx" and m.licence)
    head_code = "\n".join(lines[i] for i in range(min(len(lines), int(kinds.shape[0]), head_lines))
                          if kinds[i] == CODE)
    copyrights = distinct_copyrights([*(m.text for m in markers if m.kind == "copyright"),
                                      *dunder_copyrights(head_code)])
    changes = tuple(dict.fromkeys([*(fold(m.text) for m in markers if m.kind in CHANGE_MARKER_KINDS),
                                   *change_statements(head)]))
    if spdx:
        expression, by = spdx, "spdx"
    elif ids:
        expression, by = combine_all(ids), "notice"
    else:
        expression, by = "", ""
    return FileLicence(expression=expression, found_by=by, notice_ids=ids, copyrights=copyrights,
                       changes=changes, text=folded)


# FileLicence per (blob digest, head lines): the obligations table and the SPDX writer read the
# same copied files' licences (625 files of the pair, about 0.1 s); a record is a function of its
# file's bytes, so the digest stands for the lines, kinds and the markers read from the file (a
# vendoring record's marker, added per comparison, is of none of the kinds read here: spdx,
# copyright, the change kinds). Bounded, for long histories.
_MEMO: dict[tuple[str, int], FileLicence] = {}
_MEMO_SIZE = 1 << 16
_LICENCES_MAGIC = b"LINEAGE-LICENCES\n"
LICENCES_VERSION = 2  # 2: the statements of change, not a flag
_REWRITE_AFTER = 16  # (as the table cache's REWRITE_AFTER) new licences that make the entry rewritten
_KEEP = 4  # entries kept, one per code version (as the table cache's KEEP)


def record_licence(record: FileIndex, lines: Callable[[], Sequence[str]], head_lines: int) -> FileLicence:
    """:func:`file_licence` of an indexed file (``lines()`` gives its lines), computed once per
    process for a given file content and ``head_lines`` (and, inside :func:`kept`, once per
    cache)."""
    key = (record.digest, head_lines)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[key] = file_licence(lines(), record.kinds, record.markers, head_lines)
    return found


@contextlib.contextmanager
def kept(root: Path | None) -> Iterator[None]:
    """Inside, :func:`record_licence` starts from the licences an earlier run stored under
    ``root`` (the obligations table reads those of about 1,150 files of the pinned pair, 0.3 s),
    and on leaving, the licences made meanwhile are stored with them (when more than
    :data:`_REWRITE_AFTER` are new). Entry: ``<root>/side-v<N>/licences/<code>.rec`` (the code of
    all of lineage: the index records' code and this module's are among it), framed like the
    other caches, a JSON payload; a damaged or foreign one is removed and made again."""
    if root is None:
        yield
        return
    from lineage.index.store import discard, frame, store_keeping_newest, unframe
    from lineage.match.store import code_fingerprint
    from lineage.side_cache import SIDE_VERSION

    code = code_fingerprint(("lineage",))
    entry = root / f"side-v{SIDE_VERSION}" / "licences" / f"{code[:32]}.rec"
    stored: dict[tuple[str, int], FileLicence] = {}
    try:
        payload = unframe(_LICENCES_MAGIC, entry.read_bytes())
        header = json.loads(payload) if payload is not None else None
        if isinstance(header, dict) and header.get("version") == LICENCES_VERSION and header.get("code") == code:
            for digest, head, expression, by, ids, copyrights, changes, text in header["licences"]:
                stored[(str(digest), int(head))] = FileLicence(str(expression), str(by), tuple(map(str, ids)),
                                                               tuple(map(str, copyrights)), tuple(map(str, changes)),
                                                               str(text))
        else:
            discard(entry)
    except (OSError, ValueError, KeyError, TypeError):
        discard(entry)
        stored = {}
    for key, lic in stored.items():
        _MEMO.setdefault(key, lic)
    before = set(_MEMO)
    try:
        yield
    finally:
        new = {key: lic for key, lic in _MEMO.items() if key not in before and key not in stored}
        if len(new) > _REWRITE_AFTER or (new and not stored):
            rows = [[digest, head, lic.expression, lic.found_by, list(lic.notice_ids), list(lic.copyrights),
                     list(lic.changes), lic.text] for (digest, head), lic in sorted({**stored, **new}.items())]
            payload = json.dumps({"version": LICENCES_VERSION, "code": code, "licences": rows}).encode()
            # The newest entries stay; older ones are of other code.
            store_keeping_newest(entry, frame(_LICENCES_MAGIC, payload), _KEEP, f"{entry.parent.name}/*.rec")
