"""What a source declares about its licence: metadata, licence files, NOTICE files.

Read once per source while it is open (:func:`read_source_licence`), from the source's own files
through :meth:`lineage.sources.Source.paths` / ``read``:

* core metadata: a wheel's ``*.dist-info/METADATA`` or an sdist's ``PKG-INFO``, else a
  ``pyproject.toml`` ``[project] license`` (a string is PEP 639's SPDX expression; a table's
  ``text`` is read like METADATA ``License``);
* licence files anywhere in the tree: names starting ``LICENSE``/``LICENCE``/``LICENSES``/``UNLICENSE``/
  ``COPYING``/``COPYRIGHT``/``NOTICE``/``THIRD_PARTY_LICENSES`` (any case, optional extension), or one
  SPDX licence id (``GPL-2.0``, ``Apache-2.0.txt``) when the text states a licence, at most 1 MiB;
  one whose name says third-party or bundled is for included code (``LicenceFile.included_code``).
  Files inside the top ``*.dist-info`` count as the root's. A licence file in a sub-folder (a
  vendored library's) governs the files under that folder; one inside a vendored copy's own
  ``*.dist-info`` (``setuptools/_vendor/packaging-24.2.dist-info/LICENSE.APACHE``) governs the
  package folders its RECORD lists (``setuptools/_vendor/packaging``), not the root; without a
  RECORD, the package folder beside it named after it or named in its ``top_level.txt``
  (:func:`lineage.sources.distinfo.named_package_folders`). A
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

A licence of the classifiers' choice that neither the METADATA ``License`` text (which gave no
licence, or the classifiers would not be read) nor the root licence files name, not even by its
family, is left out of the choice, unless none of them is named or a root licence file's licence
could not be read (:func:`_unsupported`): pycryptodome 3.20.0's Apache classifier.

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

A root licence file's incorporated-software section that names a file of the release
(:func:`lineage.licences.licence_file.incorporated_parts`: passlib 1.7.4's LICENSE, "The source
file ``passlib/handlers/md5_crypt.py`` contains code derived from the original FreeBSD md5-crypt
implementation ..., which is available under the following license::" and the Beer-ware notice),
or a folder of it, quoted (``kit/legacy/``; a trailing "/" or none, a backslash read as "/"), which
speaks for every file under it, says that code derives from other software under the section's
licence and holders; passlib's own changes stay under the release's licence. So, where no
sub-folder licence file governs it, such a file is under both
(:meth:`SourceLicence.folder_licence`: the licence file's own licence ``AND`` the section's,
from ``<licence file> (incorporated software section)``, which obligations.csv shows as
``folder:<licence file> (incorporated software section)``), and a file without copyright lines of
its own is under the release's holders and the section's
(:meth:`SourceLicence.folder_copyrights`). A target keeps them as it keeps a folder licence's:
in its own file or in the licence files that speak for it (where libpass 1.9.0's LICENSE keeps
the same section). A section whose licence our rules do not read (passlib's for ``des.py``,
Aki Yoshida's own terms) adds only its holders; one whose licence and holders our rules read
neither adds nothing (passlib's for its ``passlib/_data/wordsets`` folder, "(c) 2016 the Electronic
Freedom Foundation" and a "Creative Commons License": data files, no Python file there); a named
path the release holds neither as a file nor as a folder (Sphinx's sections about JavaScript
libraries) is ignored.

"License :: Public Domain" is :data:`lineage.licences.expressions.PUBLIC_DOMAIN` when it is the
only licence classifier (pycrypto 2.6.1). Beside other licence classifiers it says that some parts
are public domain, not that the whole may be taken so (pycryptodome 3.20.0 lists it with BSD and
Apache-2.0, its LICENSE.rst: "partially in the public domain"; docutils 0.21 with PSF, BSD and GPL):
it is left out of their choice, and a public-domain file says so in its own header (a notice,
which ranks above the declared licence). Alone, when the root licence files name exactly one
public-domain dedication with a text of its own (:data:`lineage.licences.expressions.PUBLIC_DOMAIN_DEDICATIONS`:
the Unlicense, CC0-1.0), that one is the declared licence: yt-dlp 2021.2.24's only licence
classifier is "Public Domain" and its ``LICENSE`` the Unlicense's text. A METADATA ``License`` field
that is "Public Domain" (:func:`lineage.licences.expressions.named_licence`) is read the same way
(:func:`_public_domain_in_files`). When the root licence files
name another licence beside the dedication (the Unlicense's text and an MIT text), the classifier
does not decide and the licence files do, as for a release without classifiers: a choice one of
them states (a ``COPYING`` "dual-licensed under the Unlicense and MIT" beside ``UNLICENSE`` and
``LICENSE-MIT``: ``MIT OR Unlicense``), else all they name (``MIT AND Unlicense``: nothing says the
MIT text is only offered, so its conditions are kept). Before round left160 the classifier took
the dedication alone, and a reviewer was told ``Unlicense`` of a release that ships an MIT text
with its holder (review158's Left 5).
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from lineage.licences.expressions import (
    PUBLIC_DOMAIN,
    PUBLIC_DOMAIN_DEDICATIONS,
    combine_all,
    combine_any,
    licence_ids,
    named_licence,
    normalise,
)
from lineage.licences.licence_file import (
    MAX_LICENCE_FILE_BYTES,
    PYTHON_SUFFIXES,
    IncorporatedPart,
    LicenceFile,
    governing_text,
    governs,
    is_licence_file,
    licence_text,
    named_by_licence_id,
    read_licence_file,
)
from lineage.licences.notices import (
    first_paragraph,
    holders,
    licence_file_expression,
    offers_choice,
    opening_names,
    with_included,
)
from lineage.markers.attribution import is_copyright
from lineage.sources.base import read_declared
from lineage.sources.distinfo import core_metadata, named_package_folders, package_folders, record_files, top_modules

if TYPE_CHECKING:
    from lineage.sources import Source

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

    def _incorporated(self, path: str) -> list[tuple[LicenceFile, IncorporatedPart]]:
        """The root licence files' incorporated-software sections naming ``path`` (module
        docstring), none when a sub-folder licence file governs it (a vendored library's)."""
        # most releases have no such section: no walk over the folder files for each of their files
        if not any(f.incorporated for f in self.files) or self._deepest_folder_file(path, lambda f: True) is not None:
            return []
        return [(f, part) for f in self.files if f.folder == "" for part in f.incorporated if part.names(path)]

    def folder_copyrights(self, path: str) -> tuple[tuple[str, ...], str]:
        """(copyright lines, licence file) of the deepest sub-folder licence file above ``path``
        that has any and is not for included code, else ``((), "")``: a file without lines of its
        own is under its folder's holders as under its folder's licence (:meth:`folder_licence`):
        numpy's ``numpy/ma/extras.py`` under ``numpy/ma/LICENSE``'s "University of Georgia and
        Pierre G.F. Gerard-Marchant", not the root's NumPy Developers."""
        best = self._deepest_folder_file(path, lambda f: f.role == "licence" and bool(f.copyrights))
        if best is not None:
            return best.copyrights, best.path
        named = [(f, part) for f, part in self._incorporated(path) if part.copyrights]
        if not named:
            return (), ""
        # the release's holders for its own changes, then the sections' for the code it derives from
        lines = dict.fromkeys([*self.file_fallback_copyrights, *(c for _, part in named for c in part.copyrights)])
        return tuple(lines), _incorporated_from(named[0][0])

    def folder_licence(self, path: str) -> tuple[str, str]:
        """(expression, licence file) of the deepest sub-folder licence file above ``path``; the
        choice it offers, and the file that says so, when one of that folder's files offers one."""
        best = self._deepest_folder_file(path, lambda f: bool(f.expression))
        if best is None:
            named = [(f, part) for f, part in self._incorporated(path) if part.expression]
            if not named:
                return "", ""
            # the file stays under the release's licence (its own changes) and is under the section's too
            own = named[0][0].expression or self.declared
            return combine_all([own, *(part.expression for _, part in named)]), _incorporated_from(named[0][0])
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
            # and incorporated: obligations.csv's rows of the files the sections name show them
            "files": [{k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(f).items()
                       if k not in ("retained_copyrights", "incorporated")} for f in self.files],
            # only when read (summary format 15): a release stating none writes what it did before
            **({"package_copyrights": [{"copyright": line, "file": path} for line, path in self.package_copyrights]}
               if self.package_copyrights else {}),
        }


def _incorporated_from(licence_file: LicenceFile) -> str:
    """Where a file's licence or holders came from when a licence file's incorporated-software
    section names it (module docstring)."""
    return f"{licence_file.path} (incorporated software section)"


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
    # licence classifiers that name neither one SPDX licence nor a family, as written, last
    # segment only ("Zope Public License": 1.1, 2.0 or 2.1?): said when the classifiers decide
    unread: tuple[str, ...] = ()


@lru_cache(maxsize=64)  # pure functions of the bytes: history reads the same file at most commits
def _from_metadata(raw: bytes) -> _Metadata:
    message = core_metadata(raw)
    named = [c.strip() for c in message.get_all("Classifier") or []]
    classifiers = tuple(CLASSIFIERS[c] for c in named if c in CLASSIFIERS)
    families = tuple(sorted({FAMILY_CLASSIFIERS[c] for c in named if c in FAMILY_CLASSIFIERS}))
    if len(classifiers) + len(families) > 1:  # public domain beside other licences: parts only
        classifiers = tuple(c for c in classifiers if c != PUBLIC_DOMAIN)
    unread = tuple(dict.fromkeys(c.rpartition(" :: ")[2] for c in named if c.startswith("License :: ")
                                 and c not in CLASSIFIERS and c not in FAMILY_CLASSIFIERS
                                 and c != "License :: OSI Approved"))
    expression = str(message.get("License-Expression") or "").strip()
    if expression and normalise(expression):
        return _Metadata(normalise(expression), "METADATA License-Expression", expression, classifiers, families,
                         unread)
    text = str(message.get("License") or "").strip()
    if text and text.upper() != "UNKNOWN":
        found = normalise(text) or named_licence(text) or licence_file_expression(text, governing_text(text))
        if found:
            return _Metadata(found, "METADATA License", text[:200], classifiers, families, unread)
    return _Metadata("", "", (expression or text)[:200], classifiers, families, unread)


def _from_classifiers(meta: _Metadata, root_ids: set[str], root_unread: bool = False,
                      own_ids: set[str] | None = None) -> tuple[str, str, str]:
    """The classifiers' choice (module docstring), each family classifier replaced by the one
    licence of its family the root licence files name, less the licences nothing else names
    (:func:`_unsupported`); ``("", "", "")`` when they do not decide. ``root_unread``: a root
    licence file's licence was not read; ``own_ids``: the licences of the root licence files that
    are not for included code (``root_ids`` when not given), which make a lone public domain
    precise."""
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
    written = "; ".join(sorted(set(ids)))
    if ids == [PUBLIC_DOMAIN]:
        precise = _public_domain_in_files(root_ids if own_ids is None else own_ids)
        if not precise:
            return "", "", ""  # the licence files name another licence beside it: they decide (docstring)
        if precise != PUBLIC_DOMAIN:
            return precise, "METADATA classifiers, the dedication from the licence files", written
    dropped = _unsupported(ids, meta.raw, root_ids) if not root_unread else []
    ids = [i for i in ids if i not in dropped]
    stated = [_or_later_stated(i, root_ids) for i in ids]
    source = "METADATA classifiers" if stated == ids else "METADATA classifiers, 'or later' from the licence files"
    if dropped:
        left_out = ", ".join(sorted(set(dropped)))
        source += f"; {left_out} left out: neither the License field nor the licence files name it"
    if meta.unread:
        # a choice offered by a classifier no id can be written for is said, not dropped unseen:
        # setuptools 0.6c11's "PSF or ZPL" (License field) with a versionless ZPL classifier
        named = ", ".join(f'"{c}"' for c in meta.unread)
        source += (f"; the classifier{'s' if len(meta.unread) > 1 else ''} {named} left out: "
                   f"{'they name' if len(meta.unread) > 1 else 'it names'} no one SPDX licence, as a version "
                   "is missing or lineage does not read that licence")
    return combine_any(stated), source, written


def _public_domain_in_files(root_ids: set[str]) -> str:
    """What the metadata's bare public domain (a lone "Public Domain" classifier, a ``License:
    Public Domain`` field) is, given the root licence files' licences (module docstring): ``""``
    when they name another licence beside it (they decide), else the one public-domain dedication
    with a text of its own they name, else :data:`PUBLIC_DOMAIN`."""
    if root_ids - PUBLIC_DOMAIN_DEDICATIONS - {PUBLIC_DOMAIN}:
        return ""
    dedications = sorted(root_ids & PUBLIC_DOMAIN_DEDICATIONS)
    return dedications[0] if len(dedications) == 1 else PUBLIC_DOMAIN


# A licence's family as a METADATA ``License`` field may write it: the letters its SPDX id starts
# with ("MPLv2.0", "Apache 2", "GNU AGPLv3+"), or a name in words.
_FAMILY_IN_WORDS: dict[str, tuple[str, ...]] = {
    "mit": ("expat",), "mpl": ("mozilla",), "psf": ("python software foundation",), "bsl": ("boost",),
    "gpl": ("gnu general public",), "lgpl": ("lesser general public", "library general public"),
    "agpl": ("affero",), "cc": ("creative commons",),
}


def _licence_family(licence: str) -> str:
    """The letters a licence id starts with, lower-cased: ``apache`` of ``Apache-2.0``."""
    m = re.match(r"[A-Za-z]+", licence)
    return m.group(0).lower() if m else ""


def _field_names_family(text: str, family: str) -> bool:
    """Whether a METADATA ``License`` text names ``family`` (:data:`_FAMILY_IN_WORDS`): its
    letters as a word, a version may follow ("MPLv2.0", "Apache2"); not inside another word
    ("LGPL" is no GPL)."""
    folded = " ".join(text.lower().split())
    if re.search(rf"(?<![a-z]){re.escape(family)}(?:v?\d[\d.]*\+?)?(?![a-z])", folded):
        return True
    return any(words in folded for words in _FAMILY_IN_WORDS.get(family, ()))


def _unsupported(ids: list[str], field: str, root_ids: set[str]) -> list[str]:
    """The licences of a choice the classifiers offer that neither the METADATA ``License`` text
    nor the root licence files name (by family: a field says "BSD" or "GPLv2"), unless that is all
    of them. Classifiers are a menu picked when the package is set up and outlive its licence:
    pycryptodome 3.20.0 listed Apache Software License beside BSD and Public Domain, while its
    ``License: BSD, Public Domain`` and LICENSE.rst (public domain and BSD-2-Clause) name no Apache
    and 3.21.0 dropped the classifier; its declared licence read ``Apache-2.0 OR BSD-2-Clause``.
    Only a choice (one licence stays what the classifier says), and only when every root licence
    file was read (the caller): a licence file whose text our rules do not read may name it."""
    if len(set(ids)) < 2:
        return []
    named = {_licence_family(i) for i in with_included(root_ids)}
    dropped = [i for i in ids if _licence_family(i) not in named and not _field_names_family(field, _licence_family(i))]
    return [] if len(set(dropped)) == len(set(ids)) else dropped


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
        # a file the opening names, or whose licences it names ("the Unlicense and MIT")
        named = [f for f in others if posixpath.basename(f.path).lower() in words
                 or all(opening_names(text, i) for i in licence_ids(f.expression))] or others
        offered = sorted({i for f in [statement, *named] for i in licence_ids(f.expression)})
        if len(offered) >= 2:
            # a file holding the texts it offers names no other file (python-telegram-bot's LICENSE.dual)
            paths = ", ".join(f.path for f in named) or "between the texts it holds"
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
        found = normalise(text) or named_licence(text) or licence_file_expression(text, governing_text(text))
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


# A licence file named for what it covers after its name: "LICENSE.pbs", "LICENSE-flashmedia";
# a text format's suffix is no such name ("LICENSE.txt").
_SUFFIXED_RE = re.compile(r"^(?:licen[cs]e|copying)[.-](?P<name>[A-Za-z_][\w-]*)$", re.IGNORECASE)
_TEXT_SUFFIXES = frozenset({"txt", "md", "rst", "markdown", "html", "htm", "text", "in", "adoc"})


def _for_suffixed_module(found: LicenceFile, present: set[str]) -> LicenceFile:
    """``found`` as the own licence of the one module or package of the tree that its name puts
    after ``LICENSE.`` or ``LICENSE-`` (livestreamer 1.12.2's root ``LICENSE.pbs`` is Andrew
    Moffat's licence of ``src/livestreamer_cli/packages/pbs.py``, its ``LICENSE.flashmedia`` that
    of ``src/livestreamer/packages/flashmedia/``: as root licence files their holders were asked of
    every copied file), below the licence file's folder; else ``found`` unchanged (no such module,
    or several: the name says nothing certain)."""
    folder, name = posixpath.split(found.path)
    m = _SUFFIXED_RE.match(name)
    if m is None or m.group("name").lower() in _TEXT_SUFFIXES or found.folder.endswith((".dist-info", ".egg-info")):
        return found
    wanted = m.group("name").lower().replace("-", "_")
    base = f"{folder}/" if folder else ""
    places = set()
    for path in present:
        if not path.startswith(base) or not path.endswith(PYTHON_SUFFIXES):
            continue
        parts = path[len(base):].split("/")
        for k, part in enumerate(parts):  # a folder on the way, else the module itself
            stem = part.rpartition(".")[0] if k == len(parts) - 1 else part
            if stem.lower() == wanted:
                places.add(base + "/".join(parts[:k + 1]))
                break
    if len(places) != 1:
        return found
    return replace(found, folder=places.pop(), included_code=False)


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


def _holds(paths: list[str], present: set[str], named: str) -> bool:
    """Whether a source holds the path an incorporated-software section names: a file, or a folder
    some file lies under. Only for the few paths such sections name: no index of every folder."""
    return named in present or any(p.startswith(named + "/") for p in paths)


def read_source_licence(source: Source) -> SourceLicence:
    """The declared licence and licence files of an open source, read through a
    :class:`~lineage.sources.base.DeclaredView` (a file over its limit is not read: as if absent),
    as the project and vendoring records are; details in :func:`_read_source_licence`."""
    return read_declared(source, _read_source_licence)


def _read_source_licence(source: Source) -> SourceLicence:
    """The declared licence and licence files of an open source."""
    paths = source.paths()
    present = set(paths)
    files = []
    texts: dict[str, str] = {}  # the licence files' texts: one may state a choice of licences
    governed: dict[str, set[str]] = {}  # a vendored dist-info -> the package folders its RECORD lists
    for path in paths:
        named = is_licence_file(path)
        by_id = named_by_licence_id(path, named)  # False for a file is_licence_file takes
        if by_id or named:
            data = source.read(path)
            if len(data) <= MAX_LICENCE_FILE_BYTES:
                found = read_licence_file(path, data)
                if by_id and not found.expression:  # a name alone (``JSON``) makes no licence file
                    continue
                if found.role == "licence":
                    texts[path] = licence_text(data)
                if found.folder.endswith((".dist-info", ".egg-info")):
                    if found.folder not in governed:
                        record = found.folder + "/RECORD"
                        parent = posixpath.dirname(found.folder)
                        listed = source.read(record) if record in present else b""
                        in_record = record_files(listed)
                        tops = found.folder + "/top_level.txt"
                        governed[found.folder] = {f"{parent}/{folder}" for folder in
                                                  package_folders(in_record) | top_modules(in_record)} if listed else \
                            named_package_folders(found.folder, present,
                                                   source.read(tops) if tops in present else b"")
                    # the vendored packages' licence: one entry per folder it governs (none: its own folder)
                    files += [replace(found, folder=folder) for folder in sorted(governed[found.folder])] or [found]
                else:
                    files.append(_for_suffixed_module(_for_named_module(found, present), present))
    files = _without_stray_copies(files)
    # an incorporated-software section speaks for the files and folders it names that the source holds
    files = [replace(f, incorporated=tuple(replace(part, paths=held) for part in f.incorporated
                                           if (held := tuple(p for p in part.paths if _holds(paths, present, p)))))
             if f.incorporated else f for f in files]
    declared, declared_from, raw = "", "", ""
    meta_path = _metadata_path(paths)
    meta = _from_metadata(source.read(meta_path)) if meta_path else None
    root_ids = {i for f in files if f.folder == "" and f.role == "licence" for i in licence_ids(f.expression)}
    # a root file for included code (THIRD_PARTY_LICENSES) speaks for that code, not the release
    own_ids = {i for f in files if f.folder == "" and f.role == "licence" and not f.included_code
               for i in licence_ids(f.expression)}
    if meta is not None:
        declared, declared_from, raw = meta.declared, meta.declared_from, meta.raw
        declared, declared_from = _text_decides_variant(declared, declared_from, files)
        if declared == PUBLIC_DOMAIN and declared_from == "METADATA License":  # as the lone classifier is
            declared = _public_domain_in_files(own_ids)
            declared_from = "" if not declared else declared_from if declared == PUBLIC_DOMAIN else \
                "METADATA License, the dedication from the licence files"
    if not declared:
        declared, statement, declared_from = _stated_choice(files, texts)
        if declared:
            raw = " ".join(first_paragraph(texts[statement]).split())[:200]
    if not declared and meta is not None:
        root_unread = any(f.folder == "" and f.role == "licence" and not f.expression for f in files)
        declared, declared_from, found_raw = _from_classifiers(meta, root_ids, root_unread, own_ids)
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


def dunder_copyrights(text: str) -> tuple[str, ...]:
    """The copyright lines (whitespace folded) of the top-level ``__copyright__`` strings of a
    module's ``text`` that read as copyright lines naming a holder."""
    found = (" ".join(m.group("text").split()) for m in _DUNDER_COPYRIGHT_RE.finditer(text))
    return tuple(dict.fromkeys(line for line in found if is_copyright(line) and holders((line,))))


def _package_copyrights(source: Source, paths: list[str]) -> tuple[tuple[str, str], ...]:
    """(copyright line, module) of each package's ``__copyright__`` string (module docstring), in
    path order."""
    found: list[tuple[str, str]] = []
    for path in paths:
        parts = _package_parts(path)
        if len(parts) < 2 or parts[-1] not in _PACKAGE_MODULES or any(
                p.startswith(".") or p in _TEST_FOLDERS for p in parts[:-1]):
            continue
        blob = source.known_digest(path)  # a git tree names each file by its blob hash
        lines = _DUNDER_BY_BLOB.get(blob) if blob else None
        if lines is None:
            data = source.read(path)
            lines = dunder_copyrights(licence_text(data)) if b"__copyright__" in data else ()
            if blob:
                if len(_DUNDER_BY_BLOB) >= _DUNDER_BY_BLOB_SIZE:
                    _DUNDER_BY_BLOB.clear()
                _DUNDER_BY_BLOB[blob] = lines
        found.extend((line, path) for line in lines)
    return tuple(dict.fromkeys(found))


# The __copyright__ lines per blob hash: `lineage history` reads every package module of every
# commit, through a git round trip each, and they seldom change (12 of a commit's ~140 ms in the
# bench's history); a function of the bytes, so the hash stands for them. Bounded.
_DUNDER_BY_BLOB: dict[str, tuple[str, ...]] = {}
_DUNDER_BY_BLOB_SIZE = 1 << 16
