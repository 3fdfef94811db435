"""A vendored package's licence file copied one folder too high speaks for that package alone
(lineage.licences.declared._without_stray_copies); a ``<name>.LICENSE`` beside module or package
``<name>`` is that one's own licence (_for_named_module)."""

from __future__ import annotations

from pathlib import Path

import treegen

from lineage.licences import read_source_licence
from lineage.sources import open_source

_APACHE = ("Copyright (C) 2011 Orla Brennick\n\n   Licensed under the Apache License, Version 2.0 (the \"License\");\n"
           "   you may not use this file except in compliance with the License.\n")
_MIT = ("MIT License\n\nCopyright (c) 2019 Tamsin Holloway\n\nPermission is hereby granted, free of charge, to any "
        "person obtaining a copy\nof this software and associated documentation files (the \"Software\"), to deal\n"
        "in the Software without restriction.\n")


def _licence(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    root = treegen.write_tree(tmp_path / "t", files)
    with open_source(str(root), tmp_path / "cache") as source:
        return read_source_licence(source)


def test_a_vendored_packages_licence_copied_into_the_folder_above_does_not_govern_it(tmp_path: Path) -> None:
    licence = _licence(tmp_path, {
        "LICENSE": _MIT, "wrap/patched/tool/__init__.py": "", "wrap/patched/tool/cli.py": "x = 1\n",
        "wrap/patched/tool/COPYING": _APACHE,  # the same bytes as the vendored packer's
        "wrap/patched/tool/_vendor/packer/COPYING": _APACHE, "wrap/patched/tool/_vendor/packer/core.py": "y = 2\n"})
    assert "wrap/patched/tool/COPYING" not in [f.path for f in licence.files]
    # the tool's own module falls to the root's licence; the vendored package keeps its own
    assert licence.folder_licence("wrap/patched/tool/cli.py") == ("", "")
    assert licence.folder_licence("wrap/patched/tool/_vendor/packer/core.py") == (
        "Apache-2.0", "wrap/patched/tool/_vendor/packer/COPYING")


def test_a_folders_own_licence_and_the_roots_stand_beside_a_copy_below(tmp_path: Path) -> None:
    licence = _licence(tmp_path, {
        "LICENSE": _MIT, "pkg/__init__.py": "", "pkg/LICENSE": _APACHE + "\n",  # another text than below
        "pkg/_vendor/packer/LICENSE": _MIT, "pkg/_vendor/packer/core.py": "y = 2\n",
        "pkg/_vendor/other/COPYING": _APACHE, "pkg/_vendor/other/core.py": "z = 3\n"})
    assert {f.path for f in licence.files} == {
        "LICENSE", "pkg/LICENSE", "pkg/_vendor/packer/LICENSE", "pkg/_vendor/other/COPYING"}
    assert licence.folder_licence("pkg/mod.py") == ("Apache-2.0", "pkg/LICENSE")


def test_a_licence_file_named_after_a_module_or_package_beside_it_is_that_ones_own(tmp_path: Path) -> None:
    licence = _licence(tmp_path, {
        "LICENSE": _MIT, "pkg/__init__.py": "", "pkg/_vendor/__init__.py": "",
        "pkg/_vendor/shimmer.py": "a = 1\n", "pkg/_vendor/shimmer.LICENSE": _APACHE,
        "pkg/_vendor/flock/yaml/core.py": "b = 2\n", "pkg/_vendor/flock.yaml.LICENSE": _APACHE + "\n",
        "pkg/_vendor/absent.LICENSE": _APACHE + "\n\n"})  # no such module: for included code, as before
    assert licence.folder_licence("pkg/_vendor/shimmer.py") == ("Apache-2.0", "pkg/_vendor/shimmer.LICENSE")
    assert licence.folder_licence("pkg/_vendor/flock/yaml/core.py") == ("Apache-2.0", "pkg/_vendor/flock.yaml.LICENSE")
    assert licence.folder_licence("pkg/_vendor/other.py") == ("", "")
    assert [f.included_code for f in licence.files if f.path == "pkg/_vendor/absent.LICENSE"] == [True]
