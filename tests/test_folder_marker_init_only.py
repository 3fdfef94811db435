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
