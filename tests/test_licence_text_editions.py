"""A GNU licence's text is one for "version N only" and "version N or any later version": a root
licence file holding the LGPL 3.0 text (read LGPL-3.0-only from its title) keeps the licence notice
of code under LGPL-3.0-or-later (fpdf2 2.8.1's LICENSE and PyFPDF's "LGPLv3+"), and the other way
round; a file's own notice still names the edition it chooses. Invented names."""

from __future__ import annotations

import treegen

from lineage.results.obligations import text_editions

_body = treegen.distinctive_functions
LGPL3_TEXT = ("                   GNU LESSER GENERAL PUBLIC LICENSE\n"
              "                       Version 3, 29 June 2007\n\n"
              " Copyright (C) 2007 Free Software Foundation, Inc. <https://fsf.org/>\n")


def test_each_gnu_id_brings_its_other_edition() -> None:
    assert text_editions(["LGPL-3.0-only"]) == {"LGPL-3.0-only", "LGPL-3.0-or-later"}
    assert text_editions(["GPL-2.0-or-later", "MIT"]) == {"GPL-2.0-or-later", "GPL-2.0-only", "MIT"}
    assert text_editions(["Apache-2.0"]) == {"Apache-2.0"}
    assert text_editions([]) == set()


def test_the_lgpl_text_keeps_the_notice_of_code_under_version_3_or_later(run_compare) -> None:
    upstream = {"sketchpdf/pages.py": _body(1),
                "pyproject.toml": '[project]\nname = "sketchpdf"\nlicense = "LGPL-3.0-or-later"\n'}
    target = {"tgt/pages.py": _body(1), "LICENSE": LGPL3_TEXT,
              "pyproject.toml": '[project]\nname = "tgt"\nlicense = "LGPL-3.0-or-later"\n'}
    row = run_compare(target, [("sketchpdf", upstream)]).obligations.set_index("target_path").loc["tgt/pages.py"]
    assert row["upstream_licence"] == "LGPL-3.0-or-later"
    assert row["keeps_licence_notice"] == "yes" and "licence-notice" not in row["missing"]
    # without the text nothing keeps it
    bare = {k: v for k, v in target.items() if k != "LICENSE"}
    row = run_compare(bare, [("sketchpdf", upstream)]).obligations.set_index("target_path").loc["tgt/pages.py"]
    assert row["keeps_licence_notice"] == "no"
