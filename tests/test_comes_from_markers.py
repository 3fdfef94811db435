""""comes / came from" and "is pulled from" say where code came from only after a lead-in that
names code: aiobotocore 2.15.2 copies botocore's methods and adds ``await``, saying so ("The code
for this method comes directly from botocore", "Most of the code here is pulled straight up from
botocore"), and none of its 28 files with copies was marked. A value or a scale that "comes
from" something is prose.

The texts are written for the test; no package's own files."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers


def _markers(comment: str) -> list[tuple[str, str]]:
    return [(m.kind, m.project) for m in find_markers(["x = 1", comment, "y = 2"])]


@pytest.mark.parametrize("comment", [
    "# The code for this method comes directly from quillwort. We could override it.",
    "# Most of the code here comes directly from quillwort. The main change is the awaits.",
    "# Most of the code here is pulled straight up from quillwort, with slight changes",
    "# This class came from quillwort, made async.",
])
def test_code_that_comes_from_a_project_is_a_marker(comment: str) -> None:
    assert _markers(comment) == [("derived_from", "quillwort")]


@pytest.mark.parametrize("comment", [
    "# Not the length the kernel reads: that one comes from positions.",
    "# The scales come from the fused kernels in quillwort",
    "# this value comes from the config",
    "# The request comes from quillwort's client",
    "# TODO: check whether this file comes from quillwort",
])
def test_a_value_that_comes_from_somewhere_is_prose(comment: str) -> None:
    assert _markers(comment) == []


def test_a_marked_copy_counts_as_marked(run_compare) -> None:
    import treegen

    body = treegen.distinctive_functions(2)
    target = {"sedge/client.py": "# Most of the code here comes directly from quillwort.\n" + body}
    result = run_compare(target, [("quillwort", {"quillwort/client.py": body})])
    assert result.lists["marked_with_copied"] == ["sedge/client.py"]
