"""Tests for ``MatchParams.fill_moved_def_bodies`` (lineage.match.fill_inside._moved_def_bodies):
the body below a ``def`` the signature rule paired out of the pair's in-order chain (a method the
fork moved within its file) is read against the upstream function's body."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from conftest import make_labeller

from lineage.match import MatchParams
from lineage.match.file_statements import Statements
from lineage.match.fill_inside import signature_bodies
from lineage.match.labels import FileLabeller
from lineage.match.records import NONE, VERBATIM

# A file cache whose fork sorted its methods by name (``get`` moved above ``purge``, ``put`` below
# it) and renamed ``getf`` to ``_getf``.
_HEAD = ("class FileStore(Store):\n"
         '    """Entries kept as files in one folder."""\n\n')
_PUT = ("    def put(self, key, data):\n"
        "        f = self.open(self.filename(key), 'wb')\n"
        "        f.write(data)\n"
        "        return data\n\n")
_GET = ("    def get(self, key):\n"
        "        try:\n"
        "            f = self.getf(key)\n"
        "            try:\n"
        "                return f.read()\n"
        "            finally:\n"
        "                f.close()\n"
        "        except Exception:\n"
        "            pass\n\n")
_CLEAR = ("    def clear(self):\n"
          "        for name in os.listdir(self.location):\n"
          "            os.remove(os.path.join(self.location, name))\n\n")
_PURGE = ("    def purge(self, key):\n"
          "        os.remove(self.filename(key))\n\n")
_UP = _HEAD + _PUT + _GET + _CLEAR + _PURGE
_FORK = _HEAD + _CLEAR + _GET.replace("self.getf(key)", "self._getf(key)") + _PURGE + _PUT

_BODY = ["try:", "f = self._getf(key)", "try:", "return f.read()", "finally:", "f.close()",
         "except Exception:", "pass"]


def _content(lab: FileLabeller, text: str, upstream: bool = False) -> int:
    """The content line (of the upstream file when ``upstream``) whose stripped text is ``text``."""
    rows, lines = lab.upstream_lines(0) if upstream else (lab.t_rows, lab.t_lines)
    return next(k for k, row in enumerate(rows.tolist()) if lines[row].strip() == text)


def _bodies(tmp_path: Path, params: MatchParams, fork: str = _FORK, up: str = _UP, size: int = len(_BODY)) -> list[str]:
    """The regions' lines paired by hand (``clear`` and ``purge``, in order in both files: the
    chain), then ``def get`` as the signature rule pairs it out of that order, then the rule of
    late bodies: the upstream text each line of the fork's ``get`` body is paired with ("")."""
    lab = make_labeller(tmp_path, {"pkg/store.py": fork}, {"pkg/store.py": up}, params)
    u_rows, u_lines = lab.upstream_lines(0)
    for text in ("def clear(self):", "for name in os.listdir(self.location):",
                 "os.remove(os.path.join(self.location, name))", "def purge(self, key):",
                 "os.remove(self.filename(key))"):
        lab.set_pair(_content(lab, text), 0, int(u_rows[_content(lab, text, True)]), VERBATIM, 1.0, 0)
    before = (lab.result.match[lab.t_rows] != NONE) & (lab.result.up_file[lab.t_rows] == 0)
    lab.set_pair(_content(lab, "def get(self, key):"), 0, int(u_rows[_content(lab, "def get(self, key):", True)]),
                 VERBATIM, 1.0, 0)
    signature_bodies(lab, Statements.of(lab), 0, before)
    first = _content(lab, "def get(self, key):") + 1
    out = []
    for tc in range(first, first + size):
        row = lab.t_rows[tc]
        out.append("" if lab.result.match[row] == NONE else u_lines[lab.result.up_row[row]].strip())
    return out


def test_the_body_below_a_moved_def_is_read_against_its_upstream_body(tmp_path: Path) -> None:
    """suds-community 1.2.0's ``cache.py`` against suds-jurko 0.6: ``def get(self, id):`` paired,
    its body (seven lines verbatim, one renamed call) none."""
    assert _bodies(tmp_path / "on", MatchParams()) == [
        "try:", "f = self.getf(key)", "try:", "return f.read()", "finally:", "f.close()", "except Exception:", "pass"]


def test_a_comment_at_the_margin_inside_a_moved_body_does_not_end_it(tmp_path: Path) -> None:
    """Round review176: the body is the function's as :func:`lineage.match.blocks.function_end`
    reads it (up to its last code line; comments do not end it), the extent the edge window of
    a non-main pair reads (``fill.py``'s ``_function_window``): a line commented out at the margin
    inside ``get`` ended the body there (``fill_inside._body`` stops at any line indented no
    deeper than the ``def``), and the four lines below it stayed none."""
    out = "                return f.read()\n"
    commented = out + "#                f.seek(0)\n"
    fork, up = _FORK.replace(out, commented), _UP.replace(out, commented)
    assert _bodies(tmp_path, MatchParams(), fork, up, len(_BODY) + 1) == [
        "try:", "f = self.getf(key)", "try:", "return f.read()", "#                f.seek(0)", "finally:", "f.close()",
        "except Exception:", "pass"]


def test_without_the_rule_the_body_below_a_moved_def_stays_none(tmp_path: Path) -> None:
    assert _bodies(tmp_path / "off", replace(MatchParams(), fill_moved_def_bodies=0)) == [""] * len(_BODY)


def test_a_def_paired_in_order_is_left_to_the_chain_s_rule(tmp_path: Path) -> None:
    """A ``def`` that is an anchor of the chain is no moved one: its body is the stretch rule's
    (``fill_signature_bodies``), which reads it only up to the next anchor."""
    lab = make_labeller(tmp_path, {"pkg/store.py": _UP}, {"pkg/store.py": _UP}, MatchParams())
    u_rows, _ = lab.upstream_lines(0)
    for text in ("def put(self, key, data):", "def get(self, key):", "def purge(self, key):"):
        lab.set_pair(_content(lab, text), 0, int(u_rows[_content(lab, text, True)]), VERBATIM, 1.0, 0)
    before = np.zeros(len(lab.t_rows), dtype=bool)
    before[_content(lab, "def put(self, key, data):")] = True
    signature_bodies(lab, Statements.of(lab), 0, before)
    # get's body lies between two anchors (get, purge) and clear's lines too: the chain's rule read
    # get's body only (up to its end), not clear's
    row = lab.t_rows[_content(lab, "for name in os.listdir(self.location):")]
    assert lab.result.match[row] == NONE
    assert lab.result.match[lab.t_rows[_content(lab, "return f.read()")]] != NONE



def test_a_moved_def_whose_body_was_rewritten_whole_keeps_its_body_none(tmp_path: Path) -> None:
    """No line of the fork's ``send`` body stands in the upstream one (nextcord's ``route =
    Route("PATCH", ...)`` bodies against discord.py's one-line ``return self.request('PATCH',
    ...)``): rule (a)'s edited pass would pair ``"PATCH",`` with that line by its edits alone,
    nothing placing it."""
    up = _HEAD + ("    def send(self, key, payload):\n"
                  "        return self.request('PATCH', self.url(key), payload=payload)\n\n") + _CLEAR + _PURGE
    fork = _HEAD + _CLEAR + ("    def send(self, key, payload):\n"
                             "        route = Route(\n"
                             "            'PATCH',\n"
                             "            self.url(key),\n"
                             "        )\n"
                             "        return self.request(route, payload=payload)\n\n") + _PURGE
    found = {}
    for on in (1, 0):
        params = MatchParams()
        lab = make_labeller(tmp_path / str(on), {"pkg/store.py": fork}, {"pkg/store.py": up}, params)
        u_rows, _ = lab.upstream_lines(0)
        for text in ("def clear(self):", "for name in os.listdir(self.location):",
                     "os.remove(os.path.join(self.location, name))", "def purge(self, key):",
                     "os.remove(self.filename(key))"):  # the chain: send stands out of its order
            lab.set_pair(_content(lab, text), 0, int(u_rows[_content(lab, text, True)]), VERBATIM, 1.0, 0)
        before = (lab.result.match[lab.t_rows] != NONE) & (lab.result.up_file[lab.t_rows] == 0)
        head = "def send(self, key, payload):"
        lab.set_pair(_content(lab, head), 0, int(u_rows[_content(lab, head, True)]), VERBATIM, 1.0, 0)
        if on:
            signature_bodies(lab, Statements.of(lab), 0, before)
        else:  # the bodies read without the guard: what the guard keeps out
            from lineage.match.fill_inside import align_inside
            t0 = _content(lab, head) + 1
            u0 = _content(lab, head, True) + 1
            align_inside(lab, Statements.of(lab), 0, range(t0, t0 + 5), range(u0, u0 + 1), set(), 0,
                         params.fill_body_min_name_share)
        found[on] = [text for text in ("route = Route(", "'PATCH',", "self.url(key),", ")",
                                       "return self.request(route, payload=payload)")
                     if lab.result.match[lab.t_rows[_content(lab, text)]] != NONE]
    assert found[1] == []
    assert found[0] != []  # rule (a) alone pairs some line of the rewritten body
