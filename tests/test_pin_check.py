"""Tests for lineage.sources.pypi.PinCheck: a cached release hashed while the run goes on is
still checked against its pin before anything is written, and a run whose archive fails the
check writes nothing from it (nor records its members under the pinned digest), then opens it
again as a run always did: downloaded again, or refused offline."""

from __future__ import annotations

import hashlib
import zipfile
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


def _wheel(path: Path, module: str) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("uppkg/__init__.py", "")
        archive.writestr("uppkg/core.py", module)
        archive.writestr("uppkg-1.0.dist-info/METADATA", "Name: uppkg\nVersion: 1.0\n")
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
    sources.pypi._record_url(wheel, sha, _URL)  # as a download records where the file is published
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setattr(sources.pypi, "_pip_download", lambda *a, **k: pytest.fail("network used"))
    monkeypatch.setattr(sources.pypi, "_http_get", lambda *a, **k: pytest.fail("network used"))
    return cache, f"pypi:uppkg==1.0#sha256={sha}", data


def _target(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "core.py").write_text("# Adapted from uppkg\n" + _MODULE, encoding="utf-8")
    (root / "app" / "own.py").write_text("OWN = 1\n", encoding="utf-8")
    return root


def _run(target: Path, spec: str, cache: Path, out: Path) -> dict[str, bytes]:
    compare_and_write(str(target), [spec], out, settings=RunSettings(cache_dir=cache, jobs=1), html=False)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.name != "manifest.json"}


def _replace(cache: Path) -> None:
    """The cached wheel's bytes replaced (another module), its recorded sha256 left as it was."""
    wheel = cache / "downloads" / "pypi" / "uppkg-1.0" / "uppkg-1.0-py3-none-any.whl"
    wheel.unlink()
    _wheel(wheel, _MODULE.replace("combine_parts", "merge_parts"))


def test_a_release_checked_alongside_opens_as_one_checked_first(release: tuple[Path, str, bytes]) -> None:
    cache, spec, _ = release
    with open_source(spec, cache) as first, open_source(spec, cache, check_later=True) as later:
        assert later.check is not None and first.check is None  # type: ignore[attr-defined]
        assert later.info == first.info and later.paths() == first.paths()
        later.verify()


@pytest.mark.parametrize("before", ["nothing", "a run", "a run and a target edit"])
def test_a_replaced_archive_writes_nothing_and_is_refused_offline(
        release: tuple[Path, str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: str) -> None:
    """Replaced before the first run (its members read for the key, and recorded only once checked),
    after one (the stored report of the pinned digest would be written), or after one and with a
    target file edited (the rerun reads the upstream file it pairs with, recorded with other bytes):
    either way no report and no member digests under the pinned digest; the error is the one of a
    check made first."""
    cache, spec, _ = release
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    target = _target(tmp_path / "target")
    archive = "sha256:" + spec.rsplit("=", 1)[1]
    stored = before != "nothing"
    if stored:
        _run(target, spec, cache, tmp_path / "first")
        assert IndexCache(cache).archive_digests(archive)
    if before == "a run and a target edit":
        with (target / "app" / "core.py").open("a", encoding="utf-8") as handle:
            handle.write("EXTRA = 1\n")
    _replace(cache)
    if not stored:
        assert not IndexCache(cache).archive_digests(archive)
    with pytest.raises(SourceError, match=r"^pypi: sha256 mismatch for uppkg==1.0: expected .* \(damaged or "):
        _run(target, spec, cache, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    if not stored:
        assert not IndexCache(cache).archive_digests(archive)


def test_a_replaced_archive_is_downloaded_again_and_gives_the_reports_of_the_release(
        release: tuple[Path, str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache, spec, data = release
    target = _target(tmp_path / "target")
    before = _run(target, spec, cache, tmp_path / "first")
    _replace(cache)
    fetched: list[str] = []

    def fetch(name: str, version: str, folder: Path, pinned: str) -> tuple[Path, str]:
        fetched.append(pinned)
        path = folder / "uppkg-1.0-py3-none-any.whl"
        path.write_bytes(data)
        return path, _URL

    monkeypatch.setattr(sources.pypi, "_fetch_release", fetch)
    assert _run(target, spec, cache, tmp_path / "again") == before
    assert fetched == [spec.rsplit("=", 1)[1]]
