"""``lineage drift``: which upstream commits since a fork point a target carries.

    from lineage.fork.drift import run_drift
    result = run_drift("path/to/fork", "path/to/upstream@v1.0..main")
    result.commits.head()     # one row per upstream commit touching Python files, oldest first
    result.write("out/")      # drift.csv, drift.json

**Commits.** The first-parent commits of ``REPO@BASE..HEAD`` (as :func:`lineage.history.parse_range`
walks them, the base left out), oldest first; each is diffed against its first parent, so a merge
counts as the whole change it brought. Only commits touching Python files are kept. BASE may lie off
HEAD's first-parent line (a patch release tagged on a maintenance branch, as ``--base auto --tags``
can find): the commits are then HEAD's first-parent commits BASE does not contain, and the merge
that brought the maintenance branch back counts as one change, less what it merged in of BASE's own
history (BASE's fixes, and its branch's earlier ones merged before it, are the target's from the
start, not changes it carried).

**Pairing.** The target is compared with the upstream at BASE (``pair_at="base"``), or at each
commit's parent (``pair_at="parent"``), by :func:`lineage.api.compare_trees`: a target file
*corresponds* to the upstream file it copies most from (``upstream_path`` of ``files.csv``), so a
renamed package or a vendored folder pairs like any other copy. From the pairs a folder map is
learnt (``src/packaging`` -> ``src/pkgfork``, by the path components the pair does not share): an
upstream file that is new since the pairing reference maps through it to the target path it would
have; when the target has that file it is the counterpart, when the target holds that folder but
not the file the commit's lines count as missing (a test module's only when that folder holds
test modules: a wheel ships none), otherwise the file is outside the target.

**Lines.** Per touched file, the commit's change is counted on non-blank lines as a multiset,
code lines as tokens with one quote style for a string on one line
(:func:`lineage.index.normalise.formatting_free`: a fork that ran black keeps its lines), lines
inside a multi-line string as they are: a
text the commit adds ``d`` times more than its parent had is *present* as many times as the
counterpart holds it beyond the count it can be shown to have had (at most ``d``; **Later
commits**); a text it removes ``d`` times is *absent* as many times as the counterpart holds it
fewer times than that count.
Only *telling* texts are counted: ones the file did not hold before (added) or no longer holds
after (removed). A text such as ``return None`` or ``)`` that the file holds on both sides
is left out, because the target's count of it moves with every other commit it took or not;
only a change made of such texts alone is counted on them, on those of at least
``fallback_min_tokens`` (3) tokens when it has any (``try :`` and ``finally :`` wrapped around
a new call are left to the call). ``lines_added`` and
``lines_removed`` are the counted lines. With a renamed package, a line also matches with its
dotted module names read in the target's, learnt from the pairs (``from vllm.sequence`` ->
``from aphrodite.common.sequence``), else with the upstream package name replaced by the
target's (``from packaging.version`` -> ``from pkgfork.version``). With several counterparts,
the one that carries most of the change is used. A change that only reorders a file's lines (its
multiset the same: a fix that moves a statement before another) is judged by order against the
counterpart that carries most of the file (:func:`lineage.fork.drift_rules.count_move`): of the
texts the file and the counterpart each hold once, those outside the longest common
subsequence of the two orders moved; one the counterpart holds between its new neighbours (not
its old) counts as a line added and present and a line removed and gone, one between its old
neighbours (not its new) as a line added and removed, neither present nor gone; one elsewhere is
not counted (not_applicable when none is; before 2026-12-07 every such change was). Lines are
read in the target's names as above.

**Later commits.** Commits are judged newest first: an added line the target lacks because a
later *applied* commit removed it again is ``added_superseded`` (and a removed line the target
holds because one added it back, ``removed_superseded``); both leave the shares' denominators.
A removed line the target lacks is evidence only if the target had it: the upstream file at
BASE held it, or a commit the first pass found applied on evidence of its own (an added line
present, or a removed line it had and lost) brought it; other such lines are not counted, so a
chain of commits on a module the fork never had is not "applied" by absences alone. That count
(BASE's, plus what such applied commits brought, at most the parent's;
:func:`lineage.fork.drift_rules.could_have_had`) is the baseline of both sides: a copy is absent
below it and present beyond it, not below or beyond the parent's count, which holds the copies
the upstream added after the fork (a later commit adding another copy of such a line, which the
target carries, read missing before 2026-12-07). The first pass counts against the parent's, and
so does an added text of fewer than ``fallback_min_tokens`` tokens, whose count moves with the
fork's own code (discord.py 6dc314628e adds ``*,`` to Bot.remove_cog, which disnake 2.1.3 holds
unchanged; disnake's own keyword-only parameters made it applied).

**Status** (thresholds in :class:`lineage.fork.params.DriftParams`): ``not_applicable`` when no touched file has a
counterpart or an expected place in the target, or no changed line is left to check;
``applied`` when at least ``applied_min_share`` of the added lines are present and of the
removed lines absent; ``missing`` when at most ``missing_max_share`` of all changed lines are;
``partial`` otherwise.

This module reads the range, the changed files and the target and writes the result; the rules
above are pure functions over those tables in :mod:`lineage.fork.drift_rules`.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from lineage.errors import LineageError
from lineage.fork.drift_rules import (
    STATUSES,
    FileChange,
    Pairing,
    TargetLines,
    TouchedCommit,
    file_change,
    judge,
    learn_pairing,
    line_forms,
    pr_number,
    stripped_forms,
)
from lineage.fork.forkpoint import restrict, target_inputs
from lineage.fork.params import DriftParams
from lineage.history.range import CommitInfo, open_repo, parse_range
from lineage.index import IndexCache, TreeIndex, index_tree
from lineage.index.records import is_python_path
from lineage.match import MatchParams
from lineage.settings import RunSettings
from lineage.sources import open_source

# Change log of drift.json:
#   1: first version (target, upstream range, pairing, parameters, counts per status, commits).
#   2: "base_auto" says which bound chose the base ("bound": before_first_release, before_target or
#      closest; "bound_date"), the target project's "first_release", the closest commits left out
#      for being dated after it ("left_out_after_first_release") and forkpoint's "best_distance".
DRIFT_FORMAT = "lineage.drift"
DRIFT_VERSION = 2

DRIFT_COLUMNS = ["commit", "date", "subject", "pr", "files", "lines_added", "added_present",
                 "lines_removed", "removed_absent", "status", "target_files", "added_superseded",
                 "removed_superseded", "order"]
PAIR_AT = ("base", "parent")


def pair_trees(target: TreeIndex, upstream: TreeIndex, params: MatchParams, cache_root: Path | None) -> Pairing:
    """Compare ``target`` with ``upstream`` (files table only) and learn the pairing."""
    from lineage.api import compare_trees

    files = compare_trees(target, [upstream], params, cache_root=cache_root, figures_only=True).files
    indexed = files[(files["status"] == "indexed") & (files["upstream_path"] != "")]
    pairs = zip(indexed["target_path"].astype(str), indexed["upstream_path"].astype(str), strict=True)
    return learn_pairing(pairs, [f.path for f in upstream.files], upstream.tree_digest,
                         [f.path for f in target.files])


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
        from lineage.report.tables import guard_formulas

        return write_outputs(Path(out_dir), [
            ("drift.csv", lambda p: guard_formulas(self.commits).to_csv(p, index=False, lineterminator="\n")),
            ("drift.json", lambda p: p.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")),
        ])


def _without_base(repo: Any, changes: list[FileChange], parent: Any, commit: Any, base: Any) -> list[FileChange]:
    """``changes`` (``commit`` against its first ``parent``) less what it merged in of BASE's own
    history, when BASE lies off HEAD's first-parent line: the merges that bring a maintenance
    branch back bring BASE's fixes, which the target holds from BASE. The part of BASE's history
    the commit holds and its parent did not (from their merge-bases with BASE) is applied to each
    file's before side, so only what the commit adds to it is counted."""
    held, had = repo.merge_base(commit, base), repo.merge_base(parent, base)
    if not held or not had or held[0] == had[0]:
        return changes
    by_path = {c.path: c for c in _file_changes(repo, had[0], held[0])}
    out = []
    for change in changes:
        side = by_path.get(change.path)
        if side is None:
            out.append(change)
            continue
        before = (change.before + (side.after - side.before)) - (side.before - side.after)
        out.append(FileChange(change.old_path, change.new_path, before, change.after))
    return [c for c in out if c.before != c.after or c.moves_only]


def _file_changes(repo: Any, parent: Any, commit: Any) -> list[FileChange]:
    """The Python files ``commit`` changed against ``parent`` (renames detected by git)."""
    changes = []
    for diff in parent.diff(commit):  # GitPython passes -M: a moved file is one change
        old = diff.a_path if diff.a_blob is not None else ""
        new = diff.b_path if diff.b_blob is not None else ""
        if not (is_python_path(old) or is_python_path(new)):
            continue
        before = stripped_forms(diff.a_blob.data_stream.read()) if old and is_python_path(old) else []
        after = stripped_forms(diff.b_blob.data_stream.read()) if new and is_python_path(new) else []
        changes.append(file_change(old if is_python_path(old) else "", new if is_python_path(new) else "",
                                   before, after))
    return sorted(changes, key=lambda c: (c.path, c.old_path))


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
              params: MatchParams | None = None,
              settings: RunSettings | None = None) -> tuple[str, dict[str, Any], str]:
    """The oldest of the candidates :meth:`ForkpointResult.fork_point` chooses among the range's
    commits (forkpoint's one rule: the closest dated no later than the first release of the
    target's project, else no later than the target, else the closest), what forkpoint said, and
    the range's head commit (from forkpoint's own walk of the range, not walked again).
    A commit dated after the target is no fork point even when it ties or wins (a later commit
    holding the same Python files, or a release holding the unreleased code the target forked);
    one dated after the target project's first release may hold the fork's changes carried back
    (ssh 1.8.0 is closest to paramiko 1.8.0, which merged ssh back): drift from either would
    leave out the upstream commits between the real fork point and it."""
    from lineage.fork.forkpoint import run_forkpoint

    found = run_forkpoint(target, [range_spec], tags_only=tags_only, every=every, target_path=target_path,
                          params=params, settings=settings)
    choice = found.fork_point()
    chosen = choice.rows.sort_values("order")

    def sha(candidate: object) -> str:
        return str(candidate).rsplit("@", 1)[1].partition(":")[0]  # REPO@SHA[:PATH]

    commit = sha(chosen["candidate"].iat[0])
    best = found.best.sort_values("order")
    after_target = found.after_target()[best.index]
    after_first = found.after_first_release()[best.index] & ~after_target
    bounded = choice.bound != "closest"
    return commit, {"candidates": len(found.candidates), "best": [sha(c) for c in best["candidate"]],
                    "bound": choice.bound, "bound_date": choice.date,
                    "first_release": dict(found.inputs["target"].get("first_release", {})),
                    "left_out_after_target": [sha(c) for c in best["candidate"][after_target]] if bounded else [],
                    "left_out_after_first_release": ([sha(c) for c in best["candidate"][after_first]]
                                                     if choice.bound == "before_first_release" else []),
                    "best_distance": int(best["distance"].iat[0]),
                    "target_date": found.target_date, "rank": int(chosen["rank"].iat[0]),
                    "distance": int(chosen["distance"].iat[0]), "commit": commit}, found.range_tips.get(range_spec, "")


def base_sentence(chosen: dict[str, Any]) -> str:
    """What ``drift --base auto`` says of the base it took (drift.json ``base_auto``) and why."""
    commit = str(chosen["commit"])[:12]
    how = f"rank {chosen['rank']}, distance {chosen['distance']:,}"
    later_t, later_f = chosen["left_out_after_target"], chosen["left_out_after_first_release"]
    if chosen["bound"] == "before_first_release" and (later_t or later_f):
        first = chosen["first_release"]
        return (f"--base auto: base {commit} ({how}), the closest commit dated no later than the first release of "
                f"the target's project ({first.get('version', '')}, {chosen['bound_date']}); "
                f"{len(later_t) + len(later_f)} closer (distance {chosen['best_distance']:,}) left out: "
                f"{len(later_f)} dated after that first release, when the fork existed (it may hold the fork's "
                f"changes carried back), {len(later_t)} after the target ({chosen['target_date']})")
    if later_t:
        return (f"--base auto: {len(later_t)} of forkpoint's closest commits dated after the target "
                f"({chosen['target_date']}) left out; base {commit} ({how})")
    if chosen.get("candidates") == 1:
        # nothing was chosen: the range gave BASE alone (``--tags`` over MySQLdb1's
        # MySQLdb-1.2.4..master: its 1.2.5 tag lies on a release branch master never merged, so
        # not in the range, and "closest commit" read as if 1.2.4 had won over it)
        return (f"--base auto: BASE {commit} is the only candidate the range gave (distance "
                f"{chosen['distance']:,}), so it stands; with --tags a candidate is a tag HEAD's history holds")
    return f"--base auto: forkpoint's closest commit is {commit} ({how})"


def _stripped(tree: TreeIndex, path: str) -> list[str]:
    return line_forms(tree.lines(path))


def run_drift(target: str, range_spec: str, *, commits: Sequence[str] = (), prs: Sequence[str] = (),
              base: str = "", pair_at: str = "base", target_path: str = "", drift_params: DriftParams | None = None,
              params: MatchParams | None = None, settings: RunSettings | None = None, forkpoint_tags: bool = False,
              forkpoint_every: int = 1) -> DriftResult:
    """Classify each upstream commit of ``range_spec`` (``REPO@BASE..HEAD``); see the module docstring.

    ``base="auto"`` replaces BASE by the commit :func:`auto_base` finds among the range's commits.
    ``settings`` says how to run (cache, workers, file size limit, progress; default: all defaults,
    silent).
    """
    params = params or MatchParams()
    drift_params = drift_params or DriftParams()
    settings = settings or RunSettings()
    if pair_at not in PAIR_AT:
        raise LineageError(f"--pair-at must be one of {', '.join(PAIR_AT)}, not {pair_at!r}")
    if "@" not in range_spec or ".." not in range_spec.rsplit("@", 1)[1]:
        raise LineageError(f"drift needs UPSTREAM_REPO@BASE..HEAD, got {range_spec!r}")
    if ":" in range_spec.rsplit("@", 1)[1]:
        # each commit's change is read at the repository's own paths, which a folder would not match
        raise LineageError(f"drift reads whole commits: give UPSTREAM_REPO@BASE..HEAD without :PATH, got "
                           f"{range_spec!r} (the upstream's files are paired with the target's wherever they lie)")
    started = time.perf_counter()
    forkpoint: dict[str, Any] = {}
    if base == "auto":
        best, forkpoint, tip = auto_base(target, range_spec, target_path=target_path, tags_only=forkpoint_tags,
                                         every=forkpoint_every, params=params, settings=settings)
        repo_part, refs = range_spec.rsplit("@", 1)
        # forkpoint walked the range as a git range; were it read some other way, walk it here
        tip = tip or parse_range(range_spec, base_off_line=True).tip_sha
        if best == tip:  # the fork holds HEAD's state: no commit after the base (mysqlclient 1.3.14 over
            # MySQLdb1's MySQLdb-1.2.4..master, whose last commit it forked from, read "empty range
            # 'd34fac6...' ... write A..B with A the older commit", as if the user had written it)
            raise LineageError(f"--base auto: forkpoint's closest commit is HEAD itself ({best[:12]}, distance "
                               f"{forkpoint['distance']:,}): the target forked from the range's last commit, so no "
                               f"upstream commit after the base is left to classify")
        range_spec = f"{repo_part}@{best}..{refs.split('..', 1)[1]}"
    elif base:
        raise LineageError(f"--base takes only 'auto' (give BASE in the range), not {base!r}")
    walked = parse_range(range_spec, base_off_line=True)
    infos = walked.commits[1:]  # the base itself is the fork point, not a change
    if not infos:
        raise LineageError(f"no upstream commit in {range_spec.rsplit('@', 1)[1]!r} after its base")
    pr_of = {c.sha: pr_number(c.subject) for c in infos}
    infos = _select(infos, pr_of, commits, prs)

    root = settings.cache_root
    cache = IndexCache(settings.store_root)
    with open_source(target, root) as source:
        target_tree = restrict(index_tree(source, cache, settings.jobs, settings.max_file_bytes), target_path)
    if not target_tree.files:
        raise LineageError(f"target {target} holds no Python file to compare")
    target_order = {f.path: _stripped(target_tree, f.path) for f in target_tree.files}
    target_lines = TargetLines({p: Counter(lines) for p, lines in target_order.items()}, target_order)

    known: dict[str, Any] = {}
    pairings: dict[str, Pairing] = {}

    def upstream_at(sha: str) -> TreeIndex:
        with open_source(walked.source_spec(sha), root) as up_source:
            return index_tree(up_source, cache, settings.jobs, settings.max_file_bytes, known=known)

    def pairing_at(sha: str) -> Pairing:
        tree = upstream_at(sha)
        if tree.figures_key not in pairings:
            pairings[tree.figures_key] = pair_trees(target_tree, tree, params, settings.store_root)
        return pairings[tree.figures_key]

    base_pairing = pairing_at(walked.base_sha)
    base_tree = upstream_at(walked.base_sha)
    base_files = {f.path for f in base_tree.files}

    def at_base(path: str) -> Counter[str]:
        return Counter(_stripped(base_tree, path)) if path in base_files else Counter()

    settings.log(f"pairing at {walked.base_sha[:12]}: {len(base_pairing.paired_targets)} of "
                 f"{len(target_lines.paths)} target files correspond to upstream files")
    every = walked.commits[1:]
    order_of = {c.sha: k for k, c in enumerate(every)}
    repo = open_repo(walked.repo)
    touched: list[tuple[CommitInfo, TouchedCommit]] = []
    with contextlib.closing(repo):
        # BASE off HEAD's first-parent line: the walk's first commit does not descend from it
        off_line = bool(every) and not repo.is_ancestor(walked.base_sha, every[0].sha)
        for info in every:  # the whole range: a later commit may explain an earlier one's lines
            commit = repo.commit(info.sha)
            if not commit.parents:
                continue
            changes = _file_changes(repo, commit.parents[0], commit)
            if off_line and len(commit.parents) > 1:
                changes = _without_base(repo, changes, commit.parents[0], commit, repo.commit(walked.base_sha))
            if changes:
                pairing = base_pairing if pair_at == "base" else pairing_at(commit.parents[0].hexsha)
                touched.append((info, TouchedCommit(changes, pairing)))

    verdicts = judge([t for _, t in touched], target_lines, at_base, drift_params)
    chosen = {c.sha for c in infos}
    rows = [{"commit": info.sha, "date": info.date, "subject": info.subject, "pr": pr_of[info.sha],
             "files": " ".join(c.path for c in t.changes), "lines_added": v.added, "added_present": v.present,
             "lines_removed": v.removed, "removed_absent": v.absent, "status": v.status,
             "target_files": v.target_files, "added_superseded": v.added_superseded,
             "removed_superseded": v.removed_superseded, "order": order_of[info.sha]}
            for (info, t), v in zip(touched, verdicts, strict=True) if info.sha in chosen]
    frame = pd.DataFrame(rows, columns=DRIFT_COLUMNS)
    frame = frame.sort_values(["order"], kind="stable").reset_index(drop=True)
    settings.log(f"{len(frame)} commits touching Python files checked in {time.perf_counter() - started:.1f} s")
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
                    "package_renames": dict(sorted(base_pairing.renames.items())),
                    "module_renames": {".".join(u): ".".join(t) for u, t in sorted(base_pairing.modules.items())}},
        "drift_parameters": drift_params.to_dict(),
        "parameters": params.to_dict(),
        "seconds": round(time.perf_counter() - started, 3),
    }
    return DriftResult(commits=frame, inputs=inputs)


def parse_list(text: str) -> list[str]:
    """``a,b, c`` -> ``["a", "b", "c"]`` (for --commits and --prs)."""
    return [p.strip() for p in text.split(",") if p.strip()]


__all__ = ["DRIFT_COLUMNS", "STATUSES", "DriftParams", "DriftResult", "auto_base", "base_sentence", "pair_trees",
           "parse_list", "run_drift"]
