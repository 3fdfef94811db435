"""A target file repeating the target's own root copyright notice whole is not marked for an
upstream by its lines naming a holder the two share, when that notice names someone no upstream
holds (celery 5.4.0's ``__init__.py`` repeats celery's LICENSE, "Asif Saif Uddin", "Ask Solem",
"GoPivotal"; Ask Solem holds kombu's copyright too): ``without_own_notice``, ``target_notice``.
A notice whose holders an upstream all holds keeps marking (pypdf's "Mathieu Fenniak")."""

from __future__ import annotations

from lineage.markers import Marker
from lineage.results.tables import names_holder, without_own_notice

NOTICE = ["Copyright (c) 2017-2026 Bo Newer, core team & contributors. All rights reserved.",
          "Copyright (c) 2015-2016 Ann Holder & contributors. All rights reserved."]


def _copyright(line: int, text: str) -> Marker:
    return Marker(line=line, kind="copyright", text=text)


def test_a_file_repeating_the_notice_whole_loses_its_copyright_markers() -> None:
    header = [_copyright(2, "copyright: (c) 2017-2026 Bo Newer, upkg core and individual"),
              _copyright(4, "copyright: (c) 2015-2016 Ann Holder. All rights reserved.")]
    assert without_own_notice(header, NOTICE) == []
    assert without_own_notice(header, []) == header  # no notice of the target's own: unchanged


def test_a_file_naming_part_of_the_notice_keeps_its_markers() -> None:
    header = [_copyright(1, "Copyright (c) 2015 Ann Holder")]
    assert without_own_notice(header, NOTICE) == header


def test_a_holder_the_notice_does_not_name_keeps_marking() -> None:
    other = _copyright(5, "Copyright (c) 2019 Cy Upstream")
    header = [_copyright(2, "Copyright (c) 2017 Bo Newer and contributors"),
              _copyright(3, "Copyright (c) 2015 Ann Holder"), other]
    assert without_own_notice(header, NOTICE) == [other]


def test_holders_named_by_their_lead_name() -> None:
    assert names_holder(NOTICE[0], ["copyright: (c) 2017 Bo Newer, upkg core and individual"])
    assert not names_holder(NOTICE[0], ["Copyright (c) 2017 Bo Other"])


PYPROJECT = '[project]\nname = "{name}"\nversion = "1.0"\nauthors = [{{name = "Ann Holder"}}]\n'
BODY = "".join(f"def helper_{k}(value):\n    total = value * {k} + {k * 7}\n    return total - {k}\n\n\n"
               for k in range(12))
HEADER = ("# :copyright: (c) 2017-2026 Bo Newer, core team and individual contributors.\n"
          "# :copyright: (c) 2015-2016 Ann Holder. All rights reserved.\n\n")


def test_the_target_notice_marks_nothing_end_to_end(run_compare) -> None:  # type: ignore[no-untyped-def]
    upstream = {"pyproject.toml": PYPROJECT.format(name="upkg"), "upkg/__init__.py": "",
                "upkg/helpers.py": BODY, "LICENSE": "Copyright (c) 2015-2016 Ann Holder & contributors.\n"}
    target = {"pyproject.toml": PYPROJECT.format(name="tgt"), "tgt/__init__.py": "", "tgt/helpers.py": HEADER + BODY,
              "LICENSE": "\n".join(NOTICE) + "\n"}
    row = run_compare(target, [("upkg", upstream)]).files.set_index("target_path").loc["tgt/helpers.py"]
    assert (row["marker_kind"], row["marker"]) == ("", "")
    assert int(row["verbatim_code_lines"]) > 0
    # the upstream holding every holder of the notice: the line marks (a credit kept, or the same project)
    upstream["LICENSE"] = "\n".join(NOTICE) + "\n"
    row = run_compare(target, [("upkg", upstream)]).files.set_index("target_path").loc["tgt/helpers.py"]
    assert row["marker_kind"] == "copyright"


def test_a_changed_target_licence_is_not_answered_from_the_caches(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The notice decides which files are marked (and marked files are matched with other rules),
    so it is part of the match and table caches' context: a rerun whose LICENSE changed, its Python
    files not, gives what a run without caches gives."""
    import treegen

    from lineage.api import compare
    from lineage.settings import RunSettings

    upstream = {"pyproject.toml": PYPROJECT.format(name="upkg"), "upkg/__init__.py": "",
                "upkg/helpers.py": BODY, "LICENSE": "Copyright (c) 2015-2016 Ann Holder & contributors.\n"}
    target = {"pyproject.toml": PYPROJECT.format(name="tgt"), "tgt/__init__.py": "", "tgt/helpers.py": HEADER + BODY,
              "LICENSE": "\n".join(NOTICE) + "\n"}
    u_root = treegen.write_tree(tmp_path / "upkg", upstream)
    t_root = treegen.write_tree(tmp_path / "tgt", target)
    cached = RunSettings(cache_dir=tmp_path / "cache", jobs=1, reuse_tables=True)
    first = compare(str(t_root), [str(u_root)], settings=cached).files.set_index("target_path")
    assert first.loc["tgt/helpers.py", "marker_kind"] == ""
    # the upstream's holder alone: the notice no longer tells the project's lines from a credit
    (t_root / "LICENSE").write_text("Copyright (c) 2015-2016 Ann Holder & contributors.\n")
    again = compare(str(t_root), [str(u_root)], settings=cached).files.set_index("target_path")
    fresh = compare(str(t_root), [str(u_root)], settings=RunSettings(use_cache=False, jobs=1)).files
    assert again.loc["tgt/helpers.py", "marker_kind"] == "copyright"
    assert again.reset_index().equals(fresh)


def test_a_fork_that_says_so_keeps_its_upstreams_holder_as_a_credit(run_compare) -> None:  # type: ignore[no-untyped-def]
    # pysnmp-lextudio 6.1.2 ("This repo is a fork of Ilya Etingof's project etingof/pysnmp") keeps
    # Etingof's line beside its own in LICENSE.rst and in 7 files: those counted as unmarked while
    # the 108 carrying Etingof's line alone were marked for pysnmp 4.4.12
    upstream = {"pyproject.toml": PYPROJECT.format(name="upkg"), "upkg/__init__.py": "",
                "upkg/helpers.py": BODY, "LICENSE": "Copyright (c) 2015-2016 Ann Holder & contributors.\n"}
    target = {"pyproject.toml": PYPROJECT.format(name="tgt"), "README.md": "# tgt\n\nA fork of upkg with fixes.\n",
              "tgt/__init__.py": "", "tgt/helpers.py": HEADER + BODY, "LICENSE": "\n".join(NOTICE) + "\n"}
    comparison = run_compare(target, [("upkg", upstream)])
    assert [s["upstream"] for s in comparison.declared_reuse] == ["upkg"]
    row = comparison.files.set_index("target_path").loc["tgt/helpers.py"]
    assert row["marker_kind"] == "copyright" and "Ann Holder" in row["marker"]
