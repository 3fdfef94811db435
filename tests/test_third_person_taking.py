"""A taking verb in the third person, with the code it took before "from", is a provenance marker
as its past participle is: pydantic-settings 2.6.1's ``sources.py`` says in a method's docstring
"Adapts logic from `pydantic._repr.display_as_type`." and was, unread, an unmarked file in the
review list against pydantic."""

from __future__ import annotations

import pytest

from lineage.markers import find_file_markers, find_markers, marker_names_upstream

_DOC = '        """Pretty label of a type. Adapts logic from `acmeval._repr.display_as_type`."""'


@pytest.mark.parametrize(("comment", "kind"), [
    ("# Adapts logic from acmeval.core.helpers", "adapted_from"),
    ("# Adapts the implementation from Acmeval", "adapted_from"),
    ("# Borrows code from https://github.com/acme/acmeval/blob/v1/acmeval/x.py", "taken_from"),
])
def test_a_third_person_taking_verb_is_a_marker(comment: str, kind: str) -> None:
    (m,) = find_markers([comment])
    assert m.kind == kind
    assert marker_names_upstream(m, {"acmeval"})


@pytest.mark.parametrize("comment", [
    "# Adapts code from the input buffer",  # judged as "adapted code from": a strong source
    "# Borrows code from the cache",
    "# Adapts the weights from the checkpoint",  # no code taken
    "# This duplicates the code from `__enter__`.",  # a repetition, not an origin
    "# Ports code from Smem to registers",  # data moved: "ports" is not read
])
def test_third_person_prose_stays_prose(comment: str) -> None:
    assert find_markers([comment]) == []


def test_a_docstring_deep_in_a_file_is_read_through_the_pre_filter() -> None:
    lines = ["x = 1"] * 30 + ["class Parser:", "    def label(self, obj):", _DOC, "        return repr(obj)"]
    kinds = ["code"] * 32 + ["docstring", "code"]
    found = find_file_markers(lines, kinds)
    assert found == find_markers(lines, kinds)
    (m,) = found
    assert (m.kind, m.line, m.path) == ("adapted_from", 33, "acmeval/_repr/display_as_type.py")
    assert marker_names_upstream(m, {"acmeval"})
