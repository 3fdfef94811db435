"""What the matcher keeps per file instead of making it again (round speed25): each memo or
array form gives what the code it replaced gave, written out here as that code was."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import treegen
from hypothesis import given
from hypothesis import strategies as st

from lineage.index import IndexCache, index_tree
from lineage.match import MatchParams, Side
from lineage.match.class_names import _upstream_classes, top_classes
from lineage.match.file_statements import Statements, def_key, is_overload, qualified_defs
from lineage.match.labels import FileLabeller
from lineage.match.statements import (
    _annotated_target_end,
    _is_name,
    shared_word_counts,
    statement_lines,
    whole_statements,
)
from lineage.sources import open_source

_TARGET = '''"""A module."""

import os


class Store:
    def put(
        self,
        key: str,
        value: int = 0,
    ) -> None:
        self.items[key]: int = value

    def get(self, key):
        return self.items.get(key)


def put(path, data):
    """Write it."""
    with open(path, "w") as out:
        out.write(data)


def helper(
    a,
    b,
):
    return a + b
'''

_UPSTREAM = '''class Store:
    def put(self, key, value=0):
        self.items[key] = value

    @overload
    def get(self, key: str) -> int: ...

    def get(
        self,
        key,
    ):
        return self.items.get(key)
'''


@pytest.fixture(scope="module")
def labeller(tmp_path_factory: pytest.TempPathFactory) -> FileLabeller:
    base = tmp_path_factory.mktemp("memos")
    sides = []
    for name, files in (("target", {"pkg/store.py": _TARGET}), ("upstream", {"up/store.py": _UPSTREAM})):
        root = treegen.write_tree(Path(base) / name, files)
        with open_source(str(root)) as source:
            tree = index_tree(source, IndexCache(None), jobs=1)
        sides.append(Side(tree.files, lambda k, tree=tree: tree.lines(tree.files[k].path),
                          np.zeros(len(tree.files), np.int32)))
    return FileLabeller(sides[0], sides[1], 0, MatchParams())


def test_one_statements_per_labeller_and_its_target_parts_made_once(labeller: FileLabeller) -> None:
    statements = Statements.of(labeller)
    assert Statements.of(labeller) is statements
    limit = labeller.p.fill_statement_max_lines
    qualified = statements.target_qualified_defs(limit)
    assert statements.target_qualified_defs(limit) is qualified
    lines = [labeller.t_lines[row] for row in labeller.t_rows.tolist()]
    assert qualified == qualified_defs(*statements.target(limit), lines, labeller.target_kinds().tolist(),
                                        bool(labeller.p.fill_signature_overloads))
    assert "def Store.put" in qualified


def test_the_def_headers_and_numbers_are_those_misnamed_headers_scanned_each_time(labeller: FileLabeller) -> None:
    statements = Statements.of(labeller)
    limit, overloads = labeller.p.fill_statement_max_lines, True
    t_lines = statements.target_texts()
    before = []  # the loop misnamed_headers ran per upstream file
    for stmt in whole_statements(*statements.target(limit), range(len(t_lines))):
        key = def_key(t_lines[stmt[0]])
        if len(stmt) < 2 or key is None or not key.startswith("def "):
            continue
        before.append((stmt, key))
    assert statements.target_def_headers(limit) == before
    assert [key for _, key in before] == ["def put", "def helper"]
    u_lines = statements.upstream_texts(0)
    u_name = np.full(len(u_lines), -1, np.int64)
    u_keys: list[str] = []
    for stmt in whole_statements(*statements.upstream(0, limit), range(len(u_lines))):
        key = def_key(u_lines[stmt[0]])
        if key is not None and key.startswith("def ") and not (overloads and is_overload(u_lines, stmt[0])):
            u_name[stmt] = len(u_keys)
            u_keys.append(key)
    found = statements.upstream_def_numbers(0, limit, overloads)
    assert found[0].tolist() == u_name.tolist() and found[1] == u_keys == ["def put", "def get"]
    assert statements.upstream_def_numbers(0, limit, overloads) is found  # kept in the side


def test_distinctive_lines_are_the_labellers_test_line_by_line(labeller: FileLabeller) -> None:
    start = int(labeller.target.file_start[labeller.t_file])
    expected = [labeller.distinctive(labeller.t_lines[row].strip(), int(labeller.target.ntok[start + tc]))
                for tc, row in enumerate(labeller.t_rows.tolist())]
    assert Statements.of(labeller).target_distinctive().tolist() == expected
    assert any(expected) and not all(expected)


def test_stripped_lines_and_upstream_classes(labeller: FileLabeller) -> None:
    assert labeller.stripped() == [labeller.t_lines[row].strip() for row in labeller.t_rows.tolist()]
    classes = _upstream_classes(labeller, 0)
    expected = top_classes(labeller.upstream_lines(0)[1])
    assert classes[0].tolist() == expected[0].tolist() and classes[1] == expected[1] == {"Store"}
    assert _upstream_classes(labeller, 0) is classes


@given(st.lists(st.integers(-1, 6), max_size=40), st.lists(st.integers(0, 8), max_size=6))
def test_statement_lines_are_each_numbers_lines_in_order(raw: list[int], wanted: list[int]) -> None:
    ids = np.array(raw, np.int64)
    found = statement_lines(ids, wanted)
    assert set(found) == set(wanted)
    for number, lines in found.items():
        assert lines == np.flatnonzero(ids == number).tolist()


def _annotated_target_end_before(tokens: list[str]) -> int | None:
    """:func:`_annotated_target_end` as it was, without the test for a ``:`` token first."""
    if not tokens or not _is_name(tokens[0]):
        return None
    k = 1
    while k < len(tokens):
        if tokens[k] == "." and k + 1 < len(tokens) and _is_name(tokens[k + 1]):
            k += 2
        elif tokens[k] == "[":
            depth = 0
            while k < len(tokens):
                depth += tokens[k] == "["
                depth -= tokens[k] == "]"
                k += 1
                if depth == 0:
                    break
        else:
            break
    return k if k < len(tokens) and tokens[k] == ":" else None


@given(st.lists(st.sampled_from(["x", "self", ".", "[", "]", ":", "=", "1", "if", "(", ")", ",", "_a"]),
                max_size=12))
def test_annotated_target_end_is_the_scan_it_was(tokens: list[str]) -> None:
    assert _annotated_target_end(tokens) == _annotated_target_end_before(tokens)


@given(st.lists(st.sampled_from("abcde"), max_size=8),
       st.lists(st.lists(st.sampled_from("abcdef"), max_size=8), max_size=5))
def test_shared_word_counts_are_the_counters_intersection(mine: list[str], ups: list[list[str]]) -> None:
    u_words = [Counter(u) for u in ups]
    assert shared_word_counts(mine, u_words) == [sum((Counter(mine) & c).values()) for c in u_words]


@given(st.text(alphabet="ab_1 ,=.:'\"()-NoneTrueself", max_size=30))
def test_argument_lines_read_the_abstract_form_normalise_code_gives(text: str) -> None:
    from lineage.index.normalise import normalise_code
    from lineage.match.idioms import _ARGUMENT, is_argument_line

    assert is_argument_line(text) == bool(_ARGUMENT.match(normalise_code(text)[1]))


@given(st.integers(1, 50))
def test_a_wholly_free_run_is_the_one_segment_claims_take_without_the_scan(n: int) -> None:
    from lineage.match.claims import _true_segments

    assert _true_segments(np.ones(n, bool)) == [(0, n - 1)]


def test_align_form_keys_are_the_keys_made_line_by_line(labeller: FileLabeller) -> None:
    """AlignForms.keys (round speed30) gives the keys ``Keys.of`` gave line by line, negative
    ones for unwanted lines included, and makes a form only for a wanted line."""
    from lineage.match.fill_lines import AlignForms, Keys, align_forms, span_arrays

    lab = labeller
    span = range(len(lab.t_rows))
    wanted = [k % 3 != 1 for k in span]
    kinds = span_arrays(lab.target, int(lab.target.file_start[lab.t_file]), span)[0].tolist()
    reference, keys = Keys(), Keys()
    forms = AlignForms(lab.target, lab.t_file, lab.t_rows, lab.t_lines, True)
    expected = [reference.of(k, forms[c] if ok else None) for c, k, ok in zip(span, kinds, wanted, strict=True)]
    fresh = AlignForms(lab.target, lab.t_file, lab.t_rows, lab.t_lines, True)
    assert fresh.keys(keys, span, wanted) == expected
    assert [form is not None for form in fresh._forms] == wanted
    # a second span sharing the Keys: the ids go on from the first, as with Keys.of
    upstream = align_forms(lab, 0)
    u_span = range(len(lab.upstream_lines(0)[0]))
    u_kinds = span_arrays(lab.upstream, int(lab.upstream.file_start[0]), u_span)[0].tolist()
    assert upstream.keys(keys, u_span, [True] * len(u_span)) == [reference.of(k, upstream[c])
                                                                    for c, k in zip(u_span, u_kinds, strict=True)]


@given(st.text(alphabet=" \t([{)]}#,:->x.|\u00a0\u2003", max_size=16))
def test_bracket_line_first_character_test_changes_no_answer(text: str) -> None:
    """The lone-bracket rule's _bracket_line tells most lines by their first character (round
    speed30): the answer is the two patterns' on the code before the comment, as before."""
    from lineage.match.blocks import CLOSER
    from lineage.match.lone_pairs import _OPENER, _bracket_line

    code = text.split("#", 1)[0].strip()
    expected = "close" if CLOSER.fullmatch(code) else "open" if _OPENER.fullmatch(code) else ""
    assert _bracket_line(text) == expected
