"""Statements of a file pair, for fill's statement rule (:mod:`lineage.match.fill`).

A formatter breaks a long call or signature over several lines (Black: one argument a line, a
trailing comma, the closing bracket alone), and a fork that adds annotations to a signature
makes it too long for one line. The pieces of such a statement (``self,``, ``*,``, ``)``,
``"DELETE",``) are too short to be judged line by line: opposite the one-line statement they
came from, a piece shares a few characters with it and a bracket shares one. Judged as a whole
statement (its tokens joined), the edit is plain: ``def delete_message(self, channel_id:
Snowflake, *, reason: Optional[str] = None) -> Response[None]:`` is the upstream's ``def
delete_message(self, channel_id, *, reason=None):`` with annotations.

A *statement* here is a logical line: consecutive code lines joined while a bracket is open or a
line ends with a backslash (comments and docstrings are not part of one). Brackets are counted on
the line's tokens (:func:`~lineage.index.normalise.tokenize_code`, a string is one token), so a
bracket inside a string does not count; a line opening a ``def``/``class`` always starts a new
statement, and one longer than ``fill_statement_max_lines`` lines (``fill_rewrapped_max_lines``
for the re-wrapped statements of :func:`lineage.match.fill_statements.split_at_rewrapped`) is not used (a
bracket left open by a multi-line string would otherwise join what follows).

A line of a statement so paired is a copy of the upstream line it shares most words with
(:func:`line_partners`) when most of its words are words of the upstream statement. Two cases
that test missed on the real renamed fork (nextcord against discord.py), both now counted:

* **Several annotated parameters on one line** (``self, *, name: Optional[str] = None, reason:
  Optional[str] = None``): each parameter loses its own annotation before its words are counted
  (:func:`_piece_without_annotation`; before, only the first did, and the line kept 5 of its 9
  words). Such a line, and a lone ``reason: Optional[str] = None,``, is also too unlike the
  one-line signature it came from to be labelled at all as written (similarity 0.29 to ``def
  delete_channel(self, channel_id, *, reason=None):``, under ``near_floor_similarity``), so a
  piece the statement rule pairs is labelled by its text without annotations
  (:func:`piece_text`) when its text as written is too far: near, never verbatim.
* **A keyword argument kept, its value edited** (``embed=embed_payload,`` <- ``embed=embed``;
  ``delete_message_days: Optional[int] = None,`` <- ``delete_message_days=1``): with
  ``fill_statement_kept_keywords``, a line after the statement's first that binds a keyword the
  upstream statement binds too is a copy of the line binding it. An argument the edit added
  binds a keyword the upstream never passed and stays new. Only in a target file of the
  upstream file's own name (its later version): between files of other names, statements of
  one shape repeat the same keywords (``bias=self.use_bias,`` <- ``bias=True,`` of another
  model's layer on the sglang/vLLM pair). With ``fill_statement_kept_keys``, a dict entry whose
  literal key the upstream statement gives too (``"Accept-Encoding": DEFAULT_ACCEPT_ENCODING,``)
  is kept the same way.
* **Arguments added** (:func:`added_arguments`, ``fill_added_arguments``): a line that is its
  upstream line with whole arguments added inside its brackets, nothing else changed, copies
  that line (``def get_netrc_auth(url, raise_errors=False):`` <- ``def get_netrc_auth(url):``).
* **Pieces the word share cannot read** (round fork161, on the renamed fork's misses whose
  upstream line another piece of their own statement holds): (1) a **positional argument
  named** when Black broke the call open (``overwrites=overwrites,``, ``channel_type=
  ChannelType.text,`` <- ``_create_channel(name, overwrites, ChannelType.text, ...)``: half the
  line's words, the name once upstream; ``fill_statement_named_arguments``, in the files of the
  kept keywords); (2) a **message moved into an f-string** (``f"<{self.__class__.__name__}
  id={self.id} "`` <- ``'<{0.__class__.__name__} id={0.id} ...'.format(self)``): a string is one
  word, none of the upstream's, so its words are counted inside it (:func:`string_words`,
  ``fill_statement_string_words``), only where the upstream statement holds a string too (a
  message added to an ``assert`` names the statement's own words); (3) the statement's **first
  line assigning the same target** with its call edited (``data: List[MessagePayload] = await
  self.state.http.logs_from(`` <- ``data = await self.logs_from(...)``, 4 of 6 words), when the
  two values share a name other than ``self`` (``fill_statement_kept_target``).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from keyword import iskeyword, kwlist

import numpy as np

from lineage.index import CODE
from lineage.index.normalise import tokenize_code

try:  # the compiled statement scan and tokeniser, built with the indexer's per-line pass
    from lineage import _lineforms
except ImportError:  # pragma: no cover - a build without a C compiler
    _lineforms = None
if _lineforms is not None and not all(hasattr(_lineforms, name) for name in ("statement_scan", "code_tokens")):
    _lineforms = None  # pragma: no cover - a build of an older source: the Python passes, same results
# :func:`annotation_free_reference` in C (None where the built extension predates it), and the
# keywords it is told: no assignment target is one (:func:`_is_name`).
_annotation_free = getattr(_lineforms, "annotation_free", None)
_KEYWORDS = frozenset(kwlist)

OPENERS, _CLOSERS = frozenset("([{"), frozenset(")]}")
_STRING_START = re.compile(r"""[rRbBuUfFtT]{0,2}(['"])""")
_STRING_WORD = re.compile(r"[^\W\d]\w*|\d+")
_MIRROR = {"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{"}
_STARTERS = ("def ", "class ", "async def ", "@")
# Per-text results are memoised: an upstream file is read again for every target file paired
# with it, and several rules ask for one line's tokens, so tokenising the same texts over and
# over was about a third of the match stage on the pinned pair. Bounded, and only immutable
# values are kept (a caller gets its own list).
_MEMO_LINES = 1 << 16


def code_tokens(text: str) -> list[str]:
    """A code line's tokens without its trailing comment (compiled when built:
    ``lineage._lineforms.code_tokens``, the same tokens as :func:`code_tokens_reference`)."""
    if _lineforms is None:
        return code_tokens_reference(text)
    return list(_lineforms.code_tokens(text, False))


def code_tokens_reference(text: str) -> list[str]:
    """:func:`code_tokens` in Python (:data:`~lineage.index.normalise.TOKEN_RE`), its definition."""
    tokens = tokenize_code(text)
    return tokens[: tokens.index("#")] if "#" in tokens else tokens


def without_trailing_comma(tokens: list[str]) -> list[str]:
    """The tokens without a final ``,`` (the comma a formatter adds or removes)."""
    return tokens[:-1] if tokens and tokens[-1] == "," else tokens


def line_tokens(text: str) -> list[str]:
    """A code line's tokens without its trailing comment, quotes unified (``'`` -> ``"``)."""
    return list(_line_tokens(text))


@lru_cache(maxsize=_MEMO_LINES)
def _line_tokens(text: str) -> tuple[str, ...]:
    if _lineforms is not None:
        return _lineforms.code_tokens(text, True)
    return tuple(t.replace("'", '"') for t in code_tokens_reference(text))


@lru_cache(maxsize=_MEMO_LINES)
def bracket_tokens(stripped: str) -> str:
    """The line's bracket tokens in order (a bracket inside a string is not one)."""
    return "".join(t for t in _line_tokens(stripped) if t in OPENERS or t in _CLOSERS)


def statement_ids(lines: Sequence[str], kinds: Sequence[int], max_lines: int) -> np.ndarray:
    """Per content line, the number of the statement it belongs to; -1 for a line that is not
    code, and for every line of a statement longer than ``max_lines`` lines. The compiled scan
    (``lineage._lineforms.statement_scan``, on the indexer's tokeniser) when it is built, else
    :func:`statement_ids_reference`: the same arrays (the tests hold them to it)."""
    if _lineforms is None or len(lines) != len(kinds):
        return statement_ids_reference(lines, kinds, max_lines)
    out = np.empty(len(lines), np.int64)
    # 1 for a code line, else 0, contiguous: the reference's ``kind != CODE`` whatever the kinds'
    # dtype or strides (a cast to uint8 would wrap 257 to CODE; a strided view is no buffer for C).
    code = np.ascontiguousarray(np.asarray(kinds) == CODE, np.uint8)
    _lineforms.statement_scan(lines if isinstance(lines, list) else list(lines), code, out)
    return limit_statements(out, max_lines)


def statement_ids_reference(lines: Sequence[str], kinds: Sequence[int], max_lines: int) -> np.ndarray:
    """:func:`statement_ids` in Python, line by line: the definition the compiled scan follows."""
    out = np.full(len(lines), -1, np.int64)
    depth, current, continued, size = 0, -1, False, 0
    sizes: list[int] = []
    for i, (text, kind) in enumerate(zip(lines, list(kinds), strict=True)):
        if kind != CODE:
            continue
        stripped = text.strip()
        if (depth == 0 and not continued) or stripped.startswith(_STARTERS):
            if current >= 0:
                sizes.append(size)
            current, depth, size = current + 1, 0, 0
        out[i] = current
        size += 1
        for token in bracket_tokens(stripped):
            if token in OPENERS:
                depth += 1
            else:
                depth = max(depth - 1, 0)
        continued = stripped.endswith("\\")
    if current >= 0:
        sizes.append(size)
    too_long = np.flatnonzero(np.asarray(sizes, np.int64) > max_lines)
    if len(too_long):
        out[np.isin(out, too_long)] = -1
    return out


def file_statement_ids(side_kind: np.ndarray, start: int, lines: list[str]) -> np.ndarray:
    """:func:`statement_ids` of one file's content lines ``lines`` (texts, in order) without a
    length limit; ``side_kind[start:]`` holds their kinds (a :class:`~lineage.match.hits.Side`'s
    ``kind`` and the file's ``file_start``)."""
    return statement_ids(lines, side_kind[start : start + len(lines)], len(lines))


def limit_statements(ids: np.ndarray, max_lines: int) -> np.ndarray:
    """:func:`statement_ids` under a length limit, from the ids it gave without one (no second
    pass over the text: a file's statements are asked for under two limits and unlimited)."""
    too_long = np.flatnonzero(np.bincount(ids[ids >= 0]) > max_lines)
    if len(too_long) == 0:
        return ids
    out = ids.copy()
    out[np.isin(out, too_long)] = -1
    return out


def statement_key(lines: Sequence[str], annotations: bool = True) -> str:
    """A statement's tokens joined by spaces; a comma before a closing bracket is dropped (the
    trailing comma a formatter adds when it breaks a call), and with ``annotations`` off, so are
    its type annotations (:func:`strip_annotations`)."""
    tokens: list[str] = []
    for text in lines:
        for token in line_tokens(text.strip()):
            if token in _CLOSERS and tokens and tokens[-1] == ",":
                tokens.pop()
            tokens.append(token)
    return " ".join(tokens if annotations else strip_annotations(tokens))


@lru_cache(maxsize=_MEMO_LINES)
def annotation_free(text: str) -> str:
    """A code line's tokens without type annotations and without a trailing comma, joined by
    spaces (the line rule's second comparison and the alignment key inside a copy); "" for a
    line with no code (a comment). In C when the extension is built (:func:`annotation_free_of`),
    else :func:`annotation_free_reference`: the same text (the tests hold them to it)."""
    return annotation_free_of(text)


def annotation_free_of(text: str) -> str:
    """:func:`annotation_free` without its memo: the compiled pass (``lineage._lineforms.
    annotation_free``) when it is built. The fill's alignment keys ask it of nearly every line of
    each paired file once (:class:`~lineage.match.fill_lines.AlignForms` keeps them), where the
    memo's lookups and its 65,536 lines' churn cost more than the C pass itself."""
    if _annotation_free is None:
        return annotation_free_reference(text)
    return _annotation_free(text, _KEYWORDS)


def annotation_free_reference(text: str) -> str:
    """:func:`annotation_free` in Python: its definition."""
    return " ".join(strip_annotations(without_trailing_comma(line_tokens(text.strip()))))


@lru_cache(maxsize=_MEMO_LINES)
def added_arguments(t_text: str, u_text: str) -> bool:
    """Whether code line ``t_text`` is ``u_text`` with whole arguments (or parameters, items)
    added inside its brackets and nothing else changed, up to quotes and a trailing comma:
    ``raise ConnectionError(e, request=request)`` <- ``raise ConnectionError(e)``, ``def
    default_user_agent(name="python-requests"):`` <- ``def default_user_agent():``. Each added
    piece is balanced and stands between an opening bracket or a comma and a closing bracket or a
    comma of the upstream line, and holds a word; the upstream line keeps every token it had. An
    API that gained a keyword keeps its old calls as they were and adds the keyword to them, so
    such a line is the upstream line edited however much text the keyword adds (the ratio of
    ``raise SSLError(e, request=request)`` to ``raise SSLError(e)`` is 0.67)."""
    t = without_trailing_comma(list(_line_tokens(t_text.strip())))
    u = without_trailing_comma(list(_line_tokens(u_text.strip())))
    if len(t) <= len(u) or not any(tok in OPENERS for tok in u):
        return False
    # The diff pairs an upstream closing bracket with the first fitting one: an added last
    # argument that holds brackets (``foo(a, b=bar())`` <- ``foo(a)``) then leaves an unbalanced
    # piece. Read from the right (the lines mirrored) the diff pairs it with the last one.
    return _inserted_whole(u, t) or _inserted_whole(_mirrored(u), _mirrored(t))


def kept_arguments(t_text: str, u_text: str, min_share: float, min_words: int = 1) -> bool:
    """Whether code line ``t_text``, a piece of a re-wrapped statement, is arguments of
    ``u_text`` kept and arguments added after them: its parts (cut at its commas outside
    brackets, each without its type annotation, up to quotes) begin with one or more parts that
    are consecutive arguments of one bracket of ``u_text``, in their order there, every later
    part holds a word and is no argument of that bracket (an argument or parameter added, not
    one moved), and the kept parts hold at least
    ``min_share`` of the line's words and at least ``min_words`` words. ``Route("GET", "/guilds/{guild_id}/bans",
    guild_id=guild_id), params=params`` <- ``return self.request(Route('GET',
    '/guilds/{guild_id}/bans', guild_id=guild_id))`` (a keyword added to a call Black broke
    open), ``self, name: str, *, package: Optional[str] = None, extras: ... = None`` <- ``def
    load_extension(self, name, *, package=None):`` (a parameter added to a signature). The
    line's word share against the statement (0.71 and 0.67) reads the kept arguments as new
    text when the added one is long; a line whose first part is no kept argument
    (``webhook_id: int,``) is no such line."""
    parts = _argument_parts(_piece_without_annotation(line_tokens(t_text.strip())))
    if len(parts) < 2:
        return False
    keys = [_part_key(part) for part in parts]
    best, arguments = 0, set()
    for group in _bracket_arguments(_piece_without_annotation(line_tokens(u_text.strip()))):
        for start in range(len(group)):
            k = 0
            while k < len(keys) and start + k < len(group) and keys[k] == group[start + k]:
                k += 1
            if k > best:
                best, arguments = k, set(group)
    # each later part is added: it holds a word and is no argument of that bracket (moved there)
    if not best or best == len(parts) or any(
            key in arguments or not any(_is_word(tok) for tok in part)
            for key, part in zip(keys[best:], parts[best:], strict=True)):
        return False
    kept = sum(_is_word(tok) for part in parts[:best] for tok in part)
    total = sum(_is_word(tok) for part in parts for tok in part)
    return kept >= max(min_words, 1) and kept >= min_share * total


def _part_key(tokens: list[str]) -> str:
    return " ".join(tokens).replace("'", '"')


def _argument_parts(tokens: list[str]) -> list[list[str]]:
    """A piece's parts between its commas outside brackets, without the commas; a closing bracket
    this piece did not open ends it (``package=None):`` of a signature's last line)."""
    parts: list[list[str]] = [[]]
    depth = 0
    for token in tokens:
        if token in _CLOSERS and depth == 0:
            break
        if token == "," and depth == 0:
            parts.append([])
            continue
        depth += (token in OPENERS) - (token in _CLOSERS)
        parts[-1].append(token)
    return [part for part in parts if part]


def _bracket_arguments(tokens: list[str]) -> list[list[str]]:
    """The arguments of each bracket of a line, in order, as :func:`_part_key` keys: ``f(a, g(b,
    c))`` -> ``[["a", "g ( b , c )"], ["b", "c"]]``."""
    groups: list[list[str]] = []
    stack: list[tuple[int, int]] = []  # (group index, token index where the current part began)
    for at, token in enumerate(tokens):
        if token in OPENERS:
            groups.append([])
            stack.append((len(groups) - 1, at + 1))
        elif stack and (token == "," or token in _CLOSERS):
            group, begun = stack[-1]
            if at > begun:
                groups[group].append(_part_key(tokens[begun:at]))
            if token == ",":
                stack[-1] = (group, at + 1)
            else:
                stack.pop()
    return [group for group in groups if group]


def _mirrored(tokens: list[str]) -> list[str]:
    """Tokens in reverse order with each bracket turned round (a line read from the right)."""
    return [_MIRROR.get(tok, tok) for tok in reversed(tokens)]


def _inserted_whole(u: list[str], t: list[str]) -> bool:
    """:func:`added_arguments` on token lists, the diff read left to right."""
    depth, depths = 0, []  # the bracket depth before each upstream token
    for tok in u:
        depths.append(depth)
        depth += (tok in OPENERS) - (tok in _CLOSERS)
    ops = difflib.SequenceMatcher(None, u, t, autojunk=False).get_opcodes()
    if any(tag not in ("equal", "insert") for tag, *_ in ops):
        return False
    for tag, i, _, j0, j1 in ops:
        if tag != "insert":
            continue
        piece = t[j0:j1]
        level = 0
        for tok in piece:
            level += (tok in OPENERS) - (tok in _CLOSERS)
            if level < 0:
                return False
        before, after = (u[i - 1] if i > 0 else ""), (u[i] if i < len(u) else "")
        if (level != 0 or i == 0 or i == len(u) or depths[i] == 0 or not any(_is_word(tok) for tok in piece)
                or not (before in OPENERS or before == "," or piece[0] == ",")
                or not (after in _CLOSERS or after == "," or piece[-1] == ",")):
            return False
    return True


@lru_cache(maxsize=_MEMO_LINES)
def only_added_or_dropped(t_text: str, u_text: str) -> bool:
    """Whether one code line's tokens are the other's with tokens only added, or only dropped
    (one is a subsequence of the other; quotes unified, a trailing comma aside): the edit renamed
    no name and rewrote no literal or operator (``if hasattr(o, "__len__"):`` / ``if hasattr(o,
    '__len__'):``, ``class A:`` / ``class A(object):``, ``from .c import f`` / ``from .c import g,
    f``; not ``self._stdin = self._process.stdin`` / ``self._stdout = self._process.stdout``, nor
    ``if method == "fp8":`` / ``if method == "NVFP4":``)."""
    t = without_trailing_comma(list(_line_tokens(t_text.strip())))
    u = without_trailing_comma(list(_line_tokens(u_text.strip())))
    short, long = (t, u) if len(t) <= len(u) else (u, t)
    rest = iter(long)
    return all(tok in rest for tok in short)


def _is_word(token: str) -> bool:
    return any(ch.isalnum() or ch == "_" for ch in token)


def words(text: str, strip: bool = False) -> list[str]:
    """A line's words: names, keywords and literals (a token with a letter, digit or ``_``);
    with ``strip``, not those of its type annotation (:func:`_piece_without_annotation`)."""
    tokens = line_tokens(text.strip())
    return [t for t in (_piece_without_annotation(tokens) if strip else tokens) if _is_word(t)]


def line_partners(t_lines: Sequence[str], u_lines: Sequence[str], min_word_share: float,
                  strip: bool = False, kept_keywords: bool = False, arguments: bool = False,
                  kept_keys: bool = False, identical: bool = False,
                  kept_arguments_share: float = 0.0, kept_arguments_words: int = 1,
                  named_arguments: bool = False, string_words: bool = False,
                  kept_target: bool = False) -> list[int | None]:
    """For each line of a target statement, the index of the upstream statement's line it copies,
    or None when it is new text.

    A line is a copy when at least ``min_word_share`` of its words are words of the upstream
    statement (each upstream word counted as often as it occurs): an argument or a slot added by
    the edit is new text, an argument kept is not; a line of brackets alone (``)``, ``*,``) has
    no words and goes with its statement. Its partner is the upstream line sharing most of its
    words, the first such at or after the previous line's partner (the pieces of a re-wrapped
    statement stay in order), none when no upstream line left shares one of them (yt-dlp's
    ``_TESTS`` lists: eight lines of new test entries, ``'info_dict': {``, ``}, {``, were paired
    with abc.py's one ``'md5': ...`` line, the lines holding their words all held whole); a
    line without words takes the upstream statement's first line without words at or after the
    previous line's partner (its closing brackets), else the
    previous line's partner (the first line for the statement's first line). With ``strip``, a
    target line's words are counted without its type annotation (:func:`strip_annotations`):
    ``reason: Optional[str] = None,`` added typing to ``reason=None`` and keeps both its words,
    while ``out: Optional[torch.Tensor] = None,`` is not ``out_dtype: torch.dtype | None = None,``
    for sharing the words of an annotation.

    With ``kept_keywords``, a line after the statement's first that fails the word share but
    binds a keyword (``embed=embed_payload,``; with ``strip`` also a parameter with a default,
    ``delete_message_days: Optional[int] = None,``) that the upstream statement binds too
    (``embed=embed``, ``delete_message_days=1``) is a copy of the upstream line binding it: the
    argument was kept and its value edited (a variable renamed, a default changed), which an
    argument added by the edit is not.

    With ``kept_keys`` (``fill_statement_kept_keys``), a dict entry's literal key is a kept keyword
    too: ``"Accept-Encoding": DEFAULT_ACCEPT_ENCODING,`` <- ``'Accept-Encoding': ', '.join(('gzip',
    'deflate')),`` is the entry kept, its value edited, in a dict literal of the statement.

    With ``arguments`` (``fill_added_arguments``), a line that fails the word share but is an
    upstream line with arguments added (:func:`added_arguments`: ``def get_netrc_auth(url,
    raise_errors=False):`` <- ``def get_netrc_auth(url):``, both one line) copies that line: the
    added parameter is new text, but on one line with the old it cannot stand apart.

    With ``kept_arguments_share`` above 0 (``fill_kept_arguments_min_share``), a line after the
    statement's first that fails the word share but is arguments of an upstream line kept, in
    order, with arguments added after them, the kept ones at least ``kept_arguments_words``
    words (``fill_kept_arguments_min_words``; :func:`kept_arguments`: ``Route(...),
    params=params`` of a call Black broke open that gained a keyword) copies that line, the
    first such at or after the previous line's partner.

    With ``named_arguments`` (``fill_statement_named_arguments``), a line after the statement's
    first that fails the word share and is one keyword argument whose value is a whole argument
    an upstream line passes without a keyword (:func:`_naming_lines`; a value holding a name,
    not a constant nor ``self`` or ``cls`` alone) copies that line. With ``string_words``
    (``fill_statement_string_words``), a line holding a string that fails the word share is
    judged again with each string cut into its words (:func:`string_words`), the upstream
    statement's counted the same way, when that statement holds a string too. With
    ``kept_target`` (``fill_statement_kept_target``), the statement's first line, when it fails,
    copies the upstream first line if both assign one target and their values share a name other
    than ``self`` or ``cls`` (:func:`_kept_target`).

    With ``identical`` (``fill_statement_identical_lines``), a target line whose stripped text is
    an upstream line's copies that line (the first such at or after the previous identical
    partner), and a line identical to one target line is no other line's partner: the target
    line holds all its text (``hidden_states, residual = layer(`` held whole, ``positions,
    hidden_states, forward_batch, residual`` copies the argument lines below it, the first with
    most of its words). A line without words tests the upstream lines for words the same
    way as its own (with ``strip``, without annotations: ``) -> SampleResultType:`` closes the
    signature ``) -> List[int]:`` copies), and does not go with the previous line's partner when
    that one is taken whole (before, ``) -> None:`` was paired with ``eps: float = 1e-6,``, held
    verbatim by the line above it, while the same ``) -> None:`` stood two lines below).
    """
    u_words = [Counter(words(u)) for u in u_lines]
    pool = _pooled(u_words)
    u_bound: list[set[str]] | None = None  # made when a line first names a kept keyword or key
    out: list[int | None] = []
    last = 0
    same = _identical_partners(t_lines, u_lines) if identical else {}
    taken = set(same.values())
    u_bare: list[bool] | None = None  # per upstream line: no words (as the target's are counted); on first use
    for k, text in enumerate(t_lines):
        if k in same:
            last = same[k]
            out.append(last)
            continue
        mine = words(text, strip)
        found = shared_word_counts(mine, [pool])[0]  # its words the statement holds, each at most as often
        if mine and found < min_word_share * len(mine):
            grown = next((j for j, u in enumerate(u_lines) if j not in taken and added_arguments(text, u)),
                         None) if arguments else None
            if grown is None and kept_arguments_share > 0 and k > 0:
                grown = next((j for j in [*range(last, len(u_lines)), *range(last)] if j not in taken
                              and kept_arguments(text, u_lines[j], kept_arguments_share, kept_arguments_words)),
                             None)
            if grown is not None:
                last = grown
                out.append(last)
                continue
            name = _keyword_line(text, strip) if kept_keywords and k > 0 else None
            if name is None and kept_keys and k > 0:
                name = _key_line(text)
            if name is not None and u_bound is None:
                u_bound = [_bound_names(tokens) | (_bound_keys(tokens) if kept_keys else set())
                           for tokens in (line_tokens(u.strip()) for u in u_lines)]
            at = [j for j, bound in enumerate(u_bound) if name in bound and j not in taken] \
                if name is not None and u_bound else []
            if not at and named_arguments and k > 0:
                at = _naming_lines(text, u_lines, taken)
            if not at and string_words:
                at = _string_word_lines(text, u_lines, last, taken, strip, min_word_share)
            if not at and kept_target and k == 0 and 0 not in taken and _kept_target(text, u_lines[0]):
                at = [0]
            if not at:
                out.append(None)
                continue
            last = next((j for j in at if j >= last), at[0])
            out.append(last)
            continue
        if mine:
            # None too when its words are the statement's but only lines already held whole hold
            # them (a collection's ``'info_dict': {`` once every upstream ``'info_dict': {`` has
            # its identical target line): no line left shares a word with it
            partner = _most_shared(shared_word_counts(mine, u_words), last, taken)
            if partner is None:
                out.append(None)
                continue
            last = partner
        else:
            # Brackets alone (``):``, ``) -> None:``) close the statement: the upstream
            # statement's own line of brackets, when it has one after the previous partner, is
            # their partner (the previous line's would pair ``):`` with a parameter line).
            if not identical:
                last = next((j for j in range(last, len(u_lines)) if not u_words[j]), last)
            else:
                if u_bare is None:
                    u_bare = [not words(u, strip) for u in u_lines]
                # a closing line for a closing line: ``*,`` is no ``) -> X:``
                closes = text.strip()[:1] in _CLOSERS
                closing = next((j for j in range(last, len(u_lines)) if u_bare[j] and j not in taken
                                and (u_lines[j].strip()[:1] in _CLOSERS) == closes), None)
                if closing is None and last in taken:
                    out.append(None)
                    continue
                last = closing if closing is not None else last
        out.append(last)
    return out


# names every method's statements hold: no evidence that one statement is another's
_RECEIVERS = frozenset({"self", "cls"})
_THROWAWAY = _RECEIVERS | {"_"}


def _naming_lines(text: str, u_lines: Sequence[str], taken: set[int]) -> list[int]:
    """The upstream lines (not in ``taken``) of which code line ``text``, one keyword argument
    (``channel_type=ChannelType.text,``), names a positional argument: its value is a whole
    argument of a bracket of that line, passed there without a keyword
    (``self._create_channel(name, overwrites, ChannelType.text, category, ...)``)."""
    tokens = without_trailing_comma(line_tokens(text.strip()))
    if len(tokens) < 3 or tokens[1] != "=" or not _is_name(tokens[0]) or len(_comma_pieces(tokens)) != 1:
        return []
    if not {token for token in tokens[2:] if _is_name(token)} - _RECEIVERS:
        # a constant (``reduce_results=False,``) is any call's argument, and so is the receiver
        # alone (``dumper=self,`` added to every ``Base.__init__(self, ...)`` call of a class)
        return []
    value = _part_key(tokens[2:])
    out = []
    for j, u in enumerate(u_lines):
        if j in taken:
            continue
        if any(value in group for group in _bracket_arguments(line_tokens(u.strip()))):
            out.append(j)
    return out


def string_words(text: str, strip: bool = False) -> list[str]:
    """:func:`words` with each string literal cut into the words it holds (runs of letters,
    digits and ``_`` inside its quotes; an f-string's fields are words too): ``f"<{self.name!r}
    id={self.id}>"`` -> ``self, name, r, id, self, id``."""
    tokens = line_tokens(text.strip())
    out: list[str] = []
    for token in _piece_without_annotation(tokens) if strip else tokens:
        quote = _STRING_START.match(token)
        if quote:
            out += _STRING_WORD.findall(token[quote.end():])
        elif _is_word(token):
            out.append(token)
    return out


def _string_word_lines(text: str, u_lines: Sequence[str], last: int, taken: set[int], strip: bool,
                       min_share: float) -> list[int]:
    """For a line holding a string literal: the upstream line (not in ``taken``) sharing most of
    its :func:`string_words`, the first such at or after ``last``, when at least ``min_share`` of
    them are words of the upstream statement counted the same way; else none."""
    if not _holds_string(text) or not any(_holds_string(u) for u in u_lines):
        return []  # no string here, or none upstream: a message added (its fields name the statement's words)
    mine = string_words(text, strip)
    u_words = [Counter(string_words(u, strip)) for u in u_lines]
    if not mine or shared_word_counts(mine, [_pooled(u_words)])[0] < min_share * len(mine):
        return []
    partner = _most_shared(shared_word_counts(mine, u_words), last, taken)
    return [] if partner is None else [partner]


def _pooled(counts: Sequence[Counter[str]]) -> Counter[str]:
    """The words of a statement's lines together, each as often as the lines hold it."""
    pool: Counter[str] = Counter()
    for c in counts:
        pool.update(c)
    return pool


def _most_shared(shared: Sequence[int], last: int, taken: set[int]) -> int | None:
    """The upstream line (not in ``taken``) sharing most words (``shared``, per line), the first
    such at or after ``last``, then from the statement's start (the pieces of a re-wrapped
    statement stay in order); None when no line is left or none shares a word."""
    order = [j for j in [*range(last, len(shared)), *range(last)] if j not in taken]
    best = max((shared[j] for j in order), default=0)
    return next(j for j in order if shared[j] == best) if best else None


def _kept_target(t_text: str, u_text: str) -> bool:
    """Whether code lines ``t_text`` and ``u_text`` assign to one target (annotations cut:
    ``data: List[MessagePayload] = await self.state.http.logs_from(`` and ``data = await
    self.logs_from(...)``) and their values share a name other than ``self`` or ``cls``
    (``logs_from``): the value edited, not replaced (``final_hidden_states =
    self._apply_latent_projection(`` <- ``final_hidden_states = tensor_model_parallel_all_gather(``
    is another operation on the same variable)."""
    t, u = _assignment(t_text), _assignment(u_text)
    if t is None or u is None or t[0] != u[0]:
        return False
    return bool({tok for tok in t[1] if _is_name(tok)} & {tok for tok in u[1] if _is_name(tok)} - _RECEIVERS)


def name_share(t_text: str, u_text: str) -> float | None:
    """The share of code line ``t_text``'s names (identifiers, not keywords or literals, without
    its type annotation; not the receiver ``self``/``cls`` nor a throwaway ``_``), each counted
    as often as it occurs, that code line ``u_text`` holds as often; None when ``t_text`` holds
    no such name (``return 80`` <- ``return 75``: a literal edited). ``gate_up, _ =
    self.gate_up_proj(x)`` <- ``gate, _ = self.gate_proj(x)`` shares ``x`` alone: 1 of 3."""
    mine = [w for w in words(t_text, strip=True) if _is_name(w) and w not in _THROWAWAY]
    if not mine:
        return None
    theirs = Counter(w for w in words(u_text, strip=True) if _is_name(w))
    return sum((Counter(mine) & theirs).values()) / len(mine)


def _holds_string(text: str) -> bool:
    return any(_STRING_START.match(token) for token in line_tokens(text.strip()))


def _assignment(text: str) -> tuple[tuple[str, ...], list[str]] | None:
    """(target tokens, value tokens) of a plain assignment opening code line ``text``, its
    annotation cut (``self.channel: T = x(`` -> ``(self, ., channel), [x, (]``); else None."""
    tokens = strip_annotations(line_tokens(text.strip()))
    if "=" not in tokens or not _is_name(tokens[0]):
        return None
    at = tokens.index("=")
    target = tokens[:at]
    if not all(_is_name(t) or t == "." for t in target) or target[-1] == ".":
        return None
    return tuple(target), tokens[at + 1 :]


def _identical_partners(t_lines: Sequence[str], u_lines: Sequence[str]) -> dict[int, int]:
    """Target line -> upstream line of the same stripped text, in order: each target line takes
    the first such upstream line after the previous one taken (:func:`line_partners`)."""
    at: dict[str, list[int]] = {}
    for j, u in enumerate(u_lines):
        at.setdefault(u.strip(), []).append(j)
    out: dict[int, int] = {}
    after = -1
    for k, text in enumerate(t_lines):
        j = next((j for j in at.get(text.strip(), ()) if j > after), None)
        if j is not None:
            out[k] = after = j
    return out


def shared_word_counts(mine: list[str], u_words: list[Counter]) -> list[int]:
    """Per upstream line (its words counted), how many words it shares with ``mine``, each as
    often as the line holding it fewer times: ``sum((Counter(mine) & c).values())``, without a
    Counter made per upstream line."""
    counts = Counter(mine).items()
    return [sum(n if n <= (m := c.get(w, 0)) else m for w, n in counts) for c in u_words]


def _bound_names(tokens: list[str]) -> set[str]:
    """Names a line binds as a keyword argument or a parameter default (``name =`` after an
    opening bracket or a comma, or opening the line), without its annotations."""
    tokens = _piece_without_annotation(tokens)
    return {tokens[k] for k in range(len(tokens) - 1)
            if tokens[k + 1] == "=" and _is_name(tokens[k]) and (k == 0 or tokens[k - 1] in ("(", ","))}


def _bound_keys(tokens: list[str]) -> set[str]:
    """The literal keys a line gives dict entries (``"key":`` after an opening brace or a comma,
    or opening the line), quotes unified."""
    return {tokens[k] for k in range(len(tokens) - 1)
            if tokens[k + 1] == ":" and tokens[k][:1] == '"' and (k == 0 or tokens[k - 1] in ("{", ","))}


def _key_line(text: str) -> str | None:
    """The literal key of a line that is one dict entry (``"key": value,``), else None."""
    tokens = line_tokens(text.strip())
    if len(tokens) < 3 or tokens[1] != ":" or tokens[0][:1] != '"':
        return None
    return tokens[0] if len(_comma_pieces(tokens)) == 1 else None


def _keyword_line(text: str, strip: bool) -> str | None:
    """The name a line binds when it is one keyword argument or parameter with a default
    (``name=value,``; with ``strip``, ``name: T = value,`` too), else None."""
    tokens = line_tokens(text.strip())
    if strip:
        tokens = _piece_without_annotation(tokens)
    tokens = tokens[1:] if tokens[:1] in (["*"], ["**"]) else tokens
    if len(tokens) < 3 or tokens[1] != "=" or not _is_name(tokens[0]):
        return None
    return tokens[0] if len(_comma_pieces(tokens)) == 1 else None


def best_in_order(scores: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """In-order pairs by repeated best match: the highest score of the matrix (ties to the first)
    if it reaches ``threshold``, then the same on both sides of it (difflib ``Differ``'s rule)."""
    out: list[tuple[int, int]] = []
    stack = [(0, scores.shape[0], 0, scores.shape[1])]
    while stack:
        a0, a1, b0, b1 = stack.pop()
        if a0 >= a1 or b0 >= b1:
            continue
        block = scores[a0:a1, b0:b1]
        i, j = divmod(int(np.argmax(block)), b1 - b0)
        if block[i, j] < threshold:
            continue
        out.append((a0 + i, b0 + j))
        stack += [(a0, a0 + i, b0, b0 + j), (a0 + i + 1, a1, b0 + j + 1, b1)]
    return sorted(out)


def whole_statements(ids: np.ndarray, sizes: np.ndarray, lines: Sequence[int]) -> list[list[int]]:
    """The statements all of whose lines are among ``lines`` (content lines of one file, in
    order), each as its list of lines; ``ids``: :func:`statement_ids` of the file, ``sizes``:
    the number of lines of each statement (``np.bincount`` of the ids)."""
    members: dict[int, list[int]] = {}
    # the lines' ids read in one go: indexing the array line by line cost most of the function
    for line, sid in zip(lines, ids[np.fromiter(lines, np.intp, len(lines))].tolist(), strict=True):
        if sid >= 0:
            members.setdefault(sid, []).append(line)
    return [found for sid, found in members.items() if sizes[sid] == len(found)]


def statement_lines(ids: np.ndarray, wanted: Sequence[int]) -> dict[int, list[int]]:
    """The content lines, in order, of each statement number in ``wanted`` (each at least 0):
    ``np.flatnonzero(ids == s)`` for all of them from one stable sort, not one pass over the
    file's ids per statement."""
    order = np.argsort(ids, kind="stable")  # stable: a statement's lines stay in line order
    ordered = ids[order]
    numbers = sorted(set(wanted))
    lo = np.searchsorted(ordered, numbers, "left").tolist()
    hi = np.searchsorted(ordered, numbers, "right").tolist()
    return {s: order[a:b].tolist() for s, a, b in zip(numbers, lo, hi, strict=True)}


def _piece_without_annotation(tokens: list[str]) -> list[str]:
    """One line of a re-wrapped statement without its type annotations: a parameter
    (``reason: Optional[str] = None,`` -> ``reason = None ,``; ``channel_id: Snowflake,`` ->
    ``channel_id ,``), several parameters of one line (``self, *, name: Optional[str] = None``
    -> ``self , * , name = None``: each piece between two commas outside brackets loses its
    own), the closing line of a signature (``) -> Response[None]:`` -> ``) :``), or whatever
    :func:`strip_annotations` strips from a whole line."""
    if tokens[:1] == [")"] and "->" in tokens and tokens[-1] == ":":
        return [*tokens[: tokens.index("->")], ":"]
    start = 1 if tokens[:1] == ["async"] else 0
    if not tokens or tokens[start : start + 1] == ["def"]:
        return strip_annotations(tokens)
    out: list[str] = []
    for piece in _comma_pieces(tokens):
        stars = 1 if piece[:1] in (["*"], ["**"]) else 0
        colon = _annotated_target_end(piece[stars:])
        if colon is None:
            out += piece
            continue
        colon += stars
        end = _annotation_end(piece, colon, ("=", ","))
        out += piece[:colon] + (piece[end:] if end is not None else [])
    return out


def _comma_pieces(tokens: list[str]) -> list[list[str]]:
    """The tokens cut after each comma outside brackets (a bracket closed that this line did
    not open counts as outside), each piece with its comma."""
    pieces: list[list[str]] = [[]]
    depth = 0
    for token in tokens:
        pieces[-1].append(token)
        if token in OPENERS:
            depth += 1
        elif token in _CLOSERS:
            depth = max(depth - 1, 0)
        elif token == "," and depth == 0:
            pieces.append([])
    return [piece for piece in pieces if piece]


def piece_text(text: str) -> str:
    """A line of a re-wrapped statement as its similarity is judged without type annotations:
    its tokens without them (:func:`_piece_without_annotation`), joined by spaces."""
    return " ".join(_piece_without_annotation(line_tokens(text.strip())))


def strip_annotations(tokens: list[str]) -> list[str]:
    """Tokens of a line or statement without its type annotations: a ``def``'s parameter and
    return annotations, and the annotation of an annotated assignment (``self.tts: bool =
    data["tts"]`` -> ``self.tts = data["tts"]``). A fork that adds typing to copied code changes
    nothing else on such lines; a bare annotation (``x: int``) is kept, it is a statement of its
    own. Anything else is returned unchanged."""
    start = 1 if tokens[:1] == ["async"] else 0
    if tokens[start : start + 1] == ["def"]:
        return _strip_def(tokens)
    colon = _annotated_target_end(tokens)
    end = _annotation_end(tokens, colon, ("=",)) if colon is not None else None
    return tokens if colon is None or end is None else tokens[:colon] + tokens[end:]


def _annotation_end(tokens: list[str], colon: int, stops: tuple[str, ...]) -> int | None:
    """Index of the first of ``stops`` outside brackets after the annotation that follows
    ``tokens[colon]`` (``=`` of an annotated assignment, ``,`` ending a parameter); None if none."""
    depth = 0
    for k in range(colon + 1, len(tokens)):
        token = tokens[k]
        if token in OPENERS:
            depth += 1
        elif token in _CLOSERS:
            depth -= 1
        elif depth == 0 and token in stops:
            return k
    return None


@lru_cache(maxsize=_MEMO_LINES)  # a few thousand names recur over millions of lines
def _is_name(token: str) -> bool:
    return (token[0].isalpha() or token[0] == "_") and token.replace("_", "a").isalnum() and not iskeyword(token)


def _annotated_target_end(tokens: list[str]) -> int | None:
    """Index of the ``:`` after a simple assignment target (``name``, ``self.name``,
    ``name[key]``) that opens a line, else None."""
    if ":" not in tokens or not _is_name(tokens[0]):  # (most lines hold no ``:`` token at all)
        return None
    k = 1
    while k < len(tokens):
        if tokens[k] == "." and k + 1 < len(tokens) and _is_name(tokens[k + 1]):
            k += 2
        elif tokens[k] == "[":
            depth = 0
            while k < len(tokens):
                depth += tokens[k] == "["
                depth -= tokens[k] == "]"
                k += 1
                if depth == 0:
                    break
        else:
            break
    return k if k < len(tokens) and tokens[k] == ":" else None


def _strip_def(tokens: list[str]) -> list[str]:
    out: list[str] = []
    depth, skipping, params_done = 0, False, False
    k = 0
    while k < len(tokens):
        token = tokens[k]
        if params_done and token == "->":
            # the return annotation, up to the def's final colon
            end = len(tokens) - 1 if tokens[-1] == ":" else len(tokens)
            out += tokens[end:]
            break
        if token in OPENERS:
            depth += 1
        elif token in _CLOSERS:
            depth -= 1
            if depth == 0:
                skipping, params_done = False, True
        if skipping and depth == 1 and token in (",", "="):
            skipping = False
        if not skipping and depth == 1 and token == ":" and not params_done:
            skipping = True
        if not skipping:
            out.append(token)
        k += 1
    return out
