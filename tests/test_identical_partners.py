"""A line that the same stretch of the upstream holds word for word is paired with that line,
not placed by position or by shared words on a line its neighbour holds verbatim: the statement
rule's line partners (``fill_statement_identical_lines``, :func:`lineage.match.statements.line_partners`)
and the in-place pairs of a region's equal-length gaps (``gap_in_place_yields``,
:meth:`lineage.match.labels.FileLabeller.align_gap`).

Hand-made pairs whose truth is in their construction (the shapes of aphrodite-engine 0.6.3's
layer norm and fp8 imports against vLLM 0.6.3.post1, with names of our own).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Runner, file_lines, make_labeller

from lineage.match import NEAR, NONE, VERBATIM, MatchParams


def _method(name: str, params: list[str], body: list[str]) -> str:
    """A method whose signature is exploded one parameter a line, closed by ``) -> None:``."""
    return (f"    def {name}(\n        self,\n" + "".join(f"        {p},\n" for p in params) + "    ) -> None:\n"
            + "".join(f"        {line}\n" for line in body) + "\n")


_HELPER = ("def rms_normalize(hidden_states, weight, variance_epsilon):\n"
           "    orig_dtype = hidden_states.dtype\n"
           "    hidden_states = hidden_states.to(torch.float32)\n"
           "    variance = hidden_states.pow(2).mean(dim=-1, keepdim=True)\n"
           "    hidden_states = hidden_states * torch.rsqrt(variance + variance_epsilon)\n"
           "    return (hidden_states.to(orig_dtype) * weight).contiguous()\n\n\n")


def test_a_closing_line_pairs_with_the_identical_upstream_line(run_compare: Runner) -> None:
    """The target dropped the signature's last parameter and rewrote the body: the region ends
    at ``eps: float = 1e-6,`` (``) -> None:`` is in too many places to seed), and the statement
    rule completes the signature. Its ``) -> None:`` is the upstream's, verbatim; before, it was
    near (0.4) the ``eps`` line the line above holds verbatim."""
    up = ("import torch\n\n\n" + _HELPER + "class RMSNorm(CustomOp):\n\n"
          + _method("__init__", ["hidden_size: int", "eps: float = 1e-6", "var_hidden_size: Optional[int] = None"],
                    ["super().__init__()", "self.hidden_size = hidden_size", "self.variance_epsilon = eps"])
          + "".join(_method(f"load_{k}", [f"weight_{k}: torch.Tensor", "strict: bool = True"],
                            [f"self.weight_{k}.data.copy_(weight_{k})"]) for k in range(6)))
    target = ("import torch\n\n\n" + _HELPER + "class LayerNorm(nn.LayerNorm):\n\n"
              + _method("__init__", ["hidden_size: int", "eps: float = 1e-6"],
                        ["super().__init__(hidden_size, eps=eps)"])
              + "    def forward(self, x):\n        return super().forward(x) * 2 + self.bias_term\n")
    lines = target.splitlines()
    eps, closing = lines.index("        eps: float = 1e-6,") + 1, lines.index("    ) -> None:") + 1
    up_closing = up.splitlines().index("    ) -> None:") + 1
    off = file_lines(run_compare({"pkg/norm.py": target}, [("up", {"up/norm.py": up})],
                                 params=MatchParams(fill_statement_identical_lines=0)), "pkg/norm.py")
    assert off.loc[closing, "match"] == "near" and int(off.loc[closing, "upstream_line"]) == eps
    on = file_lines(run_compare({"pkg/norm.py": target}, [("up", {"up/norm.py": up})]), "pkg/norm.py")
    assert on.loc[closing, "match"] == "verbatim" and int(on.loc[closing, "upstream_line"]) == up_closing
    assert on.loc[eps, "match"] == "verbatim" and int(on.loc[eps, "upstream_line"]) == eps


_UP_IMPORTS = ("import torch\n"
               "import proj.envs as envs\n"
               "from proj import _kernels as ops\n"
               "from proj.logging import make_logger\n"
               "from proj.layers.experts import (ExpertLayer, ExpertMethodBase,\n"
               "                                 ExpertScaleKind)\n"
               "from proj.layers.dense import (DenseBase, DenseMethodBase,\n"
               "                               PlainDenseMethod)\n"
               "from proj.quant.base import QuantConfigBase\n"
               "import numpy\n")
# two imports added above the dense import, two dropped: the gap has one length on both sides
_TARGET_IMPORTS = ("import torch\n"
                   "from fork import _kernels as ops\n"
                   "from fork.util import is_rocm, warn_once\n"
                   "from fork.layers.experts import ExpertLayer, ExpertMethodBase\n"
                   "from fork.layers.dense import (DenseBase, DenseMethodBase,\n"
                   "                               PlainDenseMethod)\n"
                   "from fork.layers.helpers import set_weight_attrs\n"
                   "from fork.platforms import current_platform\n"
                   "from fork.quant.base import QuantConfigBase\n"
                   "import numpy\n")


def _gap_labels(tmp_path: Path, params: MatchParams) -> list[tuple[int, int]]:
    """(label, upstream line) of each target line after aligning the gap between the first and
    the last lines (``import torch`` and ``import numpy``, both paired by a region's runs)."""
    lab = make_labeller(tmp_path, {"pkg/fp8.py": _TARGET_IMPORTS}, {"up/fp8.py": _UP_IMPORTS}, params)
    u_rows, u_lines = lab.upstream_lines(0)
    n = len(lab.t_rows)
    assert n == len(u_rows) == 10
    lab.align_gap(0, 0, range(1, n - 1), range(1, n - 1), u_rows, u_lines,
                  lambda tc: bool(lab.result.match[lab.t_rows[tc]] == NONE))
    r = lab.result
    return [(int(r.match[row]), int(r.up_row[row]) + 1) for row in lab.t_rows.tolist()]


@pytest.mark.parametrize("yields", [0, 1])
def test_an_equal_length_gap_pairs_in_place_only_what_the_alignment_does_not_place(
        tmp_path: Path, yields: int) -> None:
    """In place, the dense import (lines 5-6) was paired with the experts import two lines above
    its own (near, and ``PlainDenseMethod)`` near ``ExpertScaleKind)``); the gap's character
    alignment places both with their own lines, the second verbatim, and yields the rest as before."""
    labels = _gap_labels(tmp_path / str(yields), MatchParams(gap_in_place_yields=yields))
    if yields:
        assert labels[4:6] == [(NEAR, 7), (VERBATIM, 8)]
    else:
        assert labels[4:6] == [(NEAR, 5), (NEAR, 6)]
    assert labels[1] == (NEAR, 3)  # ``from fork import _kernels as ops``: its own line either way
    assert labels[8] == (NEAR, 9)


def test_no_near_pair_stays_under_the_floor(tmp_path: Path) -> None:
    """Whatever rule set a pair, a near line whose similarity is under ``near_floor_similarity``
    is unpaired at the end (a lone ``)`` placed beside ``states_ptr += ...``: 0.0)."""
    params = MatchParams()
    lab = make_labeller(tmp_path, {"pkg/fp8.py": _TARGET_IMPORTS}, {"up/fp8.py": _UP_IMPORTS}, params)
    r, rows = lab.result, lab.t_rows
    for tc, (label, sim) in enumerate([(NEAR, 0.0), (NEAR, 0.299), (NEAR, 0.3), (VERBATIM, 1.0)]):
        r.match[rows[tc]], r.up_file[rows[tc]], r.up_row[rows[tc]], r.similarity[rows[tc]] = label, 0, tc, sim
    assert lab.drop_below_floor() == 2
    assert [int(r.match[rows[tc]]) for tc in range(4)] == [NONE, NONE, NEAR, VERBATIM]
    assert int(r.up_file[rows[0]]) == -1 and float(r.similarity[rows[1]]) == 0.0


def test_a_prose_near_pair_needs_the_prose_floor(tmp_path: Path) -> None:
    """A comment or docstring line paired near at 0.55 is another sentence (the real cases' prose
    near rows under 0.6 were mostly wrong); a code line at 0.55 stays."""
    text = '"""A module docstring line."""\n# a comment line\nx = compute_thing(1)\nvalue = 2\n'
    params = MatchParams()
    lab = make_labeller(tmp_path, {"pkg/prose.py": text}, {"up/prose.py": text}, params)
    r, rows = lab.result, lab.t_rows
    for tc, sim in enumerate([0.55, 0.6, 0.55, 0.3]):
        r.match[rows[tc]], r.up_file[rows[tc]], r.up_row[rows[tc]], r.similarity[rows[tc]] = NEAR, 0, tc, sim
    assert lab.drop_below_floor() == 1
    assert [int(r.match[rows[tc]]) for tc in range(4)] == [NONE, NEAR, NEAR, NEAR]
    off = make_labeller(tmp_path / "off", {"pkg/prose.py": text}, {"up/prose.py": text},
                        MatchParams(near_floor_similarity_prose=0.0))
    r, rows = off.result, off.t_rows
    r.match[rows[0]], r.up_file[rows[0]], r.up_row[rows[0]], r.similarity[rows[0]] = NEAR, 0, 0, 0.55
    assert off.drop_below_floor() == 0
