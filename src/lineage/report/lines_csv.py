"""lines.csv assembled per target file: the last run's bytes of each unchanged file's rows, spliced.

lines.csv holds one row per line of every indexed target file, the files in path order and each
file's rows consecutive (:func:`lineage.results.tables.build_lines`); for the pinned pair it is 169 MB
and writing it took about 1.2 s of a rerun that changed one file (round speed6). A file's rows are
a function of the file and of a context shared by all (:mod:`lineage.results.reuse`, whose key this
cache reuses: :class:`lineage.results.reuse.RowKeys`), and the CSV writer renders each row on its own (quoting, numbers,
the formula guard of :func:`lineage.report.tables.neutralise_formulas` are per cell), so the bytes of a file's
rows are a function of the same key. A run that knows its rows' keys keeps the body of lines.csv
with each file's byte length, and the next run under the same context copies the bytes of every
file whose key is stored and renders only the others: the same file, byte for byte (tested against
a run without cache).

Only :func:`lineage.compare_and_write.compare_and_write` turns this on (``write_reports(csv_cache=)``):
there nobody can have changed the comparison's tables between building and writing them. A
:class:`lineage.api.Comparison` written by an API caller, whose tables may have been edited, is
always rendered whole.

Layout: ``<root>/tables-v<TABLES_VERSION>/lines-csv/<context[:2]>/<context>.rec``, framed like the
other caches (``MAGIC | length | XXH3-128 | payload``), the payload a length-prefixed JSON header
(version, context, the header line's and each stored file's key and byte length) followed by the
body (every row after the header line) as one LZ4 frame (11.5 MB for the pair's 169 MB; it
decompresses in about 0.13 s). One entry per context, the :data:`lineage.results.reuse.KEEP` newest
kept; rewritten when a run rendered the rows of more than :data:`lineage.results.reuse.REWRITE_AFTER`
files itself. A damaged or foreign entry is removed and the file rendered whole.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.csv as pa_csv

from lineage.index.store import discard, frame, store_keeping_newest, unframe_view

if TYPE_CHECKING:
    from lineage.results.reuse import LinesTable, RowKeys

LINES_CSV_MAGIC = b"LINEAGE-LINESCSV\n"
LINES_CSV_VERSION = 1
CODEC = "lz4"  # decompresses several times faster than zstd; the entry is read by every rerun
_CHUNK = 1 << 22


def _options(include_header: bool = True) -> pa_csv.WriteOptions:
    # (lineage.report.tables.write_csv's options)
    return pa_csv.WriteOptions(quoting_style="needed", include_header=include_header)


def _entry_path(root: Path, context: str) -> Path:
    from lineage.results.reuse import TABLES_VERSION

    return root / f"tables-v{TABLES_VERSION}" / "lines-csv" / context[:2] / f"{context}.rec"


def _key(key: tuple[Any, ...]) -> str:
    return json.dumps(key)


def _get(entry: Path, context: str) -> tuple[dict[str, tuple[int, int]], memoryview, int] | None:
    """(file key -> (offset in the body, length), the compressed body, the body's length), or
    None when there is no usable entry (a damaged or foreign one is removed)."""
    try:
        blob = entry.read_bytes()
    except OSError:
        return None
    payload = unframe_view(LINES_CSV_MAGIC, blob)
    try:
        if payload is None:
            raise ValueError("damaged")
        (head_len,) = struct.unpack_from("<Q", payload, 0)
        header = json.loads(bytes(payload[8 : 8 + head_len]))
        if header["version"] != LINES_CSV_VERSION or header["context"] != context:
            raise ValueError("foreign")
        where: dict[str, tuple[int, int]] = {}
        offset = 0
        for key, length in header["files"]:
            where[key] = (offset, int(length))
            offset += int(length)
        return where, payload[8 + head_len :], offset
    except (ValueError, KeyError, TypeError, struct.error):
        discard(entry)
        return None


def _put(entry: Path, context: str, keys: Sequence[str], lengths: Sequence[int], body_of: Path, skip: int) -> None:
    """Store the body of the file ``body_of`` (after its first ``skip`` bytes, the header line)."""
    from lineage.results.reuse import KEEP

    head = json.dumps({"version": LINES_CSV_VERSION, "context": context,
                       "files": [[k, n] for k, n in zip(keys, lengths, strict=True)]}).encode()
    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, CODEC) as out, body_of.open("rb") as handle:
        handle.seek(skip)
        while chunk := handle.read(_CHUNK):
            out.write(chunk)
    payload = struct.pack("<Q", len(head)) + head + sink.getvalue().to_pybytes()
    store_keeping_newest(entry, frame(LINES_CSV_MAGIC, payload), KEEP)


def write_lines_csv(table: pa.Table | LinesTable, path: Path, row_keys: RowKeys, cache_root: Path) -> int:
    """Write lines.csv of ``table`` (already through the formula guard when it was rendered whole:
    see :func:`lineage.report.tables.write_csv`) to ``path``, copying the stored bytes of each
    file whose key the entry holds; return how many files' rows were copied. Raises ValueError
    when ``row_keys`` does not describe ``table`` (the caller then renders it whole). A
    :class:`lineage.results.reuse.LinesTable` is read whole only when the entry is rendered
    whole or lacks a file whose rows are not among its fresh ones."""
    from lineage.results.reuse import LinesTable

    try:
        return _write(table, path, row_keys, cache_root)
    finally:
        if isinstance(table, LinesTable):
            table.forget_whole()


def _write(table: pa.Table | LinesTable, path: Path, row_keys: RowKeys, cache_root: Path) -> int:
    from lineage.report.tables import neutralise_formulas
    from lineage.results.reuse import REWRITE_AFTER

    if sum(row_keys.rows) != table.num_rows or len(row_keys.keys) != len(row_keys.rows):
        raise ValueError("row keys do not match the lines table")
    entry = _entry_path(cache_root, row_keys.context)
    keys = [_key(k) for k in row_keys.keys]
    found = _get(entry, row_keys.context)
    stored = found[0] if found is not None else {}
    fresh = sum(1 for k in keys if k not in stored)
    header = pa.BufferOutputStream()
    pa_csv.write_csv(table.slice(0, 0), header, _options())  # the header line alone
    head = header.getvalue().to_pybytes()
    if found is None or fresh > REWRITE_AFTER:
        # Rendered whole, one write per file so that each file's byte length is known; then stored.
        if not isinstance(table, pa.Table):
            table = table.whole()
        lengths = []
        with pa.OSFile(str(path), "wb") as sink:
            sink.write(head)
            with pa_csv.CSVWriter(sink, table.schema, write_options=_options(include_header=False)) as writer:
                start = row = 0
                guarded = neutralise_formulas(table)
                for n in row_keys.rows:
                    writer.write_table(guarded.slice(row, n))
                    row += n
                    lengths.append(sink.tell() - len(head) - start)
                    start += lengths[-1]
        _put(entry, row_keys.context, keys, lengths, path, len(head))
        return 0
    where, compressed, body_length = found
    copied = 0
    with path.open("wb") as out:
        out.write(head)
        body = pa.CompressedInputStream(pa.BufferReader(compressed), CODEC)
        position = row = 0
        for key, n in zip(keys, row_keys.rows, strict=True):
            hit = where.get(key)
            if hit is not None:
                offset, length = hit
                if offset < position:  # the stored files are in path order, as these are
                    raise ValueError("stored rows out of order")
                _skip(body, offset - position)
                piece = body.read(length)
                if len(piece) != length:
                    raise ValueError("stored body too short")
                out.write(piece)
                position = offset + length
                copied += 1
            else:
                rendered = pa.BufferOutputStream()
                pa_csv.write_csv(neutralise_formulas(table.slice(row, n)), rendered, _options(include_header=False))
                out.write(rendered.getvalue().to_pybytes())
            row += n
        if position > body_length:
            raise ValueError("stored body too short")
    return copied


def _skip(stream: pa.NativeFile, count: int) -> None:
    """Read past ``count`` bytes of a compressed stream (it cannot seek)."""
    while count > 0:
        got = len(stream.read(min(count, _CHUNK)))
        if got == 0:
            raise ValueError("stored body too short")
        count -= got
