"""What lineage keeps under a cache root, and only that: listing and clearing its own folders.

A cache root may hold the user's own folders too (``--cache-dir ~/work``): lineage owns exactly
``index-v<N>/`` (:mod:`lineage.index.store`), ``match-v<N>/`` (:mod:`lineage.match.store`),
``result-v<N>/`` (:mod:`lineage.report.cache`), ``tables-v<N>/`` (:mod:`lineage.results.reuse`),
``side-v<N>/`` (:mod:`lineage.side_cache`), ``elements-v<N>/`` (:mod:`lineage.report.elements`),
``pages-v<N>/`` (:mod:`lineage.report.page_cache`) and
``downloads/`` (:mod:`lineage.sources.pypi`), matched by whole name, never by prefix. Nothing here
follows a symbolic link, so a dangling or outward link is counted as itself and never crashes.

Clearing is safe while runs are active: a run whose entry vanishes reads a miss and recomputes
it, and one whose entry folder vanishes while it writes makes the folder again.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from lineage.errors import LineageError

_ENTRY_FOLDER = re.compile(r"(index|match|result|tables|side|elements|pages)-v\d+")
DOWNLOADS = "downloads"


@dataclass(frozen=True)
class FolderUsage:
    name: str
    entries: int  # .rec entries; for downloads, archives
    bytes: int


def check_root(root: Path) -> None:
    """A cache root must be a folder, or not exist yet under a folder."""
    for folder in (root, *root.parents):
        if os.path.isdir(folder):
            return
        if os.path.lexists(folder):
            what = "is not" if folder == root else f"lies under {folder}, which is not"
            raise LineageError(f"cache folder {root} {what} a directory")


def own_folders(root: Path) -> list[Path]:
    """lineage's folders under ``root``, sorted: entry folders of every version, then downloads."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    found = [root / n for n in names if _ENTRY_FOLDER.fullmatch(n)]
    return found + ([root / DOWNLOADS] if DOWNLOADS in names else [])


def usage(root: Path) -> list[FolderUsage]:
    """Entries and bytes (symbolic links counted as links, not followed) of each own folder."""
    check_root(root)
    return [_usage(folder) for folder in own_folders(root)]


def _usage(folder: Path) -> FolderUsage:
    downloads = folder.name == DOWNLOADS
    entries = size = 0
    for parent, _dirs, files in os.walk(folder):  # os.walk never follows links by default
        for name in files:
            try:
                size += os.lstat(os.path.join(parent, name)).st_size
            except OSError:  # removed while we looked
                continue
            if downloads:
                entries += not name.endswith((".sha256", ".url"))  # the records beside an archive
            else:  # not the entries of stores under way (or cut short) in temporary folders
                entries += name.endswith(".rec") and not os.path.basename(parent).startswith(".tmp-")
    return FolderUsage(folder.name, entries, size)


def clear(root: Path, keep_downloads: bool = False) -> list[FolderUsage]:
    """Remove lineage's own folders under ``root`` (downloads too unless ``keep_downloads``);
    return what each held. The user's other files and folders there are never touched."""
    check_root(root)
    removed = []
    for folder in own_folders(root):
        if keep_downloads and folder.name == DOWNLOADS:
            continue
        used = _usage(folder)
        if folder.is_symlink() or not folder.is_dir():
            folder.unlink(missing_ok=True)  # the link itself, never what it points at
        else:
            shutil.rmtree(folder, ignore_errors=True)
        removed.append(used)
    return removed
