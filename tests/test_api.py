"""Tests for lineage.api: compare on small generated trees, and what the Comparison it returns holds."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import treegen
from conftest import Runner

from lineage import results
from lineage.api import Comparison, compare, match_context
from lineage.errors import LineageError
from lineage.match import MatchParams
from lineage.settings import RunSettings

PLAIN = RunSettings(use_cache=False, jobs=1)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, treegen.Upstream]:
    """An upstream of three modules; a target with one module copied whole (marked), one own."""
    base = tmp_path_factory.mktemp("pair")
    up = treegen.gen_upstream(seed=11)
    copied = up.module(0)
    own = treegen.own_code(treegen.Names(random.Random(3)), n_functions=3)
    target = {
        "app/copied.py": f"# Adapted from {up.pkg}/{copied.path.split('/')[-1]}\n" + treegen.render(
            treegen.copy_module(copied)),
        "app/own.py": treegen.render(own),
    }
    return (treegen.write_tree(base / "target", target), treegen.write_tree(base / "upstream", up.files()), up)


@pytest.fixture(scope="module")
def comparison(pair: tuple[Path, Path, treegen.Upstream]) -> Comparison:
    return compare(str(pair[0]), [str(pair[1])], settings=PLAIN)


def test_copied_lines_are_verbatim_and_own_lines_none(comparison: Comparison,
                                                      pair: tuple[Path, Path, treegen.Upstream]) -> None:
    up = pair[2]
    lines = comparison.lines
    copied = lines[(lines["target_path"] == "app/copied.py") & (lines["kind"] != "blank") & (lines["line"] > 1)]
    assert len(copied) > 30
    assert (copied["match"] == "verbatim").all()
    assert (copied["upstream_path"] == up.module(0).path).all()
    assert (copied["upstream_line"] == copied["line"] - 1).all()  # the marker line shifts the copy by one
    own = lines[lines["target_path"] == "app/own.py"]
    assert (own["match"] == "none").all() and (own["upstream_path"] == "").all()


def test_comparison_is_a_results_comparison_with_its_conclusions(comparison: Comparison) -> None:
    assert isinstance(comparison, results.Comparison)
    assert comparison.upstream_names == ["upstream"]
    assert comparison.lists["marked_with_copied"] == ["app/copied.py"]
    assert comparison.lists["unmarked_with_copied"] == []
    counts = comparison.file_counts
    assert (counts["python"], counts["indexed"], counts["marked"], counts["with_copied_lines"]) == (2, 2, 1, 1)
    n = comparison.numbers["all_files"]
    assert n == results.numbers_of(comparison.files) and n.code_verbatim > 30 and n.code_near == 0
    assert comparison.headline()[0].startswith("1 of 2 files carry a marker naming upstream; ")
    assert comparison.options == {"jobs": 1, "cache": "", "max_file_bytes": PLAIN.max_file_bytes,
                                  "target_names": []}
    assert set(comparison.timings) >= {"open", "index", "match", "tables"}


def test_summary_and_write_agree(comparison: Comparison, tmp_path: Path) -> None:
    written = comparison.write(tmp_path / "out", html=False, formats=[])
    names = sorted(p.relative_to(tmp_path / "out").as_posix() for p in written)
    assert names == sorted(["lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json",
                            "summary.md", "obligations.csv", "ATTRIBUTION.md", "manifest.json"])
    on_disk = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert on_disk["lists"] == comparison.summary()["lists"] == comparison.lists
    with pytest.raises(LineageError, match="unknown report format"):
        comparison.write(tmp_path / "bad", formats=["pdf"])


def test_two_upstreams_with_one_label_are_told_apart(pair: tuple[Path, Path, treegen.Upstream],
                                                     tmp_path: Path) -> None:
    twin = tmp_path / "upstream"
    twin.mkdir()
    (twin / "other.py").write_text("VALUE = 1\n")
    result = compare(str(pair[0]), [str(pair[1]), str(twin)], settings=PLAIN)
    assert result.upstream_names == ["upstream", "upstream-2"]


def test_match_context_follows_parameters_and_upstreams(comparison: Comparison) -> None:
    ups = comparison.upstreams
    base = match_context(ups, ["upstream"], MatchParams())
    assert base == match_context(ups, ["upstream"], MatchParams())
    assert base != match_context(ups, ["upstream"], MatchParams(region_min_weight=40.0))
    assert base != match_context(ups, ["other"], MatchParams())


def test_bad_input_is_a_lineage_error(pair: tuple[Path, Path, treegen.Upstream], tmp_path: Path) -> None:
    with pytest.raises(LineageError, match="--target-name may not be empty"):
        compare(str(pair[0]), [str(pair[1])], settings=PLAIN, target_names=[" "])
    with pytest.raises(LineageError):
        compare(str(tmp_path / "missing"), [str(pair[1])], settings=PLAIN)
    with pytest.raises(LineageError, match="jobs must be"):
        RunSettings(jobs=0)


def _shared_author_pair(upstream_holder: str) -> tuple[dict[str, str], dict[str, str]]:
    """A fork (``brook``) of a project (``rill``) whose metadata both name Ada Quill as author; the
    fork's file replaced the upstream file's copyright line (``upstream_holder``'s) with Ada
    Quill's over the same code."""
    body = "".join(f"def step_{k}(value, scale):\n    total = value * scale + {k}\n"
                   f"    return total - (value // {k + 2})\n\n\n" for k in range(12))
    meta = "Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\nAuthor: Ada Quill\n"
    upstream = {"PKG-INFO": meta.format(name="rill"), "rill/__init__.py": "",
                "rill/steps.py": f"# Copyright (C) 2003 {upstream_holder}\n\n{body}"}
    target = {"PKG-INFO": meta.format(name="brook"), "brook/__init__.py": "",
              "brook/steps.py": f"# Copyright (C) 2011 Ada Quill\n\n{body}"}
    return target, upstream


def test_an_author_both_declare_marks_only_as_the_upstreams_holder(run_compare: Runner) -> None:
    """A copyright line naming an author the target's metadata declares too is the target's own
    claim unless the upstream's own copyright lines name that author (``unheld_shared_authors``,
    ``marking_shared_author_held``): ssh 1.8.0's "Copyright (C) 2011 Jeff Forcier" over paramiko
    1.8.0's Robey Pointer lines marked 58 files for paramiko, whose metadata names Jeff Forcier."""
    target, upstream = _shared_author_pair("Ben Ortolan")
    files = run_compare(target, [("rill", upstream)]).files.set_index("target_path")
    assert files.loc["brook/steps.py", "verbatim_code_lines"] > 30
    assert files.loc["brook/steps.py", "marker"] == ""
    off = run_compare(target, [("rill", upstream)], params=MatchParams(marking_shared_author_held=0))
    assert off.files.set_index("target_path").loc["brook/steps.py", "marker_kind"] == "copyright"
    target, upstream = _shared_author_pair("Ada Quill")  # the upstream's holder: a credit
    files = run_compare(target, [("rill", upstream)]).files.set_index("target_path")
    assert files.loc["brook/steps.py", "marker"] == "Copyright (C) 2011 Ada Quill"
