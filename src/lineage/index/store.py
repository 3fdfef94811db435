"""A content-addressed cache of per-file index records.

A record is keyed by the file's git blob hash and :data:`lineage.index.records.INDEX_VERSION`, so
an upstream release is indexed once, ever, and a target file that did not change between two
commits is never parsed twice, whatever its path. It also holds the marker rules it was read
under (:data:`lineage.markers.RULES_FINGERPRINT`) and the fingerprint of the code that made it
(:func:`index_code_fingerprint`): an entry read under other rules or made by other code is
rebuilt. This whole key sits in the checksummed header and is compared on read, so an entry
moved to another digest's name, or left by another version of the indexer, is a miss.
Each entry carries an XXH3-128 checksum of its payload (:func:`checksum`): a truncated,
half-written or otherwise corrupt entry is detected, deleted and rebuilt, never trusted. The
checksum guards against damage, not against a hostile writer (who could rewrite it as well), so
a fast non-cryptographic hash is the right tool: XXH3 checks the 190 MB of a pair's result entry
in about 0.01 s here, where BLAKE2b took 0.22 s on every warm rerun. Entries are written to a temporary
name and renamed, so concurrent runs never see a partial file.

Layout: ``<root>/index-v<INDEX_VERSION>/<code[:16]>/<first two hex digits>/<digest>.rec`` (the code
fingerprint in the path, so two checkouts sharing a cache never overwrite each other's entries)
where one entry is
``MAGIC | payload length (8 bytes) | XXH3-128 of payload (16 bytes) | payload`` and the payload is a JSON
header followed by the raw arrays (kinds uint8, h_norm int64, h_abs int64, ntok uint16).
Beside them, ``archives/<first two hex digits>/<sha256>.digests`` holds an archive's blob hashes
(:meth:`IndexCache.archive_digests`), framed the same way with a JSON payload.

Beside them too, ``packs/<first two hex digits>/<slot>.pack`` (:class:`RecordPack`): every record
of one source, the last time it was indexed, in one entry (one JSON header for all of them, each
array kind concatenated), so that a rerun reads one file instead of one per Python file (round
speed6: the pair's 7,598 records took about 1.3 s to read one by one). A pack is only a faster
way to the same records: each is looked up by its blob digest, exactly as a per-file entry is,
and a file the pack lacks is read from its own entry. ``slot`` is a digest of the source's kind
and location, so a changed tree replaces its own pack; the ``keep`` newest packs stay.

The framing (:func:`frame`/:func:`unframe`: magic, length, checksum), :func:`write_atomically`,
:func:`pack`/:func:`unpack` (JSON header plus raw numpy arrays) and :func:`source_fingerprint`
are shared with the match cache, which stores its entries the same way.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import mmap
import os
import re
import struct
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any, overload

import numpy as np
import xxhash

from lineage import cachedir
from lineage.index.records import INDEX_VERSION, Definition, FileIndex
from lineage.markers import RULES_FINGERPRINT, Marker

MAGIC = b"LINEAGE-IDX\n"
_PACK_MAGIC = b"LINEAGE-PACK\n"  # every record of one source (RecordPack)
PACK_VERSION = 2  # 2: each record's definitions as one JSON text, decoded on use
_DIGESTS_MAGIC = b"LINEAGE-DIG\n"  # an archive's blob hashes (IndexCache.archive_digests)
_HEX64 = re.compile(r"[0-9a-f]{64}")
CHECKSUM_BYTES = 16  # XXH3-128 (checksum)
_HEADER = struct.Struct(f"<Q{CHECKSUM_BYTES}s")  # payload length, checksum()


class IndexCache:
    """Per-file index records on disk; ``root=None`` gives a cache that stores nothing."""

    def __init__(self, root: Path | None, packs: int = 0, pack_rewrite_after: int = 0) -> None:
        """``packs``: how many record packs to keep (:class:`RecordPack`; 0: none are read or
        written); ``pack_rewrite_after``: a source's pack is written again only when more of its
        records than this were missing from it (see ``RunSettings.index_packs``)."""
        self.root = root
        self.dir = root / f"index-v{INDEX_VERSION}" / index_code_fingerprint()[:16] if root is not None else None
        self.packs = packs if self.dir is not None else 0
        self.pack_rewrite_after = pack_rewrite_after
        self.hits = 0
        self.misses = 0
        self.rebuilt = 0  # corrupt entries found and replaced

    def _path(self, digest: str) -> Path:
        assert self.dir is not None
        return self.dir / digest[:2] / f"{digest}.rec"

    def get(self, digest: str, path: str) -> FileIndex | None:
        if self.dir is None:
            self.misses += 1
            return None
        entry = self._path(digest)
        try:
            blob = entry.read_bytes()
        except OSError:
            self.misses += 1
            return None
        record = _decode(blob, digest, path)
        if record is None:
            self.rebuilt += 1
            self.misses += 1
            discard(entry)
            return None
        self.hits += 1
        return record

    def put(self, record: FileIndex) -> None:
        if self.dir is None:
            return
        with contextlib.suppress(OSError):  # a full disk or read-only cache costs speed, never a figure
            write_atomically(self._path(record.digest), _encode(record))

    def _pack_path(self, slot: str) -> Path:
        assert self.dir is not None
        return self.dir / "packs" / slot[:2] / f"{slot}.pack"

    def get_pack(self, slot: str, kind: str | None = None) -> RecordPack | None:
        """The records last packed for ``slot`` (:func:`pack_slot`), or None when packs are off,
        there is none, or it is damaged or was written by other code (then it is removed and the
        damage counted in :attr:`rebuilt`). With ``kind`` (a source kind), when ``slot`` has no
        pack: the pack last written for a source of that kind (:meth:`put_pack`). A pack's records
        are looked up by blob digest, so any pack answers for any source; this one likely holds
        most of a source at a new place (a copy of a folder, a checkout elsewhere, the next build
        of a release), whose records were otherwise read one entry at a time: 4,718 entries, 0.45 s
        of a one-changed-file run at a new folder of the pinned pair's target."""
        if not self.packs:
            return None
        found = self._read_pack(slot)
        if found is None and kind is not None:
            latest = self._latest_pack(kind)
            if latest is not None and latest != slot:
                found = self._read_pack(latest)
        return found

    def _latest_path(self, kind: str) -> Path:
        assert self.dir is not None
        return self.dir / "packs" / f"latest-{hashlib.sha256(kind.encode()).hexdigest()[:16]}"

    def _latest_pack(self, kind: str) -> str | None:
        """The slot :meth:`put_pack` last wrote for a source of ``kind``, if it names one."""
        try:
            text = self._latest_path(kind).read_text(encoding="ascii").strip()
        except (OSError, ValueError):
            return None
        return text if _HEX64.fullmatch(text) else None

    def _read_pack(self, slot: str) -> RecordPack | None:
        entry = self._pack_path(slot)
        try:
            blob = read_mapped(entry)
        except OSError:
            return None
        found = RecordPack.decode(blob, slot)
        if found is None:
            self.rebuilt += 1
            discard(entry)
        return found

    def put_pack(self, slot: str, records: Sequence[FileIndex], kind: str | None = None) -> None:
        """Pack ``records`` (indexed ones only: the others are never cached) for ``slot``, then
        keep only the :attr:`packs` newest packs; with ``kind``, note it as the last pack of
        that source kind (:meth:`get_pack`). A full disk costs speed only."""
        if not self.packs:
            return
        store_keeping_newest(self._pack_path(slot), RecordPack.encode(slot, [r for r in records if r.status == "ok"]),
                             self.packs, "*/*.pack")
        if kind is not None:
            with contextlib.suppress(OSError):
                write_atomically(self._latest_path(kind), slot.encode("ascii"))

    def _digests_path(self, archive: str) -> Path | None:
        hexdigest = archive.removeprefix("sha256:")
        if self.dir is None or not archive.startswith("sha256:") or not _HEX64.fullmatch(hexdigest):
            return None
        return self.dir / "archives" / hexdigest[:2] / f"{hexdigest}.digests"

    def archive_digests(self, archive: str) -> dict[str, str]:
        """The git blob hashes of an archive's Python files (path -> hash) recorded by an earlier
        run, for the archive whose bytes hash to ``archive`` ("sha256:HEX", computed when it was
        opened): the same bytes hold the same members. Empty when none were recorded or the
        entry is damaged, or was written by other code listing the members (``lineage.sources``)."""
        entry = self._digests_path(archive)
        if entry is None:
            return {}
        try:
            payload = unframe(_DIGESTS_MAGIC, entry.read_bytes())
            header = json.loads(payload) if payload is not None else None
            if not isinstance(header, dict) or header.get("archive") != archive \
                    or header.get("code") != members_code_fingerprint():
                return {}
            return {str(path): str(digest) for path, digest in header["digests"]}
        except (OSError, ValueError, KeyError, TypeError):
            return {}

    def put_archive_digests(self, archive: str, digests: list[tuple[str, str]]) -> None:
        """Record :meth:`archive_digests` (a full disk or read-only cache costs speed only)."""
        entry = self._digests_path(archive)
        if entry is None:
            return
        header = {"archive": archive, "code": members_code_fingerprint(), "digests": sorted(digests)}
        with contextlib.suppress(OSError):
            write_atomically(entry, frame(_DIGESTS_MAGIC, json.dumps(header, sort_keys=True).encode()))

    def info(self) -> dict[str, object]:
        """Entries and size of every folder lineage keeps under the root (every index and match
        version, and downloads); see :mod:`lineage.cachedir`."""
        used = cachedir.usage(self.root) if self.root is not None else []
        return {
            "root": str(self.root),
            "current": f"index-v{INDEX_VERSION}",
            "entries": sum(u.entries for u in used),
            "bytes": sum(u.bytes for u in used),
            "versions": {u.name: {"entries": u.entries, "bytes": u.bytes} for u in used},
        }

    def clear(self, keep_downloads: bool = False) -> int:
        """Delete lineage's own folders under the root (never the user's others there); return
        how many entries (and downloaded archives) were removed."""
        if self.root is None:
            return 0
        return sum(u.entries for u in cachedir.clear(self.root, keep_downloads))


def checksum(payload: bytes | memoryview) -> bytes:
    """The checksum every framed cache entry carries of its payload (XXH3-128; see the module
    docstring); :func:`checksum_stream` computes the same over a payload written in parts."""
    return xxhash.xxh3_128_digest(payload)


def checksum_stream() -> xxhash.xxh3_128:
    """A hasher whose ``digest()`` of the parts ``update``d into it equals :func:`checksum` of
    their concatenation (an entry written as a stream: the result cache's)."""
    return xxhash.xxh3_128()


def frame(magic: bytes, payload: bytes) -> bytes:
    """An entry: magic, payload length, :func:`checksum` of the payload, payload."""
    return magic + _HEADER.pack(len(payload), checksum(payload)) + payload


def unframe(magic: bytes, blob: bytes) -> bytes | None:
    """The payload of an entry written by :func:`frame`, or None if it is damaged in any way."""
    payload = unframe_view(magic, blob)
    return bytes(payload) if payload is not None else None


def read_mapped(path: Path) -> bytes | mmap.mmap:
    """The bytes of the file at ``path``: on POSIX a private copy-on-write mapping of it, else
    read. A record pack (65 MB for the pinned pair) was read and its line arrays then copied out
    of it, about 0.09 s of CPU and 35,000 page faults of each rerun (2,000 mapped); arrays made
    on a mapping (:func:`unpack`) are its pages, writable, and a write copies only its page. The
    cache's files are replaced by renames and removed by unlinking, never changed in place, so a
    mapped file stays as it was read (its checksum checked). Read after all where the file
    system maps no file."""
    if os.name != "posix":  # (Windows cannot replace a file that is mapped)
        return path.read_bytes()
    with path.open("rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:  # no mapping of nothing
            return b""
        try:
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)
        except OSError:  # ENODEV: a file system that maps no file
            return handle.read()


def unframe_view(magic: bytes, blob: bytes | mmap.mmap) -> memoryview | None:
    """:func:`unframe`'s payload as a view of ``blob``, not a copy: the large entries a rerun
    reads (record packs, the table cache, the upstream side: about 140 MB on the pinned pair)
    were each copied whole, page faults included, only to be decoded."""
    start = len(magic) + _HEADER.size
    if len(blob) < start or blob[: len(magic)] != magic:
        return None
    length, stored = _HEADER.unpack_from(blob, len(magic))
    payload = memoryview(blob)[start:]
    if len(payload) != length or checksum(payload) != stored:
        return None
    return payload


def discard(entry: Path) -> None:
    """Remove a damaged or foreign cache entry a read found. It is a miss either way: a cache this
    run cannot change (read-only, or a file where a folder should be) only keeps it, and the next
    run reads the same miss, never a traceback (the caches' one rule for removing what they read)."""
    with contextlib.suppress(OSError):
        entry.unlink(missing_ok=True)


def store_keeping_newest(entry: Path, data: bytes, keep: int, pattern: str = "*/*.rec") -> None:
    """Write ``entry`` atomically, then remove all but the ``keep`` newest entries matching
    ``pattern`` under its folder's parent (the caches that keep one entry per context: tables'
    lines.csv bytes, the upstream side, origins). An unwritable cache only makes the next run
    slower, so OSError is swallowed; an entry another run removes meanwhile is skipped."""
    with contextlib.suppress(OSError):
        write_atomically(entry, data)
        dated = []
        for path in entry.parent.parent.glob(pattern):
            with contextlib.suppress(OSError):
                dated.append((path.stat().st_mtime_ns, path.name, path))
        for _, _, path in sorted(dated, reverse=True)[keep:]:
            with contextlib.suppress(OSError):
                path.unlink()


_TEMPORARY_NUMBERS = itertools.count()


def _temporary(folder: Path) -> tuple[int, str]:
    """A new file in ``folder`` for :func:`write_atomically` (descriptor, path), named
    ``.tmp-<pid>-<number>``: unique to this process without drawing random names (a cold run
    writes some 12,000 cache entries, and ``tempfile.mkstemp`` was half the cost of each); a
    leftover of a dead process with this pid is taken over (``O_EXCL`` then fails: a fresh
    ``mkstemp`` name instead)."""
    name = f"{folder}/.tmp-{os.getpid()}-{next(_TEMPORARY_NUMBERS)}"
    try:
        return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), name
    except FileExistsError:
        return tempfile.mkstemp(dir=folder, prefix=".tmp-")


def write_atomically(entry: Path, data: bytes) -> None:
    """Write to a temporary name and rename: a reader never sees a partial entry."""
    for attempt in range(4):
        last = attempt == 3
        try:
            if attempt:  # the folder is made on a first write, or again after `lineage cache clear`
                entry.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = _temporary(entry.parent)
        except FileNotFoundError:  # no folder yet, or `lineage cache clear` removed it: again
            if last:
                raise
            continue
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, entry)
            return
        except BaseException as exc:
            Path(tmp).unlink(missing_ok=True)
            if last or not isinstance(exc, FileNotFoundError):
                raise


_INDEX_ARRAYS = (np.uint8, np.int64, np.int64, np.uint16)  # kinds, h_norm, h_abs, ntok


def pack(header: dict[str, object], arrays: Sequence[np.ndarray], dtypes: Sequence[type]) -> bytes:
    """A payload: a length-prefixed JSON header, then each array's raw bytes in its dtype."""
    head = json.dumps(header, sort_keys=True).encode("utf-8")
    parts = [struct.pack("<I", len(head)), head]
    parts += [np.ascontiguousarray(a, dtype).tobytes() for a, dtype in zip(arrays, dtypes, strict=True)]
    return b"".join(parts)


def unpack(payload: bytes | memoryview, dtypes: Sequence[type], length_key: str, copy: bool = True,
           ) -> tuple[dict[str, Any], list[np.ndarray]] | None:
    """Inverse of :func:`pack`; every array has ``header[length_key]`` items. None if the
    payload does not have exactly that shape (raises ValueError/KeyError on garbage). The
    arrays are copies of the payload's bytes, unless not ``copy``: then they are views of it (a
    private mapping's, :func:`read_mapped`)."""
    (head_len,) = struct.unpack_from("<I", payload, 0)
    header = json.loads(bytes(payload[4 : 4 + head_len]))
    n = int(header[length_key])
    offset = 4 + head_len
    arrays = []
    for dtype in dtypes:
        array = np.frombuffer(payload, dtype, count=n, offset=offset)
        arrays.append(array.copy() if copy else array)
        offset += n * np.dtype(dtype).itemsize
    return (header, arrays) if offset == len(payload) else None


def _encode(record: FileIndex) -> bytes:
    header = {
        "version": INDEX_VERSION,
        "digest": record.digest,
        "n_bytes": record.n_bytes,
        "n_lines": record.n_lines,
        "status": record.status,
        "reason": record.reason,
        "encoding": record.encoding,
        "parse_errors": record.parse_errors,
        "definitions": [_fields(d) for d in record.definitions],
        "markers": [_fields(m) for m in record.markers],
        "marker_rules": RULES_FINGERPRINT,  # markers read under other rules are never reused
        "code": index_code_fingerprint(),
    }
    arrays = (record.kinds, record.h_norm, record.h_abs, record.ntok)
    return frame(MAGIC, pack(header, arrays, _INDEX_ARRAYS))


def _fields(item: Definition | Marker) -> dict[str, Any]:
    """``dataclasses.asdict`` of a definition or marker, whose fields are strings, numbers and
    tuples of string pairs: the same JSON, without asdict's deep copy (most of the cost of
    writing 7,500 records of a cold run)."""
    return {name: getattr(item, name) for name in _field_names(type(item))}


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _unpack_current(magic: bytes, blob: bytes | mmap.mmap) -> tuple[dict[str, Any], list[np.ndarray]] | None:
    """The header and line arrays of a record or pack in ``blob`` written by this index version,
    marker rules and code; None otherwise (a damaged or foreign entry: made again). May raise
    what a malformed header raises (the callers catch it). The arrays of a mapped ``blob``
    (:func:`read_mapped`) are views of its private pages, the others copies."""
    payload = unframe_view(magic, blob)
    unpacked = (unpack(payload, _INDEX_ARRAYS, "n_lines", copy=not isinstance(blob, mmap.mmap))
                if payload is not None else None)
    if unpacked is None:
        return None
    header, arrays = unpacked
    if (header["version"] != INDEX_VERSION or header.get("marker_rules") != RULES_FINGERPRINT
            or header.get("code") != index_code_fingerprint()):
        return None
    return header, arrays


def _decode(blob: bytes, digest: str, path: str) -> FileIndex | None:
    """The record in ``blob``, or None if it is not exactly what :func:`_encode` wrote."""
    try:
        unpacked = _unpack_current(MAGIC, blob)
        if unpacked is None or unpacked[0]["digest"] != digest:
            return None
        header, arrays = unpacked
        return FileIndex(
            path=path,
            digest=digest,
            n_bytes=int(header["n_bytes"]),
            status=header["status"],
            reason=header["reason"],
            encoding=header["encoding"],
            parse_errors=bool(header["parse_errors"]),
            kinds=arrays[0],
            h_norm=arrays[1],
            h_abs=arrays[2],
            ntok=arrays[3],
            definitions=[Definition(**d) for d in header["definitions"]],
            markers=[_marker(m) for m in header["markers"]],
        )
    except (ValueError, KeyError, TypeError, struct.error):
        return None


def pack_slot(kind: str, location: str) -> str:
    """The name of a source's pack: its kind and location (the same folder or archive file gets
    the same slot, whatever its content; the records in it are checked by digest)."""
    return hashlib.sha256(json.dumps(["pack", PACK_VERSION, kind, location]).encode()).hexdigest()


class PackedDefinitions(Sequence[Definition]):
    """A record's definitions as a :class:`RecordPack` keeps them: their count, and their field
    lists as one JSON text, made into :class:`Definition` objects on first use. A rerun that
    changed one file reads the definitions of that file and of the upstream files it matched;
    decoding all of them (115,000 on the pinned pair) was most of the cost of its records. It
    reads as the list it stands for (the same items and length, equal to it, a list when pickled),
    and lives here rather than in :mod:`lineage.index.records`, whose code keys every record."""

    __slots__ = ("_count", "_items", "_text")

    def __init__(self, count: int, text: str) -> None:
        self._count, self._text = count, text
        self._items: list[Definition] | None = None

    def _list(self) -> list[Definition]:
        if self._items is None:
            items = [Definition(*values) for values in json.loads(self._text)]
            if len(items) != self._count:
                raise ValueError("packed definitions do not match their count")
            self._items = items
        return self._items

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Definition: ...
    @overload
    def __getitem__(self, index: slice) -> list[Definition]: ...
    def __getitem__(self, index: int | slice) -> Definition | list[Definition]:
        return self._list()[index]

    def __iter__(self) -> Iterator[Definition]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedDefinitions):
            other = other._list()
        return self._list() == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list

    def __repr__(self) -> str:
        return repr(self._list())

    def __reduce__(self) -> tuple[type, tuple[list[Definition]]]:
        return list, (self._list(),)


class RecordPack:
    """Every indexed record of one source as last indexed, looked up by blob digest.

    Payload: a length-prefixed JSON header (version, slot, index version, marker rules, the code
    fingerprint, and per record its digest, sizes, status, encoding, the number of its definitions
    and their field lists as one JSON text, and its markers as field lists) followed by each array
    kind of all records concatenated (kinds, h_norm, h_abs, ntok, record after record). A record
    is made into a :class:`FileIndex` only when asked for, and its definitions are decoded only
    when read (:class:`PackedDefinitions`): a text is one string to the
    header's JSON parser, where 115,000 nested lists (the pinned pair's) took most of its time.
    """

    def __init__(self, rows: dict[str, list[Any]], arrays: list[np.ndarray], starts: dict[str, int]) -> None:
        self._rows = rows  # digest -> header row
        self._arrays = arrays
        self._starts = starts  # digest -> first line in the concatenated arrays
        # one Marker per distinct field list: files repeat their project's header markers
        self._markers: dict[tuple[Any, ...], Marker] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, digest: object) -> bool:
        return digest in self._rows

    def get(self, digest: str, path: str) -> FileIndex | None:
        row = self._rows.get(digest)
        if row is None:
            return None
        _, n_bytes, n_lines, status, reason, encoding, parse_errors, n_definitions, definitions, markers = row
        start = self._starts[digest]
        kinds, h_norm, h_abs, ntok = (a[start : start + n_lines] for a in self._arrays)
        return FileIndex(path=path, digest=digest, n_bytes=n_bytes, status=status, reason=reason, encoding=encoding,
                         parse_errors=parse_errors, kinds=kinds, h_norm=h_norm, h_abs=h_abs, ntok=ntok,
                         definitions=PackedDefinitions(n_definitions, definitions) if n_definitions  # type: ignore[arg-type]
                         else [],
                         markers=[self._marker(m) for m in markers])

    def _marker(self, values: list[Any]) -> Marker:
        """The marker of a record's field list (its replacements a list of pairs), made once."""
        key = tuple(tuple(map(tuple, v)) if isinstance(v, list) else v for v in values)
        made = self._markers.get(key)
        if made is None:
            made = self._markers[key] = _marker(dict(zip(_field_names(Marker), values, strict=True)))
        return made

    @staticmethod
    def encode(slot: str, records: Sequence[FileIndex]) -> bytes:
        def_names, marker_names = _field_names(Definition), _field_names(Marker)
        rows = [[r.digest, r.n_bytes, r.n_lines, r.status, r.reason, r.encoding, r.parse_errors, len(r.definitions),
                 json.dumps([[getattr(d, name) for name in def_names] for d in r.definitions], separators=(",", ":")),
                 [[getattr(m, name) for name in marker_names] for m in r.markers]] for r in records]
        header = {"pack_version": PACK_VERSION, "slot": slot, "version": INDEX_VERSION,
                  "marker_rules": RULES_FINGERPRINT, "code": index_code_fingerprint(),
                  "fields": [list(def_names), list(marker_names)], "records": rows,
                  "n_lines": sum(r.n_lines for r in records)}
        arrays = [np.concatenate([getattr(r, name) for r in records] or [np.zeros(0, dtype)])
                  for name, dtype in zip(("kinds", "h_norm", "h_abs", "ntok"), _INDEX_ARRAYS, strict=True)]
        return frame(_PACK_MAGIC, pack(header, arrays, _INDEX_ARRAYS))

    @classmethod
    def decode(cls, blob: bytes | mmap.mmap, slot: str) -> RecordPack | None:
        """The pack in ``blob``, or None if it is not exactly what :meth:`encode` wrote for
        ``slot`` under this code, index version and marker rules."""
        try:
            unpacked = _unpack_current(_PACK_MAGIC, blob)
            if unpacked is None:
                return None
            header, arrays = unpacked
            if (header["pack_version"] != PACK_VERSION or header["slot"] != slot
                    or header["fields"] != [list(_field_names(Definition)), list(_field_names(Marker))]):
                return None
            rows: dict[str, list[Any]] = {}
            starts: dict[str, int] = {}
            line = 0
            for row in header["records"]:
                if (len(row) != 10 or not isinstance(row[2], int) or row[2] < 0 or not isinstance(row[7], int)
                        or not isinstance(row[8], str)):
                    return None
                rows[row[0]] = row
                starts[row[0]] = line
                line += row[2]
            if line != len(arrays[0]):
                return None
            return cls(rows, arrays, starts)
        except (ValueError, KeyError, TypeError, IndexError, struct.error):
            return None


def _marker(fields: dict[str, object]) -> Marker:
    replacements = fields.get("replacements") or ()
    fields = dict(fields, replacements=tuple(tuple(pair) for pair in replacements))  # type: ignore[union-attr]
    return Marker(**fields)  # type: ignore[arg-type]


@cache
def index_code_fingerprint() -> str:
    """The code that turns bytes into a record: parsing, normal forms, the record rules and the
    marker reader (not this module's framing, which checks itself)."""
    import lineage.markers
    from lineage.index import normalise, parse, records

    digest = hashlib.sha256(source_fingerprint(parse, normalise, records, lineage.markers).encode())
    for path in compiled_pass_files():  # the per-line pass in C makes the forms too
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@cache
def members_code_fingerprint() -> str:
    """The code that lists an archive's members and reads them (``lineage.sources``): part of
    the key of :meth:`IndexCache.archive_digests`."""
    import lineage.sources

    return source_fingerprint(lineage.sources)


def compiled_pass_files() -> list[Path]:
    """The compiled per-line pass as cache keys see it: its C source (``lineage/_lineforms.c``)
    when the checkout has it, and the built extension that runs (a build left over from an older
    source is another key; the build is byte-reproducible here, so a rebuild of the same source
    keeps the key)."""
    package = Path(__file__).resolve().parents[1]
    files = sorted(package.glob("*.c"))
    try:
        from lineage import _lineforms
    except ImportError:  # the pure-Python pass, whose code is fingerprinted with the index package
        return files
    return [*files, Path(_lineforms.__file__)]


def source_fingerprint(*modules: object) -> str:
    """A digest of the given modules' source files: part of every cache key, so that a change
    to the code that computes an entry can never be answered from an older entry, even when a
    version constant was not bumped."""
    digest = hashlib.sha256()
    for module in modules:
        for path in _module_files(module):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _module_files(module: object) -> list[Path]:
    """A module's source file; for a package, every ``.py`` file under it, sorted by path, so
    that splitting a module into a package never silently stops invalidating a cache."""
    search = getattr(module, "__path__", None)
    if search is None:
        return [Path(module.__file__)]  # type: ignore[attr-defined]
    return sorted({p for folder in search for p in Path(folder).rglob("*.py")})
