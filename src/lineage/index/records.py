"""The per-file index record and the rules for reading a file's text.

:class:`FileIndex` is what :mod:`lineage.index.parse` makes of one file and what
:mod:`lineage.index.store` keeps on disk; :func:`decode_source` and :func:`split_lines` say how
bytes become the physical lines every table numbers.
"""

from __future__ import annotations

import codecs
import posixpath
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from lineage.markers import Marker
from lineage.settings import DEFAULT_MAX_FILE_BYTES

# Schema-version log of an index record (bump whenever a record's content would change for the
# same bytes: it invalidates the index cache, whose directory is named after it):
#   1  first record: line kinds, normalised and abstract form hashes (BLAKE2b, 8 bytes), token
#      counts, definitions, markers.
#   2  form hashes are XXH3-64 shifted to 63 bits (faster); the marker reader sees only windows
#      around hint words.
#   3  a multi-line string assigned to ``__doc__`` or passed to ``Doc(...)`` (PEP 727) is
#      docstring, not code (parse._is_documentation).
INDEX_VERSION = 3

BLANK, CODE, COMMENT, DOCSTRING = 0, 1, 2, 3
KIND_NAMES = ("blank", "code", "comment", "docstring")

# Files larger than DEFAULT_MAX_FILE_BYTES (lineage.settings) are skipped with a recorded reason.
__all__ = ["BLANK", "CODE", "COMMENT", "DEFAULT_MAX_FILE_BYTES", "DOCSTRING", "INDEX_VERSION", "KIND_NAMES",
           "OTHER_CODE_SUFFIXES", "PYTHON_SUFFIXES", "Definition", "FileIndex", "decode_source", "is_python_path",
           "other_code_counts", "split_lines"]

PYTHON_SUFFIXES = (".py", ".pyi")
# Source files in other languages, which lineage does not compare: Cython, C and C++, CUDA, Rust,
# Go, JavaScript and TypeScript, Java, Fortran. Counted per suffix so that a report says which code
# it left out: cytoolz 1.0.0 is five .pyx and seven .pxd files beside its 25 .py files, and its
# summary said "Python files: 25" alone (user104).
OTHER_CODE_SUFFIXES = frozenset({".pyx", ".pxd", ".pxi", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cu",
                                 ".cuh", ".rs", ".go", ".js", ".mjs", ".ts", ".java", ".f", ".f90"})

_CODING_RE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


@dataclass(frozen=True)
class Definition:
    """A function or class: ``qualname`` like ``Outer.method``, 1-based inclusive line span."""

    qualname: str
    kind: str  # "function" | "class"
    start: int
    end: int


@dataclass
class FileIndex:
    """Everything the matcher needs to know about one file, minus its text.

    Arrays have one entry per physical line (index 0 is line 1). Hashes are 0 on blank lines.
    ``ntok`` counts tokens of code (without comment) or words of prose; it measures how much
    evidence a matching line carries.
    """

    path: str
    digest: str
    n_bytes: int
    status: str = "ok"  # "ok" | "skipped"
    reason: str = ""  # why skipped, or a note such as "syntax errors" for an indexed file
    encoding: str = "utf-8"
    parse_errors: bool = False
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint8))
    h_norm: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    h_abs: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    ntok: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint16))
    definitions: list[Definition] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)

    @property
    def n_lines(self) -> int:
        return int(self.kinds.shape[0])


def is_python_path(path: str) -> bool:
    return path.endswith(PYTHON_SUFFIXES)


def other_code_counts(paths: Iterable[str]) -> dict[str, int]:
    """How many of ``paths`` are source files in another language (:data:`OTHER_CODE_SUFFIXES`,
    the suffix compared in lower case), per suffix, sorted by suffix."""
    counts = Counter(suffix for path in paths
                     if (suffix := posixpath.splitext(path)[1].lower()) in OTHER_CODE_SUFFIXES)
    return dict(sorted(counts.items()))


def decode_source(data: bytes) -> tuple[str, str]:
    """Decode Python source bytes: BOM, then a PEP 263 coding cookie, then UTF-8.

    Raises ``UnicodeDecodeError`` or ``LookupError`` when the bytes cannot be text. A cookie
    naming an encoding that CPython refuses for source code is a ``LookupError`` too: PEP 263
    allows only text encodings in which the cookie line itself reads as ASCII (``utf-16`` would
    otherwise turn an ASCII file into one line of other characters; ``rot13`` is not text).
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8"), "utf-8-sig"
    encoding = "utf-8"
    for raw in data.split(b"\n", 2)[:2]:
        found = _CODING_RE.match(raw)
        if found:
            name = found.group(1).decode("ascii")
            info = codecs.lookup(name)
            if not _source_encoding(info):
                raise LookupError(f"encoding {name!r} cannot encode Python source (CPython refuses it)")
            encoding = info.name
            break
    return data.decode(encoding), encoding


def _source_encoding(info: codecs.CodecInfo) -> bool:
    """Whether CPython accepts this codec in a coding cookie: a text encoding, ASCII-compatible."""
    if not getattr(info, "_is_text_encoding", True):
        return False
    probe = b"# -*- coding: x -*-\nimport os\n"
    try:
        return info.decode(probe)[0] == probe.decode("ascii")
    except (UnicodeDecodeError, ValueError):
        return False


def split_lines(text: str) -> list[str]:
    """Physical lines as an editor numbers them: ``\\r\\n``, ``\\r`` and ``\\n`` end a line."""
    if not text:
        return []
    if "\r" in text:  # most files have none: two scans and copies of the text saved
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines
