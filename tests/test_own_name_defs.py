"""Tests for ``MatchParams.fill_edit_own_name_defs`` (lineage.match.fill_inside.other_named_defs):
rule (a)'s edited-lines pass never pairs a ``def`` with an upstream ``def`` of another name while
the upstream file's own definition of the target's name is free."""

from __future__ import annotations

from pathlib import Path

from conftest import make_labeller

from lineage.match import MatchParams
from lineage.match.file_statements import Statements
from lineage.match.fill_inside import align_inside, late_edits
from lineage.match.identical_twins import move_to_identical_twins
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE, VERBATIM

# A reader class whose fork dropped ``__del__``, moved its two last lines into ``close``'s new
# ``finally`` and added ``__enter__``/``__exit__`` below ``close``.
_HEAD = ("class BaseReader(object):\n"
         '    """A reader of records kept in a store."""\n\n'
         "    def __init__(self, store):\n"
         "        self.store = store\n"
         "        self.row_number = None\n\n")
_TAIL = ("    def _check_opened(self):\n"
         "        if not self._cursor_pos:\n"
         '            self.on_error(self, UsageError, "open() first")\n')
_UP = (_HEAD
       + "    def __del__(self):\n"
         "        self.close()\n"
         "        self.on_error = None\n"
         "        self._pending = None\n\n"
         "    def close(self):\n"
         '        """Close the reader. No further reads will be possible."""\n'
         "        if not self.store: return\n"
         "        while self.next_page(): pass\n"
         "        self.store = None\n\n"
       + _TAIL)
_FORK = (_HEAD
         + "    def close(self):\n"
           '        """Close the reader. No further reads will be possible."""\n'
           "        try:\n"
           "            if self.store is None:\n"
           "                return\n"
           "            while self.next_page():\n"
           "                pass\n"
           "        finally:\n"
           "            self.store = None\n"
           "            self.on_error = None\n"
           "            self._pending = None\n\n"
           "    def __enter__(self):\n"
           "        return self\n\n"
           "    def __exit__(self, *exc_info):\n"
           "        del exc_info\n"
           "        self.close()\n\n"
         + _TAIL)


def _content(lab: FileLabeller, text: str, upstream: bool = False) -> int:
    """The content line (of the upstream file when ``upstream``) whose stripped text is ``text``."""
    if upstream:
        rows, lines = lab.upstream_lines(0)
    else:
        rows, lines = lab.t_rows, lab.t_lines
    return next(k for k, row in enumerate(rows.tolist()) if lines[row].strip() == text)


def _filled(tmp_path: Path, params: MatchParams, twins: bool = False) -> dict[str, str]:
    """Rule (a) on the two stretches the moved ``finally`` lines bound, the rest paired by hand
    as the regions pair it (then the identical-twin rule, with ``twins``, as after the fill):
    each ``def`` line of the fork -> the upstream text it is paired with."""
    lab = make_labeller(tmp_path, {"pkg/reader.py": _FORK}, {"pkg/reader.py": _UP}, params)
    u_rows, _ = lab.upstream_lines(0)
    anchors = [(_content(lab, text), _content(lab, text, True))
               for text in ("self.row_number = None", "self.on_error = None", "self._pending = None",
                            "def _check_opened(self):")]
    for tc, uc in anchors:
        lab.set_pair(tc, 0, int(u_rows[uc]), VERBATIM, 1.0, 0)
    used = {uc for _, uc in anchors}
    statements = Statements.of(lab)
    for (ta, ua), (tb, ub) in zip(anchors, anchors[1:], strict=False):
        if tb > ta + 1 and ub > ua + 1:
            used.update(align_inside(lab, statements, 0, range(ta + 1, tb), range(ua + 1, ub), used, 0))
    if twins:
        move_to_identical_twins(lab)
    _, u_lines = lab.upstream_lines(0)
    out = {}
    for text in ("def close(self):", "def __enter__(self):"):
        row = lab.t_rows[_content(lab, text)]
        out[text] = "" if lab.result.match[row] == NONE else u_lines[lab.result.up_row[row]].strip()
    return out


def test_a_def_is_not_paired_with_another_name_while_its_own_upstream_definition_is_free(tmp_path: Path) -> None:
    """``def close`` stands in the stretch of ``__del__`` (the fork dropped it), and the
    upstream ``close`` lies past the moved lines: ``close`` is not ``__del__`` edited. The next
    stretch then pairs ``__enter__`` with the upstream ``close`` by similarity, and the
    identical-twin rule gives that header to the fork's own ``def close``, free."""
    on = MatchParams()
    assert _filled(tmp_path / "on", on)["def close(self):"] == ""
    assert _filled(tmp_path / "twins", on, twins=True) == {"def close(self):": "def close(self):",
                                                           "def __enter__(self):": ""}
    # with the rule off, the alignment slides by one method, as it did on mysqlclient's cursors.py
    off = MatchParams(fill_edit_own_name_defs=0)
    expected = {"def close(self):": "def __del__(self):", "def __enter__(self):": "def close(self):"}
    assert _filled(tmp_path / "off", off) == expected
    assert _filled(tmp_path / "off-twins", off, twins=True) == expected


def test_a_renamed_def_is_paired_when_no_definition_of_either_name_is_free(tmp_path: Path) -> None:
    """A function renamed (``close`` -> ``shut``), the upstream defining no ``shut`` and the fork
    no ``close``: the edited-lines pass pairs the two headers as before."""
    fork = _FORK.replace("def close(self):", "def shut(self):")
    fork = fork.replace("def __enter__(self):\n        return self\n\n", "")
    up = _UP.replace("    def __del__(self):\n        self.close()\n        self.on_error = None\n"
                     "        self._pending = None\n\n", "")
    lab = make_labeller(tmp_path, {"pkg/reader.py": fork}, {"pkg/reader.py": up}, MatchParams())
    u_rows, u_lines = lab.upstream_lines(0)
    ta, ua = _content(lab, "self.row_number = None"), _content(lab, "self.row_number = None", True)
    tb, ub = _content(lab, "def _check_opened(self):"), _content(lab, "def _check_opened(self):", True)
    for tc, uc in ((ta, ua), (tb, ub)):
        lab.set_pair(tc, 0, int(u_rows[uc]), VERBATIM, 1.0, 0)
    align_inside(lab, Statements.of(lab), 0, range(ta + 1, tb), range(ua + 1, ub), {ua, ub}, 0)
    row = lab.t_rows[_content(lab, "def shut(self):")]
    assert lab.result.match[row] != NONE
    assert u_lines[lab.result.up_row[row]].strip() == "def close(self):"


# A store whose fork dropped ``read_cols`` and kept ``read_rows``, the upstream's two methods of one
# shape (round fix175: ``late_edits`` had no bar of its own).
_STORE_UP = ("class Store(object):\n"
             "    def __init__(self, path):\n"
             "        self.path = path\n\n"
             "    def read_cols(self, start, stop, step=1):\n"
             "        return self._read_block(start, stop, step)\n\n"
             "    def read_rows(self, start, stop, step=1):\n"
             "        return self._read_block(start, stop, step, rows=True)\n")
_STORE_FORK = ("class Store(object):\n"
               "    def __init__(self, path):\n"
               "        self.path = path\n\n"
               "    def read_rows(self, start, stop, step=1):\n"
               "        return self._read_block(start, stop, step)\n")


def _late(tmp_path: Path, params: MatchParams) -> str:
    """``late_edits`` on the one-line stretch between two pairs made by hand (``self.path = path``,
    and the fork's ``return`` with the upstream ``read_cols``' verbatim one): the upstream text the
    fork's ``def read_rows`` is then paired with ("" for none)."""
    lab = make_labeller(tmp_path, {"pkg/store.py": _STORE_FORK}, {"pkg/store.py": _STORE_UP}, params)
    u_rows, u_lines = lab.upstream_lines(0)
    for text in ("self.path = path", "return self._read_block(start, stop, step)"):
        lab.set_pair(_content(lab, text), 0, int(u_rows[_content(lab, text, True)]), VERBATIM, 1.0, 0)
    late_edits(lab, Statements.of(lab), 0)
    row = lab.t_rows[_content(lab, "def read_rows(self, start, stop, step=1):")]
    return "" if lab.result.match[row] == NONE else u_lines[lab.result.up_row[row]].strip()


def test_the_late_edits_do_not_pair_a_def_with_another_name_while_its_own_is_free(tmp_path: Path) -> None:
    """The stretch between the two pairs holds ``def read_rows`` opposite ``def read_cols`` (0.95
    alike) while the upstream ``read_rows`` stands free below: with the bar the fork's header stays
    for its own definition, without it (``fill_edit_own_name_defs=0``) the late pass pairs it."""
    assert _late(tmp_path / "on", MatchParams()) == ""
    off = _late(tmp_path / "off", MatchParams(fill_edit_own_name_defs=0))
    assert off == "def read_cols(self, start, stop, step=1):"
