"""Tests for lineage.side_cache: the upstream side loaded from the cache is the one built anew,
and a run using it writes the reports of a run without any cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import lineage.match.idioms as idioms
import lineage.side_cache as side_cache
from lineage.index import IndexCache
from lineage.index.tree import index_tree
from lineage.sources import open_source
from tests.test_table_reuse import _append, _reports, _run, _trees


@pytest.fixture(autouse=True)
def _fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


def _entries(cache: Path) -> list[Path]:
    """The upstream sides' entries (two-hex-digit folders; ``origins/`` and ``licences/`` are
    other entries of the same folder: whether a run writes a licences entry depends on what the
    process has already read)."""
    return sorted(cache.glob(f"side-v{side_cache.SIDE_VERSION}/[0-9a-f][0-9a-f]/*.rec"))


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = idioms.form_file_counts
    monkeypatch.setattr(idioms, "form_file_counts", lambda side: calls.append(1) or original(side))
    return calls


def test_a_rerun_reads_the_side_and_writes_the_reports_of_a_run_without_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    calls = _counting(monkeypatch)
    _run(target, upstream, tmp_path / "first", cache)
    assert len(calls) == 1 and len(_entries(cache)) == 1
    for number, path in enumerate(("app/mixed.py", "app/own4.py")):
        _append(path, "\n# one more line\n")(target, upstream)
        calls.clear()
        _run(target, upstream, tmp_path / f"warm{number}", cache)
        assert calls == []  # the form counts came from the cache
        _run(target, upstream, tmp_path / f"plain{number}", tmp_path / f"none{number}", use_cache=False)
        assert _reports(tmp_path / f"warm{number}") == _reports(tmp_path / f"plain{number}")
    # another upstream: another key, built and stored again
    with (upstream / "zorblib" / "extra.py").open("w", encoding="utf-8") as handle:
        handle.write("def extra(x):\n    return x * 3\n")
    calls.clear()
    _run(target, upstream, tmp_path / "changed-up", cache)
    assert len(calls) == 1 and len(_entries(cache)) == 2


def _upstream_files(upstream: Path, cache: Path) -> list:  # type: ignore[type-arg]
    with open_source(str(upstream), cache) as source:
        tree = index_tree(source, IndexCache(cache), jobs=1)
    return [tree.files], tree


def test_the_loaded_side_is_the_built_one(tmp_path: Path) -> None:
    _, upstream = _trees(tmp_path)
    files, tree = _upstream_files(upstream, tmp_path / "cache")
    up_of = np.zeros(len(tree.files), np.int32)
    built = side_cache.upstream_side(tmp_path / "cache", ["up"], files, tree.reader(), up_of)
    loaded = side_cache.upstream_side(tmp_path / "cache", ["up"], files, tree.reader(), up_of)
    plain = side_cache.Side(tree.files, tree.reader(), up_of)
    for name in side_cache.SIDE_ARRAYS:
        for side in (built, loaded):
            assert np.array_equal(getattr(side, name), getattr(plain, name)), name
            assert getattr(side, name).dtype == getattr(plain, name).dtype, name
    for one, other in zip(loaded.form_counts, idioms.form_file_counts(plain), strict=True):  # type: ignore[arg-type]
        assert np.array_equal(one, other) and one.dtype == other.dtype


def test_the_loaded_side_is_a_private_mapping_of_its_entry(tmp_path: Path) -> None:
    """The stored arrays are mapped, not read and copied (lineage.index.store.read_mapped): views
    of the entry's pages, writable, and a write changes neither the entry nor the next load."""
    import os

    _, upstream = _trees(tmp_path)
    files, tree = _upstream_files(upstream, tmp_path / "cache")
    up_of = np.zeros(len(tree.files), np.int32)
    side_cache.upstream_side(tmp_path / "cache", ["up"], files, tree.reader(), up_of)
    [entry] = _entries(tmp_path / "cache")
    stored = entry.read_bytes()
    loaded = side_cache.upstream_side(tmp_path / "cache", ["up"], files, tree.reader(), up_of)
    name = next(n for n in side_cache.SIDE_ARRAYS if len(getattr(loaded, n)))
    array = getattr(loaded, name)
    assert array.flags.writeable and (array.flags.owndata == (os.name != "posix"))
    before = array.copy()
    array[0] = array[0] + 1
    assert entry.read_bytes() == stored
    again = side_cache.upstream_side(tmp_path / "cache", ["up"], files, tree.reader(), up_of)
    assert np.array_equal(getattr(again, name), before)


def test_the_key_holds_each_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, upstream = _trees(tmp_path)
    files, tree = _upstream_files(upstream, tmp_path / "cache")
    key = side_cache.side_key(["up"], files)
    moved = [[type(f)(**{**f.__dict__, "path": "x/" + f.path}) for f in files[0]]]
    edited = [[type(f)(**{**f.__dict__, "digest": "0" * 40}) if k == 0 else f for k, f in enumerate(files[0])]]
    assert side_cache.side_key(["other"], files) != key  # the label
    assert side_cache.side_key(["up"], moved) != key  # the paths
    assert side_cache.side_key(["up"], edited) != key  # the digests
    assert side_cache.side_key(["up"], [files[0][1:]]) != key  # the files
    import lineage.match.store as store

    monkeypatch.setattr(store, "code_fingerprint", lambda names=(): "0" * 64)
    assert side_cache.side_key(["up"], files) != key  # the code


@pytest.mark.parametrize("damage", ["flip", "truncate", "foreign"])
def test_a_damaged_entry_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    _, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    files, tree = _upstream_files(upstream, cache)
    up_of = np.zeros(len(tree.files), np.int32)
    side_cache.upstream_side(cache, ["up"], files, tree.reader(), up_of)
    (entry,) = _entries(cache)
    data = entry.read_bytes()
    if damage == "flip":
        entry.write_bytes(data[:-5] + bytes([data[-5] ^ 0xFF]) + data[-4:])
    elif damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    else:  # an entry of another key under this one's name
        other = side_cache.side_key(["other"], files)
        side_cache.upstream_side(cache, ["other"], files, tree.reader(), up_of)
        entry.write_bytes(side_cache._entry(cache, other).read_bytes())
    calls = _counting(monkeypatch)
    side = side_cache.upstream_side(cache, ["up"], files, tree.reader(), up_of)
    assert len(calls) == 1  # built again, not read
    assert side_cache._decode(entry.read_bytes(), side_cache.side_key(["up"], files)) is not None  # stored again
    plain = side_cache.Side(tree.files, tree.reader(), up_of)
    assert all(np.array_equal(getattr(side, n), getattr(plain, n)) for n in side_cache.SIDE_ARRAYS)


def _origin_inputs(tmp_path: Path) -> tuple:  # type: ignore[type-arg]
    from lineage.match.params import MatchParams

    _, upstream = _trees(tmp_path)
    files, tree = _upstream_files(upstream, tmp_path / "cache")
    return files, [0] * len(files[0]), [{"zorblib"}], {"app", "zorbtools"}, MatchParams(), [{"zorb authors"}]


def test_cached_origins_are_the_computed_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lineage.match.origin import upstream_origins

    files, up_of, own, target, params, holders = _origin_inputs(tmp_path)
    expected = upstream_origins(files[0], up_of, own, target, params, holders)
    assert any(o.kind != "own" for o in expected)  # the tree has third-party and from-target files
    first = side_cache.cached_origins(tmp_path / "cache", ["up"], files, up_of, own, target, params, holders)
    import lineage.match.origin as origin

    monkeypatch.setattr(origin, "upstream_origins", lambda *a: pytest.fail("not read from the cache"))
    second = side_cache.cached_origins(tmp_path / "cache", ["up"], files, up_of, own, target, params, holders)
    assert first == expected and second == expected


def test_the_origins_key_holds_each_part(tmp_path: Path) -> None:
    import dataclasses

    files, up_of, own, target, params, holders = _origin_inputs(tmp_path)
    key = side_cache.origins_key(["up"], files, own, target, params, holders)
    assert side_cache.origins_key(["up"], [files[0][1:]], own, target, params, holders) != key  # the files
    assert side_cache.origins_key(["up"], files, [{"other"}], target, params, holders) != key  # own names
    assert side_cache.origins_key(["up"], files, own, {"app"}, params, holders) != key  # the target's names
    changed = dataclasses.replace(params, origin_own_holder_share=params.origin_own_holder_share / 2)
    assert side_cache.origins_key(["up"], files, own, target, changed, holders) != key  # the parameters
    assert side_cache.origins_key(["up"], files, own, target, params, [set()]) != key  # licence holders


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_a_damaged_origins_entry_is_a_miss(tmp_path: Path, damage: str) -> None:
    from lineage.match.origin import upstream_origins

    files, up_of, own, target, params, holders = _origin_inputs(tmp_path)
    side_cache.cached_origins(tmp_path / "cache", ["up"], files, up_of, own, target, params, holders)
    (entry,) = (tmp_path / "cache").glob(f"side-v{side_cache.SIDE_VERSION}/origins/*/*.rec")
    data = entry.read_bytes()
    entry.write_bytes(data[:-5] + bytes([data[-5] ^ 0xFF]) + data[-4:] if damage == "flip" else data[: len(data) // 2])
    again = side_cache.cached_origins(tmp_path / "cache", ["up"], files, up_of, own, target, params, holders)
    assert again == upstream_origins(files[0], up_of, own, target, params, holders)
    assert entry.read_bytes() == data  # stored again, whole
