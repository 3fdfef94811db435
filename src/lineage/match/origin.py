"""Where each upstream file's code came from: its own, a third party's, or the target's.

An upstream file's *origin* (:func:`file_origin`; the first rule that holds wins):

1. ``from_target``: its header states that it came from the target project: a provenance marker
   or repository URL naming the target, or a copyright line of the target's authors
   ("Copyright 2023-2024 SGLang Team"), that does not also name the upstream itself. A
   copyright line whose holder is also one of the upstream's own holders by other evidence
   (:func:`_shared_holder`; with ``MatchParams.origin_shared_holder_no_direction``) says nothing
   of direction: accelerate and transformers are both Hugging Face's (transformers' own holder
   "HuggingFace Inc. team"), and 398 transformers files were set apart as taken from accelerate
   by a "The HuggingFace Team" line alone.
2. ``third_party``, by folder: a vendoring record of the upstream's tree covers it (a
   ``vendor.txt``-like line or a vendored ``*.dist-info``, :mod:`lineage.index.vendoring`; its
   ``vendored`` marker), named after the distribution the record declares (pipenv's
   ``pipenv/patched/pip/`` -> ``pip``); or one of its folders is a vendored folder
   (``MatchParams.vendor_folders``: ``third_party/``, ``_vendor/``, ...); the third party is
   named after the path component that follows (``vllm/third_party/pynvml.py`` -> ``pynvml``).
   A folder holding a licence file of another licence than the release's declared one is one
   too, its files carrying a ``vendored`` marker named after the folder
   (:func:`lineage.index.vendoring.licensed_folder_markers`, ``MatchParams.origin_licensed_folders``:
   mypy's ``mypy/typeshed/``).
   A vendored copy named after the target (by its record or by that component: pytest 2.8's
   ``_pytest/vendored_packages/pluggy.py``, pluggy the target) is ``from_target`` instead.
3. ``third_party``, by header: its header names another project as its origin: a derived /
   adapted / copied / based / modified / ported / taken-from marker whose URL, path or bare
   ``owner/name`` repository slug names a project that is neither the upstream nor the target
   ("Adapted from https://github.com/huggingface/transformers/..." -> ``transformers``;
   "Adapted verbatim from the ``MiniMaxAI/Minimax-M3-preview`` repository" ->
   ``Minimax-M3-preview``).
4. ``third_party``, by copyright: its header carries copyright lines and none of them names the
   upstream or one of its own holders, or such a holder's organisation (:func:`lineage.match.holders.names_own_holder`;
   only other holders' copyright), and no marker of its
   header points into the upstream's own repository or says the file came from the upstream's
   own code (``origin_own_link_claims``: PyPDF2's
   ``pagerange.py``, "Copyright (c) 2014, Steve Witham ... see
   https://github.com/mstamy2/PyPDF2/blob/master/LICENSE", is a contributor's file of PyPDF2;
   transformers' ``modeling_cohere.py``, "Copyright 2024 Cohere team" and "This file is based on
   the LLama model definition file in transformers", one of transformers). A project-wide
   ``SPDX-FileCopyrightText`` line counts only when the file has no other copyright line: vLLM
   adds "Copyright contributors to the vLLM project" to every file, including the Hugging Face,
   NVIDIA or MiniMax files it carries, whose own copyright lines say whose code they are. The
   upstream's own holders are those of its licence files, the holder named in most of its files ("Tri Dao"
   in flash-attention, "contributors to the vLLM project" in vLLM) and the holder named in most
   files of the file's top-level package (an upstream tree holding several projects side by side)
   and those named by that package's own ``__init__.py``,
   and any holder named by at least ``MatchParams.origin_own_holder_share`` of the files (of the
   upstream, or of the package) that name one (distlib names Vinay Sajip in 8 of its 13 files, the
   Python Software Foundation in 5).
5. ``third_party``, by folder majority: its header says nothing of its origin (no copyright line,
   no origin marker), and most of the files of its folder that do say something are third-party
   by rule 4, other holders' copyright (``MatchParams.origin_folder_share`` of them, at least
   ``origin_folder_min_files``): a vendored package named after its project (vLLM's
   ``vllm_flash_attn/cute/``, where 31 of the 37 files with a header carry Tri Dao's or his
   co-authors' copyright) is third-party code in its silent files too. Only the largest group of
   voters whose holders are linked (share a person: "Tri Dao", "Jay Shah, ..., Tri Dao";
   ``MatchParams.origin_folder_linked_holders``) votes: a folder of contributors' files, each by
   another holder (scipy's ``optimize/``: Cooke, Roy, Gubian, Virtanen), is no third party's
   package. Named after that group's most common holder, the evidence says how many files vote.
   Files third-party by rule 3 do not vote: each says what *it* was adapted from, and a folder of
   such adaptations (vLLM 0.6's ``model_executor/models/``, most headers "Adapted from transformers") is the
   upstream's own work, its silent files (``interfaces.py``, ``registry.py``) included.
6. ``own`` otherwise.

A file's *header* is its lines before the first def/class, at most
``MatchParams.origin_header_lines``: a statement there speaks for the file, but an origin
marker in a comment block that runs straight into the first def/class below the module's code
heads that def/class (:func:`heading_comment_start`). One further down
speaks for one part of an ``own`` file only, its *section* (:func:`file_sections`, when
``MatchParams.origin_sections`` is on): a derived / adapted / copied / ... from marker naming the
target (``from_target``) or another project's repository by URL (``third_party``; stricter than
rule 3, which also reads a path or slug) covers the innermost def/class holding it, or, outside
any, the lines from it to the end of the next def/class; a comment block outside any def/class
that stands apart from the code below it (a blank line between) heads a part of the module, to
the next comment outside any def/class or the end of the file, unless its source pins one line
(:func:`_heading_span`). vLLM's ``fused_moe.py`` is its own, but "# Adapted from:
https://github.com/sgl-project/sglang/pull/2628" above its ``get_config_file_name`` says that
function came from sglang.

What the origins mean for the lines a target shares with those files is decided by the gate,
:mod:`lineage.match.gate`.
"""

from __future__ import annotations

import posixpath
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from packaging.utils import canonicalize_name

from lineage.index import BLANK, CODE, COMMENT, FileIndex
from lineage.index.vendoring import FOLDER_KIND, VENDORED_KIND
from lineage.markers import Marker, marker_names_upstream
from lineage.match.holders import (
    common_person,
    holder,
    holder_key,
    largest_linked_group,
    linked_groups,
    main_holders,
    names_own_holder,
)
from lineage.match.params import MatchParams

OWN, THIRD_PARTY, FROM_TARGET = "own", "third_party", "from_target"

# Provenance kinds that state where code came from ("inspired by" does not; a bare URL is a
# reference unless it points into the target, rule 1).
ORIGIN_KINDS = frozenset({"derived_from", "adapted_from", "copied_from", "based_on", "modified_from",
                           "ported_from", "taken_from"})
# Provenance kinds that state a copy (not a change): a section whose marker says its code was
# copied or taken from a standard-library module is that code (MatchParams.origin_stdlib_sections).
_COPY_KINDS = frozenset({"copied_from", "taken_from"})
STDLIB = "Python standard library"
_STDLIB_MODULES = frozenset(sys.stdlib_module_names)
_SPDX_COPYRIGHT_RE = re.compile(r"\s*spdx-filecopyrighttext\s*:", re.IGNORECASE)
# ``owner/name`` not inside a longer path or URL; each part at least two characters.
_SLUG_RE = re.compile(r"(?<![\w/.:-])([A-Za-z][\w.-]*\w)/(\w[\w.-]*\w)(?![\w/-])")
_NAME_LIKE_RE = re.compile(r"[A-Z0-9_.-]")


@dataclass(frozen=True)
class Origin:
    """One upstream file's origin: kind, whom it names, and the evidence (a line, or its folder);
    for an ``own`` file, the sections a marker below its header sets apart."""

    kind: str = OWN  # own | third_party | from_target
    name: str = ""  # the third party ("pynvml") or the target's name; "" when own
    evidence: str = ""  # "folder vllm/third_party/", or the marker's text
    line: int = 0  # line of the marker; 0 for a folder
    sections: tuple[Section, ...] = ()  # own files only, sorted by start, not overlapping

    @property
    def label(self) -> str:
        """``third_party:<name>``, ``from_target`` or ``""`` (the ``shared_origin`` column)."""
        if self.kind == THIRD_PARTY:
            return f"third_party:{self.name}"
        return FROM_TARGET if self.kind == FROM_TARGET else ""

    @property
    def where(self) -> str:
        return f"line {self.line}: {self.evidence}" if self.line else self.evidence


@dataclass(frozen=True)
class Section:
    """Lines ``start`` to ``end`` (1-based, inclusive) of an own upstream file, whose ``origin``
    (``third_party`` or ``from_target``, its marker's line and text) a marker below the header gives."""

    start: int
    end: int
    origin: Origin


def origin_parts(origin: Origin, rows: np.ndarray) -> list[tuple[np.ndarray, Origin]]:
    """Which of an upstream file's ``rows`` (0-based; -1 for none) each origin speaks for: the
    file's for all of them, or, for an own file with sections, each section's for the rows inside
    it (the other rows are the file's own). The one place the gate, the tables and the gate's
    exemptions read a section's lines from."""
    if not origin.sections:
        return [(np.ones(len(rows), bool), origin)]
    return [((rows >= sec.start - 1) & (rows <= sec.end - 1), sec.origin) for sec in origin.sections]


def vendor_folder_depth(path: str, vendor_folders: frozenset[str]) -> int | None:
    """The index among ``path``'s folders of its first vendored folder (a component in
    ``vendor_folders``, ``MatchParams.vendor_folder_names``), None when it sits in none."""
    return next((depth for depth, part in enumerate(path.split("/")[:-1]) if part.lower() in vendor_folders), None)


def vendored_paths(files: Iterable[FileIndex], vendor_folders: frozenset[str]) -> set[str]:
    """Paths of a release's files that are another project's by their place or record: in a
    vendored folder (:func:`vendor_folder_depth`) or marked as a vendored copy (a vendoring
    record, a folder's licence file: ``vendored``, ``folder`` markers). What the release's own
    files state leaves them out (its licence read from its files, its share of "or later")."""
    return {f.path for f in files if vendor_folder_depth(f.path, vendor_folders) is not None
            or any(m.kind in (VENDORED_KIND, FOLDER_KIND) for m in f.markers)}


def vendored_root(target_path: str, upstream_path: str, vendor_folders: frozenset[str]) -> str | None:
    """The folder that vendors the upstream file, when ``target_path`` sits in a vendored
    folder (a component in ``vendor_folders``) at ``upstream_path`` itself, or at it without a
    leading ``src/`` (``pip/_vendor/rich/filesize.py`` and ``rich/filesize.py``: ``pip/_vendor``;
    ``pip/_vendor/six.py`` and ``six.py``); else None. The vendoring layout names the project
    the file was taken from, as a marker would, and the vendoring tool re-roots the file's
    imports there (``from pip._vendor import requests`` <- ``import requests``)."""
    parts = target_path.split("/")
    for i, part in enumerate(parts[:-1]):
        if part.lower() in vendor_folders:
            rest = "/".join(parts[i + 1:])
            if upstream_path in (rest, "src/" + rest):
                return "/".join(parts[: i + 1])
    return None


def _names_project(name: str, names: set[str]) -> bool:
    """Whether a vendored folder's component ``name`` is one of a project's ``names``
    (distribution names compared as PEP 503 normalises them; ``owner/name`` entries left out)."""
    return canonicalize_name(name) in {canonicalize_name(n) for n in names if "/" not in n}


def header_end(f: FileIndex, p: MatchParams) -> int:
    """Last line (1-based) of the file's header."""
    first_def = min((d.start for d in f.definitions), default=f.n_lines + 1)
    return min(first_def - 1, p.origin_header_lines)


def heading_comment_start(f: FileIndex, p: MatchParams, end: int) -> int:
    """The last line above a comment block that runs straight into the first def/class (no
    blank line between) and has code above it, when the header (:func:`header_end`, ``end``)
    ends with one (``MatchParams.origin_header_def_comment``); else ``end``. An origin marker in
    such a block heads that def/class, as it would further down (:func:`_marker_span`), not the
    file: gym 0.26.2's ``normalize.py``, "# taken from .../baselines/common/vec_env/
    vec_normalize.py" between its imports and its ``RunningMeanStd`` class, speaks for that
    class, not for gym's own wrappers below it. A file's opening comments (no code above them)
    stay its header."""
    first_def = min((d.start for d in f.definitions), default=0)
    if not p.origin_header_def_comment or end != first_def - 1:
        return end  # no def/class right below the header (or the header was cut short)
    start = end  # walks up to the line above the comment block
    while start > 0 and int(f.kinds[start - 1]) == COMMENT:
        start -= 1
    if start == end or not (f.kinds[:start] == CODE).any():
        return end
    return start


def _third_party_name(m: Marker) -> str:
    """The project a marker names by URL, path or repository slug; "" when it names none."""
    if m.repository:
        name = m.repository.rstrip("/").rsplit("/", 1)[-1]
        return name[:-4] if name.endswith(".git") else name
    path = m.path.replace("\\", "/").strip("/")
    if "/" in path:
        return path.split("/", 1)[0]
    return _slug_name(m)


def _source_is_not_another(m: Marker, own: set[str]) -> bool:
    """Whether an origin marker's source (its URL, path or slug: :func:`_third_party_name`) is
    the upstream's own or names no project at all (a source in words: "the LLama model
    definition file in transformers")."""
    name = _third_party_name(m)
    return not name or _names_project(name, own)


def _slug_name(m: Marker) -> str:
    """The repository a marker names by a bare ``owner/name`` slug, as its source, without a URL
    ("Adapted verbatim from the ``MiniMaxAI/Minimax-M3-preview`` repository" -> "Minimax-M3-preview").

    A slug names a repository as a URL into it does (rule 3). It counts only as the phrase's
    source, the project the marker names (its owner is ``m.project``), and only when it looks
    like a name (a capital, digit, ``-``, ``_`` or ``.`` in it): "and/or" or "read/write" in
    prose are words. A project named without a repository ("based on EleutherAI's GPT-NeoX
    library", above ~65 vLLM model files) says whose *model* the file implements, not that the
    file is that project's code, and is not read.
    """
    if not m.project:
        return ""
    for owner, name in _SLUG_RE.findall(m.text):
        if owner == m.project and any(_NAME_LIKE_RE.search(part) for part in (owner, name)):
            return name[:-4] if name.endswith(".git") else name
    return ""


def file_origin(f: FileIndex, own: set[str], target: set[str], p: MatchParams,
                own_holders: frozenset[str] = frozenset(), licence_holders: frozenset[str] = frozenset()) -> Origin:
    """The origin of one upstream file (see the module docstring); ``own``: the names of the
    upstream it belongs to, ``target``: the target's names (none of them also an upstream's),
    ``own_holders``: the upstream's own copyright holders (:func:`holder_key`), of which
    ``licence_holders`` are those its licence files name."""
    end = header_end(f, p)
    heading = heading_comment_start(f, p, end)
    head = [m for m in f.markers if m.line <= end and (m.line <= heading or m.kind not in ORIGIN_KINDS)]
    for m in head:
        if m.kind == "spdx" or m.kind == "inspired_by":
            continue
        if target and marker_names_upstream(m, target) and not marker_names_upstream(m, own):
            if p.origin_shared_holder_no_direction and m.kind == "copyright" and _shared_holder(
                    holder_key(holder(m.text)), own_holders, licence_holders):
                continue  # both projects' holder: says nothing of which way the code went
            return Origin(FROM_TARGET, sorted(target)[0], m.text, m.line)
    for m in f.markers:
        if m.kind == "vendored" and not marker_names_upstream(m, own):
            if target and marker_names_upstream(m, target):  # the upstream vendors the target
                return Origin(FROM_TARGET, sorted(target)[0], m.text, 0)
            return Origin(THIRD_PARTY, m.project, m.text, 0)
    depth = vendor_folder_depth(f.path, p.vendor_folder_names)
    if depth is not None:
        folders = f.path.split("/")[:-1]
        rest = f.path.split("/")[depth + 1]
        name = posixpath.splitext(rest)[0]
        name = folders[depth] if name == "__init__" else name
        evidence = f"folder {'/'.join(folders[: depth + 1])}/"
        # a vendored copy of the target (pytest 2.8's ``_pytest/vendored_packages/pluggy.py``,
        # pluggy the target) was taken from the target, not from a third party
        if _names_project(name, target) and not _names_project(name, own):
            return Origin(FROM_TARGET, sorted(target)[0], evidence)
        return Origin(THIRD_PARTY, name, evidence)
    for m in head:
        if m.kind in ORIGIN_KINDS and not marker_names_upstream(m, own):
            name = _third_party_name(m)
            if name:
                return Origin(THIRD_PARTY, name, m.text, m.line)
    copyrights = [m for m in head if m.kind == "copyright"]
    # A project-wide SPDX-FileCopyrightText line (vLLM's tooling adds "Copyright contributors to
    # the vLLM project" to every file, vendored ones included) does not outweigh a file's own,
    # specific copyright lines: those say whose code it is.
    copyrights = [m for m in copyrights if not _SPDX_COPYRIGHT_RE.match(m.text)] or copyrights
    # A header that points into the upstream's own repository ("see
    # https://github.com/mstamy2/PyPDF2/blob/master/LICENSE" under a contributor's copyright line),
    # or says the file was based on / adapted from the upstream's own code, by URL, path or name
    # ("This file is based on the LLama model definition file in transformers" below "Copyright
    # 2024 Cohere team" in transformers' modeling_cohere.py), says the file is the upstream's,
    # under its licence: the copyright line says who wrote it. Not a statement whose source is
    # another project's URL, path or module ("Ported from ``transformers.models.gemma4.X`` so that
    # vLLM users ...", vLLM 0.32's ``gemma4_utils.py``, mentions the upstream after its source).
    claimed = bool(p.origin_own_link_claims) and any(
        m.kind not in ("copyright", "spdx") and marker_names_upstream(m, own)
        and (m.repository or (m.kind in ORIGIN_KINDS and _source_is_not_another(m, own))) for m in head)
    if copyrights and not claimed and not any(
            marker_names_upstream(m, own) or names_own_holder(holder_key(holder(m.text)), own_holders)
            for m in copyrights):
        return Origin(THIRD_PARTY, holder(copyrights[0].text), copyrights[0].text, copyrights[0].line)
    return Origin(sections=file_sections(f, own, target, heading, bool(p.origin_section_paragraphs),
                                         bool(p.origin_section_headings), end, bool(p.origin_stdlib_sections))
                  if p.origin_sections else ())


def file_sections(f: FileIndex, own: set[str], target: set[str], header_last: int,
                  paragraphs: bool = True, headings: bool = True, header_read: int = 0,
                  stdlib: bool = True) -> tuple[Section, ...]:
    """The sections of an own file (module docstring): per origin marker below the header
    (``header_last``) naming the target, or another project's repository (a URL into it; never the
    upstream itself), the innermost def/class holding it, else the lines from it to the end of
    the next def/class. A section inside an earlier one is dropped (the first marker speaks);
    one that would overlap an earlier one starts after it. A marker up to ``header_read`` (a
    comment block heading the first def, :func:`heading_comment_start`) names its project as a
    header's does (rule 3: a path or slug too): setuptools 70.3's ``_itertools.py`` says "copied
    from jaraco.itertools 6.1" above its one function. With ``stdlib``
    (``MatchParams.origin_stdlib_sections``), a marker saying its code was copied or taken from
    a module of Python's standard library (:func:`_stdlib_copy`) sets its section apart too, as
    ``Python standard library``'s."""
    found: list[Section] = []
    for m in f.markers:
        if m.line <= header_last or m.kind not in ORIGIN_KINDS or marker_names_upstream(m, own):
            continue
        if target and marker_names_upstream(m, target):
            origin = Origin(FROM_TARGET, sorted(target)[0], m.text, m.line)
        elif (m.repository or m.line <= header_read) and (name := _third_party_name(m)):
            # a repository only (a URL into it): "adapted from transformers.models.mamba.X" or
            # "from jax.numpy.einsum(...)" names an API the upstream's own code follows, and a
            # vLLM function so marked was its own (the sglang/vLLM truth set: 5 copies lost)
            origin = Origin(THIRD_PARTY, name, m.text, m.line)
        elif stdlib and _stdlib_copy(m, own):
            origin = Origin(THIRD_PARTY, STDLIB, m.text, m.line)
        else:
            continue
        span = _marker_span(f, m.line, paragraphs, headings and not m.line_start)
        if span is not None:
            found.append(Section(span[0], span[1], origin))
    out: list[Section] = []
    for section in sorted(found, key=lambda x: (x.start, -x.end, x.origin.line)):
        start = max(section.start, out[-1].end + 1) if out else section.start
        if start <= section.end:
            out.append(Section(start, section.end, section.origin))
    return tuple(out)


def _stdlib_copy(m: Marker, own: set[str]) -> bool:
    """Whether an origin marker says its code was copied or taken (``copied_from``,
    ``taken_from``: "stolen from", "borrowed from") from a module of Python's standard library
    named without a URL ("stolen from shutil.which implementation"), not one of the upstream's own
    names, and named as the source itself or as CPython's ("Copied from CPython 3.5.1
    html/entities.py"): pytest's "copied from py 1.8.1, file _io/terminalwriter.py" names py's
    file, whose folder only shares its name with the ``_io`` module. Not "adapted from" or
    "based on": those name an API the code follows (urllib3's "Based on
    :class:`http.client.HTTPConnection` but provides an extra constructor")."""
    if m.kind not in _COPY_KINDS or m.repository:
        return False
    name = _third_party_name(m)
    return (name in _STDLIB_MODULES and m.project.lower() in (name.lower(), "cpython", "python")
            and not _names_project(name, own))


def _marker_span(f: FileIndex, line: int, paragraphs: bool = True, heading: bool = False) -> tuple[int, int] | None:
    """The lines a marker at ``line`` (below the header) speaks for (:func:`file_sections`).

    With ``paragraphs`` (``MatchParams.origin_section_paragraphs``), a comment marker inside a
    def/class speaks for what it heads, not for the whole def: the def/class that follows it with
    only comments and blank lines between (LLaVA's ``# Based on: .../llava_arch.py`` above one
    method of vLLM's ``LlavaNextForConditionalGeneration``, not the class), else its paragraph,
    the lines up to the next blank line (PEP 8's logical sections: transformers'
    ``pytest_terminal_summary_main`` says its 15-line durations report was "adapted from" pytest's
    runner.py, and its other 90 lines were set apart with it); when that paragraph is comments
    alone, the lines from it to the end of the def. A marker at the head of a def's body
    (:func:`_heads_body`; not below a def nested in it) or in a docstring speaks for the def
    holding it.

    With ``heading`` (``MatchParams.origin_section_headings``; the marker's source pins no line),
    a comment marker outside any def/class whose comment block stands apart from the code below
    it (a blank line between) heads a part of the module: it speaks for the lines from it to the
    next comment outside any def/class, or to the end of the file (:func:`_heading_span`)."""
    holding = [d for d in f.definitions if d.start <= line <= d.end]
    if heading and not holding and (span := _heading_span(f, line)) is not None:
        return span
    if holding:
        innermost = min(holding, key=lambda d: (d.end - d.start, -d.start))
        comment = 0 < line <= f.n_lines and int(f.kinds[line - 1]) == COMMENT
        at_head = not any(innermost.start < d.start < line for d in f.definitions) and _heads_body(
            f.kinds[innermost.start - 1:line - 1])
        if paragraphs and comment and not at_head:
            inside = [d for d in f.definitions if line < d.start <= innermost.end]
            if inside:
                nxt = min(inside, key=lambda d: (d.start, -d.end))
                if not (f.kinds[line:nxt.start - 1] == CODE).any():
                    return line, nxt.end
            blank = np.flatnonzero(f.kinds[line:innermost.end] == BLANK)
            end = line + int(blank[0]) if len(blank) else innermost.end
            # a paragraph of comments alone, set apart by a blank line: the code below it, to the end
            return (line, end) if (f.kinds[line:end] == CODE).any() else (line, innermost.end)
        return innermost.start, innermost.end
    after = [d for d in f.definitions if d.start > line]
    if not after:
        return None
    return line, min(after, key=lambda d: (d.start, -d.end)).end


def _heading_span(f: FileIndex, line: int) -> tuple[int, int] | None:
    """The part of the module a comment block standing apart heads (:func:`_marker_span`): from
    ``line`` to the row before the next comment outside any def/class, else the file's end; None
    when ``line`` is no comment or its block runs straight into code (it heads that def alone).

    pandas 2.2.3's ``core/accessor.py``: "Ported with modifications from xarray ... extensions.py",
    then notes on what changed in ``CachedAccessor`` and in ``_register_accessor``, a blank line,
    then both and the ``register_*_accessor`` functions built on them (before: only
    ``CachedAccessor``, and xarray's ``_register_accessor`` counted as copied from pandas). vLLM
    0.32.0's ``models/pixtral.py``: "#### HF Transformers version of Pixtral ####" / "# Based off
    .../modeling_pixtral.py" above all the ``PixtralHF*`` classes to the end of the file. A source
    pinned to a line (vLLM's ``mhc/tilelang_kernels.py``: "Copied from .../mhc.py#L478", above
    one kernel of many) names one definition and is not read so."""
    n = f.n_lines
    if not 0 < line <= n or int(f.kinds[line - 1]) != COMMENT:
        return None
    end = line  # the block's last line (1-based); f.kinds[end] is the line below it
    while end < n and int(f.kinds[end]) == COMMENT:
        end += 1
    if end >= n or int(f.kinds[end]) != BLANK:
        return None
    inside = np.zeros(n, bool)
    for d in f.definitions:
        inside[max(d.start - 1, 0):d.end] = True
    below = np.flatnonzero((f.kinds[end:] == COMMENT) & ~inside[end:])
    return line, end + int(below[0]) if len(below) else n


def _heads_body(before: np.ndarray) -> bool:
    """Whether a marker stands at the head of a def's body: the def's lines before it (their
    kinds, ``before``) are its signature, code lines in a row, then no code, only a docstring,
    comments or blank lines (or a code line in a row with the signature: which cannot be told)."""
    other = np.flatnonzero(before != CODE)
    return len(other) == 0 or not (before[other[0]:] == CODE).any()


def _shared_holder(key: str, own_holders: frozenset[str], licence_holders: frozenset[str]) -> bool:
    """Whether a copyright line's holder (``key``, one of the target's) is the upstream's own too
    (origin rule 1): named by the upstream's licence files, or of the organisation of another
    own holder (:func:`names_own_holder`). A main holder of the same name is no such evidence: an
    upstream whose files came from the target names the target's authors in most of them."""
    return names_own_holder(key, (own_holders - {key}) | (licence_holders & {key}))


def upstream_origins(files: Sequence[FileIndex], upstream_of: Sequence[int], own_names: Sequence[set[str]],
                     target_names: set[str], p: MatchParams,
                     licence_holders: Sequence[set[str]] | None = None) -> list[Origin]:
    """The origin of every upstream file; ``upstream_of[k]`` says which upstream file k is in;
    ``licence_holders[u]``: holders named by upstream u's licence files (see :func:`holder`)."""
    every_own = set().union(*own_names) if own_names else set()
    target = {n for n in target_names if n not in every_own}  # a name both carry names neither
    holders, licensed = [], []
    by_package: dict[tuple[int, str], list[FileIndex]] = {}
    for f, k in zip(files, upstream_of, strict=True):
        by_package.setdefault((k, _package(f.path)), []).append(f)
    for u in range(len(own_names)):
        mine = [f for f, k in zip(files, upstream_of, strict=True) if k == u]
        extra = frozenset(holder_key(h) for h in licence_holders[u]) if licence_holders else frozenset()
        holders.append(main_holders(mine, p.origin_own_holder_share) | extra)
        licensed.append(extra)
    # An upstream tree may hold several projects side by side (a collection of releases, a
    # monorepo): the holder most files of a top-level package name is that package's own.
    package_holders = {key: main_holders(group, p.origin_own_holder_share) | _root_holders(key[1], group)
                       for key, group in by_package.items()}
    origins = [file_origin(f, own_names[u], target, p, holders[u] | package_holders[(u, _package(f.path))],
                           licensed[u])
               for f, u in zip(files, upstream_of, strict=True)]
    return _folder_majority(files, _one_spelling(upstream_of, _linked_names(files, upstream_of, origins, p), p), p)


def _root_holders(package: str, group: Sequence[FileIndex]) -> frozenset[str]:
    """The holders named by a top-level package's own ``__init__.py``: the package's root module
    speaks for the package (requests 2.0.0: ``:copyright: (c) 2013 by Kenneth Reitz.`` in
    ``requests/__init__.py``, and in one other of its own files, while the urllib3 and chardet
    it then carried name their own holders in 48 files)."""
    root = f"{package}/__init__.py"
    return frozenset(holder_key(holder(m.text)) for f in group if f.path == root
                     for m in f.markers if m.kind == "copyright")


def _package(path: str) -> str:
    """The top-level package a file belongs to ("" for a module at the top)."""
    return path.split("/", 1)[0] if "/" in path else ""


def _says_origin(f: FileIndex, p: MatchParams) -> bool:
    """The file's header carries a copyright line or an origin marker (it speaks for itself)."""
    end = header_end(f, p)
    return any(m.line <= end and (m.kind == "copyright" or m.kind in ORIGIN_KINDS) for m in f.markers)


def _by_copyright(f: FileIndex, origin: Origin) -> bool:
    """Whether a third-party origin comes from the file's copyright lines (rule 4)."""
    return origin.line > 0 and any(m.line == origin.line and m.kind == "copyright" for m in f.markers)


def _folder_majority(files: Sequence[FileIndex], origins: list[Origin], p: MatchParams) -> list[Origin]:
    """Rule 5: silent own files of a folder whose speaking files are mostly third-party."""
    by_folder: dict[str, list[int]] = {}
    for k, f in enumerate(files):
        by_folder.setdefault(posixpath.dirname(f.path), []).append(k)
    out = list(origins)
    says = [_says_origin(f, p) for f in files]
    for folder, members in sorted(by_folder.items()):
        speaking = [k for k in members if says[k] or origins[k].kind != OWN]
        # Only files that are a third party's by copyright (rule 4) vote: a folder of its holders'
        # files is their package. A folder of the upstream's own adaptations, each naming what it
        # was adapted from (rule 3: vLLM 0.6's model files, "Adapted from transformers"), is not,
        # and its silent files (``interfaces.py``, ``registry.py``) are the upstream's own.
        voters = [k for k in speaking if origins[k].kind == THIRD_PARTY and _by_copyright(files[k], origins[k])]
        if p.origin_folder_linked_holders:
            voters = largest_linked_group(voters, [origins[k].name for k in voters])
        if len(voters) < p.origin_folder_min_files or len(voters) < p.origin_folder_share * len(speaking):
            continue
        names = Counter(origins[k].name for k in voters)
        name = min(names, key=lambda n: (-names[n], n))
        evidence = (f"folder {folder}/: {len(voters)} of {len(speaking)} files with a header "
                    "carry other holders' copyright")
        for k in members:
            if origins[k].kind == OWN and not says[k]:
                out[k] = Origin(THIRD_PARTY, name, evidence)
    return out


def _linked_names(files: Sequence[FileIndex], upstream_of: Sequence[int], origins: list[Origin],
                  p: MatchParams) -> list[Origin]:
    """Third parties by copyright (rule 4) whose holders are linked are one third party, named
    after the group's most common holder (ties: the first alphabetically): vLLM's flash-attention
    files name "Tri Dao" alone or with his co-authors ("Jay Shah, ..., Tri Dao"; "Wentao Guo, Ted
    Zadouri, Tri Dao"), and summary.md's third-party table listed them as five parties."""
    if not p.origin_third_party_linked_names:
        return origins
    out = list(origins)
    for u in sorted(set(upstream_of)):
        held = [k for k, (o, v) in enumerate(zip(origins, upstream_of, strict=True))
                if v == u and o.kind == THIRD_PARTY and _by_copyright(files[k], o)]
        groups: dict[int, list[int]] = {}
        for k, root in zip(held, linked_groups([origins[k].name for k in held]), strict=True):
            groups.setdefault(root, []).append(k)
        for group in groups.values():
            if len({origins[k].name for k in group}) > 1:
                name = common_person([origins[k].name for k in group])
                for k in group:
                    out[k] = replace(origins[k], name=name)
    return out


def _one_spelling(upstream_of: Sequence[int], origins: list[Origin], p: MatchParams) -> list[Origin]:
    """An upstream's third parties whose names are one name as PyPI compares them (case, ``-_.``)
    are one third party, named as most of its files spell it (ties: a spelling with capitals, the
    project's own styling, then the first alphabetically): vLLM 0.32's "LightLLM" (a header's
    words) and "lightllm" (a URL's repository) were two rows of summary.md's third-party table."""
    if not p.origin_third_party_one_spelling:
        return origins
    spellings: dict[tuple[int, str], Counter[str]] = {}
    for o, u in zip(origins, upstream_of, strict=True):
        if o.kind == THIRD_PARTY and o.name:
            spellings.setdefault((u, canonicalize_name(o.name)), Counter())[o.name] += 1
    chosen = {key: min(c, key=lambda n: (-c[n], n == n.lower(), n)) for key, c in spellings.items() if len(c) > 1}
    if not chosen:
        return origins
    return [replace(o, name=chosen.get((u, canonicalize_name(o.name)), o.name)) if o.kind == THIRD_PARTY and o.name
            else o for o, u in zip(origins, upstream_of, strict=True)]
