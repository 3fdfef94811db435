"""Per-line normal forms, from strict to loose.

Every physical line of a Python file gets up to three forms:

* **exact**: the text with leading and trailing whitespace stripped. ``verbatim`` is decided on
  this form alone, by comparing text (never hashes), so a verbatim line is literally identical.
* **norm**: whitespace- and comment-insensitive. Code is cut into tokens and joined by single
  spaces (``f(a,b)`` and ``f( a, b )`` agree); a trailing comment is dropped. Comment and
  docstring lines keep their words with whitespace folded.
* **abstract**: identifiers become ``I``, strings ``S`` and numbers ``N``; keywords, ``self``,
  ``cls`` and punctuation stay. Renamed variables and edited literals agree at this level.

The indexer hashes ``norm`` and ``abstract`` to 64-bit integers with BLAKE2b, which is stable across
processes and machines (Python's ``hash`` is salted per process), so hashes can be cached.
"""

from __future__ import annotations

import hashlib
import keyword
import re

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

_WS_RE = re.compile(r"\s+")
_QUOTE_CHARS = "'\""


def fold_whitespace(text: str) -> str:
    """Strip and collapse every run of whitespace to one space."""
    return _WS_RE.sub(" ", text).strip()


def tokenize_code(code: str) -> list[str]:
    """Split one line's code (no comment, no multi-line string part) into tokens."""
    return TOKEN_RE.findall(code)


_STRING_RE = re.compile(r"""(?<!\w)[rRbBuUfFtT]{0,2}(?:'(?:\\.|[^'\\])*'?|"(?:\\.|[^"\\])*"?)""")
_NUMBER_RE = re.compile(r"(?<![\w.])(?:\d[\w.]*|\.\d\w*)")
_NAME_RE = re.compile(
    r"(?<![\w\x01\x02])(?!(?:" + "|".join(sorted(KEPT_NAMES)) + r")(?!\w))[^\W\d]\w*"
)


def abstract_code(norm: str) -> str:
    """Abstract form of normalised code: names ``I``, strings ``S``, numbers ``N``.

    Three C-level substitutions instead of a Python call per token: this runs on every line.
    Strings and numbers first become control characters so the name pass cannot touch them.
    """
    text = _STRING_RE.sub("\x01", norm)
    text = _NUMBER_RE.sub("\x02", text)
    text = _NAME_RE.sub("I", text)
    return text.replace("\x01", "S").replace("\x02", "N")


def normalise_code(code: str) -> tuple[str, str, int]:
    """Return ``(norm, abstract, token_count)`` for a fragment of code on one line."""
    tokens = tokenize_code(code)
    norm = " ".join(tokens)
    return norm, abstract_code(norm), len(tokens)


def normalise_text(text: str) -> str:
    """Normal form of comment or docstring prose: whitespace folded, case kept."""
    return fold_whitespace(text)


def similarity_text(line: str) -> str:
    """The form that fuzzy similarity is computed on: stripped, whitespace folded."""
    return fold_whitespace(line)


def stable_hash(text: str) -> int:
    """A 63-bit hash of ``text`` that is the same in every process (fits a signed int64)."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1
