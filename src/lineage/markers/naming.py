"""Which project a marker names, and whether that project is a given upstream.

The rules are in the docstring of :mod:`lineage.markers` (section "Naming an upstream").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from packaging.utils import canonicalize_name

from lineage.markers.attribution import holder_organisation, is_attribution
from lineage.markers.record import Marker
from lineage.markers.urls import strip_git, without_urls
from lineage.markers.vocabulary import NOT_PROPER, PROSE_START, SOURCE_NOUN_RE, first_clause

# A project name as written in prose: letters, digits and ``_ . + -`` inside ("vLLM-Omni",
# "nano-vllm-uno", "flash_attn"), never ending in punctuation.
_NAME_RE = re.compile(r"[A-Za-z][\w+-]*[\w+]|[A-Za-z]")
# Words that may stand before the name of a project in a phrase's source ("from the vLLM repo").
_BEFORE_NAME = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "its", "their", "our", "my", "his", "her",
     "original", "official", "upstream",
     # adjectives that still need their noun ("stolen from the equivalent function in Requests",
     # requests-toolbelt 1.0.0's user_agent.py, named the project "equivalent"; vocabulary._DANGLING)
     "equivalent", "corresponding", "analogous", "same", "similar",
     # and the code object they qualify ("the same function in numpy" names numpy)
     "function", "functions", "method", "methods", "class", "classes", "module", "modules", "file",
     "files", "kernel", "kernels", "logic", "helper", "helpers", "routine", "routines",
     # pronouns opening a clause ("Based on what Python uses internally in functools.lru_cache",
     # xarray's file_manager.py, named the project "what")
     "what", "which", "how", "where", "whatever", "whichever"}
)


# A quoted title: several words between quotes ('...', "...", `...`, typographic ones; timm writes
# 'Scaling Vision Transformers to 22 Billion Parameters` with mismatched ones), opened after no
# letter and closed before none, so that "vLLM's" opens nothing.
_QUOTES_OPEN = "'\"`\u2018\u201c"
_QUOTES_CLOSE = "'\"`\u2019\u201d"
_TITLE_MIN_WORDS = 3  # "`vllm serve` command" or "'flash_attn' package" are names, not titles
_TITLE_RE = re.compile(
    rf"(?<!\w)[{_QUOTES_OPEN}](?P<title>[^{_QUOTES_OPEN}{_QUOTES_CLOSE}\n]+)[{_QUOTES_CLOSE}](?!\w)")


def without_titles(text: str) -> str:
    """``text`` without its quoted titles of at least ``_TITLE_MIN_WORDS`` words: a paper's or a
    book's title is the work's name, and its words are no project's ("Based on: 'MLP-Mixer: An
    all-MLP Architecture for Vision' - https://arxiv.org/abs/2105.01601" in timm 1.0.11 named
    torchvision, whose repository is ``pytorch/vision``)."""
    return _TITLE_RE.sub(
        lambda m: " " if len(m.group("title").split()) >= _TITLE_MIN_WORDS else m.group(0), text)


def _wanted(names: Iterable[str]) -> list[str]:
    return sorted({n.strip().lower() for n in names if n and n.strip()})


def project_from_text(rest: str) -> str:
    """The project named by the source text after a phrase ("the vLLM-Omni reference" -> "vLLM-Omni").

    Articles, determiners, prose words ("previous") and source nouns ("code", "implementation")
    are skipped; the next word is the project when it opens what is left of the clause or looks
    like a name (an upper-case letter, a digit, ``-`` or ``_``); later words count only if they
    look like a name. Possessive ``'s`` is dropped.
    """
    clause = first_clause(without_urls(rest))
    first = True
    for m in _NAME_RE.finditer(clause):
        word = re.sub(r"['’]s$", "", m.group(0))
        lower = word.lower()
        if lower in _BEFORE_NAME or lower in PROSE_START or SOURCE_NOUN_RE.fullmatch(word):
            continue
        looks_like_name = any(c.isupper() or c.isdigit() or c in "-_" for c in word)
        if (first or looks_like_name) and lower not in NOT_PROPER and len(word) > 1:
            return word
        first = False
    return ""


# A release written right after the project's name, maybe after "version" or "release": "v0.6.4",
# "1.8.1", "8.8", "2.0.0rc1", "0.6.4.post1" (two parts at least: "py 3" is no release).
_RELEASE_AFTER_NAME = (r"[`'\"*]*\s+(?:(?:version|release)\s+)?"
                       r"(?P<ref>v?\d+(?:\.\d+)+(?:(?:a|b|rc|\.post|\.dev)\d+)*)(?![\w.])")


def stated_release(rest: str, project: str) -> str:
    """The release of ``project`` that the source text after a phrase states in its first clause,
    written right after the project's name (or after a dotted name it opens: "from jaraco.functools
    3.3" for ``jaraco``), as written; "" when none. pytest 8.3.3's ``_io/terminalwriter.py`` says
    "This code was initially copied from py 1.8.1, file _io/terminalwriter.py.", and files.csv's
    ``marker_ref`` was empty although the run compared py 1.11.0: a reviewer could not tell from
    the table that the marker names another release (a marker's URL tag, ``/blob/v0.7.3/``, was
    read; the same release in words was not)."""
    if not project:
        return ""
    clause = first_clause(without_urls(rest))
    m = re.search(rf"(?<![\w.-]){re.escape(project)}(?:\.[A-Za-z_]\w*)*{_RELEASE_AFTER_NAME}", clause,
                  re.IGNORECASE)
    return m.group("ref") if m else ""


def repository_project(repository: str) -> str:
    """The project of an ``owner/name`` repository: its name ("vllm-project/vllm-ascend" -> "vllm-ascend")."""
    return strip_git(repository.rstrip("/").rsplit("/", 1)[-1]) if repository else ""


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a whole project name, case-insensitively.

    Letters, digits, ``_`` and ``-`` next to it make it part of a longer name: "vllm-ascend",
    "nano-vllm-uno", "DeepSeek-OCR-vllm" and "vllm_ascend" do not mention "vllm". Nor does a
    dot before it: a file's extension or a later part of a dotted name ("coroutines.py",
    "Lib/pathlib.py" never mention the ``py`` distribution; pytest 8.3.3 against py 1.11.0
    counted five files naming CPython or nltk files as marked).
    """
    pattern = rf"(?<![\w.-]){re.escape(name)}(?![\w-])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def mentions_organisation(text: str, name: str) -> bool:
    """Whether copyright line ``text`` names the organisation of the holder ``name``: its name
    without a leading "the" and trailing group or company words (:func:`holder_organisation`), its
    words written together or apart, case-insensitively. transformers 5.16.1's licence holder is
    "The Hugging Face team" and its files' "The HuggingFace Team" or "the HuggingFace Inc. team":
    vLLM 0.32.0's ``parser/chat_parsing/`` keeps "Copyright 2026 The HuggingFace Team" over four
    of transformers' files copied whole (585 code lines), and 53 more files "... and the HuggingFace
    Inc. team", none of them counted as marked. As :func:`mentions`, letters, digits, ``_`` and
    ``-`` next to it make it part of a longer name."""
    key = name[4:] if name.startswith("the ") else name
    words = holder_organisation(key).split()
    if not words:
        return False
    pattern = r"(?<![\w.-])" + r"\s*".join(re.escape(w) for w in words) + r"(?![\w-])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _leads_with(parts: list[str], name: str) -> bool:
    """Whether a path's or dotted symbol's first components are ``name``'s dotted components
    (``jaraco.text.layouts`` leads with ``jaraco.text``, not ``jaraco.itertools``'s ``jaraco``
    alone: a namespace package is named by its whole dotted name)."""
    want = name.split(".")
    return parts[: len(want)] == want


def marker_names_upstream(marker: Marker, names: Iterable[str]) -> bool:
    """Whether ``marker`` names an upstream known by one of ``names`` (e.g. ``{"vllm"}``).

    Rules (module docstring, "Naming an upstream"): a licence line names nothing; a copyright
    line names the upstream when its holder text mentions it or its organisation
    (:func:`mentions_organisation`); a provenance marker names it when
    its repository is the upstream's (name, or ``owner/name``), or (without a repository) its
    path or symbol starts with a name's components (``jaraco.text.X`` with ``jaraco.text``), or its
    recorded project is a name, or when its text
    outside URLs and quoted titles (:func:`without_titles`) mentions the name as a whole project name.
    """
    wanted = _wanted(names)
    if not wanted or marker.kind == "spdx":
        return False
    if marker.kind == "vendored":  # a vendoring record names the distribution it declares, nothing else
        return canonicalize_name(marker.project) in {canonicalize_name(name) for name in wanted}
    if is_attribution(marker):
        return any(mentions(marker.text, name) or mentions_organisation(marker.text, name) for name in wanted)
    if _names_by_reference(marker, wanted):
        return True
    plain = without_titles(without_urls(marker.text))
    return any(mentions(plain, name) for name in wanted)


# How a Python client's repository is named after the project it is for ("kafka-python").
_CLIENT_AFFIXES = ("{}-python", "python-{}", "py{}", "py-{}", "{}-py", "{}py", "{}.py", "{}-client", "{}-python-client")


def _names_by_reference(marker: Marker, wanted: Sequence[str]) -> bool:
    """Whether a provenance marker's own reference (its repository; without one, its recorded
    project, path or symbol) names one of ``wanted``, as against a mention in its text."""
    if marker.repository:
        repository = strip_git(marker.repository.lower())
        project = repository_project(repository)
        if repository in wanted or project not in wanted:
            return repository in wanted
        # Named like the upstream, but not its declared repository: when that repository's name is
        # this name with a Python client's affix (dpkp/kafka-python, elastic/elasticsearch-py), a
        # repository of the bare name is the project the client is for, not the upstream
        # (aiokafka 0.8.0's links into apache/kafka, Apache Kafka's Java code, marked its files for
        # kafka-python, package ``kafka``; round user144). Any other repository of an upstream's
        # name still names it: a fork or a move (ROCm/vllm), a rename (mitsuhiko/jinja2 for
        # jinja2, declared pallets/jinja).
        declared = [repository_project(w) for w in wanted if "/" in w]
        if project in declared or marker.path.endswith(".py"):  # a declared name; a link into Python code
            return True
        clients = {a.format(project) for a in _CLIENT_AFFIXES}
        return not any(name in clients for name in declared)
    path_parts = marker.path.replace("\\", "/").lstrip("/").lower().split("/")
    symbol_parts = marker.symbol.lower().split(".")
    return marker.project.lower() in wanted or any(
        _leads_with(path_parts, name) or _leads_with(symbol_parts, name) for name in wanted)


def _names_beyond_project(marker: Marker, wanted: Sequence[str]) -> bool:
    """Whether a provenance marker's repository, or (without one) its path or symbol, names one
    of ``wanted``: a reference a vendoring record, which pins only a name, does not give."""
    if marker.repository:
        return _names_by_reference(marker, wanted)
    return bool(marker.path or marker.symbol) and _names_by_reference(replace(marker, project=""), wanted)


def file_marker(markers: Sequence[Marker], names: Iterable[str]) -> tuple[Marker | None, int]:
    """The marker that makes a file count as marked for an upstream, and how many provenance
    markers of the file name something else.

    The first provenance marker naming the upstream; failing that, the first copyright line
    naming the upstream's authors ("Copyright 2023 The vLLM team"). SPDX licence lines never.
    A vendoring record's marker (kind ``vendored``) goes before a marker written in the file that
    names another of the upstreams: the record says where the file came from, the text what it
    drew on (pip's ``_vendor/rich/syntax.py`` is rich's file, whatever it says of Pygments, when
    both releases are upstreams); a marker written in the file naming the record's own project
    stays first, as the more specific, when its own reference names it and says more than the
    record's pinned name: a repository, path or symbol (:func:`_names_beyond_project`). A passing
    mention in a marker pointing elsewhere is not (pipenv 2024.0.1's vendored
    ``packaging/version.py``: "taken from pkg_resources.parse_version setuptools prior to it's
    adoption of the packaging library" was its marker, not the ``packaging==21.3`` record), nor
    the project's bare name, often the vendored code's own words about itself (pip 24.3.1's
    ``_vendor/pkg_resources/__init__.py`` line 3573, setuptools' "Ported from ``setuptools`` to
    avoid introducing an import inter-dependency", hid the ``setuptools==70.3.0`` record).
    """
    wanted = _wanted(names)
    provenance = [m for m in markers if not is_attribution(m)]
    naming = [m for m in provenance if marker_names_upstream(m, wanted)]
    if naming:
        records = [m for m in naming if m.kind == "vendored"]
        if records:
            own = _wanted([records[0].project])
            naming = [m for m in naming if m.kind == "vendored" or _names_beyond_project(m, own)]
        return naming[0], len(provenance) - len(naming)
    holders = [m for m in markers if m.kind == "copyright" and marker_names_upstream(m, wanted)]
    return (holders[0] if holders else None), len(provenance)
