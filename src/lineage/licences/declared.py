"""What a source declares about its licence: metadata, licence files, NOTICE files.

Read once per source while it is open (:func:`read_source_licence`), from the source's own files
through :meth:`lineage.sources.Source.paths` / ``read``:

* core metadata: a wheel's ``*.dist-info/METADATA`` or an sdist's ``PKG-INFO``, else a
  ``pyproject.toml`` ``[project] license`` (a string is PEP 639's SPDX expression; a table's
  ``text`` is read like METADATA ``License``);
* licence files anywhere in the tree: names starting ``LICENSE``/``LICENCE``/``LICENSES``/``COPYING``/
  ``COPYRIGHT``/``NOTICE``/``THIRD_PARTY_LICENSES`` (any case, optional extension), at most 1 MiB;
  one whose name says third-party or bundled is for included code (``LicenceFile.included_code``).
  Files inside the top ``*.dist-info`` count as the root's. A licence file in a sub-folder (a
  vendored library's) governs the files under that folder; one inside a vendored copy's own
  ``*.dist-info`` (``setuptools/_vendor/packaging-24.2.dist-info/LICENSE.APACHE``) governs the
  package folders its RECORD lists (``setuptools/_vendor/packaging``), not the root; without a
  RECORD, the package folder beside it named after it (:func:`_named_package_folders`). A
  distribution that is one module has no folder: its licence governs that module, the RECORD's
  top-level module or the one beside it named after it (setuptools 75.1.0's
  ``_vendor/typing_extensions-4.12.2.dist-info/LICENSE`` governs ``_vendor/typing_extensions.py``).

A licence text's part for software bundled as binaries (numpy's and scipy's wheels append
"This binary distribution of SciPy also bundles the following software:" and, per library, a
``Name:`` line, a ``Files: scipy.libs/libgfortran*.so`` line and its licence) governs those files
only: a part whose ``Files:`` patterns cannot match a Python file is left out of the licence and
copyright lines read from that text (:func:`without_bundled_binaries`). scipy 1.12.0's METADATA
``License`` read ``BSD-3-Clause AND GPL-3.0-or-later AND LGPL-2.0-or-later`` (libgfortran's and
libquadmath's), and every scikit-learn file copying scipy Python code was a GPL conflict.

The declared licence, first that gives one: ``License-Expression``; ``License`` when it is a valid
SPDX expression, names one licence in words (:func:`lineage.licences.expressions.named_licence`:
"Apache License 2.0") or holds a notice our rules recognise; a root licence file that opens by offering
a choice (:func:`lineage.licences.notices.offers_choice`: packaging's ``LICENSE``, "either of the
licenses found in LICENSE.APACHE or LICENSE.BSD"), which makes the licences of the root licence
files it names (else of the other root licence files) a choice, ``A OR B``; the licence
classifiers (several are a choice, ``A OR B``); the pyproject ``license``; the root licence files'
recognised notices (all of them, ``A AND B``; but when ``License`` is a family's bare name, "LGPL",
and the files name one licence of it, that one: :func:`_of_named_family`). ``declared_from`` says which.

A classifier that names a family, not a licence (:data:`FAMILY_CLASSIFIERS`: "BSD License"),
never decides which licence of the family: when it is one of several licence classifiers (a
choice) and no other classifier names a licence of its family, the root licence files' notices
must name exactly one licence of the family, which takes its place; else the classifiers do not
decide (the choice they offer cannot be written whole). Alone it is passed over, as before.

A release whose licence and NOTICE files name no holder may state one in code: requests 2.32's
only copyright line is ``__copyright__ = "Copyright Kenneth Reitz"`` in ``requests/__version__.py``,
and its LICENSE is the bare Apache text. A package's ``__init__.py``, ``__version__.py`` or
``__about__.py`` assigning ``__copyright__`` one plain string literal at its top level that reads
as a copyright line (:attr:`SourceLicence.package_copyrights`) speaks for the files of that package
(:meth:`SourceLicence.package_copyrights_above`: the deepest such package above a file): an
upstream file without copyright lines of its own, under no folder or root licence file that names a
holder, is under it; a target file keeps it when its own package states it (niquests' ``__version__.py``,
pip's vendored ``_vendor/requests/__version__.py``). A top-level package's (also under ``src/``)
is the release's holder when the root files name none (:attr:`SourceLicence.copyrights`). A
formatted string (packaging's ``"2014 %s" % __author__``) is not read; nor are test folders.

"License :: Public Domain" is :data:`lineage.licences.expressions.PUBLIC_DOMAIN` when it is the
only licence classifier (pycrypto 2.6.1). Beside other licence classifiers it says that some parts
are public domain, not that the whole may be taken so (pycryptodome 3.20.0 lists it with BSD and
Apache-2.0, its LICENSE.rst: "partially in the public domain"; docutils 0.21 with PSF, BSD and GPL):
it is left out of their choice, and a public-domain file says so in its own header (a notice,
which ranks above the declared licence).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from lineage.licences.expressions import PUBLIC_DOMAIN, combine_all, combine_any, licence_ids, named_licence, normalise
from lineage.licences.notices import (
    first_paragraph,
    holder,
    holders,
    is_template,
    notice_expression,
    offers_choice,
)
from lineage.markers import find_markers
from lineage.markers.attribution import is_copyright, may_name_holder
from lineage.markers.pointers import named_licence_file
from lineage.sources.distinfo import core_metadata, package_folders, record_files, top_modules

if TYPE_CHECKING:
    from lineage.sources import Source

MAX_LICENCE_FILE_BYTES = 1 << 20
# "LICENSES" too: numba 0.60's wheel keeps cloudpickle's BSD-3-Clause text in its dist-info's
# ``LICENSES.third-party``, and its vendored ``numba/cloudpickle/`` read "licence-notice" missing.
_LICENCE_NAME_RE = re.compile(r"^(?:LICEN[CS]ES?|COPYING|COPYRIGHT|NOTICE|THIRD[_-]PARTY[_-]LICEN[CS]ES)"
                              r"(?:[._-][A-Za-z0-9._-]*)?$", re.IGNORECASE)
# A licence file whose name says it holds other software's licences (``THIRD_PARTY_LICENSES``,
# ``LICENSES.third-party``, ``LICENSES_bundled.txt``) is for included code, as one that opens saying
# so (:func:`for_included_code`): its holders and licences are that code's, not the release's.
_INCLUDED_NAME_RE = re.compile(r"third[_. -]?party|bundled", re.IGNORECASE)
# Also a licence file named after another project (:func:`lineage.markers.pointers.named_licence_file`:
# dask's ``dask/array/NUMPY_LICENSE.txt``, which its numpy-derived functions point to): that
# project's licence and holders, for code the release includes, so ``included_code``.
_NOT_TEXT = (".py", ".pyc", ".pyi", ".so", ".pyd", ".c", ".h", ".cpp", ".cu", ".json", ".html", ".js")

# Trove licence classifiers -> SPDX (the unambiguous ones; "BSD License" could be 2- or 3-clause
# and is left to the licence files).
CLASSIFIERS: dict[str, str] = {
    "License :: OSI Approved :: Apache Software License": "Apache-2.0",
    "License :: OSI Approved :: MIT License": "MIT",
    "License :: OSI Approved :: MIT No Attribution License (MIT-0)": "MIT-0",
    "License :: OSI Approved :: ISC License (ISCL)": "ISC",
    "License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
    "License :: OSI Approved :: GNU General Public License v2 (GPLv2)": "GPL-2.0-only",
    "License :: OSI Approved :: GNU General Public License v2 or later (GPLv2+)": "GPL-2.0-or-later",
    "License :: OSI Approved :: GNU General Public License v3 (GPLv3)": "GPL-3.0-only",
    "License :: OSI Approved :: GNU General Public License v3 or later (GPLv3+)": "GPL-3.0-or-later",
    "License :: OSI Approved :: GNU Lesser General Public License v2 (LGPLv2)": "LGPL-2.0-only",
    "License :: OSI Approved :: GNU Lesser General Public License v2 or later (LGPLv2+)": "LGPL-2.0-or-later",
    "License :: OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)": "LGPL-3.0-only",
    "License :: OSI Approved :: GNU Lesser General Public License v3 or later (LGPLv3+)": "LGPL-3.0-or-later",
    "License :: OSI Approved :: GNU Affero General Public License v3": "AGPL-3.0-only",
    "License :: OSI Approved :: GNU Affero General Public License v3 or later (AGPLv3+)": "AGPL-3.0-or-later",
    "License :: OSI Approved :: Python Software Foundation License": "PSF-2.0",
    "License :: OSI Approved :: The Unlicense (Unlicense)": "Unlicense",
    "License :: OSI Approved :: zlib/libpng License": "Zlib",
    "License :: OSI Approved :: Boost Software License 1.0 (BSL-1.0)": "BSL-1.0",
    "License :: CC0 1.0 Universal (CC0 1.0) Public Domain Dedication": "CC0-1.0",
    "License :: Public Domain": PUBLIC_DOMAIN,  # alone only (module docstring)
}
# Classifiers that name a licence family -> the prefix of its SPDX ids.
FAMILY_CLASSIFIERS: dict[str, str] = {
    "License :: OSI Approved :: BSD License": "BSD-",
    "License :: OSI Approved :: GNU General Public License (GPL)": "GPL-",
    "License :: OSI Approved :: GNU Library or Lesser General Public License (LGPL)": "LGPL-",
}
# a family prefix -> its classifier as written (SourceLicence.family_classifiers)
_FAMILY_NAMES = {prefix: name for name, prefix in FAMILY_CLASSIFIERS.items()}


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


@dataclass(frozen=True)
class SourceLicence:
    """One source's declared licence and licence files; JSON-serialisable via :meth:`to_dict`."""

    declared: str = ""  # normalised SPDX expression, "" when none could be read
    declared_from: str = ""  # METADATA License-Expression | METADATA License | classifiers | ...
    declared_raw: str = ""  # the metadata text it came from (first 200 characters)
    files: tuple[LicenceFile, ...] = field(default_factory=tuple)
    # (folder, choice, licence file stating it) per sub-folder whose licence file offers a choice
    # (a vendored dual-licensed copy's dist-info); not in to_dict: folder_licence answers with it
    choices: tuple[tuple[str, str, str], ...] = ()
    # (copyright line, package module) of every package's ``__copyright__`` string (module docstring)
    package_copyrights: tuple[tuple[str, str], ...] = ()
    # the metadata's classifiers naming a licence family ("BSD License"), as written; not in to_dict:
    # summary.md says why a release declaring only a family reads `unknown` (family_sentence)
    family_classifiers: tuple[str, ...] = ()

    @property
    def notice_lines(self) -> tuple[str, ...]:
        """Root NOTICE files' lines: what an Apache-2.0 redistribution must reproduce."""
        return tuple(line for f in self.files if f.role == "notice" and f.folder == "" for line in f.lines)

    @property
    def notice_paths(self) -> tuple[str, ...]:
        return tuple(f.path for f in self.files if f.role == "notice" and f.folder == "")

    def _root_copyrights(self, notices: bool = True, included: bool = True) -> tuple[str, ...]:
        """The root files' copyright lines, each once, in file order (``notices``: NOTICE files
        too; ``included``: licence files for included code too)."""
        return tuple(dict.fromkeys(c for f in self.files if f.folder == "" and (notices or f.role != "notice")
                                   and (included or not f.included_code) for c in f.copyrights))

    @property
    def copyrights(self) -> tuple[str, ...]:
        """The release's holders: the root licence and NOTICE files' copyright lines, else its
        packages' ``__copyright__`` strings (module docstring)."""
        return self._root_copyrights() or tuple(dict.fromkeys(
            line for line, path in self.package_copyrights if len(_package_parts(path)) == 2))

    def package_copyrights_above(self, path: str) -> tuple[tuple[str, ...], str]:
        """(copyright lines, package module) of the deepest package above ``path`` whose
        ``__copyright__`` names a holder (module docstring), else ``((), "")``."""
        above = [module for _, module in self.package_copyrights if path.startswith(posixpath.dirname(module) + "/")]
        best = max(above, key=lambda module: len(posixpath.dirname(module)), default="")
        return tuple(line for line, module in self.package_copyrights if module == best), best

    @property
    def file_fallback_copyrights(self) -> tuple[str, ...]:
        """The holders a file without copyright lines of its own is under: those of the root
        licence files, else (none there) of the root NOTICE files. A NOTICE may list the holders
        of code adapted from other projects (marshmallow 2.21's: Twilio, Django, pytz, six), which
        speak for those parts, not for every file; what a NOTICE asks of a redistribution is
        checked as the NOTICE itself (obligations.csv ``notice_lines``). A licence file for
        included code (``included_code``: Django's LICENSE.python, the PSF's, CNRI's and CWI's
        lines) speaks for that code alone, never for a file without lines of its own."""
        return (self._root_copyrights(notices=False, included=False)
                or self._root_copyrights(included=False))

    def folder_copyrights(self, path: str) -> tuple[tuple[str, ...], str]:
        """(copyright lines, licence file) of the deepest sub-folder licence file above ``path``
        that has any and is not for included code, else ``((), "")``: a file without lines of its
        own is under its folder's holders as under its folder's licence (:meth:`folder_licence`):
        numpy's ``numpy/ma/extras.py`` under ``numpy/ma/LICENSE``'s "University of Georgia and
        Pierre G.F. Gerard-Marchant", not the root's NumPy Developers."""
        best = self._deepest_folder_file(path, lambda f: f.role == "licence" and bool(f.copyrights))
        return (best.copyrights, best.path) if best is not None else ((), "")

    def folder_licence(self, path: str) -> tuple[str, str]:
        """(expression, licence file) of the deepest sub-folder licence file above ``path``; the
        choice it offers, and the file that says so, when one of that folder's files offers one."""
        best = self._deepest_folder_file(path, lambda f: bool(f.expression))
        if best is None:
            return "", ""
        stated = [(expression, statement) for folder, expression, statement in self.choices if folder == best.folder]
        return stated[0] if stated else (best.expression, best.path)

    def _deepest_folder_file(self, path: str, wanted: Callable[[LicenceFile], bool]) -> LicenceFile | None:
        """The ``wanted`` licence file of the deepest sub-folder above ``path``. Not one for
        included code: it speaks for that code alone (dask's ``dask/array/NUMPY_LICENSE.txt`` is
        neither the licence nor the holders of dask's own files there)."""
        best: LicenceFile | None = None
        for f in self.files:
            if f.folder and not f.included_code and governs(f.folder, path) and wanted(f) and (
                    best is None or len(f.folder) > len(best.folder)):
                best = f
        return best

    def governing_files(self, path: str) -> tuple[LicenceFile, ...]:
        """The licence and NOTICE files that speak for ``path``: those of the deepest sub-folder
        above it that has any (a vendored library's), else the root's; and the licence files for
        included code of deeper folders above it, which add their holders to these, not replace
        them (dask's ``dask/array/NUMPY_LICENSE.txt`` beside dask's own root licence)."""
        above = [f for f in self.files if not f.folder or governs(f.folder, path)]
        folders = [f.folder for f in above if f.folder and not f.included_code]
        folder = max(folders, key=len) if folders else ""
        return tuple(f for f in above if f.folder == folder or (f.included_code and len(f.folder) > len(folder)))

    def to_dict(self) -> dict[str, object]:
        return {
            "declared": self.declared,
            "declared_from": self.declared_from,
            "declared_raw": self.declared_raw,
            # retained_copyrights left out: obligations.csv's copyright_kept_in says where they count
            "files": [{k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(f).items()
                       if k != "retained_copyrights"} for f in self.files],
            # only when read (summary format 15): a release stating none writes what it did before
            **({"package_copyrights": [{"copyright": line, "file": path} for line, path in self.package_copyrights]}
               if self.package_copyrights else {}),
        }


def governs(folder: str, path: str) -> bool:
    """Whether a licence file governing ``folder`` speaks for ``path``: a file under the folder,
    or the path itself when it is a module (a one-module vendored distribution's, module docstring)."""
    return path.startswith(folder + "/") or (path == folder and path.endswith(_PYTHON_SUFFIXES))


def _is_licence_file(path: str) -> bool:
    name = posixpath.basename(path)
    return bool(_LICENCE_NAME_RE.match(name) or named_licence_file(name)) and not name.lower().endswith(_NOT_TEXT)


def _folder(path: str) -> str:
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
_PYTHON_SUFFIXES = (".py", ".pyi")


def _may_match_python(pattern: str) -> bool:
    """Whether a ``Files:`` glob can match a Python file: its last component ends in a wildcard, or
    its literal ending (after the last wildcard) is a Python suffix."""
    last = pattern.rstrip("/").rsplit("/", 1)[-1]
    ending = re.split(r"[*?\]]", last)[-1]
    return not ending or ending.lower().endswith(_PYTHON_SUFFIXES)


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


def governing_text(text: str) -> str:
    """The part of a licence text that speaks for the project's own Python files: without parts
    for bundled binaries (:func:`without_bundled_binaries`) and without other software's licences
    appended after its own (:func:`without_appended_licences`) or under a heading that says so
    (:func:`without_incorporated_licences`)."""
    return without_incorporated_licences(without_appended_licences(without_bundled_binaries(text)))


def _text(data: bytes) -> str:
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
    sha256, expression, copyrights, lines, included, retained, notice_own = _licence_text_facts(data)
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
        path=path, role=role, folder=_folder(path), sha256=sha256, expression=expression,
        copyrights=copyrights, lines=lines if role == "notice" else (), included_code=included,
        retained_copyrights=tuple(c for c in retained if c not in copyrights))


@lru_cache(maxsize=256)
def _licence_text_facts(data: bytes) -> tuple[str, str, tuple[str, ...], tuple[str, ...], bool, tuple[str, ...],
                                               tuple[str, ...] | None]:
    """What a licence file's bytes say (digest, licence expression, copyright lines, non-blank
    lines, whether it is for included code, the whole text's copyright lines when its governing
    part is less, and, read as a NOTICE, its copyright lines without its included code's parts
    when that is less: :func:`without_included_parts`, else None), memoised: ``history`` reads the same few licence
    files at every commit, and reading their copyright lines was a seventh of its time on pip's last 50 commits."""
    text = _text(data)
    lines = text.split("\n")
    governing = governing_text(text)
    own = without_included_parts(governing)
    return (hashlib.sha256(data).hexdigest(), notice_expression(governing),
            copyright_lines(governing.split("\n")), tuple(s.strip() for s in lines if s.strip()),
            for_included_code(text), copyright_lines(lines) if governing != text else (),
            copyright_lines(own.split("\n")) if own != governing else None)


def _metadata_path(paths: list[str]) -> str:
    meta = sorted(p for p in paths if p.count("/") == 1 and p.endswith(".dist-info/METADATA"))
    if meta:
        return meta[0]
    return "PKG-INFO" if "PKG-INFO" in paths else ""


@dataclass(frozen=True)
class _Metadata:
    """What core metadata says of the licence: its fields' answer (``declared``, ``declared_from``,
    ``raw``; ``""`` when they give none) and its licence classifiers (SPDX ids, family prefixes)."""

    declared: str
    declared_from: str
    raw: str
    classifiers: tuple[str, ...]
    families: tuple[str, ...]


@lru_cache(maxsize=64)  # pure functions of the bytes: history reads the same file at most commits
def _from_metadata(raw: bytes) -> _Metadata:
    message = core_metadata(raw)
    named = [c.strip() for c in message.get_all("Classifier") or []]
    classifiers = tuple(CLASSIFIERS[c] for c in named if c in CLASSIFIERS)
    families = tuple(sorted({FAMILY_CLASSIFIERS[c] for c in named if c in FAMILY_CLASSIFIERS}))
    if len(classifiers) + len(families) > 1:  # public domain beside other licences: parts only
        classifiers = tuple(c for c in classifiers if c != PUBLIC_DOMAIN)
    expression = str(message.get("License-Expression") or "").strip()
    if expression and normalise(expression):
        return _Metadata(normalise(expression), "METADATA License-Expression", expression, classifiers, families)
    text = str(message.get("License") or "").strip()
    if text and text.upper() != "UNKNOWN":
        found = normalise(text) or named_licence(text) or notice_expression(governing_text(text))
        if found:
            return _Metadata(found, "METADATA License", text[:200], classifiers, families)
    return _Metadata("", "", (expression or text)[:200], classifiers, families)


def _from_classifiers(meta: _Metadata, root_ids: set[str]) -> tuple[str, str, str]:
    """The classifiers' choice (module docstring), each family classifier replaced by the one
    licence of its family the root licence files name; ``("", "", "")`` when they do not decide."""
    ids = list(meta.classifiers)
    families = [f for f in meta.families if not any(i.startswith(f) for i in ids)]
    if families and ids:  # a choice with a family in it: the licence files say which licence
        for family in families:
            named = sorted(i for i in root_ids if i.startswith(family))
            if len(named) != 1:
                return "", "", ""
            ids.append(named[0])
    if not ids:
        return "", "", ""
    stated = [_or_later_stated(i, root_ids) for i in ids]
    source = "METADATA classifiers" if stated == ids else "METADATA classifiers, 'or later' from the licence files"
    return combine_any(stated), source, "; ".join(sorted(set(ids)))


def _or_later_stated(licence: str, root_ids: set[str]) -> str:
    """``licence``, or its ``-or-later`` form when it is a GNU licence's ``-only`` form that a
    version classifier gave ("GNU General Public License v2 (GPLv2)") and the root licence files'
    notices grant "any later version" of it and never name the ``-only`` form: the classifier
    names the version, the notice whether a later one may be chosen (pyinstaller 6.11.0: the
    GPLv2 classifier, "either version 2 of the License, or (at your option) any later version"
    in its COPYING.txt, and "GPLv2-or-later" in its METADATA License, which no rule reads)."""
    later = licence.removesuffix("-only") + "-or-later"
    if licence.endswith("-only") and later in root_ids and licence not in root_ids:
        return later
    return licence


def _stated_choice(files: list[LicenceFile], texts: dict[str, str], folder: str = "") -> tuple[str, str, str]:
    """The choice a licence file of ``folder`` (the root: ``""``) states (module docstring): the
    licences of that folder's licence files its first paragraph names, else of all the others,
    with the file stating it and its ``declared_from``; ``("", "", "")`` when none states one or
    fewer than two licences are offered."""
    here = [f for f in files if f.folder == folder and f.role == "licence"]
    for statement in here:
        text = texts.get(statement.path, "")
        if not offers_choice(text):
            continue
        words = {w.rstrip(".") for w in re.findall(r"[a-z0-9._-]+", first_paragraph(text).lower())}
        others = [f for f in here if f is not statement and f.expression]
        named = [f for f in others if posixpath.basename(f.path).lower() in words] or others
        offered = sorted({i for f in [statement, *named] for i in licence_ids(f.expression)})
        if len(offered) >= 2:
            paths = ", ".join(f.path for f in named)
            return combine_any(offered), statement.path, f"licence files: {statement.path} offers a choice ({paths})"
    return "", "", ""


@lru_cache(maxsize=64)
def _from_pyproject(raw: bytes) -> tuple[str, str, str]:
    try:
        project = tomllib.loads(raw.decode("utf-8")).get("project", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "", "", ""
    value = project.get("license") if isinstance(project, dict) else None
    if isinstance(value, str):
        return normalise(value), "pyproject.toml license" if normalise(value) else "", value[:200]
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        text = value["text"]
        found = normalise(text) or named_licence(text) or notice_expression(text)
        return found, "pyproject.toml license.text" if found else "", text[:200]
    return "", "", ""


# Licence families whose variants a short METADATA name may mislabel, and which the licence text
# itself settles: BSD's number of clauses is what the text says (configobj 5.0.8: "License: BSD
# (2 clause)" over a LICENSE with the third, no-endorsement clause). Not the GPL: a "GPLv2 or
# later" project often ships the GPL-3.0 text, and its notice, not the text, says which it is.
_TEXT_DECIDES_FAMILIES = ("BSD-",)


def _text_decides_variant(declared: str, declared_from: str, files: list[LicenceFile]) -> tuple[str, str]:
    """``(declared, declared_from)``, or the root licence files' one licence of the same family
    (:data:`_TEXT_DECIDES_FAMILIES`) when the METADATA ``License`` field named another variant."""
    ids = licence_ids(declared) if declared_from == "METADATA License" else ()
    family = next((f for f in _TEXT_DECIDES_FAMILIES if len(ids) == 1 and ids[0].startswith(f)), "")
    if not family:
        return declared, declared_from
    root = {i for f in files if f.folder == "" and f.role == "licence" for i in licence_ids(f.expression)}
    same = sorted(i for i in root if i.startswith(family))
    if len(same) != 1 or same[0] == ids[0]:
        return declared, declared_from
    paths = ", ".join(f.path for f in files if f.folder == "" and same[0] in licence_ids(f.expression))
    return same[0], f"licence files: {paths} (METADATA License named {ids[0]})"


# A METADATA ``License`` that is a licence family's bare name, no version: the prefix of its SPDX ids.
_FAMILY_WORDS: dict[str, str] = {"LGPL": "LGPL-", "GNU LGPL": "LGPL-", "GPL": "GPL-", "GNU GPL": "GPL-",
                                 "BSD": "BSD-"}


def _of_named_family(root: list[LicenceFile], raw: str) -> list[LicenceFile]:
    """The root licence files whose notices name one licence of the family a bare METADATA
    ``License`` names ("LGPL"), when exactly one licence of it is among them; else ``root``.
    An LGPL release ships the GPL's text beside the LGPL's, which is written against it
    (astroid 1.0.0's ``COPYING`` and ``COPYING.LESSER``, ``License: LGPL``): read all, it was
    ``GPL-2.0-or-later AND LGPL-2.1-or-later``, and each of its files without a notice of its
    own copied GPL code into an LGPL project."""
    family = _FAMILY_WORDS.get(" ".join(raw.upper().split()), "")
    if not family:
        return root
    named = {i for f in root for i in licence_ids(f.expression) if i.startswith(family)}
    if len(named) != 1:
        return root
    return [f for f in root if set(licence_ids(f.expression)) <= named]


def _named_package_folders(dist_info: str, present: set[str]) -> set[str]:
    """The package folders a vendored dist-info without a RECORD speaks for: the folder beside it
    named after its distribution, as an import reads the name (flit_core 3.10.1 ships
    ``flit_core/vendor/tomli-1.2.3.dist-info`` with LICENSE and METADATA only, beside
    ``flit_core/vendor/tomli/``; its README says tomli's LICENSE is there), or the module beside
    it so named (a one-module distribution). None when neither is there: the licence then
    governs its own folder, as before."""
    parent, stem = posixpath.split(dist_info)
    name = stem[: -len(".dist-info")].rpartition("-")[0]
    if not name:
        return set()
    tops = {re.sub(r"[-.]+", "_", form) for form in (name, name.lower())}
    folders = {f"{parent}/{top}" if parent else top for top in tops}
    return ({folder for folder in folders if any(p.startswith(folder + "/") for p in present)}
            | {module for folder in folders for suffix in _PYTHON_SUFFIXES if (module := folder + suffix) in present})


def _for_named_module(found: LicenceFile, present: set[str]) -> LicenceFile:
    """``found`` as the own licence of the module or package its name puts before ``.LICENSE``
    when its folder holds it (pip's vendoring names a one-module or namespace package's licence
    so: ``_vendor/typing_extensions.LICENSE`` for ``typing_extensions.py``,
    ``vendor/ruamel.yaml.LICENSE`` for ``ruamel/yaml/``), not a licence for included code of the
    whole folder; else ``found`` unchanged."""
    folder, name = posixpath.split(found.path)
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem or suffix.upper() not in ("LICENSE", "LICENCE"):
        return found
    base = f"{folder}/" if folder else ""
    module = f"{base}{stem}.py"
    package = base + stem.replace(".", "/")
    if module in present:
        return replace(found, folder=module, included_code=False)
    if any(p.startswith(package + "/") for p in present):
        return replace(found, folder=package, included_code=False)
    return found


def _without_stray_copies(files: list[LicenceFile]) -> list[LicenceFile]:
    """``files`` less each sub-folder licence file whose text is, byte for byte, that of another
    licence file in a folder below it: a copy of that package's licence put one level too high,
    which speaks for that package, not for its own folder's other files (pipenv 2024.4.0's
    ``pipenv/patched/pip/COPYING`` is ``pip/_vendor/msgpack/COPYING``, its ``LICENSE`` truststore's,
    its ``LICENSE.txt`` urllib3's: pip's own modules there are under none of them). The root's
    licence files are kept: a release's own licence stands even when a package it carries has
    the same text."""
    def stray(f: LicenceFile) -> bool:
        return bool(f.folder) and f.role == "licence" and any(
            g.path != f.path and g.sha256 == f.sha256 and g.folder.startswith(f.folder + "/") for g in files)

    return [f for f in files if not stray(f)]


def read_source_licence(source: Source) -> SourceLicence:
    """The declared licence and licence files of an open source."""
    paths = source.paths()
    present = set(paths)
    files = []
    texts: dict[str, str] = {}  # the licence files' texts: one may state a choice of licences
    governed: dict[str, set[str]] = {}  # a vendored dist-info -> the package folders its RECORD lists
    for path in paths:
        if _is_licence_file(path):
            data = source.read(path)
            if len(data) <= MAX_LICENCE_FILE_BYTES:
                found = read_licence_file(path, data)
                if found.role == "licence":
                    texts[path] = _text(data)
                if found.folder.endswith((".dist-info", ".egg-info")):
                    if found.folder not in governed:
                        record = found.folder + "/RECORD"
                        parent = posixpath.dirname(found.folder)
                        listed = source.read(record) if record in present else b""
                        in_record = record_files(listed)
                        governed[found.folder] = {f"{parent}/{folder}" for folder in
                                                  package_folders(in_record) | top_modules(in_record)} if listed else \
                            _named_package_folders(found.folder, present)
                    # the vendored packages' licence: one entry per folder it governs (none: its own folder)
                    files += [replace(found, folder=folder) for folder in sorted(governed[found.folder])] or [found]
                else:
                    files.append(_for_named_module(found, present))
    files = _without_stray_copies(files)
    declared, declared_from, raw = "", "", ""
    meta_path = _metadata_path(paths)
    meta = _from_metadata(source.read(meta_path)) if meta_path else None
    if meta is not None:
        declared, declared_from, raw = meta.declared, meta.declared_from, meta.raw
        declared, declared_from = _text_decides_variant(declared, declared_from, files)
    if not declared:
        declared, statement, declared_from = _stated_choice(files, texts)
        if declared:
            raw = " ".join(first_paragraph(texts[statement]).split())[:200]
    if not declared and meta is not None:
        root_ids = {i for f in files if f.folder == "" and f.role == "licence" for i in licence_ids(f.expression)}
        declared, declared_from, found_raw = _from_classifiers(meta, root_ids)
        raw = found_raw or raw
    if not declared and "pyproject.toml" in paths:
        declared, declared_from, raw = _from_pyproject(source.read("pyproject.toml"))
    if not declared:
        # a licence file for included code is that code's licence, not the release's
        root = [f for f in files if f.folder == "" and f.role == "licence" and f.expression and not f.included_code]
        family = _of_named_family(root, meta.raw if meta is not None else "")
        if family:
            declared = combine_all(f.expression for f in family)
            declared_from = "licence files: " + ", ".join(f.path for f in family)
            if family != root and meta is not None:
                declared_from += f" (METADATA License: {meta.raw})"
    folders = sorted({f.folder for f in files if f.folder})
    stated_in = tuple((folder, choice[0], choice[1]) for folder in folders
                      if (choice := _stated_choice(files, texts, folder))[0])
    return SourceLicence(declared=declared, declared_from=declared_from, declared_raw=raw,
                         files=tuple(sorted(files, key=lambda f: f.path)), choices=stated_in,
                         package_copyrights=_package_copyrights(source, paths),
                         family_classifiers=tuple(_FAMILY_NAMES[f] for f in meta.families) if meta else ())


# ``__copyright__ = "..."`` (or annotated, ``__copyright__: str = "..."``) at a module's top level,
# one plain string literal: no prefix (an f-string), no formatting after it
_DUNDER_COPYRIGHT_RE = re.compile(
    r"""^__copyright__[ \t]*(?::[^=\n]*)?=[ \t]*(?P<q>["'])(?P<text>[^"'\n\\]+)(?P=q)[ \t]*(?:#[^\n]*)?$""",
    re.MULTILINE)
_PACKAGE_MODULES = ("__init__.py", "__version__.py", "__about__.py")
_TEST_FOLDERS = frozenset({"test", "tests", "testing"})


def _package_parts(path: str) -> list[str]:
    parts = path.split("/")
    return parts[1:] if parts[0] == "src" else parts


def _package_copyrights(source: Source, paths: list[str]) -> tuple[tuple[str, str], ...]:
    """(copyright line, module) of each package's ``__copyright__`` string (module docstring), in
    path order."""
    found: list[tuple[str, str]] = []
    for path in paths:
        parts = _package_parts(path)
        if len(parts) < 2 or parts[-1] not in _PACKAGE_MODULES or any(
                p.startswith(".") or p in _TEST_FOLDERS for p in parts[:-1]):
            continue
        data = source.read(path)
        if b"__copyright__" not in data:
            continue
        for m in _DUNDER_COPYRIGHT_RE.finditer(_text(data)):
            line = " ".join(m.group("text").split())
            if is_copyright(line) and holders((line,)):
                found.append((line, path))
    return tuple(dict.fromkeys(found))
