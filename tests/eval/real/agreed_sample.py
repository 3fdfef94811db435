"""Draw code lines that both a real case's truth and lineage call copied, for a by-eye re-read.

    python -m tests.eval.real.agreed_sample OUT CASE [--n 30] [--seed 2026]

OUT is a ``run_eval.py --real --tools lineage`` output folder. The truths of the git cases were
corrected by reading the lines where truth and lineage disagree, which can only move the truth
toward lineage; re-reading a random sample of the lines they *agree* on checks the other side:
whether lines both call copied are copies. Each line is printed with its neighbours, the
upstream line the truth names (``U>``) and, when lineage names another, lineage's (``L>``).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from pathlib import Path


def agreed_lines(case_dir: Path, lines_csv: Path) -> tuple[list[dict[str, str]], dict[tuple[str, int], dict[str, str]]]:
    """The code rows of ``lines_csv`` labelled copied whose truth row is copied too, and the truth."""
    with (case_dir / "truth.csv").open(newline="", encoding="utf-8") as fh:
        truth = {(row["target_path"], int(row["line"])): row for row in csv.DictReader(fh)}
    with lines_csv.open(newline="", encoding="utf-8") as fh:
        rows = [
            row for row in csv.DictReader(fh)
            if row["kind"] == "code" and row["match"] != "none"
            and truth.get((row["target_path"], int(row["line"])), {}).get("expected", "none") != "none"
        ]
    return rows, truth


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("case")
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    run = args.out / "runs" / "lineage" / "real" / args.case
    target = Path(json.loads((run / "manifest.json").read_text(encoding="utf-8"))["target"]["spec"])
    case_dir = target.parent
    rows, truth = agreed_lines(case_dir, run / "lines.csv")
    print(f"{args.case}: {len(rows)} code lines both call copied; {args.n} drawn with seed {args.seed}")
    texts: dict[Path, list[str]] = {}

    def line(path: Path, number: int) -> str:
        if path not in texts:
            texts[path] = path.read_text(encoding="utf-8", errors="replace").split("\n")
        return texts[path][number - 1][:150]

    drawn = random.Random(args.seed).sample(rows, min(args.n, len(rows)))
    for row in sorted(drawn, key=lambda r: (r["target_path"], int(r["line"]))):
        number = int(row["line"])
        want = truth[(row["target_path"], number)]
        print(f"== {row['target_path']}:{number} lineage {row['match']} {row['upstream_path']}:{row['upstream_line']}"
              f" | truth {want['expected']} {want['upstream_path']}:{want['upstream_line']} {want['operator']}")
        source = case_dir / "target" / row["target_path"]
        count = len(source.read_text(encoding="utf-8", errors="replace").split("\n"))
        for at in range(max(1, number - 1), min(count, number + 1) + 1):
            print(("T> " if at == number else "T  ") + line(source, at))
        print("U> " + line(case_dir / "upstream" / want["upstream_path"], int(want["upstream_line"])))
        if (row["upstream_path"], row["upstream_line"]) != (want["upstream_path"], want["upstream_line"]):
            print("L> " + line(case_dir / "upstream" / row["upstream_path"], int(row["upstream_line"])))


if __name__ == "__main__":
    main()
