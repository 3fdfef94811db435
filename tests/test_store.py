"""The fingerprint store and the scan (lineage.store): idempotence, ranking, end to end, Dask.

Synthetic releases (tests/treegen.py) with known provenance: the target copies two modules of
``truelib`` and one function of ``decoy1``; ``decoy2`` shares only idioms that every release
holds; ``boiler`` shares the target's licence header, its generic method signatures and those
idioms, and nothing else.
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
import treegen
from conftest import script_module

from lineage.cli import main
from lineage.errors import LineageError
from lineage.index import IndexCache, index_tree
from lineage.match.params import MatchParams
from lineage.settings import RunSettings
from lineage.sources import open_source
from lineage.store import Store, StoreParams, add_releases, scan
from lineage.store.fingerprints import tree_fingerprints
from lineage.store.join import divisions
from lineage.store.scan import CANDIDATE_COLUMNS, lookup


def one_job() -> RunSettings:
    """One worker, the default cache folder: made inside each test, after conftest points
    ``$LINEAGE_CACHE_DIR`` at the tests' own folder."""
    return RunSettings(jobs=1)

HEADER = """\
# Copyright 2024 The Example Authors. All rights reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""

# Idioms every release here holds: shared by all, evidence of none.
IDIOMS = """\
import logging
from typing import Any, Optional

logger = logging.getLogger(__name__)


def main_entry(argv: Optional[list] = None) -> Any:
    return run_main(argv or [])


if __name__ == "__main__":
    raise SystemExit(main_entry())
"""

# Short generic method signatures (never fingerprints) around bodies of the release's own.
GENERIC = """\
class Box{k}:
    def __init__(self):
        self.items_{k} = []

    def keys(self):
        return list(self.items_{k}_{k})

    def __len__(self):
        return len(self.items_{k}) + {k}
"""


def _release(seed: int, pkg: str, header: bool = False) -> dict[str, str]:
    files = treegen.gen_upstream(seed=seed, n_modules=3, pkg=pkg).files()
    files[f"{pkg}/common.py"] = IDIOMS
    if header:
        files = {p: HEADER + text for p, text in files.items()}
        files[f"{pkg}/box.py"] = HEADER + GENERIC.format(k=seed)
    return files


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("store-world")
    true = treegen.gen_upstream(seed=101, n_modules=3, pkg="truelib")
    decoy1 = treegen.gen_upstream(seed=202, n_modules=3, pkg="decoyone")
    releases = {
        "truelib": {**true.files(), "truelib/common.py": IDIOMS},
        "decoy1": {**decoy1.files(), "decoyone/common.py": IDIOMS},
        "decoy2": _release(303, "decoytwo"),
        "boiler": _release(404, "boiler", header=True),
    }
    names = treegen.Names(random.Random(5))
    d1 = decoy1.module(0)
    target = {
        "app/one.py": HEADER + treegen.render(treegen.copy_module(true.module(0))),
        "app/two.py": HEADER + treegen.render(treegen.copy_module(true.module(1))),
        "app/mixed.py": HEADER + treegen.render(treegen.copy_def(d1, d1.defs[0]) + treegen.own_code(names, 2)),
        "app/box.py": HEADER + GENERIC.format(k=7),
        "app/common.py": IDIOMS,
        "app/own.py": treegen.render(treegen.own_code(names, 3)),
    }
    out = {name: treegen.write_tree(base / name, files) for name, files in releases.items()}
    out["target"] = treegen.write_tree(base / "target", target)
    out["base"] = base
    return out


def _specs(world: dict[str, Path]) -> list[str]:
    return [str(world[n]) for n in ("decoy2", "boiler", "truelib", "decoy1")]


def _tree_bytes(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_fingerprints_follow_the_matchers_seed_rules(world: dict[str, Path]) -> None:
    """Header lines, generic signatures and short lines are never fingerprints; code is."""
    from lineage.index.normalise import stable_hash

    with open_source(str(world["boiler"])) as source:
        tree = index_tree(source, IndexCache(None), jobs=1)
    fps = set(tree_fingerprints(tree, MatchParams()).tolist())
    box = next(f for f in tree.files if f.path.endswith("box.py"))
    lines = tree.lines(box.path)
    by_text = {line.strip(): int(h) for line, h in zip(lines, box.h_norm, strict=True) if line.strip()}
    assert by_text["# you may not use this file except in compliance with the License."] not in fps
    assert by_text["def keys(self):"] not in fps
    assert by_text["self.items_404 = []"] in fps
    assert stable_hash("x") not in fps  # not a line at all: sanity of the lookup above


def test_add_is_idempotent_by_digest(world: dict[str, Path], tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s", create=True)
    first = add_releases(store, _specs(world), settings=one_job())
    assert [o.status for o in first] == ["added"] * 4
    before = _tree_bytes(tmp_path / "s")
    # Again, plus a copy of truelib at another path (same tree digest): nothing changes.
    copy = treegen.write_tree(world["base"] / "truelib-copy",
                              {str(p.relative_to(world["truelib"])): p.read_text()
                               for p in world["truelib"].rglob("*.py")})
    again = add_releases(store, [*_specs(world), str(copy)], settings=one_job())
    assert [o.status for o in again] == ["present"] * 5
    assert _tree_bytes(tmp_path / "s") == before
    releases = store.releases()
    assert [r.digest for r in releases] == sorted(r.digest for r in releases)
    assert {Path(r.spec).name for r in releases} == {"truelib", "decoy1", "decoy2", "boiler"}
    assert all(r.fingerprints > 0 and r.files > 0 for r in releases)
    info = store.info()
    assert info["releases"] == 4 and info["fingerprints"] == sum(r.fingerprints for r in releases)


def test_info_is_the_summary_with_the_files_counts_in_the_order_store_info_prints(
        world: dict[str, Path], tmp_path: Path) -> None:
    """``Store.info`` takes the summary's fields from ``Store.summary`` (computed there alone):
    the same values, and ``store info --json``'s keys in the order they have always had."""
    store = Store.open(tmp_path / "s", create=True)
    add_releases(store, _specs(world), settings=one_job())
    info, summary = store.info(), store.summary()
    assert list(info) == ["store", "releases", "fingerprints", "python_files", "partitions", "fingerprint_files",
                          "bytes", "index_version", "build", "seed_rules", "damaged", "incomplete", "unlisted_files"]
    assert {key: info[key] for key in summary} == summary and set(summary) < set(info)
    assert summary["releases"] == 4 and summary["fingerprints"] == sum(r.fingerprints for r in store.releases())
    assert info["python_files"] == sum(r.files for r in store.releases())


def test_add_honours_the_file_size_limit(world: dict[str, Path], tmp_path: Path) -> None:
    sizes = sorted(p.stat().st_size for p in world["truelib"].rglob("*.py"))
    limit = sizes[-1] - 1  # the largest file is over it
    store = Store.open(tmp_path / "s", create=True)
    add_releases(store, [str(world["truelib"])], settings=RunSettings(jobs=1, max_file_bytes=limit))
    (small,) = store.releases()
    assert small.skipped_files >= 1 and small.files == len(sizes) - small.skipped_files


def test_bad_spec_is_a_recorded_failure(world: dict[str, Path], tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s", create=True)
    outcomes = add_releases(store, [str(world["base"] / "missing"), str(world["decoy2"])], settings=one_job())
    assert [o.status for o in outcomes] == ["failed", "added"]
    assert "no such file" in outcomes[0].detail
    assert len(store.releases()) == 1


def test_ranking_true_upstream_first_boilerplate_never(world: dict[str, Path], tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s", create=True)
    add_releases(store, _specs(world), settings=one_job())
    result = scan(str(world["target"]), store, top=0, settings=one_job())
    ranked = [Path(c.release).name for c in result.candidates]
    assert ranked == ["truelib", "decoy1"]
    true, decoy = result.candidates
    assert true.score > decoy.score >= store.params.rank_min_score
    assert true.distinct_lines > decoy.distinct_lines >= store.params.rank_min_lines
    # Without the header rule the boilerplate decoy would rank: it shares 13 licence lines.
    with open_source(str(world["boiler"])) as source:
        boiler = index_tree(source, IndexCache(None), jobs=1)
    with open_source(str(world["target"])) as source:
        target = index_tree(source, IndexCache(None), jobs=1)
    header_lines = {h for f in target.files for h, k in zip(f.h_norm, f.kinds, strict=True) if k == 2}
    shared_prose = header_lines & {h for f in boiler.files for h in f.h_norm.tolist()}
    assert len(shared_prose) >= store.params.rank_min_lines
    shared = set(tree_fingerprints(target, MatchParams(), release=False).tolist()) & set(
        tree_fingerprints(boiler, MatchParams()).tolist())
    assert shared and not shared & shared_prose  # only the idioms, which every release holds


def test_thresholds_are_parameters(world: dict[str, Path], tmp_path: Path) -> None:
    """The idioms alone rank every release once the evidence floor is gone and they are not common."""
    store = Store.open(tmp_path / "s", StoreParams(rank_min_lines=1, rank_min_score=0.0), create=True)
    add_releases(store, _specs(world), settings=one_job())
    loose = scan(str(world["target"]), store, top=0, settings=one_job())
    assert {Path(c.release).name for c in loose.candidates} == {"truelib", "decoy1", "decoy2", "boiler"}
    assert loose.candidates[0].release.endswith("truelib")
    strict = Store.open(tmp_path / "s", StoreParams(rank_min_lines=1, rank_min_score=0.0, common_max_projects=3))
    names = {Path(c.release).name for c in scan(str(world["target"]), strict, top=0, settings=one_job()).candidates}
    assert names == {"truelib", "decoy1"}  # the idioms are in all four releases: now too common
    with pytest.raises(LineageError):
        StoreParams(rank_min_lines=0)


def test_scan_end_to_end(world: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = tmp_path / "s"
    assert main(["store", "add", "--store", str(s), *_specs(world), "--jobs", "1", "-q"]) == 0
    listing = tmp_path / "list.txt"
    listing.write_text("# the same releases again\n" + "\n".join(_specs(world)) + "\n")
    assert main(["store", "add", "--store", str(s), "--from-file", str(listing), "-q"]) == 0
    assert "0 added, 4 already present" in capsys.readouterr().out
    assert main(["store", "info", "--store", str(s)]) == 0
    printed = capsys.readouterr().out
    assert "releases: 4" in printed
    listed = [line.split()[0] for line in printed.splitlines() if line.startswith("  ")]
    assert listed == sorted(_specs(world)) and "  tree sha256:" in printed  # directories: no source digest
    out = tmp_path / "out"
    assert main(["scan", str(world["target"]), "--store", str(s), "--out", str(out), "--top", "2",
                 "--no-html", "--formats", "none", "--jobs", "1", "-q"]) == 0
    with open(out / "candidates.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == CANDIDATE_COLUMNS
    assert [Path(r["release"]).name for r in rows] == ["truelib", "decoy1"]
    assert [int(r["rank"]) for r in rows] == [1, 2]
    meta = json.loads((out / "scan.json").read_text())
    assert meta["params"] == StoreParams(top=2).to_dict()
    assert meta["store"]["seed_rules"]["seed_min_tokens"] == MatchParams().seed_min_tokens
    assert meta["candidates_sha256"] == hashlib.sha256((out / "candidates.csv").read_bytes()).hexdigest()
    # The compare against the nominated upstreams: the copied modules are labelled from truelib.
    import pandas as pd

    files = pd.read_csv(out / "files.csv")
    one = files[files["target_path"] == "app/one.py"].iloc[0]
    assert one["verbatim_lines"] > 0 and "truelib" in str(one["upstream"])
    mixed = files[files["target_path"] == "app/mixed.py"].iloc[0]
    assert "decoy1" in str(mixed["upstream"])
    assert json.loads((out / "manifest.json").read_text())["complete"] is True
    # Bad input: one line, exit 2.
    assert main(["scan", str(world["target"]), "--store", str(tmp_path / "nope"), "--out", str(tmp_path / "o2")]) == 2
    assert "nope: no such folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["scan", str(world["target"]), "--store", str(tmp_path / "empty"), "--out", str(tmp_path / "o2")]) == 2
    assert "not a lineage store (no store.json)" in capsys.readouterr().err
    (tmp_path / "afile").write_text("x")
    assert main(["store", "add", "--store", str(tmp_path / "afile"), str(world["decoy2"])]) == 2
    assert "is not a folder" in capsys.readouterr().err
    assert main(["store", "add", "--store", str(tmp_path / "s3")]) == 2
    assert "at least one SPEC" in capsys.readouterr().err


def _target_fps(world: dict[str, Path], store: Store) -> np.ndarray:
    with open_source(str(world["target"]), None) as source:
        tree = index_tree(source, IndexCache(None), 1)
    return tree_fingerprints(tree, store.match_rules, release=False)


def _restored(world: dict[str, Path], root: Path, bits: int) -> Store:
    store = Store.open(root, StoreParams(prefix_bits=bits), create=True)
    add_releases(store, _specs(world), settings=one_job())
    return store


def _twice(store: Store, root: Path) -> Store:
    """A copy of ``store`` whose every row is also in a compacted file."""
    shutil.copytree(store.root, root)
    copy = Store.open(root)
    kept = {Path(f): Path(f).read_bytes() for files in copy.partition_files(copy.releases()).values() for f in files}
    assert copy.compact() > 0
    for path, blob in kept.items():
        path.write_bytes(blob)
    assert all(len(files) > 1 for files in copy.partition_files(copy.releases()).values())
    return copy


def test_divisions_cover_every_fingerprint() -> None:
    assert divisions(0) == (0, (1 << 63) - 1)
    d = divisions(4)
    assert len(d) == 17 and d[1] == 1 << 59 and list(d) == sorted(d)
    store = Store.__new__(Store)
    store.params = StoreParams(prefix_bits=4)
    fps = np.array([0, (1 << 59) - 1, 1 << 59, (1 << 63) - 1], np.int64)
    # Partition p of the store holds exactly the fingerprints of division p.
    assert [int(p) for p in store.prefix_of(fps)] == [0, 0, 1, 15]
    parts = store.prefix_of(fps).tolist()
    assert all(d[p] <= f < d[p + 1] or f == d[-1] for f, p in zip(fps.tolist(), parts, strict=True))


@pytest.mark.parametrize("processes", [False])  # worker processes: the LINEAGE_DASK=local test
def test_dask_gives_the_same_bytes(world: dict[str, Path], tmp_path: Path, processes: bool) -> None:
    from distributed import Client, LocalCluster

    plain = Store.open(tmp_path / "plain", create=True)
    add_releases(plain, _specs(world), settings=one_job())
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=processes, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        dist = Store.open(tmp_path / "dist", create=True)
        outcomes = add_releases(dist, _specs(world), client=client)
        assert [o.status for o in outcomes] == ["added"] * 4
        assert _tree_bytes(tmp_path / "dist") == _tree_bytes(tmp_path / "plain")
        on_dask = scan(str(world["target"]), plain, top=1, client=client, settings=one_job())
        # The dataframe join's counts are the DuckDB lookup's, also with prefix_bits 0 and 1 and
        # with rows held twice (a compacted file beside the files it merged, as after a crash).
        fps = _target_fps(world, plain)
        releases = plain.releases()
        for store in (plain, _restored(world, tmp_path / "p0", 0), _restored(world, tmp_path / "p1", 1),
                      _twice(plain, tmp_path / "twice")):
            here_counts = lookup(store, releases, fps)
            assert here_counts.held and lookup(store, releases, fps, client) == here_counts
    here = scan(str(world["target"]), plain, top=1, settings=one_job())
    here.write(tmp_path / "a", html=False, formats=[])
    on_dask.write(tmp_path / "b", html=False, formats=[])
    for name in ("candidates.csv", "scan.json", "lines.csv", "files.csv", "regions.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert here.candidates and np.isclose(here.candidates[0].score, on_dask.candidates[0].score)


def _versions(world: dict[str, Path], root: Path, n: int) -> list[str]:
    """``n`` older versions of truelib (folders named truelib: one project), each lacking one more
    of its modules than the one before, newest first."""
    files = {str(p.relative_to(world["truelib"])): p.read_text() for p in world["truelib"].rglob("*.py")}
    modules = sorted(k for k in files if k.startswith("truelib/") and k not in ("truelib/__init__.py",
                                                                                "truelib/common.py"))
    out = []
    for k in range(1, n + 1):
        for gone in modules[-k:]:
            files.pop(gone, None)
        out.append(str(treegen.write_tree(root / f"v{k}" / "truelib", files)))
    return out


def test_holders_are_counted_by_project(world: dict[str, Path], tmp_path: Path) -> None:
    """Older versions of truelib in the store change no score of the others' and not truelib's own:
    a line its versions share has one holder, its project (before, each of two versions was
    credited half of it). With common_max_projects 1 truelib's lines held by all its versions stay
    evidence while the idioms that two projects hold are dropped."""
    one = Store.open(tmp_path / "one", create=True)
    add_releases(one, _specs(world), settings=one_job())
    many = Store.open(tmp_path / "many", create=True)
    older = _versions(world, tmp_path, 2)
    add_releases(many, [*_specs(world), *older], settings=one_job())
    alone = {c.release: (c.score, c.distinct_lines) for c in scan(str(world["target"]), one, top=0,
                                                                  settings=one_job()).candidates}
    beside = scan(str(world["target"]), many, top=0, settings=one_job()).candidates
    assert {c.release: (c.score, c.distinct_lines) for c in beside if c.release in alone} == alone
    assert [c.release for c in beside] == [str(world["truelib"]), *older, str(world["decoy1"])]
    strict = Store.open(tmp_path / "many", StoreParams(common_max_projects=1, rank_min_lines=1, rank_min_score=0.0))
    kept = scan(str(world["target"]), strict, top=0, settings=one_job()).candidates
    assert kept[0].release == str(world["truelib"])
    assert kept[0].score == kept[0].distinct_lines  # every kept line has one holder: weighs 1
    assert 0 < kept[0].distinct_lines < alone[str(world["truelib"])][1]  # the shared idioms are gone
    # The Dask join counts projects as DuckDB does (several releases of one project in a partition).
    from distributed import Client, LocalCluster

    fps = _target_fps(world, many)
    releases = many.releases()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        for store in (many, strict):
            assert lookup(store, releases, fps, client) == lookup(store, releases, fps)


def test_top_k_is_one_release_per_project(world: dict[str, Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Another version of a project already compared takes no slot of --top: with the target's
    truelib at two versions and decoy1 in the store, --top 2 compares the better truelib and
    decoy1 (before: both truelibs, and decoy1's copied function went unlabelled)."""
    older = {str(p.relative_to(world["truelib"])): p.read_text() for p in world["truelib"].rglob("*.py")}
    module_one = sorted(k for k in older if k.startswith("truelib/") and k not in (
        "truelib/__init__.py", "truelib/common.py"))[1]
    del older[module_one]  # the older version lacks one of the two modules the target copies
    old = treegen.write_tree(tmp_path / "old" / "truelib", older)
    s = tmp_path / "s"
    assert main(["store", "add", "--store", str(s), str(world["truelib"]), str(old), str(world["decoy1"]),
                 str(world["decoy2"]), "--jobs", "1", "-q"]) == 0
    capsys.readouterr()
    out = tmp_path / "out"
    assert main(["scan", str(world["target"]), "--store", str(s), "--out", str(out), "--top", "2",
                 "--no-html", "--jobs", "1", "-q"]) == 0
    printed = capsys.readouterr().out
    with open(out / "candidates.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["release"], r["project"]) for r in rows] == [
        (str(world["truelib"]), "truelib"), (str(old), "truelib"), (str(world["decoy1"]), "decoy1")]
    meta = json.loads((out / "scan.json").read_text())
    assert meta["upstreams"] == [str(world["truelib"]), str(world["decoy1"])]
    assert [c["project"] for c in meta["candidates"]] == ["truelib", "truelib", "decoy1"]
    assert f"{world['truelib']}: score" in printed and "(compared: " in printed.splitlines()[0]
    assert "(compared" not in printed.splitlines()[1]
    # the compare's verdict on each nomination: the target lines copied from it (summary.json's)
    per = json.loads((out / "summary.json").read_text())["per_upstream"]
    assert meta["copied_lines"] == {str(world["truelib"]): per["truelib"]["lines"],
                                    str(world["decoy1"]): per["decoy1"]["lines"]}
    assert f"(compared: {per['truelib']['lines']:,} lines copied)" in printed.splitlines()[0]
    assert "no line of the target copied" not in printed
    # Why the newer truelib wins: the target lines of the module the older lacks are in it alone;
    # the older holds nothing the newer does not. decoy1, its project's only version: all its own.
    only = {r["release"]: (int(r["version_only_lines"]), int(r["distinct_lines"])) for r in rows}
    assert 0 < only[str(world["truelib"])][0] < only[str(world["truelib"])][1]
    assert only[str(old)][0] == 0
    assert only[str(world["decoy1"])][0] == only[str(world["decoy1"])][1]
    said = f", {only[str(world['truelib'])][0]:,} in no other stored truelib release"
    assert said in printed.splitlines()[0] and "in no other stored" not in printed.splitlines()[2]
    import pandas as pd

    files = pd.read_csv(out / "files.csv")
    mixed = files[files["target_path"] == "app/mixed.py"].iloc[0]
    assert "decoy1" in str(mixed["upstream"])
    # scripts/report_checks.py: every figure agrees, the scan's files with the compare's; the
    # CycloneDX ancestors are written sorted by name (decoy1 before truelib) and paired by bom-ref.
    rc = script_module("report_checks")
    assert {c.name: c.bad for c in rc.check_report(out) if c.bad} == {}
    meta["upstreams"] = meta["upstreams"][::-1]
    (out / "scan.json").write_text(json.dumps(meta))
    assert "scan.json = candidates.csv and the compare's manifest" in {
        c.name for c in rc.check_report(out) if c.bad}
    # The rule itself: rank order, first release of each project, at most ``top`` projects.
    from lineage.store.scan import Candidate, compared_releases

    ranked = [Candidate(k, spec, project, "d", 1.0, 8, 0) for k, (spec, project) in enumerate(
        [("a2", "a"), ("a1", "a"), ("b1", "b"), ("a0", "a"), ("c1", "c")], start=1)]
    assert compared_releases(ranked, 2) == ["a2", "b1"]
    assert compared_releases(ranked, 5) == ["a2", "b1", "c1"]
    assert compared_releases(ranked, 0) == []


def test_the_targets_own_releases_are_never_candidates(world: dict[str, Path], tmp_path: Path) -> None:
    """A stored copy of the target (its tree digest, under another name) and an older release of
    its own project (its label) are the target and its history, not upstreams: left out of the
    ranking and named in scan.json. Before, the target ranked first and was compared with itself."""
    mine = {str(p.relative_to(world["target"])): p.read_text() for p in world["target"].rglob("*.py")}
    copy = treegen.write_tree(tmp_path / "copy" / "appcopy", mine)
    older = treegen.write_tree(tmp_path / "old" / "target", {k: v for k, v in mine.items() if k != "app/two.py"})
    store = Store.open(tmp_path / "s", create=True)
    add_releases(store, [str(copy), str(older), str(world["truelib"]), str(world["decoy1"])], settings=one_job())
    result = scan(str(world["target"]), store, top=3, settings=one_job())
    assert [Path(c.release).name for c in result.candidates] == ["truelib", "decoy1"]
    assert result.own_releases == sorted([str(copy), str(older)])
    assert result.upstreams == [str(world["truelib"]), str(world["decoy1"])]
    result.write(tmp_path / "out", html=False, formats=())
    meta = json.loads((tmp_path / "out" / "scan.json").read_text())
    assert meta["own_releases"] == result.own_releases
    rc = script_module("report_checks")
    assert {c.name: c.bad for c in rc.check_report(tmp_path / "out") if c.bad} == {}
    # --target-name makes another project the target's own
    named = scan(str(world["target"]), store, top=0, settings=one_job(), target_names=["decoy1"])
    assert [Path(c.release).name for c in named.candidates] == ["truelib"]
    assert str(world["decoy1"]) in named.own_releases


def test_scattered_shared_lines_are_said_to_be_no_copy(world: dict[str, Path], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A target holding single lines of truelib, each alone among its own code, ranks truelib in a
    store of few projects (no line is held by more than common_max_projects of them), but the
    compare finds nothing copied: the scan says so, per release and in words (before, "(compared)"
    and the compare's 0 % were all a user saw, fresh-eyes round 140: pyparsing 3.1.2 scanned
    against 14 PyPI releases nominated click, urllib3 and attrs on 34, 23 and 19 idioms)."""
    lines = [line.strip() for p in sorted(world["truelib"].rglob("*.py")) if p.name != "common.py"
             for line in p.read_text().splitlines()]
    # statements that stand alone in a function body of ours
    single = [t for t in dict.fromkeys(lines) if t.count("(") == t.count(")") and t.count("[") == t.count("]")
              and len(t.split()) >= 3 and not t.endswith((":", ",", "\\")) and not t.startswith(
                  ("def ", "class ", "@", "#", '"', "'", "import ", "from ", "return", "raise", "yield"))][:12]
    assert len(single) == 12
    names = treegen.Names(random.Random(11))
    body = []
    for k, text in enumerate(single):
        body += treegen.own_code(names, 1)[:-2] + treegen.new_lines([f"    {text}", "", ""])
        body += treegen.new_lines([f"def spaced_{k}(a, b, c):", f"    return a * {k} + b - c", "", ""])
    target = treegen.write_tree(tmp_path / "scattered", {"scattered/mod.py": treegen.render(body)})
    s = tmp_path / "s"
    assert main(["store", "add", "--store", str(s), str(world["truelib"]), str(world["decoy2"]), "--jobs", "1",
                 "-q"]) == 0
    capsys.readouterr()
    out = tmp_path / "out"
    assert main(["scan", str(target), "--store", str(s), "--out", str(out), "--top", "1", "--no-html",
                 "--formats", "none", "--jobs", "1", "-q", "--store-set", "rank_min_lines=4",
                 "--store-set", "rank_min_score=2"]) == 0
    printed = capsys.readouterr().out
    meta = json.loads((out / "scan.json").read_text())
    assert meta["upstreams"] == [str(world["truelib"])] and meta["candidates"][0]["distinct_lines"] >= 4
    assert meta["copied_lines"] == {str(world["truelib"]): 0}
    assert "(compared: no line copied)" in printed.splitlines()[0]
    assert "the compare finds no line of the target copied from them" in printed
    rc = script_module("report_checks")
    assert {c.name: c.bad for c in rc.check_report(out) if c.bad} == {}


def test_a_release_vendoring_the_target_is_said_to_hold_its_code(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """six 1.16.0 scanned against a store holding urllib3 1.26.18 (which vendors six) ranks urllib3
    and the compare finds nothing copied from it: its copy of six is the target's own code, set
    apart (from_target), not scattered common lines (fresh-eyes round 140)."""
    tiny = treegen.gen_upstream(seed=606, n_modules=2, pkg="tinylib").files()
    host = {**treegen.gen_upstream(seed=707, n_modules=2, pkg="hostlib").files(),
            **{f"hostlib/_vendor/{p}": text for p, text in tiny.items()}}
    target = treegen.write_tree(tmp_path / "tinylib", tiny)
    s = tmp_path / "s"
    assert main(["store", "add", "--store", str(s), str(treegen.write_tree(tmp_path / "hostlib", host)),
                 "--jobs", "1", "-q"]) == 0
    capsys.readouterr()
    out = tmp_path / "out"
    assert main(["scan", str(target), "--store", str(s), "--out", str(out), "--no-html", "--formats", "none",
                 "--jobs", "1", "-q"]) == 0
    printed = capsys.readouterr().out
    shared = json.loads((out / "summary.json").read_text())["shared"]["from_target"]["lines"]
    assert json.loads((out / "scan.json").read_text())["copied_lines"] == {str(tmp_path / "hostlib"): 0}
    assert shared > 0 and f"it sets {shared:,} lines apart as the target's own code they hold" in printed
    assert "scattered" not in printed


def test_scan_with_nothing_ranked_writes_only_the_candidates(world: dict[str, Path], tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s", create=True)
    add_releases(store, [str(world["truelib"]), str(world["decoy1"])], settings=one_job())
    own = treegen.write_tree(tmp_path / "own", {"own/a.py": treegen.render(treegen.own_code(
        treegen.Names(random.Random(77)), 4)), "own/common.py": IDIOMS})
    result = scan(str(own), store, settings=one_job())
    assert result.candidates == [] and result.comparison is None
    result.write(tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["candidates.csv", "scan.json"]
    assert (tmp_path / "out" / "candidates.csv").read_text() == ",".join(CANDIDATE_COLUMNS) + "\n"


def test_cli_dask_from_the_environment(world: dict[str, Path], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """LINEAGE_DASK=local: a LocalCluster of worker processes; the store is the same bytes."""
    assert main(["store", "add", "--store", str(tmp_path / "plain"), *_specs(world), "--jobs", "1", "-q"]) == 0
    monkeypatch.setenv("LINEAGE_DASK", "local")
    assert main(["store", "add", "--store", str(tmp_path / "dist"), *_specs(world), "-q"]) == 0
    assert _tree_bytes(tmp_path / "dist") == _tree_bytes(tmp_path / "plain")


def test_compact_keeps_every_figure(world: dict[str, Path], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    store = Store.open(tmp_path / "s", create=True)
    add_releases(store, _specs(world)[:3], settings=one_job())
    before = scan(str(world["target"]), store, top=0, settings=one_job()).candidates
    assert main(["store", "compact", "--store", str(tmp_path / "s")]) == 0
    assert "merged" in capsys.readouterr().out
    parts = [list(p.iterdir()) for p in (tmp_path / "s" / "fingerprints").iterdir()]
    assert all([f.name for f in files] == ["compacted.parquet"] for files in parts)
    assert scan(str(world["target"]), store, top=0, settings=one_job()).candidates == before
    # A release added after compaction is read from its own files until the next compaction.
    add_releases(store, _specs(world), settings=one_job())
    full = scan(str(world["target"]), store, top=0, settings=one_job()).candidates
    assert [Path(c.release).name for c in full] == ["truelib", "decoy1"]
    assert store.compact() > 0
    assert scan(str(world["target"]), store, top=0, settings=one_job()).candidates == full


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
@pytest.mark.parametrize("which", ["compacted", "release file", "releases table"])
def test_a_damaged_store_file_is_named_in_one_line(world: dict[str, Path], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str], damage: str,
                                                   which: str) -> None:
    """A store file damaged on disk: scan, compact, info and add refuse the store naming it (exit 2,
    one line), where scan gave DuckDB's traceback and info, compact and add said all was well."""
    root = tmp_path / "s"
    store = Store.open(root, create=True)
    add_releases(store, _specs(world)[:2], settings=one_job())
    if which == "compacted":
        store.compact()
    else:
        add_releases(store, _specs(world)[2:3], settings=one_job())  # its own files, beside compacted ones
    if which == "releases table":
        victim = root / "releases.parquet"
    else:
        files = sorted((root / "fingerprints").rglob("*.parquet"))
        victim = next(f for f in files if (f.name == "compacted.parquet") == (which == "compacted"))
    if damage == "garbage":
        victim.write_text("garbage\n")
    else:
        victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    before = victim.read_bytes()
    capsys.readouterr()
    for args in (["scan", str(world["target"]), "--store", str(root), "--out", str(tmp_path / "o"), "--top", "0"],
                 ["store", "compact", "--store", str(root)],
                 ["store", "info", "--store", str(root)],
                 ["store", "info", "--store", str(root), "--json"],
                 ["store", "add", "--store", str(root), str(world["boiler"])]):
        assert main([*args, "--jobs", "1", "-q"] if args[0] != "store" or args[1] == "add" else args) == 2, args
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"lineage: error: damaged store file {victim}"), (args, err)
    assert victim.read_bytes() == before  # compact merged nothing away
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("compacted", [False, True])
def test_a_lost_fingerprint_file_is_refused_in_one_line(world: dict[str, Path], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str], compacted: bool) -> None:
    """A partition's files removed: the releases table still counts their fingerprints. store
    info printed the table's figures and scan ranked on the rest without a word (fresh-eyes round
    140: a store of 14 PyPI releases without prefix=3); now both refuse, naming a short release.
    Rows held twice (a compaction that crashed) are never taken for lost ones."""
    root = tmp_path / "s"
    store = Store.open(root, create=True)
    add_releases(store, _specs(world), settings=one_job())
    if compacted:
        _twice(store, tmp_path / "twice")
        assert main(["store", "info", "--store", str(tmp_path / "twice")]) == 0
        assert "missing" not in capsys.readouterr().out
        store.compact()
    assert main(["store", "info", "--store", str(root)]) == 0
    capsys.readouterr()
    files = store.partition_files(store.releases())
    assert store.stored_rows(files) == {r.rid: r.fingerprints for r in store.releases()}
    shutil.rmtree(root / "fingerprints" / "prefix=3")
    for args in (["scan", str(world["target"]), "--store", str(root), "--out", str(tmp_path / "o"), "--top", "0",
                  "--jobs", "1", "-q"],
                 ["store", "info", "--store", str(root)],
                 ["store", "info", "--store", str(root), "--json"],
                 ["store", "compact", "--store", str(root)]):
        assert main(args) == 2, args
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"lineage: error: store {root}: fingerprint files missing: "), err
        assert err[0].endswith("; build the store again") and "(and 3 more releases)" in err[0]
    assert not (tmp_path / "o").exists()
    info = Store.open(root).info()
    assert {d["release"] for d in info["incomplete"]} == set(_specs(world))  # type: ignore[attr-defined]
    assert all(d["stored"] < d["fingerprints"] for d in info["incomplete"])  # type: ignore[attr-defined]


def test_info_counts_files_of_releases_not_in_the_table(world: dict[str, Path], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Without releases.parquet, info said 0 releases beside the files' megabytes and no more."""
    root = tmp_path / "s"
    add_releases(Store.open(root, create=True), _specs(world)[:2], settings=one_job())
    (root / "releases.parquet").unlink()
    assert main(["store", "info", "--store", str(root)]) == 0
    printed = capsys.readouterr().out
    files = len(list((root / "fingerprints").rglob("*.parquet")))
    assert "releases: 0," in printed and f"{files} fingerprint files of releases not in releases.parquet" in printed


@pytest.mark.parametrize("edit", [
    {"build": {"prefix_bits": "x"}}, {"build": None}, {"build": {}}, {"build": {"prefix_bits": True}},
    {"seed_rules": "x"}, {"seed_rules": {"seed_min_tokens": 3, "no_such_rule": 1}},
])
def test_an_edited_store_json_is_one_line(world: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          edit: dict[str, object]) -> None:
    """store.json's build and seed rules are checked when the store opens: 'x' ended in int()'s
    ValueError, a missing build in a KeyError, a string of rules in an AttributeError."""
    root = tmp_path / "store"
    add_releases(Store.open(root, create=True), _specs(world)[:1],
                 settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    meta = json.loads((root / "store.json").read_text())
    (root / "store.json").write_text(json.dumps({**meta, **edit}))
    capsys.readouterr()
    for argv in (["store", "info", "--store", str(root)],
                 ["scan", str(world["target"]), "--store", str(root), "--out", str(tmp_path / "o"), "-q",
                  "--jobs", "1", "--cache-dir", str(tmp_path / "cache")]):
        assert main(argv) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and "unreadable store.json" in err[0], err


@pytest.mark.parametrize(("text", "said"), [
    ('{"releases": [{"name": "six", "sha256": "00"}]}', "a release entry has no key 'version'"),
    ('{"packages": []}', "the top level has no key 'releases'"),
    ('{"releases": "six"}', 'expected {"releases": [{"name": ..., "version": ..., "sha256": ...}, ...]}'),
    ("{not json", "not JSON"),
])
def test_a_malformed_releases_manifest_is_said_in_words(tmp_path: Path, text: str, said: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    listing = tmp_path / "releases.json"
    listing.write_text(text)
    assert main(["store", "add", "--store", str(tmp_path / "s"), "--from-file", str(listing), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err


def test_a_store_add_that_adds_nothing_leaves_no_store(world: dict[str, Path], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "no-such-release")
    # a folder the command makes: gone again
    assert main(["store", "add", "--store", str(tmp_path / "new"), missing, "--jobs", "1", "-q"]) == 2
    assert not (tmp_path / "new").exists()
    assert "no store made" in capsys.readouterr().out
    # an empty folder the user made: left, empty
    (tmp_path / "empty").mkdir()
    assert main(["store", "add", "--store", str(tmp_path / "empty"), missing, "--jobs", "1", "-q"]) == 2
    assert (tmp_path / "empty").is_dir() and not any((tmp_path / "empty").iterdir())
    # a store that exists keeps what it holds when a later add fails
    s = tmp_path / "kept"
    assert main(["store", "add", "--store", str(s), str(world["decoy2"]), "--jobs", "1", "-q"]) == 0
    assert main(["store", "add", "--store", str(s), missing, "--jobs", "1", "-q"]) == 2
    assert Store.open(s).info()["releases"] == 1
