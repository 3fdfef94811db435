"""Tests for the weak-region rule (lineage.match.regions.weak_region_proven, called by
lineage.match.labels.FileLabeller.label): a region lighter than ``region_min_weight`` stands if it
holds ``weak_region_min_lines`` identical consecutive lines, or (``weak_region_anchored``) if the
target file stands at its upstream file's place and the weak region keeps its order with a strong
region of that file pair labelled before it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import make_labeller

from lineage.match import MatchParams
from lineage.match.labels import FileLabeller, _in_order
from lineage.match.records import NONE
from lineage.match.regions import Chain, Run

# 12 distinctive lines copied in order, then 3 more after 10 lines of the target's own code: the
# first stretch is a strong region, the second (3 identical lines, under weak_region_min_lines)
# a weak one.
_COPIED = [f"value_{k} = compute_{k}(alpha_{k}, beta_{k}) + {k * 13 + 5}" for k in range(12)]
_TAIL = [f"result_{k} = finish_{k}(gamma_{k}) - {k * 7 + 3}" for k in range(3)]
_OWN = [f"local_{k} = own_helper_{k}() * {k + 2}" for k in range(10)]
_UP_OWN = [f"gone_{k} = removed_{k}() // {k + 4}" for k in range(10)]
_TARGET = "\n".join(_COPIED + _OWN + _TAIL) + "\n"
_UPSTREAM = "\n".join(_COPIED + _UP_OWN + _TAIL) + "\n"


def _chain(t0: int, t1: int, diag: int, weight: float) -> Chain:
    run = Run(up_file=0, diag=diag, t0=t0, t1=t1, weight=weight, hits=np.arange(t0, t1 + 1))
    return Chain(up_file=0, runs=[run], weight=weight, t_end=t1, u_end=t1 + diag)


def _labeller(tmp_path: Path, anchored: int, placed: bool) -> FileLabeller:
    params = MatchParams(weak_region_anchored=anchored)
    lab = make_labeller(tmp_path, {"pkg/mod.py": _TARGET}, {"pkg/mod.py": _UPSTREAM}, params)
    if placed:
        lab.placed = frozenset({0})
    return lab


def _label_both(lab: FileLabeller) -> bool:
    strong, weak = _chain(0, 11, 0, 120.0), _chain(22, 24, 0, 10.0)
    assert lab.p.weak_region_min_weight <= weak.weight < lab.p.region_min_weight  # a weak chain
    accepted = []
    for number, chain in enumerate([strong, weak]):
        kept = lab.claim(chain)
        assert kept is not None
        accepted.append(lab.label(kept, number))
    assert accepted[0]  # the strong one always stands
    return accepted[1]


@pytest.mark.parametrize("anchored", [1, 0])
def test_a_weak_region_in_order_with_a_strong_one_of_its_placed_file_pair_stands(tmp_path: Path,
                                                                                 anchored: int) -> None:
    lab = _labeller(tmp_path, anchored, placed=True)
    stands = _label_both(lab)
    tail_rows = lab.t_rows[22:25]
    if anchored:
        assert stands
        assert (lab.result.match[tail_rows] != NONE).all()
        assert lab.result.up_row[tail_rows].tolist() == lab.upstream.content_rows(0)[22:25].tolist()
    else:  # 3 identical lines are no block of weak_region_min_lines (6): nothing is left paired
        assert not stands
        assert (lab.result.match[tail_rows] == NONE).all()


def test_a_weak_region_of_a_file_at_another_place_needs_its_block(tmp_path: Path) -> None:
    lab = _labeller(tmp_path, 1, placed=False)
    assert not _label_both(lab)
    assert (lab.result.match[lab.t_rows[22:25]] == NONE).all()


def test_a_weak_region_before_every_strong_one_or_after_is_in_order_and_a_crossing_one_is_not() -> None:
    strong = [(10, 20, 30, 40)]  # content lines 10-20 of the target, rows 30-40 of the upstream
    assert _in_order((25, 27, 45, 47), strong)  # after, in both files
    assert _in_order((2, 4, 5, 8), strong)  # before, in both files
    assert not _in_order((25, 27, 5, 8), strong)  # after in the target, before in the upstream
    assert not _in_order((15, 17, 45, 47), strong)  # inside the strong region's target span
    assert not _in_order((25, 27, 45, 47), [])  # no strong region of the pair: nothing anchors it
    assert not _in_order(None, strong)  # a region that labelled nothing
    # between two strong regions, in order with both
    assert _in_order((25, 27, 45, 47), strong + [(30, 40, 50, 60)])
    assert not _in_order((25, 27, 45, 47), strong + [(30, 40, 42, 44)])
