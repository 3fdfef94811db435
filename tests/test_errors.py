"""Bad input a user can give, each answered with one line on stderr and exit 2 (issue 9, part 4)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import treegen

from lineage.cli import main

ONE = "def grow(value):\n    total = value * 2\n    return total + 1\n"


def _trees(tmp_path: Path) -> tuple[Path, Path]:
    target = treegen.write_tree(tmp_path / "target", {"a.py": ONE})
    upstream = treegen.write_tree(tmp_path / "upstream", {"a.py": ONE})
    return target, upstream


def _one_error(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("lineage: error: "), err
    assert all(w in err for w in words), err
    return err


def test_target_without_python_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A target path that exists but holds no Python file (a typo, the wrong folder) is refused
    as an upstream is, not reported as "0 of 0 files"."""
    _, upstream = _trees(tmp_path)
    empty = treegen.write_tree(tmp_path / "docs", {"README.md": "not code\n"})
    out = tmp_path / "out"
    assert main(["compare", str(empty), str(upstream), "--out", str(out), "-q", "--jobs", "1"]) == 2
    _one_error(capsys, "target", "holds no Python files", "--allow-empty")
    assert not out.exists()
    assert main(["compare", str(empty), str(upstream), "--out", str(out), "-q", "--jobs", "1", "--allow-empty"]) == 0
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["files"]["python"] == 0


def test_a_bare_repository_without_a_ref_is_told_to_name_one(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A bare clone given as a folder (``click.git`` for ``click.git@8.5.0``) holds only git's
    objects: the error names the fix rather than "no Python files ... check the path"."""
    import git

    target, upstream = _trees(tmp_path)
    work = git.Repo.init(tmp_path / "work")
    shutil.copy(target / "a.py", tmp_path / "work" / "a.py")
    work.index.add(["a.py"])
    work.index.commit("one", author=git.Actor("T", "t@example.com"), committer=git.Actor("T", "t@example.com"))
    bare = tmp_path / "mirror.git"
    work.clone(str(bare), bare=True).close()
    work.close()
    out = tmp_path / "out"
    assert main(["compare", str(bare), str(upstream), "--out", str(out), "-q", "--jobs", "1"]) == 2
    _one_error(capsys, "target", "is a git directory (a bare repository or a .git folder)", f"{bare}@REF")
    assert not out.exists()
    assert main(["compare", f"{bare}@HEAD", str(upstream), "--out", str(out), "-q", "--jobs", "1"]) == 0


def test_upstream_without_python_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target, _ = _trees(tmp_path)
    empty = treegen.write_tree(tmp_path / "typo", {"README.md": "not code\n"})
    out = tmp_path / "out"
    assert main(["compare", str(target), str(empty), "--out", str(out), "-q", "--jobs", "1"]) == 2
    _one_error(capsys, "holds no Python files", "--allow-empty")
    assert not out.exists()
    assert main(["compare", str(target), str(empty), "--out", str(out), "-q", "--jobs", "1",
                 "--allow-empty"]) == 0
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["files"]["indexed"] == 1


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_jobs_below_one(tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    target, upstream = _trees(tmp_path)
    assert main(["compare", str(target), str(upstream), "--out", str(tmp_path / "o"), f"--jobs={jobs}"]) == 2
    _one_error(capsys, f"--jobs must be a whole number >= 1, got {jobs}")


@pytest.mark.parametrize("under", ["", "sub"])
def test_cache_dir_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], under: str) -> None:
    target, upstream = _trees(tmp_path)
    afile = tmp_path / "afile"
    afile.write_text("x")
    cache = afile / under if under else afile
    assert main(["compare", str(target), str(upstream), "--out", str(tmp_path / "o"), "-q",
                 "--cache-dir", str(cache)]) == 2
    _one_error(capsys, f"cache folder {cache}", "not a directory")
    assert main(["markers", str(target), "--cache-dir", str(cache)]) == 2
    _one_error(capsys, "not a directory")


@pytest.mark.parametrize(("manifest", "field"), [
    ({"target": {"name": "x", "version": "1", "sha256": "0" * 64}}, "upstreams is missing"),
    ({"target": {"name": "x", "version": "1", "sha256": "0" * 64}, "upstreams": []}, "upstreams must be"),
    ({"upstreams": [{"name": "y", "version": "1", "sha256": "0" * 64}]}, "target is missing"),
    ({"target": {"name": "x", "version": "1"}, "upstreams": [{}]}, "target.sha256 is missing"),
    ({"target": {"name": "x", "version": "1", "sha256": "0" * 64}, "upstreams": [{"name": "y", "version": 2}]},
     "upstreams[0].version must be a version, got 2"),
    ({"target": {"name": "x y", "version": "1", "sha256": "0" * 64}, "upstreams": []}, "upstreams must be"),
    ({"target": "sglang", "upstreams": [{}]}, "target must be an object"),
    ([1], "the top level must be an object"),
])
def test_corpus_manifest_errors_name_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               manifest: object, field: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    assert main(["corpus", str(path), "--out", str(tmp_path / "o")]) == 2
    _one_error(capsys, f"corpus manifest {path}: {field}")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_bare_repository_without_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fetched mirror may lack its config file; git reads it as a bare repository, so must we."""
    work = tmp_path / "work"
    work.mkdir()
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def git(*args: str, cwd: Path = work) -> None:
        subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)

    git("init", "-q")
    (work / "a.py").write_text("# Adapted from vllm/a.py\n" + ONE)
    git("add", "a.py")
    git("commit", "-qm", "one")
    (work / "b.py").write_text("y = 2\n")
    git("add", "b.py")
    git("commit", "-qm", "two")
    git("clone", "-q", "--bare", str(work), str(tmp_path / "mirror.git"), cwd=tmp_path)
    (tmp_path / "mirror.git" / "config").unlink()
    mirror = tmp_path / "mirror.git"
    _, upstream = _trees(tmp_path)

    assert main(["markers", f"{mirror}@HEAD", "--json", "--cache-dir", str(tmp_path / "c")]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["target_path"], r["kind"]) for r in rows] == [("a.py", "adapted_from")]
    out = tmp_path / "h"
    assert main(["history", f"{mirror}@HEAD~1..HEAD", str(upstream), "--out", str(out), "-q",
                 "--cache-dir", str(tmp_path / "c"), "--jobs", "1"]) == 0
    history = (out / "history.csv").read_text(encoding="utf-8").splitlines()
    assert len(history) == 3  # a header and both commits

    # history refuses an upstream without Python files too, unless --allow-empty
    empty = treegen.write_tree(tmp_path / "typo", {"README.md": "not code\n"})
    args = ["history", f"{mirror}@HEAD~1..HEAD", str(empty), "--out", str(tmp_path / "h2"), "-q",
            "--cache-dir", str(tmp_path / "c"), "--jobs", "1"]
    assert main(args) == 2
    _one_error(capsys, "holds no Python files")
    assert main([*args, "--allow-empty"]) == 0


def _actions(parser: object, name: str = "lineage") -> list[tuple[str, object]]:
    import argparse

    found: list[tuple[str, object]] = []
    for action in parser._actions:  # type: ignore[attr-defined]
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                found += _actions(subparser, f"{name} {sub}")
        else:
            found.append((name, action))
    return found


def test_every_option_has_help_and_set_names_where_its_keys_are(capsys: pytest.CaptureFixture[str]) -> None:
    from lineage.cli import build_parser

    actions = _actions(build_parser())
    missing = [f"{name} {'/'.join(a.option_strings) or a.dest}" for name, a in actions  # type: ignore[attr-defined]
               if not a.help]  # type: ignore[attr-defined]
    assert missing == []
    commands = sorted({name for name, a in actions if "--set" in a.option_strings})  # type: ignore[attr-defined]
    assert {"lineage compare", "lineage corpus", "lineage forkpoint", "lineage history"} <= set(commands)
    for command in commands:
        with pytest.raises(SystemExit):
            main([command.split()[1], "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "`lineage params` lists every KEY" in text, command  # the ~150 keys are listed there


def test_the_api_refuses_the_same(tmp_path: Path) -> None:
    """The checks live in RunSettings and compare, so an API caller gets them as the CLI does."""
    from lineage.api import compare
    from lineage.errors import LineageError
    from lineage.settings import RunSettings

    afile = tmp_path / "afile"
    afile.write_text("x")
    for bad, message in (({"jobs": -1}, "--jobs must be a whole number >= 1, got -1"),
                         ({"jobs": True}, "--jobs must be"),
                         ({"max_file_bytes": 0}, "--max-file-bytes must be a whole number >= 1, got 0"),
                         ({"cache_dir": afile / "sub"}, "which is not a directory")):
        with pytest.raises(LineageError, match=message):
            RunSettings(**bad)  # type: ignore[arg-type]
    target, _ = _trees(tmp_path)
    empty = treegen.write_tree(tmp_path / "typo", {"README.md": "not code\n"})
    settings = RunSettings(jobs=1, use_cache=False, cache_dir=tmp_path / "c")
    with pytest.raises(LineageError, match="holds no Python files"):
        compare(str(target), [str(empty)], settings=settings)
    assert compare(str(target), [str(empty)], settings=settings, allow_empty=True).summary()["files"]


def test_the_api_takes_a_list_of_upstreams_and_paths(tmp_path: Path) -> None:
    """A lone spec for ``upstreams`` is refused with the fix (a string was iterated letter by
    letter: "no such file or directory: p"), no upstream at all too (the CLI's own check is not
    on the API's path); a ``pathlib.Path`` is a spec (it was an AttributeError from deep inside)."""
    from lineage.api import compare
    from lineage.errors import LineageError
    from lineage.history.run import run_history
    from lineage.settings import RunSettings

    target, upstream = _trees(tmp_path)
    settings = RunSettings(jobs=1, use_cache=False, cache_dir=tmp_path / "c")
    for bad in (str(upstream), upstream):
        with pytest.raises(LineageError, match=r"compare: the upstreams are a list of sources, not one: \[.*\]"):
            compare(str(target), bad, settings=settings)  # type: ignore[arg-type]
    with pytest.raises(LineageError, match="compare needs at least one upstream"):
        compare(str(target), [], settings=settings)
    with pytest.raises(LineageError, match="history: the upstreams are a list"):
        run_history(f"{target}@HEAD", str(upstream), tmp_path / "h", settings=settings)  # type: ignore[arg-type]
    with pytest.raises(LineageError, match="history needs at least one upstream"):
        run_history(f"{target}@HEAD", [], tmp_path / "h", settings=settings)
    by_path = compare(target, [upstream], settings=settings)
    by_str = compare(str(target), [str(upstream)], settings=settings)
    assert by_path.target.info.spec == str(target) and by_path.upstreams[0].info.spec == str(upstream)
    assert by_path.files.equals(by_str.files) and by_path.headline() == by_str.headline()
