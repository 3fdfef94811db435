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

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

# Exported names and their modules, imported on first use: the CLI imports lineage.store.commands
# to build its parser, which must not pull in pyarrow, DuckDB or Dask (``lineage --help``).
_EXPORTS = {
    "AddOutcome": "add", "add_releases": "add", "read_spec_list": "add",
    "Release": "dataset", "Store": "dataset",
    "StoreParams": "params", "store_params_from_settings": "params",
    "Candidate": "scan", "ScanResult": "scan", "scan": "scan",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"lineage.store.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'lineage.store' has no attribute {name!r}")


class _Package(types.ModuleType):
    """Importing the submodule ``scan`` binds it on this package; keep the exported function
    ``scan`` there instead, as the eager ``from lineage.store.scan import scan`` used to."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType) and hasattr(value, name):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
