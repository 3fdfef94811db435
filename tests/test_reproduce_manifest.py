"""Tests for lineage.reproduce_manifest: reading and checking the manifest a rerun starts from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lineage.errors import LineageError
from lineage.match.params import MatchParams
from lineage.report.manifest import tool_info
from lineage.reproduce_manifest import (
    RecordedInput,
    ReproduceError,
    environment_notes,
    load_manifest,
    manifest_path,
    recorded_inputs,
    recorded_options,
    recorded_params,
)
from lineage.settings import DEFAULT_MAX_FILE_BYTES

TARGET = {"spec": "t", "kind": "dir", "location": "/x/t", "digest": "", "tree_digest": "sha256:1"}
UPSTREAM = {"spec": "u.zip", "kind": "archive", "location": "/x/u.zip", "digest": "sha256:2", "tree_digest": "",
            "details": {"size": 3}}


def _manifest(folder: Path, **data: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    whole = {"format": "lineage.manifest", "format_version": 4, "complete": True, "target": TARGET,
             "upstreams": [UPSTREAM], "parameters": {}, "outputs": {"files.csv": "sha256:0"}} | data
    (folder / "manifest.json").write_text(json.dumps(whole), encoding="utf-8")
    return folder


def test_inputs_in_their_recorded_order(tmp_path: Path) -> None:
    folder = _manifest(tmp_path / "r")
    assert manifest_path(folder) == folder / "manifest.json" == manifest_path(folder / "manifest.json")
    inputs = recorded_inputs(load_manifest(folder))
    assert inputs == [RecordedInput("target", "t", "dir", "/x/t", "", "sha256:1"),
                      RecordedInput("upstream 1", "u.zip", "archive", "/x/u.zip", "sha256:2", "", {"size": 3})]
    assert inputs[1].describe() == "upstream 1 u.zip"


@pytest.mark.parametrize("data", [
    {"upstreams": []}, {"parameters": None}, {"target": {"kind": "dir"}},
    {"target": {**TARGET, "details": [1, 2]}}, {"target": {**TARGET, "details": "abc"}},  # tracebacks before
    # a rerun that compares nothing, or reads files outside the report folder, proves nothing
    {"outputs": {}}, {"outputs": {"/etc/passwd": "sha256:0"}}, {"outputs": {"../../etc/passwd": "sha256:0"}},
    {"outputs": {"files.csv": None}},
    # a format this lineage cannot read
    {"format_version": 99}, {"format_version": "3"}, {"format_version": None}, {"format_version": True},
])
def test_a_manifest_without_what_a_rerun_needs_is_refused(tmp_path: Path, data: dict[str, object]) -> None:
    with pytest.raises(ReproduceError):
        recorded_inputs(load_manifest(_manifest(tmp_path / "r", **data)))


def test_parameters_unknown_refused_missing_noted() -> None:
    notes: list[str] = []
    recorded = MatchParams().to_dict()
    recorded.pop("seed_max_count")
    assert recorded_params({"parameters": recorded}, notes) == MatchParams()
    assert notes and "seed_max_count" in notes[0]
    with pytest.raises(ReproduceError, match="no_such_knob"):
        recorded_params({"parameters": {**recorded, "no_such_knob": 1}}, [])
    with pytest.raises(LineageError, match="token_weight_cap must be in"):  # not numpy's OverflowError later
        recorded_params({"parameters": {**recorded, "token_weight_cap": 2**40}}, [])


def test_options_checked_missing_noted() -> None:
    """A hand-edited file size limit was int()'d (ValueError traceback for 'big'); target names
    given as a string became one name per letter."""
    notes: list[str] = []
    assert recorded_options({"options": {"max_file_bytes": 20000, "target_names": ["t"]}}, notes) == (20000, ["t"])
    assert notes == []
    assert recorded_options({}, notes) == (DEFAULT_MAX_FILE_BYTES, None)
    assert notes and "defaults were used" in notes[0]
    for options in ({"max_file_bytes": "big"}, {"max_file_bytes": 0}, {"max_file_bytes": 1.5},
                    {"max_file_bytes": True}, {"target_names": "abc"}, {"target_names": [1]}):
        with pytest.raises(ReproduceError):
            recorded_options({"options": options}, [])


def test_environment_notes_name_what_differs() -> None:
    now = tool_info()
    assert not [n for n in environment_notes({"tool": now}) if "version differs" in n and "lineage" in n]
    notes = environment_notes({"tool": {**now, "version": "0.0.1"}, "environment": {"rapidfuzz": "0.0"}})
    assert any(n.startswith("lineage version differs") for n in notes)
    assert any(n.startswith("rapidfuzz version differs: recorded 0.0") for n in notes)
