"""A NOTICE's copyright lines after its statement that the release includes another project's
code are that code's holders, not the project's (botocore 1.35's NOTICE: Amazon, then "Botocore
includes vendorized parts of the requests python library" with Kenneth Reitz's line and urllib3's
Andrey Petrov's, read as holders of every botocore file without a copyright line of its own)."""

from __future__ import annotations

import treegen

from lineage.licences.licence_file import read_licence_file, without_included_parts

_NOTICE = ("Upcore\nCopyright 2012-2022 Upco, Inc. or its affiliates. All Rights Reserved.\n\n----\n\n"
           "Upcore includes vendorized parts of the fetchlib python library for backwards compatibility.\n\n"
           "Fetchlib License\n================\n\nCopyright 2013 Jane Fetcher\n\n   Licensed under the Apache "
           "License, Version 2.0 (the \"License\");\n")


def test_the_included_codes_holders_are_kept_apart() -> None:
    notice = read_licence_file("NOTICE", _NOTICE.encode())
    assert notice.copyrights == ("Copyright 2012-2022 Upco, Inc. or its affiliates. All Rights Reserved.",)
    assert notice.retained_copyrights == ("Copyright 2013 Jane Fetcher",)
    assert notice.lines[-1].startswith("Licensed under")  # what a redistribution reproduces stays whole


def test_a_notice_without_such_a_statement_or_without_holders_after_it_is_whole() -> None:
    plain = "Upcore\nCopyright 2020 Upco\nCopyright 2021 Another Holder\n"
    assert without_included_parts(plain) == plain
    developed = "Upcore\nCopyright 2020 Upco\n\nThis product includes software developed at Upco Labs.\n"
    assert without_included_parts(developed) == developed  # no holder follows: nothing set apart
    opening = "Upcore includes code adapted from fetchlib:\nCopyright 2013 Jane Fetcher\n"
    assert without_included_parts(opening) == opening  # said before any holder: the file is not the project's
    # a licence file's text is not cut (its own rules: appended licences)
    assert read_licence_file("LICENSE", _NOTICE.encode()).retained_copyrights == ()


def test_a_silent_upstream_file_is_under_the_projects_holder_only(run_compare) -> None:
    up = {"PKG-INFO": "Metadata-Version: 2.1\nName: upcore\nVersion: 1.0\nLicense: Apache-2.0\n",
          "NOTICE": _NOTICE, "upcore/__init__.py": "", "upcore/retries.py": treegen.distinctive_functions(1)}
    target = {"pyproject.toml": '[project]\nname = "tgt"\nlicense = "Apache-2.0"\n',
              "tgt/__init__.py": "", "tgt/retries.py": treegen.distinctive_functions(1)}
    row = run_compare(target, [("upcore", up)]).obligations.set_index("target_path").loc["tgt/retries.py"]
    assert row["upstream_copyrights_from"] == "source"
    assert row["upstream_copyrights"] == "Copyright 2012-2022 Upco, Inc. or its affiliates. All Rights Reserved."
