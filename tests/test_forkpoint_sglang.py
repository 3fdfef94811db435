"""The sglang/vLLM forkpoint analysis (scripts/forkpoint_sglang.py) on synthetic outputs: no network."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from conftest import script_module
from packaging.version import Version

fs = script_module("forkpoint_sglang")

VERSIONS = [Version(v) for v in ("0.6.4.post1", "0.7.3", "0.9.1", "0.10.0")]


def test_ref_release_maps_tags_and_sets_undated_refs_apart() -> None:
    assert fs.ref_release("v0.7.3", VERSIONS) == ("tag", "0.7.3")
    assert fs.ref_release("v0.6.4.post1", VERSIONS) == ("tag", "0.6.4.post1")
    assert fs.ref_release("v0.7.3%2Brocm", VERSIONS) == ("tag", "0.7.3")  # a local build maps to its base
    assert fs.ref_release("v0.9.1rc2", VERSIONS) == ("tag", "0.9.1")  # a pre-release to the release it led to
    assert fs.ref_release("v0.8.3", VERSIONS) == ("tag", "not a candidate (0.8.3)")
    assert fs.ref_release("main", VERSIONS) == ("main", "")
    assert fs.ref_release("c7f2cf2b7f67bce5842fedfdba508440fe257375", VERSIONS) == ("sha", "")
    assert fs.ref_release("", VERSIONS) == ("none", "")


def _forkpoint_files() -> pd.DataFrame:
    rows = [  # target_path, rank, candidate, distance, code_lines, verbatim
        ("a.py", 1, "c1", 0, 10, 10), ("a.py", 2, "c2", 4, 10, 8),
        ("b.py", 1, "c2", 1, 5, 5), ("b.py", 1, "c3", 1, 5, 5), ("b.py", 3, "c1", 9, 5, 0),
        ("c.py", 1, "c1", 7, 7, 0), ("c.py", 1, "c2", 7, 7, 0), ("c.py", 1, "c3", 7, 7, 0),
        ("d.py", 1, "c3", 2, 6, 5), ("d.py", 2, "c1", 3, 6, 4),
        ("f.py", 1, "c1", 4, 4, 0), ("f.py", 2, "c2", 6, 4, 1),  # best is no better than no match
    ]
    frame = pd.DataFrame(rows, columns=["target_path", "rank", "candidate", "distance", "code_lines",
                                        "verbatim_code_lines"])
    return frame.assign(upstream_path="vllm/x.py", ref="", order=0, copied_code_lines=0,
                        upstream_only_code_lines=0)


def test_analyse_counts_agreement_ties_and_undated_refs(tmp_path: Path) -> None:
    version_of = {"c1": "0.6.4.post1", "c2": "0.7.3", "c3": "0.10.0"}
    _forkpoint_files().to_csv(tmp_path / "forkpoint_files.csv", index=False)
    meta = {"target": {"spec": "pypi:sglang==0.5.23", "python_files": 4}, "seconds": 1.0,
            "candidate_versions": version_of}
    (tmp_path / "forkpoint.json").write_text(json.dumps(meta), encoding="utf-8")
    pd.DataFrame({"rank": [1, 2, 3], "candidate": ["c1", "c2", "c3"], "distance": [5, 6, 7],
                  "verbatim_code_lines": [3, 2, 1], "upstream_only_code_lines": [1, 2, 3], "paired_files": [1, 1, 1],
                  "order": [0, 1, 2]}).to_csv(tmp_path / "forkpoint.csv", index=False)
    report = pd.DataFrame({
        "target_path": ["a.py", "b.py", "c.py", "d.py", "e.py", "f.py"],
        "marker": ["Adapted from v0.6.4.post1", "Adapted from v0.10.0", "Adapted from v0.7.3", "from main", "",
                   "Adapted from v0.6.4.post1"],
        "marker_kind": ["adapted_from"] * 4 + ["", "adapted_from"],
        "marker_ref": ["v0.6.4.post1", "v0.10.0", "v0.7.3", "main", "", "v0.6.4.post1"],
        "marker_path": ["vllm/x.py"] * 4 + ["", "vllm/x.py"]})
    report.to_csv(tmp_path / "files.csv", index=False)
    md = tmp_path / "out.md"
    fs.analyse(tmp_path, tmp_path / "files.csv", md, "test")
    text = md.read_text(encoding="utf-8")
    # a.py agrees alone, b.py agrees through a tie (0.7.3 and 0.10.0), c.py ties everywhere, d.py is main,
    # f.py's best release (0.6.4.post1, the pinned one) does no better than no match: not counted as agreeing
    assert "| release tag | 4 | 2 | - | - | 2 |" in text
    assert "| `main` (undated) | 1 | - | - | - | 0 |" in text
    assert "3 of 5 marked files have a closest release; 2 have none" in text
    assert "| 0.10.0 | 2 | 1 |" in text  # b.py (tied) and d.py (alone)
    assert "| 0.7.3 | 1 | 0 |" in text
    assert "| 0.10.0 | 3 | 7 | 1 | 3 | 1 |" in text  # whole-target row
    assert "| `b.py` | v0.10.0 | 0.10.0 | 0.7.3 0.10.0 | 1 | 5 / 5 | 1, 1 | agrees |" in text


def test_analyse_without_forkpoint_outputs_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    assert fs.main(["analyse", "--out", str(tmp_path / "nothing"), "--files", str(tmp_path / "files.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("forkpoint_sglang: cannot read the outputs") and err.count("\n") == 1
