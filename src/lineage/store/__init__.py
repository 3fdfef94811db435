"""A fingerprint store of many releases, and the scan that nominates a target's upstreams.

``lineage store add`` indexes releases (through the index cache) and keeps, per release, the
line forms the matcher would seed with, as partitioned Parquet files; ``lineage scan`` looks a
target's forms up in them with DuckDB, ranks the releases by distinctive shared lines and runs
the normal compare against the best few. Either runs in process or on a Dask cluster, with the
same bytes out. One module per job:

- :mod:`~lineage.store.params`: :class:`StoreParams`, every threshold of the store and scan.
- :mod:`~lineage.store.fingerprints`: which lines of a tree are fingerprints (the matcher's rules).
- :mod:`~lineage.store.dataset`: the folder layout, the releases table, the partition files.
- :mod:`~lineage.store.add`: adding releases, idempotent by digest.
- :mod:`~lineage.store.scan`: lookup, ranking, ``candidates.csv`` and the compare.
- :mod:`~lineage.store.cluster`: in process or on Dask (``--dask``, ``$LINEAGE_DASK``).
"""

from lineage.store.add import AddOutcome, add_releases, read_spec_list
from lineage.store.dataset import Release, Store
from lineage.store.params import StoreParams, store_params_from_settings
from lineage.store.scan import Candidate, ScanResult, scan

__all__ = ["AddOutcome", "Candidate", "Release", "ScanResult", "Store", "StoreParams", "add_releases",
           "read_spec_list", "scan", "store_params_from_settings"]
