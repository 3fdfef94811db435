"""Tests of the accuracy suite's ground-truth generator, metrics and harness (tests/eval/).

Everything here runs on the in-repo fixture (tests/eval/fixture_upstream), without network.
"""

from __future__ import annotations

import ast
import io
import math
import re
import sys
import tokenize
import zipfile
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_ROOT = Path(__file__).resolve().parents[1]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tests.eval import corpora, generate, metrics, run_eval  # noqa: E402

FIXTURE = corpora.FIXTURE_UPSTREAM


@pytest.fixture(scope="module")
def upstream() -> generate.Upstream:
    return generate.Upstream(FIXTURE)


_CASES: dict[tuple[str, int], tuple[generate.Case, list[dict]]] = {}


def build(upstream: generate.Upstream, operator: str, seed: int = 0) -> tuple[generate.Case, list[dict]]:
    key = (operator, seed)
    if key not in _CASES:
        case = generate.build_case(upstream, operator, seed)
        _CASES[key] = (case, generate.truth_rows(case))
    return _CASES[key]


def text_of(case: generate.Case, row: dict) -> str:
    tf = next(tf for tf in case.files if tf.path == row["target_path"])
    return tf.lines[row["line"] - 1].text


def upstream_text(upstream: generate.Upstream, row: dict) -> str:
    return upstream.files[row["upstream_path"]][row["upstream_line"] - 1]


def check_truthful(upstream: generate.Upstream, case: generate.Case, rows: list[dict]) -> None:
    """The invariants every case must satisfy."""
    by_file = Counter(row["target_path"] for row in rows)
    for tf in case.files:
        source = tf.source()
        ast.parse(source)
        assert generate.compiles(source), tf.path
        assert by_file[tf.path] == len(tf.lines)
    for row in rows:
        text = text_of(case, row)
        if not text.strip():
            assert (row["copied"], row["expected"], row["kind"]) == (0, "none", "blank")
            continue
        if row["expected"] == "none":
            assert row["copied"] == 0 and row["upstream_path"] == ""
            continue
        assert row["copied"] == 1
        theirs = upstream_text(upstream, row)
        if row["expected"] == "verbatim":
            assert text.strip() == theirs.strip(), row
        else:
            assert row["expected"] == "near"
            assert text.strip() != theirs.strip(), row


@pytest.mark.parametrize("operator", generate.CASES)
def test_every_operator_gives_valid_python_and_truthful_labels(upstream, operator):
    case, rows = build(upstream, operator)
    assert case.files
    check_truthful(upstream, case, rows)
    if operator not in ("whole_file", "mixed"):
        assert case.meta["applied"].get(operator), f"{operator} changed nothing"


def test_generation_is_deterministic(upstream):
    a = generate.build_case(upstream, "mixed", 7)
    b = generate.build_case(upstream, "mixed", 7)
    c = generate.build_case(upstream, "mixed", 8)
    assert generate.truth_rows(a) == generate.truth_rows(b)
    assert [tf.source() for tf in a.files] == [tf.source() for tf in b.files]
    assert [tf.source() for tf in a.files] != [tf.source() for tf in c.files]


def test_whole_file_copies_every_code_line(upstream):
    case, rows = build(upstream, "whole_file")
    assert {tf.path for tf in case.files} == set(upstream.eligible())
    code = [row for row in rows if row["kind"] == "code"]
    assert code and all(row["copied"] == 1 and row["expected"] == "verbatim" for row in code)
    assert all(row["upstream_path"] == row["target_path"] for row in code)
    assert all(row["upstream_line"] == row["line"] for row in code)


def test_move_rename_moves_every_file(upstream):
    case, rows = build(upstream, "move_rename")
    paths = {tf.path for tf in case.files}
    assert not paths & set(upstream.files)
    nonblank = [row for row in rows if row["kind"] != "blank"]
    assert all(row["expected"] == "verbatim" and row["operator"] == "move_rename" for row in nonblank)


def test_package_rename_rewrites_imports_paths_and_dotted_strings(upstream):
    case, rows = build(upstream, "package_rename")
    tops = {tf.path.split("/")[0] for tf in case.files}
    assert len(tops) == 1 and "minipkg" not in tops
    new = tops.pop()
    sources = "\n".join(tf.source() for tf in case.files)
    assert "from minipkg" not in sources and f"from {new}." in sources
    assert f'"{new}.config"' in sources  # logging.getLogger("minipkg.config")
    near = [row for row in rows if row["expected"] == "near"]
    assert near and all(row["operator"] == "package_rename" for row in near)
    assert all(row["upstream_path"].startswith("minipkg/") for row in rows if row["copied"])


def test_inserted_lines_are_none_and_include_trivial_statements(upstream):
    inserted: list[str] = []
    for seed in range(6):
        case, rows = build(upstream, "insert_unrelated", seed)
        check_truthful(upstream, case, rows)
        for row in rows:
            if row["operator"] == "insert_unrelated":
                assert row["copied"] == 0 and row["expected"] == "none"
                inserted.append(text_of(case, row).strip())
            elif row["kind"] == "code":
                assert row["copied"] == 1
    assert inserted
    stripped = set(inserted)
    for trivial in ("return None", "pass", "else:", ")"):
        assert trivial in stripped, trivial
    assert any(re.fullmatch(r"\w+ = None", text) for text in stripped)
    assert any(text.startswith(("import ", "from ")) for text in stripped)


def test_inserted_statements_sit_inside_copied_functions(upstream):
    case, rows = build(upstream, "insert_unrelated", 1)
    for tf in case.files:
        tree = ast.parse(tf.source())
        function_rows = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                function_rows.update(range(node.lineno + 1, node.end_lineno + 1))
        for number, line in enumerate(tf.lines, 1):
            if line.op == "insert_unrelated" and line.text.strip():
                assert number in function_rows, (tf.path, number, line.text)


def test_unrelated_code_never_comes_from_the_upstream(upstream):
    upstream_lines = {text.strip() for lines in upstream.files.values() for text in lines}
    for operator in ("insert_unrelated", "unrelated_files", "subset_functions"):
        case, rows = build(upstream, operator)
        for row in rows:
            text = text_of(case, row).strip()
            if row["copied"] == 0 and len(text) > 25:
                assert text not in upstream_lines, (operator, text)
    case, rows = build(upstream, "unrelated_files")
    new_files = {row["target_path"] for row in rows} - set(upstream.files)
    assert len(new_files) >= 2
    assert all(row["copied"] == 0 for row in rows if row["target_path"] in new_files)


def test_delete_lines_removes_whole_statements(upstream):
    case, rows = build(upstream, "delete_lines")
    assert sum(len(tf.lines) for tf in case.files) < sum(len(upstream.files[p]) for p in upstream.eligible())
    for path in {row["target_path"] for row in rows}:
        numbers = [row["upstream_line"] for row in rows if row["target_path"] == path and row["copied"]]
        assert numbers == sorted(numbers)  # order kept, only gaps
    assert all(row["expected"] != "near" for row in rows)


def test_reorder_functions_changes_order_only(upstream):
    case, rows = build(upstream, "reorder_functions")
    assert all(row["expected"] in ("verbatim", "none") for row in rows)
    shuffled = 0
    for path in {row["target_path"] for row in rows}:
        numbers = [row["upstream_line"] for row in rows if row["target_path"] == path and row["copied"]]
        assert sorted(numbers) == sorted(set(numbers))
        shuffled += numbers != sorted(numbers)
    assert shuffled


def test_dedent_methods_moves_methods_to_module_level(upstream):
    case, rows = build(upstream, "dedent_methods")
    moved = [row for row in rows if row["operator"] == "dedent_methods" and row["copied"]]
    assert moved and all(row["expected"] == "verbatim" for row in moved)
    dedented = 0
    for row in moved:
        mine, theirs = text_of(case, row), upstream_text(upstream, row)
        assert len(mine) - len(mine.lstrip()) <= len(theirs) - len(theirs.lstrip())
        dedented += mine.startswith("def ")
    assert dedented


def test_edit_comments_edits_comments_and_docstrings_only(upstream):
    case, rows = build(upstream, "edit_comments")
    near = [row for row in rows if row["expected"] == "near"]
    assert {row["kind"] for row in near} >= {"docstring", "comment"}
    for row in near:
        mine, theirs = text_of(case, row), upstream_text(upstream, row)
        if row["kind"] == "code":  # a trailing comment was edited, the code kept
            assert mine.split("#")[0] == theirs.split("#")[0]
        words_mine, words_theirs = re.findall(r"\w+", mine), re.findall(r"\w+", theirs)
        assert len(words_mine) == len(words_theirs)
        assert sum(a != b for a, b in zip(words_mine, words_theirs, strict=True)) >= 1


def test_edit_literals_and_renames_give_near_code_lines(upstream):
    for operator in ("edit_literals", "rename_identifiers"):
        case, rows = build(upstream, operator)
        near = [row for row in rows if row["expected"] == "near"]
        assert len(near) >= 5
        assert all(row["operator"] == operator and row["kind"] == "code" for row in near)


def _names(source: str) -> set[str]:
    return {tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline) if tok.type == tokenize.NAME}


def test_rename_identifiers_is_consistent(upstream):
    case, rows = build(upstream, "rename_identifiers")
    renamed = 0
    for tf in case.files:
        before = _names("".join(text + "\n" for text in upstream.files[tf.path]))
        after = _names(tf.source())
        # A renamed identifier is gone everywhere (no use was forgotten) and its new name is new.
        gone, new = before - after, after - before
        assert len(gone) == len(new)
        renamed += len(gone)
    assert renamed >= 5


def test_rewrapped_lines_map_to_the_line_of_their_first_token(upstream):
    for seed in range(3):
        case, rows = build(upstream, "rewrap_calls", seed)
        rewrapped = [row for row in rows if row["operator"] == "rewrap_calls"]
        assert any(text_of(case, row).strip() == ")" for row in rewrapped) or seed
        for row in rewrapped:
            assert row["copied"] == 1
            first = re.match(r"[A-Za-z_]\w*|\S", text_of(case, row).strip()).group()
            assert first in upstream_text(upstream, row), row


def test_rewrap_goes_both_ways(upstream):
    exploded = joined = 0
    for seed in range(4):
        case, rows = build(upstream, "rewrap_calls", seed)
        per_upstream = Counter(
            (row["upstream_path"], row["upstream_line"]) for row in rows if row["operator"] == "rewrap_calls"
        )
        exploded += sum(1 for n in per_upstream.values() if n > 1)
        for row in rows:
            if row["operator"] == "rewrap_calls":
                theirs = upstream_text(upstream, row)
                joined += theirs.rstrip().endswith("(") and text_of(case, row).rstrip().endswith(")")
    assert exploded and joined


def test_split_file_maps_each_part_to_its_upstream_file(upstream):
    case, rows = build(upstream, "split_file")
    parts: dict[str, set[str]] = {}
    for row in rows:
        if row["copied"]:
            parts.setdefault(row["upstream_path"], set()).add(row["target_path"])
    assert parts and all(len(targets) == 2 for targets in parts.values())
    for target in {row["target_path"] for row in rows}:
        sources = {row["upstream_path"] for row in rows if row["target_path"] == target and row["copied"]}
        assert len(sources) == 1
    for up_path in parts:
        covered = {row["upstream_line"] for row in rows if row["upstream_path"] == up_path}
        wanted = {i for i, text in enumerate(upstream.files[up_path], 1) if text.strip()}
        assert covered == wanted  # nothing lost; the header is in both parts


def test_merge_files_maps_to_two_upstream_files(upstream):
    case, rows = build(upstream, "merge_files")
    merged = 0
    for target in {row["target_path"] for row in rows}:
        sources = [row["upstream_path"] for row in rows if row["target_path"] == target and row["copied"]]
        distinct = list(dict.fromkeys(sources))
        assert len(distinct) <= 2
        if len(distinct) == 2:
            merged += 1
            assert distinct[0] == target  # the first file gives its path
            assert sources == sorted(sources, key=distinct.index)  # one after the other
    assert merged >= 2


def test_subset_functions_surrounds_copied_defs_with_new_code(upstream):
    case, rows = build(upstream, "subset_functions")
    for target in {row["target_path"] for row in rows}:
        file_rows = [row for row in rows if row["target_path"] == target and row["kind"] == "code"]
        assert any(row["copied"] for row in file_rows) and not all(row["copied"] for row in file_rows)
        assert len({row["upstream_path"] for row in file_rows if row["copied"]}) == 1
        assert target not in upstream.files


def test_mixed_applies_several_operators(upstream):
    case, rows = build(upstream, "mixed")
    tags = {row["operator"] for row in rows}
    assert len(tags) >= 5
    assert len(case.meta["applied"]) >= 5
    assert {row["expected"] for row in rows} == {"verbatim", "near", "none"}


def test_negative_controls_are_all_none(upstream):
    case = generate.build_generated_negative(upstream, 0)
    rows = generate.truth_rows(case)
    assert rows and all(row["copied"] == 0 for row in rows)
    real = generate.build_negative(upstream, 0)  # any tree works as the target side
    assert all(row["copied"] == 0 for row in generate.truth_rows(real))


def test_line_kinds():
    source = (
        '"""Module doc.\n'
        "\n"
        'More."""\n'
        "# a comment\n"
        "x = 1  # trailing\n"
        "\n"
        "def f():\n"
        "    '''Doc.'''\n"
        "    s = '''not\n"
        "\n"
        "    a docstring'''\n"
        "    return s\n"
    )
    assert generate.line_kinds(source) == [
        "docstring",
        "blank",
        "docstring",
        "comment",
        "code",
        "blank",
        "code",
        "docstring",
        "code",
        "blank",
        "code",
        "code",
    ]


def test_split_lines_matches_pythons_line_ends():
    assert generate.split_lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]
    assert generate.split_lines("a\n\n") == ["a", ""]
    assert generate.split_lines("") == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), operator=st.sampled_from(generate.CASES))
def test_truth_verbatim_rows_are_exact_for_any_seed(upstream, seed, operator):
    case = generate.build_case(upstream, operator, seed)
    rows = generate.truth_rows(case)
    check_truthful(upstream, case, rows)


def test_write_case_round_trips(tmp_path, upstream):
    case, rows = build(upstream, "mixed")
    out = generate.write_case(case, tmp_path / "case", {"seed": 0})
    truth = metrics.read_truth(out / "truth.csv")
    assert list(truth.columns) == generate.TRUTH_COLUMNS
    assert len(truth) == len(rows)
    for tf in case.files:
        written = generate.split_lines((out / "target" / tf.path).read_text(encoding="utf-8"))
        assert written == [line.text for line in tf.lines]


# ---------------------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def written_case(tmp_path_factory, upstream) -> Path:
    case = generate.build_case(upstream, "mixed", 3)
    return generate.write_case(case, tmp_path_factory.mktemp("metrics") / "mixed")


def test_perfect_tool_scores_one(written_case):
    truth = metrics.read_truth(written_case / "truth.csv")
    result = metrics.score(truth, metrics.truth_report(truth), written_case / "target", FIXTURE)
    for key in ("precision", "recall", "f1", "near_recall", "label_acc", "src_path_acc", "src_line_acc"):
        assert result[key] == 1.0, key
    assert result["exactness"] == 1.0 and result["pairing_acc"] == 1.0 and result["fp_rate"] == 0.0
    assert result["n_lines"] == int((truth["kind"] == "code").sum())
    everything = metrics.score(truth, metrics.truth_report(truth), written_case / "target", FIXTURE, scope="all")
    assert everything["n_lines"] == int((truth["kind"] != "blank").sum()) and everything["f1"] == 1.0


def test_silent_tool_and_missing_rows(written_case):
    truth = metrics.read_truth(written_case / "truth.csv")
    silent = metrics.truth_report(truth).assign(match="none", upstream_path="", upstream_line=pd.NA)
    result = metrics.score(truth, silent, written_case / "target", FIXTURE)
    assert result["recall"] == 0.0 and result["precision"] == 1.0 and result["f1"] == 0.0
    assert math.isnan(result["exactness"]) and result["pairing_acc"] == 0.0
    empty = metrics.score(truth, silent.iloc[:0], written_case / "target", FIXTURE)
    assert empty["n_missing"] == empty["n_lines"] and empty["recall"] == 0.0


def test_greedy_tool_in_a_negative_control(tmp_path, upstream):
    case = generate.build_generated_negative(upstream, 1)
    out = generate.write_case(case, tmp_path / "neg")
    truth = metrics.read_truth(out / "truth.csv")
    greedy = metrics.truth_report(truth).assign(match="near", upstream_path="minipkg/cache.py", upstream_line=1)
    result = metrics.score(truth, greedy, out / "target", FIXTURE)
    assert result["fp_rate"] == 1.0 and result["f1"] == 0.0 and result["recall"] == 1.0
    assert math.isnan(result["exactness"])


def test_hand_counted_example(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "u").mkdir()
    (tmp_path / "t" / "a.py").write_text("x = 1\ny = 2\nz = 3\nw = 4\nv = 5\n")
    (tmp_path / "u" / "a.py").write_text("x = 1\ny = 2\nz = 9\nq = 0\nx = 1\n")
    truth = pd.DataFrame(
        {
            "target_path": ["a.py"] * 5,
            "line": [1, 2, 3, 4, 5],
            "copied": [1, 1, 1, 0, 0],
            "expected": ["verbatim", "verbatim", "near", "none", "none"],
            "upstream_path": ["a.py", "a.py", "a.py", "", ""],
            "upstream_line": pd.array([1, 2, 3, None, None], dtype="Int64"),
            "operator": ["whole_file"] * 5,
            "kind": ["code"] * 5,
        }
    )
    report = pd.DataFrame(
        {
            "target_path": ["a.py"] * 5,
            "line": [1, 2, 3, 4, 5],
            "match": ["verbatim", "verbatim", "none", "verbatim", "none"],
            "upstream_path": ["a.py", "a.py", "", "a.py", ""],
            # line 1 names upstream line 5, which holds the same text: right for src_line_acc,
            # wrong for src_line_exact_acc; line 4 claims a verbatim copy of a different line.
            "upstream_line": [5, 2, None, 4, None],
        }
    )
    result = metrics.score(truth, report, tmp_path / "t", tmp_path / "u")
    assert (result["tp"], result["fp"], result["fn"], result["tn"]) == (2, 1, 1, 1)
    assert result["precision"] == pytest.approx(2 / 3) and result["recall"] == pytest.approx(2 / 3)
    assert result["near_recall"] == 0.0
    assert result["src_path_acc"] == 1.0 and result["src_line_acc"] == 1.0
    assert result["src_line_exact_acc"] == 0.5
    assert result["exactness"] == pytest.approx(2 / 3)
    assert result["fp_rate"] == 0.5 and result["pairing_acc"] == 1.0
    assert metrics.exactness(report, tmp_path / "t", tmp_path / "u") == pytest.approx(2 / 3)
    pooled = metrics.aggregate([result, result])
    assert pooled["tp"] == 4 and pooled["precision"] == pytest.approx(2 / 3)


def test_pairing_uses_the_most_frequent_upstream_file():
    rows = pd.DataFrame(
        {
            "target_path": ["a.py"] * 4 + ["b.py"] * 2,
            "copied": [1, 1, 1, 0, 1, 1],
            "upstream_path": ["x.py", "x.py", "y.py", "", "x.py", "y.py"],
            "t_match": ["near", "verbatim", "verbatim", "verbatim", "verbatim", "verbatim"],
            "t_path": ["y.py", "x.py", "y.py", "y.py", "y.py", "z.py"],
        }
    )
    # a.py: truth main x.py, tool main y.py (3 of 4) -> wrong.  b.py: truth tie {x, y},
    # tool tie {y, z} -> min is y.py, in the truth's tie -> right.
    assert metrics.pairing_counts(rows) == (2, 1)


def test_read_report_accepts_empty_cells(tmp_path):
    path = tmp_path / "lines.csv"
    path.write_text(
        "target_path,line,kind,match,upstream_path,upstream_line,similarity\n"
        "a.py,1,code,verbatim,u.py,3,1.0\n"
        "a.py,2,code,none,,,0\n"
        "./a.py,2,code,near,u.py,4,0.5\n"
    )
    report = metrics.read_report(path)
    assert list(report["match"]) == ["verbatim", "none"]
    assert report["upstream_line"].isna().tolist() == [False, True]


# ---------------------------------------------------------------------------------------
# Harness with stand-in tools
# ---------------------------------------------------------------------------------------


def _truth_tool(target: Path, upstream: Path, work: Path, timeout: float = 0) -> pd.DataFrame:
    truth = metrics.read_truth(target.parent / "truth.csv")
    frame = metrics.truth_report(truth)
    frame.to_csv(work / "lines.csv", index=False)
    return metrics.normalize_report(frame)


def _silent_tool(target: Path, upstream: Path, work: Path, timeout: float = 0) -> pd.DataFrame:
    truth = metrics.read_truth(target.parent / "truth.csv")
    return metrics.truth_report(truth).assign(match="none", upstream_path="", upstream_line=pd.NA)


def _broken_tool(target: Path, upstream: Path, work: Path, timeout: float = 0) -> pd.DataFrame:
    raise RuntimeError("tool crashed")


def test_harness_with_stand_in_tools(tmp_path, monkeypatch):
    monkeypatch.setitem(run_eval.TOOLS, "truth", _truth_tool)
    monkeypatch.setitem(run_eval.TOOLS, "silent", _silent_tool)
    monkeypatch.setitem(run_eval.TOOLS, "broken", _broken_tool)
    monkeypatch.setattr(run_eval, "tool_version", lambda name: f"{name}-test")
    out = tmp_path / "out"
    results, runs = run_eval.run_suite(
        tools=["truth", "silent", "broken"],
        cases="whole_file,insert_unrelated,mixed,negative_control",
        out=out,
        small=True,
        cache_dir=tmp_path / "cache",
        log=lambda message: None,
    )
    assert (out / "results.csv").exists() and (out / "results.md").exists()
    saved = pd.read_csv(out / "results.csv")
    assert len(saved) == len(results)
    code = results[results["scope"] == "code"]
    ops = code[code["level"] == "operator"].set_index(["tool", "operator"])
    for operator in ("whole_file", "insert_unrelated", "mixed", "negative_control"):
        assert ops.loc[("truth", operator), "f1"] == 1.0
        assert ops.loc[("truth", operator), "exactness"] in (1.0,) or operator == "negative_control"
    assert ops.loc[("silent", "whole_file"), "recall"] == 0.0
    assert ops.loc[("truth", "negative_control"), "fp_rate"] == 0.0
    cases = code[code["level"] == "case"]
    assert set(cases.loc[cases["tool"] == "broken", "error"]) == {"RuntimeError: tool crashed"}
    assert len(code[code["level"] == "tag"]) > 3  # the mixed case, per line operator
    markdown = (out / "results.md").read_text()
    for needle in ("## Per operator", "## Per case", "## Negative control", "truth truth-test", "tool crashed"):
        assert needle in markdown
    # Cases are cached by seed: a second run reuses the same directories.
    first = sorted(p.name for p in (tmp_path / "cache" / "eval" / "cases" / "minipkg").iterdir())
    run_eval.run_suite(
        tools=["truth"], cases="whole_file", out=out, small=True, cache_dir=tmp_path / "cache", log=lambda m: None
    )
    assert sorted(p.name for p in (tmp_path / "cache" / "eval" / "cases" / "minipkg").iterdir()) == first


def test_case_selection_rejects_unknown_names():
    specs = run_eval.small_specs(0, 30)
    assert {s.name for s in run_eval.select(specs, "all")} == {*generate.CASES, generate.NEGATIVE_CASE}
    assert [s.case_id for s in run_eval.select(specs, "minipkg/mixed,whole_file")] == [
        "minipkg/whole_file",
        "minipkg/mixed",
    ]
    with pytest.raises(SystemExit):
        run_eval.select(specs, "no_such_operator")


# ---------------------------------------------------------------------------------------
# Corpora (no network: the pins are checked, a wheel is made here)
# ---------------------------------------------------------------------------------------


def test_corpora_pins():
    config, (target, upstream_name) = corpora.load_config()
    positive = [c for c in config.values() if c.role == "positive"]
    assert len(positive) >= 4
    assert target in config and upstream_name in config and target != upstream_name
    for corpus in config.values():
        assert re.fullmatch(r"[0-9a-f]{64}", corpus.sha256)
        assert corpus.filename.endswith("-py3-none-any.whl")
        assert corpus.filename.lower().startswith(corpus.name.replace("-", "_").lower() + "-" + corpus.version)


def test_unpack_python_keeps_only_package_sources(tmp_path):
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("demo/__init__.py", "x = 1\n")
        archive.writestr("demo/sub/mod.py", "y = 2\n")
        archive.writestr("demo/data.json", "{}")
        archive.writestr("demo-1.0.dist-info/METADATA", "Name: demo\n")
        archive.writestr("demo-1.0.dist-info/fake.py", "z = 3\n")
    wheel.write_bytes(buffer.getvalue())
    dest = corpora.unpack_python(wheel, tmp_path / "demo-1.0")
    files = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert files == [".complete", "demo/__init__.py", "demo/sub/mod.py"]
    assert corpora.sha256_of(wheel) == corpora.sha256_of(wheel)


def test_cache_root_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LINEAGE_CACHE_DIR", str(tmp_path))
    assert corpora.eval_cache() == tmp_path / "eval"
    monkeypatch.delenv("LINEAGE_CACHE_DIR")
    assert corpora.cache_root() == Path.home() / ".cache" / "lineage"
