"""Statements of one shape, and names renamed throughout: two fill rules of one file pair.

Both run at the end of the fill of one (target file, upstream file) pair
(:func:`lineage.match.fill.fill`), read only that pair's lines and labels, and never look at
another target file (so the per-file match cache stays valid).

* **Same-shape statements** (:func:`complete_same_shape`, ``fill_shape_max_lines``). A copied
  call that a formatter broke one argument a line *and* whose literal or name was edited
  (``mod.replace(`` / ``target,`` / ``"dapple",`` / ``)`` <- ``mod.replace(target, "chardet")``)
  keeps its first pieces paired (the character alignment finds them inside the upstream line),
  but the edited piece shares no word with the upstream statement (the statement rule's word
  share) and its ``)`` then closes nothing paired. The two statements have the same *shape*:
  the same tokens once every name, string and number is abstracted (``I``, ``S``, ``N``;
  keywords and punctuation kept; a trailing comma before a closing bracket dropped, the one a
  formatter adds). Token for token, then, each target piece is the upstream text its first token
  stands in, so a statement with at least one line already paired with the line its shape puts
  it at (a witness) is paired whole. A piece the labeller had paired by its text with an
  identical short line elsewhere in the upstream file (``v,`` with another call's ``v,``: not
  distinctive, out of order) is moved to its place in the statement. Nothing is paired when an
  upstream line of the statement is already another target line's, nor in a ``def`` or
  ``class`` statement (a signature's shape is the interface's), nor when fewer than
  ``fill_shape_min_same`` of the two statements' tokens are the same as written. On the synthetic suite these
  were most of the near lines left in the mixed cases (re-wrapped calls with an edited literal).
* **Witnessed renames** (:func:`pair_renamed`, ``fill_rename_min_witnesses``). A fork that
  renamed a name renamed it on every line (``msg`` -> ``quarry_moss``); the lines where that is
  the only edit are near copies, but short ones (``self.msg = msg``) are too unlike their
  upstream line for the edited-line rule's similarity. Every near pair of the file pair whose
  two lines differ only by names (same tokens elsewhere) *witnesses* those renames; a name the
  pair renames two ways is no rename. Then, between two paired lines of the pair (at most
  ``align_max_gap`` lines apart, as inside a copy), and outward from the pair's first and last
  paired lines while each next line matches, a free line equal token for token to a free
  upstream line with its names renamed as witnessed (at least one rename, every rename witnessed
  at least ``fill_rename_min_witnesses`` times) is paired with it, in order (an LCS). A name
  written alike on both sides needs no witness; a literal edited is no rename.

Defaults (measured on the real cases, 2026-12-04, branch recall7). The same-shape rule runs only
in a target file of the upstream file's own name (``fill_shape_own_file``), only where at most
``fill_shape_max_edits`` (2) tokens differ as written, and moves no piece
(``fill_shape_move_pieces`` 0): in every pair it paired the ``__slots__`` names and log-call
arguments of files written after the renamed fork (5 false copies on its git truth); so limited,
the fork gains 8 true lines and no false copy, survival 3. The renames rule works only in
own-name files (``fill_rename_own_file``), with renames more lines witness than keep a name
(``fill_rename_kept_names``), each witnessed by at least 2 near pairs
(``fill_rename_min_witnesses``; with 1 it paired ``layer_id=layer_id,`` with
``cache_config=cache_config,`` on sglang/vLLM, one other argument line witnessing the "rename"):
on the fork 6 true lines and 1 false copy (a sentinel nextcord renamed, ``MISSING`` <-
``_undefined``, that its git truth counts as new). Synthetic near recall at these defaults
(2026-12-04): ``requests/mixed`` 0.956, ``attrs/rename_identifiers`` 0.970 (0.948 and 0.940
with the renames rule off).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

import numpy as np
from rapidfuzz.distance import Indel

from lineage.index import CODE
from lineage.index.normalise import abstract_token
from lineage.match.labels import FileLabeller, pair_label
from lineage.match.records import NONE
from lineage.match.statements import line_tokens

_CLOSERS = frozenset(")]}")
_STARTERS = ("def ", "async def ", "class ", "@")


def _is_name(token: str) -> bool:
    """A name the author chose (not a keyword, ``self`` or ``cls``): what a rename can change."""
    return abstract_token(token) == "I"


def shape(lines: list[str]) -> tuple[list[str], list[int]]:
    """A statement's abstract tokens (:func:`lineage.index.normalise.abstract_token`, the index's
    abstract form) and the line each comes from; a
    comma before a closing bracket is dropped (as :func:`~lineage.match.statements.statement_key`
    does)."""
    tokens, owner = shape_text(lines)
    return [abstract_token(t) for t in tokens], owner


def shape_text(lines: list[str]) -> tuple[list[str], list[int]]:
    """A statement's tokens as written (quotes unified) and the line each comes from, a comma
    before a closing bracket dropped."""
    tokens: list[str] = []
    owner: list[int] = []
    for k, text in enumerate(lines):
        for token in line_tokens(text.strip()):
            if token in _CLOSERS and tokens and tokens[-1] == ",":
                tokens.pop()
                owner.pop()
            tokens.append(token)
            owner.append(k)
    return tokens, owner


def line_map(t_lines: list[str], u_lines: list[str], min_same: float = 0.0,
             max_edits: int = 0) -> list[int] | None:
    """For two statements of the same shape, the upstream line each target line copies (the one
    holding the token its first token stands for; a line whose only token was a dropped comma
    goes with the previous line's); None when the shapes differ, or when fewer than
    ``min_same`` of their tokens are the same as written (a list of other keyword arguments
    has the shape of the upstream's, ``x=x,`` for ``y=y,``; an edit changes one or two), or
    (``max_edits`` above 0) when more than ``max_edits`` tokens differ (a long statement
    rewritten entry by entry keeps most of its tokens: ``__slots__`` with three names renamed)."""
    t_tokens, t_owner = shape(t_lines)
    u_tokens, u_owner = shape(u_lines)
    if not t_tokens or t_tokens != u_tokens:
        return None
    t_text, _ = shape_text(t_lines)
    u_text, _ = shape_text(u_lines)
    same = sum(a == b for a, b in zip(t_text, u_text, strict=True))
    if same < min_same * len(t_text) or (max_edits > 0 and len(t_text) - same > max_edits):
        return None
    first: dict[int, int] = {}
    for k, line in enumerate(t_owner):
        first.setdefault(line, u_owner[k])
    out: list[int] = []
    for line in range(len(t_lines)):
        out.append(first.get(line, out[-1] if out else 0))
    return out


def complete_same_shape(lab: FileLabeller, t_ids: np.ndarray, u_ids: np.ndarray, u_file: int) -> int:
    """Pair the rest of each target statement that has a line paired with ``u_file`` where the
    shape of an upstream statement puts it (see the module docstring); ``t_ids``/``u_ids``:
    statement numbers of the target file and of the upstream file
    (:func:`~lineage.match.statements.statement_ids`). Returns the number of lines paired."""
    r, rows = lab.result, lab.t_rows
    u_rows, u_lines = lab.upstream_lines(u_file)
    match = r.match[rows]
    mine = np.flatnonzero((match != NONE) & (r.up_file[rows] == u_file))
    if not len(mine):
        return 0
    paired_uc = np.searchsorted(u_rows, r.up_row[rows[mine]])
    holders: dict[int, set[int]] = defaultdict(set)  # upstream content line -> target lines on it
    for tc, uc in zip(mine.tolist(), paired_uc.tolist(), strict=True):
        holders[uc].add(tc)
    by_stmt: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for tc, uc in zip(mine.tolist(), paired_uc.tolist(), strict=True):
        if t_ids[tc] >= 0:
            by_stmt[int(t_ids[tc])].append((tc, uc))
    t_members = _members(t_ids, set(by_stmt))
    u_members = _members(u_ids, {int(u_ids[uc]) for pairs in by_stmt.values() for _, uc in pairs if u_ids[uc] >= 0})
    done = 0
    for sid, pairs in by_stmt.items():
        t_stmt = t_members[sid]
        if len(pairs) == len(t_stmt) and all(u_ids[uc] == u_ids[pairs[0][1]] for _, uc in pairs):
            continue  # whole and from one upstream statement: nothing to complete
        t_texts = [lab.t_lines[rows[tc]] for tc in t_stmt]
        if t_texts[0].strip().startswith(_STARTERS):
            # A signature's shape is its parameter list, which every implementation of one
            # interface shares (``def create_weights(self, layer, num_experts, ...)`` of each
            # MoE quantisation method on the sglang/vLLM pair): no evidence of a copy.
            continue
        for usid in sorted({int(u_ids[uc]) for _, uc in pairs if u_ids[uc] >= 0}):
            u_stmt = u_members[usid]
            if len(t_stmt) == 1 and len(u_stmt) == 1:
                continue
            mapping = line_map(t_texts, [u_lines[u_rows[uc]] for uc in u_stmt], lab.p.fill_shape_min_same,
                               lab.p.fill_shape_max_edits)
            if mapping is None:
                continue
            want = {tc: u_stmt[j] for tc, j in zip(t_stmt, mapping, strict=True)}
            if not any(want[tc] == uc for tc, uc in pairs):
                continue  # no line of it is where the shape puts it
            if any(holders[uc] - set(t_stmt) for uc in u_stmt):
                continue  # the upstream statement is another target line's
            number = int(r.region[rows[next(tc for tc, uc in pairs if want[tc] == uc)]])
            done += _pair_as_shaped(lab, u_file, want, number)
            break
    return done


def _members(ids: np.ndarray, wanted: set[int]) -> dict[int, list[int]]:
    """The lines of each wanted statement, in order."""
    if not wanted:
        return {}
    out: dict[int, list[int]] = defaultdict(list)
    for line in np.flatnonzero(np.isin(ids, np.fromiter(wanted, np.int64))).tolist():
        out[int(ids[line])].append(line)
    return dict(out)


def _pair_as_shaped(lab: FileLabeller, u_file: int, want: dict[int, int], number: int) -> int:
    r, rows = lab.result, lab.t_rows
    u_rows, u_lines = lab.upstream_lines(u_file)
    start = int(lab.target.file_start[lab.t_file])
    done = 0
    for tc, uc in want.items():
        row = rows[tc]
        if r.match[row] != NONE:
            if r.up_file[row] != u_file or int(np.searchsorted(u_rows, r.up_row[row])) == uc:
                continue  # another upstream file's, or already in its place
            if not lab.p.fill_shape_move_pieces:
                continue  # paired elsewhere by its text: left there
            text = lab.t_lines[row].strip()
            if lab.distinctive(text, int(lab.target.ntok[start + tc])):
                continue  # a line that says by itself where it came from stays there
        elif int(lab.claims.owner[tc]) >= 0 and lab.claims.claimed[int(lab.claims.owner[tc])].up_file != u_file:
            continue  # inside another upstream file's region
        labelled = pair_label(lab.t_lines[row].strip(), u_lines[u_rows[uc]].strip(), lab.p, lab.packages(u_file))
        if labelled is None:
            continue
        lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
        done += 1
    return done


def witnessed_renames(pairs: list[tuple[list[str], list[str]]], kept_counts: bool = False) -> Counter:
    """(upstream name, target name) -> how many line pairs witness that rename: pairs of lines
    with the same tokens but for names. A name renamed two ways is dropped. With
    ``kept_counts``, so is a rename that no more lines witness than keep one of its two names
    as written on both sides (a pair of the same tokens holding the name at the same place):
    a fork that renamed ``msg`` renamed it everywhere, while ``entries = reversed(entries)`` <-
    ``data = reversed(data)`` stands in a file whose other copied lines keep both ``data``
    and ``entries`` (other code that took the old lines' place)."""
    seen: Counter = Counter()
    kept: Counter = Counter()
    for t_tokens, u_tokens in pairs:
        if len(t_tokens) != len(u_tokens):
            continue
        if kept_counts:
            kept.update({t for t, u in zip(t_tokens, u_tokens, strict=True) if t == u and _is_name(t)})
        if t_tokens == u_tokens:
            continue
        found = {}
        for t, u in zip(t_tokens, u_tokens, strict=True):
            if t == u:
                continue
            if not (_is_name(t) and _is_name(u)) or found.get(u, t) != t:
                found = {}
                break
            found[u] = t
        for u, t in found.items():
            seen[(u, t)] += 1
    targets: dict[str, set[str]] = defaultdict(set)
    sources: dict[str, set[str]] = defaultdict(set)
    for u, t in seen:
        targets[u].add(t)
        sources[t].add(u)
    return Counter({(u, t): n for (u, t), n in seen.items() if len(targets[u]) == 1 and len(sources[t]) == 1
                    and n > kept[u] and n > kept[t]})


def pair_renamed(lab: FileLabeller, u_file: int,
                 increasing_pairs: Callable[[list[int], list[int]], list[tuple[int, int]]]) -> int:
    """Pair the free lines of the pair that equal a free upstream line up to witnessed renames
    (see the module docstring); returns the number of lines paired. ``increasing_pairs``: the
    fill's longest in-order chain of paired lines (its anchors)."""
    p = lab.p
    if p.fill_rename_min_witnesses <= 0:
        return 0
    r, rows = lab.result, lab.t_rows
    u_rows, u_lines = lab.upstream_lines(u_file)
    t_start, u_start = int(lab.target.file_start[lab.t_file]), int(lab.upstream.file_start[u_file])
    match = r.match[rows]
    mine = np.flatnonzero((match != NONE) & (r.up_file[rows] == u_file))
    if len(mine) == 0:
        return 0
    paired_uc = np.searchsorted(u_rows, r.up_row[rows[mine]])
    witnesses = []
    code = lab.target.kind[t_start + mine] == CODE  # the kind test on the arrays, once
    for row, u_row in zip(rows[mine[code]].tolist(), u_rows[paired_uc[code]].tolist(), strict=True):
        t_text, u_text = lab.t_lines[row].strip(), u_lines[u_row].strip()
        t_tokens = line_tokens(t_text)
        # a verbatim pair's tokens are one list (read, never changed)
        witnesses.append((t_tokens, t_tokens if u_text == t_text else line_tokens(u_text)))
    renames = {u: t for (u, t), n in witnessed_renames(witnesses, bool(p.fill_rename_kept_names)).items()
               if n >= p.fill_rename_min_witnesses}
    if not renames:
        return 0
    renamed_targets = set(renames.values())
    used = set(paired_uc.tolist())
    anchors = increasing_pairs(mine.tolist(), paired_uc.tolist())
    n_t, n_u = len(rows), len(u_rows)

    def t_key(tc: int) -> tuple[str, ...] | None:
        if lab.target.kind[t_start + tc] != CODE or r.match[rows[tc]] != NONE:
            return None
        owner = int(lab.claims.owner[tc])
        if owner >= 0 and lab.claims.claimed[owner].up_file != u_file:
            return None
        return tuple(line_tokens(lab.t_lines[rows[tc]].strip()))

    def u_key(uc: int) -> tuple[str, ...] | None:
        if uc in used or lab.upstream.kind[u_start + uc] != CODE:
            return None
        tokens = line_tokens(u_lines[u_rows[uc]].strip())
        out = tuple(renames.get(t, t) for t in tokens)
        # At least one witnessed rename; a name the target uses for a renamed one is no
        # unchanged name here (``msg`` kept while ``value`` -> ``msg`` elsewhere: not this copy).
        if len(tokens) < 2 or not any(t in renames for t in tokens) or any(
                t in renamed_targets and t not in renames for t in tokens):
            return None
        return out

    def pair(tc: int, uc: int, number: int) -> bool:
        labelled = pair_label(lab.t_lines[rows[tc]].strip(), u_lines[u_rows[uc]].strip(), p, lab.packages(u_file))
        if labelled is None:
            return False
        lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
        used.add(uc)
        return True

    done = 0
    for (ta, ua), (tb, ub) in zip(anchors, anchors[1:], strict=False):
        if tb - ta - 1 > p.align_max_gap or ub - ua - 1 > p.align_max_gap or tb - ta < 2 or ub - ua < 2:
            continue
        t_span, u_span = list(range(ta + 1, tb)), list(range(ua + 1, ub))
        t_keys, u_keys = [t_key(tc) for tc in t_span], [u_key(uc) for uc in u_span]
        if not any(u_keys) or not any(t_keys):
            continue
        ids: dict[tuple[str, ...], int] = {}
        t_ints = [ids.setdefault(k, len(ids)) if k else -1 - i for i, k in enumerate(t_keys)]
        u_ints = [ids.setdefault(k, len(ids)) if k else -(10 ** 9) - j for j, k in enumerate(u_keys)]
        number = int(r.region[rows[ta]])
        for op in Indel.opcodes(t_ints, u_ints):
            if op.tag == "equal":
                for i, j in zip(range(op.src_start, op.src_end), range(op.dest_start, op.dest_end), strict=True):
                    done += pair(t_span[i], u_span[j], number)
    # Outward from the first and the last paired line, while each next line matches.
    if anchors:
        for (tc, uc), step in ((anchors[0], -1), (anchors[-1], 1)):
            number = int(r.region[rows[tc]])
            while True:
                tc, uc = _next_content(lab, tc, step, n_t, True), _next_upstream(lab, u_file, uc, step, n_u)
                if tc is None or uc is None:
                    break
                key = t_key(tc)
                if key is None or key != u_key(uc) or not pair(tc, uc, number):
                    break
                done += 1
    return done


def _next_content(lab: FileLabeller, tc: int, step: int, n: int, code_only: bool) -> int | None:
    """The next code line of the target file from ``tc`` in direction ``step``."""
    start = int(lab.target.file_start[lab.t_file])
    tc += step
    while 0 <= tc < n and code_only and lab.target.kind[start + tc] != CODE:
        tc += step
    return tc if 0 <= tc < n else None


def _next_upstream(lab: FileLabeller, u_file: int, uc: int, step: int, n: int) -> int | None:
    start = int(lab.upstream.file_start[u_file])
    uc += step
    while 0 <= uc < n and lab.upstream.kind[start + uc] != CODE:
        uc += step
    return uc if 0 <= uc < n else None
