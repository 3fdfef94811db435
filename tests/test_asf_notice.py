"""The ASF form of source header, "Licensed to HOLDER under one or more contributor license
agreements", read as a copyright line naming HOLDER: the marker, the header lines, the holder
readers, and a generated tree end to end (opensearch-py keeps elasticsearch's header)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import treegen

from lineage.cli import main
from lineage.index.parse import Indexer
from lineage.licences.notices import holder as folded_holder
from lineage.licences.notices import keeps_holders
from lineage.markers import find_markers, marker_names_upstream, notice_holder
from lineage.match import headers
from lineage.match.holders import holder, main_holders
from lineage.match.origin import OWN, THIRD_PARTY, file_origin, upstream_origins
from lineage.match.params import MatchParams
from lineage.results.obligations import join_copyrights, split_copyrights


def _asf(holder_name: str) -> str:
    """The header elasticsearch's files carry, for ``holder_name``."""
    return (f"#  Licensed to {holder_name} under one or more contributor\n"
            "#  license agreements. See the NOTICE file distributed with\n"
            "#  this work for additional information regarding copyright\n"
            f"#  ownership. {holder_name} licenses this file to you under\n"
            "#  the Apache License, Version 2.0 (the \"License\"); you may\n"
            "#  not use this file except in compliance with the License.\n"
            "#  You may obtain a copy of the License at\n"
            "#\n"
            "#     http://www.apache.org/licenses/LICENSE-2.0\n"
            "#\n"
            "#  Unless required by applicable law or agreed to in writing,\n"
            "#  software distributed under the License is distributed on an\n"
            "#  \"AS IS\" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY\n"
            "#  KIND, either express or implied.  See the License for the\n"
            "#  specific language governing permissions and limitations\n"
            "#  under the License.\n")


ASF_FOUNDATION = ("# Licensed to the Apache Software Foundation (ASF) under one\n"
                  "# or more contributor license agreements.  See the NOTICE file\n"
                  "# distributed with this work for additional information\n")


@pytest.mark.parametrize(("line", "name"), [
    ("Licensed to Elasticsearch B.V. under one or more contributor", "Elasticsearch B.V."),
    ("Licensed to the Apache Software Foundation (ASF) under one", "the Apache Software Foundation (ASF)"),
    ("Licensed to Elasticsearch B.V.under one or more agreements.", "Elasticsearch B.V."),
    ("licensed to Acme Corp under one or more contributor license agreements.", "Acme Corp"),
    # not the ASF form: no holder, or no "under one"
    ("Licensed to you under the MIT licence", ""),
    ("Licensed to Elasticsearch B.V. under the Apache License", ""),
    ("licensed to the public under one condition", ""),
    ("Licensed under the Apache License, Version 2.0", ""),
])
def test_notice_holder(line: str, name: str) -> None:
    assert notice_holder(line) == name


def test_the_asf_line_is_a_copyright_marker_naming_its_holder() -> None:
    found = find_markers(_asf("Elasticsearch B.V.").splitlines())
    assert [(m.line, m.kind, m.text) for m in found] == [
        (1, "copyright", "Licensed to Elasticsearch B.V. under one or more contributor")]
    assert marker_names_upstream(found[0], ["elasticsearch"])
    assert not marker_names_upstream(found[0], ["elasticsearch-dsl", "opensearch-py"])
    doc = find_markers(['"""', "Licensed to Acme B.V. under one or more contributor", '"""'])
    assert [(m.line, m.kind) for m in doc] == [(2, "copyright")]
    # prose that says "licensed to" is no marker
    assert find_markers(["# This build is licensed to you under the MIT licence."]) == []


def test_every_line_of_the_asf_header_is_a_header_line_and_its_first_names_the_holder() -> None:
    for text in (_asf("Elasticsearch B.V."), ASF_FOUNDATION):
        lines = text.splitlines()
        kinds = Indexer().index("m.py", (text + "x = 1\n").encode(), "d").kinds[: len(lines)]
        assert headers.header_rows(lines, kinds)[:3].all(), text  # these hold no other notice phrase
        assert headers.is_holder_line(lines[0])
    assert not headers.is_holder_line("#  license agreements. See the NOTICE file distributed with")


def test_holder_readers_take_the_asf_holder() -> None:
    line = "Licensed to Elasticsearch B.V. under one or more contributor"
    assert holder(line) == "Elasticsearch B.V"  # a holder's trailing "." goes, as from a copyright line
    assert folded_holder(line) == folded_holder("Copyright 2021 Elasticsearch B.V.") == "elasticsearch b.v"
    # a target keeping the header, or a "Copyright ... Elasticsearch B.V." line, keeps the holder
    assert keeps_holders([line], [line, "Modifications Copyright OpenSearch Contributors"])
    assert keeps_holders([line], ["Copyright 2021 Elasticsearch B.V."])
    assert not keeps_holders([line], ["Copyright OpenSearch Contributors"])
    cell = join_copyrights([line, "Licensed to Elasticsearch B.V under one or more agreements.", "Copyright 2020 X"])
    assert split_copyrights(cell) == (line, "Licensed to Elasticsearch B.V under one or more agreements.",
                                      "Copyright 2020 X")


def test_an_upstream_file_under_only_another_holders_asf_header_is_third_party() -> None:
    """Origin rule 4 reads the ASF line as it reads a copyright line."""
    body = treegen.distinctive_functions
    files = [Indexer().index(f"acme/m{k}.py", (_asf("Acme B.V.") + body(k)).encode(), f"d{k}") for k in range(4)]
    files.append(Indexer().index("acme/kernels.py", (ASF_FOUNDATION + body(9)).encode(), "d9"))
    assert main_holders(files, MatchParams().origin_own_holder_share) == frozenset({"acme b.v"})
    origins = upstream_origins(files, [0] * 5, [{"acme"}], {"tgt"}, MatchParams())
    assert [o.kind for o in origins] == [OWN, OWN, OWN, OWN, THIRD_PARTY]
    assert origins[4].name == "the Apache Software Foundation (ASF)"
    # the upstream's own holder's ASF line, or one naming the upstream, is its own file's
    assert file_origin(files[0], {"acme"}, {"tgt"}, MatchParams()).kind == OWN
    assert file_origin(files[4], {"acme"}, {"tgt"}, MatchParams()).kind == THIRD_PARTY


def test_a_fork_keeping_the_upstreams_asf_header_is_marked_end_to_end(tmp_path: Path) -> None:
    body = treegen.distinctive_functions
    own = "# SPDX-License-Identifier: Apache-2.0\n#\n# Modifications Copyright Tgt Contributors. See\n# history.\n#\n"
    upstream = {
        "acme/__init__.py": "",
        "acme/client.py": _asf("Acme B.V.") + body(1),
        "acme/conn.py": _asf("Acme B.V.") + body(2),
        "acme/kernels.py": ASF_FOUNDATION + body(3),
        **{f"acme/more{k}.py": _asf("Acme B.V.") + body(10 + k) for k in range(3)},
        "pyproject.toml": '[project]\nname = "acme"\n',
    }
    target = {
        "tgt/__init__.py": "",
        "tgt/client.py": own + _asf("Acme B.V.") + body(1),  # the upstream's header kept: marked
        "tgt/conn.py": own + body(2),  # the header dropped: unmarked, the copyright missing
        "tgt/fastkern.py": body(3),  # the ASF's code, not acme's own (elsewhere than acme's file: see same_place)
        "pyproject.toml": '[project]\nname = "tgt"\n',
    }
    t = treegen.write_tree(tmp_path / "tgt-src", target)
    u = treegen.write_tree(tmp_path / "acme-src", upstream)
    out = tmp_path / "out"
    assert main(["compare", str(t), str(u), "--out", str(out), "--no-html", "-q", "--no-cache", "--jobs", "1"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    lists = summary["lists"]
    assert lists["marked_with_copied"] == ["tgt/client.py"]
    assert lists["unmarked_with_copied"] == ["tgt/conn.py"]
    assert lists["shared_third_party"] == ["tgt/fastkern.py"]
    read = {"keep_default_na": False, "dtype": str}
    files = pd.read_csv(out / "files.csv", **read).set_index("target_path")
    assert files.loc["tgt/client.py", "marker"] == "Licensed to Acme B.V. under one or more contributor"
    # the kept header is copied with the code (all 16 of its lines, the closing "under the
    # License." alone on its line included); the target's own notice is not
    assert int(files.loc["tgt/client.py", "header_copied_lines"]) == 16
    obligations = pd.read_csv(out / "obligations.csv", **read).set_index("target_path")
    assert obligations.loc["tgt/client.py", "keeps_copyright"] == "yes"
    assert obligations.loc["tgt/client.py", "upstream_copyrights"] == \
        "Licensed to Acme B.V. under one or more contributor"
    assert obligations.loc["tgt/conn.py", "keeps_copyright"] == "no"
    assert "copyright" in obligations.loc["tgt/conn.py", "missing"]
