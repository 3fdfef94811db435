"""The FSF's short licence names ("LGPLv3+", "GPLv2", "LGPL v2.1+"), as PyPI's classifiers write
them in parentheses, name one licence: "+" is "or any later version", none is that version only.
PyFPDF 1.7.2's METADATA ``License: LGPLv3+`` named none, and its classifier's LGPL-3.0-only (the
"v3" classifier, without "or later") stood as its licence. Invented names."""

from __future__ import annotations

import pytest

from lineage.licences.declared import read_source_licence
from lineage.licences.expressions import named_licence
from lineage.licences.notices import comment_field_ids
from lineage.sources import open_source


@pytest.mark.parametrize(("text", "expected"), [
    ("LGPLv3+", "LGPL-3.0-or-later"),
    ("LGPLv3", "LGPL-3.0-only"),
    ("LGPL v3.0+", "LGPL-3.0-or-later"),
    ("LGPLv2.1+", "LGPL-2.1-or-later"),
    ("LGPLv2", "LGPL-2.0-only"),  # as the "(LGPLv2)" classifier
    ("GPLv2+", "GPL-2.0-or-later"),
    ("GPLv3", "GPL-3.0-only"),
    ("gplv3+ license", "GPL-3.0-or-later"),
    ("AGPLv3+", "AGPL-3.0-or-later"),
])
def test_an_fsf_short_name_names_its_licence(text: str, expected: str) -> None:
    assert named_licence(text) == expected


@pytest.mark.parametrize("text", ["AGPLv2", "GPLv4", "GPL", "xGPLv3", "GPLv3+ or MIT", "LGPL v"])
def test_what_names_no_licence(text: str) -> None:
    assert named_licence(text) == ""  # no such licence, a family, another word, or two licences


def test_a_comment_field_with_a_short_name() -> None:
    assert comment_field_ids("# License: GPLv2+\n") == ("GPL-2.0-or-later",)


def test_the_metadata_field_is_read_before_a_classifier_without_or_later(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import treegen

    pkg_info = ("Metadata-Version: 1.1\nName: sketchpdf\nVersion: 1.0\nLicense: LGPLv3+\n"
                "Classifier: License :: OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)\n")
    root = treegen.write_tree(tmp_path / "src", {"PKG-INFO": pkg_info, "sketchpdf/__init__.py": "x = 1\n"})
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    assert lic.declared == "LGPL-3.0-or-later"
