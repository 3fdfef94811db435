"""Statements of reuse in a project's own description: its package metadata's long description
(``*.dist-info/METADATA``, ``PKG-INFO``) and a README at the release's root (an sdist's, a
checkout's).

sglang 0.5.23's METADATA says "We learned the design and reused code from the following projects:
[Guidance](...), [vLLM](https://github.com/vllm-project/vllm), ..."; ruamel.yaml 0.18.6's says
"`ruamel.yaml` is a derivative of PyYAML". No file carries these statements, yet a licence
reviewer wants them on the report's first page: the project itself says it took code from the
upstream. Such a statement marks no file (it speaks for the whole project) and changes no figure.

:func:`reuse_statements` reads a description once per source, before any upstream is known
(:func:`lineage.index.project.read_project`), and keeps every sentence holding a phrase of reuse:

* a taking verb with the code taken, then "from" or "of": "reused code from", "borrows code from",
  "includes code from", "took the implementation from", "incorporates parts of" (``taken_from``);
* "derived / adapted / ported / copied / forked / extracted from" (their marker kinds: forked is
  ``derived_from``, extracted ``taken_from``);
* "a derivative / fork / port / copy / modified version of" (a fork also "from"), up to two words
  before the noun ("a modern fork of", "a community maintained fork of"), or with no article when the phrase opens
  the sentence, as a Summary line has it ("Jazzband-maintained fork of docopt", docopt-ng 0.9.0)
  (``derived_from``, ``ported_from``, ``copied_from``, ``modified_from``); and "a NAME fork / port /
  derivative", the project named by the one word or Markdown link between the article and the
  noun (yt-dlp 2022.2.4: "A youtube-dl fork with additional features and patches");
* "port / copy NAME's code": the verb, then the project in the possessive and the code taken
  ("Port redis-py's client implementation to aioredis", aioredis 2.0.1's changelog;
  ``ported_from``, ``copied_from``);
* "forked NAME", the project the verb's object ("Joel forked PRAW and began work on Async PRAW",
  asyncpraw 7.8.0), ``derived_from``: only the word or link right after the verb (or after "the
  (original)") may name it;
* "this project (package, library, module) merges (both)" other projects, ``derived_from``
  (jsonpath-ng 1.7.0: "This packages merges both `jsonpath-rw`_ and `jsonpath-rw-ext`_"); only
  with the project itself as the subject;
* "forked off (of)", and "based on" that says it is a fork: "based (forked) on" (niquests 3.11.0:
  "Niquests is a highly improved HTTP client that is based (forked) on Requests"), ``derived_from``;
* "the new (official) home of", code that moved here from another project (pydantic-settings
  2.6.1: "this is the new official home of Pydantic's `BaseSettings`"), ``taken_from``;
* "was originally (initially, formerly, previously, once) (developed as) (a) part of", "used to be
  (a) part of": code split out of another project (lxml-html-clean 0.4.1: "This project was
  initially a part of [lxml](https://github.com/lxml/lxml)"), ``taken_from``; not "is part of",
  which says what the project belongs to;
* "has been / was / is replaced (superseded) by this project (package, library)", which names the
  project it took over before the phrase, not after (pyproject-hooks 1.2.0: "The ``pep517``
  project has been replaced by this project"), ``derived_from``;
* "formerly / previously called (named, known as)", "used to be called (named, known as)",
  "renamed from": the project's earlier name (pycodestyle 2.12.1: "pycodestyle (formerly called
  pep8)", "This package used to be called ``pep8`` but was renamed to ``pycodestyle``"),
  ``renamed_from`` (:data:`RENAMED_FROM`); only the name right after the phrase, up to the end
  of its clause or a "but", is the earlier one (:func:`statements_naming`), and two releases
  one of which says the other's distribution name is its own earlier one are releases of one
  project (:func:`lineage.index.project.one_project`).

Not "based on" nor "built on (top of)": in a description they say what the project depends on
("SQLModel is based on Pydantic and SQLAlchemy", sqlmodel 0.0.22; "Built on top of the 🤗
Transformers ecosystem", trl 0.12.1), not what it took.

A metadata file's headers other than ``Summary`` and ``Description`` are not read: a ``License``
field's text says "a derivative work that is based on" of any work, and libcst's lists the files
"derived from the standard library". :func:`statements_naming` decides, per comparison, which
statements name an upstream: one of its names (its distribution name, repositories and label,
:meth:`lineage.index.project.ProjectInfo.names` without authors, whom many projects share: "the
HuggingFace team"; not its package names, which may be common words: PyYAML's ``yaml``) after the
phrase in the same sentence: a name as a whole project name in the text outside URLs
(:func:`lineage.markers.naming.mentions`: "vllm-ascend" does not name vLLM; a link's label does),
an ``owner/name`` as a repository URL's (typer's badge link into ``fastapi/typer`` does not name
FastAPI). "Unlike vLLM, it was adapted from FlashInfer" names FlashInfer only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from lineage.markers.naming import mentions
from lineage.markers.urls import find_urls, parse_url, without_urls

# "most" / "many" / "large": aiomysql 0.2.0's "It depends on and reuses most parts of PyMySQL_"
_TAKEN = (r"(?:re-?used?|reuses|borrow(?:ed|s)?|t(?:ook|akes?)|includ(?:es?|ed)|contain(?:s|ed)?|"
          r"incorporat(?:es?|ed)|uses?|used)\s+(?:(?:some|the|its|their|parts\s+of\s+the|most|many|large)\s+)?"
          r"(?:code|implementation|source(?:\s+code)?|parts|files|modules)\s+(?:from|of)")
_PHRASE_RE = re.compile(
    rf"\b(?:(?P<taken>{_TAKEN})|(?P<verb>derived|adapted|ported|copied|forked|extracted)\s+from"
    r"|(?P<fork>forked\s+off(?:\s+of)?|based\s+\(forked\)\s+on)"
    # a project that says it merges other projects holds their code: "This packages merges both
    # `jsonpath-rw`_ and `jsonpath-rw-ext`_" (jsonpath-ng 1.7.0); only with the project itself
    # as the subject ("this package"): "it merges dictionaries from a widgetlib config" is no reuse
    # and what follows the verb is a name, not a noun phrase: "This module merges Django settings
    # from the environment" names what it merges, not a project it holds
    r"|(?P<merged>this\s+(?:project|package|library|module|fork)s?\s+(?:(?:has\s+)?merged|merges)(?:\s+both)?"
    r"(?=\s+(?:\[[^\]\n]{1,80}\]\([^)\s]{1,300}\)|`[^`\n]{1,80}`_?|[\w.+-]{2,60}(?=\s+and\s|\s+(?:back|into)\b|[.,;:!?)]|$))))"
    r"|(?P<home>new\s+(?:official\s+)?home\s+of)"
    # code split out of another project: "This project was initially a part of [lxml](...)"
    # (lxml-html-clean 0.4.1); past only, with the adverb: "is part of Upcore" says membership
    r"|(?P<part>(?:was|were)\s+(?:initially|originally|formerly|previously|once)\s+"
    r"(?:(?:developed|written|created|released)\s+as\s+)?(?:an?\s+)?part\s+of"
    r"|used\s+to\s+be\s+(?:an?\s+)?part\s+of)"
    r"|(?P<replaced>(?:has\s+been|was|is)\s+(?:replaced|superseded)\s+by\s+this\s+(?:project|package|library))"
    # up to two words before the noun: "a modern fork of SocksiPy" (PySocks 1.7.1), "a community
    # maintained fork of the original PDFMiner" (pdfminer.six); a sentence may open with the noun
    # phrase and no article, as a Summary line does: "Jazzband-maintained fork of docopt, the
    # humane command line arguments parser." (docopt-ng 0.9.0), "Fork of PDFMiner using six"; not
    # after another determiner: "The default port of the server is 8080"
    # "is" with no article: aiomysql 0.2.0's "Internally **aiomysql** is copy of PyMySQL"
    r"|(?:an?\s+|is\s+|^(?!(?:the|this|that|these|those|its|our|their|your|each|every|any|no)\s))"
    # a fork "from" as "of": Flask-Security-Too 5.5.2's "was a fork from the 3.0.0 version of the
    # Original" (not a copy: "get a copy from Github", imbalanced-learn's install notes)
    r"(?:[a-z][\w-]*\s+){0,2}?(?P<noun>derivative|fork|port|copy|modified\s+version)(?:\s+of|(?<=fork)\s+from)"
    # an object the library makes is no project: "If you want a copy of a PrettyTable object with
    # just a subset of the rows" (PTable 0.9.2's PKG-INFO) names PrettyTable's objects, not its code
    r"(?!\s+(?:an?|the)\s+(?:[\w.+-]+\s+){1,2}?(?:object|instance)s?\b)"
    # the project named before the noun: "A youtube-dl fork with additional features", "yt-dlp is
    # a [youtube-dl](https://github.com/ytdl-org/youtube-dl) fork based on ..." (yt-dlp 2022.2.4);
    # the name is the one word or link between the article and the noun ("a general derivative-free
    # solver", cobyqa 1.1.1, is none)
    r"|an?\s+(?P<named>\[[^\]\n]{1,80}\]\([^)\s]{1,300}\)|[\w.+-]{2,60})\s+(?P<noun_after>fork|port|derivative)(?![\w-])"
    # "Port redis-py's client implementation to aioredis" (aioredis 2.0.1's changelog): the verb,
    # then the project in the possessive and the code taken; the phrase ends before the name
    r"|(?P<possessive>port(?:ed|s)?|cop(?:y|ied|ies))\s+(?=(?P<owner>[\w.+-]+)['\u2019]s\s+(?:[\w-]+\s+)?"
    r"(?:code|implementation|source|modules|files)\b)"
    # "Joel forked PRAW and began work on Async PRAW" (asyncpraw 7.8.0): the verb with the
    # project as its object; only the word or link right after it (or after "the (original)")
    # names it: "the worker is forked and uses requests" names none; a preposition is no object
    # ("pgen2 (... forked into parso)", libcst 1.5's credits: pgen2 was forked, not parso)
    r"|forked(?=\s+(?!(?:into|in|on|to|by|as|at|and|or|with|for|off|from)\b)(?:the\s+(?:original\s+)?)?(?P<object>\[[^\]\n]{1,80}\]\([^)\s]{1,300}\)|[\w.+-]{2,60}))"
    r"|(?P<renamed>(?:formerly|previously|used\s+to\s+be)\s+(?:called|named|known\s+as)|renamed\s+from))\b",
    re.IGNORECASE)
_VERB_KINDS = {"derived": "derived_from", "adapted": "adapted_from", "ported": "ported_from",
               "copied": "copied_from", "forked": "derived_from", "extracted": "taken_from"}
_NOUN_KINDS = {"derivative": "derived_from", "fork": "derived_from", "port": "ported_from",
               "copy": "copied_from", "modified version": "modified_from"}
# A project's own earlier name: not reuse of another's code, but the same project under another name.
RENAMED_FROM = "renamed_from"
# Where the earlier name after a renaming phrase ends: "``pep8`` but was renamed to ``pycodestyle``"
# names the new name too, which is no earlier one.
_RENAMED_END_RE = re.compile(r"[,;:()]|\s[-–—]\s|\s(?:but|and|which|now|to)\s", re.IGNORECASE)
# A sentence ends at . ! or ? followed by white space; a URL's dots are followed by more of it.
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")
_HEADER_RE = re.compile(r"^([A-Za-z0-9-]+):")
_READ_HEADERS = frozenset({"summary", "description"})
_HEADING_RE = re.compile(r"\s{0,3}#{1,6}\s")
_OPENS_RE = re.compile(r"\s{0,3}(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s)")
_BREAK_RE = re.compile(r"\s*([=\-~^\"'`#*+_])\1{2,}\s*$")  # an RST underline or a rule
# An reStructuredText reference names its target with a trailing underscore: "reuses most parts of
# PyMySQL_" (aiomysql 0.2.0) names PyMySQL; "_" would make it part of a longer name (naming.mentions).
_RST_REFERENCE_RE = re.compile(r"(\w)__?(?!\w)")
_MAX_TEXT = 400  # characters of a sentence kept (a statement is quoted, not the whole README)


@dataclass(frozen=True, order=True)
class ReuseStatement:
    """One sentence of a project's description that states reuse."""

    path: str  # the file it is in ("sglang-0.5.23.dist-info/METADATA", "README.md")
    line: int  # the line (1-based) the phrase is on
    kind: str  # a marker kind: taken_from, derived_from, adapted_from, ported_from, ...
    text: str  # the sentence, white space collapsed, at most _MAX_TEXT characters
    # where in ``text`` the phrase ends: a name before it is not what was reused; for a phrase
    # that names what was reused before it ("X has been replaced by this project"), where it starts
    after: int
    named_before: bool = False  # the reused project is named before the phrase (``after``)
    # where the reused project's name ends in ``text`` (0: at the sentence's end): "Port X's code
    # to Y" names X, not Y
    until: int = 0


def reuse_statements(path: str, text: str, metadata: bool = False) -> tuple[ReuseStatement, ...]:
    """The statements of reuse in one description file (module docstring); ``metadata``: a core
    metadata file, whose headers other than Summary and Description are skipped."""
    found = []
    for first, lines in _paragraphs(text.splitlines(), metadata):
        joined, starts = "", []
        for line in lines:
            starts.append(len(joined) + (1 if joined else 0))
            joined = f"{joined} {line.strip()}" if joined else line.strip()
        position = 0
        for sentence in _SENTENCE_END_RE.split(joined):
            start = joined.index(sentence, position)
            position = start + len(sentence)
            m = _PHRASE_RE.search(sentence)
            if m is None:
                continue
            line = first + max(k for k, s in enumerate(starts) if s <= start + m.start())
            collapsed = " ".join(sentence.split())
            before = bool(m.group("replaced"))
            after = len(" ".join(sentence[: m.start() if before else m.end()].split()))
            named_end = m.end("owner") if m.group("owner") else m.end("object") if m.group("object") else 0
            until = len(" ".join(sentence[:named_end].split())) if named_end else 0
            if m.group("named"):  # the name between the article and the noun, not after the phrase
                after = len(" ".join(sentence[: m.start("named")].split())) + 1
                until = len(" ".join(sentence[: m.end("named")].split()))
            found.append(ReuseStatement(path, line, _kind(m), collapsed[:_MAX_TEXT], min(after, _MAX_TEXT), before,
                                        min(until, _MAX_TEXT)))
    return tuple(sorted(set(found)))


def _kind(m: re.Match[str]) -> str:
    if m.group("renamed"):
        return RENAMED_FROM
    if m.group("taken") or m.group("home") or m.group("part"):
        return "taken_from"
    if m.group("possessive"):
        return "ported_from" if m.group("possessive").lower().startswith("port") else "copied_from"
    if m.group("verb"):
        return _VERB_KINDS[m.group("verb").lower()]
    if m.group("fork") or m.group("replaced") or m.group("object") or m.group("merged"):
        return "derived_from"
    return _NOUN_KINDS[" ".join((m.group("noun") or m.group("noun_after")).lower().split())]


def _paragraphs(lines: list[str], metadata: bool) -> Iterator[tuple[int, list[str]]]:
    """(first line number, lines) of each paragraph read: blank lines separate them; in a
    metadata file, the headers before the first empty line are read only when they are the
    Summary or Description (with the Description's continuation lines, blank ones included)."""
    block: list[str] = []
    first = 0
    in_headers, reading = metadata, not metadata
    for number, line in enumerate(lines, 1):
        if in_headers:
            if not line.rstrip("\r"):  # an empty line (not one of spaces) ends the headers
                in_headers, reading, line = False, True, ""
            elif not line[:1].isspace():
                header = _HEADER_RE.match(line)  # a new field: its own paragraph
                reading = header is not None and header.group(1).lower() in _READ_HEADERS
                if block:
                    yield first, block
                block = []
                line = line[header.end():] if reading and header is not None else ""
            else:
                line = line.strip().removeprefix("|") if reading else ""
            if not reading:
                if block:
                    yield first, block
                block = []
                continue
        if not line.strip() or _BREAK_RE.match(line):
            if block:
                yield first, block
            block = []
            continue
        if block and _OPENS_RE.match(line):  # a heading or a list item opens a paragraph
            yield first, block
            block = []
        if not block:
            first = number
        block.append(line)
        if _HEADING_RE.match(line):  # a Markdown heading is a paragraph of its own
            yield first, block
            block = []
    if block:
        yield first, block


def statements_naming(statements: Iterable[ReuseStatement], names: Iterable[str]) -> list[ReuseStatement]:
    """The statements that name a project known by one of ``names`` (lower case) after their
    phrase (module docstring)."""
    wanted = sorted({n for n in names if n})
    slugs = {n for n in wanted if "/" in n}
    found = []
    for s in statements:
        rest = s.text[:s.after] if s.named_before else s.text[s.after:s.until or None]
        if s.kind == RENAMED_FROM:
            rest = _RENAMED_END_RE.split(rest, maxsplit=1)[0]
        plain = _RST_REFERENCE_RE.sub(r"\1", without_urls(rest))
        repositories = {parse_url(url).repository.lower() for _, _, url in find_urls(rest)}
        if any(mentions(plain, n) for n in wanted if n not in slugs) or slugs & repositories:
            found.append(s)
    return found
