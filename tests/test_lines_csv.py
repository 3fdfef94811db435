"""Tests for lineage.report.lines_csv: lines.csv assembled from the last run's bytes per target
file is the lines.csv of a run without any cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import lineage.report.lines_csv as lines_csv
import lineage.results.reuse as reuse
from lineage.api import compare
from lineage.settings import RunSettings
from tests.test_table_reuse import EDITS, _reports, _run, _trees


@pytest.fixture(autouse=True)
def _fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.fixture()
def copied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many files' rows each run copied from the entry (-1: the cache was not used)."""
    counts: list[int] = []
    original = lines_csv.write_lines_csv

    def counting(*args: Any, **kwargs: Any) -> int:
        counts.append(original(*args, **kwargs))
        return counts[-1]

    monkeypatch.setattr(lines_csv, "write_lines_csv", counting)
    return counts


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"tables-v{reuse.TABLES_VERSION}/lines-csv/*/*.rec"))


def _edit_in_place(target: Path, upstream: Path) -> None:
    """A copied line replaced by a comment: the same line and definition counts, other rows."""
    path = target / "app/copied.py"
    lines = path.read_text(encoding="utf-8").splitlines()
    k = next(k for k, line in enumerate(lines) if k > 3 and line.strip().startswith("return "))
    lines[k] = lines[k][: len(lines[k]) - len(lines[k].lstrip())] + "# edited"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _edit_upstream(target: Path, upstream: Path) -> None:
    """The upstream changes (a line more atop each file): a new context, other upstream line numbers."""
    for path in sorted(upstream.rglob("*.py")):
        path.write_text("# changed upstream\n" + path.read_text(encoding="utf-8"), encoding="utf-8")


def _scenario(tmp_path: Path, copied: list[int]) -> list[tuple[str, bool, int]]:
    """Each edit, then a run through the caches and one without: (edit, lines.csv equal, copied)."""
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    assert copied == [0] and len(_entries(cache)) == 1  # rendered whole and stored
    out = []
    edits = [("in place", _edit_in_place), *((name, edit) for name, edit, _ in EDITS), ("upstream", _edit_upstream)]
    for number, (name, edit) in enumerate(edits):
        edit(target, upstream)
        copied.clear()
        _run(target, upstream, tmp_path / f"warm{number}", cache)
        _run(target, upstream, tmp_path / f"plain{number}", tmp_path / f"none{number}", use_cache=False)
        warm, plain = _reports(tmp_path / f"warm{number}"), _reports(tmp_path / f"plain{number}")
        assert set(warm) == set(plain), name
        for file in plain:
            if file != "lines.csv":
                assert warm[file] == plain[file], (name, file)
        out.append((name, warm["lines.csv"] == plain["lines.csv"], copied[0] if copied else -1))
    return out


def test_spliced_lines_csv_is_that_of_a_run_without_cache(tmp_path: Path, copied: list[int]) -> None:
    found = _scenario(tmp_path, copied)
    assert all(equal for _, equal, _ in found), found
    by_name = {name: n for name, _, n in found}
    assert by_name["in place"] > 0 and by_name["append"] > 0  # unchanged files' bytes were copied
    assert by_name["upstream"] == 0  # another context: rendered whole


@pytest.mark.parametrize("drop", ["digest", "context"])
def test_a_key_without_one_of_its_parts_would_splice_stale_rows(tmp_path: Path, copied: list[int],
                                                                monkeypatch: pytest.MonkeyPatch, drop: str) -> None:
    """The scenario above notices a key that lost a part (so each part is needed)."""
    original = reuse.row_keys

    def weaker(context: str, target: Any, renamed: Any) -> reuse.RowKeys:
        keys = original(context, target, renamed)
        if drop == "context":
            return reuse.RowKeys("0" * 64, keys.keys, keys.rows)
        return reuse.RowKeys(keys.context, [(k[0], None, *k[2:]) for k in keys.keys], keys.rows)

    monkeypatch.setattr(reuse, "row_keys", weaker)
    found = _scenario(tmp_path, copied)
    assert not all(equal for _, equal, _ in found), found


def test_a_damaged_entry_is_a_miss(tmp_path: Path, copied: list[int]) -> None:
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    (entry,) = _entries(cache)
    for damage in ("flip", "truncate"):
        data = entry.read_bytes()
        entry.write_bytes(data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:] if damage == "flip"
                          else data[: len(data) // 2])
        _edit_in_place(target, upstream)
        copied.clear()
        _run(target, upstream, tmp_path / f"warm-{damage}", cache)
        _run(target, upstream, tmp_path / f"plain-{damage}", tmp_path / f"none-{damage}", use_cache=False)
        assert copied == [0]  # rendered whole, and stored again
        assert _reports(tmp_path / f"warm-{damage}") == _reports(tmp_path / f"plain-{damage}")
        assert entry.exists()


def test_an_api_write_renders_whole(tmp_path: Path, copied: list[int]) -> None:
    """A comparison written through the API may have had its tables edited: never spliced."""
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=cache, jobs=1))
    assert comparison.row_keys is not None
    comparison.write(tmp_path / "out", html=False)
    assert copied == [] and not _entries(cache)
