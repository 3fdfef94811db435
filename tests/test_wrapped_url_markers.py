"""A docstring may wrap a long repository URL at a ``/``: the next line, nothing but the rest of
its path, continues it (geopandas 1.0.1's ``sjoin.py``: "based on pandas' merge logic at
https://github.com/pandas-dev/pandas/blob/" over "<commit>/pandas/core/reshape/merge.py#L2300-L2370"
kept neither ref nor path)."""

from __future__ import annotations

from lineage.markers import find_markers


def _markers(doc: str) -> list:
    src = f'def join_parts(left, right):\n    """{doc}\n    """\n    return left\n'
    return find_markers(src.splitlines())


def test_a_phrase_url_wrapped_after_blob_keeps_ref_path_and_lines() -> None:
    (m,) = _markers("Add suffixes.\n\n    This is based on the merge logic at https://github.com/larchwood/larch/blob/\n"
                    "    a0779adb183345a8eb4be58b3ad00c223da58768/larch/core/merge.py#L230-L237")
    assert (m.kind, m.repository, m.ref, m.path) == (
        "based_on", "larchwood/larch", "a0779adb183345a8eb4be58b3ad00c223da58768", "larch/core/merge.py")
    assert (m.line_start, m.line_end) == (230, 237)


def test_a_bare_url_wrapped_inside_its_path_is_the_file() -> None:
    (m,) = [m for m in _markers("Relative bias.\n\n    The reference implementation is\n"
                                "    https://github.com/larchwood/larch/blob/v4.30.0/src/\n"
                                "    larch/models/t5/modeling_t5.py#L435\n") if m.kind == "url"]
    assert (m.ref, m.path, m.line_start) == ("v4.30.0", "src/larch/models/t5/modeling_t5.py", 435)


def test_a_url_ending_its_sentence_does_not_swallow_the_next_line() -> None:
    (m,) = _markers("Based on https://github.com/larchwood/larch/blob/main/larch/io/\n"
                    "    and then some prose follows.")
    assert m.path == "larch/io"


def test_a_wrapped_folder_link_stays_no_marker() -> None:
    got = _markers("Serve.\n\n    See the `demo <https://github.com/larchwood/larch/tree/master/\n"
                   "    demos/file_upload/>`_ for an example.")
    assert [m for m in got if m.kind == "url"] == []
