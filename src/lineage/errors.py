"""Errors that the CLI turns into one clear line and exit status 2."""


class LineageError(Exception):
    """A user-facing error: bad input, a missing path, an unknown ref."""


class SourceError(LineageError):
    """A source (directory, archive, git ref, PyPI release) cannot be read."""
