"""Markers in one segment of text: phrase, URL and attribution markers, and attached lines."""

from __future__ import annotations

import re
from dataclasses import replace

from lineage.markers.attribution import (
    ATTRIBUTION_KINDS,
    COPYRIGHT_RE,
    HOLDER_LINES,
    SPDX_COPYRIGHT_RE,
    SPDX_LICENCE_RE,
    credited_copyright,
    field_statement,
    is_copyright,
    may_name_holder,
    names_no_holder,
    notice_holder,
)
from lineage.markers.naming import project_from_text, repository_project, stated_release
from lineage.markers.pointers import licence_pointer
from lineage.markers.record import MAX_TEXT, Marker, one_line
from lineage.markers.text import Segment
from lineage.markers.urls import (
    UrlInfo,
    commit_page,
    find_urls,
    is_document,
    is_folder_link,
    parse_url,
    without_urls,
)
from lineage.markers.vocabulary import (
    BARE_FROM,
    KNOWN_RE,
    REPL_START_RE,
    REPORTED_KIND,
    SPLIT_HEAD_RE,
    SPLIT_TAIL_RE,
    accepts,
    dangling,
    file_path,
    first_clause,
    has_proper_noun,
    phrase_matches,
    qualified_dotted,
    replacements,
)


def _starts_marker(text: str) -> bool:
    return bool(
        SPDX_LICENCE_RE.match(text)
        or SPDX_COPYRIGHT_RE.match(text)
        or COPYRIGHT_RE.match(text)
        or notice_holder(text)
        or KNOWN_RE.match(text)
    )


_REFERENCE_URL_RE = re.compile(r"^(?:https?://)?(?:www\.)?git(?:hub|lab)\.com/(?:[^/\s]+/)+(?:-/)?(?:issues|discussions)/\d",
                               re.IGNORECASE)


# A sentence that calls the code behind a link faulty cites it as evidence of a bug, not as the
# source of the code around it ("__required_keys__ ... however it is buggy (https://github.com/
# python/typing_extensions/blob/ac52ac5/src/typing_extensions.py#L657-L666).", pydantic 2.9's
# _generate_schema.py, in a docstring of code pydantic wrote).
_FAULT_RE = re.compile(r"\b(?:buggy|bugs?|broken)\b[^.!?]*$", re.IGNORECASE)


def _cited_for_a_fault(seg: Segment, start: int, selected: list[list[Segment]]) -> bool:
    """Whether the sentence leading to the URL at ``start`` of ``seg`` calls its target faulty.

    A URL opening its line continues the sentence of the line above when that one is unfinished.
    """
    before = seg.text[:start]
    if not before.strip(" \t(["):
        if not _mid_sentence(seg, selected):
            return False
        prev = next(p for p in selected[seg.line - 1] if p.source == seg.source and p.whole_line)
        before = f"{prev.text} {before}"
    return bool(_FAULT_RE.search(before))


# A URL cited as where something *similar* is names a comparison, not the code's source:
# huggingface-hub 0.26.2's ``dump_environment_info`` says "Similar helper exist in:" above a list
# of datasets', diffusers' and transformers' ``commands/env.py``, and was read as taking its code
# from transformers. Read in the sentence leading to the URL, or in the lead line (ending in ":")
# of the list the URL is an item of (the lines between it and the lead each list a URL too;
# segments hold no list bullets).
_SIMILAR_RE = re.compile(r"\bsimilar\b", re.IGNORECASE)


def _cited_as_similar(seg: Segment, start: int, selected: list[list[Segment]]) -> bool:
    """Whether the URL at ``start`` of ``seg`` is cited as where something similar is (above)."""
    if _SIMILAR_RE.search(re.split(r"[.!?]\s", seg.text[:start])[-1]):
        return True
    if not seg.whole_line:
        return False
    for row in range(seg.line - 1, -1, -1):  # up past the list's other items to its lead line
        here = [p for p in selected[row] if p.source == seg.source and p.whole_line]
        if not here or not here[0].text:
            return False
        if not find_urls(here[0].text):
            return here[0].text.endswith(":") and bool(_SIMILAR_RE.search(here[0].text))
    return False


# A URL cited as what a workaround waits for, in a note to remove it once that changes, names the
# condition, not the code's source: optimum-habana 1.14.1's ``trainer_seq2seq.py`` ("TODO: remove
# this hack when the legacy code ... is" / "removed in <transformers' generation/utils.py>") was
# marked as taken from that file, its ``integrations/deepspeed.py`` as from HabanaAI's
# ``run_pretraining.py`` ("To remove when it is solved, see <URL>"). Only the instruction "remove
# ... when / once / after": "Removed ... when porting <URL>" may tell how the code was taken, and a
# bare "TODO: ... <URL>" may cite the code it follows ("may need to complete this ...: <URL>").
# Read in the sentence leading to the URL, from the lines above while they leave it unfinished.
_REMOVE_WHEN_RE = re.compile(r"\bremove\b[^.!?]*\b(?:when|once|after)\b", re.IGNORECASE)


def _cited_as_removal_condition(seg: Segment, start: int, selected: list[list[Segment]]) -> bool:
    """Whether the sentence leading to the URL at ``start`` of ``seg`` says to remove something
    when (once, after) what it cites changes."""
    before = seg.text[:start]
    here = seg
    while _mid_sentence(here, selected):
        here = next(p for p in selected[here.line - 1] if p.source == here.source and p.whole_line)
        before = f"{here.text} {before}"
    return bool(_REMOVE_WHEN_RE.search(re.split(r"[.!?]\s", before)[-1]))


def phrase_marker(line: int, kind: str, text: str, rest: str) -> Marker:
    """Fill the fields of an accepted phrase marker; ``rest`` includes attached lines."""
    info = UrlInfo()
    urls = find_urls(rest)
    for _, _, url in urls:
        # a link to an issue or a discussion is a reference, not the code's source ("Copied from
        # xarray.Dataset so as not to call type(self) ... (see https://github.com/xarray-contrib/
        # datatree/issues/188)", xarray's datatree.py, named datatree its project)
        if _REFERENCE_URL_RE.search(url):
            continue
        info = parse_url(url)
        if info.repository:
            break
    repl = replacements(rest)
    plain = without_urls(rest)
    cut = REPL_START_RE.search(plain)
    if cut:
        plain = plain[: cut.start()]
    path = info.path
    symbol = ""
    project = repository_project(info.repository)
    dotted = qualified_dotted(plain.lstrip(" \t:-–—"))
    if dotted:
        parts = dotted.split(".")
        upper = next((i for i, part in enumerate(parts) if part.lstrip("_")[:1].isupper()), len(parts))
        symbol = ".".join(parts[upper:])
        if not path and upper > 0:  # "Axis.set_ticks" names a class, not a module
            path = "/".join(parts[:upper]) + ".py"
            project = project or parts[0]
    if not path:
        path = file_path(plain, dirs=True)
    project = project or project_from_text(plain) or (path.split("/", 1)[0] if "/" in path else "")
    return Marker(
        line=line,
        kind=kind,
        text=one_line(text),
        repository=info.repository,
        ref=info.ref or stated_release(plain, project),  # a URL's tag, else "from py 1.8.1"'s release
        path=path,
        symbol=symbol,
        line_start=info.line_start,
        line_end=info.line_end,
        replacements=repl,
        project=project,
    )


def _next_segment(
    selected: list[list[Segment]], idx: int, source: str, consumed: set[tuple[int, int]]
) -> Segment | None:
    """The whole-line segment of the same kind on the next line, if it has text."""
    if idx + 1 >= len(selected):
        return None
    for seg in selected[idx + 1]:
        if seg.source == source and seg.whole_line and (seg.line, seg.col) not in consumed:
            return seg if seg.text else None
    return None


# A docstring's parameter entry: Google style with a type, "bert ([`LDMBertModel`]):", or numpy
# style, "bert : LDMBertModel" (not "Note:", after which a credit may follow).
_PARAMETER_ENTRY_RE = re.compile(r"^\*{0,2}[A-Za-z_]\w*\s*(?:\([^)]*\)\s*:|\s:\s+\S)")
# Phrases that, in a parameter's description, say what the argument is, not where code came from
_DESCRIBING_KINDS = frozenset({"based_on", "inspired_by"})


def _describes_a_parameter(seg: Segment, selected: list[list[Segment]]) -> bool:
    """Whether docstring segment ``seg`` belongs to a parameter's description: a parameter entry
    opens its paragraph (the docstring lines above it, up to a blank one). diffusers 0.31.0's
    "bert ([`LDMBertModel`]):" / "Text-encoder model based on [`~transformers.BERT`]." describes
    the argument; it marked four pipelines as transformers' code, three of them holding none."""
    if seg.source != "string" or not seg.whole_line:
        return False
    for row in range(seg.line, -1, -1):  # its own line, then up to the paragraph's first
        here = [p for p in selected[row] if p.source == seg.source and p.whole_line]
        if not here or not here[0].text:
            return False
        if _PARAMETER_ENTRY_RE.match(here[0].text):
            return True
    return False


def _mid_sentence(seg: Segment, selected: list[list[Segment]]) -> bool:
    """Whether ``seg`` continues a sentence left unfinished on the line above."""
    if not seg.whole_line or seg.line == 0:
        return False
    for prev in selected[seg.line - 1]:
        if prev.source == seg.source and prev.whole_line:
            return bool(prev.text) and prev.text[-1] not in ".!?:;"
    return False


# A line that is nothing but the rest of a repository path: no spaces, no scheme, path parts,
# maybe a ``#L`` fragment and the closing marks of reST or Markdown link syntax.
_URL_TAIL_RE = re.compile(r"[\w.-]+(?:/[\w.-]*)*(?:#L\d+(?:-L?\d+)?)?[>`_)\].,;:]*")


def _wraps_url(text: str, following: str) -> bool:
    """Whether ``text`` ends with a code host's URL into a repository's files (``/blob/``,
    ``/tree/``, ...) cut at a ``/`` and ``following`` is only the rest of its path: a docstring
    wraps a long URL there (geopandas 1.0.1's ``sjoin.py``: ".../pandas/blob/" over
    "a0779adb.../pandas/core/reshape/merge.py#L2300-L2370"; sglang 0.5.23's ``phi4mm_utils.py``:
    ".../transformers/blob/v4.30.0/src/" over "transformers/models/t5/modeling_t5.py#L435"). The
    two read as one URL, else the marker kept no path or a folder's."""
    urls = find_urls(text)
    if not urls or urls[-1][1] != len(text.rstrip()) or not urls[-1][2].endswith("/"):
        return False
    tail = following.strip()
    if "://" in tail or _URL_TAIL_RE.fullmatch(tail) is None:
        return False
    url = urls[-1][2]
    return bool(parse_url(url).repository and parse_url(url + tail).path)


# A line that opens with the label "Source:" (or "Sources:", "Origin:") before a URL: the label
# says where the code came from, so a commit page after it names that repository at that commit
# (cached-property 1.3.0's docstring: "Source: https://github.com/bottlepy/bottle/commit/fa7733e...").
# Without the label a commit page is a reference ("see <commit> for the fix"), not a source.
_SOURCE_LABEL_RE = re.compile(r"\s*(?:sources?|origin)\s*:\s*", re.IGNORECASE)


def detect(seg: Segment, selected: list[list[Segment]], consumed: set[tuple[int, int]]) -> list[tuple[int, Marker]]:
    """Markers in one segment as (position, marker); marks attached lines as consumed.

    A phrase cut by a line break ("Adapted" / "from ...") is read from both lines joined, when
    that gives a phrase marker starting on this line; the next line is then consumed.
    """
    nxt = _next_segment(selected, seg.line, seg.source, consumed)
    if nxt is not None and _wraps_url(seg.text, nxt.text):
        consumed.add((nxt.line, nxt.col))
        seg = replace(seg, text=seg.text + nxt.text.strip())
        nxt = _next_segment(selected, nxt.line, seg.source, consumed)
    if nxt is not None and SPLIT_HEAD_RE.search(seg.text) and SPLIT_TAIL_RE.match(nxt.text):
        trial = consumed | {(nxt.line, nxt.col)}
        joined = replace(seg, text=f"{seg.text} {nxt.text}")
        out = _detect(joined, selected, trial, nxt.line)
        if any(pos < len(seg.text) and m.kind not in ATTRIBUTION_KINDS and m.kind != "url" for pos, m in out):
            consumed |= trial
            return out
    return _detect(seg, selected, consumed, seg.line)


def _detect(
    seg: Segment, selected: list[list[Segment]], consumed: set[tuple[int, int]], last: int
) -> list[tuple[int, Marker]]:
    """Markers in ``seg``, whose text may run on to line ``last`` (0-based) of ``selected``."""
    text = seg.text
    line = seg.line + 1
    out: list[tuple[int, Marker]] = []
    if not text:
        return out

    spdx = SPDX_LICENCE_RE.search(text)
    if spdx:
        expr = re.sub(r"(?:\"\"\"|'''|\*/|-->|[\"'.,;])+\s*$", "", spdx.group("expr")).strip()
        out.append((spdx.start(), Marker(line=line, kind="spdx", text=one_line(text), licence=expr)))
    spdx_copy = SPDX_COPYRIGHT_RE.search(text)
    if spdx_copy:
        out.append((spdx_copy.start(), Marker(line=line, kind="copyright", text=one_line(text))))
    elif is_copyright(text):
        held = _holder_lines(seg, selected, consumed, last) if names_no_holder(text) else []
        out.append((0, Marker(line=line, kind="copyright", text=one_line(field_statement(" ".join([text, *held]))))))
    elif credited := credited_copyright(text):
        out.append((text.index(credited), Marker(line=line, kind="copyright", text=one_line(credited))))

    covered: list[tuple[int, int]] = []
    matches = phrase_matches(text, _mid_sentence(seg, selected))
    for k, (start, end, kind, lead) in enumerate(matches):
        stop = matches[k + 1][0] if k + 1 < len(matches) else len(text)
        rest = text[end:stop]
        attached: list[Segment] = []
        if k == len(matches) - 1 and _FOLLOWING_SOURCES_RE.match(rest.strip()):
            head = text[start:end].strip()
            for item_line, item in _bulleted_sources(seg, selected, consumed, last):
                if accepts(kind, lead, first_clause(item)):
                    out.append((len(text), phrase_marker(item_line + 1, REPORTED_KIND.get(kind, kind),
                                                         f"{head} the following sources: … {item}", item)))
            continue
        if k == len(matches) - 1 and not find_urls(rest):
            attached = _attachments(seg, rest, selected, consumed, last)
        full_rest = " ".join([rest, *(a.text for a in attached)])
        own = rest.strip(" \t:-–—")
        clause = first_clause(full_rest) if own else first_clause(" ".join(a.text for a in attached))
        if not accepts(kind, lead, clause) and not (attached and lead != "any" and _points_at_a_file(attached[0].text)):
            continue
        if kind in _DESCRIBING_KINDS and _describes_a_parameter(seg, selected):
            continue
        if kind == BARE_FROM and not seg.whole_line:
            continue  # a trailing "# from numpy 2.0" says since when, not where from
        for a in attached:
            consumed.add((a.line, a.col))
        marker_text = " ".join([text[start:stop], *(a.text for a in attached)])
        kind = REPORTED_KIND.get(kind, kind)
        marker = phrase_marker(line, kind, marker_text, full_rest)
        if k == len(matches) - 1:
            marker = _with_stated_commit(marker, seg, selected, consumed, attached[-1].line if attached else last,
                                         attached[-1].text if attached else text)
        out.append((start, marker))
        covered.append((start, stop))
        if k == len(matches) - 1:
            head = text[start:end].strip()
            for listed in _listed_sources(seg, selected, consumed, attached[-1].line if attached else last):
                out.append((len(text), phrase_marker(listed.line + 1, kind, f"{head} … {listed.text}", listed.text)))

    pointer = licence_pointer(text) if not matches else None  # a phrase's own line says it better
    if pointer is not None:
        start, project, repository = pointer
        out.append((start, Marker(line=line, kind="licence_pointer", text=one_line(text[start:]),
                                  repository=repository, project=project)))
        covered.append((start, len(text)))
    for start, _, url in find_urls(text):
        if any(a <= start < b for a, b in covered):
            continue
        info = parse_url(url)
        if not info.path and _SOURCE_LABEL_RE.fullmatch(text[:start]) and (sha := commit_page(url)):
            info = replace(info, ref=sha)  # "Source: <commit page>" names the repository at that commit
        elif not (info.repository and info.ref and info.path and not is_document(info.path)
                  and not is_folder_link(url)):
            continue
        if (_cited_for_a_fault(seg, start, selected) or _cited_as_similar(seg, start, selected)
                or _cited_as_removal_condition(seg, start, selected)):
            continue
        shown = text if len(" ".join(text.split())) <= MAX_TEXT else url
        out.append(
            (
                start,
                Marker(
                    line=line,
                    kind="url",
                    text=one_line(shown),
                    repository=info.repository,
                    ref=info.ref,
                    path=info.path,
                    line_start=info.line_start,
                    line_end=info.line_end,
                    project=repository_project(info.repository),
                ),
            )
        )
    return out


# A line that only states the commit its source was taken at, maybe as a list item and with a
# date after it: "- commit ba07d8287b4554754ac7178d177033ea3f75d489 (09/09/2021)".
_COMMIT_LINE_RE = re.compile(r"^(?:[-*•]\s+)?(?:at\s+)?commit:?\s+(?P<sha>[0-9a-f]{7,40})"
                             r"(?:\s+\(?[\w/.,: -]*\)?)?[.,;]?$", re.IGNORECASE)


# A sentence going on after its URL to say at which commit: "Stolen from <URL> at" / "<sha>"
# (pydantic 1.10's datetime_parse.py, its URL into django's main branch), or "<URL> at commit <sha>".
_AT_COMMIT_RE = re.compile(r"^\s+at(?:\s+commit)?:?(?:\s+(?P<sha>(?=[a-f]*\d)[0-9a-f]{7,40}))?[.,;]?$",
                           re.IGNORECASE)
_BARE_COMMIT_RE = re.compile(r"^(?P<sha>(?=[a-f]*\d)[0-9a-f]{7,40})[.,;]?$", re.IGNORECASE)


def _with_stated_commit(marker: Marker, seg: Segment, selected: list[list[Segment]], consumed: set[tuple[int, int]],
                        last: int, tail: str) -> Marker:
    """``marker`` with the commit its text states as its ref. When its URL names a repository but
    no ref, the line right below it (after line ``last``) may state it: seaborn 0.13.2's
    ``external/version.py`` says "Vendored from:" / "- https://github.com/pypa/packaging/" /
    "- commit ba07d82... (09/09/2021)", and files.csv's ``marker_ref`` was empty. When its last
    line ``tail`` goes on after the URL with "at <sha>" (or "at" and the sha right below), that
    commit is the ref, before the branch the URL names: pydantic 1.10.13's ``datetime_parse.py``,
    "Stolen from https://raw.githubusercontent.com/django/django/main/django/utils/dateparse.py at"
    / "9718fa2e...", read ``main``. A line taken is consumed here, as an attached line is."""
    if not marker.repository:
        return marker
    urls = find_urls(tail)
    at = _AT_COMMIT_RE.match(tail[urls[-1][1]:]) if urls else None
    if marker.ref and at is None:
        return marker
    if at is not None and at.group("sha"):
        return replace(marker, ref=at.group("sha"))
    nxt = _next_segment(selected, last, seg.source, consumed)
    below = nxt.text.strip() if nxt is not None else ""
    m = (_BARE_COMMIT_RE.match(below) if at is not None else None) or _COMMIT_LINE_RE.match(below)
    if nxt is None or m is None:  # both: the type checker learns nxt is set
        return marker
    consumed.add((nxt.line, nxt.col))
    return replace(marker, ref=m.group("sha"))


# A line that only lists one more source of the phrase above it: a URL, maybe after "and", "or",
# "&" or a list bullet, maybe with a closing punctuation mark.
_LISTED_SOURCE_RE = re.compile(r"^(?:(?:and|or|&|\+|[-*•])\s+)?(?P<url>\S+?)[.,;]?$", re.IGNORECASE)


def _listed_sources(seg: Segment, selected: list[list[Segment]], consumed: set[tuple[int, int]], last: int
                    ) -> list[Segment]:
    """The comment lines right below a phrase marker (after line ``last``) that each list one
    more of its sources, a URL to a repository's file ("# Adapted from" / "# https://github.com/
    THUDM/ChatGLM2-6B" / "# https://github.com/vllm-project/vllm/blob/main/.../chatglm.py", or
    "# Adapted from https://.../causal_conv1d_interface.py" / "# and https://github.com/
    vllm-project/..."): the phrase speaks for each, so each is a marker of the phrase's kind, not
    a bare URL (sglang 0.5.23's chatglm.py, dbrx.py and causal_conv1d_triton.py). Consumed here."""
    listed: list[Segment] = []
    at = last
    while (nxt := _next_segment(selected, at, seg.source, consumed)) is not None:
        m = _LISTED_SOURCE_RE.match(nxt.text.strip())
        if m is None or not _points_at_a_file(m.group("url")):
            break
        consumed.add((nxt.line, nxt.col))
        listed.append(nxt)
        at = nxt.line
    return listed


# A phrase whose source is a list below it: "come from the following sources:" (future 1.0.0's
# utils/__init__.py lists "* Jinja2 ...", "* six.py by Benjamin Peterson", "* Django").
_FOLLOWING_SOURCES_RE = re.compile(r"^(?:the\s+)?following\s+(?:sources|projects|places|libraries|packages)\s*:$",
                                   re.IGNORECASE)


def _bulleted_sources(seg: Segment, selected: list[list[Segment]], consumed: set[tuple[int, int]], last: int
                      ) -> list[tuple[int, str]]:
    """The items of the list right below a "the following sources:" phrase (after line ``last``,
    past one blank line, up to the next blank line), each with its 0-based line and its text: each
    item is one of the phrase's sources. The reader has cleaned off the bullets, so an item is a
    line, run on while a parenthesis it opened is open ("Jinja2 (BSD licensed: see" / its URL).
    Consumed here."""
    items: list[tuple[int, str]] = []
    at = last
    nxt = _next_segment(selected, at, seg.source, consumed)
    if nxt is None:  # one blank line between the phrase and its list
        at += 1
        nxt = _next_segment(selected, at, seg.source, consumed)
    while nxt is not None:
        text = nxt.text.strip()
        if items and items[-1][1].count("(") > items[-1][1].count(")"):
            items[-1] = (items[-1][0], f"{items[-1][1]} {text}")
        else:
            items.append((nxt.line, text))
        consumed.add((nxt.line, nxt.col))
        at = nxt.line
        nxt = _next_segment(selected, at, seg.source, consumed)
    return items


# A legend of the holder lines' columns, every word a placeholder in brackets: configobj 5.0.9's
# "(name) : (email)" under its "Copyright (C) 2005-2014:", which was read as part of the holders.
_COLUMN_LEGEND_RE = re.compile(r"\(\w+\)(?:\s*[:,;|/-]?\s*\(\w+\))*\s*[:.]?")


def _holder_lines(seg: Segment, selected: list[list[Segment]], consumed: set[tuple[int, int]], last: int
                  ) -> list[str]:
    """The text of the lines below a copyright line that names no holder (after line ``last``),
    which name its holders: the rest of its paragraph, at most ``HOLDER_LINES``, up to a line that
    starts a marker or cannot name a holder (``may_name_holder``: "All rights reserved."); none
    unless one of them names someone. ply's "Copyright (C) 2001-2018" / "David M. Beazley (Dabeaz
    LLC)" credited nobody in an attribution, and no holder could be kept or compared. Comments
    only: plain text (a licence file, read as a docstring) is wrapped prose, whose statements
    :func:`lineage.licences.licence_file.copyright_lines` reads whole."""
    if not seg.whole_line or seg.source != "comment":
        return []
    held: list[str] = []
    at = last
    for _ in range(HOLDER_LINES):  # lines read, a legend among them (the index reads no further)
        nxt = _next_segment(selected, at, seg.source, consumed)
        if nxt is None or _starts_marker(nxt.text) or not may_name_holder(nxt.text):
            break
        if not _COLUMN_LEGEND_RE.fullmatch(nxt.text):
            held.append(nxt.text)
        at = nxt.line
    return held if any(has_proper_noun(text) for text in held) else []


def _points_at_a_file(text: str) -> bool:
    """Whether ``text`` opens with a URL to a file of a repository at a ref: attached below a phrase
    whose own clause names no strong source ("# taken from scikit-learn, see" / "# https://github.com/
    scikit-learn/scikit-learn/blob/1.3.0/sklearn/utils/validation.py#L38", scipy 1.12.0), it is the
    phrase's source, as a URL in the clause itself would be."""
    urls = find_urls(text.split(None, 1)[0]) if text.strip() else []
    info = parse_url(urls[0][2]) if urls else None
    return info is not None and bool(info.repository and info.ref and info.path)


_SENTENCE_END_RE = re.compile(r"(?<=[^\s.])[.!?](?=\s)")


def _attachments(
    seg: Segment, rest: str, selected: list[list[Segment]], consumed: set[tuple[int, int]], last: int
) -> list[Segment]:
    """Following lines (after line ``last``) that belong to a phrase marker whose text has no URL."""
    nxt = _next_segment(selected, last, seg.source, consumed)
    if nxt is None:
        return []
    if find_urls(nxt.text.split(None, 1)[0]) or REPL_START_RE.match(nxt.text):
        return [nxt]
    own = rest.strip()
    # A word left dangling after the phrase's sentence has ended starts the next sentence, which
    # names no source ("inspired by ANSI screen control codes. The" / ":class:`~pexpect.ANSI.ANSI`
    # class extends ...", pexpect's screen.py: the next line's module was read as the source).
    ended = _SENTENCE_END_RE.search(own) is not None
    if (own and not own.endswith(":") and (ended or not dangling(own))) or _starts_marker(nxt.text):
        return []
    # "Adapted from:" with the source on the next line, maybe followed by its URL.
    attached = [nxt]
    if not find_urls(nxt.text):
        after = _next_segment(selected, nxt.line, nxt.source, consumed)
        if after is not None and find_urls(after.text.split(None, 1)[0]):
            attached.append(after)
    return attached

