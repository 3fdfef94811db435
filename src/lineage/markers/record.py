"""The :class:`Marker` record and its kinds (fields are specified in :mod:`lineage.markers`)."""

from __future__ import annotations

from dataclasses import dataclass

MARKER_KINDS: tuple[str, ...] = (
    "derived_from",
    "adapted_from",
    "copied_from",
    "based_on",
    "modified_from",
    "ported_from",
    "taken_from",
    "inspired_by",
    "url",
    "spdx",
    "copyright",
    "vendored",  # a vendoring record outside the file (lineage.index.vendoring)
    "licence_pointer",  # "Licence at LICENSES/PYPERCLIP_LICENSE" (lineage.markers.pointers)
)

MAX_TEXT = 200


@dataclass(frozen=True)
class Marker:
    """One provenance marker; see the module docstring for how each field is filled."""

    line: int
    kind: str
    text: str
    repository: str = ""
    ref: str = ""
    path: str = ""
    symbol: str = ""
    line_start: int = 0
    line_end: int = 0
    replacements: tuple[tuple[str, str], ...] = ()
    licence: str = ""
    project: str = ""  # the project the marker names ("vllm-ascend", "transformers"), if it says


def one_line(text: str) -> str:
    return " ".join(text.split())[:MAX_TEXT].rstrip()

