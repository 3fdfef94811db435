"""The commits a ``history`` run visits: ``REPO@A..B`` or ``REPO@REF``, read with GitPython.

* ``REPO@A..B``: the base ``A`` itself, then the commits reachable from ``B`` and not from ``A``
  along first parents, oldest first (``git rev-list --first-parent --reverse A..B``). ``A`` is
  the first point so that the series starts from the base. An empty side means ``HEAD``, as in
  git (``REPO@v1..`` is ``v1..HEAD``).
* ``REPO@REF``: every first-parent commit up to and including ``REF``, oldest first.
* A ``:PATH`` after either (``REPO@A..B:src``) reads only that folder of each commit, as a git
  source's ``REF:PATH`` does (:class:`lineage.sources.git.GitSource`).
* With ``tags_only`` the tagged commits are taken from the whole ancestry, not the first-parent
  line: projects tag their patch releases on maintenance branches merged back later (click's
  8.1.1 to 8.1.7 lie off the line from 8.0.0 to 8.5.0), and a release timeline or a fork-point
  search that skipped them would name the wrong release. They come in ``git rev-list
  --date-order`` order, reversed (no commit before its parents, otherwise by commit date). In
  ``A..B`` only the descendants of ``A`` are taken (``--ancestry-path``): a release tagged on a
  branch that left the line before ``A`` and was merged back later is older than the range.

Filters apply in this order: ``tags_only`` keeps the commits that a tag points to; ``every=N``
keeps every Nth of what is left (the first, the (N+1)th, ...) and always the last; then
``max_commits=K`` keeps the last K.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lineage.errors import LineageError


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
    folder: str = ""  # ``REPO@A..B:PATH``: only that folder of each commit (as a git source's REF:PATH)

    def source_spec(self, sha: str) -> str:
        """The git source spec of commit ``sha`` of this range (its folder only, if one was named)."""
        from lineage.sources.git import git_spec

        return git_spec(self.repo, sha, self.folder)


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


def open_repo(path: Path) -> Any:
    """A GitPython ``Repo`` (as git sources open it: bare mirrors without a config included)."""
    from lineage.sources.git import open_repo as open_git

    return open_git(path)


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


def commit_date(repo_path: str | Path, sha: str) -> str:
    """The commit date of ``sha`` in ``repo_path`` as history and forkpoint write it ("" when
    the repository cannot tell)."""
    try:
        repo = open_repo(Path(repo_path))
    except LineageError:
        return ""
    try:
        return _commit_info(repo.commit(sha), {}).date
    except Exception:  # noqa: BLE001 - an unknown sha or a damaged object: no date, not an error
        return ""
    finally:
        repo.close()


def _tagged_ancestry(repo: Any, revisions: str, tags: dict[str, tuple[str, ...]]) -> tuple[list[Any], int]:
    """The tagged commits of ``git rev-list --date-order --reverse REVISIONS`` (every parent
    followed) as commit objects, and how many commits the list held; only the tagged ones are
    read, so a long history costs one rev-list."""
    ancestry = ["--ancestry-path"] if ".." in revisions else []  # A..B: A's descendants only
    listed = repo.git.rev_list("--date-order", "--reverse", *ancestry, revisions).split()
    return [repo.commit(sha) for sha in listed if sha in tags], len(listed)


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


def parse_range(spec: str, every: int = 1, tags_only: bool = False, max_commits: int = 0,
                base_off_line: bool = False) -> HistoryRange:
    """Read ``REPO@A..B`` or ``REPO@REF`` and list the selected commits, oldest first.

    ``base_off_line`` lets ``A`` be an ancestor of ``B`` off its first-parent line (a release
    tagged on a maintenance branch): the walk is then B's first-parent commits that ``A`` does not
    contain. ``drift`` asks for it, since it diffs each commit against its own first parent; a
    ``history`` series must start at ``A``, so it does not.
    """
    path, refs = split_range_spec(spec)
    refs, _, folder = refs.partition(":")  # REPO@A..B:PATH, as a git source's REF:PATH
    if "..." in refs:
        raise LineageError(f"history takes A..B (two dots), not a symmetric range: {refs!r}")
    repo = open_repo(path)
    try:
        tags = _tags_by_commit(repo)
        if ".." in refs:
            base, tip = refs.split("..", 1)
            base, tip = base or "HEAD", tip or "HEAD"
            base_commit = _resolve(repo, base, path)
            tip_commit = _resolve(repo, tip, path)
            # (a reversed range, B an ancestor of A, is told below as an empty one)
            if not repo.is_ancestor(base_commit, tip_commit) and not repo.is_ancestor(tip_commit, base_commit):
                forks = repo.merge_base(base_commit, tip_commit)
                where = f" (their merge-base is {forks[0].hexsha[:10]})" if forks else " (they share no commit)"
                raise LineageError(f"{base} is not an ancestor of {tip} in {path}{where}: A..B walks the "
                                   "commits from A to B along one history; give an A on B's history")
            if tags_only:
                walked, in_range = _tagged_ancestry(repo, f"{base_commit.hexsha}..{tip_commit.hexsha}", tags)
            else:
                walked = list(repo.iter_commits(f"{base_commit.hexsha}..{tip_commit.hexsha}",
                                                first_parent=True, reverse=True))
                in_range = len(walked)
            if not in_range:  # B is A or an ancestor of it: a reversed or empty range
                raise LineageError(f"empty range {refs!r} in {path}: {tip} is {base} or older than it "
                                   "(write A..B with A the older commit)")
            if not (tags_only or base_off_line) and walked[0].parents and walked[0].parents[0] != base_commit:
                # A reached B through a merge's second parent: the first-parent walk from B does
                # not pass it, and its first commits would not descend from A
                raise LineageError(f"{base} is not on the first-parent line of {tip} in {path} (it was merged in "
                                   f"from a side branch); give an A that {tip}'s mainline passes")
            ordered = [base_commit, *walked]
            in_range += 1
        else:
            base, tip = "", refs
            base_commit = None
            tip_commit = _resolve(repo, tip, path)
            if tags_only:
                ordered, in_range = _tagged_ancestry(repo, tip_commit.hexsha, tags)
            else:
                ordered = list(repo.iter_commits(tip_commit.hexsha, first_parent=True, reverse=True))
                in_range = len(ordered)
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
                        tip_sha=tip_commit.hexsha, commits_in_range=in_range, commits=selected,
                        folder=folder.strip("/"))
