"""A fork that keeps its upstream's package names carries the upstream's notes about itself: in a
file inside a package both trees hold, a marker naming the upstream only by such a package's name
names no upstream (:mod:`lineage.markers.shared_package`; basedmypy 2.7.0 against mypy 1.13.0,
whose "This logic is copied from mypy's TypeChecker.analyze_iterable_item_type" marked
``mypyc/irbuild/builder.py``)."""

from __future__ import annotations

from lineage.markers import find_markers
from lineage.markers.shared_package import in_shared_package, names_shared_package_only, shared_package_names
from tests import treegen

_body = treegen.distinctive_functions
_NOTE = "# This logic is copied from zorp's Checker.item_type.\n"
_OWN = [{"zorp", "zorpc", "zorp-checker"}]  # the upstream's names: label, packages, distribution


def test_a_note_naming_only_a_shared_package_names_no_upstream() -> None:
    [marker] = find_markers(_NOTE.splitlines())
    shared = shared_package_names({"zorp", "zorpc"})
    assert names_shared_package_only(marker, shared, _OWN)
    assert not names_shared_package_only(marker, set(), _OWN)  # a renamed package: the name is the upstream's
    assert not names_shared_package_only(marker, shared_package_names({"zorpc"}), _OWN)
    # another of the upstream's names, or its repository, still names it
    [other] = find_markers(["# This logic is copied from zorp-checker's Checker.item_type."])
    assert not names_shared_package_only(other, shared, _OWN)
    [linked] = find_markers(["# Copied from https://github.com/zorpers/zorp/blob/main/zorp/checker.py"])
    assert linked.repository and not names_shared_package_only(linked, shared, [{"zorp", "zorpc", "zorpers/zorp"}])
    assert in_shared_package("zorpc/build.py", {"zorp", "zorpc"})
    assert in_shared_package("zorp.py", {"zorp"})
    assert not in_shared_package("tools/zorp_build.py", {"zorp", "zorpc"})


def test_a_fork_keeping_the_package_names_is_not_marked_by_the_upstreams_notes(run_compare) -> None:  # type: ignore[no-untyped-def]
    upstream = {"zorp/__init__.py": "", "zorp/checker.py": _body(3),
                "zorpc/__init__.py": "", "zorpc/build.py": _NOTE + _body(4)}
    fork = {"zorp/__init__.py": "", "zorp/checker.py": _body(3),
            "zorpc/__init__.py": "", "zorpc/build.py": _NOTE + _body(4)}
    rows = run_compare(fork, [("zorp", upstream)]).files.set_index("target_path")
    assert (rows.loc["zorpc/build.py", "marker_kind"], rows.loc["zorpc/build.py", "marker"]) == ("", "")
    assert int(rows.loc["zorpc/build.py", "verbatim_code_lines"]) > 0
    # the same note in a target whose own package is named otherwise does mark it
    renamed = {"based/__init__.py": "", "based/build.py": _NOTE + _body(4)}
    row = run_compare(renamed, [("zorp", upstream)]).files.set_index("target_path").loc["based/build.py"]
    assert row["marker_kind"] == "copied_from"
