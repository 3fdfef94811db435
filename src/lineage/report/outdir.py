"""The report folder: written whole or not at all.

A report attached to a licence review must never be half new and half old. So every report is
written into a fresh sibling folder (``.NAME.lineage-tmp-PID``) and moved into place by renames
only when every file is written: an interrupted run (SIGINT, SIGTERM, SIGKILL, a full disk) leaves
the previous report untouched, or no report at all, never a mixture. The manifest, written last,
says ``"complete": true``; readers of a report (:func:`check_complete`) refuse one without it.

Rules, each because a real run went wrong without it:

- ``--out`` may not be, contain, or lie inside a local source (a directory, an archive's folder
  chain, a git repository): the report would overwrite the source's own files, or be analysed as
  target code on the next run.
- An existing ``--out`` is replaced only if it is empty or holds a lineage report (a
  ``manifest.json`` of ours, or nothing but report files): lineage never deletes a user's folder.
- Nothing is ever written through a symlink: the fresh folder holds only files lineage created,
  and an ``--out`` that is itself a symlink is refused.
- Temporary folders of runs that died (their process is gone) are removed by the next run.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from lineage.errors import LineageError

_TMP_MARK = ".lineage-tmp-"
_OLD_MARK = ".lineage-old-"
# Files and folders a lineage report consists of; a folder holding only these may be replaced.
REPORT_ENTRIES = frozenset({
    "lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md", "manifest.json",
    "html", "obligations.csv", "ATTRIBUTION.md", "lineage.spdx.json", "lineage.cdx.json", "lineage.sarif",
    "history.csv", "history.json", "history.png", "forkpoint.csv", "forkpoint.json", "forkpoint.png",
    "forkpoint_files.csv", "drift.csv", "drift.json", "drift.md", "candidates.csv",
})


class ReportError(LineageError):
    """An output folder that cannot be written safely, or a report that is not complete."""


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_out_dir(out_dir: Path, source_locations: Iterable[str]) -> Path:
    """The absolute output folder, after refusing one that would overwrite or feed a source."""
    if out_dir.is_symlink():
        raise ReportError(f"--out {out_dir} is a symlink; give the real folder")
    out = Path(os.path.abspath(out_dir))
    resolved = out.resolve()
    for location in source_locations:
        if not location:
            continue
        src = Path(location).resolve()
        if _inside(resolved, src) or _inside(src, resolved):
            relation = "is" if resolved == src else "is inside" if _inside(resolved, src) else "contains"
            raise ReportError(f"--out {out_dir} {relation} the source {location}; write the report elsewhere")
    if os.path.lexists(out):
        if not out.is_dir():
            raise ReportError(f"--out {out_dir} exists and is not a folder")
        if not is_replaceable(out):
            raise ReportError(f"--out {out_dir} holds files that are not a lineage report; "
                              "choose a new or empty folder")
    return out


def is_replaceable(folder: Path) -> bool:
    """Empty, or a lineage report (ours by its manifest, or nothing but report files)."""
    entries = {entry.name for entry in folder.iterdir()}
    if not entries or entries <= REPORT_ENTRIES:
        return True
    manifest = folder / "manifest.json"
    if manifest.is_file() and not manifest.is_symlink():
        try:
            return json.loads(manifest.read_text(encoding="utf-8")).get("format") == "lineage.manifest"
        except (OSError, ValueError, AttributeError):
            return False
    return False


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a temporary folder named after it is in use)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _remove_stale(parent: Path, name: str) -> None:
    """Temporary folders of earlier runs into ``name`` whose process has died."""
    for mark in (_TMP_MARK, _OLD_MARK):
        prefix = f".{name}{mark}"
        for entry in parent.glob(f"{prefix}*"):
            pid = entry.name[len(prefix):].split("-", 1)[0]
            if pid.isdigit() and not pid_alive(int(pid)):
                shutil.rmtree(entry, ignore_errors=True)


@contextmanager
def atomic_out_dir(out_dir: Path, source_locations: Iterable[str] = ()) -> Iterator[Path]:
    """Yield a fresh folder to write a report into; on success it replaces ``out_dir`` whole.

    On any exception (KeyboardInterrupt included) the fresh folder is removed and ``out_dir`` is
    left as it was.
    """
    out = check_out_dir(out_dir, source_locations)
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(parent, out.name)
    tmp = parent / f".{out.name}{_TMP_MARK}{os.getpid()}-{os.urandom(4).hex()}"
    tmp.mkdir()
    try:
        yield tmp
        old = None
        if os.path.lexists(out):
            old = parent / f".{out.name}{_OLD_MARK}{os.getpid()}-{os.urandom(4).hex()}"
            os.rename(out, old)
        os.rename(tmp, out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def write_outputs(out_dir: Path, writers: Sequence[tuple[str, Callable[[Path], object]]],
                  source_locations: Iterable[str] = ()) -> list[Path]:
    """Write a small set of output files (``(name, write(path))`` pairs) into ``out_dir`` whole or
    not at all (:func:`atomic_out_dir`); the paths as they are after the move."""
    out = Path(out_dir)
    try:
        with atomic_out_dir(out, source_locations) as tmp:
            for name, write in writers:
                write(tmp / name)
    except OSError as exc:
        raise LineageError(f"cannot write to {out}: {exc.strerror or exc}") from None
    return [out / name for name, _ in writers]


def check_complete(report_dir: Path) -> dict[str, object]:
    """The manifest of a whole report (a report folder, or its manifest file); a
    :class:`ReportError` for a missing or partial one."""
    manifest = report_dir if report_dir.is_file() else report_dir / "manifest.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReportError(f"{report_dir} is not a lineage report (no manifest.json)") from None
    except (OSError, ValueError) as exc:
        raise ReportError(f"{report_dir}: unreadable manifest.json ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != "lineage.manifest" or data.get("complete") is not True:
        raise ReportError(f"{report_dir}: the report is incomplete (its manifest does not say complete)")
    return data
