"""A marker whose URL names a repository but no ref takes the commit the line right below it
states (seaborn 0.13.2's ``external/version.py``: "Vendored from:" / "- <repository URL>" /
"- commit <sha> (date)"), so files.csv's ``marker_ref`` says which commit was vendored."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers

SHA = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c"


def _docstring(*body: str) -> list[str]:
    return ['"""Parse tags of the quillkit source tree.', "", *body, '"""', "", "import re"]


@pytest.mark.parametrize("commit_line", [f"- commit {SHA} (09/09/2021)", f"commit {SHA}", f"at commit {SHA[:12]}."])
def test_the_commit_below_the_url_is_the_ref(commit_line: str) -> None:
    lines = _docstring("Vendored from:", "- https://github.com/quillkit/quillkit/", commit_line)
    marker = next(m for m in find_markers(lines) if m.repository)
    assert marker.repository == "quillkit/quillkit"
    assert marker.ref == commit_line.split("commit ", 1)[1].split()[0].rstrip(".")


def test_a_ref_in_the_url_stays() -> None:
    lines = _docstring("Vendored from https://github.com/quillkit/quillkit/blob/v2.1/quillkit/tags.py",
                       f"- commit {SHA}")
    marker = next(m for m in find_markers(lines) if m.repository)
    assert marker.ref == "v2.1"


def test_prose_about_a_commit_is_no_ref() -> None:
    lines = _docstring("Vendored from:", "- https://github.com/quillkit/quillkit/",
                       "- commit messages there explain the changes")
    marker = next(m for m in find_markers(lines) if m.repository)
    assert marker.ref == ""


def test_a_commit_line_not_right_below_is_no_ref() -> None:
    lines = _docstring("Vendored from:", "- https://github.com/quillkit/quillkit/", "",
                       f"commit {SHA}")
    marker = next(m for m in find_markers(lines) if m.repository)
    assert marker.ref == ""


def test_a_cut_table_cell_says_so() -> None:
    from lineage.report.markdown import md_text

    url = f"https://github.com/quillkit/quillkit/blob/{SHA}/quillkit/tags.py"
    assert md_text(url, 60) == url[:60] + "…"
    assert md_text("see the quillkit team", 8) == "see the…"  # no space before the mark
    assert md_text(url, len(url)) == url


@pytest.mark.parametrize("body", [
    ("Stolen from https://raw.githubusercontent.com/quillkit/quillkit/main/quillkit/tags.py at", SHA),
    (f"Taken from https://github.com/quillkit/quillkit/blob/main/quillkit/tags.py at commit {SHA[:12]}.",),
    ("Taken from https://github.com/quillkit/quillkit/blob/main/quillkit/tags.py at", f"commit {SHA}"),
])
def test_a_commit_after_the_url_outranks_its_branch(body: tuple[str, ...]) -> None:
    """pydantic 1.10.13's ``datetime_parse.py``: "Stolen from <django's dateparse.py on main> at" /
    "<sha>" read the ref ``main``; the sentence says which commit."""
    marker = next(m for m in find_markers(_docstring(*body)) if m.repository)
    assert (marker.repository, marker.path) == ("quillkit/quillkit", "quillkit/tags.py")
    assert SHA.startswith(marker.ref)


@pytest.mark.parametrize("body", [
    ("Taken from https://github.com/quillkit/quillkit/blob/main/quillkit/tags.py at", "the time of writing"),
    ("Taken from https://github.com/quillkit/quillkit/blob/main/quillkit/tags.py at the time of writing",),
    ("Taken from https://github.com/quillkit/quillkit/blob/main/quillkit/tags.py", SHA),
])
def test_no_stated_commit_leaves_the_branch(body: tuple[str, ...]) -> None:
    marker = next(m for m in find_markers(_docstring(*body)) if m.repository)
    assert marker.ref == "main"
