"""Tests for lineage.match.renames: a renamed package's files keep their relative paths.

The trees are made here: a package ``oldpkg`` whose modules a fork copied below ``newpkg``, and
one module it rewrote so far that no region forms; the thresholds come from MatchParams.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import Runner, file_lines
from test_fill import _REWRITTEN_TARGET, _REWRITTEN_UP, _SURVIVORS

from lineage.api import Comparison
from lineage.match import MatchParams
from lineage.match.renames import (
    BELOW_RENAME,
    FolderVote,
    best_upstream_files,
    folder_renames,
    folder_votes,
    renamed_paths,
    renamed_upstream_paths,
    upstream_votes,
    vote_place,
)


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
    assert MatchParams().rename_folders == 1  # on by default
    off = run_compare(target, [("up", upstream)], params=MatchParams(rename_folders=0))
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
    votes = upstream_votes({0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, u_paths, len(t_paths))
    assert votes == u_paths
    # new/: 3 of its 5 copying files keep their path below old/ (a, sub/b, c); mine/x.py alone is no rename.
    assert folder_renames(t_paths, votes, p) == {"new": "old"}
    assert folder_renames(t_paths, votes, MatchParams(rename_folders=1, rename_min_share=0.7)) == {}
    assert folder_renames(t_paths, votes, MatchParams(rename_folders=1, rename_min_files=4)) == {}
    assert folder_renames(t_paths, votes, MatchParams(rename_folders=1, rename_min_files=0)) == {}
    assert folder_renames(t_paths, votes, MatchParams(rename_folders=0)) == {}
    # A file with no vote does not count in its folder's share: new/d.py and new/e.py without
    # one leave 3 of 3.
    assert folder_renames(t_paths, votes[:3] + [None, None] + votes[5:],
                          MatchParams(rename_folders=1, rename_min_share=0.7)) == {"new": "old"}
    # The same path on both sides is a same-path pair, no rename.
    assert folder_renames(["a/b.py"] * 3, ["a/b.py"] * 3, p) == {}



def test_a_split_or_private_module_votes_for_the_folders_it_keeps() -> None:
    """A vote whose paths share not even the file name shows a folder pair when the target file
    is a part of the upstream module split into a package of its name, or the module with one
    leading underscore more or less; each kind has its knob, and nothing else counts."""
    p = MatchParams()
    assert p.rename_split_votes == 1 and p.rename_private_votes == 1  # on by default
    assert vote_place("pypdf/generic/_base.py", "PyPDF2/generic.py", p) == ("pypdf", "PyPDF2")
    assert vote_place("pypdf/generic/__init__.py", "PyPDF2/generic.py", p) == ("pypdf", "PyPDF2")
    assert vote_place("pypdf/_merger.py", "PyPDF2/merger.py", p) == ("pypdf", "PyPDF2")
    assert vote_place("new/sub/tools.py", "old/sub/_tools.py", p) == ("new", "old")  # made public
    assert vote_place("pypdf/filters.py", "PyPDF2/filters.py", p) == ("pypdf", "PyPDF2")  # as before
    # a module split into sibling modules keeps no place; nor does a dunder name lose an underscore
    assert vote_place("pypdf/_page.py", "PyPDF2/pdf.py", p) is None
    assert vote_place("new/__init__.py", "old/_init__.py", p) is None
    # the same place after the change is no folder rename
    assert vote_place("pkg/_merger.py", "pkg/merger.py", p) is None
    assert vote_place("pkg/generic/_base.py", "pkg/generic.py", p) is None
    assert vote_place("generic/_base.py", "generic.py", p) is None
    assert vote_place("pypdf/generic/_base.py", "PyPDF2/generic.py", MatchParams(rename_split_votes=0)) is None
    assert vote_place("pypdf/_merger.py", "PyPDF2/merger.py", MatchParams(rename_private_votes=0)) is None


def test_a_restructured_package_rename_is_learnt() -> None:
    """pypdf 3.17.4's 17 voting files against PyPDF2 1.26.0 (votes as the pair's run gives
    them): 3 keep their names, 4 are parts of ``generic.py`` split into ``generic/``, 2 modules
    made private, 8 parts of ``pdf.py`` and ``utils.py`` split into modules of other names.
    3 of 17 is no rename; 9 of 17 is."""
    votes = {"filters.py": "filters.py", "pagerange.py": "pagerange.py", "xmp.py": "xmp.py",
             "generic/_base.py": "generic.py", "generic/_data_structures.py": "generic.py",
             "generic/_rectangle.py": "generic.py", "generic/_utils.py": "generic.py",
             "_merger.py": "merger.py", "_utils.py": "utils.py",
             "_page.py": "pdf.py", "_reader.py": "pdf.py", "_writer.py": "pdf.py", "_encryption.py": "pdf.py",
             "generic/__init__.py": "pdf.py", "annotations/_markup_annotations.py": "pdf.py",
             "errors.py": "utils.py", "_crypt_providers/_fallback.py": "utils.py"}
    t_paths = [f"pypdf/{t}" for t in votes] + ["pypdf/papersizes.py"]
    u_votes: list[str | None] = [f"PyPDF2/{u}" for u in votes.values()] + [None]
    assert folder_renames(t_paths, u_votes, MatchParams()) == {"pypdf": "PyPDF2"}
    [vote] = folder_votes(t_paths, u_votes, MatchParams())
    assert (vote.files, vote.voting_below) == (9, 17)
    old = MatchParams(rename_split_votes=0, rename_private_votes=0)
    assert folder_renames(t_paths, u_votes, old) == {}
    assert [(v.files, v.learnt) for v in folder_votes(t_paths, u_votes, old)] == [(3, False)]


def test_a_file_sharing_a_third_partys_copy_casts_no_vote() -> None:
    """A vote for an upstream file that is not the upstream's own code counts only when the
    target file's markers name the upstream (``rename_own_votes``)."""
    t_paths = ["vis/a.py", "vis/b.py", "vis/c.py"]
    votes = ["up/models/a.py", "up/models/b.py", "up/models/c.py"]
    assert folder_renames(t_paths, votes, _ON) == {"vis": "up/models"}
    not_own = {"up/models/a.py", "up/models/b.py"}
    assert folder_renames(t_paths, votes, _ON, not_own) == {}
    assert folder_renames(t_paths, votes, _ON, not_own, [True, False, False]) == {}
    assert folder_renames(t_paths, votes, _ON, not_own, [True, True, False]) == {"vis": "up/models"}
    off = MatchParams(rename_folders=1, rename_own_votes=0)
    assert folder_renames(t_paths, votes, off, not_own) == {"vis": "up/models"}


def test_files_named_after_the_models_both_took_from_a_third_party_are_no_rename(run_compare: Runner) -> None:
    """lmdeploy 0.6.4 against vLLM 0.6.4.post1: vl/model/{internvl,minicpmv,mllama}.py share the
    code vLLM's files of those names say they adapted from OpenGVLab, transformers and Hugging
    Face; as votes they made vl/model/ a rename of model_executor/models/, and the same-place
    exemption counted that third-party code as copied from vLLM (186 code lines with molmo.py
    and utils.py, kept by the rename). Unnamed files that share a third party's code cast no
    vote: the lines are shared third-party code, not copied."""
    names = ("alpha", "beta", "gamma")
    header = "# Adapted from https://github.com/zooorg/modelzoo/blob/main/{}.py\n"
    upstream = {"up/__init__.py": "", "up/models/__init__.py": ""}
    upstream |= {f"up/models/{n}.py": header.format(n) + _module(n) for n in names}
    target = {"tgt/__init__.py": "", "tgt/vis/__init__.py": ""} | {f"tgt/vis/{n}.py": _module(n) for n in names}
    comparison = run_compare(target, [("up", upstream)], params=_ON)
    frame = file_lines(comparison, "tgt/vis/alpha.py")
    code = frame[frame["kind"] == "code"]
    assert set(code["match"]) == {"none"} and set(code["shared_origin"]) == {"third_party:modelzoo"}
    off = run_compare(target, [("up", upstream)], params=MatchParams(rename_folders=1, rename_own_votes=0))
    assert set(file_lines(off, "tgt/vis/alpha.py").query("kind == 'code'")["match"]) == {"verbatim"}


def test_renamed_paths() -> None:
    assert renamed_paths("nextcord/ext/commands/core.py", {"nextcord": "discord"}) == {
        "discord/ext/commands/core.py"}
    assert renamed_paths("other/core.py", {"nextcord": "discord"}) == set()
    assert renamed_paths("nextcordx/core.py", {"nextcord": "discord"}) == set()
    assert renamed_paths("six.py", {"": "pip/_vendor"}) == {"pip/_vendor/six.py"}
    assert renamed_paths("src/pkg/a.py", {"src/pkg": ""}) == {"a.py"}
    # What a cached entry is checked on: only the renamed paths an upstream file has.
    renames = {"new": "old", "": "vendored"}
    # Last, with the weak-pair rule on, a mark that the file is below a renamed folder at all
    # (the rule reads it); with the rule off nothing reads it, and it is left out.
    upstream = {"old/a.py", "vendored/new/a.py", "x.py"}
    assert renamed_upstream_paths("new/a.py", renames, upstream, weak_pairs=True) == (
        "old/a.py", "vendored/new/a.py", BELOW_RENAME)
    assert renamed_upstream_paths("new/a.py", renames, upstream, weak_pairs=False) == ("old/a.py", "vendored/new/a.py")
    assert renamed_upstream_paths("new/a.py", renames, {"old/b.py"}, weak_pairs=True) == (BELOW_RENAME,)
    assert renamed_upstream_paths("new/a.py", renames, {"old/b.py"}, weak_pairs=False) == ()
    assert renamed_upstream_paths("other/a.py", {"new": "old"}, {"old/b.py"}, weak_pairs=True) == ()


_TABLES = ("lines.csv", "files.csv", "regions.csv", "functions.csv")


def _sync(root: Path, files: dict[str, str]) -> Path:
    """Make ``root`` hold exactly ``files`` (a file left out is removed)."""
    import shutil

    import treegen

    shutil.rmtree(root, ignore_errors=True)
    return treegen.write_tree(root, files)


def _run(t_root: Path, u_root: Path, cache: Path, out: Path, **settings: object) -> tuple[Comparison, dict[str, bytes]]:
    """A comparison with cache ``cache`` (rule on) and its four tables as written."""
    from lineage.api import compare
    from lineage.settings import RunSettings

    comparison = compare(str(t_root), [str(u_root)], params=_ON,
                         settings=RunSettings(cache_dir=cache, **settings))  # type: ignore[arg-type]
    comparison.write(out, html=False, formats=())
    return comparison, {name: (out / name).read_bytes() for name in _TABLES}


# Beside the package, files of the target's own that no rename touches: their entries stay
# valid, and they are enough files for the table cache to reuse rows when five files change.
_OWN = {f"tools/helper{k}.py": _module(f"helper{k}") for k in range(20)}


def test_a_rerun_of_one_changed_file_gives_the_cold_tables(tmp_path: Path) -> None:
    """The rename is learnt from the whole tree: the changed rewritten module, matched alone (the
    other files cached), still sees it (the cached files vote from their entries) and keeps its
    survivors; every table is written as a cold run writes it, with and without the table cache."""
    target, upstream = _trees(_COPIED)
    t_root = _sync(tmp_path / "target", target | _OWN)
    u_root = _sync(tmp_path / "up", upstream)
    edited = t_root / "newpkg" / "transport.py"
    for reuse in (True, False):
        cache = tmp_path / f"cache-{reuse}"
        edited.write_text(_REWRITTEN_TARGET)
        _run(t_root, u_root, cache, tmp_path / "first", reuse_tables=reuse)
        edited.write_text(_REWRITTEN_TARGET + "\nEXTRA_SETTING_OF_THE_FORK = 1\n")
        rerun, written = _run(t_root, u_root, cache, tmp_path / f"rerun-{reuse}", reuse_tables=reuse)
        cold, cold_written = _run(t_root, u_root, tmp_path / f"cold-{reuse}", tmp_path / f"cold-{reuse}-out")
        assert written == cold_written
        assert rerun.match_cache_misses == 1  # the edited file alone was matched
        if reuse:
            assert rerun.table_rows_reused == len(rerun.target.files) - 1
        else:
            assert rerun.match_cache_hits == len(rerun.target.files) - 1
        copied = file_lines(rerun, "newpkg/transport.py")
        assert set(copied.loc[copied["match"] != "none", "line"]) >= _SURVIVORS


@pytest.mark.parametrize("reuse", [True, False])
def test_a_rename_that_comes_or_goes_rematches_the_files_below_it(tmp_path: Path, reuse: bool) -> None:
    """The rewritten module never changes, but the files around it do: three more modules copied
    below the new name make the rename (the cached module, matched without it, is matched again
    and gains its survivors); removing them again undoes it (it loses them). Each rerun writes the
    tables of a cold run; the files no rename touches are never matched again (with the table
    cache, their rows are reused)."""
    few, many = _trees(_COPIED[:1])[0] | _OWN, _trees(_COPIED)[0] | _OWN
    upstream = _trees(_COPIED)[1]
    u_root = _sync(tmp_path / "up", upstream)
    cache = tmp_path / "cache"
    survivors = []
    for step, target in enumerate((few, many, few, many)):
        t_root = _sync(tmp_path / "target", target)
        rerun, written = _run(t_root, u_root, cache, tmp_path / f"run{step}", reuse_tables=reuse)
        cold, cold_written = _run(t_root, u_root, tmp_path / f"cold{step}", tmp_path / f"cold{step}-out")
        assert written == cold_written, step
        frame = file_lines(rerun, "newpkg/transport.py")
        survivors.append(set(frame.loc[frame["match"] != "none", "line"]) >= _SURVIVORS)
        if step:
            assert rerun.match_cache_hits + rerun.table_rows_reused >= len(_OWN)
            if reuse:  # (the stored tables may be of the tree two steps back: a few files' rows rebuilt
                # do not rewrite them, lineage.results.reuse)
                assert rerun.table_rows_reused >= len(_OWN)
            else:
                assert rerun.match_cache_misses >= 2  # transport.py (unchanged) and alpha.py matched again
    assert survivors == [False, True, False, True]


def test_two_match_workers_give_the_same_tables(tmp_path: Path) -> None:
    """Cold and after one changed file, in two forked workers from one file on: the tables of a
    run in one process."""
    from lineage.match.workers import MatchWorkers

    if MatchWorkers(jobs=2, min_files=1).processes(2) == 0:
        pytest.skip("no fork here: the files are matched in the calling process")
    target, upstream = _trees(_COPIED)
    t_root = _sync(tmp_path / "target", target | _OWN)
    u_root = _sync(tmp_path / "up", upstream)
    _, one = _run(t_root, u_root, tmp_path / "one", tmp_path / "one-out", jobs=1)
    _, two = _run(t_root, u_root, tmp_path / "two", tmp_path / "two-out", jobs=2, match_min_files=1)
    assert one == two
    edited = t_root / "newpkg" / "transport.py"
    edited.write_text(_REWRITTEN_TARGET + "\nEXTRA_SETTING_OF_THE_FORK = 1\n")
    _, cold = _run(t_root, u_root, tmp_path / "cold", tmp_path / "cold-out", jobs=1)
    _, rerun = _run(t_root, u_root, tmp_path / "two", tmp_path / "rerun-out", jobs=2, match_min_files=1,
                    reuse_tables=False)
    assert rerun == cold


def test_memos_across_trees_give_each_tree_its_own_figures(tmp_path: Path) -> None:
    """As ``history`` runs them: one tree after another with the match memo and the files-table
    memo kept between them (the rename made, undone, made again, then one file edited); each
    files table equals that of its tree compared alone."""
    from lineage.api import compare_trees
    from lineage.index import IndexCache, index_tree
    from lineage.sources import open_source

    few, many = _trees(_COPIED[:1])[0] | _OWN, _trees(_COPIED)[0] | _OWN
    edited = many | {"newpkg/transport.py": _REWRITTEN_TARGET + "\nEXTRA_SETTING_OF_THE_FORK = 1\n"}
    cache = IndexCache(None)
    with open_source(str(_sync(tmp_path / "up", _trees(_COPIED)[1]))) as source:
        up = index_tree(source, cache)
    match_memo: dict = {}
    rows_memo: dict = {}
    for step, files in enumerate((many, few, many, edited, few)):
        with open_source(str(_sync(tmp_path / "target", files))) as source:
            tree = index_tree(source, cache)
        kept = compare_trees(tree, [up], _ON, figures_only=True, match_memo=match_memo, file_rows_memo=rows_memo)
        alone = compare_trees(tree, [up], _ON, figures_only=True)
        pd.testing.assert_frame_equal(kept.files, alone.files, obj=f"tree {step}")


def test_a_file_votes_the_same_alone_and_in_the_whole_tree(tmp_path: Path) -> None:
    """A file's vote depends on that file alone: what lets a cached file's vote stand for it."""
    import numpy as np

    from lineage.index import IndexCache, index_tree
    from lineage.match import Side, match_sides
    from lineage.sources import open_source

    target, upstream = _trees(_COPIED)
    trees = []
    for name, files in (("target", target | _OWN), ("up", upstream)):
        with open_source(str(_sync(tmp_path / name, files))) as source:
            trees.append(index_tree(source, IndexCache(None)))

    def side(files: list, tree: object) -> Side:
        return Side(files, lambda k: tree.lines(files[k].path), np.zeros(len(files), np.int32))  # type: ignore[attr-defined]

    up_side = side(trees[1].files, trees[1])
    whole = match_sides(side(trees[0].files, trees[0]), up_side, _ON)
    assert whole.votes.count(None) == len(_OWN)  # tools/ copies nothing
    assert {v for v in whole.votes if v} == {f"oldpkg/{n}.py" for n in (*_COPIED, "transport")}
    for t, f in enumerate(trees[0].files):
        assert match_sides(side([f], trees[0]), up_side, _ON).votes == [whole.votes[t]], f.path


def test_folder_votes_say_each_pair_learnt_or_not() -> None:
    """The pairs ``rename_min_files`` files voted for, learnt or not, with their counts (summary.json
    ``folder_renames``): pypdf 3.17.4's 3 of 17 voting files keeping their PyPDF2 place were no
    rename, and no report said so."""
    t_paths = ["new/a.py", "new/sub/b.py", "new/c.py", "new/d.py", "new/e.py", "mine/x.py"]
    u_paths = ["old/a.py", "old/sub/b.py", "old/c.py", "elsewhere/q.py", "old/zz.py", "old/x.py"]
    votes = upstream_votes({k: k for k in range(6)}, u_paths, len(t_paths))
    assert folder_votes(t_paths, votes, _ON) == [FolderVote("new", "old", 3, 5, True)]
    strict = MatchParams(rename_folders=1, rename_min_share=0.7)
    assert folder_votes(t_paths, votes, strict) == [FolderVote("new", "old", 3, 5, False)]
    assert folder_renames(t_paths, votes, strict) == {}
    # under rename_min_files no pair is reported (mine/x.py alone), nor with the rule off
    assert folder_votes(t_paths, votes, MatchParams(rename_folders=1, rename_min_files=4)) == []
    assert folder_votes(t_paths, votes, MatchParams(rename_folders=0)) == []
    assert FolderVote("new", "old", 3, 5, False).to_dict() == {
        "target_folder": "new", "upstream_folder": "old", "files": 3, "voting_files_below": 5, "learnt": False}


@pytest.mark.parametrize(("share", "verdict"), [(0.5, "learnt"), (1.0, "not learnt")])
def test_summary_says_which_folder_renames_were_learnt(run_compare: Runner, share: float, verdict: str) -> None:
    from lineage.report.summary import summary_dict, summary_markdown

    target, upstream = _trees(_COPIED)  # 4 copied modules and the rewritten one keep their place: 5 of 5
    target["newpkg/mine.py"] = _module("epsilon")
    upstream["oldpkg/theirs.py"] = _module("epsilon")  # a sixth voting file below newpkg/, elsewhere upstream
    params = MatchParams(rename_folders=1, rename_min_share=share)
    comparison = run_compare(target, [("up", upstream)], params=params)
    (vote,) = summary_dict(comparison)["folder_renames"]  # type: ignore[misc]
    assert (vote["target_folder"], vote["upstream_folder"], vote["learnt"]) == ("newpkg", "oldpkg", share < 1)
    assert vote["files"] < vote["voting_files_below"] == 6
    text = summary_markdown(comparison)
    assert f"`newpkg/` as `oldpkg/` {verdict} ({vote['files']} of 6 files)" in text
    # no pair voted for: no sentence
    alone, up_alone = _trees(_COPIED[:1])
    assert "Folder renames" not in summary_markdown(run_compare(alone, [("up", up_alone)], params=_ON))
