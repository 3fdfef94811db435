"""A licence of the classifiers' choice that neither the METADATA ``License`` text nor the root
licence files name is left out of the choice (lineage.licences.declared._unsupported), unless
nothing else is named or a root licence file was not read. Invented metadata and trees."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen
from test_licence_choice import APACHE, APACHE_CLASSIFIER, BSD2, BSD_CLASSIFIER, TARGET_MIT, _declared
from test_licences import HEADERS, _text

from lineage.licences.declared import _field_names_family
from lineage.report.obligations import obligations_markdown

_body = treegen.distinctive_functions

MIT_CLASSIFIER = "Classifier: License :: OSI Approved :: MIT License\n"
MPL_CLASSIFIER = "Classifier: License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)\n"
PD_CLASSIFIER = "Classifier: License :: Public Domain\n"
MIT = "Copyright (c) 2024 Upstream Authors\n" + _text(HEADERS["MIT"])
LEFT_OUT = "METADATA classifiers; Apache-2.0 left out: neither the License field nor the licence files name it"


@pytest.mark.parametrize(("headers", "files", "declared", "found_from"), [
    # a stale classifier: the License field names BSD and public domain, the licence file BSD-2-Clause
    ("License: BSD, Public Domain\n" + BSD_CLASSIFIER + APACHE_CLASSIFIER + PD_CLASSIFIER,
     {"LICENSE.rst": BSD2}, "BSD-2-Clause", LEFT_OUT),
    # no License field: the licence files alone name MIT
    (APACHE_CLASSIFIER + MIT_CLASSIFIER, {"LICENSE": MIT}, "MIT", LEFT_OUT),
    # the License field names both, by family and version in its own spelling; no licence files
    ("License: MPLv2.0, MIT Licences\n" + MPL_CLASSIFIER + MIT_CLASSIFIER, {}, "MIT OR MPL-2.0",
     "METADATA classifiers"),
    # the licence files name both
    (APACHE_CLASSIFIER + MIT_CLASSIFIER, {"LICENSE.APACHE": APACHE, "LICENSE.MIT": MIT}, "Apache-2.0 OR MIT",
     "METADATA classifiers"),
    # one named by the License field, the other by a licence file
    ("License: Apache 2\n" + APACHE_CLASSIFIER + MIT_CLASSIFIER, {"LICENSE": MIT}, "Apache-2.0 OR MIT",
     "METADATA classifiers"),
    # no licence files and no License field: nothing to weigh the classifiers against, all kept
    (APACHE_CLASSIFIER + MIT_CLASSIFIER, {}, "Apache-2.0 OR MIT", "METADATA classifiers"),
    # neither named: leaving both out would leave nothing
    ("License: see the project's site\n" + APACHE_CLASSIFIER + MIT_CLASSIFIER, {}, "Apache-2.0 OR MIT",
     "METADATA classifiers"),
    # a root licence file our rules do not read may be the one naming the other licence
    (APACHE_CLASSIFIER + MIT_CLASSIFIER, {"LICENSE": MIT, "LICENSE.other": "Our own terms: be kind.\n"},
     "Apache-2.0 OR MIT", "METADATA classifiers"),
    # one classifier is no choice: it stays what the classifier says
    (APACHE_CLASSIFIER, {"LICENSE": MIT}, "Apache-2.0", "METADATA classifiers"),
])
def test_a_classifier_licence_nothing_else_names_is_left_out(tmp_path: Path, headers: str, files: dict[str, str],
                                                            declared: str, found_from: str) -> None:
    assert _declared(tmp_path, headers, files) == (declared, found_from)


@pytest.mark.parametrize(("text", "family", "named"), [
    ("Apache 2", "apache", True),
    ("MPLv2.0, MIT Licences", "mpl", True),
    ("Expat license", "mit", True),
    ("GNU AGPLv3+", "agpl", True),
    ("GNU Lesser General Public License", "lgpl", True),
    ("GNU AGPLv3+", "gpl", False),  # inside another family's name
    ("LGPL", "gpl", False),
    ("submitted to the board", "mit", False),
    ("BSD, Public Domain", "apache", False),
])
def test_the_license_field_names_a_family(text: str, family: str, named: bool) -> None:
    assert _field_names_family(text, family) is named


def test_a_comparison_offers_no_licence_nothing_names(run_compare) -> None:
    info = ("Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: BSD, Public Domain\n"
            + BSD_CLASSIFIER + APACHE_CLASSIFIER + PD_CLASSIFIER)
    upstream = {"up/mod.py": _body(1), "PKG-INFO": info, "LICENSE.rst": BSD2}
    comparison = run_compare({"tgt/bare.py": _body(1), TARGET_MIT[0]: TARGET_MIT[1]}, [("up", upstream)])
    row = comparison.obligations.iloc[0]
    assert (row["upstream_licence"], row["upstream_licence_from"]) == ("BSD-2-Clause", "declared")
    summary = "\n".join(obligations_markdown(comparison))
    assert "left out: neither the License field nor the licence files name it" in summary
    assert "A choice" not in summary


ZPL_CLASSIFIER = "Classifier: License :: OSI Approved :: Zope Public License\n"
PSF_CLASSIFIER = "Classifier: License :: OSI Approved :: Python Software Foundation License\n"
ZPL_LEFT_OUT = ('METADATA classifiers; the classifier "Zope Public License" left out: it names no one SPDX '
                "licence, as a version is missing or lineage does not read that licence")


@pytest.mark.parametrize(("headers", "declared", "found_from"), [
    # setuptools 0.6c11's metadata: a License field the rules cannot read, PSF or a ZPL of no version
    ("License: PSF or ZPL\n" + PSF_CLASSIFIER + ZPL_CLASSIFIER, "PSF-2.0", ZPL_LEFT_OUT),
    # two such classifiers, said together; the bare category names no licence and is not said
    (MIT_CLASSIFIER + ZPL_CLASSIFIER
     + "Classifier: License :: Other/Proprietary License\nClassifier: License :: OSI Approved\n", "MIT",
     'METADATA classifiers; the classifiers "Zope Public License", "Other/Proprietary License" left out: they '
     "name no one SPDX licence, as a version is missing or lineage does not read that licence"),
    # every licence classifier read: nothing to say
    (PSF_CLASSIFIER + MIT_CLASSIFIER, "MIT OR PSF-2.0", "METADATA classifiers"),
])
def test_a_classifier_naming_no_one_licence_is_said_not_dropped(tmp_path: Path, headers: str, declared: str,
                                                               found_from: str) -> None:
    """A classifier of the choice no SPDX id can be written for is left out of the expression,
    and declared_from (summary.md's licence line) says so."""
    assert _declared(tmp_path, headers, {}) == (declared, found_from)
