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

import numpy as np
import tree_sitter_python
from tree_sitter import Language, Node, Parser, Query, QueryCursor

from lineage.index.normalise import KEPT_NAMES, fold_whitespace, normalise_code, stable_hash
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
from lineage.markers import find_file_markers

try:  # the compiled per-line pass (built by ``pip install``); the Python one gives the same arrays
    from lineage import _lineforms
except ImportError:  # pragma: no cover - a build without a C compiler
    _lineforms = None
else:
    _lineforms.set_kept_names(sorted(KEPT_NAMES))

# KIND_NAMES as an object array: indexing it with a kinds array names every line in one step.
_KIND_OBJECTS = np.array(KIND_NAMES, dtype=object)

_QUERY_SOURCE = """
(comment) @comment
(string) @string
(function_definition) @function
(class_definition) @class
"""


class Indexer:
    """Holds one tree-sitter parser and query; create one per process."""

    def __init__(self, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES, compiled: bool = True) -> None:
        self.compiled = compiled  # False: the Python per-line pass (the reference, for tests)
        self.language = Language(tree_sitter_python.language())
        self.parser = Parser(self.language)
        self.query = Query(self.language, _QUERY_SOURCE)
        self.max_file_bytes = max_file_bytes

    def index(self, path: str, data: bytes, digest: str) -> FileIndex:
        record = FileIndex(path=path, digest=digest, n_bytes=len(data))
        if len(data) > self.max_file_bytes:  # a size stated too small (or none): the backstop
            return too_large(record, self.max_file_bytes)
        if b"\0" in data:
            return _skip(record, "binary (NUL byte)")
        try:
            text, record.encoding = decode_source(data)
        except (UnicodeDecodeError, LookupError) as exc:
            detail = f"at byte {exc.start}" if isinstance(exc, UnicodeDecodeError) else str(exc)
            return _skip(record, f"not UTF-8 text ({detail})")
        lines = split_lines(text)
        self._fill(record, lines, parser_input(data, record.encoding, lines))
        return record

    def _fill(self, record: FileIndex, lines: list[str], source: bytes) -> None:
        n = len(lines)
        kinds = np.zeros(n, np.uint8)
        h_norm = np.zeros(n, np.int64)
        h_abs = np.zeros(n, np.int64)
        ntok = np.zeros(n, np.uint16)
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

        # Per-row facts from the syntax tree, as arrays (-1: none) for the per-line pass.
        comment = np.full(n, -1, np.int32)  # character column where a comment starts
        for node in captures.get("comment", ()):
            row, col = node.start_point
            if row < n:
                comment[row] = char_col(row, col)

        functions = captures.get("function", [])
        classes = captures.get("class", [])
        doc = np.zeros(n, np.uint8)
        bodies = [tree.root_node] + [d.child_by_field_name("body") for d in functions + classes]
        for body in bodies:
            node = _docstring_node(body)
            if node is not None:
                doc[node.start_point[0] : node.end_point[0] + 1] = 1

        # Multi-line strings cut lines into string pieces and code pieces.
        inside = np.zeros(n, np.uint8)  # rows strictly inside a multi-line string
        head = np.full(n, -1, np.int32)  # row -> column where a multi-line string starts
        tail = np.full(n, -1, np.int32)  # row -> column where a multi-line string ends
        for node in captures.get("string", ()):
            (r0, c0), (r1, c1) = node.start_point, node.end_point
            if r0 == r1:
                continue
            if _is_documentation(node):
                first, last = _documentation_rows(lines, r0, char_col(r0, c0), r1, char_col(r1, c1) if r1 < n else 0)
                doc[first : last + 1] = 1
            if r0 < n:
                head[r0] = char_col(r0, c0)
            if r1 < n:
                tail[r1] = char_col(r1, c1)
            inside[r0 + 1 : r1] = 1

        if _lineforms is not None and self.compiled:
            _lineforms.fill(lines, doc, inside, comment, tail, head, kinds, h_norm, h_abs, ntok)
        else:
            fill_lines(lines, doc, inside, comment, tail, head, kinds, h_norm, h_abs, ntok)

        record.kinds, record.h_norm, record.h_abs, record.ntok = kinds, h_norm, h_abs, ntok
        record.definitions = _definitions(functions, classes)
        record.markers = find_file_markers(lines, _KIND_OBJECTS[kinds].tolist())


def parser_input(data: bytes, encoding: str, lines: list[str]) -> bytes:
    """What the parser reads: the file's ``lines`` (:func:`split_lines` of ``data`` decoded with
    ``encoding``) joined by newlines, as UTF-8. For UTF-8 bytes without a carriage return that is
    ``data`` itself less one final newline, taken without decoding and encoding it again."""
    if encoding == "utf-8" and b"\r" not in data:
        return data[:-1] if data.endswith(b"\n") else data
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def fill_lines(lines: list[str], doc: np.ndarray, inside: np.ndarray, comment: np.ndarray, tail: np.ndarray,
               head: np.ndarray, kinds: np.ndarray, h_norm: np.ndarray, h_abs: np.ndarray,
               ntok: np.ndarray) -> None:
    """Kinds, normal-form hashes and token counts of every line, written into the arrays.

    The reference implementation of the per-line pass; ``lineage._lineforms.fill`` is the same
    in C (the tests hold both to identical arrays). ``doc``/``inside`` flag docstring rows and rows
    strictly inside a multi-line string; ``comment``/``tail``/``head`` give, per row, the column of
    a comment, of the end of a multi-line string and of the start of one (-1: none).
    """
    for row, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        indent = len(line) - len(line.lstrip())
        if doc[row]:
            kind = DOCSTRING
        elif comment[row] == indent and not inside[row]:
            kind = COMMENT
        else:
            kind = CODE
        kinds[row] = kind
        if kind != CODE or inside[row]:
            prose = fold_whitespace(stripped)
            h_norm[row] = h_abs[row] = stable_hash(prose)
            ntok[row] = min(len(prose.split(" ")), 65535)
            continue
        norm, abstract, count = _normalise_code_line(
            line, _opt(comment[row]), _opt(tail[row]), _opt(head[row]))
        h_norm[row] = stable_hash(norm)
        h_abs[row] = stable_hash(abstract)
        ntok[row] = min(count, 65535)


def _opt(value: np.int32) -> int | None:
    return None if value < 0 else int(value)


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
    # Child by child: ``named_children`` made a node of every statement of the body (a class's
    # every method) to look at the first.
    for k in range(body.named_child_count):
        child = body.named_child(k)
        if child is None or child.type == "comment":
            continue
        if child.type == "expression_statement" and child.named_child_count == 1:
            first = child.named_child(0)
            if first is not None and first.type in ("string", "concatenated_string"):
                return first
        return None
    return None


def _is_documentation(string: Node) -> bool:
    """A string Python or PEP 727 makes documentation outside a docstring's place: the value
    assigned to ``__doc__`` (``f.__doc__ = '''...'''``) or the argument of ``Doc(...)``
    (``typing_extensions.Doc``: FastAPI 0.115 writes 10,000 lines of parameter prose as
    ``Annotated[str, Doc('''...''')]``, which counted as code lines)."""
    parent = string.parent
    if parent is None:
        return False
    if parent.type == "assignment":
        target = parent.child_by_field_name("left")
        value = parent.child_by_field_name("right")
        if target is None or value is None or value.id != string.id:
            return False
        name = target.child_by_field_name("attribute") if target.type == "attribute" else target
        return name is not None and name.type == "identifier" and name.text == b"__doc__"
    if parent.type == "argument_list" and parent.named_child_count == 1:
        call = parent.parent
        function = call.child_by_field_name("function") if call is not None and call.type == "call" else None
        if function is not None and function.type == "attribute":
            function = function.child_by_field_name("attribute")
        return function is not None and function.type == "identifier" and function.text == b"Doc"
    return False


# What may follow a documentation string on its last row and leave the row prose: the call's
# closing bracket and commas (``'''),``).
_CLOSERS = frozenset("), ")


def _documentation_rows(lines: list[str], r0: int, c0: int, r1: int, c1: int) -> tuple[int, int]:
    """The rows of a multi-line documentation string (:func:`_is_documentation`) that hold only
    its text: its first row when the string opens the row, its last when only closing brackets
    and commas follow it; the code around it (``view.__doc__ = '''...``) stays code."""
    first = r0 if not lines[r0][:c0].strip() else r0 + 1
    last = r1 if r1 < len(lines) and set(lines[r1][c1:].rstrip()) <= _CLOSERS else r1 - 1
    return first, min(last, len(lines) - 1)


def _definitions(functions: list[Node], classes: list[Node]) -> list[Definition]:
    spans: list[tuple[int, int, str, str]] = []
    for kind, nodes in (("function", functions), ("class", classes)):
        for node in nodes:
            name_node = node.child_by_field_name("name")
            if name_node is None or name_node.text is None:
                continue
            parent = node.parent  # one lookup (tree-sitter walks down from the root for it)
            outer = parent if parent is not None and parent.type == "decorated_definition" else node
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


def too_large(record: FileIndex, limit: int) -> FileIndex:
    """``record`` skipped as larger than ``limit`` (its ``n_bytes``, read or stated by the source)."""
    return _skip(record, f"too large ({record.n_bytes} bytes > {limit})")


def _skip(record: FileIndex, reason: str) -> FileIndex:
    record.status = "skipped"
    record.reason = reason
    return record
