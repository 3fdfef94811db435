"""The match cache (per target file's labels), stored with the index cache's framing."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import numpy as np

# shim: remove when no caller is left (IndexCache and the framing moved to lineage.index.store)
from lineage.index.store import (  # noqa: F401
    MAGIC,
    IndexCache,
    frame,
    pack,
    source_fingerprint,
    unframe,
    unpack,
    write_atomically,
)
from lineage.match import FileMatch, Region

_MATCH_ARRAYS = (np.uint8, np.int32, np.int32, np.float32, np.int32)  # match .. region

MATCH_MAGIC = b"LINEAGE-MATCH\n"


class MatchCache:
    """Per target file: its labels against one exact upstream set with one set of parameters.

    A target file's labels depend only on its own content and path, the upstream trees (their
    labels, order and tree digests) and the matcher (its parameters and code), never on the other
    target files: so an unchanged file is not matched again when its neighbours change. ``context``
    is a digest of everything but the file.
    """

    def __init__(self, root: Path | None, context: str) -> None:
        self.dir = root / "match-v1" / context[:32] if root is not None else None
        self.hits = 0
        self.misses = 0

    def _path(self, digest: str, path: str) -> Path:
        assert self.dir is not None
        key = hashlib.sha256(f"{digest}\0{path}".encode("utf-8", "surrogateescape")).hexdigest()
        return self.dir / key[:2] / f"{key}.rec"

    def get(self, digest: str, path: str, n_lines: int) -> tuple[FileMatch, list[Region]] | None:
        if self.dir is None:
            return None
        entry = self._path(digest, path)
        try:
            payload = unframe(MATCH_MAGIC, entry.read_bytes())
        except OSError:
            payload = None
        found = _decode_match(payload, n_lines) if payload is not None else None
        if found is None:
            self.misses += 1
            entry.unlink(missing_ok=True)
            return None
        self.hits += 1
        return found

    def put(self, digest: str, path: str, match: FileMatch, regions: list[Region]) -> None:
        if self.dir is None:
            return
        header = {"n": int(match.match.shape[0]), "regions": [
            [r.region, r.up_file, r.target_start, r.target_end, r.upstream_start, r.upstream_end,
             r.verbatim, r.near, r.weight] for r in regions]}
        arrays = (match.match, match.up_file, match.up_row, match.similarity, match.region)
        write_atomically(self._path(digest, path), frame(MATCH_MAGIC, pack(header, arrays, _MATCH_ARRAYS)))


def _decode_match(payload: bytes, n_lines: int) -> tuple[FileMatch, list[Region]] | None:
    try:
        unpacked = unpack(payload, _MATCH_ARRAYS, "n")
        if unpacked is None or int(unpacked[0]["n"]) != n_lines:
            return None
        header, arrays = unpacked
        regions = [Region(-1, int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]),
                          int(r[6]), int(r[7]), float(r[8])) for r in header["regions"]]
        return FileMatch(*arrays), regions
    except (ValueError, KeyError, TypeError, IndexError, struct.error):
        return None
