"""Weak pairs (lineage.match.weak_pairs, ``weak_pair_min_run``, off by default): in a file whose
markers name no upstream, an upstream file neither named nor at the file's place keeps its lines
only with a run of that many identical code lines in order. Fixtures written here."""

from __future__ import annotations

from conftest import Runner, file_lines

from lineage.match import MatchParams

STRICT = MatchParams(weak_pair_min_run=5)  # the rule is off by default (params: its measurements)

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


def _target(run: int, header: str = "") -> str:
    """The upstream body's first ``run`` lines in order, then the target's own lines, then the
    rest of the body broken into runs of at most ``run`` lines by more of its own."""
    own = iter(f"    own_step_number_{k} = prepare_something_of_our_own({k}, block_rows)" for k in range(20))
    body: list[str] = []
    for k, line in enumerate(_UP_BODY):
        if k and k % run == 0:
            body.append(next(own))
        body.append(line)
    return header + "def our_own_gemm_kernel(left_pointer, right_pointer, output_pointer):\n" + "\n".join(body) + "\n"


def _copied(runner: Runner, target: str, **kwargs: object) -> int:
    frame = file_lines(runner({"tgt/ops/gemm.py": target}, [("up", {"up/kernels/matmul.py": UPSTREAM})], **kwargs),
                       "tgt/ops/gemm.py")
    return int(frame["match"].isin(["verbatim", "near"]).sum())


def test_a_pair_of_short_runs_only_is_not_a_copy(run_compare: Runner) -> None:
    """Runs of 4 identical lines at most, in a file that names nothing, at another place: the
    pair keeps no line; with the rule off its runs are copied."""
    target = _target(4)
    assert _copied(run_compare, target) >= 8  # off by default
    assert _copied(run_compare, target, params=STRICT) == 0


def test_a_run_long_enough_keeps_the_pair(run_compare: Runner) -> None:
    """One run of 5 identical code lines in order establishes the pair: every line stays."""
    target = _target(5)
    assert _copied(run_compare, target, params=STRICT) == _copied(run_compare, target) >= 8


def test_a_file_naming_the_upstream_keeps_short_runs(run_compare: Runner) -> None:
    """The same short runs in a file whose header says where they came from stay copied."""
    target = _target(4, header="# Adapted from https://github.com/up/up/blob/main/up/kernels/matmul.py\n")
    assert _copied(run_compare, target, params=STRICT) == _copied(run_compare, target) >= 8
