"""Licence notice texts, modification notices and copyright holders, found by our own rules.

Why our own rules: the licence families a review meets in Python code announce themselves with a
fixed sentence of their standard header or text (below), and we need an answer that is exact on
those sentences and never guesses. ScanCode's licence detection is the reference tool but pulls
hundreds of megabytes of licence data and takes seconds per file; the smaller libraries on PyPI
match whole licence texts, not the two-line headers files carry. So each family is one rule over
the comment and docstring text of a file (or a licence file's text), lower-cased with whitespace,
comment signs and quotes folded, so a header wrapped at any width still matches.

Rules (phrases of the licences' own standard headers or texts):

* ``Apache-2.0``: "licensed under [the terms of] the apache license, version 2.0" (the appendix
  header), not after "dual" (a choice: packaging's heads), or the text's title "apache license
  version 2.0, january 2004".
* ``MIT``: "permission is hereby granted, free of charge, to any person obtaining a copy" together
  with "the above copyright notice and this permission notice shall be included" (without that
  condition it is MIT-0, which we do not claim); not when every grant goes on "of this
  documentation file" (the Adobe Glyph List's, below).
* ``Adobe-Glyph``: "permission is hereby granted, free of charge, to any person obtaining a copy of
  this documentation file" together with "no modification, editing or other alteration of this
  document is allowed" (pdfminer's ``glyphlist.py``): MIT's words for a document, with a condition
  MIT does not have.
* Any licence named in words: "licensed/released/distributed/available under the [terms of the]
  NAME license" where NAME is one licence's name (``named_licence``: "MIT", "BSD 3-Clause",
  "2-Clause BSD", "Apache 2.0"; not a bare family such as "BSD" or "Apache").
* Any licence: a docstring's reST field ``:license: ID`` whose first word is an SPDX id
  (``:license: MIT, see LICENSE for more details.``; not ``:license: BSD``, which names no one
  licence).
* ``ISC``: "permission to use, copy, modify, and/or distribute this software for any purpose with
  or without fee is hereby granted" together with "provided that the above copyright notice and
  this permission notice appear in all copies" (without it the text is 0BSD, not claimed).
* ``BSD-2-Clause`` / ``BSD-3-Clause`` / ``BSD-4-Clause``: "redistribution and use in source and
  binary forms[ of the software as well as documentation], with or without modification, are
  permitted"; 3-clause when a clause forbids
  using the names of the holder or contributors to endorse products ("neither the name" or "may
  not be used to endorse"), 4-clause when it also asks for "all advertising materials".
* ``Beerware``: its title "the beer-ware license" together with its one condition "as long as you
  retain this notice" (FreeBSD's md5-crypt, which passlib's LICENSE gives for its ``md5_crypt.py``).
* ``MPL-2.0``: "subject to the terms of the mozilla public license, v. 2.0" (the Exhibit A
  header) or the title "mozilla public license version 2.0".
* ``WTFPL``: "under the terms of the do what the fuck you want to public license" (its header:
  jsonpath-rw's ``bin/jsonpath.py``, kept in jsonpath-ng) or its text's title ("... version 2, december
  2004"). The name is no other licence's, but a mere mention of it is none.
* GNU licences: "the gnu [lesser|library|affero] general public license as published by the free
  software foundation" followed by "either version N of the license, or (at your option) any
  later version" (``-or-later``) or "version N of the license" (``-only``); or a licence text's
  own title ("gnu lesser general public license version 3, 29 june 2007", ...), which names a
  version but not "or later" and so gives ``-only``. Library GPL 2 is ``LGPL-2.0``.
* ``APAFML`` (Adobe's AFM licence, the ReadMe of its core AFM files, whose metrics pdfminer's
  ``fontmetrics.py`` carries): "this file and the [N] postscript(r) afm files it accompanies may be
  used, copied, and distributed for any purpose and without charge" together with its condition
  "all modifications to this file or any of the afm files are prominently noted".
* ``Unlicense``: its opening "this is free and unencumbered software released into the public
  domain" together with its grant "anyone is free to copy, modify, publish, use, compile, sell, or
  distribute this software, either in source code form or as a compiled binary" (yt-dlp's
  ``LICENSE``: the bare text, read as no licence, left the classifier's "Public Domain" to stand
  for it).
* Public domain (:data:`lineage.licences.expressions.PUBLIC_DOMAIN`): a statement that this work
  is dedicated, placed, released or put in/into/to the public domain, or is (in the) public
  domain, whose subject is this work ("this module", "these files", "the contents of this file",
  "this document": pycrypto's "The contents of this file are dedicated to the public domain",
  docutils' "This module has been placed in the public domain"), or a "hereby dedicate/place/
  release ... to the public domain". A text that only mentions the public domain (a licence's
  "to the extent that dedication to the public domain is not available", a note that some other
  code or data "is in the public domain", the Unlicense's "free and unencumbered software released
  into the public domain" without its grant) is none.

A file whose notices name several licences gets them all (``A AND B``).

A licence file that opens by offering a choice (:func:`offers_choice`: "either of the licenses",
"under [the terms of] either of", "dual licensed", "choose either" in its first paragraph, as
packaging's and cryptography's ``LICENSE`` and the Rust-style "Licensed under either of" do: a
statement of the whole release's terms, not a bundled component's further down)
makes the release's licence ``A OR B`` (:mod:`lineage.licences.declared`); such a file that holds
the texts itself reads as that choice too (:func:`licence_file_expression`). GPL's "either version 2
of the License, or ..." is not such a phrase. So does a file whose later paragraph offers the work
under another licence as an alternative to the terms above it (:func:`later_choice`: the Unlicense's
or a public-domain dedication's text, then "Alternatively, this software is also available under
the MIT License:" and the MIT text): ``A OR B``, the licences above it against those it names. Not a
paragraph that puts other code, or part of the work, under another licence ("Portions of this
software are licensed under ..."): both apply then (``A AND B``).

Modification notices (Apache-2.0 section 4(b): modified files must carry "prominent notices
stating that You changed the files"): a provenance marker saying the code was adapted, modified,
derived, ported or based on something (those state a change), or a comment that says
"modified by/for/in/from/to/copyright", "changes made", "modifications copyright", "changed by" or
"modifications (to this code) have been made".
"Copied from" and "taken from" do not state a change. Such a notice copied with the code is the
upstream's own (vLLM's "Adapted from" transformers' llama, kept in a fork of vLLM): it is the
target's notice of a change to the upstream file only if that file does not hold it too
(:mod:`lineage.results.obligations`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from lineage.licences.expressions import PUBLIC_DOMAIN, combine_all, combine_any, licence_ids, named_licence
from lineage.markers.attribution import PART_WORDS, QUALIFIED_LEAD, YEAR_RANGE, holder_organisation, notice_holder

# Comment signs, quotes and box-drawing that wrap a header; folded to spaces before matching.
_FOLD_RE = re.compile(r"[#*\"'`|>]+|^\s*//|^\s*--", re.MULTILINE)
_SPACE_RE = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lower-case ``text`` with comment signs and quotes removed and whitespace collapsed."""
    return _SPACE_RE.sub(" ", _FOLD_RE.sub(" ", text.lower())).strip()


# "Licensed under the terms of the Apache License, Version 2.0" says the same as the appendix header.
# Not after "dual": "dual licensed under the terms of the Apache License, Version 2.0, and the BSD
# License" (packaging's heads, vendored by wheel, pip, setuptools) offers a choice, which the
# notice's ids (all of them apply) cannot state; and its "the BSD License" names no one licence.
_APACHE_RE = re.compile(r"(?<!dual )licensed under (?:the terms of )?the apache license,? (?:version |v)2\.0|"
                        r"apache license,? version 2\.0,? january 2004")
_MIT_GRANT = "permission is hereby granted, free of charge, to any person obtaining a copy"
_MIT_CONDITION = "the above copyright notice and this permission notice shall be included"
# The Adobe Glyph List's licence (SPDX Adobe-Glyph) opens with MIT's grant and holds its condition,
# but grants a copy "of this documentation file" and forbids altering it: MIT only for a grant
# that goes on otherwise.
_MIT_GRANT_RE = re.compile(re.escape(_MIT_GRANT) + r"(?! of this documentation file)")
_ADOBE_GLYPH_GRANT = _MIT_GRANT + " of this documentation file"
_ADOBE_GLYPH_CONDITION = "no modification, editing or other alteration of this document is allowed"
# A notice that names its licence in words ("Released under the terms of the `2-Clause BSD
# license`", docutils 0.21's HTML writers; "licensed under the MIT license"): a notice of that
# licence when the words are one licence's name (expressions.named_licence: a family without a
# version, "the Apache license", names none).
# The verb may take its object or its licensor before "under": pycrypto 2.6.1's Hash/HMAC.py says
# the Python Software Foundation "has licensed it under the Python 2.2 license" (its Original Code,
# Python 2.2's hmac.py), its COPYRIGHT that those portions "are licensed by the PSF under the terms
# of the Python 2.2 license"; without it the file read as public domain alone (its Modifications'
# dedication), and pycryptodome 3.0's copy of it owed nothing.
_NAMED_RE = re.compile(r"(?:licensed|released|distributed|available)(?: it| them| by (?:the )?[a-z0-9.&' -]{1,40}?)?"
                       r" under the (?:terms of the )?(?P<name>[a-z0-9][a-z0-9.+ -]{0,38}?) licen[cs]e\b")
# A docstring's reST field (``:license: MIT, see LICENSE for more details.``, Pallets' and
# discord.py's modules): a notice when its first word is an SPDX id.
_FIELD_RE = re.compile(r"(?<!\S):licen[cs]e:\s*([a-z0-9][a-z0-9.+-]*[a-z0-9+])")
# A head sentence putting its own file under a named licence: "This file is under the PSF license
# as the code comes from the python stdlib" (urllib3 1.10's ssl_match_hostname/_implementation.py,
# which requests 2.5.3 carries): without it the file read as its release's MIT.
_THIS_UNDER_RE = re.compile(r"\bthis (?:file|module|code) is (?:licensed |released |distributed )?under the "
                            r"(?:terms of the )?(?P<name>[a-z0-9][a-z0-9.+ -]{0,38}?) licen[cs]e\b")
# The PSF's name for its licence, read as the PyPI classifier "Python Software Foundation License"
# is (licences.declared): PSF-2.0, the agreement every Python since 2.1.1 carries.
_PSF_NAMES = frozenset({"psf", "python software foundation"})
# "The Python 2.2 license": the licence a Python release ships, the PSF agreement with the BeOpen,
# CNRI and CWI ones after it, SPDX's Python-2.0 (as lineage reads that text, ``_PYTHON_STACK``;
# pycrypto's LEGAL/copy/LICENSE.python-2.2 is it). From Python 2 on: 1.x carried CNRI's alone.
_PYTHON_RELEASE_RE = re.compile(r"python [23](?:\.\d+){0,2}")


def _name_ids(name: str) -> tuple[str, ...]:
    """SPDX ids of the one licence the words ``name`` (before "license") name, or none."""
    name = name.strip()
    if name in _PSF_NAMES:
        return ("PSF-2.0",)
    if _PYTHON_RELEASE_RE.fullmatch(name):
        return ("Python-2.0",)
    return licence_ids(named_licence(name))


_ISC_GRANT_RE = re.compile(r"permission to use, copy, modify, (?:and/or|and) distribute this software for any purpose "
                           r"with or without fee is hereby granted")
_ISC_CONDITION = "provided that the above copyright notice and this permission notice appear in all copies"
# Pallets' older text (Flask 1.0, Click 7): "in source and binary forms of the software as well as
# documentation, with or without modification".
_BSD_GRANT_RE = re.compile(r"redistribution and use in source and binary forms(?: of the software as well as "
                           r"documentation)?, with or without modification, are permitted")
_BSD_ENDORSE_RE = re.compile(r"neither the name|may not be used to endorse|shall not be used to endorse")
_BSD_ADVERTISING = "all advertising materials"
_WTFPL_RE = re.compile(r"under the terms of the do what the fuck you want to public licen[cs]e|"
                       r"do what the fuck you want to public licen[cs]e,? version 2, december 2004")
# The Unlicense's text: its opening dedication together with its grant (yt-dlp's ``LICENSE``, the
# wheels' ``*.dist-info/LICENSE``); the opening alone is a mention (module docstring).
_UNLICENSE_OPENING = "this is free and unencumbered software released into the public domain"
_UNLICENSE_GRANT = ("anyone is free to copy, modify, publish, use, compile, sell, or distribute this software, "
                    "either in source code form or as a compiled binary")
_BEERWARE_TITLE = "the beer-ware license"
_BEERWARE_CONDITION = "as long as you retain this notice"
_MPL_RE = re.compile(r"subject to the terms of the mozilla public license,? v(?:ersion|\.)? ?2\.0|"
                     r"mozilla public license,? version 2\.0")
# The Zope Foundation's file header ("This software is subject to the provisions of the Zope Public
# License, Version 2.1 (ZPL)"), which roman keeps and docutils' copy of it too: a notice naming one
# licence version, as the MPL's header is. ZPL 1.x headers differ and are not read here.
_ZPL_RE = re.compile(r"subject to the provisions of the zope public license,? version (?P<version>2\.[01])\b")
# The ZPL 2.1 text itself (roman 4.2's LICENSE.txt): its title and its first sentence (2.0's
# text opens otherwise and is not read here). Its conditions are worded as BSD's grant, which
# alone read the text as BSD-2-Clause; a BSD grant is the ZPL's own when the text holds no more
# BSD grants than ZPL texts.
_ZPL_TITLE_RE = re.compile(r"zope public license \(zpl\),? version (?P<version>2\.1)\b")
_ZPL_CONDITION = "a copyright notice accompanies this license document that identifies the copyright holders"
_GNU_NOTICE_RE = re.compile(
    r"gnu (?P<family>lesser |library |affero )?general public license,? as published by the free software "
    r"foundation[,;]? (?:either )?version (?P<version>[23](?:\.[01])?)(?: of the license)?"
    r"(?P<later>,? (?:or|\(at your option\)|or \(at your option\)) (?:\(at your option\) )?any later version)?")
# The notice naming the version before its publisher, as the Linux kernel's files and their
# offspring do ("under the terms of the GNU General Public License version 2 as published by the
# Free Software Foundation"): that version alone unless the notice grants any later one, before
# the publisher ("version 2 or (at your option) any later version, as published by ...") or after
# it ("as published by the Free Software Foundation; or (at your option) any later version").
_GNU_VERSION_FIRST_RE = re.compile(
    r"gnu (?P<family>lesser |library |affero )?general public license,? (?:version|v\.?) ?(?P<version>[23](?:\.[01])?)"
    r"(?: only)?(?P<later>,? (?:or |\(at your option\) )+any later version|,? or later)?,? as published by the free "
    r"software foundation(?P<later_after>[,;.]? (?:either |or |\(at your option\) )+any later version)?")
_GNU_TITLE_RE = re.compile(
    r"gnu (?P<family>lesser |library |affero )?general public license,? version (?P<version>[23](?:\.[01])?),? "
    r"(?:\d{1,2} )?(?:june|february|november) (?:1991|1999|2007)")
# Adobe's AFM ReadMe (SPDX APAFML): its grant names no licence, so without this rule a file
# holding the AFM metrics reads as its release's licence. The condition asks modified files to say
# so, which the grant alone (a shortened copy) does not show.
_APAFML_GRANT_RE = re.compile(r"this file and the (?:\d+ )?postscript ?(?:\(r\) )?afm files it accompanies "
                              r"may be used, copied, and distributed for any purpose and without charge")
_APAFML_CONDITION = "all modifications to this file or any of the afm files are prominently noted"
# A public-domain dedication (module docstring): its subject is this work, then the verb; or the
# dedicator's "hereby ... to the public domain" within one sentence.
_PD_SUBJECT = (r"(?:the )?(?:contents|modifications) (?:of|to) this (?:file|module|package|directory)|"
               r"(?:this|these) (?:\w+ )?(?:files?|modules?|code|software|package|library|program|script|"
               r"works?|project|documents?|stylesheet|directory)")
_PUBLIC_DOMAIN_RE = re.compile(
    rf"\b(?:{_PD_SUBJECT}) (?:is|are|was|were|has been|have been)(?: hereby)? "
    r"(?:(?:dedicated|placed|released|put|given) (?:in|into|to) |in )?(?:the )?public domain\b"
    r"|\bhereby (?:dedicates?|places?|releases?|puts?) [^.;]{0,80}?\b(?:in|into|to) the public domain\b")

# The PSF licence agreement's title (CPython's LICENSE, and the copies of it that lib2to3's
# offspring ship: black's blib2to3/LICENSE); with the older agreements CPython's file carries
# after it (BeOpen, CNRI) the text is the whole Python licence stack, SPDX's Python-2.0.
_PSF_TITLE_RE = re.compile(r"python software foundation license version 2|psf license agreement for python")
_PYTHON_STACK = ("beopen.com license agreement for python", "cnri license agreement for python")
# Licence texts that hold another licence's whole text: a file under the first keeps the notice
# of the second (CPython's licence stack opens with the PSF agreement).
_INCLUDED = {"Python-2.0": frozenset({"PSF-2.0"})}


def with_included(ids: set[str]) -> set[str]:
    """``ids`` and the licences whose texts theirs include (:data:`_INCLUDED`)."""
    return ids.union(*(_INCLUDED.get(i, ()) for i in ids))


def _gnu_id(family: str, version: str, later: bool) -> str:
    family = family.strip()
    major = version.split(".")[0]
    if family == "library":
        name, number = "LGPL", "2.0"
    elif family == "lesser":
        name, number = "LGPL", "2.1" if major == "2" else "3.0"
    elif family == "affero":
        name, number = "AGPL", "3.0"
    else:
        name, number = "GPL", f"{major}.0"
    return f"{name}-{number}-{'or-later' if later else 'only'}"


def notice_ids(folded: str) -> tuple[str, ...]:
    """SPDX ids of the licence notices found in ``folded`` text (see :func:`fold`), sorted."""
    found: set[str] = set()
    if _APACHE_RE.search(folded):
        found.add("Apache-2.0")
    if _MIT_CONDITION in folded and _MIT_GRANT_RE.search(folded):
        found.add("MIT")
    if _ADOBE_GLYPH_GRANT in folded and _ADOBE_GLYPH_CONDITION in folded:
        found.add("Adobe-Glyph")
    for m in (*_NAMED_RE.finditer(folded), *_THIS_UNDER_RE.finditer(folded)):
        found.update(_name_ids(m.group("name")))
    for m in _FIELD_RE.finditer(folded):
        found.update(licence_ids(m.group(1)))
    if _ISC_GRANT_RE.search(folded) and _ISC_CONDITION in folded:
        found.add("ISC")
    zpl_texts = [m.group("version") for m in _ZPL_TITLE_RE.finditer(folded)] if _ZPL_CONDITION in folded else []
    found.update(f"ZPL-{version}" for version in zpl_texts)
    if len(_BSD_GRANT_RE.findall(folded)) > len(zpl_texts):
        if _BSD_ADVERTISING in folded:
            found.add("BSD-4-Clause")
        elif _BSD_ENDORSE_RE.search(folded):
            found.add("BSD-3-Clause")
        else:
            found.add("BSD-2-Clause")
    if _MPL_RE.search(folded):
        found.add("MPL-2.0")
    if _UNLICENSE_OPENING in folded and _UNLICENSE_GRANT in folded:
        found.add("Unlicense")
    if _BEERWARE_TITLE in folded and _BEERWARE_CONDITION in folded:
        found.add("Beerware")
    if _WTFPL_RE.search(folded):
        found.add("WTFPL")
    for m in _ZPL_RE.finditer(folded):
        found.add(f"ZPL-{m.group('version')}")
    if _APAFML_GRANT_RE.search(folded) and _APAFML_CONDITION in folded:
        found.add("APAFML")
    if _PSF_TITLE_RE.search(folded):
        found.add("Python-2.0" if all(title in folded for title in _PYTHON_STACK) else "PSF-2.0")
    for m in _GNU_NOTICE_RE.finditer(folded):
        found.add(_gnu_id(m.group("family") or "", m.group("version"), bool(m.group("later"))))
    for m in _GNU_VERSION_FIRST_RE.finditer(folded):
        found.add(_gnu_id(m.group("family") or "", m.group("version"),
                          bool(m.group("later") or m.group("later_after"))))
    # a text recognised as CC0-1.0 or the Unlicense (both public-domain dedications) keeps its id
    if _PUBLIC_DOMAIN_RE.search(folded) and not found & {"CC0-1.0", "Unlicense"}:
        found.add(PUBLIC_DOMAIN)
    for m in _GNU_TITLE_RE.finditer(folded):
        licence = _gnu_id(m.group("family") or "", m.group("version"), False)
        if licence.replace("-only", "-or-later") not in found:
            found.add(licence)
    return tuple(sorted(found))


def family_statements(folded: str) -> tuple[tuple[str, str], ...]:
    """The sentences of ``folded`` text (see :func:`fold`) putting it under a licence named by its
    family alone, no one licence (IPython 3.2's older heads: "distributed under the terms of the
    bsd license"), each with the family's word ("bsd"): no notice of an id, but the notice such a
    file gives, which a copy can keep word for word."""
    matches = (*_NAMED_RE.finditer(folded), *_THIS_UNDER_RE.finditer(folded))
    found = [(m.group(0), m.group("name").strip()) for m in matches if not _name_ids(m.group("name"))]
    return tuple(dict.fromkeys(found))


# A comment line that is a licence field naming one licence in words (scikit-learn's heads:
# "# License: BSD 3 clause", which xgboost's core.py keeps above the function it took from
# there). Read line by line, not from the fold (which joins lines): the field ends with its line.
_COMMENT_FIELD_RE = re.compile(r"^[ \t]*#+[ \t]*licen[cs]e[ \t]*:[ \t]*(?P<name>[^\n]*?)[ \t.]*$",
                               re.IGNORECASE | re.MULTILINE)


def comment_field_ids(text: str) -> tuple[str, ...]:
    """SPDX ids of the licences raw ``text``'s ``# License: <name>`` comment lines name
    (:data:`_COMMENT_FIELD_RE`; a name that is not one licence's names none), sorted."""
    found = {i for m in _COMMENT_FIELD_RE.finditer(text) for i in licence_ids(named_licence(m.group("name")))}
    return tuple(sorted(found))


# Every notice :func:`notice_ids` knows contains one of these words, and :func:`fold` never makes one
# (it only turns characters into spaces and shortens runs of whitespace), so text without them
# holds no notice: checking for them first skips the folding of most code.
_NOTICE_WORDS = ("licen", "permission", "redistribution", "domain", "afm files")


def notice_words(text: str) -> bool:
    """Whether raw ``text`` holds a word every licence notice holds (:data:`_NOTICE_WORDS`)."""
    lowered = text.lower()
    return any(word in lowered for word in _NOTICE_WORDS)


def notice_ids_in(text: str) -> tuple[str, ...]:
    """SPDX ids of the licence notices found in raw ``text``, sorted (:func:`notice_ids` of its fold)."""
    if not notice_words(text):
        return ()
    return notice_ids(fold(text))


def source_notice_ids(text: str, folded: str | None = None) -> tuple[str, ...]:
    """SPDX ids of the licence notices in raw source lines ``text`` (a file's head, a copied
    span): :func:`notice_ids_in` and the ``# License:`` comment fields (:func:`comment_field_ids`);
    ``folded``: :func:`fold` of ``text`` when the caller has it."""
    if not notice_words(text):
        return ()
    return tuple(sorted({*notice_ids(fold(text) if folded is None else folded), *comment_field_ids(text)}))


# "choose either": python-telegram-bot 13.15's LICENSE.dual, the GPL-3.0 and LGPL-3.0 texts after
# "You may choose either license."
_CHOICE_RE = re.compile(r"\beither of the (?:following )?licen[cs]es\b|\bunder (?:the terms of )?either of\b|"
                        r"\bdual[- ]licen[cs]ed\b|\bchoose either\b")
_PARAGRAPH_END_RE = re.compile(r"\n[ \t]*\n")


def first_paragraph(text: str) -> str:
    """``text`` up to its first blank line (leading blank lines skipped)."""
    return _PARAGRAPH_END_RE.split(text.strip(), maxsplit=1)[0]


def offers_choice(text: str) -> bool:
    """Whether a licence file's ``text`` opens by offering a choice of licences (module docstring)."""
    return _CHOICE_RE.search(fold(first_paragraph(text))) is not None


# A paragraph offering the whole work under other terms instead: "Alternatively, this software is
# (also) available under ...", "Alternatively, you may use it under ...", "... released into the
# public domain". Its subject is the work
# itself (this software / project / work / library / package / code / program, the software, it,
# you), so that "Alternatively, the files in vendor/ are under ..." (other code) is no choice.
_LATER_CHOICE_RE = re.compile(
    r"^alternatively,? (?:(?:this|the) (?:software|project|work|library|package|code|program|module)|it|you)\b"
    r"[^.;:]{0,80}?\b(?:available|licen[cs]ed|distributed|released|offered|use|redistribute)\b[^.;:]{0,60}?"
    r"(?:\bunder\b|\b(?:in|into|to) the public domain\b)")


def later_choice(governing: str) -> str:
    """The choice a later paragraph of a licence text states (module docstring): ``A OR B``, the
    licences the text names above the first paragraph opening with "Alternatively, this software
    is ... available under" (:data:`_LATER_CHOICE_RE`) against those from that paragraph on that
    it names and the part above does not (the others held beside the choice); "" when no such
    paragraph follows a licence, or it names no other licence."""
    paragraphs = _PARAGRAPH_END_RE.split(governing)
    for k, paragraph in enumerate(paragraphs):
        folded = fold(paragraph)
        if k == 0 or _LATER_CHOICE_RE.search(folded) is None:
            continue
        above = set(notice_ids_in("\n\n".join(paragraphs[:k])))
        below = [i for i in notice_ids_in("\n\n".join(paragraphs[k:])) if i not in above]
        offered = [i for i in below if _names_id(folded, i) or (i == PUBLIC_DOMAIN and "public domain" in folded)]
        if not above or not offered:
            return ""
        return combine_all([combine_any([combine_all(above), combine_all(offered)]),
                            *(i for i in below if i not in offered)])
    return ""


def licence_file_expression(text: str, governing: str) -> str:
    """The licences a licence file's (or a metadata field's) ``text`` announces, of its
    ``governing`` part: all of them (``A AND B``), or, when it opens by offering a choice (module
    docstring), a choice (``A OR B``) between the licences its opening paragraph names, the others
    held beside it: "Apache License 2.0 or the BSD 2-Clause License, at your option" above both
    texts and a vendored file's MIT text reads ``(Apache-2.0 OR BSD-2-Clause) AND MIT``, never a
    choice of MIT for the whole. An opening naming fewer than two of them offers a choice between
    exactly two texts only: python-telegram-bot 13.15's ``LICENSE.dual``, the GPL-3.0 and LGPL-3.0
    texts after "You may choose either license.", read ``GPL-3.0-only AND LGPL-3.0-only``."""
    ids = notice_ids_in(governing)
    if len(ids) >= 2 and not offers_choice(text):
        return later_choice(governing) or combine_all(ids)
    if len(ids) < 2:
        return combine_all(ids)
    opening = fold(first_paragraph(text))
    named = [i for i in ids if _names_id(opening, i)]
    if len(named) >= 2:
        # the LGPL-3.0 is the GPL-3.0 with additional permissions: its file holds that text too,
        # which offering the LGPL does not make a licence of its own beside the choice
        lgpl3 = any(i.startswith("LGPL-3.0") for i in named)
        beside = [i for i in ids if i not in named and not (lgpl3 and i.startswith("GPL-3.0"))]
        return combine_all([combine_any(named), *beside])
    return combine_any(ids) if len(ids) == 2 else combine_all(ids)


def opening_names(text: str, licence_id: str) -> bool:
    """Whether a licence file's ``text`` names ``licence_id`` in its opening paragraph (loosely:
    :func:`_names_id`): a ``COPYING`` "dual-licensed under the Unlicense and MIT" names the licence
    of ``UNLICENSE`` and of ``LICENSE-MIT``, though not their file names."""
    return _names_id(fold(first_paragraph(text)), licence_id)


def _names_id(folded: str, licence_id: str) -> bool:
    """Whether folded words name licence ``licence_id`` loosely: its family, by its word ("apache",
    "bsd", "gpl", not inside "lgpl" nor "mitchell") or written out ("general public license"), and,
    for a versioned id, its major number shortly after it ("2.0", "2-clause", "v3")."""
    family = re.match(r"[a-z]+", licence_id.lower())
    if family is None:
        return False
    word = family.group(0)
    version = re.search(r"\d+", licence_id)
    after = rf"[^.;]{{0,30}}?(?<!\d){version.group(0)}(?!\d)" if version else ""
    spellings = [rf"\b{word}(?=v?\d|\b)", *_FAMILY_WORDS.get(word, ())]
    return any(re.search(spelling + after, folded) for spelling in spellings)


# Licence families written out in words (the GNU, Mozilla and Eclipse licences seldom go by their
# short names in a licence file's opening).
_FAMILY_WORDS = {
    "gpl": (r"(?<!lesser )(?<!library )(?<!affero )\bgeneral public licen[cs]e",),
    "lgpl": (r"\b(?:lesser|library) general public licen[cs]e",),
    "agpl": (r"\baffero general public licen[cs]e",),
    "mpl": (r"\bmozilla public licen[cs]e",),
    "epl": (r"\beclipse public licen[cs]e",),
    "psf": (r"\bpython software foundation",),
}


def notice_expression(text: str) -> str:
    """The licences whose notices ``text`` holds, as one SPDX expression (``""`` when none)."""
    return combine_all(notice_ids_in(text))


# Markers (see lineage.markers) whose phrase states that the code was changed.
CHANGE_MARKER_KINDS = frozenset({"adapted_from", "modified_from", "derived_from", "ported_from", "based_on"})
# (the PSF agreement's duty "a brief summary of the changes made to Python" is no statement either)
_CHANGE_TEXT_RE = re.compile(r"\bmodified (?:by|for|in|from|to|copyright)\b|(?<!\bsummary of the )\bchanges made\b|"
                             r"\bmodifications? copyright\b|\bchanged by\b|\bmodifications? (?:by|made)\b|"
                             # ansible's _distro.py: "Modifications to this code have been made by Ansible Project"
                             # (not a licence's "indicate if changes were made": a duty, not a statement)
                             r"(?<!\bif )(?<!\bwhether )\b(?:modifications?|changes)(?: (?:to|in|of) [\w .'-]{1,40}?)? "
                             r"(?:have been|has been|were|was) made\b")


def change_statements(text: str) -> tuple[str, ...]:
    """The folded lines of comment ``text`` that state that the file was changed (a modification
    notice; a phrase broken over two lines gives both), in order, each once."""
    lines = [fold(line) for line in text.splitlines()]
    joined = " ".join(lines)
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    found: dict[str, None] = {}
    for match in _CHANGE_TEXT_RE.finditer(joined):
        first = max(i for i, s in enumerate(starts) if s <= match.start())
        last = max(i for i, s in enumerate(starts) if s < match.end())
        found[" ".join(lines[first:last + 1]).strip()] = None
    return tuple(found)


# --------------------------------------------------------------------------------------------
# Copyright holders
# --------------------------------------------------------------------------------------------

_HOLDER_STRIP_RE = re.compile(
    rf"spdx-filecopyrighttext\s*:|\b{PART_WORDS}\b|\bcopyright\b|\(c\)|©|\ball rights reserved\.?|"
    rf"{YEAR_RANGE}|[<>]", re.IGNORECASE)
# the GNU licences' "How to Apply" lines too: "Copyright (C) 19yy <name of author>" (the GPL-2.0
# text fuzzywuzzy 0.18.0 and thefuzz 0.19.0 ship named the holder "19yy name of author"), "Copyright
# (C) year name of author" of its interactive notice
_TEMPLATE_RE = re.compile(r"\[yyyy\]|\{yyyy\}|\[name of copyright owner\]|<year>|<copyright holders?>|\[year\]|"
                          r"\[fullname\]|\{year\}|\b19yy\b|\byyyy\b|\bname of author\b", re.IGNORECASE)


def is_template(line: str) -> bool:
    """A copyright line of a licence's own template ("Copyright [yyyy] [name of copyright owner]")."""
    return _TEMPLATE_RE.search(line) is not None


# A clause after the holder saying under which licence the code is released is no part of the
# holder: urllib3 1.22's ``ordered_dict.py``, "Copyright 2009 Raymond Hettinger, released under the
# MIT License.", named the holder "raymond hettinger released under the mit license", so a copy
# keeping "Copyright 2009 Raymond Hettinger" read as not keeping it, and the two lines were two credits.
# The licence's name before "licensed" at the line's end is such a clause too: iniconfig 1.0.0's
# "(C) Ronny Pfannschmidt, Holger Krekel -- MIT licensed" holds two persons, not "holger krekel -- mit
# licensed".
_LICENCE_CLAUSE_RE = re.compile(r"(?:,|(?<=\.)|\s-+|\s*[\u2013\u2014]+)\s*(?:(?:it|this|that)\s+(?:is|was|are)\s+)?"
                                r"(?:released|licen[cs]ed|distributed|(?:made\s+)?available)\s+under\b.*$|"
                                r"(?:\s-+|\s*[\u2013\u2014]+)\s*[\w.+-]+\s+licen[cs]ed\.?\s*$",
                                re.IGNORECASE)


def without_licence_clause(line: str) -> str:
    """A copyright line (or its holder) without a trailing clause naming the licence it is released
    under (:data:`_LICENCE_CLAUSE_RE`): "Raymond Hettinger, released under the MIT License." ->
    "Raymond Hettinger"; the line itself when it has none or nothing is left before it."""
    cut = _LICENCE_CLAUSE_RE.search(line)
    return line[:cut.start()].rstrip() or line if cut else line


@lru_cache(maxsize=1 << 16)  # a pure function of the line, asked of the same lines for every pair they sit in
def holder(line: str) -> str:
    """The holder a copyright line names, folded for comparison ("" when it names none), without a
    trailing clause of the licence it is released under (:data:`_LICENCE_CLAUSE_RE`); an
    ASF-style line's holder (:func:`lineage.markers.attribution.notice_holder`) likewise."""
    line = notice_holder(line) or line
    cut = _LICENCE_CLAUSE_RE.search(line)
    if cut is None:
        return _folded_holder(line)
    # a name left before the clause; else the whole line is a name ("Made Available Under Co"),
    # unless the clause names a licence ("Copyright (c) 2020, released under the MIT license": none)
    return _folded_holder(line[:cut.start()]) or ("" if re.search(r"licen[cs]e", cut.group(0), re.IGNORECASE)
                                                   else _folded_holder(line))


# "by" between the sign or years and the holder ("Copyright © 2011 by the Pallets team.") is no
# part of the name: itsdangerous 1.1.0's holder read "by the pallets team", one another file's "Copyright
# (c) by Pallets" did not keep, nor "The Pallets Team" it.
_BY_RE = re.compile(r"^by\s+")


# A qualifying word opening the statement ("Original Copyright 2019 Ada Quill"), cut there only:
# inside a name it is the name's ("Prior Labs").
_QUALIFIED_RE = re.compile(rf"^\s*{QUALIFIED_LEAD}", re.IGNORECASE)


def _folded_holder(text: str) -> str:
    text = _HOLDER_STRIP_RE.sub(" ", _QUALIFIED_RE.sub("", text))
    return _BY_RE.sub("", _SPACE_RE.sub(" ", re.sub(r"[^\w@.+ -]", " ", text.lower())).strip(" .,-"))


_YEARS_RE = re.compile(YEAR_RANGE, re.IGNORECASE)


def stated_years(line: str) -> str:
    """A copyright line's years as written, folded ("Copyright (C) 2003 - 2007 Robey Pointer" ->
    "2003-2007"; "" when it states none): the years part of :func:`copyright_key`."""
    return " ".join(_SPACE_RE.sub("", m.group(0)).lower() for m in _YEARS_RE.finditer(line))


def copyright_key(line: str) -> str:
    """A copyright line's years and holder, folded: one key for "Copyright (c) 2015-present
    Rapptz" and the ``:copyright: (c) 2015-present Rapptz`` field of a docstring."""
    return f"{stated_years(line)} {holder(line)}".strip()


def distinct_copyrights(texts: Iterable[str]) -> tuple[str, ...]:
    """Copyright lines, one per statement, the first of each kept: two lines are one statement
    when their years and holder agree (:func:`copyright_key`); a line without a key is kept as
    written. A file that states one copyright twice (click 8.1.7's parser.py, "Copyright
    2001-2006 Gregory P. Ward. All rights reserved." in its docstring and "Copyright 2001-2006
    Gregory P. Ward" in a comment) credits its holder once, as ATTRIBUTION.md does."""
    seen: dict[str, str] = {}
    for text in texts:
        seen.setdefault(copyright_key(text) or text, text)
    return tuple(seen.values())


def holders(lines: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({h for h in (holder(x) for x in lines if not is_template(x)) if h}))


def organisation(folded: str) -> str:
    """A folded holder's (:func:`holder`, :func:`lineage.match.holders.holder_key`) organisation,
    without a leading "the" and without spaces ("the hugging face team" and "the huggingface inc.
    team": "huggingface"; "google inc." and "google llc": "google"); "" when none."""
    key = folded[4:] if folded.startswith("the ") else folded
    return holder_organisation(key).replace(" ", "")


# Between the parties of one copyright line ("HuggingFace Inc. team and GPTQ and AutoGPTQ authors").
_PARTIES_RE = re.compile(r"\s+and\s+")


def keeps_holders(upstream: Sequence[str], target: Sequence[str]) -> bool:
    """Whether every holder of the ``upstream`` copyright lines is named by a ``target`` line: the
    same holder, or one of its organisation (transformers' "the HuggingFace Inc. team" is kept by
    accelerate's "The HuggingFace Team": one company, Hugging Face, holds both), also as one of
    the parties a target line joins with "and" (optimum's "HuggingFace Inc. team and GPTQ and
    AutoGPTQ authors" keeps it too). An upstream line joining parties with "and" is kept whole
    or party by party: each party named (:func:`_keeps_joint_holder`)."""
    mine = tuple(company_fold(address_fold(t)) for t in holders(target))
    organisations = {org for t in mine for party in _PARTIES_RE.split(t) if (org := organisation(party))}
    return all(_keeps_joint_holder(company_fold(address_fold(h)), mine, organisations) for h in holders(upstream))


# A company's suffix written out or abbreviated, with or without its full stop, is one suffix.
_COMPANY_SUFFIX_RE = re.compile(r"\b(corporation|incorporated|limited)\b|\b(corp|inc|ltd)\.(?!\w)")
_COMPANY_SUFFIX = {"corporation": "corp", "incorporated": "inc", "limited": "ltd"}


def company_fold(folded: str) -> str:
    """A folded holder (:func:`holder`) with a company suffix abbreviated, without a full stop
    ("microsoft corporation daan leijen" -> "microsoft corp daan leijen", "quillwort corp. ada" ->
    "quillwort corp ada"): it names the "Microsoft Corp" of another line in whole words
    (:func:`names_within`), as it did as a substring ("corp" in "corporation")."""
    return _COMPANY_SUFFIX_RE.sub(lambda m: _COMPANY_SUFFIX.get(m.group(1), m.group(2) or ""), folded)


# A web address's scheme and "www." (folded by :func:`holder` to words) say nothing of who holds it.
_SCHEME_RE = re.compile(r"\b(?:https?|ftp)\s+(?:www\.)?")
_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def address_fold(folded: str) -> str:
    """A folded holder (:func:`holder`) without its web addresses' schemes: markdown 3.7's smarty.py
    keeps 2.6.11's "Copyright (c) 2003 John Gruber <http://daringfireball.net/>" as "<https://...>"."""
    return _SPACE_RE.sub(" ", _SCHEME_RE.sub("", folded)).strip()


def _same_address(party: str, mine: Sequence[str]) -> bool:
    """Whether a party of an upstream holder is named by its e-mail address: it names one or more
    and one target holder names them all, whatever name goes with them (pycryptodome's author signs
    "Legrandin <helderijs@gmail.com>" in older files, "Helder Eijs <helderijs@gmail.com>" in newer)."""
    wanted = set(_EMAIL_RE.findall(party))
    return bool(wanted) and any(wanted <= set(_EMAIL_RE.findall(t)) for t in mine)


def _keeps_joint_holder(folded: str, mine: Sequence[str], organisations: set[str]) -> bool:
    """Whether the target's holders ``mine`` (and their ``organisations``) name the upstream holder
    ``folded``: a target holder naming it whole, or each of its parties named by a target holder
    or its organisation. A target holder that is only one party of a joint line does not keep the
    others: peft 0.13.2's "the HuggingFace Inc. team" does not keep transformers' "Mistral AI and
    the HuggingFace Inc. team" (Mistral AI's copyright was read as kept)."""
    named = named_holder(folded)
    if any(names_within(t, n) for t in mine for n in (folded, named)):
        return True
    return all(any(names_within(t, party) or names_within(party, t) for t in mine)
               or organisation(party) in organisations - {""}
               or _same_address(party, mine) for party in _PARTIES_RE.split(named))


def names_within(folded: str, name: str) -> bool:
    """Whether the folded holder ``folded`` (:func:`holder`) holds the folded ``name`` as whole
    words: "pallets team" holds "pallets", not "pall"; "openai" does not hold "ai", nor "longt5
    authors" "t5 authors", nor "physical intelligence" "intel" (a letter, digit or ``_`` next to
    it makes it part of a longer word; a hyphen, as a regular expression's word boundary reads
    it, does not: "deepseek-ai team" holds "deepseek"). A name ending in a full stop ends its
    word itself: "meta platforms inc.and the huggingface inc. team", as a file wrote it, holds
    "meta platforms inc.". A name held as a substring counted as kept: "Copyright Pall" kept
    "Copyright Pallets" (round fix149's item (1))."""
    if not name:
        return False
    before = r"(?<!\w)" if name[0].isalnum() or name[0] == "_" else ""
    after = r"(?!\w)" if name[-1].isalnum() or name[-1] == "_" else ""
    return re.search(before + re.escape(name) + after, folded) is not None


# A folded holder's tail that names nobody more ("David Halter and others, see AUTHORS.txt";
# Django's "Django Software Foundation and individual contributors").
_UNNAMED_TAIL_RE = re.compile(r"\s+(?:(?:and|&)\s+(?:the\s+)?(?:other\s+|individual\s+)?"
                              r"(?:others|contributors|authors)|et al)\b.*$")


def named_holder(folded: str) -> str:
    """A folded holder (:func:`holder`) without a tail naming nobody more: parso's "David Halter and
    others, see AUTHORS.txt" names David Halter, whom libcst's "David Halter and Contributors"
    keeps; the holder itself when it has no such tail or nothing is left before it."""
    return _UNNAMED_TAIL_RE.sub("", folded).strip(" ,") or folded
