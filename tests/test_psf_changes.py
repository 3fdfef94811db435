"""The PSF licence agreement (PSF-2.0, and its part of Python-2.0's stack), section 3: a derivative
work includes "a brief summary of the changes made", so a modified copy owes a modification notice
(async-exit-stack 1.0.1's AsyncExitStack, changed from contextlib2's, read "not required")."""

from lineage.licences.notices import change_statements
from lineage.results.obligations import terms

_PSF = 'pyproject.toml', '[project]\nname = "{}"\nlicense = "PSF-2.0"\n'
_BODY = '''

class StackOfExits:
    """Unwinds registered callbacks in reverse order of registration."""

    def __init__(self):
        self._callbacks = []

    def push(self, callback):
        self._callbacks.append(callback)
        return callback

    def close(self):
        while self._callbacks:
            self._callbacks.pop()()
'''


def test_psf_and_python_ask_a_modification_notice() -> None:
    for licence in ("PSF-2.0", "Python-2.0"):
        assert terms(licence, False) == ["copyright", "licence-notice", "modification-notice"]


def test_a_modified_copy_of_psf_code_owes_a_modification_notice(run_compare) -> None:
    upstream = {"up/exits.py": _BODY, _PSF[0]: _PSF[1].format("up")}
    target = {"tgt/same.py": _BODY,
              "tgt/bare.py": _BODY + "\n    def __len__(self):\n        return len(self._callbacks)\n",
              "tgt/noted.py": "# Changes made for tgt: a __len__ method.\n" + _BODY
              + "\n    def __len__(self):\n        return len(self._callbacks)\n",
              _PSF[0]: _PSF[1].format("tgt")}
    ob = run_compare(target, [("up", upstream)]).obligations.set_index("target_path")
    assert ob.loc["tgt/same.py", "modification_notice"] == "not required"
    assert ob.loc["tgt/bare.py", "modification_notice"] == "no"
    assert "modification-notice" in ob.loc["tgt/bare.py", "missing"]
    assert ob.loc["tgt/noted.py", "modification_notice"] == "yes"


def test_the_agreements_own_duty_is_no_statement_of_change() -> None:
    duty = ("# 3. In the event Licensee prepares a derivative work ... Licensee hereby agrees to\n"
            "# include in any such work a brief summary of the changes made to Python.\n")
    assert change_statements(duty) == ()
    assert change_statements("# Changes made for tgt: a __len__ method.\n") != ()
