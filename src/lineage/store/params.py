"""Every threshold of the fingerprint store and its scan, each with its reason, validated once.

The lines a release contributes are chosen by the matcher's own seed rules, read from
:class:`~lineage.match.params.MatchParams` (:data:`SEED_RULES`); what is set here is only what the
store adds: how it is partitioned and when a release has enough distinctive evidence to rank.
Both sets reach ``store.json`` and every scan's ``scan.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from lineage.knobs import assign, check_fields, knob
from lineage.match.params import MatchParams

# The MatchParams fields that decide which lines of a release are fingerprints (hits.py rules).
SEED_RULES = ("seed_min_tokens", "seed_max_count", "seed_max_per_file", "generic_signature_max_params")

# Fields fixed when a store is created: its files were written under them.
BUILD_FIELDS = ("prefix_bits",)


@dataclass(frozen=True)
class StoreParams:
    """The store's own knobs; all of them are written to store.json and scan.json."""

    # Fingerprints are split into 2**prefix_bits partitions by their leading bits, so a lookup
    # (or a Dask worker) reads one partition at a time; 16 keeps a small store to few files.
    prefix_bits: int = knob(4, 0, 12)
    # A fingerprint held by more projects than this is an idiom of the language or of a
    # framework (``logger = logging.getLogger(__name__)``), not evidence of one upstream. Projects,
    # not releases: the versions of one project are one holder (50 stored Django versions must
    # not make Django's own lines idioms).
    common_max_projects: int = knob(32, 1)
    # A release ranks only with at least this many distinct shared fingerprints and this score
    # (each fingerprint weighs 1 / the number of projects holding it): a few shared idioms never
    # nominate an upstream, as one line is never a region of the matcher.
    rank_min_lines: int = knob(8, 1)
    rank_min_score: float = knob(4.0, 0.0)
    # projects compared line by line after the scan (``--top``), each at its best-ranked release:
    # another version of a project already chosen is an alternative, not another upstream
    top: int = knob(3, 0)

    def __post_init__(self) -> None:
        check_fields(self, "store parameter")

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)

    def build_dict(self) -> dict[str, float | int]:
        return {k: v for k, v in self.to_dict().items() if k in BUILD_FIELDS}


def seed_rules(match: MatchParams) -> dict[str, int]:
    """The matcher parameters the fingerprints were chosen under (recorded with the store)."""
    return {k: int(getattr(match, k)) for k in SEED_RULES}


def store_params_from_settings(assignments: Sequence[str], base: StoreParams | None = None) -> StoreParams:
    """``--store-set KEY=VALUE`` items applied to ``base``; LineageError on a bad item."""
    return assign(base or StoreParams(), assignments, "--store-set")
