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

Layout: ``<root>/result-v2/<key[:2]>/<key>/``, one folder per key: ``entry.rec`` (JSON: the full
key, the stored manifest, the headline, and each file's name, size and XXH3-128 checksum, see
:func:`lineage.index.store.checksum`) and ``files/`` (the report's files under their own names).
The files are hard links to the ones the storing run wrote, and a hit links them into the new
report folder: no byte is copied either way (the pair's 179 MB took 0.4 s to copy in, and 0.4 s
to write out of, the single-file entry of result-v1). Where a link cannot be made (another file
system) the file is copied. The header's key is compared on read and every file's size and
checksum verified before anything is written: a damaged, foreign or edited entry is a miss and is
removed. A report file edited in place after a run edits the entry too (they are one file): the
checksum makes that a miss, never a wrong report. An entry is made in a temporary folder and
renamed into place.

Only the ``keep`` most recently written or used entries stay (``RunSettings.result_entries``): after
each store the others are removed, oldest modification time first; a hit sets its entry's
modification time to now (its ``entry.rec``'s). A run that finds its entry gone, or losing files
while it links them, computes the result again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from lineage.environment import library_versions
from lineage.index.store import checksum_stream
from lineage.report.folder import ReportFolder
from lineage.report.outdir import atomic_out_dir
from lineage.settings import DEFAULT_RESULT_ENTRIES

RESULT_VERSION = 2
ENTRY_HEAD = "entry.rec"  # the header; its name ends in .rec as every cache entry's (lineage cache)
_FILES = "files"
_TEMPORARY = ".tmp-"
_CHUNK = 1 << 20


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


@dataclass(frozen=True)
class StoredFile:
    """One verified file of an entry: its name in the report, where it is, and what identifies
    the verified bytes (a link to the same inode, unchanged since, holds them)."""

    name: str
    path: Path
    size: int
    digest: str  # checksum(), hex
    inode: tuple[int, int, int]  # st_dev, st_ino, st_mtime_ns when verified


@dataclass
class CachedResult:
    """A found entry: what the CLI prints, and the files to write (verified)."""

    headline: list[str]
    skipped: int
    manifest: dict[str, Any]
    files: list[StoredFile]

    def close(self) -> None:
        """Nothing is held open (kept for callers that close what they found)."""


class EntryLost(Exception):
    """A found entry's file vanished or changed while it was written out: compute the result."""


def file_checksum(path: Path) -> tuple[int, str, tuple[int, int, int]]:
    """(size, :func:`lineage.index.store.checksum` as hex, identity) of the file at ``path``, read
    in chunks into one buffer (a mapping of the pair's 169 MB lines.csv raised the run's peak
    resident size by as much)."""
    stream = checksum_stream()
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    with path.open("rb", buffering=0) as handle:
        info = os.fstat(handle.fileno())
        while count := handle.readinto(buffer):
            stream.update(view[:count])
    return info.st_size, stream.digest().hex(), (info.st_dev, info.st_ino, info.st_mtime_ns)


def _identity(path: Path) -> tuple[int, int, int]:
    info = path.stat()
    return info.st_dev, info.st_ino, info.st_mtime_ns


def _link_or_copy(source: Path, destination: Path) -> bool:
    """Hard-link ``source`` as ``destination``, else copy it; True when linked."""
    try:
        os.link(source, destination)
        return True
    except OSError:
        shutil.copyfile(source, destination)
        return False


class ResultCache:
    """Whole report folders by :func:`result_key`; ``root=None`` stores nothing; at most ``keep``
    entries are kept (see the module's docstring)."""

    def __init__(self, root: Path | None, keep: int = DEFAULT_RESULT_ENTRIES) -> None:
        self.dir = root / f"result-v{RESULT_VERSION}" if root is not None else None
        self.keep = keep

    def _path(self, digest: str) -> Path:
        assert self.dir is not None
        return self.dir / digest[:2] / digest

    def get(self, key: dict[str, object]) -> CachedResult | None:
        if self.dir is None:
            return None
        entry = self._path(key_digest(key))
        try:
            header = json.loads((entry / ENTRY_HEAD).read_bytes())
        except (OSError, ValueError):  # absent, or not ours
            return None
        found = _verified(entry, header, key)
        if found is None:
            _remove(entry)  # damaged, edited or foreign: recomputed and stored again
            return None
        with contextlib.suppress(OSError):  # used now: the last to be evicted (a read-only cache stays as is)
            os.utime(entry / ENTRY_HEAD)
        return found

    def put(self, key: dict[str, object], out_dir: Path, headline: list[str], skipped: int) -> None:
        """Store the report folder just written in ``out_dir`` (its manifest lists its files)."""
        if self.dir is None:
            return
        manifest = json.loads((out_dir / "manifest.json").read_text(encoding="utf-8"))
        names = list(manifest["outputs"])
        entry = self._path(key_digest(key))
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = Path(tempfile.mkdtemp(dir=entry.parent, prefix=_TEMPORARY))
        try:
            files = []
            for name in names:
                stored = temporary / _FILES / name
                stored.parent.mkdir(parents=True, exist_ok=True)
                _link_or_copy(out_dir / name, stored)
                size, digest, _ = file_checksum(stored)
                files.append([name, size, digest])
            head = {"version": RESULT_VERSION, "key": key, "manifest": manifest, "headline": headline,
                    "skipped": skipped, "files": files}  # unsorted: the manifest keeps its order
            (temporary / ENTRY_HEAD).write_text(json.dumps(head, default=str), encoding="utf-8")
            _remove(entry)  # an older store of the same key (a folder cannot be renamed over)
            try:
                os.rename(temporary, entry)
            except OSError:  # another run stored this key meanwhile: the same report
                _remove(temporary)
        except BaseException:
            _remove(temporary)
            raise
        self.evict()

    def evict(self) -> list[Path]:
        """Remove all but the ``keep`` newest entries (by their header's modification time, then
        name); return the removed entry folders. Stores under way are never touched."""
        if self.dir is None:
            return []
        dated = []
        for head in self.dir.glob(f"*/*/{ENTRY_HEAD}"):
            if head.parent.name.startswith(_TEMPORARY):
                continue
            with contextlib.suppress(OSError):  # removed meanwhile by another run
                dated.append((head.stat().st_mtime_ns, head.parent.name, head.parent))
        dated.sort(reverse=True)
        removed = []
        for _, _, folder in dated[self.keep :]:
            _remove(folder)
            removed.append(folder)
        return removed


def _remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def _verified(entry: Path, header: Any, key: dict[str, object]) -> CachedResult | None:
    """The entry whose ``header`` was read from ``entry``, if it is this ``key``'s and every file
    has its stored size and checksum; else None."""
    try:
        # The whole key, as stored, must equal this run's (through JSON, as it was written).
        if header["version"] != RESULT_VERSION or header["key"] != json.loads(json.dumps(key, default=str)):
            return None
        files = []
        for name, size, digest in header["files"]:
            path = entry / _FILES / str(name)
            found_size, found_digest, identity = file_checksum(path)
            if found_size != int(size) or found_digest != digest:
                return None
            files.append(StoredFile(str(name), path, found_size, found_digest, identity))
        return CachedResult(headline=[str(h) for h in header["headline"]], skipped=int(header["skipped"]),
                            manifest=header["manifest"], files=files)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_cached(found: CachedResult, out_dir: Path, source_locations: Sequence[str], manifest: dict[str, Any]
                 ) -> list[Path]:
    """Write a found entry's files and ``manifest`` (the stored one with this run's fields) into
    ``out_dir``, whole or not at all, as :func:`lineage.report.write_reports` does: each file a
    link to the verified one (still the same inode, unchanged), else a copy checked against the
    stored checksum. :class:`EntryLost` when a file can be had neither way (``out_dir`` is then
    as it was)."""
    with atomic_out_dir(out_dir, source_locations) as fresh:
        folder = ReportFolder(fresh)
        for stored in found.files:
            destination = folder.path(stored.name)
            try:
                try:
                    os.link(stored.path, destination)
                    if _identity(destination) == stored.inode:
                        continue
                    destination.unlink()  # not the verified file any more: copied and checked below
                except FileNotFoundError:
                    raise
                except OSError:  # no link here (another file system): a copy
                    pass
                shutil.copyfile(stored.path, destination)
                size, digest, _ = file_checksum(destination)
            except FileNotFoundError:
                raise EntryLost(stored.name) from None
            if (size, digest) != (stored.size, stored.digest):
                raise EntryLost(stored.name)
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
