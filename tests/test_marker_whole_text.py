"""``lineage.markers.find_file_markers`` joins a file's lines once and hands the text to the
pre-filter's ASCII test and to the two code-line readers (the ``_BUNDLED_METADATA`` record and
the ``__license__`` string), which then skip their pass over the lines when the text lacks
their name (round speed174). Each reader gives the same markers with the text as without it.

The texts are written for the test; no package's own files."""

from __future__ import annotations

import pytest

from lineage.markers import find_file_markers, find_markers
from lineage.markers.bundled import bundled_markers
from lineage.markers.licence_string import licence_string_copyrights
from lineage.markers.prefilter import hint_windows

LICENCE = ['"""Heron feed reader"""', '__license__ = """', "Copyright 2011 Ada Fernhill", '"""', "import sys"]
LICENCE_KINDS = ["docstring", "code", "code", "code", "code"]
BUNDLED = ["# vendored copy", '_BUNDLED_METADATA = {"pypi_name": "quillwort", "version": "2.4.0"}', "x = 1"]
BUNDLED_KINDS = ["comment", "code", "code"]
PLAIN = ["# Copyright (c) 2019 Ada Fernhill", "import os", "", "def f():", "    return os.sep  # based on g"]
PLAIN_KINDS = ["comment", "code", "blank", "code", "code"]


@pytest.mark.parametrize(("lines", "kinds"), [(LICENCE, LICENCE_KINDS), (BUNDLED, BUNDLED_KINDS),
                                              (PLAIN, PLAIN_KINDS)])
def test_each_reader_gives_the_same_markers_with_the_joined_text(lines: list[str], kinds: list[str]) -> None:
    text = "\n".join(lines)
    assert licence_string_copyrights(lines, text) == licence_string_copyrights(lines)
    assert bundled_markers(lines, kinds, text) == bundled_markers(lines, kinds)
    assert hint_windows(lines, kinds, text) == hint_windows(lines, kinds)
    assert find_file_markers(lines, kinds) == find_markers(lines, kinds)


def test_the_readers_find_their_records_with_the_text() -> None:
    assert [m.line for m in licence_string_copyrights(LICENCE, "\n".join(LICENCE))] == [3]
    assert [(m.line, m.project) for m in bundled_markers(BUNDLED, BUNDLED_KINDS, "\n".join(BUNDLED))] == [
        (2, "quillwort")]


def test_a_text_without_the_name_is_answered_without_the_lines() -> None:
    """The text decides: lines that would hold a record, given with a text lacking the name,
    are not looked at (the caller's text is always its lines joined)."""
    assert licence_string_copyrights(LICENCE, "import sys") == []
    assert bundled_markers(BUNDLED, BUNDLED_KINDS, "x = 1") == []


def test_a_text_whose_lower_case_changes_length_is_read_whole_either_way() -> None:
    # "İ" (U+0130) lower-cases to two characters: offsets into the lowered text would drift.
    lines = ["# İstanbul notes, copied from https://example.org/x", "x = 1"]
    kinds = ["comment", "code"]
    assert hint_windows(lines, kinds, "\n".join(lines)) is None and hint_windows(lines, kinds) is None
    # a non-ASCII text that keeps its length is searched as before
    lines = ["# café, copied from https://example.org/x", "x = 1"]
    assert hint_windows(lines, kinds, "\n".join(lines)) == hint_windows(lines, kinds) == [(0, 2)]
    assert find_file_markers(lines, kinds) == find_markers(lines, kinds)
