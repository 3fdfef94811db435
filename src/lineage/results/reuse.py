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
to 0.55 s (casting the dictionaries back to strings was most of it); 4 (branch speed19), a fifth
stream holding the rows of lines that the figures and the obligations read (:func:`paired_rows`),
with each stored file's count of them.

A rerun that reused rows keeps the lines table as its parts (:class:`LinesTable`: the stored
stream, still compressed, and the changed files' fresh rows) until something reads it whole; the
figures and the obligations read the paired rows instead (assembled per file as the other tables
are), and lines.csv is spliced from its own cache with only the changed files' rows rendered. On
the pinned pair the lines table is 1.8 M rows (240 MB in Arrow); decoding and assembling it took
about 0.2 s of every rerun that changed one file, and its two readers in the reporters 0.15 s more.
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
from lineage.index.store import discard, frame, unframe_view, write_atomically
from lineage.match.origin import Origin

TABLES_MAGIC = b"LINEAGE-TABLES\n"
TABLES_VERSION = 4
KEEP = 4  # entries kept (one per upstream set and parameters)
MAX_CHANGED_SHARE = 0.25  # above this share of changed target files, the tables are built whole
REWRITE_AFTER = 16  # a run that reused rows rewrites the entry only when it built more files' rows
TABLE_NAMES = ("lines", "files", "functions", "regions")
_STREAMS = (*TABLE_NAMES, "paired")  # an entry's streams, in order
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
        "origins": [[o.kind, o.label, o.evidence, o.line,
                     [[x.start, x.end, x.origin.label, x.origin.evidence, x.origin.line] for x in o.sections]]
                    for o in origins],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def paired_mask(lines: pd.DataFrame) -> np.ndarray:
    """The rows of a lines table that the figures and the obligations read: copied lines
    (``match`` other than ``none``: :func:`lineage.results.figures.per_upstream`,
    :func:`lineage.results.obligations.build_obligations`) and lines shared with an upstream file
    (a ``shared_origin``: :func:`lineage.results.figures.shared_figures`). Each of them selects
    its rows from these alone, so it gives the same figures from these rows as from the table."""
    mask = (lines["match"] != "none").to_numpy(dtype=bool)
    if "shared_origin" in lines:
        mask = mask | (lines["shared_origin"] != "").to_numpy(dtype=bool)
    return mask


def paired_rows(lines: pd.DataFrame, keep: np.ndarray | None = None) -> pd.DataFrame:
    """The rows of ``lines`` :func:`paired_mask` keeps (``keep``, when the caller has it), in
    order, every column (a filter per column, as :func:`lineage.results.figures.rows_where`)."""
    keep = paired_mask(lines) if keep is None else keep
    return pd.DataFrame({name: lines[name].array[keep] for name in lines.columns})


def _per_file(keep: np.ndarray, sizes: Sequence[int]) -> list[int] | None:
    """How many rows ``keep`` holds in each file's run of rows (``sizes`` of them, consecutive);
    None when the sizes do not add up to the rows."""
    bounds = np.cumsum([0, *sizes])
    if bounds[-1] != len(keep):
        return None
    kept = np.concatenate([[0], np.cumsum(keep)])
    return (kept[bounds[1:]] - kept[bounds[:-1]]).tolist()


@dataclass(frozen=True)
class StoredFile:
    path: str
    digest: str
    n_lines: int
    n_definitions: int
    vote: str | None  # lineage.match.renames: the path of its best upstream file
    renamed: tuple[str, ...]  # the renamed upstream paths its rows were built with
    n_paired: int = 0  # its rows in the paired table (paired_rows)


@dataclass
class Stored:
    """A found entry: the stored target files in their order, the files, functions, regions and
    paired tables, and the lines table's stream, decoded when :meth:`lines` is first called."""

    files: list[StoredFile]
    tables: dict[str, pd.DataFrame]
    lines_stream: pa.Buffer | None = None
    _lines: pd.DataFrame | None = None

    def lines(self) -> pd.DataFrame:
        if self._lines is None:
            self._lines = _read_stream(self.lines_stream)  # type: ignore[arg-type]
        return self._lines


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
            discard(self.entry)  # damaged or foreign: rewritten by this run
        return found

    def put(self, files: Sequence[FileIndex], tables: dict[str, pd.DataFrame | LinesTable],
            votes: Sequence[str | None], renamed: Sequence[tuple[str, ...]]) -> None:
        """Store the tables of target ``files``, with each file's vote and renamed paths, and the
        paired rows of lines with each file's count of them."""
        if self.entry is None:
            return
        frames = {name: table.frame() if isinstance(table, LinesTable) else table for name, table in tables.items()}
        lines = frames["lines"]
        keep = paired_mask(lines)
        counts = _per_file(keep, [f.n_lines for f in files])
        if counts is None:  # not one row per line of these files: nothing to reuse the rows by
            return
        frames["paired"] = paired_rows(lines, keep)
        head = json.dumps({"context": self.context, "files": [
            [f.path, f.digest, f.n_lines, len(f.definitions), vote, list(paths), n]
            for f, vote, paths, n in zip(files, votes, renamed, counts, strict=True)]}).encode()
        parts = [struct.pack("<Q", len(head)), head]
        options = pa.ipc.IpcWriteOptions(compression=COMPRESSION)
        for name in _STREAMS:
            table = pa.Table.from_pandas(frames[name], preserve_index=False)
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


def _read_stream(stream: pa.Buffer) -> pd.DataFrame:
    return pa.ipc.open_stream(stream).read_all().to_pandas()


def _decode(payload: bytes | memoryview, context: str) -> Stored | None:
    """The entry in ``payload``; its lines stream is decoded only when read (:meth:`Stored.lines`)."""
    try:
        (head_len,) = struct.unpack_from("<Q", payload, 0)
        header = json.loads(bytes(payload[8 : 8 + head_len]))
        if header["context"] != context:
            return None
        offset = 8 + head_len
        buffer = pa.py_buffer(payload)
        streams = {}
        for name in _STREAMS:
            (size,) = struct.unpack_from("<Q", payload, offset)
            offset += 8
            streams[name] = buffer.slice(offset, size)
            offset += size
        if offset != len(payload):
            return None
        tables = {name: _read_stream(stream) for name, stream in streams.items() if name != "lines"}
        files = [StoredFile(str(p), str(d), int(n), int(k), None if v is None else str(v), tuple(map(str, r)), int(c))
                 for p, d, n, k, v, r, c in header["files"]]
        if sum(f.n_paired for f in files) != len(tables["paired"]):
            return None
        return Stored(files, tables, streams["lines"])
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
             fresh: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame | LinesTable] | None:
    """The four tables for ``target``, and the paired rows of lines (:func:`paired_rows`): rows
    of the files at ``todo`` from ``fresh`` (built for those files alone, in their order, with
    every skipped file in ``fresh["files"]``), the others' rows from ``stored``; the lines table as
    a :class:`LinesTable`, read whole only when asked. None when a column's type would differ (see
    the docstring)."""
    new = set(todo)
    reused_paths = {f.path for t, f in enumerate(target) if t not in new}
    fresh_lines = fresh["lines"]
    keep = paired_mask(fresh_lines)
    fresh_paired = _per_file(keep, [target[t].n_lines for t in todo])
    if fresh_paired is None:
        return None
    # the stored lines' column types, as the stored paired rows have them (the same columns, and
    # through Arrow the same types; an empty table loses a category's values there)
    reference = stored.tables["paired"] if len(stored.tables["paired"]) else stored.lines()
    runs = _runs(target, new, stored.files, "n_lines", dict(zip(todo, (target[t].n_lines for t in todo),
                                                                 strict=True)), len(fresh_lines))
    if runs is None or (len(fresh_lines) and not fresh_lines.dtypes.equals(reference.dtypes)):
        return None
    lines = LinesTable(stored, fresh_lines, runs)
    if lines.num_rows == 0:
        return None
    functions = _by_file(target, new, stored.files, stored.tables["functions"], fresh["functions"],
                         "n_definitions", {t: len(target[t].definitions) for t in todo})
    paired = _by_file(target, new, stored.files, stored.tables["paired"], paired_rows(fresh_lines, keep),
                      "n_paired", dict(zip(todo, fresh_paired, strict=True)), empty_ok=True)
    old_files = stored.tables["files"]
    keep_files = (old_files["status"] == "indexed").to_numpy() & _among(old_files["target_path"], reused_paths)
    out: dict[str, pd.DataFrame | None] = {"functions": functions}
    out["files"] = _sorted([old_files[keep_files], fresh["files"]], ["target_path"])
    old_regions = stored.tables["regions"]
    out["regions"] = _sorted([old_regions[_among(old_regions["target_path"], reused_paths)], fresh["regions"]],
                             ["target_path", "target_start", "region"])
    for name, table in out.items():
        if table is None or len(table) == 0:
            return None
        if not table.dtypes.equals(stored.tables[name].dtypes):
            return None
    if paired is None:
        return None
    return {"lines": lines, **out, "paired": paired}  # type: ignore[dict-item]


class LinesTable:
    """The lines table of a rerun that reused rows, as its parts until something reads it whole:
    the stored rows (:meth:`Stored.lines`, decoded then) and the changed files' fresh rows, taken
    in ``runs`` ([source (0 stored, 1 fresh), begin, end], consecutive). :meth:`frame` is the
    table a run without the cache builds; :meth:`slice` gives rows as Arrow for lines.csv
    (:func:`lineage.report.lines_csv.write_lines_csv`), from the fresh rows alone when they
    lie there."""

    def __init__(self, stored: Stored, fresh: pd.DataFrame, runs: list[list[int]]) -> None:
        self.stored, self.fresh, self.runs = stored, fresh, runs
        self.num_rows = sum(end - begin for _, begin, end in runs)
        self._frame: pd.DataFrame | None = None
        self._whole: pa.Table | None = None

    def frame(self) -> pd.DataFrame:
        if self._frame is None:
            stored = self.stored.lines()
            if len(stored) != sum(f.n_lines for f in self.stored.files) or (
                    len(self.fresh) and not self.fresh.dtypes.equals(stored.dtypes)):
                raise ValueError("the stored lines table does not match its entry")  # checked at assembly
            tables = (stored, self.fresh)
            self._frame = pd.concat([tables[source].iloc[begin:end] for source, begin, end in self.runs],
                                    ignore_index=True)
        return self._frame

    def whole(self) -> pa.Table:
        if self._whole is None:
            self._whole = pa.Table.from_pandas(self.frame(), preserve_index=False)
        return self._whole

    def forget_whole(self) -> None:
        """Drop the Arrow copy :meth:`whole` made (for lines.csv alone): kept on the comparison,
        it held about 240 MB of the pinned pair through every later reporter."""
        self._whole = None

    def slice(self, offset: int, length: int) -> pa.Table:
        """Rows ``offset`` to ``offset + length`` as Arrow, as ``pa.Table.from_pandas(frame)`` has
        them (a CSV writer renders each cell on its own, so the rows render alike either way)."""
        if length == 0:
            return pa.Table.from_pandas(self.fresh.iloc[0:0], preserve_index=False)
        at = 0
        for source, begin, end in self.runs:
            if at <= offset < at + end - begin:
                if source == 1 and offset + length <= at + end - begin:
                    first = begin + offset - at
                    return pa.Table.from_pandas(self.fresh.iloc[first : first + length], preserve_index=False)
                break
            at += end - begin
        return self.whole().slice(offset, length)


def _among(paths: pd.Series, wanted: set[str]) -> np.ndarray:
    """``paths.isin(wanted)`` as a boolean array, by set lookups: pandas' ``isin`` of an Arrow
    string column makes an Arrow scalar of every wanted path (0.08 s for the pinned pair's files
    and regions, whose 4,718 reused paths are nearly all)."""
    return np.fromiter((p in wanted for p in paths.tolist()), bool, len(paths))


def _runs(target: Sequence[FileIndex], new: set[int], stored_files: Sequence[StoredFile], count: str,
          fresh_rows: dict[int, int], n_fresh: int) -> list[list[int]] | None:
    """Where each target file's rows lie, in target file order, each file's rows consecutive: in
    the stored table (its rows start where the stored files before it end; ``count`` names the
    stored files' row counts) or in the fresh one (the new files' rows in order, ``fresh_rows``
    of each). [source (0 stored, 1 fresh), begin, end], consecutive rows merged; None when the
    fresh rows do not add up to ``n_fresh``."""
    start: dict[tuple[str, str], tuple[int, int]] = {}
    at = 0
    for s in stored_files:
        rows = getattr(s, count)
        start[(s.path, s.digest)] = (at, rows)
        at += rows
    runs: list[list[int]] = []
    fresh_at = 0
    for t, f in enumerate(target):
        if t in new:
            source, begin, rows = 1, fresh_at, fresh_rows[t]
            fresh_at += rows
        else:
            source, (begin, rows) = 0, start[(f.path, f.digest)]
        if rows == 0:
            continue
        if runs and runs[-1][0] == source and runs[-1][2] == begin:
            runs[-1][2] = begin + rows
        else:
            runs.append([source, begin, begin + rows])
    return runs if fresh_at == n_fresh else None


def _by_file(target: Sequence[FileIndex], new: set[int], stored_files: Sequence[StoredFile],
             stored: pd.DataFrame, fresh: pd.DataFrame, count: str, fresh_rows: dict[int, int],
             empty_ok: bool = False) -> pd.DataFrame | None:
    """The rows of :func:`_runs` from ``stored`` and ``fresh``; with ``empty_ok``, a table
    without rows is the fresh table's empty head rather than None."""
    if sum(getattr(s, count) for s in stored_files) != len(stored) or (
            len(fresh) and len(stored) and not fresh.dtypes.equals(stored.dtypes)):
        return None
    runs = _runs(target, new, stored_files, count, fresh_rows, len(fresh))
    if runs is None or not (runs or empty_ok):
        return None
    if not runs:
        return fresh.iloc[0:0].reset_index(drop=True)
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
