"""Open a codebase for analysis: a directory, an archive, a git commit or a PyPI release.

Every source gives the same read-only view: a sorted list of POSIX paths of regular files,
and their bytes. Nothing is extracted or checked out to disk, and members that could point
outside the source root (absolute paths, "..", links, devices) are never returned; they are
listed in ``SourceInfo.skipped`` instead.

One module per backend: :mod:`~lineage.sources.base` (the common view),
:mod:`~lineage.sources.directory`, :mod:`~lineage.sources.archive`, :mod:`~lineage.sources.git`,
:mod:`~lineage.sources.pypi`; :func:`open_source` here picks one from the spec.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from lineage.errors import SourceError
from lineage.settings import default_cache_dir
from lineage.sources.archive import ArchiveSource
from lineage.sources.base import _UNSUPPORTED, Source, SourceInfo, _archive_format, blob_digest, display_path
from lineage.sources.directory import SKIP_DIRS, DirSource
from lineage.sources.git import GitSource
from lineage.sources.pypi import NET_TIMEOUT, PYPI_JSON_URL, PypiSource, _open_pypi

__all__ = [
    "SKIP_DIRS",
    "NET_TIMEOUT",
    "PYPI_JSON_URL",
    "ArchiveSource",
    "DirSource",
    "GitSource",
    "PypiSource",
    "Source",
    "SourceInfo",
    "blob_digest",
    "checked_upstreams",
    "default_cache_dir",
    "display_path",
    "open_source",
    "source_spec",
]



def source_spec(spec: str | os.PathLike[str]) -> str:
    """A spec as a string: an API caller's ``pathlib.Path`` names its directory or archive."""
    return os.fspath(spec) if isinstance(spec, os.PathLike) else spec


def checked_upstreams(specs: Sequence[str | os.PathLike[str]], command: str) -> list[str]:
    """An API caller's upstreams as a list of specs. A lone spec is refused with the fix, not
    iterated (a string is a sequence of one-letter "specs": "no such file or directory: p"), and
    so is none at all (the CLI says it in its own words, naming its options)."""
    if isinstance(specs, (str, bytes, os.PathLike)):
        raise SourceError(f"{command}: the upstreams are a list of sources, not one: [{os.fsdecode(specs)!r}]")
    if not specs:
        raise SourceError(f"{command} needs at least one upstream")
    return [source_spec(spec) for spec in specs]


def open_source(spec: str | os.PathLike[str], cache_dir: Path | None = None, check_later: bool = False) -> Source:
    """Open what the user named: a directory, an archive, PATH@REF, or pypi:NAME==VERSION
    (a ``pathlib.Path`` too). ``check_later``: a cached PyPI release is hashed while the caller
    works, which must call :meth:`Source.verify` before it writes anything made from the source
    (see :class:`lineage.sources.pypi.PinCheck`)."""
    spec = source_spec(spec)
    if not isinstance(spec, str) or not spec.strip():
        raise SourceError("empty source spec")
    if spec.startswith("pypi:"):
        return _open_pypi(spec, cache_dir, check_later)

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
    raise SourceError(f"no such file or directory: {spec}{_missing_hint(spec)}")


# What a spec that names no file looks like: another scheme's ``npm:x==1``, ``PyPI:x==1`` or a
# URL (only ``pypi:`` is one; two letters at least, so ``C:`` stays a drive), or a pin without
# its scheme (``flask==3.0.3``, pip's own form).
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+):")
_BARE_PIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*==[^\s/\\]+")


def _missing_hint(spec: str) -> str:
    """Why a spec that is no path was probably meant otherwise, said after the error: a user who
    typed another scheme or left ``pypi:`` out is told what is read, not only that no such file
    exists."""
    scheme = _SCHEME.match(spec)
    if scheme:
        return (f" (a source is a directory, an archive, PATH@REF or pypi:NAME==VERSION; "
                f"'{scheme.group(1)}:' is no scheme lineage reads)")
    if _BARE_PIN.fullmatch(spec):
        return f" (a PyPI release is named pypi:{spec})"
    return ""
