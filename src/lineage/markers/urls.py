"""Code-host URLs (GitHub, GitLab, Bitbucket, Hugging Face Hub) in marker text: repository, ref, path, lines.

The rules are in the docstring of :mod:`lineage.markers` (section "Fields").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CODE_HOSTS = r"(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|raw\.githubusercontent\.com)/"
_URL_RE = re.compile(rf"(?:https?://|(?<![\w.@/-])(?={_CODE_HOSTS}))[^\s<>\"'`()\[\]{{}}|\\^]+", re.IGNORECASE)
_URL_TRAIL = ".,;:!?'\"*`"


def find_urls(text: str) -> list[tuple[int, int, str]]:
    found = []
    for m in _URL_RE.finditer(text):
        url = m.group(0).rstrip(_URL_TRAIL)
        if "." in url.split("//", 1)[-1].split("/", 1)[0]:  # a host with a dot, not "https://x"
            found.append((m.start(), m.start() + len(url), url))
    return found


# A path ending in one of these is a document, not code (see the ``url`` kind in lineage.markers).
_DOCUMENT_SUFFIXES = (".ipynb", ".md", ".markdown", ".rst", ".txt", ".html", ".htm", ".pdf", ".png", ".jpg",
                      ".jpeg", ".gif", ".svg")


def is_document(path: str) -> bool:
    """Whether a URL's file path names a document rather than code."""
    return path.lower().endswith(_DOCUMENT_SUFFIXES)


# A repository's folder view: GitHub's and the Hugging Face Hub's ``/tree/<ref>/``, GitLab's ``/-/tree/``;
# Bitbucket's ``/src/<ref>/`` shows a file or a folder alike.
_FOLDER_VIEW_RE = re.compile(r"^[^#?]*?/tree/|^(?:https?://)?(?:www\.)?bitbucket\.org/[^/]+/[^/]+/src/", re.IGNORECASE)


def is_folder_link(url: str) -> bool:
    """Whether a URL shows a folder of a repository, not a file (see the ``url`` kind in
    lineage.markers): a ``tree`` view whose last path part has no suffix (tornado 4.5's ``web.py``
    docstring: "See the `file receiver demo <https://github.com/tornadoweb/tornado/tree/master/
    demos/file_upload/>`_"). Not a ``blob`` URL ending in ``/``: a docstring may wrap a file's URL
    there (sglang 0.5.23's ``phi4mm_utils.py``: ".../transformers/blob/v4.30.0/src/" and
    "transformers/models/t5/modeling_t5.py#L435" on the next line)."""
    bare = url.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    return bool(_FOLDER_VIEW_RE.match(bare)) and "." not in bare.rsplit("/", 1)[-1]


def without_urls(text: str) -> str:
    return _URL_RE.sub(" ", text)


@dataclass(frozen=True)
class UrlInfo:
    repository: str = ""
    ref: str = ""
    path: str = ""
    line_start: int = 0
    line_end: int = 0


_LINES_FRAGMENT_RE = re.compile(r"^L(\d+)(?:C\d+)?(?:-L?(\d+)(?:C\d+)?)?", re.IGNORECASE)
_CONTENT_KINDS = frozenset({"blob", "tree", "raw", "blame", "edit"})
# Bitbucket: ``bitbucket.org/<owner>/<name>/src|raw|annotate/<ref>/<path>``, lines as ``#lines-10:20``
# (kafka-python 2.0.2's ``vendor/enum34.py``: "vendored from:" / "https://bitbucket.org/stoneleaf/enum34/
# src/58c4cd7.../enum/__init__.py?at=1.1.6" named no repository, so the file was unmarked).
_BITBUCKET_KINDS = frozenset({"src", "raw", "annotate"})
_BITBUCKET_LINES_RE = re.compile(r"^lines-(\d+)(?::(\d+))?", re.IGNORECASE)
# The Hugging Face Hub: git repositories of models (``owner/name``), datasets and spaces
# (``datasets/owner/name``), files at ``/blob|resolve|raw|tree/<ref>/<path>`` like GitHub's.
_HF_HOSTS = frozenset({"huggingface.co", "hf.co"})
_HF_KINDS = frozenset({"blob", "resolve", "raw", "tree"})
_HF_SECTIONS = frozenset({"datasets", "spaces"})


def parse_url(url: str) -> UrlInfo:
    """Repository, ref, path and line range of a GitHub, GitLab, Bitbucket or Hugging Face Hub
    URL (empty otherwise)."""
    rest = re.sub(r"^https?://", "", url, flags=re.IGNORECASE)
    rest, _, fragment = rest.partition("#")
    rest = rest.partition("?")[0]
    host, _, tail = rest.partition("/")
    host = host.lower()
    if host.startswith("www."):
        host = host[4:]
    segs = [s for s in tail.split("/") if s]
    repository = ref = path = ""
    if host == "github.com" and len(segs) >= 2:
        repository = f"{segs[0]}/{strip_git(segs[1])}"
        if len(segs) >= 4 and segs[2].lower() in _CONTENT_KINDS:
            ref, path = segs[3], "/".join(segs[4:])
    elif host == "raw.githubusercontent.com" and len(segs) >= 3:
        repository = f"{segs[0]}/{segs[1]}"
        refs = segs[2:]
        if len(refs) >= 3 and refs[0] == "refs" and refs[1] in ("heads", "tags"):
            refs = refs[2:]
        ref, path = refs[0], "/".join(refs[1:])
    elif (host == "gitlab.com" or host.startswith("gitlab.")) and len(segs) >= 2:
        if "-" in segs:
            cut = segs.index("-")
            repository = "/".join(segs[:cut])
            after = segs[cut + 1 :]
            if len(after) >= 2 and after[0].lower() in _CONTENT_KINDS:
                ref, path = after[1], "/".join(after[2:])
        else:
            kind_at = next((i for i, s in enumerate(segs) if i >= 2 and s.lower() in _CONTENT_KINDS), -1)
            if kind_at >= 0 and len(segs) > kind_at + 1:
                repository = "/".join(segs[:kind_at])
                ref, path = segs[kind_at + 1], "/".join(segs[kind_at + 2 :])
            else:
                repository = "/".join(segs[:2])
        repository = "/".join(repository.split("/")[:-1] + [strip_git(repository.split("/")[-1])])
    elif host == "bitbucket.org" and len(segs) >= 2:
        repository = f"{segs[0]}/{strip_git(segs[1])}"
        if len(segs) >= 4 and segs[2].lower() in _BITBUCKET_KINDS:
            ref, path = segs[3], "/".join(segs[4:])
        if bb_lines := _BITBUCKET_LINES_RE.match(fragment):
            fragment = f"L{bb_lines.group(1)}" + (f"-L{bb_lines.group(2)}" if bb_lines.group(2) else "")
    elif host in _HF_HOSTS:
        repo_segs = segs[1:] if segs and segs[0] in _HF_SECTIONS else segs
        # only a URL into a file names code; "huggingface.co/org/model" names a model
        if len(repo_segs) < 5 or repo_segs[2].lower() not in _HF_KINDS:
            return UrlInfo()
        repository = f"{repo_segs[0]}/{repo_segs[1]}"
        ref, path = repo_segs[3], "/".join(repo_segs[4:])
    else:
        return UrlInfo()
    start = end = 0
    lines = _LINES_FRAGMENT_RE.match(fragment)
    if lines and path:
        start = int(lines.group(1))
        end = int(lines.group(2)) if lines.group(2) else start
    return UrlInfo(repository, ref, path, start, end)


# A commit's page: GitHub's ``<owner>/<name>/commit/<sha>``, GitLab's ``<group>/<name>/-/commit/<sha>``.
_COMMIT_PAGE_RE = re.compile(r"^(?:https?://)?(?:www\.)?(?:github\.com/[^/\s]+/[^/\s]+|gitlab\.com/(?:[^/\s]+/)+-)"
                             r"/commits?/(?P<sha>[0-9a-f]{7,40})/?(?:[#?]\S*)?$", re.IGNORECASE)


def commit_page(url: str) -> str:
    """The commit a GitHub or GitLab commit page shows (``""`` for any other URL)."""
    m = _COMMIT_PAGE_RE.match(url)
    return m.group("sha") if m else ""


def strip_git(name: str) -> str:
    return name[:-4] if name.lower().endswith(".git") else name

