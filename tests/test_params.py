"""Tests for lineage.match.params: every threshold validated, settable with --set."""

from __future__ import annotations

import dataclasses

import pytest

from lineage.errors import LineageError
from lineage.knobs import range_of
from lineage.match.params import MatchParams, params_from_settings


def test_every_field_has_a_range_and_valid_defaults() -> None:
    defaults = MatchParams()
    for f in dataclasses.fields(MatchParams):
        low, high = range_of(f)  # raises for a field not declared with knob()
        value = getattr(defaults, f.name)
        assert low is None or value >= low, f.name
        assert high is None or value <= high, f.name


@pytest.mark.parametrize("field, value", [
    ("seed_max_count", -1), ("region_min_weight", -0.5), ("near_min_similarity", 1.5),
    ("region_min_weight", float("nan")), ("seed_max_count", 2.5), ("max_open_chains", 0),
    ("rewrap_max_lines", 1), ("seed_max_count", "7"), ("abstract_weight", True),
    # beyond int32 (numpy's OverflowError on the int32 token counts, regions' C long), and a
    # signature length that would hash a shape per count
    ("token_weight_cap", 2**31), ("chain_max_gap", 2**62), ("generic_signature_max_params", 2**31 - 1),
])
def test_bad_values_are_refused_with_one_clear_message(field: str, value: object) -> None:
    with pytest.raises(LineageError, match=field):
        MatchParams(**{field: value})  # type: ignore[arg-type]


def test_an_int_given_for_a_float_is_taken_as_float() -> None:
    p = MatchParams(region_min_weight=40)  # type: ignore[arg-type]
    assert p.region_min_weight == 40.0 and isinstance(p.region_min_weight, float)


def test_set_parses_and_validates() -> None:
    p = params_from_settings(["region_min_weight=40", " seed_max_count = 7"])
    assert (p.region_min_weight, p.seed_max_count) == (40.0, 7)
    assert p.weak_region_min_weight == 20.0
    for bad in ("nope=1", "region_min_weight", "seed_max_count=x", "seed_max_count=-3", "gap_min_aligned=2",
                "token_weight_cap=2147483648", "chain_max_gap=4611686018427387904"):
        with pytest.raises(LineageError, match="--set"):
            params_from_settings([bad])


def test_similarity_is_one_only_for_verbatim_and_never_below_the_floor() -> None:
    from lineage.match.labels import pair_label, similarity
    from lineage.match.records import NEAR, VERBATIM

    p = MatchParams()
    assert similarity("x = 1", "x = 1") == 1.0
    assert similarity("a  =  b", "a = b") == 0.999  # differs only in inner whitespace
    assert pair_label("x = 1", "x = 1", p) == (VERBATIM, 1.0)
    label, sim = pair_label("hidden_states,", "out = self.experts(hidden_states, logits)", p)  # type: ignore[misc]
    assert label == NEAR and sim < 1.0


def test_licence_header_lines_are_recognised() -> None:
    import numpy as np

    from lineage.index import CODE, COMMENT
    from lineage.match.headers import header_rows

    lines = ["# Copyright 2023-2024 SGLang Team", "#", "# Licensed under the Apache License, Version 2.0",
             "# Adapted from vllm", "x = 1"]
    kinds = np.array([COMMENT, COMMENT, COMMENT, COMMENT, CODE], np.uint8)
    assert header_rows(lines, kinds).tolist() == [True, True, True, False, False]


def test_generic_signatures_do_not_seed() -> None:
    from lineage.index.normalise import abstract_code, stable_hash
    from lineage.match.hits import generic_signatures

    shapes = set(generic_signatures(MatchParams().generic_signature_max_params).tolist())
    assert stable_hash(abstract_code("def keys(self):")) in shapes
    assert stable_hash(abstract_code("def __radd__(self, other):")) in shapes
    assert stable_hash(abstract_code("def f(self, a, b=1):")) not in shapes
