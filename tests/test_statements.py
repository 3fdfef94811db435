"""Tests for lineage.match.statements: logical lines and the lines of an edited statement."""

from __future__ import annotations

import numpy as np

from lineage.index import CODE, COMMENT
from lineage.match.statements import best_in_order, line_partners, statement_ids, statement_key, whole_statements


def test_statement_ids_join_lines_while_a_bracket_is_open() -> None:
    lines = ["def f(", "    a,", "    b='(',", "):", "    # a comment (", "    x = [1,", "         2]",
             "    y = 1 + \\", "        2", "    return x"]
    kinds = [CODE] * 4 + [COMMENT] + [CODE] * 5
    ids = statement_ids(lines, kinds, max_lines=30)
    assert ids.tolist() == [0, 0, 0, 0, -1, 1, 1, 2, 2, 3]


def test_a_def_line_starts_a_statement_and_long_statements_are_dropped() -> None:
    lines = ["x = call('unclosed", "def g(self):", "    return (", "        1,", "        2,", "    )"]
    ids = statement_ids(lines, [CODE] * len(lines), max_lines=3)
    assert ids.tolist() == [0, 1, -1, -1, -1, -1]


def test_statement_key_ignores_breaks_quotes_and_the_trailing_comma() -> None:
    assert statement_key(["f(", "    'a',", "    b,", ")"]) == statement_key(['f("a", b)'])


def test_line_partners_keep_old_words_and_brackets_and_drop_new_arguments() -> None:
    up = ["def ban(self, user_id, guild_id, delete_message_days=1, reason=None):"]
    mine = ["def ban(", "    self,", "    user_id: Snowflake,", "    guild_id: Snowflake,",
            "    brand_new_flag: NewThing = DEFAULT,", "    reason: Optional[str] = None,", ") -> Response[None]:"]
    assert line_partners(mine, up, 0.5) == [0, 0, 0, 0, None, 0, 0]


def test_line_partners_follow_the_upstream_lines_in_order() -> None:
    up = ["r = Route('GET', '/guilds/{guild_id}/members',", "          guild_id=guild_id)"]
    mine = ["r = Route(", '    "GET",', '    "/guilds/{guild_id}/members",', "    guild_id=guild_id,", ")"]
    assert line_partners(mine, up, 0.5) == [0, 0, 0, 1, 1]


def test_best_in_order_and_whole_statements() -> None:
    scores = np.array([[0.9, 0.1], [0.95, 0.2], [0.1, 0.7]])
    assert best_in_order(scores, 0.6) == [(1, 0), (2, 1)]
    ids = np.array([0, 0, 1, -1, 2, 2])
    sizes = np.bincount(ids[ids >= 0])
    assert whole_statements(ids, sizes, [1, 2, 3, 4, 5]) == [[2], [4, 5]]


def test_strip_annotations_of_defs_and_annotated_assignments() -> None:
    from lineage.match.statements import annotation_free, line_tokens, strip_annotations

    assert annotation_free('self.tts: bool = data["tts"]') == annotation_free("self.tts = data['tts']")
    assert annotation_free("def copy(self) -> CooldownMapping:") == annotation_free("def copy(self):")
    assert annotation_free("async def f(self, a: int = 3, *args: Any, **kw: Dict[str, int]) -> X:") == \
        annotation_free("async def f(self, a=3, *args, **kw):")
    assert annotation_free("    reason: Optional[str] = None,") == annotation_free("reason=None")
    for kept in ("x: int", "else:", "x[1:2] = 3", "return {a: b for a in c}", "lambda x: x"):
        assert strip_annotations(line_tokens(kept)) == line_tokens(kept)
    assert statement_key(["def ban(", "    self,", "    user_id: Snowflake,", ") -> None:"], annotations=False) == \
        statement_key(["def ban(self, user_id):"])
