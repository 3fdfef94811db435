""""NAME forked PROJECT" in a description (lineage.markers.description): the verb with the
project as its object states reuse, as asyncpraw 7.8.0's History does ("Joel forked PRAW and
began work on Async PRAW"); only the word or link right after the verb names the project."""

from __future__ import annotations

import pytest

from lineage.markers.description import reuse_statements, statements_naming

HISTORY = """Metadata-Version: 2.1
Name: asyncwidget
Version: 2.0
Summary: Asynchronous widget client.

History
-------

`March 2021 <https://github.com/widget-org/asyncwidget/commit/abc123>`_:
Ann forked Widgetlib and began work on Async Widgetlib, an asynchronous version of
Widgetlib.
"""


def test_forked_with_the_project_as_object_is_a_statement_naming_it() -> None:
    statements = reuse_statements("asyncwidget-2.0.dist-info/METADATA", HISTORY, metadata=True)
    assert [(s.line, s.kind) for s in statements] == [(10, "derived_from")]
    assert statements[0].text.startswith("`March 2021 <https://github.com/widget-org/asyncwidget/commit/abc123>`_: "
                                         "Ann forked Widgetlib and began")
    assert statements_naming(statements, ["widgetlib"]) == list(statements)


@pytest.mark.parametrize("text, named", [
    ("We forked [Widgetlib](https://github.com/widget-org/widgetlib) to add async.", True),
    ("Ann forked the original Widgetlib in 2021.", True),
    ("Ann forked the widgetlib repository.", True),
    # only the object names: a project later in the sentence does not
    ("The worker is forked and then calls widgetlib.", False),
    ("Ann forked gadgetry and later added widgetlib support.", False),
    # a preposition is no object: pgen2 was forked, not the project after "into"
    ("The parser generator (originally used elsewhere and forked into widgetlib).", False),
    # the phrases read before keep their reading
    ("This package was forked from widgetlib.", True),
    ("It was forked off of widgetlib in 2020.", True),
])
def test_only_the_object_of_forked_names_the_project(text: str, named: bool) -> None:
    statements = reuse_statements("README.md", text)
    assert bool(statements_naming(statements, ["widgetlib", "widget-org/widgetlib"])) is named
