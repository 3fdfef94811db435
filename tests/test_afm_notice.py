"""Adobe's AFM ReadMe (SPDX APAFML) read as a licence notice that asks modified files to say so."""

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
