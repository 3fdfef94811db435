"""A copyright holder kept under another web-address scheme or by its e-mail address (markdown 3.7
against 2.6.11's smarty.py, pycryptodomex against pycryptodome 3.21.0; invented names)."""

from __future__ import annotations

from lineage.licences.notices import address_fold, holder, keeps_holders


def test_a_web_address_scheme_does_not_change_the_holder() -> None:
    assert address_fold(holder("Copyright (c) 2003 Ada Sedge <http://www.sedge.example/>")) == \
        address_fold(holder("Copyright (c) 2003 Ada Sedge <https://sedge.example/>"))
    assert keeps_holders(["Copyright (c) 2003 Ada Sedge <http://sedge.example/>"],
                         ["#    Copyright (c) 2003 Ada Sedge <https://sedge.example/>"])
    # another address is another holder's, or unknown
    assert not keeps_holders(["Copyright (c) 2003 Ada Sedge <http://sedge.example/>"],
                             ["Copyright (c) 2003 Ada Sedge <https://tern.example/>"])


def test_the_same_email_address_names_the_same_holder() -> None:
    assert keeps_holders(["Copyright (c) 2024, Ada Sedge <ada@sedge.example>"],
                         ["Copyright (c) 2015, Sedgewick <ada@sedge.example>"])
    assert not keeps_holders(["Copyright (c) 2024, Ada Sedge <ada@sedge.example>"],
                             ["Copyright (c) 2015, Sedgewick <bo@tern.example>"])
    # a name without an address is not kept by someone else's address
    assert not keeps_holders(["Copyright (c) 2024, Ada Sedge"], ["Copyright (c) 2015, Sedgewick <ada@sedge.example>"])
    # each party of a joint line is kept on its own
    assert not keeps_holders(["Copyright 2020 Ada Sedge <ada@sedge.example> and Bo Tern"],
                             ["Copyright 2015 Sedgewick <ada@sedge.example>"])
    assert keeps_holders(["Copyright 2020 Ada Sedge <ada@sedge.example> and Bo Tern <bo@tern.example>"],
                         ["Copyright 2015 Sedgewick <ada@sedge.example>", "Copyright 2016 B. Tern <bo@tern.example>"])
