"""A holder is kept by a target line naming it in whole words, never as a piece of a longer word
(``lineage.licences.notices.names_within``): "Copyright Pall" kept "Copyright Pallets", and a short
holder inside a longer name counted as kept (round fix149's item (1)). Invented names."""

from __future__ import annotations

from lineage.licences.notices import keeps_holders, names_within


def test_names_are_compared_as_whole_words() -> None:
    assert names_within("the pallets team", "pallets")
    assert names_within("google inc.", "google inc")
    assert not names_within("pallets", "pall")
    assert not names_within("openai", "ai")
    assert not names_within("longt5 authors and the quillwort inc. team", "t5 authors")
    assert not names_within("ada sedge", "")
    assert names_within("sedge-ai team", "sedge")  # a hyphen parts words, as \b reads them
    # a name ending in a full stop ends its word ("Inc.and", as one file wrote it)
    assert names_within("sedge platforms inc.and the quillwort inc. team", "sedge platforms inc.")


def test_a_piece_of_a_longer_word_keeps_no_holder() -> None:
    # either direction: the target's name inside the upstream's, the upstream's inside the target's
    assert not keeps_holders(["Copyright 2011 Pallets"], ["Copyright Pall"])
    assert not keeps_holders(["Copyright 2011 Pall"], ["Copyright 2011 Pallets"])
    assert not keeps_holders(["Copyright 2020 Quill"], ["Copyright 2020 Quillwort Labs"])
    assert not keeps_holders(["Copyright 2019 Lab"], ["Copyright (c) 2019 Labrador Research Inc."])
    # a joint line's party the same way: "Sedge" is no party of "Sedgewick Corp."
    assert not keeps_holders(["Copyright 2032 Sedge and the Quillwort Inc. team"],
                             ["Copyright 2032 Sedgewick Corp.", "Copyright 2032 The Quillwort Team"])


def test_whole_words_still_keep() -> None:
    assert keeps_holders(["Copyright 2020 Quill"], ["Copyright 2020 Quill and Bo Tern"])
    assert keeps_holders(["Copyright 2011 Pallets"], ["Copyright 2011 Pallets Projects"])
    assert keeps_holders(["Copyright 2032 Sedge and the Quillwort Inc. team"],
                         ["Copyright 2032 Sedge", "Copyright 2032 The Quillwort Team"])
    # a company's suffix written out or abbreviated (kept before as a substring, "corp" in "corporation")
    assert keeps_holders(["Copyright 2020 Quillwort Corp."],
                         ["Copyright (c) Quillwort Corporation, Ada Sedge"])
    assert keeps_holders(["Copyright (c) Quillwort Corporation, Ada Sedge"],
                         ["Copyright 2020 Quillwort Corp., Ada Sedge"])
    assert keeps_holders(["Copyright 2020 Quillwort Limited"], ["Copyright 2020 Quillwort Ltd"])
    # a joint line's last party in the plural is one organisation with the singular
    assert keeps_holders(["Copyright 2024 the Quillwort Inc. team"],
                         ["Copyright 2024 The Sedge and Quillwort Inc. teams"])
    # the "and others" tail and a leading "by" as before (fix149)
    assert keeps_holders(["Copyright (c) 2013 Ada Sedge and others, see AUTHORS.txt"],
                         ["Copyright Ada Sedge and Contributors"])
    assert keeps_holders(["Copyright (c) by Pallets"], ["Copyright The Pallets Team"])
