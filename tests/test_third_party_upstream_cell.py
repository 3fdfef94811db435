"""summary.md's *next step* cell for a third party that is an upstream of the run: its lines still
set apart are paired with another upstream's copy, so the cell says they count as copied from
neither rather than a bare "none" (boto 2.49.0's vendored six against six 1.16.0 and botocore
1.10.50: 620 code lines of six's, in no list of copied code)."""

from __future__ import annotations

from lineage.report.summary import _next_step
from lineage.results.third_party import Declared, next_step

UP = Declared("carrier", "1.0", ())
RUN = [("thirdlib", {"thirdlib"}), ("carrier", {"carrier"})]


def test_the_cell_says_the_lines_count_as_copied_from_neither() -> None:
    step = next_step("thirdlib", ("carrier",), RUN, [UP], None)
    assert step.upstream_of_run == "thirdlib" and step.text() is None  # summary.json: nothing to add
    assert _next_step(step) == ("none to add: thirdlib is an upstream of this run, but these lines are paired "
                                "with carrier's copy, nearer the target's than thirdlib's own files, and count "
                                "as copied from neither (a run with thirdlib alone pairs with it those it holds)")


def test_the_knob_advice_follows_and_other_third_parties_read_as_before() -> None:
    off = next_step("thirdlib", ("carrier",), RUN, [UP], None, third_party_lines=False)
    assert _next_step(off).endswith("pairs with it those it holds); add `--set origin_third_party_lines=1` "
                                    "to count what carrier added to it")
    other = next_step("otherlib", ("carrier",), RUN, [UP], None)
    assert _next_step(other) == "add the third party's release as a further `--upstream` to count what carrier " \
                                "added to it"
