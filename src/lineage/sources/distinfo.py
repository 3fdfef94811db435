"""What a distribution's ``*.dist-info/RECORD`` lists: its Python files and the package folders
they make. Read for a vendored copy's dist-info by the vendoring records
(:mod:`lineage.index.vendoring`: which files a record covers) and the licence reading
(:mod:`lineage.licences.declared`: which folders its licence files govern). And the headers of
its core metadata (:func:`core_metadata`), for those two and the project's names
(:mod:`lineage.index.project`)."""

from __future__ import annotations

import contextlib
import csv
import email.message
import email.parser
import io
import posixpath
import re


def core_metadata(raw: bytes) -> email.message.Message:
    """The headers of a core metadata file (``METADATA``, ``PKG-INFO``), which is UTF-8 (the
    core metadata specification): email's bytes parser reads them as ASCII, and typing_extensions'
    "Łukasz Langa" came out as "\ufffd\ufffdukasz Langa"."""
    return email.parser.Parser().parsestr(raw.decode("utf-8", "replace"), headersonly=True)


def record_files(record: bytes) -> frozenset[str]:
    """The Python files a RECORD lists (empty when it cannot be read)."""
    files = set()
    with contextlib.suppress(csv.Error):
        for row in csv.reader(io.StringIO(record.decode("utf-8-sig", "replace"))):
            path = posixpath.normpath(row[0].strip().replace("\\", "/")) if row and row[0].strip() else ""
            if path.endswith((".py", ".pyi")) and not path.startswith(("/", "../")) and ".dist-info/" not in path:
                files.add(path)
        return frozenset(files)
    return frozenset()


def top_modules(files: frozenset[str]) -> set[str]:
    """The Python modules a RECORD lists at its top (relative to the RECORD's folder): a
    distribution that is one module (typing_extensions 4.12.2's ``typing_extensions.py``), which
    :func:`package_folders` passes over."""
    return {path for path in files if "/" not in path and path.endswith((".py", ".pyi"))}


def package_folders(files: frozenset[str]) -> set[str]:
    """The package folders a RECORD's Python files make (relative to the RECORD's folder): each
    file's first folder holding an ``__init__.py`` the RECORD lists, through namespace folders
    (``jaraco/text``), else its own folder; a module at the top (``six.py``) makes none."""
    out = set()
    for path in files:
        parts = path.split("/")[:-1]
        if not parts:
            continue
        folder = "/".join(parts)
        for k in range(1, len(parts) + 1):
            if "/".join(parts[:k]) + "/__init__.py" in files:
                folder = "/".join(parts[:k])
                break
        out.add(folder)
    return out


def named_package_folders(dist_info: str, present: set[str], top_level_txt: bytes = b"") -> set[str]:
    """The package folders a vendored dist-info without a RECORD speaks for: the folder beside it
    named after its distribution, as an import reads the name (flit_core 3.10.1 ships
    ``flit_core/vendor/tomli-1.2.3.dist-info`` with LICENSE and METADATA only, beside
    ``flit_core/vendor/tomli/``; its README says tomli's LICENSE is there), or the module beside
    it so named (a one-module distribution), and those its ``top_level.txt`` names (the
    distribution's own list of its top-level imports: pex 2.20.3 vendors setuptools 44 with
    ``pkg_resources/`` and ``easy_install.py`` beside ``setuptools/``, attrs with ``attr/``
    beside ``attrs/``; only ``setuptools/`` and ``attrs/`` were governed, and the others fell to
    pex's Apache-2.0). None when none is there: the licence then governs its own folder, as
    before. Its vendoring record reads the same two rules (:func:`import_tops`,
    :func:`top_level_names`); the name here is the folder's stem (``jaraco_text-3.0.dist-info``),
    the record's its METADATA's (``jaraco.text``, whose folders include ``jaraco/text``): a
    dotted name's folders are the record's only (left: the licence reads no METADATA here)."""
    parent, stem = posixpath.split(dist_info)
    name = stem[: -len(".dist-info")].rpartition("-")[0]
    if not name:
        return set()
    tops = import_tops(name) | top_level_names(top_level_txt)
    folders = {f"{parent}/{top}" if parent else top for top in tops}
    return ({folder for folder in folders if any(p.startswith(folder + "/") for p in present)}
            | {module for folder in folders for suffix in (".py", ".pyi") if (module := folder + suffix) in present})


def top_level_names(top_level_txt: bytes) -> set[str]:
    """The top-level import names a dist-info's ``top_level.txt`` lists (one per line; what is
    no identifier is left out): a RECORD-less vendored copy's own account of what it installs
    (pex 2.20.3's attrs: ``attr`` and ``attrs``), read for its licence
    (:func:`named_package_folders`) and its vendoring record alike."""
    listed = {line.strip() for line in top_level_txt.decode("utf-8", "replace").splitlines()}
    return {top for top in listed if top.isidentifier()}


def import_tops(name: str) -> set[str]:
    """Where a distribution of this name is found in a vendoring folder: ``jaraco.text`` ->
    ``jaraco_text``, ``jaraco/text``; ``pyproject-hooks`` -> ``pyproject_hooks``; ``Cython`` as
    written and lower-cased. The one rule for the imports a distribution's name gives, read for
    a vendoring record (:func:`lineage.index.vendoring.vendor_markers`) and a RECORD-less
    dist-info's licence (:func:`named_package_folders`)."""
    out = set()
    for form in (name, name.lower()):
        out |= {re.sub(r"[-.]+", "_", form), form.replace(".", "/").replace("-", "_")}
    return out
