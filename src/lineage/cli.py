"""The ``lineage`` command: a thin layer over :mod:`lineage.api`, and all of lineage's printing.

Options shared by several commands are made once (:data:`OPTIONS`); :data:`TAKES` says which
command takes which, and :func:`run_settings` turns the run options into the one
:class:`lineage.settings.RunSettings` every stage takes. Every command's parser is here, so the
module is somewhat over 400 lines: reading one file shows the whole command line.

Exit status: 0 on success, 2 on bad usage or bad input, or output that cannot be written (one line
on stderr, no traceback).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from lineage import __version__
from lineage.errors import LineageError, SourceError
from lineage.settings import ARROW_MEMORY_POOL, DEFAULT_MAX_FILE_BYTES, GC_THRESHOLDS, RunSettings

if TYPE_CHECKING:
    from lineage.fork.forkpoint import ForkpointResult

# Before anything imports pyarrow (read when its default pool is first made); forked workers inherit it.
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", ARROW_MEMORY_POOL)

FORMATS_DEFAULT = "spdx,cyclonedx,sarif"
FORMATS_HELP = ("attachments to write, comma-separated: spdx (lineage.spdx.json), cyclonedx or cdx "
                "(lineage.cdx.json), sarif (lineage.sarif), or none (default: all three)")
SOURCE_HELP = "a directory, an archive (.whl/.zip/.tar.gz/.tgz/.tar), REPO@REF[:FOLDER], or pypi:NAME==VERSION"


def _params(assignments: Sequence[str]):  # type: ignore[no-untyped-def]
    from lineage.match.params import params_from_settings

    return params_from_settings(assignments)


# The keys (about 150 for the matcher) are listed by `lineage params`, not in every --help.
SET_HELP = ("override a matcher parameter (repeatable; recorded in the manifest); `lineage params` lists "
            "every KEY with its default and range")
DRIFT_SET_HELP = ("override a drift parameter (repeatable; recorded in drift.json); `lineage params --of drift` "
                  "lists every KEY with its default and range")


def _param_classes() -> dict[str, type]:
    from lineage.fork.params import DriftParams
    from lineage.match.params import MatchParams
    from lineage.store.params import StoreParams

    return {"match": MatchParams, "drift": DriftParams, "store": StoreParams}


def _cmd_params(args: argparse.Namespace) -> int:
    from lineage.knobs import describe

    rows = describe(_param_classes()[args.of])
    if args.json:
        print(json.dumps([{"key": k, "type": t, "default": d, "range": r} for k, t, d, r in rows], indent=1))
        return 0
    # key, type, range, default: the default last, since a string's (vendor_folders) is long
    texts = [(k, t, r or "-", repr(d) if t == "str" else str(d)) for k, t, d, r in rows]
    widths = [max(len(row[i]) for row in texts) for i in range(3)]
    for row in texts:
        print(f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:<{widths[2]}}  {row[3]}")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from lineage.compare_and_write import compare_and_write
    from lineage.report.outdir import check_out_dir, local_paths

    started = time.perf_counter()
    out = Path(args.out)
    upstreams = [*([args.upstream] if args.upstream else []), *args.also_upstream]
    settings = run_settings(args)
    # Refuse a dangerous --out before the comparison, not a minute later (checked again on write).
    check_out_dir(out, local_paths([args.target, *upstreams]))
    vendored: list[str] = []
    if getattr(args, "vendored", False):
        from lineage.api import vendored_upstreams
        from lineage.sources.pypi import release_key

        found = vendored_upstreams(args.target, settings, args.target_name or None)
        if not found:
            raise LineageError(f"--vendored: {args.target} has no vendoring record that pins a release "
                               "(vendor.txt, vendored.txt, patched.txt, a vendored *.dist-info)")
        given = {release_key(spec) or spec for spec in upstreams}  # one release however it is spelled
        vendored = [spec for spec in found if (release_key(spec) or spec) not in given]
        upstreams += vendored
        settings.log(f"--vendored: {len(vendored)} pinned releases as upstreams: "
                     f"{', '.join(vendored) or '(all given already)'}")
    if not upstreams:
        raise LineageError("compare needs an UPSTREAM (or --upstream SOURCE, or --vendored)")
    try:
        result = compare_and_write(args.target, upstreams, out, params=_params(args.set), settings=settings,
                                   target_names=args.target_name or None, html=not args.no_html,
                                   formats=_formats(args.formats), allow_empty=args.allow_empty)
    except SourceError as exc:
        failed = failed_pin(vendored, str(exc))
        if failed:  # say which record's pin it was, and how to go on without it
            raise LineageError(f"--vendored: the pinned release {failed} cannot be had ({exc}); name the "
                               "upstreams with --upstream instead to leave it out") from None
        raise

    for line in result.headline:
        print(f"{line}.")
    if result.skipped:
        noun = "file" if result.skipped == 1 else "files"
        print(f"{result.skipped:,} Python {noun} skipped (reasons in files.csv and manifest.json).")
    written = result.paths
    print(f"Wrote {len(written)} files to {args.out} in {time.perf_counter() - started:.1f} s.")
    return 0


def failed_pin(specs: Sequence[str], message: str) -> str:
    """The first of the ``pypi:NAME==VERSION`` specs whose ``NAME==VERSION`` a source error's
    message names as a whole (``idna==3.7`` is not named by ``idna==3.7.1``); "" when none is."""
    for spec in specs:
        pin = re.escape(spec.removeprefix("pypi:"))
        if re.search(rf"(?<![\w.+-]){pin}(?![\w.+-])", message):
            return spec
    return ""


def _formats(text: str) -> list[str]:
    from lineage.report import ATTACHMENTS

    if text.strip().lower() == "none":
        return []
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    names = ["cyclonedx" if n in ("cdx", "cyclonedx") else n for n in names]
    unknown = [n for n in names if n not in ATTACHMENTS]
    if "none" in unknown:
        raise LineageError("--formats: 'none' stands alone (no attachments), not in a list of formats")
    if unknown:
        raise LineageError(f"--formats: unknown format {unknown[0]!r} (choose from {', '.join(ATTACHMENTS)}, or none)")
    return list(dict.fromkeys(names))


def _cmd_check(args: argparse.Namespace) -> int:
    from lineage.check import make_policy, policy_from_pyproject, run_check

    config_path = Path(args.config) if args.config else Path("pyproject.toml")
    if args.config and not config_path.is_file():
        raise LineageError(f"--config {config_path}: no such file")
    config = policy_from_pyproject(config_path) if config_path.is_file() else {}
    overrides = {"max_unmarked_copied_lines": args.max_unmarked_copied_lines,
                 "max_copied_share": args.max_copied_share,
                 "require_marker_min_lines": args.require_marker_min_lines,
                 "fail_on_missing_notice": args.fail_on_missing_notice,
                 "fail_on_licence_conflict": args.fail_on_licence_conflict,
                 "baseline": args.baseline, "count_own_releases": args.count_own_releases}
    policy = make_policy(config, overrides)
    if not policy.active():
        raise LineageError("no policy: set one of the options, or [tool.lineage.check] in pyproject.toml")
    said: list[str] = []
    findings = run_check(Path(args.report), policy, said)
    args.verdict = 1 if findings else 0  # the exit status even if the reader goes away (main)
    for line in said:  # never silent about what it did not count
        print(f"lineage check: {line}", file=sys.stderr)
    for line in findings:
        print(line)
    print(f"lineage check: {len(findings)} violation(s)" if findings else "lineage check: policy holds",
          file=sys.stderr)
    return args.verdict


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from lineage.reproduce import reproduce

    result = reproduce(Path(args.manifest), args.out, settings=run_settings(args))
    args.verdict = 0 if result.reproduced else 1  # the exit status even if the reader goes away (main)
    for line in result.lines():
        print(line)
    return args.verdict


def _cmd_corpus(args: argparse.Namespace) -> int:
    from lineage.sources.corpus import corpus_specs

    target, upstreams = corpus_specs(Path(args.manifest))
    args.target, args.upstream, args.also_upstream = target, upstreams[0], upstreams[1:]
    return _cmd_compare(args)


def _cmd_markers(args: argparse.Namespace) -> int:
    from lineage.api import markers

    found = markers(args.target, args.name, include_attribution=args.all, settings=run_settings(args))
    if args.json:
        print(json.dumps(found.rows, indent=2))
    else:
        for r in found.rows:
            where = " ".join(str(x) for x in (r["repository"], r["ref"], r["path"]) if x)
            at = f":{r['line']}" if r["line"] else ""  # a vendoring record has no line in the file
            print(f"{r['target_path']}{at}: {r['kind']}: {r['text']}" + (f"  [{where}]" if where else ""))
        print(f"{found.marked_files} of {found.python_files} files carry such a marker.", file=sys.stderr)
    return 0


def _cmd_cache(args: argparse.Namespace) -> int:
    from lineage.index import IndexCache

    cache = IndexCache(run_settings(args).cache_root)
    if args.action == "info":
        info = cache.info()
        print(f"cache: {info['root']}")
        print(f"entries: {info['entries']:,} ({int(info['bytes']) / 1e6:.1f} MB)")
        for name, v in (info.get("versions") or {}).items():  # type: ignore[union-attr]
            print(f"  {name}: {v['entries']:,} entries, {v['bytes'] / 1e6:.1f} MB")
    else:
        print(f"removed {cache.clear(args.keep_downloads):,} cache entries from {cache.root}"
              + (" (downloads kept)" if args.keep_downloads else ""))
    return 0


def _cmd_history(args: argparse.Namespace) -> int:
    from lineage.history import figures_sentence, run_history

    result = run_history(args.range, [args.upstream, *args.also_upstream], Path(args.out), every=args.every,
                         tags_only=args.tags, max_commits=args.max_commits, params=_params(args.set),
                         settings=run_settings(args), allow_empty=args.allow_empty)
    frame, total, name = result.frame, len(result.frame), result.range.repo.name
    first, last = frame.iloc[0], frame.iloc[-1]
    print(f"{total} commit{'s' if total != 1 else ''} of {name} analysed against {', '.join(result.upstream_names)}.")
    print(f"first {first['commit'][:10]} ({first['date'][:10]}): {figures_sentence(first)}.")
    if total > 1:
        print(f"last {last['commit'][:10]} ({last['date'][:10]}): {figures_sentence(last)}.")
    print(f"{result.seconds:.1f} s in all, {int(frame['cache_misses'].sum()):,} files parsed "
          f"(cache misses); wrote history.csv, history.png and history.json to {result.out_dir}.")
    return 0


def _cmd_forkpoint(args: argparse.Namespace) -> int:
    from lineage.fork.forkpoint import run_forkpoint

    result = run_forkpoint(args.target, args.candidates, versions=args.versions, pre=args.pre,
                           tags_only=args.tags, every=args.every, max_commits=args.max_commits,
                           target_path=args.target_path, params=_params(args.set), settings=run_settings(args))
    result.write(Path(args.out))
    best = result.best
    for row in best.itertuples():
        print(f"closest: {row.candidate} ({row.ref}): distance {row.distance:,}, "
              f"{row.verbatim_code_lines:,} of {row.target_code_lines:,} code lines verbatim, "
              f"{row.upstream_only_code_lines:,} upstream-only.")
    later = result.best_after_target
    # of a tie, some dated after the target: those are no fork point, the others may be
    some_later = 0 < len(later) < len(best)
    if len(best) > 1 and best["tree_digest"].nunique() == 1:  # one tree, several commits or releases
        earlier = len(best) - len(later)
        which = (f"{'the one' if earlier == 1 else f'any of the {earlier}'} not dated after the target "
                 f"({result.target_date})" if some_later else "any of them")
        print(f"the {len(best)} closest hold the same Python files (tree {best['tree_digest'].iat[0][:19]}): "
              f"the fork point is {which}.")
    elif len(best) > 1:
        print(f"{len(best)} candidates tie at the closest distance; {_tie_sentence(result)}")
    if some_later:
        print(f"{len(later)} of the {len(best)} closest {'are' if len(later) > 1 else 'is'} dated after the target "
              f"({result.target_date}) and no fork point: {', '.join(str(r) for r in later['ref'])}.")
    elif len(later):
        # a release after the target holds the code it forked from (an unreleased branch), or
        # the same code reached both: the closest is no fork point (disnake 2.1.0 / discord.py 2.0.0)
        print(f"the closest {'are' if len(best) > 1 else 'is'} dated after the target ({result.target_date}), "
              "which cannot descend from a later release: it forked from code that release holds too "
              "(an unreleased commit before it), or took it from elsewhere.")
        for row in result.best_before_target.itertuples():
            print(f"closest dated before the target: {row.candidate} ({row.ref}, {row.date}, rank {row.rank}): "
                  f"distance {row.distance:,}.")
    _say_first_release(result)
    more = result.more_verbatim_than_best
    if len(more):
        # the distance counts a release's code the target dropped since as much as code it never
        # had: a later release holding more of the target's code bounds the fork point below
        top = best.sort_values("verbatim_code_lines", ascending=False, kind="stable").iloc[0]
        most = int(top["verbatim_code_lines"])
        row = more.iloc[0]
        others = (f", as {'does' if len(more) == 2 else 'do'} {len(more) - 1} more (forkpoint.json "
                  "`more_verbatim_than_best`)") if len(more) > 1 else ""
        print(f"{row['candidate']} ({row['ref']}, rank {row['rank']}) holds {row['verbatim_code_lines'] - most:,} more "
              f"of the target's code lines verbatim than the closest ({row['verbatim_code_lines']:,} against "
              f"{most:,}){others}: code the closest lacks, which the target forked from or took from a later "
              f"release; it ranks lower for its upstream-only lines ({row['upstream_only_code_lines']:,} against "
              f"{int(top['upstream_only_code_lines']):,}), code the target lacks or dropped since.")
    print(f"{len(result.candidates)} candidates ranked; wrote forkpoint.csv, forkpoint_files.csv, "
          f"forkpoint.json and forkpoint.png to {args.out}.")
    return 0


def _say_first_release(result: ForkpointResult) -> None:
    """The closest dated after the first release of the target's project (not after the target):
    the fork existed when that release came out, which may hold its changes carried back (ssh
    merged back into paramiko 1.8.0), so the closest dated before that first release is named.
    Said only when some candidate is dated before it: pypdf 3.17.4's project lists pyPdf's releases
    (uploaded 2014), older than every PyPDF2 release, the project pypdf continues."""
    other = result.inputs["target"].get("first_release_not_own", {})
    if other.get("import_names"):  # PyPI's first-listed release imports none of the target's names
        theirs, mine = ", ".join(other["import_names"]), ", ".join(other["target_import_names"])
        print(f"the release PyPI lists first under the target's name, {other['version']} ({other['date']}), imports "
              f"{theirs}, none of the target's names ({mine}): another project's, so the first release of the "
              "target's own project is unknown.")
    merged, before = result.best_after_first_release, result.best_before_first_release
    if not len(merged) or not len(before):
        return
    first = result.inputs["target"]["first_release"]
    some = len(merged) < len(result.best)
    who = (f"{len(merged)} of the {len(result.best)} closest are" if some
           else f"the closest {'are' if len(merged) > 1 else 'is'}")
    print(f"{who} dated after the first release of the target's project ({first['version']}, {first['date']}): "
          "the fork existed by then, and a later upstream release may hold its changes carried back (a fork "
          "merged back upstream), so it need not be the fork point.")
    for row in before.itertuples():
        print(f"closest dated before the target project's first release: {row.candidate} ({row.ref}, {row.date}, "
              f"rank {row.rank}): distance {row.distance:,}.")


def _tie_sentence(result: ForkpointResult) -> str:
    """What a tie of several Python trees at the closest distance comes down to: the files they
    differ in, and which of them the target pairs with (forkpoint.json ``best_differ_in``,
    ``best_differ_paired``). The figures are the same against each, so the target's code cannot
    tell them apart; before, the command said only that their files differ."""
    differ, paired = result.best_differ_in, result.best_differ_paired

    def named(paths: list[str]) -> str:
        return ", ".join(paths[:_TIE_PATHS_SHOWN]) + (", ..." if len(paths) > _TIE_PATHS_SHOWN else "")

    files = f"{len(differ):,} file{'s' if len(differ) != 1 else ''}"
    pairs = (f"of which the target pairs with {len(paired):,} ({named(paired)})" if paired
             else "none of which the target pairs with")
    return (f"their Python files differ in {files} ({named(differ)}), {pairs}: its figures are the same "
            "against each, so its code cannot tell them apart (forkpoint.json `best_differ_in`).")


_TIE_PATHS_SHOWN = 5  # paths a tie's sentence names; forkpoint.json lists them all


def _cmd_drift(args: argparse.Namespace) -> int:
    from lineage.fork.drift import base_sentence, parse_list, run_drift
    from lineage.fork.params import drift_params_from_settings
    from lineage.knobs import assign

    # --applied-min-share and --missing-max-share are --drift-set items by another name (an error
    # names the option given).
    given = [(option, f"{key}={value}") for option, key, value in (
        ("--applied-min-share", "applied_min_share", args.applied_min_share),
        ("--missing-max-share", "missing_max_share", args.missing_max_share)) if value is not None]
    drift_params = drift_params_from_settings(args.drift_set)
    if given:  # both at once: their check against each other sees the pair given
        drift_params = assign(drift_params, [item for _, item in given], "/".join(option for option, _ in given))
    result = run_drift(args.target, args.range, commits=parse_list(args.commits), prs=parse_list(args.prs),
                       base=args.base, pair_at=args.pair_at, target_path=args.target_path,
                       drift_params=drift_params,
                       params=_params(args.set), settings=run_settings(args), forkpoint_tags=args.tags,
                       forkpoint_every=args.every)
    result.write(Path(args.out))
    counts = ", ".join(f"{n} {s}" for s, n in result.counts().items())
    if result.inputs["base_auto"]:  # which base --base auto took, and why
        print(base_sentence(result.inputs["base_auto"]) + ".")
    print(f"{len(result.commits)} upstream commits touching Python files: {counts}; "
          f"wrote drift.csv and drift.json to {args.out}.")
    if not result.inputs["pairing"]["paired_target_files"]:  # said even with -q: the counts alone mislead
        print("lineage: no target file corresponds to an upstream file at BASE, so no commit can be told "
              "applied (check BASE, --target-path or --pair-at)", file=sys.stderr)
    return 0


TARGET_NAME_HELP = ("a name the target project is known by (repeatable; replaces its label, packages and "
                    "metadata repositories): an upstream file whose header names it came from the target")

def _folder(text: str) -> str:
    """An option naming a folder: an empty one (``--out ""``, an unset shell variable) would be the
    current folder, never what was meant."""
    if not text.strip():
        raise argparse.ArgumentTypeError("may not be empty")
    return text


# Every option that more than one command takes, made once: name -> (flags, add_argument keywords).
# Help that differs by command is a callable of the command's name.
OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, object]]] = {
    "upstream": (("--upstream",), dict(dest="also_upstream", action="append", default=[], metavar="SOURCE",
                                       help="a further upstream (repeatable), e.g. a third party both sides "
                                       "vendored; on equal evidence a further upstream is named as the source")),
    "out": (("--out",), dict(required=True, type=_folder, help="output folder")),
    "no-html": (("--no-html",), dict(action="store_true", help="skip the HTML side-by-side view")),
    "max-file-bytes": (("--max-file-bytes",), dict(type=int, default=DEFAULT_MAX_FILE_BYTES,
                                                   help="skip (and record) Python files larger than this "
                                                   "(default 4 MiB)")),
    "set": (("--set",), dict(action="append", default=[], metavar="KEY=VALUE", help=SET_HELP)),
    "formats": (("--formats",), dict(default=FORMATS_DEFAULT, help=FORMATS_HELP)),
    "target-name": (("--target-name",), dict(action="append", default=[], metavar="NAME", help=TARGET_NAME_HELP)),
    "allow-empty": (("--allow-empty",), dict(action="store_true", help="compare against an upstream that holds "
                                             "no Python files (otherwise an error: a wrong path)")),
    "every": (("--every",), dict(type=int, default=1, help="every Nth commit (the last is always included)")),
    "tags": (("--tags",), dict(action="store_true", help="only tagged commits")),
    "max-commits": (("--max-commits",), dict(type=int, default=0,
                                             help="at most this many commits (0: no limit)")),
    # how to run (lineage.settings.RunSettings)
    "jobs": (("--jobs",), dict(type=int, default=None,
                               help="worker processes for indexing and matching (default: all cores)")),
    "cache-dir": (("--cache-dir",), dict(type=lambda text: Path(_folder(text)), default=None,
                                         help="cache folder (default: $LINEAGE_CACHE_DIR, else the user cache dir)")),
    "no-cache": (("--no-cache",), dict(action="store_true", help="do not read or write the index cache")),
    "quiet": (("-q", "--quiet"), dict(action="store_true", help="no progress on stderr")),
}
RUN = ("jobs", "cache-dir", "no-cache", "quiet")
REPORT = ("out", "no-html", "max-file-bytes", "set", "formats", "target-name")
COMMITS = ("every", "tags", "max-commits")
# Which command takes which shared option (each command's own arguments are added where it is made).
TAKES: dict[str, tuple[str, ...]] = {
    "compare": ("upstream", *REPORT, "allow-empty", *RUN),
    "corpus": (*REPORT, "allow-empty", *RUN),
    "markers": RUN,
    "cache": ("cache-dir",),
    "history": ("upstream", "out", *COMMITS, "set", "allow-empty", *RUN),
    "forkpoint": ("out", *COMMITS, "set", *RUN),
    "drift": ("out", "set", *RUN),
    "reproduce": RUN,  # its own --out is optional; the file size limit is the manifest's
    "check": (),  # its --every and --tags choose fork-point candidates: said in its own words
}


def add_options(p: argparse.ArgumentParser, *names: str) -> None:
    for name in names:
        flags, keywords = OPTIONS[name]
        p.add_argument(*flags, **keywords)  # type: ignore[arg-type]


def _command(sub: argparse._SubParsersAction, name: str, func: Callable[[argparse.Namespace], int],
             **parser: str) -> argparse.ArgumentParser:
    """Sub-command ``name`` run by ``func``, with the shared options :data:`TAKES` gives it; the
    caller adds the command's own arguments."""
    p = sub.add_parser(name, **parser)  # type: ignore[arg-type]
    p.set_defaults(func=func, command_parser=p)  # its usage errors name its own --help
    add_options(p, *TAKES.get(name, ()))
    return p


def _common(p: argparse.ArgumentParser) -> None:
    """The run options (for a command not in :data:`TAKES`)."""
    add_options(p, *RUN)


def run_settings(args: argparse.Namespace) -> RunSettings:
    """The run options of a command line, as the one :class:`RunSettings` every stage takes."""
    from lineage.settings import print_progress

    return RunSettings(cache_dir=getattr(args, "cache_dir", None), jobs=getattr(args, "jobs", None),
                       max_file_bytes=getattr(args, "max_file_bytes", DEFAULT_MAX_FILE_BYTES),
                       use_cache=not getattr(args, "no_cache", False),
                       progress=None if getattr(args, "quiet", True) else print_progress)


class _Parser(argparse.ArgumentParser):
    """argparse with the CLI's one-line errors: ``lineage: error: ...`` and where to read the
    usage, exit 2 (argparse prints the whole usage block first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"lineage: error: {_shown(message)} (see '{self.prog} --help')\n")


def _shown(message: str) -> str:
    """An error message on one printable line: a newline in a path or spec the user gave is shown
    as ``\\n`` (as reports show such names), not as a second line."""
    from lineage.sources.base import display_path

    return display_path(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="lineage", description=(
        "Measure how much of a Python codebase is derived from an upstream release."))
    parser.add_argument("--version", action="version", version=f"lineage {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = _command(sub, "compare", _cmd_compare, help="label every target line as copied from the upstream or not",
                 description="Compare TARGET with UPSTREAM; write lines.csv, files.csv, "
                 "functions.csv, regions.csv, summary.json, summary.md, html/ and manifest.json.")
    p.add_argument("target", help=f"the codebase to examine: {SOURCE_HELP}")
    p.add_argument("upstream", nargs="?", help=f"the primary upstream: {SOURCE_HELP} (may be left out with "
                   "--upstream or --vendored)")
    p.add_argument("--vendored", action="store_true",
                   help="add as upstreams the PyPI releases the target's vendoring records pin (vendor.txt, "
                   "vendored.txt, patched.txt, vendored *.dist-info): each vendored package against the "
                   "release it says it is")

    p = _command(sub, "corpus", _cmd_corpus, help="run compare on a pinned corpus manifest (corpora/*.json)",
                 description="Compare the pinned PyPI releases named by a corpus manifest; "
                 "the downloads are checked against the manifest's sha256.")
    p.add_argument("manifest", help="e.g. corpora/sglang-vllm.json")

    p = _command(sub, "check", _cmd_check, help="policy gate over a report (exit 0 holds, 1 violated, 2 bad usage)",
                 description="Check a report written by compare against a policy, from "
                 "[tool.lineage.check] in pyproject.toml (of the current folder, or --config) with "
                 "these options overriding it. Prints one line per violation.")
    p.add_argument("report", help="a folder written by lineage compare")
    p.add_argument("--max-unmarked-copied-lines", type=int, default=None, metavar="N",
                   help="at most N copied code lines in files without a marker (with --baseline: growth)")
    p.add_argument("--max-copied-share", type=float, default=None, metavar="PCT",
                   help="copied code lines at most PCT %% of code lines (with --baseline: growth in points)")
    p.add_argument("--require-marker-min-lines", type=int, default=None, metavar="N",
                   help="files with N or more copied code lines must carry a marker naming the upstream")
    p.add_argument("--fail-on-missing-notice", action=argparse.BooleanOptionalAction, default=None,
                   help="fail when a copied file lacks a notice its upstream licence asks for (obligations.csv)")
    p.add_argument("--fail-on-licence-conflict", action=argparse.BooleanOptionalAction, default=None,
                   help="fail when an upstream licence is incompatible with the target's")
    p.add_argument("--baseline", default=None, metavar="OLD_REPORT_DIR",
                   help="judge only what grew since this older report")
    p.add_argument("--count-own-releases", action=argparse.BooleanOptionalAction, default=None,
                   help="count copies of a release of the target's own project in the marker items "
                        "(left out by default, and said on stderr)")
    p.add_argument("--config", default=None, metavar="PYPROJECT", help="pyproject.toml to read the policy from")

    p = _command(sub, "reproduce", _cmd_reproduce, help="rerun a report from its manifest (exit 0 identical, "
                 "1 differs, 2 an input cannot be had or is not the recorded one)",
                 description="Reopen every input a manifest records (digests checked), rerun with "
                 "the recorded parameters and upstream order, and compare the figure files' sha256 "
                 "with those recorded.")
    p.add_argument("manifest", help="a manifest.json written by compare or corpus, or its report folder")
    p.add_argument("--out", default=None, type=_folder, help="keep the rerun's report in this folder (default: a "
                   "temporary folder, removed)")

    p = _command(sub, "params", _cmd_params, help="list the parameters --set, --drift-set and --store-set take",
                 description="List every parameter KEY of the matcher (--set), of drift (--drift-set) or of the "
                 "store and scan (--store-set), with its type, default and valid range; each one's reason is "
                 "written beside it in lineage/match/params.py, lineage/fork/params.py or lineage/store/params.py.")
    p.add_argument("--of", choices=["match", "drift", "store"], default="match",
                   help="whose parameters (default: the matcher's, for --set)")
    p.add_argument("--json", action="store_true", help="as JSON (key, type, default, range)")

    p = _command(sub, "markers", _cmd_markers, help="list provenance markers in a codebase",
                 description="List 'Derived from', 'Adapted from', 'Copied from ...' markers and "
                 "upstream URLs found in comments and docstrings, and the files that the tree's vendoring "
                 "records (vendor.txt, a vendored copy's *.dist-info) cover (kind 'vendored', line 0).")
    p.add_argument("target", help=SOURCE_HELP)
    p.add_argument("--name", action="append", default=[],
                   help="keep only markers naming this upstream (repeatable), e.g. --name vllm: those that "
                   "make a file marked in a report, copyright lines naming it included (a vendoring "
                   "record covers the package of its declared name here; in a report also the upstream's "
                   "other top-level packages). A report also learns the upstream's authors and holders from "
                   "its tree, which this command does not read: name them too (--name pypdf2 finds none of "
                   "the 9 pypdf files compare marks for PyPDF2, --name 'Mathieu Fenniak' all 9)")
    p.add_argument("--all", action="store_true", help="without --name: include SPDX and copyright lines")
    p.add_argument("--json", action="store_true", help="print JSON records")

    p = _command(sub, "cache", _cmd_cache,
                 help="show or clear the cache (index, match, table and result entries, downloads)",
                 description="Only lineage's own folders under the cache folder are counted or "
                 "removed (index-vN/, match-vN/, result-vN/, tables-vN/, downloads/); clearing is safe while runs "
                 "are active.")
    p.add_argument("action", choices=["info", "clear"],
                   help="info: entries and size per folder; clear: remove them")
    p.add_argument("--keep-downloads", action="store_true", help="clear: keep downloaded releases")

    p = _command(sub, "history", _cmd_history, help="headline figures for each commit of a target git repository",
                 description="For REPO@A..B (or REPO@REF for its whole history), compute the "
                 "headline figures at each commit; write history.csv and history.png.")
    p.add_argument("range", help="REPO@A..B, or REPO@REF for every commit up to REF")
    p.add_argument("upstream", help=SOURCE_HELP)

    p = _command(sub, "forkpoint", _cmd_forkpoint, help="which candidate release or commit the target is closest to",
                 description="Rank candidates (sources, REPO@A..B commits, pypi:NAME releases) by "
                 "their distance to TARGET; write forkpoint.csv, forkpoint_files.csv, forkpoint.json, "
                 "forkpoint.png.")
    p.add_argument("target", help=SOURCE_HELP)
    p.add_argument("candidates", nargs="+", help=f"{SOURCE_HELP}; REPO@A..B; or pypi:NAME (every release)")
    p.add_argument("--versions", default="", help="PEP 440 specifier narrowing pypi:NAME, e.g. '>=20,<25'")
    p.add_argument("--pre", action="store_true", help="include pre-releases of pypi:NAME")
    p.add_argument("--target-path", default="", help="only target files under this folder, or this one file")

    from lineage.fork.params import DriftParams

    drift_defaults = DriftParams()
    p = _command(sub, "drift", _cmd_drift, help="which upstream commits since the fork point the target carries",
                 description="For each first-parent commit of UPSTREAM_REPO@BASE..HEAD touching Python "
                 "files: how many of its added lines the target's corresponding files hold and how many "
                 "of its removed lines they lack; status applied, partial, missing or not_applicable. "
                 "Writes drift.csv and drift.json.")
    p.add_argument("target", help=SOURCE_HELP)
    p.add_argument("range", help="UPSTREAM_REPO@BASE..HEAD (a git repository)")
    p.add_argument("--commits", default="", metavar="SHA,...", help="only these commits of the range")
    p.add_argument("--prs", default="", metavar="N,...", help="only the commits naming these pull requests")
    p.add_argument("--base", default="", choices=["", "auto"],
                   help="auto: replace BASE by forkpoint's closest commit among BASE..HEAD (the oldest if tied)")
    p.add_argument("--tags", action="store_true", help="with --base auto: only tagged commits are candidates")
    p.add_argument("--every", type=int, default=1, help="with --base auto: every Nth commit is a candidate")
    p.add_argument("--pair-at", default="base", choices=["base", "parent"],
                   help="pair target and upstream files at BASE (default) or at each commit's parent")
    p.add_argument("--target-path", default="", help="only target files under this folder")
    p.add_argument("--applied-min-share", type=float, default=None, metavar="SHARE",
                   help="applied: at least this share of added lines present and of removed lines absent "
                   f"(default {drift_defaults.applied_min_share})")
    p.add_argument("--missing-max-share", type=float, default=None, metavar="SHARE",
                   help="missing: at most this share of the changed lines present or absent "
                   f"(default {drift_defaults.missing_max_share})")
    p.add_argument("--drift-set", action="append", default=[], metavar="KEY=VALUE",
                   help=DRIFT_SET_HELP)
    from lineage.store.commands import CliHooks
    from lineage.store.commands import add_parsers as add_store_parsers

    add_store_parsers(sub, _common, SET_HELP, FORMATS_DEFAULT, FORMATS_HELP, SOURCE_HELP,
                      CliHooks(params=_params, formats=_formats, settings=run_settings, folder=_folder))
    return parser


class _OutputError(LineageError):
    """Standard output cannot be written (a full disk, a closed descriptor); a broken pipe is not one."""


class _GuardedStdout:
    """``sys.stdout`` while a command runs: a write error other than a broken pipe becomes an
    :class:`_OutputError`, told in one line like any other error rather than as a traceback."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def _call(self, method: str, *args: object) -> Any:
        try:
            return getattr(self.stream, method)(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputError(f"cannot write to standard output: {exc.strerror or exc}") from None

    def write(self, text: str) -> int:
        return int(self._call("write", text))

    def flush(self) -> None:
        self._call("flush")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _drop_unwritten(stream: Any) -> None:
    """Point ``stream``'s descriptor at /dev/null: the output it still holds would fail again when
    Python flushes it at exit, with a message of its own."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture): nothing held
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _terminate(signum: int, frame: object) -> None:
    # SIGTERM unwinds like Ctrl-C, so a report being written is removed, not left half-written.
    raise KeyboardInterrupt


def run() -> NoReturn:
    """The ``lineage`` program (the console script, ``python -m lineage``): :func:`main` on the
    command line, then the process ends without the interpreter's teardown.

    The teardown frees every object one by one, and after a comparison that missed the result
    cache the heap is about 450 MB of records and tables: 0.15 s of each such run on the pinned
    pair (issue 13's one changed file; tests/bench/README.md, *Round speed22*), memory the kernel
    reclaims at once with the process. The
    atexit handlers still run (multiprocessing's, the caller's) and stdout and stderr are
    flushed first. Not when another thread is alive (its work is not ours to cut short), nor
    when the command ended by raising (``SystemExit`` from a usage error): then the interpreter
    exits as usual. :func:`main` itself always returns, for callers in their own process."""
    import atexit

    try:
        code = main()
        # atexit._run_exitfuncs: CPython's own call at exit (since 3.0), so handlers run as they would
        if threading.active_count() == 1 and callable(getattr(atexit, "_run_exitfuncs", None)):
            atexit._run_exitfuncs()
            try:
                for stream in (sys.stdout, sys.stderr):
                    if stream is not None:
                        stream.flush()
            except (OSError, ValueError):  # a closed or broken stream: the interpreter's exit reports it
                sys.exit(code)
            os._exit(code)
    except KeyboardInterrupt:
        # SIGINT or SIGTERM after _main's own handler (the report already whole, or left as it was):
        # one line, as anywhere else, not a traceback out of the exit handlers or main's finally
        print("lineage: interrupted", file=sys.stderr)
        code = 130
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)  # for the command's work only (see GC_THRESHOLDS); workers fork from it
    try:
        return _main(argv)
    finally:
        gc.set_threshold(*before)  # a caller of main() in its own process gets its collector back


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # compare's UPSTREAM may be left out (--upstream, --vendored): argparse then takes an UPSTREAM
    # written after an option (`compare T --out DIR U`, `compare T --out DIR -- U`) for an unknown
    # argument; it is the upstream.
    rest = extra[1:] if extra[:1] == ["--"] else extra
    if (getattr(args, "func", None) is _cmd_compare and args.upstream is None and len(rest) == 1
            and (rest is not extra or not rest[0].startswith("-"))):
        args.upstream, extra = rest[0], []
    if extra:
        more = ""
        if getattr(args, "func", None) is _cmd_compare and not any(x.startswith("-") for x in extra):
            # a reviewer's `compare T U1 U2`: UPSTREAM is one source, a further one is an option
            more = "; compare takes one UPSTREAM, a further one as " + ", ".join(f"--upstream {x}" for x in extra)
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(extra)}{more}")
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)
    stdout = sys.stdout
    if stdout is not None:  # None: started with stdout closed, and print() then writes nothing
        sys.stdout = _GuardedStdout(stdout)
    try:
        if any(hasattr(args, name) for name in ("jobs", "cache_dir", "max_file_bytes")):
            run_settings(args)  # bad run options refused before any work, by every command taking them
        args.verdict = int(args.func(args))
        if sys.stdout is not None:
            sys.stdout.flush()  # buffered output fails here, told in one line, not at exit
        return args.verdict
    except LineageError as exc:
        if isinstance(exc, _OutputError):
            _drop_unwritten(stdout)
        print(f"lineage: error: {_shown(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head(1) and closed: not an error of ours
        sys.stderr.close()
        # but a verdict stays one: `lineage check` of a violated policy exits 1 (a command that
        # judges sets args.verdict before it prints; any other's is its status once it returned)
        return int(getattr(args, "verdict", 0))
    except KeyboardInterrupt:
        print("lineage: interrupted", file=sys.stderr)
        return 130
    finally:
        sys.stdout = stdout


if __name__ == "__main__":
    run()
