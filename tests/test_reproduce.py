"""`lineage reproduce`: a report reruns from its manifest, a changed input is refused, changed
parameters give differing figures."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import treegen
from test_cli import assert_one_line_error, lineage

from lineage.cli import main
from lineage.reproduce import reproduce


def _zip(folder: Path, archive: Path) -> Path:
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                # a fixed date, so the same files give the same archive bytes
                zf.writestr(zipfile.ZipInfo(path.relative_to(folder).as_posix(), (2020, 1, 1, 0, 0, 0)),
                            path.read_bytes())
    return archive


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(target folder, first upstream as an archive, second upstream as a folder)."""
    up = treegen.gen_upstream(seed=77, n_modules=2)
    other = treegen.gen_upstream(seed=78, n_modules=1)
    names = treegen.Names(random.Random(5))
    target = {
        "pkg/copied.py": "# Adapted from upstream/" + up.module(0).path + "\n" + "\n".join(up.module(0).lines) + "\n",
        "pkg/vendored.py": "\n".join(other.module(0).lines) + "\n",
        "pkg/own.py": treegen.render(treegen.own_code(names, 2)),
        "pkg/mixed.py": treegen.render(treegen.copy_module(up.module(1)) + treegen.own_code(names, 2)),
    }
    t = treegen.write_tree(tmp_path / "target", target)
    archive = _zip(treegen.write_tree(tmp_path / "upstream", up.files()), tmp_path / "upstream-1.0.zip")
    second = treegen.write_tree(tmp_path / "other", other.files())
    return t, archive, second


def _compare(inputs: tuple[Path, Path, Path], out: Path, *extra: str) -> dict:
    target, archive, second = inputs
    assert main(["compare", str(target), str(archive), "--upstream", str(second), "--out", str(out), "-q",
                 "--jobs", "1", *extra]) == 0
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_a_report_reproduces_identically(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    manifest = _compare(inputs, tmp_path / "report")
    assert manifest["attachments_created"]
    # several copied regions, so an order that changed between processes would show
    bom = json.loads((tmp_path / "report" / "lineage.cdx.json").read_text(encoding="utf-8"))
    assert sum(len(a["evidence"]["occurrences"]) for a in bom["metadata"]["component"]["pedigree"]["ancestors"]
               if "evidence" in a) >= 3
    result = lineage("reproduce", str(tmp_path / "report" / "manifest.json"), "-q")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"reproduced: {len(manifest['outputs'])} files identical" in result.stdout.splitlines()
    assert "differs" not in result.stdout


def test_the_rerun_is_kept_with_out(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    manifest = _compare(inputs, tmp_path / "report", "--no-html", "--formats", "sarif")
    result = reproduce(tmp_path / "report", tmp_path / "rerun")
    assert result.reproduced and sorted(result.identical) == sorted(manifest["outputs"])
    for name in manifest["outputs"]:
        assert (tmp_path / "rerun" / name).read_bytes() == (tmp_path / "report" / name).read_bytes()
    status = main(["reproduce", str(tmp_path / "report"), "--out", str(tmp_path / "report"), "-q"])
    assert status == 2  # the rerun may not replace the report it checks


def test_a_changed_target_file_is_refused(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _compare(inputs, tmp_path / "report", "--no-html")
    copied = inputs[0] / "pkg" / "copied.py"
    copied.write_text(copied.read_text(encoding="utf-8") + "extra = 1\n", encoding="utf-8")
    line = assert_one_line_error(lineage("reproduce", str(tmp_path / "report"), "-q"))
    assert "the target" in line and "is not the recorded input" in line and "Python files hash to" in line


def test_a_changed_vendoring_record_of_a_folder_is_refused(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    # the Python files are the same; the record that decides which files are marked is new
    manifest = _compare(inputs, tmp_path / "report", "--no-html")
    assert manifest["format_version"] >= 4 and manifest["target"]["vendoring"] == []
    (inputs[0] / "pkg" / "vendor.txt").write_text("vendored==1.0\n", encoding="utf-8")
    line = assert_one_line_error(lineage("reproduce", str(tmp_path / "report"), "-q"))
    assert "the target" in line and "is not the recorded input: its vendoring records" in line
    assert line.endswith("pkg/vendor.txt now records vendored")


def test_a_vendoring_records_line_is_not_part_of_the_input(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    (inputs[0] / "pkg" / "vendor.txt").write_text("vendored==1.0\n", encoding="utf-8")
    _compare(inputs, tmp_path / "report", "--no-html")
    # a comment above the record moves its line; no figure reads the line
    (inputs[0] / "pkg" / "vendor.txt").write_text("# pinned\nvendored==1.0\n", encoding="utf-8")
    assert main(["reproduce", str(tmp_path / "report"), "-q"]) == 0


def test_a_tampered_archive_is_refused(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _compare(inputs, tmp_path / "report", "--no-html")
    with zipfile.ZipFile(inputs[1], "a") as zf:
        zf.writestr("upstream/extra.py", "x = 1\n")
    line = assert_one_line_error(lineage("reproduce", str(tmp_path / "report" / "manifest.json"), "-q"))
    assert "upstream 1" in line and "is not the recorded input: digest sha256:" in line


def test_a_missing_input_is_refused(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _compare(inputs, tmp_path / "report", "--no-html")
    shutil.rmtree(inputs[2])
    line = assert_one_line_error(lineage("reproduce", str(tmp_path / "report"), "-q"))
    assert "cannot reopen the upstream 2" in line and "no longer exists" in line


def test_an_incomplete_report_is_refused(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    manifest = _compare(inputs, tmp_path / "report", "--no-html")
    manifest["complete"] = False
    (tmp_path / "report" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    line = assert_one_line_error(lineage("reproduce", str(tmp_path / "report"), "-q"))
    assert "incomplete" in line
    assert_one_line_error(lineage("reproduce", str(tmp_path / "nothing.json"), "-q"))


def test_changed_parameters_give_differing_figures(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    manifest = _compare(inputs, tmp_path / "report", "--no-html", "--formats", "none")
    # A stricter region threshold than the run used: the same inputs, other figures.
    manifest["parameters"]["region_min_weight"] = 10_000.0
    (tmp_path / "report" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = lineage("reproduce", str(tmp_path / "report"), "-q")
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout.splitlines()
    verdict = [line for line in out if line.startswith("not reproduced: ")]
    assert verdict and verdict[0].endswith(f"of {len(manifest['outputs'])} files differ")
    by_file = {line.split(":", 1)[0].strip(): line for line in out if line.startswith("  ")}
    assert {"files.csv", "lines.csv", "summary.json", "summary.md"} <= set(by_file)
    # the first differing figure of the summary is the headline
    assert by_file["summary.json"].startswith("  summary.json: headline[")
    assert "verbatim" in by_file["files.csv"] and "->" in by_file["files.csv"]


def test_another_lineage_version_is_reported(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    manifest = _compare(inputs, tmp_path / "report", "--no-html", "--formats", "none")
    manifest["tool"]["version"] = "0.0.1"
    manifest["environment"]["rapidfuzz"] = "1.0.0"
    (tmp_path / "report" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = reproduce(tmp_path / "report")
    assert result.reproduced
    notes = "\n".join(result.notes)
    assert "lineage version differs: the report was written by 0.0.1" in notes
    assert "rapidfuzz version differs: recorded 1.0.0" in notes
    assert result.lines()[-1] == f"reproduced: {len(manifest['outputs'])} files identical"


def _commit_all(repo: Path, message: str, init: bool = False) -> None:
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@e"]
    if init:
        subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", message], check=True)


def test_a_git_input_reopens_at_its_recorded_commit(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(inputs[2], repo)
    _commit_all(repo, "one", init=True)
    assert main(["compare", str(inputs[0]), f"{repo}@main", "--out", str(tmp_path / "report"), "-q",
                 "--jobs", "1", "--no-html"]) == 0
    # main moves on; the report names the commit it read, and its spec still says "main"
    (repo / "later.py").write_text("def later():\n    return 1\n", encoding="utf-8")
    _commit_all(repo, "two")
    assert reproduce(tmp_path / "report").reproduced
    # a folder of the commit (REF:PATH): the upstream under "nested/" read as if it were the root;
    # the report reopens that folder at the recorded commit, and its figures equal the root's
    nested = tmp_path / "nested-repo"
    shutil.copytree(inputs[2], nested / "nested")
    _commit_all(nested, "one", init=True)
    assert main(["compare", str(inputs[0]), f"{nested}@main:nested", "--out", str(tmp_path / "folder"), "-q",
                 "--jobs", "1", "--no-html"]) == 0
    folder = json.loads((tmp_path / "folder" / "manifest.json").read_text())["upstreams"][0]
    assert folder["details"]["path"] == "nested" and folder["digest"].endswith(":nested")
    assert reproduce(tmp_path / "folder").reproduced
    columns = ["target_path", "line", "match", "upstream_path", "upstream_line"]  # the label is the repository's name
    by_folder, by_root = (pd.read_csv(tmp_path / d / "lines.csv", keep_default_na=False)[columns]
                          for d in ("folder", "report"))
    assert by_folder.equals(by_root) and (by_root["match"] != "none").any()


def test_a_pypi_release_reopens_by_its_sha256(inputs: tuple[Path, Path, Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    folder = cache / "downloads" / "pypi" / "upstream-1.0"
    folder.mkdir(parents=True)
    wheel = folder / "upstream-1.0-py3-none-any.whl"
    shutil.copy(inputs[1], wheel)
    sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
    wheel.with_name(wheel.name + ".sha256").write_text(sha + "\n", encoding="ascii")
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    assert main(["compare", str(inputs[0]), "pypi:upstream==1.0", "--out", str(tmp_path / "report"), "-q",
                 "--jobs", "1", "--no-html", "--cache-dir", str(cache)]) == 0
    assert main(["reproduce", str(tmp_path / "report"), "-q", "--cache-dir", str(cache)]) == 0
    with zipfile.ZipFile(wheel, "a") as zf:
        zf.writestr("upstream/extra.py", "x = 1\n")
    line = assert_one_line_error(lineage("reproduce", str(tmp_path / "report"), "-q", "--cache-dir", str(cache)))
    assert "cannot reopen the upstream 1 pypi:upstream==1.0" in line and "sha256 mismatch" in line


def test_the_manifest_names_the_checkout_commit(inputs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    manifest = _compare(inputs, tmp_path / "report", "--no-html", "--formats", "none")
    root = Path(__file__).resolve().parents[1]
    tool = manifest["tool"]
    assert tool["name"] == "lineage" and tool["version"]
    if not (root / ".git").exists():
        pytest.skip("lineage is not run from a git checkout here")
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "src"], capture_output=True,
                            text=True, check=True).stdout
    assert tool["commit"] == head and tool["dirty"] == bool(status.strip())
