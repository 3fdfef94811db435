"""Tests for lineage.reproduce_diff: a rerun's files against the recorded digests, and the first
differing figure named in one line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from lineage.reproduce_diff import FileDifference, compare_outputs, first_difference


def test_first_difference_names_the_row_and_column(tmp_path: Path) -> None:
    old, new = tmp_path / "old.csv", tmp_path / "new.csv"
    old.write_text("target_path,code_lines,verbatim_code_lines\na.py,10,4\nb.py,8,2\n", encoding="utf-8")
    new.write_text("target_path,code_lines,verbatim_code_lines\na.py,10,4\nb.py,8,3\n", encoding="utf-8")
    assert first_difference(old, new) == "line 3 (target_path=b.py): verbatim_code_lines '2' -> '3'"
    new.write_text("target_path,code_lines,verbatim_code_lines\na.py,10,4\n", encoding="utf-8")
    assert first_difference(old, new) == "line 3: a row fewer than recorded"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"files": {"marked": 2}, "headline": ["x", "y"]}), encoding="utf-8")
    b.write_text(json.dumps({"files": {"marked": 3}, "headline": ["x", "z"]}), encoding="utf-8")
    assert first_difference(a, b) == "headline[1]: 'y' -> 'z'"
    t1, t2 = tmp_path / "a.md", tmp_path / "b.md"
    t1.write_text("# Report\n\n12 lines\n", encoding="utf-8")
    t2.write_text("# Report\n\n13 lines\n", encoding="utf-8")
    assert first_difference(t1, t2) == "line 3: '12 lines' -> '13 lines'"
    t2.write_text("# Report\n\n12 lines\n", encoding="utf-8")
    assert first_difference(t1, t2) == "differs in bytes only (same figures)"


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
