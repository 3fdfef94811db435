"""Tests for lineage.reproduce_diff: a rerun's files against the recorded digests, and the first
differing figure named in one line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from lineage.reproduce_diff import FileDifference, compare_outputs, first_difference

CSV_HEAD = "target_path,code_lines,verbatim_code_lines\na.py,10,4\n"
JSON_OLD = json.dumps({"files": {"marked": 2}, "headline": ["x", "y"]})


@pytest.mark.parametrize("suffix, old, new, first", [
    (".csv", CSV_HEAD + "b.py,8,2\n", CSV_HEAD + "b.py,8,3\n",
     "line 3 (target_path=b.py): verbatim_code_lines '2' -> '3'"),
    (".csv", CSV_HEAD + "b.py,8,2\n", CSV_HEAD, "line 3: a row fewer than recorded"),
    (".json", JSON_OLD, json.dumps({"files": {"marked": 3}, "headline": ["x", "z"]}), "headline[1]: 'y' -> 'z'"),
    (".md", "# Report\n\n12 lines\n", "# Report\n\n13 lines\n", "line 3: '12 lines' -> '13 lines'"),
    (".json", JSON_OLD, JSON_OLD.replace(", ", ",  "), "differs in bytes only (same figures)"),
])
def test_first_difference_names_the_figure(tmp_path: Path, suffix: str, old: str, new: str, first: str) -> None:
    """The headline first, then the row and column of a CSV, else the line."""
    recorded, rerun = tmp_path / f"old{suffix}", tmp_path / f"new{suffix}"
    recorded.write_text(old, encoding="utf-8")
    rerun.write_text(new, encoding="utf-8")
    assert first_difference(recorded, rerun) == first


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def test_compare_outputs_sorts_identical_differing_and_missing(tmp_path: Path) -> None:
    report, rerun = tmp_path / "report", tmp_path / "rerun"
    report.mkdir()
    rerun.mkdir()
    for name, old, new in (("same.csv", "a\n1\n", "a\n1\n"), ("changed.csv", "a\n1\n", "a\n2\n"),
                           ("edited.csv", "a\n5\n", "a\n5\n")):
        (report / name).write_text(old, encoding="utf-8")
        (rerun / name).write_text(new, encoding="utf-8")
    recorded = {"same.csv": _digest(b"a\n1\n"), "changed.csv": _digest(b"a\n1\n"), "gone.csv": _digest(b"x"),
                "edited.csv": _digest(b"a\n4\n")}
    identical, differing, notes = compare_outputs(recorded, report, rerun)
    assert identical == ["same.csv"]
    assert [d.path for d in differing] == ["changed.csv", "edited.csv", "gone.csv"]
    changed, edited, gone = differing
    assert changed == FileDifference("changed.csv", recorded["changed.csv"], _digest(b"a\n2\n"),
                                     "line 2 (a=1): a '1' -> '2'")
    # The file beside the manifest is no longer the recorded one: only the digests can be shown.
    assert "not beside the manifest" in edited.first
    assert gone.produced == "" and gone.first == "not written by the rerun"
    assert notes == ["1 files beside the manifest were changed after it was written: edited.csv"]
