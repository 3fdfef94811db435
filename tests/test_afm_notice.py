"""Adobe's font-data licences read as notices: the AFM ReadMe (SPDX APAFML), which asks modified files
to say so, and the Glyph List's (SPDX Adobe-Glyph), which opens with MIT's grant but is not MIT."""

from lineage.licences.compat import pair
from lineage.licences.notices import notice_ids_in
from lineage.results.obligations import terms

# An invented module holding font metrics under the ReadMe's grant, as a metrics table's head does.
_HEAD = '''"""Widths of the core fonts, extracted from the AFM files."""

# This file and the 14 PostScript(R) AFM files it accompanies may be
# used, copied, and distributed for any purpose and without charge,
# with or without modification, provided that all copyright notices
# are retained; that the AFM files are not distributed without this
# file; that all modifications to this file or any of the AFM files
# are prominently noted in the modified file(s); and that this
# paragraph is not modified.

WIDTHS = {"Plain": 600}
'''


def test_afm_readme_is_apafml() -> None:
    assert notice_ids_in(_HEAD) == ("APAFML",)


def test_grant_without_its_condition_is_no_notice() -> None:
    # a shortened copy that drops the condition does not show the licence's terms
    grant_only = "# This file and the 14 PostScript(R) AFM files it accompanies may be used, copied, and\n" \
                 "# distributed for any purpose and without charge.\n"
    assert notice_ids_in(grant_only) == ()


def test_apafml_asks_modification_notice_and_is_permissive() -> None:
    assert terms("APAFML", False) == ["copyright", "licence-notice", "modification-notice"]
    assert pair("APAFML", "MIT").status == "ok"
    assert pair("MIT", "APAFML").status == "ok"


# The Adobe Glyph List's licence opens with MIT's grant words, for a document it forbids altering.
_GLYPH_HEAD = """# Copyright (c) 1997 Example Type Foundry
#
# Permission is hereby granted, free of charge, to any person obtaining a
# copy of this documentation file to use, copy, publish, distribute,
# sublicense, and/or sell copies of the documentation, and to permit
# others to do the same, provided that:
# - No modification, editing or other alteration of this document is
# allowed; and
# - The above copyright notice and this permission notice shall be
# included in all copies of the documentation.
GLYPHS = {"alpha": "\\u03b1"}
"""
_MIT_HEAD = """# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction. The above copyright notice and this
# permission notice shall be included in all copies or substantial portions of the Software.
"""


def test_glyph_list_licence_is_not_mit() -> None:
    assert notice_ids_in(_GLYPH_HEAD) == ("Adobe-Glyph",)
    assert pair("Adobe-Glyph", "MIT").status == "ok"


def test_mit_beside_glyph_list_licence_keeps_both() -> None:
    assert notice_ids_in(_GLYPH_HEAD + _MIT_HEAD) == ("Adobe-Glyph", "MIT")
    assert notice_ids_in(_MIT_HEAD) == ("MIT",)
