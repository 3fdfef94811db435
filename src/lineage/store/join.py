"""The scan's lookup as a Dask dataframe join (``--dask``): the same counts as the DuckDB lookup.

The store and the target are both split by the fingerprint's leading ``prefix_bits`` bits, so a
partition holds one contiguous range of fingerprint values. Each side becomes a Dask dataframe
indexed by fingerprint with one partition per store partition and those ranges as its
*divisions*; the two are then joined on the index, which Dask carries out partition by partition
(equal divisions: no shuffle, the target's slice of partition p meets only partition p's files,
on whichever worker reads them). Per partition the joined rows are made distinct (a fingerprint
lives in one partition, so this is exact), each fingerprint's number of projects *n* counted
(:func:`lineage.store.scan.project_ids`) and fingerprints held by more than
``common_max_projects`` projects dropped, and each held fingerprint marked version-only when no
other release of its project holds it; a Dask groupby then sums the (release, n) counts and
version-only counts over partitions. Counts are integers, so the result does not depend on
the order the workers finish in: ``scan.rank`` gets the same dict as from the in-process lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from lineage.store.dataset import Store
from lineage.store.scan import Lookup

_FP_TOP = (1 << 63) - 1  # fingerprints are 63-bit: the last division (inclusive)


def divisions(prefix_bits: int) -> tuple[int, ...]:
    """The lowest fingerprint of each partition, then the highest fingerprint there is."""
    step = 1 << (63 - prefix_bits)
    return (*(p * step for p in range(1 << prefix_bits)), _FP_TOP)


def _store_part(files: Sequence[str]) -> pd.DataFrame:
    """One store partition's (fp, rid) rows, indexed by fp (empty if it has no files)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from lineage.store.dataset import _FP_SCHEMA

    tables = [pq.read_table(f, schema=_FP_SCHEMA) for f in files]
    table = pa.concat_tables(tables) if tables else _FP_SCHEMA.empty_table()
    return table.to_pandas().set_index("fp")


def _target_part(fps: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame(index=pd.Index(np.asarray(fps, np.int64), name="fp"))


def _held_counts(joined: pd.DataFrame, max_projects: int, owners: pd.Series) -> pd.DataFrame:
    """(rid, n, c, u) of one partition's joined rows: distinct pairs of a release ``owners``
    knows (release id -> project number), n projects per fingerprint, idioms dropped; u of the c
    held by no other release of the project."""
    pairs = joined.reset_index()[["fp", "rid"]].drop_duplicates()
    pairs = pairs[pairs["rid"].isin(owners.index)]
    pairs["pid"] = pairs["rid"].map(owners)
    pairs["n"] = pairs.groupby("fp")["pid"].transform("nunique").astype(np.int64)
    pairs = pairs[pairs["n"] <= max_projects]
    pairs["u"] = (pairs.groupby(["fp", "pid"])["rid"].transform("size") == 1).astype(np.int64)
    out = pairs.groupby(["rid", "n"]).agg(c=("u", "size"), u=("u", "sum")).reset_index()
    return out.astype({"rid": np.int64, "n": np.int64, "c": np.int64, "u": np.int64})


def lookup_dataframe(store: Store, files: dict[str, list[str]], fps: np.ndarray, owners: dict[int, int],
                     client: Any) -> Lookup:
    """The scan's :class:`~lineage.store.scan.Lookup`, computed on ``client``'s cluster as a
    dataframe join."""
    import dask.dataframe as dd

    names = store.partitions
    fps = np.unique(np.asarray(fps, np.int64))
    prefixes = store.prefix_of(fps)
    divs = divisions(store.params.prefix_bits)
    meta_store = _store_part([])
    meta_target = _target_part(np.empty(0, np.int64))
    left = dd.from_map(_store_part, [files.get(name, []) for name in names], divisions=divs, meta=meta_store,
                       enforce_metadata=False)
    right = dd.from_map(_target_part, [fps[prefixes == p] for p in range(len(names))], divisions=divs,
                        meta=meta_target, enforce_metadata=False)
    joined = left.merge(right, left_index=True, right_index=True, how="inner")
    limit = store.params.common_max_projects
    by_rid = pd.Series(list(owners.values()), index=pd.Index(list(owners), dtype=np.int64), dtype=np.int64)
    meta_counts = pd.DataFrame({"rid": pd.Series(dtype=np.int64), "n": pd.Series(dtype=np.int64),
                                "c": pd.Series(dtype=np.int64), "u": pd.Series(dtype=np.int64)})
    held = joined.map_partitions(_held_counts, limit, by_rid, meta=meta_counts)
    # split_out=1: a tree reduction of the small per-partition tables, not a shuffle (Dask would
    # otherwise shuffle a groupby on two columns).
    totals = held.groupby(["rid", "n"])[["c", "u"]].sum(split_out=1)
    result = client.compute(totals, sync=True)
    return Lookup.of_rows([(int(rid), int(n), int(row.c), int(row.u))
                           for (rid, n), row in sorted(result.iterrows(), key=lambda kv: kv[0])])
