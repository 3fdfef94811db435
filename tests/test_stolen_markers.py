""""stolen from" says code was taken, and a source that ends on an adjective awaiting its noun
("the equivalent") runs on into the next line: requests-toolbelt 1.0.0's ``utils/user_agent.py``
says in a docstring "The majority of this code has been wilfully stolen from the equivalent" /
"function in Requests." above code copied from requests' ``help.py``, and was listed unmarked.

The texts are written for the test; no package's own files."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers
from lineage.markers.naming import marker_names_upstream


def _docstring(*lines: str) -> list[str]:
    return ["def agent(name):", '    """Build an agent string.', "", *lines, '    """', "    return name"]


def test_stolen_from_the_equivalent_function_is_a_marker_naming_the_project() -> None:
    markers = find_markers(_docstring(
        "    The majority of this code has been wilfully stolen from the equivalent",
        "    function in Quillwort.",
    ))
    assert [(m.kind, m.line) for m in markers] == [("taken_from", 4)]
    assert "function in Quillwort" in markers[0].text
    assert marker_names_upstream(markers[0], {"quillwort"})
    assert markers[0].project == "Quillwort"  # not the adjective, nor the code object it qualifies


@pytest.mark.parametrize(("source", "project"), [
    ("the equivalent function in Quillwort.", "Quillwort"),
    ("the corresponding kernel of Brambleworks", "Brambleworks"),
    ("the module quillwort", "quillwort"),
    ("the same function in numpy", ""),  # a lower-case word after the code object is no name
])
def test_the_project_skips_adjectives_and_code_objects(source: str, project: str) -> None:
    from lineage.markers.naming import project_from_text

    assert project_from_text(source) == project


@pytest.mark.parametrize("comment", [
    "# stolen from quillwort.utils.agent",
    "# Shamelessly stolen from Quillwort",
    "# The bulk of this module was stolen from Quillwort",
])
def test_stolen_from_a_source_is_a_marker(comment: str) -> None:
    assert [m.kind for m in find_markers(["x = 1", comment, "y = 2"])] == ["taken_from"]


def test_stolen_with_no_source_is_prose() -> None:
    assert find_markers(["x = 1", "# The key was stolen from the cache", "# so we rebuild it.", "y = 2"]) == []


def test_a_source_ending_on_an_adjective_takes_the_next_line() -> None:
    markers = find_markers(["x = 1", "# adapted from the corresponding", "# kernel in Quillwort.", "y = 2"])
    assert [m.kind for m in markers] == ["adapted_from"]


def test_a_source_ending_on_a_noun_does_not_take_the_next_line() -> None:
    assert find_markers(["x = 1", "# copied from the same file", "# in Quillwort.", "y = 2"]) == []
