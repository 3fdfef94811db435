"""Tests for lineage.match.regions.report_regions: a region as reported is a stretch of the
target file, cut where more than ``region_split_gap`` non-blank lines hold none of its lines."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from conftest import Runner
from hypothesis import given, settings
from hypothesis import strategies as st
from treegen import distinctive_functions

from lineage.index import BLANK, CODE
from lineage.match import MatchParams
from lineage.match.records import NONE, VERBATIM, FileMatch, MatchResult, Region
from lineage.match.regions import report_regions


def _result(rows: list[int], n: int, up_rows: list[int]) -> MatchResult:
    match = np.full(n, NONE, np.uint8)
    up_file, up_row = np.full(n, -1, np.int32), np.full(n, -1, np.int32)
    region = np.full(n, -1, np.int32)
    match[rows], up_file[rows], up_row[rows], region[rows] = VERBATIM, 0, up_rows, 0
    m = FileMatch(match, up_file, up_row, np.where(match == VERBATIM, 1.0, 0.0).astype(np.float32), region)
    r = Region(target_file=0, region=0, up_file=0, target_start=min(rows) + 1, target_end=max(rows) + 1,
               upstream_start=min(up_rows) + 1, upstream_end=max(up_rows) + 1, verbatim=len(rows), near=0,
               weight=5.0)
    return MatchResult([m], [r])


def test_a_region_is_cut_where_many_lines_hold_none_of_it() -> None:
    p = MatchParams()
    gap = p.region_split_gap
    far = 3 + gap + 1  # gap + 1 code lines of the target's own between rows 2 and far
    kinds = np.full(far + 3, CODE, np.uint8)
    out = report_regions(_result([0, 1, 2, far, far + 1], far + 3, [10, 11, 12, 40, 41]),
                         [SimpleNamespace(kinds=kinds)], gap)
    spans = [(r.region, r.target_start, r.target_end, r.upstream_start, r.upstream_end, r.verbatim, r.weight)
             for r in out.regions]
    assert spans == [(0, 1, 3, 11, 13, 3, 5.0), (1, far + 1, far + 2, 41, 42, 2, 5.0)]
    assert out.files[0].region[[0, 2, far, far + 1]].tolist() == [0, 0, 1, 1]
    assert out.files[0].region[3] == -1
    # the same gap made of blank lines, or one line shorter, does not cut it
    blanks = kinds.copy()
    blanks[3:far] = BLANK
    assert len(report_regions(_result([0, 1, 2, far, far + 1], far + 3, [10, 11, 12, 40, 41]),
                              [SimpleNamespace(kinds=blanks)], gap).regions) == 1
    assert len(report_regions(_result([0, 1, 2, far - 1, far], far + 3, [10, 11, 12, 40, 41]),
                              [SimpleNamespace(kinds=kinds)], gap).regions) == 1


def test_a_reported_region_spans_no_long_stretch_of_the_targets_own_code(run_compare: Runner) -> None:
    """A file whose two halves the target kept around long stretches of its own code, with one
    distinctive upstream line surviving in the middle: the fill pairs that lone survivor under
    the first half's chain number, and uncut, that region would span the first stretch."""
    body = distinctive_functions(6)
    cut = body[: len(body) // 2].rfind("\n\ndef ")
    head, tail = body[:cut], body[cut:]
    own = "\n".join(f"def own_helper_{k}(value):\n    return value * {k} + {k * 7}\n" for k in range(250))
    survivor = "SPROCKET_LIMIT = compute_sprocket_limit(17, 'sprockets', strict=True)\n"
    up = head + "\n\n" + survivor + tail
    target = head + "\n\n" + own + "\n" + survivor + "\n" + own.replace("own_helper_", "own_other_") + tail
    gap = MatchParams().region_split_gap

    def longest_uncopied_stretch(params: MatchParams) -> int:
        comparison = run_compare({"pkg/mod.py": target}, [("up", {"pkg/mod.py": up})], params=params)
        lines = comparison.lines.set_index("line")
        survivor_up = up.splitlines().index(survivor.strip()) + 1
        paired = lines.index[(lines["upstream_line"] == survivor_up) & (lines["match"] == "verbatim")].tolist()
        assert paired and paired[0] > len(own.splitlines())  # the lone survivor, far from the first half
        assert set(lines.loc[lines["match"] != "none", "region"]) == set(comparison.regions["region"])
        longest = 0
        for r in comparison.regions.itertuples():
            inside = lines.loc[r.target_start:r.target_end]
            uncopied = "".join("1" if m == "none" else "0"  # over the non-blank lines
                               for m, k in zip(inside["match"], inside["kind"], strict=True) if k != "blank")
            longest = max(longest, *(len(run) for run in uncopied.split("0")))
        return longest

    assert longest_uncopied_stretch(MatchParams()) <= gap
    # uncut, the first half's region would span the target's own code
    assert longest_uncopied_stretch(MatchParams(region_split_gap=10**6)) > gap


def test_a_runs_identical_lines_are_paired_before_its_diagonal() -> None:
    """lineage.match.labels.run_pairs: an item inserted upstream into a list moves the same item
    one line down; it is paired with its identical line, not with the new item on the diagonal."""
    from lineage.match.labels import run_pairs

    # target: a b c d e ; upstream: a b X c e (X inserted, d dropped); the run is on diagonal 0
    t_keys = np.array([1, 2, 3, 4, 5], np.int64)
    u_keys = np.array([1, 2, 9, 3, 5], np.int64)
    assert run_pairs(t_keys, u_keys, 0, 4, 0) == [(0, 0), (1, 1), (2, 3), (3, None), (4, 4)]
    # nothing identical off the diagonal: every line is tried with its diagonal partner
    u_plain = np.array([1, 2, 7, 8, 5], np.int64)
    assert run_pairs(t_keys, u_plain, 0, 4, 0) == [(k, k) for k in range(5)]
    # a line between identical ones keeps its partner when it lies in order with them
    t_edit = np.array([1, 6, 3, 5], np.int64)
    u_edit = np.array([1, 7, 2, 3], np.int64)  # 3 stands one line lower upstream
    assert run_pairs(t_edit, u_edit, 0, 3, 0) == [(0, 0), (1, 1), (2, 3), (3, None)]


def test_an_item_inserted_upstream_into_a_list_leaves_the_same_item_verbatim(run_compare: Runner) -> None:
    names = ["circular_shifts", "collapse", "collate", "consecutive_groups", "consumer", "countable",
             "count_cycle", "distinct_combinations", "distinct_permutations", "distribute"]
    up_names = ["circular_shifts", "collapse", "combination_index", "consecutive_groups", "constrained_batches",
                "consumer", "count_cycle", "countable", "distinct_combinations", "distinct_permutations", "distribute"]
    body = distinctive_functions(2)

    def module(items: list[str]) -> str:
        return "__all__ = [\n" + "".join(f"    '{n}',\n" for n in items) + "]\n\n" + body

    lines = run_compare({"pkg/more.py": module(names)}, [("up", {"pkg/more.py": module(up_names)})]).lines
    at = {n: lines.loc[lines["line"] == 2 + k].iloc[0] for k, n in enumerate(names)}
    consumer = at["consumer"]
    assert (consumer["match"], consumer["upstream_line"]) == ("verbatim", 2 + up_names.index("consumer"))
    # no item is paired near with an upstream item the target list holds as it is
    listed = lines[(lines["line"] >= 2) & (lines["line"] < 2 + len(names)) & (lines["match"] == "near")]
    assert not {up_names[int(u) - 2] for u in listed["upstream_line"]} & set(names)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=14), st.lists(st.integers(0, 5), min_size=1, max_size=14),
       st.integers(-3, 3))
def test_run_pairs_keep_order_and_identical_partners(t: list[int], u: list[int], diag: int) -> None:
    """Whatever the keys: one entry per run line in order, the upstream lines paired strictly
    increasing (a run stays in order), and a line equal to its diagonal partner keeps it."""
    from lineage.match.labels import run_pairs

    t_keys, u_keys = np.array(t, np.int64), np.array(u, np.int64)
    out = run_pairs(t_keys, u_keys, 0, len(t) - 1, diag)
    assert [tc for tc, _ in out] == list(range(len(t)))
    paired = [uc for _, uc in out if uc is not None and 0 <= uc < len(u)]
    assert paired == sorted(set(paired))
    for tc, uc in out:
        if 0 <= tc + diag < len(u) and t[tc] == u[tc + diag]:
            assert uc == tc + diag
