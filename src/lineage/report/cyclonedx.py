"""lineage.cdx.json: a CycloneDX 1.6 BOM of the target's lineage, built with cyclonedx-python-lib.

* ``metadata.component`` is the target (name, version, purl, sha256, declared licence).
* each upstream it holds copied code from is one of its ``pedigree.ancestors`` (purl such as
  ``pkg:pypi/vllm@0.32.0``, or ``pkg:generic/<name>@<commit>`` for a git source; an upstream of
  which no line was found copied is left out: an ancestor is a descent the report shows), with
  ``evidence``: one
  ``occurrences`` entry per copied region (``location`` = the target file, ``line`` = its first
  line, ``additionalContext`` = target lines, upstream file and lines, verbatim and near counts),
  the licences of the upstream files the code came from (``evidence.licenses``: one expression,
  ``A AND B`` when they differ) and their
  copyright lines (``evidence.copyright``).

The serial number is a UUID derived from both trees' digests (the same inputs give the same
serial); the timestamp is the run's (``$SOURCE_DATE_EPOCH`` when set). The writer validates the
output with ``JsonStrictValidator(SchemaVersion.V1_6)`` and refuses to write an invalid BOM.

A run of ``lineage compare``/``corpus`` (a report folder with a cache) remembers the occurrences
that were part of a valid BOM (:func:`validation_error`): the schema checks each one alone, against
the same item schema wherever it sits, so a rerun validates the BOM with only the occurrences it has
not seen valid before (the rest of the document whole). On the pinned pair the occurrences were
almost all of the validation's 0.3 to 0.4 s, and a rerun that changed one file has a handful of new
ones. It also keeps the library's JSON of each such occurrence, and a rerun has the library make,
sort and write only the others (:class:`CycloneDxReporter`): sorting the pair's 3,900 occurrences
and converting them were about 0.15 s of such a rerun.

The validator is imported through :func:`_deferred_iri_grammars`: jsonschema's import pulls in
``rfc3987_syntax``, whose import compiles 38 lark grammars (2 to 5 s, more than the rest of the
writer), for the ``iri``/``iri-reference`` formats only, which the BOMs written here never hold (no
URL field is set). The same check runs; the grammars are compiled when an IRI is first checked.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.metadata
import importlib.util
import json
import sys
import types
import uuid
from collections.abc import Container, Iterator
from typing import TYPE_CHECKING, Any

from cyclonedx.model import Copyright, HashAlgorithm, HashType
from cyclonedx.model.bom import Bom, BomMetaData
from cyclonedx.model.component import Component, ComponentType, Pedigree
from cyclonedx.model.component_evidence import ComponentEvidence, Occurrence
from cyclonedx.model.license import LicenseExpression
from cyclonedx.output.json import JsonV1Dot6
from cyclonedx.schema import SchemaVersion
from packageurl import PackageURL

from lineage import __version__
from lineage.errors import LineageError
from lineage.licences.expressions import combine_all, normalise
from lineage.report.attachments import ancestor_labels, copied_regions, created_at, identity
from lineage.report.elements import ElementCache, element_key
from lineage.report.json_text import Encoded, compact, dumps_lines
from lineage.report.obligations import credited_copyrights
from lineage.results.obligations import source_licence

if TYPE_CHECKING:
    from pathlib import Path

    from cyclonedx.validation.json import JsonStrictValidator, JsonValidationError

    from lineage.index import TreeIndex
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison

CYCLONEDX_FILE = "lineage.cdx.json"
_IRI_MODULE = "rfc3987_syntax"


@contextlib.contextmanager
def _deferred_iri_grammars() -> Iterator[None]:
    """While jsonschema is imported inside, ``rfc3987_syntax`` is a stand-in whose functions import
    the real module on first call (jsonschema binds ``is_valid_syntax`` at its import, so that is
    what it calls): the same checks, without compiling the grammars unless an IRI is checked. Does
    nothing when either module is already imported or ``rfc3987_syntax`` is not installed."""
    if _IRI_MODULE in sys.modules or "jsonschema" in sys.modules or importlib.util.find_spec(_IRI_MODULE) is None:
        yield
        return
    stand_in = types.ModuleType(_IRI_MODULE)

    def real() -> Any:
        if sys.modules.get(_IRI_MODULE) is stand_in:
            del sys.modules[_IRI_MODULE]
        return importlib.import_module(_IRI_MODULE)

    def is_valid_syntax(*args: Any, **kwargs: Any) -> Any:
        return real().is_valid_syntax(*args, **kwargs)

    stand_in.is_valid_syntax = is_valid_syntax  # type: ignore[attr-defined]
    def attribute(name: str) -> Any:
        if name.startswith("__"):  # the import system probes __path__ and such: not a use
            raise AttributeError(name)
        return getattr(real(), name)

    stand_in.__getattr__ = attribute  # type: ignore[method-assign]
    sys.modules[_IRI_MODULE] = stand_in
    try:
        yield
    finally:  # later importers get the real module
        if sys.modules.get(_IRI_MODULE) is stand_in:
            del sys.modules[_IRI_MODULE]


@functools.cache
def _validator() -> JsonStrictValidator:
    with _deferred_iri_grammars():
        from cyclonedx.validation.json import JsonStrictValidator

    return JsonStrictValidator(SchemaVersion.V1_6)


def _component(tree: TreeIndex, label: str, bom_ref: str, **extra: object) -> Component:
    who = identity(tree, label)
    declared = normalise(source_licence(tree).declared)
    return Component(
        name=who.name, version=who.version or None, bom_ref=bom_ref, type=ComponentType.LIBRARY,
        purl=PackageURL.from_string(who.purl),
        hashes=[HashType(alg=HashAlgorithm.SHA_256, content=who.sha256)] if who.sha256 else None,
        licenses=[LicenseExpression(declared)] if declared else None, **extra)  # type: ignore[arg-type]


def occurrence_fields(comparison: Comparison) -> list[list[tuple[str, str, int, str]]]:
    """Per upstream (in order), the fields of its occurrences in region order: (bom-ref,
    location, line, additional context), all an :class:`Occurrence` of the BOM is made from."""
    regions = copied_regions(comparison)
    out = []
    for n, label in enumerate(comparison.upstream_names, start=1):
        mine = regions[regions["upstream"] == label]
        # A bom-ref of its own, numbered in region order: the library sorts occurrences by bom-ref
        # first, and among unnamed ones by object address, which changes between runs.
        out.append([(f"upstream-{n}-region-{k:06d}", str(r.target_path), int(r.target_start),
                     f"target lines {int(r.target_start)}-{int(r.target_end)} copied from "
                     f"{r.upstream_path} lines {int(r.upstream_start)}-{int(r.upstream_end)}: "
                     f"{int(r.verbatim_lines)} verbatim, {int(r.near_lines)} near")
                    for k, r in enumerate(mine.itertuples(index=False), start=1)])
    return out


def occurrence_key(fields: tuple[str, str, int, str]) -> str:
    """An occurrence's key among the stored JSON of occurrences (:meth:`CycloneDxReporter.write`)."""
    return json.dumps(fields)


def cyclonedx_bom(comparison: Comparison, fields: list[list[tuple[str, str, int, str]]] | None = None,
                  leave_out: Container[str] = ()) -> Bom:
    """The BOM; ``fields``: :func:`occurrence_fields` when already made. The occurrences whose
    bom-ref is in ``leave_out`` are left out, but the first of each upstream (its evidence keeps
    its list of occurrences, in its place, for the caller to fill: :meth:`CycloneDxReporter.write`)."""
    regions = copied_regions(comparison)
    fields = occurrence_fields(comparison) if fields is None else fields
    descended = ancestor_labels(regions)
    ancestors = []
    for n, (u, label) in enumerate(zip(comparison.upstreams, comparison.upstream_names, strict=True), start=1):
        if label not in descended:  # nothing of it found copied: its bom-ref number is kept free
            continue
        mine = regions[regions["upstream"] == label]
        occurrences = [Occurrence(bom_ref=ref, location=location, line=line, additional_context=context)
                       for k, (ref, location, line, context) in enumerate(fields[n - 1])
                       if k == 0 or ref not in leave_out]
        # one expression: the schema allows a single one, and the library writes only the first
        # of several (vLLM's phi.py code under BSD-3-Clause AND MIT went unsaid beside Apache-2.0)
        licence = combine_all(str(x) for x in mine["upstream_licence"])
        # as ATTRIBUTION.md credits them, from the same rows: one per obligations row (a set of the
        # regions' cells counted each distinct cell once, and of one holder's two lines the one
        # fewer files carry could be taken)
        table = comparison.obligations
        holders = credited_copyrights(table.loc[table["upstream"] == label, "upstream_copyrights"])
        evidence = ComponentEvidence(occurrences=occurrences,
                                     licenses=[LicenseExpression(licence)] if licence else [],
                                     copyright=[Copyright(text=h) for h in holders]) if occurrences else None
        ancestors.append(_component(u, label, f"upstream-{n}", evidence=evidence))
    # what the target's own description says it took (summary.json declared_reuse), said beside them
    declared = "".join(f"; the target's description states ({s['upstream']}, {s['path']} line {s['line']}): "
                       f"\"{s['text']}\"" for s in comparison.declared_reuse)
    target = _component(comparison.target, comparison.target.info.label, "target",
                        pedigree=Pedigree(ancestors=ancestors, notes=(
                            "Ancestors: upstreams the target holds copied code from; evidence.occurrences "
                            "lists every copied region (lineage)" + declared)))
    digests = "\n".join([comparison.target.tree_digest, *(u.tree_digest for u in comparison.upstreams)])
    metadata = BomMetaData(component=target, timestamp=created_at())
    metadata.tools.components.add(Component(name="lineage", version=__version__, type=ComponentType.APPLICATION))
    return Bom(metadata=metadata, serial_number=uuid.uuid5(uuid.NAMESPACE_URL, "lineage:" + digests))


def _occurrence_lists(bom: dict[str, Any]) -> list[list[Any]]:
    """The ``evidence.occurrences`` lists of the target's ancestors in a parsed BOM (those the
    writer fills). In the 1.6 schema such a list is an array of items checked one by one against
    one object schema (``componentEvidence.occurrences.items``: no ``uniqueItems``, no count
    bounds, no reference to the rest of the document), so an occurrence valid in one BOM is valid
    in any other, and removing it changes the validity of nothing else."""
    def at(value: Any, key: str) -> Any:  # a malformed BOM is left to the validator to refuse
        return value.get(key) if isinstance(value, dict) else None

    ancestors = at(at(at(at(bom, "metadata"), "component"), "pedigree"), "ancestors")
    lists = [at(at(ancestor, "evidence"), "occurrences") for ancestor in ancestors or []] \
        if isinstance(ancestors, list) else []
    return [occurrences for occurrences in lists if isinstance(occurrences, list)]


def _validated_context() -> str:
    """What an occurrence's validity depends on besides itself: the schema and the validator's
    libraries (a different release may check differently)."""
    versions = [importlib.metadata.version(name) for name in ("cyclonedx-python-lib", "jsonschema")]
    return element_key("cyclonedx-occurrences", SchemaVersion.V1_6.to_version(), *versions)


def validation_error(text: str, cache: Path | None = None) -> JsonValidationError | None:
    """The first schema error of BOM ``text`` (``JsonStrictValidator``, 1.6), or None.

    With ``cache`` (a cache root) the occurrences seen in a valid BOM before are left out of the
    document validated (each was checked by this validator against the same item schema; see
    :func:`_occurrence_lists`), and after a valid BOM all of its occurrences are remembered
    (:class:`lineage.report.elements.ElementCache`, kind ``cyclonedx-valid``, keyed by the
    occurrence's JSON). The rest of the document is validated whole every time."""
    if cache is None:
        return _validator().validate_str(text)
    seen = ElementCache(cache, "cyclonedx-valid", _validated_context())
    bom = json.loads(text)
    new: list[str] = []
    for occurrences in _occurrence_lists(bom):
        keys = [element_key(o) for o in occurrences]
        unseen = [seen.get(k) is None for k in keys]
        new.extend(k for k, fresh in zip(keys, unseen, strict=True) if fresh)
        occurrences[:] = [o for o, fresh in zip(occurrences, unseen, strict=True) if fresh]
    error = _validator().validate_str(json.dumps(bom) if seen.current else text)  # seen.current: those left out
    if error is None:
        for key in new:
            seen.put(key, 1)
        seen.save()
    return error


def _converted_context() -> str:
    """What the library's JSON of an occurrence depends on besides its fields, and what its
    validity does: the schema, the libraries that convert it and the validator's."""
    versions = [importlib.metadata.version(name) for name in ("cyclonedx-python-lib", "py-serializable", "jsonschema")]
    return element_key("cyclonedx-occurrence-json", SchemaVersion.V1_6.to_version(), *versions)


def _fill_occurrences(bom: dict[str, Any], fields: list[list[tuple[str, str, int, str]]], keys: list[list[str]],
                      stored: dict[str, str]) -> dict[str, str]:
    """Put every occurrence of ``fields`` (``keys``: their :func:`occurrence_key`) in the parsed
    ``bom`` (made with some left out: see :func:`cyclonedx_bom`): the library's JSON of those it
    holds, for the others their text kept in ``stored`` (by key; see
    :class:`lineage.report.json_text.Encoded`), each list in the library's order: by bom-ref, the
    first of the fields its occurrences are sorted by (``Occurrence.__lt__``), compared as strings
    (``BomRef.__lt__``) and distinct here. Returns the text of the library's JSON of those it
    converted that ``stored`` lacks, by key."""
    made: dict[str, str] = {}
    ancestors = {a.get("bom-ref"): a for a in bom["metadata"]["component"]["pedigree"].get("ancestors", [])}
    for n, (rows, row_keys) in enumerate(zip(fields, keys, strict=True), start=1):
        if not rows:
            continue
        evidence = ancestors[f"upstream-{n}"]["evidence"]
        converted = {o["bom-ref"]: o for o in evidence["occurrences"]}
        merged: list[tuple[str, Any]] = []
        for row, key in zip(rows, row_keys, strict=True):
            value = converted.get(row[0])
            if value is None:
                value = Encoded(stored[key])
            elif key not in stored:
                made[key] = compact(value)
            merged.append((row[0], value))
        evidence["occurrences"] = [value for _, value in sorted(merged, key=lambda pair: pair[0])]
    return made


class CycloneDxReporter:
    """lineage.cdx.json, validated against the schema (a :class:`lineage.report.Reporter`).

    With a cache (``folder.csv_cache``) the library's JSON of each occurrence of a valid BOM is
    kept, as the line of text the BOM holds (:class:`lineage.report.elements.ElementCache`, kind
    ``cyclonedx-json``, keyed by its fields: :func:`occurrence_key`), and a rerun makes the
    library's objects of the others only, leaves the kept ones out of the BOM it has the library
    sort, write and validate, and puts their text in their place (:func:`_fill_occurrences`):
    the same text. Sound for the validation as :func:`validation_error`'s remembered occurrences
    are (an occurrence's validity is its own), and a kept occurrence was part of a valid BOM (kept
    only after the validation)."""

    report_type = "cyclonedx"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        fields = occurrence_fields(comparison)
        kept = ElementCache(folder.csv_cache, "cyclonedx-json", _converted_context()) \
            if folder.csv_cache is not None else None
        keys = [[occurrence_key(row) for row in rows] for rows in fields]
        stored: dict[str, str] = {}
        leave_out: set[str] = set()  # bom-refs
        if kept is not None:
            for rows, row_keys in zip(fields, keys, strict=True):
                for row, key in zip(rows, row_keys, strict=True):
                    found = kept.get(key)
                    if isinstance(found, str):
                        stored[key] = found
                        leave_out.add(row[0])
        text = JsonV1Dot6(cyclonedx_bom(comparison, fields, leave_out)).output_as_string()
        error = validation_error(text, folder.csv_cache)
        if error is not None:
            raise LineageError(f"CycloneDX BOM is invalid: {str(error)[:300]}")
        bom = json.loads(text)
        made = _fill_occurrences(bom, fields, keys, stored)
        # the library's JSON value, one occurrence per line (lineage.report.json_text: why): the
        # BOM, metadata, component, pedigree, ancestors, an ancestor, its evidence, its occurrences
        folder.text(CYCLONEDX_FILE, dumps_lines(bom, levels=8) + "\n")
        if kept is not None:  # only after the validation: a kept occurrence was part of a valid BOM
            for key, value in made.items():
                kept.put(key, value)
            kept.save()
