"""Tests for lineage.match.class_names: a new class holding only its model's prose yields it.

The trees are hand-made (an upstream class, its later version under the same name, and a new
class written after it from its docstring, slots and ``__init__``); the rule's switch comes from
MatchParams.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import Runner, file_lines, make_labeller

from lineage.match import NEAR, VERBATIM, MatchParams
from lineage.match.class_names import headers_follow_bodies, top_classes

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


_VIEW = ('class View:\n'
         '    methods = None\n\n'
         '    @classmethod\n'
         '    def as_view(cls, name, *class_args, **class_kwargs):\n'
         '        def view(*args, **kwargs):\n'
         '            self = view.view_class(*class_args, **class_kwargs)\n'
         '            return self.dispatch_request(*args, **kwargs)\n'
         '        view.view_class = cls\n'
         '        view.__name__ = name\n'
         '        view.__doc__ = cls.__doc__\n'
         '        view.__module__ = cls.__module__\n'
         '        return view\n\n\n')
_VIEW_DOC = ('    """Dispatches request methods to the corresponding instance methods.\n'
             '    For example, if you implement a ``get`` method, it will be used to\n'
             '    handle ``GET`` requests, and ``post`` will handle ``POST`` ones.\n\n'
             '        class CounterAPI(MethodView):\n'
             '            def get(self):\n'
             '                return session.get("counter", 0)\n\n'
             '            def post(self):\n'
             '                session["counter"] = session.get("counter", 0) + 1\n'
             '                return "OK"\n'
             '    """\n')


def test_a_header_follows_its_body_to_the_upstream_definition_of_its_name(run_compare: Runner) -> None:
    """The region's edge (and the fill) pair the new ``class MethodView(View):`` by similarity
    with the metaclass ``class MethodViewType(type):`` standing right below the copied code,
    while its docstring copies the upstream ``MethodView``'s (flask 3.0.3 against 0.12): with
    ``header_follows_body`` it is paired with that class's header."""
    up = (_VIEW + 'class MethodViewType(type):\n'
          '    def __new__(cls, name, bases, d):\n'
          '        rv = type.__new__(cls, name, bases, d)\n'
          '        if "methods" not in d:\n'
          '            rv.methods = sorted(k.upper() for k in d if k in http_method_funcs)\n'
          '        return rv\n\n\n'
          'class MethodView(with_metaclass(MethodViewType, View)):\n' + _VIEW_DOC +
          '    def dispatch_request(self, *args, **kwargs):\n'
          '        meth = getattr(self, request.method.lower(), None)\n'
          '        return meth(*args, **kwargs)\n')
    target = (_VIEW + 'class MethodView(View):\n' + _VIEW_DOC +
              '    def __init_subclass__(cls, **kwargs):\n'
              '        super().__init_subclass__(**kwargs)\n'
              '        cls.methods = {k.upper() for k in http_method_funcs if hasattr(cls, k)}\n')
    header = target.splitlines().index("class MethodView(View):") + 1
    up_lines = up.splitlines()
    metaclass = up_lines.index("class MethodViewType(type):") + 1
    own = up_lines.index("class MethodView(with_metaclass(MethodViewType, View)):") + 1
    off = file_lines(run_compare({"pkg/views.py": target}, [("up", {"up/views.py": up})],
                                 params=MatchParams(header_follows_body=0)), "pkg/views.py")
    assert off.loc[header, "match"] == "near" and int(off.loc[header, "upstream_line"]) == metaclass
    on = file_lines(run_compare({"pkg/views.py": target}, [("up", {"up/views.py": up})]), "pkg/views.py")
    assert on.loc[header, "match"] == "near" and int(on.loc[header, "upstream_line"]) == own
    assert int(on.loc[header + 1, "upstream_line"]) == own + 1  # the docstring, as before
    assert (on["match"] != "none").sum() == (off["match"] != "none").sum()


@pytest.mark.parametrize("on", [0, 1])
def test_swapped_headers_take_their_decorators_along_and_code_decides(tmp_path: Path, on: int) -> None:
    """Two static methods whose order the target swapped (the second dedented to a function), as
    the region's diagonal left them: each ``@staticmethod`` / ``def`` paired with the other
    method's, each body with its own, and the docstrings (the same words in both) with the
    other's. The code lines decide which upstream method a body copies; the header and its
    decorator move to it."""
    def method(name: str, body: str, indent: str) -> str:
        return (f'{indent}@staticmethod\n{indent}def {name}(iterable):\n{indent}    """Return *iterable*."""\n'
                f'{indent}    {body}\n\n')
    enc, dec = "return ((k, ilen(g)) for k, g in groupby(iterable))", "return chain(starmap(repeat, iterable))"
    up = "class run_length:\n" + method("encode", enc, "    ") + method("decode", dec, "    ")
    target = "class run_length:\n" + method("decode", dec, "    ") + "\n" + method("encode", enc, "")
    lab = make_labeller(tmp_path, {"pkg/more.py": target}, {"up/more.py": up}, MatchParams(header_follows_body=on))
    t_rows = {line.strip() + str(k // 7): k for k, line in enumerate(lab.t_lines) if line.strip()}
    u_rows = {line.strip() + str(k // 6): k for k, line in enumerate(lab.upstream_lines(0)[1]) if line.strip()}
    row_to_tc = {int(row): tc for tc, row in enumerate(lab.t_rows.tolist())}

    def pair(t_key: str, u_key: str, label: int) -> None:
        lab.set_pair(row_to_tc[t_rows[t_key]], 0, u_rows[u_key], label, 1.0 if label == VERBATIM else 0.9, 0)

    # decode (target rows 1-4) as the diagonal left it: header and decorator on encode's
    pair("@staticmethod0", "@staticmethod0", VERBATIM)
    pair("def decode(iterable):0", "def encode(iterable):0", NEAR)
    pair('"""Return *iterable*."""0', '"""Return *iterable*."""0', VERBATIM)
    pair(dec + "0", dec + "1", VERBATIM)
    # encode, dedented (target rows 7-10): the other way round
    pair("@staticmethod1", "@staticmethod1", VERBATIM)
    pair("def encode(iterable):1", "def decode(iterable):1", NEAR)
    pair('"""Return *iterable*."""1', '"""Return *iterable*."""1', VERBATIM)
    pair(enc + "1", enc + "0", VERBATIM)
    moved = headers_follow_bodies(lab)
    got = {key: int(lab.result.up_row[row]) for key, row in t_rows.items() if key[:-1].startswith(("@", "def"))}
    if on:
        assert moved == 2
        assert got == {"@staticmethod0": u_rows["@staticmethod1"],
                       "def decode(iterable):0": u_rows["def decode(iterable):1"],
                       "@staticmethod1": u_rows["@staticmethod0"],
                       "def encode(iterable):1": u_rows["def encode(iterable):0"]}
        assert all(lab.result.match[t_rows[key]] == VERBATIM for key in got)
    else:
        assert moved == 0
        assert got["def decode(iterable):0"] == u_rows["def encode(iterable):0"]
