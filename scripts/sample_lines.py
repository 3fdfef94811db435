"""Draw the hand-check sample from a report: copied lines and `none` lines in marked files.

    .venv/bin/python scripts/sample_lines.py out/sglang-vllm --n 50 --seed 2026 > notebooks/hand-check-sample.md

Needs the same sources the report was made from (read through the manifest's specs and the
cache). Each sampled line is shown with two lines of context on both sides, and for copied lines
the upstream line it names, so a person can judge it by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from lineage.index import decode_source, split_lines
from lineage.sources import open_source


def _reader(spec: str):  # type: ignore[no-untyped-def]
    source = open_source(spec)
    cache: dict[str, list[str]] = {}

    def lines(path: str) -> list[str]:
        if path not in cache:
            cache[path] = split_lines(decode_source(source.read(path))[0])
        return cache[path]

    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--files", choices=["marked", "unmarked"], default="marked",
                        help="sample from files with a marker naming the upstream, or from the others")
    args = parser.parse_args()
    manifest = json.loads((args.report / "manifest.json").read_text())
    target = _reader(manifest["target"]["spec"])
    upstreams = {u["label"]: _reader(u["spec"]) for u in manifest["upstreams"]}
    files = pd.read_csv(args.report / "files.csv", keep_default_na=False)
    marked = set(files.loc[files["marker"] != "", "target_path"])
    lines = pd.read_csv(args.report / "lines.csv", keep_default_na=False)
    in_scope = lines["target_path"].isin(marked)
    lines = lines[(in_scope if args.files == "marked" else ~in_scope) & (lines["kind"] == "code")]
    copied = lines[lines["match"] != "none"].sample(n=args.n, random_state=args.seed).sort_values(
        ["target_path", "line"])
    plain = lines[lines["match"] == "none"].sample(n=args.n, random_state=args.seed).sort_values(
        ["target_path", "line"])
    out = [f"# Hand-check sample from `{args.report}` ({args.files} files, seed {args.seed})", ""]
    for title, rows in (("Copied lines (verbatim or near)", copied), ("Lines labelled none", plain)):
        out += [f"## {title}", ""]
        for k, row in enumerate(rows.itertuples(), 1):
            text = target(row.target_path)
            lo, hi = max(0, row.line - 3), min(len(text), row.line + 2)
            out.append(f"### {k}. `{row.target_path}:{row.line}` — {row.match}"
                       + (f" {row.similarity} <- `{row.upstream}:{row.upstream_path}:{row.upstream_line}`"
                          if row.match != "none" else ""))
            out.append("```python")
            out += [(">> " if i + 1 == row.line else "   ") + text[i] for i in range(lo, hi)]
            out.append("```")
            if row.match != "none":
                up = upstreams[row.upstream](row.upstream_path)
                u = int(row.upstream_line)
                out.append("upstream:")
                out.append("```python")
                out += [(">> " if i + 1 == u else "   ") + up[i] for i in range(max(0, u - 3), min(len(up), u + 2))]
                out.append("```")
            out.append("verdict: ")
            out.append("")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
