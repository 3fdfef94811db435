"""The indexer: one Python file's bytes in, one :class:`FileIndex` record out.

tree-sitter-python tells each physical line's kind (code, comment, docstring, blank), where
multi-line strings and comments sit, and the spans of functions and classes. Each non-blank line
then gets its normal forms (see :mod:`lineage.index.normalise`), stored as 63-bit hashes in numpy
arrays so that a million lines cost a few tens of megabytes, not a million Python objects.

A record (:mod:`lineage.index.records`) depends only on the file's bytes and :data:`INDEX_VERSION`,
which is what makes the content-addressed cache (:mod:`lineage.index.store`) sound. The path is
kept for reporting only.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import tree_sitter_python
from tree_sitter import Language, Node, Parser, Query, QueryCursor

from lineage.index.normalise import fold_whitespace, normalise_code, stable_hash
from lineage.index.records import (
    CODE,
    COMMENT,
    DEFAULT_MAX_FILE_BYTES,
    DOCSTRING,
    KIND_NAMES,
    Definition,
    FileIndex,
    decode_source,
    split_lines,
)
from lineage.markers import Marker, find_markers

_QUERY_SOURCE = """
(comment) @comment
(string) @string
(function_definition) @function
(class_definition) @class
"""


class Indexer:
    """Holds one tree-sitter parser and query; create one per process."""

    def __init__(self, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> None:
        self.language = Language(tree_sitter_python.language())
        self.parser = Parser(self.language)
        self.query = Query(self.language, _QUERY_SOURCE)
        self.max_file_bytes = max_file_bytes

    def index(self, path: str, data: bytes, digest: str) -> FileIndex:
        record = FileIndex(path=path, digest=digest, n_bytes=len(data))
        if len(data) > self.max_file_bytes:
            return _skip(record, f"too large ({len(data)} bytes > {self.max_file_bytes})")
        if b"\0" in data:
            return _skip(record, "binary (NUL byte)")
        try:
            text, record.encoding = decode_source(data)
        except (UnicodeDecodeError, LookupError) as exc:
            detail = f"at byte {exc.start}" if isinstance(exc, UnicodeDecodeError) else str(exc)
            return _skip(record, f"not UTF-8 text ({detail})")
        lines = split_lines(text)
        self._fill(record, lines)
        return record

    def _fill(self, record: FileIndex, lines: list[str]) -> None:
        n = len(lines)
        kinds = np.zeros(n, np.uint8)
        h_norm = np.zeros(n, np.int64)
        h_abs = np.zeros(n, np.int64)
        ntok = np.zeros(n, np.uint16)
        source = "\n".join(lines).encode("utf-8", "surrogatepass")
        tree = self.parser.parse(source)
        record.parse_errors = tree.root_node.has_error
        if record.parse_errors:
            record.reason = "syntax errors (indexed from the error-tolerant parse)"
        captures = QueryCursor(self.query).captures(tree.root_node)

        ascii_only = source.isascii()

        def char_col(row: int, byte_col: int) -> int:
            if ascii_only or row >= n:
                return byte_col
            return len(lines[row].encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "replace"))

        comment_col: dict[int, int] = {}
        for node in captures.get("comment", ()):
            row, col = node.start_point
            comment_col[row] = char_col(row, col)

        functions = captures.get("function", [])
        classes = captures.get("class", [])
        doc_rows: set[int] = set()
        bodies = [tree.root_node] + [d.child_by_field_name("body") for d in functions + classes]
        for body in bodies:
            doc = _docstring_node(body)
            if doc is not None:
                doc_rows.update(range(doc.start_point[0], doc.end_point[0] + 1))

        # Multi-line strings cut lines into string pieces and code pieces.
        inside_rows: set[int] = set()
        string_head: dict[int, int] = {}  # row -> column where a multi-line string starts
        string_tail: dict[int, int] = {}  # row -> column where a multi-line string ends
        for node in captures.get("string", ()):
            (r0, c0), (r1, c1) = node.start_point, node.end_point
            if r0 == r1:
                continue
            string_head[r0] = char_col(r0, c0)
            string_tail[r1] = char_col(r1, c1)
            inside_rows.update(range(r0 + 1, r1))

        for row, line in enumerate(lines):
            stripped = line.strip()
            if not stripped:
                continue
            indent = len(line) - len(line.lstrip())
            if row in doc_rows:
                kind = DOCSTRING
            elif comment_col.get(row) == indent and row not in inside_rows:
                kind = COMMENT
            else:
                kind = CODE
            kinds[row] = kind
            if kind != CODE or row in inside_rows:
                prose = fold_whitespace(stripped)
                h_norm[row] = h_abs[row] = stable_hash(prose)
                ntok[row] = min(len(prose.split(" ")), 65535)
                continue
            norm, abstract, count = _normalise_code_line(
                line, comment_col.get(row), string_tail.get(row), string_head.get(row)
            )
            h_norm[row] = stable_hash(norm)
            h_abs[row] = stable_hash(abstract)
            ntok[row] = min(count, 65535)

        record.kinds, record.h_norm, record.h_abs, record.ntok = kinds, h_norm, h_abs, ntok
        record.definitions = _definitions(functions, classes)
        record.markers = find_file_markers(lines, kinds)


# Every marker phrase, URL, SPDX or copyright line contains one of these words; lines far from
# any of them cannot hold a marker, so the marker reader only sees windows around them. Plain
# substring search on the lower-cased text: a case-insensitive regex was 50 times slower.
_MARKER_HINTS = ("derived", "adapted", "adopted", "copied", "vendored", "modified", "ported",
                 "taken", "borrowed", "forked", "based", "inspired", "http", "spdx", "copyright")
_MARKER_WINDOW = 4  # lines around a hit: a marker's URL or "with A->B" may follow on later lines


def find_file_markers(lines: list[str], kinds: np.ndarray) -> list[Marker]:
    """Provenance markers of a file, reading only windows of lines around likely hits."""
    original = "\n".join(lines)
    text = original.lower()
    names = [KIND_NAMES[k] for k in kinds]
    if len(text) != len(original):  # a few characters lower-case to two; offsets would drift
        return find_markers(lines, names)
    offsets: list[int] = []
    for hint in _MARKER_HINTS:
        at = text.find(hint)
        while at >= 0:
            offsets.append(at)
            at = text.find(hint, at + len(hint))
    if not offsets:
        return []
    line_starts = np.cumsum([0] + [len(line) + 1 for line in lines[:-1]])
    hit_rows = np.unique(np.searchsorted(line_starts, offsets, side="right") - 1).tolist()
    windows: list[list[int]] = []
    for row in hit_rows:
        lo, hi = max(0, row - _MARKER_WINDOW), min(len(lines), row + _MARKER_WINDOW + 1)
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], hi)
        else:
            windows.append([lo, hi])
    found: list[Marker] = []
    for lo, hi in windows:
        found.extend(replace(m, line=m.line + lo) for m in find_markers(lines[lo:hi], names[lo:hi]))
    return found


def _normalise_code_line(
    line: str, comment: int | None, tail: int | None, head: int | None
) -> tuple[str, str, int]:
    """Normal forms of a code line, minus its comment, around multi-line string pieces."""
    end = len(line) if comment is None else comment
    start = 0
    norm_parts: list[str] = []
    abs_parts: list[str] = []
    count = 0
    if tail is not None:  # the line begins inside a string that ends at ``tail``
        norm_parts.append(fold_whitespace(line[:tail]))
        abs_parts.append("S")
        count += 1
        start = tail
    code_end = head if head is not None and head >= start else end
    norm, abstract, n = normalise_code(line[start:min(code_end, end)])
    norm_parts.append(norm)
    abs_parts.append(abstract)
    count += n
    if head is not None and head >= start:  # a string opens here and runs past the line
        norm_parts.append(fold_whitespace(line[head:]))
        abs_parts.append("S")
        count += 1
    return " ".join(p for p in norm_parts if p), " ".join(p for p in abs_parts if p), count


def _docstring_node(body: Node | None) -> Node | None:
    """The docstring of a module or a def/class body: its first statement, if a lone string.

    Done here rather than in the query because leading comments defeat a query's anchor.
    """
    if body is None:
        return None
    for child in body.named_children:
        if child.type == "comment":
            continue
        if child.type == "expression_statement" and child.named_child_count == 1:
            first = child.named_children[0]
            if first.type in ("string", "concatenated_string"):
                return first
        return None
    return None


def _definitions(functions: list[Node], classes: list[Node]) -> list[Definition]:
    spans: list[tuple[int, int, str, str]] = []
    for kind, nodes in (("function", functions), ("class", classes)):
        for node in nodes:
            name_node = node.child_by_field_name("name")
            if name_node is None or name_node.text is None:
                continue
            outer = node.parent if node.parent is not None and node.parent.type == "decorated_definition" else node
            name = name_node.text.decode("utf-8", "replace")
            spans.append((outer.start_point[0] + 1, node.end_point[0] + 1, kind, name))
    spans.sort(key=lambda s: (s[0], -s[1], s[3]))
    stack: list[tuple[int, str]] = []  # (end line, qualname)
    result: list[Definition] = []
    for start, end, kind, name in spans:
        while stack and stack[-1][0] < start:
            stack.pop()
        qualname = f"{stack[-1][1]}.{name}" if stack else name
        result.append(Definition(qualname, kind, start, end))
        stack.append((end, qualname))
    return result


def _skip(record: FileIndex, reason: str) -> FileIndex:
    record.status = "skipped"
    record.reason = reason
    return record
