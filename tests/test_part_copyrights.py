"""A copyright statement for part of the work, its part words before the copyright word or sign
(``lineage.markers.attribution.PART_WORDS``): "Portions Copyright ...", and the LICENSE PyPDF2
1.26.0 and pypdf 3.17.4 both ship, "Some contributions copyright (c) 2007, <holder>". Read as
prose, those holders were in neither release's licence files: pypdf's
``generic/_data_structures.py`` read as missing a PyPDF2 ``pdf.py`` holder its LICENSE keeps.

The trees and lines are written for the test; no package's own files."""

from __future__ import annotations

import pytest
import treegen

from lineage.licences.licence_file import copyright_lines
from lineage.licences.notices import holder as folded_holder
from lineage.markers import find_markers
from lineage.match.holders import holder
from lineage.results.obligations import split_copyrights

_body = treegen.distinctive_functions
_BSD = ("Redistribution and use in source and binary forms, with or without\nmodification, are permitted "
        "provided that the following conditions are met:\n3. Neither the name of the copyright holder nor the "
        "names of its contributors\n")


@pytest.mark.parametrize("line", [
    "Some contributions copyright (c) 2007, Bo Reed <bo@example.org>",
    "Contributions copyright 2019 Bo Reed",
    "Modifications Copyright 2019 Bo Reed",
    "Some portions copyright (c) 2007 Bo Reed",
    "Parts (c) 2009 by Bo Reed.",
    "Portions Copyright 2009 Bo Reed",  # as before
])
def test_a_part_statement_is_a_copyright_line(line: str) -> None:
    (marker,) = find_markers([f"# {line}"], ["comment"])
    assert (marker.kind, marker.text) == ("copyright", line)


@pytest.mark.parametrize("line", [
    "# Some contributions are welcome, see the copyright notice",
    "# Parts (c) and (d) of the spec apply",
    "# modifications copyright notice must be kept",
])
def test_prose_with_part_words_is_no_copyright_line(line: str) -> None:
    assert find_markers([line], ["comment"]) == []


def test_a_licence_files_part_statements_are_its_holders_too() -> None:
    lines = ["Copyright (c) 2006-2008, Ada Quill",
             "Some contributions copyright (c) 2007, Bo Reed <bo@example.org>",
             "Some contributions copyright (c) 2014, Cy Tran <cy@example.org>", "", "All rights reserved.", "",
             *_BSD.splitlines()]
    assert copyright_lines(lines) == tuple(lines[:3])


@pytest.mark.parametrize(("line", "name", "folded"), [
    ("Some contributions copyright (c) 2007, Bo Reed <bo@example.org>", "Bo Reed <bo@example.org>",
     "bo reed bo@example.org"),
    ("Modifications Copyright 2019 Bo Reed", "Bo Reed", "bo reed"),
    ("Portions Copyright 2009 Bo Reed", "Bo Reed", "bo reed"),
])
def test_the_part_words_are_no_part_of_the_holder(line: str, name: str, folded: str) -> None:
    assert holder(line) == name
    assert folded_holder(line) == folded


def test_an_obligations_cell_splits_before_a_part_statement() -> None:
    cell = "Copyright (c) 2006, Ada Quill; Some contributions copyright (c) 2007, Bo Reed"
    assert split_copyrights(cell) == ("Copyright (c) 2006, Ada Quill", "Some contributions copyright (c) 2007, Bo Reed")


def test_a_holder_the_targets_licence_file_names_in_a_part_statement_is_kept(run_compare) -> None:
    # the upstream file names two holders, the copy keeps the first in its header and the release's
    # LICENSE (the upstream's own, as pypdf's is PyPDF2's) names the second in a part statement
    header = "# Copyright (c) 2006, Ada Quill\n# Copyright (c) 2007, Bo Reed <bo@example.org>\n"
    licence = ("Copyright (c) 2006-2008, Ada Quill\nSome contributions copyright (c) 2007, Bo Reed <bo@example.org>\n\n"
               + _BSD)
    upstream = {"up/mod.py": header + _body(1), "LICENSE": licence,
                "pyproject.toml": '[project]\nname = "up"\nlicense = "BSD-3-Clause"\n'}
    target = {"tgt/mod.py": "# Copyright (c) 2006, Ada Quill\n" + _body(1), "LICENSE": licence,
              "pyproject.toml": '[project]\nname = "tgt"\nlicense = "BSD-3-Clause"\n'}
    row = run_compare(target, [("up", upstream)]).obligations.set_index("target_path").loc["tgt/mod.py"]
    assert (row["keeps_copyright"], row["copyrights_missing"]) == ("yes", "")
    assert row["copyright_kept_in"] == "root:LICENSE"
    assert "copyright" not in row["missing"]


def test_sarif_names_the_copyright_lines_the_file_does_not_keep(run_compare) -> None:
    # without the part statement in the target's LICENSE, the second holder is missing: the SARIF
    # message named both upstream lines, the one the file's header keeps among them
    from lineage.report.sarif import sarif_log

    header = "# Copyright (c) 2006, Ada Quill\n# Copyright (c) 2007, Bo Reed <bo@example.org>\n"
    upstream = {"up/mod.py": header + _body(1), "LICENSE": "Copyright (c) 2006-2008, Ada Quill\n\n" + _BSD,
                "pyproject.toml": '[project]\nname = "up"\nlicense = "BSD-3-Clause"\n'}
    target = {"tgt/mod.py": "# Copyright (c) 2006, Ada Quill\n" + _body(1),
              "LICENSE": "Copyright (c) 2006-2008, Ada Quill\n\n" + _BSD,
              "pyproject.toml": '[project]\nname = "tgt"\nlicense = "BSD-3-Clause"\n'}
    comparison = run_compare(target, [("up", upstream)])
    row = comparison.obligations.set_index("target_path").loc["tgt/mod.py"]
    assert row["copyrights_missing"] == "Copyright (c) 2007, Bo Reed <bo@example.org>"
    (message,) = [r["message"]["text"] for r in sarif_log(comparison)["runs"][0]["results"]  # type: ignore[index]
                  if r["ruleId"] == "missing-notice"]
    assert message.endswith("this file lacks the copyright line Copyright (c) 2007, Bo Reed <bo@example.org>.")
    assert "Ada Quill" not in message
