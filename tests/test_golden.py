"""Figures unchanged: every figure file of the small eval suite matches the committed golden.

The golden (``tests/golden/small-eval.sha256``) was made by ``tests/golden/make_golden.py`` from
the code before the restructure. A change meant to alter figures regenerates it with that
script (one command, see its docstring) and says why in its commit message.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tests.golden.make_golden import FIGURE_FILES, GOLDEN, differences, digests, read_golden


def test_golden_covers_every_case_and_figure_file():
    golden = read_golden(GOLDEN)
    cases = {key.rsplit("/", 1)[0] for key in golden}
    assert len(cases) >= 10
    assert len(golden) == len(cases) * len(FIGURE_FILES)
    assert "missing" not in golden.values()


def test_figures_match_golden(small_eval: tuple[pd.DataFrame, Path]):
    found = digests(small_eval[1], small_eval[1].parents[1])
    diff = differences(read_golden(GOLDEN), found)
    assert not diff, "figure files changed (regenerate with tests/golden/make_golden.py only on purpose):\n" + \
        "\n".join(diff)
