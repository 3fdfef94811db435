"""A licence file that holds several licence texts and opens by offering a choice between them
("You may choose either license.") announces that choice (``A OR B``), not all of them.

The texts here are written for the test (GNU titles with our own filler), never a package's own files."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen

from lineage.licences.licence_file import read_licence_file
from lineage.licences.notices import offers_choice

_HEAD = "  NOTICE: Here are the GPLv3 licence and, after it, the Lesser GPLv3 licence.\n"
_CHOICE = _HEAD + "You may choose either license.\n"
_TEXTS = ("\n\n                   GNU LESSER GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n"
          "\n  Terms written for this test.\n"
          "\n                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n"
          "\n  More terms written for this test.\n")
DUAL_IN_ONE = _CHOICE + _TEXTS


def test_choose_either_offers_a_choice() -> None:
    assert offers_choice(DUAL_IN_ONE)
    # only in the opening paragraph: a later "choose either" is some part's, not the file's terms
    assert not offers_choice("MIT License\n\nPermission is granted.\n\nFor vendor/x you may choose either licence.\n")


def test_a_file_offering_a_choice_between_its_texts_reads_as_the_choice() -> None:
    path = "pkg-1.0.dist-info/LICENSE.dual"
    assert read_licence_file(path, DUAL_IN_ONE.encode()).expression == "GPL-3.0-only OR LGPL-3.0-only"
    # without the sentence both texts apply, as before
    both = _HEAD + _TEXTS
    assert read_licence_file(path, both.encode()).expression == "GPL-3.0-only AND LGPL-3.0-only"


def test_a_release_with_only_that_file_declares_the_choice(tmp_path: Path) -> None:
    from lineage.licences import read_source_licence
    from lineage.sources import open_source

    wheel = treegen.write_wheel(tmp_path, "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n",
                                {"LICENSE.dual": DUAL_IN_ONE, "pkg/__init__.py": "X = 1\n"})
    with open_source(str(wheel)) as source:
        lic = read_source_licence(source)
    assert lic.declared == "GPL-3.0-only OR LGPL-3.0-only"
    assert lic.declared_from == ("licence files: pkg-1.0.dist-info/LICENSE.dual offers a choice "
                                 "(between the texts it holds)")


_APACHE_BSD = ("This project is dual licensed: the Apache License 2.0 or the BSD 2-Clause License, at your option.\n"
               "\n                    Apache License\n                 Version 2.0, January 2004\n"
               "\n   Licensed under the Apache License, Version 2.0 (the \"License\");\n"
               "\n  BSD 2-Clause License\n\nRedistribution and use in source and binary forms, with or without "
               "modification, are permitted provided that the following conditions are met:\n"
               "1. Redistributions of source code must retain the above copyright notice, this list of conditions "
               "and the following disclaimer.\n"
               "2. Redistributions in binary form must reproduce the above copyright notice, this list of "
               "conditions and the following disclaimer in the documentation and/or other materials provided "
               "with the distribution.\n")
_VENDORED_MIT = ("\nThe file src/_vendor/zz.py is copied from another project and is under the following licence:\n"
                 "\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software "
                 "and associated documentation files (the \"Software\"), to deal in the Software without "
                 "restriction. The above copyright notice and this permission notice shall be included in all "
                 "copies or substantial portions of the Software.\n")


def test_the_choice_is_between_the_licences_the_opening_names_the_others_beside_it() -> None:
    """review143: a choice file that also holds a vendored part's MIT text offered MIT for the whole."""
    from lineage.licences.licence_file import governing_text
    from lineage.licences.notices import licence_file_expression, notice_ids_in

    text = _APACHE_BSD + _VENDORED_MIT
    assert set(notice_ids_in(text)) == {"Apache-2.0", "BSD-2-Clause", "MIT"}
    assert licence_file_expression(text, governing_text(text)) == "(Apache-2.0 OR BSD-2-Clause) AND MIT"
    assert licence_file_expression(_APACHE_BSD, _APACHE_BSD) == "Apache-2.0 OR BSD-2-Clause"
    # an opening naming none of three texts offers no choice the reader can tell: all of them
    three = "You may choose either license.\n" + _APACHE_BSD.split("\n", 1)[1] + _VENDORED_MIT
    assert licence_file_expression(three, three) == "Apache-2.0 AND BSD-2-Clause AND MIT"


def test_a_metadata_license_field_holding_the_dual_file_declares_the_choice(tmp_path: Path) -> None:
    """review143: METADATA's License field (read before the licence files) and pyproject's
    license.text read the same rule as a licence file does."""
    from lineage.licences import read_source_licence
    from lineage.sources import open_source

    field = DUAL_IN_ONE.replace("\n", "\n        ")
    wheel = treegen.write_wheel(tmp_path, f"Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\nLicense: {field}\n",
                                {"pkg/__init__.py": "X = 1\n"})
    with open_source(str(wheel)) as source:
        assert read_source_licence(source).declared == "GPL-3.0-only OR LGPL-3.0-only"
    toml = "[project]\nname = \"pkg\"\nversion = \"1.0\"\nlicense = {text = '''" + DUAL_IN_ONE + "'''}\n"
    root = treegen.write_tree(tmp_path / "src", {"pyproject.toml": toml, "pkg/__init__.py": "X = 1\n"})
    with open_source(str(root)) as source:
        lic = read_source_licence(source)
    assert (lic.declared, lic.declared_from) == ("GPL-3.0-only OR LGPL-3.0-only", "pyproject.toml license.text")


@pytest.mark.parametrize(("opening", "named"), [
    # review147: "mit" inside a name, a version far from its family, licences written out
    ("Copyright 2020 Mitchell Quill. Dual licensed: the Apache License 2.0 or the BSD 2-Clause License.",
     {"Apache-2.0", "BSD-2-Clause"}),
    ("dual licensed under apache 2.0 or bsd 3-clause", {"Apache-2.0", "BSD-3-Clause"}),
    ("choose either the GNU General Public License version 3 or the Mozilla Public License 2.0",
     {"GPL-3.0-only", "MPL-2.0"}),
    ("choose either the GNU Lesser General Public License 3 or the MIT license", {"LGPL-3.0-only", "MIT"}),
])
def test_the_opening_names_a_licence_by_its_family_near_its_version(opening: str, named: set[str]) -> None:
    from lineage.licences.notices import _names_id, fold

    ids = ["Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "GPL-3.0-only", "LGPL-3.0-only", "MIT", "MPL-2.0"]
    assert {i for i in ids if _names_id(fold(opening), i)} == named
