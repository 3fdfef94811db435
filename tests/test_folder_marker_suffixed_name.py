"""A folder named after an upstream's one top-level package marks its files when the upstream's
distribution name is that package's name with a suffix (fluidity-sm's ``fluidity``, which invoke
2.2 carries as ``invoke/vendor/fluidity/``); a package the distribution's name does not begin
with, one of several, or a name that is only a folder's label, names no folder
(``folder_markers``, ``_folder_names_upstream``)."""

from lineage.index.vendoring import folder_markers

PATHS = ["tgt/__init__.py", "tgt/vendor/__init__.py", "tgt/vendor/upkg/__init__.py", "tgt/vendor/upkg/machine.py"]
UP_PATHS = frozenset({"upkg/__init__.py", "upkg/machine.py"})


def test_a_suffixed_distribution_name_names_its_one_package_folder() -> None:
    found = folder_markers(PATHS, [("upkg-sm", {"upkg"}, UP_PATHS)], declared=["upkg-sm"])
    assert sorted(found) == ["tgt/vendor/upkg/__init__.py", "tgt/vendor/upkg/machine.py"]
    marker = found["tgt/vendor/upkg/machine.py"][0]
    assert (marker.kind, marker.path, marker.project, marker.text) == (
        "folder", "upkg/machine.py", "upkg-sm", "tgt/vendor/upkg/ named after upkg-sm")


def test_other_names_name_no_folder() -> None:
    # a label a folder's name gave, not a declared distribution name (a directory `upkg-src`)
    assert folder_markers(PATHS, [("upkg-src", {"upkg"}, UP_PATHS)]) == {}
    # the package's name is not the distribution's first part (PyYAML's yaml)
    assert folder_markers(PATHS, [("pyupkg", {"upkg"}, UP_PATHS)], declared=["pyupkg"]) == {}
    # a prefix that is not a whole part of the name
    assert folder_markers(PATHS, [("upkgsm", {"upkg"}, UP_PATHS)], declared=["upkgsm"]) == {}
    # one of several top-level packages the upstream ships
    assert folder_markers(PATHS, [("upkg-sm", {"upkg", "tests"}, UP_PATHS)], declared=["upkg-sm"]) == {}
