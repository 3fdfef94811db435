"""The matcher's per-file steps in worker processes (lineage.match.workers): the same labels and
regions with one process and with two, on generated trees (tests/treegen.py)."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
from pathlib import Path

import numpy as np
import pytest
import treegen
from treegen import TLine, Upstream

from lineage.api import compare
from lineage.index import IndexCache, TreeIndex, index_tree
from lineage.match import MatchParams, MatchResult, MatchWorkers, Side, match_sides
from lineage.match.workers import chunks, run_per_file
from lineage.settings import RunSettings
from lineage.sources import open_source

# Every worker test forks; where there is no fork the matcher runs in one process (nothing to test).
needs_fork = pytest.mark.skipif(MatchWorkers(jobs=2, min_files=1).processes(2) == 0,
                                reason="no fork here: the files are matched in one process")


def _target_files(up: Upstream, seed: int, copies: int) -> dict[str, list[TLine]]:
    """``copies`` target files per upstream module, each copied with its own edits (literals,
    reordered or dropped definitions, a renamed word, inserted lines of our own), and files of
    our own code between them."""
    rng = random.Random(f"workers:{seed}")
    names = treegen.Names(rng)
    target: dict[str, list[TLine]] = {}
    for k, m in enumerate(up.modules.values()):
        for copy in range(copies):
            defs = list(m.defs)
            rng.shuffle(defs)
            tlines = treegen.copy_lines(m, 0, m.header_end)
            for d in defs:
                if rng.random() < 0.2:
                    continue
                tlines += treegen.copy_def(m, d) + treegen.new_lines(["", ""])
            if copy % 2:
                tlines = treegen.edit_literals(tlines, rng, share=0.3)
            if copy % 3 == 1:
                words = sorted({w for line in m.lines for w in line.replace("(", " ").split()
                                if w.isidentifier() and len(w) > 6})
                for old in rng.sample(words, min(2, len(words))):
                    tlines = treegen.replace_word(tlines, old, names.ident())
            if copy % 3 == 2:
                tlines = treegen.own_code(names, 1) + tlines
            target[f"t{copy}/{k}_{names.ident(2)}.py"] = tlines
            target[f"own{copy}/{k}_{names.ident(2)}.py"] = treegen.own_code(names, 1)
    return target


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[TreeIndex, TreeIndex]:
    return _trees(tmp_path_factory, empty=False)


@pytest.fixture(scope="module")
def trees_with_empty_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[TreeIndex, TreeIndex]:
    return _trees(tmp_path_factory, empty=True)


def _trees(tmp_path_factory: pytest.TempPathFactory, empty: bool) -> tuple[TreeIndex, TreeIndex]:
    up = treegen.gen_upstream(seed=7031, n_modules=4, n_functions=4)
    target = {p: treegen.render(t) for p, t in _target_files(up, seed=7031, copies=6).items()}
    if empty:  # files without a content line, at the start, inside and at the end of the tree
        target |= {f"{d}/__init__.py": "" for d in ("a0", "own3", "t2", "zz")} | {"zz/blank.py": "\n\n"}
    base = tmp_path_factory.mktemp("workers")
    t_root = treegen.write_tree(base / "target", target)
    u_root = treegen.write_tree(base / "upstream", up.files())
    out = []
    for root in (t_root, u_root):
        with open_source(str(root)) as source:
            out.append(index_tree(source, IndexCache(None), jobs=1))
    return out[0], out[1]


def _sides(target: TreeIndex, upstream: TreeIndex) -> tuple[Side, Side]:
    t_files, u_files = target.files, upstream.files
    return (Side(t_files, lambda k: target.lines(t_files[k].path), np.zeros(len(t_files), np.int32)),
            Side(u_files, lambda k: upstream.lines(u_files[k].path), np.zeros(len(u_files), np.int32)))


def _assert_same(one: MatchResult, other: MatchResult) -> None:
    assert len(one.files) == len(other.files)
    for a, b in zip(one.files, other.files, strict=True):
        for name in ("match", "up_file", "up_row", "similarity", "region"):
            left, right = getattr(a, name), getattr(b, name)
            assert left.dtype == right.dtype and np.array_equal(left, right), name
    assert one.regions == other.regions


@needs_fork
def test_match_sides_gives_the_same_result_with_one_and_two_workers(trees: tuple[TreeIndex, TreeIndex]) -> None:
    target, upstream = trees
    assert len(target.files) >= 40
    params = MatchParams()
    alone = match_sides(*_sides(target, upstream), params)
    ticks: list[int] = []
    shared = match_sides(*_sides(target, upstream), params, tick=ticks.append,
                         workers=MatchWorkers(jobs=2, min_files=2, chunks_per_job=3))
    _assert_same(alone, shared)
    assert sum(ticks) == len(target.files) and len(ticks) <= 6  # one tick per chunk
    copied = sum(int((f.match > 0).sum()) for f in alone.files)
    assert copied > 0 and len(alone.regions) > len(target.files) // 4  # the trees hold copies
    # Fewer files than min_files: matched here, the same again.
    _assert_same(alone, match_sides(*_sides(target, upstream), params,
                                    workers=MatchWorkers(jobs=2, min_files=len(target.files) + 1)))


def _written_trees(tmp_path: Path, seed: int, n_modules: int) -> tuple[dict, Path, Path]:
    """A generated upstream and a target holding three copies of its files, written to disk."""
    up = treegen.gen_upstream(seed=seed, n_modules=n_modules, n_functions=3)
    target = _target_files(up, seed=seed, copies=3)
    t_root = treegen.write_tree(tmp_path / "target", {p: treegen.render(t) for p, t in target.items()})
    return target, t_root, treegen.write_tree(tmp_path / "upstream", up.files())


@needs_fork
def test_compare_writes_the_same_tables_with_one_and_two_jobs(tmp_path: Path) -> None:
    target, t_root, u_root = _written_trees(tmp_path, seed=99, n_modules=3)
    outputs = []
    for jobs in (1, 2):
        settings = RunSettings(use_cache=False, jobs=jobs, match_min_files=1)
        assert MatchWorkers.of(settings).processes(len(target)) == (0 if jobs == 1 else 2)
        out = tmp_path / f"out{jobs}"
        compare(str(t_root), [str(u_root)], settings=settings).write(out, html=False)
        outputs.append(out)
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json"):
        assert (outputs[0] / name).read_bytes() == (outputs[1] / name).read_bytes(), name


@needs_fork
def test_labels_matched_in_workers_are_cached_and_reused(tmp_path: Path) -> None:
    target, t_root, u_root = _written_trees(tmp_path, seed=5, n_modules=2)
    cache = tmp_path / "cache"
    first = compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=cache, jobs=2, match_min_files=1))
    assert first.match_cache_misses == len(target) and first.match_cache_hits == 0
    again = compare(str(t_root), [str(u_root)],  # the match cache alone, not the table cache's rows
                    settings=RunSettings(cache_dir=cache, jobs=1, reuse_tables=False))
    assert again.match_cache_hits == len(target) and again.match_cache_misses == 0
    for name in ("lines", "files", "regions", "functions"):
        assert getattr(first, name).equals(getattr(again, name)), name


def _pid_of(item: int) -> tuple[int, int]:
    return item, os.getpid()


@needs_fork
def test_run_per_file_runs_in_other_processes_and_keeps_item_order() -> None:
    weights = [5, 1, 1, 40, 2, 2, 2, 9, 1, 3]
    got = run_per_file(_pid_of, weights, MatchWorkers(jobs=2, min_files=1, chunks_per_job=2))
    assert [item for item, _ in got] == list(range(len(weights)))
    assert os.getpid() not in {pid for _, pid in got}
    here = run_per_file(_pid_of, weights, MatchWorkers(jobs=1))
    assert {pid for _, pid in here} == {os.getpid()}


def _signal_state(item: int) -> tuple[bool, bool, bool]:
    """In a worker: (SIGTERM or SIGINT blocked, SIGTERM's default action, SIGINT ignored)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return (bool(held & {signal.SIGTERM, signal.SIGINT}), signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
            signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


@needs_fork
def test_a_worker_takes_no_signal_before_its_initializer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Workers are forked with SIGINT and SIGTERM blocked, taken again by _init_worker once it
    set their actions. Forked with the command's handler (raise KeyboardInterrupt), a worker that
    Pool.terminate() signalled just after the fork ran the parent's code from there on, or lost
    the signal and waited for a task forever: the test suite hung so twice, pool starts and ends
    of two tiny tasks 8 times in 400 under load."""
    import lineage.match.workers as workers

    seen = tmp_path / "seen"
    original = workers._init_worker

    def recording() -> None:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        with seen.open("a") as out:  # one line per worker, written before the real initializer
            out.write(f"{int(signal.SIGTERM in held and signal.SIGINT in held)}\n")
        original()

    monkeypatch.setattr(workers, "_init_worker", recording)
    got = run_per_file(_signal_state, [1, 1, 1, 1], MatchWorkers(jobs=2, min_files=1))
    assert got == [(False, True, True)] * 4  # taken again, with the worker's own actions
    assert seen.read_text().split() == ["1", "1"]  # blocked until the initializer ran
    assert not signal.pthread_sigmask(signal.SIG_BLOCK, []) & {signal.SIGTERM, signal.SIGINT}  # not here


_SEEN_BY_TASKS: list[str] = []
_SEEN_BY_TASKS: list[str] = []


def _meanwhile_count(item: int) -> int:
    return len(_SEEN_BY_TASKS)


@pytest.mark.parametrize("jobs", [1, 2])
def test_meanwhile_runs_once_and_the_tasks_never_see_it(jobs: int) -> None:
    """run_per_file's ``meanwhile`` is this process's own work, once, while the workers run (they
    were forked before it) or after the tasks here: either way no task sees what it did."""
    if jobs > 1 and "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("needs fork")
    _SEEN_BY_TASKS.clear()
    calls: list[int] = []

    def meanwhile() -> None:
        calls.append(os.getpid())
        _SEEN_BY_TASKS.append("done")

    try:
        got = run_per_file(_meanwhile_count, [3, 1, 4, 1, 5], MatchWorkers(jobs=jobs, min_files=1),
                           meanwhile=meanwhile)
    finally:
        _SEEN_BY_TASKS.clear()
    assert got == [0] * 5 and calls == [os.getpid()]


@pytest.mark.parametrize("jobs", [1, 2])
def test_find_runs_does_the_callers_work_meanwhile(trees: tuple[TreeIndex, TreeIndex], jobs: int) -> None:
    """find_runs calls ``meanwhile`` once, with and without workers, and its runs are the same."""
    from lineage.match.regions import find_runs

    calls: list[str] = []
    sides = _sides(*trees)
    plain = find_runs(*sides, MatchParams(), MatchWorkers(jobs=jobs, min_files=2))
    runs = find_runs(*sides, MatchParams(), MatchWorkers(jobs=jobs, min_files=2), meanwhile=lambda: calls.append("x"))
    assert calls == ["x"]
    assert np.array_equal(runs._tc, plain._tc) and np.array_equal(runs._t_file, plain._t_file)
    for mine, theirs in zip(runs._columns, plain._columns, strict=True):
        assert np.array_equal(mine, theirs)


def test_chunks_are_consecutive_cover_every_item_and_come_heaviest_first() -> None:
    rng = random.Random(3)
    for _ in range(50):
        weights = [rng.choice((1, 2, 5, 50, 400)) for _ in range(rng.randrange(0, 60))]
        parts = chunks(weights, rng.randrange(1, 9))
        assert sorted(i for part in parts for i in part) == list(range(len(weights)))
        for part in parts:
            assert part == list(range(part[0], part[-1] + 1))
        sizes = [sum(weights[i] for i in part) for part in parts]
        assert sizes == sorted(sizes, reverse=True)
    parts = chunks([10] * 12, 4)
    assert [len(part) for part in parts] == [3, 3, 3, 3]


def test_match_workers_refuse_bad_values_and_settings_pass_theirs() -> None:
    with pytest.raises(ValueError):
        MatchWorkers(jobs=0)
    with pytest.raises(ValueError):
        MatchWorkers(min_files=True)  # type: ignore[arg-type]
    assert MatchWorkers(jobs=1).processes(10_000) == 0
    settings = RunSettings(use_cache=False, jobs=3, match_min_files=500)
    assert MatchWorkers.of(settings) == MatchWorkers(jobs=3, min_files=500)
    assert MatchWorkers.of(settings).processes(499) == 0


def test_runs_of_file_ranges_joined_are_the_whole_trees_runs(trees: tuple[TreeIndex, TreeIndex]) -> None:
    """Steps 1 and 2 per consecutive range of target files (as the workers run them), joined in
    order: every array of the runs equals those of one pass over all files."""
    from lineage.match.hits import find_hits
    from lineage.match.regions import RunsByFile, group_runs

    target, upstream = _sides(*trees)
    params = MatchParams()
    whole = group_runs(target, upstream, *find_hits(target, upstream, params), params)
    n = len(target.files)
    for cuts in ([0, n // 2, n], [0, 1, n // 3, n], [0, n - 1, n]):
        parts = [group_runs(target, upstream, *find_hits(target, upstream, params, range(a, b)), params)
                 for a, b in zip(cuts, cuts[1:], strict=False)]
        joined = RunsByFile.concat(parts)
        assert len(joined) == len(whole) > 0
        assert np.array_equal(joined._tc, whole._tc) and np.array_equal(joined._t_file, whole._t_file)
        for mine, theirs in zip(joined._columns, whole._columns, strict=True):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)
        assert [len(joined.get(t)) for t in range(n)] == [len(whole.get(t)) for t in range(n)]


@needs_fork
def test_the_ranges_of_steps_1_and_2_go_one_per_worker(trees: tuple[TreeIndex, TreeIndex],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """find_runs cuts the target into ranges of about equal lines, one per worker; run_per_file's
    own cut must then hand each range out alone (cut by the ranges' file counts, two ranges
    went to one worker from 8 on, and the slowest worker had twice the lines)."""
    import lineage.match.workers as workers
    from lineage.match.regions import find_runs

    cuts: list[list[list[int]]] = []
    original = workers.chunks
    monkeypatch.setattr(workers, "chunks", lambda weights, n: cuts.append(original(weights, n)) or cuts[-1])
    find_runs(*_sides(*trees), MatchParams(), MatchWorkers(jobs=8, min_files=2))
    ranges, handed = cuts  # find_runs' ranges, then run_per_file's chunks of them
    assert len(ranges) == 8 and sorted(handed) == [[k] for k in range(8)]


@needs_fork
@pytest.mark.parametrize("jobs", [3, 5, 8])
def test_find_runs_in_many_workers_is_one_pass(trees_with_empty_files: tuple[TreeIndex, TreeIndex], jobs: int) -> None:
    """find_runs with more workers than CPUs (more ranges, some of own code only, so without a
    hit, and empty files between them) gives every array of one pass."""
    from lineage.match.regions import find_runs, group_runs

    target, upstream = trees_with_empty_files
    t_side, u_side = _sides(target, upstream)
    assert (np.diff(t_side.file_start) == 0).sum() == 5
    params = MatchParams()
    whole = group_runs(t_side, u_side, *find_hits_all(t_side, u_side, params), params)
    split = find_runs(t_side, u_side, params, MatchWorkers(jobs=jobs, min_files=2))
    assert len(split) == len(whole) > 0
    assert np.array_equal(split._tc, whole._tc) and np.array_equal(split._t_file, whole._t_file)
    for mine, theirs in zip(split._columns, whole._columns, strict=True):
        assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)


def find_hits_all(target: Side, upstream: Side, params: MatchParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from lineage.match.hits import find_hits

    return find_hits(target, upstream, params)


def test_runs_joined_over_ranges_without_hits_are_one_pass(trees_with_empty_files: tuple[TreeIndex, TreeIndex]) -> None:
    """RunsByFile.concat with parts that hold no run (ranges of empty files, whose group_runs
    arrays are all int64, weights included), first, inside and last: one pass's arrays and dtypes."""
    from lineage.match.hits import find_hits
    from lineage.match.regions import RunsByFile, group_runs

    target, upstream = _sides(*trees_with_empty_files)
    params = MatchParams()
    whole = group_runs(target, upstream, *find_hits(target, upstream, params), params)
    n = len(target.files)
    empty = np.flatnonzero(np.diff(target.file_start) == 0).tolist()
    assert empty[0] == 0 and empty[-1] == n - 1
    inner = empty[1]
    for cuts in ([0, 1, n], [0, 1, inner, inner + 1, n - 2, n], [0, n - 1, n], [0, 1, n - 1, n]):
        parts = [group_runs(target, upstream, *find_hits(target, upstream, params, range(a, b)), params)
                 for a, b in zip(cuts, cuts[1:], strict=False)]
        assert any(len(part) == 0 for part in parts)
        joined = RunsByFile.concat(parts)
        assert np.array_equal(joined._tc, whole._tc) and np.array_equal(joined._t_file, whole._t_file)
        for mine, theirs in zip(joined._columns, whole._columns, strict=True):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)


_KILL_ONE_WORKER = """
import os, signal, sys
from lineage.errors import WorkerError
from lineage.match.workers import MatchWorkers, run_per_file

def task(item):
    if item == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return item

try:
    run_per_file(task, [1] * 8, MatchWorkers(jobs=2, min_files=1), what="matching")
except WorkerError as exc:
    print(exc)
    sys.exit(0)
sys.exit(1)
"""


@needs_fork
def test_a_killed_worker_stops_the_run_with_one_error_instead_of_waiting_forever() -> None:
    """multiprocessing.Pool waited forever for a chunk whose worker the system killed (out of
    memory): the run hung. Now the run ends with a WorkerError (the CLI's one line, exit 2)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _KILL_ONE_WORKER], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("a worker process (matching) ended abruptly (killed, or out of memory?); "
                                   "rerun with --jobs 1, or with more memory")


def _nested(item: int) -> list[int]:
    return [pid for _, pid in run_per_file(_pid_of, [1, 1, 1], MatchWorkers(jobs=2, min_files=1))]


@needs_fork
def test_a_task_that_runs_per_file_again_does_it_in_its_own_worker() -> None:
    """A worker starts no workers of its own: a nested call runs its items where it is."""
    got = run_per_file(_nested, [1, 1], MatchWorkers(jobs=2, min_files=1))
    for pids in got:
        assert len(set(pids)) == 1 and os.getpid() not in pids


def _fail_or_sleep(item: int) -> int:
    if item == 0:
        raise ValueError("task 0 failed")
    import time

    time.sleep(30)
    return item


@needs_fork
def test_a_failed_task_ends_the_other_workers_without_waiting_for_them() -> None:
    import time

    before = set(multiprocessing.active_children())
    started = time.monotonic()
    with pytest.raises(ValueError, match="task 0 failed"):
        run_per_file(_fail_or_sleep, [1, 1, 1], MatchWorkers(jobs=2, min_files=1, chunks_per_job=2))
    assert time.monotonic() - started < 20
    assert not set(multiprocessing.active_children()) - before


def test_a_worker_error_pickles_to_the_same_message() -> None:
    import pickle

    from lineage.errors import WorkerError

    error = WorkerError("matching")
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


@needs_fork
def test_an_index_worker_takes_no_signal_before_its_initializer(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """The index stage's workers too are forked with SIGINT and SIGTERM blocked, until their
    initializer (see test_a_worker_takes_no_signal_before_its_initializer)."""
    import lineage.index.tree as tree

    seen = tmp_path / "seen"
    original = tree._init_worker

    def recording(*args: object) -> None:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        with seen.open("a") as out:
            out.write(f"{int(signal.SIGTERM in held and signal.SIGINT in held)}\n")
        original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tree, "_init_worker", recording)
    root = tmp_path / "t"
    for k in range(tree._PARALLEL_MIN_FILES):
        (root / "pkg").mkdir(parents=True, exist_ok=True)
        (root / "pkg" / f"m{k}.py").write_text(f"def f{k}(x):\n    return x + {k}\n")
    with open_source(str(root)) as source:
        found = index_tree(source, IndexCache(None), jobs=2)
    assert len(found.files) == tree._PARALLEL_MIN_FILES
    assert seen.read_text().split() == ["1", "1"]
