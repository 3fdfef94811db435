"""A tiny tokenizer for arithmetic expressions and key=value settings."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Order matters: longer operators must be tried before their prefixes.
OPERATORS = ("**", "//", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "<", ">", "=")
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class TokenizeError(ValueError):
    """Raised when the input holds a character no rule accepts."""

    def __init__(self, text: str, position: int) -> None:
        snippet = text[position : position + 10]
        super().__init__(f"unexpected input at column {position + 1}: {snippet!r}")
        self.position = position


@dataclass(frozen=True)
class Token:
    """One lexical token with its kind, its text and its start column."""

    kind: str
    text: str
    column: int

    def is_operator(self, symbol: str | None = None) -> bool:
        """Tell whether this token is an operator, optionally a given one."""
        if self.kind != "op":
            return False
        return symbol is None or self.text == symbol


def _match_operator(text: str, position: int) -> str | None:
    for symbol in OPERATORS:
        if text.startswith(symbol, position):
            return symbol
    return None


def tokenize(text: str, *, keep_whitespace: bool = False) -> list[Token]:
    """Split ``text`` into tokens.

    Numbers, names, operators, parentheses and quoted strings are
    recognised; anything else raises :class:`TokenizeError`.
    """
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        char = text[position]
        if char.isspace():
            end = position
            while end < len(text) and text[end].isspace():
                end += 1
            if keep_whitespace:
                tokens.append(Token("ws", text[position:end], position))
            position = end
            continue
        if char in "()":
            tokens.append(Token("paren", char, position))
            position += 1
            continue
        if char in "'\"":
            closing = text.find(char, position + 1)
            if closing < 0:
                raise TokenizeError(text, position)
            tokens.append(Token("string", text[position + 1 : closing], position))
            position = closing + 1
            continue
        number = _NUMBER_RE.match(text, position)
        if number:
            tokens.append(Token("number", number.group(), position))
            position = number.end()
            continue
        name = _NAME_RE.match(text, position)
        if name:
            tokens.append(Token("name", name.group(), position))
            position = name.end()
            continue
        symbol = _match_operator(text, position)
        if symbol is None:
            raise TokenizeError(text, position)
        tokens.append(Token("op", symbol, position))
        position += len(symbol)
    return tokens


def count_kinds(tokens: list[Token]) -> dict[str, int]:
    """Count how many tokens of each kind a token list holds."""
    counts: dict[str, int] = {}
    for token in tokens:
        counts[token.kind] = counts.get(token.kind, 0) + 1
    return counts
