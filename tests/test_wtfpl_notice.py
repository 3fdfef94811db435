"""The WTFPL's own header read as a notice of that licence (an invented script under the header
jsonpath-rw 1.4.0's ``bin/jsonpath.py`` carries, which jsonpath-ng 1.7.0 keeps: its obligations
row took the release's Apache-2.0 for the file's own licence)."""

from lineage.licences.compat import compatible
from lineage.licences.expressions import asks_nothing_alone
from lineage.licences.notices import notice_ids_in

_HEAD = '''#!/usr/bin/python
# Copyright 2012 Example Author <author@example.invalid>
# This work is free. You can redistribute it and/or modify it under the
# terms of the Do What The Fuck You Want To Public License, Version 2,
# as published by Sam Hocevar. See the COPYING file for more details.

def main():
    return 0
'''


def test_the_wtfpl_header_is_a_notice_of_it() -> None:
    assert notice_ids_in(_HEAD) == ("WTFPL",)
    title = "            DO WHAT THE FUCK YOU WANT TO PUBLIC LICENSE\n                    Version 2, December 2004\n"
    assert notice_ids_in(title) == ("WTFPL",)


def test_a_mention_of_the_wtfpl_is_no_notice() -> None:
    assert notice_ids_in("# Unlike the Do What The Fuck You Want To Public License, Version 2, this asks.\n") == ()


def test_the_wtfpl_asks_nothing_and_fits_any_target() -> None:
    assert asks_nothing_alone("WTFPL")
    for target in ("Apache-2.0", "MIT", "GPL-3.0-only"):
        assert compatible("WTFPL", target).status == "ok"
