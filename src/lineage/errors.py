"""Errors that the CLI turns into one clear line and exit status 2."""


class LineageError(Exception):
    """A user-facing error: bad input, a missing path, an unknown ref."""


class SourceError(LineageError):
    """A source (directory, archive, git ref, PyPI release) cannot be read."""


class WorkerError(LineageError):
    """A worker process ended without answering (killed by the system, out of memory, a crash
    in compiled code): the run stops with one line instead of waiting for it forever."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"a worker process ({what}) ended abruptly (killed, or out of memory?); "
                         "rerun with --jobs 1, or with more memory")

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return (WorkerError, (self.what,))  # pickled (a worker's error): the same message, not nested
