"""The fill's lone survivors and its other rules for lines outside a copy's stretches (step 6,
:mod:`lineage.match.fill`; their reasons below): distinctive lines with identical text, aligned in
order (:func:`lone_survivors`); the first code survivor below the imports
(:func:`first_code_survivor`); blocks of consecutive lines before the first paired line or after
the last (:func:`edge_blocks`); and a file's imports paired in any order, re-rooted ones of a
vendored copy too (:func:`imports_in_any_order`).

* **Lone survivors** (:func:`~lineage.match.fill_survivors.lone_survivors`). Everywhere else in an
  established pair (before the first anchor, after the last, longer stretches, and pairs with no
  anchor at all), only distinctive lines align (at least ``survivor_min_tokens`` tokens and
  ``survivor_min_chars`` characters), and only on identical stripped text: each is paired
  verbatim, even alone. In a file rewritten over years a signature or a ``raise`` with its message
  survives between new code; alone it could never be a region, but the pair is already known and
  the line is in order with the pair's other lines. Of the pairs established by a region, only the
  file's main pair (the upstream file most of its lines are paired with) gets survivors: a file
  that took a function from a second upstream file shares that file's imports and idioms (``from
  .user import User``) far more often than it kept its lines (on the real renamed fork, 8 of 42
  such lines were copies, against 261 of 333 in the main pairs, with align_max_gap 40). In a long
  inner stretch the survivors then serve as anchors, and the stretches between them short enough
  are aligned as inside a copy (``fill_survivor_anchors``). So they do **after the pair's last
  paired line** (``fill_edge_survivor_anchors``), when the target file has the upstream file's
  name: a region can end early (on the real renamed fork, ``nextcord/http.py``'s regions stopped a
  third of the way in, where new endpoints were inserted, and the hundreds of methods after them,
  annotated and re-wrapped, were left to the survivors, each method's unchanged ``return
  self.request(r, reason=reason)``), and a file of the upstream file's own name is its later
  version from edge to edge, so the lines between two of its survivors are copied code edited in
  place. Not in a file of another name (one that took a part of the upstream file: outside that
  part, its own code, ``nextcord/webhook/async_.py`` <- ``discord/webhook.py``, 25 of 30 such
  lines new by git blame), and not before the pair's first paired line: there stand the imports,
  which a derived file rewrites to its own modules, and aligning them between survivors paired
  them with the upstream's imports of other modules (``from .enums import (`` <- ``from .channel
  import *``; on the sglang/vLLM pair, sglang's ``from sglang.srt.layers... import`` lines).
  **Before the pair's first paired line**, in a target file of the upstream file's own name, the
  survivors anchor the alignment too, but only from the first of them that is not an import on
  (``fill_leading_survivor_anchors``): the file is its later version from edge to edge, as above,
  and below its import block the module's code is the old code edited (``nextcord/http.py``:
  ``pass`` / ``return text`` of the old ``json_or_text`` between two survivors, above the first
  region). This also takes a pair with **no paired line at all** before the fill (established by
  its path or a marker, no region: a file rewritten over years, ``nextcord/sticker.py`` <-
  ``discord/sticker.py``, annotated line by line), whose survivors are the only places where the
  copy can be seen; alone, each would face the lone-line rule, which drops most of them (a
  ``return self.name`` survives in many files).
* **Imports out of order** (:func:`~lineage.match.fill_survivors.imports_in_any_order`). In the
  same pairs as the survivors, a one-line import the upstream file also has is paired in any
  order: isort sorts a fork's imports again.
* **Lines moved within the file** (:func:`~lineage.match.fill_survivors.moved_lines`). In a pair
  at the target file's own path (the same relative path, also below a folder the target renamed:
  :mod:`lineage.match.renames`), which says the file is the upstream file's later version as
  git's history would, a free code line whose fold form stands exactly once in each of the two
  files and holds at least ``fill_moved_min_alnum`` (20) letters and digits is that line moved,
  and is paired in any order: a helper call taken from one method into another (requests'
  ``username, password = get_auth_from_url(proxy)`` from ``proxy_headers`` into
  ``proxy_manager_for``), keyword arguments sorted again (``version=morsel["version"] or 0,``).
  The in-order rules never see such a line (it breaks the pair's order), nor a region (one
  line). Once in each file: a line the file writes twice has no one place it came from; 20
  alphanumeric characters: ``git blame -M``'s own minimum for a moved line, below which a line
  is written the same way by chance (``return None``, ``else:``). Not in a file that only has
  the upstream file's name: two projects' files of one name (``models/llama.py`` of sglang and
  of vLLM) each write their own code alike, and on the sglang/vLLM pair the rule, then limited
  to such names, paired 648 more code lines, two of them false copies of the real-pair
  truth set and none a true one (an import-list entry of sglang's own module,
  ``VocabParallelEmbedding,``; a generic ``if hasattr(quant_config, "to_dict"):``). Only in a
  pair that has lines paired already (a file at the upstream file's path that no line of it was
  found in, such as nextcord's ``discord/`` shim re-exporting nextcord under the old name, holds
  no copy for lines to move in: there the rule paired the shim's ``__all__`` entries with the
  old file's, which git blame credits to the shim's own commit). Like the imports, these lines
  come after the in-order rules and are never their anchors, and the lone-line rule judges them
  (:mod:`lineage.match.lone`): one that nothing copied continues stays only if it is rare
  upstream.
"""

from __future__ import annotations

import operator
import re
from collections import Counter

import numpy as np

from lineage.index import CODE, COMMENT
from lineage.match.fill_lines import (
    Keys,
    align_forms,
    align_keys,
    fold_form,
    free_mask,
    is_free,
    span_arrays,
)
from lineage.match.imports import (
    as_upstream_folder,
    as_upstream_package,
    import_module,
    is_import_line,
    unvendored_import,
)
from lineage.match.labels import FileLabeller, pair_label
from lineage.match.origin import vendored_root
from lineage.match.records import NONE, VERBATIM


def lone_survivors(lab: FileLabeller, u_file: int, t_span: range, u_span: range, used: set[int],
               number: int) -> list[int]:
    """Rule (b): distinctive lines with identical stripped text, aligned in order, each verbatim."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    keys = Keys()
    # The same keys as before line by line, with the tests on the arrays (free, kind, tokens)
    # made at once; the key ids are given in the same order, so the alignment is the same.
    t_kinds, t_tokens = span_arrays(lab.target, int(lab.target.file_start[lab.t_file]), t_span)
    t_keys = [keys.of(kind, text if ok and lab.distinctive(text := lab.t_lines[row].strip(), tokens) else None)
              for kind, tokens, ok, row in zip(t_kinds.tolist(), t_tokens.tolist(),
                                               free_mask(lab, u_file, t_span).tolist(),
                                               lab.t_rows[t_span.start : t_span.stop].tolist(), strict=True)]
    u_kinds, u_tokens = span_arrays(lab.upstream, int(lab.upstream.file_start[u_file]), u_span)
    u_keys = [keys.of(kind, text if uc not in used and lab.distinctive(text := u_lines[row].strip(), tokens) else None)
              for uc, kind, tokens, row in zip(u_span, u_kinds.tolist(), u_tokens.tolist(),
                                               u_rows[u_span.start : u_span.stop].tolist(), strict=True)]
    if lab.p.survivor_target_repeats:
        # A text standing more often in the target's stretch than in the upstream's says by
        # itself which upstream line each copy is, but not which target line kept it: the LCS
        # takes the first (``nextcord/http.py``'s ``valid_keys = (`` of ``edit_guild`` paired with
        # ``edit_template``'s, 47 lines on, which then broke the chain both methods are aligned
        # by). Such lines wait for the alignment between the survivors.
        t_count, u_count = Counter(t_keys), Counter(u_keys)
        t_keys = [keys.of(CODE, None) if k >= 0 and t_count[k] > u_count[k] else k for k in t_keys]
    done: list[int] = []
    placed: list[tuple[int, int]] = []
    for i, j in align_keys(t_keys, u_keys):
        tc, uc = t_span[i], u_span[j]
        t_text, u_text = lab.texts(tc, uc, u_rows, u_lines)
        labelled = pair_label(t_text, u_text, lab.p, lab.packages(u_file))
        if labelled is not None:
            lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
            done.append(uc)
            placed.append((i, j))
    # Between two survivors on one diagonal, a few comment lines identical to the upstream lines
    # at the same places are copied with them (a licence header's ``#`` and URL lines between its
    # notice sentences): too common to survive alone, held in place on both sides. Not code: a
    # generic ``self,`` between two generic signature lines would make them continue each other,
    # and the lone-line rule would keep what it drops now (sglang/vLLM: 92 such code lines).
    gap = lab.p.fill_survivor_gap_lines
    for (i1, j1), (i2, j2) in zip(placed, placed[1:], strict=False):
        if gap <= 0 or i2 - i1 != j2 - j1 or not 1 < i2 - i1 <= gap + 1:
            continue
        between = [(t_span[i], u_span[j]) for i, j in zip(range(i1 + 1, i2), range(j1 + 1, j2), strict=True)]
        if all(is_free(lab, u_file, tc) and uc not in used and lab.target_kind(tc) == COMMENT
               and lab.upstream_kind(u_file, uc) == COMMENT and operator.eq(*lab.texts(tc, uc, u_rows, u_lines))
               for tc, uc in between):
            for tc, uc in between:
                lab.set_pair(tc, u_file, int(u_rows[uc]), VERBATIM, 1.0, number)  # the same text
                done.append(uc)
    return done


def first_code_survivor(lab: FileLabeller, u_file: int, t_span: range) -> int | None:
    """The first code line of ``t_span`` paired with ``u_file`` that is not an import (the
    leading survivors anchor the alignment from there on: below the import block; a licence
    header's comment lines stand above it)."""
    r, rows = lab.result, lab.t_rows
    for tc in t_span:
        row = rows[tc]
        if (r.match[row] != NONE and r.up_file[row] == u_file and lab.target_kind(tc) == CODE
                and import_module(lab.t_lines[row]) is None):
            return tc
    return None


def edge_blocks(lab: FileLabeller, u_file: int, t_span: range, u_span: range, used: set[int],
                 number: int) -> list[int]:
    """Before the pair's first paired line and after its last, only one side of a stretch is
    bounded by the copy, so a line there aligns by chance as readily as by descent, and only
    lone survivors are paired. A block of at least ``fill_edge_block_lines`` consecutive code
    lines that align, in order, with as many consecutive upstream lines (by the key lines
    align on inside a copy: fold form, without annotations) is no chance: a module's
    ``__all__`` or constants re-quoted by a formatter (``"Status",`` <- ``'Status',``) have
    no line identical to upstream and seed nothing, and sit above the first copied function."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    keys = Keys()
    t_code = span_arrays(lab.target, int(lab.target.file_start[lab.t_file]), t_span)[0] == CODE
    t_keys = align_forms(lab).keys(keys, t_span, (free_mask(lab, u_file, t_span) & t_code).tolist())
    u_code = (span_arrays(lab.upstream, int(lab.upstream.file_start[u_file]), u_span)[0] == CODE).tolist()
    u_wanted = [ok and uc not in used for uc, ok in zip(u_span, u_code, strict=True)]
    u_keys = align_forms(lab, u_file).keys(keys, u_span, u_wanted)
    aligned = align_keys(t_keys, u_keys)
    blocks: list[list[tuple[int, int]]] = []
    for i, j in aligned:
        if blocks and blocks[-1][-1] == (i - 1, j - 1):
            blocks[-1].append((i, j))
        else:
            blocks.append([(i, j)])
    done: list[int] = []
    for block in blocks:
        if len(block) < lab.p.fill_edge_block_lines:
            continue
        for i, j in block:
            tc, uc = t_span[i], u_span[j]
            labelled = pair_label(*lab.texts(tc, uc, u_rows, u_lines), lab.p, lab.packages(u_file))
            if labelled is not None:
                lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)
                done.append(uc)
    return done


def imports_in_any_order(lab: FileLabeller, u_file: int, new_number: int, placed: bool = False) -> None:
    """Rule (c), imports out of order: a tool such as isort sorts a file's imports again, so
    the copied imports stand in another order than upstream and the in-order rules leave them
    none. In the file's main pair (the pair that gets lone survivors), a free one-line import
    statement of at least ``fill_import_min_tokens`` tokens whose fold form is that of an
    import of the upstream file not yet paired is paired with it, in any order. This runs
    after the in-order rules and its lines are never their anchors: on the real sglang/vLLM
    pair, imports as anchors let the alignment pair the generic lines between them (``try:``,
    ``)``, imports of each project's own modules). They join the region of the pair's first
    paired line (a new region when there is none). In a vendored copy of the upstream file
    (``fill_vendored_imports``; :func:`~lineage.match.origin.vendored_root`), a target import
    is compared as it was before the vendoring tool re-rooted it (:func:`unvendored_import`:
    ``from pip._vendor import requests`` <- ``import requests``), and paired near. At the target
    file's own place (``placed``), an import of the fork's renamed package is compared as the
    upstream wrote it (``lone_placed_import_variants``), and paired near."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    r, rows = lab.result, lab.t_rows
    root = vendored_root(lab.target.files[lab.t_file].path, lab.upstream.files[u_file].path,
                         lab.p.vendor_folder_names) if lab.p.fill_vendored_imports else None
    module_root = root.replace("/", ".") if root is not None else None
    mine = np.flatnonzero((r.match[rows] != NONE) & (r.up_file[rows] == u_file))
    used = set(np.searchsorted(u_rows, r.up_row[rows[mine]]).tolist())
    number = int(r.region[rows[mine[0]]]) if len(mine) else new_number
    t = lab.target
    t_start = int(t.file_start[lab.t_file])
    by_form: dict[str, list[int]] = {}
    sorted_names = bool(lab.p.fill_import_sorted_names)
    renamed_package = bool(lab.p.lone_placed_import_variants) and placed
    packages = lab.packages(u_file)
    modules = lab.renamed_modules(u_file) if renamed_package else ("", "")
    for uc, form, names in _upstream_imports(lab, u_file):
        if uc not in used:
            by_form.setdefault(form, []).append(uc)
            if sorted_names and names is not None:
                by_form.setdefault(names, []).append(uc)
    if not by_form:
        return
    # Free lines only change here by this loop pairing the line it is at, so the tests on the
    # arrays (code, enough tokens, unlabelled) can be made once, before it.
    n = len(rows)
    candidates = np.flatnonzero((t.kind[t_start : t_start + n] == CODE) & (r.match[rows] == NONE)
                                & (t.ntok[t_start : t_start + n] >= lab.p.fill_import_min_tokens))
    for tc in candidates.tolist():
        text = lab.t_lines[rows[tc]].strip()
        if not is_import_line(text) or not is_free(lab, u_file, tc):
            continue
        mine = unvendored_import(text, module_root) if module_root else text
        free_ups = [uc for uc in by_form.get(fold_form(mine, CODE), []) if uc not in used]
        if not free_ups and renamed_package and (theirs := as_upstream_package(mine, packages)) is not None:
            # a fork's import of its renamed package (``lone_placed_import_variants``)
            free_ups = [uc for uc in by_form.get(fold_form(theirs, CODE), []) if uc not in used]
        if not free_ups and renamed_package and (theirs := as_upstream_folder(mine, modules)) is not None:
            # ... or of a module below its renamed folder (lightning.pytorch <- pytorch_lightning)
            free_ups = [uc for uc in by_form.get(fold_form(theirs, CODE), []) if uc not in used]
        if not free_ups and sorted_names and (names := names_key(mine)) is not None:
            # at its own indentation: isort sorted it where it stood (an import moved into a
            # function, paired with the module's, would part the function's survivors)
            indent = indentation(lab.t_lines[rows[tc]])
            free_ups = [uc for uc in by_form.get(names, [])
                        if uc not in used and indentation(u_lines[u_rows[uc]]) == indent]
        if not free_ups:
            continue
        uc = free_ups[0]
        used.add(uc)  # tried once, paired or not
        labelled = pair_label(text, u_lines[u_rows[uc]].strip(), lab.p, lab.packages(u_file))
        if labelled is not None:
            lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, number)


def _upstream_imports(lab: FileLabeller, u_file: int) -> list[tuple[int, str, str | None]]:
    """(content line, fold form, :func:`names_key`) of each import line of upstream file
    ``u_file``, in order (kept for the run in the upstream side: an upstream file is paired with
    many target files, and rule (c) read all its lines for each)."""
    memo = lab.upstream.import_memo
    if u_file not in memo:
        u_rows, u_lines = lab.upstream_lines(u_file)
        start = int(lab.upstream.file_start[u_file])
        found = []
        # Only code lines can be imports (the kind test once, on the arrays), and an import's
        # stripped text starts with one of two words (a cheap test before the pattern).
        for uc in np.flatnonzero(lab.upstream.kind[start : start + len(u_rows)] == CODE).tolist():
            text = u_lines[u_rows[uc]].strip()
            if is_import_line(text):
                found.append((uc, fold_form(text, CODE), names_key(text)))
        memo[u_file] = found
    return memo[u_file]


_FROM_IMPORT = re.compile(r"from\s+([\w.]+)\s+import\s+([\w\s,]+?)\s*,?")


def indentation(line: str) -> int:
    """How many leading whitespace characters a line has."""
    return len(line) - len(line.lstrip())


def names_key(text: str) -> str | None:
    """A one-line ``from X import a, b`` (stripped, no brackets, no ``as``) as its module and its
    sorted names: the same key for the names in any order (``fill_import_sorted_names``)."""
    m = _FROM_IMPORT.fullmatch(text.split("#", 1)[0].strip())
    if m is None:
        return None
    names = sorted(name.strip() for name in m.group(2).split(",") if name.strip())
    return f"\0sorted {m.group(1)} " + ",".join(names) if len(names) > 1 else None


def moved_lines(lab: FileLabeller, u_file: int, first_number: int) -> int:
    """Rule (d), lines moved within the file (see the module docstring): pair each free code line
    of the target whose fold form stands once in the target file and once, unpaired, in the
    upstream file, with ``fill_moved_min_alnum`` letters and digits, in any order. Returns how
    many were paired. Each is a region of its own, numbered from ``first_number`` in target line
    order (the caller makes their chains): joined to a region in order, a moved line far from it
    stretched that region's line range over code that was not copied (on sglang/vLLM,
    ``ssd_combined.py`` lines 3-73 became 3-309 for one line). A pair with no paired line
    (established by its path alone: a fork's compatibility shim at the upstream file's path)
    gets none, as it holds no copy for lines to move in."""
    u_rows, u_lines = lab.upstream_lines(u_file)
    r, rows = lab.result, lab.t_rows
    mine = np.flatnonzero((r.match[rows] != NONE) & (r.up_file[rows] == u_file))
    if len(mine) == 0:
        return 0  # no line of the pair is paired in order: there is no copy to move lines in
    used = set(np.searchsorted(u_rows, r.up_row[rows[mine]]).tolist())
    u, t = lab.upstream, lab.target
    u_start, t_start = int(u.file_start[u_file]), int(t.file_start[lab.t_file])

    def forms(side_lines: list[str], side_rows: np.ndarray, kinds: np.ndarray) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for c in np.flatnonzero(kinds == CODE).tolist():
            text = side_lines[side_rows[c]].strip()
            if sum(map(str.isalnum, text)) >= lab.p.fill_moved_min_alnum:
                out.setdefault(fold_form(text, CODE), []).append(c)
        return out

    u_forms = forms(u_lines, u_rows, u.kind[u_start : u_start + len(u_rows)])
    t_forms = forms(lab.t_lines, rows, t.kind[t_start : t_start + len(rows)])
    paired = 0
    for form, t_at in sorted(t_forms.items(), key=lambda item: item[1][0]):
        u_at = u_forms.get(form)
        if len(t_at) != 1 or u_at is None or len(u_at) != 1 or u_at[0] in used:
            continue
        tc, uc = t_at[0], u_at[0]
        if not is_free(lab, u_file, tc):
            continue
        labelled = pair_label(lab.t_lines[rows[tc]].strip(), u_lines[u_rows[uc]].strip(), lab.p, lab.packages(u_file))
        if labelled is not None:
            lab.set_pair(tc, u_file, int(u_rows[uc]), *labelled, first_number + paired)
            used.add(uc)
            paired += 1
    return paired
