"""A head sentence putting its own file under a named licence ("This file is under the PSF license
as the code comes from the python stdlib", urllib3 1.10's ssl_match_hostname/_implementation.py)
is that file's notice; "PSF" names PSF-2.0 as the PyPI classifier does."""

import numpy as np

from lineage.index import BLANK, CODE, COMMENT, DOCSTRING
from lineage.licences.notices import source_notice_ids
from lineage.results.file_licences import file_licence


def test_this_file_is_under_the_psf_licence() -> None:
    head = ("# Note: This file is under the PSF license as the code comes from the python\n"
            "# stdlib.   http://docs.python.org/3/license.html\n")
    assert source_notice_ids(head) == ("PSF-2.0",)


def test_named_module_and_code_sentences() -> None:
    assert source_notice_ids("# This module is under the MIT License.\n") == ("MIT",)
    assert source_notice_ids("# this code is released under the terms of the Apache 2.0 license\n") == ("Apache-2.0",)
    assert source_notice_ids("# Licensed under the Python Software Foundation License.\n") == ("PSF-2.0",)


def test_family_names_and_other_subjects_name_nothing() -> None:
    assert source_notice_ids("# This file is under the BSD license\n") == ()  # a family, not one licence
    assert source_notice_ids("# The parser is under the MIT license\n") == ()  # not this file
    assert source_notice_ids("# see the PSF license for the stdlib's terms\n") == ()


def test_file_licence_reads_the_sentence() -> None:
    lines = ['"""The frob() function from a standard library, kept for old versions."""', "",
             "# Note: This file is under the PSF license as the code comes from the",
             "# standard library.", "", "def frob():", "    return 1"]
    kinds = np.array([DOCSTRING, BLANK, COMMENT, COMMENT, BLANK, CODE, CODE], dtype=np.uint8)
    found = file_licence(lines, kinds, (), 40)
    assert (found.expression, found.found_by) == ("PSF-2.0", "notice")
