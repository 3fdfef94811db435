"""Shared helpers of the real-pair truth set scripts (`truth_sample.py`, `truth_view.py`).

They read both wheels directly with zipfile, not through lineage, so that the strata of the truth
set depend on the two releases and on simple text rules written here, never on the matcher under
test. Only the line kinds (code, comment, docstring, blank) are taken from the report's lines.csv.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import zipfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpora" / "sglang-vllm.json"


def cache_dir() -> Path:
    """The lineage user cache (same rule as lineage: $LINEAGE_CACHE_DIR, else $XDG_CACHE_HOME/lineage)."""
    if os.environ.get("LINEAGE_CACHE_DIR"):
        return Path(os.environ["LINEAGE_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "lineage"


def wheel_paths(check: bool = True) -> tuple[Path, Path]:
    """Target and upstream wheels pinned by corpora/sglang-vllm.json, checked against their sha256."""
    spec = json.loads(CORPUS.read_text())
    found = []
    for side in (spec["target"], spec["upstreams"][0]):
        path = cache_dir() / "downloads" / "pypi" / f"{side['name']}-{side['version']}" / side["filename"]
        if not path.exists():
            raise SystemExit(f"truth: error: {path} missing; run `bash scripts/main.sh` first")
        if check and hashlib.sha256(path.read_bytes()).hexdigest() != side["sha256"]:
            raise SystemExit(f"truth: error: {path} does not match the sha256 pinned in {CORPUS.name}")
        found.append(path)
    return found[0], found[1]


def split_lines(data: bytes) -> list[str]:
    """Physical lines numbered as an editor (and lines.csv) numbers them."""
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text:
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_wheel(path: Path) -> dict[str, list[str]]:
    """Every .py file of a wheel as a list of lines, by path inside the wheel."""
    with zipfile.ZipFile(path) as z:
        return {n: split_lines(z.read(n)) for n in sorted(z.namelist()) if n.endswith(".py")}


def line_index(files: dict[str, list[str]]) -> dict[str, list[tuple[str, int]]]:
    """Stripped line text -> every (path, 1-based line) holding it."""
    where: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for path, lines in files.items():
        for i, line in enumerate(lines, 1):
            s = line.strip()
            if s:
                where[s].append((path, i))
    return where


# Folders an upstream keeps third-party code in, and vLLM's flash-attention copy.
VENDORED_DIRS = ("/third_party/", "/_vendor/", "/vendor/", "/external/", "/vllm_flash_attn/")
# Ownership lines that say a file belongs to vLLM itself.
OWN_COPYRIGHT = re.compile(r"contributors to the vllm project|the vllm team|vllm team|vllm authors", re.I)
COPYRIGHT = re.compile(r"copyright|\(c\)\s*\d{4}|©", re.I)


def is_third_party(path: str, lines: list[str]) -> bool:
    """A vLLM file that is third-party code: in a vendored folder, or whose header carries only
    other holders' copyright lines."""
    if any(d in f"/{path}" for d in VENDORED_DIRS):
        return True
    head = lines[:30]
    holders = [h for h in head if COPYRIGHT.search(h) and not h.strip().startswith("# SPDX-License")]
    return bool(holders) and not any(OWN_COPYRIGHT.search(h) for h in holders)


_SGLANG = re.compile(r"sglang|sgl-project", re.I)
_TOOK = re.compile(r"adapted|copied|ported|taken|derived|based on|modified from|copyright", re.I)


def is_from_sglang(lines: list[str]) -> bool:
    """A vLLM file whose header (first 40 lines) says it was adapted/copied/ported from sglang or
    carries the SGLang team's copyright: the phrase and the name on one line or two
    consecutive lines."""
    head = lines[:40]
    for i, line in enumerate(head):
        if _SGLANG.search(line) and any(_TOOK.search(h) for h in head[max(0, i - 1):i + 1]):
            return True
    return False


# A target comment naming vLLM as the origin: a URL to a file of vllm-project/vllm, vLLM's copyright,
# or a provenance word with the bare project name on the same or the previous line ("vllm" not
# joined to another name by "-" or "_": vllm-ascend, vllm_metal, nano-vllm are other projects).
_VLLM_FILE_URL = re.compile(r"vllm-project/vllm/(blob|tree|pull|commit)/", re.I)
_VLLM_URL = re.compile(r"vllm-project/vllm(?![-\w])", re.I)
_VLLM_NAME = re.compile(r"(?<![-\w.])vllm(?![-\w])", re.I)
_PROVENANCE = re.compile(r"adapt|copied|ported|taken|derived|based|modified|borrowed|inspired|source|"
                         r"reference|copyright",
                         re.I)


def names_vllm(lines: list[str]) -> bool:
    """A target file with a comment line, or a line of its first 40, saying it came from vLLM (our
    own rule, independent of lineage's marker reader)."""
    for i, line in enumerate(lines):
        s = line.strip()
        if not (s.startswith("#") or i < 40):
            continue
        if COPYRIGHT.search(s) and OWN_COPYRIGHT.search(s) or _VLLM_FILE_URL.search(s):
            return True
        window = " ".join(x.strip() for x in lines[max(0, i - 1):i + 1])
        named = _VLLM_URL.search(s) or _VLLM_NAME.search(s.replace("vllm-project/vllm", ""))
        if _PROVENANCE.search(window) and named:
            return True
    return False


LICENCE_LINE = re.compile(
    r"SPDX-|copyright|\(c\)\s*\d{4}|licen[sc]ed under|apache license|www\.apache\.org/licenses|"
    r"distributed under the license|\"as is\" basis|warranties or conditions|"
    r"governing permissions|limitations under the license|you may not use this file|"
    r"obtain a copy of the license|required by applicable law|mit license|permission is hereby granted",
    re.I)


def is_licence_line(line: str) -> bool:
    s = line.strip()
    return s.startswith("#") and bool(LICENCE_LINE.search(s))
