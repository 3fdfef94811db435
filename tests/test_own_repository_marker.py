"""A marker pointing into the target's own repository names the target's own file, not an upstream
file that happens to share its path (lineage.api.names_target_only): it does not exempt that
upstream file from the from-target rule of the origin gate."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import treegen

from lineage.api import names_target_only
from lineage.cli import main
from lineage.markers import Marker

TARGET_NAMES = ["tgt", "tgtorg/tgt"]
UPSTREAM_NAMES = [{"up", "upstream-org/up"}]
_body = treegen.distinctive_functions


def _url_marker(repository: str, path: str) -> Marker:
    return Marker(line=1, kind="adapted_from", text=f"Adapted from https://github.com/{repository}/blob/main/{path}",
                  repository=repository, ref="main", path=path, project=repository.split("/")[1])


def test_a_marker_into_the_targets_own_repository_names_the_target_only() -> None:
    assert names_target_only(_url_marker("tgtorg/tgt", "tgt/ops/back.py"), TARGET_NAMES, UPSTREAM_NAMES)
    # the upstream's repository, or a third party's, is no target's own
    assert not names_target_only(_url_marker("upstream-org/up", "up/ops/back.py"), TARGET_NAMES, UPSTREAM_NAMES)
    assert not names_target_only(_url_marker("other/lib", "lib/ops/back.py"), TARGET_NAMES, UPSTREAM_NAMES)
    # a project both sides are (an earlier release of the target as its upstream): names the upstream too
    assert not names_target_only(_url_marker("tgtorg/tgt", "tgt/ops/back.py"), TARGET_NAMES,
                                 [{"tgt", "tgtorg/tgt"}])


def _lines(tmp_path: Path, header: str) -> pd.DataFrame:
    # up/ops/back.py says it came from the target; the target file says it was adapted from a file
    # whose path ends as the upstream file's does
    upstream = {
        "up/__init__.py": "",
        "up/ops/back.py": "# Adapted from\n# https://github.com/tgtorg/tgt/blob/abc/tgt/ops.py\n" + _body(3),
        "pyproject.toml": '[project]\nname = "up"\nurls = {Source = "https://github.com/upstream-org/up"}\n',
    }
    target = {
        "tgt/__init__.py": "",
        "tgt/ops/__init__.py": "",
        "tgt/ops/fast.py": header + _body(3),
        "pyproject.toml": '[project]\nname = "tgt"\nurls = {Source = "https://github.com/tgtorg/tgt"}\n',
    }
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    assert main(["compare", str(t), str(u), "--out", str(tmp_path / "out"), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    lines = pd.read_csv(tmp_path / "out" / "lines.csv", keep_default_na=False, dtype=str)
    return lines[(lines["target_path"] == "tgt/ops/fast.py") & (lines["kind"] == "code")]


def test_code_shared_with_a_file_from_the_target_stays_shared_under_a_marker_into_the_targets_repository(
        tmp_path: Path) -> None:
    rows = _lines(tmp_path, "# Adapted from https://github.com/tgtorg/tgt/blob/main/tgt/ops/back.py\n")
    assert len(rows) > 15
    assert (rows["match"] == "none").all() and set(rows["shared_origin"]) == {"from_target"}


def test_a_marker_naming_the_upstream_file_itself_still_takes_its_code(tmp_path: Path) -> None:
    rows = _lines(tmp_path, "# Adapted from https://github.com/upstream-org/up/blob/main/up/ops/back.py\n")
    assert len(rows) > 15
    assert (rows["match"] != "none").all() and (rows["shared_origin"] == "").all()
