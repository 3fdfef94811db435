"""Write docs/tables.md: the type of every column of the API's tables, from
``lineage.results.schema.TABLE_TYPES`` (the one place they are stated).

    python scripts/table_docs.py            # rewrite docs/tables.md
    python scripts/table_docs.py --check    # exit 1 when docs/tables.md is not what it would write
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lineage.results.schema import TABLE_TYPES

DOC = Path(__file__).resolve().parent.parent / "docs" / "tables.md"

TYPE_MEANINGS = {
    "str": "text (pandas' default string type); \"\" when there is nothing to say",
    "string": "text, pandas' nullable string type (built in Arrow); \"\" when there is nothing to say",
    "int64": "whole number",
    "int32": "whole number (32-bit)",
    "Int64": "whole number or `<NA>` (missing: no such line, no marker)",
    "float64": "number (a share 0..1, a similarity 0..1, a weight)",
    "boolean": "True, False or `<NA>` (pandas' nullable boolean)",
    "category": "one of a few named values (a pandas categorical)",
}


def render() -> str:
    out = ["# Column types of the API's tables", "",
           "`lineage.api.compare(...)` returns a `Comparison` whose tables are pandas DataFrames with these",
           "columns and types, the same whether the run was fresh, answered from the caches or found nothing",
           "(an empty table has the same columns and types). What each column holds is said in the README",
           "(*Outputs*) and where each table is built (`src/lineage/results/`). Written by",
           "`python scripts/table_docs.py` from `lineage.results.schema.TABLE_TYPES`; the tests check that",
           "this page is current.", "", "| type | meaning |", "|---|---|"]
    used = sorted({t for types in TABLE_TYPES.values() for t in types.values()})
    out += [f"| `{t}` | {TYPE_MEANINGS[t]} |" for t in used]
    for table, types in TABLE_TYPES.items():
        out += ["", f"## `{table}`", "", "| column | type |", "|---|---|"]
        out += [f"| `{column}` | `{kind}` |" for column, kind in types.items()]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check docs/tables.md")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print(f"{DOC} is not current: run python scripts/table_docs.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
