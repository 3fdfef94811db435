"""Licence pointers: a comment that points to another project's licence for the code beside it.

"Licence at LICENSES/PYPERCLIP_LICENSE" (pandas 2.2.3's ``io/clipboard/__init__.py``, a copy of
pyperclip) and "See numpy license at https://github.com/numpy/numpy/blob/master/LICENSE.txt"
(dask's functions taken from numpy) say that the code is that project's, under its licence: a
``licence_pointer`` marker whose ``project`` is the project named
(:func:`lineage.markers.naming.marker_names_upstream` reads it). The project is

* the licence file's own name: ``PYPERCLIP_LICENSE``, ``HAVEN_MIT``, ``LICENSE.pyperclip``,
  ``LICENSE-xarray.txt`` (its name beside a licence word, or a file in a ``LICENSES/`` folder);
* else a code host URL's repository (``numpy/numpy`` -> ``numpy``);
* else the word before "licence" when it is a name ("See numpy license at ...");
* or, without "licence at", "See" and a code host URL to a repository's own licence file at its
  root ("See https://github.com/numpy/numpy/blob/master/LICENSE.txt" above dask's copy of numpy's
  ``_parse_einsum_input``): the repository's project (:func:`_see_licence_url`).

Never a licence's name ("the MIT license at ..."), a pronoun ("its licence at the top") or a
licence text's own URL: the Apache header's "a copy of the License at
http://www.apache.org/licenses/LICENSE-2.0" names no project (``LICENSE-2.0`` is a version).
"""

from __future__ import annotations

import re

from lineage.markers.naming import repository_project
from lineage.markers.urls import parse_url

_POINTER_RE = re.compile(
    r"(?:\b(?P<name>[A-Za-z][\w+-]*)\s+)?(?P<licence>\blicen[cs]e)\s+(?:is\s+)?at\s*:?\s+(?P<where>\S+)",
    re.IGNORECASE)
_LICENCE_WORDS = r"(?:licen[cs]e|copying|mit|bsd|apache|notice)"
_STEM_RE = re.compile(rf"^(?:(?P<before>[A-Za-z][\w.-]*?)[_.-]{_LICENCE_WORDS}|{_LICENCE_WORDS}[_.-]"
                      rf"(?P<after>[A-Za-z][\w-]*?))(?:\.(?:txt|md|rst))?$", re.IGNORECASE)
# "See" then a URL: a pointer when the URL is a repository's root licence file (LICENSE, COPYING).
_SEE_URL_RE = re.compile(r"\bsee\s*:?\s+(?P<where>https?://\S+)", re.IGNORECASE)
_ROOT_LICENCE_RE = re.compile(r"(?:licen[cs]e|copying)(?:\.(?:txt|md|rst))?", re.IGNORECASE)
# Closing punctuation a pointer's path or URL ends a sentence with.
_TRAILING = ".,;:)]}'\""
# Words before "licence" that name no project: articles, pronouns, licence names and families.
_NOT_NAMES = frozenset({
    "a", "an", "the", "this", "that", "its", "their", "our", "my", "his", "her", "your", "see", "same",
    "full", "original", "whole", "project", "project's", "package", "file", "software", "code",
    "mit", "bsd", "apache", "gpl", "lgpl", "agpl", "mpl", "psf", "isc", "zlib", "python", "cc0", "unlicense",
    "open", "source", "free", "upstream", "license", "licence",
})


def licence_pointer(text: str) -> tuple[int, str, str] | None:
    """(where the pointer starts in ``text``, the project it names, the repository of its URL)
    for a comment pointing to a project's licence; None when it names none."""
    for m in _POINTER_RE.finditer(text):
        where = m.group("where").rstrip(_TRAILING)
        repository = ""
        if "://" in where:
            repository = parse_url(where).repository
            project = repository_project(repository)
        else:
            project = _file_project(where)
        word = (m.group("name") or "").lower()
        start = m.start("licence")
        if not project and word and word not in _NOT_NAMES and not word.isdigit():
            project, start = word, m.start("name")
        if project:
            return start, project.lower(), repository
    return _see_licence_url(text)


def _see_licence_url(text: str) -> tuple[int, str, str] | None:
    """"See URL" where the URL is a repository's own licence file at its root: the pointer names
    the repository's project. A licence file in a folder may be a third party's (numpy's
    ``numpy/ma/LICENSE``), and a bare URL without "See" is read as a URL marker elsewhere."""
    for m in _SEE_URL_RE.finditer(text):
        info = parse_url(m.group("where").rstrip(_TRAILING))
        if info.repository and _ROOT_LICENCE_RE.fullmatch(info.path):
            project = repository_project(info.repository)
            if project:
                return m.start(), project.lower(), info.repository
    return None


# A licence file named after a project, the project's name before the licence word.
_NAMED_FILE_RE = re.compile(r"^(?P<before>[A-Za-z][\w.-]*?)[_.-](?:licen[cs]es?|copying)(?:\.(?:txt|md|rst))?$",
                            re.IGNORECASE)


def named_licence_file(name: str) -> str:
    """The project a licence file's name puts before its licence word (``NUMPY_LICENSE.txt`` ->
    ``numpy``, dask's copy of numpy's licence beside the numpy functions it carries), or ``""``
    for a licence's or a generic name (``MIT_LICENSE``, ``THE-LICENSE``) or a version."""
    m = _NAMED_FILE_RE.match(name)
    return _project_name(m.group("before") if m else "").lower()


def _file_project(where: str) -> str:
    """The project a licence file's path names ("LICENSES/PYPERCLIP_LICENSE" -> "pyperclip")."""
    if "/" not in where and not _STEM_RE.match(where):
        return ""
    folder, _, name = where.rpartition("/")
    m = _STEM_RE.match(name)
    if m:
        found = m.group("before") or m.group("after") or ""
    elif folder.rsplit("/", 1)[-1].lower() in ("licenses", "licences"):
        found = name.rsplit(".", 1)[0]  # a file of its own in a LICENSES/ folder
    else:
        return ""
    return _project_name(found)


def _project_name(found: str) -> str:
    """``found`` when it can be a project's name; "" for a version, a word that names no project
    or a licence's own name ("LICENSE-2.0.txt", ``MIT_LICENSE``)."""
    if not found or re.fullmatch(r"[\d.]+", found) or found.lower() in _NOT_NAMES or re.match(
            _LICENCE_WORDS, found, re.IGNORECASE):
        return ""
    return found
