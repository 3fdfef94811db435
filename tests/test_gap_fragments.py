"""A code line scored as a piece of a longer upstream line (a fragment of a re-wrapped
statement) is kept by a region's gap alignment only beside another piece of that line, or when
it is found in it at ``near_min_similarity`` (``gap_fragment_siblings``,
:meth:`lineage.match.labels.FileLabeller.align_gap`).

The shape of pycryptodome 3.20's hash modules against pycrypto 2.6.1's ``hashalgo.py``, with
names of our own: the method's last statement is new code, and its continuation line
``% result)`` was near (0.5) the upstream's last line ``return self._impl.update(data)``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from lineage.cli import main

# The methods both sides hold alike (the copied code around the re-wrapped statement).
_SHARED = (
    '    def digest(self):\n'
    '        """Give the digest of everything fed so far, as raw bytes.\n'
    '\n'
    '        The helper stays usable: more pieces may follow.\n'
    '        """\n'
    '        return self._impl.digest()\n'
    '\n'
    '    def hexdigest(self):\n'
    '        """Give the same digest as hexadecimal text."""\n'
    '        digest = self.digest()\n'
    '        pieces = ["%02x" % byte for byte in bytearray(digest)]\n'
    '        return "".join(pieces)\n'
    '\n'
    '    def copy(self):\n'
    '        """Give an independent twin of this helper."""\n'
    '        clone = self.__class__.__new__(self.__class__)\n'
    '        clone.__dict__.update(self.__dict__)\n'
    '        return clone\n'
)

_UP = (
    'class HashBase(object):\n'
    '    """Common parent of the digest helpers."""\n'
    '\n'
    '    #: Bytes in a finished digest.\n'
    '    digest_size = None\n'
    '    #: Bytes the mixer takes in per round.\n'
    '    block_size = None\n'
    '\n'
    '    def __init__(self, hash_factory, data=None):\n'
    '        """Start a helper, feeding it ``data`` when given."""\n'
    '        self._impl = hash_factory()\n'
    '        if data:\n'
    '            self.update(data)\n'
    '\n'
    '    def update(self, data):\n'
    '        """Feed the next piece of the message to the helper.\n'
    '\n'
    '        Feeding ``a`` and then ``b`` gives the digest that feeding them\n'
    '        joined gives: ``h.update(a); h.update(b)`` is\n'
    '        ``h.update(a + b)``.\n'
    '\n'
    '        :Parameters:\n'
    '          data : byte string\n'
    '            The piece of the message to feed.\n'
    '        """\n'
    '        return self._impl.update(data)\n'
    '\n'
) + _SHARED

_TARGET = (
    'class QuickHash(object):\n'
    '    """Common parent of the digest helpers."""\n'
    '\n'
    '    # Bytes in a finished digest.\n'
    '    digest_size = 32\n'
    '    # Bytes the mixer takes in per round.\n'
    '    block_size = 64\n'
    '\n'
    '    def __init__(self, data=None):\n'
    '        """Start a helper, feeding it ``data`` when given."""\n'
    '        self._state = native_lib.quick_new()\n'
    '        if data:\n'
    '            self.update(data)\n'
    '\n'
    '    def update(self, data):\n'
    '        """Feed the next piece of the message to the helper.\n'
    '\n'
    '        Args:\n'
    '            data (bytes): The piece of the message to feed.\n'
    '        """\n'
    '        result = native_lib.quick_update(self._state,\n'
    '                                         as_pointer(data),\n'
    '                                         len(data))\n'
    '        if result:\n'
    '            raise ValueError("Error %d while hashing data with QuickHash"\n'
    '                             % result)\n'
    '\n'
) + _SHARED.replace("self._impl.digest()", "native_lib.quick_digest(self._state)")


@pytest.mark.parametrize("siblings", [1, 0])
def test_a_lone_fragment_half_found_in_an_upstream_line_is_no_copy(tmp_path: Path, siblings: int) -> None:
    (tmp_path / "u" / "uppkg").mkdir(parents=True)
    (tmp_path / "t" / "tgtpkg").mkdir(parents=True)
    (tmp_path / "u" / "uppkg" / "hashbase.py").write_text(_UP)
    (tmp_path / "t" / "tgtpkg" / "quickhash.py").write_text(_TARGET)
    out = tmp_path / "out"
    assert main(["compare", str(tmp_path / "t"), str(tmp_path / "u"), "--out", str(out), "--no-html",
                 "--formats", "none", "-q", "--no-cache", "--jobs", "1",
                 "--set", f"gap_fragment_siblings={siblings}"]) == 0
    lines = pd.read_csv(out / "lines.csv", keep_default_na=False, dtype=str).set_index("line")
    at = _TARGET.split("\n").index("                             % result)") + 1
    assert lines.loc[str(at), "match"] == ("none" if siblings else "near")
    # the copied docstrings, signatures and methods around it are copied either way
    update = _TARGET.split("\n").index("    def update(self, data):") + 1
    assert lines.loc[str(update), "match"] == "verbatim"
