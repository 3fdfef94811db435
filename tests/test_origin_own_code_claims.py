"""Origin rule 4 (lineage.match.origin): a contributor's copyright above a header statement that
the file came from the upstream's own code (transformers 4.45.2's ``modeling_cohere.py``:
"Copyright 2024 Cohere team" and "This file is based on the LLama model definition file in
transformers") is the upstream's own file, not a third party's."""

from __future__ import annotations

import treegen

from lineage.index.parse import Indexer
from lineage.match.origin import OWN, THIRD_PARTY, Origin, file_origin
from lineage.match.params import MatchParams

OWN_NAMES = {"up", "upstream-org/up"}
TARGET_NAMES = {"tgt", "tgtorg/tgt"}
P = MatchParams()
HEAD = ("# Copyright 2024 Acme Labs team. All rights reserved.\n#\n"
        "# This code is based on Zeta's Foo library and the Foo and Bar implementations\n"
        "# in this library.\n#\n# Licensed under the Apache License, Version 2.0\n\n"
        "# This file is based on the Widget model definition file in {name}\n\n")


def _origin(text: str, params: MatchParams = P) -> Origin:
    f = Indexer().index("up/models/widget.py", (text + treegen.distinctive_functions(1)).encode(), "d-widget")
    return file_origin(f, OWN_NAMES, TARGET_NAMES, params)


def test_a_header_saying_the_file_is_based_on_the_upstreams_code_claims_it() -> None:
    assert _origin(HEAD.format(name="up")).kind == OWN


def test_the_claim_is_the_link_claims_knob() -> None:
    o = _origin(HEAD.format(name="up"), MatchParams(origin_own_link_claims=0))
    assert (o.kind, o.name) == (THIRD_PARTY, "Acme Labs team")


def test_based_on_another_project_claims_nothing_for_the_upstream() -> None:
    # the contributor's copyright alone speaks: its code, third-party to the upstream
    o = _origin(HEAD.format(name="zeta"))
    assert (o.kind, o.name) == (THIRD_PARTY, "Acme Labs team")
    # nor does a mere mention of the upstream (no statement of origin)
    o = _origin(HEAD.replace("This file is based on the Widget model definition file in {name}",
                             "This file is used by up"))
    assert o.kind == THIRD_PARTY


def test_a_source_in_another_project_mentioning_the_upstream_claims_nothing() -> None:
    # vLLM 0.32's gemma4_utils.py: "Ported from ``transformers.models.gemma4.X`` so that vLLM
    # users ..." under Hugging Face's copyright: the source is another project's module
    head = ("# Copyright 2025 Acme Labs team. All rights reserved.\n\n"
            '"""Widget parsing helpers.\n\nPorted from ``zeta.models.widget.utils_widget`` so that up users\n'
            'need not install zeta.\n"""\n\n')
    o = _origin(head)
    assert (o.kind, o.name) == (THIRD_PARTY, "Acme Labs team")
    assert _origin(head.replace("zeta.models", "up.models")).kind == OWN
