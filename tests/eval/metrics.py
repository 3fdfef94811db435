"""Score a tool's ``lines.csv`` against a case's ``truth.csv``.

Which lines are scored
    By default the *code* lines: rows whose ``kind`` in truth.csv is ``code``.  That kind is
    computed by the generator itself (:func:`eval.generate.line_kinds`, tokenize + ast), not
    taken from the tool's output, so that every tool is scored on exactly the same lines
    whatever it thinks a line is.  Scope ``all`` scores every non-blank line (code, comments
    and docstrings); it is what shows the effect of ``edit_comments``.  Blank lines are never
    scored.  A truth line missing from the tool's report counts as ``none``.

Counts and metrics (all micro-averaged, so cases and operators are pooled by summing counts)
    * precision / recall / F1 of *copied* (``verbatim`` or ``near``) against ``none``.  A ratio
      with an empty denominator is vacuously 1.0 (no positives and nothing found: P = R = 1;
      no positives but something found: P = 0, R = 1, so F1 = 0);
    * ``near_recall``: share of truth-``near`` lines the tool called copied;
    * ``label_acc``: share of true positives whose verbatim/near label is the truth's;
    * source accuracy over the true positives: ``src_path_acc`` (the upstream file is right),
      ``src_line_acc`` (file right and the line is right, or is a line of that file with the
      same stripped text, since identical lines are indistinguishable), and
      ``src_line_exact_acc`` (file and line number both right);
    * ``exactness``: share of the tool's ``verbatim`` rows whose target line, stripped, equals
      the upstream line it names, stripped.  It needs no truth (:func:`exactness`);
    * ``pairing_acc``: per target file with truly copied scored lines, does the tool's main
      upstream file (most frequent ``upstream_path`` among the lines it calls copied) equal the
      truth's (ties on the truth side all count as right);
    * ``fp_rate``: lines called copied among truly-uncopied scored lines; in the negative
      control every line is uncopied, so it is the copied-labelled share of all code lines.

Ratios with an empty denominator other than P/R/F1 are NaN.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from . import generate

COPIED = ("verbatim", "near")
MATCHES = ("verbatim", "near", "none")
SCOPES = {"code": ("code",), "all": ("code", "comment", "docstring")}

COUNT_KEYS = (
    "n_lines",
    "n_missing",
    "tp",
    "fp",
    "fn",
    "tn",
    "n_near",
    "near_found",
    "label_ok",
    "src_path_ok",
    "src_line_ok",
    "src_line_exact",
    "n_verbatim_rows",
    "n_exact_rows",
    "n_pair_files",
    "n_pair_ok",
)
METRIC_KEYS = (
    "precision",
    "recall",
    "f1",
    "near_recall",
    "label_acc",
    "src_path_acc",
    "src_line_acc",
    "src_line_exact_acc",
    "exactness",
    "pairing_acc",
    "fp_rate",
)


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------


def _clean_path(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = str(value).replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return text


def read_truth(path: Path) -> pd.DataFrame:
    frame = pd.read_csv(path, dtype={"target_path": str, "upstream_path": str}, keep_default_na=False)
    frame["line"] = frame["line"].astype(int)
    frame["copied"] = frame["copied"].astype(int)
    frame["upstream_path"] = frame["upstream_path"].map(_clean_path)
    frame["upstream_line"] = pd.to_numeric(frame["upstream_line"], errors="coerce").astype("Int64")
    return frame


def normalize_report(frame: pd.DataFrame) -> pd.DataFrame:
    """A tool's rows in the lines.csv schema with clean types; duplicates keep the first row."""
    missing = {"target_path", "line", "match"} - set(frame.columns)
    if missing:
        raise ValueError(f"report lacks column(s) {sorted(missing)}")
    out = pd.DataFrame(
        {
            "target_path": frame["target_path"].map(_clean_path),
            "line": pd.to_numeric(frame["line"], errors="coerce"),
            "match": frame["match"].fillna("none").astype(str).str.strip().str.lower(),
            "upstream_path": (frame["upstream_path"].map(_clean_path) if "upstream_path" in frame else ""),
            "upstream_line": (
                pd.to_numeric(frame["upstream_line"], errors="coerce") if "upstream_line" in frame else float("nan")
            ),
        }
    )
    if "kind" in frame:
        out["kind"] = frame["kind"].astype(str)
    if "similarity" in frame:
        out["similarity"] = pd.to_numeric(frame["similarity"], errors="coerce")
    out = out.dropna(subset=["line"])
    out["line"] = out["line"].astype(int)
    out["upstream_line"] = out["upstream_line"].round().astype("Int64")
    out.loc[~out["match"].isin(MATCHES), "match"] = "none"
    return out.drop_duplicates(["target_path", "line"], keep="first").reset_index(drop=True)


def read_report(path: Path) -> pd.DataFrame:
    frame = pd.read_csv(path, dtype={"target_path": str, "upstream_path": str}, keep_default_na=False)
    for column in ("upstream_line", "similarity", "line"):
        if column in frame:
            frame[column] = pd.to_numeric(frame[column].replace("", None), errors="coerce")
    return normalize_report(frame)


class TreeText:
    """Lazy access to the lines of the files of a tree."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._files: dict[str, list[str] | None] = {}

    def lines(self, rel: str) -> list[str] | None:
        if rel not in self._files:
            path = self.root / rel
            try:
                if not rel or ".." in Path(rel).parts or not path.is_file():
                    raise OSError(rel)
                self._files[rel] = generate.split_lines(generate.read_source(path))
            except OSError:
                self._files[rel] = None
        return self._files[rel]

    def line(self, rel: str, number: object) -> str | None:
        lines = self.lines(rel)
        if lines is None or number is None or pd.isna(number):
            return None
        index = int(number) - 1
        return lines[index] if 0 <= index < len(lines) else None


# ---------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------


def exactness_counts(
    lines_df: pd.DataFrame, target_root: Path | TreeText, upstream_root: Path | TreeText
) -> tuple[int, int]:
    """(number of ``verbatim`` rows, how many of them are exact)."""
    target = target_root if isinstance(target_root, TreeText) else TreeText(target_root)
    upstream = upstream_root if isinstance(upstream_root, TreeText) else TreeText(upstream_root)
    rows = lines_df[lines_df["match"].astype(str).str.lower() == "verbatim"]
    exact = 0
    for t_path, t_line, u_path, u_line in zip(
        rows["target_path"], rows["line"], rows["upstream_path"], rows["upstream_line"], strict=True
    ):
        mine = target.line(_clean_path(t_path), t_line)
        theirs = upstream.line(_clean_path(u_path), u_line)
        if mine is not None and theirs is not None and mine.strip() == theirs.strip():
            exact += 1
    return len(rows), exact


def exactness(lines_df: pd.DataFrame, target_root: Path | TreeText, upstream_root: Path | TreeText) -> float:
    """Share of a report's ``verbatim`` rows whose target line equals the named upstream line
    (both stripped); NaN when the report has no verbatim row.  Works on any report."""
    total, exact = exactness_counts(normalize_report(lines_df), target_root, upstream_root)
    return exact / total if total else float("nan")


def join(truth: pd.DataFrame, report: pd.DataFrame) -> pd.DataFrame:
    """Truth rows with the tool's ``match``/``upstream_path``/``upstream_line`` as ``t_*``."""
    tool = report[["target_path", "line", "match", "upstream_path", "upstream_line"]].rename(
        columns={"match": "t_match", "upstream_path": "t_path", "upstream_line": "t_line"}
    )
    joined = truth.merge(tool, on=["target_path", "line"], how="left", indicator=True)
    joined["t_missing"] = joined["_merge"] == "left_only"
    joined = joined.drop(columns="_merge")
    joined["t_match"] = joined["t_match"].fillna("none")
    joined["t_path"] = joined["t_path"].fillna("")
    return joined


def _scoped(joined: pd.DataFrame, scope: str) -> pd.DataFrame:
    kinds = SCOPES[scope]
    return joined[joined["kind"].isin(kinds)]


def _modes(values: Iterable[str]) -> set[str]:
    counts = Counter(v for v in values if v)
    if not counts:
        return set()
    top = max(counts.values())
    return {value for value, n in counts.items() if n == top}


def line_counts(rows: pd.DataFrame, upstream: TreeText) -> dict[str, int]:
    """Line-level counts over already-scoped joined rows."""
    pos = rows["copied"] == 1
    pred = rows["t_match"].isin(COPIED)
    tp_rows = rows[pos & pred]
    path_ok = tp_rows["t_path"] == tp_rows["upstream_path"]
    line_exact = path_ok & (tp_rows["t_line"] == tp_rows["upstream_line"]).fillna(False)
    line_ok = 0
    for ok, exact, u_path, t_line, u_line in zip(
        path_ok, line_exact, tp_rows["upstream_path"], tp_rows["t_line"], tp_rows["upstream_line"], strict=True
    ):
        if exact:
            line_ok += 1
        elif ok:
            theirs = upstream.line(u_path, t_line)
            truth = upstream.line(u_path, u_line)
            if theirs is not None and truth is not None and theirs.strip() == truth.strip():
                line_ok += 1
    near = rows["expected"] == "near"
    return {
        "n_lines": int(len(rows)),
        "n_missing": int(rows["t_missing"].sum()),
        "tp": int((pos & pred).sum()),
        "fp": int((~pos & pred).sum()),
        "fn": int((pos & ~pred).sum()),
        "tn": int((~pos & ~pred).sum()),
        "n_near": int(near.sum()),
        "near_found": int((near & pred).sum()),
        "label_ok": int((tp_rows["t_match"] == tp_rows["expected"]).sum()),
        "src_path_ok": int(path_ok.sum()),
        "src_line_ok": int(line_ok),
        "src_line_exact": int(line_exact.sum()),
    }


def pairing_counts(rows: pd.DataFrame) -> tuple[int, int]:
    """(target files with truly copied scored lines, files whose main upstream file is right)."""
    files = ok = 0
    for _, group in rows.groupby("target_path", sort=True):
        truth_main = _modes(group.loc[group["copied"] == 1, "upstream_path"])
        if not truth_main:
            continue
        files += 1
        tool_main = _modes(group.loc[group["t_match"].isin(COPIED), "t_path"])
        if tool_main and min(tool_main) in truth_main:
            ok += 1
    return files, ok


def derive(counts: dict[str, float]) -> dict[str, float]:
    """Metrics from counts (see the module docstring for the conventions)."""

    def ratio(num: float, den: float, empty: float = float("nan")) -> float:
        return num / den if den else empty

    tp, fp, fn, tn = (counts.get(k, 0) for k in ("tp", "fp", "fn", "tn"))
    precision = ratio(tp, tp + fp, 1.0)
    recall = ratio(tp, tp + fn, 1.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "near_recall": ratio(counts.get("near_found", 0), counts.get("n_near", 0)),
        "label_acc": ratio(counts.get("label_ok", 0), tp),
        "src_path_acc": ratio(counts.get("src_path_ok", 0), tp),
        "src_line_acc": ratio(counts.get("src_line_ok", 0), tp),
        "src_line_exact_acc": ratio(counts.get("src_line_exact", 0), tp),
        "exactness": ratio(counts.get("n_exact_rows", 0), counts.get("n_verbatim_rows", 0)),
        "pairing_acc": ratio(counts.get("n_pair_ok", 0), counts.get("n_pair_files", 0)),
        "fp_rate": ratio(fp, fp + tn),
    }


def aggregate(items: Iterable[dict[str, float]]) -> dict[str, float]:
    """Sum the counts of several scores and derive the pooled metrics."""
    total = dict.fromkeys(COUNT_KEYS, 0)
    for item in items:
        for key in COUNT_KEYS:
            total[key] += int(item.get(key, 0) or 0)
    return {**total, **derive(total)}


def score(
    truth: pd.DataFrame,
    report: pd.DataFrame,
    target_root: Path,
    upstream_root: Path,
    scope: str = "code",
) -> dict[str, float]:
    """Counts and metrics of one tool on one case."""
    upstream = TreeText(upstream_root)
    report = normalize_report(report)
    joined = join(truth, report)
    rows = _scoped(joined, scope)
    counts = line_counts(rows, upstream)
    counts["n_pair_files"], counts["n_pair_ok"] = pairing_counts(rows)
    # Exactness looks at every verbatim row of the report on the target's files.
    scored_files = set(truth["target_path"])
    verbatim = report[report["target_path"].isin(scored_files)]
    counts["n_verbatim_rows"], counts["n_exact_rows"] = exactness_counts(verbatim, TreeText(target_root), upstream)
    return {**counts, **derive(counts)}


def score_by_tag(
    truth: pd.DataFrame, report: pd.DataFrame, upstream_root: Path, scope: str = "code"
) -> dict[str, dict[str, float]]:
    """Line-level counts and metrics per truth ``operator`` tag (e.g. within ``mixed``)."""
    upstream = TreeText(upstream_root)
    rows = _scoped(join(truth, normalize_report(report)), scope)
    out = {}
    for tag, group in rows.groupby("operator", sort=True):
        counts = line_counts(group, upstream)
        out[str(tag)] = {**counts, **derive(counts)}
    return out


def truth_report(truth: pd.DataFrame) -> pd.DataFrame:
    """The truth itself in the lines.csv schema (a perfect tool, for tests)."""
    return pd.DataFrame(
        {
            "target_path": truth["target_path"],
            "line": truth["line"],
            "kind": truth["kind"],
            "match": truth["expected"],
            "upstream_path": truth["upstream_path"],
            "upstream_line": truth["upstream_line"],
            "similarity": (truth["copied"] == 1).astype(float),
        }
    )
