"""``lineage forkpoint``: which candidate release or commit a target's code is closest to.

    from lineage.fork.forkpoint import run_forkpoint
    result = run_forkpoint("vendored/requests", ["pypi:requests"], versions=">=2.28,<2.33")
    result.candidates.head()      # one row per candidate, by rank
    result.write("out/")          # forkpoint.csv, forkpoint_files.csv, forkpoint.json, forkpoint.png

Each candidate is compared with the target by :func:`lineage.api.compare_trees` (same matcher,
same parameters). A target file *pairs* with the candidate file it copies most from (its main
upstream file, ``upstream_path`` in ``files.csv``); the candidate's *paired files* are those.

Closest is the smallest **distance**, the number of code lines one would have to change to turn
the candidate's paired files into the target:

    distance = (target_code_lines - verbatim_code_lines) + upstream_only_code_lines

where ``verbatim_code_lines`` are target code lines found verbatim in the candidate and
``upstream_only_code_lines`` are code lines of the paired files that no target line (verbatim or
near) was matched to. The first term grows when the candidate lacks code the target has (an
older release), the second when the candidate has code the target lacks (a newer release that
only added lines), so an unmodified copy of release X has distance 0 against X and more against
any release that added, removed or changed a code line of the copied files. Files of the
candidate that no target file pairs with are not counted: a vendored subset is not penalised
for the rest of the package. Ties on distance are broken by more verbatim lines, then by fewer
upstream-only lines; candidates equal on all three share a rank (1 = closest).

Per target file (``forkpoint_files.csv``) the same distance is computed with that file's own
lines and its own paired file, and ranked among the candidates, because a vendored tree may mix
files from several releases.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lineage import __version__
from lineage.errors import LineageError
from lineage.fork.candidates import Candidate, expand, first_release
from lineage.history.range import commit_date
from lineage.index import CODE, INDEX_VERSION, IndexCache, TreeIndex, index_tree
from lineage.index.project import top_level
from lineage.match import MatchParams, MatchWorkers
from lineage.settings import RunSettings
from lineage.sources import open_source
from lineage.sources.base import Source
from lineage.sources.distinfo import top_level_names
from lineage.sources.git import commit_spec

# Change log of forkpoint.json:
#   1: first version (target, candidates with digests, the definition, best, per-file best).
#   2: "skipped_candidates": candidates without a Python file (path and reason), not ranked.
#   3: "target.date" (when the target was published, "" when unknown), "dated_after_target" (how
#      many candidates are dated after it) and "best_before_target" (the closest of those dated no
#      later than it; [] when the target or every candidate is undated).
#   4: "more_verbatim_than_best": candidates not dated after the target that hold more of its code
#      lines verbatim than every closest one (ForkpointResult.more_verbatim_than_best).
#   5: "best_differ_in": the Python files whose content differs among the closest (a tie of
#      several trees), and "best_differ_paired": those of them a target file pairs with
#      (ForkpointResult.best_differ_in, best_differ_paired); [] for one closest or one tree.
#   6: "target.first_release" (the version and date of the release of the target's project PyPI
#      published first, for a pypi: target; {} otherwise or when PyPI cannot be asked),
#      "dated_after_first_release" and "best_before_first_release" (the closest of the candidates
#      dated no later than it; [] when unknown).
#   7: "target.first_release" is {} too when the release PyPI lists first shares no import name
#      with the target (another project used the name first: pyPdf's releases under pypdf), and
#      holds its "import_names" otherwise; "target.first_release_not_own" (version, date,
#      reason, the names compared) records the release left out; "best_before_first_release"
#      leaves out candidates dated after the target.
FORKPOINT_FORMAT = "lineage.forkpoint"
FORKPOINT_VERSION = 7

# forkpoint.csv, one row per candidate, sorted by rank then candidate order.
CANDIDATE_COLUMNS = [
    "rank", "candidate", "ref", "date", "distance", "verbatim_code_lines", "copied_code_lines",
    "target_code_lines", "upstream_only_code_lines", "paired_files", "python_files", "order",
    "group", "digest", "tree_digest",
]
# forkpoint_files.csv, one row per (target file, candidate), sorted by target path, rank, order.
FILE_COLUMNS = [
    "target_path", "rank", "candidate", "ref", "upstream_path", "distance", "code_lines",
    "verbatim_code_lines", "copied_code_lines", "upstream_only_code_lines", "order",
]
_RANK_KEYS = ["distance", "minus_verbatim", "upstream_only_code_lines"]


def _rank_key(totals: dict[str, int]) -> tuple[int, int, int]:
    """One candidate's figures in :data:`_RANK_KEYS` order: the smaller, the closer."""
    return totals["distance"], -totals["verbatim_code_lines"], totals["upstream_only_code_lines"]


_MAX_TICKS = 24


@dataclass(frozen=True)
class ForkPointChoice:
    """What :meth:`ForkpointResult.fork_point` chose: the candidates (rank 1 of those the bound
    admits), the bound (``before_first_release``, ``before_target``, or ``closest`` when no date
    bounds them) and its date ("" for ``closest``)."""

    rows: pd.DataFrame
    bound: str
    date: str


@dataclass
class ForkpointResult:
    """The ranked candidates, the per-file ranking, and the inputs that reproduce them."""

    candidates: pd.DataFrame
    files: pd.DataFrame
    inputs: dict[str, Any] = field(default_factory=dict)
    # the Python file paths whose content differs among the closest candidates (present in some
    # and not others, or another blob): what a tie of several trees comes down to
    best_differ_in: list[str] = field(default_factory=list)
    # the head commit of each git range the candidates were walked from (candidate spec -> sha), so
    # that a caller (``drift --base auto``) need not walk the range again; not written out
    range_tips: dict[str, str] = field(default_factory=dict)

    @property
    def best(self) -> pd.DataFrame:
        return self.candidates[self.candidates["rank"] == 1]

    @property
    def target_date(self) -> str:
        return str(self.inputs.get("target", {}).get("date", ""))

    def after_target(self) -> pd.Series:
        """Per candidate, whether it is dated after the target (False when either is undated). A
        target cannot descend from a release published after it: disnake 2.1.0 (September 2021),
        forked from discord.py's unreleased 2.0 branch, is closest to discord.py 2.0.0 (August
        2022), which holds that branch's code too."""
        return self._dated_after(self.target_date)

    def _dated_after(self, when: str) -> pd.Series:
        """Per candidate, whether it is dated after ``when`` (False when either is undated)."""
        dates = self.candidates["date"].fillna("").astype(str)
        return (dates != "") & (dates > when) if when else pd.Series(False, index=self.candidates.index)

    def _closest_dated_by(self, when: str) -> pd.DataFrame:
        """The closest of the candidates dated no later than ``when`` (empty when it is "")."""
        if not when:
            return self.candidates.iloc[0:0]
        dates = self.candidates["date"].fillna("").astype(str)
        earlier = self.candidates[(dates != "") & ~self._dated_after(when)]
        return earlier[earlier["rank"] == earlier["rank"].min()] if len(earlier) else earlier

    @property
    def best_after_target(self) -> pd.DataFrame:
        """The closest candidates dated after the target: none of them is its fork point. With a
        tie this may be some of them only: disnake 2.1.3 is as close to discord.py's fork-point
        commit (August 2021) as to a README commit of February 2022 holding the same Python files."""
        return self.best[self.after_target()[self.best.index]]

    @property
    def best_before_target(self) -> pd.DataFrame:
        """The closest candidates dated no later than the target (empty when it is undated)."""
        return self._closest_dated_by(self.target_date)

    @property
    def first_release_date(self) -> str:
        return str(self.inputs.get("target", {}).get("first_release", {}).get("date", ""))

    def after_first_release(self) -> pd.Series:
        """Per candidate, whether it is dated after the first release of the target's project
        (False when either is undated). Such a release of the upstream came out when the fork
        already existed, and may hold the fork's own changes, carried back: ssh (paramiko
        renamed; first release 1.7.8, 2011-10-24) was merged back into paramiko 1.8.0
        (2012-10-03), which is closest to ssh 1.8.0 (distance 287), while ssh's history forks
        from paramiko 1.7.7.1 (2011-05-23, distance 685)."""
        return self._dated_after(self.first_release_date)

    @property
    def best_after_first_release(self) -> pd.DataFrame:
        """The closest candidates dated after the target project's first release but not after
        the target (those are said to be none already): they need not be its fork point."""
        later = self.after_first_release() & ~self.after_target()
        return self.best[later[self.best.index]]

    @property
    def best_before_first_release(self) -> pd.DataFrame:
        """The closest candidates dated no later than the target project's first release (empty
        when it is unknown)."""
        if not self.first_release_date:
            return self.candidates.iloc[0:0]
        # nor after the target (no fork point): the earlier of the two dates bounds them
        return self._closest_dated_by(min(d for d in (self.first_release_date, self.target_date) if d))

    def fork_point(self) -> ForkPointChoice:
        """The closest candidates that may be the target's fork point, and which bound chose them:
        the one rule ``forkpoint`` reports (``best_before_first_release``, ``best_before_target``)
        and ``drift --base auto`` takes its base by. The closest dated no later than the first
        release of the target's project (when known, and some candidate is), else the closest
        dated no later than the target (when dated, and some candidate is), else the closest.
        A candidate dated after the target is no fork point; one dated after the target
        project's first release came out when the fork existed and may hold its changes carried
        back (ssh merged back into paramiko 1.8.0, closest to ssh 1.8.0, while ssh forked from
        1.7.7.1). Taking the earlier bound only adds upstream commits to a drift (each one the
        fork holds reads ``applied``); a later one leaves out the commits between the two."""
        earlier = self.best_before_first_release
        if len(earlier):
            return ForkPointChoice(earlier, "before_first_release", self.first_release_date)
        earlier = self.best_before_target
        if len(earlier):
            return ForkPointChoice(earlier, "before_target", self.target_date)
        return ForkPointChoice(self.best, "closest", "")

    @property
    def more_verbatim_than_best(self) -> pd.DataFrame:
        """The candidates not dated after the target that hold more of its code lines verbatim than
        every closest one, most first. The distance is symmetric: a release's code the target
        dropped since counts against it as much as code it never had. Such a candidate holds code
        the closest lacks, which the target forked from or took from a later release, so the
        closest is no earlier bound. pycryptodomex 3.20.0 is closest to pycrypto 2.5 (distance 33,260) and
        2.6 ranks second (33,278), yet holds 268 more of its code lines verbatim (5,050 against
        4,782: 2.6's ``SelfTest/PublicKey/test_ElGamal.py`` alone 89): pycryptodome forked from
        pycrypto after 2.6.1, and 2.6's 286 more upstream-only lines are code it rewrote since."""
        most = int(self.best["verbatim_code_lines"].max()) if len(self.best) else 0
        more = self.candidates[(self.candidates["verbatim_code_lines"] > most) & ~self.after_target()]
        return more.sort_values(["verbatim_code_lines", "order"], ascending=[False, True], kind="stable")

    @property
    def best_differ_paired(self) -> list[str]:
        """Of :attr:`best_differ_in`, the files a target file pairs with in a closest candidate
        (its main upstream file). The closest tie on every figure, so whatever differs in these
        files leaves the target's figures the same against each: ruamel.yaml 0.18.6 against
        PyYAML 3.10 and 3.11, whose Python files differ in ``__version__`` (both ``__init__.py``
        copies, which two of its files pair with) and ``setup.py``."""
        if not self.best_differ_in:
            return []
        closest = self.files[self.files["candidate"].isin(set(self.best["candidate"]))]
        paired = {str(u) for u in closest["upstream_path"] if isinstance(u, str) and u}
        return [path for path in self.best_differ_in if path in paired]

    def to_json(self) -> dict[str, Any]:
        best_files = self.files[self.files["rank"] == 1]
        per_candidate = best_files.groupby("candidate", sort=False)["target_path"].nunique()
        records = _records(self.best)
        return {
            "format": FORKPOINT_FORMAT,
            "format_version": FORKPOINT_VERSION,
            **self.inputs,
            "best": records,
            "dated_after_target": int(self.after_target().sum()),
            "best_before_target": _records(self.best_before_target),
            "dated_after_first_release": int(self.after_first_release().sum()),
            "best_before_first_release": _records(self.best_before_first_release),
            "more_verbatim_than_best": _records(self.more_verbatim_than_best),
            "best_differ_in": list(self.best_differ_in),
            "best_differ_paired": self.best_differ_paired,
            "files_closest_to": [{"candidate": c, "files": int(n)}
                                 for c, n in sorted(per_candidate.items(), key=lambda kv: (-kv[1], kv[0]))],
            "candidates": _records(self.candidates),
        }

    def write(self, out_dir: str | Path) -> list[Path]:
        from lineage.report.outdir import write_outputs
        from lineage.report.tables import guard_formulas

        title = str(self.inputs.get("target", {}).get("spec", ""))
        return write_outputs(Path(out_dir), [
            ("forkpoint.csv", lambda p: guard_formulas(self.candidates).to_csv(p, index=False, lineterminator="\n")),
            ("forkpoint_files.csv", lambda p: guard_formulas(self.files).to_csv(p, index=False, lineterminator="\n")),
            ("forkpoint.json", lambda p: p.write_text(json.dumps(self.to_json(), indent=2) + "\n",
                                                      encoding="utf-8")),
            ("forkpoint.png", lambda p: plot_forkpoint(self.candidates, p, title=title)),
        ])


def differing_paths(trees: Sequence[dict[str, str]]) -> list[str]:
    """The paths whose content is not the same in every tree (``{path: blob digest}`` each): a
    path one tree lacks differs too. Sorted; [] for fewer than two trees."""
    if len(trees) < 2:
        return []
    paths = sorted(set().union(*trees))
    return [path for path in paths if len({tree.get(path) for tree in trees}) > 1]


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return json.loads(frame.to_json(orient="records"))


def restrict(tree: TreeIndex, prefix: str) -> TreeIndex:
    """The part of ``tree`` under the folder ``prefix`` (e.g. ``pip/_vendor/requests``), or the
    one file ``prefix`` names (``pip/_vendor/typing_extensions.py``)."""
    prefix = prefix.strip("/")
    if not prefix:
        return tree
    inside = prefix + "/"
    files = [f for f in tree.files if f.path.startswith(inside) or f.path == prefix]
    if not files:
        raise LineageError(f"--target-path {prefix}: no Python file of {tree.info.spec} is under it")
    import hashlib

    digest = hashlib.sha256()
    for f in files:
        digest.update(f"{f.path}\0{f.digest}\n".encode("utf-8", "surrogateescape"))
    keep = {f.path for f in files}
    return replace(tree, files=files, skipped=[s for s in tree.skipped if s[0].startswith(inside) or s[0] == prefix],
                   tree_digest="sha256:" + digest.hexdigest(),
                   data={p: tree.data[p] for p in tree.data if p in keep})


def _matched_rows(lines: pd.DataFrame) -> pd.DataFrame:
    """(target_path, upstream_path, upstream_line) of every target line matched verbatim or near."""
    hit = lines[lines["match"] != "none"]
    return pd.DataFrame({"target_path": hit["target_path"].astype(str).to_numpy(),
                         "upstream_path": hit["upstream_path"].astype(str).to_numpy(),
                         "upstream_line": hit["upstream_line"].astype("int64").to_numpy()})


def _unmatched_code(kinds: np.ndarray, matched_lines: np.ndarray) -> int:
    """Code lines of one upstream file whose (1-based) line is not among ``matched_lines``."""
    seen = np.zeros(kinds.shape[0], dtype=bool)
    rows = matched_lines[(matched_lines >= 1) & (matched_lines <= kinds.shape[0])] - 1
    seen[rows] = True
    return int(((kinds == CODE) & ~seen).sum())


def score_candidate(candidate: TreeIndex, files: pd.DataFrame, lines: pd.DataFrame
                    ) -> tuple[dict[str, int], pd.DataFrame]:
    """Whole-target figures and per-file figures of one comparison with one candidate."""
    kinds = {f.path: f.kinds for f in candidate.files}
    indexed = files[files["status"] == "indexed"]
    matched = _matched_rows(lines)
    by_upstream = {u: g["upstream_line"].to_numpy() for u, g in matched.groupby("upstream_path", sort=True)}
    by_pair = {k: g["upstream_line"].to_numpy()
               for k, g in matched.groupby(["target_path", "upstream_path"], sort=True)}
    paired = sorted({p for p in indexed["upstream_path"] if p})
    empty = np.zeros(0, dtype=np.int64)
    upstream_only = sum(_unmatched_code(kinds[p], by_upstream.get(p, empty)) for p in paired)
    code = int(indexed["code_lines"].sum())
    verbatim = int(indexed["verbatim_code_lines"].sum())
    copied = verbatim + int(indexed["near_code_lines"].sum())
    totals = {"verbatim_code_lines": verbatim, "copied_code_lines": copied, "target_code_lines": code,
              "upstream_only_code_lines": upstream_only, "distance": code - verbatim + upstream_only,
              "paired_files": len(paired)}
    rows = []
    for t, u, n_code, n_verb, n_near in indexed[["target_path", "upstream_path", "code_lines",
                                                 "verbatim_code_lines", "near_code_lines"]].itertuples(index=False):
        only = _unmatched_code(kinds[u], by_pair.get((t, u), empty)) if u else 0
        rows.append({"target_path": t, "upstream_path": u, "code_lines": int(n_code),
                     "verbatim_code_lines": int(n_verb), "copied_code_lines": int(n_verb + n_near),
                     "upstream_only_code_lines": only, "distance": int(n_code - n_verb + only)})
    return totals, pd.DataFrame(rows)


def rank_frame(frame: pd.DataFrame, by: list[str] | None = None) -> pd.Series:
    """Competition ranks (1, 1, 3) on (distance, -verbatim, upstream-only), within ``by`` groups."""
    keys = frame.assign(minus_verbatim=-frame["verbatim_code_lines"])
    order = keys.sort_values([*(by or []), *_RANK_KEYS], kind="stable")
    group = order[by].astype(str).agg("\0".join, axis=1) if by else pd.Series("", index=order.index)
    key = order[_RANK_KEYS].astype(str).agg("\0".join, axis=1)
    position = order.groupby(group, sort=False).cumcount() + 1
    new_key = (key != key.shift()) | (group != group.shift())
    ranks = position.where(new_key).ffill().astype(int)
    return ranks.reindex(frame.index)


def source_date(tree: TreeIndex) -> str:
    """When a source was published, as forkpoint writes dates: a git commit's commit date, a
    release's first file's upload on PyPI (else its own file's); "" for a folder or an archive."""
    if tree.info.kind == "git":  # a single REPO@REF: dated as a range's commits are
        return commit_date(tree.info.location, str(tree.info.details.get("commit", "")))
    if tree.info.kind == "pypi":  # a release: when PyPI published its first file
        return str(tree.info.details.get("released") or tree.info.details.get("uploaded", ""))
    return ""


def target_inputs(target: str, tree: TreeIndex, target_path: str) -> dict[str, Any]:
    """The versions and the target's record that forkpoint.json and drift.json begin with."""
    return {"lineage_version": __version__, "index_version": INDEX_VERSION,
            "target": {"spec": target, "kind": tree.info.kind, "digest": tree.info.digest,
                       "target_path": target_path.strip("/"), "tree_digest": tree.tree_digest,
                       "python_files": len(tree.files), "date": source_date(tree)}}


# A distribution's own list of its top-level imports: a wheel's or an sdist's egg-info at the
# root of the release (or below its src/ folder), not a vendored copy's.
_TOP_LEVEL_TXT = re.compile(r"(?:src/)?[^/]+\.(?:egg|dist)-info/top_level\.txt")


def import_names(source: Source) -> frozenset[str]:
    """The names a release's imports start with: those its Python files' paths give
    (:func:`lineage.index.project.top_level`) and those its own ``top_level.txt`` lists (an
    sdist's layout may differ from what it installs: ruamel.yaml 0.2's sdist holds ``py/``,
    installed as ``ruamel.yaml``, and its ``top_level.txt`` says ``ruamel``)."""
    paths = source.paths()
    names = {top.name for top in top_level(p for p in paths if p.endswith((".py", ".pyi")))}
    for path in paths:
        if _TOP_LEVEL_TXT.fullmatch(path):
            names |= top_level_names(source.read(path))
    return frozenset(names)


def own_first_release(name: str, target_names: frozenset[str], cache_root: Path | None
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first release of the target's project on PyPI (:func:`candidates.first_release`) when
    it is that project's own, and else what was listed first and why it is not taken: ``(first,
    not_own)``, one of them ``{}`` (both when PyPI cannot be asked). PyPI names a project by its
    normalised name, which an older project may have used first: ``pypdf`` lists pyPdf's releases
    (1.4 to 1.13, uploaded 2014-05-17), whose files import ``pyPdf``, while pypdf 3.x imports
    ``pypdf``. A first release sharing none of the target's import names (:func:`import_names`;
    imports are case-sensitive) is another project's, and the first release of the target's own is
    then unknown, not guessed: the releases between are not read. One whose names cannot be read
    (no Python file, no ``top_level.txt``: a placeholder) is taken; one that cannot be opened is
    not (unknown rather than unchecked)."""
    first = first_release(name)
    if not first:
        return {}, {}
    try:
        with open_source(f"pypi:{name}=={first['version']}", cache_root) as source:
            names = import_names(source)
    except LineageError as exc:
        return {}, {**first, "reason": f"cannot be opened: {' '.join(str(exc).split())[:200]}"}
    if names and target_names and not names & target_names:
        return {}, {**first, "reason": "shares no import name with the target", "import_names": sorted(names),
                    "target_import_names": sorted(target_names)}
    return {**first, "import_names": sorted(names)}, {}


def _resolved_spec(candidate: Candidate, tree: TreeIndex) -> str:
    info = tree.info
    if info.kind == "pypi":
        return f"{candidate.spec.split('#', 1)[0]}#sha256={info.digest.removeprefix('sha256:')}"
    if info.kind == "git":
        return commit_spec(info.location, info.details)
    return info.spec


def run_forkpoint(target: str, candidate_specs: Sequence[str], *, versions: str = "", pre: bool = False,
                  tags_only: bool = False, every: int = 1, max_commits: int = 0, target_path: str = "",
                  params: MatchParams | None = None, settings: RunSettings | None = None) -> ForkpointResult:
    """Rank every candidate by its distance to the target (see the module docstring).

    ``settings`` says how to run (cache, workers, file size limit, progress; default: all
    defaults, silent).
    """
    from lineage.api import compare_trees

    params = params or MatchParams()
    settings = settings or RunSettings()
    candidates = expand(list(candidate_specs), versions=versions, pre=pre, tags_only=tags_only,
                        every=every, max_commits=max_commits)
    root = settings.cache_root
    cache = IndexCache(settings.store_root)
    jobs, max_file_bytes = settings.jobs, settings.max_file_bytes
    started = time.perf_counter()
    with open_source(target, root) as source:
        target_tree = restrict(index_tree(source, cache, jobs, max_file_bytes), target_path)
        target_names = import_names(source)
    if not target_tree.files:
        raise LineageError(f"target {target} holds no Python file to compare")

    rows: list[dict[str, Any]] = []
    file_frames: list[pd.DataFrame] = []
    known: dict[str, Any] = {}  # blob digest -> (record, bytes), shared by git candidates
    by_tree: dict[str, tuple[dict[str, int], pd.DataFrame]] = {}  # same Python files, same figures
    skipped: list[dict[str, str]] = []
    # the Python files ({path: digest}) of the candidates closest so far, one per tree: a tie of
    # several trees is explained by the files they differ in (ForkpointResult.best_differ_in)
    closest_key: tuple[int, int, int] | None = None
    closest_trees: dict[str, dict[str, str]] = {}
    for order, cand in enumerate(candidates):
        step = time.perf_counter()
        if cand.skip_reason:  # known from PyPI's listing: nothing to fetch
            skipped.append({"candidate": cand.spec, "reason": cand.skip_reason})
            settings.log(f"[{order + 1}/{len(candidates)}] {cand.spec}: skipped, {cand.skip_reason}")
            continue
        with open_source(cand.spec, root) as source:
            tree = index_tree(source, cache, jobs, max_file_bytes,
                              known=known if source.info.kind == "git" else None)
        if not tree.files and not tree.skipped:
            # no Python file (a wrong path, a commit before the code): it shares nothing, which
            # the distance cannot tell from a release that shares nothing; recorded, not ranked
            skipped.append({"candidate": cand.spec, "reason": f"no Python files ({tree.other_files} other files)"})
            settings.log(f"[{order + 1}/{len(candidates)}] {cand.spec}: skipped, no Python files")
            continue
        scored = by_tree.get(tree.figures_key)
        if scored is None:
            comparison = compare_trees(target_tree, [tree], params, cache_root=settings.store_root,
                                       workers=MatchWorkers.of(settings), match_contexts=settings.match_contexts)
            scored = score_candidate(tree, comparison.files, comparison.lines)
            by_tree[tree.figures_key] = scored
            del comparison
        totals, per_file = scored
        spec = _resolved_spec(cand, tree)
        date = cand.date or source_date(tree)
        rows.append({"candidate": spec, "ref": cand.ref or tree.info.details.get("version", ""), "date": date,
                     **totals, "python_files": len(tree.files) + len(tree.skipped), "order": order,
                     "group": cand.group, "digest": tree.info.digest, "tree_digest": tree.tree_digest})
        file_frames.append(per_file.assign(candidate=spec, ref=rows[-1]["ref"], order=order))
        key = _rank_key(totals)
        if closest_key is None or key < closest_key:
            closest_key, closest_trees = key, {}
        if key == closest_key:
            closest_trees.setdefault(tree.tree_digest, {f.path: f.digest for f in tree.files}
                                     | {path: "skipped" for path, _ in tree.skipped})
        settings.log(f"[{order + 1}/{len(candidates)}] {spec}: distance {totals['distance']:,} "
                     f"({totals['verbatim_code_lines']:,} of {totals['target_code_lines']:,} code lines verbatim, "
                     f"{totals['upstream_only_code_lines']:,} upstream-only; {tree.cache_misses} parsed, "
                     f"{time.perf_counter() - step:.1f} s)")
        del tree

    if not rows:
        raise LineageError(f"no candidate holds a Python file ({len(skipped)} skipped: {skipped[0]['candidate']}"
                           f"{', ...' if len(skipped) > 1 else ''})")
    frame = pd.DataFrame(rows)
    frame["rank"] = rank_frame(frame)
    frame = frame.sort_values(["rank", "order"], kind="stable")[CANDIDATE_COLUMNS].reset_index(drop=True)
    files = pd.concat(file_frames, ignore_index=True)
    files["rank"] = rank_frame(files, by=["target_path"])
    files = files.sort_values(["target_path", "rank", "order"], kind="stable")[FILE_COLUMNS].reset_index(drop=True)
    inputs = {
        **target_inputs(target, target_tree, target_path),
        "selection": {"versions": versions, "pre": pre, "tags_only": tags_only, "every": every,
                      "max_commits": max_commits, "specs": list(candidate_specs)},
        "distance": "(target_code_lines - verbatim_code_lines) + upstream_only_code_lines; "
                    "ties broken by more verbatim, then fewer upstream-only lines",
        "parameters": params.to_dict(),
        "skipped_candidates": skipped,
        "seconds": round(time.perf_counter() - started, 3),
    }
    name = str(target_tree.info.details.get("name", "")) if target_tree.info.kind == "pypi" else ""
    inputs["target"]["first_release"], inputs["target"]["first_release_not_own"] = (
        own_first_release(name, target_names, root) if name else ({}, {}))
    return ForkpointResult(candidates=frame, files=files, inputs=inputs,
                           best_differ_in=differing_paths(list(closest_trees.values())),
                           range_tips={c.group: c.range_tip for c in candidates if c.range_tip})


def plot_forkpoint(frame: pd.DataFrame, path: Path, title: str = "") -> Path:
    """Distance, target lines not verbatim and upstream-only lines over the candidates (in order)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ordered = frame.sort_values("order")
    x = list(range(len(ordered)))
    distance = ordered["distance"].astype(int).tolist()
    missing = (ordered["target_code_lines"] - ordered["verbatim_code_lines"]).astype(int).tolist()
    extra = ordered["upstream_only_code_lines"].astype(int).tolist()
    fig = Figure(figsize=(10, 5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    marker = "o" if len(x) <= 60 else None
    ax.plot(x, distance, color="black", marker=marker, label="distance")
    ax.plot(x, missing, color="tab:red", linestyle="--", label="target code lines not verbatim")
    ax.plot(x, extra, color="tab:blue", linestyle=":", label="upstream-only code lines (paired files)")
    best = [i for i, r in enumerate(ordered["rank"]) if r == 1]
    ax.scatter(best, [distance[i] for i in best], s=120, facecolors="none", edgecolors="tab:green",
               linewidths=2, zorder=3, label="closest (rank 1)")
    ax.set_ylabel("code lines")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    step = max(1, -(-len(x) // _MAX_TICKS))
    ticks = x[::step]
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(ordered["ref"].iat[i])[:12] for i in ticks], rotation=60, fontsize="x-small")
    ax.set_xlabel("candidate (in the order given; releases and commits oldest first)")
    if title:
        ax.set_title(f"forkpoint of {title}", fontsize="medium")
    fig.savefig(path, dpi=110, metadata={"Software": None})
    return path
