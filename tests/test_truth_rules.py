"""scripts/truth_rules.py on a generated pair: every copied line is traced to the rule that paired
it, the table counts them against a truth, and the matcher is left as it was."""

from __future__ import annotations

import pandas as pd
from conftest import Runner, script_module

import lineage.match.labels as labels

tr = script_module("truth_rules")  # it imports truth_score from its own folder

_UP = "".join(f"def function_number_{k}(alpha, beta):\n    gamma = alpha * {k} + beta\n"
              f"    return gamma - alpha_beta_offset_{k}\n\n\n" for k in range(8))


def test_each_copied_line_is_traced_to_its_rule_and_counted_against_the_truth(run_compare: Runner) -> None:
    target = _UP.replace("gamma = alpha * 3 + beta", "gamma = alpha * 3 + beta  # edited")
    original = labels.FileLabeller.set_pair
    with tr.recording_rules() as record:
        comparison = run_compare({"pkg/mine.py": target}, [("up", {"pkg/theirs.py": _UP})])
    assert labels.FileLabeller.set_pair is original  # put back on exit
    lines = comparison.lines
    copied = lines[lines["match"].isin(["verbatim", "near"]) & (lines["kind"] == "code")]
    assert len(copied) > 20
    assert all(("pkg/mine.py", int(n)) in record for n in copied["line"])
    assert all(rule.count("<") == 2 for rule in record.values())
    first, second = (int(n) for n in copied["line"].iloc[:2])
    truth = pd.DataFrame({"target_path": ["pkg/mine.py"] * 3, "line": [first, second, 999],
                          "expected": ["verbatim", "none", "none"]})
    table = tr.rule_table(truth, lines, record)
    assert int(table["TP"].sum()) == 1 and int(table["FP"].sum()) == 1  # line 999 is not in the report
    assert set(table.index) == {record[("pkg/mine.py", first)], record[("pkg/mine.py", second)]}
