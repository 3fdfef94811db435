"""``lineage drift``: which upstream commits since a fork point a target carries.

    from lineage.fork.drift import run_drift
    result = run_drift("path/to/fork", "path/to/upstream@v1.0..main")
    result.commits.head()     # one row per upstream commit touching Python files, oldest first
    result.write("out/")      # drift.csv, drift.json

**Commits.** The first-parent commits of ``REPO@BASE..HEAD`` (as :func:`lineage.history.parse_range`
walks them, the base left out), oldest first; each is diffed against its first parent, so a merge
counts as the whole change it brought. Only commits touching Python files are kept.

**Pairing.** The target is compared with the upstream at BASE (``pair_at="base"``), or at each
commit's parent (``pair_at="parent"``), by :func:`lineage.api.compare_trees`: a target file
*corresponds* to the upstream file it copies most from (``upstream_path`` of ``files.csv``), so a
renamed package or a vendored folder pairs like any other copy. From the pairs a folder map is
learnt (``src/packaging`` -> ``src/pkgfork``, by the path components the pair does not share): an
upstream file that is new since the pairing reference maps through it to the target path it would
have; when the target has that file it is the counterpart, when the target holds that folder but
not the file the commit's lines count as missing, otherwise the file is outside the target.

**Lines.** Per touched file, the commit's change is counted on stripped non-blank lines as a
multiset: a text the commit adds ``d`` times more than its parent had is *present* as many times
as the counterpart holds it beyond the parent's count (at most ``d``); a text it removes ``d``
times is *absent* as many times as the counterpart holds it fewer times than the parent did.
Only *telling* texts are counted: ones the file did not hold before (added) or no longer holds
after (removed). A text such as ``return None`` or ``)`` that the file holds on both sides
is left out, because the target's count of it moves with every other commit it took or not;
only a change made of such texts alone is counted on them. ``lines_added`` and
``lines_removed`` are the counted lines. With a renamed package, a line also matches with the
upstream package name replaced by the target's (``from packaging.version`` ->
``from pkgfork.version``). With several counterparts, the one that carries most of the change is
used.

**Later commits.** Commits are judged newest first: an added line the target lacks because a
later *applied* commit removed it again is ``added_superseded`` (and a removed line the target
holds because one added it back, ``removed_superseded``); both leave the shares' denominators.
A removed line the target lacks is evidence only if the target had it: the upstream file at
BASE held it, or a commit the first pass found applied on evidence of its own (an added line
present, or a removed line it had and lost) brought it; other such lines are not counted, so a
chain of commits on a module the fork never had is not "applied" by absences alone.

**Status** (thresholds in :class:`DriftParams`): ``not_applicable`` when no touched file has a
counterpart or an expected place in the target, or no changed line is left to check;
``applied`` when at least ``applied_min_share`` of the added lines are present and of the
removed lines absent; ``missing`` when at most ``missing_max_share`` of all changed lines are;
``partial`` otherwise.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd

from lineage.errors import LineageError
from lineage.fork.forkpoint import restrict, target_inputs
from lineage.history.range import CommitInfo, open_repo, parse_range
from lineage.index import IndexCache, TreeIndex, index_tree
from lineage.index.records import decode_source, is_python_path, split_lines
from lineage.match import MatchParams
from lineage.settings import DEFAULT_MAX_FILE_BYTES, default_cache_dir
from lineage.sources import open_source

# Change log of drift.json:
#   1: first version (target, upstream range, pairing, parameters, counts per status, commits).
DRIFT_FORMAT = "lineage.drift"
DRIFT_VERSION = 1

STATUSES = ("applied", "partial", "missing", "not_applicable")
DRIFT_COLUMNS = ["commit", "date", "subject", "pr", "files", "lines_added", "added_present",
                 "lines_removed", "removed_absent", "status", "target_files", "added_superseded",
                 "removed_superseded", "order"]
PAIR_AT = ("base", "parent")

_PR_SUFFIX = re.compile(r"\(#(\d+)\)")
_PR_MERGE = re.compile(r"^Merge pull request #(\d+)\b")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class DriftParams:
    """The thresholds that turn line counts into a status; all of them reach drift.json."""

    # A commit is applied when at least this share of its added lines are present in the
    # counterparts and of its removed lines absent (each on its own: a fix that only deletes
    # lines must have deleted them).
    applied_min_share: float = 0.9
    # ...and missing when at most this share of all its changed lines are (a few of its lines
    # may be present by coincidence, or by the fork's own edits).
    missing_max_share: float = 0.1

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                    or not 0.0 <= value <= 1.0:
                raise LineageError(f"drift parameter {f.name} must be a number in [0, 1], not {value!r}")
            object.__setattr__(self, f.name, float(value))
        if self.missing_max_share >= self.applied_min_share:
            raise LineageError("drift parameter missing_max_share must be below applied_min_share")

    def to_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)

    @classmethod
    def with_overrides(cls, **values: float | None) -> DriftParams:
        """The defaults with the values that were given (None: not given)."""
        return cls(**{k: v for k, v in values.items() if v is not None})  # type: ignore[arg-type]


def pr_number(subject: str) -> str:
    """The pull request a commit subject names: ``... (#123)`` or ``Merge pull request #123``."""
    merged = _PR_MERGE.match(subject)
    if merged:
        return merged.group(1)
    found = _PR_SUFFIX.findall(subject)
    return found[-1] if found else ""


# --------------------------------------------------------------------------- pairing


@dataclass
class Pairing:
    """Which target files correspond to which upstream files, at one upstream tree."""

    upstream_paths: frozenset[str]  # Python files of the upstream tree paired against
    by_upstream: dict[str, list[str]]  # upstream path -> target paths pairing with it
    paired_targets: frozenset[str]
    folders: dict[tuple[str, ...], tuple[str, ...]]  # upstream folder -> target folder
    renames: dict[str, str]  # upstream package name -> target package name
    tree_digest: str = ""

    def mapped(self, upstream_path: str) -> str:
        """The target path an upstream file maps to through the folder map, "" when none does."""
        parts = PurePosixPath(upstream_path).parts
        for cut in range(len(parts) - 1, -1, -1):
            target = self.folders.get(parts[:cut])
            if target is not None:
                return "/".join([*target, *parts[cut:]])
        return ""


def learn_pairing(pairs: Iterable[tuple[str, str]], upstream_paths: Iterable[str], tree_digest: str = "",
                  ) -> Pairing:
    """The pairing and folder map from (target path, upstream path) pairs."""
    by_upstream: dict[str, list[str]] = {}
    renames: Counter[tuple[str, str]] = Counter()
    votes: dict[tuple[str, ...], Counter[tuple[str, ...]]] = {}
    for target, upstream in sorted(set(pairs)):
        by_upstream.setdefault(upstream, []).append(target)
        t, u = PurePosixPath(target).parts, PurePosixPath(upstream).parts
        shared = 0
        while shared < min(len(t), len(u)) and t[-1 - shared] == u[-1 - shared]:
            shared += 1
        if shared:  # same file name: the folders above the shared tail correspond
            votes.setdefault(u[:len(u) - shared], Counter())[t[:len(t) - shared]] += 1
        # Only the file name shared: the package holding it was renamed (a folder moved whole,
        # ``src/pkg`` -> ``vendor/pkg``, keeps its imports).
        if shared == 1 and len(t) > 1 and len(u) > 1 and _IDENTIFIER.fullmatch(t[-2]) \
                and _IDENTIFIER.fullmatch(u[-2]):
            renames[(u[-2], t[-2])] += 1
    folders = {u: max(c.items(), key=lambda kv: (kv[1], kv[0]))[0] for u, c in votes.items()}
    by_name: dict[str, str] = {}
    for (old, new), _ in sorted(renames.items(), key=lambda kv: (-kv[1], kv[0])):
        by_name.setdefault(old, new)
    return Pairing(frozenset(upstream_paths), by_upstream,
                   frozenset(t for ts in by_upstream.values() for t in ts), folders, by_name, tree_digest)


def pair_trees(target: TreeIndex, upstream: TreeIndex, params: MatchParams, cache_root: Path | None) -> Pairing:
    """Compare ``target`` with ``upstream`` (files table only) and learn the pairing."""
    from lineage.api import compare_trees

    files = compare_trees(target, [upstream], params, cache_root=cache_root, figures_only=True).files
    indexed = files[(files["status"] == "indexed") & (files["upstream_path"] != "")]
    pairs = zip(indexed["target_path"].astype(str), indexed["upstream_path"].astype(str), strict=True)
    return learn_pairing(pairs, [f.path for f in upstream.files], upstream.tree_digest)


# --------------------------------------------------------------------------- lines


def stripped_lines(data: bytes | None) -> Counter[str]:
    """Stripped non-blank lines of a Python file, with their counts (undecodable: none)."""
    if not data:
        return Counter()
    try:
        text, _ = decode_source(data)
    except (UnicodeDecodeError, LookupError):
        return Counter()
    return Counter(s for s in (line.strip() for line in split_lines(text)) if s)


def _renamer(renames: dict[str, str]) -> Any:
    if not renames:
        return None
    pattern = re.compile(r"(?<![\w.])(" + "|".join(re.escape(n) for n in sorted(renames, key=len, reverse=True))
                         + r")\b")
    return lambda text: pattern.sub(lambda m: renames[m.group(1)], text)


@dataclass(frozen=True)
class FileChange:
    """One touched upstream Python file: its paths before and after, and its stripped lines."""

    old_path: str  # "" when added
    new_path: str  # "" when deleted
    before: Counter[str]
    after: Counter[str]

    @property
    def path(self) -> str:
        return self.new_path or self.old_path


def count_change(change: FileChange, target: Counter[str], rename: Any = None,
                 removed_later: Counter[str] | None = None, added_later: Counter[str] | None = None,
                 at_base: Counter[str] | None = None) -> tuple[int, int, int, int, int, int]:
    """(added, present, removed, absent, added_superseded, removed_superseded) of one file
    change against one counterpart's lines.

    ``removed_later`` / ``added_later``: texts that later applied commits removed from / added
    to this file. An added line the target lacks because such a commit removed it again is
    *superseded* (and a removed line the target has because one added it back), not missing.
    ``at_base``: the file's lines at BASE; a removed line absent from the target that BASE did
    not hold either is not counted.
    """
    added = present = removed = absent = added_superseded = removed_superseded = 0
    removed_later = removed_later or Counter()
    added_later = added_later or Counter()
    changed = [t for t in change.before.keys() | change.after.keys() if change.before[t] != change.after[t]]
    # A text the file holds both before and after (``"""``, ``)``, ``return None``) is ambiguous:
    # the target's count of it also moves with every other commit it did or did not take. Such
    # texts are counted only when the change has no other line.
    telling = [t for t in changed if not (change.before[t] and change.after[t])]
    for text in telling or changed:
        before, after = change.before[text], change.after[text]
        held = target[text]
        if rename is not None:
            renamed = rename(text)
            if renamed != text:
                held += target[renamed]
        if after > before:
            added += after - before
            found = min(after - before, max(0, held - before))
            present += found
            added_superseded += min(after - before - found, removed_later[text])
        else:
            removed += before - after
            gone = min(before - after, max(0, before - held))
            if at_base is not None:
                unproven = gone - min(gone, at_base[text])
                gone -= unproven
                removed -= unproven
            absent += gone
            removed_superseded += min(before - after - gone, added_later[text])
    return added, present, removed, absent, added_superseded, removed_superseded


def _deltas(change: FileChange) -> list[tuple[str, int]]:
    """(text, after - before) of every text the change adds or removes copies of."""
    return [(t, change.after[t] - change.before[t]) for t in sorted(change.before.keys() | change.after.keys())
            if change.after[t] != change.before[t]]


def _gone_from_target(change: FileChange, had: Counter[str], counterparts: list[str],
                      target_lines: dict[str, Counter[str]]) -> bool:
    """Whether a text the change removes, which the target had (``had``), is gone from it."""
    for text, delta in _deltas(change):
        if delta < 0 and had[text] and all(target_lines[t][text] < change.before[text] for t in counterparts):
            return True
    return False


def classify(added: int, present: int, removed: int, absent: int, params: DriftParams) -> str:
    """The status of a commit from its line counts over the files the target has a place for."""
    if added + removed == 0:
        return "not_applicable"
    share_added = present / added if added else 1.0
    share_removed = absent / removed if removed else 1.0
    if share_added >= params.applied_min_share and share_removed >= params.applied_min_share:
        return "applied"
    if (present + absent) / (added + removed) <= params.missing_max_share:
        return "missing"
    return "partial"


# --------------------------------------------------------------------------- the run


@dataclass
class DriftResult:
    """One row per upstream commit, and the inputs that reproduce them."""

    commits: pd.DataFrame
    inputs: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        found = self.commits["status"].value_counts()
        return {s: int(found.get(s, 0)) for s in STATUSES}

    def to_json(self) -> dict[str, Any]:
        return {"format": DRIFT_FORMAT, "format_version": DRIFT_VERSION, **self.inputs,
                "commits_checked": len(self.commits), "counts": self.counts(),
                "outputs": ["drift.csv", "drift.json"]}

    def write(self, out_dir: str | Path) -> list[Path]:
        from lineage.report.outdir import write_outputs

        return write_outputs(Path(out_dir), [
            ("drift.csv", lambda p: self.commits.to_csv(p, index=False, lineterminator="\n")),
            ("drift.json", lambda p: p.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")),
        ])


def _log(message: str, progress: bool) -> None:
    if progress:
        print(f"lineage: {message}", file=sys.stderr, flush=True)


def _file_changes(repo: Any, parent: Any, commit: Any) -> list[FileChange]:
    """The Python files ``commit`` changed against ``parent`` (renames detected by git)."""
    changes = []
    for diff in parent.diff(commit):  # GitPython passes -M: a moved file is one change
        old = diff.a_path if diff.a_blob is not None else ""
        new = diff.b_path if diff.b_blob is not None else ""
        if not (is_python_path(old) or is_python_path(new)):
            continue
        before = stripped_lines(diff.a_blob.data_stream.read()) if old and is_python_path(old) else Counter()
        after = stripped_lines(diff.b_blob.data_stream.read()) if new and is_python_path(new) else Counter()
        changes.append(FileChange(old if is_python_path(old) else "", new if is_python_path(new) else "",
                                  before, after))
    return sorted(changes, key=lambda c: (c.path, c.old_path))


def _counterparts(change: FileChange, pairing: Pairing, target_paths: frozenset[str],
                  target_folders: frozenset[str]) -> tuple[list[str], bool]:
    """(target files corresponding to the changed file, whether the target has a place for it)."""
    found: list[str] = []
    for path in (change.old_path, change.new_path):
        for t in pairing.by_upstream.get(path, []) if path else []:
            if t not in found:
                found.append(t)
    # The target path the file maps to: the counterpart of a file new since the pairing (which
    # the target file, had it been there, paired with something else), or of one changed past
    # recognition (when that target file paired with nothing).
    new_since = bool(change.old_path) and change.old_path not in pairing.upstream_paths or not change.old_path
    for path in (change.old_path, change.new_path):
        mapped = pairing.mapped(path) if path else ""
        if mapped in target_paths and mapped not in found and (new_since or mapped not in pairing.paired_targets):
            found.append(mapped)
    if found:
        return found, True
    if change.new_path and change.old_path in pairing.upstream_paths:
        return [], False  # the target does not carry this upstream file
    # A file new since the pairing (its lines are missing), or one the commit deletes (its lines
    # are absent), where the target holds the folder it belongs in.
    mapped = pairing.mapped(change.path)
    return [], bool(mapped) and str(PurePosixPath(mapped).parent) in target_folders


def _select(infos: list[CommitInfo], prs: dict[str, str], commits: Sequence[str], pr_numbers: Sequence[str]
            ) -> list[CommitInfo]:
    if not commits and not pr_numbers:
        return infos
    keep: set[str] = set()
    for prefix in commits:
        prefix = prefix.strip().lower()
        if len(prefix) < 4 or not re.fullmatch(r"[0-9a-f]+", prefix):
            raise LineageError(f"--commits: {prefix!r} is not a commit id (4 to 40 hex digits)")
        hits = [c.sha for c in infos if c.sha.startswith(prefix)]
        if not hits:
            raise LineageError(f"--commits: {prefix} is not a commit of the range")
        if len(hits) > 1:
            raise LineageError(f"--commits: {prefix} is ambiguous in the range")
        keep.add(hits[0])
    for number in pr_numbers:
        number = number.strip().lstrip("#")
        if not number.isdigit():
            raise LineageError(f"--prs: {number!r} is not a pull request number")
        hits = [c.sha for c in infos if prs[c.sha] == str(int(number))]
        if not hits:
            raise LineageError(f"--prs: no commit of the range names pull request #{number}")
        keep.update(hits)
    return [c for c in infos if c.sha in keep]


def auto_base(target: str, range_spec: str, *, target_path: str = "", tags_only: bool = False, every: int = 1,
              params: MatchParams | None = None, jobs: int | None = None, cache_dir: Path | None = None,
              use_cache: bool = True, progress: bool = False) -> tuple[str, dict[str, Any]]:
    """The oldest rank-1 commit of ``lineage forkpoint`` over the range, and what forkpoint said."""
    from lineage.fork.forkpoint import run_forkpoint

    found = run_forkpoint(target, [range_spec], tags_only=tags_only, every=every, target_path=target_path,
                          params=params, jobs=jobs, cache_dir=cache_dir, use_cache=use_cache, progress=progress)
    best = found.best.sort_values("order")
    commit = str(best["candidate"].iat[0]).rsplit("@", 1)[1]
    return commit, {"candidates": len(found.candidates), "best": [str(c).rsplit("@", 1)[1] for c in best["candidate"]],
                    "distance": int(best["distance"].iat[0]), "commit": commit}


def run_drift(target: str, range_spec: str, *, commits: Sequence[str] = (), prs: Sequence[str] = (),
              base: str = "", pair_at: str = "base", target_path: str = "", drift_params: DriftParams | None = None,
              params: MatchParams | None = None, jobs: int | None = None, cache_dir: Path | None = None,
              use_cache: bool = True, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES, forkpoint_tags: bool = False,
              forkpoint_every: int = 1, progress: bool = False) -> DriftResult:
    """Classify each upstream commit of ``range_spec`` (``REPO@BASE..HEAD``); see the module docstring.

    ``base="auto"`` replaces BASE by the commit :func:`auto_base` finds among the range's commits.
    """
    params = params or MatchParams()
    drift_params = drift_params or DriftParams()
    if pair_at not in PAIR_AT:
        raise LineageError(f"--pair-at must be one of {', '.join(PAIR_AT)}, not {pair_at!r}")
    if "@" not in range_spec or ".." not in range_spec.rsplit("@", 1)[1]:
        raise LineageError(f"drift needs UPSTREAM_REPO@BASE..HEAD, got {range_spec!r}")
    started = time.perf_counter()
    forkpoint: dict[str, Any] = {}
    if base == "auto":
        best, forkpoint = auto_base(target, range_spec, target_path=target_path, tags_only=forkpoint_tags,
                                    every=forkpoint_every, params=params, jobs=jobs, cache_dir=cache_dir,
                                    use_cache=use_cache, progress=progress)
        repo_part, refs = range_spec.rsplit("@", 1)
        range_spec = f"{repo_part}@{best}..{refs.split('..', 1)[1]}"
        _log(f"--base auto: forkpoint's closest commit is {best[:12]}", progress)
    elif base:
        raise LineageError(f"--base takes only 'auto' (give BASE in the range), not {base!r}")
    walked = parse_range(range_spec)
    infos = walked.commits[1:]  # the base itself is the fork point, not a change
    if not infos:
        raise LineageError(f"no upstream commit in {range_spec.rsplit('@', 1)[1]!r} after its base")
    pr_of = {c.sha: pr_number(c.subject) for c in infos}
    infos = _select(infos, pr_of, commits, prs)

    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cache = IndexCache(root if use_cache else None)
    cache_root = root if use_cache else None
    with open_source(target, root) as source:
        target_tree = restrict(index_tree(source, cache, jobs, max_file_bytes), target_path)
    if not target_tree.files:
        raise LineageError(f"target {target} holds no Python file to compare")
    target_lines = {f.path: Counter(s for s in (x.strip() for x in target_tree.lines(f.path)) if s)
                    for f in target_tree.files}
    target_paths = frozenset(target_lines)
    target_folders = frozenset(str(PurePosixPath(p).parent) for p in target_paths)

    known: dict[str, Any] = {}
    pairings: dict[str, Pairing] = {}

    def pairing_at(sha: str) -> Pairing:
        with open_source(f"{walked.repo}@{sha}", root) as up_source:
            tree = index_tree(up_source, cache, jobs, max_file_bytes, known=known)
        if tree.tree_digest not in pairings:
            pairings[tree.tree_digest] = pair_trees(target_tree, tree, params, cache_root)
        return pairings[tree.tree_digest]

    base_pairing = pairing_at(walked.base_sha)
    with open_source(f"{walked.repo}@{walked.base_sha}", root) as up_source:
        base_tree = index_tree(up_source, cache, jobs, max_file_bytes, known=known)
    base_files = {f.path for f in base_tree.files}

    def at_base(path: str) -> Counter[str]:
        if path not in base_files:
            return Counter()
        return Counter(s for s in (x.strip() for x in base_tree.lines(path)) if s)

    _log(f"pairing at {walked.base_sha[:12]}: {len(base_pairing.paired_targets)} of {len(target_paths)} "
         f"target files correspond to upstream files", progress)
    every = walked.commits[1:]
    order_of = {c.sha: k for k, c in enumerate(every)}
    repo = open_repo(walked.repo)
    touched: list[tuple[CommitInfo, list[FileChange], Pairing]] = []
    with contextlib.closing(repo):
        for info in every:  # the whole range: a later commit may explain an earlier one's lines
            commit = repo.commit(info.sha)
            if not commit.parents:
                continue
            changes = _file_changes(repo, commit.parents[0], commit)
            if changes:
                pairing = base_pairing if pair_at == "base" else pairing_at(commit.parents[0].hexsha)
                touched.append((info, changes, pairing))

    def evaluate(proven: list[dict[str, Counter[str]]] | None) -> list[dict[str, Any]]:
        """One row per touched commit. Newest first, so that when an older commit's line is gone
        (or back) because a later commit changed it again, that later commit's status is known:
        only an applied one excuses it. ``proven[k]``: per upstream path, the lines the target
        can be expected to have held before commit ``k`` (none given: every absence counts)."""
        later_removed: dict[str, Counter[str]] = {}  # path -> texts later applied commits removed
        later_added: dict[str, Counter[str]] = {}
        rows: list[dict[str, Any]] = []
        for k in range(len(touched) - 1, -1, -1):
            info, changes, pairing = touched[k]
            rename = _renamer(pairing.renames)
            totals = [0] * 6
            used: list[str] = []
            for change in changes:
                found, has_place = _counterparts(change, pairing, target_paths, target_folders)
                if not has_place:
                    continue
                path = change.new_path
                excused = (later_removed.get(path, Counter()), later_added.get(path, Counter()),
                           None if proven is None else proven[k].get(change.old_path, Counter()))
                best = count_change(change, Counter(), rename, *excused)
                choice = ""
                for t in found:
                    counted = count_change(change, target_lines[t], rename, *excused)
                    if not choice or counted[1] + counted[3] > best[1] + best[3]:
                        best, choice = counted, t
                if choice:
                    used.append(choice)
                totals = [a + b for a, b in zip(totals, best, strict=True)]
            added, present, removed, absent, added_superseded, removed_superseded = totals
            status = classify(added - added_superseded, present, removed - removed_superseded, absent,
                              drift_params)
            if status == "applied":
                for change in changes:
                    if not change.old_path:
                        continue
                    for text, delta in _deltas(change):
                        if delta < 0:
                            later_removed.setdefault(change.old_path, Counter())[text] -= delta
                        else:
                            later_added.setdefault(change.old_path, Counter())[text] += delta
            rows.append({"commit": info.sha, "date": info.date, "subject": info.subject, "pr": pr_of[info.sha],
                         "files": " ".join(c.path for c in changes), "lines_added": added,
                         "added_present": present, "lines_removed": removed, "removed_absent": absent,
                         "status": status, "target_files": " ".join(sorted(set(used))),
                         "added_superseded": added_superseded, "removed_superseded": removed_superseded,
                         "order": order_of[info.sha]})
        return rows[::-1]

    # A removed line is evidence only if the target had it: it was at BASE, or came with a commit
    # the first pass found applied on evidence of its own, oldest first: an added line present,
    # or a removed line gone that the target had (a chain of commits on a file the target never
    # had is "applied" by absences alone). The second pass leaves the other absences out.
    first = evaluate(None)
    proven: list[dict[str, Counter[str]]] = []
    held: dict[str, Counter[str]] = {}
    for (_, changes, pairing), row in zip(touched, first, strict=True):
        before = {c.old_path: held.setdefault(c.old_path, at_base(c.old_path)).copy()
                  for c in changes if c.old_path}
        proven.append(before)
        if row["status"] != "applied":
            continue
        if not row["added_present"] and not any(
                _gone_from_target(c, before[c.old_path], _counterparts(c, pairing, target_paths, target_folders)[0],
                                  target_lines) for c in changes if c.old_path):
            continue
        for c in changes:
            if c.new_path:
                held.setdefault(c.new_path, at_base(c.new_path)).update({t: d for t, d in _deltas(c) if d > 0})
    rows = evaluate(proven)
    chosen = {c.sha for c in infos}
    rows = [r for r in rows if r["commit"] in chosen]
    frame = pd.DataFrame(rows, columns=DRIFT_COLUMNS)
    frame = frame.sort_values(["order"], kind="stable").reset_index(drop=True)
    _log(f"{len(frame)} commits touching Python files checked in {time.perf_counter() - started:.1f} s", progress)
    inputs = {
        **target_inputs(target, target_tree, target_path),
        "upstream": {"repository": str(walked.repo), "range": range_spec, "base_commit": walked.base_sha,
                     "head_commit": walked.tip_sha, "first_parent": True,
                     "commits_in_range": walked.commits_in_range - 1},
        "base_auto": forkpoint,
        "selection": {"commits": list(commits), "prs": list(prs)},
        "pairing": {"pair_at": pair_at, "base_tree_digest": base_pairing.tree_digest,
                    "paired_target_files": len(base_pairing.paired_targets),
                    "folders": {"/".join(u): "/".join(t) for u, t in sorted(base_pairing.folders.items())},
                    "package_renames": dict(sorted(base_pairing.renames.items()))},
        "drift_parameters": drift_params.to_dict(),
        "parameters": params.to_dict(),
        "seconds": round(time.perf_counter() - started, 3),
    }
    return DriftResult(commits=frame, inputs=inputs)


def parse_list(text: str) -> list[str]:
    """``a,b, c`` -> ``["a", "b", "c"]`` (for --commits and --prs)."""
    return [p.strip() for p in text.split(",") if p.strip()]


__all__ = ["DRIFT_COLUMNS", "STATUSES", "DriftParams", "DriftResult", "auto_base", "classify", "count_change",
           "learn_pairing", "pr_number", "run_drift"]
