"""The whole-result cache: a report folder's files, kept under the full key of what made them.

A comparison's outputs are a function of its inputs: each source's identity
(:func:`lineage.index.tree.tree_identity`: description, tree digest of its Python files, licence
and project files), every :class:`~lineage.match.MatchParams` value, the target names, the file
size limit, which reports were asked for (HTML, attachment formats), a fixed attachment time
(``$SOURCE_DATE_EPOCH``), the libraries that render them and the code of all of lineage
(:func:`lineage.match.store.code_fingerprint` over the whole package, plus its C sources). A warm
run whose key is found writes the stored bytes instead of indexing, matching and building tables:
the figure files are byte-identical by construction, and the manifest follows its usual rules (a
fresh ``created``, ``command``, ``options``, ``tool`` and timings; ``options.result_cache`` says
the run was answered from the cache, with no file indexed or matched; ``attachments_created``
stays the stored one, the time the stored SPDX and CycloneDX files carry).

Layout: ``<root>/result-v2/<key[:2]>/<key>/``, one folder per key: ``entry.rec`` (JSON: the full
key, the stored manifest, the headline, and each file's name, size and XXH3-128 checksum, see
:func:`lineage.index.store.checksum`) and ``files/`` (the report's files under their own names).

Storing: the files are hard links to the report the run has just written, made from its fresh
folder before that folder replaces ``--out`` (:func:`lineage.report.write_reports`'s
``on_written``), so what is stored is this run's report whatever another run does to ``--out``
meanwhile; a copy where a link cannot be made (another file system). No byte is copied: result-v1
copied the pair's 179 MB into a single-file entry, 0.4 s. An entry is made in a folder named
``.tmp-<pid>-...`` and renamed into place; an entry already there (another run stored the same key
meanwhile) is kept. A report file edited in place after its run edits the entry too (they are one
file): its checksum makes the next lookup a miss, never a wrong report.

A hit: the header's key is compared, then each file is copied into the new report folder
(``shutil.copyfile``: the kernel copies, 0.07 s for the pair's lines.csv) and the copy's size and
checksum compared with the header's, so the bytes written are the ones checked and a hit's report
shares no file with any other report. A file that is missing or differs (damaged, edited, or the
entry removed meanwhile) ends the hit (:class:`EntryLost`): the entry is removed and the result
computed. result-v1 wrote the hit's files out of one mapped entry, 0.4 s.

Only the ``keep`` most recently written or used entries stay (``RunSettings.result_entries``): after
each store the others are removed, oldest ``entry.rec`` modification time first (a hit sets it to
now), with the temporary folders of runs that died and key folders without an ``entry.rec`` (a
removal cut short). Folders of older entry formats (``result-v1/``) are removed then too. A run
that finds its entry gone computes the result again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from lineage.environment import library_versions
from lineage.index.store import checksum_stream
from lineage.report.folder import ReportFolder, plain_name
from lineage.report.outdir import atomic_out_dir, pid_alive
from lineage.settings import DEFAULT_RESULT_ENTRIES, source_date

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
    fixed = source_date()  # a stored report carries its own run's time, unless this one is fixed
    return {"version": RESULT_VERSION, "code": _code(), "environment": library_versions(), "sources": list(sources),
            "params": params, "target_names": list(target_names), "max_file_bytes": max_file_bytes,
            "html": html, "formats": list(formats), "allow_empty": allow_empty,
            "source_date": fixed.isoformat() if fixed is not None else ""}


def key_digest(key: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()


@dataclass(frozen=True)
class StoredFile:
    """One file of an entry: its name in the report, where it is, its stored size and checksum."""

    name: str
    path: Path
    size: int
    digest: str  # checksum(), hex


@dataclass
class CachedResult:
    """A found entry: what the CLI prints, and the files to write (checked as they are copied)."""

    headline: list[str]
    skipped: int
    manifest: dict[str, Any]
    files: list[StoredFile]


class EntryLost(Exception):
    """A found entry's file is missing or differs from its stored checksum: compute the result."""


def file_checksum(path: Path) -> tuple[int, str]:
    """(size, :func:`lineage.index.store.checksum` as hex) of the file at ``path``, read in chunks
    into one buffer (a mapping of the pair's 169 MB lines.csv raised the run's peak resident size
    by as much)."""
    return file_digests(path, sha256=False)[1]


def file_digests(path: Path, sha256: bool = True) -> tuple[str, tuple[int, str]]:
    """The file's sha256 (hex; "" without ``sha256``), as the manifest records it, and its
    :func:`file_checksum`, from one read: a report worker hashes its files for both the manifest
    and this cache's entry (:meth:`ResultCache.put`), which then reads none of them again."""
    stream = checksum_stream()
    digest = hashlib.sha256() if sha256 else None
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    size = 0
    with path.open("rb", buffering=0) as handle:
        while count := handle.readinto(buffer):
            stream.update(view[:count])
            if digest is not None:
                digest.update(view[:count])
            size += count
    return (digest.hexdigest() if digest is not None else ""), (size, stream.digest().hex())


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
        """The entry stored under ``key`` (its files are checked when :func:`write_cached` copies
        them), or None."""
        if self.dir is None:
            return None
        entry = self._path(key_digest(key))
        try:
            header = json.loads((entry / ENTRY_HEAD).read_bytes())
        except ValueError:  # a damaged header: removed, stored again after the miss
            _remove(entry)
            return None
        except OSError:  # none (or a folder whose removal was cut short), or one we may not read
            return None
        found = _found(entry, header, key)
        if found is None:
            _remove(entry)  # another key's header or another format: stored again after the miss
            return None
        with contextlib.suppress(OSError):  # used now: the last to be evicted (a read-only cache stays as is)
            os.utime(entry / ENTRY_HEAD)
        return found

    def discard(self, key: dict[str, object]) -> None:
        """Remove ``key``'s entry (one whose files :func:`write_cached` found damaged)."""
        if self.dir is not None:
            _remove(self._path(key_digest(key)))

    def put(self, key: dict[str, object], report: Path, headline: list[str], skipped: int,
            checksums: Mapping[str, tuple[int, str]] | None = None) -> None:
        """Store the report folder ``report`` just written (its manifest lists its files): linked
        from the run's own fresh folder, see the module's docstring. ``checksums``: the
        :func:`file_checksum` of some of its files (by name), taken where they were written
        (:func:`file_digests`); a file linked into the entry is that file, so it is not read
        again (169 MB of the pinned pair's lines.csv). The others, and copies, are read."""
        if self.dir is None:
            return
        manifest = json.loads((report / "manifest.json").read_text(encoding="utf-8"))
        names = list(manifest["outputs"])
        entry = self._path(key_digest(key))
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f"{_TEMPORARY}{os.getpid()}-"))
        try:
            files = []
            for name in names:
                stored = temporary / _FILES / name
                stored.parent.mkdir(parents=True, exist_ok=True)
                known = (checksums or {}).get(name)
                try:
                    os.link(report / name, stored)
                except OSError:  # no link here (another file system, a protected one): a copy
                    shutil.copyfile(report / name, stored)
                    known = None
                files.append([name, *(known or file_checksum(stored))])
            head = {"version": RESULT_VERSION, "key": key, "manifest": manifest, "headline": headline,
                    "skipped": skipped, "files": files}  # unsorted: the manifest keeps its order
            (temporary / ENTRY_HEAD).write_text(json.dumps(head, default=str), encoding="utf-8")
            try:
                os.rename(temporary, entry)
            except OSError:  # an entry is there: another run stored this key meanwhile (the same report)
                _remove(temporary)
        except BaseException:
            _remove(temporary)
            raise
        self.evict()

    def evict(self) -> list[Path]:
        """Remove all but the ``keep`` newest entries (by their header's modification time, then
        name), key folders without a header (a removal cut short), temporary folders of runs
        that died, and older entry formats' folders; return the removed entry folders. Stores
        under way are never touched."""
        if self.dir is None:
            return []
        for older in range(1, RESULT_VERSION):
            _remove(self.dir.parent / f"result-v{older}")
        dated = []
        for folder in self.dir.glob("*/*"):
            if folder.name.startswith(_TEMPORARY):
                pid = folder.name[len(_TEMPORARY):].split("-", 1)[0]
                if pid.isdigit() and not pid_alive(int(pid)):
                    _remove(folder)
                continue
            try:
                dated.append((os.stat(folder / ENTRY_HEAD).st_mtime_ns, folder.name, folder))
            except FileNotFoundError:
                _remove(folder)
            except OSError:  # removed meanwhile by another run
                continue
        dated.sort(reverse=True)
        removed = []
        for _, _, folder in dated[self.keep :]:
            _remove(folder)
            removed.append(folder)
        return removed


def _remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def _found(entry: Path, header: Any, key: dict[str, object]) -> CachedResult | None:
    """The entry whose ``header`` was read from ``entry``, if it is this ``key``'s; else None."""
    try:
        # The whole key, as stored, must equal this run's (through JSON, as it was written).
        if header["version"] != RESULT_VERSION or header["key"] != json.loads(json.dumps(key, default=str)):
            return None
        files = [StoredFile(str(name), entry / _FILES / str(name), int(size), str(digest))
                 for name, size, digest in header["files"]]
        if not all(plain_name(f.name) for f in files):
            return None  # a damaged or crafted header must not write outside the report folder
        return CachedResult(headline=[str(h) for h in header["headline"]], skipped=int(header["skipped"]),
                            manifest=header["manifest"], files=files)
    except (ValueError, KeyError, TypeError):
        return None


def write_cached(found: CachedResult, out_dir: Path, source_locations: Sequence[str], manifest: dict[str, Any]
                 ) -> list[Path]:
    """Write a found entry's files and ``manifest`` (the stored one with this run's fields) into
    ``out_dir``, whole or not at all, as :func:`lineage.report.write_reports` does: each file
    copied, then its copy checked against the stored size and checksum. :class:`EntryLost` when a
    file is missing or differs (``out_dir`` is then as it was)."""
    with atomic_out_dir(out_dir, source_locations) as fresh:
        folder = ReportFolder(fresh)
        for stored in found.files:
            destination = folder.path(stored.name)
            try:
                shutil.copyfile(stored.path, destination)
            except FileNotFoundError:
                if stored.path.exists():
                    raise
                raise EntryLost(stored.name) from None  # removed meanwhile (evicted, cleared)
            if file_checksum(destination) != (stored.size, stored.digest):
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
