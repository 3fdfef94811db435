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
