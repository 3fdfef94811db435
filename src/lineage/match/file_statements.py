"""A file pair's statements, numbered once for the fill's statement rules
(:mod:`lineage.match.fill_statements`) and the rules after the fill that read them: statement
numbers and sizes per length limit (:class:`Statements`), the names a file defines once, its
``def``/``class`` statements by name and by qualified name, its collections, and the keys those
are found by (:func:`def_key`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from lineage.index import CODE
from lineage.match.labels import FileLabeller
from lineage.match.statements import (
    file_statement_ids,
    limit_statements,
    whole_statements,
)

# ``def NAME``/``async def NAME`` (kind ``def``) and ``class NAME`` (kind ``class``).
DEF_NAME = re.compile(r"\s*(?:async\s+)?(def|class)\s+(\w+)")
# A dunder (protocol) method's key: ``def __str__``.
DUNDER = re.compile(r"def __\w+__")
# ``NAME = (``, ``NAME: T = [``, ``self.NAME = {``: a collection assigned to a name, opened on the
# statement's first line (in the target at its end: exploded one item a line).
_COLLECTION = re.compile(r"\s*((?:self\.)?[A-Za-z_]\w*)\s*(?::[^=]*)?=\s*[(\[{]")


def is_overload(lines: list[str], k: int) -> bool:
    """Whether content line ``k`` (a ``def``) stands right below an ``@overload`` decorator (with
    any other decorators between): a typing declaration of the function, not its definition."""
    while k > 0 and lines[k - 1].lstrip().startswith("@"):
        k -= 1
        if lines[k].strip() in ("@overload", "@typing.overload", "@t.overload"):
            return True
    return False


def _def_key(match: re.Match[str]) -> str:
    """``def NAME`` or ``class NAME``: a function made async is the same definition, a class
    and a function of one name are not."""
    return f"{match.group(1)} {match.group(2)}"


def def_key(line: str) -> str | None:
    """:func:`_def_key` of a ``def`` or ``class`` line, None for any other line."""
    match = DEF_NAME.match(line)
    return _def_key(match) if match is not None else None


def bare_name(key: str) -> str:
    """A qualified key's bare form: ``def Guild.edit`` -> ``def edit``."""
    kind, _, name = key.partition(" ")
    return f"{kind} {name.rpartition('.')[2]}"


def parameter_names(key: str) -> frozenset[str]:
    """The parameter names of a header's :func:`~lineage.match.statements.statement_key`
    (annotations stripped): each name that opens an item of its outer brackets."""
    tokens = key.split(" ")
    names: set[str] = set()
    depth = 0
    for k, token in enumerate(tokens):
        if token in ("(", "[", "{"):
            depth += 1
        elif token in (")", "]", "}"):
            depth -= 1
        elif depth == 1 and (token[:1].isalpha() or token[:1] == "_") and tokens[k - 1] in ("(", ",", "*", "**"):
            names.add(token)
    return frozenset(names)


def _qualified_keys(lines: Sequence[str], kinds: Sequence[int]) -> list[str | None]:
    """Per content line, the key of the ``def`` or ``class`` it opens with its name qualified by
    the classes around it (``def Guild.edit``), else None: an indentation scan of the code lines,
    a line of closing brackets (an exploded header's ``):``) closing no class."""
    out: list[str | None] = [None] * len(lines)
    classes: list[tuple[int, str]] = []  # (indentation, name) of the classes open at a line
    for k, line in enumerate(lines):
        stripped = line.lstrip()
        if kinds[k] != CODE or not stripped or stripped[0] in ")]}":
            continue
        indent = len(line) - len(stripped)
        while classes and indent <= classes[-1][0]:
            classes.pop()
        if ("def" in line or "class" in line) and (match := DEF_NAME.match(line)):
            out[k] = f"{match.group(1)} {''.join(name + '.' for _, name in classes)}{match.group(2)}"
            if match.group(1) == "class":
                classes.append((indent, match.group(2)))
    return out


def qualified_defs(ids: np.ndarray, sizes: np.ndarray, lines: Sequence[str], kinds: Sequence[int],
                    overloads: bool) -> dict[str, list[int]]:
    """The ``def`` and ``class`` statements of a file by qualified key (:func:`_qualified_keys`),
    for the keys it defines once (an ``@overload`` declaration defines nothing, with
    ``overloads``)."""
    keys = _qualified_keys(lines, kinds)
    counts = Counter(key for k, key in enumerate(keys) if key is not None and not (overloads and is_overload(lines, k)))
    named: dict[str, list[int]] = {}
    for stmt in whole_statements(ids, sizes, range(len(lines))):
        key = keys[stmt[0]]
        if key is not None and counts[key] == 1 and not (overloads and is_overload(lines, stmt[0])):
            named[key] = stmt
    return named


class Statements:
    """Statement numbers (:func:`~lineage.match.statements.statement_ids`) of the labeller's
    target file and of its upstream files, with each statement's size, per statement length
    limit (``fill_rewrapped_max_lines``, ``fill_statement_max_lines``): the text is read once
    per file, without a limit (the target's by :meth:`FileLabeller.statements`, which the
    lone-line rule reads too), and cut to each limit (:func:`limit_statements`); an upstream
    file's once per run, kept in its :class:`~lineage.match.hits.Side`."""

    def __init__(self, lab: FileLabeller) -> None:
        self.lab = lab
        self._target: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._target_names: frozenset[str] | None = None
        self._collections: dict[int, dict[int, tuple[str, list[int]]]] = {}
        self._lines: list[str] | None = None
        self._qualified: dict[int, dict[str, list[int]]] = {}
        self._headers: dict[int, list[tuple[list[int], str]]] = {}
        self._def_statements: dict[int, list[tuple[list[int], str]]] = {}
        self._distinctive: np.ndarray | None = None

    @classmethod
    def of(cls, lab: FileLabeller) -> Statements:
        """The labeller's one instance, made on first use: all it keeps is read from the text,
        never from the labels, so every rule of the file shares it (the identical-twin rule
        made one per candidate header, and scanned the target's names again each time)."""
        if lab.statement_rules is None:
            lab.statement_rules = cls(lab)
        return lab.statement_rules

    @staticmethod
    def _of(unlimited: np.ndarray, max_lines: int) -> tuple[np.ndarray, np.ndarray]:
        ids = limit_statements(unlimited, max_lines)
        return ids, np.bincount(ids[ids >= 0], minlength=int(ids.max(initial=-1)) + 1)

    def target(self, max_lines: int) -> tuple[np.ndarray, np.ndarray]:
        if max_lines not in self._target:
            self._target[max_lines] = self._of(self.lab.statements(), max_lines)
        return self._target[max_lines]

    @staticmethod
    def _names_once(lines: list[str], overloads: bool) -> frozenset[str]:
        """The names a file defines once, with their kind (``def NAME`` for ``def``/``async def``,
        ``class NAME``): a text scan, no tokens. With ``overloads`` (``fill_signature_overloads``),
        a ``def`` right below ``@overload`` is a declaration and not counted."""
        counts = Counter(_def_key(m) for k, line in enumerate(lines) if ("def" in line or "class" in line)
                         and (m := DEF_NAME.match(line)) and not (overloads and is_overload(lines, k)))
        return frozenset(name for name, n in counts.items() if n == 1)

    @staticmethod
    def _defs(ids: np.ndarray, sizes: np.ndarray, lines: list[str], names: frozenset[str],
              overloads: bool) -> dict[str, list[int]]:
        """The ``def`` and ``class`` statements of a file named in ``names`` (:func:`_def_key`), by
        name (not an ``@overload`` declaration, with ``overloads``)."""
        named: dict[str, list[int]] = {}
        for stmt in whole_statements(ids, sizes, range(len(lines))):
            head = lines[stmt[0]]
            if ("def" in head or "class" in head) and (match := DEF_NAME.match(head)) \
                    and (key := _def_key(match)) in names and not (overloads and is_overload(lines, stmt[0])):
                named[key] = stmt
        return named

    def target_texts(self) -> list[str]:
        """The target file's content lines (made once: every pair's statement rules read them)."""
        if self._lines is None:
            self._lines = [self.lab.t_lines[row] for row in self.lab.t_rows.tolist()]
        return self._lines

    def upstream_texts(self, u_file: int) -> list[str]:
        u_rows, u_lines = self.lab.upstream_lines(u_file)
        return [u_lines[row] for row in u_rows.tolist()]

    def target_names_once(self) -> frozenset[str]:
        if self._target_names is None:
            self._target_names = self._names_once(self.target_texts(), bool(self.lab.p.fill_signature_overloads))
        return self._target_names

    def upstream_names_once(self, u_file: int) -> frozenset[str]:
        memo = self.lab.upstream.def_names_memo  # kept for the run, as the statements are
        overloads = bool(self.lab.p.fill_signature_overloads)
        if (u_file, overloads) not in memo:
            memo[(u_file, overloads)] = self._names_once(self.upstream_texts(u_file), overloads)
        return memo[(u_file, overloads)]

    def target_collections(self, max_lines: int) -> dict[int, tuple[str, list[int]]]:
        """The target file's statements of several lines that open a collection assigned to a
        name at the end of their first line (exploded one item a line), by first line: (name,
        lines). Made once per file, for every upstream file it pairs with."""
        if max_lines not in self._collections:
            lines = self.target_texts()
            heads: dict[int, tuple[str, list[int]]] = {}
            if any("=" in line for line in lines):
                for stmt in whole_statements(*self.target(max_lines), range(len(lines))):
                    head = lines[stmt[0]].rstrip()
                    if len(stmt) >= 2 and head.endswith(("(", "[", "{")) and (match := _COLLECTION.match(head)):
                        heads[stmt[0]] = (match.group(1), stmt)
            self._collections[max_lines] = heads
        return self._collections[max_lines]

    def upstream_collections(self, u_file: int, max_lines: int) -> dict[str, list[list[int]]]:
        """An upstream file's statements that assign a collection to a name, by that name, in
        order (kept for the run in its side, as its statements are)."""
        memo = self.lab.upstream.collection_memo
        if (u_file, max_lines) not in memo:
            lines = self.upstream_texts(u_file)
            by_name: dict[str, list[list[int]]] = {}
            for stmt in whole_statements(*self.upstream(u_file, max_lines), range(len(lines))):
                if (match := _COLLECTION.match(lines[stmt[0]])) is not None:
                    by_name.setdefault(match.group(1), []).append(stmt)
            memo[(u_file, max_lines)] = by_name
        return memo[(u_file, max_lines)]

    def target_defs(self, max_lines: int, names: frozenset[str]) -> dict[str, list[int]]:
        """The target file's ``def`` statements of these names (each defined once in it)."""
        return self._defs(*self.target(max_lines), self.target_texts(), names,
                          bool(self.lab.p.fill_signature_overloads))

    def upstream_defs(self, u_file: int, max_lines: int, names: frozenset[str]) -> dict[str, list[int]]:
        return self._defs(*self.upstream(u_file, max_lines), self.upstream_texts(u_file), names,
                          bool(self.lab.p.fill_signature_overloads))

    def target_qualified_defs(self, max_lines: int) -> dict[str, list[int]]:
        """The target file's definitions by qualified key, each defined once (:func:`_qualified_defs`;
        made once per file, for every upstream file it pairs with)."""
        if max_lines not in self._qualified:
            lab = self.lab
            kinds = lab.target_kinds().tolist()
            self._qualified[max_lines] = qualified_defs(*self.target(max_lines), self.target_texts(), kinds,
                                                         bool(lab.p.fill_signature_overloads))
        return self._qualified[max_lines]

    def target_def_statements(self, max_lines: int) -> list[tuple[list[int], str]]:
        """The target file's ``def`` statements with their :func:`def_key`, in order (made once per
        file: :func:`~lineage.match.fill_statements.second_copy_headers` reads them for every
        upstream file; ``@overload`` declarations included)."""
        if max_lines not in self._def_statements:
            lines = self.target_texts()
            found = []
            for stmt in whole_statements(*self.target(max_lines), range(len(lines))):
                if "def" in lines[stmt[0]]:
                    key = def_key(lines[stmt[0]])
                    if key is not None and key.startswith("def "):
                        found.append((stmt, key))
            self._def_statements[max_lines] = found
        return self._def_statements[max_lines]

    def target_def_headers(self, max_lines: int) -> list[tuple[list[int], str]]:
        """The target file's ``def`` statements of several lines with their :func:`def_key`, in
        order (made once per file: :func:`misnamed_headers` reads them for every upstream file)."""
        if max_lines not in self._headers:
            self._headers[max_lines] = [(stmt, key) for stmt, key in self.target_def_statements(max_lines)
                                        if len(stmt) >= 2]
        return self._headers[max_lines]

    def upstream_def_numbers(self, u_file: int, max_lines: int, overloads: bool) -> tuple[np.ndarray, list[str]]:
        """Per content line of upstream file ``u_file``: the number of the ``def`` statement it
        lies in (a definition, not an ``@overload`` declaration with ``overloads``), else -1; and
        each number's :func:`def_key` (kept for the run in its side, as its statements are)."""
        memo = self.lab.upstream.def_numbers_memo
        if (u_file, max_lines, overloads) not in memo:
            u_lines = self.upstream_texts(u_file)
            u_name = np.full(len(u_lines), -1, np.int64)
            u_keys: list[str] = []
            for stmt in whole_statements(*self.upstream(u_file, max_lines), range(len(u_lines))):
                key = def_key(u_lines[stmt[0]])
                if key is not None and key.startswith("def ") and not (overloads and is_overload(u_lines, stmt[0])):
                    u_name[stmt] = len(u_keys)
                    u_keys.append(key)
            memo[(u_file, max_lines, overloads)] = (u_name, u_keys)
        return memo[(u_file, max_lines, overloads)]

    def target_distinctive(self) -> np.ndarray:
        """Per content line of the target file: :meth:`FileLabeller.distinctive` (made once per file)."""
        if self._distinctive is None:
            lab = self.lab
            start = int(lab.target.file_start[lab.t_file])
            self._distinctive = np.array([lab.distinctive(lab.t_lines[row].strip(), int(lab.target.ntok[start + tc]))
                                          for tc, row in enumerate(lab.t_rows.tolist())], bool)
        return self._distinctive

    def upstream_qualified_defs(self, u_file: int, max_lines: int) -> dict[str, list[int]]:
        """Likewise for an upstream file (kept for the run in its side)."""
        upstream, overloads = self.lab.upstream, bool(self.lab.p.fill_signature_overloads)
        memo = upstream.qualified_memo
        if (u_file, max_lines, overloads) not in memo:
            lines = self.upstream_texts(u_file)
            start = int(upstream.file_start[u_file])
            kinds = upstream.kind[start : start + len(lines)].tolist()
            memo[(u_file, max_lines, overloads)] = qualified_defs(*self.upstream(u_file, max_lines), lines, kinds,
                                                                   overloads)
        return memo[(u_file, max_lines, overloads)]

    def upstream(self, u_file: int, max_lines: int) -> tuple[np.ndarray, np.ndarray]:
        memo = self.lab.upstream.statement_memo  # shared by every target file of the run
        if (u_file, max_lines) not in memo:
            memo[(u_file, max_lines)] = self._of(self.upstream_unlimited(u_file)[0], max_lines)
        return memo[(u_file, max_lines)]

    def upstream_unlimited(self, u_file: int) -> tuple[np.ndarray, np.ndarray]:
        """An upstream file's statements without a length limit (one pass over its text)."""
        memo = self.lab.upstream.statement_memo
        unlimited = memo.get((u_file, -1))  # key -1: no length limit
        if unlimited is None:
            upstream = self.lab.upstream
            ids = file_statement_ids(upstream.kind, int(upstream.file_start[u_file]), self.upstream_texts(u_file))
            unlimited = memo[(u_file, -1)] = self._of(ids, len(ids))
        return unlimited
