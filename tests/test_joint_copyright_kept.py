"""A joint upstream copyright line ("Mistral AI and the HuggingFace Inc. team") is kept only when
each of its parties is: peft 0.13.2 against transformers 4.46.3, with invented names."""

from __future__ import annotations

from lineage.licences.notices import keeps_holders

_TARGET = ["Copyright 2031-present the Quillwort Inc. team."]


def test_one_party_of_a_joint_line_does_not_keep_the_others() -> None:
    # peft's adaption_prompt/layer.py ("the HuggingFace Inc. team") against transformers' mistral
    # ("Mistral AI and the HuggingFace Inc. team"): Mistral AI's copyright read as kept
    assert not keeps_holders(["Copyright 2032 Sedge AI and the Quillwort Inc. team. All rights reserved."], _TARGET)
    assert not keeps_holders(["Copyright 2030 The Lichen Language Team Authors, Moss Research authors and"
                              " The Quillwort Inc. team."], _TARGET)


def test_a_joint_line_is_kept_whole_or_party_by_party() -> None:
    joint = ["Copyright 2032 Sedge AI and the Quillwort Inc. team. All rights reserved."]
    assert keeps_holders(joint, joint)
    assert keeps_holders(joint, [*_TARGET, "Copyright 2032 Sedge AI"])
    # each party by its organisation: "The Quillwort Team" is the Quillwort Inc. team's
    assert keeps_holders(joint, ["Copyright 2033 Sedge AI and The Quillwort Team"])
    # a single holder as before: the same organisation keeps it, another does not
    assert keeps_holders(["Copyright 2030 The Quillwort Team"], _TARGET)
    assert not keeps_holders(["Copyright 2030 Sedge AI"], _TARGET)
