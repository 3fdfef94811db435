"""The table cache: the last run's table rows, reused per target file when few files changed.

Every row of lines, functions, regions and of the indexed part of files belongs to one target
file and is a function of that file (its bytes and path, hence its index record and match
entry) and of a context shared by all target files: the upstream trees, the parameters, the
names that decide markers and origins (:func:`lineage.match.origin.upstream_origins`, which
reads the target's names, a property of the whole target tree), the code and, of the other
target files, only the folder renames their votes show (:mod:`lineage.match.renames`), which
reach a file's rows through its renamed upstream paths alone. Nothing else:
the matcher's labels per file (:mod:`lineage.match.store`), the gate
(:func:`lineage.match.gate.gate`), the header sharing and each table builder
(:mod:`lineage.results.tables`) read one target file at a time. So when a rerun differs in a few
target files, the rows of the others are taken from the stored tables and only the changed files
are matched, gated and built; the tables are then assembled in the order the builders give them
(target files in path order for lines and functions; sorted by their keys for files and regions)
and are the same tables, byte for byte once written, as a run without any cache.

The key (:func:`tables_context`) is a digest of: this module's version, the code of all of
lineage (:func:`lineage.match.store.code_fingerprint`), the versions of Python and the libraries
lineage requires (as the whole-result cache has them), the match cache's context (upstream labels
and tree digests, every parameter, the matcher's code), the names markers are read against and
every upstream file's origin (the target's names reach the rows only through these). A file's
own part of the key is its (path, git blob digest), line and definition counts, and the renamed
upstream paths its rows were built with (:func:`lineage.match.renames.renamed_upstream_paths`),
checked per file: a file whose renames changed is matched and built again. Each stored file also
keeps its vote for a folder rename, so that a rerun learns the renames without reading the match
cache entry of every unchanged file (:func:`stored_votes`).
One entry per context: a run that builds every file's rows replaces it (a target whose files are
all new simply finds nothing to reuse); a run that reused rows replaces it only when it built the rows of more than
:data:`REWRITE_AFTER` files itself (writing the entry costs about half a second on a large
target, more than building a few files' rows again on the next run).

Fallbacks, each to the full path (every file matched, gated and built as without this cache):
no entry or a damaged one; no stored file left to reuse; more changed files than
:data:`MAX_CHANGED_SHARE` of the target; a table that would come out empty; any column whose
type in the rebuilt rows differs from the stored one.

Layout: ``<root>/tables-v<TABLES_VERSION>/<context[:2]>/<context>.rec``, framed like the other caches
(``MAGIC | length | XXH3-128 | payload``, :func:`lineage.index.store.frame`), the payload a
length-prefixed JSON header (the full context, each stored target file's path, digest, line and
definition counts, vote and renamed paths) followed by the four tables as one Arrow IPC stream each (length-prefixed),
written with pandas metadata so that every column comes back with its dtype. Only the
:data:`KEEP` most recently written entries stay. Versions (:data:`TABLES_VERSION`): 1; 2 (branch
renames6), each stored file's vote and renamed paths added; 3 (branch speed6), the string
columns stored as they are and the streams LZ4-compressed, instead of dictionary-encoded and
zstd-compressed: the pair's entry grows from 3 to 15 MB but reads in about 0.2 s instead of 0.3
to 0.55 s (casting the dictionaries back to strings was most of it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from lineage.environment import library_versions
from lineage.index import FileIndex
from lineage.index.store import frame, unframe_view, write_atomically
from lineage.match.origin import Origin

TABLES_MAGIC = b"LINEAGE-TABLES\n"
TABLES_VERSION = 3
KEEP = 4  # entries kept (one per upstream set and parameters)
MAX_CHANGED_SHARE = 0.25  # above this share of changed target files, the tables are built whole
REWRITE_AFTER = 16  # a run that reused rows rewrites the entry only when it built more files' rows
TABLE_NAMES = ("lines", "files", "functions", "regions")
# LZ4 rather than zstd: every rerun reads the entry, and LZ4 decompresses several times faster.
COMPRESSION = "lz4"


@cache
def _code() -> str:
    from lineage.match.store import code_fingerprint

    return code_fingerprint(("lineage",))


def tables_context(match_context: str, names: set[str], own_names: Sequence[set[str]],
                   origins: Sequence[Origin]) -> str:
    """Digest of everything a target file's table rows depend on besides the file itself. The
    target's own names reach the rows only through the origins (which upstream files came from
    the target), and of an origin the rows read its kind, label and evidence (the gate and
    :mod:`lineage.results.tables`), not the name a ``from_target`` origin gives the target (the
    first of its names, which is its folder's name for a directory): so a target in another
    folder keeps its entry."""
    parts = {
        "version": TABLES_VERSION, "code": _code(), "environment": library_versions(), "match": match_context,
        "names": sorted(names),
        "own_names": [sorted(n) for n in own_names],
        "origins": [[o.kind, o.label, o.evidence, o.line] for o in origins],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class StoredFile:
    path: str
    digest: str
    n_lines: int
    n_definitions: int
    vote: str | None  # lineage.match.renames: the path of its best upstream file
    renamed: tuple[str, ...]  # the renamed upstream paths its rows were built with


@dataclass
class Stored:
    """A found entry: the stored target files in their order, and the four tables."""

    files: list[StoredFile]
    tables: dict[str, pd.DataFrame]


class TableStore:
    """The last tables built under one context; ``root=None`` stores nothing."""

    def __init__(self, root: Path | None, context: str) -> None:
        self.context = context
        self.entry = (root / f"tables-v{TABLES_VERSION}" / context[:2] / f"{context}.rec"
                      if root is not None else None)

    def get(self) -> Stored | None:
        if self.entry is None:
            return None
        try:
            payload = unframe_view(TABLES_MAGIC, self.entry.read_bytes())
        except OSError:
            return None
        found = _decode(payload, self.context) if payload is not None else None
        if found is None:
            self.entry.unlink(missing_ok=True)  # damaged or foreign: rewritten by this run
        return found

    def put(self, files: Sequence[FileIndex], tables: dict[str, pd.DataFrame], votes: Sequence[str | None],
            renamed: Sequence[tuple[str, ...]]) -> None:
        """Store the tables of target ``files``, with each file's vote and renamed paths."""
        if self.entry is None:
            return
        head = json.dumps({"context": self.context, "files": [
            [f.path, f.digest, f.n_lines, len(f.definitions), vote, list(paths)]
            for f, vote, paths in zip(files, votes, renamed, strict=True)]}).encode()
        parts = [struct.pack("<Q", len(head)), head]
        options = pa.ipc.IpcWriteOptions(compression=COMPRESSION)
        for name in TABLE_NAMES:
            table = pa.Table.from_pandas(tables[name], preserve_index=False)
            sink = pa.BufferOutputStream()
            with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
                writer.write_table(table)
            data = sink.getvalue()
            parts += [struct.pack("<Q", data.size), data.to_pybytes()]
        with contextlib.suppress(OSError):  # an unwritable cache only makes the next run slower
            write_atomically(self.entry, frame(TABLES_MAGIC, b"".join(parts)))
            _evict(self.entry.parent.parent)


def _evict(folder: Path) -> None:
    dated = []
    for path in folder.glob("*/*.rec"):
        with contextlib.suppress(OSError):
            dated.append((path.stat().st_mtime_ns, path.name, path))
    for _, _, path in sorted(dated, reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            path.unlink()


def _decode(payload: bytes | memoryview, context: str) -> Stored | None:
    try:
        (head_len,) = struct.unpack_from("<Q", payload, 0)
        header = json.loads(bytes(payload[8 : 8 + head_len]))
        if header["context"] != context:
            return None
        offset = 8 + head_len
        buffer = pa.py_buffer(payload)
        tables = {}
        for name in TABLE_NAMES:
            (size,) = struct.unpack_from("<Q", payload, offset)
            offset += 8
            tables[name] = pa.ipc.open_stream(buffer.slice(offset, size)).read_all().to_pandas()
            offset += size
        if offset != len(payload):
            return None
        files = [StoredFile(str(p), str(d), int(n), int(k), None if v is None else str(v), tuple(map(str, r)))
                 for p, d, n, k, v, r in header["files"]]
        return Stored(files, tables)
    except (ValueError, KeyError, TypeError, IndexError, struct.error, pa.ArrowException):
        return None


@dataclass(frozen=True)
class RowKeys:
    """Which rows of a comparison's lines table belong to which target file, and the key each
    file's rows are a function of: ``context`` is :func:`lineage.results.reuse.tables_context`,
    ``keys[t]`` target file t's own part (path, blob digest, line and definition counts, renamed
    upstream paths), ``rows[t]`` its number of rows (consecutive, in this order)."""

    context: str
    keys: list[tuple[Any, ...]]
    rows: list[int]


def _stored_by_key(stored: Stored) -> dict[tuple[str, str, int, int], StoredFile]:
    return {(f.path, f.digest, f.n_lines, f.n_definitions): f for f in stored.files}


def row_keys(context: str, target: Sequence[FileIndex], renamed: Sequence[tuple[str, ...]]) -> RowKeys:
    """The :class:`RowKeys` of the lines table built for ``target`` under ``context`` (a file's
    key is the one :func:`changed_files` compares; one row per line)."""
    return RowKeys(context, [(f.path, f.digest, f.n_lines, len(f.definitions), list(paths))
                             for f, paths in zip(target, renamed, strict=True)], [f.n_lines for f in target])


def stored_votes(target: Sequence[FileIndex], stored: Stored) -> dict[int, str | None]:
    """Target file position -> its vote, for every target file the stored tables hold."""
    known = _stored_by_key(stored)
    out = {}
    for t, f in enumerate(target):
        found = known.get((f.path, f.digest, f.n_lines, len(f.definitions)))
        if found is not None:
            out[t] = found.vote
    return out


def changed_files(target: Sequence[FileIndex], stored: Stored, renamed: Sequence[tuple[str, ...]]) -> list[int] | None:
    """Positions of the target files the stored tables do not hold, or hold built with other
    renamed paths than ``renamed`` (per target file, the current ones); None when reuse does not
    pay or is not possible (nothing to reuse, too many changed)."""
    known = _stored_by_key(stored)
    todo = []
    for t, f in enumerate(target):
        found = known.get((f.path, f.digest, f.n_lines, len(f.definitions)))
        if found is None or found.renamed != renamed[t]:
            todo.append(t)
    if len(todo) == len(target) or len(todo) > MAX_CHANGED_SHARE * len(target):
        return None
    return todo


def assemble(target: Sequence[FileIndex], todo: Sequence[int], stored: Stored,
             fresh: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame] | None:
    """The four tables for ``target``: rows of the files at ``todo`` from ``fresh`` (built for
    those files alone, in their order, with every skipped file in ``fresh["files"]``), the
    others' rows from ``stored``. None when a column's type would differ (see the docstring)."""
    new = set(todo)
    reused_paths = {f.path for t, f in enumerate(target) if t not in new}
    out = {
        "lines": _by_file(target, new, stored.files, stored.tables["lines"], fresh["lines"], "n_lines"),
        "functions": _by_file(target, new, stored.files, stored.tables["functions"], fresh["functions"],
                              "n_definitions"),
    }
    old_files = stored.tables["files"]
    keep = (old_files["status"] == "indexed").to_numpy() & _among(old_files["target_path"], reused_paths)
    out["files"] = _sorted([old_files[keep], fresh["files"]], ["target_path"])
    old_regions = stored.tables["regions"]
    out["regions"] = _sorted([old_regions[_among(old_regions["target_path"], reused_paths)], fresh["regions"]],
                             ["target_path", "target_start", "region"])
    for name, table in out.items():
        if table is None or len(table) == 0:
            return None
        if not table.dtypes.equals(stored.tables[name].dtypes):
            return None
    return out


def _among(paths: pd.Series, wanted: set[str]) -> np.ndarray:
    """``paths.isin(wanted)`` as a boolean array, by set lookups: pandas' ``isin`` of an Arrow
    string column makes an Arrow scalar of every wanted path (0.08 s for the pinned pair's files
    and regions, whose 4,718 reused paths are nearly all)."""
    return np.fromiter((p in wanted for p in paths.tolist()), bool, len(paths))


def _by_file(target: Sequence[FileIndex], new: set[int], stored_files: Sequence[StoredFile],
             stored: pd.DataFrame, fresh: pd.DataFrame, count: str) -> pd.DataFrame | None:
    """Rows in target file order, each file's rows consecutive (``count``: ``n_lines`` for
    lines, one row per line; ``n_definitions`` for functions, one per def/class), taken from
    ``stored`` where that file's rows start, or from ``fresh`` (the new files' rows in order)."""
    start: dict[tuple[str, str], int] = {}
    at = 0
    for s in stored_files:
        start[(s.path, s.digest)] = at
        at += getattr(s, count)
    if at != len(stored) or (len(fresh) and not fresh.dtypes.equals(stored.dtypes)):
        return None
    runs: list[list[int]] = []  # [source (0 stored, 1 fresh), begin, end], consecutive rows merged
    fresh_at = 0
    for t, f in enumerate(target):
        rows = f.n_lines if count == "n_lines" else len(f.definitions)
        if t in new:
            source, begin = 1, fresh_at
            fresh_at += rows
        else:
            source, begin = 0, start[(f.path, f.digest)]
        if rows == 0:
            continue
        if runs and runs[-1][0] == source and runs[-1][2] == begin:
            runs[-1][2] = begin + rows
        else:
            runs.append([source, begin, begin + rows])
    if fresh_at != len(fresh) or not runs:
        return None
    tables = (stored, fresh)
    return pd.concat([tables[source].iloc[begin:end] for source, begin, end in runs], ignore_index=True)


def _sorted(parts: list[pd.DataFrame], keys: list[str]) -> pd.DataFrame | None:
    """Rows of ``parts`` sorted by ``keys`` (unique per row), as the builders sort them."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return None
    if len({tuple(p.dtypes.astype(str)) for p in parts}) > 1:
        return None
    return pd.concat(parts, ignore_index=True).sort_values(keys, kind="stable").reset_index(drop=True)
