"""A URL cited as where something similar is names no source of the code: huggingface-hub
0.26.2's ``dump_environment_info`` ("Similar helper exist in:" over a list of other projects'
``commands/env.py``) was a file marked as taking its code from transformers."""

from __future__ import annotations

from lineage.markers import find_markers

URL = "https://github.com/quillorg/quillkit/blob/main/src/quillkit/commands/env.py"
OTHER = "https://github.com/sedgeorg/sedge/blob/main/src/sedge/commands/env.py"


def _function(*doc: str) -> list[str]:
    return ["def dump_info():", '    """Dump information about the machine.', "", *(f"    {d}" for d in doc),
            '    """', "    return {}"]


def test_a_list_under_a_similar_lead_is_no_marker() -> None:
    lines = _function("Similar helper exist in:", f"- `sedge` ({OTHER})", f"- `quillkit` ({URL})")
    assert [m for m in find_markers(lines) if m.kind == "url"] == []


def test_a_similar_sentence_is_no_marker() -> None:
    assert [m for m in find_markers(_function(f"A similar helper lives at {URL}."))if m.kind == "url"] == []


def test_other_lists_and_sentences_stay_markers() -> None:
    for doc in (("Taken from:", f"- {URL}"), ("Sources:", f"- `quillkit` ({URL})"),
                ("Similar code runs elsewhere.", f"See {URL}"),
                ("Similar helpers are listed below.", "", f"- {URL}")):
        assert [m.repository for m in find_markers(_function(*doc)) if m.repository] == ["quillorg/quillkit"], doc
