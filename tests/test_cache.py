"""Tests for lineage.index.store: the content-addressed index cache, and `lineage cache`."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import numpy as np
import pytest
import treegen

from lineage.api import compare
from lineage.cli import main
from lineage.errors import LineageError
from lineage.index import INDEX_VERSION, Indexer
from lineage.index.store import IndexCache, index_code_fingerprint
from lineage.match import MatchParams
from lineage.match.records import MatchEntry, empty_match
from lineage.match.store import MATCH_VERSION, USED, MatchCache
from lineage.report.elements import ELEMENTS_VERSION
from lineage.report.page_cache import PAGES_VERSION
from lineage.results.reuse import TABLES_VERSION
from lineage.settings import RunSettings
from lineage.side_cache import SIDE_VERSION
from lineage.sources import blob_digest

SOURCE = treegen.dedent_src('''
    # Adapted from https://github.com/example/upkg/blob/v1.0/upkg/mod.py
    """Module docstring."""

    class Thing:
        def method(self, value):
            return value * 2
''')


def _record(text: str = SOURCE, path: str = "m.py"):  # type: ignore[no-untyped-def]
    data = text.encode()
    return Indexer().index(path, data, blob_digest(data))


def test_put_get_round_trip(tmp_path: Path) -> None:
    cache = IndexCache(tmp_path)
    record = _record()
    assert cache.get(record.digest, "m.py") is None
    assert cache.misses == 1
    cache.put(record)
    entry = (tmp_path / f"index-v{INDEX_VERSION}" / index_code_fingerprint()[:16] / record.digest[:2]
             / f"{record.digest}.rec")
    assert entry.is_file()
    back = cache.get(record.digest, "other/path.py")
    assert back is not None and cache.hits == 1
    assert back.path == "other/path.py"  # the path is the caller's, the content is the blob's
    for name in ("kinds", "h_norm", "h_abs", "ntok"):
        got, want = getattr(back, name), getattr(record, name)
        assert got.dtype == want.dtype and np.array_equal(got, want), name
    assert back.definitions == record.definitions
    assert back.markers == record.markers and len(back.markers) == 1
    assert (back.status, back.reason, back.encoding, back.parse_errors, back.n_bytes) == (
        record.status, record.reason, record.encoding, record.parse_errors, record.n_bytes)


def test_cache_without_root_stores_nothing(tmp_path: Path) -> None:
    cache = IndexCache(None)
    record = _record()
    cache.put(record)
    assert cache.get(record.digest, "m.py") is None
    assert cache.info()["entries"] == 0 and cache.clear() == 0


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage", "other_digest"])
def test_corrupt_entry_is_detected_and_deleted(tmp_path: Path, damage: str) -> None:
    cache = IndexCache(tmp_path)
    record = _record()
    cache.put(record)
    entry = next(tmp_path.rglob("*.rec"))
    blob = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(blob[: len(blob) - 5])
    elif damage == "flip":
        middle = len(blob) - 20
        entry.write_bytes(blob[:middle] + bytes([blob[middle] ^ 0x01]) + blob[middle + 1 :])
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "garbage":
        entry.write_bytes(b"not a cache entry at all" * 10)
    else:  # a valid entry for other bytes, stored under this digest
        other = _record("x = 1\n")
        cache.put(other)
        other_entry = next(p for p in tmp_path.rglob("*.rec") if other.digest in p.name)
        entry.write_bytes(other_entry.read_bytes())
    assert cache.get(record.digest, "m.py") is None
    assert cache.rebuilt == 1
    assert not entry.exists()


def test_entry_made_by_other_code_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The code fingerprint is part of the checksummed key: an entry another indexer wrote (here one
    claiming another fingerprint, at this one's name) is rebuilt, never read."""
    import lineage.index.store as store

    cache = IndexCache(tmp_path)
    record = _record()
    monkeypatch.setattr(store, "index_code_fingerprint", lambda: "0" * 64)
    cache.put(record)
    monkeypatch.undo()
    assert cache.get(record.digest, "m.py") is None and cache.rebuilt == 1
    cache.put(record)
    assert cache.get(record.digest, "m.py") is not None


def _trees(tmp_path: Path) -> tuple[Path, Path]:
    up = treegen.gen_upstream(seed=99, n_modules=2)
    m = up.module(0)
    target = {
        # one more line than upstream: not the same blob, so not the same cache entry
        "copy.py": "# our copy\n" + "\n".join(m.lines) + "\n",
        "own.py": treegen.render(treegen.own_code(treegen.Names(random.Random(3)), 2)),
    }
    return treegen.write_tree(tmp_path / "target", target), treegen.write_tree(tmp_path / "upstream", up.files())


def _run(t_root: Path, u_root: Path, cache: Path, out: Path, reuse_tables: bool = True, **settings_: object) -> dict:
    settings = RunSettings(cache_dir=cache, jobs=1, reuse_tables=reuse_tables, **settings_)  # type: ignore[arg-type]
    comparison = compare(str(t_root), [str(u_root)], settings=settings)
    comparison.write(out, html=False)
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_second_run_hits_the_cache(tmp_path: Path) -> None:
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    first = _run(t_root, u_root, cache, tmp_path / "out1", reuse_tables=False)  # the match cache alone
    n_target = first["target"]["indexed_files"]
    n_up = first["upstreams"][0]["indexed_files"]
    assert first["target"]["cache_hits"] == 0 and first["target"]["cache_misses"] == n_target
    assert first["upstreams"][0]["cache_hits"] == 0
    second = _run(t_root, u_root, cache, tmp_path / "out2")
    assert second["target"]["cache_hits"] == n_target and second["target"]["cache_misses"] == 0
    assert second["upstreams"][0]["cache_hits"] == n_up and second["upstreams"][0]["cache_misses"] == 0
    assert second["options"]["cache"] == str(cache)
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json"):
        assert (tmp_path / "out1" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes()


def test_no_cache_writes_nothing(tmp_path: Path) -> None:
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    comparison = compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=cache, use_cache=False, jobs=1))
    assert not list(cache.rglob("*.rec")) if cache.exists() else True
    assert comparison.target.cache_hits == 0
    assert comparison.options["cache"] == ""


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_corrupt_entry_is_rebuilt_and_figures_unchanged(tmp_path: Path, damage: str) -> None:
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    first = _run(t_root, u_root, cache, tmp_path / "out1")
    entries = sorted(cache.glob("index-v*/*/*/*.rec"))
    total = first["target"]["indexed_files"] + first["upstreams"][0]["indexed_files"]
    assert len(entries) == total  # identical files share one entry; these are all different
    for entry in entries[::2]:
        blob = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(blob[: len(blob) // 2])
        else:
            k = len(blob) - 3
            entry.write_bytes(blob[:k] + bytes([blob[k] ^ 0xFF]) + blob[k + 1 :])
    damaged = len(entries[::2])
    # without record packs, which would answer for the damaged entries (their own test is below)
    second = _run(t_root, u_root, cache, tmp_path / "out2", index_packs=0)
    misses = second["target"]["cache_misses"] + second["upstreams"][0]["cache_misses"]
    hits = second["target"]["cache_hits"] + second["upstreams"][0]["cache_hits"]
    assert (misses, hits) == (damaged, total - damaged)
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md"):
        assert (tmp_path / "out1" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes(), name
    # the damaged entries were written again, whole
    third = _run(t_root, u_root, cache, tmp_path / "out3", index_packs=0)
    assert third["target"]["cache_misses"] + third["upstreams"][0]["cache_misses"] == 0


_FIGURES = ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md")


def _packs(cache: Path) -> list[Path]:
    return sorted(cache.glob("index-v*/*/packs/*/*.pack"))


def test_record_packs_give_the_records_of_a_run_without_them(tmp_path: Path) -> None:
    """A rerun reads each source's records from its pack (one per source), and a changed file's
    from its own entry; the figures are those of a run without any cache."""
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    first = _run(t_root, u_root, cache, tmp_path / "out1")
    assert len(_packs(cache)) == 2  # the target's and the upstream's
    for entry in cache.glob("index-v*/*/??/*.rec"):
        entry.unlink()  # only the packs can answer now
    second = _run(t_root, u_root, cache, tmp_path / "out2")
    assert second["target"]["cache_hits"] == first["target"]["indexed_files"]
    assert second["upstreams"][0]["cache_hits"] == first["upstreams"][0]["indexed_files"]
    with (t_root / "own.py").open("a", encoding="utf-8") as handle:
        handle.write("\ndef added(x):\n    return x + 1\n")
    packed = {p: p.stat().st_mtime_ns for p in _packs(cache)}
    third = _run(t_root, u_root, cache, tmp_path / "out3")
    assert third["target"]["cache_misses"] == 1
    assert third["target"]["cache_hits"] == first["target"]["indexed_files"] - 1
    assert {p: p.stat().st_mtime_ns for p in _packs(cache)} == packed  # one missing record: not rewritten
    plain = _run(t_root, u_root, tmp_path / "nocache", tmp_path / "out4", use_cache=False)
    assert plain["target"]["cache_hits"] == 0
    for name in _FIGURES:
        assert (tmp_path / "out3" / name).read_bytes() == (tmp_path / "out4" / name).read_bytes(), name
    # more missing records than index_pack_rewrite_after: the pack is written again
    _run(t_root, u_root, cache, tmp_path / "out5", index_pack_rewrite_after=0)
    assert {p: p.stat().st_mtime_ns for p in _packs(cache)} != packed


def test_a_tree_at_a_new_place_reads_its_records_from_the_last_pack_of_its_kind(tmp_path: Path) -> None:
    """A copy of the target in another folder (one file edited) has no pack of its own: its
    unchanged files' records come from the target's pack, the last one written for a folder, and
    none of them from their own entries; it writes no pack of its own (one record missing), and
    its figures are those of a run without any cache."""
    import shutil

    t_root, u_root = _trees(tmp_path)
    names = treegen.Names(random.Random(5))
    for k in range(RunSettings().index_pack_rewrite_after + 1):  # more files than a pack's misses may cost
        (t_root / f"more{k}.py").write_text(treegen.render(treegen.own_code(names, 1)), encoding="utf-8")
    cache = tmp_path / "cache"
    first = _run(t_root, u_root, cache, tmp_path / "out1")
    packed = {p: p.stat().st_mtime_ns for p in _packs(cache)}
    moved = shutil.copytree(t_root, tmp_path / "elsewhere")
    with (moved / "own.py").open("a", encoding="utf-8") as handle:
        handle.write("\ndef added(x):\n    return x + 1\n")
    for entry in cache.glob("index-v*/*/??/*.rec"):
        entry.unlink()  # only a pack can answer now
    second = _run(moved, u_root, cache, tmp_path / "out2")
    assert second["target"]["cache_hits"] == first["target"]["indexed_files"] - 1
    assert second["target"]["cache_misses"] == 1
    assert {p: p.stat().st_mtime_ns for p in _packs(cache)} == packed
    plain = _run(moved, u_root, tmp_path / "nocache", tmp_path / "out3", use_cache=False)
    assert plain["target"]["cache_hits"] == 0
    for name in _FIGURES:
        assert (tmp_path / "out2" / name).read_bytes() == (tmp_path / "out3" / name).read_bytes(), name


@pytest.mark.parametrize("damage", ["truncate", "flip", "foreign"])
def test_a_damaged_record_pack_is_a_recorded_miss(tmp_path: Path, damage: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from lineage.index import store

    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(t_root, u_root, cache, tmp_path / "out1")
    for entry in _packs(cache):
        blob = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(blob[: len(blob) // 2])
        elif damage == "flip":
            entry.write_bytes(blob[:-3] + bytes([blob[-3] ^ 0xFF]) + blob[-2:])
    if damage == "foreign":  # packs made by other code (the key's code part) are refused
        monkeypatch.setattr(store, "index_code_fingerprint", lambda: "0" * 64)
        monkeypatch.setattr(store.IndexCache, "__init__", _same_dir(store.IndexCache.__init__))
    settings = RunSettings(cache_dir=cache, jobs=1)
    cache_obj = store.IndexCache(cache, settings.index_packs)
    slots = [p.stem for p in _packs(cache)]
    assert all(cache_obj.get_pack(slot) is None for slot in slots)
    assert cache_obj.rebuilt == len(slots) and not _packs(cache)  # counted and removed
    monkeypatch.undo()
    second = _run(t_root, u_root, cache, tmp_path / "out2")  # from the per-file entries, packs written again
    assert second["target"]["cache_misses"] == 0 and len(_packs(cache)) == 2
    for name in _FIGURES:
        assert (tmp_path / "out1" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes(), name


def _same_dir(init):  # type: ignore[no-untyped-def]
    """IndexCache.__init__ keeping the folder of the real code fingerprint (only the header's
    code then differs, as for a pack left by other code under the same folder name)."""
    real = index_code_fingerprint()

    def patched(self, root, *args, **kwargs):  # type: ignore[no-untyped-def]
        init(self, root, *args, **kwargs)
        if root is not None:
            self.dir = root / f"index-v{INDEX_VERSION}" / real[:16]
    return patched


def test_record_pack_key_components(tmp_path: Path) -> None:
    """A pack answers only for its own slot and digests: another slot's, or a digest it does
    not hold, is a miss, and a record comes back equal to the one packed, under the path asked."""
    from lineage.index.store import RecordPack, pack_slot

    record = _record()
    other = _record(SOURCE + "\nx = 1\n")
    slot = pack_slot("dir", "/a")
    assert slot != pack_slot("dir", "/b") and slot != pack_slot("archive", "/a")
    cache = IndexCache(tmp_path, packs=2)
    cache.put_pack(slot, [record])
    assert cache.get_pack(pack_slot("dir", "/b")) is None
    found = cache.get_pack(slot)
    assert found is not None and other.digest not in found and found.get(other.digest, "m.py") is None
    back = found.get(record.digest, "n.py")
    assert back is not None and back.path == "n.py"
    for name in ("digest", "n_bytes", "status", "reason", "encoding", "parse_errors", "definitions", "markers"):
        assert getattr(back, name) == getattr(record, name), name
    for name in ("kinds", "h_norm", "h_abs", "ntok"):
        assert np.array_equal(getattr(back, name), getattr(record, name)) and \
            getattr(back, name).dtype == getattr(record, name).dtype, name
    blob = cache._pack_path(slot).read_bytes()
    assert RecordPack.decode(blob, pack_slot("dir", "/b")) is None  # the slot is in the checked header
    # only the newest ``packs`` are kept
    for location in ("/c", "/d"):
        cache.put_pack(pack_slot("dir", location), [other])
    assert len(list(tmp_path.glob("index-v*/*/packs/*/*.pack"))) == 2 and cache.get_pack(slot) is None
    assert IndexCache(tmp_path).get_pack(pack_slot("dir", "/d")) is None  # packs off: never read


def test_a_pack_read_through_a_private_mapping(tmp_path: Path) -> None:
    """A pack is mapped, not read and copied (lineage.index.store.read_mapped): its records'
    arrays are the mapping's pages, writable, and a write stays in this process (the file, a
    pack read again, and the file replaced or removed under the mapping change nothing read);
    an empty pack file is a miss."""
    import mmap
    import os

    from lineage.index.store import RecordPack, pack_slot, read_mapped

    record = _record()
    slot = pack_slot("dir", "/a")
    cache = IndexCache(tmp_path, packs=2)
    cache.put_pack(slot, [record])
    path = cache._pack_path(slot)
    on_disk = path.read_bytes()
    assert isinstance(read_mapped(path), mmap.mmap) == (os.name == "posix")
    pack = cache.get_pack(slot)
    assert pack is not None
    back = pack.get(record.digest, "m.py")
    assert back is not None and back.h_norm.flags.writeable
    if os.name == "posix":
        assert not back.h_norm.flags.owndata  # a view of the mapping, no copy
    back.h_norm[0] += 1
    assert path.read_bytes() == on_disk
    again = cache.get_pack(slot)
    assert again is not None and np.array_equal(again.get(record.digest, "m.py").h_norm, record.h_norm)
    cache.put_pack(slot, [_record(SOURCE + "\ny = 2\n")])  # replaced by a rename, as every entry
    path.unlink()
    assert back.h_norm[0] == record.h_norm[0] + 1 and np.array_equal(back.h_norm[1:], record.h_norm[1:])
    assert np.array_equal(pack.get(record.digest, "m.py").kinds, record.kinds)
    path.write_bytes(b"")
    assert cache.get_pack(slot) is None and not path.exists()  # damaged: removed
    assert RecordPack.decode(on_disk, slot) is not None  # bytes read whole decode as before


def test_a_file_system_that_maps_no_file_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mmap

    import lineage.index.store as store

    path = tmp_path / "entry.rec"
    path.write_bytes(b"LINEAGE" * 1000)

    def unmappable(*args: object, **kwargs: object) -> None:
        raise OSError(19, "No such device")

    monkeypatch.setattr(mmap, "mmap", unmappable)
    assert store.read_mapped(path) == path.read_bytes()


def test_record_pack_definitions_decoded_when_read(tmp_path: Path) -> None:
    """A pack's record holds its definitions undecoded until they are read: their count is known
    without decoding, and once read they are the record's own, in order, equal to its list, and
    a plain list in another process (pickled); a record without definitions has an empty list."""
    import pickle

    from lineage.index.store import PackedDefinitions, pack_slot

    record = _record()
    bare = _record("x = 1\n", "b.py")
    assert [d.qualname for d in record.definitions] == ["Thing", "Thing.method"] and bare.definitions == []
    cache = IndexCache(tmp_path, packs=2)
    slot = pack_slot("dir", "/a")
    cache.put_pack(slot, [record, bare])
    pack = cache.get_pack(slot)
    assert pack is not None
    back = pack.get(record.digest, "m.py")
    assert back is not None and isinstance(back.definitions, PackedDefinitions)
    assert back.definitions._items is None and len(back.definitions) == 2 and bool(back.definitions)
    assert back.definitions._items is None  # the count alone decodes nothing
    assert list(back.definitions) == record.definitions and back.definitions == record.definitions
    assert record.definitions == back.definitions and back.definitions[1] == record.definitions[1]
    assert back.definitions[-1:] == record.definitions[-1:] and back.definitions != record.definitions[:1]
    again = pickle.loads(pickle.dumps(back))
    assert type(again.definitions) is list and again.definitions == record.definitions
    empty = pack.get(bare.digest, "b.py")
    assert empty is not None and empty.definitions == [] and type(empty.definitions) is list


def test_cache_info_and_clear_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    comparison = compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=cache, jobs=1))
    n = len(comparison.target.files) + len(comparison.upstreams[0].files)
    matched = len(comparison.target.files)  # one match entry per target file
    matched += 1  # and the tables entry (lineage.results.reuse)
    matched += 2  # and the upstream side's and origins' (lineage.side_cache)
    # an entry of an older index version is counted and cleared too
    old = cache / "index-v0" / "ab" / "abcdef.rec"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"old")
    # and a report's kept elements (lineage.report.elements; written by report runs, not compare)
    elements = cache / f"elements-v{ELEMENTS_VERSION}" / "spdx" / "cd" / "cdef.rec"
    elements.parent.mkdir(parents=True)
    elements.write_bytes(b"kept")
    matched += 1
    # and a report's kept HTML pages (lineage.report.page_cache)
    page = cache / f"pages-v{PAGES_VERSION}" / ("ef" * 32) / "a.py-0123456789ab.0123.rec"
    page.parent.mkdir(parents=True)
    page.write_bytes(b"page")
    matched += 1

    assert main(["cache", "info", "--cache-dir", str(cache)]) == 0
    out = capsys.readouterr().out
    assert f"cache: {cache}" in out
    assert f"elements-v{ELEMENTS_VERSION}: 1 entries" in out
    assert f"pages-v{PAGES_VERSION}: 1 entries" in out
    assert f"entries: {n + matched + 1:,}" in out
    assert f"index-v{INDEX_VERSION}: {n:,} entries" in out
    assert "index-v0: 1 entries" in out
    assert f"tables-v{TABLES_VERSION}: 1 entries" in out
    assert f"side-v{SIDE_VERSION}: 2 entries" in out  # the side and the origins

    assert main(["cache", "clear", "--cache-dir", str(cache)]) == 0
    assert f"removed {n + matched + 1:,} cache entries" in capsys.readouterr().out
    assert not page.exists()
    assert not list(cache.rglob("*.rec"))

    assert main(["cache", "info", "--cache-dir", str(cache)]) == 0
    assert "entries: 0" in capsys.readouterr().out


def test_cache_info_on_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cache", "info", "--cache-dir", str(tmp_path / "nowhere")]) == 0
    assert "entries: 0" in capsys.readouterr().out
    assert main(["cache", "clear", "--cache-dir", str(tmp_path / "nowhere")]) == 0
    assert "removed 0 cache entries" in capsys.readouterr().out


def test_match_cache_skips_unchanged_files_and_survives_damage(tmp_path: Path) -> None:
    """A second run takes every target file's labels from the match cache; a damaged match entry
    is detected, the file is matched again, and the figures do not move."""
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    first = _run(t_root, u_root, cache, tmp_path / "out1")
    n_target = first["target"]["indexed_files"]
    assert first["match_cache"] == {"hits": 0, "misses": n_target, "table_rows_reused": 0}
    second = _run(t_root, u_root, cache, tmp_path / "out2", reuse_tables=False)
    assert second["match_cache"] == {"hits": n_target, "misses": 0, "table_rows_reused": 0}
    entries = sorted(cache.glob("match-v*/*/*/*.rec"))
    assert len(entries) == n_target
    entries[0].write_bytes(entries[0].read_bytes()[:-7])
    third = _run(t_root, u_root, cache, tmp_path / "out3", reuse_tables=False)
    assert third["match_cache"] == {"hits": n_target - 1, "misses": 1, "table_rows_reused": 0}
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json"):
        expected = (tmp_path / "out1" / name).read_bytes()
        assert (tmp_path / "out2" / name).read_bytes() == expected, name
        assert (tmp_path / "out3" / name).read_bytes() == expected, name


def test_match_cache_depends_on_parameters(tmp_path: Path) -> None:
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=cache, jobs=1))
    other = compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=cache, jobs=1),
                    params=MatchParams(region_min_weight=40.0))
    assert other.match_cache_hits == 0 and other.match_cache_misses == len(other.target.files)


def test_cache_clear_removes_only_lineages_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=cache, jobs=1))
    wheel = cache / "downloads" / "pypi" / "x-1.0" / "x-1.0-py3-none-any.whl"
    wheel.parent.mkdir(parents=True)
    wheel.write_bytes(b"w" * 1000)
    (cache / "downloads" / "pypi" / "x-1.0" / "x-1.0-py3-none-any.whl.sha256").write_text("0" * 64)
    (cache / "downloads" / "pypi" / "x-1.0" / "x-1.0-py3-none-any.whl.url").write_text("https://files.example/x\n")
    mine = [cache / "index-viewer" / "a.rec", cache / "match-videos" / "b.rec", cache / "notes.txt"]
    for path in mine:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("the user's")
    (cache / f"match-v{MATCH_VERSION}" / "dangling.rec").symlink_to(tmp_path / "nowhere")

    assert main(["cache", "info", "--cache-dir", str(cache)]) == 0
    out = capsys.readouterr().out
    assert "  downloads: 1 entries, 0.0 MB" in out
    assert "index-viewer" not in out and "match-videos" not in out

    assert main(["cache", "clear", "--keep-downloads", "--cache-dir", str(cache)]) == 0
    assert "(downloads kept)" in capsys.readouterr().out
    assert wheel.is_file() and not list(cache.glob("index-v[0-9]*")) and not list(cache.glob("match-v[0-9]*"))
    assert main(["cache", "clear", "--cache-dir", str(cache)]) == 0
    assert "removed 1 cache entries" in capsys.readouterr().out
    assert sorted(p.name for p in cache.iterdir()) == ["index-viewer", "match-videos", "notes.txt"]
    assert all(p.read_text() == "the user's" for p in mine)


def test_cache_dir_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for action in ("info", "clear"):
        assert main(["cache", action, "--cache-dir", str(afile)]) == 2
        assert capsys.readouterr().err == f"lineage: error: cache folder {afile} is not a directory\n"


def test_cache_cleared_during_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cache clear` while a run writes its entries: the run goes on (no traceback), its figures
    are those of a clean run, and a later run recomputes what vanished."""

    import lineage.index.store as store
    from lineage import cachedir

    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    clean = _run(t_root, u_root, tmp_path / "clean-cache", tmp_path / "clean")
    writes = []

    temporary = store._temporary

    def racing(folder: Path) -> tuple[int, str]:
        made = temporary(folder)
        writes.append(made[1])
        if len(writes) in (2, 5):  # a clear between creating an entry's temporary file and its rename
            cachedir.clear(cache)
        return made

    monkeypatch.setattr(store, "_temporary", racing)
    # per-file entries only: a record pack written after the clear would hold every record
    first = _run(t_root, u_root, cache, tmp_path / "out1", index_packs=0)
    monkeypatch.undo()
    second = _run(t_root, u_root, cache, tmp_path / "out2", index_packs=0)
    assert len(writes) > 5 and second["target"]["cache_misses"] + second["upstreams"][0]["cache_misses"] > 0
    for name in ("lines.csv", "files.csv", "regions.csv", "summary.json"):
        expected = (tmp_path / "clean" / name).read_bytes()
        assert (tmp_path / "out1" / name).read_bytes() == expected, name
        assert (tmp_path / "out2" / name).read_bytes() == expected, name
    assert first["target"]["indexed_files"] == clean["target"]["indexed_files"]


def test_an_unwritable_cache_only_costs_speed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import lineage.index.store as index_store
    import lineage.match.store as match_store

    def full(entry: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    t_root, u_root = _trees(tmp_path)
    clean = _run(t_root, u_root, tmp_path / "c1", tmp_path / "clean")
    monkeypatch.setattr(index_store, "write_atomically", full)
    monkeypatch.setattr(match_store, "write_atomically", full)
    full_disk = _run(t_root, u_root, tmp_path / "c2", tmp_path / "full")
    assert full_disk["target"]["indexed_files"] == clean["target"]["indexed_files"]
    for name in ("lines.csv", "files.csv", "summary.json"):
        assert (tmp_path / "clean" / name).read_bytes() == (tmp_path / "full" / name).read_bytes(), name


def test_store_keeping_newest_prunes_only_its_own_entries(tmp_path: Path) -> None:
    """The upstream side's entries (two-hex-digit folders) are pruned to the newest ``keep``;
    the ``licences/`` and ``origins/`` entries beside them, older still, are left alone."""
    import os

    from lineage.index.store import store_keeping_newest

    root = tmp_path / "side-v1"
    others = [root / "licences" / "old.rec", root / "origins" / "ab" / "old.rec"]
    for when, path in enumerate(others):
        path.parent.mkdir(parents=True)
        path.write_bytes(b"other")
        os.utime(path, ns=(when, when))
    for k in range(5):
        store_keeping_newest(root / f"{k:02x}" / f"{k}.rec", b"side", 3, "[0-9a-f][0-9a-f]/*.rec")
        os.utime(root / f"{k:02x}" / f"{k}.rec", ns=(10**18 + k, 10**18 + k))
    kept = sorted(p.name for p in root.glob("[0-9a-f][0-9a-f]/*.rec"))
    assert kept == ["2.rec", "3.rec", "4.rec"]
    assert all(path.exists() for path in others)


def test_an_entry_is_written_through_a_temporary_name_of_this_process(tmp_path: Path) -> None:
    import os

    import lineage.index.store as store

    entry = tmp_path / "new" / "folder" / "x.rec"
    store.write_atomically(entry, b"one")  # makes its folder
    store.write_atomically(entry, b"two")  # replaces the entry
    assert entry.read_bytes() == b"two" and [p.name for p in entry.parent.iterdir()] == ["x.rec"]
    fd, name = store._temporary(tmp_path)
    os.close(fd)
    assert os.path.basename(name).startswith(f".tmp-{os.getpid()}-")
    # A leftover holding the next name (a dead process with this pid): another name is drawn.
    number = int(name.rsplit("-", 1)[1]) + 1
    (tmp_path / f".tmp-{os.getpid()}-{number}").write_bytes(b"left over")
    fd, other = store._temporary(tmp_path)
    os.close(fd)
    assert other != name and os.path.basename(other).startswith(".tmp-") and Path(other).read_bytes() == b""


def test_the_rules_that_decide_labels_are_in_the_match_code_fingerprint() -> None:
    """Which files are marked (the upstream's marker names) and which package a file is in decide
    labels: their code is in the packages the match cache's code fingerprint covers, so a change
    to them is never answered by an older entry (upstream_names lived in lineage.api; the
    marker-path resolver, whose named files break pairing ties, in lineage.results.tables)."""
    import inspect

    from lineage.api import upstream_names
    from lineage.index.project import import_parts, package_roots, top_level
    from lineage.markers.paths import resolve_marker_path
    from lineage.match.store import code_files

    covered = {p.resolve() for p in code_files()}
    for rule in (upstream_names, top_level, import_parts, package_roots, resolve_marker_path):
        assert Path(inspect.getfile(rule)).resolve() in covered, rule.__name__


def test_a_rerun_that_reuses_every_row_says_so_and_not_that_all_0_files_were_cached(tmp_path: Path) -> None:
    # `lineage reproduce` of pip 24.2 --vendored printed "matching: all 0 target files cached" next
    # to "tables: the rows of 411 unchanged target files reused": nothing was left to match.
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(t_root, u_root, cache, tmp_path / "out1")
    said: list[str] = []
    _run(t_root, u_root, cache, tmp_path / "out2", progress=said.append)
    assert "tables: the rows of 2 unchanged target files reused" in said
    assert not [m for m in said if m.startswith("matching: all 0 ")]


def test_match_cache_keeps_the_most_recently_used_contexts(tmp_path: Path) -> None:
    """A new context folder removes the least recently used beyond ``keep`` (and older match
    formats' folders); a context read again is used again, and a removed one is only a miss."""
    root = tmp_path / "cache"
    (root / "match-v1" / "old").mkdir(parents=True)
    entry = MatchEntry(empty_match(3), [], None, ())

    def use(context: str, write: bool = True) -> MatchCache:
        cache = MatchCache(root, context, keep=3)
        if write:
            cache.put("d" * 40, "m.py", entry)
        else:
            cache.get("d" * 40, "m.py", 3)
        return cache

    for n, context in enumerate(("a" * 64, "b" * 64, "c" * 64)):
        use(context)
        stamp = root / f"match-v{MATCH_VERSION}" / context[:32] / USED
        os.utime(stamp, ns=(time.time_ns() - (10 - n) * 10**9,) * 2)  # a, then b, then c
    assert not (root / "match-v1").exists()
    reread = use("a" * 64, write=False)  # a used again: b is now the least recently used
    assert reread.hits == 1
    use("d" * 64)
    kept = sorted(p.name[0] for p in (root / f"match-v{MATCH_VERSION}").iterdir())
    assert kept == ["a", "c", "d"]
    gone = use("b" * 64, write=False)  # removed: a miss, never an error
    assert gone.hits == 0 and gone.misses == 1


def test_match_contexts_setting_is_checked() -> None:
    with pytest.raises(LineageError, match="match_contexts"):
        RunSettings(match_contexts=0)


def test_compare_keeps_as_many_match_contexts_as_settings_say(tmp_path: Path) -> None:
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    settings = RunSettings(cache_dir=cache, jobs=1, match_contexts=1, reuse_tables=False)
    compare(str(t_root), [str(u_root)], settings=settings)
    compare(str(t_root), [str(u_root)], settings=settings, params=MatchParams(region_min_weight=40.0))
    assert len(list((cache / f"match-v{MATCH_VERSION}").iterdir())) == 1
    again = compare(str(t_root), [str(u_root)], settings=settings)  # the first context was removed
    assert again.match_cache_hits == 0 and again.match_cache_misses == len(again.target.files)


def _write_all(t_root: Path, u_root: Path, cache: Path, out: Path) -> None:
    """The CLI's path: every cache, the whole-result one, HTML pages and attachments included."""
    from lineage.compare_and_write import compare_and_write

    compare_and_write(str(t_root), [str(u_root)], out, settings=RunSettings(cache_dir=cache, jobs=1))


def test_a_damaged_entry_a_run_cannot_remove_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kind of entry damaged in a cache the run may read but not change (a shared,
    read-only cache; simulated: the tests may run as root, whom chmod does not stop): each is a
    miss, the figures those of a clean run. Before, removing the damaged entry raised
    PermissionError, a traceback (index, tables, side) or "cannot write reports" (elements, pages)."""
    t_root, u_root = _trees(tmp_path)
    cache = tmp_path / "cache"
    _write_all(t_root, u_root, cache, tmp_path / "clean")
    entries = [p for p in cache.rglob("*.rec") if not p.is_relative_to(cache / "downloads")]
    kinds = {p.relative_to(cache).parts[0].split("-v")[0] for p in entries}
    assert kinds >= {"index", "match", "tables", "side", "elements", "pages"}
    for entry in entries:
        blob = bytearray(entry.read_bytes())
        blob[-1] ^= 0xFF
        entry.write_bytes(bytes(blob))
    unlink = Path.unlink

    def refused(self: Path, missing_ok: bool = False) -> None:
        if self.is_relative_to(cache) and self.suffix == ".rec":
            raise PermissionError(13, "Permission denied", str(self))
        unlink(self, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refused)
    _write_all(t_root, u_root, cache, tmp_path / "damaged")
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "obligations.csv", "summary.json"):
        assert (tmp_path / "clean" / name).read_bytes() == (tmp_path / "damaged" / name).read_bytes(), name
    assert sorted(p.name for p in (tmp_path / "clean" / "html").iterdir()) == \
        sorted(p.name for p in (tmp_path / "damaged" / "html").iterdir())


@pytest.mark.parametrize("folder", [f"side-v{SIDE_VERSION}", f"index-v{INDEX_VERSION}", f"tables-v{TABLES_VERSION}"])
def test_a_file_where_a_cache_folder_should_be_only_costs_speed(tmp_path: Path, folder: str) -> None:
    t_root, u_root = _trees(tmp_path)
    _run(t_root, u_root, tmp_path / "c1", tmp_path / "clean")
    cache = tmp_path / "c2"
    _run(t_root, u_root, cache, tmp_path / "first")
    for path in sorted((cache / folder).rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (cache / folder).rmdir()
    (cache / folder).write_text("not a folder\n")
    _run(t_root, u_root, cache, tmp_path / "second")  # side-v1: NotADirectoryError raised from its origins' read
    for name in ("lines.csv", "files.csv", "regions.csv", "summary.json"):
        assert (tmp_path / "clean" / name).read_bytes() == (tmp_path / "second" / name).read_bytes(), name
