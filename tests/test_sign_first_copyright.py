"""A copyright line that opens with the sign and the holder, its years or licence after ("(c) Holger
Krekel and others, 2004-2014", py 1.11.0's ``py/__init__.py``; "(C) Ronny Pfannschmidt, Holger Krekel
-- MIT licensed", iniconfig 1.0.0's module), is read as one, naming its holder; an author both
projects declare who holds the upstream's copyright only jointly does not mark the target's own
files naming that author (py 1.8.1 against iniconfig 1.0.0); a top-level package's ``__init__.py``
naming the release's one holder speaks for its silent files (pytest 8.3.3 against py 1.11.0).
Invented names."""

from __future__ import annotations

import pytest
import treegen

from lineage.licences.notices import holder, without_licence_clause
from lineage.markers.attribution import is_copyright
from lineage.match.holders import joint_holder_name, stated_persons

_body = treegen.distinctive_functions


@pytest.mark.parametrize("line", [
    "(c) Ada Quill and others, 2004-2014",
    "(C) Ada Quill, Bo Tern -- MIT licensed",
    "© Quillwort Labs 2019",
    "(c) Ada Quill, released under the MIT License.",
    # the forms read before, unchanged
    "(c) 2020 by the authors", "© 2021 The Authors", "(C) Copyright 2019 Quillwort Labs",
])
def test_the_sign_then_a_holder_then_years_or_licence_is_a_copyright_line(line: str) -> None:
    assert is_copyright(line)


@pytest.mark.parametrize("line", [
    "(c) the value of the scale, 2020",  # no proper noun: an enumeration's item
    "(c) Ada Quill",  # neither years nor a licence after the name
    "(c) Ada Quill wrote the parser in 2004 and more",  # the years do not end the line
    "(c) holger at example eu. 2009",  # lower case throughout
    "© COPYRIGHT SIGN",  # a character table's comment
])
def test_other_sign_first_text_is_no_copyright_line(line: str) -> None:
    assert not is_copyright(line)


def test_the_holder_is_read_without_years_and_licence_clause() -> None:
    assert holder("(c) Ada Quill and others, 2004-2014") == "ada quill and others"
    assert holder("(C) Ada Quill, Bo Tern -- MIT licensed") == "ada quill bo tern"
    assert without_licence_clause("(C) Ada Quill, Bo Tern -- MIT licensed") == "(C) Ada Quill, Bo Tern"
    assert without_licence_clause("Copyright 2009 Cy Upstream, released under the MIT License.") == (
        "Copyright 2009 Cy Upstream")
    assert without_licence_clause("Copyright 2020 Ada Quill") == "Copyright 2020 Ada Quill"
    assert joint_holder_name("(C) Ada Quill, Bo Tern -- MIT licensed") == "Ada Quill, Bo Tern"
    assert stated_persons("(C) Ada Quill, Bo Tern -- MIT licensed") == {"ada quill", "bo tern"}
    assert stated_persons("(c) Ada Quill and others, 2004-2014") == {"ada quill"}
    assert stated_persons("Copyright (c) 2006, Ada Quill") == {"ada quill"}


_META = "Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\nAuthor: Ada Quill, Bo Tern\nLicense: MIT\n"


def _pair() -> tuple[dict[str, str], dict[str, str]]:
    """py 1.8.1 against iniconfig 1.0.0 in small: both name Ada Quill and Bo Tern as authors; the
    upstream's one module says "(C) Ada Quill, Bo Tern -- MIT licensed"; the target carries a copy
    of it keeping that line, and its own package's files say "(c) Ada Quill and others" over code
    that shares lines with the upstream's."""
    module = _body(1) + _body(2)
    upstream = {"PKG-INFO": _META.format(name="rill"),
                "rill.py": f'"""\n(C) Ada Quill, Bo Tern -- MIT licensed\n"""\n{module}'}
    target = {"PKG-INFO": _META.format(name="brook"),
              "brook/__init__.py": f'"""\n(c) Ada Quill and others, 2004-2014\n"""\n{_body(1)}',
              "brook/helpers.py": f"# (c) Ada Quill and others, 2004-2014\n{_body(2)}",
              "brook/copied.py": f'"""\n(C) Ada Quill, Bo Tern -- MIT licensed\n"""\n{module}'}
    return target, upstream


def test_a_joint_holders_author_marks_only_a_line_naming_the_joint_holder(run_compare) -> None:  # type: ignore[no-untyped-def]
    target, upstream = _pair()
    result = run_compare(target, [("rill", upstream)])
    files = result.files.set_index("target_path")
    # the copy keeping the joint line whole is marked by it
    assert files.loc["brook/copied.py", "marker_kind"] == "copyright"
    assert files.loc["brook/helpers.py", "verbatim_code_lines"] > 0
    assert files.loc["brook/__init__.py", "verbatim_code_lines"] > 0
    # the target's own "(c) Ada Quill and others" is its notice, not a credit for the upstream
    assert files.loc["brook/helpers.py", "marker_kind"] == ""
    assert files.loc["brook/__init__.py", "marker_kind"] == ""
    rows = result.obligations.set_index("target_path")
    assert rows.loc["brook/copied.py", "upstream_copyrights"] == "(C) Ada Quill, Bo Tern -- MIT licensed"
    assert rows.loc["brook/copied.py", "keeps_copyright"] == "yes"


_MIT = "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: MIT\n"


@pytest.mark.parametrize(("where", "expected"), [
    ("up/__init__.py", "(c) Ada Quill and others, 2004-2014"),  # the top package's own statement
    ("up/sub/__init__.py", ""),  # a sub-package's: one file alone, as before
    ("up/said.py", ""),
])
def test_a_top_packages_init_names_the_releases_holder_alone(run_compare, where: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    up = {"PKG-INFO": _MIT, "up/__init__.py": "", "up/sub/__init__.py": "", "up/silent.py": _body(1),
          where: f'"""\n(c) Ada Quill and others, 2004-2014\n"""\n{_body(3)}'}
    target = {"tgt/silent.py": _body(1), "pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n'}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/silent.py"]
    assert (row["upstream_copyrights"], row["upstream_copyrights_from"]) == (
        (expected, "release notices") if expected else ("", ""))
    assert row["keeps_copyright"] == ("no" if expected else "n/a")
