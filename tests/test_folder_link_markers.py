"""A bare URL to a repository's folder points the reader at examples, not at where the code came
from (salt 3006.9's vendored tornado ``web.py`` and ``wsgi.py``: their marker was a docstring link
to tornado's demos, over the folder they lie in)."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers
from lineage.markers.urls import is_folder_link


@pytest.mark.parametrize(("url", "folder"), [
    ("https://github.com/larchwood/larch/tree/master/demos/file_upload/", True),
    ("https://github.com/larchwood/larch/tree/stable/demos/appengine", True),
    ("https://gitlab.com/larchwood/larch/-/tree/main/larch/io", True),
    ("https://github.com/larchwood/larch/blob/v1.2/src/", False),  # a file's URL wrapped at a "/"
    ("https://github.com/larchwood/larch", False),
    ("https://github.com/larchwood/larch/blob/main/larch/io/reader.py", False),
    ("https://github.com/larchwood/larch/tree/main/larch/io/reader.py", False),  # GitHub shows the file
    ("https://github.com/larchwood/larch/blob/main/larch/io/reader.py#L10-L20", False),
    ("https://raw.githubusercontent.com/larchwood/larch/main/larch/io/reader.py", False),
])
def test_a_folder_link(url: str, folder: bool) -> None:
    assert is_folder_link(url) is folder


def test_a_docstring_link_to_a_demo_folder_is_no_marker() -> None:
    src = ('def serve():\n    """Serve uploads.\n\n    See the `file receiver demo\n'
           '    <https://github.com/larchwood/larch/tree/master/demos/file_upload/>`_\n'
           '    for an example.\n    """\n')
    assert [m for m in find_markers(src.splitlines()) if m.kind == "url"] == []


def test_a_bare_link_to_a_file_stays_a_marker() -> None:
    src = "# https://github.com/larchwood/larch/blob/v1.2/larch/io/reader.py\ndef read():\n    pass\n"
    (m,) = [m for m in find_markers(src.splitlines()) if m.kind == "url"]
    assert (m.repository, m.ref, m.path) == ("larchwood/larch", "v1.2", "larch/io/reader.py")


def test_a_phrase_naming_a_folder_is_still_a_marker() -> None:
    src = "# Adapted from https://github.com/larchwood/larch/tree/main/larch/io/\ndef read():\n    pass\n"
    (m,) = find_markers(src.splitlines())
    assert (m.kind, m.path) == ("adapted_from", "larch/io")
