"""A vendored dist-info without a RECORD governs the top-level imports its ``top_level.txt``
names, beside the folder named after its distribution (pex 2.20.3's vendored setuptools 44:
``pkg_resources/`` and ``easy_install.py`` were governed by pex's own Apache-2.0, not by
setuptools' MIT licence beside them)."""

from __future__ import annotations

from pathlib import Path

import treegen

from lineage.licences.declared import read_source_licence
from lineage.sources import open_source

_MIT = ("MIT License\n\nCopyright (c) 2031 Shovel Makers\n\nPermission is hereby granted, free of charge, to any "
        "person obtaining a copy of this software and associated documentation files (the \"Software\"), to "
        "deal in the Software without restriction.\n")
_INFO = "tgt/_vendored/shovel/shovel-44.0.0+3acb925.dist-info"


def _folders(tmp_path: Path, top_level: str | None) -> list[str]:
    tree = {
        "tgt/__init__.py": "x = 1\n",
        "tgt-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tgt\nVersion: 1.0\nLicense: Apache-2.0\n",
        "tgt/_vendored/shovel/shovel/__init__.py": "a = 1\n",
        "tgt/_vendored/shovel/pkg_spade/__init__.py": "b = 1\n",
        "tgt/_vendored/shovel/spade_install.py": "c = 1\n",
        f"{_INFO}/METADATA": "Metadata-Version: 2.1\nName: shovel\nVersion: 44.0.0+3acb925\n",
        f"{_INFO}/LICENSE": _MIT,
    }
    if top_level is not None:
        tree[f"{_INFO}/top_level.txt"] = top_level
    root = treegen.write_tree(tmp_path / "t", tree)
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    return sorted(f.folder for f in lic.files if f.path == f"{_INFO}/LICENSE")


def test_top_level_txt_names_the_governed_imports(tmp_path: Path) -> None:
    assert _folders(tmp_path, "easy_install\npkg_spade\nshovel\nspade_install\n") == [
        "tgt/_vendored/shovel/pkg_spade", "tgt/_vendored/shovel/shovel", "tgt/_vendored/shovel/spade_install.py"]


def test_without_top_level_txt_the_named_folder_alone(tmp_path: Path) -> None:
    assert _folders(tmp_path, None) == ["tgt/_vendored/shovel/shovel"]
