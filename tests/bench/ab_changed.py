#!/usr/bin/env python3
"""A/B of two lineage code trees on issue 13's one-changed-file run, in alternation.

    .venv/bin/python tests/bench/ab_changed.py --old OLD_SRC [--new NEW_SRC] [--rounds 6] [--work DIR]

``OLD_SRC`` and ``NEW_SRC`` are ``src`` folders of two checkouts (``git archive COMMIT src | tar x
-C DIR``, then copy this checkout's compiled ``src/lineage/*.so`` beside it); ``NEW_SRC`` defaults
to this checkout's. Each tree gets its own cache, warmed once; then, ``--rounds`` times, old and new
in turn: the unchanged target as a directory (a whole-result cache hit) and the same target with
one line appended to its largest file (``sglang/srt/managers/scheduler.py``), as
``run_bench.py``'s "one changed file" part, both with ``--no-html``. Printed: each run's wall
(``time.perf_counter`` around the process) and CPU (user + sys of the child and its report
workers, ``RUSAGE_CHILDREN``: the machine is shared and walls swing by a quarter, CPU less), and
the medians per tree. Alternating runs share the
machine's drift, which two bench runs minutes apart do not (s38's two runs saw the parse floor
move by a quarter). Needs the pinned pair's wheels in the user cache (``bash scripts/main.sh``
once); no network (``LINEAGE_OFFLINE=1``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpora" / "sglang-vllm.json"
CHANGED = "sglang/srt/managers/scheduler.py"


def _wheel(release: dict[str, str]) -> Path:
    cache = Path(os.environ.get("LINEAGE_CACHE_DIR") or Path(os.environ.get("XDG_CACHE_HOME", "~/.cache")) / "lineage")
    path = cache.expanduser() / "downloads" / "pypi" / f"{release['name']}-{release['version']}" / release["filename"]
    if not path.is_file():
        sys.exit(f"ab_changed: {path} is not cached (run bash scripts/main.sh once)")
    return path


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run(src: Path, cache: Path, target: Path, upstream: str, out: Path) -> tuple[float, float]:
    """(wall, CPU user + sys) of one run (its report workers' CPU in too: they are waited for)."""
    env = {**os.environ, "PYTHONPATH": str(src), "LINEAGE_CACHE_DIR": str(cache), "LINEAGE_OFFLINE": "1"}
    started, cpu = time.perf_counter(), _cpu()
    subprocess.run([sys.executable, "-m", "lineage.cli", "compare", str(target), upstream, "--out", str(out),
                    "-q", "--no-html"], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started, _cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="src folder of the old code")
    parser.add_argument("--new", type=Path, default=REPO / "src", help="src folder of the new code (this checkout's)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--work", type=Path, default=None, help="work folder (default: a temporary one, removed)")
    args = parser.parse_args()
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    target_wheel, up = _wheel(corpus["target"]), corpus["upstreams"][0]
    upstream = f"pypi:{up['name']}=={up['version']}#sha256={up['sha256']}"
    work = args.work or Path(tempfile.mkdtemp(prefix="lineage-ab-"))
    try:
        plain, changed = work / "target", work / "target-changed"
        if not plain.is_dir():
            with zipfile.ZipFile(target_wheel) as wheel:
                wheel.extractall(plain, [n for n in wheel.namelist() if n.endswith((".py", ".pyi"))])
        shutil.rmtree(changed, ignore_errors=True)
        shutil.copytree(plain, changed)
        original = (plain / CHANGED).read_bytes()
        walls: dict[str, dict[str, list[tuple[float, float]]]] = {}
        trees = {"old": args.old.resolve(), "new": args.new.resolve()}
        for name, src in trees.items():  # each tree's cache made and warmed once (not timed)
            cache = work / f"cache-{name}"
            (cache / "downloads" / "pypi").mkdir(parents=True, exist_ok=True)
            for release in (corpus["target"], up):
                folder = cache / "downloads" / "pypi" / f"{release['name']}-{release['version']}"
                if not folder.exists():
                    shutil.copytree(_wheel(release).parent, folder, copy_function=os.link)
            for target in (plain, changed):
                _run(src, cache, target, upstream, work / f"out-{name}")
            walls[name] = {"unchanged": [], "changed": []}
        for k in range(args.rounds):
            for name, src in trees.items():
                cache = work / f"cache-{name}"
                walls[name]["unchanged"].append(_run(src, cache, plain, upstream, work / f"out-{name}"))
                # a new line each time, so that the changed file is parsed afresh every run
                (changed / CHANGED).write_bytes(original + f"\n# ab_changed {name} {k}\n".encode())
                walls[name]["changed"].append(_run(src, cache, changed, upstream, work / f"out-{name}"))
                (uw, uc), (cw, cc) = walls[name]["unchanged"][-1], walls[name]["changed"][-1]
                print(f"{name} round {k}: unchanged {uw:.2f} s (CPU {uc:.2f} s), "
                      f"changed {cw:.2f} s (CPU {cc:.2f} s)", flush=True)
        for name in trees:
            u, c = (statistics.median(w for w, _ in walls[name][kind]) for kind in ("unchanged", "changed"))
            uc, cc = (statistics.median(t for _, t in walls[name][kind]) for kind in ("unchanged", "changed"))
            print(f"{name}: median unchanged {u:.2f} s, changed {c:.2f} s, rise {c - u:+.2f} s; CPU unchanged "
                  f"{uc:.2f} s, changed {cc:.2f} s, rise {cc - uc:+.2f} s ({trees[name]})")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
