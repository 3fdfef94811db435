"""What a source records about the packages it vendors, and which of its files each record covers.

A project that vendors a package usually says so outside the copied files, which carry no marker
of their own. Two forms that released wheels carry, both read by :func:`read_vendor_records` once
per source while it is open (like :mod:`lineage.index.project`):

* a pinned list named ``vendor.txt`` or ``vendored.txt`` (pip's ``pip/_vendor/vendor.txt``, the
  ``wheel/vendored/vendor.txt`` that setuptools ships inside its vendored wheel, older setuptools'
  ``setuptools/_vendor/vendored.txt``): one requirement per line (``requests==2.32.3``; indented,
  commented and unpinned lines too); it speaks for the folder it sits in.
* a vendored copy's own ``NAME-VERSION.dist-info`` below the tree's top (setuptools 70 and later:
  ``setuptools/_vendor/packaging-24.2.dist-info``): ``Name`` and ``Version`` from its METADATA,
  its Python files from its RECORD (paths relative to the folder that holds the dist-info). A
  dist-info at the top of the tree is the source's own metadata, not a vendoring record.

:func:`vendor_markers` turns the records into provenance markers of kind ``vendored`` (line 0:
a record speaks for the whole file, as a header marker does), one per record per covered Python
file: the files its RECORD lists; otherwise the package folder or module of the declared name in
the record's folder (``requests`` -> ``pip/_vendor/requests/``, ``typing_extensions`` ->
``pip/_vendor/typing_extensions.py``), and, for a record that names an upstream of the
comparison, that upstream's own top-level packages there too (pip's ``setuptools==70.3.0`` is its
``pkg_resources``). A file covered by several records lists the innermost folder's first (wheel's
vendored packaging inside setuptools' vendored wheel). Which upstream a ``vendored`` marker names
is decided by its declared name alone (:func:`lineage.markers.marker_names_upstream`).
"""

from __future__ import annotations

import csv
import email.parser
import io
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lineage.markers import Marker
from lineage.markers.naming import normal_name
from lineage.sources.base import Source

VENDOR_LISTS = ("vendor.txt", "vendored.txt")
VENDORED_KIND = "vendored"
_MAX_RECORD_BYTES = 4 << 20
# A requirement line: a distribution name, optional extras, optional pin ("==" or "===").
_REQUIREMENT_RE = re.compile(r"(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*"
                             r"(?:(?:===?)\s*(?P<version>[^\s;,#]+))?")
_DIST_INFO_RE = re.compile(r"(?P<folder>.+)/(?P<stem>[^/]+)\.dist-info/METADATA")


@dataclass(frozen=True)
class VendorRecord:
    """One vendored package as its vendoring project records it."""

    folder: str  # the folder the record speaks for ("pip/_vendor"; "" for the tree's top)
    name: str  # the distribution name as written ("CacheControl")
    version: str  # the pinned version, "" when the record pins none
    source: str  # the file that records it ("pip/_vendor/vendor.txt")
    line: int  # its line there (0: a dist-info's METADATA)
    files: tuple[str, ...] = ()  # Python files its RECORD lists, relative to ``folder`` (sorted)

    def describe(self) -> str:
        """The record as a marker's text: ``vendored requests==2.32.3 (pip/_vendor/vendor.txt:8)``."""
        pin = f"=={self.version}" if self.version else ""
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"vendored {self.name}{pin} ({where})"


def parse_vendor_list(text: str, source: str) -> list[VendorRecord]:
    """The records of a ``vendor.txt`` at path ``source``, in line order."""
    folder = posixpath.dirname(source)
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("-"):  # options such as -r or --hash
            continue
        m = _REQUIREMENT_RE.match(line)
        if m is None:
            continue
        out.append(VendorRecord(folder, m.group("name"), m.group("version") or "", source, number))
    return out


def parse_dist_info(metadata: bytes, record: bytes | None, metadata_path: str) -> VendorRecord | None:
    """The record of a vendored copy's dist-info (its METADATA at ``metadata_path``, its RECORD)."""
    m = _DIST_INFO_RE.fullmatch(metadata_path)
    if m is None:
        return None
    message = email.parser.BytesParser().parsebytes(metadata, headersonly=True)
    name = str(message.get("Name") or "").strip()
    if not name:
        return None
    files: list[str] = []
    if record is not None:
        for row in csv.reader(io.StringIO(record.decode("utf-8", "replace"))):
            path = row[0].strip() if row else ""
            if path.endswith((".py", ".pyi")) and not path.startswith(("/", "../")) and ".dist-info/" not in path:
                files.append(posixpath.normpath(path))
    return VendorRecord(m.group("folder"), name, str(message.get("Version") or "").strip(), metadata_path, 0,
                        tuple(sorted(set(files))))


def read_vendor_records(source: Source) -> tuple[VendorRecord, ...]:
    """Every vendoring record of an open source, sorted by folder, name and source; none when it has none."""
    paths = source.paths()
    present = set(paths)
    records: list[VendorRecord] = []
    for path in paths:
        if posixpath.basename(path) in VENDOR_LISTS:
            raw = source.read(path)
            if len(raw) <= _MAX_RECORD_BYTES:
                records += parse_vendor_list(raw.decode("utf-8", "replace"), path)
        elif path.count("/") >= 2 and _DIST_INFO_RE.fullmatch(path):
            raw = source.read(path)
            record_path = path[: -len("METADATA")] + "RECORD"
            listed = source.read(record_path) if record_path in present else None
            if len(raw) <= _MAX_RECORD_BYTES and (listed is None or len(listed) <= _MAX_RECORD_BYTES):
                found = parse_dist_info(raw, listed, path)
                if found is not None:
                    records.append(found)
    return tuple(sorted(records, key=lambda r: (r.folder, normal_name(r.name), r.source, r.line)))


def _covers(record: VendorRecord, path: str, tops: Iterable[str]) -> str:
    """The path of ``path`` inside the vendored package ``record`` speaks for ("" when outside)."""
    prefix = record.folder + "/" if record.folder else ""
    if not path.startswith(prefix):
        return ""
    inner = path[len(prefix):]
    if record.files:
        return inner if inner in record.files else ""
    for top in tops:
        if inner == top + ".py" or inner == top + ".pyi" or inner.startswith(top + "/"):
            return inner
    return ""


def _import_tops(name: str) -> set[str]:
    """Where a distribution of this name is found in a vendoring folder: ``jaraco.text`` ->
    ``jaraco_text``, ``jaraco/text``; ``pyproject-hooks`` -> ``pyproject_hooks``."""
    lower = name.lower()
    return {re.sub(r"[-.]+", "_", lower), lower.replace(".", "/").replace("-", "_")}


def vendor_markers(records: Sequence[VendorRecord], paths: Sequence[str],
                   upstreams: Sequence[tuple[set[str], set[str]]] = ()) -> dict[str, list[Marker]]:
    """The ``vendored`` markers of each covered path of ``paths`` (innermost record first).
    ``upstreams``: per upstream of the comparison, (the names a marker may use for it, its own
    top-level packages), so that a record naming an upstream covers those packages too."""
    normal_upstreams = [({normal_name(n) for n in names}, tops) for names, tops in upstreams]
    out: dict[str, list[Marker]] = {}
    for record in sorted(records, key=lambda r: (-len(r.folder), r.folder, normal_name(r.name), r.source, r.line)):
        tops = _import_tops(record.name)
        for names, up_tops in normal_upstreams:
            if normal_name(record.name) in names:
                tops |= up_tops
        ordered = sorted(tops, key=lambda t: (-len(t), t))
        for path in paths:
            inner = _covers(record, path, ordered)
            if inner:
                out.setdefault(path, []).append(Marker(line=0, kind=VENDORED_KIND, text=record.describe(),
                                                       ref=record.version, path=inner, project=record.name))
    return out
