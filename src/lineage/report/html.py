"""The HTML view: a sortable, filterable index of files, and per file the target beside its upstream.

Layout of ``html/``: ``index.html``; one page per target file with copied lines, code shared with an
upstream file set apart, or a marker, named after its path (:func:`page_name`, stable across
reruns); ``lineage.css`` and ``lineage.js``, shared by every page. Pages make no network request (a
Content-Security-Policy forbids it, and inline script too); every text from the inputs is escaped.
Writing is linear in the lines written: per page the target file and each upstream file it uses are
read once, and only the lines shown unfolded are lexed (:mod:`lineage.report.highlight`); folded
lines are stored compressed.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
import zlib
from collections import Counter
from collections.abc import Collection
from dataclasses import astuple, dataclass, fields
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import numpy as np
import pandas as pd

from lineage.index.records import COMMENT
from lineage.report.highlight import Pieces, colour, inner_differences, plain, render, statement_starts, style_css
from lineage.report.page_cache import PageCache, page_key
from lineage.report.summary import DEFINITIONS, comparison_title, not_compared, not_compared_sentence
from lineage.results import percent
from lineage.results.figures import names_missing_file
from lineage.sources.base import display_path

if TYPE_CHECKING:
    from lineage.index import TreeIndex
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison

ASSETS = ("lineage.css", "lineage.js")
CONTEXT = 3  # lines not copied kept visible next to copied ones
MIN_FOLD = 6  # a run of lines not copied is folded only when it hides at least this many
MAX_GAP_SHOWN = 12  # upstream lines skipped inside a region: shown up to this many, else summarised
_PAGE_STEM_CHARS = 80  # of a page's file name before its hash: short enough for any file system

_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'none'")


def esc(text: object) -> str:
    """Escaped for HTML text and quoted attribute values; file names shown as reports show them."""
    return html.escape(display_path(str(text)))


def page_name(target_path: str) -> str:
    """A file name for a target path's page: readable, and the same in every run.

    The path's characters outside ``[A-Za-z0-9._-]`` become ``_``, and of a long path only its
    last whole folders and file name that fit in 80 characters are kept (a cut inside a name,
    ``ang_kernels_...`` for ``sglang/kernels/...``, reads as a typo); then 12 hex digits of the
    path's SHA-256 keep distinct paths apart (also on case-folding disks).
    """
    raw = target_path.encode("utf-8", "surrogateescape")
    parts = [re.sub(r"[^A-Za-z0-9._-]+", "_", part) for part in target_path.split("/") if part]
    stem = parts[-1] if parts else ""
    for part in reversed(parts[:-1]):
        if len(part) + 1 + len(stem) > _PAGE_STEM_CHARS:
            break
        stem = f"{part}_{stem}"
    stem = stem[-_PAGE_STEM_CHARS:].strip("._") or "file"
    return f"{stem}-{hashlib.sha256(raw).hexdigest()[:12]}.html"


def _page(title: str, body: str, kind: str) -> str:
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<meta http-equiv=Content-Security-Policy content=\"{_CSP}\">"
            f"<title>{esc(title)}</title><link rel=icon href='data:,'>"
            "<link rel=stylesheet href=lineage.css><script defer src=lineage.js></script>"
            f"</head><body class={kind}>{body}</body></html>\n")


def _markdown_inline(text: str) -> str:
    """The few inline forms DEFINITIONS uses (``code``, *emphasis*), escaped first."""
    text = html.escape(text)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", text)


def _definitions() -> str:
    items = [line[2:] for line in DEFINITIONS if line.startswith("- ")]
    return "<ul class=defs>" + "".join(f"<li>{_markdown_inline(item)}</li>" for item in items) + "</ul>"


def _bounds(column: np.ndarray) -> dict[str, tuple[int, int]]:
    """Row ranges per value of a column sorted by that value (lines.csv is sorted by file)."""
    if not len(column):
        return {}
    change = np.flatnonzero(column[1:] != column[:-1]) + 1
    starts = np.concatenate(([0], change))
    ends = np.concatenate((change, [len(column)]))
    return {str(column[s]): (int(s), int(e)) for s, e in zip(starts, ends, strict=True)}


@dataclass(frozen=True)
class _Region:
    number: int
    target_start: int
    target_end: int
    upstream: str
    upstream_path: str
    upstream_start: int
    upstream_end: int
    verbatim: int
    near: int


@dataclass(frozen=True)
class _Obligation:
    """A row of obligations.csv: the columns a file page's header shows, in this order."""

    upstream: str
    upstream_path: str
    copied_lines: int
    first_line: int
    last_line: int
    upstream_licence: str
    upstream_licence_from: str
    upstream_copyrights: str
    copyrights_missing: str
    target_licence: str
    target_licence_from: str
    conflict: str
    conflict_reason: str
    missing: str
    # this file's lines stating a missing line's years under another holder (last: a default)
    copyright_replaced_by: str = ""


# The columns of obligations.csv a file page's header shows (:func:`_obligations_note`), in this order.
_OBLIGATION_FIELDS = tuple(f.name for f in fields(_Obligation))
_OBLIGATION_COUNTS = frozenset(f.name for f in fields(_Obligation) if f.type == "int")


def _obligations_by_file(table: pd.DataFrame) -> dict[str, list[_Obligation]]:
    """The obligations table's rows per target path, in its order (by upstream and upstream path)."""
    out: dict[str, list[_Obligation]] = {}
    if table.empty:
        return out
    for path, *values in zip(table["target_path"], *(table[name] for name in _OBLIGATION_FIELDS), strict=True):
        row = [int(v) if name in _OBLIGATION_COUNTS else ("" if pd.isna(v) else str(v))
               for name, v in zip(_OBLIGATION_FIELDS, values, strict=True)]
        out.setdefault(str(path), []).append(_Obligation(*row))  # type: ignore[arg-type]
    return out


def _shown(comparison: Comparison) -> pd.DataFrame:
    """The files with a page: indexed, and copied lines, code shared with an upstream file set
    apart (third-party code, code taken from the target: the page shows why it is not counted)
    or a marker; sorted by path. ``copied`` and ``shared`` count non-blank lines."""
    files = comparison.files
    shared_code = files["shared_third_party_code_lines"] + files["shared_from_target_code_lines"]
    shown = files[(files["status"] == "indexed")
                  & (((files["verbatim_lines"] + files["near_lines"]) > 0) | (shared_code > 0)
                     | (files["marker"] != ""))]
    return shown.assign(copied=shown["verbatim_lines"] + shown["near_lines"],
                        shared=shown["shared_third_party_lines"] + shown["shared_from_target_lines"]).sort_values(
        "target_path", kind="stable")


def html_shards(comparison: Comparison, n: int) -> list[list[str]]:
    """The shown files' target paths in ``n`` groups of about equal lines (largest first, each to
    the group with the fewest lines so far, the first on a tie), for ``n`` processes to write
    their pages side by side (:meth:`HtmlReporter.write_part`); the same groups every run."""
    shown = _shown(comparison).sort_values(["nonblank_lines", "target_path"], ascending=[False, True],
                                           kind="stable")
    groups: list[list[str]] = [[] for _ in range(max(1, n))]
    load = [0] * len(groups)
    for path, size in zip(shown["target_path"], shown["nonblank_lines"], strict=True):
        k = load.index(min(load))
        groups[k].append(str(path))
        load[k] += int(size) + 1
    return groups


def write_html(comparison: Comparison, out_dir: Path, pages: Collection[str] | None = None,
               index: bool = True, cache: PageCache | None = None) -> list[Path]:
    """Write html/: the index, its assets and one page per shown file. ``pages``: only the pages
    of these target paths (None: every shown file's); ``index``: also the index and the assets;
    ``cache``: pages kept by the last run under the comparison's ``row_keys`` context, taken
    for the unchanged files (:mod:`lineage.report.page_cache`; the same bytes).
    The files are the same however the work is split (:meth:`HtmlReporter.write_part`). Returns
    the files written: the index first, then the others sorted."""
    folder = out_dir / "html"
    folder.mkdir(exist_ok=True)
    files = comparison.files
    shown = _shown(comparison)
    lines = comparison.lines
    bounds = _bounds(lines["target_path"].to_numpy())
    columns = {name: lines[name].to_numpy() for name in
               ("match", "upstream", "upstream_path", "upstream_line", "similarity", "shared_origin", "shared_path",
                "shared_line", "region")}
    regions = _regions_by_file(comparison.regions)
    obligations = _obligations_by_file(comparison.obligations)
    target = _Sources(comparison.target)
    upstreams = {label: _Sources(tree) for label, tree in zip(comparison.upstream_names, comparison.upstreams,
                                                               strict=True)}
    several = len(comparison.upstreams) > 1
    written: list[Path] = []
    if index:
        for asset in ASSETS:
            text = resources.files("lineage.report").joinpath("assets", asset).read_text(encoding="utf-8")
            if asset.endswith(".css"):
                text += style_css() + "\n"
            (folder / asset).write_text(text, encoding="utf-8")
            written.append(folder / asset)
    wanted = None if pages is None else set(pages)
    keys: dict[str, tuple[Any, ...]] = {}
    if cache is not None and comparison.row_keys is not None:
        keys = {str(key[0]): key for key in comparison.row_keys.keys}
    names: set[str] = set()
    rows = []
    for row in shown.itertuples():
        name = page_name(row.target_path)
        if name in names:  # 48 bits of SHA-256 colliding: refuse rather than overwrite
            raise RuntimeError(f"two target paths give the page name {name}")
        names.add(name)
        rows.append(_index_row(row, name))
        if wanted is not None and row.target_path not in wanted:
            continue
        file_key = keys.get(row.target_path)
        owed = obligations.get(row.target_path, [])
        key = (page_key(file_key, several, [astuple(o) for o in owed])
               if cache is not None and file_key is not None else "")
        page = cache.get(name, key) if cache is not None and key else None
        if page is None:
            # An empty file has no rows; it is shown when a vendoring record marks it (``__init__.py``).
            page = _file_page(row, columns, bounds.get(row.target_path, (0, 0)),
                              regions.get(row.target_path, []), owed, target, upstreams, several)
            if cache is not None and key:
                cache.put(name, key, page)
        (folder / name).write_text(page, encoding="utf-8", errors="backslashreplace")
        written.append(folder / name)
    if not index:
        return sorted(written)
    index_page = folder / "index.html"
    index_page.write_text(_index_page(comparison, rows, len(files[files["status"] == "indexed"])),
                          encoding="utf-8", errors="backslashreplace")
    return [index_page, *sorted(written)]


def _regions_by_file(regions: pd.DataFrame) -> dict[str, list[_Region]]:
    out: dict[str, list[_Region]] = {}
    if regions.empty:
        return out
    ordered = regions.sort_values(["target_path", "target_start"], kind="stable")
    for r in ordered.itertuples():
        out.setdefault(r.target_path, []).append(_Region(
            int(r.region), int(r.target_start), int(r.target_end), str(r.upstream), str(r.upstream_path),
            int(r.upstream_start), int(r.upstream_end), int(r.verbatim_lines), int(r.near_lines)))
    return out


def _index_row(row, name: str) -> str:  # type: ignore[no-untyped-def]
    share = row.copied / row.nonblank_lines if row.nonblank_lines else 0.0
    marker = str(row.marker)
    up = str(row.upstream_path)
    if not up and row.shared:  # nothing copied: the upstream file its shared lines are set apart with
        up = f"{row.shared_upstream_path} (shared, not counted)"
    return (f"<tr><td><a href='{esc(name)}'>{_breakable(row.target_path)}</a>"
            f"<td data-v={row.nonblank_lines}>{row.nonblank_lines:,}"
            f"<td data-v={row.verbatim_lines}>{row.verbatim_lines:,}"
            f"<td data-v={row.near_lines}>{row.near_lines:,}"
            f"<td data-v={share:.6f}>{percent(row.copied, row.nonblank_lines)}"
            f"<td>{_breakable(up)}<td title='{esc(marker)}'>{esc(marker)}"
            f"<td data-v={row.shared}>{row.shared:,}")


def _breakable(path: str) -> str:
    """A path that may wrap after its slashes (the index is read at 1,280 px)."""
    return esc(path).replace("/", "/<wbr>")


def _statement_items(statements: list[dict[str, object]]) -> str:
    """Statements of reuse (:attr:`Comparison.declared_reuse` and its from-target twin) as list
    items: the upstream, the file and line, the sentence."""
    return "".join(f"<li>{esc(str(s['upstream']))}, <code>{esc(str(s['path']))}</code> line {s['line']}: "
                   f"\u201c{esc(str(s['text']))}\u201d</li>" for s in statements)


def _index_page(comparison: Comparison, rows: list[str], n_indexed: int) -> str:
    title = f"lineage: {comparison_title(comparison)}"
    headline = "".join(f"<li>{esc(h)}.</li>" for h in comparison.headline())
    # what the target's own description says it took (summary.md's "Reuse the target's description states")
    declared = _statement_items(comparison.declared_reuse)
    if declared:
        declared = f"<p class=note>The target's package description says:</p><ul class=declared>{declared}</ul>"
    # what an upstream's description says it took from the target (summary.md's "Reuse an upstream's
    # description states from the target"): the code may have gone the other way
    back = _statement_items(comparison.declared_reuse_from_target)
    if back:
        declared += (f"<p class=note>An upstream's package description says it took code from the target:</p>"
                     f"<ul class=declared>{back}</ul>")
    # the code no figure counts (summary.md says it alike)
    if sentence := not_compared_sentence(not_compared(comparison), esc):
        declared += f"<p class='note not-compared'>{sentence}</p>"
    body = (
        f"<header><h1>{esc(title)}</h1><ul class=headline>{headline}</ul>{declared}"
        f"<details open><summary>Definitions</summary>{_definitions()}"
        "<p>A page per file with copied lines, code shared with an upstream file set apart (third-party "
        "code, code taken from the target; not counted) or a marker: the target on the left, the upstream lines "
        "it was paired with on the right; <mark>highlighted</mark> characters differ inside a <em>near</em> "
        "line; stretches of lines not copied are folded.</p></details></header>"
        "<form class=filters role=search>"
        "<label>Search <input type=search id=q placeholder='path, upstream file or marker' size=34></label>"
        "<label>Marker <select id=marker><option value=''>any</option><option value=yes>with a marker</option>"
        "<option value=no>without</option></select></label>"
        "<label>Copied at least <input type=number id=minshare min=0 max=100 step=1 value=0 size=4> %</label>"
        f"<output id=count>{len(rows):,} of {len(rows):,} files shown</output></form>"
        f"<p class=note>{len(rows):,} of {n_indexed:,} target files have copied lines, shared code or a marker. "
        "Click a column heading to sort.</p>"
        "<table id=files class=index><colgroup><col class=path><col class=num><col class=num><col class=num>"
        "<col class=num><col class=up><col class=mk><col class=num></colgroup><thead><tr>"
        # the counts are of non-blank lines (code, comments, docstrings), as files.csv's
        # verbatim_lines and near_lines; summary.md's tables count code lines: said on each heading
        "<th data-type=text aria-sort=ascending>target file<th data-type=num title='non-blank lines of the file"
        " (code, comments, docstrings)'>non-blank<th data-type=num title='non-blank lines equal to the upstream line"
        " they name (summary.md counts code lines only)'>verbatim"
        "<th data-type=num title='non-blank lines edited from the upstream line they name'>near"
        "<th data-type=num title='copied share: (verbatim + near) / non-blank'>copied"
        "<th data-type=text>upstream file<th data-type=text>marker"
        "<th data-type=num title='non-blank lines shared with an upstream file set apart (third-party code, "
        "code taken from the target): not counted as copied'>shared</thead><tbody>"
        + "".join(rows) + "</tbody></table>")
    return _page(title, body, "index")


def _stretches(mask: np.ndarray) -> list[tuple[int, int]]:
    """1-based inclusive ranges of the True runs of ``mask``."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], mask.astype(np.int8), [0]))))
    return [(int(a) + 1, int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _folded(first: int, lines: list[str]) -> str:
    """Unchanged lines as one compressed attribute (lineage.js inflates them when unfolded): a
    page holds its whole file, and the real pair's html/ stays small."""
    data = zlib.compress("\n".join(lines).encode("utf-8", "backslashreplace"), 9)
    return f"data-a={first} data-n={len(lines)} data-z='{base64.b64encode(data).decode('ascii')}'"


class _Sources:
    """Lines of one side's files and where lexing them may start (see :mod:`lineage.report.highlight`)."""

    def __init__(self, tree: TreeIndex) -> None:
        self.tree = tree
        self.by_path = {f.path: f for f in tree.files}

    def lines_and_starts(self, path: str) -> tuple[list[str], list[int]]:
        lines = self.tree.lines(path)
        index = self.by_path.get(path)
        if index is None or index.parse_errors or index.n_lines != len(lines):
            return lines, [1]
        spans = [(d.start, d.end) for d in index.definitions]
        comments = (np.flatnonzero(index.kinds == COMMENT) + 1).tolist()
        return lines, statement_starts(len(lines), spans, comments)


def _file_page(row, columns: dict[str, np.ndarray],  # type: ignore[no-untyped-def]
               bounds: tuple[int, int], regions: list[_Region], owed: list[_Obligation], target: _Sources,
               upstreams: dict[str, _Sources], several: bool) -> str:
    target_lines, target_starts = target.lines_and_starts(row.target_path)
    start, end = bounds
    n = min(len(target_lines), end - start)
    match = columns["match"][start : start + n]
    in_region = np.zeros(n, dtype=bool)
    for r in regions:
        in_region[r.target_start - 1 : r.target_end] = True
    marker_line = int(row.marker_line) if not pd.isna(row.marker_line) else 0
    # Lines shown unfolded: copied or in a region, the marker line, and CONTEXT lines around them.
    # Shared lines (third-party, from the target, header, generated) are shown too: a reviewer
    # sees what was set apart and why, rather than a fold saying "not copied".
    shared_origin = columns["shared_origin"][start : start + n]
    keep = (match != "none") | in_region | (shared_origin != "")
    if 0 < marker_line <= n:
        keep[marker_line - 1] = True
    visible = keep.copy()
    for shift in range(1, CONTEXT + 1):
        visible[shift:] |= keep[:-shift]
        visible[:-shift] |= keep[shift:]
    # A short run between shown lines is shown too rather than folded.
    for a, b in _stretches(~visible):
        if b - a + 1 < MIN_FOLD:
            visible[a - 1 : b] = True
    pieces = colour(target_lines, target_starts, _stretches(visible))
    # The upstream lines each (upstream, file) contributes, coloured once per page.
    wanted: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for r in regions:
        wanted.setdefault((r.upstream, r.upstream_path), []).append((r.upstream_start, r.upstream_end))
    # Upstream lines paired with some target line of this file: never "in the upstream only" (a
    # gap between two paired lines may hold lines paired elsewhere: imports taken in another order)
    paired_up: dict[tuple[str, str], set[int]] = {}
    for k in np.flatnonzero((match == "verbatim") | (match == "near")):
        i = start + int(k)
        key, line = (str(columns["upstream"][i]), str(columns["upstream_path"][i])), int(columns["upstream_line"][i])
        wanted.setdefault(key, []).append((line, line))
        paired_up.setdefault(key, set()).add(line)
    # Lines shared with an upstream file set apart: that file's line is shown beside them, read from
    # the upstream holding the path (lines.csv names no upstream for them; when several upstreams
    # hold it, which one is not known, and only its line number is shown).
    shared_in: dict[str, str | None] = {}
    for k in np.flatnonzero(shared_origin != ""):
        i = start + int(k)
        path, line = str(columns["shared_path"][i]), columns["shared_line"][i]
        if not path or pd.isna(line) or int(line) < 1:
            continue
        if path not in shared_in:
            holders = [label for label, sources in upstreams.items() if path in sources.by_path]
            shared_in[path] = holders[0] if len(holders) == 1 else None
        if shared_in[path] is not None:
            wanted.setdefault((str(shared_in[path]), path), []).append((int(line), int(line)))
    up_text: dict[tuple[str, str], tuple[list[str], dict[int, Pieces]]] = {}
    for (label, path), ranges in wanted.items():
        lines, starts = upstreams[label].lines_and_starts(path)
        up_text[(label, path)] = (lines, colour(lines, starts, ranges))
    heads = {r.target_start: at for at, r in enumerate(regions)}
    by_number = {r.number: at for at, r in enumerate(regions)}
    current = -1  # the region whose heading, or continuation row, is the last one shown
    last_up: dict[int, tuple[str, str, int]] = {}  # per region: its last upstream line shown
    out: list[str] = ["<tbody>"]
    prev_up: tuple[str, str, int] | None = None  # (label, path, line) of the last upstream line shown
    prev_shared: tuple[str, str] | None = None  # (origin, path) of the shared line just shown
    shown_up: dict[tuple[str, str], set[int]] = {}  # upstream-only lines shown (or counted) so far
    folds = 0
    k = 0
    while k < n:
        if not visible[k]:
            stop = k
            while stop < n and not visible[stop]:
                stop += 1
            folds += 1
            # Folded lines are not copied (match none, outside every region): "unchanged" would read
            # as "the same as upstream", the opposite.
            out.append(f"</tbody><tbody class=bar><tr><td colspan=4><button type=button data-fold=F{folds}>"
                       f"{stop - k:,} lines not copied (L{k + 1}–L{stop}) folded: show</button></tbody>"
                       f"<tbody id=F{folds} class=folded {_folded(k + 1, target_lines[k:stop])}></tbody><tbody>")
            k = stop
            prev_up = prev_shared = None
            last_up.clear()
            continue
        number = k + 1
        if number in heads:
            out.append(_region_head(heads[number], regions, several))
            prev_up = prev_shared = None
            current = regions[heads[number]].number
        cls = str(match[k])
        i = start + k
        own = int(columns["region"][i]) if cls in ("verbatim", "near") else -1  # a copied line's region
        if own != current and own in by_number:
            # regions may overlap in the target: a copied line of another region than the heading
            # above says so (tabulate's region 41, L7-24, inside region 11's L20-101)
            out.append(_region_continues(by_number[own], regions, several))
            # back where that region left off: the upstream lines it skips from there are shown
            current, prev_up = own, last_up.get(own)
        mine = pieces.get(number) or plain(target_lines[k])
        if cls in ("verbatim", "near"):
            label, up_path = str(columns["upstream"][i]), str(columns["upstream_path"][i])
            up_line = int(columns["upstream_line"][i])
            up_lines, up_pieces = up_text[(label, up_path)]
            if prev_up is not None and prev_up[:2] == (label, up_path) and up_line > prev_up[2] + 1:
                # an upstream line shown once is not shown (nor counted) again: the pairing may go
                # back up the upstream file and skip across a stretch already shown
                seen = shown_up.setdefault((label, up_path), set())
                out.append(_upstream_gap(prev_up[2] + 1, up_line, up_lines, up_pieces,
                                         paired_up[(label, up_path)] | seen, seen))
            prev_up = (label, up_path, up_line)
            if own in by_number:
                last_up[own] = prev_up
            theirs = up_pieces.get(up_line) or plain(up_lines[up_line - 1])
            if cls == "near":
                marks_t, marks_u = inner_differences(target_lines[k], up_lines[up_line - 1])
                out.append(f"<tr id=L{number} class=e title='near, similarity {columns['similarity'][i]:.3f}'>"
                           f"<td>{number}<td>{render(mine, marks_t)}<td>{up_line}<td>{render(theirs, marks_u)}")
            else:
                out.append(f"<tr id=L{number} class=v><td>{number}<td>{render(mine)}<td>{up_line}<td>{render(theirs)}")
        elif number == marker_line:
            out.append(f"<tr id=L{number} class=mk title='provenance marker'><td>{number}<td>{render(mine)}")
        elif shared_origin[k]:
            # Not "in the target only": the upstream holds the line, in a file set apart (columns
            # shared_origin/shared_path/shared_line of lines.csv); the first line of a run says why.
            where = (str(shared_origin[k]), str(columns["shared_path"][i]))
            with_file = f"with {esc(where[1])} " if where[1] else ""
            if where != prev_shared:  # the first line of a run says why, on a row of its own
                out.append(f"<tr class=s><td><td><td><td class=note>shared {with_file}"
                           f"({esc(_shared_reason(where[0]))}): not counted as copied")
            prev_shared = where
            up_no = columns["shared_line"][i]
            up_no = "" if pd.isna(up_no) or int(up_no) < 1 else int(up_no)
            label = shared_in.get(where[1])
            theirs = ""
            if up_no and label is not None:
                up_lines, up_pieces = up_text[(label, where[1])]
                if up_no <= len(up_lines):
                    theirs = render(up_pieces.get(up_no) or plain(up_lines[up_no - 1]))
            out.append(f"<tr id=L{number} class=s title='shared: {esc(where[0])}'><td>{number}<td>{render(mine)}"
                       f"<td>{up_no}<td>{theirs}")
        else:
            attrs = " class=x" if in_region[k] and target_lines[k].strip() else ""
            out.append(f"<tr id=L{number}{attrs}><td>{number}<td>{render(mine)}")
        if number == marker_line or cls != "none":
            # a copied line ends a run of shared lines; a line of the target's own between two
            # shared with the same file does not (a note above every import, cute_aot_cache.py's)
            prev_shared = None
        k += 1
    out.append("</tbody>")
    return _page(f"{row.target_path} — lineage", _file_header(row, regions, owed, several)
                 + "<table class='hl sbs'><colgroup><col class=n><col class=code><col class=n><col class=code>"
                 "</colgroup>" + "".join(out) + "</table>", "file")


def _upstream_gap(first: int, stop: int, up_lines: list[str], up_pieces: dict[int, Pieces],
                  paired: set[int], seen: set[int]) -> str:
    """Upstream lines a region skips and the target does not hold (``paired``: the upstream
    file's lines paired in this target file, or already shown on the page), blank ones left out;
    a note when many. The lines shown or counted are added to ``seen``."""
    shown = [j for j in range(first, stop) if up_lines[j - 1].strip() and j not in paired]
    seen.update(shown)
    if not shown:
        return ""
    if len(shown) > MAX_GAP_SHOWN:
        return (f"<tr class=u><td><td><td><td class=note>{len(shown):,} upstream lines ({first}–{stop - 1}) "
                "not in the target")
    return "".join(f"<tr class=u><td><td><td>{j}<td>{render(up_pieces.get(j) or plain(up_lines[j - 1]))}"
                   for j in shown)


def _shared_reason(origin: str) -> str:
    """Why a shared line is not counted, from its ``shared_origin`` (see summary.md's definitions)."""
    if origin.startswith("third_party:"):
        return f"third-party code of {origin.removeprefix('third_party:')}"
    return {"from_target": "taken from the target", "header": "licence or copyright header",
            "generated": "generated file"}.get(origin, origin)


def _up_name(region: _Region, several: bool) -> str:
    return f"{region.upstream}:{region.upstream_path}" if several else region.upstream_path


def _region_head(at: int, regions: list[_Region], several: bool) -> str:
    region = regions[at]
    prev = f"<a href=#R{regions[at - 1].number} class=prev>previous</a>" if at else ""
    nxt = f"<a href=#R{regions[at + 1].number} class=next>next</a>" if at + 1 < len(regions) else ""
    # named by its number in lines.csv and regions.csv (as its anchor is), then its place on the page
    return (f"<tr id=R{region.number} class=rh><td colspan=4><a href=#R{region.number}>region {region.number} "
            f"({at + 1} of {len(regions)} here)</a>: target <a href=#L{region.target_start}>L{region.target_start}</a>–"
            f"L{region.target_end} from <a href='index.html#q={esc(quote(display_path(region.upstream_path)))}' "
            "title='target files whose main upstream file this is'>"
            f"<b>{esc(_up_name(region, several))}</b></a> lines "
            f"{region.upstream_start}–{region.upstream_end} ({region.verbatim:,} verbatim, {region.near:,} near)"
            f" <span class=nav>{prev} {nxt}</span>")


def _region_continues(at: int, regions: list[_Region], several: bool) -> str:
    """A row saying that the lines below belong to region ``regions[at]`` again (not to the
    heading shown last): its number, linked to its heading, and its upstream file."""
    region = regions[at]
    return (f"<tr class=rc><td colspan=4><a href=#R{region.number}>region {region.number}</a> continues: "
            f"from <b>{esc(_up_name(region, several))}</b> lines {region.upstream_start}–{region.upstream_end}")


def _file_header(row, regions: list[_Region], owed: list[_Obligation],  # type: ignore[no-untyped-def]
                 several: bool) -> str:
    marker = str(row.marker)
    marker_html = "none"
    if marker:
        line = int(row.marker_line) if not pd.isna(row.marker_line) else 0
        marker_html = (f"<a href=#L{line}>line {line}</a>: " if line else "") + f"<q>{esc(marker)}</q>"
    listed = "".join(
        f"<li><a href=#R{r.number}>L{r.target_start}–L{r.target_end}</a> ← {esc(_up_name(r, several))} "
        f"{r.upstream_start}–{r.upstream_end} <small>({r.verbatim:,} verbatim, {r.near:,} near)</small>"
        for r in regions)
    copied = row.verbatim_lines + row.near_lines
    return (
        "<header class=bar><nav><a href=index.html>← index</a>"
        "<button type=button id=prev title='previous copied region (p)'>↑ previous region</button>"
        "<button type=button id=next title='next copied region (n)'>↓ next region</button>"
        "<button type=button id=unfold>show all lines</button>"
        "<span class=key><span class=v>verbatim</span><span class=e>near</span><span class=x>in the target "
        "only</span><span class=u>in the upstream only</span><mark>differs</mark>"
        "<span class=s title='in an upstream file set apart: third-party code, taken from the target, a licence "
        "header or a generated file'>shared, not counted</span><span class=mk>provenance marker</span></span></nav>"
        f"<h1>{esc(row.target_path)}</h1>"
        f"<p>{row.nonblank_lines:,} non-blank lines: {row.verbatim_lines:,} verbatim, {row.near_lines:,} near, "
        f"copied share {percent(copied, row.nonblank_lines)}. Main upstream file: "
        f"<b>{esc(row.upstream_path) or 'none'}</b>. Marker: {marker_html}.{_shared_note(row)}{_named_note(row)}</p>"
        + _obligations_note(owed, several)
        + (f"<details><summary>{len(regions):,} copied regions</summary><ol class=regions>{listed}</ol></details>"
           if regions else "<p>No copied region.</p>")
        + "</header>")


def _obligations_note(owed: list[_Obligation], several: bool) -> str:
    """The file's rows of obligations.csv: in the summary what the file lacks (its ``missing``
    column, per item the upstream files it is missing for), any upstream licence not known (of
    which nothing can be said missing: not "nothing missing") and any licence conflict; opened, per
    upstream file, both licences, the conflict verdict, what is missing, the upstream's holders and
    those the file does not keep (``copyrights_missing``), and its own lines stating their years
    under another holder (``copyright_replaced_by``).
    A licence reviewer reads a page for this; before, only obligations.csv said it."""
    if not owed:
        return ""
    lacking = Counter(item for o in owed for item in o.missing.split("; ") if item)
    conflicts = sum(o.conflict == "yes" for o in owed)
    unknown = sum(not o.upstream_licence for o in owed)  # nothing can be missing of an unknown licence
    # a known upstream licence whose fit with the target's is not known (the target's unknown,
    # or a pair the compatibility table does not hold)
    undecided = sum(o.conflict == "unknown" and bool(o.upstream_licence) for o in owed)
    many = len(owed) > 1

    def times(n: int) -> str:
        return f" (for {n:,} of {len(owed):,})" if many else ""

    parts = []
    if lacking:
        parts.append("missing here: " + ", ".join(f"{esc(item)}{times(n)}" for item, n in lacking.items()))
    elif unknown < len(owed):
        parts.append(f"nothing missing{times(len(owed) - unknown) if unknown else ''}")
    if unknown:
        parts.append(f"upstream licence unknown{times(unknown)}")
    if conflicts:
        parts.append(f"licence conflict{times(conflicts)}")
    if undecided:
        parts.append(f"compatibility unknown{times(undecided)}")
    items = []
    for o in owed:
        name = f"{o.upstream}:{o.upstream_path}" if several else o.upstream_path
        licence = esc(o.upstream_licence) or "unknown"
        own = esc(o.target_licence) or "unknown"
        conflict = f"conflict {esc(o.conflict)}" + (f" ({esc(o.conflict_reason)})" if o.conflict_reason else "")
        items.append(
            f"<li><b>{esc(name)}</b> (<a href=#L{o.first_line}>L{o.first_line}</a>–L{o.last_line}, "
            f"{o.copied_lines:,} copied lines): upstream licence {licence} "
            f"<small>({esc(o.upstream_licence_from) or 'none'})</small>, this file's {own} "
            f"<small>({esc(o.target_licence_from) or 'none'})</small>, {conflict}; "
            + (f"<strong>missing: {esc(o.missing)}</strong>" if o.missing
               else "nothing missing" if o.upstream_licence else "what is owed is not known")
            + (f"; upstream copyright: {esc(o.upstream_copyrights)}" if o.upstream_copyrights else "")
            + (f"; <strong>not kept: {esc(o.copyrights_missing)}</strong>" if o.copyrights_missing else "")
            # this file's lines stating those years under another holder (``copyright_replaced_by``)
            + (f"; <strong>its years under another holder: {esc(o.copyright_replaced_by)}</strong>"
               if o.copyright_replaced_by else "") + "</li>")
    cls = " class=owed" if lacking or conflicts or unknown or undecided else ""
    return (f"<details class=licence><summary{cls}>Licence obligations ({len(owed):,} upstream "
            f"file{'s' if many else ''}, obligations.csv): {'; '.join(parts)}</summary>"
            f"<ul class=owed>{''.join(items)}</ul></details>")


def _shared_note(row) -> str:  # type: ignore[no-untyped-def]
    """The lines of the file shared with upstream files set apart, and with which, most first:
    shown on the page (class ``s``) and not counted, as files.csv says."""
    if not row.shared:
        return ""
    origin, path = str(row.shared_origin), str(row.shared_upstream_path)
    evidence = str(getattr(row, "shared_evidence", "") or "")
    why = f"; {esc(evidence)}" if evidence else ""
    more = " more" if row.verbatim_lines + row.near_lines else ""
    return (f" {row.shared:,}{more} lines shared, not counted as copied: most with <b>{esc(path)}</b> "
            f"({esc(_shared_reason(origin))}{why}).")


def _named_note(row) -> str:  # type: ignore[no-untyped-def]
    """For a marked file without copied lines whose marker names an upstream file the trees
    compared do not hold: the reason the page shows no copy (summary.md says it for the list)."""
    path = getattr(row, "marker_path", "")
    if row.verbatim_lines + row.near_lines or not names_missing_file(path, getattr(row, "marker_path_found", pd.NA)):
        return ""
    ref = getattr(row, "marker_ref", "")
    at = f" (the marker points at {esc(ref)})" if isinstance(ref, str) and ref else ""
    return (f" The file it names, <code>{esc(path)}</code>, is not in the trees compared{at}: removed, renamed or "
            "moved since the copy, so this comparison cannot show what was copied; compare against the release "
            "the marker names.")


class HtmlReporter:
    """html/: the index and one side-by-side page per shown file (a :class:`lineage.report.Reporter`)."""

    report_type = "html"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        folder.add(write_html(comparison, folder.root, cache=_page_cache(comparison, folder)))

    def write_part(self, comparison: Comparison, folder: ReportFolder, k: int, n: int) -> None:
        """Part ``k`` of ``n`` of :meth:`write`: the pages of :func:`html_shards` group ``k``, and
        with the first part the index and its assets. The pages take most of a report's writing
        time on a large pair (Pygments): split, the processes writing reports share them."""
        folder.add(write_html(comparison, folder.root, pages=html_shards(comparison, n)[k], index=k == 0,
                              cache=_page_cache(comparison, folder)))


def _page_cache(comparison: Comparison, folder: ReportFolder) -> PageCache | None:
    """The pages kept under the comparison's tables context, for a run that keeps them (as
    lines.csv: :mod:`lineage.report.page_cache`)."""
    if folder.csv_cache is None or comparison.row_keys is None:
        return None
    return PageCache(folder.csv_cache, comparison.row_keys.context)
