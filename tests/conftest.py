"""Shared fixtures: synthetic trees on disk and a one-call comparison helper."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent))
if str(Path(__file__).parents[1]) not in sys.path:  # for `tests.eval` and `tests.golden`
    sys.path.insert(0, str(Path(__file__).parents[1]))

import treegen  # noqa: E402

from lineage.api import Comparison, compare  # noqa: E402
from lineage.settings import DEFAULT_MAX_FILE_BYTES, RunSettings  # noqa: E402

if TYPE_CHECKING:
    from lineage.match import MatchParams
    from lineage.match.labels import FileLabeller

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def script_module(name: str) -> ModuleType:
    """``scripts/<name>.py`` imported as a module (the scripts folder is not a package)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while it is being executed
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def small_eval(tmp_path_factory: pytest.TempPathFactory) -> tuple[pd.DataFrame, Path]:
    """The small eval suite, run once per session: (results frame, runs directory).

    Shared by the accuracy floor (``test_eval_small``) and the figures golden (``test_golden``).
    """
    from tests.golden.make_golden import run_small

    root = tmp_path_factory.mktemp("eval-small")
    results, runs_root = run_small(root)
    assert (root / "out" / "results.md").exists()
    return results, runs_root


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the user's cache directory from a test."""
    monkeypatch.setenv("LINEAGE_CACHE_DIR", str(tmp_path_factory.mktemp("lineage-cache")))


Runner = Callable[..., Comparison]


@pytest.fixture
def run_compare(tmp_path: Path) -> Runner:
    """Write a target tree and upstream trees under tmp_path and compare them (no cache).

    ``upstreams`` is a list of ``(directory name, {path: text})``; the directory name becomes
    the upstream's label.
    """
    counter = iter(range(1000))

    def run(target: dict[str, str | bytes], upstreams: Sequence[tuple[str, dict[str, str | bytes]]],
            **kwargs: object) -> Comparison:
        base = tmp_path / f"run{next(counter)}"
        t_root = treegen.write_tree(base / "target", target)
        up_roots = [str(treegen.write_tree(base / name, files)) for name, files in upstreams]
        settings = RunSettings(use_cache=False, jobs=1,
                               max_file_bytes=int(kwargs.pop("max_file_bytes", DEFAULT_MAX_FILE_BYTES)))  # type: ignore[call-overload]
        return compare(str(t_root), up_roots, settings=settings, **kwargs)  # type: ignore[arg-type]

    return run


def file_lines(comparison: Comparison, path: str) -> pd.DataFrame:
    """The lines table of one target file, indexed by 1-based line number."""
    frame = comparison.lines[comparison.lines["target_path"] == path]
    return frame.set_index("line", drop=False)


def make_labeller(tmp_path: Path, target: dict[str, str], upstream: dict[str, str],
                  params: MatchParams) -> FileLabeller:
    """A labeller of the first target file against the upstream files (both trees written under
    ``tmp_path`` and indexed), nothing paired yet: for rules tried on pairs set by hand."""
    import numpy as np

    from lineage.index import IndexCache, index_tree
    from lineage.match import Side
    from lineage.match.labels import FileLabeller
    from lineage.sources import open_source

    sides = []
    for name, files in (("target", target), ("upstream", upstream)):
        root = treegen.write_tree(tmp_path / name, files)
        with open_source(str(root)) as source:
            tree = index_tree(source, IndexCache(None), jobs=1)
        sides.append(Side(tree.files, lambda k, tree=tree: tree.lines(tree.files[k].path),
                          np.zeros(len(tree.files), np.int32)))
    return FileLabeller(sides[0], sides[1], 0, params)


def cached_wheel(cache: Path, name: str, version: str, files: dict[str, str], uploaded: str,
                 pinned: bool = False) -> str:
    """A wheel of ``name`` holding ``files`` in the download cache under ``cache``, published at
    ``uploaded`` (recorded beside it, so read offline); its ``pypi:`` spec, with its sha256 when
    ``pinned`` (else unpinned: the sha256 recorded beside it is checked)."""
    import hashlib
    import zipfile

    from lineage.sources import pypi

    wheel = cache / "downloads" / "pypi" / f"{name}-{version}" / f"{name}-{version}-py3-none-any.whl"
    wheel.parent.mkdir(parents=True)
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    sha = hashlib.sha256(wheel.read_bytes()).hexdigest()
    wheel.with_name(wheel.name + ".sha256").write_text(sha + "\n")
    pypi._record_publication(wheel, sha, pypi.Published(f"https://files.example/{wheel.name}", uploaded, uploaded))
    return f"pypi:{name}=={version}" + (f"#sha256={sha}" if pinned else "")
