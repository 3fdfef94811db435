"""The compiled per-line pass (lineage._lineforms) against the Python reference (index.fill_lines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lineage.index import Indexer, fill_lines
from lineage.index import parse as index_module

compiled = index_module._lineforms

# Characters that exercise every branch of the tokeniser: quotes and prefixes, backslashes,
# operators, digits and dots, Unicode letters, digits and spaces, a lone surrogate, astral chars.
# The edges of the C code's ASCII fast paths are in: A Z a z 0 9 @ [ ` { ~ DEL and the first non-ASCII.
ALPHABET = list("abrRbBuUfFtT_xyzAZ019.'\"\\#*/<>=-+:!%&|^@()[]{},; \t\f\v`~\x7f\x80") + [
    "\u00e9", "\u00b2", "\u0663", "\u2003", "\u3000", "\u00a0", "\u2028", "\ud800", "\U0001f600", "\u0394"]


def _arrays(n: int) -> tuple[np.ndarray, ...]:
    return (np.zeros(n, np.uint8), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.uint16))


def _both(lines: list[str], doc: np.ndarray, inside: np.ndarray, comment: np.ndarray, tail: np.ndarray,
          head: np.ndarray) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    n = len(lines)
    ours, reference = _arrays(n), _arrays(n)
    compiled.fill(lines, doc, inside, comment, tail, head, *ours)
    fill_lines(lines, doc, inside, comment, tail, head, *reference)
    return ours, reference


def test_the_extension_is_built() -> None:
    # The project's set-up builds it (pip install -e .); a silent fallback would hide a slow indexer.
    assert compiled is not None


line_st = st.text(alphabet=st.sampled_from(ALPHABET), max_size=60)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(line_st, st.booleans(), st.booleans(), st.integers(-1, 70), st.integers(-1, 70),
                          st.integers(-1, 70)), min_size=1, max_size=12))
def test_compiled_pass_equals_the_reference_on_generated_lines(rows: list[tuple[str, bool, bool, int, int, int]]
                                                               ) -> None:
    lines = [r[0] for r in rows]
    doc = np.array([r[1] for r in rows], np.uint8)
    inside = np.array([r[2] for r in rows], np.uint8)
    comment, tail, head = (np.array([r[k] for r in rows], np.int32) for k in (3, 4, 5))
    ours, reference = _both(lines, doc, inside, comment, tail, head)
    for a, b in zip(ours, reference, strict=True):
        assert np.array_equal(a, b)


@settings(max_examples=200, deadline=None)
@given(st.lists(line_st, min_size=1, max_size=20))
def test_compiled_indexer_equals_the_python_indexer_on_generated_files(lines: list[str]) -> None:
    data = "\n".join(line.replace("\ud800", "?") for line in lines).encode("utf-8")
    a = Indexer(compiled=True).index("m.py", data, "d")
    b = Indexer(compiled=False).index("m.py", data, "d")
    for name in ("kinds", "h_norm", "h_abs", "ntok"):
        assert np.array_equal(getattr(a, name), getattr(b, name))


def test_compiled_indexer_equals_the_python_indexer_on_real_files() -> None:
    # Our own fixture package and lineage's own sources: real code with docstrings, comments,
    # multi-line strings, f-strings and Unicode.
    root = Path(__file__).parent
    paths = sorted(root.glob("eval/fixture_upstream/**/*.py")) + sorted((root.parent / "src/lineage").rglob("*.py"))
    assert len(paths) > 20
    fast, slow = Indexer(compiled=True), Indexer(compiled=False)
    for path in paths:
        data = path.read_bytes()
        a, b = fast.index(path.name, data, "d"), slow.index(path.name, data, "d")
        for name in ("kinds", "h_norm", "h_abs", "ntok"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (path, name)


def test_mismatched_array_lengths_are_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="shorter"):
        compiled.fill(["x = 1", "y"], np.zeros(1, np.uint8), np.zeros(2, np.uint8), np.zeros(2, np.int32),
                      np.zeros(2, np.int32), np.zeros(2, np.int32), *_arrays(2))
