"""`python -m lineage`: the same command line as the `lineage` script."""

import sys

from lineage.cli import main

sys.exit(main())
