"""Derive target trees from an upstream tree, with exact per-line ground truth.

A *case* is one target tree made from one upstream tree by one mutation operator (or by
several at once, ``mixed``), plus a ``truth.csv`` that says for every physical line of
every target file where it came from.  The operators imitate what forks really do:

===================== =====================================================================
``whole_file``        files copied unchanged, same paths
``subset_functions``  a subset of a file's top-level functions/classes copied into a new
                      file, between new code of our own
``move_rename``       files moved to other directories under other names
``package_rename``    the top-level package renamed: directory, imports, ``pkg.x`` attribute
                      chains of ``import pkg`` and dotted strings (``"pkg.sub"``)
``rename_identifiers`` a few identifiers renamed consistently throughout a file
``edit_literals``     numbers and strings changed
``insert_unrelated``  unrelated statements inserted inside copied functions (``return
                      None``, ``pass``, ``x = None``, imports, multi-line calls whose ``)``
                      stands alone, ``if``/``else`` blocks, ``else:`` added to an ``if``...)
``delete_lines``      whole statements deleted
``reorder_functions`` top-level functions/classes (or a class's methods) shuffled
``dedent_methods``    methods moved out of their class to module level, reindented
``edit_comments``     words of comments and docstrings changed
``split_file``        one upstream file split into two target files
``merge_files``       two upstream files merged into one target file
``rewrap_calls``      one-line calls exploded to one argument per line, multi-line calls
                      joined onto one line
``unrelated_files``   whole copies plus wholly new files (generated, or from a donor tree)
``mixed``             several of the above at once, as a real fork does
===================== =====================================================================

Ground truth (``truth.csv``, one row per physical target line):

``target_path, line, copied, expected, upstream_path, upstream_line, operator, kind``

* A line with an upstream origin is ``verbatim`` when its stripped text equals the stripped
  text of that upstream line and ``near`` otherwise (renamed, edited, re-wrapped: a
  re-wrapped line maps to the upstream line that held its first token); ``copied`` is 1.
* Inserted and new lines are ``none`` (``copied`` 0), whatever their text.
* Blank lines are ``none`` with ``copied`` 0 (never scored).
* ``operator`` is the operator that last changed the line; an unchanged line carries the
  operator that copied its file (``whole_file``, ``move_rename``, ``split_file``, ...).  The
  line after a deletion is tagged ``delete_lines``.
* ``kind`` (code/comment/docstring/blank) is computed here with ``tokenize`` and ``ast``:
  blank = whitespace only; comment = only a comment token on the line; docstring = part of
  a string that is the first statement of a module, class or function body; code = the rest
  (see :func:`line_kinds`).

Every mutation is checked with ``compile()``; one that breaks the file is retried with other
random choices and skipped when it keeps failing, so every target file is valid Python.
Everything is deterministic given the seed: ``random.Random(f"{seed}:{operator}")``.

Unrelated code never comes from the upstream: it is produced by a small grammar of
plausible statements with random names (:class:`Gen`), or taken from a donor tree (another,
unrelated package) for ``unrelated_files``.
"""

from __future__ import annotations

import ast
import builtins
import csv
import hashlib
import io
import json
import keyword
import random
import re
import sys
import tokenize
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

# Cases named after a single operator, in a stable order; "mixed" applies several.
OPERATORS: tuple[str, ...] = (
    "whole_file",
    "subset_functions",
    "move_rename",
    "package_rename",
    "rename_identifiers",
    "edit_literals",
    "insert_unrelated",
    "delete_lines",
    "reorder_functions",
    "dedent_methods",
    "edit_comments",
    "split_file",
    "merge_files",
    "rewrap_calls",
    "unrelated_files",
)
CASES: tuple[str, ...] = (*OPERATORS, "mixed")
NEGATIVE_CASE = "negative_control"

TRUTH_COLUMNS = [
    "target_path",
    "line",
    "copied",
    "expected",
    "upstream_path",
    "upstream_line",
    "operator",
    "kind",
]

# Bump when the generated cases change meaning; part of the cache key with this file's hash.
GENERATOR_VERSION = 1

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Characters str.splitlines() breaks on but Python's tokenizer does not: files holding
# them number their lines differently depending on who reads them, so they are not sampled.
_AMBIGUOUS_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


# ---------------------------------------------------------------------------------------
# Lines with provenance
# ---------------------------------------------------------------------------------------


@dataclass
class Line:
    """One physical target line: its text and the upstream line it came from, if any."""

    text: str
    src: tuple[str, int] | None  # (upstream path, 1-based line) or None for new lines
    op: str


@dataclass
class TFile:
    """A target file under construction."""

    path: str
    lines: list[Line]

    def source(self) -> str:
        return "".join(line.text + "\n" for line in self.lines)


def split_lines(text: str) -> list[str]:
    """Physical lines without terminators; ``\\r\\n``, ``\\r`` and ``\\n`` end a line."""
    if not text:
        return []
    parts = _LINE_BREAK.split(text)
    if parts[-1] == "":
        parts.pop()
    return parts


def read_source(path: Path) -> str:
    """Decode a Python source file the way Python would (PEP 263), never failing."""
    return decode_source(Path(path).read_bytes())


def decode_source(data: bytes) -> str:
    """Decode the bytes of a Python source file the way Python would (PEP 263), never failing."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        text = data.decode(encoding, errors="replace")
    except LookupError:
        text = data.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def compiles(source: str) -> bool:
    """True when ``source`` compiles (stricter than ``ast.parse``: catches a misplaced
    ``return``, ``from __future__`` or ``await``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(source, "<target>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
    return True


_LAYOUT = {
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
    tokenize.ENCODING,
}


def docstring_rows(tree: ast.AST) -> set[int]:
    """Rows of strings that are the first statement of a module, class or function."""
    rows: set[int] = set()
    for node in ast.walk(tree):
        scope = isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        if scope and node.body and _is_docstring(node.body[0]):
            first = node.body[0]
            rows.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return rows


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def line_kinds(source: str) -> list[str]:
    """Kind of every physical line: ``code``, ``comment``, ``docstring`` or ``blank``.

    blank: whitespace only (also inside a multi-line string).  comment: a comment is the only
    token on the line.  docstring: the line belongs to a string that is the first statement
    of a module, class or function body.  code: every other line, including continuation
    lines of other multi-line strings.  When the source does not tokenize, every non-blank
    line is code.
    """
    lines = split_lines(source)
    kinds = ["blank" if not text.strip() else "code" for text in lines]
    normalized = "".join(text + "\n" for text in lines)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(normalized).readline))
        tree = ast.parse(normalized)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return kinds
    significant: dict[int, set[int]] = {}
    for tok in tokens:
        if tok.type in _LAYOUT:
            continue
        for row in range(tok.start[0], tok.end[0] + 1):
            significant.setdefault(row, set()).add(tok.type)
    docs = docstring_rows(tree)
    for index, kind in enumerate(kinds):
        if kind == "blank":
            continue
        row = index + 1
        if significant.get(row) == {tokenize.COMMENT}:
            kinds[index] = "comment"
        elif row in docs:
            kinds[index] = "docstring"
    return kinds


# ---------------------------------------------------------------------------------------
# The upstream tree
# ---------------------------------------------------------------------------------------


class Upstream:
    """All Python files of an upstream tree, as lists of lines keyed by POSIX path."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.files: dict[str, list[str]] = {}
        self.raw: dict[str, str] = {}
        for path in sorted(self.root.rglob("*.py")):
            if not path.is_file():
                continue
            rel = path.relative_to(self.root).as_posix()
            text = read_source(path)
            self.raw[rel] = text
            self.files[rel] = split_lines(text)

    @property
    def packages(self) -> list[str]:
        """Top-level package (directory) names of the tree."""
        names = {rel.split("/", 1)[0] for rel in self.files if "/" in rel}
        return sorted(name for name in names if name.isidentifier())

    def eligible(self, min_code_lines: int = 5) -> list[str]:
        """Files worth sampling: they compile, have some code and unambiguous line ends."""
        out = []
        for rel, lines in self.files.items():
            raw = self.raw[rel]
            if _AMBIGUOUS_BREAKS.search(raw) or "\r" in raw.replace("\r\n", ""):
                continue
            source = "".join(text + "\n" for text in lines)
            if not compiles(source):
                continue
            if sum(1 for kind in line_kinds(source) if kind == "code") < min_code_lines:
                continue
            out.append(rel)
        return sorted(out)

    def copy(self, rel: str, op: str = "whole_file", path: str | None = None) -> TFile:
        lines = [Line(text, (rel, i), op) for i, text in enumerate(self.files[rel], 1)]
        return TFile(path or rel, lines)

    def fingerprint(self) -> str:
        digest = hashlib.sha256()
        for rel in sorted(self.raw):
            digest.update(rel.encode() + b"\0" + self.raw[rel].encode("utf-8", "replace"))
        return digest.hexdigest()[:16]


# ---------------------------------------------------------------------------------------
# A small grammar of unrelated Python
# ---------------------------------------------------------------------------------------

WORDS = [
    "acorn",
    "basalt",
    "bramble",
    "cinder",
    "cobble",
    "dapple",
    "drift",
    "ember",
    "fennel",
    "flint",
    "garnet",
    "gorse",
    "hazel",
    "heron",
    "indigo",
    "ivy",
    "jasper",
    "juniper",
    "kelp",
    "kestrel",
    "lichen",
    "loam",
    "marrow",
    "moss",
    "nectar",
    "nettle",
    "obsidian",
    "osprey",
    "plover",
    "pumice",
    "quarry",
    "quince",
    "reed",
    "russet",
    "sedge",
    "sorrel",
    "tern",
    "thistle",
    "umber",
    "verdigris",
    "vole",
    "wicker",
    "wren",
    "yarrow",
    "zircon",
]
_IMPORTS = (
    "import torch",
    "import numpy as np",
    "import pandas as pd",
    "import json",
    "import itertools",
    "import math",
    "from typing import Any",
    "from collections import defaultdict",
    "from pathlib import Path",
)
_EXCEPTIONS = ("ValueError", "KeyError", "RuntimeError", "TypeError", "OSError")


class Gen:
    """Random names, literals, statements, functions and modules unrelated to any upstream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def word(self, avoid: str = "") -> str:
        while True:
            word = self.rng.choice(WORDS)
            if word.lower() != avoid.lower():
                return word

    def name(self, parts: int = 2) -> str:
        for attempt in range(1000):
            name = "_".join(self.word() for _ in range(parts))
            if attempt > 50:
                name += str(self.rng.randint(2, 999))
            if name not in self.used and not keyword.iskeyword(name):
                self.used.add(name)
                return name
        raise RuntimeError("name space exhausted")

    def class_name(self) -> str:
        return "".join(part.capitalize() for part in self.name().split("_"))

    def sentence(self, low: int = 3, high: int = 8) -> str:
        words = [self.word() for _ in range(self.rng.randint(low, high))]
        return " ".join(words).capitalize() + "."

    def literal(self) -> str:
        pick = self.rng.randrange(6)
        if pick == 0:
            return str(self.rng.randint(0, 500))
        if pick == 1:
            return repr(round(self.rng.uniform(0, 10), 2))
        if pick == 2:
            return '"' + " ".join(self.word() for _ in range(self.rng.randint(1, 3))) + '"'
        if pick == 3:
            return self.rng.choice(("None", "True", "False"))
        if pick == 4:
            return "[" + ", ".join(str(self.rng.randint(0, 9)) for _ in range(3)) + "]"
        return '{"' + self.word() + '": ' + str(self.rng.randint(0, 99)) + "}"

    def expr(self) -> str:
        pick = self.rng.randrange(4)
        if pick == 0:
            return self.literal()
        if pick == 1:
            return f"{self.name()}({self.literal()})"
        if pick == 2:
            return f"{self.name()} + {self.rng.randint(1, 64)}"
        return f"{self.name()}.{self.word()}"

    def statement(self, indent: str, unit: str, in_function: bool = True) -> list[str]:
        """One statement (possibly compound, possibly several lines) at ``indent``."""
        r = self.rng
        n = self.name()
        kinds = [
            "return_none",
            "pass",
            "none_assign",
            "import",
            "assign_call",
            "multiline_call",
            "if_else",
            "for",
            "try",
            "augassign",
            "log",
            "assert",
            "raise",
            "comment",
        ]
        if not in_function:
            kinds.remove("return_none")
        kind = r.choice(kinds)
        if kind == "return_none":
            out = ["return None"]
        elif kind == "pass":
            out = ["pass"]
        elif kind == "none_assign":
            out = [f"{n} = None"]
        elif kind == "import":
            out = [r.choice(_IMPORTS)]
        elif kind == "assign_call":
            out = [f"{n} = {self.name()}({self.name()}, {self.literal()})"]
        elif kind == "multiline_call":
            out = [f"{n} = {self.name()}("]
            for _ in range(r.randint(1, 3)):
                out.append(f"{unit}{self.name()},")
            out.append(f"{unit}{self.word()}={self.literal()},")
            out.append(")")
        elif kind == "if_else":
            out = [
                f"if {self.name()} is None:",
                f"{unit}{n} = {self.literal()}",
                "else:",
                f"{unit}{n} = {self.expr()}",
            ]
        elif kind == "for":
            out = [
                f"for {n} in range({r.randint(2, 40)}):",
                f"{unit}{self.name()} += {n}",
            ]
        elif kind == "try":
            out = [
                "try:",
                f"{unit}{n} = {self.name()}()",
                f"except {r.choice(_EXCEPTIONS)}:",
                f"{unit}{n} = None",
            ]
        elif kind == "augassign":
            out = [f"{n} += {r.randint(1, 9)}"]
        elif kind == "log":
            out = [f'{self.name()}.debug("{self.sentence(2, 5)[:-1]} %s", {n})']
        elif kind == "assert":
            out = [f'assert {n} is not None, "{self.word()} {self.word()}"']
        elif kind == "raise":
            out = [f'raise {r.choice(_EXCEPTIONS)}("{self.sentence(2, 5)[:-1]}")']
        else:
            out = [f"# {self.sentence(3, 9)[:-1].lower()}", f"{n} = {self.expr()}"]
        return [indent + text for text in out]

    def function(self, indent: str, unit: str, method: bool = False) -> list[str]:
        r = self.rng
        params = [self.name(1) + str(i) for i in range(r.randint(0, 3))]
        if method:
            params.insert(0, "self")
        out = [f"{indent}def {self.name()}({', '.join(params)}):"]
        body = indent + unit
        if r.random() < 0.6:
            out.append(f'{body}"""{self.sentence()}"""')
        for _ in range(r.randint(2, 6)):
            out.extend(self.statement(body, unit))
        out.append(f"{body}return {self.expr()}")
        return out

    def klass(self, unit: str) -> list[str]:
        out = [f"class {self.class_name()}:", f'{unit}"""{self.sentence()}"""', ""]
        attr = self.name(1)
        out += [
            f"{unit}def __init__(self, {attr}):",
            f"{unit}{unit}self.{attr} = {attr}",
            f"{unit}{unit}self.{self.name()} = {self.literal()}",
        ]
        for _ in range(self.rng.randint(1, 3)):
            out.append("")
            out.extend(self.function(unit, unit, method=True))
        return out

    def header(self) -> list[str]:
        out = [f'"""{self.sentence(4, 10)}"""', ""]
        out += sorted(set(self.rng.sample(_IMPORTS, self.rng.randint(1, 3))))
        out += ["", f"{self.name().upper()} = {self.literal()}", ""]
        return out

    def module(self, unit: str = "    ") -> list[str]:
        out = self.header()
        for _ in range(self.rng.randint(2, 5)):
            out += ["", ""]
            if self.rng.random() < 0.3:
                out.extend(self.klass(unit))
            else:
                out.extend(self.function("", unit))
        return out


def new_lines(texts: list[str], op: str) -> list[Line]:
    return [Line(text, None, op) for text in texts]


# ---------------------------------------------------------------------------------------
# Helpers over lines, tokens and the AST
# ---------------------------------------------------------------------------------------


def _source(lines: list[Line]) -> str:
    return "".join(line.text + "\n" for line in lines)


def _parse(lines: list[Line]) -> ast.Module | None:
    try:
        return ast.parse(_source(lines))
    except (SyntaxError, ValueError):
        return None


def _tokens(lines: list[Line]) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(_source(lines)).readline))


def _char_col(text: str, byte_col: int) -> int:
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def _indent(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def _unit(lines: list[Line]) -> str:
    """The file's indentation step: a tab, or the smallest space indentation (default 4)."""
    widths = []
    for line in lines:
        ind = _indent(line.text)
        if not ind or not line.text.strip():
            continue
        if "\t" in ind:
            return "\t"
        widths.append(len(ind))
    step = min(widths) if widths else 4
    return " " * max(2, min(step, 8))


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None) or []
    return min([d.lineno for d in decorators] + [node.lineno])


def _owns_lines(lines: list[Line], node: ast.stmt) -> bool:
    """The statement starts its first line and nothing but a comment follows it."""
    first = _first_line(node)
    head = lines[first - 1].text
    if first != node.lineno:
        if not head.lstrip().startswith("@"):
            return False
    elif head.encode("utf-8")[: node.col_offset].strip():
        return False
    tail_line = lines[(node.end_lineno or node.lineno) - 1].text
    tail = tail_line.encode("utf-8")[node.end_col_offset :].decode("utf-8", "ignore").strip()
    return not tail or tail.startswith("#")


def _span(node: ast.stmt) -> tuple[int, int]:
    """0-based inclusive line span of a statement with its decorators."""
    return _first_line(node) - 1, (node.end_lineno or node.lineno) - 1


def _body_lists(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """Statement lists directly held by ``node``."""
    for name in ("body", "orelse", "finalbody"):
        value = getattr(node, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            yield value
    for handler in getattr(node, "handlers", None) or []:
        yield handler.body
    for case in getattr(node, "cases", None) or []:
        yield case.body


def _function_bodies(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    """Statement lists inside functions (not inside classes nested in them)."""

    def walk(stmts: list[ast.stmt]) -> Iterator[list[ast.stmt]]:
        yield stmts
        for stmt in stmts:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for body in _body_lists(stmt):
                yield from walk(body)

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from walk(node.body)


def _all_bodies(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.stmt):
            yield from _body_lists(node)


def _is_def(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)


def _code_count(lines: list[Line]) -> int:
    return sum(1 for line in lines if line.text.strip() and not line.text.lstrip().startswith("#"))


def _replace(lines: list[Line], edits: list[tuple[int, int, int, str]], op: str) -> list[Line]:
    """Apply (row0, start, end, text) character-range replacements; edited rows get ``op``."""
    out = [Line(line.text, line.src, line.op) for line in lines]
    for row, start, end, text in sorted(edits, key=lambda e: (e[0], -e[1])):
        old = out[row].text
        out[row].text = old[:start] + text + old[end:]
        if out[row].text != old:
            out[row].op = op
    return out


def _case_like(new: str, old: str) -> str:
    if old.isupper():
        return new.upper()
    if old[:1].isupper():
        return new.capitalize()
    return new


# ---------------------------------------------------------------------------------------
# File-level operators: (lines, gen) -> new lines, or None when not applicable
# ---------------------------------------------------------------------------------------

FileOp = Callable[[list[Line], Gen], "list[Line] | None"]


def op_rename_identifiers(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    candidates: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            candidates.add(node.name)
        elif isinstance(node, ast.arg):
            candidates.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            candidates.add(node.id)
    builtin_names = set(dir(builtins))
    candidates = {
        name
        for name in candidates
        if len(name) >= 3
        and not (name.startswith("__") and name.endswith("__"))
        and name not in {"self", "cls"}
        and name not in builtin_names
    }
    if not candidates:
        return None
    tokens = _tokens(lines)
    counts: dict[str, int] = {}
    for tok in tokens:
        if tok.type == tokenize.NAME and tok.string in candidates:
            counts[tok.string] = counts.get(tok.string, 0) + 1
    # Prefer names used more than once, so the rename is visible on several lines.
    pool = sorted(name for name in candidates if counts.get(name, 0) >= 2) or sorted(candidates)
    chosen = g.rng.sample(pool, min(len(pool), g.rng.randint(2, 4)))
    existing = {tok.string for tok in tokens if tok.type == tokenize.NAME}
    mapping = {}
    for old in chosen:
        new = g.name()
        while new in existing:
            new = g.name()
        mapping[old] = new if not old[:1].isupper() else "".join(part.capitalize() for part in new.split("_"))
        if old.startswith("_"):
            mapping[old] = "_" + mapping[old]
    edits = [
        (tok.start[0] - 1, tok.start[1], tok.end[1], mapping[tok.string])
        for tok in tokens
        if tok.type == tokenize.NAME and tok.string in mapping
    ]
    return _replace(lines, edits, "rename_identifiers")


_INT = re.compile(r"[1-9][0-9]*|0")
_FLOAT = re.compile(r"[0-9]+\.[0-9]+")
_WORD3 = re.compile(r"[A-Za-z]{3,}")
_WORD4 = re.compile(r"[A-Za-z]{4,}")


def _prefix(token: str) -> str:
    return re.match(r"[A-Za-z]*", token).group()


def _edit_string_token(text: str, g: Gen) -> str | None:
    prefix = re.match(r"[A-Za-z]*", text).group()
    if "f" in prefix.lower():
        return None
    rest = text[len(prefix) :]
    quote = rest[:3] if rest[:3] in ('"""', "'''") else rest[:1]
    body = rest[len(quote) : len(rest) - len(quote)]
    words = [m for m in _WORD3.finditer(body) if m.start() == 0 or body[m.start() - 1] != "\\"]
    words = [m for m in words if not re.search(r"\\N\{[^}]*$", body[: m.start()])]
    if words:
        m = g.rng.choice(words)
        new_body = body[: m.start()] + _case_like(g.word(m.group()), m.group()) + body[m.end() :]
    else:
        new_body = body + g.word()
    return prefix + quote + new_body + quote


def op_edit_literals(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    docs = docstring_rows(tree)
    by_row: dict[int, list[tokenize.TokenInfo]] = {}
    for tok in _tokens(lines):
        if tok.start[0] != tok.end[0] or tok.start[0] in docs:
            continue
        number = tok.type == tokenize.NUMBER and (_INT.fullmatch(tok.string) or _FLOAT.fullmatch(tok.string))
        plain_string = tok.type == tokenize.STRING and "f" not in _prefix(tok.string).lower()
        if number or plain_string:
            by_row.setdefault(tok.start[0], []).append(tok)
    if not by_row:
        return None
    rows = [row for row in sorted(by_row) if g.rng.random() < 0.4] or [g.rng.choice(sorted(by_row))]
    edits = []
    for row in rows:
        tok = g.rng.choice(by_row[row])
        if tok.type == tokenize.NUMBER:
            if _INT.fullmatch(tok.string):
                new = str(int(tok.string) + g.rng.randint(1, 9))
            else:
                digit = str((int(tok.string[-1]) + g.rng.randint(1, 9)) % 10)
                new = tok.string[:-1] + digit
        else:
            new = _edit_string_token(tok.string, g)
            if new is None:
                continue
        edits.append((row - 1, tok.start[1], tok.end[1], new))
    return _replace(lines, edits, "edit_literals") if edits else None


def _insertion_points(lines: list[Line], tree: ast.Module) -> list[tuple[int, str]]:
    """(0-based index to insert before, indentation) inside function bodies."""
    points: list[tuple[int, str]] = []
    for body in _function_bodies(tree):
        if not all(_owns_lines(lines, stmt) for stmt in body):
            continue
        indent = _indent(lines[_first_line(body[0]) - 1].text)
        start = 1 if _is_docstring(body[0]) else 0
        for stmt in body[start:]:
            points.append((_first_line(stmt) - 1, indent))
        points.append(((body[-1].end_lineno or body[-1].lineno), indent))
    return sorted(set(points))


def _else_points(lines: list[Line], tree: ast.Module) -> list[tuple[int, str, str]]:
    """``if`` statements without ``else`` inside functions: (insert index, if indent, body indent)."""
    out = []
    for body in _function_bodies(tree):
        for stmt in body:
            if not isinstance(stmt, ast.If) or stmt.orelse or not _owns_lines(lines, stmt):
                continue
            if not lines[stmt.lineno - 1].text.lstrip().startswith("if"):
                continue  # an elif
            if not all(_owns_lines(lines, inner) for inner in stmt.body):
                continue
            indent = _indent(lines[stmt.lineno - 1].text)
            inner_indent = _indent(lines[_first_line(stmt.body[0]) - 1].text)
            out.append((stmt.end_lineno or stmt.lineno, indent, inner_indent))
    return out


def op_insert_unrelated(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    points = _insertion_points(lines, tree)
    elses = _else_points(lines, tree)
    if not points and not elses:
        return None
    unit = _unit(lines)
    function_lines = sum(
        (node.end_lineno or node.lineno) - node.lineno + 1
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ) + sum(
        (node.end_lineno or node.lineno) - node.lineno + 1
        for cls in tree.body
        if isinstance(cls, ast.ClassDef)
        for node in cls.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    )
    wanted = max(1, min(40, max(function_lines, 20) // 18))
    inserts: list[tuple[int, list[str]]] = []
    if elses:
        for index, indent, inner in g.rng.sample(elses, min(len(elses), max(1, wanted // 5))):
            body = g.statement(inner, unit)
            inserts.append((index, [indent + "else:", *body]))
    for index, indent in g.rng.sample(points, min(len(points), wanted)):
        inserts.append((index, g.statement(indent, unit)))
    out = list(lines)
    for index, texts in sorted(inserts, key=lambda item: -item[0]):
        out[index:index] = new_lines(texts, "insert_unrelated")
    return out


def op_delete_lines(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    candidates: list[tuple[ast.stmt, int]] = []
    bodies = list(_all_bodies(tree))
    for index, body in enumerate(bodies):
        if len(body) < 2:
            continue
        for stmt in body:
            if _is_docstring(stmt) and stmt is body[0]:
                continue
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                continue
            start, end = _span(stmt)
            if end - start > 6 or not _owns_lines(lines, stmt):
                continue
            candidates.append((stmt, index))
    if not candidates:
        return None
    wanted = max(1, min(40, _code_count(lines) // 30))
    g.rng.shuffle(candidates)
    remaining = {index: len(body) for index, body in enumerate(bodies)}
    chosen: list[tuple[int, int]] = []
    for stmt, index in candidates:
        if len(chosen) >= wanted:
            break
        start, end = _span(stmt)
        if remaining[index] <= 1 or any(not (end < s or start > e) for s, e in chosen):
            continue
        remaining[index] -= 1
        chosen.append((start, end))
    out = [Line(line.text, line.src, line.op) for line in lines]
    for start, end in sorted(chosen, reverse=True):
        del out[start : end + 1]
        # Tag the line that now follows the gap (skipping blanks) as the deletion's witness.
        for follow in range(start, len(out)):
            if out[follow].text.strip():
                if out[follow].src is not None:
                    out[follow].op = "delete_lines"
                break
    return out


def op_reorder_functions(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    slots = [node for node in tree.body if _is_def(node) and _owns_lines(lines, node)]
    if len(slots) < 2:
        classes = [
            node
            for node in tree.body
            if isinstance(node, ast.ClassDef) and sum(1 for inner in node.body if _is_def(inner)) >= 2
        ]
        if not classes:
            return None
        cls = g.rng.choice(classes)
        slots = [node for node in cls.body if _is_def(node) and _owns_lines(lines, node)]
        if len(slots) < 2:
            return None
    spans = [_span(node) for node in slots]
    order = list(range(len(spans)))
    while order == sorted(order):
        g.rng.shuffle(order)
    out: list[Line] = []
    cursor = 0
    for slot, (start, end) in enumerate(spans):
        out.extend(lines[cursor:start])
        src_start, src_end = spans[order[slot]]
        moved = order[slot] != slot
        for line in lines[src_start : src_end + 1]:
            copy = Line(line.text, line.src, line.op)
            if moved and line.text.strip() and copy.op == "whole_file":
                copy.op = "reorder_functions"
            out.append(copy)
        cursor = end + 1
    out.extend(lines[cursor:])
    return out


def _dedent(text: str, amount: str) -> str:
    ind = _indent(text)
    if text.startswith(amount):
        return text[len(amount) :]
    return text[min(len(ind), len(amount)) :]


def op_dedent_methods(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    classes = []
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or not _owns_lines(lines, cls):
            continue
        methods = [
            node
            for node in cls.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _owns_lines(lines, node)
        ]
        if methods:
            classes.append((cls, methods))
    if not classes:
        return None
    picked = [item for item in classes if g.rng.random() < 0.6] or [g.rng.choice(classes)]
    out = [Line(line.text, line.src, line.op) for line in lines]
    for cls, methods in sorted(picked, key=lambda item: -item[0].lineno):
        chosen = g.rng.sample(methods, g.rng.randint(1, max(1, (len(methods) + 1) // 2)))
        chosen.sort(key=lambda node: node.lineno)
        amount = _indent(lines[_first_line(chosen[0]) - 1].text)
        cls_end = (cls.end_lineno or cls.lineno) - 1
        moved: list[Line] = []
        for node in chosen:
            start, end = _span(node)
            moved.extend([Line("", None, "dedent_methods"), Line("", None, "dedent_methods")])
            for line in lines[start : end + 1]:
                op = "dedent_methods" if line.text.strip() else line.op
                moved.append(Line(_dedent(line.text, amount), line.src, op))
        cls_start = _first_line(cls) - 1
        kept: list[Line] = []
        spans = [_span(node) for node in chosen]
        for row in range(cls_start, cls_end + 1):
            if not any(s <= row <= e for s, e in spans):
                kept.append(out[row])
        if len(cls.body) == len(chosen):
            kept.append(Line(amount + "pass", None, "dedent_methods"))
        out[cls_start : cls_end + 1] = kept + moved
    return out


_SPECIAL_COMMENT = re.compile(r"#\s*(type:|noqa|pragma|!|-\*-|fmt:|pylint:|mypy:|ruff:|isort:|nosec|pyright:)")


def _replace_word(text: str, start: int, g: Gen) -> str | None:
    """Replace one 4+-letter word of ``text[start:]`` by another word; None if it has none."""
    region = text[start:]
    words = [
        m
        for m in _WORD4.finditer(region)
        if (m.start() == 0 or region[m.start() - 1] != "\\") and not re.search(r"\\N\{[^}]*$", region[: m.start()])
    ]
    if not words:
        return None
    m = g.rng.choice(words)
    region = region[: m.start()] + _case_like(g.word(m.group()), m.group()) + region[m.end() :]
    return text[:start] + region


def op_edit_comments(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    docs = docstring_rows(tree)
    edits: dict[int, str] = {}
    for tok in _tokens(lines):
        if tok.type != tokenize.COMMENT or _SPECIAL_COMMENT.match(tok.string):
            continue
        row = tok.start[0] - 1
        own_line = not lines[row].text[: tok.start[1]].strip()
        if g.rng.random() < (0.6 if own_line else 0.25):
            new = _replace_word(lines[row].text, tok.start[1] + 1, g)
            if new is not None:
                edits[row] = new
    for row in sorted(docs):
        if g.rng.random() < 0.5 and row - 1 not in edits:
            new = _replace_word(lines[row - 1].text, 0, g)
            if new is not None:
                edits[row - 1] = new
    if not edits:
        return None
    out = [Line(line.text, line.src, line.op) for line in lines]
    for row, text in edits.items():
        out[row].text = text
        out[row].op = "edit_comments"
    return out


def _explode_call(lines: list[Line], call: ast.Call, unit: str) -> list[Line] | None:
    row = call.lineno - 1
    text = lines[row].text
    func_end = _char_col(text, call.func.end_col_offset)
    end = _char_col(text, call.end_col_offset)
    open_at = text.find("(", func_end)
    if open_at < 0 or text[func_end:open_at].strip() or text[end - 1 : end] != ")":
        return None
    parts = sorted([*call.args, *call.keywords], key=lambda node: (node.lineno, node.col_offset))
    pieces = [text[_char_col(text, p.col_offset) : _char_col(text, p.end_col_offset)] for p in parts]
    leftover = text[open_at + 1 : end - 1]
    for piece in pieces:
        leftover = leftover.replace(piece, "", 1)
    if leftover.replace(",", "").strip():
        return None  # parentheses or comments around arguments: leave it alone
    indent = _indent(text)
    src = lines[row].src
    out = [Line(text[: open_at + 1], src, "rewrap_calls")]
    out += [Line(f"{indent}{unit}{piece},", src, "rewrap_calls") for piece in pieces]
    out.append(Line(f"{indent}){text[end:]}", src, "rewrap_calls"))
    return out


def _join_call(lines: list[Line], call: ast.Call, tokens: list[tokenize.TokenInfo]) -> Line | None:
    first, last = call.lineno - 1, (call.end_lineno or call.lineno) - 1
    if any(lines[row].src is None for row in range(first, last + 1)):
        return None
    if any(lines[row].text.rstrip().endswith("\\") for row in range(first, last + 1)):
        return None
    for tok in tokens:
        if tok.start[0] - 1 > last or tok.end[0] - 1 < first:
            continue
        if tok.type == tokenize.COMMENT:
            return None
        if tok.type == tokenize.STRING and tok.start[0] != tok.end[0]:
            return None
    closing = lines[last].text
    closing_at_start = closing[: _char_col(closing, call.end_col_offset)].strip() == ")"
    out = lines[first].text.rstrip()
    for row in range(first + 1, last + 1):
        piece = lines[row].text.strip()
        if not piece:
            continue
        if row == last and closing_at_start and out.endswith(","):
            out = out[:-1]
        if out.endswith(("(", "[", "{")) or piece.startswith((")", "]", "}")):
            out += piece
        else:
            out += " " + piece
    if len(out) > 160:
        return None
    return Line(out, lines[first].src, "rewrap_calls")


def op_rewrap_calls(lines: list[Line], g: Gen) -> list[Line] | None:
    tree = _parse(lines)
    if tree is None:
        return None
    tokens = _tokens(lines)
    unit = _unit(lines)
    explode, join = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.end_lineno is None:
            continue
        if node.lineno == node.end_lineno:
            if len(node.args) + len(node.keywords) >= 2 and lines[node.lineno - 1].src:
                explode.append(node)
        elif node.end_lineno - node.lineno <= 12:
            join.append(node)
    wanted = max(2, min(30, _code_count(lines) // 30))
    if not explode and not join:
        return None
    g.rng.shuffle(explode)
    g.rng.shuffle(join)
    # Alternate the two directions so that both show up in every file that has both.
    picks = []
    for index in range(max(len(explode), len(join))):
        picks += [("join", node) for node in join[index : index + 1]]
        picks += [("explode", node) for node in explode[index : index + 1]]
    used: set[int] = set()
    chosen = []
    for how, node in picks:
        rows = set(range(node.lineno - 1, node.end_lineno))
        if rows & used:
            continue  # one rewrap per line
        used |= rows
        chosen.append((how, node))
        if len(chosen) >= wanted:
            break
    out = list(lines)
    changed = False
    for how, node in sorted(chosen, key=lambda item: -item[1].lineno):
        first, last = node.lineno - 1, node.end_lineno - 1
        if how == "explode":
            replacement = _explode_call(out, node, unit)
        else:
            joined = _join_call(out, node, tokens)
            replacement = [joined] if joined else None
        if not replacement:
            continue
        trial = out[:first] + replacement + out[last + 1 :]
        if compiles(_source(trial)):
            out = trial
            changed = True
    return out if changed else None


FILE_OPS: dict[str, FileOp] = {
    "rename_identifiers": op_rename_identifiers,
    "edit_literals": op_edit_literals,
    "insert_unrelated": op_insert_unrelated,
    "delete_lines": op_delete_lines,
    "reorder_functions": op_reorder_functions,
    "dedent_methods": op_dedent_methods,
    "edit_comments": op_edit_comments,
    "rewrap_calls": op_rewrap_calls,
}


def apply_file_op(tf: TFile, name: str, g: Gen, tries: int = 6) -> bool:
    """Apply a file-level operator, retrying other random choices if the result does not
    compile; the file is left unchanged when no attempt works."""
    for _ in range(tries):
        new = FILE_OPS[name]([Line(x.text, x.src, x.op) for x in tf.lines], g)
        if new is None:
            return False
        if compiles(_source(new)):
            tf.lines = new
            return True
    return False


# ---------------------------------------------------------------------------------------
# Tree-level operators
# ---------------------------------------------------------------------------------------


def _top_defs(tf: TFile) -> tuple[ast.Module, list[ast.stmt]] | None:
    tree = _parse(tf.lines)
    if tree is None:
        return None
    defs = [node for node in tree.body if _is_def(node) and _owns_lines(tf.lines, node)]
    return tree, defs


def _sibling_path(path: str, suffix: str) -> str:
    directory, _, name = path.rpartition("/")
    stem = name[:-3]
    new = f"{suffix}_part.py" if stem == "__init__" else f"{stem}_{suffix}.py"
    return f"{directory}/{new}" if directory else new


def split_file(tf: TFile, g: Gen) -> list[TFile] | None:
    found = _top_defs(tf)
    if found is None or len(found[1]) < 2:
        return None
    _, defs = found
    header_end = _span(defs[0])[0]
    low, high = max(1, len(defs) // 3), max(1, (2 * len(defs)) // 3)
    cut = _span(defs[g.rng.randint(low, high)])[0]
    first = [Line(x.text, x.src, "split_file") for x in tf.lines[:cut]]
    second = [Line(x.text, x.src, "split_file") for x in tf.lines[:header_end]]
    second += [Line(x.text, x.src, "split_file") for x in tf.lines[cut:]]
    parts = [TFile(tf.path, first), TFile(_sibling_path(tf.path, g.word()), second)]
    return parts if all(compiles(part.source()) for part in parts) else None


def merge_files(a: TFile, b: TFile) -> TFile | None:
    tree = _parse(b.lines)
    if tree is None:
        return None
    drop: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            start, end = _span(node)
            drop.update(range(start, end + 1))
    lines = [Line(x.text, x.src, "merge_files") for x in a.lines]
    lines += [Line("", None, "merge_files"), Line("", None, "merge_files")]
    lines += [Line(x.text, x.src, "merge_files") for i, x in enumerate(b.lines) if i not in drop]
    merged = TFile(a.path, lines)
    return merged if compiles(merged.source()) else None


def subset_functions(tf: TFile, g: Gen) -> TFile | None:
    found = _top_defs(tf)
    if found is None or len(found[1]) < 2:
        return None
    _, defs = found
    count = g.rng.randint(1, max(1, (2 * len(defs)) // 3))
    chosen = sorted(g.rng.sample(defs, count), key=lambda node: node.lineno)
    unit = _unit(tf.lines)
    lines = new_lines(g.header(), "subset_functions")
    for node in chosen:
        if g.rng.random() < 0.5:
            lines += new_lines(["", "", *g.function("", unit)], "subset_functions")
        lines += new_lines(["", ""], "subset_functions")
        start, end = _span(node)
        lines += [Line(x.text, x.src, "subset_functions") for x in tf.lines[start : end + 1]]
    if g.rng.random() < 0.5:
        lines += new_lines(["", "", *g.function("", unit)], "subset_functions")
    directory, _, name = tf.path.rpartition("/")
    stem = name[:-3].strip("_") or "mod"
    new_name = f"{g.word()}_{stem}.py"
    out = TFile(f"{directory}/{new_name}" if directory else new_name, lines)
    return out if compiles(out.source()) else None


def _unique(path: str, taken: set[str]) -> str:
    base = path[:-3]
    candidate, n = path, 2
    while candidate in taken:
        candidate = f"{base}{n}.py"
        n += 1
    taken.add(candidate)
    return candidate


def move_rename(files: list[TFile], g: Gen, share: float = 1.0) -> int:
    taken = {tf.path for tf in files}
    moved = 0
    for tf in files:
        if g.rng.random() >= share:
            continue
        stem = tf.path.rsplit("/", 1)[-1][:-3]
        top = g.rng.choice(("vendor", "lib", "internal", "_impl", "compat", "third_party"))
        if stem == "__init__":
            new_stem = g.word()
        else:
            new_stem = g.rng.choice((f"{stem}_{g.word()}", f"{g.word()}_{stem}", g.word()))
        taken.discard(tf.path)
        tf.path = _unique(f"{top}/{g.word()}/{new_stem}.py", taken)
        for line in tf.lines:
            if line.op == "whole_file":
                line.op = "move_rename"
        moved += 1
    return moved


def _rename_package_in(tf: TFile, mapping: dict[str, str]) -> bool:
    tree = _parse(tf.lines)
    if tree is None:
        return False
    tokens = _tokens(tf.lines)
    import_rows: set[int] = set()
    from_rows: set[int] = set()
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            import_rows.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            for alias in node.names:
                if alias.asname is None and alias.name.split(".")[0] in mapping:
                    imported.add(alias.name.split(".")[0])
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module
            and node.module.split(".")[0] in mapping
        ):
            from_rows.add(node.lineno)
    edits = []
    for i, tok in enumerate(tokens):
        prev = tokens[i - 1] if i else None
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        after_dot = prev is not None and prev.type == tokenize.OP and prev.string == "."
        if tok.type == tokenize.NAME and tok.string in mapping and not after_dot:
            in_import = tok.start[0] in import_rows and not (prev and prev.string == "as")
            after_from = prev is not None and prev.string == "from" and tok.start[0] in from_rows
            attr_chain = tok.string in imported and nxt is not None and nxt.string == "."
            if in_import or after_from or attr_chain:
                edits.append((tok.start[0] - 1, tok.start[1], tok.end[1], mapping[tok.string]))
        elif tok.type == tokenize.STRING and tok.start[0] == tok.end[0]:
            prefix = re.match(r"[A-Za-z]*", tok.string).group()
            if "f" in prefix.lower() or "b" in prefix.lower():
                continue
            try:
                value = ast.literal_eval(tok.string)
            except (ValueError, SyntaxError):
                continue
            head = value.split(".")[0] if isinstance(value, str) else ""
            if head in mapping and re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", value):
                quote_at = len(prefix) + (3 if tok.string[len(prefix) :][:3] in ('"""', "'''") else 1)
                body = tok.string[quote_at:]
                if body.startswith(head):
                    new = tok.string[:quote_at] + mapping[head] + body[len(head) :]
                    edits.append((tok.start[0] - 1, tok.start[1], tok.end[1], new))
    if not edits:
        return False
    tf.lines = _replace(tf.lines, edits, "package_rename")
    return True


def package_rename(files: list[TFile], packages: list[str], g: Gen) -> dict[str, str]:
    mapping = {}
    for pkg in packages:
        mapping[pkg] = g.rng.choice((f"{pkg}_fork", f"{pkg}_ng", f"{g.word()}{pkg}", g.word()))
    for tf in files:
        original = [Line(x.text, x.src, x.op) for x in tf.lines]
        if _rename_package_in(tf, mapping) and not compiles(tf.source()):
            tf.lines = original
        head, sep, rest = tf.path.partition("/")
        if sep and head in mapping:
            tf.path = f"{mapping[head]}/{rest}"
    return mapping


# ---------------------------------------------------------------------------------------
# Building cases
# ---------------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    files: list[TFile]
    upstream: Upstream
    meta: dict = field(default_factory=dict)


def _donor_files(donor: Upstream | None, g: Gen, count: int) -> list[TFile]:
    if donor is None or count <= 0:
        return []
    pool = donor.eligible()
    out = []
    for rel in sorted(g.rng.sample(pool, min(count, len(pool)))):
        lines = [Line(text, None, "unrelated_files") for text in donor.files[rel]]
        out.append(TFile(f"third_party/{rel}", lines))
    return out


def _generated_files(g: Gen, count: int, top: str = "extras") -> list[TFile]:
    out = []
    for _ in range(count):
        for _attempt in range(10):
            texts = g.module()
            if compiles("".join(t + "\n" for t in texts)):
                break
        out.append(TFile(f"{top}/{g.name()}.py", new_lines(texts, "unrelated_files")))
    return out


def build_case(
    upstream: Upstream,
    operator: str,
    seed: int,
    *,
    max_files: int = 30,
    donor: Upstream | None = None,
) -> Case:
    """Build the target files of one case (nothing is written)."""
    if operator not in CASES:
        raise ValueError(f"unknown operator {operator!r}; choose from {', '.join(CASES)}")
    rng = random.Random(f"{seed}:{operator}")
    g = Gen(rng)
    eligible = upstream.eligible()
    if not eligible:
        raise ValueError(f"{upstream.root} holds no usable Python file")
    sample = sorted(rng.sample(eligible, min(max_files, len(eligible))))
    files = [upstream.copy(rel) for rel in sample]
    applied: dict[str, int] = {}

    def count(op: str, n: int = 1) -> None:
        applied[op] = applied.get(op, 0) + n

    if operator == "whole_file":
        count("whole_file", len(files))
    elif operator in FILE_OPS:
        for tf in files:
            if apply_file_op(tf, operator, g):
                count(operator)
    elif operator == "move_rename":
        count(operator, move_rename(files, g))
    elif operator == "package_rename":
        mapping = package_rename(files, upstream.packages, g)
        count(operator, len(mapping))
    elif operator == "split_file":
        out = []
        for tf in files:
            parts = split_file(tf, g)
            if parts:
                out.extend(parts)
                count(operator)
        files = out
    elif operator == "merge_files":
        order = list(files)
        rng.shuffle(order)
        out = []
        while len(order) >= 2:
            a, b = order.pop(), order.pop()
            merged = merge_files(a, b)
            if merged:
                out.append(merged)
                count(operator)
            else:
                out.extend([a, b])
        files = out + order
    elif operator == "subset_functions":
        out = []
        for tf in files:
            new = subset_functions(tf, g)
            if new:
                out.append(new)
                count(operator)
        files = out
    elif operator == "unrelated_files":
        extra = max(2, len(files) // 2)
        donated = _donor_files(donor, g, extra // 2)
        generated = _generated_files(g, extra - len(donated))
        files += donated + generated
        count(operator, len(donated) + len(generated))
    elif operator == "mixed":
        files = _mixed(files, upstream, g, donor, count)
    files = _dedupe_paths(files)
    return Case(operator, files, upstream, {"applied": applied, "sample": sample})


def _mixed(
    files: list[TFile],
    upstream: Upstream,
    g: Gen,
    donor: Upstream | None,
    count: Callable[..., None],
) -> list[TFile]:
    rng = g.rng
    # Structural changes first, on pristine copies.
    rng.shuffle(files)
    out: list[TFile] = []
    pending = list(files)
    if pending:
        parts = split_file(pending[0], g)
        if parts:
            out.extend(parts)
            pending.pop(0)
            count("split_file")
    if len(pending) >= 2:
        merged = merge_files(pending[0], pending[1])
        if merged:
            out.append(merged)
            pending = pending[2:]
            count("merge_files")
    if pending:
        subset = subset_functions(pending[0], g)
        if subset:
            out.append(subset)
            pending.pop(0)
            count("subset_functions")
    files = sorted(out + pending, key=lambda tf: tf.path)
    # Then edits inside files, each with its own probability.
    plan = (
        ("reorder_functions", 0.3),
        ("dedent_methods", 0.3),
        ("delete_lines", 0.4),
        ("rewrap_calls", 0.4),
        ("rename_identifiers", 0.4),
        ("edit_literals", 0.4),
        ("edit_comments", 0.4),
        ("insert_unrelated", 0.5),
    )
    for tf in files:
        for name, chance in plan:
            if rng.random() < chance and apply_file_op(tf, name, g):
                count(name)
    count("move_rename", move_rename(files, g, share=0.25))
    if upstream.packages:
        package_rename(files, upstream.packages, g)
        count("package_rename")
    donated = _donor_files(donor, g, 1)
    files += donated + _generated_files(g, 2)
    count("unrelated_files", len(donated) + 2)
    return files


def _dedupe_paths(files: list[TFile]) -> list[TFile]:
    taken: set[str] = set()
    for tf in sorted(files, key=lambda tf: tf.path):
        if tf.path in taken:
            tf.path = _unique(tf.path, taken)
        else:
            taken.add(tf.path)
    return sorted(files, key=lambda tf: tf.path)


def build_negative(target: Upstream, seed: int, max_files: int = 30) -> Case:
    """Negative control: files of an unrelated package, none of them from the upstream."""
    rng = random.Random(f"{seed}:{NEGATIVE_CASE}")
    eligible = target.eligible()
    sample = sorted(rng.sample(eligible, min(max_files, len(eligible))))
    files = [TFile(rel, [Line(text, None, NEGATIVE_CASE) for text in target.files[rel]]) for rel in sample]
    return Case(NEGATIVE_CASE, files, target, {"sample": sample})


def build_generated_negative(upstream: Upstream, seed: int, modules: int = 6) -> Case:
    """Negative control without network: a generated package (used with the fixture)."""
    g = Gen(random.Random(f"{seed}:{NEGATIVE_CASE}:generated"))
    files = _generated_files(g, modules, top="generated_pkg")
    for tf in files:
        for line in tf.lines:
            line.op = NEGATIVE_CASE
    return Case(NEGATIVE_CASE, files, upstream, {})


# ---------------------------------------------------------------------------------------
# Truth and writing
# ---------------------------------------------------------------------------------------


def truth_rows(case: Case) -> list[dict]:
    """One truth row per physical line of every target file."""
    rows = []
    for tf in sorted(case.files, key=lambda tf: tf.path):
        kinds = line_kinds(tf.source())
        for number, (line, kind) in enumerate(zip(tf.lines, kinds, strict=True), 1):
            row = {
                "target_path": tf.path,
                "line": number,
                "copied": 0,
                "expected": "none",
                "upstream_path": "",
                "upstream_line": "",
                "operator": line.op,
                "kind": kind,
            }
            if line.src is not None and line.text.strip():
                up_path, up_line = line.src
                up_text = case.upstream.files[up_path][up_line - 1]
                row["copied"] = 1
                row["expected"] = "verbatim" if line.text.strip() == up_text.strip() else "near"
                row["upstream_path"] = up_path
                row["upstream_line"] = up_line
            rows.append(row)
    return rows


def write_case(case: Case, out_dir: Path, extra_meta: dict | None = None) -> Path:
    """Write ``target/``, ``truth.csv`` and ``case.json`` under ``out_dir``."""
    out_dir = Path(out_dir)
    target = out_dir / "target"
    target.mkdir(parents=True, exist_ok=True)
    for tf in case.files:
        path = target / tf.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(tf.source(), encoding="utf-8")
        if not compiles(tf.source()):  # pragma: no cover - every operator checks this
            raise AssertionError(f"generated {tf.path} of {case.name} does not compile")
    rows = truth_rows(case)
    with (out_dir / "truth.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=TRUTH_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    meta = {
        "case": case.name,
        "upstream": str(case.upstream.root),
        "target": "target",
        "files": len(case.files),
        "lines": len(rows),
        "copied_lines": sum(row["copied"] for row in rows),
        "generator_version": GENERATOR_VERSION,
        **case.meta,
        **(extra_meta or {}),
    }
    (out_dir / "case.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return out_dir


def generator_fingerprint() -> str:
    """Hash of this file: cached cases are regenerated when the generator changes."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Generate one accuracy-suite case.")
    parser.add_argument("upstream", type=Path)
    parser.add_argument("operator", choices=CASES)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-files", type=int, default=30)
    args = parser.parse_args(argv)
    case = build_case(Upstream(args.upstream), args.operator, args.seed, max_files=args.max_files)
    write_case(case, args.out, {"seed": args.seed})
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
