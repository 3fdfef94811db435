"""The thresholds of ``lineage drift`` (:class:`DriftParams`), each with its reason, validated once.

Built like :class:`lineage.match.MatchParams` (:mod:`lineage.knobs`): every field a knob with its
range, all of them in drift.json (``drift_parameters``), each settable with ``--drift-set
KEY=VALUE``. Kept apart from the matcher's parameters because they decide a drift status, not
a copied line: the matcher's own are in drift.json too (``parameters``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from lineage.errors import LineageError
from lineage.knobs import assign, check_fields, keys_of, knob


@dataclass(frozen=True)
class DriftParams:
    """The thresholds that turn line counts into a status; all of them reach drift.json and can be
    set with ``--drift-set KEY=VALUE`` (validated by :mod:`lineage.knobs`, like MatchParams)."""

    # A commit is applied when at least this share of its added lines are present in the
    # counterparts and of its removed lines absent (each on its own: a fix that only deletes
    # lines must have deleted them).
    applied_min_share: float = knob(0.9, 0.0, 1.0)
    # ...and missing when at most this share of all its changed lines are (a few of its lines
    # may be present by coincidence, or by the fork's own edits).
    missing_max_share: float = knob(0.1, 0.0, 1.0)
    # Several target files pair with one upstream file: the change is judged against the one
    # holding most of the file's lines, joined by each other one holding at least this share of
    # them that those do not (a file the fork split in two; not an alias module, nor a file that
    # copied a little of it).
    split_min_share: float = knob(0.2, 0.0, 1.0)
    # A file change made only of texts the file holds both before and after (no telling line) is
    # counted on them; of those, a text of fewer tokens than this (`try :`, `finally :`, `)`) is
    # left out when a longer one changed: a fork's count of a keyword line moves with its own code
    # (discord.py 9c109ae59b wraps a line in `try:`/`finally:` and adds `await
    # maybe_coroutine(self.cog_unload)`; disnake's cog.py, holding none of it, holds one `try:`
    # more than the parent, and the commit read partial). 1: every text counts.
    fallback_min_tokens: int = knob(3, 1, 50)

    def __post_init__(self) -> None:
        check_fields(self, "drift parameter")
        if self.missing_max_share >= self.applied_min_share:
            raise LineageError("drift parameter missing_max_share must be below applied_min_share")

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


def drift_param_keys() -> list[str]:
    """Every drift parameter name, for ``--drift-set`` help and errors."""
    return keys_of(DriftParams)


def drift_params_from_settings(assignments: Sequence[str], base: DriftParams | None = None) -> DriftParams:
    """``--drift-set KEY=VALUE`` items applied to ``base`` (defaults); LineageError on a bad item."""
    return assign(base or DriftParams(), assignments, "--drift-set")
