"""A licence text's own template lines name no holder: Apache's "Copyright [yyyy] [name of
copyright owner]" and the GNU licences' "How to Apply" lines ("Copyright (C) 19yy <name of
author>" in the GPL-2.0 text fuzzywuzzy 0.18.0 and thefuzz 0.19.0 ship, which made "19yy name of
author" the holder of all six of thefuzz's obligation rows)."""

from __future__ import annotations

import pytest

from lineage.licences.licence_file import read_licence_file
from lineage.licences.notices import holders, is_template

_GPL_TAIL = ("    <one line to give the program's name and a brief idea of what it does.>\n"
             "    Copyright (C) 19yy  <name of author>\n\n"
             "    Gnomovision version 69, Copyright (C) year name of author\n")


@pytest.mark.parametrize("line", ["Copyright [yyyy] [name of copyright owner]", "Copyright (C) 19yy  <name of author>",
                                  "Copyright (C) <year>  <name of author>",
                                  "Gnomovision version 69, Copyright (C) year name of author",
                                  "Copyright (C) yyyy name of author"])
def test_template_lines_are_no_holders(line: str) -> None:
    assert is_template(line) and holders([line]) == ()


@pytest.mark.parametrize("line", ["Copyright (C) 2011 Adam Quill", "Copyright 1999 the Yyyyz authors"])
def test_real_lines_are_holders(line: str) -> None:
    assert not is_template(line) and holders([line])


def test_a_gpl_text_names_no_holder() -> None:
    text = "GNU GENERAL PUBLIC LICENSE\nVersion 2, June 1991\n\n" + _GPL_TAIL
    assert read_licence_file("LICENSE.txt", text.encode()).copyrights == ()
