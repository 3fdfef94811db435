"""Step 8, lone lines: a paired line that nothing next to it continues is copied only if rare.

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

A unit that is a whole target statement of several lines, each of its code lines paired with
the one upstream line (Black exploded it), is as strong as the statement re-joined is like that
line, annotations cut (``lone_unit_statement``): its pieces alone are fragments of it (a head
that gained an annotation, a middle line of arguments, a bracket) and none is as like the whole
upstream line as the statement is.

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

**A function's last line**: a lone verbatim line that is the last code line of a ``def``'s body
(not brackets alone), paired with the last code line of an upstream ``def``'s body, is continued by
the function it ends when the two ``def`` headers are paired with each other and another line of
the body (not of an exploded header: its parameter lines are the header's), itself continued and
not brackets alone, is paired inside that upstream body (``lone_def_ends``). A copied function
whose middle the upstream grew or the target cut keeps its ``return None``: its neighbour's partner
sits branches further up (sglang's multimodal ``fp8.py`` ``get_quant_method`` against vLLM 0.32's,
which added its MoE and KV-cache branches before the ``return None`` both end with). The body and
the headers, not the line, are the evidence; a function of the target's own whose header alone is
paired keeps nothing this way.

A **lone group** is judged the same way: a few units that continue each other but nothing else
(at most ``lone_group_max_lines`` paired lines, no other paired line of the file within
``lone_group_min_gap`` lines), in a target file whose markers do not name the upstream. On the
real pair these were a signature's common parameter lines (``layer: torch.nn.Module,``,
``input_size: int,``) or ``config=config, quant_config=quant_config, prefix=...`` of the target's
own call, found in order in some upstream file by chance, and import blocks; the group stays only
if one of its lines is evidence on its own. Lines this pass drops (lone lines, closing brackets,
decorators, clauses) do not keep a group from being isolated. A file that says it came from the
upstream keeps such groups beside other lines it pairs with the group's upstream file, not a group
that is all that pair holds (``lone_group_attributed_alone``: pip 24.2's ``metadata/base.py`` says
one method is "a copy of ``pkg_resources.to_filename()``" and rewrote it; ``import re`` and
``import zipfile`` were its only lines paired with setuptools' ``pkg_resources/__init__.py``), and so
does a file of which at least ``lone_group_keep_share`` of the code
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

These shapes are judged on the labels the earlier steps left, and asked once more after the
lone lines and groups are dropped (``lone_shapes_after_drop``): a bracket whose statement's other
paired lines were all lone closes nothing copied.

A ``near`` line of **punctuation alone** (``*,``, ``(``, ``) -> None:``: no name, number,
string or operator before a return annotation) has no text to be like another line's, only a
place (``lone_punctuation_pieces``): paired with an upstream line of words, it stays paired only
if that line starts as it does (``)`` <- ``).to(device)``) or ends with its brackets (the ``)``
of a statement re-wrapped, ``parser.add_argument('--full', ...)``), or another line of its
statement names that upstream line too (a piece of a statement re-wrapped). Position paired
sglang's ``*,`` of its own ``create(`` signature with vLLM's ``def kda_state_shape(``, and a
``) -> torch.Tensor:`` with a parameter line of a longer upstream signature.

A line of a ``def`` **header** (a parameter, the ``def`` line, its closing ``):``) is paired
only with a line of an upstream ``def`` header, and a line outside one only with a line outside
one (``lone_header_roles``, before the lone lines are judged): a call's arguments written one a
line are not the parameter lines they name (sglang's own ``asm_verify_attn_supported(q, k, v,
seqused_k, ...)`` condition was paired line by line with the signature of vLLM's
``unified_attention``), nor a dataclass field ``qk_nope_head_dim: int`` a parameter of that
name. Such a pair moves to the upstream line next to its partner when that one is of the
target line's role, free and like it (a signature edited in place, paired by position with the
body's first line one below its own header), and is undone otherwise.

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

The other way round, a free line that its statement shows to be copied (an ``else:``, a
decorator, a ``try:``, an ``except``, a line of brackets alone) is paired after the drop, by the
rules of :mod:`lineage.match.lone_pairs`; the clause, decorator and bracket shapes both read are
in :mod:`lineage.match.blocks`.

A line dropped here becomes ``none``; nothing else is added but by the pairing rules of
:mod:`lineage.match.lone_pairs`. The
check is made once, on the labels the earlier steps left (a line is not judged against a
neighbour dropped in the same pass), so the result does not depend on the order of the lines.
Regions keep the weight their chain had (``regions.csv`` ``weight``); their spans and counts are
those of the lines left.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import numpy as np
from rapidfuzz import fuzz

from lineage.arrays import unique
from lineage.index import CODE
from lineage.match.blocks import CLAUSE, CLOSER, DECORATOR, block_of, clause_header, enclosing_def, last_code_line
from lineage.match.file_statements import Statements, def_key
from lineage.match.fill_lines import fold_form
from lineage.match.fill_survivors import names_key
from lineage.match.idioms import IdiomFilter
from lineage.match.imports import as_upstream_folder, as_upstream_package, is_import_line
from lineage.match.labels import FileLabeller, pair_label
from lineage.match.lone_pairs import pair_free_lines
from lineage.match.params import MatchParams
from lineage.match.records import NEAR, NONE, VERBATIM
from lineage.match.statements import added_arguments, only_added_or_dropped, piece_text

_WORD = re.compile(r"\w")
# Brackets, separators and a star alone: no name, number, string or operator (``"<": "-",`` is text)
_PUNCTUATION = re.compile(r"[()\[\]{},:;*\s]+")
_ANNOTATION = re.compile(r"->.*")  # a closer's return annotation: ``) -> None:`` is brackets alone
_COMMENT = re.compile(r"\s+#[^'\"]*$")  # a trailing comment without quotes in it
_DEF_STARTS = ("def ", "async def ")


def closing_brackets(lab: FileLabeller, paired: np.ndarray) -> np.ndarray:
    """Positions (in ``paired``) of closing-bracket lines whose statement (a logical line,
    :func:`~lineage.match.statements.statement_ids`) has no other paired line but brackets
    (see the module docstring)."""
    start = int(lab.target.file_start[lab.t_file])
    code = lab.target.kind[start + paired] == CODE
    closer = np.array([bool(c) and CLOSER.fullmatch(lab.t_lines[lab.t_rows[tc]].strip()) is not None
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


def punctuation_pieces(lab: FileLabeller, paired: np.ndarray) -> np.ndarray:
    """Positions (in ``paired``) of ``near`` code lines of punctuation alone (no name, number,
    string or operator before a return annotation: ``*,``, ``(``, ``) -> None:``) paired with an
    upstream line of words that does not start as they do, when no other line of their statement
    names that upstream line (``lone_punctuation_pieces``; see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    code = lab.target_kinds()[paired] == CODE
    texts = lab.stripped()
    ids = lab.statements()
    found = []
    for k, (tc, c) in enumerate(zip(paired.tolist(), code.tolist(), strict=True)):
        text = texts[tc]
        if not c or r.match[rows[tc]] != NEAR or _PUNCTUATION.fullmatch(_ANNOTATION.sub("", text)) is None:
            continue
        u_file, u_row = int(r.up_file[rows[tc]]), int(r.up_row[rows[tc]])
        u_text = _COMMENT.sub("", lab.upstream_lines(u_file)[1][u_row]).strip()
        if _WORD.search(_ANNOTATION.sub("", u_text)) is None:
            continue
        # ``)`` <- ``).to(tl.float32)``: the same bracket, a call chained on; ``)`` <-
        # ``parser.add_argument('--full', ...)``: the bracket that closes that statement too. A
        # line of separators alone (``,``) has no bracket to end with: every line "ends with" ""
        brackets = _ANNOTATION.sub("", text).rstrip(",: ")
        if u_text.startswith(text[0]) or (brackets and _ANNOTATION.sub("", u_text).rstrip(",: ").endswith(brackets)):
            continue
        mates = np.flatnonzero(ids == ids[tc]) if ids[tc] >= 0 else ()
        if not any(m != tc and lab.paired_with(int(m), u_file, u_row) for m in mates):
            found.append(k)
    return np.array(found, np.int64)


def _header_lines(ids: np.ndarray, texts: list[str]) -> np.ndarray:
    """Per content line, whether it is a line of a ``def`` header statement (a signature,
    however wrapped; a one-line ``def`` with its body too)."""
    head = np.zeros(len(ids), bool)
    known = ids >= 0
    if not known.any():
        return head
    numbers, first = np.unique(ids[known], return_index=True)
    first = np.flatnonzero(known)[first]
    is_def = np.zeros(int(numbers.max()) + 1, bool)
    is_def[numbers] = [texts[k].lstrip().startswith(_DEF_STARTS) for k in first.tolist()]
    head[known] = is_def[ids[known]]
    return head


def mend_header_roles(lab: FileLabeller) -> int:
    """Move each pair across a ``def`` header's edge (a code line of a header paired with an
    upstream line outside one, or the reverse) to the upstream line next to its partner when
    that line is of the target line's role, free and like it enough to be paired
    (:func:`~lineage.match.labels.pair_label`): a signature edited in place is paired by
    position with the body's first line (nextcord's ``def __init__(self, *args,
    case_insensitive: bool = False, **kwargs)`` with discord's ``case_insensitive =
    kwargs.get(...)`` below ``def __init__(self, *args, **kwargs):``). Else unpair it. Returns
    how many were unpaired (``lone_header_roles``; see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    paired = np.flatnonzero(r.match[rows] != NONE)
    if len(paired) == 0:
        return 0
    statements = Statements.of(lab)
    t_head = _header_lines(lab.statements(), statements.target_texts())
    up_file = r.up_file[rows[paired]]
    u_pos = np.zeros(len(paired), np.int64)
    u_heads: dict[int, np.ndarray] = {}  # per upstream file, its header lines (read once)
    paired_head = np.zeros(len(paired), bool)  # each pair's upstream line is a header's
    for u in np.unique(up_file).tolist():
        mine = up_file == u
        u_pos[mine] = np.searchsorted(lab.upstream_lines(u)[0], r.up_row[rows[paired[mine]]])
        u_heads[u] = _header_lines(statements.upstream_unlimited(u)[0], statements.upstream_texts(u))
        paired_head[mine] = u_heads[u][u_pos[mine]]
    code = lab.target_kinds()[paired] == CODE
    crossed = np.flatnonzero(code & (t_head[paired] != paired_head))
    if len(crossed) == 0:
        return 0
    # how many target lines hold each upstream line: one is free when none does (a line may be
    # held by several, the pieces of a re-wrapped statement)
    taken = Counter(zip(up_file.tolist(), r.up_row[rows[paired]].tolist(), strict=True))
    unpaired = 0
    for k in crossed.tolist():
        tc, u = int(paired[k]), int(up_file[k])
        u_rows, u_lines = lab.upstream_lines(u)
        u_head, u_kinds = u_heads[u], lab.upstream_kinds(u)
        t_text = lab.t_lines[rows[tc]].strip()
        best: tuple[float, int, int] | None = None
        for uc in (int(u_pos[k]) - 1, int(u_pos[k]) + 1):
            if not 0 <= uc < len(u_rows) or u_kinds[uc] != CODE or u_head[uc] != t_head[tc] \
                    or taken[(u, int(u_rows[uc]))] > 0:
                continue
            labelled = pair_label(t_text, u_lines[u_rows[uc]].strip(), lab.p, lab.packages(u))
            if labelled is not None and (best is None or labelled[1] > best[0]):
                best = (labelled[1], uc, labelled[0])
        taken[(u, int(r.up_row[rows[tc]]))] -= 1  # released for the crossed lines after it, moved or not
        if best is None:
            lab.unpair(tc)
            unpaired += 1
            continue
        taken[(u, int(u_rows[best[1]]))] += 1
        lab.set_pair(tc, u, int(u_rows[best[1]]), best[2], best[0], int(r.region[rows[tc]]))
    return unpaired


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
    decorator = [code and DECORATOR.match(texts[tc]) is not None
                 for tc, code in zip(paired.tolist(), (kind[paired] == CODE).tolist(), strict=True)]
    if not any(decorator):
        return np.zeros(0, np.int64)
    ids = lab.statements()
    found = []
    for k in np.flatnonzero(decorator).tolist():
        tc = int(paired[k])
        d = tc + 1
        while d < len(rows) and (kind[d] != CODE or DECORATOR.match(texts[d]) is not None
                                 or (ids[d] >= 0 and ids[d] == ids[d - 1])):
            d += 1
        # the definition's statement: its header line, or another line of a header re-wrapped
        # (``def ngettext(`` left unpaired beside its paired ``__context: Context,``)
        lines = [d] if d >= len(rows) or ids[d] < 0 else np.flatnonzero(ids == ids[d]).tolist()
        if not any(e < len(rows) and r.match[rows[e]] != NONE and r.up_file[rows[e]] == r.up_file[rows[tc]]
                   for e in lines):
            found.append(k)
    return np.array(found, np.int64)






def orphan_clauses(lab: FileLabeller, paired: np.ndarray) -> np.ndarray:
    """Positions (in ``paired``) of ``else:``/``finally:`` lines neither whose clause header is
    paired with the header above the upstream clause line they name, nor whose block's first
    paired line with a line of that upstream clause's block (see the module docstring)."""
    r, rows = lab.result, lab.t_rows
    kinds = lab.target_kinds()
    texts = lab.stripped()
    found = []
    for k, (tc, code) in enumerate(zip(paired.tolist(), (kinds[paired] == CODE).tolist(), strict=True)):
        if not code or texts[tc] not in CLAUSE:
            continue
        u_file = int(r.up_file[rows[tc]])
        u_rows, u_lines = lab.upstream_lines(u_file)
        u_at = int(np.searchsorted(u_rows, r.up_row[rows[tc]]))
        u_kinds = lab.upstream_kinds(u_file)
        head, u_head = clause_header(lab.t_lines, rows, kinds, tc), clause_header(u_lines, u_rows, u_kinds, u_at)
        if head >= 0 and u_head >= 0 and r.match[rows[head]] != NONE and int(r.up_file[rows[head]]) == u_file \
                and int(r.up_row[rows[head]]) == int(u_rows[u_head]):
            continue
        block = block_of(lab.t_lines, rows, kinds, tc)
        first = next((b for b in block if r.match[rows[b]] != NONE), -1)
        if first >= 0 and int(r.up_file[rows[first]]) == u_file and \
                int(np.searchsorted(u_rows, r.up_row[rows[first]])) in block_of(u_lines, u_rows, u_kinds, u_at):
            continue
        found.append(k)
    return np.array(found, np.int64)




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
    ok = several & (u_stmt >= 0) & np.array([CLOSER.fullmatch(lab.t_lines[lab.t_rows[tc]].strip()) is None
                                             for tc in tcs.tolist()], bool)
    pairs = np.stack([t_stmt, up_files.astype(np.int64), u_stmt], axis=1)
    key = np.full(len(tcs), -1, np.int64)
    if ok.any():
        key[ok] = np.unique(pairs[ok], axis=0, return_inverse=True)[1].reshape(-1)
    return key


def _whole_statement_like(lab: FileLabeller, tcs: np.ndarray, u_file: int) -> bool:
    """Whether content lines ``tcs`` (consecutive paired lines naming one upstream line) are every
    code line of one target statement of several lines, whose joined text without annotations
    (:func:`~lineage.match.statements.piece_text` of each line) is at least
    ``lone_near_min_similarity`` like that upstream line's (``lone_unit_statement``)."""
    ids = lab.statements()
    stmt = int(ids[tcs[0]])
    if stmt < 0 or (ids[tcs] != stmt).any():
        return False
    lines = np.flatnonzero(ids == stmt)
    kinds = lab.target_kinds()
    if len(lines) < 2 or not np.array_equal(lines[kinds[lines] == CODE], tcs):
        return False
    u_text = lab.upstream_lines(u_file)[1][int(lab.result.up_row[lab.t_rows[int(tcs[0])]])]
    joined = " ".join(piece_text(lab.t_lines[lab.t_rows[tc]]) for tc in tcs.tolist())
    return fuzz.ratio(joined, piece_text(u_text)) / 100.0 >= lab.p.lone_near_min_similarity


def _def_ends(lab: FileLabeller, paired: np.ndarray, up_file: np.ndarray, u_pos: np.ndarray,
              candidates: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Which of the ``candidates`` (positions in ``paired`` of one-line lone units) end a copied
    function (``lone_def_ends``): a verbatim code line, not brackets alone, that is the last code
    line of a ``def``'s body, paired with the last code line of an upstream ``def``'s body, the
    two ``def`` headers paired with each other, and another line of the body, continued in order
    (``kept``, per position in ``paired``) and not brackets alone, paired with a line of that
    upstream body (see the module docstring). The lines of a header broken over lines (its
    parameters, at the body's depth) are the header's, on either side, not its body's."""
    r, rows = lab.result, lab.t_rows
    kinds = lab.target_kinds()
    texts = lab.stripped()
    t_stmt = lab.statements()
    out = np.zeros(len(candidates), bool)
    for i, k in enumerate(candidates.tolist()):
        tc, u = int(paired[k]), int(up_file[k])
        if r.match[rows[tc]] != VERBATIM or kinds[tc] != CODE or CLOSER.fullmatch(texts[tc]) is not None:
            continue
        head = enclosing_def(lab.t_lines, rows, kinds, tc)
        if head < 0 or r.match[rows[head]] == NONE or int(r.up_file[rows[head]]) != u:
            continue
        body = block_of(lab.t_lines, rows, kinds, head)
        if last_code_line(kinds, body) != tc:
            continue
        u_rows, u_lines = lab.upstream_lines(u)
        u_kinds = lab.upstream_kinds(u)
        u_head = int(np.searchsorted(u_rows, r.up_row[rows[head]]))
        u_at = int(u_pos[k])
        if enclosing_def(u_lines, u_rows, u_kinds, u_at) != u_head:
            continue
        u_body = block_of(u_lines, u_rows, u_kinds, u_head)
        if last_code_line(u_kinds, u_body) != u_at:
            continue
        # Another line of the body paired inside the upstream body: the function was copied,
        # not only its header and its last line placed by position.
        u_stmt = Statements.of(lab).upstream_unlimited(u)[0]
        lo, hi = int(np.searchsorted(paired, body.start)), int(np.searchsorted(paired, body.stop))
        out[i] = any(j != k and kept[j] and int(up_file[j]) == u and int(u_pos[j]) in u_body
                     and kinds[paired[j]] == CODE and CLOSER.fullmatch(texts[paired[j]]) is None
                     and t_stmt[paired[j]] != t_stmt[head] and u_stmt[u_pos[j]] != u_stmt[u_head]
                     for j in range(lo, hi))
    return out


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
    target file's markers name the upstream (lone groups beside other lines of their pair are
    kept). ``placed``: upstream files
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
    if p.lone_unit_statement:
        # A unit that is a whole statement re-wrapped is as strong as the statement re-joined
        # (``lone_unit_statement``).
        for u0, u1 in zip(first.tolist(), last.tolist(), strict=True):
            if u1 > u0 and not strong[u0:u1 + 1].all() and \
                    _whole_statement_like(lab, paired[u0:u1 + 1], int(up_file[u0])):
                strong[u0:u1 + 1] = True
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

    if p.lone_def_ends:
        # The last line of a copied function's body continues its header: the body's middle
        # was edited, the neighbour's partner moved (``lone_def_ends``).
        one = np.flatnonzero(~continued & (first == last))
        if len(one):
            continued[one[_def_ends(lab, paired, up_file, u_pos, first[one], continued[unit])]] = True

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
    gone = [dropped]  # positions in ``paired`` this pass drops
    gone += [rule(lab, paired) for rule in _shape_rules(p)]
    if p.lone_punctuation_pieces:
        gone.append(punctuation_pieces(lab, paired))
    drop = [paired[g] for g in gone]
    if p.lone_group_max_lines and (not attributed or p.lone_group_attributed_alone) and len(link):
        # A group is isolated from the paired lines that stay: lines dropped above (``def
        # __init__(`` and ``self,`` placed by position next to the group, a closing bracket of the
        # target's own statement, an orphan decorator or clause) do not shelter it.
        stays = np.ones(len(paired), bool)
        stays[np.concatenate(gone).astype(np.int64)] = False
        kept = paired[stays]
        group = np.r_[0, np.cumsum(~link)][unit]  # group of each paired line
        code_lines = max(int((lab.target.kind[start:start + len(rows)] == CODE).sum()), 1)
        share = {int(u): int((code & (up_file == u)).sum()) / code_lines for u in np.unique(up_file).tolist()}
        bounds = np.flatnonzero(np.r_[True, group[1:] != group[:-1], True])
        for g0, g1 in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            if unit[g0] == unit[g1 - 1] or g1 - g0 > p.lone_group_max_lines:
                continue  # one unit (the lone-line test above) or not small
            if attributed and (stays & (up_file == up_file[g0])).sum() > stays[g0:g1].sum():
                continue  # a file naming the upstream keeps a group beside other lines of its pair
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


def drop_lone_lines(lab: FileLabeller, idioms: IdiomFilter, attributed: bool = False,
                    placed: frozenset[int] = frozenset()) -> int:
    """Unpair the labeller's lone lines (and lone groups) that are no evidence on their own,
    then pair the clauses their statements continue (``lone_clause_pairs``); returns how many
    were unpaired."""
    if not lab.p.lone_rule:
        return 0
    mended = mend_header_roles(lab) if lab.p.lone_header_roles else 0
    drop = lone_lines(lab, idioms, attributed, placed)
    for tc in drop.tolist():
        lab.unpair(tc)
    if lab.p.lone_shapes_after_drop and len(drop):
        # The lines just dropped no longer vouch for a bracket, decorator or clause of theirs
        # (``lone_shapes_after_drop``); what those rules drop vouches for nothing, so once is enough.
        again = shape_orphans(lab)
        for tc in again.tolist():
            lab.unpair(tc)
        drop = np.concatenate([drop, again])
    pair_free_lines(lab)
    return mended + len(drop)


def _shape_rules(p: MatchParams) -> list[Callable[[FileLabeller, np.ndarray], np.ndarray]]:
    """The shape rules that are on: each gives the positions (in ``paired``) of the closing
    brackets, decorators or clauses whose statement, definition or clause header is not paired."""
    return [rule for on, rule in ((p.lone_closing_brackets, closing_brackets), (p.lone_decorators, orphan_decorators),
                                  (p.lone_clauses, orphan_clauses)) if on]


def shape_orphans(lab: FileLabeller) -> np.ndarray:
    """Content-line indices of the paired closing brackets, decorators and clauses (each rule
    that is on) whose statement, definition or clause header the file's labels no longer pair."""
    paired = np.flatnonzero(lab.result.match[lab.t_rows] != NONE)
    gone = [rule(lab, paired) for rule in _shape_rules(lab.p)]
    return unique(np.concatenate([paired[g] for g in gone])) if gone else np.zeros(0, np.int64)
