"""Licence and copyright header lines: shared by many projects, so never evidence of copying.

A *header line* is a comment or docstring line of a licence or copyright notice: an SPDX tag, a
copyright line (the ASF form "Licensed to HOLDER under one or more contributor license
agreements" included), or a line of a licence notice text (Apache-2.0, MIT, BSD, GPL boilerplate). A
notice's separator lines (``#``, ``# ====``) count when they sit inside a block of comment lines
that holds a notice line, and so does every prose line between two notice lines of one block (a
licence clause none of the notice phrases names: BSD's "met:") that could not hold a provenance
marker (:func:`lineage.markers.prefilter.may_hold_marker`: "Adapted from" and its URL stay). Such
lines never seed a match (:func:`lineage.match.hits.find_hits` does not see them); they are
labelled copied only together with copied code of the same upstream file (:mod:`lineage.match.gate`).
"""

from __future__ import annotations

import re

import numpy as np

from lineage.index import COMMENT, DOCSTRING
from lineage.markers.attribution import SPDX_COPYRIGHT_RE, credited_copyright, field_statement, is_copyright
from lineage.markers.prefilter import may_hold_marker, word_offsets

# Words and phrases that only licence and copyright notices use. Matched case-insensitively on
# the text of one comment or docstring line.
_NOTICE_RE = re.compile(
    r"spdx-|©|\(c\)\s*(?:19|20)\d\d|all rights reserved|licen[cs]ed? under|"
    # the copyright word as licence texts use it (a copyright statement is read apart, by
    # is_holder_line): "the copyright holders", "the copyright owner", "the above copyright
    # notice", the ASF header's "regarding copyright ownership.", "protected by copyright law",
    # "is copyrighted by", and the word ending a wrapped line ("... AUTHORS OR COPYRIGHT" /
    # "HOLDERS BE LIABLE")
    r"copyright\s+(?:holders?|owners?|ownership|notices?|laws?)\b|copyrighted\b|copyright\W*$|"
    # a licence named after the word ("License, Version 2.0", "licensed MIT", "license: GPLv3",
    # requests' ":license: Apache2") or before it ("under the BSD License"), each as a whole
    # word: "misc license checks", "submit license keys" and "commit license headers" end in a
    # licence's letters, "this license check mitigates" begins with them, and none names one
    r"licen[cs]e(?:d)?\b.*\b(?:version|mit|bsd|(?:apache|gpl)v?\d?)\b|"
    r"\b(?:apache|mit|bsd|isc|[al]?gpl|mpl) licen[cs]e|"
    r"gnu (?:lesser |library |affero )?general public|you may not use this file|"
    r"obtain a copy of the licen[cs]e|www\.apache\.org/licenses|opensource\.org/licenses|"
    r"unless required by applicable law|agreed to in writing|distributed under the licen[cs]e|"
    r"\"as is\" basis|without warranties or conditions|express or implied|"
    r"governing permissions|limitations under the licen[cs]e|^\W*under the licen[cs]e\.\W*$|"
    r"permission is hereby granted|"
    r"above copyright notice|this permission notice|the software is provided|"
    r"redistribution and use in source|redistributions (?:of source|in binary)|"
    r"without specific prior written permission|merchantability|fitness for a particular purpose|"
    r"in no event shall|liable for any claim|free software foundation|"
    r"see the licen[cs]e for|licen[cs]e file|under the terms of the|"
    # BSD and MIT clauses that hold none of the phrases above
    r"provided that the following conditions|conditions and the following disclaimer|"
    r"materials provided with the distribution|endorse or promote products|"
    r"indirect, incidental|consequential damages|substitute goods or services|theory of liability|"
    r"strict liability|out of the use of this software|possibility of such damage|"
    r"tort or otherwise|in connection with the software|dealings in the software|"
    r"associated documentation files|deal in the software|without restriction|sublicense|"
    r"permit persons to whom|furnished to do so|substantial portions of the software|"
    # the GNU notices' lines (GPL, LGPL, AGPL: "is free software; you can redistribute it ...",
    # "(at your option) any later version.", "distributed in the hope that it will be useful, but
    # WITHOUT ANY WARRANTY", the FSF's postal addresses, "If not, see <https://www.gnu.org/licenses/>")
    # that hold none of the phrases above: ssh 1.8.0's files, copies of paramiko's, carry their own
    # LGPL notice, and 8 of its 17 lines were read as prose and labelled copied from paramiko's
    r"you can redistribute it|any later version|in the hope that it will be useful|without any warranty|"
    r"franklin st(?:reet)?\b|temple place|gnu\.org/licen[cs]es|"
    # the ASF header's own lines (its holder line: lineage.markers.attribution.notice_holder)
    r"licensed to .+ under one|contributor licen[cs]e agreements|see the notice file|distributed with this work|"
    r"licen[cs]es this file to you",
    re.IGNORECASE,
)
# A notice line that names a holder: whose notice the header is. A copyright statement as the
# marker reader reads one (:func:`lineage.markers.attribution.is_copyright`: "Copyright (C) 2011
# Jeff Forcier", "(c) Holger Krekel and others, 2004-2014", a docstring's ":copyright:" field), an
# SPDX-FileCopyrightText line, a credit's copyright ("Hacked together by / Copyright 2020 Ross
# Wightman"), or the copyright word or sign before a year anywhere on the line ("This file is
# Copyright (c) 2010 Bo Reed"). Not the word in prose: ssh 1.8.0's ``setup_helper.py`` (a copy of
# paramiko's) says "# Note: Despite the copyright notice, this was submitted by John Arbash
# Meinel." below its own notice, and that copied line read as a holder line made the file's own
# LGPL notice (its copyright line Jeff Forcier's, paramiko's Robey Pointer's) count as copied, 10
# lines, where the 57 other files' same notices were the target's own.
_HOLDER_YEAR_RE = re.compile(r"(?:copyright|©|\(c\))(?:\s*(?:©|\(c\)))?\s*[:,]?\s*(?:19|20)\d\d", re.IGNORECASE)
_SEPARATOR_RE = re.compile(r"^[\s#\"'*=\-_~/]*$")


# One of these (case-folded) is in every text _NOTICE_RE matches, one word or phrase for each of
# its alternatives: a line holding none is no notice line, and is told so without the regex (a
# case-insensitive search of the whole pattern is the slow part of reading headers).
_NOTICE_WORDS = ("spdx", "copyright", "©", "(c)", "rights", "licen", "general public", "you may not use",
                 "applicable law", "agreed to in writing", "as is", "warranties", "express or implied",
                 "permission", "software is provided", "redistribution", "merchantability", "fitness",
                 "in no event", "liable", "free software", "under the terms of", "conditions",
                 "materials provided", "endorse", "incidental", "damage", "substitute goods", "liability",
                 "use of this software", "tort or otherwise", "with the software", "dealings in",
                 "documentation files", "deal in the software", "without restriction", "sublicense",
                 "persons to whom", "furnished", "substantial portions", "notice file",
                 "with this work", "you can redistribute", "later version", "in the hope that", "without any warranty",
                 "franklin st", "temple place")


def is_notice_line(text: str) -> bool:
    """Whether one line's text is part of a licence or copyright notice."""
    folded = text.casefold()
    if not any(word in folded for word in _NOTICE_WORDS):
        return False
    return _notice_text(text, folded)


def _notice_text(text: str, folded: str) -> bool:
    """:func:`is_notice_line` past its pre-filter (``folded``: ``text`` case-folded)."""
    return _NOTICE_RE.search(text) is not None or _states_copyright(text, folded)


def _states_copyright(text: str, folded: str) -> bool:
    """Whether a line the notice phrases miss holds the copyright word as a statement of one
    (:func:`is_holder_line`: "Copyright 2023 The vLLM team", "Copyright (c) Microsoft
    Corporation"), not as prose about one: Sphinx's conf.py template says ``# If true, "(C)
    Copyright ..." is shown in the HTML footer.`` above ``#html_show_copyright = True``, and
    mysqlclient 1.3.14's copy of MySQL-python's counted both as licence header lines; so did a
    code comment's "Remove old copyright and add new one"."""
    return "copyright" in folded and is_holder_line(text)


def _notice_rows(lines: list[str], rows: list[int]) -> list[int]:
    """The rows among ``rows`` whose line :func:`is_notice_line` holds: the notice words looked
    for in all of those lines at once (joined, case-folded once), the regex read only on lines
    holding one. A word holds no line break, so no find spans two lines."""
    if not rows:
        return []
    texts = [lines[row] for row in rows]
    folded = [text.casefold() for text in texts]
    lengths = np.fromiter(map(len, folded), np.int64, len(folded))
    starts = np.cumsum(lengths + 1) - lengths - 1
    offsets = word_offsets("\n".join(folded), _NOTICE_WORDS)
    if not offsets:
        return []
    found = np.unique(np.searchsorted(starts, offsets, "right") - 1).tolist()
    return [rows[k] for k in found if _notice_text(texts[k], folded[k])]


def is_holder_line(text: str) -> bool:
    """Whether a notice line names a copyright holder (a copyright or SPDX-FileCopyrightText line,
    or the ASF form's "Licensed to HOLDER under one ...")."""
    # a qualifying word before the statement ("Original Copyright Ada Quill") is read by
    # is_copyright (lineage.markers.attribution.QUALIFIER_WORDS), as the marker reader reads it
    statement = text.strip().lstrip("#*\"'/ \t")
    return bool(_HOLDER_YEAR_RE.search(text) or SPDX_COPYRIGHT_RE.search(text)
                or is_copyright(field_statement(statement, any_case=True)) or credited_copyright(statement))


def header_rows(lines: list[str], kinds: np.ndarray) -> np.ndarray:
    """Per physical row: True on licence and copyright header lines (see the module docstring)."""
    n = len(kinds)
    out = np.zeros(n, bool)
    prose = (kinds == COMMENT) | (kinds == DOCSTRING)
    candidates = np.flatnonzero(prose[: len(lines)]).tolist()
    out[_notice_rows(lines, candidates)] = True
    if not out.any():
        return out
    # Within a block of prose lines (blank lines do not end it) that holds a notice line: one lone
    # line of words between two notice lines (separators aside) is a clause of the notice (BSD's
    # "met:"); longer prose there is the file's own (vLLM's llama.py: "This code is based on
    # EleutherAI's GPT-NeoX library ..." between its copyright and licence lines), and so is a
    # line that may name where code came from ("# Adapted from" and its URL between vLLM's SPDX
    # lines and OrionStar's copyright line in orion.py). Then a separator line counts when only
    # separators or blank lines stand between it and a notice line (``# ====`` above a copyright
    # line; not the docstring's opening quotes far above a licence quoted at its end, urllib3's
    # securetransport.py).
    def separator(r: int) -> bool:
        return r < len(lines) and bool(_SEPARATOR_RE.match(lines[r]))

    def joins(r: int) -> bool:  # a row a block runs on through: prose or blank
        return r < len(lines) and bool(prose[r] or not lines[r].strip())

    # Only the blocks that hold a notice line, found from their notice lines (a block without
    # one changes nothing): from the run of joining rows around it, less its leading blank lines.
    blocks: list[tuple[int, int]] = []
    for notice in np.flatnonzero(out).tolist():
        if blocks and notice < blocks[-1][1]:
            continue
        start = notice
        while start > 0 and joins(start - 1):
            start -= 1
        while not prose[start]:
            start += 1
        row = notice + 1
        while row < n and joins(row):
            row += 1
        blocks.append((start, row))
    for start, row in blocks:
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
            # of the notice's own kind: a module docstring's bare opening quotes below a comment
            # notice and a blank line are the docstring's (ssh's files, whose LGPL comment notice
            # ends on its address line, then a blank line, then the docstring's opening quotes)
            if r > start and out[r - 1]:
                out[r:end] |= prose[r:end] & (kinds[r:end] == kinds[r - 1])
            if end < row and out[end]:
                out[r:end] |= prose[r:end] & (kinds[r:end] == kinds[end])
            r = end
    return out
