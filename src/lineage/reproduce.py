"""``lineage reproduce MANIFEST``: rerun a report from its manifest and check it comes out the same.

A report attached to a licence review must still follow from its inputs months later. Its
``manifest.json`` records every input with its digest (archive sha256, git commit, PyPI release
and sha256), the matcher parameters, the upstream order and the sha256 of every figure file. This
module reopens each input as recorded, refuses one whose digest differs or that cannot be had,
reruns the comparison with the recorded parameters, and compares the new files' digests with the
recorded ones; for a differing file it names the first differing figure (from the old file beside
the manifest, when that is still the recorded one).

A rerun by another lineage version, or with other versions of the libraries that decide figures
(:data:`lineage.report.manifest.FIGURE_PACKAGES`), is reported in :attr:`Reproduction.notes`,
never silently accepted.

Reading and checking the manifest is :mod:`lineage.reproduce_manifest`, comparing the rerun's
files with the recorded ones :mod:`lineage.reproduce_diff`; this module reopens and reruns.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from lineage.errors import SourceError
from lineage.report.attachments import report_time
from lineage.reproduce_diff import FileDifference, compare_outputs, first_difference
from lineage.reproduce_manifest import (
    RecordedInput,
    ReproduceError,
    environment_notes,
    load_manifest,
    manifest_path,
    recorded_inputs,
    recorded_options,
    recorded_params,
)
from lineage.settings import RunSettings
from lineage.sources import Source, open_source
from lineage.sources.git import commit_spec


@dataclass
class Reproduction:
    """What a rerun gave: the recorded files it reproduced and those it did not."""

    manifest: Path
    out_dir: Path | None  # where the rerun's report is (None: a temporary folder, removed)
    identical: list[str]
    differing: list[FileDifference]
    notes: list[str]

    @property
    def reproduced(self) -> bool:
        return not self.differing

    def lines(self, limit: int = 20) -> list[str]:
        """The verdict as the CLI prints it."""
        out = [f"note: {n}" for n in self.notes]
        total = len(self.identical) + len(self.differing)
        if self.reproduced:
            out.append(f"reproduced: {total:,} files identical")
        else:
            out.append(f"not reproduced: {len(self.differing):,} of {total:,} files differ")
            out += [f"  {d.path}: {d.first}" for d in self.differing[:limit]]
            if len(self.differing) > limit:
                out.append(f"  ... and {len(self.differing) - limit:,} more")
        if self.out_dir is not None:
            out.append(f"the rerun's report is in {self.out_dir}")
        return out


# ----------------------------------------------------------------------------- reopening inputs


def _candidates(item: RecordedInput) -> list[str]:
    """Specs that may reopen a local input: where it was, then the spec as given (relative to here)."""
    if item.kind == "git":
        commit = str(item.details.get("commit", ""))
        if not commit:
            raise ReproduceError(f"the manifest's {item.describe()} records no commit")
        repo = item.spec.rsplit("@", 1)[0]
        return [commit_spec(where, item.details) for where in dict.fromkeys([item.location, repo]) if where]
    return [where for where in dict.fromkeys([item.location, item.spec]) if where]


def reopen(item: RecordedInput, cache_dir: Path | None) -> Source:
    """The input as recorded, its digest checked; its spec and details are the recorded ones, so
    reports that show them come out the same however the input was reached."""
    if item.kind == "pypi":
        name, version = item.details.get("name"), item.details.get("version")
        if not name or not version or not item.digest.startswith("sha256:"):
            raise ReproduceError(f"the manifest's {item.describe()} lacks its name, version or sha256")
        specs = [f"pypi:{name}=={version}#sha256={item.digest.removeprefix('sha256:')}"]
    elif item.kind in ("dir", "archive", "git"):
        specs = _candidates(item)
    else:
        raise ReproduceError(f"the manifest's {item.describe()} has an unknown kind {item.kind!r}")
    local = [s for s in specs
             if item.kind == "pypi" or os.path.exists(s.rsplit("@", 1)[0] if item.kind == "git" else s)]
    if not local:
        raise ReproduceError(f"cannot reopen the {item.describe()}: {item.location or item.spec} no longer exists")
    try:
        source = open_source(local[0], cache_dir)
    except SourceError as exc:
        raise ReproduceError(f"cannot reopen the {item.describe()}: {exc}") from None
    if item.digest and source.info.digest != item.digest:
        source.close()
        raise ReproduceError(f"the {item.describe()} is not the recorded input: digest {source.info.digest or 'none'}, "
                             f"the manifest records {item.digest}")
    source.info = dataclasses.replace(source.info, spec=item.spec, details=item.details)
    return source


# ----------------------------------------------------------------------------- the rerun


def _recorded_time(data: dict[str, Any], notes: list[str]) -> datetime | None:
    """The creation time the report's SPDX and CycloneDX carry, to write them again with it."""
    text = data.get("attachments_created")
    if isinstance(text, str):
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            pass
    if any(p.endswith((".spdx.json", ".cdx.json")) for p in data["outputs"]):
        notes.append("the manifest does not record the attachments' creation time (written by an older "
                     "lineage): SPDX and CycloneDX differ in it")
    return None


@dataclass
class _Opener:
    """Hands :func:`lineage.api.compare` the recorded inputs, in order, for their recorded specs."""

    inputs: list[RecordedInput]
    cache_dir: Path | None
    _next: Iterator[RecordedInput] = field(init=False)

    def __post_init__(self) -> None:
        self._next = iter(self.inputs)

    def __call__(self, spec: str, root: Path) -> Source:
        item = next(self._next)
        assert item.spec == spec, (item.spec, spec)
        return reopen(item, self.cache_dir if self.cache_dir is not None else root)


def reproduce(manifest: str | Path, out_dir: str | Path | None = None, *,
              settings: RunSettings | None = None) -> Reproduction:
    """Rerun the report that ``manifest`` (a manifest.json or its report folder) records.

    The rerun's report is written to ``out_dir`` (default: a temporary folder, removed after the
    comparison). ``settings`` says how to run (cache, workers, progress); its file size limit is
    replaced by the one the manifest records. Raises :class:`ReproduceError` (a
    :class:`LineageError`) when the report is incomplete or an input cannot be had or is not the
    recorded one.
    """
    from lineage.api import compare
    from lineage.report import ATTACHMENTS

    path = manifest_path(Path(manifest))
    if not path.is_file():
        raise ReproduceError(f"no such manifest: {manifest}")
    data = load_manifest(path)
    report_dir = path.parent
    inputs = recorded_inputs(data)
    notes = environment_notes(data)
    params = recorded_params(data, notes)
    max_file_bytes, target_names = recorded_options(data, notes)
    recorded = {str(k): str(v) for k, v in data["outputs"].items()}
    if out_dir is not None and Path(os.path.abspath(out_dir)).resolve() == report_dir.resolve():
        raise ReproduceError(f"--out {out_dir} is the report being reproduced; write the rerun elsewhere")

    settings = dataclasses.replace(settings or RunSettings(),
                                   max_file_bytes=max_file_bytes)
    comparison = compare(inputs[0].spec, [i.spec for i in inputs[1:]], params=params, settings=settings,
                         target_names=target_names,
                         opener=_Opener(inputs, settings.cache_root),
                         allow_empty=True)  # the recorded run was accepted; its inputs are checked by digest
    for item, tree in zip(inputs, [comparison.target, *comparison.upstreams], strict=True):
        if item.tree_digest and tree.tree_digest != item.tree_digest:
            if not item.digest:  # a folder: no digest stands for its Python files
                raise ReproduceError(f"the {item.describe()} is not the recorded input: its Python files hash to "
                                     f"{tree.tree_digest}, the manifest records {item.tree_digest}")
            notes.append(f"the {item.describe()} has the recorded digest but this lineage reads other Python "
                         f"files from it (tree digest {tree.tree_digest}, recorded {item.tree_digest})")
        differs = _records_differ([r.to_dict() for r in tree.vendoring], item.vendoring)
        if differs:
            # which files are marked follows the records: for a folder, part of what it is
            if not item.digest:
                raise ReproduceError(f"the {item.describe()} is not the recorded input: its vendoring records "
                                     f"(vendor.txt, vendored *.dist-info) differ from the manifest's: {differs}")
            notes.append(f"the {item.describe()} has the recorded digest but this lineage reads other vendoring "
                         f"records from it: {differs}")

    html = any(p.startswith("html/") for p in recorded)
    created = _recorded_time(data, notes)
    # Every attachment is written and only the recorded files are compared: the manifest lists
    # the files, not the --formats that chose them.
    with tempfile.TemporaryDirectory(prefix="lineage-reproduce-") as tmp:
        rerun = Path(out_dir) if out_dir is not None else Path(tmp) / "report"
        with report_time(created):
            comparison.write(rerun, html=html, formats=tuple(ATTACHMENTS))
        identical, differing, more = compare_outputs(recorded, report_dir, rerun)
    return Reproduction(manifest=path, out_dir=Path(out_dir) if out_dir is not None else None,
                        identical=identical, differing=differing, notes=notes + more)


def _records_differ(now: list[dict[str, Any]], recorded: list[Any] | None) -> str:
    """The first vendoring record that differs between this run and the manifest, in words ("" when
    none does or the manifest records none); a record's line does not count (no figure reads it)."""
    if recorded is None:
        return ""

    def key(r: Any) -> tuple[str, str, str]:
        if not isinstance(r, dict):
            return ("", str(r), "")
        rest = json.dumps({k: v for k, v in r.items() if k not in ("line", "source", "name")}, sort_keys=True)
        return (str(r.get("source", "")), str(r.get("name", "")), rest)

    mine, theirs = set(map(key, now)), set(map(key, recorded))
    if mine == theirs:
        return ""
    if mine - theirs:
        source, name, _ = min(mine - theirs)
        return f"{source} now records {name}"
    source, name, _ = min(theirs - mine)
    return f"{source} recorded {name}, no longer so"


__all__ = ["FileDifference", "RecordedInput", "ReproduceError", "Reproduction", "first_difference",
           "load_manifest", "reopen", "reproduce"]
