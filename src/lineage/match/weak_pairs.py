"""Weak pairs (after step 7, lone lines): an upstream file the target file neither names nor stands in for is a
source of copied code only if the two share a run of identical lines.

Issue 8's definition of a copy: a line is copied only as part of copied code that follows the
upstream file in order. Every step before this one judges lines next to their neighbours; this
one judges what a (target file, upstream file) pair holds as a whole, once the file is labelled.
Where the target file's markers name no upstream file and it does not stand at the upstream
file's place (a file that names vLLM, a vendored copy and a fork's later version of a file are
established otherwise), a pair whose copied lines never form a run of ``weak_pair_min_run``
consecutive verbatim code lines, each the upstream's next code line or a few code lines further
on (at most ``lone_max_skip`` + 1; docstrings and comments skipped on both sides), is made of
short runs and near lines: on the real sglang/vLLM pair those were the pairs the truth set labels
as sglang's own code written the way vLLM writes it (kernel signatures, argument lists, a textbook
loop in each project's own form). All its lines are made ``none``.

Nor does it judge a pair that holds more than ``weak_pair_max_share`` of the target file's code
lines: a file most of whose code follows one upstream file in order is that file edited (a
module renamed and its names with it: every line near, no verbatim run), not a file written
alike here and there. Nor a file that descends from the upstream as a whole: one standing at an
upstream file's place (the same path, a renamed one), a part of an upstream module split into a
package, or any file below a folder the tree renamed (:mod:`lineage.match.renames`). There the
file's history is the upstream's, and code it holds from another upstream file in short runs
between its own edits is code moved within that history (the real renamed fork's
``ext/application_checks/core.py`` made from ``ext/commands/core.py``; requests' ``models.py``
taking a block of 2.0.0's ``sessions.py``), not code that merely looks alike. A file with no such
tie has only its lines to show, and this rule asks them for a run.

A run counts the pair's prose too (``weak_pair_prose_runs``): docstring and comment lines copied
word for word, in order, count as code lines do, in a second run beside the code-only one (the
longer holds). Two authors who write the same code alike do not write the same sentences: a
function copied with its six-line docstring, or a block with its four lines of comment, is
the upstream's text, however short the code between. Of the 31 true code lines the code-only
run cost the synthetic suite (short functions of ``subset_functions``, requests' ``api.py``
moved and renamed in ``mixed``), 24 were in such pairs; the 7 left are a 4-line function and
exception classes of a one-sentence docstring, alone in a file of new code. On the sglang/vLLM pair
it keeps 4 of the pairs the code-only run drops, 3 of them vLLM's comments copied with their
code ("# mind-exploding: carefully manage the reference and memory." in
``npu_piecewise_backend.py``), one DeepSeek EPLB's docstring that both projects carry.
A licence or copyright notice line (:mod:`lineage.match.headers`) is no evidence: every file
under that licence carries it, so it ends a run.

On by default since the prose runs (``weak_pair_min_run`` 5; 0 turns it off); the measurements
are at the parameters (:class:`lineage.match.params.MatchParams`).

A pair made only of near lines (a package renamed throughout, every line edited) has no
verbatim run at all; it keeps its lines where the target file names the upstream or stands at
its place or holds most of the target file, and loses them elsewhere: an unmarked file
elsewhere that edited every line it took, beside code of its own, is not told from one written
alike by this rule, and the report prefers to miss it.
"""

from __future__ import annotations

import numpy as np

from lineage.index import CODE
from lineage.match.labels import FileLabeller
from lineage.match.records import VERBATIM


def longest_verbatim_runs(lab: FileLabeller, prose: bool = False) -> dict[int, int]:
    """Per upstream file paired in the target file: its longest run of consecutive target lines
    labelled verbatim from it, each the upstream's next line or at most ``lone_max_skip`` + 1
    lines further on. Without ``prose`` the run is of code lines, comments and docstrings
    skipped on both sides; with it, docstring and comment lines count as code lines do (a
    target comment or docstring line not verbatim is skipped, a licence or copyright notice
    line ends the run: notices are no evidence, :mod:`lineage.match.headers`)."""
    r, rows = lab.result, lab.t_rows
    kinds = lab.target_kinds()
    step = lab.p.lone_max_skip + 1
    counted_rows: dict[int, np.ndarray] = {}  # per upstream file: the physical rows of its counted lines

    def rank(u_file: int, u_row: int) -> int:
        """The upstream line's place among its file's counted lines: without ``prose`` the
        distance between two lines skips the upstream's docstrings and comments as the target's
        are skipped (short functions of a docstring each, copied in order, are one run)."""
        if u_file not in counted_rows:
            u_rows = lab.upstream_lines(u_file)[0]
            counted_rows[u_file] = u_rows if prose else u_rows[lab.upstream_kinds(u_file) == CODE]
        return int(np.searchsorted(counted_rows[u_file], u_row))

    notices = lab.target.header_rows(lab.t_file, lab.t_lines) if prose else None
    best: dict[int, int] = {}
    run, last_file, last_rank = 0, -1, -1
    for tc in (range(len(rows)) if prose else np.flatnonzero(kinds == CODE).tolist()):
        row = rows[tc]
        if r.match[row] != VERBATIM or (notices is not None and notices[row]):
            if kinds[tc] == CODE or r.match[row] == VERBATIM:
                run, last_file = 0, -1
            continue
        u_file = int(r.up_file[row])
        at = rank(u_file, int(r.up_row[row]))
        run = run + 1 if u_file == last_file and 0 < at - last_rank <= step else 1
        last_file, last_rank = u_file, at
        best[u_file] = max(best.get(u_file, 0), run)
    return best


def drop_weak_pairs(lab: FileLabeller, exempt: bool, established: frozenset[int]) -> int:
    """Unpair the lines of every upstream file that is not ``established`` (named by the target
    file's markers or at its place), holds at most ``weak_pair_max_share`` of the target file's
    code lines and shares no run of ``weak_pair_min_run`` verbatim lines with it (code lines;
    with ``weak_pair_prose_runs`` also code and prose lines together), unless
    the target file is ``exempt`` (its markers name the upstream, or it descends from the
    upstream as a whole); returns how many lines."""
    minimum = lab.p.weak_pair_min_run
    if not lab.p.judges_weak_pairs or exempt:
        return 0
    up_file = lab.result.up_file[lab.t_rows]  # per content line; -1: unpaired
    paired_files = set(np.unique(up_file[up_file >= 0]).tolist()) - established
    if not paired_files:
        return 0
    code = lab.target_kinds() == CODE
    most = lab.p.weak_pair_max_share * int(code.sum())
    held = dict(zip(*np.unique(up_file[code & (up_file >= 0)], return_counts=True), strict=True))
    judged = [u for u in paired_files if held.get(u, 0) <= most]
    if not judged:
        return 0
    # a run counts verbatim lines only: a file with fewer than ``minimum`` of them is weak
    # without the runs (which walk every line of the file in Python)
    verbatim = lab.result.match[lab.t_rows] == VERBATIM
    n_verbatim = dict(zip(*np.unique(up_file[verbatim], return_counts=True), strict=True))
    runs: dict[int, int] = {}
    if any(n_verbatim.get(u, 0) >= minimum for u in judged):
        runs = longest_verbatim_runs(lab)
        if lab.p.weak_pair_prose_runs:
            for u_file, run in longest_verbatim_runs(lab, prose=True).items():
                runs[u_file] = max(runs.get(u_file, 0), run)
    weak = [u for u in judged if runs.get(u, 0) < minimum]
    dropped = np.flatnonzero(np.isin(up_file, weak)).tolist()
    for tc in dropped:
        lab.unpair(tc)
    return len(dropped)
