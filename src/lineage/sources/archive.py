"""Wheels, zips and tarballs, read member by member in memory (never extracted to disk)."""

from __future__ import annotations

import io
import lzma
import os
import stat
import tarfile
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from lineage.errors import SourceError
from lineage.sources.base import (
    _UNSUPPORTED,
    Source,
    SourceInfo,
    _archive_format,
    _describe,
    _dist_name,
    _safe_member_path,
    _sha256_file,
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


class _ZipReader:
    sequential = False  # members can be read in any order at no extra cost

    def __init__(self, path: Path) -> None:
        self._zf = zipfile.ZipFile(path)

    def members(self) -> Iterator[tuple[str, str, Any]]:
        for info in self._zf.infolist():
            yield info.filename, _zip_member_type(info), info

    def read(self, handle: Any) -> bytes:
        return _read_zip_member(self._zf, handle)

    def offset(self, handle: Any) -> int:
        return int(handle.header_offset)

    def close(self) -> None:
        self._zf.close()


class _ZipLaterReader:
    """Members of a zip archive read after its source was closed (:meth:`Source.later_reader`).

    The archive is opened on the first read and kept open; a forked process opens its own (a
    file offset is shared across fork, so two processes reading through one handle would mix
    their reads). The members are the closed source's (display path -> ZipInfo); the caller
    checks what it reads against the digest it indexed, so a file replaced in between is noticed.
    """

    def __init__(self, path: Path, members: dict[str, Any], label: str) -> None:
        self._path, self._members, self._label = path, members, label
        self._zf: zipfile.ZipFile | None = None
        self._pid = 0

    def read(self, path: str) -> bytes:
        try:
            info = self._members[path]
        except KeyError:
            raise SourceError(f"{self._label}: no such file in source: {path}") from None
        try:
            if self._zf is None or self._pid != os.getpid():
                self._zf, self._pid = zipfile.ZipFile(self._path), os.getpid()
            return _read_zip_member(self._zf, info)
        except _ARCHIVE_ERRORS as exc:
            raise SourceError(f"cannot read archive {self._path}: {path}: {_describe(exc)}") from None


def _read_zip_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's bytes, never inflated past its stated size. ``ZipFile.read`` inflates the
    whole compressed stream before cutting it at ``file_size`` (a member whose header states
    100 bytes over 200 KB of deflated zeros peaked at 412 MB); ``read(n)`` inflates at most
    ``n`` bytes, then checks the CRC of what it gave (a lying header: BadZipFile, "Bad
    CRC-32")."""
    with zf.open(info) as fh:
        data = fh.read(info.file_size)
    if len(data) != info.file_size:
        raise zipfile.BadZipFile(f"{info.filename}: unexpected end of data")
    return data


class _ArchiveStream(io.RawIOBase):
    """An archive member's stream whose read errors (a bad CRC at its end, a truncated tarball)
    are one-line :class:`SourceError`s, as a whole read's are."""

    def __init__(self, fh: IO[bytes], archive: Path, path: str) -> None:
        super().__init__()
        self._fh, self._archive, self._member = fh, archive, path

    def read(self, size: int = -1) -> bytes:  # type: ignore[override]
        try:
            return self._fh.read(size)
        except _ARCHIVE_ERRORS as exc:
            raise SourceError(f"cannot read archive {self._archive}: {self._member}: {_describe(exc)}") from None

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._fh.close()
        super().close()


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


# A project's own files: a single top folder holding one wraps a project (``git archive --prefix``).
_PROJECT_FILES = ("setup.py", "setup.cfg", "pyproject.toml", "PKG-INFO")


def _wrapper(top: str, members: dict[str, Any]) -> bool:
    """Whether an archive's single top folder wraps the project (an sdist's NAME-VERSION/, a
    GitHub archive's REPO-REF/: never a Python name; or a folder holding a project file) rather
    than being its code: a zip of a package folder keeps ``pkg/`` in its paths, as the folder
    itself does (stripped, ``pkg/core.py`` became ``core.py`` and paired otherwise)."""
    return not top.isidentifier() or any(f"{top}/{name}" in members for name in _PROJECT_FILES)


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
            if len(tops) == 1 and all("/" in p for p in members) and _wrapper(next(iter(tops)), members):
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

    def size(self, path: str) -> int | None:
        handle = self._lookup(path)
        return int(handle.file_size if isinstance(handle, zipfile.ZipInfo) else handle.size)

    def _open_member(self, path: str, handle: Any) -> IO[bytes]:
        assert self._backend is not None
        try:
            if isinstance(handle, zipfile.ZipInfo):  # ZipExtFile: never past the stated size, CRC at its end
                return _ArchiveStream(self._backend._zf.open(handle), self._path, path)  # type: ignore[union-attr]
            fh = self._backend._tf.extractfile(handle)  # type: ignore[union-attr]
            if fh is None:
                raise tarfile.ReadError(f"{handle.name} is not a regular file")
            return _ArchiveStream(fh, self._path, path)
        except _ARCHIVE_ERRORS as exc:
            raise SourceError(f"cannot read archive {self._path}: {path}: {_describe(exc)}") from None

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

    def later_reader(self) -> _ZipLaterReader | None:
        """Zip members can be read one at a time at no extra cost; a tarball's cannot."""
        if not isinstance(self._backend, _ZipReader):
            return None
        return _ZipLaterReader(self._path, self._members, self.info.label)

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
        super().close()

