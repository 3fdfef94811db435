"""A directory on disk, walked without following links; VCS and tool caches are skipped."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

from lineage.errors import SourceError
from lineage.sources.base import Source, SourceInfo, _describe

# Tool and VCS directories that never hold the codebase itself.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".venv",
        "node_modules",
        ".tox",
        ".mypy_cache",
        ".pytest_cache",
    }
)


class DirSource(Source):
    """A directory tree on disk (a working tree: VCS and tool caches are skipped)."""

    def __init__(self, spec: str, root: Path) -> None:
        super().__init__()
        self._root = root
        files, skipped = _walk_dir(root)
        # handle: the name as the file system has it
        skipped += self._set_members({rel: rel for rel in files})
        self.info = SourceInfo(
            spec=spec,
            kind="dir",
            location=str(root),
            digest="",
            label=root.name or str(root),  # shown escaped (SourceInfo)
            details={},
            skipped=tuple(sorted(skipped)),
        )

    def size(self, path: str) -> int | None:
        try:
            return os.lstat(os.path.join(self._root, *self._lookup(path).split("/"))).st_size
        except OSError:  # reading it says why
            return None

    def _open_member(self, path: str, handle: Any) -> IO[bytes]:
        full = os.path.join(self._root, *handle.split("/"))
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        try:
            return open(os.open(full, flags), "rb")  # noqa: SIM115 - the caller closes it
        except OSError as exc:
            raise SourceError(f"cannot read {full}: {_describe(exc)}") from None

    def _read_member(self, path: str, handle: Any) -> bytes:
        full = os.path.join(self._root, *handle.split("/"))
        # O_NOFOLLOW: the file was a regular file when listed; don't follow a symlink that
        # replaced it since.
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(full, flags)
            with open(fd, "rb") as fh:
                return fh.read()
        except OSError as exc:
            raise SourceError(f"cannot read {full}: {_describe(exc)}") from None


def _walk_dir(root: Path) -> tuple[list[str], list[tuple[str, str]]]:
    files: list[str] = []
    skipped: list[tuple[str, str]] = []
    stack: list[tuple[str, str]] = [("", str(root))]
    while stack:
        prefix, dirpath = stack.pop()
        try:
            with os.scandir(dirpath) as it:
                entries = list(it)
        except OSError as exc:
            if not prefix:
                raise SourceError(f"cannot read directory {root}: {_describe(exc)}") from None
            skipped.append((prefix.rstrip("/"), f"unreadable: {_describe(exc)}"))
            continue
        for entry in entries:
            rel = prefix + entry.name
            try:
                if entry.is_symlink():
                    skipped.append((rel, "symlink"))
                elif entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIP_DIRS:
                        stack.append((rel + "/", entry.path))
                elif entry.is_file(follow_symlinks=False):
                    files.append(rel)
                else:
                    skipped.append((rel, "special file"))
            except OSError as exc:
                skipped.append((rel, f"unreadable: {_describe(exc)}"))
    skipped.sort()
    return files, skipped


