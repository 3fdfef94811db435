"""What a source records about the packages it vendors, and which of its files each record covers.

A project that vendors a package usually says so outside the copied files, which carry no marker
of their own. Two forms that released wheels carry, both read by :func:`read_vendor_records` once
per source while it is open (like :mod:`lineage.index.project`):

* a pinned list named ``vendor.txt``, ``vendored.txt`` or ``patched.txt`` (pip's
  ``pip/_vendor/vendor.txt``, the ``wheel/vendored/vendor.txt`` that setuptools ships inside its
  vendored wheel, older setuptools' ``setuptools/_vendor/vendored.txt``, pipenv's
  ``pipenv/patched/patched.txt`` for the pip it patches): requirements as pip reads them (PEP 508, parsed by
  ``packaging``; indented, commented, ``--hash`` and continued lines too; a line that is not a
  requirement is skipped); a ``==`` or ``===`` specifier is the pin. It speaks for its folder.
* a vendored copy's own ``NAME-VERSION.dist-info`` (setuptools 70 and later:
  ``setuptools/_vendor/packaging-24.2.dist-info``): ``Name`` and ``Version`` from its METADATA
  (else from the folder's name), its Python files from its RECORD (paths relative to the folder
  that holds the dist-info; a RECORD that cannot be read leaves the record without its list). A
  dist-info at the top of the tree is the source's own metadata when it is the only one there (a
  wheel); a tree with several there (a site-packages, a vendoring folder given as the target)
  holds vendored copies.

:func:`vendor_markers` turns the records that name an upstream of the comparison into
provenance markers of kind ``vendored`` (line 0: a record speaks for the whole file, as a header
marker does; the text names the record's file without a line, so that a line added above it in
``vendor.txt`` changes no marker), one per record per covered Python file: the files its RECORD
lists; otherwise the package folder or module of the declared name in the record's folder
(``requests`` -> ``pip/_vendor/requests/``, ``typing_extensions`` ->
``pip/_vendor/typing_extensions.py``) and the upstream's own top-level packages there (pip's
``setuptools==70.3.0`` is its ``pkg_resources``), unless other records of the folder name the
same upstream (a folder of several releases compared as one upstream: its packages are then no
one record's). A file covered by several records lists the
innermost folder's first (wheel's vendored packaging inside setuptools' vendored wheel). Which
upstream a ``vendored`` marker names is decided by its declared name alone
(:func:`lineage.markers.marker_names_upstream`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from lineage.index.project import import_parts, package_roots, top_level
from lineage.index.records import is_python_path
from lineage.markers import Marker, marker_names_upstream
from lineage.sources.base import Source, read_declared
from lineage.sources.distinfo import core_metadata, import_tops, record_files, top_level_names

if TYPE_CHECKING:
    from lineage.index.tree import TreeIndex

VENDOR_LISTS = ("vendor.txt", "vendored.txt", "patched.txt")
VENDORED_KIND = "vendored"
_MAX_RECORD_BYTES = 4 << 20
_DIST_INFO_RE = re.compile(r"(?:(?P<folder>.+)/)?(?P<stem>[^/]+)\.dist-info/METADATA")
_COMMENT_RE = re.compile(r"\s#")  # a comment after a requirement (pip: whitespace, then #)
_OPTION_RE = re.compile(r"\s--?[A-Za-z][\w-]*(?:[ =]\S+)?")  # per-requirement options: --hash=sha256:...


@dataclass(frozen=True)
class VendorRecord:
    """One vendored package as its vendoring project records it."""

    folder: str  # the folder the record speaks for ("pip/_vendor"; "" for the tree's top)
    name: str  # the distribution name as written ("CacheControl")
    version: str  # the pinned version, "" when the record pins none
    source: str  # the file that records it ("pip/_vendor/vendor.txt")
    line: int  # its line there (0: a dist-info's METADATA)
    files: frozenset[str] = frozenset()  # Python files its RECORD lists, relative to ``folder``
    # a RECORD-less dist-info's top-level imports as its top_level.txt lists them ("attr", "attrs")
    tops: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, object]:
        """The record as JSON data (its files sorted): part of a source's identity."""
        out = {"folder": self.folder, "name": self.name, "version": self.version, "source": self.source,
               "line": self.line, "files": sorted(self.files)}
        return out | {"tops": sorted(self.tops)} if self.tops else out  # absent before top_level.txt was read

    def describe(self) -> str:
        """The record as a marker's text: ``vendored requests==2.32.3 (pip/_vendor/vendor.txt)``."""
        pin = f"=={self.version}" if self.version else ""
        return f"vendored {self.name}{pin} ({self.source})"


def _pin(requirement: Requirement) -> str:
    pins = [spec.version for spec in requirement.specifier if spec.operator in ("==", "===")]
    return pins[0] if len(pins) == 1 and "*" not in pins[0] else ""


def parse_vendor_list(text: str, source: str) -> list[VendorRecord]:
    """The records of a ``vendor.txt`` at path ``source``, in line order (a continued line counts
    at its first line)."""
    folder = posixpath.dirname(source)
    out = []
    pending, first = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT_RE.split(raw, 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if pending:
            line, start = pending + " " + line, first
        else:
            start = number
        if line.endswith("\\"):
            pending, first = line[:-1].strip(), start
            continue
        pending = ""
        line = _OPTION_RE.sub("", " " + line).strip()
        if not line or line.startswith("-"):  # options such as -r or --index-url
            continue
        try:
            requirement = Requirement(line)
        except InvalidRequirement:  # a URL, prose, an editable: not a pinned package
            continue
        out.append(VendorRecord(folder, requirement.name, _pin(requirement), source, start))
    return out


def parse_dist_info(metadata: bytes, record: bytes | None, metadata_path: str,
                    top_level_txt: bytes = b"") -> VendorRecord | None:
    """The record of a vendored copy's dist-info (its METADATA at ``metadata_path``, its RECORD;
    without a RECORD, the imports its ``top_level.txt`` lists)."""
    m = _DIST_INFO_RE.fullmatch(metadata_path)
    if m is None:
        return None
    message = core_metadata(metadata)
    stem_name, _, stem_version = m.group("stem").rpartition("-")
    name = str(message.get("Name") or "").strip() or stem_name
    if not name:
        return None
    version = str(message.get("Version") or "").strip() or (stem_version if stem_name else "")
    return VendorRecord(m.group("folder") or "", name, version, metadata_path, 0,
                        record_files(record) if record is not None else frozenset(),
                        frozenset(top_level_names(top_level_txt)) if record is None else frozenset())


def read_vendor_records(source: Source) -> tuple[VendorRecord, ...]:
    """Every vendoring record of an open source, read through a :class:`~lineage.sources.base.DeclaredView`
    (a file over its limit is not read: as if absent); details in :func:`_read_vendor_records`."""
    return read_declared(source, _read_vendor_records)


def _read_vendor_records(source: Source) -> tuple[VendorRecord, ...]:
    """Every vendoring record of an open source, sorted by folder, name and source; none when it has none."""
    paths = source.paths()
    present = set(paths)
    top_dist_infos = [p for p in paths if p.count("/") == 1 and _DIST_INFO_RE.fullmatch(p)]
    records: list[VendorRecord] = []
    for path in paths:
        if posixpath.basename(path) in VENDOR_LISTS:
            raw = source.read(path)
            if len(raw) <= _MAX_RECORD_BYTES:
                records += parse_vendor_list(raw.decode("utf-8-sig", "replace"), path)
        elif _DIST_INFO_RE.fullmatch(path) and (path.count("/") >= 2 or len(top_dist_infos) > 1):
            raw = source.read(path)
            record_path = path[: -len("METADATA")] + "RECORD"
            listed = source.read(record_path) if record_path in present else None
            tops_path = path[: -len("METADATA")] + "top_level.txt"
            tops = source.read(tops_path) if listed is None and tops_path in present else b""
            if len(raw) <= _MAX_RECORD_BYTES and (listed is None or len(listed) <= _MAX_RECORD_BYTES) \
                    and len(tops) <= _MAX_RECORD_BYTES:
                found = parse_dist_info(raw, listed, path, tops)
                if found is not None:
                    records.append(found)
    return tuple(sorted(records, key=lambda r: (r.folder, canonicalize_name(r.name), r.source, r.line)))


def _inner(record: VendorRecord, inner: str, tops: Sequence[str]) -> bool:
    """Whether ``inner`` (a path inside the record's folder) is a file the record speaks for."""
    if record.files:
        return inner in record.files
    return covered(inner, tops)


def covered(path: str, tops: Iterable[str]) -> bool:
    """Whether ``path`` (as an import reads it) is one of these top-level modules or lies in one
    of these packages (:func:`top_modules`)."""
    return any(path in (top + ".py", top + ".pyi") or path.startswith(top + "/") for top in tops)


def vendor_markers(records: Sequence[VendorRecord], paths: Sequence[str],
                   upstreams: Sequence[tuple[set[str], set[str]]] | None = None) -> dict[str, list[Marker]]:
    """The ``vendored`` markers of each covered path of ``paths`` (innermost record first).
    ``upstreams``: per upstream of the comparison, (the names a marker may use for it, its own
    top-level packages): only records naming one of them give markers, and such a record covers
    that upstream's packages too when it is the only record of its folder naming that upstream.
    Without ``upstreams`` every record gives markers."""
    normal_upstreams = [{canonicalize_name(n) for n in names} for names, _ in upstreams or ()]
    naming = {id(r): [k for k, names in enumerate(normal_upstreams) if canonicalize_name(r.name) in names]
              for r in records}
    # How many records of a folder name each upstream: an upstream of several packages (a folder
    # of many releases) is named by each of theirs, and its packages are then no one record's.
    namers: dict[tuple[str, int], int] = {}
    for r in records:
        for k in naming[id(r)]:
            namers[(r.folder, k)] = namers.get((r.folder, k), 0) + 1
    by_folder: dict[str, list[tuple[VendorRecord, list[str]]]] = {}
    for record in sorted(records, key=lambda r: (canonicalize_name(r.name), r.source, r.line)):
        tops = import_tops(record.name) | record.tops
        if upstreams is not None and not naming[id(record)]:
            continue
        for k in naming[id(record)]:
            if namers[(record.folder, k)] == 1:
                tops |= upstreams[k][1]  # type: ignore[index]
        by_folder.setdefault(record.folder, []).append((record, sorted(tops, key=lambda t: (-len(t), t))))
    out: dict[str, list[Marker]] = {}
    if not by_folder:
        return out
    for path in paths:
        parts = path.split("/")
        # innermost folder first: wheel's vendored packaging inside setuptools' vendored wheel
        for depth in range(len(parts) - 1, -1, -1):
            folder = "/".join(parts[:depth])
            inner = "/".join(parts[depth:])
            for record, tops in by_folder.get(folder, ()):
                if _inner(record, inner, tops):
                    out.setdefault(path, []).append(Marker(line=0, kind=VENDORED_KIND, text=record.describe(),
                                                           ref=record.version, path=inner, project=record.name))
    return out


def records_covering(records: Sequence[VendorRecord], paths: Iterable[str]) -> list[VendorRecord]:
    """The records among ``records`` that speak for at least one of ``paths``, each read as
    :func:`vendor_markers` reads it when every record gives markers (its RECORD's files, else
    the package or module of its name in its folder): which of a target's records say what its
    files sharing a third party's lines are (:mod:`lineage.results.third_party`)."""
    wanted = list(paths)
    return [r for r in records if wanted and vendor_markers([r], wanted)]


FOLDER_KIND = "folder"


def folder_markers(paths: Sequence[str], upstreams: Sequence[tuple[str, set[str], frozenset[str]]],
                   covered_paths: Iterable[str] = (), declared: Iterable[str] = ()) -> dict[str, list[Marker]]:
    """The ``folder`` markers of ``paths`` (a target's files) that no vendoring record covers
    (``covered_paths``): a file inside one of the target's own packages, in a folder named after
    an upstream, at that upstream file's own path below it (``PyInstaller/lib/modulegraph/
    util.py`` <- ``modulegraph/util.py``), says by its place that it is that upstream's copy, as
    a record would. ``upstreams``: per upstream, (its distribution name, its own top-level
    packages and modules, :func:`top_modules`, its file paths). The folder must be the name and
    a top-level package of the upstream's both (``tomli``, not PyYAML's ``yaml``, nor a ``tests``
    folder an upstream ships), or its one top-level package, which its declared distribution name
    (``declared``) extends (fluidity-sm's ``fluidity``: :func:`_folder_names_upstream`), or the
    namespace of a namespaced package the distribution's dotted name spells, standing for that
    package (strictyaml's ``ruamel`` for ruamel.yaml's ``ruamel/yaml``: :func:`_namespace_top`), and not
    the target's own top-level package: another release of
    the same project, or a ``src/`` layout, is no vendored copy. And the folder must hold the
    upstream's layout: at least half of its Python files at upstream paths (two at least, unless
    it holds one): pip 24.2's own ``_internal/resolution/resolvelib/`` (its resolver's glue, 9
    files) shares only ``__init__.py`` with resolvelib's paths; and the folder's own
    ``__init__`` shows no layout (:func:`_shows_layout`). Nor is a folder the upstream
    holds at the same place below one of its own top-level packages (:func:`_own_layout`) a copy:
    a renamed fork carries it with the rest (tf-keras 2.17's ``tf_keras/api/_v1/keras/`` is keras
    2.15's ``keras/api/_v1/keras/``, its API tree, not keras vendored into tf_keras). Nor is a
    folder inside a package of the target bearing that package's own name: keras 3.6's
    ``keras/_tf_keras/keras/`` (its ``tf.keras`` API namespace) against keras 2.15 is keras'
    own name again, not keras 2 vendored into keras 3 (49 files marked for it before)."""
    covered_set = set(covered_paths)
    roots = package_roots(paths)
    target_tops = {top.path for top in top_level(paths) if top.package}
    declared_set = {canonicalize_name(n) for n in declared}
    wanted = [(name, canonicalize_name(name), tops, up_paths) for name, tops, up_paths in upstreams if name]
    # (folder, upstream name) -> [(path, the upstream path it stands at)], in path order
    candidates: dict[tuple[str, str], list[tuple[str, str]]] = {}
    own_layout: dict[tuple[tuple[str, ...], str], bool] = {}
    for path in paths:
        if path in covered_set:
            continue
        parts = import_parts(path, roots)
        if len(parts) < 3 or parts[0] not in target_tops:
            continue
        for i in range(1, len(parts) - 1):
            rest = "/".join(parts[i:])
            if parts[i] == parts[0]:
                continue  # its own package's name again: the target's own namespace, not a copy
            for name, canonical, tops, up_paths in wanted:
                if _folder_names_upstream(parts[i], canonical, tops, canonical in declared_set):
                    up_rest = rest
                elif ns_top := _namespace_top(parts[i], canonical, tops):
                    up_rest = "/".join([ns_top, *parts[i + 1:]])  # the folder stands for ns/pkg
                else:
                    continue
                found = up_rest if up_rest in up_paths else "src/" + up_rest if "src/" + up_rest in up_paths else ""
                key = (tuple(parts[1:i + 1]), name)
                if key not in own_layout:  # one look per folder, not per file
                    own_layout[key] = _own_layout(key[0], tops, up_paths)
                if found and not own_layout[key]:
                    folder = path[: len(path) - len(rest)] + parts[i]
                    candidates.setdefault((folder, name), []).append((path, found))
    out: dict[str, list[Marker]] = {}
    for (folder, name), found_files in candidates.items():
        held = sum(1 for p in paths if p.startswith(folder + "/") and p.endswith((".py", ".pyi")))
        if 2 * len(found_files) < held or (len(found_files) < 2 and held > 1):
            continue  # not the upstream's layout: the target's own folder of that name
        if not _shows_layout(folder, [path for path, _ in found_files], held):
            continue  # only its own __init__ at the upstream's path: the name, not the layout
        for path, found in found_files:
            out.setdefault(path, []).append(Marker(
                line=0, kind=FOLDER_KIND, text=f"{folder}/ named after {name}", path=found, project=name))
    return {path: out[path] for path in paths if path in out}


def module_markers(paths: Sequence[str], upstreams: Sequence[tuple[str, set[str], frozenset[str]]],
                   vendor_folders: frozenset[str], covered_paths: Iterable[str] = ()) -> dict[str, list[Marker]]:
    """The ``folder`` markers of single-module upstreams vendored as one file: a target file in a
    vendoring folder (``vendor_folders``) of one of the target's own packages, named after an
    upstream whose distribution name is that module's and whose top-level module it is, standing
    at the upstream's root (``pip/_vendor/pyparsing.py`` <- pyparsing's ``pyparsing.py``; pip
    9.0.3's wheel ships no vendor.txt). :func:`folder_markers` reads the packages; a module has
    no folder of its own to be named after the upstream, so the vendoring folder's name says it.
    ``upstreams`` and ``covered_paths`` as there."""
    covered_set = set(covered_paths)
    roots = package_roots(paths)
    target_tops = {top.path for top in top_level(paths) if top.package}
    out: dict[str, list[Marker]] = {}
    for path in paths:
        parts = import_parts(path, roots)
        if (path in covered_set or len(parts) < 3 or parts[0] not in target_tops
                or parts[-2].lower() not in vendor_folders or not is_python_path(parts[-1])):
            continue
        module = parts[-1].removesuffix(".pyi").removesuffix(".py")
        for name, tops, up_paths in upstreams:
            found = next((p for p in (parts[-1], "src/" + parts[-1]) if p in up_paths), "")
            if name and module in tops and canonicalize_name(module) == canonicalize_name(name) and found:
                out.setdefault(path, []).append(Marker(
                    line=0, kind=FOLDER_KIND, text=f"{path} named after {name}", path=found, project=name))
    return out


def _shows_layout(folder: str, found: Sequence[str], held: int) -> bool:
    """Whether the files of ``folder`` found at upstream paths (``found``) show the upstream's
    layout. The folder's own ``__init__.py`` (and its ``.pyi`` stub) stands at the upstream's
    ``__init__`` by the folder's name alone, whatever it holds, so a folder holding other Python
    files (``held`` counts them all) must have one of those at an upstream path: jax 0.4.35's
    ``jax/numpy/`` (its own re-implementation of numpy's API: ``__init__.py``, ``__init__.pyi``,
    ``fft.py``, ``linalg.py``) is no copy of numpy, though half its files "stand" at numpy's."""
    own_init = {f"{folder}/__init__.py", f"{folder}/__init__.pyi"}
    return held <= sum(1 for path in found if path in own_init) or any(p not in own_init for p in found)


def _folder_names_upstream(folder: str, canonical: str, tops: set[str], declared: bool) -> bool:
    """Whether a folder named ``folder`` is named after an upstream whose canonical distribution
    name is ``canonical`` and whose top-level packages and modules are ``tops``: the folder is one
    of them and the distribution's name too, or the upstream's only top-level package and the
    distribution's name, as its metadata declares it (``declared``; not a label a folder's name
    gave, ``up-src``), that package's name with a suffix (fluidity-sm's ``fluidity``, the PyPI
    name taken; invoke 2.2 carries it as ``invoke/vendor/fluidity/``). Not a package whose name
    the distribution's does not begin with (PyYAML's ``yaml``, a ``yaml`` folder of the target's own
    could stand for it), nor one of several (a ``tests`` package the upstream ships beside it)."""
    if folder not in tops:
        return False
    name = canonicalize_name(folder)
    return name == canonical or (declared and tops == {folder} and canonical.startswith(name + "-"))


def _namespace_top(folder: str, canonical: str, tops: set[str]) -> str:
    """The upstream's top-level package ``NS/PKG`` inside a namespace package when ``folder`` is
    that namespace's name and the distribution is named ``NS.PKG`` (``canonical``), else ``""``:
    a vendoring rename drops the namespace level (strictyaml 1.7.3 imports ruamel.yaml 0.16.13 as
    ``strictyaml.ruamel``: ``strictyaml/ruamel/main.py`` is ``ruamel/yaml/main.py``), so the
    folder stands for the package and is named after the distribution's first part. Only a
    two-part name the distribution's whole name spells, not a namespace alone: ``ruamel`` is no
    upstream's name by itself."""
    for top in tops:
        namespace, _, package = top.partition("/")
        if (namespace == folder and package and "/" not in package
                and canonicalize_name(f"{namespace}.{package}") == canonical):
            return top
    return ""


def _own_layout(below_top: Sequence[str], tops: set[str], up_paths: frozenset[str]) -> bool:
    """Whether the upstream holds the folder ``below_top`` (its parts below the target's top
    package, the folder's own name last) below one of its own top-level packages ``tops``,
    directly or under a ``src/`` root: the folder is then the upstream's own, at its own place."""
    for top in tops:
        for root in ("", "src/"):
            prefix = root + "/".join([top, *below_top]) + "/"
            if any(p.startswith(prefix) for p in up_paths):
                return True
    return False


def pinned_releases(records: Sequence[VendorRecord], paths: Sequence[str] = (),
                    own_names: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """The PyPI releases the records pin, as source specs (``pypi:requests==2.32.3``), one per
    distribution and version (PEP 440: ``1.16`` is ``1.16.0``), sorted by name and version; and
    what is left out, said in words: records that pin no valid version, records naming the tree's
    own project (``own_names``), records below a ``site-packages`` or ``dist-packages`` folder
    (an environment lying in the tree, not vendored code) and dist-infos whose RECORD lists none
    of ``paths`` (a test fixture's)."""
    own = {canonicalize_name(n) for n in own_names}
    present = set(paths)
    pinned: dict[tuple[str, Version], str] = {}
    left_out: dict[str, str] = {}
    for r in records:
        key = canonicalize_name(r.name)
        folders = set(r.folder.split("/"))
        prefix = r.folder + "/" if r.folder else ""
        if key in own:
            left_out.setdefault(key, "the tree's own project")
        elif folders & {"site-packages", "dist-packages"}:
            left_out.setdefault(key, "an installed environment")
        elif r.files and present and not any(prefix + f in present for f in r.files):
            left_out.setdefault(key, "its RECORD lists no file of the tree")
        else:
            try:
                version = Version(r.version)
            except InvalidVersion:
                left_out.setdefault(key, f"no valid pinned version ({r.version!r})" if r.version else "no pin")
                continue
            if version.local is None:
                pinned.setdefault((key, version), f"pypi:{r.name}=={r.version}")
            else:
                left_out.setdefault(key, f"a local version ({r.version}), not on PyPI")
    taken = {name for name, _ in pinned}
    notes = [f"{name} ({why})" for name, why in sorted(left_out.items()) if name not in taken]
    return [pinned[key] for key in sorted(pinned)], notes


def same_version(a: str, b: str) -> bool:
    """Whether two version strings name one release (PEP 440: ``24.0`` is ``24.0.0``); as
    strings when either is not a valid version."""
    try:
        return Version(a) == Version(b)
    except InvalidVersion:
        return a == b


def upstream_vendor_markers(tree: TreeIndex) -> dict[str, list[Marker]]:
    """The ``vendored`` markers an upstream tree's own records give its files (every record's,
    whatever it names), except records at the tree's top: those speak for the tree's own
    contents (an installed environment, a vendoring folder given whole), not for third-party
    code inside it."""
    return vendor_markers([r for r in tree.vendoring if r.folder], [f.path for f in tree.files])


def licensed_folder_markers(tree: TreeIndex, vendor_folders: frozenset[str],
                            covered: Iterable[str] = ()) -> dict[str, list[Marker]]:
    """The ``vendored`` markers an upstream tree's folders give their files when a folder holds a
    licence file of another licence than the release's (its declared licence names none of the
    licence file's): another project's code the release carries under its own terms, as a
    vendoring record would say (mypy 1.13.0's ``mypy/typeshed/``, typeshed's stubs under
    "Apache-2.0 AND MIT" in a MIT release, counted as mypy's own code). The third party is named
    after the folder. Not below a vendoring folder (``vendor_folders``: those are third-party code
    by their name already), nor for files in ``covered`` (a record's), nor when the release
    declares no licence lineage can read or the licence file states none: then nothing tells the
    two apart. A licence file governing one module (a vendored one-module distribution's) marks
    that module."""
    from lineage.licences.expressions import licence_ids
    from lineage.licences.licence_file import governs

    licence = tree.licence
    if licence is None or not licence.declared:
        return {}
    own = set(licence_ids(licence.declared))
    folders: dict[str, str] = {}
    for lf in licence.files:
        if (lf.role != "licence" or not lf.folder or not lf.expression
                or any(part.lower() in vendor_folders for part in lf.folder.split("/"))):
            continue
        ids = set(licence_ids(lf.expression))
        if ids and not ids <= own:
            folders.setdefault(lf.folder, lf.path)
    if not folders:
        return {}
    covered_set = set(covered)
    out: dict[str, list[Marker]] = {}
    for f in tree.files:
        if f.path in covered_set:
            continue
        # the deepest such folder above the file speaks for it
        found = max((folder for folder in folders if governs(folder, f.path)), key=len, default="")
        if found:
            name = posixpath.basename(found).removesuffix(".pyi").removesuffix(".py")
            lf_path = folders[found]
            out[f.path] = [Marker(line=0, kind="vendored", project=name,
                                  text=f"{found} holds its own licence file {posixpath.basename(lf_path)}, "
                                       f"not under the release's {licence.declared}")]
    return out


def with_markers(tree: TreeIndex, extra: dict[str, list[Marker]]) -> TreeIndex:
    """``tree`` with ``extra[path]`` added to the markers of its files (the same tree when none)."""
    if not extra:
        return tree
    return replace(tree, files=[replace(f, markers=[*f.markers, *extra[f.path]])
                                            if f.path in extra else f for f in tree.files])


def top_modules(tree: TreeIndex) -> set[str]:
    """What a tree's top-level packages and modules cover (``requests``, ``typing_extensions``,
    ``jaraco/text``; :func:`lineage.index.project.top_level`), where a vendoring record that names
    the tree finds its files in the vendoring folder."""
    return {top.path for top in top_level(f.path for f in tree.files)}


def package_paths(tree: TreeIndex, tops: set[str]) -> frozenset[str]:
    """The tree's files inside its own packages and modules (``tops``, :func:`top_modules`),
    below a ``src/`` or ``lib/`` layout folder too: not its ``tests/``, ``docs/`` or scripts."""
    paths = [f.path for f in tree.files]
    roots = package_roots(paths)
    return frozenset(p for p in paths if covered("/".join(import_parts(p, roots)), tops))


def pinned_upstreams(target: TreeIndex, upstreams: Sequence[TreeIndex], own_names: Sequence[set[str]]) -> list[int]:
    """Per target file: the upstream whose release its vendoring record pins (the record names it
    and pins its version), else -1; the first such record of the file decides."""
    versions = [str(u.info.details.get("version", "")) for u in upstreams]
    out = []
    for f in target.files:
        found = -1
        for m in f.markers:
            if m.kind == "vendored" and m.ref:
                found = next((k for k, names in enumerate(own_names)
                              if same_version(versions[k], m.ref) and marker_names_upstream(m, names)), -1)
                if found >= 0:
                    break
        out.append(found)
    return out
