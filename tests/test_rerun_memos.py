"""What a rerun that changed one file no longer does again (issue 13's one changed file): each
memo gives the answer the plain computation gives.

- a record pack makes one :class:`Marker` per distinct field list (files repeat their header);
- the upstream's top-level definers are made on the first lookup only
  (:class:`lineage.markers.paths.TopLevelDefiners`);
- a copyright line's holder is remembered (:func:`lineage.licences.notices.holder`);
- ``compare_trees`` reads each distinct marker list once: the files table of a tree whose files
  share headers is the one of a tree where each file's markers are read alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lineage.api import compare
from lineage.index import IndexCache, Indexer
from lineage.index.store import pack_slot
from lineage.index.tree import blob_digest
from lineage.licences import notices
from lineage.markers.paths import TopLevelDefiners, resolve_marker_path, top_level_definers
from lineage.markers.record import Marker
from lineage.settings import RunSettings

HEADER = "# Copyright 2024 The Upkg Authors\n# Adapted from https://github.com/example/upkg/blob/v1/upkg/{name}.py\n"


def _record(text: str, path: str):  # type: ignore[no-untyped-def]
    data = text.encode()
    return Indexer().index(path, data, blob_digest(data))


def test_pack_makes_one_marker_per_field_list(tmp_path: Path) -> None:
    records = [_record(HEADER.format(name="a") + f"x = {k}\n", f"m{k}.py") for k in range(3)]
    cache = IndexCache(tmp_path, packs=1)
    slot = pack_slot("dir", "/t")
    cache.put_pack(slot, records)
    pack = cache.get_pack(slot)
    assert pack is not None
    back = [pack.get(r.digest, r.path) for r in records]
    for got, want in zip(back, records, strict=True):
        assert got is not None and got.markers == want.markers and got.markers
    # the three files' headers are one list of markers: the same objects, made once
    assert all(a is b for a, b in zip(back[0].markers, back[1].markers, strict=True))  # type: ignore[union-attr]
    assert all(a is b for a, b in zip(back[0].markers, back[2].markers, strict=True))  # type: ignore[union-attr]


class _Files(list):  # type: ignore[type-arg]
    """Upstream records that count how often they are walked."""

    walks = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        type(self).walks += 1
        return super().__iter__()


def test_top_level_definers_made_on_first_lookup_only() -> None:
    files = _Files([_record("def helper():\n    return 1\n\n\nclass Thing:\n    pass\n", "pkg/util.py"),
                    _record("def helper():\n    return 2\n    # longer\n", "pkg/other.py")])
    _Files.walks = 0
    defined = TopLevelDefiners(files)
    assert _Files.walks == 0  # nothing read until asked
    want = top_level_definers(list(files))
    assert dict(defined) == want and defined.get("helper") == want["helper"] and defined.get("gone") is None
    assert _Files.walks == 1 + 1  # once for ``want``, once for ``defined``, however often asked
    assert len(defined) == len(want) and sorted(defined) == sorted(want)
    assert _Files.walks == 2


def test_resolving_without_definers_asks_for_none() -> None:
    """A marker naming a file path outright never asks for the definers."""
    files = _Files([_record("x = 1\n", "pkg/mod.py")])
    _Files.walks = 0
    defined = TopLevelDefiners(files)
    marker = Marker(line=1, kind="adapted", text="Adapted from pkg/mod.py", path="pkg/mod.py")
    assert resolve_marker_path(marker, {"pkg/mod.py"}, {"mod.py": ["pkg/mod.py"]}, defined) == "pkg/mod.py"
    assert _Files.walks == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([
    "Copyright 2020 Jane Doe", "Copyright (c) 2019-2024, The Foo Authors. All rights reserved.",
    "(c) 2021 Foo Corp, released under the MIT License", "Copyright [yyyy] [name of copyright owner]",
    "Copyright 2009 Raymond Hettinger, released under the MIT License.", "Copyright (c) 2020",
    "SPDX-FileCopyrightText: Copyright contributors to the Bar project"]), max_size=6))
def test_holder_memo_gives_the_plain_answer(lines: list[str]) -> None:
    plain = notices.holder.__wrapped__  # type: ignore[attr-defined]
    assert [notices.holder(x) for x in lines] == [plain(x) for x in lines]


@pytest.fixture
def shared_header_trees(tmp_path: Path) -> tuple[Path, Path]:
    up, target = tmp_path / "up", tmp_path / "target"
    body = "".join(f"def f{k}(values, scale):\n    total = sum(v * scale for v in values)\n"
                   f"    return total + {k} * len(values)\n\n\n" for k in range(8))
    for name in ("alpha", "beta", "gamma"):
        (up / "upkg").mkdir(parents=True, exist_ok=True)
        (up / "upkg" / f"{name}.py").write_text(body.replace("total", f"{name}_total"))
        (target / "tpkg").mkdir(parents=True, exist_ok=True)
        # every target file carries the same two header lines but one marker naming its own file
        (target / "tpkg" / f"{name}.py").write_text(HEADER.format(name=name) + body.replace("total", f"{name}_total"))
    (up / "upkg" / "__init__.py").write_text("")
    (target / "tpkg" / "__init__.py").write_text("")
    return target, up


def test_shared_headers_read_once_same_files_table(shared_header_trees: tuple[Path, Path], tmp_path: Path) -> None:
    target, up = shared_header_trees
    settings_ = RunSettings(cache_dir=tmp_path / "cache", use_cache=False, jobs=1)
    files = compare(str(target), [str(up)], settings=settings_).files
    rows = files.set_index("target_path")
    for name in ("alpha", "beta", "gamma"):
        row = rows.loc[f"tpkg/{name}.py"]
        assert row["marker"] != "" and row["verbatim_code_lines"] > 0
        # each file's marker names its own upstream file, though their headers are alike
        assert row["marker_path"] == f"upkg/{name}.py"
