"""Every threshold of the fingerprint store and its scan, each with its reason, validated once.

The lines a release contributes are chosen by the matcher's own seed rules, read from
:class:`~lineage.match.params.MatchParams` (:data:`SEED_RULES`); what is set here is only what the
store adds: how it is partitioned and when a release has enough distinctive evidence to rank.
Both sets reach ``store.json`` and every scan's ``scan.json``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from lineage.errors import LineageError
from lineage.match.params import MatchParams

# The MatchParams fields that decide which lines of a release are fingerprints (hits.py rules).
SEED_RULES = ("seed_min_tokens", "seed_max_count", "seed_max_per_file", "generic_signature_max_params")

# Fields fixed when a store is created: its files were written under them.
BUILD_FIELDS = ("prefix_bits",)

_RANGES: dict[str, tuple[float, float | None]] = {
    "prefix_bits": (0, 12),
    "common_max_releases": (1, None),
    "rank_min_lines": (1, None),
    "rank_min_score": (0.0, None),
    "top": (0, None),
}


@dataclass(frozen=True)
class StoreParams:
    """The store's own knobs; all of them are written to store.json and scan.json."""

    # Fingerprints are split into 2**prefix_bits partitions by their leading bits, so a lookup
    # (or a Dask worker) reads one partition at a time; 16 keeps a small store to few files.
    prefix_bits: int = 4
    # A fingerprint held by more releases than this is an idiom of the language or of a
    # framework (``logger = logging.getLogger(__name__)``), not evidence of one upstream.
    common_max_releases: int = 32
    # A release ranks only with at least this many distinct shared fingerprints and this score
    # (each fingerprint weighs 1 / the number of releases holding it): a few shared idioms never
    # nominate an upstream, as one line is never a region of the matcher.
    rank_min_lines: int = 8
    rank_min_score: float = 4.0
    top: int = 3  # candidates compared line by line after the scan (``--top``)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            want = type(f.default)
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, f.name, float(value))
                value = float(value)
            if type(value) is not want:
                raise LineageError(f"store parameter {f.name} must be {want.__name__}, not {value!r}")
            if want is float and not math.isfinite(value):
                raise LineageError(f"store parameter {f.name} must be a finite number, not {value!r}")
            low, high = _RANGES[f.name]
            if value < low or (high is not None and value > high):
                limit = f"[{low}, {high}]" if high is not None else f"[{low}, ...)"
                raise LineageError(f"store parameter {f.name} must be in {limit}, not {value!r}")

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)

    def build_dict(self) -> dict[str, float | int]:
        return {k: v for k, v in self.to_dict().items() if k in BUILD_FIELDS}


def seed_rules(match: MatchParams) -> dict[str, int]:
    """The matcher parameters the fingerprints were chosen under (recorded with the store)."""
    return {k: int(getattr(match, k)) for k in SEED_RULES}


def store_params_from_settings(assignments: Sequence[str], base: StoreParams | None = None) -> StoreParams:
    """``--store-set KEY=VALUE`` items applied to ``base``; LineageError on a bad item."""
    base = base or StoreParams()
    kinds = {f.name: type(f.default) for f in dataclasses.fields(StoreParams)}
    values: dict[str, object] = {}
    for item in assignments:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or key not in kinds:
            raise LineageError(f"--store-set takes KEY=VALUE with KEY one of: {', '.join(sorted(kinds))}")
        try:
            values[key] = kinds[key](raw.strip())
        except ValueError:
            raise LineageError(f"--store-set {key}: {raw!r} is not a number") from None
    return dataclasses.replace(base, **values)  # type: ignore[arg-type]
