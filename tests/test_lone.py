"""Tests for lineage.match.lone: a paired line that no neighbour continues in order is copied only
if it is evidence on its own.

Each case is a small hand-made pair of trees whose truth is in its construction; thresholds come
from MatchParams, never typed in here.
"""

from __future__ import annotations

from dataclasses import replace

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


# The fixtures' target file (``pkg/blend.py``) names nothing and stands at no upstream file's place,
# and its copied ends are 3 lines each: the weak-pair rule would drop the whole pair. These tests
# are of the lone-line rule inside a copy, so they run with the weak-pair rule off.
WEAK_OFF = MatchParams(weak_pair_min_run=0)


def _pair() -> tuple[dict[str, str], dict[str, str], int, int]:
    up = {"up/blend.py": _COPIED_HEAD + _UPSTREAM_OWN + _COPIED_TAIL, **_COMMON}
    target = {"pkg/blend.py": _COPIED_HEAD + _TARGET_OWN + _COPIED_TAIL}
    lines = (_COPIED_HEAD + _TARGET_OWN).splitlines()
    return target, up, lines.index("    else:") + 1, lines.index("    shared_helper.reset_state()") + 1


def test_lone_generic_lines_placed_by_position_are_not_copies(run_compare: Runner) -> None:
    """``else:`` and a call many upstream files make, each with the target's own code around it,
    are none; the copied ends stay verbatim; with the rule off, the fill's alignment pairs them."""
    target, up, else_line, common_line = _pair()
    frame = file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/blend.py")
    assert frame.loc[else_line, "match"] == "none"
    assert frame.loc[common_line, "match"] == "none"
    head, tail = range(1, 4), range(len(frame) - 2, len(frame) + 1)
    assert set(frame.loc[[*head, *tail], "match"]) == {"verbatim"}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_rule=0, weak_pair_min_run=0)),
                     "pkg/blend.py")
    assert off.loc[else_line, "match"] == "verbatim"
    assert off.loc[common_line, "match"] == "verbatim"


_SURVIVOR = '        raise WidgetChannelError("blend needs two calibrated channels")\n'


def _survivor_pair(common: bool) -> tuple[dict[str, str], dict[str, str], int]:
    """The survivor alone between own code on both sides (no paired neighbour); ``common``: five
    other upstream files hold the same line."""
    up_own = ("    if first_value in REGISTRY_OF_UPSTREAM:\n"
              "        upstream_only_call(first_value)\n"
              "        upstream_second_call(second_value, first_value)\n"
              + _SURVIVOR +
              "    upstream_tail_call(first_value)\n"
              "    upstream_last_call(second_value)\n")
    own = ("    audit_one = record_event('alpha', first_value)\n"
           "    audit_two = record_event('beta', second_value)\n"
           "    if audit_two is None:\n"
           "        note_missing(audit_one)\n"
           + _SURVIVOR +
           "    audit_three = record_event('gamma', scaled_result)\n"
           "    audit_four = record_event('delta', combined_total)\n"
           "    audit_five = record_event('epsilon', audit_three)\n")
    others = {f"up/raiser_{k}.py": f"def raiser_{k}(first_value, second_value):\n{_SURVIVOR}" for k in range(5)}
    up = {"up/blend.py": _COPIED_HEAD + up_own + _COPIED_TAIL, **_COMMON, **(others if common else {})}
    target = {"pkg/blend.py": _COPIED_HEAD + own + _COPIED_TAIL}
    return target, up, (_COPIED_HEAD + own).splitlines().index(_SURVIVOR.rstrip("\n")) + 1


def test_a_lone_rare_line_stays_copied_and_a_lone_common_one_does_not(run_compare: Runner) -> None:
    """The same line with no paired neighbour: rare upstream (one file holds it), it is evidence
    on its own and stays verbatim; held by five more upstream files, it is an idiom and is none.
    With the rule off the fill pairs it either way."""
    target, up, line = _survivor_pair(common=False)
    frame = file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/blend.py")
    assert frame.loc[line, "match"] == "verbatim"
    target, up, line = _survivor_pair(common=True)
    assert file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/blend.py").loc[line, "match"] == "none"
    off = run_compare(target, [("up", up)], params=MatchParams(lone_rule=0, weak_pair_min_run=0))
    assert file_lines(off, "pkg/blend.py").loc[line, "match"] == "verbatim"


def test_a_common_call_re_wrapped_alone_is_not_a_copy(run_compare: Runner) -> None:
    """A common call re-wrapped over two target lines names one upstream line from both: the two
    pieces do not continue each other, so they are none like the one-line call would be."""
    call = "shared_helper.reset_state(first_value, second_value)"
    common = {f"up/other_{k}.py": f"def other_{k}(first_value, second_value):\n    {call}\n    return {k}\n"
              for k in range(5)}
    up = {"up/blend.py": _COPIED_HEAD + _UPSTREAM_OWN.replace("shared_helper.reset_state()", call) + _COPIED_TAIL,
          **common}
    wrapped = "    shared_helper.reset_state(first_value,\n" + " " * 30 + "second_value)\n"
    own = _TARGET_OWN.replace("    shared_helper.reset_state()\n", wrapped)
    target = {"pkg/blend.py": _COPIED_HEAD + own + _COPIED_TAIL}
    first = (_COPIED_HEAD + own).splitlines().index("    shared_helper.reset_state(first_value,") + 1
    pieces = [first, first + 1]
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_rule=0, weak_pair_min_run=0)),
                     "pkg/blend.py")
    assert (off.loc[pieces, "match"] != "none").all()
    assert len(set(off.loc[pieces, "upstream_line"])) == 1
    frame = file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/blend.py")
    assert set(frame.loc[pieces, "match"]) == {"none"}


def test_a_line_between_lines_edited_in_place_is_continued(run_compare: Runner) -> None:
    """Three lines edited in place on both sides, then an unchanged common line (five more
    upstream files hold it), then three more: the line is in order with the copied lines around
    it (the same distance on both sides), so it stays verbatim, though alone it would be none."""
    up_body = ("    first_edit = compute_alpha(first_value)\n"
               "    second_edit = compute_beta(second_value)\n"
               "    third_edit = compute_gamma(first_value, second_value)\n"
               "    shared_helper.reset_state()\n"
               "    fourth_edit = compute_delta(hidden)\n"
               "    fifth_edit = compute_epsilon(hidden)\n"
               "    sixth_edit = compute_zeta(hidden, first_value)\n")
    own_body = ("    print('blend')\n"
                "    assert WIDGET_READY\n"
                "    yield None\n"
                "    shared_helper.reset_state()\n"
                "    pass\n"
                "    yield WIDGET_DONE\n"
                "    print('done')\n")
    up = {"up/blend.py": _COPIED_HEAD + up_body + _COPIED_TAIL, **_COMMON}
    target = {"pkg/blend.py": _COPIED_HEAD + own_body + _COPIED_TAIL}
    line = (_COPIED_HEAD + own_body).splitlines().index("    shared_helper.reset_state()") + 1
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert frame.loc[line, "match"] == "verbatim"
    tight = run_compare(target, [("up", up)], params=MatchParams(lone_max_skip=2))
    assert file_lines(tight, "pkg/blend.py").loc[line, "match"] == "none"


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


# -- lone groups: a few common lines that continue each other, far from every other paired line
_GROUP = ("    shared_helper.reset_state()\n"
          "    shared_helper.flush_buffers()\n"
          "    shared_helper.close_handles()\n")
# Five more upstream files hold the three lines too: together they are a common form.
_GROUP_COMMON = {f"up/group_{k}.py": f"def group_{k}():\n{_GROUP}    return {k}\n" for k in range(5)}


def _own(side: str, n: int) -> str:
    """n lines of one side's own code, unlike the other side's in every character run."""
    if side.startswith("upstream"):
        return "".join(f"    REGISTRY_{side.upper()}[{k}].dispatch(first_value, mode='{side}{k}')\n" for k in range(n))
    return "".join(f"    yield from walk_{side}_tree(depth={k}, seen=set())\n" for k in range(n))


# Copied ends long enough to be regions on their own, however far apart.
_LONG_HEAD = _COPIED_HEAD + "".join(f"    stage_{k}_weight = calibrate_stage_{k}(scaled_result, {k * 13 + 5})\n"
                                    for k in range(6))
_LONG_TAIL = "".join(f"    final_{k}_value = settle_final_{k}(combined_total, {k * 17 + 3})\n"
                     for k in range(6)) + _COPIED_TAIL


def _group_pair(marker: str = "", own_functions: int = 12) -> tuple[dict[str, str], dict[str, str], list[int]]:
    """A function copied at both ends; far inside it, each side's own code holds the same three
    common lines in the same order (more than ``lone_group_min_gap`` own lines on each side).
    The target file ends with ``own_functions`` functions of its own (so that, by default, far
    less than ``lone_group_keep_share`` of its code is paired)."""
    gap = MatchParams().lone_group_min_gap + 2
    up = {"up/blend.py": _LONG_HEAD + _own("upstream", gap) + _GROUP + _own("upstream_late", gap) + _LONG_TAIL,
          **_GROUP_COMMON}
    before = marker + _LONG_HEAD + _own("target", gap)
    own = "".join(f"\n\ndef own_helper_{k}(depth):\n{_own(f'helper{k}', 4)}" for k in range(own_functions))
    target = {"pkg/blend.py": before + _GROUP + _own("target_late", gap) + _LONG_TAIL + own}
    first = len(before.splitlines()) + 1
    return target, up, [first, first + 1, first + 2]


def test_an_isolated_group_of_common_lines_is_not_a_copy(run_compare: Runner) -> None:
    """The three lines continue each other in order, so the one-line test keeps them; as a group
    far from every other paired line, with no line that is evidence on its own, they are none.
    With the group rule off, the fill's in-order alignment pairs them; the copied ends stay."""
    target, up, group = _group_pair()
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_group_max_lines=0)), "pkg/blend.py")
    assert set(off.loc[group, "match"]) == {"verbatim"}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert set(frame.loc[group, "match"]) == {"none"}
    assert set(frame.loc[[1, 2, 3], "match"]) == {"verbatim"}
    small = run_compare(target, [("up", up)], params=MatchParams(lone_group_max_lines=2))
    assert set(file_lines(small, "pkg/blend.py").loc[group, "match"]) == {"verbatim"}  # three lines: not small
    wide = MatchParams(lone_group_min_gap=MatchParams().lone_group_min_gap + 5)
    near = run_compare(target, [("up", up)], params=wide)
    assert set(file_lines(near, "pkg/blend.py").loc[group, "match"]) == {"verbatim"}  # a paired line close by


def test_a_group_with_a_rare_line_or_in_an_attributed_file_stays(run_compare: Runner) -> None:
    """The same group with one line no other upstream file holds is evidence and stays; so does
    the common group in a target file whose marker names the upstream file."""
    target, up, group = _group_pair()
    rare = {path: text.replace("    shared_helper.flush_buffers()\n",
                               "    shared_helper.flush_buffers(WIDGET_SCALE_FACTOR, blend_only=True)\n")
            if path in ("up/blend.py", "pkg/blend.py") else text for path, text in {**up, **target}.items()}
    frame = file_lines(run_compare({"pkg/blend.py": rare["pkg/blend.py"]},
                                   [("up", {k: v for k, v in rare.items() if k.startswith("up/")})]), "pkg/blend.py")
    assert set(frame.loc[group, "match"]) == {"verbatim"}
    marker = "# Copied from https://github.com/example/up/blob/v1.0/up/blend.py\n"
    target, up, group = _group_pair(marker)
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert frame.loc[1, "match"] == "none"
    assert set(frame.loc[group, "match"]) == {"verbatim"}


def test_a_group_alone_in_an_attributed_file_is_judged(run_compare: Runner) -> None:
    """pip 24.2's ``metadata/base.py`` names setuptools' ``pkg_resources.to_filename()`` in a
    method's docstring and rewrote that method: its only lines paired with ``pkg_resources/__init__.py``
    were ``import re`` and ``import zipfile``. A file naming the upstream file keeps a group beside
    other lines of that pair (the test above); a group that is all the pair holds is judged as in
    any file (``lone_group_attributed_alone``)."""
    marker = "# Copied from https://github.com/example/up/blob/v1.0/up/blend.py\n"
    gap = MatchParams().lone_group_min_gap + 2
    before = marker + "def own_blend(first_value):\n" + _own("target", gap)
    target = {"pkg/blend.py": before + _GROUP + _own("target_late", gap) + "".join(
        f"\n\ndef own_helper_{k}(depth):\n{_own(f'helper{k}', 4)}" for k in range(12))}
    up = _group_pair()[1]
    group = [len(before.splitlines()) + k for k in (1, 2, 3)]
    kept = run_compare(target, [("up", up)], params=MatchParams(lone_group_attributed_alone=0))
    assert set(file_lines(kept, "pkg/blend.py").loc[group, "match"]) == {"verbatim"}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert set(frame.loc[group, "match"]) == {"none"}
    # with a rare line the group is evidence, and stays
    rare_line = "    shared_helper.flush_buffers(WIDGET_SCALE_FACTOR, blend_only=True)\n"
    rare_up = {k: v.replace("    shared_helper.flush_buffers()\n", rare_line) if k == "up/blend.py" else v
               for k, v in up.items()}
    rare_target = {"pkg/blend.py": target["pkg/blend.py"].replace("    shared_helper.flush_buffers()\n", rare_line)}
    rare = file_lines(run_compare(rare_target, [("up", rare_up)]), "pkg/blend.py")
    assert set(rare.loc[group, "match"]) == {"verbatim"}


def test_a_group_in_a_file_largely_copied_from_its_upstream_file_stays(run_compare: Runner) -> None:
    """Without the target's own functions, a third of its code is paired with the upstream file
    (more than ``lone_group_keep_share``): the file is evidently a copy, and the group stays."""
    target, up, group = _group_pair(own_functions=0)
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert set(frame.loc[group, "match"]) == {"verbatim"}
    strict = run_compare(target, [("up", up)], params=MatchParams(lone_group_keep_share=1.0))
    assert set(file_lines(strict, "pkg/blend.py").loc[group, "match"]) == {"none"}


# -- closing brackets: a ``)`` is copied only with its statement
_BRACKET_UP_OWN = ("    REGISTRY_OF_UPSTREAM.dispatch_widget_event(\n"
                   "        first_value, second_value, mode='upstream-only'\n"
                   "    )\n")
_BRACKET_TARGET_OWN = ("    raise WidgetChannelError(\n"
                       "        f'the target refuses {first_value} and {second_value} here'\n"
                       "    )\n")
_BRACKET_TARGET_COPIED_CALL = ("    REGISTRY_OF_UPSTREAM.dispatch_widget_event(\n"
                               "        first_value, second_value, mode='upstream-only'\n"
                               "    )\n")


def _bracket_pair(own: str) -> tuple[dict[str, str], dict[str, str], int]:
    """A function copied at both ends with one three-line statement between them: upstream's
    own call, and in the target ``own``; returns the line of the target statement's ``)``."""
    up = {"up/blend.py": _LONG_HEAD + _BRACKET_UP_OWN + _LONG_TAIL}
    target = {"pkg/blend.py": _LONG_HEAD + own + _LONG_TAIL}
    return target, up, len((_LONG_HEAD + own).splitlines())


def test_a_closing_bracket_of_the_targets_own_statement_is_not_a_copy(run_compare: Runner) -> None:
    """The ``)`` of the target's own ``raise`` sits where upstream's call closes and is continued
    by the copied tail: with the rule off it is verbatim, with it none; the copied ends stay."""
    target, up, closer = _bracket_pair(_BRACKET_TARGET_OWN)
    off = run_compare(target, [("up", up)], params=MatchParams(lone_closing_brackets=0))
    assert file_lines(off, "pkg/blend.py").loc[closer, "match"] == "verbatim"
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert frame.loc[closer, "match"] == "none"
    assert set(frame.loc[[closer - 3, closer + 1], "match"]) == {"verbatim"}


def test_a_closing_bracket_inside_a_string_of_a_verbatim_copy_stays(run_compare: Runner) -> None:
    """poetry-core vendors packaging's ``specifiers.py`` byte for byte; a ``)`` alone on a line
    of its triple-quoted regex was read as a statement of its own and dropped (413 of 414)."""
    text = (_LONG_HEAD + '    _widget_regex_str = r"""\n        (?P<operator>(==|!=|<=|>=))\n'
            '        (\n            [^,;\\s)]*\n        )\n        """\n' + _LONG_TAIL)
    frame = file_lines(run_compare({"pkg/blend.py": text}, [("up", {"up/blend.py": text})]), "pkg/blend.py")
    code = frame[frame["kind"] == "code"]
    assert (code["match"] == "verbatim").all(), code[code["match"] != "verbatim"]


def test_a_closing_bracket_of_a_copied_statement_stays(run_compare: Runner) -> None:
    """The same place holding upstream's call as it is: the statement's lines are paired, so its
    ``)`` stays verbatim, and so does a signature's ``) -> int:`` whose annotation has brackets."""
    target, up, closer = _bracket_pair(_BRACKET_TARGET_COPIED_CALL)
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert list(frame.loc[[closer - 2, closer - 1, closer], "match"]) == ["verbatim"] * 3
    signature = ("def settle_widget_pairs(\n    first_value: dict[str, int],\n"
                 "    second_value: list[int],\n) -> tuple[int, list[int]]:\n")
    body = "".join(f"    settled_{k} = settle_pair_{k}(first_value, second_value, {k * 7})\n" for k in range(6))
    target, up = {"pkg/settle.py": signature + body}, {"up/settle.py": signature + body}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/settle.py")
    assert frame.loc[4, "match"] == "verbatim"


_NOTED_UP = ('def validate_request_settings(settings, limits):\n'
             '    checked = normalise_request_settings(settings, strict=True)\n'
             '    enforce_request_limits(checked, limits, raise_on_error=True)\n'
             '    # the defaults\n'
             '    retries = 0\n'
             '    log_request_settings_for_debugging(checked, retries, limits)\n'
             '    return build_request_settings_object(checked, retries)\n')
# The fork documented the default with six new comment lines, and replaced the logging call.
_NOTED_TARGET = ('def validate_request_settings(settings, limits):\n'
                 '    checked = normalise_request_settings(settings, strict=True)\n'
                 '    enforce_request_limits(checked, limits, raise_on_error=True)\n'
                 '    # the defaults\n'
                 + "".join(f'    # a new note number {k} on why the retries start where they do\n' for k in range(6))
                 + '    retries = 0\n'
                 '    timeout_seconds = compute_new_timeout_for_the_session(checked)\n'
                 '    register_the_new_timeout_with_the_pool(timeout_seconds)\n'
                 '    return build_request_settings_object(checked, retries)\n')


def test_new_comment_lines_do_not_part_a_copied_line_from_its_neighbour(run_compare: Runner) -> None:
    """``retries = 0`` (short, not evidence alone) follows the copied comment above it across
    six comment lines of the target's own: with lone_skip_comments those do not count, so it is
    continued and stays; counting them, it is lone and dropped."""
    frame = file_lines(run_compare({"pkg/settings.py": _NOTED_TARGET}, [("up", {"pkg/settings.py": _NOTED_UP})]),
                       "pkg/settings.py")
    assert frame.loc[11, "match"] == "verbatim" and int(frame.loc[11, "upstream_line"]) == 5
    assert set(frame.loc[5:10, "match"]) == {"none"}
    off = run_compare({"pkg/settings.py": _NOTED_TARGET}, [("up", {"pkg/settings.py": _NOTED_UP})],
                      params=MatchParams(lone_skip_comments=0))
    assert file_lines(off, "pkg/settings.py").loc[11, "match"] == "none"


# A module whose functions are copied, and whose imports the copy keeps, each with the target's
# own imports around it (isort put them apart). Four other upstream files import the same
# modules, so a lone ``import json`` is a common form: evidence only through its place.
_IMPORTED = ("json", "os", "sys")
_MODULE_BODY = ("\n\ndef tally_sprocket_orders(first_batch, second_batch):\n"
                "    merged_sprockets = first_batch * 29 + second_batch\n"
                "    trimmed_sprockets = merged_sprockets // 11 - first_batch\n"
                "    if trimmed_sprockets > merged_sprockets:\n"
                "        return trimmed_sprockets * SPROCKET_SCALE_FACTOR\n"
                "    return merged_sprockets - SPROCKET_OFFSET_VALUE\n")
_OWN_IMPORTS = [f"import own_module_{k:02d}" for k in range(20)]


def _imports_pair(target_path: str) -> tuple[dict[str, str], dict[str, str], list[int]]:
    """The upstream file ``pkg/sprockets.py`` and a target file at ``target_path`` holding its
    three imports with five own imports on either side of each, then its function; the imports'
    target lines."""
    upstream = {"pkg/sprockets.py": "".join(f"import {m}\n" for m in _IMPORTED) + _MODULE_BODY,
                **{f"pkg/other_{k}.py": "".join(f"import {m}\n" for m in _IMPORTED) + f"\n\nVALUE_{k} = {k}\n"
                   for k in range(4)}}
    head, lines = _among_own_imports([f"import {m}" for m in _IMPORTED])
    return {target_path: "\n".join(head) + "\n" + _MODULE_BODY}, upstream, lines


def _among_own_imports(kept: list[str]) -> tuple[list[str], list[int]]:
    """The three ``kept`` import lines with five of the target's own imports on either side of
    each, and their (1-based) lines."""
    head, lines = [], []
    for k, line in enumerate(kept):
        head += _OWN_IMPORTS[5 * k : 5 * k + 5]
        head.append(line)
        lines.append(len(head))
    return head + _OWN_IMPORTS[15:], lines


def test_a_lone_import_of_the_files_own_upstream_version_stays(run_compare: Runner) -> None:
    """At the upstream file's own path, each lone verbatim import stays copied (a later version of
    the file keeps its imports, wherever isort put them); with ``lone_placed_imports`` off, or in
    a file at another path, such a common lone import is none."""
    target, up, import_lines = _imports_pair("pkg/sprockets.py")
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/sprockets.py")
    assert list(frame.loc[import_lines, "match"]) == ["verbatim"] * 3
    assert list(frame.loc[import_lines, "upstream_line"]) == [1, 2, 3]
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_placed_imports=0)),
                     "pkg/sprockets.py")
    assert list(off.loc[import_lines, "match"]) == ["none"] * 3
    elsewhere, up, import_lines = _imports_pair("tools/sprocket_math.py")
    moved = file_lines(run_compare(elsewhere, [("up", up)]), "tools/sprocket_math.py")
    assert list(moved.loc[import_lines, "match"]) == ["none"] * 3
    # the copied function is found in every variant
    body = len(frame) - 4
    for table in (frame, off, moved):
        assert table.loc[body, "match"] == "verbatim"


def _renamed_package_pair() -> tuple[dict[str, str], dict[str, str], list[int]]:
    """A package ``oldpkg/`` forked as ``newpkg/`` (three modules, their code copied, so the
    folder rename shows), whose ``newpkg/sprockets.py`` keeps three imports of the upstream's as
    the rename and isort left them: ``import newpkg`` <- ``import oldpkg``, ``from
    newpkg.helpers import tally`` <- ``from oldpkg.helpers import tally``, ``from . import
    alpha, zeta`` <- ``from . import zeta, alpha``, each among the fork's own imports; and the
    three imports' target lines."""
    theirs = ["import oldpkg", "from oldpkg.helpers import tally", "from . import zeta, alpha"]
    mine = ["import newpkg", "from newpkg.helpers import tally", "from . import alpha, zeta"]
    bodies = {name: _MODULE_BODY.replace("sprocket", name) for name in ("sprockets", "gears", "pulleys")}
    upstream = {"oldpkg/__init__.py": "", "oldpkg/sprockets.py": "\n".join(theirs) + "\n" + bodies["sprockets"],
                **{f"oldpkg/{name}.py": "import json\n" + body for name, body in bodies.items() if name != "sprockets"}}
    head, lines = _among_own_imports(mine)
    target = {"newpkg/__init__.py": "", "newpkg/sprockets.py": "\n".join(head) + "\n" + bodies["sprockets"],
              **{f"newpkg/{name}.py": "import json\n" + body for name, body in bodies.items() if name != "sprockets"}}
    return target, upstream, lines


def test_a_forks_import_of_its_renamed_package_or_sorted_names_stays(run_compare: Runner) -> None:
    """In a renamed fork's later version of a file, an import that is the upstream's but for
    the package rename or the order of its names is paired with it, each lone among the fork's
    own imports (``lone_placed_import_variants``); with the rule off, none."""
    target, up, import_lines = _renamed_package_pair()
    frame = file_lines(run_compare(target, [("up", up)]), "newpkg/sprockets.py")
    assert list(frame.loc[import_lines, "match"]) == ["near"] * 3
    assert list(frame.loc[import_lines, "upstream_line"]) == [1, 2, 3]
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_placed_import_variants=0)),
                     "newpkg/sprockets.py")
    assert list(off.loc[import_lines, "match"]) == ["none"] * 3
    assert off.loc[len(off) - 4, "match"] == frame.loc[len(frame) - 4, "match"] == "verbatim"  # the code


def test_a_script_beside_a_renamed_package_imports_it_renamed(run_compare: Runner) -> None:
    """A fork that renamed its one package (``oldpkg/`` -> ``newpkg/``) keeps a script folder and a
    top-level module beside it (ssh 1.8.0 <- paramiko 1.8.0's ``demos/``, ``test.py``): the two
    trees differ in one top-level name each, so ``import newpkg`` in ``demos/sprockets.py`` is the
    upstream's ``import oldpkg`` but for the rename (``import_tree_rename``), paired near as in the
    package's own files; with the rule off, the upstream's several top-level names leave the
    rename untold and both imports are none."""
    theirs = ["import oldpkg", "from oldpkg.helpers import tally", "from . import zeta, alpha"]
    mine = ["import newpkg", "from newpkg.helpers import tally", "from . import alpha, zeta"]
    bodies = {name: _MODULE_BODY.replace("sprocket", name) for name in ("sprockets", "gears", "pulleys")}
    runner = "import sys\n\n\ndef main():\n    return sys.argv\n"
    upstream = {"oldpkg/__init__.py": "", "demos/sprockets.py": "\n".join(theirs) + "\n" + bodies["sprockets"],
                "runner.py": runner,
                **{f"oldpkg/{name}.py": "import json\n" + body for name, body in bodies.items() if name != "sprockets"}}
    head, lines = _among_own_imports(mine)
    target = {"newpkg/__init__.py": "", "demos/sprockets.py": "\n".join(head) + "\n" + bodies["sprockets"],
              "runner.py": runner,
              **{f"newpkg/{name}.py": "import json\n" + body for name, body in bodies.items() if name != "sprockets"}}
    frame = file_lines(run_compare(target, [("up", upstream)]), "demos/sprockets.py")
    assert list(frame.loc[lines, "match"]) == ["near"] * 3
    assert list(frame.loc[lines, "upstream_line"]) == [1, 2, 3]
    off = file_lines(run_compare(target, [("up", upstream)], params=MatchParams(import_tree_rename=0)),
                     "demos/sprockets.py")
    assert list(off.loc[lines, "match"]) == ["none", "none", "near"]


def test_an_import_below_a_renamed_subpackage_stays(run_compare: Runner) -> None:
    """A project that moved one of its upstream's two top packages below a package of its own
    (lightning 2.4.0's ``lightning/pytorch/`` <- pytorch-lightning's ``pytorch_lightning/``, the
    upstream also holding ``lightning_fabric/``): ``from newpkg.gears.helpers import tally`` <-
    ``from oldgears.helpers import tally``, lone among the file's own imports, is the upstream's
    import but for the folder rename (``lone_placed_import_variants``), paired near with it. The
    top-package rule cannot read this rename (two upstream packages, and the module's first
    component is no package of the upstream); before, it was none."""
    theirs = ["import json", "from oldgears.helpers import tally", "import csv"]
    mine = ["import json", "from newpkg.gears.helpers import tally", "import csv"]
    bodies = {name: _MODULE_BODY.replace("sprocket", name) for name in ("sprockets", "gears", "pulleys")}
    upstream = {"oldgears/__init__.py": "", "otherpkg/__init__.py": "", "otherpkg/unrelated.py": "VALUE = 1\n",
                "oldgears/sprockets.py": "\n".join(theirs) + "\n" + bodies["sprockets"],
                **{f"oldgears/{name}.py": "import json\n" + body for name, body in bodies.items()
                   if name != "sprockets"}}
    head, lines = _among_own_imports(mine)
    target = {"newpkg/__init__.py": "", "newpkg/gears/__init__.py": "",
              "newpkg/gears/sprockets.py": "\n".join(head) + "\n" + bodies["sprockets"],
              **{f"newpkg/gears/{name}.py": "import json\n" + body for name, body in bodies.items()
                 if name != "sprockets"}}
    frame = file_lines(run_compare(target, [("up", upstream)]), "newpkg/gears/sprockets.py")
    assert frame.loc[lines[1], "match"] == "near"
    assert frame.loc[lines[1], "upstream_line"] == 2
    off = file_lines(run_compare(target, [("up", upstream)], params=MatchParams(lone_placed_import_variants=0)),
                     "newpkg/gears/sprockets.py")
    assert off.loc[lines[1], "match"] == "none"


def test_a_shared_path_alone_keeps_no_lone_import(run_compare: Runner) -> None:
    """Two unrelated ``setup.py`` files share a path and a few imports, nothing else: the place
    is no link, so the imports, each lone among the target's own, are none."""
    up = {"setup.py": "import os\nimport sys\n\nfrom setuptools import find_packages, setup\n\n"
                      "setup(name='upstream_widgets', packages=find_packages(), zip_safe=False)\n",
          **{f"pkg/other_{k}.py": "import os\nimport sys\n\nfrom setuptools import find_packages, setup\n"
             for k in range(4)}}
    own = [f"import own_module_{k:02d}" for k in range(18)]
    lines = own[:5] + ["import os"] + own[5:10] + ["import sys"] + own[10:15] + [
        "from setuptools import find_packages, setup"] + own[15:] + [
        "", "setup(name='sprocket_tools', version=read_version(), install_requires=REQUIRES)"]
    frame = file_lines(run_compare({"setup.py": "\n".join(lines) + "\n"}, [("up", up)]), "setup.py")
    assert set(frame["match"]) == {"none"}


_LEN_HEAD = ("def measure_stream_length(stream):\n"
             "    total_length_so_far = compute_initial_offset(stream.position)\n"
             "    current_marker = stream.checkpoint_marker_value\n")
_LEN_TAIL = ("    remaining_length = max(0, total_length_so_far - current_marker)\n"
             "    return finalize_length_report(remaining_length, stream)\n")
# Other upstream files writing ``if hasattr(x, "y"):``: the edited line's shape is common.
_HASATTR = {f"pkg/probe_{k}.py": f"def probe_{k}(obj):\n    if hasattr(obj, 'field_{k}'):\n        return {k}\n"
            for k in range(5)}
_LEN_OWN = "".join(f"    step_{k} = inspect_stream_part(stream, part={k})\n" for k in range(6))
_LEN_UP_OWN = "".join(f"    legacy_{k} = legacy_stream_probe(stream, {k})\n" for k in range(6))


def test_a_lone_near_line_that_only_lost_or_gained_tokens_is_rare_by_its_text(run_compare: Runner) -> None:
    """``if hasattr(stream, "__len__"):`` <- ``if hasattr(stream, '__len__'):``, alone between
    the fork's own lines: its shape (``if I(I, S):``) stands in six upstream files, its text in
    none, and the upstream line in one. An edit that renamed nothing is rare by its text
    (``lone_near_text_rarity``); off, the shape's count drops it. A line with a name renamed
    is still judged by its shape, and dropped."""
    up = {"pkg/lengths.py": _LEN_HEAD + _LEN_UP_OWN + "    if hasattr(stream, '__len__'):\n" + _LEN_UP_OWN + _LEN_TAIL,
          **_HASATTR}
    target = {"pkg/lengths.py": _LEN_HEAD + _LEN_OWN + '    if hasattr(stream, "__len__"):\n' + _LEN_OWN + _LEN_TAIL}
    line = (_LEN_HEAD + _LEN_OWN).count("\n") + 1
    assert file_lines(run_compare(target, [("up", up)]), "pkg/lengths.py").loc[line, "match"] == "near"
    off = run_compare(target, [("up", up)], params=MatchParams(lone_near_text_rarity=0))
    assert file_lines(off, "pkg/lengths.py").loc[line, "match"] == "none"
    renamed = {"pkg/lengths.py": _LEN_HEAD + _LEN_OWN + '    if hasattr(streamx, "__len__"):\n' + _LEN_OWN + _LEN_TAIL}
    assert file_lines(run_compare(renamed, [("up", up)]), "pkg/lengths.py").loc[line, "match"] == "none"
    unjudged = run_compare(renamed, [("up", up)], params=MatchParams(lone_rule=0))  # paired, then dropped
    assert file_lines(unjudged, "pkg/lengths.py").loc[line, "match"] == "near"


_IMPORT_UP = ("from .helpers import (guess_filename, get_auth_from_url, requote_uri,\n"
              "    stream_decode_response_unicode, to_key_val_list, parse_header_links,\n"
              "    iter_slices, guess_json_utf, super_len, to_native_string)\n")
_SORTED_NAMES = ["check_header_validity", "get_auth_from_url", "guess_filename", "guess_json_utf", "iter_slices",
                 "parse_header_links", "requote_uri", "stream_decode_response_unicode", "super_len", "to_key_val_list"]
_IMPORT_SORTED = "from .helpers import (\n" + "".join(f"    {name},\n" for name in _SORTED_NAMES) + ")\n"
_DECODER = ("\n\nclass ResponseDecoder:\n"
            "    def decode_chunks(self, chunks):\n"
            "        decoded = stream_decode_response_unicode(chunks, self.owner_response)\n"
            "        return list(iter_slices(decoded, self.slice_length))\n")


def test_the_resorted_items_of_an_exploded_import_stay_with_their_statement(run_compare: Runner) -> None:
    """isort exploded an import one name a line and sorted the names: each piece names the
    upstream line holding its name, out of order, and one of them (``parse_header_links,``) is
    continued by no neighbour. In the file's later version (the same path) the pieces of one
    statement paired with one upstream statement continue each other (``lone_statement_pieces``);
    the name the fork added (``check_header_validity,``) stays none."""
    up = {"pkg/models.py": "import datetime\n" + _IMPORT_UP + _DECODER}
    target = {"pkg/models.py": "import datetime\n" + _IMPORT_SORTED + _DECODER}
    items = range(4, 13)
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/models.py")
    assert set(frame.loc[items, "match"]) == {"near"}
    assert frame.loc[3, "match"] == "none"
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_statement_pieces=0)), "pkg/models.py")
    assert off.loc[8, "match"] == "none"


_DECORATED_HEAD = ("class WidgetRegistry:\n"
                   "    def register_widget_channel(self, first_value, second_value):\n"
                   "        combined_total = first_value * 31 + second_value\n"
                   "        scaled_result = combined_total // 7 - first_value\n"
                   "        return self._store_widget_result(scaled_result, combined_total)\n"
                   "\n")
_DECORATED_TAIL = ("\n"
                   "    @property\n"
                   "    def registered_widget_count(self):\n"
                   "        return len(self._registered_widget_channels_by_id)\n")


def test_a_decorator_is_copied_only_with_its_definition(run_compare: Runner) -> None:
    """The fork put a property of its own where upstream had another: its ``@property`` (line 7)
    sits on the copy's diagonal and is verbatim with lone_decorators off, none with it on (its
    ``def`` is the fork's own); a property copied whole keeps its decorator."""
    up = {"up/registry.py": _DECORATED_HEAD + "    @property\n    def upstream_only_name(self):\n"
          "        return self._upstream_private_registry_lookup_table\n" + _DECORATED_TAIL}
    target = {"pkg/widgets.py": _DECORATED_HEAD + "    @property\n    def trail(self) -> Dict[str, List[AuditEvent]]:\n"
              + "".join(f"        step_{k} = self._audit_stage_{k}(events_seen_{k})\n" for k in range(14))
              + "        return step_13\n" + _DECORATED_TAIL}
    # (lines 26-27 are lone survivors: paired in this pair of two places only without
    # survivor_place_or_marker, which this test of the decorator rule sets aside)
    anywhere = MatchParams(survivor_place_or_marker=0)
    off = file_lines(run_compare(target, [("up", up)], params=replace(anywhere, lone_decorators=0)), "pkg/widgets.py")
    assert off.loc[7, "match"] == "verbatim" and off.loc[8, "match"] == "none"
    frame = file_lines(run_compare(target, [("up", up)], params=anywhere), "pkg/widgets.py")
    assert frame.loc[7, "match"] == "none"
    assert list(frame.loc[[26, 27], "match"]) == ["verbatim"] * 2
    # a copied property keeps its decorator
    copied = file_lines(run_compare({"pkg/widgets.py": up["up/registry.py"]}, [("up", up)]), "pkg/widgets.py")
    assert list(copied.loc[[7, 8, 11, 12], "match"]) == ["verbatim"] * 4


_CLIENT_UP = ("class HTTPClient:\n"
              "    def __init__(self, connector=None, proxy=None):\n"
              "        self.connector = connector\n"
              "        self.proxy_for_everything = proxy\n"
              "        self._locks_for_routes = weakref.WeakValueDictionary()\n\n"
              "    def sync_template(self, guild_id, code):\n"
              "        return self.request(Route('PUT', '/guilds/{guild_id}/templates/{code}', guild_id=guild_id))\n\n"
              "    def close_every_session_now(self):\n"
              "        if self.__session_is_open:\n"
              "            await_the_closing_of_the_session(self.__session)\n")
_CLIENT_TARGET = ("class HTTPClient:\n"
                  "    def __init__(self, connector=None, proxy=None):\n"
                  "        self.connector = connector\n"
                  "        self.proxy_for_everything = proxy\n"
                  "        self._locks_for_routes = weakref.WeakValueDictionary()\n\n"
                  + "".join(f"    def brand_new_method_{k}(self, alpha):\n"
                            f"        return compute_alpha_things_{k}(alpha) * {k + 3}\n\n" for k in range(4))
                  + "    def sync_template(self, guild_id: Snowflake, code: str) -> Response[TemplatePayload]:\n"
                  "        route = build_the_new_route_object(guild_id, code)\n"
                  "        return self.request_with_retries(route, attempts=5)\n\n"
                  + "".join(f"    def other_new_method_{k}(self, beta):\n"
                            f"        return compute_beta_things_{k}(beta) - {k + 7}\n\n" for k in range(4))
                  + "    def close_every_session_now(self):\n"
                  "        if self.__session_is_open:\n"
                  "            await_the_closing_of_the_session(self.__session)\n")


def test_a_later_signature_of_the_files_own_method_is_evidence(run_compare: Runner) -> None:
    """At the file's own path, the annotated header of ``sync_template`` (its body rewritten,
    new methods on both sides) names the upstream header of the same name, each defined once:
    near with lone_placed_headers, none without it (a lone near line under 0.8 similar)."""
    target, up = {"pkg/http.py": _CLIENT_TARGET}, {"pkg/http.py": _CLIENT_UP}
    header = _CLIENT_TARGET.splitlines().index(
        "    def sync_template(self, guild_id: Snowflake, code: str) -> Response[TemplatePayload]:") + 1
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/http.py")
    assert frame.loc[header, "match"] == "near" and int(frame.loc[header, "upstream_line"]) == 7
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_placed_headers=0)), "pkg/http.py")
    assert off.loc[header, "match"] == "none"


def test_a_matrix_product_continuation_is_no_decorator(run_compare: Runner) -> None:
    """A copied statement whose second line starts with ``@`` (the matrix product) keeps that
    line: only ``@`` followed by a name is a decorator for lone_decorators."""
    body = ("    def attend_to_the_keys(self, scaled_query_states, key_states):\n"
            "        attention_scores = (scaled_query_states\n"
            "                            @ key_states.transpose(-1, -2).contiguous())\n")
    up = {"up/attn.py": _DECORATED_HEAD + body + "        return attention_scores.softmax(dim=-1)\n"}
    target = {"pkg/attn.py": _DECORATED_HEAD + body + "        return my_own_normaliser(attention_scores, 0.125)\n"}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/attn.py")
    assert list(frame.loc[[7, 8, 9], "match"]) == ["verbatim"] * 3


_CERT_UP = ("import os\n\n\n"
            "def cert_verify_of_the_adapter(conn, url, verify, cert):\n"
            "    if url.lower().startswith('https') and verify:\n"
            "        cert_loc = None\n"
            "        if verify is not True:\n"
            "            cert_loc = verify\n"
            "        if not cert_loc:\n"
            "            cert_loc = DEFAULT_CA_BUNDLE_PATH_OF_REQUESTS\n"
            "        if not cert_loc:\n"
            "            raise Exception('Could not find a suitable SSL CA certificate bundle.')\n"
            "        conn.cert_reqs = 'CERT_REQUIRED'\n"
            "        conn.ca_certs = cert_loc\n"
            "    else:\n"
            "        conn.cert_reqs = 'CERT_NONE'\n"
            "        conn.ca_certs = None\n")
# requests 2.32.3: the CA path may be a folder; a new ``if``/``else:`` one level in.
_CERT_TARGET = _CERT_UP.replace("        conn.ca_certs = cert_loc\n    else:\n",
                                "        if not os.path.isdir(cert_loc):\n"
                                "            conn.ca_certs = cert_loc\n"
                                "        else:\n"
                                "            conn.ca_cert_dir = cert_loc\n"
                                "    else:\n")


def test_an_else_is_copied_only_with_its_compound_statement(run_compare: Runner) -> None:
    """The new inner ``else:`` (line 16) stands where the gap alignment finds the upstream's
    outer ``else:`` (15): verbatim with lone_clauses off, none with it on (its ``if`` is new,
    its body too); the copied lines around it stay."""
    target, up = {"pkg/adapters.py": _CERT_TARGET}, {"pkg/adapters.py": _CERT_UP}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_clauses=0)), "pkg/adapters.py")
    assert off.loc[16, "match"] == "verbatim" and int(off.loc[16, "upstream_line"]) == 15
    on = file_lines(run_compare(target, [("up", up)]), "pkg/adapters.py")
    assert on.loc[16, "match"] == "none"
    assert list(on.loc[[13, 15, 19, 20], "match"]) == ["verbatim"] * 4


def test_an_else_after_a_new_elif_stays_by_its_body(run_compare: Runner) -> None:
    """A new ``elif`` before a copied ``else:``: the header above the ``else:`` is the new
    ``elif``, but the first line of its block is paired inside the upstream ``else:``'s block,
    so it stays."""
    up = ("def choose_the_timeout_of_request(stream, timeout_value):\n"
          "    prepared_chunked_value = compute_the_chunked_flag(stream, timeout_value)\n"
          "    if stream:\n"
          "        timeout = TimeoutSauce(connect=timeout_value)\n"
          "    else:\n"
          "        timeout = TimeoutSauce(connect=timeout_value, read=timeout_value)\n"
          "    return prepared_chunked_value, timeout\n")
    target = up.replace("    if stream:\n        timeout = TimeoutSauce(connect=timeout_value)\n",
                        "    if isinstance(timeout_value, tuple):\n"
                        "        connect, read = timeout_value\n"
                        "    elif isinstance(timeout_value, TimeoutSauce):\n"
                        "        pass\n")
    frame = file_lines(run_compare({"pkg/t.py": target}, [("up", {"pkg/t.py": up})]), "pkg/t.py")
    assert frame.loc[7, "match"] == "verbatim" and int(frame.loc[7, "upstream_line"]) == 5
    assert frame.loc[8, "match"] == "verbatim"


def test_a_closing_bracket_dropped_in_the_same_pass_does_not_shelter_a_group(run_compare: Runner) -> None:
    """The fill pairs the ``)`` of the target's own ``raise`` with the ``)`` of the upstream's own
    call right after the copied head; the common group is within ``lone_group_min_gap`` lines of
    that ``)`` alone. The ``)`` is dropped in the same pass (its statement has no other paired
    line), so it keeps nothing close to the group: the group is isolated and goes."""
    min_gap = MatchParams().lone_group_min_gap
    gap = min_gap + 2
    up = {"up/blend.py": _LONG_HEAD + _BRACKET_UP_OWN + _own("upstream", min_gap - 2) + _GROUP
          + _own("upstream_late", gap) + _LONG_TAIL, **_GROUP_COMMON}
    before = _LONG_HEAD + _BRACKET_TARGET_OWN + _own("target", min_gap - 2)
    own = "".join(f"\n\ndef own_helper_{k}(depth):\n{_own(f'helper{k}', 4)}" for k in range(12))
    target = {"pkg/blend.py": before + _GROUP + _own("target_late", gap) + _LONG_TAIL + own}
    closer = len(_LONG_HEAD.splitlines()) + 3
    group = [len(before.splitlines()) + k for k in (1, 2, 3)]
    kept = file_lines(run_compare(target, [("up", up)], params=MatchParams(lone_closing_brackets=0)), "pkg/blend.py")
    assert kept.loc[closer, "match"] != "none"  # position pairs the ``)``
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/blend.py")
    assert frame.loc[closer, "match"] == "none"
    assert set(frame.loc[group, "match"]) == {"none"}


def test_a_rare_statement_re_wrapped_alone_is_judged_as_the_statement(run_compare: Runner) -> None:
    """A rare upstream statement that the fork annotated and Black exploded over three lines,
    alone among the fork's own lines: each piece alone is under ``lone_near_min_similarity``
    (the head gained an annotation, the middle line is a fragment, the last a bracket), the
    statement re-joined without its annotation is the upstream line but for its quotes, so the
    unit is evidence as that statement (``lone_unit_statement``); with the rule off the lone-line
    rule drops it."""
    line = "    remembered_mentions = getattr(self_state, 'allowed_mentions_setting', None)"
    up = {"up/blend.py": _COPIED_HEAD + _UPSTREAM_OWN.replace("    shared_helper.reset_state()", line)
          + _COPIED_TAIL, **_COMMON}
    wrapped = ("    remembered_mentions: Optional[MentionSettings] = getattr(\n"
               '        self_state, "allowed_mentions_setting", None\n'
               "    )\n")
    own = _TARGET_OWN.replace("    shared_helper.reset_state()\n", wrapped)
    target = {"pkg/blend.py": _COPIED_HEAD + own + _COPIED_TAIL}
    first = (_COPIED_HEAD + own).splitlines().index(wrapped.splitlines()[0]) + 1
    pieces = [first, first + 1, first + 2]
    frame = file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/blend.py")
    assert set(frame.loc[pieces, "match"]) == {"near"}
    assert set(frame.loc[pieces, "upstream_line"]) == {(_COPIED_HEAD + _UPSTREAM_OWN).splitlines().index(
        "    shared_helper.reset_state()") + 1}
    # the two worded pieces are each too unlike the upstream line to stand alone
    assert (frame.loc[pieces[:2], "similarity"] < MatchParams().lone_near_min_similarity).all()
    off = file_lines(run_compare(target, [("up", up)], params=replace(WEAK_OFF, lone_unit_statement=0)),
                     "pkg/blend.py")
    assert set(off.loc[pieces, "match"]) == {"none"}


# A method copied with its first branch: the upstream kept adding branches before its last line,
# the target left them out, so the target's ``return None`` follows its neighbour's partner seven
# upstream lines further down. A verbatim method copied after it (the upstream holds a method of its
# own between them) makes ``return None`` a line of a region's gap. ``return None`` ends functions
# in other upstream files too: no evidence alone.
_PICK_HEAD = ("class QuantConfigForWidgets:\n"
              "    def pick_quant_method(self, layer, prefix):\n"
              "        if isinstance(layer, LinearBaseWidget):\n"
              "            if widget_layer_is_skipped(prefix, self.ignored_layers, mapping=self.packed):\n"
              "                return UnquantizedWidgetMethod()\n"
              "            return QuantWidgetLinearMethod(self)\n")
_PICK_UPSTREAM_BRANCHES = ("        elif isinstance(layer, RoutedWidgetExperts):\n"
                           "            if widget_layer_is_skipped(prefix, self.ignored_layers, mapping=self.packed):\n"
                           "                return UnquantizedWidgetExperts(layer.moe_config)\n"
                           "            return QuantWidgetExpertsMethod(self, layer)\n"
                           "        elif isinstance(layer, WidgetAttention):\n"
                           "            return QuantWidgetCacheMethod(self)\n")
_PICK_END = "        return None\n"
# A method only the upstream has, between the copied method and the next copied one.
_PICK_UPSTREAM_METHOD = ("\n    @staticmethod\n"
                         "    def widget_cache_scale_mapper() -> WidgetMapper:\n"
                         "        suffix_table = {'.k_scale': '.attn.k_scale', '.v_scale': '.attn.v_scale'}\n"
                         "        return WidgetMapper(orig_to_new_suffix=suffix_table)\n")
_PICK_AFTER = ("\n    def widget_scale_names(self) -> list[str]:\n"
               "        scale_names = [name for name in self.widget_scales if name.endswith('_scale')]\n"
               "        scale_names.sort(key=lambda name: (len(name), name))\n"
               "        return scale_names + list(WIDGET_EXTRA_SCALE_NAMES)\n")
_NONE_ENDS = {f"up/other_{k}.py": f"def other_{k}(value):\n    if value:\n        return {k}\n    return None\n"
              for k in range(5)}


def test_the_last_line_of_a_copied_function_stays_with_it(run_compare: Runner) -> None:
    """``return None``, the last line of the copied method's body, named by the last line of the
    upstream method's body, the two headers paired and the body's first branch paired in order:
    verbatim with lone_def_ends, none without it (lone, and common)."""
    up = {"up/quant.py": _PICK_HEAD + _PICK_UPSTREAM_BRANCHES + _PICK_END + _PICK_UPSTREAM_METHOD + _PICK_AFTER,
          **_NONE_ENDS}
    target = {"pkg/quant.py": _PICK_HEAD + _PICK_END + _PICK_AFTER}
    end = len(_PICK_HEAD.splitlines()) + 1
    up_end = len((_PICK_HEAD + _PICK_UPSTREAM_BRANCHES).splitlines()) + 1
    frame = file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/quant.py")
    assert frame.loc[end, "match"] == "verbatim" and int(frame.loc[end, "upstream_line"]) == up_end
    off = file_lines(run_compare(target, [("up", up)], params=replace(WEAK_OFF, lone_def_ends=0)), "pkg/quant.py")
    assert off.loc[end, "match"] == "none"
    assert set(off.loc[range(1, end), "match"]) == {"verbatim"}


def test_a_function_end_without_its_body_is_no_copy(run_compare: Runner) -> None:
    """The same header and ``return None``, but the target's body is its own: nothing of it is
    paired inside the upstream body, so the last line stays none with lone_def_ends."""
    own_body = ("class QuantConfigForWidgets:\n"
                "    def pick_quant_method(self, layer, prefix):\n"
                "        registry_entry = self.local_registry.lookup_entry(prefix, default_entry=None)\n"
                "        if registry_entry is not None and registry_entry.enabled_for(layer):\n"
                "            return registry_entry.build_method(layer, prefix=prefix)\n")
    up = {"up/quant.py": _PICK_HEAD + _PICK_UPSTREAM_BRANCHES + _PICK_END + _PICK_UPSTREAM_METHOD + _PICK_AFTER,
          **_NONE_ENDS}
    target = {"pkg/quant.py": own_body + _PICK_END + _PICK_AFTER}
    end = len(own_body.splitlines()) + 1
    frame = file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/quant.py")
    assert frame.loc[end, "match"] == "none"
    assert frame.loc[end + 2, "match"] == "verbatim"  # the method copied after it


# The same method with its header exploded over lines (Black): the parameter lines are the
# header's, not its body's.
_PICK_EXPLODED = ("class QuantConfigForWidgets:\n"
                  "    def pick_quant_method(\n"
                  "        self,\n"
                  "        layer: LinearBaseWidget,\n"
                  "        prefix: str,\n"
                  "    ) -> QuantWidgetMethodBase | None:\n")


def test_an_exploded_header_is_no_body_for_a_function_end(run_compare: Runner) -> None:
    """The header exploded over lines and paired whole, the body the target's own: the header's
    parameter lines are no line of the body paired inside the upstream body, so ``return None``
    stays none with lone_def_ends; with the first branch copied below the same header it is kept."""
    own_body = ("        registry_entry = self.local_registry.lookup_entry(prefix, default_entry=None)\n"
                "        if registry_entry is not None and registry_entry.enabled_for(layer):\n"
                "            return registry_entry.build_method(layer, prefix=prefix)\n")
    branch = _PICK_HEAD.split("\n", 2)[2]  # the first branch, below the one-line header
    up = {"up/quant.py": _PICK_EXPLODED + branch + _PICK_UPSTREAM_BRANCHES + _PICK_END + _PICK_UPSTREAM_METHOD
          + _PICK_AFTER, **_NONE_ENDS}
    target = {"pkg/quant.py": _PICK_EXPLODED + own_body + _PICK_END + _PICK_AFTER}
    end = len((_PICK_EXPLODED + own_body).splitlines()) + 1
    frame = file_lines(run_compare(target, [("up", up)], params=WEAK_OFF), "pkg/quant.py")
    assert set(frame.loc[range(2, 7), "match"]) == {"verbatim"}  # the header, paired whole
    assert frame.loc[end, "match"] == "none"
    copied = {"pkg/quant.py": _PICK_EXPLODED + branch + _PICK_END + _PICK_AFTER}
    end = len((_PICK_EXPLODED + branch).splitlines()) + 1
    frame = file_lines(run_compare(copied, [("up", up)], params=WEAK_OFF), "pkg/quant.py")
    assert frame.loc[end, "match"] == "verbatim"
    off = file_lines(run_compare(copied, [("up", up)], params=replace(WEAK_OFF, lone_def_ends=0)), "pkg/quant.py")
    assert off.loc[end, "match"] == "none"  # kept by the rule, not by its neighbours
