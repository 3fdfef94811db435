"""Tests for lineage.report: the files written by Comparison.write()."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import treegen

from lineage.api import Comparison, compare
from lineage.match import MatchParams
from lineage.report.html import page_name
from lineage.results import FILE_COLUMNS, LINE_COLUMNS
from lineage.settings import RunSettings

OUTPUTS = ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Comparison, Path, dict[str, object]]:
    """Compare a directory target with a zipped upstream; write every report."""
    base = tmp_path_factory.mktemp("reports")
    up = treegen.gen_upstream(seed=4711, n_modules=2)
    archive = base / "upstreamlib-1.0.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path, text in sorted(up.files().items()):
            zf.writestr(f"upstreamlib-1.0/{path}", text)
    m0 = up.module(0)
    marker = f"# Copied from https://github.com/example/{up.pkg}/blob/v1.0/{m0.path}\n"
    target = {
        "app/copied.py": marker + "\n".join(m0.lines) + "\n",
        "app/own.py": treegen.render(treegen.own_code(treegen.Names(random.Random(1)), 2)),
        "app/bad.py": b"\xff\xfe\x00",
    }
    t_root = treegen.write_tree(base / "target", target)
    params = MatchParams(region_min_weight=30.0)
    comparison = compare(str(t_root), [str(archive)], params=params, settings=RunSettings(use_cache=False, jobs=1))
    out = base / "out"
    paths = comparison.write(out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert set(paths) >= {out / name for name in (*OUTPUTS, "manifest.json")}
    return comparison, out, manifest


def test_every_report_is_written(written: tuple[Comparison, Path, dict]) -> None:
    _, out, _ = written
    for name in (*OUTPUTS, "manifest.json", "html/index.html"):
        assert (out / name).is_file(), name
        assert (out / name).stat().st_size > 0, name


def test_csv_headers_and_round_trip(written: tuple[Comparison, Path, dict]) -> None:
    comparison, out, _ = written
    lines = pd.read_csv(out / "lines.csv", keep_default_na=False)
    assert list(lines.columns) == LINE_COLUMNS
    assert len(lines) == len(comparison.lines)
    files = pd.read_csv(out / "files.csv", keep_default_na=False)
    assert list(files.columns) == FILE_COLUMNS
    assert files["target_path"].tolist() == ["app/bad.py", "app/copied.py", "app/own.py"]
    assert files.set_index("target_path").loc["app/bad.py", "status"] == "skipped"
    raw = (out / "lines.csv").read_bytes()
    assert b"\r\n" not in raw
    # a line with no source has empty upstream cells, not "nan" or "0"
    first = lines[(lines["target_path"] == "app/copied.py") & (lines["line"] == 1)].iloc[0]
    assert first["match"] == "none"
    assert (first["upstream_path"], first["upstream_line"], first["region"]) == ("", "", "")


def test_summary_json_is_versioned_with_marker_lists(written: tuple[Comparison, Path, dict]) -> None:
    comparison, out, _ = written
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["format"] == "lineage.summary"
    assert isinstance(summary["format_version"], int)
    assert summary["lists"]["marked_with_copied"] == ["app/copied.py"]
    assert summary["lists"]["marked_without_copied"] == []
    assert summary["lists"]["unmarked_with_copied"] == []
    assert summary["lists"]["marked"] == ["app/copied.py"]
    assert summary["files"] | {} == comparison.summary()["files"]
    assert summary["headline"] == comparison.headline()
    md = (out / "summary.md").read_text(encoding="utf-8")
    for line in comparison.headline():
        assert line in md
    assert "app/copied.py" in md


def test_manifest_records_inputs_and_parameters(written: tuple[Comparison, Path, dict]) -> None:
    comparison, out, manifest = written
    assert manifest["format"] == "lineage.manifest"
    assert isinstance(manifest["format_version"], int)
    # all parameters, with the value given
    assert manifest["parameters"] == comparison.params.to_dict()
    assert set(manifest["parameters"]) == {f.name for f in dataclasses.fields(MatchParams)}
    assert manifest["parameters"]["region_min_weight"] == 30.0
    # both inputs: the archive's own digest, and each tree's digest of its Python files
    target, (upstream,) = manifest["target"], manifest["upstreams"]
    archive = Path(upstream["location"])
    assert upstream["digest"] == "sha256:" + hashlib.sha256(archive.read_bytes()).hexdigest()
    assert upstream["kind"] == "archive"
    for side, tree in ((target, comparison.target), (upstream, comparison.upstreams[0])):
        assert side["tree_digest"] == tree.tree_digest
        assert side["tree_digest"].startswith("sha256:") and len(side["tree_digest"]) == 7 + 64
        assert "digest" in side
    assert target["kind"] == "dir"
    assert target["skipped_files"] == [{"path": "app/bad.py", "reason": comparison.target.skipped[0][1]}]
    assert target["python_files"] == 3 and target["indexed_files"] == 2
    for name in OUTPUTS:
        assert manifest["outputs"][name] == "sha256:" + hashlib.sha256((out / name).read_bytes()).hexdigest()


def test_manifest_outputs_are_paths_relative_to_the_output_folder(written: tuple[Comparison, Path, dict]) -> None:
    """Every output the manifest lists can be found (and checked) from its key: the HTML pages
    live in html/, so a bare "index.html" names no file."""
    _, out, manifest = written
    for name, digest in manifest["outputs"].items():
        assert (out / name).is_file(), name
        assert digest == "sha256:" + hashlib.sha256((out / name).read_bytes()).hexdigest()
    assert "html/index.html" in manifest["outputs"]


def test_tree_digest_depends_on_python_content(tmp_path: Path) -> None:
    a = treegen.write_tree(tmp_path / "a", {"m.py": "x = 1\n", "notes.txt": "a\n"})
    b = treegen.write_tree(tmp_path / "b", {"m.py": "x = 1\n", "notes.txt": "b\n"})
    c = treegen.write_tree(tmp_path / "c", {"m.py": "x = 2\n", "notes.txt": "a\n"})
    plain = RunSettings(use_cache=False, jobs=1)
    digests = [compare(str(t), [str(a)], settings=plain).target.tree_digest for t in (a, b, c)]
    assert digests[0] == digests[1] != digests[2]


def test_html_index_and_file_pages(written: tuple[Comparison, Path, dict]) -> None:
    comparison, out, _ = written
    index = (out / "html" / "index.html").read_text(encoding="utf-8")
    assert index.startswith("<!doctype html>")
    assert "app/<wbr>copied.py" in index
    assert "app/<wbr>own.py" not in index  # neither copied nor marked
    pages = sorted(p for p in (out / "html").glob("*.html") if p.name != "index.html")
    assert [p.name for p in pages] == [page_name("app/copied.py")]
    page = pages[0].read_text(encoding="utf-8")
    assert "verbatim" in page


def test_no_html_option(tmp_path: Path, written: tuple[Comparison, Path, dict]) -> None:
    comparison, _, _ = written
    paths = comparison.write(tmp_path / "plain", html=False)
    assert not (tmp_path / "plain" / "html").exists()
    assert (tmp_path / "plain" / "manifest.json") in paths
    manifest = json.loads((tmp_path / "plain" / "manifest.json").read_text(encoding="utf-8"))
    assert not any(name.endswith(".html") for name in manifest["outputs"])


def test_every_output_format_is_one_reporter(written: tuple[Comparison, Path, dict]) -> None:
    from lineage.report import ATTACHMENTS, HTML, REPORTS, Reporter

    reporters = [*REPORTS, *ATTACHMENTS.values(), HTML]
    types = [r.report_type for r in reporters]
    assert len(set(types)) == len(types) == 7
    assert all(isinstance(r, Reporter) for r in reporters)
    # write_reports records what the reporters wrote, and the manifest, nothing else
    comparison, out, _ = written
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted([*manifest["outputs"], "manifest.json"]) == on_disk


def test_summary_markdown_from_a_given_summary_is_the_same(written: tuple[Comparison, Path, dict]) -> None:
    from lineage.report.summary import summary_dict, summary_markdown

    comparison, out, _ = written
    text = summary_markdown(comparison)
    assert summary_markdown(comparison, summary_dict(comparison)) == text
    assert (out / "summary.md").read_text(encoding="utf-8") == text


def test_summary_definitions_say_that_a_copyright_line_marks_a_file(run_compare) -> None:  # type: ignore[no-untyped-def]
    """A copyright line naming the upstream marks a file (marker kind ``copyright``: 10 of sglang's
    224 marked files), as the README's *marked* says; summary.md's definition left it out, so a
    reviewer found marked files whose marker its definition did not cover."""
    from lineage.report.summary import summary_markdown

    body = treegen.distinctive_functions(3)
    comparison = run_compare({"pkg/a.py": "# Copyright 2024 The upstream team.\n" + body},
                             [("upstream", {"upstream/a.py": body})])
    files = comparison.files.set_index("target_path")
    assert files.loc["pkg/a.py", "marker_kind"] == "copyright"
    definition = next(line for line in summary_markdown(comparison).splitlines() if line.startswith("- *marked*"))
    assert "a copyright line naming it" in definition and "marker kind `copyright`" in definition


def test_summary_names_what_each_input_digest_is_of(tmp_path: Path) -> None:
    """summary.md gave the target's Python-tree digest and the upstreams' archive sha256, both as a
    bare ``sha256:...``: nextcord 2.6.0's sdist (sha256 ``ccf46...``, what ``pip download`` gives)
    read ``sha256:a2de1...``. Each input now names both, the archive's and the tree's."""
    import hashlib
    import zipfile

    from lineage.report.summary import summary_markdown

    body = treegen.distinctive_functions(3)
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("pkg/a.py", body)
    upstream = treegen.write_tree(tmp_path / "up", {"up/a.py": body})
    comparison = compare(str(wheel), [str(upstream)], settings=RunSettings(use_cache=False, jobs=1))
    sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
    text = summary_markdown(comparison)
    assert (f"Target: `{wheel}` (archive sha256:{sha}; Python tree {comparison.target.tree_digest})."
            in text)
    assert f": `{upstream}` (Python tree {comparison.upstreams[0].tree_digest})." in text  # a folder: no archive


def test_the_formula_guard_of_the_tables_pandas_writes() -> None:
    """forkpoint.csv, drift.csv, history.csv and candidates.csv get the guard lines.csv's cells
    get (lineage.report.tables): a string cell opening with = + - @ TAB or CR is written as text."""
    import math

    import pandas as pd

    from lineage.report.tables import guard_formulas, guarded_cell

    frame = pd.DataFrame({"subject": ["=SUM(A1)", "+1 fix", "plain", None, "-x", "@a", "\tx", "a=b"],
                          "n": [1, 2, 3, 4, 5, 6, 7, 8], "x": [0.5, -1.0, 2.0, math.nan, 1, 1, 1, 1]})
    guarded = guard_formulas(frame)
    cells = list(guarded["subject"])
    assert cells[:3] + cells[4:] == ["'=SUM(A1)", "'+1 fix", "plain", "'-x", "'@a", "'\tx", "a=b"]
    assert pd.isna(cells[3]) and guarded["subject"].dtype == frame["subject"].dtype  # a missing cell stays missing
    assert guarded["n"].tolist() == frame["n"].tolist() and guarded["x"].equals(frame["x"])  # numbers as they are
    assert frame["subject"][0] == "=SUM(A1)"  # the caller's frame untouched (the API keeps the raw values)
    assert guard_formulas(frame[["n"]]) is not None and guarded_cell("-1") == "'-1" and guarded_cell("v1") == "v1"
