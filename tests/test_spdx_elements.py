"""Tests for lineage.report.elements as the SPDX writer uses it: a rerun that takes unchanged
target files' Files and Snippets (their values and spdx-tools' JSON of them) from the last run
writes the SPDX document of a run without any cache, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import lineage.report.elements as elements
import lineage.report.spdx as spdx
from lineage.api import compare
from lineage.errors import LineageError
from lineage.report.json_text import compact
from lineage.settings import RunSettings
from tests.test_lines_csv import _edit_in_place, _edit_upstream
from tests.test_table_reuse import EDITS, _reports, _run, _trees


@pytest.fixture(autouse=True)
def _fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.fixture()
def found(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per SPDX element looked up in a stored entry: whether it was there (the CycloneDX
    writer's remembered occurrences are another kind of entry)."""
    looked: list[bool] = []
    original = elements.ElementCache.get

    def counting(self: elements.ElementCache, key: str) -> Any:
        got = original(self, key)
        if self.kind == "spdx":
            looked.append(got is not None)
        return got

    monkeypatch.setattr(elements.ElementCache, "get", counting)
    return looked


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"elements-v{elements.ELEMENTS_VERSION}/spdx/*/*.rec"))


def _scenario(tmp_path: Path, found: list[bool]) -> list[tuple[str, bool, int]]:
    """Each edit, then a run through the caches and one without: (edit, every report file equal,
    elements taken from the entry)."""
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    assert found and not any(found) and len(_entries(cache)) == 1  # every element made, then stored
    out = []
    edits = [("in place", _edit_in_place), *((name, edit) for name, edit, _ in EDITS), ("upstream", _edit_upstream)]
    for number, (name, edit) in enumerate(edits):
        edit(target, upstream)
        found.clear()
        _run(target, upstream, tmp_path / f"warm{number}", cache)
        _run(target, upstream, tmp_path / f"plain{number}", tmp_path / f"none{number}", use_cache=False)
        warm, plain = _reports(tmp_path / f"warm{number}"), _reports(tmp_path / f"plain{number}")
        out.append((name, warm == plain, sum(found)))
    return out


def test_kept_elements_write_the_document_of_a_run_without_cache(tmp_path: Path, found: list[bool]) -> None:
    outcome = _scenario(tmp_path, found)
    assert all(equal for _, equal, _ in outcome), outcome
    taken = {name: n for name, _, n in outcome}
    assert taken["in place"] > 0 and taken["append"] > 0 and taken["header"] > 0  # unchanged files' elements
    assert taken["upstream"] == 0  # another context


@pytest.mark.parametrize("drop", [0, 2])  # number, digest
def test_a_key_without_one_of_its_parts_would_write_stale_elements(tmp_path: Path, found: list[bool],
                                                                  monkeypatch: pytest.MonkeyPatch, drop: int) -> None:
    """The scenario notices a key that lost one of these parts (so each is needed)."""
    def weaker(*parts: object) -> str:
        return elements.element_key(*(None if k == drop else p for k, p in enumerate(parts)))

    monkeypatch.setattr(spdx, "element_key", weaker)
    try:
        outcome = _scenario(tmp_path, found)
    except LineageError as exc:  # stale ids, which spdx-tools' validation refuses
        assert "SPDX document is invalid" in str(exc)
        return
    assert not all(equal for _, equal, _ in outcome), outcome


@pytest.mark.parametrize("weaker", [False, True])
def test_a_file_whose_regions_change_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   weaker: bool) -> None:
    """A file's rows of the copied regions are in its key: they can change while the file and the
    context do not (the renamed upstream paths its rows were made with; here, an upstream path
    rewritten). Without them in the key, the stale element is written (``weaker``)."""
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=cache, jobs=1))
    if weaker:
        monkeypatch.setattr(spdx, "element_key", lambda *parts: elements.element_key(*parts[:5]))
    comparison.write(tmp_path / "first", html=False, csv_cache=cache)
    original = spdx.copied_regions

    def moved(c: Any) -> Any:
        regions = original(c).copy()
        regions.loc[0, "upstream_path"] = "zorblib/moved.py"
        return regions

    monkeypatch.setattr(spdx, "copied_regions", moved)
    comparison.write(tmp_path / "second", html=False, csv_cache=cache)
    comparison.write(tmp_path / "plain", html=False)
    second, plain = ((tmp_path / name / spdx.SPDX_FILE).read_bytes() for name in ("second", "plain"))
    assert b"zorblib/moved.py" in plain
    assert (second == plain) is not weaker


def test_a_damaged_or_foreign_entry_is_a_miss(tmp_path: Path, found: list[bool]) -> None:
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    (entry,) = _entries(cache)
    payload = json.loads(elements.unframe(elements.ELEMENTS_MAGIC, entry.read_bytes()) or b"")
    foreign = elements.frame(elements.ELEMENTS_MAGIC, json.dumps(payload | {"context": "0" * 64}).encode())
    for damage in ("flip", "truncate", "foreign"):
        data = entry.read_bytes()
        entry.write_bytes(foreign if damage == "foreign" else
                          data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:] if damage == "flip"
                          else data[: len(data) // 2])
        _edit_in_place(target, upstream)
        found.clear()
        _run(target, upstream, tmp_path / f"warm-{damage}", cache)
        _run(target, upstream, tmp_path / f"plain-{damage}", tmp_path / f"none-{damage}", use_cache=False)
        assert found and not any(found), damage  # nothing taken from it; made afresh and stored again
        assert _reports(tmp_path / f"warm-{damage}") == _reports(tmp_path / f"plain-{damage}")
        assert entry.exists()


def test_stored_json_is_what_spdx_tools_converts(tmp_path: Path, found: list[bool]) -> None:
    """An element's stored text is that of spdx-tools' own conversion of the element rebuilt from
    the stored values (what the next run's document holds)."""
    from spdx_tools.spdx.jsonschema.file_converter import FileConverter
    from spdx_tools.spdx.jsonschema.relationship_converter import RelationshipConverter
    from spdx_tools.spdx.jsonschema.snippet_converter import SnippetConverter

    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    (entry,) = _entries(cache)
    stored = json.loads(elements.unframe(elements.ELEMENTS_MAGIC, entry.read_bytes()) or b"")["elements"]
    assert stored
    for element in stored.values():
        file, snippets, relationships = spdx._file_elements(element["values"])
        document = SimpleNamespace(annotations=[])  # all the converters read of the document
        ours = [FileConverter().convert(file, document), *(SnippetConverter().convert(s, document) for s in snippets),
                *(RelationshipConverter().convert(r) for r in relationships)]
        assert [compact(e) for e in ours] == element["text"]


def test_stored_elements_are_not_validated_again(tmp_path: Path, found: list[bool],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A rerun validates the elements it made, not those whose JSON it took from the entry (each
    passed the whole validation of the document it was made in), and writes the document of a run
    without any cache; the first run validated every element."""
    validated: list[int] = []
    original = spdx.validate

    def counting(document: Any) -> Any:
        validated.append(len(document.snippets) + len(document.files))
        return original(document)

    monkeypatch.setattr(spdx, "validate", counting)
    target, upstream = _trees(tmp_path)
    cache = tmp_path / "cache"
    _run(target, upstream, tmp_path / "first", cache)
    written = json.loads((tmp_path / "first" / spdx.SPDX_FILE).read_text(encoding="utf-8"))
    assert validated == [len(written["snippets"]) + len(written["files"])]
    _edit_in_place(target, upstream)
    validated.clear()
    found.clear()
    _run(target, upstream, tmp_path / "warm", cache)
    _run(target, upstream, tmp_path / "plain", tmp_path / "none", use_cache=False)
    assert _reports(tmp_path / "warm") == _reports(tmp_path / "plain")
    written = json.loads((tmp_path / "warm" / spdx.SPDX_FILE).read_text(encoding="utf-8"))
    assert any(found) and not all(found)
    assert 0 < validated[0] < len(written["snippets"]) + len(written["files"])


def test_an_id_used_twice_across_stored_parts_is_refused(tmp_path: Path) -> None:
    """The check across parts that the document's validation would make: no id twice."""
    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    document, parts = spdx._document(comparison, None)
    assert len(parts) > 1
    stored = parts[1]
    stored.values = {**stored.values, "id": parts[0].values["id"]}
    for element in stored.elements or []:  # its elements left out of the document, as a stored part's
        for kind in (document.files, document.snippets, document.relationships):
            kind[:] = [e for e in kind if e is not element]
    stored.text, stored.elements = ["{}"] * spdx._json_count(stored.values), None
    assert spdx.validate(document) == []
    _, problems = spdx._validated_json(document, parts)
    assert problems and "duplicates" in problems[0].validation_message
