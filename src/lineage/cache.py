"""Old home of the index cache, now :mod:`lineage.index.store` (the match cache is :mod:`lineage.match.store`)."""

# shim: remove when no caller is left
from lineage.index.store import (  # noqa: F401
    MAGIC,
    IndexCache,
    frame,
    pack,
    source_fingerprint,
    unframe,
    unpack,
    write_atomically,
)
