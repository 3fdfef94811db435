"""Tests for lineage.match.shapes: statements of one shape and witnessed renames (fill rules).

Each end-to-end case is a small hand-made pair whose truth is in its construction; thresholds
come from MatchParams, never typed in here.
"""

from __future__ import annotations

from conftest import Runner, file_lines

from lineage.index.normalise import abstract_token
from lineage.match import MatchParams
from lineage.match.shapes import line_map, witnessed_renames

_UP_HEAD = '''import sys


def register_vendored_packages(target_names, registry_prefix):
    """Alias every vendored module under the registry prefix."""
    for target in target_names:
        for mod in list(sys.modules):
            if mod == target or mod.startswith(f"{target}."):
                imported_mod = sys.modules[mod]
                sys.modules[f"{registry_prefix}.{mod}"] = imported_mod
                mod = mod.replace(target, "chardet")
                sys.modules[f"{registry_prefix}.{mod}"] = imported_mod
    return registry_prefix
'''

# The target is the upstream with one call broken one argument a line and its literal edited.
_TARGET_HEAD = _UP_HEAD.replace(
    'mod = mod.replace(target, "chardet")',
    'mod = mod.replace(\n' + 20 * " " + "target,\n" + 20 * " " + '"dapple",\n' + 16 * " " + ")",
)


def test_abstract_tokens() -> None:
    assert [abstract_token(t) for t in ("name", "'x'", 'f"{a}"', "12", ".5", "None", "(", "if")] == [
        "I", "S", "S", "N", "N", "None", "(", "if"]


def test_line_map_puts_each_piece_where_its_first_token_stands() -> None:
    t = ["mod = mod.replace(", "    target,", '    "dapple",', ")"]
    assert line_map(t, ['mod = mod.replace(target, "chardet")']) == [0, 0, 0, 0]
    u = ["x = call(", "    first,", "    'second')"]
    assert line_map(["x = call(first, 'other',)"], u) == [0]
    assert line_map(["x = call(", "    first,", "    'other',", ")"], u) == [0, 1, 2, 2]


def test_line_map_needs_the_same_shape_and_most_tokens_alike() -> None:
    assert line_map(["x = call(first)"], ["x = call(first, second)"]) is None
    # Other keyword arguments of the same shape: few tokens alike.
    t = ["return cls(", "    a=a,", "    b=b,", "    c=c,", ")"]
    u = ["return cls(", "    a=a,", "    x=x,", "    y=y,", ")"]
    assert line_map(t, u, 0.8) is None
    assert line_map(t, u, 0.0) == [0, 1, 2, 3, 4]


def test_line_map_caps_the_edited_tokens() -> None:
    """A long statement passes the share with several entries edited (a ``__slots__`` whose
    names were given a leading underscore); ``max_edits`` caps the tokens that differ."""
    names = ["state", "features", "icon", "banner", "id", "name", "splash", "level", "description"]
    u = ["__slots__ = (" + ", ".join(f"'{n}'" for n in names) + ")"]
    edited = {"icon", "banner", "splash"}
    t = ["__slots__ = (", *(f'    "{"_" + n if n in edited else n}",' for n in names), ")"]
    assert line_map(t, u, 0.8) is not None  # 3 of 20 tokens differ
    assert line_map(t, u, 0.8, 3) is not None
    assert line_map(t, u, 0.8, 2) is None
    one = ["mod = mod.replace(", "    target,", '    "dapple",', ")"]
    assert line_map(one, ['mod = mod.replace(target, "chardet")'], 0.8, 1) == [0, 0, 0, 0]


def test_witnessed_renames_are_consistent_ones() -> None:
    pairs = [(["def", "f", "(", "self", ",", "quarry", ")", ":"], ["def", "f", "(", "self", ",", "msg", ")", ":"]),
             (["g", "(", "quarry", ")"], ["g", "(", "msg", ")"]),
             (["h", "(", "value", ")"], ["h", "(", "other", ")"]),
             (["k", "(", "value2", ")"], ["k", "(", "other", ")"]),  # ``other`` renamed two ways
             (["x", "=", "1"], ["x", "=", "2"])]  # a literal edited is no rename
    assert dict(witnessed_renames(pairs)) == {("msg", "quarry"): 2}


def test_a_rename_no_more_lines_witness_than_keep_its_names_is_none() -> None:
    """``data`` renamed ``entries`` on one line, while other copied lines keep ``data`` (and
    the upstream's own ``entries``) as written: not a rename, with ``kept_counts``."""
    pairs = [(["entries", "=", "reversed", "(", "entries", ")"], ["data", "=", "reversed", "(", "data", ")"]),
             (["for", "e", "in", "entries", ":"], ["for", "e", "in", "data", ":"]),
             (["if", "len", "(", "data", ")", ":"], ["if", "len", "(", "data", ")", ":"]),
             (["return", "data"], ["return", "data"])]
    assert dict(witnessed_renames(pairs)) == {("data", "entries"): 2}
    assert dict(witnessed_renames(pairs, kept_counts=True)) == {}
    assert dict(witnessed_renames(pairs[:3], kept_counts=True)) == {("data", "entries"): 2}


def test_an_edited_piece_of_a_rewrapped_call_is_near(run_compare: Runner) -> None:
    """A call re-wrapped one argument a line with a literal edited: the edited piece and the
    closing bracket are near copies of the one upstream line (the statements have one shape);
    with the rule off the edited piece stays none (it shares no word with the upstream call)."""
    up = {"pkg/packages.py": _UP_HEAD}
    target = {"pkg/packages.py": _TARGET_HEAD}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/packages.py")
    call = 11  # ``mod = mod.replace(``
    pieces = frame.loc[call : call + 3]
    assert set(pieces["match"]) == {"near"}
    assert set(pieces["upstream_line"].astype(int)) == {call}
    off = run_compare(target, [("up", up)], params=MatchParams(fill_shape_max_lines=0))
    assert file_lines(off, "pkg/packages.py").loc[call + 2, "match"] == "none"


def test_the_same_shape_rule_leaves_a_file_of_another_name(run_compare: Runner) -> None:
    """The same copy in a file of another name: the edited piece stays none."""
    up = {"pkg/packages.py": _UP_HEAD}
    other = file_lines(run_compare({"pkg/aliases.py": _TARGET_HEAD}, [("up", up)]), "pkg/aliases.py")
    assert other.loc[11 + 2, "match"] == "none"


_UP_ERROR = '''class PythonTooOldError(RuntimeError):
    """It was attempted to use an attrs feature that requires a newer Python version."""


class NotCallableError(TypeError):
    """A field requiring a callable has been set with a value that is not callable.

    .. versionadded:: 19.2.0
    """

    def __init__(self, msg, value):
        super(TypeError, self).__init__(msg, value)
        self.msg = msg
        self.value = value

    def __str__(self):
        return str(self.msg)
'''


def test_lines_whose_only_edit_is_a_witnessed_rename_are_near(run_compare: Runner) -> None:
    """``msg`` and ``value`` renamed throughout: the signature and the ``super`` call witness the
    renames (near by their similarity), so ``self.msg = msg`` and ``return str(self.msg)``, too
    unlike their upstream lines for the edited-line rule, are near copies by default (each
    rename has 2 witnesses, ``fill_rename_min_witnesses`` 2); with the rule off, with a third
    witness asked for, and in a file of another name, they stay none."""
    target_text = _UP_ERROR.replace("msg", "quarry_moss").replace("value", "quince_quince")
    up, target = {"pkg/exceptions.py": _UP_ERROR}, {"pkg/exceptions.py": target_text}
    on = MatchParams()
    assert on.fill_rename_min_witnesses == 2
    frame = file_lines(run_compare(target, [("up", up)], params=on), "pkg/exceptions.py")
    renamed = [13, 14, 17]
    assert set(frame.loc[renamed]["match"]) == {"near"}
    assert list(frame.loc[renamed]["upstream_line"].astype(int)) == renamed
    # (the lines are the file's last: in a file at the upstream file's place, the same-place end
    # anchor aligns them as inside a copy too, so it is off here, to see this rule alone)
    for params in (MatchParams(fill_rename_min_witnesses=0, fill_same_place_end_anchor=0),
                   MatchParams(fill_rename_min_witnesses=3, fill_same_place_end_anchor=0)):
        off = run_compare(target, [("up", up)], params=params)
        assert set(file_lines(off, "pkg/exceptions.py").loc[renamed]["match"]) == {"none"}
    other = run_compare({"pkg/errors.py": target_text}, [("up", up)], params=on)
    assert set(file_lines(other, "pkg/errors.py").loc[renamed]["match"]) == {"none"}
