"""A small, documented licence compatibility table: may code under A be copied into a project under B?

This is a review aid, not legal advice: it flags what a reviewer must look at.

Categories (:data:`CATEGORY`):

* *permissive* (MIT, BSD, ISC, Apache-2.0, PSF-2.0, Zlib, BSL-1.0, APAFML, Adobe-Glyph, ZPL-2.0,
  ZPL-2.1, Beerware: the Beer-ware licence's one condition is to retain its notice; the Zope
  licence's 2.x versions are BSD-like, OSI-approved and GPL-compatible by the FSF's list; ZPL 1.x,
  with its advertising clause, is not in the table): may go into anything, keeping its notices. One
  exception, stated by the FSF and the ASF: Apache-2.0 into ``GPL-2.0-only`` is a conflict (its
  patent and indemnity terms are "further restrictions" under GPLv2); ``GPL-2.0-or-later`` is fine
  (take GPLv3).
* *weak copyleft* (MPL-2.0, LGPL): fine into weak or strong copyleft; into a permissive target
  flagged (the copied files stay under the upstream's licence, with source-availability terms the
  target's licence does not carry).
* *strong copyleft* (GPL, AGPL): fine into the same or a later compatible GNU licence
  (``-or-later`` upstream into a later version, AGPL from GPL-3.0); flagged into permissive or
  weak copyleft, and between GPLv2-only and v3.

*public domain* (:data:`lineage.licences.expressions.PUBLIC_DOMAIN`): code nobody holds rights
  in goes into any project, whatever its licence (also one not in the table, or unknown); as a
  target's licence it is permissive (code under a licence copied into it keeps that licence's
  terms). So does code under a licence that sets no condition on copies
  (:data:`lineage.licences.expressions.ASKS_NOTHING`: the Unlicense, CC0-1.0, 0BSD, MIT-0, WTFPL),
  which as a target's licence is permissive too.

Expressions: an upstream ``A OR B`` is fine when either choice is; ``A AND B`` when both are. The
target's licence counts with every id it names (copied code must fit all licences the target is
offered under), but code under the target's own expression fits it, whatever it combines (a
``GPL-2.0-or-later AND LGPL-2.1-or-later`` project's code copied into another under the same terms
was a GPL-into-LGPL conflict). An id not in the table gives ``unknown``, never a silent ``ok``.
"""

from __future__ import annotations

from dataclasses import dataclass

from license_expression import AND, OR, LicenseSymbol, LicenseWithExceptionSymbol

from lineage.licences.expressions import PUBLIC_DOMAIN, asks_nothing, asks_nothing_alone, licence_ids, parse

PERMISSIVE, WEAK, STRONG = "permissive", "weak-copyleft", "strong-copyleft"

CATEGORY: dict[str, str] = {
    **dict.fromkeys(["MIT", "MIT-0", "BSD-2-Clause", "BSD-3-Clause", "BSD-4-Clause", "0BSD", "ISC", "Apache-2.0",
                     "PSF-2.0", "Python-2.0", "Zlib", "BSL-1.0", "Unlicense", "CC0-1.0", "X11", "HPND",
                     "APAFML", "Adobe-Glyph", "ZPL-2.0", "ZPL-2.1", "WTFPL", "Beerware",
                     PUBLIC_DOMAIN], PERMISSIVE),
    **dict.fromkeys(["MPL-2.0", "LGPL-2.0-only", "LGPL-2.0-or-later", "LGPL-2.1-only", "LGPL-2.1-or-later",
                     "LGPL-3.0-only", "LGPL-3.0-or-later", "EPL-2.0"], WEAK),
    **dict.fromkeys(["GPL-2.0-only", "GPL-2.0-or-later", "GPL-3.0-only", "GPL-3.0-or-later", "AGPL-3.0-only",
                     "AGPL-3.0-or-later"], STRONG),
}


@dataclass(frozen=True)
class Verdict:
    status: str  # "ok" | "conflict" | "unknown"
    reason: str  # one sentence for conflicts and unknowns, "" when ok


def _gnu(licence: str) -> tuple[str, int, bool]:
    name, version, *rest = licence.split("-")
    return name, int(version.split(".")[0]), rest == ["or", "later"]


def pair(upstream: str, target: str) -> Verdict:
    """May code under licence id ``upstream`` be copied into a project under licence id ``target``?"""
    if upstream == target or asks_nothing(upstream):
        return Verdict("ok", "")
    up, into = CATEGORY.get(upstream), CATEGORY.get(target)
    if up is None or into is None:
        missing = upstream if up is None else target
        return Verdict("unknown", f"{missing} is not in lineage's compatibility table")
    if up == PERMISSIVE:
        if upstream == "Apache-2.0" and target == "GPL-2.0-only":
            return Verdict("conflict", "Apache-2.0 code cannot be relicensed under GPL-2.0-only")
        return Verdict("ok", "")
    if into == PERMISSIVE:
        return Verdict("conflict", f"{up} {upstream} code in a {target} project")
    if up == WEAK:
        return Verdict("ok", "")
    if into == WEAK:
        return Verdict("conflict", f"strong-copyleft {upstream} code in a weak-copyleft {target} project")
    u_name, u_ver, u_later = _gnu(upstream)
    t_name, t_ver, _ = _gnu(target)
    if u_name == "AGPL" and t_name == "GPL":
        return Verdict("conflict", f"{upstream} code in a {target} project (network-use terms)")
    if u_ver == t_ver or (u_later and t_ver > u_ver):
        return Verdict("ok", "")
    return Verdict("conflict", f"{upstream} and {target} are incompatible GNU licence versions")


def _fits(node: object, target: str) -> Verdict:
    if isinstance(node, LicenseWithExceptionSymbol):
        return pair(node.license_symbol.key, target)
    if isinstance(node, LicenseSymbol):
        return pair(node.key, target)
    verdicts = [_fits(arg, target) for arg in getattr(node, "args", ())]
    if not verdicts:
        return Verdict("unknown", "empty expression")
    if isinstance(node, OR):
        for status in ("ok", "unknown", "conflict"):
            chosen = [v for v in verdicts if v.status == status]
            if chosen:
                return chosen[0]
    if isinstance(node, AND):
        for status in ("conflict", "unknown", "ok"):
            chosen = [v for v in verdicts if v.status == status]
            if chosen:
                return chosen[0]
    return Verdict("unknown", "unsupported expression")


def compatible(upstream: str, target: str) -> Verdict:
    """Verdict for copying code under expression ``upstream`` into a project under ``target``."""
    if not target and asks_nothing_alone(upstream):
        return Verdict("ok", "")  # public domain (or a licence asking nothing) goes into any project
    if not upstream or not target:
        side = "upstream" if not upstream else "target"
        return Verdict("unknown", f"the {side} licence is not known")
    parsed = parse(upstream)
    targets = licence_ids(target)
    if parsed is None or not targets:
        return Verdict("unknown", "not a valid SPDX expression")
    if parsed == parse(target):  # the target's own terms, whatever they combine (module docstring)
        return Verdict("ok", "")
    verdicts = [_fits(parsed, t) for t in targets]
    for status in ("conflict", "unknown"):
        chosen = [v for v in verdicts if v.status == status]
        if chosen:
            return chosen[0]
    return Verdict("ok", "")
