"""``lineage store add``: index releases and append their fingerprints to a store.

Each release is one task (:func:`index_release`): open the source, index it through the index
cache, choose its fingerprints (:mod:`lineage.store.fingerprints`) and write its partition
files. Tasks run here one after the other, or in parallel on Dask workers; only this process
writes the releases table, after each task, so an interrupted run keeps every release it
finished. A release whose source digest (an archive's sha256, a git commit) or tree digest is
already in the store is skipped.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lineage.errors import LineageError
from lineage.index import IndexCache, index_tree
from lineage.settings import DEFAULT_MAX_FILE_BYTES, RunSettings
from lineage.sources import open_source
from lineage.store.dataset import Release, Store, release_id
from lineage.store.fingerprints import tree_fingerprints

ADDED, PRESENT, FAILED = "added", "present", "failed"


@dataclass(frozen=True)
class AddOutcome:
    spec: str
    status: str  # added | present | failed
    digest: str  # the tree digest ("" when the release was skipped before indexing, or failed)
    detail: str  # why it failed or was skipped; for an added release, its size
    release: Release | None = None


def normalise_spec(spec: str) -> str:
    """The spec as stored: local paths made absolute, so a scan can open it from anywhere."""
    spec = spec.strip()
    if spec.startswith("pypi:"):
        return spec
    if os.path.exists(spec):
        return os.path.abspath(spec)
    if "@" in spec:
        repo, ref = spec.rsplit("@", 1)
        if repo and os.path.isdir(repo):
            return f"{os.path.abspath(repo)}@{ref}"
    return spec


def read_spec_list(path: Path) -> list[str]:
    """Specs from ``--from-file``: one per line (a line starting with ``#`` is a comment), or a JSON manifest
    ``{"releases": [{"name", "version", "sha256"}, ...]}`` of pinned PyPI releases."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LineageError(f"--from-file {path}: {exc.strerror or exc}") from None
    if path.suffix == ".json":
        import json

        shape = 'expected {"releases": [{"name": ..., "version": ..., "sha256": ...}, ...]}'
        try:
            entries = json.loads(text)["releases"]
            return [f"pypi:{e['name']}=={e['version']}#sha256={e['sha256']}" for e in entries]
        except ValueError as exc:
            raise LineageError(f"--from-file {path}: not JSON ({exc})") from None
        except KeyError as exc:
            where = "the top level" if exc.args and exc.args[0] == "releases" else "a release entry"
            raise LineageError(f"--from-file {path}: not a releases manifest: {where} has no key "
                               f"{exc.args[0]!r} ({shape})") from None
        except TypeError:
            raise LineageError(f"--from-file {path}: not a releases manifest ({shape})") from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def index_release(spec: str, store_root: str, cache_dir: str, use_cache: bool, present_sources: frozenset[str],
                  present: frozenset[str], jobs: int, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> AddOutcome:
    """One release into the store (runs in this process or on a Dask worker)."""
    store = Store.open(Path(store_root))
    root = Path(cache_dir)
    try:
        with open_source(spec, root) as source:
            if source.info.digest and source.info.digest in present_sources:
                return AddOutcome(spec, PRESENT, "", f"source {source.info.digest} is in the store")
            tree = index_tree(source, IndexCache(root if use_cache else None), jobs, max_file_bytes)
    except LineageError as exc:
        return AddOutcome(spec, FAILED, "", str(exc))
    if tree.tree_digest in present:
        return AddOutcome(spec, PRESENT, tree.tree_digest, "its tree digest is in the store")
    try:  # reads the files' lines, which a cached archive's tree reads only now (TreeBytes)
        fps = tree_fingerprints(tree, store.match_rules)
    except LineageError as exc:
        return AddOutcome(spec, FAILED, "", str(exc))
    store.write_fingerprints(tree.tree_digest, fps)
    release = Release(rid=release_id(tree.tree_digest), digest=tree.tree_digest, spec=spec,
                      label=tree.info.label, source_digest=tree.info.digest,
                      licence=tree.licence.declared if tree.licence else "", files=len(tree.files),
                      skipped_files=len(tree.skipped), fingerprints=int(len(fps)))
    return AddOutcome(spec, ADDED, tree.tree_digest, f"{len(tree.files)} files, {len(fps):,} fingerprints", release)


def add_releases(store: Store, specs: Sequence[str], *, client: Any = None, settings: RunSettings | None = None,
                 progress: Callable[[AddOutcome], None] | None = None) -> list[AddOutcome]:
    """Add every spec (in order; duplicates once); with a Dask ``client``, index on its workers.
    ``settings``: the cache folder, whether to use the index cache, and the workers per release
    (without Dask); ``progress`` receives each release's outcome as it is known."""
    settings = settings or RunSettings()
    wanted = list(dict.fromkeys(normalise_spec(s) for s in specs if s.strip()))
    root = str(settings.cache_root.resolve())
    use_cache, jobs = settings.use_cache, settings.jobs
    outcomes: dict[str, AddOutcome] = {}
    with store.writer():
        releases = store.releases()

        def record(outcome: AddOutcome) -> None:
            if outcome.status == ADDED and any(r.digest == outcome.digest for r in releases):
                outcome = AddOutcome(outcome.spec, PRESENT, outcome.digest, "its tree digest is in the store")
            if outcome.status == ADDED and outcome.release is not None:
                releases.append(outcome.release)
                store.write_releases(releases)
            outcomes[outcome.spec] = outcome
            if progress is not None:
                progress(outcome)

        if client is None:
            for spec in wanted:
                record(index_release(spec, str(store.root), root, use_cache,
                                     frozenset(r.source_digest for r in releases if r.source_digest),
                                     frozenset(r.digest for r in releases), jobs or 0, settings.max_file_bytes))
        else:
            from distributed import as_completed

            futures = client.map(index_release, wanted, store_root=str(store.root), cache_dir=root,
                                 use_cache=use_cache, jobs=1, max_file_bytes=settings.max_file_bytes, pure=False,
                                 present_sources=frozenset(r.source_digest for r in releases if r.source_digest),
                                 present=frozenset(r.digest for r in releases))
            for future in as_completed(futures):
                record(future.result())
    return [outcomes[s] for s in wanted]
