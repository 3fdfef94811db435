#!/usr/bin/env python3
"""Which of a scan target's lines a stored release shares: to judge whether a nominated upstream is real.

    .venv/bin/python tests/bench/store_shared.py --store STORE TARGET --ranks 2-12 [--lines 6]

For each candidate of the ranks asked (ranked as ``lineage scan`` ranks them), prints how many of
the shared fingerprints are held by 1, 2, 3-8 and 9-32 projects, the target files with most of
them, and a few shared target lines, the most specific first (fewest releases holding them, then
the longest). Reads the store and the index cache; writes nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("target")
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--ranks", default="1-10", help="FIRST-LAST")
    parser.add_argument("--lines", type=int, default=6, help="example lines per candidate")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "src"))
    import pyarrow.parquet as pq

    from lineage.index import IndexCache, index_tree
    from lineage.settings import default_cache_dir
    from lineage.sources import open_source
    from lineage.store import Store
    from lineage.store.fingerprints import tree_fingerprints
    from lineage.store.scan import lookup, project_ids, rank

    t0 = time.perf_counter()
    store = Store.open(args.store)
    releases = store.releases()
    cache = default_cache_dir()
    with open_source(args.target, cache) as source:
        tree = index_tree(source, IndexCache(cache))
        fps = tree_fingerprints(tree, store.match_rules, release=False)
        candidates = rank(releases, lookup(store, releases, fps), store.params)
        # Every target line's fingerprint (first place of each), to show the lines behind a hash.
        where: dict[int, tuple[str, int, str]] = {}
        for f in tree.files:
            text = tree.lines(f.path)
            for row, h in enumerate(f.h_norm.astype(np.int64).tolist()):
                if h and h not in where:
                    where[h] = (f.path, row + 1, text[row].strip() if row < len(text) else "")
    print(f"target indexed and ranked: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    pairs: set[tuple[int, int]] = set()  # distinct (fingerprint, release), as the lookup counts them
    for files in store.partition_files(releases).values():
        for path in files:
            table = pq.read_table(path)
            fp, rid = table["fp"].to_numpy(), table["rid"].to_numpy()
            at = np.minimum(np.searchsorted(fps, fp), len(fps) - 1)  # fps is sorted
            keep = fps[at] == fp
            pairs.update(zip(fp[keep].tolist(), rid[keep].tolist(), strict=True))
    print(f"store read: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    owners = project_ids(releases)  # holders are counted by project, as the scan counts them
    held: Counter[int] = Counter(f for f, _ in {(f, owners[r]) for f, r in pairs if r in owners})
    by_rid: dict[int, set[int]] = {}
    for f, r in pairs:
        by_rid.setdefault(r, set()).add(f)
    first, last = (int(x) for x in args.ranks.split("-"))
    by_spec = {r.spec: r for r in releases}
    limit = store.params.common_max_projects
    for c in candidates[first - 1:last]:
        shared = [fp for fp in by_rid.get(by_spec[c.release].rid, ()) if held[fp] <= limit]
        bands = Counter("1" if held[fp] == 1 else "2" if held[fp] == 2 else "3-8" if held[fp] <= 8 else "9-32"
                        for fp in shared)
        top_files = Counter(where[fp][0] for fp in shared if fp in where).most_common(3)
        print(f"\n#{c.rank} {c.release.split('#')[0]}  score {c.score:.1f}, {c.distinct_lines} lines; "
              f"held by 1: {bands['1']}, 2: {bands['2']}, 3-8: {bands['3-8']}, 9-32: {bands['9-32']}")
        print("   files: " + ", ".join(f"{p} ({k})" for p, k in top_files))
        # The most specific first: fewest releases holding them, then the longest line.
        examples = sorted((held[fp], -len(where[fp][2]), *where[fp]) for fp in shared if fp in where)
        for n, _, path, line, text in examples[: args.lines]:
            print(f"   n={n:<2} {path}:{line}: {text[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
