"""How often two labellings of the same real-pair lines agree on "copied or not".

    .venv/bin/python scripts/truth_agreement.py corpora/sglang-vllm-truth-second.csv [REPORT]

Compares the truth set (`corpora/sglang-vllm-truth.csv`) with another labelling of some of its
lines (same columns, e.g. the blind second labels), over the code lines both hold; with a report
directory, it also splits the rows by whether the report agrees with the truth set, so one sees
whom the second labeller sides with where truth and report disagree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from truth_score import TRUTH, join, read_report, read_truth  # noqa: E402

COPIED = ("verbatim", "near")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="another labelling (truth-set columns)")
    parser.add_argument("report", type=Path, nargs="?", help="a report directory (holding lines.csv)")
    parser.add_argument("--truth", type=Path, default=TRUTH)
    args = parser.parse_args(argv)
    truth, other = read_truth(args.truth), read_truth(args.other)
    both = truth.merge(other[["target_path", "line", "expected"]], on=["target_path", "line"],
                       suffixes=("", "_other"))
    if args.report is not None:
        both = join(both, read_report(args.report, set(both.target_path)))
        both = both[both["kind"] == "code"]
    both = both.assign(truth=both["expected"].isin(COPIED), other=both["expected_other"].isin(COPIED))
    agree = int((both["truth"] == both["other"]).sum())
    print(f"{len(both)} lines in both labellings; they agree on copied-or-not for {agree} "
          f"({agree / max(len(both), 1):.3f})")
    if args.report is not None:
        both = both.assign(report=both["match"].isin(COPIED))
        for name, rows in (("truth and report agree", both[both["truth"] == both["report"]]),
                           ("truth and report disagree", both[both["truth"] != both["report"]])):
            with_truth = int((rows["other"] == rows["truth"]).sum())
            print(f"{name}: {len(rows)} lines; the other labelling sides with the truth set on "
                  f"{with_truth}, with the report on {int((rows['other'] == rows['report']).sum())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
