"""Line alignment rules shared by the real cases' truth builders.

Both rules pair the lines of two versions of one file *in order* (a diff alignment), never by
looking a line up anywhere in the other file, so a repeated line (``)``, ``else:``, a row of a
data table) is paired with the occurrence the diff puts opposite it and nowhere else.

* :func:`diff_pairs` (the vendored case): difflib's ``SequenceMatcher`` over whole lines
  (``autojunk=False``, so frequent lines are not ignored).  Lines of an ``equal`` block are
  paired.  Inside a ``replace`` block (lines changed between the two versions) the most
  similar pair of lines, by rapidfuzz's normalised indel similarity of the stripped texts, is
  paired if it reaches ``near_cutoff``; the blocks left and right of that pair are treated the
  same way, recursively (the rule of difflib's ``Differ``, with our cutoff).  Blank lines are
  never paired.
* :func:`equal_pairs`: only the ``equal`` blocks, on texts the caller may have normalised first
  (the renamed-fork case compares lines with the fork's package name put back).
* :func:`increasing_chain`: the anchors the git cases align between (:mod:`tests.eval.real.gaps`).
"""

from __future__ import annotations

import bisect
import difflib
from collections.abc import Sequence

import numpy as np
from rapidfuzz import fuzz, process

# The vendored case's cutoff for pairing a changed line with its original (0..1).  At 0.6 an
# import rewritten by the vendoring (``import urllib3`` -> ``from pip._vendor import
# urllib3``, 0.62) still pairs, while a line of new code opposite an unrelated one rarely does.
NEAR_CUTOFF = 0.6
# A replace block larger than this many line pairs is not searched for similar pairs (its
# similarity matrix is held in memory); its lines stay unpaired.  No block of the pinned cases
# comes near it (the largest, a table of 584 rewritten rows, has 345,000).
MAX_REPLACE_PAIRS = 25_000_000


def _matcher(a: Sequence[str], b: Sequence[str]) -> difflib.SequenceMatcher:
    return difflib.SequenceMatcher(None, list(a), list(b), autojunk=False)


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib's opcodes of two line lists (no autojunk)."""
    return _matcher(a, b).get_opcodes()


def equal_pairs(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """0-based (i, j) pairs of the lines of ``a`` and ``b`` in difflib's equal blocks."""
    pairs = []
    for tag, i1, i2, j1, _ in _matcher(a, b).get_opcodes():
        if tag == "equal":
            pairs.extend((i1 + k, j1 + k) for k in range(i2 - i1))
    return pairs


def similar_pairs(
    a: Sequence[str], b: Sequence[str], i1: int, i2: int, j1: int, j2: int, cutoff: float = NEAR_CUTOFF
) -> list[tuple[int, int]]:
    """Recursive best-pair alignment of a replace block (see the module docstring).

    The similarity matrix is computed once (rapidfuzz ``cdist``); ties go to the lowest
    target line, then the lowest upstream line, so the result is deterministic."""
    if (i2 - i1) * (j2 - j1) > MAX_REPLACE_PAIRS:
        return []
    left = [text.strip() for text in a[i1:i2]]
    right = [text.strip() for text in b[j1:j2]]
    scores = process.cdist(left, right, scorer=fuzz.ratio, dtype=np.float32)
    scores[[not text for text in left], :] = -1.0
    scores[:, [not text for text in right]] = -1.0
    threshold = cutoff * 100
    out = []
    stack = [(0, len(left), 0, len(right))]
    while stack:
        lo_a, hi_a, lo_b, hi_b = stack.pop()
        if lo_a >= hi_a or lo_b >= hi_b:
            continue
        block = scores[lo_a:hi_a, lo_b:hi_b]
        flat = int(np.argmax(block))
        i, j = divmod(flat, hi_b - lo_b)
        if block[i, j] < threshold:
            continue
        out.append((i1 + lo_a + i, j1 + lo_b + j))
        stack.append((lo_a, lo_a + i, lo_b, lo_b + j))
        stack.append((lo_a + i + 1, hi_a, lo_b + j + 1, hi_b))
    return sorted(out)


def diff_pairs(
    a: Sequence[str], b: Sequence[str], near_cutoff: float = NEAR_CUTOFF
) -> list[tuple[int, int, bool]]:
    """0-based (i, j, equal) pairs of lines of ``a`` and ``b``: equal blocks (``equal`` True)
    and similar lines inside replace blocks (``equal`` False).  Blank lines are never paired."""
    out: list[tuple[int, int, bool]] = []
    for tag, i1, i2, j1, j2 in _matcher(a, b).get_opcodes():
        if tag == "equal":
            out.extend((i1 + k, j1 + k, True) for k in range(i2 - i1) if a[i1 + k].strip())
        elif tag == "replace":
            out.extend((i, j, False) for i, j in similar_pairs(a, b, i1, i2, j1, j2, near_cutoff))
    return out


def increasing_chain(anchors: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """A longest chain of (i, j) pairs increasing in both (distinct ``i``): the anchors a diff
    alignment between them can trust.  A line moved up from far below would cut a greedy chain
    short; the longest chain drops it instead (patience sorting, ties to the earliest pairs)."""
    pairs = sorted(anchors)
    tails: list[int] = []  # per chain length: index of the pair ending the best chain so far
    tail_j: list[int] = []
    back = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        at = bisect.bisect_left(tail_j, j)
        back[k] = tails[at - 1] if at else -1
        if at == len(tails):
            tails.append(k)
            tail_j.append(j)
        else:
            tails[at], tail_j[at] = k, j
    out = []
    k = tails[-1] if tails else -1
    while k >= 0:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]
