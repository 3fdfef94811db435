"""Tests for lineage.match, end to end through lineage.api.compare on synthetic trees.

Every tree comes from tests/treegen.py, which knows where each target line came from; the
expected label of a line (verbatim / near / none) and its upstream line are derived from that
construction, never typed in by hand.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import treegen
from conftest import Runner, file_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from treegen import TLine, Upstream

from lineage.api import Comparison, compare
from lineage.index import Indexer
from lineage.match import MatchParams, line_similarity
from lineage.settings import RunSettings

UP = "upstream"  # directory name, hence label, of the primary upstream


def mismatches(comparison: Comparison, path: str, tlines: list[TLine], up_files: dict[str, str],
               label: str = UP, lines: set[int] | None = None) -> list[str]:
    """Every line of ``path`` whose row disagrees with the truth of its construction."""
    frame = file_lines(comparison, path)
    truth = treegen.expected(tlines, up_files)
    assert len(frame) == len(tlines), f"{path}: {len(frame)} rows for {len(tlines)} lines"
    bad = []
    for number, (want, t) in enumerate(zip(truth, tlines, strict=True), start=1):
        if lines is not None and number not in lines:
            continue
        row = frame.loc[number]
        got = (row["match"], row["upstream_path"],
               0 if pd.isna(row["upstream_line"]) else int(row["upstream_line"]),
               row["upstream"])
        wanted = (want.label, want.upstream_path, want.upstream_line, label if want.upstream_path else "")
        if got != wanted:
            bad.append(f"{path}:{number} {t.text.strip()!r}: got {got}, want {wanted}")
    return bad


def after_header(m: treegen.UpModule, tlines: list[TLine]) -> set[int]:
    """Line numbers after the copied module header.

    A header (docstring, imports, one constant) weighs less than a region on its own, so it is
    only found when it stays next to the code that follows it upstream.
    """
    return set(range(m.header_end + 1, len(tlines) + 1))


def header_and_defs(m: treegen.UpModule, defs: list[treegen.Def]) -> list[TLine]:
    """A target file: the module's header, then the given definitions, two blank lines apart."""
    out = treegen.copy_lines(m, 0, m.header_end)
    for d in defs:
        out += treegen.copy_def(m, d) + treegen.new_lines(["", ""])
    return out


@pytest.fixture(scope="module")
def up() -> Upstream:
    return treegen.gen_upstream(seed=20240611)


@pytest.fixture(scope="module")
def up_files(up: Upstream) -> dict[str, str]:
    return up.files()


# ---------------------------------------------------------------------------------------------
# Whole files, moved files, package and identifier renames, edited literals
# ---------------------------------------------------------------------------------------------


def test_whole_file_copy_is_all_verbatim(run_compare: Runner, up: Upstream, up_files: dict[str, str]) -> None:
    target = dict(up_files)
    comparison = run_compare(target, [(UP, up_files)])
    lines = comparison.lines
    assert set(lines["target_path"]) == set(target)
    # every module (the one-line __init__.py is too little evidence to count)
    content = lines[(lines["kind"] != "blank") & lines["target_path"].isin(list(up.modules))]
    assert len(content) > 200
    assert (content["match"] == "verbatim").all()
    assert (content["upstream_path"] == content["target_path"]).all()
    assert (content["upstream_line"] == content["line"]).all()
    assert (content["upstream"] == UP).all()
    blank = lines[lines["kind"] == "blank"]
    assert len(blank) > 0
    assert (blank["match"] == "none").all() and (blank["upstream_path"] == "").all()
    assert blank["upstream_line"].isna().all()
    files = comparison.files.set_index("target_path")
    for path in up.modules:
        assert files.loc[path, "copied_share"] == 1.0
        assert files.loc[path, "upstream_path"] == path
        assert files.loc[path, "upstream_files"] == 1


def test_moved_and_renamed_file_is_still_paired(run_compare: Runner, up: Upstream,
                                                up_files: dict[str, str]) -> None:
    moved = {}
    truth = {}
    for k, m in enumerate(up.modules.values()):
        new_path = f"vendor/third_party/part{k}/renamed_{k}.py"
        truth[new_path] = treegen.copy_module(m)
        moved[new_path] = treegen.render(truth[new_path])
    comparison = run_compare(moved, [(UP, up_files)])
    for path, tlines in truth.items():
        assert mismatches(comparison, path, tlines, up_files) == []
    files = comparison.files.set_index("target_path")
    for path, tlines in truth.items():
        assert files.loc[path, "upstream_path"] == tlines[0].origin[0]


def test_top_level_package_rename_in_imports_is_near(run_compare: Runner, up: Upstream,
                                                     up_files: dict[str, str]) -> None:
    new_pkg = "forkedpkg"
    target, truth = {}, {}
    for m in up.modules.values():
        tlines = treegen.replace_word(treegen.copy_module(m), up.pkg, new_pkg)
        path = m.path.replace(up.pkg + "/", new_pkg + "/", 1)
        target[path], truth[path] = treegen.render(tlines), tlines
    comparison = run_compare(target, [(UP, up_files)])
    renamed_lines = 0
    for path, tlines in truth.items():
        assert mismatches(comparison, path, tlines, up_files) == []
        frame = file_lines(comparison, path)
        for number, t in enumerate(tlines, start=1):
            if new_pkg in t.text:
                renamed_lines += 1
                assert frame.loc[number, "match"] == "near"
                if t.text.lstrip().startswith(("import ", "from ")):
                    assert frame.loc[number, "upstream_line"] == t.origin[1]
    assert renamed_lines >= 2 * len(truth)  # both import lines of every module at least


def test_consistent_identifier_rename_is_near(run_compare: Runner, up: Upstream,
                                              up_files: dict[str, str]) -> None:
    m = up.module(0)
    tlines = treegen.copy_module(m)
    rng = random.Random(7)
    names = treegen.Names(rng)
    # rename every top-level function and a few local names that occur inside them
    functions = [d.name for d in m.defs if d.kind == "function"]
    locals_ = sorted({w for line in m.lines[m.header_end:] for w in line.replace("(", " ").split()
                      if w.isidentifier() and len(w) >= 9 and w not in functions})[:6]
    for old in functions + locals_:
        tlines = treegen.replace_word(tlines, old, "r" + names.ident())
    changed = sum(t.text != m.lines[t.origin[1] - 1] for t in tlines)
    assert changed >= 10
    comparison = run_compare({"pkg/renamed.py": treegen.render(tlines)}, [(UP, up_files)])
    assert mismatches(comparison, "pkg/renamed.py", tlines, up_files) == []


def test_edited_literals_are_near(run_compare: Runner, up: Upstream, up_files: dict[str, str]) -> None:
    m = up.module(1)
    tlines = treegen.edit_literals(treegen.copy_module(m), random.Random(11), share=0.4)
    edited = sum(t.text != m.lines[t.origin[1] - 1] for t in tlines)
    assert edited >= 10
    comparison = run_compare({m.path: treegen.render(tlines)}, [(UP, up_files)])
    assert mismatches(comparison, m.path, tlines, up_files) == []


# ---------------------------------------------------------------------------------------------
# Inserted and common lines must not be claimed
# ---------------------------------------------------------------------------------------------

INSERTS = [
    ["return None"],
    ["pass"],
    ["import os"],
    ["x = None", "pass"],
    ["if x:", "    return None", "else:", "    pass"],
    ["import os", "import sys", "return None"],
]


def test_inserted_unrelated_lines_inside_copied_functions_stay_none(
        run_compare: Runner, up: Upstream, up_files: dict[str, str]) -> None:
    m = up.module(2)
    tlines = treegen.copy_module(m)
    rng = random.Random(5)
    # insert each block after a random body line of a different function, from the bottom up
    functions = [d for d in m.defs if d.kind == "function"]
    methods = [meth for d in m.defs for meth in d.methods if meth.name != "__init__"]
    places = []
    for k, block in enumerate(INSERTS):
        d = (functions + methods)[k % len(functions + methods)]
        row = rng.randrange(d.start + 2, d.end - 1)  # after the docstring, before the return
        places.append((row, block))
    for row, block in sorted(places, reverse=True):
        tlines = treegen.insert_after(tlines, row, block, indent_like=row)
    inserted = {n for n, t in enumerate(tlines, start=1) if t.origin is None}
    assert len(inserted) == sum(len(b) for b in INSERTS)
    comparison = run_compare({m.path: treegen.render(tlines)}, [(UP, up_files)])
    frame = file_lines(comparison, m.path)
    assert frame.loc[sorted(inserted), "match"].tolist() == ["none"] * len(inserted)
    assert mismatches(comparison, m.path, tlines, up_files) == []


def _common_upstream_module(names: treegen.Names) -> str:
    """An upstream module that holds the common lines ``return None``, ``)``, ``else:``."""
    f, g, a, b = (names.ident() for _ in range(4))
    return treegen.dedent_src(f'''
        def {f}({a}, {b}):
            if {a} is None:
                return None
            else:
                {b} = {g}(
                    {a},
                    {b} * {names.number()},
                )
            return {b}
    ''')


def test_lone_common_lines_in_an_unrelated_file_are_none(run_compare: Runner, up_files: dict[str, str]
                                                         ) -> None:
    names = treegen.Names(random.Random(99))
    upstream = dict(up_files)
    upstream["commonlib/shapes.py"] = _common_upstream_module(names)
    common = ["return None", ")", "else:"]
    assert all(any(line.strip() == c for line in upstream["commonlib/shapes.py"].splitlines())
               for c in common)
    h, p, q = names.ident(), names.ident(), names.ident()
    own = treegen.own_code(names, 2) + treegen.new_lines(treegen.dedent_src(f'''
        def {h}({p}, {q}):
            if {p} > {q}:
                return None
            else:
                print(
                    {p} - {q},
                    {q},
                )
            return {p}
    ''').splitlines())
    comparison = run_compare({"mine/own.py": treegen.render(own)}, [(UP, upstream)])
    frame = file_lines(comparison, "mine/own.py")
    assert set(frame["match"]) == {"none"}
    assert (frame["upstream_path"] == "").all()
    assert comparison.regions.empty
    assert comparison.files.set_index("target_path").loc["mine/own.py", "copied_share"] == 0.0


def test_unrelated_target_has_no_copied_lines(run_compare: Runner, up_files: dict[str, str]) -> None:
    other = treegen.gen_upstream(seed=424242)
    comparison = run_compare(other.files(), [(UP, up_files)])
    assert set(comparison.lines["match"]) == {"none"}
    assert comparison.regions.empty


# ---------------------------------------------------------------------------------------------
# Structural edits: reorder, dedent, split, merge, re-wrap
# ---------------------------------------------------------------------------------------------


def test_reordered_functions_are_found(run_compare: Runner, up: Upstream, up_files: dict[str, str]) -> None:
    m = up.module(0)
    order = list(m.defs)
    random.Random(3).shuffle(order)
    while order == m.defs:
        random.Random(4).shuffle(order)
    tlines = header_and_defs(m, order)
    comparison = run_compare({"reordered.py": treegen.render(tlines)}, [(UP, up_files)])
    assert mismatches(comparison, "reordered.py", tlines, up_files, lines=after_header(m, tlines)) == []


def test_swapped_functions_of_the_same_shape_name_their_own_lines(run_compare: Runner) -> None:
    """Many real modules hold near-identical functions (same statements, other names). Swapping
    two of them must not make the textual copy lose to a structural (abstract-form) match: each
    line is a verbatim copy of its own upstream line and must be labelled so."""
    same = treegen.gen_upstream(seed=5, n_modules=1, n_functions=4, n_classes=0, same_shape=True)
    files = same.files()
    m = same.module(0)
    # precondition of the construction: the functions agree line by line in their abstract form
    record = Indexer().index(m.path, files[m.path].encode(), "x")
    first, second = m.defs[0], m.defs[1]
    assert (record.h_abs[first.start:first.end].tolist()[2:]
            == record.h_abs[second.start:second.end].tolist()[2:])
    assert record.h_norm[first.start + 2] != record.h_norm[second.start + 2]
    tlines = header_and_defs(m, [second, first, *m.defs[2:]])
    comparison = run_compare({"swapped.py": treegen.render(tlines)}, [(UP, files)])
    assert mismatches(comparison, "swapped.py", tlines, files, lines=after_header(m, tlines)) == []


def test_dedented_methods_are_found(run_compare: Runner, up: Upstream, up_files: dict[str, str]) -> None:
    m = next(mod for mod in up.modules.values() if any(d.kind == "class" for d in mod.defs))
    cls = next(d for d in m.defs if d.kind == "class")
    tlines = treegen.copy_lines(m, 0, m.header_end)
    for meth in cls.methods:
        tlines += treegen.dedent(treegen.copy_def(m, meth)) + treegen.new_lines(["", ""])
    assert all(not t.text.startswith("    def") for t in tlines)
    comparison = run_compare({"flat.py": treegen.render(tlines)}, [(UP, up_files)])
    assert mismatches(comparison, "flat.py", tlines, up_files, lines=after_header(m, tlines)) == []


def test_split_file_names_the_upstream_file_in_both_parts(run_compare: Runner, up: Upstream,
                                                          up_files: dict[str, str]) -> None:
    m = up.module(1)
    half = len(m.defs) // 2
    first, second = header_and_defs(m, m.defs[:half]), header_and_defs(m, m.defs[half:])
    comparison = run_compare({"split/a.py": treegen.render(first), "split/b.py": treegen.render(second)},
                             [(UP, up_files)])
    # the first part keeps the header next to the code that follows it upstream
    assert mismatches(comparison, "split/a.py", first, up_files) == []
    assert mismatches(comparison, "split/b.py", second, up_files, lines=after_header(m, second)) == []
    files = comparison.files.set_index("target_path")
    assert files.loc["split/a.py", "upstream_path"] == m.path
    assert files.loc["split/b.py", "upstream_path"] == m.path


def test_merged_file_names_both_upstream_files(run_compare: Runner, up: Upstream,
                                               up_files: dict[str, str]) -> None:
    m0, m1 = up.module(0), up.module(2)
    tlines = header_and_defs(m0, m0.defs[:3])
    body_start = len(tlines)
    for d in m1.defs[1:]:
        tlines += treegen.copy_def(m1, d) + treegen.new_lines(["", ""])
    comparison = run_compare({"merged.py": treegen.render(tlines)}, [(UP, up_files)])
    # the header lines common to all generated modules (``from __future__ ...``) may be claimed by
    # either side; every line of a definition must name its own file
    assert mismatches(comparison, "merged.py", tlines, up_files,
                      lines=set(range(body_start + 1, len(tlines) + 1)) | set(range(11, body_start))) == []
    row = comparison.files.set_index("target_path").loc["merged.py"]
    assert row["upstream_files"] == 2
    assert m0.path in row["upstream_paths"] and m1.path in row["upstream_paths"]
    share = {m0.path: sum(t.origin is not None and t.origin[0] == m0.path and t.text.strip() != ""
                          for t in tlines),
             m1.path: sum(t.origin is not None and t.origin[0] == m1.path and t.text.strip() != ""
                          for t in tlines)}
    assert row["upstream_path"] == max(share, key=lambda p: share[p])
    regions = comparison.regions
    assert set(regions["upstream_path"]) == {m0.path, m1.path}


def test_rewrapped_call_is_near(run_compare: Runner, up: Upstream, up_files: dict[str, str]) -> None:
    m = next(mod for mod in up.modules.values() if len(mod.calls) >= 2)
    rows = {(m.path, r + 1) for r in m.calls}
    tlines = treegen.rewrap_calls(treegen.copy_module(m), rows)
    pieces = [n for n, t in enumerate(tlines, start=1) if t.origin in rows]
    assert len(pieces) >= 4 * len(rows)
    comparison = run_compare({m.path: treegen.render(tlines)}, [(UP, up_files)])
    frame = file_lines(comparison, m.path)
    for number in pieces:
        t = tlines[number - 1]
        if t.text.strip() == ")":
            # a lone ')' carries no evidence; it may stay none, but must not name another line
            assert frame.loc[number, "match"] == "none" or frame.loc[number, "upstream_line"] == t.origin[1]
            continue
        assert frame.loc[number, "match"] == "near", (number, t.text)
        assert frame.loc[number, "upstream_line"] == t.origin[1], (number, t.text)
    others = set(range(1, len(tlines) + 1)) - set(pieces)
    assert mismatches(comparison, m.path, tlines, up_files, lines=others) == []


def test_joined_multiline_call_is_near(run_compare: Runner, up_files: dict[str, str]) -> None:
    """The reverse re-wrap: a call spread over lines upstream is written on one line."""
    m_names = treegen.Names(random.Random(31))
    upstream = dict(up_files)
    f, a, b, k1, k2 = (m_names.ident() for _ in range(5))
    body = [f"def {f}({a}, {b}):",
            f"    {m_names.ident()} = {a} * {m_names.number()} + {b} - {m_names.number()}",
            f"    {m_names.ident()} = [{a} + {b} * {m_names.number()} for {b} in range({m_names.number()})]",
            f"    {a} = {m_names.ident()}.{m_names.ident()}(",
            f"        {a},",
            f"        {k1}=\"{m_names.word()}\",",
            f"        {k2}={m_names.number()},",
            "    )",
            f"    {b} = {{\"{m_names.word()}\": {a}, \"{m_names.word()}\": len({b})}}",
            f"    assert {a} is not {b}, \"{m_names.sentence()}\"",
            f"    return {a}, {b}"]
    upstream["wrapped/calls.py"] = "\n".join(body) + "\n"
    call = body[3:8]
    joined = call[0] + " ".join(s.strip() for s in call[1:-2]) + " " + call[-2].strip() + ")"
    joined = joined.replace("( ", "(").replace(",)", ")")
    target = [TLine(t, ("wrapped/calls.py", n)) for n, t in enumerate(body[:3], start=1)]
    target.append(TLine(joined, ("wrapped/calls.py", 4)))
    target += [TLine(t, ("wrapped/calls.py", n)) for n, t in enumerate(body[8:], start=9)]
    comparison = run_compare({"joined.py": treegen.render(target)}, [(UP, upstream)])
    frame = file_lines(comparison, "joined.py")
    assert frame.loc[4, "match"] == "near"
    assert frame.loc[4, "upstream_path"] == "wrapped/calls.py"
    assert 4 <= frame.loc[4, "upstream_line"] <= 8
    assert mismatches(comparison, "joined.py", target, upstream, lines={1, 2, 3, 5, 6, 7}) == []


# ---------------------------------------------------------------------------------------------
# Several upstreams, determinism
# ---------------------------------------------------------------------------------------------


def test_code_from_the_second_upstream_names_it(run_compare: Runner, up: Upstream,
                                                up_files: dict[str, str]) -> None:
    second = treegen.gen_upstream(seed=77, n_modules=2)
    second_files = second.files()
    from_second = header_and_defs(second.module(0), second.module(0).defs)
    from_first = treegen.copy_module(up.module(0))
    mixed = (header_and_defs(up.module(1), up.module(1).defs[:2])
             + [TLine(t.text, t.origin) for t in treegen.copy_def(second.module(1), second.module(1).defs[0])])
    target = {"a.py": treegen.render(from_first), "b.py": treegen.render(from_second),
              "c.py": treegen.render(mixed)}
    comparison = run_compare(target, [(UP, up_files), ("second", second_files)])
    assert comparison.upstream_names == [UP, "second"]
    assert mismatches(comparison, "a.py", from_first, up_files) == []
    assert mismatches(comparison, "b.py", from_second, second_files, label="second") == []
    frame = file_lines(comparison, "c.py")
    for number, t in enumerate(mixed, start=1):
        if t.origin is None or not t.text.strip():
            continue
        expected_label = "second" if t.origin[0] in second_files and t.origin[0] not in up_files else UP
        assert frame.loc[number, "upstream"] == expected_label, (number, t.text)
        assert frame.loc[number, "upstream_path"] == t.origin[0]
    files = comparison.files.set_index("target_path")
    assert files.loc["b.py", "upstream"] == "second"
    assert files.loc["a.py", "upstream"] == UP
    summary = comparison.summary()
    assert set(summary["per_upstream"]) == {UP, "second"}


def test_the_file_at_the_target_files_place_beats_a_heavier_twin(run_compare: Runner, up: Upstream,
                                                                 up_files: dict[str, str]) -> None:
    """A twin upstream file holds the module and more code the target file also copied (aphrodite's
    solar.py against vLLM's solar.py and granite.py): the target file stands at the module's own
    path, so the module's lines are credited there (``claim_placed_file_first``); weight first,
    the twin takes all."""
    m, other = up.module(0), up.module(1)
    twin = "zz_twin/" + m.path
    upstream = dict(up_files) | {twin: up_files[m.path] + up_files[other.path]}
    placed = treegen.copy_module(m) + treegen.copy_module(other)
    own = range(1, 1 + len(up_files[m.path].splitlines()))

    def sources(params: MatchParams) -> set[str]:
        frame = file_lines(run_compare({m.path: treegen.render(placed)}, [(UP, upstream)], params=params),
                           m.path).loc[list(own)]
        return set(frame.loc[frame["match"] != "none", "upstream_path"])

    assert sources(MatchParams()) == {m.path}
    assert sources(MatchParams(claim_placed_file_first=0)) == {twin}


def test_ties_between_identical_upstream_copies(run_compare: Runner, up: Upstream,
                                                 up_files: dict[str, str]) -> None:
    """The same module at two upstream paths: a marker naming one path decides; without a
    marker the first path in sorted order is named, for every line."""
    m = up.module(0)
    vendored = "zz_vendor/" + m.path
    upstream = dict(up_files) | {vendored: up_files[m.path]}
    marker = f"# Copied from https://github.com/example/{up.pkg}/blob/v1.0/{vendored}"
    marked = treegen.new_lines([marker]) + treegen.copy_module(m)
    plain = treegen.copy_module(m)
    comparison = run_compare({"marked.py": treegen.render(marked), "plain.py": treegen.render(plain)},
                             [(UP, upstream)])
    lines = comparison.lines
    copied = lines[lines["match"] != "none"]
    assert set(copied.loc[copied["target_path"] == "marked.py", "upstream_path"]) == {vendored}
    assert set(copied.loc[copied["target_path"] == "plain.py", "upstream_path"]) == {min(m.path, vendored)}
    files = comparison.files.set_index("target_path")
    assert bool(files.loc["marked.py", "marker_path_found"]) is True


def test_a_file_the_marker_names_beats_a_heavier_twin(run_compare: Runner, up: Upstream,
                                                      up_files: dict[str, str]) -> None:
    """A twin upstream file holds the named module and more code the target also copied, so its
    candidate outweighs the named file's. The target file's marker names the module's own path:
    its lines are credited there (``claim_named_file_first``); weight first, the twin takes all."""
    m, other = up.module(0), up.module(1)
    twin = "zz_twin/" + m.path
    upstream = dict(up_files) | {twin: up_files[m.path] + up_files[other.path]}
    marker = f"# Copied from https://github.com/example/{up.pkg}/blob/v1.0/{m.path}"
    marked = treegen.new_lines([marker]) + treegen.copy_module(m) + treegen.copy_module(other)
    own = range(2, 2 + len(up_files[m.path].splitlines()))

    def sources(lines: list[str], params: MatchParams) -> set[str]:
        frame = file_lines(run_compare({"marked.py": treegen.render(lines)}, [(UP, upstream)], params=params),
                           "marked.py").loc[list(own)]
        return set(frame.loc[frame["match"] != "none", "upstream_path"])

    assert sources(marked, MatchParams()) == {m.path}
    assert sources(marked, MatchParams(claim_named_file_first=0)) == {twin}
    # A bare file name names no project: it may be the target's own file (sglang's "Adapted from
    # qwen2_moe.py"), so weight decides.
    bare = treegen.new_lines([f"# Adapted from {m.path.rsplit('/', 1)[-1]}"]) + marked[1:]
    assert sources(bare, MatchParams()) == {twin}


def test_a_later_upstream_wins_a_tie(run_compare: Runner, up: Upstream, up_files: dict[str, str]) -> None:
    """Code found equally in the primary upstream and in a further one (a third party the primary
    itself vendored) is named after the further upstream."""
    m = up.module(1)
    tlines = treegen.copy_module(m)
    comparison = run_compare({"copy.py": treegen.render(tlines)},
                             [(UP, up_files), ("thirdparty", {m.path: up_files[m.path]})])
    assert mismatches(comparison, "copy.py", tlines, up_files, label="thirdparty") == []


def test_two_runs_are_byte_identical(tmp_path: Path, up: Upstream, up_files: dict[str, str]) -> None:
    rng = random.Random(8)
    m0, m1 = up.module(0), up.module(1)
    target = {
        "a.py": treegen.render(treegen.edit_literals(treegen.copy_module(m0), rng)),
        "b/c.py": treegen.render(header_and_defs(m1, list(reversed(m1.defs)))),
        "own.py": treegen.render(treegen.own_code(treegen.Names(rng), 3)),
        "skipped.py": b"x = '\xff\xfe'\n",
    }
    t_root = treegen.write_tree(tmp_path / "target", target)
    u_root = treegen.write_tree(tmp_path / UP, up_files)
    outputs = []
    for k in range(2):
        comparison = compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=tmp_path / f"cache{k}", jobs=1))
        out = tmp_path / f"out{k}"
        comparison.write(out)
        outputs.append(out)
    for name in ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md"):
        first, second = (o / name for o in outputs)
        assert first.read_bytes() == second.read_bytes(), name
    assert "verbatim" in (outputs[0] / "lines.csv").read_text()


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------


def test_line_similarity_bounds() -> None:
    assert line_similarity("x = 1", "x = 1") == 1.0
    assert line_similarity("", "x") == 0.0
    assert 0.0 <= line_similarity("abc def", "completely different") < 1.0
    assert line_similarity("a  =  b", "a = b") == 1.0


MUTATIONS = ("rename", "literals", "insert", "reorder", "dedent", "rewrap", "delete", "own_code")


def _mutated_target(seed: int, mutations: list[str], up: Upstream) -> dict[str, list[TLine]]:
    rng = random.Random(f"target:{seed}")  # not the upstream's stream of names
    names = treegen.Names(rng)
    target: dict[str, list[TLine]] = {}
    for k, m in enumerate(up.modules.values()):
        if rng.random() < 0.25:
            continue
        defs = list(m.defs)
        if "reorder" in mutations:
            rng.shuffle(defs)
        tlines = treegen.copy_lines(m, 0, m.header_end)
        for d in defs:
            if "delete" in mutations and rng.random() < 0.2:
                continue
            if "dedent" in mutations and d.kind == "class":
                for meth in d.methods:
                    tlines += treegen.dedent(treegen.copy_def(m, meth)) + treegen.new_lines([""])
            else:
                tlines += treegen.copy_def(m, d) + treegen.new_lines(["", ""])
        if "rename" in mutations:
            words = sorted({w for line in m.lines for w in line.replace("(", " ").split()
                            if w.isidentifier() and len(w) > 6})
            for old in rng.sample(words, min(4, len(words))):
                tlines = treegen.replace_word(tlines, old, names.ident())
        if "literals" in mutations:
            tlines = treegen.edit_literals(tlines, rng, share=0.3)
        if "rewrap" in mutations:
            tlines = treegen.rewrap_calls(tlines, {(m.path, r + 1) for r in m.calls})
        if "insert" in mutations:
            for _ in range(3):
                at = rng.randrange(m.header_end, len(tlines) - 1)
                if tlines[at].text.startswith(" "):
                    tlines = treegen.insert_after(tlines, at, rng.choice(INSERTS)[:1], indent_like=at)
        if "own_code" in mutations:
            tlines = treegen.own_code(names, 1) + tlines
        target[f"t{k}/{names.ident(2)}.py"] = tlines
    target["own.py"] = treegen.own_code(names, 2)
    return target


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), mutations=st.lists(st.sampled_from(MUTATIONS), unique=True, max_size=4))
def test_labels_are_exact(tmp_path_factory: pytest.TempPathFactory, seed: int, mutations: list[str]) -> None:
    """Whatever the edits: a verbatim line equals the upstream line it names, and every copied
    line names a real upstream file and line."""
    up = treegen.gen_upstream(seed, n_modules=2, n_functions=3)
    up_files = up.files()
    target = _mutated_target(seed, mutations, up)
    base = tmp_path_factory.mktemp("prop")
    t_root = treegen.write_tree(base / "target", {p: treegen.render(t) for p, t in target.items()})
    u_root = treegen.write_tree(base / UP, up_files)
    comparison = compare(str(t_root), [str(u_root)], settings=RunSettings(use_cache=False, jobs=1),
                         params=MatchParams())
    lines = comparison.lines
    assert len(lines) == sum(len(t) for t in target.values())
    up_lines = {p: text.splitlines() for p, text in up_files.items()}
    for row in lines.itertuples():
        text = target[row.target_path][row.line - 1].text
        if row.match == "none":
            assert row.upstream_path == "" and pd.isna(row.upstream_line) and row.upstream == ""
            continue
        assert row.kind != "blank"
        assert row.upstream == UP
        assert row.upstream_path in up_lines
        assert 1 <= row.upstream_line <= len(up_lines[row.upstream_path])
        named = up_lines[row.upstream_path][row.upstream_line - 1]
        assert named.strip() != ""
        if row.match == "verbatim":
            assert text.strip() == named.strip(), (row.target_path, row.line)
            assert row.similarity == 1.0
        else:
            assert text.strip() != named.strip(), (row.target_path, row.line)
    # our own code never names the upstream
    assert set(lines.loc[lines["target_path"] == "own.py", "match"]) == {"none"}


@settings(max_examples=60, deadline=None)
@given(
    up=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3)), min_size=0, max_size=40),
    tg=st.lists(st.tuples(st.integers(0, 8), st.booleans()), min_size=0, max_size=30),
    max_count=st.integers(1, 6),
)
def test_lookup_finds_exactly_the_pairs_a_brute_force_finds(up, tg, max_count) -> None:
    """The vectorised key lookup against a plain double loop: same pairs, same counts."""
    from lineage.match.hits import lookup as _lookup

    keys_u = np.array([k for k, _ in up], dtype=np.int64)
    files_u = np.array([f for _, f in up], dtype=np.int64)
    keys_t = np.array([k for k, _ in tg], dtype=np.int64)
    eligible = np.array([e for _, e in tg], dtype=bool)
    t_idx, u_idx, count, in_file = _lookup(keys_u, files_u, keys_t, eligible, max_count)
    got = list(zip(t_idx.tolist(), u_idx.tolist(), count.tolist(), in_file.tolist(), strict=True))
    assert got == sorted(got)  # by target line, then upstream line: the order the rules rely on
    expected = []
    for t, (key, ok) in enumerate(tg):
        places = [u for u, (k, _) in enumerate(up) if k == key]
        if not ok or not places or len(places) > max_count:
            continue
        for u in places:
            same_file = sum(1 for k, f in up if k == key and f == up[u][1])
            expected.append((t, u, len(places), same_file))
    assert got == sorted(expected)


# ----------------------------------------------------------------- evidence rules, one by one

_LONG_IDIOM = 'pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA required")'


def test_one_long_rare_line_alone_is_not_a_region(run_compare: Runner) -> None:
    """A single line, however long and unique upstream, is an idiom, not evidence of copying."""
    upstream = {"up/tests_gpu.py": f"import pytest\nimport torch\n\n{_LONG_IDIOM}\n\n\ndef test_a():\n    assert 1\n"}
    target = {"mine/test_x.py": f"import os\n\n{_LONG_IDIOM}\n\n\ndef test_mine():\n    assert os.sep\n"}
    comparison = run_compare(target, [("up", upstream)])
    assert set(comparison.lines["match"]) == {"none"}
    assert comparison.regions.empty


def test_byte_identical_reexport_file_is_copied_whole(run_compare: Runner) -> None:
    """An ``__init__`` that only re-exports names has no distinctive line, but a byte-identical
    copy of a file that size is a copy."""
    names = [f"name_{k}" for k in range(12)]
    text = "from .core import (\n" + "".join(f"    {n},\n" for n in names) + ")\n\n__all__ = [\n" + "".join(
        f'    "{n}",\n' for n in names) + "]\n"
    comparison = run_compare({"fork/__init__.py": text}, [("up", {"pkg/__init__.py": text})])
    frame = file_lines(comparison, "fork/__init__.py")
    content = frame[frame["kind"] != "blank"]
    assert set(content["match"]) == {"verbatim"}
    assert (content["upstream_line"] == content["line"]).all()


def test_tiny_identical_file_is_not_evidence(run_compare: Runner) -> None:
    text = '__version__ = "1.0"\n'
    comparison = run_compare({"fork/version.py": text}, [("up", {"pkg/version.py": text})])
    assert set(comparison.lines["match"]) == {"none"}


def test_small_function_moved_alone_is_found_by_its_identical_block(run_compare: Runner) -> None:
    """Too light for a region by its hits alone, a small function copied on its own is found
    because it holds six identical consecutive lines."""
    small = ('def is_ipv4_address(string_ip):\n    """\n    :rtype: bool\n    """\n    try:\n'
             '        socket.inet_aton(string_ip)\n    except OSError:\n        return False\n    return True\n')
    upstream = {"up/utils.py": "import socket\n\n\ndef other(x):\n    return x * 2\n\n\n" + small}
    target = {"mine/net.py": "import socket\n\n\n" + small + "\n\ndef mine():\n    return 42\n"}
    comparison = run_compare(target, [("up", upstream)])
    frame = file_lines(comparison, "mine/net.py")
    body = frame[(frame["line"] >= 4) & (frame["line"] <= 12)]
    assert set(body["match"]) == {"verbatim"}
    assert set(frame[frame["line"] >= 15]["match"]) == {"none"}


def test_call_rewrapped_after_the_last_hit_is_near(run_compare: Runner) -> None:
    """A formatter split the closing call of a copied function over four lines (with a trailing
    comma): every piece is near the one upstream line it came from."""
    head = ("class CaseInsensitiveLookup:\n"
            "    def __init__(self, mapping_name):\n"
            "        self.mapping_name = mapping_name\n"
            "        self.stored_items = {}\n"
            "        self.lookup_count = 0\n\n"
            "    def fetch_value(self, lookup_key, fallback_value=None):\n"
            "        self.lookup_count += 1\n")
    upstream = {"up/structures.py": head + "        return self.stored_items.get(lookup_key.lower(), fallback_value)\n"}
    target = {"mine/structures.py": head + (
        "        return self.stored_items.get(\n"
        "            lookup_key.lower(),\n"
        "            fallback_value,\n"
        "        )\n")}
    comparison = run_compare(target, [("up", upstream)])
    frame = file_lines(comparison, "mine/structures.py")
    tail = frame[frame["line"] >= 9]
    assert set(tail["match"]) == {"near"}
    assert set(tail["upstream_line"].astype(int)) == {9}


def test_a_rewrapped_call_after_a_run_is_not_misplaced_by_a_lone_hit(run_compare: Runner,
                                                                       up_files: dict[str, str]) -> None:
    """The first piece of a call re-wrapped right after a run (``record_field(``) is found
    opposite another call of the upstream file that is wrapped the same way; that lone hit must
    not end the region there and leave the call's other pieces unpaired."""
    upstream = dict(up_files)
    body = ["def populate_attribute_record(self, alpha_name, beta_default, gamma_check, delta_flag):",
            "    # Despite the warning people do instantiate the record themselves.",
            "    record_field = _object_setattr_hook.__get__(self, PopulatedAttributeRecord)",
            '    record_field("alpha_name", alpha_name)',
            '    record_field("beta_default", beta_default)',
            '    record_field("gamma_check", gamma_check)',
            '    record_field("delta_flag", delta_flag)',
            "    if delta_flag is not None and gamma_check is None:",
            "        raise PopulatedRecordError(alpha_name, beta_default, delta_flag)",
            "    record_field(",
            '        "epsilon_metadata_mapping",',
            "        _empty_metadata_mapping_factory(alpha_name, beta_default),",
            "    )",
            "    return self"]
    upstream["records/populate.py"] = "\n".join(body) + "\n"
    target_lines = body[:3] + ["    record_field(", '        "alpha_name",', "        alpha_name,", "    )"] + body[4:]
    comparison = run_compare({"records/populate.py": "\n".join(target_lines) + "\n"}, [(UP, upstream)])
    frame = file_lines(comparison, "records/populate.py")
    for number in (4, 5, 6):  # the pieces of the re-wrapped call, from upstream line 4
        assert frame.loc[number, "match"] == "near", number
        assert frame.loc[number, "upstream_line"] == 4, number
    assert frame.loc[7, "match"] == "none" or frame.loc[7, "upstream_line"] == 4
    assert (frame.loc[8:, "match"] == "verbatim").all()
    assert list(frame.loc[8:, "upstream_line"]) == list(range(5, 15))


def test_a_line_of_a_form_twice_upstream_takes_the_run_that_goes_on(run_compare: Runner) -> None:
    """Two neighbouring upstream lines of one shape (two ``re.compile`` patterns): the target
    re-wrapped the first and edited the second's pattern. The second's shape is found opposite
    both upstream lines; the run that continues below it (its own line, then the lines after)
    places it, so it is not paired with the first pattern's line, which its re-wrapped pieces
    then take."""
    head = ["def scan_document_sections(document_text, strict_mode=False):",
            '    """Find the declared sections of a marked-up document."""',
            "    if not isinstance(document_text, str):",
            '        raise TypeError(f"document must be text, not {type(document_text).__name__}")',
            "    normalised_text = document_text.replace(chr(13), chr(10))",
            ""]
    tail = ['    footer_re = re.compile(r"^</?sections?-footer\\s*>$", flags=re.M)',
            "",
            "    found_sections = opening_re.findall(normalised_text)",
            "    found_closers = closing_re.findall(normalised_text)",
            "    if strict_mode and len(found_sections) != len(found_closers):",
            '        raise ValueError("unbalanced section markers in the document")',
            "    return found_sections, footer_re.search(normalised_text) is not None"]
    upstream_body = head + [
        '    opening_re = re.compile(r"<section\\s+name=[\\"\']*(.+?)[\\"\'>]", flags=re.I)',
        '    closing_re = re.compile(r"</section\\s+name=[\\"\']*;?label=(.+?)[\\"\'>]", flags=re.I)',
    ] + tail
    target_body = head + [
        "    opening_re = re.compile(",
        '        r"<section\\s+name=[\\"\']*(.+?)[\\"\'>]",',
        "        flags=re.I,",
        "    )",
        '    closing_re = re.compile(r"</section\\s+name=[\\"\']*;?title=(.+?)[\\"\'>]", flags=re.I)',
    ] + tail
    comparison = run_compare({"docs/sections.py": "\n".join(target_body) + "\n"},
                             [(UP, {"docs/sections.py": "\n".join(upstream_body) + "\n"})])
    frame = file_lines(comparison, "docs/sections.py")
    assert frame.loc[11, "match"] == "near" and frame.loc[11, "upstream_line"] == 8
    for number in (7, 8, 9, 10):  # the pieces of the re-wrapped first pattern
        assert frame.loc[number, "match"] == "near", number
        assert frame.loc[number, "upstream_line"] == 7, number


_REDIRECT_UP = ("def resolve_the_redirects_of(self, resp, req, stream=False):\n"
                "    hops_followed_so_far = 0\n"
                "    while (('location' in resp.headers and resp.status_code in REDIRECT_STATI)):\n"
                "        prepared_request = req.copy()\n"
                "        hops_followed_so_far += self.count_the_redirect_hop(resp)\n"
                "        resp.content_of_the_response_is_consumed_here()\n")


def test_a_whole_statement_is_no_fragment_of_the_line_opposite(run_compare: Runner) -> None:
    """requests 2.32.3 wrote ``while url:`` where the old loop's long condition stood, its body
    copied. As a "fragment" of the old condition (partial_ratio 0.75) it is near; compared
    whole, as the statement it is, it is none (``near_whole_statements``); the rest stays
    verbatim."""
    target = _REDIRECT_UP.replace(
        "    while (('location' in resp.headers and resp.status_code in REDIRECT_STATI)):\n", "    while url:\n")
    _near_only_as_a_fragment(run_compare, "pkg/sessions.py", target, _REDIRECT_UP, 3, [1, 2, 4, 5, 6])


def _near_only_as_a_fragment(run_compare: Runner, path: str, target: str, upstream: str, line: int,
                             kept: list[int]) -> None:
    """With ``near_whole_statements`` off, line ``line`` of ``target`` (at ``path`` on both sides)
    is near its upstream line of that number; on, it is none, and lines ``kept`` stay verbatim."""
    files = {path: target}, [("up", {path: upstream})]
    off = file_lines(run_compare(*files, params=MatchParams(near_whole_statements=0)), path)
    assert off.loc[line, "match"] == "near" and int(off.loc[line, "upstream_line"]) == line
    on = file_lines(run_compare(*files), path)
    assert on.loc[line, "match"] == "none"
    assert list(on.loc[kept, "match"]) == ["verbatim"] * len(kept)


_DIGEST_UP = ("def build_the_digest_response(self, method, path, realm, nonce):\n"
              "    first_digest_part = compute_the_first_digest_part(self.username, realm)\n"
              "    second_digest_part = compute_the_second_digest_part(method, path)\n"
              "    respdig = KD(hash_utf8(first_digest_part), '%s:%s' % (nonce, hash_utf8(second_digest_part)))\n"
              "    self.last_nonce_count_value = increment_the_nonce_counter(nonce)\n"
              "    return build_the_authorization_header(respdig, realm)\n")
# requests 2.32.3 computes both digests first, then the response from them.
_DIGEST_TARGET = _DIGEST_UP.replace(
    "    respdig = KD(hash_utf8(first_digest_part), '%s:%s' % (nonce, hash_utf8(second_digest_part)))\n",
    "    HA1 = hash_utf8(first_digest_part)\n"
    "    HA2 = hash_utf8(second_digest_part)\n"
    "    respdig = KD(HA1, f'{nonce}:{HA2}:{method}')\n")


def test_a_whole_statement_the_gap_alignment_finds_inside_a_longer_line_must_be_similar(
        run_compare: Runner) -> None:
    """The region's gap holds the two new digest statements and the rewritten response; the
    character alignment finds ``HA1 = hash_utf8(first_digest_part)`` inside the old response
    line. As a piece of it, it is near; compared whole (ratio below ``near_min_similarity``),
    it is none (``near_whole_statements``)."""
    _near_only_as_a_fragment(run_compare, "pkg/auth.py", _DIGEST_TARGET, _DIGEST_UP, 4, [1, 2, 3, 7, 8])


_JAR_UP = ("class RequestsCookieJar(cookielib.CookieJar):\n"
           "    def copy(self):\n"
           "        new_cj = RequestsCookieJar()\n"
           "        new_cj.set_policy(self.get_policy())\n"
           "        new_cj.update(self)\n"
           "        return new_cj\n"
           "\n\n"
           "def create_cookie(name, value, **kwargs):\n"
           "    result_of_the_cookie = dict(version=0, name=name, value=value, port=None)\n"
           "    badargs_of_the_call = set(kwargs) - set(result_of_the_cookie)\n"
           "    result_of_the_cookie.update(kwargs)\n"
           "    return cookielib.Cookie(**result_of_the_cookie)\n")
# requests 2.32.3: a new helper of its own above the copied create_cookie.
_JAR_TARGET = ("def _copy_cookie_jar(jar):\n"
               "    if jar is None:\n"
               "        return None\n"
               "    new_jar = copy.copy(jar)\n"
               "    new_jar.clear()\n"
               "    return new_jar\n"
               "\n\n" + _JAR_UP[_JAR_UP.index("def create_cookie"):])


def test_a_region_extends_above_a_definition_only_by_identical_lines(run_compare: Runner) -> None:
    """``return new_jar``, the end of the target's own helper, stands just above the copied
    ``def create_cookie`` as ``return new_cj`` stands above the upstream's: extending the region
    upward by likeness (0.89) pairs it near; above a definition's header only identical lines
    extend it (``edge_definition_boundary``), and it is none."""
    files = {"pkg/cookies.py": _JAR_TARGET}, [("up", {"pkg/cookies.py": _JAR_UP})]
    off = file_lines(run_compare(*files, params=MatchParams(edge_definition_boundary=0)), "pkg/cookies.py")
    assert off.loc[6, "match"] == "near" and int(off.loc[6, "upstream_line"]) == 6
    on = file_lines(run_compare(*files), "pkg/cookies.py")
    assert on.loc[6, "match"] == "none"
    assert list(on.loc[9:13, "match"]) == ["verbatim"] * 5


def _stub_client(drop: tuple[str, str] | None = None) -> str:
    """A type stub of many methods that repeat one parameter list (as elasticsearch's client
    stubs do): its lines are too common in the file to seed a region each."""
    params = ["index: Any,", "id: Any,", "*,", "body: Any,", "doc_type: Optional[Any] = ...,",
              "pipeline: Optional[Any] = ...,", "refresh: Optional[Any] = ...,", "routing: Optional[Any] = ...,",
              "timeout: Optional[Any] = ...,", "version: Optional[Any] = ...,",
              "version_type: Optional[Any] = ...,", "wait_for_active_shards: Optional[Any] = ...,",
              "pretty: Optional[bool] = ...,", "human: Optional[bool] = ...,", "error_trace: Optional[bool] = ...,"]
    out = ["from typing import Any, Optional", "", "", "class Client:"]
    for name in ["create", "index", "update", "delete", "get", "exists", "explain"]:
        out += [f"    def {name}(", "        self,"]
        out += ["        " + p for p in params if (name, p.split(":")[0]) != drop]
        out.append("    ) -> Any: ...")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("shift", [3, 0])
def test_a_region_edge_walks_on_past_a_dropped_line_on_the_identical_lines(run_compare: Runner, shift: int) -> None:
    """opensearch-py's stubs dropped elasticsearch's ``doc_type`` parameter: the region's edge
    walk paired each following parameter near with the one above its own upstream line
    (``pipeline`` <- ``doc_type``) until edge_shift moved it to the identical lines."""
    comparison = run_compare({"pkg/c.pyi": _stub_client(drop=("index", "doc_type"))},
                             [(UP, {"pkg/c.pyi": _stub_client()})],
                             params=MatchParams(edge_shift_max_lines=shift))
    lines = file_lines(comparison, "pkg/c.pyi")
    after = lines.loc[29:34]  # ``pipeline`` .. ``version_type`` of ``index``, one line up from upstream's
    assert after["target_path"].size == 6
    if shift:
        assert after["match"].tolist() == ["verbatim"] * 6
        assert after["upstream_line"].tolist() == list(range(30, 36))
    else:  # without the rule: each near its neighbour's line (the defect)
        assert after["match"].tolist() == ["near"] * 6
        assert after["upstream_line"].tolist() == list(range(29, 35))


def test_edge_shift_moves_a_walk_only_onto_identical_lines_of_enough_tokens() -> None:
    from lineage.match.labels import edge_shift

    p = MatchParams()
    t_keys = np.array([1, 2, 3, 9, 4, 5], np.int64)  # the target inserted line 3 (key 9)
    u_keys = np.array([1, 2, 3, 4, 5, 6], np.int64)
    tokens = np.array([9, 9, 9, 9, 9, 9], np.int64)
    assert edge_shift(t_keys, u_keys, tokens, 3, 3, 1, p) == (4, 3)  # skip the target's own line
    assert edge_shift(t_keys, u_keys, tokens, 2, 2, 1, p) == (2, 2)  # identical in place: no move
    assert edge_shift(u_keys, t_keys, tokens, 3, 3, 1, p) == (3, 4)  # the upstream's line dropped
    few = np.array([1, 1, 1, 1, 1, 1], np.int64)  # ``)`` found a line further moves nothing
    assert edge_shift(t_keys, u_keys, few, 3, 3, 1, p) == (3, 3)
    assert edge_shift(t_keys, u_keys, tokens, 3, 3, 1, MatchParams(edge_shift_max_lines=0)) == (3, 3)


def test_a_marker_naming_a_folder_the_upstream_holds_names_no_missing_file(run_compare: Runner, up: Upstream,
                                                                            up_files: dict[str, str]) -> None:
    """lmdeploy's nn/__init__.py: "adapted from .../vllm/blob/main/vllm/attention/", a folder
    vLLM holds: the path is found, so no report says the marker names a file the trees lack; a
    folder the upstream does not hold is still not found."""
    from lineage.results.figures import names_missing_file

    folder = up.module(0).path.rsplit("/", 1)[0]
    held = f"# Adapted from https://github.com/example/{up.pkg}/blob/main/{folder}/\n"
    gone = f"# Adapted from https://github.com/example/{up.pkg}/blob/main/{folder}/removed_folder/\n"
    own = "def f(x):\n    return x + 1\n"
    comparison = run_compare({"held.py": held + own, "gone.py": gone + own}, [(UP, up_files)])
    files = comparison.files.set_index("target_path")
    assert "/" in up.module(0).path and files.loc["held.py", "marker_path"] == folder
    assert bool(files.loc["held.py", "marker_path_found"]) is True
    assert not names_missing_file(files.loc["held.py", "marker_path"], files.loc["held.py", "marker_path_found"])
    assert bool(files.loc["gone.py", "marker_path_found"]) is False
    # what the path was found as (a reviewer reads the marker's own path beside it)
    assert files.loc["held.py", "marker_upstream_path"] == folder
    assert files.loc["gone.py", "marker_upstream_path"] == ""


def test_a_dotted_marker_name_shows_the_file_it_was_found_as(run_compare: Runner, up: Upstream,
                                                              up_files: dict[str, str]) -> None:
    """"Copied from pkg.mod.func" names the module file: files.csv keeps the path as written
    (``pkg/mod/func.py``) and shows the upstream file it was found as beside it."""
    module = up.module(0).path.removesuffix(".py")
    marker = f"# Copied from {module.replace('/', '.')}.some_function\n"
    comparison = run_compare({"dotted.py": marker + "def f(x):\n    return x + 1\n"}, [(UP, up_files)])
    row = comparison.files.set_index("target_path").loc["dotted.py"]
    assert row["marker_path"] == f"{module}/some_function.py"
    assert bool(row["marker_path_found"]) is True
    assert row["marker_upstream_path"] == up.module(0).path


def test_a_folder_marker_is_found_as_a_file_path_is() -> None:
    from lineage.results.tables import names_upstream_folder, upstream_folders

    folders = upstream_folders(["vllm/attention/ops/a.py", "vllm/attention/b.py", "vllm/c.py"])
    assert folders == {"vllm", "vllm/attention", "vllm/attention/ops"}
    assert names_upstream_folder("vllm/attention/", folders)
    assert names_upstream_folder("src/vllm/attention", folders)  # a repository's leading folder
    assert names_upstream_folder("attention/ops", folders)  # a path below the package's root
    assert not names_upstream_folder("attention", folders)  # one component: exactly only
    assert not names_upstream_folder("vllm/removed", folders) and not names_upstream_folder("", folders)
    from lineage.results.tables import upstream_folder_named

    assert upstream_folder_named("src/vllm/attention", folders) == "vllm/attention"
    assert upstream_folder_named("attention/ops", folders) == "vllm/attention/ops"
    assert upstream_folder_named("vllm/removed", folders) == ""
