"""Tests for lineage.match.headers: the notice-line test and its cheap pre-filter."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from lineage.index import BLANK, CODE, COMMENT, DOCSTRING
from lineage.markers.prefilter import may_hold_marker
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
    """is_notice_line (pre-filter, then pattern or a copyright statement) says what the pattern
    and the statement test alone say."""
    text = before + phrase + after
    statement = "copyright" in text.casefold() and headers.is_holder_line(text)
    assert headers.is_notice_line(text) == (headers._NOTICE_RE.search(text) is not None or statement)


def test_notice_and_plain_lines() -> None:
    assert headers.is_notice_line("# Copyright (c) 2023, Tri Dao.")
    assert headers.is_notice_line("#     http://www.apache.org/licenses/LICENSE-2.0")
    assert not headers.is_notice_line("# compute the attention scores per head")
    # the ASF header's last line, wrapped alone: a notice line; the words inside prose are not
    assert headers.is_notice_line("#  under the License.")
    assert not headers.is_notice_line("# the loader runs under the License. check first")


_BSD3 = """# Copyright (c) 2023, Someone Else
# All rights reserved.
#
# Redistribution and use in source and binary forms, with or without
# modification, are permitted provided that the following conditions are
# met:
#
# * Redistributions of source code must retain the above copyright notice,
# this list of conditions and the following disclaimer.
# * Redistributions in binary form must reproduce the above copyright
# notice, this list of conditions and the following disclaimer in the
# documentation and/or other materials provided with the distribution.
# * The name of the author may not be used to endorse or promote products
# derived from this software without specific prior written permission.
#
# THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
# AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
# IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
# ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR CONTRIBUTORS BE
# LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR
# CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF
# SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
# INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN
# CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE)
# ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
# POSSIBILITY OF SUCH DAMAGE.
"""


def test_every_line_of_a_bsd_notice_is_a_header_line() -> None:
    """pypdf's ``_crypt_providers/_fallback.py`` opens with its own BSD-3 notice; PyPDF2's
    ``utils.py`` carries the same text under another holder. Half its lines ("modification, are
    permitted...", "met:", the disclaimer's middle) were no notice lines, so they were labelled
    copied between notice lines set apart: every line of the notice is one now."""
    import numpy as np

    from lineage.index import BLANK, CODE, COMMENT

    lines = _BSD3.splitlines() + ["", "def own():", "    return 1"]
    kinds = np.array([COMMENT] * 26 + [BLANK, CODE, CODE], np.uint8)
    rows = headers.header_rows(lines, kinds)
    assert rows[:26].all(), [lines[r] for r in range(26) if not rows[r]]
    assert not rows[26:].any()


def test_prose_between_notice_lines_of_one_block_only() -> None:
    """A comment after the notice's last line is the file's own prose, not the notice."""
    import numpy as np

    from lineage.index import COMMENT

    lines = ["# Copyright 2024 A", "# met:", "# Licensed under the Apache License", "#", "# Computes things."]
    rows = headers.header_rows(lines, np.full(5, COMMENT, np.uint8))
    assert rows.tolist() == [True, True, True, True, False]


def test_separators_count_only_when_joined_to_the_notice() -> None:
    """urllib3's securetransport.py quotes oscrypto's MIT notice at the end of its module
    docstring: the opening quotes 30 lines above are no part of it; a ``# ===`` rule right
    above a copyright line is."""
    import numpy as np

    from lineage.index import BLANK, COMMENT, DOCSTRING

    lines = ['"""', "Module text.", "", "More text.", "    Copyright (c) 2015 A", "",
             "    Permission is hereby granted, free of charge", '"""']
    rows = headers.header_rows(lines, np.full(len(lines), DOCSTRING, np.uint8))
    assert rows.tolist() == [False, False, False, False, True, True, True, True]
    lines = ["# ======", "# Copyright 2024 A", "#", "# Licensed under the Apache License", "# ======", "",
             "# own words", "# ---"]
    kinds = np.full(len(lines), COMMENT, np.uint8)
    kinds[5] = BLANK
    rows = headers.header_rows(lines, kinds)
    assert rows.tolist() == [True, True, True, True, True, False, False, False]


_MIT = """# Copyright (c) 2015 Someone
#
# Permission is hereby granted, free of charge, to any person obtaining a
# copy of this software and associated documentation files (the "Software"),
# to deal in the Software without restriction, including without limitation
# the rights to use, copy, modify, merge, publish, distribute, sublicense,
# and/or sell copies of the Software, and to permit persons to whom the
# Software is furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in
# all copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
# FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
# DEALINGS IN THE SOFTWARE.
"""


def test_every_line_of_an_mit_notice_is_a_header_line() -> None:
    import numpy as np

    from lineage.index import COMMENT

    lines = _MIT.splitlines()
    rows = headers.header_rows(lines, np.full(len(lines), COMMENT, np.uint8))
    assert rows.all(), [line for line, row in zip(lines, rows, strict=True) if not row]


def test_a_provenance_marker_between_notice_lines_stays_prose() -> None:
    """sglang's orion.py: "# Adapted from" and its URL sit between vLLM's SPDX lines and
    OrionStar's copyright line; as markers they name the file's origin and seed its matches."""
    import numpy as np

    from lineage.index import BLANK, COMMENT

    lines = ["# SPDX-License-Identifier: Apache-2.0", "", "# Adapted from",
             "# https://huggingface.co/Org/Model/blob/main/modeling_model.py", "# Copyright (c) Org Inc."]
    kinds = np.array([COMMENT, BLANK, COMMENT, COMMENT, COMMENT], np.uint8)
    assert headers.header_rows(lines, kinds).tolist() == [True, False, False, False, True]


def _header_rows_line_by_line(lines: list[str], kinds: np.ndarray) -> np.ndarray:
    """header_rows as it was before round speed30: is_notice_line on every prose line, then a
    walk over every block of prose lines."""
    n = len(kinds)
    out = np.zeros(n, bool)
    prose = (kinds == COMMENT) | (kinds == DOCSTRING)
    for row in np.flatnonzero(prose).tolist():
        if row < len(lines) and headers.is_notice_line(lines[row]):
            out[row] = True
    if not out.any():
        return out

    def separator(r: int) -> bool:
        return r < len(lines) and bool(headers._SEPARATOR_RE.match(lines[r]))

    row = 0
    while row < n:
        if not prose[row]:
            row += 1
            continue
        start = row
        while row < n and (prose[row] or not lines[row].strip() if row < len(lines) else False):
            row += 1
        notices = [r for r in range(start, row) if out[r]]
        for a, b in zip(notices, notices[1:], strict=False):
            words = [r for r in range(a + 1, b) if prose[r] and not separator(r)]
            if len(words) == 1 and not may_hold_marker(lines[words[0]]):
                out[words[0]] = True
        r = start
        while r < row:
            if not separator(r):
                r += 1
                continue
            end = r
            while end < row and separator(end):
                end += 1
            for joined in ([r - 1] if r > start else []) + ([end] if end < row else []):
                if out[joined]:  # separators of the notice line's own kind
                    out[r:end] |= prose[r:end] & (kinds[r:end] == kinds[joined])
            r = end
    return out


_BLOCK_LINES = ["# " + phrase for phrase in _PHRASES] + [
    "#", "# ====", "", "   ", "# met:", "# Adapted from https://github.com/o/r", "x = 1  # Copyright 2020 Foo",
    "# plain words here", "# ÉTÉ Straße COPYRIGHT ﬁ 2021", "# licensed under the MIT License", '"""', "'''"]


@given(st.lists(st.tuples(st.sampled_from(_BLOCK_LINES), st.sampled_from([BLANK, CODE, COMMENT, DOCSTRING])),
                max_size=30))
def test_header_rows_are_the_line_by_line_walk(rows: list[tuple[str, int]]) -> None:
    """The notice words searched on all prose lines at once and only the blocks holding a notice
    walked (round speed30) give the rows the line-by-line test and the walk of every block gave."""
    lines = [text for text, _ in rows]
    kinds = np.array([BLANK if not text.strip() else kind for text, kind in rows], np.uint8)
    assert headers.header_rows(lines, kinds).tolist() == _header_rows_line_by_line(lines, kinds).tolist()


_LGPL = """# Copyright (C) 2011  Ada Quill <ada@example.org>
#
# This file is part of quill.
#
# 'quill' is free software; you can redistribute it and/or modify it under the
# terms of the GNU Lesser General Public License as published by the Free
# Software Foundation; either version 2.1 of the License, or (at your option)
# any later version.
#
# 'quill' is distributed in the hope that it will be useful, but WITHOUT ANY
# WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR
# A PARTICULAR PURPOSE.  See the GNU Lesser General Public License for more
# details.
#
# You should have received a copy of the GNU Lesser General Public License
# along with 'quill'; if not, write to the Free Software Foundation, Inc.,
# 51 Franklin Street, Suite 500, Boston, MA  02110-1335  USA.
"""

_GPL3_TAIL = """# This program is free software: you can redistribute it and/or modify
# it under the terms of the GNU General Public License as published by
# the Free Software Foundation, either version 3 of the License, or
# (at your option) any later version.
#
# This program is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
# GNU General Public License for more details.
#
# You should have received a copy of the GNU General Public License
# along with this program.  If not, see <https://www.gnu.org/licenses/>.
"""


def test_every_line_of_a_gnu_notice_is_a_header_line() -> None:
    """ssh 1.8.0's files (copies of paramiko 1.7.7.1's) open with their own LGPL notice: 8 of its
    17 lines held no notice phrase ("... is free software; you can redistribute it ...", "any
    later version.", the FSF's address) and were labelled copied from paramiko's notice."""
    for text in (_LGPL, _GPL3_TAIL):
        lines = text.splitlines()
        rows = headers.header_rows(lines, np.full(len(lines), COMMENT, np.uint8))
        assert rows.all(), [line for line, row in zip(lines, rows, strict=True) if not row]
    assert not headers.is_notice_line("# redistribute the tokens across the ranks")
    assert not headers.is_notice_line("# a later version of the kernel")


def test_a_docstrings_opening_quotes_below_a_comment_notice_are_the_docstrings() -> None:
    """A separator line joins a notice of its own kind: the bare opening quotes of the module
    docstring, a blank line below a comment notice, are no line of that notice."""
    lines = ["# Copyright 2020 Ada Quill", "# Licensed under the MIT License.", "", '"""', "A module.", '"""']
    kinds = np.array([COMMENT, COMMENT, BLANK, DOCSTRING, DOCSTRING, DOCSTRING], np.uint8)
    assert headers.header_rows(lines, kinds).tolist() == [True, True, False, False, False, False]
    comments = np.array([COMMENT, COMMENT, BLANK, COMMENT, CODE, CODE], np.uint8)  # "#"-like separators join
    lines[3] = "# ===="
    assert headers.header_rows(lines, comments).tolist()[:4] == [True, True, False, True]


def test_a_holder_line_states_a_copyright_and_prose_naming_the_word_is_none() -> None:
    # statements: the word or sign with a year, a holder, a docstring field, SPDX, a credit, ASF
    for text in ("# Copyright (C) 2011  Ada Quill <ada@example.org>", "# This file is Copyright (c) 2010 Bo Reed",
                 ":copyright: (c) 2014 by Cy Lamb.", "# SPDX-FileCopyrightText: Copyright contributors to Dee",
                 "# (c) Eve Marsh and others, 2004-2014", "# Copyright The Fen Authors", "# © 2020 Gil Ward",
                 "# Made by / Copyright 2020 Hal Roe", "# Modifications Copyright 2023 Ivy Kent",
                 "# Licensed to Jot Labs B.V. under one or more contributor", '"""Copyright 2020 Kay Orr'):
        assert headers.is_holder_line(text), text
    # the word in a sentence or a licence clause names no holder
    for text in ("# Note: Despite the copyright notice, this was submitted by Lou Park.",
                 "# above copyright notice, this list of conditions and the following disclaimer.",
                 "# THE COPYRIGHT HOLDERS AND CONTRIBUTORS \"AS IS\"",
                 "# copyright notice and this permission notice appear in all copies."):
        assert not headers.is_holder_line(text), text


def test_the_copyright_word_makes_a_notice_line_as_a_statement_or_licence_text_not_prose_about_one() -> None:
    """Sphinx's conf.py template comments talk about a copyright notice and state none:
    mysqlclient 1.3.14's ``doc/conf.py`` (a copy of MySQL-python 1.2.5's) counted its two as
    licence header lines labelled copied. A statement, even without a year, and the word as
    licence texts use it stay notice lines."""
    for text in ("# If true, \"(C) Copyright ...\" is shown in the HTML footer. Default is True.",
                 "#html_show_copyright = True", "# Remove old copyright and add new one",
                 "# The embedded video is blocked due to copyright issues",
                 "Based heavily on the Ada writer.  See copyright below."):
        assert not headers.is_notice_line(text), text
    for text in ("# Copyright (c) Quill Corporation.", "# Copyright The Fen Authors", "# Copyright 2024 Ada Quill",
                 "# THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS",
                 "# 3. Neither the name of the copyright holder nor the names of its",
                 "# removed at the request of the copyright owner", "# carries the following copyright notice:",
                 "# NONINFRINGEMENT.  IN  NO  EVENT SHALL  THE  AUTHORS  OR COPYRIGHT",
                 "# Modified from the Ada code, original copyright:",
                 # licence texts' own wordings of the word that state no copyright themselves
                 "# regarding copyright ownership.  The ASF licenses this file",
                 "# This file is copyrighted by Ada Quill and released under the terms below.",
                 "# protected by copyright law and other applicable laws"):
        assert headers.is_notice_line(text), text
    conf = ["# Copyright 2012 Ada Quill", "# Licensed under the MIT License.", "", "extensions = []", "",
            "# If true, \"Created using Sphinx\" is shown in the HTML footer. Default is True.",
            "#html_show_sphinx = True", "",
            "# If true, \"(C) Copyright ...\" is shown in the HTML footer. Default is True.",
            "#html_show_copyright = True", ""]
    kinds = np.array([BLANK if not line else CODE if line[0] != "#" else COMMENT for line in conf], np.uint8)
    assert np.flatnonzero(headers.header_rows(conf, kinds)).tolist() == [0, 1]


def test_a_qualified_statement_and_a_licence_named_before_its_word_are_notice_lines() -> None:
    """Round fix175 (review174's Left): a statement after a word saying which of a work's statements
    it is ("Original Copyright Ada Quill") names its holder as "Copyright Ada Quill" does, and a
    licence named before the word ("made available under the BSD License") is licence text as
    "under the MIT License" is. Prose that mentions the same words stays none."""
    for text in ("# Original Copyright Ada Quill", "# Additional Copyright (C) Fen Works",
                 "# The copyright in this software is being made available under the BSD License",
                 "# This module is released under the ISC license, included below."):
        assert headers.is_notice_line(text), text
    assert headers.is_holder_line("# Original Copyright Ada Quill")
    assert not headers.is_holder_line("# The copyright in this software is being made available under the BSD License")
    for text in ("# keep the original copyright header below", "# Original copyright and licence follow",
                 "# Remove old copyright and add new one", "# original: copyright checks run in CI",
                 "# Update the copyright year"):
        assert not headers.is_notice_line(text), text
        assert not headers.is_holder_line(text), text


def test_a_licence_named_before_its_word_is_read_as_a_word_only() -> None:
    """Round review176: the name before "license" is read as a word, not as the last letters of
    one ("misc", "submit", "commit", "permit" end in ``isc`` or ``mit``): such comments name no
    licence and are no notice; the licence named as a word still is."""
    for text in ("# misc license checks run in CI", "# submit license keys to the server first",
                 "# commit license headers with the release script", "# permit license renewals by mail"):
        assert not headers.is_notice_line(text), text
    for text in ("# Released under the MIT license.", "# This module is released under the ISC license.",
                 "# Distributed under the (new) BSD license", "# available under the MPL license"):
        assert headers.is_notice_line(text), text


def test_a_licence_named_after_its_word_is_read_as_a_whole_word_only() -> None:
    """Round fix176: the name after "license" is read as a whole word too, not as the first
    letters of one ("mitigates" begins with ``mit``): such prose names no licence and is no
    notice; the notices that name one still are."""
    for text in ("# this license check mitigates X", "# the licenses checker runs nightly",
                 "# a license flag for mitigation and bsdiff patches"):
        assert not headers.is_notice_line(text), text
    for text in ("# Licensed under the Apache License, Version 2.0", "# MIT License",
                 "# SPDX-License-Identifier: MIT", "# Released under the MIT license.",
                 "# under the terms of the BSD license", "# License: GPLv3", "# license: MIT",
                 ":license: Apache2, see LICENSE for more details.",
                 "# This library is licensed MIT"):
        assert headers.is_notice_line(text), text
