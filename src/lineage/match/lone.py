"""Step 7, lone lines: a paired line that nothing next to it continues is copied only if rare.

Issue 8's definition of a copy: a line is copied from the upstream only as part of copied code
that follows the upstream file in order; a lone idiom is not. Every step before this one places
lines by their position in an established pair: the gap alignment of a region, the fill's
in-order alignment and its lone survivors. Position alone pairs ``else:``,
``super().__init__()``, ``self.hidden_size,`` or a keyword argument of the target's own call
with an upstream line that sits at about the same place; on the real sglang/vLLM pair such
lines were the largest group of false copies left (sglang's own ``else:`` branch paired with
vLLM's, its own validation call's arguments paired by characters with a loop of vLLM's).

So, after the fill, each paired line is checked against the paired lines next to it. It is
**continued** when the previous or the next paired line of the target file is paired with the
same upstream file in order: at the next content line there (or at the same upstream line: a
statement re-wrapped over more target lines) with at most ``lone_max_skip`` target lines of its
own between them; or right after it in the target, with at most ``lone_max_skip`` upstream
lines left out; or with one line edited in place between them on both sides. Two paired
one-line imports next to each other continue each other in any order (isort sorted the
copied block again). A line that is not continued is **lone**, and it stays paired only if it is evidence on its own:

* ``verbatim``: its form is *distinctive* as the idiom rule defines it (found in at most
  ``idiom_max_files`` upstream files, not a lone keyword argument or a row of literals;
  :meth:`lineage.match.idioms.IdiomFilter.rare`) and it is long enough to be a lone survivor
  (``survivor_min_tokens``, ``survivor_min_chars``): a ``raise`` with its message or a rare
  signature that outlived a rewrite stays, ``else:`` goes;
* ``near``: the same, and its similarity reaches ``lone_near_min_similarity``: an edited line
  with nothing copied next to it is a guess unless the two texts are close.

A line dropped here becomes ``none``; nothing is added. The check is made once, on the labels
the earlier steps left (a line is not judged against a neighbour dropped in the same pass), so
the result does not depend on the order of the lines.
"""

from __future__ import annotations

import numpy as np

from lineage.index import CODE
from lineage.match.fill import is_import_line
from lineage.match.idioms import IdiomFilter
from lineage.match.labels import FileLabeller
from lineage.match.records import NEAR, NONE, VERBATIM


def lone_lines(lab: FileLabeller, idioms: IdiomFilter) -> np.ndarray:
    """Content-line indices (of the labeller's file) of the paired lines that are lone and not
    evidence on their own (see the module docstring)."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    match = r.match[rows]
    paired = np.flatnonzero(match != NONE)
    if len(paired) == 0:
        return paired
    start = int(lab.target.file_start[lab.t_file])
    t_code = lab.target.kind[start : start + len(rows)] == CODE
    up_file = r.up_file[rows]
    # Each paired line's upstream position among the content lines of its file.
    u_pos = np.full(len(rows), -10, np.int64)
    for u in np.unique(up_file[paired]).tolist():
        mine = paired[up_file[paired] == u]
        u_rows, _ = lab.upstream_lines(u)
        u_pos[mine] = np.searchsorted(u_rows, r.up_row[rows[mine]])
    is_import = np.zeros(len(rows), bool)
    for tc in paired[t_code[paired]].tolist():
        is_import[tc] = is_import_line(lab.t_lines[rows[tc]].strip())
    continued = np.zeros(len(rows), bool)
    slack = p.lone_max_skip
    at = paired  # content positions of the paired lines, in order
    a, b = at[:-1], at[1:]  # each paired line and the next paired one
    dt = b - a
    du = u_pos[b] - u_pos[a]
    # In order, with a few lines changed between them: the target's own lines inserted (du 1,
    # or 0 for a re-wrapped statement), upstream lines the target left out (dt 1), or one line
    # edited in place on both sides (dt == du == 2). Two imports of one block continue each
    # other in any order: isort sorts a copied block again (the fill's import rule pairs them).
    link = (up_file[a] == up_file[b]) & (
        (((du == 0) | (du == 1)) & (dt <= 1 + slack)) | ((dt == 1) & (du >= 0) & (du <= 1 + slack))
        | ((dt == 2) & (du == 2)) | (is_import[a] & is_import[b] & (dt == 1)))
    continued[a[link]] = True
    continued[b[link]] = True
    lone = paired[~continued[paired]]
    if len(lone) == 0:
        return lone
    glob = lone + start
    rare = idioms.rare(glob, lab.t_lines)
    ntok = lab.target.ntok[glob]
    drop = []
    for k, tc in enumerate(lone.tolist()):
        text = lab.t_lines[rows[tc]].strip()
        evidence = bool(rare[k]) and ntok[k] >= p.survivor_min_tokens and len(text) >= p.survivor_min_chars
        if match[tc] == NEAR:
            evidence = evidence and float(r.similarity[rows[tc]]) >= p.lone_near_min_similarity
        elif match[tc] != VERBATIM:
            evidence = False
        if not evidence:
            drop.append(tc)
    return np.array(drop, np.int64)


def drop_lone_lines(lab: FileLabeller, idioms: IdiomFilter) -> int:
    """Unpair the labeller's lone lines that are no evidence on their own; returns how many."""
    if not lab.p.lone_rule:
        return 0
    drop = lone_lines(lab, idioms)
    for tc in drop.tolist():
        lab.unpair(tc)
    return len(drop)
