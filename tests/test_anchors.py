"""Tests of the jscpd/copydetect adapters in tests/eval/anchors.py.

The adapters install and run external tools, so those tests are marked slow; the
lines.csv helpers (file listing, line kinds) are tested fast.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

_ROOT = Path(__file__).resolve().parents[1]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from tests.eval import anchors  # noqa: E402

UPSTREAM_MODULE = '''\
"""Small geometry helpers used by the upstream project."""

import math


def polygon_area(points):
    """Return the signed area of a simple polygon.

    The points are (x, y) pairs in order around the boundary.
    """
    if len(points) < 3:
        raise ValueError("a polygon needs at least three points")
    total = 0.0
    count = len(points)
    for index in range(count):
        x1, y1 = points[index]
        x2, y2 = points[(index + 1) % count]
        total += x1 * y2 - x2 * y1
    # the shoelace formula counts every edge twice
    return total / 2.0


def bounding_box(points):
    """Return (min_x, min_y, max_x, max_y) for a list of points."""
    if not points:
        raise ValueError("no points given")
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    min_x = min(xs)
    max_x = max(xs)
    min_y = min(ys)
    max_y = max(ys)
    width = max_x - min_x
    height = max_y - min_y
    if width < 0 or height < 0:
        raise RuntimeError("negative extent")
    return (min_x, min_y, max_x, max_y)


class Circle:
    """A circle given by its centre and radius."""

    def __init__(self, cx, cy, radius):
        if radius < 0:
            raise ValueError("radius must not be negative")
        self.cx = cx
        self.cy = cy
        self.radius = radius

    def area(self):
        return math.pi * self.radius * self.radius

    def circumference(self):
        return 2.0 * math.pi * self.radius

    def contains(self, x, y):
        dx = x - self.cx
        dy = y - self.cy
        return dx * dx + dy * dy <= self.radius * self.radius

    def scaled(self, factor):
        if factor <= 0:
            raise ValueError("factor must be positive")
        return Circle(self.cx, self.cy, self.radius * factor)

    def translated(self, dx, dy):
        return Circle(self.cx + dx, self.cy + dy, self.radius)

    def overlaps(self, other):
        gap_x = self.cx - other.cx
        gap_y = self.cy - other.cy
        reach = self.radius + other.radius
        return gap_x * gap_x + gap_y * gap_y <= reach * reach

    def __repr__(self):
        return f"Circle({self.cx!r}, {self.cy!r}, {self.radius!r})"
'''

TARGET_MODULE = '''\
"""Shape utilities for the application."""

import statistics


def mean_length(words):
    # a brand-new helper that has nothing to do with upstream
    lengths = [len(word) for word in words if word]
    if not lengths:
        return 0
    return statistics.mean(lengths)


def polygon_area(points):
    """Return the signed area of a simple polygon.

    The points are (x, y) pairs in order around the boundary.
    """
    if len(points) < 3:
        raise ValueError("a polygon needs at least three points")
    total = 0.0
    count = len(points)
    for index in range(count):
        x1, y1 = points[index]
        x2, y2 = points[(index + 1) % count]
        total += x1 * y2 - x2 * y1
    # the shoelace formula counts every edge twice
    return total / 2.0


def extent(pts):
    """Return (lo_x, lo_y, hi_x, hi_y) for a list of points."""
    if not pts:
        raise ValueError("no points given")
    all_x = [q[0] for q in pts]
    all_y = [q[1] for q in pts]
    lo_x = min(all_x)
    hi_x = max(all_x)
    lo_y = min(all_y)
    hi_y = max(all_y)
    w = hi_x - lo_x
    h = hi_y - lo_y
    if w < 0 or h < 0:
        raise RuntimeError("negative extent")
    return (lo_x, lo_y, hi_x, hi_y)
'''

TARGET_FILE = "app/shapes.py"
UPSTREAM_FILE = "pkg/geometry.py"
# Target lines of each function (def line .. last line) and where polygon_area starts
# upstream.
NEW_FUNCTION = range(6, 12)
COPIED_FUNCTION = range(14, 29)
COPIED_UPSTREAM_START = 6


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def trees(tmp_path_factory) -> tuple[Path, Path, Path]:
    base = tmp_path_factory.mktemp("anchors")
    upstream = base / "upstream"
    target = base / "target"
    _write(upstream / UPSTREAM_FILE, UPSTREAM_MODULE)
    _write(target / TARGET_FILE, TARGET_MODULE)
    return target, upstream, base / "work"


# ---- fast tests ------------------------------------------------------------------------


def test_empty_lines_frame_lists_every_line_as_none(tmp_path: Path) -> None:
    _write(tmp_path / "b.py", "x = 1\n\n# note\n")
    _write(tmp_path / "a" / "z.pyi", "def f() -> int: ...\n")
    _write(tmp_path / "a" / "readme.txt", "not python\n")
    _write(tmp_path / "c.py", "")

    frame = anchors.empty_lines_frame(tmp_path)

    assert list(frame.columns) == anchors.COLUMNS
    assert list(zip(frame["target_path"], frame["line"], strict=True)) == [
        ("a/z.pyi", 1),
        ("b.py", 1),
        ("b.py", 2),
        ("b.py", 3),
    ]
    assert list(frame["kind"]) == ["code", "code", "blank", "comment"]
    assert set(frame["match"]) == {"none"}
    assert set(frame["upstream_path"]) == {""}
    assert frame["upstream_line"].isna().all()
    assert str(frame["upstream_line"].dtype) == "Int64"
    assert (frame["similarity"] == 0.0).all()


def test_classify_lines_kinds() -> None:
    source = textwrap.dedent(
        '''\
        """Module docstring
        on two lines."""
        # a comment

        import os  # trailing comment is code


        class Thing:
            """Class docstring."""

            value = """not a docstring
        either"""

            def method(self):
                \'\'\'Method
                docstring.\'\'\'
                return os.sep


        async def run():
            "async docstring"
            text = "plain string"
        '''
    )
    kinds = anchors.classify_lines(source)
    expected = {
        1: "docstring",
        2: "docstring",
        3: "comment",
        4: "blank",
        5: "code",
        8: "code",
        9: "docstring",
        10: "blank",
        11: "code",
        12: "code",
        14: "code",
        15: "docstring",
        16: "docstring",
        17: "code",
        21: "docstring",
        22: "code",
    }
    assert len(kinds) == len(source.splitlines())
    for line, kind in expected.items():
        assert kinds[line - 1] == kind, (line, kinds[line - 1])


def test_classify_lines_without_tokens_calls_everything_code() -> None:
    source = 'x = """never closed\n\n# looks like a comment\n'
    assert anchors.classify_lines(source) == ["code", "blank", "code"]


def test_classify_lines_counts_crlf_and_cr_lines() -> None:
    assert anchors.classify_lines("a = 1\r\n\r\n# c\rb = 2") == [
        "code",
        "blank",
        "comment",
        "code",
    ]


# ---- slow tests: the external tools -------------------------------------------------------


def _check_labels(frame: pd.DataFrame, target: Path) -> None:
    empty = anchors.empty_lines_frame(target)
    assert list(frame.columns) == anchors.COLUMNS
    pd.testing.assert_frame_equal(
        frame[["target_path", "line", "kind"]], empty[["target_path", "line", "kind"]]
    )
    rows = frame[frame["target_path"] == TARGET_FILE].set_index("line")

    copied = rows.loc[list(COPIED_FUNCTION)]
    code = copied[copied["kind"] == "code"]
    assert len(code) >= 10
    assert set(code["match"]) == {"verbatim"}
    assert set(code["upstream_path"]) == {UPSTREAM_FILE}
    offset = COPIED_UPSTREAM_START - COPIED_FUNCTION.start
    assert [int(u) for u in code["upstream_line"]] == [line + offset for line in code.index]
    assert (code["similarity"] == 1.0).all()

    new = rows.loc[list(NEW_FUNCTION)]
    assert set(new["match"]) == {"none"}
    assert set(new["upstream_path"]) == {""}
    assert new["upstream_line"].isna().all()

    labelled = frame[frame["match"] != "none"]
    assert set(labelled["match"]) <= {"verbatim", "near"}
    assert labelled["upstream_line"].notna().all()
    assert labelled["similarity"].between(0.0, 1.0).all()


@pytest.mark.slow
def test_jscpd_labels_the_copied_function(trees) -> None:
    target, upstream, work = trees
    assert anchors.jscpd_version() == anchors.JSCPD_VERSION
    frame = anchors.run_jscpd(target, upstream, work)
    _check_labels(frame, target)
    again = anchors.run_jscpd(target, upstream, work)
    pd.testing.assert_frame_equal(frame, again)


@pytest.mark.slow
def test_copydetect_labels_the_copied_function(trees) -> None:
    target, upstream, work = trees
    assert anchors.copydetect_version() == anchors.COPYDETECT_VERSION
    frame = anchors.run_copydetect(target, upstream, work)
    _check_labels(frame, target)
    # copydetect normalises identifiers, so the renamed copy is found too.
    renamed = frame[(frame["target_path"] == TARGET_FILE) & frame["line"].between(33, 45)]
    assert (renamed["match"] != "none").all()
    assert set(renamed["upstream_path"]) == {UPSTREAM_FILE}
    again = anchors.run_copydetect(target, upstream, work)
    pd.testing.assert_frame_equal(frame, again)


@pytest.mark.slow
def test_jscpd_with_nothing_to_analyse_is_an_error(tmp_path: Path) -> None:
    _write(tmp_path / "t" / "a.py", "x = 1\n")
    _write(tmp_path / "u" / "b.py", "y = 2\n")
    with pytest.raises(anchors.AnchorToolError, match="no source files"):
        anchors.run_jscpd(tmp_path / "t", tmp_path / "u", tmp_path / "w")


@pytest.mark.slow
def test_copydetect_without_upstream_files_is_an_error(tmp_path: Path) -> None:
    _write(tmp_path / "t" / "a.py", "x = 1\n")
    (tmp_path / "u").mkdir()
    with pytest.raises(anchors.AnchorToolError, match="upstream"):
        anchors.run_copydetect(tmp_path / "t", tmp_path / "u", tmp_path / "w")
