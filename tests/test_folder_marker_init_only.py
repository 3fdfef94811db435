"""A folder named after an upstream whose only files at the upstream's paths are its own
``__init__.py`` and stub is the target's own namespace, not the upstream vendored
(``folder_markers``, ``_shows_layout``; jax 0.4.35's ``jax/numpy/`` against numpy 2.1.3 marked
``__init__.py`` and ``__init__.pyi`` "named after numpy")."""

from __future__ import annotations

from lineage.index.vendoring import folder_markers

_UP = ("upkg", {"upkg"}, frozenset({"upkg/__init__.py", "upkg/__init__.pyi", "upkg/core.py",
                                    "upkg/sub/__init__.py", "upkg/sub/deep.py"}))


def test_a_folder_sharing_only_its_own_init_is_no_copy() -> None:
    # the target's own API namespace under the upstream's name: half its files "stand" at the
    # upstream's paths, but only by the folder's name
    own = ["tgt/__init__.py", "tgt/upkg/__init__.py", "tgt/upkg/__init__.pyi", "tgt/upkg/fft.py",
           "tgt/upkg/linalg.py"]
    assert folder_markers(own, [_UP]) == {}


def test_a_copy_with_another_file_at_an_upstream_path_still_marks() -> None:
    # astropy's extern/configobj/: __init__.py and validate.py at configobj's paths, configobj.py
    # (configobj's __init__.py under another name) not
    vendored = ["tgt/__init__.py", "tgt/extern/__init__.py", "tgt/extern/upkg/__init__.py",
                "tgt/extern/upkg/core.py", "tgt/extern/upkg/renamed.py"]
    assert sorted(folder_markers(vendored, [_UP])) == ["tgt/extern/upkg/__init__.py", "tgt/extern/upkg/core.py"]
    # a subpackage's __init__ is layout: the upstream's subfolder by name
    nested = ["tgt/__init__.py", "tgt/extern/__init__.py", "tgt/extern/upkg/__init__.py",
              "tgt/extern/upkg/sub/__init__.py", "tgt/extern/upkg/mine.py"]
    assert sorted(folder_markers(nested, [_UP])) == ["tgt/extern/upkg/__init__.py", "tgt/extern/upkg/sub/__init__.py"]


def test_a_folder_holding_only_its_init_still_marks() -> None:
    # nothing but the package file to show: the copy of a one-file package
    single = ["tgt/__init__.py", "tgt/lib/__init__.py", "tgt/lib/upkg/__init__.py"]
    assert sorted(folder_markers(single, [_UP])) == ["tgt/lib/upkg/__init__.py"]


def test_a_folder_marker_lost_to_new_neighbours_is_not_answered_from_the_caches(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A folder marker rests on the folder's other files (how many stand at upstream paths): when
    new files of the target's own join the folder, an unchanged file there loses its mark, and a
    cached rerun must say so as a run without caches does (the folder markers are match context)."""
    import treegen

    from lineage.api import compare
    from lineage.settings import RunSettings

    body = "".join(f"def part_{k}(value):\n    total = value * {k} + {k * 3}\n    return total - {k}\n\n\n"
                   for k in range(10))
    up = {"pyproject.toml": '[project]\nname = "upkg"\nversion = "1.0"\n', "upkg/__init__.py": "",
          "upkg/core.py": body}
    target = {"pyproject.toml": '[project]\nname = "tgt"\nversion = "1.0"\n', "tgt/__init__.py": "",
              "tgt/extern/__init__.py": "", "tgt/extern/upkg/__init__.py": "", "tgt/extern/upkg/core.py": body,
              # enough files of its own elsewhere that the rerun reuses the unchanged files' rows
              **{f"tgt/mod_{k}.py": f"VALUE_{k} = {k}\n" for k in range(20)}}
    u_root = treegen.write_tree(tmp_path / "upkg", up)
    t_root = treegen.write_tree(tmp_path / "tgt", target)
    cached = RunSettings(cache_dir=tmp_path / "cache", jobs=1, reuse_tables=True)
    first = compare(str(t_root), [str(u_root)], settings=cached).files.set_index("target_path")
    assert first.loc["tgt/extern/upkg/core.py", "marker_kind"] == "folder"
    for k in range(3):  # the target's own files join the folder: no longer the upstream's layout
        (t_root / "tgt/extern/upkg" / f"own_{k}.py").write_text(f"OWN_{k} = {k}\n")
    again = compare(str(t_root), [str(u_root)], settings=cached).files
    fresh = compare(str(t_root), [str(u_root)], settings=RunSettings(use_cache=False, jobs=1)).files
    assert again.set_index("target_path").loc["tgt/extern/upkg/core.py", "marker_kind"] == ""
    assert again.equals(fresh)
