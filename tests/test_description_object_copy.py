"""A "copy of a NAME object" names an object the library makes, not the project's code (PTable
0.9.2's PKG-INFO: "If you want a copy of a PrettyTable object with just a subset of the rows, you
can use list slicing notation:" was quoted as PTable's statement that it copied prettytable)."""

from lineage.markers.description import reuse_statements, statements_naming


def _named(text: str, name: str) -> list[str]:
    return [s.text for s in statements_naming(reuse_statements("README.md", text), [name])]


def test_a_copy_of_an_object_is_no_statement_of_reuse() -> None:
    text = "If you want a copy of a Gridtable object with just a subset of the rows, use slicing.\n"
    assert _named(text, "gridtable") == []
    assert _named("Return a copy of the Gridtable instances you passed in.\n", "gridtable") == []


def test_a_copy_or_fork_of_the_project_still_is() -> None:
    assert _named("This package is a fork of Gridtable with more options.\n", "gridtable") == [
        "This package is a fork of Gridtable with more options."]
    assert _named("Internally it is a copy of the Gridtable library.\n", "gridtable") == [
        "Internally it is a copy of the Gridtable library."]
