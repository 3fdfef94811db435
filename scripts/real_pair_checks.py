"""The checks of issue 8's "done when" on the real pair, from the report and both wheels.

    .venv/bin/python scripts/real_pair_checks.py out/sglang-vllm

Each check uses rules written here (in `truth_common.py`: vendored folders, files that say they came
from sglang, licence lines, target files naming vLLM), never lineage's own origin or marker code, so
that it tests the report rather than restating it. Prints one row per check with the count that
must be 0 (or the files concerned); exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import truth_common as tc  # noqa: E402

# Projects whose names contain "vllm" but are not vLLM (issue 8: their markers must not count).
OTHER_PROJECTS = re.compile(r"vllm-ascend|vllm-metal|nano-vllm-uno|vllm-omni|deepseek-ocr-vllm", re.I)
# A header line naming vLLM's authors as a copyright holder.
VLLM_COPYRIGHT = re.compile(r"(copyright|spdx-filecopyrighttext).*(the vllm team|contributors to the vllm project)",
                            re.I)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report", type=Path)
    report = ap.parse_args().report
    read = {"keep_default_na": False, "dtype": str}
    lines = pd.read_csv(report / "lines.csv", **read)
    files = pd.read_csv(report / "files.csv", **read).set_index("target_path")
    summary = json.loads((report / "summary.json").read_text())
    target_whl, upstream_whl = tc.wheel_paths()
    target, upstream = tc.read_wheel(target_whl), tc.read_wheel(upstream_whl)

    copied = lines[lines["match"] != "none"]
    marked = set(files.index[files["marker"] != ""])
    unmarked_copies = copied[~copied["target_path"].isin(marked)]
    names_vllm = {p for p in set(copied["target_path"]) if tc.names_vllm(target.get(p, []))}
    rows: list[tuple[str, int, str]] = []

    vendored = unmarked_copies[unmarked_copies["upstream_path"].map(
        lambda p: any(d in f"/{p}" for d in tc.VENDORED_DIRS))]
    vendored = vendored[~vendored["target_path"].isin(names_vllm)]
    rows.append(("copied lines of files not naming vLLM pointing into a vendored vLLM folder", len(vendored),
                 ", ".join(sorted(set(vendored["target_path"]))[:5])))

    from_sglang = {p for p, text in upstream.items() if tc.is_from_sglang(text)}
    reverse = unmarked_copies[unmarked_copies["upstream_path"].isin(from_sglang)]
    rows.append((f"copied lines of unmarked files pointing into the {len(from_sglang)} from-sglang vLLM files",
                 len(reverse), ", ".join(sorted(set(reverse["target_path"]))[:5])))

    code_pairs = set(zip(copied.loc[copied["kind"] == "code", "target_path"],
                         copied.loc[copied["kind"] == "code", "upstream_path"], strict=True))
    text = [target.get(p, [""])[int(n) - 1] if int(n) <= len(target.get(p, [])) else ""
            for p, n in zip(copied["target_path"], copied["line"], strict=True)]
    licence = copied[[tc.is_licence_line(t) for t in text]]
    alone = licence[[(p, u) not in code_pairs for p, u in zip(licence["target_path"], licence["upstream_path"],
                                                               strict=True)]]
    rows.append(("licence/copyright lines copied without copied code of the same upstream file", len(alone),
                 ", ".join(sorted(set(alone["target_path"]))[:5])))

    with_code = set(copied.loc[copied["kind"] == "code", "target_path"])
    for key in ("marked_with_copied", "unmarked_with_copied"):
        empty = [p for p in summary["lists"][key] if p not in with_code]
        rows.append((f"files in lists.{key} ({len(summary['lists'][key])}) without a copied code line",
                     len(empty), ", ".join(empty[:5])))

    other = sorted(p for p, t in target.items() if any(OTHER_PROJECTS.search(x) for x in t if x.strip().startswith("#"))
                   and not tc.names_vllm(t))
    wrongly = [p for p in other if p in marked]
    rows.append((f"files naming only another *vllm* project ({len(other)}) counted as marked", len(wrongly),
                 ", ".join(wrongly[:5])))

    owned = sorted(p for p, t in target.items() if any(VLLM_COPYRIGHT.search(x) for x in t[:40]))
    missed = [p for p in owned if p not in marked]
    rows.append((f"files with a vLLM copyright line ({len(owned)}) not counted as marked", len(missed),
                 ", ".join(missed[:5])))

    near = lines[lines["match"] == "near"]
    sim = near["similarity"].astype(float)
    rows.append(("near rows with similarity 1.0", int((sim >= 1.0).sum()), ""))
    # the floor the run states (its manifest's near_floor_similarity): no near pair below it
    floor = float(json.loads((report / "manifest.json").read_text())["parameters"]["near_floor_similarity"])
    under = near[sim < floor]
    rows.append((f"near rows with similarity under the stated floor ({floor})", len(under),
                 ", ".join(f"{p}:{n}" for p, n in zip(under["target_path"][:3], under["line"][:3], strict=True))))
    verbatim = lines[lines["match"] == "verbatim"]
    wrong = sum(target[p][int(n) - 1].strip() != upstream[u][int(m) - 1].strip()
                for p, n, u, m in zip(verbatim["target_path"], verbatim["line"], verbatim["upstream_path"],
                                      verbatim["upstream_line"], strict=True))
    rows.append((f"verbatim lines ({len(verbatim)}) whose text differs from the vLLM line they name", wrong, ""))

    width = max(len(r[0]) for r in rows)
    for name, count, example in rows:
        print(f"{name:<{width}}  {count:>6}  {example}")
    return 1 if any(count for _, count, _ in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
