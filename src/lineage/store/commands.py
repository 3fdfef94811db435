"""The ``lineage store add|info`` and ``lineage scan`` commands (registered by :mod:`lineage.cli`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lineage.errors import LineageError

DASK_HELP = ("run on the Dask scheduler at ADDRESS (tcp://host:8786; 'local' starts a LocalCluster with a "
             "worker per core; default: $LINEAGE_DASK, else in this process). Workers must see the store "
             "and cache folders at the same paths")
STORE_SET_HELP = ("override a store parameter (repeatable; recorded in store.json/scan.json; prefix_bits for new "
                  "stores only); `lineage params --of store` lists every KEY with its default and range")


@dataclass(frozen=True)
class CliHooks:
    """What the commands take from :mod:`lineage.cli` (handed over, so that lineage.store never
    imports the CLI): the option parsers shared with ``compare``."""

    params: Callable[[list[str]], Any]  # --set KEY=VALUE list -> MatchParams
    formats: Callable[[str], Any]  # --formats value -> formats
    settings: Callable[[argparse.Namespace], Any]  # the command line's RunSettings (cli.run_settings)
    folder: Callable[[str], str]  # a folder option's type: an empty one refused (cli._folder)


def add_parsers(sub: argparse._SubParsersAction, common: Callable[[argparse.ArgumentParser], None],
                set_help: str, formats_default: str, formats_help: str, source_help: str, hooks: CliHooks) -> None:
    def store_folder(text: str) -> Path:
        return Path(hooks.folder(text))

    p = sub.add_parser("store", help="build or inspect a fingerprint store of many releases",
                       description="A store of the distinctive line fingerprints of many releases, as "
                       "partitioned Parquet files, for lineage scan.")
    actions = p.add_subparsers(dest="store_action", required=True, metavar="ACTION")
    a = actions.add_parser("add", help="index releases and add their fingerprints (a release already "
                           "in the store, by digest, is skipped)")
    a.add_argument("specs", nargs="*", metavar="SPEC", help=source_help)
    a.add_argument("--store", required=True, type=store_folder, help="the store folder (created if missing)")
    a.add_argument("--from-file", type=Path, default=None, metavar="LIST",
                   help="specs, one per line, or a JSON manifest {\"releases\": [{name, version, sha256}]}")
    a.add_argument("--dask", default=None, metavar="ADDRESS", help=DASK_HELP)
    a.add_argument("--store-set", action="append", default=[], metavar="KEY=VALUE", help=STORE_SET_HELP)
    common(a)
    a.set_defaults(func=_cmd_store_add, hooks=hooks)
    c = actions.add_parser("compact", help="merge each partition's files into one (faster lookups)")
    c.add_argument("--store", required=True, type=store_folder, help="the store folder")
    c.set_defaults(func=_cmd_store_compact)
    i = actions.add_parser("info", help="releases, fingerprints and size of a store")
    i.add_argument("--store", required=True, type=store_folder, help="the store folder")
    i.add_argument("--json", action="store_true", help="print the store's figures and releases as JSON")
    i.set_defaults(func=_cmd_store_info)

    s = sub.add_parser("scan", help="nominate a target's upstreams from a store, then compare with the top K",
                       description="Look TARGET's line fingerprints up in a store, rank its releases by "
                       "distinctive shared lines (candidates.csv, scan.json) and compare TARGET with the best-ranked "
                       "release of each of the top K projects as upstreams (the usual report, in the same folder).")
    s.add_argument("target", help=source_help)
    s.add_argument("--store", required=True, type=store_folder, help="the store folder to look fingerprints up in")
    s.add_argument("--out", required=True, type=hooks.folder, help="output folder")
    s.add_argument("--top", type=int, default=None, metavar="K",
                   help="compare with the best-ranked release of each of the K best-ranked projects (a lower-ranked "
                   "version of a chosen project takes no slot; default: the store parameter top, 3; 0: rank only)")
    s.add_argument("--dask", default=None, metavar="ADDRESS", help=DASK_HELP)
    s.add_argument("--store-set", action="append", default=[], metavar="KEY=VALUE", help=STORE_SET_HELP)
    s.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=set_help)
    s.add_argument("--no-html", action="store_true", help="skip the HTML side-by-side view")
    s.add_argument("--formats", default=formats_default, help=formats_help)
    s.add_argument("--target-name", action="append", default=[], metavar="NAME",
                   help="a name the target project is known by (repeatable), as in compare")
    common(s)
    s.set_defaults(func=_cmd_scan, hooks=hooks)


def _open(args: argparse.Namespace, create: bool):  # type: ignore[no-untyped-def]
    from lineage.store import Store, store_params_from_settings

    match = args.hooks.params(getattr(args, "set", []) or [])
    return Store.open(args.store, store_params_from_settings(args.store_set), match if create else None,
                      create=create)


def _cmd_store_add(args: argparse.Namespace) -> int:
    from lineage.store import add_releases, read_spec_list
    from lineage.store.cluster import dask_address, dask_client

    specs = list(args.specs) + (read_spec_list(args.from_file) if args.from_file else [])
    if not specs:
        raise LineageError("store add: give at least one SPEC or --from-file LIST")
    # A store this command makes and adds nothing to (every release failed, or the run was
    # stopped) is taken away again: an empty store left behind looks like a store built
    # (`scan` would read it and nominate nothing).
    created = not (args.store / "store.json").is_file()
    folder_existed = args.store.is_dir()
    store = _open(args, create=True)
    started = time.perf_counter()

    def show(outcome) -> None:  # type: ignore[no-untyped-def]
        if not args.quiet or outcome.status == "failed":
            print(f"lineage: {outcome.status}: {outcome.spec}: {outcome.detail}", file=sys.stderr)

    outcomes = []
    try:
        with dask_client(dask_address(args.dask)) as client:
            outcomes = add_releases(store, specs, client=client, settings=args.hooks.settings(args),
                                    progress=show)
    finally:
        if created and not any(o.status == "added" for o in outcomes):
            _remove_new_store(args.store, folder_existed)
    counts = {s: sum(o.status == s for o in outcomes) for s in ("added", "present", "failed")}
    if created and not counts["added"]:
        print(f"0 added, {counts['failed']} failed; no store made at {args.store}.")
        return 2
    info = store.info()
    print(f"{counts['added']} added, {counts['present']} already present, {counts['failed']} failed; the store "
          f"holds {info['releases']} releases, {int(info['fingerprints']):,} fingerprints, "
          f"{int(info['bytes']) / 1e6:.1f} MB ({time.perf_counter() - started:.1f} s).")
    _refuse_damage(info)
    return 2 if counts["failed"] else 0


def _remove_new_store(root: Path, folder_existed: bool) -> None:
    """Take away the store ``store add`` made at ``root`` (in a folder that was empty, or made
    by it) when nothing was added to it."""
    import shutil

    if not folder_existed:
        shutil.rmtree(root, ignore_errors=True)
        return
    for child in root.iterdir():  # the folder was empty before: all of this is the new store's
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def _cmd_store_compact(args: argparse.Namespace) -> int:
    from lineage.store import Store

    store = Store.open(args.store)
    merged = store.compact()
    info = store.info()
    print(f"merged {merged:,} files; the store holds {info['fingerprint_files']} fingerprint files over "
          f"{info['partitions']} partitions, {int(info['bytes']) / 1e6:.1f} MB.")
    return 0


def _cmd_store_info(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from lineage.store import Store

    store = Store.open(args.store)
    info = store.info()
    if args.json:
        print(json.dumps({**info, "releases_table": [asdict(r) for r in store.releases()]}, indent=2))
        _refuse_damage(info)
        return 0
    print(f"store: {info['store']}")
    print(f"releases: {info['releases']}, fingerprints: {int(info['fingerprints']):,}, "
          f"{int(info['bytes']) / 1e6:.1f} MB in {info['fingerprint_files']} files over {info['partitions']} "
          "partitions")
    # by spec, to be read; each digest says what it is of: `store add` reports a release present by
    # its archive's sha256 (or commit), which the tree digest alone did not show
    for r in sorted(store.releases(), key=lambda r: (r.spec, r.digest)):
        source = f"  source {r.source_digest[:19]}" if r.source_digest else ""
        print(f"  {r.spec}  tree {r.digest[:19]}{source}  {r.licence or '-'}  {r.files} "
              f"file{'' if r.files == 1 else 's'}  {r.fingerprints:,} fingerprints")
    if info["unlisted_files"]:
        print(f"{info['unlisted_files']} fingerprint files of releases not in releases.parquet, ignored (left by an "
              "interrupted store add, or the releases table was lost)")
    _refuse_damage(info)
    return 0


def _nothing_copied(shared: dict[str, Any], common_max_projects: int) -> str:
    """Why the compared releases ranked when the compare finds nothing copied from them: lines
    it sets apart (the target's own code they hold, as a release vendoring the target does, or
    third-party code both hold), else scattered common lines the ranking counted one by one."""
    apart = {k: int(shared[k]["lines"]) for k in ("from_target", "third_party")}
    if any(apart.values()):
        return (f"the compare finds no line of the target copied from them: of what they share, it sets "
                f"{apart['from_target']:,} lines apart as the target's own code they hold and "
                f"{apart['third_party']:,} as third-party code (summary.json's shared)")
    return ("the compare finds no line of the target copied from them: what it shares with them is scattered "
            f"common lines, not copied code (a store of at most common_max_projects, {common_max_projects}, "
            "projects cannot tell such lines from distinctive ones)")


def _compared(copied: int) -> str:
    """A compared candidate's note: the target lines the compare finds copied from it."""
    return f" (compared: {copied:,} lines copied)" if copied else " (compared: no line copied)"


def _refuse_damage(info: dict[str, object]) -> None:
    """The store's damaged files or releases missing fingerprint files (``Store.info``'s), as the
    command's one-line error."""
    damaged: list[dict[str, str]] = info["damaged"]  # type: ignore[assignment]
    if damaged:
        more = f" (and {len(damaged) - 1} more damaged files)" if len(damaged) > 1 else ""
        raise LineageError(f"damaged store file {damaged[0]['path']}: {damaged[0]['why']}{more}")
    short: list[dict[str, Any]] = info["incomplete"]  # type: ignore[assignment]
    if short:
        from lineage.store.dataset import incomplete_message

        first = short[0]
        raise LineageError(incomplete_message(str(info["store"]), first["release"], first["stored"],
                                              first["fingerprints"], len(short) - 1))


def _cmd_scan(args: argparse.Namespace) -> int:
    from lineage.report.outdir import check_out_dir, local_paths
    from lineage.store import scan
    from lineage.store.cluster import dask_address, dask_client

    started = time.perf_counter()
    if args.top is not None and args.top < 0:
        raise LineageError("--top must be 0 or more")
    out = Path(args.out)
    check_out_dir(out, [*local_paths([args.target]), str(args.store)])
    store = _open(args, create=False)
    with dask_client(dask_address(args.dask)) as client:
        result = scan(args.target, store, top=args.top, match_params=args.hooks.params(args.set), client=client,
                      settings=args.hooks.settings(args), target_names=args.target_name or None)
    try:
        result.write(out, html=not args.no_html, formats=args.hooks.formats(args.formats))
    except OSError as exc:
        raise LineageError(f"cannot write reports to {out}: {exc.strerror or exc}") from None
    compared = set(result.upstreams)
    versions: dict[str, int] = {}
    for c in result.candidates:
        versions[c.project] = versions.get(c.project, 0) + 1
    for c in result.candidates[:10]:
        # with other ranked versions of its project: what sets this one apart from them
        only = (f", {c.version_only_lines:,} in no other stored {c.project} release"
                if versions[c.project] > 1 else "")
        print(f"{c.rank}. {c.release}: score {c.score:.3f}, {c.distinct_lines:,} distinct lines{only}"
              f"{_compared(result.copied_lines[c.release]) if c.release in compared else ''}")
    if result.own_releases:
        print(f"not candidates, the target's own project: {', '.join(result.own_releases)}.")
    if not result.candidates:
        print("no release in the store shares enough distinctive lines with the target.")
    elif result.upstreams:
        print(f"compared with the best-ranked release of each of the {len(result.upstreams)} best-ranked "
              f"projects: {', '.join(result.upstreams)}.")
    if result.comparison is not None:
        for line in result.comparison.headline():
            print(f"{line}.")
        if not any(result.copied_lines.values()):
            print(f"{_nothing_copied(result.comparison.shared, result.params.common_max_projects)}.")
    print(f"Wrote candidates.csv, scan.json{' and the compare report' if result.comparison else ''} to "
          f"{args.out} in {time.perf_counter() - started:.1f} s.")
    return 0
