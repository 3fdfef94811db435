"""Where a target keeps an upstream's copyright holders: a holder's tail that names nobody more,
and holders kept partly by the file and partly by its licence files (libcst 1.5.0 against parso
0.8.4, with invented names)."""

from __future__ import annotations

from lineage.licences.licence_file import LicenceFile
from lineage.licences.notices import keeps_holders, named_holder
from lineage.results.obligations import _copyright_kept_in

_UP = ("Copyright (c) <2013-2017> <Ada Sedge and others, see AUTHORS.txt>",
       "Copyright (c) 2001, 2002 Widget Software Foundation; All Rights Reserved")
_FILE = ("Copyright 2004-2005 Sprocket Security, Inc. All Rights Reserved.",
         "Copyright Ada Sedge and Contributors")


def test_a_tail_naming_nobody_more_leaves_the_named_holder() -> None:
    assert named_holder("ada sedge and others see authors.txt") == "ada sedge"
    assert named_holder("ada sedge et al.") == "ada sedge"
    assert named_holder("ada sedge and the other contributors") == "ada sedge"
    assert named_holder("the authors") == "the authors"
    assert named_holder("ada sedge and bo tern") == "ada sedge and bo tern"


def test_and_others_is_kept_by_the_named_holder_and_contributors() -> None:
    assert keeps_holders(_UP[:1], _FILE)
    # the tail names nobody, but a named second party still has to be kept
    assert not keeps_holders(["Copyright 2020 Ada Sedge and Bo Tern"], _FILE)
    assert not keeps_holders(_UP[:1], ["Copyright 2020 Bo Tern and others"])


def test_holders_kept_partly_by_the_file_and_partly_by_the_root_licence() -> None:
    root = LicenceFile(path="LICENSE", role="licence", folder="", sha256="", expression="MIT AND PSF-2.0",
                       copyrights=("Copyright (c) Gizmo Platforms, Inc. and affiliates.", _UP[1]))
    assert _copyright_kept_in(_UP, _FILE, [root]) == "file; root:LICENSE"
    assert _copyright_kept_in(_UP[1:], _FILE, [root]) == "root:LICENSE"
    assert _copyright_kept_in(_UP[:1], _FILE, [root]) == "file"
    # neither keeps the foundation: not kept
    assert _copyright_kept_in(_UP, _FILE, []) == ""
    other = LicenceFile(path="LICENSE", role="licence", folder="", sha256="", expression="MIT",
                        copyrights=("Copyright (c) Gizmo Platforms, Inc. and affiliates.",))
    assert _copyright_kept_in(_UP, _FILE, [other]) == ""
