"""summary.json (versioned, machine-readable) and summary.md (for people), with the headline."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd
from packaging.utils import canonicalize_name

from lineage import __version__
from lineage.markers.description import RENAMED_FROM
from lineage.report.markdown import counted, md_code, md_table, md_text
from lineage.results import figures, third_party
from lineage.results.figures import percent
from lineage.results.obligations import obligation_counts, source_licence

if TYPE_CHECKING:
    from lineage.index.tree import TreeIndex
    from lineage.match import MatchParams
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison
    from lineage.results.third_party import Party

SUMMARY_FORMAT = "lineage.summary"
# Change log:
# 1: first version.
# 2: "licences" (declared licence and licence files of the target and each upstream) and
#    "obligations" (counts from obligations.csv: pairs, what is missing, conflicts).
# 3: the review lists hold only files with at least one copied code line (a re-export-only file
#    is not evidence on its own; it is listed in "lists.reexport_with_copied"); lines shared with
#    third-party or from-target upstream files are no longer copied: "shared" (their figures),
#    "upstream_origins" (the upstream files that are not the upstream's own code),
#    "target_names", and the lists "shared_third_party", "shared_from_target".
# 4: a file is marked also when its tree's vendoring records (a vendor.txt line, a vendored
#    *.dist-info) cover it for the upstream (files.csv marker_kind "vendored", no marker_line); the
#    headline's first sentence says how many marked files are marked so; "vendored": per such
#    record, its pin, the release compared and the copied code of its files.
# 5: "lists.marked_without_copied" holds only marked files without a copied code line; a marked
#    re-export-only file with copied code lines is in "lists.reexport_with_copied" alone (it was in
#    both, so summary.md listed such files under "Marked files with no copied code").
# 6: "upstream_origins" entries carry "lines": null for a whole upstream file, [first, last] for
#    a part of an own one that a marker below its header says came from the target or a third
#    party (lineage.match.origin.file_sections); lines shared with such a part are "shared" as
#    with a whole file.
# 7: an upstream licence that offers a choice (``A OR B``) comes out whole: "licences" may say
#    declared_from "licence files: <file> offers a choice (<files>)" (a licence file's statement
#    of the choice, before the classifiers) or give the classifiers' choice with a family
#    classifier ("BSD License") replaced by the one licence of its family the licence files name
#    (it was dropped, and packaging 24.0 read Apache-2.0 alone); "obligations" counts a pair under
#    such a licence under the choice that leaves least missing in its target file, which
#    obligations.csv's upstream_licence_from names after "; under " (a compatible one first; ties:
#    the first offered). Single-licence figures are unchanged.
# 8: "third_parties": per third party in "shared.third_party.by_name" (most lines first), its
#    counts, the upstreams it came through ("through"), the run's upstream that is it
#    ("upstream_of_run") and otherwise the next step: the --upstream to add, naming a PyPI
#    "distribution" (and "version") only when the run's metadata requires one of that name
#    (lineage.results.third_party); summary.md's third-party table says it in a "next step" column.
# 9: "marked_without_copied_files": of the marked files without copied code, how many name an
#    upstream file the trees compared hold, how many one they do not (removed, renamed or moved
#    since), how many no file; and the refs (releases, commits, other) the absent ones' markers
#    name (lineage.results.figures.named_files). summary.md says it above that list, whose
#    "upstream file" column now shows the file the marker names.
# 10: "lists.prose_only_copied": files with copied comment or docstring lines but no copied code
#    line (in none of the lists of copied code); summary.md lists them when there are any.
# 11: "files.with_copied_lines" counts every file with a copied line, as its name says (the files
#    obligations.csv, the SPDX document and "per_upstream" count: re-export-only and prose-only
#    files included); it counted the files listed with copied code, which "files.with_copied_code"
#    now holds (urllib3 2.2.3 against 1.26.18: 26 and 25; it said 25 beside 26 obligation files).
# 12: "marked_without_copied_files.no_code": of the marked files without copied code, how many
#    hold no code line (empty or docstring-only); present/absent/no-file count the others only
#    (pipenv 2024.0.1 said 23 empty vendored __init__.py files named a file "rewritten since").
# 13: each licence file in "licences" carries "included_code": true when the file says, before
#    its first copyright line, that it is for code the release includes from elsewhere (Django's
#    LICENSE.python); such a file's holders are no fallback for the release's files.
# 14: "declared_reuse": the sentences of the target's description (its metadata's long
#    description, else a checkout's README; and its own licence files) that state reuse and name
#    an upstream after the phrase ("We learned the design and reused code from ... [vLLM](https://github.com/vllm-project/vllm)",
#    sglang 0.5.23's METADATA), each with "upstream", "path", "line", "kind" (a marker kind) and
#    "text" (lineage.markers.description); they mark no file and change no figure. summary.md
#    quotes them under "Reuse the target's description states" when there are any.
# 15: a source's "licences" entry has "package_copyrights" (each {"copyright", "file"}) when its
#    top-level package states a ``__copyright__`` string (requests 2.32's "Copyright Kenneth
#    Reitz"), the release's holders when its licence and NOTICE files name none
#    (lineage.licences.declared); obligations.csv's upstream_copyrights_from says
#    "package:<file>" for rows that took it.
# 16: "marked_without_copied_files.named_file_not_python": of the marked files without copied
#    code, those whose marker names a file that is no Python file (a C or CUDA source a comment
#    cites), counted apart from named_file_absent, which no longer holds them (pandas 2.2.3's
#    blocks.py, naming numpy's calculation.c, was said to name a file "removed, renamed or moved").
# 17: "not_compared": per side ("target"; "upstreams" by label), the source files in another
#    language that lineage does not compare (Cython, C/C++, CUDA, Rust, Go, JavaScript/TypeScript,
#    Java, Fortran), counted per suffix (lineage.index.records.other_code_counts); summary.md says
#    so below its Python file counts when any side holds some (cytoolz 1.0.0's five .pyx and seven
#    .pxd files went unmentioned).
#    Also (the same session) "declared_reuse_from_target": the sentences of an upstream's
#    description that state reuse and name the target, as "declared_reuse" (the code may have
#    gone the other way: aioredis 2.0.1's "Port redis-py's client implementation to aioredis"
#    against redis 5.2.0); summary.md quotes them under "Reuse an upstream's description states
#    from the target" when there are any.
# 18: "vendored_not_compared": per vendoring record of the target that marks no file here (it
#    names no upstream compared), the Python files it speaks for, their code lines and the
#    "--upstream" that would compare them (lineage.results.figures.vendored_not_compared);
#    summary.md lists them under "Vendored packages not compared" (pex 2.20.3 against appdirs
#    said nothing of the pip, setuptools and attrs its records pin); without the record's line
#    (no part of the recorded input), dropped before format 18 left main.
# 19: each "upstreams" entry carries "own_project": what makes it a release of the target's own
#    project (lineage.index.project.one_project_evidence: "the same distribution name", ...), ""
#    when it is another project's; `lineage check` leaves such an upstream's copies out of its
#    marker items (pydantic 2.10.6 against the 1.10.19 its v1/ carries: 11,929 code lines).
# 20: "folder_renames": every pair of folders at least rename_min_files target files voted for
#    as a package rename (their files at the same place below the other name), with its votes,
#    the voting files below the target folder and whether it was learnt (rename_min_share;
#    lineage.match.renames.folder_votes); summary.md says them below its Python file counts. A
#    reviewer of pypdf 3.17.4 against PyPDF2 1.26.0 could not tell that `pypdf/` was not read as
#    `PyPDF2/` (3 of 17 voting files keep their place), nor a fork auditor of ruamel.yaml that
#    `ruamel/yaml/` was read as `lib3/yaml/` (round fork160's Left).
SUMMARY_VERSION = 20


def summary_dict(comparison: Comparison, groups: dict[str, pd.DataFrame] | None = None,
                 shared: dict[str, object] | None = None, parties: list[Party] | None = None) -> dict[str, object]:
    """summary.json: the comparison's conclusions (:mod:`lineage.results.figures`) with its inputs;
    ``groups``, ``shared``, ``parties``: ``comparison.groups``, ``comparison.shared`` and
    ``comparison.third_parties(shared)`` when the caller has them already."""
    target, files = comparison.target, comparison.files
    # The review lists, made once for every figure below that reads them (each of the
    # comparison's properties makes its own).
    groups = groups if groups is not None else comparison.groups
    numbers = figures.file_numbers(files, groups)
    shared = shared if shared is not None else comparison.shared
    parties = parties if parties is not None else comparison.third_parties(shared)
    return {
        "format": SUMMARY_FORMAT,
        "format_version": SUMMARY_VERSION,
        "lineage_version": __version__,
        "target": {"spec": target.info.spec, "label": target.info.label, "digest": target.info.digest,
                   "tree_digest": target.tree_digest},
        "upstreams": [{"spec": u.info.spec, "label": label, "digest": u.info.digest,
                       "tree_digest": u.tree_digest,
                       "own_project": comparison.own_projects[label]}
                      for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True)],
        "files": figures.file_counts(files, groups),
        "not_compared": not_compared(comparison),
        **{name: n.to_dict() for name, n in numbers.items()},
        "per_upstream": comparison.per_upstream,
        "shared": shared,
        "third_parties": [party.to_dict() for party in parties],
        "vendored": comparison.vendored,
        "vendored_not_compared": comparison.vendored_not_compared,
        "target_names": list(comparison.target_names),
        "declared_reuse": comparison.declared_reuse,
        "declared_reuse_from_target": comparison.declared_reuse_from_target,
        "upstream_origins": _origins_list(comparison.origins),
        "folder_renames": [vote.to_dict() for vote in comparison.folder_votes],
        "regions": int(len(comparison.regions)),
        "headline": figures.headline(files, comparison.upstream_names, numbers),
        "lists": figures.review_lists(groups),
        "marked_without_copied_files": figures.named_files(groups["marked_without_copied"]),
        "licences": {"target": source_licence(target).to_dict(),
                     "upstreams": {label: source_licence(u).to_dict()
                                   for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True)}},
        "obligations": obligation_counts(comparison.obligations),
    }


def _folder_renames_sentence(votes: list[dict[str, object]], params: MatchParams, shown: int = 6) -> str:
    """summary.md's sentence on the package renames the files voted for (summary.json
    ``folder_renames``): which were learnt, so that a file at the same place below the other
    folder is the upstream file's later version, and which had too few of the folder's files (the
    ``shown`` most voted; the rest counted); "" when no pair had ``rename_min_files`` votes."""
    if not votes:
        return ""
    listed = [v for v in votes if v["learnt"]] + [v for v in votes if not v["learnt"]][:shown]
    rest = len(votes) - len(listed)

    def folder(path: object) -> str:
        return md_code(f"{path}/") if path else "the root"

    def one(vote: dict[str, object]) -> str:
        verdict = "learnt" if vote["learnt"] else "not learnt"
        return (f"{folder(vote['target_folder'])} as {folder(vote['upstream_folder'])} {verdict} "
                f"({vote['files']:,} of {vote['voting_files_below']:,} files)")

    return ("Folder renames (a target folder is read as an upstream folder when at least "
            f"{params.rename_min_files:,} of its files, and {params.rename_min_share * 100:g} % of its files with an "
            "upstream file, keep their upstream place below it; summary.json `folder_renames`): "
            + "; ".join(one(vote) for vote in listed)
            + (f"; {counted(rest, 'more pair')} not learnt." if rest else "."))


def _part(origin: dict[str, object]) -> str:
    """" (lines 10-20)" for a section of an upstream file, "" for a whole file."""
    lines = origin.get("lines")
    return f" (lines {lines[0]}-{lines[1]})" if isinstance(lines, list) else ""


def _origins_list(origins: pd.DataFrame) -> list[dict[str, object]]:
    def number(value: object) -> int | None:
        return None if pd.isna(value) else int(value)  # type: ignore[call-overload]

    return [{"upstream": r.upstream, "path": r.upstream_path, "origin": r.origin, "name": r.name,
             "evidence": r.evidence, "line": number(r.line),
             "lines": None if pd.isna(r.first_line) else [number(r.first_line), number(r.last_line)]}
            for r in origins.itertuples()] if len(origins) else []


def _table(frame: pd.DataFrame, limit: int = 60, named: bool = False) -> list[str]:
    """A review list as a table, most copied code first; ``named``: the upstream column shows the
    file the marker names (files without copied code have no upstream file of their own)."""
    if frame.empty:
        return ["(none)", ""]
    ranked = frame.assign(copied=frame["verbatim_code_lines"] + frame["near_code_lines"]).sort_values(
        ["copied", "target_path"], ascending=[False, True], kind="stable")
    rows = ([md_code(row.target_path), f"{row.code_lines:,}", f"{row.verbatim_code_lines:,}",
             f"{row.near_code_lines:,}", _named(row) if named else _upstream_cell(row),
             md_text(row.marker, 80)]
            for row in ranked.head(limit).itertuples())
    return md_table(["target file", "code lines", "verbatim code", "near code",
                     "file the marker names" if named else "upstream file", "marker"],
                    ["---", "---:", "---:", "---:", "---", "---"], rows, len(ranked), "files.csv")


def _prose_table(frame: pd.DataFrame, limit: int = 60) -> list[str]:
    """Files with copied comments or docstrings only, most copied lines first."""
    ranked = frame.assign(copied=frame["verbatim_lines"] + frame["near_lines"]).sort_values(
        ["copied", "target_path"], ascending=[False, True], kind="stable")
    rows = ([md_code(row.target_path), f"{row.nonblank_lines:,}", f"{row.verbatim_lines:,}", f"{row.near_lines:,}",
             _upstream_cell(row), md_text(row.marker, 80)]
            for row in ranked.head(limit).itertuples())
    return md_table(["target file", "non-blank lines", "verbatim", "near", "upstream file", "marker"],
                    ["---", "---:", "---:", "---:", "---", "---"], rows, len(ranked), "files.csv")


def _upstream_cell(row) -> str:  # type: ignore[no-untyped-def]
    """A list table's upstream file: the one most copied lines came from, and the file the marker
    names when that is another (a marker cut to 80 characters may not show it: huggingface-hub's
    ``_torch.py`` names transformers' ``pytorch_utils.py`` after a commit hash, and its most copied
    lines are ``modeling_utils.py``'s). A folder the marker names that holds the file is no other."""
    cell = _code_or_dash(row.upstream_path)
    named = getattr(row, "marker_upstream_path", "")
    if marker_names_another_file(str(row.upstream_path or ""), named if isinstance(named, str) else ""):
        cell += f" (the marker names {md_code(named)})"
    return cell


def marker_names_another_file(upstream_path: str, named: str) -> bool:
    """Whether a marker's upstream path (``marker_upstream_path``) is neither the file most copied
    lines came from nor a folder holding it (a list table then shows both: :func:`_upstream_cell`)."""
    return bool(upstream_path and named) and named != upstream_path \
        and not upstream_path.startswith(named.rstrip("/") + "/")


def _code_or_dash(text: object) -> str:
    return md_code(str(text)) if isinstance(text, str) and text else "–"


def _named(row) -> str:  # type: ignore[no-untyped-def]
    """The file a marker names, as written, and the upstream file it was found as when that is
    another path (a dotted name's function: pip 24.2's "a copy of ``pkg_resources.to_filename()``"
    names ``pkg_resources/to_filename.py``, found as ``pkg_resources/__init__.py``; other letter
    case; trailing folders), or that the trees compared hold none."""
    path = getattr(row, "marker_path", "")
    if not isinstance(path, str) or not path:
        return "–"
    missing = figures.names_missing_file(path, getattr(row, "marker_path_found", pd.NA))
    if missing:
        return md_code(path) + " (not in the trees compared)"
    found = getattr(row, "marker_upstream_path", "")
    return md_code(path) + (f" (found as {md_code(found)})" if isinstance(found, str) and found
                            and found.strip("/") != path.strip("/") else "")


def _named_files_markdown(named: dict[str, object], pypi_names: list[str]) -> list[str]:
    """The sentence above the marked files without copied code: which of them name a file the
    upstream no longer holds, and the releases to compare against instead (as a ``pypi:`` spec
    when the one upstream came from PyPI: ``pypi_names``)."""
    absent, present, none = (int(named[k]) for k in ("named_file_absent", "named_file_present",  # type: ignore[call-overload]
                                                      "no_file_named"))
    not_python = int(named.get("named_file_not_python", 0))  # type: ignore[call-overload]
    no_code = int(named.get("no_code", 0))  # type: ignore[call-overload]
    if absent + present + none + no_code + not_python == 0:
        return []

    def verb(n: int, one: str, many: str) -> str:
        return f"{n:,} {one if n == 1 else many}"

    parts = []
    if absent:
        parts.append(verb(absent, "names", "name") + " an upstream file that the trees compared do not hold "
                     "(removed, renamed or moved since the copy was taken: this comparison cannot show what was "
                     "copied)")
    if not_python:
        parts.append(verb(not_python, "names", "name") + " a file that is no Python file (a C or CUDA source its "
                     "comment cites: only Python files are compared, so no release can show it)")
    if present:
        parts.append(verb(present, "names", "name") + " one they hold (its code was rewritten since, on one side "
                     "or both)")
    if none:
        parts.append(verb(none, "names", "name") + " no file")
    # a file without a code line has nothing to show copied: said apart, not explained as rewritten
    lead = (f"{no_code:,} hold{'s' if no_code == 1 else ''} no code line (empty, or comments and docstrings "
            "only: nothing to show copied)") if no_code else ""
    if not parts:
        out = [f"Of these, {lead}."]
    else:
        out = ["Of these, " + (f"{lead}; of the others, " if lead else "") + ", ".join(parts[:-1])
               + (" and " if len(parts) > 1 else "") + parts[-1] + "."]
    releases, commits, other = (named[k] for k in ("releases", "commits", "other"))
    assert isinstance(releases, list) and isinstance(commits, list) and isinstance(other, list)
    if absent and (releases or commits or other):
        said = []
        if releases:
            said.append("releases " + ", ".join(f"{md_code(r['ref'])} ({r['files']:,})" for r in releases))
        if commits:
            said.append(f"{len(commits):,} commit{'' if len(commits) == 1 else 's'}")
        said += [f"{md_code(r['ref'])} ({r['files']:,})" for r in other]
        # the absent ones whose marker states no release or commit, so that the counts add up
        # (vLLM 0.32.0 against transformers 5.16.1: "The markers of the 6 point at releases
        # `4.28.0` (1), `4.39.3` (1) and 2 commits" left out two "Ported from
        # ``transformers.models.gemma4.utils_gemma4``" files)
        unstated = int(named.get("none", 0))  # type: ignore[call-overload]
        line = (f"The markers of the {absent:,} point at " + ", ".join(said[:-1]) + (" and " if len(said) > 1 else "")
                + said[-1] + " (files in brackets)"
                + (f"; {verb(unstated, 'states', 'state')} no release or commit" if unstated else "") + ".")
        if releases and len(pypi_names) == 1:
            example = md_code(f"pypi:{pypi_names[0]}=={releases[0]['ref']}")
            line += (" To measure what was taken, compare those files against the release their marker names "
                     f"(for example {example} as the upstream).")
        out.append(line)
    return [" ".join(out), ""]


def input_digests(digest: str, tree_digest: str) -> str:
    """What identifies an input in summary.md, each digest named, the same for the target and the
    upstreams: the archive's sha256 (what ``pip download`` gives; a git source's commit) and the
    digest of its Python tree. The target's line once gave the tree digest alone and the
    upstreams' the archive's, both as a bare ``sha256:...``, so nextcord 2.6.0's sdist
    (``sha256:ccf46...``) read as ``sha256:a2de1...``."""
    named = [f"archive {digest}" if digest.startswith("sha256:") else digest] if digest else []
    return "; ".join([*named, f"Python tree {tree_digest}"])


def summary_markdown(comparison: Comparison, summary: dict[str, object] | None = None,
                     groups: dict[str, pd.DataFrame] | None = None, parties: list[Party] | None = None) -> str:
    """summary.md; ``summary``: :func:`summary_dict` of the comparison, ``groups``:
    ``comparison.groups``, ``parties``: the third parties its ``third_parties`` came from, when
    the caller has them already."""
    groups = groups if groups is not None else comparison.groups
    summary = summary if summary is not None else summary_dict(comparison, groups)
    parties = parties if parties is not None else comparison.third_parties(summary["shared"])  # type: ignore[arg-type]
    files = summary["files"]
    assert isinstance(files, dict)
    out = [f"# lineage: {md_text(comparison_title(comparison))}", ""]
    out += [f"- {line}." for line in summary["headline"]]  # type: ignore[union-attr]
    target = comparison.target
    out += ["", f"Target: {md_code(target.info.spec)} ({input_digests(target.info.digest, target.tree_digest)}).  "]
    for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True):
        digests = input_digests(u.info.digest, u.tree_digest)
        out.append(f"Upstream {md_text(label)}: {md_code(u.info.spec)} ({digests}).  ")
    out += ["", f"Python files: {files['python']:,} ({files['indexed']:,} indexed, {files['skipped']:,} "
            f"skipped, {files['with_parse_errors']:,} with syntax errors indexed from the "
            "error-tolerant parse). A line is *verbatim* when its stripped text equals the upstream "
            "line it names; *near* when it was copied with edits. Only lines inside a copied region "
            "count: a common line that merely exists upstream is not evidence.", ""]
    if sentence := not_compared_sentence(summary["not_compared"], md_text):  # type: ignore[arg-type]
        out += [sentence, ""]
    if sentence := _folder_renames_sentence(summary["folder_renames"], comparison.params):  # type: ignore[arg-type]
        out += [sentence, ""]
    not_read = Counter(reason for _, reason in comparison.target.info.skipped)
    if not_read:  # a symlinked folder may hold Python files no figure counts
        out += [f"Entries of the target not read: {sum(not_read.values()):,} ("
                + ", ".join(f"{reason} {n:,}" for reason, n in sorted(not_read.items()))
                + "; paths in manifest.json `target.skipped_members`).", ""]
    out += _declared_reuse_markdown(summary["declared_reuse"])  # type: ignore[arg-type]
    out += _from_target_markdown(summary["declared_reuse_from_target"])  # type: ignore[arg-type]
    titles = {
        "marked_with_copied": "Marked files with copied code",
        "marked_without_copied": "Marked files with no copied code",
        "unmarked_with_copied": "Unmarked files with copied code (review these)",
    }
    for key, title in titles.items():
        out += [f"## {title}: {len(groups[key]):,}", ""]
        if key == "unmarked_with_copied" and len(groups[key]):
            out += _own_release_sentence(comparison)
            out += _vendored_elsewhere_sentence(comparison.target, [str(p) for p in groups[key]["target_path"]])
        if key == "marked_without_copied":
            out += _named_files_markdown(summary["marked_without_copied_files"],  # type: ignore[arg-type]
                                         [str(u.info.details["name"]) for u in comparison.upstreams
                                          if u.info.kind == "pypi" and u.info.details.get("name")])
        out += _table(groups[key], named=key == "marked_without_copied")
    reexports = groups["reexport_with_copied"]
    if len(reexports):  # in none of the lists above: said here, so that the marked files add up
        n_marked = int((reexports["marker"] != "").sum())
        out += [f"## Re-export-only files with copied code lines: {len(reexports):,}", "",
                f"Files that only import and re-export names (`file_role` `reexport`), {n_marked:,} of them "
                "marked: their copied lines are not evidence on their own, so they are in none of the lists "
                "above (summary.json `lists.reexport_with_copied`).", ""] + _table(reexports)
    prose_only = groups["prose_only_copied"]
    if len(prose_only):  # copied text that no list of copied code holds
        out += [f"## Files with copied comments or docstrings only: {len(prose_only):,}", "",
                "Files whose copied lines are all comments or docstrings (no copied code line): no evidence "
                "of copied code, so in none of the lists above, but text the upstream's licence covers "
                "too (summary.json `lists.prose_only_copied`; their pairs are in obligations.csv).", ""]
        out += _prose_table(prose_only)
    out += _vendored_markdown(summary["vendored"])  # type: ignore[arg-type]
    out += _not_compared_records_markdown(summary["vendored_not_compared"])  # type: ignore[arg-type]
    out += _shared_markdown(summary, groups, parties)
    out += DEFINITIONS
    from lineage.report.obligations import obligations_markdown

    out += obligations_markdown(comparison)
    return "\n".join(out) + "\n"


def _own_release_sentence(comparison: Comparison) -> list[str]:
    """Above the unmarked files with copied code, when an upstream is a release of the target's
    own project (the same distribution name: attrs 24.2.0 against attrs 17.4.0): those files hold
    the project's own earlier code, which no marker names; [] otherwise."""
    evidence = comparison.own_projects
    own = [label for label, why in evidence.items() if why]
    if not own:
        return []
    why = "; ".join(sorted({evidence[label] for label in own}))
    return [f"{', '.join(md_text(label) for label in own)} {'is a release' if len(own) == 1 else 'are releases'} "
            f"of the target's own project ({why}): these files carry the project's own "
            "earlier code, which no marker needs to name; they need review only where code from elsewhere came "
            "in through that release.", ""]


def _vendored_elsewhere_sentence(target: TreeIndex, paths: list[str]) -> list[str]:
    """Above the unmarked files with copied code, those (``paths``) that lie where a vendoring
    record of the target puts a project no upstream is (a record naming an upstream marks its
    files): such a file is that project's code, and what it holds from the upstream came in with
    it (pdm-backend 2.4.3's ``_vendor/pyproject_metadata/errors.py``, pyproject-metadata 0.9.0's
    per its ``vendor.txt``, holds packaging's ``ExceptionGroup``); [] when none does."""
    from lineage.index.vendoring import vendor_markers

    found = vendor_markers(target.vendoring, paths)
    if not found:
        return []
    by_record: dict[str, list[str]] = {}
    for path in paths:
        if path in found:  # the innermost record speaks for the file
            by_record.setdefault(found[path][0].text, []).append(path)
    said = "; ".join(f"{md_text(record)}: " + ", ".join(md_code(p) for p in sorted(files))
                     for record, files in sorted(by_record.items()))
    n = sum(map(len, by_record.values()))
    return [f"{n:,} of these {'lies' if n == 1 else 'lie'} where a vendoring record of the target puts a project "
            f"that is no upstream here, {said}. Such a file is that project's code, whose copied lines came in "
            "with it; that release as a further `--upstream` shows which of them it holds.", ""]


def _statement_items(statements: list[dict[str, object]]) -> list[str]:
    """Statements of reuse (summary.json ``declared_reuse`` and ``declared_reuse_from_target``)
    as list items: the upstream, the file and line, the sentence."""
    return [f"- {md_text(str(s['upstream']))}, {md_code(str(s['path']))} line {s['line']}: "
            f"\u201c{md_text(str(s['text']))}\u201d" for s in statements]


def _from_target_markdown(statements: list[dict[str, object]]) -> list[str]:
    """An upstream's own statements of reuse from the target: a section only when there is one."""
    if not statements:
        return []
    out = [f"## Reuse an upstream's description states from the target: {len(statements):,}", "",
           "Sentences of an upstream's package description (or README) that say it took code from the "
           "target and name it: lines shared with that upstream may have gone from the target to it, "
           "not the other way; they mark no file and change no figure (summary.json "
           "`declared_reuse_from_target`).", ""]
    return [*out, *_statement_items(statements), ""]


def _declared_reuse_markdown(statements: list[dict[str, object]]) -> list[str]:
    """The target's own statements of reuse from an upstream: a section only when there is one."""
    if not statements:
        return []
    from lineage.index.project import LICENCE_FILE_RE

    renamed = sum(1 for s in statements if s.get("kind") == RENAMED_FROM)
    said = ("say it took code from an upstream, or was once called by its name, and name it"
            if renamed else "say it took code from an upstream and name it")
    # its licence files named only when a statement is from one
    where = "package description (or README)" + (
        ", or of its licence files," if any(LICENCE_FILE_RE.fullmatch(str(s["path"])) for s in statements) else "")
    out = [f"## Reuse the target's description states: {len(statements):,}", "",
           f"Sentences of the target's {where} that {said}; they mark no file and "
           "change no figure (summary.json `declared_reuse`)"
           + (f"; {renamed:,} of them {'names' if renamed == 1 else 'name'} the upstream as the target's own earlier "
              "name (`kind` `renamed_from`: a release of that distribution name is taken for a release of the target's "
              "own project)." if renamed else "."), ""]
    return [*out, *_statement_items(statements), ""]


def _vendored_markdown(records: list[dict[str, object]]) -> list[str]:
    """The vendoring records that mark files: a section only when there is one."""
    if not records:
        return []
    out = [f"## Vendored copies: {len(records):,} vendoring record{'' if len(records) == 1 else 's'}", "",
           "Files marked through a vendoring record of the target (a `vendor.txt` line, a vendored "
           "`*.dist-info`), per record. A pin other than the release compared explains near lines: "
           "compare against the pinned release to see what was changed.", ""]
    rows = []
    for r in records:
        ups = r["upstreams"]
        assert isinstance(ups, list)
        compared = ", ".join(f"{u['label']} {u['version']}".strip() for u in ups) or "(no copied code)"
        code, copied = int(r["code_lines"]), int(r["verbatim_code_lines"]) + int(r["near_code_lines"])  # type: ignore[call-overload]
        rows.append([md_text(str(r["record"]), 100), md_text(str(r["declared_version"]) or "(none)"),
                     md_text(compared), f"{r['files']:,}", f"{r['files_with_copied_code']:,}", f"{code:,}",
                     f"{r['verbatim_code_lines']:,}", f"{r['near_code_lines']:,}", percent(copied, code)])
    return out + md_table(["record", "pins", "compared with", "files", "with copied code", "code lines",
                           "verbatim code", "near code", "copied"],
                          ["---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:"], rows, len(rows),
                          "summary.json")


def _not_compared_records_markdown(records: list[dict[str, object]]) -> list[str]:
    """The target's vendoring records that mark no file here: a section only when there is one."""
    if not records:
        return []
    out = [f"## Vendored packages not compared: {counted(len(records), 'vendoring record')}", "",
           "Vendoring records of the target (a `vendor.txt` line, a vendored `*.dist-info`) that mark no "
           "file here: they name no upstream of this comparison (or the files they list are absent). Their "
           "files are that project's code and count in the figures above as any file does; the `--upstream` "
           "shown compares them with the release the record pins (summary.json `vendored_not_compared`).", ""]
    rows = ([md_text(str(r["record"]), 100), md_text(str(r["declared_version"]) or "(none)"), f"{r['files']:,}",
             f"{r['code_lines']:,}", _next_record_step(r)]
            for r in records)
    return out + md_table(["record", "pins", "files", "code lines", "next step"],
                          ["---", "---", "---:", "---:", "---"], rows, len(records), "summary.json")


def _next_record_step(record: dict[str, object]) -> str:
    """The next-step cell of a record not compared: its ``--upstream``, or why there is none."""
    if record["upstream_spec"]:
        return md_code(f"--upstream {record['upstream_spec']}")
    return "(no pin)" if not record["declared_version"] else "(no PyPI release: a local or unreadable version)"


def _shared_markdown(summary: dict[str, object], groups: dict[str, pd.DataFrame],
                     parties: list[third_party.Party]) -> list[str]:
    shared = summary["shared"]
    assert isinstance(shared, dict)
    third, back = shared["third_party"], shared["from_target"]
    out = [f"## Shared third-party code: {counted(third['files'], 'target file')}", "",
           f"{third['lines']:,} non-blank lines ({third['code_lines']:,} code) of these files are shared with "
           "upstream files that are themselves third-party code (a vendored folder or one with its own licence "
           "file of another licence, or a header naming another origin) and the target file does not name "
           "the upstream: they are not counted as copied from the upstream. A further `--upstream` for that "
           "third party attributes them.", ""]
    if parties:  # most lines first
        rows = ([_party_cell(p.step), f"{p.counts['files']:,}", f"{p.counts['lines']:,}",
                 f"{p.counts['code_lines']:,}", f"{p.counts['upstream_files']:,}", _next_step(p.step)]
                for p in parties[:40])
        out += md_table(["third party", "target files", "lines", "code lines", "upstream files", "next step"],
                        ["---", "---:", "---:", "---:", "---:", "---"], rows, len(parties), "summary.json")
        # said only when a step came from a record, so a run without one reads as before
        named = ("The upstream's own vendoring record (a `vendor.txt` line, a vendored `*.dist-info`) pinning "
                 "it names that release, else the target's records of the target files sharing its lines, when "
                 "they pin one release (a record names it by its distribution, or by the package its origin "
                 "markers name: `jaraco.text` for `jaraco`); else a PyPI "
                 if any(p.step.recorded_in for p in parties) else "A PyPI ")
        out += ["*next step*: with the third party as a further `--upstream`, the shared lines it does not "
                f"hold are the upstream's own again, counted as copied (`origin_third_party_lines`). {named}"
                "distribution is named only when the upstream's declared requirements, or else the target's, "
                "require one of the third party's name; the release is the one the upstream's requirement "
                "pins, else the lowest it allows (summary.json `third_parties`).", ""]
    out += [f"## Shared with an upstream file that was taken from the target: {counted(back['files'], 'target file')}",
            "",
            f"{back['lines']:,} non-blank lines ({back['code_lines']:,} code) are shared with upstream files "
            "whose header says they came from the target (marker, URL into its repository, or its "
            "authors' copyright) or that lie in a vendored folder under the target's name, or with a part "
            "of one that a marker there says came from the target; "
            "the target file does not name that upstream file. Not counted as copied.", ""]
    origins = [o for o in summary["upstream_origins"] if o["origin"] == "from_target"]  # type: ignore[union-attr]
    if origins:  # every upstream file or part that says so, whether or not a target file shares lines with it
        out += [f"The {len(origins):,} upstream files or parts whose header, marker or vendored folder says they "
                "came from the target:", "", "| upstream file | evidence |", "|---|---|"]
        for o in origins:  # a vendored folder's evidence has no line
            where = f"line {o['line']}: " if o["line"] else ""
            out.append(f"| {md_code(o['path'])}{_part(o)} | {where}{md_text(o['evidence'], 100)} |")
        out.append("")
    n_reexport = len(groups["reexport_with_copied"])
    out += [f"Licence and copyright header lines: {shared['header_copied_lines']:,} labelled copied as part of "
            f"copied code; {shared.get('headers', {}).get('lines', 0):,} paired outside copied code and not "
            f"counted; {counted(shared['files_sharing_header_lines'], 'target file')} "
            f"{'carries' if shared['files_sharing_header_lines'] == 1 else 'carry'} SPDX or copyright lines an "
            f"upstream file carries too (files.csv `header_shared_lines`). Generated files set apart: "
            f"{shared.get('generated', {}).get('files', 0):,}; re-export-only files with copied lines, not "
            f"listed above: {n_reexport:,}.", ""]
    return out


def _party_cell(step: third_party.Step) -> str:
    """A third party's name cell: as the origin rules name it (the key of lines.csv's
    ``shared_origin``), and the distribution a record or requirement names for it when that is
    another name ("jaraco (`jaraco.text`)": pip's marker reads the package ``jaraco.text``)."""
    name = md_text(step.name, 60)
    dist = step.distribution
    if dist is None or canonicalize_name(dist) == canonicalize_name(step.name):
        return name
    return f"{name} ({md_code(dist)})"


def _next_step(step: third_party.Step) -> str:
    """A third party's *next step* cell: the advice with inputs' text escaped, or that the third
    party is an upstream of the run. Then its lines still set apart are paired with the copy of
    the upstreams it came through, nearer the target's than the third party's own files (boto
    2.49.0's six 1.9.0, botocore 1.10.50's six 1.10.0, six 1.16.0 in the run): copied from neither
    as counted, which "none" alone would hide; a run with the third party alone pairs with it those it holds."""
    said = step.text(md_code, md_text)
    if step.upstream_of_run is None:
        return said or ""
    name = md_text(step.upstream_of_run)
    via = ", ".join(md_text(u) for u in step.through) or "the upstream"
    return (f"none to add: {name} is an upstream of this run, but these lines are paired with {via}'s copy, "
            f"nearer the target's than {name}'s own files, and count as copied from neither (a run with "
            f"{name} alone pairs with it those it holds)" + (f"; {said}" if said else ""))


# Every figure and column, defined once (the README's "Figures and columns" says the same).
DEFINITIONS = [
    "## Definitions", "",
    "- *code line*: a line tree-sitter parses as code (not comment, docstring or blank); *non-blank*: "
    "code, comment or docstring.",
    "- `match`: `verbatim` when the stripped text equals the upstream line it is paired with, `near` when "
    "it was copied with edits, `none` otherwise. A line is copied only inside a copied region; lines "
    "shared with a third-party or from-target upstream file, header lines outside copied code and "
    "generated files are `none` with `shared_origin` saying why.",
    "- `similarity`: rapidfuzz ratio of the two stripped, whitespace-folded texts (partial ratio for a "
    "piece of a re-wrapped statement), floored to 3 decimals: 1.0 exactly for `verbatim`, at most 0.999 "
    "and at least `near_floor_similarity` for `near` (`near_floor_similarity_prose` for a comment or docstring "
    "line), 0 for `none`.",
    "- `copied_share`: (verbatim + near) non-blank lines / non-blank lines of the file.",
    "- *marked*: the file carries a provenance marker naming an upstream (label, package or repository), "
    "or lies in a folder its tree records as that upstream vendored (a `vendor.txt` line or a vendored "
    "`*.dist-info`: marker kind `vendored`, no marker line), or, failing a record, in a folder of the target's "
    "own package named after it, at its file's own path, or a single module named after a one-module upstream "
    "in a vendoring folder of the target's package (`_vendor/pyparsing.py`; marker kind `folder`), or, failing "
    "these, a copyright "
    "line naming it "
    "(marker kind `copyright`; also the ASF header's \"Licensed to HOLDER under one or more contributor license "
    "agreements\").",
    "- `marker_path` (files.csv): the upstream path the marker names, as written (a dotted name read as a "
    "path); `marker_path_found`: whether the upstream holds it (exactly, by its trailing folders, in other "
    "letter case, as the module of a named function, as the one file of a package defining a named name, "
    "as a private module a dotted name spells by its public name (`py.path.common`: `py/_path/common.py`), "
    "or as a folder); "
    "`marker_upstream_path`: the upstream file or folder it was found as; `marker_ref`: the tag or commit of "
    "its URL, else the release its text names after the project (\"copied from py 1.8.1\").",
    "- *with copied code*: at least one code line `verbatim` or `near`; a re-export-only file "
    "(`file_role` `reexport`) is not evidence on its own.",
    "- `shared_origin`: `third_party:<name>` (the upstream file lies in a vendored folder, or in a folder "
    "holding a licence file of another licence than the release's, or its header names another origin or "
    "only other holders' copyright), `from_target` (its header says it came from "
    "the target, or it lies in a vendored folder under the target's name), `header`, `generated`; "
    "`shared_evidence` is the upstream file's folder or marker.",
    "",
]


def not_compared(comparison: Comparison) -> dict[str, object]:
    """summary.json ``not_compared``: per side, its source files in another language, per suffix."""
    return {"target": dict(comparison.target.other_code),
            "upstreams": {label: dict(u.other_code)
                          for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True)}}


def comparison_title(comparison: Comparison) -> str:
    """What summary.md and the HTML index are titled: "sglang 0.5.23 against vllm 0.32.0", each
    source's run label with its release or commit (:func:`~lineage.report.attachments.versioned_name`)."""
    from lineage.report.attachments import versioned_name

    upstreams = [versioned_name(u, label)
                 for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True)]
    return f"{versioned_name(comparison.target)} against {', '.join(upstreams)}"


def not_compared_sentence(not_compared: dict[str, object], text: Callable[[str], str] = str) -> str:
    """The sentence that names the source files in another language each side holds, which no
    figure counts (summary.md and the HTML index say it alike; ``text`` escapes a label for
    either); "" when no side holds any."""
    sides = [("the target", not_compared["target"])] + [
        (f"upstream {text(label)}", counts)
        for label, counts in not_compared["upstreams"].items()]  # type: ignore[attr-defined]
    held = [(who, counts) for who, counts in sides if counts]
    if not held:
        return ""
    parts = [f"{who} {sum(counts.values()):,} (" + ", ".join(f"{suffix} {n:,}" for suffix, n in counts.items()) + ")"
             for who, counts in held]  # type: ignore[attr-defined]
    return ("Source files in other languages, not compared (lineage reads Python files only; no figure "
            "counts them): " + "; ".join(parts) + ".")


class SummaryReporter:
    """summary.json and summary.md (a :class:`lineage.report.Reporter`)."""

    report_type = "summary"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        groups = comparison.groups
        shared = comparison.shared
        parties = comparison.third_parties(shared)  # summary.json's entries and summary.md's next steps
        summary = summary_dict(comparison, groups, shared, parties)
        folder.text("summary.json", json.dumps(summary, indent=2, sort_keys=False) + "\n")
        folder.text("summary.md", summary_markdown(comparison, summary, groups, parties))
