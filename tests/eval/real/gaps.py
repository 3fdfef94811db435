"""Steps 4 to 7 of a git case's truth: the copied lines blame does not see.

    python -m tests.eval.real.gaps CASE      # recompute them on the committed truth (PyPI only)

Blame (steps 1-3, :mod:`tests.eval.real.gittruth`) says which target lines are unchanged since
OLD, up to whitespace.  A copy-detection truth must also count a copied line that was changed a
little since: the suite's synthetic cases count renamed identifiers, edited literals, re-wrapped
calls and reformatted lines as ``near`` copies, and the vendored case counts a changed line
still similar to the one it replaced (``align.diff_pairs``).  These rules give the git cases the
same meaning.  All work in one target file against its *main* upstream file, in order only:
its *own* file (the same path, after a fork's rename) when blame credits that file with any
line, since git's history then says the target file is a later version of it (before
2026-12-03 evening the main file was the one blame credits most, which lost the own file of
``nextcord/mixins.py`` once ``-C -C -C`` credited a class of it to ``discord/abc.py``); else
the file blame credits most.  The blame lines of that pair, the longest chain of them
increasing in both files (:func:`align.increasing_chain`), are anchors, and only the lines
strictly between two anchors (or before the first, after the last) are aligned with the
upstream lines between the same two places.

In a later version of the file's own (and in a moved function, step 6), every comparison
below is made on the lines less their **type annotations and trailing comments**
(:func:`without_annotations`, by ``tokenize``: a parameter's ``: T``, a return ``-> T``, the
``: T`` of ``target: T = value``; a comment after code; an annotation broken over lines is
left alone but for a parameter's, inside the signature's brackets, since 2026-12-05 evening),
on both sides.  An
annotation states a type the code already had and a comment is no code, so adding either
leaves a copied line the line it was; without this cut a line that only gained annotations
(``self.nick: Optional[str] = data.get("nick")`` <- ``self.nick = data.get('nick')``, ratio
0.57) fell under the 0.6 cutoff of step 5b and counted as new.  A pair whose only differences
are these and step 4's is category ``annotated`` when the target line has an annotation, else
``reformatted`` (since 2026-12-03, evening; before, such lines were ``edited`` or new).  In a
file made of pieces of another file, step 4 compares the lines as they are: a line alike once
cut there is often a generic one (``def __repr__(self) -> str:``).

4. **Reformatted / renamed** (:func:`reformat_rows`): lines equal on :func:`reformat_key` (no
   whitespace, one quote character, no trailing comma; a fork's package name read as the
   upstream's) in the equal blocks of a diff of the two stretches, and not equal stripped:
   ``near``, category ``renamed`` when the line holds the fork's name, else ``reformatted``
   (``annotated``, above, when the annotations were what differed).
5. Then, with the lines of step 4 as further anchors:

   a. **Statements** (:func:`statement_rows`): the statements (logical lines, by ``tokenize``;
      tokens normalised as in step 4, a comma before a closing bracket dropped) of both
      stretches are aligned by a diff.  A statement whose tokens equal those of the statement
      opposite but broken over other lines (what Black does to a long call) is ``rewrapped``:
      each of its lines copies the upstream line that holds its first token (the synthetic
      ``rewrap_calls`` rule).  In a changed block, a multi-line statement paired with the most
      similar statement opposite (rapidfuzz ratio of the token texts >= ``NEAR_CUTOFF``, 0.6:
      re-wrapped *and* edited, a signature that gained annotations) is ``edited``: each of its
      lines at least half of whose words (names, literals) are words of that statement.
      Statements of one line on both sides are left to b.  A multi-line statement that holds
      an anchor (blame found one of its lines unchanged: ``params=None,`` of a signature Black
      exploded) is paired the same way with the upstream statement holding the anchor's
      origin, if their token texts are equal (``rewrapped``) or at ratio >= 0.6 (``edited``):
      such a statement straddles two stretches, so the stretch rule never saw it, and its
      other pieces (``def request(``, ``self,``, ``):``) counted as new.  When the two such
      statements end in one bracketed list holding the same arguments in another order
      (:func:`resorted_arguments`, since 2026-12-05 evening), each line that is one argument
      pairs with that argument's line opposite (``reordered``), the others as an edited
      statement's: requests sorted the 13 keyword arguments of ``create_cookie(...)`` in
      ``morsel_to_cookie`` by name, the statement's text fell to ratio 0.58 with the old one,
      and of its argument lines only those blame kept were copies.  In such a statement the
      words of an upstream line blame keeps unchanged (up to whitespace) at a line of its own
      are that line's, not the edit's (since 2026-12-05, late): a row added to a table
      (``AuditLogAction.stage_instance_create: AuditLogActionCategory.create,`` in
      ``AuditLogAction.category``'s ``lookup``, every old row kept) found all its words in the
      rows kept around it and was an "edit" of one of them; nor does an edited line name such
      an upstream line as the one it copies.
   Since 2026-12-06 (fork30, :func:`_kept_arguments`), a statement of several lines and an
      upstream statement of any number of lines, left unpaired in a replace block, both ending
      in one bracketed list after the same tokens, the new list holding at least half (and at
      least 2) of the old one's arguments unchanged and in their order, is that statement with
      arguments added or cut: its first line and its lines that are one kept argument copy the
      old statement (``valid_keys = (`` and its 11 old keys of ``edit_channel``, 13 added).
   b. **Lines** (:func:`edited_rows`): the remaining lines of both stretches are aligned as the
      vendored case aligns a file (:func:`align.diff_pairs`): a line inside a changed block
      paired with the most similar line opposite it, at rapidfuzz ratio >= ``NEAR_CUTOFF``
      (0.6), is a ``near`` copy, category ``edited`` (an identifier renamed, a literal changed,
      an annotation added); a line identical to the line opposite it (an equal block, or the
      best pair of a changed block) is a ``verbatim`` copy, category ``realigned`` (blame
      credits it to a later commit whose diff aligned it with another ``else:`` or ``)``).

   In a and b, a function or class header pairs only with a header whose name is alike
   (rapidfuzz ratio >= 0.6: ``_unique`` -> ``unique`` pairs, ``async def timeout(`` opposite
   ``async def edit(`` does not), and an import only with an import of the same module
   (``import contextlib`` opposite ``import collections``, ratio 0.67, does not)
   (:func:`_same_name`): with annotations cut, signatures of different functions look alike.

   Step 5 runs only where the main upstream file is the target file's own (after the rename):
   git's history says the file is a later version of it, so a line opposite a changed line is
   a changed copy of it.  A file created after OLD from a few lines of another file
   (``nextcord/interactions.py``: 2 blame lines from ``discord/webhook.py`` in 1,105) gets
   blame's lines, step 4 and step 6 only.
   c. **Headers** (:func:`header_rows`, since 2026-12-05): in a later version of the file's
      own, a function's ``def`` statement pairs with the upstream ``def`` of the same qualified
      name (``Class.method``, each defined once, no ``@overload``) as step 5a pairs two
      statements, wherever the diff put them: a function rewritten around its signature
      (``def create_activity(`` re-wrapped and typed, its body new) left the diff nothing to
      put them opposite each other by.  The two are compared without their return
      annotations (:func:`_without_return_annotation`, since 2026-12-05 night): the annotation
      cut leaves one broken over lines whole, and nine lines of ``-> Callable[...]`` kept
      ``ext/commands/core.py``'s module-level ``def command(`` under the 0.6 cutoff.

   In step 5a's half-of-its-words rule (and so in 5c), the words of a string literal count
   one by one (a message moved into an f-string keeps its words) and ``None``, ``True`` and
   ``False`` are no words (a parameter added with a default of ``None``, ``json=None,``,
   shared only that with the old signature) (both since 2026-12-05).
6. **Moved functions**: a function (``def``, by ``ast``, the innermost one) of the target
   holding at least ``MOVED_FUNCTION_MIN_LINES`` (2) blame lines from one function of an
   upstream file other than the one step 5 aligned (or of any file, when step 5 did not run)
   is that function moved: step 5 runs between the two functions, with those blame lines as
   anchors (``to_native_string`` moved from ``utils.py`` to ``_internal_utils.py`` and
   edited; ``TextChannel.purge`` rewritten as ``Thread.purge``).  One line is not enough: blame
   may credit a lone ``return self`` to any of many equal lines.
   b. **Files written from another** (since 2026-12-05): in a file with no old version of its
      own, at least ``WRITTEN_FROM_MIN_SHARE`` (a tenth) of whose non-blank lines blame keeps
      from one upstream file, a function (not a dunder, not an ``@overload`` declaration) whose
      name the file and that upstream file each define once is that function rewritten, and
      step 5 runs between them though blame kept fewer than 2 of its lines
      (``nextcord/webhook/sync.py``'s ``edit_webhook`` <- ``discord/webhook.py``'s, every line
      edited; before, blame's lines in the file were copies and the rest of the function new).
      Since 2026-12-05 night, a name the upstream file defines in several classes (not a
      dunder, still defined once in the target) pairs with the definition whose text is most
      like the target function's (:func:`_closest`): ``webhook/async_.py``'s
      ``AsyncWebhookAdapter.request`` and ``webhook/sync.py``'s ``WebhookAdapter.request``, the
      rate-limit loops of ``discord/webhook.py``'s adapters rewritten, were new because
      ``request`` stands three times there (the abstract one, the aiohttp one, the requests
      one).
   c. **Classes moved** (since 2026-12-05): a class of the target holding at least
      ``MOVED_FUNCTION_MIN_LINES`` blame lines from one class of an upstream file other than
      the one step 5 aligned, the two names alike (ratio >= ``NEAR_CUTOFF``, as two headers
      pair: ``ApplicationMissingRole`` <- ``MissingRole``), is that class moved: step 5 runs
      between the two classes (``ext/application_checks/errors.py``'s exceptions, each blame
      line a docstring line, each ``__init__`` edited; ``webhook/async_.py``'s ``Webhook``).  A
      first draft that took any such class (no name test) paired ``GuildPreview`` with
      ``Guild`` and ``InteractionMessage`` with ``Message``.
   d. **Functions copied within the file** (since 2026-12-05 night): in a later version of
      the file's own, a function holding at least ``MOVED_FUNCTION_MIN_LINES`` blame lines off
      the in-order chain from one upstream function *of the same name* is a second copy of it
      made after OLD (``VoiceChannel.purge`` and ``ForumChannel.permissions_for`` written from
      ``TextChannel``'s; blame's ``-M`` finds their unchanged lines, step 5 aligned only the
      first copy in place), and step 5 runs between the two as in step 6. The first copy keeps
      the upstream lines it was paired with; a changed line of the second copy whose upstream
      line the file holds verbatim elsewhere is the file's own edit of the first copy, not a
      copy from the upstream (issue 8's truth set credits the upstream line to the verbatim
      copy, and lineage's ``second_copy_rule`` does the same), so it stays new.
   e. **Module statements moved** (since 2026-12-05 evening): a multi-line statement outside
      any function holding at least ``MOVED_FUNCTION_MIN_LINES`` blame lines from one
      statement of another file is that statement moved, and step 5 runs between the two
      (requests' ``REDIRECT_STATI``, moved from ``sessions.py`` to ``models.py``: blame kept
      its first four lines, while its edited ``codes.temporary_redirect,`` and its ``)`` were
      blocks under blame's 40 characters).
   f. **Functions moved within the file under another name** (since 2026-12-05 evening): as
      6d, for a function whose name is not the one it took its off-chain blame lines from (at
      least ``MOVED_FUNCTION_MIN_LINES``): requests split ``merge_environment_settings`` out
      of ``Session.request`` and put it below ``send``; blame kept its comments and merge
      lines, and the edited ``for k, v in env_proxies.items():`` and the 19-character
      ``proxies.setdefault(k, v)`` between them counted as new.  Aligned as step 6 aligns a
      moved function (not as 6d's second copy: run that way it took back the upstream lines
      of its first copy, 81 docstring pieces and ``return self`` "realigned" in the fork),
      after steps 6-6c, whose rows stay.
7. **Lines moved within the file** (:func:`unique_rows`): in a later version of its own file, a
   line standing exactly once in each version, equal on step 4's key, is that line moved, if
   it is an import or has at least ``UNIQUE_MIN_ALNUM`` (20) alphanumeric characters; category
   ``reordered``.  Since 2026-12-06 (fork30) also a line standing more than once whose other
   copies the steps above paired, so that it stands once among each version's free lines,
   when the two lines' innermost functions (or the module level) hold a pair already: blame
   kept the ``import nextcord`` of ``__main__.py``'s template string, and the module's own
   ``import nextcord``, renamed and moved by isort, was new.  Blame's ``-M`` follows a move
   only in a block of 20 alphanumeric characters and not a line moved and reformatted together
   (isort's ``import re``, a quote change).
   b. The same between the file and another upstream file blame moved at least
      ``MOVED_FUNCTION_MIN_LINES`` lines from into it (since 2026-12-05 evening), for a
      statement at the module's top level that is no import, compared as it is:
      ``DEFAULT_REDIRECT_LIMIT = 30``, moved with ``REDIRECT_STATI`` (6e) and under blame's 40
      characters between files.  In a class or function a line standing once in each of two
      files is as often the language's (``def __setstate__(self, state):`` of ``Response``,
      added since, and of ``Session``), and any two files may import one name.

   c. (since 2026-12-06, fork30, :func:`moved_arguments`) An item moved inside a kept
      statement: a free line that is one argument of a target statement at least
      ``MOVED_FUNCTION_MIN_LINES`` of whose lines are paired with one upstream statement, equal
      to an argument of it no row names, each standing once in its statement (``"has_role",``
      of an ``__all__`` whose other items step 4 kept in order).

8. **Clauses** (since 2026-12-05, late): an ``else:`` or ``finally:`` a step above paired is a
   copy only with the statement it continues: its clause header copies the header above the
   upstream one, or the first code line of its block a line of the upstream one's block.  It
   holds no text, so the diff pairs any two (requests' new ``_validate_header_part``'s ``else:``
   "realigned" with that of the old ``get_auth_from_url``; 16 of the fork's, each the ``else:``
   of another statement).  b. The other way round: a free ``else:``/``finally:`` whose clause
   header is a copy of an old header is the old statement's same clause (the next line at the
   old header's indentation), when that one is free (nextcord's ``else:`` of ``if rules_channel
   is None:``, the block moved out of a ``try: ... else:`` and dedented; blame kept the rest).
   c. (since 2026-12-05, night) A free ``except ...:`` the first code line of whose block copies
   a line of an old ``except ...:``'s own block, free, is that clause with its exception edited
   (``edited``, near): requests' ``except HTTPError:`` <- ``except RequestException:`` of
   ``Response.ok``, changed in place by commit 925e975 ("catch exception more specifically"), at
   ratio 0.55, under step 5b's cutoff; nextcord's ``except ValueError:`` <- ``except (KeyError,
   TypeError):`` of ``Enum.try_value``.  Its block says which clause it is, as for ``else:``.

Since 2026-12-05, late, step 5 (and 4, 5c, 7) against the own file leaves out the upstream
units that moved to another target file (:func:`gone_units`: an innermost function, or a
multi-line statement outside any function, holding at least ``MOVED_FUNCTION_MIN_LINES``
lines blame credits to another target file and none it credits to this one): steps 6 and 6e
align them where they went, and what now stands at their old place is new (requests'
``to_native_string``, moved to ``_internal_utils.py``, was also "edited" into the new
``_validate_header_part`` of ``utils.py``; ``REDIRECT_STATI``'s ``)``, moved to ``models.py``,
also "realigned" with the ``)`` of an import list left in ``sessions.py``).

Only the blame rows (categories ``same_file`` and ``moved``) are inputs, so recomputing the
steps on a committed truth gives the same rows as a rebuild from the clone.
"""

from __future__ import annotations

import argparse
import ast
import csv
import gzip
import io
import json
import re
import sys
import tokenize
from collections import Counter
from collections.abc import Callable, Sequence, Set
from pathlib import Path

from rapidfuzz import fuzz

from tests.eval import generate
from tests.eval.real import align, cases

BLAME_CATEGORIES = ("same_file", "moved")
_SPACE = re.compile(r"\s+")
_CLOSERS = {")", "]", "}"}
_SKIP = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENDMARKER, tokenize.ENCODING}


def reformat_key(text: str) -> str:
    """A line as a formatter leaves it alone: no whitespace, one quote character, no trailing
    comma (what black or isort change inside one line)."""
    return _SPACE.sub("", text).replace("'", '"').rstrip(",")


def renamer(rename: tuple[str, str] | None) -> Callable[[str], str]:
    """Text with the fork's package name replaced by the upstream's (both casings)."""
    if not rename:
        return lambda text: text
    fork, upstream = rename

    def apply(text: str) -> str:
        return text.replace(fork, upstream).replace(fork.capitalize(), upstream.capitalize())

    return apply


Statement = list[tuple[str, int]]  # (normalised token, 0-based line of the token)


def statements(lines: Sequence[str], rename_text: Callable[[str], str]) -> dict[int, Statement]:
    """First line -> tokens of every logical line of a file (``tokenize``; comments left out,
    quotes unified, a comma before a closing bracket dropped: Black's magic trailing comma).
    A file tokenize refuses yields none (no statement rule there)."""
    source = "".join(line + "\n" for line in lines)
    out: dict[int, Statement] = {}
    current: Statement = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.NEWLINE or tok.type == tokenize.ENDMARKER:
                if current and all(text != "\0" for text, _ in current):
                    out[current[0][1]] = current
                current = []
            elif tok.type not in _SKIP:
                if tok.start[0] != tok.end[0]:
                    current.append(("\0", tok.start[0] - 1))  # a multi-line string: no statement rule
                text = rename_text(tok.string).replace("'", '"')
                if text in _CLOSERS and current and current[-1][0] == ",":
                    current.pop()
                current.append((text, tok.start[0] - 1))
    except (tokenize.TokenError, SyntaxError):
        return {}
    return out


# Type annotations (step 4-5's annotation rule) --------------------------------------------

_NOT_TARGET = {"if", "elif", "else", "while", "for", "try", "except", "finally", "with", "class",
               "def", "lambda", "return", "yield", "assert", "del", "import", "from", "raise",
               "global", "nonlocal", "async", "await", "match", "case", "print", "not", "and", "or", "in", "is"}


def annotation_cuts(lines: Sequence[str], comments: bool = True) -> dict[int, list[tuple[int, int]]]:
    """0-based line -> (start, end) character spans of the type annotations on it, by
    ``tokenize``: a parameter's ``: T`` (up to its ``=``, ``,`` or ``)``), a return ``-> T``, and
    the ``: T`` of an annotated assignment ``target: T = value`` (a dotted name as target; a bare
    declaration ``x: T`` with no value keeps its annotation).  Each span starts where the token
    before the annotation ends, so ``x: int = 1`` less its span is ``x = 1``.  A file tokenize
    refuses has none.  With ``comments``, a comment after code on a line is cut too (with the
    space before it): a comment is no code, and a note dropped or added leaves the line's code
    as it was."""
    source = "".join(line + "\n" for line in lines)
    cuts: dict[int, list[tuple[int, int]]] = {}
    logical: list[tokenize.TokenInfo] = []

    def cut(prev: tokenize.TokenInfo, toks: list[tokenize.TokenInfo], inside: bool = False) -> None:
        by_row: dict[int, list[tokenize.TokenInfo]] = {}
        for tok in toks:
            if tok.start[0] == tok.end[0]:
                by_row.setdefault(tok.start[0], []).append(tok)
        if len(by_row) != 1 and (not inside or any(tok.start[0] != tok.end[0] for tok in toks)):
            # An annotation broken over lines is left alone, but for a parameter's (``inside`` the
            # signature's brackets, since 2026-12-05 evening): there each row loses the
            # annotation's tokens on it, the rows between its first and last become blank, and
            # the text still parses.  Outside brackets (a return annotation, an assignment's) a
            # line break ends the statement, so its rows cannot be cut apart; nor can a string
            # running over lines.
            return
        for row, on_row in by_row.items():
            begin = prev.end[1] if prev.end[0] == row else min(t.start[1] for t in on_row)
            cuts.setdefault(row - 1, []).append((begin, max(t.end[1] for t in on_row)))

    def annotated(stmt: list[tokenize.TokenInfo]) -> None:
        words = [t.string for t in stmt]
        if not words:
            return
        at = 1 if words[0] == "async" else 0
        if words[at:at + 1] == ["def"] and len(words) > at + 3:
            depth, k, state = 0, at + 2, "param"
            while k < len(stmt):
                s = stmt[k].string
                if s in "([{" and stmt[k].type == tokenize.OP:
                    depth += 1
                    if depth == 1:
                        state = "param"
                elif s in ")]}" and stmt[k].type == tokenize.OP:
                    depth -= 1
                    if depth == 0:
                        break
                elif depth == 1 and s == ",":
                    state = "param"
                elif depth == 1 and s == "=":
                    state = "default"
                elif depth == 1 and s == ":" and state == "param" and stmt[k - 1].type == tokenize.NAME:
                    end = k + 1
                    d = 0
                    while end < len(stmt):
                        e = stmt[end].string
                        if e in "([{":
                            d += 1
                        elif e in ")]}":
                            if d == 0:
                                break
                            d -= 1
                        elif d == 0 and e in (",", "="):
                            break
                        end += 1
                    cut(stmt[k - 1], stmt[k:end], inside=True)
                    state = "default"
                    k = end
                    continue
                k += 1
            if k + 1 < len(stmt) and stmt[k + 1].string == "->":
                end = len(stmt) - 1  # the closing ':' of the def
                cut(stmt[k], stmt[k + 1:end])
            return
        if words[0] in _NOT_TARGET or stmt[0].type != tokenize.NAME:
            return
        k = 1
        while k + 1 < len(stmt) and words[k] == "." and stmt[k + 1].type == tokenize.NAME:
            k += 2
        if k < len(stmt) and words[k] == ":" and "=" in words[k:]:
            eq = words.index("=", k)
            cut(stmt[k - 1], stmt[k:eq])

    last: tuple[int, int] = (0, 0)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT and comments and last[0] == tok.start[0]:
                cuts.setdefault(tok.start[0] - 1, []).append((last[1], tok.end[1]))  # a trailing comment
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                annotated(logical)
                logical = []
            elif tok.type not in _SKIP:
                logical.append(tok)
            if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
                last = tok.end
    except (tokenize.TokenError, SyntaxError):
        return {}
    return cuts


def without_annotations(lines: Sequence[str]) -> list[str]:
    """The lines with :func:`annotation_cuts` removed (a line that was only an annotation
    becomes blank)."""
    out = list(lines)
    for i, spans in annotation_cuts(lines).items():
        text = lines[i]
        for start, end in sorted(spans, reverse=True):
            text = text[:start] + text[end:]
        out[i] = text
    return out


def _gaps(n_a: int, n_b: int, anchors: Sequence[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """(i1, i2, j1, j2) half-open stretches between consecutive anchors of the chain."""
    chain = align.increasing_chain(anchors)
    bounds = [(-1, -1), *chain, (n_a, n_b)]
    return [(ia + 1, ib, ja + 1, jb) for (ia, ja), (ib, jb) in zip(bounds, bounds[1:], strict=False)
            if ia + 1 < ib and ja + 1 < jb]


def reformat_rows(lines: Sequence[str], up_lines: Sequence[str], anchors: Sequence[tuple[int, int]],
                  normalise: Callable[[str], str], free: Sequence[str] | None = None,
                  up_free: Sequence[str] | None = None) -> list[tuple[int, int]]:
    """Step 4: (i, j) of lines equal on ``normalise`` but not stripped, between anchors;
    ``free``/``up_free``, the lines less their annotations (:func:`without_annotations`), are
    compared instead when given."""
    free, up_free = free or lines, up_free or up_lines
    out = []
    for i1, i2, j1, j2 in _gaps(len(lines), len(up_lines), anchors):
        left = [normalise(text.strip()) for text in free[i1:i2]]
        right = [normalise(text.strip()) for text in up_free[j1:j2]]
        for i, j in align.equal_pairs(left, right):
            if left[i] and lines[i1 + i].strip() != up_lines[j1 + j].strip():
                out.append((i1 + i, j1 + j))
    return out


def statement_rows(lines: Sequence[str], up_lines: Sequence[str], anchors: Sequence[tuple[int, int]],
                   rename_text: Callable[[str], str], used_up: set[int]) -> list[tuple[int, int, str]]:
    """Step 5a: (i, j, category) of the lines of multi-line statements copied with other line
    breaks (``rewrapped``: the same tokens) or edited (``edited``: the most similar statement
    opposite, ratio >= ``NEAR_CUTOFF``, as step 5b pairs single lines); every line of a paired
    upstream statement goes into ``used_up``.  Two one-line statements are left to step 5b."""
    mine, theirs = statements(lines, rename_text), statements(up_lines, rename_text)
    if not mine or not theirs:
        return []
    out = []
    for i1, i2, j1, j2 in _gaps(len(lines), len(up_lines), anchors):
        left = [s for start, s in sorted(mine.items()) if start >= i1 and s[-1][1] < i2]
        right = [s for start, s in sorted(theirs.items()) if start >= j1 and s[-1][1] < j2]
        keys_l = [" ".join(t for t, _ in s) for s in left]
        keys_r = [" ".join(t for t, _ in s) for s in right]
        pairs: list[tuple[Statement, Statement, str]] = []
        for tag, a1, a2, b1, b2 in align.opcodes(keys_l, keys_r):
            if tag == "equal":
                pairs += [(left[a1 + k], right[b1 + k], "rewrapped") for k in range(a2 - a1)]
            elif tag == "replace":
                found = align.similar_pairs(keys_l, keys_r, a1, a2, b1, b2)
                pairs += [(left[a], right[b], "edited") for a, b in found]
                extended = _extended(left, right, found, a1, a2, b1, b2)
                pairs += [(left[a], right[b], "extended") for a, b in extended]
                pairs += [(left[a], right[b], "arguments")
                          for a, b in _kept_arguments(left, right, list(found) + extended, a1, a2, b1, b2)]
        for s, u, category in pairs:
            if category == "extended":
                out.extend(_extended_lines(s, u, used_up))
            elif category == "arguments":
                out.extend(_argument_lines(s, u, used_up))
            elif category == "rewrapped" or _same_name(s, u):
                out.extend(_statement_lines(s, u, category, used_up))
    # A multi-line statement holding an anchor (blame found one of its lines unchanged) is the
    # statement that holds the anchor's upstream line, edited or re-wrapped around it: the gaps
    # above never see it, since it straddles their bounds.
    where_l = {line: s for s in mine.values() for line in {at for _, at in s}}
    where_r = {line: u for u in theirs.values() for line in {at for _, at in u}}
    done: set[int] = set()
    # An upstream line blame keeps unchanged (up to whitespace) at a line of its own; an
    # anchor of blame's that changed (a statement re-wrapped, credited by an ignored
    # revision's diff to the line it replaced) leaves its upstream line to the statement.
    held = frozenset(j for i, j in anchors if _SPACE.sub("", lines[i]) == _SPACE.sub("", up_lines[j]))
    for i, j in sorted(anchors):
        s, u = where_l.get(i), where_r.get(j)
        if s is None or u is None or s[0][1] in done:
            continue
        done.add(s[0][1])
        key_s, key_u = " ".join(t for t, _ in s), " ".join(t for t, _ in u)
        resorted = resorted_arguments(s, u)
        if key_s == key_u:
            out.extend(_statement_lines(s, u, "rewrapped", used_up))
        elif resorted:
            # the arguments where they stand opposite; the statement's other lines (its head,
            # its closer) as an edited statement's
            moved = dict(resorted)
            out.extend((i, j, "reordered") for i, j in resorted)
            out.extend(row for row in _statement_lines(s, u, "edited", used_up, held) if row[0] not in moved)
        elif fuzz.ratio(key_s, key_u) >= align.NEAR_CUTOFF * 100 and _same_name(s, u):
            out.extend(_statement_lines(s, u, "edited", used_up, held))
    return out


def _extended(left: Sequence[Statement], right: Sequence[Statement], found: Sequence[tuple[int, int]],
              a1: int, a2: int, b1: int, b2: int) -> list[tuple[int, int]]:
    """Step 5a's extended statements (since 2026-12-05, night, fork25): in a replace block, a
    statement of several lines left unpaired whose first line alone is as like a one-line
    upstream statement left unpaired as step 5a wants of two statements (ratio >=
    ``NEAR_CUTOFF``) is that statement with arguments or items added, exploded one a line by
    Black: ``data = await self._state.http.create_invite(`` / ``self.id,`` / ``reason=reason,``
    / ``max_age=max_age,`` ... <- ``data = await self._state.http.create_invite(self.id,
    reason=reason, **fields)``, the whole under the cutoff against the old line since the
    arguments it gained outweigh it; step 5b paired the first line alone and left the kept
    arguments new. A ``def`` or ``class`` header is step 5c's (same qualified names), never
    this. Pairs in order with ``found`` and each other; :func:`_extended_lines` says which
    lines are copies."""
    done_l, done_r = {a for a, _ in found}, {b for _, b in found}
    rest_l = [a for a in range(a1, a2) if a not in done_l and len({at for _, at in left[a]}) > 1]
    rest_r = [b for b in range(b1, b2) if b not in done_r and len({at for _, at in right[b]}) == 1]
    if not rest_l or not rest_r:
        return []
    heads = [" ".join(t for t, at in left[a] if at == left[a][0][1]) for a in rest_l]
    keys = [" ".join(t for t, _ in right[b]) for b in rest_r]
    out: list[tuple[int, int]] = []
    for x, y in align.similar_pairs(heads, keys, 0, len(heads), 0, len(keys)):
        a, b = rest_l[x], rest_r[y]
        if all((a < c) == (b < d) for c, d in list(found) + out) and _same_name(left[a], right[b]) \
                and left[a][0][0] not in _HEADERS and right[b][0][0] not in _HEADERS:
            out.append((a, b))
    return out


_HEADERS = {"def", "async", "class", "@"}


def _extended_lines(s: Statement, u: Statement, used_up: set[int]) -> list[tuple[int, int, str]]:
    """The lines of an extended statement (:func:`_extended`) that copy the one-line upstream
    statement ``u``: those holding words, all of them words of it (``self.id,``,
    ``reason=reason,``; an item or argument added, ``MessageType.reply,`` or
    ``max_age=max_age,``, is new text), when the first line is such a line and one more is;
    else none, and step 5b judges the first line alone as before. A line of brackets alone
    (the closing ``)``) is left new: it closes the added arguments as much as the kept ones,
    and unlike an edited statement's, this one as a whole is not like the old."""
    def kept(line: int) -> bool:
        theirs = Counter(w for t, _ in u for w in _words(t))
        words = [w for t, at in s if at == line for w in _words(t)]
        for word in words:
            if theirs[word] <= 0:
                return False
            theirs[word] -= 1
        return True

    s_lines = sorted({line for _, line in s})
    copies = [i for i in s_lines if kept(i) and any(_words(t) for t, at in s if at == i)]
    if len(copies) < 2 or copies[0] != s_lines[0]:
        return []
    used_up.update({line for _, line in u})
    return [(i, u[0][1], "edited") for i in copies]


def _head(stmt: Statement) -> list[str] | None:
    """The tokens of a statement before the bracketed list it ends with (``valid_keys =``,
    ``return ConnectionState``); None when it ends otherwise or nothing named stands before."""
    if _arguments(stmt) is None:
        return None
    opens = next(k for k, (t, _) in enumerate(stmt) if t in ("(", "[", "{"))
    head = [t for t, _ in stmt[:opens]]
    return head if any(_is_word(t) for t in head) and head[0] not in _HEADERS else None


def _kept_arguments(left: Sequence[Statement], right: Sequence[Statement], found: Sequence[tuple[int, int]],
                    a1: int, a2: int, b1: int, b2: int) -> list[tuple[int, int]]:
    """Step 5a's statements with arguments kept (since 2026-12-06, fork30): in a replace block,
    a statement of several lines left unpaired and an upstream statement left unpaired (of any
    number of lines), both ending in one bracketed list with the same tokens before it, the
    target's list holding at least ``KEPT_ARGUMENTS_MIN`` (2) and at least half of the
    upstream's arguments unchanged and in their order, is that statement with arguments or items added or cut
    and exploded one a line: ``valid_keys = (`` / ``"name",`` / ``"parent_id",`` ... of
    ``edit_channel``, its 11 old keys kept in order and 13 added, or ``return
    ConnectionState(`` / ``dispatch=self.dispatch,`` ... of ``Client._get_state``, keeping 5
    of the old call's 7 arguments and adding 11: the whole fell under 0.6 against the old
    statement of two or three lines, and :func:`_extended` takes a one-line old statement
    only, compared by its first line, which is too short against a long old one.  Pairs in
    order with ``found`` and each other; :func:`_argument_lines` says which lines copy."""
    done_l, done_r = {a for a, _ in found}, {b for _, b in found}
    rest_l = [a for a in range(a1, a2) if a not in done_l and len({at for _, at in left[a]}) > 1]
    rest_r = [b for b in range(b1, b2) if b not in done_r]
    out: list[tuple[int, int]] = []
    for a in rest_l:
        head, mine = _head(left[a]), _arguments(left[a])
        if head is None or not mine:
            continue
        keys = [" ".join(t for t, _ in arg) for arg in mine]
        for b in rest_r:
            theirs = _arguments(right[b])
            if _head(right[b]) != head or not theirs or any(d == b for _, d in out):
                continue
            old = [" ".join(t for t, _ in arg) for arg in theirs]
            kept = [key for key in old if key in keys]
            # kept in their order: a list of other names sharing some (``ForumChannel``'s
            # ``__slots__`` opposite the old ``VocalGuildChannel``'s: ``"id",`` ``"guild",``
            # ``"name",`` ...) holds them in another
            if len(kept) >= max(KEPT_ARGUMENTS_MIN, len(old) / 2) and kept == [key for key in keys if key in old] \
                    and all((a < c) == (b < d) for c, d in list(found) + out):
                out.append((a, b))
                break
    return out


# Step 5a's kept arguments: an old statement's arguments the new one must hold unchanged.
KEPT_ARGUMENTS_MIN = 2


def _argument_lines(s: Statement, u: Statement, used_up: set[int]) -> list[tuple[int, int, str]]:
    """The lines of statement ``s`` (:func:`_kept_arguments`) that copy ``u``: its first line,
    the head, and each line that is one argument (and its comma) of ``u``, unchanged, paired
    with the line of ``u`` where that argument starts (``edited``). An argument added is new
    text, and a line of brackets alone (the closing ``)``) stays new, as in
    :func:`_extended_lines`: it closes the added arguments as much as the kept ones."""
    where = {" ".join(t for t, _ in arg): arg[0][1] for arg in reversed(_arguments(u) or [])}
    out = [(s[0][1], u[0][1], "edited")]
    for arg in _arguments(s) or []:
        line, key = arg[0][1], " ".join(t for t, _ in arg)
        on_line = [t for t, at in s if at == line]
        if key in where and line != s[0][1] and {at for _, at in arg} == {line} and \
                on_line in ([t for t, _ in arg], [t for t, _ in arg] + [","]):
            out.append((line, where.pop(key), "edited"))
    if len(out) < 1 + KEPT_ARGUMENTS_MIN:
        return []
    used_up.update({at for _, at in u})
    return out


def _arguments(stmt: Statement) -> list[Statement] | None:
    """The arguments of a statement that ends with one bracketed list (a call, a literal): the
    tokens between its outermost brackets, cut at the commas of that depth; None for any other
    statement."""
    opens = next((k for k, (t, _) in enumerate(stmt) if t in ("(", "[", "{")), None)
    if opens is None or stmt[-1][0] not in _CLOSERS:
        return None
    depth, args, current = 0, [], []
    for k in range(opens, len(stmt)):
        token = stmt[k][0]
        if token in ("(", "[", "{"):
            depth += 1
            if depth == 1:
                continue
        elif token in _CLOSERS:
            depth -= 1
            if depth == 0:
                if k != len(stmt) - 1:
                    return None  # the list is not the statement's end (``f(a)(b)``, ``f(a).x``)
                break
        if depth == 1 and token == ",":
            args.append(current)
            current = []
        else:
            current.append(stmt[k])
    if current:
        args.append(current)
    return args


def resorted_arguments(s: Statement, u: Statement) -> list[tuple[int, int]]:
    """(i, j) of the lines of statement ``s`` that each hold exactly one argument, paired with
    the line of ``u`` where that argument starts, when both statements hold the same arguments
    in another order (at least 2 of them, each once): keyword arguments sorted by name
    (requests' ``create_cookie(name=..., value=..., ...)`` call in ``morsel_to_cookie``, its 13
    arguments sorted, the statement's text at ratio 0.58 with the old one) move every argument
    line, and a piece that moved inside its statement is the piece it was (since 2026-12-05,
    evening; before, blame's unchanged lines there were copies and the others new)."""
    mine, theirs = _arguments(s), _arguments(u)
    if not mine or not theirs or len(mine) < 2:
        return []
    key_m = [" ".join(t for t, _ in arg) for arg in mine]
    key_t = [" ".join(t for t, _ in arg) for arg in theirs]
    if key_m == key_t or sorted(key_m) != sorted(key_t) or len(set(key_m)) != len(key_m):
        return []
    where = dict(zip(key_t, theirs, strict=True))
    out = []
    for key, arg in zip(key_m, mine, strict=True):
        line = arg[0][1]
        on_line = [t for t, at in s if at == line]
        # the line is this argument and its comma, nothing more
        if {at for _, at in arg} == {line} and on_line in ([t for t, _ in arg], [t for t, _ in arg] + [","]):
            out.append((line, where[key][0][1]))
    return out


def moved_arguments(lines: Sequence[str], rows: dict[int, dict], up_lines: dict[str, list[str]],
                    rename_text: Callable[[str], str]) -> list[tuple[int, tuple[str, int]]]:
    """Step 7c: (i, (path, j)) of the free lines of a target statement that are one argument of
    the upstream statement most of its paired lines are paired with (at least
    ``MOVED_FUNCTION_MIN_LINES`` of them), equal to an argument of it whose line no row names,
    each argument standing once in its statement."""
    mine = statements(lines, rename_text)
    theirs_cache: dict[str, dict[int, Statement]] = {}
    out: list[tuple[int, tuple[str, int]]] = []
    for s in mine.values():
        s_lines = sorted({at for _, at in s})
        if len(s_lines) < 2:
            continue
        votes = Counter((rows[i + 1]["upstream_path"], rows[i + 1]["upstream_line"] - 1)
                        for i in s_lines if i + 1 in rows)
        by_statement: Counter[tuple[str, int]] = Counter()
        for (path, j), n in votes.items():
            if path not in theirs_cache:
                theirs_cache[path] = {at: u for u in statements(up_lines[path], rename_text).values()
                                      for at in {at for _, at in u}}
            u = theirs_cache[path].get(j)
            if u is not None:
                by_statement[path, u[0][1]] += n
        if not by_statement:
            continue
        (path, first), n = by_statement.most_common(1)[0]
        u = theirs_cache[path][first]
        mine_args, their_args = _arguments(s), _arguments(u)
        if n < MOVED_FUNCTION_MIN_LINES or not mine_args or not their_args:
            continue
        held = {rows[i + 1]["upstream_line"] - 1 for i in s_lines if i + 1 in rows
                and rows[i + 1]["upstream_path"] == path}
        keys_m = Counter(" ".join(t for t, _ in arg) for arg in mine_args)
        keys_t = Counter(" ".join(t for t, _ in arg) for arg in their_args)
        where = {" ".join(t for t, _ in arg): arg[0][1] for arg in their_args
                 if {at for _, at in arg} == {arg[0][1]}}
        for arg in mine_args:
            line, key = arg[0][1], " ".join(t for t, _ in arg)
            on_line = [t for t, at in s if at == line]
            if line + 1 in rows or keys_m[key] != 1 or keys_t[key] != 1 or key not in where \
                    or where[key] in held or {at for _, at in arg} != {line} \
                    or on_line not in ([t for t, _ in arg], [t for t, _ in arg] + [","]):
                continue
            held.add(where[key])
            out.append((line, (path, where[key])))
    return out


def statement_spans(lines: Sequence[str], rename_text: Callable[[str], str]) -> dict[int, tuple[int, int]]:
    """0-based line -> (first, last) line of the multi-line statement that holds it (step 6e)."""
    out: dict[int, tuple[int, int]] = {}
    for stmt in statements(lines, rename_text).values():
        first, last = stmt[0][1], stmt[-1][1]
        if last > first:
            for line in range(first, last + 1):
                out[line] = (first, last)
    return out


def qualified_headers(lines: Sequence[str]) -> dict[str, int]:
    """Qualified name (``Class.method``) -> 0-based line of the ``def`` (or ``class``) keyword,
    for the functions and classes whose qualified name the file defines once (``ast``; none for
    a file it refuses; ``@overload`` declarations left out)."""
    try:
        tree = ast.parse("".join(line + "\n" for line in lines))
    except (SyntaxError, ValueError):
        return {}
    found: Counter[str] = Counter()
    where: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if isinstance(child, ast.ClassDef):
                    # a class header too (since 2026-12-06, fork30): ``class VocalGuildChannel(
                    # abc.Connectable, ...)``, moved below the classes written since and its
                    # bases' ``discord.`` dropped, was new
                    found[name] += 1
                    where[name] = child.lineno - 1
                    visit(child, name + ".")
                elif not any((d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", None)) == "overload"
                             for d in child.decorator_list):
                    found[name] += 1
                    where[name] = child.lineno - 1
            elif not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, prefix)

    visit(tree, "")
    return {name: line for name, line in where.items() if found[name] == 1}


def header_rows(lines: Sequence[str], up_lines: Sequence[str],
                rename_text: Callable[[str], str]) -> list[tuple[int, int, str]]:
    """Step 5c: (i, j, category) of the lines of a function header (its ``def`` statement) paired
    with the header of the same qualified name in the file's own old version, each defined once:
    ``rewrapped`` when the tokens are equal (``realigned``, one line each), else ``edited`` when
    their token texts are at ratio >= ``NEAR_CUTOFF`` (each line kept by step 5a's
    half-of-its-words rule).  The in-order
    alignment of steps 5a-b pairs a header only where the diff puts the two opposite each other,
    and a function rewritten around its signature (``def create_activity(`` re-wrapped and typed,
    its body new) left the diff no equal line to do so.  Lines already paired keep their rows."""
    mine, theirs = statements(lines, rename_text), statements(up_lines, rename_text)
    up_headers = qualified_headers(up_lines)
    out: list[tuple[int, int, str]] = []
    for name, i in qualified_headers(lines).items():
        j = up_headers.get(name)
        s, u = mine.get(i), theirs.get(j) if j is not None else None
        if s is None or u is None:
            continue
        s, u = _without_return_annotation(s), _without_return_annotation(u)
        key_s, key_u = " ".join(t for t, _ in s), " ".join(t for t, _ in u)
        s_lines = sorted({at for _, at in s})
        if key_s == key_u:  # the same tokens: on one line each the line itself, else re-wrapped
            category = "realigned" if len(s_lines) == 1 and len({at for _, at in u}) == 1 else "rewrapped"
        elif fuzz.ratio(key_s, key_u) >= align.NEAR_CUTOFF * 100:
            category = "edited"
        else:
            continue
        for line in s_lines:
            if category == "rewrapped" or _kept(s, u, line):
                out.append((line, _partner(s, u, line, category), category))
    return out


def _without_return_annotation(s: Statement) -> Statement:
    """A ``def`` statement's tokens less its return annotation (``->`` up to the header's
    closing ``:``).  :func:`without_annotations` cuts one on the header's last line, but leaves
    one broken over lines whole (the cut text must still parse, and a ``)`` left alone on its
    line before a ``:`` several lines below does not): ``def command(`` of nextcord's
    ``ext/commands/core.py``, whose ``-> Callable[`` ... ``]:`` spans nine lines, fell under
    the 0.6 cutoff against ``def command(name=None, cls=None, **attrs):`` (since 2026-12-05,
    night).  A line holding only annotation tokens (``Union[``, ``],``) is then no line of the
    statement: new text, as an annotation cut on one line leaves that line blank."""
    depth = 0
    for k, (text, _) in enumerate(s):
        if text in ("(", "[", "{"):
            depth += 1
        elif text in _CLOSERS:
            depth -= 1
        elif text == "->" and depth == 0 and s[-1][0] == ":":
            return [*s[:k], s[-1]]
    return s


def _defined(tokens: Sequence[str]) -> str | None:
    """The name a ``def``/``async def``/``class`` header defines, else None."""
    at = 1 if tokens[:1] == ["async"] else 0
    if tokens[at : at + 1] in (["def"], ["class"]) and len(tokens) > at + 1:
        return tokens[at + 1]
    return None


def _imported(tokens: Sequence[str]) -> str | None:
    """The module an ``import`` or ``from ... import`` statement names first, else None."""
    if tokens[:1] == ["from"] and "import" in tokens:
        return "".join(tokens[1 : tokens.index("import")])
    if tokens[:1] == ["import"]:
        end = next((k for k, t in enumerate(tokens) if t in (",", "as")), len(tokens))
        return "".join(tokens[1:end])
    return None


def _same_name_line(a: str, b: str) -> bool:
    """:func:`_same_name` for two lines (step 5b)."""
    return _same_name([(t, 0) for t in _HEADER.findall(a)], [(t, 0) for t in _HEADER.findall(b)])


_HEADER = re.compile(r"\w+|[^\w\s]")


def _same_name(s: Statement, u: Statement) -> bool:
    """False when both are function or class headers whose names are not alike (rapidfuzz
    ratio below ``NEAR_CUTOFF``, the cutoff of an edited line): a function of another name
    is another function, however alike two signatures look once their annotations are cut
    (``async def timeout(self, timeout, *, reason=None)`` opposite ``async def edit(self, *,
    reason=None, **fields)``), while a renamed one keeps a like name (``_unique`` ->
    ``unique``, ``icon_url`` -> ``icon``).  Likewise an import of another module is another
    import (``import contextlib`` opposite ``import collections``, ratio 0.67): two imports
    pair only when they name the same module first."""
    mine, theirs = _defined([t for t, _ in s]), _defined([t for t, _ in u])
    if mine is not None and theirs is not None and fuzz.ratio(mine, theirs) < align.NEAR_CUTOFF * 100:
        return False
    mine, theirs = _imported([t for t, _ in s]), _imported([t for t, _ in u])
    return mine is None or theirs is None or mine == theirs


def _statement_lines(s: Statement, u: Statement, category: str, used_up: set[int],
                     held: frozenset[int] = frozenset()) -> list[tuple[int, int, str]]:
    """(i, j, category) of the lines of statement ``s`` paired with ``u`` (step 5a); ``held``:
    the upstream lines blame keeps at lines of their own, whose words those lines account for
    and which no edited line pairs with (:func:`_kept`)."""
    s_lines, u_lines = sorted({line for _, line in s}), sorted({line for _, line in u})
    if len(s_lines) == 1 and len(u_lines) == 1:
        return []  # one line each: steps 3-4 and 5b judge it
    if category == "rewrapped" and [line - s[0][1] for _, line in s] == [line - u[0][1] for _, line in u]:
        return []  # the same line breaks: not a re-wrap
    used_up.update(u_lines)
    return [(i, _partner(s, u, i, category, held), category) for i in s_lines
            if category == "rewrapped" or _kept(s, u, i, held)]


def _is_word(token: str) -> bool:
    return any(ch.isalnum() or ch == "_" for ch in token)


_STRING = re.compile(r"[A-Za-z]{0,3}\"")
_WORD = re.compile(r"\w+")


def _words(token: str) -> list[str]:
    """The words of a token: a name or number is one word; a string literal (quotes unified by
    :func:`statements`) is the words of its text, its prefix (``f``, ``rb``) left out, so a
    message moved into an f-string or off ``%``/``.format`` keeps the words it had."""
    match = _STRING.match(token)
    if match:
        return _WORD.findall(token[match.end():])
    return [token] if _is_word(token) and token not in _CONSTANTS else []


# The language's constants are no author's word: a parameter added with a default of ``None``
# (``json=None,``) shares only that with the old signature (since 2026-12-05, later).
_CONSTANTS = {"None", "True", "False"}


def _kept(s: Statement, u: Statement, line: int, held: frozenset[int] = frozenset()) -> bool:
    """A line of an edited statement is a copy when at least half of its words (names,
    literals, the words of a string) are words of the upstream statement: a slot or an
    argument added by the edit (``"subscriber_count",`` in a re-wrapped ``__slots__``) is new
    text, a bracket is not; a message's words count one by one (``f"Expected
    PermissionOverwrite received {perm.__class__.__name__}"`` keeps the words of ``'Expected
    PermissionOverwrite received {0.__name__}'.format(type(perm))``; since 2026-12-05, before,
    a string was one word and a message rewritten as an f-string was new).  The words of an
    upstream line blame keeps unchanged at another line (``held``) are that line's: a row
    added to a table (``AuditLogAction.stage_instance_create: AuditLogActionCategory.create,``
    in ``AuditLogAction.category``'s ``lookup``) shares its words only with the rows kept
    around it, and was an "edit" of one of them (since 2026-12-05, late)."""
    theirs = Counter(w for t, at in u if at not in held for w in _words(t))
    words = [w for t, at in s if at == line for w in _words(t)]
    found = 0
    for word in words:
        if theirs[word] > 0:
            theirs[word] -= 1
            found += 1
    return 2 * found >= len(words)


def _partner(s: Statement, u: Statement, line: int, category: str, held: frozenset[int] = frozenset()) -> int:
    """The upstream line a line of statement ``s`` copies: the one holding its first token
    (same tokens), else the first place after the line's start where its first token stands
    in ``u``, else ``u``'s first line; an edited line not a line ``held`` by blame elsewhere
    (:func:`_kept`) while ``u`` has another."""
    k = next(k for k, (_, at) in enumerate(s) if at == line)
    if category == "rewrapped":
        return u[k][1]
    token = s[k][0]
    start = int(k * len(u) / len(s))
    free = {at for _, at in u if at not in held} or {at for _, at in u}
    for _, at in (x for x in u[start:] + u[:start] if x[0] == token and x[1] in free):
        return at
    return min(free)


def edited_rows(lines: Sequence[str], up_lines: Sequence[str], anchors: Sequence[tuple[int, int]],
                rename_text: Callable[[str], str], taken_up: set[int]) -> list[tuple[int, int, bool]]:
    """Step 5b: (i, j, in an equal block) of the lines the vendored rule pairs in a stretch."""
    taken = {i for i, _ in anchors}
    out = []
    for i1, i2, j1, j2 in _gaps(len(lines), len(up_lines), anchors):
        left = [i for i in range(i1, i2) if i not in taken and lines[i].strip()]
        right = [j for j in range(j1, j2) if j not in taken_up and up_lines[j].strip()]
        if not left or not right:
            continue
        mine = [rename_text(lines[i]) for i in left]
        theirs = [up_lines[j] for j in right]
        pairs = align.diff_pairs(mine, theirs)
        out.extend((left[a], right[b], equal) for a, b, equal in pairs
                   if equal or _same_name_line(mine[a], theirs[b]))
    return out


def def_spans(lines: Sequence[str]) -> list[tuple[int, int]]:
    """0-based (first, last) lines of every function (``def``, ``async def``) of a file, by
    ``ast``; none for a file ``ast`` refuses (Python 2 code)."""
    try:
        tree = ast.parse("".join(line + "\n" for line in lines))
    except (SyntaxError, ValueError):
        return []
    return sorted((_first_line(node), (node.end_lineno or node.lineno) - 1) for node in ast.walk(tree)
                  if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """0-based first line of a function with its decorators (since 2026-12-06, fork30): a
    decorator is part of the definition, and blame keeps it as it keeps the body (a second copy
    of ``_sorting_bucket`` held its ``@property`` and its ``return`` line, two lines of it, not
    one; its ``@utils.copy_doc(abc....)`` was left out of the alignment of ``permissions_for``)."""
    return min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1


def named_functions(lines: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
    """Name -> 0-based (first, last) lines of the functions of that name (``ast``), the
    declarations under ``@overload`` left out (they declare a signature, not the function)."""
    try:
        tree = ast.parse("".join(line + "\n" for line in lines))
    except (SyntaxError, ValueError):
        return {}
    out: dict[str, list[tuple[int, int]]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not any(
                (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", None)) == "overload"
                for d in node.decorator_list):
            out.setdefault(node.name, []).append((_first_line(node), (node.end_lineno or node.lineno) - 1))
    return out


def class_spans(lines: Sequence[str]) -> list[tuple[int, int, str]]:
    """0-based (first, last, name) of every class of a file (``ast``)."""
    try:
        tree = ast.parse("".join(line + "\n" for line in lines))
    except (SyntaxError, ValueError):
        return []
    return sorted((node.lineno - 1, (node.end_lineno or node.lineno) - 1, node.name) for node in ast.walk(tree)
                  if isinstance(node, ast.ClassDef))


def _closest(lines: Sequence[str], up_lines: Sequence[str], t: tuple[int, int],
             candidates: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """Of the upstream functions ``candidates`` (one name, defined in several classes), the one
    whose text is most like the target function ``t``'s (rapidfuzz ratio of the stripped lines
    joined; the first on a tie): ``WebhookAdapter.request`` of a file written from
    ``discord/webhook.py`` is the rewrite of its ``RequestsWebhookAdapter.request``, not of the
    abstract ``WebhookAdapter.request`` or the aiohttp one (step 6b, since 2026-12-05 night)."""
    def text(side: Sequence[str], span: tuple[int, int]) -> str:
        return "\n".join(line.strip() for line in side[span[0] : span[1] + 1] if line.strip())

    mine = text(lines, t)
    return max(candidates, key=lambda u: (fuzz.ratio(mine, text(up_lines, u)), -u[0]))


def _innermost3(spans: Sequence[tuple[int, int, str]], line: int) -> tuple[int, int, str] | None:
    inside = [span for span in spans if span[0] <= line <= span[1]]
    return min(inside, key=lambda span: span[1] - span[0]) if inside else None


def _innermost(spans: Sequence[tuple[int, int]], line: int) -> tuple[int, int] | None:
    inside = [span for span in spans if span[0] <= line <= span[1]]
    return min(inside, key=lambda span: span[1] - span[0]) if inside else None


# A function of the target whose blame lines come from one function of an upstream file not
# its own needs this many of them to count as that function moved (one line, ``return self``,
# can be blame's chance pick among many equal lines; two in order are a block).
MOVED_FUNCTION_MIN_LINES = 2

# Step 6b: the share of a target file's non-blank lines that blame must keep from one upstream
# file for the file to count as written from it (``nextcord/webhook/sync.py``: 176 of about
# 1,100 from ``discord/webhook.py``); a file that took a class or two from another
# (``application_command.py``: 15 of 1,500 from ``commands/core.py``) is not.
WRITTEN_FROM_MIN_SHARE = 0.1


def gone_units(up_lines: Sequence[str], kept: set[int], gone: set[int],
               rename_text: Callable[[str], str]) -> set[int]:
    """Step 5's exclusion (since 2026-12-05, late): 0-based lines of the upstream file's units
    (innermost functions, multi-line statements outside any function) holding at least
    ``MOVED_FUNCTION_MIN_LINES`` lines that blame credits to another target file (``gone``:
    the unit moved, steps 6 and 6e align it where it went) and none that blame credits to this
    file (``kept``: a unit copied, not moved, is still at its old place too)."""
    units = def_spans(up_lines)
    spans = statement_spans(up_lines, rename_text)
    out: set[int] = set()
    for j in sorted(gone):
        unit = _innermost(units, j)
        if unit is None:
            unit = spans.get(j)
        if unit is None or not unit[0] <= j <= unit[1]:
            continue
        inside = range(unit[0], unit[1] + 1)
        if sum(k in gone for k in inside) >= MOVED_FUNCTION_MIN_LINES and not any(k in kept for k in inside):
            out.update(inside)
    return out


def gap_rows(rel: str, lines: Sequence[str], up_lines: dict[str, list[str]], rows: dict[int, dict],
             rename: tuple[str, str] | None, gone: dict[str, set[int]] | None = None) -> dict[int, dict]:
    """Steps 4-5 for one target file: ``rows`` (1-based line -> blame row) with the new rows
    added. ``gone``: upstream path -> 0-based lines blame credits to target files other than
    the one at that path (:func:`gone_units`)."""
    rows = {n: row for n, row in rows.items() if row["category"] in BLAME_CATEGORIES}
    if not rows:
        return rows
    blame = dict(rows)
    rename_text = renamer(rename)
    top = Counter(row["upstream_path"] for row in rows.values()).most_common(1)[0][0]
    # The target file's own upstream file (same path, after the rename), when blame credits it
    # with any line, is the file it is a later version of, even when blame credits more lines to
    # another (``nextcord/mixins.py`` took a class from ``discord/abc.py``); else the main file
    # is the one blame credits most.
    own = any(row["upstream_path"] == rename_text(rel) for row in rows.values())
    main = rename_text(rel) if own else top
    if own and gone and gone.get(main):
        # A function or module statement of the own old file that moved to another target file
        # is aligned there (steps 6, 6e), not again here: what stands at its old place is new
        # (``to_native_string`` moved from ``utils.py`` to ``_internal_utils.py``; without this
        # its ``else:`` was "realigned" with ``_validate_header_part``'s, one old line credited
        # to two target lines). Its lines are blanked for every step against the own file.
        kept = {row["upstream_line"] - 1 for row in rows.values() if row["upstream_path"] == main}
        blank = gone_units(up_lines[main], kept, gone[main], rename_text)
        if blank:
            up_lines = {**up_lines, main: ["" if j in blank else text for j, text in enumerate(up_lines[main])]}
    theirs = up_lines[main]
    free = without_annotations(lines)
    typed = set(annotation_cuts(lines, comments=False))
    up_free_cache: dict[str, list[str]] = {}

    def up_free(path: str) -> list[str]:
        if path not in up_free_cache:
            up_free_cache[path] = without_annotations(up_lines[path])
        return up_free_cache[path]

    def anchors(path: str = main, t: tuple[int, int] | None = None,
                u: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """(i, j) of the rows from ``path``, inside the spans ``t``/``u`` (inclusive) if given."""
        return sorted((n - 1, row["upstream_line"] - 1) for n, row in rows.items() if row["upstream_path"] == path
                      and (t is None or t[0] <= n - 1 <= t[1])
                      and (u is None or u[0] <= row["upstream_line"] - 1 <= u[1]))

    def add(i: int, j: int, category: str, path: str = main) -> None:
        if i + 1 in rows or not lines[i].strip():
            return
        up_text = up_lines[path][j]
        same = lines[i].strip() == up_text.strip()
        if not same and free[i] != lines[i] and \
                reformat_key(rename_text(free[i].strip())) == reformat_key(up_free(path)[j].strip()):
            # only annotations added (or a trailing comment changed), and step 4's changes
            category = "annotated" if i in typed else "reformatted"
        rows[i + 1] = {"target_path": rel, "line": i + 1, "expected": "verbatim" if same else "near",
                       "upstream_path": path, "upstream_line": j + 1, "category": category}

    def step5(path: str, t: tuple[int, int], u: tuple[int, int], second_copy: bool = False) -> None:
        """Step 5 between the lines ``t`` of the target and ``u`` of upstream file ``path``;
        ``second_copy``: ``t`` is a second copy of ``u`` (step 6d), whose upstream lines the
        first copy has paired already, so only the rows inside ``t`` take upstream lines, and
        a changed line of ``t`` whose upstream line another line of the file keeps verbatim is
        the file's own edit of its first copy, not a copy from the upstream (the rule of issue
        8's truth set, which credits the upstream line to the verbatim copy)."""
        mine, ours = free[t[0] : t[1] + 1], up_free(path)[u[0] : u[1] + 1]
        held = {row["upstream_line"] - 1 for n, row in rows.items() if second_copy and row["upstream_path"] == path
                and row["expected"] == "verbatim" and not t[0] <= n - 1 <= t[1]}

        def local() -> list[tuple[int, int]]:
            return [(i - t[0], j - u[0]) for i, j in anchors(path, t, u)]

        def put(i: int, j: int, category: str) -> None:
            if u[0] + j in held and lines[t[0] + i].strip() != up_lines[path][u[0] + j].strip():
                return
            add(t[0] + i, u[0] + j, category, path)

        taken_up: set[int] = set()
        for i, j, category in statement_rows(mine, ours, local(), rename_text, taken_up):
            put(i, j, category)
        taken_up |= {j - u[0] for n, row in rows.items() if row["upstream_path"] == path
                     and (not second_copy or t[0] <= n - 1 <= t[1])
                     for j in [row["upstream_line"] - 1] if u[0] <= j <= u[1]}
        for i, j, _ in edited_rows(mine, ours, local(), rename_text, taken_up):
            put(i, j, "realigned" if lines[t[0] + i].strip() == up_lines[path][u[0] + j].strip() else "edited")

    for path in dict.fromkeys([main, top]):  # step 4 against the own file and the one blame credits most
        # Annotations and comments are cut only against the file's own old version: in a file
        # made from pieces of another, a line alike once cut is often a generic one
        # (``def __repr__(self) -> str:``, ``self.id: int = int(data["id"])``).
        cut = own and path == main
        for i, j in reformat_rows(lines, up_lines[path], anchors(path),
                                  lambda text: reformat_key(rename_text(text)),
                                  free if cut else None, up_free(path) if cut else None):
            add(i, j, "renamed" if rename_text(lines[i]) != lines[i] else "reformatted", path)
    spans = def_spans(lines)
    done: set[tuple[int, int]] = set()
    second: set[tuple[int, int]] = set()
    if own:
        step5(main, (0, len(lines) - 1), (0, len(theirs) - 1))
        # Step 5c: a function's header pairs with the header of the same qualified name.
        for i, j, category in header_rows(free, up_free(main), rename_text):
            add(i, j, category)
        # Step 6d: a function of the same name as the one it copies, holding blame lines of it
        # off the in-order chain, is a second copy made within the file (``VoiceChannel.purge``
        # written from ``TextChannel.purge``), aligned with it as step 6 aligns a function moved
        # from another file.
        on_chain = set(align.increasing_chain(anchors(main)))
        name_of = {span: name for name, found in named_functions(lines).items() for span in found}
        up_name_of = {span: name for name, found in named_functions(theirs).items() for span in found}
        main_spans = def_spans(theirs)
        copied: Counter[tuple[tuple[int, int], tuple[int, int]]] = Counter()
        for i, j in anchors(main):
            t, u = _innermost(spans, i), _innermost(main_spans, j)
            if (i, j) not in on_chain and t is not None and u is not None \
                    and name_of.get(t) is not None and name_of.get(t) == up_name_of.get(u):
                copied[t, u] += 1
        for (t, u), count in sorted(copied.items(), key=lambda item: (-item[1], item[0])):
            if count >= MOVED_FUNCTION_MIN_LINES and t not in second:
                second.add(t)
                step5(main, t, u, second_copy=True)
    # Step 6: a function moved from an upstream file other than the one step 5 aligned.
    moved: Counter[tuple[tuple[int, int], str, tuple[int, int]]] = Counter()
    up_spans: dict[str, list[tuple[int, int]]] = {}
    for n, row in blame.items():
        path = row["upstream_path"]
        if own and path == main:
            continue
        if path not in up_spans:
            up_spans[path] = def_spans(up_lines[path])
        t, u = _innermost(spans, n - 1), _innermost(up_spans[path], row["upstream_line"] - 1)
        if t is not None and u is not None:
            moved[t, path, u] += 1
    # Of the functions a target function holds enough blame lines of, one of its own name first
    # (since 2026-12-06, fork30): ``application_checks``' ``bot_has_role`` holds two docstring
    # lines of ``bot_has_role`` and, by blame's pick among equal lines, three of ``has_role``'s,
    # and was aligned with ``has_role``: its annotated header and ``return check(predicate)``
    # were new.
    t_names = {span: name for name, found in named_functions(lines).items() for span in found}
    u_names = {path: {span: name for name, found in named_functions(up_lines[path]).items() for span in found}
               for path in up_spans}

    def own_name_first(item: tuple[tuple[tuple[int, int], str, tuple[int, int]], int]) -> tuple:
        (t, path, u), count = item
        return (t_names.get(t) is None or t_names.get(t) != u_names[path].get(u), -count, item[0])

    for (t, path, u), count in sorted(moved.items(), key=own_name_first):
        if count >= MOVED_FUNCTION_MIN_LINES and t not in done:
            done.add(t)
            step5(path, t, u)
    # Step 6c: a class moved from another file under a like name (ratio >= NEAR_CUTOFF, as
    # headers pair: ``ApplicationMissingRole`` <- ``MissingRole``), with at least
    # MOVED_FUNCTION_MIN_LINES blame lines from it (its docstring).
    classes = class_spans(lines)
    moved_classes: Counter[tuple[tuple[int, int, str], str, tuple[int, int, str]]] = Counter()
    up_classes: dict[str, list[tuple[int, int, str]]] = {}
    for n, row in blame.items():
        path = row["upstream_path"]
        if own and path == main:
            continue
        if path not in up_classes:
            up_classes[path] = class_spans(up_lines[path])
        t3 = _innermost3(classes, n - 1)
        u3 = _innermost3(up_classes[path], row["upstream_line"] - 1)
        if t3 is not None and u3 is not None and fuzz.ratio(rename_text(t3[2]), u3[2]) >= align.NEAR_CUTOFF * 100:
            moved_classes[t3, path, u3] += 1
    for (t3, path, u3), count in sorted(moved_classes.items(), key=lambda item: (-item[1], item[0])):
        if count >= MOVED_FUNCTION_MIN_LINES and t3[:2] not in done:
            done.add(t3[:2])
            step5(path, t3[:2], u3[:2])
    if own:
        # Step 6f: the same as 6d for a function of another name than the one whose blame lines
        # it holds off the chain (requests' ``merge_environment_settings``, split out of
        # ``Session.request`` and placed below ``send``: blame kept its comments and its merge
        # lines, the edited ``for k, v in env_proxies.items():`` between them was new). After
        # steps 6-6c, which keep the rows they found.
        on_chain = set(align.increasing_chain(anchors()))
        main_spans = def_spans(theirs)
        moved_within: Counter[tuple[tuple[int, int], tuple[int, int]]] = Counter()
        for i, j in anchors():
            t, u = _innermost(spans, i), _innermost(main_spans, j)
            if (i, j) not in on_chain and t is not None and u is not None and t not in second:
                moved_within[t, u] += 1
        for (t, u), count in sorted(moved_within.items(), key=lambda item: (-item[1], item[0])):
            if count >= MOVED_FUNCTION_MIN_LINES and t not in second:
                second.add(t)
                step5(main, t, u)
    # Step 6e: a multi-line statement outside any function (a module constant) holding at least
    # MOVED_FUNCTION_MIN_LINES blame lines from one statement of another file is that statement
    # moved: step 5 runs between the two (requests' ``REDIRECT_STATI``, moved from
    # ``sessions.py`` to ``models.py``: blame kept its first four lines; its ``)`` and its edited
    # ``codes.temporary_redirect,`` lay in blocks under blame's 40 characters).
    mine_st = statement_spans(lines, rename_text)
    theirs_st: dict[str, dict[int, tuple[int, int]]] = {}
    moved_st: Counter[tuple[tuple[int, int], str, tuple[int, int]]] = Counter()
    for n, row in blame.items():
        path = row["upstream_path"]
        if (own and path == main) or _innermost(spans, n - 1) is not None or n - 1 not in mine_st:
            continue
        if path not in theirs_st:
            theirs_st[path] = statement_spans(up_lines[path], rename_text)
        u_st = theirs_st[path].get(row["upstream_line"] - 1)
        if u_st is not None:
            moved_st[mine_st[n - 1], path, u_st] += 1
    done_st: set[tuple[int, int]] = set()
    for (t, path, u), count in sorted(moved_st.items(), key=lambda item: (-item[1], item[0])):
        if count >= MOVED_FUNCTION_MIN_LINES and t not in done_st:
            done_st.add(t)
            step5(path, t, u)
    kept_from_top = sum(row["upstream_path"] == top for row in blame.values())
    if not own and kept_from_top >= WRITTEN_FROM_MIN_SHARE * sum(1 for text in lines if text.strip()):
        # Step 6b: a file with no old version of its own, a tenth of whose lines blame keeps
        # from one file, was written from that file: its function of a name that file defines
        # once is that function rewritten, whether or not blame kept a line of it.  Not a
        # dunder: the language names ``__repr__``, not the file.
        up_named = named_functions(up_lines[top])
        for name, spans_t in named_functions(lines).items():
            if name.startswith("__") and name.endswith("__"):
                continue
            if len(spans_t) == 1 and up_named.get(name) and spans_t[0] not in done:
                done.add(spans_t[0])
                step5(top, spans_t[0], _closest(free, up_free(top), spans_t[0], up_named[name]))
    if own:
        # Step 7's unit test for a line standing more than once: the innermost functions of the
        # two lines (none: the module level) hold a pair of lines already (a line moved inside
        # its function, or between two places of the module level).
        up_spans_main = def_spans(theirs)
        unit_pairs = {(_innermost(spans, n - 1), _innermost(up_spans_main, row["upstream_line"] - 1))
                      for n, row in rows.items() if row["upstream_path"] == main}

        def same_unit(i: int, j: int) -> bool:
            return (_innermost(spans, i), _innermost(up_spans_main, j)) in unit_pairs

        for i, j in unique_rows(lines, theirs, free, up_free(main), rename_text,
                                {row["upstream_line"] - 1 for row in rows.values() if row["upstream_path"] == main},
                                {n - 1 for n in rows}, same_unit):
            add(i, j, "reordered")
        # Step 7b: the same between the file and another file blame moved lines from into it (at
        # least MOVED_FUNCTION_MIN_LINES): its lines compared as they are, as step 4 compares
        # a file's lines with another's (``DEFAULT_REDIRECT_LIMIT = 30``, moved with
        # ``REDIRECT_STATI`` from ``sessions.py`` to ``models.py``, one line under blame's 40
        # characters between files).
        # Only a statement at the module's top level and no import: in a class or function, a
        # line standing once in each of two files is as often the language's (``def
        # __setstate__(self, state):`` of ``Response``, added since, and of ``Session``), and
        # any two files may import one name.
        sources = Counter(row["upstream_path"] for row in blame.values() if row["upstream_path"] != main)
        for path, count in sorted(sources.items()):
            if count < MOVED_FUNCTION_MIN_LINES:
                continue
            taken = {row["upstream_line"] - 1 for row in rows.values() if row["upstream_path"] == path}
            for i, j in unique_rows(lines, up_lines[path], lines, up_lines[path], rename_text, taken):
                if lines[i][:1].strip() and up_lines[path][j][:1].strip() and not _is_import(lines[i].strip()):
                    add(i, j, "reordered", path)
    # Step 7c (since 2026-12-06, fork30): an item moved inside a kept statement. A statement of
    # several lines at least MOVED_FUNCTION_MIN_LINES of whose lines the steps above paired with
    # one upstream statement is that statement; a free line of it that is one argument (and its
    # comma), equal to an argument of that statement no line holds yet, standing once in each,
    # is that argument moved (``reordered``): ``application_checks``' ``__all__``, written from
    # ``commands/core.py``'s, kept ``"check",`` ... in order and moved ``"has_role",`` up.
    for i, j in moved_arguments(lines, rows, up_lines, rename_text):
        add(i, j[1], "reordered", j[0])
    # Step 8 (since 2026-12-05, late): an ``else:`` or ``finally:`` a step above paired (it holds
    # no text of its own, so a diff pairs any two) is a copy only with the statement it
    # continues: its clause header (the ``if``, ``elif``, ``try``... above it at its indentation)
    # copies the header above the upstream one, or the first code line of its block a line of
    # the upstream one's block. The ``else:`` of requests' new ``_validate_header_part`` was
    # "realigned" with that of the old ``get_auth_from_url``, which stood opposite it.
    for n in [n for n, row in rows.items() if n not in blame and lines[n - 1].strip() in _CLAUSE_LINES]:
        row = rows[n]
        path, j = row["upstream_path"], row["upstream_line"] - 1
        head, u_head = _clause_header(lines, n - 1), _clause_header(up_lines[path], j)
        same_head = head >= 0 and u_head >= 0 and (rows.get(head + 1) or {}).get("upstream_path") == path \
            and rows[head + 1]["upstream_line"] - 1 == u_head
        first = next((k for k in _block(lines, n - 1) if lines[k].strip() and not lines[k].strip().startswith("#")), -1)
        first_row = rows.get(first + 1) if first >= 0 else None
        same_block = first_row is not None and first_row["upstream_path"] == path \
            and first_row["upstream_line"] - 1 in _block(up_lines[path], j)
        if not same_head and not same_block:
            del rows[n]
    # Step 8b: the other way round, a free ``else:``/``finally:`` whose clause header is a copy
    # of an old header is the old statement's same clause, when that one is free: blame left
    # nextcord's ``else:`` of ``if rules_channel is None:`` new, the ``if`` block moved out of
    # a ``try: ... else:`` and dedented.
    taken = {(row["upstream_path"], row["upstream_line"] - 1) for row in rows.values()}
    for i, text in enumerate(lines):
        if i + 1 in rows or text.strip() not in _CLAUSE_LINES:
            continue
        head = _clause_header(lines, i)
        if head < 0 or head + 1 not in rows:
            continue
        path, u_head = rows[head + 1]["upstream_path"], rows[head + 1]["upstream_line"] - 1
        theirs_h = up_lines[path]
        k = next((k for k in range(u_head + 1, len(theirs_h)) if _code(theirs_h[k])
                  and _depth(theirs_h[k]) <= _depth(theirs_h[u_head]) and theirs_h[k].strip()[0] not in _CLOSERS), -1)
        if k >= 0 and theirs_h[k].strip() == text.strip() and _depth(theirs_h[k]) == _depth(theirs_h[u_head]) \
                and _clause_header(theirs_h, k) == u_head and (path, k) not in taken:
            taken.add((path, k))
            add(i, k, "realigned", path)
    # Step 8c (since 2026-12-05, night): a free ``except ...:`` the first code line of whose
    # block copies a line of the block of an old ``except ...:`` (that line's own clause, not
    # a block inside it), free, is that clause with its exception edited: requests' ``except
    # HTTPError:`` <- ``except RequestException:`` of ``Response.ok``, changed in place by one
    # commit (925e975, "catch exception more specifically"), the ``try:`` and both blocks kept,
    # at ratio 0.55.  It holds little text, so its block says which clause it is, as step 8
    # reads an ``else:``.
    for i, text in enumerate(lines):
        if i + 1 in rows or not _EXCEPT.match(text.strip()):
            continue
        first = next((k for k in _block(lines, i) if _code(lines[k])), -1)
        if first < 0 or first + 1 not in rows:
            continue
        path, u_first = rows[first + 1]["upstream_path"], rows[first + 1]["upstream_line"] - 1
        theirs_e = up_lines[path]
        k = next((k for k in range(u_first - 1, -1, -1) if _code(theirs_e[k])
                  and _depth(theirs_e[k]) < _depth(theirs_e[u_first])), -1)
        if k >= 0 and _EXCEPT.match(theirs_e[k].strip()) and (path, k) not in taken:
            taken.add((path, k))
            add(i, k, "edited", path)
    return dict(sorted(rows.items()))


# An ``except`` clause header (``except:``, ``except ValueError as e:``).
_EXCEPT = re.compile(r"except\b.*:$")


_CLAUSE_LINES = {"else:", "finally:"}
_CLAUSE_HEADS = {"if", "elif", "for", "async", "while", "try", "except"}


def _depth(text: str) -> int:
    return len(text) - len(text.lstrip())


def _code(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


def _clause_header(lines: Sequence[str], at: int) -> int:
    """0-based line of the clause header the ``else:``/``finally:`` at ``at`` continues (the
    nearest code line above at its indentation, a closing bracket's line aside), -1 if none."""
    depth = _depth(lines[at])
    for k in range(at - 1, -1, -1):
        text = lines[k]
        if not _code(text) or text.strip()[0] in _CLOSERS:
            continue
        if _depth(text) < depth:
            return -1
        if _depth(text) == depth:
            return k if text.split(maxsplit=1)[0].rstrip(":") in _CLAUSE_HEADS else -1
    return -1


def _block(lines: Sequence[str], at: int) -> range:
    """0-based lines of the block the clause at ``at`` opens."""
    depth, k = _depth(lines[at]), at + 1
    while k < len(lines) and not (_code(lines[k]) and _depth(lines[k]) <= depth
                                  and lines[k].strip()[0] not in _CLOSERS):
        k += 1
    return range(at + 1, k)


# Step 7's floor for a line that is no import: blame's own minimum for a move within a file
# (``-M``: 20 alphanumeric characters), so the rule takes only what blame would have taken had
# the line not also been reformatted.
UNIQUE_MIN_ALNUM = 20


def _is_import(text: str) -> bool:
    return text.startswith("import ") or (text.startswith("from ") and " import " in text)


# A one-line ``from X import a, b`` on step 4's key (no spaces, no brackets).
_FROM_NAMES = re.compile(r"(from[\w.]+import)([\w,]+)")


def unique_rows(lines: Sequence[str], up_lines: Sequence[str], free: Sequence[str], up_free: Sequence[str],
                rename_text: Callable[[str], str], taken_up: set[int], taken: Set[int] = frozenset(),
                same_unit: Callable[[int, int], bool] = lambda i, j: False) -> list[tuple[int, int]]:
    """Step 7: (i, j) of a line moved within its own file.  A line that stands exactly once in
    the target file and once in its own upstream file, equal on step 4's key (annotations and
    trailing comments cut; a ``from X import`` line's names read in sorted order, since
    2026-12-05: isort sorts them too), is that line moved, if it is an import (isort sorts imports; blame
    does not follow a 10-character ``import re`` moved) or has at least ``UNIQUE_MIN_ALNUM``
    alphanumeric characters; a line of the upstream already paired is not taken again."""
    def key(text: str) -> str:
        folded = reformat_key(rename_text(text.strip()))
        names = _FROM_NAMES.fullmatch(folded)
        if names:  # isort sorts the names of an import too: ``import b, a`` is ``import a, b``
            return names.group(1) + ",".join(sorted(names.group(2).split(",")))
        return folded

    mine = Counter(key(text) for text in free if text.strip())
    theirs = Counter(key(text) for text in up_free if text.strip())
    mine_free = Counter(key(text) for i, text in enumerate(free) if text.strip() and i not in taken)
    theirs_free = Counter(key(text) for j, text in enumerate(up_free) if text.strip() and j not in taken_up)
    at = {key(text): j for j, text in enumerate(up_free) if text.strip() and j not in taken_up}
    out = []
    for i, text in enumerate(free):
        k = key(text)
        if not k or i in taken or k not in at:
            continue
        # once in each file; or once among the lines no step paired, in each, and in the same
        # unit (since 2026-12-06): the other copies paired with each other
        if not (mine[k] == theirs[k] == 1 or (mine_free[k] == theirs_free[k] == 1 and same_unit(i, at[k]))):
            continue
        if _is_import(text.strip()) or sum(ch.isalnum() for ch in k) >= UNIQUE_MIN_ALNUM:
            out.append((i, at[k]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Recompute steps 4-5 of a git case's committed truth.")
    parser.add_argument("case", help="case name in manifest.toml (kind = git)")
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    case = cases.load_manifest().get(args.case)
    if case is None or case.kind != "git":
        parser.error(f"{args.case!r} is not a git case of {cases.MANIFEST}")
    target, upstream = cases.collect(case, args.cache_dir)
    with gzip.open(case.dir / cases.TRUTH_FILE, "rt", newline="", encoding="utf-8") as fh:
        old = list(csv.DictReader(fh))
    by_file: dict[str, dict[int, dict]] = {}
    for row in old:
        row["line"], row["upstream_line"] = int(row["line"]), int(row["upstream_line"])
        by_file.setdefault(row["target_path"], {})[row["line"]] = row
    up_lines = {rel: generate.split_lines(generate.decode_source(data)) for rel, data in upstream.items()}
    rename = tuple(case.git["rename"]) if case.git.get("rename") else None
    # Upstream lines blame credits to a target file other than the one at their path (after the
    # rename): moved away (step 5's exclusion, :func:`gone_units`).
    rename_text = renamer(rename)
    gone: dict[str, set[int]] = {}
    for row in old:
        if row["category"] in BLAME_CATEGORIES and rename_text(row["target_path"]) != row["upstream_path"]:
            gone.setdefault(row["upstream_path"], set()).add(row["upstream_line"] - 1)
    truth = []
    for rel in sorted(by_file):
        lines = generate.split_lines(generate.decode_source(target[rel]))
        truth.extend(gap_rows(rel, lines, up_lines, by_file[rel], rename, gone).values())
    write_truth(case.dir, truth)
    record = json.loads((case.dir / "truth.json").read_text(encoding="utf-8"))
    counts = {k: v for k, v in record["counts"].items() if "/" not in k}
    counts |= Counter(f"{row['category']}/{row['expected']}" for row in truth)
    record["counts"] = dict(sorted(counts.items()))
    (case.dir / "truth.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(record["counts"], indent=2))
    return 0


def write_truth(case_dir: Path, truth: list[dict]) -> None:
    """``truth.csv.gz`` (mtime 0: the same bytes on a rerun)."""
    with (case_dir / cases.TRUTH_FILE).open("wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed, \
            io.TextIOWrapper(packed, encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=cases.GIT_TRUTH_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(truth)


if __name__ == "__main__":
    sys.exit(main())
