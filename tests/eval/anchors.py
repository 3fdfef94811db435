"""Adapters that run two other clone detectors and turn their output into lines.csv rows.

The accuracy comparison scores every tool on the same schema: one row per physical
line of every target Python file, saying whether the line was copied from the upstream
tree (``verbatim``/``near``) or not (``none``), and from where.  This module runs

* jscpd 5.3.2 (npm; a Rust binary since v5) with its default detection settings, and
* copydetect 0.5.0 (PyPI; winnowing over pygments-filtered code) with its defaults,

and converts what each reports into that schema.  Both adapters are deterministic: the
tools' findings are collected into sorted structures and ties are broken by fixed keys.
"""

from __future__ import annotations

import bisect
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from rapidfuzz import fuzz

from tests.eval.generate import line_kinds, read_source, split_lines

JSCPD_VERSION = "5.3.2"
COPYDETECT_VERSION = "0.5.0"

COLUMNS = [
    "target_path",
    "line",
    "kind",
    "match",
    "upstream_path",
    "upstream_line",
    "similarity",
]

PYTHON_SUFFIXES = (".py", ".pyi")



class AnchorToolError(RuntimeError):
    """A comparison tool is missing, failed, or produced no usable output."""


# --------------------------------------------------------------------------------------
# Reading trees and classifying lines
# --------------------------------------------------------------------------------------


def python_files(root: Path) -> list[str]:
    """POSIX paths (relative to ``root``) of every ``*.py``/``*.pyi`` file, sorted."""
    root = Path(root)
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in filenames:
            if not name.endswith(PYTHON_SUFFIXES):
                continue
            full = Path(dirpath) / name
            if full.is_file():
                found.append(full.relative_to(root).as_posix())
    return sorted(found)


def read_text(path: Path) -> str:
    """Decode a Python source file the way Python would (PEP 263), never failing."""
    return read_source(path)


def classify_lines(text: str) -> list[str]:
    """Kind of every physical line (code, comment, docstring, blank): the generator's rules, so
    that every tool's output is scored on the same lines."""
    return line_kinds(text)


def empty_lines_frame(target_dir: Path) -> pd.DataFrame:
    """All lines.csv rows for ``target_dir``, every one labelled ``none``."""
    target_dir = Path(target_dir)
    paths: list[str] = []
    numbers: list[int] = []
    kinds: list[str] = []
    for rel in python_files(target_dir):
        file_kinds = classify_lines(read_text(target_dir / rel))
        paths.extend([rel] * len(file_kinds))
        numbers.extend(range(1, len(file_kinds) + 1))
        kinds.extend(file_kinds)
    count = len(paths)
    frame = pd.DataFrame(
        {
            "target_path": pd.Series(paths, dtype=object),
            "line": pd.Series(numbers, dtype="int64"),
            "kind": pd.Series(kinds, dtype=object),
            "match": pd.Series(["none"] * count, dtype=object),
            "upstream_path": pd.Series([""] * count, dtype=object),
            "upstream_line": pd.Series([pd.NA] * count, dtype="Int64"),
            "similarity": pd.Series([0.0] * count, dtype="float64"),
        },
        columns=COLUMNS,
    )
    return frame.sort_values(["target_path", "line"], kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------------------
# Turning (target line -> upstream line) pairings into rows
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    upstream_path: str
    upstream_line: int
    match: str
    similarity: float
    weight: float  # size of the finding that produced it (tokens); larger wins ties

    def key(self) -> tuple:
        return (
            0 if self.match == "verbatim" else 1,
            -self.similarity,
            -self.weight,
            self.upstream_path,
            self.upstream_line,
        )


class _LineCache:
    def __init__(self) -> None:
        self._lines: dict[Path, list[str]] = {}

    def lines(self, path: Path) -> list[str]:
        if path not in self._lines:
            self._lines[path] = split_lines(read_text(path))
        return self._lines[path]


def _compare_lines(target_text: str, upstream_text: str) -> tuple[str, float]:
    a = target_text.strip()
    b = upstream_text.strip()
    if a == b:
        return "verbatim", 1.0
    return "near", round(fuzz.ratio(a, b) / 100.0, 6)


class _Collector:
    """Gathers candidate upstream lines per target line and keeps the best one."""

    def __init__(self, target_dir: Path, upstream_dir: Path) -> None:
        self.target_dir = target_dir
        self.upstream_dir = upstream_dir
        self.cache = _LineCache()
        self.best: dict[tuple[str, int], _Candidate] = {}

    def add(
        self,
        target_rel: str,
        target_line: int,
        upstream_rel: str,
        upstream_line: int,
        weight: float,
    ) -> None:
        t_lines = self.cache.lines(self.target_dir / target_rel)
        u_lines = self.cache.lines(self.upstream_dir / upstream_rel)
        if not (1 <= target_line <= len(t_lines)) or not u_lines:
            return
        upstream_line = min(max(upstream_line, 1), len(u_lines))
        match, similarity = _compare_lines(t_lines[target_line - 1], u_lines[upstream_line - 1])
        cand = _Candidate(upstream_rel, upstream_line, match, similarity, float(weight))
        slot = (target_rel, target_line)
        current = self.best.get(slot)
        if current is None or cand.key() < current.key():
            self.best[slot] = cand

    def frame(self) -> pd.DataFrame:
        frame = empty_lines_frame(self.target_dir)
        if not self.best:
            return frame
        index = {
            (path, line): i
            for i, (path, line) in enumerate(zip(frame["target_path"], frame["line"], strict=True))
        }
        rows: list[int] = []
        matches: list[str] = []
        up_paths: list[str] = []
        up_lines: list[int] = []
        sims: list[float] = []
        for slot in sorted(self.best):
            i = index.get(slot)
            if i is None:
                continue
            cand = self.best[slot]
            rows.append(i)
            matches.append(cand.match)
            up_paths.append(cand.upstream_path)
            up_lines.append(cand.upstream_line)
            sims.append(cand.similarity)
        if rows:
            frame.loc[rows, "match"] = matches
            frame.loc[rows, "upstream_path"] = up_paths
            frame.loc[rows, "upstream_line"] = pd.array(up_lines, dtype="Int64")
            frame.loc[rows, "similarity"] = sims
        return frame


def _which_tree(path: Path, roots: Sequence[tuple[str, Path]]) -> tuple[str, str] | None:
    """(tree name, POSIX path relative to that tree) for an absolute path, or None.

    The deepest matching root wins, so nested trees are told apart.
    """
    best: tuple[int, str, str] | None = None
    for name, root in roots:
        try:
            rel = path.relative_to(root)
        except ValueError:
            continue
        depth = len(root.parts)
        if best is None or depth > best[0]:
            best = (depth, name, rel.as_posix())
    if best is None:
        return None
    return best[1], best[2]


def _is_python(rel: str) -> bool:
    return rel.endswith(PYTHON_SUFFIXES)


# --------------------------------------------------------------------------------------
# jscpd
# --------------------------------------------------------------------------------------


def cache_dir() -> Path:
    """Root of lineage's cache: ``$LINEAGE_CACHE_DIR`` or ``~/.cache/lineage``."""
    env = os.environ.get("LINEAGE_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "lineage"


def _jscpd_dir() -> Path:
    return cache_dir() / "tools" / f"jscpd-{JSCPD_VERSION}"


def _jscpd_bin(prefix: Path) -> Path:
    name = "jscpd.cmd" if os.name == "nt" else "jscpd"
    return prefix / "node_modules" / ".bin" / name


def _jscpd_works(binary: Path) -> bool:
    if not binary.exists():
        return False
    try:
        out = subprocess.run(
            [str(binary), "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError:
        return False
    return out.returncode == 0 and JSCPD_VERSION in out.stdout


def ensure_jscpd() -> Path:
    """Install jscpd@5.3.2 into the tool cache once and return its ``jscpd`` command."""
    prefix = _jscpd_dir()
    binary = _jscpd_bin(prefix)
    if _jscpd_works(binary):
        return binary
    npm = shutil.which("npm")
    if npm is None:
        raise AnchorToolError(
            f"npm is not installed, so jscpd@{JSCPD_VERSION} cannot be installed; "
            "install Node.js and npm (e.g. `apt-get install nodejs npm`) and retry"
        )
    if shutil.which("node") is None:
        raise AnchorToolError("node is not installed; jscpd's npm launcher needs Node.js")
    prefix.parent.mkdir(parents=True, exist_ok=True)
    # Install into a private directory and move it into place, so that a half-finished
    # or concurrent install never leaves a broken cache entry behind.
    staging = prefix.parent / f".{prefix.name}.{os.getpid()}.tmp"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        proc = subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(staging),
                f"jscpd@{JSCPD_VERSION}",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise AnchorToolError(
                f"`npm install jscpd@{JSCPD_VERSION}` failed (exit {proc.returncode}):\n"
                f"{proc.stderr.strip() or proc.stdout.strip()}"
            )
        if prefix.exists() and not _jscpd_works(binary):
            shutil.rmtree(prefix, ignore_errors=True)
        try:
            staging.rename(prefix)
        except OSError:
            if not prefix.exists():
                raise
            # Someone else installed it meanwhile; theirs is as good as ours.
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if not _jscpd_works(binary):
        raise AnchorToolError(
            f"jscpd was installed into {prefix} but `{binary} --version` does not "
            f"report {JSCPD_VERSION}"
        )
    return binary


def jscpd_version() -> str:
    """The version string of the jscpd this module runs (e.g. ``"5.3.2"``)."""
    binary = ensure_jscpd()
    out = subprocess.run(
        [str(binary), "--version"], capture_output=True, text=True, check=True, timeout=60
    )
    text = out.stdout.strip()
    return text.split()[-1] if text else ""


def _jscpd_command(binary: Path, target: Path, upstream: Path, output: Path) -> list[str]:
    # Detection settings (min tokens 50, min lines 5, mode mild) are jscpd's defaults and
    # deliberately not passed.  jscpd 5 takes several paths as positional arguments.
    return [
        str(binary),
        str(target),
        str(upstream),
        "--format",
        "python",
        "--reporters",
        "json",
        "--output",
        str(output),
        # Report names are otherwise relative to the scanned path they were found under,
        # which leaves "pkg/x.py" ambiguous between the two trees.
        "--absolute",
        # Scan every target file, as lines.csv lists every one.
        "--no-gitignore",
        "--silent",
        "--no-tips",
        "--no-colors",
    ]


def _load_jscpd_report(path: Path, proc: subprocess.CompletedProcess) -> dict:
    detail = f"\nstdout: {proc.stdout.strip()}\nstderr: {proc.stderr.strip()}"
    if proc.returncode != 0:
        raise AnchorToolError(f"jscpd exited with status {proc.returncode}{detail}")
    if not path.exists() or path.stat().st_size == 0:
        raise AnchorToolError(f"jscpd wrote no JSON report at {path}{detail}")
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise AnchorToolError(f"jscpd's JSON report {path} is not valid JSON: {exc}") from exc
    if not isinstance(report, dict) or "duplicates" not in report:
        raise AnchorToolError(f"jscpd's JSON report {path} has no 'duplicates' list")
    sources = report.get("statistics", {}).get("total", {}).get("sources", 0)
    if not sources:
        raise AnchorToolError(
            f"jscpd analysed no source files (report {path}); the trees may hold no "
            f"Python file of at least 50 tokens{detail}"
        )
    return report


def run_jscpd(target_dir: Path, upstream_dir: Path, work_dir: Path) -> pd.DataFrame:
    """Run jscpd over both trees and return lines.csv rows for the target tree."""
    target = Path(target_dir).resolve()
    upstream = Path(upstream_dir).resolve()
    work = Path(work_dir).resolve()
    binary = ensure_jscpd()
    run_dir = work / "jscpd"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    output = run_dir / "report"
    proc = subprocess.run(
        _jscpd_command(binary, target, upstream, output),
        cwd=run_dir,  # an empty directory: no stray .jscpd.json gets picked up
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_COLOR": "1", "JSCPD_NO_TIPS": "1"},
    )
    report = _load_jscpd_report(output / "jscpd-report.json", proc)

    roots = [("target", target), ("upstream", upstream)]
    collector = _Collector(target, upstream)
    clones = []
    for dup in report["duplicates"]:
        sides = []
        for key in ("firstFile", "secondFile"):
            info = dup[key]
            where = _which_tree(Path(info["name"]), roots)
            if where is None:
                break
            sides.append((where[0], where[1], int(info["start"]), int(info["end"])))
        if len(sides) != 2 or {sides[0][0], sides[1][0]} != {"target", "upstream"}:
            continue  # a clone inside one tree
        tgt, ups = sides if sides[0][0] == "target" else sides[::-1]
        if not (_is_python(tgt[1]) and _is_python(ups[1])):
            continue
        clones.append((tgt[1], tgt[2], tgt[3], ups[1], ups[2], ups[3], int(dup["tokens"])))
    for t_path, t_start, t_end, u_path, u_start, u_end, tokens in sorted(clones):
        for offset in range(t_end - t_start + 1):
            u_line = min(u_start + offset, u_end)
            collector.add(t_path, t_start + offset, u_path, u_line, tokens)
    return collector.frame()


# --------------------------------------------------------------------------------------
# copydetect
# --------------------------------------------------------------------------------------


def ensure_copydetect() -> None:
    """Import copydetect, pip-installing copydetect==0.5.0 into this interpreter if absent."""
    try:
        module = importlib.import_module("copydetect")
    except ImportError:
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "install", f"copydetect=={COPYDETECT_VERSION}"],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise AnchorToolError(
                f"`pip install copydetect=={COPYDETECT_VERSION}` failed "
                f"(exit {proc.returncode}):\n{proc.stderr.strip() or proc.stdout.strip()}"
            ) from None
        importlib.invalidate_caches()
        module = importlib.import_module("copydetect")
    version = getattr(module, "__version__", "")
    if version != COPYDETECT_VERSION:
        raise AnchorToolError(
            f"copydetect {version or '(unknown version)'} is installed, but the comparison "
            f"is pinned to copydetect=={COPYDETECT_VERSION}"
        )


def copydetect_version() -> str:
    ensure_copydetect()
    import copydetect

    return str(copydetect.__version__)


class _Positions:
    """Character offset -> 1-based line number for one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def line_range(self, start: int, end: int) -> tuple[int, int] | None:
        """Lines covered by text[start:end], ignoring whitespace at either end."""
        start = max(start, 0)
        end = min(end, len(self.text))
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if start >= end:
            return None
        return self.line(start), self.line(end - 1)


def _to_raw(positions: Iterable[int], offsets) -> list[int]:
    """Filtered-code indexes -> raw-code indexes, exactly as copydetect maps its slices."""
    import numpy as np

    pos = np.asarray(list(positions), dtype=np.int64)
    if len(offsets) == 0 or pos.size == 0:
        return [int(p) for p in pos]
    shift = offsets[:, 1][np.clip(np.searchsorted(offsets[:, 0], pos), 0, offsets.shape[0] - 1)]
    return [int(p) for p in pos + shift]


_MAX_PAIRS_PER_FINGERPRINT = 64


def _pair_occurrences(t_list: list[int], u_list: list[int]) -> list[tuple[int, int]]:
    """Pair the occurrences of one shared fingerprint in the two files.

    Every combination is kept while there are few; a fingerprint repeated many times on
    both sides (tables, boilerplate) pairs each target occurrence with the upstream one at
    the same relative rank instead, so repetitive files stay linear in size.
    """
    if len(t_list) * len(u_list) <= _MAX_PAIRS_PER_FINGERPRINT:
        return [(i, j) for i in t_list for j in u_list]
    if len(t_list) == 1:
        return [(t_list[0], u_list[0])]
    scale = (len(u_list) - 1) / (len(t_list) - 1)
    return [(i, u_list[round(rank * scale)]) for rank, i in enumerate(t_list)]


def _copydetect_pairs(detector, test_f: str, ref_f: str):
    """Copied target slices of one file pair plus fingerprint anchors (t_pos, u_pos)."""
    test_data = detector.file_data[test_f]
    ref_data = detector.file_data[ref_f]
    slices_test, _slices_ref = detector.slice_matrix[(test_f, ref_f)]
    t_idx: list[int] = []
    u_idx: list[int] = []
    for h in sorted(test_data.hashes & ref_data.hashes):
        t_list = sorted(int(i) for i in test_data.hash_idx[h])
        u_list = sorted(int(i) for i in ref_data.hash_idx[h])
        for i, j in _pair_occurrences(t_list, u_list):
            t_idx.append(i)
            u_idx.append(j)
    anchors = list(
        zip(_to_raw(t_idx, test_data.offsets), _to_raw(u_idx, ref_data.offsets), strict=True)
    )
    slices = [(int(s), int(e)) for s, e in zip(slices_test[0], slices_test[1], strict=True)]
    return sorted(slices), sorted(anchors)


def _map_slice_lines(first: int, last: int, anchors: list[tuple[int, int]]) -> dict[int, int]:
    """Give every target line first..last a line delta (upstream - target).

    Lines that start a shared fingerprint take the delta of that fingerprint (the one most
    common in the slice when a fingerprint occurs several times upstream); the other lines
    take the delta of the nearest such line, preferring the one above.
    """
    if not anchors:
        return {}
    overall = Counter(delta for _, delta in anchors)
    per_line: dict[int, Counter] = {}
    for t_line, delta in anchors:
        per_line.setdefault(t_line, Counter())[delta] += 1
    chosen = {
        line: min(c, key=lambda d: (-overall[d], -c[d], abs(d), d)) for line, c in per_line.items()
    }
    anchored = sorted(chosen)
    result: dict[int, int] = {}
    for line in range(first, last + 1):
        if line in chosen:
            result[line] = chosen[line]
            continue
        k = bisect.bisect_left(anchored, line)
        options = []
        if k > 0:
            options.append((line - anchored[k - 1], 0, anchored[k - 1]))
        if k < len(anchored):
            options.append((anchored[k] - line, 1, anchored[k]))
        result[line] = chosen[min(options)[2]]
    return result


def run_copydetect(target_dir: Path, upstream_dir: Path, work_dir: Path) -> pd.DataFrame:
    """Run copydetect (target as test dir, upstream as reference dir) -> lines.csv rows.

    copydetect reports, per (test file, reference file) pair, the character slices of the
    test file that share winnowed fingerprints with the reference file.  The target lines
    those slices cover are labelled copied; the upstream line of each is found from the
    shared fingerprints themselves (their positions in both files give a line offset),
    since copydetect's slices of the two files are not paired with each other.
    """
    ensure_copydetect()
    from copydetect import CopyDetector

    target = Path(target_dir).resolve()
    upstream = Path(upstream_dir).resolve()
    work = Path(work_dir).resolve()
    run_dir = work / "copydetect"
    run_dir.mkdir(parents=True, exist_ok=True)
    detector = CopyDetector(
        test_dirs=[str(target)],
        ref_dirs=[str(upstream)],
        extensions=["py"],
        display_t=0.0,
        autoopen=False,
        silent=True,
        out_file=str(run_dir / "report.html"),
    )
    if not detector.test_files:
        raise AnchorToolError(f"copydetect found no *.py file in the target tree {target}")
    if not detector.ref_files:
        raise AnchorToolError(f"copydetect found no *.py file in the upstream tree {upstream}")
    detector.run()
    if len(detector.similarity_matrix) == 0:
        raise AnchorToolError("copydetect compared no files (see its log output)")

    roots = [("target", target), ("upstream", upstream)]
    collector = _Collector(target, upstream)
    test_index = {f: i for i, f in enumerate(detector.test_files)}
    ref_index = {f: j for j, f in enumerate(detector.ref_files)}
    for test_f, ref_f in sorted(detector.slice_matrix):
        t_where = _which_tree(Path(test_f), roots)
        u_where = _which_tree(Path(ref_f), roots)
        if t_where is None or u_where is None:
            continue
        if t_where[0] != "target" or u_where[0] != "upstream":
            continue
        if test_f not in test_index or ref_f not in ref_index:
            continue
        slices, anchors = _copydetect_pairs(detector, test_f, ref_f)
        if not anchors:
            continue
        t_pos = _Positions(detector.file_data[test_f].raw_code)
        u_pos = _Positions(detector.file_data[ref_f].raw_code)
        weight = int(detector.token_overlap_matrix[test_index[test_f], ref_index[ref_f]])
        anchor_starts = [t for t, _ in anchors]
        line_anchors = [(t_pos.line(t), u_pos.line(u) - t_pos.line(t)) for t, u in anchors]
        for start, end in slices:
            span = t_pos.line_range(start, end)
            if span is None:
                continue
            first, last = span
            lo = bisect.bisect_left(anchor_starts, start)
            hi = bisect.bisect_left(anchor_starts, end)
            inside = line_anchors[lo:hi] or line_anchors
            deltas = _map_slice_lines(first, last, inside)
            for line in range(first, last + 1):
                if line in deltas:
                    collector.add(t_where[1], line, u_where[1], line + deltas[line], weight)
    return collector.frame()
