"""``lineage history``: the headline figures at each commit of a target git repository.

    from lineage.history import run_history
    frame = run_history("path/to/repo@v1.0..main", ["pypi:vllm==0.6.4"], Path("out/"))

The range is ``REPO@A..B`` or ``REPO@REF``:

* ``REPO@A..B``: the base ``A`` itself, then the commits reachable from ``B`` and not from ``A``
  along first parents, oldest first (``git rev-list --first-parent --reverse A..B``). ``A`` is
  the first point so that the series starts from the base. An empty side means ``HEAD``, as in
  git (``REPO@v1..`` is ``v1..HEAD``).
* ``REPO@REF``: every first-parent commit up to and including ``REF``, oldest first.

Filters apply in this order: ``tags_only`` keeps the commits that a tag points to; ``every=N``
keeps every Nth of what is left (the first, the (N+1)th, ...) and always the last; then
``max_commits=K`` keeps the last K.

The upstreams are opened and indexed once. Each commit is read from the git object database
(never the working tree) and indexed through the same content-addressed cache, so a commit costs
the parsing of only the Python files it changed (``cache_misses``); a commit whose Python files
are identical to an earlier one's (same tree digest) reuses that commit's figures without
matching again.

Outputs in ``out_dir``: ``history.csv`` (one row per commit in commit order; every column is
deterministic except the last three, ``cache_hits``, ``cache_misses`` and ``seconds``),
``history.png`` (copied code lines and marked files over the commits) and ``history.json`` (the
inputs: repository, range, commits, upstreams with digests, parameters).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from lineage import __version__
from lineage.errors import LineageError
from lineage.index import INDEX_VERSION, IndexCache, TreeIndex, index_tree
from lineage.match import MatchParams
from lineage.results import Numbers, numbers_of, percent
from lineage.settings import DEFAULT_MAX_FILE_BYTES, default_cache_dir
from lineage.sources import open_source

HISTORY_FORMAT = "lineage.history"
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

_MAX_TICKS = 12  # x-axis labels on the plot


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    date: str  # committer date, ISO 8601 in UTC
    subject: str
    tags: tuple[str, ...]


@dataclass(frozen=True)
class HistoryRange:
    """A parsed ``REPO@A..B`` or ``REPO@REF``: the repository and the selected commits."""

    spec: str
    repo: Path
    base: str  # "" for REPO@REF
    tip: str
    base_sha: str
    tip_sha: str
    commits_in_range: int
    commits: list[CommitInfo]


# --------------------------------------------------------------------------- range


def split_range_spec(spec: str) -> tuple[Path, str]:
    """``REPO@REFS`` -> (repository path, ``A..B`` or ``REF``).

    The split is at the rightmost ``@`` whose left side is an existing directory, so both a
    repository path containing ``@`` and a ref such as ``main@{1}`` work.
    """
    if not spec or "@" not in spec:
        raise LineageError(f"history needs REPO@A..B or REPO@REF, got {spec!r}")
    at = len(spec)
    while (at := spec.rfind("@", 0, at)) > 0:
        left = Path(spec[:at]).expanduser()
        if os.path.isdir(left):
            return left.resolve(), spec[at + 1 :]
    left = Path(spec.rsplit("@", 1)[0]).expanduser()
    raise LineageError(f"git: no such directory: {left}")


def _open_repo(path: Path) -> Any:
    try:
        import git  # lazy: GitPython refuses to import when no git executable exists
    except ImportError as exc:
        raise LineageError(f"git: GitPython is unusable: {' '.join(str(exc).split())}") from None
    try:
        return git.Repo(path)
    except (git.exc.InvalidGitRepositoryError, git.exc.NoSuchPathError):
        raise LineageError(f"git: not a git repository: {path}") from None
    except (git.exc.GitError, OSError) as exc:
        raise LineageError(f"git: cannot open {path}: {' '.join(str(exc).split())}") from None


def _resolve(repo: Any, ref: str, path: Path) -> Any:
    unknown = LineageError(f"git: unknown ref {ref!r} in {path}")
    if not ref or ref.startswith("-") or any(c.isspace() for c in ref) or ".." in ref:
        raise unknown
    try:
        return repo.commit(ref)
    except Exception:  # BadName, BadObject, ValueError (not a commit), IndexError (odd syntax)
        raise unknown from None


def _tags_by_commit(repo: Any) -> dict[str, tuple[str, ...]]:
    """Tag names by the commit they point to (annotated tags peeled). One ``git for-each-ref``:
    GitPython re-reads packed-refs for every tag, seconds in a repository with many refs."""
    tags: dict[str, list[str]] = {}
    try:
        listing = repo.git.for_each_ref("--format=%(objectname) %(*objectname) %(objecttype) %(refname)",
                                        "refs/tags")
    except Exception:  # noqa: BLE001 - no git executable or an odd repository: the slow way
        return _tags_by_commit_slowly(repo)
    for line in listing.splitlines():
        parts = line.split(" ")
        if len(parts) != 4:
            continue
        sha, peeled, kind, ref = parts
        target = peeled if kind == "tag" else sha
        try:
            if repo.odb.info(bytes.fromhex(target)).type != b"commit":
                continue
        except Exception:  # noqa: BLE001 - a dangling tag
            continue
        tags.setdefault(target, []).append(ref.removeprefix("refs/tags/"))
    return {sha: tuple(sorted(names)) for sha, names in tags.items()}


def _tags_by_commit_slowly(repo: Any) -> dict[str, tuple[str, ...]]:
    tags: dict[str, list[str]] = {}
    for tag in repo.tags:
        try:
            sha = tag.commit.hexsha  # annotated tags are peeled to their commit
        except Exception:  # a tag of a tree or blob, or a dangling tag
            continue
        tags.setdefault(sha, []).append(tag.name)
    return {sha: tuple(sorted(names)) for sha, names in tags.items()}


def _commit_info(commit: Any, tags: dict[str, tuple[str, ...]]) -> CommitInfo:
    when = datetime.fromtimestamp(int(commit.committed_date), UTC)
    message = commit.message if isinstance(commit.message, str) else commit.message.decode("utf-8", "replace")
    lines = message.strip().splitlines()
    return CommitInfo(sha=commit.hexsha, date=when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                      subject=lines[0].strip() if lines else "", tags=tags.get(commit.hexsha, ()))


def select_commits(commits: Sequence[CommitInfo], every: int = 1, tags_only: bool = False,
                   max_commits: int = 0) -> list[CommitInfo]:
    """Apply ``tags_only``, then ``every`` (keeping the last), then ``max_commits`` (the last K)."""
    if every < 1:
        raise LineageError(f"--every must be at least 1, got {every}")
    if max_commits < 0:
        raise LineageError(f"--max-commits must be 0 (no limit) or more, got {max_commits}")
    kept = [c for c in commits if c.tags] if tags_only else list(commits)
    if every > 1 and kept:
        last = kept[-1]
        kept = kept[::every]
        if kept[-1] is not last:
            kept.append(last)
    if max_commits:
        kept = kept[-max_commits:]
    return kept


def parse_range(spec: str, every: int = 1, tags_only: bool = False, max_commits: int = 0) -> HistoryRange:
    """Read ``REPO@A..B`` or ``REPO@REF`` and list the selected commits, oldest first."""
    path, refs = split_range_spec(spec)
    if "..." in refs:
        raise LineageError(f"history takes A..B (two dots), not a symmetric range: {refs!r}")
    repo = _open_repo(path)
    try:
        tags = _tags_by_commit(repo)
        if ".." in refs:
            base, tip = refs.split("..", 1)
            base, tip = base or "HEAD", tip or "HEAD"
            base_commit = _resolve(repo, base, path)
            tip_commit = _resolve(repo, tip, path)
            walked = list(repo.iter_commits(f"{base_commit.hexsha}..{tip_commit.hexsha}",
                                            first_parent=True, reverse=True))
            ordered = [base_commit, *walked]
        else:
            base, tip = "", refs
            base_commit = None
            tip_commit = _resolve(repo, tip, path)
            ordered = list(repo.iter_commits(tip_commit.hexsha, first_parent=True, reverse=True))
        infos = [_commit_info(c, tags) for c in ordered]
    except LineageError:
        raise
    except Exception as exc:  # git.exc.GitCommandError from rev-list and the like
        raise LineageError(f"git: cannot list commits {refs!r} in {path}: {' '.join(str(exc).split())}") from None
    finally:
        repo.close()
    selected = select_commits(infos, every, tags_only, max_commits)
    if not selected:
        what = "tagged commits" if tags_only else "commits"
        raise LineageError(f"no {what} in {refs!r} of {path}")
    return HistoryRange(spec=spec, repo=path, base=base, tip=tip,
                        base_sha=base_commit.hexsha if base_commit is not None else "",
                        tip_sha=tip_commit.hexsha, commits_in_range=len(infos), commits=selected)


# --------------------------------------------------------------------------- figures


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


def _log(message: str, progress: bool) -> None:
    if progress:
        print(f"lineage: {message}", file=sys.stderr, flush=True)


def _short(row: dict[str, Any] | pd.Series) -> str:
    code = int(row["code_lines"])
    verbatim, near = int(row["code_verbatim"]), int(row["code_near"])
    return (f"{verbatim:,} verbatim + {near:,} near of {code:,} code lines copied "
            f"({percent(verbatim + near, code)}); {int(row['marked_files']):,} of "
            f"{int(row['indexed_files']):,} files marked")


def run_history(range_spec: str, upstream_specs: Sequence[str], out_dir: Path, *, every: int = 1,
                tags_only: bool = False, max_commits: int = 0, params: MatchParams | None = None,
                jobs: int | None = None, cache_dir: Path | None = None, use_cache: bool = True,
                max_file_bytes: int = DEFAULT_MAX_FILE_BYTES, progress: bool = False,
                print_summary: bool = True) -> pd.DataFrame:
    """Compute the headline figures at each selected commit; write history.csv/.png/.json.

    Returns the history table (the rows of history.csv). Raises :class:`LineageError` on a bad
    range, an unknown ref, a path that is not a git repository, or an unreadable upstream.
    """
    from lineage.api import compare_trees

    if not upstream_specs:
        raise LineageError("history needs at least one upstream")
    params = params or MatchParams()
    history = parse_range(range_spec, every, tags_only, max_commits)
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cache = IndexCache(root if use_cache else None)
    started = time.perf_counter()

    up_trees: list[TreeIndex] = []
    with contextlib.ExitStack() as stack:
        for spec in upstream_specs:
            source = stack.enter_context(open_source(spec, root))
            tree = index_tree(source, cache, jobs, max_file_bytes)
            _log(f"upstream {source.info.label}: {len(tree.files)} files indexed "
                 f"({tree.cache_misses} parsed) in {tree.seconds:.1f} s", progress)
            up_trees.append(tree)

    total = len(history.commits)
    _log(f"history of {history.repo.name}: {total} of {history.commits_in_range} commits", progress)
    rows: list[dict[str, object]] = []
    by_tree: dict[str, dict[str, object]] = {}  # tree digest -> figures: unchanged Python, no rematch
    labels: list[str] = []
    # Records and bytes of every blob seen so far: a file a commit did not change is neither read
    # from git nor decoded from the cache again.
    known: dict[str, tuple[Any, bytes]] = {}
    match_memo: dict[Any, Any] = {}  # (digest, path) -> labels, likewise for matching
    for number, commit in enumerate(history.commits):
        step = time.perf_counter()
        with open_source(f"{history.repo}@{commit.sha}", root) as source:
            tree = index_tree(source, cache, jobs, max_file_bytes, known=known)
        figures = by_tree.get(tree.tree_digest)
        if figures is None:
            comparison = compare_trees(tree, up_trees, params, cache_root=root if use_cache else None,
                                       figures_only=True, match_memo=match_memo)
            labels = labels or comparison.upstream_names
            figures = commit_figures(comparison.files)
            by_tree[tree.tree_digest] = figures
        seconds = time.perf_counter() - step
        row = {"index": number, "commit": commit.sha, "date": commit.date, "subject": commit.subject,
               "tags": " ".join(commit.tags), **figures, "cache_hits": tree.cache_hits,
               "cache_misses": tree.cache_misses, "seconds": round(seconds, 3)}
        rows.append(row)
        _log(f"[{number + 1}/{total}] {commit.sha[:10]} {commit.date[:10]}: {_short(row)}; "
             f"{tree.cache_misses} parsed, {seconds:.2f} s", progress)
        del tree

    frame = pd.DataFrame(rows, columns=HISTORY_COLUMNS)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    frame.to_csv(out_dir / "history.csv", index=False, lineterminator="\n")
    plot_history(frame, out_dir / "history.png",
                 title=f"{history.repo.name} against {', '.join(labels)}")
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
        "options": {"max_file_bytes": max_file_bytes, "cache": use_cache},
        "outputs": ["history.csv", "history.png", "history.json"],
    }
    (out_dir / "history.json").write_text(json.dumps(inputs, indent=2) + "\n", encoding="utf-8")

    if print_summary:
        elapsed = time.perf_counter() - started
        first, last = frame.iloc[0], frame.iloc[-1]
        print(f"{total} commit{'s' if total != 1 else ''} of {history.repo.name} analysed against "
              f"{', '.join(labels)}.")
        print(f"first {first['commit'][:10]} ({first['date'][:10]}): {_short(first)}.")
        if total > 1:
            print(f"last {last['commit'][:10]} ({last['date'][:10]}): {_short(last)}.")
        print(f"{elapsed:.1f} s in all, {int(frame['cache_misses'].sum()):,} files parsed "
              f"(cache misses); wrote history.csv, history.png and history.json to {out_dir}.")
    return frame


# --------------------------------------------------------------------------- plot


def _tick_positions(n: int, limit: int = _MAX_TICKS) -> list[int]:
    """At most ``limit`` evenly spread commit indexes, always the first and the last."""
    if n <= limit:
        return list(range(n))
    return sorted({round(i * (n - 1) / (limit - 1)) for i in range(limit)})


def plot_history(frame: pd.DataFrame, path: Path, title: str = "") -> Path:
    """Two panels over commit index: copied code lines (verbatim, near, all code); marked files."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    x = list(range(len(frame)))
    verbatim = frame["code_verbatim"].astype(int).tolist()
    near = frame["code_near"].astype(int).tolist()
    copied = [v + n for v, n in zip(verbatim, near, strict=True)]
    marker = "o" if len(frame) <= 40 else None

    fig = Figure(figsize=(10, 6.5), layout="constrained")
    FigureCanvasAgg(fig)  # render with Agg whatever pyplot's backend is
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    top.fill_between(x, 0, verbatim, alpha=0.35, color="tab:red", linewidth=0)
    top.fill_between(x, verbatim, copied, alpha=0.35, color="tab:orange", linewidth=0)
    top.plot(x, verbatim, color="tab:red", marker=marker, label="verbatim code lines")
    top.plot(x, copied, color="tab:orange", marker=marker, label="verbatim + near code lines")
    code = frame["code_lines"].astype(int).tolist()
    top.plot(x, code, color="0.4", linestyle="--", marker=marker, label="all code lines")
    top.set_ylabel("code lines")
    top.set_ylim(0, max([*code, 1]) * 1.3)  # room for the legend above the lines
    top.legend(loc="upper left", fontsize="small", ncols=3)
    top.grid(alpha=0.3)
    if title:
        top.set_title(title)

    marked = frame["marked_files"].astype(int).tolist()
    bottom.plot(x, marked, color="tab:blue", marker=marker,
                drawstyle="steps-post" if marker is None else "default", label="marked files")
    bottom.set_ylabel("marked files")
    bottom.set_ylim(0, max([*marked, 1]) * 1.15)
    bottom.yaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.grid(alpha=0.3)
    ticks = _tick_positions(len(frame))
    bottom.set_xticks(ticks)
    bottom.set_xticklabels([f"{frame['commit'].iat[i][:7]}\n{frame['date'].iat[i][:10]}" for i in ticks],
                           fontsize="x-small")
    bottom.set_xlabel("commit (oldest first)")
    if len(frame) == 1:
        bottom.set_xlim(-0.5, 0.5)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    return path
