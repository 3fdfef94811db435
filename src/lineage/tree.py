"""Old home of :func:`index_tree` and :class:`TreeIndex`, now in :mod:`lineage.index.tree`."""

# shim: remove when no caller is left
from lineage.index.tree import TreeIndex, index_tree  # noqa: F401
from lineage.settings import default_jobs  # noqa: F401
