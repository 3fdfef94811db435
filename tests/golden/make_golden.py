"""The figures golden: sha256 of every figure file of the small eval suite, per case.

Regenerate (one command, from the repository root) after a change that alters figures on
purpose, and say why in the commit message:

    .venv/bin/python tests/golden/make_golden.py

It runs the small suite's comparisons (``tests/eval/run_eval.py --small --tools lineage``: the
in-repo fixture, no network) in a fresh temporary cache and writes ``tests/golden/small-eval.sha256``.
``tests/test_golden.py`` recomputes the digests and compares them, so a restructure that should
not change any figure proves it did not. ``--check`` compares instead of writing (exit 1 on a
difference).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.eval import run_eval  # noqa: E402

GOLDEN = Path(__file__).with_name("small-eval.sha256")
# The figure files: byte-identical for identical inputs (manifest.json and html/ are not figures).
FIGURE_FILES = ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md")
_HEADER = """\
# sha256 of every figure file of the small eval suite, per case (lineage compare on the in-repo fixture).
# Paths of the run and of the checkout are replaced by <RUN>, <REPO> before hashing (summaries name inputs).
# Regenerate with: .venv/bin/python tests/golden/make_golden.py
# Checked by tests/test_golden.py. Change it only with a commit that says why the figures changed.
"""


# The generated case's cache key (it follows the generator's code, not the figures).
_CASE_KEY = re.compile(rb"-s(\d+)-[0-9a-f]{12}/")


def _portable(data: bytes, run_root: Path) -> bytes:
    """The figure file with where it ran taken out: summaries name their inputs by path."""
    data = data.replace(str(run_root).encode(), b"<RUN>").replace(str(REPO).encode(), b"<REPO>")
    return _CASE_KEY.sub(rb"-s\1-<KEY>/", data)


def digests(runs_root: Path, run_root: Path) -> dict[str, str]:
    """``{CORPUS/CASE/FILE: sha256}`` for every figure file under ``runs_root/lineage``.

    ``run_root`` (the temporary directory of the run) and this checkout's path are replaced by
    placeholders first, so the digests do not depend on where the suite ran.
    """
    out = {}
    tool_root = runs_root / "lineage"
    for case_dir in sorted(p for p in tool_root.glob("*/*") if p.is_dir()):
        for name in FIGURE_FILES:
            path = case_dir / name
            key = f"{case_dir.parent.name}/{case_dir.name}/{name}"
            out[key] = (hashlib.sha256(_portable(path.read_bytes(), run_root)).hexdigest()
                        if path.exists() else "missing")
    return out


@contextlib.contextmanager
def _cache_env(path: Path):
    """Point the ``lineage compare`` subprocesses at a fresh cache, not the user's."""
    old = os.environ.get("LINEAGE_CACHE_DIR")
    os.environ["LINEAGE_CACHE_DIR"] = str(path)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("LINEAGE_CACHE_DIR", None)
        else:
            os.environ["LINEAGE_CACHE_DIR"] = old


def run_small(root: Path):
    """Run the small suite under ``root`` (fresh caches); return (results frame, runs directory)."""
    with _cache_env(root / "lineage-cache"):
        results, runs = run_eval.run_suite(tools=["lineage"], small=True, out=root / "out",
                                           cache_dir=root / "cache", log=lambda message: None)
    errors = [f"{run.spec.case_id}: {run.error}" for run in runs if run.error]
    if errors:
        raise RuntimeError("lineage failed on:\n" + "\n".join(errors))
    return results, root / "out" / "runs"


def render(found: dict[str, str]) -> str:
    return _HEADER + "".join(f"{digest}  {key}\n" for key, digest in sorted(found.items()))


def read_golden(path: Path = GOLDEN) -> dict[str, str]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            digest, key = line.split("  ", 1)
            out[key] = digest
    return out


def differences(expected: dict[str, str], found: dict[str, str]) -> list[str]:
    return [f"{key}: golden {expected.get(key, 'absent')}, now {found.get(key, 'absent')}"
            for key in sorted(set(expected) | set(found)) if expected.get(key) != found.get(key)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="compare with the golden instead of writing it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lineage-golden-") as tmp:
        found = digests(run_small(Path(tmp))[1], Path(tmp))
    if args.check:
        diff = differences(read_golden(), found)
        print("\n".join(diff) or f"{len(found)} figure files match {GOLDEN.name}")
        return 1 if diff else 0
    GOLDEN.write_text(render(found), encoding="utf-8")
    print(f"wrote {len(found)} digests to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
