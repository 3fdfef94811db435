"""Obligations per copied file: one row per (target file, upstream file) that shares copied lines.

Columns (:data:`OBLIGATION_COLUMNS`):

* ``target_path``, ``upstream`` (label), ``upstream_path``; ``copied_lines``, ``verbatim_lines``,
  ``near_lines`` (non-blank target lines labelled so, from that upstream file); ``first_line`` and
  ``last_line`` (first and last such target line); ``marked`` (the target file carries a
  provenance marker naming an upstream: yes/no).
* ``upstream_licence``: the upstream file's licence, first of: its SPDX-License-Identifier, the
  notices in its head, the licence file of the sub-folder it sits in (a vendored library's), the
  upstream's declared licence, the licence the upstream's own files state
  (:func:`release_licence`: a release that declares none it can be read as). ``upstream_licence_from``
  says which (``spdx``, ``notice``, ``folder:<licence file>``, ``declared``, ``release notices``;
  ``""`` when none is known). The upstream's declared licence and its release's notices do not
  speak for a whole file that is another project's code the upstream carries by its place
  (origin ``third_party`` from a vendored folder or a vendoring record, :mod:`lineage.match.origin`:
  wheel 0.43's ``wheel/vendored/packaging/``, packaging's code, is not under wheel's MIT; a file
  whose header says it was adapted from another project is the upstream's adaptation, under its
  licence): such a file without a licence of its own or of its
  folder has ``upstream_licence`` ``""`` and ``upstream_licence_from`` ``third party: <name>``
  (the project the origin names), and likewise its copyrights (``upstream_copyrights_from``),
  unless a release of that project is another upstream of the run: then its declared licence
  and licence files' holders (``third party: <name> (declared by upstream <label>)``,
  ``... (licence files of upstream <label>)``). When that licence offers a
  choice (``A OR B``; the choices are its disjunctive normal form, :func:`lineage.licences.expressions.choices`)
  the recipient may take any one, so the columns from ``keeps_copyright`` to ``notice_lines_missing``
  and ``missing`` are those of the choice that leaves least missing in the target file (a
  compatible one first; ties: the first offered), and ``upstream_licence_from`` names it after
  ``"; under "`` (``declared; under BSD-2-Clause``). ``conflict`` is of the whole expression (an
  ``OR`` is fine when either choice is).
* ``upstream_copyrights``: the upstream file's copyright lines when one names a holder, else the
  upstream root licence files' (their NOTICE files' only when the licence files name no holder:
  ``SourceLicence.file_fallback_copyrights``), but those of the licence file of the sub-folder it
  sits in when that names a holder (``SourceLicence.folder_copyrights``: numpy's ``numpy/ma/``)
  (``"; "``-joined); ``upstream_copyrights_from``: ``file``, ``folder:<licence file>``, ``source``,
  ``package:<file>`` (the release's ``__copyright__`` string, :mod:`lineage.licences.declared`),
  ``release notices`` (the one holder its files name, :func:`release_copyrights`),
  ``third party: <name>`` (another project's file naming no holder itself, as for the licence) or ``""``.
  A file whose ``upstream_licence`` is a public-domain dedication alone (public domain, the
  Unlicense, CC0-1.0: :func:`lineage.licences.expressions.dedicated_alone`) takes only its own
  lines' and its folder's holders, never the release's (root licence files, ``__copyright__``,
  release notices): its authors gave up the copyright those holders would hold.
* ``target_licence`` / ``target_licence_from``: the target file's own SPDX or notice licence,
  else the licence file of the sub-folder it sits in (``folder:<licence file>``: a vendored
  library's, or a vendored copy's ``*.dist-info`` licence for the packages its RECORD lists),
  else the target's declared licence (``declared``), else the licence its files state
  (``release notices``, as for an upstream).
* ``keeps_copyright``: every upstream holder is named by a copyright line of the target file,
  or of the licence files that speak for it (its sub-folder's, a vendored library's, else the
  root's: MIT's "the above copyright notice ... shall be included in all copies" is met by the
  distribution's LICENSE, and so by another project's licence text appended there, whose holders
  are not the target's own: ``LicenceFile.retained_copyrights``), or some by the one and the
  rest by the other (``yes``/``no``;
  ``n/a`` when the upstream names none, or its licence is public domain alone: a public-domain
  dedication asks for nothing, and beside another licence only that one's terms count;
  ``not required`` when the upstream is a release of the target's own project and the lines kept
  nowhere name only persons the target's metadata names as its authors, :func:`owed_itself`:
  the project's own earlier notice, since round user161). When
  the upstream file is Apache-2.0 and carries the copyright lines itself, only the target file
  counts (section 4(c): retain the notices of the Source form). ``copyright_kept_in``: where
  they are kept, ``file``, ``folder:<licence files>`` or ``root:<licence files>`` (``"; "``-joined), or
  ``file; `` followed by the latter when it takes both, else ``package:<module>`` when the
  ``__copyright__`` string of the target file's package names them (niquests' ``__version__.py``
  for requests' holder, which requests states only there), else ``""``. ``copyrights_missing``
  (since round fix149): where ``keeps_copyright`` is ``no``, the upstream copyright lines whose
  holder none of those places names (:func:`_copyrights_not_kept`; ``"; "``-joined as
  ``upstream_copyrights``), ``""`` otherwise: itsdangerous 2.2.0 against 1.1.0 names the Django
  Software Foundation's line, not "the Pallets team"'s, which its "Copyright 2011 Pallets" keeps.
  Holders are compared by :func:`lineage.licences.notices.keeps_holders` (one organisation with
  or without "the", "team", "Inc.", "contributors"; a "by" before the name is no part of it).
  ``copyright_replaced_by`` (since round user173): of the target file's copyright lines, those
  that state the same span of years (two years or more) as a line of ``copyrights_missing``
  under a holder none of the upstream file's lines names (:func:`replaced_holders`: the
  upstream's years kept, its holder replaced on copied code; ssh 1.8.0's "Copyright (C)
  2006-2007 Jeff Forcier" over paramiko's "Copyright (C) 2006-2007 Robey Pointer"),
  ``"; "``-joined; ``""`` otherwise.
* ``keeps_licence_notice``: the target file's SPDX lines and notices (its head's, and those among
  the lines it copied from the upstream file), the licence file of its
  sub-folder, else the root licence files (not for an Apache-2.0 upstream file with its own
  notice, as for the copyright lines), name every licence id of the upstream file's licence
  but public domain (``n/a`` when that licence is unknown or public domain alone); a licence
  file's GNU id stands for both its editions, ``-only`` and ``-or-later`` (:func:`text_editions`:
  one text, the notice chooses).
* ``modified``: the target file's text differs from the upstream file's (line endings folded: a
  copy whose CRLF lines became LF is not modified). ``modification_notice``:
  ``yes``/``no`` (a notice of the target file's that the upstream file does not hold too: a
  copied "Adapted from X" is the upstream's own) when the upstream licence asks modified files
  to say so (Apache-2.0 section 4(b), GPL-2.0 2(a), GPL-3.0/AGPL-3.0 5(a), LGPL-2.1 2(c)/LGPL-3.0
  via GPL-3.0, APAFML, PSF-2.0 3 and Python-2.0's PSF part: "a brief summary of the changes
  made"), ``not required`` otherwise (also when the file is an unmodified copy, when the
  upstream is a release of the target's own project: :func:`lineage.index.project.one_project`, when the
  upstream file's holders are all of the organisation holding the target's copyright:
  :func:`own_organisation`, and for public domain); ``n/a`` for an unknown licence.
* ``notice_files``, ``notice_lines``: the upstream's root NOTICE files and their non-blank lines,
  which an Apache-2.0 redistribution must reproduce (section 4(d)); ``notice_lines_missing``:
  how many of them appear neither in the target's root NOTICE/licence files nor in the target
  file's head comments (0 when there is no NOTICE or the licence is not Apache-2.0).
* ``conflict``: ``yes``/``no``/``unknown`` from :func:`lineage.licences.compat.compatible` of the
  upstream licence into the target licence; ``conflict_reason``.
* ``missing``: what the target file lacks, ``"; "``-joined from ``copyright``,
  ``licence-notice``, ``modification-notice``, ``NOTICE`` (``""`` when nothing).

Rows are sorted by target path, upstream label and upstream path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

import pandas as pd
from packaging.utils import canonicalize_name

from lineage.index import CODE
from lineage.index.project import one_project
from lineage.licences.compat import compatible
from lineage.licences.declared import SourceLicence
from lineage.licences.expressions import (
    PUBLIC_DOMAIN,
    asks_nothing,
    choices,
    dedicated_alone,
    licence_ids,
    normalise,
)
from lineage.licences.licence_file import LicenceFile
from lineage.licences.notices import (
    distinct_copyrights,
    family_statements,
    fold,
    holders,
    keeps_holders,
    organisation,
    source_notice_ids,
    stated_years,
    with_included,
)
from lineage.markers.attribution import STATEMENT_LEAD
from lineage.match.holders import holder, holder_key, holder_persons, main_holders, stated_persons
from lineage.results.figures import rows_where
from lineage.results.file_licences import FileLicence, record_licence
from lineage.results.obligation_rows import KeptRows, pair_key, table_key
from lineage.results.schema import empty, typed

if TYPE_CHECKING:
    from lineage.index import FileIndex, TreeIndex

OBLIGATION_COLUMNS = [
    "target_path", "upstream", "upstream_path", "copied_lines", "verbatim_lines", "near_lines", "first_line",
    "last_line", "marked", "upstream_licence", "upstream_licence_from", "upstream_copyrights",
    "upstream_copyrights_from", "target_licence", "target_licence_from", "keeps_copyright", "copyright_kept_in",
    "copyrights_missing", "copyright_replaced_by", "keeps_licence_notice", "modified", "modification_notice",
    "notice_files", "notice_lines", "notice_lines_missing", "conflict", "conflict_reason", "missing",
]
MISSING_KINDS = ("copyright", "licence-notice", "modification-notice", "NOTICE")
UNDER = "; under "  # upstream_licence_from: <where the licence came from>; under <the choice checked>

# Where a new copyright line begins in the joined ``upstream_copyrights`` cell: a line itself may
# hold "; " ("Copyright (c) 2001 Python Software Foundation; All Rights Reserved"); an ASF-style
# line starts "Licensed to" (:func:`lineage.markers.attribution.notice_holder`).
_NEXT_COPYRIGHT_RE = re.compile(rf"; (?={STATEMENT_LEAD}(?:©|\(c\)|copyright|spdx-filecopyrighttext|licensed to ))",
                                re.IGNORECASE)


def join_copyrights(lines: Sequence[str]) -> str:
    """The ``upstream_copyrights`` cell of copyright lines (each a copyright marker's text, which
    starts with its copyright word or sign, or "Licensed to": :func:`lineage.markers.attribution.is_copyright`)."""
    return "; ".join(lines)


def split_copyrights(cell: str) -> tuple[str, ...]:
    """The copyright lines of an ``upstream_copyrights`` cell (:func:`join_copyrights`)."""
    return tuple(x.strip() for x in _NEXT_COPYRIGHT_RE.split(cell) if x.strip())

_RANK = {"ok": 0, "unknown": 1, "conflict": 2}  # a compatible choice before an unknown, a conflict last
# Licences whose text asks a modified file to carry a notice saying so (APAFML: "all modifications
# to this file or any of the AFM files are prominently noted in the modified file(s)"; the PSF
# agreement, alone or in Python-2.0's stack, 3: a derivative work includes "a brief summary of the
# changes made").
_CHANGE_NOTICE_PREFIXES = ("Apache-2.0", "GPL-", "AGPL-", "LGPL-", "APAFML", "PSF-2.0", "Python-2.0")


def asks_change_notice(licence: str) -> bool:
    """Whether a licence id of ``licence`` asks a modified file to say so (:data:`_CHANGE_NOTICE_PREFIXES`);
    public domain asks nothing. The one test of ``modification_notice`` (:func:`_check`, :func:`terms`)
    and of summary.md's sentence on why it is ``not required``."""
    return any(i.startswith(_CHANGE_NOTICE_PREFIXES) for i in licence_ids(licence) if not asks_nothing(i))


def terms(licence: str, has_notice_file: bool) -> list[str]:
    """What licence ``licence`` (one choice, no ``OR``) asks of a copied file in lineage's checks,
    as ``missing`` names them: what :func:`_check` looks for."""
    ids = tuple(i for i in licence_ids(licence) if not asks_nothing(i))
    if not ids:
        return []
    asked = ["copyright", "licence-notice"]
    if asks_change_notice(licence):
        asked.append("modification-notice")
    if has_notice_file and "Apache-2.0" in ids:
        asked.append("NOTICE")
    return asked


def source_licence(tree: TreeIndex) -> SourceLicence:
    return getattr(tree, "licence", None) or SourceLicence()


class _FileLicences:
    """Per-file licences of one tree, read on first use."""

    def __init__(self, tree: TreeIndex, head_lines: int) -> None:
        self.tree, self.head_lines = tree, head_lines
        self.by_path = {f.path: f for f in tree.files}
        self.seen: dict[str, FileLicence] = {}

    def get(self, path: str) -> FileLicence:
        if path not in self.seen:
            f = self.by_path[path]
            self.seen[path] = record_licence(f, lambda: self.tree.lines(path), self.head_lines)
        return self.seen[path]


_TARGET = "\0target"  # the target's key among the upstream labels (no label holds a NUL)
RELEASE_NOTICES = "release notices"  # upstream_licence_from of a licence its release's files state
THIRD_PARTY = "third party: "  # ..._from of another project's file: its release's licence and holders are not its
_LICENCE_WORD_RE = re.compile(r"\s+licen[cs]e$", re.IGNORECASE)


def third_party_name(licence_from: str) -> str:
    """The project an ``upstream_licence_from`` cell says the file is the code of (``third party:
    <name>``, maybe with `` (declared by upstream <label>)`` after it); "" for any other cell."""
    return licence_from.removeprefix(THIRD_PARTY).split(" (", 1)[0] if licence_from.startswith(THIRD_PARTY) else ""


def _names_family_only(raw: str, expression: str) -> bool:
    """Whether metadata licence text that names no licence lineage can read (``raw``) names nothing,
    or only the family ``expression`` belongs to ("BSD" or "BSD License" for BSD-3-Clause)."""
    family = _LICENCE_WORD_RE.sub("", raw.strip())
    if not family or family.upper() == "UNKNOWN":
        return True
    ids = licence_ids(expression)
    return bool(ids) and all(i.lower().startswith(family.lower() + "-") for i in ids)


def _release_own_files(lic: _FileLicences, source: SourceLicence, not_own: Collection[str]) -> dict[str, FileLicence]:
    """The licences of a release's own files that speak for the release, by path: no sub-folder
    licence file governs them (a vendored library's) and they are not another project's code
    (``not_own``)."""
    return {f.path: lic.get(f.path) for f in lic.tree.files
            if f.path not in not_own and not source.folder_licence(f.path)[0]}


def release_licence(lic: _FileLicences, source: SourceLicence, not_own: Collection[str] = ()) -> str:
    """The licence a release's own files state, for a release whose metadata and root licence
    files state none lineage can read: the one expression the SPDX lines and licence notices of
    its files (those no sub-folder licence file governs) state, when they all state the same one,
    of the family its metadata names if it names one. ply 3.11 declares "License: BSD" and ships
    no licence file; its lex.py and yacc.py carry the BSD-3-Clause text, and its silent files read
    "licence unknown" (4 "compatibility unknown" pairs in astropy 6.1.4, whose ``extern/ply``
    is ply 3.11). ``""`` when the release declares a licence, or its files state none or several.
    Files in ``not_own`` (an upstream's whole files that are third-party code or came from the
    target, :mod:`lineage.match.origin`; the target's vendored files,
    :func:`lineage.match.origin.vendored_paths`) state their own projects' licences, not the release's: IPython
    3.2.3 declares only "BSD", and its ``IPython/external/`` copies (pexpect's ISC, decorator's
    BSD-2-Clause, path's MIT) left its own files' one licence unread. A public-domain dedication
    beside another licence speaks for its own file only, as the classifier does beside others
    (:mod:`lineage.licences.declared`): ply 3.9's sdist holds ``example/GardenSnake/GardenSnake.py``,
    "hereby released into the Public Domain", which left its silent files "licence unknown"."""
    if source.declared:
        return ""
    stated = {normalise(found.expression) for found in _release_own_files(lic, source, not_own).values()
              if found.expression}
    if len(stated) > 1:
        stated.discard(PUBLIC_DOMAIN)
    if len(stated) != 1:
        return ""
    (expression,) = stated
    return expression if expression and _names_family_only(source.declared_raw, expression) else ""


_GNU_FAMILIES = ("GPL-", "LGPL-", "AGPL-")


def _text_only_gnu(source: SourceLicence) -> str:
    """The ``-only`` GNU licence ``source`` declares from its root licence files alone (the
    reading :func:`declared_or_later` may widen), "" for any other declaration."""
    ids = licence_ids(source.declared)
    if (len(ids) != 1 or not ids[0].endswith("-only") or not ids[0].startswith(_GNU_FAMILIES)
            or not source.declared_from.startswith("licence files:")):
        return ""
    return ids[0]


def declared_or_later(source: SourceLicence, stated: Sequence[str], min_share: float) -> SourceLicence:
    """``source`` declaring the ``-or-later`` form of its declared GNU licence when that
    licence is the ``-only`` form read from its root licence files alone (``declared_from``
    "licence files: ...") and the licence notices of its own files (``stated``: one expression
    per own file, "" for a file stating none, :func:`release_file_expressions`) all state that
    ``-or-later`` form, and at least ``min_share`` of those files state one
    (``licence_or_later_min_share``); ``source`` otherwise. A GNU licence's text names its
    version, never whether a later one may be chosen (:mod:`lineage.licences.notices` reads a
    bare text as ``-only``); the project's notices say that, and lineage reads them so for a
    version classifier already (:mod:`lineage.licences.declared`, ``_or_later_stated``).
    suds-jurko 0.6 and suds-community 1.2.0 ship the LGPL-3.0 text as LICENSE.txt under the
    family classifier "GNU Library or Lesser General Public License (LGPL)", and every one of
    their Python files says "either version 3 of the License, or (at your option) any later
    version": both were declared ``LGPL-3.0-only`` in summary.md, the SPDX and CycloneDX packages
    and the manifest, against the notices of each of their files in obligations.csv. A file
    stating another licence, or the ``-only`` form, keeps the reading (the notices do not agree);
    so do silent files when they are most of the release's (one file granting later versions
    among many under the text alone speaks for itself, not for the release: round review176); a
    choice or a sum of licences is not read."""
    only = _text_only_gnu(source)
    if not only:
        return source
    later = only.removesuffix("-only") + "-or-later"
    found = [normalise(e) for e in stated if e]
    if not found or any(e != later for e in found) or len(found) < min_share * len(stated):
        return source
    return replace(source, declared=later,
                   declared_from=f"{source.declared_from}; 'or later' from the notices of its files "
                                 f"({len(found)} state {later}; a GNU licence's text names no such choice)")


def release_file_expressions(tree: TreeIndex, head_lines: int, not_own: Collection[str] = ()) -> list[str]:
    """The licence expressions the notices and SPDX lines of a release's own files state (those
    no sub-folder licence file governs and not in ``not_own``, another project's code, as
    :func:`release_licence` reads them), one per file holding code or stating one ("" for a
    file of code stating none): what :func:`declared_or_later` reads. A vendored library's
    files, silent or under their own licence, say nothing of what the release's own files grant."""
    lic = _FileLicences(tree, head_lines)
    own = _release_own_files(lic, source_licence(tree), not_own)
    return [found.expression for f in tree.files if (found := own.get(f.path)) is not None
            and (found.expression or bool((f.kinds == CODE).any()))]


def with_declared_or_later(tree: TreeIndex, head_lines: int, min_share: float,
                           not_own: Collection[str] = ()) -> TreeIndex:
    """``tree`` with its declared licence read by :func:`declared_or_later` from its own files
    (``not_own``: see :func:`release_file_expressions`); the same tree when that changes
    nothing; the files' heads are read only for a GNU ``-only`` licence read from licence files."""
    source = source_licence(tree)
    if not _text_only_gnu(source):
        return tree
    found = declared_or_later(source, release_file_expressions(tree, head_lines, not_own), min_share)
    return tree if found is source else replace(tree, licence=found)


def release_copyrights(lic: _FileLicences, source: SourceLicence, fewest_files: int,
                       not_own: Collection[str] = ()) -> tuple[str, ...]:
    """The copyright lines a release's own files state, for a release whose licence files,
    NOTICE and ``__copyright__`` name no holder: those of its files (those no sub-folder licence
    file governs) that name a holder, when they all name the same one and at least
    ``fewest_files`` do (``MatchParams.licence_release_holder_files``), as :func:`release_licence`
    takes their one licence. ply 3.11 ships no licence file; lex.py and yacc.py state "Copyright
    (C) 2001-2018 David M. Beazley (Dabeaz LLC)", and its other files' copies in astropy 6.1.4
    read "copyright n/a", as if BSD-3-Clause asked nothing of them. A top-level package's
    ``__init__.py`` naming the holder is enough alone: it speaks for its package as a
    ``__copyright__`` string there does (:meth:`SourceLicence.package_copyrights_above`), and is no
    copy of another project's module. py 1.11.0 states its holders only in ``py/__init__.py``'s
    docstring, "(c) Holger Krekel and others, 2004-2014"; pytest 8.3.3's copies of its code read
    "copyright n/a". ``()`` otherwise."""
    named = [(path, found.copyrights) for path, found in _release_own_files(lic, source, not_own).items()
             if holders(found.copyrights)]
    lines = [line for _, c in named for line in c if holders([line])]  # not "Copyright (C) 2007" alone
    if len(holders(lines)) != 1 or (len(named) < fewest_files and not any(_top_package(path) for path, _ in named)):
        return ()
    return distinct_copyrights(lines)


def _top_package(path: str) -> bool:
    """Whether ``path`` is a top-level package's ``__init__.py`` (also under ``src/``)."""
    parts = path.split("/")
    parts = parts[1:] if parts[0] == "src" and len(parts) > 2 else parts
    return len(parts) == 2 and parts[1] == "__init__.py"


def _upstream_licence(path: str, lic: FileLicence, source: SourceLicence, release: str = "",
                      party: str | None = None) -> tuple[str, str]:
    """A file's licence and where it came from (module docstring, ``upstream_licence``);
    ``release``: :func:`release_licence` of its tree; ``party``: the project whose code the file
    is, when it is not its tree's own (then neither the declared nor the release licence is its)."""
    if lic.expression:
        return lic.expression, lic.found_by
    expression, licence_file = source.folder_licence(path)
    if expression:
        return expression, f"folder:{licence_file}"
    if party is not None:
        return "", f"{THIRD_PARTY}{party}"  # the party's own release, when an upstream: _party_release
    if source.declared:
        return source.declared, "declared"
    if release:
        return release, RELEASE_NOTICES
    return "", ""


def _party_release(party: str, up_tree: Mapping[str, TreeIndex],
                   up_source: Mapping[str, SourceLicence]) -> tuple[str, SourceLicence] | None:
    """The upstream of this run that is a release of project ``party`` (by distribution name),
    with its licence files: whose declared licence and holders speak for that project's code
    another upstream carries (setuptools against wheel 0.43 and packaging 24.0: wheel's
    ``vendored/packaging/`` files are packaging's). None when no upstream is."""
    wanted = canonicalize_name(party)
    for label, tree in up_tree.items():
        if canonicalize_name(tree.project.name or label) == wanted:
            return label, up_source[label]
    return None


def same_text(a: bytes, b: bytes) -> bool:
    """Whether two files hold the same text once their line endings are folded to LF: lark
    1.1.9's wheel ships CRLF files that poetry-core 1.9.1 vendors with LF, a checkout's or a
    build's doing, not a change to the code that asks for a modification notice."""
    def lf(data: bytes) -> bytes:
        return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")

    return a == b or lf(a) == lf(b)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _copyright_kept_in(up_copyrights: Sequence[str], file_copyrights: Sequence[str],
                       licence_files: Sequence[LicenceFile],
                       package: tuple[tuple[str, ...], str] = ((), "")) -> str:
    """Where the target keeps every upstream holder: ``file``, else the licence files that speak
    for the file (``folder:``/``root:`` and the paths of those naming a holder), else the
    ``__copyright__`` string of its package (``package``: lines and module,
    ``SourceLicence.package_copyrights_above``; ``package:<module>``), else ``""``."""
    if keeps_holders(up_copyrights, file_copyrights):
        return "file"
    in_licence_files = _kept_in_licence_files(up_copyrights, file_copyrights, licence_files)
    if not in_licence_files and package[1] and keeps_holders(up_copyrights, package[0]):
        return f"package:{package[1]}"
    return in_licence_files


def _kept_in_licence_files(up_copyrights: Sequence[str], file_copyrights: Sequence[str],
                           licence_files: Sequence[LicenceFile]) -> str:
    # a licence file keeps the notices it reproduces, those of software it appends too
    # (LicenceFile.retained_copyrights): pandas' LICENSE keeps pyperclip's for io/clipboard
    kept = {f.path: f.copyrights + f.retained_copyrights for f in licence_files}
    files = [f for f in licence_files if any(keeps_holders([c], kept[f.path]) for c in up_copyrights)]
    if not files:
        return ""
    in_files = [c for f in files for c in kept[f.path]]
    where = ("folder:" if files[0].folder else "root:") + "; ".join(f.path for f in files)
    if keeps_holders(up_copyrights, in_files):
        return where
    # the file and its licence files together: libcst's tokenize.py names David Halter and the
    # root LICENSE the PSF, the two holders of parso's LICENSE (each notice is "included")
    rest = [c for c in up_copyrights if not keeps_holders([c], file_copyrights)]
    return f"file; {where}" if len(rest) < len(up_copyrights) and keeps_holders(rest, in_files) else ""


def _kept(up_copyrights: tuple[str, ...], file_copyrights: tuple[str, ...], licence_files: tuple[LicenceFile, ...],
          package: tuple[tuple[str, ...], str], memo: dict[tuple[object, ...], tuple[str, tuple[str, ...]]] | None,
          ) -> tuple[str, tuple[str, ...]]:
    """(:func:`_copyright_kept_in`, and when that is "" :func:`_copyrights_not_kept`, else ``()``)
    of these arguments, looked up in ``memo`` (by the arguments' values) when given."""
    key = (up_copyrights, file_copyrights, licence_files, package)
    if memo is not None and key in memo:
        return memo[key]
    kept_in = _copyright_kept_in(up_copyrights, file_copyrights, licence_files, package)
    found = (kept_in, () if kept_in else _copyrights_not_kept(up_copyrights, file_copyrights, licence_files, package))
    if memo is not None:
        memo[key] = found
    return found


def _copyrights_not_kept(up_copyrights: Sequence[str], file_copyrights: Sequence[str],
                         licence_files: Sequence[LicenceFile],
                         package: tuple[tuple[str, ...], str] = ((), "")) -> tuple[str, ...]:
    """The upstream copyright lines whose holder (:func:`lineage.licences.notices.keeps_holders`)
    none of the places :func:`_copyright_kept_in` reads names: the target file, the licence files
    that speak for it (their retained notices too) and its package's ``__copyright__`` string;
    for a pair that keeps them only across places that rule does not join (the package's string
    and a licence file), those the target file does not name. itsdangerous 2.2.0's LICENSE.txt,
    "Copyright 2011 Pallets", keeps 1.1.0's "Copyright © 2011 by the Pallets team." but not its
    "Copyright © Django Software Foundation and individual contributors."."""
    kept = [*file_copyrights, *(c for f in licence_files for c in (*f.copyrights, *f.retained_copyrights)),
            *package[0]]
    lost = tuple(c for c in up_copyrights if not keeps_holders([c], kept))
    return lost or tuple(c for c in up_copyrights if not keeps_holders([c], file_copyrights))


# A span of years: two years or more stated (a range or a list), as a copied line keeps them; one
# year alone is as often the year two projects each wrote their own line in (sglang's "Copyright
# 2025 SGLang Team" over vLLM's "Copyright 2025 The vLLM team.").
_SPAN_RE = re.compile(r"(?:19|20)\d\d\D+(?:19|20)\d\d")


def replaced_holders(not_kept: Sequence[str], file_copyrights: Sequence[str],
                     up_copyrights: Sequence[str]) -> tuple[str, ...]:
    """The target file's copyright lines that state the same span of years as an upstream line it
    does not keep (:func:`lineage.licences.notices.stated_years`, two years or more) under a
    holder none of the upstream file's lines names: the upstream's years kept, its holder
    replaced on copied code. ssh 1.8.0 (paramiko renamed) writes "Copyright (C) 2006-2007 Jeff
    Forcier" in ``ssh/client.py`` where paramiko 1.7.7.1's reads "Copyright (C) 2006-2007 Robey
    Pointer"; a line of the fork's own years ("Copyright (C) 2011 Jeff Forcier", most of ssh's
    files) is not one."""
    spans = {years for line in not_kept if _SPAN_RE.search(years := stated_years(line))}
    return tuple(line for line in file_copyrights
                 if stated_years(line) in spans and not any(keeps_holders([up], [line]) for up in up_copyrights))


@dataclass(frozen=True)
class _FileFacts:
    """What one (target file, upstream file) pair's obligations are checked against."""

    t_path: str
    t_file: FileLicence
    target_source: SourceLicence
    target_notice_text: str  # the target's root NOTICE and licence files' lines, folded
    up_from: str
    up_copyrights: tuple[str, ...]
    copyrights_from: str
    modified: bool
    source: SourceLicence  # the upstream's
    up_changes: tuple[str, ...]  # the upstream file's own modification notices (FileLicence.changes)
    # the licence notices among the pair's copied target lines, read only when the file's own,
    # its folder's and the root's notices leave one missing (most pairs keep theirs without)
    copied_ids: Callable[[], tuple[str, ...]] = tuple
    # the upstream is an earlier release of the target's own project, or this upstream file is
    # held by the target's own organisation (:func:`own_organisation`)
    own_release: bool = False
    # the upstream file's statements naming its licence by family only (:func:`family_statements`)
    up_statements: tuple[tuple[str, str], ...] = ()
    # when the upstream is a release of the target's own project (:func:`one_project`): the
    # persons the target's metadata names as its authors (:func:`own_authors`), else empty
    own_authors: frozenset[str] = frozenset()
    # where the copyright lines are kept (:func:`_copyright_kept_in`, :func:`_copyrights_not_kept`)
    # by those functions' arguments, shared by the rows of one table: many pairs ask the same
    # (the pinned pair's 718 rows, 0.1 s of :func:`_check`'s 0.2 s; round speed171)
    kept_memo: dict[tuple[object, ...], tuple[str, tuple[str, ...]]] | None = None


_PATH_TOKEN_RE = re.compile(r"\S*[./]\S*")


def _change_key(statement: str) -> str:
    """A (folded) modification notice with each path or dotted name in it cut to its last two
    parts: a fork that renamed the package keeps the upstream's notice with the paths rewritten
    (aphrodite-engine 0.6.3's "modified from aphrodite.modeling.models.llama.llamaattention" is
    vLLM's "modified from vllm.model_executor.models.llama.llamaattention"), and that is still
    the upstream's notice, not one of the fork's own changes."""
    def tail(match: re.Match[str]) -> str:
        token = match.group(0).split("#", 1)[0].rstrip(".,;:)")
        token = token.removesuffix(".py")
        parts = [p for p in re.split(r"[./]", token) if p]
        return "/".join(parts[-2:])

    return _PATH_TOKEN_RE.sub(tail, statement)


def _check(up_licence: str, facts: _FileFacts) -> tuple[dict[str, object], list[str]]:
    """The obligation cells of a pair under upstream licence ``up_licence`` (one choice of the
    upstream's licence when it offers several), and what is missing."""
    t_path, t_file, target_source = facts.t_path, facts.t_file, facts.target_source
    missing = []
    # public domain asks for no copyright line, notice or statement of change: only the other
    # licences of the expression ask anything (``n/a`` when there are none); an unknown licence
    # (no id) is checked for the copyright lines as before
    every_id = set(licence_ids(up_licence))
    up_ids = {i for i in every_id if not asks_nothing(i)}
    keeps_copyright, kept_in, not_kept = "n/a", "", ()
    if facts.up_copyrights and (up_ids or not every_id):
        file_only = facts.copyrights_from == "file" and "Apache-2.0" in up_ids
        licence_files = () if file_only else target_source.governing_files(t_path)
        package = ((), "") if file_only else target_source.package_copyrights_above(t_path)
        kept_in, not_kept = _kept(tuple(facts.up_copyrights), tuple(t_file.copyrights), licence_files, package,
                                  facts.kept_memo)
        keeps_copyright = _yes(bool(kept_in))
        if keeps_copyright == "no":
            if owed_itself(not_kept, facts.own_authors):
                keeps_copyright, not_kept = "not required", ()
            else:
                missing.append("copyright")
    replaced = replaced_holders(not_kept, t_file.copyrights, facts.up_copyrights) if not_kept else ()
    # a licence file governing the target file's folder (a vendored copy's) keeps its notice
    # too, and so does the root's, as for the copyright lines, unless the upstream file is
    # Apache-2.0 with its own notice (section 4(c): the Source form's notices stay in it)
    folder_expression, folder_file = target_source.folder_licence(t_path)
    t_ids = set(licence_ids(t_file.expression)) | set(t_file.notice_ids) | text_editions(licence_ids(folder_expression))
    if not folder_file and not (facts.up_from in ("spdx", "notice") and "Apache-2.0" in up_ids):
        t_ids |= text_editions(i for f in target_source.files if f.folder == "" for i in licence_ids(f.expression))
    # a notice copied with the code (xgboost's core.py keeps scikit-learn's "# License: BSD 3
    # clause" above the function it took) keeps the licence's notice, mid-file too; only the
    # copied lines, not first_line..last_line (a paired "import sys" can open the span far above)
    if up_ids and not up_ids <= with_included(t_ids):
        t_ids |= set(facts.copied_ids())
    # the upstream file's own notice names only its licence's family (IPython 3.2's "distributed
    # under the terms of the BSD License", its licence BSD-3-Clause from the release): kept word for
    # word in the target file's head, that notice is the one the file gave (nbformat 4.0's v1/v2)
    family = [text for text, word in facts.up_statements
              if up_ids and all(i.lower().startswith(f"{word}-") for i in up_ids)]
    kept_statement = bool(family) and all(text in t_file.text for text in family)
    keeps_notice = _yes(kept_statement or up_ids <= with_included(t_ids)) if up_ids else "n/a"
    if keeps_notice == "no":
        missing.append("licence-notice")
    if not every_id:
        change = "n/a"
    elif facts.modified and not facts.own_release and asks_change_notice(up_licence):
        # a notice copied with the code ("Adapted from transformers' llama") states the upstream's
        # change of someone else's code, not the target's of the upstream file (Apache-2.0 4(b))
        own = {_change_key(c) for c in t_file.changes} - {_change_key(c) for c in facts.up_changes}
        change = _yes(bool(own))
        if change == "no":
            missing.append("modification-notice")
    else:
        change = "not required"
    notice_lines = facts.source.notice_lines if "Apache-2.0" in up_ids else ()
    haystack = facts.target_notice_text + "\n" + t_file.text
    absent = sum(1 for line in notice_lines if fold(line) not in haystack)
    if absent:
        missing.append("NOTICE")
    return {"keeps_copyright": keeps_copyright, "copyright_kept_in": kept_in,
            "copyrights_missing": join_copyrights(not_kept), "copyright_replaced_by": join_copyrights(replaced),
            "keeps_licence_notice": keeps_notice,
            "modified": _yes(facts.modified), "modification_notice": change,
            "notice_files": "; ".join(facts.source.notice_paths) if notice_lines else "",
            "notice_lines": len(notice_lines), "notice_lines_missing": absent}, missing


def text_editions(ids: Iterable[str]) -> set[str]:
    """A licence file's ids and, for a GNU licence, its other edition: the text of the LGPL version 3
    is one for "version 3 only" and "version 3 or any later version" (a file's notice chooses, the
    text cannot), so the licence file keeps the notice of either. fpdf2 2.8.1's LICENSE, the LGPL
    3.0 text (read LGPL-3.0-only from its title), did not keep PyFPDF's LGPL-3.0-or-later."""
    found = set(ids)
    for i in list(found):
        for own, other in (("-only", "-or-later"), ("-or-later", "-only")):
            if i.endswith(own):
                found.add(i.removesuffix(own) + other)
    return found


def _copied_notice_ids(lines_of: Callable[[str], list[str]], path: str, numbers: list[int]
                       ) -> Callable[[], tuple[str, ...]]:
    """The licence notices among lines ``numbers`` (1-based, ascending) of target file ``path``
    (``lines_of``: its lines), read on first call and kept."""
    @cache
    def read() -> tuple[str, ...]:
        lines = lines_of(path)
        return source_notice_ids("\n".join(lines[n - 1] for n in numbers if n <= len(lines)))
    return read


def own_organisation(target: TreeIndex, upstream: TreeIndex) -> str:
    """The organisation (:func:`lineage.licences.notices.organisation`: one for "Google Inc." and
    "Google LLC") that holds the target's copyright, when the target states a holder of its own:
    all its main holders (:func:`lineage.match.holders.main_holders`) are of that one organisation
    and none is named by a copyright line of the upstream (its files' or its licence files'), or,
    when one is, the target's metadata authors name that organisation (an author whose name begins
    with it: "HuggingFace Inc. Special Ops Team"); "" otherwise. A fork that kept the upstream's
    holder, alone or beside its own, and whose authors are others, has none; nor has a target
    whose root licence files (not one for included code) name a holder of another organisation
    beside it: its copyright is held jointly (disnake 2.1.0's LICENSE, "Copyright (c) 2015-present
    Rapptz, 2021-present EQUENOS", its authors "Rapptz, EQUENOS" and its files discord.py 1.7.3's
    "Rapptz" headers: read as held by Rapptz, and summary.md said Rapptz held the fork)."""
    mine = main_holders(target.files)
    organisations = {organisation(h) for h in mine}
    if len(organisations) != 1 or "" in organisations:
        return ""
    (own,) = organisations
    # the licence files' holders read person by person, the main holders too: "Meta Platforms, Inc.
    # and affiliates" is one holder of organisation "metaplatforms,inc.andaffiliates" and names
    # one person, "meta platforms", of organisation "metaplatforms"
    ours = {own} | {organisation(person) for h in mine for person in holder_persons(h)}
    licence_files = target.licence.files if target.licence else ()
    if any(org not in ours for lf in licence_files if not lf.folder and not lf.included_code
           for line in lf.copyrights for person in stated_persons(line) if (org := organisation(person))):
        return ""
    held = {holder_key(holder(line)) for line in upstream.stated_copyrights}
    if not mine & held:
        return own
    # the upstream names the target's holder too: a fork that kept its upstream's holder line, or
    # the organisation taking its own code; the target's metadata authors tell which (optimum
    # 1.23.3, "HuggingFace Inc. Special Ops Team", from transformers' "The HuggingFace Team"
    # files; a fork's own authors are others)
    authors = {organisation(holder_key(a)) for a in target.project.authors}
    return own if any(a.startswith(own) for a in authors if a) else ""


def own_authors(target: TreeIndex, upstream: TreeIndex) -> frozenset[str]:
    """The persons (:func:`~lineage.match.holders.holder_key`) the target's metadata names as its
    authors or maintainers, when the upstream is a release of the target's own project
    (:func:`~lineage.index.project.one_project`); empty otherwise (a fork's metadata may credit the
    upstream's author, whose notice it still owes)."""
    if not one_project(target.project, upstream.project):
        return frozenset()
    return frozenset(key for a in target.project.authors for key in holder_persons(a) if key)


def owed_itself(lines: Sequence[str], authors: frozenset[str]) -> bool:
    """Whether every one of these upstream copyright lines (those the target keeps nowhere) names
    only persons among ``authors`` (:func:`own_authors`: a release of the target's own project):
    the project's own earlier notice, whose holder is one of the authors shipping the target and
    owes himself no copy of it, as the project owes itself no statement of change. pydantic 2.10.6
    ships 1.10.19 whole as ``pydantic/v1/``; 1.10.19's LICENSE says "Copyright (c) 2017, ..., 2021
    Samuel Colvin and other contributors", 2.10.6's "Copyright (c) 2017 to present Pydantic
    Services Inc. and individual contributors", and its METADATA names Samuel Colvin its first
    author: its 49 pairs read "copyright missing". A line naming no person ("other contributors"
    alone), or anyone the target's metadata does not name (itsdangerous 1.1.0's "Django Software
    Foundation" in its own later release), is still owed."""
    if not authors or not lines:
        return False
    named = [stated_persons(line) for line in lines]
    return all(persons and persons <= authors for persons in named)


def held_by_organisation(copyrights: Sequence[str], own: str) -> bool:
    """Whether copyright lines name holders, all of organisation ``own`` (:func:`own_organisation`)."""
    named = holders(copyrights)
    return bool(own and named) and all(organisation(h) == own for h in named)


def build_obligations(target: TreeIndex, upstreams: list[TreeIndex], upstream_names: list[str],
                      lines: pd.DataFrame, files: pd.DataFrame, head_lines: int, *,
                      release_holder_files: int, not_own: Mapping[str, Collection[str]] | None = None,
                      target_not_own: Collection[str] = (),
                      third_party: Mapping[str, Mapping[str, str]] | None = None,
                      own_organisations: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The obligations table (see the module docstring) from a comparison's parts; ``head_lines``
    is ``MatchParams.licence_head_lines``, ``release_holder_files``
    ``MatchParams.licence_release_holder_files``; ``not_own``: per upstream label, its whole files
    that are not its own code (:func:`release_licence`); ``target_not_own``: the target's
    (:func:`lineage.match.origin.vendored_paths`: a vendored library's files, whose notices state
    that library's licence, not the target's); ``third_party``: per upstream label, those
    of them that are another project's code by their place (a vendored folder or record), with that
    project's name (for ``upstream_licence``); ``own_organisations``: per upstream label,
    :func:`own_organisation` (made here when not given)."""
    if lines.empty:
        return empty("obligations")
    copied = rows_where(lines, lines["match"] != "none", ["target_path", "upstream", "upstream_path", "match", "line"])
    if copied.empty:
        return empty("obligations")
    groups = (copied.assign(verbatim=copied["match"] == "verbatim", near=copied["match"] == "near")
              .groupby(["target_path", "upstream", "upstream_path"], sort=True, observed=True)
              .agg(copied_lines=("line", "size"), verbatim_lines=("verbatim", "sum"), near_lines=("near", "sum"),
                   first_line=("line", "min"), last_line=("line", "max"))
              .reset_index())
    marked = dict(zip(files["target_path"], files["marker"] != "", strict=True))
    copied_lines = {(str(t), str(u), str(p)): sorted(int(n) for n in g)
                    for (t, u, p), g in copied.groupby(["target_path", "upstream", "upstream_path"],
                                                       sort=False, observed=True)["line"]}
    target_lic = _FileLicences(target, head_lines)
    lines_of = cache(target.lines)  # a target file's lines, decoded once for all its pairs
    target_source = source_licence(target)
    target_notice_text = fold("\n".join(
        "\n".join(f.lines) + "\n" + "\n".join(f.copyrights) for f in target_source.files if f.folder == ""))
    target_file = {f.path: f for f in target.files}
    up_lic = {label: _FileLicences(tree, head_lines) for label, tree in zip(upstream_names, upstreams, strict=True)}
    up_source = {label: source_licence(tree) for label, tree in zip(upstream_names, upstreams, strict=True)}
    up_tree = dict(zip(upstream_names, upstreams, strict=True))
    # a licence binds its licensees: the organisation holding both the target and an upstream
    # file owes itself no statement of change (Apache-2.0 4(b)), as a project its earlier release
    # (google-auth 2.36.0, "Google LLC", from oauth2client 4.1.3's "Google Inc." files)
    own_org = (dict(own_organisations) if own_organisations is not None
               else {label: own_organisation(target, tree) for label, tree in up_tree.items()})
    authors_of = {label: own_authors(target, tree) for label, tree in up_tree.items()}
    # each release's licence by label (its files' heads read only when it declares none): the
    # target's made below, before the rows, since the table key holds it; an upstream's when a
    # row first needs it
    released: dict[str, str] = {}
    released_holders: dict[str, tuple[str, ...]] = {}  # likewise, when a release names no holder
    not_own_of = not_own or {}
    third_party_of = third_party or {}
    kept_memo: dict[tuple[object, ...], tuple[str, tuple[str, ...]]] = {}  # _FileFacts.kept_memo
    # the licence the target's own files state (when it declares none): read by every row
    released[_TARGET] = release_licence(target_lic, target_source, target_not_own)
    # each row's cells kept between runs (lineage.results.obligation_rows), by what they read
    kept_rows = KeptRows(table_key(target, upstreams, upstream_names, head_lines, release_holder_files,
                                   not_own_of, third_party_of, own_org, authors_of, released[_TARGET]))
    run = _Run(target, target_lic, target_source, target_notice_text, target_file, lines_of, up_lic, up_source,
               up_tree, released, released_holders, not_own_of, third_party_of, own_org, authors_of, kept_memo,
               release_holder_files)
    rows = []
    for g in groups.itertuples(index=False):
        label, up_path, t_path = str(g.upstream), str(g.upstream_path), str(g.target_path)
        pair = pair_key(t_path, target_file[t_path].digest, label, up_path, copied_lines[(t_path, label, up_path)])
        cells = kept_rows.get(pair)
        if cells is None:
            cells = _row_cells(run, t_path, label, up_path, copied_lines[(t_path, label, up_path)])
            kept_rows.put(pair, cells)
        rows.append({
            "target_path": t_path, "upstream": label, "upstream_path": up_path,
            "copied_lines": int(g.copied_lines), "verbatim_lines": int(g.verbatim_lines),
            "near_lines": int(g.near_lines), "first_line": int(g.first_line), "last_line": int(g.last_line),
            "marked": _yes(bool(marked.get(t_path, False))), **cells,
        })
    kept_rows.store()
    return typed(pd.DataFrame(rows, columns=OBLIGATION_COLUMNS), "obligations")


@dataclass(frozen=True)
class _Run:
    """What :func:`build_obligations` reads once per comparison and every row reads: the
    target's and the upstreams' trees, licences and notices, and the caches the rows fill
    (``released``, ``released_holders``, ``kept_memo``: filled on first need, so mutable)."""

    target: TreeIndex
    target_lic: _FileLicences
    target_source: SourceLicence
    target_notice_text: str
    target_file: Mapping[str, FileIndex]
    lines_of: Callable[[str], list[str]]
    up_lic: Mapping[str, _FileLicences]
    up_source: Mapping[str, SourceLicence]
    up_tree: Mapping[str, TreeIndex]
    released: dict[str, str]
    released_holders: dict[str, tuple[str, ...]]
    not_own_of: Mapping[str, Collection[str]]
    third_party_of: Mapping[str, Mapping[str, str]]
    own_org: Mapping[str, str]
    authors_of: Mapping[str, frozenset[str]]
    kept_memo: dict[tuple[object, ...], tuple[str, tuple[str, ...]]]
    release_holder_files: int


def _row_cells(run: _Run, t_path: str, label: str, up_path: str, copied: list[int]) -> dict[str, object]:
    """The cells of one pair's row that :func:`build_obligations` checks (all but the group's
    counts and ``marked``): what :mod:`lineage.results.obligation_rows` keeps between runs."""
    source = run.up_source[label]
    up_file = run.up_lic[label].get(up_path)
    t_file = run.target_lic.get(t_path)
    if label not in run.released:
        run.released[label] = release_licence(run.up_lic[label], source, run.not_own_of.get(label, ()))
    party = run.third_party_of.get(label, {}).get(up_path)
    up_licence, up_from = _upstream_licence(up_path, up_file, source, run.released[label], party)
    release = _party_release(party, run.up_tree, run.up_source) if party is not None else None
    if release is not None and up_from.startswith(THIRD_PARTY) and release[1].declared:
        up_licence, up_from = release[1].declared, f"{up_from} (declared by upstream {release[0]})"
    # a file's copyright lines that name no holder ("Copyright (c) 2009") name nobody a
    # target could keep or miss: the release's holders speak for that file as for one without
    folder_copyrights, folder_file = source.folder_copyrights(up_path)
    if holders(up_file.copyrights):
        up_copyrights, copyrights_from = up_file.copyrights, "file"
    elif holders(folder_copyrights):
        up_copyrights, copyrights_from = folder_copyrights, f"folder:{folder_file}"
    elif party is not None:  # another project's file: the release's holders are not its
        up_copyrights, copyrights_from = (), f"{THIRD_PARTY}{party}"
        if release is not None and release[1].file_fallback_copyrights:
            up_copyrights = release[1].file_fallback_copyrights
            copyrights_from += f" (licence files of upstream {release[0]})"
    elif dedicated_alone(up_licence):
        # a file its licence puts in the public domain alone has no holder but one its own
        # lines name: the release's holders do not hold it (pycrypto 2.6.1's files, dedicated
        # one by one, read "Portions Copyright ... Python Software Foundation", the line of the
        # two files the release's COPYRIGHT names as its exceptions, HMAC.py and setup.py)
        up_copyrights, copyrights_from = (), ""
    elif source.file_fallback_copyrights:
        up_copyrights, copyrights_from = source.file_fallback_copyrights, "source"
    else:
        # a release naming its holder only in code (requests' __copyright__ string)
        up_copyrights, package_file = source.package_copyrights_above(up_path)
        copyrights_from = f"package:{package_file}" if package_file else ""
        if not package_file:  # failing that, the one holder its files name (ply's)
            if label not in run.released_holders:
                run.released_holders[label] = release_copyrights(
                    run.up_lic[label], source, run.release_holder_files, run.not_own_of.get(label, ()))
            up_copyrights = run.released_holders[label]
            copyrights_from = RELEASE_NOTICES if up_copyrights else ""
    # the target file's own licence, else its folder's (a vendored copy's licence files), else the declared
    t_licence, t_from = _upstream_licence(t_path, t_file, run.target_source, run.released[_TARGET])
    t_index, u_index = run.target_file[t_path], run.up_lic[label].by_path[up_path]
    # the bytes are read only for files whose lines hash alike (the text may then be the same)
    modified = t_index.digest != u_index.digest and not (
        len(t_index.h_abs) == len(u_index.h_abs) and bool((t_index.h_abs == u_index.h_abs).all())
        and same_text(run.target.data[t_path], run.up_tree[label].data[up_path]))
    file_facts = _FileFacts(t_path, t_file, run.target_source, run.target_notice_text, up_from, up_copyrights,
                            copyrights_from, modified, source, up_file.changes,
                            _copied_notice_ids(run.lines_of, t_path, copied),
                            one_project(run.target.project, run.up_tree[label].project)
                            or held_by_organisation(up_copyrights, run.own_org[label]),
                            family_statements(up_file.text) if up_from not in ("spdx", "notice") else (),
                            run.authors_of[label], run.kept_memo)
    offered = choices(up_licence) if up_licence else ("",)
    checked = [_check(choice, file_facts) for choice in offered]
    # a choice (A OR B): the recipient may take either, so the row holds the obligations of the
    # one that leaves least missing in this file (a compatible one first; ties: the first offered)
    best = min(range(len(offered)), key=lambda k: (
        _RANK[compatible(offered[k], t_licence).status], len(checked[k][1]), k)) if len(offered) > 1 else 0
    cells, missing = checked[best]
    verdict = compatible(up_licence, t_licence)
    return {
        "upstream_licence": up_licence,
        "upstream_licence_from": up_from + (f"{UNDER}{offered[best]}" if len(offered) > 1 else ""),
        "upstream_copyrights": join_copyrights(up_copyrights), "upstream_copyrights_from": copyrights_from,
        "target_licence": t_licence, "target_licence_from": t_from,
        **cells,
        "conflict": {"ok": "no", "conflict": "yes"}.get(verdict.status, "unknown"),
        "conflict_reason": verdict.reason, "missing": "; ".join(missing),
    }


def obligation_counts(table: pd.DataFrame) -> dict[str, object]:
    """Figures for summary.json: rows, files, what is missing how often, conflicts, and
    ``upstream_licences``: per upstream licence, how many target files (not rows) hold code under
    it (pydantic 2.9.2 against 1.10.18: 49 rows, 48 files, ``{"MIT": 48}``)."""
    files = table["target_path"].nunique() if len(table) else 0
    missing = {kind: int(table["missing"].str.contains(kind, regex=False).sum()) if len(table) else 0
               for kind in MISSING_KINDS}
    return {
        "rows": int(len(table)),
        "target_files": int(files),
        "rows_missing_something": int((table["missing"] != "").sum()) if len(table) else 0,
        "missing": missing,
        "conflicts": int((table["conflict"] == "yes").sum()) if len(table) else 0,
        "unknown_compatibility": int((table["conflict"] == "unknown").sum()) if len(table) else 0,
        "upstream_licences": {str(k): int(v) for k, v in sorted(
            table.groupby("upstream_licence", sort=True)["target_path"].nunique().items())} if len(table) else {},
    }
