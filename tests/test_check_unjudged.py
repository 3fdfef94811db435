"""``lineage check``'s notes of the (target file, upstream file) pairs its licence items could not
judge count each pair once (round fix175): a pair whose upstream licence is unknown has an unknown
compatibility for that reason alone, and was counted in both notes when both items were set.

The obligations table is written here by hand: three pairs of one upstream ``up`` and one of ``other``."""

from __future__ import annotations

import pandas as pd
import pytest

from lineage.check import Policy, Report, _unjudged


def _report() -> Report:
    rows = [
        # (target_path, upstream, upstream_licence, conflict)
        ("pkg/a.py", "up", "", "unknown"),          # licence unknown: compatibility unknown by that alone
        ("pkg/b.py", "up", "", "unknown"),
        ("pkg/c.py", "up", "LicenseRef-Odd", "unknown"),  # licence known, not in the compatibility table
        ("pkg/d.py", "other", "MIT", "no"),         # judged
    ]
    ob = pd.DataFrame([{"target_path": t, "upstream": u, "upstream_path": t, "missing": "", "conflict": c,
                        "conflict_reason": "", "upstream_licence": lic, "target_licence": "MIT"}
                       for t, u, lic, c in rows])
    return Report(files=pd.DataFrame(), obligations=ob)


def test_both_items_set_count_each_unjudged_pair_once() -> None:
    said = _unjudged(_report(), Policy(fail_on_missing_notice=True, fail_on_licence_conflict=True))
    assert said == [
        "fail-on-missing-notice and fail-on-licence-conflict could not judge 2 (target file, upstream file) pairs "
        "whose upstream licence is unknown (no notice to ask for, no compatibility to read): up 2",
        "fail-on-licence-conflict could not judge 1 (target file, upstream file) pair whose upstream licence is "
        "known and whose compatibility is unknown (obligations.csv conflict_reason): up 1",
    ]


@pytest.mark.parametrize(("policy", "first"), [
    (Policy(fail_on_missing_notice=True), "fail-on-missing-notice could not judge 2"),
    (Policy(fail_on_licence_conflict=True), "fail-on-licence-conflict could not judge 2"),
])
def test_one_item_set_names_itself_and_still_counts_each_pair_once(policy: Policy, first: str) -> None:
    said = _unjudged(_report(), policy)
    assert said[0].startswith(first)
    # the notice item alone has no compatibility to speak of; the conflict item's second note holds c.py only
    assert len(said) == (2 if policy.fail_on_licence_conflict else 1)
    if policy.fail_on_licence_conflict:
        assert said[1].startswith("fail-on-licence-conflict could not judge 1 ")
    assert _unjudged(_report(), Policy(max_copied_share=100.0)) == []
