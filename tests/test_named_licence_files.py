"""A link to a project's own licence file and a licence file named after a project (dask 2024.8.0
against numpy 2.1.3: "# See https://github.com/numpy/numpy/blob/master/LICENSE.txt" above the
copy of numpy's ``_parse_einsum_input``, and ``dask/array/NUMPY_LICENSE.txt`` beside it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import treegen

from lineage.cli import main
from lineage.licences.licence_file import is_licence_file, read_licence_file
from lineage.markers import find_markers
from lineage.markers.pointers import licence_pointer, named_licence_file

_URL = "https://github.com/numorg/numlib/blob/main/LICENSE.txt"
_NOTICE = "Copyright (c) 2005-2015, Numlib Developers.\nAll rights reserved.\n"


def test_see_and_a_repositorys_root_licence_file_is_a_pointer_to_its_project() -> None:
    assert licence_pointer(f"See {_URL}") == (0, "numlib", "numorg/numlib")
    assert licence_pointer(f"# see: {_URL}.")[1] == "numlib"
    # a licence file in a folder may be a third party's; a bare URL or another file is no pointer
    for text in ["See https://github.com/numorg/numlib/blob/main/numlib/ma/LICENSE", f"Licence: {_URL}",
                 "See https://github.com/numorg/numlib/blob/main/numlib/core.py"]:
        assert licence_pointer(text) is None, text
    [m] = find_markers(["# This function duplicates numlib's _parse_input()", f"# See {_URL}",
                        "# or NUMLIB_LICENSE.txt within this directory", "def f():", "    pass"])
    assert (m.kind, m.line, m.project) == ("licence_pointer", 2, "numlib")


def test_a_licence_file_named_after_a_project_is_read_for_included_code() -> None:
    assert named_licence_file("NUMLIB_LICENSE.txt") == "numlib"
    assert named_licence_file("quill.clip-COPYING") == "quill.clip"
    for name in ["LICENSE", "LICENSE.txt", "MIT_LICENSE", "apache-license.txt", "the_license", "2.0-LICENSE",
                 "HAVEN_MIT"]:
        assert named_licence_file(name) == "", name
    assert is_licence_file("tgt/arr/NUMLIB_LICENSE.txt") and not is_licence_file("tgt/arr/numlib_licence.py")
    found = read_licence_file("tgt/arr/NUMLIB_LICENSE.txt", _NOTICE.encode())
    assert found.included_code and found.folder == "tgt/arr"
    assert found.copyrights == ("Copyright (c) 2005-2015, Numlib Developers.",)
    assert not read_licence_file("LICENSE.txt", _NOTICE.encode()).included_code


def test_the_named_licence_file_keeps_the_upstreams_copyright(tmp_path: Path) -> None:
    body = treegen.distinctive_functions(5)
    t = treegen.write_tree(tmp_path / "tgt", {
        "tgt/__init__.py": "", "pyproject.toml": '[project]\nname = "tgt"\n',
        "LICENSE": "Copyright (c) 2014, Tgt Inc.\n",
        "tgt/arr/NUMLIB_LICENSE.txt": _NOTICE,
        "tgt/arr/parse.py": f"# This function duplicates numlib's functions\n# See {_URL}\n" + body})
    u = treegen.write_tree(tmp_path / "up", {"numlib/core.py": body, "LICENSE.txt": _NOTICE.replace("2015", "2024"),
                                             "pyproject.toml": '[project]\nname = "numlib"\n'})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False, dtype=str).set_index("target_path")
    assert files.loc["tgt/arr/parse.py", "marker_kind"] == "licence_pointer"
    [row] = pd.read_csv(out / "obligations.csv", keep_default_na=False, dtype=str).to_dict("records")
    assert (row["keeps_copyright"], row["copyright_kept_in"]) == ("yes", "folder:tgt/arr/NUMLIB_LICENSE.txt")
    assert "copyright" not in row["missing"]


def test_an_included_code_licence_file_adds_holders_but_is_not_the_folders_licence() -> None:
    from lineage.licences.declared import SourceLicence
    from lineage.licences.licence_file import LicenceFile
    own = LicenceFile(path="LICENSE", role="licence", folder="", sha256="", expression="MIT",
                      copyrights=("Copyright (c) 2014, Tgt Inc.",))
    named = replace(read_licence_file("tgt/arr/NUMLIB_LICENSE.txt", _NOTICE.encode()), expression="BSD-3-Clause")
    source = SourceLicence(declared="MIT", declared_from="METADATA License", files=(own, named))
    assert source.folder_licence("tgt/arr/parse.py") == ("", "")
    assert source.governing_files("tgt/arr/parse.py") == (own, named)
    assert source.governing_files("tgt/other.py") == (own,)
    assert source.folder_copyrights("tgt/arr/parse.py") == ((), "")


def test_an_upstream_file_without_holders_is_under_its_folders_licence_file(tmp_path: Path) -> None:
    body = treegen.distinctive_functions(6)
    t = treegen.write_tree(tmp_path / "tgt", {"tgt/__init__.py": "", "pyproject.toml": '[project]\nname = "tgt"\n',
                                              "tgt/mask.py": body})
    u = treegen.write_tree(tmp_path / "up", {
        "numlib/ma/extras.py": body, "numlib/ma/LICENSE": "Copyright (c) 2006, Quill Gerard\n",
        "LICENSE.txt": _NOTICE, "pyproject.toml": '[project]\nname = "numlib"\n'})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    [row] = pd.read_csv(out / "obligations.csv", keep_default_na=False, dtype=str).to_dict("records")
    assert row["upstream_copyrights"] == "Copyright (c) 2006, Quill Gerard"
    assert row["upstream_copyrights_from"] == "folder:numlib/ma/LICENSE"
