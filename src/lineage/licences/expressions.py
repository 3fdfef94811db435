"""SPDX licence expressions: parsing, normalising and combining, through ``license-expression``.

Every expression lineage writes has gone through :func:`normalise`: ids are spelled as the SPDX
licence list spells them (``apache-2.0`` -> ``Apache-2.0``) and deprecated ids are replaced
(``GPL-2.0+`` -> ``GPL-2.0-or-later``, ``GPL-2.0`` -> ``GPL-2.0-only``). Text that is not a valid
SPDX expression (``Apache License``, a whole licence text in a METADATA ``License`` field) gives
``""``: callers then try the notice rules of :mod:`lineage.licences.notices`.

A licence written without a version that ``license-expression`` reads as a versioned one is not
an expression either: ScanCode's alias makes a bare ``GPL`` ``GPL-1.0-or-later``, but the name of a
family names no one licence of it (as a family classifier does not, :mod:`lineage.licences.declared`).
yolov5 7.0.0's METADATA ``License: GPL`` over its GPL-3.0 ``LICENSE`` read as GPL-1.0-or-later,
which the compatibility table does not know, and every copied file's licence went unchecked.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache

from license_expression import AND, OR, ExpressionError, LicenseExpression, LicenseSymbol, get_spdx_licensing

_LICENSING = get_spdx_licensing()
# A public-domain dedication is a licence of its own in lineage's tables: SPDX's list has no id for
# it, so the key ScanCode's licence data gives it, which ``license-expression`` knows (a made-up
# ``LicenseRef-`` would fail its validation). One id everywhere: the trove classifier, the notice
# rule, the compatibility table, the obligations (it asks nothing) and the SPDX document's
# extracted licensing info.
PUBLIC_DOMAIN = "LicenseRef-scancode-public-domain"
# license-expression builds its tokenizer on first use and publishes it before filling it in: a
# second thread parsing meanwhile (the sources are opened side by side, each reading its licence
# files) saw a half-built one, got an error, and the text was "no expression", memoised for the
# process. pyinstaller 6.11.0's COPYING.txt read as no licence in 2 of 12 runs; one parse at a time.
_LICENSING_LOCK = threading.Lock()


@lru_cache(maxsize=4096)
def parse(text: str) -> LicenseExpression | None:
    """The parsed expression, or None when ``text`` is not a valid SPDX expression."""
    text = text.strip()
    if not text or len(text) > 500:
        return None
    try:
        with _LICENSING_LOCK:
            if any(_versionless_alias(written, symbol) for symbol, written, _ in _LICENSING.tokenize(text)):
                return None
            return _LICENSING.parse(text, validate=True, strict=True)
    except (ExpressionError, TypeError, ValueError, AttributeError):
        return None


def _versionless_alias(written: object, symbol: object) -> bool:
    """Whether a token ``written`` without a digit stands for a licence whose id has one (module
    docstring: a family's name read as one of its licences)."""
    if not isinstance(symbol, LicenseSymbol):
        return False
    text = getattr(written, "string", str(written))
    return not any(c.isdigit() for c in text) and any(c.isdigit() for c in symbol.key)


def normalise(text: str) -> str:
    """``text`` rendered in canonical SPDX spelling, or ``""`` when it is not an expression."""
    parsed = parse(text)
    return parsed.render() if parsed is not None else ""


# A metadata field that names one licence in words: "Apache License 2.0" (keras 3.0.0's and
# keras-core's METADATA ``License``), "Apache License, Version 2.0", "Apache 2.0", "MIT license",
# "BSD 3-Clause License", OSI's "2-Clause BSD License". Case, the words "license"/"licence"/
# "version" and punctuation aside, and a space written for a hyphen, it is an SPDX id; a family's
# name without a version ("BSD License", "GPL") stays no licence (:func:`parse`).
_NAME_WORDS_RE = re.compile(r"\b(?:licen[cs]e|version)\b|[,;:()\"']", re.IGNORECASE)
_NAME_MAX_CHARS = 40  # a name, not a sentence or a licence's text
# OSI's own titles put the clause count first ("The 2-Clause BSD License"); SPDX's ids after.
_CLAUSES_FIRST_RE = re.compile(r"^(\d-clause)[ -](bsd)\b", re.IGNORECASE)


# BSD's nicknames, each one licence's: OSI's BSD-3-Clause page says it "has also been called the
# 'New BSD License' or 'Modified BSD License'", SPDX names it 'BSD 3-Clause "New" or "Revised"
# License' and BSD-2-Clause 'BSD 2-Clause "Simplified" License'. Jupyter's standard header,
# "Distributed under the terms of the Modified BSD License." (IPython 3.2.3's files, ipykernel's,
# traitlets'), named no licence, so IPython's copies in ipykernel read "licence unknown".
_BSD_NICKNAMES = {"new": "BSD-3-Clause", "modified": "BSD-3-Clause", "revised": "BSD-3-Clause",
                  "simplified": "BSD-2-Clause"}


# The FSF's short names, as PyPI's classifiers write them ("GNU Lesser General Public License v3 or
# later (LGPLv3+)"): a "v" before the version, "+" for "or any later version", else that version
# only. PyFPDF 1.7.2's METADATA ``License: LGPLv3+`` named no licence, and its classifier's
# LGPL-3.0-only (the classifier without "or later") was read as its licence.
_GNU_SHORT_RE = re.compile(r"^(?P<name>[al]?gpl)-?v(?P<major>[123])(?:\.(?P<minor>[01]))?(?P<later>\+)?$",
                           re.IGNORECASE)


def _gnu_short_name(name: str) -> str:
    """The SPDX id of an FSF short name (:data:`_GNU_SHORT_RE`), ``""`` when it is none or names
    no licence of SPDX's list (AGPLv2)."""
    m = _GNU_SHORT_RE.match(name)
    if m is None:
        return ""
    later = "or-later" if m.group("later") else "only"
    return normalise(f"{m.group('name').upper()}-{m.group('major')}.{m.group('minor') or '0'}-{later}")


# A name's own words that are no part of its SPDX id (round left160): OSI's titles open with "The"
# ("The Unlicense", "The MIT License", "The 2-Clause BSD License"), Creative Commons titles CC0
# "CC0 1.0 Universal"; a METADATA ``License: The Unlicense`` named no licence and the release read
# NOASSERTION. "Public Domain", the classifier's words, is :data:`PUBLIC_DOMAIN`, as the classifier
# alone is (a ``License: Public Domain`` field read as no licence; "BSD, Public Domain" names two).
_LEADING_THE_RE = re.compile(r"^the\s+", re.IGNORECASE)
_CC0_TITLE_RE = re.compile(r"^(cc0[ -]1\.0)[ -]universal\b", re.IGNORECASE)
_PUBLIC_DOMAIN_NAME_RE = re.compile(r"^public[ -]domain\.?$", re.IGNORECASE)


def named_licence(text: str) -> str:
    """The one licence ``text`` names in words (above; a BSD nickname, :data:`_BSD_NICKNAMES`,
    or an FSF short name, :data:`_GNU_SHORT_RE`, too), in canonical spelling; ``""`` when it
    names none or several."""
    text = _CC0_TITLE_RE.sub(r"\1", _LEADING_THE_RE.sub("", " ".join(text.split())))
    if not text or len(text) > _NAME_MAX_CHARS or "\n" in text:
        return ""
    if _PUBLIC_DOMAIN_NAME_RE.match(text):
        return PUBLIC_DOMAIN
    words = _NAME_WORDS_RE.sub(" ", _CLAUSES_FIRST_RE.sub(r"\2 \1", text)).split()
    if not words:
        return ""
    if len(words) == 2 and words[1].lower() == "bsd" and words[0].lower() in _BSD_NICKNAMES:
        return _BSD_NICKNAMES[words[0].lower()]
    found = normalise("-".join(words)) or _gnu_short_name("-".join(words))
    return found if len(licence_ids(found)) == 1 and " " not in found else ""


def licence_ids(text: str) -> tuple[str, ...]:
    """The licence ids an expression names (exceptions left out), sorted."""
    parsed = parse(text)
    if parsed is None:
        return ()
    return tuple(sorted({key for key in _LICENSING.license_keys(parsed, unique=True)
                         if not key.lower().endswith("exception") and "-exception" not in key.lower()}))


def _combine(expressions: Iterable[str], operator: str) -> str:
    parts = sorted({normalise(e) for e in expressions if normalise(e)})
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return normalise(f" {operator} ".join(f"({p})" for p in parts))


def combine_all(expressions: Iterable[str]) -> str:
    """One expression that holds every expression (``A AND B``), each parenthesised as needed."""
    return _combine(expressions, "AND")


def combine_any(expressions: Iterable[str]) -> str:
    """One expression offering a choice between the expressions (``A OR B``)."""
    return _combine(expressions, "OR")


def choices(text: str) -> tuple[str, ...]:
    """The licences an expression lets a recipient choose between, each one whole set of terms, in
    the order the expression offers them: ``A OR B`` gives ``(A, B)``, ``(A OR B) AND C`` gives
    ``(A AND C, B AND C)`` (the disjunctive normal form, from ``license-expression``); an expression
    without a choice gives ``(text,)``.

    ``license-expression`` sorts the normal form's terms (and the licences inside each) by id, so
    ``BSD-2-Clause OR Apache-2.0`` came back as ``(Apache-2.0, BSD-2-Clause)`` and a tie between
    choices went to the first in the alphabet, not the first offered (packaging's licence); both are
    put back in the order of the licences' first appearance in ``text``."""
    parsed = parse(text)
    if parsed is None:
        return (text,)
    dnf = _LICENSING.dnf(parsed)
    if not isinstance(dnf, OR):
        return (text,)
    place = {key: k for k, key in reversed(list(enumerate(_LICENSING.license_keys(parsed))))}

    def first_offered(term: LicenseExpression) -> tuple[int, ...]:
        return tuple(sorted(place.get(key, len(place)) for key in _LICENSING.license_keys(term)))

    def rendered(term: LicenseExpression) -> str:
        if isinstance(term, AND):
            return " AND ".join(rendered(arg) for arg in sorted(term.args, key=first_offered))
        return term.render()

    return tuple(rendered(term) for term in sorted(dnf.args, key=first_offered))


# Licences whose text sets no condition on copies, no copyright line or licence notice to keep:
# public domain, the two dedications (the Unlicense, CC0-1.0) and the no-attribution licences
# (0BSD, MIT-0, WTFPL). yt-dlp 2022.2.4 from youtube-dl 2021.12.17 (the Unlicense) was told a
# licence notice was missing in all of its 843 pairs.
ASKS_NOTHING = frozenset({PUBLIC_DOMAIN, "Unlicense", "CC0-1.0", "0BSD", "MIT-0", "WTFPL"})
# The public-domain dedications with a text of their own: which one a bare "public domain" is, when
# a licence file says (lineage.licences.declared).
PUBLIC_DOMAIN_DEDICATIONS = frozenset({"Unlicense", "CC0-1.0"})


def asks_nothing(licence: str) -> bool:
    """Whether licence id ``licence`` imposes no copyright or licence-notice obligation on copied
    code (:data:`ASKS_NOTHING`)."""
    return licence in ASKS_NOTHING


def asks_nothing_alone(expression: str) -> bool:
    """Whether every licence id ``expression`` names asks nothing (:func:`asks_nothing`): public
    domain or a licence like it alone; False for an expression that names none (unknown)."""
    ids = licence_ids(expression) if expression else ()
    return bool(ids) and all(map(asks_nothing, ids))


def dedicated_alone(expression: str) -> bool:
    """Whether every licence id ``expression`` names is a public-domain dedication (public domain,
    the Unlicense, CC0-1.0: :data:`PUBLIC_DOMAIN_DEDICATIONS`): a work whose authors gave up the
    copyright, so no holder speaks for it but one its own lines name. False for an expression that
    names none (unknown), and for the licences that ask nothing but keep a holder (0BSD's and
    MIT-0's "Copyright (C) YEAR by AUTHOR")."""
    ids = licence_ids(expression) if expression else ()
    return bool(ids) and all(i == PUBLIC_DOMAIN or i in PUBLIC_DOMAIN_DEDICATIONS for i in ids)


def readable(expression: str) -> str:
    """``expression`` as a reviewer reads it: the public-domain id in words ("public domain")."""
    return expression.replace(PUBLIC_DOMAIN, "public domain")
