"""Tests for lineage.match.headers: the notice-line test and its cheap pre-filter."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from lineage.match import headers


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a regular expression (split at ``|`` outside groups)."""
    parts, depth, current = [], 0, ""
    for ch in pattern:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "|" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [*parts, current]


def test_every_alternative_of_the_notice_pattern_holds_a_prefilter_word() -> None:
    """The pre-filter may only say no where the pattern cannot match: each alternative's literal
    text holds one of the words (a new alternative without one fails here)."""
    for alternative in _alternatives(headers._NOTICE_RE.pattern):
        literal = re.sub(r"\\(.)", r"\1", alternative)
        assert any(word in literal for word in headers._NOTICE_WORDS), alternative


_PHRASES = ["SPDX-License-Identifier: Apache-2.0", "Copyright 2024 The Authors", "(c) 2021 Foo",
            "ALL RIGHTS RESERVED", "Licensed under the Apache License", "GNU General Public License",
            "you may not use this file", "WITHOUT WARRANTIES OR CONDITIONS", "Permission is hereby granted",
            "MERCHANTABILITY", "IN NO EVENT SHALL", "Free Software Foundation", "under the terms of the"]


@given(st.text(max_size=40), st.sampled_from(["", *_PHRASES]), st.text(max_size=40))
def test_the_prefilter_never_changes_the_answer(before: str, phrase: str, after: str) -> None:
    """is_notice_line (pre-filter, then pattern) says what the pattern alone says."""
    text = before + phrase + after
    assert headers.is_notice_line(text) == (headers._NOTICE_RE.search(text) is not None)


def test_notice_and_plain_lines() -> None:
    assert headers.is_notice_line("# Copyright (c) 2023, Tri Dao.")
    assert headers.is_notice_line("#     http://www.apache.org/licenses/LICENSE-2.0")
    assert not headers.is_notice_line("# compute the attention scores per head")
