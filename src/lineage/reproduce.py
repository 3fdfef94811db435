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
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import itertools
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from lineage import __version__
from lineage.errors import LineageError, SourceError
from lineage.match.params import MatchParams
from lineage.report.attachments import report_time
from lineage.report.manifest import FIGURE_PACKAGES, package_version, tool_info
from lineage.report.outdir import check_complete
from lineage.settings import DEFAULT_MAX_FILE_BYTES, RunSettings
from lineage.sources import Source, open_source


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

    def describe(self) -> str:
        return f"{self.role} {self.spec}"


@dataclass(frozen=True)
class FileDifference:
    path: str  # relative to the report folder
    recorded: str  # "sha256:..."
    produced: str  # "sha256:...", or "" when the rerun did not write the file
    first: str  # the first differing figure, or why it cannot be shown


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


# ----------------------------------------------------------------------------- the manifest


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
    return data


def recorded_inputs(data: dict[str, Any]) -> list[RecordedInput]:
    """The target, then the upstreams in their recorded order."""
    entries = [("target", data["target"])] + [(f"upstream {i}", u) for i, u in enumerate(data["upstreams"], 1)]
    inputs = []
    for role, entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("spec"), str) or not entry["spec"]:
            raise ReproduceError(f"the manifest's {role} has no source spec")
        inputs.append(RecordedInput(
            role=role, spec=entry["spec"], kind=str(entry.get("kind", "")), location=str(entry.get("location", "")),
            digest=str(entry.get("digest", "")), tree_digest=str(entry.get("tree_digest", "")),
            details=dict(entry.get("details") or {})))
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


# ----------------------------------------------------------------------------- reopening inputs


def _candidates(item: RecordedInput) -> list[str]:
    """Specs that may reopen a local input: where it was, then the spec as given (relative to here)."""
    if item.kind == "git":
        commit = str(item.details.get("commit", ""))
        if not commit:
            raise ReproduceError(f"the manifest's {item.describe()} records no commit")
        repo = item.spec.rsplit("@", 1)[0]
        return [f"{where}@{commit}" for where in dict.fromkeys([item.location, repo]) if where]
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


# ----------------------------------------------------------------------------- comparing files


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()


def _short(value: object, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _json_difference(old: object, new: object, where: str = "") -> str | None:
    """The first differing value (its key path), the headline first."""
    if isinstance(old, dict) and isinstance(new, dict):
        keys = sorted(set(old) | set(new), key=lambda k: (k != "headline", str(k)))
        for key in keys:
            here = f"{where}.{key}" if where else str(key)
            if key not in old:
                return f"{here}: new, {_short(new[key])}"
            if key not in new:
                return f"{here}: gone (was {_short(old[key])})"
            found = _json_difference(old[key], new[key], here)
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            found = _json_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        if len(old) != len(new):
            return f"{where}: {len(old):,} items recorded, {len(new):,} now"
        return None
    return None if old == new else f"{where}: {_short(old)} -> {_short(new)}"


def _csv_difference(old: Path, new: Path) -> str | None:
    """The first differing row: its line, first column, and the columns that differ."""
    with open(old, newline="", encoding="utf-8") as fa, open(new, newline="", encoding="utf-8") as fb:
        rows_a, rows_b = csv.reader(fa), csv.reader(fb)
        head_a, head_b = next(rows_a, []), next(rows_b, [])
        if head_a != head_b:
            return f"columns differ: recorded {_short(','.join(head_a))}, now {_short(','.join(head_b))}"
        for number, (a, b) in enumerate(itertools.zip_longest(rows_a, rows_b), 2):
            if a == b:
                continue
            if a is None or b is None:
                return f"line {number}: {'a row more' if a is None else 'a row fewer'} than recorded"
            changed = [f"{name} {_short(x, 40)} -> {_short(y, 40)}"
                       for name, x, y in itertools.zip_longest(head_a, a, b, fillvalue="") if x != y]
            key = f" ({head_a[0]}={a[0]})" if head_a and a else ""
            return f"line {number}{key}: " + "; ".join(changed[:3]) + (" ..." if len(changed) > 3 else "")
    return None


def _text_difference(old: Path, new: Path) -> str | None:
    with open(old, encoding="utf-8", errors="replace") as fa, open(new, encoding="utf-8", errors="replace") as fb:
        for number, (a, b) in enumerate(itertools.zip_longest(fa, fb), 1):
            if a != b:
                return f"line {number}: {_short((a or '').rstrip(chr(10)))} -> {_short((b or '').rstrip(chr(10)))}"
    return None


def first_difference(old: Path, new: Path) -> str:
    """The first figure that differs between a recorded file and its rerun, in one line."""
    suffix = old.suffix.lower()
    try:
        if suffix in (".json", ".sarif"):
            found = _json_difference(json.loads(old.read_text(encoding="utf-8")),
                                     json.loads(new.read_text(encoding="utf-8")))
        elif suffix == ".csv":
            found = _csv_difference(old, new)
        else:
            found = _text_difference(old, new)
    except (OSError, ValueError, csv.Error) as exc:
        return f"differs (cannot compare the figures: {exc})"
    return found or "differs in bytes only (same figures)"


def compare_outputs(recorded: dict[str, str], report_dir: Path, rerun_dir: Path
                    ) -> tuple[list[str], list[FileDifference], list[str]]:
    """(identical files, differing files, notes) of a rerun against the recorded digests."""
    identical: list[str] = []
    differing: list[FileDifference] = []
    edited: list[str] = []
    for path in sorted(recorded):
        want = str(recorded[path])
        old, new = report_dir / path, rerun_dir / path
        old_intact = old.is_file() and _sha256(old) == want
        if old.is_file() and not old_intact:
            edited.append(path)
        if not new.is_file():
            differing.append(FileDifference(path, want, "", "not written by the rerun"))
            continue
        got = _sha256(new)
        if got == want:
            identical.append(path)
            continue
        first = (first_difference(old, new) if old_intact else
                 f"sha256 {got.removeprefix('sha256:')[:12]}..., recorded {want.removeprefix('sha256:')[:12]}... "
                 "(the recorded file is not beside the manifest to show the figures)")
        differing.append(FileDifference(path, want, got, first))
    notes = []
    if edited:
        notes.append(f"{len(edited):,} files beside the manifest were changed after it was written: "
                     + ", ".join(edited[:5]) + (" ..." if len(edited) > 5 else ""))
    return identical, differing, notes


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
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    recorded = {str(k): str(v) for k, v in data["outputs"].items()}
    if out_dir is not None and Path(os.path.abspath(out_dir)).resolve() == report_dir.resolve():
        raise ReproduceError(f"--out {out_dir} is the report being reproduced; write the rerun elsewhere")

    settings = dataclasses.replace(settings or RunSettings(),
                                   max_file_bytes=int(options.get("max_file_bytes", DEFAULT_MAX_FILE_BYTES)))
    comparison = compare(inputs[0].spec, [i.spec for i in inputs[1:]], params=params, settings=settings,
                         target_names=list(options.get("target_names") or []) or None,
                         opener=_Opener(inputs, settings.cache_root),
                         allow_empty=True)  # the recorded run was accepted; its inputs are checked by digest
    for item, tree in zip(inputs, [comparison.target, *comparison.upstreams], strict=True):
        if item.tree_digest and tree.tree_digest != item.tree_digest:
            if not item.digest:  # a folder: its Python files are its only identity
                raise ReproduceError(f"the {item.describe()} is not the recorded input: its Python files hash to "
                                     f"{tree.tree_digest}, the manifest records {item.tree_digest}")
            notes.append(f"the {item.describe()} has the recorded digest but this lineage reads other Python "
                         f"files from it (tree digest {tree.tree_digest}, recorded {item.tree_digest})")

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


__all__ = ["FileDifference", "RecordedInput", "ReproduceError", "Reproduction", "first_difference",
           "load_manifest", "reopen", "reproduce"]
