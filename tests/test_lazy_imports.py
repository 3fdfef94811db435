"""``lineage --help`` and ``--version`` build the parser without importing the heavy libraries."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

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


_IRI_PROBE = """
import sys
from lineage.report.cyclonedx import _validator
_validator()._validator  # the jsonschema validator, format checker and all
print("rfc3987_syntax" in sys.modules)
from jsonschema import FormatChecker
checker = FormatChecker()
print(checker.conforms("https://example.org/a b", "iri-reference"), checker.conforms("https://example.org/a", "iri"))
print(hasattr(sys.modules["rfc3987_syntax"], "__file__"))
"""


def test_the_cyclonedx_validator_compiles_the_iri_grammars_only_when_an_iri_is_checked() -> None:
    if importlib.util.find_spec("rfc3987_syntax") is None:
        pytest.skip("rfc3987_syntax is not installed: jsonschema checks no IRI")
    done = subprocess.run([sys.executable, "-c", _IRI_PROBE], capture_output=True, text=True, check=True)
    # Not imported with the validator; then the same answers as the real module's, which it now is.
    assert done.stdout.split() == ["False", "False", "True", "True"], done.stderr


def test_the_cached_compare_path_imports_no_table_library() -> None:
    """A warm run is answered by lineage.compare_and_write from the whole-result cache: that
    module imports neither pandas nor the matcher's table builders (only a miss loads them)."""
    probe = ("import sys\nimport lineage.compare_and_write\n"
             "print(','.join(m for m in ('pandas', 'pyarrow', 'lineage.results', 'lineage.api') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_a_result_cache_hit_stamps_the_tool_without_pandas() -> None:
    """A warm run answered by the whole-result cache writes the stored outputs with this run's
    manifest fields (``refreshed_manifest``); naming the tool must not import pandas or the
    attachment libraries (it had, through ``lineage.report.manifest``: 0.4 s of a 2 s warm run)."""
    probe = ("import sys\nfrom lineage.report.cache import refreshed_manifest\n"
             "m = refreshed_manifest({'target': {}, 'upstreams': []}, {}, {})\n"
             "assert m['tool']['name'] == 'lineage'\n"
             "print(','.join(x for x in ('pandas', 'spdx_tools', 'cyclonedx') if x in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "", f"imported: {done.stdout.strip()}"


_POOL_PROBE = """
import os
import lineage.cli
import pyarrow
print(os.environ["ARROW_DEFAULT_MEMORY_POOL"], pyarrow.default_memory_pool().backend_name)
"""


@pytest.mark.parametrize(("given", "expected"), [(None, "system"), ("mimalloc", "mimalloc")])
def test_the_command_picks_pyarrows_pool_unless_the_user_did(given: str | None, expected: str) -> None:
    import os

    from lineage.settings import ARROW_MEMORY_POOL

    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    if given is not None:
        env["ARROW_DEFAULT_MEMORY_POOL"] = given
    done = subprocess.run([sys.executable, "-c", _POOL_PROBE], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == [expected if given else ARROW_MEMORY_POOL] * 2


def test_the_command_runs_with_its_collector_thresholds_and_gives_them_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    import lineage.cli
    from lineage.settings import GC_THRESHOLDS

    seen: list[tuple[int, int, int]] = []

    def command(argv: object) -> int:
        seen.append(gc.get_threshold())
        return 0

    monkeypatch.setattr(lineage.cli, "_main", command)
    before = gc.get_threshold()
    assert before != GC_THRESHOLDS
    assert lineage.cli.main(["--version"]) == 0
    assert seen == [GC_THRESHOLDS] and gc.get_threshold() == before
