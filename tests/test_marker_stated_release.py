"""A phrase marker without a URL's ref takes the release its text names right after the
project's name as ``marker_ref``: pytest 8.3.3's ``_io/terminalwriter.py`` says "This code was
initially copied from py 1.8.1, file _io/terminalwriter.py." while the run compared py 1.11.0,
and files.csv's ``marker_ref`` was empty."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers


def _ref(comment: str) -> tuple[str, str]:
    [marker] = [m for m in find_markers([comment, "x = 1"]) if m.kind != "copyright"]
    return marker.project, marker.ref


@pytest.mark.parametrize(("comment", "project", "ref"), [
    ("# This code was initially copied from quill 1.8.1, file _io/writer.py.", "quill", "1.8.1"),
    ("# Adapted from quill v0.6.4.post1: quill/config.py", "quill", "v0.6.4.post1"),
    ("# copied from quill_tools 8.8", "quill_tools", "8.8"),
    ("# from quill.functools 3.3", "quill", "3.3"),  # a dotted name the project opens
    ("# Adapted from quill version 2.0.0rc1", "quill", "2.0.0rc1"),
])
def test_the_release_after_the_project_name_is_the_ref(comment: str, project: str, ref: str) -> None:
    assert _ref(comment) == (project, ref)


@pytest.mark.parametrize("comment", [
    "# Adapted from quill, see section 2.3",  # a number after another word
    "# Adapted from quill. Python 3.9 needs the shim below",  # another clause, another name
    "# Adapted from quill 3 with changes",  # one part is no release
])
def test_no_release_after_the_name_is_no_ref(comment: str) -> None:
    assert _ref(comment) == ("quill", "")


def test_a_url_tag_stays_the_ref() -> None:
    comment = "# Adapted from https://github.com/quill/quill/blob/v1.0/quill/x.py (quill 0.9.1)"
    assert _ref(comment) == ("quill", "v1.0")
