"""The HTML report's pages, without a browser (tests/test_html_browser.py drives chromium)."""

from __future__ import annotations

import base64
import re
import zlib
from html import unescape
from pathlib import Path

import htmlfixture
import pytest

from lineage.api import Comparison, compare
from lineage.index import TreeIndex
from lineage.report.highlight import colour, inner_differences, render, statement_starts
from lineage.report.html import page_name, write_html
from lineage.settings import RunSettings


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Comparison, Path]:
    base = tmp_path_factory.mktemp("html")
    comparison = htmlfixture.build(base)
    out = base / "out"
    out.mkdir()
    write_html(comparison, out)
    return comparison, out / "html"


def test_page_names_are_stable_readable_and_safe() -> None:
    name = page_name("pkg/sub/mod.py")
    assert name == page_name("pkg/sub/mod.py")
    assert re.fullmatch(r"pkg_sub_mod\.py-[0-9a-f]{12}\.html", name)
    assert page_name("pkg/Mod.py") != page_name("pkg/mod.py")  # case-folding disks keep them apart
    evil = page_name(htmlfixture.EVIL_NAME)
    assert re.fullmatch(r"[A-Za-z0-9._-]+\.html", evil)
    assert len(page_name("a/" * 200 + "x.py")) < 120
    assert page_name("\udcff.py") != page_name("\udcfe.py")  # undecodable bytes (surrogateescape)
    # a long path keeps whole trailing names, never a cut inside one ("ang_kernels_...")
    long = "sglang/srt/layers/quantization/compressed_tensors/schemes/compressed_tensors_w4a8_fp8_moe.py"
    assert page_name(long).startswith("quantization_compressed_tensors_schemes_compressed_tensors_w4a8_fp8_moe.py-")
    assert page_name("x" * 200 + ".py").startswith("x" * 77 + ".py-")  # one long name: its tail


def test_pages_only_for_copied_or_marked_files(report: tuple[Comparison, Path]) -> None:
    _, html_dir = report
    names = {p.name for p in html_dir.iterdir()}
    expected = {page_name(p) for p in ("app/scheduler.py", htmlfixture.EVIL_NAME, "app/marked_only.py")}
    assert names == expected | {"index.html", "lineage.css", "lineage.js"}
    index = (html_dir / "index.html").read_text(encoding="utf-8")
    for name in expected:
        assert f"href='{name}'" in index
    assert "app/own.py" not in index


def test_index_has_a_heading_for_every_column(report: tuple[Comparison, Path]) -> None:
    """Each row's cells under a heading of their own: the marker's text stood under no heading and
    the "marker" heading over the upstream file (sorting by it sorted by upstream file)."""
    _, html_dir = report
    index = (html_dir / "index.html").read_text(encoding="utf-8")
    table = index[index.index("<table id=files"):index.index("</table>")]
    head, body = table.split("<tbody>")
    headings = re.findall(r"<th[^>]*>([^<]+)", head)
    assert headings == ["target file", "non-blank", "verbatim", "near", "copied", "upstream file", "marker", "shared"]
    # the counts are of non-blank lines, summary.md's of code lines: each count's heading says so
    titles = dict(re.findall(r"<th[^>]*title='([^']*)'[^>]*>([^<]+)", head)[k][::-1] for k in range(4))
    assert all("non-blank" in titles[h] for h in ("non-blank", "verbatim", "near", "copied"))
    assert len(re.findall(r"<col ", head)) == len(headings)
    rows = body.split("<tr>")[1:]
    assert rows and all(row.count("<td") == len(headings) for row in rows)


def test_nothing_from_the_inputs_reaches_html_unescaped(report: tuple[Comparison, Path]) -> None:
    _, html_dir = report
    for page in html_dir.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert htmlfixture.PWNED not in text.replace("&lt;script&gt;" + htmlfixture.PWNED, ""), page.name
        # the only script element is the shared, external one
        assert re.findall(r"<script[^>]*>", text) == ["<script defer src=lineage.js>"], page.name
    evil = (html_dir / page_name(htmlfixture.EVIL_NAME)).read_text(encoding="utf-8")
    assert "x&lt;script&gt;" + htmlfixture.PWNED + "&lt;/script&gt;.py" in evil  # the name, escaped
    assert "&lt;script&gt;" + htmlfixture.PWNED in evil  # the code, escaped
    assert "Content-Security-Policy" in evil and "'unsafe-inline'" not in evil


def test_file_page_side_by_side(report: tuple[Comparison, Path]) -> None:
    comparison, html_dir = report
    page = (html_dir / page_name("app/scheduler.py")).read_text(encoding="utf-8")
    lines = comparison.lines[comparison.lines["target_path"] == "app/scheduler.py"]
    near = lines[lines["match"] == "near"]
    verbatim = lines[lines["match"] == "verbatim"]
    assert len(near) and len(verbatim)
    for row in verbatim.itertuples():  # every copied line: an anchor, its upstream line number beside it
        assert re.search(rf"<tr id=L{row.line} class=v><td>{row.line}<td>.*?<td>{int(row.upstream_line)}<td>", page)
    for row in near.itertuples():  # near lines carry the words that differ, on both sides
        found = re.search(rf"<tr id=L{row.line} class=e [^>]*>(.*?)(<tr|</tbody>)", page)
        assert found and found.group(1).count("<mark>") >= 2, row.line
    assert "<mark>token_budget</mark>" in page and "<mark>max_batch_tokens</mark>" in page
    assert "<i class=t" in page  # Pygments colours
    regions = comparison.regions[comparison.regions["target_path"] == "app/scheduler.py"]
    assert len(regions) == 2
    for r in regions.itertuples():  # each region: a heading naming its upstream file and lines, then its first line
        assert re.search(rf"<tr id=R{r.region} class=rh>.*?upstreamlib/scheduler\.py</b></a> lines "
                         rf"{r.upstream_start}–{r.upstream_end} .*?</span><tr id=L{r.target_start} ", page)
    assert page.count("class=next>next</a>") == 1 and page.count("class=prev>previous</a>") == 1
    # the marker line is shown and linked from the header
    assert "<a href=#L1>line 1</a>" in page and "<tr id=L1 class=mk" in page


def test_folded_lines_hold_the_exact_text(report: tuple[Comparison, Path]) -> None:
    """Unchanged stretches are folded into a compressed attribute that lineage.js expands; with the
    rows shown they give back the whole file, every line once."""
    comparison, html_dir = report
    for path in ("app/scheduler.py", "app/marked_only.py"):
        page = (html_dir / page_name(path)).read_text(encoding="utf-8")
        source = comparison.target.lines(path)
        seen: dict[int, str] = {}
        for first, data in re.findall(r"data-a=(\d+) data-n=\d+ data-z='([A-Za-z0-9+/=]*)'", page):
            for k, text in enumerate(zlib.decompress(base64.b64decode(data)).decode("utf-8").split("\n")):
                seen[int(first) + k] = text
        assert seen, path
        for number in re.findall(r"<tr id=L(\d+)", page):
            assert int(number) not in seen
            seen[int(number)] = source[int(number) - 1]
        assert [seen[k] for k in sorted(seen)] == source and sorted(seen) == list(range(1, len(source) + 1))


def test_writing_is_deterministic(report: tuple[Comparison, Path], tmp_path: Path) -> None:
    comparison, html_dir = report
    write_html(comparison, tmp_path)
    for page in html_dir.iterdir():
        assert (tmp_path / "html" / page.name).read_bytes() == page.read_bytes(), page.name


def test_each_file_is_read_once_not_per_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Linear writing: an identical file of many lines reads its text once per side (issue 9
    measured 39 s at 160k lines when every line re-read its upstream file). The timing itself is
    in tests/bench/html_scaling.py."""
    text = "".join(f"value_{k} = compute({k}, 'item {k}')\n" for k in range(3000))
    up = tmp_path / "up"
    (up / "pkg").mkdir(parents=True)
    (up / "pkg" / "big.py").write_text(text)
    target = tmp_path / "t"
    (target / "pkg").mkdir(parents=True)
    (target / "pkg" / "big.py").write_text(text)
    comparison = compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    _ = comparison.obligations  # the obligations table's own reading (the pages show its rows), made once per run
    calls: list[str] = []
    original = TreeIndex.lines

    def counting(self: TreeIndex, path: str) -> list[str]:
        calls.append(path)
        return original(self, path)

    monkeypatch.setattr(TreeIndex, "lines", counting)
    write_html(comparison, tmp_path)
    assert calls == ["pkg/big.py", "pkg/big.py"]
    page = (tmp_path / "html" / page_name("pkg/big.py")).read_text(encoding="utf-8")
    assert len(re.findall(r"<tr id=L\d+ class=v>", page)) == 3000


def test_upstream_lines_paired_elsewhere_are_not_upstream_only(tmp_path: Path) -> None:
    """Imports taken in another order: the upstream lines between two paired ones are paired too
    (further down), so they are not "in the upstream only" (disnake's abc.py showed discord's
    ``from .invite import Invite`` both beside its copy and as dropped by the target)."""
    import treegen

    body = treegen.distinctive_functions(5, 4)
    names = ["alpha", "beta", "gamma", "delta", "epsilon"]
    up_order, target_order = names, ["alpha", "delta", "epsilon", "beta", "gamma"]
    up = treegen.write_tree(tmp_path / "up", {"lib/mod.py": "".join(f"import {n}_module\n" for n in up_order)
                                              + "\n\n" + body})
    target = treegen.write_tree(tmp_path / "t", {"app/mod.py": "".join(f"import {n}_module\n" for n in target_order)
                                                 + "\n\n" + body})
    comparison = compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    lines = comparison.lines.set_index("line")
    assert [int(lines.loc[k, "upstream_line"]) for k in range(1, 6)] == [1, 4, 5, 2, 3]
    write_html(comparison, tmp_path)
    page = (tmp_path / "html" / page_name("app/mod.py")).read_text(encoding="utf-8")
    assert "<tr class=u>" not in page  # every upstream line of the region is paired


def test_colour_keeps_a_string_open_across_lines() -> None:
    lines = ["x = 1", 's = """first', "def not_code():", '"""', "y = 2"]
    # lexing may start at line 1 only: line 3 is inside the string and must be coloured as one
    pieces = colour(lines, statement_starts(len(lines), []), [(3, 3)])
    assert [cls for cls, _ in pieces[3]] == [pieces[2][-1][0]]  # one piece, the string's colour
    assert "".join(t for _, t in pieces[3]) == "def not_code():"
    assert statement_starts(10, [(2, 4)], [7]) == [1, 2, 5, 7]


def test_render_and_inner_differences() -> None:
    a, b = "    total = max_batch + 1", "    total = token_budget + 1"
    ra, rb = inner_differences(a, b)
    assert [a[x:y] for x, y in ra] == ["max_batch"] and [b[x:y] for x, y in rb] == ["token_budget"]
    html = render([("", "    "), ("t1", "total = "), ("", "max_batch + 1 <b>")], ra)
    assert html == "    <i class=t1>total = </i><mark>max_batch</mark> + 1 &lt;b&gt;"
    # a mark across pieces is cut at their edges
    assert (render([("t1", "ab"), ("t2", "cd")], [(1, 3)])
            == "<i class=t1>a<mark>b</mark></i><i class=t2><mark>c</mark>d</i>")
    assert inner_differences("x" * 1000, "y" * 1000) == ([], [])


def test_a_marked_page_without_copies_says_the_named_file_is_not_compared(tmp_path: Path) -> None:
    """sglang's ``configs/dbrx.py`` names vLLM's ``transformers_utils/configs/dbrx.py``, which
    vLLM 0.32.0 no longer holds: its page shows no copy, and now says why."""
    import treegen

    body = treegen.distinctive_functions(3)
    up = treegen.write_tree(tmp_path / "upstream", {"upstream/a.py": body})
    target = treegen.write_tree(tmp_path / "t", {
        "pkg/a.py": body,
        "pkg/b.py": "# Adapted from https://github.com/org/upstream/blob/v1.2.0/upstream/gone.py\n"
                    "def mine(x):\n    return x * 7\n",
        "pkg/c.py": "# Adapted from https://github.com/org/upstream/blob/v1.2.0/upstream/a.py\n"
                    "def other(x):\n    return x * 9\n"})
    comparison = compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    write_html(comparison, tmp_path)
    gone = (tmp_path / "html" / page_name("pkg/b.py")).read_text(encoding="utf-8")
    assert "The file it names, <code>upstream/gone.py</code>, is not in the trees compared" in gone
    assert "(the marker points at v1.2.0)" in gone
    held = (tmp_path / "html" / page_name("pkg/c.py")).read_text(encoding="utf-8")
    assert "is not in the trees compared" not in held  # the named file is there: no such note


def test_folded_stretches_are_named_not_copied(report: tuple[Comparison, Path]) -> None:
    """A fold hides lines that were not copied, so its button says so: "unchanged lines" read as
    lines the same as upstream (werkzeug 3.0.4 vs 2.0.3: "115 unchanged lines" over auth.py's
    rewritten, uncopied first 115 lines)."""
    comparison, html_dir = report
    lines = comparison.lines
    folds = 0
    for path in ("app/scheduler.py", "app/marked_only.py"):
        page = (html_dir / page_name(path)).read_text(encoding="utf-8")
        assert "unchanged" not in page
        rows = lines[lines["target_path"] == path]
        match = dict(zip(rows["line"], rows["match"], strict=True))
        for count, first, last in re.findall(r"([\d,]+) lines not copied \(L(\d+)–L(\d+)\) folded: show", page):
            folds += 1
            assert int(count.replace(",", "")) == int(last) - int(first) + 1
            assert {match[k] for k in range(int(first), int(last) + 1)} == {"none"}
    assert folds
    assert "stretches of lines not copied are folded" in (html_dir / "index.html").read_text(encoding="utf-8")


def test_shared_third_party_lines_are_not_shown_as_target_only(tmp_path: Path) -> None:
    """sglang 0.4.1's models/baichuan.py holds ten lines vLLM has only in falcon.py, code vLLM took
    from transformers (set apart, not counted): its page painted them "in the target only", the
    upstream side empty. They are their own kind now: grey, the upstream file and lines beside
    them, the reason once per run, and never folded away."""
    import treegen

    own, third = treegen.distinctive_functions(1), treegen.distinctive_functions(2)
    up = treegen.write_tree(tmp_path / "up-src", {
        "up/__init__.py": "", "up/core.py": own, "up/third_party/fastlib/kernels.py": third,
        "pyproject.toml": '[project]\nname = "up"\n'})
    target = treegen.write_tree(tmp_path / "t", {"tgt/__init__.py": "", "tgt/mixed.py": own + "\n\n" + third,
                                                 "pyproject.toml": '[project]\nname = "tgt"\n'})
    comparison = compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    lines = comparison.lines[comparison.lines["target_path"] == "tgt/mixed.py"]
    shared = lines[lines["shared_origin"] == "third_party:fastlib"]
    assert len(shared) > 5 and (shared["match"] == "none").all()
    write_html(comparison, tmp_path)
    page = (tmp_path / "html" / page_name("tgt/mixed.py")).read_text(encoding="utf-8")
    assert "<span class=s " in page and "shared, not counted" in page  # in the key
    rows = dict(re.findall(r"<tr id=L(\d+) class=s title='shared: third_party:fastlib'><td>\d+<td>.*?<td>(\d*)<td",
                           page))
    assert sorted(map(int, rows)) == shared["line"].tolist()  # every shared line shown, none folded
    assert [int(rows[str(k)]) for k in shared["line"]] == shared["shared_line"].tolist()
    note = "shared with up/third_party/fastlib/kernels.py (third-party code of fastlib): not counted as copied"
    assert page.count(note) == 1
    assert not re.search(rf"<tr id=L({'|'.join(rows)}) class=x", page)
    # beside each, the upstream file's line itself (it was its number only, the reviewer checking
    # that the code is fastlib's had nothing to compare), the reason on a row of its own above the run
    theirs = {int(n): unescape(re.sub(r"<[^>]+>", "", cell)) for n, cell in re.findall(
        r"<tr id=L(\d+) class=s [^>]*><td>\d+<td>.*?<td>\d*<td>(.*?)(?=<tr|</tbody>)", page)}
    up_lines = third.splitlines()
    assert {n: theirs[n] for n in shared["line"]} == {
        n: up_lines[u - 1] for n, u in zip(shared["line"], shared["shared_line"], strict=True)}
    assert f"<tr class=s><td><td><td><td class=note>{note}<tr id=L{shared['line'].min()} class=s" in page


def test_a_file_with_only_shared_code_has_a_page_saying_why_nothing_is_counted(tmp_path: Path) -> None:
    """A file whose code the upstream holds only in a vendored third-party folder counts no copied
    line; the reviewer checking that decision needs its page (it had none: no copy, no marker)."""
    import treegen

    own, third = treegen.distinctive_functions(1), treegen.distinctive_functions(2)
    up = treegen.write_tree(tmp_path / "up-src", {
        "up/__init__.py": "", "up/core.py": own, "up/third_party/fastlib/kernels.py": third,
        "pyproject.toml": '[project]\nname = "up"\n'})
    mine = "def own_helper(pages):\n    return sorted(pages)[::-1]\n"
    target = treegen.write_tree(tmp_path / "t", {"tgt/__init__.py": "", "tgt/kernels.py": third, "tgt/mine.py": mine,
                                                 "pyproject.toml": '[project]\nname = "tgt"\n'})
    comparison = compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    row = comparison.files.set_index("target_path").loc["tgt/kernels.py"]
    assert row["verbatim_lines"] + row["near_lines"] == 0 and row["marker"] == ""
    assert row["shared_third_party_code_lines"] > 5
    write_html(comparison, tmp_path)
    page = (tmp_path / "html" / page_name("tgt/kernels.py")).read_text(encoding="utf-8")
    shared = int(row["shared_third_party_lines"])
    assert (f"{shared:,} lines shared, not counted as copied: most with "
            "<b>up/third_party/fastlib/kernels.py</b> (third-party code of fastlib") in page
    assert page.count(" class=s title='shared: third_party:fastlib'>") == shared
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert f"<a href='{page_name('tgt/kernels.py')}'>" in index
    # no upstream file copied from: the index names the one its shared lines are set apart with
    assert "up/<wbr>third_party/<wbr>fastlib/<wbr>kernels.py (shared, not counted)" in index
    assert re.search(rf"<td title=''><td data-v={shared}>{shared:,}</tr>|<td title=''><td data-v={shared}>{shared:,}",
                     index)
    assert not (tmp_path / "html" / page_name("tgt/mine.py")).exists()  # nothing shared, copied or marked
    assert "1 of 3 target files have copied lines, shared code or a marker" in index


def test_a_page_states_the_files_licence_obligations(tmp_path: Path) -> None:
    """A licence reviewer opening a file's page learnt which lines came from where, but not whether
    the file keeps the upstream's notices: only obligations.csv said it. The header now holds the
    file's rows of that table: in its summary what is missing, opened each upstream file's
    licence, this file's, the conflict verdict, what is missing and the upstream's holders."""
    import treegen

    code = treegen.distinctive_functions(3)
    holder = "Copyright (c) 2021 Brindle Okafor"
    up = treegen.write_tree(tmp_path / "up-src", {
        "up/__init__.py": "", "up/core.py": f"# SPDX-License-Identifier: MIT\n# {holder}\n\n{code}",
        "pyproject.toml": '[project]\nname = "up"\nlicense = "MIT"\n'})
    target = treegen.write_tree(tmp_path / "t", {"tgt/__init__.py": "", "tgt/taken.py": code,
                                                 "tgt/kept.py": f"# SPDX-License-Identifier: MIT\n# {holder}\n\n{code}",
                                                 "pyproject.toml": '[project]\nname = "tgt"\n'})
    comparison = compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    owed = comparison.obligations.set_index("target_path")
    assert "copyright" in owed.loc["tgt/taken.py", "missing"] and owed.loc["tgt/kept.py", "missing"] == ""
    write_html(comparison, tmp_path)
    for path in ("tgt/taken.py", "tgt/kept.py"):
        row = owed.loc[path]
        page = (tmp_path / "html" / page_name(path)).read_text(encoding="utf-8")
        summary = re.search(r"<details class=licence><summary( class=owed)?>(.*?)</summary>(.*?)</details>", page)
        assert summary, path
        if row["missing"]:
            assert summary.group(1) and summary.group(2).endswith(f"missing here: {row['missing'].replace('; ', ', ')}")
            assert f"<strong>missing: {row['missing']}</strong>" in summary.group(3)
        else:
            assert not summary.group(1) and summary.group(2).endswith("nothing missing")
        item = summary.group(3)
        assert f"<b>{row['upstream_path']}</b> (<a href=#L{row['first_line']}>L{row['first_line']}</a>" in item
        assert f"upstream licence MIT <small>({row['upstream_licence_from']})</small>" in item
        assert f"conflict {row['conflict']}" in item and holder in item
    # a file without copied lines has no obligations and no such section
    assert "class=licence" not in (tmp_path / "html" / "index.html").read_text(encoding="utf-8")


def test_the_licence_summary_counts_upstream_files_and_never_calls_an_unknown_licence_met() -> None:
    from lineage.report.html import _Obligation, _obligations_note

    def row(path: str, licence: str, missing: str, conflict: str = "no") -> _Obligation:
        return _Obligation("up", path, 10, 1, 10, licence, "spdx" if licence else "", "", "", "MIT", "declared",
                           conflict, "", missing)

    two = _obligations_note([row("up/a.py", "MIT", ""), row("up/b.py", "Apache-2.0", "copyright; NOTICE", "yes")],
                            several=False)
    assert "obligations.csv): missing here: copyright (for 1 of 2), NOTICE (for 1 of 2); licence conflict " \
           "(for 1 of 2)</summary>" in two and "<summary class=owed>" in two
    unknown = _obligations_note([row("up/a.py", "MIT", ""), row("up/c.py", "", "")], several=True)
    assert "obligations.csv): nothing missing (for 1 of 2); upstream licence unknown (for 1 of 2)</summary>" in unknown
    assert "<b>up:up/c.py</b>" in unknown and "what is owed is not known" in unknown
    met = _obligations_note([row("up/a.py", "MIT", "")], several=False)
    assert "<summary>Licence obligations (1 upstream file, obligations.csv): nothing missing</summary>" in met
    assert _obligations_note([], several=False) == ""
    # review143: a known upstream licence whose fit with an unknown target licence is not known
    undecided = _obligations_note([row("up/a.py", "MIT", "", "unknown")], several=False)
    assert "nothing missing; compatibility unknown</summary>" in undecided and "<summary class=owed>" in undecided


def test_a_line_of_the_targets_own_inside_shared_code_does_not_repeat_the_reason(tmp_path: Path) -> None:
    """sglang's cute_aot_cache.py shares its imports with vLLM's third_party/tml_fa4 save one here
    and there: the reason stood above every import (a row each, now that the upstream line is
    shown beside each shared line). It heads a run of lines shared with one file, which a line of
    the target's own does not end; a copied line, a region's heading or a fold does."""
    import treegen

    third = treegen.distinctive_functions(2).splitlines()
    split = third.index("def transform_2_2(value_2, scale_2=0.22):")
    mine = [*third[:split], "LOCAL_LIMIT_ONLY_HERE = 7  # the target's own", *third[split:]]
    up = treegen.write_tree(tmp_path / "up-src", {
        "up/__init__.py": "", "up/core.py": treegen.distinctive_functions(1),
        "up/third_party/fastlib/kernels.py": "\n".join(third) + "\n", "pyproject.toml": '[project]\nname = "up"\n'})
    target = treegen.write_tree(tmp_path / "t", {"tgt/__init__.py": "", "tgt/mixed.py": "\n".join(mine) + "\n",
                                                 "pyproject.toml": '[project]\nname = "tgt"\n'})
    comparison = compare(str(target), [str(up)], settings=RunSettings(use_cache=False, jobs=1))
    lines = comparison.lines[comparison.lines["target_path"] == "tgt/mixed.py"].set_index("line")
    own = split + 1
    assert lines.loc[own, "shared_origin"] == "" and lines.loc[own - 2, "shared_origin"] != ""
    assert lines.loc[own + 1, "shared_origin"] != ""
    write_html(comparison, tmp_path)
    page = (tmp_path / "html" / page_name("tgt/mixed.py")).read_text(encoding="utf-8")
    assert f"<tr id=L{own}><td>{own}<td>" in page  # shown, the target's own
    assert page.count("shared with up/third_party/fastlib/kernels.py (third-party code of fastlib)") == 1


def test_a_region_heading_is_named_by_its_number_in_the_tables(report: tuple[Comparison, Path]) -> None:
    """The heading of region N (anchor #RN, ``region`` N in lines.csv and regions.csv) says "region
    N", and its place on the page after it: regions are numbered from 0 in each file, and a page
    read "region 1 of 2" under #R0 before (html139: "#R8 opens region 7 of 10")."""
    comparison, out = report
    regions = comparison.regions
    numbered = regions[regions["region"] >= 0]
    assert (numbered["region"] == 0).any()  # numbered from 0 per file: a page's place differs from it
    for path, group in numbered.groupby("target_path"):
        text = (out / page_name(str(path))).read_text(encoding="utf-8")
        for k, number in enumerate(sorted(group["region"]), start=1):
            assert f"<a href=#R{number}>region {number} ({k} of {len(group)} here)</a>" in text


def test_an_upstream_line_shown_once_is_not_shown_or_counted_again() -> None:
    """html139: at tabulate L10->43 a gap note counted 22 upstream lines (11-42) although 30-37
    were shown already, after a pairing that went back up the upstream file."""
    from lineage.report.html import _upstream_gap

    up_lines = [f"line_{j} = {j}" for j in range(1, 61)]
    seen: set[int] = set()
    first = _upstream_gap(30, 38, up_lines, {}, set(), seen)
    assert [int(j) for j in re.findall(r"<td>(\d+)<td>", first)] == list(range(30, 38))
    again = _upstream_gap(11, 43, up_lines, {}, seen, seen)  # as the page passes them: paired | seen
    shown = [int(j) for j in re.findall(r"<td>(\d+)<td>", again)]
    note = re.search(r"(\d+) upstream lines", again)
    assert (len(shown) if not note else int(note.group(1))) == 32 - 8
    assert not set(shown) & set(range(30, 38))
    assert _upstream_gap(30, 38, up_lines, {}, seen, seen) == ""


def test_every_copied_line_stands_below_its_own_regions_heading(report: tuple[Comparison, Path]) -> None:
    """Regions may overlap in the target; a copied line of another region than the heading above
    gets a "region N continues" row first, so the last heading or continuation above every
    copied line names its region (lines.csv's ``region``)."""
    comparison, out = report
    lines = comparison.lines
    copied = lines[lines["match"].isin(["verbatim", "near"])]
    for path, group in copied.groupby("target_path"):
        text = (out / page_name(str(path))).read_text(encoding="utf-8")
        above, seen = -1, {}
        for m in re.finditer(r"<tr id=R(\d+) class=rh>|<tr class=rc><td colspan=4><a href=#R(\d+)>|"
                             r"<tr id=L(\d+) class=[ve][ >]", text):
            if m.group(1) or m.group(2):
                above = int(m.group(1) or m.group(2))
            else:
                seen[int(m.group(3))] = above
        assert seen == {int(r.line): int(r.region) for r in group.itertuples()}


class _Lines:
    """A side holding files as lists of lines, as :class:`lineage.report.html._Sources` reads a tree."""

    def __init__(self, files: dict[str, list[str]]) -> None:
        self.files, self.files_ = [], files

    def lines(self, path: str) -> list[str]:
        return self.files_[path]


def test_overlapping_regions_continue_with_the_upstream_lines_they_skip() -> None:
    """review143: region 1 (L10-15) inside region 0 (L3-20): below region 1 a "region 0 continues"
    row, then the upstream lines region 0 skips there (15-20: it pairs 8-14, then 21-25), which
    were lost when the continuation started from nothing."""
    import types

    import numpy as np
    import pandas as pd

    from lineage.report import html as page

    n = 30
    region, match, up_line = [pd.NA] * n, ["none"] * n, [pd.NA] * n
    for line in [*range(3, 10), *range(16, 21)]:
        region[line - 1], match[line - 1], up_line[line - 1] = 0, "verbatim", line + 5
    for line in range(10, 16):
        region[line - 1], match[line - 1], up_line[line - 1] = 1, "verbatim", line + 20
    copied = [m != "none" for m in match]
    columns = {
        "match": np.array(match, dtype=object), "similarity": np.ones(n),
        "upstream": np.array(["up" if c else "" for c in copied], dtype=object),
        "upstream_path": np.array(["u.py" if c else "" for c in copied], dtype=object),
        "upstream_line": pd.array(up_line, dtype="Int64").to_numpy(),
        "shared_origin": np.array([""] * n, dtype=object), "shared_path": np.array([""] * n, dtype=object),
        "shared_line": pd.array([pd.NA] * n, dtype="Int64").to_numpy(),
        "region": pd.array(region, dtype="Int64").to_numpy()}
    regions = [page._Region(0, 3, 20, "up", "u.py", 8, 25, 12, 0), page._Region(1, 10, 15, "up", "u.py", 30, 35, 6, 0)]
    row = types.SimpleNamespace(target_path="t.py", marker_line=np.nan, marker="", nonblank_lines=n,
                                verbatim_lines=18, near_lines=0, upstream_path="u.py", shared_lines=0, shared="",
                                named="", shared_with="", named_upstream="")
    target = page._Sources(_Lines({"t.py": [f"t{j} = {j}" for j in range(1, n + 1)]}))  # type: ignore[arg-type]
    upstream = page._Sources(_Lines({"u.py": [f"u{j} = {j}" for j in range(1, 41)]}))  # type: ignore[arg-type]
    html = page._file_page(row, columns, (0, n), regions, [], target, {"up": upstream}, False)
    order = re.findall(r"<tr id=R(\d+) class=rh>|<tr class=rc><td colspan=4><a href=#R(\d+)>|"
                       r"<tr class=u><td><td><td>(\d+)<td>|<tr id=L(\d+) class=v", html)
    shown = [("R" + a) if a else ("C" + b) if b else ("U" + c) if c else ("L" + d) for a, b, c, d in order]
    at = shown.index("C0")
    assert shown[at - 1] == "L15" and shown[at + 1:at + 8] == [*(f"U{j}" for j in range(15, 21)), "L16"]
    assert shown.count("C0") == 1 and "C1" not in shown
