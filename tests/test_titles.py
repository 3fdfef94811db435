"""summary.md's and the HTML index's title name each source with its release or commit, so two
releases of one project (pydantic 2.10.6 against the 1.10.19 it ships as ``pydantic.v1``) do not
read "pydantic against pydantic" (round user161's Left 3)."""

from __future__ import annotations

from types import SimpleNamespace

from lineage.report.attachments import versioned_name
from lineage.report.summary import comparison_title


def _tree(kind: str, label: str, **details: str) -> SimpleNamespace:
    info = SimpleNamespace(kind=kind, label=label, details=details, digest="sha256:" + "0" * 64)
    return SimpleNamespace(info=info, project=None)


def test_a_title_names_each_release_or_commit() -> None:
    new = _tree("pypi", "pydantic", name="pydantic", version="2.10.6")
    old = _tree("pypi", "pydantic", name="pydantic", version="1.10.19")
    git = _tree("git", "discord.py", commit="45d498c1a8e5f27b3c2f0d9e6a1b4c7d8e9f0a1b")
    folder = _tree("dir", "work")
    comparison = SimpleNamespace(target=new, upstreams=[old, git, folder],
                                 upstream_names=["pydantic", "discord.py", "work"])
    assert comparison_title(comparison) == "pydantic 2.10.6 against pydantic 1.10.19, discord.py 45d498c1a8e5, work"  # type: ignore[arg-type]
    # a label that already says its release is not given it twice
    assert versioned_name(_tree("pypi", "vllm-0.32.0", name="vllm", version="0.32.0")) == "vllm-0.32.0"  # type: ignore[arg-type]
