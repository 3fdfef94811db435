"""A list table of summary.md shows the file a marker names beside the upstream file most copied
lines came from, when it is another: a marker cut to 80 characters may not show it
(huggingface-hub's ``_torch.py`` names transformers' ``pytorch_utils.py`` after a commit hash;
sglang's ``deepseek_ocr.py`` names vLLM's ``llama.py``, its lines are mostly ``deepencoder.py``'s)."""

from __future__ import annotations

from collections import namedtuple

import pytest

from lineage.report.summary import _upstream_cell, marker_names_another_file

Row = namedtuple("Row", "upstream_path marker_upstream_path")


@pytest.mark.parametrize(("upstream_path", "named", "another"), [
    ("up/models/deepencoder.py", "up/models/llama.py", True),
    ("up/models/llama.py", "up/models/llama.py", False),  # the same file
    ("up/quant/ct/schemes/w4a16.py", "up/quant/ct", False),  # a folder holding it
    ("up/quant/ct_other.py", "up/quant/ct", True),  # a name beginning like the folder's is no file in it
    ("up/models/a.py", "", False),  # the marker names no file found upstream
    ("", "up/models/a.py", False),  # no copied lines: the other tables show the named file
])
def test_another_file_is_neither_the_same_nor_a_folder_holding_it(upstream_path: str, named: str,
                                                                  another: bool) -> None:
    assert marker_names_another_file(upstream_path, named) is another
    cell = _upstream_cell(Row(upstream_path, named))
    assert cell.endswith(f" (the marker names `{named}`)") is another
    assert cell.startswith(f"`{upstream_path}`" if upstream_path else "–")
