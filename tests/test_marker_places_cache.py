"""The upstream places of the target's markers, kept between runs (``lineage.side_cache``:
:func:`cached_places`, :func:`store_places`; round speed171): a rerun against the same upstream
files reads them instead of resolving each marker again, an entry made for other upstream files
or other code is never read, and a run with the cache gives what a cacheless run gives."""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen

import lineage.api as api
import lineage.match.store as match_store
from lineage.api import compare
from lineage.settings import RunSettings
from lineage.side_cache import SIDE_VERSION, cached_places, store_places

_BODY = "".join(f"def worker_step_{k}(state, rank={k}):\n"
                f"    ready_{k} = prepare_worker_state(state, device=rank + {k * 5})\n"
                f"    return launch_worker_loop(ready_{k}, rank, offset={k * 3})\n\n\n" for k in range(4))
_TARGET = {"mypkg/__init__.py": "", "mypkg/runner.py": "# Adapted from vllm/worker/gpu_worker.py\n" + _BODY}


def _fake_files(paths_digests: dict[str, str]) -> list[list[object]]:
    class _F:
        def __init__(self, path: str, digest: str) -> None:
            self.path, self.digest = path, digest

    return [[_F(p, d) for p, d in paths_digests.items()]]


def test_places_are_read_back_for_the_same_upstream_files_only(tmp_path: Path) -> None:
    files = _fake_files({"vllm/worker/gpu_worker.py": "a1", "vllm/worker/tpu_worker.py": "b2"})
    key = ("vllm/worker/gpu_worker.py", "", "", "# Adapted from vllm/worker/gpu_worker.py")
    assert cached_places(tmp_path, ["vllm"], files) == {}  # nothing kept yet
    store_places(tmp_path, ["vllm"], files, {key: "vllm/worker/gpu_worker.py"})
    assert cached_places(tmp_path, ["vllm"], files) == {key: "vllm/worker/gpu_worker.py"}
    assert cached_places(None, ["vllm"], files) == {}  # no cache, nothing read
    # a file of the upstream changed (its digest), moved, or another upstream label: not read
    assert cached_places(tmp_path, ["vllm"], _fake_files({"vllm/worker/gpu_worker.py": "a9",
                                                          "vllm/worker/tpu_worker.py": "b2"})) == {}
    assert cached_places(tmp_path, ["vllm"], _fake_files({"vllm/v1/worker/gpu_worker.py": "a1",
                                                          "vllm/worker/tpu_worker.py": "b2"})) == {}
    assert cached_places(tmp_path, ["other"], files) == {}


def test_places_made_by_other_code_are_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _fake_files({"vllm/worker/gpu_worker.py": "a1"})
    key = ("vllm/worker/gpu_worker.py", "", "", "x")
    store_places(tmp_path, ["vllm"], files, {key: "vllm/worker/gpu_worker.py"})
    assert cached_places(tmp_path, ["vllm"], files) == {key: "vllm/worker/gpu_worker.py"}
    monkeypatch.setattr(match_store, "code_fingerprint", lambda *args, **kwargs: "other code")
    assert cached_places(tmp_path, ["vllm"], files) == {}


def test_a_damaged_entry_is_a_miss_and_removed(tmp_path: Path) -> None:
    files = _fake_files({"vllm/worker/gpu_worker.py": "a1"})
    store_places(tmp_path, ["vllm"], files, {("p", "", "", "t"): "p"})
    [entry] = (tmp_path / f"side-v{SIDE_VERSION}" / "places").glob("*/*.rec")
    entry.write_bytes(entry.read_bytes()[:-3])
    assert cached_places(tmp_path, ["vllm"], files) == {}
    assert not entry.exists()


def _marker_place(target: Path, upstream: Path, cache: Path | None) -> str:
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=cache, jobs=1,
                                                                               use_cache=cache is not None))
    row = comparison.files.set_index("target_path").loc["mypkg/runner.py"]
    return str(row["marker_upstream_path"])


def test_a_rerun_against_moved_upstream_files_resolves_the_marker_afresh(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = treegen.write_tree(tmp_path / "target", _TARGET)
    before = treegen.write_tree(tmp_path / "up1", {"vllm/__init__.py": "", "vllm/worker/gpu_worker.py": _BODY,
                                                   "vllm/worker/tpu_worker.py": "x = 1\n"})
    # vLLM 0.7's move: the marker's path is gone, the file of its name with the most trailing folders
    after = treegen.write_tree(tmp_path / "up2", {"vllm/__init__.py": "", "vllm/v1/worker/gpu_worker.py": _BODY,
                                                  "vllm/worker/tpu_worker.py": "x = 1\n"})
    cache = tmp_path / "cache"
    assert _marker_place(target, before, cache) == "vllm/worker/gpu_worker.py"
    assert list((cache / f"side-v{SIDE_VERSION}" / "places").glob("*/*.rec"))  # kept
    calls: list[str] = []
    resolve = api.resolve_marker_path
    monkeypatch.setattr(api, "resolve_marker_path", lambda m, *args: calls.append(m.path) or resolve(m, *args))
    assert _marker_place(target, before, cache) == "vllm/worker/gpu_worker.py"  # read back, not resolved
    assert "vllm/worker/gpu_worker.py" not in calls
    assert _marker_place(target, after, cache) == "vllm/v1/worker/gpu_worker.py" == _marker_place(target, after, None)
    assert _marker_place(target, before, cache) == "vllm/worker/gpu_worker.py" == _marker_place(target, before, None)
