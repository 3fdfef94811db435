"""Provenance markers in Python comments and docstrings.

A *marker* is a note a developer left saying where code came from::

    # Adapted from https://github.com/vllm-project/vllm/blob/v0.6.4/vllm/model_executor/models/llama.py
    # Copied from transformers.models.llama.modeling_llama.LlamaRMSNorm with Llama->Mistral
    # SPDX-License-Identifier: Apache-2.0

:func:`find_markers` reads them from comment text (full-line and trailing comments) and
docstring lines only, never from code or from ordinary string literals.

Where text is read
------------------
With ``kinds`` (one of ``"code" | "comment" | "docstring" | "blank"`` per line) the caller's
classification decides: ``comment`` and ``code`` lines contribute the text after the first ``#``
that is not inside a string literal (so trailing comments count), ``docstring`` lines contribute
their string text, ``blank`` lines nothing. Missing or unknown kinds are treated like ``code``.
Without ``kinds`` a small scanner finds ``#`` comments outside quotes and the text of string
literals that start a statement (nothing but indentation before them and not inside brackets),
which is what docstrings look like; ``x = \"\"\"...\"\"\"`` and string arguments are ignored.

Phrase markers
--------------
A phrase must open a clause: the start of the text, or after ``. ; : ! ?``, ``(`` or a dash.
Phrases (case-insensitive) and their kinds:

* ``derived from`` / ``forked from`` -> ``derived_from``
* ``adapted from`` (and the common misspelling ``adopted from``) -> ``adapted_from``
* ``copied from`` / ``vendored from`` -> ``copied_from``
* ``modified from`` -> ``modified_from``; ``ported from`` -> ``ported_from``
* ``taken from`` / ``borrowed from`` -> ``taken_from``
* ``based on`` / ``based upon`` / ``based off (of)`` -> ``based_on``
* ``inspired by`` -> ``inspired_by``

"Copied and modified from" takes the kind of the last verb. An adverb ("heavily", "mostly",
"originally", ...) or a short parenthesis may sit inside the phrase.

A phrase may follow a *known lead-in* ("This file is", "This code was originally", "Parts of
this file are", "This file contains code", "Code", "Some code", "Implementation", "Mostly",
"Partially", ...) or a *generic lead-in* of one to three words ("Weight loading adapted from",
"Implementation of RoPE adapted from") that contains no function word such as "is", "the", "it".

What follows the phrase (its *source*) is judged on its first clause (up to ``;``, ``, `` or
the end of a sentence):

* *strong sources*: a URL, a dotted path (``vllm.model_executor.layers``; two-part paths only
  when they open the clause or end in a CapWord, never ``self.x``/``x.shape``), a file name with a
  known extension (``foo/bar.py``), a release (``v0.6.4``, ``0.6.4``), or a proper noun:
  a word with an upper-case letter (``vLLM``, ``HuggingFace``) other than function words, single
  letters, hardware acronyms (``KV``, ``GPU``) and paper references (``Table``, ``Eq``).
* *source nouns*: implementation, code, codebase, version, repo, repository, project, library,
  package, upstream, commit, PR, gist, ...

Rules per phrase:

* ``copied from`` / ``taken from``: a strong source ("copied from the cache" is prose).
* ``based on`` / ``inspired by``: a strong source or a source noun ("based on the input shape"
  is prose; "based on the original implementation" is a marker).
* ``derived``/``adapted``/``modified``/``ported from`` are lenient: also a possessive or any first
  word that is not an article or a prose word ("ported from numpy" counts, "derived from the max
  value" does not).
* After a generic lead-in every phrase needs a strong source; ``based on``/``inspired by`` need a
  URL, dotted or file path, or a proper noun together with a source noun.

When the marker line has no URL, the next line of the same comment block / docstring is attached
if it starts with a URL (``# Adapted from`` + ``# https://...``) or with ``with A->B``; when the
phrase has nothing after it (or ends with ``:``) the next line is attached as its source whatever
it says, unless it is a marker itself. Attached lines produce no markers of their own.

A line that continues a sentence (the line above, in the same comment block or docstring, does
not end with ``. ! ? : ;``) and starts in lower case is judged like a generic lead-in: wrapped
prose such as "...the colours are mapped\\n based on the norm set for this Colorizer." is no marker.

Other markers
-------------
* ``url``: a bare GitHub / raw.githubusercontent / GitLab URL that points at a file (it has a ref
  and a path) and is not part of a phrase marker.
* ``spdx``: ``SPDX-License-Identifier: <expr>`` (``licence`` is the expression).
* ``copyright``: ``SPDX-FileCopyrightText: ...`` or text starting with "Copyright" (or ``©``)
  followed by a year, ``(c)``/``©``, a proper noun, or contributors/authors/team/project.

Fields
------
URLs fill ``repository`` (``owner/name``; GitLab keeps its subgroups), ``ref`` and ``path`` from
``/blob|tree|raw|blame/<ref>/<path>``, ``raw.githubusercontent.com/<owner>/<name>/<ref>/<path>``
(also ``refs/heads/<ref>``) and GitLab ``/-/blob/<ref>/<path>``; the ref is always one path
segment (a branch like ``release/v1`` cannot be told from a path). ``#L10-L20`` (or GitLab's
``#L10-20``) fills ``line_start``/``line_end``, a single ``#L10`` sets both to 10. Without a URL
the path comes from a dotted path: the components before the first one that starts with an
upper-case letter become ``a/b/c.py`` and the rest is ``symbol``
(``...modeling_llama.LlamaAttention.forward`` -> symbol ``LlamaAttention.forward``; ``Axis.set``
gives only a symbol); an all lower-case dotted path becomes ``a/b/c.py`` with no symbol. Failing
that, from a file path, or a directory path with at least two slashes (which fills ``path`` but
never makes a phrase a marker on its own). ``replacements`` come from
``with A->B, C->D`` (``->``, ``→`` or ``=>``).

Known limits: a phrase split across two lines ("... Adapted\\nfrom vLLM") is not seen, and the
lenient verbs accept some prose that starts with a plain word ("modified from previous step").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["MARKER_KINDS", "Marker", "find_markers", "marker_names_upstream"]

MARKER_KINDS: tuple[str, ...] = (
    "derived_from",
    "adapted_from",
    "copied_from",
    "based_on",
    "modified_from",
    "ported_from",
    "taken_from",
    "inspired_by",
    "url",
    "spdx",
    "copyright",
)

_MAX_TEXT = 200
# Markers sit near the start of a comment; bounding the text keeps the regexes cheap on
# pathological (minified, generated) lines.
_MAX_SCAN = 4000


@dataclass(frozen=True)
class Marker:
    """One provenance marker; see the module docstring for how each field is filled."""

    line: int
    kind: str
    text: str
    repository: str = ""
    ref: str = ""
    path: str = ""
    symbol: str = ""
    line_start: int = 0
    line_end: int = 0
    replacements: tuple[tuple[str, str], ...] = ()
    licence: str = ""


# --------------------------------------------------------------------------------------------
# Finding comment and docstring text
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Segment:
    line: int  # 0-based
    col: int
    source: str  # "comment" | "string"
    text: str  # cleaned text
    whole_line: bool  # nothing but indentation before it (continuations must be whole lines)
    statement: bool  # a string literal that starts a statement: docstring-like


_PREFIX_CHARS = "rRbBuUfFtT"
_INTERESTING_RE = re.compile(r"[#\"'()\[\]{}]")
# A top-level statement resets the bracket depth, so one scanner slip does not hide every
# later docstring.
_TOP_LEVEL_RE = re.compile(r"(?:async\s+def|def|class|import|from)\b|@")


_CLOSE_RES = {q: re.compile(r"\\.?|" + re.escape(q)) for q in ('"""', "'''", '"', "'")}


def _find_close(line: str, start: int, quote: str) -> int:
    """Index just past the closing ``quote`` at or after ``start``, or -1."""
    for m in _CLOSE_RES[quote].finditer(line, start):
        # An escaped quote never closes, even in raw strings.
        if not m.group(0).startswith("\\"):
            return m.end()
    return -1


def _scan(lines: Sequence[str]) -> list[list[_Segment]]:
    """Raw comment and string segments per line (text not yet cleaned)."""
    out: list[list[_Segment]] = []
    open_quote: str | None = None
    open_statement = False
    depth = 0
    for idx, line in enumerate(lines):
        segs: list[_Segment] = []
        pos = 0
        n = len(line)
        if open_quote is not None:
            end = _find_close(line, 0, open_quote)
            body = line if end < 0 else line[: end - len(open_quote)]
            segs.append(_Segment(idx, 0, "string", body, True, open_statement))
            if end < 0:
                out.append(segs)
                continue
            open_quote = None
            pos = end
        elif _TOP_LEVEL_RE.match(line):
            depth = 0
        while pos < n:
            hit = _INTERESTING_RE.search(line, pos)
            if hit is None:
                break
            pos = hit.start()
            ch = line[pos]
            if ch == "#":
                segs.append(_Segment(idx, pos, "comment", line[pos + 1 :], not line[:pos].strip(), False))
                break
            if ch in "\"'":
                start = pos
                while start > 0 and pos - start < 2 and line[start - 1] in _PREFIX_CHARS:
                    start -= 1
                whole = not line[:start].strip()
                statement = whole and depth == 0
                quote = ch * 3 if line.startswith(ch * 3, pos) else ch
                body_start = pos + len(quote)
                end = _find_close(line, body_start, quote)
                if end < 0:
                    if len(quote) == 3:
                        open_quote, open_statement = quote, statement
                    # An unclosed one-quote string is a syntax error or a scanner slip; either
                    # way nothing after it on this line is trustworthy.
                    segs.append(_Segment(idx, pos, "string", line[body_start:], whole, statement))
                    break
                segs.append(_Segment(idx, pos, "string", line[body_start : end - len(quote)], whole, statement))
                pos = end
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth = max(0, depth - 1)
            pos += 1
        out.append(segs)
    return out


_TOOL_PRAGMA_RE = re.compile(
    r"\s+#\s*(?:noqa|type\s*:|pylint\s*:|pragma\b|fmt\s*:|isort\s*:|nosec|mypy\s*:|pyright\s*:"
    r"|ruff\s*:).*$",
    re.IGNORECASE,
)
_LEADING_PUNCT = " \t\f\v#*>•:-"
_RAW_DOCSTRING_OPEN_RE = re.compile(r"^\s*[rRuUbBfF]{0,2}(?:\"\"\"|'''|\"|')")
_RAW_DOCSTRING_CLOSE_RE = re.compile(r"(?:\"\"\"|'''|\"|')\s*[,)]?\s*$")


def _clean(text: str) -> str:
    text = text[:_MAX_SCAN]
    text = _TOOL_PRAGMA_RE.sub("", text)
    return text.lstrip(_LEADING_PUNCT).rstrip()


def _select(lines: Sequence[str], kinds: Sequence[str] | None, scanned: list[list[_Segment]]) -> list[list[_Segment]]:
    """The segments to read markers from, with cleaned text."""
    selected: list[list[_Segment]] = []
    for idx, line in enumerate(lines):
        raw = scanned[idx]
        if kinds is None:
            keep = [s for s in raw if s.source == "comment" or s.statement]
        else:
            kind = kinds[idx] if idx < len(kinds) else "code"
            if kind == "blank":
                keep = []
            elif kind == "docstring":
                keep = [s for s in raw if s.source in ("string", "comment")]
                if not any(s.source == "string" for s in raw):
                    # The caller knows better than the scanner: read the whole line.
                    text = _RAW_DOCSTRING_CLOSE_RE.sub("", _RAW_DOCSTRING_OPEN_RE.sub("", line))
                    keep = [_Segment(idx, 0, "string", text, True, True)]
            else:
                keep = [s for s in raw if s.source == "comment"]
                if not keep and kind == "comment" and line.lstrip().startswith("#"):
                    col = line.index("#")
                    keep = [_Segment(idx, col, "comment", line[col + 1 :], True, False)]
        selected.append([_Segment(s.line, s.col, s.source, _clean(s.text), s.whole_line, s.statement) for s in keep])
    return selected


# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ADVERB = (
    r"(?:mostly|partially|partly|originally|heavily|largely|loosely|directly|primarily|mainly"
    r"|closely|lightly|slightly|shamelessly|initially|also|substantially|entirely|fully|simply"
    r"|verbatim|liberally|significantly|roughly)"
)
_FROM_VERBS = r"derived|adapted|adopted|copied|modified|ported|taken|borrowed|forked|vendored"
_BE = r"(?:is|are|was|were|has\s+been|have\s+been)"

_PHRASE = (
    rf"(?:(?:{_FROM_VERBS})\s*(?:and|&|/|,)\s*)?"
    rf"(?:(?P<verb>{_FROM_VERBS})(?:\s+\([^()]{{0,60}}\))?"
    rf"(?:\s+{_ADVERB}|\s+in\s+part|\s+with\s+(?:\w+\s+)?(?:changes|modifications))?\s+from"
    rf"|(?P<based>based)(?:\s+{_ADVERB})?\s+(?:on|upon|off(?:\s+of)?)"
    rf"|(?P<inspired>inspired)(?:\s+{_ADVERB})?\s+by)"
    r"(?![\w-])"
)

_KNOWN_LEAD = (
    r"(?P<lead>"
    rf"(?:this|the\s+following|following)(?:\s+[\w-]+){{0,3}}?\s+{_BE}\s+"
    r"|(?:some|most|much|all|large\s+parts|parts?|portions?|pieces?|bits)\s+of\s+(?:this|the)"
    rf"(?:\s+[\w-]+){{0,2}}?\s+{_BE}\s+"
    r"|(?:(?:this|the)(?:\s+[\w-]+){0,2}?\s+)?(?:contains|includes|uses|has)\s+"
    r"(?:some\s+|the\s+)?(?:code|parts|portions|functions|classes|snippets|logic|pieces"
    rf"|implementations?)(?:\s+(?:that|which)\s+{_BE})?\s+"
    r"|(?:(?:some|most|much|the|this|all)\s+)?(?:code|implementation|impl|logic|kernels?"
    r"|modules?|files?|classes|functions|methods|parts|portions)(?:\s+(?:here|below|above))?"
    rf"(?:\s+(?:in|of)\s+this\s+(?:file|module|class|function|package))?(?:\s+{_BE})?\s+"
    r")?"
)

_KNOWN_RE = re.compile(rf"{_KNOWN_LEAD}(?:{_ADVERB}\s+){{0,2}}{_PHRASE}", re.IGNORECASE)
_GENERIC_RE = re.compile(rf"(?P<generic>(?:[A-Za-z][\w-]*\s+){{1,3}}?)(?:{_ADVERB}\s+){{0,2}}{_PHRASE}", re.IGNORECASE)
_CLAUSE_START_RE = re.compile(r"[.!?;:]\s+|[(\[]\s*|\s[-–—]{1,2}\s+")
_CLAUSE_END_RE = re.compile(r";|,\s|(?<=\S)[.!?](?=\s|$)")

# Words that make a would-be generic lead-in a sentence ("The key is derived from ...").
_GENERIC_STOP = _words(
    """
    is are was were be been being am the a an it its we they he she you i this that these those
    then and or but if when where which who whom whose to for by with as will would should shall
    can could may might must not no so because since while until than there here only just do
    does did done has have had get gets got make makes made use used uses using value values
    result results data number numbers tensor tensors cache caches buffer buffers state states
    memory output outputs input inputs shape shapes size sizes
    """
)
# First words after a lenient verb that mark prose rather than a source.
_PROSE_START = _words(
    """
    the a an this that these those its their our my your his her it them there here previous
    next above below former latter each every some any all both input inputs output outputs one
    """
)
_SOURCE_NOUN_RE = re.compile(
    r"\b(?:implementations?|impl|code|codebase|versions?|repo|repos|repository|repositories"
    r"|project|library|libraries|lib|package|upstream|commit|PR|pull\s+request|gist"
    r"|source\s+code|reference)\b",
    re.IGNORECASE,
)
_NOT_PROPER = _words(
    """
    the a an this that these those it its we our i in on at for see note and or but if when
    with from to of by as is nb todo fixme xxx hack warning
    table tables figure fig eq eqn equation section sec appendix algorithm alg step line lines
    kv gpu gpus cpu cpus tpu tpus npu hbm sram dram ram sm sms io oom api tp pp dp ep
    """
)
_WORD_RE = re.compile(r"[A-Za-z][\w+'’-]*")
_POSSESSIVE_RE = re.compile(r"\b\w+['’]s\b")
_VERSION_RE = re.compile(r"(?<![\w.])(?:v\d+(?:\.\d+)+|\d+\.\d+\.\d+)", re.IGNORECASE)

_CODE_HOSTS = r"(?:www\.)?(?:github\.com|gitlab\.com|raw\.githubusercontent\.com)/"
_URL_RE = re.compile(rf"(?:https?://|(?<![\w.@/-])(?={_CODE_HOSTS}))[^\s<>\"'`()\[\]{{}}|\\^]+", re.IGNORECASE)
_URL_TRAIL = ".,;:!?'\"*`"

_FILE_EXT = (
    "py|pyi|pyx|pxd|cu|cuh|cpp|cc|cxx|c|h|hpp|hh|rs|go|js|ts|java|jl|sh|yaml|yml|json|toml|cfg|ini|md|rst|txt|ipynb"
)
_FILE_EXTS = frozenset(_FILE_EXT.split("|"))
_FILE_PATH_RE = re.compile(rf"(?<![\w./:-])((?:[\w.-]+/)*[\w-]+\.(?:{_FILE_EXT}))(?![\w/-])", re.IGNORECASE)
# Without an extension a path needs two slashes; "min/default/max" still slips through, so
# such paths fill ``path`` but never make a phrase a marker on their own.
_DIR_PATH_RE = re.compile(r"(?<![\w./:-])((?:[\w.-]+/){2,}[\w.-]+)(?![\w/-])")
_DOTTED_RE = re.compile(r"(?<![\w./-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?![\w/-]|\.\w)")
_TLDS = _words("com org net io ai co dev edu gov html htm")
# Dotted names that are attribute access on a local, not a module path.
_BAD_DOTTED_FIRST = _words(
    """
    self cls ctx args kwargs config cfg x y z model module input inputs output outputs tensor
    e i eg ie etc np
    """
)

# Cheap filter: every marker contains one of these.
_MAYBE_RE = re.compile(r"from|based|inspired|spdx|copyright|©|\(c\)|github|gitlab", re.IGNORECASE)
_REPL_START_RE = re.compile(r"\bwith\s+(?=[^\s,;]+?\s*(?:->|→|=>))", re.IGNORECASE)
_REPL_PAIR_RE = re.compile(r"\s*(?:,|\band\b)?\s*([^\s,;>]+?)\s*(?:->|→|=>)\s*([^\s,;]+)")
_REPL_STRIP = "`'\"().[]:"

_SPDX_LICENCE_RE = re.compile(r"\bSPDX-License-Identifier\s*:\s*(?P<expr>\S.*)$", re.IGNORECASE)
_SPDX_COPYRIGHT_RE = re.compile(r"\bSPDX-FileCopyrightText\s*:\s*\S", re.IGNORECASE)
_COPYRIGHT_RE = re.compile(
    r"^(?:portions\s+)?(?P<pre>©|\(c\))?\s*copyright\b\s*(?P<post>©|\(c\))?\s*[:-]?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_COPYRIGHT_SIGN_RE = re.compile(r"^(?:©|\(c\))\s*(?:19|20)\d\d\b", re.IGNORECASE)
_YEAR_RE = re.compile(r"\b(?:19|20)\d\d\b")
_COPYRIGHT_WORD_RE = re.compile(r"\b(?:contributors|authors|team|project|holders)\b", re.IGNORECASE)


# --------------------------------------------------------------------------------------------
# Source recognisers
# --------------------------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(text.split())[:_MAX_TEXT].rstrip()


def _urls(text: str) -> list[tuple[int, int, str]]:
    found = []
    for m in _URL_RE.finditer(text):
        url = m.group(0).rstrip(_URL_TRAIL)
        if "." in url.split("//", 1)[-1].split("/", 1)[0]:  # a host with a dot, not "https://x"
            found.append((m.start(), m.start() + len(url), url))
    return found


def _without_urls(text: str) -> str:
    return _URL_RE.sub(" ", text)


@dataclass(frozen=True)
class _UrlInfo:
    repository: str = ""
    ref: str = ""
    path: str = ""
    line_start: int = 0
    line_end: int = 0


_LINES_FRAGMENT_RE = re.compile(r"^L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?", re.IGNORECASE)
_CONTENT_KINDS = frozenset({"blob", "tree", "raw", "blame", "edit"})


def _parse_url(url: str) -> _UrlInfo:
    """Repository, ref, path and line range of a GitHub or GitLab URL (empty otherwise)."""
    rest = re.sub(r"^https?://", "", url, flags=re.IGNORECASE)
    rest, _, fragment = rest.partition("#")
    rest = rest.partition("?")[0]
    host, _, tail = rest.partition("/")
    host = host.lower()
    if host.startswith("www."):
        host = host[4:]
    segs = [s for s in tail.split("/") if s]
    repository = ref = path = ""
    if host == "github.com" and len(segs) >= 2:
        repository = f"{segs[0]}/{_strip_git(segs[1])}"
        if len(segs) >= 4 and segs[2].lower() in _CONTENT_KINDS:
            ref, path = segs[3], "/".join(segs[4:])
    elif host == "raw.githubusercontent.com" and len(segs) >= 3:
        repository = f"{segs[0]}/{segs[1]}"
        refs = segs[2:]
        if len(refs) >= 3 and refs[0] == "refs" and refs[1] in ("heads", "tags"):
            refs = refs[2:]
        ref, path = refs[0], "/".join(refs[1:])
    elif (host == "gitlab.com" or host.startswith("gitlab.")) and len(segs) >= 2:
        if "-" in segs:
            cut = segs.index("-")
            repository = "/".join(segs[:cut])
            after = segs[cut + 1 :]
            if len(after) >= 2 and after[0].lower() in _CONTENT_KINDS:
                ref, path = after[1], "/".join(after[2:])
        else:
            kind_at = next((i for i, s in enumerate(segs) if i >= 2 and s.lower() in _CONTENT_KINDS), -1)
            if kind_at >= 0 and len(segs) > kind_at + 1:
                repository = "/".join(segs[:kind_at])
                ref, path = segs[kind_at + 1], "/".join(segs[kind_at + 2 :])
            else:
                repository = "/".join(segs[:2])
        repository = "/".join(repository.split("/")[:-1] + [_strip_git(repository.split("/")[-1])])
    else:
        return _UrlInfo()
    start = end = 0
    lines = _LINES_FRAGMENT_RE.match(fragment)
    if lines and path:
        start = int(lines.group(1))
        end = int(lines.group(2)) if lines.group(2) else start
    return _UrlInfo(repository, ref, path, start, end)


def _strip_git(name: str) -> str:
    return name[:-4] if name.lower().endswith(".git") else name


def _qualified_dotted(text: str) -> str:
    """The first dotted name in ``text`` that looks like a module path, or ""."""
    stripped = text.lstrip(" `'\"*:")
    opening = len(text) - len(stripped)
    for m in _DOTTED_RE.finditer(text):
        parts = m.group(1).split(".")
        last = parts[-1].lower()
        if last in _FILE_EXTS or last in _TLDS or parts[0].lower() in _BAD_DOTTED_FIRST:
            continue
        if (
            len(parts) >= 3
            or parts[-1].lstrip("_")[:1].isupper()
            or (m.start() == opening and len(parts[0]) >= 2 and len(parts[1]) >= 2)
        ):
            return m.group(1)
    return ""


def _file_path(text: str, dirs: bool = False) -> str:
    m = _FILE_PATH_RE.search(text) or (_DIR_PATH_RE.search(text) if dirs else None)
    return m.group(1) if m else ""


def _has_proper_noun(text: str) -> bool:
    for m in _WORD_RE.finditer(text):
        word = re.sub(r"['’]s$", "", m.group(0)).rstrip("'’-")
        if len(word) > 1 and any(c.isupper() for c in word) and word.lower() not in _NOT_PROPER:
            return True
    return False


def _strong(clause: str) -> bool:
    """A URL, module path, file path, release or proper noun."""
    if _urls(clause):
        return True
    plain = _without_urls(clause)
    return bool(_qualified_dotted(plain) or _file_path(plain) or _VERSION_RE.search(plain) or _has_proper_noun(plain))


def _pathlike(clause: str) -> bool:
    plain = _without_urls(clause)
    return bool(_urls(clause) or _qualified_dotted(plain) or _file_path(plain))


def _first_clause(rest: str) -> str:
    rest = rest.lstrip(" \t:-–—")
    return _CLAUSE_END_RE.split(rest, maxsplit=1)[0].strip()


def _accepts(kind: str, lead: str, clause: str) -> bool:
    """Whether the text after a phrase names a source (rules in the module docstring)."""
    if not clause:
        return False
    if lead == "generic":
        if kind in ("based_on", "inspired_by"):
            return _pathlike(clause) or (
                _has_proper_noun(_without_urls(clause)) and bool(_SOURCE_NOUN_RE.search(clause))
            )
        return _strong(clause)
    if _strong(clause):
        return True
    if kind in ("copied_from", "taken_from"):
        return False
    if _SOURCE_NOUN_RE.search(clause):
        return True
    if kind in ("based_on", "inspired_by"):
        return False
    if _POSSESSIVE_RE.search(clause):
        return True
    first = _WORD_RE.match(clause.lstrip(" `'\"*"))
    return bool(first) and first.group(0).lower() not in _PROSE_START


def _replacements(text: str) -> tuple[tuple[str, str], ...]:
    start = _REPL_START_RE.search(text)
    if not start:
        return ()
    pairs: list[tuple[str, str]] = []
    pos = start.end()
    while True:
        m = _REPL_PAIR_RE.match(text, pos)
        if not m:
            break
        old, new = m.group(1).strip(_REPL_STRIP), m.group(2).strip(_REPL_STRIP)
        if old and new:
            pairs.append((old, new))
        pos = m.end()
    return tuple(pairs)


def _phrase_kind(m: re.Match[str]) -> str:
    if m.group("based"):
        return "based_on"
    if m.group("inspired"):
        return "inspired_by"
    verb = m.group("verb").lower()
    return {
        "forked": "derived_from",
        "adopted": "adapted_from",
        "vendored": "copied_from",
        "borrowed": "taken_from",
    }.get(verb, f"{verb}_from")


def _phrase_matches(text: str, mid_sentence: bool) -> list[tuple[int, int, str, str]]:
    """(start, end, kind, lead) for each phrase that opens a clause, left to right.

    ``mid_sentence``: the line continues a sentence from the line above, so a lower-case phrase
    at its start is judged as strictly as one after a generic lead-in.
    """
    starts = sorted({0, *(m.end() for m in _CLAUSE_START_RE.finditer(text))})
    found: list[tuple[int, int, str, str]] = []
    last_end = -1
    for s in starts:
        if s < last_end or s >= len(text):
            continue
        m = _KNOWN_RE.match(text, s)
        lead = "known" if m and m.group("lead") else "none"
        if not m:
            m = _GENERIC_RE.match(text, s)
            if not m or any(w.lower() in _GENERIC_STOP for w in m.group("generic").split()):
                continue
            lead = "generic"
        if s == 0 and mid_sentence and text[:1].islower():
            lead = "generic"
        found.append((s, m.end(), _phrase_kind(m), lead))
        last_end = m.end()
    return found


def _starts_marker(text: str) -> bool:
    return bool(
        _SPDX_LICENCE_RE.match(text)
        or _SPDX_COPYRIGHT_RE.match(text)
        or _COPYRIGHT_RE.match(text)
        or _KNOWN_RE.match(text)
    )


# --------------------------------------------------------------------------------------------
# Marker construction
# --------------------------------------------------------------------------------------------


def _phrase_marker(line: int, kind: str, text: str, rest: str) -> Marker:
    """Fill the fields of an accepted phrase marker; ``rest`` includes attached lines."""
    info = _UrlInfo()
    urls = _urls(rest)
    for _, _, url in urls:
        info = _parse_url(url)
        if info.repository:
            break
    repl = _replacements(rest)
    plain = _without_urls(rest)
    cut = _REPL_START_RE.search(plain)
    if cut:
        plain = plain[: cut.start()]
    path = info.path
    symbol = ""
    dotted = _qualified_dotted(plain.lstrip(" \t:-–—"))
    if dotted:
        parts = dotted.split(".")
        upper = next((i for i, part in enumerate(parts) if part.lstrip("_")[:1].isupper()), len(parts))
        symbol = ".".join(parts[upper:])
        if not path and upper > 0:  # "Axis.set_ticks" names a class, not a module
            path = "/".join(parts[:upper]) + ".py"
    if not path:
        path = _file_path(plain, dirs=True)
    return Marker(
        line=line,
        kind=kind,
        text=_one_line(text),
        repository=info.repository,
        ref=info.ref,
        path=path,
        symbol=symbol,
        line_start=info.line_start,
        line_end=info.line_end,
        replacements=repl,
    )


def _next_segment(
    selected: list[list[_Segment]], idx: int, source: str, consumed: set[tuple[int, int]]
) -> _Segment | None:
    """The whole-line segment of the same kind on the next line, if it has text."""
    if idx + 1 >= len(selected):
        return None
    for seg in selected[idx + 1]:
        if seg.source == source and seg.whole_line and (seg.line, seg.col) not in consumed:
            return seg if seg.text else None
    return None


def _mid_sentence(seg: _Segment, selected: list[list[_Segment]]) -> bool:
    """Whether ``seg`` continues a sentence left unfinished on the line above."""
    if not seg.whole_line or seg.line == 0:
        return False
    for prev in selected[seg.line - 1]:
        if prev.source == seg.source and prev.whole_line:
            return bool(prev.text) and prev.text[-1] not in ".!?:;"
    return False


def _detect(seg: _Segment, selected: list[list[_Segment]], consumed: set[tuple[int, int]]) -> list[tuple[int, Marker]]:
    """Markers in one segment as (position, marker); marks attached lines as consumed."""
    text = seg.text
    line = seg.line + 1
    out: list[tuple[int, Marker]] = []
    if not text or not _MAYBE_RE.search(text):
        return out

    spdx = _SPDX_LICENCE_RE.search(text)
    if spdx:
        expr = re.sub(r"(?:\"\"\"|'''|\*/|-->|[\"'.,;])+\s*$", "", spdx.group("expr")).strip()
        out.append((spdx.start(), Marker(line=line, kind="spdx", text=_one_line(text), licence=expr)))
    spdx_copy = _SPDX_COPYRIGHT_RE.search(text)
    if spdx_copy:
        out.append((spdx_copy.start(), Marker(line=line, kind="copyright", text=_one_line(text))))
    elif _is_copyright(text):
        out.append((0, Marker(line=line, kind="copyright", text=_one_line(text))))

    covered: list[tuple[int, int]] = []
    matches = _phrase_matches(text, _mid_sentence(seg, selected))
    for k, (start, end, kind, lead) in enumerate(matches):
        stop = matches[k + 1][0] if k + 1 < len(matches) else len(text)
        rest = text[end:stop]
        attached: list[_Segment] = []
        if k == len(matches) - 1 and not _urls(rest):
            attached = _attachments(seg, rest, selected, consumed)
        full_rest = " ".join([rest, *(a.text for a in attached)])
        own = rest.strip(" \t:-–—")
        clause = _first_clause(full_rest) if own else _first_clause(" ".join(a.text for a in attached))
        if not _accepts(kind, lead, clause):
            continue
        for a in attached:
            consumed.add((a.line, a.col))
        marker_text = " ".join([text[start:stop], *(a.text for a in attached)])
        out.append((start, _phrase_marker(line, kind, marker_text, full_rest)))
        covered.append((start, stop))

    for start, _, url in _urls(text):
        if any(a <= start < b for a, b in covered):
            continue
        info = _parse_url(url)
        if info.repository and info.ref and info.path:
            shown = text if len(" ".join(text.split())) <= _MAX_TEXT else url
            out.append(
                (
                    start,
                    Marker(
                        line=line,
                        kind="url",
                        text=_one_line(shown),
                        repository=info.repository,
                        ref=info.ref,
                        path=info.path,
                        line_start=info.line_start,
                        line_end=info.line_end,
                    ),
                )
            )
    return out


def _attachments(
    seg: _Segment, rest: str, selected: list[list[_Segment]], consumed: set[tuple[int, int]]
) -> list[_Segment]:
    """Following lines that belong to a phrase marker whose own line has no URL."""
    nxt = _next_segment(selected, seg.line, seg.source, consumed)
    if nxt is None:
        return []
    if _urls(nxt.text.split(None, 1)[0]) or _REPL_START_RE.match(nxt.text):
        return [nxt]
    own = rest.strip()
    if (own and not own.endswith(":")) or _starts_marker(nxt.text):
        return []
    # "Adapted from:" with the source on the next line, maybe followed by its URL.
    attached = [nxt]
    if not _urls(nxt.text):
        after = _next_segment(selected, nxt.line, nxt.source, consumed)
        if after is not None and _urls(after.text.split(None, 1)[0]):
            attached.append(after)
    return attached


def _is_copyright(text: str) -> bool:
    if _COPYRIGHT_SIGN_RE.match(text):
        return True
    m = _COPYRIGHT_RE.match(text)
    if not m:
        return False
    rest = m.group("rest")
    return bool(
        m.group("pre")
        or m.group("post")
        or _YEAR_RE.search(rest)
        or _COPYRIGHT_WORD_RE.search(rest)
        or _has_proper_noun(rest)
    )


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


def find_markers(lines: Sequence[str], kinds: Sequence[str] | None = None) -> list[Marker]:
    """Provenance markers in comments and docstrings of a file's physical ``lines``.

    ``kinds`` optionally classifies each line as ``"code"``, ``"comment"``, ``"docstring"`` or
    ``"blank"``; without it a simple quote-aware scan decides. Markers are sorted by line (then
    by position on the line) and the result is deterministic.
    """
    lines = [str(x) for x in lines]
    selected = _select(lines, kinds, _scan(lines))
    consumed: set[tuple[int, int]] = set()
    found: list[tuple[int, int, int, Marker]] = []
    for segs in selected:
        for seg in segs:
            if (seg.line, seg.col) in consumed:
                continue
            for pos, marker in _detect(seg, selected, consumed):
                found.append((seg.line, seg.col, pos, marker))
    found.sort(key=lambda item: item[:3])
    return [item[3] for item in found]


def _mentions(text: str, name: str) -> bool:
    pattern = rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def marker_names_upstream(marker: Marker, names: Iterable[str]) -> bool:
    """Whether ``marker`` refers to an upstream known by one of ``names`` (e.g. ``{"vllm"}``).

    Matches the repository owner or name, the first component of ``path``/``symbol``, or a
    whole-word, case-insensitive mention in the text. SPDX and copyright markers count only
    through their text ("Copyright contributors to the vLLM project").
    """
    wanted = sorted({n.strip().lower() for n in names if n and n.strip()})
    if not wanted:
        return False
    if marker.kind not in ("spdx", "copyright"):
        repo_parts = [p for p in marker.repository.lower().split("/") if p]
        if repo_parts and (repo_parts[0] in wanted or _strip_git(repo_parts[-1]) in wanted):
            return True
        path_first = marker.path.replace("\\", "/").lstrip("/").split("/", 1)[0].lower()
        symbol_first = marker.symbol.split(".", 1)[0].lower()
        if (path_first and path_first in wanted) or (symbol_first and symbol_first in wanted):
            return True
    return any(_mentions(marker.text, name) for name in wanted)
