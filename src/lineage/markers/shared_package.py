"""Markers in a fork that keeps its upstream's package name: which name the upstream alone.

basedmypy 2.7.0 is mypy renamed as a distribution, its packages still ``mypy/`` and ``mypyc/``.
mypy's own notes about itself, copied along with its code ("This logic is copied from mypy's
TypeChecker.analyze_iterable_item_type" in ``mypyc/irbuild/builder.py``, "Adapted from
report_internal_error in mypy" in ``mypyc/crash.py``, "... and mypyc can compile it" in
``mypy/util.py``), counted those three files as marked for mypy 1.13.0: "mypy" there is the
package both trees hold, the target's own code as much as the upstream's, and says nothing of
where the file came from. A marker with no repository, written in a file inside a top-level
package both trees hold, that names an upstream only by the names of such shared packages names
no upstream (a repository or another name of the upstream still does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lineage.markers.naming import marker_names_upstream
from lineage.markers.record import Marker

# Kinds that are no provenance statement written in the file: a vendoring record or a folder's
# placement names its upstream by rule, a copyright or SPDX line its holder or licence.
_NOT_WRITTEN = frozenset({"vendored", "folder", "copyright", "spdx"})


def shared_package_names(shared_tops: Iterable[str]) -> set[str]:
    """The names a marker may use for the top-level packages both trees hold (``jaraco/text``
    as ``jaraco.text``), lower case."""
    return {top.replace("/", ".").lower() for top in shared_tops if top}


def in_shared_package(path: str, shared_tops: Iterable[str]) -> bool:
    """Whether the target file ``path`` lies inside one of ``shared_tops`` (or is that module)."""
    return any(path == f"{top}.py" or path.startswith(f"{top}/") for top in shared_tops)


def names_shared_package_only(marker: Marker, shared: set[str], own_names: Sequence[set[str]]) -> bool:
    """Whether ``marker`` names an upstream (one of ``own_names``) only by a name in ``shared``
    (:func:`shared_package_names`), so that it names none once those are left out (module
    docstring); a marker with a repository, or not written in the file, never."""
    if not shared or marker.kind in _NOT_WRITTEN or marker.repository:
        return False
    named = [names for names in own_names if marker_names_upstream(marker, names)]
    return bool(named) and not any(marker_names_upstream(marker, names - shared) for names in named)
