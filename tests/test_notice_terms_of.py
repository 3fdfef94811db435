"""The Apache header's "licensed under the terms of the Apache License, Version 2.0" is a notice;
a dual-licence statement naming it is not read as Apache-2.0 alone (packaging's heads)."""

from lineage.licences.notices import source_notice_ids


def test_terms_of_the_apache_licence_is_a_notice() -> None:
    head = "# Copyright 2021 Quillwort Labs\n# Licensed under the terms of the Apache License, Version 2.0\n"
    assert source_notice_ids(head) == ("Apache-2.0",)


def test_appendix_header_still_read() -> None:
    head = '# Licensed under the Apache License, Version 2.0 (the "License");\n'
    assert source_notice_ids(head) == ("Apache-2.0",)


def test_dual_licence_statement_is_not_apache_alone() -> None:
    head = ("# This file is dual licensed under the terms of the Apache License, Version\n"
            "# 2.0, and the BSD License. See the LICENSE file in the root of this repository\n"
            "# for complete details.\n")
    assert source_notice_ids(head) == ()
