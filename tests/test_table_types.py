"""Every table the API returns has the columns and types of lineage.results.schema, whatever the
run: fresh, from the caches, with rows reused after one file changed, and with nothing copied
(whose regions, functions and obligations tables were of ``object`` columns before)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import treegen
from conftest import script_module

from lineage.api import compare
from lineage.results.schema import TABLE_TYPES, empty, typed
from lineage.settings import RunSettings


def _types(comparison) -> dict[str, dict[str, str]]:  # type: ignore[no-untyped-def]
    return {name: dict(getattr(comparison, name).dtypes.astype(str)) for name in TABLE_TYPES}


def test_every_table_has_its_columns_and_types_in_every_kind_of_run(tmp_path: Path) -> None:
    own, more = treegen.distinctive_functions(1), treegen.distinctive_functions(4)
    third = treegen.distinctive_functions(7)
    up = treegen.write_tree(tmp_path / "up", {"up/__init__.py": "", "up/core.py": own, "up/more.py": more,
                                              "up/third_party/lib/k.py": third,
                                              "pyproject.toml": '[project]\nname = "up"\n'})
    target = treegen.write_tree(tmp_path / "t", {
        "tgt/__init__.py": "", "tgt/core.py": "# Adapted from up\n" + own, "tgt/more.py": more,
        "tgt/k.py": third, "pyproject.toml": '[project]\nname = "tgt"\n'})
    alone = treegen.write_tree(tmp_path / "n", {"tgt/x.py": "def own(a):\n    return a * 977 + 3\n",
                                                "pyproject.toml": '[project]\nname = "tgt"\n'})
    cache = tmp_path / "cache"
    runs = {"fresh": compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1)),
            "cache filled": compare(str(target), [str(up)], settings=RunSettings(cache_dir=cache, jobs=1))}
    (target / "tgt" / "more.py").write_text(more + "\n# one line more\n")
    runs["rows reused"] = compare(str(target), [str(up)], settings=RunSettings(cache_dir=cache, jobs=1))
    runs["nothing copied"] = compare(str(alone), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    assert runs["rows reused"].table_rows_reused > 0
    assert len(runs["fresh"].regions) and len(runs["fresh"].origins) and len(runs["fresh"].obligations)
    nothing = runs["nothing copied"]
    assert nothing.regions.empty and nothing.obligations.empty and nothing.functions["copied_code_lines"].eq(0).all()
    for name, comparison in runs.items():
        assert _types(comparison) == TABLE_TYPES, name
    # what a notebook does with them works on the empty tables too
    assert (nothing.regions["target_start"] + 1).dtype == "int64"
    assert nothing.obligations["missing"].str.contains("copyright").sum() == 0


def test_typed_casts_only_what_differs_and_refuses_other_columns() -> None:
    frame = pd.DataFrame({c: [] for c in TABLE_TYPES["regions"]})
    assert dict(typed(frame, "regions").dtypes.astype(str)) == TABLE_TYPES["regions"]
    assert dict(empty("origins").dtypes.astype(str)) == TABLE_TYPES["origins"]
    right = empty("regions")
    assert typed(right, "regions") is right
    with pytest.raises(ValueError, match="regions table's columns"):
        typed(frame.drop(columns="region"), "regions")


def test_docs_tables_md_is_current() -> None:
    assert script_module("table_docs").main(["--check"]) == 0


@pytest.mark.parametrize("table", sorted(TABLE_TYPES))
def test_an_empty_table_is_a_fresh_copy_each_time(table: str) -> None:
    """empty() hands out copies of one table made once: a caller that changes its table's
    columns in place leaves the next caller's as it was."""
    first = empty(table)
    del first[first.columns[0]]
    first["extra"] = pd.Series(dtype=object)
    second = empty(table)
    assert len(second) == 0 and list(second.columns) == list(TABLE_TYPES[table])
    assert {c: str(t) for c, t in second.dtypes.items()} == TABLE_TYPES[table]
