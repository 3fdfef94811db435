"""Tests for lineage.match.class_names: a new class holding only its model's prose yields it.

The trees are hand-made (an upstream class, its later version under the same name, and a new
class written after it from its docstring, slots and ``__init__``); the rule's switch comes from
MatchParams.
"""

from __future__ import annotations

import numpy as np
from conftest import Runner, file_lines

from lineage.match import MatchParams
from lineage.match.class_names import top_classes

_DOC = '''    """Represents the profile a member shows to the server.

    Attributes
    ----------
    ident: :class:`int`
        The profile's ID.
    title: :class:`str`
        The profile's title.
    summary: :class:`str`
        A short summary the member wrote about themselves.
    avatar_hash: Optional[:class:`str`]
        The hash of the member's avatar, if any was uploaded.
    """
'''
_UP_DOC = _DOC.replace('    """\n', '''    joined_at: :class:`datetime.datetime`
        When the member first set up the profile.
    banner_colour: :class:`int`
        The colour of the profile's banner, as an RGB integer.
    """
''')
_MINE_DOC = _DOC.replace('    """\n', '''    pronouns: Optional[:class:`str`]
        The pronouns the member chose to show, if any.

        .. versionadded:: 2.0
    """
''')
_UP = ('"""Member profiles."""\n\nfrom .assets import Picture\n\n\nclass Profile:\n' + _UP_DOC + '''
    __slots__ = ('_store', 'ident', 'title', 'summary', 'avatar_hash', 'badges')

    def __init__(self, store, data):
        self._store = store
        self.ident = int(data['ident'])
        self.title = data['title']
        self.summary = data['summary']
        self.avatar_hash = data['avatar_hash']
        self.badges = data.get('badges', [])

    def __repr__(self):
        return '<{0.__class__.__name__} ident={0.ident} title={0.title!r}>'.format(self)

    @property
    def avatar(self):
        if self.avatar_hash is None:
            return None
        return Picture.for_avatar(self._store, self.ident, self.avatar_hash)
''')
_MINE = ('"""Member profiles."""\n\nfrom __future__ import annotations\n\nfrom .assets import Picture\n\n\n'
         'class Profile:\n' + _MINE_DOC + '''
    __slots__ = (
        "_store",
        "ident",
        "title",
        "summary",
        "avatar_hash",
        "badges",
    )

    def __init__(self, store: Store, data: ProfilePayload) -> None:
        self._store: Store = store
        self.ident: int = int(data["ident"])
        self.title: str = data["title"]
        self.summary: str = data["summary"]
        self.avatar_hash: Optional[str] = data["avatar_hash"]
        self.badges: List[str] = data.get("badges", [])

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__} ident={self.ident} title={self.title!r}>"


class PartialProfile:
    """Represents a partial profile, as a server's member list gives it.

    Attributes
    ----------
    ident: :class:`int`
        The profile's ID.
    title: :class:`str`
        The profile's title.
    """

    __slots__ = (
        "_store",
        "ident",
        "title",
    )

    def __init__(self, *, store: Store, data: PartialProfilePayload) -> None:
        self._store: Store = store
        self.ident: int = int(data["ident"])
        self.title: str = data["title"]

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__} ident={self.ident} title={self.title!r}>"
''')


def test_a_new_class_holding_only_prose_of_a_kept_class_is_no_copy_of_it(run_compare: Runner) -> None:
    """``PartialProfile`` repeats the first lines of ``Profile``'s docstring, which the target's
    own ``Profile`` holds too, and holds no code line of it: with ``class_name_yield`` its lines
    are not paired with the upstream file (``Profile`` keeps its pairs, code included); off, its
    docstring lines are a second holder of ``Profile``'s."""
    lines = _MINE.splitlines()
    partial = range(lines.index("class PartialProfile:") + 1, len(lines) + 1)
    kept = range(lines.index("class Profile:") + 1, lines.index("class PartialProfile:") - 1)
    on = file_lines(run_compare({"pkg/profile.py": _MINE}, [("up", {"pkg/profile.py": _UP})]), "pkg/profile.py")
    off = file_lines(run_compare({"pkg/profile.py": _MINE}, [("up", {"pkg/profile.py": _UP})],
                                 params=MatchParams(class_name_yield=0)), "pkg/profile.py")
    assert set(on.loc[partial, "match"]) == {"none"}
    assert (off.loc[partial, "match"] == "verbatim").sum() == 6  # the docstring's attribute lines
    for frame in (on, off):
        code = [n for n in kept if lines[n - 1].strip().startswith(("self.", "def ", "__slots__"))]
        assert set(frame.loc[code, "match"]) == {"near"}


def test_top_classes_end_at_the_next_top_level_statement() -> None:
    names, once = top_classes(["class A:", "    x = 1", "", "# note", "    y = 2", "def f():",
                               "    pass", "class B:", "    pass", "class B:", "    pass"])
    assert list(names) == ["A", "A", "A", "A", "A", "", "", "", "", "", ""]
    assert once == {"A"}
    assert isinstance(names, np.ndarray)
