"""A fork that keeps its upstream's import package states its reuse all the same: docopt-ng 0.9.0
ships ``docopt/`` and says "docopt-ng is a fork of the original docopt", but ``docopt``, one of
its own package names, was taken for the target naming itself, so summary.json's
``declared_reuse`` stayed empty against docopt 0.6.2 (whose metadata links no repository).

The trees are written for the test; no package's own files."""

from __future__ import annotations

import json
from pathlib import Path

import treegen

from lineage.cli import main
from lineage.index.project import ProjectInfo, forked_distribution_names

_README = "# Quillfork\n\nQuillfork is a fork of the original upcore, now maintained by us.\n"


def test_an_upstream_of_another_distribution_keeps_its_name() -> None:
    assert forked_distribution_names(ProjectInfo(name="quill-fork"), ProjectInfo(name="Up-Core")) == {
        "up-core", "up_core"}
    # the same distribution (a newer release against an older one) names itself, not an upstream
    assert forked_distribution_names(ProjectInfo(name="upcore"), ProjectInfo(name="UpCore")) == set()
    assert forked_distribution_names(ProjectInfo(name="quill-fork"), ProjectInfo()) == set()


def _compare(tmp_path: Path, target_name: str) -> dict[str, object]:
    body = treegen.distinctive_functions(3)
    upstream = {"upcore/__init__.py": "", "upcore/ops.py": body,
                "pyproject.toml": '[project]\nname = "upcore"\n'}
    target = {"upcore/__init__.py": "", "upcore/ops.py": body, "README.md": _README,
              "pyproject.toml": f'[project]\nname = "{target_name}"\n'}
    t = treegen.write_tree(tmp_path / "tgt", target)
    u = treegen.write_tree(tmp_path / "up", upstream)
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    return json.loads((out / "summary.json").read_text())


def test_a_fork_keeping_the_package_name_quotes_its_fork_statement(tmp_path: Path) -> None:
    summary = _compare(tmp_path, "quillfork")
    assert [(s["path"], s["line"], s["kind"]) for s in summary["declared_reuse"]] == [  # type: ignore[union-attr]
        ("README.md", 3, "derived_from")]
    assert summary["marked_files"]["files"] == 0  # type: ignore[index]  # it marks no file


def test_a_release_of_the_same_distribution_does_not_quote_itself(tmp_path: Path) -> None:
    assert _compare(tmp_path, "upcore")["declared_reuse"] == []


def test_a_summary_opening_with_the_noun_phrase_states_a_fork() -> None:
    from lineage.markers.description import reuse_statements, statements_naming

    text = ("Metadata-Version: 2.1\nName: quillfork\nSummary: Guild-maintained fork of upcore, the humane parser.\n"
            "\nFork of upcore for Python 3.\n\nThe default port of the server is 8080.\n")
    found = reuse_statements("quillfork-1.0.dist-info/METADATA", text, metadata=True)
    assert [(s.line, s.kind) for s in statements_naming(found, {"upcore"})] == [(3, "derived_from"),
                                                                               (5, "derived_from")]
    # only where the phrase opens the sentence: "The default port of" is no port
    assert [s.line for s in found] == [3, 5]
