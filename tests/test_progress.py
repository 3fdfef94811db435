"""Progress on stderr: a bar on a terminal, plain lines otherwise, nothing with -q."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
import treegen

from lineage.cli import main
from lineage.index import IndexCache, index_tree
from lineage.sources import open_source

FILES = {f"m{k}.py": f"def f{k}(x):\n    return x + {k}\n" for k in range(30)}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _index(root: Path, progress: object) -> None:
    with open_source(str(root)) as source:
        index_tree(source, IndexCache(None), jobs=1, progress=progress)  # type: ignore[arg-type]


def test_a_bar_with_count_and_rate_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = treegen.write_tree(tmp_path / "t", FILES)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("COLUMNS", "100")
    _index(root, True)
    shown = terminal.getvalue()
    assert "\r" in shown and "lineage: indexing t: 100%" in shown
    assert "30/30 [" in shown and "files/s]" in shown


def test_plain_lines_when_stderr_is_not_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = treegen.write_tree(tmp_path / "t", FILES)
    _index(root, True)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "lineage: indexing t: 30 files of 30 (the others cached)"
    assert lines[1].startswith("lineage: indexing t: 30 files done in ") and lines[1].endswith(" files/s")
    assert len(lines) == 2 and "\r" not in "".join(lines)


def test_a_callers_callback_gets_lines_never_a_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = treegen.write_tree(tmp_path / "t", FILES)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    got: list[str] = []
    _index(root, got.append)
    assert terminal.getvalue() == "" and len(got) == 2 and got[0].startswith("indexing t: 30 files")


def test_quiet_prints_nothing_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    target = treegen.write_tree(tmp_path / "t", FILES)
    upstream = treegen.write_tree(tmp_path / "u", dict(list(FILES.items())[:3]))
    out = tmp_path / "o"
    args = ["compare", str(target), str(upstream), "--out", str(out), "--no-html", "--jobs", "1",
            "--cache-dir", str(tmp_path / "c")]
    assert main([*args, "-q"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert main([*args, "--no-cache"]) == 0
    assert "lineage: indexing t: 100%" in sys.stderr.getvalue()  # type: ignore[attr-defined]


def test_matching_has_a_bar_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lineage.api import compare
    from lineage.settings import RunSettings, print_progress

    target = treegen.write_tree(tmp_path / "t", FILES)
    upstream = treegen.write_tree(tmp_path / "u", dict(list(FILES.items())[:3]))
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("COLUMNS", "100")
    compare(str(target), [str(upstream)], settings=RunSettings(jobs=1, use_cache=False, progress=print_progress))
    assert "lineage: matching: 100%" in terminal.getvalue() and "30/30 [" in terminal.getvalue()
