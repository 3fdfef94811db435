"""CSV reports: lines.csv, files.csv, functions.csv, regions.csv (columns in lineage.results).

Written with pyarrow's CSV writer: for the two million rows of a large target it is about four
times faster than pandas. Every string field is quoted (RFC 4180); numbers are not; a missing
value is an empty field. Line ends are "\\n" so files diff cleanly between runs and platforms.

A spreadsheet evaluates a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and some begin a
formula with a TAB or CR), so a file name or marker text could run as a formula on a reviewer's
machine. Such a string cell is written with a leading ``'`` (what spreadsheets themselves use to
mean "text"); the raw value is in summary.json and the Python API.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

if TYPE_CHECKING:
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison


FORMULA_START = r"^[=+\-@\t\r]"
_FORMULA_RE = re.compile(FORMULA_START)


def neutralise_formulas(table: pa.Table) -> pa.Table:
    """String cells that a spreadsheet would run as a formula get a leading ``'``."""
    for number, column in enumerate(table.columns):
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            continue
        risky = pc.match_substring_regex(column, FORMULA_START)
        if pc.any(risky).as_py():
            fixed = pc.if_else(risky, pc.binary_join_element_wise(pa.scalar("'", column.type), column,
                                                                 pa.scalar("", column.type)), column)
            table = table.set_column(number, table.field(number), fixed)
    return table


def guard_formulas(frame: pd.DataFrame) -> pd.DataFrame:
    """The same guard for a table pandas writes (forkpoint.csv, drift.csv, history.csv,
    candidates.csv): their cells hold commit subjects, release labels and paths of trees a
    reviewer did not write (an upstream commit "=HYPERLINK(...)" would run on opening drift.csv)."""
    guarded = frame
    for name in frame.columns:
        column = frame[name]
        if not pd.api.types.is_string_dtype(column.dtype):  # object columns too
            continue
        cells = [guarded_cell(v) if isinstance(v, str) else v for v in column]
        if any(a is not b for a, b in zip(cells, column, strict=True)):
            if guarded is frame:
                guarded = frame.copy()
            guarded[name] = pd.Series(cells, index=frame.index, dtype=column.dtype)
    return guarded


def guarded_cell(value: str) -> str:
    """One string cell through the guard (a csv.writer row); the same object when it needs none."""
    return "'" + value if _FORMULA_RE.match(value) else value


def write_csv(frame: pd.DataFrame, path: Path) -> Path:
    table = neutralise_formulas(pa.Table.from_pandas(frame, preserve_index=False))
    pa_csv.write_csv(table, str(path), pa_csv.WriteOptions(quoting_style="needed"))
    return path


class TablesReporter:
    """lines.csv, files.csv, functions.csv, regions.csv (a :class:`lineage.report.Reporter`)."""

    report_type = "tables"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        for name in ("lines", "files", "functions", "regions"):
            path = folder.path(f"{name}.csv")
            if name == "lines" and folder.csv_cache is not None and comparison.row_keys is not None \
                    and comparison.n_line_rows:
                from lineage.report.lines_csv import write_lines_csv

                try:  # the lines table's parts, while nobody read it whole (Comparison.lines_rows)
                    write_lines_csv(comparison.lines_rows(), path, comparison.row_keys, folder.csv_cache)
                    continue
                except (ValueError, pa.ArrowException):  # keys not matching the table, a bad entry
                    pass  # rendered whole, as without the cache
            write_csv(getattr(comparison, name), path)
        # Arrow's allocator keeps the freed tables' pages for reuse by Arrow only; hand them back,
        # so the reports written after these (HTML, SBOMs) do not stack on top (peak RSS).
        pa.default_memory_pool().release_unused()
