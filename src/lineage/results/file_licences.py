"""One Python file's licence, copyright lines and modification notice.

Read from what the index already holds: the ``spdx`` and ``copyright`` markers of
:mod:`lineage.markers` (one place for those rules), and the comment and docstring lines of the
file's head for licence notice texts (:mod:`lineage.licences.notices`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from lineage.index import COMMENT, DOCSTRING
from lineage.licences.expressions import combine_all, normalise
from lineage.licences.notices import CHANGE_MARKER_KINDS, fold, notice_ids, states_change
from lineage.markers import Marker

if TYPE_CHECKING:
    from lineage.index import FileIndex


@dataclass(frozen=True)
class FileLicence:
    expression: str  # SPDX-License-Identifier expression(s), else the notices found, else ""
    found_by: str  # "spdx" | "notice" | ""
    notice_ids: tuple[str, ...]  # licences whose notice text the head holds
    copyrights: tuple[str, ...]  # copyright lines (SPDX-FileCopyrightText or "Copyright ...")
    states_change: bool  # a modification notice: a marker or comment saying the code was changed
    text: str  # folded head comment text (to look for NOTICE lines in)


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
    ids = notice_ids(folded)
    spdx = combine_all(normalise(m.licence) for m in markers if m.kind == "spdx" and m.licence)
    copyrights = tuple(dict.fromkeys(m.text for m in markers if m.kind == "copyright"))
    change = any(m.kind in CHANGE_MARKER_KINDS for m in markers) or states_change(head)
    if spdx:
        expression, by = spdx, "spdx"
    elif ids:
        expression, by = combine_all(ids), "notice"
    else:
        expression, by = "", ""
    return FileLicence(expression=expression, found_by=by, notice_ids=ids, copyrights=copyrights,
                       states_change=change, text=folded)


# FileLicence per (blob digest, head lines): the obligations table and the SPDX writer read the
# same copied files' licences (625 files of the pair, about 0.1 s); a record is a function of its
# file's bytes, so the digest stands for the lines, kinds and markers. Bounded, for long histories.
_MEMO: dict[tuple[str, int], FileLicence] = {}
_MEMO_SIZE = 1 << 16


def record_licence(record: FileIndex, lines: Callable[[], Sequence[str]], head_lines: int) -> FileLicence:
    """:func:`file_licence` of an indexed file (``lines()`` gives its lines), computed once per
    process for a given file content and ``head_lines``."""
    key = (record.digest, head_lines)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[key] = file_licence(lines(), record.kinds, record.markers, head_lines)
    return found
