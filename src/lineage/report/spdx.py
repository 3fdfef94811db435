"""lineage.spdx.json: an SPDX 2.3 document of the copied code, built and validated with spdx-tools.

* one Package per source (target first): name, version, purl (external reference), download
  location, sha256 of the archive, declared licence, copyright text from its root licence files;
  upstreams have ``filesAnalyzed: false``.
* one File per target file holding copied lines (``CONTAINS`` from the target package; re-export-only
  and prose-only files too: their lines are under the upstream's licence as well), with SHA1
  and SHA256 of its bytes, the licences its SPDX lines and notices name, its copyright lines.
* one Snippet per copied region: its target line range and byte range (1-based, inclusive, line
  ends left out), the concluded licence = the upstream file's licence (copied code stays under
  it), licences named inside the snippet, the upstream file's copyright lines, and the upstream
  file and lines in the comment.
* relationships: the document ``DESCRIBES`` the target; the target is ``DESCENDANT_OF`` each
  upstream it holds copied code from (the same lineage CycloneDX records as ``pedigree.ancestors``;
  an upstream of which no line was found copied is a Package with no relationship), and so is each
  Snippet ``DESCENDANT_OF`` the upstream package it was copied from (SPDX 2.3 section 11: the
  same lineage, later), so a consumer can tell which upstream's code a snippet is without
  reading its comment.
* one extracted licensing info per ``LicenseRef-`` id the document uses (SPDX has no id for some
  licences lineage reads: public domain is
  :data:`lineage.licences.expressions.PUBLIC_DOMAIN`), with a fixed text of ours saying what the
  id stands for (:func:`_extracted`).

The writer validates the document (spdx-tools' ``validate_full_spdx_document``) and refuses to
write an invalid one. ``created`` is the time of the run (``$SOURCE_DATE_EPOCH`` when set).

A run of ``lineage compare``/``corpus`` keeps each target file's File and Snippets between runs
(:mod:`lineage.report.elements`): the values they are built from and spdx-tools' JSON of them
(each element's as the line of text the document holds: neither decoded nor encoded again by a
rerun), keyed by what they are made from. A rerun makes model objects only of the elements it makes
afresh, validates the document they form (a stored element passed the whole validation of the
document it was made in, and nothing it is checked against differs in another: see
:func:`_validated_json`), and puts the stored JSON of the others in their place in spdx-tools'
JSON value of the document: the same bytes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import operator
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from spdx_tools.common.spdx_licensing import spdx_licensing
from spdx_tools.spdx.jsonschema.document_converter import DocumentConverter
from spdx_tools.spdx.jsonschema.document_properties import DocumentProperty
from spdx_tools.spdx.model import (
    Actor,
    ActorType,
    Checksum,
    ChecksumAlgorithm,
    CreationInfo,
    Document,
    ExternalPackageRef,
    ExternalPackageRefCategory,
    ExtractedLicensingInfo,
    File,
    FileType,
    Package,
    Relationship,
    RelationshipType,
    Snippet,
    SpdxNoAssertion,
    SpdxNone,
)
from spdx_tools.spdx.validation import spdx_id_validators
from spdx_tools.spdx.validation.document_validator import validate_full_spdx_document
from spdx_tools.spdx.validation.validation_message import SpdxElementType, ValidationContext, ValidationMessage

from lineage import __version__
from lineage.errors import LineageError
from lineage.licences.expressions import PUBLIC_DOMAIN, licence_ids, normalise
from lineage.licences.notices import source_notice_ids
from lineage.report.attachments import ancestor_labels, copied_regions, created_at, identity
from lineage.report.elements import ElementCache, element_key
from lineage.report.json_text import Encoded, compact, dumps_lines
from lineage.results.file_licences import record_licence
from lineage.results.obligations import RELEASE_NOTICES, source_licence, split_copyrights

if TYPE_CHECKING:
    import pandas as pd

    from lineage.index import FileIndex, TreeIndex
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison

SPDX_FILE = "lineage.spdx.json"


@lru_cache(maxsize=1024)
def _licence(expression: str):  # type: ignore[no-untyped-def]
    normal = normalise(expression)
    return spdx_licensing.parse(normal) if normal else SpdxNoAssertion()


def _ids(ids: tuple[str, ...] | list[str]):  # type: ignore[no-untyped-def]
    return [_licence(i) for i in sorted(set(ids))] or [SpdxNone()]


def _text(lines: tuple[str, ...] | list[str]) -> str | SpdxNone:
    return "\n".join(lines) if lines else SpdxNone()


def _package(tree: TreeIndex, label: str, spdx_id: str, analysed: bool,
             release_holders: tuple[str, ...] = ()) -> Package:
    """``release_holders``: the copyright lines obligations.csv took for this release from its own
    files (:func:`release_holders`), stated when its licence files name none."""
    who = identity(tree, label)
    lic = source_licence(tree)
    copyrights = lic.copyrights or release_holders
    return Package(
        spdx_id=spdx_id, name=who.name, version=who.version or None,
        download_location=who.download_location or SpdxNoAssertion(), files_analyzed=analysed,
        checksums=[Checksum(ChecksumAlgorithm.SHA256, who.sha256)] if who.sha256 else [],
        license_declared=_licence(lic.declared), license_concluded=SpdxNoAssertion(),
        # the holders lineage reads for a release (its licence files, NOTICE, package strings,
        # else the one holder its files name, as the obligations rows read it): none found is no
        # finding that the release holds no copyright text (vLLM's Apache text names none, its
        # files name several), so NOASSERTION, never NONE
        copyright_text=_text(copyrights) if copyrights else SpdxNoAssertion(),
        external_references=[ExternalPackageRef(ExternalPackageRefCategory.PACKAGE_MANAGER, "purl", who.purl)],
        comment=f"lineage source {tree.info.spec}" + (f"; licence from {lic.declared_from}" if lic.declared_from
                                                        else ""),
    )


def release_holders(obligations: pd.DataFrame, upstream: str) -> tuple[str, ...]:
    """The copyright lines obligations.csv took for ``upstream``'s files from its release's own
    files (``upstream_copyrights_from`` ``release notices``: :func:`lineage.results.obligations.release_copyrights`,
    the one holder they name): py 1.11.0 names its holders only in ``py/__init__.py``, "(c) Holger
    Krekel and others, 2004-2014", and its SPDX package said NOASSERTION beside rows naming them."""
    if obligations.empty:
        return ()
    cells = obligations.loc[(obligations["upstream"] == upstream)
                            & (obligations["upstream_copyrights_from"] == RELEASE_NOTICES), "upstream_copyrights"]
    return tuple(sorted({line for cell in set(cells) for line in split_copyrights(str(cell))}))


# What a LicenseRef- id stands for, in our words (an extracted licensing info needs a text): public
# domain is a dedication, not a licence text; another key (ScanCode's, from a licence expression
# a source declares) is named as what it is.
_PUBLIC_DOMAIN_TEXT = ("Public domain: the authors dedicate the work to the public domain (a trove classifier "
                       "'License :: Public Domain', or a notice such as 'placed in the public domain'); "
                       "no licence terms apply.")


def _extracted(ids: set[str]) -> list[ExtractedLicensingInfo]:
    """One extracted licensing info per ``LicenseRef-`` id in ``ids``, sorted: made from the id
    alone, so every document holding an element that names one holds its info
    (:func:`_validated_json`)."""
    return [ExtractedLicensingInfo(
        license_id=i, license_name="Public Domain" if i == PUBLIC_DOMAIN else i.removeprefix("LicenseRef-"),
        extracted_text=_PUBLIC_DOMAIN_TEXT if i == PUBLIC_DOMAIN else
        f"The licence known by the key {i} (ScanCode LicenseDB), as read by lineage from the source.",
        comment="written by lineage, not the source's text")
        for i in sorted(ids) if i.startswith("LicenseRef-")]


def _used_ids(packages: list[Package], parts: list[_Part]) -> set[str]:
    """Every licence id the packages' declared licences and the parts' values name."""
    used = {i for p in packages if not isinstance(p.license_declared, (SpdxNone, SpdxNoAssertion))
            for i in licence_ids(str(p.license_declared))}
    for part in parts:
        used.update(part.values["licences"])
        for s in part.values["snippets"]:
            used.update([*licence_ids(s["licence"]), *s["inside"]])
    return used


def _byte_range(raw_lines: list[bytes], starts: list[int], first: int, last: int) -> tuple[int, int]:
    """1-based inclusive byte range of physical lines ``first``..``last`` (1-based), line ends left out."""
    begin = starts[first - 1] + 1
    end = starts[last - 1] + len(raw_lines[last - 1].rstrip(b"\r\n"))
    return begin, max(begin, end)


def _file_values(number: int, path: str, group: list[tuple], data: bytes, record: FileIndex, lines: list[str],
                 head_lines: int, package_of: dict[str, str]) -> dict[str, Any]:
    """The plain values :func:`_file_elements` builds target file ``path``'s File and Snippets
    from (JSON-able, kept between runs: :mod:`lineage.report.elements`); ``group``: its rows of
    the copied regions, ``number``: its place among the files with copied code."""
    lic = record_licence(record, lambda: lines, head_lines)
    raw_lines = data.splitlines(keepends=True)
    starts = [0, *itertools.accumulate(map(len, raw_lines))]
    spdx_markers = [m for m in record.markers if m.kind == "spdx"]
    snippets = []
    for (_, t_start, t_end, region, verbatim, near, upstream, up_path, up_start, up_end, up_licence,
         up_copyrights) in group:
        start, end = int(t_start), min(int(t_end), len(raw_lines))
        inside = source_notice_ids("\n".join(lines[start - 1:end]))
        inside += tuple(i for m in spdx_markers if start <= m.line <= end for i in licence_ids(m.licence))
        snippets.append({
            "id": f"SPDXRef-Snippet-{number}-{int(region)}", "package": package_of[str(upstream)],
            "bytes": list(_byte_range(raw_lines, starts, start, end)), "lines": [start, end],
            "licence": str(up_licence), "inside": list(inside),
            "copyright": "\n".join(split_copyrights(str(up_copyrights))), "name": f"{path}:{start}-{end}",
            "comment": (f"copied from {upstream} {up_path} lines {int(up_start)}-{int(up_end)}: "
                        f"{int(verbatim)} verbatim, {int(near)} near")})
    copied = sum(int(r[4]) + int(r[5]) for r in group)
    return {"id": f"SPDXRef-File-{number}", "name": f"./{path}", "sha1": hashlib.sha1(data).hexdigest(),
            "sha256": hashlib.sha256(data).hexdigest(),
            "licences": list(licence_ids(lic.expression)) + list(lic.notice_ids), "copyrights": list(lic.copyrights),
            "comment": f"{copied} copied lines in {len(group)} regions", "snippets": snippets}


def _file_elements(values: dict[str, Any]) -> tuple[File, list[Snippet], list[Relationship]]:
    """A target file's File, its Snippets and its relationships (the package ``CONTAINS`` the file,
    each snippet ``DESCENDANT_OF`` its upstream package), from :func:`_file_values`."""
    file_id = values["id"]
    file = File(name=values["name"], spdx_id=file_id, file_types=[FileType.SOURCE],
                checksums=[Checksum(ChecksumAlgorithm.SHA1, values["sha1"]),
                           Checksum(ChecksumAlgorithm.SHA256, values["sha256"])],
                license_concluded=SpdxNoAssertion(), license_info_in_file=_ids(values["licences"]),
                copyright_text=_text(values["copyrights"]), comment=values["comment"])
    relationships = [Relationship("SPDXRef-Package-target", RelationshipType.CONTAINS, file_id)]
    snippets = []
    for s in values["snippets"]:
        relationships.append(Relationship(s["id"], RelationshipType.DESCENDANT_OF, s["package"]))
        snippets.append(Snippet(
            spdx_id=s["id"], file_spdx_id=file_id, byte_range=(s["bytes"][0], s["bytes"][1]),
            line_range=(s["lines"][0], s["lines"][1]), license_concluded=_licence(s["licence"]),
            license_info_in_snippet=_ids(s["inside"]), copyright_text=s["copyright"] or SpdxNoAssertion(),
            name=s["name"], comment=s["comment"]))
    return file, snippets, relationships


@dataclasses.dataclass
class _Part:
    """One target file's elements in a document, and spdx-tools' JSON of them when a run stored it."""

    key: str
    values: dict[str, Any]
    # the File, its Snippets, its relationships, in that order; None when the stored JSON stands for
    # them and the document holds none of them (_document's ``reuse``)
    elements: list[Any] | None
    text: list[str] | None  # their JSON, each element's as its text (lineage.report.json_text.compact)


def _json_count(values: dict[str, Any]) -> int:
    """How many elements :func:`_file_elements` makes of ``values``: the File, and per Snippet the
    Snippet and its relationship, and the File's ``CONTAINS``."""
    return 2 + 2 * len(values["snippets"])


def spdx_document(comparison: Comparison, kept: ElementCache | None = None) -> Document:
    """The SPDX document of ``comparison``; with ``kept``, each target file's elements are made
    from the values stored under their key when there are (see :func:`_document`)."""
    return _document(comparison, kept)[0]


def _document(comparison: Comparison, kept: ElementCache | None, reuse: bool = False,
              ) -> tuple[Document, list[_Part]]:
    """The document, and per target file with copied code its :class:`_Part`. A file's values
    are a function of its key: its number, path and blob digest (its record's markers and licence
    are its content's), its rows of the copied regions, the upstream packages' ids and the
    licence head length; the rest (code, library versions, upstreams, parameters) is the context
    of ``kept``. With ``reuse``, a file whose stored JSON is whole gets no model objects: the
    document holds only the other files' elements (see :func:`_validated_json`)."""
    target = comparison.target
    label = target.info.label
    digests = "\n".join([target.tree_digest, *(u.tree_digest for u in comparison.upstreams)])
    namespace = ("https://spdx.org/spdxdocs/lineage-" + label + "-"
                 + hashlib.sha256(digests.encode()).hexdigest()[:32])
    info = CreationInfo(
        spdx_version="SPDX-2.3", spdx_id="SPDXRef-DOCUMENT",
        name=f"lineage: {label} against {', '.join(comparison.upstream_names)}",
        document_namespace=namespace, creators=[Actor(ActorType.TOOL, f"lineage-{__version__}")],
        created=created_at(),
        creator_comment="Code copied from the upstream packages into the target, region by region, as found by "
                        "lineage (https://spdx.dev/ Snippets with line and byte ranges).")
    packages = [_package(target, label, "SPDXRef-Package-target", True)]
    relationships = [Relationship("SPDXRef-DOCUMENT", RelationshipType.DESCRIBES, "SPDXRef-Package-target")]
    package_of: dict[str, str] = {}
    regions = copied_regions(comparison)
    copied_from = ancestor_labels(regions)
    for n, (u, name) in enumerate(zip(comparison.upstreams, comparison.upstream_names, strict=True), start=1):
        package_of[name] = f"SPDXRef-Package-upstream-{n}"
        packages.append(_package(u, name, f"SPDXRef-Package-upstream-{n}", False,
                                 release_holders(comparison.obligations, name)))
        # an upstream none of whose code the run found (sentry-sdk 2.19's `_werkzeug.py` names
        # Werkzeug 0.14.1, whose code 3.1.3 no longer holds) is described, not called an ancestor
        if name in copied_from:
            relationships.append(Relationship("SPDXRef-Package-target", RelationshipType.DESCENDANT_OF,
                                              f"SPDXRef-Package-upstream-{n}",
                                              comment=f"holds code copied from {name}"))
    by_path = {f.path: f for f in target.files}
    files: list[File] = []
    snippets: list[Snippet] = []
    parts: list[_Part] = []
    columns = ["target_path", "target_start", "target_end", "region", "verbatim_lines", "near_lines",
               "upstream", "upstream_path", "upstream_start", "upstream_end", "upstream_licence",
               "upstream_copyrights"]
    head_lines = comparison.params.licence_head_lines
    # One pass over plain rows (sorted by target path): per-group DataFrame access costs seconds here.
    rows = list(zip(*(regions[c].tolist() for c in columns), strict=True)) if len(regions) else []
    for number, (path, group_rows) in enumerate(itertools.groupby(rows, key=operator.itemgetter(0)), start=1):
        group = list(group_rows)
        record = by_path[path]
        key = element_key(number, path, record.digest, head_lines, sorted(package_of.items()), group)
        found = kept.get(key) if kept is not None else None
        if found is not None:
            values, stored_text = found["values"], found.get("text")
        else:
            values = _file_values(number, path, group, target.data[path], record, target.lines(path), head_lines,
                                  package_of)
            stored_text = None
        if reuse and isinstance(stored_text, list) and len(stored_text) == _json_count(values):
            parts.append(_Part(key, values, None, stored_text))
            continue
        file, file_snippets, file_relationships = _file_elements(values)
        files.append(file)
        snippets.extend(file_snippets)
        relationships.extend(file_relationships)
        parts.append(_Part(key, values, [file, *file_snippets, *file_relationships], stored_text))
    return Document(creation_info=info, packages=packages, files=files, snippets=snippets,
                    relationships=relationships,
                    extracted_licensing_info=_extracted(_used_ids(packages, parts))), parts


def _validated_json(document: Document, parts: list[_Part]) -> tuple[dict[str, Any], list[ValidationMessage]]:
    """spdx-tools' JSON value of the whole document (as its writer makes it) and its validation,
    from ``document`` as :func:`_document` made it with ``reuse``: the elements of each part
    without them (``elements`` None) are their stored JSON, in their place, and are not validated
    again. Sound because a part's JSON is stored only after the document it was made in passed
    the whole validation (:meth:`SpdxReporter.write`), and what that validation says of a part's
    File, Snippets and relationships depends only on: their values (the key), the SPDX version
    (always 2.3) and spdx-tools' and its licence list's versions (the context), the document's
    extracted licensing infos (one per LicenseRef- id any element names, made from the id alone:
    :func:`_extracted`; so a part that names one is in no document without its info, and an info
    more is no check of the parts that name none), its external document references (none: a
    DocumentRef would be invalid in any of them), and the presence of the ids they
    name: their own File, ``SPDXRef-Package-target`` and the upstream packages of the key's
    ``package_of`` (made in every document under those ids). The one check across parts, that
    no id is used twice, is made here over every id. The converters read nothing of the
    document beside an element but its annotations, which these documents never have."""
    problems = validate(document)
    ids = [document.creation_info.spdx_id, *(p.spdx_id for p in document.packages)]
    for part in parts:
        ids.extend([part.values["id"], *(s["id"] for s in part.values["snippets"])])
    if not problems and len(set(ids)) != len(ids):
        seen: set[str] = set()
        twice = sorted({i for i in ids if i in seen or seen.add(i)})  # type: ignore[func-returns-value]
        problems = [ValidationMessage(
            f"every spdx_id must be unique within the document, but found the following duplicates: {twice}",
            ValidationContext(spdx_id=document.creation_info.spdx_id, element_type=SpdxElementType.DOCUMENT))]
    if document.annotations:  # never made here (an element's JSON would hold its annotations)
        raise LineageError("SPDX document with annotations: its stored elements cannot be reused")
    converter = DocumentConverter()
    whole = converter.convert(document)
    made = {name: iter(whole.get(name) or []) for name in ("files", "snippets", "relationships")}
    # the document's own relationships first (those of no part), then each part's
    own = len(document.relationships) - sum(len(p.values["snippets"]) + 1 for p in parts if p.elements is not None)
    lists: dict[str, list[Any]] = {"files": [], "snippets": [],
                                   "relationships": list(itertools.islice(made["relationships"], own))}
    for part in parts:
        n = len(part.values["snippets"])
        json_of: list[Any]
        if part.elements is None:  # written as stored, neither decoded nor encoded again
            assert part.text is not None
            json_of = [Encoded(text) for text in part.text]
        else:  # spdx-tools' conversion of its elements, in the order _file_elements made them
            json_of = [next(made["files"]), *itertools.islice(made["snippets"], n),
                       *itertools.islice(made["relationships"], n + 1)]
            part.text = [compact(element) for element in json_of]
        lists["files"].append(json_of[0])
        lists["snippets"].extend(json_of[1:1 + n])
        lists["relationships"].extend(json_of[1 + n:])
    # the document's properties in spdx-tools' order, an empty list left out (TypedConverter.convert)
    value: dict[str, Any] = {}
    for prop in DocumentProperty:
        name = converter.json_property_name(prop)
        found = (lists[name] or None) if name in lists else whole.get(name)
        if found is not None:
            value[name] = found
    return value, problems


@contextlib.contextmanager
def _indexed_id_lookups(document: Document) -> Iterator[None]:
    """Answer spdx-tools' "is this id in the document / its files" from sets made once.

    spdx-tools 0.8 rebuilds the list of every id in the document for each reference it checks
    (spdx/tools-python#818), which is quadratic: 2.6 s of validation for the main job's 2,598
    snippets and 647 relationships. The sets hold the same ids its own
    ``get_list_of_all_spdx_ids`` lists, so the answers are the same; the originals are put back
    on exit. The swap is process-wide for the call's duration: the writer validates from one
    thread; without these three functions (another spdx-tools layout) nothing is swapped.
    """
    names = ("get_list_of_all_spdx_ids", "is_spdx_id_present_in_document", "is_spdx_id_present_in_files")
    if not all(callable(getattr(spdx_id_validators, name, None)) for name in names):
        yield  # another spdx-tools layout: its own (slower) lookups, unchanged
        return
    all_ids = set(spdx_id_validators.get_list_of_all_spdx_ids(document))
    file_ids = {f.spdx_id for f in document.files}
    saved = (spdx_id_validators.is_spdx_id_present_in_document, spdx_id_validators.is_spdx_id_present_in_files)

    def in_document(spdx_id: str, doc: Document) -> bool:
        return spdx_id in all_ids if doc is document else saved[0](spdx_id, doc)

    def in_files(spdx_id: str, files: list[File]) -> bool:
        return spdx_id in file_ids if files is document.files else saved[1](spdx_id, files)

    spdx_id_validators.is_spdx_id_present_in_document = in_document
    spdx_id_validators.is_spdx_id_present_in_files = in_files
    try:
        yield
    finally:
        spdx_id_validators.is_spdx_id_present_in_document, spdx_id_validators.is_spdx_id_present_in_files = saved


def validate(document: Document) -> list[ValidationMessage]:
    """spdx-tools' full validation of ``document`` (SPDX 2.3), with its id lookups indexed."""
    with _indexed_id_lookups(document):
        return validate_full_spdx_document(document, "SPDX-2.3")


class SpdxReporter:
    """lineage.spdx.json, validated (a :class:`lineage.report.Reporter`)."""

    report_type = "spdx"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        # No list holds a duplicate entry, which spdx-tools' writer would deep-copy the whole
        # document to drop: licence lists go through `_ids` (sorted, distinct), each element has
        # one SHA1/SHA256 pair or one purl, and each relationship links a distinct pair of ids.
        kept = None
        if folder.csv_cache is not None and comparison.row_keys is not None:  # as lines.csv (lineage.report.elements)
            kept = ElementCache(folder.csv_cache, "spdx", comparison.row_keys.context)
        document, parts = _document(comparison, kept, reuse=True)
        stored = {id(part) for part in parts if part.text is not None}
        # spdx-tools' own converter makes the JSON value (as its write_document_to_file does)
        value, problems = _validated_json(document, parts)
        if problems:
            raise LineageError(f"SPDX document is invalid: {problems[0].validation_message}")
        # the text is laid out one element per line (lineage.report.json_text: why)
        folder.text(SPDX_FILE, dumps_lines(value, levels=2) + "\n")
        if kept is not None:  # only after the validation: a stored part counts as validated
            for part in parts:
                if id(part) not in stored:
                    kept.put(part.key, {"values": part.values, "text": part.text})
            kept.save()
