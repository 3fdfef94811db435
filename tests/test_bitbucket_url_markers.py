"""A Bitbucket URL names its repository, ref, path and lines as a GitHub one does (kafka-python
2.0.2's ``vendor/enum34.py``: "vendored from:" over "https://bitbucket.org/stoneleaf/enum34/src/
<commit>/enum/__init__.py?at=1.1.6" named no repository, so the vendored file went unmarked)."""

from __future__ import annotations

from lineage.markers import find_markers
from lineage.markers.urls import UrlInfo, find_urls, is_folder_link, parse_url

_SHA = "58c4cd7174ca35f164304c8a6f0a4d47b779c2a7"


def test_a_vendored_from_phrase_over_a_bitbucket_url_names_the_project() -> None:
    src = ["# pylint: skip-file", "# vendored from:",
           f"# https://bitbucket.org/quillwork/quillenum/src/{_SHA}/quillenum/__init__.py?at=1.1.6",
           "", '"""Enumerations."""', "import sys"]
    (m,) = find_markers(src)
    assert (m.kind, m.repository, m.ref, m.path, m.project) == (
        "copied_from", "quillwork/quillenum", _SHA, "quillenum/__init__.py", "quillenum")


def test_bitbucket_src_raw_and_lines() -> None:
    assert parse_url("https://bitbucket.org/quillwork/quillenum.git/raw/v2/a/b.py") == UrlInfo(
        "quillwork/quillenum", "v2", "a/b.py")
    assert parse_url(f"https://bitbucket.org/quillwork/quillenum/src/{_SHA}/a/b.py#lines-12:30") == UrlInfo(
        "quillwork/quillenum", _SHA, "a/b.py", 12, 30)
    assert parse_url("https://bitbucket.org/quillwork/quillenum/src/v2/a/b.py#lines-7") == UrlInfo(
        "quillwork/quillenum", "v2", "a/b.py", 7, 7)
    # the repository's page names the repository only
    assert parse_url("https://bitbucket.org/quillwork/quillenum") == UrlInfo("quillwork/quillenum")


def test_a_bitbucket_folder_view_is_a_folder_link_and_a_bare_host_is_found() -> None:
    assert is_folder_link("https://bitbucket.org/quillwork/quillenum/src/v2/quillenum/")
    assert not is_folder_link("https://bitbucket.org/quillwork/quillenum/src/v2/quillenum/core.py")
    assert [u for *_, u in find_urls("see bitbucket.org/quillwork/quillenum/src/v2/q.py.")] == [
        "bitbucket.org/quillwork/quillenum/src/v2/q.py"]


def test_a_bare_bitbucket_url_to_a_file_is_a_url_marker_but_not_one_to_a_folder() -> None:
    (m,) = find_markers(["# https://bitbucket.org/quillwork/quillenum/src/v2/quillenum/core.py", "x = 1"])
    assert (m.kind, m.repository, m.path) == ("url", "quillwork/quillenum", "quillenum/core.py")
    assert [m for m in find_markers(["# https://bitbucket.org/quillwork/quillenum/src/v2/quillenum/",
                                     "x = 1"]) if m.kind == "url"] == []
