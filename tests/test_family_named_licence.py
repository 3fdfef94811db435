"""A METADATA ``License`` naming a licence family ("LGPL") picks that family's one licence among
the root licence files (lineage.licences.declared._of_named_family); code under the target's own
licence expression fits it (lineage.licences.compat.compatible)."""

from __future__ import annotations

from pathlib import Path

import treegen

from lineage.licences import read_source_licence
from lineage.licences.compat import compatible
from lineage.sources import open_source

_GPL = "                    GNU GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n"
_LGPL = "                  GNU LESSER GENERAL PUBLIC LICENSE\n                       Version 2.1, February 1999\n"
_APACHE = ("Copyright (C) 2011 Orla Brennick\n\n   Licensed under the Apache License, Version 2.0 (the \"License\");\n"
           "   you may not use this file except in compliance with the License.\n")


def _declared(tmp_path: Path, licence: str, files: dict[str, str]) -> tuple[str, str]:
    pkg_info = f"Metadata-Version: 1.1\nName: quillet\nVersion: 1.0\nLicense: {licence}\n"
    root = treegen.write_tree(tmp_path / "t", {"PKG-INFO": pkg_info, "quillet/__init__.py": "", **files})
    with open_source(str(root), tmp_path / "cache") as source:
        found = read_source_licence(source)
    return found.declared, found.declared_from


def test_an_lgpl_release_shipping_the_gpl_text_beside_it_is_under_the_lgpl(tmp_path: Path) -> None:
    assert _declared(tmp_path, "LGPL", {"COPYING": _GPL, "COPYING.LESSER": _LGPL}) == (
        "LGPL-2.1-only", "licence files: COPYING.LESSER (METADATA License: LGPL)")


def test_without_a_family_name_or_with_two_of_the_family_all_root_files_count(tmp_path: Path) -> None:
    both = "GPL-2.0-only AND LGPL-2.1-only"
    assert _declared(tmp_path / "a", "see COPYING", {"COPYING": _GPL, "COPYING.LESSER": _LGPL})[0] == both
    # the GPL family's prefix is not the LGPL's: a GPL release keeps its GPL
    assert _declared(tmp_path / "b", "GPL", {"COPYING": _GPL, "COPYING.LESSER": _LGPL})[0] == "GPL-2.0-only"
    # no licence of the named family among the files: they all count, as before
    assert _declared(tmp_path / "c", "LGPL", {"LICENSE": _APACHE, "COPYING": _GPL})[0] == "Apache-2.0 AND GPL-2.0-only"


def test_code_under_the_targets_own_licence_expression_fits_it() -> None:
    both = "GPL-2.0-or-later AND LGPL-2.1-or-later"
    assert compatible(both, both).status == "ok"
    assert compatible("LGPL-2.1-or-later AND GPL-2.0-or-later", both).status == "ok"  # same, written otherwise
    assert compatible("GPL-2.0-or-later", "LGPL-2.1-or-later").status == "conflict"  # unchanged
