"""Tests for old lines edited among code added around them (lineage.match.fill_inside._unequal_edits,
``MatchParams.fill_placed_unequal_edits``): in a file at the upstream file's place, a block
between two aligned lines that is over ``fill_edit_max_gap`` on one side only has its code
lines paired by their most similar pairs at ``fill_unequal_edit_min_similarity``."""

from __future__ import annotations

from conftest import Runner, file_lines

from lineage.match import MatchParams

_HEAD = '''"""Hooks: post into a channel without a bot user."""

import logging

from . import utils
from .errors import InvalidArgument

log = logging.getLogger(__name__)


class Hook:
    """A hook that posts messages into one channel of a guild."""

    def __init__(self, data, state):
        self._state = state
        self.id = int(data['id'])
        self.channel_id = utils.get_as_snowflake(data, 'channel_id')
        self.guild_id = utils.get_as_snowflake(data, 'guild_id')
        self.name = data.get('name')
        self.token = data.get('token')

    def __repr__(self):
        return '<Hook id=%r name=%r>' % (self.id, self.name)

    @property
    def url(self):
        return 'https://example.invalid/api/hooks/{}/{}'.format(self.id, self.token)

    def edit(self, *, reason=None, name=None, avatar=None):
        payload = {}
'''
_TAIL = '''        return self._state.http.edit_hook(self.id, self.token, payload=payload, reason=reason)

    def delete(self, *, reason=None):
        if self.token is None:
            raise InvalidArgument('This hook does not have a token associated with it')
        return self._state.http.delete_hook(self.id, token=self.token, reason=reason)

    def send(self, content=None, *, wait=False, username=None, avatar_url=None, tts=False):
        payload = {'content': content, 'tts': tts}
        if username:
            payload['username'] = username
        if avatar_url:
            payload['avatar_url'] = str(avatar_url)
        log.debug('Sending hook message to %s with payload %r', self.id, payload)
        return self._state.http.execute_hook(self.id, self.token, payload=payload, wait=wait)
'''
_OLD = ("        if avatar is not None:\n"
        "            payload['avatar'] = utils.bytes_to_base64_data(avatar)\n")
# The fork's two lines, edited in place: 0.81 and 0.89 alike (rapidfuzz ratio) to the old ones.
_EDITED = ("        if avatar is not MISSING:\n"
           "            payload['avatar'] = await utils.obj_to_base64_data(avatar)\n")
# New code the fork wrote around them: 40 lines above, 12 below (over ``fill_edit_max_gap``, 40).
_ADDED_ABOVE = "".join(f"        if option_{k} in self._pending_options_{k % 7}:\n"
                       f"            self._queue_{k}.append(self._pending_options_{k % 7}.pop(option_{k}))\n"
                       for k in range(20))
_ADDED_BELOW = "".join(f"        counters[{k}] += len(self._queue_{k}) * weight_{k}\n" for k in range(12))
_UP = _HEAD + _OLD + _TAIL
_FORK = _HEAD + _ADDED_ABOVE + _EDITED + _ADDED_BELOW + _TAIL


def _line(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if needle in line)


def _edited(frame) -> list[tuple[str, object]]:
    rows = [_line(_FORK, "is not MISSING"), _line(_FORK, "obj_to_base64_data")]
    return [(frame.loc[k, "match"], frame.loc[k, "upstream_line"]) for k in rows]


def test_old_lines_edited_among_added_code_are_copied(run_compare: Runner) -> None:
    """At the upstream file's path, the two edited lines among 52 added ones are near the two old
    lines with the rule on and none with it off; the added lines stay none either way."""
    target, upstream = {"pkg/hooks.py": _FORK}, [("up", {"pkg/hooks.py": _UP})]
    on = file_lines(run_compare(target, upstream), "pkg/hooks.py")
    off = file_lines(run_compare(target, upstream, params=MatchParams(fill_placed_unequal_edits=0)),
                     "pkg/hooks.py")
    old = _line(_UP, "if avatar is not None")
    assert _edited(on) == [("near", old), ("near", old + 1)]
    assert {m for m, _ in _edited(off)} == {"none"}
    added = range(_line(_FORK, "option_0 in"), _line(_FORK, "counters[11]") + 1)
    for frame in (on, off):
        assert {frame.loc[k, "match"] for k in added if "MISSING" not in _FORK.splitlines()[k - 1]
                and "obj_to" not in _FORK.splitlines()[k - 1]} == {"none"}
        # the copy around them is the region's either way
        assert frame.loc[_line(_FORK, "return self._state.http.edit_hook"), "match"] == "verbatim"


def test_the_floor_holds_on_a_long_block(run_compare: Runner) -> None:
    """At a floor of 0.85 the ``payload['avatar']`` line (0.89) is paired and the ``if`` (0.81)
    is not: the floor is ``fill_unequal_edit_min_similarity``'s, not ``fill_edit_min_similarity``'s."""
    target, upstream = {"pkg/hooks.py": _FORK}, [("up", {"pkg/hooks.py": _UP})]
    frame = file_lines(run_compare(target, upstream, params=MatchParams(fill_unequal_edit_min_similarity=0.85)),
                       "pkg/hooks.py")
    old = _line(_UP, "if avatar is not None")
    assert [m for m, _ in _edited(frame)] == ["none", "near"]
    assert int(_edited(frame)[1][1]) == old + 1


def test_a_file_of_the_name_elsewhere_keeps_them_new(run_compare: Runner) -> None:
    """The same fork file at another folder (``other/hooks.py``): the pair stands by its regions,
    but the target file is not at the upstream file's place, so the two lines stay none."""
    target, upstream = {"other/hooks.py": _FORK}, [("up", {"pkg/hooks.py": _UP})]
    frame = file_lines(run_compare(target, upstream), "other/hooks.py")
    assert frame.loc[_line(_FORK, "return self._state.http.edit_hook"), "match"] == "verbatim"
    assert {m for m, _ in _edited(frame)} == {"none"}


# A reader whose fork moved ``read_cols`` up, into a long block of new code where the upstream
# file has ``read_rows`` (which the fork dropped); the upstream ``read_cols`` stands free below.
_READER_HEAD = ("class Reader(object):\n"
                '    """Reads records from a store."""\n\n'
                "    def __init__(self, store):\n"
                "        self.store = store\n"
                "        self.row_number = None\n\n")
_READER_CHECK = ("    def _check_opened(self):\n"
                 "        if not self.store:\n"
                 '            raise ValueError("open() first")\n')
_READER_UP = (_READER_HEAD
              + "    def read_cols(self, start, stop, step=1):\n"
                "        return self.store.fetch_cols(start, stop, step)\n\n"
              + _READER_CHECK
              + "\n    def read_rows(self, start, stop, step=1):\n"
                "        return self.store.fetch_rows(start, stop, step)\n")
_READER_FORK = (_READER_HEAD
                + "    def prefetch(self, count):\n"
                + "".join(f"        self._buffer_{k} = self.store.peek({k}, count)\n" for k in range(40))
                + "\n    def read_rows(self, start, stop, step=1):\n"
                  "        return self.store.fetch_rows(start, stop, step)\n\n"
                + _READER_CHECK)


def _reader_def(tmp_path, params: MatchParams) -> str:
    """Rule (a) at the upstream file's place on the stretch between ``self.row_number = None``
    and ``def _check_opened`` (paired by hand, as the regions pair them): the upstream text the
    fork's ``def read_rows`` is paired with, "" for none."""
    from conftest import make_labeller

    from lineage.match.file_statements import Statements
    from lineage.match.fill_inside import align_inside
    from lineage.match.records import NONE, VERBATIM

    lab = make_labeller(tmp_path, {"pkg/reader.py": _READER_FORK}, {"pkg/reader.py": _READER_UP}, params)
    u_rows, u_lines = lab.upstream_lines(0)

    def content(text: str, upstream: bool = False) -> int:
        rows, lines = (u_rows, u_lines) if upstream else (lab.t_rows, lab.t_lines)
        return next(k for k, row in enumerate(rows.tolist()) if lines[row].strip() == text)

    anchors = [(content(t), content(t, True)) for t in ("self.row_number = None", "def _check_opened(self):")]
    for tc, uc in anchors:
        lab.set_pair(tc, 0, int(u_rows[uc]), VERBATIM, 1.0, 0)
    (ta, ua), (tb, ub) = anchors
    assert tb - ta - 1 > params.fill_edit_max_gap >= ub - ua - 1  # one long side: the unequal rule's block
    align_inside(lab, Statements.of(lab), 0, range(ta + 1, tb), range(ua + 1, ub), {ua, ub}, 0, placed=True)
    row = lab.t_rows[content("def read_rows(self, start, stop, step=1):")]
    return "" if lab.result.match[row] == NONE else u_lines[lab.result.up_row[row]].strip()


def test_a_def_in_a_long_block_keeps_its_own_name(tmp_path) -> None:
    """The unequal blocks' pairs honour ``fill_edit_own_name_defs`` as the edited-lines pass
    does: the fork's ``def read_rows`` is not ``read_cols`` edited (0.95 alike, 4 of its 5
    names kept) while the upstream ``read_rows`` stands free below the block; with that bar off
    the two headers are paired, so the bar is what keeps them apart."""
    assert _reader_def(tmp_path / "on", MatchParams()) == ""
    assert _reader_def(tmp_path / "off", MatchParams(fill_edit_own_name_defs=0)) == \
        "def read_cols(self, start, stop, step=1):"
