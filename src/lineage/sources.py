"""Open a codebase for analysis: a directory, an archive, a git commit or a PyPI release.

Every source gives the same read-only view: a sorted list of POSIX paths of regular files,
and their bytes. Nothing is extracted or checked out to disk, and members that could point
outside the source root (absolute paths, "..", links, devices) are never returned; they are
listed in ``SourceInfo.skipped`` instead.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import re
import stat
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import platformdirs

from lineage import __version__
from lineage.errors import SourceError

__all__ = [
    "SKIP_DIRS",
    "ArchiveSource",
    "DirSource",
    "GitSource",
    "PypiSource",
    "Source",
    "SourceInfo",
    "blob_digest",
    "default_cache_dir",
    "open_source",
]

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

# File-name suffix -> format. The bz2/xz tarballs are not advertised but old sdists on PyPI
# use them, so the sdist fallback must be able to read them.
_ARCHIVE_SUFFIXES: tuple[tuple[str, str], ...] = (
    (".whl", "wheel"),
    (".zip", "zip"),
    (".tar.gz", "tar.gz"),
    (".tgz", "tar.gz"),
    (".tar.bz2", "tar.bz2"),
    (".tar.xz", "tar.xz"),
    (".tar", "tar"),
)

# Everything zipfile/tarfile and their decompressors raise for bad or truncated input.
_ARCHIVE_ERRORS: tuple[type[BaseException], ...] = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    tarfile.TarError,
    EOFError,
    OSError,
    zlib.error,
    lzma.LZMAError,
    NotImplementedError,  # unsupported zip compression method
    RuntimeError,  # encrypted zip member
    ValueError,  # use after close, bad header fields
)

PYPI_JSON_URL = "https://pypi.org/pypi"
NET_TIMEOUT = 60  # seconds without progress on one socket
PIP_TIMEOUT = 900  # seconds for a whole `pip download` (large wheels)

_UNSUPPORTED = (
    "unsupported source: {} (expected a directory, .whl/.zip/.tar.gz/.tgz/.tar archive, "
    "PATH@REF git ref, or pypi:NAME==VERSION)"
)
_PYPI_SPEC = re.compile(
    r"pypi:(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)"
    r"==(?P<version>[A-Za-z0-9][A-Za-z0-9.!+_-]*)"
    r"(?:#sha256=(?P<sha256>[0-9A-Fa-f]{64}))?"
)
_DRIVE = re.compile(r"[A-Za-z]:")


@dataclass(frozen=True)
class SourceInfo:
    """What a source is; everything here is JSON-serialisable for reports."""

    spec: str
    kind: str  # "dir" | "archive" | "git" | "pypi"
    location: str
    digest: str
    label: str
    details: dict[str, Any] = field(default_factory=dict)
    skipped: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "skipped", tuple((display_path(p), r) for p, r in self.skipped))


class Source:
    """Read-only view of the regular files of one codebase.

    Subclasses fill ``self._members`` (path -> backend handle) and implement
    ``_read_member``; the base class handles lookup, ordering and the closed state.
    """

    info: SourceInfo

    def __init__(self) -> None:
        self._members: dict[str, Any] = {}
        self._sorted: tuple[str, ...] = ()
        self._closed = False

    def _set_members(self, members: dict[str, Any]) -> list[tuple[str, str]]:
        """Take the members (path -> backend handle); return what had to be skipped.

        Paths are kept as :func:`display_path` shows them; the handle keeps what the backend
        needs to read the file, so no report ever holds a name that cannot be written."""
        shown: dict[str, Any] = {}
        collisions = []
        for path in sorted(members):
            name = display_path(path)
            if name in shown:
                collisions.append((name, "its shown name equals another file's (after escaping)"))
            else:
                shown[name] = members[path]
        self._members = shown
        self._sorted = tuple(sorted(shown))
        return collisions

    def paths(self) -> list[str]:
        """Every regular file, as a POSIX path relative to the source root, sorted."""
        return list(self._sorted)

    def read(self, path: str) -> bytes:
        return self._read_member(path, self._lookup(path))

    def known_digest(self, path: str) -> str | None:
        """The file's git blob hash when the source knows it without reading the file."""
        return None

    def read_many(self, paths: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        """Yield (path, bytes) in the given order."""
        for path in paths:
            yield path, self.read(path)

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        info = getattr(self, "info", None)
        label = info.label if info else "?"
        return f"<{type(self).__name__} {label!r}: {len(self._sorted)} files>"

    def _lookup(self, path: str) -> Any:
        if self._closed:
            raise SourceError(f"{self.info.label}: source is closed")
        try:
            return self._members[path]
        except KeyError:
            raise SourceError(f"{self.info.label}: no such file in source: {path}") from None

    def _read_member(self, path: str, handle: Any) -> bytes:
        raise NotImplementedError


# --------------------------------------------------------------------------- helpers


_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def display_path(path: str) -> str:
    """A path as every report shows it: valid UTF-8, printable, on one line.

    File systems, tar and git allow names that are not UTF-8 (Python holds their bytes as lone
    surrogates, ``surrogateescape``) and names with newlines or other control characters. Reports
    show such a byte or character as ``\\xNN`` (``\\n``, ``\\r``, ``\\t`` for those three), and
    in such a name a backslash as ``\\\\``. Printable names are returned unchanged. Two files whose
    shown names would be equal cannot both be reported: the source skips the later one.
    """
    if path.isprintable():
        return path
    out = []
    for ch in path:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif 0xDC80 <= code <= 0xDCFF:  # an undecodable byte (surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif not ch.isprintable() and (code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF):
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def blob_digest(data: bytes) -> str:
    """The git blob id of ``data`` (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def default_cache_dir() -> Path:
    env = os.environ.get("LINEAGE_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir("lineage", appauthor=False))


def _one_line(text: object, limit: int = 300) -> str:
    """Collapse a (possibly multi-line) message so CLI errors stay one line."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _describe(exc: BaseException) -> str:
    try:
        msg = str(exc)
    except Exception:  # some gitdb exceptions cannot format themselves
        msg = ""
    if isinstance(exc, OSError) and exc.strerror:
        msg = exc.strerror
    return _one_line(msg or type(exc).__name__)


def _archive_format(filename: str) -> str | None:
    lower = filename.lower()
    for suffix, fmt in _ARCHIVE_SUFFIXES:
        if lower.endswith(suffix):
            return fmt
    return None


def _canonical_name(name: str) -> str:
    """PEP 503 normalised project name, so 'Foo_Bar' and 'foo-bar' get the same label."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _dist_name(filename: str) -> str:
    """Distribution name from an archive file name ('vllm' from vllm-0.3-....whl)."""
    lower = filename.lower()
    if lower.endswith(".whl"):
        return _canonical_name(filename.split("-", 1)[0])
    stem = filename
    for suffix, _fmt in _ARCHIVE_SUFFIXES:
        if lower.endswith(suffix):
            stem = filename[: -len(suffix)]
            break
    # sdists are NAME-VERSION and names may contain '-': the version starts at the first
    # '-' followed by a digit.
    m = re.match(r"(.+?)-v?\d", stem)
    return _canonical_name(m.group(1) if m else stem)


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {_describe(exc)}") from None
    return h.hexdigest()


def _safe_member_path(name: str) -> tuple[str | None, str | None]:
    """Return (normalised relative path, None) or (None, reason to skip).

    A path of None with no reason means the member is the root itself ("./").
    """
    if name.startswith(("/", "\\")) or _DRIVE.match(name):
        return None, "absolute path"
    # Backslash counts as a separator here: Windows tools write it into zips, and a
    # consumer on Windows would follow it.
    if ".." in re.split(r"[/\\]", name):
        return None, "parent directory reference (..)"
    if "\x00" in name:
        return None, "NUL byte in name"
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return ("/".join(parts) or None), None


# --------------------------------------------------------------------------- directories


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
            label=display_path(root.name or str(root)),
            details={},
            skipped=tuple(sorted(skipped)),
        )

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


# --------------------------------------------------------------------------- archives


class _ZipReader:
    sequential = False  # members can be read in any order at no extra cost

    def __init__(self, path: Path) -> None:
        self._zf = zipfile.ZipFile(path)

    def members(self) -> Iterator[tuple[str, str, Any]]:
        for info in self._zf.infolist():
            yield info.filename, _zip_member_type(info), info

    def read(self, handle: Any) -> bytes:
        return self._zf.read(handle)

    def offset(self, handle: Any) -> int:
        return int(handle.header_offset)

    def close(self) -> None:
        self._zf.close()


def _zip_member_type(info: zipfile.ZipInfo) -> str:
    """'file', 'dir', or the reason the member is skipped."""
    # Unix zips keep st_mode in the high 16 bits; that is the only way to spot a symlink.
    fmt = stat.S_IFMT(info.external_attr >> 16)
    if info.is_dir() or fmt == stat.S_IFDIR:
        return "dir"
    if fmt == stat.S_IFLNK:
        return "symlink"
    if fmt in (stat.S_IFCHR, stat.S_IFBLK):
        return "device"
    if fmt == stat.S_IFIFO:
        return "fifo"
    if fmt == stat.S_IFSOCK:
        return "socket"
    if fmt not in (0, stat.S_IFREG):
        return "unknown member type"
    if info.flag_bits & 0x1:
        return "encrypted"
    return "file"


class _TarReader:
    # Compressed tars only decompress forwards: going back restarts from the beginning.
    sequential = True

    def __init__(self, path: Path) -> None:
        self._tf = tarfile.open(path, "r:*")  # noqa: SIM115 - open until close()
        try:
            # Reads every header now, so a truncated archive fails at open, not mid-analysis.
            self._infos = self._tf.getmembers()
        except BaseException:
            self._tf.close()
            raise

    def members(self) -> Iterator[tuple[str, str, Any]]:
        for info in self._infos:
            yield info.name, _tar_member_type(info), info

    def read(self, handle: Any) -> bytes:
        fh = self._tf.extractfile(handle)
        if fh is None:  # not a regular file; members() never lets one through
            raise tarfile.ReadError(f"{handle.name} is not a regular file")
        with fh:
            data = fh.read()
        if len(data) != handle.size:
            raise tarfile.ReadError(f"{handle.name}: unexpected end of data")
        return data

    def offset(self, handle: Any) -> int:
        return int(handle.offset_data)

    def close(self) -> None:
        self._tf.close()


def _tar_member_type(info: tarfile.TarInfo) -> str:
    if info.isreg():
        return "file"
    if info.isdir():
        return "dir"
    if info.issym():
        return "symlink"
    if info.islnk():
        return "hard link"
    if info.ischr() or info.isblk():
        return "device"
    if info.isfifo():
        return "fifo"
    return "unknown member type"


class ArchiveSource(Source):
    """A wheel, zip or tarball, read member by member into memory."""

    def __init__(
        self,
        spec: str,
        path: Path,
        *,
        kind: str = "archive",
        label: str | None = None,
        digest: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        fmt = _archive_format(path.name)
        if fmt is None:
            raise SourceError(_UNSUPPORTED.format(spec))
        self._path = path
        self._backend: _ZipReader | _TarReader | None = None
        try:
            self._backend = _ZipReader(path) if fmt in ("wheel", "zip") else _TarReader(path)
            members, skipped = self._index(self._backend)
        except SourceError:
            self.close()
            raise
        except _ARCHIVE_ERRORS as exc:
            self.close()
            raise SourceError(f"cannot read archive {path}: {_describe(exc)}") from None

        # An sdist or a GitHub tarball wraps everything in NAME-VERSION/; drop that so paths
        # line up with a checkout. Wheels are laid out as installed and are never stripped.
        prefix: str | None = None
        if fmt != "wheel" and members:
            tops = {p.split("/", 1)[0] for p in members}
            if len(tops) == 1 and all("/" in p for p in members):
                prefix = tops.pop()
                members = {p[len(prefix) + 1 :]: h for p, h in members.items()}
        skipped = list(skipped) + self._set_members(members)
        self.info = SourceInfo(
            spec=spec,
            kind=kind,
            location=str(path),
            digest=digest or "sha256:" + _sha256_file(path),
            label=label or _dist_name(path.name),
            details={"format": fmt, "stripped_prefix": prefix, **(details or {})},
            skipped=tuple(skipped),
        )

    @staticmethod
    def _index(
        backend: _ZipReader | _TarReader,
    ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        members: dict[str, Any] = {}
        raw_names: dict[str, str] = {}
        skipped: list[tuple[str, str]] = []
        for raw, mtype, handle in backend.members():
            rel, reason = _safe_member_path(raw)
            if reason:
                skipped.append((raw, reason))
            elif rel is None or mtype == "dir":
                continue
            elif mtype != "file":
                skipped.append((raw, mtype))
            else:
                if rel in members:
                    # zipfile and tarfile both let the last entry of a name win; do the same.
                    skipped.append((raw_names[rel], "duplicate member (a later one wins)"))
                members[rel] = handle
                raw_names[rel] = raw
        return members, skipped

    def _read_member(self, path: str, handle: Any) -> bytes:
        assert self._backend is not None
        try:
            return self._backend.read(handle)
        except _ARCHIVE_ERRORS as exc:
            raise SourceError(
                f"cannot read archive {self._path}: {path}: {_describe(exc)}"
            ) from None

    def read_many(self, paths: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        backend = self._backend
        if backend is None or not backend.sequential:
            yield from super().read_many(paths)
            return
        order = list(paths)
        handles = {p: self._lookup(p) for p in order}  # fail before reading anything
        # Read in archive order (one forward pass through the compressed stream) and yield
        # each file as soon as everything before it in the requested order is available.
        # Only out-of-order files are buffered; a path requested twice is kept until its
        # last use.
        remaining = Counter(order)
        ready: dict[str, bytes] = {}
        i = 0
        for path in sorted(handles, key=lambda p: backend.offset(handles[p])):
            ready[path] = self._read_member(path, handles[path])
            while i < len(order) and order[i] in ready:
                current = order[i]
                data = ready[current]
                remaining[current] -= 1
                if not remaining[current]:
                    del ready[current]
                i += 1
                yield current, data

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
        super().close()


class PypiSource(ArchiveSource):
    """A pinned PyPI release: a cached wheel (or sdist) read like any archive."""


# --------------------------------------------------------------------------- git


class GitSource(Source):
    """The tree of one commit, read from the object database (never the working tree)."""

    def __init__(self, spec: str, repo_path: Path, ref: str) -> None:
        super().__init__()
        try:
            import git  # lazy: GitPython refuses to import when no git executable exists
        except ImportError as exc:
            raise SourceError(f"git: GitPython is unusable: {_describe(exc)}") from None
        try:
            self._repo = git.Repo(repo_path)
        except (git.exc.InvalidGitRepositoryError, git.exc.NoSuchPathError):
            raise SourceError(f"git: not a git repository: {repo_path}") from None
        except (git.exc.GitError, OSError) as exc:
            raise SourceError(f"git: cannot open {repo_path}: {_describe(exc)}") from None
        try:
            members, skipped, sha = self._index(ref, repo_path)
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
            digest=f"git:{sha}",
            label=label,
            details={"ref": ref, "commit": sha},
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


def _git_refusal(repo_path: Path) -> str:
    """git's own complaint when it refuses the repository for its owner, else ""."""
    try:
        proc = subprocess.run(["git", "-C", str(repo_path), "rev-parse", "--git-dir"],
                              capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stderr if "dubious ownership" in proc.stderr else ""


# --------------------------------------------------------------------------- PyPI


def _offline() -> bool:
    return os.environ.get("LINEAGE_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def _archives_in(directory: Path) -> list[Path]:
    try:
        entries = sorted(directory.iterdir())
    except OSError:
        return []
    return [p for p in entries if p.is_file() and _archive_format(p.name)]


def _cached_archive(dest: Path, name: str) -> Path | None:
    found = [p for p in _archives_in(dest) if _dist_name(p.name) == name]
    return found[0] if len(found) == 1 else None


def _pip_download(requirement: str, dest: Path) -> tuple[bool, str]:
    """Download one wheel with pip; return (ok, short reason on failure).

    --only-binary=:all: matters: for an sdist pip would run the build backend.
    """
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--no-input",
        "--disable-pip-version-check",
        "--quiet",
        "--timeout",
        str(NET_TIMEOUT),
        "-d",
        str(dest),
        requirement,
    ]
    try:
        proc = subprocess.run(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=PIP_TIMEOUT,
            text=True,
            errors="replace",
        )
    except subprocess.TimeoutExpired:
        return False, f"timed out after {PIP_TIMEOUT}s"
    except OSError as exc:
        return False, _describe(exc)
    if proc.returncode == 0:
        return True, ""
    lines = [ln.strip() for ln in proc.stderr.splitlines() if ln.strip()]
    errors = [ln.removeprefix("ERROR:").strip() for ln in lines if ln.startswith("ERROR:")]
    reason = (errors or lines or [f"exit status {proc.returncode}"])[-1]
    return False, _one_line(reason, 200)


def _http_get(url: str) -> Any:
    """urlopen with our timeout and User-Agent (a response to use as a context manager)."""
    req = urllib.request.Request(url, headers={"User-Agent": f"lineage/{__version__}"})
    return urllib.request.urlopen(req, timeout=NET_TIMEOUT)


def _get_json(url: str, requirement: str, pip_reason: str) -> Any | None:
    """GET a PyPI JSON document; None for 404, SourceError for any other failure."""
    try:
        with _http_get(url) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return None
        reason: object = f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
    raise SourceError(
        f"pypi: cannot query PyPI for {requirement}: {_one_line(reason, 150)} (pip: {pip_reason})"
    )


def _pypi_release_files(name: str, version: str, pip_reason: str) -> list[dict[str, Any]]:
    """The files of one release, from PyPI's JSON API."""
    requirement = f"{name}=={version}"
    project_url = f"{PYPI_JSON_URL}/{urllib.parse.quote(name, safe='')}"
    data = _get_json(
        f"{project_url}/{urllib.parse.quote(version, safe='')}/json", requirement, pip_reason
    )
    if isinstance(data, dict):
        files = data.get("urls")
    else:
        # Some PyPI mirrors and proxies only serve the project document, whose "releases"
        # maps each version (as uploaded) to its files.
        data = _get_json(f"{project_url}/json", requirement, pip_reason)
        releases = data.get("releases") if isinstance(data, dict) else None
        releases = releases if isinstance(releases, dict) else {}
        wanted = version.lower().removeprefix("v")
        files = next(
            (f for v, f in releases.items() if str(v).lower().removeprefix("v") == wanted), None
        )
        if not files:  # unknown project, unknown version, or a release with no files
            raise SourceError(f"pypi: no release {requirement} (pip: {pip_reason})")
    return [f for f in files or [] if isinstance(f, dict)]


def _pick_release_file(files: list[dict[str, Any]]) -> dict[str, Any] | None:
    def usable(f: dict[str, Any]) -> bool:
        fn = f.get("filename")
        return (
            isinstance(fn, str)
            and os.path.basename(fn) == fn
            and "\\" not in fn
            and _archive_format(fn) is not None
            and isinstance(f.get("url"), str)
        )

    candidates = [f for f in files if usable(f)]
    sdists = [f for f in candidates if f.get("packagetype") == "sdist"]
    # Prefer .tar.gz among sdists (old releases sometimes also ship a .zip).
    sdists.sort(key=lambda f: not f["filename"].lower().endswith(".tar.gz"))
    if sdists:
        return sdists[0]
    # No sdist: any wheel still holds the Python sources, even one for another platform.
    wheels = [f for f in candidates if f.get("packagetype") == "bdist_wheel"]
    wheels.sort(key=lambda f: not f["filename"].endswith("-none-any.whl"))
    return wheels[0] if wheels else None


def _download_url(url: str, expected_sha256: str, target: Path) -> None:
    h = hashlib.sha256()
    try:
        with _http_get(url) as resp, open(target, "wb") as out:
            for chunk in iter(lambda: resp.read(1 << 20), b""):
                h.update(chunk)
                out.write(chunk)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SourceError(f"pypi: cannot download {url}: {_one_line(reason, 150)}") from None
    if h.hexdigest() != expected_sha256:
        raise SourceError(
            f"pypi: sha256 mismatch for {target.name}: PyPI states {expected_sha256}, "
            f"downloaded file has {h.hexdigest()}"
        )


def _fetch_release(name: str, version: str, tmp: Path) -> tuple[Path, str | None]:
    """Download a release into ``tmp``; return (file, url if known)."""
    ok, pip_reason = _pip_download(f"{name}=={version}", tmp)
    if ok:
        saved = _archives_in(tmp)
        if len(saved) == 1:
            return saved[0], None
        pip_reason = f"pip saved {len(saved)} archives"
    # No wheel for this platform (or pip failed otherwise). `pip download` of an sdist
    # would run its build backend, so fetch the sdist ourselves from the JSON API.
    chosen = _pick_release_file(_pypi_release_files(name, version, pip_reason))
    if chosen is None:
        raise SourceError(
            f"pypi: {name}=={version} has no sdist or wheel to download (pip: {pip_reason})"
        )
    expected = str((chosen.get("digests") or {}).get("sha256") or "").lower()
    if not re.fullmatch(r"[0-9a-f]{64}", expected):
        raise SourceError(f"pypi: PyPI states no sha256 for {chosen['filename']}; not using it")
    target = tmp / chosen["filename"]
    _download_url(chosen["url"], expected, target)
    return target, chosen["url"]


def _open_pypi(spec: str, cache_dir: Path | None) -> PypiSource:
    m = _PYPI_SPEC.fullmatch(spec)
    if m is None:
        raise SourceError(f"pypi: expected pypi:NAME==VERSION[#sha256=HEX], got {spec!r}")
    raw_name, version = m["name"], m["version"]
    pinned = (m["sha256"] or "").lower()
    name = _canonical_name(raw_name)
    requirement = f"{raw_name}=={version}"
    base = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    dest = base / "downloads" / "pypi" / f"{name}-{version}"

    url: str | None = None
    archive = _cached_archive(dest, name)
    if archive is not None:
        sha = _sha256_file(archive)
        if pinned and sha != pinned:
            raise SourceError(
                f"pypi: sha256 mismatch for {requirement}: expected {pinned}, "
                f"cached {archive} has {sha}"
            )
    else:
        if _offline():
            raise SourceError(
                f"pypi: {requirement} is not in the cache ({dest}) and LINEAGE_OFFLINE forbids "
                "downloading"
            )
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            # Download next to the cache entry and move it in only once verified, so an
            # interrupted or rejected download never looks like a cache hit (nor leaves an
            # empty release directory behind).
            with tempfile.TemporaryDirectory(prefix=".download-", dir=dest.parent) as tmp:
                fetched, url = _fetch_release(raw_name, version, Path(tmp))
                sha = _sha256_file(fetched)
                if pinned and sha != pinned:
                    raise SourceError(
                        f"pypi: sha256 mismatch for {requirement}: expected {pinned}, "
                        f"downloaded {fetched.name} has {sha}"
                    )
                dest.mkdir(exist_ok=True)
                for stale in _archives_in(dest):
                    stale.unlink()
                archive = dest / fetched.name
                os.replace(fetched, archive)
        except OSError as exc:
            raise SourceError(f"pypi: cannot write cache {dest}: {_describe(exc)}") from None

    details: dict[str, Any] = {"name": name, "version": version, "filename": archive.name}
    if url:
        details["url"] = url
    return PypiSource(
        spec,
        archive.resolve(),
        kind="pypi",
        label=name,
        digest=f"sha256:{sha}",
        details=details,
    )


# --------------------------------------------------------------------------- dispatch


def open_source(spec: str, cache_dir: Path | None = None) -> Source:
    """Open what the user named: a directory, an archive, PATH@REF, or pypi:NAME==VERSION."""
    if not spec or not spec.strip():
        raise SourceError("empty source spec")
    if spec.startswith("pypi:"):
        return _open_pypi(spec, cache_dir)

    path = Path(spec).expanduser()
    # os.path predicates (unlike some Path ones) answer False instead of raising.
    if not os.path.exists(path) and "@" in spec:
        repo, ref = spec.rsplit("@", 1)
        repo_path = Path(repo).expanduser()
        if repo and os.path.isdir(repo_path):
            return GitSource(spec, repo_path.resolve(), ref)
    if os.path.isdir(path):
        return DirSource(spec, path.resolve())
    if os.path.isfile(path):
        if _archive_format(path.name):
            return ArchiveSource(spec, path.resolve())
        raise SourceError(_UNSUPPORTED.format(spec))
    if os.path.exists(path):  # a fifo, socket or device
        raise SourceError(_UNSUPPORTED.format(spec))
    raise SourceError(f"no such file or directory: {spec}")
