"""Show sampled truth-set lines for labelling by eye: the target file's header, the line in its
context, the upstream line the report names (with context), and the other vLLM places holding the
same stripped text, each with how many neighbouring target lines follow it in order.

    .venv/bin/python scripts/truth_view.py SAMPLE.csv out/sglang-vllm --start 0 --count 25

A labelling aid only: it prints code of both wheels to the terminal and writes nothing.
"""

from __future__ import annotations

import argparse
import difflib
import pickle
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import truth_common as tc  # noqa: E402

CONTEXT = 4
HEAD = 12


def order_score(t: list[str], i: int, u: list[str], j: int, span: int = 8) -> int:
    """Target lines within `span` of line i whose text is found at the same offset (+-2) from
    upstream line j: how well the two files follow each other around the pair."""
    n = 0
    for d in range(-span, span + 1):
        if d == 0 or not (0 < i + d <= len(t)):
            continue
        s = t[i + d - 1].strip()
        if len(s) < 4:
            continue
        if any(0 < j + d + e <= len(u) and u[j + d + e - 1].strip() == s for e in (-2, -1, 0, 1, 2)):
            n += 1
    return n


def blocks(t: list[str], u: list[str]) -> str:
    """Runs of at least 3 identical stripped lines the two files share in order (difflib)."""
    sm = difflib.SequenceMatcher(None, [x.strip() for x in t], [x.strip() for x in u], autojunk=False)
    runs = [b for b in sm.get_matching_blocks() if b.size >= 3]
    return (f"{sum(b.size for b in runs)} lines in order-runs: "
            + " ".join(f"t{b.a + 1}-{b.a + b.size}~u{b.b + 1}" for b in runs)[:400])


def show(lines: list[str], at: int, mark: str = ">>") -> str:
    lo, hi = max(1, at - CONTEXT), min(len(lines), at + CONTEXT)
    return "\n".join(f"{mark if k == at else '  '}{k:5d} {lines[k - 1][:150]}" for k in range(lo, hi + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", type=Path)
    parser.add_argument("report", type=Path)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/truth_view.pkl"))
    args = parser.parse_args()
    sample = pd.read_csv(args.sample, keep_default_na=False).iloc[args.start:args.start + args.count]
    if args.cache.exists():
        target, upstream, rep = pickle.loads(args.cache.read_bytes())
    else:
        tw, uw = tc.wheel_paths(check=False)
        target, upstream = tc.read_wheel(tw), tc.read_wheel(uw)
        rep = pd.read_csv(args.report / "lines.csv", keep_default_na=False)
        args.cache.write_bytes(pickle.dumps((target, upstream, rep)))
    where = tc.line_index(upstream)
    rep = rep.set_index(["target_path", "line"])
    seen_head: set[str] = set()
    for k, row in enumerate(sample.itertuples(), args.start):
        t = target[row.target_path]
        r = rep.loc[(row.target_path, row.line)]
        print(f"\n=== [{k}] {row.target_path}:{row.line}  stratum={row.stratum}  kind={r['kind']}  "
              f"lineage={r['match']} {r['upstream_path']}:{r['upstream_line']} sim={r['similarity']}")
        if row.target_path not in seen_head:
            seen_head.add(row.target_path)
            head = [f"   h{n:3d} {x[:140]}" for n, x in enumerate(t[:HEAD], 1) if x.strip()]
            print("\n".join(head))
        print(show(t, row.line))
        text = t[row.line - 1].strip()
        places = where.get(text, [])
        claimed = (r["upstream_path"], int(r["upstream_line"])) if r["match"] != "none" else None
        scored = sorted(((order_score(t, row.line, upstream[p], j), p, j) for p, j in places),
                        key=lambda x: (-x[0], x[1], x[2]))
        print(f"  -- text in {len(places)} vLLM places; best: "
              + "; ".join(f"{p}:{j} (order {s})" for s, p, j in scored[:5]))
        shown = []
        if claimed:
            shown.append(claimed)
        if scored and scored[0][0] >= 2 and not (
                claimed and scored[0][1] == claimed[0] and abs(scored[0][2] - claimed[1]) <= 3):
            shown.append((scored[0][1], scored[0][2]))
        for p, j in shown:
            u = upstream[p]
            flags = ("THIRD-PARTY " if tc.is_third_party(p, u) else "") + (
                "FROM-SGLANG " if tc.is_from_sglang(u) else "")
            tag = "claimed" if (p, j) == claimed else "best"
            print(f"  -- {tag} {flags}{p}:{j} order {order_score(t, row.line, u, j)}; {blocks(t, u)}")
            print(show(u, j, mark="<<"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
