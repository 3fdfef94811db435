"""A licence file whose project's own licence is followed, under a heading of its own, by the
licences of software it incorporates (Sphinx 1.8.5's LICENSE: "License for Sphinx", its team's
BSD-2-Clause, then "Licenses for incorporated software": smartypants', jQuery's, Underscore's):
the release's licence and holders are the part before the heading."""

from __future__ import annotations

import pytest

from lineage.licences.licence_file import read_licence_file, without_incorporated_licences

_OWN = ("License for Quillwort\n=====================\n\n"
        "Copyright (c) 2031-2033 by the Quillwort team (see AUTHORS file).\nAll rights reserved.\n\n"
        "Redistribution and use in source and binary forms, with or without\nmodification, are permitted "
        "provided that the following conditions are\nmet:\n\n"
        "* Redistributions of source code must retain the above copyright\n  notice, this list of conditions "
        "and the following disclaimer.\n\n"
        "* Redistributions in binary form must reproduce the above copyright\n  notice, this list of conditions "
        "and the following disclaimer in the\n  documentation and/or other materials provided with the "
        "distribution.\n\n"
        "THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS\n\"AS IS\" AND ANY EXPRESS OR "
        "IMPLIED WARRANTIES ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT\nHOLDER OR CONTRIBUTORS BE LIABLE "
        "FOR ANY DAMAGES, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.\n\n\n")
_INCLUDED = ("The included Sedgejs JavaScript library is available under the MIT\nlicense:\n\n"
             "----\nCopyright (c) 2030 Fern Gatherer, https://sedgejs.invalid/\n\n"
             "Permission is hereby granted, free of charge, to any person obtaining a copy\nof this software ...\n"
             "The above copyright notice and this permission notice shall be included in\nall copies or "
             "substantial portions of the Software.\n")


@pytest.mark.parametrize("heading", [
    "Licenses for incorporated software\n==================================\n\n",
    "LICENSES OF INCLUDED SOFTWARE:\n\n",
    "## Licences for third-party code\n\n",
])
def test_the_part_under_an_incorporated_software_heading_is_not_the_releases(heading: str) -> None:
    facts = read_licence_file("quillwort-1.0.dist-info/LICENSE", (_OWN + heading + _INCLUDED).encode())
    assert facts.expression == "BSD-2-Clause"
    assert facts.copyrights == ("Copyright (c) 2031-2033 by the Quillwort team (see AUTHORS file).",)
    # the included code's holder is still a line the file keeps, not the release's holder
    assert "Copyright (c) 2030 Fern Gatherer, https://sedgejs.invalid/" in facts.retained_copyrights


def test_without_the_heading_both_licences_are_read() -> None:
    assert read_licence_file("quillwort-1.0.dist-info/LICENSE",
                             (_OWN + _INCLUDED).encode()).expression == "BSD-2-Clause AND MIT"


@pytest.mark.parametrize("text", [
    # no own notice before the heading: the file is the included code's licences alone
    "Licenses for incorporated software\n----\n\n" + _INCLUDED,
    # no holder after it: prose, not other software's licences
    _OWN + "Licenses for incorporated software\n\nNone at present.\n",
    # the words inside a sentence, not a heading
    _OWN + "See the licenses for incorporated software below.\n" + _INCLUDED,
])
def test_the_text_stays_whole_otherwise(text: str) -> None:
    assert without_incorporated_licences(text) == text
