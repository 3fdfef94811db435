"""The small accuracy suite: `lineage compare` on every operator's case of the in-repo fixture.

Runs ``tests/eval/run_eval.py --small --tools lineage`` (no network) and holds lineage to
F1 >= 0.95 on code lines for every operator, exactness 1.0 (every verbatim row really equals
the upstream line it names), and a false-positive rate of at most 5% in the negative control.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pandas as pd
import pytest

_ROOT = Path(__file__).resolve().parents[1]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tests.eval import generate  # noqa: E402

MIN_F1 = 0.95
MAX_NEGATIVE_FP_RATE = 0.05


@pytest.fixture(scope="module")
def small_results(small_eval: tuple[pd.DataFrame, Path]) -> pd.DataFrame:
    return small_eval[0]  # run once per session in conftest, shared with test_golden


def _per_operator(results: pd.DataFrame) -> pd.DataFrame:
    code = results[(results["scope"] == "code") & (results["level"] == "operator")]
    return code.set_index("operator")


def test_every_case_was_scored(small_results):
    per_operator = _per_operator(small_results)
    assert set(per_operator.index) == {*generate.CASES, generate.NEGATIVE_CASE}


@pytest.mark.parametrize("operator", generate.CASES)
def test_lineage_f1_per_operator(small_results, operator):
    row = _per_operator(small_results).loc[operator]
    assert row["f1"] >= MIN_F1, (
        f"{operator}: F1 {row['f1']:.3f} (P {row['precision']:.3f}, R {row['recall']:.3f}, "
        f"tp {row['tp']}, fp {row['fp']}, fn {row['fn']})"
    )


@pytest.mark.parametrize("operator", generate.CASES)
def test_lineage_exactness_per_operator(small_results, operator):
    row = _per_operator(small_results).loc[operator]
    assert row["n_verbatim_rows"] > 0, f"{operator}: no verbatim row at all"
    assert row["exactness"] == 1.0, (
        f"{operator}: {row['n_verbatim_rows'] - row['n_exact_rows']} verbatim rows differ "
        "from the upstream line they name"
    )


def test_lineage_negative_control(small_results):
    row = _per_operator(small_results).loc[generate.NEGATIVE_CASE]
    assert row["fp_rate"] <= MAX_NEGATIVE_FP_RATE, f"{row['fp']} of {row['n_lines']} code lines called copied"
    assert math.isnan(row["exactness"]) or row["exactness"] == 1.0
