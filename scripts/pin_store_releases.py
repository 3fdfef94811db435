#!/usr/bin/env python3
"""Pin a list of PyPI releases (name==version per line) to the file lineage would fetch, with its sha256.

    .venv/bin/python scripts/pin_store_releases.py corpora/store-releases-200.txt \\
        --out corpora/store-releases-200.json --allow-large vllm,flashinfer-python [--max-mb 30]

For each line ``NAME==VERSION`` (``#`` starts a comment) it reads PyPI's JSON API
(``/pypi/NAME/VERSION/json``) and picks the file ``lineage.sources.pypi`` would download on this
interpreter: the wheel pip chooses (the compatible wheel whose tag comes first in
``packaging.tags.sys_tags()``, honouring ``requires_python``), else the sdist (``.tar.gz`` first),
else any wheel (``none-any`` first). A release whose file is larger than ``--max-mb`` is left out
and said so on stderr, as is one PyPI does not know: the output lists only what was pinned, in the
order of the input, with the ``scans`` of the ``--scans-from`` manifest. Run it with the
interpreter lineage runs on (the pins are what *it* downloads). Exit 0, or 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.tags import sys_tags
from packaging.utils import InvalidWheelFilename, parse_wheel_filename

PYPI = "https://pypi.org/pypi"
ARCHIVES = (".whl", ".tar.gz", ".zip", ".tar.bz2", ".tgz")


def _requirements(path: Path) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep or not name.strip() or not version.strip():
            raise SystemExit(f"pin_store_releases: {path}:{n}: expected NAME==VERSION, got {raw!r}")
        out.append((name.strip(), version.strip()))
    return out


def _get(url: str) -> Any | None:
    req = urllib.request.Request(url, headers={"User-Agent": "lineage-pin-script"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return None
        raise


def _files(name: str, version: str) -> list[dict[str, Any]] | None:
    """The release's files; the project document's "releases" when the release document is not
    served (some PyPI proxies serve only the former; lineage.sources.pypi falls back the same way)."""
    project = f"{PYPI}/{urllib.parse.quote(name, safe='')}"
    data = _get(f"{project}/{urllib.parse.quote(version, safe='')}/json")
    if isinstance(data, dict):
        return list(data.get("urls") or [])
    data = _get(f"{project}/json")
    releases = data.get("releases") if isinstance(data, dict) else None
    if not isinstance(releases, dict):
        return None
    return next((list(f) for v, f in releases.items() if v.lower() == version.lower()), None)


def _python_ok(f: dict[str, Any]) -> bool:
    spec = f.get("requires_python") or ""
    try:
        return not spec or SpecifierSet(spec).contains(platform.python_version())
    except InvalidSpecifier:
        return True  # pip ignores an unparsable requires_python too


def pick(files: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The file lineage's fetcher ends up with: pip's wheel, else the sdist, else any wheel."""
    usable = [f for f in files if isinstance(f.get("filename"), str) and f["filename"].lower().endswith(ARCHIVES)
              and (f.get("digests") or {}).get("sha256")]
    priority = {tag: i for i, tag in enumerate(sys_tags())}
    best: tuple[int, str] | None = None
    chosen = None
    for f in usable:
        if f.get("packagetype") != "bdist_wheel" or not _python_ok(f):
            continue
        try:
            tags = parse_wheel_filename(f["filename"])[3]
        except InvalidWheelFilename:
            continue
        ranks = [priority[t] for t in tags if t in priority]
        if ranks and (best is None or (min(ranks), f["filename"]) < best):
            best, chosen = (min(ranks), f["filename"]), f
    if chosen is not None:
        return chosen
    sdists = sorted((f for f in usable if f.get("packagetype") == "sdist"),
                    key=lambda f: (not f["filename"].endswith(".tar.gz"), f["filename"]))
    if sdists:
        return sdists[0]
    wheels = sorted((f for f in usable if f.get("packagetype") == "bdist_wheel"),
                    key=lambda f: (not f["filename"].endswith("-none-any.whl"), f["filename"]))
    return wheels[0] if wheels else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("names", type=Path, help="one NAME==VERSION per line")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--max-mb", type=float, default=30.0, help="leave out releases whose file is larger")
    parser.add_argument("--allow-large", default="", metavar="NAME,NAME",
                        help="projects kept whatever their file's size (the upstreams the benchmark is about)")
    parser.add_argument("--scans-from", type=Path, default=Path("corpora/store-releases.json"),
                        help="manifest whose 'scans' the output keeps")
    parser.add_argument("--description", default="")
    args = parser.parse_args(argv)
    if not args.names.is_file():
        print(f"pin_store_releases: error: no such file {args.names}", file=sys.stderr)
        return 2
    scans = (json.loads(args.scans_from.read_text(encoding="utf-8")).get("scans", [])
             if args.scans_from.is_file() else [])
    large = {n.strip().lower() for n in args.allow_large.split(",") if n.strip()}
    pinned: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    total = 0
    for name, version in _requirements(args.names):
        key = (name.lower().replace("_", "-"), version)
        if key in seen:
            continue
        seen.add(key)
        files = _files(name, version)
        chosen = pick(files) if files is not None else None
        if chosen is None:
            print(f"left out {name}=={version}: {'no such release' if files is None else 'no usable file'}",
                  file=sys.stderr)
            continue
        size = int(chosen.get("size") or 0)
        if size > args.max_mb * 1e6 and key[0] not in large:
            print(f"left out {name}=={version}: {chosen['filename']} is {size / 1e6:.1f} MB", file=sys.stderr)
            continue
        total += size
        pinned.append({"name": key[0], "version": version, "filename": chosen["filename"],
                       "sha256": chosen["digests"]["sha256"], "size": size})
    # One line per release, as corpora/store-releases.json: a re-pin diffs line by line.
    rows = ",\n".join("  " + json.dumps(e) for e in pinned)
    scan_rows = ",\n".join("  " + json.dumps(e) for e in scans)
    text = (f'{{\n "name": {json.dumps(args.out.stem)},\n "description": {json.dumps(args.description)},\n'
            f' "releases": [\n{rows}\n ],\n "scans": [\n{scan_rows}\n ]\n}}\n')
    json.loads(text)
    args.out.write_text(text, encoding="utf-8")
    print(f"{len(pinned)} releases pinned, {total / 1e6:.1f} MB to download -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
