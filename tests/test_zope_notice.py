"""The Zope Public License's 2.x file header read as a notice of that licence, and ZPL 2.x in the
compatibility table (an invented module under roman's header: docutils 0.21.2 keeps roman 4.2's
``roman.py`` with its header, and its licence notice read as missing)."""

from lineage.licences.compat import compatible
from lineage.licences.notices import notice_ids_in

_HEAD = '''##############################################################################
#
# Copyright (c) 2003 Example Numerals Authors.
# All Rights Reserved.
#
# This software is subject to the provisions of the Zope Public License,
# Version 2.1 (ZPL).  A copy of the ZPL should accompany this distribution.
# THIS SOFTWARE IS PROVIDED "AS IS" AND ANY AND ALL EXPRESS OR IMPLIED
# WARRANTIES ARE DISCLAIMED.
#
##############################################################################
"""Spell numbers in an invented numeral system."""

DIGITS = ("one", "two")
'''


def test_zope_header_is_a_notice_of_its_version() -> None:
    assert notice_ids_in(_HEAD) == ("ZPL-2.1",)
    assert notice_ids_in(_HEAD.replace("Version 2.1", "Version 2.0")) == ("ZPL-2.0",)


def test_zope_name_alone_is_no_notice() -> None:
    # a mention of the licence, not a file's subjection to it, nor a 1.x header (not in the table)
    assert notice_ids_in("# Unlike the Zope Public License, Version 2.1, this module asks nothing.\n") == ()
    assert notice_ids_in(_HEAD.replace("Version 2.1", "Version 1.1")) == ()


def test_zpl_2_is_permissive() -> None:
    # BSD-like and GPL-compatible: fits a permissive, weak or strong copyleft project
    for target in ("BSD-2-Clause AND LicenseRef-scancode-public-domain", "LGPL-2.1-or-later", "GPL-2.0-only"):
        assert compatible("ZPL-2.1", target).status == "ok"
        assert compatible("ZPL-2.0", target).status == "ok"
    assert compatible("ZPL-1.1", "MIT").status == "unknown"


# The ZPL 2.1 text's head and conditions, as a release's LICENSE.txt holds them (shortened).
_ZPL_TEXT = """Zope Public License (ZPL) Version 2.1

A copyright notice accompanies this license document that identifies the
copyright holders.

This license has been certified as open source. It has also been designated as
GPL compatible by the Free Software Foundation (FSF).

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions in source code must retain the accompanying copyright
notice, this list of conditions, and the following disclaimer.

3. Names of the copyright holders must not be used to endorse or promote
products derived from this software without prior written permission from the
copyright holders.
"""
_BSD_TEXT = """Copyright (c) 2020 Example Numerals Authors

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:
1. Redistributions of source code must retain the above copyright notice.
"""


def test_zpl_text_is_zpl_not_bsd() -> None:
    # its conditions are worded as BSD's grant: the ZPL's own, not a BSD licence beside it
    assert notice_ids_in(_ZPL_TEXT) == ("ZPL-2.1",)
    assert notice_ids_in(_ZPL_TEXT.replace("A copyright notice accompanies", "A notice goes with")) == ("BSD-2-Clause",)


def test_bsd_text_beside_zpl_text_keeps_both() -> None:
    assert notice_ids_in(_ZPL_TEXT + "\n" + _BSD_TEXT) == ("BSD-2-Clause", "ZPL-2.1")
