"""A copyright line naming a holder of the upstream's root licence or NOTICE file, whom its own
files name too, marks a file for that upstream (tenacity 9.0.0's "Copyright 2013-2014 Ray Holder",
the holder of retrying 1.3.4's NOTICE and retrying.py, whose metadata names another author); not a
holder the target's own licence names, nor one only the licence text names (the PSF of
typing_extensions' LICENSE, which is CPython's licence text)."""

from __future__ import annotations

import csv
from pathlib import Path

import treegen

from lineage.cli import main

NOTICE = "Copyright 2013 Rowan Pike\n\nLicensed under the Apache License, Version 2.0.\n"
HEADER = "# Copyright 2016 Ada Quill\n# Copyright 2013-2014 Rowan Pike\n\n"


def _files(tmp_path: Path, target_licence: str, upstream_header: str = "# Copyright 2013 Rowan Pike\n\n",
           readme: str = "") -> dict[str, dict[str, str]]:
    """files.csv's rows by path, for a target whose files carry the upstream NOTICE's holder
    (test_description_holder_marker uses it too, with ``readme`` the upstream's description)."""
    body = treegen.distinctive_functions(2)
    upstream = {"upcore.py": upstream_header + body, "NOTICE": NOTICE, **({"README.md": readme} if readme else {}),
                "pyproject.toml": '[project]\nname = "upcore"\nauthors = [{name = "Lee Marsh"}]\n'}
    target = {"quickretry/__init__.py": HEADER + "VALUE = 1\n", "quickretry/wait.py": HEADER + body,
              "quickretry/own.py": "# Copyright 2016 Ada Quill\n\nOTHER = 2\n", "LICENSE": target_licence,
              "pyproject.toml": '[project]\nname = "quickretry"\n'}
    out = tmp_path / "out"
    assert main(["compare", str(treegen.write_tree(tmp_path / "tgt", target)),
                 str(treegen.write_tree(tmp_path / "up", upstream)), "--out", str(out), "--no-html",
                 "--formats", "none", "-q", "--no-cache", "--jobs", "1"]) == 0
    with open(out / "files.csv", newline="") as fh:
        return {row["target_path"]: row for row in csv.DictReader(fh)}


def test_a_copyright_line_naming_the_upstreams_notice_holder_marks_the_file(tmp_path: Path) -> None:
    files = _files(tmp_path, "MIT License\n\nCopyright (c) 2016 Ada Quill\n")
    for path in ("quickretry/__init__.py", "quickretry/wait.py"):
        assert files[path]["marker_kind"] == "copyright"
        assert files[path]["marker"] == "Copyright 2013-2014 Rowan Pike"
    assert files["quickretry/own.py"]["marker_kind"] == ""  # the target's own holder names no upstream


def test_a_holder_the_target_licence_names_too_marks_nothing(tmp_path: Path) -> None:
    files = _files(tmp_path, "MIT License\n\nCopyright (c) 2013 Rowan Pike\nCopyright (c) 2016 Ada Quill\n")
    assert {row["marker_kind"] for row in files.values()} == {""}


def test_a_holder_only_the_licence_text_names_marks_nothing(tmp_path: Path) -> None:
    """The upstream's files name no holder: the NOTICE's is its licence text's, and a target file
    carrying that holder's copyright took it from somewhere else as likely (CPython's PSF)."""
    files = _files(tmp_path, "MIT License\n\nCopyright (c) 2016 Ada Quill\n", upstream_header="")
    assert {row["marker_kind"] for row in files.values()} == {""}
