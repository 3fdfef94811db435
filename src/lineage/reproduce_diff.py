"""A rerun's files against the digests a manifest records, and the first figure that differs.

:func:`compare_outputs` sorts the recorded files into identical and differing by sha256; for a
differing one, :func:`first_difference` names the first differing figure in one line (a JSON key
path, the headline first; a CSV row and its columns; a text line), read from the old file beside
the manifest when that is still the recorded one.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileDifference:
    path: str  # relative to the report folder
    recorded: str  # "sha256:..."
    produced: str  # "sha256:...", or "" when the rerun did not write the file
    first: str  # the first differing figure, or why it cannot be shown


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()


def _short(value: object, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _json_difference(old: object, new: object, where: str = "") -> str | None:
    """The first differing value (its key path), the headline first."""
    if isinstance(old, dict) and isinstance(new, dict):
        keys = sorted(set(old) | set(new), key=lambda k: (k != "headline", str(k)))
        for key in keys:
            here = f"{where}.{key}" if where else str(key)
            if key not in old:
                return f"{here}: new, {_short(new[key])}"
            if key not in new:
                return f"{here}: gone (was {_short(old[key])})"
            found = _json_difference(old[key], new[key], here)
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            found = _json_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        if len(old) != len(new):
            return f"{where}: {len(old):,} items recorded, {len(new):,} now"
        return None
    return None if old == new else f"{where}: {_short(old)} -> {_short(new)}"


def _csv_difference(old: Path, new: Path) -> str | None:
    """The first differing row: its line, first column, and the columns that differ."""
    with open(old, newline="", encoding="utf-8") as fa, open(new, newline="", encoding="utf-8") as fb:
        rows_a, rows_b = csv.reader(fa), csv.reader(fb)
        head_a, head_b = next(rows_a, []), next(rows_b, [])
        if head_a != head_b:
            return f"columns differ: recorded {_short(','.join(head_a))}, now {_short(','.join(head_b))}"
        for number, (a, b) in enumerate(itertools.zip_longest(rows_a, rows_b), 2):
            if a == b:
                continue
            if a is None or b is None:
                return f"line {number}: {'a row more' if a is None else 'a row fewer'} than recorded"
            changed = [f"{name} {_short(x, 40)} -> {_short(y, 40)}"
                       for name, x, y in itertools.zip_longest(head_a, a, b, fillvalue="") if x != y]
            key = f" ({head_a[0]}={a[0]})" if head_a and a else ""
            return f"line {number}{key}: " + "; ".join(changed[:3]) + (" ..." if len(changed) > 3 else "")
    return None


def _text_difference(old: Path, new: Path) -> str | None:
    with open(old, encoding="utf-8", errors="replace") as fa, open(new, encoding="utf-8", errors="replace") as fb:
        for number, (a, b) in enumerate(itertools.zip_longest(fa, fb), 1):
            if a != b:
                return f"line {number}: {_short((a or '').rstrip(chr(10)))} -> {_short((b or '').rstrip(chr(10)))}"
    return None


def first_difference(old: Path, new: Path) -> str:
    """The first figure that differs between a recorded file and its rerun, in one line."""
    suffix = old.suffix.lower()
    try:
        if suffix in (".json", ".sarif"):
            found = _json_difference(json.loads(old.read_text(encoding="utf-8")),
                                     json.loads(new.read_text(encoding="utf-8")))
        elif suffix == ".csv":
            found = _csv_difference(old, new)
        else:
            found = _text_difference(old, new)
    except (OSError, ValueError, csv.Error) as exc:
        return f"differs (cannot compare the figures: {exc})"
    return found or "differs in bytes only (same figures)"


def compare_outputs(recorded: dict[str, str], report_dir: Path, rerun_dir: Path
                    ) -> tuple[list[str], list[FileDifference], list[str]]:
    """(identical files, differing files, notes) of a rerun against the recorded digests."""
    identical: list[str] = []
    differing: list[FileDifference] = []
    edited: list[str] = []
    for path in sorted(recorded):
        want = str(recorded[path])
        old, new = report_dir / path, rerun_dir / path
        old_intact = old.is_file() and _sha256(old) == want
        if old.is_file() and not old_intact:
            edited.append(path)
        if not new.is_file():
            differing.append(FileDifference(path, want, "", "not written by the rerun"))
            continue
        got = _sha256(new)
        if got == want:
            identical.append(path)
            continue
        first = (first_difference(old, new) if old_intact else
                 f"sha256 {got.removeprefix('sha256:')[:12]}..., recorded {want.removeprefix('sha256:')[:12]}... "
                 "(the recorded file is not beside the manifest to show the figures)")
        differing.append(FileDifference(path, want, got, first))
    notes = []
    if edited:
        notes.append(f"{len(edited):,} files beside the manifest were changed after it was written: "
                     + ", ".join(edited[:5]) + (" ..." if len(edited) > 5 else ""))
    return identical, differing, notes


__all__ = ["FileDifference", "compare_outputs", "first_difference"]
