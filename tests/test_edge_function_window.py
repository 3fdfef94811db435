"""Tests for the edge of a pair that is not the target file's main pair, read up to the end of the
function both sides name alike (lineage.match.fill._function_window,
``MatchParams.fill_edge_function_window`` and ``fill_edge_function_min_share``): a method moved in
from another upstream file keeps its first lines verbatim (a region) and has its last lines edited;
those are paired when the method and its upstream original have one name and most of the shorter
one's lines are paired already, and never past the end of either function."""

from __future__ import annotations

from conftest import Runner, file_lines

from lineage.match import MatchParams

# The upstream store: the target file's main pair (its later version, most of its lines).
_STORE_HEAD = '''"""A store of archive bundles kept on local disk."""

import os
import shutil

from .errors import StoreFull


class BundleStore:
    """Keeps bundles in folders named by their ids below one root folder."""

    def __init__(self, root, capacity_bytes):
        self._root = os.path.abspath(root)
        self._capacity_bytes = int(capacity_bytes)
        self._bundles = {}
        os.makedirs(self._root, exist_ok=True)

    def folder_of(self, bundle_id):
        return os.path.join(self._root, 'bundle-%08d' % int(bundle_id))

    def used_bytes(self):
        total = 0
        for dirpath, _dirnames, filenames in os.walk(self._root):
            total += sum(os.path.getsize(os.path.join(dirpath, name)) for name in filenames)
        return total

    def put(self, bundle_id, source_folder):
        if self.used_bytes() > self._capacity_bytes:
            raise StoreFull('store at %s is over %d bytes' % (self._root, self._capacity_bytes))
        shutil.copytree(source_folder, self.folder_of(bundle_id))
        self._bundles[bundle_id] = self.folder_of(bundle_id)

    def drop(self, bundle_id):
        shutil.rmtree(self.folder_of(bundle_id), ignore_errors=True)
        self._bundles.pop(bundle_id, None)
'''

# The upstream client: ``fetch_bundle`` was moved from here into the store.
_CLIENT = '''"""Client for the archive service."""

import json
import logging

log = logging.getLogger(__name__)


class ArchiveClient:
    """Talks to the archive service over one HTTP session."""

    def __init__(self, session, base_url):
        self._session = session
        self._base_url = base_url.rstrip('/')
        self._cache = {}

    async def fetch_bundle(self, bundle_id, *, include_meta=False):
        url = '{}/bundles/{}'.format(self._base_url, bundle_id)
        params = {'meta': 'yes' if include_meta else 'no'}
        headers = {'accept': 'application/json', 'x-archive-client': 'async'}
        log.debug('fetching archive bundle %s from %s', bundle_id, url)
        response = await self._session.get(url, params=params, headers=headers, timeout=30)
        if response.status == 404:
            raise KeyError('no archive bundle with id %r' % bundle_id)
        payload = json.loads(await response.text())
        entries = [entry for entry in payload['entries'] if entry.get('state') != 'deleted']
        checksum = payload.get('checksum')
        if checksum is not None and checksum != compute_checksum(entries):
            log.warning('archive bundle %s failed its checksum', bundle_id)
        bundle = Bundle(bundle_id, entries, meta=payload.get('meta'))
        self._cache[bundle_id] = bundle
        return bundle

    async def close(self):
        await self._session.close()
        self._session = None
'''

# The moved method's first lines, verbatim (a region), code the fork added (where the region
# stops), and the method's last lines as the fork edited them.
_MOVED_START = '''
    async def fetch_bundle(self, bundle_id, *, include_meta=False):
        url = '{}/bundles/{}'.format(self._base_url, bundle_id)
        params = {'meta': 'yes' if include_meta else 'no'}
        headers = {'accept': 'application/json', 'x-archive-client': 'async'}
        log.debug('fetching archive bundle %s from %s', bundle_id, url)
        response = await self._session.get(url, params=params, headers=headers, timeout=30)
        if response.status == 404:
            raise KeyError('no archive bundle with id %r' % bundle_id)
        payload = json.loads(await response.text())
        entries = [entry for entry in payload['entries'] if entry.get('state') != 'deleted']
'''
_ADDED = '''        for entry in entries:
            entry['store_folder'] = self.folder_of(bundle_id)
            entry['local_size'] = os.path.getsize(entry['store_folder']) if os.path.exists(
                entry['store_folder']) else 0
            if entry['local_size'] > self._capacity_bytes:
                raise StoreFull('entry %s of bundle %s does not fit' % (entry['name'], bundle_id))
        entries.sort(key=lambda entry: (entry['local_size'], entry['name']))
        if len(entries) > self.max_entries_per_bundle:
            dropped = entries[self.max_entries_per_bundle:]
            entries = entries[: self.max_entries_per_bundle]
            for entry in dropped:
                shutil.rmtree(entry['store_folder'], ignore_errors=True)
        total_size = sum(entry['local_size'] for entry in entries)
        self._stats.record_fetch(bundle_id, total_size, len(entries))
        self._last_fetched = bundle_id
'''
_MOVED_END = '''        checksum = payload.get('checksum_sha256', None)
        if checksum is not None and checksum != compute_checksum(entries, strict=True):
            log.warning('archive bundle %s failed its checksum', bundle_id, stack_info=True)
        bundle = Bundle(bundle_id, entries, meta=payload.get('meta'), store=self)
        self._bundles[str(bundle_id)] = bundle
        return bundle
'''
# The fork's next method: two lines edited from those of the upstream's next function
# (``close``), which the window, ending with ``fetch_bundle`` on both sides, never reads.
_NEXT = '''
    async def shutdown(self):
        await self._session.close(timeout=5)
        self._session = self._closed_session()
'''
_UPSTREAM = [("up", {"pkg/store.py": _STORE_HEAD, "pkg/client.py": _CLIENT})]


def _fork(name: str = "fetch_bundle") -> str:
    return _STORE_HEAD + _MOVED_START.replace("def fetch_bundle(", f"def {name}(") + _ADDED + _MOVED_END + _NEXT


def _line(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if needle in line)


def _end_rows(text: str) -> list[int]:
    return [_line(text, needle) for needle in ("checksum_sha256", "strict=True", "stack_info=True",
                                               "store=self)", "self._bundles[str(bundle_id)]",
                                               "return bundle")]


def test_the_edited_end_of_a_moved_method_is_copied(run_compare: Runner) -> None:
    """The six last lines of ``fetch_bundle``, after 16 lines the fork added (where the client's
    region stops), are paired with the client's six, in order, with the rule on and none with it
    off; the fork's next method stays none either way (with the window run past the function's
    end, its two lines were near the client's ``close``)."""
    fork = _fork()
    on = file_lines(run_compare({"pkg/store.py": fork}, _UPSTREAM), "pkg/store.py")
    off = file_lines(run_compare({"pkg/store.py": fork}, _UPSTREAM,
                                 params=MatchParams(fill_edge_function_window=0)), "pkg/store.py")
    # the moved method's start is the client's region either way
    for frame in (on, off):
        start = frame.loc[_line(fork, "payload = json.loads")]
        assert (start["match"], start["upstream_path"]) == ("verbatim", "pkg/client.py")
    first = _line(_CLIENT, "checksum = payload.get")
    assert [(on.loc[k, "match"], on.loc[k, "upstream_path"], int(on.loc[k, "upstream_line"]))
            for k in _end_rows(fork)] == [
        ("near", "pkg/client.py", first), ("near", "pkg/client.py", first + 1),
        ("near", "pkg/client.py", first + 2), ("near", "pkg/client.py", first + 3),
        ("near", "pkg/client.py", first + 4), ("verbatim", "pkg/client.py", first + 5)]
    assert {off.loc[k, "match"] for k in _end_rows(fork)} == {"none"}
    following = range(_line(fork, "async def shutdown"), _line(fork, "_closed_session()") + 1)
    for frame in (on, off):
        assert {frame.loc[k, "match"] for k in following} == {"none"}


def test_a_method_of_another_name_is_not_read_past_the_edge(run_compare: Runner) -> None:
    """The same fork with the method renamed ``download_bundle``: its body is the client's region
    as before, but the enclosing functions' names differ, so its edited end stays none."""
    fork = _fork("download_bundle")
    frame = file_lines(run_compare({"pkg/store.py": fork}, _UPSTREAM), "pkg/store.py")
    start = frame.loc[_line(fork, "payload = json.loads")]
    assert (start["match"], start["upstream_path"]) == ("verbatim", "pkg/client.py")
    assert {frame.loc[k, "match"] for k in _end_rows(fork)} == {"none"}


def test_a_method_with_few_lines_paired_is_not_read(run_compare: Runner) -> None:
    """With the share floor above the moved method's paired share (10 lines of the client's 16,
    the shorter function: 0.625), its edited end stays none: two functions of one name written
    apart share a few lines only."""
    fork = _fork()
    frame = file_lines(run_compare({"pkg/store.py": fork}, _UPSTREAM,
                                   params=MatchParams(fill_edge_function_min_share=0.65)), "pkg/store.py")
    assert frame.loc[_line(fork, "payload = json.loads"), "match"] == "verbatim"
    assert {frame.loc[k, "match"] for k in _end_rows(fork)} == {"none"}


def test_the_edited_decorator_above_a_moved_method_is_read(run_compare: Runner) -> None:
    """The window before the first paired line of a moved method starts at the method's first
    decorator on both sides, not at its ``def``: the client's ``fetch_bundle`` carries
    ``@retry_on(ConnectionError, attempts=3)``; the fork's carries it edited, then a decorator of
    its own, above the verbatim ``def`` (the region's first line). The edited decorator is paired
    with the client's (none when the window started at the ``def``: the stretch before the anchor
    was empty), the fork's own stays none. The share floor is 0.5 here: the decorators count among
    the method's lines, 10 of the client's 17 paired (0.59)."""
    head = "    async def fetch_bundle("
    client = _CLIENT.replace(head, "    @retry_on(ConnectionError, attempts=3)\n" + head)
    fork = _fork().replace(head, "    @retry_on(ConnectionError, TimeoutError, attempts=5)\n"
                                 "    @traced('store.fetch')\n" + head)
    upstream = [("up", {"pkg/store.py": _STORE_HEAD, "pkg/client.py": client})]
    on = file_lines(run_compare({"pkg/store.py": fork}, upstream,
                                params=MatchParams(fill_edge_function_min_share=0.5)), "pkg/store.py")
    off = file_lines(run_compare({"pkg/store.py": fork}, upstream,
                                 params=MatchParams(fill_edge_function_window=0, fill_edge_function_min_share=0.5)),
                     "pkg/store.py")
    at, their = _line(fork, "attempts=5"), _line(client, "attempts=3")
    for frame in (on, off):
        assert (frame.loc[at + 2, "match"], frame.loc[at + 2, "upstream_path"]) == ("verbatim", "pkg/client.py")
        assert frame.loc[at + 1, "match"] == "none"
    assert (on.loc[at, "match"], on.loc[at, "upstream_path"], int(on.loc[at, "upstream_line"])) == (
        "near", "pkg/client.py", their)
    assert off.loc[at, "match"] == "none"
