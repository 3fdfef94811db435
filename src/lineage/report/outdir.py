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
- An existing ``--out`` is replaced only if it holds nothing but what lineage writes (report
  files, the files its manifest lists, the pages of ``html/``; :func:`foreign_entry`), checked
  when the run starts and again just before the swap: lineage never deletes a user's folder, nor
  a user's file put into an old report (a ``manifest.json`` alone vouches for nothing else).
- Nothing is ever written through a symlink: the fresh folder holds only files lineage created,
  and an ``--out`` that is itself a symlink is refused.
- The swap (old report aside, new one in, two renames) runs with SIGINT and SIGTERM held back
  (:func:`_signals_held`), so no catchable signal leaves ``--out`` missing between them; a signal
  that comes once the new report is in place does not turn the run into an interrupted one.
- Temporary folders of runs that died (their process is gone) are removed by the next run, except
  an old report set aside by a run killed (SIGKILL) between the two renames: with ``--out``
  missing, it is put back.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from lineage.errors import LineageError
from lineage.report.folder import file_sha256, plain_name

_TMP_MARK = ".lineage-tmp-"
_OLD_MARK = ".lineage-old-"
# Files and folders a lineage report consists of; a folder holding only these may be replaced.
REPORT_ENTRIES = frozenset({
    "lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md", "manifest.json",
    "html", "obligations.csv", "ATTRIBUTION.md", "lineage.spdx.json", "lineage.cdx.json", "lineage.sarif",
    "history.csv", "history.json", "history.png", "forkpoint.csv", "forkpoint.json", "forkpoint.png",
    "forkpoint_files.csv", "drift.csv", "drift.json", "drift.md", "candidates.csv", "scan.json",
})
# The report's folders and the suffixes of the files lineage writes into them (html/: its pages,
# lineage.css, lineage.js); such a folder holding anything else is not ours to delete.
REPORT_FOLDERS = {"html": (".html", ".css", ".js")}


class ReportError(LineageError):
    """An output folder that cannot be written safely, or a report that is not complete."""


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def local_paths(specs: Iterable[str]) -> list[str]:
    """The folders and files on this machine that the source specs name (for --out checks)."""
    found = []
    for spec in specs:
        if spec.startswith("pypi:"):
            continue
        path = spec if os.path.exists(spec) or "@" not in spec else spec.rsplit("@", 1)[0]
        if os.path.exists(path):
            found.append(path)
    return found


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
        _check_replaceable(out, out_dir)
    else:  # the folders above it are made: none of them may be a file
        above = next((p for p in out.parents if os.path.lexists(p)), None)
        if above is not None and not above.is_dir():
            raise ReportError(f"--out {out_dir} lies below {above}, which is a file, not a folder")
    return out


def _check_replaceable(out: Path, shown: Path) -> None:
    foreign = foreign_entry(out)
    if foreign is not None:
        raise ReportError(f"--out {shown} is not a lineage report: it holds {foreign}, which lineage did not "
                          "write; choose a new or empty folder, or move that away")


def _listed_outputs(folder: Path) -> set[str]:
    """The output files the folder's manifest lists, if the manifest is ours (plain names only)."""
    manifest = folder / "manifest.json"
    if not manifest.is_file() or manifest.is_symlink():
        return set()
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    if not isinstance(data, dict) or data.get("format") != "lineage.manifest":
        return set()
    outputs = data.get("outputs")
    return {name for name in outputs if isinstance(name, str) and plain_name(name)} if isinstance(
        outputs, (dict, list)) else set()


def foreign_entry(folder: Path) -> str | None:
    """The first entry of ``folder`` (a relative POSIX path, in sorted order) that lineage does not
    write into a report, or None when there is none (an empty folder too). Lineage's are: the
    report files (:data:`REPORT_ENTRIES`), the files its manifest lists, and inside a report
    folder (:data:`REPORT_FOLDERS`) files of the suffixes written there. A symlink is never ours."""
    listed = _listed_outputs(folder)
    listed_dirs = {"/".join(parts[:k]) for parts in (name.split("/") for name in listed) for k in range(1, len(parts))}

    def first(here: Path, prefix: str) -> str | None:
        suffixes = REPORT_FOLDERS.get(prefix.rstrip("/"), ())
        for entry in sorted(here.iterdir(), key=lambda e: e.name):
            name = prefix + entry.name
            if entry.is_symlink():
                return name
            if entry.is_dir():
                if (not prefix and name in REPORT_FOLDERS) or name in listed_dirs:
                    inner = first(entry, name + "/")
                    if inner is not None:
                        return inner
                    continue
                return name + "/"
            ours = (name in listed or (not prefix and name in REPORT_ENTRIES and name not in REPORT_FOLDERS)
                    or (bool(suffixes) and entry.name.endswith(suffixes)))
            if not ours:
                return name
        return None

    return first(folder, "")


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
    """Temporary folders of earlier runs into ``name`` whose process has died; an old report one of
    them set aside is put back instead when ``name`` itself is missing (the run was killed between
    its two renames), the newest of them if several."""
    out = parent / name
    for mark in (_TMP_MARK, _OLD_MARK):
        prefix = f".{name}{mark}"
        dead = []
        for entry in parent.glob(f"{prefix}*"):
            pid = entry.name[len(prefix):].split("-", 1)[0]
            if pid.isdigit() and not pid_alive(int(pid)):
                dead.append(entry)
        if mark == _OLD_MARK and dead and not os.path.lexists(out):
            newest = max(dead, key=lambda e: e.lstat().st_ctime)  # a rename sets a folder's ctime
            os.rename(newest, out)
            dead.remove(newest)
        for entry in dead:
            shutil.rmtree(entry, ignore_errors=True)


@contextmanager
def _signals_held() -> Iterator[list[int]]:
    """SIGINT and SIGTERM held back: their Python handlers replaced by one that notes the signal
    (the list yielded). A handler, not ``pthread_sigmask``: the kernel may hand a signal to any
    thread a library started, whose mask is not the main thread's, and CPython then runs the
    handler in the main thread all the same. Outside the main thread nothing can be held, nor
    needs to be: Python runs signal handlers only in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    noted: list[int] = []
    held = (signal.SIGINT, signal.SIGTERM)
    before = {sig: signal.signal(sig, lambda signum, frame: noted.append(signum)) for sig in held}
    try:
        yield noted
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _swap(tmp: Path, out: Path, shown: Path) -> Path | None:
    """Move the fresh folder to ``out``, setting an existing ``out`` aside first (its new name is
    returned; None when there was none). Call with signals held (:func:`_signals_held`)."""
    old = None
    try:
        if os.path.lexists(out):
            _check_replaceable(out, shown)  # a user may have put files into it while the run wrote
            old = out.parent / f".{out.name}{_OLD_MARK}{os.getpid()}-{os.urandom(4).hex()}"
            os.rename(out, old)
        os.rename(tmp, out)
    except BaseException:  # the second rename failed (a full disk does not fail it; EACCES may)
        if old is not None and os.path.lexists(old) and not os.path.lexists(out):
            os.rename(old, out)
        raise
    return old


@contextmanager
def atomic_out_dir(out_dir: Path, source_locations: Iterable[str] = ()) -> Iterator[Path]:
    """Yield a fresh folder to write a report into; on success it replaces ``out_dir`` whole.

    On any exception (KeyboardInterrupt included) before the swap the fresh folder is removed and
    ``out_dir`` is left as it was; once the new report is in place, an interrupt while the old one
    is removed leaves what remains of it to the next run (:func:`_remove_stale`).
    """
    out = check_out_dir(out_dir, source_locations)
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(parent, out.name)
    tmp = parent / f".{out.name}{_TMP_MARK}{os.getpid()}-{os.urandom(4).hex()}"
    tmp.mkdir()
    try:
        yield tmp
        with _signals_held():
            old = _swap(tmp, out, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    # A signal noted during the swap is dropped: the run it would have stopped is done, whole.
    if old is not None:
        # An interrupt here stops the removal only: the new report is in place, the next run
        # removes the rest.
        with contextlib.suppress(KeyboardInterrupt):
            shutil.rmtree(old, ignore_errors=True)


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


def check_output(report_dir: Path, manifest: dict[str, object], name: str) -> Path:
    """File ``name`` of a whole report (``manifest`` from :func:`check_complete`), after checking
    it is the file the manifest records (its sha256): a :class:`ReportError` for one it does not
    list, a missing one, or one cut short or edited since."""
    outputs = manifest.get("outputs")
    recorded = outputs.get(name) if isinstance(outputs, dict) else None
    if not isinstance(recorded, str):
        raise ReportError(f"{report_dir}: the manifest does not list {name}")
    path = report_dir / name
    try:
        digest = "sha256:" + file_sha256(path)
    except FileNotFoundError:
        raise ReportError(f"{report_dir} is not a whole report: {name} is missing") from None
    except OSError as exc:
        raise ReportError(f"cannot read {path}: {exc.strerror or exc}") from None
    if digest != recorded:
        raise ReportError(f"{path} is not the file the manifest records (sha256 differs): cut short or edited "
                          "since the report was written")
    return path
