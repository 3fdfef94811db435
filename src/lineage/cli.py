"""The ``lineage`` command: a thin layer over :mod:`lineage.api`.

Exit status: 0 on success, 2 on bad usage or bad input (one line on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from lineage import __version__
from lineage.errors import LineageError

SOURCE_HELP = "a directory, an archive (.whl/.zip/.tar.gz/.tgz/.tar), REPO@REF, or pypi:NAME==VERSION"


def _params(assignments: Sequence[str]):  # type: ignore[no-untyped-def]
    from lineage.match import MatchParams

    fields = {f.name: f for f in dataclasses.fields(MatchParams)}
    values: dict[str, object] = {}
    for item in assignments:
        key, sep, raw = item.partition("=")
        if not sep or key not in fields:
            raise LineageError(f"--set takes KEY=VALUE with KEY one of: {', '.join(sorted(fields))}")
        kind = type(getattr(MatchParams(), key))
        try:
            values[key] = kind(raw)
        except ValueError as exc:
            raise LineageError(f"--set {key}: {exc}") from None
    return MatchParams(**values)  # type: ignore[arg-type]


def _cmd_compare(args: argparse.Namespace) -> int:
    from lineage.api import compare

    started = time.perf_counter()
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise LineageError(f"--out {out} exists and is not a folder")
    upstreams = [args.upstream, *args.also_upstream]
    comparison = compare(args.target, upstreams, params=_params(args.set), jobs=args.jobs,
                         cache_dir=args.cache_dir, use_cache=not args.no_cache,
                         max_file_bytes=args.max_file_bytes, progress=not args.quiet)
    try:
        written = comparison.write(out, html=not args.no_html)
    except OSError as exc:
        raise LineageError(f"cannot write reports to {out}: {exc.strerror or exc}") from None
    for line in comparison.headline():
        print(f"{line}.")
    summary = comparison.summary()
    files = summary["files"]
    assert isinstance(files, dict)
    if files["skipped"]:
        print(f"{files['skipped']} Python files skipped (reasons in files.csv and manifest.json).")
    print(f"Wrote {len(written)} files to {args.out} in {time.perf_counter() - started:.1f} s.")
    return 0


def corpus_specs(manifest: Path) -> tuple[str, list[str]]:
    """Source specs (target, upstreams) of a corpus manifest in corpora/: pinned PyPI releases."""
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        specs = [f"pypi:{e['name']}=={e['version']}#sha256={e['sha256']}"
                 for e in [data["target"], *data["upstreams"]]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LineageError(f"cannot read corpus manifest {manifest}: {exc}") from None
    return specs[0], specs[1:]


def _cmd_corpus(args: argparse.Namespace) -> int:
    target, upstreams = corpus_specs(Path(args.manifest))
    args.target, args.upstream, args.also_upstream = target, upstreams[0], upstreams[1:]
    return _cmd_compare(args)


def _cmd_markers(args: argparse.Namespace) -> int:
    from lineage.index import IndexCache, index_tree
    from lineage.markers import marker_names_upstream
    from lineage.settings import default_cache_dir
    from lineage.sources import open_source

    root = args.cache_dir or default_cache_dir()
    with open_source(args.target, root) as source:
        tree = index_tree(source, IndexCache(None if args.no_cache else root), args.jobs,
                          progress=not args.quiet)
    names = {n.lower() for n in args.name}
    rows = []
    for f in tree.files:
        for m in f.markers:
            if names and not marker_names_upstream(m, names):
                continue
            if not args.all and m.kind in ("spdx", "copyright"):
                continue
            rows.append({"target_path": f.path, **dataclasses.asdict(m)})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            where = " ".join(x for x in (r["repository"], r["ref"], r["path"]) if x)
            print(f"{r['target_path']}:{r['line']}: {r['kind']}: {r['text']}" + (f"  [{where}]" if where else ""))
        marked = len({r["target_path"] for r in rows})
        print(f"{marked} of {len(tree.files)} files carry such a marker.", file=sys.stderr)
    return 0


def _cmd_cache(args: argparse.Namespace) -> int:
    from lineage.index import IndexCache
    from lineage.settings import default_cache_dir

    cache = IndexCache(args.cache_dir or default_cache_dir())
    if args.action == "info":
        info = cache.info()
        print(f"cache: {info['root']}")
        print(f"entries: {info['entries']:,} ({int(info['bytes']) / 1e6:.1f} MB)")
        for name, v in (info.get("versions") or {}).items():  # type: ignore[union-attr]
            print(f"  {name}: {v['entries']:,} entries, {v['bytes'] / 1e6:.1f} MB")
    else:
        print(f"removed {cache.clear():,} cache entries from {cache.root}")
    return 0


def _cmd_history(args: argparse.Namespace) -> int:
    from lineage.history import run_history

    run_history(args.range, [args.upstream, *args.also_upstream], Path(args.out), every=args.every,
                tags_only=args.tags, max_commits=args.max_commits, params=_params(args.set),
                jobs=args.jobs, cache_dir=args.cache_dir, use_cache=not args.no_cache,
                progress=not args.quiet)
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=int, default=None, help="worker processes for indexing (default: all cores)")
    p.add_argument("--cache-dir", type=Path, default=None,
                   help="cache folder (default: $LINEAGE_CACHE_DIR, else the user cache dir)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the index cache")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lineage", description=(
        "Measure how much of a Python codebase is derived from an upstream release."))
    parser.add_argument("--version", action="version", version=f"lineage {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("compare", help="label every target line as copied from the upstream or not",
                       description="Compare TARGET with UPSTREAM; write lines.csv, files.csv, "
                       "functions.csv, regions.csv, summary.json, summary.md, html/ and manifest.json.")
    p.add_argument("target", help=f"the codebase to examine: {SOURCE_HELP}")
    p.add_argument("upstream", help=f"the primary upstream: {SOURCE_HELP}")
    p.add_argument("--upstream", dest="also_upstream", action="append", default=[], metavar="SOURCE",
                   help="a further upstream (repeatable), e.g. a third party both sides vendored; "
                   "on equal evidence a further upstream is named as the source")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--no-html", action="store_true", help="skip the HTML side-by-side view")
    p.add_argument("--max-file-bytes", type=int, default=4 * 1024 * 1024,
                   help="skip (and record) Python files larger than this (default 4 MiB)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a matcher parameter (recorded in the manifest)")
    _common(p)
    p.set_defaults(func=_cmd_compare)

    p = sub.add_parser("corpus", help="run compare on a pinned corpus manifest (corpora/*.json)",
                       description="Compare the pinned PyPI releases named by a corpus manifest; "
                       "the downloads are checked against the manifest's sha256.")
    p.add_argument("manifest", help="e.g. corpora/sglang-vllm.json")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--no-html", action="store_true")
    p.add_argument("--max-file-bytes", type=int, default=4 * 1024 * 1024)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    _common(p)
    p.set_defaults(func=_cmd_corpus)

    p = sub.add_parser("markers", help="list provenance markers in a codebase",
                       description="List 'Derived from', 'Adapted from', 'Copied from ...' markers and "
                       "upstream URLs found in comments and docstrings.")
    p.add_argument("target", help=SOURCE_HELP)
    p.add_argument("--name", action="append", default=[],
                   help="keep only markers naming this upstream (repeatable), e.g. --name vllm")
    p.add_argument("--all", action="store_true", help="include SPDX and copyright lines")
    p.add_argument("--json", action="store_true", help="print JSON records")
    _common(p)
    p.set_defaults(func=_cmd_markers)

    p = sub.add_parser("cache", help="show or clear the index cache")
    p.add_argument("action", choices=["info", "clear"])
    p.add_argument("--cache-dir", type=Path, default=None)
    p.set_defaults(func=_cmd_cache)

    p = sub.add_parser("history", help="headline figures for each commit of a target git repository",
                       description="For REPO@A..B (or REPO@REF for its whole history), compute the "
                       "headline figures at each commit; write history.csv and history.png.")
    p.add_argument("range", help="REPO@A..B, or REPO@REF for every commit up to REF")
    p.add_argument("upstream", help=SOURCE_HELP)
    p.add_argument("--upstream", dest="also_upstream", action="append", default=[], metavar="SOURCE")
    p.add_argument("--out", required=True)
    p.add_argument("--every", type=int, default=1, help="every Nth commit (the last is always included)")
    p.add_argument("--tags", action="store_true", help="only tagged commits")
    p.add_argument("--max-commits", type=int, default=0, help="at most this many commits (0: no limit)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    _common(p)
    p.set_defaults(func=_cmd_history)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except LineageError as exc:
        print(f"lineage: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head(1) and closed: not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("lineage: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
