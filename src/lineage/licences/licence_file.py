"""One licence file of a source: what it is (:class:`LicenceFile`, :func:`read_licence_file`), which
folder it governs (:func:`governs`, :func:`governed_folder`), which part of its text governs the
release's Python files (:func:`governing_text`: not the parts for bundled binaries, appended
licences of other software, included parts or incorporated software), and the copyright
statements in it (:func:`copyright_lines`). :mod:`lineage.licences.declared` reads a source's
licence files with these and decides what the source declares; its module docstring gives the
rules both follow.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache

from lineage.licences.expressions import licence_ids
from lineage.licences.notices import holder, is_template, licence_file_expression, notice_expression
from lineage.markers import find_markers
from lineage.markers.attribution import may_name_holder
from lineage.markers.pointers import named_licence_file

MAX_LICENCE_FILE_BYTES = 1 << 20
# "LICENSES" too: numba 0.60's wheel keeps cloudpickle's BSD-3-Clause text in its dist-info's
# ``LICENSES.third-party``, and its vendored ``numba/cloudpickle/`` read "licence-notice" missing.
# "UNLICENSE" too: the Unlicense's text under its own name, beside ``LICENSE-MIT`` and a ``COPYING``
# that offers the two ("dual-licensed under the Unlicense and MIT"), a layout projects take from
# ripgrep's; unread, such a release's choice read as MIT alone, or a lone "Public Domain" classifier
# decided (round left160).
_LICENCE_NAME_RE = re.compile(r"^(?:LICEN[CS]ES?|UNLICEN[CS]E|COPYING|COPYRIGHT|NOTICE|THIRD[_-]PARTY[_-]LICEN[CS]ES)"
                              r"(?:[._-][A-Za-z0-9._-]*)?$", re.IGNORECASE)
# A licence file whose name says it holds other software's licences (``THIRD_PARTY_LICENSES``,
# ``LICENSES.third-party``, ``LICENSES_bundled.txt``) is for included code, as one that opens saying
# so (:func:`for_included_code`): its holders and licences are that code's, not the release's.
_INCLUDED_NAME_RE = re.compile(r"third[_. -]?party|bundled", re.IGNORECASE)
# Also a licence file named after another project (:func:`lineage.markers.pointers.named_licence_file`:
# dask's ``dask/array/NUMPY_LICENSE.txt``, which its numpy-derived functions point to): that
# project's licence and holders, for code the release includes, so ``included_code``.
_NOT_TEXT = (".py", ".pyc", ".pyi", ".so", ".pyd", ".c", ".h", ".cpp", ".cu", ".json", ".html", ".js")


@dataclass(frozen=True)
class LicenceFile:
    path: str
    role: str  # "licence" | "notice" (a NOTICE file: attributions to reproduce)
    folder: str  # the folder it governs ("" for the root, dist-info included), or one module (:func:`governs`)
    sha256: str
    expression: str  # licences its text announces ("" when our rules recognise none)
    copyrights: tuple[str, ...] = ()  # copyright lines of real holders (templates left out)
    lines: tuple[str, ...] = ()  # a NOTICE file's non-blank lines, stripped
    # its text opens by saying the release includes another project's code (Django 5.1's
    # LICENSE.python): its licence and holders are that code's (:func:`for_included_code`)
    included_code: bool = False
    # copyright lines of the parts ``copyrights`` leaves out (other software's licences appended
    # after the project's own, bundled binaries' parts): not the project's holders, but notices
    # the file reproduces, which keep a copy's copyright (pandas 2.2.3's LICENSE appends
    # pyperclip's BSD text, "Copyright (c) 2014, Al Sweigart", for its io/clipboard copy)
    retained_copyrights: tuple[str, ...] = ()
    # its incorporated-software sections that name files of the release (:func:`incorporated_parts`;
    # :func:`lineage.licences.declared.read_source_licence` keeps the paths the source holds)
    incorporated: tuple[IncorporatedPart, ...] = ()


@dataclass(frozen=True)
class IncorporatedPart:
    """One section under a licence file's incorporated-software heading that names files of the
    release: the code in them derives from other software, under the section's licence and holders
    as well as the release's (:func:`incorporated_parts`)."""

    # the paths it names, "/"-separated without a trailing "/" (the candidates the text names, until
    # read_source_licence keeps the release's files and folders)
    paths: tuple[str, ...]
    expression: str  # the licences its text announces ("" when our rules recognise none)
    copyrights: tuple[str, ...]  # its copyright lines of real holders

    def names(self, path: str) -> bool:
        """Whether the section speaks for ``path``: a file it names, or one under a folder it names."""
        return any(path == p or path.startswith(p + "/") for p in self.paths)


def governs(folder: str, path: str) -> bool:
    """Whether a licence file governing ``folder`` speaks for ``path``: a file under the folder,
    or the path itself when it is a module (a one-module vendored distribution's, module docstring)."""
    return path.startswith(folder + "/") or (path == folder and path.endswith(PYTHON_SUFFIXES))


def is_licence_file(path: str) -> bool:
    name = posixpath.basename(path)
    return bool(_LICENCE_NAME_RE.match(name) or named_licence_file(name)) and not name.lower().endswith(_NOT_TEXT)


# A file named by one SPDX licence id, with or without a text extension (MySQL-python 1.2.5's root
# ``GPL-2.0``, the GPL's text and the release's only licence file; ``LGPL-2.1.txt``, ``Apache-2.0``):
# unread, the release read as naming no licence, and every file mysqlclient copied from it was
# "compatibility unknown". The name alone does not make it one (``JSON`` and ``X11`` are ids too):
# its text must state a licence (:func:`lineage.licences.declared.read_source_licence` checks).
# An id's dots stand before a digit (``Apache-2.0``, ``bzip2-1.0.6``): a name with any other dot
# (``setup.py``, ``conf.yaml``: nearly every file of a tree) is told apart here, not by the
# expression parser, which the loop over a tree's paths would run on each.
_ID_NAME_RE = re.compile(r"^(?P<id>[A-Za-z0-9](?:[A-Za-z0-9+-]|\.(?=\d))*)(?:\.(?:txt|md|rst))?$", re.IGNORECASE)


def named_by_licence_id(path: str, licence_file: bool | None = None) -> bool:
    """Whether ``path``'s file name, less a ``.txt``/``.md``/``.rst`` extension, is one SPDX
    licence id (``GPL-2.0``, ``Apache-2.0.txt``), not a licence file by :func:`is_licence_file`
    (``licence_file``: its answer, when the caller has it)."""
    name = posixpath.basename(path)
    m = _ID_NAME_RE.match(name)
    if m is None or (is_licence_file(path) if licence_file is None else licence_file):
        return False
    return len(licence_ids(m.group("id"))) == 1  # the name has no space: one id, no operator


def governed_folder(path: str) -> str:
    parts = path.split("/")[:-1]
    if parts and parts[0].endswith((".dist-info", ".egg-info")):
        return ""  # the distribution's own licence files: the root's
    for k, part in enumerate(parts):
        if part.endswith((".dist-info", ".egg-info")):
            # a vendored copy's (setuptools/_vendor/packaging-24.2.dist-info/LICENSE): its own
            # folder here; read_source_licence gives it the package folders its RECORD lists
            return "/".join(parts[: k + 1])
    return "/".join(parts)


# A bundled library's part of a licence text: "Name: X" with "Files: PATTERNS" on the next line.
_BUNDLED_NAME_RE = re.compile(r"^\s*Name:\s*\S")
_BUNDLED_FILES_RE = re.compile(r"^\s*Files:\s*(?P<patterns>\S.*)$")
PYTHON_SUFFIXES = (".py", ".pyi")


def _may_match_python(pattern: str) -> bool:
    """Whether a ``Files:`` glob can match a Python file: its last component ends in a wildcard, or
    its literal ending (after the last wildcard) is a Python suffix."""
    last = pattern.rstrip("/").rsplit("/", 1)[-1]
    ending = re.split(r"[*?\]]", last)[-1]
    return not ending or ending.lower().endswith(PYTHON_SUFFIXES)


def without_bundled_binaries(text: str) -> str:
    """``text`` less its parts for bundled non-Python files (module docstring): a part runs from a
    ``Name:`` line followed by a ``Files:`` line to the next such pair or the end; it is left
    out when none of its ``Files:`` patterns can match a Python file."""
    lines = text.split("\n")
    starts = [k for k in range(len(lines) - 1)
              if _BUNDLED_NAME_RE.match(lines[k]) and _BUNDLED_FILES_RE.match(lines[k + 1])]
    if not starts:
        return text
    kept = lines[: starts[0]]
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        found = _BUNDLED_FILES_RE.match(lines[start + 1])
        patterns = re.split(r"[,\s]+", found.group("patterns").strip()) if found else []
        if any(_may_match_python(p) for p in patterns if p):
            kept += lines[start:end]
    return "\n".join(kept)


# A licence text titled with one licence is that licence; where that licence's text ends and more
# text follows that opens with other copyright lines, the rest is other software's licences,
# appended with no heading (pandas 2.2.3's wheel LICENSE, also its METADATA ``License``: "BSD
# 3-Clause License", its text, then bundled Bottleneck's BSD, dateutil's Apache-2.0 and BSD,
# haven's MIT, ... : read as "Apache-2.0 AND BSD-3-Clause AND MIT AND Python-2.0", with
# Bottleneck's and dateutil's authors as pandas' holders). Title (folded) -> the phrase its
# licence's text ends with (the sentence holding it is the last).
_TITLED_ENDINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:the )?(?:new |modified |revised )?bsd [234]-clause (?:\"?(?:new|simplified|revised)\"? )?"
                r"(?:or \"?(?:revised|freebsd)\"? )?licen[cs]e"), "possibility of such damage"),
    (re.compile(r"(?:the )?mit licen[cs]e(?: \(mit\))?(?: \(expat\))?"), "other dealings in the software"),
    (re.compile(r"isc licen[cs]e(?: \(iscl\))?"), "the use or performance of this software"),
)
_TITLE_SIGNS = " \t#*=-_`\"'"


def without_appended_licences(text: str) -> str:
    """``text`` up to the end of its titled licence (:data:`_TITLED_ENDINGS`) when what follows
    holds copyright lines of its own: those parts are other software's licences, not the
    project's (their licences and holders are left out). Else ``text`` whole: an untitled text
    (python-dateutil's own LICENSE, its Apache-2.0 part then its BSD part, is both its licences)
    and a title followed by prose without holders ("The above BSD License applies to all
    code") stay as they are."""
    lines = text.lstrip("\n").split("\n", 1)
    title = " ".join(lines[0].strip(_TITLE_SIGNS).lower().split())
    for pattern, ending in _TITLED_ENDINGS:
        if not pattern.fullmatch(title):
            continue
        found = re.search(re.escape(ending).replace("\\ ", r"\s+") + r"[^\n]*?\.", text, re.IGNORECASE)
        if found is None:
            return text
        rest = text[found.end():]
        return text[: found.end()] if copyright_lines(rest.split("\n")) else text
    return text


# A NOTICE's statement that the release includes another project's code ("Botocore includes
# vendorized parts of the requests python library", "This product includes software developed by
# X"): the copyright lines after it are that code's holders.
_INCLUDED_PART_RE = re.compile(
    r"\b(?:includes|contains|bundles|incorporates)\s+(?:\w+\s+){0,3}?(?:code|software|portions|parts)"
    r"\s+(?:(?:(?:taken|derived|adapted|copied)\s+)?(?:from|of)|developed\s+(?:at|by))\b", re.IGNORECASE)


def without_included_parts(text: str) -> str:
    """A NOTICE's text up to the line that, after its first copyright line, says the release
    includes another project's code (:data:`_INCLUDED_PART_RE`), when copyright lines follow it:
    those are the included code's holders, which the NOTICE reproduces for it, not the project's
    (botocore 1.35's NOTICE names Amazon, then for its vendored parts of requests and urllib3
    Kenneth Reitz and Andrey Petrov, who were read as the holders of every botocore file without
    a copyright line of its own). Else ``text`` whole."""
    first = _STATEMENT_START_RE.search(text)
    if first is None:
        return text
    found = _INCLUDED_PART_RE.search(text, first.end())
    if found is None:
        return text
    start = text.rfind("\n", 0, found.start()) + 1
    return text[:start] if copyright_lines(text[start:].split("\n")) else text


# A heading that opens other software's licences after the project's own ("Licenses for
# incorporated software", Sphinx 1.8.5's LICENSE, under its own "License for Sphinx": smartypants'
# BSD-3-Clause, jQuery's and Underscore's MIT, numpydoc's BSD): a line of its own, title signs aside.
_INCORPORATED_HEADING_RE = re.compile(
    r"(?:licen[cs]es?|copyrights?(?: and licen[cs]es?)?|notices?)\s+(?:for|of)\s+(?:the\s+)?"
    r"(?:incorporated|included|bundled|embedded|vendored|third[- ]party)\s+"
    r"(?:software|code|libraries|components|packages|modules|works)\s*:?")


def without_incorporated_licences(text: str) -> str:
    """``text`` up to a heading line that opens other software's licences
    (:data:`_INCORPORATED_HEADING_RE`), when copyright lines come before it (the project's own
    notice) and after it (the included code's): the parts after it are that code's licences and
    holders, not the project's (Sphinx 1.8.5's LICENSE, its team's BSD-2-Clause then smartypants',
    jQuery's, Underscore's and numpydoc's, read as "BSD-3-Clause AND MIT" with John Resig among
    Sphinx's holders). Else ``text`` whole."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        title = " ".join(line.strip(_TITLE_SIGNS).lower().split())
        if title and _INCORPORATED_HEADING_RE.fullmatch(title):
            if copyright_lines(lines[:k]) and copyright_lines(lines[k + 1:]):
                return "\n".join(lines[:k])
            return text
    return text


# A path a section names: a Python file ``double backquoted``, `backquoted` or plain
# ("passlib/crypto/des.py", "md5_crypt.py"), or a folder only when quoted (``kit/legacy/``): plain
# prose holds "and/or"; a URL's tail is no path of the release. A backslash separates as "/" does
# (a path written on Windows, ``kit\legacy``); :func:`incorporated_parts` writes it as "/".
_NAMED_PATH_RE = re.compile(r"(?<![\w./\\:~-])(?:`{1,2}(?P<quoted>[A-Za-z0-9_][\w.-]*(?:[/\\][\w.-]+)+)[/\\]?`{1,2}|"
                            r"(?P<path>[A-Za-z0-9_][\w.-]*(?:[/\\][\w.-]+)*\.pyi?))(?![\w/\\-])")
# A section's own heading: a line underlined (reST) or a Markdown heading.
_UNDERLINE_RE = re.compile(r"^\s*([=\-~^*#+])\1{2,}\s*$")
_MARKDOWN_HEADING_RE = re.compile(r"^\s*#{1,6}\s+\S")


def incorporated_parts(text: str) -> tuple[IncorporatedPart, ...]:
    """The sections after a licence text's incorporated-software heading (the part
    :func:`without_incorporated_licences` leaves out) that name paths, each with its licence and
    holders. passlib 1.7.4's LICENSE: "The source file ``passlib/handlers/md5_crypt.py`` contains
    code derived from the original FreeBSD md5-crypt implementation ..., which is available under
    the following license::" and the Beer-ware notice; likewise ``passlib/crypto/des.py`` (Aki
    Yoshida's) and ``passlib/crypto/_blowfish/base.py`` (Damien Miller's ISC). A section runs from
    its heading (an underlined or Markdown heading line) to the next; which named paths are the
    release's files the caller decides (a section about JavaScript libraries names none)."""
    own = without_incorporated_licences(text)
    if own == text:
        return ()
    lines = text[len(own):].split("\n")[2:]  # from the line after the heading (an underline there starts no section)
    starts = [0, *(k for k in range(1, len(lines)) if _MARKDOWN_HEADING_RE.match(lines[k])
                   or (_UNDERLINE_RE.match(lines[k]) and lines[k - 1].strip()
                       and not _UNDERLINE_RE.match(lines[k - 1])))]
    starts = sorted({k - 1 if _UNDERLINE_RE.match(lines[k]) else k for k in starts if k} | {0})
    parts = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        section = lines[start:end]
        paths = tuple(dict.fromkeys((m.group("quoted") or m.group("path")).replace("\\", "/")
                                    for line in section for m in _NAMED_PATH_RE.finditer(line)))
        if paths:
            found = "\n".join(section)
            expression = notice_expression(found)
            # one section naming several files under several licences (no sub-headings between
            # them) cannot say which licence is whose: it gives none rather than all to each
            if len(paths) > 1 and len(licence_ids(expression)) > 1:
                continue
            parts.append(IncorporatedPart(paths, expression, copyright_lines(section)))
    return tuple(parts)


def governing_text(text: str) -> str:
    """The part of a licence text that speaks for the project's own Python files: without parts
    for bundled binaries (:func:`without_bundled_binaries`) and without other software's licences
    appended after its own (:func:`without_appended_licences`) or under a heading that says so
    (:func:`without_incorporated_licences`)."""
    return without_incorporated_licences(without_appended_licences(without_bundled_binaries(text)))


def licence_text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


# A licence text's own prose ("copyright license to reproduce, ...") can start a wrapped line with
# "copyright": in licence files a copyright line must also carry a year, (c) or the sign ...
_HOLDER_EVIDENCE_RE = re.compile(r"\b(?:19|20)\d\d\b|\(c\)|©", re.IGNORECASE)
# ... or be written as a title, "Copyright" and a capitalised name that is no licence term
# ("Copyright Steven Loria and contributors", marshmallow 3.22; "Copyright Jason R. Coombs",
# setuptools; "Copyright The OpenTelemetry Authors"). The licences' prose writes "copyright
# license", "COPYRIGHT HOLDERS BE LIABLE", "Copyright Holder(s) and the Author(s)" (the OFL),
# "Copyright and Related Rights" (CC0) or "Copyright: This document ..." (docutils' COPYING).
_TITLED_HOLDER_RE = re.compile(
    r"\s*Copyright[ \t]+(?!(?:Holders?|Owners?|Notices?|Licen[cs]es?|Laws?|Acts?|Statements?|Rights?|Terms?)\b)"
    r"[A-Z]")

# A quoted statement whose holder starts on the next line: CPython's LICENSE asks that "CNRI's
# notice of copyright, i.e., "Copyright (c)" / "1995-2001 Corporation for National Research
# Initiatives; All Rights Reserved" are retained", and the marker rules see no holder on the
# first line.
_QUOTED_START_RE = re.compile(r'"(Copyright\b[^"]*)$')


# Licence files joined without a line break between them: a sentence's full stop runs straight
# into the next file's first line (pandas 2.2.3's LICENSE: "POSSIBILITY OF SUCH DAMAGE.Copyright
# 2017- Paul Ganssle", "that text has been removed.Copyright (c) 2005-2023, NumPy Developers.").
_GLUED_RE = re.compile(r"(?<=[.)])(?=Copyright\b)")


# The licence document's own copyright: the GNU licences' texts (and the Artistic licence's) open
# with their publisher's line, "Copyright (C) 2007 Free Software Foundation, Inc." and then
# "Everyone is permitted to copy and distribute verbatim copies of this license document". It
# covers the licence's text, not the software under it: yolov5 7.0.0's and ultralytics 8.0.0's
# GPL-3.0 LICENSE made the FSF the holder of all their code (ATTRIBUTION.md credited it, and 45
# of ultralytics' copied files read "copyright missing" for lack of it).
_LICENCE_DOCUMENT_RE = re.compile(r"everyone is permitted to copy and distribute verbatim copies")
_LICENCE_DOCUMENT_LINES = 3  # the statement's own wrapped lines (an address) before that sentence


def _of_licence_document(lines: list[str], k: int, starts: dict[int, str]) -> bool:
    """Whether the copyright statement on line ``k`` (0-based) is the licence text's own: that
    sentence follows it within a few lines, before any other copyright statement."""
    for j in range(k + 1, min(k + 1 + _LICENCE_DOCUMENT_LINES, len(lines))):
        if j in starts:
            return False
        if _LICENCE_DOCUMENT_RE.search(" ".join(lines[j].lower().split())):
            return True
    return False


# Debian's machine-readable copyright format (DEP-5: "Files:" / "Copyright:" / "License:" stanzas,
# scikit-image 0.24's LICENSE.txt) writes a Copyright field's further statements on indented
# continuation lines without the word: "Copyright: 2003-2009 Massachusetts Institute of
# Technology" / "           2003-2005 Peter J. Verveer". Only the field's first line was read, so
# Verveer's line there did not keep scipy.ndimage's copyright in the four files that copy it.
_DEP5_FILES_RE = re.compile(r"^Files?:\s*\S")
_DEP5_COPYRIGHT_RE = re.compile(r"^Copyright:[ \t]*\S")
# a continuation line opening a statement of its own (years, a sign); any other wraps the one above
_DEP5_STATEMENT_RE = re.compile(r"(?:19|20)\d\d\b|\(c\)|©|Copyright\b", re.IGNORECASE)


def _dep5_statements(lines: list[str]) -> list[str]:
    """``lines`` with each DEP-5 Copyright field's continuation lines made statements of their
    own ("Copyright: " + the line) or joined to the statement they wrap (left blank, so line
    numbers hold); a file with no ``Files:`` field at a line's start is not in that format."""
    if not any(_DEP5_FILES_RE.match(line) for line in lines):
        return lines
    out = list(lines)
    field = -1  # the line of the field statement a wrapped continuation joins, -1 outside a field
    for k, line in enumerate(lines):
        if _DEP5_COPYRIGHT_RE.match(line):
            field = k
        elif field < 0 or not line.strip() or not line[:1].isspace():
            field = -1
        elif line.strip() != ".":  # a lone "." is the format's blank line
            text = line.strip()
            if _DEP5_STATEMENT_RE.match(text):
                out[k], field = (text if text.lower().startswith("copyright") else f"Copyright: {text}"), k
            else:
                out[field], out[k] = f"{out[field].rstrip()} {text}", ""
    return out


def copyright_lines(lines: list[str]) -> tuple[str, ...]:
    """Copyright lines of a plain-text file (the marker rules read every line as prose), each
    statement whole (:func:`_whole_statement`); the licence document's own is not one
    (:func:`_of_licence_document`)."""
    lines = [part for line in _dep5_statements(lines) for part in _GLUED_RE.split(line)]
    starts = {m.line - 1: m.text for m in find_markers(lines, ["docstring"] * len(lines)) if m.kind == "copyright"}
    for k, line in enumerate(lines):
        if k not in starts and (quoted := _QUOTED_START_RE.search(line)):
            starts[k] = quoted.group(1)
    whole = (_whole_statement(lines, k, starts[k]) for k in sorted(starts)
             if not _of_licence_document(lines, k, starts))
    return tuple(dict.fromkeys(t for t in whole if not is_template(t)
                               and (_HOLDER_EVIDENCE_RE.search(t) or _TITLED_HOLDER_RE.match(t))))


_QUOTED_STATEMENT_LINES = 3  # a licence's prose wraps a quoted copyright statement over a few lines
# A statement's next line inside a comment block starts with the block's sign (libsodium's ISC
# notice: " * Copyright (c) 2013-2026" / " * Frank Denis <j at pureftpd dot org>"): not the holder's.
_CONTINUED_SIGNS_RE = re.compile(r"^\s*(?:\*+|#+|//+)\s?")
# A list of holders one per line, joined by "or"/"and" at each line's end (musl's "Much of the
# math library code is Copyright (c) 1993,2004 Sun Microsystems or" / "Copyright (c) 2003-2011
# David Schultz or" / ...), and a sentence after the holder's full stop about the licence ("...
# David Burren. It is licensed under a BSD license."): neither is part of the holder.
_TRAILING_RE = re.compile(r"\s+(?:or|and)$|(?<=\.)\s+(?:It|This|That)\s+(?:is|was|are)\s+"
                          r"(?:licen[cs]ed|distributed|released|available|provided)\b.*$")


def _whole_statement(lines: list[str], k: int, text: str) -> str:
    """The copyright statement that starts with ``text`` on line ``k`` (0-based), as a licence
    file wraps it: a line that ends with a comma (a list of years, a holder's address) goes on
    on the next non-blank line; a statement quoted in the licence's prose (the PSF licence's
    'i.e., "Copyright (c) 2001, ... Python Software Foundation; All Rights Reserved" are
    retained') ends at its closing quote; one whose line names no holder, only years, goes on
    to the next line unless that line is a copyright statement of its own (ultrajson's notice in
    pandas 2.2.3's LICENSE: "Copyright 2005, 2006, 2007" / "Nick Galbreath -- nickg [at] modp
    [dot] com"). Else the line would credit a holder it cuts off."""
    start = max(lines[k].find(text), 0)
    quoted = lines[k][:start].rstrip().endswith('"')
    closed = '"' in lines[k][start:]  # the marker's text may stop short of the closing quote
    first, last = text, k + _QUOTED_STATEMENT_LINES
    # a quoted statement goes on to its closing quote, over at most a few lines ("...Python
    # Software Foundation; All" / "Rights Reserved\" are retained" in CPython's licence)
    while ((text.rstrip().endswith(",") or (quoted and not closed and k < last)
            or (not holder(text) and k + 1 < len(lines) and may_name_holder(lines[k + 1])))
           and k + 1 < len(lines) and lines[k + 1].strip()):
        k += 1
        closed = closed or '"' in lines[k]
        text = f"{text.rstrip()} {_CONTINUED_SIGNS_RE.sub('', lines[k]).strip()}"
    if quoted and not closed:  # no closing quote near: the line alone, not the prose after it
        return first.split('"', 1)[0].rstrip()
    return text.split('"', 1)[0].rstrip() if quoted else _TRAILING_RE.sub("", text.rstrip())


# A Markdown link (``[label](url)``): a licence file written in Markdown reads as the text it
# renders, so starlette 0.41's LICENSE.md "Copyright © 2018, [Encode OSS Ltd](https://www.encode.io/)."
# credits "Encode OSS Ltd", not the link's source.
_MARKDOWN_LINK_RE = re.compile(r"\[([^\[\]\n]+)\]\((?:https?://|mailto:)[^()\s]*\)")
_MARKDOWN_SUFFIXES = (".md", ".markdown")

# A licence text that opens, before any copyright statement, by saying the release includes
# another project's code: Django 5.1's LICENSE.python, "Django includes code from the Python
# standard library, which is licensed under the Python license ... The copyright and license is
# included below for compliance with Python's terms."
_INCLUDED_CODE_RE = re.compile(
    r"\b(?:includes|contains|bundles|incorporates)\s+(?:\w+\s+){0,3}?(?:code|software|portions|parts)"
    r"\s+(?:(?:taken|derived|adapted|copied)\s+)?from\b", re.IGNORECASE)
_STATEMENT_START_RE = re.compile(r"^\W*copyright\b", re.IGNORECASE | re.MULTILINE)


def for_included_code(text: str) -> bool:
    """Whether a licence text is another project's, for code the release includes: it says so
    (:data:`_INCLUDED_CODE_RE`) before its first copyright statement, and has one. A project's
    own licence that mentions included code after its own holder's line stays its own."""
    first = _STATEMENT_START_RE.search(text)
    return first is not None and _INCLUDED_CODE_RE.search(" ".join(text[: first.start()].split())) is not None


def read_licence_file(path: str, data: bytes) -> LicenceFile:
    role = "notice" if posixpath.basename(path).upper().startswith("NOTICE") else "licence"
    sha256, expression, copyrights, lines, included, retained, notice_own, parts = _licence_text_facts(data)
    if role == "notice" and notice_own is not None:  # a NOTICE without its included code's holders
        # (the whole text's lines: ``retained`` when its governing part is less, else ``copyrights``)
        copyrights, retained = notice_own, retained or copyrights
    name = posixpath.basename(path)
    included = included or bool(_INCLUDED_NAME_RE.search(name)) or (
        not _LICENCE_NAME_RE.match(name) and bool(named_licence_file(name)))
    if path.lower().endswith(_MARKDOWN_SUFFIXES):
        copyrights = tuple(dict.fromkeys(_MARKDOWN_LINK_RE.sub(r"\1", c) for c in copyrights))
        retained = tuple(dict.fromkeys(_MARKDOWN_LINK_RE.sub(r"\1", c) for c in retained))
    return LicenceFile(
        path=path, role=role, folder=governed_folder(path), sha256=sha256, expression=expression,
        copyrights=copyrights, lines=lines if role == "notice" else (), included_code=included,
        retained_copyrights=tuple(c for c in retained if c not in copyrights),
        incorporated=parts if role == "licence" and not included else ())


@lru_cache(maxsize=256)
def _licence_text_facts(data: bytes) -> tuple[str, str, tuple[str, ...], tuple[str, ...], bool, tuple[str, ...],
                                               tuple[str, ...] | None, tuple[IncorporatedPart, ...]]:
    """What a licence file's bytes say (digest, licence expression, copyright lines, non-blank
    lines, whether it is for included code, the whole text's copyright lines when its governing
    part is less, and, read as a NOTICE, its copyright lines without its included code's parts
    when that is less: :func:`without_included_parts`, else None; its incorporated-software sections
    naming paths, :func:`incorporated_parts`), memoised: ``history`` reads the same few licence
    files at every commit, and reading their copyright lines was a seventh of its time on pip's last 50 commits."""
    text = licence_text(data)
    lines = text.split("\n")
    governing = governing_text(text)
    own = without_included_parts(governing)
    return (hashlib.sha256(data).hexdigest(), licence_file_expression(text, governing),
            copyright_lines(governing.split("\n")), tuple(s.strip() for s in lines if s.strip()),
            for_included_code(text), copyright_lines(lines) if governing != text else (),
            copyright_lines(own.split("\n")) if own != governing else None,
            incorporated_parts(text) if governing != text else ())
