"""A release whose metadata names only a licence family ("License :: OSI Approved :: BSD License",
``License: UNKNOWN``) and which ships no licence file reads `unknown`, rightly: the family never
says which licence (2- or 3-clause). summary.md now says why, naming the classifier (click 6.7's
wheel read only "declared `unknown`", though PyPI shows it as BSD).

Every file here is written for the test; no package's own files."""

from __future__ import annotations

from pathlib import Path

import treegen
from test_licences import HEADERS

from lineage.licences import read_source_licence
from lineage.report.obligations import obligations_markdown
from lineage.sources import open_source

BSD_FAMILY = "License :: OSI Approved :: BSD License"
_body = treegen.distinctive_functions


def _metadata(name: str, headers: str) -> str:
    return f"Metadata-Version: 2.0\nName: {name}\nVersion: 1.0\nLicense: UNKNOWN\n{headers}"


def _read(tmp_path: Path, headers: str, files: dict[str, str]) -> tuple[str, tuple[str, ...]]:
    wheel = treegen.write_wheel(tmp_path, _metadata("pkg", headers), files)
    with open_source(str(wheel)) as source:
        lic = read_source_licence(source)
    return lic.declared, lic.family_classifiers


def test_a_family_classifier_alone_is_kept_as_written(tmp_path: Path) -> None:
    assert _read(tmp_path, f"Classifier: {BSD_FAMILY}\n", {}) == ("", (BSD_FAMILY,))


def test_no_family_classifier_none_kept(tmp_path: Path) -> None:
    assert _read(tmp_path, "Classifier: Programming Language :: Python\n", {}) == ("", ())


def _trees(upstream_headers: str) -> tuple[dict[str, str], dict[str, str]]:
    upstream = {"pkg/mod.py": _body(1), "pkg-1.0.dist-info/METADATA": _metadata("pkg", upstream_headers)}
    target = {"pkg/mod.py": _body(1).replace("return", "return  ", 1),
              "other-2.0.dist-info/METADATA": _metadata("other", "License: MIT\n").replace("License: UNKNOWN\n", "")}
    return target, upstream


def test_the_summary_says_why_a_family_alone_reads_unknown(run_compare) -> None:
    target, upstream = _trees(f"Classifier: {BSD_FAMILY}\n")
    summary = "\n".join(obligations_markdown(run_compare(target, [("pkg", upstream)])))
    line = next(x for x in summary.splitlines() if x.startswith("Upstream pkg:"))
    assert line.startswith("Upstream pkg: declared `unknown`.")
    assert f"classifier `{BSD_FAMILY}` names a licence family, not which licence of it" in line
    target_line = next(x for x in summary.splitlines() if x.startswith("Target "))
    assert "licence family" not in target_line


def test_a_licence_file_that_decides_leaves_no_sentence(run_compare) -> None:
    # the release's BSD text names one licence of the family: declared, nothing to explain
    target, upstream = _trees(f"Classifier: {BSD_FAMILY}\n")
    upstream["LICENSE"] = HEADERS["BSD-3-Clause"]
    summary = "\n".join(obligations_markdown(run_compare(target, [("pkg", upstream)])))
    line = next(x for x in summary.splitlines() if x.startswith("Upstream pkg:"))
    assert "`unknown`" not in line and "licence family" not in line


def test_a_license_field_naming_the_family_is_quoted_too(run_compare) -> None:
    # pyasn1 0.1.9's wheel: "License: BSD" and the BSD classifier, no licence file; the sentence
    # named the classifier only, as though the field had not been read
    target, upstream = _trees(f"Classifier: {BSD_FAMILY}\n")
    meta = "pkg-1.0.dist-info/METADATA"
    upstream[meta] = upstream[meta].replace("License: UNKNOWN", "License: BSD")
    summary = "\n".join(obligations_markdown(run_compare(target, [("pkg", upstream)])))
    line = next(x for x in summary.splitlines() if x.startswith("Upstream pkg:"))
    assert line.startswith("Upstream pkg: declared `unknown`. Its metadata's License field reads `BSD`; its "
                           f"classifier `{BSD_FAMILY}` names a licence family")
