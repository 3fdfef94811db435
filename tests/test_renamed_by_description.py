"""A project renamed on PyPI whose description says so is one project with its earlier release:
pycodestyle 2.12.1's METADATA says "pycodestyle (formerly called pep8)" and "This package used to
be called ``pep8`` but was renamed to ``pycodestyle``", while pep8 1.7.1 links no repository, so
the two were read as two projects, and pep8.py's "Copyright (C) 2006-2009 Johann C. Rocholl"
(pycodestyle's declared author) set the whole upstream file apart as taken from the target.

The trees are written for the test; no package's own files."""

from __future__ import annotations

import treegen

from lineage.index.project import ProjectInfo, one_project, one_project_evidence
from lineage.markers.description import RENAMED_FROM, reuse_statements, statements_naming

_MIT = """#
# Permission is hereby granted, free of charge, to any person obtaining a copy of this software
# and associated documentation files (the "Software"), to deal in the Software without restriction.
"""


def test_an_earlier_name_is_read_and_only_the_name_right_after_the_phrase() -> None:
    text = ("Summary: a checker\n\nsedgewort (formerly called quillwort) - a checker\n\n"
            "This package used to be called ``quillwort`` but was renamed to ``sedgewort``.\n")
    found = reuse_statements("sedgewort-1.0.dist-info/METADATA", text, metadata=True)
    renamed = [s for s in found if s.kind == RENAMED_FROM]
    assert [s.line for s in renamed] == [3, 5]
    assert statements_naming(renamed, {"quillwort"}) == renamed
    # the new name after "but was renamed to" is no earlier name
    assert statements_naming(renamed, {"sedgewort"}) == []
    assert [s.kind for s in reuse_statements("README.md", "Previously known as reedmace, now faster.\n")] \
        == [RENAMED_FROM]
    # a word of prose is no renaming
    assert reuse_statements("README.md", "The option formerly was on by default.\n") == ()


def _renamed_from(name: str) -> ProjectInfo:
    statements = reuse_statements("README.md", f"This project was formerly known as {name}.\n")
    return ProjectInfo(name="sedgewort", reuse=statements)


def test_one_project_when_either_description_names_the_other_as_its_earlier_self() -> None:
    old = ProjectInfo(name="quillwort")
    assert one_project(_renamed_from("quillwort"), old)
    assert one_project(old, _renamed_from("quillwort"))
    assert one_project_evidence(_renamed_from("quillwort"), old) == (
        "another distribution name, its earlier one as a description says")
    assert not one_project(_renamed_from("reedmace"), old)
    assert not one_project(_renamed_from("quillwort"), ProjectInfo())  # no distribution name to name


def _tree(name: str, author: str, readme: str, text: str) -> dict[str, str]:
    return {"checker.py": text, "README.md": readme,
            "pyproject.toml": f'[project]\nname = "{name}"\nlicense = "MIT"\n'
                              f'authors = [{{name = "{author}"}}]\n'}


def test_the_original_authors_copyright_in_the_earlier_release_is_not_taken_from_the_target(run_compare) -> None:
    body = treegen.distinctive_functions(1)
    header = "# Copyright (C) 2006 Ada Fernwood\n# Copyright (C) 2014 Bo Reedmace\n" + _MIT + "\n"
    upstream = _tree("quillwort", "Bo Reedmace", "quillwort: a checker.\n", header + body)
    target_text = header + body + "\nextra = 17\n"
    renamed = run_compare(_tree("sedgewort", "Ada Fernwood", "sedgewort (formerly called quillwort): a checker.\n",
                                target_text), [("quillwort", upstream)])
    other = run_compare(_tree("sedgewort", "Ada Fernwood", "sedgewort: a checker.\n", target_text),
                        [("quillwort", upstream)])
    # read as two projects, Ada Fernwood's line says the upstream file came from the target
    assert other.lists["shared_from_target"] == ["checker.py"]
    assert renamed.lists["shared_from_target"] == []
    copied = renamed.lines[renamed.lines["match"] != "none"]
    assert len(copied) >= len(body.strip().splitlines()) - 2
    row = renamed.obligations.set_index("target_path").loc["checker.py"]
    assert row["modification_notice"] == "not required"


def test_the_summary_says_which_statements_name_an_earlier_name() -> None:
    from lineage.report.summary import _declared_reuse_markdown

    took = {"upstream": "up", "path": "README.md", "line": 3, "kind": "derived_from", "text": "Based on up's code."}
    was = {"upstream": "up", "path": "README.md", "line": 1, "kind": "renamed_from", "text": "tgt (formerly up)"}
    assert "or was once called by its name" not in "\n".join(_declared_reuse_markdown([took]))
    text = "\n".join(_declared_reuse_markdown([took, was]))
    assert "or was once called by its name" in text
    assert "1 of them names the upstream as the target's own earlier name (`kind` `renamed_from`" in text
