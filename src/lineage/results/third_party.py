"""What to do about shared third-party code: per third party, the next step summary.md advises.

Lines shared with an upstream file that is itself a third party's code (:mod:`lineage.match.gate`)
are not counted as copied from the upstream. Given the third party as a further ``--upstream``,
the shared lines it does not hold are the upstream's own again, copies from it
(``MatchParams.origin_third_party_lines``). So for each third party that is not already an upstream
of the run, :func:`next_step` says which release to add, naming a PyPI distribution only when
the run's own metadata does:

* the upstream's own vendoring records (a ``vendor.txt`` line, a vendored ``*.dist-info``:
  :class:`lineage.index.vendoring.VendorRecord`) pin a release of the third party's name: the
  upstream carries that release (wheel 0.43.0's ``wheel/vendored/vendor.txt``: ``packaging==24.0``),
  a firmer statement than any requirement;
* else the target's own vendoring records that speak for a target file sharing the third party's
  lines pin one release of it: those files are that release (setuptools 72.1.0's
  ``setuptools/_vendor/jaraco.text-3.12.1.dist-info`` for its ``_vendor/jaraco/text/``, whose
  lines pip 24.2's ``_jaraco_text.py`` shares). When both pin, the upstream's wins: the step
  counts what the upstream added to the third party, so its base is the release the upstream's
  copy was made from; and a target may carry the third party twice at two releases (setuptools
  72.1.0 pins ``packaging`` 24.1 in ``_vendor/`` and 24.0 in its vendored wheel's ``vendor.txt``):
  records of the files sharing the lines that pin two releases name none;
* else the declared requirements (``Requires-Dist``, ``[project] dependencies``:
  :class:`lineage.index.project.ProjectInfo`) of the upstream the code came through name a
  distribution of the third party's name (vLLM 0.32.0 requires ``transformers<5.20.0,>=5.16.1``):
  the release it pins, else the lowest it allows, is the release that upstream was built against;
* else the target's requirements name one: the distribution, but not which release the upstream
  used (the target's own pin is said beside it);
* else no distribution is named: a folder name (``tml_fa4``), a repository (``Liger-Kernel``) or
  a copyright holder need not be a PyPI name, and guessing one would send the reviewer after
  another project.

A record names the third party by its distribution's name, or by the dotted module an origin
marker naming it reads (:func:`names_third_party`): pip's "Functions brought over from
jaraco.text." names the third party ``jaraco`` (the module's top-level package, as the origin
rules name a path's first folder), and the record of ``jaraco.text``, not of ``jaraco.context``
or ``jaraco.functools`` (the same namespace), is its distribution's. A requirement is matched by
the third party's name alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from lineage.index.vendoring import same_version
from lineage.match.origin import ORIGIN_KINDS, STDLIB

if TYPE_CHECKING:
    from lineage.markers import Marker


@dataclass(frozen=True)
class Declared:
    """One source of the run and what its metadata requires."""

    label: str  # the run's label for it ("vllm")
    version: str  # its release ("0.32.0"), "" when unknown
    requires: tuple[str, ...]  # requirement strings as declared
    # (name, pinned version, file recording it) per vendoring record of its tree that pins one
    vendored: tuple[tuple[str, str, str], ...] = ()

    @property
    def who(self) -> str:
        return f"{self.label} {self.version}".strip()


@dataclass(frozen=True)
class Step:
    """The advice for one third party (summary.json ``third_parties``, without the counts)."""

    name: str  # the third party as the origin rules name it
    through: tuple[str, ...]  # the upstreams whose files set its lines apart
    upstream_of_run: str | None  # the run's upstream that is this third party, if any
    distribution: str | None  # a PyPI distribution named by the run's metadata
    requirement: str | None  # the requirement that names it, as declared
    required_by: str | None  # whose metadata declares it (label and version)
    by_upstream: bool  # required_by is an upstream it came through (else the target)
    version: str | None  # the release to add: pinned, else the lowest allowed, by the upstream's requirement
    pinned: bool  # the requirement pins that release
    third_party_lines: bool  # MatchParams.origin_third_party_lines is on
    recorded_in: str | None = None  # the vendoring record that pins it (requirement: its pin), the
    # upstream's (by_upstream) or else the target's

    def text(self, code: Callable[[str], str] = lambda s: f"`{s}`", plain: Callable[[str], str] = str) -> str | None:
        """The next step as a sentence, inputs' text through ``plain`` and code through ``code``
        (summary.md escapes both); None when the third party is an upstream of the run already
        and nothing is left to do."""
        who = _and([plain(u) for u in self.through]) if self.through else "the upstream"
        count = f"to count what {who} added to it"
        knob = "" if self.third_party_lines else " and " + code("--set origin_third_party_lines=1")
        if self.upstream_of_run is not None:
            return None if self.third_party_lines else f"add {code('--set origin_third_party_lines=1')} {count}"
        if self.name == STDLIB and self.distribution is None:
            # CPython's standard library has no PyPI release to add as an upstream
            return (f"add CPython's {code('Lib/')} (a checkout of the version the marker names: no PyPI release "
                    f"holds the standard library) as a further {code('--upstream')}{knob} {count}")
        if self.distribution is None:
            return f"add the third party's release as a further {code('--upstream')}{knob} {count}"
        version = self.version or "VERSION"
        add = f"add {code(f'--upstream pypi:{self.distribution}=={version}')}{knob} {count}"
        req, by = code(str(self.requirement)), plain(str(self.required_by))
        if self.recorded_in is not None:
            return f"{add} ({by} vendors {req}: {code(self.recorded_in)})"
        if not self.by_upstream:  # the target's release need not be the upstream's
            return f"{add} (VERSION: the release {who} used, which its metadata does not name; {by} requires {req})"
        if self.version is None:
            return f"{add} (VERSION: the release {who} used; {by} requires {req}, which names none)"
        why = "" if self.pinned else f"; {plain(self.version)} is the lowest release it allows"
        return f"{add} ({by} requires {req}{why})"

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "through": list(self.through), "upstream_of_run": self.upstream_of_run,
                "distribution": self.distribution, "requirement": self.requirement, "required_by": self.required_by,
                "version": self.version, "next_step": self.text()}


def requirement_for(name: str, requires: Sequence[str]) -> Requirement | None:
    """The requirement among ``requires`` of the distribution called ``name`` (compared as PyPI
    compares names: ``flash_linear_attention`` is ``flash-linear-attention``); one without an
    environment marker first (vLLM declares protobuf twice, per machine; a marker is not
    evaluated, so that the report does not depend on the machine), else the first in sorted
    order. None when none does, or ``name`` is no distribution name (a copyright holder)."""
    wanted = canonicalize_name(name)
    found = [req for req in map(_requirement, requires) if req is not None and canonicalize_name(req.name) == wanted]
    return min(found, key=lambda r: r.marker is not None) if found else None


@functools.lru_cache(maxsize=4096)
def _requirement(text: str) -> Requirement | None:
    """``text`` parsed, None if it is no requirement: each third party asks of the same list (the
    pinned pair: 79 questions of 51 requirements, 0.1 s of summary.json's writing parsed anew).
    The objects are shared between callers: read them, never change them."""
    try:
        return Requirement(text)
    except InvalidRequirement:
        return None


def release_in(spec: SpecifierSet) -> tuple[str, bool] | None:
    """(the release a specifier points at, whether it pins it): an exact ``==``/``===`` version,
    else the highest inclusive lower bound (``>=``, ``~=``) when the specifier allows it; None
    for a bare name or only upper bounds (no release is named)."""
    pins = [s.version for s in spec if s.operator in ("==", "===") and not s.version.endswith(".*")]
    if pins:
        return pins[0], True
    lows = []
    for s in spec:
        if s.operator in (">=", "~="):
            try:
                lows.append((Version(s.version), s.version))
            except InvalidVersion:
                continue
    if lows:
        version = max(lows)[1]
        if spec.contains(version, prereleases=True):
            return version, False
    return None


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def marker_module(m: Marker, name: str) -> str:
    """The dotted package an origin marker naming third party ``name`` reads as its source, when
    it reads one without a URL ("Functions brought over from jaraco.text." -> ``jaraco.text``;
    "copied from jaraco/text/layouts.py" -> ``jaraco.text.layouts``): its path below the third
    party's name, without ``.py`` and ``__init__``; "" for another marker, or one whose path does
    not begin with ``name`` (the origin rules name the third party after that first part)."""
    if m.kind not in ORIGIN_KINDS or m.repository or not m.path:
        return ""
    parts = m.path.replace("\\", "/").strip("/").split("/")
    parts[-1] = parts[-1].removesuffix(".pyi").removesuffix(".py")
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(parts) if len(parts) > 1 and parts[0] == name and all(p.isidentifier() for p in parts) else ""


def names_third_party(dist: str, name: str, modules: Sequence[str] = ()) -> bool:
    """Whether a vendoring record's distribution ``dist`` is third party ``name``'s: the same name
    (compared as PyPI compares names), or the dotted name of a package the third party's origin
    markers read as their source, ``modules`` (``jaraco.text`` for "brought over from
    jaraco.text", the third party named ``jaraco``; ``jaraco.text`` is also the distribution of
    ``jaraco.text.layouts``). The package's first part is the third party's name itself: a
    module path of another project names nothing here."""
    wanted = canonicalize_name(dist)
    if wanted == canonicalize_name(name):
        return True
    for module in modules:
        parts = module.split(".")
        if parts[0] == name and any(canonicalize_name(".".join(parts[:k])) == wanted
                                    for k in range(2, len(parts) + 1)):
            return True
    return False


def _one_release(pins: Sequence[tuple[str, str, str]]) -> tuple[str, str, str] | None:
    """The first of ``pins`` (name, version, source) when they all pin one release
    (:func:`~lineage.index.vendoring.same_version`: ``24.0`` is ``24.0.0``), else None."""
    if not pins:
        return None
    first = min(pins, key=lambda pin: (pin[2], pin[0]))
    return first if all(same_version(version, first[1]) for _, version, _ in pins) else None


def next_step(name: str, through: Sequence[str], upstreams: Sequence[tuple[str, set[str]]],
              declared: Sequence[Declared], target: Declared | None, third_party_lines: bool = True,
              modules: Sequence[str] = (), covering: Sequence[tuple[str, str, str]] = ()) -> Step:
    """The advice for third party ``name`` whose lines were set apart in files of the upstreams
    labelled ``through``. ``upstreams``: each upstream's label and names (as the gate reads them,
    :func:`lineage.index.project.upstream_names`: a third party is an upstream of the run when its
    name is one of them); ``declared``: what the upstreams' metadata requires, ``target``: the
    target's; ``third_party_lines``: ``MatchParams.origin_third_party_lines``; ``modules``: the
    dotted packages its origin markers read (:func:`names_third_party`); ``covering``: the pins
    (name, version, source) of the target's vendoring records that speak for a target file
    sharing its lines (:func:`lineage.index.vendoring.records_covering`)."""
    step = Step(name, tuple(through), None, None, None, None, False, None, False, third_party_lines)
    for label, names in upstreams:  # by its name, or by the package its markers read ("jaraco.text")
        if label not in through and (name.lower() in names or any(names_third_party(n, name, modules)
                                                                    for n in names if "/" not in n)):
            return replace(step, upstream_of_run=label)
    for d in declared:  # the upstream's own vendoring record names the release it carries
        for dist, version, source in (d.vendored if d.label in through else ()):
            if names_third_party(dist, name, modules):
                return replace(step, distribution=dist, requirement=f"{dist}=={version}", required_by=d.who,
                               by_upstream=True, version=version, pinned=True, recorded_in=source)
    # the target's record of the files sharing its lines names the release those files are
    pin = _one_release([p for p in covering if names_third_party(p[0], name, modules)])
    if target is not None and pin is not None:
        dist, version, source = pin
        return replace(step, distribution=dist, requirement=f"{dist}=={version}", required_by=target.who,
                       version=version, pinned=True, recorded_in=source)
    for d in declared:  # the upstream's own requirement names the release it was built against
        req = requirement_for(name, d.requires) if d.label in through else None
        if req is not None:
            found = release_in(req.specifier)
            return replace(step, distribution=req.name, requirement=str(req), required_by=d.who, by_upstream=True,
                           version=found[0] if found else None, pinned=bool(found and found[1]))
    req = requirement_for(name, target.requires) if target is not None else None
    if target is not None and req is not None:
        return replace(step, distribution=req.name, requirement=str(req), required_by=target.who)
    return step


def through_upstreams(pairs: Sequence[tuple[str, str]], origins: Sequence[tuple[str, str, str]],
                      order: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Per third party, the upstreams (in the run's ``order``) whose files set its lines apart:
    ``pairs`` are the (third party, upstream path) of shared lines, ``origins`` the (upstream,
    upstream path, third party) of the upstream files and sections that are a third party's."""
    holders: dict[tuple[str, str], set[str]] = {}
    for upstream, path, name in origins:
        holders.setdefault((path, name), set()).add(upstream)
    found: dict[str, set[str]] = {}
    for name, path in pairs:
        found.setdefault(name, set()).update(holders.get((path, name), ()))
    rank = {label: k for k, label in enumerate(order)}
    return {name: tuple(sorted(labels, key=lambda label: rank.get(label, len(rank)))) for name, labels in found.items()}


@dataclass(frozen=True)
class Party:
    """One third party whose lines were set apart: its counts (summary.json
    ``shared.third_party.by_name``) and its :class:`Step`."""

    counts: dict[str, int]  # files, lines, code_lines, upstream_files
    step: Step

    def to_dict(self) -> dict[str, object]:
        """Its summary.json ``third_parties`` entry."""
        step = self.step.to_dict()
        return {"name": step.pop("name"), **self.counts, **step}


def third_parties(by_name: dict[str, dict[str, int]], through: dict[str, tuple[str, ...]],
                  upstreams: Sequence[tuple[str, set[str]]], declared: Sequence[Declared], target: Declared | None,
                  third_party_lines: bool = True, modules: dict[str, tuple[str, ...]] | None = None,
                  covering: dict[str, tuple[tuple[str, str, str], ...]] | None = None) -> list[Party]:
    """Per third party of ``by_name`` (summary.json ``shared.third_party.by_name``), most shared
    lines first (as summary.md's table ranks them), its counts and :func:`next_step` (``modules``
    and ``covering`` per third party, as there)."""
    modules, covering = modules or {}, covering or {}
    return [Party(counts, next_step(name, through.get(name, ()), upstreams, declared, target, third_party_lines,
                                    modules.get(name, ()), covering.get(name, ())))
            for name, counts in sorted(by_name.items(), key=lambda kv: (-kv[1]["lines"], kv[0]))]
