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
