"""Which releases name a copyright holder only in code, and whose holders come from where.

    .venv/bin/python scripts/holder_survey.py ARCHIVE...

Reads each wheel's or sdist's licence files and packages as ``lineage.licences.read_source_licence``
does and prints, for every release whose packages state a ``__copyright__`` string
(``SourceLicence.package_copyrights``), its root licence files' first holder line (which comes
first for a file without lines of its own) and the package strings read: the check that the
package rule reaches the releases it is for (requests names its holder only there) and no other.
Example: every release in lineage's download cache,
``scripts/holder_survey.py ~/.cache/lineage/downloads/pypi/*/*.whl ~/.cache/lineage/downloads/pypi/*/*.tar.gz``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lineage.errors import LineageError
from lineage.licences.declared import read_source_licence
from lineage.sources import open_source


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("archives", nargs="+", type=Path)
    args = parser.parse_args(argv)
    read = stated = only_in_code = 0
    for archive in sorted(args.archives):
        try:
            with open_source(str(archive)) as source:
                lic = read_source_licence(source)
        except (LineageError, OSError) as exc:
            print(f"skipped {archive.name}: {exc}")
            continue
        read += 1
        if not lic.package_copyrights:
            continue
        stated += 1
        root = lic.file_fallback_copyrights
        only_in_code += not root
        print(f"{archive.name}: root licence files {root[0] if root else '(no holder)'!r}; package "
              + "; ".join(f"{path}: {line!r}" for line, path in lic.package_copyrights))
    print(f"{read} releases read, {stated} with package copyrights, {only_in_code} naming a holder only there")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
