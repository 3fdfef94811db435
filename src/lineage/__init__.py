"""lineage: measure how much of a Python codebase is derived from an upstream release."""

__version__ = "0.1.0"
