"""Index stage: every Python file of a source becomes a :class:`FileIndex` record, cached by content.

Which module holds which step:

- :mod:`~lineage.index.records`: the record (:class:`FileIndex`, :class:`Definition`, line kinds,
  :data:`INDEX_VERSION` with its change log) and how bytes become physical lines.
- :mod:`~lineage.index.normalise`: a line's exact, normalised and abstract forms and their hashes.
- :mod:`~lineage.index.parse`: :class:`Indexer`, one file's bytes to one record (tree-sitter).
- :mod:`~lineage.index.store`: :class:`IndexCache`, the content-addressed, checksummed, atomic
  store of records (and the framing the match cache shares).
- :mod:`~lineage.index.tree`: :func:`index_tree`, a whole source through the cache, in parallel,
  giving a :class:`TreeIndex`.

For example ``x = foo(1)  # note`` is a ``code`` line whose normalised form is ``x = foo ( 1 )``
and abstract form ``I = I ( N )``; both are stored as 63-bit hashes.
"""

from lineage.index.parse import Indexer, fill_lines, find_file_markers
from lineage.index.records import (
    BLANK,
    CODE,
    COMMENT,
    DEFAULT_MAX_FILE_BYTES,
    DOCSTRING,
    INDEX_VERSION,
    KIND_NAMES,
    PYTHON_SUFFIXES,
    Definition,
    FileIndex,
    decode_source,
    is_python_path,
    split_lines,
)
from lineage.index.store import IndexCache
from lineage.index.tree import TreeIndex, index_tree

__all__ = [
    "BLANK",
    "CODE",
    "COMMENT",
    "DEFAULT_MAX_FILE_BYTES",
    "DOCSTRING",
    "INDEX_VERSION",
    "KIND_NAMES",
    "PYTHON_SUFFIXES",
    "Definition",
    "FileIndex",
    "IndexCache",
    "Indexer",
    "TreeIndex",
    "decode_source",
    "fill_lines",
    "find_file_markers",
    "index_tree",
    "is_python_path",
    "split_lines",
]
