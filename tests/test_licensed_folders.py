"""An upstream folder holding a licence file of another licence than the release's is another
project's code the release carries (:func:`lineage.index.vendoring.licensed_folder_markers`,
``MatchParams.origin_licensed_folders``): mypy 1.13.0's ``mypy/typeshed/``, typeshed's stubs under
"Apache-2.0 AND MIT" in a MIT release, was counted as mypy's own code (user108)."""

from __future__ import annotations

import treegen
from conftest import Runner

from lineage.match import MatchParams

_APACHE = "Copyright 2019 Stub Authors\n\nApache License\nVersion 2.0, January 2004\n"
_MIT_PYPROJECT = '[project]\nname = "chk"\nlicense = "MIT"\n'


def _upstream(sub_licence: str = _APACHE, pyproject: str = _MIT_PYPROJECT) -> dict[str, str]:
    return {"pyproject.toml": pyproject, "chk/__init__.py": "", "chk/main.py": treegen.distinctive_functions(1),
            "chk/stubs/LICENSE": sub_licence, "chk/stubs/__init__.py": "",
            "chk/stubs/core.py": treegen.distinctive_functions(2)}


def _target() -> dict[str, str]:
    return {"pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n', "tgt/__init__.py": "",
            "tgt/core.py": treegen.distinctive_functions(2), "tgt/main.py": treegen.distinctive_functions(1)}


def _copied(comparison, path: str) -> int:  # type: ignore[no-untyped-def]
    lines = comparison.lines[comparison.lines["target_path"] == path]
    return int((lines["match"] != "none").sum())


def test_a_folder_under_another_licence_is_third_party_code(run_compare: Runner) -> None:
    c = run_compare(_target(), [("chk", _upstream())])
    lines = c.lines[c.lines["target_path"] == "tgt/core.py"]
    assert _copied(c, "tgt/core.py") == 0
    assert set(lines.loc[lines["shared_origin"] != "", "shared_origin"]) == {"third_party:stubs"}
    assert _copied(c, "tgt/main.py") > 0  # the release's own code stays copied
    off = run_compare(_target(), [("chk", _upstream())], params=MatchParams(origin_licensed_folders=0))
    assert _copied(off, "tgt/core.py") > 0


def test_a_folder_under_the_releases_own_licence_is_its_own(run_compare: Runner) -> None:
    mit = "Copyright (c) 2019 Chk Authors\n\nPermission is hereby granted, free of charge, to any person " \
          "obtaining a copy\nof this software ...\n"
    c = run_compare(_target(), [("chk", _upstream(sub_licence=mit))])
    assert _copied(c, "tgt/core.py") > 0


def test_nothing_is_said_without_a_declared_licence(run_compare: Runner) -> None:
    c = run_compare(_target(), [("chk", _upstream(pyproject='[project]\nname = "chk"\n'))])
    assert _copied(c, "tgt/core.py") > 0
