"""``lineage --help`` and ``--version`` build the parser without importing the heavy libraries."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pandas", "numpy", "pyarrow", "duckdb", "dask", "tree_sitter", "pygments", "rapidfuzz", "git")

_PROBE = """
import sys
from lineage.cli import main
for argv in (["--help"], ["--version"], ["compare", "--help"], ["scan", "--help"], ["store", "add", "--help"]):
    try:
        main(argv)
    except SystemExit:
        pass
print(",".join(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


def test_help_and_version_import_no_heavy_library() -> None:
    # A fresh interpreter: this test process has long imported all of them.
    done = subprocess.run([sys.executable, "-c", _PROBE.format(heavy=HEAVY)], capture_output=True, text=True,
                          check=True)
    assert "usage: lineage" in done.stdout and "lineage 0.1.0" in done.stdout
    assert done.stderr.strip().splitlines()[-1:] in ([], [""]), f"imported: {done.stderr.strip()}"


def test_lazy_package_exports_still_resolve() -> None:
    import lineage.match
    import lineage.store

    assert lineage.match.MatchParams().to_dict()
    assert callable(lineage.match.match_sides) and callable(lineage.store.scan)
    assert set(lineage.match.__all__) >= {"MatchParams", "Side", "FileMatch", "match_sides"}
