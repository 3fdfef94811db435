"""An upstream's own description that says it took code from the target (aioredis 2.0.1's
"Port redis-py's client implementation to aioredis", against redis 5.2.0): read as a statement of
reuse (lineage.markers.description) and quoted in summary.json / summary.md, changing no figure."""

from __future__ import annotations

import json
from pathlib import Path

import treegen

from lineage.cli import main
from lineage.markers.description import reuse_statements, statements_naming

CHANGES = """Metadata-Version: 2.1
Name: asynccore
Version: 2.0

## 2.0.0

- Port upcore-py's client implementation to asynccore.
- Copy the upcore docs into the package.
- Port fixes to Python 3.10.
"""


def test_port_of_a_projects_code_in_the_possessive_states_reuse() -> None:
    found = reuse_statements("a.dist-info/METADATA", CHANGES, metadata=True)
    # only the verb with a project's code in the possessive: "Copy the upcore docs" and
    # "Port fixes to" name no code taken from a project
    assert [(s.line, s.kind) for s in found] == [(7, "ported_from")]
    assert [s.line for s in statements_naming(found, {"upcore-py"})] == [7]
    assert statements_naming(found, {"asynccore"}) == []  # named only after the name taken from
    assert [s.kind for s in reuse_statements("R.md", "Copied upcore's source files here.\n")] == ["copied_from"]


def _compare(tmp_path: Path, changes: str, html: bool = False) -> Path:
    body = treegen.distinctive_functions(3)
    target = {"upcore/__init__.py": "", "upcore/client.py": body,
              "pyproject.toml": '[project]\nname = "upcore"\nurls = {Source = "https://github.com/up-org/upcore-py"}\n'}
    upstream = {"asynccore/__init__.py": "", "asynccore/client.py": body,
                "pyproject.toml": '[project]\nname = "asynccore"\n', "README.md": changes}
    out = tmp_path / "out"
    assert main(["compare", str(treegen.write_tree(tmp_path / "tgt", target)),
                 str(treegen.write_tree(tmp_path / "up", upstream)), "--out", str(out),
                 *([] if html else ["--no-html"]), "--formats", "none", "-q", "--no-cache", "--jobs", "1"]) == 0
    return out


def test_summary_quotes_the_upstreams_statement_naming_the_target(tmp_path: Path) -> None:
    out = _compare(tmp_path, "# Asynccore\n\nPort upcore-py's client implementation to asynccore.\n")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["format_version"] >= 17
    assert summary["declared_reuse_from_target"] == [{
        "upstream": summary["upstreams"][0]["label"], "path": "README.md", "line": 3, "kind": "ported_from",
        "text": "Port upcore-py's client implementation to asynccore."}]
    assert summary["declared_reuse"] == []  # the target's own description says nothing
    markdown = (out / "summary.md").read_text()
    assert "## Reuse an upstream's description states from the target: 1" in markdown
    assert "`README.md` line 3: \u201cPort upcore-py's client implementation to asynccore.\u201d" in markdown
    # the statement changes no figure: the copied lines stay copied
    assert summary["headline"] == json.loads((_compare(tmp_path / "plain", "# Asynccore\n")
                                              / "summary.json").read_text())["headline"]


def test_no_statement_naming_the_target_no_section(tmp_path: Path) -> None:
    out = _compare(tmp_path, "# Asynccore\n\nPort otherlib's client implementation to asynccore.\n")
    assert json.loads((out / "summary.json").read_text())["declared_reuse_from_target"] == []
    assert "Reuse an upstream's description states from the target" not in (out / "summary.md").read_text()


def test_the_html_index_quotes_it_too(tmp_path: Path) -> None:
    out = _compare(tmp_path, "# Asynccore\n\nPort upcore-py's client implementation to asynccore.\n", html=True)
    index = (out / "html" / "index.html").read_text()
    assert "An upstream's package description says it took code from the target:" in index
    assert "\u201cPort upcore-py&#x27;s client implementation to asynccore.\u201d" in index  # escaped
