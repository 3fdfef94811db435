"""A report's per-target-file elements kept between runs, keyed by what they are made from.

The SPDX document holds one File and its Snippets per target file with copied code; making them
(the file's checksums, the licences named inside each snippet, byte ranges) and converting them to
JSON with spdx-tools were about 0.5 s of a rerun that changed one file (the pinned pair's 626
copied files, 3,900 snippets). A reporter that can say what an element is made from gives each
element a key (a digest of those inputs: :func:`element_key`) and keeps under it the plain values
it builds the library's objects from and the library's own conversion of them; the next run under
the same context takes both for every key it finds and writes the document with the stored
conversions of unchanged elements (the SPDX writer validates only the elements it made afresh:
:func:`lineage.report.spdx._validated_json` says why that is sound). The files are the same, byte
for byte (tested against runs without the cache).

Only a run through :func:`lineage.compare_and_write.compare_and_write` keeps elements (the
``csv_cache`` of :func:`lineage.report.write_reports`, with the comparison's
:class:`lineage.results.reuse.RowKeys`): its context is the tables' (code, library versions,
upstreams, parameters, names, origins), so every input an element's key leaves out is in it.

Layout: ``<root>/elements-v<N>/<kind>/<context[:2]>/<context>.rec``, framed like the other caches
(``MAGIC | length | XXH3-128 | payload``), the payload JSON (version, kind, context, key ->
element). One entry per kind and context, the :data:`lineage.results.reuse.KEEP` newest kept;
rewritten, with this run's elements only, when there was none or more than
:data:`lineage.results.reuse.REWRITE_AFTER` elements were made afresh. A damaged or foreign entry
is removed and every element made afresh.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from lineage.index.store import discard, frame, store_keeping_newest, unframe

ELEMENTS_MAGIC = b"LINEAGE-ELEMENTS\n"
ELEMENTS_VERSION = 1


def element_key(*parts: object) -> str:
    """Digest of an element's inputs (JSON-able values; anything else by its ``str``)."""
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()


class ElementCache:
    """The elements of one kind stored by the last run under ``context``, and this run's."""

    def __init__(self, root: Path, kind: str, context: str) -> None:
        self.kind, self.context = kind, context
        self.entry = root / f"elements-v{ELEMENTS_VERSION}" / kind / context[:2] / f"{context}.rec"
        self.stored = self._read()
        self.current: dict[str, Any] = {}  # this run's elements, found or made
        self.made = 0  # of them made afresh

    def _read(self) -> dict[str, Any] | None:
        try:
            blob = self.entry.read_bytes()
        except OSError:
            return None
        payload = unframe(ELEMENTS_MAGIC, blob)
        try:
            if payload is None:
                raise ValueError("damaged")
            found = json.loads(payload)
            if (found["version"], found["kind"], found["context"]) != (ELEMENTS_VERSION, self.kind, self.context) \
                    or not isinstance(found["elements"], dict):
                raise ValueError("foreign")
            return found["elements"]
        except (ValueError, KeyError, TypeError):
            discard(self.entry)
            return None

    def get(self, key: str) -> Any | None:
        """The element stored under ``key`` (kept for this run's entry), or None."""
        found = self.stored.get(key) if self.stored is not None else None
        if found is not None:
            self.current[key] = found
        return found

    def put(self, key: str, element: Any) -> None:
        """An element made by this run (JSON-able)."""
        self.current[key] = element
        self.made += 1

    def save(self) -> None:
        """Store this run's elements when there was no entry or more than ``REWRITE_AFTER`` were made."""
        from lineage.results.reuse import KEEP, REWRITE_AFTER

        if self.stored is not None and self.made <= REWRITE_AFTER:
            return
        payload = json.dumps({"version": ELEMENTS_VERSION, "kind": self.kind, "context": self.context,
                              "elements": self.current}).encode()
        store_keeping_newest(self.entry, frame(ELEMENTS_MAGIC, payload), KEEP)
