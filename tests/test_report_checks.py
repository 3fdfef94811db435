"""scripts/report_checks.py on a small generated report: every figure written in more than one
file agrees, and each kind of disagreement a file could carry is caught (so no check passes by
reading nothing)."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import treegen
from conftest import script_module

from lineage.api import compare
from lineage.report.markdown import md_text
from lineage.settings import RunSettings

rc = script_module("report_checks")

MARKER = "# Adapted from https://github.com/example/{pkg}/blob/v1.0/{path}\n"
REEXPORT = ("from .alpha_module import (\n    AlphaFirstThing,\n    AlphaSecondThing,\n    AlphaThirdThing,\n)\n"
            "from .beta_module import BetaFirstThing, BetaSecondThing, BetaThirdThing\n"
            "from .gamma_module import GammaFirstThing, GammaSecondThing\n\n"
            "__all__ = [\n    \"AlphaFirstThing\",\n    \"AlphaSecondThing\",\n    \"AlphaThirdThing\",\n"
            "    \"BetaFirstThing\",\n    \"BetaSecondThing\",\n    \"BetaThirdThing\",\n]\n")
DOC = "".join(f"    Routing rule number {k} matches the {k}th path segment against its converter.\n" for k in range(30))


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every kind of file the lists tell apart: marked with and without copied code, unmarked with
    copied code, re-export-only and prose-only copies, own code; every report written."""
    base = tmp_path_factory.mktemp("checks")
    up = treegen.gen_upstream(seed=2718, n_modules=3)
    m0, m1, m2 = up.module(0), up.module(1), up.module(2)
    upstream = up.files() | {
        f"{up.pkg}/api.py": REEXPORT,
        f"{up.pkg}/routing.py": '"""\n' + DOC + '"""\n\n' + treegen.distinctive_functions(4),
        "LICENSE": "MIT License\n\nCopyright (c) 2020 Example Authors\n",
    }
    own = treegen.render(treegen.own_code(treegen.Names(random.Random(5)), 2))
    target = {
        "app/marked.py": MARKER.format(pkg=up.pkg, path=m0.path) + "\n".join(m0.lines) + "\n",
        "app/plain.py": "\n".join(m1.lines) + "\n",
        "app/marked_own.py": MARKER.format(pkg=up.pkg, path=m2.path) + own,
        "app/own.py": own,
        "app/api.py": REEXPORT,
        "app/routing.py": '"""\n' + DOC + '"""\n\n' + "def own_rule(x):\n    return x * 13\n",
    }
    t_root = treegen.write_tree(base / "target", target)
    u_root = treegen.write_tree(base / "upstream", upstream)
    comparison = compare(str(t_root), [str(u_root)], settings=RunSettings(use_cache=False, jobs=1))
    out = base / "out"
    comparison.write(out)
    return out


def _disagreeing(out: Path) -> dict[str, list[str]]:
    return {c.name: c.bad for c in rc.check_report(out) if c.bad}


def test_a_report_agrees_with_itself_everywhere(report: Path) -> None:
    checks = rc.check_report(report)
    assert {c.name: c.bad for c in checks if c.bad} == {}
    assert all(c.checked for c in checks if not c.name.startswith("SARIF licence-conflict"))
    lists = json.loads((report / "summary.json").read_text())["lists"]
    # the tree holds every kind the lists tell apart
    for name in ("marked_with_copied", "marked_without_copied", "unmarked_with_copied", "reexport_with_copied",
                 "prose_only_copied"):
        assert lists[name], name


def _edit_json(path: Path, change: Callable[[dict], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _csv_cell(path: Path, row: int, column: str, value: str) -> None:
    import pandas as pd

    frame = pd.read_csv(path, keep_default_na=False, dtype=str)
    frame.loc[row, column] = value
    frame.to_csv(path, index=False)


def _first_result(data: dict) -> None:
    del data["runs"][0]["results"][0]


MUTATIONS: dict[str, tuple[str, Callable[[Path], None]]] = {
    "files.csv count": ("files.csv counts = lines.csv",
                        lambda o: _csv_cell(o / "files.csv", 0, "code_lines", "999")),
    "regions.csv span": ("regions.csv counts and spans = lines.csv",
                         lambda o: _csv_cell(o / "regions.csv", 0, "target_end", "999")),
    "functions.csv copied": ("functions.csv code and copied code lines = lines.csv over each span",
                             lambda o: _csv_cell(o / "functions.csv", 0, "copied_code_lines", "77")),
    "obligations.csv row": ("obligations.csv counts and first/last lines = lines.csv",
                            lambda o: _csv_cell(o / "obligations.csv", 0, "copied_lines", "1")),
    "obligations.csv copyrights_missing": (
        "obligations.csv copyrights_missing: upstream_copyrights' lines, iff keeps_copyright is no",
        lambda o: _csv_cell(o / "obligations.csv", 0, "copyrights_missing", "")),
    "summary.md copyright not kept": (
        "summary.md sentences = summary.json / obligations.csv",
        lambda o: _edit_text(o / "summary.md", 'Example Authors" (', 'Example Authors" (9')),
    "lines.csv similarity": ("lines.csv similarity and pairing as defined (floors from manifest.json)",
                             lambda o: _csv_cell(o / "lines.csv", 0, "similarity", "0.5")),
    "summary.json count": ("summary.json files counts",
                           lambda o: _edit_json(o / "summary.json", lambda d: d["files"].update(with_copied_lines=1))),
    "summary.json list": ("summary.json lists = README definitions",
                          lambda o: _edit_json(o / "summary.json", lambda d: d["lists"]["unmarked_with_copied"]
                                               .append("app/own.py"))),
    "summary.md headline": ("summary.md headline = summary.json",
                            lambda o: _edit_text(o / "summary.md", " of ", " off ")),
    "SPDX snippet": ("SPDX Snippets = copied regions",
                     lambda o: _edit_json(o / "lineage.spdx.json", lambda d: d["snippets"].pop())),
    "CycloneDX occurrence": ("CycloneDX occurrences = copied regions, per upstream",
                             lambda o: _edit_json(o / "lineage.cdx.json", lambda d: d["metadata"]["component"]
                                                  ["pedigree"]["ancestors"][0]["evidence"]["occurrences"].pop())),
    "SARIF result": ("SARIF unmarked-copy = regions of unmarked files with copied code",
                     lambda o: _edit_json(o / "lineage.sarif", _first_result)),
    "HTML index": ("HTML index rows = files.csv (copied lines, shared code or a marker)",
                   lambda o: _edit_text(o / "html" / "index.html", "<tr><td>", "<tr><td>x")),
    "manifest digest": ("manifest.json outputs: sha256 of every file, every file listed",
                        lambda o: (o / "regions.csv").write_text((o / "regions.csv").read_text() + "\n")),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_each_disagreement_is_caught_by_its_check(report: Path, tmp_path: Path, mutation: str) -> None:
    check, change = MUTATIONS[mutation]
    out = tmp_path / "out"
    shutil.copytree(report, out)
    change(out)
    assert check in _disagreeing(out)


@pytest.mark.parametrize(("text", "part", "whole", "ok"), [
    ("0 %", 0, 7, True), ("100 %", 7, 7, True), ("n/a", 0, 0, True), ("33.3 %", 1, 3, True),
    ("<0.1 %", 1, 2001, True), ("0.0 %", 1, 2001, False), (">99.9 %", 9995, 10000, True),
    ("100.0 %", 9995, 10000, False), ("33.4 %", 1, 3, False), ("0.2 %", 1, 400, True), ("0.3 %", 1, 400, True),
])
def test_percentages_as_documented(text: str, part: int, whole: int, ok: bool) -> None:
    assert rc.percent_ok(text, part, whole) is ok


def test_a_folder_that_is_no_report_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", ["report_checks", str(tmp_path / "nothing")])
    assert rc.main() == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "is missing" in err


def test_all_of_leaves_a_licence_with_its_exception_bare() -> None:
    # WITH binds tighter than AND: the BOM writes poetry-core 1.9.1's vendored lark as
    # "GPL-2.0-or-later WITH Bootloader-exception AND MIT AND MPL-2.0" (was a disagreement)
    assert rc.all_of({"MIT", "GPL-2.0-or-later WITH Bootloader-exception"}) == [
        "GPL-2.0-or-later WITH Bootloader-exception AND MIT"]
    assert rc.all_of({"MIT", "Apache-2.0 OR BSD-3-Clause"}) == ["(Apache-2.0 OR BSD-3-Clause) AND MIT"]
    assert rc.all_of({"Apache-2.0 OR MIT"}) == ["Apache-2.0 OR MIT"]
    assert rc.all_of(set()) == []


def test_a_marker_cut_on_a_space_is_shown_without_it() -> None:
    marker = "Copyright 2021 Facebook AI Research (FAIR), Ross Wightman, The HuggingFace Inc. team. All rights"
    # the cut lands after "Inc. ": the cell holds "Inc.…" (a cut cell ends in "…")
    assert rc.shown_marker(marker) == marker[:79] + "…"
    assert rc.shown_marker("Adapted from x") == "Adapted from x"
    assert rc.md_cell(f" {md_text(marker, 80)} ") == rc.shown_marker(marker)


def test_a_copyright_line_is_counted_whole_not_as_part_of_a_longer_one() -> None:
    # vLLM 0.32.0 against transformers 5.16.1: summary.md said "Copyright 2022 The HuggingFace Inc.
    # team." was not kept in 4 pairs; a substring count added the pair missing the same line with
    # "All rights reserved." and read 5 (a false disagreement)
    cell = ("Copyright 2022 The HuggingFace Inc. team. All rights reserved.; "
            "Copyright (c) 2001 Python Software Foundation; All Rights Reserved")
    assert rc.copyright_lines(cell) == ["Copyright 2022 The HuggingFace Inc. team. All rights reserved.",
                                        "Copyright (c) 2001 Python Software Foundation; All Rights Reserved"]
    assert "Copyright 2022 The HuggingFace Inc. team." not in rc.copyright_lines(cell)
    assert rc.copyright_lines("") == []
