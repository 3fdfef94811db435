"""A pinned PyPI release: ``pip download --no-deps`` (or the JSON API) into the cache, then read
like any archive. ``LINEAGE_OFFLINE=1`` uses only what the cache holds.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from lineage import __version__
from lineage.errors import SourceError
from lineage.settings import default_cache_dir
from lineage.sources.archive import ArchiveSource
from lineage.sources.base import (
    _archive_format,
    _canonical_name,
    _describe,
    _dist_name,
    _one_line,
    _sha256_file,
    spelled_name,
)

PYPI_JSON_URL = "https://pypi.org/pypi"
NET_TIMEOUT = 60  # seconds without progress on one socket
# Asking where a downloaded file is published is a detail of the report: a registry that does
# not answer (pip behind a mirror, pypi.org unreachable) costs a run this long, not a minute.
LOCATION_TIMEOUT = 10
PIP_TIMEOUT = 900  # seconds for a whole `pip download` (large wheels)
# PyPI's file host: every file PyPI publishes lies at
# ``packages/<b[:2]>/<b[2:4]>/<b[4:]>/<filename>``, ``b`` its BLAKE2b-256 digest in hex.
PYPI_FILES_URL = "https://files.pythonhosted.org/packages"
_CONTENT_ADDRESSED = re.compile(r"/([0-9a-f]{2})/([0-9a-f]{2})/([0-9a-f]{60})/([^/?#]+)$")

_PYPI_SPEC = re.compile(
    r"pypi:(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)"
    r"==(?P<version>[A-Za-z0-9][A-Za-z0-9.!+_-]*)"
    r"(?:#sha256=(?P<sha256>[0-9A-Fa-f]{64}))?"
)


class PypiSource(ArchiveSource):
    """A pinned PyPI release: a cached wheel (or sdist) read like any archive."""

    check: PinCheck | None = None  # its sha256 being computed alongside (check_later)

    def verify(self) -> None:
        if self.check is not None:
            self.check.result()


class ArchiveChanged(SourceError):
    """A cached archive opened with ``check_later`` does not have the sha256 it was recorded
    with: the run stops before writing anything, and opens it again checked first (which
    downloads it again, or, offline, refuses it)."""


# Read per call while hashing in a thread, into one buffer: each call takes the GIL once, and a
# thread waiting for it waits up to the switch interval (5 ms) behind a busy main thread; 1 MB
# reads made the 326 MB vLLM wheel 312 such waits.
_CHECK_CHUNK_BYTES = 16 << 20


class _Hashing(threading.Thread):
    """A :class:`PinCheck`'s thread, the kind a fork waits for (:func:`_wait_for_checks`)."""


class PinCheck:
    """The sha256 of a cached archive computed in a daemon thread while the run goes on.

    On the pinned pair the vLLM wheel (326 MB) took 0.33 s of hashing before every run could
    start; a run that has to compare again (one changed target file) does so meanwhile on the
    other core. The archive is recorded with the sha256 expected of it, so the source is opened
    with that digest; :meth:`result` (through :meth:`PypiSource.verify`) waits for the hash and
    raises :class:`ArchiveChanged` when it differs. Whoever opens with ``check_later`` calls it
    before anything is written from the source's bytes (reports, the archive's recorded member
    digests, which are keyed by the archive's digest); every other cache entry is keyed by the
    bytes it was made from. No process forks while a check hashes (an at-fork hook waits for
    it): a thread running at a fork is a hazard for the child."""

    def __init__(self, archive: Path, expected: str, requirement: str) -> None:
        self.archive, self.expected, self.requirement = archive, expected, requirement
        self._found = ""
        self._error: SourceError | None = None
        self._thread = _Hashing(target=self._run, name=f"lineage-sha256-{archive.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            digest, buffer = hashlib.sha256(), bytearray(_CHECK_CHUNK_BYTES)
            view = memoryview(buffer)
            with open(self.archive, "rb", buffering=0) as handle:
                while size := handle.readinto(buffer):
                    digest.update(view[:size])
            self._found = digest.hexdigest()
        except OSError as exc:
            self._error = SourceError(f"cannot read {self.archive}: {_describe(exc)}")

    def result(self) -> None:
        """Wait for the hash; raise if the archive could not be read or has another sha256."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        if self._found != self.expected:
            raise ArchiveChanged(f"pypi: sha256 mismatch for {self.requirement}: expected {self.expected}, cached "
                                 f"{self.archive} has {self._found} (damaged or replaced)")


def _wait_for_checks() -> None:
    # threading's own list of the live threads: no set of ours (nor its lock, which a fork made
    # by another thread could copy held) to keep in step with it
    for thread in threading.enumerate():
        if isinstance(thread, _Hashing):
            thread.join()


if hasattr(os, "register_at_fork"):  # POSIX; where there is no fork there is nothing to wait for
    os.register_at_fork(before=_wait_for_checks)



# A download folder holds a lock file its run keeps locked (flock) while it downloads; the lock
# goes with the process, so a folder whose lock can be taken was left by a run that was killed or
# interrupted mid-download (a daemon opening thread's cleanup never runs). A folder without one
# (a run killed before it locked, or an older lineage) counts as left once nothing in it changed
# for this long; pip writes into its own temporary folder, so a live one does not change at all.
ABANDONED_DOWNLOAD_SECONDS = 3600
# A folder made this recently is never judged: between its creation and its run's flock, another
# run (or the other source's opening thread of the same run) could take the free lock, remove
# the folder and make the run's own flock fail ("Resource temporarily unavailable").
FRESH_DOWNLOAD_SECONDS = 120
_DOWNLOAD_LOCK = ".lock"


@contextlib.contextmanager
def _downloading(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s download lock for the block (see :func:`_remove_abandoned_downloads`)."""
    import fcntl

    with (folder / _DOWNLOAD_LOCK).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a fresh folder: nobody else holds it
        yield


def _remove_abandoned_downloads(folder: Path, now: float | None = None) -> list[Path]:
    """Remove the ``.download-*`` folders in ``folder`` that no run is downloading into any more
    (each can hold a partial wheel of hundreds of MB): those whose lock can be taken, and those
    without a lock in which nothing changed for :data:`ABANDONED_DOWNLOAD_SECONDS`. Returns those
    removed; one that cannot be judged or removed is left alone."""
    import fcntl
    import shutil
    import time

    now = time.time() if now is None else now
    removed = []
    for tmp in sorted(folder.glob(".download-*")):
        try:
            if now - tmp.stat().st_mtime <= FRESH_DOWNLOAD_SECONDS:
                continue  # just made: its run may not hold the lock yet (another thread's open)
            if (tmp / _DOWNLOAD_LOCK).exists():
                with (tmp / _DOWNLOAD_LOCK).open("a") as lock:
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        continue  # a live download
                    shutil.rmtree(tmp, ignore_errors=True)
            else:
                newest = max([tmp.stat().st_mtime, *(p.stat().st_mtime for p in tmp.rglob("*"))])
                if now - newest <= ABANDONED_DOWNLOAD_SECONDS:
                    continue
                shutil.rmtree(tmp, ignore_errors=True)
        except OSError:  # gone meanwhile, or unreadable: not ours to judge
            continue
        if not tmp.exists():
            removed.append(tmp)
    return removed


def _offline() -> bool:
    return os.environ.get("LINEAGE_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def _archives_in(directory: Path) -> list[Path]:
    try:
        entries = sorted(directory.iterdir())
    except OSError:
        return []
    return [p for p in entries if p.is_file() and _archive_format(p.name)]


def _cached_archive(dest: Path, name: str, pinned: str = "") -> Path | None:
    """The release's archive in ``dest``: the one recorded with the pinned sha256, else the only one."""
    found = [p for p in _archives_in(dest) if _dist_name(p.name) == name]
    pinned_file = next((p for p in found if pinned and _recorded_sha256(p) == pinned), None)
    return pinned_file or (found[0] if len(found) == 1 else None)


def _sha256_record(archive: Path) -> Path:
    return archive.with_name(archive.name + ".sha256")


def _recorded_sha256(archive: Path) -> str | None:
    """The sha256 recorded when ``archive`` was downloaded: None when there is no record (cached
    before sha256s were recorded), "" when the record is damaged (unreadable, or not a sha256)."""
    try:
        text = _sha256_record(archive).read_text(encoding="ascii").strip().lower()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return ""
    return text if re.fullmatch(r"[0-9a-f]{64}", text) else ""


def _record_sha256(archive: Path, sha: str) -> None:
    _sha256_record(archive).write_text(sha + "\n", encoding="ascii")


def _url_record(archive: Path) -> Path:
    return archive.with_name(archive.name + ".url")


@dataclass(frozen=True)
class Published:
    """Where and when the registry published a file: its URL (the download location the SPDX
    attachment names) and upload time (``YYYY-MM-DDTHH:MM:SSZ``, the date ``forkpoint`` gives a
    release candidate); "" for what it did not say."""

    url: str = ""
    uploaded: str = ""
    # the earliest upload of any file of the release: when the release came out (paramiko
    # 1.7.5's sdist, the file lineage takes, was uploaded in 2012 for a 2009 release)
    released: str = ""


def _upload_time(entry: dict[str, Any]) -> str:
    """A JSON file entry's upload time as history and forkpoint write dates ("" if none)."""
    raw = entry.get("upload_time_iso_8601") or entry.get("upload_time")
    if not isinstance(raw, str):
        return ""
    try:
        when = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        return ""
    when = when if when.tzinfo else when.replace(tzinfo=UTC)  # the API's upload_time is UTC
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def published_location(url: str, blake2b_256: str = "") -> str:
    """The address at which PyPI publishes a file its JSON API lists at ``url``: on PyPI's file
    host, at the path its BLAKE2b-256 digest makes (``blake2b_256`` as listed, or read from the
    content-addressed path of ``url``). A mirror or proxy answering for pypi.org lists the same
    file under its own address (this machine's: "../../packages/packages/75/f0/<60 hex>/<file>"
    relative to the document), which nobody else can download from; an SPDX ``downloadLocation``
    or a purl's download URL must name PyPI's. ``url`` as it is when it has no such path and no
    digest is listed."""
    path = urllib.parse.urlsplit(url).path
    found = _CONTENT_ADDRESSED.search(path)
    filename = urllib.parse.unquote(found.group(4)) if found else path.rsplit("/", 1)[-1]
    digest = blake2b_256.lower() if re.fullmatch(r"[0-9a-fA-F]{64}", blake2b_256) else (
        "".join(found.group(1, 2, 3)) if found else "")
    if not digest or not filename or filename in (".", ".."):
        return url
    return f"{PYPI_FILES_URL}/{digest[:2]}/{digest[2:4]}/{digest[4:]}/{urllib.parse.quote(filename)}"


def _listed(entry: dict[str, Any], files: list[dict[str, Any]] | None = None) -> Published:
    """``entry``'s publication; with ``files`` (its release's files), the release's date too."""
    url = entry.get("url")
    digests = entry.get("digests")
    blake2b = digests.get("blake2b_256") if isinstance(digests, dict) else None
    location = published_location(url, blake2b if isinstance(blake2b, str) else "") if isinstance(url, str) else ""
    times = sorted(t for t in (_upload_time(f) for f in (files or [entry])) if t)
    return Published(location, _upload_time(entry), times[0] if times else "")


def _recorded_publication(archive: Path, sha: str) -> Published:
    """Where and when ``archive`` was published, recorded with its sha256 when it was downloaded
    (nothing if none, unreadable, or recorded for other bytes: an archive replaced in the cache is
    not the file at that URL), the same on every later run from the cache. The record is
    ``SHA256 URL [UPLOADED [RELEASED]]``: an archive cached before 2026-12-06 has no upload time,
    one cached before that afternoon no release date."""
    try:
        recorded_sha, url, *rest = _url_record(archive).read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError, ValueError):
        return Published()
    if recorded_sha != sha or not re.fullmatch(r"https?://\S+", url) or len(rest) > 2:
        return Published()
    times = [t if re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", t) else "" for t in rest] + ["", ""]
    # a record written before 2026-12-07 evening may hold a mirror's address of the file
    return Published(published_location(url), times[0], times[1])


def _record_publication(archive: Path, sha: str, published: Published) -> None:
    _url_record(archive).write_text(f"{sha} {published.url} {published.uploaded} {published.released}".rstrip()
                                    + "\n",
                                    encoding="utf-8")


def _listed_sha256(entry: dict[str, Any]) -> str:
    """The sha256 a registry's JSON lists for one file, lower case ("" if it lists none, or in
    another shape than a mapping: a mirror's own answer)."""
    digests = entry.get("digests")
    return str(digests.get("sha256") or "").lower() if isinstance(digests, dict) else ""


def _published(name: str, version: str, filename: str, sha: str) -> Published:
    """Where and when PyPI's JSON API lists ``filename`` with this sha256 (nothing when it lists
    no such file or cannot be asked within ``LOCATION_TIMEOUT``): what pip downloaded, named by the
    registry itself. pip does not say where it downloaded from (perhaps a mirror); a file PyPI
    lists with the same digest is the same file, at PyPI's URL. Never fails the download: the
    location is a detail."""
    try:
        files = _pypi_release_files(name, version, "", LOCATION_TIMEOUT)
    except SourceError:
        return Published()
    for f in files:
        if f.get("filename") == filename and _listed_sha256(f) == sha and isinstance(f.get("url"), str):
            return _listed(f, files)
    return Published()


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


def _http_get(url: str, timeout: float = NET_TIMEOUT) -> Any:
    """urlopen with our timeout and User-Agent (a response to use as a context manager)."""
    req = urllib.request.Request(url, headers={"User-Agent": f"lineage/{__version__}"})
    return urllib.request.urlopen(req, timeout=timeout)


def _get_json(url: str, requirement: str, pip_reason: str, timeout: float = NET_TIMEOUT) -> Any | None:
    """GET a PyPI JSON document; None for 404, SourceError for any other failure."""
    try:
        with _http_get(url, timeout) as resp:
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


def _pypi_release_files(name: str, version: str, pip_reason: str,
                        timeout: float = NET_TIMEOUT) -> list[dict[str, Any]]:
    """The files of one release, from PyPI's JSON API."""
    requirement = f"{name}=={version}"
    project_url = f"{PYPI_JSON_URL}/{urllib.parse.quote(name, safe='')}"
    document = f"{project_url}/{urllib.parse.quote(version, safe='')}/json"
    data = _get_json(document, requirement, pip_reason, timeout)
    if isinstance(data, dict):
        files = data.get("urls")
    else:
        # Some PyPI mirrors and proxies only serve the project document, whose "releases"
        # maps each version (as uploaded) to its files.
        document = f"{project_url}/json"
        data = _get_json(document, requirement, pip_reason, timeout)
        releases = data.get("releases") if isinstance(data, dict) else None
        releases = releases if isinstance(releases, dict) else {}
        wanted = version.lower().removeprefix("v")
        files = next(
            (f for v, f in releases.items() if str(v).lower().removeprefix("v") == wanted), None
        )
        if not files:  # unknown project, unknown version, or a release with no files
            raise SourceError(f"pypi: no release {requirement} (pip: {pip_reason})")
    # Mirrors and proxies may answer with file URLs relative to the document ("../../packages/...").
    return [{**f, "url": urllib.parse.urljoin(document, f["url"])} if isinstance(f.get("url"), str) else f
            for f in files or [] if isinstance(f, dict)]


def has_openable_file(files: list[dict[str, Any]]) -> bool:
    """Whether a release's files (PyPI's listing) hold one :func:`_pick_release_file` takes without
    a pin: an sdist or a wheel in an archive format lineage opens (not an egg or a Windows
    installer: MySQL-python 1.2.2 lists two ``bdist_egg`` files and nothing else)."""
    return _pick_release_file(files) is not None


def _pick_release_file(files: list[dict[str, Any]], pinned: str = "") -> dict[str, Any] | None:
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
    if pinned:  # the file the pin names, whichever it is (an sdist's sha256 taken from PyPI's page)
        return next((f for f in candidates if _listed_sha256(f) == pinned), None)
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


def _fetch_release(name: str, version: str, tmp: Path, pinned: str = "") -> tuple[Path, Published | None]:
    """Download a release into ``tmp``; return (file, where and when it was published, if known).
    With ``pinned``, a file pip chose that is not the pinned one is replaced by the file PyPI lists
    with that sha256 (an sdist's, as PyPI's page shows it), when it lists one (else the caller's
    mismatch stands)."""
    ok, pip_reason = _pip_download(f"{name}=={version}", tmp)
    if ok:
        saved = _archives_in(tmp)
        if len(saved) == 1:
            listed, files = None, None
            if pinned and _sha256_file(saved[0]) != pinned:
                with contextlib.suppress(SourceError):  # the registry cannot tell: the mismatch stands
                    files = _pypi_release_files(name, version, pip_reason)
                    listed = _pick_release_file(files, pinned)
            if listed is None:
                return saved[0], None
            saved[0].unlink()
            return _download_listed(listed, tmp, files)
        pip_reason = f"pip saved {len(saved)} archives"
    # No wheel for this platform (or pip failed otherwise). `pip download` of an sdist
    # would run its build backend, so fetch the sdist ourselves from the JSON API.
    files = _pypi_release_files(name, version, pip_reason)
    chosen = _pick_release_file(files, pinned)
    if chosen is None:
        what = "file of the pinned sha256" if pinned else "sdist or wheel"
        raise SourceError(f"pypi: {name}=={version} has no {what} to download (pip: {pip_reason})")
    return _download_listed(chosen, tmp, files)


def _download_listed(chosen: dict[str, Any], tmp: Path, files: list[dict[str, Any]] | None = None,
                     ) -> tuple[Path, Published]:
    """Download a file PyPI's JSON lists into ``tmp``, checked against the sha256 it states."""
    expected = _listed_sha256(chosen)
    if not re.fullmatch(r"[0-9a-f]{64}", expected):
        raise SourceError(f"pypi: PyPI states no sha256 for {chosen['filename']}; not using it")
    target = tmp / chosen["filename"]
    _download_url(chosen["url"], expected, target)
    return target, _listed(chosen, files)


def cache_entry_name(spec: str) -> str | None:
    """The folder under ``downloads/pypi/`` that a ``pypi:`` spec's release is cached in
    (``NAME-VERSION``, the name PEP 503-normalised: ``pypi:Foo==1.0`` and ``pypi:foo==1.0#sha256=...``
    share one); None for a spec that is not one."""
    m = _PYPI_SPEC.fullmatch(spec)
    return None if m is None else _entry_name(m)


def _entry_name(m: re.Match[str]) -> str:
    """:func:`cache_entry_name` of a matched spec."""
    return f"{_canonical_name(m['name'])}-{m['version']}"


def release_key(spec: str) -> tuple[str, Version] | None:
    """``pypi:NAME==VERSION[#sha256=...]`` as (normalised name, PEP 440 version), to tell two
    spellings of one release (``pypi:Six==1.16``, ``pypi:six==1.16.0``) from two releases; None
    for any other source spec or a version PEP 440 does not read."""
    m = _PYPI_SPEC.fullmatch(spec)
    if m is None:
        return None
    try:
        return _canonical_name(m["name"]), Version(m["version"])
    except InvalidVersion:
        return None


def _open_pypi(spec: str, cache_dir: Path | None, check_later: bool = False) -> PypiSource:
    """The release's archive, from the cache or downloaded, checked against its pin (else the
    sha256 recorded at download). ``check_later``: a cached archive recorded with the sha256
    expected of it is opened at once, and hashed in a thread (:class:`PinCheck`); the caller
    calls :meth:`PypiSource.verify` before writing anything made from it."""
    m = _PYPI_SPEC.fullmatch(spec)
    if m is None:
        raise SourceError(f"pypi: expected pypi:NAME==VERSION[#sha256=HEX], got {spec!r}")
    raw_name, version = m["name"], m["version"]
    pinned = (m["sha256"] or "").lower()
    name = _canonical_name(raw_name)
    requirement = f"{raw_name}=={version}"
    base = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    dest = base / "downloads" / "pypi" / _entry_name(m)

    published: Published | None = None
    archive = _cached_archive(dest, name, pinned)
    recorded = _recorded_sha256(archive) if archive is not None else None
    if check_later and archive is not None and recorded and recorded == (pinned or recorded):
        check = PinCheck(archive, recorded, requirement)
        try:
            source = _pypi_source(spec, archive, name, version, recorded, None)
        except SourceError:  # cut short, say: a failed check (ArchiveChanged) first, as when checked first
            check.result()
            raise
        source.check = check
        return source
    sha = _sha256_file(archive) if archive is not None else ""
    # The sha256 the download had (recorded beside it) or the pin: checked on every use, so a
    # truncated or altered archive is fetched again (or, offline, refused), never read. A damaged
    # record ("") or a missing one (None) with no pin checks nothing, so its archive is fetched
    # again too: trusted, it was read as the release (another release's wheel in its place too),
    # and its sha256 recorded as the right one. A pinned archive without a record is the pinned
    # file when its sha256 is the pin's, and its record is written.
    expected = pinned or recorded
    if archive is not None and sha != expected:
        if _offline() and expected is None:
            raise SourceError(
                f"pypi: {requirement}: cached {archive} has no sha256 record "
                f"({_sha256_record(archive).name}), so nothing tells it is that release (delete it, "
                "pin its sha256, or download again without LINEAGE_OFFLINE)"
            )
        if _offline():
            what = (f"expected {expected}" if pinned else f"recorded at download {expected}" if expected
                    else f"its record {_sha256_record(archive).name} is damaged")
            raise SourceError(
                f"pypi: sha256 mismatch for {requirement}: {what}, cached {archive} has "
                f"{sha} (damaged or replaced; delete it, or download again without LINEAGE_OFFLINE)"
            )
        archive = None
    if archive is not None:
        if recorded is None:  # pinned, and the pin's file: record it now
            with contextlib.suppress(OSError):  # a read-only cache is still usable
                _record_sha256(archive, sha)
    else:
        if _offline():
            raise SourceError(
                f"pypi: {requirement} is not in the cache ({dest}) and LINEAGE_OFFLINE forbids "
                "downloading"
            )
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            _remove_abandoned_downloads(dest.parent)
            # Download next to the cache entry and move it in only once verified, so an
            # interrupted or rejected download never looks like a cache hit (nor leaves an
            # empty release directory behind).
            with tempfile.TemporaryDirectory(prefix=".download-", dir=dest.parent) as tmp, _downloading(Path(tmp)):
                fetched, published = _fetch_release(raw_name, version, Path(tmp), pinned)
                sha = _sha256_file(fetched)
                if pinned and sha != pinned:
                    raise SourceError(
                        f"pypi: sha256 mismatch for {requirement}: expected {pinned}, "
                        f"downloaded {fetched.name} has {sha}"
                    )
                dest.mkdir(exist_ok=True)
                # Unpinned, the release's one archive is replaced. A pinned file is kept beside the
                # others: another source of this run may read one of them later (a zip is read
                # member by member), e.g. a wheel compared with its release's pinned sdist.
                for stale in [] if pinned else _archives_in(dest):
                    stale.unlink()
                    _sha256_record(stale).unlink(missing_ok=True)
                    _url_record(stale).unlink(missing_ok=True)
                archive = dest / fetched.name
                published = published or _published(raw_name, version, fetched.name, sha)
                _record_sha256(archive, sha)
                if published.url:
                    _record_publication(archive, sha, published)
                os.replace(fetched, archive)
        except OSError as exc:
            raise SourceError(f"pypi: cannot write cache {dest}: {_describe(exc)}") from None

    return _pypi_source(spec, archive, name, version, sha, published)


def _pypi_source(spec: str, archive: Path, name: str, version: str, sha: str,
                 published: Published | None) -> PypiSource:
    details: dict[str, Any] = {"name": name, "version": version, "filename": archive.name}
    published = published if published and published.url else _recorded_publication(archive, sha)
    if published.url:
        details["url"] = published.url
    if published.uploaded:
        details["uploaded"] = published.uploaded
    if published.released:
        details["released"] = published.released
    return PypiSource(
        spec,
        archive.resolve(),
        kind="pypi",
        label=spelled_name(archive.name, name),  # the project's capitals: PyPDF2, not pypdf2
        digest=f"sha256:{sha}",
        details=details,
    )


