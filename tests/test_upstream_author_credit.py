"""A line of the target's root notice naming an upstream's declared author, whom the target does
not declare, is the credit a fork kept, not its project's notice: a file repeating the notice
whole is marked by it (pathlib2 2.3.7's LICENSE.rst and ``__init__.py`` name Matthias Troffaes
and "Antoine Pitrou and contributors", pathlib 1.0.1's author: ``api.upstream_author_lines``).
An author both declare keeps the line the target's own (``test_own_notice_markers``).
pathlib2's summary.md also said "1 (target file, upstream file) pairs in 1 target files hold"."""

from __future__ import annotations

from lineage.report.obligations import obligations_markdown

PYPROJECT = '[project]\nname = "{name}"\nversion = "1.0"\nauthors = [{{name = "{author}"}}]\n'
BODY = "".join(f"def helper_{k}(value):\n    total = value * {k} + {k * 7}\n    return total - {k}\n\n\n"
               for k in range(12))
OWN = "Copyright (c) 2014-2021 Bo Newer and contributors"
UPSTREAM = "Copyright (c) 2012-2014 Ann Holder and contributors"


def _row(run_compare, target_author: str):  # type: ignore[no-untyped-def]
    upstream = {"pyproject.toml": PYPROJECT.format(name="upkg", author="Ann Holder"), "upkg/__init__.py": "",
                "upkg/helpers.py": BODY, "LICENSE": UPSTREAM + "\n"}
    target = {"pyproject.toml": PYPROJECT.format(name="tgt", author=target_author), "tgt/__init__.py": "",
              "tgt/helpers.py": f"# {OWN}\n# {UPSTREAM}\n\n" + BODY, "LICENSE": f"{OWN}\n{UPSTREAM}\n"}
    return run_compare(target, [("upkg", upstream)]).files.set_index("target_path").loc["tgt/helpers.py"]


def test_the_upstream_authors_line_in_the_notice_marks(run_compare) -> None:  # type: ignore[no-untyped-def]
    row = _row(run_compare, "Bo Newer")
    assert (row["marker_kind"], row["marker"]) == ("copyright", UPSTREAM)


def test_an_author_both_declare_keeps_the_notice_own(run_compare) -> None:  # type: ignore[no-untyped-def]
    row = _row(run_compare, "Ann Holder")
    assert (row["marker_kind"], row["marker"]) == ("", "")


def test_one_pair_is_counted_in_the_singular(run_compare) -> None:  # type: ignore[no-untyped-def]
    upstream = {"pyproject.toml": PYPROJECT.format(name="upkg", author="Ann Holder"), "upkg/__init__.py": "",
                "upkg/helpers.py": BODY, "LICENSE": UPSTREAM + "\n"}
    target = {"pyproject.toml": PYPROJECT.format(name="tgt", author="Bo Newer"), "tgt/__init__.py": "",
              "tgt/helpers.py": BODY, "LICENSE": OWN + "\n"}
    text = "\n".join(obligations_markdown(run_compare(target, [("upkg", upstream)])))
    assert "1 (target file, upstream file) pair in 1 target file holds copied lines" in text
