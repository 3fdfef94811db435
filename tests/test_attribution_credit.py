"""ATTRIBUTION.md credits a copyright stated as a docstring field (":copyright: (c) 2014 by Armin
Ronacher.", click 6.7's modules, kept as "copyright: ..." by the marker reader) as the statement
it stands for, not with the field's label (user98's leftover)."""

from __future__ import annotations

import pytest
import treegen

from lineage.markers.attribution import field_statement
from lineage.report.obligations import attribution_markdown


@pytest.mark.parametrize(("line", "credited"), [
    ("copyright: (c) 2014 by Ada Quill.", "Copyright (c) 2014 by Ada Quill."),
    (":copyright: Copyright 2007 by the Quill team.", "Copyright 2007 by the Quill team."),
    ("Copyright: © 2020 Ada Quill", "© 2020 Ada Quill"),
    ("Copyright (c) 2014 Ada Quill", "Copyright (c) 2014 Ada Quill"),  # no label: as written
])
def test_a_field_label_is_read_as_the_statement(line: str, credited: str) -> None:
    assert field_statement(line, any_case=True) == credited


def test_the_draft_credits_a_docstring_field_once(run_compare) -> None:
    head = '"""Quill tools.\n\n:copyright: (c) 2014 by Ada Quill.\n:license: BSD, see LICENSE for more details.\n"""\n'
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: BSD\n",
          "up/a.py": head + treegen.distinctive_functions(1), "up/b.py": head + treegen.distinctive_functions(2)}
    target = {"pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n',
              "tgt/a.py": treegen.distinctive_functions(1), "tgt/b.py": treegen.distinctive_functions(2)}
    text = attribution_markdown(run_compare(target, [("up", up)]))
    assert "Copyright holders to credit:\n\n- Copyright (c) 2014 by Ada Quill.\n" in text
