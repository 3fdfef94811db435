"""SPDX licence expressions: parsing, normalising and combining, through ``license-expression``.

Every expression lineage writes has gone through :func:`normalise`: ids are spelled as the SPDX
licence list spells them (``apache-2.0`` -> ``Apache-2.0``) and deprecated ids are replaced
(``GPL-2.0+`` -> ``GPL-2.0-or-later``, ``GPL-2.0`` -> ``GPL-2.0-only``). Text that is not a valid
SPDX expression (``Apache License``, a whole licence text in a METADATA ``License`` field) gives
``""``: callers then try the notice rules of :mod:`lineage.licences.notices`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from license_expression import OR, ExpressionError, LicenseExpression, get_spdx_licensing

_LICENSING = get_spdx_licensing()


@lru_cache(maxsize=4096)
def parse(text: str) -> LicenseExpression | None:
    """The parsed expression, or None when ``text`` is not a valid SPDX expression."""
    text = text.strip()
    if not text or len(text) > 500:
        return None
    try:
        return _LICENSING.parse(text, validate=True, strict=True)
    except (ExpressionError, TypeError, ValueError, AttributeError):
        return None


def normalise(text: str) -> str:
    """``text`` rendered in canonical SPDX spelling, or ``""`` when it is not an expression."""
    parsed = parse(text)
    return parsed.render() if parsed is not None else ""


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
    """The licences an expression lets a recipient choose between, each one whole set of terms:
    ``A OR B`` gives ``(A, B)``, ``(A OR B) AND C`` gives ``(A AND C, B AND C)`` (the disjunctive
    normal form, from ``license-expression``); an expression without a choice gives ``(text,)``."""
    parsed = parse(text)
    if parsed is None:
        return (text,)
    dnf = _LICENSING.dnf(parsed)
    if not isinstance(dnf, OR):
        return (text,)
    return tuple(arg.render() for arg in dnf.args)
