"""Tests for lineage.match.fill: alignment inside an established file pair, and lone survivors.

Each case is a small hand-made pair of trees whose truth is in its construction (which lines
were kept from upstream); the rules' thresholds come from MatchParams, never typed in here.
"""

from __future__ import annotations

import random

import pandas as pd
import treegen
from conftest import Runner, file_lines
from hypothesis import given
from hypothesis import strategies as st

from lineage.index import CODE, DOCSTRING
from lineage.match import MatchParams, same_paths
from lineage.match.fill import fold_form, increasing_pairs
from lineage.match.imports import import_module, unvendored_import

_HEAD = ('def encode_block(value, strict=True):\n'
         '    """Encode one block through the lookup table."""\n'
         '    checked = validate_block_input(value, strict=strict)\n'
         '    return lookup_table_entry(checked, BLOCK_TABLE)\n\n\n')
_TAIL = ('\n\ndef decode_block(encoded, strict=True):\n'
         '    """Decode one block through the lookup table."""\n'
         '    position = BLOCK_TABLE.index(encoded)\n'
         '    return restore_block_value(position, strict=strict)\n')


def _table(rows: list[str]) -> str:
    return "BLOCK_TABLE = [\n" + "".join(f"    {r}\n" for r in rows) + "]\n"


def _verbatim_rows_are_exact(frame: pd.DataFrame, target: str, upstream: str) -> None:
    t_lines, u_lines = target.splitlines(), upstream.splitlines()
    for row in frame[frame["match"] == "verbatim"].itertuples():
        assert t_lines[row.line - 1].strip() == u_lines[int(row.upstream_line) - 1].strip()


def test_repetitive_table_rows_between_two_regions_are_copied(run_compare: Runner) -> None:
    """Rows of one repeated form seed nothing (seed_max_per_file), and three new rows cut the
    table so no region reaches its middle; between the regions before and after it, every old
    row aligns in order and is copied, a re-quoted row near; the new rows stay none."""
    old_rows = ["0,", "1,", "0,", "'x',"] * 10
    new_rows = list(old_rows)
    new_rows[3] = '"x",'  # a formatter changed the quotes
    for at, row in ((31, "255,"), (17, "254,"), (0, "253,")):
        new_rows.insert(at, row)
    upstream_text = _HEAD + _table(old_rows) + _TAIL
    target_text = _HEAD + _table(new_rows) + _TAIL
    up = {"up/blocks.py": upstream_text}
    comparison = run_compare({"mine/blocks.py": target_text}, [("up", up)])
    frame = file_lines(comparison, "mine/blocks.py")
    first = _HEAD.count("\n") + 2  # first table row
    rows = frame[(frame["line"] >= first) & (frame["line"] < first + len(new_rows))]
    new = {first + k for k, r in enumerate(new_rows) if r in ("253,", "254,", "255,")}
    assert set(rows[rows["line"].isin(new)]["match"]) == {"none"}
    old = rows[~rows["line"].isin(new)]
    assert len(old) == len(old_rows)
    assert list(old["upstream_line"].astype(int)) == [first + k for k in range(len(old_rows))]
    requoted = first + 1 + 3  # after the new row at 0
    assert old.loc[requoted, "match"] == "near"
    assert set(old.drop(index=requoted)["match"]) == {"verbatim"}
    _verbatim_rows_are_exact(frame, target_text, upstream_text)
    # The rule, not some other one, found them: with the alignment off, the middle stays none.
    # (The table is one statement of 43 lines, within the statement rule's reach since its limit
    # is 80 lines: that rule pairs the rows too, so it is off in both runs here.)
    alone = run_compare({"mine/blocks.py": target_text}, [("up", up)], params=MatchParams(fill_statement_max_lines=0))
    assert list(file_lines(alone, "mine/blocks.py")["match"]) == list(frame["match"])
    off = run_compare({"mine/blocks.py": target_text}, [("up", up)],
                      params=MatchParams(align_max_gap=0, fill_statement_max_lines=0))
    middle = file_lines(off, "mine/blocks.py").loc[first + 10 : first + 14]
    assert set(middle["match"]) == {"none"}


_REWRITTEN_UP = ('import socket\n\n\n'
                 'class Transport:\n'
                 '    def __init__(self, host, port):\n'
                 '        self.address = (host, port)\n'
                 '        self.sock = None\n\n'
                 '    def send_request(self, method, url, timeout=None):\n'
                 '        if self.sock is None:\n'
                 '            self.sock = socket.create_connection(self.address)\n'
                 '        else:\n'
                 '            return None\n'
                 '        raise ConnectionError("the server closed the connection early")\n')
_REWRITTEN_TARGET = ('import asyncio\n\n\n'
                     'class Transport:\n'
                     '    """Asynchronous now."""\n\n'
                     '    def __init__(self, loop):\n'
                     '        self.loop = loop\n\n'
                     '    def send_request(self, method, url, retries=3):\n'
                     '        pending = self.loop.create_future()\n'
                     '        if pending.done():\n'
                     '            return pending.result()\n'
                     '        else:\n'
                     '            return None\n'
                     '        raise ConnectionError("the server closed the connection early")\n')
# The class line and the raise: identical, distinctive, in order, but too light together for a
# region; ``else:`` / ``return None`` are identical too, but not distinctive.
_SURVIVORS = {4, 16}


# The survivors alone: with fill_leading_survivor_anchors (on by default) they would anchor
# the alignment of the lines between them in a file of the upstream file's own name (below).
# The signature survivors would pair the two edited signatures as well (``Transport.__init__``
# by its class, ``send_request`` by its name line): off here, these tests are of the lone ones.
_NO_SIGNATURE_LINES = {"fill_signature_name_line": 0, "fill_signature_same_class_dunders": 0}
_SURVIVORS_ONLY = MatchParams(fill_leading_survivor_anchors=0, **_NO_SIGNATURE_LINES)
# ... which then pairs the edited signatures between them and the ``else:`` / ``return None``
# standing in order between those.
_BETWEEN_SURVIVORS = {7: ("near", 5), 10: ("near", 9), 14: ("verbatim", 12), 15: ("verbatim", 13)}


def test_lone_survivors_of_a_rewritten_file_at_the_same_path(run_compare: Runner) -> None:
    comparison = run_compare({"pkg/transport.py": _REWRITTEN_TARGET},
                             [("up", {"pkg/transport.py": _REWRITTEN_UP})], params=_SURVIVORS_ONLY)
    frame = file_lines(comparison, "pkg/transport.py")
    copied = frame[frame["match"] != "none"]
    assert set(copied["line"]) == _SURVIVORS
    assert set(copied["match"]) == {"verbatim"}
    assert list(copied["upstream_line"].astype(int)) == [4, 14]
    assert comparison.regions["evidence_weight"].tolist() == [0.0]  # no seed supports it
    _verbatim_rows_are_exact(frame, _REWRITTEN_TARGET, _REWRITTEN_UP)
    anchored = file_lines(run_compare({"pkg/transport.py": _REWRITTEN_TARGET},
                                      [("up", {"pkg/transport.py": _REWRITTEN_UP})]), "pkg/transport.py")
    copied = anchored[anchored["match"] != "none"]
    assert set(copied["line"]) == _SURVIVORS | set(_BETWEEN_SURVIVORS)
    assert {n: (copied.loc[n, "match"], int(copied.loc[n, "upstream_line"])) for n in _BETWEEN_SURVIVORS} \
        == _BETWEEN_SURVIVORS
    _verbatim_rows_are_exact(anchored, _REWRITTEN_TARGET, _REWRITTEN_UP)


def test_a_vendored_copy_has_the_same_relative_path(run_compare: Runner) -> None:
    comparison = run_compare({"app/_vendor/pkg/transport.py": _REWRITTEN_TARGET},
                             [("up", {"pkg/transport.py": _REWRITTEN_UP})], params=_SURVIVORS_ONLY)
    copied = file_lines(comparison, "app/_vendor/pkg/transport.py").query("match != 'none'")
    assert set(copied["line"]) == _SURVIVORS


def test_a_marker_naming_the_file_establishes_the_pair(run_compare: Runner) -> None:
    marked = "# Copied from https://github.com/example/pkg/blob/v1.0/pkg/transport.py\n" + _REWRITTEN_TARGET
    comparison = run_compare({"other/wire.py": marked}, [("up", {"pkg/transport.py": _REWRITTEN_UP})])
    copied = file_lines(comparison, "other/wire.py").query("match != 'none'")
    assert set(copied["line"]) == {n + 1 for n in _SURVIVORS}


def test_no_survivors_without_an_established_pair(run_compare: Runner) -> None:
    """Another path, no marker, no region: the same lines prove nothing."""
    comparison = run_compare({"other/wire.py": _REWRITTEN_TARGET}, [("up", {"pkg/transport.py": _REWRITTEN_UP})])
    assert set(comparison.lines["match"]) == {"none"}


def test_survivor_thresholds_come_from_the_params(run_compare: Runner) -> None:
    strict = MatchParams(survivor_min_chars=40, **_NO_SIGNATURE_LINES)  # only the raise line is that long
    comparison = run_compare({"pkg/transport.py": _REWRITTEN_TARGET},
                             [("up", {"pkg/transport.py": _REWRITTEN_UP})], params=strict)
    copied = file_lines(comparison, "pkg/transport.py").query("match != 'none'")
    assert set(copied["line"]) == {16}


_SWAP_A = '    raise ConnectionError("the server closed the connection early")\n'
_SWAP_B = '    raise TimeoutError("the server did not answer in time at all")\n'
_SWAP_UP = "def first_check():\n" + _SWAP_A + "\n\ndef second_check():\n" + _SWAP_B
_SWAP_TARGET = "def first_check():\n    pass\n" + _SWAP_B + "\n\ndef second_check():\n    pass\n" + _SWAP_A


def test_survivors_out_of_order_are_not_both_paired(run_compare: Runner) -> None:
    """Two distinctive lines that swapped places: only one can be in order with the other (the
    in-order rules alone: the moved-lines rule, tested below, off)."""
    comparison = run_compare({"pkg/checks.py": _SWAP_TARGET}, [("up", {"pkg/checks.py": _SWAP_UP})],
                             params=MatchParams(fill_moved_min_alnum=0))
    copied = file_lines(comparison, "pkg/checks.py").query("match != 'none'")
    assert len(copied[copied["kind"] == "code"].query("line in (3, 8)")) == 1


def test_a_line_moved_within_the_file_of_its_own_name_is_paired_out_of_order(run_compare: Runner) -> None:
    """The same two swapped lines: each stands once in each file and is long enough, so the one
    the in-order rules leave none is that line moved, verbatim to its own upstream line."""
    frame = file_lines(run_compare({"pkg/checks.py": _SWAP_TARGET}, [("up", {"pkg/checks.py": _SWAP_UP})]),
                       "pkg/checks.py")
    assert (frame.loc[3, "match"], int(frame.loc[3, "upstream_line"])) == ("verbatim", 6)
    assert (frame.loc[8, "match"], int(frame.loc[8, "upstream_line"])) == ("verbatim", 2)


def test_a_moved_line_is_a_region_of_its_own(run_compare: Runner) -> None:
    """A region's line range says which lines were copied: a moved line far from the copy it
    came with must not stretch that copy's region over the target's own code between them."""
    own = "".join(f"def own_{k}(value):\n    return value * {k} + {k * 7}\n\n\n" for k in range(12))
    target = "def first_check():\n    pass\n" + _SWAP_B + "\n\n" + own + "def second_check():\n    pass\n" + _SWAP_A
    comparison = run_compare({"pkg/checks.py": target}, [("up", {"pkg/checks.py": _SWAP_UP})])
    frame = file_lines(comparison, "pkg/checks.py")
    copied = frame[(frame["kind"] == "code") & (frame["match"] != "none")]
    assert {3, len(target.splitlines())} <= set(copied["line"])  # both swapped lines paired
    own_lines = range(6, 6 + len(own.splitlines()))  # the target's own functions between them
    regions = comparison.regions[comparison.regions["target_path"] == "pkg/checks.py"]
    assert len(regions) >= 2
    for region in regions.itertuples():
        assert region.target_end < own_lines.start or region.target_start >= own_lines.stop, region


def test_a_moved_line_must_stand_once_and_be_long_enough(run_compare: Runner) -> None:
    """A moved line written twice in the target has no one place it came from, and one with
    fewer letters and digits than ``fill_moved_min_alnum`` is written alike by chance: both
    stay to the in-order rules."""
    twice = _SWAP_TARGET + "\n\ndef third_check():\n" + _SWAP_B
    frame = file_lines(run_compare({"pkg/checks.py": twice}, [("up", {"pkg/checks.py": _SWAP_UP})]), "pkg/checks.py")
    copied = frame[(frame["kind"] == "code") & (frame["match"] != "none")]
    assert len(copied.query("line in (3, 8, 13)")) == 1
    alnum = sum(ch.isalnum() for ch in _SWAP_A)  # the longer of the two lines
    strict = MatchParams(fill_moved_min_alnum=alnum + 1)
    frame = file_lines(run_compare({"pkg/checks.py": _SWAP_TARGET}, [("up", {"pkg/checks.py": _SWAP_UP})],
                                   params=strict), "pkg/checks.py")
    copied = frame[(frame["kind"] == "code") & (frame["match"] != "none")]
    assert len(copied.query("line in (3, 8)")) == 1


def test_no_moved_lines_in_a_pair_with_no_paired_line(run_compare: Runner) -> None:
    """A file at the upstream file's path of which no line is paired in order (a compatibility
    shim re-exporting the names under the old package) holds no copy for lines to move in: its
    re-ordered long entries stay none."""
    names = ["PartialMessageConverterForShim", "CategoryChannelConverterForShim",
             "StageChannelConverterForShim", "VoiceChannelConverterForShim"]
    up = "__all__ = (\n" + "".join(f"    '{n}',\n" for n in names) + ")\n"
    shim = ("from nextgen.ext.converters import *  # re-export under the old name\n\n"
            "__all__ = [\n" + "".join(f'    "{n}",\n' for n in reversed(names)) + "]\n")
    frame = file_lines(run_compare({"pkg/converter.py": shim}, [("up", {"pkg/converter.py": up})]),
                       "pkg/converter.py")
    assert set(frame["match"]) == {"none"}


def test_same_paths() -> None:
    assert same_paths("pip/_vendor/six/moves.py") == {
        "pip/_vendor/six/moves.py", "_vendor/six/moves.py", "six/moves.py"}
    assert same_paths("setup.py") == {"setup.py"}


def test_fold_form_ignores_what_formatters_change() -> None:
    assert fold_form("    'a',  # the first", CODE) == fold_form('"a"', CODE)
    assert fold_form("f(x,y)", CODE) == fold_form("f( x, y )", CODE)
    assert fold_form("f(x, y)", CODE) != fold_form("f(x, z)", CODE)
    assert fold_form("  It's   here", DOCSTRING) == fold_form('It"s here', DOCSTRING)


def _lis_length(u: list[int]) -> int:
    best = [1] * len(u)
    for i in range(len(u)):
        for j in range(i):
            if u[j] < u[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


@given(st.lists(st.integers(0, 30), max_size=40))
def test_increasing_pairs_is_a_longest_increasing_chain(u: list[int]) -> None:
    t = list(range(len(u)))
    chain = increasing_pairs(t, u)
    assert len(chain) == _lis_length(u)
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(chain, chain[1:], strict=False))
    assert set(chain) <= set(zip(t, u, strict=True))


@given(st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 30), max_size=40), st.data())
def test_the_compiled_increasing_pairs_are_the_reference(u: list[int], data) -> None:  # noqa: ANN001
    """The same pairs, in the same order, as the Python definition (ties among equal upstream
    lines broken alike), for any ints in 64 bits and sparse increasing target lines."""
    from lineage.match import fill_lines

    assert fill_lines._increasing_pairs is not None  # built by the set-up, like the indexer's pass
    steps = data.draw(st.lists(st.integers(1, 5), min_size=len(u), max_size=len(u)))
    t = [sum(steps[: k + 1]) for k in range(len(u))]
    assert increasing_pairs(t, u) == fill_lines.increasing_pairs_reference(t, u)


def test_increasing_pairs_outside_64_bits_or_of_two_lengths_take_the_reference() -> None:
    from lineage.match import fill_lines

    u = [2**70, 1, 2**64, 3]
    assert fill_lines._increasing_pairs([0, 1, 2, 3], u) is NotImplemented
    assert increasing_pairs([0, 1, 2, 3], u) == [(1, 1), (3, 3)]
    assert fill_lines._increasing_pairs([0, 1], [5]) is NotImplemented
    assert increasing_pairs((0, 1, 2), [2, 1, 3]) == [(1, 1), (2, 3)]  # a tuple: the reference


def test_increasing_pairs_on_sparse_target_lines() -> None:
    rng = random.Random(7)
    t = sorted(rng.sample(range(1000), 50))
    u = [rng.randrange(100) for _ in t]
    chain = increasing_pairs(t, u)
    assert len(chain) == _lis_length(u)


_FIELDS = [f"field_{name}" for name in ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
                                        "hotel", "india", "juliet", "kilo", "lima", "mike", "november")]
_OPEN = ('def parse_header_block(payload, strict=True):\n'
         '    checked = validate_header_payload(payload, strict=strict)\n'
         '    return decode_header_fields(checked, HEADER_TABLE)\n\n\n'
         'class Record:\n'
         '    def __init__(self, data):\n')
_CLOSE = ('\n\ndef render_record_summary(record, width=80):\n'
          '    summary = format_record_fields(record, width=width)\n'
          '    return wrap_summary_lines(summary, RECORD_WIDTH)\n')


def _typed_record(typed: bool, new_code: bool = False) -> str:
    if new_code:
        body = [f"        total_{k} = compute_weight_{k}(self.cache, {k})\n" for k in range(len(_FIELDS))]
    elif typed:  # annotated, between two new lines that stop the regions' outward extension
        body = ["        register_this_instance_globally(REGISTRY_HANDLE)\n",
                *[f'        self.{f}: Optional[str] = data.get("{f}")\n' for f in _FIELDS],
                "        emit_debug_trace_for_record_creation(self)\n"]
    else:
        body = [f"        self.{f} = data.get('{f}')\n" for f in _FIELDS]
    return _OPEN + "".join(body) + _CLOSE


def test_lines_edited_in_place_inside_a_copy_are_near(run_compare: Runner) -> None:
    """Annotations added to a block longer than a region's gap: no line of it hits, and a new
    line at each end stops the two regions' outward extension; fill's second pass pairs each
    edited line with the line it replaced, near, and leaves the new lines none; with the pass
    off the block stays none."""
    up = {"pkg/record.py": _typed_record(False)}
    target = _typed_record(True)
    first = _OPEN.count("\n") + 1
    block = range(first + 1, first + 1 + len(_FIELDS))
    frame = file_lines(run_compare({"pkg/record.py": target}, [("up", up)]), "pkg/record.py")
    edited = frame.loc[list(block)]
    assert set(edited["match"]) == {"near"}
    assert list(edited["upstream_line"].astype(int)) == [n - 1 for n in block]
    assert set(frame.loc[[first, block[-1] + 1]]["match"]) == {"none"}
    # The annotations alone changed, so the alignment without annotations pairs the block too;
    # with both rules off it stays none.
    off = run_compare({"pkg/record.py": target}, [("up", up)],
                      params=MatchParams(fill_edit_max_gap=0, fill_strip_annotations=0))
    assert set(file_lines(off, "pkg/record.py").loc[list(block)]["match"]) == {"none"}
    aligned = run_compare({"pkg/record.py": target}, [("up", up)], params=MatchParams(fill_edit_max_gap=0))
    assert set(file_lines(aligned, "pkg/record.py").loc[list(block)]["match"]) == {"near"}


def test_new_code_opposite_old_code_is_not_an_edit(run_compare: Runner) -> None:
    up = {"pkg/record.py": _typed_record(False)}
    target = _typed_record(False, new_code=True)
    block = range(_OPEN.count("\n") + 1, _OPEN.count("\n") + 1 + len(_FIELDS))
    frame = file_lines(run_compare({"pkg/record.py": target}, [("up", up)]), "pkg/record.py")
    assert set(frame.loc[list(block)]["match"]) == {"none"}


_IMPORTS_UP = ("import json\nimport os\nfrom collections import OrderedDict\nfrom .models import Response\n"
               "from .structures import CaseInsensitiveDict\n\n\n")
_IMPORTS_SORTED = ("from collections import OrderedDict\nimport json\nimport os\n"
                   "from .structures import CaseInsensitiveDict\nfrom .models import Response\n"
                   "from .brand_new_module import NewThing, OtherThing\n\n\n")


def test_imports_sorted_again_in_the_main_pair_are_copied(run_compare: Runner) -> None:
    """isort moved the copied imports: none is in order with the pair's other lines, so the
    in-order rules leave them none; rule (c) pairs each with its upstream line, verbatim; the
    new import stays none; with the rule off the reordered imports stay none."""
    up = {"pkg/transport.py": _IMPORTS_UP + _REWRITTEN_UP}
    target = {"pkg/transport.py": _IMPORTS_SORTED + _REWRITTEN_TARGET}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/transport.py")
    got = {n: (frame.loc[n, "match"], frame.loc[n, "upstream_line"]) for n in range(1, 7)}
    assert got == {1: ("verbatim", 3), 2: ("verbatim", 1), 3: ("verbatim", 2), 4: ("verbatim", 5),
                   5: ("verbatim", 4), 6: ("none", pd.NA)}
    # (the moved-lines rule off too: it pairs the long imports, each standing once in each file)
    off = run_compare(target, [("up", up)], params=MatchParams(fill_import_min_tokens=0, fill_moved_min_alnum=0))
    assert (file_lines(off, "pkg/transport.py").loc[1:6, "match"] == "verbatim").sum() < 5


_CLIENT_HEAD = ('import asyncio\n\n\n'
                'class HTTPClient:\n'
                '    def recreate_session_if_closed(self):\n'
                '        if self.__session.closed:\n'
                '            self.__session = aiohttp.ClientSession(connector=self.connector)\n\n')
_CLIENT_TAIL = ('\n    def logout_and_close_the_session(self):\n'
                '        return self.request(Route("POST", "/auth/logout"))\n')
_SIGNATURE_UP = ('    def delete_message(self, channel_id, message_id, *, reason=None):\n'
                 "        r = Route('DELETE', '/channels/{channel_id}/messages/{message_id}', channel_id=channel_id)\n"
                 '        return self.request(r, reason=reason)\n')
# Annotated and broken one argument a line, as a fork that adds typing and runs Black writes it.
_SIGNATURE_TYPED = ('    def delete_message(\n'
                    '        self,\n'
                    '        channel_id: Snowflake,\n'
                    '        message_id: Snowflake,\n'
                    '        *,\n'
                    '        reason: Optional[str] = None,\n'
                    '    ) -> Response[None]:\n'
                    '        r = Route(\n'
                    '            "DELETE",\n'
                    '            "/channels/{channel_id}/messages/{message_id}",\n'
                    '            channel_id=channel_id,\n'
                    '        )\n'
                    '        return self.request(r, reason=reason)\n')
# A new method in the same place: its statements share brackets and ``self`` with the old one.
_SIGNATURE_NEW = ('    def start_thread_in_channel(\n'
                  '        self,\n'
                  '        parent_channel: Snowflake,\n'
                  '        auto_archive_minutes: int,\n'
                  '    ) -> Response[Thread]:\n'
                  '        payload = {"archive": auto_archive_minutes, "parent": parent_channel}\n'
                  '        return self.request(r, reason=reason)\n')


# The statement rule is on by default since recall5 (MatchParams.fill_statement_max_lines says
# why), in own-name files only; its tests name it all the same, so they keep saying what they test.
_STATEMENTS = MatchParams(fill_statement_max_lines=30)


def test_a_statement_annotated_and_rewrapped_in_place_is_near(run_compare: Runner) -> None:
    """A one-line signature and call that a fork annotated and broke one argument a line: the
    pieces (``self,``, ``*,``, ``)``) are too short to be judged alone, and the whole statement
    is still the old one with annotations; each piece is paired near with the upstream line of
    its statement. With the statement rule off, the short pieces stay none."""
    up = {"pkg/http.py": _CLIENT_HEAD + _SIGNATURE_UP + _CLIENT_TAIL}
    target = _CLIENT_HEAD + _SIGNATURE_TYPED + _CLIENT_TAIL
    first = _CLIENT_HEAD.count("\n") + 1
    frame = file_lines(run_compare({"pkg/http.py": target}, [("up", up)], params=_STATEMENTS), "pkg/http.py")
    block = frame.loc[first : first + 11]
    assert set(block["match"]) == {"near"}
    assert list(block["upstream_line"].astype(int)) == [first] * 7 + [first + 1] * 5
    off = run_compare({"pkg/http.py": target}, [("up", up)], params=MatchParams(fill_statement_max_lines=0))
    assert "none" in set(file_lines(off, "pkg/http.py").loc[first : first + 11]["match"])


def test_a_new_statement_opposite_an_old_one_is_not_an_edit(run_compare: Runner) -> None:
    """A new method where the old one stood: its signature and body share brackets, ``self`` and
    the call's shape with the old statements, not enough of their tokens to be an edit."""
    up = {"pkg/http.py": _CLIENT_HEAD + _SIGNATURE_UP + _CLIENT_TAIL}
    target = _CLIENT_HEAD + _SIGNATURE_NEW + _CLIENT_TAIL
    first = _CLIENT_HEAD.count("\n") + 1
    frame = file_lines(run_compare({"pkg/http.py": target}, [("up", up)], params=_STATEMENTS), "pkg/http.py")
    assert set(frame.loc[first : first + 5]["match"]) == {"none"}


_A = ('class Transport:\n'
      '    def __init__(self, host, port, keepalive_interval=30):\n'
      '        self.address = (host, port)\n'
      '        self.keepalive_interval = keepalive_interval\n'
      '        self.sock = open_transport_socket(self.address, keepalive_interval)\n'
      '        self.pending_requests = collections.deque(maxlen=MAX_PENDING_REQUESTS)\n'
      '        self.statistics = TransportStatistics(started=time.monotonic())\n\n')
# More than twice chain_max_gap: no region chains the survivor with the method after the block.
_B_FIELDS = [f"{name}_{k}" for k in range(3) for name in ("timeout", "method", "url", "retries", "backoff",
                                                           "proxy", "verify", "cert", "stream", "cookies")]
_B_UP = ('    def send_request(self, method, url, timeout=None):\n'
         '        raise_if_closed_connection_state(self.sock, self.address)\n'
         + "".join(f"        self.{f} = options.get('{f}')\n" for f in _B_FIELDS) + "\n")
_B_TYPED = ('    def send_request(self, method: str, url: str, timeout: Optional[float] = None) -> None:\n'
            '        raise_if_closed_connection_state(self.sock, self.address)\n'
            + "".join(f'        self.{f}: Optional[Union[str, bytes, RequestOption]] = options.get("{f}")\n'
                      for f in _B_FIELDS) + "\n")  # too unlike the old line to extend a region
_C = ('    def close_connection_now(self, reason="closed by the client"):\n'
      '        self.statistics.record_close(reason, time.monotonic())\n'
      '        self.pending_requests.clear()\n'
      '        shutdown_transport_socket(self.sock, self.address, reason)\n'
      '        self.sock = None\n')


def test_survivors_of_a_long_inserted_block_anchor_the_edited_code_after_it(run_compare: Runner) -> None:
    """A fork inserted hundreds of lines of new code between two copied methods, then kept the
    next method with annotations added: the stretch is too long to align, a lone survivor is
    paired there, and the stretch from it to the next copied method is aligned as inside a
    copy, so the annotated lines are near; with fill_survivor_anchors off they stay none, and
    the new code stays none either way."""
    inserted = "".join(f"    def helper_number_{k}(self, value):\n        return value * {k} + self.offset_{k}\n\n"
                       for k in range(220))  # 440 content lines: more than align_max_gap
    up = {"pkg/transport.py": _A + _B_UP + _C}
    target = _A + inserted + _B_TYPED + _C
    first = (_A + inserted).count("\n") + 1
    typed = range(first + 2, first + 2 + len(_B_FIELDS))
    frame = file_lines(run_compare({"pkg/transport.py": target}, [("up", up)]), "pkg/transport.py")
    assert frame.loc[first + 1, "match"] == "verbatim"
    assert set(frame.loc[list(typed), "match"]) == {"near"}
    assert list(frame.loc[list(typed), "upstream_line"].astype(int)) == [n - inserted.count("\n") for n in typed]
    assert set(frame.loc[_A.count("\n") + 1 : first - 1].query("kind == 'code'")["match"]) == {"none"}
    off = run_compare({"pkg/transport.py": target}, [("up", up)], params=MatchParams(fill_survivor_anchors=0))
    assert set(file_lines(off, "pkg/transport.py").loc[list(typed), "match"]) == {"none"}


_NAMES = ["CommandError", "MissingRequiredArgument", "BadArgument", "PrivateMessageOnly", "NoPrivateMessage",
          "CheckFailure", "CheckAnyFailure", "CommandNotFound", "DisabledCommand", "CommandInvokeError"]
_ERRORS_BODY = ('\n\nclass CommandError(DiscordException):\n'
                '    def __init__(self, message=None, *args):\n'
                '        if message is not None:\n'
                '            cleaned = message.replace("@everyone", "@\\u200beveryone")\n'
                '            super().__init__(cleaned, *args)\n'
                '        else:\n'
                '            super().__init__(*args)\n')


def _errors_module(names: list[str], quote: str) -> str:
    return "__all__ = (\n" + "".join(f"    {quote}{n}{quote},\n" for n in names) + ")\n" + _ERRORS_BODY


def test_a_requoted_block_above_the_first_copied_line_is_copied(run_compare: Runner) -> None:
    """A formatter re-quoted ``__all__`` (no entry identical, none seeds): a block of consecutive
    entries aligned in order above the first copied line is copied (near); an entry the fork
    added stays none; with the rule off (and the statement rule, which completes the
    ``__all__`` statement from its paired ``)`` when it is short) the block stays none."""
    up = {"pkg/errors.py": _errors_module(_NAMES, "'")}
    # a run of 7 old entries, a new one, a run of 3 old ones, and new ones at the end (they stop
    # the region of the class below from extending upward)
    mine = [*_NAMES[:7], "ObjectNotFound", *_NAMES[7:], "FlagError", "BadFlagArgument", "TooManyFlags"]
    on = run_compare({"pkg/errors.py": _errors_module(mine, '"')}, [("up", up)], params=_STATEMENTS)
    frame = file_lines(on, "pkg/errors.py")
    assert list(frame.loc[2:8, "match"]) == ["near"] * 7
    assert list(frame.loc[2:8, "upstream_line"].astype(int)) == list(range(2, 9))
    assert frame.loc[9, "match"] == "none"
    # the short run is too short for a block, but the statement is now partly paired: its old
    # entries complete it, the new ones do not (the statement rule)
    assert list(frame.loc[10:15, "match"]) == ["near"] * 3 + ["none"] * 3
    off = run_compare({"pkg/errors.py": _errors_module(mine, '"')}, [("up", up)],
                      params=MatchParams(fill_edge_block_lines=0, fill_statement_max_lines=0))
    assert set(file_lines(off, "pkg/errors.py").loc[2:8, "match"]) == {"none"}


_CALL_UP = ("    def delete_channel(self, channel_id, *, reason=None):\n"
            "        return self.request(Route('DELETE', '/channels/{channel_id}', channel_id=channel_id), "
            "reason=reason)\n\n")
_CALL_WRAPPED = ("    def delete_channel(self, channel_id: int, *, reason: Optional[str] = None) -> Response[None]:\n"
                 "        return self.request(\n"
                 '            Route("DELETE", "/channels/{channel_id}", channel_id=channel_id), reason=reason\n'
                 "        )\n\n")


def test_a_rewrapped_statement_found_once_cuts_a_stretch_of_new_code(run_compare: Runner) -> None:
    """New methods inserted before an old one whose call Black re-wrapped: the stretch is longer
    than an edit stretch, and no line of the re-wrapped call aligns on its own; the call, the
    same tokens once on each side, is paired first (each piece near), then the rest aligns."""
    new = "".join(f"    def start_thread_{k}(self, channel_id, name):\n"
                  f"        payload = {{\n            'name': name,\n            'kind': {k},\n        }}\n"
                  f"        return self.request(Route('POST', '/threads/{k}'), json=payload)\n\n"
                  for k in range(12))  # 72 content lines
    up = {"pkg/http.py": _CLIENT_HEAD + _CALL_UP + _C}
    target = _CLIENT_HEAD + new + _CALL_WRAPPED + _C
    first = (_CLIENT_HEAD + new).count("\n") + 1
    frame = file_lines(run_compare({"pkg/http.py": target}, [("up", up)], params=_STATEMENTS), "pkg/http.py")
    assert list(frame.loc[first + 1 : first + 3, "match"]) == ["near"] * 3
    assert list(frame.loc[first + 1 : first + 3, "upstream_line"].astype(int)) == [first + 1 - new.count("\n")] * 3
    # on by default (fill_rewrapped_max_lines), without the statement rule
    default = file_lines(run_compare({"pkg/http.py": target}, [("up", up)]), "pkg/http.py")
    assert list(default.loc[first + 1 : first + 3, "match"]) == ["near"] * 3
    # Off: this rule and the two others that could pair the call (the statement rule; the
    # same-shape rule, lineage.match.shapes, which pairs it too in a file of its own name).
    off = run_compare({"pkg/http.py": target}, [("up", up)],
                      params=MatchParams(fill_statement_max_lines=0, fill_rewrapped_max_lines=0,
                                         fill_shape_max_lines=0))
    assert "none" in set(file_lines(off, "pkg/http.py").loc[first + 1 : first + 3, "match"])


_B_LAST = "        self.statistics.record_configured_request(method, url, timeout)\n"


def test_survivors_after_the_last_copied_line_anchor_the_edited_code_between_them(run_compare: Runner) -> None:
    """The copy's region ended early (hundreds of new lines after the first copied method); the
    next method survives further down, its first and last lines unchanged and its fields
    annotated and edited. After the pair's last paired line only lone survivors are paired, and then, in a
    file of the upstream file's own name, the stretch between two survivors is aligned as inside
    a copy: the annotated fields are near. With fill_edge_survivor_anchors off, or in a file of
    another name (a file that took a part of the upstream file), they stay none."""
    inserted = "".join(f"    def helper_number_{k}(self, value):\n        return value * {k} + self.offset_{k}\n\n"
                       for k in range(220))
    # the fields now read a copy of the options: edited, so no block of them aligns unchanged
    edited = _B_TYPED.replace("= options.get(", "= self.options_copy.get(")
    up = {"pkg/transport.py": _A + _B_UP.rstrip("\n") + "\n" + _B_LAST}
    target = _A + inserted + edited.rstrip("\n") + "\n" + _B_LAST
    first = (_A + inserted).count("\n") + 1
    typed = list(range(first + 2, first + 2 + len(_B_FIELDS)))
    last = first + 2 + len(_B_FIELDS)
    frame = file_lines(run_compare({"pkg/transport.py": target}, [("up", up)]), "pkg/transport.py")
    assert frame.loc[first + 1, "match"] == "verbatim" and frame.loc[last, "match"] == "verbatim"
    assert set(frame.loc[typed, "match"]) == {"near"}
    assert list(frame.loc[typed, "upstream_line"].astype(int)) == [n - inserted.count("\n") for n in typed]
    assert set(frame.loc[_A.count("\n") + 1 : first - 1].query("kind == 'code'")["match"]) == {"none"}
    off = run_compare({"pkg/transport.py": target}, [("up", up)], params=MatchParams(fill_edge_survivor_anchors=0))
    assert set(file_lines(off, "pkg/transport.py").loc[typed, "match"]) == {"none"}
    other = file_lines(run_compare({"pkg/connection.py": target}, [("up", up)],
                                   params=MatchParams(survivor_place_or_marker=0)), "pkg/connection.py")
    assert other.loc[first + 1, "match"] == "verbatim"
    assert set(other.loc[typed, "match"]) == {"none"}
    # survivor_place_or_marker: a file at another place, whose markers do not name the upstream,
    # keeps no lone survivor (a pair known by a region alone); one whose marker names it does
    other = file_lines(run_compare({"pkg/connection.py": target}, [("up", up)]), "pkg/connection.py")
    assert other.loc[first + 1, "match"] == "none"
    marked = file_lines(run_compare({"pkg/connection.py": "# Adapted from up (pkg/transport.py)\n" + target},
                                    [("up", up)]), "pkg/connection.py")
    assert marked.loc[first + 2, "match"] == "verbatim"


_PIN_UP = ("    def pin_message(self, channel_id, message_id, reason=None):\n"
           "        r = Route('PUT', '/channels/{channel_id}/pins/{message_id}', channel_id=channel_id)\n"
           "        return self.request(r, reason=reason)\n")
# Black kept the annotated parameters on one line: each loses its own annotation when compared.
_PIN_TYPED = ("    def pin_message(\n"
              "        self, channel_id: Snowflake, message_id: Snowflake, reason: Optional[str] = None\n"
              "    ) -> Response[None]:\n"
              "        r = Route(\n"
              '            "PUT",\n'
              '            "/channels/{channel_id}/pins/{message_id}",\n'
              "            channel_id=channel_id,\n"
              "        )\n"
              "        return self.request(r, reason=reason)\n")


def test_a_line_of_several_annotated_parameters_is_a_piece_of_the_old_signature(run_compare: Runner) -> None:
    """A signature re-wrapped with several annotated parameters on one line: the line keeps
    every word of the old parameters once its annotations are cut, and it is too unlike the
    old one-line signature as written (similarity under ``near_floor_similarity``) to be
    labelled, so it is labelled by its text without annotations: near, like its statement's
    other pieces."""
    up = {"pkg/http.py": _CLIENT_HEAD + _PIN_UP + _CLIENT_TAIL}
    target = _CLIENT_HEAD + _PIN_TYPED + _CLIENT_TAIL
    first = _CLIENT_HEAD.count("\n") + 1
    frame = file_lines(run_compare({"pkg/http.py": target}, [("up", up)], params=_STATEMENTS), "pkg/http.py")
    assert list(frame.loc[first : first + 2, "match"]) == ["near"] * 3
    assert list(frame.loc[first : first + 2, "upstream_line"].astype(int)) == [first] * 3


_SEND_UP = ("    async def send_file(self, channel, file, embed=None):\n"
            "        embed_payload = embed.to_dict() if embed is not None else None\n"
            "        data = await self.http.send_files(channel.id, files=[file], embed=embed_payload, nonce=None)\n"
            "        return self.store_message_in_cache(channel, data)\n")
_SEND_EDITED = ("    async def send_file(self, channel, file, embed=None):\n"
                "        serialised_embed_dict = embed.to_dict() if embed is not None else None\n"
                "        data = await self.http.send_files(\n"
                "            channel.id,\n"
                "            files=[file],\n"
                "            embed=serialised_embed_dict,\n"
                "            nonce=None,\n"
                "        )\n"
                "        return self.store_message_in_cache(channel, data)\n")


def test_a_kept_keyword_with_an_edited_value_is_near_in_the_file_of_its_own_name(run_compare: Runner) -> None:
    """A re-wrapped call whose ``embed=`` argument now passes a renamed variable: the line
    fails the word share (``serialised_embed_dict`` is new) but keeps the keyword the upstream call passes,
    so in the upstream file's own later version it is near; with fill_statement_kept_keywords
    off, or in a file of another name, it stays none."""
    up = {"pkg/messages.py": _CLIENT_HEAD + _SEND_UP + _CLIENT_TAIL}
    target = _CLIENT_HEAD + _SEND_EDITED + _CLIENT_TAIL
    line = _CLIENT_HEAD.count("\n") + 6  # embed=serialised_embed_dict,
    frame = file_lines(run_compare({"pkg/messages.py": target}, [("up", up)], params=_STATEMENTS), "pkg/messages.py")
    assert frame.loc[line, "match"] == "near"
    assert int(frame.loc[line, "upstream_line"]) == _CLIENT_HEAD.count("\n") + 3
    assert frame.loc[line - 1, "match"] != "none" and frame.loc[line + 1, "match"] != "none"
    # Off: kept keywords, and the same-shape rule (lineage.match.shapes), which pairs the line
    # too: one token edited in a call of the same shape.
    off = run_compare({"pkg/messages.py": target}, [("up", up)],
                      params=MatchParams(fill_statement_max_lines=30, fill_statement_kept_keywords=0,
                                         fill_shape_max_lines=0))
    assert file_lines(off, "pkg/messages.py").loc[line, "match"] == "none"
    other = run_compare({"pkg/sending.py": target}, [("up", up)], params=_STATEMENTS)
    assert file_lines(other, "pkg/sending.py").loc[line, "match"] == "none"


_BANS_UP = ("    def get_bans(self, guild_id):\n"
            "        return self.request(Route('GET', '/guilds/{guild_id}/bans', guild_id=guild_id))\n")
# Black broke the call open, and the call gained two keywords on the argument's line.
_BANS_EDITED = ("    def get_bans(self, guild_id):\n"
                "        return self.request(\n"
                '            Route("GET", "/guilds/{guild_id}/bans", guild_id=guild_id),'
                ' params=params, timeout=self.timeout\n'
                "        )\n")


def test_a_piece_that_kept_the_arguments_and_gained_one_is_near(run_compare: Runner) -> None:
    """``Route(...), params=params, timeout=self.timeout`` of a call Black broke open that
    gained two keywords: the line holds the upstream call's argument whole, then the added ones;
    its word share is 5 of 10 (under ``fill_statement_min_word_share``), so without the
    kept-arguments rule the call's ``return self.request(`` and ``)`` are near and the line
    between them none. With ``fill_kept_arguments_min_share`` at 0 it stays none; asked for more
    than its 5 of 10 words, too."""
    up = {"pkg/http.py": _CLIENT_HEAD + _BANS_UP + _CLIENT_TAIL}
    target = {"pkg/http.py": _CLIENT_HEAD + _BANS_EDITED + _CLIENT_TAIL}
    line = _CLIENT_HEAD.count("\n") + 3
    upstream_line = _CLIENT_HEAD.count("\n") + 2
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/http.py")
    assert frame.loc[line, "match"] == "near"
    assert int(frame.loc[line, "upstream_line"]) == upstream_line
    assert {int(frame.loc[k, "upstream_line"]) for k in (line - 1, line + 1)} == {upstream_line}
    for params in (MatchParams(fill_kept_arguments_min_share=0.0), MatchParams(fill_kept_arguments_min_share=0.8)):
        off = file_lines(run_compare(target, [("up", up)], params=params), "pkg/http.py")
        assert off.loc[line, "match"] == "none"
        assert off.loc[line - 1, "match"] == "near"  # the call's other pieces are paired all the same


def test_the_statement_rule_works_in_the_file_of_its_own_name_only(run_compare: Runner) -> None:
    """The annotated, re-wrapped signature of the test above, in a file of another name (a
    file that took the method, not the upstream file's later version): its short pieces stay
    none with fill_statement_own_file (the default), and are near with it off."""
    up = {"pkg/http.py": _CLIENT_HEAD + _SIGNATURE_UP + _CLIENT_TAIL}
    target = _CLIENT_HEAD + _SIGNATURE_TYPED + _CLIENT_TAIL
    first = _CLIENT_HEAD.count("\n") + 1
    pieces = list(range(first + 2, first + 7))  # ``channel_id: Snowflake,`` to ``) -> Response[None]:``
    own = file_lines(run_compare({"pkg/http.py": target}, [("up", up)]), "pkg/http.py")
    assert set(own.loc[pieces, "match"]) == {"near"}
    other = file_lines(run_compare({"pkg/client.py": target}, [("up", up)]), "pkg/client.py")
    assert other.loc[first + 12, "match"] != "none"  # the pair is established all the same
    assert set(other.loc[pieces, "match"]) == {"none"}
    every = run_compare({"pkg/client.py": target}, [("up", up)], params=MatchParams(fill_statement_own_file=0))
    assert set(file_lines(every, "pkg/client.py").loc[pieces, "match"]) == {"near"}


def test_a_part_of_a_module_split_into_a_package_of_its_name_is_its_later_version(run_compare: Runner) -> None:
    """The same signature in ``pkg/http/async_.py``: ``pkg/http.py`` became the package
    ``pkg/http/``, and each of its files is a part of the module's later version, where the
    statement rule works (``fill_module_split``); with the rule off, or in a folder of that name
    elsewhere (``tools/http/async_.py``), the pieces stay none."""
    up = {"pkg/http.py": _CLIENT_HEAD + _SIGNATURE_UP + _CLIENT_TAIL}
    target = _CLIENT_HEAD + _SIGNATURE_TYPED + _CLIENT_TAIL
    pieces = list(range(_CLIENT_HEAD.count("\n") + 3, _CLIENT_HEAD.count("\n") + 8))
    split = file_lines(run_compare({"pkg/http/async_.py": target}, [("up", up)]), "pkg/http/async_.py")
    assert set(split.loc[pieces, "match"]) == {"near"}
    off = run_compare({"pkg/http/async_.py": target}, [("up", up)], params=MatchParams(fill_module_split=0))
    assert set(file_lines(off, "pkg/http/async_.py").loc[pieces, "match"]) == {"none"}
    elsewhere = file_lines(run_compare({"tools/http/async_.py": target}, [("up", up)]), "tools/http/async_.py")
    assert set(elsewhere.loc[pieces, "match"]) == {"none"}


def test_a_part_of_a_module_split_below_a_renamed_folder_is_its_later_version(run_compare: Runner) -> None:
    """The same split in a fork that renamed the package (``newpkg/`` <- ``oldpkg/``, shown by
    three more files): ``newpkg/http/async_.py`` is a part of ``oldpkg/http.py``, the module its
    renamed path would be split from (``fill_module_split``)."""
    others = {f"m{k}.py": treegen.distinctive_functions(k) for k in range(1, 4)}
    up = {"oldpkg/__init__.py": "", "oldpkg/http.py": _CLIENT_HEAD + _SIGNATURE_UP + _CLIENT_TAIL,
          **{f"oldpkg/{name}": text for name, text in others.items()}}
    target = {"newpkg/__init__.py": "", "newpkg/http/async_.py": _CLIENT_HEAD + _SIGNATURE_TYPED + _CLIENT_TAIL,
              **{f"newpkg/{name}": text for name, text in others.items()}}
    pieces = list(range(_CLIENT_HEAD.count("\n") + 3, _CLIENT_HEAD.count("\n") + 8))
    split = file_lines(run_compare(target, [("up", up)]), "newpkg/http/async_.py")
    assert set(split.loc[pieces, "match"]) == {"near"}
    off = run_compare(target, [("up", up)], params=MatchParams(fill_module_split=0))
    assert set(file_lines(off, "newpkg/http/async_.py").loc[pieces, "match"]) == {"none"}


def test_a_cached_file_is_checked_on_the_module_its_renamed_path_would_be_split_from() -> None:
    from lineage.match.renames import BELOW_RENAME, renamed_upstream_paths

    upstream = {"discord/webhook.py", "discord/http.py"}
    assert renamed_upstream_paths("nextcord/webhook/async_.py", {"nextcord": "discord"}, upstream,
                                  weak_pairs=True) == (
        "\0split discord/webhook.py", BELOW_RENAME)
    assert renamed_upstream_paths("nextcord/webhook/async_.py", {}, upstream, weak_pairs=True) == ()
    # a module one set of renames places the file at, and another only splits it from, labels
    # it otherwise (established or not): two keys
    upstream = {"u/t/c.py", "u/t/c/d.py"}
    placed = renamed_upstream_paths("t/c.py", {"": "u"}, upstream, weak_pairs=True)
    split = renamed_upstream_paths("t/c.py", {"t": "u/t/c"}, upstream, weak_pairs=True)
    assert placed == ("u/t/c.py", BELOW_RENAME) and split == ("\0split u/t/c.py", BELOW_RENAME)

# A file rewritten over years: no region forms (its two survivors, the class line and the last
# call, are too far apart to chain), but between them the old lines stand annotated in place.
_AGED_FIELDS = ["sticker_identifier", "display_name", "description_text", "format_type", "sticker_pack_id",
                "available_flag", "guild_identifier", "creator_user", "sort_value", "tag_names",
                "asset_hash", "premium_type", "created_stamp", "edited_stamp"]
_AGED_UP = ('class StickerItem:\n'
            '    def __init__(self, *, state, data):\n'
            + "".join(f'        self.{f} = data["{f}"]\n' for f in _AGED_FIELDS)
            + '        register_sticker_with_the_connection_state(state, self)\n')
_AGED_TARGET = ('class StickerItem:\n'
                '    """Now documented."""\n\n'
                '    def __init__(self, *, state: ConnectionState, data: StickerPayload) -> None:\n'
                + "".join(f'        self.{f}: Optional[StickerField] = data["{f}"]\n' for f in _AGED_FIELDS)
                + '        register_sticker_with_the_connection_state(state, self)\n')
_AGED_FIRST = 5  # the first annotated field line of the target (upstream: 3)


def test_survivors_anchor_a_pair_with_no_region_in_the_file_of_its_own_name(run_compare: Runner) -> None:
    """A same-path pair with no region: its survivors (the class line, the last call) are the
    pair's anchors, and the annotated lines between them are near; with
    fill_leading_survivor_anchors off they stay none (and the lone-line rule judges the
    survivors alone)."""
    up = {"pkg/sticker.py": _AGED_UP}
    fields = list(range(_AGED_FIRST, _AGED_FIRST + len(_AGED_FIELDS)))
    comparison = run_compare({"pkg/sticker.py": _AGED_TARGET}, [("up", up)])
    frame = file_lines(comparison, "pkg/sticker.py")
    assert comparison.regions["evidence_weight"].tolist() == [0.0]  # no seed supports it
    assert set(frame.loc[fields, "match"]) == {"near"}
    assert list(frame.loc[fields, "upstream_line"].astype(int)) == [k - _AGED_FIRST + 3 for k in fields]
    assert frame.loc[2, "match"] == "none"
    # Without the leading anchors, the same class's ``__init__`` is still a signature survivor
    # (``fill_signature_same_class_dunders``) and its body is read below it; with that off too,
    # the fields stay none.
    dunder = run_compare({"pkg/sticker.py": _AGED_TARGET}, [("up", up)],
                         params=MatchParams(fill_leading_survivor_anchors=0))
    assert set(file_lines(dunder, "pkg/sticker.py").loc[fields, "match"]) == {"near"}
    off = run_compare({"pkg/sticker.py": _AGED_TARGET}, [("up", up)],
                      params=MatchParams(fill_leading_survivor_anchors=0, fill_signature_same_class_dunders=0))
    assert set(file_lines(off, "pkg/sticker.py").loc[fields, "match"]) == {"none"}
    # Not in a file of another name (a marker names the upstream file there): survivors only.
    marked = "# Derived from pkg/sticker.py\n" + _AGED_TARGET
    other = run_compare({"pkg/stickers_v2.py": marked}, [("up", up)])
    assert set(file_lines(other, "pkg/stickers_v2.py").loc[[k + 1 for k in fields], "match"]) == {"none"}


def test_import_module_names_the_module_of_an_import_statement() -> None:
    """The statement rule (fill_statement_same_module) pairs an import statement only with an
    import of the same module: this is how it reads the module off the statement's first line."""
    assert import_module("from sglang.srt.layers.linear import (") == "sglang.srt.layers.linear"
    assert import_module("    from .utils import MISSING") == ".utils"
    assert import_module("import torch.nn as nn") == "torch.nn"
    assert import_module("from . import utils") == "."
    assert import_module("important = 1") is None
    assert import_module("self.fromage = cheese") is None


_WALKER_HEAD = ('class RedirectWalker:\n'
                '    def __init__(self, hop_limit, history_store):\n'
                '        self.hop_limit = hop_limit\n'
                '        self.history_store = history_store\n'
                '        self.visited_locations = set()\n'
                '        self.rejected_schemes = ("file", "ftp", "gopher")\n\n')
_WALKER_TAIL = ('\n    def describe_walker(self):\n'
                '        visited = ", ".join(sorted(self.visited_locations))\n'
                '        return f"RedirectWalker(limit={self.hop_limit}, visited=[{visited}])"\n\n'
                '    def forget_history(self):\n'
                '        self.history_store.clear_all_entries()\n'
                '        self.visited_locations.clear()\n')
_WALKER_OLD = ('    def follow_redirects(self, response, request, stream=False, timeout=None,\n'
               '                         verify=True, cert=None):\n'
               '        hops = 0\n'
               '        while response.is_redirect and hops < self.hop_limit:\n'
               '            hops += 1\n'
               '            response = request.send_again(response.location)\n'
               '        return response\n')
_WALKER_SIGNATURE = ('    def follow_redirects(\n'
                     '        self,\n'
                     '        response,\n'
                     '        request,\n'
                     '        stream=False,\n'
                     '        timeout=None,\n'
                     '        verify=True,\n'
                     '        cert=None,\n'
                     '        yield_requests=False,\n'
                     '    ):\n')
# A method the fork added before it (so no region's edge runs into the signature).
_WALKER_ADDED = ('    def reset_for_session(self, session_token):\n'
                 '        self.session_token = session_token\n'
                 '        self.visited_locations = {session_token.origin}\n'
                 '        return self.session_token.expires_at\n\n')
# A body written anew, longer than fill_edit_max_gap: no line of it is the old body's.
_WALKER_NEW_BODY = "".join(f"        step_{k} = self.plan_hop_{k}(response, request, attempt={k})\n"
                           for k in range(48)) + "        return step_47\n"


def test_a_signature_that_outlived_a_rewrite_is_paired_as_a_statement(run_compare: Runner) -> None:
    """A method rewritten over the years keeps its signature, exploded one parameter a line with
    a parameter added: no line of it is the upstream's one-line signature, and the new body is
    too long for the edited-line rule, so only as a statement (the name defined once in each
    file, the two statements alike) is it a survivor; its lines are near the old signature's, but
    for the parameter added, which is new. Off, or with the name defined twice in the target file
    (another class's interface), they stay none; the new body stays none."""
    up = {"pkg/redirects.py": _WALKER_HEAD + _WALKER_OLD + _WALKER_TAIL}
    target = _WALKER_HEAD + _WALKER_ADDED + _WALKER_SIGNATURE + _WALKER_NEW_BODY + _WALKER_TAIL
    first = (_WALKER_HEAD + _WALKER_ADDED).count("\n") + 1
    lines = list(range(first, first + _WALKER_SIGNATURE.count("\n")))
    added = first + _WALKER_SIGNATURE.splitlines().index("        yield_requests=False,")
    signature = [n for n in lines if n != added]
    body = range(lines[-1] + 1, lines[-1] + 1 + _WALKER_NEW_BODY.count("\n"))
    frame = file_lines(run_compare({"pkg/redirects.py": target}, [("up", up)]), "pkg/redirects.py")
    assert set(frame.loc[signature, "match"]) == {"near"}
    assert frame.loc[added, "match"] == "none"
    old = _WALKER_HEAD.count("\n") + 1
    assert set(frame.loc[signature, "upstream_line"].astype(int)) == {old, old + 1}  # its two lines
    assert set(frame.loc[list(body), "match"]) == {"none"}
    off = run_compare({"pkg/redirects.py": target}, [("up", up)], params=MatchParams(fill_signature_survivors=0))
    assert set(file_lines(off, "pkg/redirects.py").loc[signature, "match"]) == {"none"}
    twice = target + "\n\nclass OtherWalker:\n" + _WALKER_SIGNATURE + "        return None\n"
    frame = file_lines(run_compare({"pkg/redirects.py": twice}, [("up", up)],
                                   params=MatchParams(fill_signature_qualified=0)), "pkg/redirects.py")
    assert set(frame.loc[signature, "match"]) == {"none"}


def test_a_method_is_one_definition_by_its_class(run_compare: Runner) -> None:
    """The target file defines ``follow_redirects`` twice, in two classes: by its bare name the
    signature survivor cannot tell which is the upstream's, but qualified by its class
    (``fill_signature_qualified``) ``RedirectWalker.follow_redirects`` stands once in each file
    and is paired (the other class's copy of the signature stays none). Not when the target's
    signature dropped a parameter of the upstream's (``request``): a signature rewritten, whose
    pieces alike are the ones any signature has."""
    up = {"pkg/redirects.py": _WALKER_HEAD + _WALKER_OLD + _WALKER_TAIL}
    other = "\n\nclass OtherWalker:\n" + _WALKER_SIGNATURE + "        return None\n"
    target = _WALKER_HEAD + _WALKER_ADDED + _WALKER_SIGNATURE + _WALKER_NEW_BODY + _WALKER_TAIL + other
    first = (_WALKER_HEAD + _WALKER_ADDED).count("\n") + 1
    lines = list(range(first, first + _WALKER_SIGNATURE.count("\n")))
    added = first + _WALKER_SIGNATURE.splitlines().index("        yield_requests=False,")
    signature = [n for n in lines if n != added]
    frame = file_lines(run_compare({"pkg/redirects.py": target}, [("up", up)]), "pkg/redirects.py")
    assert set(frame.loc[signature, "match"]) == {"near"}
    assert frame.loc[added, "match"] == "none"
    others = range(len(target.splitlines()) - _WALKER_SIGNATURE.count("\n"), len(target.splitlines()))
    assert set(frame.loc[list(others), "match"]) == {"none"}
    off = run_compare({"pkg/redirects.py": target}, [("up", up)], params=MatchParams(fill_signature_qualified=0))
    assert set(file_lines(off, "pkg/redirects.py").loc[signature, "match"]) == {"none"}
    rewritten = target.replace(_WALKER_SIGNATURE, _WALKER_SIGNATURE.replace("        request,\n", ""), 1)
    frame = file_lines(run_compare({"pkg/redirects.py": rewritten}, [("up", up)]), "pkg/redirects.py")
    assert set(frame.loc[lines[:-1], "match"]) == {"none"}


def test_the_pieces_of_a_lone_rewrapped_statement_stay_with_its_rare_head(run_compare: Runner) -> None:
    """The old signature on one line: every piece of the exploded one names that line, so the
    statement is one unit of the lone-line rule, continued by nothing. Its head (``def
    follow_redirects(``) is evidence on its own, so the unit stays whole (``lone_unit_evidence``);
    judged line by line, ``self,`` and ``response,`` went and only the head stayed."""
    wrap = ",\n" + " " * 25 + "verify=True"
    old_one_line = _WALKER_OLD.replace(wrap, ", verify=True")
    assert old_one_line.count("\n") == _WALKER_OLD.count("\n") - 1
    up = {"pkg/redirects.py": _WALKER_HEAD + old_one_line + _WALKER_TAIL}
    target = _WALKER_HEAD + _WALKER_ADDED + _WALKER_SIGNATURE + _WALKER_NEW_BODY + _WALKER_TAIL
    first = (_WALKER_HEAD + _WALKER_ADDED).count("\n") + 1
    pieces = [first + k for k, text in enumerate(_WALKER_SIGNATURE.splitlines()) if "yield_requests" not in text]
    frame = file_lines(run_compare({"pkg/redirects.py": target}, [("up", up)]), "pkg/redirects.py")
    assert set(frame.loc[pieces, "match"]) == {"near"}
    assert set(frame.loc[pieces, "upstream_line"].astype(int)) == {_WALKER_HEAD.count("\n") + 1}
    alone = run_compare({"pkg/redirects.py": target}, [("up", up)], params=MatchParams(lone_unit_evidence=0))
    frame = file_lines(alone, "pkg/redirects.py")
    assert frame.loc[first, "match"] == "near"
    assert set(frame.loc[pieces[1:], "match"]) == {"none"}
_SETTER_FIELDS = ["default", "validator", "repr", "eq", "order", "hash", "init", "converter", "kw_only"]


def _setter_class(first_call: str, comment: str) -> str:
    body = "".join(f'        bound_setattr("{f}", {f})\n' for f in _SETTER_FIELDS)
    return ("class FieldRecord:\n"
            "    def __init__(self, name, default, validator, repr, eq, order, hash, init, converter,\n"
            "                 kw_only, metadata=None):\n"
            "        # Cache the bound setter so the many assignments below stay cheap.\n"
            "        bound_setattr = _OBJECT_SETATTR.__get__(self)\n\n"
            f"        # {comment}\n"
            f"{first_call}{body}"
            "        bound_setattr(\n"
            '            "metadata",\n'
            "            (types.MappingProxyType(dict(metadata)) if metadata else _EMPTY_METADATA),\n"
            "        )\n\n"
            "    def describe_record(self):\n"
            '        return f"FieldRecord({self.name!r}, default={self.default!r})"\n')


def test_a_rewrapped_call_whose_opening_line_stands_elsewhere_upstream_is_paired(run_compare: Runner) -> None:
    """Black exploded ``bound_setattr("name", name)`` into four lines; its opening piece
    ``bound_setattr(`` is also a whole line upstream, the opening of the exploded ``metadata``
    call further down, and a region pairs it there, out of order. The re-wrap rule takes it back:
    the call is paired piece by piece with the line it re-wraps. Off
    (``fill_rewrapped_strays=0``), the call stays none."""
    up = {"pkg/fields.py": _setter_class('        bound_setattr("name", name)\n',
                                         "People do build these records by hand.")}
    exploded = '        bound_setattr(\n            "name",\n            name,\n        )\n'
    target = _setter_class(exploded, "Some people build these records by hand, too.")
    first = target.splitlines().index("        bound_setattr(") + 1
    name_line = up["pkg/fields.py"].splitlines().index('        bound_setattr("name", name)') + 1
    frame = file_lines(run_compare({"pkg/fields.py": target}, [("up", up)]), "pkg/fields.py")
    call = frame.loc[first : first + 3]
    assert list(call["match"]) == ["near"] * 4
    assert set(call["upstream_line"].astype(int)) == {name_line}
    off = file_lines(run_compare({"pkg/fields.py": target}, [("up", up)],
                                 params=MatchParams(fill_rewrapped_strays=0)), "pkg/fields.py")
    assert "none" in set(off.loc[first : first + 3, "match"])


def test_unvendored_import_undoes_the_vendoring_root() -> None:
    assert unvendored_import("from pip._vendor import requests", "pip._vendor") == "import requests"
    assert unvendored_import("from pip._vendor import tomli as tomllib", "pip._vendor") == "import tomli as tomllib"
    assert (unvendored_import("from pip._vendor.cachecontrol.cache import DictCache", "pip._vendor")
            == "from cachecontrol.cache import DictCache")
    assert unvendored_import("import pip._vendor.six.moves", "pip._vendor") == "import six.moves"
    # the target's own imports, and a module that only starts with the root's name, stay
    for own in ("from pip._internal import main", "import os", "from pip._vendored import x", "from . import y"):
        assert unvendored_import(own, "pip._vendor") == own


def test_as_upstream_package_renames_the_module_where_it_stands() -> None:
    from lineage.match.imports import as_upstream_package

    fork = ("nextcord", frozenset({"discord"}))
    assert as_upstream_package("import nextcord", fork) == "import discord"
    assert as_upstream_package("from nextcord.backoff import Backoff", fork) == "from discord.backoff import Backoff"
    assert as_upstream_package("from nextcord import nextcord", fork) == "from discord import nextcord"
    # a package whose name the keyword holds (``import im``, ``from m import x``) is renamed where it stands
    assert as_upstream_package("import im", ("im", frozenset({"up"}))) == "import up"
    assert as_upstream_package("from m import x", ("m", frozenset({"up"}))) == "from up import x"
    # no rename to read: another package, the target's package upstream too, several upstream packages
    assert as_upstream_package("import nextcordx", fork) is None
    assert as_upstream_package("import nextcord", ("nextcord", frozenset({"nextcord"}))) is None
    assert as_upstream_package("import nextcord", ("nextcord", frozenset({"discord", "other"}))) is None
    assert as_upstream_package("x = 1", fork) is None


def test_tree_rename_is_the_one_top_level_name_each_side_lacks() -> None:
    from lineage.match.imports import tree_rename

    scripts = frozenset({"demos", "test", "setup_helper"})
    assert tree_rename(scripts | {"ssh"}, scripts | {"paramiko"}) == ("ssh", "paramiko")
    assert tree_rename(frozenset({"newpkg"}), frozenset({"oldpkg"})) == ("newpkg", "oldpkg")
    assert tree_rename(frozenset({"pkg", "demos"}), frozenset({"pkg", "demos"})) is None  # nothing renamed
    assert tree_rename(frozenset({"a", "b"}), frozenset({"c"})) is None  # which one stands for "c": untold
    assert tree_rename(frozenset({"a"}), frozenset({"c", "d"})) is None
    assert tree_rename(frozenset(), frozenset({"c"})) is None  # the target's names unknown


def test_as_upstream_folder_renames_the_folder_above_the_module() -> None:
    from lineage.match.imports import as_upstream_folder

    moved = ("lightning.pytorch", "pytorch_lightning")
    assert (as_upstream_folder("from lightning.pytorch.loggers.csv_logs import CSVLogger  # noqa: F401", moved)
            == "from pytorch_lightning.loggers.csv_logs import CSVLogger  # noqa: F401")
    assert as_upstream_folder("import lightning.pytorch", moved) == "import pytorch_lightning"
    assert (as_upstream_folder("from lightning.pytorch.core import module as m", moved)
            == "from pytorch_lightning.core import module as m")
    # another folder of the target, a name that only starts alike, a root folder on either side
    assert as_upstream_folder("from lightning.fabric import Fabric", moved) is None
    assert as_upstream_folder("import lightning.pytorchx", moved) is None
    assert as_upstream_folder("import lightning", moved) is None
    assert as_upstream_folder("from pip._vendor.rich import box", ("pip._vendor", "")) is None
    assert as_upstream_folder("from lightning.pytorch import x", ("", "")) is None
    assert as_upstream_folder("x = lightning.pytorch", moved) is None


_VENDORED_UP = ("import requests\n"
                "from cachecontrol.cache import DictCache, SeparateBodyBaseCache\n"
                "from cachecontrol.serialize import Serializer\n\n\n"
                "def build_cached_session(cache_directory, heuristic=None, serializer_version=3):\n"
                "    session = requests.Session()\n"
                "    adapter = CacheControlAdapter(DictCache(), heuristic=heuristic,\n"
                "                                  serializer=Serializer(serializer_version))\n"
                "    session.mount(\"https://\", adapter)\n"
                "    return session, SeparateBodyBaseCache\n")


def test_a_vendored_copy_pairs_the_imports_its_vendoring_tool_rewrote(run_compare: Runner) -> None:
    """pip's vendoring tool re-roots a vendored package's imports at ``pip._vendor``; the
    rewritten imports are copied lines edited (near), as a vendoring diff shows them. Off
    (``fill_vendored_imports=0``) they stay none; a file of the same name outside a vendored
    folder keeps the rule out (its imports of ``pip._vendor`` are its own)."""
    target = (_VENDORED_UP.replace("import requests\n", "from pip._vendor import requests\n")
              .replace("from cachecontrol.", "from pip._vendor.cachecontrol."))
    up = [("up", {"cachecontrol/wrapper.py": _VENDORED_UP})]
    path = "pip/_vendor/cachecontrol/wrapper.py"
    frame = file_lines(run_compare({path: target}, up), path)
    assert list(frame.loc[1:3, "match"]) == ["near"] * 3
    assert list(frame.loc[1:3, "upstream_line"].astype(int)) == [1, 2, 3]
    assert set(frame.loc[6:11, "match"]) == {"verbatim"}
    off = file_lines(run_compare({path: target}, up, params=MatchParams(fill_vendored_imports=0)), path)
    assert off.loc[1, "match"] == "none"  # (the edit rules may still take the longer ones)
    elsewhere = file_lines(run_compare({"pip/cachecontrol/wrapper.py": target}, up), "pip/cachecontrol/wrapper.py")
    assert elsewhere.loc[1, "match"] == "none"


def test_in_a_file_at_the_upstream_files_place_its_end_anchors_the_edited_tail(run_compare: Runner) -> None:
    """The copy's last method was edited in place (fields annotated, re-quoted, read from another
    object) up to the end of the file, so no region reaches it and only its unchanged ``raise``
    line survives. In a file
    standing where the upstream file stands (the same path, or below a renamed top folder), the
    two files' ends anchor that tail and it is aligned as inside a copy: the fields are near. In
    a file of the same name elsewhere in the tree, or with ``fill_same_place_end_anchor`` off,
    they stay none."""
    up = {"pkg/transport.py": _A + _B_UP, **_helpers("pkg")}
    target = _A + _B_TYPED.replace("= options.get(", "= self.options_copy.get(")  # no shape in common
    first = _A.count("\n") + 1
    fields = list(range(first + 2, first + 2 + len(_B_FIELDS)))
    # The same path; then below a top folder the tree shows renamed (its other files copied there).
    for path, folder in (("pkg/transport.py", "pkg"), ("mine/transport.py", "mine")):
        frame = file_lines(run_compare({path: target, **_helpers(folder)}, [("up", up)]), path)
        assert set(frame.loc[fields, "match"]) == {"near"}, path
        assert list(frame.loc[fields, "upstream_line"].astype(int)) == fields, path  # line for line
        assert frame.loc[first + 1, "match"] == "verbatim"
    # A file of that name elsewhere: deeper, or one folder deep under a folder nothing shows renamed
    # (tests/transport.py beside the target's own pkg/transport.py).
    for files, path in (({"pkg/net/transport.py": target}, "pkg/net/transport.py"),
                        ({"pkg/transport.py": _A + _B_UP, "tests/transport.py": target, **_helpers("pkg")},
                         "tests/transport.py")):
        elsewhere = file_lines(run_compare(files, [("up", up)]), path)
        assert elsewhere.loc[first + 1, "match"] == "verbatim" and set(elsewhere.loc[fields, "match"]) == {"none"}
    off = run_compare({"pkg/transport.py": target}, [("up", up)], params=MatchParams(fill_same_place_end_anchor=0))
    assert set(file_lines(off, "pkg/transport.py").loc[fields, "match"]) == {"none"}


def _helpers(folder: str) -> dict[str, str]:
    """Four small modules under ``folder``, the same in target and upstream: with them a target
    folder of another name shows the rename (lineage.match.renames)."""
    return {f"{folder}/helpers_{n}.py": "".join(
        f"def helper_{n}_{k}(value_{k}, other_{n}):\n    return value_{k} * {n * 7 + k} + other_{n}_{k}\n\n"
        for k in range(12)) for n in range(4)}


_SLOTS_OLD = ("    __slots__ = ('hop_limit', 'history_store', 'visited_locations',\n"
              "                 'rejected_schemes', 'last_response')\n")
_SLOTS_NEW = ('    __slots__ = (\n        "history_store",\n        "hop_limit",\n        "visited_locations",\n'
              '        "redirect_cache",\n        "rejected_schemes",\n        "last_response",\n    )\n')


def test_a_collection_exploded_and_edited_is_paired_with_the_upstream_assignment_in_order(
        run_compare: Runner) -> None:
    """``__slots__`` exploded one item a line by a formatter, two items swapped and one added,
    after hundreds of new lines: no line of it is one of the upstream's two, so neither a region
    nor a lone survivor reaches it. As a statement assigned to the same name, in order with the
    pair's copied lines around it, each kept item is near the upstream line holding it (the
    opening line near the first line); the added item stays new. Off, they stay none; an
    assignment of that name out of the pair's order (below the copied lines after it) is not it."""
    inserted = "".join(f"    def hop_helper_{k}(self, value):\n        return value * {k} + self.hop_offset_{k}\n\n"
                       for k in range(220))
    up = {"pkg/redirects.py": _WALKER_HEAD + _SLOTS_OLD + _WALKER_TAIL}
    target = _WALKER_HEAD + inserted + _SLOTS_NEW + _WALKER_TAIL
    first = (_WALKER_HEAD + inserted).count("\n") + 1
    slots = list(range(first, first + _SLOTS_NEW.count("\n")))
    added = first + _SLOTS_NEW.splitlines().index('        "redirect_cache",')
    closing = slots[-1]
    kept = [n for n in slots if n not in (added, closing)]
    old = _WALKER_HEAD.count("\n") + 1
    frame = file_lines(run_compare({"pkg/redirects.py": target}, [("up", up)]), "pkg/redirects.py")
    assert set(frame.loc[kept, "match"]) == {"near"}
    assert frame.loc[added, "match"] == "none"
    assert list(frame.loc[kept, "upstream_line"].astype(int)) == [old, old, old, old, old + 1, old + 1]
    off = run_compare({"pkg/redirects.py": target}, [("up", up)], params=MatchParams(fill_collection_survivors=0))
    assert set(file_lines(off, "pkg/redirects.py").loc[kept, "match"]) == {"none"}
    # The upstream's only __slots__ now stands below the copied describe/forget methods.
    moved = {"pkg/redirects.py": _WALKER_HEAD + "\n" + _WALKER_TAIL.lstrip("\n") + "\n" + _SLOTS_OLD}
    frame = file_lines(run_compare({"pkg/redirects.py": target}, [("up", moved)]), "pkg/redirects.py")
    assert set(frame.loc[kept, "match"]) == {"none"}


_CLASS_A = ('class PartialEmojiThing:\n'
            '    __slots__ = ("animated_flag", "emoji_name", "emoji_id", "_state")\n\n'
            '    def __init__(self, *, animated_flag, emoji_name, emoji_id, state):\n'
            '        self.animated_flag = animated_flag\n'
            '        self.emoji_name = emoji_name\n'
            '        self.emoji_id = emoji_id\n'
            '        self._state = state\n\n')
_CLASS_B = ('class StickerPackThing:\n'
            "    __slots__ = ('_state', 'pack_id', 'pack_name', 'sku_identifier', 'banner_asset', 'guild_id')\n\n"
            '    def describe_sticker_pack(self):\n'
            '        return f"<StickerPack {self.pack_name} sku={self.sku_identifier}>"\n\n')
_CLASS_C_BODY = ('    def __init__(self, *, state, data):\n'
                 "        self._state = state\n"
                 "        self.sticker_id = int(data['id'])\n"
                 "        self.sticker_name = data['name']\n"
                 "        self.guild_id = int(data['guild_id'])\n"
                 "        self.creator_user = data.get('user')\n")
_CLASS_C_UP = ('class GuildStickerThing:\n'
               "    __slots__ = ('_state', 'sticker_id', 'sticker_name', 'guild_id', 'creator_user')\n\n"
               + _CLASS_C_BODY)
_CLASS_C_NEW = ('class GuildStickerThing(Hashable):\n    __slots__ = (\n        "_state",\n        "guild_id",\n'
                '        "sticker_id",\n        "sticker_name",\n        "creator_user",\n    )\n\n' + _CLASS_C_BODY)


def test_a_collection_goes_to_the_assignment_holding_its_items_not_the_nearest(run_compare: Runner) -> None:
    """The fork dropped the class between two it kept: of the two same-named ``__slots__`` in
    order with the pair, the kept class's items are those of its own upstream class, not of the
    dropped class's (the nearest); a new collection of the same name whose items are all new is
    no copy, however alike its head."""
    inserted = "".join(f"def sticker_helper_{k}(value):\n    return value * {k} + OFFSET_{k}\n\n" for k in range(220))
    up_text = _CLASS_A + _CLASS_B + _CLASS_C_UP
    target = _CLASS_A + inserted + _CLASS_C_NEW
    start = target[: target.index(_CLASS_C_NEW)].count("\n") + 1
    own_slots = up_text.splitlines().index(_CLASS_C_UP.splitlines()[1]) + 1
    frame = file_lines(run_compare({"pkg/sticker.py": target}, [("up", {"pkg/sticker.py": up_text})]), "pkg/sticker.py")
    items = list(range(start + 2, start + 7))
    assert set(frame.loc[items, "match"]) == {"near"}
    assert set(frame.loc[[start + 1, *items], "upstream_line"].astype(int)) == {own_slots}
    new_items = _CLASS_C_NEW.replace('"guild_id"', '"banner_url"').replace('"sticker_id"', '"asset_hash"').replace(
        '"sticker_name"', '"preview_id"').replace('"creator_user"', '"format_kind"').replace('"_state"', '"_cache"')
    fresh = file_lines(run_compare({"pkg/sticker.py": _CLASS_A + inserted + new_items},
                                   [("up", {"pkg/sticker.py": up_text})]), "pkg/sticker.py")
    assert set(fresh.loc[[start + 1, *items], "match"]) == {"none"}


_SEND_HEAD = ("def dispatch_envelope(session, envelope):\n"
              "    prepared_body = session.encode_payload(envelope.body, envelope.headers)\n"
              "    try:\n"
              "        response = session.transmit_payload(prepared_body, envelope.timeout)\n"
              "    except SocketFailure as failure:\n")
_SEND_TAIL = ("    response.attach_history(session.history_of(envelope))\n"
              "    return response.wrap_result(envelope.callback_hooks)\n")
_SEND_OWN_BEFORE = "".join(f"        audit_{k} = record_event('failure_{k}', failure)\n" for k in range(5))
_SEND_OWN_AFTER = "".join(f"        notice_{k} = publish_notice('dropped_{k}', envelope)\n" for k in range(5))


def test_a_call_that_gained_arguments_is_its_upstream_line_edited(run_compare: Runner) -> None:
    """``raise ConnectionFailed(failure, envelope=envelope, ...)`` <- ``raise
    ConnectionFailed(failure)``: the keywords added make the texts' ratio low (under
    ``fill_edit_min_similarity`` and ``lone_near_min_similarity``), but the line is the upstream
    line with whole arguments added, so the edited-line rule pairs it and the lone-line rule
    keeps it, with the fork's own lines around it. Off, it stays none."""
    up = {"pkg/transport.py": _SEND_HEAD + "        raise ConnectionFailed(failure)\n" + _SEND_TAIL}
    edited = "        raise ConnectionFailed(failure, envelope=envelope, attempts=session.attempts)\n"
    target = {"pkg/transport.py": _SEND_HEAD + _SEND_OWN_BEFORE + edited + _SEND_OWN_AFTER + _SEND_TAIL}
    line = (_SEND_HEAD + _SEND_OWN_BEFORE).count("\n") + 1
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/transport.py")
    assert frame.loc[line, "match"] == "near"
    assert frame.loc[line, "upstream_line"] == _SEND_HEAD.count("\n") + 1
    assert set(frame.loc[line - 5 : line - 1, "match"]) == {"none"}  # the fork's own lines
    off = run_compare(target, [("up", up)], params=MatchParams(fill_added_arguments=0))
    assert file_lines(off, "pkg/transport.py").loc[line, "match"] == "none"


def test_a_call_with_no_space_before_its_arguments_that_gained_some_is_edited(run_compare: Runner) -> None:
    """As above for a statement that is a call alone, written with no space before its
    arguments (``self.clear(views=False)`` <- ``self.clear()`` of the renamed fork): the
    edited-line rule compares two lines by their first word, which ends at the opening
    bracket, not at the first space (the whole line here). Off, it stays none."""
    up = {"pkg/transport.py": _SEND_HEAD + "        session.reset_connection_pool()\n" + _SEND_TAIL}
    edited = "        session.reset_connection_pool(keep_cookies=True, drop_history=False)\n"
    target = {"pkg/transport.py": _SEND_HEAD + _SEND_OWN_BEFORE + edited + _SEND_OWN_AFTER + _SEND_TAIL}
    line = (_SEND_HEAD + _SEND_OWN_BEFORE).count("\n") + 1
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/transport.py")
    assert frame.loc[line, "match"] == "near"
    assert frame.loc[line, "upstream_line"] == _SEND_HEAD.count("\n") + 1
    off = run_compare(target, [("up", up)], params=MatchParams(fill_added_arguments=0))
    assert file_lines(off, "pkg/transport.py").loc[line, "match"] == "none"


_NETRC_OLD_BODY = ("    netrc_path = locate_netrc_file(DEFAULT_NETRC_LOCATIONS)\n"
                   "    return parse_netrc_credentials(netrc_path, url)\n")
_NETRC_NEW_BODY = ("".join(f"    step_{k} = resolve_credentials_step_{k}(url, attempt={k})\n" for k in range(45))
                   + "    return step_44\n")
_ADAPTER = ('    """The base transport adapter that every concrete adapter derives from."""\n\n'
            "    def __init__(self):\n"
            "        super().__init__()\n\n"
            "    def send_request(self, request, stream=False, timeout=None, verify=True):\n"
            "        raise NotImplementedError\n\n\n")
_STR_OLD = "    def __str__(self):\n        return self.BASE_URL + self.relative_url\n"
_STR_NEW = ("    def __str__(self) -> str:\n"
            + "".join(f"        part_{k} = self.describe_part({k}, self.relative_url)\n" for k in range(45))
            + "        return part_44\n")


def test_one_line_signatures_and_class_headers_are_signature_survivors(run_compare: Runner) -> None:
    """A function whose body was rewritten keeps its one-line signature with a parameter added
    (``def get_netrc_auth(url, raise_errors=False):``), and a class its header without
    ``(object)``; both are far from the pair's other lines (the fork's file of the same name in
    another folder: no end anchor), so only the signature survivors pair them
    (``fill_signature_one_line``, ``fill_signature_classes``). A protocol method's one-line
    signature (``def __str__(self) -> str:``) is one only in a class of the same name
    (``fill_signature_same_class_dunders``, off here; its own test below): its name is every
    class's."""
    up = {"pkg/adapters.py": ("class BaseAdapter(object):\n" + _ADAPTER + "def get_netrc_auth(url):\n"
                              + _NETRC_OLD_BODY + "\n\nclass AssetLink(object):\n" + _STR_OLD)}
    text = ("class BaseAdapter:\n" + _ADAPTER + "def get_netrc_auth(url, raise_errors=False):\n"
            + _NETRC_NEW_BODY + "\n\nclass AssetLink:\n" + _STR_NEW)
    lines = text.splitlines()
    header = lines.index("class AssetLink:") + 1
    signature = lines.index("def get_netrc_auth(url, raise_errors=False):") + 1
    dunder = lines.index("    def __str__(self) -> str:") + 1
    frame = file_lines(run_compare({"fork/adapters.py": text}, [("up", up)],
                                   params=MatchParams(fill_signature_same_class_dunders=0)), "fork/adapters.py")
    assert frame.loc[header, "match"] == "near"
    old_header = up["pkg/adapters.py"].splitlines().index("class AssetLink(object):") + 1
    assert frame.loc[header, "upstream_line"] == old_header
    assert frame.loc[signature, "match"] == "near"
    assert frame.loc[dunder, "match"] == "none"
    off = file_lines(run_compare({"fork/adapters.py": text}, [("up", up)],
                                 params=MatchParams(fill_signature_classes=0, fill_signature_one_line=0)),
                     "fork/adapters.py")
    assert off.loc[header, "match"] == "none"
    assert off.loc[signature, "match"] == "none"


_PROXY_HEAD = ("def should_bypass_proxies(url, no_proxy_list):\n"
               "    parsed_location = urlparse(url.lower())\n"
               "    host_with_port = parsed_location.hostname_with_port\n"
               "    return host_with_port in no_proxy_list\n\n\n")
_HEADERS_TAIL = ("\n\ndef default_headers():\n"
                 "    agent_header = build_user_agent_header(default_user_agent())\n"
                 "    encoding_header = build_accept_encoding_header(SUPPORTED_ENCODINGS)\n"
                 "    return make_header_mapping(agent_header, encoding_header)\n")
_AGENT_OLD = ("def default_user_agent():\n"
              "    implementation = detect_python_implementation()\n"
              "    if implementation == 'CPython':\n"
              "        implementation_version = read_cpython_version()\n"
              "    else:\n"
              "        implementation_version = 'Unknown'\n"
              "    return assemble_agent_string(implementation, implementation_version)\n")
_PROXY_OWN = ("def resolve_proxy_mapping(request, proxies, trust_env=True):\n"
              + "".join(f"    proxy_step_{k} = compute_proxy_step_{k}(request, proxies)\n" for k in range(40))
              + "    if trust_env:\n"
              "        chosen_mapping = merge_environment_proxies(proxy_step_39)\n"
              "    else:\n"
              "        chosen_mapping = proxy_step_39\n"
              "    return chosen_mapping\n\n\n")


def test_a_generic_line_placed_by_position_does_not_bound_a_signature_survivor(run_compare: Runner) -> None:
    """The fork's own function before the rewritten ``default_user_agent`` holds an ``else:``,
    which the alignment inside the copy pairs with the ``else:`` of the old function's body,
    after the old signature. That short generic line bounds no signature survivor's order (the
    lone-line rule drops it later): the signature that gained a parameter is still paired."""
    up = {"pkg/utils.py": _PROXY_HEAD + _AGENT_OLD + _HEADERS_TAIL}
    text = _PROXY_HEAD + _PROXY_OWN + 'def default_user_agent(name="python-requests"):\n' \
        '    return f"{name}/{__version__}"\n' + _HEADERS_TAIL
    line = text.splitlines().index('def default_user_agent(name="python-requests"):') + 1
    frame = file_lines(run_compare({"pkg/utils.py": text}, [("up", up)]), "pkg/utils.py")
    assert frame.loc[line, "match"] == "near"
    assert frame.loc[line, "upstream_line"] == _PROXY_HEAD.count("\n") + 1
    assert frame.loc[text.splitlines().index("    else:") + 1, "match"] == "none"


_HEADERS_UP = ("def default_user_agent():\n"
               "    return assemble_agent_string(detect_python_implementation())\n\n\n"
               "def default_headers():\n"
               "    return CaseInsensitiveDict({\n"
               "        'User-Agent': default_user_agent(),\n"
               "        'Accept-Encoding': ', '.join(('gzip', 'deflate', 'compress')),\n"
               "        'Accept': '*/*'\n"
               "    })\n\n\n"
               "def parse_header_links(value):\n"
               "    links_found = split_link_values(value.strip())\n"
               "    return collect_link_records(links_found)\n")
_HEADERS_MINE = ("def default_user_agent():\n"
                 "    return assemble_agent_string(detect_python_implementation())\n\n\n"
                 "def default_headers():\n"
                 "    return CaseInsensitiveDict(\n"
                 "        {\n"
                 '            "User-Agent": default_user_agent(),\n'
                 '            "Accept-Encoding": DEFAULT_ACCEPT_ENCODING,\n'
                 '            "Accept": "*/*",\n'
                 '            "Connection": "keep-alive",\n'
                 "        }\n"
                 "    )\n\n\n"
                 "def parse_header_links(value):\n"
                 "    links_found = split_link_values(value.strip())\n"
                 "    return collect_link_records(links_found)\n")


def test_a_dict_entry_kept_with_its_value_edited_is_a_copy(run_compare: Runner) -> None:
    """Black exploded the headers dict, and the fork gave ``Accept-Encoding`` another value and
    added ``Connection``: the edited entry shares half its words with the upstream statement,
    under the word share, but keeps its key (``fill_statement_kept_keys``); the new entry stays
    none. Off, the edited entry is none too."""
    up = {"pkg/utils.py": _HEADERS_UP}
    lines = _HEADERS_MINE.splitlines()
    edited = lines.index('            "Accept-Encoding": DEFAULT_ACCEPT_ENCODING,') + 1
    added = lines.index('            "Connection": "keep-alive",') + 1
    frame = file_lines(run_compare({"pkg/utils.py": _HEADERS_MINE}, [("up", up)]), "pkg/utils.py")
    assert frame.loc[edited, "match"] == "near"
    assert frame.loc[edited, "upstream_line"] == _HEADERS_UP.splitlines().index(
        "        'Accept-Encoding': ', '.join(('gzip', 'deflate', 'compress')),") + 1
    assert frame.loc[added, "match"] == "none"
    off = run_compare({"pkg/utils.py": _HEADERS_MINE}, [("up", up)], params=MatchParams(fill_statement_kept_keys=0))
    assert file_lines(off, "pkg/utils.py").loc[edited, "match"] == "none"


_SEND_OLD = ("    async def send(self, content=None, *, tts=False, embed=None, file=None,\n"
             "                   files=None, delete_after=None, nonce=None):\n"
             "        channel = await self._get_channel()\n"
             "        return await channel.deliver_message(content, tts, embed, file, files, nonce)\n")
_SEND_OVERLOADS = "".join("    @overload\n"
                          "    async def send(\n"
                          "        self,\n"
                          f"        content: Optional[str] = ...,\n"
                          f"        *,\n"
                          f"        {kind}: {kind.capitalize()}Payload = ...,\n"
                          "    ) -> Message:\n"
                          "        ...\n\n" for kind in ("embed", "file", "files"))
_SEND_NEW = ("    async def send(\n"
             "        self,\n"
             "        content: Optional[str] = None,\n"
             "        *,\n"
             "        tts: bool = False,\n"
             "        embed: Optional[Embed] = None,\n"
             "        file: Optional[File] = None,\n"
             "        files: Optional[List[File]] = None,\n"
             "        delete_after: Optional[float] = None,\n"
             "        nonce: Optional[Union[str, int]] = None,\n"
             "        stickers: Optional[List[StickerItem]] = None,\n"
             "    ) -> Message:\n"
             + "".join(f"        prepared_{k} = self._prepare_part({k}, content, embed, file)\n" for k in range(45))
             + "        return prepared_44\n")
_MESSAGEABLE_HEAD = ("class Messageable:\n"
                     "    async def _get_channel(self):\n"
                     "        raise NotImplementedError('the messageable must say where messages go')\n\n")
_MESSAGEABLE_TAIL = ("\n    async def trigger_typing(self):\n"
                     "        channel = await self._get_channel()\n"
                     "        await self._state.http.send_typing(channel.id)\n")


def test_an_overloaded_signature_is_defined_once(run_compare: Runner) -> None:
    """A fork typed ``send`` with ``@overload`` declarations above its one definition, which it
    exploded and annotated over a rewritten body: the declarations do not define the name
    (``fill_signature_overloads``), so the definition is a signature survivor of the upstream's
    ``send``. Off, the name stands four times and the signature stays none."""
    up = {"pkg/abc.py": _MESSAGEABLE_HEAD + _SEND_OLD + _MESSAGEABLE_TAIL}
    text = _MESSAGEABLE_HEAD + _SEND_OVERLOADS + _SEND_NEW + _MESSAGEABLE_TAIL
    head = (_MESSAGEABLE_HEAD + _SEND_OVERLOADS).count("\n") + 1
    # the fork's file at another place and naming nothing: out of the weak-pair rule's way
    weak_off = MatchParams(weak_pair_min_run=0)
    frame = file_lines(run_compare({"fork/abc.py": text}, [("up", up)], params=weak_off), "fork/abc.py")
    assert frame.loc[head, "match"] == "near"
    assert frame.loc[head, "upstream_line"] == _MESSAGEABLE_HEAD.count("\n") + 1
    off = run_compare({"fork/abc.py": text}, [("up", up)],
                      params=MatchParams(fill_signature_overloads=0, weak_pair_min_run=0))
    assert file_lines(off, "fork/abc.py").loc[head, "match"] == "none"


def test_a_collection_survivor_is_placed_before_a_one_line_signature(run_compare: Runner) -> None:
    """A one-line signature and an exploded ``__slots__`` that swapped places in the fork: both
    cannot be in order with the copy. The collection, several lines of evidence, is placed first
    and the signature, one line, must fit in order with it (in order only,
    ``fill_signature_any_order=0``, the edited ``reset_hop_counter`` above the slots stays none;
    with it, a function defined once in each file, its header free upstream, is paired out of
    order); placed the other way round, the signature took the order and the collection was
    lost (sglang's ``qwen3_5.py`` ``packed_modules_mapping``, 6 lines)."""
    inserted = "".join(f"    def hop_helper_{k}(self, value):\n        return value * {k} + self.hop_offset_{k}\n\n"
                       for k in range(220))
    reset_old = "    def reset_hop_counter(self):\n        self.hop_counter = 0\n\n"
    reset_new = "    def reset_hop_counter(self, start=0):\n        self.hop_counter = start\n\n"
    up = {"pkg/redirects.py": _WALKER_HEAD + _SLOTS_OLD + "\n" + reset_old + _WALKER_TAIL}
    target = _WALKER_HEAD + inserted + reset_new + _SLOTS_NEW + _WALKER_TAIL
    first = (_WALKER_HEAD + inserted + reset_new).count("\n") + 1
    kept = [first + k for k, text in enumerate(_SLOTS_NEW.splitlines()) if "redirect_cache" not in text][:-1]
    reset = (_WALKER_HEAD + inserted).count("\n") + 1
    frame = file_lines(run_compare({"pkg/redirects.py": target}, [("up", up)],
                                   params=MatchParams(fill_signature_any_order=0)), "pkg/redirects.py")
    assert set(frame.loc[kept, "match"]) == {"near"}
    assert frame.loc[reset, "match"] == "none"
    frame = file_lines(run_compare({"pkg/redirects.py": target}, [("up", up)]), "pkg/redirects.py")
    assert set(frame.loc[kept, "match"]) == {"near"}
    assert frame.loc[reset, "match"] == "near"


_HEADER = """# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Copyright contributors to the Tides project
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
"""
_TIDES = '''def predicted_height(amplitudes, phases, speeds, hours):
    """Sum the constituents' cosine terms at the given hours after the epoch."""
    total = 0.0
    for amplitude, phase, speed in zip(amplitudes, phases, speeds):
        total += amplitude * math.cos(math.radians(speed * hours - phase))
    return total
'''


def test_comment_lines_between_two_survivors_are_copied_with_them(run_compare: Runner) -> None:
    """A licence header taken above copied code, the target's own marker lines between them (no
    region reaches it: notice lines never seed): its long lines survive alone, and its ``#`` and
    URL lines, identical at the same places between two of them, are copied with them
    (``fill_survivor_gap_lines``); before, only the long lines were (sglang's llama.py lines 7-9)."""
    upstream = {"tides/harmonics.py": _HEADER + "import math\n\n\n" + _TIDES}
    target = {"mine/tides.py": _HEADER + "# Adapted from tides/harmonics.py of the tides project.\n"
              + "# Kept in step by hand.\nimport math\n\n\n" + _TIDES}
    header_lines = range(5, 10)
    on = file_lines(run_compare(target, [("tides", upstream)]), "mine/tides.py")
    assert [on.loc[n, "match"] for n in header_lines] == ["verbatim"] * 5
    assert [int(on.loc[n, "upstream_line"]) for n in header_lines] == list(header_lines)
    off = file_lines(run_compare(target, [("tides", upstream)], params=MatchParams(fill_survivor_gap_lines=0)),
                     "mine/tides.py")
    assert [off.loc[n, "match"] for n in header_lines] == ["verbatim", "none", "none", "none", "verbatim"]


# Short imports (under the moved-lines rule's 20 letters and digits, which pairs long ones).
_NAMED_IMPORTS_UP = ("import json\nfrom .m import Req, Resp\n"
                     "from .s import s, S\nfrom .h import hk, dh\n\n\n")
_NAMED_IMPORTS_SORTED = ("import json\nfrom .h import hk\n"
                         "from .m import Resp, Req\n"
                         "from .s import S, s\n\n\n")


def test_an_import_whose_names_isort_sorted_is_that_import(run_compare: Runner) -> None:
    """isort sorted the names inside two imports: each is its upstream import, near, with
    fill_import_sorted_names (none without it); an import that lost a name is not the same
    names and stays none."""
    up = {"pkg/transport.py": _NAMED_IMPORTS_UP + _REWRITTEN_UP}
    target = {"pkg/transport.py": _NAMED_IMPORTS_SORTED + _REWRITTEN_TARGET}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/transport.py")
    got = {n: (frame.loc[n, "match"], frame.loc[n, "upstream_line"]) for n in (2, 3, 4)}
    assert got == {2: ("none", pd.NA), 3: ("near", 2), 4: ("near", 3)}
    off = run_compare(target, [("up", up)], params=MatchParams(fill_import_sorted_names=0))
    assert list(file_lines(off, "pkg/transport.py").loc[[3, 4], "match"]) == ["none", "none"]


_PAYLOAD_HEAD = ("class HTTPClient:\n"
                 "    def start_private_message(self, user_id):\n"
                 "        body = {'recipient_id': user_id}\n"
                 "        return self.request_route(Route('POST', '/users/@me/channels'), json=body)\n\n")
_PAYLOAD_BODY = ("        payload = {}\n"
                 "        if content:\n"
                 "            payload['content'] = content\n"
                 "        if tts:\n"
                 "            payload['tts'] = True\n"
                 "        if embed:\n"
                 "            payload['embed'] = embed\n"
                 "        if nonce:\n"
                 "            payload['nonce'] = nonce\n")
_PAYLOAD_OLD_SEND = ("    def send_message(self, channel_id, content, *, tts=False, embed=None, nonce=None):\n"
                     "        route = Route('POST', '/channels/{channel_id}/messages', channel_id=channel_id)\n"
                     + _PAYLOAD_BODY + "        return self.request_route(route, json=payload)\n\n")
_PAYLOAD_PARAMS = "        content,\n        *,\n        tts=False,\n        embed=None,\n        nonce=None,\n    ):\n"
# The fork moved the payload into a new helper placed above ``send_message``, both exploded.
_PAYLOAD_HELPER = ("    def build_message_payload(\n        self,\n" + _PAYLOAD_PARAMS + _PAYLOAD_BODY
                   + "        return payload\n\n")
_PAYLOAD_NEW_SEND = ("    def send_message(\n        self,\n        channel_id,\n" + _PAYLOAD_PARAMS
                     + "        route = Route('POST', '/channels/{channel_id}/messages', channel_id=channel_id)\n"
                     "        payload = self.build_message_payload(content, tts=tts, embed=embed, nonce=nonce)\n"
                     "        return self.request_route(route, json=payload)\n\n")
_PAYLOAD_TAIL = ("    def send_typing(self, channel_id):\n"
                 "        route = Route('POST', '/channels/{channel_id}/typing', channel_id=channel_id)\n"
                 "        return self.request_route(route)\n")


def test_a_header_is_not_given_to_a_definition_of_another_name(run_compare: Runner) -> None:
    """The fork moved ``send_message``'s body into a new helper defined right above it, both
    signatures exploded: by position the alignment gives the old signature's pieces to the
    helper's header (``self,``, ``*,``, ``tts=False,``), although the file still defines
    ``send_message``, the old function's later version. With ``fill_header_names`` the helper's
    header is unpaired (its body, the old body moved, stays copied); off, it names the old
    ``send_message`` line."""
    up = {"pkg/http.py": _PAYLOAD_HEAD + _PAYLOAD_OLD_SEND + _PAYLOAD_TAIL}
    text = _PAYLOAD_HEAD + _PAYLOAD_HELPER + _PAYLOAD_NEW_SEND + _PAYLOAD_TAIL
    first = _PAYLOAD_HEAD.count("\n") + 1
    header = list(range(first, first + 8))
    body = first + _PAYLOAD_HELPER.splitlines().index("            payload['nonce'] = nonce")
    old_send = _PAYLOAD_HEAD.count("\n") + 1
    off = file_lines(run_compare({"pkg/http.py": text}, [("up", up)], params=MatchParams(fill_header_names=0)),
                     "pkg/http.py")
    assert (off.loc[header, "match"] != "none").sum() >= 3
    assert set(off.loc[header][off.loc[header, "match"] != "none"]["upstream_line"].astype(int)) == {old_send}
    frame = file_lines(run_compare({"pkg/http.py": text}, [("up", up)]), "pkg/http.py")
    assert set(frame.loc[header, "match"]) == {"none"}
    assert frame.loc[body, "match"] != "none"


def test_a_function_moved_within_its_file_keeps_its_signature(run_compare: Runner) -> None:
    """The same fork: ``send_message``'s old body now opens the helper above it, so its own
    exploded signature comes after the lines the old signature stood before. Defined once in
    each file, its header free upstream, it is paired out of order (``fill_signature_any_order``):
    every line near, naming the old one-line signature; in order only (0), it stays none."""
    up = {"pkg/http.py": _PAYLOAD_HEAD + _PAYLOAD_OLD_SEND + _PAYLOAD_TAIL}
    text = _PAYLOAD_HEAD + _PAYLOAD_HELPER + _PAYLOAD_NEW_SEND + _PAYLOAD_TAIL
    first = (_PAYLOAD_HEAD + _PAYLOAD_HELPER).count("\n") + 1
    header = list(range(first, first + 9))
    old_send = _PAYLOAD_HEAD.count("\n") + 1
    frame = file_lines(run_compare({"pkg/http.py": text}, [("up", up)]), "pkg/http.py")
    assert set(frame.loc[header, "match"]) == {"near"}
    assert set(frame.loc[header, "upstream_line"].astype(int)) == {old_send}
    off = run_compare({"pkg/http.py": text}, [("up", up)], params=MatchParams(fill_signature_any_order=0))
    assert set(file_lines(off, "pkg/http.py").loc[header, "match"]) == {"none"}


_MORSEL_UP = ("import time\n\n\n"
              "def morsel_to_cookie_of_the_jar(morsel):\n"
              "    expires = compute_the_expiry_of_the_morsel(morsel)\n"
              "    c = create_cookie(\n"
              "        name=morsel.key,\n"
              "        value=morsel.value,\n"
              "        version=morsel['version'] or 0,\n"
              "        port=None,\n"
              "        domain=morsel['domain'],\n"
              "        path=morsel['path'],\n"
              "        secure=bool(morsel['secure']),\n"
              "        expires=expires,\n"
              "        discard=False,\n"
              "        comment=morsel['comment'],\n"
              "        comment_url=bool(morsel['comment']),\n"
              "        rest={'HttpOnly': morsel['httponly']},\n"
              "        rfc2109=False,)\n"
              "    return c\n")
# requests 2.32.3: the same arguments sorted by name, the call returned at once.
_MORSEL_TARGET = ("import time\n\n\n"
                  "def morsel_to_cookie_of_the_jar(morsel):\n"
                  "    expires = compute_the_expiry_of_the_morsel(morsel)\n"
                  "    return create_cookie(\n"
                  "        comment=morsel[\"comment\"],\n"
                  "        comment_url=bool(morsel[\"comment\"]),\n"
                  "        discard=False,\n"
                  "        domain=morsel[\"domain\"],\n"
                  "        expires=expires,\n"
                  "        name=morsel.key,\n"
                  "        path=morsel[\"path\"],\n"
                  "        port=None,\n"
                  "        rest={\"HttpOnly\": morsel[\"httponly\"]},\n"
                  "        rfc2109=False,\n"
                  "        secure=bool(morsel[\"secure\"]),\n"
                  "        value=morsel.value,\n"
                  "        version=morsel[\"version\"] or 0,\n"
                  "    )\n")


def test_arguments_sorted_by_name_pair_with_their_own_lines(run_compare: Runner) -> None:
    """Every argument line of the sorted call names the upstream line of the same argument
    (``fill_resorted_arguments``); without the rule some stay none or name the argument that
    stood at their place."""
    files = {"pkg/cookies.py": _MORSEL_TARGET}, [("up", {"pkg/cookies.py": _MORSEL_UP})]
    up_lines = _MORSEL_UP.splitlines()
    t_lines = _MORSEL_TARGET.splitlines()

    def right(frame: pd.DataFrame) -> int:
        """Argument lines naming the upstream line of their own argument."""
        return sum(frame.loc[n, "match"] != "none" and up_lines[int(frame.loc[n, "upstream_line"]) - 1].strip()
                   .replace("'", '"').rstrip(",)") == t_lines[n - 1].strip().rstrip(",)") for n in range(7, 20))

    on = file_lines(run_compare(*files), "pkg/cookies.py")
    assert right(on) == 13
    off = file_lines(run_compare(*files, params=MatchParams(fill_resorted_arguments=0)), "pkg/cookies.py")
    assert right(off) < 13


_M0 = '    # Request sending, with the connection checked first\n\n'
_NEW = ('    def flush_pending(self):\n'
        '        raise_if_closed_connection_state(self.sock, self.address)\n'
        '        return drain_all_of_them(self.pending_requests)\n\n')
# _B_TYPED with its signature exploded one parameter a line, as Black does, and not typed
_B_EXPLODED = ('    def send_request(\n        self,\n        method,\n        url,\n        timeout=None,\n    ):\n'
               + _B_TYPED.split("\n", 1)[1])


def test_a_survivor_text_standing_twice_in_the_target_waits_for_the_alignment(run_compare: Runner) -> None:
    """After a long inserted block (only survivors there), a new method repeats a distinctive line
    of the old method below it: the text says which upstream line it is, not which of the two
    target lines kept it, and the first in order was paired (the new method's), so the old
    method's own line stayed none. With ``survivor_target_repeats`` it is no survivor; the
    stretch between the survivors around it is aligned as inside a copy, which pairs the old
    method's line (in order with its re-wrapped signature and its fields) and leaves the new
    method's none."""
    inserted = "".join(f"    def helper_number_{k}(self, value):\n        return value * {k} + self.offset_{k}\n\n"
                       for k in range(220))  # 440 content lines: more than align_max_gap
    up = {"pkg/transport.py": _A + _M0 + _B_UP + _C}
    # new code after the survivor too, so that it and the repeated line chain into no region
    more = "".join(f"    def other_helper_{k}(self):\n        return self.offset_{k} - {k}\n\n" for k in range(10))
    target = _A + inserted + _M0 + more + _NEW + _B_EXPLODED + _C
    new_line = (_A + inserted + _M0 + more).count("\n") + 2
    old_line = new_line + _NEW.count("\n") + 5
    up_line = (_A + _M0).count("\n") + 2
    frame = file_lines(run_compare({"pkg/transport.py": target}, [("up", up)]), "pkg/transport.py")
    assert frame.loc[new_line, "match"] == "none"
    assert (frame.loc[old_line, "match"], int(frame.loc[old_line, "upstream_line"])) == ("verbatim", up_line)
    off = file_lines(run_compare({"pkg/transport.py": target}, [("up", up)],
                                 params=MatchParams(survivor_target_repeats=0)), "pkg/transport.py")
    assert (off.loc[new_line, "match"], int(off.loc[new_line, "upstream_line"])) == ("verbatim", up_line)
    assert off.loc[old_line, "match"] == "none"


def test_the_stretch_between_an_edge_block_and_the_copy_is_aligned_inside(run_compare: Runner) -> None:
    """A re-quoted ``__all__`` above the first copied line, one old entry dropped since: its first
    run of entries is a block (edge_blocks); with ``fill_edge_block_anchors`` the block bounds
    the stretch down to the copy, which is then aligned as inside a copy, so the entries after
    the dropped one (too few for a block of their own) are copied too, and the new entries are
    not; off, the old ones stay none.
    (The statement rule, which also completes an ``__all__`` from its paired lines, is off.)"""
    up = {"pkg/errors.py": _errors_module(_NAMES, "'")}
    # "CommandNotFound" dropped; new entries at the end stop the region of the class below from
    # extending upward
    mine = [*_NAMES[:7], *_NAMES[8:], "FlagError", "BadFlagArgument", "TooManyFlags"]
    target = {"pkg/errors.py": _errors_module(mine, '"')}
    after = range(9, 11)  # "DisabledCommand", "CommandInvokeError"
    on = file_lines(run_compare(target, [("up", up)], params=MatchParams(fill_statement_max_lines=0)), "pkg/errors.py")
    assert list(on.loc[2:8, "match"]) == ["near"] * 7
    assert list(on.loc[after, "match"]) == ["near"] * 2
    assert list(on.loc[after, "upstream_line"].astype(int)) == [10, 11]
    assert set(on.loc[11:13, "match"]) == {"none"}
    off = run_compare(target, [("up", up)], params=MatchParams(fill_statement_max_lines=0, fill_edge_block_anchors=0))
    assert set(file_lines(off, "pkg/errors.py").loc[after, "match"]) == {"none"}


def _errors_module_tail(names: list[str], quote: str) -> str:
    """:func:`_errors_module` with ``__all__`` below the class."""
    return _ERRORS_BODY.lstrip("\n") + "\n\n__all__ = (\n" + "".join(f"    {quote}{n}{quote},\n" for n in names) + ")\n"


def test_the_stretch_between_the_copy_and_an_edge_block_below_is_aligned_inside(run_compare: Runner) -> None:
    """The edge block after the pair's last paired line bounds the stretch above it
    (``fill_edge_block_anchors``): ``__all__`` below the copied class, re-quoted, one old entry
    dropped since; the two old entries above the dropped one (too few for a block) are copied,
    the new entries before them are not; off, the two stay none. (The upstream file sits at another
    path: at the target's place the files' ends would anchor that stretch anyway.)"""
    up = {"old/exceptions.py": _errors_module_tail(_NAMES, "'")}  # not at its place: no end anchor
    mine = ["FlagError", "BadFlagArgument", "TooManyFlags", *_NAMES[:2], *_NAMES[3:]]
    target = {"pkg/errors.py": _errors_module_tail(mine, '"')}
    params = MatchParams(fill_statement_max_lines=0)
    on = file_lines(run_compare(target, [("up", up)], params=params), "pkg/errors.py")
    assert list(on.loc[14:15, "match"]) == ["near"] * 2
    assert list(on.loc[14:15, "upstream_line"].astype(int)) == [11, 12]
    assert set(on.loc[11:13, "match"]) == {"none"}
    off = run_compare(target, [("up", up)], params=MatchParams(fill_statement_max_lines=0,
                                                                       fill_edge_block_anchors=0))
    assert set(file_lines(off, "pkg/errors.py").loc[14:15, "match"]) == {"none"}


def test_a_survivor_text_standing_as_often_upstream_pairs_in_order(run_compare: Runner) -> None:
    """``survivor_target_repeats`` waits only for a text standing more often in the target's
    stretch than in the upstream's: two rewritten methods that each kept the same check, as
    their old versions had it, pair each check with its own old one, in order."""
    check = "        raise_if_closed_connection_state(self.sock, self.address)\n"
    up_methods = ("    def send_request(self, method, url):\n" + check
                  + "        return self.transmit_the_request(method, url)\n\n"
                  "    def send_ping(self):\n" + check + "        return self.transmit_the_ping_frame()\n\n")
    methods = ("    def send_the_request_now(self, verb, path):\n" + check
               + "        return dispatch_request_over_wire(verb, path)\n\n"
               "    def ping_the_peer(self, payload=b''):\n" + check
               + "        return write_ping_frame_to(self.sock, payload)\n\n")
    inserted = "".join(f"    def helper_number_{k}(self, value):\n        return value * {k} + self.offset_{k}\n\n"
                       for k in range(220))  # more than align_max_gap: only survivors there
    # new code after them too, so that they chain into no region with the method below
    more = "".join(f"    def other_helper_{k}(self):\n        return self.offset_{k} - {k}\n\n" for k in range(20))
    target = _A + inserted + methods + more + _C
    first = (_A + inserted).count("\n") + 2
    frame = file_lines(run_compare({"pkg/transport.py": target}, [("up", {"pkg/transport.py": _A + up_methods + _C})]),
                       "pkg/transport.py")
    up_first = _A.count("\n") + 2
    assert list(frame.loc[[first, first + 4], "match"]) == ["verbatim"] * 2
    assert list(frame.loc[[first, first + 4], "upstream_line"].astype(int)) == [up_first, up_first + 4]


_CONVERTERS_UP = '''"""Converters for the change log."""

from .colours import Shade
from .rights import Rights


def _convert_rights(record, raw):
    return Rights(raw)


def _convert_shade(record, raw):
    return Shade(raw)


def _convert_ident(record, raw):
    return int(raw)


def _convert_holder(record, raw):
    if raw is None:
        return None
    return record.find_person(int(raw))
'''


def test_a_line_edited_between_two_late_pairs_is_copied(run_compare: Runner) -> None:
    """The typed header of ``_convert_rights`` stands after a long new list, so no alignment
    reaches it and a later rule (the signature rule) pairs it; its one body line, edited in place
    (``return Rights(int(raw))`` <- ``return Rights(raw)``), stands alone between that header and
    the next pair. With ``fill_late_edit_max_gap`` the stretch is read as rule (a)'s edited lines
    are, and the line is copied; off, and the signature-bodies rule, the anchored weak regions and
    the late alignment off too (the line is also the body below that header, in a weak region of
    the pair, and in a stretch with a late end), it stays none (and so do the new list's lines,
    on or off)."""
    new_list = "KNOWN_KINDS = [\n" + "".join(f'    "kind_{i:02d}",\n' for i in range(60)) + "]\n"
    mine = _CONVERTERS_UP.replace("from .rights import Rights\n", "from .rights import Rights\n\n\n" + new_list)
    mine = (mine.replace("(record, raw):", "(record: LogRecord, raw: Raw) -> Value:")
            .replace("return Rights(raw)", "return Rights(int(raw))"))
    edited = mine.splitlines().index("    return Rights(int(raw))") + 1
    up = {"pkg/changes.py": _CONVERTERS_UP}
    on = file_lines(run_compare({"pkg/changes.py": mine}, [("up", up)]), "pkg/changes.py")
    assert on.loc[edited, "match"] == "near"
    assert int(on.loc[edited, "upstream_line"]) == _CONVERTERS_UP.splitlines().index("    return Rights(raw)") + 1
    assert on.loc[edited - 1, "match"] == "near"  # the header
    assert set(on.loc[edited - 64 : edited - 4, "match"]) == {"none"}  # the new list
    # the line is also the body below a signature the signature rule paired (fill_signature_bodies,
    # round user162): with that rule on, it is copied without late edits too
    bodies = file_lines(run_compare({"pkg/changes.py": mine}, [("up", up)],
                                    params=MatchParams(fill_late_edit_max_gap=0)), "pkg/changes.py")
    assert bodies.loc[edited, "match"] == "near"
    # and the lines after the new list make a weak region of the file's own pair, in order after
    # its strong region (weak_region_anchored, round fork171): it stands, and the line is paired
    anchored = file_lines(run_compare({"pkg/changes.py": mine}, [("up", up)],
                                      params=MatchParams(fill_late_edit_max_gap=0, fill_signature_bodies=0)),
                          "pkg/changes.py")
    assert anchored.loc[edited, "match"] == "near"
    # and it stands between the header the signature rule paired and the next pair: a stretch
    # with a late end, which the late alignment reads (fill_late_alignment, round fork172)
    late = file_lines(run_compare({"pkg/changes.py": mine}, [("up", up)],
                                  params=MatchParams(fill_late_edit_max_gap=0, fill_signature_bodies=0,
                                                     weak_region_anchored=0)),
                      "pkg/changes.py")
    assert late.loc[edited, "match"] == "near"
    off = file_lines(run_compare({"pkg/changes.py": mine}, [("up", up)],
                                 params=MatchParams(fill_late_edit_max_gap=0, fill_signature_bodies=0,
                                                    weak_region_anchored=0, fill_late_alignment=0)),
                     "pkg/changes.py")
    assert off.loc[edited, "match"] == "none"


_ROUTER_OLD = ("class RouteMixin:\n"
               "    def find_route(self, name):\n"
               "        \"\"\"Look a route up by its dotted name; None when no route holds it.\"\"\"\n"
               "        parts = name.split('.')\n"
               "        node = self.route_table.get(parts[0])\n"
               "        for part in parts[1:]:\n"
               "            node = node.children_by_name[part]\n"
               "        return node\n\n"
               "    def route(self, *args, **kwargs):\n"
               "        \"\"\"A shortcut decorator that makes a :class:`Route` and adds it to\n"
               "        this mixin's table through :meth:`add_route`.\n"
               "        \"\"\"\n"
               "        def decorator(func):\n"
               "            kwargs.setdefault('owner', self)\n"
               "            made = route(*args, **kwargs)(func)\n"
               "            self.add_route(made)\n"
               "            return made\n"
               "        return decorator\n\n\n"
               "def route(name=None, cls=None, **attrs):\n"
               "    \"\"\"Make a :class:`Route` of a handler; the module's own ``route``.\"\"\"\n"
               "    return lambda func: (cls or Route)(func, name=name or func.__name__, **attrs)\n")


def _router_new() -> tuple[str, int, int]:
    """The fork's ``RouteMixin``: ``route`` typed by two ``@overload`` declarations above its
    definition, all three exploded (the module defines a ``route`` of its own too, so the
    signature survivors, which pair a name each file defines once, do not apply); returns the
    text and the lines of the first declaration's ``def`` and of the definition's."""
    head = _ROUTER_OLD.split("    def route(")[0].replace("'", '"')
    declaration = ("    @overload\n"
                   "    def route(\n"
                   "        self,\n"
                   "        name: str = ...,\n"
                   "        cls: Type[{kind}] = Route,\n"
                   "        *args: Any,\n"
                   "        **kwargs: Any,\n"
                   "    ) -> Callable[[Handler[P, T]], {kind}]:\n"
                   "        ...\n\n")
    definition = ("    def route(\n"
                  "        self,\n"
                  "        name: str = MISSING,\n"
                  "        cls: Type[RouteT] = MISSING,\n"
                  "        *args: Any,\n"
                  "        **kwargs: Any,\n"
                  "    ) -> Callable[[Handler[P, T]], RouteT]:\n")
    body = _ROUTER_OLD.split("**kwargs):\n", 1)[1].replace("'", '"').replace(
        "route(*args, **kwargs)", "route(name=name, cls=cls, *args, **kwargs)")
    text = head + declaration.format(kind="Route[P, T]") + declaration.format(kind="RouteT") + definition + body
    first = head.count("\n") + 2
    defined = (head + declaration * 2).count("\n") + 1
    return text, first, defined


def test_an_overload_declaration_does_not_take_its_definition_s_upstream(run_compare: Runner) -> None:
    """A fork typed ``route`` with two ``@overload`` declarations above its definition, each
    exploded and annotated, where the upstream has one ``def route(self, *args, **kwargs):``.
    The edited-statements rule pairs the upstream ``def`` with the definition
    (``fill_statement_overloads``), whose body is the upstream's; off, the first declaration,
    as like it by its characters, takes it and the definition stays none."""
    text, first, defined = _router_new()
    up = {"pkg/routes.py": _ROUTER_OLD}
    up_def = _ROUTER_OLD.split("    def route(")[0].count("\n") + 1
    frame = file_lines(run_compare({"fork/routes.py": text}, [("up", up)]), "fork/routes.py")
    assert frame.loc[defined, "match"] == "near" and frame.loc[defined, "upstream_line"] == up_def
    assert frame.loc[first, "match"] == "none" and frame.loc[first + 1, "match"] == "none"
    off = file_lines(run_compare({"fork/routes.py": text}, [("up", up)],
                                 params=MatchParams(fill_statement_overloads=0)), "fork/routes.py")
    assert off.loc[first, "match"] == "near" and off.loc[first, "upstream_line"] == up_def
    assert off.loc[defined, "match"] == "none"


_DUMPER_UP = '''__all__ = ['BaseWriter', 'PlainWriter']

from .emitter import *
from .serializer import *

class BaseWriter(Emitter, Serializer, BaseRepresenter, BaseResolver):

    def __init__(self, stream,
            default_style=None, default_flow_style=None,
            canonical=None, indent=None, width=None,
            allow_unicode=None, line_break=None,
            encoding=None, explicit_start=None, explicit_end=None,
            version=None, tags=None):
        Emitter.__init__(self, stream, canonical=canonical,
                indent=indent, width=width,
                allow_unicode=allow_unicode, line_break=line_break)
        Serializer.__init__(self, encoding=encoding,
                explicit_start=explicit_start, explicit_end=explicit_end,
                version=version, tags=tags)
        Representer.__init__(self, default_style=default_style,
                default_flow_style=default_flow_style)
        Resolver.__init__(self)

class PlainWriter(Emitter, Serializer, SafeRepresenter, Resolver):

    def __init__(self, stream):
        Emitter.__init__(self, stream)
'''

_PARAMETERS = ["stream", "default_style", "default_flow_style", "canonical", "indent", "width", "allow_unicode",
               "line_break", "encoding", "explicit_start", "explicit_end", "version", "tags", "block_seq_indent"]


def _exploded_call(name: str, arguments: list[str]) -> str:
    return f"        {name}(\n" + "".join(f"            {a},\n" for a in arguments) + "        )\n"


_DUMPER_MINE = ("from __future__ import annotations\n\nfrom pkg.emitter import Emitter\nfrom pkg.serializer import "
                "Serializer\n\n__all__ = ['BaseWriter', 'PlainWriter']\n\n\n"
                "class BaseWriter(Emitter, Serializer, BaseRepresenter, BaseResolver):\n"
                "    def __init__(\n        self: Any,\n"
                + "".join(f"        {name}: Any = None,\n" for name in _PARAMETERS)
                + "    ) -> None:\n"
                + _exploded_call("Emitter.__init__", ["self", "stream", *(f"{a}={a}" for a in (
                    "canonical", "indent", "width", "allow_unicode", "line_break", "block_seq_indent")), "dumper=self"])
                + _exploded_call("Serializer.__init__", ["self", *(f"{a}={a}" for a in (
                    "encoding", "explicit_start", "explicit_end", "version", "tags")), "dumper=self"])
                + _exploded_call("Representer.__init__", ["self", "default_style=default_style",
                                                          "default_flow_style=default_flow_style", "dumper=self"])
                + "        Resolver.__init__(self, loadumper=self)\n\n\n"
                "class PlainWriter(Emitter, Serializer, SafeRepresenter, Resolver):\n"
                "    def __init__(self, stream: StreamType) -> None:\n"
                "        Emitter.__init__(self, stream)\n")


def test_the_body_below_a_late_signature_is_read_as_inside_a_copy(run_compare: Runner) -> None:
    """ruamel.yaml 0.18.6's ``dumper.py`` (from PyYAML 3.11's, written here with other names): a
    ``def __init__`` exploded and annotated seeds nothing, so rule (a) read the class body as one
    stretch, its calls exploded one argument a line (27 lines of 9), over ``fill_edit_max_gap``;
    the signature rule paired the signature later and its body stayed none. With
    ``fill_signature_bodies`` the body is read as a stretch between two anchors: every kept
    argument and bracket is copied, each added one (``dumper=self``, ``block_seq_indent=...``)
    stays none; off, and the late alignment off too (which reads the same stretch, bounded by
    the late ``) -> None:``, and pairs the same lines), and the unequal blocks' rule off (rule
    (a)'s stretch is the class body, 27 lines against 9 at the upstream file's path: it pairs
    the kept lines by similarity), the body is none as before."""
    lines = _DUMPER_MINE.splitlines()
    first = lines.index("        Emitter.__init__(") + 1
    last = lines.index("        Resolver.__init__(self, loadumper=self)") + 1
    new_pieces = ("dumper=self,", "block_seq_indent=block_seq_indent,")
    added = {k + 1 for k, line in enumerate(lines) if line.strip() in new_pieces}
    assert len(added) == 4 and all(first < k < last for k in added)
    up = {"pkg/dumper.py": _DUMPER_UP}
    on = file_lines(run_compare({"pkg/dumper.py": _DUMPER_MINE}, [("up", up)]), "pkg/dumper.py")
    body = on.loc[first:last]
    assert set(body.loc[sorted(added), "match"]) == {"none"}
    kept = body.drop(index=sorted(added))
    assert set(kept["match"]) == {"near"} and len(kept) == last - first + 1 - 4
    u_lines = _DUMPER_UP.splitlines()
    # each kept piece is paired with the upstream line holding it
    for row in kept.itertuples():
        piece = lines[row.line - 1].strip().rstrip(",").split("(")[0].split("=")[0]
        assert piece in u_lines[int(row.upstream_line) - 1], (row.line, piece)
    assert on.loc[first - 1, "match"] == "near"  # ``) -> None:``, paired by the signature rule
    late = file_lines(run_compare({"pkg/dumper.py": _DUMPER_MINE}, [("up", up)],
                                  params=MatchParams(fill_signature_bodies=0)), "pkg/dumper.py")
    assert late.loc[first:last, ["match", "upstream_line"]].equals(on.loc[first:last, ["match", "upstream_line"]])
    off = file_lines(run_compare({"pkg/dumper.py": _DUMPER_MINE}, [("up", up)],
                                 params=MatchParams(fill_signature_bodies=0, fill_late_alignment=0,
                                                    fill_placed_unequal_edits=0)), "pkg/dumper.py")
    assert set(off.loc[first:last, "match"]) == {"none"}
    assert off.loc[first - 1, "match"] == "near"


_BLEND_HEAD = """import math

from .layers import ColumnLayer, RowLayer


class Blender:

    def __init__(self, width, depth, scheme=None, prefix=""):
        self.width = width
        self.depth = depth
        self.left_proj = ColumnLayer(width, depth, scheme=scheme, prefix=prefix + ".left_proj")
        self.right_proj = ColumnLayer(width, depth, scheme=scheme, prefix=prefix + ".right_proj")
        self.out_proj = RowLayer(depth, width, scheme=scheme, prefix=prefix + ".out_proj")
        self.scale = math.sqrt(depth) / max(1, width // 7)
        self.offsets = [i * self.scale for i in range(depth)]

"""
_BLEND_TAIL = """
    def describe(self):
        return f"Blender(width={self.width}, depth={self.depth}, scale={self.scale:.3f})"
"""
_BLEND_UP = _BLEND_HEAD + """    def mix(self, x):
        left, _ = self.left_proj(x)
        right, _ = self.right_proj(x)
        x, _ = self.out_proj(left * right)
        return x
""" + _BLEND_TAIL
# the target's own method, long enough that rule (a) does not read the stretch it stands in
_BLEND_OWN = ("    def tally(self, name_0, name_1, name_2, name_3, name_4):\n"
              + "".join(f"        total_{k} = self.offsets[{k}] * {k + 3} + len(name_{k % 5})\n" for k in range(45))
              + "        return total_44\n\n")
_BLEND_SIGNATURE = ("    def mix(\n        self,\n        x: Tensor,\n        batch: Optional[Batch] = None,\n"
                    "    ) -> Tensor:\n")


def test_a_body_whose_names_were_all_changed_is_not_read_as_the_body_below_a_late_signature(
        run_compare: Runner) -> None:
    """sglang's ``LagunaMLP.forward`` (written here with other names): below a signature the
    signature rule paired late, a body of the same length whose names were all changed (one
    merged projection for the upstream's two) was paired line by line by similarity:
    ``both, _ = self.both_proj(x)`` <- ``left, _ = self.left_proj(x)``. With
    ``fill_body_min_name_share`` a line edited in place must share that share of its names with
    its partner, and a line refused so is not paired with that file by a later rule either
    (``late_edits`` paired them with the body rule's floor off); a body whose names were
    edited (``left_projection``), not replaced, is still copied."""
    renamed = ("        both, _ = self.both_proj(x)\n        x = self.act_fn(both)\n"
               "        x, _ = self.down_proj(x)\n        return x\n")
    mine = _BLEND_HEAD + _BLEND_OWN + _BLEND_SIGNATURE + renamed + _BLEND_TAIL
    lines = mine.splitlines()
    first = lines.index("        both, _ = self.both_proj(x)") + 1
    up = {"pkg/blend.py": _BLEND_UP}
    on = file_lines(run_compare({"pkg/blend.py": mine}, [("up", up)]), "pkg/blend.py")
    assert on.loc[first - 1, "match"] == "near"  # ``) -> Tensor:``, the signature rule's
    assert list(on.loc[first : first + 3, "match"]) == ["none", "none", "none", "verbatim"]
    off = file_lines(run_compare({"pkg/blend.py": mine}, [("up", up)],
                                 params=MatchParams(fill_body_min_name_share=0.0)), "pkg/blend.py")
    assert list(off.loc[first : first + 3, "match"]) == ["near", "none", "near", "verbatim"]
    assert list(off.loc[first : first + 3, "upstream_line"].iloc[[0, 2]]) == [
        _BLEND_UP.splitlines().index("        left, _ = self.left_proj(x)") + 1,
        _BLEND_UP.splitlines().index("        right, _ = self.right_proj(x)") + 1]
    edited = ("        left, _ = self.left_projection(x)\n        right, _ = self.right_projection(x)\n"
              "        x, _ = self.out_proj(left * right, batch)\n        return x\n")
    kept = file_lines(run_compare({"pkg/blend.py": _BLEND_HEAD + _BLEND_OWN + _BLEND_SIGNATURE + edited + _BLEND_TAIL},
                                  [("up", up)]), "pkg/blend.py")
    u_lines = _BLEND_UP.splitlines()
    assert list(kept.loc[first : first + 3, "match"]) == ["near", "near", "near", "verbatim"]
    kept_lines = ("        left, _ = self.left_proj(x)", "        right, _ = self.right_proj(x)",
                  "        x, _ = self.out_proj(left * right)", "        return x")
    assert list(kept.loc[first : first + 3, "upstream_line"]) == [u_lines.index(text) + 1 for text in kept_lines]


_CHANNELS_UP = ("    async def create_text_channel(self, name, *, overwrites=None, category=None, reason=None,"
                " **options):\n"
                "        data = await self._create_channel(name, overwrites, ChannelType.text, category, reason=reason,"
                " **options)\n"
                "        channel = TextChannel(state=self._state, guild=self, data=data)\n"
                "        return channel\n")
# Black broke the call open and the fork named its positional arguments.
_CHANNELS_NAMED = ("    async def create_text_channel(self, name, *, overwrites=None, category=None, reason=None,"
                   " **options):\n"
                   "        data = await self._create_channel(\n"
                   "            name,\n"
                   "            overwrites=overwrites,\n"
                   "            channel_type=ChannelType.text,\n"
                   "            category=category,\n"
                   "            reason=reason,\n"
                   "            **options,\n"
                   "        )\n"
                   "        channel = TextChannel(state=self._state, guild=self, data=data)\n"
                   "        return channel\n")


def test_positional_arguments_named_in_a_rewrapped_call_are_near(run_compare: Runner) -> None:
    """``overwrites=overwrites,``, ``channel_type=ChannelType.text,``, ``category=category,`` of a
    call Black broke open, each a positional argument of the upstream call given its keyword:
    half their words are the upstream statement's, under ``fill_statement_min_word_share``, so
    without ``fill_statement_named_arguments`` they stay none between paired pieces."""
    up = {"pkg/guild.py": _CLIENT_HEAD + _CHANNELS_UP + _CLIENT_TAIL}
    target = {"pkg/guild.py": _CLIENT_HEAD + _CHANNELS_NAMED + _CLIENT_TAIL}
    first = _CLIENT_HEAD.count("\n") + 2  # data = await self._create_channel(
    named = [first + 2, first + 3, first + 4]
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/guild.py")
    assert set(frame.loc[named, "match"]) == {"near"}
    assert {int(u) for u in frame.loc[named, "upstream_line"]} == {_CLIENT_HEAD.count("\n") + 2}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(fill_statement_named_arguments=0)),
                     "pkg/guild.py")
    assert set(off.loc[named, "match"]) == {"none"}
    assert off.loc[first + 1, "match"] == "near"  # ``name,``: the word share's


_FLAGS_UP = ("    def check_member_cache_flags(self, options):\n"
             "        cache_flags = options.get('member_cache_flags', None)\n"
             "        if not isinstance(cache_flags, MemberCacheFlags):\n"
             "            raise TypeError('member_cache_flags parameter must be MemberCacheFlags not %r'"
             " % type(cache_flags))\n"
             "        self.member_cache_flags = cache_flags\n")
# the message moved into an f-string and broken over two lines
_FLAGS_FSTRING = ("    def check_member_cache_flags(self, options):\n"
                  "        member_cache_flags = options.get('member_cache_flags', None)\n"
                  "        if not isinstance(member_cache_flags, MemberCacheFlags):\n"
                  "            raise TypeError(\n"
                  '                "member_cache_flags parameter must be MemberCacheFlags "\n'
                  '                f"not {type(member_cache_flags)!r}"\n'
                  "            )\n"
                  "        self.member_cache_flags = member_cache_flags\n")


def test_a_message_moved_into_an_f_string_is_near_by_its_words(run_compare: Runner) -> None:
    """A ``raise`` message moved from ``%`` into an f-string and broken over two lines: the
    f-string piece ``f"not {type(member_cache_flags)!r}"`` is one word to the word share, none
    of the upstream's, so without ``fill_statement_string_words`` it stays none between the
    statement's paired pieces; counted word by word inside the string (``not``, ``type``,
    ``member_cache_flags``, ``r``) it is near the upstream line."""
    up = {"pkg/state.py": _CLIENT_HEAD + _FLAGS_UP + _CLIENT_TAIL}
    target = {"pkg/state.py": _CLIENT_HEAD + _FLAGS_FSTRING + _CLIENT_TAIL}
    first = _CLIENT_HEAD.count("\n") + 4  # raise TypeError(
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/state.py")
    assert frame.loc[first + 2, "match"] == "near"
    assert int(frame.loc[first + 2, "upstream_line"]) == first
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(fill_statement_string_words=0)),
                     "pkg/state.py")
    assert off.loc[first + 2, "match"] == "none"
    assert off.loc[first + 1, "match"] == "near" and off.loc[first + 3, "match"] == "near"


_LOGS_UP = ("    async def _retrieve_messages_before_strategy(self, retrieve):\n"
            "        before = self.before.id if self.before else None\n"
            "        data = await self.logs_from(self.channel.id, retrieve, before=before)\n"
            "        if len(data):\n"
            "            self.before = Object(id=int(data[-1]['id']))\n"
            "        return data\n")
_LOGS_TYPED = ("    async def _retrieve_messages_before_strategy(self, retrieve):\n"
               "        before = self.before.id if self.before else None\n"
               "        data: List[MessagePayload] = await self.state.http.logs_from(\n"
               "            self.channel.id, retrieve, before=before\n"
               "        )\n"
               "        if len(data):\n"
               "            self.before = Object(id=int(data[-1]['id']))\n"
               "        return data\n")


def test_the_first_line_of_a_typed_rewrapped_assignment_is_near(run_compare: Runner) -> None:
    """``data: List[MessagePayload] = await self.state.http.logs_from(`` <- ``data = await
    self.logs_from(...)``: the statement's arguments and ``)`` are paired, its first line keeps 4
    of its 6 words (under the word share); it assigns the upstream line's target and calls the
    same ``logs_from``, so with ``fill_statement_kept_target`` it is near, without it none."""
    up = {"pkg/iterators.py": _CLIENT_HEAD + _LOGS_UP + _CLIENT_TAIL}
    target = {"pkg/iterators.py": _CLIENT_HEAD + _LOGS_TYPED + _CLIENT_TAIL}
    line = _CLIENT_HEAD.count("\n") + 3
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/iterators.py")
    assert frame.loc[line, "match"] == "near"
    assert int(frame.loc[line, "upstream_line"]) == line
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(fill_statement_kept_target=0)),
                     "pkg/iterators.py")
    assert off.loc[line, "match"] == "none"
    assert off.loc[line + 1, "match"] == "near"


_ICON_OLD = ("    @classmethod\n"
             "    def from_icon_hash(cls, state, owner, *, format='webp', static_format='png', size=1024):\n"
             "        return cls(state, build_icon_url(owner.id, owner.icon, format, size))\n")
_ICON_NEW = ("    @classmethod\n"
             "    def from_icon_hash(cls, state, owner_id: int, icon_hash: str) -> IconAsset:\n"
             + "".join(f"        icon_part_{k} = assemble_icon_part({k}, owner_id, icon_hash)\n" for k in range(45))
             + "        return cls(state, icon_part_44)\n")


def test_a_signature_survivor_the_word_share_refuses_keeps_its_name_line(run_compare: Runner) -> None:
    """A one-line signature that kept its name and first parameters but took new ones
    (``def from_icon_hash(cls, state, owner_id: int, icon_hash: str) -> IconAsset:`` <- ``...,
    owner, *, format='webp', static_format='png', size=1024):``) passes the signature survivors'
    tests (the name defined once in each file, in order, the statements 0.6 alike) but holds
    too few of the old words for the word share: its name line is paired with the old header
    all the same (``fill_signature_name_line``); off, it stays new."""
    up = {"pkg/assets.py": "class IconAsset(object):\n" + _ADAPTER.replace("BaseAdapter", "IconAsset") + _ICON_OLD}
    text = "class IconAsset:\n" + _ADAPTER.replace("BaseAdapter", "IconAsset") + _ICON_NEW
    line = text.splitlines().index(_ICON_NEW.splitlines()[1]) + 1
    old = up["pkg/assets.py"].splitlines().index(_ICON_OLD.splitlines()[1]) + 1
    frame = file_lines(run_compare({"fork/assets.py": text}, [("up", up)]), "fork/assets.py")
    assert frame.loc[line, "match"] == "near"
    assert frame.loc[line, "upstream_line"] == old
    assert frame.loc[line + 1, "match"] == "none"  # the rewritten body stays new
    off = run_compare({"fork/assets.py": text}, [("up", up)], params=MatchParams(fill_signature_name_line=0))
    assert file_lines(off, "fork/assets.py").loc[line, "match"] == "none"


def test_a_protocol_method_of_the_same_class_is_a_signature_survivor(run_compare: Runner) -> None:
    """``def __str__(self) -> str:`` of ``AssetLink`` against the old ``AssetLink.__str__`` is
    that method annotated (``fill_signature_same_class_dunders``); the same line in a class of
    another name is any class's protocol and stays new, as it does with the rule off."""
    up = {"pkg/adapters.py": ("class BaseAdapter(object):\n" + _ADAPTER + "def get_netrc_auth(url):\n"
                              + _NETRC_OLD_BODY + "\n\nclass AssetLink(object):\n" + _STR_OLD)}
    dunder_line = "    def __str__(self) -> str:"

    def labelled(class_name: str, **params: int) -> str:
        text = ("class BaseAdapter:\n" + _ADAPTER + "def get_netrc_auth(url, raise_errors=False):\n"
                + _NETRC_NEW_BODY + f"\n\nclass {class_name}:\n" + _STR_NEW)
        frame = file_lines(run_compare({"fork/adapters.py": text}, [("up", up)], params=MatchParams(**params)),
                           "fork/adapters.py")
        return str(frame.loc[text.splitlines().index(dunder_line) + 1, "match"])

    assert labelled("AssetLink") == "near"
    assert labelled("RemoteResourceReference") == "none"
    assert labelled("AssetLink", fill_signature_same_class_dunders=0) == "none"
