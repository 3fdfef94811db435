"""Tests for lineage.results: percent(), and the lines/files/functions/regions tables."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
import pytest
import treegen
from conftest import Runner, file_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from treegen import TLine, Upstream

from lineage.api import Comparison
from lineage.results import FILE_COLUMNS, LINE_COLUMNS, Numbers, percent

UP = "upstream"


# ---------------------------------------------------------------------------------------------
# percent()
# ---------------------------------------------------------------------------------------------


def test_percent_exact_ends_and_empty_whole() -> None:
    assert percent(0, 0) == "n/a"
    assert percent(0, 100000) == "0 %"
    assert percent(100000, 100000) == "100 %"
    assert percent(7, 7) == "100 %"


def test_percent_never_rounds_to_zero_or_hundred() -> None:
    assert percent(1, 100000) == "<0.1 %"
    assert percent(99999, 100000) == ">99.9 %"
    assert percent(1, 2001) == "<0.1 %"  # 0.0499... %
    assert percent(9995, 10000) == ">99.9 %"  # 99.95 would print as 100.0
    assert percent(1, 1000) == "0.1 %"
    assert percent(999, 1000) == "99.9 %"
    assert percent(1, 3) == "33.3 %"
    assert percent(2, 3) == "66.7 %"


@settings(max_examples=300, deadline=None)
@given(whole=st.integers(1, 10**9), data=st.data())
def test_percent_property(whole: int, data: st.DataObject) -> None:
    part = data.draw(st.integers(0, whole))
    text = percent(part, whole)
    if part == 0:
        assert text == "0 %"
    elif part == whole:
        assert text == "100 %"
    else:
        assert text not in ("0.0 %", "100.0 %", "0 %", "100 %")
        if text.startswith("<"):
            assert 100 * part / whole < 0.1
        elif text.startswith(">"):
            assert 100 * part / whole > 99.9
        else:
            value = float(text.removesuffix(" %"))
            assert 0.1 <= value <= 99.9
            assert abs(value - 100 * part / whole) <= 0.05 + 1e-9


def test_numbers_add() -> None:
    a = Numbers(1, 10, 4, 2, 12, 5, 3)
    b = Numbers(2, 5, 1, 1, 7, 2, 2)
    assert a + b == Numbers(3, 15, 5, 3, 19, 7, 5)
    assert (a + Numbers()).to_dict() == a.to_dict()


# ---------------------------------------------------------------------------------------------
# Tables on a synthetic comparison
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def up() -> Upstream:
    return treegen.gen_upstream(seed=31337)


def _marker_for(pkg: str, path: str) -> str:
    return f"# Adapted from https://github.com/example/{pkg}/blob/v1.2.0/{path}"


@pytest.fixture
def mixed(run_compare: Runner, up: Upstream) -> tuple[Comparison, dict[str, list[TLine]], dict[str, str]]:
    """A target with copied, own, marked, unmarked and unreadable files."""
    names = treegen.Names(random.Random(2))
    m0, m1, m2 = up.module(0), up.module(1), up.module(2)
    own = treegen.own_code(names, 2)
    texts: dict[str, list[TLine]] = {
        "copied_marked.py": treegen.new_lines([_marker_for(up.pkg, m0.path)]) + treegen.copy_module(m0),
        "copied_plain.py": treegen.copy_module(m1),
        "marked_own.py": treegen.new_lines([_marker_for(up.pkg, m2.path)]) + own,
        "pkg/own.py": treegen.own_code(names, 1),
        "stub.pyi": treegen.new_lines(["def f(x: int) -> int: ..."]),
        "broken.py": treegen.copy_lines(m2, 0, m2.defs[1].end) + treegen.new_lines(["def oops(:", "    pass"]),
    }
    target: dict[str, str | bytes] = {p: treegen.render(t) for p, t in texts.items()}
    target["latin.py"] = b"x = 'caf\xe9'\n"
    target["nul.py"] = b"x = 1\n\x00\x00\n"
    limit = max(len(t.encode()) for t in target.values() if isinstance(t, str)) + 100
    target["big.py"] = b"x = 1\n" * (limit // 6 + 10)
    target["README.md"] = "not python\n"
    target["data/table.txt"] = "1,2,3\n"
    comparison = run_compare(target, [(UP, up.files())], max_file_bytes=limit)
    return comparison, texts, up.files()


def test_files_table_has_one_row_per_python_file(mixed: tuple[Comparison, dict, dict]) -> None:
    comparison, texts, _ = mixed
    files = comparison.files
    assert list(files.columns) == FILE_COLUMNS
    expected_paths = set(texts) | {"latin.py", "nul.py", "big.py"}
    assert sorted(files["target_path"]) == sorted(expected_paths)
    assert files["target_path"].is_unique
    assert list(files["target_path"]) == sorted(files["target_path"])
    by_path = files.set_index("target_path")
    skipped = by_path[by_path["status"] == "skipped"]
    assert set(skipped.index) == {"latin.py", "nul.py", "big.py"}
    assert "UTF-8" in skipped.loc["latin.py", "reason"]
    assert "NUL" in skipped.loc["nul.py", "reason"]
    assert "too large" in skipped.loc["big.py", "reason"]
    assert (skipped["lines"] == 0).all() and (skipped["copied_share"] == 0.0).all()
    indexed = by_path[by_path["status"] == "indexed"]
    assert set(indexed.index) == set(texts)
    assert indexed.loc["broken.py", "reason"].startswith("syntax errors")
    assert indexed.loc["copied_plain.py", "reason"] == ""


def test_lines_table_covers_every_indexed_line(mixed: tuple[Comparison, dict, dict]) -> None:
    comparison, texts, _ = mixed
    lines = comparison.lines
    assert list(lines.columns) == LINE_COLUMNS
    assert set(lines["target_path"]) == set(texts)
    for path, tlines in texts.items():
        frame = file_lines(comparison, path)
        assert frame["line"].tolist() == list(range(1, len(tlines) + 1))
        blank = [n for n, t in enumerate(tlines, start=1) if not t.text.strip()]
        assert frame.loc[frame["kind"] == "blank", "line"].tolist() == blank


def test_file_figures_agree_with_the_lines_table(mixed: tuple[Comparison, dict, dict]) -> None:
    comparison, _, _ = mixed
    lines = comparison.lines
    files = comparison.files.set_index("target_path")
    for path, group in lines.groupby("target_path", observed=True):
        row = files.loc[path]
        nonblank = group[group["kind"] != "blank"]
        code = group[group["kind"] == "code"]
        assert row["lines"] == len(group)
        assert row["nonblank_lines"] == len(nonblank)
        assert row["code_lines"] == len(code)
        assert row["verbatim_lines"] == (nonblank["match"] == "verbatim").sum()
        assert row["near_lines"] == (nonblank["match"] == "near").sum()
        assert row["verbatim_code_lines"] == (code["match"] == "verbatim").sum()
        assert row["near_code_lines"] == (code["match"] == "near").sum()
        copied = row["verbatim_lines"] + row["near_lines"]
        assert row["copied_share"] == pytest.approx(copied / len(nonblank), abs=1e-4)
        sources = nonblank.loc[nonblank["match"] != "none", "upstream_path"]
        assert row["upstream_files"] == sources.nunique()
        if copied:
            assert row["upstream_path"] == sources.value_counts().index[0]
            assert row["upstream"] == UP


def test_copied_and_own_files(mixed: tuple[Comparison, dict, dict], up: Upstream) -> None:
    comparison, texts, up_files = mixed
    files = comparison.files.set_index("target_path")
    assert files.loc["copied_plain.py", "copied_share"] == 1.0
    assert files.loc["copied_plain.py", "upstream_path"] == up.module(1).path
    # the marker comment is ours, every other non-blank line is copied
    frame = file_lines(comparison, "copied_marked.py")
    assert frame.loc[1, "match"] == "none"
    assert set(frame.loc[(frame["line"] > 1) & (frame["kind"] != "blank"), "match"]) == {"verbatim"}
    for path in ("marked_own.py", "pkg/own.py", "stub.pyi"):
        assert files.loc[path, "verbatim_lines"] + files.loc[path, "near_lines"] == 0
        assert files.loc[path, "upstream_path"] == ""


def test_markers_in_files_table(mixed: tuple[Comparison, dict, dict], up: Upstream) -> None:
    comparison, _, _ = mixed
    files = comparison.files.set_index("target_path")
    row = files.loc["copied_marked.py"]
    assert row["marker"].startswith("Adapted from https://github.com/example/")
    assert row["marker_kind"] == "adapted_from"
    assert row["marker_line"] == 1
    assert row["marker_ref"] == "v1.2.0"
    assert row["marker_path"] == up.module(0).path
    assert bool(row["marker_path_found"]) is True
    assert row["marker_upstream_path"] == up.module(0).path  # the file it was found as
    assert files.loc["copied_plain.py", "marker_upstream_path"] == ""
    assert files.loc["copied_plain.py", "marker"] == ""
    assert pd.isna(files.loc["copied_plain.py", "marker_line"])


def test_functions_table(mixed: tuple[Comparison, dict, dict], up: Upstream) -> None:
    comparison, texts, _ = mixed
    functions = comparison.functions
    m1 = up.module(1)
    copied = functions[functions["target_path"] == "copied_plain.py"].set_index("qualname")
    expected = {d.name for d in m1.defs} | {f"{d.name}.{meth.name}" for d in m1.defs for meth in d.methods}
    assert set(copied.index) == expected
    for d in m1.defs:
        row = copied.loc[d.name]
        assert (row["start_line"], row["end_line"]) == (d.start + 1, d.end)
        assert row["kind"] == d.kind
        assert row["copied_code_lines"] == row["code_lines"] > 0
        assert row["copied_share"] == 1.0
        assert row["upstream_path"] == m1.path and row["upstream"] == UP
        if d.kind == "function":
            assert row["upstream_qualname"] == d.name
        for meth in d.methods:
            assert copied.loc[f"{d.name}.{meth.name}", "upstream_qualname"] == f"{d.name}.{meth.name}"
    own = functions[functions["target_path"] == "pkg/own.py"]
    assert len(own) == 1
    assert own["copied_code_lines"].tolist() == [0] and own["upstream_qualname"].tolist() == [""]


def test_functions_table_names_a_copied_class_not_one_of_its_methods(
        mixed: tuple[Comparison, dict, dict], up: Upstream) -> None:
    """A class copied whole came from the upstream class, not from the method holding most of
    its lines."""
    comparison, _, _ = mixed
    functions = comparison.functions
    m1 = up.module(1)
    copied = functions[functions["target_path"] == "copied_plain.py"].set_index("qualname")
    classes = [d for d in m1.defs if d.kind == "class"]
    assert classes
    for d in classes:
        assert copied.loc[d.name, "upstream_qualname"] == d.name


_NESTED = '''
def bot_has_quill_rights(**perms):
    invalid = set(perms) - set(QUILL_RIGHTS)
    if invalid:
        raise TypeError(f"Invalid quill rights: {', '.join(sorted(invalid))}")

    def predicate(ctx):
        guild = ctx.guild
        me = guild.me if guild is not None else ctx.bot.user
        rights = ctx.channel.rights_for(me)
        missing = [perm for perm, value in perms.items() if getattr(rights, perm) != value]
        if not missing:
            return True
        for name in sorted(missing):
            ctx.log_missing(name, rights, guild)
        raise BotMissingQuillRights(missing)

    return check(predicate)
'''


def test_functions_table_names_the_function_holding_a_nested_one(run_compare: Runner) -> None:
    """A function copied with its nested function came from the upstream function, not from the
    nested one that holds most of its lines (disnake 2.1.0's ``bot_has_permissions`` read
    ``bot_has_permissions.predicate`` against discord.py 1.7.3); the nested one from the nested one."""
    target = {"fork/checks.py": _NESTED.replace("(**perms)", "(**perms: bool)")}
    comparison = run_compare(target, [("up", {"up/checks.py": _NESTED})])
    rows = comparison.functions.set_index("qualname")
    assert rows.loc["bot_has_quill_rights", "copied_code_lines"] == rows.loc["bot_has_quill_rights", "code_lines"]
    assert rows.loc["bot_has_quill_rights", "upstream_qualname"] == "bot_has_quill_rights"
    assert rows.loc["bot_has_quill_rights.predicate", "upstream_qualname"] == "bot_has_quill_rights.predicate"


def test_functions_table_names_the_nested_function_a_function_moved_out_of(run_compare: Runner) -> None:
    """A nested function moved out to the top level came from the nested one, not from the
    function that held it (its lines vote for the innermost upstream definition)."""
    nested = _NESTED.split("    def predicate(ctx):\n", 1)[1].split("\n    return check", 1)[0]
    moved = "def quill_predicate(ctx, perms):\n" + "\n".join(line[4:] for line in nested.splitlines()) + "\n"
    comparison = run_compare({"fork/checks.py": moved}, [("up", {"up/checks.py": _NESTED})])
    row = comparison.functions.set_index("qualname").loc["quill_predicate"]
    assert row["copied_code_lines"] >= 8
    assert row["upstream_qualname"] == "bot_has_quill_rights.predicate"


def test_regions_table_agrees_with_lines(mixed: tuple[Comparison, dict, dict]) -> None:
    comparison, _, _ = mixed
    lines = comparison.lines
    regions = comparison.regions
    assert not regions.empty
    for r in regions.itertuples():
        rows = lines[(lines["target_path"] == r.target_path) & (lines["region"] == r.region)]
        assert len(rows) == r.verbatim_lines + r.near_lines > 0
        assert rows["line"].min() == r.target_start and rows["line"].max() == r.target_end
        assert rows["upstream_line"].min() == r.upstream_start
        assert rows["upstream_line"].max() == r.upstream_end
        assert set(rows["upstream_path"]) == {r.upstream_path}
        assert r.evidence_weight >= comparison.params.region_min_weight
    copied = lines[lines["match"] != "none"]
    assert copied["region"].notna().all()
    assert len(copied) == regions["verbatim_lines"].sum() + regions["near_lines"].sum()


def test_summary_figures_and_lists(mixed: tuple[Comparison, dict, dict]) -> None:
    comparison, texts, _ = mixed
    summary = comparison.summary()
    assert summary["format"] == "lineage.summary"
    assert isinstance(summary["format_version"], int) and summary["format_version"] >= 1
    files = comparison.files
    assert summary["files"]["python"] == len(files)
    assert summary["files"]["indexed"] == len(texts)
    assert summary["files"]["skipped"] == 3
    assert summary["files"]["with_parse_errors"] == 1
    indexed = files[files["status"] == "indexed"]
    assert summary["all_files"]["code"] == indexed["code_lines"].sum()
    assert summary["all_files"]["nonblank_verbatim"] == indexed["verbatim_lines"].sum()
    lists = summary["lists"]
    assert set(lists) == {"marked", "marked_with_copied", "marked_without_copied", "unmarked_with_copied",
                          "reexport_with_copied", "shared_third_party", "shared_from_target",
                          "prose_only_copied"}
    assert lists["marked"] == ["copied_marked.py", "marked_own.py"]
    assert lists["marked_with_copied"] == ["copied_marked.py"]
    assert lists["marked_without_copied"] == ["marked_own.py"]
    assert "copied_plain.py" in lists["unmarked_with_copied"]
    assert "pkg/own.py" not in lists["unmarked_with_copied"]
    assert summary["per_upstream"][UP]["lines"] == (comparison.lines["match"] != "none").sum()
    assert len(summary["headline"]) == 4


def test_summary_figures_made_once_equal_the_comparisons_own(mixed: tuple[Comparison, dict, dict]) -> None:
    """summary.json makes the review lists once for every figure that reads them; the figures are
    those the comparison's properties make each on their own."""
    from lineage.report.summary import summary_dict

    comparison, _, _ = mixed
    summary = summary_dict(comparison)
    assert summary["files"] == comparison.file_counts
    assert summary["lists"] == comparison.lists
    assert summary["headline"] == comparison.headline()
    for name, numbers in comparison.numbers.items():
        assert summary[name] == numbers.to_dict()
    assert summary["per_upstream"] == comparison.per_upstream and summary["shared"] == comparison.shared


def test_rows_where_equals_loc_on_a_table_in_several_chunks() -> None:
    """rows_where filters each column (no take, which would join a chunked column's chunks first)
    and gives what ``frame.loc[mask, columns]`` gives: values, dtypes and index."""
    import pyarrow as pa

    from lineage.results.figures import rows_where

    def part(paths: list[str], start: int) -> pd.DataFrame:
        return pd.DataFrame({
            "target_path": pd.array(paths, dtype="string[pyarrow]"),
            "line": pd.array(range(start, start + len(paths)), dtype="int32"),
            "match": pd.Categorical(["none", "verbatim", "near"][k % 3] for k in range(len(paths))),
            "region": pd.array([None if k % 2 else k for k in range(len(paths))], dtype="Int64"),
            "upstream": pd.array(["up"] * len(paths), dtype=pd.ArrowDtype(pa.large_string())),
        })

    lines = pd.concat([part(["a.py"] * 4, 1), part(["b.py"] * 5, 1), part(["c.py"] * 3, 1)], ignore_index=True)
    assert lines["target_path"].array._pa_array.num_chunks == 3  # as a rerun assembles the lines table
    mask = lines["match"] != "none"
    columns = ["target_path", "upstream", "match", "line", "region"]
    kept = rows_where(lines, mask, columns)
    pd.testing.assert_frame_equal(kept, lines.loc[mask, columns])
    assert kept["target_path"].tolist() == ["a.py", "a.py", "b.py", "b.py", "b.py", "c.py", "c.py"]
    assert rows_where(lines, lines["line"] > 99, columns).empty


def test_a_marked_reexport_with_copied_lines_is_not_listed_without_copied_code() -> None:
    """disnake's ``ext/commands/__init__.py`` (a marker, 9 verbatim import lines, only
    re-exports) was listed under "Marked files with no copied code" and counted as a re-export
    "not listed above" too: it is in ``reexport_with_copied`` alone."""
    from lineage.results.figures import review_groups

    files = pd.DataFrame({
        "target_path": ["reexport.py", "own.py", "copied.py"], "status": ["indexed"] * 3,
        "marker": ["Adapted from up"] * 3, "verbatim_code_lines": [9, 0, 4], "near_code_lines": [0, 0, 1],
        "file_role": ["reexport", "", ""]})
    groups = {k: v["target_path"].tolist() for k, v in review_groups(files).items()}
    assert groups["marked_without_copied"] == ["own.py"]
    assert groups["marked_with_copied"] == ["copied.py"]
    assert groups["reexport_with_copied"] == ["reexport.py"]


def test_the_headline_of_a_comparison_without_marked_files(run_compare: Runner) -> None:
    # a release against an older one of itself marks nothing: the headline says so instead of
    # "0 of 0 code lines are verbatim (n/a)"
    body = treegen.distinctive_functions(3)
    comparison = run_compare({"pkg/a.py": body}, [(UP, {"pkg/a.py": body})])
    first, second, third = comparison.headline()[:3]
    assert first == "0 of 1 file carries a marker naming upstream"  # in number with a one-file tree
    assert second == "in those marked files: none to count"
    assert third.startswith("in the 1 file, ") and "(n/a)" not in third


def test_a_marker_path_resolves_by_its_trailing_folders() -> None:
    from lineage.markers import Marker
    from lineage.markers.paths import resolve_marker_path

    ups = ["vllm/v1/worker/gpu_worker.py", "vllm/worker/tpu_worker.py", "vllm/model_executor/models/utils.py",
           "vllm/lora/utils.py", "vllm/layers/batch_invariant.py", "vllm/determinism/batch_invariant.py"]
    by_name: dict[str, list[str]] = {}
    for p in ups:
        by_name.setdefault(p.rsplit("/", 1)[-1], []).append(p)

    def resolve(path: str) -> str:
        return resolve_marker_path(Marker(1, "adapted_from", "x", path=path), set(ups), by_name)

    assert resolve("vllm/worker/gpu_worker.py") == "vllm/v1/worker/gpu_worker.py"  # moved below v1/
    assert resolve("v1/worker/gpu_worker.py") == "vllm/v1/worker/gpu_worker.py"  # a suffix, as before
    assert resolve("vllm/models/utils.py") == "vllm/model_executor/models/utils.py"
    assert resolve("vllm/utils.py") == ""  # two files of that name, each sharing the name alone
    assert resolve("vllm/kernels/batch_invariant.py") == ""  # the name alone is not enough


def _marker_path_resolver(ups: set[str], files: Sequence[Any] = (), docstring: bool = False) -> Callable[[str], str]:
    """Resolve the one marker of a comment line (``docstring``: of a docstring line) against these
    upstream paths, and the definitions of ``files`` (FileIndex records) for a package's attribute."""
    from lineage.markers import find_markers
    from lineage.markers.paths import resolve_marker_path, top_level_definers

    by_name: dict[str, list[str]] = {}
    for p in ups:
        by_name.setdefault(p.rsplit("/", 1)[-1], []).append(p)
    defined = top_level_definers(files) if files else None

    def resolve(text: str) -> str:
        [m] = find_markers(['"""', text, '"""', "x = 1"] if docstring else [text, "x = 1"])
        return resolve_marker_path(m, ups, by_name, defined)

    return resolve


def test_a_package_init_resolves_by_two_trailing_folders_not_its_folder_name_alone() -> None:
    """xarray 2024.10's "Adapted from `pandas.tsseries.frequencies._FrequencyInferer.get_freq`"
    (a typo for tseries) was found as pandas' ``tests/tseries/frequencies/__init__.py``: the file
    name ``__init__.py`` and one folder in common are one name, the folder's."""
    resolve = _marker_path_resolver({"pkg/timeseries/frequencies.py", "pkg/tests/timeseries/frequencies/__init__.py",
                                     "pkg/layers/quant/__init__.py"})
    assert resolve("# Adapted from `pkg.tsseries.frequencies._Inferer.get_freq`.") == ""
    assert resolve("# Adapted from pkg.timeseries.frequencies._Inferer") == "pkg/timeseries/frequencies.py"
    # two folders in common still find a package moved below another folder
    assert resolve("# Adapted from other/layers/quant/__init__.py") == "pkg/layers/quant/__init__.py"


def test_a_dotted_name_finds_the_private_module_it_spells_publicly() -> None:
    """pytest 8.3.3's ``pathlib.py``: "A port of FNMatcher from py.path.common" names py 1.11.0's
    ``py/_path/common.py`` (py exports ``py/_path/`` as ``py.path``); its ``marker_path_found``
    was false. Only a dotted name, only one such file, and a public file of the name first."""
    ups = {"quill/_path/common.py", "quill/_path/local.py", "quill/_io/common.py", "quill/_core/numeric.py",
           "quill/core/__init__.py"}
    resolve = _marker_path_resolver(ups, docstring=True)
    assert resolve("A port of FNMatcher from quill.path.common which works with paths.") == "quill/_path/common.py"
    assert resolve("Adapted from quill.core.numeric") == "quill/_core/numeric.py"
    # a file path written out names that file only
    assert resolve("Adapted from quill/path/common.py") == ""
    # the public spelling, when the upstream holds it, is the file
    assert _marker_path_resolver(ups | {"quill/path/common.py"}, docstring=True)(
        "Adapted from quill.path.common") == "quill/path/common.py"
    # two private files of that public name: no guess
    assert _marker_path_resolver(ups | {"quill/path/_common.py"}, docstring=True)(
        "Adapted from quill.path.common") == ""


def test_a_path_in_other_letter_case_finds_the_one_file_it_spells() -> None:
    """vLLM 0.32.0's ``glm4_1v.py``: "Adapted from .../transformers/blob/main/src/transformers/models/
    Glm4v/modeling_Glm4v.py" names transformers 5.16.1's ``models/glm4v/modeling_glm4v.py``; its
    ``marker_path_found`` was false. Only when one file differs from it in case alone."""
    ups = {"transformers/models/glm4v/modeling_glm4v.py", "transformers/models/glm4v_moe/modeling_glm4v_moe.py"}
    url = "https://github.com/huggingface/transformers/blob/main/src/transformers/models/{}/modeling_{}.py"
    resolve = _marker_path_resolver(ups)
    assert resolve(f"# Adapted from {url.format('Glm4v', 'Glm4v')}") == "transformers/models/glm4v/modeling_glm4v.py"
    assert resolve(f"# Adapted from {url.format('glm4v', 'glm4v')}") == "transformers/models/glm4v/modeling_glm4v.py"
    assert resolve(f"# Adapted from {url.format('Glm5v', 'Glm5v')}") == ""
    # two files that differ only in case: no guess
    assert _marker_path_resolver(ups | {"transformers/models/GLM4V/modeling_glm4v.py"})(
        f"# Adapted from {url.format('Glm4v', 'Glm4v')}") == ""


def test_a_dotted_module_name_resolves_to_a_package_init() -> None:
    """diffusers 0.31's "based on [`~transformers.BERT`]" names transformers' package, which
    transformers holds as ``transformers/__init__.py``; a file path written out names that file only."""
    resolve = _marker_path_resolver({"transformers/__init__.py", "transformers/utils/__init__.py",
                                     "transformers/models/bart/modeling_bart.py",
                                     "transformers/models/llama/modeling_llama.py"})
    assert resolve("# Text-encoder model based on [`~transformers.BERT`].") == "transformers/__init__.py"
    assert resolve("# Copied from transformers.utils.cached_file") == ""  # no module of that name
    assert resolve("# Copied from transformers.models.bart.modeling_bart.BartAttention") == \
        "transformers/models/bart/modeling_bart.py"
    url = "https://github.com/huggingface/transformers/blob/v4.0.0/src/transformers/utils.py"
    assert resolve(f"# Adapted from {url}") == ""
    # a lower-case last part may be a function of the module before it (the marker cannot tell):
    # "Copied from ... .modeling_llama.rotate_half" named a modeling_llama/rotate_half.py
    assert resolve("# Copied from transformers.models.llama.modeling_llama.rotate_half") == \
        "transformers/models/llama/modeling_llama.py"
    # but a module the upstream no longer holds is not its package's __init__.py
    assert resolve("# Copied from transformers.models.llama.gone_module") == ""


def test_a_dotted_name_of_a_packages_function_resolves_to_the_file_defining_it() -> None:
    """scikit-image 0.24's "based on ``scipy.signal.get_window``" named a scipy/signal/get_window.py
    "not in the trees compared (removed, renamed or moved)": scipy.signal re-exports the function
    from a private module, the file that defines it at its top level."""
    from lineage.index import FileIndex
    from lineage.index.records import Definition

    files = [FileIndex("quill/__init__.py", "", 0), FileIndex("quill/sedge/__init__.py", "", 0),
             FileIndex("quill/sedge/shapes/_shapes.py", "", 0,
                       definitions=[Definition("get_shape", "function", 3, 9),
                                    Definition("Shape.get_shape", "function", 12, 14)]),
             FileIndex("quill/moss/__init__.py", "", 0),
             FileIndex("quill/moss/_a.py", "", 0, definitions=[Definition("twin", "function", 1, 2)]),
             FileIndex("quill/moss/_b.py", "", 0, definitions=[Definition("twin", "function", 1, 2)]),
             FileIndex("quill/lichen.py", "", 0, definitions=[Definition("get_shape", "function", 1, 2)])]
    resolve = _marker_path_resolver({f.path for f in files}, files)
    assert resolve("# Based on quill.sedge.get_shape, with a mask") == "quill/sedge/shapes/_shapes.py"
    # a name no file below the package defines is still a module the upstream no longer holds,
    # and a method's name or a definer outside the package is none; two definers are a tie
    assert resolve("# Based on quill.sedge.gone_module") == ""
    assert resolve("# Based on quill.moss.twin") == ""
    assert resolve("# Copied from quill.lichen.get_shape") == "quill/lichen.py"


def test_a_top_level_packages_function_resolves_to_the_file_defining_it() -> None:
    """pip 24.2's ``metadata/base.py``, "This is a copy of ``pkg_resources.to_filename()``", named
    a ``pkg_resources/to_filename.py`` "not in the trees compared" against setuptools 72.1.0, whose
    ``pkg_resources/__init__.py`` defines ``to_filename``: a dotted name of two parts, a top-level
    package and its function, never reached the package-attribute lookup a deeper name reaches."""
    from lineage.index import FileIndex
    from lineage.index.records import Definition

    files = [FileIndex("quill/__init__.py", "", 0, definitions=[Definition("to_stem", "function", 3, 9)]),
             FileIndex("quill/tests/test_stems.py", "", 0, definitions=[Definition("check", "function", 1, 4)]),
             FileIndex("moss/__init__.py", "", 0),
             FileIndex("moss/_a.py", "", 0, definitions=[Definition("twin", "function", 1, 2)]),
             FileIndex("moss/_b.py", "", 0, definitions=[Definition("twin", "function", 1, 2)])]
    resolve = _marker_path_resolver({f.path for f in files}, files, docstring=True)
    assert resolve("This is a copy of ``quill.to_stem()`` for compatibility.") == "quill/__init__.py"
    # a name the package does not define is still a module the upstream does not hold, and two
    # definers of equal length are a tie, as for a deeper package
    assert resolve("This is a copy of ``quill.gone_helper()`` for compatibility.") == ""
    assert resolve("This is a copy of ``moss.twin()`` for compatibility.") == ""


def test_a_package_and_its_class_name_the_file_defining_the_class() -> None:
    """sentence-transformers 3.3's "based on the 🤗 Transformers :class:`~transformers.Trainer`"
    named transformers' ``__init__.py``; the class is ``trainer.py``'s (the longest definition:
    ``utils/dummy_pt_objects.py`` holds a three-line stand-in of the same name)."""
    from lineage.index import Definition, FileIndex

    files = [FileIndex("quill/__init__.py", "", 0, definitions=[Definition("Local", "class", 3, 9)]),
             FileIndex("quill/runner.py", "", 0, definitions=[Definition("Runner", "class", 10, 400)]),
             FileIndex("quill/utils/stand_ins.py", "", 0, definitions=[Definition("Runner", "class", 1, 3),
                                                                       Definition("Twin", "class", 1, 5)]),
             FileIndex("quill/other.py", "", 0, definitions=[Definition("Twin", "class", 1, 5)])]
    resolve = _marker_path_resolver({f.path for f in files}, files, docstring=True)
    assert resolve("This runner is based on the Quill :class:`~quill.Runner`, with changes.") == "quill/runner.py"
    # defined by the package's own __init__.py, or a tie of equal lengths: the package
    assert resolve("This is based on the Quill :class:`~quill.Local`.") == "quill/__init__.py"
    assert resolve("This is based on the Quill :class:`~quill.Twin`.") == "quill/__init__.py"


def test_named_files_say_which_marked_files_name_a_file_the_upstream_no_longer_holds() -> None:
    """24 of sglang 0.5.23's 29 marked files without copied code name a vLLM file that 0.32.0
    no longer holds (``vllm/utils.py`` of v0.7.3): the reason they hold no copied code, which the
    refs their markers name let a reviewer act on."""
    from lineage.results.figures import named_files

    files = pd.DataFrame({
        "target_path": ["a.py", "b.py", "c.py", "d.py", "e.py", "f.py", "g.py"],
        "marker_path": ["up/utils.py", "up/old.py", "up/gone.py", "up/moved.py", "up/here.py", "", "up/x.py"],
        "marker_path_found": pd.array([False, False, False, False, True, pd.NA, False], dtype="boolean"),
        "marker_ref": ["v0.7.3", "0.7.3", "c7f2cf2b7f67bce5842fedfdba508440fe257375", "main", "v0.7.3", "v1.0", ""]})
    named = named_files(files)
    assert (named["named_file_absent"], named["named_file_present"], named["no_file_named"]) == (5, 1, 1)
    assert named["releases"] == [{"ref": "0.7.3", "files": 2}]  # "v0.7.3" and "0.7.3" are one release
    assert named["commits"] == [{"ref": "c7f2cf2b7f67bce5842fedfdba508440fe257375", "files": 1}]
    assert named["other"] == [{"ref": "main", "files": 1}]
    assert named["none"] == 1


def _marked_without_copies(run_compare: Runner, marker: str) -> tuple[dict, str]:
    """summary.json's dict and summary.md of a pair whose target file ``pkg/b.py`` carries
    ``marker`` (a comment line) over code of its own."""
    from lineage.report.summary import summary_dict, summary_markdown

    body = treegen.distinctive_functions(3)
    target = {"pkg/a.py": body, "pkg/b.py": f"{marker}\ndef mine(x):\n    return x * 7\n"}
    comparison = run_compare(target, [(UP, {"upstream/a.py": body})])
    summary = summary_dict(comparison)
    return summary, summary_markdown(comparison, summary)


def test_summary_says_a_marked_file_names_a_file_the_upstream_does_not_hold(run_compare: Runner) -> None:
    summary, text = _marked_without_copies(
        run_compare, "# Adapted from https://github.com/org/upstream/blob/v1.2.0/upstream/gone.py")
    named = summary["marked_without_copied_files"]
    assert named["named_file_absent"] == 1 and named["releases"] == [{"ref": "1.2.0", "files": 1}]
    assert "Of these, 1 names an upstream file that the trees compared do not hold" in text
    assert "releases `1.2.0` (1)" in text
    assert "| `upstream/gone.py` (not in the trees compared) |" in text


def test_summary_says_which_file_a_marked_files_dotted_name_was_found_as(run_compare: Runner) -> None:
    """pip 24.2 against setuptools 72.1.0: "This is a copy of ``pkg_resources.to_filename()``"
    names ``pkg_resources/to_filename.py`` (a dotted name read as a path), found as
    ``pkg_resources/__init__.py``; the table showed the path as written alone, beside "Of these,
    3 name one they hold", a file the upstream does not hold. A path found as written stays bare."""
    from lineage.report.summary import summary_dict, summary_markdown

    body = treegen.distinctive_functions(3)
    target = {"pkg/a.py": body,
              "pkg/b.py": 'def mine(x):\n    """This is a copy of ``upstream.helper_name()``."""\n    return x * 7\n',
              "pkg/c.py": "# Adapted from upstream/a.py\ndef other_mine(x):\n    return x * 9\n"}
    helper = "def helper_name(value):\n    return value.replace('-', '_')\n"
    comparison = run_compare(target, [(UP, {"upstream/a.py": body, "upstream/__init__.py": helper})])
    text = summary_markdown(comparison, summary_dict(comparison))
    assert "| `upstream/helper_name.py` (found as `upstream/__init__.py`) |" in text
    assert re.search(r"\| `pkg/c\.py` \| [\d,]+ \| 0 \| 0 \| `upstream/a\.py` \|", text)


def test_the_sentence_on_the_releases_named_counts_the_markers_naming_none() -> None:
    """vLLM 0.32.0 against transformers 5.16.1: "The markers of the 6 point at releases `4.28.0`
    (1), `4.39.3` (1) and 2 commits" accounted for 4 files; two "Ported from
    ``transformers.models.gemma4.utils_gemma4``" markers state no release."""
    from lineage.report.summary import _named_files_markdown

    named = {"named_file_absent": 6, "named_file_present": 0, "no_file_named": 0,
             "releases": [{"ref": "4.28.0", "files": 1}, {"ref": "4.39.3", "files": 1}],
             "commits": [{"ref": "c" * 40, "files": 1}, {"ref": "d" * 40, "files": 1}], "other": [], "none": 2}
    text = " ".join(_named_files_markdown(named, ["transformers"]))
    assert "`4.39.3` (1) and 2 commits (files in brackets); 2 state no release or commit." in text
    one = " ".join(_named_files_markdown(named | {"named_file_absent": 5, "none": 1}, ["transformers"]))
    assert "(files in brackets); 1 states no release or commit." in one
    every = " ".join(_named_files_markdown(named | {"named_file_absent": 4, "none": 0}, ["transformers"]))
    assert "(files in brackets). To measure" in every


def test_a_file_with_copied_docstrings_only_is_listed_apart(run_compare: Runner) -> None:
    """werkzeug 3.0.4's ``routing/__init__.py`` keeps 2.0.3's long module docstring word for word
    and none of its code: in no list of copied code, it was in no summary.md list at all."""
    from lineage.report.summary import summary_dict, summary_markdown

    doc = "".join(f"    Routing rule number {k} matches the {k}th path segment against its converter.\n"
                  for k in range(30))
    body = treegen.distinctive_functions(3)
    up = {"upstream/routing.py": '"""\n' + doc + '"""\n\n' + body}
    target = {"pkg/routing.py": '"""\n' + doc + '"""\n\n' + "def own_rule(x):\n    return x * 13\n"}
    comparison = run_compare(target, [(UP, up)])
    summary = summary_dict(comparison)
    assert summary["lists"]["prose_only_copied"] == ["pkg/routing.py"]
    assert "pkg/routing.py" not in summary["lists"]["unmarked_with_copied"]
    text = summary_markdown(comparison, summary)
    assert "## Files with copied comments or docstrings only: 1" in text
    # a file with copied lines, as obligations.csv and the SPDX document count it; not one listed
    # with copied code (summary format 11; before, with_copied_lines said 0 here)
    assert summary["files"]["with_copied_lines"] == summary["obligations"]["target_files"] == 1
    assert summary["files"]["with_copied_code"] == 0


def test_named_files_count_a_marked_file_without_code_apart() -> None:
    """pipenv 2024.0.1 --vendored: 23 vendored empty ``__init__.py`` files were said to name a file
    the upstream holds "(its code was rewritten since)": a file with no code line cannot show
    copied code, so it is counted apart (``no_code``) and said so, not explained as rewritten."""
    from lineage.report.summary import _named_files_markdown
    from lineage.results.figures import named_files

    files = pd.DataFrame({
        "target_path": ["pkg/__init__.py", "pkg/sub/__init__.py", "pkg/mod.py"],
        "code_lines": [0, 0, 12],
        "marker_path": ["up/__init__.py", "up/sub/__init__.py", "up/mod.py"],
        "marker_path_found": pd.array([True, True, True], dtype="boolean"),
        "marker_ref": ["", "", ""]})
    named = named_files(files)
    assert (named["no_code"], named["named_file_present"], named["named_file_absent"], named["no_file_named"]) \
        == (2, 1, 0, 0)
    text = " ".join(_named_files_markdown(named, []))
    assert text.startswith("Of these, 2 hold no code line")
    assert "of the others, 1 names one they hold (its code was rewritten since" in text
    only_empty = named_files(files.iloc[:2])
    assert " ".join(_named_files_markdown(only_empty, [])).strip() == (
        "Of these, 2 hold no code line (empty, or comments and docstrings only: nothing to show copied).")


def test_a_marker_naming_a_c_source_is_counted_apart(run_compare: Runner) -> None:
    """pandas 2.2.3's blocks.py cites numpy's ``calculation.c`` by URL: only Python files are
    compared, so no release could hold it, and "removed, renamed or moved" misexplained it."""
    from lineage.results.figures import named_files

    files = pd.DataFrame({"target_path": ["a.py", "b.py", "c.py"],
                          "marker_path": ["up/core/calc.c", "up/gone.py", "up/kern.cu"],
                          "marker_path_found": pd.array([False, False, False], dtype="boolean"),
                          "marker_ref": ["v1.0", "v1.0", ""]})
    named = named_files(files)
    assert (named["named_file_absent"], named["named_file_not_python"]) == (1, 2)
    assert named["releases"] == [{"ref": "1.0", "files": 1}] and named["none"] == 0  # refs of the absent one only
    summary, text = _marked_without_copies(
        run_compare, "# Behaviour as in https://github.com/org/upstream/blob/v1.2.0/upstream/src/calc.c")
    assert summary["marked_without_copied_files"]["named_file_not_python"] == 1
    assert summary["marked_without_copied_files"]["named_file_absent"] == 0
    assert "Of these, 1 names a file that is no Python file" in text
