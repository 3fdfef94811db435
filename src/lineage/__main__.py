"""`python -m lineage`: the same command line as the `lineage` script."""

from lineage.cli import run

run()
