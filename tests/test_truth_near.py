"""scripts/truth_near.py on hand-written report rows: what differs between two texts, each near
line's neighbourhood, and the TP / FP count per feature value."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import script_module

tn = script_module("truth_near")  # it imports truth_sample and truth_score from its own folder


@pytest.mark.parametrize(("target", "upstream", "kind"), [
    ("patch_size,", "patch_size,  # 6", "comment"),
    ("if norm_weight is not None:", "if fused_config is not None:", "names"),
    ("out_hidden_size: int = 2048,", "out_hidden_size: int = 1024,", "literal"),
    ("2 * size,", "shards * size,", "names+literal"),
    ("quant_config=None,", "quant_config: QuantizationConfig | None = None,", "structure"),
    ("if x == 1:", "if not x == 1:", "structure"),
    ("return a", "yield a", "structure"),  # a keyword replaced is no rename
])
def test_diff_kind_names_what_differs_between_the_two_texts(target: str, upstream: str, kind: str) -> None:
    assert tn.diff_kind(target, upstream) == kind


def _code(rows: list[tuple[int, str, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["line", "match", "upstream_path", "upstream_line"])


def test_line_features_read_the_neighbours_partners() -> None:
    code = _code([(10, "verbatim", "up.py", 20), (11, "verbatim", "up.py", 21), (12, "near", "up.py", 23),
                  (13, "verbatim", "up.py", 22), (14, "verbatim", "other.py", 5), (15, "none", "", 0)])
    f = tn.line_features(code, 12)
    assert f["verbatim"] == 3  # 10, 11, 13; 14 is another file's
    assert f["other"] == 1
    assert f["order"] is False  # 13 names an earlier upstream line than 12's partner
    assert f["skew"] == 1  # 11 -> 21 is one line above, 12 -> 23 two
    assert f["edge"] is False
    assert f["shared"] == 0


def test_a_line_with_nothing_paired_below_is_an_edge_and_may_share_its_partner() -> None:
    code = _code([(1, "near", "up.py", 7), (2, "near", "up.py", 7), (3, "none", "", 0), (4, "none", "", 0),
                  (5, "none", "", 0)])
    f = tn.line_features(code, 2)
    assert f["edge"] is True and f["order"] is True
    assert f["shared"] == 1 and f["skew"] == 1
    assert f["verbatim"] == 0 and f["other"] == 0


def test_near_lines_keep_unmarked_files_and_count_per_feature() -> None:
    target = {"t/a.py": ["x = compute(a)", "y = other(b)", "z = last(c)"],
              "t/marked.py": ["x = compute(a)"]}
    upstream = {"u/a.py": ["x = compute(b)", "y = other(b)  # note", "z = last(c)"]}
    lines = pd.DataFrame({
        "target_path": ["t/a.py"] * 3 + ["t/marked.py"], "line": [1, 2, 3, 1],
        "kind": ["code"] * 4, "match": ["near", "near", "verbatim", "near"],
        "upstream_path": ["u/a.py"] * 4, "upstream_line": [1, 2, 3, 1], "similarity": [0.9, 0.95, 1.0, 0.9]})
    truth = pd.DataFrame({"target_path": ["t/a.py", "t/a.py", "t/a.py", "t/marked.py"],
                          "line": ["1", "2", "3", "1"], "expected": ["near", "none", "verbatim", "none"]})
    group = {"t/a.py": "copies", "t/marked.py": "marked"}
    rows = tn.near_lines(lines, group, truth, target, upstream)
    assert list(rows["line"]) == [1, 2]  # the verbatim line and the marked file's are left out
    assert list(rows["diff"]) == ["names", "comment"]
    table = tn.feature_table(rows).set_index(["feature", "value"])
    assert table.loc[("diff", "names"), "TP"] == 1 and table.loc[("diff", "names"), "FP"] == 0
    assert table.loc[("diff", "comment"), "TP"] == 0 and table.loc[("diff", "comment"), "FP"] == 1
    assert int(table.xs("edge")[["TP", "FP"]].to_numpy().sum()) == 2  # every line counted once per feature


def test_a_report_without_near_lines_in_unmarked_files_gives_an_empty_table() -> None:
    lines = pd.DataFrame({"target_path": ["t/a.py"], "line": [1], "kind": ["code"], "match": ["verbatim"],
                          "upstream_path": ["u/a.py"], "upstream_line": [1], "similarity": [1.0]})
    truth = pd.DataFrame({"target_path": ["t/a.py"], "line": ["1"], "expected": ["verbatim"]})
    rows = tn.near_lines(lines, {"t/a.py": "copies"}, truth, {"t/a.py": ["x = 1"]}, {"u/a.py": ["x = 1"]})
    assert rows.empty and int(rows["true"].sum()) == 0  # the count main prints, not a KeyError
    assert tn.feature_table(rows).empty
