"""The SBOM attachments claim descent only from an upstream the report finds code copied from.

sentry-sdk 2.19 against Werkzeug 3.1.3: its `_werkzeug.py` names Werkzeug 0.14.1 and 1.0.1, whose
code 3.1.3 no longer holds; the report found 0 copied lines, yet lineage.spdx.json said the
target was ``DESCENDANT_OF`` werkzeug ("holds code copied from werkzeug") and lineage.cdx.json
listed it among the ``pedigree.ancestors`` ("upstreams the target holds copied code from").
"""

from __future__ import annotations

import json
from pathlib import Path

import treegen
from conftest import script_module
from cyclonedx.schema import SchemaVersion
from cyclonedx.validation.json import JsonStrictValidator
from spdx_tools.spdx.parser.parse_anything import parse_file
from spdx_tools.spdx.validation.document_validator import validate_full_spdx_document

_body = treegen.distinctive_functions
_MIT = "# SPDX-License-Identifier: MIT\n"


def _descent(out: Path) -> tuple[list[str], list[str], list[str]]:
    """The SPDX packages, the packages the target is ``DESCENDANT_OF``, and the CycloneDX ancestors."""
    spdx = json.loads((out / "lineage.spdx.json").read_text(encoding="utf-8"))
    names = {p["SPDXID"]: p["name"] for p in spdx["packages"]}
    descends = [names[r["relatedSpdxElement"]] for r in spdx["relationships"]
                if r["relationshipType"] == "DESCENDANT_OF" and r["spdxElementId"] == "SPDXRef-Package-target"]
    bom = json.loads((out / "lineage.cdx.json").read_text(encoding="utf-8"))
    ancestors = bom["metadata"]["component"].get("pedigree", {}).get("ancestors", [])
    return sorted(names.values()), descends, [a["name"] for a in ancestors]


def _valid(out: Path) -> None:
    assert validate_full_spdx_document(parse_file(str(out / "lineage.spdx.json")), "SPDX-2.3") == []
    text = (out / "lineage.cdx.json").read_text(encoding="utf-8")
    assert JsonStrictValidator(SchemaVersion.V1_6).validate_str(text) is None
    checks = script_module("report_checks")
    assert {c.name: c.bad for c in checks.check_report(out) if c.bad} == {}


def test_an_upstream_nothing_was_copied_from_is_no_ancestor(run_compare, tmp_path: Path) -> None:
    target = {"tgt/copied.py": _MIT + _body(1), "tgt/own.py": "def alone(q):\n    return q * 17 - 3\n"}
    comparison = run_compare(target, [("donor", {"donor/mod.py": _MIT + _body(1)}),
                                      ("stranger", {"stranger/other.py": _MIT + _body(2)})])
    out = tmp_path / "report"
    comparison.write(out, html=False)
    packages, descends, ancestors = _descent(out)
    # both are described as packages compared; only the one copied from is an ancestor
    assert [p for p in packages if p != "target"] == ["donor", "stranger"]
    assert descends == ["donor"]
    assert ancestors == ["donor"]
    _valid(out)


def test_no_copied_code_no_ancestor(run_compare, tmp_path: Path) -> None:
    comparison = run_compare({"tgt/own.py": "def alone(q):\n    return q * 17 - 3\n"},
                             [("stranger", {"stranger/other.py": _MIT + _body(2)})])
    out = tmp_path / "report"
    comparison.write(out, html=False)
    _, descends, ancestors = _descent(out)
    assert descends == [] and ancestors == []
    _valid(out)
