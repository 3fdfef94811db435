"""Real forkpoint case: does ``lineage forkpoint`` name the release pip vendored?

    .venv/bin/python -m tests.eval.real.forkpoint_pip [--window 5] [--only NAME,...] [--out DIR]

pip 24.2 pins each package it vendors in ``pip/_vendor/vendor.txt``; those pins are the truth
(``manifest.toml``, case ``vendored``, which lists the same releases with their sha256). For each
vendored package the target is pip's wheel restricted to ``pip/_vendor/<module>`` (lineage's own
``--target-path``), and the candidates are the pinned release and up to ``--window`` releases of
the package on either side of it in PyPI's release order (final releases only). The package is
*found* when the pinned release has rank 1; a tie is accepted only when every release sharing
rank 1 holds the very same Python files for that module (same paths, same bytes) as the pin,
which no code-based method could tell apart.

Writes ``forkpoint-pip.md`` (one row per package) and each package's forkpoint outputs under
``--out``. Needs PyPI (release listings and wheels, cached in lineage's download cache).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path, PurePosixPath

from lineage.fork.candidates import pypi_releases
from lineage.fork.forkpoint import run_forkpoint
from lineage.sources import open_source
from tests.eval.real.cases import Release, load_manifest

PREFIX = "pip/_vendor/"


def window(release: Release, size: int) -> list[str]:
    """The pinned release and up to ``size`` final releases before and after it, as specs."""
    versions = [c.ref for c in pypi_releases(release.name)]
    if release.version not in versions:
        raise SystemExit(f"forkpoint_pip: {release.key} is not among PyPI's final releases of {release.name}")
    at = versions.index(release.version)
    chosen = versions[max(0, at - size):at + size + 1]
    return [release.spec if v == release.version else f"pypi:{release.name}=={v}" for v in chosen]


def module_digest(spec: str, module: str) -> str:
    """Digest of the Python files of ``module`` (a folder or a single ``.py``) in a release."""
    digest = hashlib.sha256()
    with open_source(spec, None) as source:
        paths = sorted(p for p in source.paths() if p.endswith(".py") and _in(p, module))
        for path, data in source.read_many(paths):
            digest.update(path.encode("utf-8", "surrogateescape") + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def _in(path: str, module: str) -> bool:
    parts = PurePosixPath(path).parts
    return path == module or (parts[0] == module and "_vendor" not in parts[1:])


def run_case(release: Release, target: Release, size: int, out: Path) -> dict[str, str]:
    module = release.modules[0]
    specs = window(release, size)
    result = run_forkpoint(target.spec, specs, target_path=PREFIX + module)
    result.write(out / release.name)
    frame = result.candidates
    best = frame[frame["rank"] == 1]
    refs = list(best["ref"])
    pin_row = frame[frame["ref"] == release.version].iloc[0]
    others = frame[frame["ref"] != release.version]
    runner = others.sort_values(["distance", "rank"]).iloc[0] if len(others) else None
    tied = [r for r in refs if r != release.version]
    if release.version not in refs:
        verdict = "missed"
    elif not tied:
        verdict = "found"
    else:
        pin = module_digest(release.spec, module)
        same = all(module_digest(f"pypi:{release.name}=={r}", module) == pin for r in tied)
        verdict = "found (tie: identical files)" if same else "tie with different files"
    return {
        "package": release.name, "pinned": release.version, "candidates": str(len(frame)),
        "from": str(frame.sort_values("order")["ref"].iloc[0]), "to": str(frame.sort_values("order")["ref"].iloc[-1]),
        "rank 1": ", ".join(refs), "pinned distance": str(int(pin_row["distance"])),
        "next closest": "" if runner is None else f"{runner['ref']} ({int(runner['distance'])})",
        "verdict": verdict,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--window", type=int, default=5, help="releases on either side of the pin (default 5)")
    ap.add_argument("--only", default="", help="comma-separated package names (default: all 18)")
    ap.add_argument("--out", type=Path, default=Path("out/forkpoint-pip"))
    args = ap.parse_args(argv)
    case = load_manifest()["vendored"]
    wanted = {n.strip().lower() for n in args.only.split(",") if n.strip()}
    rows = [run_case(r, case.target, args.window, args.out) for r in case.upstream
            if not wanted or r.name.lower() in wanted]
    cols = list(rows[0])
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(r[c] for c in cols) + " |" for r in rows]
    found = sum(r["verdict"].startswith("found") for r in rows)
    lines += ["", f"{found} of {len(rows)} packages: the pinned release ranks first "
              f"(window {args.window} releases either side)."]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "forkpoint-pip.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0 if found == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
