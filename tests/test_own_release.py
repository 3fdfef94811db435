"""A later release of a project compared with an earlier one of the same project (same declared
distribution name): its licensor changes its own files, so the licence's statement of change
(Apache-2.0 4(b), asked of licensees) is not owed; another project's copy still owes it.

The trees are written for the test; no package's own files."""

from __future__ import annotations

import pytest
import treegen
from test_licences import HEADERS

from lineage.index.project import ProjectInfo, same_distribution

_body = treegen.distinctive_functions


def _tree(name: str, text: str) -> dict[str, str]:
    return {"pkg/mod.py": text, "LICENSE": "SPDX-License-Identifier: Apache-2.0\n",
            "pyproject.toml": f'[project]\nname = "{name}"\nlicense = "Apache-2.0"\n'}


@pytest.mark.parametrize(("target_name", "owed"), [("Acme_Web", "not required"), ("acme-fork", "no")])
def test_a_release_of_the_same_project_owes_no_modification_notice(run_compare, target_name: str,
                                                                    owed: str) -> None:
    upstream = _tree("acme-web", HEADERS["Apache-2.0"] + "\n" + _body(1))
    edited = HEADERS["Apache-2.0"] + "\n" + _body(1).replace("return", "return  ", 1) + "\nextra = 17\n"
    comparison = run_compare(_tree(target_name, edited), [("acme-web", upstream)])
    row = comparison.obligations.set_index("target_path").loc["pkg/mod.py"]
    assert row["modified"] == "yes"
    assert row["modification_notice"] == owed
    assert ("modification-notice" in row["missing"]) == (owed == "no")


def test_same_project_needs_a_declared_name() -> None:
    assert same_distribution(ProjectInfo(name="Acme.Web"), ProjectInfo(name="acme-web"))
    assert not same_distribution(ProjectInfo(name=""), ProjectInfo(name=""))
    assert not same_distribution(ProjectInfo(name="acme"), ProjectInfo(name="acme-web"))


def test_the_summary_says_why_no_statement_of_change_is_owed(run_compare) -> None:
    from lineage.report.obligations import obligations_markdown

    upstream = _tree("acme-web", HEADERS["Apache-2.0"] + "\n" + _body(1))
    edited = HEADERS["Apache-2.0"] + "\n" + _body(1).replace("return", "return  ", 1)
    sentence = "It is a release of the target's own project (the same distribution name)"
    own = "\n".join(obligations_markdown(run_compare(_tree("acme-web", edited), [("acme-web", upstream)])))
    other = "\n".join(obligations_markdown(run_compare(_tree("acme-fork", edited), [("acme-web", upstream)])))
    assert sentence in own and sentence not in other


def test_the_review_list_says_when_its_files_are_the_projects_own_earlier_code(run_compare) -> None:
    # attrs 24.2.0 against attrs 17.4.0: 9 files "to review" that hold the project's own code
    from lineage.report.summary import summary_markdown

    upstream = _tree("acme-web", _body(1))
    target_text = _body(1).replace("return", "return  ", 1)
    sentence = "acme-web is a release of the target's own project (the same distribution name): these files"
    own = run_compare(_tree("acme-web", target_text), [("acme-web", upstream)])
    other = run_compare(_tree("acme-fork", target_text), [("acme-web", upstream)])
    assert own.lists["unmarked_with_copied"] == other.lists["unmarked_with_copied"] == ["pkg/mod.py"]
    assert sentence in summary_markdown(own)
    assert "own project" not in summary_markdown(other).split("## Unmarked files with copied code")[1].split("##")[0]


# A project's earlier release whose licence file names its founder, the later one's a company (pydantic
# 1.10.19's "Samuel Colvin and other contributors", 2.10.6's "Pydantic Services Inc. and individual
# contributors", Samuel Colvin the first author its METADATA names): the earlier notice is the
# project's own, owed no more than a statement of change. Names and text are invented.
_PERMISSION = ("\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software "
               "and associated documentation files (the \"Software\"), to deal in the Software without "
               "restriction.\n")


def _mit_tree(name: str, holder: str, authors: tuple[str, ...], text: str) -> dict[str, str]:
    listed = ", ".join(f'{{name = "{a}"}}' for a in authors)
    return {"pkg/mod.py": text, "LICENSE": f"MIT License\n\nCopyright (c) {holder}{_PERMISSION}",
            "pyproject.toml": f'[project]\nname = "{name}"\nlicense = "MIT"\nauthors = [{listed}]\n'}


_FOUNDER = "2017, 2018 Ada Fernwood and other contributors"
_COMPANY = "2017 to present Fernwood Services Inc. and individual contributors."


@pytest.mark.parametrize(("target_name", "target_authors", "keeps"), [
    ("acme-web", ("Ada Fernwood", "Bo Reedmace"), "not required"),  # its own author's earlier notice
    ("acme-web", ("Bo Reedmace",), "no"),  # a holder the target names nowhere
    ("acme-fork", ("Ada Fernwood", "Bo Reedmace"), "no"),  # another project crediting the upstream's author
])
def test_an_earlier_releases_notice_held_by_the_targets_own_author_is_owed_itself(
        run_compare, target_name: str, target_authors: tuple[str, ...], keeps: str) -> None:
    upstream = _mit_tree("acme-web", _FOUNDER, ("Ada Fernwood",), _body(1))
    target = _mit_tree(target_name, _COMPANY, target_authors, _body(1) + "\nextra = 17\n")
    row = run_compare(target, [("acme-web", upstream)]).obligations.set_index("target_path").loc["pkg/mod.py"]
    assert row["upstream_copyrights"] == f"Copyright (c) {_FOUNDER}"
    assert row["keeps_copyright"] == keeps
    assert ("copyright" in row["missing"]) == (keeps == "no")
    assert (row["copyrights_missing"] == "") == (keeps != "no")


def test_owed_itself_needs_every_person_of_every_line_among_the_authors() -> None:
    from lineage.results.obligations import owed_itself

    authors = frozenset({"ada fernwood", "bo reedmace"})
    assert owed_itself(["Copyright (c) 2017 Ada Fernwood and other contributors"], authors)
    assert owed_itself(["Copyright 2017 Ada Fernwood, Bo Reedmace"], authors)
    assert not owed_itself(["Copyright 2017 Ada Fernwood, Cy Quillwort"], authors)
    assert not owed_itself(["Copyright 2017 Ada Fernwood", "Copyright 2019 Cy Quillwort"], authors)
    assert not owed_itself(["Copyright (c) 2017 other contributors"], authors)  # names no one
    assert not owed_itself(["Copyright 2017 Ada Fernwood"], frozenset())  # not the target's own project


def test_the_reports_say_the_earlier_notice_is_the_projects_own(run_compare) -> None:
    from lineage.report.obligations import attribution_markdown, obligations_markdown

    upstream = _mit_tree("acme-web", _FOUNDER, ("Ada Fernwood",), _body(1))
    own = run_compare(_mit_tree("acme-web", _COMPANY, ("Ada Fernwood",), _body(1)), [("acme-web", upstream)])
    other = run_compare(_mit_tree("acme-fork", _COMPANY, ("Ada Fernwood",), _body(1)), [("acme-web", upstream)])
    said = ("In 1 pair its copyright lines (\"Copyright (c) 2017, 2018 Ada Fernwood and other contributors\") are kept "
            "nowhere, but they name only authors the target's metadata names")
    assert said in "\n".join(obligations_markdown(own))
    assert said not in "\n".join(obligations_markdown(other))
    assert attribution_markdown(own).startswith(
        "# Attribution (draft): code in target copied from another release of its own project\n")
    assert "A release of target's own project (the same distribution name): its own code" in attribution_markdown(own)
    assert attribution_markdown(other).startswith("# Attribution (draft): code in target copied from other projects\n")
    assert "own project" not in attribution_markdown(other)


def test_sarif_makes_the_projects_own_earlier_code_a_note_not_a_call_for_a_marker(run_compare) -> None:
    from lineage.report.sarif import sarif_log

    upstream = _tree("acme-web", _body(1))
    target_text = _body(1).replace("return", "return  ", 1)
    results = {}
    for name in ("acme-web", "acme-fork"):
        comparison = run_compare(_tree(name, target_text), [("acme-web", upstream)])
        assert comparison.lists["unmarked_with_copied"] == ["pkg/mod.py"]
        results[name] = [x for x in sarif_log(comparison)["runs"][0]["results"]  # type: ignore[index]
                         if x["ruleId"] == "unmarked-copy"]
    own, other = results["acme-web"], results["acme-fork"]
    assert own and len(own) == len(other)
    assert {x["level"] for x in own} == {"note"} and {x["level"] for x in other} == {"warning"}
    assert all("is a release of the target's own project (the same distribution name), which no marker needs "
               "to name" in x["message"]["text"] for x in own)
    assert all(x["message"]["text"].endswith("the file names no upstream in a marker.") for x in other)
    # the same finding either way: code scanning follows it if the project's metadata changes
    assert [x["partialFingerprints"] for x in own] == [x["partialFingerprints"] for x in other]


# `lineage check` on a release against an earlier one of its own project (pydantic 2.10.6 against
# the 1.10.19 its v1/ carries: 11,929 copied code lines, all "unmarked"): the marker items leave
# the project's own earlier code out and say so on stderr; --count-own-releases counts it.
def _own_and_other(tmp_path, run_compare, name: str, files: tuple[str, ...] = ("own.py", "other.py"),
                   target_name: str = "acme-web"):
    """A report of target ``target_name`` against acme-web (its own project when the names agree)
    and other-lib: ``own.py`` copies acme-web's module whole, ``other.py`` other-lib's, each
    ``_body`` of 6 functions of 3 code lines, 18 copied code lines."""
    texts = {"own.py": _body(1), "other.py": _body(2)}
    target = {f"pkg/{f}": texts[f] for f in files}
    target["pyproject.toml"] = f'[project]\nname = "{target_name}"\n'
    own = {"acme/mod.py": _body(1), "pyproject.toml": '[project]\nname = "acme-web"\n'}
    other = {"lib/mod.py": _body(2), "pyproject.toml": '[project]\nname = "other-lib"\n'}
    comparison = run_compare(target, [("acme-web", own), ("other-lib", other)])
    comparison.write(tmp_path / name, html=False, formats=[])
    return tmp_path / name


def test_check_leaves_the_projects_own_earlier_code_out_of_the_marker_items_and_says_so(
        run_compare, tmp_path, capsys) -> None:
    import json

    import pandas as pd

    from lineage.cli import main

    report = _own_and_other(tmp_path, run_compare, "r")
    files = pd.read_csv(report / "files.csv").set_index("target_path")
    assert (files["verbatim_code_lines"] + files["near_code_lines"]).to_dict() == {"pkg/own.py": 18, "pkg/other.py": 18}
    summary = json.loads((report / "summary.json").read_text())
    assert [(u["label"], u["own_project"]) for u in summary["upstreams"]] == [
        ("acme-web", "the same distribution name"), ("other-lib", "")]
    capsys.readouterr()
    assert main(["check", str(report), "--max-unmarked-copied-lines", "18"]) == 0
    err = capsys.readouterr().err
    assert ("left out of the marker items: 18 copied code lines in 1 unmarked file from a release of the "
            "target's own project, ") in err and "(the same distribution name)" in err
    assert main(["check", str(report), "--max-unmarked-copied-lines", "17"]) == 1
    assert "unmarked copied code lines: 18, more than the 17 allowed" in capsys.readouterr().out
    # counted as any copy: on the command line, or in the policy table
    assert main(["check", str(report), "--max-unmarked-copied-lines", "18", "--count-own-releases"]) == 1
    out = capsys.readouterr()
    assert "unmarked copied code lines: 36" in out.out and "left out" not in out.err
    (tmp_path / "policy.toml").write_text("[tool.lineage.check]\nmax-unmarked-copied-lines = 18\n"
                                          "count-own-releases = true\n")
    assert main(["check", str(report), "--config", str(tmp_path / "policy.toml")]) == 1
    assert main(["check", str(report), "--config", str(tmp_path / "policy.toml"), "--no-count-own-releases"]) == 0
    # a file needing a marker: only the other project's copy
    capsys.readouterr()
    assert main(["check", str(report), "--require-marker-min-lines", "1"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "pkg/other.py: 18 copied code lines and no marker naming the upstream (at least 1 need one)"]
    # the switch alone is no policy; the share counts every copy, as the headline does
    assert main(["check", str(report), "--count-own-releases"]) == 2
    assert main(["check", str(report), "--max-copied-share", "99"]) == 1
    assert "left out" not in capsys.readouterr().err


def test_check_counts_another_projects_copies_as_before(run_compare, tmp_path, capsys) -> None:
    from lineage.cli import main

    report = _own_and_other(tmp_path, run_compare, "fork", target_name="acme-fork")
    capsys.readouterr()
    assert main(["check", str(report), "--max-unmarked-copied-lines", "35"]) == 1
    out = capsys.readouterr()
    assert "unmarked copied code lines: 36" in out.out and "left out" not in out.err


def test_a_baseline_written_before_the_field_counts_alike(run_compare, tmp_path, capsys) -> None:
    """A baseline whose summary.json predates ``own_project`` (format 18) is read with this
    report's own releases: the other project's new copy is growth (counted with the own release's
    lines on the baseline side alone, the growth would read 0)."""
    import hashlib
    import json

    from lineage.cli import main

    old = _own_and_other(tmp_path, run_compare, "old", files=("own.py",))
    new = _own_and_other(tmp_path, run_compare, "new")
    summary = json.loads((old / "summary.json").read_text())
    for u in summary["upstreams"]:
        del u["own_project"]
    (old / "summary.json").write_text(json.dumps(summary))
    manifest = json.loads((old / "manifest.json").read_text())
    manifest["outputs"]["summary.json"] = "sha256:" + hashlib.sha256((old / "summary.json").read_bytes()).hexdigest()
    (old / "manifest.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    assert main(["check", str(new), "--baseline", str(old)]) == 1
    assert "unmarked copied code lines grew by 18 (0 -> 18)" in capsys.readouterr().out
    assert main(["check", str(new), "--baseline", str(old), "--max-unmarked-copied-lines", "18"]) == 0
