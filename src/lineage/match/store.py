"""The match cache: per target file, its labels against one exact upstream set.

A target file's labels depend only on its own content and path, the upstream trees (their
labels, order and tree digests), the matcher (its parameters and code) and, of the other target
files, only the folder renames their votes show (:mod:`lineage.match.renames`), which reach the
labels through the file's renamed upstream paths alone: so each entry holds the file's vote and
the renamed paths it was matched with (:class:`lineage.match.records.MatchEntry`), the caller
uses the labels only when the current renames give the same paths, and an unchanged file is not
matched again when its neighbours change (unless they change a rename over it). The code part
of the key, :func:`code_fingerprint`, digests every source file of the packages the labels are
computed by, found by walking the packages: a new or split module is covered without anyone
updating a list.

Layout: ``<root>/match-v<MATCH_VERSION>/<context[:32]>/<first two hex digits>/<key>.rec``, framed and written
like the index cache's entries (checksummed, atomic). Each entry's checksummed header also holds
its whole key (the file's digest and path, and the full context digest, which covers the upstream
tree digests, the parameters and the code fingerprint), compared on read: an entry copied or moved
to another file's name is a miss, never a hit, so a tampered cache cannot change a figure.

Only the ``keep`` most recently used contexts stay (``RunSettings.match_contexts``): a context
folder's ``used`` file is touched by the first read or write of each run, and a run that makes a
new context folder removes the others beyond ``keep``, least recently used first (a folder
without the file, from before 2026-12-06, by its own modification time), and the folders of older
match formats. A run whose context another run removes meanwhile only misses (its entries are
computed and written again), as after ``lineage cache clear``.

Versions (:data:`MATCH_VERSION`, the folder's name; an older folder is never read, and ``lineage
cache clear`` removes it): 1, labels and regions; 2 (branch renames6), also the file's vote for
a folder rename and the renamed upstream paths it was matched with (header keys ``vote`` and
``renamed``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import os
import shutil
import struct
from pathlib import Path

import numpy as np

from lineage.index.store import discard, frame, pack, unframe, unpack, write_atomically
from lineage.match.records import FileMatch, MatchEntry, Region
from lineage.settings import DEFAULT_MATCH_CONTEXTS

MATCH_MAGIC = b"LINEAGE-MATCH\n"
MATCH_VERSION = 2
USED = "used"  # in a context folder: its modification time is the context's last use
_MATCH_ARRAYS = (np.uint8, np.int32, np.int32, np.float32, np.int32)  # match .. region

# The code whose change a match entry must not outlive: the whole package, as for the result,
# table and side caches. A match entry is made from inputs computed across it (lineage.api's
# preferred, attributed and pinned files, lineage.file_labels, the licence rules origins read,
# lineage.arrays' set operations), and twice a list of packages missed one: upstream_names in
# lineage.api, then resolve_marker_path in lineage.results.tables (279833a moved 3 files' labels
# on the main job, and the match cache answered with the older entries). A change anywhere costs
# one cold match.
FINGERPRINTED = ("lineage",)


def code_files(names: tuple[str, ...] = FINGERPRINTED) -> list[Path]:
    """Every Python source file of the named packages (walked) or modules, in a fixed order; with
    the index, the compiled per-line pass (:func:`lineage.index.store.compiled_pass_files`)."""
    found: set[Path] = set()
    for name in names:
        module = importlib.import_module(name)
        paths = getattr(module, "__path__", None)
        if paths:
            for folder in paths:
                found.update(Path(folder).rglob("*.py"))
        else:
            found.add(Path(module.__file__))  # type: ignore[arg-type]
    if any(name in ("lineage", "lineage.index") for name in names):
        from lineage.index.store import compiled_pass_files

        found.update(compiled_pass_files())  # the index's per-line pass in C
    return sorted(found)


@functools.cache
def code_fingerprint(names: tuple[str, ...] = FINGERPRINTED) -> str:
    """A digest of the code that computes a match entry: part of every match cache key, so a
    change to that code is never answered from an older entry, even when no version was bumped.

    Made once per process and names (as :func:`lineage.index.store.index_code_fingerprint`): the
    code a process runs is the code it loaded, and a rerun that changed one file asked for the
    whole package's five times (the result, table, side and licence caches), reading and hashing
    its 110 files each time."""
    digest = hashlib.sha256()
    root = Path(importlib.import_module("lineage").__file__).parent  # type: ignore[arg-type]
    for path in code_files(names):
        name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


class MatchCache:
    """Per target file: its labels against one exact upstream set with one set of parameters.
    ``context`` is a digest of everything but the file; ``root=None`` stores nothing."""

    def __init__(self, root: Path | None, context: str, keep: int = DEFAULT_MATCH_CONTEXTS) -> None:
        self.dir = root / f"match-v{MATCH_VERSION}" / context[:32] if root is not None else None
        self.context = context
        self.keep = keep
        self.hits = 0
        self.misses = 0
        self._marked = False

    def _mark_used(self) -> None:
        """Touch this context's ``used`` file, once per cache object; if the context folder is new,
        make it and :meth:`evict` the others."""
        if self._marked or self.dir is None:
            return
        self._marked = True
        stamp = self.dir / USED
        with contextlib.suppress(OSError):  # an unwritable cache is only slower
            try:
                os.utime(stamp)
                return
            except FileNotFoundError:
                pass
            new = not self.dir.is_dir()
            self.dir.mkdir(parents=True, exist_ok=True)
            stamp.touch()
            if new:
                self.evict()

    def evict(self) -> list[Path]:
        """Remove all context folders but the ``keep`` most recently used (this one always kept)
        and older match formats' folders; return the context folders removed."""
        if self.dir is None:
            return []
        for older in range(1, MATCH_VERSION):
            shutil.rmtree(self.dir.parent.parent / f"match-v{older}", ignore_errors=True)
        dated = []
        with contextlib.suppress(OSError):
            for folder in self.dir.parent.iterdir():
                if folder == self.dir or not folder.is_dir():
                    continue
                try:
                    used = os.stat(folder / USED).st_mtime_ns
                except FileNotFoundError:
                    used = folder.stat().st_mtime_ns if folder.exists() else 0
                except OSError:
                    continue
                dated.append((used, folder.name, folder))
        dated.sort(reverse=True)
        removed = [folder for _, _, folder in dated[max(0, self.keep - 1):]]
        for folder in removed:
            shutil.rmtree(folder, ignore_errors=True)
        return removed

    def _path(self, digest: str, path: str) -> Path:
        assert self.dir is not None
        key = hashlib.sha256(f"{digest}\0{path}".encode("utf-8", "surrogateescape")).hexdigest()
        return self.dir / key[:2] / f"{key}.rec"

    def get(self, digest: str, path: str, n_lines: int) -> MatchEntry | None:
        if self.dir is None:
            return None
        self._mark_used()
        entry = self._path(digest, path)
        try:
            payload = unframe(MATCH_MAGIC, entry.read_bytes())
        except OSError:
            payload = None
        found = _decode_match(payload, self._key(digest, path), n_lines) if payload is not None else None
        if found is None:
            self.misses += 1
            discard(entry)
            return None
        self.hits += 1
        return found

    def put(self, digest: str, path: str, entry: MatchEntry) -> None:
        if self.dir is None:
            return
        self._mark_used()
        match = entry.match
        header = {"key": self._key(digest, path), "n": int(match.match.shape[0]), "regions": [
            [r.region, r.up_file, r.target_start, r.target_end, r.upstream_start, r.upstream_end,
             r.verbatim, r.near, r.weight] for r in entry.regions], "vote": entry.vote,
            "renamed": list(entry.renamed)}
        arrays = (match.match, match.up_file, match.up_row, match.similarity, match.region)
        with contextlib.suppress(OSError):  # as for the index cache: an unwritable cache is only slower
            write_atomically(self._path(digest, path), frame(MATCH_MAGIC, pack(header, arrays, _MATCH_ARRAYS)))

    def _key(self, digest: str, path: str) -> dict[str, str]:
        return {"digest": digest, "path": path, "context": self.context}


def _decode_match(payload: bytes, key: dict[str, str], n_lines: int) -> MatchEntry | None:
    try:
        unpacked = unpack(payload, _MATCH_ARRAYS, "n")
        if unpacked is None or unpacked[0].get("key") != key or int(unpacked[0]["n"]) != n_lines:
            return None
        header, arrays = unpacked
        regions = [Region(-1, int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]),
                          int(r[6]), int(r[7]), float(r[8])) for r in header["regions"]]
        vote = header["vote"]
        renamed = tuple(header["renamed"])
        if (vote is not None and not isinstance(vote, str)) or not all(isinstance(u, str) for u in renamed):
            return None
        return MatchEntry(FileMatch(*arrays), regions, vote, renamed)
    except (ValueError, KeyError, TypeError, IndexError, struct.error):
        return None
