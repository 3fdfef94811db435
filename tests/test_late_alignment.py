"""Tests for the fill's late alignment (lineage.match.fill_inside.late_alignment,
``MatchParams.fill_late_alignment``): rule (a) reads once more each stretch of a pair's final
in-order chain that a line paired by the later rules bounds, since rule (a) never read it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import Runner, file_lines, make_labeller

from lineage.match import MatchParams
from lineage.match.file_statements import Statements
from lineage.match.fill_inside import late_alignment
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE, VERBATIM

# A class a fork rewrote: the header's base changed, a docstring written anew (one line of the
# old one kept), every line typed and re-quoted; the old ``__init__`` body moved into a new
# method ``_from_data`` that ``__init__`` calls. No region forms; the lone survivors (the import,
# the docstring line, the last ``return``) and the signature rule's ``def`` lines pair the rest.
_FIELDS = ["ident", "title", "summary", "pack_ident"]
_BADGE_UP = ("from .mixins import HashableByIdentifier\n\n\n"
             "class Badge(HashableByIdentifier):\n"
             '    """Represents a badge.\n\n    .. versionadded:: 1.6\n    """\n'
             "    __slots__ = ('_state', 'ident', 'title', 'summary', 'pack_ident', 'format_kind', 'image')\n\n"
             "    def __init__(self, *, state, data):\n"
             "        self._state = state\n"
             + "".join(f"        self.{f} = data['{f}']\n" for f in _FIELDS)
             + "        self.format_kind = try_enum(BadgeFormat, data['format_kind'])\n"
             "        self.image = data['asset']\n\n"
             "    def __repr__(self):\n"
             "        return '<Badge id={0.ident} title={0.title!r}>'.format(self)\n\n"
             "    def __str__(self):\n"
             "        return self.title\n")
_BADGE_FORK = ("from .mixins import HashableByIdentifier\n\n\n"
               "class Badge(_BadgeTag):\n"
               '    """A badge a member can pin to a profile.\n\n    .. versionadded:: 1.6\n    """\n\n'
               '    __slots__ = ("_state", "ident", "title", "summary", "pack_ident", "format_kind")\n\n'
               "    def __init__(self, *, state: ConnectionState, data: BadgePayload) -> None:\n"
               "        self._state: ConnectionState = state\n"
               "        self._from_data(data)\n\n"
               "    def _from_data(self, data: BadgePayload) -> None:\n"
               + "".join(f'        self.{f}: str = data["{f}"]\n' for f in _FIELDS)
               + '        self.format_kind: BadgeFormat = try_enum(BadgeFormat, data["format_kind"])\n\n'
               "    def __repr__(self) -> str:\n"
               '        return f"<Badge id={self.ident} title={self.title!r}>"\n\n'
               "    def __str__(self) -> str:\n"
               "        return self.title\n")


def _line(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_old_body_moved_into_a_new_method_between_two_late_pairs_is_copied(run_compare: Runner) -> None:
    """The moved body (the typed field lines of ``_from_data``) stands between the last line of
    ``__init__`` (paired below its signature) and ``def __repr__`` (paired by the signature
    rule), both paired after rule (a) ran: with ``fill_late_alignment`` each field line is
    near its old line, in order; with it at 0 they stay none. The new method's own lines
    (``self._from_data(data)``, its ``def``) stay none either way."""
    fields = [_line(_BADGE_FORK, f"self.{f}: ") for f in [*_FIELDS, "format_kind"]]
    olds = [_line(_BADGE_UP, f"self.{f} = ") for f in [*_FIELDS, "format_kind"]]
    new = [_line(_BADGE_FORK, "self._from_data(data)"), _line(_BADGE_FORK, "def _from_data")]
    on = file_lines(run_compare({"pkg/badge.py": _BADGE_FORK}, [("up", {"pkg/badge.py": _BADGE_UP})]),
                    "pkg/badge.py")
    assert set(on.loc[fields, "match"]) == {"near"}
    assert on.loc[fields, "upstream_line"].astype(int).tolist() == olds
    assert set(on.loc[new, "match"]) == {"none"}
    off = file_lines(run_compare({"pkg/badge.py": _BADGE_FORK}, [("up", {"pkg/badge.py": _BADGE_UP})],
                                 params=MatchParams(fill_late_alignment=0)), "pkg/badge.py")
    assert set(off.loc[fields, "match"]) == {"none"}
    assert set(off.loc[new, "match"]) == {"none"}
    # the signatures around the body are paired either way: the rule reads between them
    for frame in (on, off):
        assert frame.loc[_line(_BADGE_FORK, "def __repr__"), "match"] == "near"


# Hand-set pairs: 12 distinctive lines, the middle four edited in place (annotated, re-quoted).
_UP_LINES = [f"value_{k} = compute_{k}(alpha_{k}, 'beta_{k}')" for k in range(12)]
_FORK_LINES = [line.replace(" = ", ": Result = ").replace("'", '"') if 4 <= k < 8 else line
               for k, line in enumerate(_UP_LINES)]


def _hand_labeller(tmp_path: Path) -> FileLabeller:
    lab = make_labeller(tmp_path, {"pkg/mod.py": "\n".join(_FORK_LINES) + "\n"},
                        {"pkg/mod.py": "\n".join(_UP_LINES) + "\n"}, MatchParams())
    for k in (*range(4), *range(8, 12)):
        lab.set_pair(k, 0, int(lab.upstream.content_rows(0)[k]), VERBATIM, 1.0, 0)
    return lab


def _run(lab: FileLabeller, late: set[int], unordered: set[int] = frozenset()) -> np.ndarray:
    """Late alignment with the lines ``late`` paired after rule (a) and ``unordered`` by a rule
    of lines in any order; returns the match of the four edited lines."""
    n = len(lab.t_rows)
    paired = lab.result.match[lab.t_rows] != NONE
    before = paired & ~np.isin(np.arange(n), sorted(late | unordered))
    late_alignment(lab, Statements.of(lab), 0, before, np.isin(np.arange(n), sorted(unordered)))
    return lab.result.match[lab.t_rows[4:8]]


def test_a_stretch_with_a_late_end_is_aligned(tmp_path: Path) -> None:
    lab = _hand_labeller(tmp_path)
    assert (_run(lab, late={8}) != NONE).all()
    assert lab.result.up_row[lab.t_rows[4:8]].tolist() == lab.upstream.content_rows(0)[4:8].tolist()


def test_a_stretch_rule_a_read_already_is_not_read_again(tmp_path: Path) -> None:
    """Both ends paired before the later rules: rule (a) read that stretch and left its lines."""
    lab = _hand_labeller(tmp_path)
    assert (_run(lab, late={11}) == NONE).all()  # a late line elsewhere, not bounding the stretch
    assert (_run(lab, late=set()) == NONE).all()


def test_a_line_paired_in_any_order_is_no_anchor(tmp_path: Path) -> None:
    """A line the import or moved-line rules paired says nothing of the order: with the
    stretch's late end such a line (another late line elsewhere), nothing is read."""
    lab = _hand_labeller(tmp_path)
    assert (_run(lab, late={11}, unordered={8}) == NONE).all()
    assert (_run(lab, late={11, 8}) != NONE).all()  # the same line paired in order is an anchor


def test_a_name_line_paired_by_its_name_alone_is_no_anchor(tmp_path: Path) -> None:
    """The signature rule's name lines (``fill_signature_name_line``) bound no later survivor's
    order, and no late stretch either (``test_a_collection_goes_to_the_assignment_holding_its_items_not_the_nearest``
    in test_fill.py is the case: a new ``__slots__`` below such a class header)."""
    lab = _hand_labeller(tmp_path)
    lab.name_only[0] = {8}
    assert (_run(lab, late={11, 8}) == NONE).all()


def test_a_stretch_past_the_last_line_paired_before_is_not_read(tmp_path: Path) -> None:
    """Rule (a) reads no edge of a pair: a stretch whose late end lies past the last line paired
    before the later rules (here every line below it is late) is left, as rule (a) leaves a file's
    tail; the same stretch inside that span is read."""
    lab = _hand_labeller(tmp_path)
    assert (_run(lab, late={8, 9, 10, 11}) == NONE).all()
    lab = _hand_labeller(tmp_path)
    assert (_run(lab, late={8, 9, 10}) != NONE).all()


def test_a_name_line_paired_again_by_another_rule_is_an_anchor(tmp_path: Path) -> None:
    """Round fix177: a line is name-only while the pair the name rule made stands; a rule that
    unpairs it and one that pairs it again (on its own evidence) take it out of
    ``FileLabeller.name_only``, so it bounds the late stretch as any line paired in order (it
    stayed no anchor for good before)."""
    lab = _hand_labeller(tmp_path)
    lab.name_only[0] = {8}
    row = int(lab.upstream.content_rows(0)[8])
    lab.unpair(8)
    assert lab.name_only[0] == set()
    lab.name_only[0].add(8)
    lab.set_pair(8, 0, row, VERBATIM, 1.0, 0)
    assert lab.name_only[0] == set()
    assert (_run(lab, late={11, 8}) != NONE).all()
