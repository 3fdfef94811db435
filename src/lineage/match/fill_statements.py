"""The fill's statement rules (step 6, :mod:`lineage.match.fill`; their reasons below): statements
edited in place between aligned lines (:func:`edited_statements`), the rest of a statement some of
whose lines are paired (:func:`complete_statements`), statements re-wrapped in place that cut a
stretch (:func:`split_at_rewrapped`, with the stray pieces it may take back), and signatures that
outlived a rewrite (:func:`signature_survivors`). Each pairs a target statement line by line with
the upstream statement's lines (:func:`pair_statement`); a file's statements
(:class:`~lineage.match.file_statements.Statements`) are numbered once per run (an upstream
file's kept in its :class:`~lineage.match.hits.Side`).

* **Statements re-wrapped in place** (:func:`~lineage.match.fill_statements.split_at_rewrapped`,
  ``fill_rewrapped_max_lines``, on by default). Inside a stretch between two anchors, a statement
  whose tokens (without type annotations) are those of one upstream statement of the stretch, each
  found once there and of several lines on one side, is Black's re-wrap of it: no piece of it
  aligns by its fold form, so it is paired piece by piece first and the stretch is cut at it. It
  judges no similarity, unlike the statement rule (``fill_statement_max_lines``; the similar
  statements of :mod:`lineage.match.statements`, on by default since recall5 but only in a file of
  the upstream file's own name, :func:`~lineage.match.fill_lines.statement_rule`): on the real
  renamed fork it raised recall 0.849 -> 0.881 with precision 0.965 -> 0.966, and on the
  sglang/vLLM pair it added about 50 code lines, its truth-set scores unchanged. A statement found
  once on each side can still be one moved past copied lines; cut there, the stretch would lose
  them, so a statement pair that crosses more of the stretch's fold-form alignments than it has
  lines is not used (sglang's ``gemma3n_causal.py`` moved ``first_kv_shared_layer_idx = (...)``
  below a copied ``o_proj`` call and lost its 17 lines). A piece a region paired alone out of the
  pair's order (``bound_setattr(``, the opening line of another exploded call upstream) counts as
  free here (:func:`~lineage.match.fill_statements._strays`, ``fill_rewrapped_strays``), so the
  call it belongs to is whole again.
* **Signatures that outlived a rewrite**
  (:func:`~lineage.match.fill_statements.signature_survivors`, ``fill_signature_survivors``; where
  the statement rule works): a ``def`` statement exploded and edited (a parameter added) next to a
  rewritten body is paired as a statement with the upstream ``def`` of the same name, a name each
  file defines once, in order with the pair (between the upstream lines of its nearest paired
  lines that are distinctive: an ``else:`` the alignment placed by position, which the lone-line
  rule may drop, bounds nothing). A ``class`` header too (``fill_signature_classes``: ``class
  BaseAdapter:`` <- ``class BaseAdapter(object):``), and a statement of one line on both sides
  (``fill_signature_one_line``), but not a dunder method's: ``def __str__(self) -> str:`` is
  every class's protocol, written alike by anyone, unless the two are the same class's
  (``fill_signature_same_class_dunders``: ``def Asset.__str__`` in both files). A ``def`` below
  ``@overload`` declares its name and does not count as defining it (``fill_signature_overloads``).
  When the word share refuses every line of a survivor (a one-line signature that gained
  parameters keeps too few of the old words), its name line is paired with the upstream
  statement's first line all the same (``fill_signature_name_line``): the name, the order and
  the statements' likeness are the evidence, and the parameters it added sit on that line.
* **Collections that outlived an edit** (:func:`~lineage.match.fill_statements.collection_survivors`,
  ``fill_collection_survivors``; where the statement rule works): a literal collection assigned to
  a name (``__slots__ = (``, ``__all__ = [``) that Black exploded one item a line while items were
  added, dropped or reordered is paired with the one upstream assignment of that name that lies in
  order with the pair, each kept item with the upstream line holding it; an added item stays new.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from rapidfuzz import fuzz, process

from lineage.index import CODE
from lineage.match.file_statements import (
    DEF_NAME,
    DUNDER,
    Statements,
    bare_name,
    is_overload,
    parameter_names,
)
from lineage.match.fill_lines import (
    align_keys,
    fold_form,
    increasing_pairs,
    is_free,
    is_own_file,
    pair_of,
    stretch_keys,
)
from lineage.match.imports import import_module
from lineage.match.labels import FileLabeller, pair_label
from lineage.match.records import NEAR, NONE
from lineage.match.statements import (
    best_in_order,
    line_partners,
    piece_text,
    statement_key,
    statement_lines,
    whole_statements,
    words,
)


def signature_survivors(lab: FileLabeller, statements: Statements, u_file: int) -> None:
    """Lone survivors as statements (``fill_signature_survivors``; see its comment in
    :class:`~lineage.match.params.MatchParams`). Once the pair's other rules are done: a target
    ``def`` statement with a free line, whose other lines (if any) are paired with the upstream
    ``def`` statement of the same name, is paired with it when that name is defined once in each
    whole file (``__init__``, ``forward`` of a model file's many classes are not: there the same
    name is another class's interface), the two statements are ``fill_statement_min_similarity``
    alike and the upstream statement lies between the upstream lines of the pair's paired lines
    around it (in order with the copy). Each line goes to the upstream line it copies
    (:func:`pair_statement`); a parameter the target added stays new."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    # The names first, by a text scan: the statements (tokenised lines) only for the pairs
    # that share one.
    names = statements.target_names_once() & statements.upstream_names_once(u_file)
    if not p.fill_signature_classes:
        names = frozenset(name for name in names if not name.startswith("class "))
    found: list[tuple[list[int], list[int], str]] = []
    if names:
        t_defs = statements.target_defs(p.fill_statement_max_lines, names)
        u_defs = statements.upstream_defs(u_file, p.fill_statement_max_lines, names)
        found = [(t_stmt, u_defs[name], name) for name, t_stmt in t_defs.items() if name in u_defs]
    if p.fill_signature_qualified:
        # A name each file defines more than once (``__init__``, ``edit`` of several classes) is
        # one definition by its classes: ``def Guild.edit`` with ``def Guild.edit``.
        u_qualified = statements.upstream_qualified_defs(u_file, p.fill_statement_max_lines)
        if u_qualified:
            t_named = {t_stmt[0] for t_stmt, _, _ in found}
            u_named = {u_stmt[0] for _, u_stmt, _ in found}
            found += [(t_stmt, u_qualified[key], key)
                      for key, t_stmt in statements.target_qualified_defs(p.fill_statement_max_lines).items()
                      if key in u_qualified and bare_name(key) not in names and t_stmt[0] not in t_named
                      and u_qualified[key][0] not in u_named
                      and (p.fill_signature_classes or not key.startswith("class "))
                      and _keeps_parameters(lab, u_file, t_stmt, u_qualified[key])]
    if not found:
        return
    found.sort()
    u_rows, _ = lab.upstream_lines(u_file)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    bounding = statements.target_distinctive()
    same_class = _same_class_dunders(lab, statements, u_file) if p.fill_signature_same_class_dunders else set()
    for t_stmt, u_stmt, name in found:
        if max(len(t_stmt), len(u_stmt)) < 2 and (
                not p.fill_signature_one_line
                or (DUNDER.fullmatch(bare_name(name)) and (t_stmt[0], u_stmt[0]) not in same_class)):
            continue  # one line each: only by the one-line rule, and a protocol method only of its class
        free = [tc for tc in t_stmt if is_free(lab, u_file, tc)]
        taken = [tc for tc in t_stmt if not is_free(lab, u_file, tc)]
        if not free or any(not mine[tc] for tc in taken):
            continue
        taken_uc = set(np.searchsorted(u_rows, r.up_row[rows[taken]]).tolist())
        if not taken_uc <= set(u_stmt):
            continue
        # In order: between the upstream lines of the pair's paired lines before and after it.
        paired = np.flatnonzero(mine & bounding)
        before, after = paired[paired < t_stmt[0]], paired[paired > t_stmt[-1]]
        lo = int(np.searchsorted(u_rows, r.up_row[rows[before[-1]]])) if len(before) else -1
        hi = int(np.searchsorted(u_rows, r.up_row[rows[after[0]]])) if len(after) else len(u_rows)
        if not len(before) + len(after):
            continue
        if not (lo < u_stmt[0] and u_stmt[-1] < hi) and not (
                p.fill_signature_any_order and name.startswith("def ")
                and not np.isin(u_rows[u_stmt], r.up_row[rows[mine]]).any()):
            continue  # out of order, unless a function moved within its file (its header free)
        if _statement_similarity(lab, u_file, t_stmt, u_stmt) < p.fill_statement_min_similarity:
            continue
        number = int(r.region[rows[before[-1] if len(before) else after[0]]])
        if pair_statement(lab, u_file, t_stmt, u_stmt, number):
            mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
        elif p.fill_signature_name_line:
            # A name line paired by its name alone bounds no later survivor (``mine`` stays).
            _pair_name_line(lab, u_file, t_stmt, u_stmt, number)


def second_copy_headers(lab: FileLabeller, statements: Statements, u_file: int) -> None:
    """The header of a second copy (``fill_second_copy_headers``; see its comment in
    :class:`~lineage.match.params.MatchParams`). A fork that copies a method into a sibling
    class (nextcord's ``VoiceChannel.create_webhook`` and ``ForumChannel.create_webhook``, both
    ``TextChannel.create_webhook`` of discord.py with its docstring and body) holds the upstream
    function twice: the regions take the second body as they took the first, but the
    signature, exploded and annotated the same way in both, is left to the statement rules,
    which pair an upstream line once per target file and a name only where each file defines it
    once. Here a target ``def`` statement (no ``@overload`` declaration) all of whose lines are
    free is paired with the upstream ``def`` statement of the same name (each line with the line
    it copies, :func:`pair_statement`) when the target line right below it (the body's first) is
    paired with the upstream line right below that statement, and both that upstream line and
    every line of the upstream statement are paired with other target lines of the file as well:
    the function is copied there already, so this one is a second copy of it, signature and body
    alike. The two statements must be ``fill_statement_min_similarity`` alike (annotations cut,
    as the signature survivors compare them)."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    max_lines, overloads = p.fill_statement_max_lines, bool(p.fill_signature_overloads)
    u_name, u_keys = statements.upstream_def_numbers(u_file, max_lines, overloads)
    if not u_keys:
        return
    u_rows, _ = lab.upstream_lines(u_file)
    lines = statements.target_texts()
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    for t_stmt, key in statements.target_def_statements(max_lines):
        body = t_stmt[-1] + 1
        if body >= len(lines) or not mine[body] or (overloads and is_overload(lines, t_stmt[0])):
            continue
        ub = int(np.searchsorted(u_rows, r.up_row[rows[body]]))
        number = int(u_name[ub - 1]) if ub > 0 else -1
        if number < 0 or u_keys[number] != key or int(u_name[ub]) == number:
            continue  # the body's first line is not the first below a same-named upstream header
        u_stmt = np.flatnonzero(u_name == number).tolist()
        copied = r.up_row[rows[mine]]
        if (np.count_nonzero(copied == r.up_row[rows[body]]) < 2
                or not np.isin(u_rows[u_stmt], copied).all()):
            continue  # not a second copy: the statement rules' own case
        if not all(is_free(lab, u_file, tc) for tc in t_stmt):
            continue
        if _statement_similarity(lab, u_file, t_stmt, u_stmt) < p.fill_statement_min_similarity:
            continue
        if pair_statement(lab, u_file, t_stmt, u_stmt, int(r.region[rows[body]])):
            mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)


def _same_class_dunders(lab: FileLabeller, statements: Statements, u_file: int) -> set[tuple[int, int]]:
    """(target line, upstream line) of the dunder ``def`` statements whose qualified keys
    (``def Asset.__str__``) are equal, each defined once in its file
    (``fill_signature_same_class_dunders``)."""
    max_lines = lab.p.fill_statement_max_lines
    u_qualified = statements.upstream_qualified_defs(u_file, max_lines)
    return {(t_stmt[0], u_qualified[key][0])
            for key, t_stmt in statements.target_qualified_defs(max_lines).items()
            if key in u_qualified and key.startswith("def ") and DUNDER.fullmatch(bare_name(key))}


def _pair_name_line(lab: FileLabeller, u_file: int, t_stmt: list[int], u_stmt: list[int], number: int) -> None:
    """Pair a signature survivor's name line with the upstream statement's first line
    (``fill_signature_name_line``), near at their text's similarity without annotations, when it
    is free. The caller has found the two statements to be one definition."""
    tc = t_stmt[0]
    if not is_free(lab, u_file, tc):
        return
    u_rows, u_lines = lab.upstream_lines(u_file)
    text, u_text = lab.t_lines[lab.t_rows[tc]].strip(), u_lines[u_rows[u_stmt[0]]].strip()
    if DEF_NAME.match(text) is not None:
        similarity = min(fuzz.ratio(piece_text(text), piece_text(u_text)) / 100.0, 0.999)
        lab.set_pair(tc, u_file, int(u_rows[u_stmt[0]]), NEAR, similarity, number)
        lab.name_only.setdefault(u_file, set()).add(tc)


def misnamed_headers(lab: FileLabeller, statements: Statements, u_file: int) -> None:
    """Headers given to the wrong definition (``fill_header_names``; see its comment in
    :class:`~lineage.match.params.MatchParams`): in a pair the statement rule works in, a target
    ``def`` statement whose paired lines all lie in one upstream ``def`` statement (a definition,
    not an ``@overload`` declaration) of another name, or which is an ``@overload`` declaration
    itself, is unpaired from it when the target file
    defines the upstream statement's name once itself (not as a declaration): that definition
    is the upstream function's later version, and the signature survivors (run next) may give
    it its header. The region or the alignment paired the header placed first, by position,
    piece by piece with a signature of one line (near lines only: a header with a line equal to
    one of the upstream statement's, both exploded, is that signature copied, whatever name it
    took: sglang's new kernels open with the parameter lines of vLLM's)."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    own = statements.target_names_once()
    if not own:
        return
    t_lines = statements.target_texts()
    u_rows, _ = lab.upstream_lines(u_file)
    overloads = bool(p.fill_signature_overloads)
    # content line -> number of its def statement; an upstream declaration is no definition
    u_name, u_keys = statements.upstream_def_numbers(u_file, p.fill_statement_max_lines, overloads)
    # (a header of one line was paired by its whole text: a function renamed)
    for stmt, key in statements.target_def_headers(p.fill_statement_max_lines):
        taken = [tc for tc in stmt if r.match[rows[tc]] != NONE and r.up_file[rows[tc]] == u_file]
        if not taken or any(r.match[rows[tc]] != NEAR for tc in taken):
            continue  # a line equal to one of the upstream statement's: its signature copied whole
        found = set(u_name[np.searchsorted(u_rows, r.up_row[rows[taken]])].tolist())
        if len(found) != 1 or -1 in found:
            continue
        theirs = u_keys[found.pop()]
        declaration = overloads and is_overload(t_lines, stmt[0])
        if (theirs != key or declaration) and theirs in own:
            for tc in taken:
                lab.unpair(tc)


def collection_survivors(lab: FileLabeller, statements: Statements, u_file: int) -> None:
    """Collections as statements (``fill_collection_survivors``; see its comment in
    :class:`~lineage.match.params.MatchParams`). Once the pair's other rules are done: a target
    statement of several lines that opens a collection assigned to a name at the end of its first
    line, with a free line and its other lines (if any) paired with ``u_file`` inside the
    candidate, is paired with an upstream statement assigning a collection to that name between
    the upstream lines of the pair's in-order paired lines above and below it: the one of which
    most of the target statement's items (its lines after the first that hold words) are copies
    by :func:`~lineage.match.statements.line_partners`, the nearest on a tie, when that is at
    least one and at least half of them (a kept collection, edited, not a new one of the same
    name). Each line goes to the upstream line it copies (:func:`pair_statement`)."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    heads = statements.target_collections(p.fill_statement_max_lines)
    if not heads:
        return
    by_name = statements.upstream_collections(u_file, p.fill_statement_max_lines)
    if not by_name:
        return
    t_lines = statements.target_texts()
    u_texts = statements.upstream_texts(u_file)
    u_rows, _ = lab.upstream_lines(u_file)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)
    for _, (name, t_stmt) in sorted(heads.items()):
        candidates = by_name.get(name)
        free = [tc for tc in t_stmt if is_free(lab, u_file, tc)]
        if not candidates or not free:
            continue
        taken = [tc for tc in t_stmt if not is_free(lab, u_file, tc)]
        if any(not mine[tc] for tc in taken):
            continue
        # In order with the pair: the first such assignment after the copy's part above the
        # statement (the longest in-order chain of its paired lines there: a line moved up from
        # further down, an import, must not set the bound), else the last before its part below.
        paired = np.flatnonzero(mine)
        paired_uc = np.searchsorted(u_rows, r.up_row[rows[paired]])
        above = increasing_pairs(paired[paired < t_stmt[0]].tolist(), paired_uc[paired < t_stmt[0]].tolist())
        below = increasing_pairs(paired[paired > t_stmt[-1]].tolist(), paired_uc[paired > t_stmt[-1]].tolist())
        taken_uc = set(np.searchsorted(u_rows, r.up_row[rows[taken]]).tolist())
        fits = [u for u in candidates if taken_uc <= set(u)]
        if not above and not below:
            continue
        if above:
            fits = [u for u in fits if u[0] > above[-1][1]]
        if below:
            fits = [u for u in fits if u[-1] < below[0][1]]
        if not above:
            fits = fits[::-1]  # nearest to the part below first
        # The items decide, not the head (its name is every candidate's): the candidate between
        # the bounds that holds most of them, the nearest on a tie, and at least half of them.
        worded = [k for k, tc in enumerate(t_stmt) if k > 0 and words(t_lines[tc])]
        best, u_stmt = 0, None
        for u in fits:
            partners = line_partners([t_lines[tc] for tc in t_stmt], [u_texts[uc] for uc in u],
                                     p.fill_statement_min_word_share, bool(p.fill_strip_annotations))
            kept = sum(partners[k] is not None for k in worded)
            if kept > best:
                best, u_stmt = kept, u
        if u_stmt is None or 2 * best < len(worded):
            continue
        number = int(r.region[rows[above[-1][0] if above else below[0][0]]])
        if pair_statement(lab, u_file, t_stmt, u_stmt, number):
            mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file)


def pair_statement(lab: FileLabeller, u_file: int, t_stmt: list[int], u_stmt: list[int], number: int) -> bool:
    """Pair the free lines of target statement ``t_stmt`` with the lines of upstream statement
    ``u_stmt`` they copy (:func:`~lineage.match.statements.line_partners`); True if any was."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    t_texts = [lab.t_lines[lab.t_rows[tc]] for tc in t_stmt]
    u_texts = [u_lines[u_rows[uc]] for uc in u_stmt]
    any_paired = False
    partners = line_partners(t_texts, u_texts, lab.p.fill_statement_min_word_share,
                             bool(lab.p.fill_strip_annotations),
                             bool(lab.p.fill_statement_kept_keywords) and is_own_file(lab, u_file),
                             bool(lab.p.fill_added_arguments),
                             bool(lab.p.fill_statement_kept_keys) and is_own_file(lab, u_file),
                             bool(lab.p.fill_statement_identical_lines),
                             lab.p.fill_kept_arguments_min_share, lab.p.fill_kept_arguments_min_words,
                             bool(lab.p.fill_statement_named_arguments and lab.p.fill_statement_kept_keywords)
                             and is_own_file(lab, u_file),
                             bool(lab.p.fill_statement_string_words), bool(lab.p.fill_statement_kept_target))
    for tc, text, j in zip(t_stmt, t_texts, partners, strict=True):
        if j is None or not is_free(lab, u_file, tc):
            continue
        labelled = pair_label(text.strip(), u_texts[j].strip(), lab.p, lab.packages(u_file))
        if labelled is None and lab.p.fill_strip_annotations:
            # A piece that only the annotations set apart (``reason: Optional[str] = None,``
            # of ``def delete_channel(self, channel_id, *, reason=None):``) is near as its
            # pieces compare without them.
            bare = pair_label(piece_text(text), piece_text(u_texts[j]), lab.p, lab.packages(u_file))
            labelled = (NEAR, min(bare[1], 0.999)) if bare is not None else None
        if labelled is not None:
            lab.set_pair(tc, u_file, int(u_rows[u_stmt[j]]), *labelled, number)
            any_paired = True
    return any_paired


def _keeps_parameters(lab: FileLabeller, u_file: int, t_stmt: list[int], u_stmt: list[int]) -> bool:
    """Whether the target header keeps every parameter name of the upstream header: a name the
    files define more than once is one definition by its classes only if its signature was
    edited, not rewritten (sglang's model classes take ``config, quant_config, prefix`` where
    vLLM's take ``vllm_config, prefix``: the same ``__init__`` by name, a signature of its own)."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    t_key = statement_key([lab.t_lines[lab.t_rows[tc]] for tc in t_stmt], False)
    u_key = statement_key([u_lines[u_rows[uc]] for uc in u_stmt], False)
    return parameter_names(u_key) <= parameter_names(t_key)


def _statement_similarity(lab: FileLabeller, u_file: int, t_stmt: list[int], u_stmt: list[int]) -> float:
    u_rows, u_lines = lab.upstream_lines(u_file)
    keep = not lab.p.fill_strip_annotations
    t_key = statement_key([lab.t_lines[lab.t_rows[tc]] for tc in t_stmt], keep)
    u_key = statement_key([u_lines[u_rows[uc]] for uc in u_stmt], keep)
    return fuzz.ratio(t_key, u_key) / 100.0


def edited_statements(lab: FileLabeller, statements: Statements, u_file: int, t_gap: list[int],
                       u_gap: list[int], number: int) -> set[int]:
    """Statements edited in place (:mod:`lineage.match.statements`): in a stretch of free lines
    between two aligned lines, the whole statements on both sides are paired by their most
    similar pairs (``fill_statement_min_similarity`` of their joined tokens), at least one of the
    two of several lines (two one-line statements are the line rule's); each line of a target
    statement so paired is paired with the upstream line it copies. Returns the upstream lines
    of the statements paired."""
    limit = lab.p.fill_statement_max_lines
    (t_ids, t_sizes), (u_ids, u_sizes) = statements.target(limit), statements.upstream(u_file, limit)
    t_stmts = whole_statements(t_ids, t_sizes, t_gap)
    u_stmts = whole_statements(u_ids, u_sizes, u_gap)
    if not t_stmts or not u_stmts or all(len(s) == 1 for s in t_stmts + u_stmts):
        return set()
    u_rows, u_lines = lab.upstream_lines(u_file)
    keep = not lab.p.fill_strip_annotations
    t_keys = [statement_key([lab.t_lines[lab.t_rows[tc]] for tc in s], keep) for s in t_stmts]
    u_keys = [statement_key([u_lines[u_rows[uc]] for uc in s], keep) for s in u_stmts]
    scores = process.cdist(t_keys, u_keys, scorer=fuzz.ratio, dtype=np.float32) / 100.0
    t_single = np.array([len(s) == 1 for s in t_stmts])
    u_single = np.array([len(s) == 1 for s in u_stmts])
    scores[np.outer(t_single, u_single)] = -1.0
    if lab.p.fill_statement_overloads:
        # An ``@overload`` declaration types the function; the definition below it is the
        # upstream's function, so an upstream definition pairs with that, not with a declaration.
        t_all, u_all = statements.target_texts(), statements.upstream_texts(u_file)
        declared = np.array([is_overload(t_all, st[0]) for st in t_stmts])
        defined = np.array([bool(DEF_NAME.match(u_all[st[0]])) and not is_overload(u_all, st[0]) for st in u_stmts])
        scores[np.outer(declared, defined)] = -1.0
    if lab.p.fill_statement_same_module:
        t_mods = [import_module(lab.t_lines[lab.t_rows[st[0]]]) for st in t_stmts]
        u_mods = [import_module(u_lines[u_rows[st[0]]]) for st in u_stmts]
        for a, tm in enumerate(t_mods):
            for b, um in enumerate(u_mods):
                if (tm is not None or um is not None) and tm != um:
                    scores[a, b] = -1.0
    taken: set[int] = set()
    for a, b in best_in_order(scores, lab.p.fill_statement_min_similarity):
        if len(t_stmts[a]) == 1 and len(u_stmts[b]) == 1:
            continue
        if pair_statement(lab, u_file, t_stmts[a], u_stmts[b], number):
            taken.update(u_stmts[b])
    return taken


def complete_statements(lab: FileLabeller, statements: Statements, u_file: int) -> None:
    """A statement some of whose lines are paired with lines of one upstream statement, and the
    rest free (the region's character alignment paired the long pieces of a re-wrapped call, not
    its ``)`` or ``self,``): when the two statements are at least ``fill_statement_min_similarity``
    alike, its free lines are paired with the upstream statement's lines they copy."""
    r, rows = lab.result, lab.t_rows
    u_rows, _ = lab.upstream_lines(u_file)
    for t_stmt, u_stmt, mine in statements_naming_one(lab, statements, u_file):
        if not any(is_free(lab, u_file, tc) for tc in t_stmt):
            continue
        if lab.p.fill_statement_same_module and import_module(lab.t_lines[rows[t_stmt[0]]]) != import_module(
                lab.upstream_lines(u_file)[1][u_rows[u_stmt[0]]]):
            continue
        if _statement_similarity(lab, u_file, t_stmt, u_stmt) < lab.p.fill_statement_min_similarity:
            continue
        number = int(r.region[rows[next(tc for tc in t_stmt if mine[tc])]])
        pair_statement(lab, u_file, t_stmt, u_stmt, number)


def statements_naming_one(lab: FileLabeller, statements: Statements,
                          u_file: int) -> list[tuple[list[int], list[int], np.ndarray]]:
    """(target statement, upstream statement, paired mask) of each target statement (of at most
    ``fill_statement_max_lines`` lines) whose lines paired with ``u_file`` all name lines of one
    upstream statement; the mask marks the content lines paired with ``u_file`` inside one."""
    r, rows = lab.result, lab.t_rows
    limit = lab.p.fill_statement_max_lines
    (t_ids, _), (u_ids, _) = statements.target(limit), statements.upstream(u_file, limit)
    mine = (r.match[rows] != NONE) & (r.up_file[rows] == u_file) & (t_ids >= 0)
    if not mine.any():
        return []
    u_rows, _ = lab.upstream_lines(u_file)
    named: dict[int, set[int]] = {}
    at = np.flatnonzero(mine)  # the upstream statements named, looked up in one call
    for sid, u_sid in zip(t_ids[at].tolist(), u_ids[np.searchsorted(u_rows, r.up_row[rows[at]])].tolist(),
                          strict=True):
        named.setdefault(sid, set()).add(u_sid)
    found = [(sid, next(iter(u_sids))) for sid, u_sids in named.items() if len(u_sids) == 1 and -1 not in u_sids]
    if not found:
        return []
    t_at, u_at = statement_lines(t_ids, [t for t, _ in found]), statement_lines(u_ids, [u for _, u in found])
    return [(t_at[sid], u_at[u_sid], mine) for sid, u_sid in found]


def _argument_key(line: str) -> str:
    """A statement's line as one argument of it: its fold form less the closing brackets and
    the comma at its end (``rfc2109=False,)`` is ``rfc2109=False``)."""
    key = fold_form(line, CODE)
    while key[-1:] in (")", "]", "}", ",", " "):
        key = key[:-1]
    return key


def resorted_arguments(lab: FileLabeller, statements: Statements, u_file: int) -> None:
    """A statement of several lines whose paired lines all name lines of one upstream statement,
    and whose argument lines (all but its first) are the upstream statement's, each once, in
    another order (``fill_resorted_arguments``): each argument line is paired with the line of
    its argument, taking it from the line of the statement position paired it with."""
    r, rows = lab.result, lab.t_rows
    u_rows, u_lines = lab.upstream_lines(u_file)
    for t_stmt, u_stmt, mine in statements_naming_one(lab, statements, u_file):
        t_keys = [_argument_key(lab.t_lines[rows[tc]]) for tc in t_stmt[1:]]
        u_keys = [_argument_key(u_lines[u_rows[uc]]) for uc in u_stmt[1:]]
        t_args = [(tc, key) for tc, key in zip(t_stmt[1:], t_keys, strict=True) if key]
        u_at = {key: uc for uc, key in zip(u_stmt[1:], u_keys, strict=True) if key}
        if len(t_args) < lab.p.fill_resorted_arguments or len(u_at) != len(t_args) \
                or len({key for _, key in t_args}) != len(t_args) or set(u_at) != {key for _, key in t_args} \
                or [key for _, key in t_args] == [key for key in u_keys if key]:
            continue  # not the same arguments, each once, in another order
        number = int(r.region[rows[next(tc for tc in t_stmt if mine[tc])]])
        for tc, key in t_args:
            uc = u_at[key]
            if r.match[rows[tc]] != NONE and int(r.up_row[rows[tc]]) == int(u_rows[uc]):
                continue
            if r.match[rows[tc]] == NONE and not is_free(lab, u_file, tc):
                continue
            labelled = pair_label(lab.t_lines[rows[tc]].strip(), u_lines[u_rows[uc]].strip(), lab.p,
                                  lab.packages(u_file))
            if labelled is not None:
                lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)


def split_at_rewrapped(lab: FileLabeller, statements: Statements, u_file: int, t_span: range, u_span: range,
                        used: set[int], number: int) -> list[tuple[range, range]]:
    """Statements re-wrapped over other line breaks (the same tokens, without annotations when
    ``fill_strip_annotations``), of several lines on one side and found once on each side of
    a stretch between two paired lines, are paired first, and the stretch is cut at them: each
    piece is then aligned on its own. A re-wrapped statement has no line that aligns by its
    fold form, so in a stretch where new code was inserted nothing else would say where the
    old code stands (``return self.request(`` / ``Route(...)`` / ``)`` opposite one line).
    Returns the pieces (the whole stretch when there is no such statement)."""
    if lab.p.fill_rewrapped_max_lines <= 0:
        return [(t_span, u_span)]
    limit = lab.p.fill_rewrapped_max_lines
    (t_ids, t_sizes), (u_ids, u_sizes) = statements.target(limit), statements.upstream(u_file, limit)
    u_rows, u_lines = lab.upstream_lines(u_file)
    strays = _strays(lab, u_file, t_span, u_span, u_rows) if lab.p.fill_rewrapped_strays else set()
    t_free = [tc for tc in t_span if tc in strays or is_free(lab, u_file, tc)]
    t_stmts = whole_statements(t_ids, t_sizes, t_free)
    u_stmts = whole_statements(u_ids, u_sizes, [uc for uc in u_span if uc not in used])
    if not t_stmts or not u_stmts:
        return [(t_span, u_span)]
    keep = not lab.p.fill_strip_annotations
    t_keys = [statement_key([lab.t_lines[lab.t_rows[tc]] for tc in st], keep) for st in t_stmts]
    u_keys = [statement_key([u_lines[u_rows[uc]] for uc in st], keep) for st in u_stmts]
    t_count, u_count = Counter(t_keys), Counter(u_keys)
    u_at = {key: b for b, key in enumerate(u_keys) if u_count[key] == 1 and t_count[key] == 1
            and len(key.replace(" ", "")) >= lab.p.rewrap_min_chars}
    found = [(a, u_at[key]) for a, key in enumerate(t_keys)
             if key in u_at and (len(t_stmts[a]) > 1 or len(u_stmts[u_at[key]]) > 1)]
    if found:
        # A statement found once on each side can still be a moved one: the lines that align
        # in the stretch by their fold form say where the rest of the copy stands, and a
        # statement pair that would put more of them out of order than it has lines is not cut
        # at (``first_kv_shared_layer_idx = (...)`` moved below a copied ``o_proj`` call).
        aligned = np.array([(t_span[i], u_span[j]) for i, j in
                            align_keys(*stretch_keys(lab, u_file, t_span, u_span, used))], np.int64).reshape(-1, 2)
        found = [(a, b) for a, b in found
                 if int((((aligned[:, 0] < t_stmts[a][0]) & (aligned[:, 1] > u_stmts[b][-1]))
                         | ((aligned[:, 0] > t_stmts[a][-1]) & (aligned[:, 1] < u_stmts[b][0]))).sum())
                 <= len(t_stmts[a])]
    chain = increasing_pairs([a for a, _ in found], [b for _, b in found])
    pieces: list[tuple[range, range]] = []
    t_at, u_from = t_span.start, u_span.start
    for a, b in chain:
        kept = [(tc, pair_of(lab, tc)) for tc in t_stmts[a] if tc in strays]
        for tc, _ in kept:
            lab.unpair(tc)
        paired = pair_statement(lab, u_file, t_stmts[a], u_stmts[b], number)
        for tc, pair in kept:  # a stray the statement did not take keeps its pair
            if lab.result.match[lab.t_rows[tc]] == NONE:
                lab.set_pair(tc, *pair)
        if not paired:
            continue
        pieces.append((range(t_at, t_stmts[a][0]), range(u_from, u_stmts[b][0])))
        t_at, u_from = t_stmts[a][-1] + 1, u_stmts[b][-1] + 1
    pieces.append((range(t_at, t_span.stop), range(u_from, u_span.stop)))
    return [(t, u) for t, u in pieces if t and u]


def _strays(lab: FileLabeller, u_file: int, t_span: range, u_span: range, u_rows: np.ndarray) -> set[int]:
    """Lines of a stretch between two anchors paired alone with this upstream file, with a line
    outside the stretch's upstream side: out of the pair's order, a piece of a re-wrapped
    statement that also stands elsewhere upstream (``bound_setattr(`` paired with the opening
    line of another call of it) and that :func:`split_at_rewrapped` may pair again. Alone: no
    neighbour is paired with the next or previous upstream line (a run of such lines is another
    part of the upstream file copied here, out of the anchors' order but a copy of its own)."""
    r, rows = lab.result, lab.t_rows
    span_rows = rows[t_span.start : t_span.stop]
    mine = (r.match[span_rows] != NONE) & (r.up_file[span_rows] == u_file)
    if not mine.any():
        return set()
    strays: set[int] = set()
    for k in np.flatnonzero(mine).tolist():
        tc = t_span.start + k
        up_row = int(r.up_row[rows[tc]])
        uc = int(np.searchsorted(u_rows, up_row))
        if u_span.start <= uc < u_span.stop:
            continue
        alone = True
        for step in (-1, 1):
            if 0 <= tc + step < len(rows):
                row = rows[tc + step]
                if (r.match[row] != NONE and r.up_file[row] == u_file
                        and 0 <= uc + step < len(u_rows) and int(r.up_row[row]) == int(u_rows[uc + step])):
                    alone = False
        if alone:
            strays.add(tc)
    return strays
