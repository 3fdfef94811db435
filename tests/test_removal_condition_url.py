"""A URL cited as what a workaround waits for names no source of the code: optimum-habana
1.14.1's ``trainer_seq2seq.py`` ("TODO: remove this hack when the legacy code ... is" / "removed
in <URL>") was marked as taken from transformers' ``generation/utils.py``, its
``integrations/deepspeed.py`` ("To remove when it is solved, see <URL>") from another project."""

from __future__ import annotations

from lineage.markers import find_markers

URL = "https://github.com/quillorg/quillkit/blob/v1.2/src/quillkit/generation/utils.py#L1183"


def _sources(*comment: str) -> list[str]:
    lines = ["def run(self):", *(f"    # {c}" for c in comment), "    return self.value"]
    return [m.repository for m in find_markers(lines) if m.repository]


def test_a_note_to_remove_a_workaround_is_no_marker() -> None:
    assert _sources("Temporary hack to keep the config between iterations",
                    "TODO: remove this hack when the legacy code that initialises the config is",
                    f"removed in {URL}") == []
    assert _sources("TODO: temporary workaround", f"To remove when it is solved, see {URL}") == []
    assert _sources(f"Remove this once {URL} handles half precision") == []


def test_other_urls_stay_markers() -> None:
    for comment in ((f"Adapted from {URL}",), ("Remove this hack.", f"Source: {URL}"),
                    (f"TODO: may need to complete this for encoder-decoders: {URL}",),
                    (f"Removed the cache handling when porting {URL}",), ("Remove the padding first.", URL)):
        assert _sources(*comment) == ["quillorg/quillkit"], comment
