#!/usr/bin/env python3
"""How the HTML report's writing time grows with a file's length: it must be linear.

    .venv/bin/python tests/bench/html_scaling.py                 # 10k, 40k and 160k lines
    .venv/bin/python tests/bench/html_scaling.py --lines 5000 20000

Each point is one target file identical to its upstream file (every line copied, the case that
issue 9 measured as 2.5 s at 40k lines and 39 s at 160k). The comparison is made untimed
(``lineage.api.compare``, no cache, the file size limit raised); only ``lineage.report.html.write_html`` is timed, with
``time.perf_counter`` and ``time.process_time``. Printed: lines, seconds, microseconds per line
and the ratio to the first point's per-line time (about 1 when linear, growing with the length
when quadratic). A script, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def _file(n: int) -> str:
    # varied, realistic lines: definitions every 20 lines so the lexer has statement starts
    out = []
    for k in range(n):
        if k % 20 == 0:
            out.append(f"def step_{k}(value, scale={k % 7}):")
        elif k % 20 == 19:
            out.append(f"    return value * scale + {k}  # step {k}")
        else:
            out.append(f"    value = transform(value, 'stage {k}', {k * 31 % 97})")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[10_000, 40_000, 160_000])
    args = parser.parse_args(argv)
    from lineage.api import compare
    from lineage.report.html import write_html
    from lineage.settings import RunSettings

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.lines:
            base = Path(tmp) / str(n)
            text = _file(n)
            for side in ("up", "target"):
                (base / side / "pkg").mkdir(parents=True)
                (base / side / "pkg" / "big.py").write_text(text)
            # the file size limit raised: 160k lines are above the default
            settings = RunSettings(use_cache=False, jobs=1, max_file_bytes=4 * len(text))
            comparison = compare(str(base / "target"), [str(base / "up")], settings=settings)
            assert comparison.files["verbatim_lines"].sum() == n, "the file was not compared whole"
            out = base / "out"
            out.mkdir()
            wall, cpu = time.perf_counter(), time.process_time()
            write_html(comparison, out)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            size = sum(p.stat().st_size for p in (out / "html").iterdir())
            rows.append((n, wall, cpu, size))
            print(f"html_scaling: {n:,} lines written in {wall:.2f} s", file=sys.stderr, flush=True)
    first = rows[0][2] / rows[0][0]
    print("| lines | wall s | cpu s | cpu µs/line | per-line ratio to first | html MB |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n, wall, cpu, size in rows:
        print(f"| {n:,} | {wall:.2f} | {cpu:.2f} | {cpu / n * 1e6:.1f} | {cpu / n / first:.2f} | {size / 1e6:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
