"""A module-level ``_BUNDLED_METADATA = {"pypi_name": NAME, "version": V}`` line is a bundling
record written as code (ansible-core 2.17.5's ``module_utils/six/__init__.py`` and
``module_utils/distro/__init__.py``): read as a ``copied_from`` marker naming NAME at release V.
Before, ansible's six was marked by its copyright line alone.

The texts are written for the test; no package's own files."""

from __future__ import annotations

import pytest

from lineage.markers import file_marker, find_file_markers, find_markers
from lineage.markers.naming import marker_names_upstream

RECORD = '_BUNDLED_METADATA = {"pypi_name": "quillwort", "version": "2.4.0"}'


def _file(record: str) -> tuple[list[str], list[str]]:
    lines = ["# Copyright (c) 2019 Ada Fernhill", "", "import sys", "", "# keeps scripted updates easy",
             record, "", "def cached(method):", "    return method"]
    kinds = ["comment", "blank", "code", "blank", "comment", "code", "blank", "code", "code"]
    return lines, kinds


def test_a_bundling_record_is_a_marker_naming_its_distribution() -> None:
    lines, kinds = _file(RECORD)
    for markers in (find_markers(lines, kinds), find_file_markers(lines, kinds)):
        record = [m for m in markers if m.kind == "copied_from"]
        assert [(m.line, m.project, m.ref) for m in record] == [(6, "quillwort", "2.4.0")]
        assert marker_names_upstream(record[0], {"quillwort"})
        assert not marker_names_upstream(record[0], {"fernhill"})
        assert [m.kind for m in markers] == ["copyright", "copied_from"]  # in line order
    # the record, not the holder's copyright line, is the file's marker for the upstream
    chosen, _ = file_marker(find_file_markers(lines, kinds), {"quillwort"})
    assert chosen is not None and chosen.line == 6


def test_a_record_without_a_version_names_the_distribution() -> None:
    lines, kinds = _file('_BUNDLED_METADATA = {"pypi_name": "quillwort"}  # pinned elsewhere')
    record = [m for m in find_markers(lines, kinds) if m.kind == "copied_from"]
    assert [(m.project, m.ref) for m in record] == [("quillwort", "")]


@pytest.mark.parametrize("record", [
    '    _BUNDLED_METADATA = {"pypi_name": "quillwort", "version": "2.4.0"}',  # indented: not the module's
    '_BUNDLED_METADATA = dict(pypi_name="quillwort")',  # a call, not literals
    '_BUNDLED_METADATA = {"pypi_name": NAME, "version": "2.4.0"}',  # a name: computed at run time
    '_BUNDLED_METADATA = {"name": "quillwort"}',  # no pypi_name
    '_BUNDLED_METADATA = {"pypi_name": ""}',
    '_BUNDLED_METADATA_KEYS = {"pypi_name": "quillwort"}',  # another variable
    "_BUNDLED_METADATA = {",  # written over several lines: not read
])
def test_other_lines_are_no_records(record: str) -> None:
    lines, kinds = _file(record)
    assert [m.kind for m in find_markers(lines, kinds)] == ["copyright"]


def test_a_record_in_a_docstring_is_prose() -> None:
    lines = ['"""', RECORD, '"""', "x = 1"]
    assert find_markers(lines, ["docstring", "docstring", "docstring", "code"]) == []
