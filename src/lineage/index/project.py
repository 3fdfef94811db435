"""What a source says about its own project: its distribution name, repository and authors, and
the distributions it requires.

Read once per source while it is open (:func:`read_project`), from the wheel's or sdist's
metadata (``*.dist-info/METADATA``, ``PKG-INFO``: ``Name``, ``Home-page``, ``Project-URL``,
``Author``, ``Requires-Dist``) or else, in a checkout, from ``pyproject.toml`` (``[project]``
``name``, ``urls``, ``authors``, ``dependencies``), ``setup.cfg`` (``[metadata]``) or ``setup.py``
(the literal keywords of its ``setup(...)`` call, read from its syntax tree, never run). The
origin rules (:mod:`lineage.match.origin`) use it to know a project's own names: which markers
and copyright lines name the target, and which name an upstream itself. The requirements only
name a third party's distribution in summary.md's advice (:mod:`lineage.results.third_party`).
The statements of reuse in its description (:attr:`ProjectInfo.reuse`: the metadata's long
description, else a checkout's README; and its own licence files; :mod:`lineage.markers.description`)
are summary.md's "Reuse the target's description states".
"""

from __future__ import annotations

import ast
import configparser
import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from packaging.utils import canonicalize_name

from lineage.licences.licence_file import copyright_lines
from lineage.markers.description import RENAMED_FROM, ReuseStatement, reuse_statements, statements_naming
from lineage.sources.base import Source, read_declared
from lineage.sources.distinfo import core_metadata

if TYPE_CHECKING:
    from lineage.index.tree import TreeIndex

# owner/name of a repository URL on a forge; the name may not end in ".git".
_REPO_RE = re.compile(r"https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/"
                      r"(?P<owner>[A-Za-z0-9_.-]+)/(?P<name>[A-Za-z0-9_.-]+?)(?:\.git)?(?:[/#?]|$)")
_MAX_METADATA_BYTES = 4 << 20
# A checkout's README at its root (its description, where a package has none in metadata).
_README_RE = re.compile(r"readme(?:\.(?:md|markdown|rst|txt))?", re.IGNORECASE)
# The release's own licence files: at its root, or in its wheel's dist-info (``licenses/`` too);
# not a vendored copy's, nor a file of third parties' licences.
LICENCE_FILE_RE = re.compile(r"(?:[^/]+\.dist-info/(?:licenses/)?)?(?:licen[cs]es?|copying|notice)"
                             r"(?:\.(?:md|rst|txt))?", re.IGNORECASE)
# Top-level folders and files of a tree that are not one of its packages (a marker's or a
# vendoring record's names are read from the others).
NOT_PACKAGES = frozenset({"tests", "test", "docs", "doc", "examples", "benchmarks", "scripts",
                          "tools", "src", "build", "setup.py", "conftest.py"})


_LAYOUT_ROOTS = ("src", "lib")  # folders a tree's packages may sit below (PyYAML's lib/)


@dataclass(frozen=True, order=True)
class TopLevel:
    """One top-level import of a tree, read from its paths (:func:`top_level`)."""

    name: str  # the name an import starts with: "requests", "six", "jaraco"
    path: str  # what it covers, without a src/ or lib/ root: "requests", "six", "jaraco/text"
    package: bool  # a folder (a package, or a module below namespace folders), not a lone module
    namespace: bool = False  # a regular package below namespace folders ("jaraco/text")


def top_level(paths: Iterable[str]) -> frozenset[TopLevel]:
    """The tree's top-level packages and modules: the one rule that the marker names of a tree
    (its packages), the import test's renamed packages (every top-level import) and a vendoring
    record's files (what each covers) all read. A root ``src/`` (or PyYAML's ``lib/``) folder
    that is no package itself is looked through; namespace folders (no ``__init__.py``) are looked
    through to the first regular package or module (``jaraco/text`` of the jaraco
    distributions, not the ``jaraco`` they share); the folders and files of ``NOT_PACKAGES``
    (``tests``, ``docs``, ``setup.py``) and names that are no identifier are none."""
    return _top_level(frozenset(paths))


# A run asks this of the same trees several times (marker names, vendoring records, folder
# markers, the hits' packages), and `lineage history` of every commit's tree, mostly unchanged:
# a pure function of the path set, so remembered for the last few sets.
@functools.lru_cache(maxsize=16)
def _top_level(paths: frozenset[str]) -> frozenset[TopLevel]:
    roots = package_roots(paths)
    packages = {path[: -len("/__init__.py")] for path in paths if path.endswith("/__init__.py")}
    tops = set()
    for path in paths:
        parts = import_parts(path, roots)
        root = path[: len(path) - len("/".join(parts))]
        name = parts[0].removesuffix(".pyi").removesuffix(".py")
        if parts[0] in NOT_PACKAGES or not name.isidentifier() or name == "__init__":
            continue
        top = "/".join(parts).removesuffix(".pyi").removesuffix(".py")  # a module of namespace folders
        namespace = False
        folder = root + parts[0]
        for k in range(1, len(parts)):
            if folder in packages:
                top, namespace = "/".join(parts[:k]), k > 1  # the first regular package on the way
                break
            folder += "/" + parts[k]
        tops.add(TopLevel(name, top, len(parts) > 1, namespace))
    return frozenset(tops)


def import_parts(path: str, roots: frozenset[str]) -> list[str]:
    """A tree path's parts as an import reads them: below a root ``src/`` or ``lib/`` folder
    that is no package itself (``roots``: the tree's :func:`package_roots`)."""
    parts = path.split("/")
    if parts[0] in _LAYOUT_ROOTS and len(parts) > 1 and parts[0] not in roots:
        return parts[1:]
    return parts


def package_roots(paths: Iterable[str]) -> frozenset[str]:
    """Which of the layout folders ``src`` and ``lib`` are packages of this tree (hold an
    ``__init__.py``): all :func:`import_parts` needs of the tree's other paths, so a file's top
    package can be told from its path and these alone (a run that rematches one changed file
    tells it as a run over the whole tree does)."""
    paths = set(paths)
    return frozenset(root for root in _LAYOUT_ROOTS if f"{root}/__init__.py" in paths)


@dataclass(frozen=True)
class ProjectInfo:
    """A project's own names, requirements and statements of reuse; every field is sorted and
    deduplicated."""

    name: str = ""  # distribution name as declared ("sglang")
    repositories: tuple[str, ...] = ()  # "owner/name" of every forge URL in the metadata
    authors: tuple[str, ...] = ()  # author names ("vLLM Team"), never e-mail addresses
    requires: tuple[str, ...] = ()  # its requirements as declared ("transformers<5.20.0,>=5.16.1")
    # the sentences of its description that state reuse (lineage.markers.description)
    reuse: tuple[ReuseStatement, ...] = ()
    # the copyright lines of its description (description_copyrights)
    copyrights: tuple[str, ...] = ()

    def names(self, authors: bool = True) -> set[str]:
        """Lower-case names a marker or copyright line may use for this project; without
        ``authors``, its distribution and repository names only (a description's "the HuggingFace
        team" names no one of the team's many projects: datasets 3.1.0's was read as naming
        accelerate and peft)."""
        out = {self.name.lower(), self.name.lower().replace("-", "_")}
        for repo in self.repositories:
            out |= {repo.lower(), repo.split("/", 1)[1].lower()}
        if authors:
            out |= {a.lower() for a in self.authors}
        return {n for n in out if n}


# Project-URL labels (normalised as PEP 753 does: lower case, no spaces or punctuation) of links
# to a community or a sponsor, not to the project's own code: typing_extensions 4.12.2 links
# "Q & A, https://github.com/python/typing/discussions", which made ``typing`` one of its names
# (and CPython's typing module, named in pydantic's ``v1/typing.py``, a marker of it).
_ELSEWHERE_LABELS = frozenset({"qa", "discussions", "discussion", "forum", "community", "chat", "discord",
                               "gitter", "slack", "funding", "sponsor", "sponsors", "donate", "donation",
                               "tidelift", "twitter", "mastodon", "blog"})


def project_url(value: str) -> str:
    """The URL of a ``Project-URL: LABEL, URL`` field, or "" when its label names a link away
    from the project's own code (:data:`_ELSEWHERE_LABELS`)."""
    label, _, url = value.partition(",")
    if not url:
        return value
    return "" if _normalised_label(label) in _ELSEWHERE_LABELS else url.strip()


def _normalised_label(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", label.lower())


def repositories_in(texts: list[str]) -> tuple[str, ...]:
    """The ``owner/name`` of every forge repository URL in ``texts``; not a sponsor page
    (``github.com/sponsors/NAME``) nor a repository's discussions, whatever the link's label
    ("GitHub Sponsors", "Questions"): another project's forum is no name of this one."""
    found = set()
    for text in texts:
        for m in _REPO_RE.finditer(text):
            if m.group("owner").lower() == "sponsors" or text[m.end() - 1:].startswith("/discussions"):
                continue
            found.add(f"{m.group('owner')}/{m.group('name')}")
    return tuple(sorted(found))


# Parts of a holder's or author's name that name no one by themselves ("Meta Platforms, Inc. and
# affiliates", "NVIDIA CORPORATION & AFFILIATES", "Author: Hugging Face, Inc."), compared lower
# case without a leading "the" or trailing " .,;": linking holders by them would join every
# company, and huggingface-hub 0.26.2's "inc." made transformers' Meta, Facebook and Amazon files
# "taken from the target".
NAMELESS_PARTS = frozenset({"its affiliates", "affiliates", "inc", "ltd", "llc", "corp", "co", "gmbh",
                            "contributors", "authors", "other contributors", "others",
                            "all rights reserved", "et al"})


# An aside in brackets ("(past and future)", a URL) and a tail crediting helpers ("with the help of
# all our contributors") are no author names: transformers 5.16.1's Author field, "The Hugging Face
# team (past and future) with the help of all our contributors (https://...)", was read as the two
# names "The Hugging Face team (past" and "future) with the help of ...".
_AUTHOR_ASIDE_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_HELPERS_TAIL_RE = re.compile(r"\s+with\s+(?:the\s+)?(?:help|contributions?|assistance)\s+(?:of|from|by)\b.*$",
                              re.IGNORECASE)


def _authors(values: list[str]) -> tuple[str, ...]:
    """The author names of metadata fields, split at commas and "and", without asides in brackets
    or a tail crediting helpers (:data:`_AUTHOR_ASIDE_RE`); a part that names no one
    (:data:`NAMELESS_PARTS`: the "Inc." of "Hugging Face, Inc.") is left out."""
    out = set()
    for value in values:
        value = _HELPERS_TAIL_RE.sub("", _AUTHOR_ASIDE_RE.sub(" ", re.sub(r"<[^>]*>", "", value)))
        for part in re.split(r",|\band\b", value):
            part = part.strip().strip('"')
            key = re.sub(r"^the\s+", "", part.lower().strip(" .,;"))
            if part and "@" not in part and part.upper() != "UNKNOWN" and key not in NAMELESS_PARTS:
                out.add(part)
    return tuple(sorted(out))


def _from_metadata(raw: bytes) -> ProjectInfo:
    message = core_metadata(raw)
    urls = [project_url(str(v)) for v in (message.get_all("Project-URL") or [])]
    urls += [str(message.get(k) or "") for k in ("Home-page", "Download-URL")]
    authors = [str(message.get(k) or "") for k in ("Author", "Maintainer")]
    # "Author-email: vLLM Team <x@y>" carries the name before the address
    authors += [re.sub(r"<[^>]*>", "", str(v)) for v in (message.get_all("Author-email") or [])]
    return ProjectInfo(name=str(message.get("Name") or "").strip(), repositories=repositories_in(urls),
                       authors=_authors(authors),
                       requires=_requirements(str(v) for v in (message.get_all("Requires-Dist") or [])))


def _requirements(values: Iterable[str]) -> tuple[str, ...]:
    """Requirement strings, stripped, sorted and deduplicated (read as written: a malformed one is
    dropped where it is used, :func:`lineage.results.third_party.requirement_for`)."""
    return tuple(sorted({v.strip() for v in values if v.strip()}))


def _from_pyproject(raw: bytes) -> ProjectInfo:
    try:
        project = tomllib.loads(raw.decode("utf-8")).get("project", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ProjectInfo()
    if not isinstance(project, dict):
        return ProjectInfo()
    urls = project.get("urls") if isinstance(project.get("urls"), dict) else {}
    people = project.get("authors") if isinstance(project.get("authors"), list) else []
    names = [p["name"] for p in people if isinstance(p, dict) and isinstance(p.get("name"), str)]
    name = project.get("name") if isinstance(project.get("name"), str) else ""
    urls = {k: v for k, v in urls.items() if _normalised_label(str(k)) not in _ELSEWHERE_LABELS}
    needs = project.get("dependencies") if isinstance(project.get("dependencies"), list) else []
    return ProjectInfo(name=name.strip(), repositories=repositories_in([str(u) for u in urls.values()]),
                       authors=_authors(names), requires=_requirements(d for d in needs if isinstance(d, str)))


def _from_setup_cfg(raw: bytes) -> ProjectInfo:
    """``[metadata]`` of a setup.cfg: ``name``, ``author``, ``url`` and ``project_urls``."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(raw.decode("utf-8"))
    except (UnicodeDecodeError, configparser.Error):
        return ProjectInfo()
    if not parser.has_section("metadata"):
        return ProjectInfo()
    meta = parser["metadata"]
    # project_urls: one "LABEL = URL" a line, labels read as Project-URL's (project_url)
    labelled = [project_url(",".join(line.split("=", 1))) for line in meta.get("project_urls", "").splitlines()]
    urls = [meta.get("url", ""), meta.get("home_page", ""), *labelled]
    return ProjectInfo(name=meta.get("name", "").strip(), repositories=repositories_in(urls),
                       authors=_authors([meta.get("author", "")]))


def _from_setup_py(raw: bytes) -> ProjectInfo:
    """The literal ``name``, ``author``, ``url`` and ``project_urls`` keywords of a setup.py's
    ``setup(...)`` call, read from its syntax tree (never run): the metadata of a checkout whose
    project predates pyproject.toml (discord.py's ``author='Rapptz'``)."""
    try:
        tree = ast.parse(raw)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ProjectInfo()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup"):
            continue
        found: dict[str, str] = {}
        urls: list[str] = []
        for keyword in node.keywords:
            value = keyword.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found[keyword.arg or ""] = value.value
                if keyword.arg in ("url", "download_url"):
                    urls.append(value.value)
            elif keyword.arg == "project_urls" and isinstance(value, ast.Dict):
                urls += [v.value for k, v in zip(value.keys, value.values, strict=True)
                         if isinstance(v, ast.Constant) and isinstance(v.value, str)
                         and not (isinstance(k, ast.Constant) and isinstance(k.value, str)
                                  and _normalised_label(k.value) in _ELSEWHERE_LABELS)]
        return ProjectInfo(name=found.get("name", "").strip(), repositories=repositories_in(urls),
                           authors=_authors([found.get("author", "")]))
    return ProjectInfo()


def own_names(source: Source, target_names: Iterable[str] | None = None) -> set[str]:
    """The names under which something is the tree's own project, not an upstream of it: the
    names given for the target (``--target-name``), its metadata's names and its label. A
    vendoring record (``compare --vendored``) or a store release (``scan``) of that name is left out."""
    return set(target_names or ()) | read_project(source).names() | {source.info.label}


def read_project(source: Source) -> ProjectInfo:
    """The project of an open source, read through a :class:`~lineage.sources.base.DeclaredView`
    (a file over its limit is not read: as if absent); details in :func:`_read_project`."""
    return read_declared(source, _read_project)


def _read_project(source: Source) -> ProjectInfo:
    """The project's own names from its metadata, and the statements of reuse in its description
    (the metadata's and a README beside it, else a checkout's README) and its licence files; empty
    when it has none."""
    paths = source.paths()
    meta = sorted(p for p in paths if p.count("/") == 1 and p.endswith(".dist-info/METADATA"))
    in_licences = _licence_file_reuse(source, paths)
    for path in meta + [p for p in ("PKG-INFO",) if p in paths]:
        raw = source.read(path)
        if len(raw) <= _MAX_METADATA_BYTES:
            text = raw.decode("utf-8", "replace")
            described = reuse_statements(path, text, metadata=True)
            return replace(_from_metadata(raw), reuse=described + _readme_reuse(source, paths, described) + in_licences,
                           copyrights=description_copyrights(text, metadata=True))
    # a checkout: pyproject.toml's [project], else setup.cfg's [metadata], else setup.py's call
    reuse: tuple[ReuseStatement, ...] = ()
    copyrights: tuple[str, ...] = ()
    for path in sorted(p for p in paths if _README_RE.fullmatch(p)):
        raw = source.read(path)
        if len(raw) <= _MAX_METADATA_BYTES:
            text = raw.decode("utf-8", "replace")
            reuse += reuse_statements(path, text)
            copyrights += description_copyrights(text)
    reuse += in_licences
    copyrights = tuple(dict.fromkeys(copyrights))
    for path, read in (("pyproject.toml", _from_pyproject), ("setup.cfg", _from_setup_cfg),
                       ("setup.py", _from_setup_py)):
        if path in paths:
            raw = source.read(path)
            found = read(raw) if len(raw) <= _MAX_METADATA_BYTES else ProjectInfo()
            if replace(found, requires=()) != ProjectInfo():  # names it: requirements alone do not
                return replace(found, reuse=reuse, copyrights=copyrights)
    return ProjectInfo(reuse=reuse, copyrights=copyrights)


def _readme_reuse(source: Source, paths: list[str],
                  described: tuple[ReuseStatement, ...]) -> tuple[ReuseStatement, ...]:
    """The statements of reuse in a README shipped beside the metadata (an sdist's root) that the
    metadata's description does not already make: PyPDF3 1.0.6's README.md says "Fork of PyPDF2
    with feature improvements.", its setup.py's long_description another text. The README is the
    project's own description as much as in a checkout; most releases make it the long
    description, so a sentence both hold is quoted once, from the metadata."""
    said = {s.text for s in described}
    found: tuple[ReuseStatement, ...] = ()
    for path in sorted(p for p in paths if _README_RE.fullmatch(p)):
        raw = source.read(path)
        if len(raw) <= _MAX_METADATA_BYTES:
            found += tuple(s for s in reuse_statements(path, raw.decode("utf-8", "replace")) if s.text not in said)
    return found


def description_copyrights(text: str, metadata: bool = False) -> tuple[str, ...]:
    """The copyright lines of a description (a README, or with ``metadata`` a core metadata
    file's body only: a ``License`` header may hold a whole licence text, whose holder is the
    licence's, not the project's). PySocks 1.7.1's README credits "(C) 2006 Dan-Haim. All rights
    reserved.", the holder of its LICENSE, whom none of its two modules names
    (:func:`lineage.api.licence_holders`)."""
    if metadata:
        _, _, text = text.replace("\r\n", "\n").partition("\n\n")
    return copyright_lines(text.splitlines())


def _licence_file_reuse(source: Source, paths: list[str]) -> tuple[ReuseStatement, ...]:
    """The statements of reuse in the release's own licence files (:data:`LICENCE_FILE_RE`):
    ptyprocess 0.7.0's LICENSE opens "Ptyprocess is under the ISC license, as code derived from
    Pexpect." and its description says nothing of it. Said of the code, as a description's are; a
    licence text's own words ("products derived from this software") name no upstream after the
    phrase. Not a renaming: what makes two releases one project is read from their descriptions
    only (:func:`renamed`)."""
    found: tuple[ReuseStatement, ...] = ()
    for path in sorted(p for p in paths if LICENCE_FILE_RE.fullmatch(p)):
        raw = source.read(path)
        if len(raw) <= _MAX_METADATA_BYTES:
            found += tuple(s for s in reuse_statements(path, raw.decode("utf-8", "replace")) if s.kind != RENAMED_FROM)
    return found


def same_project(a: TreeIndex, b: TreeIndex) -> bool:
    """Whether two trees are releases of one project (:func:`one_project`)."""
    return one_project(a.project, b.project)


def one_project(a: ProjectInfo, b: ProjectInfo) -> bool:
    """Whether both are releases of one project: the same distribution name
    (:func:`same_distribution`), or the project renamed, which keeps its repository: both declare
    the same forge repositories, and some (starlite 1.51.16 and litestar 2.12.1 both link only
    litestar-org/litestar). Equal sets, not one link in common: a fork or a plugin may link its
    upstream's tracker beside its own repository. Or the project renamed, as one of them says
    (:func:`renamed`)."""
    return same_distribution(a, b) or same_repositories(a, b) or renamed(a, b)


def forked_distribution_names(target: ProjectInfo, upstream: ProjectInfo) -> set[str]:
    """The upstream's distribution name (as :meth:`ProjectInfo.names` spells it) when it is
    another project than the target's (:func:`one_project` false), else none: a fork that keeps
    the upstream's import package (docopt-ng 0.9.0 ships ``docopt/``, pypika-tortoise 0.2.1
    ``pypika/``) carries that name as a package of its own, but "a fork of the original docopt"
    in its description still names the upstream, another distribution."""
    if not upstream.name or one_project(target, upstream):
        return set()
    return {upstream.name.lower(), upstream.name.lower().replace("-", "_")}


def stated_reuse(target: ProjectInfo, target_names: Iterable[str], upstream: ProjectInfo,
                 label: str) -> list[ReuseStatement]:
    """The statements of the target's description that state reuse from this upstream (known by
    its distribution and repository names and its ``label``), as ``declared_reuse`` reports them:
    a name the target carries too names neither (a release compared with an older one of itself),
    save the distribution name of an upstream of another project (:func:`forked_distribution_names`).
    ``target_names``: names the run gives the target besides its own (``--target-name``)."""
    own = {n.lower() for n in target_names} | target.names()
    names = (upstream.names(authors=False) | {label.lower()}) - (own - forked_distribution_names(target, upstream))
    return statements_naming(target.reuse, names)


def one_project_evidence(a: ProjectInfo, b: ProjectInfo) -> str:
    """What makes ``a`` and ``b`` releases of one project (:func:`one_project`), as a report says
    it; "" when they are not."""
    if same_distribution(a, b):
        return "the same distribution name"
    if same_repositories(a, b):
        return "another distribution name, the same repository"
    return "another distribution name, its earlier one as a description says" if renamed(a, b) else ""


def renamed(a: ProjectInfo, b: ProjectInfo) -> bool:
    """Whether the description of one names the other's distribution name as its own earlier
    name (:data:`lineage.markers.description.RENAMED_FROM`: pycodestyle 2.12.1, "formerly called
    pep8", whose pep8 1.7.1 links no repository of its own in its metadata). Only the
    distribution name: a description that names a project's repository or authors may be
    speaking of any of its projects."""
    def says(new: ProjectInfo, old: ProjectInfo) -> bool:
        statements = [s for s in new.reuse if s.kind == RENAMED_FROM]
        name = old.name.lower()
        return bool(name and statements and statements_naming(statements, {name, name.replace("-", "_")}))
    return says(a, b) or says(b, a)


def same_repositories(a: ProjectInfo, b: ProjectInfo) -> bool:
    """Whether both declare the same forge repositories (owner/name, case folded), and some."""
    def folded(p: ProjectInfo) -> set[str]:
        return {r.lower() for r in p.repositories}
    return bool(a.repositories) and folded(a) == folded(b)


def same_distribution(a: ProjectInfo, b: ProjectInfo) -> bool:
    """Whether both declare the same distribution name (PEP 503 normalised). A label is no such
    name: two unrelated folders may both be ``src``. Also the obligations' rule that a project
    owes no statement of change to its own earlier release (tornado 6.4.1 against 4.5.3)."""
    return bool(a.name and b.name) and canonicalize_name(a.name) == canonicalize_name(b.name)


def upstream_names(tree: TreeIndex) -> set[str]:
    """Names a marker may use for this upstream: its label, its top-level packages
    (:func:`top_level`; a lone top-level module's name is too common,
    ``utils``, to stand for a project; a namespace package by its dotted name, ``jaraco.text``),
    and the name, repositories and authors its own metadata declares. Here, in a module the match
    cache's code fingerprint covers: the names decide which files are marked, and so labels."""
    names = {tree.info.label.lower(), tree.info.label.lower().replace("-", "_")} | tree.project.names()
    # A package below namespace folders is named whole ("jaraco.text"; "jaraco" is every jaraco
    # distribution's), as is a module there that the project's own name names ("jaraco.context");
    # otherwise a top folder is the name, with or without an __init__.py.
    own = canonicalize_name(tree.project.name or tree.info.label)
    for top in top_level(f.path for f in tree.files):
        dotted = top.path.replace("/", ".").lower()
        if top.package:
            names.add(dotted if top.namespace or canonicalize_name(dotted) == own else top.name.lower())
    return {n for n in names if n}
