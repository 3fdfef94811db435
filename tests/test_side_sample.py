"""Tests for scripts/side_sample.py: which lines a side sample is drawn from, and that a draw is
the same every time."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import script_module

ss = script_module("side_sample")


def _report(labels: dict[tuple[str, int], tuple[str, str]]) -> pd.DataFrame:
    """A lines table: (path, line) -> (kind, match)."""
    return pd.DataFrame([{"target_path": p, "line": n, "kind": k, "match": m} for (p, n), (k, m) in labels.items()])


# a.py: lines 1-6 copied in the base; the candidate drops 2 (code), 3 (a comment) and 5 (code).
_BASE = _report({("a.py", n): ("comment" if n == 3 else "code", "verbatim" if n != 4 else "near") for n in range(1, 7)}
                | {("b.py", 1): ("code", "none"), ("b.py", 2): ("code", "none")})
_CANDIDATE = _report({("a.py", n): ("comment" if n == 3 else "code", "none" if n in (2, 3, 5) else "verbatim")
                      for n in range(1, 7)} | {("b.py", 1): ("code", "near"), ("b.py", 2): ("code", "none")})


def test_removed_and_added_code_lines() -> None:
    removed = ss.changed_code_lines(_BASE, _CANDIDATE, "removed")
    assert list(zip(removed["target_path"], removed["line"], strict=True)) == [("a.py", 2), ("a.py", 5)]
    added = ss.changed_code_lines(_BASE, _CANDIDATE, "added")
    assert list(zip(added["target_path"], added["line"], strict=True)) == [("b.py", 1)]


def test_a_draw_leaves_out_truth_rows_and_repeats_itself() -> None:
    truth = pd.DataFrame({"target_path": ["a.py"], "line": [2]})
    sample = ss.draw(_BASE, _CANDIDATE, 1, 7, "rule_removed", exclude=truth)
    assert sample.to_dict("records") == [{"target_path": "a.py", "line": 5, "stratum": "rule_removed"}]
    both = ss.draw(_BASE, _CANDIDATE, 2, 7, "rule_removed")
    assert both.equals(ss.draw(_BASE, _CANDIDATE, 2, 7, "rule_removed"))
    assert list(both["line"]) == [2, 5]  # sorted by path and line whatever the draw's order
    with pytest.raises(SystemExit) as stop:
        ss.draw(_BASE, _CANDIDATE, 3, 7, "rule_removed")
    assert stop.value.code == 2


def test_cli_writes_the_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, frame in (("base", _BASE), ("candidate", _CANDIDATE)):
        (tmp_path / name).mkdir()
        frame.to_csv(tmp_path / name / "lines.csv", index=False)
    assert ss.main([str(tmp_path / "base"), str(tmp_path / "candidate"), "--stratum", "x", "--n", "2",
                    "--truth", "none"]) == 0
    assert capsys.readouterr().out.splitlines() == ["target_path,line,stratum", "a.py,2,x", "a.py,5,x"]
    with pytest.raises(SystemExit) as stop:
        ss.main([str(tmp_path / "base"), str(tmp_path / "missing"), "--stratum", "x"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.startswith("side_sample: error: no lines.csv in ")
