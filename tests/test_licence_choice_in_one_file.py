"""A licence file that holds several licence texts and opens by offering a choice between them
("You may choose either license.") announces that choice (``A OR B``), not all of them.

The texts here are written for the test (GNU titles with our own filler), never a package's own files."""

from __future__ import annotations

from pathlib import Path

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
