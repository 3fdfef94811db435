"""A release whose metadata names only a licence family by classifier ("License :: OSI Approved ::
BSD License") and ships no licence file declares no licence lineage can read; the classifier is
kept as what its metadata says (``declared_raw``), so summary.md can say why the licence is
"unknown" (sphinxcontrib-applehelp 2.0.0), and it names the family a release licence read from
the files must belong to, as a ``License: BSD`` field does."""

from __future__ import annotations

import treegen

from lineage.report.obligations import obligations_markdown
from lineage.results.obligations import _names_family_only

_BSD = "License :: OSI Approved :: BSD License"


def test_a_family_classifier_alone_is_kept_and_said(run_compare) -> None:
    meta = f"Metadata-Version: 2.1\nName: tgt\nVersion: 1.0\nClassifier: {_BSD}\n"
    target = {"PKG-INFO": meta, "tgt/__init__.py": "", "tgt/a.py": treegen.distinctive_functions(1)}
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: MIT\n",
          "up/a.py": treegen.distinctive_functions(1)}
    c = run_compare(target, [("up", up)])
    assert (c.target.licence.declared, c.target.licence.declared_raw) == ("", _BSD)
    assert f"Target target: declared `unknown` (its metadata's `{_BSD}` names no one licence)." in \
        "\n".join(obligations_markdown(c))


def test_without_any_metadata_licence_the_summary_says_so(run_compare) -> None:
    target = {"PKG-INFO": "Metadata-Version: 2.1\nName: tgt\nVersion: 1.0\n", "tgt/a.py": treegen.distinctive_functions(1)}
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: up\nVersion: 1.0\nLicense: MIT\n",
          "up/a.py": treegen.distinctive_functions(1)}
    text = "\n".join(obligations_markdown(run_compare(target, [("up", up)])))
    assert "declared `unknown` (neither its metadata nor a root licence file names a licence lineage reads)." in text


def test_a_family_classifier_names_the_family_of_a_release_licence() -> None:
    assert _names_family_only(_BSD, "BSD-3-Clause")
    assert not _names_family_only(_BSD, "MIT")
    assert _names_family_only("", "MIT")  # names nothing: any one licence the files state
    assert _names_family_only("BSD", "BSD-2-Clause") and not _names_family_only("BSD", "MIT")
