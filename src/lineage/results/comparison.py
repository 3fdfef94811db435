"""The :class:`Comparison`: one comparison's tables and the conclusions drawn from them.

It is data with derived figures; it knows no output format. The reporters
(:mod:`lineage.report`) take it and render; :class:`lineage.api.Comparison` adds ``write`` and
``summary`` on top for callers of the API.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pandas as pd

from lineage.results import figures
from lineage.results.figures import Numbers

if TYPE_CHECKING:
    from lineage.index import TreeIndex
    from lineage.match import MatchParams
    from lineage.results.reuse import RowKeys


@dataclass
class Comparison:
    """Everything one comparison produced: the tables, and what is needed to reproduce them."""

    target: TreeIndex
    upstreams: list[TreeIndex]
    params: MatchParams
    lines: pd.DataFrame
    files: pd.DataFrame
    functions: pd.DataFrame
    regions: pd.DataFrame
    upstream_names: list[str]
    timings: dict[str, float] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)
    match_cache_hits: int = 0  # target files whose labels came from the match cache
    match_cache_misses: int = 0
    table_rows_reused: int = 0  # target files whose table rows came from the last run's (lineage.results.reuse)
    # upstream files that are third-party code or came from the target (lineage.match.origin)
    origins: pd.DataFrame = field(default_factory=pd.DataFrame)
    target_names: list[str] = field(default_factory=list)  # names that identify the target
    # which lines-table rows are whose, under which key (with the table cache; lineage.report.lines_csv)
    row_keys: RowKeys | None = None

    @functools.cached_property
    def obligations(self) -> pd.DataFrame:
        """Per copied file: licences, copyright holders, notices kept or missing (lineage.licences)."""
        from lineage.results.obligations import build_obligations

        return build_obligations(self.target, self.upstreams, self.upstream_names, self.lines, self.files,
                                 self.params.licence_head_lines)

    def headline(self) -> list[str]:
        return figures.headline(self.files, self.upstream_names)

    @property
    def groups(self) -> dict[str, pd.DataFrame]:
        """The review lists as rows of the files table (:func:`lineage.results.figures.review_groups`)."""
        return figures.review_groups(self.files)

    @property
    def lists(self) -> dict[str, list[str]]:
        """The review lists as sorted target paths."""
        return figures.review_lists(self.groups)

    @property
    def file_counts(self) -> dict[str, int]:
        return figures.file_counts(self.files, self.groups)

    @property
    def numbers(self) -> dict[str, Numbers]:
        """Line counts of all, marked and unmarked files."""
        return figures.file_numbers(self.files, self.groups)

    @property
    def per_upstream(self) -> dict[str, dict[str, int]]:
        return figures.per_upstream(self.lines)

    @property
    def vendored(self) -> list[dict[str, object]]:
        """Per vendoring record that marks files: its pin, the release compared, the copied code
        (:func:`lineage.results.figures.vendored_copies`)."""
        versions = {label: str(u.info.details.get("version", "") or u.info.details.get("commit", ""))
                    for u, label in zip(self.upstreams, self.upstream_names, strict=True)}
        return figures.vendored_copies(self.files, versions)

    @property
    def shared(self) -> dict[str, object]:
        return figures.shared_figures(self.files, self.lines)
