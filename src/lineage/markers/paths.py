"""Which upstream file a provenance marker's path names (files.csv ``marker_path_found``, and the
paths a file's markers name, which the matcher's claims put first).

The files they name are an input of every match entry (``preferred`` paths), so they sit with
the markers rather than with the result tables; the match cache's key covers their code
(:data:`lineage.match.store.FINGERPRINTED`: the whole package), so a change to them is never
answered from an entry matched with the old ones.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from lineage.markers.record import Marker


class _Definition(Protocol):
    @property
    def qualname(self) -> str: ...

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


class _DefiningFile(Protocol):
    """What :func:`top_level_definers` reads of a :class:`lineage.index.FileIndex` (not imported:
    lineage.index imports this package)."""

    @property
    def path(self) -> str: ...

    @property
    def definitions(self) -> Sequence[_Definition]: ...


def resolve_marker_path(marker: Marker, up_paths: set[str], by_name: dict[str, list[str]],
                        defined: Mapping[str, Sequence[tuple[str, int]]] | None = None) -> str:
    """The upstream path a marker names, if it exists there: exactly, or as a path suffix, or
    else the one upstream file of its name that shares the most trailing folders with it (at
    least one: vllm-ascend's "adapted from vllm/worker/gpu_worker.py" names vLLM 0.7's
    ``vllm/v1/worker/gpu_worker.py``, not ``vllm/worker/tpu_worker.py``); "" when none or a tie.
    ``defined``: the upstream files defining each top-level function or class name, with the
    definition's length (:func:`top_level_definers`), for a package's attribute
    (:func:`_package_attribute`). A marker that names a package and a class or function of it
    (sentence-transformers 3.3's "based on the 🤗 Transformers :class:`~transformers.Trainer`":
    the package ``transformers``, the symbol ``Trainer``) names the file defining it below the
    package, not the package's ``__init__.py``, when the ``__init__.py`` does not define it."""
    if not marker.path:
        return ""
    path = marker.path.strip("/")
    found = _resolve_path(path, up_paths, by_name) or _other_case(path, by_name)
    if found or not _from_dotted_name(marker, path):
        return found
    found = _private_spelling(path, by_name)
    if found:
        return found
    # a dotted name is a module, a package's __init__.py, or (its last parts lower case, so the
    # marker could not tell) a function or attribute of the module before it, as Python imports
    # them: diffusers' "based on [`~transformers.BERT`]" names transformers' package, not a
    # transformers.py it lacks; "Copied from transformers.models.llama.modeling_llama.rotate_half"
    # names modeling_llama.py, not a modeling_llama/rotate_half.py (a file path written out, as
    # in a URL, is that file only)
    module = path[:-3]
    found = _resolve_path(f"{module}/__init__.py", up_paths, by_name)
    symbol = marker.symbol.split(".", 1)[0]
    if found and symbol and defined is not None and found not in {p for p, _ in defined.get(symbol, ())}:
        return _defining_file(found.rsplit("/", 1)[0] + "/", symbol, defined) or found
    # an attribute lives in a module file: a package's __init__.py is not taken for a module the
    # upstream no longer holds ("vllm.model_executor.layers.gone" names no layers/__init__.py)
    for _ in range(_DOTTED_ATTRIBUTE_PARTS):
        if found or "/" not in module:
            break
        module = module.rsplit("/", 1)[0]
        found = _resolve_path(f"{module}.py", up_paths, by_name)
    # a top-level package's function ("a copy of ``pkg_resources.to_filename()``") is read as a
    # package's attribute as a deeper one is: leaving the loop above at the top-level name skipped
    # this, and pip 24.2's two markers naming pkg_resources' functions were "not in the trees
    # compared" against setuptools 72.1.0, whose pkg_resources/__init__.py defines both
    return found or _package_attribute(path[:-3], up_paths, by_name, defined if defined is not None else {})


def _other_case(path: str, by_name: dict[str, list[str]]) -> str:
    """The one upstream file a path names in other letter case (:func:`_one_spelled`): vLLM
    0.32.0's ``glm4_1v.py`` and ``glm_ocr.py`` say "Adapted from
    .../transformers/blob/main/src/transformers/models/Glm4v/modeling_Glm4v.py", which no tree
    holds, and summary.md listed the file the marker names as "not in the trees compared" (with
    the advice to compare the release it names) though transformers 5.16.1 holds
    ``models/glm4v/modeling_glm4v.py``."""
    return _one_spelled(path, by_name, str.lower)


def _private_spelling(path: str, by_name: dict[str, list[str]]) -> str:
    """The one upstream file a dotted name spells by its public name while the upstream keeps it
    in a private module or folder, the same path but for leading underscores (:func:`_one_spelled`):
    py exports ``py/_path/`` as ``py.path``, and pytest 8.3.3's ``pathlib.py`` says "A port of
    FNMatcher from py.path.common", whose ``marker_path_found`` was false against py 1.11.0, which
    holds ``py/_path/common.py`` (numpy 2 moved ``numpy.core`` to ``numpy/_core/`` the same way).
    Only for a dotted name: a file path written out names that file only."""
    return _one_spelled(path, by_name, _public)


def _public(part: str) -> str:
    """A path part without its leading underscores (:func:`_private_spelling`'s fold)."""
    return part.lstrip("_")


class PathsByName(dict[str, list[str]]):
    """Upstream paths by file name (``by_name`` throughout this module), with the names of each
    folded spelling (:func:`_one_spelled`) gathered on first use and kept: a rerun that changed
    one sglang file resolves about 480 markers against vLLM 0.32.0's file names, and folding
    every name again for each marker was a quarter of a second of its profile. A plain dict
    serves as well, folded anew on each lookup."""

    def __init__(self, paths: Iterable[str] = ()) -> None:
        super().__init__()
        self.spellings: dict[Callable[[str], str], dict[str, list[str]]] = {}
        for path in paths:
            self.setdefault(posixpath.basename(path), []).append(path)


def _names_folded(by_name: Mapping[str, list[str]], fold: Callable[[str], str]) -> dict[str, list[str]]:
    """The file names of ``by_name`` by their ``fold``-ed spelling (kept by a :class:`PathsByName`)."""
    kept = getattr(by_name, "spellings", None)
    if kept is not None and fold in kept:
        return kept[fold]
    names: dict[str, list[str]] = {}
    for name in by_name:
        names.setdefault(fold(name), []).append(name)
    if kept is not None:
        kept[fold] = names
    return names


def _one_spelled(path: str, by_name: dict[str, list[str]], fold: Callable[[str], str]) -> str:
    """The one upstream file whose path is ``path`` once each part is folded by ``fold``: exactly
    or as a path suffix either way, as for :func:`_resolve_path`; "" when none or more than one.
    Only the upstream files of that name once folded are read (``by_name``: upstream paths by
    file name), not every upstream path for each marker."""
    wanted = [fold(part) for part in path.split("/")]
    hits = []
    for name in _names_folded(by_name, fold).get(wanted[-1], ()):
        for p in by_name[name]:
            have = [fold(part) for part in p.split("/")]
            n = min(len(have), len(wanted))
            if have[-n:] == wanted[-n:]:
                hits.append(p)
    return hits[0] if len(hits) == 1 else ""


def _package_attribute(module: str, up_paths: set[str], by_name: dict[str, list[str]],
                       defined: Mapping[str, Sequence[tuple[str, int]]]) -> str:
    """The file a package's public function or class named by a dotted name is defined in: a
    package re-exports names from its private modules ("based on ``scipy.signal.get_window``"
    names ``scipy/signal/windows/_windows.py``, which scipy.signal's ``__init__.py`` imports;
    "based on scipy.ndimage.distance_transform_edt", ``scipy/ndimage/_morphology.py``), and no
    ``scipy/signal/get_window.py`` was ever removed. The file below the package that defines that
    name at its top level (:func:`_defining_file`); "" when none (a module the upstream no longer
    holds) or a tie."""
    package, _, name = module.rpartition("/")
    init = _resolve_path(f"{package}/__init__.py", up_paths, by_name) if package else ""
    if not init:
        return ""
    return _defining_file(init.rsplit("/", 1)[0] + "/", name, defined)


def _defining_file(folder: str, name: str, defined: Mapping[str, Sequence[tuple[str, int]]]) -> str:
    """The one file below ``folder`` that defines ``name`` at its top level; of several, the one
    whose definition is the longest, strictly: the implementation, not a placeholder (transformers
    4.46's ``Trainer`` is ``trainer.py``'s, not ``utils/dummy_pt_objects.py``'s three-line stand-in
    for installs without torch); "" when none, or on a tie."""
    lengths: dict[str, int] = {}
    for path, length in defined.get(name, ()):
        if path.startswith(folder):
            lengths[path] = max(length, lengths.get(path, 0))
    ranked = sorted(lengths.items(), key=lambda item: (-item[1], item[0]))
    if not ranked or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return ""
    return ranked[0][0]


def top_level_definers(files: Iterable[_DefiningFile]) -> dict[str, list[tuple[str, int]]]:
    """Each top-level function or class name of ``files``, with the paths of the files defining
    it and the definition's length in lines."""
    out: dict[str, list[tuple[str, int]]] = {}
    for f in files:
        for d in f.definitions:
            if "." not in d.qualname:
                out.setdefault(d.qualname, []).append((f.path, d.end - d.start + 1))
    return out


class TopLevelDefiners(Mapping[str, list[tuple[str, int]]]):
    """:func:`top_level_definers` of ``files``, made on the first lookup: few runs resolve a
    dotted name to a package's attribute, and making it decodes every upstream file's
    definitions (:class:`lineage.index.store.PackedDefinitions`; about 0.1 s of a rerun that
    changed one sglang file)."""

    def __init__(self, files: Iterable[_DefiningFile]) -> None:
        self._files: Iterable[_DefiningFile] | None = files
        self._made: dict[str, list[tuple[str, int]]] = {}

    def _definers(self) -> dict[str, list[tuple[str, int]]]:
        if self._files is not None:
            self._made, self._files = top_level_definers(self._files), None
        return self._made

    def __getitem__(self, name: str) -> list[tuple[str, int]]:
        return self._definers()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._definers())

    def __len__(self) -> int:
        return len(self._definers())


# How many trailing parts of a dotted name may be a module's attributes (a function; a class's
# method, ``module.func.attr`` is rare) rather than modules.
_DOTTED_ATTRIBUTE_PARTS = 2


def _from_dotted_name(marker: Marker, path: str) -> bool:
    """Whether a marker's ``path`` was read from a dotted module name (``lineage.markers``,
    "Fields"), not written out as a file's path."""
    dotted = path[:-3].replace("/", ".")
    return (path.endswith(".py") and not marker.repository and path not in marker.text
            and re.search(rf"(?<![\w.]){re.escape(dotted)}(?![\w])", marker.text) is not None)


def _resolve_path(path: str, up_paths: set[str], by_name: dict[str, list[str]]) -> str:
    """:func:`resolve_marker_path` for one spelling of the path."""
    if path in up_paths:
        return path
    base = path.rsplit("/", 1)[-1]
    candidates = [p for p in by_name.get(base, []) if p.endswith("/" + path) or path.endswith("/" + p)]
    if candidates:
        return sorted(candidates, key=lambda p: (len(p), p))[0]
    wanted = path.split("/")[::-1]
    # trailing components in common, the file name included; a package's __init__.py is named by
    # its folder, so its name adds nothing and two folders must agree, as for a folder
    # (:func:`lineage.results.tables.upstream_folder_named`): xarray's "Adapted from
    # pandas.tsseries.frequencies._FrequencyInferer" (a typo) named pandas'
    # tests/tseries/frequencies/__init__.py by "frequencies" alone
    least = 3 if base == "__init__.py" else 2
    scored = sorted(((len(os.path.commonprefix([wanted, p.split("/")[::-1]])), p) for p in by_name.get(base, [])),
                    reverse=True)
    if scored and scored[0][0] >= least and (len(scored) == 1 or scored[1][0] < scored[0][0]):
        return scored[0][1]
    return ""


def names_target_module(marker: Marker, target_paths: set[str], shared_tops: set[str], upstream_found: str) -> bool:
    """Whether a provenance marker's dotted name names the target's own module, not the upstream's:
    a fork that keeps the upstream's package name (urllib3-future 2.12.900 is ``urllib3``) writes
    "Based on :class:`urllib3.backend.BaseBackend`" of its own ``urllib3/backend/``, which urllib3
    2.2.3 lacks. So: no repository, a dotted name (not a file path written out) under a top-level
    package both trees hold (``shared_tops``), the upstream holding no file it names
    (``upstream_found`` empty: :func:`resolve_marker_path`), and the target holding the module
    or package exactly."""
    if marker.kind in ("vendored", "folder", "copyright", "spdx") or marker.repository or upstream_found:
        return False  # a record's or a holder's name is no reference to a module
    path = marker.path.strip("/")
    if not _from_dotted_name(marker, path) or path.split("/", 1)[0] not in shared_tops:
        return False
    return path in target_paths or f"{path[:-3]}/__init__.py" in target_paths
