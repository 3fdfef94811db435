"""CPU seconds of a cold match stage on a corpus's pinned pair, as a cold run makes it.

    .venv/bin/python tests/bench/cold_match.py [--corpus corpora/sglang-vllm.json] [--cache-dir DIR]

Both trees are indexed first from the index cache (run the main job once before), and every
file's bytes are read, as a cold run holds them after indexing; then, timed,
:func:`lineage.api.compare_trees` runs in this process with no match, side or table cache
(``cache_root`` None: every target file is matched, the upstream side built). It prints one JSON
line: CPU seconds of the whole call and of its parts (``steps1-3``: the hits, runs and chains
of :meth:`lineage.file_labels.FileLabels.prepare`; ``steps4-9``: the per-file steps of
:meth:`lineage.match.FileMatcher.match_files`; ``gate``; ``match`` their sum, the manifest's
match stage; ``tables``: the rest), and digests of every file's labels and of the tables, equal
for two checkouts that give the same figures. For an A/B, run it under each checkout's
``PYTHONPATH=CHECKOUT/src``; on a shared machine run A and B side by side, so both see the same
load, and compare per pair (*Round speed25*). A script, not a test: pytest never collects it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import lineage.api as api
import lineage.file_labels as file_labels
from lineage.index import IndexCache, index_tree
from lineage.match import FileMatcher, MatchParams
from lineage.settings import RunSettings
from lineage.sources import open_source
from lineage.sources.corpus import corpus_specs

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "sglang-vllm.json"


def _timed(owner: Any, name: str, seconds: dict[str, float], key: str,
           after: Callable[[Any], None] | None = None) -> None:
    """Wrap ``owner.name`` to add its CPU seconds to ``seconds[key]`` (``after`` sees its result)."""
    wrapped = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            out = wrapped(*args, **kwargs)
        finally:
            seconds[key] = seconds.get(key, 0.0) + time.process_time() - started
        if after is not None:
            after(out)
        return out

    setattr(owner, name, timed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS), help="corpus manifest of the pinned pair")
    parser.add_argument("--cache-dir", help="the cache holding the index entries (default: the user's)")
    parser.add_argument("--profile", help="also write a cProfile of the timed call to this file")
    args = parser.parse_args(argv)
    settings = RunSettings(cache_dir=Path(args.cache_dir) if args.cache_dir else None, jobs=1)
    cache = IndexCache(settings.store_root, settings.index_packs, settings.index_pack_rewrite_after)
    target_spec, upstream_specs = corpus_specs(Path(args.corpus))
    with open_source(target_spec, settings.cache_root) as t_source, \
            open_source(upstream_specs[0], settings.cache_root) as u_source:
        up_tree = index_tree(u_source, cache, 1, settings.max_file_bytes, None)
        t_tree = index_tree(t_source, cache, 1, settings.max_file_bytes, None)
        for tree in (up_tree, t_tree):  # a cold run holds every file's bytes from indexing
            for f in tree.files:
                tree.data[f.path]
    seconds: dict[str, float] = {}
    labels = hashlib.sha256()

    def digest(entries: list) -> None:
        for entry in entries:
            m = entry.match
            for array in (m.match, m.up_file, m.up_row, m.similarity, m.region):
                labels.update(np.ascontiguousarray(array).tobytes())
            labels.update(repr((entry.regions, entry.vote, entry.renamed)).encode())

    _timed(file_labels.FileLabels, "prepare", seconds, "steps1-3")
    _timed(FileMatcher, "match_files", seconds, "steps4-9")
    _timed(api, "_gate", seconds, "gate")
    _timed(file_labels.FileLabels, "labels_of", seconds, "labels_of", digest)
    profile = None
    if args.profile:
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    started = time.process_time()
    comparison = api.compare_trees(t_tree, [up_tree], MatchParams(), cache_root=None, workers=None)
    cpu = time.process_time() - started
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    tables = hashlib.sha256()
    for name in ("files", "lines", "functions", "regions"):
        frame = getattr(comparison, name)
        frame = comparison.lines_table if frame is None else frame
        tables.update(name.encode() + repr(list(frame.columns)).encode())
        tables.update(pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes())
    match = seconds.get("steps1-3", 0.0) + seconds.get("steps4-9", 0.0) + seconds.get("gate", 0.0)
    print(json.dumps({"cpu": round(cpu, 3), "match": round(match, 3), "tables": round(cpu - match, 3),
                      **{k: round(seconds.get(k, 0.0), 3) for k in ("steps1-3", "steps4-9", "gate")},
                      "labels": labels.hexdigest()[:16], "tables_digest": tables.hexdigest()[:16]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
