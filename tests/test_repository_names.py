"""A URL's repository names the upstream by its name unless that name is the project a Python
client is for: when the upstream's own repository is named like a client of it
(``acme/brook-python``), a repository of the bare name (``otherorg/brook``) is that other project
(round user144: aiokafka's links into apache/kafka marked its files for kafka-python, package
``kafka``, repository dpkp/kafka-python). A fork, a move or a rename still names it
(``oldowner/quill2`` for quill2, declared ``pallets-like/quill``).

Names and URLs here are invented for the test, but for the shapes they copy."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers, marker_names_upstream


def _marker(url: str):  # type: ignore[no-untyped-def]
    found = find_markers([f"# Adapted from {url}"])
    assert found and found[0].repository
    return found[0]


CLIENT = ["brook-python", "brook_python", "brook", "acme/brook-python"]  # label, package, declared repository
RENAMED = ["quill2", "quill", "pallets-like/quill"]  # as jinja2 3.1.4: its repository named unlike it


@pytest.mark.parametrize(("url", "names", "named"), [
    ("https://github.com/otherorg/brook/blob/trunk/src/Brook.java", CLIENT, False),  # another project
    ("https://github.com/acme/brook/blob/main/Brook.java", CLIENT, False),  # the same owner's server
    ("https://github.com/acme/brook-python/blob/main/brook/x.py", CLIENT, True),  # its own repository
    ("https://github.com/forker/brook-python/blob/main/brook/x.py", CLIENT, True),  # a fork
    ("https://github.com/oldowner/quill2/blob/master/quill2/x.py", RENAMED, True),  # moved and renamed
    ("https://github.com/anyone/brook/blob/main/x.py", ["brook", "brook-lib"], True),  # no repository declared
])
def test_a_repository_named_like_the_upstream(url: str, names: list[str], named: bool) -> None:
    assert marker_names_upstream(_marker(url), names) is named


def test_a_declared_name_or_a_link_into_python_code_still_names_it() -> None:
    """review147: an upstream declaring both org/brook and org/brook-python keeps a fork of brook;
    a link into a Python file of the bare-named repository is Python code, not the other project."""
    both = [*CLIENT, "acme/brook"]
    assert marker_names_upstream(_marker("https://github.com/forker/brook/blob/main/brook/x.py"), both)
    assert marker_names_upstream(_marker("https://github.com/otherorg/brook/blob/main/brook/x.py"), CLIENT)
    assert not marker_names_upstream(_marker("https://github.com/otherorg/brook"), CLIENT)
