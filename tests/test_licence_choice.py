"""A release offered under a choice of licences (``A OR B``): its declared licence comes out as
the choice, from the best evidence it carries, and its obligations say the recipient may choose.

Every licence text here is written for the test (short standard headers), never a package's own
files."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen
from test_licences import HEADERS, TARGET_MIT, _text

from lineage.licences.expressions import choices
from lineage.licences.notices import offers_choice
from lineage.report.obligations import attribution_markdown, obligations_markdown
from lineage.report.sarif import sarif_log

_body = treegen.distinctive_functions

# A pointer file in the manner of a dual-licensed project's LICENSE (our own wording).
STATEMENT = ("This project may be used under the terms of either of the licenses in\nLICENSE.APACHE or "
             "LICENSE.BSD, as you prefer.\n\nContributions are made under both.\n")
APACHE = "Licensed under the Apache License, Version 2.0 (the \"License\").\n"
BSD2 = "Copyright (c) 2024 Upstream Authors\n" + _text(HEADERS["BSD-2-Clause"]).split("\n", 1)[1]
APACHE_CLASSIFIER = "Classifier: License :: OSI Approved :: Apache Software License\n"
BSD_CLASSIFIER = "Classifier: License :: OSI Approved :: BSD License\n"
GPL2_CLASSIFIER = "Classifier: License :: OSI Approved :: GNU General Public License v2 (GPLv2)\n"


def _declared(tmp_path: Path, headers: str, files: dict[str, str]) -> tuple[str, str]:
    from lineage.licences import read_source_licence
    from lineage.sources import open_source

    wheel = treegen.write_wheel(tmp_path, "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n" + headers, files)
    with open_source(str(wheel)) as source:
        lic = read_source_licence(source)
    return lic.declared, lic.declared_from


DUAL = {"LICENSE": STATEMENT, "LICENSE.APACHE": APACHE, "LICENSE.BSD": BSD2}


@pytest.mark.parametrize(("headers", "files", "declared", "found_from"), [
    # the licence files' own statement, over classifiers that cannot say which BSD
    (APACHE_CLASSIFIER + BSD_CLASSIFIER, DUAL, "Apache-2.0 OR BSD-2-Clause",
     "licence files: pkg-1.0.dist-info/LICENSE offers a choice (pkg-1.0.dist-info/LICENSE.APACHE, "
     "pkg-1.0.dist-info/LICENSE.BSD)"),
    # no statement: the classifiers' choice, the family classifier told apart by the licence files
    (APACHE_CLASSIFIER + BSD_CLASSIFIER, {"LICENSE.APACHE": APACHE, "LICENSE.BSD": BSD2},
     "Apache-2.0 OR BSD-2-Clause", "METADATA classifiers"),
    # no licence file says which BSD: the classifiers do not decide (they used to give Apache-2.0 alone)
    (APACHE_CLASSIFIER + BSD_CLASSIFIER, {"LICENSE.APACHE": APACHE}, "Apache-2.0",
     "licence files: pkg-1.0.dist-info/LICENSE.APACHE"),
    # metadata fields first: License-Expression, then an SPDX-looking License field
    ("License-Expression: bsd-2-clause OR apache-2.0\n" + APACHE_CLASSIFIER, DUAL, "BSD-2-Clause OR Apache-2.0",
     "METADATA License-Expression"),
    ("License: Apache-2.0 or BSD-2-Clause\n", DUAL, "Apache-2.0 OR BSD-2-Clause", "METADATA License"),
    # one licence: as before (a family classifier beside a licence of its family adds nothing)
    (APACHE_CLASSIFIER, {"LICENSE": APACHE}, "Apache-2.0", "METADATA classifiers"),
    ("Classifier: License :: OSI Approved :: GNU General Public License (GPL)\n"
     "Classifier: License :: OSI Approved :: GNU General Public License v3 or later (GPLv3+)\n",
     {"LICENSE": "GNU General Public License version 3, 29 June 2007\n"}, "GPL-3.0-or-later", "METADATA classifiers"),
    # a GNU version classifier names the version; the licence file's notice grants any later one
    (GPL2_CLASSIFIER, {"COPYING": _text(HEADERS["GPL-2.0-or-later"])}, "GPL-2.0-or-later",
     "METADATA classifiers, 'or later' from the licence files"),
    (GPL2_CLASSIFIER, {"COPYING": "GNU General Public License, version 2\n"}, "GPL-2.0-only",
     "METADATA classifiers"),
    # a licence file read as the version alone as well keeps it as the classifier says
    (GPL2_CLASSIFIER, {"COPYING": _text(HEADERS["GPL-2.0-or-later"]),
                       "COPYING.GPL": "GNU GENERAL PUBLIC LICENSE\nVersion 2, June 1991\n"},
     "GPL-2.0-only", "METADATA classifiers"),
    # a statement with a single licence behind it offers no choice
    ("", {"LICENSE": STATEMENT, "LICENSE.APACHE": APACHE}, "Apache-2.0",
     "licence files: pkg-1.0.dist-info/LICENSE.APACHE"),
])
def test_a_dual_licensed_release_declares_the_choice(tmp_path: Path, headers: str, files: dict[str, str],
                                                    declared: str, found_from: str) -> None:
    assert _declared(tmp_path, headers, files) == (declared, found_from)


@pytest.mark.parametrize(("text", "offers"), [
    (STATEMENT, True),
    ("Licensed under either of\n\n * Apache License, Version 2.0\n * MIT license\n\nat your option.\n", True),
    ("This library is dual-licensed under the MIT and Apache 2.0 licenses.\n", True),
    # GPL's version clause is no choice of licences; nor is a choice far down a licence file
    (_text(HEADERS["GPL-3.0-or-later"]), False),
    (_text(HEADERS["MIT"]) + "\nBundled: vendor/x is dual licensed, see its folder.\n", False),
])
def test_offers_choice(text: str, offers: bool) -> None:
    assert offers_choice(text) is offers


def test_choices_are_the_disjunctive_normal_form() -> None:
    assert choices("Apache-2.0 OR BSD-2-Clause") == ("Apache-2.0", "BSD-2-Clause")
    assert choices("MIT AND ISC") == ("MIT AND ISC",)  # no choice: the expression as given
    assert choices("MIT") == ("MIT",)


def test_obligations_of_a_choice_are_those_of_the_choice_the_file_meets(run_compare) -> None:
    upstream = {"up/mod.py": _body(1), "up/other.py": _body(2), **DUAL,
                "NOTICE": "Up project\nCopyright 2024 Upstream Authors\n"}
    bsd_kept = "# Copyright (c) 2024 Upstream Authors\n" + HEADERS["BSD-2-Clause"].split("\n", 1)[1]
    target = {"tgt/bare.py": _body(1), "tgt/kept.py": bsd_kept + _body(2).replace("return", "return  ", 1),
              TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", upstream)])
    ob = comparison.obligations.set_index("target_path")
    assert (ob["upstream_licence"] == "Apache-2.0 OR BSD-2-Clause").all()
    bare, kept = ob.loc["tgt/bare.py"], ob.loc["tgt/kept.py"]
    # the modified file keeps BSD-2-Clause's notice and copyright: nothing is missing under that
    # choice (under Apache-2.0 alone it lacked the Apache notice, the NOTICE lines, a change notice)
    assert kept["modified"] == "yes"
    assert (kept["upstream_licence_from"], kept["missing"]) == ("declared; under BSD-2-Clause", "")
    assert (kept["modification_notice"], kept["notice_lines"]) == ("not required", 0)
    # the bare copy lacks copyright and notice under either choice, and the NOTICE lines too under Apache-2.0
    assert (bare["upstream_licence_from"], bare["missing"]) == ("declared; under BSD-2-Clause",
                                                                "copyright; licence-notice")
    summary = "\n".join(obligations_markdown(comparison))
    assert ("A choice: the recipient may take any one of `Apache-2.0`, `BSD-2-Clause`. What each asks of a copied "
            "file: `Apache-2.0`: copyright, licence-notice, modification-notice (in modified files), NOTICE; "
            "`BSD-2-Clause`: copyright, licence-notice (common to all: copyright, licence-notice).") in summary
    assert "which `upstream_licence_from` names after `; under`: `BSD-2-Clause` 2." in summary
    assert ("Licence: `Apache-2.0 OR BSD-2-Clause` (a choice: the recipient may take any one of its licences)"
            in attribution_markdown(comparison))
    texts = [r["message"]["text"] for r in sarif_log(comparison)["runs"][0]["results"]]  # type: ignore[index]
    assert any("lacks a licence notice of one of Apache-2.0 OR BSD-2-Clause" in t for t in texts)


def test_a_tie_between_choices_goes_to_the_first_offered(run_compare) -> None:
    upstream = {"up/mod.py": _body(1), **DUAL}  # no NOTICE: a bare copy lacks as much under either
    comparison = run_compare({"tgt/bare.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}, [("up", upstream)])
    row = comparison.obligations.iloc[0]
    assert (row["upstream_licence_from"], row["missing"]) == ("declared; under Apache-2.0", "copyright; licence-notice")


def test_one_licence_has_no_choice_sentence(run_compare) -> None:
    upstream = {"up/mod.py": _body(1), "LICENSE": APACHE}
    comparison = run_compare({"tgt/bare.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}, [("up", upstream)])
    row = comparison.obligations.iloc[0]
    assert (row["upstream_licence"], row["upstream_licence_from"]) == ("Apache-2.0", "declared")
    summary = "\n".join(obligations_markdown(comparison))
    assert "A choice" not in summary and "offers a choice" not in summary


def test_a_vendored_dual_licensed_copy_keeps_its_choice(run_compare, tmp_path: Path) -> None:
    from lineage.licences.declared import read_source_licence
    from lineage.sources import open_source

    info = "tgt/_vendor/pkg-1.0.dist-info"
    target = {"tgt/_vendor/pkg/__init__.py": _body(1), f"{info}/METADATA": "Name: pkg\nVersion: 1.0\n",
              f"{info}/RECORD": "pkg/__init__.py,sha256=a,1\n",
              **{f"{info}/{name}": text for name, text in DUAL.items()}, TARGET_MIT[0]: TARGET_MIT[1]}
    root = treegen.write_tree(tmp_path / "t", target)
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    # the folder's licence is the choice its LICENSE states, not the first licence file's (Apache-2.0)
    assert lic.folder_licence("tgt/_vendor/pkg/__init__.py") == ("Apache-2.0 OR BSD-2-Clause", f"{info}/LICENSE")
    assert lic.declared == "MIT" and "choices" not in lic.to_dict()
    comparison = run_compare(target, [("up", {"up/mod.py": _body(1), **DUAL})])
    row = comparison.obligations.set_index("target_path").loc["tgt/_vendor/pkg/__init__.py"]
    assert (row["target_licence"], row["target_licence_from"]) == ("Apache-2.0 OR BSD-2-Clause",
                                                                   f"folder:{info}/LICENSE")
    assert row["keeps_licence_notice"] == "yes"


def test_choices_keep_the_order_offered() -> None:
    # license-expression sorts its normal form by id; a reviewer reads the choices as written
    assert choices("BSD-2-Clause OR Apache-2.0") == ("BSD-2-Clause", "Apache-2.0")
    assert choices("(MIT OR Apache-2.0) AND BSD-3-Clause") == ("MIT AND BSD-3-Clause", "Apache-2.0 AND BSD-3-Clause")
    assert choices("(BSD-3-Clause AND MIT) OR Apache-2.0") == ("BSD-3-Clause AND MIT", "Apache-2.0")


def test_a_tie_goes_to_the_first_offered_not_the_first_in_the_alphabet(run_compare) -> None:
    # PEP 639's expression in the project's own order (BSD first)
    bsd_first = {"pyproject.toml": '[project]\nname = "up"\nlicense = "BSD-2-Clause OR Apache-2.0"\n',
                 "LICENSE.APACHE": APACHE, "LICENSE.BSD": BSD2}
    comparison = run_compare({"tgt/bare.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]},
                             [("up", {"up/mod.py": _body(1), **bsd_first})])
    row = comparison.obligations.iloc[0]
    assert row["upstream_licence"] == "BSD-2-Clause OR Apache-2.0"
    assert (row["upstream_licence_from"], row["missing"]) == ("declared; under BSD-2-Clause",
                                                              "copyright; licence-notice")
    summary = "\n".join(obligations_markdown(comparison))
    assert "A choice: the recipient may take any one of `BSD-2-Clause`, `Apache-2.0`." in summary
