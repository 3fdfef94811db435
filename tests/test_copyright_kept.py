"""Where a target keeps an upstream's copyright holders: a holder's tail that names nobody more,
and holders kept partly by the file and partly by its licence files (libcst 1.5.0 against parso
0.8.4, with invented names)."""

from __future__ import annotations

import treegen

from lineage.licences.licence_file import LicenceFile
from lineage.licences.notices import holder, keeps_holders, named_holder
from lineage.results.obligations import _copyright_kept_in, _copyrights_not_kept

_UP = ("Copyright (c) <2013-2017> <Ada Sedge and others, see AUTHORS.txt>",
       "Copyright (c) 2001, 2002 Widget Software Foundation; All Rights Reserved")
_FILE = ("Copyright 2004-2005 Sprocket Security, Inc. All Rights Reserved.",
         "Copyright Ada Sedge and Contributors")


def test_a_tail_naming_nobody_more_leaves_the_named_holder() -> None:
    assert named_holder("ada sedge and others see authors.txt") == "ada sedge"
    assert named_holder("ada sedge et al.") == "ada sedge"
    assert named_holder("ada sedge and the other contributors") == "ada sedge"
    assert named_holder("django software foundation and individual contributors") == "django software foundation"
    assert named_holder("the authors") == "the authors"
    assert named_holder("ada sedge and bo tern") == "ada sedge and bo tern"


def test_and_others_is_kept_by_the_named_holder_and_contributors() -> None:
    assert keeps_holders(_UP[:1], _FILE)
    # the tail names nobody, but a named second party still has to be kept
    assert not keeps_holders(["Copyright 2020 Ada Sedge and Bo Tern"], _FILE)
    assert not keeps_holders(_UP[:1], ["Copyright 2020 Bo Tern and others"])


def test_holders_kept_partly_by_the_file_and_partly_by_the_root_licence() -> None:
    root = LicenceFile(path="LICENSE", role="licence", folder="", sha256="", expression="MIT AND PSF-2.0",
                       copyrights=("Copyright (c) Gizmo Platforms, Inc. and affiliates.", _UP[1]))
    assert _copyright_kept_in(_UP, _FILE, [root]) == "file; root:LICENSE"
    assert _copyright_kept_in(_UP[1:], _FILE, [root]) == "root:LICENSE"
    assert _copyright_kept_in(_UP[:1], _FILE, [root]) == "file"
    # neither keeps the foundation: not kept
    assert _copyright_kept_in(_UP, _FILE, []) == ""
    other = LicenceFile(path="LICENSE", role="licence", folder="", sha256="", expression="MIT",
                        copyrights=("Copyright (c) Gizmo Platforms, Inc. and affiliates.",))
    assert _copyright_kept_in(_UP, _FILE, [other]) == ""


# itsdangerous 1.1.0's LICENSE.rst and 2.2.0's LICENSE.txt (round user144's item (2))
_OLD = ("Copyright © 2011 by the Pallets team.",
        "Copyright © Django Software Foundation and individual contributors.")
_NEW = LicenceFile(path="LICENSE.txt", role="licence", folder="", sha256="", expression="BSD-3-Clause",
                   copyrights=("Copyright 2011 Pallets",))


def test_a_holder_with_or_without_the_team_inc_contributors_or_by_is_one_holder() -> None:
    assert holder(_OLD[0]) == "the pallets team"  # "by" is no part of the name
    assert holder("Copyright (c) by Pallets") == "pallets"
    assert holder("Copyright 2011 Bysshe Shelley") == "bysshe shelley"  # a name starting "By" stays whole
    for a, b in [(_OLD[0], "Copyright 2011 Pallets"), ("Copyright (c) by Pallets", "Copyright The Pallets Team"),
                 ("Copyright Pallets Inc.", "Copyright 2020 the Pallets contributors")]:
        assert keeps_holders([a], [b]) and keeps_holders([b], [a]), (a, b)
    assert not keeps_holders(_OLD[1:], ["Copyright 2011 Pallets"])
    assert keeps_holders(_OLD[1:], ["Copyright (c) Django Software Foundation"])  # nobody more named


def test_the_copyright_lines_not_kept_are_named() -> None:
    # the file keeps no holder, its root licence the Pallets team's: the DSF's line is the one missing
    assert _copyright_kept_in(_OLD, (), [_NEW]) == ""
    assert _copyrights_not_kept(_OLD, (), [_NEW]) == _OLD[1:]
    assert _copyrights_not_kept(_OLD, (), []) == _OLD
    # the file and its licence file each keep one part of the joint holder line: none missing there
    assert _copyrights_not_kept(_UP, _FILE, []) == _UP[1:]
    # a licence file's retained notices keep too
    appended = LicenceFile(path="LICENSE.txt", role="licence", folder="", sha256="", expression="BSD-3-Clause",
                           copyrights=("Copyright 2011 Pallets",), retained_copyrights=_OLD[1:])
    assert _copyright_kept_in(_OLD, (), [appended]) == "root:LICENSE.txt"
    # kept only across places the rule does not join (package string and licence file): the
    # lines the file itself does not name, so a "no" never stands beside an empty cell
    package = (("Copyright Django Software Foundation",), "itsdangerous/__init__.py")
    assert _copyright_kept_in(_OLD, (), [_NEW], package) == ""
    assert _copyrights_not_kept(_OLD, (), [_NEW], package) == _OLD


_BSD = ("All rights reserved.\n\nRedistribution and use in source and binary forms, with or without\n"
        "modification, are permitted provided that the following conditions are met:\n\n"
        "THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ... EVEN IF ADVISED OF THE\n"
        "POSSIBILITY OF SUCH DAMAGE.\n")
_TEAM, _FOUNDATION = ("Copyright 2011 by the Quillwort team.",
                      "Copyright Sedge Foundation and individual contributors.")


def test_obligations_and_summary_name_the_holder_not_kept(run_compare) -> None:
    """itsdangerous 2.2.0 against 1.1.0, with invented names: the upstream's licence names a team
    and a foundation, the target's the team by its short name; every pair misses ``copyright``,
    and ``copyrights_missing``, summary.md and the file page say it is the foundation's line."""
    from lineage.report.html import _obligations_by_file, _obligations_note
    from lineage.report.obligations import obligations_markdown

    body = treegen.distinctive_functions
    upstream = {"upcore/a.py": body(1), "upcore/b.py": body(2), "LICENSE": f"{_TEAM}\n{_FOUNDATION}\n\n{_BSD}"}
    target = {"tgt/a.py": body(1), "tgt/b.py": body(2), "tgt/own.py": f"# {_FOUNDATION}\n" + body(2),
              "LICENSE": f"Copyright 2011 Quillwort\n\n{_BSD}"}
    comparison = run_compare(target, [("up", upstream)])
    ob = comparison.obligations.set_index(["target_path", "upstream_path"])
    assert set(ob["upstream_copyrights"]) == {f"{_TEAM}; {_FOUNDATION}"}
    assert ob.loc[("tgt/a.py", "upcore/a.py"), "keeps_copyright"] == "no"
    assert ob.loc[("tgt/a.py", "upcore/a.py"), "copyrights_missing"] == _FOUNDATION
    assert ob.loc[("tgt/b.py", "upcore/b.py"), "copyrights_missing"] == _FOUNDATION
    # kept (the file names the foundation, the root licence the team): nothing missing
    kept = ob.loc[("tgt/own.py", "upcore/b.py")]
    assert (kept["keeps_copyright"], kept["copyright_kept_in"], kept["copyrights_missing"]) == (
        "yes", "file; root:LICENSE", "")
    summary = "\n".join(obligations_markdown(comparison))
    assert (f'- copyright: 2 pairs; not kept (`copyrights_missing`): "{_FOUNDATION}" (2 pairs)'
            in summary.splitlines())
    note = _obligations_note(_obligations_by_file(comparison.obligations)["tgt/a.py"], several=False)
    assert f"not kept: {_FOUNDATION}" in note


def test_where_copyrights_are_kept_is_remembered_by_the_arguments_values() -> None:
    """``_kept`` (round speed171): one table's rows share a memo of where their copyright lines
    are kept; an answer is reused only for the same upstream lines, file lines, licence files and
    package string, and is what the two functions give without it."""
    from lineage.results.obligations import _kept

    root = LicenceFile(path="LICENSE", role="licence", folder="", sha256="", expression="MIT AND PSF-2.0",
                       copyrights=("Copyright (c) Gizmo Platforms, Inc. and affiliates.", _UP[1]))
    memo: dict[tuple[object, ...], tuple[str, tuple[str, ...]]] = {}
    assert _kept(_UP, _FILE, (root,), ((), ""), memo) == ("file; root:LICENSE", ()) == _kept(_UP, _FILE, (root,),
                                                                                              ((), ""), None)
    assert _kept(_UP, _FILE, (root,), ((), ""), memo) == ("file; root:LICENSE", ())  # from the memo
    # other file lines: the first holder is no longer kept, and the memo's answer is not given
    other = ("Copyright 2020 Bo Tern",)
    assert _kept(_UP, other, (root,), ((), ""), memo) == ("", _UP[:1]) == (
        _copyright_kept_in(_UP, other, [root]), _copyrights_not_kept(_UP, other, [root]))
    # another licence file (the same path, other holders): not the memo's answer either
    bare = LicenceFile(path="LICENSE", role="licence", folder="", sha256="", expression="MIT")
    assert _kept(_UP, _FILE, (bare,), ((), ""), memo) == ("", (_UP[1],)) == (
        _copyright_kept_in(_UP, _FILE, [bare]), _copyrights_not_kept(_UP, _FILE, [bare]))
    # the package's __copyright__ string keeps the second holder
    assert _kept(_UP[1:], (), (bare,), ((_UP[1],), "pkg/__init__.py"), memo) == ("package:pkg/__init__.py", ())
    assert len(memo) == 4


def test_a_line_stating_a_missing_lines_span_of_years_under_another_holder_replaces_it() -> None:
    """ssh 1.8.0 (paramiko renamed) writes "Copyright (C) 2006-2007 Jeff Forcier" where paramiko
    1.7.7.1's ``client.py`` reads "Copyright (C) 2006-2007 Robey Pointer" (invented names here): the
    upstream's years kept, its holder replaced. A line of the fork's own years is not one, nor a
    line naming the upstream's holder, nor anything when no line is missing."""
    from lineage.licences.notices import stated_years
    from lineage.results.obligations import replaced_holders

    old, new = "Copyright (C) 2003-2007 Ada Sedge <ada@example.org>", "Copyright (C) 2003 - 2007 Bo Tern"
    assert (stated_years(old), stated_years(new), stated_years("Copyright 2019, 2020 X"), stated_years("(c) X")) == (
        "2003-2007", "2003-2007", "2019,2020", "")
    assert replaced_holders([old], [new], [old]) == (new,)
    assert replaced_holders([old], ["Copyright (C) 2011 Bo Tern"], [old]) == ()  # the fork's own years
    assert replaced_holders([old], ["Copyright (C) 2003-2011 Bo Tern"], [old]) == ()  # not the same span
    assert replaced_holders([old], ["Copyright (C) 2003-2007 Ada Sedge"], [old]) == ()  # the upstream's holder
    assert replaced_holders([], [new], [old]) == ()  # nothing missing
    # one year alone is as often the year two projects each wrote their own line in
    up = "Copyright 2025 The Up team."
    assert replaced_holders([up], ["Copyright 2025 Fork Team"], [up]) == ()


_LGPL_HEAD = ("# {line}\n#\n# This file is part of {name}.\n#\n# {name} is free software; you can redistribute it "
              "and/or modify it under the\n# terms of the GNU Lesser General Public License as published by the Free\n"
              "# Software Foundation; either version 2.1 of the License, or (at your option)\n# any later version.\n\n")


def test_obligations_sarif_and_attribution_say_a_holder_was_replaced(run_compare) -> None:
    """A renamed fork whose files keep the upstream's LGPL notice and years under its own holder:
    obligations.csv's ``copyright_replaced_by`` names the fork's line, SARIF's missing-notice result
    says so, ATTRIBUTION.md lists it under the holders to credit, and so does the file page's
    obligations note; a file whose line states the fork's own years (2011) is only missing the
    upstream's line."""
    import json

    from lineage.report.html import _obligations_by_file, _obligations_note, esc
    from lineage.report.markdown import md_text
    from lineage.report.obligations import attribution_markdown
    from lineage.report.sarif import sarif_log

    body = treegen.distinctive_functions
    old, new = "Copyright (C) 2003-2007 Ada Sedge <ada@example.org>", "Copyright (C) 2003-2007 Bo Tern <bo@example.org>"
    own = "Copyright (C) 2011 Bo Tern <bo@example.org>"
    upstream = {"oldpkg/a.py": _LGPL_HEAD.format(line=old, name="oldpkg") + body(1),
                "oldpkg/b.py": _LGPL_HEAD.format(line=old, name="oldpkg") + body(2)}
    target = {"newpkg/a.py": _LGPL_HEAD.format(line=new, name="newpkg") + body(1),
              "newpkg/b.py": _LGPL_HEAD.format(line=own, name="newpkg") + body(2)}
    comparison = run_compare(target, [("up", upstream)])
    ob = comparison.obligations.set_index("target_path")
    assert list(ob["keeps_copyright"]) == ["no", "no"] and list(ob["copyrights_missing"]) == [old, old]
    assert ob.loc["newpkg/a.py", "copyright_replaced_by"] == new
    assert ob.loc["newpkg/b.py", "copyright_replaced_by"] == ""
    messages = [r["message"]["text"] for r in json.loads(json.dumps(sarif_log(comparison)))["runs"][0]["results"]
                if r["ruleId"] == "missing-notice" and "copyright line" in r["message"]["text"]]
    said = f"its line {new} states the years of the upstream's under another holder"
    assert sorted(said in m for m in messages) == [False, True]
    attribution = attribution_markdown(comparison)
    assert f'- "{md_text(new)}" (1 pair)' in attribution.splitlines()
    pages = _obligations_by_file(comparison.obligations)
    said = f"its years under another holder: {esc(new)}"
    assert said in _obligations_note(pages["newpkg/a.py"], several=False)
    assert "another holder" not in _obligations_note(pages["newpkg/b.py"], several=False)
    assert md_text(own) not in attribution
