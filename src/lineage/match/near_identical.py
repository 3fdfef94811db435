"""Near-identical files: a whole target file that follows one upstream file line by line.

Step 3's region rule asks for distinctive lines, and a file of short, common lines has none: a
package's ``__init__.py`` moved under another name, its ``from attr import (`` renamed and a few
``__all__`` entries edited, holds ``NOTHING,``, ``"fields",`` and ``)`` only. Byte-identical,
such a file is a candidate already (:func:`lineage.match.claims.identical_files`); with one
renamed import it was no candidate at all, and none of its lines was copied.

Yet a file that follows an upstream file over (nearly) all its lines, in order, is as certain a
copy as one region: a coincidence must repeat line after line, over both files whole. So a target
file becomes one whole-file candidate of upstream file U when

* it holds at least ``near_file_min_lines`` content lines and ``region_min_weight`` tokens;
* U shares the most of its code forms among the upstream files, counting only forms found in at
  most ``near_file_max_form_files`` upstream files (``)`` or ``return self`` name no file), and
  the runner-up does not pass the test below as well: a file that follows two upstream files
  (a config class of keyword defaults that five upstream configs write alike) follows a shape
  written in many places, not one file it was copied from (unless the two are copies of one
  file, line for line: then the claim order picks one, as for identical files);
* an in-order alignment of the two files' content lines by normal form, then by abstract form
  between its blocks (renamed names and edited literals agree; a line aligns only with a line
  of its kind; :func:`two_level_alignment`) pairs at least ``near_file_min_coverage`` of each
  file's content lines: the two are the same file, not one holding the other (a whole upstream
  module pasted into a larger file is found by regions);
* at least ``near_file_min_same`` of the target file's content lines are paired with the same
  normal form, so that a file of the same shape but other words (two config classes of default
  values) is not taken.

The candidate's runs are the alignment's equal blocks. It joins a target file's candidates only
when no region candidate of the same upstream file is left after the idiom rule (which it is not
subject to): where regions exist, they and the fill align the pair better than one alignment of
the whole files can (a block moved within the file, lines inserted between same-shaped ones).
Labels, claims and the later steps then treat it as any region. A re-export-only file so found
still is no evidence on its own in the review lists (``file_role``). ``near_file_rule`` 0 turns
the rule off.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

import numpy as np
from rapidfuzz.distance import Indel

from lineage.arrays import counts_sorted, distinct_pairs, distinct_sorted, isin_sorted, unique_counts
from lineage.index import CODE
from lineage.match.hits import Side
from lineage.match.params import MatchParams
from lineage.match.regions import Chain, Run


def candidate_pairs(target: Side, upstream: Side, p: MatchParams, eligible: np.ndarray) -> dict[int, list[int]]:
    """Per eligible target file, the two upstream files sharing the most of its rare code forms
    (best first, ties by file number)."""
    t_mask = (target.kind == CODE) & eligible[target.file_of]
    t_forms, t_files = distinct_pairs(target.h_norm[t_mask], target.file_of[t_mask])
    if len(t_forms) == 0 or len(upstream.h_norm) == 0:
        return {}
    # Upstream code lines narrowed to the forms the target has first (no sort of the whole
    # upstream: re-matching one changed file stays cheap).
    wanted = distinct_sorted(t_forms)  # distinct_pairs sorts by form
    keys_u = upstream.h_norm
    u_mask = (upstream.kind == CODE) & isin_sorted(keys_u, wanted)
    u_forms, u_files = distinct_pairs(keys_u[u_mask], upstream.file_of[u_mask])
    if len(u_forms) == 0:
        return {}
    # forms found in few upstream files
    counts = counts_sorted(u_forms)[1]
    rare = np.repeat(counts <= p.near_file_max_form_files, counts)
    u_forms, u_files = u_forms[rare], u_files[rare]
    lo = np.searchsorted(u_forms, t_forms, "left")
    hi = np.searchsorted(u_forms, t_forms, "right")
    n = hi - lo
    if n.sum() == 0:
        return {}
    t_rep = np.repeat(t_files, n)
    offsets = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    u_rep = u_files[np.repeat(lo, n) + offsets]
    n_up = len(upstream.files)
    keys, shared = unique_counts(t_rep * n_up + u_rep)
    t_of, u_of = keys // n_up, keys % n_up
    order = np.lexsort((u_of, -shared, t_of))
    t_of, u_of = t_of[order], u_of[order]
    group_start = np.flatnonzero(np.concatenate(([True], t_of[1:] != t_of[:-1])))
    rank = np.arange(len(t_of)) - np.repeat(group_start, np.diff(np.append(group_start, len(t_of))))
    top = rank < 2
    found: dict[int, list[int]] = {}
    for t, u in zip(t_of[top].tolist(), u_of[top].tolist(), strict=True):
        found.setdefault(t, []).append(u)
    return found


def two_level_alignment(t_norm: Sequence[Hashable], u_norm: Sequence[Hashable], t_abs: Sequence[Hashable],
                        u_abs: Sequence[Hashable]) -> list[tuple[int, int, int, bool]]:
    """Equal blocks ``(target start, target end, upstream start, same normal form)`` of an
    in-order alignment, in target order: first by normal form, then, inside each stretch left
    between two such blocks, by abstract form. By abstract form alone, ``a: int = 1`` agrees
    with every other annotated default, and one shifted block would pair each line of a run of
    them with its neighbour's upstream line."""
    exact = [(op.src_start, op.src_end, op.dest_start) for op in Indel.opcodes(t_norm, u_norm) if op.tag == "equal"]
    blocks: list[tuple[int, int, int, bool]] = []
    t_at = u_at = 0
    for start, end, dest in [*exact, (len(t_norm), len(t_norm), len(u_norm))]:
        if start > t_at and dest > u_at:  # the stretch between two exact blocks: by shape
            for op in Indel.opcodes(t_abs[t_at:start], u_abs[u_at:dest]):
                if op.tag == "equal":
                    blocks.append((t_at + op.src_start, t_at + op.src_end, u_at + op.dest_start, False))
        if end > start:
            blocks.append((start, end, dest, True))
        t_at, u_at = end, dest + (end - start)
    return blocks


def _keys(side: Side, forms: np.ndarray, lo: int, hi: int) -> list[tuple[int, int]]:
    """(form, kind) of content lines lo..hi: a docstring line ``]`` does not align with the code
    line ``]`` (the labeller would refuse the pair, and the shares must count only real ones)."""
    return list(zip(forms[lo:hi].tolist(), side.kind[lo:hi].tolist(), strict=True))


def aligned_chain(target: Side, upstream: Side, t_file: int, u_file: int, p: MatchParams) -> Chain | None:
    """The whole-file candidate of the pair, or None when the files do not follow each other
    closely enough (see the module docstring)."""
    t_lo, t_hi = int(target.file_start[t_file]), int(target.file_start[t_file + 1])
    u_lo, u_hi = int(upstream.file_start[u_file]), int(upstream.file_start[u_file + 1])
    n_t, n_u = t_hi - t_lo, u_hi - u_lo
    if n_u == 0 or min(n_t, n_u) < p.near_file_min_coverage * max(n_t, n_u):
        return None  # sizes alone rule it out
    blocks = two_level_alignment(_keys(target, target.h_norm, t_lo, t_hi), _keys(upstream, upstream.h_norm, u_lo, u_hi),
                                 _keys(target, target.h_abs, t_lo, t_hi), _keys(upstream, upstream.h_abs, u_lo, u_hi))
    aligned = sum(end - start for start, end, _, _ in blocks)
    if aligned < p.near_file_min_coverage * n_t or aligned < p.near_file_min_coverage * n_u:
        return None
    same = sum(end - start for start, end, _, exact in blocks if exact)
    if same < p.near_file_min_same * n_t:
        return None
    capped = np.minimum(target.ntok[t_lo:t_hi], p.token_weight_cap).astype(np.float64)
    if float(capped.sum()) < p.region_min_weight:
        return None
    chain = Chain(u_file, [], 0.0)
    for start, end, dest, _ in blocks:
        chain.add(Run(u_file, dest - start, start, end - 1, float(capped[start:end].sum()),
                      np.arange(start, end, dtype=np.int64)))
    return chain


def near_identical_files(target: Side, upstream: Side, p: MatchParams, skip: Iterable[int],
                         pick: Callable[[int, list[int]], int]) -> dict[int, Chain]:
    """Target files (not in ``skip``: the identical ones) that follow one upstream file whole, as
    one whole-file candidate each. ``pick(t_file, u_files)``: which of several upstream copies
    of one file (the same normal forms line for line: a file two upstreams carry, or one
    vendors twice) the target file is credited to (:func:`lineage.match.claims.claim_order`)."""
    if not p.near_file_rule or len(target.files) == 0 or len(upstream.files) == 0:
        return {}
    sizes = np.diff(target.file_start)
    eligible = sizes >= p.near_file_min_lines
    for t_file in skip:
        eligible[t_file] = False
    found: dict[int, Chain] = {}
    for t_file, candidates in sorted(candidate_pairs(target, upstream, p, eligible).items()):
        chains = [chain for u_file in candidates if (chain := aligned_chain(target, upstream, t_file, u_file, p))]
        if len(chains) == 2 and _same_forms(upstream, chains[0].up_file, chains[1].up_file):
            chosen = pick(t_file, [chains[0].up_file, chains[1].up_file])
            chains = [c for c in chains if c.up_file == chosen]
        if len(chains) == 1:  # two: a shape written alike in several upstream files, not one's copy
            found[t_file] = chains[0]
    return found


def _same_forms(side: Side, a: int, b: int) -> bool:
    """Whether two files of the side hold the same normal forms, line for line."""
    lo_a, hi_a, lo_b, hi_b = (int(x) for x in (side.file_start[a], side.file_start[a + 1],
                                                side.file_start[b], side.file_start[b + 1]))
    return np.array_equal(side.h_norm[lo_a:hi_a], side.h_norm[lo_b:hi_b]) and np.array_equal(
        side.kind[lo_a:hi_a], side.kind[lo_b:hi_b])
