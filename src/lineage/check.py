"""``lineage check REPORT_DIR``: a policy gate over a written report, for CI.

Reads ``files.csv`` and ``obligations.csv`` of a report written by ``compare``. Every policy item
is off unless set, in ``[tool.lineage.check]`` of a ``pyproject.toml`` or on the command line
(which wins). Items (TOML key = option without the dashes):

* ``max-unmarked-copied-lines = N``: copied code lines (verbatim + near) in files without a marker
  naming an upstream may total at most N.
* ``max-copied-share = PCT``: copied code lines may be at most PCT % of all code lines.
* ``require-marker-min-lines = N``: a file with N or more copied code lines must carry a marker.
* ``fail-on-missing-notice = true``: every copied file keeps the notices obligations.csv asks for.
* ``fail-on-licence-conflict = true``: no copied file is flagged by the compatibility table.
* ``baseline = "OLD_REPORT_DIR"``: judge only what grew since that report: the two limits bound
  the growth (unmarked copied lines added, percentage points added; with a baseline and no
  ``max-unmarked-copied-lines`` the growth allowed is 0), and the per-file items report only files
  that are new in the list or whose copied lines grew. A baseline compared against none of the
  report's upstreams (by label, and by the upstream files copies are paired with) is refused
  (exit 2): its figures are not an earlier state of these.

Only a whole report is judged: one whose manifest says it is complete, and whose files.csv and
obligations.csv are the files the manifest records (their sha256), so a report cut short or
edited since cannot pass the gate.

Exit status: 0 when the policy holds, 1 with one line per violation, 2 on bad usage or input.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

import pandas as pd

from lineage.errors import LineageError
from lineage.report.outdir import check_complete, check_output

# Columns check reads; a report missing one was not written by this lineage.
_FILE_COLUMNS = ["target_path", "status", "code_lines", "verbatim_code_lines", "near_code_lines", "marker"]
_OBLIGATION_COLUMNS = ["target_path", "upstream", "upstream_path", "missing", "conflict", "conflict_reason",
                       "upstream_licence", "target_licence"]


@dataclass(frozen=True)
class Policy:
    max_unmarked_copied_lines: int | None = None
    max_copied_share: float | None = None
    require_marker_min_lines: int | None = None
    fail_on_missing_notice: bool = False
    fail_on_licence_conflict: bool = False
    baseline: str | None = None

    def active(self) -> bool:
        # `is`, not `in (None, False)`: 0 == False, and a limit of 0 is the strictest policy.
        return any(getattr(self, f.name) is not None and getattr(self, f.name) is not False
                   for f in fields(self))


_TYPES: dict[str, type | tuple[type, ...]] = {
    "max_unmarked_copied_lines": int, "max_copied_share": (int, float), "require_marker_min_lines": int,
    "fail_on_missing_notice": bool, "fail_on_licence_conflict": bool, "baseline": str,
}


def policy_from_pyproject(path: Path) -> dict[str, object]:
    """The ``[tool.lineage.check]`` table of a pyproject.toml, keys in Python spelling, checked."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LineageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise LineageError(f"{path}: invalid TOML: {exc}") from None
    table: dict[str, object] = data
    for name in ("tool", "tool.lineage", "tool.lineage.check"):
        inner = table.get(name.rpartition(".")[2], {})
        if not isinstance(inner, dict):  # e.g. `tool = 1`: a value, not a table
            raise LineageError(f"{path}: [{name}] must be a table")
        table = inner
    out: dict[str, object] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        kind = _TYPES.get(name)
        if kind is None:
            raise LineageError(f"{path}: unknown key in [tool.lineage.check]: {key} "
                               f"(known: {', '.join(sorted(k.replace('_', '-') for k in _TYPES))})")
        # true is an int to Python: only a bool item takes it (true is not a 1 % share)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise LineageError(f"{path}: [tool.lineage.check] {key} has the wrong type: {value!r}")
        if name == "baseline" and value:  # an empty one is refused by make_policy
            value = str((path.parent / value).resolve()) if not Path(value).is_absolute() else value
        out[name] = value
    return out


def make_policy(config: dict[str, object], overrides: dict[str, object]) -> Policy:
    """The policy: ``config`` (from pyproject.toml) with the set command-line ``overrides`` on top."""
    merged = {**config, **{k: v for k, v in overrides.items() if v is not None}}
    for name in ("max_unmarked_copied_lines", "require_marker_min_lines"):
        value = merged.get(name)
        if value is not None and int(value) < 0:  # type: ignore[call-overload]
            raise LineageError(f"{name.replace('_', '-')} must be >= 0, not {value}")
    if merged.get("baseline") == "":
        raise LineageError("baseline may not be empty (name the older report's folder)")
    share = merged.get("max_copied_share")
    if share is not None and not 0 <= float(share) <= 100:  # type: ignore[arg-type]
        raise LineageError(f"max-copied-share must be a percentage from 0 to 100, not {share}")
    return Policy(**merged)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Report:
    files: pd.DataFrame  # indexed files with a "copied" column (copied code lines) and "marked"
    obligations: pd.DataFrame
    upstreams: frozenset[str] = frozenset()  # the upstreams' labels (manifest.json)


def _read(path: Path, columns: list[str]) -> pd.DataFrame:
    try:
        frame = pd.read_csv(path, keep_default_na=False, dtype={"marker": str, "missing": str})
    except (OSError, ValueError) as exc:
        raise LineageError(f"cannot read {path}: {exc}") from None
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        raise LineageError(f"{path} lacks columns {', '.join(absent)} (written by an older lineage?)")
    return frame


def read_report(report_dir: Path) -> Report:
    if not report_dir.is_dir():
        raise LineageError(f"no such report folder: {report_dir}")
    manifest = check_complete(report_dir)
    files = _read(check_output(report_dir, manifest, "files.csv"), _FILE_COLUMNS)
    files = files[files["status"] == "indexed"].copy()
    for column in ("code_lines", "verbatim_code_lines", "near_code_lines"):
        files[column] = pd.to_numeric(files[column], errors="coerce").fillna(0).astype(int)
    files["copied"] = files["verbatim_code_lines"] + files["near_code_lines"]
    files["marked"] = files["marker"] != ""
    obligations = _read(check_output(report_dir, manifest, "obligations.csv"), _OBLIGATION_COLUMNS)
    ups = manifest.get("upstreams")
    labels = {str(u.get("label", "")) for u in ups if isinstance(u, dict)} if isinstance(ups, list) else set()
    return Report(files=files, obligations=obligations, upstreams=frozenset(labels - {""}))


def _share(files: pd.DataFrame) -> float:
    code = int(files["code_lines"].sum())
    return 100.0 * int(files["copied"].sum()) / code if code else 0.0


def evaluate(report: Report, policy: Policy, baseline: Report | None = None) -> list[str]:
    """One line per violation of ``policy`` (empty when it holds)."""
    findings: list[str] = []
    files = report.files
    unmarked = int(files.loc[~files["marked"], "copied"].sum())
    old_copied: dict[str, int] = {}
    if baseline is not None:
        old_copied = dict(zip(baseline.files["target_path"], baseline.files["copied"], strict=True))

    def grew(path: str, copied: int) -> bool:
        return baseline is None or copied > old_copied.get(path, 0)

    limit = policy.max_unmarked_copied_lines
    if baseline is not None:
        before = int(baseline.files.loc[~baseline.files["marked"], "copied"].sum())
        allowed = limit if limit is not None else 0
        if unmarked - before > allowed:
            findings.append(f"unmarked copied code lines grew by {unmarked - before:,} ({before:,} -> {unmarked:,}), "
                            f"more than the {allowed:,} allowed")
    elif limit is not None and unmarked > limit:
        findings.append(f"unmarked copied code lines: {unmarked:,}, more than the {limit:,} allowed")
    if policy.max_copied_share is not None:
        share = _share(files)
        if baseline is not None:
            before_share = _share(baseline.files)
            if share - before_share > policy.max_copied_share:
                findings.append(f"copied share of code lines grew by {share - before_share:.2f} points "
                                f"({before_share:.2f} % -> {share:.2f} %), more than {policy.max_copied_share:g}")
        elif share > policy.max_copied_share:
            findings.append(f"copied share of code lines: {share:.2f} %, more than {policy.max_copied_share:g} %")
    if policy.require_marker_min_lines is not None:
        need = files[~files["marked"] & (files["copied"] >= max(1, policy.require_marker_min_lines))]
        for row in need.sort_values("target_path").itertuples(index=False):
            if grew(str(row.target_path), int(row.copied)):
                findings.append(f"{row.target_path}: {int(row.copied):,} copied code lines and no marker naming "
                                f"the upstream (at least {policy.require_marker_min_lines:,} need one)")
    obligations = report.obligations
    old_pairs: set[tuple[str, str, str, str]] = set()
    if baseline is not None:
        old = baseline.obligations
        old_pairs = {(str(r.target_path), str(r.upstream), str(r.upstream_path), str(r.missing) + str(r.conflict))
                     for r in old.itertuples(index=False)}
    copied_of = dict(zip(files["target_path"], files["copied"], strict=True))
    for row in obligations.sort_values(["target_path", "upstream", "upstream_path"]).itertuples(index=False):
        key = (str(row.target_path), str(row.upstream), str(row.upstream_path), str(row.missing) + str(row.conflict))
        if baseline is not None and key in old_pairs and not grew(str(row.target_path),
                                                                  int(copied_of.get(str(row.target_path), 0))):
            continue
        if policy.fail_on_missing_notice and str(row.missing):
            findings.append(f"{row.target_path}: lacks {row.missing} for code from {row.upstream} "
                            f"{row.upstream_path} ({row.upstream_licence or 'licence unknown'})")
        if policy.fail_on_licence_conflict and str(row.conflict) == "yes":
            findings.append(f"{row.target_path}: licence conflict with {row.upstream} {row.upstream_path}: "
                            f"{row.conflict_reason}")
    return findings


def run_check(report_dir: Path, policy: Policy) -> list[str]:
    report = read_report(report_dir)
    baseline = read_report(Path(policy.baseline)) if policy.baseline else None
    if (baseline is not None and report.upstreams and baseline.upstreams and not report.upstreams & baseline.upstreams
            and not set(report.obligations["upstream_path"]) & set(baseline.obligations["upstream_path"])):
        # growth between comparisons against different projects is no growth at all; a label is
        # a folder's name for a directory (``up-1.0``, ``up-1.1``), so the same project is also
        # known by the upstream files both reports pair copies with
        raise LineageError(f"baseline {policy.baseline} compares against {', '.join(sorted(baseline.upstreams))}, "
                           f"this report against {', '.join(sorted(report.upstreams))}: give a baseline "
                           "report of the same comparison")
    return evaluate(report, policy, baseline)
