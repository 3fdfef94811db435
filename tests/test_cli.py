"""Tests for the `lineage` command: exit status, output, errors without tracebacks."""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import treegen

from lineage.cli import build_parser, main

UP = "upstream"


def lineage(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command in a fresh process (exit status and stderr as a user sees them), as
    the console script does (:func:`lineage.cli.run`)."""
    code = "from lineage.cli import run; run()"  # the console script's entry
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def assert_one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("lineage: error: ")
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("cli")
    up = treegen.gen_upstream(seed=1234, n_modules=2)
    m = up.module(0)
    names = treegen.Names(random.Random(8))
    target = {
        "pkg/copied.py": "# Adapted from https://github.com/vllm-project/vllm/blob/v0.6.4/vllm/worker.py\n"
                         + "\n".join(m.lines) + "\n",
        "pkg/other.py": "# Copied from transformers.models.llama.modeling_llama.LlamaRMSNorm\n"
                        + treegen.render(treegen.own_code(names, 1)),
        "pkg/plain.py": treegen.render(treegen.own_code(names, 1)),
    }
    return treegen.write_tree(base / "target", target), treegen.write_tree(base / UP, up.files())


def test_compare_prints_the_headline(trees: tuple[Path, Path], tmp_path: Path) -> None:
    target, upstream = trees
    out = tmp_path / "out"
    result = lineage("compare", str(target), str(upstream), "--out", str(out), "--no-cache", "-q", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # --quiet
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    printed = result.stdout.splitlines()
    assert printed[: len(summary["headline"])] == [f"{h}." for h in summary["headline"]]
    assert any(" verbatim " in line for line in printed)
    assert printed[-1].startswith("Wrote ") and str(out) in printed[-1]
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md",
                 "manifest.json", "html/index.html"):
        assert (out / name).is_file(), name


def test_compare_progress_goes_to_stderr(trees: tuple[Path, Path], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    target, upstream = trees
    assert main(["compare", str(target), str(upstream), "--out", str(tmp_path / "o"), "--no-cache",
                 "--no-html", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "lineage: " in captured.err
    assert not (tmp_path / "o" / "html").exists()


def test_set_is_recorded_in_the_manifest(trees: tuple[Path, Path], tmp_path: Path) -> None:
    target, upstream = trees
    out = tmp_path / "out"
    assert main(["compare", str(target), str(upstream), "--out", str(out), "--no-cache", "-q", "--no-html",
                 "--jobs", "1", "--set", "region_min_weight=40", "--set", "seed_max_count=7"]) == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["parameters"]["region_min_weight"] == 40.0
    assert isinstance(manifest["parameters"]["region_min_weight"], float)
    assert manifest["parameters"]["seed_max_count"] == 7
    regions = pd.read_csv(out / "regions.csv")
    assert (regions["evidence_weight"] >= 40.0).all()


@pytest.mark.parametrize("setting", ["no_such_knob=1", "region_min_weight=heavy", "region_min_weight",
                                     "seed_max_count=2.5"])
def test_bad_set_exits_2(trees: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                         setting: str) -> None:
    target, upstream = trees
    status = main(["compare", str(target), str(upstream), "--out", str(tmp_path / "o"), "--no-cache", "-q",
                   "--set", setting])
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("lineage: error: ") and "--set" in err[0]
    assert not (tmp_path / "o").exists()


def test_missing_path_exits_2_with_one_line(trees: tuple[Path, Path], tmp_path: Path) -> None:
    _, upstream = trees
    missing = tmp_path / "no" / "such" / "dir"
    line = assert_one_line_error(lineage("compare", str(missing), str(upstream), "--out", str(tmp_path / "o"),
                                         "--no-cache", "-q"))
    assert str(missing) in line
    line = assert_one_line_error(lineage("markers", str(missing), "--no-cache", "-q"))
    assert str(missing) in line


def test_a_newline_in_a_given_path_stays_on_the_error_line(trees: tuple[Path, Path], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A path or argument with a newline printed the error over two lines; it is shown escaped,
    as reports show such names."""
    _, upstream = trees
    (tmp_path / "out\nfile").write_text("x")
    for argv in (["compare", str(tmp_path / "no\nsuch"), str(upstream), "--out", str(tmp_path / "o")],
                 ["compare", str(upstream), str(upstream), "--out", str(tmp_path / "out\nfile")],
                 ["check", str(tmp_path / "no\nsuch"), "--max-copied-share", "5"],
                 ["compare", str(upstream), str(upstream), "x\ny", "--out", str(tmp_path / "o")]):
        with contextlib.suppress(SystemExit):
            assert main([*argv, "-q"] if argv[0] == "compare" else argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("lineage: error: ") and "\\n" in err, err


def test_corrupt_archive_exits_2(trees: tuple[Path, Path], tmp_path: Path) -> None:
    target, _ = trees
    bad = tmp_path / "broken-1.0.tar.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00 this is not really gzip data" * 3)
    assert_one_line_error(lineage("compare", str(target), str(bad), "--out", str(tmp_path / "o"),
                                  "--no-cache", "-q"))
    bad_zip = tmp_path / "broken.whl"
    bad_zip.write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    assert_one_line_error(lineage("compare", str(target), str(bad_zip), "--out", str(tmp_path / "o2"),
                                  "--no-cache", "-q"))


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_unknown_git_ref_exits_2(trees: tuple[Path, Path], tmp_path: Path) -> None:
    target, _ = trees
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.py").write_text("x = 1\n", encoding="utf-8")
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    for cmd in (["init", "-q"], ["add", "m.py"], ["commit", "-q", "-m", "one"]):
        subprocess.run(["git", *env_args, *cmd], cwd=repo, check=True, capture_output=True)
    line = assert_one_line_error(lineage("compare", str(target), f"{repo}@no-such-ref-xyz",
                                         "--out", str(tmp_path / "o"), "--no-cache", "-q"))
    assert "no-such-ref-xyz" in line
    # the same repository at a ref that exists works
    ok = lineage("compare", str(target), f"{repo}@HEAD", "--out", str(tmp_path / "o2"), "--no-cache", "-q",
                 "--no-html")
    assert ok.returncode == 0, ok.stderr


def _subcommands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sorted(sub.choices)


def test_every_subcommand_is_known() -> None:
    assert {"compare", "markers", "cache", "history"} <= set(_subcommands())


@pytest.mark.parametrize("command", [[], *[[c] for c in _subcommands()]])
def test_help_exits_0(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: lineage" + (f" {command[0]}" if command else ""))


@pytest.mark.parametrize("of", ["match", "drift", "store"])
def test_params_lists_every_key_with_its_default_and_range(of: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``lineage params`` is where --set's keys are listed (about 150 for the matcher: too many for
    every command's --help), each with the default and range the parameter object declares."""
    import dataclasses

    from lineage.fork.params import DriftParams
    from lineage.knobs import range_of
    from lineage.match.params import MatchParams
    from lineage.store.params import StoreParams

    cls = {"match": MatchParams, "drift": DriftParams, "store": StoreParams}[of]
    assert main(["params", "--of", of, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    fields = sorted(dataclasses.fields(cls), key=lambda f: f.name)
    assert [row["key"] for row in listed] == [f.name for f in fields]
    for row, f in zip(listed, fields, strict=True):
        assert row["default"] == f.default and row["type"] == type(f.default).__name__
        low, high = range_of(f)
        assert row["range"] == ("" if isinstance(f.default, str) else
                                f"[{low}, {high}]" if high is not None else f"[{low}, ...)")
    assert main(["params", "--of", of]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [f.name for f in fields]


def test_help_points_at_params_instead_of_listing_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = capsys.readouterr().out
    assert "lineage params" in out and "seed_max_count" not in out
    assert main(["compare", "a", "b", "--out", "x", "--set", "seed_max_cont=3"]) == 2
    err = capsys.readouterr().err
    assert "did you mean seed_max_count" in err and "`lineage params` lists the keys" in err


def test_python_dash_m_runs_the_same_cli() -> None:
    done = subprocess.run([sys.executable, "-m", "lineage", "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: lineage")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from lineage import __version__

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize("argv", [[], ["bogus"], ["compare"], ["compare", "t", "--out", "o", "--max-file-bytes", "1MB"],
                                  ["check", "report", "--max-unmarked-copied-lines", "abc"], ["store", "add"],
                                  ["compare", "t", "u", "--out", ""], ["cache", "info", "--cache-dir", " "],
                                  ["store", "add", "x", "--store", ""], ["scan", "t", "--store", "s", "--out", ""]])
def test_a_usage_error_is_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad usage gets the CLI's one line and exit 2, as bad input does (argparse printed its
    usage block above its own error line)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("lineage: error: ") and "--help" in err, err


def test_markers_lists_markers_naming_the_upstream(trees: tuple[Path, Path],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    target, _ = trees
    assert main(["markers", str(target), "--name", "vllm", "--no-cache", "-q"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("pkg/copied.py:1: adapted_from: Adapted from https://github.com/vllm-project/")
    assert "vllm-project/vllm" in lines[0] and "v0.6.4" in lines[0] and "vllm/worker.py" in lines[0]
    assert "1 of 3 files carry such a marker" in captured.err

    assert main(["markers", str(target), "--no-cache", "-q", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert sorted(r["target_path"] for r in records) == ["pkg/copied.py", "pkg/other.py"]
    copied = next(r for r in records if r["target_path"] == "pkg/copied.py")
    assert (copied["line"], copied["kind"], copied["repository"], copied["ref"], copied["path"]) == (
        1, "adapted_from", "vllm-project/vllm", "v0.6.4", "vllm/worker.py")

    assert main(["markers", str(target), "--name", "nothing-like-this", "--no-cache", "-q"]) == 0
    assert capsys.readouterr().out == ""


def test_the_markers_api_gives_what_the_command_prints(trees: tuple[Path, Path], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``lineage markers`` is a thin layer over :func:`lineage.api.markers` (the table was built in
    the CLI only, user39 round): the same rows, also as a DataFrame."""
    from lineage.api import markers
    from lineage.settings import RunSettings

    target, _ = trees
    settings = RunSettings(cache_dir=tmp_path / "cache", jobs=1)
    for names, every in (((), False), ((), True), (("vllm",), False)):
        argv = ["markers", str(target), "--cache-dir", str(tmp_path / "cache"), "-q", "--json",
                *(["--all"] if every else []), *(a for n in names for a in ("--name", n))]
        assert main(argv) == 0
        printed = json.loads(capsys.readouterr().out)
        found = markers(target, names, include_attribution=every, settings=settings)
        assert json.loads(json.dumps(found.rows)) == printed and found.python_files == 3
        assert list(found.frame["target_path"]) == [r["target_path"] for r in printed]
        assert found.frame.columns[:3].tolist() == ["target_path", "line", "kind"]
    assert markers(target, ["vllm"], settings=settings).marked_files == 1


def test_out_that_is_a_file_exits_2(trees: tuple[Path, Path], tmp_path: Path) -> None:
    """--out naming an existing regular file is bad usage: one line, exit 2, no traceback."""
    target, upstream = trees
    taken = tmp_path / "report.txt"
    taken.write_text("keep me\n", encoding="utf-8")
    assert_one_line_error(lineage("compare", str(target), str(upstream), "--out", str(taken), "--no-cache", "-q"))
    assert taken.read_text(encoding="utf-8") == "keep me\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_unwritable_stdout_is_one_line_not_a_traceback(trees: tuple[Path, Path], tmp_path: Path) -> None:
    target, upstream = trees
    code = "from lineage.cli import run; run()"  # the console script's entry
    for args in (["compare", str(target), str(upstream), "--out", str(tmp_path / "o"), "-q", "--jobs", "1"],
                 ["markers", str(target), "--name", "vllm", "-q"]):
        with open("/dev/full", "w") as full:
            result = subprocess.run([sys.executable, "-c", code, *args, "--cache-dir", str(tmp_path / "c")],
                                    stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
        line = assert_one_line_error(result)
        assert "standard output" in line and "No space left" in line
    # a reader that went away (head -1) is still no error
    proc = subprocess.Popen([sys.executable, "-c", code, "markers", str(target), "--name", "vllm", "-q",
                             "--cache-dir", str(tmp_path / "c")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0 and "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize(("text", "words"), [("none,spdx", "stands alone"), ("spdx,xml", "unknown format 'xml'")])
def test_a_bad_formats_list_is_named(text: str, words: str) -> None:
    from lineage.cli import _formats
    from lineage.errors import LineageError

    with pytest.raises(LineageError, match=words):
        _formats(text)
    assert _formats("none") == [] and _formats("SPDX, cdx") == ["spdx", "cyclonedx"]


def test_an_unknown_argument_of_a_command_points_at_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "t", "u", "extra", "--out", "o"])
    err = capsys.readouterr().err
    assert "unrecognized arguments: extra" in err and "(see 'lineage compare --help')" in err
    assert "a further one as --upstream extra" in err  # a second upstream written as UPSTREAM


_ENDING = """
import atexit, sys, threading, time
class Freed:
    def __del__(self):
        sys.stderr.write("freed by the teardown\\n")
kept = Freed()
atexit.register(lambda: print("exit handler ran"))
if sys.argv[1] == "thread":
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()  # alive at the end
sys.argv = ["lineage", "cache", "info", "--cache-dir", sys.argv[2]]
from lineage.cli import run
run()
"""


@pytest.mark.parametrize("thread", [False, True])
def test_the_program_ends_without_the_teardown_unless_a_thread_is_alive(tmp_path: Path, thread: bool) -> None:
    """``run`` prints what the command prints, runs the exit handlers and ends with the command's
    status, without freeing the heap object by object; with another thread alive the interpreter
    exits as usual."""
    result = subprocess.run([sys.executable, "-c", _ENDING, "thread" if thread else "alone", str(tmp_path / "c")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("cache: ") and result.stdout.rstrip().endswith("exit handler ran")
    assert ("freed by the teardown" in result.stderr) == thread


_SIGNALLED_AT_THE_END = """
import os, signal, sys, time
import lineage.cli as cli
def signalled() -> int:  # a SIGTERM just after the command returned (timeout(1), a supervisor)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
    return 1
cli.threading.active_count = signalled
sys.argv = ["lineage", "cache", "info", "--cache-dir", sys.argv[1]]
cli.run()
"""


def test_a_signal_after_the_command_returned_is_one_line() -> None:
    """Seen with ``timeout -s TERM`` (or ``INT``) ending as the report was written: the
    KeyboardInterrupt the handler raises came out of ``run`` as a traceback."""
    result = subprocess.run([sys.executable, "-c", _SIGNALLED_AT_THE_END, "/nonexistent/lineage-cache"],
                            capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stderr) == (130, "lineage: interrupted\n")
    assert result.stdout.startswith("cache: ")


def test_check_given_a_file_of_the_report_names_its_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``lineage check out/summary.md`` said "no such report folder: out/summary.md" of a file that
    exists: it now says that a file was given and which folder to give."""
    report = tmp_path / "out"
    report.mkdir()
    (report / "summary.md").write_text("# lineage\n")
    assert main(["check", str(report / "summary.md"), "--fail-on-missing-notice"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    said = f"{report / 'summary.md'} is a file: give the folder lineage compare wrote ({report})"
    assert err == [f"lineage: error: {said}"]
