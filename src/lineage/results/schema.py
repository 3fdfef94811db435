"""The type of every column of the API's tables (:class:`lineage.results.Comparison`), in one place.

Each builder in :mod:`lineage.results.tables` and :mod:`lineage.results.obligations` gives its
table these types through :func:`typed`, an empty table too (before, a pair with nothing copied
had ``regions``, ``functions`` and ``obligations`` of ``object`` columns, and a notebook's
``regions["target_start"] + 1`` or ``.str`` accessor worked on one pair and not another). The
types are pandas' names (``str(series.dtype)``): ``str`` is pandas' default string type, ``string``
the nullable one the lines table uses (its text columns are built in Arrow, and their "" means
"none"), ``Int64`` a whole number that may be missing (``<NA>``), ``category`` a column of a few
named values. What each column means is said where its table is built and in the README's
*Outputs*; docs/tables.md lists these types (written by ``scripts/table_docs.py``, checked by the
tests).
"""

from __future__ import annotations

import functools

import pandas as pd

_TEXT, _NULLABLE_TEXT, _COUNT, _MAYBE, _SHARE = "str", "string", "int64", "Int64", "float64"

TABLE_TYPES: dict[str, dict[str, str]] = {
    "lines": {
        "target_path": _NULLABLE_TEXT, "line": "int32", "kind": "category", "match": "category",
        "upstream_path": _NULLABLE_TEXT, "upstream_line": _MAYBE, "similarity": _SHARE, "upstream": _NULLABLE_TEXT,
        "region": _MAYBE, "shared_origin": _NULLABLE_TEXT, "shared_path": _NULLABLE_TEXT, "shared_line": _MAYBE,
    },
    "files": {
        "target_path": _TEXT, "status": _TEXT, "reason": _TEXT, "lines": _COUNT, "nonblank_lines": _COUNT,
        "code_lines": _COUNT, "verbatim_lines": _COUNT, "near_lines": _COUNT, "verbatim_code_lines": _COUNT,
        "near_code_lines": _COUNT, "copied_share": _SHARE, "upstream": _TEXT, "upstream_path": _TEXT,
        "upstream_files": _COUNT, "upstream_paths": _TEXT, "marker": _TEXT, "marker_kind": _TEXT,
        "marker_line": _MAYBE, "marker_ref": _TEXT, "marker_path": _TEXT, "marker_path_found": "boolean",
        "marker_upstream_path": _TEXT, "other_markers": _COUNT, "spdx": _TEXT, "digest": _TEXT, "file_role": _TEXT,
        "shared_third_party_lines": _COUNT, "shared_third_party_code_lines": _COUNT,
        "shared_from_target_lines": _COUNT, "shared_from_target_code_lines": _COUNT, "shared_origin": _TEXT,
        "shared_upstream_path": _TEXT, "shared_evidence": _TEXT, "header_copied_lines": _COUNT,
        "header_shared_lines": _COUNT, "header_upstream_path": _TEXT,
    },
    "functions": {
        "target_path": _TEXT, "qualname": _TEXT, "kind": _TEXT, "start_line": _COUNT, "end_line": _COUNT,
        "code_lines": _COUNT, "copied_code_lines": _COUNT, "copied_share": _SHARE, "upstream": _TEXT,
        "upstream_path": _TEXT, "upstream_qualname": _TEXT,
    },
    "regions": {
        "target_path": _TEXT, "region": _COUNT, "target_start": _COUNT, "target_end": _COUNT, "upstream": _TEXT,
        "upstream_path": _TEXT, "upstream_start": _COUNT, "upstream_end": _COUNT, "verbatim_lines": _COUNT,
        "near_lines": _COUNT, "evidence_weight": _SHARE,
    },
    "obligations": {
        "target_path": _TEXT, "upstream": _TEXT, "upstream_path": _TEXT, "copied_lines": _COUNT,
        "verbatim_lines": _COUNT, "near_lines": _COUNT, "first_line": _COUNT, "last_line": _COUNT, "marked": _TEXT,
        "upstream_licence": _TEXT, "upstream_licence_from": _TEXT, "upstream_copyrights": _TEXT,
        "upstream_copyrights_from": _TEXT, "target_licence": _TEXT, "target_licence_from": _TEXT,
        "keeps_copyright": _TEXT, "copyright_kept_in": _TEXT, "copyrights_missing": _TEXT,
        "copyright_replaced_by": _TEXT, "keeps_licence_notice": _TEXT, "modified": _TEXT,
        "modification_notice": _TEXT, "notice_files": _TEXT, "notice_lines": _COUNT,
        "notice_lines_missing": _COUNT, "conflict": _TEXT, "conflict_reason": _TEXT, "missing": _TEXT,
    },
    "origins": {
        "upstream": _TEXT, "upstream_path": _TEXT, "origin": _TEXT, "name": _TEXT, "evidence": _TEXT,
        "line": _MAYBE, "first_line": _MAYBE, "last_line": _MAYBE,
    },
}


def typed(frame: pd.DataFrame, table: str) -> pd.DataFrame:
    """``frame`` with the columns of :data:`TABLE_TYPES` ``[table]``, each of its type; a column
    already of its type is left as it is (the lines table's millions of rows are not copied)."""
    types = TABLE_TYPES[table]
    if list(frame.columns) != list(types):
        raise ValueError(f"the {table} table's columns are {list(frame.columns)}, not {list(types)}")
    wrong = {c: t for c, t in types.items() if str(frame[c].dtype) != t}
    return frame.astype(wrong) if wrong else frame


def empty(table: str) -> pd.DataFrame:
    """A table of no rows with the columns and types of ``table`` (a copy of one made once: the
    conversion to those types takes ~10 ms a table, and `lineage history` asks for several a commit)."""
    return _empty(table).copy()


@functools.cache
def _empty(table: str) -> pd.DataFrame:
    return typed(pd.DataFrame({c: pd.Series(dtype=object) for c in TABLE_TYPES[table]}), table)
