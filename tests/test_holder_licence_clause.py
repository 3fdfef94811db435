"""A copyright line's holder ends before a clause saying under which licence the code is released
("Copyright 2009 Bramble Quill, released under the MIT License."): the clause is no part of the
holder, so a copy keeping the bare line keeps the holder, and the two lines are one credit.

Names and lines here are invented for the test."""

from __future__ import annotations

import pytest

from lineage.licences.notices import distinct_copyrights, holder, keeps_holders


@pytest.mark.parametrize(("line", "name"), [
    ("Copyright 2009 Bramble Quill, released under the MIT License.", "bramble quill"),
    ("# Copyright (c) 2010 Juniper Roe, licensed under the BSD license", "juniper roe"),
    ("Copyright 2012 Quillworks. It is licensed under a BSD license.", "quillworks"),
    ("Copyright 2012 Quillworks - Licensed under the Apache License, Version 2.0", "quillworks"),
    ("Copyright 2014 Quillworks, made available under the ISC licence", "quillworks"),
    # as before: a plain line, a name holding such words without "under", an ASF-style line
    ("Copyright 2009 Bramble Quill", "bramble quill"),
    ("Copyright (c) 2020 Released Goods Ltd", "released goods ltd"),
    ("Licensed to Quillworks B.V. under one or more contributor license agreements", "quillworks b.v"),
    # review143: a dash of any length before the clause; a name that is all clause is kept whole
    ("Copyright 2009 Bramble Quill -- released under MIT", "bramble quill"),
    ("Copyright 2009 Bramble Quill \u2014 released under MIT", "bramble quill"),
    ("Copyright (c) 2012, Made Available Under Co", "made available under co"),
    # review147: a clause naming a licence leaves no holder; an em dash without spaces cuts too
    ("Copyright (c) 2020, released under the MIT license", ""),
    ("Copyright 2009 Bramble Quill\u2014released under MIT", "bramble quill"),
])
def test_the_holder_ends_before_the_licence_clause(line: str, name: str) -> None:
    assert holder(line) == name


def test_a_copy_keeping_the_bare_line_keeps_the_holder() -> None:
    upstream = ["Copyright 2009 Bramble Quill, released under the MIT License."]
    assert keeps_holders(upstream, ["# Copyright 2009 Bramble Quill"])
    assert not keeps_holders(upstream, ["# Copyright 2009 Juniper Roe"])
    # one statement, credited once, as first written
    assert distinct_copyrights([*upstream, "Copyright 2009 Bramble Quill"]) == tuple(upstream)
