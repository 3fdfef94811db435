"""One commit of a git repository, read from its object database (never the work tree)."""

from __future__ import annotations

import re
import stat
import subprocess
from pathlib import Path
from typing import Any

from lineage.errors import SourceError
from lineage.sources.base import Source, SourceInfo, _describe, _safe_member_path


class GitSource(Source):
    """The tree of one commit, read from the object database (never the working tree).

    ``REF:PATH`` (git's own notation for a tree inside a commit) takes only the folder PATH of
    the commit, its files at paths relative to it: ``repo@v8.5.0:src`` holds ``click/core.py``,
    as the release's wheel does, without the repository's tests and docs. A ref never holds a
    ``:`` (git forbids it in ref names), so the first one splits the two.
    """

    def __init__(self, spec: str, repo_path: Path, ref: str) -> None:
        super().__init__()
        ref, _, named = ref.partition(":")
        normal, reason = _safe_member_path(named.strip("/"))  # "src/", "./src", "src//pkg" alike; "." the root
        if reason:
            raise SourceError(f"git: {named!r} is no folder path inside a commit (in {spec!r})")
        folder = normal or ""
        self._repo = open_repo(repo_path)
        try:
            members, skipped, sha = self._index(ref, repo_path)
            if folder:
                members, skipped = _inside(folder, members, skipped, f"{ref} in {repo_path}")
        except BaseException:
            self._repo.close()
            raise
        skipped = list(skipped) + self._set_members(members)
        label = repo_path.name
        if label == ".git":
            label = repo_path.parent.name
        elif label.endswith(".git") and len(label) > 4:
            label = label[:-4]  # bare repo "proj.git"
        self.info = SourceInfo(
            spec=spec,
            kind="git",
            location=str(repo_path),
            digest=f"git:{sha}:{folder}" if folder else f"git:{sha}",
            label=label,
            details={"ref": ref, "commit": sha, **({"path": folder} if folder else {})},
            skipped=tuple(skipped),
        )

    def _index(
        self, ref: str, repo_path: Path
    ) -> tuple[dict[str, bytes], list[tuple[str, str]], str]:
        import git

        unknown = SourceError(f"git: unknown ref {ref!r} in {repo_path}")
        # Ranges and option-like refs are never a single commit; GitPython would otherwise
        # look them up as paths under .git.
        if not ref or ref.startswith("-") or ".." in ref or any(c.isspace() for c in ref):
            raise unknown
        try:
            commit = self._repo.commit(ref)
            sha = commit.hexsha
        except Exception as exc:
            refusal = str(exc) if "dubious ownership" in str(exc) else _git_refusal(repo_path)
            if refusal:
                # git refuses repositories owned by another user; "unknown ref" would mislead.
                named = re.search(r"repository at '?(\S+?)'?\.?\s", refusal + " ")
                where = named.group(1) if named else str(repo_path)
                raise SourceError(
                    f"git: {where} is owned by another user and git refuses it (safe.directory); "
                    f"allow it with: git config --global --add safe.directory {where}"
                ) from None
            # gitdb's BadName/BadObject, ValueError for a non-commit object, IndexError for
            # odd rev syntax: to the user they all mean the ref does not name a commit.
            raise unknown from None
        members: dict[str, bytes] = {}
        skipped: list[tuple[str, str]] = []
        try:
            # One `git ls-tree` lists the whole tree: GitPython's traverse() is pure Python and
            # costs tens of milliseconds per commit, which adds up over a history.
            listing = self._repo.git.ls_tree("-r", "-z", "--full-tree", sha)
            entries = []
            for record in listing.split("\0"):
                if not record:
                    continue
                meta, _, name = record.partition("\t")
                mode, kind, object_sha = meta.split(" ")
                entries.append((int(mode, 8), kind, object_sha, name))
        except (git.exc.GitError, ValueError, OSError) as exc:
            raise SourceError(
                f"git: cannot read commit {sha} in {repo_path}: {_describe(exc)}"
            ) from None
        for mode, kind, object_sha, name in entries:
            rel, reason = _safe_member_path(name)
            if reason or rel is None:
                skipped.append((name, reason or "empty path"))
            elif kind == "commit":
                skipped.append((rel, "submodule"))
            elif stat.S_ISLNK(mode):
                skipped.append((rel, "symlink"))
            elif kind == "blob" and stat.S_ISREG(mode):
                members[rel] = bytes.fromhex(object_sha)
            else:
                skipped.append((rel, f"unsupported mode {mode:o}"))
        skipped.sort()
        return members, skipped, sha

    def known_digest(self, path: str) -> str | None:
        # A git tree names each file by its blob hash, which is exactly lineage's digest.
        return self._lookup(path).hex()

    def size(self, path: str) -> int | None:
        try:  # the object's header only (`git cat-file --batch-check`)
            return int(self._repo.odb.info(self._lookup(path)).size)
        except SourceError:
            raise
        except Exception:  # reading it says why
            return None

    def _read_member(self, path: str, handle: Any) -> bytes:
        try:
            return self._repo.odb.stream(handle).read()
        except Exception as exc:  # git.exc.*, gitdb.exc.*, OSError from the cat-file pipe
            raise SourceError(
                f"git: cannot read {path} in {self.info.location}: {_describe(exc)}"
            ) from None

    def close(self) -> None:
        if not self._closed:
            self._repo.close()  # ends GitPython's persistent `git cat-file` processes
        super().close()


def _inside(folder: str, members: dict[str, bytes], skipped: list[tuple[str, str]],
            where: str) -> tuple[dict[str, bytes], list[tuple[str, str]]]:
    """The members and skipped entries below ``folder``, at paths relative to it. A commit
    without the folder is an empty tree, as a commit without Python files is (a history or a
    fork-point search over commits from before a project moved into ``src/``; a compare refuses
    it as any empty side, naming the spec); a file or a submodule at that path is refused."""
    if folder in members or any(path == folder for path, _ in skipped):
        what = "a file" if folder in members else dict(skipped)[folder]
        raise SourceError(f"git: {folder!r} is no folder at {where} ({what})")
    prefix = folder + "/"
    kept = {path[len(prefix):]: blob for path, blob in members.items() if path.startswith(prefix)}
    return kept, [(path[len(prefix):], why) for path, why in skipped if path.startswith(prefix)]


def git_spec(repo: str | Path, commit: str, folder: str = "") -> str:
    """The spec of a git source: ``REPO@COMMIT``, or ``REPO@COMMIT:PATH`` for a folder of it."""
    return f"{repo}@{commit}" + (f":{folder}" if folder else "")


def commit_spec(repo: str, details: dict[str, Any]) -> str:
    """The :func:`git_spec` that reopens a git source pinned to the commit (and folder) its
    ``details`` record (reproduce, forkpoint's resolved candidates)."""
    return git_spec(repo, str(details.get("commit", "")), str(details.get("path", "")))


def open_repo(repo_path: Path) -> Any:
    """A GitPython ``Repo`` for a work tree, its ``.git`` folder or a bare repository.

    A bare repository without a ``config`` file (some mirrors) is read by git when named as its
    git dir, but GitPython takes it for a work tree's ``.git`` and runs git in the parent folder
    ("not a git repository"): so git is always told the git dir when the path is one.
    """
    try:
        import git  # lazy: GitPython refuses to import when no git executable exists
    except ImportError as exc:
        raise SourceError(f"git: GitPython is unusable: {_describe(exc)}") from None
    try:
        repo = git.Repo(repo_path)
    except (git.exc.InvalidGitRepositoryError, git.exc.NoSuchPathError):
        raise SourceError(f"git: not a git repository: {repo_path}") from None
    except (git.exc.GitError, OSError) as exc:
        raise SourceError(f"git: cannot open {repo_path}: {_describe(exc)}") from None
    if Path(repo.git_dir).resolve() == Path(repo_path).resolve():
        repo.git.update_environment(GIT_DIR=str(repo.git_dir))
    return repo


def _git_refusal(repo_path: Path) -> str:
    """git's own complaint when it refuses the repository for its owner, else ""."""
    try:
        proc = subprocess.run(["git", "-C", str(repo_path), "rev-parse", "--git-dir"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stderr if "dubious ownership" in proc.stderr else ""


