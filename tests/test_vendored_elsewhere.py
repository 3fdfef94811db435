"""A target file with copied code that lies where the target's vendoring record puts a project
no upstream is: that project's code (pdm-backend 2.4.3's ``_vendor/pyproject_metadata/errors.py``,
pyproject-metadata 0.9.0's per its ``vendor.txt``, holds packaging 24.1's ``ExceptionGroup``).
The review list says so; the figures stay as they were.

The trees are written for the test; no package's own files."""

from __future__ import annotations

import treegen

from lineage.report.summary import summary_markdown

_body = treegen.distinctive_functions


def test_the_review_list_names_the_vendoring_record_of_another_project(run_compare) -> None:
    upstream = {"quillwort/core.py": _body(1)}
    target = {"sedge/__init__.py": "", "sedge/_vendor/vendor.txt": "quillwort==1.2\nbrambleberry==0.3\n",
              "sedge/_vendor/brambleberry/errors.py": _body(1) + "\nextra = 17\n",
              "sedge/own.py": _body(1).replace("return", "return  ", 1)}
    comparison = run_compare(target, [("quillwort", upstream)])
    assert comparison.lists["unmarked_with_copied"] == ["sedge/_vendor/brambleberry/errors.py", "sedge/own.py"]
    text = summary_markdown(comparison).split("## Unmarked files with copied code")[1].split("\n|")[0]
    assert ("1 of these lies where a vendoring record of the target puts a project that is no upstream here, "
            "vendored brambleberry==0.3 (sedge/_vendor/vendor.txt): `sedge/_vendor/brambleberry/errors.py`.") in text
    assert "sedge/own.py" not in text


def test_no_sentence_without_such_a_file(run_compare) -> None:
    comparison = run_compare({"sedge/own.py": _body(1)}, [("quillwort", {"quillwort/core.py": _body(1)})])
    assert "vendoring record" not in summary_markdown(comparison)
