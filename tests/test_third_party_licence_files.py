"""A root licence file that holds other software's licences by its name (numba 0.60's
``LICENSES.third-party``, where its vendored cloudpickle's BSD-3-Clause text is kept)."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen

from lineage.licences.declared import read_source_licence
from lineage.licences.licence_file import read_licence_file
from lineage.sources import open_source

_body = treegen.distinctive_functions
_MIT = ("Copyright (c) 2031 Quillwort Authors\n\nPermission is hereby granted, free of charge, to any person "
        "obtaining a copy\nof this software ...\nThe above copyright notice and this permission notice shall "
        "be included in\nall copies or substantial portions of the Software.\n")
_BSD3 = ("Copyright (c) 2030 Sedge Contributors\nAll rights reserved.\n\nRedistribution and use in source and "
         "binary forms, with or without\nmodification, are permitted provided that the following conditions are "
         "met:\n3. Neither the name of the copyright holder nor the names of its contributors\n")
_THIRD_PARTY = "sedge\n-----\n\n" + _BSD3


@pytest.mark.parametrize(("name", "read", "included"), [
    ("LICENSES.third-party", True, True),
    ("THIRD_PARTY_LICENSES", True, True),
    ("LICENSES_bundled.txt", True, True),
    ("LICENSES", True, False),
    ("LICENSE", True, False),
    ("LICENSESx", False, False),  # no separator: another word
])
def test_a_licence_files_name_may_say_it_holds_other_softwares_licences(name: str, read: bool,
                                                                          included: bool) -> None:
    from lineage.licences.licence_file import is_licence_file

    assert is_licence_file(f"pkg-1.0.dist-info/{name}") is read
    if read:
        assert read_licence_file(f"pkg-1.0.dist-info/{name}", _THIRD_PARTY.encode()).included_code is included


def _target(tmp_path: Path, extra: dict[str, str]) -> Path:
    return treegen.write_tree(tmp_path, {
        "tgt/own.py": _body(1), "tgt/sedge/mod.py": _body(2),
        "tgt-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tgt\nVersion: 1.0\nLicense: MIT\n",
        "tgt-1.0.dist-info/LICENSE": _MIT, **extra})


def test_third_party_licences_are_not_the_releases_own(tmp_path: Path) -> None:
    root = _target(tmp_path / "t", {"tgt-1.0.dist-info/LICENSES.third-party": _THIRD_PARTY})
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    assert [f.path for f in lic.files] == ["tgt-1.0.dist-info/LICENSE", "tgt-1.0.dist-info/LICENSES.third-party"]
    assert lic.declared == "MIT"
    # the file-level fallback holders are the release's own, not its third parties'
    assert lic.file_fallback_copyrights == ("Copyright (c) 2031 Quillwort Authors",)


def test_a_vendored_copys_licence_notice_is_kept_in_the_third_party_licences(run_compare) -> None:
    up = {"sedge/mod.py": _body(2), "LICENSE": _BSD3,
          "sedge-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: sedge\nVersion: 1.0\nLicense: BSD-3-Clause\n"}
    target = {"tgt/own.py": _body(1), "tgt/sedge/mod.py": _body(2),
              "tgt-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tgt\nVersion: 1.0\nLicense: MIT\n",
              "tgt-1.0.dist-info/LICENSE": _MIT}
    before = run_compare(target, [("sedge", up)]).obligations.set_index("target_path").loc["tgt/sedge/mod.py"]
    assert (before["keeps_licence_notice"], before["missing"]) == ("no", "copyright; licence-notice")
    target["tgt-1.0.dist-info/LICENSES.third-party"] = _THIRD_PARTY
    after = run_compare(target, [("sedge", up)]).obligations.set_index("target_path").loc["tgt/sedge/mod.py"]
    assert (after["keeps_licence_notice"], after["keeps_copyright"], after["missing"]) == ("yes", "yes", "")
    assert after["target_licence"] == "MIT"
