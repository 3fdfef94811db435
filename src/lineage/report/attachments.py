"""What the attachment writers (SPDX, CycloneDX, SARIF) share.

Who a source is: name, version, purl, download location, checksum.

* ``pypi:NAME==VERSION``: ``pkg:pypi/name@version`` (name normalised as PyPI does), the URL the
  release file was fetched from, and its sha256.
* a git ``REPO@REF``: ``pkg:generic/<label>@<commit>``, version = the commit.
* an archive: ``pkg:generic/<label>?checksum=sha256:<digest>``; a directory: ``pkg:generic/<label>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pandas as pd
from packageurl import PackageURL
from packaging.utils import canonicalize_name

from lineage.settings import source_date

if TYPE_CHECKING:
    from lineage.index import TreeIndex
    from lineage.results import Comparison


@dataclass(frozen=True)
class Identity:
    name: str
    version: str  # "" when the source has none (a directory)
    purl: str
    download_location: str  # "" when unknown (local paths are not download locations)
    sha256: str  # of the archive, "" for directories and git trees


def identity(tree: TreeIndex, label: str | None = None) -> Identity:
    info = tree.info
    name = label or info.label
    sha256 = info.digest.removeprefix("sha256:") if info.digest.startswith("sha256:") else ""
    details = info.details or {}
    if info.kind == "pypi":
        version = str(details.get("version", ""))
        # packageurl normalises a PyPI name as the purl spec says (lower case, "_" -> "-", dots
        # kept: pkg:pypi/discord.py), which PEP 503's form is not
        pypi_name = str(details.get("name", name))  # the index's form (discord-py); the wheel declares discord.py
        declared = tree.project.name if tree.project is not None else ""
        if declared and canonicalize_name(declared) == canonicalize_name(pypi_name):
            pypi_name = declared
        purl = PackageURL(type="pypi", name=pypi_name, version=version or None).to_string()
        return Identity(name, version, purl, str(details.get("url", "")), sha256)
    if info.kind == "git":
        commit = str(details.get("commit", ""))
        purl = PackageURL(type="generic", name=name, version=commit or None,
                          subpath=str(details.get("path", "")) or None).to_string()  # REF:PATH
        return Identity(name, commit, purl, "", "")
    qualifiers = {"checksum": f"sha256:{sha256}"} if sha256 else None
    purl = PackageURL(type="generic", name=name, qualifiers=qualifiers).to_string()
    return Identity(name, "", purl, "", sha256)


def versioned_name(tree: TreeIndex, label: str | None = None) -> str:
    """A source's run label with its release, or a git source's commit (12 digits), for titles:
    "sglang 0.5.23 against vllm 0.32.0"; two releases of one project read "pydantic against
    pydantic" without them (round user161). A folder or an archive has none: its label alone."""
    who = identity(tree, label)
    version = who.version[:12] if tree.info.kind == "git" else who.version
    return f"{who.name} {version}" if version and version not in who.name else who.name


# The creation time every attachment of the report being written carries (see report_time).
_REPORT_TIME: ContextVar[datetime | None] = ContextVar("lineage_report_time", default=None)


def created_at() -> datetime:
    """When the attachment was made: the report's time (:func:`report_time`), else
    ``$SOURCE_DATE_EPOCH`` if set (reproducible builds), else now."""
    fixed = _REPORT_TIME.get()
    if fixed is not None:
        return fixed
    return (source_date() or datetime.now(UTC)).replace(microsecond=0)


@contextmanager
def report_time(at: datetime | None = None) -> Iterator[datetime]:
    """One creation time for all attachments written inside: ``at``, else the enclosing
    report_time's, else :func:`created_at`. The manifest records it, so ``lineage reproduce``
    can write the same attachments again."""
    token = _REPORT_TIME.set(at.replace(microsecond=0) if at is not None else created_at())
    try:
        yield created_at()
    finally:
        _REPORT_TIME.reset(token)


_LICENCE_COLUMNS = ["upstream_licence", "upstream_copyrights", "target_licence", "marked", "missing", "conflict",
                    "conflict_reason"]


def ancestor_labels(regions: pd.DataFrame) -> set[str]:
    """The upstream labels the target descends from, by :func:`copied_regions`' ``regions``: those
    it holds copied code from. An upstream of which nothing was found copied is no ancestor (SPDX
    ``DESCENDANT_OF``, CycloneDX ``pedigree.ancestors``): sentry-sdk 2.19.0 against Werkzeug 3.1.3,
    0 lines copied, was said to descend from it."""
    return {str(label) for label in regions["upstream"]} if len(regions) else set()


def copied_regions(comparison: Comparison) -> pd.DataFrame:
    """Regions that kept copied lines, with their upstream file's licence and copyright lines (from
    the obligations table), sorted by target path and start line."""
    regions = comparison.regions
    if regions.empty:
        return regions.assign(**{c: pd.Series(dtype=str) for c in _LICENCE_COLUMNS})
    kept = regions[(regions["verbatim_lines"] + regions["near_lines"]) > 0]
    keys = ["target_path", "upstream", "upstream_path"]
    licences = comparison.obligations[keys + _LICENCE_COLUMNS]
    merged = kept.astype({k: str for k in keys}).merge(licences, on=keys, how="left")
    for column in _LICENCE_COLUMNS:
        merged[column] = merged[column].fillna("")
    return merged.sort_values(["target_path", "target_start", "region"], kind="stable").reset_index(drop=True)
