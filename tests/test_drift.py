"""drift on repositories built with GitPython: an upstream with known commits, and a fork made
from its first commit by cherry-picking a known subset and renaming the package."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest
from conftest import cached_wheel

from lineage.cli import main
from lineage.fork.drift import DRIFT_COLUMNS, run_drift
from lineage.fork.params import DriftParams
from lineage.settings import RunSettings

git = pytest.importorskip("git")
ACTOR = git.Actor("t", "t@example.org")


def _function(name: str, i: int) -> str:
    """10 non-blank lines, distinct per name and number."""
    body = "\n".join(f"    value_{k} = compute_{name}_{k}(argument_{i}, {k * i + 3})" for k in range(8))
    return f"def {name}_{i}(argument_{i}):\n{body}\n    return value_0\n\n\n"


def _module(name: str, numbers: range | list[int], header: str = "") -> str:
    return header + "".join(_function(name, i) for i in numbers)


def _commit(repo, files: dict[str, str | None], message: str) -> str:  # type: ignore[no-untyped-def]
    root = Path(repo.working_tree_dir)
    for rel, text in files.items():
        if text is None:
            repo.index.remove([rel], working_tree=True)
            continue
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
        repo.index.add([rel])
    return repo.index.commit(message, author=ACTOR, committer=ACTOR).hexsha


A_HEAD = "from pkg.b import b_0\n\n\n"


def _upstream(root: Path) -> tuple[object, dict[str, str]]:
    repo = git.Repo.init(root, initial_branch="main")
    c: dict[str, str] = {}
    c["base"] = _commit(repo, {"pkg/__init__.py": "", "pkg/a.py": _module("a", range(5), A_HEAD),
                               "pkg/b.py": _module("b", range(5)), "pkg/c.py": _module("c", range(5)),
                               "tests/test_a.py": "from pkg.a import a_0\n\n\ndef test_a():\n    assert a_0(1)\n",
                               "README.md": "upstream\n"}, "initial")
    # 1: a new function and an import that the fork's rename rewrites (11 lines added).
    c["c1"] = _commit(repo, {"pkg/a.py": _module("a", range(6), "from pkg.c import c_0\n" + A_HEAD)},
                      "Add a_5 (#1)")
    c["c2"] = _commit(repo, {"pkg/b.py": _module("b", range(7))}, "Add b_5 and b_6 (#2)")  # 20 added
    c["c3"] = _commit(repo, {"pkg/d.py": _module("d", range(3))}, "New module d (#3)")  # a new file
    c["c4"] = _commit(repo, {"tests/test_a.py": "from pkg.a import a_0\n\n\ndef test_a():\n    assert a_0(2)\n"},
                      "Test another value (#4)")
    c["c5"] = _commit(repo, {"pkg/c.py": _module("c", range(4))}, "Remove c_4 (#5)")  # 10 removed
    c["c6"] = _commit(repo, {"README.md": "upstream, documented\n"}, "Docs only (#6)")
    a7 = _module("a", range(7), "from pkg.c import c_0\n" + A_HEAD).replace(
        "value_3 = compute_a_3(argument_1, 6)", "value_3 = compute_a_3(argument_1, 7)")
    c["c7"] = _commit(repo, {"pkg/a.py": a7}, "Fix a_1, add a_6 (#7)")  # 11 added, 1 removed
    # 8: a pull request merged with a merge commit (first parent: main).
    main_head = repo.head.commit
    feature = repo.create_head("feature", main_head)
    feature.checkout()
    _commit(repo, {"pkg/c.py": _module("c", [*range(4), 5, 6])}, "Add c_5 and c_6")
    repo.heads.main.checkout()
    repo.git.merge("feature", "--no-ff", "-m", "Merge pull request #8 from someone/feature")
    c["c8"] = repo.head.commit.hexsha
    return repo, c


def _fork(up, root: Path, c: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    """The upstream at its first commit, with #1, #3 and #7 cherry-picked, #2 half of it, and
    the package renamed to ``forked`` (imports rewritten), tests left out."""
    fork = up.clone(root)
    fork.git.checkout("-b", "fork", c["base"])
    for name in ("c1", "c2", "c3", "c7"):
        fork.git.cherry_pick(c[name])
    _commit(fork, {"pkg/b.py": _module("b", range(6))}, "the fork keeps b_5 only")
    fork.git.rm("-r", "-q", "tests")
    fork.git.mv("pkg", "forked")
    for path in (root / "forked").glob("*.py"):
        path.write_text(path.read_text().replace("from pkg.", "from forked."))
    fork.git.add("-A")
    fork.index.commit("rename the package", author=ACTOR, committer=ACTOR)


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    up, c = _upstream(tmp_path / "up")
    _fork(up, tmp_path / "fork", c)
    return tmp_path / "up", tmp_path / "fork", c


def _rows(out: Path) -> list[dict[str, str]]:
    with (out / "drift.csv").open() as handle:
        return list(csv.DictReader(handle))


def test_each_commit_status(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    up, fork, c = repos
    out = tmp_path / "out"
    assert main(["drift", f"{fork}@HEAD", f"{up}@{c['base']}..main", "--out", str(out), "-q"]) == 0
    rows = _rows(out)
    assert list(rows[0]) == DRIFT_COLUMNS
    got = {r["commit"]: (r["pr"], r["status"], int(r["lines_added"]), int(r["added_present"]),
                         int(r["lines_removed"]), int(r["removed_absent"])) for r in rows}
    assert got == {
        # `return value_0` is in the file before and after: not telling, not counted.
        c["c1"]: ("1", "applied", 10, 10, 0, 0),  # the import matches through the rename
        c["c2"]: ("2", "partial", 18, 9, 0, 0),
        c["c3"]: ("3", "applied", 30, 30, 0, 0),  # a new file, found through the folder map
        c["c4"]: ("4", "not_applicable", 0, 0, 0, 0),  # tests: not in the fork
        c["c5"]: ("5", "missing", 0, 0, 9, 0),
        c["c7"]: ("7", "applied", 10, 10, 1, 1),
        c["c8"]: ("8", "missing", 18, 0, 0, 0),  # the merge, diffed against its first parent
    }
    assert [r["commit"] for r in rows] == [c[k] for k in ("c1", "c2", "c3", "c4", "c5", "c7", "c8")]
    by_commit = {r["commit"]: r for r in rows}
    assert by_commit[c["c3"]]["files"] == "pkg/d.py"
    assert by_commit[c["c3"]]["target_files"] == "forked/d.py"
    assert by_commit[c["c1"]]["target_files"] == "forked/a.py"
    summary = json.loads((out / "drift.json").read_text())
    assert summary["counts"] == {"applied": 3, "partial": 1, "missing": 2, "not_applicable": 1}
    assert summary["drift_parameters"] == DriftParams().to_dict()
    assert summary["pairing"]["package_renames"] == {"pkg": "forked"}
    assert summary["upstream"]["base_commit"] == c["base"]
    assert summary["target"]["digest"].startswith("git:")


def test_the_api_takes_run_settings_and_drift_set(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    """run_drift takes one RunSettings (as api.compare does); --drift-set reaches drift.json."""
    up, fork, c = repos
    messages: list[str] = []
    result = run_drift(f"{fork}@HEAD", f"{up}@{c['base']}..main",
                       settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1, progress=messages.append))
    assert result.counts() == {"applied": 3, "partial": 1, "missing": 2, "not_applicable": 1}
    assert any(m.startswith("pairing at ") for m in messages) and messages[-1].startswith("7 commits")
    out = tmp_path / "out"
    # With every added line required (and the share of 0.5 present in c2 no longer partial):
    assert main(["drift", f"{fork}@HEAD", f"{up}@{c['base']}..main", "--out", str(out), "-q",
                 "--drift-set", "missing_max_share=0.5", "--applied-min-share", "1"]) == 0
    summary = json.loads((out / "drift.json").read_text())
    assert summary["drift_parameters"] == {"applied_min_share": 1.0, "missing_max_share": 0.5,
                                           "split_min_share": DriftParams().split_min_share,
                                           "fallback_min_tokens": DriftParams().fallback_min_tokens}
    assert summary["counts"] == {"applied": 3, "partial": 0, "missing": 3, "not_applicable": 1}


def test_vendored_copy_with_target_path(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    """The fork's package vendored into an application's folder, with code of its own beside it."""
    import shutil

    up, fork, c = repos
    app = tmp_path / "app"
    shutil.copytree(fork / "forked", app / "app" / "_vendor" / "forked")
    (app / "app" / "main.py").write_text(_module("main", range(3)))
    out = tmp_path / "out"
    assert main(["drift", str(app), f"{up}@{c['base']}..main", "--out", str(out), "-q",
                 "--target-path", "app/_vendor"]) == 0
    rows = {r["pr"]: (r["status"], r["target_files"]) for r in _rows(out)}
    assert rows == {"1": ("applied", "app/_vendor/forked/a.py"), "2": ("partial", "app/_vendor/forked/b.py"),
                    "3": ("applied", "app/_vendor/forked/d.py"), "4": ("not_applicable", ""),
                    "5": ("missing", "app/_vendor/forked/c.py"), "7": ("applied", "app/_vendor/forked/a.py"),
                    "8": ("missing", "app/_vendor/forked/c.py")}
    assert json.loads((out / "drift.json").read_text())["target"]["python_files"] == 5


def test_restrict_and_pair_at_parent(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    up, fork, c = repos
    out = tmp_path / "out"
    assert main(["drift", f"{fork}@HEAD", f"{up}@{c['base']}..main", "--out", str(out), "-q",
                 "--prs", "2,8", "--commits", c["c7"][:10], "--pair-at", "parent"]) == 0
    assert [(r["pr"], r["status"]) for r in _rows(out)] == [("2", "partial"), ("7", "applied"), ("8", "missing")]
    assert json.loads((out / "drift.json").read_text())["selection"] == {"commits": [c["c7"][:10]],
                                                                         "prs": ["2", "8"]}


def test_base_auto(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    up, fork, c = repos
    out = tmp_path / "out"
    assert main(["drift", f"{fork}@HEAD", f"{up}@{c['base']}..main", "--out", str(out), "-q",
                 "--base", "auto"]) == 0
    summary = json.loads((out / "drift.json").read_text())
    base = summary["base_auto"]["commit"]
    assert summary["upstream"]["base_commit"] == base
    order = [c[k] for k in ("base", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8")]
    assert base in order and summary["base_auto"]["candidates"] == 9
    assert [r["commit"] for r in _rows(out)] == [s for s in order[order.index(base) + 1:] if s != c["c6"]]


def test_base_auto_walks_the_users_range_once(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """forkpoint walks ``REPO@BASE..HEAD`` for its candidates; drift takes HEAD from that walk
    (round fix175: it walked the range a second time for its last commit), then walks only the
    range from the base it chose. The output is test_base_auto's."""
    import lineage.fork.drift as drift
    import lineage.history as history

    up, fork, c = repos
    walked: list[str] = []
    for module in (drift, history):
        real = module.parse_range

        def counting(spec: str, *args: object, _real=real, **kwargs: object):  # type: ignore[no-untyped-def]
            walked.append(spec)
            return _real(spec, *args, **kwargs)

        monkeypatch.setattr(module, "parse_range", counting)
    users = f"{up}@{c['base']}..main"
    out = tmp_path / "out"
    assert main(["drift", f"{fork}@HEAD", users, "--out", str(out), "-q", "--base", "auto"]) == 0
    base = json.loads((out / "drift.json").read_text())["base_auto"]["commit"]
    assert walked == [users, f"{up}@{base}..main"]


def test_base_auto_at_the_ranges_head_says_nothing_is_left_to_classify(
        repos: tuple[Path, Path, dict[str, str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A target holding HEAD's state (mysqlclient 1.3.14 over MySQLdb1's MySQLdb-1.2.4..master, whose
    last commit it forked from): the error says so, not "empty range ... write A..B with A the older
    commit", which blamed a range the user never wrote."""
    up, _, c = repos
    assert main(["drift", f"{up}@main", f"{up}@{c['base']}..main", "--out", str(tmp_path / "out"), "-q",
                 "--base", "auto"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lineage: error: --base auto: forkpoint's closest commit is HEAD itself (")
    assert "no upstream commit after the base is left to classify" in err and "empty range" not in err


@pytest.mark.parametrize("args", [
    ["{up}@nosuch..main"],  # unknown ref
    ["{up}@main"],  # not a range
    ["{up}@main..main"],  # an empty range
    ["{tmp}/nowhere@a..b"],
    ["{up}@{base}..main", "--commits", "deadbeef"],  # not in the range
    ["{up}@{base}..main", "--prs", "99"],
    ["{up}@{base}..main", "--applied-min-share", "1.5"],
    ["{up}@{base}..main", "--applied-min-share", "0.3", "--missing-max-share", "0.4"],
    ["{up}@{base}..main", "--drift-set", "nope=1"],
    ["{up}@{base}..main", "--drift-set", "missing_max_share=0.95"],  # not below applied_min_share
])
def test_bad_input_exits_2(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path, args: list[str],
                           capsys: pytest.CaptureFixture[str]) -> None:
    up, fork, c = repos
    spec = [a.format(up=up, tmp=tmp_path, base=c["base"]) for a in args]
    assert main(["drift", f"{fork}@HEAD", *spec, "--out", str(tmp_path / "out"), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lineage: error:") and err.count("\n") == 1
    given = [a for a in args if a.startswith("--") and a.endswith("-share")]
    assert all(option in err for option in given)  # the error names the options given


MIRROR = Path(os.environ.get("LINEAGE_PACKAGING_MIRROR", "/work/.mirror/pypa+packaging/repo"))


@pytest.mark.slow
@pytest.mark.skipif(not MIRROR.exists(), reason="no pypa/packaging repository (LINEAGE_PACKAGING_MIRROR)")
def test_real_cherry_picked_forks_of_packaging(tmp_path: Path) -> None:
    """The real case (tests/eval/drift_real.py): issue 14's target, precision and recall of
    ``applied`` >= 0.95 over four forks of pypa/packaging with the package renamed."""
    from tests.eval.drift_real import CASES, run_cases

    figures = run_cases(MIRROR, tmp_path / "work", tmp_path / "out", sorted(CASES))
    every = figures["all"]
    assert every["picked"] >= 50  # type: ignore[index]
    assert every["precision"] >= 0.95 and every["recall"] >= 0.95  # type: ignore[index]


def test_a_target_that_pairs_with_nothing_is_said(repos: tuple[Path, Path, dict[str, str]], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # Every commit is then not_applicable; the counts alone read as "the fork carries nothing".
    up, fork, c = repos
    own = tmp_path / "own"
    (own / "mine").mkdir(parents=True)
    (own / "mine" / "ledger.py").write_text(_module("ledger", range(3)))
    out = tmp_path / "out"
    assert main(["drift", str(own), f"{up}@{c['base']}..main", "--out", str(out), "-q"]) == 0
    summary = json.loads((out / "drift.json").read_text())
    assert summary["pairing"]["paired_target_files"] == 0
    assert set(summary["counts"]) and summary["counts"]["applied"] == 0
    assert "no target file corresponds to an upstream file at BASE" in capsys.readouterr().err
    assert main(["drift", f"{fork}@HEAD", f"{up}@{c['base']}..main", "--out", str(out), "-q"]) == 0
    assert "no target file corresponds" not in capsys.readouterr().err


def test_a_base_off_the_line_does_not_count_its_own_fixes(tmp_path: Path) -> None:
    """BASE a patch release on a maintenance branch merged back twice: each merge is counted less
    what it brings of BASE's own history (the target has those lines from BASE, it did not carry
    them): the first merge, all BASE's, is no change; the second is judged on the later fix alone."""
    repo = git.Repo.init(tmp_path / "up", initial_branch="main")
    _commit(repo, {"pkg/__init__.py": "", "pkg/m.py": _module("m", range(3))}, "1.0")
    release = repo.head.commit
    _commit(repo, {"pkg/n.py": _module("n", range(2))}, "feature on main")
    maint = repo.create_head("maint", release)
    maint.checkout()
    _commit(repo, {"pkg/m.py": _module("m", range(4))}, "fix 1")
    repo.heads.main.checkout()
    repo.git.merge("maint", "--no-ff", "-m", "merge 1")
    _commit(repo, {"pkg/n.py": _module("n", range(3))}, "more on main")
    maint.checkout()
    _commit(repo, {"pkg/m.py": _module("m", range(5))}, "fix 2")
    repo.create_tag("v1.0.2")
    _commit(repo, {"pkg/m.py": _module("m", range(6))}, "fix 3")
    repo.heads.main.checkout()
    repo.git.merge("maint", "--no-ff", "-m", "merge 2")
    target = tmp_path / "target"
    (target / "pkg").mkdir(parents=True)
    for rel in ("pkg/__init__.py", "pkg/m.py"):
        (target / rel).write_text(repo.git.show(f"v1.0.2:{rel}") + "\n")
    repo.close()
    rows = {r["subject"]: r for r in run_drift(str(target), f"{tmp_path / 'up'}@v1.0.2..main",
                                                 settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1)
                                                 ).commits.to_dict("records")}
    assert "merge 1" not in rows  # fix 1 is BASE's
    # fix 3 alone (9 telling lines of its function; 18 and 9 present with fix 2 counted in)
    assert (rows["merge 2"]["lines_added"], rows["merge 2"]["added_present"]) == (9, 0)
    assert rows["merge 2"]["status"] == "missing"


def test_a_commit_subject_that_a_spreadsheet_would_run_is_written_as_text(
        repos: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    """drift.csv holds the upstream's commit subjects, text nobody on the auditor's side wrote: one
    that opens with '=' (or +, -, @) is written with a leading "'" as lines.csv's cells are; the
    raw subject stays in the API's table."""
    import git

    up, fork, c = repos
    subject = '=HYPERLINK("https://example.invalid","fix")'
    head = _commit(git.Repo(up), {"pkg/e.py": _module("e", range(2))}, subject)
    result = run_drift(f"{fork}@HEAD", f"{up}@{c['base']}..main",
                       settings=RunSettings(cache_dir=tmp_path / "c", jobs=1))
    result.write(tmp_path / "out")
    assert next(r for r in _rows(tmp_path / "out") if r["commit"] == head)["subject"] == "'" + subject
    assert result.commits.set_index("commit").loc[head, "subject"] == subject
    assert next(r for r in _rows(tmp_path / "out") if r["commit"] == c["c1"])["subject"] == "Add a_5 (#1)"


def _dated(repo, files: dict[str, str], message: str, when: str) -> str:  # type: ignore[no-untyped-def]
    root = Path(repo.working_tree_dir)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
        repo.index.add([rel])
    return repo.index.commit(message, author=ACTOR, committer=ACTOR, author_date=when, commit_date=when).hexsha


def test_base_auto_leaves_out_a_closest_commit_dated_after_the_target(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A target dated June 2030 holding b_5, which the upstream added in January 2031: the closest
    commit is that later one, which the target cannot descend from. ``--base auto`` took it, and
    the range's one later commit was all drift read (exit 2 when none was left). It now takes the
    closest commit dated no later than the target, and the later one is a row (applied: the target
    holds its result)."""
    repo = git.Repo.init(tmp_path / "up", initial_branch="main")
    c = {"base": _dated(repo, {"pkg/__init__.py": "", "pkg/b.py": _module("b", range(5))}, "initial",
                        "2030-01-01T00:00:00"),
         "c1": _dated(repo, {"pkg/b.py": _module("b", range(6))}, "Add b_5 (#1)", "2031-01-01T00:00:00"),
         "c2": _dated(repo, {"pkg/b.py": _module("b", range(7))}, "Add b_6 (#2)", "2031-02-01T00:00:00")}
    fork = git.Repo.init(tmp_path / "fork", initial_branch="main")
    _dated(fork, {"forked/__init__.py": "", "forked/b.py": _module("b", range(6))}, "fork", "2030-06-01T00:00:00")
    out = tmp_path / "out"
    assert main(["drift", f"{tmp_path / 'fork'}@HEAD", f"{tmp_path / 'up'}@{c['base']}..main", "--out", str(out),
                 "--base", "auto", "--jobs", "1", "--cache-dir", str(tmp_path / "cache")]) == 0
    summary = json.loads((out / "drift.json").read_text())
    assert summary["base_auto"]["best"] == [c["c1"]]  # forkpoint's ranking is unchanged
    assert summary["base_auto"]["commit"] == summary["upstream"]["base_commit"] == c["base"]
    assert summary["base_auto"]["left_out_after_target"] == [c["c1"]] and summary["base_auto"]["rank"] == 3
    assert [(r["pr"], r["status"]) for r in _rows(out)] == [("1", "applied"), ("2", "missing")]
    assert "1 of forkpoint's closest commits dated after the target (2030-06-01T00:00:00Z) left out" \
        in capsys.readouterr().out


def test_an_added_copy_counts_beyond_what_the_target_could_have_had(tmp_path: Path) -> None:
    """An upstream commit after the fork point adds `x_total = compute_total(1)` in a new function
    (the target never took it); a second adds another copy of that line to `m_0` (its only change,
    so counted on it). The target holds the second commit's result: one copy, in `m_0`. Counted
    beyond the parent's count (1, the first commit's copy, which the target never had), the copy
    read as absent and the commit as missing; counted beyond what the target could have had (BASE's
    count, 0: the first commit is not applied), it is present."""
    repo = git.Repo.init(tmp_path / "up", initial_branch="main")
    base_text = _module("m", range(3))
    _commit(repo, {"pkg/__init__.py": "", "pkg/m.py": base_text}, "fork point")
    line = "    x_total = compute_total(1)\n"
    extra = "def extra():\n    alpha = first_alpha()\n" + line + "    return x_total\n"
    _commit(repo, {"pkg/m.py": base_text + extra}, "first copy")
    with_second = base_text.replace("def m_0(argument_0):\n", "def m_0(argument_0):\n" + line)
    _commit(repo, {"pkg/m.py": with_second + extra}, "second copy")
    repo.close()
    target = tmp_path / "target"
    (target / "pkg").mkdir(parents=True)
    (target / "pkg" / "__init__.py").write_text("")
    (target / "pkg" / "m.py").write_text(with_second)
    rows = {r["subject"]: r for r in run_drift(str(target), f"{tmp_path / 'up'}@main~2..main",
                                                 settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1)
                                                 ).commits.to_dict("records")}
    assert (rows["second copy"]["lines_added"], rows["second copy"]["added_present"]) == (1, 1)
    assert rows["second copy"]["status"] == "applied"
    # the first commit's own lines are not in the target: its one copy of the line is no proof
    assert (rows["first copy"]["lines_added"], rows["first copy"]["added_present"]) == (4, 1)
    assert rows["first copy"]["status"] == "partial"


def test_a_commit_that_only_moves_a_line_is_judged_by_order(tmp_path: Path) -> None:
    """A fix that moves one statement before another changes no line's count: it read
    not_applicable. A target holding the moved line in the new order carries it; one holding it in
    the old order lacks it; one that placed it elsewhere (its own arrangement) says nothing."""
    repo = git.Repo.init(tmp_path / "up", initial_branch="main")
    base_text = _module("m", range(3))
    lines = base_text.splitlines(keepends=True)
    moved = next(k for k, line in enumerate(lines) if "value_6 = compute_m_6(argument_1" in line)
    first = next(k for k, line in enumerate(lines) if "value_2 = compute_m_2(argument_1" in line)
    fixed = lines[:first] + [lines[moved]] + lines[first:moved] + lines[moved + 1:]
    elsewhere = lines[:moved] + lines[moved + 1:-1] + [lines[moved]] + lines[-1:]
    _commit(repo, {"pkg/__init__.py": "", "pkg/m.py": base_text}, "fork point")
    _commit(repo, {"pkg/m.py": "".join(fixed)}, "Compute value_6 first")
    repo.close()
    statuses = {}
    for name, text in (("carried", fixed), ("lacked", lines), ("rearranged", elsewhere)):
        target = tmp_path / name
        (target / "pkg").mkdir(parents=True)
        (target / "pkg" / "__init__.py").write_text("")
        (target / "pkg" / "m.py").write_text("".join(text))
        row = run_drift(str(target), f"{tmp_path / 'up'}@main~1..main",
                        settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1)).commits.iloc[0]
        statuses[name] = (row["status"], row["lines_added"], row["added_present"], row["lines_removed"],
                          row["removed_absent"])
    assert statuses == {"carried": ("applied", 1, 1, 1, 1), "lacked": ("missing", 1, 0, 1, 0),
                        "rearranged": ("not_applicable", 0, 0, 0, 0)}



def test_base_auto_takes_the_closest_commit_before_the_target_projects_first_release(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """ssh 1.8.0 (paramiko renamed, first release 1.7.8 of October 2011) is closest to paramiko
    1.8.0, which merged ssh back a year later; forkpoint said so and named 1.7.7.1, but ``--base
    auto`` took the closest dated no later than the target, the merge-back. Here the fork's first
    release is of June 2030, its 0.2 of June 2031 holds b_0..b_6, which the upstream has from its
    commit of February 2031: the closest. ``--base auto`` took that commit, and no commit was left
    after it (exit 2); it now takes forkpoint's bound, the base of January 2030, says so, and the
    two later commits are rows (applied: the fork holds them)."""
    from lineage.fork import candidates

    repo = git.Repo.init(tmp_path / "up", initial_branch="main")
    c = {"base": _dated(repo, {"pkg/__init__.py": "", "pkg/b.py": _module("b", range(5))}, "initial",
                        "2030-01-01T00:00:00"),
         "c1": _dated(repo, {"pkg/b.py": _module("b", range(6))}, "Add b_5 (#1)", "2031-01-01T00:00:00"),
         "c2": _dated(repo, {"pkg/b.py": _module("b", range(7))}, "Add b_6 (#2)", "2031-02-01T00:00:00")}
    cache = tmp_path / "cache"
    first = "2030-06-01T00:00:00Z"
    cached_wheel(cache, "fork", "0.1", {"forked/__init__.py": "", "forked/b.py": _module("b", range(5))}, first)
    target = cached_wheel(cache, "fork", "0.2", {"forked/__init__.py": "", "forked/b.py": _module("b", range(7))},
                    "2031-06-01T00:00:00Z")
    listing = {"0.1": [{"upload_time_iso_8601": first}], "0.2": [{"upload_time_iso_8601": "2031-06-01T00:00:00Z"}]}
    monkeypatch.setattr(candidates, "_release_listing", lambda name: listing if name == "fork" else {})
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    out = tmp_path / "out"
    assert main(["drift", target, f"{tmp_path / 'up'}@{c['base']}..main", "--out", str(out), "--base", "auto",
                 "--jobs", "1", "-q", "--cache-dir", str(cache)]) == 0
    summary = json.loads((out / "drift.json").read_text())
    chosen = summary["base_auto"]
    assert chosen["best"] == [c["c2"]]  # forkpoint's ranking is unchanged
    assert chosen["commit"] == summary["upstream"]["base_commit"] == c["base"]
    assert chosen["bound"] == "before_first_release" and chosen["bound_date"] == first
    assert chosen["left_out_after_first_release"] == [c["c2"]] and chosen["left_out_after_target"] == []
    assert [(r["pr"], r["status"]) for r in _rows(out)] == [("1", "applied"), ("2", "applied")]
    printed = capsys.readouterr().out
    assert (f"--base auto: base {c['base'][:12]} (rank 3, distance 20), the closest commit dated no later than "
            f"the first release of the target's project (0.1, {first}); 1 closer (distance 0) left out: 1 dated "
            "after that first release") in printed


def test_the_base_sentence_names_the_bound_that_chose_the_base() -> None:
    """What ``--base auto`` prints: the commit and why (a bound that left closer commits out),
    or forkpoint's closest when nothing was left out."""
    from lineage.fork.drift import base_sentence

    chosen = {"commit": "a" * 40, "rank": 2, "distance": 7, "best_distance": 3, "bound": "before_target",
              "bound_date": "2030-06-01T00:00:00Z", "target_date": "2030-06-01T00:00:00Z",
              "first_release": {}, "left_out_after_target": ["b" * 40], "left_out_after_first_release": []}
    assert base_sentence(chosen) == ("--base auto: 1 of forkpoint's closest commits dated after the target "
                                     "(2030-06-01T00:00:00Z) left out; base aaaaaaaaaaaa (rank 2, distance 7)")
    closest = {**chosen, "rank": 1, "distance": 3, "bound": "closest", "left_out_after_target": []}
    assert base_sentence(closest) == "--base auto: forkpoint's closest commit is aaaaaaaaaaaa (rank 1, distance 3)"
    # one candidate, BASE itself (MySQLdb1's 1.2.5 tag, on a branch master never merged, was not in
    # MySQLdb-1.2.4..master with --tags): nothing was chosen, and that is said
    alone = {**closest, "candidates": 1}
    assert base_sentence(alone) == ("--base auto: BASE aaaaaaaaaaaa is the only candidate the range gave (distance 3), "
                                    "so it stands; with --tags a candidate is a tag HEAD's history holds")
    assert base_sentence({**closest, "candidates": 2}) == base_sentence(closest)
