"""A folder named after the namespace of an upstream's namespaced package marks its files at that
package's paths when the distribution's dotted name spells namespace and package (strictyaml 1.7.3
carries ruamel.yaml 0.16.13 as ``strictyaml/ruamel/``: ``ruamel/yaml/`` renamed one level up); a
namespace that is not the distribution's whole name, or files not at the package's paths, name
no folder (``folder_markers``, ``_namespace_top``)."""

from lineage.index.vendoring import folder_markers

PATHS = ["tgt/__init__.py", "tgt/nsx/__init__.py", "tgt/nsx/reader.py", "tgt/nsx/emitter.py"]
UP_PATHS = frozenset({"nsx/pkgy/__init__.py", "nsx/pkgy/reader.py", "nsx/pkgy/emitter.py"})


def test_a_namespace_folder_stands_for_the_package_its_distribution_names() -> None:
    found = folder_markers(PATHS, [("nsx.pkgy", {"nsx/pkgy"}, UP_PATHS)])
    assert sorted(found) == ["tgt/nsx/__init__.py", "tgt/nsx/emitter.py", "tgt/nsx/reader.py"]
    marker = found["tgt/nsx/reader.py"][0]
    assert (marker.kind, marker.path, marker.project, marker.text) == (
        "folder", "nsx/pkgy/reader.py", "nsx.pkgy", "tgt/nsx/ named after nsx.pkgy")


def test_other_names_and_layouts_name_no_folder() -> None:
    # the namespace alone, or another package of it, is not the distribution's name
    assert folder_markers(PATHS, [("nsx", {"nsx/pkgy"}, UP_PATHS)]) == {}
    assert folder_markers(PATHS, [("nsx.other", {"nsx/pkgy"}, UP_PATHS)]) == {}
    # the target's own files, not at the package's paths
    own = ["tgt/__init__.py", "tgt/nsx/__init__.py", "tgt/nsx/walker.py", "tgt/nsx/builder.py"]
    assert folder_markers(own, [("nsx.pkgy", {"nsx/pkgy"}, UP_PATHS)]) == {}
