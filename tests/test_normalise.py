"""Tests for lineage.index.normalise: the per-line normal forms and the stable hash."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lineage.index import CODE, COMMENT, Indexer
from lineage.index.normalise import (
    abstract_code,
    fold_whitespace,
    normalise_code,
    stable_hash,
    tokenize_code,
)


def norm(code: str) -> str:
    return normalise_code(code)[0]


def abstract(code: str) -> str:
    return normalise_code(code)[1]


def test_norm_is_whitespace_insensitive() -> None:
    assert norm("f(a,b)") == norm("f( a , b )") == norm("  f (a ,  b)  ")
    assert norm("x=y+1") == norm("x = y + 1")
    assert norm("d[k]  ==  {'a': 1}") == norm("d[ k ]=={'a' :1}")


def test_norm_keeps_what_matters() -> None:
    assert norm("f(a, b)") != norm("f(b, a)")
    assert norm("x = 1") != norm("x = 2")
    # multi-character operators are one token: "a ** b" is not "a * * b" spelled differently
    assert tokenize_code("a**=b//c->d:=e") == ["a", "**=", "b", "//", "c", "->", "d", ":=", "e"]
    # spaces inside a string literal are content, not layout
    assert norm("s = 'a  b'") != norm("s = 'a b'")


def test_token_count() -> None:
    assert normalise_code("f(a, b)")[2] == len(["f", "(", "a", ",", "b", ")"])
    assert normalise_code("")[2] == 0


def test_comments_are_excluded_from_code_forms() -> None:
    indexer = Indexer()
    plain = indexer.index("a.py", b"x = compute(alpha, beta)\n", "d1")
    commented = indexer.index("b.py", b"x = compute(alpha, beta)  # a remark on it\n", "d2")
    other_comment = indexer.index("c.py", b"x = compute(alpha,beta) # something else entirely\n", "d3")
    assert plain.kinds[0] == commented.kinds[0] == CODE
    assert plain.h_norm[0] == commented.h_norm[0] == other_comment.h_norm[0]
    assert plain.h_abs[0] == commented.h_abs[0] == other_comment.h_abs[0]
    assert plain.ntok[0] == commented.ntok[0]
    # a '#' inside a string is not a comment
    hashed = indexer.index("d.py", b"x = compute('#alpha', beta)\n", "d4")
    assert hashed.h_norm[0] != plain.h_norm[0]


def test_comment_line_form_is_its_folded_text() -> None:
    record = Indexer().index("a.py", b"#   several   words   here\n", "d")
    assert record.kinds[0] == COMMENT
    assert record.h_norm[0] == stable_hash(fold_whitespace("#   several   words   here"))


def test_abstract_maps_names_strings_numbers() -> None:
    assert abstract("total = compute(alpha, 'text', 42)") == "I = I ( I , S , N )"
    assert abstract("total = compute(alpha, 'text', 42)") == abstract('z = g(b, "other", 7.5)')
    assert abstract("x = 0x1F") == "I = N"
    assert abstract("s = b'abc' + rb'x'") == "I = S + S"
    # attribute chains keep their dots
    assert abstract("a.b.c(d)") == "I . I . I ( I )"


def test_abstract_keeps_keywords_self_cls_none() -> None:
    assert abstract("return None") == "return None"
    assert abstract("if x is not None and y:") == "if I is not None and I :"
    assert abstract("self.value = cls.make(True, False)") == "self . I = cls . I ( True , False )"
    assert abstract("for item in items:") == "for I in I :"
    assert abstract("lambda k: k") == "lambda I : I"
    # a name that merely starts with a keyword is still a name
    assert abstract("important = iffy + selfish") == "I = I + I"


def test_abstract_does_not_touch_string_contents() -> None:
    assert abstract("f('return None and self')") == "I ( S )"
    assert abstract("x = 'it''s'") == "I = S S"


@pytest.mark.parametrize("code", [
    "total = compute(alpha, 'text', 42)",
    "self.value = cls.make(True, None)",
    "f('return None and self')",
    "label = 'two words' + name",
    'msg = f"{a} and {b}"',
])
def test_abstract_code_of_the_norm_agrees_with_normalise_code(code: str) -> None:
    """abstract_code() takes the norm form; strings with spaces in them are still one token."""
    norm_form, abstract_form, _ = normalise_code(code)
    assert abstract_code(norm_form) == abstract_form


def test_fold_whitespace() -> None:
    assert fold_whitespace("  a \t b\n c  ") == "a b c"
    assert fold_whitespace("") == ""


def _fold_by_regex(text: str) -> str:
    """fold_whitespace's definition: every run of ``\\s`` one space, the ends stripped."""
    return re.sub(r"\s+", " ", text).strip()


def test_fold_whitespace_splits_where_the_regex_does_at_every_code_point() -> None:
    for c in map(chr, range(sys.maxunicode + 1)):
        text = f"a{c}{c}b{c}"
        assert fold_whitespace(text) == _fold_by_regex(text), hex(ord(c))


@given(st.text(alphabet=st.sampled_from(" \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2000\u2028\u3000\u200bab\udcff"),
               max_size=30) | st.text(max_size=30))
@settings(max_examples=300, deadline=None)
def test_fold_whitespace_equals_its_regex_definition(text: str) -> None:
    assert fold_whitespace(text) == _fold_by_regex(text)


def test_stable_hash_is_a_non_negative_int64() -> None:
    values = [stable_hash(s) for s in ("", "a", "x = 1", "ünïcode", "\udcff")]
    assert all(0 <= v < 2**63 for v in values)
    assert len(set(values)) == len(values)
    assert stable_hash("x = 1") == stable_hash("x = 1")


def test_stable_hash_is_the_same_in_another_process() -> None:
    texts = ["", "x = 1", "def f ( a , b ) :", "ünïcode text", "I = I ( I , S , N )"]
    code = (
        "import json, sys\n"
        "from lineage.index.normalise import stable_hash\n"
        "print(json.dumps([stable_hash(t) for t in json.loads(sys.stdin.read())]))\n"
    )
    # another hash seed in the child: Python's own hash() would differ there, ours must not
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(texts), capture_output=True,
                         text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert json.loads(out.stdout) == [stable_hash(t) for t in texts]


# ---------------------------------------------------------------------------------------------
# Property: norm is invariant under spaces inserted between tokens
# ---------------------------------------------------------------------------------------------

_TOKEN = st.one_of(
    st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True),
    st.from_regex(r"[1-9][0-9]{0,4}", fullmatch=True),
    st.from_regex(r"'[a-z ]{0,5}'", fullmatch=True),
    st.sampled_from(["(", ")", "[", "]", "{", "}", ",", ":", ".", "=", "==", "+", "-", "*", "**",
                     "//", "->", "<=", "!=", "+=", "@", "%"]),
)


def _glue(tokens: list[str], gaps: list[str]) -> str:
    out = tokens[0]
    for gap, token in zip(gaps, tokens[1:], strict=False):
        out += gap + token
    return out


def _fuse(left: str, right: str) -> bool:
    """Whether two adjacent tokens could run together when written with nothing between them."""
    word = lambda c: c.isalnum() or c == "_"  # noqa: E731
    if word(left[-1]) and (word(right[0]) or right[0] == "'"):
        return True  # names and numbers run together; a name before a quote is a string prefix
    if not word(left[-1]) and left[-1] != "'" and not word(right[0]) and right[0] != "'":
        return True  # operators may fuse ('*' '*' -> '**')
    return (left[-1] == "." and right[0].isdigit()) or (left[-1].isdigit() and right[0] == ".")


@settings(max_examples=150, deadline=None)
@given(
    tokens=st.lists(_TOKEN, min_size=1, max_size=12),
    extra=st.lists(st.sampled_from(["", " ", "  ", "\t", " \t "]), min_size=12, max_size=12),
)
def test_norm_invariant_under_inserted_spaces(tokens: list[str], extra: list[str]) -> None:
    minimal = [" " if _fuse(a, b) else "" for a, b in zip(tokens, tokens[1:], strict=False)]
    tight = _glue(tokens, minimal)
    loose = " " + _glue(tokens, [m + e for m, e in zip(minimal, extra, strict=False)]) + "  "
    assert norm(tight) == norm(loose) == " ".join(tokens)
    assert abstract(tight) == abstract(loose)
    assert normalise_code(tight)[2] == normalise_code(loose)[2] == len(tokens)
