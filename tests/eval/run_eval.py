"""Accuracy suite: generate cases, run the tools, score them, write results.csv/results.md.

    python tests/eval/run_eval.py [--tools lineage,jscpd,copydetect] [--cases all|NAMES]
                                  [--out out/eval] [--small | --real] [--seed 0] [--jobs 2]

* ``--small``: only the in-repo fixture (``tests/eval/fixture_upstream``), no network.
  Otherwise the pinned PyPI corpora of ``corpora.toml`` are fetched into the cache
  (``$LINEAGE_CACHE_DIR`` or ``~/.cache/lineage``, under ``eval/``).
* ``--real``: only the real cases of ``tests/eval/real/manifest.toml`` (a vendored tree, a
  project's own code years later, a renamed fork), pinned PyPI releases with truth from the
  vendoring diff or from git blame (``tests/eval/real/*/README.md``); no generator.
* ``--cases``: ``all``, or a comma-separated list of operators (``whole_file,mixed``),
  ``negative_control``, or case ids (``requests/mixed``).
* Cases are generated once per (generator, upstream, operator, seed) and cached under
  ``<cache>/eval/cases``; tool outputs go to ``OUT/runs/TOOL/CORPUS/CASE``.
* ``lineage`` is run as ``sys.executable -m lineage.cli compare TARGET UPSTREAM --out DIR``
  (with this checkout's ``src`` first on ``PYTHONPATH``); ``jscpd`` and ``copydetect`` come
  from ``tests/eval/anchors.py`` (imported only when asked for).

Exit status: 0 when every tool run succeeded, 1 when some failed (results are still written).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.eval import corpora as corpora_mod  # noqa: E402
from tests.eval import generate, metrics  # noqa: E402

DEFAULT_TOOLS = ("lineage", "jscpd", "copydetect")
REAL_ORDER = ("vendored", "survival", "renamed_fork")
SMALL_CORPUS = "minipkg"
TOOL_TIMEOUT = 900


class ToolError(RuntimeError):
    """A tool failed on a case."""


# ---------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------


@dataclass
class CaseSpec:
    corpus: str
    name: str  # operator name, or "negative_control"
    upstream: Path
    build: Callable[[], generate.Case] | None  # None for a real case (see ``writer``)
    identity: str  # what the generated tree depends on, for the cache key
    dir: Path | None = None
    meta: dict = field(default_factory=dict)
    # A real case writes target/, upstream/, truth.csv and case.json itself (no generator).
    writer: Callable[[Path], object] | None = None

    @property
    def case_id(self) -> str:
        return f"{self.corpus}/{self.name}"

    @property
    def target(self) -> Path:
        assert self.dir is not None
        return self.dir / "target"

    @property
    def truth_path(self) -> Path:
        assert self.dir is not None
        return self.dir / "truth.csv"


def _key(*parts: object) -> str:
    digest = hashlib.sha256("\0".join(str(p) for p in parts).encode())
    return digest.hexdigest()[:12]


def small_specs(seed: int, max_files: int) -> list[CaseSpec]:
    """Every operator on the in-repo fixture, plus a generated negative control."""
    upstream_root = corpora_mod.FIXTURE_UPSTREAM
    upstream = generate.Upstream(upstream_root)
    identity = f"fixture:{upstream.fingerprint()}"
    specs = []
    for name in generate.CASES:
        specs.append(
            CaseSpec(
                SMALL_CORPUS,
                name,
                upstream_root,
                lambda name=name: generate.build_case(upstream, name, seed, max_files=max_files),
                _key(identity, name, seed, max_files),
            )
        )
    specs.append(
        CaseSpec(
            SMALL_CORPUS,
            generate.NEGATIVE_CASE,
            upstream_root,
            lambda: generate.build_generated_negative(upstream, seed),
            _key(identity, generate.NEGATIVE_CASE, seed),
        )
    )
    return specs


def full_specs(seed: int, max_files: int, cache: Path | None, only_corpora: Sequence[str] | None) -> list[CaseSpec]:
    """Every operator on every positive corpus, plus the real negative control."""
    config, (neg_target, neg_upstream) = corpora_mod.load_config()
    trees: dict[str, generate.Upstream] = {}

    def tree(name: str) -> generate.Upstream:
        if name not in trees:
            trees[name] = generate.Upstream(corpora_mod.corpus_dir(config[name], cache))
        return trees[name]

    specs = []
    for corpus in config.values():
        if corpus.role != "positive" or (only_corpora and corpus.name not in only_corpora):
            continue
        root = corpora_mod.corpus_dir(corpus, cache)
        donor_key = config[corpus.donor].key if corpus.donor else ""
        for name in generate.CASES:

            def build(corpus=corpus, name=name) -> generate.Case:
                donor = tree(corpus.donor) if corpus.donor else None
                return generate.build_case(tree(corpus.name), name, seed, max_files=max_files, donor=donor)

            identity = f"{corpus.key}:{donor_key}"
            specs.append(CaseSpec(corpus.name, name, root, build, _key(identity, name, seed, max_files)))
    if neg_target and neg_upstream and (not only_corpora or generate.NEGATIVE_CASE in only_corpora):
        target, upstream = config[neg_target], config[neg_upstream]
        specs.append(
            CaseSpec(
                f"{neg_target}-vs-{neg_upstream}",
                generate.NEGATIVE_CASE,
                corpora_mod.corpus_dir(upstream, cache),
                lambda: generate.build_negative(tree(neg_target), seed, max_files=max_files),
                _key(target.key, upstream.key, generate.NEGATIVE_CASE, seed, max_files),
            )
        )
    return specs


def real_specs(cache: Path | None) -> list[CaseSpec]:
    """The real cases (``tests/eval/real``): their trees and truth come from pinned releases."""
    from tests.eval.real import cases as real

    specs = []
    for case in real.load_manifest().values():
        specs.append(
            CaseSpec(
                real.CASES_CORPUS,
                case.name,
                Path(),  # set by prepare(): the case's own upstream/ tree
                None,
                case.fingerprint(),
                writer=lambda out, case=case: real.write_case(case, out, cache),
            )
        )
    return specs


def select(specs: list[CaseSpec], cases: str) -> list[CaseSpec]:
    if cases.strip() in ("", "all"):
        return specs
    wanted = {item.strip() for item in cases.split(",") if item.strip()}
    known = set(generate.CASES) | {generate.NEGATIVE_CASE} | {s.name for s in specs}
    chosen = [s for s in specs if s.name in wanted or s.case_id in wanted]
    unknown = {w for w in wanted if w not in known and w not in {s.case_id for s in specs}}
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))}; operators: {', '.join(sorted(known))}")
    return chosen


def prepare(spec: CaseSpec, cases_root: Path, seed: int) -> CaseSpec:
    """Generate the case into the cache unless an identical one is there already."""
    key = _key(spec.identity, generate.generator_fingerprint(), generate.GENERATOR_VERSION)
    case_dir = cases_root / spec.corpus / f"{spec.name}-s{seed}-{key}"
    if not (case_dir / "case.json").exists():
        case_dir.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=case_dir.name + ".", dir=case_dir.parent))
        try:
            if spec.writer is not None:
                spec.writer(staging)
            else:
                assert spec.build is not None
                generate.write_case(
                    spec.build(),
                    staging,
                    {"seed": seed, "corpus": spec.corpus, "upstream": str(spec.upstream)},
                )
            if case_dir.exists():
                shutil.rmtree(case_dir)
            staging.rename(case_dir)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
    spec.dir = case_dir
    spec.meta = json.loads((case_dir / "case.json").read_text())
    if spec.writer is not None:
        spec.upstream = case_dir / "upstream"
    return spec


# ---------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------


def _lineage_env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(REPO / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


# ``KEY=VALUE`` settings passed to every lineage run as ``--set`` (run_eval.py --set).
LINEAGE_SETTINGS: list[str] = []


def run_lineage(target: Path, upstream: Path, work: Path, timeout: float = TOOL_TIMEOUT) -> pd.DataFrame:
    command = [sys.executable, "-m", "lineage.cli", "compare", str(target), str(upstream), "--out", str(work)]
    for setting in LINEAGE_SETTINGS:
        command += ["--set", setting]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, env=_lineage_env(), timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        raise ToolError(f"lineage compare timed out after {timeout:.0f}s") from exc
    (work / "lineage.log").write_text(f"$ {' '.join(command)}\n{proc.stdout}\n{proc.stderr}")
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-5:])
        raise ToolError(f"lineage compare exited with status {proc.returncode}: {tail}")
    lines = work / "lines.csv"
    if not lines.exists():
        raise ToolError(f"lineage compare wrote no {lines}")
    return metrics.read_report(lines)


def _anchors():
    return importlib.import_module("tests.eval.anchors")


def _anchor_runner(name: str) -> Callable[[Path, Path, Path], pd.DataFrame]:
    def run(target: Path, upstream: Path, work: Path, timeout: float = TOOL_TIMEOUT) -> pd.DataFrame:
        frame = getattr(_anchors(), f"run_{name}")(target, upstream, work)
        frame.to_csv(work / "lines.csv", index=False)
        return metrics.normalize_report(frame)

    return run


TOOLS: dict[str, Callable[..., pd.DataFrame]] = {
    "lineage": run_lineage,
    "jscpd": _anchor_runner("jscpd"),
    "copydetect": _anchor_runner("copydetect"),
}


def tool_version(name: str) -> str:
    """Version of a tool, or a short note saying why it is unknown."""
    try:
        if name == "lineage":
            proc = subprocess.run(
                [sys.executable, "-c", "import lineage; print(lineage.__version__)"],
                capture_output=True,
                text=True,
                env=_lineage_env(),
                timeout=120,
                check=False,
            )
            return proc.stdout.strip() or "unknown"
        anchors = _anchors()
        for attr in (f"{name}_version", f"{name.upper()}_VERSION"):
            value = getattr(anchors, attr, None)
            if callable(value):
                return str(value())
            if value:
                return str(value)
    except Exception as exc:  # a missing tool must not stop the other tools
        return f"unavailable ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})"
    return "unknown"


@dataclass
class Run:
    spec: CaseSpec
    tool: str
    seconds: float = 0.0
    error: str = ""
    report: pd.DataFrame | None = None


def run_tool(spec: CaseSpec, tool: str, runs_root: Path, timeout: float, rescore: bool) -> Run:
    work = runs_root / tool / spec.corpus / spec.name
    run = Run(spec, tool)
    if rescore and (work / "lines.csv").exists():
        run.report = metrics.read_report(work / "lines.csv")
        return run
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    start = time.perf_counter()
    try:
        run.report = TOOLS[tool](spec.target, spec.upstream, work, timeout=timeout)
    except Exception as exc:
        run.error = f"{type(exc).__name__}: {exc}".strip()
        (work / "error.txt").write_text(traceback.format_exc())
    run.seconds = time.perf_counter() - start
    return run


# ---------------------------------------------------------------------------------------
# Scoring and reports
# ---------------------------------------------------------------------------------------


def score_runs(runs: list[Run]) -> pd.DataFrame:
    """results.csv rows: per case, per operator (pooled over corpora), per line tag, total."""
    rows = []
    per_case: dict[tuple[str, str, str], dict] = {}
    for run in runs:
        spec = run.spec
        base = {"tool": run.tool, "corpus": spec.corpus, "case": spec.case_id, "operator": spec.name}
        if run.report is None:
            for scope in metrics.SCOPES:
                rows.append({"level": "case", "scope": scope, **base, "seconds": run.seconds, "error": run.error})
            continue
        truth = metrics.read_truth(spec.truth_path)
        for scope in metrics.SCOPES:
            result = metrics.score(truth, run.report, spec.target, spec.upstream, scope=scope)
            per_case[(run.tool, spec.case_id, scope)] = result
            rows.append({"level": "case", "scope": scope, **base, **result, "seconds": run.seconds, "error": ""})
            if spec.name == "mixed" or spec.writer is not None:
                for tag, tagged in metrics.score_by_tag(truth, run.report, spec.upstream, scope).items():
                    rows.append({"level": "tag", "scope": scope, **base, "tag": tag, **tagged})
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for run in runs:
        for scope in metrics.SCOPES:
            result = per_case.get((run.tool, run.spec.case_id, scope))
            if result is not None:
                groups.setdefault((run.tool, run.spec.name, scope), []).append(result)
                if run.spec.name != generate.NEGATIVE_CASE:
                    groups.setdefault((run.tool, "ALL", scope), []).append(result)
    for (tool, name, scope), items in sorted(groups.items()):
        level = "total" if name == "ALL" else "operator"
        seconds = sum(r.seconds for r in runs if r.tool == tool and (name == "ALL" or r.spec.name == name))
        rows.append(
            {
                "level": level,
                "scope": scope,
                "tool": tool,
                "corpus": "*",
                "case": f"*/{name}",
                "operator": name,
                "cases": len(items),
                **metrics.aggregate(items),
                "seconds": seconds,
            }
        )
    frame = pd.DataFrame(rows)
    leading = ["level", "scope", "tool", "corpus", "case", "operator", "tag", "cases"]
    for column in [*leading, *metrics.COUNT_KEYS, *metrics.METRIC_KEYS, "seconds", "error"]:
        if column not in frame:
            frame[column] = None
    ordered = [*leading, *metrics.COUNT_KEYS, *metrics.METRIC_KEYS, "seconds", "error"]
    return frame[ordered]


def _fmt(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


_MD_COLUMNS = (
    ("precision", "P"),
    ("recall", "R"),
    ("f1", "F1"),
    ("near_recall", "near R"),
    ("src_path_acc", "src file"),
    ("src_line_acc", "src line"),
    ("exactness", "exact"),
    ("pairing_acc", "pairing"),
    ("fp_rate", "FP rate"),
)


def _table(frame: pd.DataFrame, label: str, label_column: str, extra: Sequence[tuple[str, str]] = ()) -> list[str]:
    columns = [*extra, *_MD_COLUMNS]
    head = f"| {label} | tool | " + " | ".join(title for _, title in columns) + " |"
    out = [head, "|" + "---|" * (len(columns) + 2)]
    for _, row in frame.iterrows():
        if isinstance(row.get("error"), str) and row["error"]:
            out.append(f"| {row[label_column]} | {row['tool']} | error: {row['error'][:120]} |")
            continue
        cells = " | ".join(_fmt(row[key]) for key, _ in columns)
        out.append(f"| {row[label_column]} | {row['tool']} | {cells} |")
    return out


def write_markdown(results: pd.DataFrame, path: Path, versions: dict[str, str], meta: dict[str, object]) -> None:
    code = results[results["scope"] == "code"]
    lines = [
        "# lineage accuracy suite",
        "",
        f"- date: {meta['date']}",
        f"- suite: {meta['suite']}; seed {meta['seed']}; {meta['cases']} cases; max {meta['max_files']} files per case",
        "- tools: " + ", ".join(f"{tool} {version}" for tool, version in versions.items()),
        f"- command: `{meta['command']}`",
        "",
        "Scores are over **code lines** (kind computed by the generator with tokenize/ast,"
        " the same lines for every tool); a line counts as copied when labelled verbatim or"
        " near. P/R/F1: copied vs none; near R: recall on truth-near lines; src file / src line:"
        " among true positives, share whose upstream file / line is right (a line with the same"
        " text in the right file counts); exact: share of the tool's verbatim rows that equal the"
        " upstream line they name; pairing: share of target files whose main upstream file is"
        " right; FP rate: copied-labelled share of truly uncopied code lines. – : no such lines.",
        "",
        "## Per operator (pooled over corpora)",
        "",
    ]
    per_op = code[code["level"].isin(["operator", "total"])].copy()
    order = {name: i for i, name in enumerate([*generate.CASES, generate.NEGATIVE_CASE, *REAL_ORDER, "ALL"])}
    per_op["_order"] = per_op["operator"].map(order)
    per_op = per_op.sort_values(["_order", "tool"])
    lines += _table(per_op, "operator", "operator", extra=(("n_lines", "lines"),))
    lines += ["", "## Per case", ""]
    per_case = code[code["level"] == "case"].copy()
    per_case["_order"] = per_case["operator"].map(order)
    per_case = per_case.sort_values(["corpus", "_order", "tool"])
    lines += _table(per_case, "case", "case", extra=(("n_lines", "lines"),))
    negative = per_case[per_case["operator"] == generate.NEGATIVE_CASE]
    if len(negative):
        lines += ["", "## Negative control (expected copied share 0)", ""]
        lines += ["| case | tool | code lines | labelled copied | FP rate |", "|---|---|---|---|---|"]
        for _, row in negative.iterrows():
            if isinstance(row.get("error"), str) and row["error"]:
                lines.append(f"| {row['case']} | {row['tool']} | error | | |")
                continue
            cells = " | ".join(_fmt(row[key]) for key in ("n_lines", "fp", "fp_rate"))
            lines.append(f"| {row['case']} | {row['tool']} | {cells} |")
    tags = code[code["level"] == "tag"]
    if len(tags):
        lines += [
            "",
            "## By line tag (mixed cases: the operator that last changed each line;"
            " real cases: the truth's category)",
            "",
        ]
        tags = tags.assign(label=tags["case"] + " · " + tags["tag"].astype(str)).sort_values(["case", "tag", "tool"])
        lines += _table(tags, "case · line operator", "label", extra=(("n_lines", "lines"),))
    everything = results[(results["scope"] == "all") & results["level"].isin(["operator", "total"])].copy()
    if len(everything):
        lines += ["", "## All non-blank lines (code, comments, docstrings), per operator", ""]
        everything["_order"] = everything["operator"].map(order)
        lines += _table(
            everything.sort_values(["_order", "tool"]), "operator", "operator", extra=(("n_lines", "lines"),)
        )
    errors = results[(results["level"] == "case") & results["error"].fillna("").astype(bool)]
    if len(errors):
        lines += ["", "## Errors", ""]
        for _, row in errors[errors["scope"] == "code"].iterrows():
            lines.append(f"- {row['tool']} on {row['case']}: {row['error']}")
    timing = meta.get("timing") or {}
    if timing:
        lines += ["", "## Time", ""]
        for tool, (seconds, count) in timing.items():
            lines.append(f"- {tool}: {seconds:.1f}s over {count} runs")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------


def run_suite(
    *,
    tools: Sequence[str] = DEFAULT_TOOLS,
    cases: str = "all",
    out: Path = Path("out/eval"),
    small: bool = False,
    real: bool = False,
    seed: int = 0,
    max_files: int = 30,
    cache_dir: Path | None = None,
    jobs: int = 2,
    timeout: float = TOOL_TIMEOUT,
    corpora: Sequence[str] | None = None,
    rescore: bool = False,
    command: str = "",
    log: Callable[[str], None] = print,
) -> tuple[pd.DataFrame, list[Run]]:
    unknown = [tool for tool in tools if tool not in TOOLS]
    if unknown:
        raise SystemExit(f"unknown tool(s): {', '.join(unknown)}; choose from {', '.join(TOOLS)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cache = corpora_mod.eval_cache(cache_dir)
    if real:
        specs = real_specs(cache_dir)
    elif small:
        specs = small_specs(seed, max_files)
    else:
        specs = full_specs(seed, max_files, cache_dir, corpora)
    specs = select(specs, cases)
    started = time.perf_counter()
    for spec in specs:
        prepare(spec, cache / "cases", seed)
    log(f"{len(specs)} cases ready in {time.perf_counter() - started:.1f}s (cache {cache / 'cases'})")
    versions = {tool: tool_version(tool) for tool in tools}  # also installs jscpd/copydetect
    log("tools: " + ", ".join(f"{tool} {version}" for tool, version in versions.items()))
    tasks = [(spec, tool) for spec in specs for tool in tools]
    runs_root = out / "runs"

    def task(item: tuple[CaseSpec, str]) -> Run:
        run = run_tool(item[0], item[1], runs_root, timeout, rescore)
        status = f"error: {run.error.splitlines()[0][:100]}" if run.error else "ok"
        log(f"  {run.tool:10s} {run.spec.case_id:40s} {run.seconds:6.1f}s {status}")
        return run

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        runs = list(pool.map(task, tasks))
    results = score_runs(runs)
    results.to_csv(out / "results.csv", index=False)
    meta = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "suite": (
            "real cases (pinned PyPI releases, truth from the vendoring diff and git blame)"
            if real
            else "small (in-repo fixture)"
            if small
            else "full (pinned PyPI corpora)"
        ),
        "seed": seed,
        "cases": len(specs),
        "max_files": max_files,
        "command": command or "run_suite()",
        "timing": {
            tool: (sum(r.seconds for r in runs if r.tool == tool), sum(1 for r in runs if r.tool == tool))
            for tool in tools
        },
    }
    write_markdown(results, out / "results.md", versions, meta)
    (out / "versions.json").write_text(json.dumps({"versions": versions, **meta}, indent=2) + "\n")
    totals = results[(results["level"] == "total") & (results["scope"] == "code")]
    for _, row in totals.iterrows():
        log(
            f"{row['tool']:10s} code lines {int(row['n_lines'])}: P {row['precision']:.3f} "
            f"R {row['recall']:.3f} F1 {row['f1']:.3f} exactness {row['exactness']:.3f}"
        )
    log(f"wrote {out / 'results.csv'} and {out / 'results.md'} in {time.perf_counter() - started:.1f}s")
    return results, runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tools", default=",".join(DEFAULT_TOOLS), help="comma-separated: lineage,jscpd,copydetect")
    parser.add_argument("--cases", default="all", help="all, or operators / case ids, comma-separated")
    parser.add_argument("--out", type=Path, default=Path("out/eval"))
    parser.add_argument("--small", action="store_true", help="only the in-repo fixture (no network)")
    parser.add_argument("--real", action="store_true", help="only the real cases of tests/eval/real (PyPI)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-files", type=int, default=30, help="upstream files sampled per case")
    parser.add_argument("--cache-dir", type=Path, default=None, help="default $LINEAGE_CACHE_DIR or ~/.cache/lineage")
    parser.add_argument("--corpora", default="", help="comma-separated corpus names (full suite only)")
    parser.add_argument("--jobs", type=int, default=2, help="tool runs at once")
    parser.add_argument("--timeout", type=float, default=TOOL_TIMEOUT, help="seconds per tool run")
    parser.add_argument("--rescore", action="store_true", help="score existing tool outputs, run nothing")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a matcher setting passed to every lineage run (repeatable)")
    args = parser.parse_args(argv)
    LINEAGE_SETTINGS[:] = args.set
    if args.small and args.real:
        parser.error("--small and --real exclude each other")
    tools = [tool.strip() for tool in args.tools.split(",") if tool.strip()]
    corpora = [name.strip() for name in args.corpora.split(",") if name.strip()] or None
    _, runs = run_suite(
        tools=tools,
        cases=args.cases,
        out=args.out,
        small=args.small,
        real=args.real,
        seed=args.seed,
        max_files=args.max_files,
        cache_dir=args.cache_dir,
        jobs=args.jobs,
        timeout=args.timeout,
        corpora=corpora,
        rescore=args.rescore,
        command="python tests/eval/run_eval.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    )
    return 1 if any(run.error for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
