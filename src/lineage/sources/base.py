"""What every source is: :class:`SourceInfo`, the read-only :class:`Source` view, and the helpers
all backends share (archive suffixes, safe member paths, one-line error texts).
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol, Self, TypeVar

from packaging.utils import canonicalize_name

from lineage.errors import SourceError
from lineage.settings import MAX_DECLARED_FILE_BYTES

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

_UNSUPPORTED = (
    "unsupported source: {} (expected a directory, .whl/.zip/.tar.gz/.tgz/.tar archive, "
    "PATH@REF git ref, or pypi:NAME==VERSION)"
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
        # from a file or folder name (an archive's, a repository's): shown in headlines and logs
        object.__setattr__(self, "label", display_path(self.label))


class LaterReader(Protocol):
    """Reads one file of a closed source by path (:meth:`Source.later_reader`); raises
    :class:`lineage.errors.SourceError` when it cannot."""

    def read(self, path: str) -> bytes: ...


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

    def size(self, path: str) -> int | None:
        """The file's size in bytes as the source states it without reading the file (an archive
        member's header, a file's ``st_size``, a git blob's header), so that a file over a limit
        is never read; None when it cannot tell. A header may lie: readers still check what they
        read, and an archive member is never inflated past its stated size."""
        return None

    def stream_digest(self, path: str, size: int) -> str:
        """The file's git blob hash, read in chunks and never held whole (a file too large to
        index still has the digest its bytes give: the tree digest stays a digest of the files):
        exactly ``size`` bytes, its stated size, or a one-line :class:`SourceError`."""
        known = self.known_digest(path)
        if known is not None:
            return known
        digest, n = hashlib.sha1(b"blob %d\0" % size), 0
        with self._open_member(path, self._lookup(path)) as fh:
            # one byte past the stated size tells a file that grew since it was listed
            while n <= size and (chunk := fh.read(min(_STREAM_CHUNK, size + 1 - n))):
                digest.update(chunk)
                n += len(chunk)
        if n != size:
            raise SourceError(f"{self.info.label}: {path}: {n:,}{'+' if n > size else ''} bytes read, "
                              f"{size:,} stated (changed while read, or a damaged archive)")
        return digest.hexdigest()

    def _open_member(self, path: str, handle: Any) -> IO[bytes]:
        """A binary stream of the file (for :meth:`stream_digest`); by default its bytes read
        whole, for a source that states no sizes (whose files are never streamed)."""
        return io.BytesIO(self._read_member(path, handle))

    def read_many(self, paths: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        """Yield (path, bytes) in the given order."""
        for path in paths:
            yield path, self.read(path)

    def verify(self) -> None:
        """Raise :class:`lineage.errors.SourceError` if a check of this source's bytes that runs
        alongside the work (:class:`lineage.sources.pypi.PinCheck`) failed; wait for it if it is
        still running. Nothing to do for the other sources, checked when opened."""

    def later_reader(self) -> LaterReader | None:
        """A reader of this source's files that keeps working after :meth:`close`, for files
        whose bytes a run may never need (:class:`lineage.index.tree.TreeBytes`); None when
        the source cannot read one file at a time cheaply (then every file is read up front)."""
        return None

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


class _Withheld(Exception):  # noqa: N818 - a signal between DeclaredView and read_declared, never raised out
    def __init__(self, path: str, size: int) -> None:
        super().__init__(path)
        self.path, self.size = path, size


class DeclaredView(Source):
    """A source as the readers of its declarations see it (licence files, metadata, vendoring
    records, pyproject.toml): a file over ``limit`` bytes (by its stated size, else by what was
    read) is left out of :meth:`paths` as if absent, and never read whole. :func:`read_declared`
    runs a reader again without a file it asked for that is too large; :meth:`notes` names them."""

    def __init__(self, source: Source, limit: int = MAX_DECLARED_FILE_BYTES) -> None:
        super().__init__()
        self.source, self.limit, self.info = source, limit, source.info
        self.withheld: dict[str, int] = {}  # path -> size

    def paths(self) -> list[str]:
        paths = self.source.paths()
        return [p for p in paths if p not in self.withheld] if self.withheld else paths

    def read(self, path: str) -> bytes:
        size = self.source.size(path)
        if size is not None and size > self.limit:
            raise _Withheld(path, size)
        data = self.source.read(path)
        if len(data) > self.limit:  # no size stated: read once, then left out
            raise _Withheld(path, len(data))
        return data

    def known_digest(self, path: str) -> str | None:
        return self.source.known_digest(path)

    def size(self, path: str) -> int | None:
        return self.source.size(path)

    def notes(self) -> list[tuple[str, str]]:
        """(path, reason) of each file left unread, for the manifest's skipped members."""
        # no size in the reason: summary.md counts the entries not read per reason
        return [(path, f"not read for declarations: over {self.limit} bytes")
                for path, size in sorted(self.withheld.items())]


_T = TypeVar("_T")


def read_declared(source: Source, reader: Callable[[Source], _T]) -> _T:
    """``reader(view)`` over a :class:`DeclaredView` of ``source`` (``source`` itself when it is
    one, so several readers share its notes): each time the reader asks for a file over the
    view's limit, it runs again with that file left out. Readers are pure functions of the
    files, so the result is the reader's over a source without the oversized files it wanted."""
    view = source if isinstance(source, DeclaredView) else DeclaredView(source)
    while True:
        try:
            return reader(view)
        except _Withheld as exc:
            if exc.path in view.withheld:  # read by a name its paths() no longer lists
                raise SourceError(f"{view.info.label}: {exc.path} is too large to read "
                                  f"({exc.size} bytes > {view.limit})") from None
            view.withheld[exc.path] = exc.size


# --------------------------------------------------------------------------- helpers


_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def require_python(spec: str, python_files: int, other_files: int, role: str = "upstream", where: str = "") -> None:
    """An upstream without one Python file is almost always a wrong path: refuse it (the caller
    lets ``--allow-empty`` through) rather than report "0 %". ``where`` follows the spec in the
    message (``history``'s " at any of the 300 commits")."""
    if python_files == 0:
        if _is_git_directory(spec):  # its files are objects: the code is at a commit
            raise SourceError(f"{role} {spec} is a git directory (a bare repository or a .git folder): read as "
                              f"a folder it holds no Python files; name a commit: {spec}@REF (tag, branch, sha)")
        raise SourceError(f"{role} {spec} holds no Python files{where} ({other_files} other files); "
                          "check the path, or pass --allow-empty to compare against it anyway")


def _is_git_directory(spec: str) -> bool:
    root = Path(spec).expanduser()
    return root.is_dir() and (root / "HEAD").is_file() and (root / "objects").is_dir() and (root / "refs").is_dir()


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


_STREAM_CHUNK = 1 << 20  # bytes per read of a file digested unread (Source.stream_digest)


def blob_digest(data: bytes) -> str:
    """The git blob id of ``data`` (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()




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
    return canonicalize_name(name)


def _dist_name(filename: str) -> str:
    """Distribution name from an archive file name ('vllm' from vllm-0.3-....whl)."""
    return _canonical_name(_written_dist_name(filename))


def _written_dist_name(filename: str) -> str:
    """The distribution name as an archive file name writes it ('PyPDF2' from PyPDF2-1.26.0.tar.gz)."""
    lower = filename.lower()
    if lower.endswith(".whl"):
        return filename.split("-", 1)[0]
    stem = filename
    for suffix, _fmt in _ARCHIVE_SUFFIXES:
        if lower.endswith(suffix):
            stem = filename[: -len(suffix)]
            break
    # sdists are NAME-VERSION and names may contain '-': the version starts at the first
    # '-' followed by a digit.
    m = re.match(r"(.+?)-v?\d", stem)
    return m.group(1) if m else stem


def spelled_name(filename: str, canonical: str) -> str:
    """A release's label: its ``canonical`` name (PEP 503) spelt with the capitals its archive
    ``filename`` gives it, the project's own spelling (``PyPDF2`` from ``PyPDF2-1.26.0.tar.gz``,
    where the canonical name is ``pypdf2``); separators as the canonical name has them, so two
    spellings of one name still give one label but for case. ``canonical`` when the file names
    another distribution."""
    spelt = re.sub(r"[-_.]+", "-", _written_dist_name(filename))
    return spelt if spelt.lower() == canonical else canonical


def _sha256_file(path: Path, chunk_bytes: int = 1 << 20) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(chunk_bytes), b""):
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


