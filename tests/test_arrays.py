"""lineage.arrays: the sort-based set operations give exactly what the numpy calls they replace give."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lineage import arrays
from lineage.arrays import (
    counts_sorted,
    distinct_pairs,
    distinct_sorted,
    isin_sorted,
    positions,
    unique,
    unique_counts,
    unique_first,
)

# Small ranges make repeats likely; the extremes are the 63-bit hashes' own range.
values = st.lists(st.one_of(st.integers(-3, 3), st.integers(-(2**63), 2**63 - 1)), max_size=60).map(
    lambda xs: np.array(xs, np.int64))


@given(values)
def test_unique_is_numpys(a: np.ndarray) -> None:
    expected = np.unique(a)
    got = unique(a)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


@given(values)
def test_unique_counts_is_numpys(a: np.ndarray) -> None:
    forms, counts = np.unique(a, return_counts=True)
    got_forms, got_counts = unique_counts(a)
    assert np.array_equal(got_forms, forms) and np.array_equal(got_counts, counts)
    assert got_counts.dtype == counts.dtype


@given(values)
def test_the_sorted_variants_are_numpys_on_sorted_input(a: np.ndarray) -> None:
    ordered = np.sort(a)
    assert np.array_equal(distinct_sorted(ordered), np.unique(a))
    forms, counts = np.unique(a, return_counts=True)
    got_forms, got_counts = counts_sorted(ordered)
    assert np.array_equal(got_forms, forms) and np.array_equal(got_counts, counts)


@given(values)
def test_unique_first_is_numpys(a: np.ndarray) -> None:
    forms, first = np.unique(a, return_index=True)
    got_forms, got_first = unique_first(a)
    assert np.array_equal(got_forms, forms) and np.array_equal(got_first, first)


@given(values, values)
def test_isin_sorted_is_numpys(a: np.ndarray, b: np.ndarray) -> None:
    assert np.array_equal(isin_sorted(a, np.unique(b)), np.isin(a, b))


def test_first_occurrences_and_an_empty_set() -> None:
    forms, first = unique_first(np.array([5, 1, 5, 1, 7], np.int64))
    assert forms.tolist() == [1, 5, 7] and first.tolist() == [1, 0, 4]
    assert isin_sorted(np.array([1, 2], np.int64), np.zeros(0, np.int64)).tolist() == [False, False]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(-3, 3)), max_size=40), st.booleans())
def test_file_forms_are_the_distinct_pairs_sorted_by_form_then_file(rows: list[tuple[int, int]],
                                                                   in_order: bool) -> None:
    """Whether or not the lines come in file order (the fast path needs it), the result is every
    distinct (form, file) pair once, sorted by form, then file."""
    if in_order:
        rows.sort()
    files = np.array([r[0] for r in rows], np.int32)
    forms = np.array([r[1] for r in rows], np.int64)
    got_forms, got_files = distinct_pairs(forms, files)
    expected = sorted({(form, file) for file, form in rows})
    assert list(zip(got_forms.tolist(), got_files.tolist(), strict=True)) == expected


@settings(max_examples=30, deadline=None)
@given(values, st.integers(0, 2**63 - 1), st.integers(400, 4000))
def test_isin_sorted_with_its_prefilter_is_numpys(b: np.ndarray, seed: int, n: int) -> None:
    """Values far outnumbering the set (the prefilter's table path): members, values sharing a
    member's low bits, others, negatives."""
    rng = np.random.default_rng(seed)
    members = np.unique(b)
    others = rng.integers(-(2**63), 2**63 - 1, n, dtype=np.int64)
    near = (members[rng.integers(0, len(members), n)] ^ (1 << 40)) if len(members) else others
    a = np.concatenate([others, near, members[rng.integers(0, len(members), n)] if len(members) else others])
    assert len(a) > 16 * len(members) or not len(members)
    assert np.array_equal(isin_sorted(a, members), np.isin(a, members))


@given(values, values)
def test_isin_sorted_and_positions_by_hash_table_are_numpys(a: np.ndarray, b: np.ndarray) -> None:
    """The hash-table path (pandas), taken here for any size: the same answers as numpy's."""
    members = np.unique(b)
    expected = np.array([int(np.flatnonzero(members == x)[0]) if x in members else -1 for x in a.tolist()],
                        np.int64)
    with patch.object(arrays, "HASHED_FROM", 0), patch.object(arrays, "_TABLE_FROM", 2**62):
        assert np.array_equal(isin_sorted(a, members), np.isin(a, b))
        got = positions(members, a)
    assert got.dtype == np.int64 and np.array_equal(got, expected)
    assert np.array_equal(positions(members, a), expected)  # the binary-search path, same answer


def test_large_lookups_take_the_hash_table_with_the_same_answers() -> None:
    rng = np.random.default_rng(7)
    members = np.unique(rng.integers(-(2**63), 2**63 - 1, 20_000, dtype=np.int64))
    a = np.concatenate([rng.choice(members, 30_000), rng.integers(-(2**63), 2**63 - 1, 30_000, dtype=np.int64)])
    assert len(a) >= arrays.HASHED_FROM and len(a) <= 16 * len(members)  # not the prefilter's path
    assert np.array_equal(isin_sorted(a, members), np.isin(a, members))
    at = np.searchsorted(members, a).clip(0, len(members) - 1)
    assert np.array_equal(positions(members, a), np.where(members[at] == a, at, -1))


@given(st.integers(1, 4).flatmap(lambda k: st.lists(
    st.tuples(*[st.integers(-(2**40), 2**40) | st.integers(-3, 3)] * k), max_size=40)))
def test_lexsort_ints_is_numpys(rows: list[tuple[int, ...]]) -> None:
    """The one combined sort gives np.lexsort's order, ties included (both stable), and a set of
    keys too wide to combine falls back to np.lexsort."""
    width = len(rows[0]) if rows else 2
    keys = tuple(np.array([row[k] for row in rows], np.int64) for k in range(width))
    assert arrays.lexsort_ints(keys).tolist() == np.lexsort(keys).tolist()


def test_lexsort_ints_combines_narrow_keys_into_one_sort() -> None:
    keys = (np.array([3, 1, 2, 1]), np.array([0, 0, 1, 1]), np.array([5, 5, 5, 4]))
    with patch.object(np, "lexsort", side_effect=AssertionError("not combined")):
        order = arrays.lexsort_ints(keys)
    assert order.tolist() == [3, 1, 0, 2]
