"""A licence file keeps the copyright notices it reproduces: another project's licence text
appended after the target's own titled licence names holders that are not the target's, but a
copy of that project's code keeps its copyright there (pandas 2.2.3's LICENSE appends
pyperclip's BSD text for ``io/clipboard/__init__.py``)."""

from __future__ import annotations

from lineage.licences.licence_file import read_licence_file
from lineage.results.obligations import _copyright_kept_in

_OWN = ("BSD 3-Clause License\n\nCopyright (c) 2008-2011, Quillwort Capital and Sedge Team\n"
        "All rights reserved.\n\nRedistribution and use in source and binary forms, with or without\n"
        "modification, are permitted provided that the following conditions are met:\n\n"
        "THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ... EVEN IF ADVISED OF THE\n"
        "POSSIBILITY OF SUCH DAMAGE.\n")
_APPENDED = ("Copyright (c) 2014, Moss Fernsby\nAll rights reserved.\n\n"
             "Redistribution and use in source and binary forms, with or without\nmodification, are permitted.\n")
_HOLDER = "Copyright (c) 2014, Moss Fernsby"
_OWN_HOLDER = "Copyright (c) 2008-2011, Quillwort Capital and Sedge Team"


def test_appended_licence_holders_are_retained_not_the_projects() -> None:
    lic = read_licence_file("pkg-1.0.dist-info/LICENSE", (_OWN + _APPENDED).encode())
    assert lic.copyrights == (_OWN_HOLDER,)
    assert lic.retained_copyrights == (_HOLDER,)


def test_a_licence_file_without_appended_parts_retains_nothing_more() -> None:
    lic = read_licence_file("pkg-1.0.dist-info/LICENSE", _OWN.encode())
    assert (lic.copyrights, lic.retained_copyrights) == ((_OWN_HOLDER,), ())


def test_a_copy_keeps_its_copyright_in_the_appended_licence() -> None:
    root = read_licence_file("pkg-1.0.dist-info/LICENSE", (_OWN + _APPENDED).encode())
    assert _copyright_kept_in([_HOLDER], [], [root]) == "root:pkg-1.0.dist-info/LICENSE"
    assert _copyright_kept_in(["Copyright (c) 2020 Lichen Ltd"], [], [root]) == ""
    alone = read_licence_file("pkg-1.0.dist-info/LICENSE", _OWN.encode())
    assert _copyright_kept_in([_HOLDER], [], [alone]) == ""
