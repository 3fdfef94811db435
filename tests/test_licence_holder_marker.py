"""A copyright line naming a holder of the upstream's root licence or NOTICE file, whom its own
files name too, marks a file for that upstream (tenacity 9.0.0's "Copyright 2013-2014 Ray Holder",
the holder of retrying 1.3.4's NOTICE and retrying.py, whose metadata names another author); not a
holder the target's own licence names, nor one only the licence text names (the PSF of
typing_extensions' LICENSE, which is CPython's licence text)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import treegen

from lineage.cli import main
from lineage.markers import Marker, marker_names_upstream
from lineage.markers.naming import mentions_organisation

NOTICE = "Copyright 2013 Rowan Pike\n\nLicensed under the Apache License, Version 2.0.\n"
HEADER = "# Copyright 2016 Ada Quill\n# Copyright 2013-2014 Rowan Pike\n\n"


def _compared_files(tmp_path: Path, target: dict[str, str], upstream: dict[str, str]) -> dict[str, dict[str, str]]:
    """files.csv's rows by path of ``lineage compare`` of the two trees written under ``tmp_path``."""
    out = tmp_path / "out"
    assert main(["compare", str(treegen.write_tree(tmp_path / "tgt", target)),
                 str(treegen.write_tree(tmp_path / "up", upstream)), "--out", str(out), "--no-html",
                 "--formats", "none", "-q", "--no-cache", "--jobs", "1"]) == 0
    with open(out / "files.csv", newline="") as fh:
        return {row["target_path"]: row for row in csv.DictReader(fh)}


def _files(tmp_path: Path, target_licence: str, upstream_header: str = "# Copyright 2013 Rowan Pike\n\n",
           readme: str = "") -> dict[str, dict[str, str]]:
    """files.csv's rows by path, for a target whose files carry the upstream NOTICE's holder
    (test_description_holder_marker uses it too, with ``readme`` the upstream's description)."""
    body = treegen.distinctive_functions(2)
    upstream = {"upcore.py": upstream_header + body, "NOTICE": NOTICE, **({"README.md": readme} if readme else {}),
                "pyproject.toml": '[project]\nname = "upcore"\nauthors = [{name = "Lee Marsh"}]\n'}
    target = {"quickretry/__init__.py": HEADER + "VALUE = 1\n", "quickretry/wait.py": HEADER + body,
              "quickretry/own.py": "# Copyright 2016 Ada Quill\n\nOTHER = 2\n", "LICENSE": target_licence,
              "pyproject.toml": '[project]\nname = "quickretry"\n'}
    return _compared_files(tmp_path, target, upstream)


def test_a_copyright_line_naming_the_upstreams_notice_holder_marks_the_file(tmp_path: Path) -> None:
    files = _files(tmp_path, "MIT License\n\nCopyright (c) 2016 Ada Quill\n")
    for path in ("quickretry/__init__.py", "quickretry/wait.py"):
        assert files[path]["marker_kind"] == "copyright"
        assert files[path]["marker"] == "Copyright 2013-2014 Rowan Pike"
    assert files["quickretry/own.py"]["marker_kind"] == ""  # the target's own holder names no upstream


def test_a_holder_the_target_licence_names_too_marks_nothing(tmp_path: Path) -> None:
    files = _files(tmp_path, "MIT License\n\nCopyright (c) 2013 Rowan Pike\nCopyright (c) 2016 Ada Quill\n")
    assert {row["marker_kind"] for row in files.values()} == {""}


def test_a_holder_only_the_licence_text_names_marks_nothing(tmp_path: Path) -> None:
    """The upstream's files name no holder: the NOTICE's is its licence text's, and a target file
    carrying that holder's copyright took it from somewhere else as likely (CPython's PSF)."""
    files = _files(tmp_path, "MIT License\n\nCopyright (c) 2016 Ada Quill\n", upstream_header="")
    assert {row["marker_kind"] for row in files.values()} == {""}


def _org_files(tmp_path: Path, target_licence: str, target_authors: str = "") -> dict[str, dict[str, str]]:
    """files.csv's rows for an upstream whose licence spells its holder's organisation apart ("The
    Quill Works team") and its files together ("The QuillWorks Inc. team"), as transformers
    5.16.1's LICENSE ("The Hugging Face team") and model files ("the HuggingFace Inc. team") do."""
    body = treegen.distinctive_functions(3)
    upstream = {"quillcore/model.py": "# Copyright 2020 The QuillWorks Inc. team.\n\n" + body,
                "quillcore/other.py": "# Copyright 2021 The QuillWorks Inc. team.\n\nOTHER = 3\n",
                "LICENSE": "Copyright 2018- The Quill Works team. All rights reserved.\n\n"
                           "Licensed under the Apache License, Version 2.0.\n",
                "pyproject.toml": '[project]\nname = "quillcore"\n'}
    target = {"serve/joint.py": "# Copyright 2022 Rowan Pike and the QuillWorks Inc. team.\n\n" + body,
              "serve/together.py": "# Copyright 2024 Google Inc. QuillWorks Inc. team.\n\nVALUE = 1\n",
              "serve/longer.py": "# Copyright 2024 QuillWorksHub authors.\n\nVALUE = 2\n",
              "LICENSE": target_licence,
              "pyproject.toml": '[project]\nname = "serve"\n' + (f'authors = [{{name = "{target_authors}"}}]\n'
                                                                   if target_authors else "")}
    return _compared_files(tmp_path, target, upstream)


def test_the_licence_holder_names_the_upstream_by_its_organisation_however_spaced(tmp_path: Path) -> None:
    files = _org_files(tmp_path, "MIT License\n\nCopyright (c) 2022 Ada Quill\n")
    assert files["serve/joint.py"]["marker_kind"] == "copyright"
    assert files["serve/joint.py"]["marker"] == "Copyright 2022 Rowan Pike and the QuillWorks Inc. team."
    assert files["serve/together.py"]["marker_kind"] == "copyright"
    assert files["serve/longer.py"]["marker_kind"] == ""  # QuillWorksHub is another name


def test_an_organisation_the_target_licence_names_marks_nothing(tmp_path: Path) -> None:
    files = _org_files(tmp_path, "MIT License\n\nCopyright (c) 2022 The QuillWorks Team\n")
    assert {row["marker_kind"] for row in files.values()} == {""}


@pytest.mark.parametrize(("text", "name", "named"), [
    ("Copyright 2022 EleutherAI and the HuggingFace Inc. team. All rights reserved.", "the hugging face team", True),
    ("Copyright 2024 Google Inc. HuggingFace Inc. team. All rights reserved.", "the hugging face team", True),
    ("Copyright 2026 The HuggingFace Team. All rights reserved.", "the hugging face team", True),
    ("Copyright 2020 Optuna, Hugging Face", "the hugging face team", True),
    ("Copyright 2024 huggingface_hub authors", "the hugging face team", False),  # another name
    ("Copyright 2023 The vLLM team.", "vllm team", True),
    ("Copyright 2023 The vLLM team.", "team", False),  # group words alone name no organisation
    ("Copyright 2013 Rowan Pike", "rowan pike", True),
    ("Copyright 2013 RowanPike", "rowan pike", True),  # a person's name too, written together
])
def test_a_copyright_line_names_a_holder_by_its_organisation(text: str, name: str, named: bool) -> None:
    assert mentions_organisation(text, name) is named


def test_only_a_copyright_line_names_an_upstream_by_organisation() -> None:
    line = "Copyright 2022 EleutherAI and the HuggingFace Inc. team."
    assert marker_names_upstream(Marker(line=1, kind="copyright", text=line), {"the hugging face team"})
    # a provenance marker still has to mention the name itself
    phrase = Marker(line=1, kind="adapted_from", text="Adapted from the HuggingFace Inc. team's code")
    assert not marker_names_upstream(phrase, {"the hugging face team"})


def test_an_organisation_the_target_authors_name_marks_nothing(tmp_path: Path) -> None:
    """Hugging Face's other projects against transformers: their own authors' holder line is
    their claim, not a credit (optimum's authors "HuggingFace Inc. Special Ops Team")."""
    files = _org_files(tmp_path, "Apache License\n", target_authors="QuillWorks Inc. Special Ops Team")
    assert {row["marker_kind"] for row in files.values()} == {""}
