"""Tests for lineage.results.obligation_rows: the obligations table's rows kept between runs are
used only while every fact their cells read is what it was, and the table is then a cacheless
run's.

Each test stores a table's rows, then *poisons* the kept cells (every row's ``conflict_reason``
replaced by a word no rule writes): a table that shows the word used the kept row, one that does
not made it again. With nothing changed every row is kept; after a change of one key fact the rows
it can move are made again and the table equals the one made without any cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

import lineage.results.obligation_rows as rows_mod
from lineage.api import compare
from lineage.index.store import frame, unframe
from lineage.match.params import MatchParams
from lineage.results.obligation_rows import ROWS_MAGIC, kept_rows, pair_key, table_key
from lineage.settings import RunSettings
from tests.test_table_reuse import _trees

POISON = "kept-row-poison"


def _table(target: Path, upstream: Path, tmp: Path, root: Path | None,
           params: MatchParams | None = None, tamper: Callable[[object], None] | None = None) -> pd.DataFrame:
    comparison = compare(str(target), [str(upstream)], params=params,
                         settings=RunSettings(cache_dir=tmp / "cache", jobs=1))
    if tamper is not None:
        tamper(comparison)
    with kept_rows(root):
        return comparison.obligations


def _entries(root: Path) -> list[Path]:
    return sorted((root / "side-v1" / "obligations").glob("*/*.rec"))


def _poison(root: Path) -> None:
    for entry in _entries(root):
        header = json.loads(unframe(ROWS_MAGIC, entry.read_bytes()))  # type: ignore[arg-type]
        for cells in header["rows"].values():
            cells["conflict_reason"] = POISON
        entry.write_bytes(frame(ROWS_MAGIC, json.dumps(header).encode()))


APACHE = ("                                 Apache License\n                           Version 2.0, January 2004\n"
          "                        http://www.apache.org/licenses/\n\n   Copyright 2023 Zorblib Authors\n")
UP_NOTICE = "Zorblib\nCopyright 2023 Zorblib Authors\n"


def _licensed_trees(tmp_path: Path) -> tuple[Path, Path]:
    """test_table_reuse's pair, the upstream under Apache-2.0 with a NOTICE file and a holder, so
    that what the target keeps of them moves the cells."""
    target, upstream = _trees(tmp_path)
    (upstream / "LICENSE").write_text(APACHE, encoding="utf-8")
    (upstream / "NOTICE").write_text(UP_NOTICE, encoding="utf-8")
    return target, upstream


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, Path, Path]:
    target, upstream = _licensed_trees(tmp_path)
    root = tmp_path / "rows"
    first = _table(target, upstream, tmp_path, root)
    assert len(first) >= 3 and len(_entries(root)) == 1
    _poison(root)
    return target, upstream, root


def test_a_rerun_with_nothing_changed_takes_every_row_kept(tmp_path: Path, stored: tuple[Path, Path, Path]) -> None:
    target, upstream, root = stored
    again = _table(target, upstream, tmp_path, root)
    assert (again["conflict_reason"] == POISON).all()
    # and without the cache the same table but for the poisoned cells
    cold = _table(target, upstream, tmp_path, None)
    assert POISON not in set(cold["conflict_reason"])
    pd.testing.assert_frame_equal(again.drop(columns="conflict_reason"), cold.drop(columns="conflict_reason"))


def _write(path: str, text: str, upstream: bool = False) -> Callable[[Path, Path], None]:
    def edit(target: Path, up: Path) -> None:
        where = (up if upstream else target) / path
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(text, encoding="utf-8")
    return edit


def _prepend(path: str, text: str) -> Callable[[Path, Path], None]:
    def edit(target: Path, up: Path) -> None:
        old = (target / path).read_text(encoding="utf-8")
        (target / path).write_text(text + old, encoding="utf-8")
    return edit


MIT = ("MIT License\n\nCopyright (c) 2024 Zorb Target Ltd\nCopyright 2023 Zorblib Authors\n\n"
       "Permission is hereby granted, free of charge, to any person obtaining a copy\n"
       "of this software and associated documentation files (the \"Software\"), to deal\n"
       "in the Software without restriction, including without limitation the rights\nto use, copy, modify, merge, "
       "publish, distribute, sublicense, and/or sell\ncopies of the Software, and to permit persons to whom the "
       "Software is\nfurnished to do so, subject to the following conditions:\n\nThe above copyright notice and this "
       "permission notice shall be included in all\ncopies or substantial portions of the Software.\n\nTHE SOFTWARE "
       "IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\nIMPLIED.\n")

# Each whole-run fact a row reads, changed without touching a file that has rows.
WHOLE_RUN_FACTS = {
    "target root licence file": _write("LICENSE", MIT),
    "target root NOTICE file": _write("NOTICE", "Zorb Target\n" + UP_NOTICE),
    "target __copyright__ above the file": _write(
        "app/__init__.py",
        "from app.copied import *\n__all__ = ['x']\n__copyright__ = 'Copyright 2023 Zorblib Authors'\n"),
    # the target declares no licence: its own files' one stated licence is its release's
    # (app/vendored.py's Apache-2.0); an own file stating MIT beside it leaves none
    "target release licence": _prepend("app/own0.py", "# SPDX-License-Identifier: MIT\n"),
    # a holder line in a file without rows: the target's own organisation (read over all its files)
    "target's own organisation": _prepend("app/own1.py", "# Copyright 2024 Zorb Target Ltd\n"),
    "upstream licence file": _write("LICENSE", APACHE.replace("Zorblib Authors", "Zorblib Foundation"), upstream=True),
}


@pytest.mark.parametrize("fact", list(WHOLE_RUN_FACTS))
def test_a_changed_whole_run_fact_makes_every_row_again(tmp_path: Path, stored: tuple[Path, Path, Path],
                                                         fact: str) -> None:
    target, upstream, root = stored
    before = _table(target, upstream, tmp_path, None)
    WHOLE_RUN_FACTS[fact](target, upstream)
    warm = _table(target, upstream, tmp_path, root)
    cold = _table(target, upstream, tmp_path, None)
    assert POISON not in set(warm["conflict_reason"]), fact
    pd.testing.assert_frame_equal(warm, cold)
    assert len(_entries(root)) == 2  # another entry, the first kept
    if fact != "target's own organisation":  # (it moves no cell here: no upstream holder is the target's)
        assert not cold.equals(before), fact  # the change reaches the cells (so the test can fail)


def test_a_changed_parameter_makes_every_row_again(tmp_path: Path, stored: tuple[Path, Path, Path]) -> None:
    target, upstream, root = stored
    params = MatchParams(licence_head_lines=MatchParams().licence_head_lines + 1)
    warm = _table(target, upstream, tmp_path, root, params=params)
    assert POISON not in set(warm["conflict_reason"])
    pd.testing.assert_frame_equal(warm, _table(target, upstream, tmp_path, None, params=params))


def test_other_code_makes_every_row_again(tmp_path: Path, stored: tuple[Path, Path, Path],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import lineage.match.store as store

    target, upstream, root = stored
    real = store.code_fingerprint
    monkeypatch.setattr(store, "code_fingerprint", lambda names=store.FINGERPRINTED: "other" + real(names))
    warm = _table(target, upstream, tmp_path, root)
    assert POISON not in set(warm["conflict_reason"])


def test_a_changed_file_makes_its_own_rows_again_and_keeps_the_others(
        tmp_path: Path, stored: tuple[Path, Path, Path]) -> None:
    target, upstream, root = stored
    with (target / "app/copied.py").open("a", encoding="utf-8") as handle:
        handle.write("# Zorb Target's own line\n")  # (a holder line would change a whole-run fact)
    warm = _table(target, upstream, tmp_path, root)
    made = warm["target_path"] == "app/copied.py"
    assert made.any() and (~made).any()
    assert POISON not in set(warm.loc[made, "conflict_reason"])
    assert (warm.loc[~made, "conflict_reason"] == POISON).all()
    cold = _table(target, upstream, tmp_path, None)
    pd.testing.assert_frame_equal(warm[made], cold[made])


def test_the_marked_column_and_the_counts_are_never_taken_from_a_kept_row(
        tmp_path: Path, stored: tuple[Path, Path, Path]) -> None:
    target, upstream, root = stored

    def mark_all(comparison: object) -> None:
        files = comparison.files  # type: ignore[attr-defined]
        files["marker"] = "zorblib"

    warm = _table(target, upstream, tmp_path, root, tamper=mark_all)
    assert (warm["conflict_reason"] == POISON).all() and (warm["marked"] == "yes").all()
    cold = _table(target, upstream, tmp_path, None)
    assert (cold["marked"] == "no").any()  # the tamper changed the column: the kept rows did not hold it
    counts = ["copied_lines", "verbatim_lines", "near_lines", "first_line", "last_line"]
    pd.testing.assert_frame_equal(warm[counts], cold[counts])


def test_a_damaged_entry_is_removed_and_the_rows_made_again(tmp_path: Path,
                                                           stored: tuple[Path, Path, Path]) -> None:
    target, upstream, root = stored
    (entry,) = _entries(root)
    entry.write_bytes(entry.read_bytes()[:-7])
    warm = _table(target, upstream, tmp_path, root)
    assert POISON not in set(warm["conflict_reason"])
    pd.testing.assert_frame_equal(warm, _table(target, upstream, tmp_path, None))
    assert len(_entries(root)) == 1  # written again


def test_without_a_root_nothing_is_read_or_written(tmp_path: Path) -> None:
    target, upstream = _licensed_trees(tmp_path)
    _table(target, upstream, tmp_path, None)
    assert not list(tmp_path.rglob("obligations/*/*.rec"))
    assert rows_mod._ROOT == []


def _tree(figures_key: str = "up", licence: object = None, project: object = None) -> SimpleNamespace:
    return SimpleNamespace(figures_key=figures_key, licence=licence, project=project)


def test_the_table_key_holds_every_argument() -> None:
    base = {"target": _tree(licence={"files": ["LICENSE"]}, project={"name": "t"}), "upstreams": [_tree()],
            "upstream_names": ["up"], "head_lines": 40, "release_holder_files": 2,
            "not_own": {"up": {"a.py"}}, "third_party": {"up": {"b.py": "six"}},
            "own_organisations": {"up": ""}, "authors": {"up": frozenset({"Ann", "Bo"})}, "target_release": "MIT"}
    key = table_key(**base)  # type: ignore[arg-type]
    changed = {
        "target": _tree(licence={"files": ["LICENSE", "NOTICE"]}, project={"name": "t"}),
        "upstreams": [_tree("up2")], "upstream_names": ["up-b"], "head_lines": 41, "release_holder_files": 3,
        "not_own": {"up": {"a.py", "c.py"}}, "third_party": {"up": {"b.py": "seven"}},
        "own_organisations": {"up": "Google"}, "authors": {"up": frozenset({"Ann"})}, "target_release": "",
    }
    for name, value in changed.items():
        assert table_key(**{**base, name: value}) != key, name  # type: ignore[arg-type]
    other_project = _tree(licence={"files": ["LICENSE"]}, project={"name": "u"})
    assert table_key(**{**base, "target": other_project}) != key  # type: ignore[arg-type]
    # sets in any order: the same key
    assert table_key(**{**base, "authors": {"up": frozenset({"Bo", "Ann"})}}) == key  # type: ignore[arg-type]


def test_the_pair_key_holds_the_pair_the_file_and_its_copied_lines() -> None:
    key = pair_key("t.py", "d1", "up", "u.py", [1, 2, 3])
    for other in (("s.py", "d1", "up", "u.py", [1, 2, 3]), ("t.py", "d2", "up", "u.py", [1, 2, 3]),
                  ("t.py", "d1", "up2", "u.py", [1, 2, 3]), ("t.py", "d1", "up", "v.py", [1, 2, 3]),
                  ("t.py", "d1", "up", "u.py", [1, 2, 4])):
        assert pair_key(*other) != key, other


def test_an_entry_a_rerun_took_every_row_from_is_kept_as_the_newest(
        tmp_path: Path, stored: tuple[Path, Path, Path]) -> None:
    """A rerun that kept every row writes nothing, but marks its entry used: when a later run's
    entry drops all but the KEEP newest, the entries of runs not made since go first."""
    import os

    target, upstream, root = stored
    (entry,) = _entries(root)
    os.utime(entry, (1, 1))  # written long ago
    others = []
    for k in range(rows_mod.KEEP - 1):  # entries of other runs, newer than it
        other = root / "side-v1" / "obligations" / "zz" / f"zz{k}.rec"
        other.parent.mkdir(parents=True, exist_ok=True)
        other.write_bytes(b"")
        os.utime(other, (1000, 1000))
        others.append(other)
    again = _table(target, upstream, tmp_path, root)
    assert (again["conflict_reason"] == POISON).all()  # every row kept: nothing written
    assert entry.stat().st_mtime > 1000
    WHOLE_RUN_FACTS["target root NOTICE file"](target, upstream)  # another run's entry
    _table(target, upstream, tmp_path, root)
    assert entry.exists() and len(_entries(root)) == rows_mod.KEEP
    assert sum(o.exists() for o in others) == rows_mod.KEEP - 2  # one of the older ones went
