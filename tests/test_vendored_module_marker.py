"""A single-module upstream vendored as one file in a vendoring folder, named after it, is marked
by its place (lineage.index.vendoring.module_markers): pip 9.0.3's wheel carries
``pip/_vendor/pyparsing.py`` and ``pip/_vendor/appdirs.py`` without a vendor.txt."""

from lineage.index.vendoring import module_markers
from lineage.markers import marker_names_upstream

VENDOR = frozenset({"_vendor", "vendor", "third_party"})
UPMOD = ("upmod", {"upmod"}, frozenset({"upmod.py", "tests/test_upmod.py"}))


def test_a_module_named_after_the_upstream_in_a_vendoring_folder_is_marked() -> None:
    paths = ["tgt/__init__.py", "tgt/_vendor/__init__.py", "tgt/_vendor/upmod.py", "tgt/upmod.py",
             "tgt/utils/upmod.py", "tgt/_vendor/other.py", "upmod.py", "tgt/_vendor/pkg/upmod.py"]
    found = module_markers(paths, [UPMOD], VENDOR)
    # not the target's own module of that name, nor one outside a vendoring folder, nor a
    # top-level file, nor one in a vendored package's folder (its own module, at another path)
    assert sorted(found) == ["tgt/_vendor/upmod.py"]
    marker = found["tgt/_vendor/upmod.py"][0]
    assert (marker.kind, marker.line, marker.path, marker.project, marker.text) == (
        "folder", 0, "upmod.py", "upmod", "tgt/_vendor/upmod.py named after upmod")
    assert marker_names_upstream(marker, {"upmod"})


def test_no_module_marker_without_the_name_the_module_or_when_a_record_covers_it() -> None:
    paths = ["tgt/__init__.py", "tgt/_vendor/upmod.py"]
    # a distribution named otherwise than its module gives it no name
    assert module_markers(paths, [("upmod-tools", {"upmod"}, UPMOD[2])], VENDOR) == {}
    # an upstream whose upmod is a package, not the module: folder_markers' case
    assert module_markers(paths, [("upmod", {"upmod"}, frozenset({"upmod/__init__.py"}))], VENDOR) == {}
    # a vendoring record covers the file already
    assert module_markers(paths, [UPMOD], VENDOR, covered_paths=["tgt/_vendor/upmod.py"]) == {}


def test_a_private_vendoring_folder_is_one_too() -> None:
    """py 1.8.1 keeps iniconfig's one module as ``py/_vendored_packages/iniconfig.py``: the default
    ``vendor_folders`` names ``vendored_packages``, and a leading underscore (a private folder)
    names the same folder (round user146's item; before, no folder marker reached the copy)."""
    from lineage.match.params import MatchParams

    paths = ["py/__init__.py", "py/_vendored_packages/__init__.py", "py/_vendored_packages/iniconfig.py"]
    iniconfig = ("iniconfig", {"iniconfig"}, frozenset({"iniconfig.py"}))
    found = module_markers(paths, [iniconfig], MatchParams().vendor_folder_names)
    assert sorted(found) == ["py/_vendored_packages/iniconfig.py"]
    assert found["py/_vendored_packages/iniconfig.py"][0].text == (
        "py/_vendored_packages/iniconfig.py named after iniconfig")
    # the old reading, the names as written: no marker
    assert module_markers(paths, [iniconfig], frozenset({"vendored_packages", "_vendor"})) == {}
