"""Statements of reuse in a project's description (lineage.markers.description), read with the
project's metadata (lineage.index.project) and reported in summary.json / summary.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import treegen
from conftest import script_module
from hypothesis import given, settings
from hypothesis import strategies as st

from lineage.cli import main
from lineage.index.project import read_project
from lineage.markers.description import reuse_statements, statements_naming
from lineage.sources import open_source

METADATA = """Metadata-Version: 2.1
Name: quickserve
Version: 1.0
Summary: A serving engine built on top of Fastcore.
License: Files derived from Upcore are marked.
        A derivative work that is based on the Work is covered.
Description-Content-Type: text/markdown

# Quickserve
## Acknowledgment
We learned the design and reused code from the following projects: [Fastcore](https://github.com/fc-org/fastcore),
[upcore](https://github.com/up-org/upcore), and [upcore-extras](https://github.com/up-org/upcore-extras).

- Fast batching based on request priority.
- Unlike upcore, the scheduler is ours.

It is a derivative of Othercore 2.1. See upcore for the original API.
"""


def test_statements_are_read_from_the_description_not_from_other_headers() -> None:
    found = reuse_statements("q.dist-info/METADATA", METADATA, metadata=True)
    # "built on top of" and "based on" say what a project depends on, not what it took
    assert [(s.line, s.kind) for s in found] == [(11, "taken_from"), (17, "derived_from")]
    # a Markdown heading is a paragraph of its own; a sentence runs over wrapped lines
    assert found[0].text.startswith("We learned the design and reused code from the following projects:")
    assert found[0].text.endswith("[upcore-extras](https://github.com/up-org/upcore-extras).")
    assert found[1].text == "It is a derivative of Othercore 2.1."  # the next sentence is not part of it


def test_a_statement_names_an_upstream_after_its_phrase_as_a_whole_name() -> None:
    found = reuse_statements("q.dist-info/METADATA", METADATA, metadata=True)
    assert [s.line for s in statements_naming(found, {"upcore", "up-org/upcore"})] == [11]
    assert [s.line for s in statements_naming(found, {"fastcore"})] == [11]  # by its link's label
    assert [s.line for s in statements_naming(found, {"fc-org/fastcore"})] == [11]  # by its repository
    assert statements_naming(found, {"fc-org"}) == []  # an owner alone is no name; a URL's words are none
    assert statements_naming(found, {"upcore-extras"})[0].line == 11  # the longer name is its own
    assert statements_naming(found, {"othercore"})[0].kind == "derived_from"
    assert statements_naming(found, {"scheduler"}) == []  # "Unlike upcore, the scheduler": no phrase
    assert statements_naming(found, {"quickserve"}) == []  # the project itself, before any phrase


def test_prose_without_a_phrase_or_a_licence_text_states_nothing() -> None:
    text = ("Quickserve is fast.\n\nYou may obtain a copy of the License at the address below.\n\n"
            "Use the copy button to copy code from the docs.\n")
    assert [s.kind for s in reuse_statements("README.md", text)] == ["copied_from"]
    assert statements_naming(reuse_statements("README.md", text), {"upcore"}) == []
    # an RST underline ends a paragraph: the heading is read alone
    [heading] = reuse_statements("README.rst", "Title\n=====\nPorted from\n-----------\nupcore text\n")
    assert (heading.line, heading.text) == (3, "Ported from")
    assert statements_naming([heading], {"upcore"}) == []


def test_a_checkout_reads_its_readme(tmp_path: Path) -> None:
    tree = treegen.write_tree(tmp_path / "t", {
        "pkg/__init__.py": "", "pyproject.toml": '[project]\nname = "quickserve"\n',
        "README.md": "# Quickserve\n\nParts adapted from upcore 0.4.\n"})
    with open_source(str(tree)) as source:
        project = read_project(source)
    assert project.name == "quickserve"
    assert [(s.path, s.line, s.kind) for s in project.reuse] == [("README.md", 3, "adapted_from")]


def test_summary_quotes_the_targets_statement_naming_the_upstream(tmp_path: Path) -> None:
    body = treegen.distinctive_functions(3)
    upstream = {"upcore/__init__.py": "", "upcore/ops.py": body,
                "pyproject.toml": '[project]\nname = "upcore"\nurls = {Source = "https://github.com/up-org/upcore"}\n'}
    target = {"quick/__init__.py": "", "quick/ops.py": body,
              "pyproject.toml": '[project]\nname = "quickserve"\n',
              "README.md": "# Quickserve\n\nWe reused code from [upcore](https://github.com/up-org/upcore).\n"
                           "Quickserve is built on upcore.\n"}
    t = treegen.write_tree(tmp_path / "tgt", target)
    u = treegen.write_tree(tmp_path / "up", upstream)
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["format_version"] >= 14
    assert summary["declared_reuse"] == [{
        "upstream": summary["upstreams"][0]["label"], "path": "README.md", "line": 3, "kind": "taken_from",
        "text": "We reused code from [upcore](https://github.com/up-org/upcore)."}]
    markdown = (out / "summary.md").read_text()
    assert "## Reuse the target's description states: 1" in markdown
    assert "`README.md` line 3: \u201cWe reused code from" in markdown
    bom = json.loads((out / "lineage.cdx.json").read_text())  # and the CycloneDX pedigree's notes
    assert "the target's description states (" in bom["metadata"]["component"]["pedigree"]["notes"]
    index = (out / "html" / "index.html").read_text(encoding="utf-8")  # the HTML view's first page too
    quoted = "We reused code from [upcore](https://github.com/up-org/upcore)."
    assert f"<code>README.md</code> line 3: \u201c{quoted}\u201d" in index
    # the statement marks no file
    assert summary["marked_files"]["files"] == 0
    # the report's cross-checks see the quote, and miss it when it is gone
    checks = script_module("report_checks")
    assert not [c.name for c in checks.check_report(out) if c.bad]
    (out / "summary.md").write_text(markdown.replace("`README.md` line 3:", "`README.md` line 4:"), encoding="utf-8")
    bad = [c.name for c in checks.check_report(out) if c.bad]
    assert bad == ["summary.md sentences = summary.json / obligations.csv",
                   "manifest.json outputs: sha256 of every file, every file listed"]  # the file changed too


def test_no_statement_no_section(tmp_path: Path) -> None:
    body = treegen.distinctive_functions(2)
    t = treegen.write_tree(tmp_path / "tgt", {"quick/ops.py": body, "README.md": "Adapted from upcore.\n"})
    u = treegen.write_tree(tmp_path / "up", {"other/ops.py": body, "pyproject.toml": '[project]\nname = "other"\n'})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    assert json.loads((out / "summary.json").read_text())["declared_reuse"] == []
    assert "Reuse the target's description states" not in (out / "summary.md").read_text()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["", "   ", "# Title", "- item", "=====", "Name: x", "        |cont",
                                           "We reused code from upcore.", "It is a fork of Upcore. Next one.",
                                           "derived\tfrom  Upcore", "License: derived from Upcore"]),
                          st.text(max_size=40)), max_size=30),
       st.booleans())
def test_statements_point_at_the_line_that_holds_their_phrase(lines: list[str], metadata: bool) -> None:
    text = "\n".join(lines)
    for s in reuse_statements("d", text, metadata=metadata):
        assert 1 <= s.line <= len(text.splitlines())
        assert 0 < s.after <= len(s.text) and "\n" not in s.text
        # the phrase starts on the line named (it may run on to the next one)
        words = s.text[:s.after].split()
        assert words and words[-1].lower() in " ".join(text.splitlines()[s.line - 1:s.line + 1]).lower()


def test_based_on_that_says_it_is_a_fork_states_reuse() -> None:
    text = ("Quickget is an HTTP client that is based (forked) on Upget. It was forked off of Othget.\n\n"
            "Quickget is based on Fastcore. Forked on a Tuesday.\n")
    found = reuse_statements("README.md", text)
    assert [(s.line, s.kind) for s in found] == [(1, "derived_from"), (1, "derived_from")]
    assert [s.text for s in statements_naming(found, {"upget"})] == [
        "Quickget is an HTTP client that is based (forked) on Upget."]
    assert [s.text for s in statements_naming(found, {"othget"})] == ["It was forked off of Othget."]
    assert statements_naming(found, {"fastcore"}) == []  # "based on" alone names a dependency


def test_the_new_home_of_another_projects_code_states_reuse() -> None:
    # pydantic-settings 2.6.1: "this is the new official home of Pydantic's `BaseSettings`"
    text = ("Settings for Upcore apps; this is the new official home of Upcore's `Settings`.\n\n"
            "Our home page is the home of many docs.\n")
    found = reuse_statements("README.md", text)
    assert [(s.line, s.kind) for s in found] == [(1, "taken_from")]
    assert statements_naming(found, {"upcore"}) == list(found)


def test_a_project_replaced_by_this_one_is_named_before_the_phrase() -> None:
    # pyproject-hooks 1.2.0: "The ``pep517`` project has been replaced by this project (low level)
    # and the ``build`` project (high level)."
    text = "Note: The ``upold`` project has been replaced by this project (low level) and the ``upbuild`` tool.\n"
    found = reuse_statements("README.md", text)
    assert [(s.line, s.kind, s.named_before) for s in found] == [(1, "derived_from", True)]
    assert statements_naming(found, {"upold"}) == list(found)
    assert statements_naming(found, {"upbuild"}) == []  # after the phrase: what replaced it too, not the source


@pytest.mark.parametrize("sentence", ["PySocks is a modern fork of Upcore.",
                                      "It is a community maintained fork of the original Upcore.",
                                      "A fork of Upcore."])
def test_up_to_two_words_may_stand_before_the_noun(sentence: str) -> None:
    found = reuse_statements("README.md", f"# Title\n\n{sentence}\n")
    assert [s.kind for s in found] == ["derived_from"]
    assert [s.line for s in statements_naming(found, {"upcore"})] == [3]


def test_three_words_before_the_noun_are_no_statement_of_reuse() -> None:
    assert reuse_statements("README.md", "It keeps a very old and slow fork of Upcore.\n") == ()


@pytest.mark.parametrize("sentence", ["An upcore fork with additional features and patches.",
                                      "Quickget is a [upcore](https://github.com/up-org/upcore) fork based on othcore.",
                                      "A Upcore port for the browser."])
def test_the_project_may_be_named_between_the_article_and_the_noun(sentence: str) -> None:
    # yt-dlp 2022.2.4: "A youtube-dl fork with additional features and patches"
    found = reuse_statements("README.md", f"# Title\n\n{sentence}\n")
    assert len(found) == 1 and found[0].kind in ("derived_from", "ported_from")
    assert [s.line for s in statements_naming(found, {"upcore"})] == [3]
    assert statements_naming(found, {"othcore"}) == []  # after the noun: "based on", a dependency


def test_a_word_before_the_noun_that_names_no_upstream_states_nothing_of_it() -> None:
    found = reuse_statements("README.md", "We keep a community fork here, and use Upcore.\n")
    assert statements_naming(found, {"upcore"}) == []
    # a compound is no noun of reuse: "a general derivative-free solver" (cobyqa 1.1.1)
    assert reuse_statements("README.md", "Upcore is meant as a general derivative-free solver.\n") == ()


def test_reuse_of_most_parts_is_copy_of_and_rst_references() -> None:
    # aiomysql 0.2.0: "It depends on and reuses most parts of PyMySQL_ ." and "Internally
    # **aiomysql** is copy of PyMySQL, underlying io calls switched to async"
    text = ("It depends on and reuses most parts of Upsql_ . It tries to look like othsql_.\n\n"
            "Internally **quicksql** is copy of Upsql, io calls switched to async.\n\n"
            "The default is copyright of nobody.\n\n.. _Upsql: https://github.com/up-org/upsql\n")
    found = reuse_statements("README.rst", text)
    assert [(s.line, s.kind) for s in found] == [(1, "taken_from"), (3, "copied_from")]
    assert [s.line for s in statements_naming(found, {"upsql"})] == [1, 3]
    assert statements_naming(found, {"othsql"}) == []  # another sentence


def test_a_fork_from_names_its_project_but_a_copy_from_a_host_does_not() -> None:
    # Flask-Security-Too 5.5.2: "Flask-Security-Too was a fork from the 3.0.0 version of the
    # `Original <https://github.com/mattupstate/flask-security>`_"; imbalanced-learn's install
    # notes: "get a copy from Github"
    text = ("Quickguard was a fork from the 3.0.0 version of the `Original <https://github.com/up-org/upguard>`_.\n\n"
            "Use these commands to get a copy from Github.\n")
    found = reuse_statements("README.rst", text)
    assert [(s.line, s.kind) for s in found] == [(1, "derived_from")]
    assert statements_naming(found, {"up-org/upguard"}) == list(found)


def test_a_project_split_out_of_another_states_it_was_part_of_it() -> None:
    # lxml-html-clean 0.4.1: "This project was initially a part of [lxml](https://github.com/lxml/lxml)."
    text = ("This project was initially a part of [upcore](https://github.com/up-org/upcore). We extracted it.\n\n"
            "The parser was originally developed as part of Othcore.\n\n"
            "It used to be part of Thirdcore.\n\n"
            "Quickget is part of Fastcore. It was part of Slowcore's plan.\n")
    found = reuse_statements("README.md", text)
    assert [(s.line, s.kind) for s in found] == [(1, "taken_from"), (3, "taken_from"), (5, "taken_from")]
    assert [s.line for s in statements_naming(found, {"upcore"})] == [1]
    assert [s.line for s in statements_naming(found, {"up-org/upcore"})] == [1]
    assert [s.line for s in statements_naming(found, {"othcore"})] == [3]
    assert [s.line for s in statements_naming(found, {"thirdcore"})] == [5]
    # membership ("is part of") and a past "was part of" with no adverb of origin state no reuse
    assert statements_naming(found, {"fastcore", "slowcore"}) == []
