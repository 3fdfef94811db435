""""Some of the functions in this module come from the following sources:" with the sources listed
below it, one a line: future 1.0.0's ``future/utils/__init__.py`` lists "six.py by Benjamin
Peterson" among Jinja2, pandas.compat and Django, and its 24 code lines copied from six.py stood
unmarked in the review list. The plural lead-in ("the functions", "these functions") names code
as the singular does; each listed item is one of the phrase's sources.

The texts are written for the test; no package's own files."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers


def _found(lines: list[str]) -> list[tuple[int, str, str]]:
    return [(m.line, m.kind, m.project) for m in find_markers(lines)]


@pytest.mark.parametrize("comment", [
    "# Some of the functions in this module come from quillwort.py by Ann Example",
    "# Most of these functions came from quillwort.compat.helpers",
    "# The classes below come from quillwort.py",
])
def test_plural_code_lead_in(comment: str) -> None:
    assert [p for _, _, p in _found(["x = 1", comment, "y = 2"])] == ["quillwort"]


def test_listed_sources_in_a_docstring() -> None:
    lines = [
        '"""Helpers.',
        "",
        "Some of the functions in this module come from the following sources:",
        "",
        "    * Quillwort (BSD licensed: see",
        "      https://github.com/example/quillwort/blob/master/LICENSE)",
        "    * bramblecat.py by Ann Example",
        "    * Tansy",
        '"""',
        "x = 1",
    ]
    found = _found(lines)
    assert [(line, kind) for line, kind, _ in found] == [(5, "derived_from"), (7, "derived_from"),
                                                         (8, "derived_from")]
    assert [p.lower() for _, _, p in found] == ["quillwort", "bramblecat", "tansy"]


def test_listed_sources_in_comments() -> None:
    found = _found(["# Some of these functions come from the following sources:",
                    "#  * bramblecat.py by Ann Example", "#  * Tansy", "", "x = 1"])
    assert found == [(2, "derived_from", "bramblecat"), (3, "derived_from", "Tansy")]


def test_a_value_from_the_following_places_is_no_list_of_code() -> None:
    assert _found(["# The values come from the following sources:", "#  * bramblecat", "x = 1"]) == []
