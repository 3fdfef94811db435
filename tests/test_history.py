"""Tests for lineage.history: a small target repository built with GitPython in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from lineage.cli import main
from lineage.errors import LineageError
from lineage.history import HISTORY_COLUMNS, parse_range, plot_history, run_history, select_commits
from lineage.history.plot import _tick_positions
from lineage.match import MatchParams
from lineage.settings import RunSettings

git = pytest.importorskip("git")

# --------------------------------------------------------------------------- fixtures

UPSTREAM_CORE = '''\
"""Core helpers of the upstream project."""

import math


def rolling_checksum(payload, window=16, modulus=65521):
    low, high = 1, 0
    checksums = []
    for position, value in enumerate(payload):
        low = (low + value) % modulus
        high = (high + low) % modulus
        if position >= window:
            checksums.append((high << 16) | low)
    return checksums


def weighted_geometric_mean(values, weights):
    total_weight = sum(weights)
    if total_weight <= 0:
        raise ValueError("weights must sum to a positive number")
    log_sum = sum(w * math.log(v) for v, w in zip(values, weights))
    return math.exp(log_sum / total_weight)


def interleave_buckets(buckets, stride=3):
    ordered = []
    cursor = {name: 0 for name in buckets}
    while any(cursor[name] < len(items) for name, items in buckets.items()):
        for name, items in sorted(buckets.items()):
            start = cursor[name]
            ordered.extend(items[start : start + stride])
            cursor[name] = start + stride
    return ordered
'''

UPSTREAM_UTIL = '''\
def describe_histogram(counts, width=40):
    peak = max(counts.values()) if counts else 0
    rows = []
    for label, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        bar = "#" * (width * count // peak if peak else 0)
        rows.append(f"{label:>12} {bar} {count}")
    return "\\n".join(rows)
'''

TARGET_MAIN_V1 = '''\
"""The target application's own code."""


def greet(name):
    return f"hello, {name}"
'''

TARGET_MAIN_V2 = '''\
"""The target application's own code."""

from app.vendored import rolling_checksum


def greet(name):
    return f"hello, {name}"


def checksum_of(text):
    return rolling_checksum(text.encode("utf-8"))[-1:]
'''

# The three upstream functions, copied with a header of the target's own.
VENDORED_COPY = "# Helpers for the app.\n\nimport math\n\n\n" + UPSTREAM_CORE.split("import math\n\n\n", 1)[1]
MARKER = "# Adapted from upstream (upstream/core.py), licensed Apache-2.0.\n"
VENDORED_EDITED = (MARKER + VENDORED_COPY).replace("low, high", "lo, hi").replace(
    "low = (low + value)", "lo = (lo + value)").replace("high = (high + low)", "hi = (hi + lo)").replace(
    "(high << 16) | low", "(hi << 16) | lo")
# Deletion keeps only the first function.
VENDORED_TRIMMED = VENDORED_EDITED.split("\n\ndef weighted_geometric_mean", 1)[0] + "\n"


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def upstream(tmp_path: Path) -> Path:
    root = tmp_path / "upstream"
    write(root, {"upstream/__init__.py": '"""The upstream package."""\n',
                 "upstream/core.py": UPSTREAM_CORE, "upstream/util.py": UPSTREAM_UTIL})
    return root


@pytest.fixture
def target(tmp_path: Path) -> dict[str, Any]:
    """Commits: own code; copy; add marker (tag v0.1); edit (tag v0.2, annotated); docs only;
    delete two of three copied functions (tag v0.3)."""
    path = tmp_path / "target"
    repo = git.Repo.init(path)
    who = git.Actor("Test", "test@example.com")
    shas: list[str] = []

    def commit(message: str, day: int, files: dict[str, str] | None = None,
               remove: tuple[str, ...] = ()) -> str:
        write(path, files or {})
        if files:
            repo.index.add(list(files))
        if remove:
            repo.index.remove(list(remove), working_tree=True)
        date = f"2024-03-{day:02d}T12:00:00+0000"
        made = repo.index.commit(message, author=who, committer=who, author_date=date, commit_date=date)
        shas.append(made.hexsha)
        return made.hexsha

    commit("Initial app\n\nOnly the target's own code.", 1,
           {"app/main.py": TARGET_MAIN_V1, "README.md": "app\n", "app/cli.py": "import sys\n"})
    commit("Copy helpers from upstream", 2, {"app/main.py": TARGET_MAIN_V2, "app/vendored.py": VENDORED_COPY})
    commit("Add provenance marker", 3, {"app/vendored.py": MARKER + VENDORED_COPY})
    repo.create_tag("v0.1")
    commit("Rename variables in the checksum", 4, {"app/vendored.py": VENDORED_EDITED})
    repo.create_tag("v0.2", message="release 0.2")
    commit("Docs only", 5, {"README.md": "app, now with docs\n"})
    commit("Drop unused helpers", 6, {"app/vendored.py": VENDORED_TRIMMED})
    repo.create_tag("v0.3")
    repo.close()
    return {"path": path, "shas": shas}


def history(target: dict[str, Any], upstream: Path, tmp_path: Path, refs: str, out: str = "out",
            **kwargs: Any) -> pd.DataFrame:
    kwargs.setdefault("settings", RunSettings(cache_dir=tmp_path / "cache"))
    return run_history(f"{target['path']}@{refs}", [str(upstream)], tmp_path / out, **kwargs).frame


# --------------------------------------------------------------------------- figures


def test_figures_follow_the_constructed_history(target: dict[str, Any], upstream: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    shas = target["shas"]
    frame = history(target, upstream, tmp_path, "HEAD")
    assert list(frame.columns) == HISTORY_COLUMNS
    assert frame["commit"].tolist() == shas
    assert frame["index"].tolist() == list(range(6))
    assert frame["date"].tolist() == [f"2024-03-{d:02d}T12:00:00Z" for d in range(1, 7)]
    assert frame["subject"].tolist()[:2] == ["Initial app", "Copy helpers from upstream"]
    assert frame["tags"].tolist() == ["", "", "v0.1", "v0.2", "", "v0.3"]
    assert frame["python_files"].tolist() == [2, 3, 3, 3, 3, 3]
    assert frame["indexed_files"].tolist() == [2, 3, 3, 3, 3, 3]

    verbatim = frame["code_verbatim"].tolist()
    near = frame["code_near"].tolist()
    code = frame["code_lines"].tolist()
    # Own code only at first; the copy brings many verbatim code lines.
    assert verbatim[0] == 0 and near[0] == 0
    assert verbatim[1] >= 20
    # The marker is a comment: code figures do not move.
    assert (verbatim[2], near[2], code[2]) == (verbatim[1], near[1], code[1])
    # Renaming variables turns verbatim lines into near ones.
    assert near[3] > near[2]
    assert verbatim[3] < verbatim[2]
    assert verbatim[3] + near[3] >= verbatim[2] - 2
    # Docs only: the same figures.
    figures = frame.loc[:, "code_lines":"marked_code_near"]
    assert figures.loc[4].tolist() == figures.loc[3].tolist()
    # Deleting two of the three functions drops the copied lines.
    assert verbatim[5] + near[5] < (verbatim[4] + near[4]) / 2
    assert code[5] < code[4]

    assert frame["marked_files"].tolist() == [0, 0, 1, 1, 1, 1]
    assert frame["marked_code_lines"].tolist()[:2] == [0, 0]
    # Every copied line is in the marked file, which is not all of the code.
    assert frame["marked_code_verbatim"].tolist()[2:] == verbatim[2:]
    assert frame["marked_code_near"].tolist()[2:] == near[2:]
    assert all(0 < m < c for m, c in zip(frame["marked_code_lines"][2:], code[2:], strict=True))
    assert frame["code_copied_share"].tolist()[0] == 0.0
    assert 0 < frame.loc[1, "code_copied_share"] < 1

    # The CLI says what was done (run_history itself prints nothing).
    assert capsys.readouterr().out == ""
    assert main(["history", f"{target['path']}@HEAD", str(upstream), "--out", str(tmp_path / "cli"),
                 "--cache-dir", str(tmp_path / "cache"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "6 commits of target analysed against upstream" in out
    assert f"first {shas[0][:10]} (2024-03-01)" in out and f"last {shas[5][:10]} (2024-03-06)" in out
    assert "cache misses" in out


def test_cache_only_parses_changed_files(target: dict[str, Any], upstream: Path, tmp_path: Path) -> None:
    repo = git.Repo(target["path"])
    shas = target["shas"]
    changed = [d.b_path for d in repo.commit(shas[0]).diff(shas[1]) if (d.b_path or "").endswith(".py")]
    repo.close()
    assert sorted(changed) == ["app/main.py", "app/vendored.py"]

    frame = history(target, upstream, tmp_path, "HEAD")
    misses = frame["cache_misses"].tolist()
    assert misses[0] == 2  # both Python files of the first commit
    assert misses[1] == len(changed)
    assert frame.loc[1, "cache_hits"] == 1  # app/cli.py did not change
    assert misses[2:] == [1, 1, 0, 1]  # one changed file each; the docs commit parses nothing
    assert (frame["cache_hits"] + frame["cache_misses"]).tolist() == frame["python_files"].tolist()

    # A second run over the same cache parses nothing, and gives the same figures.
    again = history(target, upstream, tmp_path, "HEAD", out="again")
    assert again["cache_misses"].sum() == 0
    deterministic = HISTORY_COLUMNS[:-3]
    pd.testing.assert_frame_equal(again[deterministic], frame[deterministic])
    first_csv = (tmp_path / "out" / "history.csv").read_text().splitlines()
    again_csv = (tmp_path / "again" / "history.csv").read_text().splitlines()
    strip = [",".join(line.split(",")[:-3]) for line in first_csv]
    assert strip == [",".join(line.split(",")[:-3]) for line in again_csv]
    assert (tmp_path / "out" / "history.json").read_text() == (tmp_path / "again" / "history.json").read_text()


def test_each_commit_as_a_comparison_of_its_own(target: dict[str, Any], upstream: Path, tmp_path: Path) -> None:
    """History keeps unchanged files' rows between commits (``file_rows_memo``): every commit's
    figures are those of a comparison of that commit alone, with no memo and no cache."""
    from lineage.api import compare_trees
    from lineage.history.run import commit_figures
    from lineage.index import IndexCache, index_tree
    from lineage.sources import open_source

    frame = history(target, upstream, tmp_path, "HEAD")
    cache = IndexCache(None)
    with open_source(str(upstream), tmp_path / "cache") as source:
        up = index_tree(source, cache)
    for row in frame.itertuples():
        with open_source(f"{target['path']}@{row.commit}", tmp_path / "cache") as source:
            tree = index_tree(source, cache)
        alone = commit_figures(compare_trees(tree, [up], MatchParams()).files)
        assert {k: getattr(row, k) for k in alone} == alone, row.commit
    assert frame["code_verbatim"].iloc[1] > 0


def test_match_workers_give_the_same_history(target: dict[str, Any], upstream: Path, tmp_path: Path) -> None:
    """Each commit's files matched in two forked workers (from one file on): the same figures."""
    alone = history(target, upstream, tmp_path, "HEAD", out="one",
                    settings=RunSettings(cache_dir=tmp_path / "cache1", jobs=1))
    shared = history(target, upstream, tmp_path, "HEAD", out="two",
                     settings=RunSettings(cache_dir=tmp_path / "cache2", jobs=2, match_min_files=1))
    deterministic = HISTORY_COLUMNS[:-3]
    pd.testing.assert_frame_equal(shared[deterministic], alone[deterministic])
    assert alone["code_verbatim"].sum() > 0


def test_outputs(target: dict[str, Any], upstream: Path, tmp_path: Path) -> None:
    shas = target["shas"]
    frame = history(target, upstream, tmp_path, "HEAD~3..HEAD")
    out = tmp_path / "out"
    csv = pd.read_csv(out / "history.csv", keep_default_na=False)
    assert csv.columns.tolist() == HISTORY_COLUMNS
    assert csv["commit"].tolist() == frame["commit"].tolist()
    assert csv.columns[-3:].tolist() == ["cache_hits", "cache_misses", "seconds"]
    png = (out / "history.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
    inputs = json.loads((out / "history.json").read_text())
    assert inputs["format"] == "lineage.history"
    assert inputs["repository"] == str(target["path"].resolve())
    assert inputs["range"]["base"] == "HEAD~3" and inputs["range"]["tip"] == "HEAD"
    assert inputs["range"]["base_commit"] == shas[2] and inputs["range"]["tip_commit"] == shas[5]
    assert inputs["selection"]["commits"] == shas[2:]
    assert inputs["upstreams"][0]["spec"] == str(upstream)
    assert inputs["upstreams"][0]["tree_digest"].startswith("sha256:")
    assert inputs["parameters"] == MatchParams().to_dict()


# --------------------------------------------------------------------------- selection


def test_range_includes_the_base_first(target: dict[str, Any]) -> None:
    shas = target["shas"]
    path = target["path"]
    assert [c.sha for c in parse_range(f"{path}@{shas[1]}..{shas[4]}").commits] == shas[1:5]
    assert [c.sha for c in parse_range(f"{path}@v0.1..").commits] == shas[2:]  # empty side is HEAD
    assert [c.sha for c in parse_range(f"{path}@v0.2").commits] == shas[:4]
    # An empty range (B is A) and a reversed one (B older than A) are errors, not one commit.
    for refs in ("HEAD..HEAD", f"{shas[4]}..{shas[1]}"):
        with pytest.raises(LineageError, match=f"^empty range '{refs}'"):
            parse_range(f"{path}@{refs}")


def test_first_parent_order_skips_merged_branch_commits(tmp_path: Path) -> None:
    path = tmp_path / "merged"
    repo = git.Repo.init(path)
    who = git.Actor("Test", "test@example.com")

    def commit(message: str, text: str, parents: list[Any]) -> Any:
        write(path, {"a.py": text})
        repo.index.add(["a.py"])
        return repo.index.commit(message, author=who, committer=who, parent_commits=parents, head=False)

    base = commit("base", "x = 0\n", [])
    feature = commit("feature", "x = 1\n", [base])
    mainline = commit("main", "x = 2\n", [base])
    merge = commit("merge", "x = 3\n", [mainline, feature])
    repo.head.reference = repo.create_head("trunk", merge)
    repo.close()
    expected = [base.hexsha, mainline.hexsha, merge.hexsha]
    assert [c.sha for c in parse_range(f"{path}@HEAD").commits] == expected
    assert [c.sha for c in parse_range(f"{path}@{base.hexsha}..trunk").commits] == expected
    # A merged in from a side branch: the first-parent walk from B never passes it
    with pytest.raises(LineageError, match="not on the first-parent line"):
        parse_range(f"{path}@{feature.hexsha}..trunk")
    # A on another branch than B: no line of commits leads from A to B (history listed A first
    # all the same, and said the base was included)
    with pytest.raises(LineageError, match=f"not an ancestor.*merge-base is {base.hexsha[:10]}"):
        parse_range(f"{path}@{feature.hexsha}..{mainline.hexsha}")


def test_tags_on_a_maintenance_branch_are_taken(tmp_path: Path) -> None:
    """Patch releases tagged on a branch merged back later lie off the first-parent line; --tags
    takes them all the same, parents first, otherwise by commit date (click tags 8.1.1-8.1.7 so)."""
    path = tmp_path / "maintained"
    repo = git.Repo.init(path)
    who = git.Actor("Test", "test@example.com")

    def commit(message: str, text: str, parents: list[Any], day: int) -> Any:
        write(path, {"a.py": text})
        repo.index.add(["a.py"])
        date = f"2024-05-{day:02d}T12:00:00+0000"
        return repo.index.commit(message, author=who, committer=who, parent_commits=parents, head=False,
                                 author_date=date, commit_date=date)

    release = commit("1.0", "x = 0\n", [], 1)
    feature = commit("feature on main", "x = 1\n", [release], 2)
    patch = commit("fix on 1.0.x", "x = 0  # fixed\n", [release], 3)
    later = commit("more on main", "x = 2\n", [feature], 4)
    merge = commit("merge 1.0.x", "x = 2  # fixed\n", [later, patch], 5)
    for name, made in (("v1.0", release), ("v1.0.1", patch), ("v1.1", merge)):
        repo.create_tag(name, ref=made)
    repo.head.reference = repo.create_head("trunk", merge)
    repo.close()
    for refs in ("v1.0..trunk", "trunk"):
        walked = parse_range(f"{path}@{refs}", tags_only=True)
        assert [(c.sha, c.tags) for c in walked.commits] == [
            (release.hexsha, ("v1.0",)), (patch.hexsha, ("v1.0.1",)), (merge.hexsha, ("v1.1",))]
        assert walked.commits_in_range == 5  # every commit of the range, not only the tagged ones
    # without --tags the walk stays on the first-parent line
    assert [c.sha for c in parse_range(f"{path}@v1.0..trunk").commits] == [
        release.hexsha, feature.hexsha, later.hexsha, merge.hexsha]
    # a side-branch tag may be the range's start under --tags
    assert [c.tags for c in parse_range(f"{path}@v1.0.1..trunk", tags_only=True).commits] == [("v1.0.1",), ("v1.1",)]
    # drift's walk from such a base: the base, then the mainline commits it does not contain
    with pytest.raises(LineageError, match="not on the first-parent line"):
        parse_range(f"{path}@v1.0.1..trunk")
    assert [c.sha for c in parse_range(f"{path}@v1.0.1..trunk", base_off_line=True).commits] == [
        patch.hexsha, feature.hexsha, later.hexsha, merge.hexsha]
    # a release of a branch that left the line before A is older than the range: not taken
    old_fix = commit("fix on an lts branch", "x = 0  # lts fix\n", [release], 6)
    repo = git.Repo(path)
    repo.create_tag("lts-1", ref=old_fix)
    last = commit("merge lts", "x = 2  # both fixes\n", [merge, old_fix], 7)
    repo.create_tag("v1.2", ref=last)
    repo.close()
    assert [c.tags for c in parse_range(f"{path}@v1.0.1..v1.2", tags_only=True).commits] == [
        ("v1.0.1",), ("v1.1",), ("v1.2",)]
    assert ("lts-1",) in [c.tags for c in parse_range(f"{path}@v1.0..v1.2", tags_only=True).commits]


def test_every_tags_and_max_commits(target: dict[str, Any], upstream: Path, tmp_path: Path) -> None:
    shas = target["shas"]
    path = target["path"]
    assert [c.sha for c in parse_range(f"{path}@HEAD", every=2).commits] == [shas[0], shas[2], shas[4], shas[5]]
    assert [c.sha for c in parse_range(f"{path}@HEAD", every=5).commits] == [shas[0], shas[5]]
    assert [c.sha for c in parse_range(f"{path}@HEAD", every=10).commits] == [shas[0], shas[5]]
    assert [c.sha for c in parse_range(f"{path}@HEAD", every=3).commits] == [shas[0], shas[3], shas[5]]
    assert [c.sha for c in parse_range(f"{path}@HEAD", max_commits=2).commits] == shas[4:]
    assert [c.sha for c in parse_range(f"{path}@HEAD", every=2, max_commits=3).commits] == [shas[2], shas[4], shas[5]]
    tagged = parse_range(f"{path}@HEAD", tags_only=True).commits
    assert [(c.sha, c.tags) for c in tagged] == [(shas[2], ("v0.1",)), (shas[3], ("v0.2",)), (shas[5], ("v0.3",))]
    assert [c.sha for c in parse_range(f"{path}@v0.1..HEAD", tags_only=True, max_commits=2).commits] == [
        shas[3], shas[5]]

    frame = history(target, upstream, tmp_path, "HEAD", tags_only=True)
    assert frame["tags"].tolist() == ["v0.1", "v0.2", "v0.3"]
    assert frame["marked_files"].tolist() == [1, 1, 1]
    assert frame["index"].tolist() == [0, 1, 2]
    # The first selected commit parses all its files, later ones only their changes.
    assert frame["cache_misses"].tolist() == [3, 1, 1]

    frame = history(target, upstream, tmp_path, "HEAD", out="every", every=4)
    assert frame["commit"].tolist() == [shas[0], shas[4], shas[5]]


def test_a_range_with_a_folder_reads_that_folder_of_each_commit(target: dict[str, Any], upstream: Path,
                                                                 tmp_path: Path) -> None:
    """``REPO@A..B:PATH`` as a git source's ``REF:PATH``: the same commits, only the folder's files
    (at paths relative to it); drift, which diffs whole commits, refuses it."""
    walked = parse_range(f"{target['path']}@v0.1..HEAD:app/")
    assert walked.folder == "app" and [c.sha for c in walked.commits] == target["shas"][2:]
    assert walked.source_spec(walked.commits[0].sha) == f"{target['path']}@{target['shas'][2]}:app"
    whole = history(target, upstream, tmp_path, "v0.1..HEAD")
    folder = history(target, upstream, tmp_path, "v0.1..HEAD:app", out="folder")
    assert whole["python_files"].tolist() == folder["python_files"].tolist()  # every Python file is under app/
    assert whole["code_verbatim"].tolist() == folder["code_verbatim"].tolist()
    from lineage.fork.drift import run_drift

    with pytest.raises(LineageError, match="drift reads whole commits"):
        run_drift(str(tmp_path), f"{target['path']}@v0.1..HEAD:app")


def test_a_folder_range_over_commits_without_the_folder(target: dict[str, Any], upstream: Path,
                                                         tmp_path: Path) -> None:
    """A commit that lacks the range's folder (from before the project moved into it) is an
    empty point of the series, as a commit without Python files is, not the end of the run."""
    repo = git.Repo(target["path"])
    write(target["path"], {"lib/helpers.py": VENDORED_COPY})
    repo.index.add(["lib/helpers.py"])
    who = git.Actor("Test", "test@example.com")
    repo.index.commit("lib/", author=who, committer=who)
    repo.close()
    frame = history(target, upstream, tmp_path, "v0.3..HEAD:lib")
    assert frame["python_files"].tolist() == [0, 1]
    assert frame["code_verbatim"].iat[0] == 0 and frame["code_verbatim"].iat[1] > 0


def test_a_folder_no_commit_holds_is_refused(target: dict[str, Any], upstream: Path, tmp_path: Path) -> None:
    """A ``:PATH`` without a Python file at any selected commit (a typo) is refused as compare
    refuses such a target, before anything is written (it was a series of zeros and exit 0);
    ``allow_empty`` lets it through."""
    with pytest.raises(LineageError, match=r"target .*@v0.1..HEAD:nosuch holds no Python files at any of "
                                           r"the 4 commits \(0 other files\); check the path"):
        history(target, upstream, tmp_path, "v0.1..HEAD:nosuch")
    assert not (tmp_path / "out").exists()
    frame = history(target, upstream, tmp_path, "v0.1..HEAD:nosuch", allow_empty=True)
    assert frame["python_files"].tolist() == [0, 0, 0, 0]


def test_a_bad_out_is_refused_before_the_run(target: dict[str, Any], upstream: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``--out`` a file was a FileExistsError traceback after the whole run; it is now checked
    first, as compare's is (one line, exit 2, no commit read), and the files are written whole
    into a fresh folder that replaces the last history (lineage.report.outdir)."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("the user's")
    argv = ["history", f"{target['path']}@v0.1..HEAD", str(upstream), "--cache-dir", str(tmp_path / "cache")]
    for out, message in ((afile, "exists and is not a folder"), (afile / "sub", "which is a file"),
                         (target["path"] / "hist", "is inside the source"), (mine, "is not a lineage report")):
        assert main([*argv, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and "lineage: [" not in err, err
    assert afile.read_text() == "x" and sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    out = tmp_path / "hist"
    assert main([*argv, "--out", str(out), "-q"]) == 0 and main([*argv, "--out", str(out), "-q"]) == 0  # replaced
    assert sorted(p.name for p in out.iterdir()) == ["history.csv", "history.json", "history.png"]


def test_select_commits_rejects_bad_numbers() -> None:
    with pytest.raises(LineageError, match="--every"):
        select_commits([], every=0)
    with pytest.raises(LineageError, match="--max-commits"):
        select_commits([], max_commits=-1)


@pytest.mark.parametrize("refs, message", [
    ("nope..HEAD", "unknown ref 'nope'"),
    ("HEAD..nope", "unknown ref 'nope'"),
    ("nope", "unknown ref 'nope'"),
    ("HEAD...v0.1", "two dots"),
    ("-n..HEAD", "unknown ref '-n'"),
])
def test_bad_refs(target: dict[str, Any], refs: str, message: str) -> None:
    with pytest.raises(LineageError, match=message):
        parse_range(f"{target['path']}@{refs}")


def test_not_a_repository(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(LineageError, match="not a git repository"):
        parse_range(f"{tmp_path / 'plain'}@HEAD")
    with pytest.raises(LineageError, match="no such directory"):
        parse_range(f"{tmp_path / 'missing'}@HEAD")
    with pytest.raises(LineageError, match="REPO@A..B"):
        parse_range(str(tmp_path / "plain"))


def test_no_tags_in_range(target: dict[str, Any]) -> None:
    with pytest.raises(LineageError, match="no tagged commits"):
        parse_range(f"{target['path']}@HEAD~4", tags_only=True)  # the first two commits


def test_commit_without_python_files(tmp_path: Path, upstream: Path) -> None:
    path = tmp_path / "docs-first"
    repo = git.Repo.init(path)
    who = git.Actor("Test", "test@example.com")
    write(path, {"README.md": "nothing yet\n"})
    repo.index.add(["README.md"])
    repo.index.commit("README only", author=who, committer=who)
    write(path, {"lib.py": VENDORED_COPY})
    repo.index.add(["lib.py"])
    repo.index.commit("Copy", author=who, committer=who)
    repo.close()
    frame = run_history(f"{path}@HEAD", [str(upstream)], tmp_path / "out",
                        settings=RunSettings(cache_dir=tmp_path / "cache")).frame
    assert frame["python_files"].tolist() == [0, 1]
    assert frame["code_lines"].tolist()[0] == 0 and frame["code_copied_share"].tolist()[0] == 0.0
    assert frame["code_verbatim"].tolist()[1] >= 20


# --------------------------------------------------------------------------- plot


def test_tick_positions_are_thinned_and_keep_both_ends() -> None:
    assert _tick_positions(1) == [0]
    assert _tick_positions(12) == list(range(12))
    for n in (13, 50, 151, 1000):
        ticks = _tick_positions(n)
        assert ticks[0] == 0 and ticks[-1] == n - 1
        assert len(ticks) <= 12 and ticks == sorted(set(ticks))


def test_tick_positions_never_stand_side_by_side() -> None:
    """disnake's history of 21 commits was labelled at 0, 2, 4, 5, 7, ..., 15, 16, 18, 20: the
    labels of 4 and 5 ("2021-11-04", "2021-12-04") ran into each other. Ticks are now one step
    apart (2 here: 0, 2, ..., 20), the last gap at most two steps less one."""
    assert _tick_positions(21) == list(range(0, 21, 2))
    assert _tick_positions(22) == [*range(0, 20, 2), 21]  # 20 and 21 would stand side by side
    for n in range(13, 400):
        ticks = _tick_positions(n)
        step = -(-(n - 1) // 11)
        gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
        assert ticks[0] == 0 and ticks[-1] == n - 1 and len(ticks) <= 12
        assert min(gaps) >= step and max(gaps) < 2 * step


def test_plot_many_commits(tmp_path: Path) -> None:
    n = 300
    frame = pd.DataFrame({
        "commit": [f"{i:040x}" for i in range(n)],
        "date": [f"2024-{1 + i // 31 % 12:02d}-{1 + i % 28:02d}T00:00:00Z" for i in range(n)],
        "code_lines": [100 + 5 * i for i in range(n)],
        "code_verbatim": [2 * i for i in range(n)],
        "code_near": [i // 2 for i in range(n)],
        "marked_files": [i // 40 for i in range(n)],
    })
    path = plot_history(frame, tmp_path / "many.png", title="many")
    assert path.read_bytes().startswith(b"\x89PNG")


def test_a_tagged_commit_is_labelled_by_its_tag() -> None:
    from lineage.history.plot import tick_label

    frame = pd.DataFrame({"commit": ["a" * 40, "b" * 40, "c" * 40], "tags": ["8.1.7 latest", "", float("nan")],
                          "date": ["2023-08-17T17:24:49Z", "2023-08-18T00:00:00Z", "2023-08-19T00:00:00Z"]})
    assert [tick_label(frame, i) for i in range(3)] == ["8.1.7\n2023-08-17", "bbbbbbb\n2023-08-18",
                                                        "ccccccc\n2023-08-19"]
    assert tick_label(frame.drop(columns="tags"), 0) == "aaaaaaa\n2023-08-17"


# --------------------------------------------------------------------------- CLI


def test_cli_history(target: dict[str, Any], upstream: Path, tmp_path: Path,
                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli-out"
    argv = ["history", f"{target['path']}@v0.1..HEAD", str(upstream), "--out", str(out),
            "--cache-dir", str(tmp_path / "cache"), "--every", "2"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "commits of target analysed" in captured.out
    assert len([line for line in captured.err.splitlines() if line.startswith("lineage: [")]) == 3
    assert (out / "history.csv").is_file() and (out / "history.png").is_file()
    assert len(pd.read_csv(out / "history.csv")) == 3  # v0.1, v0.1+2, HEAD

    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("refs, message", [("nope..HEAD", "unknown ref"), ("HEAD", "not a git repository")])
def test_cli_errors_exit_2(target: dict[str, Any], upstream: Path, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str], refs: str, message: str) -> None:
    repo = target["path"] if message == "unknown ref" else upstream
    code = main(["history", f"{repo}@{refs}", str(upstream), "--out", str(tmp_path / "x"),
                 "--cache-dir", str(tmp_path / "cache"), "-q"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "x").exists()


def test_history_without_an_out_folder_returns_the_table_and_writes_nothing(
        target: dict[str, Any], upstream: Path, tmp_path: Path) -> None:
    """A notebook asks for the table alone: ``out_dir=None`` writes nothing and gives the same
    rows as a run that writes history.csv, with history.json's record beside them."""
    written = run_history(f"{target['path']}@HEAD", [str(upstream)], tmp_path / "out",
                          settings=RunSettings(cache_dir=tmp_path / "cache"))
    before = sorted(p.name for p in tmp_path.iterdir())
    alone = run_history(f"{target['path']}@HEAD", [str(upstream)], None,
                        settings=RunSettings(cache_dir=tmp_path / "cache"))
    assert sorted(p.name for p in tmp_path.iterdir()) == before and alone.out_dir is None
    same = ["commit", "code_lines", "code_verbatim", "code_near", "marked_files"]
    assert alone.frame[same].equals(written.frame[same])
    recorded = json.loads((tmp_path / "out" / "history.json").read_text(encoding="utf-8"))
    assert alone.inputs == recorded == written.inputs
