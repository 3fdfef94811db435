"""Tests for two shapes of :mod:`lineage.match.lone` judged by what they belong to, on pairs set by
hand: a closing bracket whose statement's other paired lines the lone rule drops
(``lone_shapes_after_drop``), and a ``near`` line of punctuation alone paired with a worded
upstream line (``lone_punctuation_pieces``).

Each case is a small hand-made pair whose truth is in its construction; thresholds come from
MatchParams, never typed in here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import make_labeller

from lineage.match import MatchParams
from lineage.match.idioms import IdiomFilter
from lineage.match.labels import FileLabeller
from lineage.match.lone import drop_lone_lines
from lineage.match.records import NEAR, NONE, VERBATIM

# The upstream's function: its call's arguments are its own.
_UP_SETTLE = ("def settle_widget_totals(first_value, second_value):\n"
              "    combined_total = first_value * 31 + second_value\n"
              "    scaled_result = rescale_widget_total(\n"
              "        combined_total, WIDGET_SCALE_FACTOR\n"
              "        + second_value,\n"
              "    )\n"
              "    return scaled_result - WIDGET_OFFSET_VALUE\n")
# The target's: the same head and tail around a call of its own.
_TARGET_SETTLE = ("def settle_widget_totals(first_value, second_value):\n"
                  "    combined_total = first_value * 31 + second_value\n"
                  "    audit_entry = record_widget_event(\n"
                  "        combined_total, 'audit',\n"
                  "        second_value,\n"
                  "    )\n"
                  "    return scaled_result - WIDGET_OFFSET_VALUE\n")


def _set(lab: FileLabeller, pairs: dict[int, tuple[int, int, float]]) -> None:
    """Pair target content line -> (upstream content line, label, similarity), in upstream file 0."""
    r, rows = lab.result, lab.t_rows
    u_rows = lab.upstream_lines(0)[0]
    for tc, (uc, label, sim) in pairs.items():
        r.match[rows[tc]], r.up_file[rows[tc]], r.up_row[rows[tc]], r.similarity[rows[tc]] = label, 0, u_rows[uc], sim
        r.region[rows[tc]] = 0


def _labels(lab: FileLabeller) -> list[int]:
    return [int(lab.result.match[row]) for row in lab.t_rows.tolist()]


@pytest.mark.parametrize("on", [0, 1])
def test_a_bracket_whose_statement_lines_were_lone_is_dropped_with_them(tmp_path: Path, on: int) -> None:
    """The target's own call's argument line is paired near (weakly) with the upstream call's
    and its ``)`` verbatim with the upstream ``)``: the lone rule drops the argument line, and
    the ``)``, continued in place by it and by the copied ``return`` below, closes nothing
    paired any more (sglang's ``glm4_moe.py`` ``)`` of its own ``apply_qk_norm(...)``)."""
    params = MatchParams(lone_shapes_after_drop=on)
    lab = make_labeller(tmp_path, {"pkg/settle.py": _TARGET_SETTLE}, {"up/settle.py": _UP_SETTLE}, params)
    weak = params.lone_near_min_similarity / 2  # an argument line by place, not by text
    _set(lab, {0: (0, VERBATIM, 1.0), 1: (1, VERBATIM, 1.0), 3: (3, NEAR, weak), 5: (5, VERBATIM, 1.0),
               6: (6, VERBATIM, 1.0)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    labels = _labels(lab)
    assert labels[3] == NONE  # the lone argument line, either way
    assert labels[5] == (NONE if on else VERBATIM)
    assert [labels[k] for k in (0, 1, 6)] == [VERBATIM] * 3


# The upstream's helper takes ``cls`` and keywords; the target's factory takes keywords only.
_UP_SHAPE = ("class WidgetShapes:\n"
             "    @classmethod\n"
             "    def widget_state_shape(\n"
             "        cls,\n"
             "        widget_world_size: int,\n"
             "        widget_head_count: int,\n"
             "        widget_head_width: int,\n"
             "        widget_dtype: str = 'fp8',\n"
             "    ) -> tuple[int, int]:\n"
             "        return (widget_head_count // widget_world_size, widget_head_width)\n")
_TARGET_SHAPE = ("class WidgetShapes:\n"
                 "    @staticmethod\n"
                 "    def create(\n"
                 "        *,\n"
                 "        widget_world_size: int,\n"
                 "        widget_head_count: int,\n"
                 "        widget_head_width: int,\n"
                 "    ) -> 'WidgetShapes':\n"
                 "        return WidgetShapes()\n")


@pytest.mark.parametrize("on", [0, 1])
def test_a_punctuation_line_near_a_worded_line_is_no_copy(tmp_path: Path, on: int) -> None:
    """Position pairs the target's ``*,`` with the upstream ``def widget_state_shape(`` and its
    ``) -> 'WidgetShapes':`` with the parameter line after (sglang's ``mamba_utils.py`` ``create(``
    against vLLM's ``kda_state_shape(``); the parameter lines, verbatim, stay either way."""
    params = MatchParams(lone_punctuation_pieces=on)
    lab = make_labeller(tmp_path, {"pkg/shape.py": _TARGET_SHAPE}, {"up/shape.py": _UP_SHAPE}, params)
    _set(lab, {0: (0, VERBATIM, 1.0), 3: (2, NEAR, 0.4), 4: (4, VERBATIM, 1.0), 5: (5, VERBATIM, 1.0),
               6: (6, VERBATIM, 1.0), 7: (7, NEAR, 0.4)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    labels = _labels(lab)
    assert labels[3] == (NONE if on else NEAR)
    assert labels[7] == (NONE if on else NEAR)
    assert labels[4:7] == [VERBATIM] * 3


def test_a_bracket_piece_of_a_rewrapped_line_stays(tmp_path: Path) -> None:
    """A ``(`` and ``)`` that break the upstream's one-line call over target lines name the
    line their statement's head names too: pieces of it, kept; so is a ``)`` paired with a
    line that starts with it (``).to(device)``)."""
    up = ("def widget_pack(first_value, second_value):\n"
          "    packed = pack_widget_values((first_value, second_value), WIDGET_PACK_MODE)\n"
          "    moved = build_widget_tensor(\n"
          "        packed, WIDGET_PACK_MODE\n"
          "    ).to(device)\n"
          "    return moved\n")
    target = ("def widget_pack(first_value, second_value):\n"
              "    packed = pack_widget_values(\n"
              "        (\n"
              "            first_value, second_value\n"
              "        ),\n"
              "        WIDGET_PACK_MODE,\n"
              "    )\n"
              "    moved = build_widget_tensor(\n"
              "        packed, WIDGET_PACK_MODE\n"
              "    )\n"
              "    return moved\n")
    params = MatchParams()
    lab = make_labeller(tmp_path, {"pkg/pack.py": target}, {"up/pack.py": up}, params)
    _set(lab, {0: (0, VERBATIM, 1.0), **{tc: (1, NEAR, 0.5) for tc in range(1, 7)}, 7: (2, VERBATIM, 1.0),
               8: (3, VERBATIM, 1.0), 9: (4, NEAR, 0.5), 10: (5, VERBATIM, 1.0)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    labels = _labels(lab)
    assert labels[2] == labels[4] == labels[6] == labels[9] == NEAR


# The upstream's signature; the target calls a helper of its own with the same names one a line.
_UP_SIGNATURE = ("def widget_attention(\n"
                 "    widget_query,\n"
                 "    widget_keys,\n"
                 "    widget_values,\n"
                 "    widget_table,\n"
                 "):\n"
                 "    return run_widget_attention(widget_query, widget_keys, widget_values, widget_table)\n")
_TARGET_CALL = ("def widget_attention(widget_query, widget_keys, widget_values, widget_table):\n"
                "    if widget_fast_path_supported(\n"
                "        widget_query,\n"
                "        widget_keys,\n"
                "        widget_values,\n"
                "        widget_table,\n"
                "    ):\n"
                "        return widget_fast_path()\n")


@pytest.mark.parametrize("on", [0, 1])
def test_a_calls_arguments_are_not_the_parameter_lines_they_name(tmp_path: Path, on: int) -> None:
    """Position and text pair the target's own call's argument lines, and its ``):``, with the
    upstream signature's parameter lines (sglang's ``asm_verify_attn_supported(q, k, v, ...)``
    against vLLM's ``unified_attention``)."""
    params = MatchParams(lone_header_roles=on)
    lab = make_labeller(tmp_path, {"pkg/attn.py": _TARGET_CALL}, {"up/attn.py": _UP_SIGNATURE}, params)
    _set(lab, {tc: (tc, VERBATIM, 1.0) for tc in range(2, 7)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    labels = _labels(lab)
    assert labels[2:7] == ([NONE] * 5 if on else [VERBATIM] * 5)


def test_a_header_paired_with_the_body_below_moves_to_its_own_header(tmp_path: Path) -> None:
    """A signature edited in place, paired by position with the upstream body's first line (its
    own header right above that line, free), moves to that header; with the rule off it stays on
    the body line (nextcord's ``def __init__(self, *args, case_insensitive: bool = False,
    **kwargs)`` and discord's ``case_insensitive = kwargs.get(...)``)."""
    up = ("class WidgetGroup:\n"
          "    def __init__(self, *args, **kwargs):\n"
          "        case_insensitive = kwargs.get('case_insensitive', False)\n"
          "        self.all_widgets = {} if case_insensitive else dict()\n")
    target = ("class WidgetGroup:\n"
              "    def __init__(self, *args, case_insensitive: bool = False, **kwargs) -> None:\n"
              "        self.all_widgets = {} if case_insensitive else dict()\n")
    for on in (0, 1):
        params = MatchParams(lone_header_roles=on)
        lab = make_labeller(tmp_path / str(on), {"pkg/group.py": target}, {"up/group.py": up}, params)
        _set(lab, {0: (0, VERBATIM, 1.0), 1: (2, NEAR, 0.5), 2: (3, VERBATIM, 1.0)})
        drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
        u_rows = lab.upstream_lines(0)[0]
        row = lab.t_rows[1]
        assert int(lab.result.match[row]) == NEAR
        assert int(lab.result.up_row[row]) == int(u_rows[1 if on else 2])


def test_a_closing_bracket_paired_with_a_one_line_call_stays(tmp_path: Path) -> None:
    """The ``)`` of a call the target re-wrapped, paired with the upstream one-line call whose
    first line the target paired elsewhere, ends as that line ends: it stays (nextcord's
    ``parser.add_argument(`` ... ``)`` against discord's one-line calls)."""
    up = ("def widget_parser(parser):\n"
          "    parser.add_argument('--widget-name', help='the widget name')\n"
          "    parser.add_argument('--hide-widgets', help='whether to hide widgets', action='store_true')\n"
          "    return parser\n")
    target = ("def widget_parser(parser):\n"
              "    parser.add_argument('--widget-name', help='the widget name')\n"
              "    parser.add_argument(\n"
              "        '--hide-widgets', help='whether to hide all widgets', action='store_true'\n"
              "    )\n"
              "    return parser\n")
    params = MatchParams()
    lab = make_labeller(tmp_path, {"pkg/parser.py": target}, {"up/parser.py": up}, params)
    _set(lab, {0: (0, VERBATIM, 1.0), 1: (1, VERBATIM, 1.0), 2: (1, NEAR, 0.5), 4: (2, NEAR, 0.4),
               5: (3, VERBATIM, 1.0)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    assert _labels(lab)[4] == NEAR


@pytest.mark.parametrize("on", [0, 1])
def test_a_separator_line_has_no_bracket_to_end_with(tmp_path: Path, on: int) -> None:
    """A ``,`` on a line of its own, paired near by position with an upstream line of words that
    neither starts with it nor is named by another line of its statement, is no copy: its
    brackets are none, and "the upstream line ends with them" held for every line."""
    up = ("def widget_sum(first_value, second_value):\n"
          "    scaled = first_value * WIDGET_SCALE\n"
          "    offset = second_value + WIDGET_OFFSET\n"
          "    total = combine_widgets(scaled, second_value)\n"
          "    return total\n")
    target = ("def widget_sum(first_value, second_value):\n"
              "    scaled = first_value * WIDGET_SCALE\n"
              "    total = combine_widgets(\n"
              "        scaled\n"
              "        ,\n"
              "        second_value\n"
              "    )\n"
              "    return total\n")
    params = MatchParams(lone_punctuation_pieces=on)
    lab = make_labeller(tmp_path, {"pkg/sum.py": target}, {"up/sum.py": up}, params)
    _set(lab, {0: (0, VERBATIM, 1.0), 1: (1, VERBATIM, 1.0), 4: (2, NEAR, 0.4), 7: (4, VERBATIM, 1.0)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    labels = _labels(lab)
    assert labels[4] == (NONE if on else NEAR)
    assert [labels[k] for k in (0, 1, 7)] == [VERBATIM] * 3


def test_an_upstream_line_a_crossed_pair_leaves_is_free_for_the_next(tmp_path: Path) -> None:
    """The class attribute paired with the upstream ``def`` line crosses a header's edge and has
    no line of its role free beside it: undone, that ``def`` line is free, and the target's
    ``def`` paired below it with the body moves to it (it stayed crossed, then undone, while
    the first pair's line counted as taken)."""
    up = ("class WidgetGroup:\n"
          "    def __init__(self, *args, **kwargs):\n"
          "        case_insensitive = kwargs.get('case_insensitive', False)\n"
          "        self.all_widgets = {} if case_insensitive else dict()\n")
    target = ("class WidgetGroup:\n"
              "    widget_label = 'case_insensitive'\n"
              "    def __init__(self, *args, case_insensitive: bool = False, **kwargs) -> None:\n"
              "        self.all_widgets = {} if case_insensitive else dict()\n")
    params = MatchParams()
    lab = make_labeller(tmp_path, {"pkg/group.py": target}, {"up/group.py": up}, params)
    _set(lab, {0: (0, VERBATIM, 1.0), 1: (1, NEAR, 0.4), 2: (2, NEAR, 0.5), 3: (3, VERBATIM, 1.0)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    u_rows = lab.upstream_lines(0)[0]
    assert _labels(lab)[1] == NONE
    assert _labels(lab)[2] == NEAR and int(lab.result.up_row[lab.t_rows[2]]) == int(u_rows[1])


def test_an_upstream_line_another_target_line_holds_stays_taken(tmp_path: Path) -> None:
    """Two target lines hold the upstream ``return build_widget(...)``: the target's ``def``, by
    position (crossed, it moves to the upstream ``def`` above), and the target's own copy of the
    line. The body line the target paired with the next upstream ``def`` may not move onto it:
    it is still held (a set of taken lines forgot it when the ``def`` moved away)."""
    up = ("def widget_make(widget_name, widget_size):\n"
          "    return build_widget(widget_name, widget_size)\n"
          "def widget_take(widget_name, widget_size):\n"
          "    return fetch_widget(widget_name, widget_size)\n")
    target = ("def widget_make(widget_name, widget_size, widget_colour=None):\n"
              "    return build_widget(widget_name, widget_size)\n"
              "def widget_take(widget_name, widget_size):\n"
              "    return build_widget(widget_name, widget_size)\n"
              "    return fetch_widget(widget_name, widget_size)\n")
    params = MatchParams()
    lab = make_labeller(tmp_path, {"pkg/make.py": target}, {"up/make.py": up}, params)
    _set(lab, {0: (1, NEAR, 0.5), 1: (1, VERBATIM, 1.0), 2: (2, VERBATIM, 1.0), 3: (2, NEAR, 0.4),
               4: (3, VERBATIM, 1.0)})
    drop_lone_lines(lab, IdiomFilter(lab.target, lab.upstream, params))
    u_rows = lab.upstream_lines(0)[0]
    up_row = [int(lab.result.up_row[row]) for row in lab.t_rows.tolist()]
    assert up_row[0] == int(u_rows[0])  # the def moved to the upstream def
    assert up_row[1] == int(u_rows[1])
    assert up_row[3] != int(u_rows[1])  # not a second holder of the line target line 1 holds
