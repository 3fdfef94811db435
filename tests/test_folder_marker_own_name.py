"""A folder nested in one of the target's own packages that bears that package's own name is
the target's own namespace, not the upstream vendored (``folder_markers``;
keras 3.6's ``keras/_tf_keras/keras/`` against keras 2.15 marked 49 files "named after keras")."""

from __future__ import annotations

from lineage.index.vendoring import folder_markers


def test_a_folder_named_as_the_targets_own_package_is_no_folder_marker() -> None:
    up_paths = frozenset({"upkg/__init__.py", "upkg/core.py", "upkg/sub/__init__.py", "upkg/sub/deep.py"})
    upstream = ("upkg", {"upkg"}, up_paths)
    # a later release of upkg re-exporting its own API under upkg/_compat/upkg/
    later = ["upkg/__init__.py", "upkg/core.py", "upkg/_compat/__init__.py", "upkg/_compat/upkg/__init__.py",
             "upkg/_compat/upkg/core.py", "upkg/_compat/upkg/sub/__init__.py"]
    assert folder_markers(later, [upstream]) == {}


def test_a_copy_in_another_projects_package_still_marks() -> None:
    up_paths = frozenset({"upkg/__init__.py", "upkg/core.py"})
    # even when the target also ships the upstream's package at its top level
    vendored = ["upkg/__init__.py", "upkg/core.py", "tgt/__init__.py", "tgt/_compat/__init__.py",
                "tgt/_compat/upkg/__init__.py", "tgt/_compat/upkg/core.py"]
    found = folder_markers(vendored, [("upkg", {"upkg"}, up_paths)])
    assert sorted(found) == ["tgt/_compat/upkg/__init__.py", "tgt/_compat/upkg/core.py"]
