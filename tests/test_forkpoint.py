"""forkpoint on a repository built with GitPython: an unmodified copy of v2 ranks v2 first,
although v3 only adds lines (exact figures: 10 code lines per generated function)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import cached_wheel

from lineage.cli import main

git = pytest.importorskip("git")


def _function(i: int) -> str:
    body = "\n".join(f"    value_{i}_{k} = compute_{k}(argument_{i}, {k * i + 3})" for k in range(8))
    return f"def function_number_{i}(argument_{i}):\n{body}\n    return value_{i}_0\n\n\n"


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "up"
    repo = git.Repo.init(root)
    (root / "pkg").mkdir()
    actor = git.Actor("t", "t@example.org")
    for tag, count in (("v1", 5), ("v2", 8), ("v3", 10)):
        (root / "pkg" / "a.py").write_text("".join(_function(i) for i in range(count)))
        repo.index.add(["pkg/a.py"])
        repo.index.commit(tag, author=actor, committer=actor)
        repo.create_tag(tag)
    return root


@pytest.mark.parametrize("package", ["pkg", "renamed"])
def test_unmodified_copy_ranks_its_release_first(tmp_path: Path, package: str) -> None:
    up = _repo(tmp_path)
    target = tmp_path / "target" / package
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(8)))
    out = tmp_path / "out"
    assert main(["forkpoint", str(target.parent), f"{up}@v1..v3", "--out", str(out), "-q",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    best = json.loads((out / "forkpoint.json").read_text())["best"]
    assert [b["ref"] for b in best] == ["v2"]
    rows = {r["ref"]: r for r in json.loads((out / "forkpoint.json").read_text())["candidates"]}
    # v1 lacks 3 functions (30 code lines), v3 has 2 more (20): distance 30, 0, 20.
    assert {k: (r["distance"], r["rank"]) for k, r in rows.items()} == {"v1": (30, 3), "v2": (0, 1), "v3": (20, 2)}
    assert (out / "forkpoint.png").stat().st_size > 0
    assert (out / "forkpoint_files.csv").read_text().count("\n") == 4


def test_target_path_may_name_one_file(tmp_path: Path) -> None:
    """A vendored single-module package (``_vendor/typing_extensions.py``) is a target of its own."""
    up = _repo(tmp_path)
    target = tmp_path / "target" / "vendor"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(5)))
    (target / "other.py").write_text("".join(_function(i) for i in range(10)))  # closest to v3
    out = tmp_path / "out"
    args = ["forkpoint", str(target.parent), f"{up}@v1..v3", "--out", str(out), "-q",
            "--cache-dir", str(tmp_path / "cache")]
    assert main([*args, "--target-path", "vendor/a.py"]) == 0
    assert [b["ref"] for b in json.loads((out / "forkpoint.json").read_text())["best"]] == ["v1"]
    assert main([*args, "--target-path", "vendor/other.py"]) == 0
    assert [b["ref"] for b in json.loads((out / "forkpoint.json").read_text())["best"]] == ["v3"]
    assert main([*args, "--target-path", "vendor/missing.py"]) == 2


def test_a_candidate_without_python_files_is_skipped_not_ranked(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """An empty candidate shares nothing, as a release that shares nothing does, and ranked
    beside real ones (a wrong path): it is recorded as skipped; all of them empty is an error."""
    up = _repo(tmp_path)
    target = tmp_path / "target" / "pkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(8)))
    empty = tmp_path / "docs"
    empty.mkdir()
    (empty / "README.md").write_text("not code\n")
    out = tmp_path / "out"
    args = ["forkpoint", str(target.parent), "--out", str(out), "-q", "--cache-dir", str(tmp_path / "cache")]
    assert main([*args, f"{up}@v2", str(empty)]) == 0
    found = json.loads((out / "forkpoint.json").read_text())
    assert len(found["candidates"]) == 1  # the release alone is ranked
    assert found["skipped_candidates"] == [{"candidate": str(empty), "reason": "no Python files (1 other files)"}]
    assert main([*args, str(empty)]) == 2
    assert "no candidate holds a Python file" in capsys.readouterr().err


def test_a_tie_of_one_python_tree_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """discord.py's fork-point commit and its parents hold the same Python files: the closest tie,
    and the command says they are one tree (the commit dates alone suggest six months apart)."""
    up = _repo(tmp_path)
    repo = git.Repo(up)
    (up / "README.md").write_text("docs only\n")
    repo.index.add(["README.md"])
    actor = git.Actor("t", "t@example.org")
    repo.index.commit("docs", author=actor, committer=actor)
    repo.create_tag("v3-docs")  # a docs commit on top of v3: v3's Python files
    target = tmp_path / "target" / "pkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(10)))
    out = tmp_path / "out"
    assert main(["forkpoint", str(target.parent), f"{up}@v3", f"{up}@v3-docs", f"{up}@v1", "--out", str(out), "-q",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    printed = capsys.readouterr().out
    assert printed.count("closest: ") == 2 and "the 2 closest hold the same Python files" in printed
    # a single REPO@REF is dated as a range's commits are
    dates = [c["date"] for c in json.loads((out / "forkpoint.json").read_text())["candidates"]]
    assert len(dates) == 3 and all(d.endswith("Z") for d in dates)


def test_a_release_candidate_is_dated_when_pypi_published_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``pypi:`` candidate's date is its file's upload time, recorded at download beside the
    archive (``forkpoint.csv`` left it empty before); offline, from the cache alone."""
    import hashlib
    import zipfile

    from lineage.fork.forkpoint import run_forkpoint
    from lineage.settings import RunSettings
    from lineage.sources import pypi

    cache = tmp_path / "cache"
    specs = []
    for version, uploaded, released in (("1.0", "2031-01-02T03:04:05Z", ""), ("2.0", "", ""),
                                        ("3.0", "2033-05-06T07:08:09Z", "2032-01-01T00:00:00Z")):
        wheel = cache / "downloads" / "pypi" / f"uppkg-{version}" / f"uppkg-{version}-py3-none-any.whl"
        wheel.parent.mkdir(parents=True)
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr("uppkg/a.py", "".join(_function(i) for i in range(8)))
        sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
        wheel.with_name(wheel.name + ".sha256").write_text(sha + "\n")
        pypi._record_publication(wheel, sha, pypi.Published(f"https://files.example/{wheel.name}", uploaded,
                                                            released))
        specs.append(f"pypi:uppkg=={version}#sha256={sha}")
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    target = tmp_path / "target" / "uppkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(8)))
    result = run_forkpoint(str(target.parent), specs, settings=RunSettings(cache_dir=cache, jobs=1))
    dates = dict(zip(result.candidates["ref"], result.candidates["date"], strict=True))
    # 2.0's record has no upload time; 3.0's file was uploaded after the release's first (its date)
    assert dates == {"1.0": "2031-01-02T03:04:05Z", "2.0": "", "3.0": "2032-01-01T00:00:00Z"}


def test_the_api_takes_run_settings(tmp_path: Path) -> None:
    """run_forkpoint takes one RunSettings, as api.compare does: its progress callback hears each candidate."""
    from lineage.fork.forkpoint import run_forkpoint
    from lineage.settings import RunSettings

    up = _repo(tmp_path)
    target = tmp_path / "target" / "pkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(8)))
    messages: list[str] = []
    result = run_forkpoint(str(target.parent), [f"{up}@v1..v3"],
                           settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1, progress=messages.append))
    assert list(result.best["ref"]) == ["v2"]
    assert [m.split("]")[0] for m in messages] == ["[1/3", "[2/3", "[3/3"]


def _cached_wheel(cache: Path, name: str, version: str, text: str, uploaded: str) -> str:
    """A wheel of ``name`` holding ``name/a.py`` in the download cache, published at ``uploaded``;
    its pinned spec."""
    return cached_wheel(cache, name, version, {f"{name}/a.py": text}, uploaded, pinned=True)


@pytest.mark.parametrize(("published", "after"), [("2031-06-01T00:00:00Z", True), ("2034-01-01T00:00:00Z", False)])
def test_a_closest_release_dated_after_the_target_is_said_no_fork_point(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        published: str, after: bool) -> None:
    """disnake 2.1.0 (2021) forked discord.py's unreleased 2.0 branch and is closest to discord.py
    2.0.0 (2022), which holds that code too: ``closest:`` alone read as its fork point. The
    target's date is recorded, and a closest release dated after it is said to be none, with the
    closest dated before it."""
    cache = tmp_path / "cache"
    v1 = _cached_wheel(cache, "uppkg", "1.0", "".join(_function(i) for i in range(5)), "2031-01-01T00:00:00Z")
    v2 = _cached_wheel(cache, "uppkg", "2.0", "".join(_function(i) for i in range(8)), "2033-01-01T00:00:00Z")
    target = _cached_wheel(cache, "fork", "0.1", "".join(_function(i) for i in range(8)), published)
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    out = tmp_path / "out"
    assert main(["forkpoint", target, v1, v2, "--out", str(out), "-q", "--jobs", "1",
                 "--cache-dir", str(cache)]) == 0
    found = json.loads((out / "forkpoint.json").read_text())
    assert found["target"]["date"] == published
    assert [b["ref"] for b in found["best"]] == ["2.0"]  # the ranking is unchanged
    assert found["dated_after_target"] == (1 if after else 0)
    assert [b["ref"] for b in found["best_before_target"]] == (["1.0"] if after else ["2.0"])
    printed = capsys.readouterr().out
    assert ("dated after the target (2031-06-01T00:00:00Z)" in printed) == after
    named = "closest dated before the target: " + v1.split("#")[0]
    assert (named in printed) == after and ("dated before" in printed) == after


@pytest.mark.parametrize(("first", "after", "before"), [("2032-01-01T00:00:00Z", 1, ["1.0"]),
                                                      ("2030-01-01T00:00:00Z", 2, []),
                                                      ("2033-06-01T00:00:00Z", 0, ["2.0"])])
def test_a_closest_release_dated_after_the_forks_first_release_is_said_maybe_merged_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        first: str, after: int, before: list[str]) -> None:
    """ssh 1.8.0 (paramiko renamed, 2012-10-29) is closest to paramiko 1.8.0 (2012-10-03), the
    release that took ssh's code back; ssh's history forks from paramiko 1.7.7.1 (2011-05-23), and
    its first release, 1.7.8, is of 2011-10-24. A closest release dated after the target project's
    first release (not after the target) is said to need not be the fork point, and the closest
    dated before that first release is named; nothing is said when no candidate is dated before it
    (a project name an older project used first: pypdf's listing holds pyPdf's releases)."""
    from lineage.fork import candidates

    cache = tmp_path / "cache"
    v1 = _cached_wheel(cache, "uppkg", "1.0", "".join(_function(i) for i in range(5)), "2031-01-01T00:00:00Z")
    v2 = _cached_wheel(cache, "uppkg", "2.0", "".join(_function(i) for i in range(8)), "2033-01-01T00:00:00Z")
    target = _cached_wheel(cache, "fork", "0.2", "".join(_function(i) for i in range(8)), "2034-01-01T00:00:00Z")
    _cached_wheel(cache, "fork", "0.1", _function(0), first)  # its first release, read for its import names
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    listing = {"0.1": [{"upload_time_iso_8601": first}], "0.2": [{"upload_time_iso_8601": "2034-01-01T00:00:00Z"}],
               "0.0.dev1": [], "not a version": [{"upload_time_iso_8601": "2001-01-01T00:00:00Z"}]}
    monkeypatch.setattr(candidates, "_release_listing", lambda name: listing if name == "fork" else {})
    out = tmp_path / "out"
    assert main(["forkpoint", target, v1, v2, "--out", str(out), "-q", "--jobs", "1",
                 "--cache-dir", str(cache)]) == 0
    found = json.loads((out / "forkpoint.json").read_text())
    assert found["target"]["first_release"] == {"version": "0.1", "date": first, "import_names": ["fork"]}
    assert [b["ref"] for b in found["best"]] == ["2.0"]  # the ranking is unchanged
    assert found["dated_after_target"] == 0
    assert found["dated_after_first_release"] == after  # 1.0 of 2031, 2.0 of 2033
    assert [b["ref"] for b in found["best_before_first_release"]] == before
    printed = capsys.readouterr().out
    said = f"the closest is dated after the first release of the target's project (0.1, {first})"
    # said when the closest (2.0, 2033) is after the first release and an earlier candidate exists
    assert (said in printed) == (before == ["1.0"])
    named = "closest dated before the target project's first release: " + v1.split("#")[0]
    assert (named in printed) == (before == ["1.0"])
    assert "first release" not in printed or before == ["1.0"]


def test_a_forkpoint_offline_knows_no_first_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyPI cannot be asked offline: the first release is unknown, and no candidate is said to be
    dated after it."""
    cache = tmp_path / "cache"
    v1 = _cached_wheel(cache, "uppkg", "1.0", "".join(_function(i) for i in range(5)), "2031-01-01T00:00:00Z")
    target = _cached_wheel(cache, "fork", "0.2", "".join(_function(i) for i in range(5)), "2034-01-01T00:00:00Z")
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    out = tmp_path / "out"
    assert main(["forkpoint", target, v1, "--out", str(out), "-q", "--jobs", "1", "--cache-dir", str(cache)]) == 0
    found = json.loads((out / "forkpoint.json").read_text())
    assert found["target"]["first_release"] == {}
    assert found["dated_after_first_release"] == 0 and found["best_before_first_release"] == []


def test_an_undated_target_dates_nothing_after_it(tmp_path: Path) -> None:
    """A folder has no date: no candidate is after it, and none is the closest before it."""
    from lineage.fork.forkpoint import run_forkpoint
    from lineage.settings import RunSettings

    up = _repo(tmp_path)
    target = tmp_path / "target" / "pkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(8)))
    result = run_forkpoint(str(target.parent), [f"{up}@v1..v3"],
                           settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    assert result.target_date == "" and not result.after_target().any()
    assert result.best_before_target.empty and result.to_json()["best_before_target"] == []


def _forkpoint_of_a_dated_fork(tmp_path: Path, repo: git.Repo, up: Path) -> tuple[dict[str, Any], dict[str, str]]:
    """forkpoint of a fork (eight functions, dated 2030-06-01) against the last three commits of
    ``repo`` at ``up``: forkpoint.json, and each commit's sha by its message."""
    fork = tmp_path / "fork"
    _dated_commit(git.Repo.init(fork), fork, "".join(_function(i) for i in range(8)), "fork", "2030-06-01T00:00:00")
    out = tmp_path / "out"
    assert main(["forkpoint", f"{fork}@HEAD", f"{up}@HEAD~2..HEAD", "--out", str(out), "-q", "--jobs", "1",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    return json.loads((out / "forkpoint.json").read_text()), {c.message.strip(): c.hexsha for c in repo.iter_commits()}


def _dated_commit(repo, root: Path, text: str, message: str, when: str) -> None:  # type: ignore[no-untyped-def]
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg" / "a.py").write_text(text)
    repo.index.add(["pkg/a.py"])
    actor = git.Actor("t", "t@example.org")
    repo.index.commit(message, author=actor, committer=actor, author_date=when, commit_date=when)


def test_a_tie_straddling_the_target_date_names_the_closest_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """disnake 2.1.3 (October 2021) is as close to discord.py's fork-point commit (August 2021) as to
    a README commit of February 2022 holding the same Python files: the command said "the closest
    are dated after the target ... cannot descend from a later release", then listed the commits it
    had just named closest as "closest dated before the target". Of a tie, only the later commit
    is no fork point, and the same tree's earlier commit is."""
    up = tmp_path / "up"
    repo = git.Repo.init(up)
    _dated_commit(repo, up, "".join(_function(i) for i in range(5)), "v1", "2030-01-01T00:00:00")
    _dated_commit(repo, up, "".join(_function(i) for i in range(8)), "v2", "2030-02-01T00:00:00")
    (up / "README.md").write_text("docs only\n")
    repo.index.add(["README.md"])
    actor = git.Actor("t", "t@example.org")
    repo.index.commit("docs", author=actor, committer=actor, author_date="2031-01-01T00:00:00",
                      commit_date="2031-01-01T00:00:00")  # v2's Python files, after the target
    found, shas = _forkpoint_of_a_dated_fork(tmp_path, repo, up)
    assert [b["ref"] for b in found["best"]] == [shas["v2"], shas["docs"]]  # the ranking is unchanged
    assert [b["ref"] for b in found["best_before_target"]] == [shas["v2"]]
    printed = capsys.readouterr().out
    assert "the fork point is the one not dated after the target (2030-06-01T00:00:00Z)" in printed
    assert f"1 of the 2 closest is dated after the target (2030-06-01T00:00:00Z) and no fork point: {shas['docs']}" \
        in printed
    assert "cannot descend" not in printed and "closest dated before the target" not in printed


def test_a_lower_ranked_release_holding_more_verbatim_lines_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """pycryptodomex 3.20.0 is closest to pycrypto 2.5 (distance 33,260), 2.6 ranking second
    (33,278) though it holds 268 more of the target's code lines verbatim: pycryptodome forked after
    2.6.1 and rewrote much of what 2.6 added, which the distance counts as much as code never had.
    A fork of v2 that dropped v2's additions but kept three of its functions ranks v1 first; v2 is
    named as holding 30 more of its code lines verbatim. v3, dated after the fork, is not."""
    up = tmp_path / "up"
    repo = git.Repo.init(up)
    _dated_commit(repo, up, "".join(_function(i) for i in range(5)), "v1", "2030-01-01T00:00:00")
    _dated_commit(repo, up, "".join(_function(i) for i in range(20)), "v2", "2030-02-01T00:00:00")
    _dated_commit(repo, up, "".join(_function(i) for i in range(21)), "v3", "2031-01-01T00:00:00")
    found, shas = _forkpoint_of_a_dated_fork(tmp_path, repo, up)
    assert [b["ref"] for b in found["best"]] == [shas["v1"]]  # the ranking is unchanged
    more = found["more_verbatim_than_best"]
    assert [(m["ref"], m["verbatim_code_lines"] - found["best"][0]["verbatim_code_lines"]) for m in more] == [
        (shas["v2"], 30)]
    printed = capsys.readouterr().out
    assert "holds 30 more of the target's code lines verbatim than the closest (80 against 50)" in printed
    assert f"({shas['v2']}, rank 2)" in printed and "upstream-only lines (120 against 0)" in printed


def test_no_lower_ranked_release_holding_more_verbatim_lines_says_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unmodified copy of v2: no candidate holds more of it than v2, and nothing is said."""
    up = _repo(tmp_path)
    target = tmp_path / "target" / "pkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(8)))
    out = tmp_path / "out"
    assert main(["forkpoint", str(target.parent), f"{up}@v1..v3", "--out", str(out), "-q", "--jobs", "1",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    assert json.loads((out / "forkpoint.json").read_text())["more_verbatim_than_best"] == []
    assert "more of the target's code lines verbatim" not in capsys.readouterr().out


def test_differing_paths_are_the_files_not_alike_in_every_tree() -> None:
    from lineage.fork.forkpoint import differing_paths

    one = {"pkg/a.py": "d1", "pkg/b.py": "d2", "setup.py": "s1"}
    assert differing_paths([one]) == []
    assert differing_paths([one, dict(one)]) == []
    # another blob, and a file one tree lacks
    assert differing_paths([one, {"pkg/a.py": "d1", "pkg/b.py": "d3", "setup.py": "s1", "pkg/c.py": "d4"}]) == [
        "pkg/b.py", "pkg/c.py"]


def test_a_tie_of_two_python_trees_names_the_files_they_differ_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ruamel.yaml 0.18.6 is as close to PyYAML 3.10 as to 3.11, whose Python files differ in
    ``__version__`` and ``setup.py`` alone: the command said only "their Python files differ".
    It names the files and which of them the target pairs with."""
    root = tmp_path / "up"
    repo = git.Repo.init(root)
    (root / "pkg").mkdir()
    actor = git.Actor("t", "t@example.org")
    code = "".join(_function(i) for i in range(8))
    for tag, version in (("v2.0", "2.0"), ("v2.1", "2.1")):
        # the version line and setup.py change; the target holds neither
        (root / "pkg" / "a.py").write_text(f'VERSION_NUMBER = "{version}"\n\n\n{code}')
        (root / "setup.py").write_text(f'from setuptools import setup\nsetup(name="pkg", version="{version}")\n')
        repo.index.add(["pkg/a.py", "setup.py"])
        repo.index.commit(tag, author=actor, committer=actor)
        repo.create_tag(tag)
    target = tmp_path / "target" / "pkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text(code)
    out = tmp_path / "out"
    assert main(["forkpoint", str(target.parent), f"{root}@v2.0", f"{root}@v2.1",
                 "--out", str(out), "-q", "--cache-dir", str(tmp_path / "cache")]) == 0
    printed = capsys.readouterr().out
    found = json.loads((out / "forkpoint.json").read_text())
    assert [b["ref"] for b in found["best"]] == ["v2.0", "v2.1"]
    assert found["best_differ_in"] == ["pkg/a.py", "setup.py"]
    assert found["best_differ_paired"] == ["pkg/a.py"]
    assert ("their Python files differ in 2 files (pkg/a.py, setup.py), of which the target pairs with 1 "
            "(pkg/a.py): its figures are the same against each") in printed
    # a tie of one tree says so, and lists no file
    assert main(["forkpoint", str(target.parent), f"{root}@v2.1", f"{root}@v2.1", "--out", str(out), "-q",
                 "--cache-dir", str(tmp_path / "cache")]) == 0
    assert "hold the same Python files" in capsys.readouterr().out
    assert json.loads((out / "forkpoint.json").read_text())["best_differ_in"] == []



@pytest.mark.parametrize(("first_files", "own"), [
    ({"Fork/__init__.py": "", "Fork/a.py": _function(0)}, False),  # another package: imports are case-sensitive
    ({"py/__init__.py": "", "py/a.py": _function(0),  # an sdist layout whose own list names the target's import
      "fork-0.1.dist-info/top_level.txt": "fork\n"}, True),
    ({"fork/__init__.py": "", "fork/old.py": _function(0)}, True),
    ({"README": "reserved"}, True),  # no name to read (a placeholder): taken
])
def test_a_first_release_sharing_no_import_name_with_the_target_is_not_its_projects(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        first_files: dict[str, str], own: bool) -> None:
    """PyPI lists pyPdf's releases (uploaded 2014-05-17, importing ``pyPdf``) under the project
    name pypdf, whose 3.x releases import ``pypdf``: forkpoint.json named pyPdf 1.10 the first
    release of pypdf 3.17.4's project. A first release sharing no import name with the target
    (its Python files' top-level names and its own ``top_level.txt``: ruamel.yaml 0.2's sdist
    holds ``py/`` and lists ``ruamel``) is another project's: the first release is unknown, and
    the one left out is recorded with the names compared."""
    from lineage.fork import candidates

    cache = tmp_path / "cache"
    v1 = _cached_wheel(cache, "uppkg", "1.0", "".join(_function(i) for i in range(5)), "2031-01-01T00:00:00Z")
    v2 = _cached_wheel(cache, "uppkg", "2.0", "".join(_function(i) for i in range(8)), "2033-01-01T00:00:00Z")
    target = _cached_wheel(cache, "fork", "0.2", "".join(_function(i) for i in range(8)), "2034-01-01T00:00:00Z")
    first = "2032-01-01T00:00:00Z"
    cached_wheel(cache, "fork", "0.1", first_files, first)
    listing = {"0.1": [{"upload_time_iso_8601": first}], "0.2": [{"upload_time_iso_8601": "2034-01-01T00:00:00Z"}]}
    monkeypatch.setattr(candidates, "_release_listing", lambda name: listing if name == "fork" else {})
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    out = tmp_path / "out"
    assert main(["forkpoint", target, v1, v2, "--out", str(out), "-q", "--jobs", "1",
                 "--cache-dir", str(cache)]) == 0
    found = json.loads((out / "forkpoint.json").read_text())
    if own:
        assert found["target"]["first_release"]["version"] == "0.1"
        assert found["target"]["first_release_not_own"] == {}
        assert [b["ref"] for b in found["best_before_first_release"]] == ["1.0"]
    else:
        assert found["target"]["first_release"] == {}
        assert found["target"]["first_release_not_own"] == {
            "version": "0.1", "date": first, "reason": "shares no import name with the target",
            "import_names": ["Fork"], "target_import_names": ["fork"]}
        assert found["dated_after_first_release"] == 0 and found["best_before_first_release"] == []
    printed = capsys.readouterr().out
    assert ("first release of the target's project" in printed) == own
    assert ("the release PyPI lists first under the target's name, 0.1 (2032-01-01T00:00:00Z), imports Fork, "
            "none of the target's names (fork)" in printed) == (not own)


def _listed(filename: str, packagetype: str, uploaded: str = "2031-01-01T00:00:00Z") -> dict[str, str]:
    """One file of PyPI's release listing."""
    return {"filename": filename, "packagetype": packagetype, "url": f"https://files.example/{filename}",
            "upload_time_iso_8601": uploaded}


def test_a_release_without_an_sdist_or_wheel_is_a_skipped_candidate() -> None:
    """MySQL-python 1.2.2 lists two Windows eggs and nothing else: a candidate ``pypi:NAME`` names
    it, with why it cannot be opened; a zip sdist beside a Windows installer (1.2.5) is openable,
    and a release's first date counts its eggs too (the project published then)."""
    from lineage.fork.candidates import pypi_releases

    listing = {"1.2.2": [_listed("Up-1.2.2-py2.4-win32.egg", "bdist_egg", "2007-03-01T00:00:00Z"),
                         _listed("Up-1.2.2-py2.5-win32.egg", "bdist_egg", "2007-03-02T00:00:00Z")],
               "1.2.4": [_listed("Up-1.2.4.win32-py2.7.exe", "bdist_wininst")],
               "1.2.5": [_listed("Up-1.2.5.win32-py2.7.exe", "bdist_wininst"), _listed("Up-1.2.5.zip", "sdist")],
               "1.3": [_listed("up-1.3-py3-none-any.whl", "bdist_wheel")]}
    found = {c.ref: (c.skip_reason, c.date) for c in pypi_releases("up", listing=listing)}
    assert found == {"1.2.2": ("no sdist or wheel on PyPI: 2 bdist_egg", "2007-03-01T00:00:00Z"),
                     "1.2.4": ("no sdist or wheel on PyPI: 1 bdist_wininst", "2031-01-01T00:00:00Z"),
                     "1.2.5": ("", "2031-01-01T00:00:00Z"), "1.3": ("", "2031-01-01T00:00:00Z")}


def test_forkpoint_over_every_release_skips_one_it_cannot_open_and_ranks_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``forkpoint TARGET pypi:MySQL-python`` stopped at 1.2.2 ("has no sdist or wheel to
    download") and ranked nothing; the release is now recorded under ``skipped_candidates``, never
    fetched, and the others are ranked."""
    from lineage.fork import candidates

    cache = tmp_path / "cache"
    cached_wheel(cache, "uppkg", "1.0", {"uppkg/a.py": "".join(_function(i) for i in range(8))}, "2031-01-01T00:00:00Z")
    listing = {"0.9": [_listed("uppkg-0.9-py2.5.egg", "bdist_egg", "2030-01-01T00:00:00Z")],
               "1.0": [_listed("uppkg-1.0-py3-none-any.whl", "bdist_wheel")]}
    monkeypatch.setattr(candidates, "_release_listing", lambda name: listing if name == "uppkg" else {})
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")  # 0.9 would need the network: it is not fetched
    target = tmp_path / "target" / "uppkg"
    target.mkdir(parents=True)
    (target / "a.py").write_text("".join(_function(i) for i in range(8)))
    out = tmp_path / "out"
    assert main(["forkpoint", str(target.parent), "pypi:uppkg", "--out", str(out), "-q", "--jobs", "1",
                 "--cache-dir", str(cache)]) == 0
    found = json.loads((out / "forkpoint.json").read_text())
    assert [c["ref"] for c in found["candidates"]] == ["1.0"]
    assert found["skipped_candidates"] == [{"candidate": "pypi:uppkg==0.9",
                                            "reason": "no sdist or wheel on PyPI: 1 bdist_egg"}]


def test_a_release_whose_version_pep_440_cannot_read_is_a_candidate_placed_by_its_date() -> None:
    """suds-jurko's first five releases are ``0.4.1.jurko.1`` to ``.5``: PEP 440 cannot read those
    version strings, and ``forkpoint TARGET pypi:suds-jurko`` left them out without a word. Without
    ``--versions`` each is a candidate after the last release dated before it; under a specifier,
    which cannot judge it, a skipped candidate saying why and how to rank it."""
    from lineage.fork.candidates import pypi_releases

    listing = {"0.5": [_listed("up-0.5.tar.gz", "sdist", "2013-11-25T00:00:00Z")],
               "0.4.1.fork.2": [_listed("up-0.4.1.fork.2.zip", "sdist", "2012-05-01T00:00:00Z")],
               "0.4.1.fork.1": [_listed("up-0.4.1.fork.1.zip", "sdist", "2011-03-01T00:00:00Z")],
               "0.4": [_listed("up-0.4.tar.gz", "sdist", "2010-09-15T00:00:00Z")],
               "0.6": [_listed("up-0.6.tar.gz", "sdist", "2014-01-24T00:00:00Z")],
               "0.4.1.fork.0": []}  # no files: no candidate, as for any release
    every = pypi_releases("up", listing=listing)
    assert [(c.ref, c.skip_reason) for c in every] == [
        ("0.4", ""), ("0.4.1.fork.1", ""), ("0.4.1.fork.2", ""), ("0.5", ""), ("0.6", "")]
    assert every[1].spec == "pypi:up==0.4.1.fork.1" and every[1].date == "2011-03-01T00:00:00Z"
    narrowed = pypi_releases("up", versions=">=0.5", listing=listing)
    assert [c.ref for c in narrowed if not c.skip_reason] == ["0.5", "0.6"]
    assert [(c.ref, c.skip_reason) for c in narrowed if c.skip_reason] == [
        ("0.4.1.fork.1", "its version '0.4.1.fork.1' is no PEP 440 version, which --versions cannot judge "
                         "(name it as pypi:up==0.4.1.fork.1 to rank it)"),
        ("0.4.1.fork.2", "its version '0.4.1.fork.2' is no PEP 440 version, which --versions cannot judge "
                         "(name it as pypi:up==0.4.1.fork.2 to rank it)")]



def test_a_release_pep_440_cannot_read_goes_after_the_last_release_uploaded_before_it() -> None:
    """A backport uploaded late for an old branch (1.2.10, 2021, after 2.0.0, 2020) keeps the
    PEP 440 releases' version order; a release whose version PEP 440 cannot read, uploaded in
    2020-06, came after 2.0.0 and goes there, not before 1.2.10 (the first release in version
    order uploaded after it)."""
    from lineage.fork.candidates import pypi_releases

    listing = {"1.2.9": [_listed("up-1.2.9.tar.gz", "sdist", "2019-01-01T00:00:00Z")],
               "1.2.10": [_listed("up-1.2.10.tar.gz", "sdist", "2021-01-01T00:00:00Z")],
               "2.0.0": [_listed("up-2.0.0.tar.gz", "sdist", "2020-01-01T00:00:00Z")],
               "2.1": [_listed("up-2.1.tar.gz", "sdist", "2022-01-01T00:00:00Z")],
               "2.0.x.fork": [_listed("up-2.0.x.fork.zip", "sdist", "2020-06-01T00:00:00Z")],
               "1.0.x.fork": [_listed("up-1.0.x.fork.zip", "sdist", "2018-01-01T00:00:00Z")]}
    assert [c.ref for c in pypi_releases("up", listing=listing)] == [
        "1.0.x.fork", "1.2.9", "1.2.10", "2.0.0", "2.0.x.fork", "2.1"]
