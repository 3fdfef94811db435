"""An upstream file that is another project's code the upstream carries (origin ``third_party``:
wheel 0.43's ``wheel/vendored/packaging/``, pinned by its ``vendor.txt``) is not under the
upstream's declared licence nor held by its holders: obligations.csv says whose code it is and
that its licence is unknown here, or takes it from that project's release when the run has it as
another upstream (setuptools 75.1 against wheel 0.43 read wheel's MIT for packaging's files)."""

from __future__ import annotations

import treegen

from lineage.report.obligations import attribution_markdown, obligations_markdown

_body = treegen.distinctive_functions
_MIT = ("Permission is hereby granted, free of charge, to any person obtaining a copy of this software and "
        "associated documentation files (the \"Software\"), to deal in the Software without restriction.\n"
        "The above copyright notice and this permission notice shall be included in all copies or substantial "
        "portions of the Software.\n")
_WHL = {"PKG-INFO": "Metadata-Version: 2.1\nName: whl\nVersion: 1.0\nLicense: MIT\n",
        "LICENSE": "MIT License\n\nCopyright (c) 2012 Wheel Q. Person\n\n" + _MIT,
        "whl/__init__.py": "", "whl/cli.py": _body(1),
        "whl/vendored/__init__.py": "", "whl/vendored/vendor.txt": "othlib==1.0\n",
        "whl/vendored/othlib/__init__.py": "", "whl/vendored/othlib/core.py": _body(2) + _body(3)}
_TARGET = {"pyproject.toml": '[project]\nname = "tgt"\nlicense = "MIT"\n', "tgt/__init__.py": "",
           "tgt/_vendor/vendor.txt": "whl==1.0\n", "tgt/_vendor/whl/__init__.py": "",
           "tgt/_vendor/whl/cli.py": _body(1), "tgt/_vendor/whl/vendored/__init__.py": "",
           "tgt/_vendor/whl/vendored/othlib/__init__.py": "",
           "tgt/_vendor/whl/vendored/othlib/core.py": _body(2) + _body(3)}


def _row(comparison, path: str):
    table = comparison.obligations
    return table[(table["target_path"] == path) & (table["upstream"] == "whl")].iloc[0]


def test_another_projects_file_is_not_under_the_upstreams_licence(run_compare) -> None:
    c = run_compare(_TARGET, [("whl", _WHL)])
    own, other = _row(c, "tgt/_vendor/whl/cli.py"), _row(c, "tgt/_vendor/whl/vendored/othlib/core.py")
    assert (own["upstream_licence"], own["upstream_licence_from"]) == ("MIT", "declared")
    assert "Wheel Q. Person" in own["upstream_copyrights"]
    assert (other["upstream_licence"], other["upstream_licence_from"]) == ("", "third party: othlib")
    assert (other["upstream_copyrights"], other["upstream_copyrights_from"]) == ("", "third party: othlib")
    # nothing can be said to be missing or in conflict under a licence that is not known
    assert (other["keeps_copyright"], other["modification_notice"], other["conflict"], other["missing"]) == (
        "n/a", "n/a", "unknown", "")
    summary = "\n".join(obligations_markdown(c))
    assert "1 pair's upstream file is another project's code it carries (othlib 1)" in summary
    assert "for 1 their licence is unknown here" in summary
    # the attribution draft does not say every copied file is under the upstream's licence
    attribution = attribution_markdown(c)
    assert ("Licence: `MIT`; copied files are under `MIT`. 1 of the rows below have a licence not known here "
            "(`?`); 1 of them are another project's code it carries (othlib)") in attribution
    assert "| `tgt/_vendor/whl/vendored/othlib/core.py` | `whl/vendored/othlib/core.py` |" in attribution


def test_the_projects_own_release_as_another_upstream_speaks_for_it(run_compare) -> None:
    # othlib 1.0 itself: the same functions as whl's copy but for one edited line, so the
    # target's copy (whl's, whole) is credited to whl's nearer copy
    oth = {"PKG-INFO": "Metadata-Version: 2.1\nName: othlib\nVersion: 1.0\nLicense: Apache-2.0\n",
           "LICENSE": "Copyright 2019 Oth Authors\n\nApache License\nVersion 2.0, January 2004\n",
           "othlib/__init__.py": "", "othlib/core.py": (_body(2) + _body(3)).replace("return", "return  0 +", 1)}
    c = run_compare(_TARGET, [("whl", _WHL), ("othlib", oth)])
    other = _row(c, "tgt/_vendor/whl/vendored/othlib/core.py")
    assert other["upstream_licence"] == "Apache-2.0"
    assert other["upstream_licence_from"] == "third party: othlib (declared by upstream othlib)"
    assert "Oth Authors" in other["upstream_copyrights"] and "Wheel" not in other["upstream_copyrights"]
    assert other["upstream_copyrights_from"] == "third party: othlib (licence files of upstream othlib)"
    assert "another upstream of this run" in "\n".join(obligations_markdown(c))


def test_a_file_its_header_says_was_adapted_from_another_project_stays_under_the_upstreams(run_compare) -> None:
    # another project's code by its header, not by its place: the upstream's adaptation, under
    # the upstream's licence (vLLM's mimo_audio.py, "Ported from SGLang's mimo_audio.py", whose
    # header names MiMo-Audio-Tokenizer, read "third party: MiMo-Audio-Tokenizer", licence unknown)
    adapted = "# Adapted from https://github.com/othorg/othlib/blob/main/othlib/core.py\n" + _body(4) + _body(5)
    up = {**_WHL, "whl/adapted.py": adapted}
    target = {**_TARGET, "tgt/_vendor/whl/adapted.py": adapted}
    c = run_compare(target, [("whl", up)])
    origin = c.origins.set_index("upstream_path").loc["whl/adapted.py"]
    assert origin["origin"] == "third_party" and origin["line"] == 1  # so the rule is tried here
    row = _row(c, "tgt/_vendor/whl/adapted.py")
    assert (row["upstream_licence"], row["upstream_licence_from"]) == ("MIT", "declared")
    assert "Wheel Q. Person" in row["upstream_copyrights"]
