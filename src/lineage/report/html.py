"""A readable HTML view: an index of files, and per file the target beside its upstream lines."""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from lineage.results import percent

if TYPE_CHECKING:
    from lineage.api import Comparison

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
    lines_by_file = {path: group for path, group in
                     comparison.lines.groupby("target_path", sort=False, observed=True)}
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
        page = _file_page(comparison, row, lines_by_file[row.target_path], up_trees)
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


def _file_page(comparison: Comparison, row, lines, up_trees) -> str:  # type: ignore[no-untyped-def]
    target_lines = comparison.target.lines(row.target_path)
    out = []
    for rec in lines.itertuples():
        text = target_lines[rec.line - 1] if rec.line - 1 < len(target_lines) else ""
        cls = str(rec.match)
        up_text = up_ref = ""
        if cls != "none":
            tree = up_trees[rec.upstream]
            up_lines = tree.lines(rec.upstream_path)
            up_text = up_lines[int(rec.upstream_line) - 1]
            up_ref = f"{rec.upstream_path}:{int(rec.upstream_line)}"
            if len(comparison.upstreams) > 1:
                up_ref = f"{rec.upstream}:{up_ref}"
        out.append(
            f"<tr class='{cls}'><td class='n'>{rec.line}</td><td>{html.escape(text)}</td>"
            f"<td class='n'>{'' if cls == 'none' else f'{rec.similarity:.3f}'}</td>"
            f"<td class='up n'>{html.escape(up_ref)}</td><td class='up'>{html.escape(up_text)}</td></tr>")
    body = (f"<p><a href='index.html'>index</a></p><h2>{html.escape(row.target_path)}</h2>"
            f"<p>main upstream file: {html.escape(str(row.upstream_path)) or 'none'}; marker: "
            f"{html.escape(str(row.marker)) or 'none'}</p>"
            "<p class='key'><span class='verbatim'>verbatim</span><span class='near'>near</span>"
            "similarity, upstream file:line and text on the right</p>"
            "<table class='src'>" + "".join(out) + "</table>")
    return _page(row.target_path, body)
