"""A corpus manifest (``corpora/*.json``): pinned PyPI releases to compare, read and validated.

A manifest is ``{"target": RELEASE, "upstreams": [RELEASE, ...]}`` (other keys are notes), each
RELEASE ``{"name", "version", "sha256"}`` (and optionally ``filename``). Every error names the
field it is about, e.g. ``upstreams[1].sha256``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from lineage.errors import SourceError

_SHA256 = re.compile(r"[0-9a-fA-F]{64}")
_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9.!+_-]*")


def corpus_specs(manifest: Path) -> tuple[str, list[str]]:
    """Source specs (target, upstreams) of a corpus manifest: ``pypi:NAME==VERSION#sha256=HEX``."""
    try:
        data = json.loads(Path(manifest).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SourceError(f"cannot read corpus manifest {manifest}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SourceError(f"corpus manifest {manifest} is not JSON: {exc}") from None

    def fail(field: str, problem: str) -> SourceError:
        return SourceError(f"corpus manifest {manifest}: {field} {problem}")

    if not isinstance(data, dict):
        raise fail("the top level", "must be an object with target and upstreams")
    upstreams = data.get("upstreams")
    if "upstreams" not in data:
        raise fail("upstreams", "is missing (a list of releases)")
    if not isinstance(upstreams, list) or not upstreams:
        raise fail("upstreams", "must be a non-empty list of releases")
    if "target" not in data:
        raise fail("target", "is missing (a release: name, version, sha256)")
    releases = [("target", data["target"])] + [(f"upstreams[{k}]", u) for k, u in enumerate(upstreams)]
    return _spec(*releases[0], fail), [_spec(where, r, fail) for where, r in releases[1:]]


def _spec(where: str, release: Any, fail: Any) -> str:
    if not isinstance(release, dict):
        raise fail(where, "must be an object with name, version and sha256")
    for key, pattern, what in (("name", _NAME, "a PyPI project name"), ("version", _VERSION, "a version"),
                               ("sha256", _SHA256, "64 hexadecimal digits")):
        value = release.get(key)
        if key not in release:
            raise fail(f"{where}.{key}", "is missing")
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise fail(f"{where}.{key}", f"must be {what}, got {value!r}")
    return f"pypi:{release['name']}=={release['version']}#sha256={release['sha256'].lower()}"
