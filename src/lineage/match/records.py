"""What the matcher returns: per-line labels of each target file and its copied regions.

Kept apart from the stages so that the cache (:mod:`lineage.match.store`) and the tables
(:mod:`lineage.results`) read the records without importing the matching code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

NONE, NEAR, VERBATIM = 0, 1, 2
MATCH_NAMES = ("none", "near", "verbatim")


@dataclass
class FileMatch:
    """Per physical line of one target file: label, source and similarity."""

    match: np.ndarray  # uint8: NONE / NEAR / VERBATIM
    up_file: np.ndarray  # int32: upstream file number, -1 when none
    up_row: np.ndarray  # int32: upstream physical row (0-based), -1 when none
    similarity: np.ndarray  # float32
    region: np.ndarray  # int32: region number within this file, -1 when none


@dataclass(frozen=True)
class Region:
    """A copied region as finally labelled: 1-based inclusive spans on both sides."""

    target_file: int
    region: int
    up_file: int
    target_start: int
    target_end: int
    upstream_start: int
    upstream_end: int
    verbatim: int
    near: int
    weight: float


@dataclass
class MatchResult:
    files: list[FileMatch]
    regions: list[Region]
    # Per target file: its vote for a folder rename (lineage.match.renames.best_upstream_files:
    # the path of the upstream file its runs weigh most with; None when it has no run).
    votes: list[str | None] = field(default_factory=list)


@dataclass(frozen=True)
class MatchEntry:
    """What matching one target file yields, as the per-file caches keep it (the match cache,
    :mod:`lineage.match.store`, and ``history``'s memo): its labels and regions, its vote for a
    folder rename (see :attr:`MatchResult.votes`; it depends on the file alone, never on the
    renames) and the renamed upstream paths it was matched with
    (:func:`lineage.match.renames.renamed_upstream_paths`). The labels hold for a run only while
    that run's renames give the file the same renamed paths; the vote always holds."""

    match: FileMatch
    regions: list[Region]
    vote: str | None
    renamed: tuple[str, ...]


def empty_match(n: int) -> FileMatch:
    return FileMatch(
        match=np.zeros(n, np.uint8),
        up_file=np.full(n, -1, np.int32),
        up_row=np.full(n, -1, np.int32),
        similarity=np.zeros(n, np.float32),
        region=np.full(n, -1, np.int32),
    )
