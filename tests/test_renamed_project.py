"""A project renamed on PyPI keeps its repository: a release under the new name compared with one
under the old (litestar 2.12.1 against starlite 1.51.16, both linking only litestar-org/litestar)
is the project's own earlier code, as a release of the same name is; a project linking another
repository beside the upstream's is not.

The trees are written for the test; no package's own files."""

from __future__ import annotations

import treegen
from test_licences import HEADERS

from lineage.index.project import ProjectInfo, one_project, one_project_evidence

_body = treegen.distinctive_functions


def _tree(name: str, text: str, *repos: str) -> dict[str, str]:
    urls = "".join(f'"Link {k}" = "https://github.com/{r}"\n' for k, r in enumerate(repos))
    return {"pkg/mod.py": text, "LICENSE": "SPDX-License-Identifier: Apache-2.0\n",
            "pyproject.toml": f'[project]\nname = "{name}"\nlicense = "Apache-2.0"\n[project.urls]\n{urls}'}


def test_one_project_by_name_or_by_the_same_repositories() -> None:
    old = ProjectInfo(name="quillwort", repositories=("Quill-Org/quillwort",))
    assert one_project(old, ProjectInfo(name="sedgewort", repositories=("quill-org/Quillwort",)))
    assert one_project_evidence(old, ProjectInfo(name="quillwort")) == "the same distribution name"
    # a fork linking its upstream's tracker beside its own repository is another project
    assert not one_project(old, ProjectInfo(name="sedgewort",
                                            repositories=("quill-org/quillwort", "sedge/sedgewort")))
    assert not one_project(ProjectInfo(name="a"), ProjectInfo(name="b"))  # no repository: names decide


def test_a_renamed_project_is_read_as_its_own_earlier_release(run_compare) -> None:
    from lineage.report.summary import summary_markdown

    upstream = _tree("quillwort", HEADERS["Apache-2.0"] + "\n" + _body(1), "quill-org/quillwort")
    edited = HEADERS["Apache-2.0"] + "\n" + _body(1).replace("return", "return  ", 1) + "\nextra = 17\n"
    renamed = run_compare(_tree("sedgewort", edited, "quill-org/quillwort"), [("quillwort", upstream)])
    fork = run_compare(_tree("sedgewort", edited, "quill-org/quillwort", "sedge/sedgewort"),
                       [("quillwort", upstream)])
    assert renamed.lists["unmarked_with_copied"] == fork.lists["unmarked_with_copied"] == ["pkg/mod.py"]
    sentence = "is a release of the target's own project (another distribution name, the same repository)"
    assert sentence in summary_markdown(renamed)
    assert "own project" not in summary_markdown(fork)
    assert renamed.obligations.set_index("target_path").loc["pkg/mod.py", "modification_notice"] == "not required"
    assert fork.obligations.set_index("target_path").loc["pkg/mod.py", "modification_notice"] == "no"
