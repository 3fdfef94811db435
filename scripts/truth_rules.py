"""Which matcher rule labelled each truth-set line lineage calls copied, and how often it is right.

    .venv/bin/python scripts/truth_rules.py [--truth corpora/sglang-vllm-truth.csv] [--corpus corpora/sglang-vllm.json]

Matches the pinned sglang/vLLM pair once, in this process, with the index cache of the usual cache
folder (linked into a temporary folder) and no match, table or result cache, and records for every
target line the last matcher function that paired it (:meth:`lineage.match.labels.FileLabeller.set_pair`,
with the two functions that called it: ``_edited_lines<align_inside<_fill_pair`` is the fill's
edited-line rule, ``pair<_label<label`` a region's line, ``align_gap<_label<label`` a line of a
region's gap aligned by characters). Then, over the truth set's code lines that the comparison
labels copied (verbatim or near), prints per rule how many the truth set also calls copied (TP)
and how many it calls none (FP). A diagnostic for precision work (issue 8): a rule whose lines are
mostly false copies on the truth set is the one to look at. The labels are those of the main job
with the default parameters. About 30 s with a warm index cache.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from truth_score import COPIED, TRUTH, read_truth  # noqa: E402

import lineage.match.labels as labels  # noqa: E402
from lineage.api import compare  # noqa: E402
from lineage.index.records import INDEX_VERSION  # noqa: E402
from lineage.settings import RunSettings, default_cache_dir  # noqa: E402
from lineage.sources.corpus import corpus_specs  # noqa: E402


@contextlib.contextmanager
def recording_rules() -> Iterator[dict[tuple[str, int], str]]:
    """While open, each pairing records its caller chain: the dict yielded maps (target path,
    1-based line) to "function<caller<caller's caller" of the line's last pairing. The matcher's
    own ``FileLabeller.set_pair`` is put back on exit."""
    record: dict[tuple[str, int], str] = {}
    original = labels.FileLabeller.set_pair

    def set_pair(self, tc, u_file, u_row, label, sim, number):  # type: ignore[no-untyped-def]
        frame, names = sys._getframe(1), []
        while frame is not None and len(names) < 3:
            names.append(frame.f_code.co_name)
            frame = frame.f_back
        record[(self.target.files[self.t_file].path, int(self.t_rows[tc]) + 1)] = "<".join(names)
        return original(self, tc, u_file, u_row, label, sim, number)

    labels.FileLabeller.set_pair = set_pair  # type: ignore[method-assign]
    try:
        yield record
    finally:
        labels.FileLabeller.set_pair = original  # type: ignore[method-assign]


def rule_table(truth: pd.DataFrame, lines: pd.DataFrame, record: dict[tuple[str, int], str]) -> pd.DataFrame:
    """Per rule, the truth set's code lines labelled copied in ``lines`` that the truth calls
    copied (TP) and none (FP), and their precision; most true copies first."""
    joined = truth.merge(lines[["target_path", "line", "kind", "match"]].astype({"line": int}),
                         on=["target_path", "line"], how="inner")
    joined = joined[(joined["kind"] == "code") & joined["match"].isin(COPIED)]
    counts: Counter[tuple[str, str]] = Counter()
    for row in joined.itertuples(index=False):
        rule = record.get((row.target_path, int(row.line)), "(not through set_pair)")
        counts[(rule, "TP" if row.expected in COPIED else "FP")] += 1
    table = pd.DataFrame([{"rule": rule, "cls": cls, "n": n} for (rule, cls), n in counts.items()],
                         columns=["rule", "cls", "n"])
    table = table.pivot_table(index="rule", columns="cls", values="n", fill_value=0, aggfunc="sum")
    for column in ("TP", "FP"):
        if column not in table:
            table[column] = 0
    table = table[["TP", "FP"]].sort_values(["TP", "FP"], ascending=False)
    table["P"] = table["TP"] / (table["TP"] + table["FP"])
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--truth", default=str(TRUTH))
    parser.add_argument("--corpus", default=str(ROOT / "corpora" / "sglang-vllm.json"))
    args = parser.parse_args(argv)
    truth = read_truth(Path(args.truth))
    target, upstreams = corpus_specs(args.corpus)
    cache = default_cache_dir()
    with tempfile.TemporaryDirectory(prefix="truth-rules-") as tmp, recording_rules() as record:
        # The index and the downloads of the usual cache, nothing else: every file is matched here.
        for name in (f"index-v{INDEX_VERSION}", "downloads"):
            if (cache / name).is_dir():
                (Path(tmp) / name).symlink_to(cache / name)
        comparison = compare(target, upstreams, settings=RunSettings(cache_dir=Path(tmp), jobs=1))
    table = rule_table(truth, comparison.lines, record)
    print("| rule (function<caller<caller) | TP | FP | P |\n|---|---:|---:|---:|")
    for rule, row in table.iterrows():
        print(f"| `{rule}` | {int(row['TP'])} | {int(row['FP'])} | {row['P']:.3f} |")
    print(f"| all | {int(table['TP'].sum())} | {int(table['FP'].sum())} | "
          f"{table['TP'].sum() / max(1, table['TP'].sum() + table['FP'].sum()):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
