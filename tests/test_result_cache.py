"""Tests for lineage.report.cache: a warm run writes the stored report, byte for byte."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import lineage.api
import lineage.compare_and_write
from lineage.compare_and_write import compare_and_write
from lineage.errors import LineageError
from lineage.match import MatchParams
from lineage.report.cache import ENTRY_HEAD, RESULT_VERSION, ResultCache
from lineage.settings import DEFAULT_RESULT_ENTRIES, RunSettings

FIXTURE = Path(__file__).parent / "eval" / "fixture_upstream"
VOLATILE = {"created", "command", "options", "timings_seconds", "match_cache"}
PER_TREE = {"cache_hits", "cache_misses", "index_seconds"}


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path]:
    upstream = tmp_path / "up"
    shutil.copytree(FIXTURE, upstream)
    target = tmp_path / "target"
    shutil.copytree(FIXTURE, target)
    first = sorted(target.rglob("*.py"))[0]
    first.write_text(first.read_text() + "\ndef own():\n    return 42\n")
    return target, upstream


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _stable(manifest: dict) -> dict:  # type: ignore[type-arg]
    out = {k: v for k, v in manifest.items() if k not in VOLATILE}
    for side in [out["target"], *out["upstreams"]]:
        for key in PER_TREE:
            side.pop(key)
    return out


def _run(trees: tuple[Path, Path], out: Path, cache: Path, **kw: object):  # type: ignore[no-untyped-def]
    # Room for every entry these tests make, unless a test is about eviction.
    settings = RunSettings(cache_dir=cache, jobs=1, use_cache=bool(kw.pop("use_cache", True)),
                           result_entries=int(kw.pop("result_entries", 16)))  # type: ignore[call-overload]
    return compare_and_write(str(trees[0]), [str(trees[1])], out, settings=settings, **kw)  # type: ignore[arg-type]


def test_warm_run_writes_identical_outputs_from_the_cache(trees: tuple[Path, Path], tmp_path: Path) -> None:
    cold = _run(trees, tmp_path / "cold", tmp_path / "cache")
    warm = _run(trees, tmp_path / "warm", tmp_path / "cache")
    assert not cold.from_cache and warm.from_cache
    assert warm.headline == cold.headline and warm.skipped == cold.skipped
    a, b = _files(tmp_path / "cold"), _files(tmp_path / "warm")
    manifest_a, manifest_b = json.loads(a.pop("manifest.json")), json.loads(b.pop("manifest.json"))
    assert a == b and len(a) > 10  # every figure file, attachment and page, byte for byte
    assert _stable(manifest_a) == _stable(manifest_b)
    assert list(manifest_a) == list(manifest_b)  # same fields, same order
    assert manifest_a["options"]["result_cache"] == "stored" and manifest_b["options"]["result_cache"] == "hit"
    assert [p.relative_to(tmp_path / "warm").as_posix() for p in warm.paths] == \
        [p.relative_to(tmp_path / "cold").as_posix() for p in cold.paths]


def test_a_hit_names_the_lineage_that_ran(trees: tuple[Path, Path], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The key covers all of lineage's code, so a hit may come from an entry an earlier commit
    (same code) stored: the manifest names the running lineage, not the stored one's commit."""
    import lineage.report.tool as tool_module

    earlier = {"name": "lineage", "version": "0", "index_version": 0, "commit": "e" * 40, "dirty": True}
    monkeypatch.setattr(tool_module, "tool_info", lambda: earlier)
    _run(trees, tmp_path / "cold", tmp_path / "cache")
    assert json.loads((tmp_path / "cold" / "manifest.json").read_text())["tool"] == earlier
    now = {"name": "lineage", "version": "0", "index_version": 0, "commit": "f" * 40, "dirty": False}
    monkeypatch.setattr(tool_module, "tool_info", lambda: now)
    warm = _run(trees, tmp_path / "warm", tmp_path / "cache")
    assert warm.from_cache
    assert json.loads((tmp_path / "warm" / "manifest.json").read_text())["tool"] == now


def test_a_changed_parameter_file_or_option_misses(trees: tuple[Path, Path], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert not _run(trees, tmp_path / "o1", cache).from_cache
    assert not _run(trees, tmp_path / "o2", cache, params=MatchParams(run_max_gap=2)).from_cache
    assert not _run(trees, tmp_path / "o3", cache, html=False).from_cache
    assert not _run(trees, tmp_path / "o4", cache, formats=["spdx"]).from_cache
    assert not _run(trees, tmp_path / "o5", cache, target_names=["elsewhere"]).from_cache
    assert _run(trees, tmp_path / "o6", cache).from_cache
    changed = sorted(trees[1].rglob("*.py"))[-1]  # an upstream file
    changed.write_text(changed.read_text() + "\nZ = 1\n")
    assert not _run(trees, tmp_path / "o7", cache).from_cache
    (trees[0] / "LICENSE").write_text("MIT License\n")  # not Python, but read for obligations
    fresh = _run(trees, tmp_path / "o8", cache)
    assert not fresh.from_cache
    # The report a miss writes is the one a run without any cache writes.
    _run(trees, tmp_path / "o9", tmp_path / "other", use_cache=False)
    a, b = _files(tmp_path / "o8"), _files(tmp_path / "o9")
    # Not the manifest, SPDX and CycloneDX: they carry the time they were made.
    for name in ("manifest.json", "lineage.spdx.json", "lineage.cdx.json"):
        a.pop(name), b.pop(name)
    assert a == b and "lines.csv" in a


def test_a_fixed_source_date_is_part_of_the_key(trees: tuple[Path, Path], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """$SOURCE_DATE_EPOCH fixes the attachments' time: a stored report of another time is not a
    hit (it wrote the stored run's time); a malformed one is refused (a ValueError traceback past
    year 9999, the current time for 'garbage')."""
    cache = tmp_path / "cache"
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    _run(trees, tmp_path / "o1", cache)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    fixed = _run(trees, tmp_path / "o2", cache)
    assert not fixed.from_cache
    assert json.loads((tmp_path / "o2" / "lineage.spdx.json").read_text())["creationInfo"]["created"] == \
        "1970-01-01T00:00:00Z"
    assert _run(trees, tmp_path / "o3", cache).from_cache  # the same fixed time: a hit
    for bad in ("garbage", "-5", "253402300800"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", bad)
        with pytest.raises(LineageError, match="SOURCE_DATE_EPOCH"):
            _run(trees, tmp_path / "o4", cache, use_cache=False)
        # before the comparison, not after it
        monkeypatch.setattr(lineage.api, "compare", lambda *a, **k: pytest.fail("compared"))
        with pytest.raises(LineageError, match="SOURCE_DATE_EPOCH"):
            _run(trees, tmp_path / "o4", cache, use_cache=False)
        assert not (tmp_path / "o4").exists()


def test_no_cache_neither_reads_nor_writes(trees: tuple[Path, Path], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _run(trees, tmp_path / "o1", cache)
    off = _run(trees, tmp_path / "o2", cache, use_cache=False)
    assert not off.from_cache
    assert json.loads((tmp_path / "o2" / "manifest.json").read_text())["options"]["result_cache"] == "off"
    _run(trees, tmp_path / "o3", tmp_path / "empty", use_cache=False)
    assert not (tmp_path / "empty" / f"result-v{RESULT_VERSION}").exists()


def _entries(cache: Path) -> list[Path]:
    """The entry folders under ``cache``, sorted (not stores under way)."""
    return sorted(head.parent for head in (cache / f"result-v{RESULT_VERSION}").rglob(ENTRY_HEAD)
                  if not head.parent.name.startswith(".tmp-"))


def test_a_damaged_or_moved_entry_is_a_miss(trees: tuple[Path, Path], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _run(trees, tmp_path / "o1", cache)
    expected = _files(tmp_path / "o1")
    [entry] = _entries(cache)
    stored = entry / "files" / "lines.csv"
    data = bytearray(stored.read_bytes())
    data[-5] ^= 0xFF  # one byte of a stored file, the same size
    stored.unlink()  # (not through o1's link: o1 keeps its bytes)
    stored.write_bytes(bytes(data))
    again = _run(trees, tmp_path / "o2", cache)
    assert not again.from_cache and _files(tmp_path / "o2")["lines.csv"] == expected["lines.csv"]
    assert _run(trees, tmp_path / "o3", cache).from_cache  # rewritten by the miss
    # Another key's entry under this key's name: its header's key differs, so a miss.
    [entry] = _entries(cache)
    _run(trees, tmp_path / "o4", cache, html=False)
    other = next(p for p in _entries(cache) if p != entry)
    shutil.copyfile(other / ENTRY_HEAD, entry / ENTRY_HEAD)
    assert not _run(trees, tmp_path / "o5", cache).from_cache
    assert "html/index.html" in _files(tmp_path / "o5")


@pytest.mark.parametrize("name", ["../entry.rec", "html/../../entry.rec", "ABSOLUTE", "./lines.csv", "html//x.html",
                                  "a\\b.csv", ""])
def test_a_header_naming_a_file_outside_the_report_is_a_miss(trees: tuple[Path, Path], tmp_path: Path,
                                                             name: str) -> None:
    """A damaged or crafted header whose file list names a path outside the report folder (or not
    as reporters name files) is no entry: the run computes its result and writes nothing outside
    its report. ``../entry.rec`` names a file that exists (the header itself): copied as named, it
    would land beside the report folder before any check."""
    cache = tmp_path / "cache"
    out = tmp_path / "work" / "out"
    _run(trees, out, cache)
    [entry] = _entries(cache)
    outside = tmp_path / "outside.txt"
    outside.write_text("not a report file\n")
    head = entry / ENTRY_HEAD
    header = json.loads(head.read_text())
    header["files"][0][0] = str(outside) if name == "ABSOLUTE" else name
    head.write_text(json.dumps(header))
    before = sorted(p.name for p in (tmp_path / "work").iterdir())
    again = _run(trees, out, cache)
    assert not again.from_cache
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == before
    assert outside.read_text() == "not a report file\n"
    assert _run(trees, tmp_path / "o2", cache).from_cache  # the miss stored a good entry again


def test_the_entry_links_its_runs_report_and_a_hit_copies(trees: tuple[Path, Path], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    stored_from: list[Path] = []
    real_put = ResultCache.put

    def recording_put(self: ResultCache, key: dict[str, object], report: Path, *args: object) -> None:
        stored_from.append(report)
        real_put(self, key, report, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ResultCache, "put", recording_put)
    _run(trees, tmp_path / "o1", cache)
    # Stored from the run's own fresh folder, before it became o1: no later change of o1 by
    # another run can reach the entry; the entry holds o1's very files (no copy).
    assert [p.parent for p in stored_from] == [tmp_path] and stored_from[0] != tmp_path / "o1"
    [entry] = _entries(cache)
    assert os.path.samefile(entry / "files" / "lines.csv", tmp_path / "o1" / "lines.csv")
    # A hit copies: its report shares no file with any other report or the entry.
    assert _run(trees, tmp_path / "o2", cache).from_cache
    assert not os.path.samefile(tmp_path / "o2" / "summary.md", tmp_path / "o1" / "summary.md")
    expected = _files(tmp_path / "o2")
    with (tmp_path / "o2" / "summary.md").open("a", encoding="utf-8") as handle:
        handle.write("an edit of the hit's report\n")
    assert _files(tmp_path / "o1")["summary.md"] == expected["summary.md"]
    assert _run(trees, tmp_path / "o3", cache).from_cache
    # The storing run's report edited in place edits the entry: the copy's checksum makes the
    # next run compute, and the entry is stored again.
    with (tmp_path / "o1" / "summary.md").open("a", encoding="utf-8") as handle:
        handle.write("an edit of the stored report\n")
    again = _run(trees, tmp_path / "o4", cache)
    assert not again.from_cache
    written = _files(tmp_path / "o4")
    assert written["summary.md"] == expected["summary.md"] and written["lines.csv"] == expected["lines.csv"]
    assert _run(trees, tmp_path / "o5", cache).from_cache


def test_without_links_the_files_are_copied(trees: tuple[Path, Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def no_link(source: object, destination: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_link)
    cache = tmp_path / "cache"
    cold = _run(trees, tmp_path / "o1", cache)
    [entry] = _entries(cache)
    assert not os.path.samefile(entry / "files" / "lines.csv", tmp_path / "o1" / "lines.csv")
    warm = _run(trees, tmp_path / "o2", cache)
    assert warm.from_cache and warm.headline == cold.headline
    a, b = _files(tmp_path / "o1"), _files(tmp_path / "o2")
    assert {k: v for k, v in a.items() if k != "manifest.json"} == {k: v for k, v in b.items() if k != "manifest.json"}


@pytest.mark.parametrize("linked", [True, False])
def test_the_entry_takes_the_checksums_the_report_workers_took(trees: tuple[Path, Path], tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch, linked: bool) -> None:
    """With report workers, each file is read once where it was written, for both its sha256 (the
    manifest) and its checksum (the entry): storing the entry reads none of them again, but a copy
    made where no link could be (its own bytes)."""
    import lineage.report.cache as cache_module

    if not linked:
        def no_link(source: object, destination: object) -> None:
            raise OSError(errno.EXDEV, "Invalid cross-device link")

        monkeypatch.setattr(os, "link", no_link)
    read: list[str] = []
    real = cache_module.file_checksum
    monkeypatch.setattr(cache_module, "file_checksum", lambda path: read.append(path.name) or real(path))
    settings = RunSettings(cache_dir=tmp_path / "cache", jobs=2, result_entries=16)
    cold = compare_and_write(str(trees[0]), [str(trees[1])], tmp_path / "o1", settings=settings)
    assert not cold.from_cache
    outputs = json.loads((tmp_path / "o1" / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    assert len(outputs) > 10
    assert read == ([] if linked else [Path(name).name for name in outputs])
    [entry] = _entries(tmp_path / "cache")
    stored = {name: (size, digest) for name, size, digest in json.loads((entry / ENTRY_HEAD).read_text())["files"]}
    assert stored == {name: real(entry / "files" / name) for name in outputs}
    read.clear()
    warm = compare_and_write(str(trees[0]), [str(trees[1])], tmp_path / "o2", settings=settings)
    assert warm.from_cache  # every copy matched its stored checksum
    a, b = _files(tmp_path / "o1"), _files(tmp_path / "o2")
    assert {k: v for k, v in a.items() if k != "manifest.json"} == {k: v for k, v in b.items() if k != "manifest.json"}


def test_an_entry_lost_while_written_is_computed(trees: tuple[Path, Path], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    _run(trees, tmp_path / "o1", cache)
    expected = _files(tmp_path / "o1")
    real_get = ResultCache.get

    def get_then_lose(self: ResultCache, key: dict[str, object]):  # type: ignore[no-untyped-def]
        found = real_get(self, key)
        if found is not None:  # another run evicts the entry between the check and the write
            shutil.rmtree(found.files[0].path.parent.parent)
        return found

    monkeypatch.setattr(ResultCache, "get", get_then_lose)
    again = _run(trees, tmp_path / "o2", cache)
    assert not again.from_cache
    written = _files(tmp_path / "o2")
    for name in ("lines.csv", "files.csv", "summary.json", "summary.md"):
        assert written[name] == expected[name]


def test_only_the_newest_entries_are_kept(trees: tuple[Path, Path], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _run(trees, tmp_path / "o1", cache, result_entries=2)
    [first] = _entries(cache)
    _run(trees, tmp_path / "o2", cache, result_entries=2, html=False)
    assert len(_entries(cache)) == 2
    # A hit makes its entry the most recently used: the third key evicts the html=False one.
    os.utime(first / ENTRY_HEAD, ns=(1, 1))  # as if written long ago
    assert _run(trees, tmp_path / "o3", cache, result_entries=2).from_cache
    _run(trees, tmp_path / "o4", cache, result_entries=2, formats=["spdx"])
    assert len(_entries(cache)) == 2 and first in _entries(cache)
    assert _run(trees, tmp_path / "o5", cache, result_entries=2).from_cache
    assert not _run(trees, tmp_path / "o6", cache, result_entries=2, html=False).from_cache


def test_evict_keeps_the_newest_and_clears_what_is_left_over(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, keep=2)
    assert cache.dir is not None
    made = []
    for number in range(4):
        entry = cache.dir / f"{number:02d}" / f"{number:02d}{'0' * 62}"
        entry.mkdir(parents=True)
        (entry / ENTRY_HEAD).write_bytes(b"x")
        os.utime(entry / ENTRY_HEAD, ns=(number * 10**9, number * 10**9))
        made.append(entry)
    under_way = cache.dir / "00" / f".tmp-{os.getpid()}-writing"  # a store of a live process
    under_way.mkdir()
    (under_way / ENTRY_HEAD).write_bytes(b"partial")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    died = cache.dir / "01" / f".tmp-{dead.stdout.strip()}-cut"  # a store whose process died
    died.mkdir()
    cut_short = cache.dir / "02" / ("02" + "1" * 62)  # a removal cut short: no header left
    (cut_short / "files").mkdir(parents=True)
    older = tmp_path / "result-v1" / "ab"  # an older format's entries
    older.mkdir(parents=True)
    (older / ("ab" * 32 + ".rec")).write_bytes(b"y")
    assert sorted(cache.evict()) == made[:2]
    assert _entries(tmp_path) == made[2:] and under_way.exists()
    assert not died.exists() and not cut_short.exists() and not (tmp_path / "result-v1").exists()
    assert ResultCache(None).evict() == []


def test_cache_info_counts_entries_not_stores_under_way(trees: tuple[Path, Path], tmp_path: Path) -> None:
    from lineage.cachedir import usage

    cache = tmp_path / "cache"
    _run(trees, tmp_path / "o1", cache)
    [entry] = _entries(cache)
    (entry.parent / f".tmp-{os.getpid()}-x").mkdir()
    (entry.parent / f".tmp-{os.getpid()}-x" / ENTRY_HEAD).write_bytes(b"partial")
    [result] = [u for u in usage(cache) if u.name.startswith("result-")]
    assert result.entries == 1


def test_result_entries_must_be_a_whole_number_at_least_one(tmp_path: Path) -> None:
    assert RunSettings(cache_dir=tmp_path).result_entries == DEFAULT_RESULT_ENTRIES
    for bad in (0, -1, 2.5, True):
        with pytest.raises(LineageError, match="result_entries"):
            RunSettings(cache_dir=tmp_path, result_entries=bad)  # type: ignore[arg-type]


def test_a_miss_opens_each_source_once(trees: tuple[Path, Path], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    real = lineage.api.open_source

    def counting(spec: str, root: Path | None = None, check_later: bool = False):  # type: ignore[no-untyped-def]
        opened.append(spec)
        return real(spec, root, check_later)

    monkeypatch.setattr(lineage.api, "open_source", counting)  # the comparison's opener
    monkeypatch.setattr(lineage.compare_and_write, "open_source", counting)  # the key's
    assert not _run(trees, tmp_path / "o1", tmp_path / "cache").from_cache
    # for the key (side by side, in threads: in either order), then kept open for the comparison
    assert sorted(opened) == sorted([str(trees[0]), str(trees[1])])
    reference = _run(trees, tmp_path / "o2", tmp_path / "other", use_cache=False)
    assert opened[2:] == [str(trees[0]), str(trees[1])]
    a, b = _files(tmp_path / "o1"), _files(tmp_path / "o2")
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md"):
        assert a[name] == b[name]
    assert reference.headline == _run(trees, tmp_path / "o3", tmp_path / "cache").headline


def test_sources_opened_side_by_side_are_those_opened_in_turn(trees: tuple[Path, Path], tmp_path: Path) -> None:
    """The key's sources are opened in threads: the same files read and the same identities as
    opened one after the other, in the specs' order; a spec given twice is opened in turn."""
    import contextlib

    from lineage.compare_and_write import _open_with_identities
    from lineage.index import IndexCache
    from lineage.index.tree import tree_identity
    from lineage.sources import open_source

    settings = RunSettings(cache_dir=tmp_path / "cache", jobs=1)
    specs = [str(trees[0]), str(trees[1])]
    with contextlib.ExitStack() as stack:
        sources, read, identities = _open_with_identities(specs, settings, stack)
        assert [s.info.spec for s in sources] == specs  # in the specs' order
        for spec, blobs, identity in zip(specs, read, identities, strict=True):
            with open_source(spec, settings.cache_root) as alone:
                mine: dict[str, bytes] = {}
                assert tree_identity(alone, IndexCache(settings.store_root), mine) == identity
                assert mine == blobs
        twice, _, same = _open_with_identities([specs[1], specs[1]], settings, stack)
        assert same[0] == same[1] == identities[1] and twice[0] is not twice[1]
    assert all(s._closed for s in [*sources, *twice])  # closed with the stack


def test_a_source_that_fails_closes_the_others(trees: tuple[Path, Path], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """One spec that cannot be opened: the others, opened meanwhile, are closed, and the error
    is the first failing spec's, whichever thread ended first."""
    import contextlib

    from lineage.compare_and_write import _open_with_identities

    made = []
    real = lineage.compare_and_write.open_source

    def recording(spec: str, root: Path | None = None, check_later: bool = False):  # type: ignore[no-untyped-def]
        made.append(real(spec, root, check_later))
        return made[-1]

    monkeypatch.setattr(lineage.compare_and_write, "open_source", recording)
    settings = RunSettings(cache_dir=tmp_path / "cache", jobs=1)
    missing, also_missing = tmp_path / "no-such-tree", tmp_path / "nor-this"
    for specs in ([str(trees[0]), str(missing)], [str(missing), str(trees[1])]):
        made.clear()
        with contextlib.ExitStack() as stack, pytest.raises(LineageError, match="no-such-tree"):
            _open_with_identities(specs, settings, stack)
        for _ in range(500):  # closed once open: the other spec's thread may still be opening it
            if len(made) == 1 and made[0]._closed:
                break
            time.sleep(0.02)
        assert len(made) == 1 and made[0]._closed
    with contextlib.ExitStack() as stack, pytest.raises(LineageError, match="no-such-tree"):
        _open_with_identities([str(missing), str(also_missing)], settings, stack)
