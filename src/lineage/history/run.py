"""``run_history``: the headline figures at each selected commit, and history.csv/.png/.json.

The upstreams are opened and indexed once. Each commit is read from the git object database
(never the working tree) and indexed through the same content-addressed cache, so a commit costs
the parsing of only the Python files it changed (``cache_misses``); a commit whose Python files
are identical to an earlier one's (same tree digest) reuses that commit's figures without
matching again. Nothing here prints: progress goes to the run settings' callback, and the
caller (the CLI) says what was done.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from lineage import __version__
from lineage.history.plot import plot_history
from lineage.history.range import HistoryRange, parse_range
from lineage.index import INDEX_VERSION, IndexCache, TreeIndex, index_tree
from lineage.match import MatchParams, MatchWorkers
from lineage.report.outdir import check_out_dir, local_paths, write_outputs
from lineage.report.tables import guard_formulas
from lineage.results import Numbers, numbers_of, percent
from lineage.settings import RunSettings
from lineage.sources import checked_upstreams, open_source
from lineage.sources.base import require_python

HISTORY_FORMAT = "lineage.history"
# Change log of history.json (history.csv's columns are HISTORY_COLUMNS; a change there bumps it too):
# 1: first version.
HISTORY_VERSION = 1

# Columns of history.csv, in order. The last three depend on the cache and the machine.
FIGURE_COLUMNS = [
    "python_files", "indexed_files", "marked_files",
    "code_lines", "code_verbatim", "code_near", "code_copied_share",
    "nonblank_lines", "nonblank_verbatim", "nonblank_near",
    "marked_code_lines", "marked_code_verbatim", "marked_code_near",
]
RUN_COLUMNS = ["cache_hits", "cache_misses", "seconds"]
HISTORY_COLUMNS = ["index", "commit", "date", "subject", "tags", *FIGURE_COLUMNS, *RUN_COLUMNS]



def commit_figures(files: pd.DataFrame) -> dict[str, object]:
    """The headline figures of one comparison's files table (the same sums as the headline)."""
    indexed = files[files["status"] == "indexed"]
    marked = indexed[indexed["marker"] != ""]
    n_all: Numbers = numbers_of(files)
    n_marked: Numbers = numbers_of(marked)
    copied = n_all.code_verbatim + n_all.code_near
    return {
        "python_files": int(len(files)),
        "indexed_files": int(len(indexed)),
        "marked_files": int(len(marked)),
        "code_lines": n_all.code,
        "code_verbatim": n_all.code_verbatim,
        "code_near": n_all.code_near,
        "code_copied_share": round(copied / n_all.code, 4) if n_all.code else 0.0,
        "nonblank_lines": n_all.nonblank,
        "nonblank_verbatim": n_all.nonblank_verbatim,
        "nonblank_near": n_all.nonblank_near,
        "marked_code_lines": n_marked.code,
        "marked_code_verbatim": n_marked.code_verbatim,
        "marked_code_near": n_marked.code_near,
    }


def _describe_upstream(tree: TreeIndex, label: str) -> dict[str, object]:
    info = tree.info
    return {"spec": info.spec, "kind": info.kind, "label": label, "location": info.location,
            "digest": info.digest, "details": info.details, "tree_digest": tree.tree_digest,
            "python_files": len(tree.files) + len(tree.skipped), "indexed_files": len(tree.files)}


def figures_sentence(row: dict[str, Any] | pd.Series) -> str:
    """One commit's figures in a few words (progress lines and the CLI's summary)."""
    code = int(row["code_lines"])
    verbatim, near = int(row["code_verbatim"]), int(row["code_near"])
    return (f"{verbatim:,} verbatim + {near:,} near of {code:,} code lines copied "
            f"({percent(verbatim + near, code)}); {int(row['marked_files']):,} of "
            f"{int(row['indexed_files']):,} files marked")


@dataclass
class HistoryResult:
    """What :func:`run_history` made: the history table (the rows of history.csv) and its inputs."""

    frame: pd.DataFrame
    range: HistoryRange
    upstream_names: list[str]
    out_dir: Path | None  # None: nothing was written
    seconds: float
    inputs: dict[str, object] = field(default_factory=dict)  # what history.json records


def run_history(range_spec: str, upstream_specs: Sequence[str | os.PathLike[str]], out_dir: Path | None, *,
                every: int = 1,
                tags_only: bool = False, max_commits: int = 0, params: MatchParams | None = None,
                settings: RunSettings | None = None, allow_empty: bool = False) -> HistoryResult:
    """Compute the headline figures at each selected commit; write history.csv/.png/.json into
    ``out_dir`` (None: write nothing; the table is ``frame`` and history.json's record ``inputs``
    of the result, for a notebook).

    Raises :class:`LineageError` on a bad range, an unknown ref, a path that is not a git
    repository, or an unreadable upstream; unless ``allow_empty``, on an upstream without Python
    files or a range without a Python file at any selected commit (a mistyped ``:PATH``), before
    anything is written.
    """
    from lineage.api import compare_trees

    upstream_specs = checked_upstreams(upstream_specs, "history")
    params = params or MatchParams()
    settings = settings or RunSettings()
    history = parse_range(range_spec, every, tags_only, max_commits)
    # A bad --out (a file, a folder of the user's, inside a source) is refused before the run, not
    # after it (it was a FileExistsError traceback), and checked again when the files are written.
    out_dir = Path(out_dir) if out_dir is not None else None
    sources = [str(history.repo), *local_paths(upstream_specs)]
    if out_dir is not None:
        check_out_dir(out_dir, sources)
    root = settings.cache_root
    cache = IndexCache(settings.store_root)
    started = time.perf_counter()

    up_trees: list[TreeIndex] = []
    with contextlib.ExitStack() as stack:
        for spec in upstream_specs:
            source = stack.enter_context(open_source(spec, root))
            tree = index_tree(source, cache, settings.jobs, settings.max_file_bytes)
            if not allow_empty:
                require_python(source.info.spec, len(tree.files) + len(tree.skipped), tree.other_files)
            settings.log(f"upstream {source.info.label}: {len(tree.files)} files indexed "
                         f"({tree.cache_misses} parsed) in {tree.seconds:.1f} s")
            up_trees.append(tree)

    total = len(history.commits)
    settings.log(f"history of {history.repo.name}: {total} of {history.commits_in_range} commits")
    rows: list[dict[str, object]] = []
    by_tree: dict[str, dict[str, object]] = {}  # figures key -> figures: unchanged Python, no rematch
    labels: list[str] = []
    # Records and bytes of every blob seen so far: a file a commit did not change is neither read
    # from git nor decoded from the cache again.
    known: dict[str, tuple[Any, bytes]] = {}
    # (match context, digest, path) -> match entry (labels, vote, renamed paths), likewise
    match_memo: dict[Any, Any] = {}
    # (context, digest, path) -> files-table row, vote and renamed paths: neither gated nor built again
    file_rows: dict[Any, Any] = {}
    python_files = other_files = 0  # for the error below: all commits' Python files, the last one's others
    for number, commit in enumerate(history.commits):
        step = time.perf_counter()
        with open_source(history.source_spec(commit.sha), root) as source:
            tree = index_tree(source, cache, settings.jobs, settings.max_file_bytes, known=known)
        python_files += len(tree.files) + len(tree.skipped)
        other_files = tree.other_files
        figures = by_tree.get(tree.figures_key)
        if figures is None:
            comparison = compare_trees(tree, up_trees, params, cache_root=settings.store_root,
                                       figures_only=True, match_memo=match_memo, file_rows_memo=file_rows,
                                       workers=MatchWorkers.of(settings), match_contexts=settings.match_contexts)
            labels = labels or comparison.upstream_names
            figures = commit_figures(comparison.files)
            by_tree[tree.figures_key] = figures
        seconds = time.perf_counter() - step
        row = {"index": number, "commit": commit.sha, "date": commit.date, "subject": commit.subject,
               "tags": " ".join(commit.tags), **figures, "cache_hits": tree.cache_hits,
               "cache_misses": tree.cache_misses, "seconds": round(seconds, 3)}
        rows.append(row)
        settings.log(f"[{number + 1}/{total}] {commit.sha[:10]} {commit.date[:10]}: {figures_sentence(row)}; "
                     f"{tree.cache_misses} parsed, {seconds:.2f} s")
        del tree

    if not allow_empty:
        # A commit without the folder is an empty point of the series (the project moved into it
        # later); a series without one Python file is a wrong path, as compare's target is.
        require_python(range_spec, python_files, other_files, role="target",
                       where=f" at any of the {total} commits")
    frame = pd.DataFrame(rows, columns=HISTORY_COLUMNS)
    inputs = {
        "format": HISTORY_FORMAT,
        "format_version": HISTORY_VERSION,
        "lineage_version": __version__,
        "index_version": INDEX_VERSION,
        "repository": str(history.repo),
        "range": {"spec": range_spec, "base": history.base, "tip": history.tip,
                  "base_commit": history.base_sha, "tip_commit": history.tip_sha,
                  "first_parent": True, "base_included": bool(history.base),
                  "commits_in_range": history.commits_in_range},
        "selection": {"every": every, "tags_only": tags_only, "max_commits": max_commits,
                      "commits": [c.sha for c in history.commits]},
        "upstreams": [_describe_upstream(t, label) for t, label in zip(up_trees, labels, strict=True)],
        "parameters": params.to_dict(),
        "options": {"max_file_bytes": settings.max_file_bytes, "cache": settings.use_cache},
        "outputs": ["history.csv", "history.png", "history.json"],
    }
    title = f"{history.repo.name} against {', '.join(labels)}"
    if out_dir is None:
        return HistoryResult(frame=frame, range=history, upstream_names=labels, out_dir=None,
                             seconds=time.perf_counter() - started, inputs=inputs)
    # written whole or not at all, as forkpoint's and drift's files (lineage.report.outdir)
    write_outputs(out_dir, [
        ("history.csv", lambda p: guard_formulas(frame).to_csv(p, index=False, lineterminator="\n")),
        ("history.png", lambda p: plot_history(frame, p, title=title)),
        ("history.json", lambda p: p.write_text(json.dumps(inputs, indent=2) + "\n", encoding="utf-8")),
    ], sources)
    return HistoryResult(frame=frame, range=history, upstream_names=labels, out_dir=out_dir,
                         seconds=time.perf_counter() - started, inputs=inputs)
