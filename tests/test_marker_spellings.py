"""A marker path found in another spelling (:func:`lineage.markers.paths._one_spelled`): other
letter case for any path, leading underscores dropped for a dotted name; exactly or as a path
suffix either way, as an exact spelling is (:func:`lineage.markers.paths._resolve_path`), and only
when one upstream file fits."""

from __future__ import annotations

import pytest

from lineage.markers.paths import PathsByName, resolve_marker_path
from lineage.markers.record import Marker

UP = ["pkg/_path/common.py", "pkg/models/glm4v/modeling_glm4v.py", "pkg/a/Util.py", "pkg/b/util.py"]
BY_NAME: dict[str, list[str]] = {}
for _p in UP:
    BY_NAME.setdefault(_p.rsplit("/", 1)[-1], []).append(_p)


def _resolve(path: str, text: str, by_name: dict[str, list[str]] = BY_NAME) -> str:
    return resolve_marker_path(Marker(line=1, kind="adapted_from", text=text, path=path), set(UP), by_name)


def test_other_case_as_a_suffix_either_way() -> None:
    # the marker's path is longer than the upstream's (a repository prefix), or a suffix of it
    assert _resolve("src/pkg/models/Glm4v/modeling_Glm4v.py", "Adapted from src/pkg/models/Glm4v/modeling_Glm4v.py") \
        == "pkg/models/glm4v/modeling_glm4v.py"
    assert _resolve("Glm4v/modeling_Glm4v.py", "Adapted from Glm4v/modeling_Glm4v.py") \
        == "pkg/models/glm4v/modeling_glm4v.py"


def test_other_case_with_two_fits_names_none() -> None:
    assert _resolve("UTIL.py", "Adapted from UTIL.py") == ""


def test_a_dotted_name_finds_its_private_module_as_a_suffix_either_way() -> None:
    assert _resolve("pkg/path/common.py", "A port of X from pkg.path.common") == "pkg/_path/common.py"
    assert _resolve("lib/pkg/path/common.py", "A port of X from lib.pkg.path.common") == "pkg/_path/common.py"


def test_a_path_written_out_is_not_read_without_its_underscores() -> None:
    assert _resolve("pkg/path/common.py", "Adapted from pkg/path/common.py") == ""


@pytest.mark.parametrize(("path", "text", "found"), [
    ("src/pkg/models/Glm4v/modeling_Glm4v.py", "Adapted from src/pkg/models/Glm4v/modeling_Glm4v.py",
     "pkg/models/glm4v/modeling_glm4v.py"),
    ("UTIL.py", "Adapted from UTIL.py", ""),
    ("pkg/path/common.py", "A port of X from pkg.path.common", "pkg/_path/common.py"),
    ("pkg/path/common.py", "Adapted from pkg/path/common.py", ""),
])
def test_paths_by_name_keeps_its_spellings_and_answers_as_a_plain_dict(path: str, text: str, found: str) -> None:
    # the run's index (lineage.api) folds each spelling's names once and keeps them; the answers
    # are the plain dict's, asked twice (the second from what it kept)
    by_name = PathsByName(UP)
    assert by_name == BY_NAME
    assert _resolve(path, text, by_name) == _resolve(path, text, by_name) == _resolve(path, text) == found
    assert by_name.spellings  # the folded names were kept for the next marker
