"""Tests for lineage.match.lone: a paired line that no neighbour continues in order is copied only
if it is evidence on its own.

Each case is a small hand-made pair of trees whose truth is in its construction; thresholds come
from MatchParams, never typed in here.
"""

from __future__ import annotations

from conftest import Runner, file_lines

from lineage.match import MatchParams

# A function copied at both ends; between the two copied ends each side has code of its own,
# and both own blocks hold an ``else:`` (and a common ``super().__init__()``-like call) that the
# fill's in-order alignment would pair by position alone.
_COPIED_HEAD = ("def blend_widget_channels(first_value, second_value):\n"
                "    combined_total = first_value * 31 + second_value\n"
                "    scaled_result = combined_total // 7 - first_value\n")
_COPIED_TAIL = ("    if scaled_result > combined_total:\n"
                "        return scaled_result * WIDGET_SCALE_FACTOR\n"
                "    return combined_total - WIDGET_OFFSET_VALUE\n")
_UPSTREAM_OWN = ("    if first_value in REGISTRY_OF_UPSTREAM:\n"
                 "        upstream_only_call(first_value)\n"
                 "    else:\n"
                 "        upstream_other_call(second_value)\n"
                 "    shared_helper.reset_state()\n")
_TARGET_OWN = ("    audit_one = record_event('alpha', first_value)\n"
               "    audit_two = record_event('beta', second_value)\n"
               "    audit_three = record_event('gamma', scaled_result)\n"
               "    audit_four = record_event('delta', combined_total)\n"
               "    if audit_four is None:\n"
               "        log_missing(audit_one)\n"
               "    else:\n"
               "        log_found(audit_two)\n"
               "    audit_extra = record_event('iota', audit_two)\n"
               "    shared_helper.reset_state()\n"
               "    audit_five = record_event('epsilon', audit_three)\n"
               "    audit_six = record_event('zeta', audit_four)\n"
               "    audit_seven = record_event('eta', audit_five)\n"
               "    audit_eight = record_event('theta', audit_six)\n")
# Other upstream files that call ``shared_helper.reset_state()`` too: a common form there.
_COMMON = {f"up/other_{k}.py": f"def other_{k}():\n    shared_helper.reset_state()\n    return {k}\n" for k in range(5)}


def _pair() -> tuple[dict[str, str], dict[str, str], int, int]:
    up = {"up/blend.py": _COPIED_HEAD + _UPSTREAM_OWN + _COPIED_TAIL, **_COMMON}
    target = {"pkg/blend.py": _COPIED_HEAD + _TARGET_OWN + _COPIED_TAIL}
    lines = (_COPIED_HEAD + _TARGET_OWN).splitlines()
    return target, up, lines.index("    else:") + 1, lines.index("    shared_helper.reset_state()") + 1


def test_lone_generic_lines_placed_by_position_are_not_copies(run_compare: Runner) -> None:
    """``else:`` and a call many upstream files make, each with the target's own code around it,
    are none; the copied ends stay verbatim; with the rule off, the fill's alignment pairs them."""
    target, up, else_line, common_line = _pair()
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert frame.loc[else_line, "match"] == "none"
    assert frame.loc[common_line, "match"] == "none"
    head, tail = range(1, 4), range(len(frame) - 2, len(frame) + 1)
    assert set(frame.loc[[*head, *tail], "match"]) == {"verbatim"}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_rule=0)), "pkg/blend.py")
    assert off.loc[else_line, "match"] == "verbatim"
    assert off.loc[common_line, "match"] == "verbatim"


def test_a_lone_distinctive_line_stays_copied(run_compare: Runner) -> None:
    """A rare line (one upstream file holds it, long enough) that survived between the target's
    own code is evidence on its own: it stays verbatim."""
    survivor = '        raise WidgetChannelError("blend needs two calibrated channels")\n'
    up = {"up/blend.py": _COPIED_HEAD + _UPSTREAM_OWN.replace("        upstream_other_call(second_value)\n",
                                                                survivor) + _COPIED_TAIL, **_COMMON}
    own = _TARGET_OWN.replace("        log_found(audit_two)\n", survivor)
    target = {"pkg/blend.py": _COPIED_HEAD + own + _COPIED_TAIL}
    line = (_COPIED_HEAD + own).splitlines().index(survivor.rstrip("\n")) + 1
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert frame.loc[line, "match"] == "verbatim"


def test_lines_continued_in_order_are_kept_whatever_their_form(run_compare: Runner) -> None:
    """Generic lines inside a copied block (``else:``, ``)``) are continued by their neighbours'
    pairs, so the rule leaves a whole copied function as it was."""
    body = _COPIED_HEAD + _UPSTREAM_OWN + _COPIED_TAIL
    up = {"up/blend.py": body, **_COMMON}
    target = {"pkg/blend.py": body}
    on = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_rule=0)), "pkg/blend.py")
    assert list(on["match"]) == list(off["match"])
    assert (on["match"] == "verbatim").sum() == len(body.splitlines())
