"""The manifest a ``lineage reproduce`` reruns from: read, checked, and turned into its inputs.

:func:`load_manifest` refuses a report that was not written whole, is of a manifest format this
lineage cannot read, or lacks what a rerun needs (an output named outside the report folder, no
output at all: a rerun that checks nothing is no reproduction);
:func:`recorded_inputs` gives the target and upstreams as recorded (spec, kind, digests),
:func:`recorded_params` the matcher parameters (one this lineage does not know is refused), and
:func:`environment_notes` how this lineage and its figure libraries differ from those that wrote
the report. Reopening the inputs and rerunning is :mod:`lineage.reproduce`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lineage import __version__
from lineage.errors import LineageError
from lineage.match.params import MatchParams
from lineage.report.folder import plain_name
from lineage.report.manifest import FIGURE_PACKAGES, MANIFEST_VERSION, package_version, tool_info
from lineage.report.outdir import check_complete
from lineage.settings import DEFAULT_MAX_FILE_BYTES


class ReproduceError(LineageError):
    """The report cannot be rerun: an input is missing or is not the recorded one."""


@dataclass(frozen=True)
class RecordedInput:
    """One input as the manifest records it."""

    role: str  # "target", "upstream 1", "upstream 2", ...
    spec: str
    kind: str  # "dir" | "archive" | "git" | "pypi"
    location: str
    digest: str  # "sha256:..." for archives and PyPI releases, "git:COMMIT" for git, "" for folders
    tree_digest: str
    details: dict[str, Any] = field(default_factory=dict)
    vendoring: list[Any] | None = None  # its vendoring records (manifest format 4 on; None before)

    def describe(self) -> str:
        return f"{self.role} {self.spec}"


def manifest_path(path: Path) -> Path:
    """The manifest named by ``path``: the file itself, or ``manifest.json`` in a report folder."""
    return path / "manifest.json" if path.is_dir() else path


def load_manifest(path: Path) -> dict[str, Any]:
    """A complete manifest (refused when the report was not written whole), with the fields needed."""
    data = check_complete(manifest_path(path))
    for key, kind in (("target", dict), ("upstreams", list), ("parameters", dict), ("outputs", dict)):
        if not isinstance(data.get(key), kind):
            raise ReproduceError(f"{path}: the manifest has no {key!r} to rerun from")
    if not data["upstreams"]:
        raise ReproduceError(f"{path}: the manifest records no upstream")
    version = data.get("format_version")
    if type(version) is not int or not 1 <= version <= MANIFEST_VERSION:
        raise ReproduceError(f"{path}: manifest format_version {version!r} is not one this lineage {__version__} "
                             f"reads (1 to {MANIFEST_VERSION})")
    if not data["outputs"]:
        raise ReproduceError(f"{path}: the manifest lists no output file to compare the rerun with")
    for name, digest in data["outputs"].items():
        if not plain_name(name):
            raise ReproduceError(f"{path}: the manifest lists an output outside the report folder: {name!r}")
        if not isinstance(digest, str) or not digest.startswith("sha256:"):
            raise ReproduceError(f"{path}: the manifest's digest of {name} is not a sha256: {digest!r}")
    return data


def recorded_inputs(data: dict[str, Any]) -> list[RecordedInput]:
    """The target, then the upstreams in their recorded order."""
    entries = [("target", data["target"])] + [(f"upstream {i}", u) for i, u in enumerate(data["upstreams"], 1)]
    inputs = []
    for role, entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("spec"), str) or not entry["spec"]:
            raise ReproduceError(f"the manifest's {role} has no source spec")
        if not isinstance(entry.get("details") or {}, dict):
            raise ReproduceError(f"the manifest's {role} {entry['spec']}: its details are not a mapping")
        inputs.append(RecordedInput(
            role=role, spec=entry["spec"], kind=str(entry.get("kind", "")), location=str(entry.get("location", "")),
            digest=str(entry.get("digest", "")), tree_digest=str(entry.get("tree_digest", "")),
            details=dict(entry.get("details") or {}),
            vendoring=list(entry["vendoring"]) if isinstance(entry.get("vendoring"), list) else None))
    return inputs


def recorded_params(data: dict[str, Any], notes: list[str]) -> MatchParams:
    """The matcher parameters of the run; a parameter this lineage does not know is refused."""
    recorded = data["parameters"]
    known = {f.name for f in dataclasses.fields(MatchParams)}
    unknown = sorted(set(recorded) - known)
    if unknown:
        raise ReproduceError(f"the manifest sets matcher parameters this lineage {__version__} does not know: "
                             f"{', '.join(unknown)}")
    missing = sorted(known - set(recorded))
    if missing:
        notes.append(f"the manifest does not record the matcher parameters {', '.join(missing)}; "
                     "their defaults were used")
    return MatchParams(**recorded)


def recorded_options(data: dict[str, Any], notes: list[str]) -> tuple[int, list[str] | None]:
    """The run's file size limit and target names (``--target-name``), as recorded; a manifest
    without them reruns with the defaults, said in a note (a rerun then may differ for that)."""
    options = data.get("options")
    if not isinstance(options, dict):
        notes.append("the manifest does not record the run's options (file size limit, target names); "
                     "their defaults were used")
        options = {}
    limit = options.get("max_file_bytes", DEFAULT_MAX_FILE_BYTES)
    if type(limit) is not int or limit < 1:
        raise ReproduceError(f"the manifest's max_file_bytes is not a whole number >= 1: {limit!r}")
    names = options.get("target_names") or []
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise ReproduceError(f"the manifest's target_names is not a list of names: {names!r}")
    return limit, names or None


def environment_notes(data: dict[str, Any]) -> list[str]:
    """How this lineage and its figure libraries differ from those that wrote the report."""
    notes = []
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    now = tool_info()
    if tool.get("version") != now["version"]:
        notes.append(f"lineage version differs: the report was written by {tool.get('version') or 'an unknown'}, "
                     f"this is {now['version']}")
    if tool.get("index_version") != now["index_version"]:
        notes.append(f"index version differs: recorded {tool.get('index_version')}, this is {now['index_version']}")
    if tool.get("commit") and now.get("commit") and tool["commit"] != now["commit"]:
        notes.append(f"lineage commit differs: the report was written by {tool['commit']}, this is {now['commit']}")
    elif tool.get("commit") and not now.get("commit"):
        notes.append(f"the report was written by lineage commit {tool['commit']}; this lineage is not a checkout")
    if tool.get("dirty"):
        notes.append(f"the report was written from a checkout with uncommitted changes (on {tool.get('commit')})")
    if now.get("dirty"):
        notes.append(f"this lineage runs from a checkout with uncommitted changes (on {now.get('commit')})")
    env = data.get("environment") if isinstance(data.get("environment"), dict) else {}
    for package in FIGURE_PACKAGES:
        was, is_ = env.get(package), package_version(package)
        if was != is_:
            notes.append(f"{package} version differs: recorded {was or 'none'}, installed {is_ or 'none'}")
    return notes


__all__ = ["RecordedInput", "ReproduceError", "environment_notes", "load_manifest", "manifest_path",
           "recorded_inputs", "recorded_options", "recorded_params"]
