"""CSV reports: lines.csv, files.csv, functions.csv, regions.csv (columns in lineage.results)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from lineage.api import Comparison


def write_csv(frame: pd.DataFrame, path: Path) -> Path:
    # "\n" line ends and no index: the files diff cleanly between runs and platforms.
    frame.to_csv(path, index=False, lineterminator="\n")
    return path


def write_tables(comparison: Comparison, out_dir: Path) -> list[Path]:
    return [
        write_csv(comparison.lines, out_dir / "lines.csv"),
        write_csv(comparison.files, out_dir / "files.csv"),
        write_csv(comparison.functions, out_dir / "functions.csv"),
        write_csv(comparison.regions, out_dir / "regions.csv"),
    ]
