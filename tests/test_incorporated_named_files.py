"""A release's licence file whose incorporated-software sections name files of the release
(passlib 1.7.4's LICENSE: "The source file ``passlib/handlers/md5_crypt.py`` contains code derived
from ... FreeBSD md5-crypt ..., which is available under the following license::" and the
Beer-ware notice; ``passlib/crypto/_blowfish/base.py`` under Damien Miller's ISC): such a file is
under the release's licence and the section's, with the section's holders too. Invented trees."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import treegen

from lineage.cli import main
from lineage.licences.compat import compatible
from lineage.licences.declared import read_source_licence
from lineage.licences.licence_file import incorporated_parts
from lineage.licences.notices import notice_expression
from lineage.sources import open_source

_OWN = ("License for Kettle\n==================\n\n"
        "Copyright (c) 2031-2033 Teapot Works, LLC.\nAll rights reserved.\n\n"
        "Redistribution and use in source and binary forms, with or without\nmodification, are permitted "
        "provided that the following conditions are\nmet:\n\n"
        "* Neither the name of Teapot Works, nor the names of the\n  contributors may be used to endorse "
        "products derived from this software.\n\n"
        "THIS SOFTWARE IS PROVIDED \"AS IS\", EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.\n\n")
_HEADING = "Licenses for incorporated software\n==================================\nKettle contains code from:\n\n"
_ISC_PART = ("Legacy hash\n-----------\n"
             "The source file ``kit/legacy_hash.py`` contains code derived from the Wren hasher,\n"
             "available under the following license::\n\n"
             "    Copyright (c) 2029 Wren Alder <wren@alder.invalid>\n\n"
             "    Permission to use, copy, modify, and distribute this software for any\n"
             "    purpose with or without fee is hereby granted, provided that the above\n"
             "    copyright notice and this permission notice appear in all copies.\n\n")
_BEER_PART = ("Old crypt\n---------\n"
              "The file `kit/old_crypt.py` ports a C routine whose author put it under this license::\n\n"
              "    \"THE BEER-WARE LICENSE\" (Revision 42):\n"
              "    Copyright (c) 2028 Moss Tinker\n\n"
              "    As long as you retain this notice you may do as you like with this code;\n"
              "    a cup of tea in return is welcome.\n\n")
_ELSEWHERE = ("Spout widget\n------------\n"
              "The file ``kettle/static/spout.js`` comes from Spout, available under the MIT license:\n\n"
              "    Copyright (c) 2030 Fern Gatherer\n\n")
_LICENCE = _OWN + _HEADING + _ISC_PART + _BEER_PART + _ELSEWHERE


def _upstream(licence: str = _LICENCE, extra: dict[str, str] | None = None) -> dict[str, str]:
    return {"pyproject.toml": '[project]\nname = "kettle"\nlicense = "BSD-3-Clause"\n', "LICENSE": licence,
            "kit/core.py": treegen.distinctive_functions(1), "kit/legacy_hash.py": treegen.distinctive_functions(2),
            "kit/old_crypt.py": treegen.distinctive_functions(3), **(extra or {})}


def test_each_section_naming_a_path_gives_its_licence_and_holders() -> None:
    parts = incorporated_parts(_LICENCE)
    assert [(p.paths[0], p.expression, p.copyrights) for p in parts] == [
        ("kit/legacy_hash.py", "ISC", ("Copyright (c) 2029 Wren Alder <wren@alder.invalid>",)),
        ("kit/old_crypt.py", "Beerware", ("Copyright (c) 2028 Moss Tinker",)),
        ("kettle/static/spout.js", "MIT", ("Copyright (c) 2030 Fern Gatherer",))]
    assert incorporated_parts(_OWN) == ()  # no heading: no sections


def test_beerware_is_a_permissive_licence_asking_for_its_notice() -> None:
    assert notice_expression("\"THE BEER-WARE LICENSE\" (Revision 42): As long as you retain this notice") \
        == "Beerware"
    assert notice_expression("a beer-ware licence joke") == ""
    assert compatible("Beerware", "MIT").status == "ok"


def test_a_named_file_is_under_the_releases_licence_and_the_sections(tmp_path: Path) -> None:
    root = treegen.write_tree(tmp_path / "up", _upstream())
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    from_ = "LICENSE (incorporated software section)"
    assert lic.folder_licence("kit/legacy_hash.py") == ("BSD-3-Clause AND ISC", from_)
    assert lic.folder_licence("kit/old_crypt.py") == ("BSD-3-Clause AND Beerware", from_)
    assert lic.folder_copyrights("kit/legacy_hash.py") == (
        ("Copyright (c) 2031-2033 Teapot Works, LLC.", "Copyright (c) 2029 Wren Alder <wren@alder.invalid>"), from_)
    assert lic.folder_licence("kit/core.py") == ("", "")  # named by no section
    assert lic.folder_copyrights("kit/core.py") == ((), "")
    # a named path the release does not hold is dropped
    assert all("kettle/static/spout.js" not in p.paths for f in lic.files for p in f.incorporated)
    assert "incorporated" not in lic.to_dict()["files"][0]


@pytest.mark.parametrize("extra", [
    {"kit/LICENSE": "Copyright (c) 2032 Kit Keeper\n\nPermission is hereby granted, free of charge, to any "
     "person obtaining a copy\nThe above copyright notice and this permission notice shall be included\n"},
])
def test_a_sub_folder_licence_file_still_governs_its_folder(tmp_path: Path, extra: dict[str, str]) -> None:
    root = treegen.write_tree(tmp_path / "up", _upstream(extra=extra))
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    assert lic.folder_licence("kit/legacy_hash.py") == ("MIT", "kit/LICENSE")


def test_sections_naming_no_file_of_the_release_change_nothing(tmp_path: Path) -> None:
    root = treegen.write_tree(tmp_path / "up", _upstream(_OWN + _HEADING + _ELSEWHERE))
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    assert lic.declared == "BSD-3-Clause"
    assert [f.incorporated for f in lic.files] == [()]
    assert lic.folder_licence("kit/legacy_hash.py") == ("", "")


def _obligations(tmp_path: Path, upstream: dict[str, str], target_licence: str, copied: str,
                 seed: int) -> pd.DataFrame:
    """obligations.csv, by target path, of a target ``brew`` (BSD-3-Clause, licence file
    ``target_licence``) holding the upstream's ``kit/core.py`` and, at ``copied``, its file of
    distinctive functions ``seed``."""
    up = treegen.write_tree(tmp_path / "up", upstream)
    target = treegen.write_tree(tmp_path / "tgt", {
        "pyproject.toml": '[project]\nname = "brew"\nlicense = "BSD-3-Clause"\n', "LICENSE": target_licence,
        "kit/core.py": treegen.distinctive_functions(1), copied: treegen.distinctive_functions(seed)})
    out = tmp_path / "out"
    assert main(["compare", str(target), str(up), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    return pd.read_csv(out / "obligations.csv", keep_default_na=False, dtype=str).set_index("target_path")


@pytest.mark.parametrize(("target_licence", "missing"), [
    (_OWN, "copyright; licence-notice"),  # the target's licence file drops the section
    (_LICENCE, ""),  # it keeps the section (libpass 1.9.0 keeps passlib's, same paths)
])
def test_the_copied_files_row_names_both_licences_and_the_sections_holder(
        tmp_path: Path, target_licence: str, missing: str) -> None:
    rows = _obligations(tmp_path, _upstream(), target_licence, "kit/legacy_hash.py", 2)
    row = rows.loc["kit/legacy_hash.py"]
    assert row["upstream_licence"] == "BSD-3-Clause AND ISC"
    assert row["upstream_licence_from"] == "folder:LICENSE (incorporated software section)"
    assert "Wren Alder" in row["upstream_copyrights"] and "Teapot Works" in row["upstream_copyrights"]
    assert row["missing"] == missing
    assert rows.loc["kit/core.py", "upstream_licence"] == "BSD-3-Clause"  # the release's own file
    assert rows.loc["kit/core.py", "missing"] == ""


def test_one_section_naming_files_under_several_licences_gives_none() -> None:
    # the review of 2026-12-07: two files and two licences in one section without sub-headings
    # (paragraphs only) gave each file both licences and both holders
    from lineage.licences.licence_file import incorporated_parts
    text = ("Project licence\n\nCopyright (c) 2030 Kit Authors\n\nLicenses for incorporated software\n"
            "==================================\n\n"
            "The source file ``kit/old_crypt.py`` is available under the following license::\n\n"
            "    \"THE BEER-WARE LICENSE\" (Revision 42): <ann@example.invalid> wrote this file. As long as\n"
            "    you retain this notice you can do whatever you want with this stuff.\n\n"
            "The source file ``kit/legacy_hash.py`` is available under the following license::\n\n"
            "    Copyright (c) 2031 Bo Example\n"
            "    Permission to use, copy, modify, and/or distribute this software for any purpose with or\n"
            "    without fee is hereby granted, provided that the above copyright notice and this\n"
            "    permission notice appear in all copies.\n")
    assert incorporated_parts(text) == ()  # which licence is whose, the text does not say
    # with a sub-heading between them each file gets its own
    headed = text.replace("The source file ``kit/legacy_hash.py``",
                          "Legacy hash\n-----------\nThe source file ``kit/legacy_hash.py``")
    assert [(p.paths, p.expression) for p in incorporated_parts(headed)] == [
        (("kit/old_crypt.py",), "Beerware"), (("kit/legacy_hash.py",), "ISC")]


# The review of 2026-12-07: a section naming a FOLDER (``kit/legacy/``) was matched, then dropped
# (only exact file paths were kept), so the files under it got nothing.
_FOLDER_PART = ("Legacy kit\n----------\n"
                "The files in ``kit/legacy/`` contain code derived from the Wren hasher,\n"
                "available under the following license::\n\n"
                "    Copyright (c) 2029 Wren Alder <wren@alder.invalid>\n\n"
                "    Permission to use, copy, modify, and distribute this software for any\n"
                "    purpose with or without fee is hereby granted, provided that the above\n"
                "    copyright notice and this permission notice appear in all copies.\n\n")
_WREN = "Copyright (c) 2029 Wren Alder <wren@alder.invalid>"


def _folder_upstream(named: str = "``kit/legacy/``", extra: dict[str, str] | None = None) -> dict[str, str]:
    return _upstream(_OWN + _HEADING + _FOLDER_PART.replace("``kit/legacy/``", named), {
        "kit/legacy/hasher.py": treegen.distinctive_functions(4), "kit/legacy/deep/rounds.py":
        treegen.distinctive_functions(5), "kit/legacy_hash.py": treegen.distinctive_functions(2), **(extra or {})})


@pytest.mark.parametrize("named", ["``kit/legacy/``", "``kit/legacy``", "`kit/legacy`", "``kit\\legacy\\``"])
def test_a_named_folder_covers_the_files_under_it(tmp_path: Path, named: str) -> None:
    assert [p.paths for p in incorporated_parts(_OWN + _HEADING + _FOLDER_PART.replace("``kit/legacy/``", named))] \
        == [("kit/legacy",)]  # a trailing "/" or a backslash read away
    root = treegen.write_tree(tmp_path / "up", _folder_upstream(named))
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    from_ = "LICENSE (incorporated software section)"
    for path in ("kit/legacy/hasher.py", "kit/legacy/deep/rounds.py"):
        assert lic.folder_licence(path) == ("BSD-3-Clause AND ISC", from_)
        assert lic.folder_copyrights(path) == (("Copyright (c) 2031-2033 Teapot Works, LLC.", _WREN), from_)
    # only the files under the folder: not a file whose name starts as the folder's does
    assert lic.folder_licence("kit/legacy_hash.py") == ("", "")
    assert lic.folder_licence("kit/core.py") == ("", "")


def test_a_backslash_in_a_named_file_reads_as_a_slash(tmp_path: Path) -> None:
    text = _OWN + _HEADING + _ISC_PART.replace("``kit/legacy_hash.py``", "kit\\legacy_hash.py")
    assert [p.paths for p in incorporated_parts(text)] == [("kit/legacy_hash.py",)]
    root = treegen.write_tree(tmp_path / "up", _upstream(text))
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    assert lic.folder_licence("kit/legacy_hash.py") == ("BSD-3-Clause AND ISC",
                                                        "LICENSE (incorporated software section)")


def test_a_named_folder_the_release_does_not_hold_is_dropped(tmp_path: Path) -> None:
    root = treegen.write_tree(tmp_path / "up", _upstream(_OWN + _HEADING + _FOLDER_PART))  # no kit/legacy/ files
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    assert [f.incorporated for f in lic.files] == [()]


def test_a_sub_folder_licence_file_inside_a_named_folder_wins(tmp_path: Path) -> None:
    root = treegen.write_tree(tmp_path / "up", _folder_upstream(extra={
        "kit/legacy/deep/LICENSE": "Copyright (c) 2032 Kit Keeper\n\nPermission is hereby granted, free of charge, "
        "to any person obtaining a copy\nThe above copyright notice and this permission notice shall be included\n"}))
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    assert lic.folder_licence("kit/legacy/deep/rounds.py") == ("MIT", "kit/legacy/deep/LICENSE")
    assert lic.folder_copyrights("kit/legacy/deep/rounds.py") == (("Copyright (c) 2032 Kit Keeper",),
                                                                  "kit/legacy/deep/LICENSE")
    # the folder's other files stay under the section
    assert lic.folder_licence("kit/legacy/hasher.py") == ("BSD-3-Clause AND ISC",
                                                          "LICENSE (incorporated software section)")


def test_a_copied_file_under_a_named_folder_names_both_licences_and_the_sections_holder(tmp_path: Path) -> None:
    rows = _obligations(tmp_path, _folder_upstream(), _OWN, "kit/legacy/hasher.py", 4)
    row = rows.loc["kit/legacy/hasher.py"]
    assert row["upstream_licence"] == "BSD-3-Clause AND ISC"
    assert row["upstream_licence_from"] == "folder:LICENSE (incorporated software section)"
    assert "Wren Alder" in row["upstream_copyrights"] and "Teapot Works" in row["upstream_copyrights"]
    assert row["missing"] == "copyright; licence-notice"  # the target's LICENSE drops the section
    assert rows.loc["kit/core.py", "upstream_licence"] == "BSD-3-Clause"
