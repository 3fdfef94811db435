"""Where each upstream file's code came from, and what that means for the lines it shares.

An upstream file's *origin* (:func:`file_origin`; the first rule that holds wins):

1. ``from_target``: its header states that it came from the target project: a provenance marker
   or repository URL naming the target, or a copyright line of the target's authors
   ("Copyright 2023-2024 SGLang Team"), that does not also name the upstream itself.
2. ``third_party``, by folder: one of its folders is a vendored folder
   (``MatchParams.vendor_folders``: ``third_party/``, ``_vendor/``, ...); the third party is
   named after the path component that follows (``vllm/third_party/pynvml.py`` -> ``pynvml``).
3. ``third_party``, by header: its header names another project as its origin: a derived /
   adapted / copied / based / modified / ported / taken-from marker whose URL or path names a
   project that is neither the upstream nor the target ("Adapted from
   https://github.com/huggingface/transformers/..." -> ``transformers``).
4. ``third_party``, by copyright: its header carries copyright lines and none of them names the
   upstream or one of its own holders (only other holders' copyright). A project-wide
   ``SPDX-FileCopyrightText`` line counts only when the file has no other copyright line: vLLM
   adds "Copyright contributors to the vLLM project" to every file, including the Hugging Face,
   NVIDIA or MiniMax files it carries, whose own copyright lines say whose code they are. The
   upstream's own holders are those of its licence files, the holder named in most of its files ("Tri Dao"
   in flash-attention, "contributors to the vLLM project" in vLLM) and the holder named in most
   files of the file's top-level package (an upstream tree holding several projects side by side),
   and any holder named by at least ``MatchParams.origin_own_holder_share`` of the files (of the
   upstream, or of the package) that name one (distlib names Vinay Sajip in 8 of its 13 files, the
   Python Software Foundation in 5).
5. ``third_party``, by folder majority: its header says nothing of its origin (no copyright line,
   no origin marker), and most of the files of its folder that do say something are third-party
   by rule 3 or 4 (``MatchParams.origin_folder_share`` of them, at least
   ``origin_folder_min_files``): a vendored package named after its project (vLLM's
   ``vllm_flash_attn/cute/``, where 33 of the 35 files with a header carry Tri Dao's or his
   co-authors' copyright) is third-party code in its silent files too. Named after the folder's
   most common third party, the evidence says how many files vote.
6. ``own`` otherwise.

A file's *header* is its lines before the first def/class, at most
``MatchParams.origin_header_lines``: a statement there speaks for the file, one further down for
one function only, and is not read.

The gate (:func:`gate`), run on the matcher's labels before any table is built, applies it: a
target line paired with a ``third_party`` or ``from_target`` upstream file is not a copy from
the upstream. It becomes ``none`` and is kept apart as *shared* code (:class:`Shared`), unless
the target file itself says it took the code from there: for ``third_party``, a marker of the
target file names that upstream (it took the code via the upstream); for ``from_target``, a
marker of the target file names that very upstream file. The gate also makes two more kinds of
line shared instead of copied:

* ``header``: a licence or copyright header line (:mod:`lineage.match.headers`) counts as copied
  only inside a region that holds copied code; a region of header lines and other prose alone
  is shared header text, not copying. And when the target file's header names holders
  (copyright lines) none of which is copied, its notice is the target's own ("Copyright
  2023-2024 SGLang Team" above the same Apache text vLLM's file carries): none of its header
  lines counts as copied, even inside copied code.
* ``generated``: a target version file that says it was generated (setuptools-scm, versioneer,
  hatch-vcs): both projects generate it, neither copied it.

And it tells files that only re-export (:func:`is_reexport_only`: imports, ``__all__`` and a
docstring) from the rest: their lines stay labelled, but such a file is not evidence on its own
(the review lists leave it out; see :mod:`lineage.results`).
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from lineage.index import BLANK, CODE, FileIndex
from lineage.markers import Marker, is_attribution, marker_names_upstream
from lineage.match.headers import header_rows, is_holder_line
from lineage.match.params import MatchParams
from lineage.match.records import NEAR, NONE, VERBATIM, FileMatch, MatchResult, Region

OWN, THIRD_PARTY, FROM_TARGET = "own", "third_party", "from_target"

# Kinds of shared line (per physical row of a target file); 0 = not shared.
SHARED_NONE, SHARED_THIRD_PARTY, SHARED_FROM_TARGET, SHARED_HEADER, SHARED_GENERATED = 0, 1, 2, 3, 4
SHARED_NAMES = ("", "third_party", "from_target", "header", "generated")

# Provenance kinds that state where code came from ("inspired by" does not; a bare URL is a
# reference unless it points into the target, rule 1).
_ORIGIN_KINDS = frozenset({"derived_from", "adapted_from", "copied_from", "based_on", "modified_from",
                           "ported_from", "taken_from"})
_GENERATED_RE = re.compile(r"generated by (?:setuptools[-_]scm|versioneer|hatch[-_]vcs|vcs[-_]versioning)",
                           re.IGNORECASE)
_VERSION_FILES = frozenset({"_version.py", "version.py", "__version__.py", "_version.pyi"})
_GENERATED_HEAD_LINES = 5  # generators say so on the first lines
_SPDX_COPYRIGHT_RE = re.compile(r"\s*spdx-filecopyrighttext\s*:", re.IGNORECASE)
_RESERVED_RE = re.compile(r"[\s.,;]*all rights reserved[\s.]*$")
_HOLDER_RE = re.compile(r"^(?:spdx-filecopyrighttext:\s*)?(?:copyright\b|\(c\)|©|\s|[-,:]|(?:19|20)\d\d)*",
                        re.IGNORECASE)


@dataclass(frozen=True)
class Origin:
    """One upstream file's origin: kind, whom it names, and the evidence (a line, or its folder)."""

    kind: str = OWN  # own | third_party | from_target
    name: str = ""  # the third party ("pynvml") or the target's name; "" when own
    evidence: str = ""  # "folder vllm/third_party/", or the marker's text
    line: int = 0  # line of the marker; 0 for a folder

    @property
    def label(self) -> str:
        """``third_party:<name>``, ``from_target`` or ``""`` (the ``shared_origin`` column)."""
        if self.kind == THIRD_PARTY:
            return f"third_party:{self.name}"
        return FROM_TARGET if self.kind == FROM_TARGET else ""

    @property
    def where(self) -> str:
        return f"line {self.line}: {self.evidence}" if self.line else self.evidence


def header_end(f: FileIndex, p: MatchParams) -> int:
    """Last line (1-based) of the file's header."""
    first_def = min((d.start for d in f.definitions), default=f.n_lines + 1)
    return min(first_def - 1, p.origin_header_lines)


def _third_party_name(m: Marker) -> str:
    """The project a marker names by URL or path; "" when it names none."""
    if m.repository:
        name = m.repository.rstrip("/").rsplit("/", 1)[-1]
        return name[:-4] if name.endswith(".git") else name
    path = m.path.replace("\\", "/").strip("/")
    if "/" in path:
        return path.split("/", 1)[0]
    return ""


def holder(text: str) -> str:
    """The holder named by a copyright line ("Copyright (c) 2024, Tri Dao." -> "Tri Dao")."""
    return _HOLDER_RE.sub("", text).strip(" .,;") or text.strip()


def holder_key(name: str) -> str:
    """A holder's name as compared: lower case, without a leading "the" or a trailing "all rights
    reserved" ("The Python Software Foundation." and "Python Software Foundation" are one holder)."""
    key = _RESERVED_RE.sub("", name.lower()).strip(" .,;")
    return key[4:] if key.startswith("the ") else key


def file_origin(f: FileIndex, own: set[str], target: set[str], p: MatchParams,
                own_holders: frozenset[str] = frozenset()) -> Origin:
    """The origin of one upstream file (see the module docstring); ``own``: the names of the
    upstream it belongs to, ``target``: the target's names (none of them also an upstream's),
    ``own_holders``: the upstream's own copyright holders (:func:`holder_key`)."""
    end = header_end(f, p)
    head = [m for m in f.markers if m.line <= end]
    for m in head:
        if m.kind == "spdx" or m.kind == "inspired_by":
            continue
        if target and marker_names_upstream(m, target) and not marker_names_upstream(m, own):
            return Origin(FROM_TARGET, sorted(target)[0], m.text, m.line)
    folders = f.path.split("/")[:-1]
    vendor = p.vendor_folder_names
    for depth, part in enumerate(folders):
        if part.lower() in vendor:
            rest = f.path.split("/")[depth + 1]
            name = posixpath.splitext(rest)[0]
            return Origin(THIRD_PARTY, part if name == "__init__" else name,
                          f"folder {'/'.join(folders[: depth + 1])}/")
    for m in head:
        if m.kind in _ORIGIN_KINDS and not marker_names_upstream(m, own):
            name = _third_party_name(m)
            if name:
                return Origin(THIRD_PARTY, name, m.text, m.line)
    copyrights = [m for m in head if m.kind == "copyright"]
    # A project-wide SPDX-FileCopyrightText line (vLLM's tooling adds "Copyright contributors to
    # the vLLM project" to every file, vendored ones included) does not outweigh a file's own,
    # specific copyright lines: those say whose code it is.
    copyrights = [m for m in copyrights if not _SPDX_COPYRIGHT_RE.match(m.text)] or copyrights
    if copyrights and not any(marker_names_upstream(m, own) or holder_key(holder(m.text)) in own_holders
                              for m in copyrights):
        return Origin(THIRD_PARTY, holder(copyrights[0].text), copyrights[0].text, copyrights[0].line)
    return Origin()


def main_holders(files: Sequence[FileIndex], share: float = 1.0) -> frozenset[str]:
    """The copyright holders (:func:`holder_key`) named in most of these files, and any named in
    at least ``share`` of the files that name a holder; empty when none is."""
    counts: Counter[str] = Counter()
    for f in files:
        named = {holder_key(holder(m.text)) for m in f.markers if m.kind == "copyright"}
        counts.update(named)
    if not counts:
        return frozenset()
    top = max(counts.values())
    speaking = sum(1 for f in files if any(m.kind == "copyright" for m in f.markers))
    return frozenset(h for h, n in counts.items() if n == top or n >= share * speaking)


def upstream_origins(files: Sequence[FileIndex], upstream_of: Sequence[int], own_names: Sequence[set[str]],
                     target_names: set[str], p: MatchParams,
                     licence_holders: Sequence[set[str]] | None = None) -> list[Origin]:
    """The origin of every upstream file; ``upstream_of[k]`` says which upstream file k is in;
    ``licence_holders[u]``: holders named by upstream u's licence files (see :func:`holder`)."""
    every_own = set().union(*own_names) if own_names else set()
    target = {n for n in target_names if n not in every_own}  # a name both carry names neither
    holders = []
    by_package: dict[tuple[int, str], list[FileIndex]] = {}
    for f, k in zip(files, upstream_of, strict=True):
        by_package.setdefault((k, _package(f.path)), []).append(f)
    for u in range(len(own_names)):
        mine = [f for f, k in zip(files, upstream_of, strict=True) if k == u]
        extra = {holder_key(h) for h in licence_holders[u]} if licence_holders else set()
        holders.append(main_holders(mine, p.origin_own_holder_share) | extra)
    # An upstream tree may hold several projects side by side (a collection of releases, a
    # monorepo): the holder most files of a top-level package name is that package's own.
    package_holders = {key: main_holders(group, p.origin_own_holder_share) for key, group in by_package.items()}
    origins = [file_origin(f, own_names[u], target, p, holders[u] | package_holders[(u, _package(f.path))])
               for f, u in zip(files, upstream_of, strict=True)]
    return _folder_majority(files, origins, p)


def _package(path: str) -> str:
    """The top-level package a file belongs to ("" for a module at the top)."""
    return path.split("/", 1)[0] if "/" in path else ""


def _says_origin(f: FileIndex, p: MatchParams) -> bool:
    """The file's header carries a copyright line or an origin marker (it speaks for itself)."""
    end = header_end(f, p)
    return any(m.line <= end and (m.kind == "copyright" or m.kind in _ORIGIN_KINDS) for m in f.markers)


def _folder_majority(files: Sequence[FileIndex], origins: list[Origin], p: MatchParams) -> list[Origin]:
    """Rule 5: silent own files of a folder whose speaking files are mostly third-party."""
    by_folder: dict[str, list[int]] = {}
    for k, f in enumerate(files):
        by_folder.setdefault(posixpath.dirname(f.path), []).append(k)
    out = list(origins)
    for folder, members in sorted(by_folder.items()):
        speaking = [k for k in members if _says_origin(files[k], p) or origins[k].kind != OWN]
        voters = [k for k in speaking if origins[k].kind == THIRD_PARTY and origins[k].line]  # rules 3-4
        if len(voters) < p.origin_folder_min_files or len(voters) < p.origin_folder_share * len(speaking):
            continue
        names = Counter(origins[k].name for k in voters)
        name = min(names, key=lambda n: (-names[n], n))
        evidence = f"folder {folder}/: {len(voters)} of {len(speaking)} files with a header are third-party"
        for k in members:
            if origins[k].kind == OWN and not _says_origin(files[k], p):
                out[k] = Origin(THIRD_PARTY, name, evidence)
    return out


def is_generated(path: str, lines: Sequence[str]) -> bool:
    """A version file a build tool wrote (it says so on its first lines)."""
    return posixpath.basename(path) in _VERSION_FILES and any(
        _GENERATED_RE.search(line) for line in lines[:_GENERATED_HEAD_LINES])


def _reexports(body: Sequence[ast.stmt]) -> bool:
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom | ast.Pass):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # a docstring
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else None)
        if targets is not None and all(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            continue
        if isinstance(node, ast.If) and _reexports(node.body) and _reexports(node.orelse):
            continue  # if TYPE_CHECKING: imports
        if isinstance(node, ast.Try) and _reexports(node.body) and all(_reexports(h.body) for h in node.handlers):
            continue  # try: import x / except ImportError: ...
        return False
    return True


def is_reexport_only(f: FileIndex, lines: Sequence[str]) -> bool:
    """A file whose code only imports and re-exports (imports, ``__all__``, a docstring)."""
    if f.definitions or not (f.kinds == CODE).any():
        return False
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return _reexports(tree.body)


@dataclass
class Shared:
    """Per physical row of one target file: which kind of shared line it is, and where it points."""

    kind: np.ndarray  # uint8: SHARED_* code
    up_file: np.ndarray  # int32: the upstream file, -1 when not shared
    up_row: np.ndarray  # int32: its 0-based row, -1 when not shared


@dataclass
class Gated:
    """The matcher's result after the gate, and what it set apart."""

    result: MatchResult
    shared: list[Shared]
    header_copied: list[int]  # per target file: header lines labelled copied (with code)
    roles: list[str]  # per target file: "generated", "reexport" or ""


def _empty_shared(n: int) -> Shared:
    return Shared(np.zeros(n, np.uint8), np.full(n, -1, np.int32), np.full(n, -1, np.int32))


def gate(result: MatchResult, files: Sequence[FileIndex], read_lines: Callable[[int], list[str]],
         origins: Sequence[Origin], exempt_third_party: Callable[[int, int], bool],
         exempt_from_target: Callable[[int, int], bool]) -> Gated:
    """Apply the origin rules to the matcher's labels (see the module docstring).

    ``exempt_third_party(t, u)``: target file t names the upstream that holds upstream file u;
    ``exempt_from_target(t, u)``: target file t names upstream file u itself.
    """
    out_files: list[FileMatch] = []
    shared: list[Shared] = []
    header_copied: list[int] = []
    roles: list[str] = []
    kept_regions: dict[int, list[Region]] = {}
    for r in result.regions:
        kept_regions.setdefault(r.target_file, []).append(r)
    regions: list[Region] = []
    for t, (f, m) in enumerate(zip(files, result.files, strict=True)):
        m = FileMatch(m.match.copy(), m.up_file.copy(), m.up_row.copy(), m.similarity.copy(), m.region.copy())
        s = _empty_shared(len(m.match))
        labelled = m.match != NONE
        lines: list[str] | None = None
        role = ""
        if labelled.any() and posixpath.basename(f.path) in _VERSION_FILES:
            lines = read_lines(t)
            if is_generated(f.path, lines):
                role = "generated"
                _set_apart(m, s, labelled, SHARED_GENERATED)
        if labelled.any() and not role and not f.definitions:
            lines = lines if lines is not None else read_lines(t)
            role = "reexport" if is_reexport_only(f, lines) else ""
        # third-party and from-target upstream files
        for u in np.unique(m.up_file[m.match != NONE]).tolist():
            origin = origins[u]
            if origin.kind == THIRD_PARTY and not exempt_third_party(t, u):
                _set_apart(m, s, (m.up_file == u) & (m.match != NONE), SHARED_THIRD_PARTY)
            elif origin.kind == FROM_TARGET and not exempt_from_target(t, u):
                _set_apart(m, s, (m.up_file == u) & (m.match != NONE), SHARED_FROM_TARGET)
        # header lines count only inside a region that holds copied code
        prose_copied = (m.match != NONE) & (f.kinds != CODE) & (f.kinds != BLANK)
        n_header_copied = 0
        if prose_copied.any():
            lines = lines if lines is not None else read_lines(t)
            every_header = header_rows(lines, f.kinds)
            headers = every_header & prose_copied
            if headers.any():
                code_regions = set(np.unique(m.region[(m.match != NONE) & (f.kinds == CODE)]).tolist())
                alone = headers & ~np.isin(m.region, list(code_regions))
                holders = np.zeros_like(every_header)
                for r in np.flatnonzero(every_header).tolist():
                    holders[r] = is_holder_line(lines[r])
                if holders.any() and not (holders & (m.match != NONE)).any():
                    alone = headers  # the header names its own holders, none of them copied: its own notice
                _set_apart(m, s, alone, SHARED_HEADER)
                n_header_copied = int((headers & ~alone).sum())
        regions.extend(_relabelled_regions(t, m, kept_regions.get(t, [])))
        out_files.append(m)
        shared.append(s)
        header_copied.append(n_header_copied)
        roles.append(role)
    return Gated(MatchResult(out_files, regions), shared, header_copied, roles)


def _set_apart(m: FileMatch, s: Shared, rows: np.ndarray, kind: int) -> None:
    """Rows become ``none`` in the labels and ``kind`` in the shared record, keeping their source."""
    s.kind[rows] = kind
    s.up_file[rows] = m.up_file[rows]
    s.up_row[rows] = m.up_row[rows]
    m.match[rows] = NONE
    m.up_file[rows] = -1
    m.up_row[rows] = -1
    m.similarity[rows] = 0.0
    m.region[rows] = -1


def _relabelled_regions(t: int, m: FileMatch, regions: list[Region]) -> list[Region]:
    """The file's regions with what is still labelled: spans and counts recomputed, empty ones gone."""
    out = []
    for r in regions:
        rows = np.flatnonzero(m.region == r.region)
        if len(rows) == 0:
            continue
        ups = m.up_row[rows]
        out.append(Region(target_file=t, region=r.region, up_file=r.up_file,
                          target_start=int(rows.min()) + 1, target_end=int(rows.max()) + 1,
                          upstream_start=int(ups.min()) + 1, upstream_end=int(ups.max()) + 1,
                          verbatim=int((m.match[rows] == VERBATIM).sum()),
                          near=int((m.match[rows] == NEAR).sum()), weight=r.weight))
    return out


def shared_headers(target_files: Sequence[FileIndex], up_files: Sequence[FileIndex],
                   main_upstream: Sequence[int]) -> list[tuple[int, int]]:
    """Per target file: (how many of its SPDX and copyright lines an upstream file carries too,
    that upstream file or -1). The file's main source when it carries any of them, else the
    upstream file carrying the most (the first by path on ties)."""
    def texts(f: FileIndex) -> frozenset[str]:
        return frozenset(m.text for m in f.markers if is_attribution(m))

    up_texts = [texts(f) for f in up_files]
    groups: dict[frozenset[str], int] = {}  # distinct set of header texts -> its first file by path
    for k in sorted(range(len(up_files)), key=lambda k: up_files[k].path):
        if up_texts[k]:
            groups.setdefault(up_texts[k], k)
    by_text: dict[str, list[frozenset[str]]] = {}
    for group in groups:
        for text in group:
            by_text.setdefault(text, []).append(group)
    out = []
    for f, main in zip(target_files, main_upstream, strict=True):
        mine = texts(f)
        if not mine:
            out.append((0, -1))
            continue
        if main >= 0 and (mine & up_texts[main]):
            out.append((len(mine & up_texts[main]), main))
            continue
        votes: Counter[frozenset[str]] = Counter()
        for text in mine:
            for group in by_text.get(text, []):
                votes[group] += 1
        if not votes:
            out.append((0, -1))
            continue
        best = max(votes.values())
        first = min((groups[g] for g, v in votes.items() if v == best), key=lambda k: up_files[k].path)
        out.append((best, first))
    return out
