"""What a comparison concludes: its tables (:mod:`~lineage.results.tables`), the figures drawn
from them (:mod:`~lineage.results.figures`) and the :class:`Comparison` holding both
(:mod:`~lineage.results.comparison`). Below the reporters: nothing here imports
:mod:`lineage.report` or :mod:`lineage.api`."""

from lineage.results.comparison import Comparison
from lineage.results.figures import Numbers, numbers_of, percent
from lineage.results.tables import FILE_COLUMNS, LINE_COLUMNS

__all__ = ["FILE_COLUMNS", "LINE_COLUMNS", "Comparison", "Numbers", "numbers_of", "percent"]
