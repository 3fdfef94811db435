"""Tests for lineage.knobs: the machinery every parameter object (matcher, store, drift) is built on."""

from __future__ import annotations

import dataclasses

import pytest

from lineage.errors import LineageError
from lineage.fork.params import DriftParams
from lineage.knobs import INT_MAX, assign, check_fields, keys_of, knob, range_of
from lineage.match.params import MatchParams
from lineage.store.params import StoreParams


@dataclasses.dataclass(frozen=True)
class _Example:
    count: int = knob(3, 1, 10)
    share: float = knob(0.5, 0.0, 1.0)
    names: str = knob("a,b")

    def __post_init__(self) -> None:
        check_fields(self, "example parameter")


@pytest.mark.parametrize("cls", [MatchParams, StoreParams, DriftParams])
def test_every_parameter_object_declares_each_field_as_a_knob(cls: type) -> None:
    fields = dataclasses.fields(cls)
    ranges = [range_of(f) for f in fields]  # raises for a field declared without knob()
    assert fields and all(isinstance(r, tuple) and len(r) == 2 for r in ranges)
    assert all(low is None or high is None or low <= high for low, high in ranges)
    assert keys_of(cls) == sorted(f.name for f in fields)
    assert set(cls().to_dict()) == {f.name for f in fields}  # all of them reach the manifest


def test_ranges_types_and_coercion() -> None:
    assert range_of(dataclasses.fields(_Example)[0]) == (1, 10)
    assert _Example(share=1).share == 1.0 and isinstance(_Example(share=1).share, float)
    for bad in ({"count": 0}, {"count": 11}, {"count": 2.0}, {"share": float("inf")}, {"share": True},
                {"names": 3}):
        with pytest.raises(LineageError, match="example parameter"):
            _Example(**bad)  # type: ignore[arg-type]


def test_a_field_without_a_knob_is_a_bug() -> None:
    @dataclasses.dataclass(frozen=True)
    class Loose:
        count: int = 3

        def __post_init__(self) -> None:
            check_fields(self, "loose parameter")

    with pytest.raises(TypeError, match="knob"):
        Loose()


def test_assign_parses_and_names_the_option() -> None:
    assert assign(_Example(), ["count=7", " names = x "], "--example-set") == _Example(count=7, names="x")
    for bad in ("count", "nope=1", "count=x", "count=0"):
        with pytest.raises(LineageError, match="--example-set"):
            assign(_Example(), [bad], "--example-set")


def test_an_unknown_key_is_named_with_its_nearest_keys() -> None:
    # the message names the key asked for (the whole list of ~150 keys is `lineage params`'s)
    with pytest.raises(LineageError) as caught:
        assign(MatchParams(), ["weak_pair_minrun=1"])
    message = str(caught.value)
    assert "'weak_pair_minrun'" in message and "did you mean weak_pair_min_run" in message
    assert "seed_max_count" not in message
    with pytest.raises(LineageError, match="no setting 'bogus' \\(`lineage params` lists the keys\\)"):
        assign(MatchParams(), ["bogus=1"])
    with pytest.raises(LineageError, match="takes KEY=VALUE, not 'count'"):
        assign(_Example(), ["count"], "--set")


@pytest.mark.parametrize("cls", [MatchParams, StoreParams, DriftParams])
def test_every_int_knob_is_bounded_within_int32(cls: type) -> None:
    for f in dataclasses.fields(cls):
        if type(f.default) is int:
            high = range_of(f)[1]
            assert high is not None and high <= INT_MAX, f.name


def test_an_int_beyond_int32_is_refused_not_left_to_numpy() -> None:
    @dataclasses.dataclass(frozen=True)
    class Open:
        count: int = knob(3, 0)

        def __post_init__(self) -> None:
            check_fields(self, "open parameter")

    assert range_of(dataclasses.fields(Open)[0]) == (0, INT_MAX)
    assert assign(Open(), [f"count={INT_MAX}"]).count == INT_MAX
    with pytest.raises(LineageError, match=f"--set: open parameter count must be in \\[0, {INT_MAX}\\]"):
        assign(Open(), [f"count={INT_MAX + 1}"])
