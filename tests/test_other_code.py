"""Source files in another language are counted, per suffix, and named in the report as not
compared: cytoolz 1.0.0 is five ``.pyx`` and seven ``.pxd`` files beside its 25 ``.py`` files, and
its summary said "Python files: 25" alone (user104). Tests for
:func:`lineage.index.records.other_code_counts` and the summary that reports them."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Runner

from lineage.index.records import OTHER_CODE_SUFFIXES, other_code_counts
from lineage.report.manifest import describe_tree
from lineage.report.summary import summary_dict, summary_markdown

_PY = "def combine_the_values(first, second):\n    return first * 17 + second // 3\n"


def test_other_code_is_counted_per_suffix_in_lower_case() -> None:
    paths = ["pkg/a.pyx", "pkg/b.PYX", "pkg/b.pxd", "pkg/k.cu", "pkg/m.py", "pkg/data.json", "README.md",
             "pkg/lib.so", "pkg/noext"]
    assert other_code_counts(paths) == {".cu": 1, ".pxd": 1, ".pyx": 2}
    assert list(other_code_counts(["z.rs", "a.c", "m.js"])) == [".c", ".js", ".rs"]  # sorted by suffix
    assert other_code_counts([]) == {}
    assert not {".py", ".pyi", ".json", ".so", ".md"} & OTHER_CODE_SUFFIXES


def test_the_summary_names_each_sides_other_code(run_compare: Runner) -> None:
    target = {"tgt/__init__.py": _PY, "tgt/fast.pyx": "def f(int x):\n    return x\n",
              "tgt/fast.pxd": "cdef int g(int x)\n", "tgt/kernels/k.cu": "__global__ void k() {}\n",
              "tgt/data.json": "{}\n"}
    upstream = {"up/__init__.py": _PY, "up/ext.c": "int main(void) { return 0; }\n"}
    comparison = run_compare(target, [("up", upstream)])
    assert comparison.target.other_code == {".cu": 1, ".pxd": 1, ".pyx": 1}
    summary = json.loads(json.dumps(summary_dict(comparison)))
    assert summary["not_compared"] == {"target": {".cu": 1, ".pxd": 1, ".pyx": 1}, "upstreams": {"up": {".c": 1}}}
    text = summary_markdown(comparison)
    assert ("Source files in other languages, not compared (lineage reads Python files only; no figure counts "
            "them): the target 3 (.cu 1, .pxd 1, .pyx 1); upstream up 1 (.c 1).") in text
    assert describe_tree(comparison.target)["other_code"] == {".cu": 1, ".pxd": 1, ".pyx": 1}


def test_the_html_index_says_it_too(run_compare: Runner, tmp_path: Path) -> None:
    """The HTML index carries summary.md's sentence, labels escaped."""
    from lineage.report.folder import ReportFolder
    from lineage.report.html import HtmlReporter

    comparison = run_compare({"tgt/__init__.py": _PY, "tgt/k.cu": "__global__ void k() {}\n"},
                             [("up<b>", {"up/__init__.py": _PY, "up/x.c": "int x;\n"})])
    (tmp_path / "out").mkdir()
    folder = ReportFolder(tmp_path / "out")
    HtmlReporter().write(comparison, folder)
    index = (tmp_path / "out" / "html" / "index.html").read_text()
    assert ("Source files in other languages, not compared (lineage reads Python files only; no figure counts "
            "them): the target 1 (.cu 1); upstream up&lt;b&gt; 1 (.c 1).") in index


def test_no_sentence_when_every_side_is_python_only(run_compare: Runner) -> None:
    comparison = run_compare({"tgt/__init__.py": _PY, "tgt/notes.txt": "x\n"}, [("up", {"up/__init__.py": _PY})])
    summary = json.loads(json.dumps(summary_dict(comparison)))
    assert summary["not_compared"] == {"target": {}, "upstreams": {"up": {}}}
    assert "not compared (lineage reads Python files only" not in summary_markdown(comparison)
