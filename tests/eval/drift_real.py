"""A real drift case: a fork of pypa/packaging made by cherry-picking a known subset of its
commits onto an old tag, then renaming the package; ``lineage drift`` must say which were applied.

    .venv/bin/python tests/eval/drift_real.py --mirror MIRROR --work /tmp/drift-case --out out/drift-packaging

MIRROR is a git repository of https://github.com/pypa/packaging (a bare clone is fine); nothing
of it is committed here, the cases are built at run time. Each case (``CASES``) starts a fork at
tag BASE; each first-parent commit of BASE..HEAD touching Python files is picked when its id,
read as a hex number, has the case's parity (a subset fixed by the commits themselves, about
half; the two parities of one range are two forks). A pick that does not
apply cleanly (it needs a skipped commit) is aborted and counts as not applied; a pick that
turns out empty (its change is already there) counts as applied. Then ``src/packaging`` becomes
``src/pkgfork`` and every ``packaging`` import in the fork is rewritten.

Truth: picked = applied. Scored: precision and recall of ``status == applied``, per case and
over all. Writes per case ``CASE/drift.csv``, ``CASE/drift.json`` (lineage's) and
``CASE/truth.csv`` (commit, picked, status), and ``score.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import time
from pathlib import Path

# name -> (base tag, head tag, parity of the picked commit ids)
CASES = {"23.2-24.2-even": ("23.2", "24.2", 0), "23.2-24.2-odd": ("23.2", "24.2", 1),
         "25.0-26.0-even": ("25.0", "26.0", 0), "25.0-26.0-odd": ("25.0", "26.0", 1),
         # Added after the rules above were settled on those four: a held-out range (flat layout).
         "21.3-22.0-even": ("21.3", "22.0", 0), "21.3-22.0-odd": ("21.3", "22.0", 1)}
OLD, NEW = "packaging", "pkgfork"
_IMPORT = re.compile(rf"^(\s*(?:from|import)\s+){OLD}\b", re.MULTILINE)


def picked_by_rule(sha: str, parity: int) -> bool:
    return int(sha, 16) % 2 == parity


def build_fork(mirror: Path, work: Path, base: str, head: str, parity: int) -> tuple[Path, Path, dict[str, bool]]:
    """(upstream clone, fork repository, commit -> picked) for the case, built under ``work``."""
    import git

    work.mkdir(parents=True)
    upstream = work / "upstream.git"
    git.Repo.clone_from(str(mirror), str(upstream), bare=True)
    fork_path = work / "fork"
    fork = git.Repo.clone_from(str(upstream), str(fork_path), no_checkout=True)
    up = git.Repo(upstream)
    commits = [c for c in up.iter_commits(f"{base}..{head}", first_parent=True, reverse=True)
               if any(p.endswith((".py", ".pyi")) for p in c.stats.files)]
    actor = git.Actor("drift case", "drift@example.org")
    with fork.config_writer() as config:
        config.set_value("user", "name", actor.name)
        config.set_value("user", "email", actor.email)
    fork.git.checkout("-q", "-b", "fork", up.commit(base).hexsha)
    picked: dict[str, bool] = {}
    for commit in commits:
        if not picked_by_rule(commit.hexsha, parity):
            picked[commit.hexsha] = False
            continue
        try:
            fork.git.cherry_pick(commit.hexsha)
            picked[commit.hexsha] = True
        except git.exc.GitCommandError:
            # Unmerged paths: a conflict (aborted, not applied). None: the pick is empty, its
            # change is there already (skipped, applied).
            conflict = bool(fork.git.diff("--name-only", "--diff-filter=U").strip())
            fork.git.cherry_pick("--abort" if conflict else "--skip")
            picked[commit.hexsha] = not conflict
    folder = f"src/{OLD}" if (fork_path / "src" / OLD).is_dir() else OLD  # src/ layout since 22.0
    fork.git.mv(folder, folder[:-len(OLD)] + NEW)
    for path in sorted(fork_path.rglob("*.py")):
        if ".git" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        renamed = _IMPORT.sub(lambda m: m.group(1) + NEW, text)
        if renamed != text:
            path.write_text(renamed, encoding="utf-8")
    fork.git.add("-A")
    fork.index.commit(f"rename {OLD} to {NEW}", author=actor, committer=actor)
    return upstream, fork_path, picked


def score(statuses: dict[str, str], picked: dict[str, bool]) -> dict[str, object]:
    """Precision and recall of ``applied`` against the picks, with the confusion counts."""
    tp = sum(1 for c, s in statuses.items() if s == "applied" and picked.get(c, False))
    fp = sum(1 for c, s in statuses.items() if s == "applied" and not picked.get(c, False))
    fn = sum(1 for c, s in statuses.items() if s != "applied" and picked.get(c, False))
    confusion: dict[str, dict[str, int]] = {}
    for c, s in statuses.items():
        row = confusion.setdefault("picked" if picked.get(c, False) else "not_picked", {})
        row[s] = row.get(s, 0) + 1
    return {"commits": len(statuses), "picked": sum(picked.get(c, False) for c in statuses),
            "true_positives": tp, "false_positives": fp, "false_negatives": fn,
            "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
            "recall": round(tp / (tp + fn), 4) if tp + fn else 1.0,
            "confusion": {k: dict(sorted(v.items())) for k, v in sorted(confusion.items())}}


def run_case(name: str, mirror: Path, work: Path, out: Path, jobs: int | None = 1) -> dict[str, object]:
    from lineage.fork.drift import run_drift
    from lineage.settings import RunSettings

    base, head, parity = CASES[name]
    started = time.perf_counter()
    upstream, fork, picked = build_fork(mirror, work / name, base, head, parity)
    result = run_drift(f"{fork}@HEAD", f"{upstream}@{base}..{head}",
                       settings=RunSettings(jobs=jobs, cache_dir=work / "cache"))
    result.write(out / name)
    statuses = dict(zip(result.commits["commit"], result.commits["status"], strict=True))
    truth = result.commits[["commit", "pr", "subject", "status"]].assign(
        picked=[picked.get(c, False) for c in result.commits["commit"]])
    truth.to_csv(out / name / "truth.csv", index=False, lineterminator="\n")
    return {"case": name, "range": f"{base}..{head}", "parity": parity, "rename": f"{OLD} -> {NEW}",
            "not_in_drift": sorted(set(picked) - set(statuses)), **score(statuses, picked),
            "statuses": statuses, "picked_ids": sorted(c for c, p in picked.items() if p),
            "seconds": round(time.perf_counter() - started, 1)}


def run_cases(mirror: Path, work: Path, out: Path, names: list[str], jobs: int | None = 1) -> dict[str, object]:
    cases = [run_case(name, mirror, work, out, jobs) for name in names]
    statuses = {f"{c['case']}:{k}": v for c in cases for k, v in c.pop("statuses").items()}  # type: ignore[union-attr]
    picked = {f"{c['case']}:{k}": True for c in cases for k in c.pop("picked_ids")}  # type: ignore[union-attr]
    figures = {"cases": cases, "all": score(statuses, picked)}
    (out / "score.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, required=True, help="a git repository of pypa/packaging")
    parser.add_argument("--work", type=Path, required=True, help="scratch folder (emptied)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="only this case (repeatable)")
    args = parser.parse_args(argv)
    if not args.mirror.exists():
        print(f"drift_real: no such repository: {args.mirror}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    if args.work.exists():
        shutil.rmtree(args.work)
    figures = run_cases(args.mirror, args.work, args.out, args.case or list(CASES), args.jobs)
    for case in figures["cases"]:  # type: ignore[union-attr]
        print(f"{case['case']}: {case['commits']} commits, {case['picked']} picked; applied precision "
              f"{case['precision']}, recall {case['recall']}; {case['confusion']}")
    every = figures["all"]
    print(f"all: {every['commits']} commits, {every['picked']} picked; applied precision {every['precision']}, "
          f"recall {every['recall']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
