"""An upstream file held by the organisation that holds the target's copyright owes no statement
of change (``own_organisation``): its licence binds licensees, not the holder. google-auth
2.36.0 ("Google LLC") took code from oauth2client 4.1.3's "Google Inc." files, and 4 pairs
said a modification notice was missing.

The trees are written for the test; no package's own files."""

from __future__ import annotations

import pytest
import treegen
from test_licences import HEADERS

from lineage.report.obligations import obligations_markdown
from lineage.results.obligations import held_by_organisation

_body = treegen.distinctive_functions
_APACHE = HEADERS["Apache-2.0"].split("\n", 1)[1]  # the notice without its copyright line


def _tree(name: str, holders: tuple[str, ...], text: str) -> dict[str, str]:
    """A project ``name`` whose three own files carry ``holders``' copyright lines, and ``pkg/mod.py``."""
    own = "".join(f"# Copyright 2020 {h}\n" for h in holders)
    return {"pkg/mod.py": text, "LICENSE": "SPDX-License-Identifier: Apache-2.0\n",
            "pyproject.toml": f'[project]\nname = "{name}"\nlicense = "Apache-2.0"\n',
            **{f"pkg/own_{k}.py": f"{own}{_APACHE}\nVALUE_{k} = {k}\n" for k in range(3)}}


@pytest.mark.parametrize(("target_holders", "owed"), [
    (("Quillworks LLC",), "not required"),  # a successor by the same organisation
    (("Brook Developers",), "no"),  # another holder
    (("Quillworks Inc.",), "no"),  # the upstream's own holder alone: a fork that kept its header
    (("Quillworks LLC", "Brook Developers"), "no"),  # the fork's holder beside the organisation's
])
def test_the_targets_own_organisation_owes_itself_no_modification_notice(run_compare, target_holders: tuple[str, ...],
                                                                        owed: str) -> None:
    upstream = _tree("rill", ("Quillworks Inc.",), f"# Copyright 2015 Quillworks Inc.\n{_APACHE}\n{_body(1)}")
    edited = (f"# Copyright 2015 Quillworks Inc.\n{_APACHE}\n"
              + _body(1).replace("return", "return  ", 1) + "\nextra = 17\n")
    comparison = run_compare(_tree("brook", target_holders, edited), [("rill", upstream)])
    row = comparison.obligations.set_index("target_path").loc["pkg/mod.py"]
    assert row["modified"] == "yes"
    assert row["modification_notice"] == owed
    assert ("modification-notice" in row["missing"]) == (owed == "no")
    sentence = "held by the organisation that holds the target's copyright (quillworks)"
    assert (sentence in "\n".join(obligations_markdown(comparison))) == (owed == "not required")


def test_held_by_organisation_needs_every_holder_of_it() -> None:
    assert held_by_organisation(("Copyright 2014 Google Inc. All rights reserved.",), "google")
    assert not held_by_organisation(("Copyright 2014 Google Inc.", "Copyright 2016 Ada Quill"), "google")
    assert not held_by_organisation(("Copyright 2014",), "google")
    assert not held_by_organisation(("Copyright 2014 Google Inc.",), "")


@pytest.mark.parametrize(("author", "owed"), [
    ("Quillworks Special Ops Team", "not required"),  # the organisation taking its own code
    ("Brook Developers", "no"),  # a fork that kept its upstream's holder line
])
def test_when_both_name_the_holder_the_targets_authors_tell(run_compare, author: str, owed: str) -> None:
    # optimum 1.23.3 ("HuggingFace Inc. Special Ops Team") keeps transformers' "The HuggingFace
    # Team" lines, as a fork would keep its upstream's: its metadata's author decides
    upstream = _tree("rill", ("Quillworks Inc.",), f"# Copyright 2015 Quillworks Inc.\n{_APACHE}\n{_body(1)}")
    edited = (f"# Copyright 2015 Quillworks Inc.\n{_APACHE}\n"
              + _body(1).replace("return", "return  ", 1) + "\nextra = 17\n")
    target = _tree("brook", ("Quillworks Inc.",), edited)
    target["pyproject.toml"] += f'authors = [{{name = "{author}"}}]\n'
    row = run_compare(target, [("rill", upstream)]).obligations.set_index("target_path").loc["pkg/mod.py"]
    assert (row["modified"], row["modification_notice"]) == ("yes", owed)


def test_a_slash_after_the_years_still_names_the_organisation(run_compare) -> None:
    # llmcompressor 0.1.0 (authors "Neuralmagic, Inc.") from sparseml 1.8.0, both "Copyright (c)
    # 2021 - present / Neuralmagic, Inc.": the holder was read as "/ Neuralmagic, Inc", of no
    # organisation, and 113 pairs asked Neural Magic for a statement of change to itself
    line = "# Copyright (c) 2021 - present / Quillworks, Inc. All Rights Reserved."
    upstream = _tree("rill", (), f"{line}\n{_APACHE}\n{_body(1)}")
    upstream.update({f"pkg/own_{k}.py": f"{line}\n{_APACHE}\nVALUE_{k} = {k}\n" for k in range(3)})
    edited = f"{line}\n{_APACHE}\n" + _body(1).replace("return", "return  ", 1) + "\nextra = 17\n"
    target = _tree("brook", (), edited)
    for tree in (upstream, target):  # both released by the organisation, as the two wheels are
        tree["pyproject.toml"] += 'authors = [{name = "Quillworks, Inc."}]\n'
    row = run_compare(target, [("rill", upstream)]).obligations.set_index("target_path").loc["pkg/mod.py"]
    assert (row["modified"], row["modification_notice"]) == ("yes", "not required")


@pytest.mark.parametrize(("licence_holder", "owed"), [
    ("Quillworks Inc., 2021-present Brook Developers", "no"),  # the fork's holder beside the organisation's
    ("Quillworks LLC", "not required"),  # the organisation alone
])
def test_a_licence_file_naming_another_holder_beside_the_organisation_is_held_jointly(
        run_compare, licence_holder: str, owed: str) -> None:
    # disnake 2.1.0 kept discord.py 1.7.3's "Copyright (c) 2015-present Rapptz" in every file, its
    # authors "Rapptz, EQUENOS" and its LICENSE "Copyright (c) 2015-present Rapptz, 2021-present
    # EQUENOS": summary.md said the organisation holding the target's copyright was Rapptz's (the
    # upstream's licence file names its holder, as discord.py's does: else its files would read
    # as taken from the target, whose licence names that holder)
    upstream = _tree("rill", ("Quillworks Inc.",), f"# Copyright 2015 Quillworks Inc.\n{_APACHE}\n{_body(1)}")
    upstream["LICENSE"] = "Copyright (c) 2015-present Quillworks Inc.\n\nSPDX-License-Identifier: Apache-2.0\n"
    edited = (f"# Copyright 2015 Quillworks Inc.\n{_APACHE}\n"
              + _body(1).replace("return", "return  ", 1) + "\nextra = 17\n")
    target = _tree("brook", ("Quillworks Inc.",), edited)
    target["LICENSE"] = f"Copyright (c) 2015-present {licence_holder}\n\nSPDX-License-Identifier: Apache-2.0\n"
    target["pyproject.toml"] += 'authors = [{name = "Quillworks"}, {name = "Brook Developers"}]\n'
    comparison = run_compare(target, [("rill", upstream)])
    row = comparison.obligations.set_index("target_path").loc["pkg/mod.py"]
    assert (row["modified"], row["modification_notice"]) == ("yes", owed)
    sentence = "held by the organisation that holds the target's copyright (quillworks)"
    assert (sentence in "\n".join(obligations_markdown(comparison))) == (owed == "not required")


def test_a_licence_file_naming_the_organisation_as_its_files_do_is_no_joint_holder(run_compare) -> None:
    # the licence-file check read each person of a line ("Quillworks" of "Quillworks, Inc. and
    # affiliates", as Meta's and NVIDIA's lines read) against the organisation of the files' whole
    # holder ("quillworks,inc.andaffiliates"): the target's own LICENSE made it a joint holder
    holder = "Quillworks, Inc. and affiliates."
    upstream = _tree("rill", ("Rillworks Inc.",), f"# Copyright 2015 Rillworks Inc.\n{_APACHE}\n{_body(1)}")
    target = _tree("brook", (holder,), f"# Copyright 2015 Rillworks Inc.\n{_APACHE}\n{_body(1)}")
    target["LICENSE"] = f"Copyright (c) {holder}\n\nSPDX-License-Identifier: Apache-2.0\n"
    assert run_compare(target, [("rill", upstream)]).own_organisations["rill"]
    target["LICENSE"] = f"Copyright (c) 2015-present {holder}, 2021-present Brook Developers\n\n" \
                        "SPDX-License-Identifier: Apache-2.0\n"
    assert run_compare(target, [("rill", upstream)]).own_organisations["rill"] == ""


def test_a_root_licence_file_for_included_code_names_no_joint_holder(run_compare) -> None:
    # a root licence file for code the release includes (a third-party file, Django's
    # LICENSE.python) names that code's holders, not the project's: the organisation holds the
    # target alone, as api.py's reading of the upstream's licence files already took it
    upstream = _tree("rill", ("Rillworks Inc.",), f"# Copyright 2015 Rillworks Inc.\n{_APACHE}\n{_body(1)}")
    target = _tree("brook", ("Quillworks LLC",), f"# Copyright 2015 Rillworks Inc.\n{_APACHE}\n{_body(1)}")
    target["LICENSE"] = "Copyright (c) 2020 Quillworks LLC\n\nSPDX-License-Identifier: Apache-2.0\n"
    target["THIRD_PARTY_LICENSES.txt"] = "Copyright (c) 2010 Otherworks Corp.\n\nSPDX-License-Identifier: MIT\n"
    assert run_compare(target, [("rill", upstream)]).own_organisations["rill"] == "quillworks"


def test_the_sentence_is_said_only_where_the_licence_asks_for_a_statement_of_change(run_compare) -> None:
    # pypdf 3.17.4 against PyPDF2 1.26.0 (BSD-3-Clause): summary.md said the upstream files of 10
    # pairs were "held by the organisation that holds the target's copyright: it owes itself no
    # statement of change", though BSD-3-Clause asks no modified file to say so: the column is
    # `not required` either way, and the sentence gave another reason for it
    bsd = HEADERS["BSD-3-Clause"].split("\n", 1)[1]

    def tree(name: str, text: str) -> dict[str, str]:
        files = _tree(name, ("Quillworks LLC" if name == "brook" else "Quillworks Inc.",), text)
        files = {p: t.replace(_APACHE, bsd) for p, t in files.items()}
        files["LICENSE"] = "SPDX-License-Identifier: BSD-3-Clause\n"
        files["pyproject.toml"] = files["pyproject.toml"].replace("Apache-2.0", "BSD-3-Clause")
        return files

    upstream = tree("rill", f"# Copyright 2015 Quillworks Inc.\n{bsd}\n{_body(1)}")
    edited = f"# Copyright 2015 Quillworks Inc.\n{bsd}\n" + _body(1).replace("return", "return  ", 1) + "\nextra = 17\n"
    comparison = run_compare(tree("brook", edited), [("rill", upstream)])
    assert comparison.own_organisations["rill"] == "quillworks"  # the same holder as the Apache case above
    row = comparison.obligations.set_index("target_path").loc["pkg/mod.py"]
    assert (row["upstream_licence"], row["modified"], row["modification_notice"]) == ("BSD-3-Clause", "yes",
                                                                                      "not required")
    assert "held by the organisation" not in "\n".join(obligations_markdown(comparison))
