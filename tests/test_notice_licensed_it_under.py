"""A notice whose verb takes its object or its licensor before "under" ("has licensed it under
the Python 2.2 license", "are licensed by the PSF under the terms of ..."), and "the Python X.Y
license" as the licence a Python release ships, SPDX's Python-2.0 (pycrypto 2.6.1's Hash/HMAC.py
and setup.py, the exceptions its COPYRIGHT names: they read public domain alone, and pycryptodome
3.0's copies of them, relabelled, owed nothing). Invented text in pycrypto's shape."""

from __future__ import annotations

import pytest

from lineage.licences.expressions import PUBLIC_DOMAIN
from lineage.licences.notices import source_notice_ids

_PORTIONS_HEAD = (
    "# ===================================================================\n"
    "# Portions Copyright (c) 2001, 2002, 2003 Python Software Foundation;\n"
    "# All Rights Reserved\n#\n"
    "# This file contains code from the Python 2.2 frob.py module (the\n"
    "# \"Original Code\"), with modifications made after it was incorporated\n"
    "# into Quill (the \"Modifications\").\n#\n"
    "# To the best of our knowledge, the Python Software Foundation is the\n"
    "# copyright holder of the Original Code, and has licensed it under the\n"
    "# Python 2.2 license.  See the file LEGAL/LICENSE.python-2.2 for details.\n#\n"
    "# The Modifications to this file are dedicated to the public domain.\n"
    "# ===================================================================\n")


def test_the_portions_head_is_python_and_public_domain() -> None:
    assert source_notice_ids(_PORTIONS_HEAD) == (PUBLIC_DOMAIN, "Python-2.0")


@pytest.mark.parametrize(("text", "ids"), [
    ("# They are licensed by the PSF under the terms of the Python 2.2 license.\n", ("Python-2.0",)),
    ("# Quill's authors have licensed it under the MIT license.\n", ("MIT",)),
    ("# We released them under the terms of the Apache 2.0 license.\n", ("Apache-2.0",)),
    ("# This file is licensed under the Python 3.12 license.\n", ("Python-2.0",)),
    # Python 1.x shipped CNRI's licence alone, and a bare "Python license" names no release
    ("# licensed under the Python 1.5.2 license\n", ()),
    ("# licensed under the Python license\n", ()),
    # a licensor clause is a few words, not a sentence
    ("# licensed by the people who wrote the original code long ago, and much later, under the MIT license\n", ()),
])
def test_licensed_it_under_and_python_releases(text: str, ids: tuple[str, ...]) -> None:
    assert source_notice_ids(text) == ids


def _body(seed: int) -> str:
    return "".join(f"def frob_{seed}_{k}(value):\n    total = value * {k + seed} + {k * 13}\n"
                   f"    return total - {k}\n\n\n" for k in range(10))


def test_a_relabelled_copy_of_python_code_owes_its_terms(run_compare) -> None:
    """pycryptodome 3.0's Hash/HMAC.py keeps 115 lines of pycrypto 2.6.1's under its own BSD-2-Clause
    head: the PSF's line, the Python licence and a statement of the changes are missing."""
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: quill\nVersion: 2.6\nClassifier: License :: Public Domain\n",
          "quill/frob.py": _PORTIONS_HEAD + _body(1)}
    bsd = ("# Copyright (c) 2014, Someone Else\n# Redistribution and use in source and binary forms, with or "
           "without\n# modification, are permitted provided that the following conditions are met:\n")
    target = {"tgt/frob.py": bsd + _body(1).replace("return total - 3", "return total - 4"),
              "pyproject.toml": '[project]\nname = "tgt"\nlicense = "BSD-2-Clause"\n'}
    row = run_compare(target, [("quill", up)]).obligations.set_index("target_path").loc["tgt/frob.py"]
    assert row["upstream_licence"] == f"{PUBLIC_DOMAIN} AND Python-2.0"
    assert (row["upstream_copyrights_from"], row["keeps_copyright"]) == ("file", "no")
    assert row["missing"] == "copyright; licence-notice; modification-notice"
    assert row["conflict"] == "no"

