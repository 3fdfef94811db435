"""A company-form suffix of an author field ("Author: Tgt Labs, Inc.") names no author: read as
one, it made every upstream file under another company's "Inc." copyright "taken from the target"
(huggingface-hub 0.26.2 against transformers 4.46.3: Meta's, Facebook's and Amazon's files)."""

from __future__ import annotations

import treegen

from lineage.index.parse import Indexer
from lineage.index.project import _from_metadata, _from_pyproject
from lineage.match.holders import holder_persons
from lineage.match.origin import FROM_TARGET, THIRD_PARTY, file_origin
from lineage.match.params import MatchParams


def test_a_company_suffix_after_a_comma_is_no_author() -> None:
    meta = b"Metadata-Version: 2.1\nName: tgt\nAuthor: Tgt Labs, Inc.\nMaintainer: Quill Moss, Ltd\n\nbody\n"
    info = _from_metadata(meta)
    assert info.authors == ("Quill Moss", "Tgt Labs")
    assert not {"inc.", "inc", "ltd"} & info.names()
    toml = b'[project]\nname = "tgt"\nauthors = [{name = "Sedge Works, LLC"}, {name = "The Authors"}]\n'
    assert _from_pyproject(toml).authors == ("Sedge Works",)


def test_another_companys_inc_copyright_is_not_the_targets() -> None:
    target = _from_metadata(b"Metadata-Version: 2.1\nName: tgt\nAuthor: Tgt Labs, Inc.\n\nbody\n").names()
    text = "# Copyright (c) Orchid Platforms, Inc. and affiliates.\n" + treegen.distinctive_functions(1)
    f = Indexer().index("up/integrations/orchid.py", text.encode(), "d-orchid")
    o = file_origin(f, {"up"}, target, MatchParams())
    assert (o.kind, o.name) == (THIRD_PARTY, "Orchid Platforms, Inc. and affiliates")
    # the target's own company still names it
    own = "# Copyright 2024 Tgt Labs, Inc.\n" + treegen.distinctive_functions(1)
    g = Indexer().index("up/tgt_helpers.py", own.encode(), "d-tgt")
    assert file_origin(g, {"up"}, target, MatchParams()).kind == FROM_TARGET


def test_holder_persons_skip_the_same_parts() -> None:
    assert holder_persons("Orchid Platforms, Inc. and affiliates") == frozenset({"orchid platforms"})
    assert holder_persons("Fern Trading, Co.") == frozenset({"fern trading"})


def test_an_aside_in_brackets_and_a_helpers_tail_are_no_author_names() -> None:
    """transformers 5.16.1's Author field (round user151): the "and" inside "(past and future)"
    split it into two meaningless names."""
    meta = (b"Metadata-Version: 2.1\nName: tgt\nAuthor: The Quill Works team (past and future) with the help of all"
            b" our contributors (https://example.org/quill/graphs/contributors)\n\nbody\n")
    assert _from_metadata(meta).authors == ("The Quill Works team",)
    both = b"Metadata-Version: 2.1\nName: tgt\nAuthor: Jane Moss (Fern Labs) and Rowan Pike [maintainer]\n\nbody\n"
    assert _from_metadata(both).authors == ("Jane Moss", "Rowan Pike")
    toml = b'[project]\nname = "tgt"\nauthors = [{name = "Sedge Works (with contributions from many)"}]\n'
    assert _from_pyproject(toml).authors == ("Sedge Works",)
