"""Do the compiled and the Python per-line passes give identical index records on real sources?

    .venv/bin/python tests/bench/check_indexers.py corpora/sglang-vllm.json
    .venv/bin/python tests/bench/check_indexers.py pypi:requests==2.32.3 path/to/tree

Arguments are lineage source specs or a corpus manifest (both of its pinned releases). Prints one
line per source and exits 1 on any difference (kinds, both hashes, token counts), 0 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from lineage.index import Indexer, is_python_path
from lineage.sources import blob_digest, default_cache_dir, open_source
from lineage.sources.corpus import corpus_specs

FIELDS = ("kinds", "h_norm", "h_abs", "ntok")


def check(spec: str) -> tuple[int, int, float, float]:
    fast, slow = Indexer(compiled=True), Indexer(compiled=False)
    files = differ = 0
    t_fast = t_slow = 0.0
    with open_source(spec, default_cache_dir()) as source:
        paths = [p for p in source.paths() if is_python_path(p)]
        for path, data in source.read_many(paths):
            digest = blob_digest(data)
            started = time.perf_counter()
            a = fast.index(path, data, digest)
            t_fast += time.perf_counter() - started
            started = time.perf_counter()
            b = slow.index(path, data, digest)
            t_slow += time.perf_counter() - started
            files += 1
            if a.status != b.status or any(not np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS):
                differ += 1
                print(f"  differs: {path}", file=sys.stderr)
    return files, differ, t_fast, t_slow


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args()
    specs: list[str] = []
    for item in args.sources:
        if item.endswith(".json") and Path(item).is_file():
            target, upstreams = corpus_specs(Path(item))
            specs += [target, *upstreams]
        else:
            specs.append(item)
    failed = 0
    for spec in specs:
        files, differ, t_fast, t_slow = check(spec)
        failed += differ
        print(f"{spec}: {files} files, {differ} differ; compiled {t_fast:.1f} s, python {t_slow:.1f} s (1 process)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
