"""The Unlicense's text read as that licence (its opening dedication with its grant), and a
"Public Domain" classifier made precise by a licence file that is one dedication's text: yt-dlp
2021.2.24's wheel has only that classifier and a ``LICENSE`` holding the Unlicense, and its
declared licence read as bare public domain (invented trees; only the two sentences the rule
reads are the licence's)."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen

from lineage.licences.declared import read_source_licence
from lineage.licences.expressions import PUBLIC_DOMAIN, asks_nothing
from lineage.licences.notices import notice_expression
from lineage.sources import open_source

_OPENING = "This is free and unencumbered software released into the public domain."
_GRANT = ("Anyone is free to copy, modify, publish, use, compile, sell, or\ndistribute this software, either "
          "in source code form or as a compiled\nbinary, for any purpose.")
UNLICENSE = f"{_OPENING}\n\n{_GRANT}\n"


def test_the_unlicense_text_is_that_licence() -> None:
    assert notice_expression(UNLICENSE) == "Unlicense"
    assert notice_expression("# " + UNLICENSE.replace("\n", "\n# ")) == "Unlicense"  # as a comment, wrapped
    assert asks_nothing("Unlicense")


@pytest.mark.parametrize("text", [
    f"# Unlike the Unlicense's '{_OPENING}', this file keeps its rights.\n",  # the opening alone: a mention
    "# Anyone is free to copy, modify, publish, use, compile, sell, or distribute this software.\n",
])
def test_half_the_unlicense_is_not_it(text: str) -> None:
    assert notice_expression(text) != "Unlicense"


def _pkg_info(*classifiers: str) -> str:
    return "Metadata-Version: 2.1\nName: quill\nVersion: 1.0\nLicense: UNKNOWN\n" + "".join(
        f"Classifier: {c}\n" for c in classifiers)


def _declared(tmp_path: Path, files: dict[str, str]) -> tuple[str, str]:
    root = treegen.write_tree(tmp_path / "quill", {"quill/a.py": "def a():\n    return 1\n", **files})
    with open_source(str(root)) as source:
        lic = read_source_licence(source)
    return lic.declared, lic.declared_from


@pytest.mark.parametrize(("licence_file", "declared"), [
    (UNLICENSE, "Unlicense"),  # the classifier's public domain is this dedication
    ("The contents of this package are dedicated to the public domain.\n", PUBLIC_DOMAIN),  # no other name
    ("", PUBLIC_DOMAIN),  # no licence file: the classifier as it is
])
def test_a_licence_file_says_which_public_domain(tmp_path: Path, licence_file: str, declared: str) -> None:
    files = {"PKG-INFO": _pkg_info("License :: Public Domain")}
    if licence_file:
        files["LICENSE"] = licence_file
    got, source = _declared(tmp_path, files)
    assert got == declared
    assert source.startswith("METADATA classifiers")
    assert ("licence files" in source) == (declared == "Unlicense")


def test_beside_another_classifier_the_dedication_does_not_decide(tmp_path: Path) -> None:
    files = {"PKG-INFO": _pkg_info("License :: Public Domain", "License :: OSI Approved :: MIT License"),
             "LICENSE": UNLICENSE}
    assert _declared(tmp_path, files)[0] == "MIT"


_MIT = ("Copyright (c) 2020 Jo Doe\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n"
        "of this software and associated documentation files (the \"Software\"), to deal\n"
        "in the Software without restriction, including without limitation the rights\n"
        "to use, copy, modify, merge, publish, distribute, sublicense, and/or sell\n"
        "copies of the Software, and to permit persons to whom the Software is\n"
        "furnished to do so, subject to the following conditions:\n\n"
        "The above copyright notice and this permission notice shall be included in all\n"
        "copies or substantial portions of the Software.\n")


@pytest.mark.parametrize(("files", "declared", "declared_from"), [
    # the Unlicense's text and an MIT text in one file, no choice stated: both, not the dedication alone
    ({"LICENSE": UNLICENSE + "\n" + _MIT}, "MIT AND Unlicense", "licence files: LICENSE"),
    # an MIT text alone beside the classifier: MIT, not bare public domain
    ({"LICENSE": _MIT}, "MIT", "licence files: LICENSE"),
    # ripgrep's layout: a COPYING offering the two by their names, each text in its own file
    ({"COPYING": "This project is dual-licensed under the Unlicense and MIT.\n", "UNLICENSE": UNLICENSE,
      "LICENSE-MIT": _MIT}, "MIT OR Unlicense", "licence files: COPYING offers a choice (LICENSE-MIT, UNLICENSE)"),
])
def test_a_lone_public_domain_classifier_beside_another_licence_file_does_not_decide(
        tmp_path: Path, files: dict[str, str], declared: str, declared_from: str) -> None:
    """review158's Left 5: the classifier took the one dedication the licence files name, and a
    release shipping an MIT text with its holder read ``Unlicense`` (or bare public domain)."""
    got = _declared(tmp_path, {"PKG-INFO": _pkg_info("License :: Public Domain"), **files})
    assert got == (declared, declared_from)


def test_an_unlicense_file_is_a_licence_file(tmp_path: Path) -> None:
    root = treegen.write_tree(tmp_path / "quill", {"quill/a.py": "x = 1\n", "UNLICENSE.txt": UNLICENSE})
    with open_source(str(root)) as source:
        lic = read_source_licence(source)
    assert [(f.path, f.expression) for f in lic.files] == [("UNLICENSE.txt", "Unlicense")]
    assert lic.declared == "Unlicense"


def _pkg_info_licence(field: str) -> str:
    return f"Metadata-Version: 2.1\nName: quill\nVersion: 1.0\nLicense: {field}\n"


@pytest.mark.parametrize(("field", "files", "declared", "declared_from"), [
    # the License field in the classifier's words read as the lone classifier is (round left160)
    ("Public Domain", {}, PUBLIC_DOMAIN, "METADATA License"),
    ("Public Domain", {"LICENSE": UNLICENSE}, "Unlicense", "METADATA License, the dedication from the licence files"),
    ("Public Domain", {"LICENSE": _MIT}, "MIT", "licence files: LICENSE"),
    ("The Unlicense", {}, "Unlicense", "METADATA License"),  # OSI's title: no licence before
    ("CC0 1.0 Universal", {}, "CC0-1.0", "METADATA License"),
])
def test_a_public_domain_licence_field(tmp_path: Path, field: str, files: dict[str, str], declared: str,
                                      declared_from: str) -> None:
    """user156's note on public-domain reading: a ``License: Public Domain`` field named no licence
    (SPDX NOASSERTION), though the classifier's same words read as public domain."""
    assert _declared(tmp_path, {"PKG-INFO": _pkg_info_licence(field), **files}) == (declared, declared_from)


def test_a_license_comment_field_in_the_dedications_words() -> None:
    from lineage.licences.notices import comment_field_ids

    assert comment_field_ids("# License: Public Domain\nx = 1\n") == (PUBLIC_DOMAIN,)
    assert comment_field_ids("# License: The Unlicense\nx = 1\n") == ("Unlicense",)


def test_a_third_party_licence_file_does_not_unmake_the_public_domain(tmp_path: Path) -> None:
    """Only the release's own root licence files make the bare public domain precise: a
    ``THIRD_PARTY_LICENSES`` file's MIT text is the included code's."""
    files = {"PKG-INFO": _pkg_info("License :: Public Domain"), "THIRD_PARTY_LICENSES": _MIT}
    assert _declared(tmp_path, files) == (PUBLIC_DOMAIN, "METADATA classifiers")
    files["LICENSE"] = UNLICENSE
    assert _declared(tmp_path, files)[0] == "Unlicense"
