"""A folder named after the upstream that the upstream itself holds at the same place below its
own package is its own layout carried by a renamed fork, not a vendored copy (``folder_markers``;
tf-keras 2.17's ``tf_keras/api/_v1/keras/`` is keras 2.15's ``keras/api/_v1/keras/``)."""

from __future__ import annotations

from lineage.index.vendoring import folder_markers
from tests import treegen

_body = treegen.distinctive_functions
# the upstream's own module, sharing no line with _body's (whose seeds share their return lines)
_CORE = ("class Ledger:\n    def __init__(self):\n        self.entries = {}\n\n"
         "    def record(self, key, amount):\n        self.entries[key] = self.entries.get(key, 0) + amount\n"
         "        return self.entries[key]\n")


def test_a_folder_the_upstream_holds_at_its_own_place_is_no_folder_marker() -> None:
    up_paths = frozenset({"upkg/__init__.py", "upkg/core.py", "upkg/sub/deep.py",
                          "upkg/api/__init__.py", "upkg/api/upkg/__init__.py", "upkg/api/upkg/core.py"})
    upstream = ("upkg", {"upkg"}, up_paths)
    fork = ["tgt/__init__.py", "tgt/core.py", "tgt/api/__init__.py", "tgt/api/upkg/__init__.py",
            "tgt/api/upkg/core.py"]
    assert folder_markers(fork, [upstream]) == {}
    # the same under a src/ root of the upstream
    src_up = ("upkg", {"upkg"}, frozenset("src/" + p for p in up_paths))
    assert folder_markers(fork, [src_up]) == {}
    # a copy of the upstream in a folder the upstream does not hold there still marks
    vendored = ["tgt/__init__.py", "tgt/lib/__init__.py", "tgt/lib/upkg/__init__.py", "tgt/lib/upkg/core.py"]
    found = folder_markers(vendored, [upstream])
    assert sorted(found) == ["tgt/lib/upkg/__init__.py", "tgt/lib/upkg/core.py"]
    assert found["tgt/lib/upkg/core.py"][0].path == "upkg/core.py"


def test_a_renamed_forks_api_folder_pairs_with_its_own_path_unmarked(run_compare) -> None:  # type: ignore[no-untyped-def]
    upstream = {"upkg/__init__.py": "", "upkg/core.py": _CORE, "upkg/api/__init__.py": "",
                "upkg/api/upkg/__init__.py": "", "upkg/api/upkg/core.py": _body(2)}
    target = {"tgt/__init__.py": "", "tgt/core.py": _CORE, "tgt/api/__init__.py": "",
              "tgt/api/upkg/__init__.py": "", "tgt/api/upkg/core.py": _body(2)}
    files = run_compare(target, [("upkg", upstream)]).files.set_index("target_path")
    row = files.loc["tgt/api/upkg/core.py"]
    assert (row["marker_kind"], row["marker"]) == ("", "")
    assert row["upstream_path"] == "upkg/api/upkg/core.py"
    assert int(row["verbatim_code_lines"]) == int(row["code_lines"])
