"""A release whose licence files, NOTICE and ``__copyright__`` name no holder: the one holder its
files' copyright lines name speaks for its silent files (``release_copyrights``; ply 3.11's
cpp.py, ctokens.py and ygen.py, copied into astropy 6.1.4, read "copyright n/a")."""

from __future__ import annotations

import pytest
import treegen

_body = treegen.distinctive_functions
_BSD = ("# Redistribution and use in source and binary forms, with or without\n# modification, are permitted "
        "provided that the following conditions are met:\n# 3. Neither the name of the copyright holder nor the "
        "names of its contributors\n")
_META = "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: BSD\n"


_JANE = "Jane Q. Upstream (Upco LLC)"


@pytest.mark.parametrize(("holders", "expected"), [
    ((_JANE, _JANE), f"Copyright (C) 2001-2018 {_JANE}"),
    ((_JANE, "Other Person"), ""),  # the files disagree: no one holder
    ((_JANE,), ""),  # one file alone may be another project's copy
])
def test_a_silent_file_takes_the_one_holder_its_releases_files_name(run_compare, holders: tuple[str, ...],
                                                                     expected: str) -> None:
    up = {"PKG-INFO": _META, "up/silent.py": "# Author: Jane Q. Upstream\n# Copyright (C) 2007\n" + _body(1),
          **{f"up/said{k}.py": f"# Copyright (C) 2001-2018 {h}\n{_BSD}{_body(k + 2)}" for k, h in enumerate(holders)}}
    target = {"tgt/silent.py": _body(1), "pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n'}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/silent.py"]
    assert (row["upstream_copyrights"], row["upstream_copyrights_from"]) == (
        (expected, "release notices") if expected else ("", ""))
    assert row["keeps_copyright"] == ("no" if expected else "n/a")
    assert ("copyright" in row["missing"]) == bool(expected)


def test_a_release_licence_file_naming_a_holder_comes_first(run_compare) -> None:
    up = {"PKG-INFO": _META, "LICENSE": "Copyright (c) 2020 Upco Maintainers\n" + _BSD.replace("# ", ""),
          "up/silent.py": _body(1),
          **{f"up/said{k}.py": f"# Copyright (C) 2019 Jane Q. Upstream\n{_BSD}{_body(k + 2)}" for k in range(2)}}
    target = {"tgt/silent.py": _body(1), "pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n'}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/silent.py"]
    assert row["upstream_copyrights_from"] == "source"


@pytest.mark.parametrize("holders", [(_JANE, _JANE), (_JANE, "Other Person")])
def test_the_spdx_package_states_the_holder_the_obligations_rows_read(run_compare, tmp_path,
                                                                      holders: tuple[str, ...]) -> None:
    """The upstream package's copyrightText says what obligations.csv says for its files: the one
    holder its files name (py 1.11.0's "(c) Holger Krekel and others, 2004-2014" read NOASSERTION
    beside rows naming it), and NOASSERTION when its files disagree."""
    from spdx_tools.spdx.model import SpdxNoAssertion
    from spdx_tools.spdx.parser.parse_anything import parse_file

    up = {"PKG-INFO": _META, "up/silent.py": _body(1),
          **{f"up/said{k}.py": f"# Copyright (C) 2001-2018 {h}\n{_BSD}{_body(k + 2)}" for k, h in enumerate(holders)}}
    target = {"tgt/silent.py": _body(1), "pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n'}
    comparison = run_compare(target, [("up", up)])
    comparison.write(tmp_path / "report", html=False)
    package = {p.spdx_id: p for p in parse_file(str(tmp_path / "report" / "lineage.spdx.json")).packages}[
        "SPDXRef-Package-upstream-1"]
    if holders[0] == holders[1]:
        assert package.copyright_text == f"Copyright (C) 2001-2018 {_JANE}"
    else:
        assert isinstance(package.copyright_text, SpdxNoAssertion)


_PD_NOTICE = ("# The contents of this file are dedicated to the public domain.  To\n# the extent that dedication "
              "to the public domain is not available, everyone may use it.\n")
_PD_META = "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nClassifier: License :: Public Domain\n"


@pytest.mark.parametrize(("meta", "head"), [
    (_PD_META, _PD_NOTICE),  # dedicated by its own notice (pycrypto 2.6.1's files)
    (_PD_META, ""),  # silent, under the release's declared public domain
    (_META.replace("License: BSD", "License: Unlicense"), _PD_NOTICE),
    (_META.replace("License: BSD", "License: Unlicense"), ""),  # silent, under the declared Unlicense
])
def test_a_public_domain_file_takes_no_holder_of_its_release(run_compare, meta: str, head: str) -> None:
    """pycrypto 2.6.1: two files (HMAC.py, setup.py) state "Portions Copyright (c) 2001, 2002, 2003
    Python Software Foundation;", the exceptions its COPYRIGHT file names; every other file is
    dedicated to the public domain, yet all 73 rows of pycryptodomex 3.20.0's copies credited the
    PSF (``release notices``), and so did ATTRIBUTION.md and 242 SPDX snippets."""
    psf = "# Portions Copyright (c) 2001, 2002, 2003 Python Software Foundation;\n# All Rights Reserved\n"
    up = {"PKG-INFO": meta, "up/cipher.py": head + _body(1),
          **{f"up/derived{k}.py": psf + _PD_NOTICE + _body(k + 2) for k in range(2)}}
    target = {"tgt/cipher.py": _body(1), "tgt/derived0.py": _body(2),
              "pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n'}
    ob = run_compare(target, [("up", up)]).obligations.set_index("target_path")
    row = ob.loc["tgt/cipher.py"]
    assert row["upstream_licence"] == ("Unlicense" if "Unlicense" in meta and not head
                                       else "LicenseRef-scancode-public-domain")
    assert (row["upstream_copyrights"], row["upstream_copyrights_from"]) == ("", "")
    assert (row["keeps_copyright"], row["missing"]) == ("n/a", "")
    # a file naming its holder itself keeps them: its own lines speak for it
    own = ob.loc["tgt/derived0.py"]
    assert own["upstream_copyrights_from"] == "file"
    assert "Python Software Foundation" in own["upstream_copyrights"]
