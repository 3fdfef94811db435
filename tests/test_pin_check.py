"""Tests for lineage.sources.pypi.PinCheck: a cached release hashed while the run goes on is
still checked against its pin before anything is written, and a run whose archive fails the
check writes nothing from it (nor records its members under the pinned digest), then opens it
again as a run always did: downloaded again, or refused offline."""

from __future__ import annotations

import hashlib
import os
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from lineage import sources
from lineage.compare_and_write import compare_and_write
from lineage.errors import SourceError
from lineage.index import IndexCache
from lineage.settings import RunSettings
from lineage.sources import open_source

_MODULE = "".join(f"def step_{k}(value, scale={k}):\n    checked = validate_input(value, limit={k * 7})\n"
                  f"    return combine_parts(checked, scale, offset={k * 3})\n\n\n" for k in range(6))


_URL = "https://files.example/uppkg-1.0-py3-none-any.whl"


def _wheel(path: Path, module: str, metadata: str = "") -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("uppkg/__init__.py", "")
        archive.writestr("uppkg/core.py", module)
        archive.writestr("uppkg-1.0.dist-info/METADATA", "Name: uppkg\nVersion: 1.0\n" + metadata)
    return path.read_bytes()


@pytest.fixture
def release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, bytes]:
    """A cache holding uppkg 1.0's wheel, recorded with its sha256 as a download records it;
    the pinned spec; the wheel's bytes. Never the network."""
    cache = tmp_path / "cache"
    wheel = cache / "downloads" / "pypi" / "uppkg-1.0" / "uppkg-1.0-py3-none-any.whl"
    data = _wheel(wheel, _MODULE)
    sha = hashlib.sha256(data).hexdigest()
    wheel.with_name(wheel.name + ".sha256").write_text(sha + "\n", encoding="ascii")
    sources.pypi._record_publication(wheel, sha, sources.pypi.Published(_URL))  # as a download records it
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(sources.pypi, "_pip_download", lambda *a, **k: pytest.fail("network used"))
    monkeypatch.setattr(sources.pypi, "_http_get", lambda *a, **k: pytest.fail("network used"))
    return cache, f"pypi:uppkg==1.0#sha256={sha}", data


def _target(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "core.py").write_text("# Adapted from uppkg\n" + _MODULE, encoding="utf-8")
    (root / "app" / "own.py").write_text("OWN = 1\n", encoding="utf-8")
    return root


def _run(target: Path, spec: str, cache: Path, out: Path, packs: bool = True) -> dict[str, bytes]:
    settings = RunSettings(cache_dir=cache, jobs=1, **({} if packs else {"index_packs": 0}))
    compare_and_write(str(target), [spec], out, settings=settings, html=False)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.name != "manifest.json"}


def _replace(cache: Path, change: str = "module") -> None:
    """The cached wheel's bytes replaced, its recorded sha256 left as it was: its ``module``
    edited, or its ``metadata`` (a licence declared; no Python file changed)."""
    wheel = cache / "downloads" / "pypi" / "uppkg-1.0" / "uppkg-1.0-py3-none-any.whl"
    wheel.unlink()
    if change == "module":
        _wheel(wheel, _MODULE.replace("combine_parts", "merge_parts"))
    else:
        _wheel(wheel, _MODULE, "License-Expression: MIT\n")


def _download_serves(data: bytes, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A download that gives the wheel ``data``; the pins it was asked for."""
    fetched: list[str] = []

    def fetch(name: str, version: str, folder: Path, pinned: str) -> tuple[Path, sources.pypi.Published]:
        fetched.append(pinned)
        path = folder / "uppkg-1.0-py3-none-any.whl"
        path.write_bytes(data)
        return path, sources.pypi.Published(_URL)

    monkeypatch.setattr(sources.pypi, "_fetch_release", fetch)
    return fetched


def test_a_release_checked_alongside_opens_as_one_checked_first(release: tuple[Path, str, bytes]) -> None:
    cache, spec, _ = release
    with open_source(spec, cache) as first, open_source(spec, cache, check_later=True) as later:
        assert later.check is not None and first.check is None  # type: ignore[attr-defined]
        assert later.info == first.info and later.paths() == first.paths()
        later.verify()


@pytest.mark.parametrize("change", ["module", "metadata"])
@pytest.mark.parametrize("before", ["nothing", "a run", "a run and a target edit",
                                    "a run and a target edit, no record packs"])
def test_a_replaced_archive_writes_nothing_and_is_refused_offline(
        release: tuple[Path, str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: str,
        change: str) -> None:
    """Replaced before the first run (its members read for the key, and recorded only once checked),
    after one (the stored report of the pinned digest would be written; its metadata changed, a
    report made from the declared licence, all members as recorded), or after one and with a
    target file edited (the rerun reads the upstream file it pairs with, recorded with other bytes;
    without record packs it reads every member, and records their digests anew): either way no
    report and no member digests under the pinned digest but the release's own; the error is the
    one of a check made first."""
    cache, spec, _ = release
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    target = _target(tmp_path / "target")
    archive = "sha256:" + spec.rsplit("=", 1)[1]
    stored = before != "nothing"
    if stored:
        _run(target, spec, cache, tmp_path / "first")
        assert IndexCache(cache).archive_digests(archive)
    if before.startswith("a run and a target edit"):
        with (target / "app" / "core.py").open("a", encoding="utf-8") as handle:
            handle.write("EXTRA = 1\n")
    recorded = IndexCache(cache).archive_digests(archive)
    assert bool(recorded) == stored
    _replace(cache, change)
    with pytest.raises(SourceError, match=r"^pypi: sha256 mismatch for uppkg==1.0: expected .* \(damaged or "):
        _run(target, spec, cache, tmp_path / "out", packs=not before.endswith("no record packs"))
    assert not (tmp_path / "out").exists()
    assert IndexCache(cache).archive_digests(archive) == recorded


def test_a_replaced_archive_is_downloaded_again_and_gives_the_reports_of_the_release(
        release: tuple[Path, str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache, spec, data = release
    target = _target(tmp_path / "target")
    before = _run(target, spec, cache, tmp_path / "first")
    _replace(cache)
    fetched = _download_serves(data, monkeypatch)
    assert _run(target, spec, cache, tmp_path / "again") == before
    assert fetched == [spec.rsplit("=", 1)[1]]


def _truncate(cache: Path) -> None:
    """The cached wheel cut short, as an interrupted copy leaves it: no zip directory to open."""
    wheel = cache / "downloads" / "pypi" / "uppkg-1.0" / "uppkg-1.0-py3-none-any.whl"
    wheel.write_bytes(wheel.read_bytes()[:100])


def _flip(cache: Path) -> None:
    """One byte of a member's stored bytes changed in place: the zip opens, the member's read
    fails its CRC."""
    wheel = cache / "downloads" / "pypi" / "uppkg-1.0" / "uppkg-1.0-py3-none-any.whl"
    data = bytearray(wheel.read_bytes())
    at = data.index(b"combine_parts")
    data[at] ^= 0x20
    wheel.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [_truncate, _flip])
@pytest.mark.parametrize("before", ["nothing", "a run and a target edit"])
def test_an_archive_damaged_past_reading_is_downloaded_again(
        release: tuple[Path, str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        damage: Callable[[Path], None], before: str) -> None:
    """A cached archive that cannot even be read (cut short, a member failing its CRC) is one that
    fails its check: downloaded again, as when it is checked first, not an error of reading it."""
    cache, spec, data = release
    target = _target(tmp_path / "target")
    if before != "nothing":
        _run(target, spec, cache, tmp_path / "first")
        with (target / "app" / "core.py").open("a", encoding="utf-8") as handle:
            handle.write("EXTRA = 1\n")
    other = tmp_path / "other-cache"  # the release's own bytes, in a cache of their own
    shutil.copytree(cache / "downloads", other / "downloads")
    expected = _run(target, spec, other, tmp_path / "expected")
    damage(cache)
    fetched = _download_serves(data, monkeypatch)
    assert _run(target, spec, cache, tmp_path / "again") == expected
    assert fetched == [spec.rsplit("=", 1)[1]]


@pytest.mark.skipif(not hasattr(os, "register_at_fork") or not hasattr(os, "mkfifo"), reason="POSIX only")
def test_a_fork_waits_for_a_check_still_hashing(tmp_path: Path) -> None:
    """A process forked while a check reads (here a pipe whose bytes another process writes
    0.3 s later) starts only once the check has ended: no hashing thread is cut in two by the fork."""
    import subprocess
    import sys

    pipe = tmp_path / "archive"
    os.mkfifo(pipe)
    data = b"release bytes"
    writer = subprocess.Popen([sys.executable, "-c", "import sys, time; time.sleep(0.3); "
                               "open(sys.argv[1], 'wb').write(sys.argv[2].encode())", str(pipe), data.decode()])
    check = sources.pypi.PinCheck(pipe, hashlib.sha256(data).hexdigest(), "uppkg==1.0")
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    ended = not check._thread.is_alive()  # before anything else can end it
    os.waitpid(pid, 0)
    assert writer.wait(30) == 0
    assert ended
    check.result()


def test_a_run_starts_again_only_once_its_other_sources_have_ended_opening(
        release: tuple[Path, str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The release fails its check while the other source still opens (a download, say): the run
    opens its sources again once that opening has ended, not beside it (one release downloaded
    twice into one entry at once; the matcher forking beside a thread still reading)."""
    import time

    import lineage.compare_and_write

    cache, spec, data = release
    upstream = str(_target(tmp_path / "up"))
    _truncate(cache)
    _download_serves(data, monkeypatch)
    events: list[tuple[str, str]] = []
    real = lineage.compare_and_write.open_source

    def opening(named: str, root: Path | None = None, check_later: bool = False):  # type: ignore[no-untyped-def]
        events.append(("start", named))
        try:
            if named == upstream and ("end", named) not in events:
                time.sleep(0.5)  # the first opening of the upstream is slow
            return real(named, root, check_later)
        finally:
            events.append(("end", named))

    monkeypatch.setattr(lineage.compare_and_write, "open_source", opening)
    compare_and_write(spec, [upstream], tmp_path / "out", settings=RunSettings(cache_dir=cache, jobs=1), html=False)
    again = [k for k, event in enumerate(events) if event == ("start", spec)][1]
    assert events.index(("end", upstream)) < again, events
