"""Tests for lineage.report.page_cache: a rerun takes the unchanged target files' HTML pages
from the last run and writes the html/ folder of a run without any cache, byte for byte."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import lineage.report.page_cache as page_cache
from lineage.compare_and_write import compare_and_write
from lineage.settings import RunSettings
from tests.test_lines_csv import _edit_in_place, _edit_upstream
from tests.test_table_reuse import EDITS, MAX_BYTES, _trees


@pytest.fixture(autouse=True)
def _fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.fixture()
def found(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per page looked up in the cache: whether it was there."""
    looked: list[bool] = []
    original = page_cache.PageCache.get

    def counting(self: page_cache.PageCache, name: str, key: str) -> Any:
        got = original(self, name, key)
        looked.append(got is not None)
        return got

    monkeypatch.setattr(page_cache.PageCache, "get", counting)
    return looked


def _run(target: Path, upstream: Path, out: Path, cache: Path, use_cache: bool = True, jobs: int = 1) -> None:
    settings = RunSettings(cache_dir=cache, jobs=jobs, use_cache=use_cache, max_file_bytes=MAX_BYTES)
    compare_and_write(str(target), [str(upstream)], out, settings=settings, html=True, formats=())


def _pages(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "html").iterdir())}


def _stored(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"pages-v{page_cache.PAGES_VERSION}/*/*.rec"))


def test_kept_pages_write_the_html_of_a_run_without_cache(tmp_path: Path, found: list[bool]) -> None:
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    first = _pages(tmp_path / "first")
    assert found and not any(found)  # every page rendered, then stored
    assert len(_stored(cache)) == len(first) - 3  # all but the index and its two assets
    edits = [("in place", _edit_in_place), *((name, edit) for name, edit, _ in EDITS), ("upstream", _edit_upstream)]
    taken = {}
    for number, (name, edit) in enumerate(edits):
        edit(target, upstream)
        found.clear()
        _run(target, upstream, tmp_path / f"warm{number}", cache)
        _run(target, upstream, tmp_path / f"plain{number}", tmp_path / f"none{number}", use_cache=False)
        assert _pages(tmp_path / f"warm{number}") == _pages(tmp_path / f"plain{number}"), name
        taken[name] = (sum(found), len(found))
    # an edit in place changes one shown file's page: the others are taken
    assert 0 < taken["in place"][0] < taken["in place"][1]
    assert taken["append"][0] > 0 and taken["header"][0] > 0
    assert taken["upstream"][0] == 0  # another context: every page rendered again
    # one version of each page per context: the edited pages replaced theirs
    folders = {p.parent for p in _stored(cache)}
    for folder in folders:
        stems = [p.name.rsplit(".", 2)[0] for p in folder.glob("*.rec")]
        assert len(stems) == len(set(stems))


def test_pages_kept_by_two_processes_are_those_of_one(tmp_path: Path, found: list[bool]) -> None:
    """The pages are written in parts side by side (``--jobs 2``): each part stores and takes its own."""
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache, jobs=2)
    _edit_in_place(target, upstream)
    _run(target, upstream, tmp_path / "warm", cache, jobs=2)
    _run(target, upstream, tmp_path / "plain", tmp_path / "none", use_cache=False, jobs=1)
    assert _pages(tmp_path / "warm") == _pages(tmp_path / "plain")
    assert len(_stored(cache)) == len(_pages(tmp_path / "plain")) - 3


def test_a_damaged_page_is_rendered_again(tmp_path: Path, found: list[bool]) -> None:
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    other = next(p for p in _stored(cache) if not p.name.startswith("app_copied.py"))  # not the edited file's
    blob = bytearray(other.read_bytes())
    blob[-5] ^= 0xFF  # the checksum no longer holds
    other.write_bytes(bytes(blob))
    _edit_in_place(target, upstream)
    found.clear()
    _run(target, upstream, tmp_path / "warm", cache)
    _run(target, upstream, tmp_path / "plain", tmp_path / "none", use_cache=False)
    assert _pages(tmp_path / "warm") == _pages(tmp_path / "plain")
    assert found.count(False) >= 2  # the damaged page and the edited file's


def test_a_key_without_the_file_digest_would_write_a_stale_page(tmp_path: Path, found: list[bool],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The scenario notices a key that lost the file's digest (so the check above has teeth); the
    file's obligations rows, which the edit changes too, are left out of it as well."""
    original = page_cache.page_key
    monkeypatch.setattr("lineage.report.html.page_key",
                        lambda file_key, several, *rest: original([file_key[0], *file_key[2:]], several))
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    _edit_in_place(target, upstream)
    _run(target, upstream, tmp_path / "warm", cache)
    _run(target, upstream, tmp_path / "plain", tmp_path / "none", use_cache=False)
    assert _pages(tmp_path / "warm") != _pages(tmp_path / "plain")


def test_only_the_newest_contexts_are_kept(tmp_path: Path) -> None:
    from lineage.results.reuse import KEEP

    cache = tmp_path / "cache"
    for k in range(KEEP + 2):
        pages = page_cache.PageCache(cache, f"{k:064x}")
        pages.put("a.py-0123456789ab.html", "f" * 64, f"<p>{k}</p>")
    kept = sorted(p.name for p in (cache / f"pages-v{page_cache.PAGES_VERSION}").iterdir())
    assert len(kept) == KEEP and f"{KEEP + 1:064x}" in kept
    newest = page_cache.PageCache(cache, f"{KEEP + 1:064x}")
    assert newest.get("a.py-0123456789ab.html", "f" * 64) == f"<p>{KEEP + 1}</p>"


def test_a_page_follows_its_obligations_when_only_the_targets_licence_changes(tmp_path: Path,
                                                                              found: list[bool]) -> None:
    """A page's header shows the file's obligations, which read the target's licence files too:
    a kept page is not taken when they change (the page key holds the file's obligations rows:
    the tables' context holds no licence file, so those rows are what tell the pages apart)."""
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    (target / "LICENSE").write_text("MIT License\n\nCopyright (c) 2024 Quillon Varrick\n\n" + MIT_BODY,
                                    encoding="utf-8")
    _run(target, upstream, tmp_path / "warm", cache)
    _run(target, upstream, tmp_path / "plain", tmp_path / "none", use_cache=False)
    assert _pages(tmp_path / "warm") == _pages(tmp_path / "plain")
    assert _pages(tmp_path / "warm") != _pages(tmp_path / "first")  # the licence reached some page


MIT_BODY = """Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
"""
