"""Tests for lineage.match.near_identical: a target file that follows one upstream file over
nearly all its lines, in order, is one whole-file candidate although no line of it is distinctive.

Hand-made trees whose truth is in their construction; thresholds come from MatchParams.
"""

from __future__ import annotations

from conftest import Runner, file_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from lineage.match import MatchParams
from lineage.match.near_identical import two_level_alignment

_NAMES = ["Factory", "Attribute", "define", "evolve", "field", "fields", "frozen", "has", "make_class",
          "mutable", "validate", "resolve_types"]


def _reexports(package: str, exported: list[str]) -> str:
    return (f"# SPDX-License-Identifier: MIT\n\nfrom {package} import (\n"
            + "".join(f"    {n},\n" for n in _NAMES)
            + ")\n\n__all__ = [\n" + "".join(f'    "{n}",\n' for n in exported) + "]\n")


_UPSTREAM = {"shapes/__init__.py": _reexports("shapes_core", _NAMES),
             "shapes_core/geometry.py": "def area(w, h):\n    return w * h\n"}
# moved under another name, its import renamed, two ``__all__`` entries edited
_EDITED = [*_NAMES[:3], "reshaped", *_NAMES[4:9], "pliable", *_NAMES[10:]]
_MOVED = _reexports("forked_core", _EDITED)
_PATH = "vendor/kit/exports.py"


def test_a_moved_reexport_file_with_edits_is_copied_line_by_line(run_compare: Runner) -> None:
    """No line of the file is distinctive (``field,``, ``"has",``), and one import and two
    entries were edited, so it is not byte-identical either: without the rule nothing is copied;
    with it every content line is paired with the upstream line in its place, verbatim where the
    text is the same and near where a name was edited."""
    up = [("up", _UPSTREAM)]
    off = file_lines(run_compare({_PATH: _MOVED}, up, params=MatchParams(near_file_rule=0)), _PATH)
    assert set(off["match"]) == {"none"}
    comparison = run_compare({_PATH: _MOVED}, up)
    on = file_lines(comparison, _PATH)
    content = on[on["kind"] != "blank"]
    assert (content["upstream_path"] == "shapes/__init__.py").all()
    assert (content["upstream_line"] == content["line"]).all()  # the same layout, line for line
    edited = {3, 4 + len(_NAMES) + 3 + 3, 4 + len(_NAMES) + 3 + 9}  # the import and the two entries
    assert set(content.loc[sorted(edited), "match"]) == {"near"}
    assert set(content.drop(index=sorted(edited))["match"]) == {"verbatim"}
    # a re-export-only file: its lines are copied, but it is no evidence on its own
    files = comparison.files.set_index("target_path")
    assert files.loc[_PATH, "file_role"] == "reexport"
    lists = comparison.summary()["lists"]
    assert _PATH not in lists["unmarked_with_copied"] + lists["marked_with_copied"]
    assert lists["reexport_with_copied"] == [_PATH]
    # summary.md names it in a section of its own, so that the lists account for every file
    from lineage.report.summary import summary_markdown

    text = summary_markdown(comparison)
    section = text.split("## Re-export-only files with copied code lines: 1\n", 1)[1].split("\n## ", 1)[0]
    assert f"`{_PATH}`" in section and "0 of them marked" in section


_MODULE = (
    "import hashlib\n\n\n"
    "def checksum_of_block(block_bytes, algorithm_name):\n"
    "    digest_builder = hashlib.new(algorithm_name)\n"
    "    digest_builder.update(block_bytes)\n"
    "    return digest_builder.hexdigest()\n\n\n"
    "def verify_block_checksum(block_bytes, expected_checksum, algorithm_name):\n"
    "    actual_checksum = checksum_of_block(block_bytes, algorithm_name)\n"
    "    if actual_checksum != expected_checksum:\n"
    "        raise ValueError(f'checksum mismatch: {actual_checksum} != {expected_checksum}')\n"
    "    return actual_checksum\n"
)


def test_where_regions_form_the_rule_changes_nothing(run_compare: Runner) -> None:
    """A copy with distinctive lines forms regions of the upstream file: the regions and the fill
    align it (a whole-file alignment would join them into one region), so labels and regions are
    the same with the rule on and off."""
    up = [("up", {"blocks/checks.py": _MODULE})]
    edited = _MODULE.replace("    return actual_checksum\n",
                             "    log_checksum(actual_checksum)\n    return actual_checksum\n")
    off = run_compare({"mine/checks.py": edited}, up, params=MatchParams(near_file_rule=0))
    on = run_compare({"mine/checks.py": edited}, up)
    assert (file_lines(off, "mine/checks.py")["match"] != "none").sum() >= 10
    assert off.lines.equals(on.lines)
    assert off.regions.equals(on.regions)


def test_two_copies_of_the_upstream_file_are_one_source(run_compare: Runner) -> None:
    """The runner-up test must not count a second copy of the same file (two upstreams carry it,
    or one vendors it twice) as another place the shape is written: the copy is found, credited
    to one of them by the claim order."""
    for upstreams in ([("up", _UPSTREAM), ("up2", _UPSTREAM)],
                      [("up", {**_UPSTREAM, "vendored/shapes/__init__.py": _UPSTREAM["shapes/__init__.py"]})]):
        frame = file_lines(run_compare({_PATH: _MOVED}, upstreams), _PATH)
        content = frame[frame["kind"] != "blank"]
        assert (content["match"] != "none").all()
        assert content["upstream_path"].nunique() == 1


def test_the_same_shape_in_other_words_is_not_taken(run_compare: Runner) -> None:
    """A file whose lines have the upstream's shapes but mostly other names (another package's
    re-export list) fails the same-form share: nothing is copied."""
    others = [f"other_{k}" for k in range(len(_NAMES))]
    text = ("# SPDX-License-Identifier: MIT\n\nfrom elsewhere import (\n" + "".join(f"    {n},\n" for n in others)
            + ")\n\n__all__ = [\n" + "".join(f'    "{n}",\n' for n in others[:6] + _NAMES[6:]) + "]\n")
    frame = file_lines(run_compare({_PATH: text}, [("up", _UPSTREAM)]), _PATH)
    assert set(frame["match"]) == {"none"}


def test_a_file_that_follows_two_upstream_files_is_not_taken(run_compare: Runner) -> None:
    """When the runner-up upstream file passes the test as well (the upstream writes the same
    re-export list in two packages), the shape is written in several places: no candidate."""
    twice = {**_UPSTREAM, "shapes_extra/__init__.py": _reexports("shapes_extra_core", _NAMES)}
    frame = file_lines(run_compare({_PATH: _MOVED}, [("up", twice)]), _PATH)
    assert set(frame["match"]) == {"none"}


def test_a_file_holding_much_more_than_the_upstream_file_is_not_taken(run_compare: Runner) -> None:
    """The rule pairs two files that are the same file; one that holds the upstream file's lines
    and as many of its own is left to the region rule (which finds nothing distinctive here)."""
    own = "".join(f"    local_{k},\n" for k in range(len(_NAMES) + 8))
    text = _MOVED.replace("from forked_core import (\n", "from forked_core import (\n" + own)
    frame = file_lines(run_compare({_PATH: text}, [("up", _UPSTREAM)]), _PATH)
    assert set(frame["match"]) == {"none"}


def test_alignment_prefers_the_same_text_to_the_same_shape() -> None:
    """Annotated defaults all share one abstract form: aligned by shape alone, a deleted line
    would shift every later pair by one; by normal form first, each line keeps its own."""
    # normal forms: 1..6 upstream; the target dropped 3 and edited 5 into 50 (same shape, 0)
    u_norm, u_abs = [1, 2, 3, 4, 5, 6], [0] * 6
    t_norm, t_abs = [1, 2, 4, 50, 6], [0] * 5
    blocks = two_level_alignment(t_norm, u_norm, t_abs, u_abs)
    pairs = {t: d + (t - s) for s, e, d, _ in blocks for t in range(s, e)}
    assert pairs == {0: 0, 1: 1, 2: 3, 3: 4, 4: 5}
    assert [exact for *_, exact in blocks] == [True, True, False, True]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=30), st.lists(st.integers(0, 6), max_size=30))
def test_alignment_blocks_are_in_order_and_agree(t_norm: list[int], u_norm: list[int]) -> None:
    """Whatever the sequences: blocks follow each other in both files without overlap, every
    pair has the same abstract form, and the blocks marked exact have the same normal form."""
    t_abs, u_abs = [v % 3 for v in t_norm], [v % 3 for v in u_norm]
    blocks = two_level_alignment(t_norm, u_norm, t_abs, u_abs)
    t_at = u_at = 0
    for start, end, dest, exact in blocks:
        assert start >= t_at and dest >= u_at and end > start
        for k in range(end - start):
            assert t_abs[start + k] == u_abs[dest + k]
            if exact:
                assert t_norm[start + k] == u_norm[dest + k]
        t_at, u_at = end, dest + (end - start)
    assert u_at <= len(u_norm) and t_at <= len(t_norm)
