"""Statements of reuse in a release's own licence files (lineage.index.project._licence_file_reuse)."""

from __future__ import annotations

import json
from pathlib import Path

import treegen

from lineage.cli import main
from lineage.index.project import LICENCE_FILE_RE, ProjectInfo, one_project, read_project
from lineage.markers.description import statements_naming
from lineage.sources import open_source

_BSD_CLAUSE = ("Neither the name of Quickserve nor the names of its contributors may be used to endorse\n"
               "or promote products derived from this software without specific prior written permission.\n")


def test_a_licence_file_saying_its_code_is_derived_from_a_project_states_reuse(tmp_path: Path) -> None:
    tree = treegen.write_tree(tmp_path / "t", {
        "quick/__init__.py": "", "pyproject.toml": '[project]\nname = "quickserve"\n',
        "LICENSE": "Quickserve is under the ISC license, as code derived from Upcore.\n\n" + _BSD_CLAUSE})
    with open_source(str(tree)) as source:
        project = read_project(source)
    # the BSD clause's "products derived from this software" is a statement too, naming nothing
    assert [(s.path, s.line, s.kind) for s in statements_naming(project.reuse, {"upcore"})] == [
        ("LICENSE", 1, "derived_from")]
    assert statements_naming(project.reuse, {"quickserve"}) == []  # named before the phrase only


def test_a_licence_texts_own_words_and_a_renaming_in_it_name_no_upstream(tmp_path: Path) -> None:
    tree = treegen.write_tree(tmp_path / "t", {
        "quick/__init__.py": "", "pyproject.toml": '[project]\nname = "quickserve"\n',
        "COPYING.txt": "Quickserve, formerly called upcore.\n\n" + _BSD_CLAUSE,
        "docs/LICENSE": "Parts derived from Upcore.\n"})  # not the release's own licence file
    with open_source(str(tree)) as source:
        project = read_project(source)
    # a renaming in a licence file is not read (two releases are one project by their descriptions)
    assert [(s.path, s.kind) for s in project.reuse] == [("COPYING.txt", "derived_from")]
    upstream = read_project_of(tmp_path, {"up/__init__.py": "", "pyproject.toml": '[project]\nname = "upcore"\n'})
    assert not one_project(project, upstream)


def read_project_of(tmp_path: Path, files: dict[str, str]) -> ProjectInfo:
    tree = treegen.write_tree(tmp_path / "u", files)
    with open_source(str(tree)) as source:
        return read_project(source)


def test_licence_file_names() -> None:
    for path in ("LICENSE", "COPYING.txt", "NOTICE", "licence.md", "quick-1.0.dist-info/LICENSE",
                 "quick-1.0.dist-info/licenses/LICENSE"):
        assert LICENCE_FILE_RE.fullmatch(path), path
    for path in ("docs/LICENSE", "quick/_vendor/up-1.0.dist-info/LICENSE", "THIRD_PARTY_LICENSES", "LICENSE.py"):
        assert not LICENCE_FILE_RE.fullmatch(path), path


def test_summary_says_the_statement_is_from_a_licence_file(tmp_path: Path) -> None:
    body = treegen.distinctive_functions(2)
    t = treegen.write_tree(tmp_path / "tgt", {
        "quick/ops.py": body, "pyproject.toml": '[project]\nname = "quickserve"\n',
        "LICENSE": "Quickserve is under the ISC license, as code derived from Upcore.\n"})
    u = treegen.write_tree(tmp_path / "up", {"upcore/ops.py": body, "pyproject.toml": '[project]\nname = "upcore"\n'})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [(s["path"], s["line"], s["kind"]) for s in summary["declared_reuse"]] == [("LICENSE", 1, "derived_from")]
    markdown = (out / "summary.md").read_text()
    assert "## Reuse the target's description states: 1" in markdown
    assert "package description (or README), or of its licence files, that say" in markdown
    assert summary["marked_files"]["files"] == 0  # it marks no file
