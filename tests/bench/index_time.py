"""Indexing time of one unpacked tree in one process: the per-file work of the index stage.

    .venv/bin/python tests/bench/index_time.py DIR [--repeat 3]

Reads every ``*.py`` file under ``DIR`` first, then times ``lineage.index.parse.Indexer.index``
over them (no cache, no workers) with ``time.perf_counter`` and prints the time per repeat and the
markers found. To compare two commits, run it with each checkout on ``PYTHONPATH`` in turn,
alternating (the machine's spread between runs is a few per cent).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from lineage.index.parse import Indexer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = [(str(p.relative_to(args.dir)), p.read_bytes()) for p in sorted(args.dir.rglob("*.py"))]
    for _ in range(args.repeat):
        indexer = Indexer()
        started = time.perf_counter()
        markers = sum(len(indexer.index(path, data, "t:" + path).markers) for path, data in files)
        print(f"{time.perf_counter() - started:.2f} s, {len(files)} files, {markers} markers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
