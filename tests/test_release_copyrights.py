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
