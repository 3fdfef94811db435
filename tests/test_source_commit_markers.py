"""A commit page after the label "Source:" names where the code came from (cached-property 1.3.0's
``cached_property`` docstring: "Source: https://github.com/bottlepy/bottle/commit/fa7733e..." was
no marker, so the file was listed as unmarked against bottle)."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers
from lineage.markers.urls import commit_page

_SHA = "fa7733e075da0d790d809aa3d2f53071897e6f76"


@pytest.mark.parametrize(("url", "sha"), [
    (f"https://github.com/larchwood/larch/commit/{_SHA}", _SHA),
    (f"https://github.com/larchwood/larch/commit/{_SHA}#diff-1", _SHA),
    ("https://gitlab.com/larchwood/tools/larch/-/commit/abcdef12", "abcdef12"),
    ("https://github.com/larchwood/larch", ""),
    ("https://github.com/larchwood/larch/pull/12", ""),
    ("https://github.com/larchwood/larch/blob/v1.2/larch/io.py", ""),
])
def test_a_commit_page(url: str, sha: str) -> None:
    assert commit_page(url) == sha


def test_a_docstring_source_label_before_a_commit_page_is_a_marker() -> None:
    src = ('class memo(object):\n    """\n    A property computed once per instance.\n'
           f'    Source: https://github.com/larchwood/larch/commit/{_SHA}\n    """\n')
    (m,) = [m for m in find_markers(src.splitlines()) if m.kind == "url"]
    assert (m.line, m.repository, m.ref, m.path, m.project) == (4, "larchwood/larch", _SHA, "", "larch")


@pytest.mark.parametrize("text", [
    f"# See https://github.com/larchwood/larch/commit/{_SHA} for the fix",  # a reference, not a source
    f"# https://github.com/larchwood/larch/commit/{_SHA}",  # no label
    "# Source: https://github.com/larchwood/larch",  # a home page
    "# Source: https://github.com/larchwood/larch/issues/12",
    f"# The source: https://github.com/larchwood/larch/commit/{_SHA}",  # the label does not open the line
])
def test_no_marker_without_the_label_or_a_commit(text: str) -> None:
    assert [m for m in find_markers([text]) if m.kind == "url"] == []
