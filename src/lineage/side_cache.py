"""The matcher's upstream side, kept between runs: its arrays, the idiom rule's form counts and
the upstream files' origins.

A rerun that matches a few target files against an unchanged upstream needs the upstream side
(:class:`lineage.match.hits.Side`: every upstream content line's hashes, token count, kind, file and
row) and the idiom rule's per-form file counts (:func:`lineage.match.idioms.form_file_counts`), both
functions of the upstream's indexed files alone; for vLLM (1.05 million content lines) building
them took about 0.35 s of each such run (round speed6). :func:`upstream_side` loads them when an
earlier run stored them for the same files, else builds and stores them.

The key (:func:`side_key`): this module's version, the code of all of lineage
(:func:`lineage.match.store.code_fingerprint`, the index records' code and the arrays' code
among it) and, in order, each upstream's label and each indexed file's path and blob digest (the
files of the side, in its order: the records of those files are what the arrays are made of).

The upstream files' origins (:func:`lineage.match.origin.upstream_origins`, about 0.2 s for vLLM's
2,880 files) are kept the same way by :func:`cached_origins`, under the side's key and every other
input of that function: the upstreams' own names, the target's names, every match parameter and
the holders the upstreams' licence files name. Layout: ``<root>/side-v<SIDE_VERSION>/origins/<key[:2]>/<key>.rec``,
a JSON payload (version, key, per file: kind, name, evidence, line).

The upstream places of the target's markers (:func:`lineage.markers.paths.resolve_marker_path`,
by the marker fields it reads) are kept under the side's key by :func:`cached_places` and
:func:`store_places`: ``<root>/side-v<SIDE_VERSION>/places/<key[:2]>/<key>.rec``, a JSON payload
(version, key, per marker: path, symbol, repository, text, place).

Layout: ``<root>/side-v<SIDE_VERSION>/<key[:2]>/<key>.rec`` (a folder :mod:`lineage.cachedir` owns), framed like the
other caches (``MAGIC | length | XXH3-128 | payload``), the payload a length-prefixed JSON header
(version, key, each array's name, dtype and length) followed by the arrays' raw bytes. The
:data:`KEEP` newest entries stay. A damaged or foreign entry is removed and the side built again.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import struct
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from lineage.index import FileIndex
from lineage.index.store import discard, frame, read_mapped, store_keeping_newest, unframe, unframe_view
from lineage.match.hits import Side
from lineage.match.origin import Origin, Section
from lineage.match.params import MatchParams

SIDE_MAGIC = b"LINEAGE-SIDE\n"
ORIGINS_MAGIC = b"LINEAGE-ORIGINS\n"
SIDE_VERSION = 1
KEEP = 4  # entries kept (one per upstream set), like the table cache's
# Side's arrays (lineage.match.hits.Side.__post_init__), then form_file_counts' four.
SIDE_ARRAYS = ("file_of", "row_of", "cidx", "file_start", "h_norm", "h_abs", "ntok", "kind")
COUNT_ARRAYS = ("text_forms", "text_counts", "abs_forms", "abs_counts")


def side_key(labels: Sequence[str], files: Sequence[Sequence[FileIndex]]) -> str:
    """Digest of what the upstream side is made of: per upstream (label), its indexed files."""
    from lineage.match.store import code_fingerprint

    sides = [[label, [[f.path, f.digest] for f in tree_files]] for label, tree_files in zip(labels, files, strict=True)]
    parts = [SIDE_VERSION, code_fingerprint(("lineage",)), sides]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _entry(root: Path, key: str) -> Path:
    return root / f"side-v{SIDE_VERSION}" / key[:2] / f"{key}.rec"


def _encode(key: str, arrays: dict[str, np.ndarray]) -> bytes:
    head = json.dumps({"version": SIDE_VERSION, "key": key,
                       "arrays": [[name, a.dtype.str, len(a)] for name, a in arrays.items()]}).encode()
    return frame(SIDE_MAGIC, b"".join([struct.pack("<Q", len(head)), head,
                                       *(np.ascontiguousarray(a).tobytes() for a in arrays.values())]))


def _decode(blob: bytes | mmap.mmap, key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored in ``blob``: copies of its bytes, or views of a private mapping's pages
    (:func:`lineage.index.store.read_mapped`; 45 MB for the pinned pair, read by every rerun)."""
    payload = unframe_view(SIDE_MAGIC, blob)
    copy = not isinstance(blob, mmap.mmap)
    if payload is None:
        return None
    try:
        (head_len,) = struct.unpack_from("<Q", payload, 0)
        header = json.loads(bytes(payload[8 : 8 + head_len]))
        if header["version"] != SIDE_VERSION or header["key"] != key:
            return None
        names = [name for name, _, _ in header["arrays"]]
        if names != [*SIDE_ARRAYS, *COUNT_ARRAYS]:
            return None
        offset = 8 + head_len
        out = {}
        for name, dtype, length in header["arrays"]:
            array = np.frombuffer(payload, np.dtype(dtype), count=int(length), offset=offset)
            out[name] = array.copy() if copy else array
            offset += out[name].nbytes
        return out if offset == len(payload) else None
    except (ValueError, KeyError, TypeError, struct.error):
        return None


def upstream_side(root: Path | None, labels: Sequence[str], files: Sequence[Sequence[FileIndex]],
                  read_lines: Callable[[int], list[str]], upstream_of: np.ndarray) -> Side:
    """The upstream :class:`Side` of ``files`` (per upstream, its indexed files; all of them in
    that order), with its form counts: from the cache under ``root`` when an earlier run stored
    them for the same files, else built (and stored). The same arrays either way."""
    from lineage.match.idioms import form_file_counts

    flat = [f for tree_files in files for f in tree_files]
    if root is None or not flat:
        return Side(flat, read_lines, upstream_of)
    key = side_key(labels, files)
    entry = _entry(root, key)
    try:
        found = _decode(read_mapped(entry), key)
        if found is None:
            discard(entry)  # damaged or foreign: stored again below
    except OSError:
        found = None
    if found is not None:
        return Side(flat, read_lines, upstream_of, arrays={n: found[n] for n in SIDE_ARRAYS},
                    form_counts=tuple(found[n] for n in COUNT_ARRAYS))  # type: ignore[arg-type]
    side = Side(flat, read_lines, upstream_of)
    side.form_counts = form_file_counts(side)
    arrays = {name: getattr(side, name) for name in SIDE_ARRAYS}
    arrays.update(zip(COUNT_ARRAYS, side.form_counts, strict=True))
    # Only the sides' own folders (two hex digits): ``origins/`` and ``licences/`` beside them keep their own.
    store_keeping_newest(entry, _encode(key, arrays), KEEP, "[0-9a-f][0-9a-f]/*.rec")
    return side


def origins_key(labels: Sequence[str], files: Sequence[Sequence[FileIndex]], own_names: Sequence[set[str]],
                target_names: set[str], params: MatchParams, holders: Sequence[set[str]]) -> str:
    """Digest of every input of :func:`lineage.match.origin.upstream_origins` (the files through
    :func:`side_key`, which holds the code)."""
    parts = [SIDE_VERSION, "origins", side_key(labels, files), [sorted(n) for n in own_names], sorted(target_names),
             params.to_dict(), [sorted(h) for h in holders]]
    # The markers an upstream's vendoring records give (not in the files' bytes): only when there are any.
    vendored = [[f.path, m.text] for tree_files in files for f in tree_files for m in f.markers if m.kind == "vendored"]
    if vendored:
        parts.append(vendored)
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def cached_origins(root: Path | None, labels: Sequence[str], files: Sequence[Sequence[FileIndex]],
                   upstream_of: Sequence[int], own_names: Sequence[set[str]], target_names: set[str],
                   params: MatchParams, holders: Sequence[set[str]]) -> list[Origin]:
    """:func:`lineage.match.origin.upstream_origins` of the upstream files ``files`` (per upstream;
    all of them in that order, ``upstream_of`` saying whose each is), from the cache under
    ``root`` when an earlier run stored them for the same inputs, else computed and stored."""
    from lineage.match.origin import upstream_origins

    flat = [f for tree_files in files for f in tree_files]
    if root is None or not flat:
        return upstream_origins(flat, upstream_of, own_names, target_names, params, holders)
    key = origins_key(labels, files, own_names, target_names, params, holders)
    entry = root / f"side-v{SIDE_VERSION}" / "origins" / key[:2] / f"{key}.rec"
    try:
        payload = unframe(ORIGINS_MAGIC, entry.read_bytes())
        header = json.loads(payload) if payload is not None else None
        if (isinstance(header, dict) and header.get("version") == SIDE_VERSION and header.get("key") == key
                and len(header["origins"]) == len(flat)):
            return [Origin(str(kind), str(name), str(evidence), int(line),
                           tuple(Section(int(a), int(b), Origin(str(k), str(n), str(e), int(n_line)))
                                 for a, b, k, n, e, n_line in sections))
                    for kind, name, evidence, line, sections in header["origins"]]
        discard(entry)  # damaged or foreign: stored again below
    except (OSError, ValueError, KeyError, TypeError):
        discard(entry)
    origins = upstream_origins(flat, upstream_of, own_names, target_names, params, holders)
    payload = json.dumps({"version": SIDE_VERSION, "key": key,
                          "origins": [[o.kind, o.name, o.evidence, o.line,
                                       [[x.start, x.end, x.origin.kind, x.origin.name, x.origin.evidence,
                                         x.origin.line] for x in o.sections]] for o in origins]}).encode()
    store_keeping_newest(entry, frame(ORIGINS_MAGIC, payload), KEEP)
    return origins


PLACES_MAGIC = b"LINEAGE-PLACES\n"
# A marker's fields :func:`lineage.markers.paths.resolve_marker_path` reads: path, symbol,
# repository, text.
PlaceKey = tuple[str, str, str, str]
PLACES_KEPT = 50_000  # markers per entry (the pinned pair's target has 478 distinct ones)


def _places_entry(root: Path, labels: Sequence[str], files: Sequence[Sequence[FileIndex]]) -> tuple[Path, str]:
    # the upstream side's key holds everything the resolution reads beside the marker: the
    # upstream paths (exact, by name, trailing folders), the files' definitions (through their
    # digests and the code fingerprint: :class:`lineage.markers.paths.TopLevelDefiners`) and the code
    key = hashlib.sha256(json.dumps([SIDE_VERSION, "places", side_key(labels, files)]).encode()).hexdigest()
    return root / f"side-v{SIDE_VERSION}" / "places" / key[:2] / f"{key}.rec", key


def cached_places(root: Path | None, labels: Sequence[str], files: Sequence[Sequence[FileIndex]]
                  ) -> dict[PlaceKey, str]:
    """The upstream places (:func:`lineage.markers.paths.resolve_marker_path`) of markers an
    earlier run resolved against the same upstream files (``files``, per upstream ``labels``), by
    the marker fields the resolution reads; ``{}`` when none were kept (or without a cache). A
    changed run resolved the same 478 distinct markers of the pinned pair again (0.1 s; round
    speed171); :func:`store_places` keeps them."""
    if root is None or not any(files):
        return {}
    entry, key = _places_entry(root, labels, files)
    try:
        payload = unframe(PLACES_MAGIC, entry.read_bytes())
        header = json.loads(payload) if payload is not None else None
        if isinstance(header, dict) and header.get("version") == SIDE_VERSION and header.get("key") == key:
            return {(str(p), str(s), str(r), str(t)): str(place) for p, s, r, t, place in header["places"]}
        discard(entry)  # damaged or foreign
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError):
        discard(entry)
    return {}


def store_places(root: Path | None, labels: Sequence[str], files: Sequence[Sequence[FileIndex]],
                 places: dict[PlaceKey, str]) -> None:
    """Keep ``places`` (:func:`cached_places`'s, with this run's additions) for the next run;
    at most :data:`PLACES_KEPT` markers, in the order met (an entry keeps growing with every
    target compared against the same upstream otherwise)."""
    if root is None or not any(files):
        return
    entry, key = _places_entry(root, labels, files)
    kept = list(places.items())[:PLACES_KEPT]
    payload = json.dumps({"version": SIDE_VERSION, "key": key,
                          "places": [[*fields, place] for fields, place in kept]}).encode()
    store_keeping_newest(entry, frame(PLACES_MAGIC, payload), KEEP)

