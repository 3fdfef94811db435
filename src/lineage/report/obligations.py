"""obligations.csv (columns in :mod:`lineage.results.obligations`), ATTRIBUTION.md, and the
licence section of summary.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import pandas as pd

from lineage.index.project import one_project
from lineage.licences.expressions import PUBLIC_DOMAIN, asks_nothing_alone, choices, licence_ids, readable
from lineage.licences.notices import distinct_copyrights
from lineage.markers.attribution import field_statement
from lineage.match.holders import holder, holder_key, names_own_holder
from lineage.report.markdown import counted, md_code, md_table, md_text
from lineage.report.tables import write_csv
from lineage.results.obligations import (
    MISSING_KINDS,
    RELEASE_NOTICES,
    THIRD_PARTY,
    UNDER,
    asks_change_notice,
    held_by_organisation,
    source_licence,
    split_copyrights,
    terms,
    third_party_name,
)

if TYPE_CHECKING:
    from lineage.index import TreeIndex
    from lineage.licences.declared import SourceLicence
    from lineage.report.folder import ReportFolder
    from lineage.results import Comparison


def _pairs(n: int) -> str:
    """A count of (target file, upstream file) pairs: "1 pair", "2 pairs"."""
    return counted(n, "pair")


def _cell(text: object) -> str:
    return md_text(text)


def _licence_words(expression: str, brief: bool = False) -> str:
    """A licence as summary.md and ATTRIBUTION.md write it: the expression in code, and, when it
    names public domain, that in words (unless ``brief``, with what it asks: nothing; likewise
    for a licence that asks nothing, :func:`~lineage.licences.expressions.asks_nothing`)."""
    if not expression:
        return md_code("unknown")
    asks = "" if brief else ": no copyright line or licence notice to keep"
    if _public_domain_alone(expression):
        return f"{md_code(expression)} (public domain{asks})"
    if asks_nothing_alone(expression):
        return md_code(expression) + (f" (asks nothing{asks})" if asks else "")
    if PUBLIC_DOMAIN in licence_ids(expression):
        return f"{md_code(expression)} ({md_text(readable(expression))})"
    return md_code(expression)


def _public_domain_alone(expression: str) -> bool:
    return set(licence_ids(expression)) == {PUBLIC_DOMAIN}


def _own_organisation_sentence(comparison: Comparison, table: pd.DataFrame, label: str, upstream: TreeIndex) -> str:
    """Why ``modification_notice`` is ``not required`` for upstream ``label``'s files held by the
    organisation that holds the target's copyright (``Comparison.own_organisations``); "" when none is.
    Only pairs whose licence would ask a modified file to say so (:func:`asks_change_notice`) and
    whose file was modified: under BSD-3-Clause no file owes one, and pypdf 3.17.4 against PyPDF2
    1.26.0 read "held by the organisation that holds the target's copyright: it owes itself no
    statement of change" for 10 pairs the licence asked nothing of."""
    if one_project(comparison.target.project, upstream.project) or table.empty:
        return ""
    organisation = comparison.own_organisations[label]
    rows = table[table["upstream"] == label]
    # the licence checked: the choice ``upstream_licence_from`` names after UNDER, else the whole
    checked = [str(where).split(UNDER, 1)[1] if UNDER in str(where) else str(licence)
               for where, licence in zip(rows["upstream_licence_from"], rows["upstream_licence"], strict=True)]
    held = sum(1 for c, licence, modified in zip(rows["upstream_copyrights"], checked, rows["modified"], strict=True)
               if modified == "yes" and asks_change_notice(licence)
               and held_by_organisation(split_copyrights(str(c)), organisation))
    if not held:
        return ""
    return (f" The upstream files of {held} of its pairs are held by the organisation that holds the target's "
            f"copyright ({md_text(organisation)}): it owes itself no statement of change, so their "
            "`modification_notice` is `not required`.")


def _shared_holder_sentence(comparison: Comparison, table: pd.DataFrame, label: str, upstream: TreeIndex) -> str:
    """When upstream ``label``'s licence files name the target's own holder (one its licence files
    name) and pairs of it miss ``copyright``: that the direction is open. scrapy 2.11.2 against
    w3lib 2.2.1: w3lib's "Copyright (c) w3lib and Scrapy developers." names scrapy's "Scrapy
    developers"; ``to_unicode``, ``to_bytes`` and ``parse_url`` went from scrapy into w3lib, yet
    its two pairs read as scrapy's missing w3lib's copyright, and no file of either says which way
    the code went. "" otherwise (and for a release of the target's own project, or a fork that
    kept the upstream's notice: it misses no copyright; and when the target's description states
    reuse from this upstream, :attr:`~lineage.results.Comparison.declared_reuse`: that says which
    way, as pysnmp-lextudio 6.1.2's "This repo is a fork of Ilya Etingof's project etingof/pysnmp"
    against pysnmp 4.4.12, whose 2 pairs miss the third holder of one upstream file, not Etingof,
    whom the fork's licence file kept)."""
    if table.empty or one_project(comparison.target.project, upstream.project):
        return ""
    if any(s["upstream"] == label for s in comparison.declared_reuse):
        return ""
    mine = {k: line for line in source_licence(comparison.target).copyrights if (k := holder_key(holder(line)))}
    shared = [(line, own) for line in source_licence(upstream).copyrights
              for own in mine if names_own_holder(holder_key(holder(line)), frozenset({own}))]
    rows = table[table["upstream"] == label]
    missing = int(rows["missing"].str.contains("copyright", regex=False).sum())
    if not shared or not missing:
        return ""
    line, own = shared[0]
    return (f' Its licence files\' copyright line "{md_text(line)}" names the target\'s own holder too '
            f'("{md_text(holder(mine[own]))}", of the target\'s licence files): the two projects share authors, and '
            f"no file says which way the copied code went; its {_pairs(missing)} missing `copyright` may hold the "
            "target's code, taken by the upstream.")


def _own_release_sentence(evidence: str, table: pd.DataFrame, label: str) -> str:
    """Why an upstream that is a release of the target's own project (``evidence``:
    :func:`lineage.index.project.one_project_evidence`) owes no statement of change, and, when some of its pairs keep
    its holders' copyright lines nowhere though those holders are authors the target's metadata
    names (``keeps_copyright`` ``not required``, :func:`lineage.results.obligations.owed_itself`),
    which lines those are; "" when it is not one."""
    if not evidence:
        return ""
    out = (f" It is a release of the target's own project ({evidence}): its licensor owes it no statement of "
           "change, so `modification_notice` is `not required`.")
    rows = table[(table["upstream"] == label) & (table["keeps_copyright"] == "not required")] if len(table) else table
    if rows.empty:
        return out
    lines = credited_copyrights(rows["upstream_copyrights"])
    quoted = "; ".join(f'"{md_text(line)}"' for line in lines)
    return out + (f" In {_pairs(len(rows))} its copyright lines ({quoted}) are kept nowhere, but they name only "
                  "authors the target's metadata names: the project's own earlier notice, which it owes itself no "
                  "more than a statement of change, so their `keeps_copyright` is `not required`.")


def obligations_markdown(comparison: Comparison, limit: int = 40) -> list[str]:
    """The 'Licence obligations' section of summary.md."""
    table = comparison.obligations
    out = ["## Licence obligations", ""]
    target = source_licence(comparison.target)
    out.append(f"Target {md_text(comparison.target.info.label)}: declared {_licence_words(target.declared)}"
               + (f" ({md_text(target.declared_from)})." if target.declared_from else ".") + _family_sentence(target))
    for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True):
        lic = source_licence(u)
        notices = f"; NOTICE: {', '.join(lic.notice_paths)}" if lic.notice_paths else ""
        out.append(f"Upstream {md_text(label)}: declared {_licence_words(lic.declared)}"
                   + (f" ({md_text(lic.declared_from)}{md_text(notices)})." if lic.declared_from
                      else f"{md_text(notices)}.") + _family_sentence(lic)
                   + _choice_sentence(lic.declared, bool(lic.notice_paths))
                   + _release_sentence(table, label, lic.declared_raw)
                   + _third_party_sentence(table, label)
                   + _own_release_sentence(comparison.own_projects[label], table, label)
                   + _own_organisation_sentence(comparison, table, label, u)
                   + _shared_holder_sentence(comparison, table, label, u))
    out.append("")
    if table.empty:
        return out + ["No copied code, so no obligations.", ""]
    files = table["target_path"].nunique()
    # the verb agrees with the pairs' count: "1 (target file, upstream file) pair in 1 target file holds"
    out.append(f"{counted(len(table), '(target file, upstream file) pair')} in {counted(files, 'target file')} "
               f"{'holds' if len(table) == 1 else 'hold'} copied lines (one row each in `obligations.csv`). "
               "Missing in the target file:")
    out.append("")
    for kind in MISSING_KINDS:
        n = int(table["missing"].str.contains(kind, regex=False).sum())
        out.append(f"- {kind}: {_pairs(n)}" + (_not_kept_words(table) if kind == "copyright" and n else ""))
    conflicts = table[table["conflict"] == "yes"]
    unknown = int((table["conflict"] == "unknown").sum())
    out.append(f"- licence conflicts: {_pairs(len(conflicts))}; compatibility unknown: {unknown:,}")
    public = int(table["upstream_licence"].map(_public_domain_alone).sum())
    if public:  # said only when there are such pairs: other reports read as before
        out.append(f"- upstream file in the public domain: {_pairs(public)} (nothing to keep, compatible with "
                   "any licence)")
    free = int(table["upstream_licence"].map(asks_nothing_alone).sum()) - public
    if free:
        out.append(f"- upstream file under a licence that asks nothing (the Unlicense, CC0-1.0, 0BSD, MIT-0, "
                   f"WTFPL): {_pairs(free)} (nothing to keep, compatible with any licence)")
    out.append("")
    chosen = table["upstream_licence_from"].str.contains(UNDER, regex=False)
    if chosen.any():
        under = table.loc[chosen, "upstream_licence_from"].str.split(UNDER, n=1).str[1].value_counts()
        out += [f"{int(chosen.sum()):,} of these pairs have an upstream licence that offers a choice: each is "
                "counted under the choice that leaves least missing in the target file (a compatible one first; "
                f"ties: the first offered), which `upstream_licence_from` names after `{UNDER.strip()}`: "
                + ", ".join(f"{md_code(k)} {int(v):,}" for k, v in sorted(under.items())) + ".", ""]
    ranked = table[table["missing"] != ""].sort_values(["copied_lines", "target_path"], ascending=[False, True],
                                                       kind="stable")
    if len(ranked):
        rows = ([md_code(row.target_path), md_code(row.upstream_path), f"{row.copied_lines:,}",
                 _cell(readable(row.upstream_licence)) or "?", _cell(row.missing)]
                for row in ranked.head(limit).itertuples())
        out += md_table(["target file", "upstream file", "copied lines", "upstream licence", "missing"],
                        ["---", "---", "---:", "---", "---"], rows, len(ranked), "obligations.csv")
    return out


def _not_kept_words(table: pd.DataFrame, shown: int = 3) -> str:
    """The upstream copyright lines the target does not keep (obligations.csv's
    ``copyrights_missing``), the ``shown`` most often missing first, each with its pairs: which
    holder is missing, not only that one is (itsdangerous 2.2.0 against 1.1.0: the Django Software
    Foundation's line, not the Pallets team's)."""
    lost = Counter(line for cell in table["copyrights_missing"] for line in split_copyrights(str(cell)))
    if not lost:
        return ""
    top = sorted(lost, key=lambda line: (-lost[line], line))
    more = len(top) - shown
    return ("; not kept (`copyrights_missing`): "
            + ", ".join(f'"{md_text(line)}" ({_pairs(lost[line])})' for line in top[:shown])
            + (f" and {counted(more, 'more line')}" if more > 0 else ""))


def _replaced_words(rows: pd.DataFrame) -> list[str]:
    """ATTRIBUTION.md's lines on the target's copyright lines that state the years of an upstream
    line it does not keep under another holder (obligations.csv ``copyright_replaced_by``): the
    holder replaced on copied code, which crediting the upstream's holders means restoring."""
    replaced = Counter(line for cell in rows["copyright_replaced_by"] for line in split_copyrights(str(cell)))
    if not replaced:
        return []
    ranked = sorted(replaced.items(), key=lambda kv: (-kv[1], kv[0]))
    said = [f'- "{md_text(line)}" ({_pairs(n)})' for line, n in ranked]
    return ["", "Copyright lines of the target that state these holders' years under another holder (the "
            "holder replaced on copied code; obligations.csv `copyright_replaced_by`):", "", *said]


def _family_sentence(lic: SourceLicence) -> str:
    """For a release whose licence reads `unknown` though its metadata has a classifier naming a
    licence family (click 6.7: ``License: UNKNOWN``, "License :: OSI Approved :: BSD License", no
    licence file): why, since the family alone never decides which licence (2- or 3-clause);
    ``""`` otherwise."""
    if lic.declared or not lic.family_classifiers:
        return ""
    named = ", ".join(md_code(c) for c in lic.family_classifiers)
    one = len(lic.family_classifiers) == 1
    names = "names a licence family" if one else "name licence families"
    # the License field as written, so a reviewer sees it was read (pyasn1 0.1.9's "License: BSD",
    # unnamed beside its classifier); "UNKNOWN" states nothing
    raw = " ".join(lic.declared_raw.split())
    said = f" Its metadata's License field reads {md_code(raw)}; its" if raw and raw.upper() != "UNKNOWN" \
        else " Its metadata's"
    return (f"{said} classifier{'' if one else 's'} {named} {names}, not which licence of "
            f"{'it' if one else 'each'}, and no root licence file of the release states a licence lineage recognises.")


def _release_sentence(table: pd.DataFrame, label: str, raw: str) -> str:
    """For an upstream that declares no licence lineage can read: what its metadata says, and the
    licence its files state when the copied files without a notice were taken to be under it
    (``upstream_licence_from`` ``release notices``; ``""`` otherwise)."""
    rows = table[(table["upstream"] == label) & (table["upstream_licence_from"] == RELEASE_NOTICES)] \
        if len(table) else table
    if rows.empty:
        return ""
    said = f"its metadata's {md_code(raw)} names no one licence; " if raw else ""
    # a public-domain dedication does not vote (it speaks for its own file: ply 3.9's GardenSnake.py)
    return (f" {said[:1].upper()}{said[1:]}{'its' if said else 'Its'} files' licence notices, public-domain "
            "dedications aside, all state "
            f"{md_code(str(rows['upstream_licence'].iloc[0]))}, taken for {_pairs(len(rows))} whose upstream "
            f"file has none (`upstream_licence_from` {md_code(RELEASE_NOTICES)}).")


def _third_party_sentence(table: pd.DataFrame, label: str) -> str:
    """For an upstream whose copied files include other projects' code that states no licence of
    its own (``upstream_licence_from`` ``third party: <name>``): that the upstream's licence was not
    taken for them, and whose was (``""`` when there are none)."""
    if table.empty:
        return ""
    rows = table[(table["upstream"] == label) & table["upstream_licence_from"].str.startswith(THIRD_PARTY)]
    if rows.empty:
        return ""
    names = Counter(third_party_name(str(f)) for f in rows["upstream_licence_from"])
    named = ", ".join(f"{md_text(name)} {n:,}" for name, n in sorted(names.items()))
    unknown = int((rows["upstream_licence"] == "").sum())
    taken = len(rows) - unknown
    said = [f"for {unknown:,} their licence is unknown here (`upstream_licence_from` "
            f"{md_code(THIRD_PARTY + '<name>')}: that project's release states it)"] if unknown else []
    said += [f"for {taken:,} their licence and holders are those that project's release, another upstream of this "
             f"run, declares ({md_code(THIRD_PARTY + '<name> (declared by upstream <label>)')})"] if taken else []
    whose = "1 pair's upstream file is" if len(rows) == 1 else f"{len(rows):,} pairs' upstream files are"
    return (f" {whose} another project's code it carries ({named}), stating no "
            f"licence of their own: its licence and holders are not theirs; {'; '.join(said)}.")


def _choice_sentence(declared: str, has_notice_file: bool) -> str:
    """For a licence that offers a choice: that the recipient may choose, and what each choice asks
    (``""`` for one licence)."""
    offered = choices(declared) if declared else ()
    if len(offered) < 2:
        return ""
    asked = {c: terms(c, has_notice_file) for c in offered}
    common = [k for k in asked[offered[0]] if all(k in a for a in asked.values())]
    return (" A choice: the recipient may take any one of " + ", ".join(md_code(c) for c in offered)
            + ". What each asks of a copied file: " + "; ".join(f"{md_code(c)}: {', '.join(map(_said, a)) or 'nothing'}"
                                                             for c, a in asked.items())
            + f" (common to all: {', '.join(map(_said, common)) or 'none'}).")


def _said(kind: str) -> str:
    return "modification-notice (in modified files)" if kind == "modification-notice" else kind


def attribution_markdown(comparison: Comparison) -> str:
    """A draft ATTRIBUTION.md: per upstream, its licence, holders to credit, NOTICE text, files."""
    table = comparison.obligations
    own = comparison.own_projects
    out = [f"# Attribution (draft): code in {md_text(comparison.target.info.label)} copied from "
           f"{_copied_from(table, own)}", "",
           "Generated by lineage from the copied lines it found; review before publishing.", ""]
    for u, label in zip(comparison.upstreams, comparison.upstream_names, strict=True):
        rows = table[table["upstream"] == label] if len(table) else table
        if rows.empty:
            continue
        lic = source_licence(u)
        out += [f"## {md_text(label)} ({md_code(u.info.spec)})", ""]
        if own[label]:
            out += [f"A release of {md_text(comparison.target.info.label)}'s own project ({own[label]}): its own "
                    "code, carried from that release, not another project's.", ""]
        licences = sorted(x for x in rows["upstream_licence"].unique() if x)
        choice = " (a choice: the recipient may take any one of its licences)" if len(choices(lic.declared)) > 1 else ""
        under = ", ".join(_licence_words(x, brief=True) for x in licences)
        out.append(f"Licence: {_licence_words(lic.declared)}{choice}"
                   + (f"; copied files are under {under}." if licences else ".") + _unknown_sentence(rows))
        holders = credited_copyrights(rows["upstream_copyrights"])
        # public-domain files ask no credit; "none named" of them alone would read as a gap
        public = all(map(_public_domain_alone, rows["upstream_licence"]))
        free = all(map(asks_nothing_alone, rows["upstream_licence"]))
        nobody = ("(none named; public domain asks for none)" if public
                  else "(none named; its licence asks for none)" if free else "(none named)")
        out += ["", "Copyright holders to credit:", ""] + [f"- {md_text(h)}" for h in holders or [nobody]]
        out += _replaced_words(rows)
        if lic.notice_lines:
            out += ["", f"NOTICE ({', '.join(lic.notice_paths)}), to reproduce:", "", "```"]
            out += list(lic.notice_lines) + ["```"]
        out += ["", "| target file | upstream file | copied lines | licence |", "|---|---|---:|---|"]
        per_file = rows.sort_values(["target_path", "upstream_path"], kind="stable")
        for row in per_file.itertuples():
            out.append(f"| {md_code(row.target_path)} | {md_code(row.upstream_path)} | {row.copied_lines:,} | "
                       f"{_cell(readable(row.upstream_licence)) or '?'} |")
        out.append("")
    if len(out) == 4:
        out.append("No copied code found.")
    return "\n".join(out) + "\n"


def _copied_from(table: pd.DataFrame, own: Mapping[str, str]) -> str:
    """Whom ATTRIBUTION.md's title says the code came from: "other projects", "another release of
    its own project" when the copied lines are all of releases of the target's own project
    (``own``: per upstream label, :attr:`Comparison.own_projects`; pydantic 2.10.6 against 1.10.19,
    which its ``pydantic/v1/`` carries, read "copied from other projects"), or both."""
    labels = set(table["upstream"].astype(str)) if len(table) else set()
    mine = {label for label in labels if own.get(label)}
    if not mine:
        return "other projects"
    releases = "another release of its own project" if len(mine) == 1 else "other releases of its own project"
    return releases if mine == labels else f"other projects and {releases}"


def credited_copyrights(cells: Iterable[object]) -> list[str]:
    """The copyright lines to credit for obligations.csv ``upstream_copyrights`` cells, sorted, one
    per years and holder (:func:`distinct_copyrights`): of the lines stating one, a "Copyright
    ..." line first, then the line most rows carry (elasticsearch's usual "Licensed to
    Elasticsearch B.V. under one or more contributor", not the variant one of its files also
    holds); a docstring field read as the statement it stands for
    (:func:`lineage.markers.attribution.field_statement`, as the marker reader keeps it).
    ATTRIBUTION.md's list and the CycloneDX ancestors' ``evidence.copyright``: the BOM listed
    discord.py 1.7.3's "Copyright (c) 2015-present Rapptz" and its ``__init__.py`` field
    "copyright: (c) 2015-present Rapptz" as two statements, ATTRIBUTION.md one."""
    carried = Counter(h for cell in cells
                      for h in {field_statement(c, any_case=True) for c in split_copyrights(str(cell))})
    lines = sorted(carried, key=lambda h: (not h.lower().startswith(("copyright", "spdx")), -carried[h], h))
    return sorted(distinct_copyrights(lines))


def _unknown_sentence(rows: pd.DataFrame) -> str:
    """For ATTRIBUTION.md: how many of an upstream's rows have a licence not known here (``?`` in
    its table), and the projects whose code they are when the upstream carries it
    (``upstream_licence_from`` ``third party: <name>``); ``""`` when none."""
    unknown = rows[rows["upstream_licence"] == ""]
    if unknown.empty:
        return ""
    froms = [name for f in unknown["upstream_licence_from"] if (name := third_party_name(str(f)))]
    of = (f"; {len(froms):,} of them are another project's code it carries "
          f"({', '.join(md_text(p) for p in sorted(set(froms)))}), whose release states their licence and holders"
          if froms else "")
    return f" {len(unknown):,} of the rows below have a licence not known here (`?`){of}."


class ObligationsReporter:
    """obligations.csv and ATTRIBUTION.md (a :class:`lineage.report.Reporter`)."""

    report_type = "obligations"

    def write(self, comparison: Comparison, folder: ReportFolder) -> None:
        write_csv(pd.DataFrame(comparison.obligations), folder.path("obligations.csv"))
        folder.text("ATTRIBUTION.md", attribution_markdown(comparison))
