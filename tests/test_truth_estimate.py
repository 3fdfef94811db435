"""The report-wide precision estimate (scripts/truth_estimate.py) on a made-up report: no wheels."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import script_module

te = script_module("truth_estimate")


def _report() -> pd.DataFrame:
    rows = [(f"m{i}.py", 1, "code", "verbatim") for i in range(90)]  # 90 verbatim lines in marked files
    rows += [(f"c{i}.py", 1, "code", "near") for i in range(10)]  # 10 near lines in a copies file
    rows += [("c0.py", 2, "comment", "verbatim"), ("c0.py", 3, "code", "none")]  # neither is a copied code line
    return pd.DataFrame(rows, columns=["target_path", "line", "kind", "match"])


def _group() -> dict[str, str]:
    return {**{f"m{i}.py": "marked" for i in range(90)}, **{f"c{i}.py": "copies" for i in range(10)}}


def _truth() -> pd.DataFrame:
    rows = [(f"m{i}.py", 1, "marked.copied", "verbatim") for i in range(8)]
    rows += [("m8.py", 1, "retired.marked.uniform", "none")]  # a retired uniform draw counts
    rows += [("m9.py", 1, "marked.shared", "none")]  # a shared draw does not: not uniform over a cell
    rows += [("c0.py", 1, "near.uniform", "none"), ("c1.py", 1, "copies.copied", "near")]
    rows += [("c0.py", 2, "header.shared", "none"), ("c0.py", 3, "copies.uniform", "verbatim")]
    frame = pd.DataFrame(rows, columns=["target_path", "line", "stratum", "expected"])
    return frame.assign(expected_upstream_path="", expected_upstream_line="", reason="")


def test_only_uniform_draws_are_counted() -> None:
    assert te.uniform_draw("marked.copied") and te.uniform_draw("retired.near.uniform")
    assert not te.uniform_draw("marked.shared") and not te.uniform_draw("header.uniform")
    assert not te.uniform_draw("retired.header.shared")


def test_cells_count_the_reports_copied_code_lines_and_the_uniform_truth_lines_in_them() -> None:
    table = te.cells(_report(), _group(), _truth()).set_index(["group", "match"])
    assert table.loc[("marked", "verbatim")].tolist() == [90, 8, 1]  # lines, tp, fp (m9: shared, left out)
    assert table.loc[("copies", "near")].tolist() == [10, 1, 1]
    assert len(table) == 2  # the comment line and the uncopied line are in no cell


def test_estimate_weights_each_cell_by_its_lines() -> None:
    result = te.estimate(te.cells(_report(), _group(), _truth()), draws=40000, seed=1)
    rows = {(r.group, r.match): r for r in result.itertuples(index=False)}
    marked, copies, every = rows[("marked", "verbatim")], rows[("copies", "near")], rows[("ALL", "copied")]
    # Jeffreys posterior means: (8.5 / 10) and (1.5 / 3)
    assert marked.precision == pytest.approx(8.5 / 10, abs=0.01)
    assert copies.precision == pytest.approx(0.5, abs=0.01)
    assert every.lines == 100 and (every.tp, every.fp) == (9, 2)
    assert every.precision == pytest.approx((90 * 0.85 + 10 * 0.5) / 100, abs=0.01)
    assert every.copies == pytest.approx(every.precision * 100, rel=1e-9)
    for r in result.itertuples(index=False):
        assert 0 <= r.low <= r.precision <= r.high <= 1
    # the large, well-sampled cell is known more narrowly than the small one
    assert marked.high - marked.low < copies.high - copies.low
    assert rows[("ALL", "near")].lines == 10 and rows[("marked", "copied")].lines == 90


def test_estimate_is_reproducible_for_a_seed() -> None:
    table = te.cells(_report(), _group(), _truth())
    assert te.estimate(table, 1000, 7).equals(te.estimate(table, 1000, 7))


def test_a_cell_draw_counts_in_its_own_cell_only() -> None:
    assert te.uniform_draw("cell.copies.near") and te.uniform_draw("cell.marked.verbatim")
    assert te.drawn_cell("cell.copies.near") == ("copies", "near")
    assert not te.uniform_draw("cell.header.near") and te.drawn_cell("copies.copied") is None
    truth = pd.DataFrame(
        [("c2.py", 1, "cell.copies.near", "none"),  # drawn in its own cell: counted
         ("m10.py", 1, "cell.marked.verbatim", "verbatim"),  # its own cell: counted
         ("c3.py", 1, "cell.marked.verbatim", "near"),  # now in another cell (copies, near): left out
         ("c4.py", 1, "retired.cell.copies.near", "near")],  # a retired cell draw counts like the others
        columns=["target_path", "line", "stratum", "expected"])
    table = te.cells(_report(), _group(), truth).set_index(["group", "match"])
    assert table.loc[("copies", "near")].tolist() == [10, 1, 1]
    assert table.loc[("marked", "verbatim")].tolist() == [90, 1, 0]
    empty = te.cells(_report(), _group(), truth.iloc[:0])  # no truth line at all: counts 0, no error
    assert empty["tp"].sum() == 0 and empty["lines"].sum() == 100
