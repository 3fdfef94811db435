"""Tests for lineage.match.second_copies: a near line whose upstream line the same target file
holds verbatim elsewhere is the file's own second copy, not a copy from the upstream.

Hand-made pairs whose truth is in their construction; thresholds come from MatchParams.
"""

from __future__ import annotations

from conftest import Runner, file_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lineage.match import MatchParams

_BLOCK = [
    "def build_parallel_groups(world_size, group_ranks):",
    "    assert world_size % len(group_ranks) == 0, 'uneven parallel groups'",
    "    checked_ranks = sorted(set(group_ranks))",
    "    _TENSOR_GROUP = init_model_parallel_group(checked_ranks, backend='gloo')",
    "    register_group_handle(_TENSOR_GROUP, label='tensor-parallel')",
    "    broadcast_group_layout(_TENSOR_GROUP, checked_ranks, world_size)",
    "    return _TENSOR_GROUP",
]
_EDITED = "    _EXPERT_GROUP = init_model_parallel_group(checked_ranks, backend='gloo')"


def _pair(edited: list[str]) -> tuple[dict[str, str], dict[str, str], list[int]]:
    """The block copied once as it is, then once more as the target's own variant, whose fourth
    line is replaced by ``edited`` (one line, or the pieces of a re-wrapped one)."""
    variant = [line.replace("build_parallel_groups", "build_expert_groups") for line in _BLOCK]
    variant = variant[:3] + edited + variant[4:]
    target = "\n".join(_BLOCK) + "\n\n\n" + "\n".join(variant) + "\n"
    start = len(_BLOCK) + 3  # 1-based line of the variant's first line
    return {"pkg/groups.py": target}, {"up/groups.py": "\n".join(_BLOCK) + "\n"}, \
        list(range(start + 3, start + 3 + len(edited)))


def test_a_second_edited_copy_is_not_a_copy_from_the_upstream(run_compare: Runner) -> None:
    """The variant's edited line is none; every verbatim line of both copies stays; with the rule
    off it is near the upstream line the first copy holds verbatim."""
    target, up, edited = _pair([_EDITED])
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(second_copy_rule=0)), "pkg/groups.py")
    assert list(off.loc[edited, "match"]) == ["near"]
    assert int(off.loc[edited[0], "upstream_line"]) == 4
    assert off.loc[4, "match"] == "verbatim" and int(off.loc[4, "upstream_line"]) == 4
    on = file_lines(run_compare(target, [("up", up)]), "pkg/groups.py")
    assert list(on.loc[edited, "match"]) == ["none"]
    assert (on["match"] == "verbatim").sum() == (off["match"] == "verbatim").sum()


def test_the_pieces_of_a_re_wrapped_statement_stay(run_compare: Runner) -> None:
    """The edited line re-wrapped over two target lines names one upstream line from both: the
    statement was aligned as a whole, so its pieces stay near."""
    pieces = ["    _EXPERT_GROUP = init_model_parallel_group(", "        checked_ranks, backend='gloo')"]
    target, up, edited = _pair(pieces)
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(second_copy_rule=0)), "pkg/groups.py")
    assert set(off.loc[edited, "match"]) == {"near"}
    assert set(off.loc[edited, "upstream_line"].astype(int)) == {4}
    on = file_lines(run_compare(target, [("up", up)]), "pkg/groups.py")
    assert list(on.loc[edited, "match"]) == list(off.loc[edited, "match"])


_STATE_UP = ('class ChannelState:\n'
             '    def add_private_channel(self, channel):\n'
             '        self._private_channels[channel.id] = channel\n'
             '        self.notify_listeners_of_channel(channel)\n\n'
             '    def remove_private_channel(self, channel):\n'
             '        self._private_channels.pop(channel.id, None)\n'
             '        if isinstance(channel, DirectChannel):\n'
             '            self._channels_by_user.pop(channel.recipient.id, None)\n\n'
             '    def get_private_message(self, msg_id):\n'
             '        return find_message_by_id(msg_id, reversed(self._messages))\n')
# The fork guarded the recipient: the edited pop shares its abstract form with the pop above it.
_STATE_TARGET = _STATE_UP.replace(
    '            self._channels_by_user.pop(channel.recipient.id, None)\n',
    '            recipient = channel.recipient\n'
    '            if recipient is not None:\n'
    '                self._channels_by_user.pop(recipient.id, None)\n')


def test_a_second_copy_unpaired_before_the_fill_is_paired_with_its_own_line(run_compare: Runner) -> None:
    """The region pairs the edited pop (line 11) by its abstract form with the pop above (line
    7 upstream), which line 7 holds verbatim: a second copy, unpaired. Before the fill, the fill
    then pairs it near with the line it edits (9); after the fill only, it stays none."""
    up = {"pkg/state.py": _STATE_UP}
    frame = file_lines(run_compare({"pkg/state.py": _STATE_TARGET}, [("up", up)]), "pkg/state.py")
    assert frame.loc[11, "match"] == "near" and int(frame.loc[11, "upstream_line"]) == 9
    after_only = run_compare({"pkg/state.py": _STATE_TARGET}, [("up", up)],
                             params=MatchParams(second_copy_before_fill=0))
    assert file_lines(after_only, "pkg/state.py").loc[11, "match"] == "none"


_GUILD_UP = ('class GuildCache:\n'
             '    def _remove_guild(self, guild):\n'
             '        self._guilds.pop(guild.id, None)\n'
             '        for emoji in guild.emojis:\n'
             '            self._emojis.pop(emoji.id, None)\n'
             '        del guild\n\n'
             '    def get_emoji_by_name(self, name):\n'
             '        return find_first(lambda e: e.name == name, self._emojis.values())\n')
# The fork added stickers below the emojis, its pop written from the emojis' pop.
_GUILD_TARGET = _GUILD_UP.replace(
    '        del guild\n',
    '        for sticker in guild.stickers:\n'
    '            self._stickers.pop(sticker.id, None)\n'
    '        del guild\n')


def test_a_second_copy_below_an_unpaired_line_is_no_piece_of_the_first(run_compare: Runner) -> None:
    """The sticker pop (line 7) is paired near with the emoji pop (line 5 upstream), which line
    5 holds verbatim, with the unpaired ``for`` (line 6) between them: two statements, no unit
    of one re-wrapped statement (``second_copy_statement_units``), so it is a second copy and
    unpaired; off, the two were one unit and it stayed near."""
    up = {"pkg/cache.py": _GUILD_UP}
    off = file_lines(run_compare({"pkg/cache.py": _GUILD_TARGET}, [("up", up)],
                                 params=MatchParams(second_copy_statement_units=0)), "pkg/cache.py")
    assert off.loc[5, "match"] == "verbatim" and int(off.loc[5, "upstream_line"]) == 5
    assert off.loc[6, "match"] == "none"
    assert off.loc[7, "match"] == "near" and int(off.loc[7, "upstream_line"]) == 5
    on = file_lines(run_compare({"pkg/cache.py": _GUILD_TARGET}, [("up", up)]), "pkg/cache.py")
    assert on.loc[7, "match"] == "none" and on.loc[5, "match"] == "verbatim"


_DIGEST_UP = ("def build_digest_header(self, method, url):\n"
              "    realm_value = self.challenge['realm']\n"
              "    nonce_value = self.challenge['nonce']\n"
              "    algorithm_name = self.challenge.get('algorithm', 'MD5').upper()\n"
              "    if algorithm_name == 'MD5':\n"
              "        def md5_utf8(text):\n"
              "            if isinstance(text, str):\n"
              "                text = text.encode('utf-8')\n"
              "            return hashlib.md5(text).hexdigest()\n"
              "        hash_utf8 = md5_utf8\n"
              "    elif algorithm_name == 'SHA':\n"
              "        def sha_utf8(text):\n"
              "            if isinstance(text, str):\n"
              "                text = text.encode('utf-8')\n"
              "            return hashlib.sha1(text).hexdigest()\n"
              "        hash_utf8 = sha_utf8\n"
              "    digest_key = lambda secret, data: hash_utf8('%s:%s' % (secret, data))\n"
              "    return compose_digest_header(realm_value, nonce_value, digest_key)\n")
# The target re-quoted the function and wrote a SHA-256 block of its own from the two above it.
_SHA256 = ('    elif algorithm_name == "SHA-256":\n'
           "        def sha256_utf8(text):\n"
           "            if isinstance(text, str):\n"
           '                text = text.encode("utf-8")\n'
           "            return hashlib.sha256(text).hexdigest()\n"
           "        hash_utf8 = sha256_utf8\n")


def test_a_functions_own_second_copy_of_a_kept_block_is_none(run_compare: Runner) -> None:
    """``second_copy_off_chain``: the SHA-256 block's re-quoted lines (17, 20) name the upstream
    lines the MD5 block (7, 10) holds in order, out of the pair's order themselves: none; off,
    near. The first copy stays near."""
    text = _DIGEST_UP.replace("'", '"')
    lines = text.splitlines(keepends=True)
    target = {"pkg/auth.py": "".join(lines[:16]) + _SHA256 + "".join(lines[16:])}
    up = {"pkg/auth.py": _DIGEST_UP}
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(second_copy_off_chain=0)), "pkg/auth.py")
    assert off.loc[17, "match"] == "near" and off.loc[20, "match"] == "near"
    on = file_lines(run_compare(target, [("up", up)]), "pkg/auth.py")
    assert on.loc[17, "match"] == "none" and on.loc[20, "match"] == "none"
    assert on.loc[5, "match"] == "near" and on.loc[8, "match"] == "near"


def _off_chain_near_by_line(lab, paired, key, unit):  # noqa: ANN001, ANN202 - the test's reference
    """``_off_chain_near`` as it was written first, line by line (the function's definition)."""
    import numpy as np

    from lineage.match.fill_lines import increasing_pairs
    from lineage.match.records import NEAR
    from lineage.match.second_copies import _outermost_functions

    r, rows = lab.result, lab.t_rows
    up_file, up_row = r.up_file[rows[paired]], r.up_row[rows[paired]]
    on_chain = np.zeros(len(paired), bool)
    in_order = np.zeros(len(paired), bool)
    for u in np.unique(up_file).tolist():
        mine = np.flatnonzero(up_file == u)
        chain = np.array([k for k, _ in increasing_pairs(mine.tolist(), up_row[mine].tolist())], np.int64)
        on_chain[chain] = True
        bounds = np.r_[-1, up_row[chain].astype(np.int64), np.iinfo(np.int64).max]
        at = np.searchsorted(chain, mine)
        in_order[mine] = (bounds[at] <= up_row[mine]) & (up_row[mine] <= bounds[at + 1])
    function = _outermost_functions(lab, paired)
    chained: dict[tuple[int, int], set[int]] = {}
    for k, u, f, c in zip(key.tolist(), unit.tolist(), function.tolist(), on_chain.tolist(), strict=True):
        if c and f >= 0:
            chained.setdefault((k, f), set()).add(u)
    size = np.bincount(unit)
    match = r.match[rows[paired]]
    ids = lab.statements()
    pieces = np.bincount(ids[ids >= 0], minlength=1)
    alone = np.array([ids[tc] < 0 or pieces[ids[tc]] == 1 for tc in paired.tolist()], bool)
    return np.array([i for i in np.flatnonzero((match == NEAR) & (size[unit] == 1) & ~in_order & alone).tolist()
                     if chained.get((int(key[i]), int(function[i])), set()) - {int(unit[i])}], np.int64)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_off_chain_near_lines_on_the_arrays_are_the_line_by_line_ones(data) -> None:  # noqa: ANN001
    """The off-chain rule's candidates read on the arrays (and its chained units gathered only for
    the upstream lines they name) against the reference, on generated labels, statements and
    functions."""
    from types import SimpleNamespace

    import numpy as np

    from lineage.match.second_copies import _off_chain_near

    n = data.draw(st.integers(1, 30))
    ints = lambda lo, hi: np.array(data.draw(st.lists(st.integers(lo, hi), min_size=n, max_size=n)), np.int64)  # noqa: E731
    # few upstream lines, so that lines name one again in and out of order
    result = SimpleNamespace(match=ints(0, 2).astype(np.uint8), up_file=ints(0, 1), up_row=ints(0, 3))
    starts = data.draw(st.lists(st.tuples(st.integers(1, n), st.integers(0, n)), max_size=4))
    definitions = [SimpleNamespace(kind=data.draw(st.sampled_from(["function", "class"])), start=a, end=a + b)
                   for a, b in [(1, n), *starts]]
    ids = np.sort(ints(-1, n // 2))
    ids[np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), bool)] = -1
    lab = SimpleNamespace(result=result, t_rows=np.arange(n), statements=lambda: ids, t_file=0,
                          target=SimpleNamespace(files=[SimpleNamespace(definitions=definitions)]))
    paired = np.flatnonzero(result.match != 0)
    if len(paired) == 0:
        return
    key = (result.up_file[paired] << 32) | result.up_row[paired]
    breaks = data.draw(st.lists(st.booleans(), min_size=len(paired) - 1, max_size=len(paired) - 1))
    unit = np.cumsum(np.concatenate(([True], np.array(breaks, bool))))
    assert _off_chain_near(lab, paired, key, unit).tolist() == _off_chain_near_by_line(lab, paired, key, unit).tolist()
