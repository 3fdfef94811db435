"""Fresh truth lines drawn within the estimator's cells (scripts/truth_cells.py), on made-up cells."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import script_module

tcl = script_module("truth_cells")


def test_allocation_is_proportional_with_a_floor_and_skips_tiny_cells() -> None:
    sizes = {("marked", "verbatim"): 27_000, ("marked", "near"): 5_800, ("copies", "verbatim"): 27_900,
             ("copies", "near"): 7_000, ("plain", "near"): 40}
    plan = tcl.allocate(sizes, total=150, minimum=15, min_share=0.01)
    assert sum(plan.values()) == 150
    assert plan[("plain", "near")] == 0  # 0.06 % of the lines: no draw
    assert plan[("marked", "near")] == 15  # its share (12.8) is under the floor
    assert plan[("copies", "near")] == 15
    assert plan[("marked", "verbatim")] + plan[("copies", "verbatim")] == 120
    assert plan[("copies", "verbatim")] > plan[("marked", "verbatim")]  # more lines, more draws


def test_allocation_refuses_a_floor_it_cannot_keep() -> None:
    with pytest.raises(SystemExit):
        tcl.allocate({("marked", "near"): 10, ("copies", "near"): 10}, total=20, minimum=15, min_share=0.0)


def _copied() -> pd.DataFrame:
    rows = [(f"m{i}.py", 1, "marked", "verbatim") for i in range(50)]
    rows += [(f"c{i}.py", 2, "copies", "near") for i in range(30)]
    return pd.DataFrame(rows, columns=["target_path", "line", "group", "match"])


def test_draws_stay_in_their_cell_skip_excluded_lines_and_repeat_for_a_seed() -> None:
    plan = {("marked", "verbatim"): 20, ("copies", "near"): 10}
    exclude = {(f"m{i}.py", 1) for i in range(25)}
    sample, pools = tcl.draw_cells(_copied(), plan, exclude, seed=5)
    assert sample.groupby("stratum").size().to_dict() == {"cell.marked.verbatim": 20, "cell.copies.near": 10}
    marked = sample[sample["stratum"] == "cell.marked.verbatim"]
    assert marked["target_path"].str.startswith("m").all()
    assert not set(zip(marked["target_path"], marked["line"], strict=True)) & exclude
    assert pools.set_index("stratum").loc["cell.marked.verbatim"].tolist() == [50, 25, 20]
    assert not sample.duplicated(["target_path", "line"]).any()
    assert tcl.draw_cells(_copied(), plan, exclude, seed=5)[0].equals(sample)
    assert not tcl.draw_cells(_copied(), plan, exclude, seed=6)[0].equals(sample)


def test_a_cell_too_small_for_its_draw_is_an_error() -> None:
    with pytest.raises(SystemExit):
        tcl.draw_cells(_copied(), {("copies", "near"): 31}, set(), seed=1)
