"""A GNU licence read from its text alone while the release's files grant "any later version"
(suds-jurko 0.6 and suds-community 1.2.0: the LGPL-3.0 text as LICENSE.txt, the family classifier
"GNU Library or Lesser General Public License (LGPL)", and "either version 3 of the License, or (at
your option) any later version" in each Python file): both were declared ``LGPL-3.0-only`` in
summary.md, the SPDX and CycloneDX packages and the manifest, against every file's own notice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import treegen

from lineage.cli import main
from lineage.licences.declared import SourceLicence
from lineage.match.params import MatchParams
from lineage.results.obligations import declared_or_later

# the opening a GNU licence text carries (its title), written here, not taken from a release
_LGPL3_TITLE = ("                   GNU LESSER GENERAL PUBLIC LICENSE\n"
                "                       Version 3, 29 June 2007\n\n")
_LATER = ("# This program is free software; you can redistribute it and/or modify it under\n"
          "# the terms of the GNU Lesser General Public License as published by the\n"
          "# Free Software Foundation; either version 3 of the License, or (at your\n"
          "# option) any later version.\n\n")
_ONLY = ("# This program is free software; you can redistribute it and/or modify it under\n"
         "# the terms of the GNU Lesser General Public License as published by the\n"
         "# Free Software Foundation, version 3 of the License.\n\n")

_SHARE = MatchParams().licence_or_later_min_share
_FROM_TEXT = SourceLicence(declared="LGPL-3.0-only", declared_from="licence files: LICENSE.txt")


def test_the_notices_of_every_file_granting_a_later_version_make_the_text_s_licence_or_later() -> None:
    found = declared_or_later(_FROM_TEXT, ["LGPL-3.0-or-later", "LGPL-3.0-or-later", "LGPL-3.0-or-later"], _SHARE)
    assert found.declared == "LGPL-3.0-or-later"
    assert found.declared_from == ("licence files: LICENSE.txt; 'or later' from the notices of its files "
                                   "(3 state LGPL-3.0-or-later; a GNU licence's text names no such choice)")


@pytest.mark.parametrize(("source", "stated"), [
    (_FROM_TEXT, []),  # no file states a licence: the text's reading stands
    (_FROM_TEXT, ["LGPL-3.0-or-later", "LGPL-3.0-only"]),  # one file says "only": no agreement
    (_FROM_TEXT, ["LGPL-3.0-or-later", "MIT"]),  # another licence among them
    (_FROM_TEXT, ["LGPL-2.1-or-later"]),  # another version: the text's stands
    # round review176: one file granting later versions among three silent files of code
    (_FROM_TEXT, ["LGPL-3.0-or-later", "", "", ""]),
    # a version classifier or the METADATA field decided: not the text alone
    (SourceLicence(declared="LGPL-3.0-only", declared_from="METADATA classifiers"), ["LGPL-3.0-or-later"]),
    (SourceLicence(declared="Apache-2.0", declared_from="licence files: LICENSE"), ["Apache-2.0"]),
    (SourceLicence(declared="GPL-2.0-only AND MIT", declared_from="licence files: COPYING, LICENSE"),
     ["GPL-2.0-or-later"]),
])
def test_the_text_s_reading_stands_unless_every_file_states_its_or_later_form(
        source: SourceLicence, stated: list[str]) -> None:
    assert declared_or_later(source, stated, _SHARE) is source


def _compare(tmp_path: Path, notice: str) -> Path:
    body = treegen.distinctive_functions(5)
    meta = ("Metadata-Version: 1.1\nName: {}\nVersion: 1.0\nLicense: (specified using classifiers)\n"
            "Classifier: License :: OSI Approved :: GNU Library or Lesser General Public License (LGPL)\n")
    t = treegen.write_tree(tmp_path / str(len(notice)) / "fork", {"PKG-INFO": meta.format("fork"),
                                                              "LICENSE.txt": _LGPL3_TITLE,
                                                              "pkg/core.py": notice + body,
                                                              "pkg/new.py": notice + "x = 1\n"})
    u = treegen.write_tree(tmp_path / str(len(notice)) / "up", {"PKG-INFO": meta.format("up"),
                                                                "LICENSE.txt": _LGPL3_TITLE,
                                                                "pkg/core.py": notice + body})
    out = tmp_path / f"out-{len(notice)}"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "-q", "--jobs", "1", "--no-cache"]) == 0
    return out


def test_a_release_whose_files_grant_a_later_version_is_declared_so_in_every_attachment(tmp_path: Path) -> None:
    out = _compare(tmp_path, _LATER)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["licences"]["target"]["declared"] == "LGPL-3.0-or-later"
    assert summary["licences"]["upstreams"]["up"]["declared"] == "LGPL-3.0-or-later"
    spdx = json.loads((out / "lineage.spdx.json").read_text())
    assert {p["licenseDeclared"] for p in spdx["packages"]} == {"LGPL-3.0-or-later"}
    said = "declared `LGPL-3.0-or-later` (licence files: LICENSE.txt; 'or later' from the notices of its files (2 state"
    assert said in (out / "summary.md").read_text()
    # files whose notice says "version 3" alone keep the text's reading
    out = _compare(tmp_path, _ONLY)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["licences"]["target"]["declared"] == "LGPL-3.0-only"


def test_most_files_granting_a_later_version_make_it_the_release_s_silent_ones_aside() -> None:
    """Round review176: files of code stating no licence (``""``) count against the share
    ``licence_or_later_min_share`` (0.5): two of three granting later versions is the release's
    reading, one of four is that file's own."""
    assert _SHARE == 0.5
    assert declared_or_later(_FROM_TEXT, ["LGPL-3.0-or-later", "LGPL-3.0-or-later", ""], _SHARE).declared == (
        "LGPL-3.0-or-later")
    assert declared_or_later(_FROM_TEXT, ["LGPL-3.0-or-later", "", "", ""], _SHARE) is _FROM_TEXT


def test_one_file_granting_a_later_version_among_silent_ones_leaves_the_release_only(tmp_path: Path) -> None:
    """Round review176: a release under the LGPL-3.0 text whose one notice grants later versions
    while three more files of code state nothing is declared ``-only`` (the text's reading); with
    the notice in every file it is ``-or-later`` (the test above)."""
    meta = ("Metadata-Version: 1.1\nName: {}\nVersion: 1.0\nLicense: (specified using classifiers)\n"
            "Classifier: License :: OSI Approved :: GNU Library or Lesser General Public License (LGPL)\n")
    files = {"LICENSE.txt": _LGPL3_TITLE, "pkg/core.py": _LATER + treegen.distinctive_functions(5),
             "pkg/a.py": "def a():\n    return 1\n", "pkg/b.py": "def b():\n    return 2\n",
             "pkg/c.py": "def c():\n    return 3\n"}
    t = treegen.write_tree(tmp_path / "fork", {"PKG-INFO": meta.format("fork"), **files})
    u = treegen.write_tree(tmp_path / "up", {"PKG-INFO": meta.format("up"), **files})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "-q", "--jobs", "1", "--no-cache"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["licences"]["target"]["declared"] == "LGPL-3.0-only"
    assert summary["licences"]["upstreams"]["up"]["declared"] == "LGPL-3.0-only"


def test_another_project_s_files_in_a_release_do_not_count_among_its_own(tmp_path: Path) -> None:
    """Round fix177: the share ``licence_or_later_min_share`` is of the release's own files. A
    vendored folder's files (the target's and the upstream's ``_vendor/``) and two upstream files
    adapted from another project (origin rule 3) are that project's code, silent or not: with
    them counted, one own file granting later versions of two or three was read as one of many
    files stating nothing, and both releases stayed ``-only``."""
    meta = ("Metadata-Version: 1.1\nName: {}\nVersion: 1.0\nLicense: (specified using classifiers)\n"
            "Classifier: License :: OSI Approved :: GNU Library or Lesser General Public License (LGPL)\n")
    vendored = {"pkg/_vendor/a.py": "def a():\n    return 1\n", "pkg/_vendor/b.py": "def b():\n    return 2\n"}
    core = {"LICENSE.txt": _LGPL3_TITLE, "pkg/core.py": _LATER + treegen.distinctive_functions(5)}
    adapted = ("# Adapted from https://github.com/otherorg/otherproj/blob/main/otherproj/{0}.py\n\n"
               "def {0}():\n    return 3\n")
    t = treegen.write_tree(tmp_path / "fork", {"PKG-INFO": meta.format("fork"), **core, **vendored})
    u = treegen.write_tree(tmp_path / "up", {"PKG-INFO": meta.format("up"), **core,
                                             "pkg/_vendor/a.py": vendored["pkg/_vendor/a.py"],
                                             "pkg/ported.py": adapted.format("ported"),
                                             "pkg/moved.py": adapted.format("moved")})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "-q", "--jobs", "1", "--no-cache"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["licences"]["target"]["declared"] == "LGPL-3.0-or-later"
    assert summary["licences"]["upstreams"]["up"]["declared"] == "LGPL-3.0-or-later"
