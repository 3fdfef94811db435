"""Weak pairs (lineage.match.weak_pairs, ``weak_pair_min_run``, on by default): in a file whose
markers name no upstream, an upstream file neither named nor at the file's place keeps its lines
only with a run of that many identical code lines in order. Fixtures written here."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Runner, file_lines

from lineage.api import Comparison
from lineage.match import MatchParams

STRICT = MatchParams()  # the rule is on by default, a run of 5 (params: its measurements)
OFF = MatchParams(weak_pair_min_run=0)
CODE_RUNS = MatchParams(weak_pair_prose_runs=0)  # a run counts code lines only

_UP_BODY = [
    "    accumulator_of_tiles = allocate_the_tile_accumulator(block_rows, block_cols)",
    "    row_offsets_of_tile = compute_row_offsets_for_program(program_id, block_rows)",
    "    col_offsets_of_tile = compute_col_offsets_for_program(program_id, block_cols)",
    "    mask_of_valid_rows = row_offsets_of_tile < total_rows_in_matrix",
    "    loaded_left_operand = load_left_operand_tile(left_pointer, row_offsets_of_tile)",
    "    loaded_right_operand = load_right_operand_tile(right_pointer, col_offsets_of_tile)",
    "    accumulator_of_tiles += multiply_the_two_tiles(loaded_left_operand, loaded_right_operand)",
    "    scaled_accumulator = apply_the_output_scale(accumulator_of_tiles, output_scale_value)",
    "    store_the_output_tile(output_pointer, scaled_accumulator, mask_of_valid_rows)",
    "    return scaled_accumulator",
]
UPSTREAM = "def matmul_kernel_of_the_upstream(left_pointer, right_pointer, output_pointer):\n" + \
    "\n".join(_UP_BODY) + "\n"


# The target file's own second function: with it the pair holds well under half of the file's
# code lines (weak_pair_max_share)
_OWN_FUNCTION = "def our_own_scheduler_of_tiles(grid_rows, grid_cols):\n" + "\n".join(
    f"    scheduled_tile_{k} = choose_the_next_tile_to_run(grid_rows, grid_cols, {k})" for k in range(16)) + \
    "\n    return scheduled_tile_0\n"


def _target(run: int, header: str = "", own_function: bool = True) -> str:
    """The upstream body's first ``run`` lines in order, then the target's own lines, then the
    rest of the body broken into runs of at most ``run`` lines by more of its own; then (with
    ``own_function``) a function of the target's own."""
    own = iter(f"    own_step_number_{k} = prepare_something_of_our_own({k}, block_rows)" for k in range(20))
    body: list[str] = []
    for k, line in enumerate(_UP_BODY):
        if k and k % run == 0:
            body.append(next(own))
        body.append(line)
    return (header + "def our_own_gemm_kernel(left_pointer, right_pointer, output_pointer):\n" + "\n".join(body)
            + "\n" + ("\n\n" + _OWN_FUNCTION if own_function else ""))


def _copied(runner: Runner, target: str, path: str = "tgt/ops/gemm.py", **kwargs: object) -> int:
    frame = file_lines(runner({path: target}, [("up", {"up/kernels/matmul.py": UPSTREAM})], **kwargs), path)
    return int(frame["match"].isin(["verbatim", "near"]).sum())


def test_a_pair_of_short_runs_only_is_not_a_copy(run_compare: Runner) -> None:
    """Runs of 4 identical lines at most, in a file that names nothing, at another place: the
    pair keeps no line, by default; with the rule off its runs are copied."""
    assert MatchParams().judges_weak_pairs
    target = _target(4)
    assert _copied(run_compare, target, params=OFF) >= 8
    assert _copied(run_compare, target, params=STRICT) == 0


def test_a_run_long_enough_keeps_the_pair(run_compare: Runner) -> None:
    """One run of 5 identical code lines in order establishes the pair: every line stays."""
    target = _target(5)
    assert _copied(run_compare, target, params=STRICT) == _copied(run_compare, target, params=OFF) >= 8


def test_a_file_naming_the_upstream_keeps_short_runs(run_compare: Runner) -> None:
    """The same short runs in a file whose header says where they came from stay copied."""
    target = _target(4, header="# Adapted from https://github.com/up/up/blob/main/up/kernels/matmul.py\n")
    assert _copied(run_compare, target, params=STRICT) == _copied(run_compare, target, params=OFF) >= 8


def test_a_pair_holding_most_of_the_file_is_not_weak(run_compare: Runner) -> None:
    """Without the file's own function the pair holds most of its code lines
    (``weak_pair_max_share``): the file is the upstream file edited, and keeps its lines; a
    share of 1.0 judges it like any other pair."""
    target = _target(4, own_function=False)
    assert _copied(run_compare, target, params=STRICT) == _copied(run_compare, target, params=OFF) >= 8
    assert _copied(run_compare, target, params=MatchParams(weak_pair_max_share=1.0)) == 0


def test_a_file_at_an_upstream_place_keeps_short_runs(run_compare: Runner) -> None:
    """A target file standing at an upstream file's place descends from the upstream: short
    runs it holds from another upstream file are code moved within that history, kept."""
    upstream = {"up/kernels/matmul.py": UPSTREAM,
                "up/ops/gemm.py": "def placeholder_of_the_old_version(value):\n    return value\n"}
    target = _target(4)
    frames = [file_lines(run_compare({"up/ops/gemm.py": target}, [("up", upstream)], params=params), "up/ops/gemm.py")
              for params in (STRICT, OFF)]
    kept = [frame.loc[frame["upstream_path"] == "up/kernels/matmul.py", "match"].isin(["verbatim", "near"]).sum()
            for frame in frames]
    assert kept[0] == kept[1] >= 8



def test_a_part_of_a_split_module_keeps_short_runs(run_compare: Runner) -> None:
    """A target file where an upstream module would stand had it been split into a package of
    its name (``up/ops/gemm.py``, upstream ``up/ops.py``; ``fill_module_split``) descends from
    the upstream: short runs it holds from another upstream file are kept."""
    upstream = {"up/kernels/matmul.py": UPSTREAM,
                "up/ops.py": "def placeholder_of_the_old_module(value):\n    return value\n"}
    frames = [file_lines(run_compare({"up/ops/gemm.py": _target(4)}, [("up", upstream)], params=params),
                         "up/ops/gemm.py") for params in (STRICT, OFF)]
    kept = [int(frame["match"].isin(["verbatim", "near"]).sum()) for frame in frames]
    assert kept[0] == kept[1] >= 8

def _module(name: str) -> str:
    """A module of distinctive lines of its own, named ``name``."""
    return f"def {name}_entry_point(first_argument, second_argument):\n" + "\n".join(
        f"    {name}_value_{k} = compute_the_{name}_step(first_argument, second_argument, {k})" for k in range(8)) + \
        f"\n    return {name}_value_0\n"


def test_a_file_below_a_renamed_folder_keeps_short_runs(run_compare: Runner) -> None:
    """A tree that renamed the upstream's package (``up/`` -> ``tgt/``, learnt from its files at
    their renamed places) descends from the upstream: a file of it at a new place keeps the
    short runs it holds from an upstream file; the same file in a tree with no rename loses them."""
    modules = {f"{{}}/{name}.py": _module(name) for name in ("alpha", "beta", "gamma")}
    upstream = {path.format("up"): text for path, text in modules.items()} | {"up/kernels/matmul.py": UPSTREAM}
    renamed = {path.format("tgt"): text for path, text in modules.items()} | {"tgt/ops/gemm.py": _target(4)}
    alone = {"tgt/ops/gemm.py": _target(4)}
    copied = {}
    for name, tree in (("renamed", renamed), ("alone", alone)):
        frame = file_lines(run_compare(tree, [("up", upstream)], params=STRICT), "tgt/ops/gemm.py")
        copied[name] = int(frame["match"].isin(["verbatim", "near"]).sum())
    assert copied["alone"] == 0
    assert copied["renamed"] >= 8



def _restructured(params: MatchParams, run_compare: Runner) -> int:
    """Copied lines of ``tgt/ops/gemm.py`` (short runs of ``up/kernels/matmul.py``) in a tree that
    renamed the upstream's package ``up/`` -> ``tgt/`` and restructured it as pypdf did PyPDF2's:
    one module keeps its name (``alpha.py``), one is split into a package of its name
    (``shapes.py`` -> ``shapes/_circle.py``, ``shapes/_square.py``), one made private
    (``beta.py`` -> ``_beta.py``), one split into sibling modules that keep no place
    (``core.py`` -> ``_reader.py``, ``_writer.py``, ``_page.py``)."""
    upstream = {"up/alpha.py": _module("alpha"), "up/beta.py": _module("beta"),
                "up/shapes.py": _module("circle") + "\n\n" + _module("square"),
                "up/core.py": "\n\n".join(_module(n) for n in ("reader", "writer", "page")),
                "up/kernels/matmul.py": UPSTREAM}
    target = {"tgt/alpha.py": _module("alpha"), "tgt/_beta.py": _module("beta"),
              "tgt/shapes/_circle.py": _module("circle"), "tgt/shapes/_square.py": _module("square"),
              "tgt/_reader.py": _module("reader"), "tgt/_writer.py": _module("writer"),
              "tgt/_page.py": _module("page"), "tgt/ops/gemm.py": _target(4)}
    frame = file_lines(run_compare(target, [("up", upstream)], params=params), "tgt/ops/gemm.py")
    return int(frame["match"].isin(["verbatim", "near"]).sum())


def test_a_restructured_renamed_package_is_learnt_and_keeps_short_runs(run_compare: Runner) -> None:
    """The rename shows in 4 of the 8 voting files once a part of a split module
    (``rename_split_votes``) and a module made private (``rename_private_votes``) vote for the
    folder pair they keep (at their old places they would be ``tgt/shapes.py`` and
    ``tgt/beta.py``): learnt at ``rename_min_share`` 0.5, and the file below it keeps its short
    runs. Either kind of vote alone leaves the rename unlearnt (3 of 8 files; 2, under
    ``rename_min_files``) and the runs dropped, as in pypdf 3.17.4 against PyPDF2 1.26.0."""
    assert _restructured(STRICT, run_compare) >= 8
    assert _restructured(MatchParams(rename_split_votes=0), run_compare) == 0
    assert _restructured(MatchParams(rename_private_votes=0), run_compare) == 0


def _documented_function(name: str) -> str:
    """A two-line function under a docstring of six lines."""
    return (f"def fetch_the_{name}_resource(url, **kwargs):\n"
            f'    """Fetch the {name} resource at ``url``.\n\n'
            f"    :param url: where the {name} resource lives.\n"
            "    :param kwargs: passed on to the request as they are.\n"
            "    :return: the response of the server.\n"
            '    """\n'
            f'    return send_the_request_of_the_client("{name}", url, **kwargs)\n\n\n')


def test_a_run_steps_over_the_upstream_docstrings(run_compare: Runner) -> None:
    """Short functions of a docstring each, copied in order with their docstrings, are one run:
    a run counts the upstream's code lines, as the target's (before, each docstring broke it)."""
    functions = "".join(_documented_function(name) for name in ("first", "second", "third", "fourth", "fifth"))
    target = functions + _OWN_FUNCTION
    frame = file_lines(run_compare({"tgt/client/calls.py": target}, [("up", {"up/api.py": functions})],
                                   params=CODE_RUNS), "tgt/client/calls.py")
    code = frame[frame["kind"] == "code"]
    assert (code["match"] == "verbatim").sum() == 10


def _copied_code(runner: Runner, target: str, upstream: str, params: MatchParams) -> int:
    frame = file_lines(runner({"tgt/client/calls.py": target}, [("up", {"up/api.py": upstream})], params=params),
                       "tgt/client/calls.py")
    return int(frame.loc[frame["kind"] == "code", "match"].isin(["verbatim", "near"]).sum())


def test_a_docstring_copied_word_for_word_keeps_the_pair(run_compare: Runner) -> None:
    """One short function (two code lines) copied with its six-line docstring, beside the
    file's own code: no run of 5 code lines, but the docstring's lines in order count in the
    run (``weak_pair_prose_runs``), so the pair keeps its code; counting code lines only, it
    loses it (the synthetic suite's ``subset_functions`` copies of requests' ``api.py``)."""
    upstream = _documented_function("first") + _module("theirs")
    target = _documented_function("first") + _OWN_FUNCTION
    assert _copied_code(run_compare, target, upstream, STRICT) == _copied_code(run_compare, target, upstream, OFF) == 2
    assert _copied_code(run_compare, target, upstream, CODE_RUNS) == 0


_NOTICE = "".join(f"# {line}\n" for line in (
    "Copyright 2024 The Upstream Authors. All rights reserved.",
    "",
    'Licensed under the Apache License, Version 2.0 (the "License");',
    "you may not use this file except in compliance with the License.",
    "You may obtain a copy of the License at",
    "",
    "    http://www.apache.org/licenses/LICENSE-2.0",
    "",
    "Unless required by applicable law or agreed to in writing, software",
    'distributed under the License is distributed on an "AS IS" BASIS,',
    "WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.",
    "See the License for the specific language governing permissions and",
    "limitations under the License.",
)) + "\n"


def test_a_shared_licence_notice_is_no_run(run_compare: Runner) -> None:
    """The same Apache notice atop both files, labelled copied with the pair's short runs, is
    no evidence of descent (every Apache-licensed file carries it): it does not count in the
    run, and the pair keeps no line."""
    target, upstream = _NOTICE + _target(4), {"up/kernels/matmul.py": _NOTICE + UPSTREAM}
    frames = [file_lines(run_compare({"tgt/ops/gemm.py": target}, [("up", upstream)], params=params),
                         "tgt/ops/gemm.py") for params in (OFF, STRICT)]
    assert (frames[0].loc[frames[0]["kind"] == "comment", "match"] == "verbatim").sum() >= 5  # off: copied
    assert int(frames[1]["match"].isin(["verbatim", "near"]).sum()) == 0


def _rename_trees(tmp_path: Path) -> tuple[Path, Path, dict[str, str], dict[str, str]]:
    """An upstream root, a target root to fill, and two target trees: ``few`` (one module at its
    renamed place: no rename) and ``many`` (three: ``tgt/`` is ``up/`` renamed); in both,
    ``tgt/ops/gemm.py`` holds short runs of ``up/kernels/matmul.py`` and its renamed path has no
    upstream file."""
    import treegen

    modules = {f"{{}}/{name}.py": _module(name) for name in ("alpha", "beta", "gamma")}
    upstream = {path.format("up"): text for path, text in modules.items()} | {"up/kernels/matmul.py": UPSTREAM}
    few = {"tgt/alpha.py": modules["{}/alpha.py"], "tgt/ops/gemm.py": _target(4)}
    many = {path.format("tgt"): text for path, text in modules.items()} | {"tgt/ops/gemm.py": _target(4)}
    return treegen.write_tree(tmp_path / "up", upstream), tmp_path / "target", few, many


def _cached_run(t_root: Path, u_root: Path, cache: Path, out: Path, params: MatchParams,
                reuse: bool) -> tuple[Comparison, int, dict[str, bytes]]:
    """A comparison with cache ``cache``, the copied lines of ``tgt/ops/gemm.py`` and the tables
    as written."""
    from lineage.api import compare
    from lineage.settings import RunSettings

    comparison = compare(str(t_root), [str(u_root)], params=params,
                         settings=RunSettings(cache_dir=cache, reuse_tables=reuse))
    comparison.write(out, html=False, formats=())
    frame = file_lines(comparison, "tgt/ops/gemm.py")
    return (comparison, int(frame["match"].isin(["verbatim", "near"]).sum()),
            {name: (out / name).read_bytes() for name in ("lines.csv", "files.csv", "regions.csv")})


def _fill(root: Path, tree: dict[str, str]) -> None:
    import shutil

    import treegen

    shutil.rmtree(root, ignore_errors=True)
    treegen.write_tree(root, tree)


@pytest.mark.parametrize("reuse", [True, False])
def test_a_rename_that_comes_or_goes_rematches_a_judged_file(tmp_path: Path, reuse: bool) -> None:
    """A file below a folder that a tree renames only when enough of its modules are copied at
    their renamed places: its renamed path has no upstream file, so only the cache key's
    "below a renamed folder" mark (renames.BELOW_RENAME) tells a cached entry matched without
    the rename from one matched with it. With the rule on, each rerun over one cache writes the
    tables of a cold run: the short runs lost alone, kept below the rename, lost again."""
    u_root, t_root, few, many = _rename_trees(tmp_path)
    kept = []
    for step, tree in enumerate((few, many, few)):
        _fill(t_root, tree)
        _, copied, written = _cached_run(t_root, u_root, tmp_path / "cache", tmp_path / f"run{step}", STRICT, reuse)
        _, cold_copied, cold_written = _cached_run(t_root, u_root, tmp_path / f"cold{step}",
                                                   tmp_path / f"cold{step}-out", STRICT, reuse)
        assert (copied, written) == (cold_copied, cold_written), step
        kept.append(copied >= 8)
    assert kept == [False, True, False]


def test_with_the_rule_off_a_rename_keeps_the_cached_file_below_it(tmp_path: Path) -> None:
    """With the rule off (``weak_pair_min_run`` 0) nothing reads the "below a renamed folder" mark, so it is
    not in the key: a rename that comes leaves the cached ``tgt/ops/gemm.py`` (its renamed path
    has no upstream file) a cache hit; only the module now at its renamed place and the two new
    ones are matched."""
    u_root, t_root, few, many = _rename_trees(tmp_path)
    misses = []
    for step, tree in enumerate((few, many)):
        _fill(t_root, tree)
        comparison, copied, _ = _cached_run(t_root, u_root, tmp_path / "cache", tmp_path / f"run{step}",
                                            OFF, reuse=False)
        misses.append(comparison.match_cache_misses)
        assert copied >= 8
    assert misses == [2, 3]
