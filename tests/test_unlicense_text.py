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
