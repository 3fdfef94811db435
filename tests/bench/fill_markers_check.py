#!/usr/bin/env python3
"""Two checks of round speed2 on the pinned pair (index cache warm; no match cache used).

    PYTHONPATH=src .venv/bin/python tests/bench/fill_markers_check.py [corpora/sglang-vllm.json]

1. The fill (step 6): wall time of each rule (Python timers around the functions of
   ``lineage.match.fill``) in one ``compare_trees`` without the match cache, and a sha256 over the
   lines, regions and files tables (the same digest before and after a change = the same labels).
2. The marker pre-filter: on every Python file of both releases, the markers read in windows
   (``find_file_markers``, what the index stores) against the markers of the whole file
   (``find_markers``), and the time of each.

Not a test module (no ``test_`` prefix); importing it runs nothing.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _specs(manifest: Path) -> list[str]:
    m = json.loads(manifest.read_text(encoding="utf-8"))
    return [f"pypi:{r['name']}=={r['version']}#sha256={r['sha256']}" for r in [m["target"], *m["upstreams"]]]


def _timed(module: Any, name: str, acc: collections.Counter[str]) -> None:
    real: Callable[..., Any] = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            acc[name] += time.perf_counter() - started

    setattr(module, name, wrapper)


def main(argv: list[str]) -> int:
    import lineage.match.fill as fill
    import lineage.match.fill_inside as fill_inside
    from lineage.api import compare_trees
    from lineage.index import KIND_NAMES
    from lineage.index.store import IndexCache
    from lineage.index.tree import index_tree
    from lineage.markers import find_file_markers, find_markers
    from lineage.match import MatchParams
    from lineage.settings import RunSettings
    from lineage.sources import open_source

    specs = _specs(Path(argv[0] if argv else "corpora/sglang-vllm.json"))
    settings = RunSettings()
    acc: collections.Counter[str] = collections.Counter()
    # each rule where its caller looks it up (the driver calls the rules through fill's names)
    for module, name in ((fill, "fill"), (fill, "align_inside"), (fill_inside, "_edited_lines"),
                         (fill, "lone_survivors"), (fill, "imports_in_any_order")):
        _timed(module, name, acc)
    with contextlib.ExitStack() as stack:
        sources = [stack.enter_context(open_source(spec, settings.cache_root)) for spec in specs]
        trees = [index_tree(s, IndexCache(settings.store_root), settings.jobs, settings.max_file_bytes)
                 for s in sources]
    comparison = compare_trees(trees[0], trees[1:], MatchParams(), cache_root=None)
    digest = hashlib.sha256()
    for table in (comparison.lines, comparison.regions, comparison.files):
        digest.update(table.to_csv(index=False).encode())
    print("stages s:", {k: round(v, 2) for k, v in comparison.timings.items()})
    print("fill rules s:", {k: round(v, 2) for k, v in sorted(acc.items())})
    print("tables sha256:", digest.hexdigest())
    files = markers = 0
    differ: list[str] = []
    windows_s = whole_s = 0.0
    for tree in trees:
        for f in tree.files:
            lines = tree.lines(f.path)
            kinds = [KIND_NAMES[k] for k in f.kinds.tolist()]
            started = time.perf_counter()
            read = find_file_markers(lines, kinds)
            windows_s += time.perf_counter() - started
            started = time.perf_counter()
            whole = find_markers(lines, kinds)
            whole_s += time.perf_counter() - started
            files, markers = files + 1, markers + len(read)
            if read != whole:
                differ.append(f"{tree.info.label}:{f.path} ({len(read)} in windows, {len(whole)} whole)")
    print(f"markers: {files} files, {markers} markers read in windows, {len(differ)} files where the whole "
          f"file gives others; windows {windows_s:.2f} s, whole files {whole_s:.2f} s")
    for line in differ:
        print("  differs:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
