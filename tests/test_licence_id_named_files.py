"""A licence file named by its SPDX id (MySQL-python 1.2.5's root ``GPL-2.0``, the GPL's text and the
release's only licence file: the release read as naming no licence, and each of the 24 GPL files
mysqlclient 1.3.14 copies from it was "compatibility unknown"), and ``lineage check`` saying which
pairs its licence items could not judge (it passed that report in silence)."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen

from lineage.cli import main
from lineage.licences import read_source_licence
from lineage.licences.licence_file import named_by_licence_id
from lineage.sources import open_source

# the opening a GNU licence text carries (its title), written here, not taken from a release
_GPL2_TITLE = "                    GNU GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n\n"
_APACHE = "Licensed under the Apache License, Version 2.0 (the \"License\");\n"


def test_a_file_named_by_one_licence_id_is_named_as_a_licence_file() -> None:
    for path in ["GPL-2.0", "LGPL-2.1.txt", "Apache-2.0", "pkg/MPL-2.0.md", "gpl-3.0.txt", "MIT", "BSD-3-Clause.rst"]:
        assert named_by_licence_id(path), path
    # not one id, a licence word's own name (is_licence_file takes those), code or no id at all
    for path in ["GPL", "GPLv2", "LICENSE", "COPYING.LESSER", "setup.py", "README", "2.0", "GPL-2.0.py", "MIT.cfg",
                 "MIT OR Apache-2.0", "AUTHORS"]:
        assert not named_by_licence_id(path), path


@pytest.mark.parametrize(("files", "declared", "found_from"), [
    # the GPL text under its id, the metadata naming the family alone
    ({"GPL-2.0": _GPL2_TITLE + "  Everyone is permitted to copy and distribute verbatim copies\n"},
     "GPL-2.0-only", "licence files: GPL-2.0"),
    ({"Apache-2.0.txt": _APACHE}, "Apache-2.0", "licence files: Apache-2.0.txt"),
    # a file named by an id whose text states no licence is no licence file (JSON is an id)
    ({"JSON": '{"a": 1}\n'}, "", ""),
])
def test_a_root_file_named_by_a_licence_id_declares_the_licence_its_text_states(
        tmp_path: Path, files: dict[str, str], declared: str, found_from: str) -> None:
    root = treegen.write_tree(tmp_path / "up", {
        "PKG-INFO": "Metadata-Version: 1.0\nName: up\nVersion: 1.0\nLicense: GPL\n", "up/__init__.py": "x = 1\n",
        **files})
    with open_source(str(root)) as source:
        lic = read_source_licence(source)
    assert (lic.declared, lic.declared_from) == (declared, found_from)
    assert [f.path for f in lic.files] == ([next(iter(files))] if declared else [])


def _pair(tmp_path: Path, licence_file: str) -> Path:
    """A fork copying a GPL module from an upstream whose licence is one root file ``licence_file``."""
    body = treegen.distinctive_functions(5)
    gpl = {"PKG-INFO": "Metadata-Version: 1.0\nName: {}\nVersion: 1.0\nLicense: GPL\n", "COPYING": _GPL2_TITLE}
    t = treegen.write_tree(tmp_path / "fork", {"PKG-INFO": gpl["PKG-INFO"].format("fork"), "COPYING": _GPL2_TITLE,
                                               "pkg/core.py": body})
    u = treegen.write_tree(tmp_path / "up", {"PKG-INFO": gpl["PKG-INFO"].format("up"), licence_file: _GPL2_TITLE,
                                             "pkg/core.py": body})
    out = tmp_path / f"out-{licence_file}"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    return out


def test_check_says_the_pairs_its_licence_items_could_not_judge(tmp_path: Path, capsys) -> None:
    """An upstream whose licence is unknown (its file named so that no rule reads it) leaves its
    pairs unjudged: the policy holds, and the command says how many pairs, per upstream; once the
    licence is read it says nothing."""
    unread = _pair(tmp_path, "GPL-TEXT")
    capsys.readouterr()
    assert main(["check", str(unread), "--fail-on-missing-notice", "--fail-on-licence-conflict"]) == 0
    err = capsys.readouterr().err
    assert ("fail-on-missing-notice and fail-on-licence-conflict could not judge 1 (target file, upstream file) "
            "pair whose upstream licence is unknown (no notice to ask for, no compatibility to read): up 1") in err
    assert err.count("could not judge") == 1  # the pair's compatibility is unknown for that reason alone
    assert main(["check", str(unread), "--max-copied-share", "100"]) == 0  # no licence item: nothing said
    assert "could not" not in capsys.readouterr().err
    read = _pair(tmp_path, "GPL-2.0")
    capsys.readouterr()
    assert main(["check", str(read), "--fail-on-licence-conflict"]) == 0
    assert "could not" not in capsys.readouterr().err
