"""summary.md's sentence on licence and copyright header lines puts its count of target files in
the number it needs: jsonpath-ng 1.7.0 vs jsonpath-rw 1.4.0 said "1 target files carry SPDX or
copyright lines an upstream file carries too" (user125)."""

from __future__ import annotations

from conftest import Runner

from lineage.report.summary import summary_markdown

_HEADER = "# Copyright 2012 Ann Widget <ann@widget.invalid>\n\n"
_PY = ("def combine_the_values(first, second):\n    total = first * 17 + second // 3\n"
       "    return total - first\n\n\ndef split_the_value(value):\n    return value // 5, value % 5\n")


def _sentence(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Licence and copyright header lines:"))


def test_one_file_sharing_header_lines_carries(run_compare: Runner) -> None:
    comparison = run_compare({"tgt/cli.py": _HEADER + _PY}, [("up", {"up/cli.py": _HEADER + _PY})])
    assert "; 1 target file carries SPDX or copyright lines an upstream file carries too" in \
        _sentence(summary_markdown(comparison))


def test_two_files_sharing_header_lines_carry(run_compare: Runner) -> None:
    other = _PY.replace("combine", "merge").replace("split", "part")
    comparison = run_compare({"tgt/cli.py": _HEADER + _PY, "tgt/run.py": _HEADER + other},
                             [("up", {"up/cli.py": _HEADER + _PY, "up/run.py": _HEADER + other})])
    assert "; 2 target files carry SPDX or copyright lines an upstream file carries too" in \
        _sentence(summary_markdown(comparison))
