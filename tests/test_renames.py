"""Tests for lineage.match.renames: a renamed package's files keep their relative paths.

The trees are made here: a package ``oldpkg`` whose modules a fork copied below ``newpkg``, and
one module it rewrote so far that no region forms; the thresholds come from MatchParams.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from conftest import Runner, file_lines
from test_fill import _REWRITTEN_TARGET, _REWRITTEN_UP, _SURVIVORS

from lineage.match import MatchParams
from lineage.match.renames import best_upstream_files, folder_renames, renamed_paths


def _module(name: str) -> str:
    """A module of distinctive lines, unlike every other module made here."""
    return "".join(f"def {name}_step_{k}(value, scale={k}):\n"
                   f"    checked_{name} = validate_{name}_input(value, limit={k * 7})\n"
                   f"    return combine_{name}_parts(checked_{name}, scale, offset={k * 3})\n\n\n"
                   for k in range(4))


_COPIED = ("alpha", "beta", "gamma", "delta")
_ON = MatchParams(rename_folders=1)


def _trees(copied: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
    upstream = {f"oldpkg/{n}.py": _module(n) for n in _COPIED} | {"oldpkg/transport.py": _REWRITTEN_UP}
    target = {f"newpkg/{n}.py": _module(n) for n in copied} | {"newpkg/transport.py": _REWRITTEN_TARGET}
    target |= {f"newpkg/own_{n}.py": _module(f"own_{n}") for n in _COPIED[len(copied):]}
    return target, upstream


def test_a_file_of_a_renamed_package_is_paired_with_its_old_path(run_compare: Runner) -> None:
    """Four modules copied below the new name show the rename; the rewritten transport module,
    with no region of its own, is then established with ``oldpkg/transport.py`` and its lone
    survivors are copied (with the rule off, nothing of it is)."""
    target, upstream = _trees(_COPIED)
    comparison = run_compare(target, [("up", upstream)], params=_ON)
    frame = file_lines(comparison, "newpkg/transport.py")
    copied = frame[frame["match"] != "none"]
    assert set(copied["line"]) >= _SURVIVORS
    assert set(copied["upstream_path"]) == {"oldpkg/transport.py"}
    off = run_compare(target, [("up", upstream)])  # off by default
    assert set(file_lines(off, "newpkg/transport.py")["match"]) == {"none"}
    alpha = file_lines(off, "newpkg/alpha.py")
    assert set(alpha[alpha["kind"] == "code"]["match"]) == {"verbatim"}


def test_too_few_files_are_no_rename(run_compare: Runner) -> None:
    """One copied module, and the rewritten one's own weak runs, are two files (under
    rename_min_files): no rename, and the rewritten module's survivors stay none, as in a file
    of another path."""
    target, upstream = _trees(_COPIED[:1])
    comparison = run_compare(target, [("up", upstream)], params=_ON)
    assert set(file_lines(comparison, "newpkg/transport.py")["match"]) == {"none"}


def test_best_upstream_files_sum_the_runs_of_each_pair() -> None:
    import numpy as np

    t = np.array([0, 0, 0, 1, 1], np.int64)
    u = np.array([5, 6, 6, 7, 8], np.int64)
    w = np.array([10.0, 6.0, 6.0, 3.0, 3.0])
    assert best_upstream_files(t, u, w) == {0: 6, 1: 7}  # 12 against 10; a tie to the lower number
    assert best_upstream_files(t[:0], u[:0], w[:0]) == {}


def test_folder_renames_need_enough_files_and_most_of_the_folder() -> None:
    t_paths = ["new/a.py", "new/sub/b.py", "new/c.py", "new/d.py", "new/e.py", "mine/x.py"]
    u_paths = ["old/a.py", "old/sub/b.py", "old/c.py", "elsewhere/q.py", "old/zz.py", "old/x.py"]
    p = _ON
    best = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5}
    # new/: 3 of its 5 copying files keep their path below old/ (a, sub/b, c); mine/x.py alone is no rename.
    assert folder_renames(t_paths, u_paths, best, p) == {"new": "old"}
    assert folder_renames(t_paths, u_paths, best, MatchParams(rename_folders=1, rename_min_share=0.7)) == {}
    assert folder_renames(t_paths, u_paths, best, MatchParams(rename_folders=1, rename_min_files=4)) == {}
    assert folder_renames(t_paths, u_paths, best, MatchParams(rename_folders=1, rename_min_files=0)) == {}
    assert folder_renames(t_paths, u_paths, best, MatchParams()) == {}  # off by default
    # The same path on both sides is a same-path pair, no rename.
    assert folder_renames(["a/b.py"] * 3, ["a/b.py"] * 3, {0: 0, 1: 1, 2: 2}, p) == {}


def test_renamed_paths() -> None:
    assert renamed_paths("nextcord/ext/commands/core.py", {"nextcord": "discord"}) == {
        "discord/ext/commands/core.py"}
    assert renamed_paths("other/core.py", {"nextcord": "discord"}) == set()
    assert renamed_paths("nextcordx/core.py", {"nextcord": "discord"}) == set()
    assert renamed_paths("six.py", {"": "pip/_vendor"}) == {"pip/_vendor/six.py"}
    assert renamed_paths("src/pkg/a.py", {"src/pkg": ""}) == {"a.py"}


def test_with_the_rule_on_a_rerun_of_one_changed_file_gives_the_cold_labels(tmp_path: Path) -> None:
    """The rename is learnt from the whole tree: matched alone (the other files cached), the
    changed rewritten module would see no rename and lose its survivors. With the rule on, no
    per-file cache is read, so a rerun after editing it labels it as a cold run does."""
    import treegen

    from lineage.api import compare
    from lineage.settings import RunSettings

    target, upstream = _trees(_COPIED)
    t_root = treegen.write_tree(tmp_path / "target", target)
    u_root = treegen.write_tree(tmp_path / "up", upstream)
    settings = RunSettings(cache_dir=tmp_path / "cache")
    compare(str(t_root), [str(u_root)], params=_ON, settings=settings)
    edited = t_root / "newpkg" / "transport.py"
    edited.write_text(edited.read_text() + "\nEXTRA_SETTING_OF_THE_FORK = 1\n")
    rerun = compare(str(t_root), [str(u_root)], params=_ON, settings=settings)
    cold = compare(str(t_root), [str(u_root)], params=_ON, settings=RunSettings(cache_dir=tmp_path / "cold"))
    for name in ("lines", "files", "regions", "functions"):
        pd.testing.assert_frame_equal(getattr(rerun, name), getattr(cold, name))
    copied = file_lines(rerun, "newpkg/transport.py")
    assert set(copied.loc[copied["match"] != "none", "line"]) >= _SURVIVORS
