"""``lineage history``: the headline figures at each commit of a target git repository.

    from lineage.history import run_history
    result = run_history("path/to/repo@v1.0..main", ["pypi:vllm==0.6.4"], Path("out/"))
    result.frame  # one row per commit

Stages: :mod:`~lineage.history.range` reads the range and selects the commits (the rules are in
its docstring); :mod:`~lineage.history.run` indexes each commit and computes its figures;
:mod:`~lineage.history.plot` draws history.png.

Outputs in ``out_dir``: ``history.csv`` (one row per commit in commit order; every column is
deterministic except the last three, ``cache_hits``, ``cache_misses`` and ``seconds``),
``history.png`` (copied code lines and marked files over the commits) and ``history.json`` (the
inputs: repository, range, commits, upstreams with digests, parameters).
"""

from lineage.history.plot import plot_history
from lineage.history.range import CommitInfo, HistoryRange, parse_range, select_commits, split_range_spec
from lineage.history.run import (
    FIGURE_COLUMNS,
    HISTORY_COLUMNS,
    HISTORY_FORMAT,
    HISTORY_VERSION,
    RUN_COLUMNS,
    HistoryResult,
    commit_figures,
    figures_sentence,
    run_history,
)

__all__ = ["FIGURE_COLUMNS", "HISTORY_COLUMNS", "HISTORY_FORMAT", "HISTORY_VERSION", "RUN_COLUMNS", "CommitInfo",
           "HistoryRange", "HistoryResult", "commit_figures", "figures_sentence", "parse_range", "plot_history",
           "run_history", "select_commits", "split_range_spec"]
