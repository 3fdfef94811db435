"""A readable HTML view: an index of files, and per file the target beside its upstream lines."""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from lineage.results import percent

if TYPE_CHECKING:
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}td,th{padding:1px 6px;vertical-align:top}
th{text-align:left;border-bottom:1px solid #999}
.src td{font-family:ui-monospace,monospace;font-size:12px;white-space:pre}
.n{color:#888;text-align:right}.verbatim{background:#d7f5d7}.near{background:#fff2c2}
.up{color:#555}.key span{padding:0 6px;margin-right:6px}
"""


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>{body}</body></html>\n")


def write_html(comparison: Comparison, out_dir: Path) -> list[Path]:
    folder = out_dir / "html"
    folder.mkdir(exist_ok=True)
    files = comparison.files
    shown = files[(files["status"] == "indexed")
                  & (((files["verbatim_lines"] + files["near_lines"]) > 0) | (files["marker"] != ""))]
    shown = shown.assign(copied=shown["verbatim_lines"] + shown["near_lines"]).sort_values(
        ["copied", "target_path"], ascending=[False, True], kind="stable")
    lines = comparison.lines
    # Row ranges per target file: lines.csv is sorted by file, then line.
    paths = lines["target_path"].to_numpy()
    bounds: dict[str, tuple[int, int]] = {}
    if len(paths):
        change = np.flatnonzero(paths[1:] != paths[:-1]) + 1
        starts = np.concatenate(([0], change))
        ends = np.concatenate((change, [len(paths)]))
        bounds = {str(paths[s]): (int(s), int(e)) for s, e in zip(starts, ends, strict=True)}
    columns = {name: lines[name].to_numpy() for name in
               ("match", "upstream", "upstream_path", "upstream_line", "similarity")}
    up_trees = dict(zip(comparison.upstream_names, comparison.upstreams, strict=True))
    written: list[Path] = []
    rows = []
    for number, row in enumerate(shown.itertuples()):
        name = f"f{number:05d}.html"
        rows.append(
            f"<tr><td><a href='{name}'>{html.escape(row.target_path)}</a></td>"
            f"<td class='n'>{row.nonblank_lines:,}</td><td class='n'>{row.verbatim_lines:,}</td>"
            f"<td class='n'>{row.near_lines:,}</td>"
            f"<td class='n'>{percent(row.copied, row.nonblank_lines)}</td>"
            f"<td>{html.escape(str(row.upstream_path))}</td><td>{html.escape(str(row.marker))[:90]}</td></tr>")
        page = _file_page(comparison, row, columns, bounds[row.target_path], up_trees)
        (folder / name).write_text(page, encoding="utf-8")
        written.append(folder / name)
    headline = "".join(f"<li>{html.escape(h)}.</li>" for h in comparison.headline())
    body = (f"<h1>lineage: {html.escape(comparison.target.info.label)} against "
            f"{html.escape(', '.join(comparison.upstream_names))}</h1><ul>{headline}</ul>"
            "<p>Files with copied lines or a provenance marker, most copied first.</p>"
            "<table><tr><th>target file</th><th>non-blank</th><th>verbatim</th><th>near</th>"
            "<th>copied</th><th>main upstream file</th><th>marker</th></tr>" + "".join(rows) + "</table>")
    index = folder / "index.html"
    index.write_text(_page("lineage report", body), encoding="utf-8")
    return [index, *written]


def _file_page(comparison: Comparison, row, columns: dict[str, np.ndarray],  # type: ignore[no-untyped-def]
               bounds: tuple[int, int], up_trees) -> str:
    target_lines = comparison.target.lines(row.target_path)
    start, end = bounds
    match = columns["match"][start:end]
    several = len(comparison.upstreams) > 1
    out = []
    esc = html.escape
    for k, text in enumerate(target_lines[: end - start]):
        cls = str(match[k])
        if cls == "none":
            out.append(f"<tr><td class='n'>{k + 1}</td><td>{esc(text)}</td><td></td><td></td><td></td></tr>")
            continue
        i = start + k
        label, up_path, up_line = columns["upstream"][i], columns["upstream_path"][i], int(columns["upstream_line"][i])
        up_text = up_trees[label].lines(up_path)[up_line - 1]
        up_ref = f"{label}:{up_path}:{up_line}" if several else f"{up_path}:{up_line}"
        out.append(
            f"<tr class='{cls}'><td class='n'>{k + 1}</td><td>{esc(text)}</td>"
            f"<td class='n'>{columns['similarity'][i]:.3f}</td>"
            f"<td class='up n'>{esc(up_ref)}</td><td class='up'>{esc(up_text)}</td></tr>")
    body = (f"<p><a href='index.html'>index</a></p><h2>{esc(row.target_path)}</h2>"
            f"<p>main upstream file: {esc(str(row.upstream_path)) or 'none'}; marker: "
            f"{esc(str(row.marker)) or 'none'}</p>"
            "<p class='key'><span class='verbatim'>verbatim</span><span class='near'>near</span>"
            "similarity, upstream file:line and text on the right</p>"
            "<table class='src'>" + "".join(out) + "</table>")
    return _page(row.target_path, body)



class HtmlReporter:
    """html/: the index and one side-by-side page per shown file (a :class:`lineage.report.Reporter`)."""

    report_type = "html"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        folder.add(write_html(comparison, folder.root))
