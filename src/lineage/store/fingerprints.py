"""Which lines of a release are its fingerprints: the forms the matcher would seed with.

A fingerprint is the 63-bit hash of a line's normalised form (``h_norm`` of the index record),
so a store is tied to :data:`lineage.index.INDEX_VERSION`. The rules are the matcher's own
(:mod:`lineage.match.hits`), applied to one release at a time, nothing rewritten:

- a line with fewer than ``seed_min_tokens`` tokens never seeds on its own (the matcher lets
  two-token lines seed only when nearly unique upstream, which one release cannot tell);
- a short generic method signature (:func:`lineage.match.hits.generic_signatures`) and a licence
  or copyright header line (:func:`lineage.match.headers.header_rows`) never seed;
- on the release side only: a form found in more than ``seed_max_count`` places of the release
  is boilerplate, and a place in a file that repeats the form more than ``seed_max_per_file``
  times does not count (:func:`lineage.match.hits._count_in_file`).
"""

from __future__ import annotations

import numpy as np

from lineage.index import BLANK, CODE, COMMENT, DOCSTRING, TreeIndex
from lineage.match.headers import header_rows
from lineage.match.hits import _count_in_file, generic_signatures
from lineage.match.params import MatchParams


def tree_fingerprints(tree: TreeIndex, rules: MatchParams, release: bool = True) -> np.ndarray:
    """Sorted distinct fingerprints of a tree; ``release=False`` for a scan target (only the
    rules about the line itself apply, not the ones about how often an upstream repeats it)."""
    hashes, files, eligible = [], [], []
    generic = generic_signatures(rules.generic_signature_max_params)
    for number, f in enumerate(tree.files):
        rows = np.flatnonzero(f.kinds != BLANK)
        if not len(rows):
            continue
        kinds = f.kinds[rows]
        ok = f.ntok[rows].astype(np.int64) >= rules.seed_min_tokens
        ok &= ~((kinds == CODE) & np.isin(f.h_abs[rows], generic))
        prose = (kinds == COMMENT) | (kinds == DOCSTRING)
        if prose.any():
            ok &= ~(prose & header_rows(tree.lines(f.path), f.kinds)[rows])
        hashes.append(f.h_norm[rows])
        files.append(np.full(len(rows), number, np.int64))
        eligible.append(ok)
    if not hashes:
        return np.zeros(0, np.int64)
    h = np.concatenate(hashes).astype(np.int64)
    keep = np.concatenate(eligible)
    if release:
        _, inverse, counts = np.unique(h, return_inverse=True, return_counts=True)
        keep &= counts[inverse] <= rules.seed_max_count
        keep &= _count_in_file(h, np.concatenate(files)) <= rules.seed_max_per_file
    return np.unique(h[keep & (h != 0)])
