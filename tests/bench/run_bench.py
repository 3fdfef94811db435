#!/usr/bin/env python3
"""Benchmark lineage against its performance targets, in one run.

    .venv/bin/python tests/bench/run_bench.py                  # the pinned pair (minutes of both cores)
    .venv/bin/python tests/bench/run_bench.py --small          # a tiny self-contained pair (seconds)
    .venv/bin/python tests/bench/run_bench.py --out out/bench --repeat 3

What it measures (see tests/bench/README.md for the details and caveats):

1. cold run: ``lineage corpus MANIFEST --out TMP -q --no-html`` with an empty index cache (the
   release archives are hard-linked into the fresh cache first, so no network is involved);
2. warm run: the same command again on the same cache;
3. one changed target file: the target's Python files as a directory, run warm, then with one
   file changed (a line appended) -- the extra time over the unchanged run (a whole-result cache hit);
   then the same with the HTML view written (lineage's default; not a target);
4. parse floor: tree-sitter-python parsing every Python file of both releases, in one process
   and spread over ``--parse-procs`` processes;
5. jscpd 5.3.2 on the same two trees;
6. scaling: the target at 1/4, 1/2 and all of its Python files, each cold for the target;
7. determinism: the figure files of the cold and the warm runs must be byte-identical;
8. history: ``lineage history`` over the 50 commits of a git repository made here (every 8th
   target file, then 49 commits of two edited files each) against every 8th upstream file,
   beside one cold ``lineage compare`` of its last commit, each with an empty cache.

Results go to ``OUT/bench.json`` and ``OUT/bench.md``; the Markdown is also printed. The exit
status is 0 when every part ran (targets met or not), 1 when a part failed, 2 on bad usage.

This file is not a test module: pytest does not collect it (no ``test_`` prefix, so it does not
match pytest's ``python_files``), and importing it runs nothing (only stdlib imports at module level).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import hashlib
import json
import multiprocessing
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = REPO / "corpora" / "sglang-vllm.json"
DEFAULT_OUT = REPO / "out" / "bench"
FIXTURE_UPSTREAM = REPO / "tests" / "eval" / "fixture_upstream"
GNU_TIME = "/usr/bin/time"
FIGURE_FILES = ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json")
PYTHON_SUFFIXES = (".py", ".pyi")  # what lineage indexes (lineage.index.is_python_path)
MB = 1e6  # figures are reported in decimal megabytes

# The project's targets (issue 13).
TARGET_COLD_OVER_JSCPD = 0.75
TARGET_COLD_OVER_FLOOR = 2.5
TARGET_WARM_S = 2.0
TARGET_CHANGED_EXTRA_S = 1.0
TARGET_COLD_RSS_MB = 1200.0
TARGET_HISTORY_OVER_COLD = 2.0
# The history part: a git repository made here of every HISTORY_EVERY-th target file, then
# HISTORY_COMMITS - 1 commits of HISTORY_FILES_PER_COMMIT edited files each, against every
# HISTORY_EVERY-th upstream file as a directory (a small upstream, so that its indexing, which
# both runs pay once, does not hide the per-commit cost).
HISTORY_COMMITS = 50
HISTORY_EVERY = 8
HISTORY_FILES_PER_COMMIT = 2


class BenchError(Exception):
    """A part of the benchmark could not run; the message says why."""


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------


def log(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(statistics.median(present), 4) if present else None


def canonical_name(name: str) -> str:
    """PEP 503 name, as lineage.sources names its download folders."""
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def link_or_copy(src: str | Path, dst: str | Path) -> None:
    """Hard-link ``src`` to ``dst`` (same file system), else copy it."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def link_tree(src: Path, dst: Path) -> None:
    """A copy of a directory tree made of hard links: cheap, and safe for lineage's caches,
    which never rewrite an entry's file in place (they write a temporary file or folder and
    rename it; the whole-result cache checks each file's checksum as a hit copies it)."""
    shutil.copytree(src, dst, copy_function=link_or_copy)


def safe_member(name: str) -> bool:
    parts = name.split("/")
    return not name.startswith("/") and ".." not in parts and "" not in parts[:-1]


def fmt(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


# --------------------------------------------------------------------------------------
# Releases and trees
# --------------------------------------------------------------------------------------


@dataclass
class Release:
    """One pinned release of a corpus manifest and where its archive sits in a cache."""

    name: str
    version: str
    filename: str
    sha256: str

    @property
    def spec(self) -> str:
        return f"pypi:{self.name}=={self.version}#sha256={self.sha256}"

    def cache_path(self, cache_root: Path) -> Path:
        # lineage.sources._open_pypi: <cache>/downloads/pypi/<canonical name>-<version>/<file>
        return cache_root / "downloads" / "pypi" / f"{canonical_name(self.name)}-{self.version}" / self.filename


def read_corpus(path: Path) -> tuple[Release, Release]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        target = Release(**{k: data["target"][k] for k in ("name", "version", "filename", "sha256")})
        first = data["upstreams"][0]
        upstream = Release(**{k: first[k] for k in ("name", "version", "filename", "sha256")})
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise BenchError(f"cannot read corpus manifest {path}: {exc}") from None
    if len(data["upstreams"]) > 1:
        log(f"{path.name} names {len(data['upstreams'])} upstreams; parts 3-6 use the first only")
    return target, upstream


def python_members(wheel: Path) -> list[tuple[str, int]]:
    """(member name, size) of the Python files lineage would index in an archive, sorted."""
    with zipfile.ZipFile(wheel) as archive:
        return sorted(
            (info.filename, info.file_size)
            for info in archive.infolist()
            if not info.is_dir() and info.filename.endswith(PYTHON_SUFFIXES) and safe_member(info.filename)
        )


def read_members(items: Iterable[tuple[str, str]]) -> list[bytes]:
    """The bytes of (wheel path, member name) pairs, in order; each archive opened once."""
    items = list(items)
    by_wheel: dict[str, list[int]] = {}
    for position, (wheel, _) in enumerate(items):
        by_wheel.setdefault(wheel, []).append(position)
    out: list[bytes] = [b""] * len(items)
    for wheel, positions in by_wheel.items():
        with zipfile.ZipFile(wheel) as archive:
            for position in positions:
                out[position] = archive.read(items[position][1])
    return out


def extract_python(wheel: Path, dest: Path) -> dict[str, Any]:
    """Write the archive's Python files under ``dest``; return their sorted paths and size."""
    members = python_members(wheel)
    total_lines = 0
    with zipfile.ZipFile(wheel) as archive:
        for name, _ in members:
            data = archive.read(name)
            total_lines += data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
            path = dest / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    return {"paths": [name for name, _ in members], "files": len(members),
            "bytes": sum(size for _, size in members), "lines": total_lines}


def materialise_subset(src: Path, dest: Path, paths: Sequence[str]) -> None:
    for rel in paths:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        link_or_copy(src / rel, target)


# --------------------------------------------------------------------------------------
# Measuring a command: wall time, peak RSS
# --------------------------------------------------------------------------------------

# Fallback when GNU time is missing: a wrapper process that runs the command and reports
# resource.getrusage(RUSAGE_CHILDREN) of its own children only, so figures do not accumulate.
_RUSAGE_WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.call(sys.argv[2:])
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as handle:
    json.dump({"wall": wall, "maxrss_kb": usage.ru_maxrss, "user": usage.ru_utime,
               "sys": usage.ru_stime, "code": code}, handle)
sys.exit(code)
"""


def gnu_time_usable() -> bool:
    if not os.access(GNU_TIME, os.X_OK):
        return False
    try:
        proc = subprocess.run([GNU_TIME, "-v", "true"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and "Maximum resident set size" in proc.stderr


def _clock_seconds(text: str) -> float:
    """GNU time's elapsed field: ``m:ss.ss`` or ``h:mm:ss``."""
    seconds = 0.0
    for part in text.strip().split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


def parse_gnu_time(text: str) -> dict[str, float]:
    patterns = {
        "wall_s": (r"Elapsed \(wall clock\) time \([^)]*\): *([\d:.]+)", _clock_seconds),
        "peak_rss_kb": (r"Maximum resident set size \(kbytes\): *(\d+)", float),
        "user_s": (r"User time \(seconds\): *([\d.]+)", float),
        "sys_s": (r"System time \(seconds\): *([\d.]+)", float),
        "cpu_percent": (r"Percent of CPU this job got: *(\d+)%", float),
    }
    out: dict[str, float] = {}
    for key, (pattern, convert) in patterns.items():
        found = re.search(pattern, text)
        if found:
            out[key] = convert(found.group(1))
    if "wall_s" not in out or "peak_rss_kb" not in out:
        raise BenchError(f"cannot read the output of {GNU_TIME} -v:\n{text.strip()[-2000:]}")
    return out


class TreeRssSampler(threading.Thread):
    """Sums the resident memory of a process's descendants every ``interval`` seconds (Linux).

    GNU time's "maximum resident set size" is that of the largest single process; with worker
    processes the whole tree can hold more, which this records (as a sampled lower bound).
    """

    def __init__(self, root_pid: int, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.root_pid = root_pid
        self.interval = interval
        self.peak_bytes: int | None = None
        self._stop_event = threading.Event()
        self._page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

    def run(self) -> None:
        if not os.path.isdir("/proc"):
            return
        while not self._stop_event.is_set():
            total = self._sample()
            if total is not None and (self.peak_bytes is None or total > self.peak_bytes):
                self.peak_bytes = total
            self._stop_event.wait(self.interval)

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=5)

    def _sample(self) -> int | None:
        children: dict[int, list[int]] = {}
        rss: dict[int, int] = {}
        try:
            entries = os.listdir("/proc")
        except OSError:
            return None
        for entry in entries:
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2 :].split()
            try:
                pid, ppid, pages = int(entry), int(fields[1]), int(fields[21])
            except (IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(pid)
            rss[pid] = pages * self._page
        # The descendants of the root (the root itself is GNU time or the small wrapper).
        total, stack = 0, list(children.get(self.root_pid, []))
        while stack:
            pid = stack.pop()
            total += rss.get(pid, 0)
            stack.extend(children.get(pid, []))
        return total


class Runner:
    """Runs commands under GNU time (or the getrusage fallback) and reports wall and peak RSS."""

    def __init__(self, force_fallback: bool = False) -> None:
        self.gnu = (not force_fallback) and gnu_time_usable()
        if self.gnu:
            self.name = f"{GNU_TIME} -v"
            self.note = ("wall: GNU time 'Elapsed (wall clock)'; peak RSS: GNU time 'Maximum resident set "
                         "size', the largest single process of the run (workers included, not summed)")
        else:
            self.name = "resource.getrusage(RUSAGE_CHILDREN) + time.perf_counter (fallback)"
            reason = ("GNU time not used (--fallback-timer)" if force_fallback else
                      f"{GNU_TIME} is missing or unusable (install it: `apt-get install time`)")
            self.note = (f"{reason}; fallback: wall from time.perf_counter in a wrapper process, peak RSS from "
                         "getrusage(RUSAGE_CHILDREN).ru_maxrss of that wrapper, i.e. the largest single "
                         "process of the run")
            why = "forced by --fallback-timer" if force_fallback else f"{GNU_TIME} not found or lacks -v"
            log(f"WARNING: not using GNU time ({why}); install it with `apt-get install time`. "
                "Using getrusage(RUSAGE_CHILDREN) for peak RSS and perf_counter for wall time.")

    def run(self, cmd: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
            log_path: Path) -> dict[str, Any]:
        stats = log_path.with_suffix(".time")
        if self.gnu:
            full = [GNU_TIME, "-v", "-o", str(stats), *cmd]
        else:
            full = [sys.executable, "-c", _RUSAGE_WRAPPER, str(stats), *cmd]
        started = time.perf_counter()
        with log_path.open("wb") as out:
            proc = subprocess.Popen(full, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
            sampler = TreeRssSampler(proc.pid)
            sampler.start()
            try:
                code = proc.wait()
            finally:
                sampler.stop()
        outer = time.perf_counter() - started
        if code != 0:
            tail = log_path.read_text(encoding="utf-8", errors="replace").strip()[-3000:]
            raise BenchError(f"command failed with exit status {code}: {' '.join(map(str, cmd))}\n{tail}")
        try:
            text = stats.read_text(encoding="utf-8")
        except OSError as exc:
            raise BenchError(f"no timing output from {full[0]}: {exc}") from None
        if self.gnu:
            figures = parse_gnu_time(text)
        else:
            raw = json.loads(text)
            figures = {"wall_s": raw["wall"], "peak_rss_kb": float(raw["maxrss_kb"]),
                       "user_s": raw["user"], "sys_s": raw["sys"]}
        return {
            "wall_s": round(figures["wall_s"], 3),
            "wall_outer_s": round(outer, 3),
            "peak_rss_mb": round(figures["peak_rss_kb"] * 1024 / MB, 1),
            # Sum over the process tree, sampled: misses short peaks, counts shared pages twice.
            "tree_rss_sampled_mb": None if sampler.peak_bytes is None else round(sampler.peak_bytes / MB, 1),
            "user_s": figures.get("user_s"),
            "sys_s": figures.get("sys_s"),
            "cpu_percent": figures.get("cpu_percent"),
        }


# --------------------------------------------------------------------------------------
# The benchmark
# --------------------------------------------------------------------------------------


def lineage_command() -> list[str]:
    script = Path(sys.executable).parent / "lineage"
    return [str(script)] if script.exists() else [sys.executable, "-m", "lineage.cli"]


def figure_hashes(out_dir: Path) -> dict[str, str]:
    hashes = {}
    for name in FIGURE_FILES:
        path = out_dir / name
        hashes[name] = sha256_file(path) if path.is_file() else "missing"
    return hashes


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over repeats, with every repeat kept."""
    keys = ("wall_s", "peak_rss_mb", "tree_rss_sampled_mb")
    out: dict[str, Any] = {k: median([r.get(k) for r in runs]) for k in keys}
    timings = [r.get("timings_seconds") or {} for r in runs]
    names = list(dict.fromkeys(k for t in timings for k in t))  # the order lineage wrote them
    if names:
        out["timings_seconds"] = {k: median([t.get(k) for t in timings]) for k in names}
    out["runs"] = runs
    return out


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.repeat = max(1, args.repeat)
        self.out = Path(args.out).resolve()
        base = Path(args.work_dir).resolve() if args.work_dir else None
        if base is not None:
            base.mkdir(parents=True, exist_ok=True)
        self.work = Path(tempfile.mkdtemp(prefix="lineage-bench-", dir=base))
        self.logs = self.out / "logs"
        self.runner = Runner(force_fallback=args.fallback_timer)
        self.lineage = lineage_command()
        self.results: dict[str, Any] = {}
        self.errors: dict[str, str] = {}
        self._counter = 0

    # -- plumbing -------------------------------------------------------------------

    def path(self, name: str) -> Path:
        return self.work / name

    def fresh_cache(self, name: str) -> Path:
        """An empty lineage cache holding only the release archives (hard links)."""
        root = self.path(f"caches/{name}")
        shutil.rmtree(root, ignore_errors=True)
        for release in (self.target, self.upstream):
            dest = release.cache_path(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            link_or_copy(release.cache_path(self.source_cache), dest)
        return root

    def env(self, cache: Path) -> dict[str, str]:
        # LINEAGE_OFFLINE: a missing archive is an error, never a timed download.
        return {**os.environ, "LINEAGE_CACHE_DIR": str(cache), "LINEAGE_OFFLINE": "1"}

    def run_lineage(self, label: str, argv: Sequence[str], cache: Path,
                    keep_hashes: bool = False, html: bool = False) -> dict[str, Any]:
        self._counter += 1
        out_dir = self.path(f"runs/{self._counter:02d}-{label}")
        log_path = self.logs / f"{self._counter:02d}-{label}.log"
        cmd = [*self.lineage, *argv, "--out", str(out_dir), "-q", *([] if html else ["--no-html"])]
        log(f"{label}: {' '.join(cmd[len(self.lineage):])}")
        result = self.runner.run(cmd, env=self.env(cache), cwd=self.work, log_path=log_path)
        manifest = json.loads((out_dir / "manifest.json").read_text(encoding="utf-8"))
        result["timings_seconds"] = manifest.get("timings_seconds", {})
        result["target_cache"] = {k: manifest["target"].get(k) for k in ("cache_hits", "cache_misses")}
        result["upstream_cache"] = [{k: u.get(k) for k in ("cache_hits", "cache_misses")}
                                    for u in manifest.get("upstreams", [])]
        result["target_python_files"] = manifest["target"].get("python_files")
        if keep_hashes:
            result["figures_sha256"] = figure_hashes(out_dir)
        if not self.args.keep_work:
            shutil.rmtree(out_dir, ignore_errors=True)
        log(f"{label}: {result['wall_s']:.2f} s wall, {result['peak_rss_mb']:.0f} MB peak RSS")
        return result

    def part(self, name: str, func: Callable[[], Any]) -> None:
        try:
            self.results[name] = func()
        except Exception as exc:  # one failing part must not lose the others
            message = str(exc) or type(exc).__name__
            log(f"{name} FAILED: {message}")
            if not isinstance(exc, BenchError):
                traceback.print_exc()
            self.errors[name] = message
            self.results[name] = {"error": message}

    # -- setup ----------------------------------------------------------------------

    def setup(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.logs, ignore_errors=True)
        self.logs.mkdir(parents=True)
        if self.args.small:
            self.corpus = self.make_small_pair()
            self.source_cache = self.path("source-cache")
        else:
            self.corpus = Path(self.args.corpus).resolve()
            from lineage.sources import default_cache_dir

            self.source_cache = default_cache_dir()
        self.target, self.upstream = read_corpus(self.corpus)
        for release in (self.target, self.upstream):
            self.ensure_archive(release)
        self.target_wheel = self.target.cache_path(self.source_cache)
        self.upstream_wheel = self.upstream.cache_path(self.source_cache)
        log(f"extracting the Python files of {self.target_wheel.name} and {self.upstream_wheel.name}")
        self.target_dir = self.path("trees/target-all")
        self.upstream_dir = self.path("trees/upstream-all")
        self.target_tree = extract_python(self.target_wheel, self.target_dir)
        self.upstream_tree = extract_python(self.upstream_wheel, self.upstream_dir)
        if not self.target_tree["files"] or not self.upstream_tree["files"]:
            raise BenchError("an archive of the pair holds no Python file")

    def ensure_archive(self, release: Release) -> None:
        wheel = release.cache_path(self.source_cache)
        if not wheel.is_file():
            log(f"{wheel} is not cached: fetching {release.name}=={release.version} from PyPI (untimed)")
            from lineage.sources import open_source

            with open_source(release.spec, self.source_cache):
                pass
            if not wheel.is_file():
                raise BenchError(f"{release.spec} was fetched but {wheel} does not exist; is "
                                 f"{release.filename} the archive lineage picks for it?")
        if sha256_file(wheel) != release.sha256:
            raise BenchError(f"sha256 of {wheel} does not match {self.corpus}")

    def make_small_pair(self) -> Path:
        """Two tiny wheels (the fixture package, and an edited copy of it) in a private cache,
        and a corpus manifest pinning them: the same code path as the pinned pair, in seconds."""
        if not FIXTURE_UPSTREAM.is_dir():
            raise BenchError(f"--small needs {FIXTURE_UPSTREAM}")
        up_files = {p.relative_to(FIXTURE_UPSTREAM).as_posix(): p.read_bytes()
                    for p in sorted(FIXTURE_UPSTREAM.rglob("*.py"))}
        target_files = dict(up_files)
        edits = 0
        for rel, data in up_files.items():
            text = data.decode("utf-8")
            if rel.endswith("textfmt.py"):  # an identifier renamed throughout
                text = text.replace("wrap_paragraph", "reflow_paragraph")
            elif rel.endswith("mathutil.py"):  # a function added
                text += "\n\ndef triple(x: float) -> float:\n    return 3 * x\n"
            elif rel.endswith("cache.py"):  # a provenance marker
                text = "# Adapted from minipkg (lineage bench fixture)\n" + text
            else:
                continue
            target_files[rel] = text.encode("utf-8")
            edits += 1
        target_files["minipkg/extra.py"] = (
            b'"""Code of the target\'s own."""\n\n\n'
            b"def histogram(values: list[int]) -> dict[int, int]:\n"
            b"    counts: dict[int, int] = {}\n"
            b"    for value in values:\n"
            b"        counts[value] = counts.get(value, 0) + 1\n"
            b"    return dict(sorted(counts.items()))\n"
        )
        log(f"--small: upstream = {FIXTURE_UPSTREAM.relative_to(REPO)} ({len(up_files)} files), "
            f"target = a copy with {edits} files edited and one added")
        releases = {}
        for name, files in (("benchtarget", target_files), ("benchupstream", up_files)):
            release = Release(name, "0.0.0", f"{name}-0.0.0-py3-none-any.whl", "")
            wheel = release.cache_path(self.path("source-cache"))
            wheel.parent.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
                for rel, data in sorted(files.items()):
                    archive.writestr(rel, data)
            release.sha256 = sha256_file(wheel)
            releases[name] = release
        manifest = self.path("small-corpus.json")
        manifest.write_text(json.dumps({
            "name": "bench-small",
            "target": vars(releases["benchtarget"]),
            "upstreams": [vars(releases["benchupstream"])],
        }, indent=2), encoding="utf-8")
        return manifest

    # -- parts ----------------------------------------------------------------------

    def cold_and_warm(self) -> None:
        argv = ["corpus", str(self.corpus)]
        cold_runs = []
        for r in range(self.repeat):
            self.warm_cache = self.fresh_cache(f"cold-{r}")
            cold_runs.append(self.run_lineage(f"cold-{r}", argv, self.warm_cache, keep_hashes=True))
            if r + 1 < self.repeat:
                shutil.rmtree(self.warm_cache, ignore_errors=True)
        command = " ".join(["lineage", *argv, "--out", "TMP", "-q", "--no-html"])
        self.results["cold"] = {"command": command, "index_cache": "empty (archives hard-linked in)",
                                **summarise(cold_runs)}
        warm_runs = [self.run_lineage(f"warm-{r}", argv, self.warm_cache, keep_hashes=True)
                     for r in range(self.repeat)]
        self.results["warm"] = {"command": command, "index_cache": "filled by the last cold run",
                                **summarise(warm_runs)}
        reference = cold_runs[0]["figures_sha256"]
        every = cold_runs + warm_runs
        identical = all(run["figures_sha256"] == reference for run in every)
        missing = [name for name, digest in reference.items() if digest == "missing"]
        self.results["determinism"] = {
            "identical": identical and not missing,
            "files": list(FIGURE_FILES),
            "missing": missing,
            "runs_compared": len(every),
            "cold_sha256": reference,
            "differing": sorted({name for run in every for name, digest in run["figures_sha256"].items()
                                 if digest != reference.get(name)}),
        }

    def one_changed_file(self, html: bool = False) -> dict[str, Any]:
        """Part 3; with ``html`` the same with the HTML view written (lineage's default), which
        re-renders only the changed file's page (lineage.report.page_cache)."""
        cache = getattr(self, "warm_cache", None)
        if cache is None or not cache.exists():
            raise BenchError("needs the cache of the cold run, which failed")
        paths = self.target_tree["paths"]
        changed = max(paths, key=lambda p: ((self.target_dir / p).stat().st_size, p))
        tag = "-html" if html else ""
        changed_dir = self.path(f"trees/target-changed{tag}")
        link_tree(self.target_dir, changed_dir)
        original = (self.target_dir / changed).read_bytes()
        upstream = self.upstream.spec
        prime = self.run_lineage(f"dir-prime{tag}", ["compare", str(self.target_dir), upstream], cache, html=html)
        pairs = []
        for r in range(self.repeat):
            unchanged = self.run_lineage(f"dir-unchanged{tag}-{r}", ["compare", str(self.target_dir), upstream],
                                         cache, html=html)
            # A new line each repeat, so that each changed run parses the file afresh.
            edited = changed_dir / changed
            edited.unlink()  # break the hard link before writing
            newline = b"" if original.endswith(b"\n") or not original else b"\n"
            edited.write_bytes(original + newline + f"# lineage bench: one changed line ({r}{tag})\n".encode())
            after = self.run_lineage(f"dir-changed{tag}-{r}", ["compare", str(changed_dir), upstream], cache,
                                     html=html)
            pairs.append((unchanged, after))
        load = [u["timings_seconds"].get("index") for u, _ in pairs]
        changed_index = [c["timings_seconds"].get("index") for _, c in pairs]
        delta_wall = [round(c["wall_s"] - u["wall_s"], 3) for u, c in pairs]
        delta_index = [None if a is None or b is None else round(b - a, 3)
                       for a, b in zip(load, changed_index, strict=True)]
        return {
            "target": f"directory with the {len(paths)} Python files of {self.target_wheel.name}",
            "upstream": upstream,
            "changed_file": changed,
            "changed_file_bytes": len(original),
            "prime_run": prime,
            "unchanged": summarise([u for u, _ in pairs]),
            "changed": summarise([c for _, c in pairs]),
            "cache_load_s": median(load),
            "changed_index_s": median(changed_index),
            "extra_wall_s": median(delta_wall),
            "extra_index_s": median(delta_index),
            "extra_wall_samples": delta_wall,
            "changed_target_cache": [c["target_cache"] for _, c in pairs],
        }

    def parse_floor(self) -> dict[str, Any]:
        items = [(str(self.target_wheel), name, size) for name, size in python_members(self.target_wheel)]
        items += [(str(self.upstream_wheel), name, size) for name, size in python_members(self.upstream_wheel)]
        procs = max(1, self.args.parse_procs)
        log(f"parse floor: {len(items)} files, 1 process")
        blobs = read_members((w, n) for w, n, _ in items)  # untimed
        single = [parse_blobs(blobs) for _ in range(self.repeat)]
        del blobs
        bins: list[list[tuple[str, str]]] = [[] for _ in range(procs)]
        loads = [0] * procs
        for wheel, name, size in sorted(items, key=lambda item: (-item[2], item[1])):
            slot = loads.index(min(loads))  # largest first into the lightest bin
            bins[slot].append((wheel, name))
            loads[slot] += size
        log(f"parse floor: {len(items)} files over {procs} processes")
        spread, pool_walls, per_worker = [], [], []
        context = multiprocessing.get_context()
        for _ in range(self.repeat):
            barrier = context.Barrier(procs)
            started = time.perf_counter()
            with context.Pool(procs, initializer=_init_floor_worker, initargs=(barrier,)) as pool:
                times = pool.map(_floor_worker, bins, chunksize=1)
            pool_walls.append(time.perf_counter() - started)
            per_worker.append(times)
            spread.append(max(times))
        return {
            "files": len(items),
            "bytes": sum(size for _, _, size in items),
            "what": "tree-sitter-python Parser.parse on every Python file of both archives; bytes read "
                    "from the archives beforehand (untimed)",
            "single_process_s": median(single),
            "single_process_samples": single,
            "procs": procs,
            "spread_s": median(spread),
            "spread_what": f"files split over {procs} pool workers by size (largest first into the lightest "
                           "worker); each worker reads its files, waits at a barrier, then times its parses; "
                           "the figure is the slowest worker's parse time",
            "spread_samples": spread,
            "spread_per_worker_s": per_worker,
            "pool_wall_incl_startup_and_reads_s": median(pool_walls),
        }

    def jscpd(self) -> dict[str, Any]:
        sys.path.insert(0, str(REPO))
        from tests.eval.anchors import JSCPD_VERSION, ensure_jscpd

        binary = ensure_jscpd()  # installs into the user's tool cache once (untimed)
        runs = []
        for r in range(self.repeat):
            cwd = self.path(f"jscpd-{r}")
            cwd.mkdir()
            report_dir = cwd / "report"
            cmd = [str(binary), str(self.target_dir), str(self.upstream_dir), "--format", "python",
                   "--reporters", "json", "--output", str(report_dir), "--silent",
                   "--no-gitignore", "--no-tips", "--no-colors"]
            log(f"jscpd {JSCPD_VERSION}: run {r}")
            env = {**os.environ, "NO_COLOR": "1", "JSCPD_NO_TIPS": "1"}
            result = self.runner.run(cmd, env=env, cwd=cwd, log_path=self.logs / f"jscpd-{r}.log")
            report = report_dir / "jscpd-report.json"
            if not report.is_file():
                raise BenchError(f"jscpd wrote no report at {report}")
            data = json.loads(report.read_text(encoding="utf-8"))
            total = data.get("statistics", {}).get("total", {})
            result["sources"] = total.get("sources")
            result["clones"] = len(data.get("duplicates", []))
            runs.append(result)
            log(f"jscpd: {result['wall_s']:.2f} s wall, {result['peak_rss_mb']:.0f} MB peak RSS")
            if not self.args.keep_work:
                shutil.rmtree(cwd, ignore_errors=True)
        command = ("jscpd TARGET_DIR UPSTREAM_DIR --format python --reporters json --output TMP "
                   "--silent --no-gitignore --no-tips --no-colors")
        return {"version": JSCPD_VERSION, "binary": str(binary), "command": command, **summarise(runs)}

    def scaling(self) -> dict[str, Any]:
        paths = self.target_tree["paths"]
        upstream = self.upstream.spec
        # The upstream's index records are made once (lineage markers indexes through the cache)
        # and every point gets a hard-linked copy of that cache: only the target part is cold.
        up_cache = self.fresh_cache("upstream-only")
        log("scaling: pre-filling the upstream's index cache (lineage markers)")
        prefill = self.runner.run([*self.lineage, "markers", upstream, "-q", "--all", "--json"],
                                  env=self.env(up_cache), cwd=self.work,
                                  log_path=self.logs / "scaling-upstream-prefill.log")
        points = []
        for label, step in (("1/4", 4), ("1/2", 2), ("all", 1)):
            subset = paths[::step]
            tree = self.path(f"trees/target-every-{step}")
            materialise_subset(self.target_dir, tree, subset)
            size = sum((tree / p).stat().st_size for p in subset)
            runs = []
            for r in range(self.repeat):
                cache = self.path(f"caches/scaling-{step}-{r}")
                link_tree(up_cache, cache)
                runs.append(self.run_lineage(f"scaling-every-{step}-{r}", ["compare", str(tree), upstream], cache))
                shutil.rmtree(cache, ignore_errors=True)
            points.append({"fraction": label, "selection": f"every {step}th file in sorted path order"
                           if step > 1 else "every file", "files": len(subset), "bytes": size,
                           **summarise(runs)})
        return {
            "upstream": upstream,
            "index_cache": "upstream records pre-filled (by `lineage markers UPSTREAM`) and hard-link copied "
                           "into a fresh cache for each point; the target part starts cold. Target files "
                           "byte-identical to an upstream file are cache hits by design (content-addressed "
                           "cache); see target_cache in each run",
            "upstream_prefill": prefill,
            "points": points,
        }

    def history(self) -> dict[str, Any]:
        """``lineage history`` over HISTORY_COMMITS commits against one cold ``compare`` of the
        last commit (issue 13: history <= 2 cold runs), each with an empty cache, alternating."""
        targets = self.target_tree["paths"][::HISTORY_EVERY]
        ups = self.upstream_tree["paths"][::HISTORY_EVERY]
        if not targets or not ups:
            raise BenchError("history: no files to commit")
        upstream = self.path("trees/history-upstream")
        materialise_subset(self.upstream_dir, upstream, ups)
        repo = self.path("trees/history-repo")
        for rel in targets:  # copies: the commits edit them
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.target_dir / rel, repo / rel)
        env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
               "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
               "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}

        def git(*argv: str) -> None:
            done = subprocess.run(["git", "-C", str(repo), *argv], env=env, capture_output=True, text=True,
                                  check=False)
            if done.returncode != 0:
                raise BenchError(f"history: git {argv[0]} failed: {done.stderr.strip()[:200]}")

        git("init", "-q", "-b", "main")
        git("add", "-A")
        git("commit", "-q", "-m", "commit 0")
        for k in range(1, HISTORY_COMMITS):
            for j in range(HISTORY_FILES_PER_COMMIT):
                # spread over the tree: a fixed stride, so every run edits the same files
                rel = targets[(k * HISTORY_FILES_PER_COMMIT + j) * 7919 % len(targets)]
                with (repo / rel).open("a", encoding="utf-8") as handle:
                    handle.write(f"\n\ndef bench_commit_{k}_{j}(value):\n    return value + {k * 10 + j}\n")
            git("commit", "-q", "-a", "-m", f"commit {k}")
        spec = f"{repo}@HEAD~{HISTORY_COMMITS - 1}..HEAD"
        runs: dict[str, list[dict[str, Any]]] = {"history": [], "compare": []}
        for r in range(self.repeat):
            for what, argv in (("history", ["history", spec, str(upstream)]),
                               ("compare", ["compare", f"{repo}@HEAD", str(upstream), "--no-html"])):
                cache = self.path(f"caches/history-{what}-{r}")
                cache.mkdir(parents=True)
                out_dir = self.path(f"runs/history-{what}-{r}")
                cmd = [*self.lineage, *argv, "--out", str(out_dir), "-q"]
                log(f"history-{what}-{r}: {' '.join(cmd[len(self.lineage):])}")
                result = self.runner.run(cmd, env=self.env(cache), cwd=self.work,
                                         log_path=self.logs / f"history-{what}-{r}.log")
                log(f"history-{what}-{r}: {result['wall_s']:.2f} s wall")
                runs[what].append(result)
                shutil.rmtree(cache, ignore_errors=True)
                if not self.args.keep_work:
                    shutil.rmtree(out_dir, ignore_errors=True)
        history, compare = summarise(runs["history"]), summarise(runs["compare"])
        return {
            "what": f"a git repository of every {HISTORY_EVERY}th target file ({len(targets)} files), then "
                    f"{HISTORY_COMMITS - 1} commits of {HISTORY_FILES_PER_COMMIT} files edited (a function "
                    f"appended) each; upstream: every {HISTORY_EVERY}th upstream file ({len(ups)} files) as a "
                    "directory; each run with an empty cache, history and compare alternating",
            "commits": HISTORY_COMMITS,
            "history_command": f"lineage history REPO@HEAD~{HISTORY_COMMITS - 1}..HEAD UPSTREAM_DIR --out TMP -q",
            "compare_command": "lineage compare REPO@HEAD UPSTREAM_DIR --out TMP -q --no-html",
            "history": history,
            "compare": compare,
            "ratio": None if not compare.get("wall_s") else history["wall_s"] / compare["wall_s"],
        }

    # -- report ---------------------------------------------------------------------

    def machine(self) -> dict[str, Any]:
        from lineage import __version__

        info: dict[str, Any] = {
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "nproc": os.cpu_count(),
            "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "lineage_version": __version__,
        }
        with contextlib.suppress(OSError):
            info["loadavg_at_start"] = self.loadavg_start
            info["loadavg_at_end"] = list(os.getloadavg())
        with contextlib.suppress(OSError):
            cpuinfo = Path("/proc/cpuinfo").read_text()
            found = re.search(r"model name\s*:\s*(.+)", cpuinfo)
            info["cpu"] = found.group(1).strip() if found else ""
        with contextlib.suppress(OSError, ValueError, AttributeError):
            meminfo = Path("/proc/meminfo").read_text()
            info["mem_total_mb"] = round(int(re.search(r"MemTotal:\s*(\d+)", meminfo).group(1)) * 1024 / MB)
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            git = ["git", "-C", str(REPO)]
            info["git_commit"] = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True,
                                                check=False).stdout.strip()
            dirty = subprocess.run([*git, "status", "--porcelain", "--", "src"], capture_output=True,
                                   text=True, check=False).stdout.strip()
            info["src_uncommitted_changes"] = bool(dirty)
        from importlib import metadata

        for package in ("tree-sitter", "tree-sitter-python"):
            with contextlib.suppress(metadata.PackageNotFoundError):
                info[package] = metadata.version(package)
        return info

    def targets(self) -> list[dict[str, Any]]:
        res = self.results
        cold = res.get("cold", {})
        cold_wall, cold_rss = cold.get("wall_s"), cold.get("peak_rss_mb")
        jscpd_wall = res.get("jscpd", {}).get("wall_s")
        floor = res.get("parse_floor", {}).get("spread_s")
        procs = res.get("parse_floor", {}).get("procs", self.args.parse_procs)
        warm_wall = res.get("warm", {}).get("wall_s")
        extra = res.get("one_changed_file", {}).get("extra_wall_s")
        history_ratio = res.get("history", {}).get("ratio")
        identical = res.get("determinism", {}).get("identical")

        def ratio(a: float | None, b: float | None) -> float | None:
            return None if a is None or not b else a / b

        def row(what: str, value: float | None, limit: float, unit: str) -> dict[str, Any]:
            return {"what": what, "value": None if value is None else round(value, 3), "limit": limit,
                    "unit": unit, "met": None if value is None else value <= limit}

        rows = [
            row("cold wall / jscpd wall", ratio(cold_wall, jscpd_wall), TARGET_COLD_OVER_JSCPD, "x"),
            row(f"cold wall / parse floor over {procs} processes", ratio(cold_wall, floor),
                TARGET_COLD_OVER_FLOOR, "x"),
            row("warm wall", warm_wall, TARGET_WARM_S, "s"),
            row("one changed file: wall over the unchanged warm run", extra, TARGET_CHANGED_EXTRA_S, "s"),
            row(f"`lineage history` over {HISTORY_COMMITS} commits / one cold run", history_ratio,
                TARGET_HISTORY_OVER_COLD, "x"),
            row("cold peak RSS", cold_rss, TARGET_COLD_RSS_MB, "MB"),
        ]
        rows.append({"what": "figures identical cold vs warm", "value": identical, "limit": True, "unit": "",
                     "met": identical})
        return rows

    def markdown(self, bench: dict[str, Any]) -> str:
        res, m = bench, bench["machine"]
        lines = [
            f"# lineage benchmark ({bench['mode']})",
            "",
            f"{m['date']} · lineage {m['lineage_version']} (commit {m.get('git_commit', '?')[:10]}"
            f"{', uncommitted changes in src/' if m.get('src_uncommitted_changes') else ''}) · "
            f"Python {m['python']} · {m['nproc']} CPUs ({m.get('cpu', '')}) · "
            f"load average at start {', '.join(f'{x:.2f}' for x in m.get('loadavg_at_start', []))}",
            "",
            f"Pair: target {bench['pair']['target']['spec']} ({bench['pair']['target']['python_files']} Python "
            f"files, {bench['pair']['target']['bytes'] / MB:.1f} MB) vs upstream {bench['pair']['upstream']['spec']} "
            f"({bench['pair']['upstream']['python_files']} files, {bench['pair']['upstream']['bytes'] / MB:.1f} MB). "
            f"Medians of {bench['repeat']} repeat(s). Timer: {bench['timer']}.",
            "",
            "| what | wall s | peak RSS MB | notes |",
            "|---|---:|---:|---|",
        ]

        def add(what: str, part: dict[str, Any] | None, note: str = "") -> None:
            if not part or "error" in part:
                err = (part or {}).get("error", "not run")
                lines.append(f"| {what} | n/a | n/a | FAILED: {err.splitlines()[0][:120]} |")
                return
            rss = part.get("peak_rss_mb")
            tree = part.get("tree_rss_sampled_mb")
            extra = f"process tree ≈ {tree:.0f} MB sampled" if tree else ""
            notes = "; ".join(x for x in (note, extra) if x)
            lines.append(f"| {what} | {fmt(part.get('wall_s'))} | {fmt(rss, 0)} | {notes} |")

        def stages(part: dict[str, Any]) -> str:
            t = part.get("timings_seconds") or {}
            return ", ".join(f"{k} {v:.2f}" for k, v in t.items() if v is not None)

        cold, warm = res.get("cold", {}), res.get("warm", {})
        add("cold run (empty index cache)", cold, f"stages s: {stages(cold)}" if "error" not in cold else "")
        add("warm run (same cache)", warm, f"stages s: {stages(warm)}" if "error" not in warm else "")
        one = res.get("one_changed_file", {})
        if "error" in one:
            add("one changed file", one)
        else:
            add("target as directory, unchanged (warm)", one.get("unchanged"),
                f"cache load (index stage) {fmt(one.get('cache_load_s'))} s")
            add("same, one file changed", one.get("changed"),
                f"`{one.get('changed_file')}` +1 line; index stage {fmt(one.get('changed_index_s'))} s")
            lines.append(f"| one changed file minus unchanged run | {fmt(one.get('extra_wall_s'))} | | "
                         f"index stage: {fmt(one.get('extra_index_s'))} s over the cache load of "
                         f"{fmt(one.get('cache_load_s'))} s |")
        page = res.get("one_changed_file_html", {})
        if "error" in page:
            add("one changed file, HTML written", page)
        elif page:
            add("same with the HTML view (the default), unchanged", page.get("unchanged"), "a whole-result cache hit")
            add("same with the HTML view, one file changed", page.get("changed"),
                "only the changed file's page rendered again (the others kept from the last run)")
            lines.append(f"| one changed file minus unchanged run, HTML written | {fmt(page.get('extra_wall_s'))} | | "
                         "not a target (the targets are measured with `--no-html`) |")
        floor = res.get("parse_floor", {})
        if "error" in floor:
            add("parse floor", floor)
        else:
            lines.append(f"| parse floor, 1 process | {fmt(floor.get('single_process_s'), 3)} | | "
                         f"tree-sitter parse only, {floor.get('files')} files |")
            lines.append(f"| parse floor over {floor.get('procs')} processes | {fmt(floor.get('spread_s'), 3)} | | "
                         f"slowest worker's parse time; pool incl. start-up and reads "
                         f"{fmt(floor.get('pool_wall_incl_startup_and_reads_s'))} s |")
        jscpd = res.get("jscpd", {})
        add(f"jscpd {jscpd.get('version', '5.3.2')}", jscpd,
            f"{jscpd.get('runs', [{}])[0].get('clones')} clones reported" if "error" not in jscpd else "")
        scaling = res.get("scaling", {})
        if "error" in scaling:
            add("scaling series", scaling)
        else:
            for point in scaling.get("points", []):
                hits = point["runs"][0].get("target_cache", {})
                add(f"scaling: target {point['fraction']} ({point['files']} files, cold target)", point,
                    f"target cache hits/misses {hits.get('cache_hits')}/{hits.get('cache_misses')}")
        history = res.get("history", {})
        if "error" in history:
            add("history", history)
        elif history:
            add(f"history over {history.get('commits')} commits", history.get("history"),
                history.get("what", ""))
            add("one cold compare of its last commit", history.get("compare"))
        lines += ["", "Targets:", "",
                  "| target | measured | limit | met |", "|---|---:|---:|---|"]
        for t in bench["targets"]:
            value = t["value"]
            if t["unit"] == "":
                shown = {True: "yes", False: "no"}.get(value, "n/a")
            else:
                shown = f"{fmt(value, 0 if t['unit'] == 'MB' else 2)} {t['unit']}"
            limit = "yes" if t["limit"] is True else f"≤ {t['limit']:g} {t['unit']}".strip()
            met = {True: "met", False: "NOT met", None: "n/a"}[t["met"]]
            lines.append(f"| {t['what']} | {shown} | {limit} | {met} |")
        det = res.get("determinism", {})
        if det and "error" not in det:
            verdict = "identical" if det["identical"] else "DIFFERENT: " + ", ".join(det["differing"] or det["missing"])
            lines += ["", f"Determinism: {', '.join(det['files'])} compared over {det['runs_compared']} runs "
                      f"(cold and warm): {verdict}."]
        lines += ["", f"Notes: {bench['timer_note']}. 'process tree' is the RSS summed over the run's "
                  "processes (lineage and its workers), sampled every 0.1 s: it misses short peaks and counts "
                  f"shared pages once per process. Scaling: {scaling.get('index_cache', 'n/a')}. "
                  "The machine may be shared: see the load averages in bench.json."]
        if bench["errors"]:
            lines += ["", "Errors: " + "; ".join(f"{k}: {v.splitlines()[0]}" for k, v in bench["errors"].items())]
        return "\n".join(lines) + "\n"

    def run(self) -> int:
        self.loadavg_start = list(os.getloadavg()) if hasattr(os, "getloadavg") else []
        started = time.perf_counter()
        try:
            self.setup()
            self.part("cold_warm", self.cold_and_warm)
            self.results.pop("cold_warm", None)
            self.part("one_changed_file", self.one_changed_file)
            self.part("one_changed_file_html", lambda: self.one_changed_file(html=True))
            self.part("parse_floor", self.parse_floor)
            self.part("jscpd", self.jscpd)
            self.part("scaling", self.scaling)
            self.part("history", self.history)
        finally:
            if self.args.keep_work:
                log(f"work files kept in {self.work}")
            else:
                shutil.rmtree(self.work, ignore_errors=True)
        if "cold_warm" in self.errors:
            for name in ("cold", "warm", "determinism"):
                self.results.setdefault(name, {"error": self.errors["cold_warm"]})
        bench = {
            "format": "lineage.bench",
            "format_version": 1,
            "mode": "small" if self.args.small else "full",
            "repeat": self.repeat,
            "machine": self.machine(),
            "timer": self.runner.name,
            "timer_note": self.runner.note,
            "pair": {
                "corpus": str(self.corpus) if not self.args.small else "generated (--small)",
                "target": {"spec": self.target.spec, "archive": self.target.filename,
                           "python_files": self.target_tree["files"], "bytes": self.target_tree["bytes"],
                           "lines": self.target_tree["lines"]},
                "upstream": {"spec": self.upstream.spec, "archive": self.upstream.filename,
                             "python_files": self.upstream_tree["files"], "bytes": self.upstream_tree["bytes"],
                             "lines": self.upstream_tree["lines"]},
            },
            **self.results,
            "errors": self.errors,
            "bench_seconds": round(time.perf_counter() - started, 1),
        }
        bench["targets"] = self.targets()
        (self.out / "bench.json").write_text(json.dumps(bench, indent=2) + "\n", encoding="utf-8")
        text = self.markdown(bench)
        (self.out / "bench.md").write_text(text, encoding="utf-8")
        print(text)
        log(f"wrote {self.out / 'bench.json'} and {self.out / 'bench.md'} ({bench['bench_seconds']} s)")
        return 1 if self.errors else 0


# --------------------------------------------------------------------------------------
# Parse floor (module level, so that pool workers can run it)
# --------------------------------------------------------------------------------------


def _parser():  # type: ignore[no-untyped-def]
    import tree_sitter_python
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_python.language()))


def parse_blobs(blobs: Sequence[bytes]) -> float:
    parser = _parser()
    started = time.perf_counter()
    for blob in blobs:
        parser.parse(blob)
    return time.perf_counter() - started


_BARRIER: Any = None


def _init_floor_worker(barrier: Any) -> None:
    global _BARRIER
    _BARRIER = barrier


def _floor_worker(items: list[tuple[str, str]]) -> float:
    blobs = read_members(items)  # untimed
    parser = _parser()
    # Every worker holds one share and starts parsing when all have read theirs: the shares
    # run concurrently, as they would on the cores, and no worker can take two shares.
    _BARRIER.wait(timeout=600)
    started = time.perf_counter()
    for blob in blobs:
        parser.parse(blob)
    return time.perf_counter() - started


# --------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", action="store_true",
                        help="a tiny generated pair (the eval fixture package and an edited copy) instead of "
                        "the pinned corpus: validates the script in seconds")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="where bench.json and bench.md go (default out/bench)")
    parser.add_argument("--repeat", type=int, default=1, help="repeat every measurement N times, report medians")
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS), help="corpus manifest of the pinned pair")
    parser.add_argument("--parse-procs", type=int, default=2, help="processes for the spread parse floor (default 2)")
    parser.add_argument("--work-dir", default=None, help="parent folder of the temporary work folder")
    parser.add_argument("--keep-work", action="store_true", help="keep the work folder (trees, caches, outputs)")
    parser.add_argument("--fallback-timer", action="store_true",
                        help="use getrusage/perf_counter even when /usr/bin/time is present (for testing)")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.parse_procs < 1:
        parser.error("--repeat and --parse-procs take a positive number")
    bench = Bench(args)
    try:
        return bench.run()
    except BenchError as exc:
        log(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        log("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
