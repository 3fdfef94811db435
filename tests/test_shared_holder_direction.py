"""Two projects whose licence files share a holder: the upstream's "Copyright (c) frob and Zorp
developers." names the target's "Zorp developers", so the code the two share may have gone either
way, and the licence section says so beside the upstream's pairs missing `copyright` (scrapy
2.11.2 against w3lib 2.2.1, whose ``to_unicode``, ``to_bytes`` and ``parse_url`` came from
scrapy; invented names here). Every file is written for the test."""

from __future__ import annotations

import treegen
from test_licences import HEADERS

from lineage.report.obligations import obligations_markdown

_body = treegen.distinctive_functions
_BSD = HEADERS["BSD-3-Clause"].replace("# Copyright (c) 2024 Upstream Authors\n", "")


def _licence(line: str) -> str:
    return f"# {line}\n{_BSD}"


def _summary(run_compare, target_holder: str, upstream_holder: str) -> str:  # type: ignore[no-untyped-def]
    upstream = {"frob/util.py": _body(1), "LICENSE": _licence(f"Copyright (c) {upstream_holder}.")}
    target = {"zorp/__init__.py": "", "zorp/python.py": _body(2) + "\n\n" + _body(1),
              "LICENSE": _licence(f"Copyright (c) {target_holder}.")}
    return "\n".join(obligations_markdown(run_compare(target, [("frob", upstream)])))


def _upstream_line(summary: str) -> str:
    return next(x for x in summary.splitlines() if x.startswith("Upstream frob:"))


def test_an_upstream_naming_the_targets_holder_leaves_the_direction_open(run_compare) -> None:  # type: ignore[no-untyped-def]
    summary = _summary(run_compare, "Zorp developers", "frob and Zorp developers")
    line = _upstream_line(summary)
    assert ('copyright line "Copyright (c) frob and Zorp developers." names the target\'s own holder too '
            '("Zorp developers", of the target\'s licence files)') in line
    assert "its 1 pair missing `copyright` may hold the target's code, taken by the upstream." in line
    assert "- copyright: 1 pair" in summary  # the obligation itself is as before


def test_other_holders_say_nothing_of_direction(run_compare) -> None:  # type: ignore[no-untyped-def]
    summary = _summary(run_compare, "Zorp developers", "frob developers")
    assert "- copyright: 1 pair" in summary
    assert "names the target's own holder" not in _upstream_line(summary)


def test_a_target_keeping_the_upstreams_line_misses_nothing_and_is_told_nothing(run_compare) -> None:  # type: ignore[no-untyped-def]
    summary = _summary(run_compare, "frob and Zorp developers", "frob and Zorp developers")
    assert "- copyright: 0 pairs" in summary
    assert "names the target's own holder" not in _upstream_line(summary)


def test_a_target_stating_it_forked_the_upstream_is_told_nothing_of_direction(run_compare) -> None:  # type: ignore[no-untyped-def]
    # pysnmp-lextudio 6.1.2 against pysnmp 4.4.12: its licence file keeps Etingof's line beside
    # its own, and its description says "This repo is a fork of Ilya Etingof's project"; the pairs
    # missing `copyright` miss a third holder of one upstream file (Zebra Technologies)
    upstream = {"frob/util.py": "# Copyright (C) 2014, Quux Technologies\n" + _body(1),
                "LICENSE": _licence("Copyright (c) Frob Smith.")}
    target = {"zorp/__init__.py": "", "zorp/python.py": _body(2) + "\n\n" + _body(1),
              "README.md": "# zorp\n\nThis repo is a fork of Frob Smith's project frob, now maintained by us.\n",
              "LICENSE": "# Copyright (c) Frob Smith.\n# Copyright (c) Zorp Ltd.\n" + _BSD}
    comparison = run_compare(target, [("frob", upstream)])
    assert [s["upstream"] for s in comparison.declared_reuse] == ["frob"]
    summary = "\n".join(obligations_markdown(comparison))
    assert "- copyright: 1 pair" in summary  # Quux's line, not kept
    assert "names the target's own holder" not in _upstream_line(summary)
