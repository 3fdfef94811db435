"""The GNU notice naming its version before its publisher, as the Linux kernel's files do ("under
the terms of the GNU General Public License version 2 as published by the Free Software
Foundation", no "any later version"): it states that version alone, and read nothing before
round fix176, so such a file counted as stating no licence. The wordings are written here."""

from __future__ import annotations

import pytest

from lineage.licences.declared import SourceLicence
from lineage.licences.notices import fold, notice_ids
from lineage.match.params import MatchParams
from lineage.results.obligations import declared_or_later

_FREE = "# This program is free software; you can redistribute it and/or modify\n# it under the terms of the "


@pytest.mark.parametrize(("notice", "expected"), [
    ("GNU General Public License version 2 as\n# published by the Free Software Foundation.\n", "GPL-2.0-only"),
    ("GNU General Public License, version 2, as published by the Free Software Foundation.\n", "GPL-2.0-only"),
    ("GNU General Public License v2 as published by the Free Software Foundation.\n", "GPL-2.0-only"),
    ("GNU Lesser General Public License version 2.1 as published by\n# the Free Software Foundation.\n",
     "LGPL-2.1-only"),
    ("GNU Affero General Public License version 3 as published by the Free Software Foundation.\n",
     "AGPL-3.0-only"),
    # any later version granted before the publisher or after it
    ("GNU General Public License version 2 or (at your option) any later\n# version, as published by the Free "
     "Software Foundation.\n", "GPL-2.0-or-later"),
    ("GNU General Public License version 2 as published by the Free Software\n# Foundation; or (at your option) "
     "any later version.\n", "GPL-2.0-or-later"),
    ("GNU Lesser General Public License version 2.1 as published by the Free Software Foundation, or\n# (at your "
     "option) any later version.\n", "LGPL-2.1-or-later"),
    # the publisher before the version, as before
    ("GNU General Public License as published by\n# the Free Software Foundation; either version 2 of the "
     "License, or\n# (at your option) any later version.\n", "GPL-2.0-or-later"),
])
def test_a_gnu_notice_naming_its_version_first_states_that_version_or_a_later_one_when_granted(
        notice: str, expected: str) -> None:
    assert notice_ids(fold(_FREE + notice)) == (expected,)


def test_a_gnu_licence_named_with_its_version_but_no_publisher_is_no_such_notice() -> None:
    # a mention, not a grant: the rule needs "as published by the Free Software Foundation"
    assert notice_ids(fold("# unlike the GNU General Public License version 2, this one allows linking")) == ()


_SHARE = MatchParams().licence_or_later_min_share
_FROM_TEXT = SourceLicence(declared="GPL-2.0-only", declared_from="licence files: COPYING")


def test_files_stating_version_2_alone_keep_a_release_mixing_them_with_later_grants_only() -> None:
    """A release under the GPL-2.0 text whose files grant later versions, but one states version 2
    in the kernel's words: before round fix176 that file counted as silent (3 of 4 granting later
    versions made the release ``-or-later``); it now states ``-only``, so the notices disagree and
    the text's reading stands."""
    later = notice_ids(fold(_FREE + "GNU General Public License as published by the Free Software "
                                    "Foundation; either version 2 of the License, or (at your option) any "
                                    "later version.\n"))
    only = notice_ids(fold(_FREE + "GNU General Public License version 2 as published by the Free "
                                   "Software Foundation.\n"))
    assert later == ("GPL-2.0-or-later",) and only == ("GPL-2.0-only",)
    assert declared_or_later(_FROM_TEXT, [*later * 3, *only], _SHARE) is _FROM_TEXT
    # the file counted silent, as it was read before: the release was widened
    assert declared_or_later(_FROM_TEXT, [*later * 3, ""], _SHARE).declared == "GPL-2.0-or-later"
