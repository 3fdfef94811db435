"""A holder of the upstream's root licence file whom its own description credits with a copyright
line counts as its name for copyright markers, as one its files name does (PySocks 1.7.1's modules
name no one; its README credits "(C) 2006 Dan-Haim", its LICENSE's holder, whose line httplib2
0.22.0's ``socks.py`` keeps). A core metadata file's headers are not its description: a
``License`` header may hold a whole licence text, whose holder is the licence's."""

from __future__ import annotations

import csv
from pathlib import Path

import treegen

from lineage.cli import main
from lineage.index.project import description_copyrights

NOTICE = "Copyright 2013 Rowan Pike\n\nLicensed under the Apache License, Version 2.0.\n"
HEADER = "# Copyright 2013 Rowan Pike\n\n"


def _files(tmp_path: Path, readme: str) -> dict[str, dict[str, str]]:
    body = treegen.distinctive_functions(2)
    upstream = {"upcore.py": body, "NOTICE": NOTICE, "README.md": readme,
                "pyproject.toml": '[project]\nname = "upcore"\nauthors = [{name = "Lee Marsh"}]\n'}
    target = {"quickretry/wait.py": HEADER + body, "LICENSE": "MIT License\n\nCopyright (c) 2016 Ada Quill\n",
              "pyproject.toml": '[project]\nname = "quickretry"\n'}
    out = tmp_path / "out"
    assert main(["compare", str(treegen.write_tree(tmp_path / "tgt", target)),
                 str(treegen.write_tree(tmp_path / "up", upstream)), "--out", str(out), "--no-html",
                 "--formats", "none", "-q", "--no-cache", "--jobs", "1"]) == 0
    with open(out / "files.csv", newline="") as fh:
        return {row["target_path"]: row for row in csv.DictReader(fh)}


def test_a_holder_the_upstreams_description_credits_marks_the_file(tmp_path: Path) -> None:
    files = _files(tmp_path, "# upcore\n\nA fork of an older module.\n\n(C) 2013 Rowan Pike. All rights reserved.\n")
    assert files["quickretry/wait.py"]["marker_kind"] == "copyright"
    assert files["quickretry/wait.py"]["marker"] == "Copyright 2013 Rowan Pike"


def test_a_description_naming_no_holder_marks_nothing(tmp_path: Path) -> None:
    files = _files(tmp_path, "# upcore\n\nA fork of an older module.\n")
    assert files["quickretry/wait.py"]["marker_kind"] == ""


def test_a_metadata_files_headers_are_not_its_description() -> None:
    metadata = ("Metadata-Version: 2.1\nName: upcore\nLicense: Old Licence\n"
                "        Copyright (c) 2001 Old Foundation\n\n"
                "upcore\n======\n\n(C) 2013 Rowan Pike. All rights reserved.\n")
    assert description_copyrights(metadata, metadata=True) == ("(C) 2013 Rowan Pike. All rights reserved.",)
    assert "Old Foundation" in " ".join(description_copyrights(metadata))
