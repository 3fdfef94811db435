"""HTML pages kept between runs: a rerun renders only the pages of the target files that changed.

A target file's page (:func:`lineage.report.html.write_html`) is made from the file's rows of the
lines, files and regions tables, the file's own text and index record, and the text and index
records of the upstream files it is paired with. The rows are a function of the file and of the
tables' context (:func:`lineage.results.reuse.tables_context`: lineage's code, library versions,
the upstream trees, every parameter, the names and the origins), and so is everything else the
page reads, the upstream files included (their trees' digests are in the context). So a page is a
function of that context and of the file's own key (:class:`lineage.results.reuse.RowKeys`: path,
blob digest, line and definition counts, renamed upstream paths). Rendering every page is most of
a rerun's writing on a large pair: on the pinned pair the 517 pages (27 MB) took about 13 s of
wall time on 2 processes after one target file changed, against about 2 s for everything else.

Only a run through :func:`lineage.compare_and_write.compare_and_write` keeps pages (the
``csv_cache`` of :func:`lineage.report.write_reports` with the comparison's ``row_keys``, as
lines.csv and the SPDX elements): an API caller's comparison, whose tables may have been edited,
is always rendered whole. The pages are the same, byte for byte, either way (tested).

Layout: ``<root>/pages-v<N>/<context>/<page stem>.<key[:24]>.rec``, one file per page, framed like
the other caches (``MAGIC | length | XXH3-128 | payload``), the payload the page's length (8
bytes, little-endian) and its UTF-8 bytes LZ4-compressed. One file per page rather than one entry
per context, so that the processes that write the pages side by side
(:meth:`lineage.report.html.HtmlReporter.write_part`) never write the same file; storing a page
removes the older versions of that page. The :data:`lineage.results.reuse.KEEP` most recently
used contexts are kept. A damaged or foreign page file is removed and the page rendered afresh.
An unwritable cache only makes the next run slower.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from lineage.index.store import discard, frame, unframe, write_atomically

PAGES_MAGIC = b"LINEAGE-PAGE\n"
# 2: shared lines shown and coloured; 3: the header counts them; 4: licence obligations;
# 5: a region heading named by its number, an upstream-only line shown once, "region N continues"
PAGES_VERSION = 5
CODEC = "lz4"  # as lines.csv's cache: read on every rerun, so decompression speed matters most


def page_key(file_key: Sequence[Any], several: bool, obligations: Sequence[Any] = ()) -> str:
    """Digest of a page's own inputs besides the context: the target file's row key, whether
    the run has several upstreams (which names each region's upstream; also in the context, kept
    here so that the key says it), and the file's rows of the obligations table its header shows
    (they read the target's and the upstream's licence files, which the tables' context does
    not hold: these rows are what keeps a page from going stale when a licence file changes, so
    that a kept page never disagrees with obligations.csv)."""
    return hashlib.sha256(json.dumps([PAGES_VERSION, list(file_key), several, list(obligations)],
                                     default=str).encode()).hexdigest()


class PageCache:
    """The pages stored under one context: :meth:`get` a page by its name and key, :meth:`put` one."""

    def __init__(self, root: Path, context: str) -> None:
        self.base = root / f"pages-v{PAGES_VERSION}"
        self.folder = self.base / context
        self.found = self.made = 0  # pages taken from the cache / rendered and stored by this run
        with contextlib.suppress(OSError):
            if self.folder.is_dir():
                os.utime(self.folder)  # used now: the newest contexts are the ones kept

    def _path(self, name: str, key: str) -> Path:
        return self.folder / f"{name.removesuffix('.html')}.{key[:24]}.rec"

    def get(self, name: str, key: str) -> str | None:
        """The page ``name`` stored under ``key``, or None."""
        path = self._path(name, key)
        try:
            blob = path.read_bytes()
        except OSError:
            return None
        payload = unframe(PAGES_MAGIC, blob)
        try:
            if payload is None or len(payload) < 8:
                raise ValueError("damaged")
            (size,) = struct.unpack_from("<Q", payload, 0)
            text = pa.decompress(payload[8:], decompressed_size=size, codec=CODEC, asbytes=True).decode("utf-8")
        except (ValueError, pa.ArrowException, UnicodeDecodeError):
            discard(path)
            return None
        self.found += 1
        return text

    def put(self, name: str, key: str, page: str) -> None:
        """Store a page this run rendered, removing the older versions of the same page."""
        data = page.encode("utf-8")
        payload = struct.pack("<Q", len(data)) + pa.compress(data, codec=CODEC, asbytes=True)
        path = self._path(name, key)
        stem = name.removesuffix(".html")
        with contextlib.suppress(OSError):
            new = not self.folder.is_dir()
            write_atomically(path, frame(PAGES_MAGIC, payload))
            self.made += 1
            for old in self.folder.glob(f"{stem}.*.rec"):
                if old != path and old.name.count(".") == path.name.count("."):
                    old.unlink(missing_ok=True)
            if new:
                self._keep_newest()

    def _keep_newest(self) -> None:
        """Remove all but the newest :data:`lineage.results.reuse.KEEP` contexts' folders."""
        from lineage.results.reuse import KEEP

        dated = []
        for folder in self.base.iterdir():
            with contextlib.suppress(OSError):
                if folder.is_dir() and not folder.name.startswith(".tmp-"):
                    dated.append((folder.stat().st_mtime_ns, folder.name, folder))
        for _, _, folder in sorted(dated, reverse=True)[KEEP:]:
            if folder != self.folder:
                shutil.rmtree(folder, ignore_errors=True)
