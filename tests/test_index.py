"""Tests for lineage.index: line kinds, definitions, decoding and skipped files."""

from __future__ import annotations

import codecs

import numpy as np
import pytest
from treegen import dedent_src

from lineage.index import (
    BLANK,
    CODE,
    COMMENT,
    DOCSTRING,
    KIND_NAMES,
    Definition,
    FileIndex,
    Indexer,
    decode_source,
    split_lines,
)
from lineage.index.parse import parser_input
from lineage.sources import blob_digest


@pytest.fixture(scope="module")
def indexer() -> Indexer:
    return Indexer()


def index(indexer: Indexer, source: str | bytes, path: str = "m.py") -> FileIndex:
    data = source.encode("utf-8") if isinstance(source, str) else source
    return indexer.index(path, data, blob_digest(data))


def kinds(record: FileIndex) -> list[str]:
    return [KIND_NAMES[k] for k in record.kinds]


def test_kinds_of_a_small_module(indexer: Indexer) -> None:
    src = dedent_src('''
        #!/usr/bin/env python
        # A leading comment.
        """The module docstring,
        over two lines."""

        import os  # trailing comment: still code

        def f(a):
            """Function docstring."""
            # comment inside
            return a

        class C:
            """Class docstring
            continues here.
            """

            def m(self):
                # a comment before the docstring
                """Method docstring after a comment."""
                text = """a multi-line string
        # not a comment, it is inside the string
        that is not a docstring"""
                return text
    ''')
    assert kinds(index(indexer, src)) == [
        "comment", "comment", "docstring", "docstring", "blank",
        "code", "blank",
        "code", "docstring", "comment", "code", "blank",
        "code", "docstring", "docstring", "docstring", "blank",
        "code", "comment", "docstring", "code", "code", "code", "code",
    ]


def test_string_after_a_statement_is_not_a_docstring(indexer: Indexer) -> None:
    src = 'x = 1\n"""Not a docstring:\nthe module has a statement before it."""\n'
    assert kinds(index(indexer, src)) == ["code", "code", "code"]
    src = 'def f():\n    y = 2\n    """Not a docstring either."""\n'
    assert kinds(index(indexer, src)) == ["code", "code", "code"]


@pytest.mark.parametrize(("src", "expected"), [
    ("x = [\n    1,  # one\n    # standalone\n    2,\n]\n", ["code", "code", "comment", "code", "code"]),
    ('x = """abc\n  # not a comment\n"""  # a real one\ny = 2\n', ["code", "code", "code", "code"]),
    ('"""Doc."""\n"""A second string."""\n', ["docstring", "code"]),
    ('if True:\n    """Not a docstring."""\n', ["code", "code"]),
    ('class C:\n\n    # c\n\n    """Doc."""\n    x = 1\n', ["code", "blank", "comment", "blank", "docstring", "code"]),
    ("x = 1 \\\n    + 2\n", ["code", "code"]),
])
def test_more_kinds(indexer: Indexer, src: str, expected: list[str]) -> None:
    assert kinds(index(indexer, src)) == expected


def test_module_docstring_after_leading_comments_and_blank_lines(indexer: Indexer) -> None:
    src = "# SPDX-License-Identifier: Apache-2.0\n\n# Copyright someone\n'''Docstring.'''\nx = 1\n"
    record = index(indexer, src)
    assert record.kinds.tolist() == [COMMENT, BLANK, COMMENT, DOCSTRING, CODE]


def test_arrays_have_one_entry_per_line_and_zero_hash_on_blank(indexer: Indexer) -> None:
    record = index(indexer, "a = 1\n\n   \nb = f(a)\n")
    assert record.n_lines == 4
    for array in (record.kinds, record.h_norm, record.h_abs, record.ntok):
        assert array.shape == (4,)
    assert record.h_norm[1] == record.h_norm[2] == 0
    assert record.h_norm[0] != 0 and record.h_norm[3] != 0
    assert record.ntok[3] == len(["b", "=", "f", "(", "a", ")"])


def test_docstring_words_are_counted_as_tokens(indexer: Indexer) -> None:
    record = index(indexer, '"""one two  three four"""\n')
    assert record.kinds[0] == DOCSTRING
    assert record.ntok[0] == 4


def test_definitions_with_qualnames(indexer: Indexer) -> None:
    src = dedent_src('''
        import functools


        @functools.lru_cache(maxsize=None)
        def cached(x):
            def inner(y):
                return y
            return inner(x)


        class Outer:
            class Inner:
                def deep(self):
                    pass

            @property
            @staticmethod
            def prop(self):
                return 1

            async def run(self):
                def helper():
                    return 2
                return helper()


        def last():
            class Local:
                pass
            return Local
    ''')
    defs = index(indexer, src).definitions
    assert defs == [
        Definition("cached", "function", 4, 8),
        Definition("cached.inner", "function", 6, 7),
        Definition("Outer", "class", 11, 24),
        Definition("Outer.Inner", "class", 12, 14),
        Definition("Outer.Inner.deep", "function", 13, 14),
        Definition("Outer.prop", "function", 16, 19),
        Definition("Outer.run", "function", 21, 24),
        Definition("Outer.run.helper", "function", 22, 23),
        Definition("last", "function", 27, 30),
        Definition("last.Local", "class", 28, 29),
    ]


def test_a_decorated_definition_starts_at_its_first_decorator_at_any_depth(indexer: Indexer) -> None:
    """A decorator over several lines, a decorated class inside a function, a decorated method
    of a nested class, and a function whose name a decorated one shares elsewhere (written for
    round speed174, which measured taking the decorators from the query instead of each
    definition's parent: no gain, dropped)."""
    src = dedent_src('''
        def outer():
            @register(
                "name",
            )
            class Local:
                class Deeper:
                    @staticmethod
                    def run():
                        pass
            return Local


        def run():
            pass
    ''')
    assert index(indexer, src).definitions == [
        Definition("outer", "function", 1, 10),
        Definition("outer.Local", "class", 2, 9),
        Definition("outer.Local.Deeper", "class", 6, 9),
        Definition("outer.Local.Deeper.run", "function", 7, 9),
        Definition("run", "function", 13, 14),
    ]


def test_split_lines_without_a_carriage_return_is_the_plain_split() -> None:
    """``split_lines`` replaces line ends only in a text holding a carriage return (round
    speed174): the same lines either way."""
    from lineage.index.records import split_lines

    assert split_lines("a\nb\n") == ["a", "b"]
    assert split_lines("a\r\nb\rc\n\nd") == ["a", "b", "c", "", "d"]
    assert split_lines("a\n\n") == ["a", ""]


@pytest.mark.parametrize("ending", ["\r\n", "\r"])
def test_crlf_and_cr_line_ends_index_like_lf(indexer: Indexer, ending: str) -> None:
    src = dedent_src('''
        """Doc."""
        # comment

        def f(a, b):
            return a + b
    ''')
    lf = index(indexer, src)
    other = index(indexer, src.replace("\n", ending))
    assert other.status == "ok"
    assert other.n_lines == lf.n_lines == 5
    assert other.kinds.tolist() == lf.kinds.tolist()
    assert np.array_equal(other.h_norm, lf.h_norm)
    assert np.array_equal(other.h_abs, lf.h_abs)
    assert other.definitions == lf.definitions == [Definition("f", "function", 4, 5)]


def test_split_lines() -> None:
    assert split_lines("") == []
    assert split_lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]
    assert split_lines("a\n\n") == ["a", ""]
    assert split_lines("a\r\n") == ["a"]


@pytest.mark.parametrize("data", [
    b"", b"\n", b"\n\n", b"x", b"x\n", b"x\n\n\n", b"x = 'caf\xc3\xa9'\n", b"a\xe2\x80\xa8b\n", b"a\x0cb\x0bc",
    b"a\r\nb\r\n", b"a\rb", b"\xef\xbb\xbfx = 1\n", b"# coding: utf8\nx = 1\n",
    "# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n".encode("latin-1"),
])
def test_parser_input_is_the_lines_joined(data: bytes) -> None:
    """The bytes the parser reads (taken from ``data`` itself when they can be) are always the
    lines joined by newlines as UTF-8: the columns the parse gives are the lines' own."""
    text, encoding = decode_source(data)
    lines = split_lines(text)
    assert parser_input(data, encoding, lines) == "\n".join(lines).encode("utf-8", "surrogatepass")


def test_non_utf8_is_skipped_with_a_reason(indexer: Indexer) -> None:
    data = b"x = 'caf\xe9'\n"  # latin-1 bytes without a coding cookie
    record = index(indexer, data)
    assert record.status == "skipped"
    assert "UTF-8" in record.reason
    assert record.n_lines == 0


def test_pep263_latin1_cookie_decodes(indexer: Indexer) -> None:
    data = "# -*- coding: latin-1 -*-\nx = 'café'\n".encode("latin-1")
    record = index(indexer, data)
    assert record.status == "ok"
    assert codecs.lookup(record.encoding).name == codecs.lookup("latin-1").name
    assert record.kinds.tolist() == [COMMENT, CODE]
    same_in_utf8 = index(indexer, "# -*- coding: utf-8 -*-\nx = 'café'\n")
    assert record.h_norm[1] == same_in_utf8.h_norm[1]
    # the cookie may sit on line 2, after a shebang
    data2 = "#!/usr/bin/python\n# vim: set fileencoding=latin-1 :\nx = 'café'\n".encode("latin-1")
    assert index(indexer, data2).status == "ok"


def test_decode_source_bom_and_unknown_cookie() -> None:
    assert decode_source(codecs.BOM_UTF8 + b"x = 1\n") == ("x = 1\n", "utf-8-sig")
    with pytest.raises(LookupError):
        decode_source(b"# coding: no-such-codec\nx = 1\n")


def test_unknown_coding_cookie_is_skipped(indexer: Indexer) -> None:
    record = index(indexer, b"# coding: no-such-codec\nx = 1\n")
    assert record.status == "skipped"
    assert record.reason


def test_nul_byte_is_skipped(indexer: Indexer) -> None:
    record = index(indexer, b"x = 1\n\0\0\0binary\n")
    assert record.status == "skipped"
    assert "NUL" in record.reason


def test_too_large_is_skipped() -> None:
    small = Indexer(max_file_bytes=100)
    data = b"x = 1\n" * 40
    record = small.index("big.py", data, blob_digest(data))
    assert record.status == "skipped"
    assert "too large" in record.reason
    assert str(len(data)) in record.reason
    ok = small.index("small.py", b"x = 1\n", blob_digest(b"x = 1\n"))
    assert ok.status == "ok"


def test_syntax_errors_are_indexed_and_flagged(indexer: Indexer) -> None:
    src = dedent_src('''
        def fine(x):
            """Still found."""
            return x * 2

        def broken(a, b:
            return a +
    ''')
    record = index(indexer, src)
    assert record.status == "ok"
    assert record.parse_errors is True
    assert record.reason.startswith("syntax errors")
    assert record.n_lines == 6
    assert record.kinds.tolist()[:4] == [CODE, DOCSTRING, CODE, BLANK]
    assert record.kinds[4] != BLANK and record.kinds[5] != BLANK
    assert Definition("fine", "function", 1, 3) in record.definitions
    clean = index(indexer, "x = 1\n")
    assert clean.parse_errors is False and clean.reason == ""


def test_empty_file(indexer: Indexer) -> None:
    record = index(indexer, b"")
    assert record.status == "ok"
    assert record.n_lines == 0
    assert record.definitions == []
    assert record.parse_errors is False


def test_record_depends_only_on_bytes(indexer: Indexer) -> None:
    src = "def f(x):\n    return x\n"
    a = index(indexer, src, "a.py")
    b = index(indexer, src, "deep/b.py")
    assert a.digest == b.digest
    assert np.array_equal(a.h_norm, b.h_norm) and np.array_equal(a.kinds, b.kinds)
    assert a.definitions == b.definitions


def test_documentation_strings_outside_a_docstring_place_are_docstring(indexer: Indexer) -> None:
    # FastAPI 0.115.4 writes its parameters' prose as Annotated[..., Doc("""...""")] (PEP 727):
    # 4,704 of its 14,793 code lines were that prose. A string assigned to __doc__ is documentation
    # too; the code around either string stays code, and a plain string argument stays code.
    src = dedent_src('''
        def f(
            title: Annotated[
                str,
                Doc(
                    """
                    The title.
                    """
                ),
            ] = "x",
            other: Annotated[str, typing_extensions.Doc("""Two
            rows.""")] = "y",
        ) -> None:
            g.__doc__ = """First row
            second row
            """
            h(
                """Not documentation:
                a plain argument"""
            )
        ''')
    assert kinds(index(indexer, src)) == [
        "code", "code", "code", "code",
        "docstring", "docstring", "docstring",
        "code", "code",
        "code", "code",
        "code",
        "code", "docstring", "docstring",
        "code", "code", "code", "code",
    ]
