#!/usr/bin/env python3
"""Benchmark the fingerprint store (lineage.store): build, re-add, scan, in process and on Dask.

    .venv/bin/python tests/bench/store_bench.py                        # corpora/store-releases.json
    .venv/bin/python tests/bench/store_bench.py --dask --out out/store-bench
    .venv/bin/python tests/bench/store_bench.py --small                # 5 releases, pip only

What it measures (Python timers; peak RSS of this process and its children from getrusage):

1. build: ``store add`` of every release of the manifest into a new store, in process, with an
   empty index cache (the cache's ``downloads`` folder is linked to the user cache's, so a
   release already downloaded is not fetched again); per release: index + fingerprint time,
   fingerprints and bytes on disk;
2. re-add: the same releases again (every one must be skipped as present);
3. scan: each ``scans`` target of the manifest, rank only (``--top 0``): its indexing (index
   cache warm for the target when it was indexed before) and the lookup and ranking apart;
4. with ``--simulate N,M``: stores of N (M, ...) releases, the real ones plus synthetic ones whose
   fingerprint counts are drawn (seeded) from the real releases' counts and whose fingerprints are
   random 63-bit values (they share nothing with a target: this measures reading and joining, not
   ranking); size on disk and the first scan target's lookup, in the store's layout (one file per
   release and partition) and compacted (one file per partition);
5. with ``--dask``: the store built again on a ``LocalCluster`` of 2 single-threaded worker
   processes (index cache warm: this measures the distribution, not the parse) and each scan's
   lookup on it; the store files and the candidates must be byte-identical to the in-process ones.

Results go to ``OUT/store_bench.json`` and ``OUT/store_bench.md`` (also printed). Exit status 0
when everything ran and agreed, 1 otherwise. Not a test module (pytest does not collect it).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import resource
import shutil
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DEFAULT_MANIFEST = REPO / "corpora" / "store-releases.json"
DEFAULT_OUT = REPO / "out" / "store-bench"


def _spec(entry: dict[str, str]) -> str:
    return f"pypi:{entry['name']}=={entry['version']}#sha256={entry['sha256']}"


def _peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def _files_digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != "store.json"}


def _fresh(path: Path) -> Path:
    if path.exists():
        if not (path / "store.json").is_file():
            raise SystemExit(f"store_bench: {path} exists and is not a store; refusing to delete it")
        shutil.rmtree(path)
    return path


def _build(store_dir: Path, specs: list[str], cache: Path, client: Any = None) -> dict[str, Any]:
    from lineage.settings import RunSettings
    from lineage.store import Store, add_releases

    store = Store.open(store_dir, create=True)
    marks: list[tuple[str, float, str, str]] = []
    started = time.perf_counter()
    outcomes = add_releases(store, specs, client=client, settings=RunSettings(cache_dir=cache),
                            progress=lambda o: marks.append((o.spec, time.perf_counter(), o.status, o.detail)))
    wall = time.perf_counter() - started
    per = []
    last = started
    for spec, at, status, detail in marks:
        per.append({"spec": spec, "seconds": round(at - last, 3), "status": status, "detail": detail})
        last = at
    info = store.info()
    return {"wall_s": round(wall, 2), "outcomes": [o.status for o in outcomes], "per_release": per,
            "info": info}


def _sharing(store_dir: Path) -> dict[str, Any]:
    """How many releases hold each stored fingerprint: distinct fingerprints, rows, and the rows
    whose fingerprint more than ``common_max_projects`` releases hold (counted by release here: at
    most the fingerprints a scan drops, which counts each project once)."""
    import duckdb

    from lineage.store import Store

    store = Store.open(store_dir)
    files = [f for fs in store.partition_files(store.releases()).values() for f in fs]
    limit = store.params.common_max_projects
    with duckdb.connect() as con:
        rows = con.execute(
            """SELECT n, count(*) AS fps FROM (SELECT fp, count(DISTINCT rid) AS n FROM read_parquet($files)
               GROUP BY fp) GROUP BY n ORDER BY n""", {"files": files}).fetchall()
    by_n = {int(n): int(k) for n, k in rows}
    total_rows = sum(n * k for n, k in by_n.items())
    bands = {"1": by_n.get(1, 0), "2": by_n.get(2, 0), "3-8": sum(k for n, k in by_n.items() if 3 <= n <= 8),
             "9-32": sum(k for n, k in by_n.items() if 9 <= n <= limit),
             f">{limit}": sum(k for n, k in by_n.items() if n > limit)}
    return {"distinct_fingerprints": sum(by_n.values()), "rows": total_rows, "fingerprints_by_holders": bands,
            "rows_of_idioms": sum(n * k for n, k in by_n.items() if n > limit), "max_holders": max(by_n or [0])}


def _scan(store_dir: Path, spec: str, cache: Path, client: Any = None) -> dict[str, Any]:
    from lineage.index import IndexCache, index_tree
    from lineage.sources import open_source
    from lineage.store import Store
    from lineage.store.fingerprints import tree_fingerprints
    from lineage.store.scan import candidates_csv, lookup, rank

    store = Store.open(store_dir)
    releases = store.releases()
    t0 = time.perf_counter()
    with open_source(spec, cache) as source:
        tree = index_tree(source, IndexCache(cache))
    fps = tree_fingerprints(tree, store.match_rules, release=False)
    t1 = time.perf_counter()
    candidates = rank(releases, lookup(store, releases, fps, client), store.params)
    t2 = time.perf_counter()
    data = candidates_csv(candidates)
    return {"target": spec, "target_files": len(tree.files), "target_fingerprints": int(len(fps)),
            "index_s": round(t1 - t0, 2), "lookup_rank_s": round(t2 - t1, 3), "ranked": len(candidates),
            "top": [{"rank": c.rank, "release": c.release.split("#")[0], "score": c.score,
                     "distinct_lines": c.distinct_lines} for c in candidates[:40]],
            "candidates_sha256": hashlib.sha256(data).hexdigest()}


def _simulate(real: Path, out: Path, total: int, target: str, cache: Path) -> dict[str, Any]:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from lineage.index import IndexCache, index_tree
    from lineage.sources import open_source
    from lineage.store import Store
    from lineage.store.dataset import Release, release_id
    from lineage.store.fingerprints import tree_fingerprints
    from lineage.store.scan import lookup_partition, project_ids

    src = Store.open(real)
    releases = src.releases()
    store = Store.open(_fresh(out), create=True)
    shutil.copytree(real / "fingerprints", out / "fingerprints")
    rng = np.random.default_rng(2026)
    counts = [r.fingerprints for r in releases]
    added = list(releases)
    t0 = time.perf_counter()
    for k in range(max(0, total - len(releases))):
        digest = "sha256:" + hashlib.sha256(f"synthetic-{k}".encode()).hexdigest()
        fps = np.unique(rng.integers(0, 2**63 - 1, int(rng.choice(counts)), dtype=np.int64))
        store.write_fingerprints(digest, fps)
        added.append(Release(release_id(digest), digest, f"synthetic:{k}", f"synthetic-{k}", "", "", 0, 0, len(fps)))
    store.write_releases(added)
    build_s = time.perf_counter() - t0
    with open_source(target, cache) as source:
        fps = tree_fingerprints(index_tree(source, IndexCache(cache)), store.match_rules, release=False)
    files = store.partition_files(store.releases())
    prefixes = store.prefix_of(fps)
    names = store.partitions
    limit = store.params.common_max_projects
    owners = project_ids(store.releases())

    def run(file_sets: dict[str, list[str]]) -> tuple[float, int]:
        import duckdb

        t = time.perf_counter()
        hits = 0
        with duckdb.connect() as con:
            for p, name in enumerate(names):
                if name in file_sets:
                    hits += sum(c for _, _, c, _ in lookup_partition(file_sets[name], fps[prefixes == p], limit, owners,
                                                                    con))
        return time.perf_counter() - t, hits

    split_s, split_hits = run(files)
    compact: dict[str, list[str]] = {}
    for name, paths in files.items():
        merged = pa.concat_tables([pq.read_table(p) for p in paths]).sort_by("fp")
        target_file = out / "compact" / f"{name}.parquet"
        target_file.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(merged, target_file, compression="zstd", row_group_size=1 << 20)
        compact[name] = [str(target_file)]
    compact_s, compact_hits = run(compact)
    info = store.info()
    shutil.rmtree(out)
    return {"releases": total, "fingerprints": int(info["fingerprints"]), "bytes": int(info["bytes"]),
            "files": int(info["fingerprint_files"]), "synthetic_write_s": round(build_s, 1),
            "lookup_s": round(split_s, 2), "lookup_compact_s": round(compact_s, 2),
            "same_hits": split_hits == compact_hits, "target": target.split("#")[0]}


def _markdown(fig: dict[str, Any]) -> str:
    b = fig["build"]
    info = b["info"]
    n = max(1, int(info["releases"]))
    out = [f"# Store benchmark, {fig['when']}", "",
           f"lineage {fig['lineage']}, {fig['cpus']} cores, Python {fig['python']}; manifest "
           f"`{fig['manifest']}`.", "",
           "| what | figure |", "|---|---:|",
           f"| releases in the store | {info['releases']} |",
           f"| Python files indexed | {int(info['python_files']):,} |",
           f"| fingerprints | {int(info['fingerprints']):,} |",
           f"| store on disk | {int(info['bytes']) / 1e6:.2f} MB ({int(info['bytes']) / n / 1e3:.1f} kB per release, "
           f"{int(info['bytes']) / max(1, int(info['fingerprints'])):.2f} B per fingerprint) |",
           f"| build, cold index cache, in process | {b['wall_s']:.1f} s ({b['wall_s'] / n:.2f} s per release) |",
           f"| re-add of the same releases (all present) | {fig['readd']['wall_s']:.1f} s |"]
    if "dask_build" in fig:
        d = fig["dask_build"]
        out.append(f"| build on Dask, 2 worker processes, warm index cache | {d['wall_s']:.1f} s; store files "
                   f"identical: {'yes' if fig['dask_identical'] else 'NO'} |")
    out.append(f"| peak RSS (this process or a child) | {fig['peak_rss_mb']:.0f} MB |")
    if "sharing" in fig:
        h = fig["sharing"]
        bands = ", ".join(f"{k}: {v:,}" for k, v in h["fingerprints_by_holders"].items())
        out.append(f"| distinct fingerprints / rows | {h['distinct_fingerprints']:,} / {h['rows']:,}; by releases "
                   f"holding them: {bands}; rows of idioms {h['rows_of_idioms']:,}; most held {h['max_holders']} |")
    for s in fig["scans"]:
        line = (f"| scan {s['target'].split('#')[0]}: {s['target_files']:,} files, "
                f"{s['target_fingerprints']:,} fingerprints | index {s['index_s']:.1f} s, lookup and rank "
                f"{s['lookup_rank_s']:.2f} s, {s['ranked']} ranked")
        if "dask_lookup_rank_s" in s:
            line += (f"; on Dask {s['dask_lookup_rank_s']:.2f} s, candidates identical: "
                     f"{'yes' if s['dask_identical'] else 'NO'}")
        out.append(line + " |")
    for s in fig["scans"]:
        out += ["", f"Top candidates for {s['target'].split('#')[0]}:", "",
                "| rank | release | score | distinct lines |", "|---:|---|---:|---:|"]
        out += [f"| {c['rank']} | {c['release']} | {c['score']:.1f} | {c['distinct_lines']:,} |" for c in s["top"]]
    if fig.get("simulated"):
        out += ["", "Simulated stores (real releases plus synthetic ones, see the docstring):", "",
                "| releases | fingerprints | on disk MB | files | lookup s (per release files) | "
                "lookup s (compacted) | target |", "|---:|---:|---:|---:|---:|---:|---|"]
        out += [f"| {m['releases']:,} | {m['fingerprints']:,} | {m['bytes'] / 1e6:.0f} | {m['files']:,} | "
                f"{m['lookup_s']:.2f} | {m['lookup_compact_s']:.2f} | {m['target']} |" for m in fig["simulated"]]
    out += ["", "Slowest releases to add (index + fingerprints):", "", "| release | s | detail |", "|---|---:|---|"]
    slow = sorted(b["per_release"], key=lambda r: -r["seconds"])[:5]
    out += [f"| {r['spec'].split('#')[0]} | {r['seconds']:.1f} | {r['detail']} |" for r in slow]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--dask", action="store_true", help="also build and scan on a 2-worker LocalCluster")
    parser.add_argument("--small", action="store_true", help="the first 5 releases and the first scan only")
    parser.add_argument("--simulate", default="", metavar="N,M", help="also simulated stores of N, M releases")
    parser.add_argument("--simulate-target", type=int, default=-1, metavar="I",
                        help="which scan target the simulation looks up (default: the last)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "src"))
    from lineage import __version__
    from lineage.settings import default_cache_dir, default_jobs

    manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
    specs = [_spec(e) for e in manifest["releases"]]
    scans = [_spec(e) for e in manifest["scans"]]
    if args.small:
        specs, scans = specs[:5], scans[:1]
    args.out.mkdir(parents=True, exist_ok=True)
    # An empty index cache that shares the user cache's downloads (no network for cached releases).
    cache = args.out / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir()
    user_downloads = default_cache_dir() / "downloads"
    user_downloads.mkdir(parents=True, exist_ok=True)
    os.symlink(user_downloads.resolve(), cache / "downloads")

    fig: dict[str, Any] = {
        "when": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"), "lineage": __version__,
        "cpus": default_jobs(), "python": platform.python_version(),
        "manifest": str(args.manifest.relative_to(REPO) if args.manifest.is_relative_to(REPO) else args.manifest)}
    fig["build"] = _build(_fresh(args.out / "store"), specs, cache)
    fig["readd"] = _build(args.out / "store", specs, cache)
    ok = all(s == "added" for s in fig["build"]["outcomes"]) and all(s == "present" for s in fig["readd"]["outcomes"])
    fig["sharing"] = _sharing(args.out / "store")
    fig["scans"] = [_scan(args.out / "store", spec, cache) for spec in scans]
    if args.dask:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            fig["dask_build"] = _build(_fresh(args.out / "store-dask"), specs, cache, client)
            fig["dask_identical"] = _files_digest(args.out / "store") == _files_digest(args.out / "store-dask")
            ok &= fig["dask_identical"]
            for s in fig["scans"]:
                d = _scan(args.out / "store", s["target"], cache, client)
                s["dask_lookup_rank_s"] = d["lookup_rank_s"]
                s["dask_identical"] = d["candidates_sha256"] == s["candidates_sha256"]
                ok &= s["dask_identical"]
    sizes = [int(x) for x in args.simulate.split(",") if x.strip()]
    fig["simulated"] = [_simulate(args.out / "store", args.out / "store-sim", n, scans[args.simulate_target], cache)
                        for n in sizes]
    ok &= all(m["same_hits"] for m in fig["simulated"])
    fig["peak_rss_mb"] = round(_peak_rss_mb(), 1)
    (args.out / "store_bench.json").write_text(json.dumps(fig, indent=2) + "\n", encoding="utf-8")
    text = _markdown(fig)
    (args.out / "store_bench.md").write_text(text, encoding="utf-8")
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
