"""Tests for lineage.match.blocks: a code line's enclosing ``def`` and a block's last code line,
read from the lines alone (the lone-line rule's ``lone_def_ends``); the innermost function holding
a line and that function's end (the fill's edge window, ``fill_edge_function_window``)."""

from __future__ import annotations

import numpy as np

from lineage.index import CODE, COMMENT
from lineage.match.blocks import (
    block_of,
    decorated_def,
    enclosing_def,
    enclosing_function,
    function_end,
    function_start,
    last_code_line,
)

_LINES = ["import os",                      # 0
          "def plain(a):",                  # 1
          "    value = a + 1",              # 2
          "    if value:",                  # 3
          "        return value",           # 4
          "    # the default",              # 5
          "    return None",                # 6
          "class Holder:",                  # 7
          "    async def exploded(",        # 8
          "        self,",                  # 9
          "        size: int,",             # 10
          "    ) -> int:",                  # 11
          "        return size",            # 12
          "top_level = plain(1)"]           # 13
_ROWS = np.arange(len(_LINES))
_KINDS = np.array([COMMENT if line.strip().startswith("#") else CODE for line in _LINES])


def test_the_enclosing_def_is_the_def_holding_the_line_directly() -> None:
    assert enclosing_def(_LINES, _ROWS, _KINDS, 2) == 1
    assert enclosing_def(_LINES, _ROWS, _KINDS, 6) == 1  # past the nested block and the comment
    assert enclosing_def(_LINES, _ROWS, _KINDS, 4) == -1  # held by the ``if``, not the ``def``
    # an exploded header: past its closer and its parameters, to its first line
    assert enclosing_def(_LINES, _ROWS, _KINDS, 12) == 8
    assert enclosing_def(_LINES, _ROWS, _KINDS, 9) == 8  # a parameter line, at the body's depth
    # a class body's line is held by no def; a module-level line by nothing
    assert enclosing_def(_LINES, _ROWS, _KINDS, 8) == -1
    assert enclosing_def(_LINES, _ROWS, _KINDS, 13) == -1
    assert enclosing_def(_LINES, _ROWS, _KINDS, 0) == -1


def test_the_last_code_line_of_a_block_skips_its_comments() -> None:
    assert last_code_line(_KINDS, block_of(_LINES, _ROWS, _KINDS, 1)) == 6
    assert last_code_line(_KINDS, block_of(_LINES, _ROWS, _KINDS, 8)) == 12
    kinds = _KINDS.copy()
    kinds[6] = COMMENT
    assert last_code_line(kinds, block_of(_LINES, _ROWS, kinds, 1)) == 4
    assert last_code_line(_KINDS, range(5, 6)) == -1  # a comment alone


def test_the_enclosing_function_is_the_innermost_def_through_any_clause() -> None:
    assert enclosing_function(_LINES, _ROWS, _KINDS, 4) == (1, "plain")  # through the ``if``
    assert enclosing_function(_LINES, _ROWS, _KINDS, 1) == (1, "plain")  # a header heads its own
    assert enclosing_function(_LINES, _ROWS, _KINDS, 10) == (8, "exploded")  # a parameter line
    assert enclosing_function(_LINES, _ROWS, _KINDS, 12) == (8, "exploded")  # past the closer
    # a class body's header, a module-level line: in no function
    assert enclosing_function(_LINES, _ROWS, _KINDS, 7) is None
    assert enclosing_function(_LINES, _ROWS, _KINDS, 13) is None


def test_a_function_ends_after_its_last_code_line() -> None:
    assert function_end(_LINES, _ROWS, _KINDS, 1) == 7  # the comment above ``return None`` inside
    assert function_end(_LINES, _ROWS, _KINDS, 8) == 13  # the exploded header's lines, then the body
    kinds = _KINDS.copy()
    kinds[6] = COMMENT
    assert function_end(_LINES, _ROWS, kinds, 1) == 5  # a trailing comment belongs to what follows


def test_a_header_s_closer_is_in_the_function_it_closes() -> None:
    """Round review176: the closer of an exploded header (``) -> int:``, at the ``def``'s depth)
    is that function's line: a method's was read as in no function (the class above it), and a
    nested function's as in the outer one, whose window then ran over the rest of it."""
    assert enclosing_function(_LINES, _ROWS, _KINDS, 11) == (8, "exploded")
    lines = ["def outer():",          # 0
             "    def inner(",        # 1
             "        a,",            # 2
             "    ):",                # 3
             "        return a",      # 4
             "    return inner"]      # 5
    rows, kinds = np.arange(len(lines)), np.full(len(lines), CODE)
    assert enclosing_function(lines, rows, kinds, 3) == (1, "inner")
    assert enclosing_function(lines, rows, kinds, 5) == (0, "outer")  # a line after the nested def
    # a closing bracket of a statement that is no def: read on to the def above it
    lines = ["def build():", "    value = call(", "        1,", "    )", "    return value"]
    rows, kinds = np.arange(len(lines)), np.full(len(lines), CODE)
    assert enclosing_function(lines, rows, kinds, 3) == (0, "build")


def test_a_decorator_heads_the_function_it_decorates() -> None:
    """Round fix177: a function's lines start at its first decorator (the fill's edge window reads
    from there): ``function_start`` walks up past the decorators, a decorator's own lines and
    comments, and stops at any other statement; a decorator line stands in the ``def`` it
    decorates (it was read as in no function, the class's body), a class's decorator in none."""
    lines = ["class Holder:",                  # 0
             "    size = call(",               # 1
             "        1,",                     # 2
             "    )",                          # 3
             "    @retry(",                    # 4
             "        attempts=3,",            # 5
             "    )",                          # 6
             "    # why it is cached",         # 7
             "    @property",                  # 8
             "    def value(self):",           # 9
             "        return self.size",       # 10
             "    def plain(self):",           # 11
             "        return 1",               # 12
             "@dataclass",                     # 13
             "class Other:",                   # 14
             "    x: int"]                     # 15
    rows = np.arange(len(lines))
    kinds = np.array([COMMENT if line.strip().startswith("#") else CODE for line in lines])
    assert function_start(lines, rows, kinds, 9) == 4
    assert function_start(lines, rows, kinds, 11) == 11  # the body above is the previous function's
    assert decorated_def(lines, rows, kinds, 4) == 9
    assert decorated_def(lines, rows, kinds, 8) == 9
    assert decorated_def(lines, rows, kinds, 13) == -1  # a class
    for at in (4, 8):
        assert enclosing_function(lines, rows, kinds, at) == (9, "value")
    assert enclosing_function(lines, rows, kinds, 5) == (9, "value")  # a decorator's argument line
    assert enclosing_function(lines, rows, kinds, 13) is None
    assert enclosing_function(lines, rows, kinds, 2) is None  # a class attribute's line
