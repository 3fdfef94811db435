"""The Python API: what the CLI and notebooks call.

    from lineage.api import compare
    result = compare("path/to/target", ["pypi:vllm==0.32.0"])
    result.files.sort_values("verbatim_lines", ascending=False).head()
    result.write("out/")

``lineage.compare_and_write.compare_and_write`` is compare-then-write through the whole-result
cache (what the CLI runs); it imports this module only when the cache misses.

The pipeline, one package per stage: :mod:`lineage.sources` -> :mod:`lineage.index` (with its
cache, :mod:`lineage.index.store`) -> :mod:`lineage.match` -> :mod:`lineage.results` (the tables
and their conclusions) -> :mod:`lineage.report` (one module per output format).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from lineage import results
from lineage.errors import LineageError
from lineage.file_labels import FileLabels
from lineage.index import CODE, FileIndex, IndexCache, TreeIndex, index_tree, is_python_path
from lineage.index.project import package_roots, same_project, stated_reuse, top_level, upstream_names
from lineage.index.vendoring import (
    folder_markers,
    licensed_folder_markers,
    module_markers,
    package_paths,
    pinned_upstreams,
    top_modules,
    upstream_vendor_markers,
    vendor_markers,
    with_markers,
)
from lineage.licences.notices import organisation
from lineage.markers import Marker, marker_names_upstream, mentions
from lineage.markers.paths import PathsByName, TopLevelDefiners, names_target_module, resolve_marker_path
from lineage.markers.shared_package import in_shared_package, names_shared_package_only, shared_package_names
from lineage.match import MatchParams, MatchResult, MatchWorkers, same_paths
from lineage.match.gate import SHARED_NONE, Gated, gate, marker_scope, shared_headers
from lineage.match.holders import holder, holder_key, joint_holder_name, main_holders, stated_persons
from lineage.match.origin import (
    OWN,
    THIRD_PARTY,
    Origin,
    header_end,
    origin_parts,
    vendored_paths,
    vendored_root,
)
from lineage.match.records import MatchEntry
from lineage.match.regions import report_regions
from lineage.match.renames import folder_votes, renamed_upstream_paths, renames_of
from lineage.match.store import code_fingerprint
from lineage.results.obligations import with_declared_or_later
from lineage.results.schema import empty as empty_table
from lineage.results.schema import typed
from lineage.results.tables import (
    UpstreamFile,
    build_functions,
    build_lines,
    build_origins,
    build_regions,
    files_frame,
    indexed_file_rows,
    names_holder,
    pick_marker,
)
from lineage.settings import DEFAULT_MATCH_CONTEXTS, RunSettings
from lineage.side_cache import cached_origins, cached_places, store_places
from lineage.sources import Source, checked_upstreams, open_source, source_spec
from lineage.sources.base import require_python


class Comparison(results.Comparison):
    """What :func:`compare` returns: a :class:`lineage.results.Comparison` that can also write
    its reports (the reporters themselves take the plain one, so they never import the API)."""

    def summary(self) -> dict[str, object]:
        """The content of summary.json."""
        from lineage.report.summary import summary_dict  # lazy: the attachment writers are slow to import

        return summary_dict(self)

    def write(self, out_dir: str | Path, html: bool = True, formats: Sequence[str] | None = None,
              csv_cache: Path | None = None, jobs: int = 1,
              on_written: Callable[[Path, dict[str, tuple[int, str]]], None] | None = None) -> list[Path]:
        """Write every report into ``out_dir``. ``csv_cache`` (only for tables nobody edited since
        :func:`compare` built them), ``jobs`` and ``on_written``: see
        :func:`lineage.report.write_reports`."""
        from lineage.report import ATTACHMENTS, write_reports

        return write_reports(self, Path(out_dir), html=html, formats=tuple(ATTACHMENTS) if formats is None else formats,
                             csv_cache=csv_cache, jobs=jobs, on_written=on_written)


def vendored_upstreams(target: str, settings: RunSettings | None = None,
                       target_names: Sequence[str] | None = None) -> list[str]:
    """The PyPI releases the target's vendoring records pin (``pypi:NAME==VERSION``, sorted; see
    :mod:`lineage.index.vendoring`): the upstreams that compare every vendored package with the
    release it says it is. What :func:`lineage.index.vendoring.pinned_releases` leaves out
    (no valid pin, the target's own project, an installed environment, a fixture) is logged."""
    from lineage.index.project import own_names
    from lineage.index.vendoring import pinned_releases, read_vendor_records

    settings = settings or RunSettings()
    with open_source(target, settings.cache_root) as source:
        paths = [p for p in source.paths() if is_python_path(p)]
        specs, left_out = pinned_releases(read_vendor_records(source), paths, own_names(source, target_names))
    if left_out:
        settings.log(f"vendoring records left out: {'; '.join(left_out)}")
    return specs


@dataclasses.dataclass
class MarkerList:
    """What :func:`markers` found: one row per marker (``target_path`` and the
    :class:`lineage.markers.Marker` fields, files in index order, markers in line order) and how
    many Python files the tree holds. ``frame`` is the same rows as a DataFrame."""

    rows: list[dict[str, object]]
    python_files: int

    @property
    def frame(self) -> pd.DataFrame:
        columns = ["target_path", *(f.name for f in dataclasses.fields(Marker))]
        return pd.DataFrame(self.rows, columns=columns)

    @property
    def marked_files(self) -> int:
        return len({r["target_path"] for r in self.rows})


def markers(target: str | os.PathLike[str], names: Sequence[str] = (), include_attribution: bool = False,
            settings: RunSettings | None = None) -> MarkerList:
    """The provenance markers of a codebase (``lineage markers``): 'Derived from', 'Adapted from',
    'Copied from ...' phrases and upstream URLs in its comments and docstrings, and the files its
    vendoring records cover (kind ``vendored``, line 0). With ``names``, only the markers that make
    a file marked for an upstream of those names in a report (copyright lines naming its authors
    included); without, copyright and SPDX lines only with ``include_attribution``."""
    from lineage.markers import is_attribution

    settings = settings or RunSettings()
    with open_source(source_spec(target), settings.cache_root) as source:
        tree = index_tree(source, IndexCache(settings.store_root), settings.jobs, progress=settings.progress)
    wanted = {n.lower() for n in names}
    # Without an upstream to read its top-level packages from, a record covers its RECORD's
    # files or the package of its declared name: pip's "setuptools==..." record does not reach
    # its pkg_resources here, as it does in a comparison against setuptools.
    vendored = vendor_markers(tree.vendoring, [f.path for f in tree.files],
                              [(wanted, {n.replace("-", "_") for n in wanted})] if wanted else None)
    rows: list[dict[str, object]] = []
    for f in tree.files:
        for m in [*f.markers, *vendored.get(f.path, [])]:
            if wanted and not marker_names_upstream(m, wanted):
                continue  # SPDX lines name no project
            if not wanted and not include_attribution and is_attribution(m):
                continue
            rows.append({"target_path": f.path, **dataclasses.asdict(m)})
    return MarkerList(rows, len(tree.files))


def names_target_only(marker: Marker, target_names: Iterable[str], own_names: Sequence[set[str]]) -> bool:
    """Whether a provenance marker names the target project itself and no upstream: it points at
    one of the target's own files, whatever upstream file shares that path, so it names no
    upstream file. vLLM 0.32's ``nano_nemotron_vl.py``, "Adapted from
    https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/internvl.py", named
    by those trailing folders sglang 0.5.23's ``models/internvl.py``, a file sglang took from vLLM,
    and its 8 shared lines counted as copied from sglang."""
    return marker_names_upstream(marker, target_names) and not any(
        marker_names_upstream(marker, names) for names in own_names)


def _without_own_module_markers(target: TreeIndex, up_tops: set[str], up_paths: set[str],
                                by_name: dict[str, list[str]],
                                defined: Mapping[str, Sequence[tuple[str, int]]],
                                own_names: Sequence[set[str]] = ()) -> TreeIndex:
    """``target`` without the provenance markers naming its own modules under a package name it
    shares with an upstream (:func:`lineage.markers.paths.names_target_module`), and those of its
    files inside such a package naming an upstream only by a shared package's name
    (:mod:`lineage.markers.shared_package`; ``own_names``: each upstream's names): they name no
    upstream, whatever the shared name says."""
    shared = top_modules(target) & up_tops
    if not shared:
        return target
    paths = {f.path for f in target.files}
    shared_names = shared_package_names(shared)
    drop = {f.path: [m for m in f.markers if names_target_module(
        m, paths, shared, resolve_marker_path(m, up_paths, by_name, defined)) or (
        in_shared_package(f.path, shared) and names_shared_package_only(m, shared_names, own_names))]
        for f in target.files}
    if not any(drop.values()):
        return target
    return dataclasses.replace(target, files=[dataclasses.replace(
        f, markers=[m for m in f.markers if m not in drop[f.path]]) if drop[f.path] else f for f in target.files])


def compare(target: str | os.PathLike[str], upstreams: Sequence[str | os.PathLike[str]], *,
            params: MatchParams | None = None, settings: RunSettings | None = None,
            target_names: Sequence[str] | None = None,
            opener: Callable[[str, Path], Source] = open_source, allow_empty: bool = False,
            read: Sequence[dict[str, bytes]] | None = None) -> Comparison:
    """Compare a target source with one or more upstream sources (the first is the primary).

    Sources are directories, archives (a ``pathlib.Path`` too), ``REPO@REF`` or
    ``pypi:NAME==VERSION``; see :func:`lineage.sources.open_source`; ``upstreams`` is a list of
    them, at least one. ``settings`` says how to run (cache, workers, file size
    limit, progress; :class:`lineage.settings.RunSettings`, default: all defaults, silent).
    ``target_names`` replaces the names the target is known by (default: its label, packages and
    metadata; see :mod:`lineage.match.origin`). Raises :class:`lineage.errors.LineageError` on bad
    input, a target or upstream without Python files included unless ``allow_empty``. ``opener`` opens a
    spec (``lineage reproduce`` passes one that reopens each input as recorded, digests checked).
    ``read``: per source (the target, then each upstream), files already read from it (path ->
    bytes), indexed instead of reading them again (see :func:`lineage.index.tree.index_tree`).
    """
    target, upstreams = source_spec(target), checked_upstreams(upstreams, "compare")
    params = params or MatchParams()
    settings = settings or RunSettings()
    if target_names is not None and any(not str(n).strip() for n in target_names):
        raise LineageError("--target-name may not be empty")
    root = settings.cache_root
    cache = IndexCache(settings.store_root, settings.index_packs, settings.index_pack_rewrite_after)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        target_source = stack.enter_context(opener(target, root))
        up_sources = [stack.enter_context(opener(spec, root)) for spec in upstreams]
        timings["open"] = time.perf_counter() - started
        up_trees = []
        already = list(read) if read is not None else [{} for _ in range(1 + len(up_sources))]
        for number, source in enumerate(up_sources, start=1):
            settings.log(f"reading upstream {source.info.label} ({source.info.spec})")
            up_trees.append(index_tree(source, cache, settings.jobs, settings.max_file_bytes, settings.progress,
                                       read=already[number]))
            if not allow_empty:
                require_python(source.info.spec, len(up_trees[-1].files) + len(up_trees[-1].skipped),
                               up_trees[-1].other_files)
        settings.log(f"reading target {target_source.info.label} ({target_source.info.spec})")
        target_tree = index_tree(target_source, cache, settings.jobs, settings.max_file_bytes, settings.progress,
                                 read=already[0])
        if not allow_empty:  # a target without Python files is as likely a wrong path
            require_python(target_source.info.spec, len(target_tree.files) + len(target_tree.skipped),
                           target_tree.other_files, role="target")
    timings["index"] = time.perf_counter() - started - timings["open"]
    comparison = compare_trees(target_tree, up_trees, params, progress=settings.progress,
                               cache_root=settings.store_root, target_names=target_names,
                               workers=MatchWorkers.of(settings), reuse_tables=settings.reuse_tables,
                               match_contexts=settings.match_contexts)
    comparison.timings = timings | comparison.timings
    comparison.options = {"jobs": settings.jobs or 0, "cache": str(root) if settings.use_cache else "",
                          "max_file_bytes": settings.max_file_bytes, "target_names": list(target_names or [])}
    return comparison


def match_context(upstreams: Sequence[TreeIndex], labels: Sequence[str], params: MatchParams,
                  vendored: dict[str, list[Marker]] | None = None, pinned: Sequence[int] = (),
                  roots: frozenset[str] = frozenset(), tops: frozenset[str] = frozenset(),
                  unheld: Sequence[set[str]] = (), own_notice: Sequence[str] = ()) -> str:
    """Digest of everything a target file's labels depend on besides the file itself:
    ``vendored`` holds the markers the target's vendoring records give its files
    (:func:`lineage.index.vendoring.vendor_markers`: only records naming an upstream, texts
    without a line number) and its folders' names (:func:`lineage.index.vendoring.folder_markers`),
    which a file's own bytes do not show; ``pinned`` the upstream each
    target file's record pins (:func:`lineage.index.vendoring.pinned_upstreams`, which also reads
    the upstreams' versions); ``roots`` which of src/ and lib/ are packages of the target
    (:func:`lineage.index.project.package_roots`: a file's top package, for the import test);
    ``tops`` the target tree's top-level names (:func:`lineage.index.project.top_level`: which
    of its packages stands where an upstream's did, for the same test); ``unheld`` per upstream
    the author names it shares with the target that mark no file (:func:`unheld_shared_authors`:
    the target's metadata decides them); ``own_notice`` the target's root licence files' copyright
    lines that a file repeating them does not count as markers (:func:`target_notice`: the
    target's licence files decide which of its files are marked, as its metadata does)."""
    parts: dict[str, object] = {
        "code": code_fingerprint(),
        "params": params.to_dict(),
        "upstreams": [[label, tree.tree_digest] for label, tree in zip(labels, upstreams, strict=True)],
    }
    if vendored:  # absent when there are none: the keys of every other comparison stay as they were
        parts["vendored"] = sorted([path, m.text, m.path] for path, found in vendored.items() for m in found)
    if any(k >= 0 for k in pinned):
        parts["pinned"] = list(pinned)
    if roots:
        parts["target_package_roots"] = sorted(roots)
    if tops:
        parts["target_tops"] = sorted(tops)
    if any(unheld):
        parts["unheld_authors"] = [sorted(names) for names in unheld]
    if own_notice:
        parts["target_notice"] = list(own_notice)
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def unheld_shared_authors(target: TreeIndex, upstream: TreeIndex) -> set[str]:
    """The upstream's author names (lower case, as :func:`upstream_names` gives them) that the
    target declares as its own authors too and that no copyright line of the upstream names (its
    files' or its licence files'), unless both are releases of one project: such a name does not
    stand for the upstream. A copyright line naming it is the target's own claim, not a credit:
    ssh 1.8.0 wrote "Copyright (C) 2011 Jeff Forcier" over paramiko's "Copyright (C) 2003-2007
    Robey Pointer"; Jeff Forcier is the author both releases' metadata declare, and 58 of ssh's
    files counted as marked for paramiko 1.8.0 (none for 1.7.7.1, whose author is Robey Pointer)
    while their obligations said paramiko's copyright was missing from them. An author who does
    hold the upstream's copyright keeps marking (pypdf's "Copyright (c) 2006, Mathieu Fenniak",
    PyPDF2's holder and both projects' author). Holding it means being the line's one holder (with
    "and others" or "Inc." at most: :func:`~lineage.match.holders.stated_persons`), not one of
    several: iniconfig 1.0.0's "(C) Ronny Pfannschmidt, Holger Krekel -- MIT licensed" names two
    authors of py 1.8.1, whose own ``__init__.py``, ``apipkg.py`` and ``_xmlgen.py`` say "(c) Holger
    Krekel and others", py's notice, not iniconfig's: read as held, the name marked them for
    iniconfig. A line keeping the joint holder whole still marks (:func:`joint_author_holders`)."""
    if same_project(target, upstream):
        return set()
    shared = {a.lower() for a in upstream.project.authors} & {a.lower() for a in target.project.authors}
    if not shared:
        return set()
    held = upstream.stated_copyrights
    return {name for name in shared if not any(_holds_alone(text, name) for text in held)}


def _holds_alone(line: str, name: str) -> bool:
    """Whether the copyright ``line`` names the author ``name`` as its one holder: every person it
    names is that author (:func:`~lineage.match.holders.stated_persons`)."""
    persons = stated_persons(line)
    return mentions(line, name) and bool(persons) and all(mentions(person, name) for person in persons)


def joint_author_holders(target: TreeIndex, upstream: TreeIndex) -> set[str]:
    """The upstream's joint holders (lower case, without years or a licence clause) that name an
    author both projects declare among other persons (:func:`unheld_shared_authors` drops the
    author's name alone): iniconfig 1.0.0's "ronny pfannschmidt, holger krekel", which a copy of its
    module keeping "(C) Ronny Pfannschmidt, Holger Krekel" names whole, py's own "(c) Holger Krekel
    and others" not."""
    unheld = unheld_shared_authors(target, upstream)
    if not unheld:
        return set()
    out = set()
    for line in upstream.stated_copyrights:
        if any(mentions(line, name) for name in unheld) and len(stated_persons(line)) > 1:
            name = joint_holder_name(line).lower()
            out.add(name)
    return out - {""}


def licence_holders(target: TreeIndex, upstream: TreeIndex) -> set[str]:
    """The holders (lower case) the upstream's root licence and NOTICE files name that its own
    files name too (:func:`~lineage.match.holders.main_holders`), as names a copyright line may use
    for it: tenacity 9.0.0's files keep "Copyright 2013-2014 Ray Holder", the holder of retrying
    1.3.4's NOTICE and of its retrying.py, whose metadata names another author. A holder only the
    licence text names is the licence's, not the project's: typing_extensions 4.12.2's LICENSE is
    the PSF's, whose "Python Software Foundation" would have marked future 1.0.0's 22 files
    carrying CPython's copyright for it. A copyright line of the upstream's own description
    names its holder as the project's too (:attr:`~lineage.index.project.ProjectInfo.copyrights`):
    PySocks 1.7.1's modules name no one, its README credits "(C) 2006 Dan-Haim", its LICENSE's
    holder, and httplib2 0.22.0's ``socks.py`` keeps "Copyright 2006 Dan-Haim". Not for another
    release of the target's own project, nor a holder the target's own root licence files name
    (the target's own claim, :func:`unheld_shared_authors`), nor one of the organisation of the
    target's own metadata authors (an author whose name begins with it, as
    :func:`lineage.results.obligations.own_organisation` reads them: Hugging Face's other projects,
    optimum's "HuggingFace Inc. Special Ops Team", against transformers). Holders are compared by
    organisation (:func:`~lineage.licences.notices.organisation`): transformers 5.16.1's LICENSE
    names "The Hugging Face team", its files "The HuggingFace Team" and "the HuggingFace Inc. team"."""
    if same_project(target, upstream) or upstream.licence is None:
        return set()
    own = {organisation(holder_key(holder(c))) for lf in target.licence.files if not lf.folder
           for c in lf.copyrights} if target.licence else set()
    authors = {org for a in target.project.authors if (org := organisation(holder_key(a)))}
    named_in_files = main_holders(upstream.files) | {holder_key(holder(c)) for c in upstream.project.copyrights}
    in_files = {organisation(key) for key in named_in_files} - {""}
    named = {holder(c) for lf in upstream.licence.files if not lf.folder and not lf.included_code
             for c in lf.copyrights}
    return {name.lower() for name in named if (org := organisation(holder_key(name))) in in_files
            and org not in own and not any(a.startswith(org) for a in authors)} - {""}


def target_notice(target: TreeIndex, upstreams: Sequence[TreeIndex], target_names: Sequence[str] = ()) -> list[str]:
    """The copyright lines of the target's root licence files, its project notice, which a file
    repeating it whole states for the project (:func:`lineage.results.tables.without_own_notice`),
    when it names a holder no upstream's copyright line names (its files' or licence files'):
    celery's LICENSE names Asif Saif Uddin, whom kombu's does not. A notice all of whose holders
    an upstream holds too cannot tell the project's notice from a credit kept from that upstream
    (pypdf's "Mathieu Fenniak", PyPDF2's holder): none then. And a line naming a holder of an
    upstream the target's description says it took code from (:func:`stated_reuse`) is that
    credit, not the project's notice: pysnmp-lextudio 6.1.2 ("a fork of Ilya Etingof's project")
    keeps Etingof's line beside LeXtudio's in its LICENSE.rst and in 7 files, which then counted
    as unmarked while the 108 files carrying Etingof's line alone were marked for pysnmp 4.4.12.
    So is a line of an upstream's author the target does not declare (:func:`upstream_author_lines`)."""
    notice = [c for lf in target.licence.files if not lf.folder for c in lf.copyrights] if target.licence else []
    held = [line for tree in upstreams for line in tree.stated_copyrights]
    if not any(not names_holder(line, held) for line in notice):
        return []
    credited = [line for tree in upstreams if stated_reuse(target.project, target_names, tree.project, tree.info.label)
                for line in tree.stated_copyrights]
    credited += [line for tree in upstreams for line in upstream_author_lines(target, tree)]
    return [line for line in notice if not names_holder(line, credited)] if credited else notice


def upstream_author_lines(target: TreeIndex, upstream: TreeIndex) -> list[str]:
    """The upstream's stated copyright lines naming an author its metadata declares and the
    target's does not: in the target's notice such a line is the credit a fork kept for the code it
    took, not its project's claim. pathlib2 2.3.7's LICENSE.rst and ``__init__.py`` both name
    Matthias Troffaes (its author) and "Antoine Pitrou and contributors" (pathlib 1.0.1's author
    and holder), so the file, 62 % copied from pathlib, was listed unmarked. An author both
    declare keeps the line the project's own (celery's and kombu's Ask Solem)."""
    if same_project(target, upstream):
        return []
    own = {a.lower() for a in target.project.authors}
    authors = [a for a in upstream.project.authors if a.lower() not in own]
    return [line for line in upstream.stated_copyrights if any(mentions(line, a) for a in authors)]


def compare_trees(target: TreeIndex, upstreams: Sequence[TreeIndex], params: MatchParams,
                  progress: Callable[[str], None] | None = None, cache_root: Path | None = None,
                  figures_only: bool = False,
                  match_memo: dict[tuple[str, str, str], MatchEntry] | None = None,
                  target_names: Sequence[str] | None = None, workers: MatchWorkers | None = None,
                  reuse_tables: bool = False, match_contexts: int = DEFAULT_MATCH_CONTEXTS,
                  file_rows_memo: dict[tuple[str, str, str], tuple[dict[str, object], str | None,
                                                                   tuple[str, ...]]] | None = None) -> Comparison:
    """Match already indexed trees and build the tables.

    With ``cache_root``, each target file's labels are cached (see :class:`MatchCache`): an
    unchanged target file is not matched again, and when no file needs matching the upstream
    arrays are never even built. ``figures_only`` builds just the files table (what the headline
    needs); lines, functions and regions stay empty. ``match_memo`` keeps each file's match
    entry (:class:`lineage.match.records.MatchEntry`) in memory between calls (``history``),
    keyed by (match context, digest, path) (:func:`match_context`).
    ``workers``: how many processes match the files neither cache holds, and from how many such
    files it pays (:class:`lineage.match.workers.MatchWorkers`, e.g. ``MatchWorkers.of(settings)``;
    default: this process only). The labels are the same either way. ``reuse_tables`` (with
    ``cache_root``, not with ``figures_only`` or ``match_memo``): the last tables built against
    the same upstreams are kept, and when few target files changed only those are matched,
    gated and built (:mod:`lineage.results.reuse`); the tables are the same.
    ``file_rows_memo`` (with ``figures_only``; ``history``): each indexed file's files-table row,
    kept in memory between calls under the context :mod:`lineage.results.reuse` keys its rows on,
    with its vote and renamed paths, so that a file no commit changed is neither looked up, gated
    nor built again; the table is the same. ``match_contexts``: how many match cache contexts
    are kept (``RunSettings.match_contexts``).

    The folder renames (:mod:`lineage.match.renames`) are learnt from every target file's vote
    first (cached files' from their entries or rows, the others' from their fresh runs), and
    every cached entry or row is checked on the renamed upstream paths it was made with: a run
    with any of these caches gives the tables of a run without them, byte for byte.
    """
    started = time.perf_counter()
    labels = _unique_labels([u.info.label for u in upstreams],
                            [str(u.info.details.get("version", "")) for u in upstreams])
    # An upstream's own vendoring records mark the files they cover: its vendored packages are
    # third-party code (lineage.match.origin, rule 2).
    upstreams = [with_markers(tree, upstream_vendor_markers(tree)) for tree in upstreams]
    # and so do its folders that hold a licence file of another licence than the release's
    # (lineage.index.vendoring.licensed_folder_markers: mypy's typeshed/)
    if params.origin_licensed_folders:
        upstreams = [with_markers(tree, licensed_folder_markers(
            tree, params.vendor_folder_names,
            {f.path for f in tree.files if any(m.kind == "vendored" for m in f.markers)})) for tree in upstreams]
    up_files: list[UpstreamFile] = []
    up_indexes = []
    up_of: list[int] = []
    for number, (label, tree) in enumerate(zip(labels, upstreams, strict=True)):
        for f in tree.files:
            up_files.append(UpstreamFile(label, f.path))
            up_indexes.append(f)
            up_of.append(number)
    own_names = [upstream_names(tree) for tree in upstreams]
    unheld = [unheld_shared_authors(target, tree) if params.marking_shared_author_held else set()
              for tree in upstreams]
    own_names = [own - dropped for own, dropped in zip(own_names, unheld, strict=True)]
    if params.marking_shared_author_held:  # a joint holder naming such an author, named whole, still marks
        own_names = [own | joint_author_holders(target, tree) for own, tree in zip(own_names, upstreams, strict=True)]
    # the holders the upstream's own licence and NOTICE files name are its authors too
    own_names = [own | licence_holders(target, tree) for own, tree in zip(own_names, upstreams, strict=True)]
    names: set[str] = set().union(*own_names)
    # A file its tree's vendoring records cover carries their markers from here on, as if written
    # in it: in the target, those of records naming an upstream (in an upstream, every record's:
    # above).
    up_tops = [top_modules(tree) for tree in upstreams]  # each upstream's own packages and modules
    up_package_paths = [package_paths(tree, tops) for tree, tops in zip(upstreams, up_tops, strict=True)]
    vendored = vendor_markers(target.vendoring, [f.path for f in target.files],
                              [(own, tops) for own, tops in zip(own_names, up_tops, strict=True)])
    target = with_markers(target, vendored)
    placed: dict[str, list[Marker]] = {}
    if params.marking_vendored_folder:  # failing a record, a folder named after the upstream marks
        target_paths = [f.path for f in target.files]
        layouts = [(tree.project.name or label, tops, frozenset(f.path for f in tree.files))
                   for label, tree, tops in zip(labels, upstreams, up_tops, strict=True)]
        placed = folder_markers(target_paths, layouts, vendored,
                                declared=[tree.project.name for tree in upstreams if tree.project.name])
        # a single-module upstream vendored as one file, named after it, in a vendoring folder
        placed |= module_markers(target_paths, layouts, params.vendor_folder_names, [*vendored, *placed])
        target = with_markers(target, placed)
    # Upstream paths named by each target file's provenance markers, to break ties in pairing.
    by_name = PathsByName(u.path for u in up_files)
    up_path_set = {u.path for u in up_files}
    defined = TopLevelDefiners(up_indexes)  # a dotted name's package attribute (resolve_marker_path)
    target = _without_own_module_markers(target, set().union(*up_tops), up_path_set, by_name, defined, own_names)
    marker_paths: list[str] = []
    preferred: list[set[str]] = []
    named_upstream_files: list[set[str]] = []  # those of preferred a marker not the target's own names
    attributed: list[bool] = []  # the file's markers name an upstream
    own_notice = target_notice(target, upstreams, target_names or ()) if params.marking_own_notice_apart else []
    own_target = sorted({n.strip().lower() for n in target_names if n.strip()} if target_names
                        else upstream_names(target))
    # What a file's markers say depends on its markers alone here, and many files carry the same
    # ones (a project's header, none at all): read once per distinct list (a changed run's 4,719
    # sglang files have about 700)
    said: dict[tuple[Marker, ...], tuple[bool, str, set[str], set[str]]] = {}
    # the fields resolve_marker_path reads -> the place; kept between runs (lineage.side_cache)
    up_trees_files = [tree.files for tree in upstreams]
    places = cached_places(cache_root, labels, up_trees_files)
    known = len(places)

    def place(m: Marker) -> str:
        key = (m.path, m.symbol, m.repository, m.text)
        if key not in places:
            places[key] = resolve_marker_path(m, up_path_set, by_name, defined)
        return places[key]

    for f in target.files:
        key = tuple(f.markers)
        if key not in said:
            marker, _ = pick_marker(f.markers, names, own_notice)
            resolved = place(marker) if marker else ""
            named = [(m, place(m)) for m in f.markers if m.path]
            said[key] = (marker is not None, resolved, {p for _, p in named if p},
                         {p for m, p in named if p and not names_target_only(m, own_target, own_names)})
        is_attributed, resolved, named_paths, upstream_named = said[key]
        attributed.append(is_attributed)
        marker_paths.append(resolved)
        preferred.append(set(named_paths))
        named_upstream_files.append(set(upstream_named))
    if len(places) > known:
        store_places(cache_root, labels, up_trees_files, places)
    # Another release of the target's own project carries the target's names too, whatever its
    # older metadata declares: jinja2 2.10's "(c) 2017 by the Jinja Team" is its own code, not code
    # taken from jinja2 3.1.4, whose repository (pallets/jinja) gave it the name "jinja".
    origin_names = [own | set(own_target) if same_project(target, tree) else own
                    for own, tree in zip(own_names, upstreams, strict=True)]
    # kept between runs (lineage.side_cache): the same origins either way
    origins = cached_origins(cache_root, labels, [tree.files for tree in upstreams], up_of, origin_names,
                             set(own_target),
                             params, [{holder(c) for c in tree.licence.copyrights} if tree.licence else set()
                                      for tree in upstreams])
    # a GNU licence read from its text alone, which every notice of the release's own files states
    # with "or later" (lineage.results.obligations.declared_or_later): after the folder markers
    # above, which compare a folder's licence file with the release's licence as its files declare
    # it, and after the origins, since another project's files speak for that project: an
    # upstream's files whose origin is not its own, the target's in a vendored folder or marked as
    # a vendored copy of an upstream
    target = with_declared_or_later(target, params.licence_head_lines, params.licence_or_later_min_share,
                                    vendored_paths(target.files, params.vendor_folder_names))
    upstreams = [with_declared_or_later(tree, params.licence_head_lines, params.licence_or_later_min_share,
                                        {f.path for f, u, o in zip(up_indexes, up_of, origins, strict=True)
                                         if u == number and o.kind != OWN})
                 for number, tree in enumerate(upstreams)]

    pinned = pinned_upstreams(target, upstreams, own_names)
    target_paths = [f.path for f in target.files] + [p for p, _ in target.skipped]
    roots = package_roots(target_paths)
    tops = frozenset(top.name for top in top_level(target_paths))
    # a folder marker rests on the folder's other files too (how many stand at upstream paths), so
    # it is context as a record's markers are: a file whose folder changed is matched afresh
    given = {path: [*vendored.get(path, []), *placed.get(path, [])] for path in sorted({*vendored, *placed})}
    context = match_context(upstreams, labels, params, given, pinned, roots, tops, unheld, own_notice)
    n_files = len(target.files)
    seconds = {"match": 0.0}
    matching = FileLabels(target, upstreams, labels, up_of, params, preferred, attributed, cache_root, context,
                          match_memo if match_memo is not None else {}, pinned, roots, match_contexts, tops)

    # The folder renames (lineage.match.renames) are learnt from every target file's vote, before
    # any per-file cache is used: an unchanged file's vote from the table cache or the files-table
    # memo, another cached file's from its entry, the others' from their fresh runs (steps 1 to 3,
    # kept for matching them). A cached entry or row is then used only if it was made with the
    # renamed upstream paths the current renames give its file.
    store = stored = scope = None  # scope: the table cache's context, for the files-table memo too
    use_store = reuse_tables and cache_root is not None and not figures_only and match_memo is None
    if use_store or (figures_only and file_rows_memo is not None):
        from lineage.results.reuse import TableStore, stored_votes, tables_context

        scope = tables_context(context, names, own_names, origins)
        if use_store:
            store = TableStore(cache_root, scope)
            stored = store.get()
            scope = None
    known: dict[int, str | None] = {}
    if stored is not None:
        known = stored_votes(target.files, stored)
    elif scope is not None:
        for t, f in enumerate(target.files):
            if (row := file_rows_memo.get((scope, f.digest, f.path))) is not None:  # type: ignore[union-attr]
                known[t] = row[1]
    unknown = []
    for t in range(n_files):
        if t not in known:
            if (entry := matching.entry(t)) is not None:
                known[t] = entry.vote
            else:
                unknown.append(t)
    if unknown:
        matching.prepare(unknown, workers)
        known.update((t, matching.vote(t)) for t in unknown)
    votes = [known[t] for t in range(n_files)]
    # a path that is some upstream's own code still votes (two upstreams may both hold it)
    own_paths = {u.path for u, o in zip(up_files, origins, strict=True) if o.kind == OWN}
    not_own = {u.path for u in up_files} - own_paths
    rename_votes = folder_votes([f.path for f in target.files], votes, params, not_own, attributed)
    renames = renames_of(rename_votes)
    renamed = [renamed_upstream_paths(f.path, renames, up_path_set, weak_pairs=params.judges_weak_pairs)
               for f in target.files]

    def gated_of(todo: list[int]) -> tuple[list[FileIndex], Gated]:
        """Target files ``todo`` (in that order) and their labels after the gate."""
        per_file = matching.labels_of(todo, renames, renamed, progress, workers, len(up_files))
        files = [target.files[t] for t in todo]
        result = MatchResult(files=[found.match for found in per_file],
                             regions=[dataclasses.replace(r, target_file=k)
                                      for k, found in enumerate(per_file) for r in found.regions])
        gated = _gate(result, files, target.lines, origins, up_of, up_files, own_names,
                      [named_upstream_files[t] for t in todo], params, [renamed[t] for t in todo], up_package_paths,
                      up_indexes, own_notice)
        seconds["match"] = time.perf_counter() - started  # as before: matching and the gate
        return files, gated

    def tables_of(todo: list[int], with_lines: bool) -> tuple[dict[str, pd.DataFrame], list[dict[str, object]]]:
        """The tables of target files ``todo`` (in that order; files.csv's with every skipped
        file; without ``with_lines`` the files table alone) and their files-table rows."""
        files, gated = gated_of(todo)
        result = gated.result
        rows = indexed_file_rows(files, result, up_files, names, [marker_paths[t] for t in todo], gated,
                                 origins, _header_sharing(files, up_indexes, up_files, result), own_notice)
        out = {"files": files_frame(rows, target.skipped)}
        if not with_lines:
            return out | _no_line_tables(), rows
        return out | {"lines": build_lines(files, result, up_files, gated, origins),
                      "functions": build_functions(files, result, up_indexes, up_files),
                      "regions": build_regions(files, result, up_files)}, rows

    tables = None
    reused = 0
    if stored is not None:
        from lineage.results.reuse import assemble, changed_files

        todo = changed_files(target.files, stored, renamed)
        if todo is not None:
            tables = assemble(target.files, todo, stored, tables_of(todo, True)[0])
            if tables is not None:
                reused = n_files - len(todo)
                if progress is not None:
                    progress(f"tables: the rows of {reused:,} unchanged target files reused")
    if tables is None and scope is not None:
        rows_memo: dict = file_rows_memo  # type: ignore[assignment]
        todo = [t for t, f in enumerate(target.files)
                if (row := rows_memo.get((scope, f.digest, f.path))) is None or row[2] != renamed[t]]
        for t, row in zip(todo, tables_of(todo, False)[1], strict=True):
            rows_memo[(scope, target.files[t].digest, target.files[t].path)] = (row, votes[t], renamed[t])
        rows = [rows_memo[(scope, f.digest, f.path)][0] for f in target.files]
        tables = {"files": files_frame(rows, target.skipped)} | _no_line_tables()
    if tables is None:  # every file's rows built (and any file matched that no cache holds)
        tables = tables_of(list(range(n_files)), not figures_only)[0]
    matching.release()
    keys = None
    if store is not None:
        from lineage.results.reuse import REWRITE_AFTER, row_keys

        keys = row_keys(store.context, target.files, renamed)

        if not reused or n_files - reused > REWRITE_AFTER:
            store.put(target.files, tables, votes, renamed)
    timings = {"match": seconds["match"], "tables": time.perf_counter() - started - seconds["match"]}
    lines = tables["lines"]
    lazy = not isinstance(lines, pd.DataFrame)  # a LinesTable (lineage.results.reuse), read when asked

    def table(name: str) -> pd.DataFrame:  # each column of its type (lineage.results.schema)
        frame = tables[name]
        return typed(frame, name) if len(frame.columns) else empty_table(name)

    return Comparison(target=target, upstreams=list(upstreams), params=params,
                      lines=None if lazy else table("lines"),  # type: ignore[arg-type]
                      files=table("files"), functions=table("functions"), regions=table("regions"),
                      upstream_names=labels, timings=timings,
                      match_cache_hits=matching.hits, match_cache_misses=matching.misses, table_rows_reused=reused,
                      origins=typed(build_origins(origins, up_files), "origins"), target_names=own_target,
                      row_keys=keys, folder_votes=rename_votes,
                      lines_table=lines if lazy else None, paired_lines=tables.get("paired"))  # type: ignore[arg-type]


def _no_line_tables() -> dict[str, pd.DataFrame]:
    """The tables a ``figures_only`` comparison leaves empty."""
    return {name: pd.DataFrame() for name in ("lines", "functions", "regions")}


def _gate(result: MatchResult, files: Sequence[FileIndex], lines_of: Callable[[str], list[str]],
          origins: list[Origin], up_of: list[int], up_files: list[UpstreamFile], own_names: list[set[str]],
          preferred: list[set[str]], params: MatchParams, renamed: Sequence[Sequence[str]],
          up_package_paths: Sequence[frozenset[str]], up_indexes: Sequence[FileIndex] = (),
          own_notice: Sequence[str] = ()) -> Gated:
    """The origin gate (:func:`lineage.match.gate.gate`) with this comparison's exemptions, for
    target files ``files`` (``result``, ``preferred`` and ``renamed``, their upstream paths below
    the tree's folder renames, in their order; ``preferred``: the upstream paths their markers
    name, but for markers naming the target alone, :func:`names_target_only`;
    ``up_package_paths``: each upstream's files inside its own packages,
    :func:`lineage.index.vendoring.package_paths`), and the regions as reported
    (:func:`lineage.match.regions.report_regions`)."""
    names_upstream = [[pick_marker(f.markers, names, own_notice)[0] is not None for names in own_names]
                      for f in files]
    scopes: dict[tuple[int, int], np.ndarray] = {}

    vendor_folders = params.vendor_folder_names

    def vendored(t: int, u: int) -> bool:
        return bool(params.origin_vendored_path_exempts) and vendored_root(files[t].path, up_files[u].path,
                                                                           vendor_folders) is not None

    # A third party that is itself an upstream of this run (a further ``--upstream``) shows which
    # lines of an upstream file taken from it are its own: the others, which the third party does
    # not hold, are the upstream's (vLLM's tensor-parallel rewrite of a model "adapted from
    # transformers"), copies from it like any other (``origin_third_party_lines``). Not for a
    # target file that names the third party and not the upstream: it took its copy from the third
    # party too, so a line the third party's release at hand lacks is another release's (seaborn's
    # and scipy's copies of numpydoc's docscrape.py, both older than numpydoc 1.8.0's re-quoted one).
    by_name = {name.lower(): k for k, names in enumerate(own_names) for name in names}
    held: dict[int, np.ndarray] = {}

    def third_party_forms(k: int) -> np.ndarray:
        if k not in held:
            arrays = [f.h_norm[f.kinds == CODE] for f, of in zip(up_indexes, up_of, strict=True) if of == k]
            held[k] = np.unique(np.concatenate(arrays)) if arrays else np.zeros(0, np.int64)
        return held[k]

    def own_lines(t: int, u: int) -> np.ndarray | bool:
        if not (params.origin_third_party_lines and up_indexes):
            return False
        m = result.files[t]
        rows = np.flatnonzero(m.up_file == u)
        mask = np.zeros(len(m.up_file), bool)
        for held, origin in origin_parts(origins[u], m.up_row[rows]):  # the file's origin or its sections'
            k = by_name.get(origin.name.lower(), -1) if origin.kind == THIRD_PARTY else -1
            if k >= 0 and k != up_of[u] and not (names_upstream[t][k] and not names_upstream[t][up_of[u]]):
                forms = up_indexes[u].h_norm[m.up_row[rows[held]]]
                mask[rows[held]] = ~np.isin(forms, third_party_forms(k))
        return mask

    def third_party_scope(t: int, u: int) -> np.ndarray | bool:
        k = up_of[u]
        own = own_lines(t, u)
        if not names_upstream[t][k]:
            return own
        if (t, k) not in scopes:
            f = files[t]
            naming = [m.line for m in f.markers if m.kind != "spdx" and marker_names_upstream(m, own_names[k])]
            scopes[(t, k)] = marker_scope(f, lines_of(f.path), naming, header_end(f, params),
                                          bool(params.origin_section_class_stop))
        return scopes[(t, k)] | own

    def same_place(t: int, u: int) -> bool:
        # Only a file its own header sets apart (a contributor's copyright, a "borrowed from": a
        # line). One set apart by its folder (a vendored folder, or one most of whose files are a
        # third party's: line 0) is that third party's copy, and so is a target folder standing
        # where it stands (sglang's flash_attn/cute/ below vLLM's third_party/tml_fa4/, a "rename"
        # by its files' votes of the folder both projects vendor).
        # And only inside one of the upstream's own packages: two unrelated projects both have a
        # tests/helpers.py or docs/conf.py, and the same path says nothing of where either came from.
        # (``renamed[t]`` holds the modules a file is a part of behind a mark: no place of theirs)
        path = up_files[u].path
        # (a section a marker sets apart is likewise the file's own statement: lineage.match.origin)
        return (bool(params.origin_same_place_exempts) and (origins[u].line > 0 or bool(origins[u].sections))
                and path in up_package_paths[up_of[u]]
                and (path in same_paths(files[t].path) or path in renamed[t]))

    gated = gate(result, files, lambda t: lines_of(files[t].path), origins,
                 exempt_third_party=third_party_scope,
                 exempt_from_target=lambda t, u: up_files[u].path in preferred[t],
                 generated_head_lines=params.generated_head_lines, vendored=vendored, same_place=same_place)
    # the regions as reported: cut where the fill's labels lie far from their chain, in either file
    # and one where two regions are one stretch in both files (chains that met; not across a line set apart)
    return dataclasses.replace(gated, result=report_regions(gated.result, files, up_indexes, params.region_split_gap,
                                                            params.region_split_jump, bool(params.region_join_abutting),
                                                            [s.kind != SHARED_NONE for s in gated.shared]))


def _header_sharing(files: Sequence[FileIndex], up_indexes: list, up_files: list[UpstreamFile],
                    result: MatchResult) -> list[tuple[int, int]]:
    """Per target file: SPDX/copyright lines shared with an upstream file, and that file (its
    main source first, as files.csv ranks sources)."""
    main = []
    for m in result.files:
        used, counts = np.unique(m.up_file[m.up_file >= 0], return_counts=True)
        ranked = sorted(zip(used.tolist(), counts.tolist(), strict=True),
                        key=lambda kv: (-kv[1], up_files[kv[0]].upstream, up_files[kv[0]].path))
        main.append(ranked[0][0] if ranked else -1)
    return shared_headers(files, up_indexes, main)


def _unique_labels(labels: list[str], versions: Sequence[str] = ()) -> list[str]:
    """One label per upstream: a label several upstreams share (but for case: a release's
    label keeps its archive's capitals, ``PyPDF2`` 1.26.0 beside ``pypdf2`` 3.0.1) takes each
    one's version when they differ (``packaging-24.0``, ``packaging-24.2``), else a number from
    the second on."""
    counts: dict[str, int] = {}
    for label in labels:
        counts[label.lower()] = counts.get(label.lower(), 0) + 1
    named = list(labels)
    for key, n in counts.items():
        mine = [k for k, x in enumerate(labels) if x.lower() == key]
        ours = [versions[k] if k < len(versions) else "" for k in mine]
        if n > 1 and all(ours) and len(set(ours)) == n:
            for k, version in zip(mine, ours, strict=True):
                named[k] = f"{labels[k]}-{version}"
    seen: dict[str, int] = {}
    out = []
    for label in named:
        seen[label.lower()] = seen.get(label.lower(), 0) + 1
        out.append(label if seen[label.lower()] == 1 else f"{label}-{seen[label.lower()]}")
    return out
