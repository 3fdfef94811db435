"""Old home of the line forms, now :mod:`lineage.index.normalise`."""

# shim: remove when no caller is left
from lineage.index.normalise import *  # noqa: F403
