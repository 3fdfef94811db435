"""Set operations on 1-d integer arrays by one sort, for the matcher's hot paths.

numpy 2.x's ``np.unique`` hashes the values before it sorts them, and ``np.isin`` calls it:
on the 1.6 million 63-bit line hashes of the pinned pair's target that took 0.8-1.0 s against
0.1 s for a sort and a comparison of neighbours (measured here, numpy 2.4). These functions
give exactly what the numpy calls they name give (the tests compare them on generated
arrays), by sorting.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def unique(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` of a 1-d array: its distinct values, sorted."""
    return distinct_sorted(np.sort(values))


def unique_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_counts=True)`` of a 1-d array."""
    return counts_sorted(np.sort(values))


def distinct_sorted(ordered: np.ndarray) -> np.ndarray:
    """:func:`unique` of an array sorted already (no second sort)."""
    return ordered[_starts(ordered)]


def counts_sorted(ordered: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`unique_counts` of an array sorted already (no second sort)."""
    starts = np.flatnonzero(_starts(ordered))
    return ordered[starts], np.diff(np.append(starts, len(ordered)))


def unique_first(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_index=True)`` of a 1-d array: the distinct values, sorted,
    and the index of each one's first occurrence."""
    order = np.argsort(values, kind="stable")  # equal values keep their order: the first leads
    ordered = values[order]
    first = _starts(ordered)
    return ordered[first], order[first]


# isin_sorted's prefilter: used when the values outnumber the set this many times; its table has
# about 32 slots per set member (about 3 % of the other values pass it), at most 2**22 (4 MB).
_TABLE_FROM = 16
_TABLE_BITS = 22


def isin_sorted(values: np.ndarray, sorted_unique: np.ndarray) -> np.ndarray:
    """``np.isin(values, sorted_unique)`` when ``sorted_unique`` is sorted and distinct (as
    :func:`unique` gives it): one binary search per value, or, for integers far outnumbering
    the set (a whole upstream's line hashes against one changed file's), only for the values
    whose low bits some member has (a table lookup each): the same answer."""
    if len(sorted_unique) == 0:
        return np.zeros(len(values), bool)
    integers = values.dtype == sorted_unique.dtype and values.dtype.kind in "iu"
    if integers and len(values) > _TABLE_FROM * len(sorted_unique):
        mask = (1 << min(_TABLE_BITS, (32 * len(sorted_unique)).bit_length())) - 1
        table = np.zeros(mask + 1, bool)
        table[sorted_unique & mask] = True
        found = table[values & mask]
        maybe = np.flatnonzero(found)
        found[maybe] = _searched(values[maybe], sorted_unique)
        return found
    if integers and len(values) >= HASHED_FROM and len(sorted_unique) <= _TABLE_FROM * len(values):
        return positions(sorted_unique, values) >= 0
    return _searched(values, sorted_unique)


# isin_sorted and positions look large arrays up in pandas' hash table (one probe per value, a
# table of the set) rather than by binary searches, whose random reads of a set of some 10^5 to
# 10^6 hashes cost several times more (0.5 against 0.07 s for the pinned pair's upstream lines
# against its target's forms); below this many values, or for a set far larger than the values
# (one changed file's lines against a whole upstream's forms), the table's set-up costs more.
HASHED_FROM = 1 << 12


def positions(sorted_unique: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For each value, its index in ``sorted_unique`` (sorted, distinct), or -1 when absent."""
    if (len(values) >= HASHED_FROM and len(sorted_unique) <= _TABLE_FROM * len(values)
            and values.dtype == sorted_unique.dtype and values.dtype.kind in "iu"):
        import pandas as pd  # the matcher's callers have it loaded; this module stays light

        return pd.Index(sorted_unique, copy=False).get_indexer(values).astype(np.int64, copy=False)
    if len(sorted_unique) == 0:
        return np.full(len(values), -1, np.int64)
    at = np.minimum(np.searchsorted(sorted_unique, values), len(sorted_unique) - 1)
    return np.where(sorted_unique[at] == values, at, -1).astype(np.int64, copy=False)


def _searched(values: np.ndarray, sorted_unique: np.ndarray) -> np.ndarray:
    at = np.minimum(np.searchsorted(sorted_unique, values), len(sorted_unique) - 1)
    return sorted_unique[at] == values


def distinct_pairs(forms: np.ndarray, files: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct (form, file) pair once, sorted by form, then file (``files`` as int64)."""
    files = files.astype(np.int64)
    # A side's lines come in file order: a stable sort by form alone keeps the files in order
    # within a form (what a two-key sort gives, at half its cost).
    in_file_order = len(files) < 2 or bool((files[1:] >= files[:-1]).all())
    order = np.argsort(forms, kind="stable") if in_file_order else np.lexsort((files, forms))
    forms, files = forms[order], files[order]
    first = _starts(forms)
    first[1:] |= files[1:] != files[:-1]
    return forms[first], files[first]


def lexsort_ints(keys: Sequence[np.ndarray]) -> np.ndarray:
    """``np.lexsort(keys)`` of 1-d integer arrays (the last key the primary one): one stable
    argsort of the keys combined into one int64 when the product of their value ranges fits in
    63 bits, else ``np.lexsort`` itself. ``np.lexsort`` sorts once per key: on the matcher's
    hits (four keys) 3.2x the CPU of one sort of the combined key (measured here, numpy 2.4)."""
    if not keys or len(keys[0]) == 0:
        return np.lexsort(keys)
    lows, spans, product = [], [], 1
    for key in keys:
        low, high = int(key.min()), int(key.max())
        lows.append(low)
        spans.append(high - low + 1)
        product *= high - low + 1
    if product >= 1 << 63:
        return np.lexsort(keys)
    combined = np.zeros(len(keys[0]), np.int64)
    for key, low, span in zip(reversed(keys), reversed(lows), reversed(spans), strict=True):
        combined = combined * span + (key.astype(np.int64) - low)
    return np.argsort(combined, kind="stable")


def _starts(ordered: np.ndarray) -> np.ndarray:
    """Where each run of equal values of a sorted array begins (a boolean mask)."""
    starts = np.empty(len(ordered), bool)
    starts[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    return starts
