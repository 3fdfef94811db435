"""lineage.index.project.top_level, remembered per path set and looking packages up in a set of
folders: the same answer as the plain walk it replaced (each path's folders tried in turn for an
``__init__.py``), on generated trees with src/ roots, namespace folders and non-packages."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lineage.index.project import NOT_PACKAGES, TopLevel, import_parts, package_roots, top_level


def _walk(paths: set[str]) -> set[TopLevel]:
    """top_level as it was before its memo: every folder on a path tried for an __init__.py."""
    roots = package_roots(paths)
    tops = set()
    for path in paths:
        parts = import_parts(path, roots)
        root = path[: len(path) - len("/".join(parts))]
        name = parts[0].removesuffix(".pyi").removesuffix(".py")
        if parts[0] in NOT_PACKAGES or not name.isidentifier() or name == "__init__":
            continue
        top = "/".join(parts).removesuffix(".pyi").removesuffix(".py")
        namespace = False
        for k in range(1, len(parts)):
            if f"{root}{'/'.join(parts[:k])}/__init__.py" in paths:
                top, namespace = "/".join(parts[:k]), k > 1
                break
        tops.add(TopLevel(name, top, len(parts) > 1, namespace))
    return tops


_PART = st.sampled_from(["src", "lib", "pkg", "ns", "sub", "tests", "docs", "9bad", "a-b", "__init__.py",
                         "mod.py", "stub.pyi", "setup.py", "x.py"])
_PATH = st.lists(_PART, min_size=1, max_size=5).map(
    lambda parts: "/".join(parts) if parts[-1].endswith((".py", ".pyi")) else "/".join(parts) + "/m.py")


@settings(max_examples=300, deadline=None)
@given(st.sets(_PATH, max_size=25))
def test_top_level_gives_the_plain_walks_answer(paths: set[str]) -> None:
    assert top_level(paths) == _walk(paths)
    assert top_level(iter(sorted(paths))) == _walk(paths)  # a second ask (remembered), from an iterator


def test_a_package_below_namespace_folders_and_a_src_root() -> None:
    paths = {"src/ns/pkg/__init__.py", "src/ns/pkg/core.py", "src/lone.py", "tests/test_x.py"}
    assert top_level(paths) == {TopLevel("ns", "ns/pkg", True, True), TopLevel("lone", "lone", False, False)}
