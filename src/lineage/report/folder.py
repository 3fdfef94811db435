"""The folder a report is written into, as reporters see it.

:func:`lineage.report.write_reports` makes one per report (inside the fresh folder of
:func:`lineage.report.outdir.atomic_out_dir`) and hands it to every reporter; each file a reporter
makes goes through it, so the manifest lists exactly the files written, in the order written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file, streamed: lines.csv of a large target is hundreds of MB, never worth
    holding at once."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def plain_name(name: str) -> bool:
    """A report file's name as reporters make them: relative POSIX, no ``.``/``..`` part. A name
    read back from a stored header or a manifest is used only if it is one: it must not reach
    outside the report folder."""
    parts = name.split("/")
    return bool(name) and "\\" not in name and not name.startswith("/") and all(
        part not in ("", ".", "..") for part in parts)


class ReportFolder:
    def __init__(self, root: Path, csv_cache: Path | None = None) -> None:
        self.root = root
        self.written: list[Path] = []
        self.csv_cache = csv_cache  # lineage.report.write_reports's csv_cache
        # sha256 of written files already hashed where they were written (a reporter's worker
        # process, side by side with the others), which the manifest then does not read again
        self.digests: dict[Path, str] = {}

    def path(self, name: str) -> Path:
        """Where file ``name`` (POSIX, relative) goes, for a writer that opens it itself (a library's)."""
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        self.written.append(path)
        return path

    def text(self, name: str, text: str) -> Path:
        """Write ``text`` as UTF-8 to file ``name``."""
        path = self.path(name)
        path.write_text(text, encoding="utf-8")
        return path

    def add(self, paths: Iterable[Path]) -> None:
        """Record files a reporter wrote below :attr:`root` itself (a tree of pages)."""
        self.written.extend(paths)
