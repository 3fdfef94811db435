"""Compare and write, through the whole-result cache: what ``lineage compare`` and ``lineage
corpus`` run.

When every input is unchanged, the stored report (:mod:`lineage.report.cache`) is written
without indexing, matching or building tables, and without importing the modules that do:
pandas, the matcher and the table builders load (through :func:`lineage.api.compare`) only on a
miss. Their imports are about 0.7 s of a 2 s warm run (issue 13's target for it is 2 s).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from lineage.errors import LineageError
from lineage.index import IndexCache
from lineage.match.params import MatchParams
from lineage.settings import RunSettings, source_date
from lineage.sources import Source, open_source


def _opened(sources: Sequence[Source]) -> Callable[[str, Path], Source]:
    """An opener for :func:`compare` that hands out ``sources`` (already open) in the order
    compare asks for them: the target, then each upstream."""
    queue = iter(sources)
    return lambda spec, root: next(queue)


def _entry(spec: str) -> tuple[str, str]:
    """What two specs must not fill at once: a PyPI release's cache entry
    (:func:`lineage.sources.pypi.cache_entry_name`), else the spec itself."""
    from lineage.sources.pypi import cache_entry_name

    entry = cache_entry_name(spec)
    return ("pypi", entry) if entry is not None else ("spec", spec)


def _open_with_identities(specs: Sequence[str], settings: RunSettings, stack: contextlib.ExitStack,
                          check_later: bool = False,
                          ) -> tuple[list[Source], list[dict[str, bytes]], list[dict[str, object]]]:
    """Each source opened (entered into ``stack``), the files read for its identity, and its
    :func:`~lineage.index.tree.tree_identity`, in ``specs`` order.

    The sources are opened side by side in threads: an archive's sha256, its members' inflation
    and their blob hashes release the GIL, and with two wheels the two sides took turns on one
    core. ``check_later``: see :func:`lineage.sources.open_source`. The same sources, files and
    identities either way. Specs that name one cache entry
    (:func:`_entry`: ``pypi:Foo==1.0`` and ``pypi:foo==1.0``) are opened in turn, all of them:
    two threads would download one release into one entry at once. The first failure in
    ``specs`` order is raised as soon as the specs before it are open, without waiting for the
    others (a download, say): they run in daemon threads, and each is closed once it is open. An
    interrupt while waiting does the same. A release that fails its check (``ArchiveChanged``)
    waits for the others: the run opens them again, and forks, once they have ended. On success
    every thread has ended (the matcher forks later) but a release's check (``check_later``),
    which every fork waits for."""
    import threading
    from concurrent.futures import Future

    from lineage.index.tree import ReadFiles, tree_identity
    from lineage.sources.pypi import ArchiveChanged

    def opened(spec: str) -> tuple[Source, dict[str, bytes], dict[str, object]]:
        source = open_source(spec, settings.cache_root, check_later)
        try:
            blobs = ReadFiles()  # with their digests, which index_tree takes
            return source, blobs, tree_identity(source, IndexCache(settings.store_root), blobs, settings.max_file_bytes)
        except BaseException as exc:
            try:
                if isinstance(exc, Exception):  # a member failing its CRC, say: a failed check first
                    source.verify()
            finally:
                source.close()
            raise

    if len({_entry(spec) for spec in specs}) == len(specs) > 1:
        gate, threads = threading.BoundedSemaphore(8), []

        def in_thread(spec: str) -> Future[tuple[Source, dict[str, bytes], dict[str, object]]]:
            # a daemon thread: a run that fails or is interrupted neither waits for it nor is held
            # at exit by it (a download of an upstream no longer needed, say)
            future: Future[tuple[Source, dict[str, bytes], dict[str, object]]] = Future()

            def run() -> None:
                future.set_running_or_notify_cancel()
                try:
                    with gate:
                        future.set_result(opened(spec))
                except BaseException as exc:
                    future.set_exception(exc)

            threads.append(threading.Thread(target=run, name=f"lineage-open-{spec}", daemon=True))
            threads[-1].start()
            return future

        def close(future: Future[tuple[Source, dict[str, bytes], dict[str, object]]]) -> None:
            if future.exception() is None:
                future.result()[0].close()

        futures = [in_thread(spec) for spec in specs]
        try:
            done = [f.result() for f in futures]  # the first failure in specs order, once it is known
            for thread in threads:  # none left running when the matcher forks
                thread.join()
        except BaseException as exc:
            for f in futures:
                f.add_done_callback(close)  # now, or when its thread ends
            if isinstance(exc, ArchiveChanged):  # the run starts again with these specs: not beside them
                for thread in threads:
                    thread.join()
            raise
    else:
        done = []
        try:
            for spec in specs:
                done.append(opened(spec))
        except BaseException:
            for source, _, _ in done:
                source.close()
            raise
    for source, _, _ in done:
        stack.enter_context(source)
    return [d[0] for d in done], [d[1] for d in done], [d[2] for d in done]


@dataclasses.dataclass(frozen=True)
class Written:
    """What :func:`compare_and_write` wrote, and what the CLI prints of it."""

    paths: list[Path]
    headline: list[str]
    skipped: int  # target Python files skipped (files.csv status "skipped")
    from_cache: bool  # answered by the whole-result cache (lineage.report.cache)


def compare_and_write(target: str, upstreams: Sequence[str], out_dir: str | Path, *,
                      params: MatchParams | None = None, settings: RunSettings | None = None,
                      target_names: Sequence[str] | None = None, html: bool = True,
                      formats: Sequence[str] | None = None, allow_empty: bool = False) -> Written:
    """:func:`compare`, then :meth:`Comparison.write`, through the whole-result cache
    (:mod:`lineage.report.cache`, on unless ``settings.use_cache`` is off): when every input
    is unchanged the stored report is written without indexing, matching or building tables.

    A cached PyPI release is checked against its pin while the run goes on
    (:class:`lineage.sources.pypi.PinCheck`), and before anything is written; one that fails the
    check stops the run, which starts again with the release checked first (downloaded again,
    or refused offline), as a run always did."""
    from lineage.sources.pypi import ArchiveChanged

    settings = settings or RunSettings()
    args = (target, upstreams, out_dir, params, settings, target_names, html, formats, allow_empty)
    try:
        return _compare_and_write(*args, check_later=True)
    except ArchiveChanged as exc:
        settings.log(f"{exc}: opening it again, checked first")
        return _compare_and_write(*args, check_later=False)


def _compare_and_write(target: str, upstreams: Sequence[str], out_dir: str | Path, params: MatchParams | None,
                       settings: RunSettings, target_names: Sequence[str] | None, html: bool,
                       formats: Sequence[str] | None, allow_empty: bool, check_later: bool) -> Written:
    """:func:`compare_and_write`, the cached releases checked alongside with ``check_later``."""
    from lineage.report import ATTACHMENTS
    from lineage.report.cache import EntryLost, ResultCache, refreshed_manifest, result_key, write_cached

    params = params or MatchParams()
    source_date()  # a malformed $SOURCE_DATE_EPOCH is refused before the comparison, not after it
    formats = tuple(ATTACHMENTS) if formats is None else tuple(formats)
    out = Path(out_dir)
    cache = ResultCache(settings.store_root, settings.result_entries)
    started = time.perf_counter()
    key = None
    opener: Callable[[str, Path], Source] = open_source
    read: list[dict[str, bytes]] | None = None
    sources: list[Source] = []  # opened here (for the key), each verified before anything is written
    # Sources opened for the key stay open for the comparison on a miss, with the files read for
    # it: an archive is checksummed and listed, a directory walked and read, once per run rather
    # than twice, and the report stored under the key is made from the bytes the key digests.
    try:
        with contextlib.ExitStack() as stack:
            if cache.dir is not None:
                sources, read, identities = _open_with_identities([target, *upstreams], settings, stack, check_later)
                opener = _opened(sources)
                key = result_key(identities, params.to_dict(), list(target_names or []), settings.max_file_bytes, html,
                                 formats, allow_empty)
                found = cache.get(key)
                keyed = time.perf_counter()
                if found is not None:
                    for source in sources:
                        source.verify()
                    read = None  # free the files read for the key before writing (a lost entry reads them again)
                    settings.log(f"nothing changed: writing the stored report ({len(found.files)} files)")
                    options = {"jobs": settings.jobs or 0, "cache": str(settings.cache_root),
                               "max_file_bytes": settings.max_file_bytes, "target_names": list(target_names or []),
                               "result_cache": "hit"}
                    try:
                        manifest = refreshed_manifest(found.manifest, options, {"key": keyed - started})
                        paths = write_cached(found, out, [str(i["info"]["location"]) for i in identities],  # type: ignore[index]
                                             manifest)
                        return Written(paths, found.headline, found.skipped, True)
                    except EntryLost:  # damaged, or removed by another run meanwhile: computed after all
                        cache.discard(key)
                        settings.log("the stored report is damaged or gone: computing it")
                    except OSError as exc:
                        raise LineageError(f"cannot write reports to {out}: {exc.strerror or exc}") from None
            from lineage.api import compare

            comparison = compare(target, upstreams, params=params, settings=settings, target_names=target_names,
                                 opener=opener, allow_empty=allow_empty, read=read)
            for source in sources:
                source.verify()
    except Exception:
        # a release that failed its check is the cause of whatever failed with it (a member read
        # later whose bytes are not those recorded): ArchiveChanged, and the run starts again
        for source in sources:
            source.verify()
        raise
    comparison.options["result_cache"] = "stored" if key is not None else "off"
    headline, skipped = comparison.headline(), int(comparison.file_counts["skipped"])

    def store(fresh: Path, checksums: dict[str, tuple[int, str]]) -> None:
        """This run's report, stored from its own fresh folder before it replaces ``out``
        (``checksums``: of the files the report workers hashed, see ``write_reports``)."""
        try:
            cache.put(key, fresh, headline, skipped, checksums)  # type: ignore[arg-type]
        except OSError as exc:  # a full disk costs the next run time, never this run's report
            settings.log(f"result cache not written: {exc.strerror or exc}")

    try:
        # lines.csv per target file through the cache (lineage.report.lines_csv): nobody can have
        # edited the tables between compare and write here
        from lineage.heap import return_freed_memory
        from lineage.results.file_licences import kept
        from lineage.results.obligation_rows import kept_rows

        return_freed_memory()  # the tables stage's freed pages, before the report writers fork from this process
        root = settings.store_root if settings.reuse_tables else None
        with kept(root), kept_rows(root):  # files' licences and the obligations' rows kept between runs
            paths = comparison.write(out, html=html, formats=formats,
                                     csv_cache=root,
                                     jobs=settings.workers,  # the reporters side by side (the same files)
                                     on_written=store if key is not None else None)
    except OSError as exc:
        raise LineageError(f"cannot write reports to {out}: {exc.strerror or exc}") from None
    return Written(paths, headline, skipped, False)
