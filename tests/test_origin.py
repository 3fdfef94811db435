"""Upstream-file origin (lineage.match.origin): one test per rule, and the gate end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import treegen

from lineage.cli import main
from lineage.index.parse import Indexer
from lineage.index.project import _from_metadata, _from_pyproject
from lineage.licences.notices import holder_organisation
from lineage.match.gate import is_generated, is_reexport_only, marker_scope
from lineage.match.holders import holder, holder_persons, largest_linked_group, main_holders
from lineage.match.origin import (
    FROM_TARGET,
    OWN,
    THIRD_PARTY,
    file_origin,
    origin_parts,
    upstream_origins,
    vendored_root,
)
from lineage.match.params import MatchParams

P = MatchParams()
OWN_NAMES = {"up", "upstream-org/up"}
TARGET_NAMES = {"tgt", "tgtorg/tgt"}


def _index(path: str, text: str):  # type: ignore[no-untyped-def]
    return Indexer().index(path, text.encode(), "d-" + path)


_body = treegen.distinctive_functions


def _origin(path: str, text: str, holders: frozenset[str] = frozenset()):  # type: ignore[no-untyped-def]
    return file_origin(_index(path, text), OWN_NAMES, TARGET_NAMES, P, holders)


def test_own_file_is_own() -> None:
    assert _origin("up/core.py", "# Copyright 2024 The up authors\n" + _body(1)).kind == OWN


def test_vendored_folder_is_third_party_named_after_the_next_component() -> None:
    o = _origin("up/third_party/fastlib/ops/k.py", _body(1))
    assert (o.kind, o.name, o.evidence, o.line) == (THIRD_PARTY, "fastlib", "folder up/third_party/", 0)
    assert _origin("up/_vendor/pynvml.py", _body(1)).name == "pynvml"
    assert _origin("up/third_party/__init__.py", _body(1)).name == "third_party"
    assert _origin("up/vendorish/k.py", _body(1)).kind == OWN  # a whole component, not a prefix


def test_a_vendored_copy_named_after_the_target_came_from_the_target() -> None:
    # pytest 2.8 carried pluggy at ``_pytest/vendored_packages/pluggy.py``: against pluggy as the
    # target, that copy was taken from the target, not a third party's code
    o = _origin("up/vendored_packages/tgt.py", _body(1))
    assert (o.kind, o.evidence, o.line) == (FROM_TARGET, "folder up/vendored_packages/", 0)
    assert _origin("up/_vendored/tgt/core.py", _body(1)).kind == FROM_TARGET  # a package folder
    assert _origin("up/_vendor/other.py", _body(1)).name == "other"  # another name: a third party
    # a name the upstream has too says nothing of the target
    f = _index("up/_vendor/tgt.py", _body(1))
    assert file_origin(f, OWN_NAMES | {"tgt"}, TARGET_NAMES, P).kind == THIRD_PARTY


def test_vendor_folders_are_a_setting() -> None:
    f = _index("up/contrib/k.py", _body(1))
    assert file_origin(f, OWN_NAMES, TARGET_NAMES, P).kind == OWN
    p = MatchParams(vendor_folders="contrib")
    o = file_origin(f, OWN_NAMES, TARGET_NAMES, p)
    assert (o.kind, o.name, o.evidence) == (THIRD_PARTY, "k", "folder up/contrib/")
    # a name is read with and without a leading underscore: a private folder is the same folder
    o = file_origin(_index("up/_contrib/k.py", _body(1)), OWN_NAMES, TARGET_NAMES, p)
    assert (o.kind, o.name, o.evidence) == (THIRD_PARTY, "k", "folder up/_contrib/")


def test_vendor_folder_names_hold_each_name_with_and_without_a_leading_underscore() -> None:
    assert MatchParams(vendor_folders=" _Vendor, third_party ,,").vendor_folder_names == {
        "vendor", "_vendor", "third_party", "_third_party"}
    names = P.vendor_folder_names
    for name in ("_vendored_packages", "vendored_packages", "_vendored", "vendored", "_vendor", "vendor",
                 "third_party", "thirdparty", "3rdparty", "extern", "external", "_third_party"):
        assert name in names, name
    for name in ("vendors", "__pycache__", "_", "packages", "contrib"):  # not vendoring folders
        assert name not in names, name
    o = file_origin(_index("py/_vendored_packages/iniconfig.py", _body(1)), OWN_NAMES, TARGET_NAMES, P)
    assert (o.kind, o.name, o.evidence) == (THIRD_PARTY, "iniconfig", "folder py/_vendored_packages/")


def test_header_naming_another_project_is_third_party() -> None:
    text = "# Adapted from https://github.com/huggingface/transformers/blob/v4/src/x.py\n" + _body(1)
    o = _origin("up/models/x.py", text)
    assert (o.kind, o.name, o.line) == (THIRD_PARTY, "transformers", 1)
    # naming the upstream itself is not another origin
    assert _origin("up/models/y.py", "# Adapted from https://github.com/upstream-org/up/blob/v1/up/a.py\n"
                   + _body(1)).kind == OWN
    # "inspired by" says nothing about where code came from
    assert _origin("up/models/z.py", "# Inspired by https://github.com/other/proj/blob/v1/a.py\n"
                   + _body(1)).kind == OWN


def test_original_code_from_a_url_is_third_party() -> None:
    """transformers 4.46.3's falcon_mamba kernel: "Original code from: https://github.com/state-
    spaces/mamba/..." under a joint copyright of Tri Dao and the HuggingFace team: the mamba
    code vLLM's mamba_ssm.py also adapted, not transformers' own (a bare URL would be a reference)."""
    text = ("# Copyright 2024 Quill Moss and Upstream Team.\n"
            "# Original code from: https://github.com/sedge-spaces/sedge/blob/main/sedge/ops/scan.py\n"
            + _body(1))
    o = _origin("up/kernels/scan.py", text, frozenset({"upstream team"}))
    assert (o.kind, o.name, o.line) == (THIRD_PARTY, "sedge", 2)


def test_a_marker_below_the_header_speaks_for_one_function_only() -> None:
    text = _body(1) + "# Adapted from https://github.com/other/proj/blob/v1/a.py\n" + _body(2)
    o = _origin("up/mixed.py", text)
    assert o.kind == OWN
    # its section: from the marker to the end of the next def (transform_2_0, 3 lines)
    first = len(_body(1).split("\n"))  # the marker's line
    assert [(x.start, x.end, x.origin.kind, x.origin.name, x.origin.line) for x in o.sections] == [
        (first, first + 3, THIRD_PARTY, "proj", first)]
    held, part = origin_parts(o, np.array([first, first + 4, -1]))[0]  # 0-based rows: inside, after, none
    assert part.name == "proj" and held.tolist() == [True, False, False]
    assert file_origin(_index("up/mixed.py", text), OWN_NAMES, TARGET_NAMES,
                       MatchParams(origin_sections=0)).sections == ()


def test_a_section_is_the_def_holding_its_marker() -> None:
    text = ("def helper_from_tgt(values):\n"
            '    """Adapted from https://github.com/tgtorg/tgt/blob/main/tgt/util.py"""\n'
            "    return sorted(values)[::-1]\n"
            "\n"
            "class Keeper:\n"
            "    def take(self, x):\n"
            "        # Copied from https://github.com/other/proj/blob/v1/keep.py\n"
            "        return x\n"
            "\n"
            "    def own(self):\n"
            "        # Adapted from https://github.com/upstream-org/up/blob/v0/up/old.py (itself)\n"
            "        return 1\n"
            "\n"
            "def named_without_a_repository():\n"
            "    # Adapted from the transformers library\n"
            "    return 2\n"
            "\n"
            "def follows_an_api():\n"
            "    # Adapted from transformers.models.mamba.modeling_mamba.MambaMixer\n"
            "    return 3\n")
    o = _origin("up/parts.py", text)
    assert o.kind == OWN
    assert [(x.start, x.end, x.origin.kind, x.origin.name) for x in o.sections] == [
        (1, 3, FROM_TARGET, "tgt"),  # the target's: the whole function holding the marker
        (6, 8, THIRD_PARTY, "proj"),  # the innermost def, not the class
    ]


def test_a_comment_marker_inside_a_body_speaks_for_what_it_heads() -> None:
    """transformers' ``pytest_terminal_summary_main``: a block "adapted from" pytest's runner.py
    in the middle of the function; vLLM's LLaVA-NeXT: "# Based on: .../llava_arch.py" above one
    method of a class."""
    text = ("def summary(tr):\n"                    # 1
            '    """Write the reports."""\n'        # 2
            "    reports = tr.reports()\n"          # 3
            "\n"                                     # 4
            "    # adapted from https://github.com/pytest-dev/pytest/blob/897f151e/src/_pytest/runner.py#L66\n"
            "    durations = []\n"                  # 6
            "    durations.sort()\n"                # 7
            "\n"                                     # 8
            "    # copied from https://github.com/pytest-dev/pytest/blob/897f151e/src/_pytest/terminal.py#L814\n"
            "\n"                                     # 10
            "    return reports\n"                  # 11
            "\n"                                     # 12
            "class Model:\n"                         # 13
            "    def first(self):\n"                # 14
            "        return 0\n"                     # 15
            "\n"                                     # 16
            "    # Based on: https://github.com/haotian-liu/LLaVA/blob/main/llava/model/llava_arch.py\n"
            "    def merge(self, x):\n"             # 18
            "        return x\n"                     # 19
            "\n"                                     # 20
            "def head(x):\n"                         # 21
            "    # Adapted from https://github.com/other/proj/blob/v1/head.py\n"
            "    y = x\n"                            # 23
            "\n"                                     # 24
            "    return y\n")                        # 25
    spans = [(x.start, x.end, x.origin.name) for x in _origin("up/parts.py", text).sections]
    # a block in the middle of a body, the method below a comment, and a marker heading a body
    # (and a paragraph of comments alone: the rest of the def)
    assert spans == [(5, 7, "pytest"), (9, 11, "pytest"), (17, 19, "LLaVA"), (21, 25, "proj")]
    off = MatchParams(origin_section_paragraphs=0)
    o = file_origin(_index("up/parts.py", text), OWN_NAMES, TARGET_NAMES, off)
    assert [(x.start, x.end) for x in o.sections] == [(1, 11), (13, 19), (21, 25)]


def test_a_comment_block_standing_apart_heads_the_module_below_it() -> None:
    """pandas 2.2.3's ``core/accessor.py``: "Ported with modifications from xarray ...
    extensions.py" and notes on two definitions, a blank line, then both definitions and the
    functions built on them (xarray's ``_register_accessor`` counted as copied from pandas when
    the section was the next class alone). Its part runs to the next comment outside any def, or
    the end of the file; a block heading a def with no blank line, or a source pinned to one line,
    speaks for the next def only."""
    text = ("def own_first():\n"                                                     # 1
            "    return 0\n"                                                         # 2
            "\n"                                                                     # 3
            "# Ported with modifications from https://github.com/tgtorg/tgt/blob/main/tgt/ext.py\n"
            "# 1. Quillwort raises no error\n"                                       # 5
            "\n"                                                                     # 6
            "class Cached:\n"                                                        # 7
            "    pass\n"                                                             # 8
            "\n"                                                                     # 9
            "def register(name):\n"                                                  # 10
            "    return name\n"                                                      # 11
            "\n"                                                                     # 12
            "# Sedge helpers, the upstream's own\n"                                   # 13
            "def sedge():\n"                                                         # 14
            "    return 1\n")                                                        # 15
    spans = [(x.start, x.end, x.origin.kind) for x in _origin("up/accessor.py", text).sections]
    assert spans == [(4, 12, FROM_TARGET)]
    to_the_end = text.replace("# Sedge helpers, the upstream's own\n", "")
    assert [(x.start, x.end) for x in _origin("up/accessor.py", to_the_end).sections] == [(4, 14)]
    pinned = text.replace("tgt/ext.py", "tgt/ext.py#L40")
    assert [(x.start, x.end) for x in _origin("up/accessor.py", pinned).sections] == [(4, 8)]
    heading_a_def = text.replace("# 1. Quillwort raises no error\n\n", "")
    assert [(x.start, x.end) for x in _origin("up/accessor.py", heading_a_def).sections] == [(4, 6)]
    off = MatchParams(origin_section_headings=0)
    o = file_origin(_index("up/accessor.py", text), OWN_NAMES, TARGET_NAMES, off)
    assert [(x.start, x.end) for x in o.sections] == [(4, 8)]


def test_a_comment_marker_heading_the_first_def_below_the_imports_speaks_for_that_def() -> None:
    """gym 0.26.2's ``wrappers/normalize.py``: imports, then "# taken from .../baselines/.../
    vec_normalize.py" right above its ``RunningMeanStd`` class, then gym's own wrappers. The
    comment heads the class, as it would further down; it was the file's header, and gymnasium's
    copies of the wrappers were baselines' code. A file's opening comments stay its header."""
    text = ("import numpy as np\n"                                                  # 1
            "\n"                                                                    # 2
            "# taken from https://github.com/other/proj/blob/master/proj/stats.py\n" # 3
            "class RunningTally:\n"                                                 # 4
            "    count = 0\n"                                                       # 5
            "\n"                                                                    # 6
            "def own_wrapper(x):\n"                                                 # 7
            "    return np.asarray(x)\n")                                           # 8
    o = _origin("up/normalize.py", text)
    assert o.kind == OWN
    assert [(x.start, x.end, x.origin.kind, x.origin.name) for x in o.sections] == [(3, 5, THIRD_PARTY, "proj")]
    # read as the header reads it: a dotted path names its project too (setuptools 70.3's
    # ``_itertools.py``: "copied from jaraco.itertools 6.1" above its one function)
    dotted = text.replace("https://github.com/other/proj/blob/master/proj/stats.py", "proj/stats.py")
    assert [(x.start, x.end, x.origin.name) for x in _origin("up/normalize.py", dotted).sections] == [(3, 5, "proj")]
    # the file's opening comments, with no code above them, are its header
    assert _origin("up/normalize.py", text.replace("import numpy as np\n\n", "")).kind == THIRD_PARTY
    # a blank line between: the block stands in the header, as before
    assert _origin("up/normalize.py", text.replace("stats.py\n", "stats.py\n\n")).kind == THIRD_PARTY
    off = MatchParams(origin_header_def_comment=0)
    assert file_origin(_index("up/normalize.py", text), OWN_NAMES, TARGET_NAMES, off).kind == THIRD_PARTY


def test_only_other_holders_copyright_is_third_party() -> None:
    o = _origin("up/k.py", "# Copyright (c) 2023, Tri Dao.\n" + _body(1))
    assert (o.kind, o.name) == (THIRD_PARTY, "Tri Dao")
    # the upstream's own holder (its licence files, or the one most of its files name) is not
    assert _origin("up/k.py", "# Copyright (c) 2023, Tri Dao.\n" + _body(1), frozenset({"tri dao"})).kind == OWN
    # a second copyright line naming the upstream makes it the upstream's own
    assert _origin("up/k.py", "# Copyright 2023 Tri Dao\n# Copyright 2024 The up team\n" + _body(1)).kind == OWN


def test_a_header_linking_the_upstreams_own_repository_claims_a_contributors_file() -> None:
    # PyPDF2's pagerange.py: a contributor's copyright, then a link to PyPDF2's own licence
    head = ('"""\nCopyright (c) 2014, Steve Witham.\nAll rights reserved. This software is available under'
            ' a BSD license;\nsee https://github.com/upstream-org/up/blob/master/LICENSE\n"""\n')
    assert _origin("up/pagerange.py", head + _body(1)).kind == OWN
    off = MatchParams(origin_own_link_claims=0)
    o = file_origin(_index("up/pagerange.py", head + _body(1)), OWN_NAMES, TARGET_NAMES, off)
    assert (o.kind, o.name) == (THIRD_PARTY, "Steve Witham")
    # a link into another project's repository claims nothing for the upstream
    other = head.replace("upstream-org/up", "someone/else")
    assert _origin("up/pagerange.py", other + _body(1)).kind == THIRD_PARTY


def test_a_project_wide_spdx_copyright_line_does_not_outweigh_the_files_own() -> None:
    spdx = "# SPDX-FileCopyrightText: Copyright contributors to the up project\n"
    o = _origin("up/parsers/hf.py", spdx + "# Copyright 2026 The HuggingFace Team.\n" + _body(1))
    assert (o.kind, o.name, o.line) == (THIRD_PARTY, "The HuggingFace Team", 2)
    # alone, it is the upstream's own line; beside the upstream's own copyright, too
    assert _origin("up/core.py", spdx + _body(1)).kind == OWN
    both = spdx + "# Copyright 2024 The up team\n# Copyright 2022 Other Inc.\n"
    assert _origin("up/m.py", both + _body(1)).kind == OWN


def test_main_holder_of_an_upstream_is_its_own() -> None:
    files = [_index(f"up/m{k}.py", "# Copyright 2024 Jane Roe\n" + _body(k)) for k in range(3)]
    files.append(_index("up/other.py", "# Copyright 2020 Other Corp\n" + _body(9)))
    assert main_holders(files) == frozenset({"jane roe"})
    kinds = [o.kind for o in upstream_origins(files, [0, 0, 0, 0], [{"up"}], {"tgt"}, P)]
    assert kinds == [OWN, OWN, OWN, THIRD_PARTY]


def test_silent_files_of_a_mostly_third_party_folder_are_third_party() -> None:
    own = "# Copyright 2024 The up authors\n"
    vendored = [_index(f"up/fa_copy/k{k}.py", "# Copyright (c) 2025, Tri Dao.\n" + _body(k)) for k in range(3)]
    silent = _index("up/fa_copy/util.py", _body(7))  # no header at all
    mine = _index("up/fa_copy/glue.py", own + _body(8))  # the upstream's own copyright: stays own
    elsewhere = _index("up/core/util.py", _body(9))  # silent, but its folder has no third-party votes
    core = [_index(f"up/core/m{k}.py", own + _body(20 + k)) for k in range(9)]  # the upstream's main holder
    files = [*vendored, silent, mine, elsewhere, *core]
    origins = upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, P)
    assert [o.kind for o in origins] == [THIRD_PARTY] * 4 + [OWN] * 11
    assert origins[3].name == "Tri Dao"
    assert origins[3].evidence == "folder up/fa_copy/: 3 of 4 files with a header carry other holders' copyright"
    # below the share (3 of 5 speak for a third party) or below the minimum count, nothing is inherited
    two_own = [*vendored, silent, mine, _index("up/fa_copy/glue2.py", own + _body(10)), *core]
    assert upstream_origins(two_own, [0] * len(two_own), [OWN_NAMES], TARGET_NAMES, P)[3].kind == OWN
    p = MatchParams(origin_folder_min_files=4)
    assert upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, p)[3].kind == OWN


def test_only_linked_holders_vote_for_a_folder() -> None:
    # scikit-learn 1.5.2 vs scipy 1.14: scipy/optimize/'s files with copyright lines name four
    # different contributors; its silent files (_optimize.py's lines) went to the first of them.
    own = "# Copyright 2024 The up authors\n"
    core = [_index(f"up/core/m{k}.py", own + _body(20 + k)) for k in range(9)]
    contributors = [_index(f"up/solve/c{k}.py", f"# Copyright (c) 2004 Person{k} Name{k}\n" + _body(k))
                    for k in range(4)]
    silent = _index("up/solve/main.py", _body(7))
    files = [*contributors, silent, *core]
    origins = upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, P)
    assert origins[4].kind == OWN
    unlinked = MatchParams(origin_folder_linked_holders=0)
    assert upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, unlinked)[4].name == "Person0 Name0"
    # a package whose files name its author alone or with co-authors is one group; a stray
    # holder in the folder does not vote with it
    lines = ["# Copyright (c) 2025, Tri Dao.\n", "# Copyright (c) 2025, Jay Shah, Ann Lee and Tri Dao.\n",
             "# Copyright (c) 2025, Tri Dao.\n", "# Copyright (c) 2025, Jay Shah, Bo Wu.\n",
             "# Copyright (c) 2026, Other Corp.\n"]
    package = [_index(f"up/fa/k{k}.py", line + _body(30 + k)) for k, line in enumerate(lines)]
    files = [*package, _index("up/fa/util.py", _body(40)), *core]
    origins = upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, P)
    assert (origins[5].kind, origins[5].name) == (THIRD_PARTY, "Tri Dao")
    assert origins[5].evidence == "folder up/fa/: 4 of 5 files with a header carry other holders' copyright"


def test_holders_are_linked_by_a_shared_person() -> None:
    assert holder_persons("Jay Shah, Ganesh Bikshandi and Tri Dao") == {"jay shah", "ganesh bikshandi", "tri dao"}
    assert holder_persons("The Foo Authors") == {"foo authors"}
    assert largest_linked_group([10, 11, 12, 13], ["A B", "C D", "C D, E F", "E F & G H"]) == [11, 12, 13]
    assert largest_linked_group([10, 11], ["A B", "C D"]) == [10]  # a tie: the first member's group
    assert largest_linked_group([], []) == []


def test_linked_holders_name_one_third_party() -> None:
    # vLLM's flash-attention files name "Tri Dao" alone or with co-authors: one third party
    own = "# Copyright 2024 The up authors\n"
    core = [_index(f"up/core/m{k}.py", own + _body(20 + k)) for k in range(9)]
    lines = ["# Copyright (c) 2025, Tri Dao.\n", "# Copyright (c) 2025, Tri Dao.\n",
             "# Copyright (c) 2025, Jay Shah, Ann Lee and Tri Dao.\n", "# Copyright (c) 2025, Ann Lee, Bo Wu.\n",
             "# Copyright (c) 2026, Other Corp, Inc.\n", "# Copyright (c) 2026, Else Works, Inc.\n"]
    kernels = [_index(f"up/ops/k{k}.py", line + _body(30 + k)) for k, line in enumerate(lines)]
    files = [*kernels, *core]
    origins = upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, P)
    assert [o.name for o in origins[:6]] == ["Tri Dao"] * 4 + ["Other Corp, Inc", "Else Works, Inc"]
    assert origins[2].evidence == lines[2].strip("# \n")  # the file's own line stays the evidence
    # named after the person the group shares, not after one member's whole line
    hf = ["# Copyright 2024 Cohere and the Hub Inc. team\n", "# Copyright 2024 The Qwen team and the Hub Inc. team\n"]
    models = [_index(f"up/models/m{k}.py", line + _body(50 + k)) for k, line in enumerate(hf)]
    named = upstream_origins([*models, *core], [0] * (len(core) + 2), [OWN_NAMES], TARGET_NAMES, P)
    assert [o.name for o in named[:2]] == ["Hub Inc. team"] * 2
    apart = MatchParams(origin_third_party_linked_names=0, origin_folder_linked_holders=0)
    named = upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, apart)
    assert named[2].name == "Jay Shah, Ann Lee and Tri Dao"


def test_one_third_party_is_named_one_way() -> None:
    # vLLM 0.32: "LightLLM" (a header's words) and "lightllm" (a URL's repository) were two parties
    url = "# Adapted from https://github.com/qorg/quick_kit/blob/main/k.py\n"
    words = "# Taken from https://github.com/QOrg/Quick-Kit/blob/main/quick_kit/k.py\n"
    files = [_index("up/k1.py", url + _body(1)), _index("up/k2.py", words + _body(2)),
             _index("up/k3.py", words + _body(3))]
    origins = upstream_origins(files, [0, 0, 0], [OWN_NAMES], TARGET_NAMES, P)
    assert [o.name for o in origins] == ["Quick-Kit"] * 3
    two = MatchParams(origin_third_party_one_spelling=0)
    apart = upstream_origins(files, [0, 0, 0], [OWN_NAMES], TARGET_NAMES, two)
    assert [o.name for o in apart] == ["quick_kit", "Quick-Kit", "Quick-Kit"]


def test_a_later_party_of_a_joint_holder_is_named_without_its_years() -> None:
    # disnake 2.1.0's LICENSE, "Copyright (c) 2015-present Rapptz, 2021-present EQUENOS"
    assert holder_persons("Rapptz, 2021-present EQUENOS") == {"rapptz", "equenos"}
    assert holder_persons("Ada Quill, 2019, 2020 Brook Developers") == {"ada quill", "brook developers"}
    assert holder_persons("Ada Quill, 2019 edition") == {"ada quill", "edition"}  # only the years go


def test_holders_are_not_linked_by_words_that_name_no_one() -> None:
    assert holder_persons("Meta Platforms, Inc. and affiliates") == {"meta platforms"}
    assert holder_persons("NVIDIA CORPORATION & AFFILIATES") == {"nvidia corporation"}
    assert largest_linked_group([1, 2], ["Meta Platforms, Inc. and affiliates", "NVIDIA CORPORATION & AFFILIATES"]) \
        == [1]
    assert holder_persons("Inc.") == {"inc"}  # nothing else: the holder itself


def test_a_folder_of_adaptations_does_not_make_its_silent_files_third_party() -> None:
    # vLLM 0.6's model_executor/models/: most headers say "Adapted from <transformers URL>" (each
    # file third-party by rule 3), the infrastructure beside them says nothing; those are the
    # upstream's own. Only other holders' copyright (rule 4) votes for a folder.
    adapted = [_index(f"up/models/m{k}.py",
                      "# Adapted from https://github.com/huggingface/transformers/blob/main/m.py\n" + _body(k))
               for k in range(5)]
    silent = _index("up/models/registry.py", _body(7))
    files = [*adapted, silent]
    origins = upstream_origins(files, [0] * len(files), [OWN_NAMES], TARGET_NAMES, P)
    assert [o.kind for o in origins] == [THIRD_PARTY] * 5 + [OWN]
    assert origins[0].name == "transformers"


def test_each_top_level_package_has_its_own_main_holder() -> None:
    """An upstream tree of several projects side by side: each package's main holder is its own."""
    alpha = [_index(f"alpha/m{k}.py", "# Copyright 2012 Ann Alpha\n" + _body(k)) for k in range(3)]
    beta = [_index(f"beta/m{k}.py", "# Copyright 2015 Bob Beta\n" + _body(10 + k)) for k in range(4)]
    stray = _index("beta/k.py", "# Copyright 2020 Carol Other\n" + _body(20))
    files = [*alpha, *beta, stray]
    kinds = [o.kind for o in upstream_origins(files, [0] * len(files), [{"alpha", "beta"}], TARGET_NAMES, P)]
    assert kinds == [OWN] * 7 + [THIRD_PARTY]


def test_the_holder_of_a_packages_own_init_is_its_own() -> None:
    """requests 2.0.0: Kenneth Reitz in ``requests/__init__.py`` and ``api.py`` only, the urllib3
    and chardet it carried under ``requests/packages/`` naming their own holders in most files:
    the package root module speaks for the package, so ``api.py`` is its own code."""
    root = _index("req/__init__.py", '"""\n:copyright: (c) 2013 by Kenneth Reitz.\n"""\n' + _body(1))
    api = _index("req/api.py", '"""\n:copyright: (c) 2012 by Kenneth Reitz.\n"""\n' + _body(2))
    carried = [_index(f"req/packages/u{k}.py", "# Copyright 2008-2013 Andrey Petrov\n" + _body(10 + k))
               for k in range(4)]
    files = [root, api, *carried]
    origins = upstream_origins(files, [0] * len(files), [{"req"}], TARGET_NAMES, P)
    assert [o.kind for o in origins[:2]] == [OWN, OWN]
    assert {o.kind for o in origins[2:]} == {OWN}  # the main holder of the package, as before
    without_root = upstream_origins([api, *carried], [0] * 5, [{"req"}], TARGET_NAMES, P)
    assert without_root[0].kind == THIRD_PARTY


def test_header_naming_the_target_is_from_target() -> None:
    o = _origin("up/ops/back.py", "# Adapted from\n# https://github.com/tgtorg/tgt/blob/abc/tgt/ops.py\n" + _body(1))
    assert (o.kind, o.line) == (FROM_TARGET, 1)
    assert o.label == FROM_TARGET
    assert _origin("up/ops/c.py", "# Copyright 2023-2024 TGT Team\n" + _body(1)).kind == FROM_TARGET
    assert _origin("up/ops/d.py", '"""Kernels.\n\nPorted from tgt\'s ops.py.\n"""\n' + _body(1)).kind == FROM_TARGET


def test_a_copyright_of_a_holder_both_projects_share_says_nothing_of_direction() -> None:
    """accelerate 1.0.1 against transformers 4.44.2: both are "The HuggingFace Team"'s (the
    target's metadata author, the upstream's own holder's organisation); 398 transformers files
    were set apart as taken from accelerate by that copyright line alone."""
    line = "# Copyright 2020 TGT Team. All rights reserved.\n"
    assert _origin("up/testing_utils.py", line + _body(1)).kind == FROM_TARGET  # not the upstream's holder
    shared = frozenset({"tgt inc. team"})  # the upstream's own holder, of the same organisation
    assert _origin("up/testing_utils.py", line + _body(1), shared).kind == OWN
    # a main holder of the very name is no evidence (an upstream of the target's files names its
    # authors most); its licence files naming it are
    same = frozenset({"tgt team"})
    assert _origin("up/testing_utils.py", line + _body(1), same).kind == FROM_TARGET
    assert file_origin(_index("up/t.py", line + _body(1)), OWN_NAMES, TARGET_NAMES, P, same, same).kind == OWN
    assert file_origin(_index("up/t.py", line + _body(1)), OWN_NAMES, TARGET_NAMES,
                       MatchParams(origin_shared_holder_no_direction=0), shared).kind == FROM_TARGET
    # a marker naming the target still says so, whoever holds the file
    marked = "# Copyright 2020 TGT Team\n# Adapted from https://github.com/tgtorg/tgt/blob/abc/tgt/ops.py\n"
    assert _origin("up/ops/e.py", marked + _body(2), shared).kind == FROM_TARGET


def test_a_name_both_sides_carry_names_neither() -> None:
    f = _index("up/a.py", "# Adapted from up.core\n" + _body(1))
    assert upstream_origins([f], [0], [{"up"}], {"up", "tgt"}, P)[0].kind == OWN


def test_a_holder_named_by_a_large_share_of_files_is_own() -> None:
    """distlib names Vinay Sajip in most files and "The Python Software Foundation" in many."""
    files = [_index(f"lib/v{k}.py", "# Copyright (C) 2013 Vinay Sajip.\n" + _body(k)) for k in range(5)]
    files += [_index("lib/p0.py", "# Copyright (C) 2012 The Python Software Foundation.\n" + _body(30)),
              _index("lib/p1.py", "# Copyright (C) 2012 Python Software Foundation. All rights reserved.\n"
                     + _body(31)),
              _index("lib/p2.py", "# Copyright (C) 2014 Python Software Foundation\n" + _body(33)),
              _index("lib/x.py", "# Copyright 2001 Some One\n" + _body(32))]
    assert main_holders(files, 0.25) == frozenset({"vinay sajip", "python software foundation"})
    kinds = [o.kind for o in upstream_origins(files, [0] * len(files), [{"lib"}], TARGET_NAMES, P)]
    assert kinds == [OWN] * 8 + [THIRD_PARTY]
    assert upstream_origins(files, [0] * len(files), [{"lib"}], TARGET_NAMES,
                            MatchParams(origin_own_holder_share=1.0))[5].kind == THIRD_PARTY


def test_a_joint_copyright_naming_the_upstreams_own_holder_is_own() -> None:
    hf = frozenset({"huggingface inc. team"})
    joint = "# Copyright 2024 The Qwen team, Alibaba Group and the HuggingFace Inc. team. All rights reserved.\n"
    assert _origin("up/models/qwen2_vl/configuration_qwen2_vl.py", joint + _body(1), hf).kind == OWN
    # a holder that only contains the own holder's words inside a longer name is another one
    other = "# Copyright 2024 Not-HuggingFace Inc. team Fans\n"
    assert _origin("up/x.py", other + _body(2), hf).kind == THIRD_PARTY


def test_a_copyright_naming_the_own_holders_organisation_among_others_is_own() -> None:
    """transformers 4.46.3's ``utils/logging.py``: "Copyright 2020 Optuna, Hugging Face", its
    licence's holder "The Hugging Face team"; diffusers 0.31 copied the file whole."""
    own = frozenset({"hugging face team", "huggingface inc. team"})
    assert _origin("up/utils/logging.py", "# Copyright 2020 Optuna, Hugging Face\n" + _body(1), own).kind == OWN
    assert _origin("up/utils/x.py", "# Copyright 2020 Optuna\n" + _body(2), own).kind == THIRD_PARTY
    assert holder_organisation("huggingface inc. team") == "huggingface"
    assert holder_organisation("meta platforms, inc.") == "meta platforms"
    assert holder_organisation("tri dao") == "tri dao"
    assert holder_organisation("authors") == ""
    # an organisation inside a longer name is another one
    assert _origin("up/y.py", "# Copyright 2020 Hugging Face-Fans Club\n" + _body(3), own).kind == THIRD_PARTY


def test_all_rights_reserved_is_no_part_of_a_holders_name() -> None:
    assert holder("Copyright 2022 EleutherAI and the HuggingFace Inc. team. All rights reserved.") == \
        "EleutherAI and the HuggingFace Inc. team"


def test_holder() -> None:
    assert holder("Copyright 2023-2024 SGLang Team") == "SGLang Team"
    assert holder("SPDX-FileCopyrightText: Copyright contributors to the vLLM project") == \
        "contributors to the vLLM project"
    assert holder("(c) 2021, Foo Corp.") == "Foo Corp"


def test_generated_version_file() -> None:
    scm = ["# file generated by setuptools-scm", "# don't change, don't track in version control",
           "__version__ = version = '1.2.3'"]
    assert is_generated("pkg/_version.py", scm, 5)
    assert not is_generated("pkg/other.py", scm, 5)
    assert not is_generated("pkg/_version.py", ["__version__ = '1.2.3'"], 5)
    assert not is_generated("pkg/_version.py", ["", "", *scm], 2)  # the stamp below the head read


def test_reexport_only_file() -> None:
    text = ('"""Package."""\nfrom .a import Alpha, Beta\nimport pkg.c as c\n__all__ = ["Alpha", "Beta", "c"]\n'
            "try:\n    from .fast import speedy\nexcept ImportError:\n    pass\n")
    assert is_reexport_only(_index("pkg/__init__.py", text), text.split("\n"))
    code = text + "VALUE = 3\n"
    assert not is_reexport_only(_index("pkg/__init__.py", code), code.split("\n"))
    with_def = text + "def f():\n    return 1\n"
    assert not is_reexport_only(_index("pkg/__init__.py", with_def), with_def.split("\n"))


def test_project_metadata_names() -> None:
    meta = (b"Metadata-Version: 2.1\nName: sglang\nAuthor: The SGLang Team\n"
            b"Project-URL: Homepage, https://github.com/sgl-project/sglang\n"
            b"Project-URL: Bugs, https://github.com/sgl-project/sglang/issues\n\nbody\n")
    info = _from_metadata(meta)
    assert info.repositories == ("sgl-project/sglang",)
    assert {"sglang", "sgl-project/sglang", "the sglang team"} <= info.names()
    toml = b'[project]\nname = "up"\nauthors = [{name = "Jane Roe", email = "j@x"}]\n' \
           b'urls = {Source = "https://gitlab.com/org/up-repo.git"}\n'
    info = _from_pyproject(toml)
    assert (info.name, info.repositories, info.authors) == ("up", ("org/up-repo",), ("Jane Roe",))


def _metadata(name: str, urls: dict[str, str]) -> bytes:
    fields = "".join(f"Project-URL: {label}, {url}\n" for label, url in urls.items())
    return f"Metadata-Version: 2.1\nName: {name}\n{fields}\nbody\n".encode()


def test_a_community_or_sponsor_link_names_no_project_of_its_own() -> None:
    # typing_extensions 4.12.2 links its Q & A to python/typing's discussions: "typing" is not
    # one of its names (a marker naming CPython's typing module would name it)
    info = _from_metadata(_metadata("typing_extensions", {
        "Home": "https://github.com/python/typing_extensions",
        "Q & A": "https://github.com/python/typing/discussions", "Funding": "https://github.com/sponsors/someone"}))
    assert info.repositories == ("python/typing_extensions",)
    assert "typing" not in info.names() and "typing_extensions" in info.names()
    toml = (b'[project]\nname = "up"\n'
            b'urls = {Source = "https://github.com/org/up", "Q&A" = "https://github.com/org/other/discussions"}\n')
    assert _from_pyproject(toml).repositories == ("org/up",)
    # whatever the label: a sponsor page or another repository's discussions names no repository
    assert _from_metadata(_metadata("up", {
        "Source": "https://github.com/org/up", "GitHub Sponsors": "https://github.com/sponsors/someone",
        "Questions": "https://github.com/org/other/discussions/categories/q-a"})).repositories == ("org/up",)


def test_core_metadata_is_read_as_utf_8() -> None:
    """METADATA is UTF-8 (core metadata spec): typing_extensions 4.12.2's Author-email names
    "Łukasz Langa" and Pygments 2.18.0's Matthäus G. Chajdas, read as "\ufffd\ufffdukasz langa"
    and "matth\ufffd\ufffdus g. chajdas" (a copyright line naming them never named the upstream)."""
    from lineage.index.vendoring import parse_dist_info
    from lineage.licences.declared import _from_metadata as licence_from_metadata

    meta = ('Metadata-Version: 2.1\nName: up-ünï\nVersion: 1.0\nAuthor: Matthäus Quillwort\n'
            'Author-email: "Jan Kowalski, Łukasz Sedge" <x@y>\nLicense: Zlib © 2031 Jürg\n\nbody\n').encode()
    assert {"matthäus quillwort", "łukasz sedge", "up-ünï"} <= _from_metadata(meta).names()
    assert licence_from_metadata(meta).raw == "Zlib © 2031 Jürg"
    found = parse_dist_info(meta, None, "pkg/_vendor/up_ünï-1.0.dist-info/METADATA")
    assert found is not None and found.name == "up-ünï"


# ---------------------------------------------------------------------------------------------
# End to end: the CLI on a generated tree whose truth is known line by line
# ---------------------------------------------------------------------------------------------

APACHE = ("# Copyright 2024 The up authors\n# SPDX-License-Identifier: Apache-2.0\n"
          "# Licensed under the Apache License, Version 2.0 (the \"License\");\n"
          "# you may not use this file except in compliance with the License.\n"
          "# Unless required by applicable law or agreed to in writing, software\n"
          "# distributed under the License is distributed on an \"AS IS\" BASIS,\n")
SCM = ("# file generated by setuptools-scm\n# don't change, don't track in version control\n"
       "__all__ = ['__version__', '__version_tuple__', 'version', 'version_tuple']\n"
       "__version__ = version = '1.2.3'\n__version_tuple__ = version_tuple = (1, 2, 3)\n")
INIT = ("from tgt.alpha_module import AlphaTransformer, BetaTransformer, GammaTransformer\n"
        "from tgt.delta_module import DeltaReader, EpsilonWriter, ZetaStream\n"
        "__all__ = ['AlphaTransformer', 'BetaTransformer', 'GammaTransformer', 'DeltaReader']\n")


OWN_CODE = ("class LedgerOfOwnCode:\n    \"\"\"Nothing like the upstream.\"\"\"\n\n"
            "    def settle(self, accounts: dict[str, list[float]]) -> float:\n"
            "        return sum(sorted(abs(x) for xs in accounts.values() for x in xs)[:-2])\n")


def _trees() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    upstream = {
        "up/__init__.py": "",
        "up/core.py": APACHE + _body(1),
        "up/third_party/fastlib/kernels.py": _body(2),
        "up/ops/back.py": "# Adapted from\n# https://github.com/tgtorg/tgt/blob/abc/tgt/ops.py\n" + _body(3),
        "up/lic.py": APACHE + _body(4),
        "up/five.py": APACHE + _body(5),
        "up/_version.py": SCM,
        "up/pkg/__init__.py": INIT.replace("tgt.", "up."),
        "pyproject.toml": '[project]\nname = "up"\nurls = {Source = "https://github.com/upstream-org/up"}\n',
    }
    target = {
        "tgt/__init__.py": "",
        "tgt/copied.py": APACHE + _body(1),  # copied with its header: all copied; the header marks it
        "tgt/copied_bare.py": _body(4),  # copied without any header: copied, unmarked
        # copied code under the target's own copyright and the same licence text: only the code is copied
        "tgt/own_notice.py": "# Copyright 2025 TGT Team\n" + APACHE.split("\n", 1)[1] + _body(5),
        "tgt/kernels.py": _body(2),  # third-party code, the target does not name the upstream
        "tgt/kernels_via_up.py": "# Adapted from up (up/third_party/fastlib/kernels.py)\n" + _body(2),
        "tgt/ops.py": _body(3),  # flowed from the target to the upstream
        "tgt/hdr.py": APACHE + OWN_CODE,  # shares only the licence header
        "tgt/_version.py": SCM,
        "tgt/pkg/__init__.py": INIT.replace("tgt.", "up."),
        "pyproject.toml": '[project]\nname = "tgt"\nurls = {Source = "https://github.com/tgtorg/tgt"}\n',
    }
    fastlib = {"fastlib/kernels.py": _body(2)}
    return target, upstream, fastlib


def _run(tmp_path: Path, *extra: str, fastlib: bool = False) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    target, upstream, third = _trees()
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    args = ["compare", str(t), str(u), "--out", str(tmp_path / "out"), "--no-html", "--formats", "none",
            "-q", "--no-cache", "--jobs", "1", *extra]
    if fastlib:
        args += ["--upstream", str(treegen.write_tree(tmp_path / "fastlib", third))]
    assert main(args) == 0
    read = {"keep_default_na": False, "dtype": str}
    lines = pd.read_csv(tmp_path / "out" / "lines.csv", **read)
    files = pd.read_csv(tmp_path / "out" / "files.csv", **read).set_index("target_path")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    return lines, files, summary


def _lines_with(t: Path, u: Path, out: Path, *settings: str) -> pd.DataFrame:
    """lines.csv of a ``compare`` of trees ``t`` and ``u`` (no cache, one job) with each ``--set``
    of ``settings`` (``knob=value``): a rule's tests run it on and off."""
    sets = [arg for setting in settings for arg in ("--set", setting)]
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1", *sets]) == 0
    return pd.read_csv(out / "lines.csv", keep_default_na=False, dtype=str)


def _copied(lines: pd.DataFrame, path: str) -> pd.DataFrame:
    rows = lines[(lines["target_path"] == path) & (lines["kind"] != "blank")]
    return rows[rows["match"] != "none"]


def test_gate_end_to_end(tmp_path: Path) -> None:
    lines, files, summary = _run(tmp_path)
    n_body = len(_body(1).strip().split("\n")) - 5  # non-blank lines of a body (5 blank separators)
    # own code copied with its header: every non-blank line copied, the header inside copied code
    assert len(_copied(lines, "tgt/copied.py")) == n_body + 6
    assert int(files.loc["tgt/copied.py", "header_copied_lines"]) == 6
    assert len(_copied(lines, "tgt/own_notice.py")) == n_body
    assert int(files.loc["tgt/own_notice.py", "header_copied_lines"]) == 0
    # third-party code: none, shared, with the upstream's evidence
    k = lines[(lines["target_path"] == "tgt/kernels.py") & (lines["kind"] != "blank")]
    assert (k["match"] == "none").all()
    assert set(k["shared_origin"]) == {"third_party:fastlib"}
    assert set(k["shared_path"]) == {"up/third_party/fastlib/kernels.py"}
    assert files.loc["tgt/kernels.py", "shared_evidence"] == "folder up/third_party/"
    assert int(files.loc["tgt/kernels.py", "shared_third_party_code_lines"]) == n_body
    # ... unless the target file says it took it via the upstream
    assert len(_copied(lines, "tgt/kernels_via_up.py")) == n_body
    # reverse flow: none, shared from_target
    o = lines[(lines["target_path"] == "tgt/ops.py") & (lines["kind"] != "blank")]
    assert (o["match"] == "none").all() and set(o["shared_origin"]) == {"from_target"}
    assert files.loc["tgt/ops.py", "shared_evidence"].startswith("line 1: Adapted from")
    # header only: nothing copied; the shared SPDX and copyright lines reported apart
    assert len(_copied(lines, "tgt/hdr.py")) == 0
    assert int(files.loc["tgt/hdr.py", "header_shared_lines"]) == 2
    assert files.loc["tgt/hdr.py", "header_upstream_path"] in {"up/core.py", "up/lic.py"}
    # a generated version file: none, shared generated, not listed
    v = lines[(lines["target_path"] == "tgt/_version.py") & (lines["kind"] != "blank")]
    assert (v["match"] == "none").all() and set(v["shared_origin"]) == {"generated"}
    assert files.loc["tgt/_version.py", "file_role"] == "generated"
    # a re-export-only file keeps its labels but is not evidence on its own
    assert files.loc["tgt/pkg/__init__.py", "file_role"] == "reexport"
    lists = summary["lists"]
    # "Copyright ... The up authors" names the upstream's authors, so the copied header marks its file
    assert lists["unmarked_with_copied"] == ["tgt/copied_bare.py", "tgt/own_notice.py"]
    assert lists["marked_with_copied"] == ["tgt/copied.py", "tgt/kernels_via_up.py"]
    assert lists["reexport_with_copied"] == (["tgt/pkg/__init__.py"] if len(_copied(lines, "tgt/pkg/__init__.py"))
                                             else [])
    assert lists["shared_third_party"] == ["tgt/kernels.py"]
    assert lists["shared_from_target"] == ["tgt/ops.py"]
    # every listed file holds copied code; figures agree with lines.csv
    code = lines[(lines["kind"] == "code") & (lines["match"] != "none")]
    assert set(lists["unmarked_with_copied"] + lists["marked_with_copied"]) <= set(code["target_path"])
    assert summary["shared"]["third_party"]["code_lines"] == n_body
    assert summary["shared"]["third_party"]["by_name"]["fastlib"]["files"] == 1
    assert summary["shared"]["from_target"]["code_lines"] == n_body
    assert {"tgt", "tgtorg/tgt", "tgt-src"} <= set(summary["target_names"])  # package, repository, label
    origins = {o["path"]: o["origin"] for o in summary["upstream_origins"]}
    assert origins == {"up/third_party/fastlib/kernels.py": THIRD_PARTY, "up/ops/back.py": FROM_TARGET}
    # every copied line is in a region, and every region line is copied
    regions = pd.read_csv(tmp_path / "out" / "regions.csv", keep_default_na=False)
    copied = lines[lines["match"] != "none"]
    assert len(copied) == regions["verbatim_lines"].sum() + regions["near_lines"].sum()


def test_a_further_upstream_for_the_third_party_takes_its_lines(tmp_path: Path) -> None:
    lines, files, summary = _run(tmp_path, fastlib=True)
    k = _copied(lines, "tgt/kernels.py")
    assert len(k) == len(_body(2).strip().split("\n")) - 5
    assert set(k["upstream"]) == {"fastlib"} and (k["shared_origin"] == "").all()


def test_a_section_from_the_target_is_shared_not_copied(tmp_path: Path) -> None:
    # an own upstream file one function of which says it came from the target: the target file
    # that holds both functions and names nothing has the rest copied, that function shared
    section = ("# Adapted from: https://github.com/tgtorg/tgt/pull/2628\n"
               "def config_file_name(experts, width, dtype_name):\n"
               "    device_label = current_device_label().replace(' ', '_')\n"
               "    dtype_part = '' if not dtype_name else f',dtype={dtype_name}'\n"
               "    return f'E={experts},N={width},device_name={device_label}{dtype_part}.json'\n")
    upstream = {"up/__init__.py": "", "up/moe.py": _body(31) + "\n\n" + section,
                "pyproject.toml": '[project]\nname = "up"\n'}
    target = {"tgt/__init__.py": "", "tgt/moe_config.py": _body(31) + "\n\n" + section.split("\n", 1)[1],
              "pyproject.toml": '[project]\nname = "tgt"\nurls = {Source = "https://github.com/tgtorg/tgt"}\n'}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    assert main(["compare", str(t), str(u), "--out", str(tmp_path / "out"), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    read = {"keep_default_na": False, "dtype": str}
    lines = pd.read_csv(tmp_path / "out" / "lines.csv", **read)
    mine = lines[(lines["target_path"] == "tgt/moe_config.py") & (lines["kind"] == "code")]
    n_body = len([x for x in _body(31).split("\n") if x.strip()])
    body, tail = mine.head(n_body), mine.tail(4)
    assert (body["match"] == "verbatim").all() and (body["shared_origin"] == "").all()
    assert (tail["match"] == "none").all() and set(tail["shared_origin"]) == {"from_target"}
    files = pd.read_csv(tmp_path / "out" / "files.csv", **read).set_index("target_path")
    assert files.loc["tgt/moe_config.py", "shared_from_target_code_lines"] == "4"
    at = upstream["up/moe.py"].split("\n").index(section.split("\n")[0]) + 1  # the marker's line
    assert files.loc["tgt/moe_config.py", "shared_evidence"].startswith(f"line {at}: Adapted from: https://github")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["format_version"] >= 6  # "lines" in upstream_origins since format 6
    assert [(o["path"], o["origin"], o["line"], o["lines"]) for o in summary["upstream_origins"]] == [
        ("up/moe.py", FROM_TARGET, at, [at, at + 4])]
    assert summary["lists"]["shared_from_target"] == ["tgt/moe_config.py"]
    assert summary["lists"]["unmarked_with_copied"] == ["tgt/moe_config.py"]


def test_an_upstream_that_vendors_the_target_shares_its_copy_not_copies(tmp_path: Path) -> None:
    # pytest 2.8 carried pluggy, extracted from it, at ``_pytest/vendored_packages/pluggy.py``:
    # compared against that release, pluggy's module is the source of pytest's copy
    module = _body(8)
    upstream = {"up/__init__.py": "", "up/vendored_packages/__init__.py": "",
                "up/vendored_packages/tgt.py": module, "pyproject.toml": '[project]\nname = "up"\n'}
    target = {"tgt.py": module, "pyproject.toml": '[project]\nname = "tgt"\n'}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    lines = pd.read_csv(out / "lines.csv", keep_default_na=False, dtype=str)
    code = lines[(lines["target_path"] == "tgt.py") & (lines["kind"] == "code")]
    assert len(code) > 15 and (code["match"] == "none").all() and set(code["shared_origin"]) == {"from_target"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["lists"]["shared_from_target"] == ["tgt.py"] and summary["lists"]["unmarked_with_copied"] == []
    # a folder's evidence has no line to name
    assert "| `up/vendored_packages/tgt.py` | folder up/vendored_packages/ |" in (out / "summary.md").read_text()


def test_target_name_overrides(tmp_path: Path) -> None:
    lines, _, summary = _run(tmp_path, "--target-name", "someone-else")
    assert summary["target_names"] == ["someone-else"]
    # the upstream file no longer names the target: its header names another project
    o = lines[(lines["target_path"] == "tgt/ops.py") & (lines["kind"] != "blank")]
    assert set(o["shared_origin"]) == {"third_party:tgt"}


def test_empty_target_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target, upstream, _ = _trees()
    t = treegen.write_tree(tmp_path / "t", target)
    u = treegen.write_tree(tmp_path / "u", upstream)
    assert main(["compare", str(t), str(u), "--out", str(tmp_path / "o"), "--target-name", " ", "-q"]) == 2
    assert capsys.readouterr().err.startswith("lineage: error: --target-name")


def test_a_repository_slug_names_another_project_as_a_url_does() -> None:
    text = ('"""Vendored so the model loads without remote code.\n\n'
            "Adapted verbatim from the ``MiniMaxAI/Minimax-M3-preview`` repository files.\n"
            '"""\n' + _body(1))
    o = _origin("up/processors/mm.py", text)
    assert (o.kind, o.name, o.line) == (THIRD_PARTY, "Minimax-M3-preview", 3)
    assert _origin("up/store/data.py", "# Adapted from other-org/other-tool\n" + _body(1)).name == "other-tool"
    # a project named without a repository says whose model the file implements: not read
    assert _origin("up/models/llama.py", "# This code is based on EleutherAI's GPT-NeoX library.\n"
                   + _body(1)).kind == OWN
    # a word pair in prose is no slug; nor is a slug that is not the phrase's source
    assert _origin("up/a.py", "# Adapted from the input/output helpers\n" + _body(1)).kind == OWN
    assert _origin("up/b.py", "# Adapted from our loader, see Other/Repo\n" + _body(1)).kind == OWN
    # a slug naming the upstream itself is the upstream's own code
    assert _origin("up/c.py", "# Adapted from upstream-org/up\n" + _body(1)).kind == OWN


def test_a_hugging_face_hub_file_url_names_another_project() -> None:
    o = _origin("up/tokenizers/enc.py", "# copy from https://huggingface.co/some-org/Some-Model-2/blob/main/"
                "encoding/enc.py\n" + _body(1))
    assert (o.kind, o.name, o.line) == (THIRD_PARTY, "Some-Model-2", 1)
    # a Hub URL without a file names a model, not code
    assert _origin("up/models/m.py", "# Adapted from https://huggingface.co/some-org/Some-Model-2\n"
                   + _body(1)).kind == OWN


def test_marker_scope() -> None:
    lines = ["# Adapted from x", "import os", "", "def a():", "    return 1", "",
             "# Adapted from up", "# (the kernels below)", "def b():", "    # inner comment", "    return 2",
             "def c():", "    return 3", "", "# section two", "def d():", "    return 4"]
    f = _index("t.py", "\n".join(lines) + "\n")
    header = 3  # lines before the first def
    # a marker in the header speaks for the whole file
    assert marker_scope(f, lines, [1], header).all()
    # a marker further down: its section, from the marker to the next column-0 comment
    scope = marker_scope(f, lines, [7], header)
    assert [r + 1 for r in range(len(lines)) if scope[r]] == list(range(7, 15))
    assert not marker_scope(f, lines, [], header).any()


def test_marker_scope_stops_at_the_next_top_level_class() -> None:
    """``origin_section_class_stop``: a marker below the header speaks for the definitions it
    heads up to the next top-level class, not on to the next column-0 comment (sglang's
    fla/fused_recurrent.py: "Adapted from vllm project." above the packed-decode kernels, and
    flash-linear-attention's own ``FusedRecurrentFunction`` class 540 lines further down)."""
    lines = ["# Adapted from x", "import os", "", "def a():", "    return 1", "",
             "# Adapted from up", "def b():", "    return 2", "", "def c():", "    return b()", "",
             "class D:", "    x = 1", "", "def e():", "    return 4", "",
             "# Adapted from up", "class F:", "    y = 2", "", "class G:", "    z = 3"]
    f = _index("t.py", "\n".join(lines) + "\n")
    header = 3
    def lines_of(scope):  # type: ignore[no-untyped-def]
        return [r + 1 for r in range(len(lines)) if scope[r]]
    # without the stop: from the marker to the next column-0 comment
    assert lines_of(marker_scope(f, lines, [7], header)) == list(range(7, 20))
    # with it: the functions below the marker, not the class after them nor what follows it
    assert lines_of(marker_scope(f, lines, [7], header, class_stop=True)) == list(range(7, 14))
    # a marker heading a class speaks for that class, up to the next one
    assert lines_of(marker_scope(f, lines, [20], header, class_stop=True)) == list(range(20, 24))
    # a marker inside a definition: from it to the next class after that definition
    assert lines_of(marker_scope(f, lines, [9], header, class_stop=True)) == list(range(9, 14))
    # the header still speaks for everything
    assert marker_scope(f, lines, [1], header, class_stop=True).all()


def test_a_marker_below_the_header_exempts_only_its_section(tmp_path: Path) -> None:
    target, upstream, _ = _trees()
    body = _body(2)  # the third-party file's code (up/third_party/fastlib/kernels.py)
    cut = body.index("def transform_2_3")
    # three functions of third-party code, then three the target says it took via the upstream
    target = {"tgt/__init__.py": "", "pyproject.toml": target["pyproject.toml"],
              "tgt/mixed.py": body[:cut] + "# Adapted from up (up/third_party/fastlib/kernels.py)\n" + body[cut:]}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    assert main(["compare", str(t), str(u), "--out", str(tmp_path / "out"), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    lines = pd.read_csv(tmp_path / "out" / "lines.csv", keep_default_na=False, dtype=str)
    rows = lines[(lines["target_path"] == "tgt/mixed.py") & (lines["kind"] == "code")]
    marker_line = body[:cut].count("\n") + 1
    above = rows[rows["line"].astype(int) < marker_line]
    below = rows[rows["line"].astype(int) > marker_line]
    assert len(above) == 9 and len(below) == 9
    assert (above["match"] == "none").all() and set(above["shared_origin"]) == {"third_party:fastlib"}
    assert (below["match"] != "none").all() and (below["shared_origin"] == "").all()


_THIRD_PARTY_CLASS = (
    "class Accumulator_2:\n"
    "    def __init__(self, seed_total=17, decay_rate=0.875):\n"
    "        self.running_total = seed_total * decay_rate + 3\n"
    "        self.history_of_totals = [self.running_total]\n\n"
    "    def absorb(self, incoming_value):\n"
    "        self.running_total = self.running_total * 0.875 + incoming_value\n"
    "        self.history_of_totals.append(self.running_total)\n"
    "        return self.running_total - len(self.history_of_totals) // 2\n"
)


def test_a_marker_below_the_header_does_not_exempt_a_class_after_its_functions(tmp_path: Path) -> None:
    """The target says three functions of the third party's file came via the upstream; the
    third party's class after them, with no comment between, is still the third party's code
    the upstream vendors (``origin_section_class_stop``); off, the marker's section ran on to the
    end of the file and the class counted as copied from the upstream."""
    target, upstream, _ = _trees()
    body = _body(2)
    cut = body.index("def transform_2_3")
    upstream["up/third_party/fastlib/kernels.py"] = body + "\n" + _THIRD_PARTY_CLASS
    target = {"tgt/__init__.py": "", "pyproject.toml": target["pyproject.toml"],
              "tgt/mixed.py": body[:cut] + "# Adapted from up (up/third_party/fastlib/kernels.py)\n" + body[cut:]
              + "\n" + _THIRD_PARTY_CLASS}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    text = target["tgt/mixed.py"]
    class_line = text[:text.index("class Accumulator_2")].count("\n") + 1
    marker_line = body[:cut].count("\n") + 1
    for stop in (1, 0):
        lines = _lines_with(t, u, tmp_path / f"out{stop}", f"origin_section_class_stop={stop}")
        rows = lines[(lines["target_path"] == "tgt/mixed.py") & (lines["kind"] == "code")]
        at = rows["line"].astype(int)
        section, klass = rows[(at > marker_line) & (at < class_line)], rows[at >= class_line]
        assert len(section) == 9 and len(klass) == 8
        assert (section["match"] != "none").all() and (section["shared_origin"] == "").all()
        if stop:
            assert (klass["match"] == "none").all() and set(klass["shared_origin"]) == {"third_party:fastlib"}
        else:
            assert (klass["match"] != "none").all() and (klass["shared_origin"] == "").all()


def test_vendored_root_is_the_folder_holding_the_upstream_file_at_its_own_path() -> None:
    folders = P.vendor_folder_names
    assert vendored_root("pip/_vendor/rich/filesize.py", "rich/filesize.py", folders) == "pip/_vendor"
    assert vendored_root("pip/_vendor/six.py", "six.py", folders) == "pip/_vendor"
    assert vendored_root("tgt/third_party/up/ops.py", "src/up/ops.py", folders) == "tgt/third_party"  # src layout
    # another place, another file name, or no vendor folder: the layout names nothing
    assert vendored_root("pip/_vendor/rich/filesize.py", "other/filesize.py", folders) is None
    assert vendored_root("pip/_vendor/rich/filesize.py", "lib/rich/filesize.py", folders) is None
    assert vendored_root("pip/rich/filesize.py", "rich/filesize.py", folders) is None
    assert vendored_root("pip/_vendor/rich/filesize.py", "filesize.py", folders) is None


def test_a_vendored_copy_of_a_third_party_upstream_file_is_copied_from_the_upstream(tmp_path: Path) -> None:
    # rich's filesize.py says it was borrowed from pyfilesystem2; pip vendors rich at
    # pip/_vendor/rich/: what its copy shares with rich's file was taken from rich.
    upstream = {"up/__init__.py": "", "up/_version.py": SCM,
                "up/ops/borrowed.py": "# Borrowed from https://github.com/someorg/otherlib\n" + _body(6)}
    target = {"tgt/__init__.py": "", "tgt/_vendor/up/ops/borrowed.py": _body(6), "tgt/borrowed.py": _body(6),
              "tgt/_vendor/up/_version.py": SCM, "tgt/_version.py": SCM}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    n_body = len(_body(6).strip().split("\n")) - 5
    for exempts, vendored_copied in ((1, n_body), (0, 0)):
        # a vendored copy's path ends with the upstream file's: its place exempts it too
        lines = _lines_with(t, u, tmp_path / f"out{exempts}", f"origin_vendored_path_exempts={exempts}",
                            f"origin_same_place_exempts={exempts}")
        assert len(_copied(lines, "tgt/_vendor/up/ops/borrowed.py")) == vendored_copied
        # the same code elsewhere in the target is the third party's, shared through the upstream
        loose = lines[(lines["target_path"] == "tgt/borrowed.py") & (lines["kind"] != "blank")]
        assert (loose["match"] == "none").all() and set(loose["shared_origin"]) == {"third_party:otherlib"}
        # the upstream's generated version file: a vendored copy of it was copied; the target's
        # own one was generated by the target's build, as the upstream's was
        code = lines[lines["kind"] == "code"]
        vendored_version = code[code["target_path"] == "tgt/_vendor/up/_version.py"]
        assert set(vendored_version["match"]) == ({"verbatim"} if exempts else {"none"})
        own_version = code[code["target_path"] == "tgt/_version.py"]
        assert set(own_version["match"]) == {"none"} and set(own_version["shared_origin"]) == {"generated"}


def test_a_file_at_the_upstream_files_own_place_took_its_third_party_code_via_the_upstream(tmp_path: Path) -> None:
    # PyPDF2's pagerange.py carries its contributor's copyright, so it is third-party code by its
    # header; a fork that renamed the package keeps the file at its place: taken via the upstream.
    # A folder the upstream vendors stays the third party's, even at its renamed place.
    own = "# Copyright (c) 2020 Up Team\n"
    upstream = {"up/__init__.py": "", "up/pagerange.py": "# Copyright (c) 2014, Some Contributor\n" + _body(7),
                "up/third_party/lib/kernel.py": "# Copyright (c) 2019 Other Lab\n" + _body(8),
                "tests/helpers.py": "# Adapted from https://github.com/other/testlib\n" + _body(9),
                **{f"up/m{k}.py": own + _body(k) for k in range(1, 4)}}
    # tests/helpers.py: the same path in both trees, outside the upstream's packages, adapted by
    # both from one third party; a shared path says nothing of where it came from
    target = {"tgt/__init__.py": "", "tgt/pagerange.py": "# Copyright (c) 2014, Some Contributor\n" + _body(7),
              "tgt/third_party/lib/kernel.py": "# Copyright (c) 2019 Other Lab\n" + _body(8),
              "tests/helpers.py": "# Adapted from https://github.com/other/testlib\n" + _body(9),
              **{f"tgt/m{k}.py": own + _body(k) for k in range(1, 4)}}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    n_body = len(_body(7).strip().split("\n")) - 5
    for exempts in (1, 0):
        lines = _lines_with(t, u, tmp_path / f"out{exempts}", f"origin_same_place_exempts={exempts}")
        code = lines[(lines["target_path"] == "tgt/pagerange.py") & (lines["kind"] == "code")]
        if exempts:
            assert len(_copied(lines, "tgt/pagerange.py")) >= n_body and set(code["match"]) == {"verbatim"}
            assert set(code["upstream_path"]) == {"up/pagerange.py"}
        else:
            assert set(code["match"]) == {"none"}
            assert set(code["shared_origin"]) == {"third_party:Some Contributor"}
        kernel = lines[(lines["target_path"] == "tgt/third_party/lib/kernel.py") & (lines["kind"] == "code")]
        assert set(kernel["match"]) == {"none"} and set(kernel["shared_origin"]) == {"third_party:lib"}
        helpers = lines[(lines["target_path"] == "tests/helpers.py") & (lines["kind"] == "code")]
        assert set(helpers["match"]) == {"none"} and set(helpers["shared_origin"]) == {"third_party:testlib"}
        assert len(_copied(lines, "tgt/m1.py")) > 0  # the rename's other files, copied either way


def test_a_part_of_a_module_split_below_a_renamed_folder_stands_at_no_place_of_it(tmp_path: Path) -> None:
    # The renamed fork split the contributor's module up/pagerange.py into the package
    # tgt/pagerange/: a part of it stands at no upstream file's place (``fill_module_split``
    # reads it as the module's later version, the gate's same-place exemption does not), so its
    # code is the third party's, as the same code in a file elsewhere is, with the rule on or off.
    own = "# Copyright (c) 2020 Up Team\n"
    borrowed = "# Copyright (c) 2014, Some Contributor\n" + _body(7)
    upstream = {"up/__init__.py": "", "up/pagerange.py": borrowed,
                **{f"up/m{k}.py": own + _body(k) for k in range(1, 5)}}
    target = {"tgt/__init__.py": "", "tgt/pagerange/part.py": borrowed, "tgt/elsewhere.py": borrowed,
              **{f"tgt/m{k}.py": own + _body(k) for k in range(1, 5)}}
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    for split in (1, 0):
        lines = _lines_with(t, u, tmp_path / f"out{split}", f"fill_module_split={split}")
        assert len(_copied(lines, "tgt/m1.py")) > 0  # the rename shows
        for path in ("tgt/pagerange/part.py", "tgt/elsewhere.py"):
            code = lines[(lines["target_path"] == path) & (lines["kind"] == "code")]
            assert set(code["match"]) == {"none"}
            assert set(code["shared_origin"]) == {"third_party:Some Contributor"}


def test_project_names_of_a_checkout_without_a_project_table() -> None:
    """discord.py's checkout declares its author in setup.py only (pyproject.toml holds tool
    settings): its copyright lines 'Copyright (c) 2015-present Rapptz' name it then."""
    from lineage.index.project import _from_setup_cfg, _from_setup_py

    setup_py = (b"from setuptools import setup\nversion = '1.7.0'\n"
                b"setup(name='discord.py', author='Rapptz', url='https://github.com/Rapptz/discord.py',\n"
                b"      project_urls={'Issue tracker': 'https://github.com/Rapptz/discord.py/issues'},\n"
                b"      version=version, packages=['discord'])\n")
    info = _from_setup_py(setup_py)
    assert (info.name, info.repositories, info.authors) == ("discord.py", ("Rapptz/discord.py",), ("Rapptz",))
    assert _from_setup_py(b"import os\nos.system('never run')\n") == _from_setup_py(b"def broken(:\n")
    cfg = b"[metadata]\nname = attrs\nauthor = Hynek Schlawack\nurl = https://github.com/python-attrs/attrs\n"
    info = _from_setup_cfg(cfg)
    assert (info.name, info.repositories, info.authors) == ("attrs", ("python-attrs/attrs",), ("Hynek Schlawack",))


# a pyproject.toml that names no project: tool settings only, or requirements only
@pytest.mark.parametrize("pyproject", ["[tool.black]\nline-length = 120\n", '[project]\ndependencies = ["aiohttp"]\n'])
def test_a_checkout_falls_back_from_pyproject_to_setup_py(tmp_path: Path, pyproject: str) -> None:
    from lineage.index.project import read_project
    from lineage.sources import open_source

    root = treegen.write_tree(tmp_path / "dpy", {
        "pyproject.toml": pyproject,
        "setup.py": "from setuptools import setup\nsetup(name='discord.py', author='Rapptz')\n",
        "discord/__init__.py": "VALUE = 1\n"})
    with open_source(str(root), tmp_path / "cache") as source:
        assert read_project(source).authors == ("Rapptz",)


def test_figures_and_obligations_read_only_the_paired_rows(tmp_path: Path) -> None:
    """A rerun that reused the table cache computes the figures and the obligations from the
    paired rows alone (:func:`lineage.results.reuse.paired_rows`); on a comparison holding
    every kind of row (copied, third-party, from the target, header, generated, none) they must
    be those of the whole lines table, or a rerun's figures would differ from a cold run's."""
    from lineage.api import compare
    from lineage.results import figures, reuse
    from lineage.results.obligations import build_obligations
    from lineage.settings import RunSettings

    target, upstream, _ = _trees()
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "up-src", upstream)
    c = compare(str(t), [str(u)], settings=RunSettings(use_cache=False, jobs=1))
    lines = c.lines
    assert {"third_party:fastlib", "from_target", "header", "generated"} <= set(lines["shared_origin"])
    assert (lines["match"] == "none").any() and (lines["match"] != "none").any()
    paired = reuse.paired_rows(lines)
    assert len(paired) < len(lines)
    assert figures.per_upstream(paired) == figures.per_upstream(lines)
    assert figures.shared_figures(c.files, paired) == figures.shared_figures(c.files, lines)
    whole = build_obligations(c.target, c.upstreams, c.upstream_names, lines, c.files, c.params.licence_head_lines,
                              release_holder_files=c.params.licence_release_holder_files)
    part = build_obligations(c.target, c.upstreams, c.upstream_names, paired, c.files, c.params.licence_head_lines,
                              release_holder_files=c.params.licence_release_holder_files)
    assert not whole.empty and part.equals(whole)


def test_a_community_link_of_a_checkouts_setup_files_names_no_repository() -> None:
    """setup.cfg's and setup.py's project_urls are read as Project-URL fields are: a 'Q & A' link
    to another project's discussions (typing_extensions') makes that project none of the names."""
    from lineage.index.project import _from_setup_cfg, _from_setup_py

    cfg = (b"[metadata]\nname = typing_extensions\nproject_urls =\n"
           b"    Repository = https://github.com/python/typing_extensions\n"
           b"    Q & A = https://github.com/python/typing/discussions\n")
    assert _from_setup_cfg(cfg).repositories == ("python/typing_extensions",)
    setup_py = (b"from setuptools import setup\nsetup(name='typing_extensions', project_urls={\n"
                b"    'Repository': 'https://github.com/python/typing_extensions',\n"
                b"    'Q & A': 'https://github.com/python/typing/discussions'})\n")
    assert _from_setup_py(setup_py).repositories == ("python/typing_extensions",)


def _third_party_run(tmp_path: Path, target: dict[str, str], upstream: dict[str, str], *extra: str) -> pd.DataFrame:
    """lines.csv rows of ``tgt/m.py`` from ``lineage compare`` of the two trees (written once under
    ``tmp_path``) with the further arguments ``extra``."""
    t, u = tmp_path / "tgt-src", tmp_path / "up-src"
    if not t.exists():
        treegen.write_tree(t, target)
        treegen.write_tree(u, upstream)
    out = tmp_path / f"out{len(extra)}"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none", "-q",
                 "--no-cache", "--jobs", "1", *extra]) == 0
    lines = pd.read_csv(out / "lines.csv", keep_default_na=False, dtype=str)
    return lines[lines["target_path"] == "tgt/m.py"]


def test_a_third_party_upstream_takes_only_its_own_lines_of_an_adaptation(tmp_path: Path) -> None:
    # the upstream's model "adapted from" the third party holds the third party's helper and code
    # of its own; a target that copied both, naming nothing, shares the helper with the third
    # party and copied the rest from the upstream, once the third party is an upstream too
    helper = _body(41)
    own = _body(42).replace("return intermediate_", "return -intermediate_")  # no line the helper has
    upstream = {"up/__init__.py": "", "pyproject.toml": '[project]\nname = "up"\n',
                "up/models/m.py": "# Adapted from https://github.com/thirdorg/thirdlib/blob/main/m.py\n" + helper + own}
    thirdlib = {"thirdlib/__init__.py": "", "thirdlib/m.py": helper}
    target = {"tgt/__init__.py": "", "tgt/m.py": helper + own,
              "pyproject.toml": '[project]\nname = "tgt"\n'}
    third = treegen.write_tree(tmp_path / "thirdlib", thirdlib)

    def labels(*extra: str) -> pd.DataFrame:
        lines = _third_party_run(tmp_path, target, upstream, *extra)
        return lines[lines["kind"] == "code"]

    n = len([x for x in helper.split("\n") if x.strip()])
    alone = labels()
    assert (alone["match"] == "none").all() and set(alone["shared_origin"]) == {"third_party:thirdlib"}
    both = labels("--upstream", str(third))
    head = both.head(n)  # the third party's own lines: shared with it (or copied from it), never vLLM-like copies
    assert set(head["upstream"]) <= {"", "thirdlib"} and set(head.loc[head["upstream"] == "", "shared_origin"]) <= {
        "third_party:thirdlib"}
    assert (both.tail(len(both) - n)["match"] == "verbatim").all()  # the upstream's own code, copied
    assert set(both.tail(len(both) - n)["upstream_path"]) == {"up/models/m.py"}
    off = labels("--upstream", str(third), "--set", "origin_third_party_lines=0")
    assert (off.tail(len(off) - n)["match"] == "none").all()


def test_a_target_naming_the_third_party_took_all_shared_lines_from_it(tmp_path: Path) -> None:
    """seaborn 0.13.2's docscrape.py carries numpydoc's copyright; scipy 1.14.1's _docscrape.py is
    "copied from numpydoc/docscrape.py", both older than numpydoc 1.8.0's re-quoted file. With
    numpydoc as an upstream, the 205 lines 1.8.0 lacks counted as scipy's own code copied into
    seaborn. A target file that names the third party and not the upstream took them from the
    third party: a line its release at hand lacks is another release's."""
    helper = _body(44)
    older = _body(45).replace("return intermediate_", "return -intermediate_")  # what the release at hand lacks
    upstream = {"up/__init__.py": "", "pyproject.toml": '[project]\nname = "up"\n',
                "up/models/m.py": "# Copied from https://github.com/thirdorg/thirdlib/blob/main/m.py\n"
                + helper + older}
    thirdlib = {"thirdlib/__init__.py": "", "thirdlib/m.py": helper}
    target = {"tgt/__init__.py": "", "pyproject.toml": '[project]\nname = "tgt"\n',
              "tgt/m.py": "# Taken from https://github.com/thirdorg/thirdlib/blob/main/m.py\n" + helper + older}
    third = treegen.write_tree(tmp_path / "thirdlib", thirdlib)
    lines = _third_party_run(tmp_path, target, upstream, "--upstream", str(third))
    code = lines[lines["kind"] == "code"]
    assert "up" not in set(code["upstream"])  # nothing counted as the upstream's own
    n = len([x for x in helper.split("\n") if x.strip()])
    tail = code.tail(len(code) - n)
    assert (tail["match"] == "none").all() and set(tail["shared_origin"]) == {"third_party:thirdlib"}


def test_a_third_party_upstream_takes_only_its_own_lines_of_a_section_too(tmp_path: Path) -> None:
    # the same, with the "adapted from" marker inside the one function it speaks for (a section)
    helper = "def third_helper(values):\n    ordered = sorted(values, key=abs)\n    return ordered[::-1]\n"
    own = ("def third_helper_scaled(values):\n    # Adapted from https://github.com/thirdorg/thirdlib/blob/main/m.py\n"
           "    ordered = sorted(values, key=abs)\n    scaled_values = [v * 17.5 for v in ordered]\n"
           "    return scaled_values[::-1]\n")
    upstream = {"up/__init__.py": "", "pyproject.toml": '[project]\nname = "up"\n',
                "up/models/m.py": _body(43) + own}
    thirdlib = {"thirdlib/__init__.py": "", "thirdlib/m.py": helper}
    target = {"tgt/__init__.py": "", "tgt/m.py": _body(43) + own.replace("    # Adapted from https://github.com/"
                                                                           "thirdorg/thirdlib/blob/main/m.py\n", ""),
              "pyproject.toml": '[project]\nname = "tgt"\n'}
    third = treegen.write_tree(tmp_path / "thirdlib", thirdlib)

    def section(*extra: str) -> pd.DataFrame:
        return _third_party_run(tmp_path, target, upstream, *extra).set_index("line").tail(4)  # its 4 code lines

    alone = section()
    assert (alone["match"] == "none").all() and set(alone["shared_origin"]) == {"third_party:thirdlib"}
    both = section("--upstream", str(third))
    # the line thirdlib holds stays shared with it; the section's other lines are the upstream's own
    assert both.iloc[1]["match"] == "none" and both.iloc[1]["shared_origin"] == "third_party:thirdlib"
    assert (both.iloc[[0, 2, 3]]["match"] != "none").all()
    assert set(both.iloc[[0, 2, 3]]["upstream_path"]) == {"up/models/m.py"}


def test_an_older_release_of_the_targets_own_project_is_its_own_code(tmp_path: Path) -> None:
    """jinja2 3.1.4 against jinja2 2.10: the newer release's repository (pallets/jinja) names it
    "jinja", which 2.10's metadata never declared, and 2.10's files' "(c) 2017 by the Jinja Team"
    made all 23 of them code taken from the target (2.8 % copied code; 73.5 % once they are
    2.10's own). A release of the target's own project carries the target's names."""
    header = '"""\n    :copyright: (c) 2017 by the Tmpl Team.\n"""\n'
    upstream = {"tmpl2/__init__.py": "", "tmpl2/core.py": header + _body(1),
                "pyproject.toml": '[project]\nname = "tmpl2"\n'}
    target = {"tmpl2/__init__.py": "", "tmpl2/core.py": _body(1),
              "pyproject.toml": '[project]\nname = "tmpl2"\nurls = {Source = "https://github.com/palace/tmpl"}\n'}
    t = treegen.write_tree(tmp_path / "new", target)
    u = treegen.write_tree(tmp_path / "old", upstream)
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert "tmpl" in summary["target_names"]  # from the repository only the target declares
    assert summary["upstream_origins"] == []
    lines = pd.read_csv(out / "lines.csv", keep_default_na=False, dtype=str)
    assert len(_copied(lines, "tmpl2/core.py")) == len(_body(1).strip().split("\n")) - 5
    # another project's release naming the target's authors is still code taken from the target
    other = dict(upstream, **{"pyproject.toml": '[project]\nname = "other"\n'})
    u2 = treegen.write_tree(tmp_path / "other", other)
    assert main(["compare", str(t), str(u2), "--out", str(tmp_path / "out2"), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    summary = json.loads((tmp_path / "out2" / "summary.json").read_text())
    assert [o["origin"] for o in summary["upstream_origins"]] == [FROM_TARGET]


def test_two_unrelated_folders_of_one_name_are_no_one_project(tmp_path: Path) -> None:
    """A folder's label is its name: ``a/src`` and ``b/src`` without metadata are no releases of
    one project, so an upstream file whose header credits the target stays taken from it."""
    header = "# Adapted from https://github.com/acme/tgtpkg/blob/main/tgtpkg/core.py\n"
    t = treegen.write_tree(tmp_path / "a" / "src", {"tgtpkg/__init__.py": "", "tgtpkg/core.py": _body(1)})
    u = treegen.write_tree(tmp_path / "b" / "src", {"uppkg/__init__.py": "", "uppkg/core.py": header + _body(1)})
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert [(o["path"], o["origin"]) for o in summary["upstream_origins"]] == [("uppkg/core.py", "from_target")]


def test_code_copied_from_a_standard_library_module_is_set_apart() -> None:
    """pip 24.2's auth.py: "all code within this function is stolen from shutil.which
    implementation" above a nested function; setuptools 72.1.0's distutils took the same CPython
    lines, which counted as copied from pip (user154)."""
    text = ("import os\n"
            "\n"
            "def find_keyring():\n"
            "    cli = os.environ.get('KEYRING')\n"
            "    # all code within this function is stolen from shutil.which implementation\n"
            "    def path_as_which_sees_it():\n"
            "        path = os.environ.get('PATH', None)\n"
            "        return path\n"
            "    return cli or path_as_which_sees_it()\n"
            "\n"
            "def renames(old, new):\n"
            '    """Implementation borrowed from os.renames()."""\n'
            "    return os.rename(old, new)\n"
            "\n"
            "class Connection:\n"
            '    """Based on :class:`http.client.HTTPConnection` but provides an extra constructor."""\n'
            "    port = 80\n"
            "\n"
            "def own_helper():\n"
            "    # Adapted from os.path.join\n"
            "    return 2\n")
    o = _origin("up/auth.py", text)
    assert o.kind == OWN
    stdlib = "Python standard library"
    assert [(x.start, x.end, x.origin.kind, x.origin.name) for x in o.sections] == [
        (3, 9, THIRD_PARTY, stdlib),  # the span the section rule gives the comment (_marker_span)
        (11, 13, THIRD_PARTY, stdlib),  # "borrowed from os.renames()": the def holding the docstring
    ]  # "Based on" and "Adapted from" a module name an API the code follows: nothing set apart
    assert file_origin(_index("up/auth.py", text), OWN_NAMES, TARGET_NAMES,
                       MatchParams(origin_stdlib_sections=0)).sections == ()
    # another project's file in a folder named like a module (pytest's terminalwriter.py); CPython's file
    pytest_like = ("def f():\n    # This code was initially copied from py 1.8.1, file _io/terminalwriter.py.\n"
                   "    return 1\n")
    assert _origin("up/tw.py", pytest_like).sections == ()
    cpython = "def f():\n    # Copied from CPython 3.5.1 html/entities.py\n    return 1\n"
    assert [x.origin.name for x in _origin("up/compat.py", cpython).sections] == [stdlib]
    # a module of the upstream's own name is its own code
    assert _origin("up/own.py", "def f():\n    # copied from up.helpers\n    return 1\n").sections == ()
    # in the header a module path already names a third party (rule 3), under the module's name
    assert _origin("up/which.py", "# Copied from shutil.which\nimport os\n" + _body(1)).name == "shutil"


_LGPL_PART = ("#\n# This file is part of {name}.\n#\n"
              "# {name} is free software; you can redistribute it and/or modify it under the\n"
              "# terms of the GNU Lesser General Public License as published by the Free\n"
              "# Software Foundation; either version 2.1 of the License, or (at your option)\n"
              "# any later version.\n#\n"
              "# {name} is distributed in the hope that it will be useful, but WITHOUT ANY\n"
              "# WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR\n"
              "# A PARTICULAR PURPOSE.  See the GNU Lesser General Public License for more\n"
              "# details.\n#\n"
              "# You should have received a copy of the GNU Lesser General Public License\n"
              "# along with {name}; if not, write to the Free Software Foundation, Inc.,\n"
              "# 51 Franklin Street, Suite 500, Boston, MA  02110-1335  USA.\n\n"
              "# Note: despite the copyright notice, this was sent in by Ada Quill.\n\n")


def test_a_copied_line_naming_the_copyright_word_does_not_make_the_own_notice_copied(tmp_path: Path) -> None:
    """A fork that put its own copyright line over the upstream's notice, and kept a note below it
    that merely names "the copyright notice": the header is the fork's own notice, as in a file
    without the note; the note names no holder, so it is no copied holder line."""
    head = "# Copyright (C) {years}  {holder}\n" + _LGPL_PART
    up = head.format(years="2003-2007", holder="Robin Pointer <robinpointer@mailhost.com>", name="up") + _body(6)
    own = head.format(years="2011", holder="Jo Forcer <jo@quillworks.org>", name="tgt") + _body(6)
    bare = own.replace("# Note: despite the copyright notice, this was sent in by Ada Quill.\n\n", "")
    t = treegen.write_tree(tmp_path / "t", {"tgt/noted.py": own, "tgt/bare.py": bare})
    u = treegen.write_tree(tmp_path / "u", {"up/noted.py": up, "up/bare.py": up})
    assert main(["compare", str(t), str(u), "--out", str(tmp_path / "out"), "--no-html", "--formats", "none",
                 "-q", "--no-cache", "--jobs", "1"]) == 0
    files = pd.read_csv(tmp_path / "out" / "files.csv", keep_default_na=False, dtype=str).set_index("target_path")
    lines = pd.read_csv(tmp_path / "out" / "lines.csv", keep_default_na=False, dtype=str)
    n_code = len([x for x in _body(6).splitlines() if x.strip() and not x.strip().startswith(("#", '"'))])
    for path in ("tgt/noted.py", "tgt/bare.py"):
        assert int(files.loc[path, "header_copied_lines"]) == 0, path
        header = lines[(lines["target_path"] == path) & (lines["line"].astype(int) <= 17)]
        assert set(header.loc[header["kind"] == "comment", "match"]) == {"none"}, path
        code = lines[(lines["target_path"] == path) & (lines["kind"] == "code")]
        assert (code["match"] != "none").sum() >= n_code - 2, path  # the code itself is copied
