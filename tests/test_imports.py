"""The layering of lineage's modules, read from their source with :mod:`ast`.

Every ``import`` counts, wherever it stands: at module level, inside a function (a lazy import
still ties the two modules together) or under ``if TYPE_CHECKING:`` (a type a module names is a
module it depends on).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "lineage"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> set[str]:
    """The lineage modules one file imports (``from lineage.x import y`` names ``lineage.x.y``
    when that is a module, else ``lineage.x``)."""
    name = module_name(path)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                base = name.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return {m for m in found if m == "lineage" or m.startswith("lineage.")}


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def graph(level: int | None = None) -> dict[str, set[str]]:
    """Import edges between lineage's modules; with ``level`` 2, between its top-level packages
    and modules (``lineage.report.summary`` counts as ``lineage.report``)."""
    known = modules()

    def node(name: str) -> str:
        return ".".join(name.split(".")[:level]) if level else name

    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        edges.setdefault(node(name), set()).update(
            node(t) for t in imported(path) if t in known and node(t) != node(name))
    return edges


def test_the_graph_sees_imports():
    g = graph(2)
    assert "lineage.match" in g["lineage.api"]
    assert "lineage.results" in g["lineage.report"]
    assert len(modules()) > 40


def cycles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one node: the import circles."""

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reached = {n: reach(n) for n in edges}
    return {frozenset({n} | {m for m in reached[n] if n in reached[m]}) for n in edges if n in reached[n]}


def test_cycles_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {frozenset("abc")}
    assert cycles({"a": {"b"}, "b": set()}) == set()


def test_no_import_cycle_between_packages():
    found = cycles(graph(2))
    assert not found, "import cycles between lineage's packages: " + "; ".join(
        " <-> ".join(sorted(c)) for c in sorted(found, key=sorted))


def test_reporters_never_import_the_api_or_the_cli():
    for name, path in modules().items():
        if name == "lineage.report" or name.startswith("lineage.report."):
            bad = {m for m in imported(path) if m.split(".")[:2] in (["lineage", "api"], ["lineage", "cli"])}
            assert not bad, f"{name} imports {sorted(bad)}"
