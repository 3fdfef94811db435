"""Tests for lineage.match.regions.report_regions: a region as reported is a stretch of the
target file, cut where more than ``region_split_gap`` non-blank lines hold none of its lines,
and where two of its consecutive lines stand more than ``region_split_jump`` non-blank lines
apart in the upstream file."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from conftest import Runner
from hypothesis import given, settings
from hypothesis import strategies as st
from treegen import distinctive_functions, write_tree

from lineage.cli import main
from lineage.index import BLANK, CODE
from lineage.match import MatchParams
from lineage.match.records import NONE, VERBATIM, FileMatch, MatchResult, Region
from lineage.match.regions import report_regions

UP = [SimpleNamespace(kinds=np.full(100, CODE, np.uint8))]  # one upstream file of 100 code lines


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
    out = report_regions(_result([0, 1, 2, far, far + 1], far + 3, [10, 11, 12, 13, 14]),
                         [SimpleNamespace(kinds=kinds)], UP, gap, p.region_split_jump)
    spans = [(r.region, r.target_start, r.target_end, r.upstream_start, r.upstream_end, r.verbatim, r.weight)
             for r in out.regions]
    assert spans == [(0, 1, 3, 11, 13, 3, 5.0), (1, far + 1, far + 2, 14, 15, 2, 5.0)]
    assert out.files[0].region[[0, 2, far, far + 1]].tolist() == [0, 0, 1, 1]
    assert out.files[0].region[3] == -1
    # the same gap made of blank lines, or one line shorter, does not cut it
    blanks = kinds.copy()
    blanks[3:far] = BLANK
    assert len(report_regions(_result([0, 1, 2, far, far + 1], far + 3, [10, 11, 12, 13, 14]),
                              [SimpleNamespace(kinds=blanks)], UP, gap, p.region_split_jump).regions) == 1
    assert len(report_regions(_result([0, 1, 2, far - 1, far], far + 3, [10, 11, 12, 13, 14]),
                              [SimpleNamespace(kinds=kinds)], UP, gap, p.region_split_jump).regions) == 1


def _spans(out: MatchResult) -> list[tuple[int, int, int, int]]:
    return [(r.target_start, r.target_end, r.upstream_start, r.upstream_end) for r in out.regions]


def test_a_line_paired_far_off_in_the_upstream_is_its_own_region() -> None:
    """Six consecutive target lines paired in order with upstream lines 11-16, but the fourth
    (a line the upstream holds again further down, like pytest's ``import ast``) with line 81:
    uncut, the region's upstream span would read 11-81 for six lines taken from 11-16."""
    p = MatchParams()
    jump = p.region_split_jump
    target = [SimpleNamespace(kinds=np.full(10, CODE, np.uint8))]
    up_rows = [10, 11, 12, 80, 13, 14]
    assert _spans(report_regions(_result(list(range(6)), 10, up_rows), target, UP, p.region_split_gap, 10**6)) \
        == [(1, 6, 11, 81)]  # the span before the rule
    out = report_regions(_result(list(range(6)), 10, up_rows), target, UP, p.region_split_gap, jump)
    assert _spans(out) == [(1, 3, 11, 13), (4, 4, 81, 81), (5, 6, 14, 15)]
    assert [r.region for r in out.regions] == [0, 1, 2]
    assert out.files[0].region[:6].tolist() == [0, 0, 0, 1, 2, 2]
    # every line keeps its own pair: only the grouping changes
    assert out.files[0].up_row[:6].tolist() == up_rows
    assert [r.weight for r in out.regions] == [5.0] * 3  # each piece keeps its chain's weight


def test_a_jump_back_cuts_like_a_jump_forward_and_small_ones_do_not() -> None:
    """The two lines of pytest 8.3.3's ``_code/source.py`` 4-5 (``import ast`` <- py 1.11.0's
    line 313, ``from bisect import bisect_right`` <- line 3) made a region 3-313; now two. A
    swap of neighbouring lines (a jump back of one) or a deletion the chains bridge
    (``region_split_jump`` non-blank lines upstream, no more) leaves a region whole; blank
    upstream lines never count."""
    p = MatchParams()
    jump = p.region_split_jump
    up = [SimpleNamespace(kinds=np.full(400, CODE, np.uint8))]
    target = [SimpleNamespace(kinds=np.full(10, CODE, np.uint8))]

    def spans(up_rows: list[int], files: list[SimpleNamespace] = up) -> list[tuple[int, int, int, int]]:
        return _spans(report_regions(_result(list(range(len(up_rows))), 10, up_rows), target, files,
                                     p.region_split_gap, jump))

    assert spans([312, 2]) == [(1, 1, 313, 313), (2, 2, 3, 3)]
    assert spans([2, 4, 3, 5]) == [(1, 4, 3, 6)]  # swapped neighbours
    assert spans([2, 2, 3]) == [(1, 3, 3, 4)]  # one upstream line twice
    assert spans([2, 3 + jump, 4 + jump]) == [(1, 3, 3, 5 + jump)]  # jump lines between: bridged
    assert spans([2, 4 + jump, 5 + jump]) == [(1, 1, 3, 3), (2, 3, 5 + jump, 6 + jump)]
    assert spans([4 + jump, 2]) == [(1, 1, 5 + jump, 5 + jump), (2, 2, 3, 3)]  # and backwards
    # the same jump over blank upstream lines: nothing between holds code
    blanks = np.full(400, CODE, np.uint8)
    blanks[3:4 + jump] = BLANK
    assert spans([2, 4 + jump, 5 + jump], [SimpleNamespace(kinds=blanks)]) == [(1, 3, 3, 6 + jump)]


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



@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 59), min_size=1, max_size=20), st.sets(st.integers(0, 59), max_size=30),
       st.integers(0, 6))
def test_no_reported_span_holds_a_long_stretch_the_region_does_not_pair(up_rows: list[int], blank: set[int],
                                                                         jump: int) -> None:
    """Whatever the pairs: each region as reported holds its lines in target order, and its
    upstream span holds no more than ``jump`` non-blank lines in a row that none of its lines is
    paired with (the target-side gap rule is off here: a target of consecutive lines)."""
    n = len(up_rows)
    kinds = np.full(60, CODE, np.uint8)
    kinds[sorted(blank)] = BLANK
    up = [SimpleNamespace(kinds=kinds)]
    out = report_regions(_result(list(range(n)), n, up_rows), [SimpleNamespace(kinds=np.full(n, CODE, np.uint8))],
                         up, 10**6, jump)
    labels = out.files[0].region.tolist()
    assert labels == sorted(labels) and set(labels) == set(range(len(out.regions)))
    for r in out.regions:
        paired = {up_rows[k] for k in range(n) if labels[k] == r.region}
        assert (r.upstream_start - 1, r.upstream_end - 1) == (min(paired), max(paired))
        stretch = longest = 0
        for row in range(min(paired), max(paired) + 1):
            if row in paired:
                stretch = 0
            elif kinds[row] != BLANK:
                stretch += 1
                longest = max(longest, stretch)
        assert longest <= jump

def test_the_cli_reports_a_far_off_import_as_a_region_of_its_own(tmp_path: Path) -> None:
    """End to end (``lineage compare``): a module whose imports open with ``import ast``, which
    its upstream holds only inside a function at the end (py's ``_code/source.py`` and pytest's
    copy of it). The fill pairs the line with that one, under the chain of the module's body, so
    uncut the body's region read upstream lines 1-40 for code taken from 1-35."""
    body = distinctive_functions(5, 8)
    local = ("def statement_ranges_of_the_module(source_text, line_number):\n"
             "    import ast\n"
             "    tree_of_statements = ast.parse(source_text)\n"
             "    return [node.lineno for node in ast.walk(tree_of_statements) if node.lineno <= line_number]\n")
    up_text = "from bisect import bisect_right\nimport inspect, tokenize\nimport sys\n\n" + body + "\n\n" + local
    target = write_tree(tmp_path / "target", {"pkg/source.py": "import ast\nfrom bisect import bisect_right\n"
                                                                "import inspect\n\n" + body})
    upstream = write_tree(tmp_path / "up", {"pkg/source.py": up_text})
    local_ast = up_text.splitlines().index("    import ast") + 1
    body_end = len(body.rstrip().splitlines()) + 4  # the body's last line, in both files (4 lines above)

    def compare(name: str, *settings: str) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
        out = tmp_path / name
        assert main(["compare", str(target), str(upstream), "--out", str(out), "--no-cache", "-q", "--no-html",
                     "--jobs", "1", *settings]) == 0
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        return pd.read_csv(out / "lines.csv"), pd.read_csv(out / "regions.csv"), manifest

    lines, regions, manifest = compare("cut")
    assert manifest["parameters"]["region_split_jump"] == MatchParams().region_split_jump
    spans = [(r.target_start, r.target_end, r.upstream_start, r.upstream_end) for r in regions.itertuples()]
    assert spans == [(1, 1, local_ast, local_ast), (2, body_end, 1, body_end)]
    first = lines.iloc[0]
    assert (first["match"], first["upstream_line"]) == ("verbatim", local_ast)  # the line keeps its pair
    # with the rule off (a jump no region can make), the one region of before
    uncut_lines, uncut, manifest = compare("uncut", "--set", "region_split_jump=1000000")
    assert manifest["parameters"]["region_split_jump"] == 1000000
    assert [(r.target_start, r.target_end, r.upstream_start, r.upstream_end) for r in uncut.itertuples()] \
        == [(1, body_end, 1, local_ast)]
    # only the region column differs
    pd.testing.assert_frame_equal(lines.drop(columns="region"), uncut_lines.drop(columns="region"))


def _two_chains(rows: list[list[int]], up_rows: list[list[int]], n: int, up_files: tuple[int, int] = (0, 0),
                weights: tuple[float, float] = (30.0, 200.0)) -> MatchResult:
    """One target file of ``n`` rows whose lines two chains (regions 0 and 1, as the labeller
    numbers them) paired: chain k pairs ``rows[k]`` with ``up_rows[k]`` of upstream file ``up_files[k]``."""
    match = np.full(n, NONE, np.uint8)
    up_file, up_row = np.full(n, -1, np.int32), np.full(n, -1, np.int32)
    region = np.full(n, -1, np.int32)
    regions = []
    for k in range(2):
        match[rows[k]], up_file[rows[k]], up_row[rows[k]], region[rows[k]] = VERBATIM, up_files[k], up_rows[k], k
        regions.append(Region(target_file=0, region=k, up_file=up_files[k], target_start=min(rows[k]) + 1,
                              target_end=max(rows[k]) + 1, upstream_start=min(up_rows[k]) + 1,
                              upstream_end=max(up_rows[k]) + 1, verbatim=len(rows[k]), near=0, weight=weights[k]))
    m = FileMatch(match, up_file, up_row, np.where(match == VERBATIM, 1.0, 0.0).astype(np.float32), region)
    return MatchResult([m], regions)


def test_two_chains_that_meet_in_both_files_are_one_region() -> None:
    """pydantic 2.10.6's ``v1/fields.py`` against 1.10.19's ``fields.py``: the chain of lines
    1-10 and the heavier chain of the body (its imports between, edited, seed nothing) met at
    line 10/11 in both files and were reported as regions 1-10 and 11-1253. One stretch in both
    files is one region: both spans, both counts, the two chains' weights summed; every line
    keeps its pair, and with the knob off the two regions of before."""
    p = MatchParams()
    target = [SimpleNamespace(kinds=np.full(40, CODE, np.uint8))]
    up = [SimpleNamespace(kinds=np.full(100, CODE, np.uint8))] * 2
    # the body's chain first (the labeller's order: the heavier claims first), then the head's
    result = _two_chains([list(range(10, 30)), list(range(10))], [list(range(10, 30)), list(range(10))], 40,
                         weights=(200.0, 30.5))
    out = report_regions(result, target, up, p.region_split_gap, p.region_split_jump, join=True)
    assert [(r.region, r.target_start, r.target_end, r.upstream_start, r.upstream_end, r.verbatim, r.weight)
            for r in out.regions] == [(0, 1, 30, 1, 30, 30, 230.5)]
    assert out.files[0].region[:30].tolist() == [0] * 30 and out.files[0].region[30:].tolist() == [-1] * 10
    assert out.files[0].up_row.tolist() == result.files[0].up_row.tolist()
    off = report_regions(result, target, up, p.region_split_gap, p.region_split_jump, join=False)
    assert _spans(off) == [(11, 30, 11, 30), (1, 10, 1, 10)]
    assert [r.weight for r in off.regions] == [200.0, 30.5]


def test_regions_stay_apart_where_the_cut_means_something() -> None:
    """Two chains' regions stay two where they are not one stretch in both files: another
    upstream file; the later target lines taken from earlier upstream lines (a moved block);
    more than ``region_split_gap`` non-blank target lines between, or a jump of more than
    ``region_split_jump`` upstream lines (the cut rule's own bounds); a line between that
    another region holds or the gate set apart (shared with a third party). Within those
    bounds (blank lines, a few lines of the target's own, a few deleted upstream) one region."""
    p = MatchParams()
    gap, jump = p.region_split_gap, p.region_split_jump
    n = 80
    target = [SimpleNamespace(kinds=np.full(n, CODE, np.uint8))]
    up = [SimpleNamespace(kinds=np.full(200, CODE, np.uint8))] * 2

    def spans(rows: list[list[int]], up_rows: list[list[int]], up_files: tuple[int, int] = (0, 0),
              apart: np.ndarray | None = None, kinds: np.ndarray | None = None) -> list[tuple[int, int, int, int]]:
        files = target if kinds is None else [SimpleNamespace(kinds=kinds)]
        out = report_regions(_two_chains(rows, up_rows, n, up_files), files, up, gap, jump, join=True,
                             apart=None if apart is None else [apart])
        return sorted(_spans(out))

    head, body = list(range(10)), list(range(10, 30))
    assert spans([head, body], [head, body]) == [(1, 30, 1, 30)]
    assert spans([head, body], [head, body], up_files=(0, 1)) == [(1, 10, 1, 10), (11, 30, 11, 30)]
    # the later lines from before the earlier ones upstream: a moved block, two regions
    assert spans([head, body], [[k + 100 for k in head], body]) == [(1, 10, 101, 110), (11, 30, 11, 30)]
    # the target's own lines between: up to the gap one region, one more two
    later = [k + gap for k in body]
    assert spans([head, later], [head, body]) == [(1, 10 + gap + 20, 1, 30)]
    assert spans([head, [k + 1 for k in later]], [head, body]) == [(1, 10, 1, 10), (11 + gap + 1, 30 + gap + 1, 11, 30)]
    # ... unless they are blank
    blank = np.full(n, CODE, np.uint8)
    blank[10:10 + gap + 1] = BLANK
    assert spans([head, [k + 1 for k in later]], [head, body], kinds=blank) == [(1, 30 + gap + 1, 1, 30)]
    # upstream lines the target dropped between: up to the jump one region, one more two
    assert spans([head, body], [head, [k + jump for k in body]]) == [(1, 30, 1, 30 + jump)]
    assert spans([head, body], [head, [k + jump + 1 for k in body]]) == [(1, 10, 1, 10), (11, 30, 12 + jump, 31 + jump)]
    # a line between held by the gate apart (third-party code, a header of the target's own)
    set_apart = np.zeros(n, bool)
    set_apart[12] = True
    assert spans([head, [k + 3 for k in body]], [head, body]) == [(1, 33, 1, 30)]
    assert spans([head, [k + 3 for k in body]], [head, body], apart=set_apart) == [(1, 10, 1, 10), (14, 33, 11, 30)]


def test_a_region_between_two_others_keeps_them_apart() -> None:
    """A line of another region (another upstream file) between two stretches of one upstream
    file's chains: three regions, as the target reads. And three chains that meet one after the
    other in both files (pydantic's ``v1/dataclasses.py``: 1-116, 117-136, 137-500) are one."""
    p = MatchParams()
    n = 40
    target = [SimpleNamespace(kinds=np.full(n, CODE, np.uint8))]
    up = [SimpleNamespace(kinds=np.full(100, CODE, np.uint8))] * 3
    match = np.full(n, VERBATIM, np.uint8)
    up_file = np.array([0] * 10 + [1] + [0] * 29, np.int32)
    up_row = np.arange(n, dtype=np.int32)
    region = np.array([0] * 10 + [1] + [2] * 29, np.int32)
    m = FileMatch(match, up_file, up_row, np.ones(n, np.float32), region)

    def region_of(k: int, start: int, end: int, u: int) -> Region:
        return Region(target_file=0, region=k, up_file=u, target_start=start, target_end=end, upstream_start=start,
                      upstream_end=end, verbatim=end - start + 1, near=0, weight=20.0)

    regions = [region_of(0, 1, 10, 0), region_of(1, 11, 11, 1), region_of(2, 12, 40, 0)]
    out = report_regions(MatchResult([m], regions), target, up, p.region_split_gap, p.region_split_jump, join=True)
    assert _spans(out) == [(1, 10, 1, 10), (11, 11, 11, 11), (12, 40, 12, 40)]
    # the middle one of the same upstream file: one region of three chains, numbered 0
    up_file[10] = 0
    regions[1] = region_of(1, 11, 11, 0)
    out = report_regions(MatchResult([m], regions), target, up, p.region_split_gap, p.region_split_jump, join=True)
    assert [(r.region, r.target_start, r.target_end, r.weight) for r in out.regions] == [(0, 1, 40, 60.0)]
    assert set(out.files[0].region.tolist()) == {0}


def test_the_cli_reports_one_region_for_a_copy_whose_edited_imports_split_its_chains(tmp_path: Path) -> None:
    """End to end: a module copied whole whose block of 16 imports the target rewrote
    (``from pkg.v1.module_k import ...`` for ``from pkg.module_k import ...``, as pydantic's
    ``v1/`` did) seeds no hit, so the functions above it and the body below chain apart; the
    labels carry the body's chain over the imports, and the two regions met in both files.
    regions.csv now holds one; lines.csv differs only in ``region``."""
    head = distinctive_functions(3, 2)
    imports = "".join(f"from pkg.module_{k} import helper_{k}_alpha, helper_{k}_beta, helper_{k}_gamma\n"
                      for k in range(16))
    body = distinctive_functions(5, 8)
    up_text = head + "\n" + imports + "\n\n" + body
    edited = imports.replace("from pkg.", "from pkg.v1.")
    target = write_tree(tmp_path / "target", {"pkg/v1/fields.py": head + "\n" + edited + "\n\n" + body})
    upstream = write_tree(tmp_path / "up", {"pkg/fields.py": up_text})
    n = len(up_text.rstrip().splitlines())  # its last non-blank line

    def compare(name: str, *settings: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        out = tmp_path / name
        assert main(["compare", str(target), str(upstream), "--out", str(out), "--no-cache", "-q", "--no-html",
                     "--jobs", "1", *settings]) == 0
        return pd.read_csv(out / "lines.csv"), pd.read_csv(out / "regions.csv")

    lines, regions = compare("joined")
    assert [(r.target_start, r.target_end, r.upstream_start, r.upstream_end) for r in regions.itertuples()] \
        == [(1, n, 1, n)]
    apart_lines, apart = compare("apart", "--set", "region_join_abutting=0")
    assert len(apart) == 2  # the head's chain and the body's, meeting in both files
    first, second = sorted((r.target_start, r.target_end, r.upstream_start, r.upstream_end) for r in apart.itertuples())
    assert first[0] == first[2] == 1 and second[1] == second[3] == n
    assert first[1] < second[0] and first[3] < second[2]
    assert regions.loc[0, "evidence_weight"] == pytest.approx(apart["evidence_weight"].sum())
    columns = [c for c in lines.columns if c != "region"]
    assert lines[columns].equals(apart_lines[columns])
