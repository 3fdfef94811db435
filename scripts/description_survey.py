"""Which statements of reuse the description rule finds across many releases, and whom they name.

    .venv/bin/python scripts/description_survey.py ARCHIVE... [--all]

Reads each wheel's or sdist's core metadata (as ``lineage.index.project.read_project`` does) and
prints, for every pair of the given releases of different projects, the statements of the first
that name the second (``lineage.markers.description``): the check that the rule names the
projects a reader would, and no dependency. ``--all`` prints every statement found, named or not.
Example: every release in lineage's download cache,
``scripts/description_survey.py ~/.cache/lineage/downloads/pypi/*/*``.
"""

from __future__ import annotations

import argparse
import tarfile
import zipfile
from pathlib import Path

from packaging.utils import canonicalize_name

from lineage.index.project import _from_metadata
from lineage.markers.description import ReuseStatement, reuse_statements, statements_naming


def core_metadata(archive: Path) -> tuple[str, bytes] | None:
    """(path, bytes) of an archive's top-level METADATA or PKG-INFO; None when it has none."""
    try:
        if archive.suffix == ".whl":
            with zipfile.ZipFile(archive) as z:
                names = [n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
                return (names[0], z.read(names[0])) if names else None
        if archive.name.endswith(".tar.gz"):
            with tarfile.open(archive) as t:
                members = [m for m in t.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")]
                handle = t.extractfile(members[0]) if members else None
                return ("PKG-INFO", handle.read()) if handle is not None else None
    except (OSError, zipfile.BadZipFile, tarfile.TarError):
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archives", nargs="+", type=Path)
    parser.add_argument("--all", action="store_true", help="print every statement found")
    args = parser.parse_args()
    releases: dict[str, tuple[set[str], tuple[ReuseStatement, ...]]] = {}
    for archive in sorted(args.archives):
        found = core_metadata(archive)
        if found is None:
            continue
        info = _from_metadata(found[1])
        project = canonicalize_name(info.name or archive.name)
        if project not in releases:  # one release per project is enough to read its description
            releases[project] = (info.names(authors=False),
                                 reuse_statements(found[0], found[1].decode("utf-8", "replace"), True))
    print(f"{len(releases)} projects, {sum(len(s) for _, s in releases.values())} statements")
    for project, (own, statements) in sorted(releases.items()):
        if args.all:
            for s in statements:
                print(f"  {project}: line {s.line} {s.kind}: {s.text[:160]}")
        for other, (names, _) in sorted(releases.items()):
            if other != project:
                for s in statements_naming(statements, names - own):
                    print(f"{project} -> {other}: line {s.line} {s.kind}: {s.text[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
