"""BSD's nicknames name one licence each: the "New", "Modified" or "Revised" BSD License is
BSD-3-Clause (OSI; SPDX's 'BSD 3-Clause "New" or "Revised" License'), the "Simplified" one
BSD-2-Clause; "the BSD License" alone still names none."""

from lineage.licences.expressions import named_licence
from lineage.licences.notices import source_notice_ids


def test_modified_bsd_notice_is_bsd_3_clause() -> None:
    head = "# Copyright (c) Quillwort Development Team.\n# Distributed under the terms of the Modified BSD License.\n"
    assert source_notice_ids(head) == ("BSD-3-Clause",)


def test_nicknames_in_words() -> None:
    assert named_licence("New BSD License") == "BSD-3-Clause"
    assert named_licence("revised BSD") == "BSD-3-Clause"
    assert named_licence("Simplified BSD License") == "BSD-2-Clause"


def test_bare_family_names_none() -> None:
    head = "# Distributed under the terms of the BSD License.  The full license is in\n# the file COPYING.\n"
    assert source_notice_ids(head) == ()
    assert named_licence("BSD") == ""
    assert named_licence("new MIT") == ""
