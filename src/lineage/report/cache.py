"""The whole-result cache: a report folder's files, kept under the full key of what made them.

A comparison's outputs are a function of its inputs: each source's identity
(:func:`lineage.index.tree.tree_identity`: description, tree digest of its Python files, licence
and project files), every :class:`~lineage.match.MatchParams` value, the target names, the file
size limit, which reports were asked for (HTML, attachment formats), the libraries that render
them and the code of all of lineage (:func:`lineage.match.store.code_fingerprint` over the whole
package, plus its C sources). A warm run whose key is found writes the stored bytes instead of
indexing, matching and building tables: the figure files are byte-identical by construction, and
the manifest follows its usual rules (a fresh ``created``, ``command``, ``options``, ``tool`` and timings;
``options.result_cache`` says the run was answered from the cache, with no file indexed or
matched; ``attachments_created`` stays the stored one, the time the stored SPDX and CycloneDX
files carry).

Layout: ``<root>/result-v1/<key[:2]>/<key>.rec``, one entry per key, framed like the index and
match caches' entries (``MAGIC | payload length | XXH3-128 of payload | payload``; see
:func:`lineage.index.store.frame`), the payload being a JSON header (the full key, the stored
manifest, the headline, and each file's name and size) followed by the files' bytes. The header's
key is compared on read and the checksum verified before anything is written: a damaged, foreign
or moved entry is a miss. Entries are streamed to a temporary name and renamed (hundreds of MB:
never held in memory twice), and read through ``mmap``.

Only the ``keep`` most recently written or used entries stay (``RunSettings.result_entries``): after
each store the others are removed, oldest modification time first; a hit sets its entry's
modification time to now. Removing an entry another run has mapped is safe (the mapping outlives
the name), and a run that finds its entry gone computes the result again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import struct
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lineage.environment import library_versions
from lineage.index.store import _HEADER, CHECKSUM_BYTES, checksum, checksum_stream
from lineage.report.folder import ReportFolder
from lineage.report.outdir import atomic_out_dir
from lineage.settings import DEFAULT_RESULT_ENTRIES

if TYPE_CHECKING:
    from collections.abc import Iterator

RESULT_MAGIC = b"LINEAGE-RESULT\n"
RESULT_VERSION = 1
_CHUNK = 1 << 22


@cache
def _code() -> str:
    """All of lineage's code: every module may reach an output (tables, reporters, matcher)."""
    from lineage.match.store import code_fingerprint

    return code_fingerprint(("lineage",))  # with the compiled per-line pass


def result_key(sources: Sequence[dict[str, object]], params: dict[str, object], target_names: Sequence[str],
               max_file_bytes: int, html: bool, formats: Sequence[str], allow_empty: bool = False
               ) -> dict[str, object]:
    """The full key: ``sources`` is the target's :func:`~lineage.index.tree.tree_identity`, then
    each upstream's, in order."""
    return {"version": RESULT_VERSION, "code": _code(), "environment": library_versions(), "sources": list(sources),
            "params": params, "target_names": list(target_names), "max_file_bytes": max_file_bytes,
            "html": html, "formats": list(formats), "allow_empty": allow_empty}


def key_digest(key: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()


@dataclass
class CachedResult:
    """A found entry: what the CLI prints, and the files to write (views into the entry)."""

    headline: list[str]
    skipped: int
    manifest: dict[str, Any]
    files: list[tuple[str, memoryview]]
    _views: list[memoryview]
    _map: mmap.mmap

    def close(self) -> None:
        for _, view in self.files:
            view.release()
        for view in reversed(self._views):
            view.release()
        self.files = []
        self._map.close()


class ResultCache:
    """Whole report folders by :func:`result_key`; ``root=None`` stores nothing; at most ``keep``
    entries are kept (see the module's docstring)."""

    def __init__(self, root: Path | None, keep: int = DEFAULT_RESULT_ENTRIES) -> None:
        self.dir = root / f"result-v{RESULT_VERSION}" if root is not None else None
        self.keep = keep

    def _path(self, digest: str) -> Path:
        assert self.dir is not None
        return self.dir / digest[:2] / f"{digest}.rec"

    def get(self, key: dict[str, object]) -> CachedResult | None:
        if self.dir is None:
            return None
        digest = key_digest(key)
        entry = self._path(digest)
        try:
            with entry.open("rb") as handle:
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # absent, or empty (mmap refuses a zero-length file)
            return None
        view = memoryview(mapped)
        payload = view[len(RESULT_MAGIC) + _HEADER.size :]
        found = _read(view, payload, key)
        if found is None:
            payload.release()
            view.release()
            mapped.close()
            entry.unlink(missing_ok=True)  # damaged or foreign: recomputed and rewritten
            return None
        found._views, found._map = [view, payload], mapped
        with contextlib.suppress(OSError):  # used now: the last to be evicted (a read-only cache stays as is)
            os.utime(entry)
        return found

    def put(self, key: dict[str, object], out_dir: Path, headline: list[str], skipped: int) -> None:
        """Store the report folder just written in ``out_dir`` (its manifest lists its files)."""
        if self.dir is None:
            return
        manifest = json.loads((out_dir / "manifest.json").read_text(encoding="utf-8"))
        names = list(manifest["outputs"])
        sizes = [(out_dir / name).stat().st_size for name in names]
        head = json.dumps({"key": key, "manifest": manifest, "headline": headline, "skipped": skipped,
                           "files": [[n, s] for n, s in zip(names, sizes, strict=True)]},
                          default=str).encode()  # unsorted: the manifest keeps its order
        entry = self._path(key_digest(key))
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "w+b") as handle:
                handle.write(RESULT_MAGIC + _HEADER.pack(0, bytes(CHECKSUM_BYTES)))  # length, checksum: below
                stream = checksum_stream()
                length = 0
                for part in _parts(head, out_dir, names):
                    stream.update(part)
                    handle.write(part)
                    length += len(part)
                handle.seek(len(RESULT_MAGIC))
                handle.write(_HEADER.pack(length, stream.digest()))
            os.replace(tmp, entry)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.evict()

    def evict(self) -> list[Path]:
        """Remove all but the ``keep`` newest entries (by modification time, then name); return
        the removed. Temporary files of stores under way are never touched."""
        if self.dir is None:
            return []
        dated = []
        for path in self.dir.glob("*/*.rec"):
            with contextlib.suppress(OSError):  # removed meanwhile by another run
                dated.append((path.stat().st_mtime_ns, path.name, path))
        dated.sort(reverse=True)
        removed = []
        for _, _, path in dated[self.keep :]:
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
        return removed


def _parts(head: bytes, out_dir: Path, names: list[str]) -> Iterator[bytes]:
    yield struct.pack("<I", len(head)) + head
    for name in names:
        with (out_dir / name).open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                yield chunk


def _read(view: memoryview, payload: memoryview, key: dict[str, object]) -> CachedResult | None:
    """The entry in ``view`` (``payload``: its part after the frame header), or None."""
    if len(payload) < 4 or bytes(view[: len(RESULT_MAGIC)]) != RESULT_MAGIC:
        return None
    length, stored = _HEADER.unpack_from(view, len(RESULT_MAGIC))
    if len(payload) != length or checksum(payload) != stored:
        return None
    try:
        (head_len,) = struct.unpack_from("<I", payload, 0)
        header = json.loads(bytes(payload[4 : 4 + head_len]))
        # The whole key, as stored, must equal this run's (through JSON, as it was written).
        if header["key"] != json.loads(json.dumps(key, sort_keys=True, default=str)):
            return None
        offset = 4 + head_len
        spans = []
        for name, size in header["files"]:
            spans.append((str(name), offset, offset + int(size)))
            offset += int(size)
        if offset != len(payload):
            return None
        files = [(name, payload[begin:end]) for name, begin, end in spans]
        return CachedResult(headline=[str(h) for h in header["headline"]], skipped=int(header["skipped"]),
                            manifest=header["manifest"], files=files, _views=[], _map=None)  # type: ignore[arg-type]
    except (ValueError, KeyError, TypeError, struct.error):
        return None


def write_cached(found: CachedResult, out_dir: Path, source_locations: Sequence[str], manifest: dict[str, Any]
                 ) -> list[Path]:
    """Write a found entry's files and ``manifest`` (the stored one with this run's fields) into
    ``out_dir``, whole or not at all, as :func:`lineage.report.write_reports` does."""
    with atomic_out_dir(out_dir, source_locations) as fresh:
        folder = ReportFolder(fresh)
        for name, data in found.files:
            folder.path(name).write_bytes(data)
        manifest_path = fresh / "manifest.json"
        manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")  # as write_manifest
        written = [*folder.written, manifest_path]
    return [out_dir / path.relative_to(fresh) for path in written]


def refreshed_manifest(stored: dict[str, Any], options: dict[str, object], timings: dict[str, float]
                       ) -> dict[str, Any]:
    """The stored manifest with this run's own fields: when, the command, the options, the
    timings and the lineage that ran (``tool``: the key covers all of lineage's code, so this
    checkout reproduces the stored outputs; the stored commit may be an earlier one with the same
    code, or say ``dirty`` for edits committed since); nothing was indexed or matched (cache
    figures 0), the outputs are the stored ones."""
    from lineage.report import tool

    manifest = dict(stored)
    manifest["tool"] = tool.tool_info()
    manifest["created"] = datetime.now(UTC).isoformat(timespec="seconds")
    manifest["command"] = sys.argv
    manifest["options"] = options
    manifest["match_cache"] = {"hits": 0, "misses": 0, "table_rows_reused": 0}
    manifest["timings_seconds"] = {k: round(v, 3) for k, v in timings.items()}
    for side in [manifest["target"], *manifest["upstreams"]]:
        side.update(cache_hits=0, cache_misses=0, index_seconds=0.0)
    return manifest
