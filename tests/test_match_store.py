"""Tests for lineage.match.store: the match cache key covers the whole matcher code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import lineage.match
from lineage.match.store import FINGERPRINTED, code_files, code_fingerprint


def test_every_matcher_module_is_fingerprinted() -> None:
    files = set(code_files())
    package = Path(lineage.match.__file__).parent
    assert set(package.rglob("*.py")) <= files
    assert len([f for f in files if f.parent == package]) >= 7  # __init__, params, hits, ...
    assert "lineage.match" in FINGERPRINTED and "lineage.markers" in FINGERPRINTED


def test_a_new_or_changed_module_changes_the_fingerprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    pkg = tmp_path / "fakepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = code_fingerprint(("fakepkg",))
    (pkg / "added.py").write_text("y = 2\n")
    second = code_fingerprint(("fakepkg",))
    (pkg / "added.py").write_text("y = 3\n")
    third = code_fingerprint(("fakepkg",))
    assert len({first, second, third}) == 3
    sys.modules.pop("fakepkg", None)
