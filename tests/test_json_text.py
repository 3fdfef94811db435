"""lineage.report.json_text: the attachments' JSON layout (one element per line)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lineage.report.json_text import dumps_lines

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
_KEYS = st.text(max_size=6) | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=30)


@given(_VALUES, st.integers(min_value=0, max_value=6))
def test_the_text_parses_to_the_value_json_dumps_writes(value: object, levels: int) -> None:
    text = dumps_lines(value, levels=levels)
    # members as (key, value) lists: the same values in the same key order
    assert json.loads(text, object_pairs_hook=list) == json.loads(json.dumps(value), object_pairs_hook=list)


def test_outer_levels_one_member_per_line_deeper_values_on_one_line() -> None:
    document = {"name": "doc", "files": [{"id": "a", "lines": [1, 2]}, {"id": "b", "lines": []}], "empty": {}}
    assert dumps_lines(document, levels=2) == (
        '{\n'
        '  "name": "doc",\n'
        '  "files": [\n'
        '    {"id": "a", "lines": [1, 2]},\n'
        '    {"id": "b", "lines": []}\n'
        '  ],\n'
        '  "empty": {}\n'
        '}')
    assert dumps_lines(document, levels=0) == json.dumps(document)


def test_keys_json_refuses_are_refused() -> None:
    with pytest.raises(TypeError):
        dumps_lines({(1, 2): 0}, levels=1)


def test_non_ascii_is_escaped_as_json_dumps_does() -> None:
    assert dumps_lines({"holder": "Jürgen ©"}, levels=1) == '{\n  "holder": "J\\u00fcrgen \\u00a9"\n}'


def test_spdx_snippets_one_per_line(tmp_path) -> None:
    """The SPDX attachment of a compare run: each snippet on a line of its own, and the document
    spdx-tools parses back."""
    from spdx_tools.spdx.parser.parse_anything import parse_file

    from lineage.cli import main

    target, upstream = tmp_path / "t", tmp_path / "u"
    body = "".join(f"def f{k}(x):\n    y = x * {k} + {k * 7}\n    return y - {k}\n\n" for k in range(30))
    for root in (target, upstream):
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "m.py").write_text(body, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["compare", str(target), str(upstream), "--out", str(out), "--no-html", "-q", "--no-cache"]) == 0
    text = (out / "lineage.spdx.json").read_text(encoding="utf-8")
    snippets = json.loads(text)["snippets"]
    assert snippets
    lines = text.splitlines()
    for snippet in snippets:  # the snippet's compact JSON is one whole line
        assert "    " + json.dumps(snippet, separators=(", ", ": ")) in {line.rstrip(",") for line in lines}
    assert parse_file(str(out / "lineage.spdx.json")).snippets


@given(_VALUES)
def test_an_encoded_value_is_written_as_the_value_would_be(value: object) -> None:
    """A value kept as its compact text (Encoded) where values go on one line: the same text."""
    from lineage.report.json_text import Encoded, compact

    document = {"name": "doc", "items": [value, {"x": value}]}
    encoded = {"name": "doc", "items": [Encoded(compact(value)), Encoded(compact({"x": value}))]}
    assert dumps_lines(encoded, levels=2) == dumps_lines(document, levels=2)
    if isinstance(value, dict | list) and value:
        with pytest.raises(ValueError):
            dumps_lines({"items": Encoded(compact(value))}, levels=2)
