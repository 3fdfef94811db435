"""A copyright year range may end in "present": part of the years, not of the holder's name
(starlite 1.51.16's ``multipart.py``, "Copyright (c) 2016-present Sanic Community", named the
third party "present Sanic Community")."""

from __future__ import annotations

import pytest

from lineage.match.holders import holder


@pytest.mark.parametrize(("line", "name"), [
    ("Copyright (c) 2016-present Quillwort Community", "Quillwort Community"),
    ("Copyright 2020 – present the Sedge Inc. team.", "the Sedge Inc. team"),
    ("Copyright (c) Present Brambles 2019", "Present Brambles 2019"),  # a name that begins so stays
    ("Copyright (c) 2024, Quill Dao.", "Quill Dao"),
    # a slash after the years (Neural Magic's "2021 - present / Neuralmagic, Inc.")
    ("Copyright (c) 2021 - present / Quillmagic, Inc. All Rights Reserved.", "Quillmagic, Inc"),
    ("Copyright 2019/2020 Quill Dao", "Quill Dao"),
])
def test_present_ends_a_year_range(line: str, name: str) -> None:
    assert holder(line) == name
