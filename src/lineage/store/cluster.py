"""Where the store's work runs: in this process, or on a Dask distributed cluster.

``--dask ADDRESS`` (or ``$LINEAGE_DASK``) names a running scheduler (``tcp://host:8786``);
``local`` starts a :class:`distributed.LocalCluster` with one single-threaded worker process per
core. Workers must see the store folder and the cache folder at the same paths (one machine, or
a shared file system). Without an address everything runs here, in process: the results are
the same, byte for byte.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from lineage.errors import LineageError
from lineage.settings import default_jobs

DASK_ENV = "LINEAGE_DASK"


def dask_address(given: str | None) -> str:
    """The scheduler address to use: the option, else the environment, else "" (in process)."""
    return (given if given is not None else os.environ.get(DASK_ENV, "")).strip()


@contextlib.contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A connected :class:`distributed.Client` for ``address`` (None when it is "")."""
    if not address:
        yield None
        return
    from distributed import Client, LocalCluster

    if address == "local":
        with LocalCluster(n_workers=default_jobs(), threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise LineageError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
    with client:
        yield client
