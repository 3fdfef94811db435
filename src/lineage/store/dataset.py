"""The store on disk: ``store.json``, a releases table and partitioned fingerprint files.

Layout of ``DIR``::

    store.json                            format, index version, seed rules, build parameters
    releases.parquet                      one row per release, sorted by digest
    fingerprints/prefix=XX/<digest>.parquet   (fp int64, rid int64), sorted by fp

``XX`` is the fingerprint's leading ``prefix_bits`` bits in hex. Each release writes its own
file in each partition, named after its digest, so releases are added in any order, on any
machine that sees the folder, without coordination, and a file is written whole or not at all
(temporary name, then rename). A release exists once its row is in ``releases.parquet``: files
of a release whose row was never written (an interrupted run) are ignored and rewritten, with
the same bytes, when it is added again.

A file damaged on disk (cut short, overwritten) is found by its footer (:func:`damage`) before a
command reads it: ``scan`` and ``store compact`` refuse the store naming the file
(:meth:`Store.check_files`), ``store info`` lists every such file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from lineage.errors import LineageError
from lineage.index import INDEX_VERSION
from lineage.match.params import MatchParams
from lineage.store.params import BUILD_FIELDS, SEED_RULES, StoreParams, seed_rules

STORE_FORMAT = "lineage.store"
# Change log: 1: first version.
STORE_VERSION = 1

COMPACTED = "compacted.parquet"  # a partition's merged file (lineage store compact)
_FP_SCHEMA = pa.schema([("fp", pa.int64()), ("rid", pa.int64())])


@dataclass(frozen=True)
class Release:
    """One row of the releases table."""

    rid: int  # 60 bits of the digest: the fingerprint files' release column
    digest: str  # the tree digest (lineage.index.TreeIndex.tree_digest)
    spec: str  # as stored: what ``compare`` is given as ``--upstream`` after a scan
    label: str
    source_digest: str  # the archive's sha256 or git commit ("" for a directory)
    licence: str  # declared SPDX expression ("" when none could be read)
    files: int  # Python files indexed
    skipped_files: int
    fingerprints: int


_RELEASE_SCHEMA = pa.schema([
    ("rid", pa.int64()), ("digest", pa.string()), ("spec", pa.string()), ("label", pa.string()),
    ("source_digest", pa.string()), ("licence", pa.string()), ("files", pa.int64()),
    ("skipped_files", pa.int64()), ("fingerprints", pa.int64()),
])


class StoreDamaged(LineageError):
    """A file of the store cannot be read as the store wrote it."""


def damage(path: Path, schema: pa.Schema) -> str | None:
    """Why ``path`` is not a Parquet file with ``schema``'s columns (read from its footer, without
    its data), or None when it is one."""
    try:
        found = pq.read_schema(path)
    except (OSError, pa.ArrowException) as exc:
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    missing = [f.name for f in schema if found.get_field_index(f.name) < 0
               or not found.field(f.name).type.equals(f.type)]
    return f"lacks the columns {', '.join(missing)}" if missing else None


def _damaged(path: Path, why: str) -> StoreDamaged:
    return StoreDamaged(f"damaged store file {path}: {why}")


def release_id(digest: str) -> int:
    return int(digest.split(":", 1)[-1][:15], 16)


def write_parquet(table: pa.Table, path: Path, row_group_size: int | None = None) -> None:
    """Write whole or not at all; the same table always gives the same bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".parquet")
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd", write_statistics=True, row_group_size=row_group_size)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _whole_numbers(table: object, keys: tuple[str, ...], exact: bool = False) -> bool:
    """Whether ``table`` maps some (``exact``: all) of ``keys``, and no other, to ints."""
    return isinstance(table, dict) and set(table) <= set(keys) and (not exact or set(table) == set(keys)) \
        and all(type(v) is int for v in table.values())


class Store:
    """A fingerprint store folder (see the module docstring)."""

    def __init__(self, root: Path, params: StoreParams, rules: dict[str, int]) -> None:
        self.root = root
        self.params = params
        self.rules = rules

    # -- opening
    @classmethod
    def open(cls, root: Path, params: StoreParams | None = None, match: MatchParams | None = None,
             create: bool = False) -> Store:
        """Open ``root``; with ``create``, make it if missing. The build parameters and seed
        parameters of an existing store win over ``params``; other seed rules are an error."""
        meta_path = root / "store.json"
        if not meta_path.is_file():
            if not create:
                # a mistyped path is said as such, not as a damaged store
                what = "no such folder" if not root.exists() else "not a lineage store (no store.json)"
                raise LineageError(f"--store {root}: {what}")
            if root.exists() and not root.is_dir():
                raise LineageError(f"--store {root}: exists and is not a folder")
            if root.exists() and any(root.iterdir()):
                raise LineageError(f"--store {root}: exists, is not empty and holds no store.json")
            params = params or StoreParams()
            store = cls(root, params, seed_rules(match or MatchParams()))
            store._write_meta()
            return store
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            ok = meta.get("format") == STORE_FORMAT
        except (OSError, ValueError, AttributeError) as exc:
            raise LineageError(f"--store {root}: unreadable store.json ({exc})") from None
        if not ok or meta.get("version") != STORE_VERSION:
            raise LineageError(f"--store {root}: not a lineage store of version {STORE_VERSION}")
        if meta.get("index_version") != INDEX_VERSION:
            raise LineageError(f"--store {root}: built with index version {meta.get('index_version')}, this "
                               f"lineage hashes lines with version {INDEX_VERSION}; build a new store")
        build, rules = meta.get("build"), meta.get("seed_rules")
        # as this lineage writes them: a table of whole numbers, no key it does not know
        if not (_whole_numbers(build, BUILD_FIELDS, exact=True) and _whole_numbers(rules, SEED_RULES)):
            raise LineageError(f"--store {root}: unreadable store.json (build {build!r} or seed_rules {rules!r} "
                               "is not a table of whole numbers that lineage writes)")
        base = params or StoreParams()
        if match is not None and seed_rules(match) != rules:
            raise LineageError(f"--store {root}: its fingerprints follow the seed rules {rules}, "
                               f"not {seed_rules(match)}")
        fixed = dataclasses.replace(base, **{k: build[k] for k in BUILD_FIELDS})
        return cls(root, fixed, rules)

    def _write_meta(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        meta = {"format": STORE_FORMAT, "version": STORE_VERSION, "index_version": INDEX_VERSION,
                "build": self.params.build_dict(), "seed_rules": self.rules}
        (self.root / "store.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")

    @property
    def match_rules(self) -> MatchParams:
        """MatchParams with the store's seed rules (the target is fingerprinted under them)."""
        return dataclasses.replace(MatchParams(), **self.rules)  # type: ignore[arg-type]

    @contextlib.contextmanager
    def writer(self) -> Iterator[None]:
        """Hold the store's write lock: one ``store add`` at a time writes the releases table
        (another waits), so no release row is lost to a concurrent rewrite."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    # -- releases
    def releases(self) -> list[Release]:
        path = self.root / "releases.parquet"
        if not path.is_file():
            return []
        try:
            rows = pq.read_table(path, schema=_RELEASE_SCHEMA).to_pylist()
        except (OSError, pa.ArrowException) as exc:
            raise _damaged(path, damage(path, _RELEASE_SCHEMA) or str(exc).strip().splitlines()[0]) from None
        return [Release(**row) for row in rows]

    def write_releases(self, releases: list[Release]) -> None:
        unique = {r.digest: r for r in releases}
        rows = [asdict(unique[d]) for d in sorted(unique)]
        table = pa.Table.from_pylist(rows, schema=_RELEASE_SCHEMA)
        write_parquet(table, self.root / "releases.parquet")

    # -- fingerprints
    @property
    def partitions(self) -> list[str]:
        width = max(1, (self.params.prefix_bits + 3) // 4)
        return [f"{p:0{width}x}" for p in range(1 << self.params.prefix_bits)]

    def prefix_of(self, fps: np.ndarray) -> np.ndarray:
        return (fps >> (63 - self.params.prefix_bits)).astype(np.int64) if self.params.prefix_bits else \
            np.zeros(len(fps), np.int64)

    def partition_dir(self, prefix: str) -> Path:
        return self.root / "fingerprints" / f"prefix={prefix}"

    def fingerprint_file(self, prefix: str, digest: str) -> Path:
        return self.partition_dir(prefix) / f"{digest.split(':', 1)[-1]}.parquet"

    def write_fingerprints(self, digest: str, fps: np.ndarray) -> None:
        """One file per non-empty partition; ``fps`` sorted and distinct."""
        rid = release_id(digest)
        prefixes = self.prefix_of(fps)
        names = self.partitions
        for p in np.unique(prefixes).tolist():
            part = fps[prefixes == p]
            table = pa.table({"fp": part, "rid": np.full(len(part), rid, np.int64)}, schema=_FP_SCHEMA)
            write_parquet(table, self.fingerprint_file(names[p], digest))

    def partition_files(self, releases: list[Release]) -> dict[str, list[str]]:
        """Per partition: its compacted file, then the files of these releases not yet compacted
        (sorted by digest); existing ones only."""
        out: dict[str, list[str]] = {}
        for prefix in self.partitions:
            files = [self.partition_dir(prefix) / COMPACTED]
            files += [self.fingerprint_file(prefix, r.digest) for r in sorted(releases, key=lambda r: r.digest)]
            found = [str(f) for f in files if f.is_file()]
            if found:
                out[prefix] = found
        return out

    def check_files(self, files: dict[str, list[str]]) -> None:
        """Raise :class:`StoreDamaged` naming the first of these fingerprint files (as
        :meth:`partition_files` gives them) that is damaged."""
        for paths in files.values():
            for path in paths:
                why = damage(Path(path), _FP_SCHEMA)
                if why is not None:
                    raise _damaged(Path(path), why)

    def stored_rows(self, files: dict[str, list[str]]) -> dict[int, int]:
        """Rows per release id in these fingerprint files (as :meth:`partition_files` gives
        them, whole ones): a release's own file's from its footer, a compacted file's from its
        release column. A crash in compaction leaves rows twice: a count is never too low."""
        rows: dict[int, int] = {}
        for paths in files.values():
            for path in map(Path, paths):
                if path.name == COMPACTED:
                    rids, counts = np.unique(pq.read_table(path, columns=["rid"])["rid"].to_numpy(),
                                             return_counts=True)
                    pairs = zip(rids.tolist(), counts.tolist(), strict=True)
                else:
                    pairs = zip([release_id(path.stem)], [pq.read_metadata(path).num_rows], strict=True)
                for rid, n in pairs:
                    rows[rid] = rows.get(rid, 0) + n
        return rows

    def incomplete(self, releases: list[Release], files: dict[str, list[str]]) -> list[tuple[Release, int]]:
        """The releases whose fingerprint files hold fewer rows than their row of the releases
        table says (a file removed or lost), each with the rows found."""
        rows = self.stored_rows(files)
        return [(r, rows.get(r.rid, 0)) for r in releases if rows.get(r.rid, 0) < r.fingerprints]

    def check_complete(self, releases: list[Release], files: dict[str, list[str]]) -> None:
        """Raise :class:`StoreDamaged` when a release's fingerprints are not all in these files:
        a lookup would rank it, and every release sharing its lines, on part of them."""
        short = self.incomplete(releases, files)
        if short:
            release, stored = short[0]
            raise StoreDamaged(incomplete_message(self.root, release.spec, stored, release.fingerprints,
                                                  len(short) - 1))

    def damaged_files(self) -> list[tuple[Path, str]]:
        """Every damaged file of the store (the releases table, every fingerprint file) and why."""
        folder = self.root / "fingerprints"
        found = [(p, _FP_SCHEMA) for p in sorted(folder.rglob("*.parquet"))] if folder.exists() else []
        if (self.root / "releases.parquet").is_file():
            found.insert(0, (self.root / "releases.parquet", _RELEASE_SCHEMA))
        return [(path, why) for path, schema in found if (why := damage(path, schema)) is not None]

    def compact(self) -> int:
        """Merge each partition's files into one (sorted by fingerprint, then release), so that a
        lookup opens one file per partition however many releases the store holds. Returns how
        many files were merged away. A crash part-way leaves rows in two files: lookups read
        distinct (fingerprint, release) pairs, so the figures do not change."""
        merged = 0
        with self.writer():
            releases = self.releases()
            by_partition = self.partition_files(releases)
            self.check_files(by_partition)  # never merge a damaged file's rows away, nor stop half-way
            self.check_complete(releases, by_partition)  # nor hide a lost file's in a merged one
            for prefix, files in by_partition.items():
                if len(files) < 2:
                    continue
                table = pa.concat_tables([pq.read_table(f, schema=_FP_SCHEMA) for f in files])
                table = table.group_by(["fp", "rid"]).aggregate([]).sort_by([("fp", "ascending"),
                                                                            ("rid", "ascending")])
                write_parquet(table, self.partition_dir(prefix) / COMPACTED, row_group_size=1 << 20)
                for f in files:
                    if Path(f).name != COMPACTED:
                        Path(f).unlink()
                        merged += 1
        return merged

    def summary(self, releases: list[Release] | None = None) -> dict[str, object]:
        """What the releases table and the store's settings say, read from no fingerprint file
        (scan records it after its own checks of those files; :meth:`info` checks them again)."""
        releases = self.releases() if releases is None else releases
        return {"releases": len(releases), "fingerprints": sum(r.fingerprints for r in releases),
                "index_version": INDEX_VERSION, "build": self.params.build_dict(), "seed_rules": self.rules}

    def info(self) -> dict[str, object]:
        """:meth:`summary`'s fields (computed there alone) with what the store's files hold: their
        count, size and damage. The keys keep the order ``store info --json`` has always printed:
        the store, the summary's release counts, the files' counts, then the summary's settings."""
        releases = self.releases()
        summary = self.summary(releases)
        counts = ("releases", "fingerprints")
        files = sorted((self.root / "fingerprints").rglob("*.parquet")) if (self.root / "fingerprints").exists() else []
        size = sum(f.stat().st_size for f in files) + sum(
            p.stat().st_size for p in (self.root / "releases.parquet", self.root / "store.json") if p.is_file())
        damaged = self.damaged_files()
        # what the files hold, beside what the releases table says (only when every file is whole)
        short, unlisted = [], 0
        if not damaged:
            short = self.incomplete(releases, self.partition_files(releases))
            known = {r.digest.split(":", 1)[-1] for r in releases}
            # a write's temporary file (".tmp-*", left by an interrupted add) is no release's file
            unlisted = sum(f.name != COMPACTED and not f.name.startswith(".tmp-") and f.stem not in known
                           for f in files)
        return {
            "store": str(self.root),
            **{key: summary[key] for key in counts},
            "python_files": sum(r.files for r in releases),
            "partitions": len(self.partitions),
            "fingerprint_files": len(files),
            "bytes": size,
            **{key: value for key, value in summary.items() if key not in counts},
            "damaged": [{"path": str(path), "why": why} for path, why in damaged],
            # releases whose fingerprint files hold fewer rows than the table says (files lost)
            "incomplete": [{"release": r.spec, "digest": r.digest, "fingerprints": r.fingerprints, "stored": n}
                           for r, n in short],
            # files of releases the table does not hold (an interrupted add, or the table lost): ignored
            "unlisted_files": unlisted,
        }


def incomplete_message(root: Path | str, spec: str, stored: int, fingerprints: int, others: int) -> str:
    """The one-line error for a release whose fingerprint files are not all there (``others``:
    how many more releases are short)."""
    more = f" (and {others} more releases)" if others else ""
    return (f"store {root}: fingerprint files missing: {spec} holds {stored:,} of its {fingerprints:,} "
            f"fingerprints{more}; build the store again")
