"""A holder of the upstream's root licence file whom its own description credits with a copyright
line counts as its name for copyright markers, as one its files name does (PySocks 1.7.1's modules
name no one; its README credits "(C) 2006 Dan-Haim", its LICENSE's holder, whose line httplib2
0.22.0's ``socks.py`` keeps). A core metadata file's headers are not its description: a
``License`` header may hold a whole licence text, whose holder is the licence's."""

from __future__ import annotations

from pathlib import Path

from test_licence_holder_marker import _files as licence_files

from lineage.index.project import description_copyrights

_TARGET_LICENCE = "MIT License\n\nCopyright (c) 2016 Ada Quill\n"


def _files(tmp_path: Path, readme: str) -> dict[str, dict[str, str]]:
    return licence_files(tmp_path, _TARGET_LICENCE, upstream_header="", readme=readme)


def test_a_holder_the_upstreams_description_credits_marks_the_file(tmp_path: Path) -> None:
    files = _files(tmp_path, "# upcore\n\nA fork of an older module.\n\n(C) 2013 Rowan Pike. All rights reserved.\n")
    assert files["quickretry/wait.py"]["marker_kind"] == "copyright"
    assert files["quickretry/wait.py"]["marker"] == "Copyright 2013-2014 Rowan Pike"


def test_a_description_naming_no_holder_marks_nothing(tmp_path: Path) -> None:
    files = _files(tmp_path, "# upcore\n\nA fork of an older module.\n")
    assert files["quickretry/wait.py"]["marker_kind"] == ""


def test_a_metadata_files_headers_are_not_its_description() -> None:
    metadata = ("Metadata-Version: 2.1\nName: upcore\nLicense: Old Licence\n"
                "        Copyright (c) 2001 Old Foundation\n\n"
                "upcore\n======\n\n(C) 2013 Rowan Pike. All rights reserved.\n")
    assert description_copyrights(metadata, metadata=True) == ("(C) 2013 Rowan Pike. All rights reserved.",)
    assert "Old Foundation" in " ".join(description_copyrights(metadata))
