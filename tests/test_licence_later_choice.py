"""A licence file whose later paragraph offers the whole work under another licence as an
alternative ("Alternatively, this software is also available under the MIT License:" after the
Unlicense's text) states a choice, ``A OR B``, not two sets of terms that both apply; a paragraph
putting other code or a part of the work under another licence still reads ``A AND B``
(lineage.licences.notices.later_choice; invented texts, round left161)."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen

from lineage.licences.declared import read_source_licence
from lineage.licences.expressions import PUBLIC_DOMAIN
from lineage.licences.notices import later_choice, licence_file_expression
from lineage.sources import open_source

UNLICENSE = ("This is free and unencumbered software released into the public domain.\n\n"
             "Anyone is free to copy, modify, publish, use, compile, sell, or\ndistribute this software, either "
             "in source code form or as a compiled\nbinary, for any purpose.\n")
DEDICATION = "The contents of this package are dedicated to the public domain.\n"
MIT = ("Copyright (c) 2020 Jo Doe\n\n"
       "Permission is hereby granted, free of charge, to any person obtaining a copy\nof this software and "
       "associated documentation files (the \"Software\"), to deal\nin the Software without restriction.\n\n"
       "The above copyright notice and this permission notice shall be included in all\ncopies or "
       "substantial portions of the Software.\n")
APACHE = "                                 Apache License\n                           Version 2.0, January 2004\n"


def _read(text: str) -> str:
    return licence_file_expression(text, text)


@pytest.mark.parametrize(("text", "expected"), [
    # the Unlicense, then the MIT terms offered instead: a choice
    (f"{UNLICENSE}\nAlternatively, this software is also available under the MIT License:\n\n{MIT}",
     "MIT OR Unlicense"),
    # a dedication, then "you may use it under" the MIT terms
    (f"{DEDICATION}\nAlternatively, you may use it under the terms of the MIT License:\n\n{MIT}",
     f"{PUBLIC_DOMAIN} OR MIT"),
    # the MIT terms, then the work released into the public domain instead
    (f"{MIT}\nAlternatively, this software is released into the public domain:\n\n{DEDICATION}",
     f"{PUBLIC_DOMAIN} OR MIT"),
])
def test_an_alternative_paragraph_states_a_choice(text: str, expected: str) -> None:
    assert _read(text) == expected
    assert later_choice(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # both texts, no word of an alternative: both apply (MIT's conditions are kept)
    (f"{UNLICENSE}\n{MIT}", "MIT AND Unlicense"),
    # a part of the work under other terms
    (f"{APACHE}\nPortions of this software are licensed under the MIT License:\n\n{MIT}", "Apache-2.0 AND MIT"),
    # "alternatively" of other code, not of the work
    (f"{MIT}\nAlternatively, the files in quill/vendor/ are available under the Unlicense:\n\n{UNLICENSE}",
     "MIT AND Unlicense"),
    # an alternative paragraph first, with nothing above it to be an alternative to
    (f"Alternatively, this software is available under the MIT License.\n\n{MIT}", "MIT"),
])
def test_other_paragraphs_keep_both_licences(text: str, expected: str) -> None:
    assert _read(text) == expected
    assert later_choice(text) == ""


def test_a_licence_the_alternative_does_not_name_stays_beside_the_choice() -> None:
    # the alternative names the MIT terms; an Apache text under it (a bundled file's) is held beside
    text = (f"{UNLICENSE}\nAlternatively, this software is also available under the MIT License:\n\n{MIT}\n"
            f"The bundled fonts:\n\n{APACHE}")
    assert later_choice(text) == "Apache-2.0 AND (MIT OR Unlicense)"


def test_the_declared_licence_follows_the_file(tmp_path: Path) -> None:
    # left160's tree: a lone "Public Domain" classifier and one LICENSE holding the dedication and
    # the MIT text it offers as an alternative; it read "MIT AND Unlicense"
    pkg = "Metadata-Version: 2.1\nName: quill\nVersion: 1.0\nClassifier: License :: Public Domain\n"
    licence = f"{UNLICENSE}\nAlternatively, this software is also available under the MIT License:\n\n{MIT}"
    root = treegen.write_tree(tmp_path / "quill", {"quill/a.py": "def a():\n    return 1\n", "PKG-INFO": pkg,
                                                   "LICENSE": licence})
    with open_source(str(root)) as source:
        lic = read_source_licence(source)
    assert lic.declared == "MIT OR Unlicense"
    assert [(f.path, f.expression) for f in lic.files] == [("LICENSE", "MIT OR Unlicense")]
