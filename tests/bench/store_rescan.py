#!/usr/bin/env python3
"""Time a scan's lookup and rank again on a store ``store_bench.py`` built: in process, then twice on Dask.

    .venv/bin/python tests/bench/store_rescan.py --out /work/tmp/store200/bench \\
        [--manifest corpora/store-releases-200.json] [--target I]

Reads OUT/store and OUT/cache (left by store_bench.py), scans the manifest's scan target I
(default: the last) with ``store_bench._scan``: once in process (DuckDB), then twice on a
``LocalCluster`` of 2 single-threaded worker processes (the Dask dataframe join; the first call
on a fresh cluster also pays the workers' imports). Prints one JSON line; exit 1 when the
candidates differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, required=True, help="the store_bench.py --out folder")
    parser.add_argument("--manifest", type=Path, default=HERE.parents[1] / "corpora" / "store-releases-200.json")
    parser.add_argument("--target", type=int, default=-1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import store_bench as bench
    from distributed import Client, LocalCluster

    spec = bench._spec(json.loads(args.manifest.read_text(encoding="utf-8"))["scans"][args.target])
    store, cache = args.out / "store", args.out / "cache"
    here = bench._scan(store, spec, cache)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        runs = [bench._scan(store, spec, cache, client) for _ in range(2)]
    same = all(r["candidates_sha256"] == here["candidates_sha256"] for r in runs)
    print(json.dumps({"target": spec.split("#")[0], "in_process_s": here["lookup_rank_s"],
                      "dask_first_s": runs[0]["lookup_rank_s"], "dask_second_s": runs[1]["lookup_rank_s"],
                      "ranked": here["ranked"], "identical": same}))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
