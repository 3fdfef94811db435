"""A whole-line comment that is nothing but "from" and a named release says where the code below
was taken from: importlib_metadata 8.5.0's ``_functools.py`` has "# from jaraco.functools 3.3" above
``method_cache`` and "# From jaraco.functools 3.3" above ``pass_none`` (beside ``_itertools.py``'s
"# copied from more_itertools 8.8", which was read), and was listed unmarked.

The texts are written for the test; no package's own files."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers
from lineage.markers.naming import marker_names_upstream


@pytest.mark.parametrize("comment", [
    "# from quillwort.functools 3.3",
    "# From quillwort.functools 3.3",
    "# from quillwort 2.0.1.",
    "# from `quillwort` v4.1",
])
def test_from_a_named_release_is_a_marker_naming_the_project(comment: str) -> None:
    markers = find_markers([comment, "def cached(method):", "    return method"])
    assert [(m.kind, m.line) for m in markers] == [("taken_from", 1)]
    assert marker_names_upstream(markers[0], {"quillwort"})


@pytest.mark.parametrize("lines", [
    ["x = probe()  # from quillwort 2.0"],  # a trailing comment: since when, not where from
    ["# from version 2.0", "x = 1"],  # a word of prose before the number
    ["# from section 2.3", "x = 1"],
    ["# from Python 3.12", "x = 1"],  # the language, not a package
    ["# from quillwort import cached", "x = 1"],  # a commented-out import
    ["# from quillwort 2.0 onwards the cache is shared", "x = 1"],  # more after the release
    ["# works on every release", "# from quillwort 2.0", "x = 1"],  # continues a sentence
])
def test_other_from_lines_are_no_markers(lines: list[str]) -> None:
    assert [m for m in find_markers(lines) if m.kind != "url"] == []
