"""A "based on" in a docstring's parameter description says what the argument is, not where code
came from: diffusers 0.31.0's pipelines describe ``bert ([`LDMBertModel`]):`` as "Text-encoder
model based on [`~transformers.BERT`]", which marked four files as transformers' code, three of
them holding none. Written for the test; no package's own text."""

from __future__ import annotations

import pytest

from lineage.markers import find_markers

GOOGLE = ['class Pipe:', '    """A pipeline.', '', '    Args:', '        encoder ([`TextModel`]):',
          '            Text encoder based on [`~upcore.Bert`], frozen.', '        scale (float):',
          '            Guidance scale.', '    """']
NUMPY = ['def run(model):', '    """Run.', '', '    Parameters', '    ----------', '    model : Model',
         '        A model based on upcore.models.bert,', '        inspired by upcore.layers.attn.', '    """']


@pytest.mark.parametrize("lines", [GOOGLE, NUMPY], ids=["google", "numpy"])
def test_a_parameter_description_is_no_marker(lines: list[str]) -> None:
    assert find_markers(lines) == []


@pytest.mark.parametrize("lines", [
    # a module docstring's credit, after a heading that is no parameter entry
    ['"""Helpers.', '', 'Note:', '    This code is based on upcore.models.bert.', '"""'],
    # a comment, not a docstring
    ['# Text encoder based on upcore.models.bert', 'x = 1'],
    # a paragraph of its own below the parameters
    GOOGLE[:-1] + ['', '    This code is based on upcore.models.bert.', '    """'],
], ids=["note", "comment", "own-paragraph"])
def test_credits_outside_parameter_descriptions_stay_markers(lines: list[str]) -> None:
    assert [m.kind for m in find_markers(lines)] == ["based_on"]


def test_other_phrases_in_a_parameter_description_stay_markers() -> None:
    lines = GOOGLE[:5] + ['            Adapted from upcore.models.bert.'] + GOOGLE[6:]
    assert [m.kind for m in find_markers(lines)] == ["adapted_from"]
