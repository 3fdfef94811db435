"""Tests for the header of a second copy (lineage.match.fill_statements.second_copy_headers,
``MatchParams.fill_second_copy_headers``): a function the target file holds twice (a method
copied into a sibling class) keeps its second signature, exploded and annotated as the first,
paired with the upstream signature the first copy holds."""

from __future__ import annotations

from conftest import Runner, file_lines

from lineage.match import MatchParams

_DOC = ('        """|coro|\n\n'
        "        Creates a hook for this channel so that remote senders can post into it.\n\n"
        "        You must have the manage hooks permission to do this, and the name\n"
        "        must be between one and eighty characters long, else it is refused.\n\n"
        "        Parameters\n        -------------\n"
        "        name: :class:`str`\n            The hook's name.\n"
        "        avatar: Optional[:class:`bytes`]\n            A picture for the hook's default avatar.\n"
        "        reason: Optional[:class:`str`]\n            The reason for creating this hook, for the audit log.\n\n"
        "        Raises\n        -------\n"
        "        HTTPException\n            Creating the hook failed.\n"
        "        Forbidden\n            You do not have permissions to create a hook.\n\n"
        "        Returns\n        --------\n"
        "        :class:`Hook`\n            The created hook.\n"
        '        """\n')
_BODY_UP = ("        if avatar is not None:\n"
            "            avatar = utils.bytes_to_base64_data(avatar)\n\n"
            "        data = await self._state.http.create_hook(self.id, name=str(name), avatar=avatar, reason=reason)\n"
            "        return Hook.from_state(data, state=self._state)\n")
_BODY_FORK = _BODY_UP.replace("utils.bytes_to_base64_data(avatar)", "await utils.obj_to_base64_data(avatar)")
_UP = ("from .hooks import Hook\nfrom . import utils\n\n\n"
       "class TextChannel:\n"
       '    """A text channel."""\n\n'
       "    def __init__(self, *, state, guild, data):\n"
       "        self._state = state\n"
       "        self.id = int(data['id'])\n"
       "        self.guild = guild\n\n"
       "    async def create_hook(self, *, name, avatar=None, reason=None):\n"
       + _DOC + _BODY_UP)
_SIGNATURE = ("    async def create_hook(\n"
              "        self,\n"
              "        *,\n"
              "        name: str,\n"
              "        avatar: Optional[bytes] = None,\n"
              "        reason: Optional[str] = None,\n"
              "    ) -> Hook:\n")
_FORK = ("from .hooks import Hook\nfrom . import utils\n\n\n"
         "class TextChannel:\n"
         '    """A text channel."""\n\n'
         "    def __init__(self, *, state: State, guild: Guild, data: ChannelPayload) -> None:\n"
         "        self._state = state\n"
         '        self.id = int(data["id"])\n'
         "        self.guild = guild\n\n"
         + _SIGNATURE + _DOC + _BODY_FORK + "\n\n"
         "class ForumChannel:\n"
         '    """A forum channel, where every message opens a thread of its own."""\n\n'
         "    def is_forum(self) -> bool:\n"
         "        return True\n\n"
         "    def tags_for(self, thread: Thread) -> list[ForumTag]:\n"
         "        return [tag for tag in self.available_tags if tag.id in thread.applied_tag_ids]\n\n"
         + _SIGNATURE + _DOC + _BODY_FORK)


def _lines(text: str, needle: str) -> list[int]:
    return [k for k, line in enumerate(text.splitlines(), 1) if needle in line]


def _signature(first: int) -> list[int]:
    return list(range(first, first + len(_SIGNATURE.splitlines())))


def test_the_signature_of_a_method_copied_into_a_sibling_class_is_copied(run_compare: Runner) -> None:
    """Both copies' docstrings and bodies are paired (the regions take the second as the first);
    the first signature is paired with the upstream ``def`` line by the statement rules. With
    ``fill_second_copy_headers`` the second signature's lines are near that same ``def`` line,
    but the added annotations' words; at 0 they stay none."""
    first, second = _lines(_FORK, "async def create_hook(")
    up_def = _lines(_UP, "async def create_hook(")[0]
    kept = [second, second + 1, second + 2]  # ``async def create_hook(``, ``self,``, ``*,``
    target, upstream = {"pkg/channel.py": _FORK}, [("up", {"pkg/channel.py": _UP})]
    on = file_lines(run_compare(target, upstream), "pkg/channel.py")
    off = file_lines(run_compare(target, upstream, params=MatchParams(fill_second_copy_headers=0)),
                     "pkg/channel.py")
    for frame in (on, off):
        # the first copy's signature and both bodies' docstring openings are paired either way
        assert set(frame.loc[_signature(first), "match"]) == {"near"}
        assert {int(frame.loc[k, "upstream_line"]) for k in _signature(first)} == {up_def}
        assert frame.loc[second + 7, "match"] == "verbatim"
        assert int(frame.loc[second + 7, "upstream_line"]) == up_def + 1
    assert set(on.loc[kept, "match"]) == {"near"}
    assert {int(on.loc[k, "upstream_line"]) for k in _signature(second) if on.loc[k, "match"] != "none"} == {up_def}
    assert set(off.loc[_signature(second), "match"]) == {"none"}
    # the line above the class's second ``__init__`` body, the new class's own, stays none
    assert on.loc[_lines(_FORK, "class ForumChannel")[0], "match"] == "none"


def test_a_second_copy_under_another_name_keeps_its_header_new(run_compare: Runner) -> None:
    """A third class holds the method renamed (``create_thread_hook``, the same docstring and body)
    beside the same-named second copy. The rule pairs the second copy's signature (so this test
    fails with the rule off, round fix175: its first form, the renamed copy alone, held with the
    rule off as with it on), and leaves the renamed one's new: its body's first line lies below the
    upstream ``create_hook``, a definition of another name (it fails if the name test is removed)."""
    renamed = _SIGNATURE.replace("create_hook(", "create_thread_hook(")
    fork = (_FORK + "\n\nclass ThreadChannel:\n"
            '    """A thread, a channel inside another, which a hook may post into as well."""\n\n'
            "    def parent(self) -> TextChannel:\n"
            "        return self.guild.get_channel(self.parent_id)\n\n"
            + renamed + _DOC + _BODY_FORK)
    _, second = _lines(fork, "async def create_hook(")
    third = _lines(fork, "async def create_thread_hook(")[0]
    up_def = _lines(_UP, "async def create_hook(")[0]
    target, upstream = {"pkg/channel.py": fork}, [("up", {"pkg/channel.py": _UP})]
    on = file_lines(run_compare(target, upstream), "pkg/channel.py")
    assert on.loc[second + 7, "match"] == on.loc[third + 7, "match"] == "verbatim"  # both bodies are the copy's
    assert set(on.loc[[second, second + 1, second + 2], "match"]) == {"near"}
    assert {int(on.loc[k, "upstream_line"]) for k in _signature(second) if on.loc[k, "match"] != "none"} == {up_def}
    assert set(on.loc[_signature(third), "match"]) == {"none"}
