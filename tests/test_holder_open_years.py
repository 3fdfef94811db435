"""An open year range ("2022-present") is years, not part of a copyright line's holder:
huggingface-hub 0.26.2's "Copyright 2022-present, the HuggingFace Inc. team." had the holder
"present, the HuggingFace Inc. team", of no organisation, so its own code moved from
transformers was not seen as one organisation's."""

from __future__ import annotations

import pytest

from lineage.licences.notices import organisation
from lineage.match.holders import holder, holder_key


@pytest.mark.parametrize(("line", "expected"), [
    ("Copyright 2022-present, the Quill Inc. team.", "the Quill Inc. team"),
    ("Copyright (c) 2015-present Sedgewick", "Sedgewick"),
    ("SPDX-FileCopyrightText: Copyright 2025-present the Fernkit developers", "the Fernkit developers"),
    ("Copyright 2021 \u2013 present Orchid Labs", "Orchid Labs"),
    ("Copyright 2020 Present Labs", "Present Labs"),  # a name that begins with the word stays
])
def test_open_year_range_is_no_part_of_the_holder(line: str, expected: str) -> None:
    assert holder(line) == expected


def test_open_and_closed_ranges_name_one_organisation() -> None:
    keys = {organisation(holder_key(holder(line))) for line in (
        "Copyright 2022-present, the Quill Inc. team.", "Copyright 2020 The Quill Team. All rights reserved.")}
    assert keys == {"quill"}
