"""Licence pointers (lineage.markers.pointers): a comment pointing to another project's licence
for the code beside it marks the file as that project's."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import treegen

from lineage.cli import main
from lineage.markers import find_markers, marker_names_upstream
from lineage.markers.pointers import licence_pointer


def test_a_pointer_names_the_project_of_its_licence_file_url_or_word() -> None:
    assert licence_pointer("Licence at LICENSES/QUILLCLIP_LICENSE") == (0, "quillclip", "")
    assert licence_pointer("Licence at LICENSES/HAVEN_LICENSE, LICENSES/HAVEN_MIT")[1] == "haven"
    assert licence_pointer("see license at LICENSE.quillclip")[1] == "quillclip"
    assert licence_pointer("licence at licenses/bobcat.txt")[1] == "bobcat"  # a file of a LICENSES/ folder
    url = "See numlib license at https://github.com/numorg/numlib/blob/main/LICENSE.txt"
    assert licence_pointer(url)[1:] == ("numlib", "numorg/numlib")
    assert licence_pointer("See Quillclip license at the top of its repository")[1] == "quillclip"


def test_licence_texts_and_pronouns_name_no_project() -> None:
    for text in ["You may obtain a copy of the License at", "a copy of the License at http://www.apache.org/licenses/LICENSE-2.0",
                 "see the MIT license at https://opensource.org/licenses/MIT", "its licence at the top of the file",
                 "the licence is at licenses/LICENSE-2.0.txt", "Licence at LICENSE"]:
        assert licence_pointer(text) is None, text


def test_a_pointer_is_a_marker_naming_its_project() -> None:
    [m] = find_markers(['"""', "Quillclip", "", "Licence at LICENSES/QUILLCLIP_LICENSE", '"""', "x = 1"])
    assert (m.kind, m.line, m.project) == ("licence_pointer", 4, "quillclip")
    assert m.text == "Licence at LICENSES/QUILLCLIP_LICENSE"
    assert marker_names_upstream(m, {"quillclip"}) and not marker_names_upstream(m, {"clip"})
    # a phrase marker on the line says more: the pointer is not a second marker
    [phrase] = find_markers(["# Ported with changes from quillclip; licence at LICENSES/QUILLCLIP_LICENSE", "x = 1"])
    assert phrase.kind == "ported_from"
    # the Apache header's pointer to its own text is none
    assert find_markers(["# You may obtain a copy of the License at", "#", "#     http://www.apache.org/licenses/LICENSE-2.0",
                         "x = 1"]) == []


def test_a_file_pointing_to_the_upstreams_licence_is_marked(tmp_path: Path) -> None:
    body = treegen.distinctive_functions(3)
    t = treegen.write_tree(tmp_path / "tgt", {
        "tgt/__init__.py": "", "pyproject.toml": '[project]\nname = "tgt"\n',
        "tgt/clip/__init__.py": '"""\nQuillclip\n\nLicence at LICENSES/QUILLCLIP_LICENSE\n"""\n' + body})
    u = treegen.write_tree(tmp_path / "up", {"quillclip/__init__.py": body,
                                             "pyproject.toml": '[project]\nname = "quillclip"\n'})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False, dtype=str).set_index("target_path")
    assert files.loc["tgt/clip/__init__.py", "marker_kind"] == "licence_pointer"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["lists"]["marked_with_copied"] == ["tgt/clip/__init__.py"]
    assert summary["lists"]["unmarked_with_copied"] == []
