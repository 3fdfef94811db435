""""This package merges (both) PROJECT and PROJECT" in a description
(lineage.markers.description): a project that says it merges other projects holds their code, as
jsonpath-ng 1.7.0's says of jsonpath-rw and jsonpath-rw-ext; only with the project itself as the
subject."""

from __future__ import annotations

import pytest

from lineage.markers.description import reuse_statements, statements_naming

METADATA = """Metadata-Version: 2.1
Name: widgetpath-ng
Version: 1.0
Summary: A final implementation of widget paths.

Widget Path Next-Generation
===========================

A final implementation of widget paths for Python.

This packages merges both `widgetpath-rw`_ and `widgetpath-rw-ext`_ and
provides several AST API enhancements.

.. _`widgetpath-rw`: https://github.com/ann/python-widgetpath-rw
.. _`widgetpath-rw-ext`: https://pypi.org/project/widgetpath-rw-ext/
"""


def test_this_package_merges_names_both_projects() -> None:
    statements = reuse_statements("widgetpath_ng-1.0.dist-info/METADATA", METADATA, metadata=True)
    assert [(s.line, s.kind) for s in statements] == [(11, "derived_from")]
    assert statements[0].text.startswith("This packages merges both `widgetpath-rw`_")
    assert statements_naming(statements, ["widgetpath-rw"]) == list(statements)
    assert statements_naming(statements, ["widgetpath-rw-ext"]) == list(statements)
    # a longer name that holds it is not the project: "widgetpath" names neither
    assert statements_naming(statements, ["widgetpath"]) == []


@pytest.mark.parametrize("text, named", [
    ("This project merged widgetlib and gadgetry into one library.", True),
    ("This library has merged [Widgetlib](https://github.com/widget-org/widgetlib) back in.", True),
    ("This module merges widgetlib.", True),
    # not the project itself as the subject: what a tool does, not what it took
    ("It merges dictionaries read by widgetlib.", False),
    ("The tool merges widgetlib configuration files.", False),
    ("Widgetlib merges lists; this package does not.", False),
    # the project named before the phrase took nothing of it
    ("Unlike widgetlib, this package merges both dicts and lists.", False),
])
def test_only_this_project_merging_names_a_project(text: str, named: bool) -> None:
    statements = reuse_statements("README.md", text)
    assert bool(statements_naming(statements, ["widgetlib", "widget-org/widgetlib"])) is named


@pytest.mark.parametrize("text", [
    "This module merges Django settings from environment variables.",
    "This library merges dictionaries deeply, like lodash.merge.",
])
def test_a_noun_phrase_after_merges_names_no_project(text: str) -> None:
    # the review of 2026-12-07: what follows the verb must be a name, as after "forked"
    statements = reuse_statements("README.md", text)
    assert statements_naming(statements, ["django", "lodash"]) == []
