"""A module's top-level ``__license__`` string is its licence notice written as code: its
copyright lines are the file's copyright markers, as a header comment's would be (feedparser
5.2.1's ``feedparser.py`` names Kurt McKee and Mark Pilgrim only there, so the code 6.0 took from
it was credited to the release's LICENSE holders, with other years). Only copyright lines: the
licence text is no provenance statement.

The texts are written for the test; no package's own files."""

from __future__ import annotations

from lineage.markers import find_file_markers, find_markers
from lineage.markers.licence_string import licence_string_copyrights

NOTICE = [
    '"""Heron feed reader"""',
    "",
    '__version__ = "2.1"',
    '__license__ = """',
    "Copyright 2011-2016 Ada Fernhill <ada@example.org>",
    "Copyright 2003-2009 Bram Quillwort",
    "All rights reserved.",
    "",
    "Redistribution and use in source and binary forms, with or without modification,",
    "are permitted provided that the following conditions are met: this code is based on",
    "heron-legacy and must keep this notice.",
    '"""',
    "",
    "import sys",
]
KINDS = ["docstring", "blank", "code", *["code"] * 9, "blank", "code"]


def test_the_copyright_lines_of_a_licence_string_are_the_files() -> None:
    for markers in (find_markers(NOTICE, KINDS), find_file_markers(NOTICE, KINDS)):
        assert [(m.line, m.kind, m.text) for m in markers] == [
            (5, "copyright", "Copyright 2011-2016 Ada Fernhill <ada@example.org>"),
            (6, "copyright", "Copyright 2003-2009 Bram Quillwort"),
        ]


def test_a_one_line_licence_string_and_an_annotated_one() -> None:
    assert [m.text for m in licence_string_copyrights(
        ["__license__ = 'MIT; Copyright 2020 Ada Fernhill'"])] == ["Copyright 2020 Ada Fernhill"]
    assert [m.line for m in licence_string_copyrights(
        ['__license__: str = """BSD', "Copyright (c) 2019 Bram Quillwort", '"""'])] == [2]


def test_other_strings_and_nested_assignments_are_not_read() -> None:
    # Only the module's own notice: another name's string, or one assigned inside a class or
    # function (indented), is data of the program.
    assert licence_string_copyrights(['__doc_license__ = """', "Copyright 2020 Ada Fernhill", '"""']) == []
    assert licence_string_copyrights(["class Feed:", '    __license__ = """',
                                      "Copyright 2020 Ada Fernhill", '"""']) == []
    assert licence_string_copyrights(['__license__ = "MIT"', "# Copyright 2020 Ada Fernhill"]) == []


def test_the_string_ends_at_its_closing_quote() -> None:
    lines = ['__license__ = """MIT"""', "TEXT = '''", "Copyright 2020 Ada Fernhill", "'''"]
    assert licence_string_copyrights(lines) == []
