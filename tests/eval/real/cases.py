"""The real cases of the accuracy suite, built at run time from pinned PyPI releases alone.

``manifest.toml`` pins every release (name, version, file name, sha256).  :func:`write_case`
fetches them through lineage's own ``pypi:`` source (``lineage.sources.open_source``, which
checks the sha256), writes the ``.py`` files of the target into ``target/`` and of the
upstream releases into ``upstream/`` (bytes as released), and writes ``truth.csv`` in the
generator's format (``generate.TRUTH_COLUMNS``) and ``case.json``:

* ``vendored``: truth computed here from the files (:mod:`tests.eval.real.vendored`);
* ``git``: truth read from the case directory's ``truth.csv.gz`` (copied lines only: position,
  label, upstream position, category) and ``files.csv`` (every file it covers with its
  sha256), made once from a local clone by :mod:`tests.eval.real.gittruth`.  Every listed file
  must have the sha256 recorded, and every ``verbatim`` truth line must equal its upstream
  line: otherwise the case is refused (:class:`RealCaseError`), never scored on shifted lines.

No git and no network other than PyPI are needed, so CI can run it.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from lineage.sources import open_source
from tests.eval import generate
from tests.eval.real import vendored

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.toml"
CASES_CORPUS = "real"
# Bump when the meaning of a written case changes (part of the cache key with the sources).
REAL_CASES_VERSION = 1
FILES_COLUMNS = ["side", "path", "sha256", "scored"]
# A git case's committed truth: gzip-compressed CSV (the fork's table is over 1 MiB as text).
TRUTH_FILE = "truth.csv.gz"
GIT_TRUTH_COLUMNS = ["target_path", "line", "expected", "upstream_path", "upstream_line", "category"]


class RealCaseError(RuntimeError):
    """A real case cannot be built faithfully (a pin or a truth file does not match)."""


@dataclass(frozen=True)
class Release:
    name: str
    version: str
    filename: str
    sha256: str
    modules: tuple[str, ...] = ()

    @property
    def spec(self) -> str:
        return f"pypi:{self.name}=={self.version}#sha256={self.sha256}"

    @property
    def key(self) -> str:
        return f"{self.name}=={self.version}"


@dataclass(frozen=True)
class RealCase:
    name: str
    kind: str
    target: Release
    upstream: tuple[Release, ...]
    target_prefix: str = ""
    git: dict = field(default_factory=dict)  # kind "git": repository, old and new refs, rename

    @property
    def dir(self) -> Path:
        return HERE / self.name

    def fingerprint(self) -> str:
        """What the written case depends on: pins, truth files, and the code that builds it."""
        digest = hashlib.sha256(f"{REAL_CASES_VERSION}\0{self!r}".encode())
        for path in sorted([*HERE.glob("*.py"), *self.dir.glob("*.csv"), *self.dir.glob("*.csv.gz")]):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        digest.update(generate.generator_fingerprint().encode())
        return digest.hexdigest()[:12]


def _release(entry: dict) -> Release:
    return Release(
        name=entry["name"],
        version=entry["version"],
        filename=entry["filename"],
        sha256=entry["sha256"],
        modules=tuple(entry.get("modules", ())),
    )


def load_manifest(path: Path = MANIFEST) -> dict[str, RealCase]:
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    cases = {}
    for entry in data.get("case", []):
        if entry.get("kind") not in ("vendored", "git"):
            raise RealCaseError(f"{path}: case {entry.get('name')!r} has unknown kind {entry.get('kind')!r}")
        case = RealCase(
            name=entry["name"],
            kind=entry["kind"],
            target=_release(entry["target"]),
            upstream=tuple(_release(item) for item in entry["upstream"]),
            target_prefix=entry.get("target_prefix", ""),
            git=dict(entry.get("git", {})),
        )
        cases[case.name] = case
    return cases


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def release_python(release: Release, cache: Path | None = None) -> dict[str, bytes]:
    """``.py`` files of a pinned release (path as released -> bytes)."""
    with open_source(release.spec, cache) as source:
        name = Path(source.info.location).name
        if name != release.filename:
            raise RealCaseError(f"{release.key}: fetched {name}, the pin names {release.filename}")
        paths = [p for p in source.paths() if p.endswith(".py")]
        return dict(source.read_many(sorted(paths)))


def _in_modules(path: str, modules: tuple[str, ...]) -> bool:
    parts = PurePosixPath(path).parts
    if not modules:
        return True
    # A release's own vendored copies of other projects are not its code.
    return parts[0] in modules and "_vendor" not in parts[1:]


def _write_tree(files: dict[str, bytes], root: Path) -> None:
    for rel, data in files.items():
        out = root.joinpath(*PurePosixPath(rel).parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)


def collect(case: RealCase, cache: Path | None = None) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(target files, upstream files) of a case, fetched from its pins."""
    target = release_python(case.target, cache)
    if case.target_prefix:
        target = {p: d for p, d in target.items() if p.startswith(case.target_prefix)}
    upstream: dict[str, bytes] = {}
    for release in case.upstream:
        for path, data in release_python(release, cache).items():
            if not _in_modules(path, release.modules):
                continue
            if path in upstream and upstream[path] != data:
                raise RealCaseError(f"{case.name}: two upstream releases hold {path}")
            upstream[path] = data
    return target, upstream


def read_files_csv(path: Path) -> list[dict]:
    with Path(path).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def git_truth_rows(
    case: RealCase, target: dict[str, str], upstream: dict[str, str], digests: dict[tuple[str, str], str]
) -> list[dict]:
    """Full truth rows of a git case from its committed ``truth.csv.gz``/``files.csv``; ``digests``
    holds the sha256 of every fetched file by (side, path)."""
    copied: dict[tuple[str, int], dict] = {}
    with gzip.open(case.dir / TRUTH_FILE, "rt", newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            copied[(row["target_path"], int(row["line"]))] = row
    scored = []
    for row in read_files_csv(case.dir / "files.csv"):
        actual = digests.get((row["side"], row["path"]))
        if actual is None:
            raise RealCaseError(f"{case.name}: {row['side']} file {row['path']} is not in the release")
        if actual != row["sha256"]:
            raise RealCaseError(
                f"{case.name}: {row['side']} {row['path']} has sha256 {actual}, truth made on {row['sha256']}"
            )
        if row["side"] == "target" and row["scored"] == "1":
            scored.append(row["path"])
    rows = []
    for path in sorted(scored):
        lines = generate.split_lines(target[path])
        kinds = generate.line_kinds(target[path])
        for number, (text, kind) in enumerate(zip(lines, kinds, strict=True), 1):
            row = {
                "target_path": path,
                "line": number,
                "copied": 0,
                "expected": "none",
                "upstream_path": "",
                "upstream_line": "",
                "operator": "new",
                "kind": kind,
            }
            hit = copied.pop((path, number), None)
            if hit is not None:
                up_lines = generate.split_lines(upstream[hit["upstream_path"]])
                up_line = int(hit["upstream_line"])
                same = up_line <= len(up_lines) and text.strip() == up_lines[up_line - 1].strip()
                if same != (hit["expected"] == "verbatim") or not text.strip():
                    raise RealCaseError(f"{case.name}: truth for {path}:{number} does not fit the release's text")
                row.update(
                    copied=1,
                    expected=hit["expected"],
                    upstream_path=hit["upstream_path"],
                    upstream_line=up_line,
                    operator=hit["category"],
                )
            rows.append(row)
    if copied:
        some = ", ".join(f"{p}:{n}" for p, n in sorted(copied)[:3])
        raise RealCaseError(f"{case.name}: {len(copied)} truth line(s) name no scored target line ({some})")
    return rows


def write_case(case: RealCase, out_dir: Path, cache: Path | None = None) -> Path:
    """Write ``target/``, ``upstream/``, ``truth.csv`` and ``case.json`` under ``out_dir``."""
    out_dir = Path(out_dir)
    target_bytes, upstream_bytes = collect(case, cache)
    _write_tree(target_bytes, out_dir / "target")
    _write_tree(upstream_bytes, out_dir / "upstream")
    # The text every tool and the scorer read (PEP 263 decoding, as generate.read_source).
    target = {p: generate.decode_source(d) for p, d in target_bytes.items()}
    upstream = {p: generate.decode_source(d) for p, d in upstream_bytes.items()}
    if case.kind == "vendored":
        rows = vendored.truth_rows(target, upstream, case.target_prefix)
    else:
        digests = {("target", p): sha256_bytes(d) for p, d in target_bytes.items()}
        digests |= {("upstream", p): sha256_bytes(d) for p, d in upstream_bytes.items()}
        rows = git_truth_rows(case, target, upstream, digests)
    with (out_dir / "truth.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=generate.TRUTH_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    meta = {
        "case": case.name,
        "kind": case.kind,
        "target": case.target.key,
        "upstream": [release.key for release in case.upstream],
        "files": len(target),
        "scored_files": len({row["target_path"] for row in rows}),
        "lines": len(rows),
        "copied_lines": sum(row["copied"] for row in rows),
        "real_cases_version": REAL_CASES_VERSION,
    }
    (out_dir / "case.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return out_dir
