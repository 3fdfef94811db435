"""The real cases' truth builders on tiny inputs made here (no network, no fetched code)."""

from __future__ import annotations

import gzip
import textwrap
from pathlib import Path

import git
import pytest

from tests.eval.real import align, cases, gittruth, vendored

OLD_A = textwrap.dedent(
    """\
    import os


    def load(path):
        with open(path) as fh:
            data = fh.read()
        return data.split('\\n')


    def save(path, rows):
        text = "\\n".join(rows)
        raise ValueError("cannot save to a read-only archive here")
    """
)
NEW_A = textwrap.dedent(
    """\
    import os
    import sys


    def load(path):
        with open(path) as fh:
            data = fh.read()
        return data.split("\\n")


    def save(path, rows):
        text = "\\t".join(rows)
        raise ValueError("cannot save to a read-only archive here")
    """
)
NEW_B = "def brand_new(x):\n    return x * 2\n"


def _commit(repo: git.Repo, root: Path, files: dict[str, str], message: str) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
        repo.index.add([rel])
    actor = git.Actor("test", "test@example.invalid")
    repo.index.commit(message, author=actor, committer=actor)


@pytest.fixture()
def history(tmp_path: Path) -> gittruth.Repo:
    root = tmp_path / "repo"
    repo = git.Repo.init(root)
    _commit(repo, root, {"src/pkg/a.py": OLD_A}, "old")
    repo.create_tag("old")
    _commit(repo, root, {"src/pkg/a.py": NEW_A, "src/pkg/b.py": NEW_B}, "new")
    repo.create_tag("new")
    return gittruth.Repo(root)


def test_blame_truth_marks_unchanged_reformatted_and_new_lines(history: gittruth.Repo) -> None:
    # The releases lay the files out without src/, as wheels do.
    target = {"pkg/a.py": NEW_A.encode(), "pkg/b.py": NEW_B.encode()}
    upstream = {"pkg/a.py": OLD_A.encode()}
    truth, files, counts = gittruth.build_truth(history, "old", "new", target, upstream, jobs=1)
    by_line = {(row["target_path"], row["line"]): row for row in truth}
    # Unchanged lines: verbatim, at their old place (line numbers shift by the new import).
    assert by_line[("pkg/a.py", 1)]["upstream_line"] == 1
    assert by_line[("pkg/a.py", 5)] | {} == {
        "target_path": "pkg/a.py",
        "line": 5,
        "expected": "verbatim",
        "upstream_path": "pkg/a.py",
        "upstream_line": 4,
        "category": "same_file",
    }
    assert by_line[("pkg/a.py", 13)]["upstream_line"] == 12
    # Only the quotes changed: blame says new, the reformat rule pairs it as near.
    assert by_line[("pkg/a.py", 8)]["expected"] == "near"
    assert by_line[("pkg/a.py", 8)]["category"] == "reformatted"
    assert by_line[("pkg/a.py", 8)]["upstream_line"] == 7
    # A line edited in place, still similar to the line it replaced: a near copy (step 5b).
    assert by_line[("pkg/a.py", 12)]["expected"] == "near"
    assert by_line[("pkg/a.py", 12)]["category"] == "edited"
    assert by_line[("pkg/a.py", 12)]["upstream_line"] == 11
    # Added lines, and every line of a file created after OLD, are not copies.
    assert ("pkg/a.py", 2) not in by_line
    assert not [key for key in by_line if key[0] == "pkg/b.py"]
    assert counts["target_files_scored"] == 2
    assert {(row["side"], row["path"]) for row in files} == {
        ("target", "pkg/a.py"),
        ("target", "pkg/b.py"),
        ("upstream", "pkg/a.py"),
    }


def test_rename_rule_pairs_lines_changed_only_by_the_package_name(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    repo = git.Repo.init(root)
    old = "from upkg import core\n\n\ndef run(argument_one, argument_two):\n    return core.go(argument_one)\n"
    new = "from forkpkg import core\n\n\ndef run(argument_one, argument_two):\n    return core.go(argument_one)\n"
    _commit(repo, root, {"upkg/m.py": old}, "old")
    repo.create_tag("old")
    repo.index.remove(["upkg/m.py"], working_tree=True)
    _commit(repo, root, {"forkpkg/m.py": new}, "rename")
    repo.create_tag("new")
    truth, _, _ = gittruth.build_truth(
        gittruth.Repo(root),
        "old",
        "new",
        {"forkpkg/m.py": new.encode()},
        {"upkg/m.py": old.encode()},
        rename=("forkpkg", "upkg"),
        jobs=1,
    )
    rows = {row["line"]: row for row in truth}
    assert rows[1]["category"] == "renamed" and rows[1]["expected"] == "near"
    assert rows[4]["category"] == "same_file" and rows[4]["upstream_path"] == "upkg/m.py"


def test_diff_pairs_equal_blocks_and_similar_changed_lines() -> None:
    ours = ["import urllib3", "x = 1", "totally new statement here()", "y = 2"]
    theirs = ["from pip._vendor import urllib3", "x = 1", "y = 2"]
    assert align.diff_pairs(ours, theirs) == [(0, 0, False), (1, 1, True), (3, 2, True)]


def test_vendored_truth_categories() -> None:
    target = {
        "v/_vendor/p/m.py": "from v._vendor.p import q\nA = 1\nPATCHED = True\n",
        "v/_vendor/__init__.py": "X = 1\n",
    }
    upstream = {"p/m.py": "from p import q\nA = 1\n"}
    rows = vendored.truth_rows(target, upstream, "v/_vendor/")
    got = [(r["target_path"], r["line"], r["operator"], r["expected"]) for r in rows]
    assert got == [
        ("v/_vendor/__init__.py", 1, "not_vendored", "none"),
        ("v/_vendor/p/m.py", 1, "changed", "near"),
        ("v/_vendor/p/m.py", 2, "equal", "verbatim"),
        ("v/_vendor/p/m.py", 3, "unpaired", "none"),
    ]


def test_git_truth_refuses_files_that_changed_since_the_truth_was_made() -> None:
    case = cases.load_manifest()["survival"]
    row = cases.read_files_csv(case.dir / "files.csv")[0]
    with pytest.raises(cases.RealCaseError, match="sha256"):
        cases.git_truth_rows(case, {}, {}, {(row["side"], row["path"]): "0" * 64})


def test_committed_truth_tables_are_positions_only() -> None:
    for name in ("survival", "renamed_fork"):
        case = cases.load_manifest()[name]
        with gzip.open(case.dir / cases.TRUTH_FILE, "rt", encoding="utf-8") as fh:
            header = fh.readline().rstrip("\n")
        assert header.split(",") == cases.GIT_TRUTH_COLUMNS


@pytest.mark.slow
@pytest.mark.parametrize("name", ["vendored", "survival", "renamed_fork"])
def test_real_case_builds_from_pypi(name: str, tmp_path: Path) -> None:
    case = cases.load_manifest()[name]
    cases.write_case(case, tmp_path)
    truth = (tmp_path / "truth.csv").read_text().splitlines()
    assert len(truth) > 1000
    assert any(line.split(",")[2] == "1" for line in truth[1:])
