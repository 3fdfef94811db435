"""The truth-set scorer (scripts/truth_score.py) on a synthetic report: no network, no wheels."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import script_module

ts = script_module("truth_score")


def _truth() -> pd.DataFrame:
    rows = [
        ("a.py", 1, "marked.uniform", "verbatim", "u.py", "10", "r"),
        ("a.py", 2, "marked.uniform", "near", "u.py", "11", "r"),
        ("a.py", 3, "marked.copied", "none", "", "", "r"),
        ("b.py", 1, "header.shared", "none", "", "", "r"),
        ("b.py", 2, "copies.shared", "verbatim", "v.py", "5", "r"),
        ("b.py", 9, "copies.uniform", "none", "", "", "r"),  # absent from the report
    ]
    return pd.DataFrame(rows, columns=ts.TRUTH_COLUMNS).astype({"line": int})


def _report() -> pd.DataFrame:
    rows = [
        ("a.py", 1, "code", "verbatim", "u.py", "10"),   # right, source right
        ("a.py", 2, "code", "verbatim", "u.py", "12"),   # copied right, label and line wrong
        ("a.py", 3, "code", "near", "w.py", "1"),        # false positive
        ("b.py", 1, "comment", "verbatim", "t.py", "1"),  # false positive on a header line
        ("b.py", 2, "code", "none", "", ""),            # missed
        ("c.py", 1, "code", "verbatim", "u.py", "1"),   # not in the truth set: ignored
    ]
    return pd.DataFrame(rows, columns=ts.REPORT_COLUMNS)


def test_scores_per_group_and_overall() -> None:
    table = ts.score(_truth(), _report()).set_index("stratum")
    every = table.loc["ALL"]
    assert every["lines"] == 6 and every["expected copied"] == 3 and every["labelled copied"] == 4
    assert every["P"] == pytest.approx(2 / 4) and every["R"] == pytest.approx(2 / 3)
    assert every["F1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    assert every["label acc"] == pytest.approx(2 / 6)  # a.py:1 and the missing none line
    assert every["src file"] == pytest.approx(1.0) and every["src line"] == pytest.approx(0.5)
    code = table.loc["ALL code"]
    assert code["lines"] == 4  # the header line and the missing line have no code kind
    marked = table.loc["marked"]
    assert marked["P"] == pytest.approx(2 / 3) and marked["R"] == pytest.approx(1.0)
    header = table.loc["header"]
    assert header["P"] == 0.0 and header["R"] is None or pd.isna(header["R"])


def test_markdown_prints_undefined_ratios_as_dashes() -> None:
    text = ts.markdown(ts.score(_truth(), _report(), by="stratum"))
    assert text.splitlines()[0].startswith("| stratum | lines |")
    assert "| header.shared | 1 | 0 | 1 | 0.000 | – | – | 0.000 | – | – |" in text


def test_cli_reads_a_report_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _report().to_csv(tmp_path / "lines.csv", index=False)
    truth = tmp_path / "truth.csv"
    _truth().to_csv(truth, index=False)
    import sys
    argv, sys.argv = sys.argv, ["truth_score", str(tmp_path), "--truth", str(truth)]
    try:
        assert ts.main() == 0
    finally:
        sys.argv = argv
    out = capsys.readouterr()
    assert "| ALL | 6 | 3 | 4 | 0.500 | 0.667 |" in out.out
    assert "1 truth lines not in the report" in out.err


def test_cli_refuses_a_directory_without_lines_csv(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        ts.read_report(tmp_path, {"a.py"})
    assert stop.value.code == 2


def test_halves_split_the_committed_truth_set_in_two() -> None:
    """The halves depend on each line's path and line alone (not on its row), and split the
    committed truth set about evenly (395 even, 408 odd of 803)."""
    truth = ts.read_truth(ts.TRUTH)
    halves = [ts.half_of(p, n) for p, n in zip(truth["target_path"], truth["line"], strict=True)]
    shuffled = truth.sample(frac=1, random_state=3)
    again = {(p, n): ts.half_of(p, n) for p, n in zip(shuffled["target_path"], shuffled["line"], strict=True)}
    assert halves == [again[(p, n)] for p, n in zip(truth["target_path"], truth["line"], strict=True)]
    assert (halves.count("even"), halves.count("odd")) == (395, 408)


def test_disagreements_list_each_kind_once() -> None:
    text = ts.disagreements(ts.join(_truth(), _report()))
    rows = [line.split(" | ") for line in text.splitlines()[2:]]
    kinds = {row[2].strip("`"): row[0].lstrip("| ") for row in rows}
    # a.py:1 agrees; b.py:1 is a comment; b.py:9 is missing (no kind): none of them is listed
    assert kinds == {"a.py:2": "other upstream", "a.py:3": "false copy", "b.py:2": "missed"}


def test_agreement_of_two_labellings_and_whom_the_second_sides_with(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """scripts/truth_agreement.py: a second labelling of four truth lines agrees on copied-or-not
    with three; where report and truth disagree (a.py:3, b.py:2) it sides with the truth once and
    with the report once."""
    ta = script_module("truth_agreement")
    truth = tmp_path / "truth.csv"
    _truth().to_csv(truth, index=False)
    second = _truth().set_index(["target_path", "line"])
    second = second.loc[[("a.py", 1), ("a.py", 2), ("a.py", 3), ("b.py", 2)]].reset_index()
    second.loc[second["line"] == 3, "expected"] = "near"  # sides with the report's false positive
    other = tmp_path / "second.csv"
    second[ts.TRUTH_COLUMNS].to_csv(other, index=False)
    _report().to_csv(tmp_path / "lines.csv", index=False)
    assert ta.main([str(other), "--truth", str(truth)]) == 0
    assert "4 lines in both labellings; they agree on copied-or-not for 3 (0.750)" in capsys.readouterr().out
    assert ta.main([str(other), str(tmp_path), "--truth", str(truth)]) == 0
    out = capsys.readouterr().out
    assert "truth and report disagree: 2 lines; the other labelling sides with the truth set on 1, " \
           "with the report on 1" in out
    assert "truth and report agree: 2 lines; the other labelling sides with the truth set on 2" in out


@pytest.mark.parametrize("name", ["sglang-vllm-truth-second.csv", "sglang-vllm-truth-second-redraw3.csv",
                                  "sglang-vllm-truth-third.csv"])
def test_committed_blind_labellings_label_truth_lines(name: str) -> None:
    """Each committed blind labelling reads as a truth set, labels lines the truth set holds
    (each once), and names an upstream place exactly for its copied lines."""
    truth = ts.read_truth(ts.TRUTH)
    other = ts.read_truth(ts.TRUTH.with_name(name))
    keys = list(zip(other["target_path"], other["line"], strict=True))
    assert len(keys) == len(set(keys))
    assert set(keys) <= set(zip(truth["target_path"], truth["line"], strict=True))
    copied = other["expected"].isin(["verbatim", "near"])
    assert (other.loc[copied, "expected_upstream_path"] != "").all()
    assert (other.loc[~copied, "expected_upstream_path"] == "").all()
