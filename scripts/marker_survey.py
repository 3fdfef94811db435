"""Every marker of some kinds in the Python files of unpacked trees: a rule's reach, read by eye.

    .venv/bin/python scripts/marker_survey.py DIR... [--kind licence_pointer --kind copyright]

Prints ``path line kind project | text`` per marker found by ``lineage.markers.find_markers``
(without the index's kinds: the reader's own comment/docstring scan), then the count. Trees are
folders such as an unpacked wheel (``unzip -q x.whl -d DIR``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lineage.markers import find_markers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--kind", action="append", help="a marker kind (repeatable); default: every kind")
    args = parser.parse_args()
    count = 0
    for root in args.dirs:
        for path in sorted(root.rglob("*.py")):
            lines = path.read_bytes().decode("utf-8", "replace").split("\n")
            for m in find_markers(lines):
                if args.kind and m.kind not in args.kind:
                    continue
                count += 1
                print(f"{path.relative_to(root)} {m.line} {m.kind} {m.project} | {m.text[:100]}")
    print(f"{count} markers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
