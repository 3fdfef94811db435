"""Time the matcher alone (steps 1 to 8, one process) on a corpus's pinned pair.

    .venv/bin/python tests/bench/match_stage.py [--corpus corpora/sglang-vllm.json] [--repeat N]

The trees are indexed first (from the index cache when it holds them: run the main job once
before), outside the timing; then :func:`lineage.match.match_sides` labels every target file
against the primary upstream with the default :class:`lineage.match.MatchParams`, with no match
cache and no worker process. It prints, per repeat, the seconds and CPU seconds of that call and
the number of paired target lines (the same in every repeat and in every version of a change that
keeps the figures). For an A/B of two checkouts, run it alternately under each checkout's
``PYTHONPATH=CHECKOUT/src`` and compare medians: the per-file steps are most of a cold run's
match stage (the main job shares them out to worker processes; the figures are the same).
A script, not a test: pytest never collects it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from lineage.index import IndexCache, index_tree
from lineage.match import MatchParams, Side, match_sides
from lineage.settings import RunSettings
from lineage.sources import open_source
from lineage.sources.corpus import corpus_specs

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "sglang-vllm.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS), help="corpus manifest of the pinned pair")
    parser.add_argument("--repeat", type=int, default=1, help="timed matcher runs (default 1)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    settings = RunSettings()
    cache = IndexCache(settings.store_root, settings.index_packs, settings.index_pack_rewrite_after)
    target_spec, upstream_specs = corpus_specs(Path(args.corpus))
    with open_source(target_spec, settings.cache_root) as t_source, \
            open_source(upstream_specs[0], settings.cache_root) as u_source:
        up_tree = index_tree(u_source, cache, settings.jobs, settings.max_file_bytes, None)
        t_tree = index_tree(t_source, cache, settings.jobs, settings.max_file_bytes, None)
        seconds, cpu = [], []
        for repeat in range(args.repeat):
            # fresh sides each repeat: their memos (statements, align forms) are part of the work
            target = Side(t_tree.files, lambda k: t_tree.lines(t_tree.files[k].path),
                          np.zeros(len(t_tree.files), np.int32))
            upstream = Side(up_tree.files, lambda k: up_tree.lines(up_tree.files[k].path),
                            np.zeros(len(up_tree.files), np.int32))
            wall0, cpu0 = time.perf_counter(), time.process_time()
            result = match_sides(target, upstream, MatchParams())
            seconds.append(time.perf_counter() - wall0)
            cpu.append(time.process_time() - cpu0)
            paired = sum(int((f.match != 0).sum()) for f in result.files)
            print(f"repeat {repeat + 1}: {seconds[-1]:.2f} s wall, {cpu[-1]:.2f} s CPU; "
                  f"{len(t_tree.files):,} target files, {paired:,} paired lines", flush=True)
    if args.repeat > 1:
        print(f"median: {statistics.median(seconds):.2f} s wall, {statistics.median(cpu):.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
