"""Weak pairs (after step 7, lone lines): an upstream file the target file neither names nor stands in for is a
source of copied code only if the two share a run of identical code lines.

Issue 8's definition of a copy: a line is copied only as part of copied code that follows the
upstream file in order. Every step before this one judges lines next to their neighbours; this
one judges what a (target file, upstream file) pair holds as a whole, once the file is labelled.
Where the target file's markers name no upstream file and it does not stand at the upstream
file's place (a file that names vLLM, a vendored copy and a fork's later version of a file are
established otherwise), a pair whose copied lines never form a run of ``weak_pair_min_run``
consecutive verbatim code lines, each the upstream's next line or a few lines further on (at
most ``lone_max_skip`` + 1), is made of short runs and near lines: on the real sglang/vLLM pair
those were the pairs the truth set labels as sglang's own code written the way vLLM writes it
(kernel signatures, argument lists, a textbook loop in each project's own form). All its lines
are made ``none``.

Off by default (``weak_pair_min_run`` 0): it is a stricter review list, not the default
report. On the real renamed fork it drops far more true copies than false ones (files the fork
moved elsewhere keep their code in short runs between its own edits); the measurements are at
the parameter (:class:`lineage.match.params.MatchParams`).

A pair made only of near lines (a package renamed throughout, every line edited) has no
verbatim run at all; it keeps its lines where the target file names the upstream or stands at
its place, and loses them elsewhere: an unmarked file elsewhere that edited every line it took
is not told from one written alike by this rule, and the report prefers to miss it.
"""

from __future__ import annotations

import numpy as np

from lineage.index import CODE
from lineage.match.labels import FileLabeller
from lineage.match.records import VERBATIM


def longest_verbatim_runs(lab: FileLabeller) -> dict[int, int]:
    """Per upstream file paired in the target file: its longest run of consecutive target code
    lines labelled verbatim from it, each the upstream's next line or at most
    ``lone_max_skip`` + 1 lines further on (comments and docstrings between them skipped)."""
    r, rows = lab.result, lab.t_rows
    start = int(lab.target.file_start[lab.t_file])
    kinds = lab.target.kind[start : start + len(rows)]
    step = lab.p.lone_max_skip + 1
    best: dict[int, int] = {}
    run, last_file, last_row = 0, -1, -1
    for tc in np.flatnonzero(kinds == CODE).tolist():
        row = rows[tc]
        if r.match[row] != VERBATIM:
            run, last_file = 0, -1
            continue
        u_file, u_row = int(r.up_file[row]), int(r.up_row[row])
        run = run + 1 if u_file == last_file and 0 < u_row - last_row <= step else 1
        last_file, last_row = u_file, u_row
        best[u_file] = max(best.get(u_file, 0), run)
    return best


def drop_weak_pairs(lab: FileLabeller, attributed: bool, established: frozenset[int]) -> int:
    """Unpair the lines of every upstream file that is not ``established`` (named by the target
    file's markers or at its place) and shares no run of ``weak_pair_min_run`` verbatim code
    lines with it, in a target file whose markers name no upstream (``attributed``); returns how
    many lines."""
    minimum = lab.p.weak_pair_min_run
    if minimum <= 1 or attributed:
        return 0
    up_file = lab.result.up_file[lab.t_rows]  # per content line; -1: unpaired
    paired_files = set(np.unique(up_file[up_file >= 0]).tolist()) - established
    if not paired_files:
        return 0
    runs = longest_verbatim_runs(lab)
    weak = [u for u in paired_files if runs.get(u, 0) < minimum]
    dropped = np.flatnonzero(np.isin(up_file, weak)).tolist()
    for tc in dropped:
        lab.unpair(tc)
    return len(dropped)
