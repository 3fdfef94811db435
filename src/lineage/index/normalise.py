"""Per-line normal forms, from strict to loose.

Every physical line of a Python file gets up to three forms:

* **exact**: the text with leading and trailing whitespace stripped. ``verbatim`` is decided on
  this form alone, by comparing text (never hashes), so a verbatim line is literally identical.
* **norm**: whitespace- and comment-insensitive. Code is cut into tokens and joined by single
  spaces (``f(a,b)`` and ``f( a, b )`` agree); a trailing comment is dropped. Comment and
  docstring lines keep their words with whitespace folded.
* **abstract**: identifiers become ``I``, strings ``S`` and numbers ``N``; keywords, ``self``,
  ``cls`` and punctuation stay. Renamed variables and edited literals agree at this level.

``lineage drift`` counts code lines in one more form, :func:`formatting_free`: tokens, and the
quote style of a string on one line, which a formatter such as black rewrites.

The indexer hashes ``norm`` and ``abstract`` to 63-bit integers with XXH3, which is stable across
processes and machines (Python's ``hash`` is salted per process), so hashes can be cached, and
about six times faster than BLAKE2b on short lines. A hash only nominates candidates: verbatim is
always confirmed on the text.
"""

from __future__ import annotations

import keyword
import re
from functools import lru_cache

import xxhash

# One token: a (prefixed) single-line string literal, a name, a number, a multi-character
# operator, or any other single character. Multi-line strings are cut by the indexer first.
TOKEN_RE = re.compile(
    r"""[rRbBuUfFtT]{0,2}(?:'(?:\\.|[^'\\\n])*'?|"(?:\\.|[^"\\\n])*"?)"""
    r"""|[^\W\d]\w*"""
    r"""|\d[\w.]*|\.\d[\w]*"""
    r"""|\*\*=?|//=?|>>=?|<<=?|->|:=|\.\.\.|[-+*/%&|^@=!<>]=|\S"""
)

# Names kept verbatim in the abstract form: they carry structure, not naming choices.
KEPT_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | {"self", "cls"}

_QUOTE_CHARS = "'\""


def fold_whitespace(text: str) -> str:
    r"""Strip and collapse every run of whitespace to one space: ``re.sub(r"\s+", " ", text).strip()``,
    computed by ``str.split``, which splits at the same characters (both use CPython's Unicode
    whitespace test; checked over every code point in the tests) and is about 5 times faster: the
    matcher folds each line it compares by similarity, about 3 % of a cold run's matching."""
    return " ".join(text.split())


def tokenize_code(code: str) -> list[str]:
    """Split one line's code (no comment, no multi-line string part) into tokens."""
    return TOKEN_RE.findall(code)


@lru_cache(maxsize=1 << 16)
def abstract_token(token: str) -> str:
    """A token's abstract class: ``I`` (name), ``S`` (string), ``N`` (number), else itself.

    Memoised: a codebase repeats a few thousand tokens millions of times, and a cache lookup per
    token is several times cheaper than regex substitutions per line.
    """
    first = token[0]
    if first in _QUOTE_CHARS or (first.isalpha() and _QUOTE_CHARS[0] in token[1:3]) or (
        first.isalpha() and _QUOTE_CHARS[1] in token[1:3]
    ):
        return "S"  # a string, possibly prefixed (f"..", rb'..'), possibly unterminated
    if first.isalpha() or first == "_" or ord(first) > 127:
        return token if token in KEPT_NAMES else "I"
    if first.isdigit() or (first == "." and len(token) > 1 and token[1].isdigit()):
        return "N"
    return token


def abstract_code(norm: str) -> str:
    """Abstract form of a fragment of code (normalised or not)."""
    return " ".join(map(abstract_token, tokenize_code(norm)))


def normalise_code(code: str) -> tuple[str, str, int]:
    """Return ``(norm, abstract, token_count)`` for a fragment of code on one line."""
    tokens = tokenize_code(code)
    return " ".join(tokens), " ".join(map(abstract_token, tokens)), len(tokens)


_STRING_PREFIX_RE = re.compile(r"[rRbBuUfFtT]{0,2}")


def formatting_free(line: str) -> str:
    """A line as any formatting of it reads: its tokens joined by one space, a string literal
    whose text holds no double quote in double quotes (an escaped single quote unescaped). Black
    rewrites ``x = {'a':1}`` as ``x = {"a": 1}``; a fork that ran it still holds those lines. A
    comma stays, even at the end: ``"1.0+AbC"`` -> ``"1.0+AbC",`` ends an implicit
    concatenation, ``(1,)`` is a tuple (packaging's commit 791ccff8 fixes the first). Only a
    string on one line folds: a triple-quoted string's opening and closing rows, prefixes
    (``u``, ``F``) and number spellings (``0XFF``) a formatter also rewrites stay as they are."""
    out = []
    for token in tokenize_code(line.strip()):
        prefix = _STRING_PREFIX_RE.match(token).group(0)  # type: ignore[union-attr]
        body = token[len(prefix):]
        if len(body) >= 2 and body[0] == body[-1] == "'" and '"' not in body:
            inner = body[1:-1] if "r" in prefix.lower() else body[1:-1].replace("\\'", "'")
            token = f'{prefix}"{inner}"'
        out.append(token)
    return " ".join(out)


def similarity_text(line: str) -> str:
    """The form that fuzzy similarity is computed on: stripped, whitespace folded."""
    return fold_whitespace(line)


_xxh3 = xxhash.xxh3_64_intdigest


def stable_hash(text: str) -> int:
    """A 63-bit hash of ``text`` that is the same in every process (fits a signed int64)."""
    return _xxh3(text.encode("utf-8", "surrogatepass")) >> 1
