"""Which upstream file a marker's path names (:func:`resolve_marker_path`).

The match reads these paths (a named file breaks pairing ties), so the rule lives in a package the
match cache's code fingerprint covers (``lineage.match.store.FINGERPRINTED``): in
``lineage.results.tables`` a change to it was answered by older match entries (279833a's
dotted-name rule moved 3 copied lines of the main job that a cached run did not show).
"""

from __future__ import annotations

import os
import re

from lineage.markers.record import Marker


def resolve_marker_path(marker: Marker, up_paths: set[str], by_name: dict[str, list[str]]) -> str:
    """The upstream path a marker names, if it exists there: exactly, or as a path suffix, or
    else the one upstream file of its name that shares the most trailing folders with it (at
    least one: vllm-ascend's "adapted from vllm/worker/gpu_worker.py" names vLLM 0.7's
    ``vllm/v1/worker/gpu_worker.py``, not ``vllm/worker/tpu_worker.py``); "" when none or a tie."""
    if not marker.path:
        return ""
    path = marker.path.strip("/")
    found = _resolve_path(path, up_paths, by_name)
    if found or not _from_dotted_name(marker, path):
        return found
    # a dotted name is a module, a package's __init__.py, or (its last parts lower case, so the
    # marker could not tell) a function or attribute of the module before it, as Python imports
    # them: diffusers' "based on [`~transformers.BERT`]" names transformers' package, not a
    # transformers.py it lacks; "Copied from transformers.models.llama.modeling_llama.rotate_half"
    # names modeling_llama.py, not a modeling_llama/rotate_half.py (a file path written out, as
    # in a URL, is that file only)
    module = path[:-3]
    found = _resolve_path(f"{module}/__init__.py", up_paths, by_name)
    # an attribute lives in a module file: a package's __init__.py is not taken for a module the
    # upstream no longer holds ("vllm.model_executor.layers.gone" names no layers/__init__.py)
    for _ in range(_DOTTED_ATTRIBUTE_PARTS):
        if found or "/" not in module:
            return found
        module = module.rsplit("/", 1)[0]
        found = _resolve_path(f"{module}.py", up_paths, by_name)
    return found


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
    # trailing components in common, the file name included
    scored = sorted(((len(os.path.commonprefix([wanted, p.split("/")[::-1]])), p) for p in by_name.get(base, [])),
                    reverse=True)
    if scored and scored[0][0] >= 2 and (len(scored) == 1 or scored[1][0] < scored[0][0]):
        return scored[0][1]
    return ""
