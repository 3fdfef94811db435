"""Execute a notebook in place and save it with its outputs (for notebooks/main-job.ipynb).

    .venv/bin/python scripts/run_notebook.py notebooks/main-job.ipynb

Runs in the notebook's own folder with the venv's kernel (the ``notebooks`` extra); a failing cell
stops with its error and the file is left as it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbclient
import nbformat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per cell (default 1800)")
    args = parser.parse_args()
    nb = nbformat.read(args.notebook, as_version=4)
    try:
        nbclient.NotebookClient(nb, timeout=args.timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(args.notebook.resolve().parent)}}).execute()
    except nbclient.exceptions.CellExecutionError as exc:
        print(f"run_notebook: {args.notebook}: a cell failed; not saved\n{exc}", file=sys.stderr)
        return 1
    nbformat.write(nb, args.notebook)
    print(f"run_notebook: executed and saved {args.notebook}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
