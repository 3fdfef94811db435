"""A rerun after one changed target file, through the command's path (whole-result cache, table
cache, match cache, reporters in two forked processes), writes the bytes a cold run of the
changed tree writes, also when the change reaches target files that did not change.

The one rule that carries a change across target files is the folder rename
(:mod:`lineage.match.renames`): here one edited file (``newpkg/gamma.py`` becoming a copy of
``oldpkg/gamma.py``) casts the vote that makes ``newpkg`` -> ``oldpkg`` a rename, and the
unchanged ``newpkg/transport.py``, rewritten too far for a region of its own, is then paired with
``oldpkg/transport.py`` and gains its survivors; editing it into own code again takes them away.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from test_fill import _REWRITTEN_TARGET, _REWRITTEN_UP, _SURVIVORS
from test_renames import _module, _sync

import lineage.results.reuse as reuse
from lineage.compare_and_write import compare_and_write
from lineage.settings import RunSettings

FIGURES = ("lines.csv", "files.csv", "regions.csv", "functions.csv", "summary.json")


@pytest.fixture(autouse=True)
def _fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the attachments' creation time


def _target(gamma: str) -> dict[str, str]:
    files = {"newpkg/alpha.py": _module("alpha"), "newpkg/beta.py": _module("own_beta"),
             "newpkg/gamma.py": _module(gamma)}
    files["newpkg/transport.py"] = _REWRITTEN_TARGET
    # files of the target's own that no rename touches: enough for the table cache to reuse rows
    return files | {f"tools/helper{k}.py": _module(f"helper{k}") for k in range(20)}


def _run(target: Path, upstream: Path, cache: Path, out: Path) -> dict[str, bytes]:
    compare_and_write(str(target), [str(upstream)], out, settings=RunSettings(cache_dir=cache, jobs=2), html=False)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.name != "manifest.json"}


def _copied_lines(lines_csv: bytes, path: str) -> set[int]:
    rows = csv.DictReader(io.StringIO(lines_csv.decode("utf-8")))
    return {int(r["line"]) for r in rows if r["target_path"] == path and r["match"] != "none"}


def test_a_changed_file_rerun_writes_a_cold_runs_bytes_also_where_the_change_reaches_other_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    upstream = _sync(tmp_path / "up", {f"oldpkg/{n}.py": _module(n) for n in ("alpha", "beta", "gamma", "delta")}
                     | {"oldpkg/transport.py": _REWRITTEN_UP})
    cache = tmp_path / "cache"
    target = _sync(tmp_path / "target", _target("own_gamma"))
    first = _run(target, upstream, cache, tmp_path / "first")
    assembled: list[bool] = []
    original = reuse.assemble
    monkeypatch.setattr(reuse, "assemble", lambda *a: assembled.append((found := original(*a)) is not None) or found)
    transport = [_copied_lines(first["lines.csv"], "newpkg/transport.py")]
    # copied, then own code again (other code than the first run's: a whole-result cache hit otherwise)
    for step, gamma in enumerate(("gamma", "own_gamma_again")):
        (target / "newpkg/gamma.py").write_text(_module(gamma), encoding="utf-8")
        assembled.clear()
        warm = _run(target, upstream, cache, tmp_path / f"warm{step}")
        assert assembled == [True], step  # the other files' rows were reused, not built again
        cold = _run(target, upstream, tmp_path / f"cold-cache{step}", tmp_path / f"cold{step}")
        assert set(warm) == set(cold) and set(FIGURES) <= set(cold)
        for name in cold:
            assert warm[name] == cold[name], (step, name)
        transport.append(_copied_lines(warm["lines.csv"], "newpkg/transport.py"))
    # the edit reached the unchanged transport.py: its survivors are copied with the rename only
    assert not transport[0] >= _SURVIVORS and transport[1] >= _SURVIVORS and transport[2] == transport[0]
