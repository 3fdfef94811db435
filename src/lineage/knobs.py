"""What every frozen parameter object of lineage shares (MatchParams, StoreParams, DriftParams):
each field declared with :func:`knob` (its default and valid range side by side), checked against
its type and range once, and ``--set KEY=VALUE`` items applied to it.

A field's type is its default's; an ``int`` given for a ``float`` field is taken as that float;
``str`` fields have no range; an ``int`` field declared without an upper bound has
:data:`INT_MAX`.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Sequence
from typing import Any, TypeVar

from lineage.errors import LineageError

Knobs = TypeVar("Knobs")
_RANGE = "lineage.range"  # the field metadata key of a knob's (low, high)
# The matcher keeps line numbers, token counts and gaps in int32 arrays, which a larger count
# overflows (an OverflowError deep in numpy, or a wrapped figure); no tree comes near it, so
# this bound takes nothing a run could need.
INT_MAX = 2**31 - 1


def knob(default: Any, low: float | None = None, high: float | None = None) -> Any:
    """A parameter field: its default, valid from ``low`` to ``high`` inclusive (None: unbounded,
    but :data:`INT_MAX` for an ``int`` field)."""
    if high is None and type(default) is int:
        high = INT_MAX
    return dataclasses.field(default=default, metadata={_RANGE: (low, high)})


def range_of(f: dataclasses.Field[Any]) -> tuple[float | None, float | None]:
    """The (low, high) a field was declared with; a field not made by :func:`knob` is a bug."""
    if _RANGE not in f.metadata:
        raise TypeError(f"parameter field {f.name} is not declared with lineage.knobs.knob(default, low, high)")
    return f.metadata[_RANGE]  # type: ignore[no-any-return]


def _range_text(low: float | None, high: float | None) -> str:
    return f"[{low}, ...)" if high is None else f"[{low}, {high}]"


def check_fields(obj: Any, what: str) -> None:
    """Raise LineageError naming ``what`` ("matcher parameter") when a field has the wrong type,
    is not finite, or lies outside its range; coerce ints given for floats (call from
    ``__post_init__`` of a frozen dataclass)."""
    for f in dataclasses.fields(obj):
        low, high = range_of(f)
        value = getattr(obj, f.name)
        want = type(f.default)
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            object.__setattr__(obj, f.name, float(value))
            value = float(value)
        if type(value) is not want:
            raise LineageError(f"{what} {f.name} must be {want.__name__}, not {type(value).__name__} ({value!r})")
        if want is str:
            continue
        if want is float and not math.isfinite(value):
            raise LineageError(f"{what} {f.name} must be a finite number, not {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise LineageError(f"{what} {f.name} must be in {_range_text(low, high)}, not {value!r}")


def keys_of(cls: type) -> list[str]:
    """Every field name, sorted (for help texts and errors)."""
    return sorted(f.name for f in dataclasses.fields(cls))


def describe(cls: type) -> list[tuple[str, str, Any, str]]:
    """Every field as (name, type, default, valid range), sorted by name (``lineage params``)."""
    rows = []
    for f in sorted(dataclasses.fields(cls), key=lambda f: f.name):
        kind = type(f.default)
        rows.append((f.name, kind.__name__, f.default, "" if kind is str else _range_text(*range_of(f))))
    return rows


# Which command lists the keys of each option (the lists are too long for --help).
LISTED_BY = {"--set": "lineage params", "--drift-set": "lineage params --of drift",
             "--store-set": "lineage params --of store"}


def assign(base: Knobs, items: Sequence[str], option: str = "--set") -> Knobs:
    """``KEY=VALUE`` items applied to ``base``; LineageError (naming ``option``) on a bad item."""
    listed = f"`{LISTED_BY[option]}` lists the keys" if option in LISTED_BY else "see --help"
    kinds = {f.name: type(f.default) for f in dataclasses.fields(base)}  # type: ignore[arg-type]
    values: dict[str, object] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep:
            raise LineageError(f"{option} takes KEY=VALUE, not {item!r} ({listed})")
        if key not in kinds:
            # the key asked for, and the nearest ones: the whole list is `lineage params`'s
            close = difflib.get_close_matches(key, kinds, n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            raise LineageError(f"{option}: no setting {key!r}{hint} ({listed})")
        try:
            values[key] = kinds[key](raw.strip())
        except ValueError:  # str() never raises
            kind = "an integer" if kinds[key] is int else "a number"
            raise LineageError(f"{option} {key}: {raw!r} is not {kind}") from None
    try:
        return dataclasses.replace(base, **values)  # type: ignore[type-var]
    except LineageError as exc:
        raise LineageError(f"{option}: {exc}") from None
