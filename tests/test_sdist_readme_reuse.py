"""Statements of reuse in a README shipped beside the metadata (lineage.index.project._readme_reuse)."""

from __future__ import annotations

from pathlib import Path

import treegen

from lineage.index.project import read_project
from lineage.markers.description import statements_naming
from lineage.sources import open_source

_PKG_INFO = ("Metadata-Version: 2.1\nName: quickpdf\nVersion: 1.0.6\nSummary: Pure Python PDF toolkit\n\n"
             "{body}\n")


def _reuse(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    tree = treegen.write_tree(tmp_path / "t", {"quickpdf/__init__.py": "", **files})
    with open_source(str(tree)) as source:
        project = read_project(source)
    return [(s.path, s.line, s.kind) for s in statements_naming(project.reuse, {"slowpdf"})]


def test_an_sdists_readme_states_reuse_its_long_description_does_not(tmp_path: Path) -> None:
    # the long description is another text than the README (a setup.py string)
    readme = "# QuickPDF\n\nFork of SlowPDF with feature improvements.\n"
    assert _reuse(tmp_path, {"PKG-INFO": _PKG_INFO.format(body="A pure-Python library built as a PDF toolkit."),
                             "README.md": readme}) == [("README.md", 3, "derived_from")]


def test_a_sentence_both_hold_is_quoted_once_from_the_metadata(tmp_path: Path) -> None:
    readme = "# QuickPDF\n\nFork of SlowPDF with feature improvements.\n"
    assert _reuse(tmp_path, {"PKG-INFO": _PKG_INFO.format(body=readme), "README.md": readme}) == [
        ("PKG-INFO", 8, "derived_from")]


def test_a_readme_below_the_root_is_not_the_projects_description(tmp_path: Path) -> None:
    assert _reuse(tmp_path, {"PKG-INFO": _PKG_INFO.format(body="A PDF toolkit."),
                             "docs/README.md": "Fork of SlowPDF.\n"}) == []
