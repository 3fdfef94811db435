"""The versions of Python and of every library lineage requires, for cache keys: a library's new
version may change bytes (CSV quoting, JSON layout, highlighting) or values (pandas, pyarrow), so
an entry made under other versions is never reused (:mod:`lineage.report.cache`,
:mod:`lineage.results.reuse`)."""

from __future__ import annotations

import platform
from functools import cache
from importlib import metadata


@cache
def library_versions() -> dict[str, str]:
    """``{"python": version, <required library>: version, ...}``; "" for one not installed."""
    try:
        requires = metadata.requires("lineage") or []
    except metadata.PackageNotFoundError:
        requires = []
    names = sorted({r.split(";")[0].split("[")[0].split("=")[0].split(">")[0].split("<")[0].split("~")[0]
                    .split("!")[0].strip() for r in requires if "extra ==" not in r})
    versions = {"python": platform.python_version()}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = ""
    return versions
