"""A module's own top-level ``__copyright__ = "Copyright ..."`` string is one of its copyright
lines (PyFPDF 1.7.2's ``template.py`` and ``html.py`` state their holder only so): a copy that
keeps the string keeps the holder, one that dropped it misses the copyright. Invented names."""

from __future__ import annotations

import numpy as np
import pytest
import treegen

from lineage.index import BLANK, CODE, DOCSTRING
from lineage.results.file_licences import file_licence

_body = treegen.distinctive_functions
HOLDER = "Copyright (C) 2010 Ada Sedge"
HEAD = (f'"""Page helpers for sketchpdf."""\n\n__author__ = "Ada Sedge"\n__copyright__ = "{HOLDER}"\n'
        '__license__ = "LGPL 3.0"\n\n')


def _licence(lines: list[str], kinds: list[int]) -> tuple[str, ...]:
    return file_licence(lines, np.array(kinds, dtype=np.uint8), (), 40).copyrights


def test_a_module_copyright_string_is_its_copyright_line() -> None:
    lines = ['"""Page helpers."""', "", f'__copyright__ = "{HOLDER}"', "", "def page():", "    return 1"]
    assert _licence(lines, [DOCSTRING, BLANK, CODE, BLANK, CODE, CODE]) == (HOLDER,)
    annotated = [f"__copyright__: str = '{HOLDER}'  # the holder"]
    assert _licence(annotated, [CODE]) == (HOLDER,)


@pytest.mark.parametrize(("line", "kind"), [
    ('__copyright__ = "2014 %s" % __author__', CODE),  # formatted: the holder is not in the literal
    ('__copyright__ = "Ada Sedge"', CODE),  # no copyright sign or word
    (f'    __copyright__ = "{HOLDER}"', CODE),  # not at the module's top level
    (f'__copyright__ = "{HOLDER}"', DOCSTRING),  # an example in a docstring, not code
])
def test_what_is_no_module_copyright(line: str, kind: int) -> None:
    assert _licence([line], [kind]) == ()


def test_past_the_head_lines_is_not_read() -> None:
    lines = ["x = 1"] * 40 + [f'__copyright__ = "{HOLDER}"']
    assert _licence(lines, [CODE] * 41) == ()


def test_a_copy_that_dropped_the_string_misses_the_holder(run_compare) -> None:
    upstream = {"sketchpdf/pages.py": HEAD + _body(1),
                "pyproject.toml": '[project]\nname = "sketchpdf"\nlicense = "LGPL-3.0-or-later"\n'}
    target = {"tgt/pages.py": _body(1), "tgt/kept.py": HEAD + _body(1),
              "pyproject.toml": '[project]\nname = "tgt"\nlicense = "LGPL-3.0-or-later"\n'}
    ob = run_compare(target, [("sketchpdf", upstream)]).obligations.set_index("target_path")
    dropped, kept = ob.loc["tgt/pages.py"], ob.loc["tgt/kept.py"]
    for row in (dropped, kept):
        assert (row["upstream_copyrights"], row["upstream_copyrights_from"]) == (HOLDER, "file")
    assert dropped["keeps_copyright"] == "no" and "copyright" in dropped["missing"]
    assert (kept["keeps_copyright"], kept["copyright_kept_in"]) == ("yes", "file")
