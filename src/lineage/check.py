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
  Both licence items say on stderr how many (target file, upstream file) pairs they could not
  judge, per upstream, whether the policy holds or not: such a pair is no violation, and no pass
  either. Each pair is counted once: one whose upstream licence is unknown in one note naming
  every licence item set (its compatibility is unknown for that reason alone), one whose upstream
  licence is known but whose compatibility is ``unknown`` in the conflict item's note.
* ``baseline = "OLD_REPORT_DIR"``: judge only what grew since that report: the two limits bound
  the growth (unmarked copied lines added, percentage points added; with a baseline and no
  ``max-unmarked-copied-lines`` the growth allowed is 0), and the per-file items report only files
  that are new in the list or whose copied lines grew. A baseline compared against none of the
  report's upstreams (by label, and by the upstream files copies are paired with) is refused
  (exit 2): its figures are not an earlier state of these.

Copies of a release of the target's own project (summary.json's ``upstreams`` ``own_project``:
pydantic 2.10.6 against the 1.10.19 its ``v1/`` carries) are the project's own earlier code, no
licence breach and nothing a marker needs to name: the two marker items (``max-unmarked-copied-lines``,
``require-marker-min-lines``, and their growth with a baseline) leave them out, and the command
says on stderr how many it left out and from which release, whether the policy holds or not (never
silently). ``count-own-releases = true`` (``--count-own-releases``) counts them as any copy.
``max-copied-share`` counts every copied line, as the report's headline does. A report whose
summary.json names no such field (format before 19) counts everything, as before.

Only a whole report is judged: one whose manifest says it is complete, and whose files.csv and
obligations.csv are the files the manifest records (their sha256), so a report cut short or
edited since cannot pass the gate.

Exit status: 0 when the policy holds, 1 with one line per violation, 2 on bad usage or input.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field, fields
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
    # how the marker items count, not an item of its own (module docstring)
    count_own_releases: bool = False

    def active(self) -> bool:
        # `is`, not `in (None, False)`: 0 == False, and a limit of 0 is the strictest policy.
        return any(getattr(self, f.name) is not None and getattr(self, f.name) is not False
                   for f in fields(self) if f.name not in _MODIFIERS)


_MODIFIERS = frozenset({"count_own_releases"})
_TYPES: dict[str, type | tuple[type, ...]] = {
    "max_unmarked_copied_lines": int, "max_copied_share": (int, float), "require_marker_min_lines": int,
    "fail_on_missing_notice": bool, "fail_on_licence_conflict": bool, "baseline": str, "count_own_releases": bool,
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
    # indexed files with a "copied" column (copied code lines), "own" (of them, those from a release
    # of the target's own project) and "marked"
    files: pd.DataFrame
    obligations: pd.DataFrame
    upstreams: frozenset[str] = frozenset()  # the upstreams' labels (manifest.json)
    # the upstreams that are releases of the target's own project: label -> what makes them so
    own: dict[str, str] = field(default_factory=dict)
    specs: dict[str, str] = field(default_factory=dict)  # label -> spec (summary.json)


def _read(path: Path, columns: list[str]) -> pd.DataFrame:
    try:
        frame = pd.read_csv(path, keep_default_na=False, dtype={"marker": str, "missing": str})
    except (OSError, ValueError) as exc:
        raise LineageError(f"cannot read {path}: {exc}") from None
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        raise LineageError(f"{path} lacks columns {', '.join(absent)} (written by an older lineage?)")
    return frame


def read_report(report_dir: Path, own_if_unsaid: dict[str, str] | None = None) -> Report:
    """The report in ``report_dir``; ``own_if_unsaid``: the own releases to take (label ->
    evidence) when its summary.json is older than the field that says which they are (a
    baseline's, read beside a newer report of the same comparison)."""
    if report_dir.is_file():
        # a file of the report (``check out/summary.md``): "no such report folder" named a file that exists
        raise LineageError(f"{report_dir} is a file: give the folder lineage compare wrote ({report_dir.parent})")
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
    own, specs, said = _own_releases(report_dir, manifest)
    if not said and own_if_unsaid:
        own = {label: why for label, why in own_if_unsaid.items() if label in labels}
    files["own"] = _own_copied(report_dir, manifest, files, own, labels - {""})
    return Report(files=files, obligations=obligations, upstreams=frozenset(labels - {""}), own=own, specs=specs)


def _own_releases(report_dir: Path, manifest: dict[str, object]) -> tuple[dict[str, str], dict[str, str], bool]:
    """The upstreams summary.json says are releases of the target's own project (label -> its
    ``own_project`` evidence), every upstream's spec, and whether it says (format 19 on)."""
    path = check_output(report_dir, manifest, "summary.json")
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LineageError(f"cannot read {path}: {exc}") from None
    ups = summary.get("upstreams") if isinstance(summary, dict) else None
    if not isinstance(ups, list):
        raise LineageError(f"{path} lists no upstreams (written by an older lineage?)")
    entries = [u for u in ups if isinstance(u, dict)]
    own = {str(u.get("label", "")): str(u["own_project"]) for u in entries if u.get("own_project")}
    said = all("own_project" in u for u in entries)
    return own, {str(u.get("label", "")): str(u.get("spec", "")) for u in entries}, said


def _own_copied(report_dir: Path, manifest: dict[str, object], files: pd.DataFrame, own: dict[str, str],
                labels: set[str]) -> pd.Series:
    """Per indexed file (``files``' rows): its copied code lines from the upstreams ``own``
    names. All of its copied lines when every upstream is one; read from lines.csv (its code lines
    paired with such an upstream) when only some are."""
    if not own:
        return pd.Series(0, index=files.index, dtype=int)
    if labels <= set(own):
        return files["copied"].copy()
    path = check_output(report_dir, manifest, "lines.csv")
    try:
        lines = pd.read_csv(path, usecols=["target_path", "kind", "match", "upstream"], keep_default_na=False,
                            dtype=str)
    except (OSError, ValueError) as exc:
        raise LineageError(f"cannot read {path}: {exc}") from None
    mine = lines[(lines["kind"] == "code") & (lines["match"] != "none") & lines["upstream"].isin(set(own))]
    counts = mine.groupby("target_path").size()
    return files["target_path"].map(counts).fillna(0).astype(int)


def _share(files: pd.DataFrame) -> float:
    code = int(files["code_lines"].sum())
    return 100.0 * int(files["copied"].sum()) / code if code else 0.0


def _marker_counted(files: pd.DataFrame, policy: Policy) -> pd.Series:
    """Per file, the copied code lines the marker items count: all, or all but the own release's."""
    return files["copied"] if policy.count_own_releases else files["copied"] - files["own"]


def _marker_items(policy: Policy) -> bool:
    return (policy.max_unmarked_copied_lines is not None or policy.require_marker_min_lines is not None
            or policy.baseline is not None)


def notes(report: Report, policy: Policy) -> list[str]:
    """What the command says beside its verdict: the unmarked files' copied code lines from a
    release of the target's own project that the marker items left out (none when they count
    them, or no marker item is set), and the pairs the licence items could not judge
    (:func:`_unjudged`)."""
    said = _unjudged(report, policy)
    files = report.files
    left_out = files[~files["marked"] & (files["own"] > 0)]
    if policy.count_own_releases or not _marker_items(policy) or left_out.empty:
        return said
    releases = "; ".join(f"{report.specs.get(label) or label} ({why})" for label, why in sorted(report.own.items()))
    n = int(left_out["own"].sum())
    return [f"left out of the marker items: {n:,} copied code {'line' if n == 1 else 'lines'} in "
            f"{len(left_out):,} unmarked {'file' if len(left_out) == 1 else 'files'} from a release of the target's "
            f"own project, {releases}: its own earlier code, which no marker needs to name "
            "(--count-own-releases counts them)", *said]


def _unjudged(report: Report, policy: Policy) -> list[str]:
    """The (target file, upstream file) pairs ``fail-on-missing-notice`` or ``fail-on-licence-conflict``
    could not judge, per upstream, each pair in one note: those whose upstream licence is unknown (no
    notice can be asked for, no compatibility read: one note naming every licence item set), then
    those whose upstream licence is known but whose compatibility is ``unknown`` (the conflict item's
    alone). Not violations (the report states no breach), but never a silent pass: mysqlclient
    1.3.14 against MySQL-python 1.2.5, whose licence lineage did not read then, held both items with
    24 of its 25 pairs unjudged."""
    items = [(name, why) for name, why, on in (
        ("fail-on-missing-notice", "no notice to ask for", policy.fail_on_missing_notice),
        ("fail-on-licence-conflict", "no compatibility to read", policy.fail_on_licence_conflict)) if on]
    if not items:
        return []
    ob = report.obligations
    unknown_licence = ob["upstream_licence"].astype(str).str.strip() == ""
    # an unknown upstream licence makes the compatibility unknown too: that pair is the first note's
    unknown_conflict = (ob["conflict"].astype(str) == "unknown") & ~unknown_licence
    said = []
    if unknown_licence.any():
        said.append(_pairs_per_upstream(ob[unknown_licence], f"{' and '.join(n for n, _ in items)} could not judge",
                                        f"whose upstream licence is unknown ({', '.join(w for _, w in items)})"))
    if policy.fail_on_licence_conflict and unknown_conflict.any():
        said.append(_pairs_per_upstream(ob[unknown_conflict], "fail-on-licence-conflict could not judge",
                                        "whose upstream licence is known and whose compatibility is unknown "
                                        "(obligations.csv conflict_reason)"))
    return said


def _pairs_per_upstream(rows: pd.DataFrame, opening: str, why: str) -> str:
    n = len(rows)
    per = rows.groupby(rows["upstream"].astype(str)).size()
    return (f"{opening} {n:,} (target file, upstream file) {'pair' if n == 1 else 'pairs'} {why}: "
            + ", ".join(f"{label} {count:,}" for label, count in per.items()))


def evaluate(report: Report, policy: Policy, baseline: Report | None = None) -> list[str]:
    """One line per violation of ``policy`` (empty when it holds)."""
    findings: list[str] = []
    files = report.files
    counted = _marker_counted(files, policy)
    unmarked = int(counted[~files["marked"]].sum())
    old_copied: dict[str, int] = {}
    if baseline is not None:
        old_copied = dict(zip(baseline.files["target_path"], _marker_counted(baseline.files, policy), strict=True))

    def grew(path: str, copied: int) -> bool:
        return baseline is None or copied > old_copied.get(path, 0)

    limit = policy.max_unmarked_copied_lines
    if baseline is not None:
        before = int(_marker_counted(baseline.files, policy)[~baseline.files["marked"]].sum())
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
        need = files.assign(counted=counted)
        need = need[~need["marked"] & (need["counted"] >= max(1, policy.require_marker_min_lines))]
        for row in need.sort_values("target_path").itertuples(index=False):
            if grew(str(row.target_path), int(row.counted)):
                own = int(row.own) if not policy.count_own_releases else 0
                besides = f"; {own:,} more from a release of its own project, not counted" if own else ""
                findings.append(f"{row.target_path}: {int(row.counted):,} copied code lines and no marker naming "
                                f"the upstream (at least {policy.require_marker_min_lines:,} need one{besides})")
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


def run_check(report_dir: Path, policy: Policy, said: list[str] | None = None) -> list[str]:
    """The violations of ``policy`` by the report in ``report_dir`` (:func:`evaluate`);
    ``said``, when given, receives the command's notes (:func:`notes`)."""
    report = read_report(report_dir)
    if said is not None:
        said += notes(report, policy)
    # a baseline written before summary.json said which upstreams are own releases: this report's
    # (the same comparison, or refused below), so that its growth is counted alike on both sides
    baseline = read_report(Path(policy.baseline), report.own) if policy.baseline else None
    if (baseline is not None and report.upstreams and baseline.upstreams and not report.upstreams & baseline.upstreams
            and not set(report.obligations["upstream_path"]) & set(baseline.obligations["upstream_path"])):
        # growth between comparisons against different projects is no growth at all; a label is
        # a folder's name for a directory (``up-1.0``, ``up-1.1``), so the same project is also
        # known by the upstream files both reports pair copies with
        raise LineageError(f"baseline {policy.baseline} compares against {', '.join(sorted(baseline.upstreams))}, "
                           f"this report against {', '.join(sorted(report.upstreams))}: give a baseline "
                           "report of the same comparison")
    return evaluate(report, policy, baseline)
