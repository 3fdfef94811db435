"""The obligations table's rows, kept between runs (round speed172).

A rerun after one changed target file made the whole obligations table again (718 rows for the
pinned pair, about 0.2 s of the parent's CPU while the report workers wait for it): each row's
licence, holder and notice cells were checked again although nothing they read had changed. A row
(:func:`lineage.results.obligations.build_obligations`) reads three kinds of input:

* **the target file and the pair**: the target file's bytes (its index record, licence head,
  lines), the upstream file it pairs with, and the numbers of the copied target lines of the pair
  (the licence notices among them, ``_copied_notice_ids``): the *pair key*, :func:`pair_key`, of
  the target path, the file's blob digest, the upstream label and path and those line numbers;
* **facts of the whole run** that any row may read: the target's licence files, root and folder,
  its ``__copyright__`` strings and declared licence (:class:`lineage.licences.declared.SourceLicence`,
  every field), its project facts (names, authors), the licence its release's files state
  (:func:`lineage.results.obligations.release_licence`, which reads every file's head when the
  metadata declares none: its *value* is keyed, made once per table as before), each upstream's
  :attr:`lineage.index.tree.TreeIndex.figures_key` (its Python files' paths and blob digests, licence
  files, project, vendoring records), the upstream files that are not the upstream's own code and
  those that are another project's (``not_own``, ``third_party``), the organisations and authors
  the target shares with each upstream, the two parameters the table reads
  (``licence_head_lines``, ``licence_release_holder_files``) and the code of all of lineage
  (:func:`lineage.match.store.code_fingerprint`): the *table key*, :func:`table_key`, which names
  the entry;
* **the group's counts and the marked column** (``copied_lines`` to ``last_line``, ``marked``):
  never kept, always taken from this run's lines and files tables.

So a kept row is used only when every input of its cells is what it was when they were made; a
change of any whole-run fact makes another entry (a miss for every row). The cells are those a
cacheless run makes (the same function, the same inputs); ``tests/test_obligation_rows.py`` tries
each key fact.

Layout: ``<root>/side-v<SIDE_VERSION>/obligations/<key[:2]>/<key>.rec``, framed like the other
caches (``MAGIC | length | XXH3-128 | payload``), a JSON payload (version, key, per pair key its
cells); the :data:`KEEP` newest entries stay. An entry holds the pairs of the run that wrote it (it
is written when a row was made afresh). A damaged or foreign entry is removed and the rows made
again. The root is set by :func:`kept_rows` (``lineage compare`` and ``corpus`` through
:func:`lineage.compare_and_write.compare_and_write`, as :func:`lineage.results.file_licences.kept`),
so library calls without it make every row.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lineage.index.tree import TreeIndex

ROWS_MAGIC = b"LINEAGE-OBLIGATIONS\n"
ROWS_VERSION = 2
KEEP = 4  # entries kept (one per run-wide fact set), as the side cache's
_ROOT: list[Path] = []  # the cache root while inside kept_rows (innermost last)


@contextlib.contextmanager
def kept_rows(root: Path | None) -> Iterator[None]:
    """Inside, :func:`lineage.results.obligations.build_obligations` reads and keeps its rows under
    ``root`` (None: nothing kept). Inherited by forked report workers."""
    if root is None:
        yield
        return
    _ROOT.append(root)
    try:
        yield
    finally:
        _ROOT.pop()


def _jsonable(value: object) -> object:
    """``value`` with sets and frozensets as sorted lists (their order is the process's hash
    seed's otherwise, and the key would differ from run to run), dataclasses as dicts."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, set | frozenset):
        return sorted((_jsonable(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def table_key(target: TreeIndex, upstreams: Sequence[TreeIndex], upstream_names: Sequence[str],
              head_lines: int, release_holder_files: int, not_own: Mapping[str, Collection[str]],
              third_party: Mapping[str, Mapping[str, str]], own_organisations: Mapping[str, str],
              authors: Mapping[str, Collection[str]], target_release: str) -> str:
    """The digest of every whole-run fact a row of the obligations table may read (module docstring)."""
    from lineage.match.store import code_fingerprint

    facts = {
        "version": ROWS_VERSION, "code": code_fingerprint(("lineage",)),
        "params": [head_lines, release_holder_files],
        "upstreams": [[label, tree.figures_key] for label, tree in zip(upstream_names, upstreams, strict=True)],
        "not_own": {label: sorted(paths) for label, paths in not_own.items()},
        "third_party": third_party, "own_organisations": own_organisations,
        "authors": {label: sorted(names) for label, names in authors.items()},
        "target_licence": target.licence, "target_project": target.project, "target_release": target_release,
    }
    text = json.dumps(_jsonable(facts), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def pair_key(target_path: str, target_digest: str, upstream: str, upstream_path: str, lines: Sequence[int]) -> str:
    """The key of one (target file, upstream file) pair's row within an entry (module docstring)."""
    text = json.dumps([target_path, target_digest, upstream, upstream_path, list(lines)])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _entry(root: Path, key: str) -> Path:
    from lineage.side_cache import SIDE_VERSION

    return root / f"side-v{SIDE_VERSION}" / "obligations" / key[:2] / f"{key}.rec"


class KeptRows:
    """The kept cells of one table's rows (by :func:`pair_key`), read from the entry of ``key``
    under the :func:`kept_rows` root, and this run's, written back by :meth:`store`."""

    def __init__(self, key: str) -> None:
        self.root = _ROOT[-1] if _ROOT else None
        self.key = key
        self.stored: dict[str, dict[str, object]] = {}
        self.used: dict[str, dict[str, object]] = {}  # this run's pairs, kept or made
        self.made = 0  # rows made afresh
        if self.root is None:
            return
        from lineage.index.store import discard, unframe

        entry = _entry(self.root, key)
        try:
            payload = unframe(ROWS_MAGIC, entry.read_bytes())
            header = json.loads(payload) if payload is not None else None
            if (isinstance(header, dict) and header.get("version") == ROWS_VERSION and header.get("key") == key
                    and isinstance(header.get("rows"), dict)):
                self.stored = header["rows"]
            else:
                discard(entry)  # damaged or foreign
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError):
            discard(entry)

    def get(self, pair: str) -> dict[str, object] | None:
        found = self.stored.get(pair)
        if isinstance(found, dict):
            self.used[pair] = found
            return found
        return None

    def put(self, pair: str, cells: dict[str, object]) -> None:
        self.used[pair] = cells
        self.made += 1

    def store(self) -> None:
        """Write this run's rows when one was made afresh, else mark the entry used now (the
        :data:`KEEP` newest are kept, by their time: a rerun that kept every row must not leave
        its entry to be the first dropped); an unwritable cache only costs time."""
        if self.root is None:
            return
        if not self.made:
            if self.used:
                with contextlib.suppress(OSError):
                    os.utime(_entry(self.root, self.key))
            return
        from lineage.index.store import frame, store_keeping_newest

        payload = json.dumps({"version": ROWS_VERSION, "key": self.key, "rows": self.used}).encode()
        store_keeping_newest(_entry(self.root, self.key), frame(ROWS_MAGIC, payload), KEEP)
