"""A licence file named for what it covers after its name, ``LICENSE.<module>`` (livestreamer
1.12.2's root ``LICENSE.pbs`` for ``src/livestreamer_cli/packages/pbs.py`` and
``LICENSE.flashmedia`` for ``src/livestreamer/packages/flashmedia/``): that module's licence, not
the release's; as root licence files their holders were asked of every file streamlink 1.0.0
copied (112 pairs "copyright missing"). Invented trees."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import treegen

from lineage.cli import main
from lineage.licences.declared import read_source_licence
from lineage.sources import open_source

_OWN = "Copyright (c) 2011-2015, Ada Quill\nAll rights reserved.\n"
_PBS = "Copyright (C) 2011-2012 by Bo Sedge\n\nPermission is hereby granted, free of charge, to any person\n"
_MEDIA = "Copyright (c) 2011-2013, Ada Quill\n"


def _upstream(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {"pyproject.toml": '[project]\nname = "rill"\nlicense = "BSD-2-Clause"\n', "LICENSE": _OWN,
            "LICENSE.pbs": _PBS, "LICENSE-flashmedia": _MEDIA, "LICENSE.txt": _OWN,
            "src/rill/core.py": treegen.distinctive_functions(1),
            "src/rill_cli/packages/pbs.py": treegen.distinctive_functions(2),
            "src/rill/packages/flashmedia/box.py": treegen.distinctive_functions(3), **(extra or {})}


def test_a_suffixed_licence_file_governs_the_module_it_names(tmp_path: Path) -> None:
    root = treegen.write_tree(tmp_path / "up", _upstream())
    with open_source(str(root), tmp_path / "cache") as source:
        lic = read_source_licence(source)
    folders = {f.path: f.folder for f in lic.files}
    assert folders["LICENSE.pbs"] == "src/rill_cli/packages/pbs.py"
    assert folders["LICENSE-flashmedia"] == "src/rill/packages/flashmedia"
    assert folders["LICENSE"] == folders["LICENSE.txt"] == ""  # a text suffix names nothing
    assert lic.file_fallback_copyrights == ("Copyright (c) 2011-2015, Ada Quill",)


@pytest.mark.parametrize("extra", [{}, {"src/other/pbs.py": "X = 1\n"}])
def test_two_modules_of_that_name_or_none_leave_it_the_releases(tmp_path: Path, extra: dict[str, str]) -> None:
    tree = _upstream(extra)
    if not extra:  # no module of the name at all
        tree["LICENSE.pbs"], tree["LICENSE.other"] = tree["LICENSE.pbs"], _PBS
        del tree["src/rill_cli/packages/pbs.py"]
    root = treegen.write_tree(tmp_path / "up", tree)
    with open_source(str(root), tmp_path / "cache") as source:
        folders = {f.path: f.folder for f in read_source_licence(source).files}
    assert folders["LICENSE.pbs"] == ""


def test_copied_files_are_asked_only_for_their_own_modules_holders(tmp_path: Path) -> None:
    up = treegen.write_tree(tmp_path / "up", _upstream())
    target = treegen.write_tree(tmp_path / "tgt", {
        "pyproject.toml": '[project]\nname = "brook"\nlicense = "BSD-2-Clause"\n', "LICENSE": _OWN,
        "brook/core.py": treegen.distinctive_functions(1), "brook/pbs.py": treegen.distinctive_functions(2)})
    out = tmp_path / "out"
    assert main(["compare", str(target), str(up), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1"]) == 0
    rows = pd.read_csv(out / "obligations.csv", keep_default_na=False, dtype=str).set_index("target_path")
    assert rows.loc["brook/core.py", "keeps_copyright"] == "yes"  # Ada Quill's notice, kept in the target's LICENSE
    assert "Bo Sedge" not in rows.loc["brook/core.py", "upstream_copyrights"]
    assert "Bo Sedge" in rows.loc["brook/pbs.py", "upstream_copyrights"]
    assert "copyright" in rows.loc["brook/pbs.py", "missing"]  # pbs's own holder is not kept
