"""Index every Python file of a source, in parallel, through the content-addressed cache."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import posixpath
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache

from lineage.errors import SourceError, WorkerError
from lineage.index.parse import Indexer, too_large
from lineage.index.project import ProjectInfo, read_project
from lineage.index.records import (
    DEFAULT_MAX_FILE_BYTES,
    FileIndex,
    decode_source,
    is_python_path,
    other_code_counts,
    split_lines,
)
from lineage.index.store import IndexCache, pack_slot
from lineage.index.vendoring import VendorRecord, read_vendor_records
from lineage.licences.declared import SourceLicence, read_source_licence
from lineage.progress import meter
from lineage.settings import default_jobs, print_progress
from lineage.sources.archive import ArchiveSource
from lineage.sources.base import DeclaredView, LaterReader, Source, SourceInfo, blob_digest
from lineage.worker_exit import end_with_parent, release_signals, signals_held

# Below this many files to parse, worker start-up costs more than it saves.
_PARALLEL_MIN_FILES = 64


@dataclass
class TreeIndex:
    """One side's indexed Python files (sorted by path) and what was left out.

    ``files`` holds only indexed files; ``skipped`` holds (path, reason) for Python files that
    could not be indexed, or that the source did not read (``symlink``), sorted by path.
    ``other_files`` counts the non-Python files, which are not analysed; ``other_code`` those of
    them that are source files in another language, per suffix (:func:`other_code_counts`). ``tree_digest`` is a
    SHA-256 over the sorted (path, blob hash) pairs of all Python files: two
    trees with the same digest hold the same Python code at the same paths.
    """

    info: SourceInfo
    files: list[FileIndex]
    skipped: list[tuple[str, str]]
    other_files: int
    tree_digest: str
    data: Mapping[str, bytes] = field(repr=False)  # path -> bytes (a TreeBytes or a dict)
    cache_hits: int = 0
    cache_misses: int = 0
    seconds: float = 0.0
    licence: SourceLicence | None = None  # declared licence and licence files (lineage.licences)
    project: ProjectInfo = field(default_factory=ProjectInfo)  # its own name, repositories, authors
    vendoring: tuple[VendorRecord, ...] = ()  # its records of vendored packages (lineage.index.vendoring)
    other_code: dict[str, int] = field(default_factory=dict)  # suffix -> files in another language, not compared

    def lines(self, path: str) -> list[str]:
        return _lines(self.data[path])

    @property
    def stated_copyrights(self) -> list[str]:
        """Every copyright line the tree states: its licence files' and its files' copyright
        markers (what decides whether a holder is the tree's, wherever it says so)."""
        lines = [c for lf in self.licence.files for c in lf.copyrights] if self.licence else []
        return lines + [m.text for f in self.files for m in f.markers if m.kind == "copyright"]

    @property
    def figures_key(self) -> str:
        """A digest of :attr:`tree_digest` and what else of the source decides a comparison's
        figures (its project names, its licence files' holders and texts, its vendoring records
        without their lines, the Python files it skipped): memos that reuse figures for the same tree (``history``,
        ``forkpoint``, ``drift``) key on this."""
        extra = {"project": asdict(self.project), "skipped": self.skipped, "vendoring": [
            {k: v for k, v in r.to_dict().items() if k != "line"} for r in self.vendoring],
            "licence": asdict(self.licence) if self.licence is not None else None}
        text = json.dumps([self.tree_digest, extra], sort_keys=True, default=str)
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()

    def reader(self) -> Callable[[int], list[str]]:
        return lambda number: self.lines(self.files[number].path)


# What a source records skipping that is a Python file it did not read as one (not a duplicate
# archive member, nor an unsafe name: those are the manifest's).
_NOT_READ = ("symlink", "hard link", "special file", "device", "fifo", "socket", "unreadable",
             "unknown member type", "encrypted", "unsupported mode")


def not_read_python(info: SourceInfo, indexed: set[str]) -> list[tuple[str, str]]:
    """The source's skipped members that are Python files it did not read (a symlink, a special
    file, an unreadable one), at their tree paths (an archive's stripped prefix taken off)."""
    prefix = str(info.details.get("stripped_prefix", "") or "").rstrip("/")
    out = []
    for path, reason in info.skipped:
        path = posixpath.normpath(path).lstrip("/") if path else path  # a tarball's "./pkg-1.0/..."
        if prefix and path.startswith(prefix + "/"):
            path = path[len(prefix) + 1:]
        if is_python_path(path) and path not in indexed and reason.startswith(_NOT_READ):
            out.append((path, reason))
    return out


class TreeBytes(Mapping[str, bytes]):
    """The bytes of a tree's Python files by path, in the order they were indexed.

    A file whose record came from the cache and whose digest was known without reading it (an
    archive's recorded digests) is read only when asked for, through the source's
    :meth:`~lineage.sources.base.Source.later_reader`: a rerun against a pinned release needs
    the lines of the few upstream files its changed target files pair with, not the thousands in
    the wheel. What is read is checked against the digest indexed: a file that changed in
    between raises :class:`lineage.errors.SourceError` instead of giving lines of other bytes.
    """

    def __init__(self, order: list[str], loaded: dict[str, bytes], later: dict[str, str] | None = None,
                 reader: LaterReader | None = None, label: str = "") -> None:
        self._order, self._loaded = order, loaded
        self._later, self._reader, self._label = later or {}, reader, label

    def __getitem__(self, path: str) -> bytes:
        blob = self._loaded.get(path)
        if blob is not None:
            return blob
        digest = self._later.get(path)
        if digest is None or self._reader is None:
            raise KeyError(path)
        blob = self._reader.read(path)
        if blob_digest(blob) != digest:
            raise SourceError(f"{self._label}: {path} changed while lineage ran (its bytes differ from those "
                              "indexed); run again")
        self._loaded[path] = blob
        return blob

    def __contains__(self, path: object) -> bool:
        return path in self._loaded or path in self._later

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    @property
    def unread(self) -> int:
        """How many files have not been read (yet)."""
        return sum(1 for path in self._later if path not in self._loaded)


@lru_cache(maxsize=1024)  # upstream files recur across target files
def _lines(data: bytes) -> list[str]:
    text, _ = decode_source(data)
    return split_lines(text)


_WORKER: Indexer | None = None


def _init_worker(max_file_bytes: int, parent: int | None = None) -> None:
    global _WORKER
    end_with_parent(parent)  # a killed run leaves no index worker waiting for work
    release_signals()  # forked with SIGINT and SIGTERM blocked (index_tree): this worker's handlers now
    _WORKER = Indexer(max_file_bytes)


def _index_batch(batch: list[tuple[str, bytes, str]]) -> list[FileIndex]:
    assert _WORKER is not None
    return [_WORKER.index(path, data, digest) for path, data, digest in batch]


def _batches(items: list[tuple[str, bytes, str]], size: int) -> Iterator[list[tuple[str, bytes, str]]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def index_tree(source: Source, cache: IndexCache, jobs: int | None = None,
               max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
               progress: bool | Callable[[str], None] | None = False,
               known: dict[str, tuple[FileIndex, bytes]] | None = None,
               read: dict[str, bytes] | None = None) -> TreeIndex:
    """Read the source's Python files, take what the cache has, parse the rest in parallel.

    ``known`` maps a digest to a record and the bytes it was made from, kept in memory by a
    caller that indexes many versions of one tree (``history``): a file whose digest the source
    can tell without reading it (a git blob) is then neither read nor decoded again. Fresh
    records are added to it. ``progress`` is a callback for one-line messages (True: print them).
    ``read``: files of this source already read (path -> bytes, from :func:`tree_identity`'s
    ``blobs``), used instead of reading them again; entries are removed as they are taken.
    With packs on (``cache.packs``, and not with ``known``), the records are first looked up in
    the pack of this source's last run (:class:`lineage.index.store.RecordPack`; a source of more
    than ``cache.pack_rewrite_after`` files at a new place: the last pack written for a source of
    its kind), which is written again when more than ``cache.pack_rewrite_after`` records were
    missing from it.
    """
    started = time.perf_counter()
    paths = source.paths()
    py_paths = [p for p in paths if is_python_path(p)]
    data: dict[str, bytes] = {}
    records: dict[str, FileIndex] = {}
    todo: list[tuple[str, bytes, str]] = []
    digests: list[tuple[str, str]] = []
    hits_before, misses_before = cache.hits, cache.misses
    reused = 0
    # One read for every record of the last run (history passes ``known``: it has them in memory).
    slot = pack_slot(source.info.kind, source.info.location) if cache.packs and known is None else None
    # Another place's pack (get_pack's kind) only where it can save more entry reads than its
    # misses would cost in a pack written again: a small tree reads its entries and packs them.
    pack = cache.get_pack(slot, source.info.kind if len(py_paths) > cache.pack_rewrite_after else None) \
        if slot is not None else None
    to_read = []
    order = []  # every file's path, in the order its bytes were (or would have been) read
    for path in py_paths:
        digest = source.known_digest(path) if known is not None else None
        if digest is not None and digest in known:  # type: ignore[operator]
            record, blob = known[digest]  # type: ignore[index]
            records[path] = record if record.path == path else replace(record, path=path)
            data[path] = blob
            digests.append((path, digest))
            order.append(path)
            reused += 1
        else:
            to_read.append(path)
    # A file whose stated size is over the limit is skipped unindexed, as one read and found too
    # large; its digest is streamed (tree_identity's, when it took one), never held whole.
    given = read.digests if isinstance(read, ReadFiles) else {}
    unread = _oversized(source, [path for path in to_read if path not in (read or {})], max_file_bytes)
    for path, size in unread.items():
        digest = given.get(path) or source.stream_digest(path, size)
        records[path] = too_large(FileIndex(path=path, digest=digest, n_bytes=size), max_file_bytes)
        digests.append((path, digest))
    to_read = [path for path in to_read if path not in unread]
    order += to_read
    archive = _archive_digest(source)
    declared = read.declared if isinstance(read, ReadFiles) else None  # of this very source (tree_identity)
    read = read or {}
    # An archive whose blob digests an earlier run recorded: a file whose record is cached is not
    # read now, only if some stage asks for its lines (TreeBytes).
    later: dict[str, str] = {}
    reader = source.later_reader() if archive is not None and known is None else None
    if reader is not None:
        recorded = cache.archive_digests(archive)  # type: ignore[arg-type]
        must_read = []
        for path in to_read:
            digest = recorded.get(path, "")
            # Only a pack hit of a size this run indexes: any other file is read and looked up
            # below as before, so the cache's hit and miss counts are those of a run that reads.
            cached = pack.get(digest, path) if pack is not None and digest and path not in read else None
            if cached is not None and cached.status == "ok" and cached.n_bytes <= max_file_bytes:
                cache.hits += 1
                records[path] = cached
                digests.append((path, digest))
                later[path] = digest
            else:
                must_read.append(path)
        to_read = must_read
    for path, blob, known_digest in _read(source, to_read, read):
        digest = known_digest or blob_digest(blob)
        digests.append((path, digest))
        data[path] = blob
        cached = None
        if len(blob) <= max_file_bytes:
            cached = pack.get(digest, path) if pack is not None else None
            if cached is not None:
                cache.hits += 1
            else:
                cached = cache.get(digest, path)
        if cached is not None and cached.status == "ok":
            records[path] = cached
        else:
            todo.append((path, blob, digest))
    log = print_progress if progress is True else (progress or None)
    jobs = jobs or default_jobs()
    with meter(len(todo), f"indexing {source.info.label}", "files", log, bar=log is print_progress,
               note=f" of {len(py_paths):,} (the others cached)") as tick:
        if jobs > 1 and len(todo) >= _PARALLEL_MIN_FILES:
            # Largest files first so that one big file does not finish alone at the end.
            todo.sort(key=lambda item: -len(item[1]))
            try:
                # a forked worker's parent is this process (not so under forkserver or spawn)
                forked = multiprocessing.get_start_method() == "fork"
                with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                                         initargs=(max_file_bytes, os.getpid() if forked else None)) as pool:
                    # Each batch's records are stored as it comes back, while the workers parse on:
                    # stored after the pool, they kept one core idle for seconds (round speed4).
                    with signals_held():  # until each worker's _init_worker (worker_exit.signals_held)
                        batches = pool.map(_index_batch, _batches(todo, 16))  # the first task forks them
                    for batch in batches:
                        for record in batch:
                            records[record.path] = record
                            if record.status == "ok":
                                cache.put(record)
                        tick(len(batch))
            except BrokenProcessPool as exc:
                raise WorkerError(f"indexing {source.info.label}") from exc
        else:
            indexer = Indexer(max_file_bytes)
            for path, blob, digest in todo:
                records[path] = record = indexer.index(path, blob, digest)
                if record.status == "ok":
                    cache.put(record)
                tick(1)
    if known is not None:
        for path in to_read:
            record = records[path]
            if record.status == "ok":
                known[record.digest] = (record, data[path])
    if archive is not None and cache.archive_digests(archive) != dict(digests):
        source.verify()  # recorded under the archive's digest: only once its bytes have it
        cache.put_archive_digests(archive, digests)  # the next result-cache key reads no member
    files = [records[p] for p in py_paths if records[p].status == "ok"]
    if slot is not None:
        unique = list({f.digest: f for f in files}.values())
        if pack is None or sum(f.digest not in pack for f in unique) > cache.pack_rewrite_after:
            cache.put_pack(slot, unique, source.info.kind)
    skipped = [(p, records[p].reason) for p in py_paths if records[p].status != "ok"]
    # Python files the source did not read (a symlink, a special file): skipped files too, so that
    # files.csv and the figures say so, not only the manifest's skipped members.
    skipped = sorted(skipped + not_read_python(source.info, set(py_paths)))
    licence, project, vendoring, notes = declared if declared is not None else declarations(source)
    return TreeIndex(
        info=replace(source.info, skipped=source.info.skipped + tuple(notes)) if notes else source.info,
        files=files,
        skipped=skipped,
        other_files=len(paths) - len(py_paths),
        other_code=other_code_counts(paths),
        tree_digest=tree_digest(digests),
        data=TreeBytes(order, data, later, reader, source.info.label) if later else data,
        cache_hits=cache.hits - hits_before + reused,
        cache_misses=cache.misses - misses_before,
        seconds=time.perf_counter() - started,
        licence=licence,
        project=project,
        vendoring=vendoring,
    )


def declarations(source: Source) -> tuple[SourceLicence, ProjectInfo, tuple[VendorRecord, ...], list[tuple[str, str]]]:
    """What the source's files declare (licence, project, vendoring records), read through one
    :class:`DeclaredView` (no file over its limit is read whole), and the (path, reason) of each file
    left unread for being too large."""
    view = DeclaredView(source)  # one view: the three readers' notes together
    licence, project, vendoring = read_source_licence(view), read_project(view), read_vendor_records(view)
    return licence, project, vendoring, view.notes()


def _oversized(source: Source, paths: list[str], max_file_bytes: int) -> dict[str, int]:
    """path -> stated size of each of ``paths`` whose stated size is over ``max_file_bytes``."""
    return {path: size for path in paths if (size := source.size(path)) is not None and size > max_file_bytes}


class ReadFiles(dict[str, bytes]):
    """Files read from a source (path -> bytes) by :func:`tree_identity`, with the blob digest
    it computed of each (``digests``), which :func:`index_tree` then takes instead of hashing
    the same bytes again (the pinned pair's target: 4,719 files, 0.05 s), and what the source's
    non-Python files declare (``declared``: licence, project, vendoring records), which
    :func:`index_tree` takes instead of reading and parsing them again (both sides of the
    pinned pair: about 0.05 s)."""

    def __init__(self) -> None:
        super().__init__()
        self.digests: dict[str, str] = {}
        self.declared: tuple[SourceLicence, ProjectInfo, tuple[VendorRecord, ...], list[tuple[str, str]]] | None = None


def _read(source: Source, paths: list[str], read: dict[str, bytes]) -> Iterator[tuple[str, bytes, str | None]]:
    """(path, bytes, blob digest when known) of ``paths`` in order: from ``read`` when there
    (popped; the digest a :class:`ReadFiles` holds), else from the source."""
    fresh = source.read_many([path for path in paths if path not in read])
    digests = read.digests if isinstance(read, ReadFiles) else {}
    for path in paths:
        if path in read:
            yield path, read.pop(path), digests.get(path)
        else:
            yield *next(fresh), None


def tree_digest(digests: list[tuple[str, str]]) -> str:
    """:attr:`TreeIndex.tree_digest` of (path, blob hash) pairs of every Python file."""
    tree_hash = hashlib.sha256()
    for path, digest in sorted(digests):
        tree_hash.update(f"{path}\0{digest}\n".encode("utf-8", "surrogateescape"))
    return "sha256:" + tree_hash.hexdigest()


def tree_identity(source: Source, cache: IndexCache | None = None,
                  blobs: dict[str, bytes] | None = None,
                  max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> dict[str, object]:
    """Everything of an open source that a comparison's outputs depend on, without indexing
    it: its description, the tree digest of its Python files, how many other files it has and
    what its non-Python files declare (licence, project names, vendoring records). Same identity,
    same records.

    With ``cache``, an archive's blob hashes recorded by an earlier run for the same archive
    bytes (:meth:`IndexCache.archive_digests`) are taken as known: only the others are read.
    ``blobs`` receives the files read (path -> bytes; a :class:`ReadFiles` their digests too), for
    :func:`index_tree`'s ``read``: then the tree indexed is the very bytes this identity was
    computed from. A file whose stated size is over ``max_file_bytes`` is not read whole: its
    digest is streamed (:meth:`Source.stream_digest`), so the tree digest is the same under any
    limit and for any kind of source holding the same files."""
    paths = source.paths()
    py_paths = [p for p in paths if is_python_path(p)]
    archive = _archive_digest(source) if cache is not None else None
    recorded = cache.archive_digests(archive) if cache is not None and archive is not None else {}
    digests = [(path, source.known_digest(path) or recorded.get(path) or "") for path in py_paths]
    unknown = [path for path, digest in digests if not digest]
    unread = _oversized(source, unknown, max_file_bytes)
    if unread:
        streamed = {path: source.stream_digest(path, size) for path, size in unread.items()}
        digests = [(path, streamed.get(path, digest)) for path, digest in digests]
        if isinstance(blobs, ReadFiles):
            blobs.digests.update(streamed)
        unknown = [path for path in unknown if path not in unread]
    if unknown:
        read = {}
        for path, blob in source.read_many(unknown):
            read[path] = blob_digest(blob)
            if blobs is not None:
                blobs[path] = blob
                if isinstance(blobs, ReadFiles):
                    blobs.digests[path] = read[path]
        digests = [(path, digest or read[path]) for path, digest in digests]
        if cache is not None and archive is not None:
            source.verify()  # recorded under the archive's digest: only once its bytes have it
            cache.put_archive_digests(archive, digests)
    licence, project, vendoring, notes = declared = declarations(source)
    if isinstance(blobs, ReadFiles):
        blobs.declared = declared
    info = replace(source.info, skipped=source.info.skipped + tuple(notes)) if notes else source.info
    return {"info": asdict(info), "tree_digest": tree_digest(digests),
            "other_files": len(paths) - len(py_paths), "other_code": other_code_counts(paths),
            "licence": asdict(licence), "project": asdict(project),
            "vendoring": [r.to_dict() for r in vendoring]}


def _archive_digest(source: Source) -> str | None:
    """An archive's "sha256:HEX", which :class:`ArchiveSource` computes from the file's bytes
    each time it opens it (a PyPI release is checked against its pin too); None for other
    sources (a directory has no digest; a git commit's files are known by their blob hashes)."""
    digest = source.info.digest
    return digest if isinstance(source, ArchiveSource) and digest.startswith("sha256:") else None
