"""A fork that keeps the upstream's package name names its own modules by that name: "Based on
:class:`upkg.backend.Engine`" of the fork's own ``upkg/backend/`` names no upstream
(:func:`lineage.markers.paths.names_target_module`; urllib3-future 2.12.900 against urllib3 2.2.3)."""

from __future__ import annotations

from lineage.markers import find_markers
from lineage.markers.paths import names_target_module
from tests import treegen

_body = treegen.distinctive_functions
_OWN = 'class Conn:\n    """Based on :class:`upkg.backend.Engine` but adds a constructor."""\n\n'


def test_a_dotted_name_of_the_targets_own_module_names_no_upstream() -> None:
    [marker] = find_markers(_OWN.splitlines())
    assert marker.path == "upkg/backend.py"
    fork = {"upkg/__init__.py", "upkg/conn.py", "upkg/backend/__init__.py"}
    assert names_target_module(marker, fork, {"upkg"}, "")
    assert not names_target_module(marker, fork, {"upkg"}, "upkg/backend.py")  # the upstream holds it
    assert not names_target_module(marker, fork, set(), "")  # a renamed fork: the name is the upstream's
    assert not names_target_module(marker, {"upkg/__init__.py", "upkg/conn.py"}, {"upkg"}, "")  # nor the target
    # a file's path written out is that file, wherever it is
    [written] = find_markers(["# Based on upkg/backend.py of the old release"])
    assert not names_target_module(written, fork | {"upkg/backend.py"}, {"upkg"}, "")


def test_a_fork_keeping_the_name_is_not_marked_by_its_own_class(run_compare) -> None:  # type: ignore[no-untyped-def]
    upstream = {"upkg/__init__.py": "", "upkg/conn.py": _body(3)}
    target = {"upkg/__init__.py": "", "upkg/conn.py": _OWN + _body(3),
              "upkg/backend/__init__.py": "class Engine:\n    pass\n"}
    row = run_compare(target, [("upkg", upstream)]).files.set_index("target_path").loc["upkg/conn.py"]
    assert (row["marker_kind"], row["marker"]) == ("", "")
    assert int(row["verbatim_code_lines"]) > 0
