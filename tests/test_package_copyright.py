"""A release whose licence files name no holder but whose top-level package states one in code
(``__copyright__ = "Copyright ..."``, as requests 2.32 does in ``__version__.py``): that line is the
release's holder, so a copied file without copyright lines of its own is checked for it.

The trees are written for the test; no package's own files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import treegen
from test_licences import TARGET_MIT

from lineage.licences.declared import read_source_licence
from lineage.report.summary import summary_dict
from lineage.sources import open_source

_body = treegen.distinctive_functions

BARE_APACHE = "Licensed under the Apache License, Version 2.0 (the \"License\").\n"  # no holder
HOLDER = "Copyright 2020 Upcore Author"


def _licence(tmp_path: Path, files: dict[str, str]):
    root = treegen.write_tree(tmp_path / "src", files)
    with open_source(str(root), tmp_path / "cache") as source:
        return read_source_licence(source)


@pytest.mark.parametrize(("path", "line"), [
    ("upcore/__init__.py", f'__copyright__ = "{HOLDER}"\n'),
    ("upcore/__version__.py", f"__title__ = 'upcore'\n__copyright__: str = '{HOLDER}'  # the holder\n"),
    ("src/upcore/__about__.py", f'__copyright__ = "{HOLDER}"\n'),
])
def test_a_package_copyright_string_is_the_releases_holder_when_its_files_name_none(
        tmp_path: Path, path: str, line: str) -> None:
    lic = _licence(tmp_path, {path: line, "upcore/mod.py": _body(1), "LICENSE": BARE_APACHE})
    assert lic.package_copyrights == ((HOLDER, path),)
    assert lic.package_copyrights_above(path.replace(path.rsplit("/", 1)[1], "sub/mod.py")) == ((HOLDER,), path)
    assert lic.package_copyrights_above("other/mod.py") == ((), "")
    assert lic.file_fallback_copyrights == ()  # the licence and NOTICE files' holders only
    assert lic.copyrights == (HOLDER,)
    assert lic.to_dict()["package_copyrights"] == [{"copyright": HOLDER, "file": path}]


@pytest.mark.parametrize("line", [
    '__copyright__ = "2014 %s" % __author__\n',  # formatted: the text is not in the literal
    '__copyright__ = f"Copyright 2014 {__author__}"\n',
    '__copyright__ = "Upcore Author"\n',  # no copyright sign or word
    '    __copyright__ = "Copyright 2020 Upcore Author"\n',  # not at the module's top level
])
def test_what_is_no_package_copyright(tmp_path: Path, line: str) -> None:
    lic = _licence(tmp_path, {"upcore/__init__.py": line, "LICENSE": BARE_APACHE})
    assert lic.package_copyrights == () and lic.package_copyrights_above("upcore/mod.py") == ((), "")
    assert "package_copyrights" not in lic.to_dict()


def test_the_deepest_package_speaks_and_tests_and_plain_modules_do_not(tmp_path: Path) -> None:
    vendored = "Copyright 2011 Vendored Author"
    lic = _licence(tmp_path, {"upcore/__init__.py": f'__copyright__ = "{HOLDER}"\n',
                              "upcore/_vendor/lib/__version__.py": f'__copyright__ = "{vendored}"\n',
                              "tests/__init__.py": '__copyright__ = "Copyright 2020 Test Author"\n',
                              "upcore/util.py": '__copyright__ = "Copyright 2020 Util Author"\n',
                              "LICENSE": BARE_APACHE})
    assert lic.package_copyrights == ((HOLDER, "upcore/__init__.py"), (vendored, "upcore/_vendor/lib/__version__.py"))
    assert lic.package_copyrights_above("upcore/_vendor/lib/x/y.py") == ((vendored,),
                                                                         "upcore/_vendor/lib/__version__.py")
    assert lic.package_copyrights_above("upcore/_vendor/other.py") == ((HOLDER,), "upcore/__init__.py")
    assert lic.copyrights == (HOLDER,)  # the release's: the top-level package's only


def test_licence_file_holders_come_first(tmp_path: Path) -> None:
    lic = _licence(tmp_path, {"upcore/__init__.py": f'__copyright__ = "{HOLDER}"\n',
                              "LICENSE": "Copyright 2019 Upcore Foundation\n\n" + BARE_APACHE})
    assert lic.file_fallback_copyrights == lic.copyrights == ("Copyright 2019 Upcore Foundation",)


def test_copied_files_are_checked_for_the_package_copyright(run_compare) -> None:
    upstream = {"upcore/__init__.py": "", "upcore/__version__.py": f'__copyright__ = "{HOLDER}"\n',
                "upcore/mod.py": _body(1), "upcore/other.py": _body(2), "LICENSE": BARE_APACHE}
    target = {"tgt/bare.py": _body(1), "tgt/kept.py": f"# {HOLDER}\n" + _body(2), TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", upstream)])
    ob = comparison.obligations.set_index("target_path")
    assert set(ob["upstream_copyrights"]) == {HOLDER}
    assert set(ob["upstream_copyrights_from"]) == {"package:upcore/__version__.py"}
    assert ob.loc["tgt/kept.py", "keeps_copyright"] == "yes"
    assert ob.loc["tgt/bare.py", "keeps_copyright"] == "no" and "copyright" in ob.loc["tgt/bare.py", "missing"]
    assert ob.loc["tgt/kept.py", "copyright_kept_in"] == "file"
    summary = json.loads(json.dumps(summary_dict(comparison)))
    up = summary["licences"]["upstreams"]["up"]
    assert up["package_copyrights"] == [{"copyright": HOLDER, "file": "upcore/__version__.py"}]
    assert "package_copyrights" not in summary["licences"]["target"]


def test_a_target_package_stating_the_holder_keeps_it(run_compare) -> None:
    # the target keeps the upstream's __copyright__ in its own package module (niquests' way)
    upstream = {"upcore/__version__.py": f'__copyright__ = "{HOLDER}"\n', "upcore/mod.py": _body(1),
                "LICENSE": BARE_APACHE}
    target = {"tgt/__version__.py": f'__copyright__: str = "{HOLDER}"\n', "tgt/mod.py": _body(1),
              "other/mod.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", upstream)])
    ob = comparison.obligations.set_index("target_path")
    assert (ob.loc["tgt/mod.py", "keeps_copyright"], ob.loc["tgt/mod.py", "copyright_kept_in"]) == (
        "yes", "package:tgt/__version__.py")
    assert (ob.loc["other/mod.py", "keeps_copyright"], ob.loc["other/mod.py", "copyright_kept_in"]) == ("no", "")


def test_holder_survey_names_the_releases_with_a_holder_only_in_code(tmp_path: Path, capsys) -> None:
    import zipfile

    from conftest import script_module

    def wheel(name: str, files: dict[str, str]) -> Path:
        path = tmp_path / f"{name}-1.0-py3-none-any.whl"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr(f"{name}-1.0.dist-info/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
            for p, text in files.items():
                z.writestr(p, text)
        return path

    only_code = wheel("upcore", {"upcore/__version__.py": f'__copyright__ = "{HOLDER}"\n',
                                 "upcore-1.0.dist-info/LICENSE": BARE_APACHE})
    both = wheel("other", {"other/__init__.py": '__copyright__ = "Copyright 2020 Other Author"\n',
                           "other-1.0.dist-info/LICENSE": "Copyright 2020 Other Author\n\n" + BARE_APACHE})
    neither = wheel("plain", {"plain/__init__.py": "x = 1\n"})
    assert script_module("holder_survey").main([str(only_code), str(both), str(neither)]) == 0
    out = capsys.readouterr().out
    assert ("upcore-1.0-py3-none-any.whl: root licence files '(no holder)'; "
            f"package upcore/__version__.py: '{HOLDER}'") in out
    assert "plain-1.0" not in out
    assert out.rstrip().endswith("3 releases read, 2 with package copyrights, 1 naming a holder only there")


def test_each_commit_reads_its_own_package_copyright(tmp_path: Path) -> None:
    """A git commit's package modules are remembered by blob hash (a history reads each once):
    a commit that changes the string gets the new holder, one that keeps the file the same."""
    git = pytest.importorskip("git")
    path = tmp_path / "repo"
    repo = git.Repo.init(path)
    who = git.Actor("Test", "test@example.invalid")
    shas = []
    for holder in ("Copyright 2020 First Holder", "Copyright 2021 Second Holder"):
        treegen.write_tree(path, {"upcore/__init__.py": f'__copyright__ = "{holder}"\n',
                                  "upcore/mod.py": _body(1), "LICENSE": BARE_APACHE})
        repo.index.add(["upcore/__init__.py", "upcore/mod.py", "LICENSE"])
        shas.append(repo.index.commit(holder, author=who, committer=who).hexsha)
    repo.close()
    read = []
    for sha in [*shas, shas[0]]:
        with open_source(f"{path}@{sha}", tmp_path / "cache") as source:
            read.append(read_source_licence(source).package_copyrights)
    assert read == [(("Copyright 2020 First Holder", "upcore/__init__.py"),),
                    (("Copyright 2021 Second Holder", "upcore/__init__.py"),),
                    (("Copyright 2020 First Holder", "upcore/__init__.py"),)]
