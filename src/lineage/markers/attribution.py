"""SPDX licence identifiers and copyright lines: the attribution kinds of marker.

A copyright line is also the Apache Software Foundation's form of source header, "Licensed to
HOLDER under one or more contributor license agreements" (elasticsearch's "Licensed to
Elasticsearch B.V. under one ..."): ASF policy puts that line in a source file in place of a
"Copyright HOLDER" line (the copyright statement itself goes to the NOTICE file), so it names the
file's holder as one does, and every reader of holders (a file's origin, the obligations, a
marker naming an upstream) takes it as a copyright line (:func:`notice_holder`).

Attribution markers say who holds the code and under which licence, not where it came from;
:data:`ATTRIBUTION_KINDS` is the one place that tells them from provenance markers.
"""

from __future__ import annotations

import re
import unicodedata

from lineage.markers.record import Marker
from lineage.markers.vocabulary import has_proper_noun

# Markers that state a licence or a holder rather than a source. Every caller that separates
# the two (the marker picked for a file, ``lineage markers`` without ``--all``) asks this.
ATTRIBUTION_KINDS: frozenset[str] = frozenset({"spdx", "copyright"})


def is_attribution(marker: Marker) -> bool:
    """Whether ``marker`` is an SPDX or copyright line rather than a provenance note."""
    return marker.kind in ATTRIBUTION_KINDS


SPDX_LICENCE_RE = re.compile(r"\bSPDX-License-Identifier\s*:\s*(?P<expr>\S.*)$", re.IGNORECASE)
SPDX_COPYRIGHT_RE = re.compile(r"\bSPDX-FileCopyrightText\s*:\s*\S", re.IGNORECASE)
# Words before either form saying the statement's holder holds part of the work: "Portions
# Copyright 2009 Robert Kern", the sign form IPython's lib/pretty.py docstring uses, "Portions (c)
# 2009 by Robert Kern", and the LICENSE PyPDF2 1.26.0 and pypdf 3.17.4 both ship, "Some
# contributions copyright (c) 2007, Ashish Kulkarni <...>" / "Some contributions copyright (c)
# 2014, Steve Witham <...>": read as prose, those two holders were in neither release's licence
# files, so pypdf's ``generic/_data_structures.py`` read as missing Kulkarni's copyright for code
# of PyPDF2's ``pdf.py``, which pypdf's LICENSE keeps. The one spelling every reader of copyright
# lines uses (here, the holders' readers, the obligations' cell splitter).
PART_WORDS = r"(?:(?:some|other)\s+)?(?:portions|parts|contributions|modifications)"
# A word before either form saying which of a work's statements it is, not what it is about:
# "Original Copyright Ada Quill" above a fork's own statement (round fix175 read it in licence
# headers, lineage.match.headers; the marker reader, round fix177, as a copyright line). Only
# before the statement, never cut from inside a line as PART_WORDS are (a holder may be named
# "Prior Labs"); as prose ("keep the original copyright header") what follows the word is no
# statement, and :func:`is_copyright` says so as for any line.
QUALIFIER_WORDS = r"(?:original|initial|additional|earlier|previous|prior)"
# Such a word right before the statement's word or sign (what a holder's reader cuts:
# lineage.licences.notices.holder).
QUALIFIED_LEAD = rf"{QUALIFIER_WORDS}\s+(?=copyright\b|\(c\)|©)"
# The words a statement may open with, before its word or sign: the one spelling of every
# reader of a statement's start (here, the holders' reader, the obligations' cell splitter).
STATEMENT_LEAD = rf"(?:{PART_WORDS}\s+|{QUALIFIED_LEAD})?"
_PORTIONS = STATEMENT_LEAD
COPYRIGHT_RE = re.compile(
    rf"^{_PORTIONS}(?P<pre>©|\(c\))?\s*copyright\b\s*(?P<post>©|\(c\))?\s*[:-]?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_COPYRIGHT_SIGN_RE = re.compile(rf"^{_PORTIONS}(?:©|\(c\))\s*(?:19|20)\d\d\b", re.IGNORECASE)
_YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")
# A year or a range of them as copyright lines write it ("2004-2014", "2016-present", "2019, 2020"):
# the one spelling the holder readers strip or cut (here, lineage.licences.notices, match.holders).
YEAR_RANGE = r"\b(?:19|20)\d\d\b(?:\s*[-–,]\s*(?:(?:19|20)\d\d|present))*"
# The sign, then the holder, then its years or the licence it is released under: py 1.11.0's one
# statement of its holders, "(c) Holger Krekel and others, 2004-2014" (``py/__init__.py``), and
# iniconfig 1.0.0's, "(C) Ronny Pfannschmidt, Holger Krekel -- MIT licensed": neither was read, so
# their obligations rows named no upstream copyright. The holder must hold a proper noun
# (:func:`is_copyright`) and the line must end with the years or the licence clause, so that an
# enumeration's "(c) the value ..." is none.
_SIGN_HOLDER_RE = re.compile(
    rf"^{_PORTIONS}(?:©|\(c\))\s*(?P<holder>[^\W\d].*?)(?:,?\s+{YEAR_RANGE}"
    r"|\s+(?:-+|[\u2013\u2014])\s+[\w.+-]+\s+licen[cs]ed|,?\s+(?:released|licen[cs]ed|distributed)\s+under\b.*)"
    r"\s*\.?\s*$", re.IGNORECASE)
_COPYRIGHT_WORD_RE = re.compile(r"\b(?:contributors|authors|team|project|holders)\b", re.IGNORECASE)
# Licence prose that starts a line with "copyright" and goes on with a term of the licence, not a
# holder ("COPYRIGHT NOTICE AND THIS PERMISSION NOTICE APPEAR IN ALL COPIES." of an ISC text in
# pexpect's docstrings, "COPYRIGHT HOLDERS AND CONTRIBUTORS BE LIABLE" of a wrapped BSD
# disclaimer): without a year or a copyright sign, no copyright line (as in licence files).
_LICENCE_TERM_RE = re.compile(r"(?:notices?|holders?|owners?|licen[cs]es?|laws?|acts?|statements?|rights?|"
                              r"terms?|and|or|of|is|in)\b", re.IGNORECASE)
# The ASF header's first line, cut anywhere after "under one" (ASF's own text wraps there,
# elasticsearch's after "contributor"; .NET-style "under one or more agreements" too). "Licensed
# to " is a pre-filter hint (:mod:`lineage.markers.prefilter`), hence the one plain space.
ASF_HOLDER_RE = re.compile(r"^licensed to (?P<holder>\S.*?)\s*\bunder\s+one(?:\s+or\s+more\b|\s*$)", re.IGNORECASE)


# A copyright line of the word, its sign and years alone ("Copyright (C) 2001-2018" in ply 3.11's
# lex.py and yacc.py, "Copyright (C) 2005-2014:" in configobj's) names its holders on the lines
# below it. In a comment block the statement runs on to the end of its paragraph, at most
# HOLDER_LINES lines (a holder list, one per line: configobj names four; markers.detect); a
# licence file's, wrapped prose, on to the next line (licences.declared). Either way not into a
# line that cannot name a holder (:func:`may_name_holder`).
HOLDER_LINES = 6
# A qualifying word only where it qualifies (before the word or sign): "Copyright (c) 2024 Prior"
# names its holder, Prior.
_YEARS_ONLY_RE = re.compile(rf"(?:spdx-filecopyrighttext\s*:|\b{PART_WORDS}\b|\b{QUALIFIED_LEAD}|\bcopyright\b|"
                            r"\(c\)|©|"
                            r"\b(?:19|20)\d\d\b|\bpresent\b|\ball\s+rights\s+reserved\b|[\s,.:;–-])*",
                            re.IGNORECASE)
# Licence text: the words every licence notice holds (licences.notices.notice_words), and the
# reservation and warranty lines of a copyright header.
_LICENCE_PROSE_RE = re.compile(r"licen|permission|redistribution|\ball rights reserved\b|\bwarrant", re.IGNORECASE)


def names_no_holder(text: str) -> bool:
    """Whether a copyright line is its word, sign and years alone, with no holder named on it."""
    return _YEARS_ONLY_RE.fullmatch(text.strip()) is not None


def may_name_holder(text: str) -> bool:
    """Whether a line below a copyright line that names no holder can name its holder: not a
    copyright line of its own nor licence text ("All rights reserved.", "Redistribution and use
    ...", "Licensed under ...")."""
    return not is_copyright(text.strip()) and _LICENCE_PROSE_RE.search(text) is None


def notice_holder(text: str) -> str:
    """The holder an ASF-style notice line names ("Licensed to Elasticsearch B.V. under one or
    more contributor" -> "Elasticsearch B.V."); "" for any other text. Holder readers strip a
    "Copyright (c) YEAR" line to its holder; this is the same for the ASF form."""
    m = ASF_HOLDER_RE.match(text.strip())
    return m.group("holder").strip() if m and has_proper_noun(m.group("holder")) else ""


def _names_its_sign(text: str) -> bool:
    """Whether ``text`` is a character followed by its Unicode name ("© COPYRIGHT SIGN"): a
    character table's comment (docutils' LaTeX writer), not a copyright line."""
    sign, _, name = text.strip().partition(" ")
    return len(sign) == 1 and unicodedata.name(sign, "") == name.strip()


# A credit and a copyright statement on one line, apart by " / ", " | ", "; " or a spaced dash:
# timm's "Hacked together by / Copyright 2020, Ross Wightman" (in hundreds of its files), sglang's
# "Adapted from HuggingFace Transformers; Copyright 2024 The Qwen team".
_CREDIT_APART_RE = re.compile(r"\s+[/|]\s+|;\s+|\s+[-\u2013\u2014]\s+")


def credited_copyright(text: str) -> str:
    """The copyright statement that follows a credit on the same line (with a year, so that prose
    such as "see the docs - copyright notices" is none); "" when there is none."""
    for m in _CREDIT_APART_RE.finditer(text):
        rest = text[m.end():].strip()
        if COPYRIGHT_RE.match(rest) and _YEAR_RE.search(rest) and is_copyright(rest):
            return rest
    return ""


# A docstring's reST field label before a copyright statement (":copyright: (c) 2015-present
# Rapptz", Pallets' and discord.py's module docstrings), the leading colon already cut by the
# segment reader (``lineage.markers.text``): "copyright: (c) 2015-present Rapptz". Lower case, as
# the field is written; "Copyright: 2020 Ada Quill" is a line of its own form, kept as written.
_FIELD_LABEL_RE = re.compile(r":?copyright:\s*")
_ANY_CASE_LABEL_RE = re.compile(_FIELD_LABEL_RE.pattern, re.IGNORECASE)


def field_statement(text: str, any_case: bool = False) -> str:
    """A copyright line as the statement it stands for: a docstring field's label read as its
    statement ("copyright: (c) 2014 by Armin Ronacher." -> "Copyright (c) 2014 by Armin
    Ronacher."; "copyright: Copyright 2007 ..." -> "Copyright 2007 ..."); any other line as
    written. The marker reader keeps a field so (:func:`lineage.markers.detect`), so
    obligations.csv, the SPDX snippets, ATTRIBUTION.md and the BOM write one statement: before
    round left160 the first two wrote the label ("copyright: (c) 2015-present Rapptz", user153's
    Left 4). ``any_case``: a capitalised label too ("Copyright: © 2020 Ada Quill" -> "© 2020 Ada
    Quill"), as ATTRIBUTION.md credits a line."""
    label = (_ANY_CASE_LABEL_RE if any_case else _FIELD_LABEL_RE).match(text)
    if label is None or not text[label.end():].strip():
        return text
    rest = text[label.end():]
    return rest if re.match(r"(?:copyright\b|©)", rest, re.IGNORECASE) else f"Copyright {rest}"


def is_copyright(text: str) -> bool:
    if _names_its_sign(text):
        return False
    if _COPYRIGHT_SIGN_RE.match(text) or notice_holder(text):
        return True
    if (signed := _SIGN_HOLDER_RE.match(text)) and not COPYRIGHT_RE.match(text):
        return has_proper_noun(signed.group("holder")) and not _LICENCE_TERM_RE.match(signed.group("holder"))
    m = COPYRIGHT_RE.match(text)
    if not m:
        return False
    rest = m.group("rest")
    if m.group("pre") or m.group("post") or _YEAR_RE.search(rest):
        return True
    if _LICENCE_TERM_RE.match(rest):
        return False
    return bool(_COPYRIGHT_WORD_RE.search(rest) or has_proper_noun(rest))


# Trailing words that say which people or which company of an organisation hold a copyright, not
# which organisation: "The Hugging Face team", "HuggingFace Inc. team", "The Fairseq Authors"; a
# joint line's last party in the plural too ("The Kyutai and HuggingFace Inc. teams").
_HOLDER_GROUP_WORDS = frozenset({"team", "teams", "authors", "developers", "contributors", "inc", "inc.", "llc",
                                 "ltd", "ltd.", "corp", "corp.", "corporation"})


def holder_organisation(key: str) -> str:
    """The organisation a holder (:func:`lineage.match.holders.holder_key`) belongs to: its name
    without trailing group or company words ("hugging face team" -> "hugging face", "huggingface
    inc. team" -> "huggingface", "nvidia corporation" -> "nvidia"); the key itself without such
    words, "" when nothing else is left ("authors")."""
    words = key.split()
    if not words or words[-1] not in _HOLDER_GROUP_WORDS:
        return key
    while words and words[-1] in _HOLDER_GROUP_WORDS:
        words.pop()
    return " ".join(words).strip(" ,")
