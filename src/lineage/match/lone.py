"""Step 7, lone lines: a paired line that nothing next to it continues is copied only if rare.

Issue 8's definition of a copy: a line is copied from the upstream only as part of copied code
that follows the upstream file in order; a lone idiom is not. Every step before this one places
lines by their position in an established pair: the gap alignment of a region, the fill's
in-order alignment, its lone survivors and its imports. Position alone pairs ``else:``,
``super().__init__()``, ``self.hidden_size,`` or a keyword argument of the target's own call
with an upstream line that sits at about the same place; on the real sglang/vLLM pair such
lines were the largest group of false copies left (sglang's own ``else:`` branch paired with
vLLM's, its own validation call's arguments paired by characters with a loop of vLLM's). This
step has the last word over the fill's survivor and import rules.

So, after the fill, the paired lines of a target file are taken in order. Consecutive paired
lines that name the same upstream line (a statement re-wrapped over more target lines) form one
*unit*. A unit is **continued** by the next or the previous unit when both are paired with the
same upstream file, in order, close together:

* **tight**: one side moves by one line and the other by at most ``1 + lone_max_skip``
  (the target's own lines inserted between them, or upstream lines the target left out);
* **in place**: both sides move by the same number of lines, at most ``1 + lone_max_skip``
  (the lines between them edited in place on both sides). Position alone is weaker evidence
  there, so such a link continues a line only if it is verbatim or at least
  ``lone_near_min_similarity`` similar;
* two one-line imports right after each other in the target continue each other in any order
  (isort sorted the copied block again).

A line whose unit is not continued is **lone**, and it stays paired only if it is evidence on its
own: long enough to be a lone survivor (:meth:`FileLabeller.distinctive`: ``survivor_min_tokens``,
``survivor_min_chars``) and rare (:meth:`IdiomFilter.rare`, the rarity half of the idiom rule:
found in at most ``idiom_max_files`` upstream files, not an argument line, not an absolute import
the upstream writes the same, so a lone ``import x`` goes, except in a pair at the target file's
own place (below)); a ``near`` line also needs the
upstream line it names to be rare and a similarity of at least ``lone_near_min_similarity``. A
``raise`` with its message or a rare signature that outlived a rewrite stays; ``else:`` goes.

A lone ``near`` line whose edit only added or dropped tokens (quotes aside; ``class A:`` <-
``class A(object):``) is rare by its text, as a verbatim line is, not by its abstract form
(``lone_near_text_rarity``): ``class I:`` stands in many files, and the upstream line's own
rarity already says whether the pair is evidence; a line with a name renamed or a literal
rewritten is found by its shape alone, and its shape must be rare. A line that is its upstream
line with whole arguments added (``fill_added_arguments``) is strong whatever its similarity.

**Pieces of one statement**: in a pair at the target file's own place, the paired pieces of one
target statement of several lines paired with one upstream statement continue each other in
any order (``lone_statement_pieces``): isort exploded an import and sorted its names, a call's
keyword arguments were sorted; each piece names the upstream line holding it, out of order. A
line of brackets alone continues nothing this way.

A **lone group** is judged the same way: a few units that continue each other but nothing else
(at most ``lone_group_max_lines`` paired lines, no other paired line of the file within
``lone_group_min_gap`` lines), in a target file whose markers do not name the upstream. On the
real pair these were a signature's common parameter lines (``layer: torch.nn.Module,``,
``input_size: int,``) or ``config=config, quant_config=quant_config, prefix=...`` of the target's
own call, found in order in some upstream file by chance, and import blocks; the group stays
only if one of its lines is evidence on its own. A file that says it came from the upstream
keeps such groups, and so does a file of which at least ``lone_group_keep_share`` of the code
lines are paired with the group's upstream file: there an in-order group is what is left of a
copied function (a fork's surviving import block, a signature of a class carried along).

A **file's own imports**: in a pair at the target file's own place (the same path, a vendored
copy's path ending, the same below a folder rename the tree shows) whose content links the two
files as well (a non-import code line paired in order with a neighbour), a verbatim one-line import
is evidence on its own (``lone_placed_imports``): a later version of a file keeps its imports, and
isort or the imports added around them move them apart (git blame on the survival and fork cases
counts them copies). A place alone is no link: two projects' ``setup.py`` share a path. In such
a pair a ``def`` header paired near with the upstream header of the same name, each file
defining that name once, is evidence on its own too (``lone_placed_headers``): the method's
later signature, annotated or with parameters edited, its body rewritten around it.

A **closing bracket** (a line of only ``)``, ``]``, ``}``, with a ``,`` or ``:`` or a return
annotation after them) is evidence only through the statement it closes: it stays paired only
if some other line of that statement (a logical line,
:func:`~lineage.match.statements.statement_ids`), not itself brackets alone, is paired too.
Continued by a copied line below it, the ``)`` of the target's own ``raise ValueError(...)`` or
of its own call would otherwise count as copied. A closer inside an unbroken verbatim run (the
lines right above and below it verbatim with the upstream lines right above and below its own)
stays: only the statement scan, which reads brackets inside a multi-line string as code, can
make such a line a statement of its own (``)`` inside packaging's triple-quoted
``_version_regex_str``: poetry-core's byte-identical vendored ``specifiers.py`` read 413 of 414).

A **decorator** (``@property``, ``@flag_value``) is evidence only through the definition it
decorates (``lone_decorators``): it stays paired only if the ``def`` or ``class`` statement below
it (past further decorators and its own continuation lines) has a line paired with the same
upstream file.
At a method boundary position pairs the upstream's ``@property`` above its next method with the
one above the target's own new method (requests' ``is_redirect``).

A **clause** line ``else:`` or ``finally:`` is evidence only through the compound statement it
continues (``lone_clauses``, 2026-12-05): it stays paired only if the header of the clause
before it (the ``if``, ``elif``, ``for``, ``while``, ``try`` or ``except`` line at its own
indentation above it) is paired with the header before the upstream ``else:``, or the first
paired line of its block with a line of the upstream clause's block (a new ``if`` or ``elif``
before a copied ``else:`` leaves its body to say it). The gap
alignment and the fill pair an ``else:`` by its text and place, and a block nested one level
deeper or shallower puts another ``else:`` there (requests' ``if not os.path.isdir(cert_loc):
... else:``, new, paired with the old ``if verify: ... else:`` one level out, whose own
``else:`` two lines below was left unpaired).

Likewise a free decorator line whose definition is paired with an upstream ``def`` or ``class``
line is paired with that definition's own identical decorator, free (``lone_decorator_pairs``):
the alignment had given the upstream ``@property`` to the one above the target's own new method
before it (the one ``lone_decorators`` drops: requests' ``is_redirect``), and the copied
``apparent_encoding``'s own ``@property`` stayed free.

And a free ``try:`` whose block's first paired line (not inside a further ``try:`` of that
block) lies in the block of an upstream ``try:``, free, is that ``try:`` (``lone_try_pairs``): it
holds no text, its block says which statement it opens (requests' ``__init__.py`` kept its
``try:`` and ``pyopenssl.inject_into_urllib3()``, and wrapped new code around the import
between them).

The other way round (``lone_clause_pairs``, 2026-12-05, late): a free ``else:`` or ``finally:``
whose clause header is paired with an upstream header, the first paired line of the header's
block with a line of the upstream header's block, is paired with that upstream statement's
own ``else:``/``finally:`` (the next line at the header's indentation, the same clause, free
too): the compound statement was copied, and the clause continues it. The alignment had put the
upstream ``else:`` opposite an ``else:`` of a new statement nested inside (the one this rule
drops: requests' ``if not os.path.isdir(cert_loc): ... else:``) or another line, and the
statement's own ``else:`` stayed free.

Likewise a free ``except ...:`` whose block's first paired line (in its own block, not a block
inside it) lies in the block of an upstream ``except ...:``, free, is that clause
(``lone_except_pairs``, 2026-12-05, night), near when its text changed: the exception a library
raises changes with the library (requests' ``except (ProtocolError, OSError) as err:`` <-
``except socket.error as sockerr:``, ``except ProtocolError as e:`` <- ``except IncompleteRead
as e:``, each block's ``raise`` kept), so its text is too unlike for the fill, and its block says
which clause it is, as a ``try:``'s does.

And a free line of **brackets alone** (``)``, ``},``, ``) -> None:``, an opening ``{``) whose
partner bracket stands on a paired line is paired with the upstream line that holds the partner
of that line's bracket (``lone_bracket_pairs``, 2026-12-05, night), near unless the texts are
equal: the bracket of a ``dict(`` call turned into a literal closes on the upstream's
``rfc2109=False,)``, the ``),`` of an exploded ``308: (`` entry on the upstream's one line
``308: ("resume_incomplete", "resume"),``. The statement rule pairs a bracket only with a
bracket line of the upstream statement, and a line of brackets shares no text with an argument
line. Only when at least ``lone_bracket_min_share`` of the code lines between the two brackets
are paired with that upstream file: the bracketed content was copied, not only the line that
opens it (an import list re-sorted with new names keeps its ``from .compat import (``, whose git
history made its ``)`` new). On requests 2.0.0 -> 2.32.3 the two rules took 10 of lineage's 78
misses (8 brackets, 2 ``except``) and no false copy; on the renamed fork 15 blame copies.

A line dropped here becomes ``none``; nothing else is added but by the pairing rules above. The
check is made once, on the labels the earlier steps left (a line is not judged against a
neighbour dropped in the same pass), so the result does not depend on the order of the lines.
Regions keep the weight their chain had (``regions.csv`` ``weight``); their spans and counts are
those of the lines left.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from lineage.arrays import unique
from lineage.index import CODE
from lineage.match.fill_lines import fold_form
from lineage.match.fill_statements import Statements, def_key
from lineage.match.fill_survivors import indentation, names_key
from lineage.match.idioms import IdiomFilter
from lineage.match.imports import as_upstream_folder, as_upstream_package, is_import_line
from lineage.match.labels import FileLabeller, similarity
from lineage.match.records import NEAR, NONE, VERBATIM
from lineage.match.statements import OPENERS, added_arguments, bracket_tokens, only_added_or_dropped

# A decorator line: ``@`` then a name (``@property``, ``@torch.compile(...)``); a continuation
# line starting with the matrix product (``@ key_states.transpose(-1, -2)``) is none.
_DECORATOR = re.compile(r"@[A-Za-z_]")
# A line that only closes brackets: ``)``, ``],``, ``})``, ``):``, ``) -> None:``.
_CLOSER = re.compile(r"[)\]}]+[,:]?(\s*->\s*[\w.\[\], |]+:)?")


def closing_brackets(lab: FileLabeller, paired: np.ndarray) -> np.ndarray:
    """Positions (in ``paired``) of closing-bracket lines whose statement (a logical line,
    :func:`~lineage.match.statements.statement_ids`) has no other paired line but brackets
    (see the module docstring)."""
    start = int(lab.target.file_start[lab.t_file])
    code = lab.target.kind[start + paired] == CODE
    closer = np.array([bool(c) and _CLOSER.fullmatch(lab.t_lines[lab.t_rows[tc]].strip()) is not None
                       for tc, c in zip(paired.tolist(), code.tolist(), strict=True)], bool)
    if not closer.any():
        return np.zeros(0, np.int64)
    # No length limit: a statement left open by a multi-line string joins what follows, which
    # only keeps more brackets paired.
    ids = lab.statements()
    evidenced = set(ids[paired[~closer]].tolist())  # statements with a paired line of their own
    found = [i for i in np.flatnonzero(closer).tolist() if ids[paired[i]] >= 0 and ids[paired[i]] not in evidenced
             and not _inside_verbatim_run(lab, int(paired[i]))]
    return np.array(found, np.int64)


def _inside_verbatim_run(lab: FileLabeller, tc: int) -> bool:
    """Target content line ``tc`` and the content lines right above and below it are verbatim
    with one upstream file's lines, each as far from the next on both sides (see the module
    docstring: a closer inside a string)."""
    r, rows = lab.result, lab.t_rows
    if tc == 0 or tc + 1 >= len(rows):
        return False
    trio = rows[tc - 1:tc + 2]
    if not (r.match[trio] == VERBATIM).all() or len(set(r.up_file[trio].tolist())) != 1:
        return False
    ups = r.up_row[trio].astype(np.int64)
    return bool((np.diff(ups) == np.diff(trio.astype(np.int64))).all())


def orphan_decorators(lab: FileLabeller, paired: np.ndarray) -> np.ndarray:
    """Positions (in ``paired``) of decorator lines whose definition (the first code statement
    below them that is no decorator) has no line paired with the decorator's upstream file (see
    the module docstring)."""
    r, rows = lab.result, lab.t_rows
    kind = lab.target_kinds()
    texts = lab.stripped()
    decorator = [code and _DECORATOR.match(texts[tc]) is not None
                 for tc, code in zip(paired.tolist(), (kind[paired] == CODE).tolist(), strict=True)]
    if not any(decorator):
        return np.zeros(0, np.int64)
    ids = lab.statements()
    found = []
    for k in np.flatnonzero(decorator).tolist():
        tc = int(paired[k])
        d = tc + 1
        while d < len(rows) and (kind[d] != CODE or _DECORATOR.match(texts[d]) is not None
                                 or (ids[d] >= 0 and ids[d] == ids[d - 1])):
            d += 1
        # the definition's statement: its header line, or another line of a header re-wrapped
        # (``def ngettext(`` left unpaired beside its paired ``__context: Context,``)
        lines = [d] if d >= len(rows) or ids[d] < 0 else np.flatnonzero(ids == ids[d]).tolist()
        if not any(e < len(rows) and r.match[rows[e]] != NONE and r.up_file[rows[e]] == r.up_file[rows[tc]]
                   for e in lines):
            found.append(k)
    return np.array(found, np.int64)


_CLAUSE = {"else:", "finally:"}
# The first word of a clause header an ``else:``/``finally:`` may follow.
_HEADS = ("if", "elif", "for", "async", "while", "try", "except")


def _opens_with_closer(text: str) -> bool:
    """A line that begins with a closing bracket (an exploded header's ``):``)."""
    return text.lstrip()[:1] in (")", "]", "}")


def clause_header(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the clause header the clause at ``at`` continues: the nearest code
    line above it at its indentation that does not begin with a closing bracket, if it begins
    with a clause keyword; -1 if there is none (a line less indented comes first)."""
    depth = indentation(lines[rows[at]])
    for k in range(at - 1, -1, -1):
        if kinds[k] != CODE:
            continue
        text = lines[rows[k]]
        if _opens_with_closer(text):
            continue  # the closer of a header broken over lines (``):``)
        here = indentation(text)
        if here < depth:
            return -1
        if here == depth:
            word = text.strip().split(maxsplit=1)[0].rstrip(":") if text.strip() else ""
            return k if word in _HEADS else -1
    return -1


def orphan_clauses(lab: FileLabeller, paired: np.ndarray) -> np.ndarray:
    """Positions (in ``paired``) of ``else:``/``finally:`` lines neither whose clause header is
    paired with the header above the upstream clause line they name, nor whose block's first
    paired line with a line of that upstream clause's block (see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    kinds = lab.target_kinds()
    texts = lab.stripped()
    found = []
    for k, (tc, code) in enumerate(zip(paired.tolist(), (kinds[paired] == CODE).tolist(), strict=True)):
        if not code or texts[tc] not in _CLAUSE:
            continue
        u_file = int(r.up_file[rows[tc]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_at = int(np.searchsorted(u_rows, r.up_row[rows[tc]]))
        u_kinds = lab.upstream_kinds(u_file)
        head, u_head = clause_header(lab.t_lines, rows, kinds, tc), clause_header(u_lines, u_rows, u_kinds, u_at)
        if head >= 0 and u_head >= 0 and r.match[rows[head]] != NONE and int(r.up_file[rows[head]]) == u_file \
                and int(r.up_row[rows[head]]) == int(u_rows[u_head]):
            continue
        block = _block(lab.t_lines, rows, kinds, tc)
        first = next((b for b in block if r.match[rows[b]] != NONE), -1)
        if first >= 0 and int(r.up_file[rows[first]]) == u_file and \
                int(np.searchsorted(u_rows, r.up_row[rows[first]])) in _block(u_lines, u_rows, u_kinds, u_at):
            continue
        found.append(k)
    return np.array(found, np.int64)


def _block(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> range:
    """The content lines of the block the clause at ``at`` opens: up to the next code line
    indented no deeper than the clause (a closing bracket at its depth aside, as above)."""
    depth = indentation(lines[rows[at]])
    k = at + 1
    while k < len(rows):
        text = lines[rows[k]]
        if kinds[k] == CODE and indentation(text) <= depth and not _opens_with_closer(text):
            break
        k += 1
    return range(at + 1, k)


def _same_name_headers(lab: FileLabeller, paired: np.ndarray, up_file: np.ndarray, near: np.ndarray) -> np.ndarray:
    """Per paired line: a ``def`` header paired (near) with an upstream ``def`` header of the same
    name, the name defined once in the target file and once in that upstream file (as the
    signature rule counts them: :meth:`Statements.target_names_once`)."""
    r, rows = lab.result, lab.t_rows
    out = np.zeros(len(paired), bool)
    if not near.any():
        return out
    statements = Statements.of(lab)
    mine = statements.target_names_once()
    for k in np.flatnonzero(near).tolist():
        tc = int(paired[k])
        name = def_key(lab.t_lines[rows[tc]])
        if name is None or not name.startswith("def ") or name not in mine:
            continue
        u = int(up_file[k])
        if def_key(lab.upstream_lines(u)[1][int(r.up_row[rows[tc]])]) == name:
            out[k] = name in statements.upstream_names_once(u)
    return out


def _statement_keys(lab: FileLabeller, tcs: np.ndarray, up_files: np.ndarray, u_pos: np.ndarray) -> np.ndarray:
    """Per paired line (content line ``tcs``, paired with content line ``u_pos`` of upstream file
    ``up_files``): a key equal for lines of one target statement of several lines paired with
    one upstream statement, -1 for a line of a one-line statement, of brackets alone, or none."""
    t_ids = lab.statements()
    t_sizes = np.bincount(t_ids[t_ids >= 0]) if (t_ids >= 0).any() else np.zeros(0, np.int64)
    t_stmt = t_ids[tcs]
    several = t_stmt >= 0
    several[several] = t_sizes[t_stmt[several]] > 1
    u_stmt = np.full(len(tcs), -1, np.int64)
    statements = Statements.of(lab)
    for u in np.unique(up_files[several]).tolist():
        mine = several & (up_files == u)
        u_stmt[mine] = statements.upstream_unlimited(int(u))[0][u_pos[mine]]
    # A line of brackets alone is no piece of evidence to continue another with.
    ok = several & (u_stmt >= 0) & np.array([_CLOSER.fullmatch(lab.t_lines[lab.t_rows[tc]].strip()) is None
                                             for tc in tcs.tolist()], bool)
    pairs = np.stack([t_stmt, up_files.astype(np.int64), u_stmt], axis=1)
    key = np.full(len(tcs), -1, np.int64)
    if ok.any():
        key[ok] = np.unique(pairs[ok], axis=0, return_inverse=True)[1].reshape(-1)
    return key


def _import_variant(lab: FileLabeller, tc: int, u_file: int) -> bool:
    """Whether the one-line import at content line ``tc`` is its upstream line but for the
    fork's rename of its package (:func:`as_upstream_package`) or of a folder above it
    (:func:`as_upstream_folder`) or the order of its names (:func:`names_key`)."""
    text = lab.t_lines[lab.t_rows[tc]].strip()
    theirs = lab.upstream_lines(u_file)[1][int(lab.result.up_row[lab.t_rows[tc]])].strip()
    renames = (as_upstream_package(text, lab.packages(u_file)), as_upstream_folder(text, lab.renamed_modules(u_file)))
    for renamed in renames:
        if renamed is not None and fold_form(renamed, CODE) == fold_form(theirs, CODE):
            return True
    names = names_key(text)
    return names is not None and names == names_key(theirs)


def lone_lines(lab: FileLabeller, idioms: IdiomFilter, attributed: bool = False,
               placed: frozenset[int] = frozenset()) -> np.ndarray:
    """Content-line indices (of the labeller's file) of the paired lines that are lone, or in a
    lone group, and not evidence on their own (see the module docstring). ``attributed``: the
    target file's markers name the upstream (lone groups are kept). ``placed``: upstream files
    at the target file's own place, whose verbatim one-line imports are evidence on their own
    (``lone_placed_imports``)."""
    r, rows, p = lab.result, lab.t_rows, lab.p
    match = r.match[rows]
    paired = np.flatnonzero(match != NONE)
    if len(paired) == 0:
        return paired
    start = int(lab.target.file_start[lab.t_file])
    up_file = r.up_file[rows[paired]]
    # Each paired line's upstream content line (position in its upstream file).
    u_pos = np.zeros(len(paired), np.int64)
    for u in np.unique(up_file).tolist():
        mine = up_file == u
        u_pos[mine] = np.searchsorted(lab.upstream_lines(u)[0], r.up_row[rows[paired[mine]]])
    code = lab.target.kind[start + paired] == CODE
    texts = lab.stripped()
    is_import = np.array([bool(c) and is_import_line(texts[tc])
                          for tc, c in zip(paired.tolist(), code.tolist(), strict=True)], bool)
    strong = (match[paired] != NEAR) | (r.similarity[rows[paired]] >= p.lone_near_min_similarity)
    if p.fill_added_arguments:
        # A call or signature that gained arguments is its upstream line edited, however much
        # text they add (``fill_added_arguments``).
        for k in np.flatnonzero(~strong).tolist():
            tc = int(paired[k])
            u_text = lab.upstream_lines(int(up_file[k]))[1][int(r.up_row[rows[tc]])]
            strong[k] = added_arguments(lab.t_lines[rows[tc]], u_text)
    # Units: runs of consecutive paired lines naming the same upstream line.
    new_unit = np.ones(len(paired), bool)
    new_unit[1:] = (up_file[1:] != up_file[:-1]) | (u_pos[1:] != u_pos[:-1])
    unit = np.cumsum(new_unit) - 1
    first, last = np.flatnonzero(new_unit), np.r_[np.flatnonzero(new_unit)[1:] - 1, len(paired) - 1]
    continued = np.zeros(len(first), bool)
    link = np.zeros(max(len(first) - 1, 0), bool)  # unit k continues unit k + 1 or the reverse
    if len(first) > 1:
        a, b = last[:-1], first[1:]  # the last line of each unit and the first of the next
        dt, du = paired[b] - paired[a], u_pos[b] - u_pos[a]
        if p.lone_skip_comments:
            # Comment and docstring lines of the target's own between them do not part them.
            n = len(rows)
            own_text = (lab.target.kind[start:start + n] != CODE) & (match == NONE)
            steps = np.cumsum(~own_text)
            dt = steps[paired[b]] - steps[paired[a]]
        reach = 1 + p.lone_max_skip
        ok = (up_file[a] == up_file[b]) & (du >= 1) & (dt <= reach) & (du <= reach)
        tight = ok & ((dt == 1) | (du == 1))
        in_place = ok & (dt == du)
        imports = (up_file[a] == up_file[b]) & is_import[a] & is_import[b] & (dt == 1)
        continued[:-1] |= tight | imports | (in_place & strong[a])
        continued[1:] |= tight | imports | (in_place & strong[b])
        link = tight | imports | (in_place & (strong[a] | strong[b]))
        if p.lone_statement_pieces and placed:
            # In a pair at the target file's own place, units of one target statement paired
            # with one upstream statement continue each other in any order (its items sorted
            # again: isort, keyword arguments).
            key = _statement_keys(lab, paired[first], up_file[first], u_pos[first])
            key[~np.isin(up_file[first], list(placed))] = -1
            same = (key[:-1] >= 0) & (key[:-1] == key[1:])
            link |= same
            shared = np.zeros(len(first), bool)
            known = key[key >= 0]
            values, counts = np.unique(known, return_counts=True)
            shared[key >= 0] = np.isin(known, values[counts > 1])
            continued |= shared

    # A file's later version keeps its own imports, wherever isort put them: in a pair at the
    # target file's own place whose content links the files too (a non-import code line paired
    # in order with a neighbour; a `setup.py` shares a path with any other), a verbatim one-line
    # import is evidence on its own (``lone_placed_imports``).
    own_imports = np.zeros(len(paired), bool)
    own_headers = np.zeros(len(paired), bool)
    if placed and (p.lone_placed_imports or p.lone_placed_headers):
        linked = code & ~is_import & continued[unit] & np.isin(up_file, list(placed))
        linked_files = np.isin(up_file, np.unique(up_file[linked]))
        if p.lone_placed_imports:
            own_imports = is_import & (match[paired] == VERBATIM) & linked_files
            if p.lone_placed_import_variants:
                # ... and one that is the upstream's but for the fork's package rename or the
                # order of its names (``lone_placed_import_variants``).
                for k in np.flatnonzero(is_import & (match[paired] == NEAR) & linked_files).tolist():
                    own_imports[k] = _import_variant(lab, int(paired[k]), int(up_file[k]))
        # A later version of a file keeps its methods: there a near ``def`` header naming the
        # upstream header of its own name, each defined once in its file, is evidence on its own
        # (``lone_placed_headers``).
        if p.lone_placed_headers:
            own_headers = _same_name_headers(lab, paired, up_file, match[paired] == NEAR) & linked_files

    def evidence(pos: np.ndarray) -> np.ndarray:
        """Which of these paired lines (positions in ``paired``) are evidence on their own."""
        tcs = paired[pos]
        long_enough = np.array([lab.distinctive(texts[tc], ntok)
                                for tc, ntok in zip(tcs.tolist(), lab.target.ntok[start + tcs].tolist(), strict=True)],
                               bool)
        found = idioms.rare(tcs + start, lab.t_lines) & long_enough
        near = match[tcs] == NEAR
        if near.any() and p.lone_near_text_rarity:
            # A near line that only added or dropped tokens is rare by its text (its shape is
            # the upstream line's, judged below); a renamed or rewritten one by its shape.
            def kept_tokens(i: int) -> bool:
                u_lines = lab.upstream_lines(int(up_file[pos[i]]))[1]
                return only_added_or_dropped(lab.t_lines[rows[tcs[i]]], u_lines[int(r.up_row[rows[tcs[i]]])])

            k = np.array([i for i in np.flatnonzero(near).tolist() if kept_tokens(i)], np.int64)
            if len(k):
                found[k] = idioms.text_rare(tcs[k] + start, lab.t_lines) & long_enough[k]
        if near.any():
            k = np.flatnonzero(near)
            u_glob = lab.upstream.file_start[up_file[pos[k]]].astype(np.int64) + u_pos[pos[k]]
            u_texts = [lab.upstream_lines(int(up_file[i]))[1][int(r.up_row[rows[paired[i]]])].strip()
                       for i in pos[k].tolist()]
            found[k] &= idioms.upstream_rare(u_glob, u_texts) & strong[pos[k]]
        if own_imports.any():
            found |= own_imports[pos]
        if own_headers.any():
            found |= own_headers[pos]
        return found

    lone = np.flatnonzero(~continued[unit])  # positions in ``paired``
    if len(lone) and p.lone_unit_evidence:
        # A unit is one statement re-wrapped over several target lines: its ``self,`` and ``)``
        # are pieces of its rare head line, evidence with it.
        unit_evidence = np.zeros(len(first), bool)
        np.logical_or.at(unit_evidence, unit[lone], evidence(lone))
        dropped = lone[~unit_evidence[unit[lone]]]
    else:
        dropped = lone[~evidence(lone)] if len(lone) else lone
    drop = [paired[dropped]]
    if p.lone_closing_brackets:
        drop.append(paired[closing_brackets(lab, paired)])
    if p.lone_decorators:
        drop.append(paired[orphan_decorators(lab, paired)])
    if p.lone_clauses:
        drop.append(paired[orphan_clauses(lab, paired)])
    if p.lone_group_max_lines and not attributed and len(link):
        # A group is isolated from the paired lines that stay: lone lines dropped above (``def
        # __init__(`` and ``self,`` placed by position next to the group) do not shelter it.
        stays = np.ones(len(paired), bool)
        stays[dropped] = False
        kept = paired[stays]
        group = np.r_[0, np.cumsum(~link)][unit]  # group of each paired line
        code_lines = max(int((lab.target.kind[start:start + len(rows)] == CODE).sum()), 1)
        share = {int(u): int((code & (up_file == u)).sum()) / code_lines for u in np.unique(up_file).tolist()}
        bounds = np.flatnonzero(np.r_[True, group[1:] != group[:-1], True])
        for g0, g1 in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            if unit[g0] == unit[g1 - 1] or g1 - g0 > p.lone_group_max_lines:
                continue  # one unit (the lone-line test above) or not small
            if share[int(up_file[g0])] >= p.lone_group_keep_share:
                continue  # the file is largely a copy of this upstream file
            k0, k1 = np.searchsorted(kept, paired[g0]), np.searchsorted(kept, paired[g1 - 1], "right")
            before = paired[g0] - kept[k0 - 1] if k0 > 0 else None
            after = kept[k1] - paired[g1 - 1] if k1 < len(kept) else None
            if any(gap is not None and gap <= p.lone_group_min_gap for gap in (before, after)):
                continue
            pos = np.arange(g0, g1)
            if not evidence(pos).any():
                drop.append(paired[pos])
    return unique(np.concatenate(drop)) if drop else np.zeros(0, np.int64)


def _paired_upstream_lines(lab: FileLabeller) -> set[tuple[int, int]]:
    """(upstream file, upstream row) of every paired line of the file: taken, for the rules
    below that pair a free line with a free upstream line."""
    r, rows = lab.result, lab.t_rows
    paired = rows[r.match[rows] != NONE]
    return set(zip(r.up_file[paired].tolist(), r.up_row[paired].tolist(), strict=True))


def clause_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, its header's content line) of the free ``else:``/``finally:``
    lines whose clause header is paired with an upstream header that the same clause continues,
    free too (``lone_clause_pairs``, see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    texts = lab.stripped()
    free = [tc for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist() if texts[tc] in _CLAUSE]
    if not free:
        return []
    taken = _paired_upstream_lines(lab)
    found = []
    for tc in free:
        head = clause_header(lab.t_lines, rows, kinds, tc)
        if head < 0 or match[head] == NONE:
            continue
        u_file, u_head_row = int(r.up_file[rows[head]]), int(r.up_row[rows[head]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_kinds = lab.upstream_kinds(u_file)
        u_head = int(np.searchsorted(u_rows, u_head_row))
        # the header's own block copied too (its first paired line inside the upstream header's
        # block): a lone ``except KeyError:`` paired near with another function's ``except
        # ValueError:`` is no statement copied
        first = next((b for b in _block(lab.t_lines, rows, kinds, head) if match[b] != NONE), -1)
        if first < 0 or int(r.up_file[rows[first]]) != u_file or \
                int(np.searchsorted(u_rows, r.up_row[rows[first]])) not in _block(u_lines, u_rows, u_kinds, u_head):
            continue
        depth, text = indentation(u_lines[u_head_row]), lab.t_lines[rows[tc]].strip()
        # the upstream compound's clauses at the header's depth, up to its first line that is none
        for k in range(u_head + 1, len(u_rows)):
            line = u_lines[u_rows[k]]
            if u_kinds[k] != CODE or indentation(line) > depth or _opens_with_closer(line):
                continue
            if indentation(line) < depth or line.strip() != text:
                break
            if clause_header(u_lines, u_rows, u_kinds, k) == u_head and (u_file, int(u_rows[k])) not in taken \
                    and not lab.blocked_from(u_file, tc):
                found.append((tc, u_file, int(u_rows[k]), head))
                taken.add((u_file, int(u_rows[k])))
            break
    return found


def decorator_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, its definition's content line) of the
    free decorator lines whose definition is paired with an upstream ``def``/``class`` line
    decorated by the same text, free (``lone_decorator_pairs``, see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    texts = lab.stripped()
    free = [tc for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist()
            if _DECORATOR.match(texts[tc]) is not None]
    if not free:
        return []
    taken = _paired_upstream_lines(lab)
    found = []
    for tc in free:
        d = tc + 1  # the definition: past further decorators and comments
        while d < len(rows) and (kinds[d] != CODE or _DECORATOR.match(texts[d]) is not None):
            d += 1
        if d >= len(rows) or match[d] == NONE or def_key(texts[d]) is None:
            continue
        u_file, u_def_row = int(r.up_file[rows[d]]), int(r.up_row[rows[d]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        if def_key(u_lines[u_def_row].strip()) is None:
            continue
        u_kinds = lab.upstream_kinds(u_file)
        k = int(np.searchsorted(u_rows, u_def_row)) - 1
        # the upstream definition's own decorators, right above it
        while k >= 0 and (u_kinds[k] != CODE or _DECORATOR.match(u_lines[u_rows[k]].strip())):
            u_row = int(u_rows[k])
            if u_kinds[k] == CODE and u_lines[u_row].strip() == texts[tc] \
                    and (u_file, u_row) not in taken and not lab.blocked_from(u_file, tc):
                found.append((tc, u_file, u_row, d))
                taken.add((u_file, u_row))
                break
            k -= 1
    return found


def _enclosing_try(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the nearest ``try:`` whose block holds the line at ``at`` (through
    the blocks between), -1 if none."""
    depth = indentation(lines[rows[at]])
    for k in range(at - 1, -1, -1):
        text = lines[rows[k]]
        if kinds[k] != CODE or _opens_with_closer(text) or indentation(text) >= depth:
            continue
        depth = indentation(text)
        if text.strip() == "try:":
            return k
    return -1


def try_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the paired line of its block) of the
    free ``try:`` lines whose block's first paired line lies in the block of an upstream ``try:``,
    free (``lone_try_pairs``, see the module docstring); not when that line lies in another
    ``try:`` of the block."""
    return _block_pairs(lab, lambda text: text.strip() == "try:", _enclosing_try)


def _block_pairs(lab: FileLabeller, is_head: Callable[[str], bool],
                 enclosing: Callable[[list[str], np.ndarray, np.ndarray, int], int]) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the paired line of its block) of the
    free clause lines ``is_head`` holds for whose block's first paired line ``enclosing`` finds
    them, each with the line ``enclosing`` finds above that line's upstream line, when
    ``is_head`` holds for it and it is free: the block says which clause it is."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    free = [tc for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist()
            if is_head(lab.t_lines[rows[tc]])]
    if not free:
        return []
    taken = _paired_upstream_lines(lab)
    found = []
    for tc in free:
        first = next((b for b in _block(lab.t_lines, rows, kinds, tc) if match[b] != NONE), -1)
        if first < 0 or enclosing(lab.t_lines, rows, kinds, first) != tc:
            continue  # no paired line, or the first one inside a further clause of the block
        u_file = int(r.up_file[rows[first]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_kinds = lab.upstream_kinds(u_file)
        k = enclosing(u_lines, u_rows, u_kinds, int(np.searchsorted(u_rows, r.up_row[rows[first]])))
        if k >= 0 and is_head(u_lines[u_rows[k]]) and (u_file, int(u_rows[k])) not in taken \
                and not lab.blocked_from(u_file, tc):
            found.append((tc, u_file, int(u_rows[k]), first))
            taken.add((u_file, int(u_rows[k])))
    return found


# A line of opening brackets alone (the ``{`` of ``CaseInsensitiveDict(`` / ``{`` / ``})``).
_OPENER = re.compile(r"[(\[{]+")
_BRACKET_STARTS = frozenset("([{)]}")  # the first character of every line _CLOSER or _OPENER matches


def _bracket_line(text: str) -> str:
    """``close`` for a line of closing brackets alone (as ``_CLOSER``; a trailing comment aside),
    ``open`` for one of opening brackets alone, else ``""``."""
    if text.lstrip()[:1] not in _BRACKET_STARTS:  # both shapes start with a bracket: most lines end here
        return ""
    code = text.split("#", 1)[0].strip()
    if _CLOSER.fullmatch(code):
        return "close"
    return "open" if _OPENER.fullmatch(code) else ""


def _still_open(text: str) -> list[int]:
    """Positions (among the line's brackets) of its opening brackets still open at its end,
    outermost first."""
    stack: list[int] = []
    for k, b in enumerate(bracket_tokens(text.strip())):
        if b in OPENERS:
            stack.append(k)
        elif stack:
            stack.pop()
    return stack


def _opened_above(text: str) -> list[int]:
    """Positions (among the line's brackets) of its closing brackets that close a bracket
    opened above it, innermost (first) first."""
    depth, out = 0, []
    for k, b in enumerate(bracket_tokens(text.strip())):
        if b in OPENERS:
            depth += 1
        elif depth:
            depth -= 1
        else:
            out.append(k)
    return out


def _partner(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int, need: int, forward: bool,
             limit: int) -> tuple[int, int]:
    """(index in ``rows``, position among that line's brackets) of the bracket that closes
    (``forward``) or opens the ``need``-th bracket left open at the end (the start) of line
    ``at``, counted from the innermost; (-1, -1) within ``limit`` code lines none, or a line
    that is not code first (a string's lines)."""
    extra, k, seen = 0, at, 0
    while seen < limit:
        k += 1 if forward else -1
        if k < 0 or k >= len(rows) or kinds[k] != CODE:
            return -1, -1
        seen += 1
        found = bracket_tokens(lines[rows[k]].strip())
        order = range(len(found)) if forward else range(len(found) - 1, -1, -1)
        for pos in order:
            if (found[pos] in OPENERS) == forward:
                extra += 1
            elif extra:
                extra -= 1
            else:
                need -= 1
                if need == 0:
                    return k, pos
    return -1, -1


def bracket_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the content line of its partner
    bracket) of the free lines of brackets alone whose partner bracket's line is paired: each
    with the upstream line holding the partner of that line's bracket (``lone_bracket_pairs``,
    see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    match = r.match[rows]
    kinds = lab.target_kinds()
    limit = lab.p.fill_statement_max_lines
    found = []
    t_rows = rows.tolist()
    for tc in np.flatnonzero((match == NONE) & (kinds == CODE)).tolist():
        shape = _bracket_line(lab.t_lines[t_rows[tc]])
        if not shape:
            continue
        closes = shape == "close"
        # a closer's first bracket ends the innermost bracket open above it; an opener's last
        # bracket is the innermost, closed first below it
        x, pos = _partner(lab.t_lines, rows, kinds, tc, 1, not closes, limit)
        if x < 0 or match[x] == NONE:
            continue
        u_file = int(r.up_file[rows[x]])
        if lab.blocked_from(u_file, tc):
            continue
        # the bracketed content copied too: at least ``lone_bracket_min_share`` of the code lines
        # between the two brackets paired with that upstream file (an import list re-sorted and
        # renamed keeps its ``from .compat import (`` line, not its ``)``)
        inside = [k for k in range(min(x, tc) + 1, max(x, tc)) if kinds[k] == CODE]
        if not inside or sum(match[k] != NONE and int(r.up_file[rows[k]]) == u_file for k in inside) \
                < lab.p.lone_bracket_min_share * len(inside):
            continue
        # which of line x's brackets open past it (closing above it) that one is, counted from
        # the outermost (the innermost): the same one of the upstream line x is paired with
        x_text = lab.t_lines[rows[x]]
        listed = _still_open(x_text) if closes else _opened_above(x_text)
        if pos not in listed:
            continue
        index = listed.index(pos)
        y_row = int(r.up_row[rows[x]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_kinds = lab.upstream_kinds(u_file)
        y = int(np.searchsorted(u_rows, y_row))
        if u_kinds[y] != CODE:
            continue
        theirs = _still_open(u_lines[y_row]) if closes else _opened_above(u_lines[y_row])
        z = y  # its bracket opens and closes on that line (``308: ("resume_incomplete", "resume"),``)
        if index < len(theirs):
            z, _ = _partner(u_lines, u_rows, u_kinds, y, len(theirs) - index if closes else index + 1, closes, limit)
            if z < 0:
                continue
        found.append((tc, u_file, int(u_rows[z]), x))
    return found


def _header_above(lines: list[str], rows: np.ndarray, kinds: np.ndarray, at: int) -> int:
    """Index (in ``rows``) of the header of the block holding the line at ``at``: the nearest
    code line above it indented less (the closer of a header broken over lines aside); -1 if none."""
    depth = indentation(lines[rows[at]])
    for k in range(at - 1, -1, -1):
        text = lines[rows[k]]
        if kinds[k] == CODE and not _opens_with_closer(text) and indentation(text) < depth:
            return k
    return -1


def _is_except(text: str) -> bool:
    stripped = text.strip()
    return stripped.endswith(":") and re.match(r"except\b", stripped) is not None


def except_pairs(lab: FileLabeller) -> list[tuple[int, int, int, int]]:
    """(target content line, upstream file, upstream row, the paired line of its block) of the
    free ``except ...:`` lines whose block's first paired line (in that block, not a block
    inside it) is a line of the block of an upstream ``except ...:``, free (``lone_except_pairs``,
    see the module docstring)."""
    return _block_pairs(lab, _is_except, _header_above)


def drop_lone_lines(lab: FileLabeller, idioms: IdiomFilter, attributed: bool = False,
                    placed: frozenset[int] = frozenset()) -> int:
    """Unpair the labeller's lone lines (and lone groups) that are no evidence on their own,
    then pair the clauses their statements continue (``lone_clause_pairs``); returns how many
    were unpaired."""
    if not lab.p.lone_rule:
        return 0
    drop = lone_lines(lab, idioms, attributed, placed)
    for tc in drop.tolist():
        lab.unpair(tc)
    r, rows = lab.result, lab.t_rows
    for on, found in ((lab.p.lone_clause_pairs, clause_pairs), (lab.p.lone_decorator_pairs, decorator_pairs),
                      (lab.p.lone_try_pairs, try_pairs), (lab.p.lone_except_pairs, except_pairs),
                      (lab.p.lone_bracket_pairs, bracket_pairs)):
        if on:  # each rule after the one before has paired its lines (``taken`` then holds them)
            for tc, u_file, u_row, anchor in found(lab):
                t_text, u_text = lab.t_lines[rows[tc]].strip(), lab.upstream_lines(u_file)[1][u_row].strip()
                # the first three pair identical texts; an ``except`` or a bracket may be edited
                label = VERBATIM if t_text == u_text else NEAR
                lab.set_pair(tc, u_file, u_row, label, similarity(t_text, u_text, lab.p), int(r.region[rows[anchor]]))
    return len(drop)
