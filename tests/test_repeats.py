"""Tests for lineage.match.repeats: free lines that repeat, line for line, a copy the same file
holds (a method written out again for another class) are paired as their twins are.

Hand-made pairs whose truth is in their construction; thresholds come from MatchParams.
"""

from __future__ import annotations

from conftest import Runner, file_lines, make_labeller

from lineage.match import MatchParams
from lineage.match.repeats import enclosing_functions

# An upstream module of iterator classes, each with the same ``next`` (so its lines, repeated
# more than ``seed_max_per_file`` times in the file, seed nothing), which the target keeps, and
# whose ``next`` the target writes out again for an iterator class of its own (the fork's
# ``BanIterator.next`` from discord.py's ``AuditLogIterator.next``).
_KINDS = ("audit_log", "reaction", "history", "member", "thread")
_UP = "import asyncio\n\n\nclass NoMoreEntries(Exception):\n    pass\n" + "".join(f'''

class {kind.title().replace("_", "")}Iterator:
    def __init__(self, guild, limit=100, before=None):
        self.{kind}_guild = guild
        self.{kind}_limit = limit
        self.{kind}_before = before
        self.entries = asyncio.Queue()

    async def next(self):
        if self.entries.empty():
            await self._fill_{kind}_entries_from_gateway()
        try:
            return self.entries.get_nowait()
        except asyncio.QueueEmpty:
            raise NoMoreEntries()

    def _get_{kind}_retrieve(self):
        retrieve = min(self.{kind}_limit or 100, 100)
        self.{kind}_retrieve = retrieve
        return retrieve > 0
''' for kind in _KINDS)

# The target's own iterator: its ``next`` repeats three lines of the kept one (the ``try``, the
# ``except asyncio.QueueEmpty:`` and its ``raise``) around a line of its own.
_OWN = '''

class BanListIterator:
    def __init__(self, state, guild_id):
        self.state = state
        self.guild_id = guild_id
        self.bans = asyncio.Queue()

    async def next(self) -> "BanEntry":
        if self.bans.empty():
            await self.load_more_bans()
        try:
            return self.bans.get_nowait()
        except asyncio.QueueEmpty:
            raise NoMoreEntries()
'''


def _repeat_lines(text: str) -> list[int]:
    """1-based lines of the target's own ``next``'s ``try``, ``except`` and ``raise``."""
    lines = text.split("\n")
    start = lines.index("class BanListIterator:")
    return [k + 1 for k in range(start, len(lines))
            if lines[k].strip() in ("try:", "except asyncio.QueueEmpty:", "raise NoMoreEntries()")]


def test_a_method_written_again_for_another_class_is_paired_as_the_first(run_compare: Runner) -> None:
    """The repeated lines are paired with the upstream lines the kept ``next`` holds (the same
    upstream lines, the same labels); with ``repeat_min_lines`` 0 they stay none, as does the
    target's own line between them in any case."""
    target = _UP + _OWN
    repeat = _repeat_lines(target)
    up = file_lines(run_compare({"pkg/iterators.py": target}, [("up", {"up/iterators.py": _UP})]),
                    "pkg/iterators.py")
    assert list(up.loc[repeat, "match"]) == ["verbatim"] * 3
    up_lines = _UP.split("\n")
    assert [up_lines[int(u) - 1].strip() for u in up.loc[repeat, "upstream_line"]] == \
        ["try:", "except asyncio.QueueEmpty:", "raise NoMoreEntries()"]
    assert up.loc[repeat[0] + 1, "match"] == "none"  # ``return self.bans.get_nowait()``: its own
    off = file_lines(run_compare({"pkg/iterators.py": target}, [("up", {"up/iterators.py": _UP})],
                                 params=MatchParams(repeat_min_lines=0)), "pkg/iterators.py")
    assert list(off.loc[repeat, "match"]) == ["none"] * 3
    # everything else of the file is labelled as without the rule
    rest = [k for k in up.index if k not in repeat]
    assert list(up.loc[rest, "match"]) == list(off.loc[rest, "match"])


def test_a_repeat_in_a_function_of_another_name_is_not_paired(run_compare: Runner) -> None:
    """The same three lines in a method of another name (``drain``): a block the target wrote in
    the copy's style, not the method written again; paired only with ``repeat_same_name`` 0."""
    target = _UP + _OWN.replace("async def next(self)", "async def drain(self)")
    repeat = _repeat_lines(target)
    up = [("up", {"up/iterators.py": _UP})]
    on = file_lines(run_compare({"pkg/iterators.py": target}, up), "pkg/iterators.py")
    assert list(on.loc[repeat, "match"]) == ["none"] * 3
    off = file_lines(run_compare({"pkg/iterators.py": target}, up, params=MatchParams(repeat_same_name=0)),
                     "pkg/iterators.py")
    assert list(off.loc[repeat, "match"]) == ["verbatim"] * 3


def test_a_repeat_without_evidence_is_not_paired(run_compare: Runner) -> None:
    """With the ``except`` generic (a bare ``except:``, ``raise`` alone) no line of the repeat is
    evidence on its own: none; with ``repeat_min_evidence`` 0 it is paired."""
    generic_up = _UP.replace("except asyncio.QueueEmpty:", "except:").replace("raise NoMoreEntries()", "raise")
    target = generic_up + _OWN.replace("except asyncio.QueueEmpty:", "except:").replace(
        "raise NoMoreEntries()", "raise")
    lines = target.split("\n")
    start = lines.index("class BanListIterator:")
    repeat = [k + 1 for k in range(start, len(lines)) if lines[k].strip() in ("try:", "except:", "raise")]
    assert len(repeat) == 3
    up = [("up", {"up/iterators.py": generic_up})]
    on = file_lines(run_compare({"pkg/iterators.py": target}, up), "pkg/iterators.py")
    assert list(on.loc[repeat, "match"]) == ["none"] * 3
    off = file_lines(run_compare({"pkg/iterators.py": target}, up, params=MatchParams(repeat_min_evidence=0)),
                     "pkg/iterators.py")
    assert list(off.loc[repeat, "match"]) == ["verbatim"] * 3


def test_a_repeat_inside_the_same_function_is_not_paired(run_compare: Runner) -> None:
    """The three lines written a second time inside the kept ``next`` itself (a retry) are that
    function's own second copy (lineage.match.second_copies): none."""
    retry = ('        if self.entries.empty():\n'
             '            await self._fill_audit_log_entries_from_gateway()\n'
             '        try:\n'
             '            return self.entries.get_nowait()\n'
             '        except asyncio.QueueEmpty:\n'
             '            raise NoMoreEntries()\n')
    second = ('        await self.wait_for_gateway_entries()\n'
              '        try:\n'
              '            return self.entries.get_nowait_again()\n'
              '        except asyncio.QueueEmpty:\n'
              '            raise NoMoreEntries()\n')
    target = _UP.replace(retry, retry + second, 1)
    lines = target.split("\n")
    start = lines.index("        await self.wait_for_gateway_entries()")
    repeat = [start + 2, start + 4, start + 5]
    assert [lines[k - 1].strip() for k in repeat] == ["try:", "except asyncio.QueueEmpty:", "raise NoMoreEntries()"]
    on = file_lines(run_compare({"pkg/iterators.py": target}, [("up", {"up/iterators.py": _UP})]),
                    "pkg/iterators.py")
    assert list(on.loc[repeat, "match"]) == ["none"] * 3


def test_a_repeated_signature_alone_is_not_paired(run_compare: Runner) -> None:
    """A signature re-wrapped over lines (the same in five upstream classes, so it seeds nothing),
    repeated by a target class's method of the same name, is one statement
    (``repeat_min_statements`` 2): none; with 1 it is paired."""
    sig = ('    def fetch_members(\n'
           '        self,\n'
           '        guild_identifier: int,\n'
           '        *,\n'
           '        member_limit: int = 1000,\n'
           '        after_snowflake: int | None = None,\n'
           '    ) -> list:\n')
    up = "".join(f'''class {kind.title().replace("_", "")}Client:
{sig}        route = build_{kind}_route("GET", "/guilds/{{guild}}/{kind}", guild=guild_identifier)
        {kind}_params = {{"limit": member_limit, "after": after_snowflake}}
        return self.request_{kind}_json(route, params={kind}_params)


''' for kind in _KINDS)
    target = up + 'class CachedMemberClient:\n' + sig + '        return self.cache.lookup(guild_identifier)\n'
    lines = target.split("\n")
    start = lines.index("class CachedMemberClient:")
    repeat = list(range(start + 2, start + 9))
    assert lines[repeat[0] - 1] == "    def fetch_members(" and lines[repeat[-1] - 1] == "    ) -> list:"
    pairs = [("up", {"up/members.py": up})]
    on = file_lines(run_compare({"pkg/members.py": target}, pairs), "pkg/members.py")
    assert set(on.loc[repeat, "match"]) == {"none"}
    off = file_lines(run_compare({"pkg/members.py": target}, pairs, params=MatchParams(repeat_min_statements=1)),
                     "pkg/members.py")
    assert set(off.loc[repeat, "match"]) == {"verbatim"}


def test_enclosing_functions_skip_classes_and_closing_lines(tmp_path) -> None:
    """A method's line names its method (the class skipped), a nested function's its outer
    function first; the ``) -> T:`` of a header broken over lines is no enclosing header."""
    text = ('class A:\n'
            '    def outer(\n'
            '        self,\n'
            '    ) -> None:\n'
            '        x = 1\n'
            '        def decorator(func):\n'
            '            return func\n'
            '        return decorator\n'
            'y = 2\n')
    lab = make_labeller(tmp_path, {"pkg/a.py": text}, {"up/b.py": "z = 3\n"}, MatchParams())
    at = {lab.t_lines[row].strip(): tc for tc, row in enumerate(lab.t_rows.tolist())}
    assert enclosing_functions(lab, at["x = 1"]) == (("outer",), at["def outer("])
    assert enclosing_functions(lab, at["return func"]) == (("outer", "decorator"), at["def decorator(func):"])
    assert enclosing_functions(lab, at["def decorator(func):"])[0] == ("outer", "decorator")
    assert enclosing_functions(lab, at["return decorator"])[0] == ("outer",)
    assert enclosing_functions(lab, at["y = 2"]) == ((), -1)
