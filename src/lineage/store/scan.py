"""``lineage scan``: which stored releases a target's code comes from, then the line-by-line compare.

1. The target is indexed and fingerprinted under the store's seed rules (only the rules about a
   line itself: :func:`lineage.store.fingerprints.tree_fingerprints` with ``release=False``).
2. Lookup, one partition at a time (:func:`lookup_partition`, DuckDB over the partition's
   Parquet files, embedded, no server; with a Dask client, a dataframe join partition by
   partition, :mod:`lineage.store.join`): for each
   release, how many of the target's fingerprints it holds, grouped by *n*, the number of
   *projects* holding each (:func:`project_of`; the versions of one project are one holder). A
   fingerprint held by more than ``common_max_projects`` projects is an idiom and is dropped.
   The counts are integers, so the partitions add up exactly, in any order. Beside them, per
   release, its *version-only* lines: fingerprints it holds that no other stored release of its
   project holds (``version_only_lines`` in candidates.csv: why one version of a project ranks
   above another, user37 round). Holders were counted
   by release before (user37 round): two stored versions of a project split each of its lines'
   credit (rich 13.7.1 and 13.7.0 scored about half of rich's lines each, pip 24.2's scan), and a
   project with more than 32 stored versions lost every line common to them as an idiom.
3. Rank: a release's score is the sum over its shared fingerprints of 1/n (a line shared by
   three projects gives each of their releases a third), summed exactly (:func:`math.fsum`); it ranks only with
   ``rank_min_lines`` distinct shared fingerprints and a score of ``rank_min_score``. Ties go to
   more distinct lines, then the spec. Licence headers, generic signatures and short lines are
   never fingerprints, so a release that shares only those never ranks.
4. The upstreams of a normal :func:`lineage.api.compare` are the best-ranked release of each of
   the ``top`` best-ranked projects (:func:`compared_releases`): another stored version of a
   project already chosen is an alternative to it, not a second upstream, so it takes no slot
   (pip 24.2 against a store holding rich 13.7.1 and 13.7.0 compared both rich releases and no
   third project; sglang 0.4.1 against three vLLM releases and transformers compared the three
   vLLMs and left transformers, its other upstream, out). A project is the release's label (its
   PEP 503 name for a PyPI release or archive, as ``compare`` labels it).
5. The compare judges the nomination: per compared release, the target lines it finds copied
   from it (``copied_lines``). Shared lines are counted one by one, and a line is known to be an
   idiom only once more than ``common_max_projects`` projects hold it, so in a small store a
   target that copies nothing ranks releases on scattered idioms; the matcher, which wants
   regions, finds 0 lines copied, and the scan says so (fresh-eyes round 140).

A stored release of the target's own project (a name of
:func:`lineage.index.project.own_names`: its label, metadata names, ``--target-name``) or with
the target's tree digest is the target or its history, not an upstream: it is left out of the
ranking and named in ``scan.json`` (``own_releases``). Before, requests 2.32.3 scanned against a
store holding it ranked itself first and was compared with itself (every line "copied").
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lineage.errors import LineageError
from lineage.index import IndexCache, index_tree
from lineage.match.params import MatchParams
from lineage.settings import RunSettings
from lineage.sources import Source, open_source
from lineage.store.dataset import Release, Store, StoreDamaged
from lineage.store.fingerprints import tree_fingerprints
from lineage.store.params import StoreParams

SCAN_FORMAT = "lineage.scan"
# Change log of scan.json: 1: first version. 2: each candidate's project; the upstreams are one
# release per project; own_releases (the target's own project's releases, never ranked);
# holders counted by project (common_max_projects, was common_max_releases). 3: each candidate's
# version_only_lines. 4: copied_lines, per compared release the target lines the compare finds
# copied from it.
SCAN_VERSION = 4
CANDIDATE_COLUMNS = ("rank", "release", "project", "digest", "score", "distinct_lines", "version_only_lines")


@dataclass(frozen=True)
class Candidate:
    rank: int
    release: str  # the spec as stored
    project: str  # the project the release is a version of (compared_releases: one per project)
    digest: str
    score: float
    distinct_lines: int
    # of distinct_lines, those no other stored release of the project holds: what sets this
    # version apart from its project's others (all of distinct_lines when it is the only one)
    version_only_lines: int


@dataclass(frozen=True)
class Lookup:
    """What the lookup found, per release id: ``held``, {n: how many of the target's
    fingerprints it holds that n projects hold} (idioms dropped); ``version_only``, how many of
    those no other stored release of its project holds. Integers: the partitions add up exactly."""

    held: dict[int, dict[int, int]]
    version_only: dict[int, int]

    @classmethod
    def of_rows(cls, rows: Sequence[tuple[int, int, int, int]]) -> Lookup:
        """Summed from (rid, n, count, version-only count) rows, in any order."""
        held: dict[int, dict[int, int]] = {}
        only: dict[int, int] = {}
        for rid, n, c, u in rows:
            by_n = held.setdefault(int(rid), {})
            by_n[int(n)] = by_n.get(int(n), 0) + int(c)
            only[int(rid)] = only.get(int(rid), 0) + int(u)
        return cls(held, only)


def project_ids(releases: Sequence[Release]) -> dict[int, int]:
    """Release id -> a number for its project (:func:`project_of`), the same in every lookup."""
    names = sorted({project_of(r) for r in releases})
    number = {name: k for k, name in enumerate(names)}
    return {r.rid: number[project_of(r)] for r in releases}


def lookup_partition(files: Sequence[str], fps: np.ndarray, max_projects: int, owners: dict[int, int],
                     con: Any = None) -> list[tuple[int, int, int, int]]:
    """(rid, n, count, version-only): how many of ``fps`` release ``rid`` holds that ``n``
    projects hold, and how many of those no other release of its project holds (``owners``:
    release id -> project number, :func:`project_ids`; a release not in it holds nothing).
    ``con``: a DuckDB connection to reuse (opening one costs more than a small query)."""
    if not len(fps) or not files:
        return []
    import duckdb
    import pyarrow as pa

    own = con is None
    con = duckdb.connect() if own else con  # in memory: no server, no database file
    try:
        con.register("target", pa.table({"fp": np.asarray(fps, np.int64)}))
        con.register("owner", pa.table({"rid": np.fromiter(owners, np.int64, len(owners)),
                                        "pid": np.fromiter(owners.values(), np.int64, len(owners))}))
        rows = con.execute(
            """
            WITH hits AS (SELECT DISTINCT s.fp, s.rid FROM read_parquet($files) AS s
                          SEMI JOIN target AS t ON s.fp = t.fp),
                 owned AS (SELECT h.fp, h.rid, o.pid FROM hits AS h JOIN owner AS o ON h.rid = o.rid),
                 held AS (SELECT fp, count(DISTINCT pid) AS n FROM owned GROUP BY fp),
                 versions AS (SELECT fp, pid, count(*) AS v FROM owned GROUP BY fp, pid)
            SELECT h.rid, d.n, count(*) AS c, count(*) FILTER (WHERE w.v = 1) AS u
            FROM owned AS h JOIN held AS d ON h.fp = d.fp JOIN versions AS w ON h.fp = w.fp AND h.pid = w.pid
            WHERE d.n <= $max_projects GROUP BY h.rid, d.n ORDER BY h.rid, d.n
            """, {"files": list(files), "max_projects": max_projects}).fetchall()
        con.unregister("target")
        con.unregister("owner")
    finally:
        if own:
            con.close()
    return [(int(r), int(n), int(c), int(u)) for r, n, c, u in rows]


def lookup(store: Store, releases: list[Release], fps: np.ndarray, client: Any = None) -> Lookup:
    """The :class:`Lookup` over all partitions: in process with DuckDB, or with a client as a
    Dask dataframe join (:mod:`lineage.store.join`); the same integers either way."""
    import duckdb

    files = store.partition_files(releases)
    store.check_files(files)  # a damaged file named in one line, not DuckDB's or Arrow's traceback
    store.check_complete(releases, files)  # a lost file: figures of part of the store, silently
    owners = project_ids(releases)
    if client is not None:
        from lineage.store.join import lookup_dataframe

        return lookup_dataframe(store, files, fps, owners, client)
    prefixes = store.prefix_of(fps)
    names = store.partitions
    jobs = [(files[names[p]], fps[prefixes == p]) for p in range(len(names)) if names[p] in files]
    limit = store.params.common_max_projects
    try:
        with duckdb.connect() as con:
            parts = [lookup_partition(f, part, limit, owners, con) for f, part in jobs if len(part)]
    except duckdb.Error as exc:  # damage inside a file whose footer is whole
        raise StoreDamaged(f"store {store.root}: cannot read its fingerprint files: "
                           f"{str(exc).strip().splitlines()[0]}") from None
    return Lookup.of_rows([row for part in parts for row in part])


def rank(releases: list[Release], counts: Lookup, params: StoreParams) -> list[Candidate]:
    by_rid = {r.rid: r for r in releases}
    scored = []
    for rid, by_n in counts.held.items():
        release = by_rid.get(rid)
        if release is None:
            continue
        lines = sum(by_n.values())
        score = round(math.fsum(c / n for n, c in by_n.items()), 6)
        if lines >= params.rank_min_lines and score >= params.rank_min_score:
            scored.append((release, score, lines))
    scored.sort(key=lambda x: (-x[1], -x[2], x[0].spec, x[0].digest))
    return [Candidate(k + 1, r.spec, project_of(r), r.digest, score, lines, counts.version_only.get(r.rid, 0))
            for k, (r, score, lines) in enumerate(scored)]


def project_of(release: Release) -> str:
    """The project a stored release is a version of: its label, PEP 503 normalised (so that a
    directory labelled ``Foo_Bar`` and the archive ``foo-bar`` group together)."""
    from packaging.utils import canonicalize_name

    return str(canonicalize_name(release.label))


def own_projects(source: Source, target_names: Sequence[str] | None) -> set[str]:
    """The target's own project names, PEP 503 normalised as :func:`project_of`'s."""
    from packaging.utils import canonicalize_name

    from lineage.index.project import own_names

    return {str(canonicalize_name(n)) for n in own_names(source, target_names)}


def compared_releases(candidates: Sequence[Candidate], top: int) -> list[str]:
    """The specs to compare with: in rank order, the best-ranked release of each of the first
    ``top`` projects. A target copies a project from one version of it, so a lower-ranked version
    of a project already chosen (it shares mostly the same lines, each credited to both) would
    only split that project's matches and push another project out of the K slots."""
    chosen: dict[str, str] = {}
    for c in candidates:
        if len(chosen) >= top:
            break
        chosen.setdefault(c.project, c.release)
    return list(chosen.values())


def candidates_csv(candidates: Sequence[Candidate]) -> bytes:
    from lineage.report.tables import guarded_cell

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CANDIDATE_COLUMNS)
    for c in candidates:
        writer.writerow([c.rank, guarded_cell(c.release), guarded_cell(c.project), c.digest, f"{c.score:.6f}",
                         c.distinct_lines, c.version_only_lines])
    return buf.getvalue().encode("utf-8")


@dataclass
class ScanResult:
    target_spec: str
    target_digest: str
    target_fingerprints: int
    candidates: list[Candidate]
    upstreams: list[str]  # the specs compared
    own_releases: list[str]  # stored releases of the target's own project, left out of the ranking
    store: dict[str, object]
    params: StoreParams
    comparison: Any = None  # lineage.api.Comparison of the target with the upstreams, if any
    # per compared release (the upstreams' order), the target lines the compare finds copied from
    # it: the matcher's verdict on the nomination (0: what they share is scattered lines, idioms a
    # store of few projects cannot tell apart, common_max_projects)
    copied_lines: dict[str, int] = field(default_factory=dict)
    locations: list[str] = field(default_factory=list)  # local sources and the store: --out may not touch them

    def scan_json(self, csv_bytes: bytes) -> dict[str, object]:
        return {
            "format": SCAN_FORMAT,
            "version": SCAN_VERSION,
            "target": {"spec": self.target_spec, "digest": self.target_digest,
                       "fingerprints": self.target_fingerprints},
            "store": self.store,
            "params": self.params.to_dict(),
            "upstreams": self.upstreams,
            "copied_lines": self.copied_lines,
            "own_releases": self.own_releases,
            "candidates": [asdict(c) for c in self.candidates],
            "candidates_sha256": hashlib.sha256(csv_bytes).hexdigest(),
            "report": self.comparison is not None,
        }

    def write(self, out: Path, html: bool = True, formats: Sequence[str] | None = None) -> list[Path]:
        """candidates.csv, scan.json and, when releases ranked, the compare report, whole or not at all."""
        from lineage.report.outdir import atomic_out_dir

        with atomic_out_dir(out, self.locations) as fresh:
            # The report first: it replaces the (still empty) fresh folder whole.
            written = [] if self.comparison is None else self.comparison.write(fresh, html=html, formats=formats)
            data = candidates_csv(self.candidates)
            (fresh / "candidates.csv").write_bytes(data)
            (fresh / "scan.json").write_text(json.dumps(self.scan_json(data), indent=2, sort_keys=True) + "\n",
                                             encoding="utf-8")
            written += [fresh / "candidates.csv", fresh / "scan.json"]
        return [out / p.relative_to(fresh) for p in written]


def scan(target: str, store: Store, *, top: int | None = None, match_params: MatchParams | None = None,
         client: Any = None, settings: RunSettings | None = None,
         target_names: Sequence[str] | None = None) -> ScanResult:
    """Rank the store's releases for ``target`` and compare it with the top ones (``settings``:
    how to index and compare, as :func:`lineage.api.compare` takes them)."""
    import dataclasses

    from lineage.api import compare

    params = store.params if top is None else dataclasses.replace(store.params, top=top)
    releases = store.releases()
    if not releases:
        raise LineageError(f"--store {store.root}: holds no releases (lineage store add)")
    settings = settings or RunSettings()
    with open_source(target, settings.cache_root) as source:
        tree = index_tree(source, IndexCache(settings.store_root), settings.jobs, settings.max_file_bytes,
                          settings.progress)
        own = own_projects(source, target_names)
    fps = tree_fingerprints(tree, store.match_rules, release=False)
    # the target's own releases still hold their fingerprints (a line they share with another
    # release is that much less distinctive of it); they are only never candidates
    mine = [r for r in releases if r.digest == tree.tree_digest or project_of(r) in own]
    others = [r for r in releases if r not in mine]
    candidates = rank(others, lookup(store, releases, fps, client), params)
    upstreams = compared_releases(candidates, params.top)
    comparison, copied = None, {}
    if upstreams:
        comparison = compare(target, upstreams, params=match_params, settings=settings, target_names=target_names)
        copied = copied_by_release(comparison, upstreams)
    summary = store.summary(releases)  # the files were checked by the lookup: not read again
    return ScanResult(target, tree.tree_digest, int(len(fps)), candidates, upstreams, sorted(r.spec for r in mine),
                      {"path": str(store.root.resolve()), **summary}, params, comparison, copied,
                      [tree.info.location, str(store.root)])


def copied_by_release(comparison: Any, upstreams: Sequence[str]) -> dict[str, int]:
    """Per compared spec, the target lines ``comparison`` finds copied from it (its report's
    ``per_upstream`` figure; the compare labels its upstreams in the order they were given)."""
    per = comparison.per_upstream
    return {spec: int(per.get(label, {}).get("lines", 0))
            for spec, label in zip(upstreams, comparison.upstream_names, strict=True)}
