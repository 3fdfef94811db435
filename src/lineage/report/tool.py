"""Which lineage wrote a report: its version and, run from a git checkout, the commit.

Its own module, importing neither pandas nor the attachment libraries: a run answered by the
whole-result cache stamps the running tool into the stored manifest
(:func:`lineage.report.cache.refreshed_manifest`) and must stay fast.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from lineage import __version__
from lineage.index import INDEX_VERSION


def tool_info() -> dict[str, object]:
    """Which lineage wrote a report: its version and, run from a git checkout, the commit."""
    info: dict[str, object] = {"name": "lineage", "version": __version__, "index_version": INDEX_VERSION}
    info.update(_checkout_commit())
    return info


@functools.cache
def _checkout_commit() -> dict[str, object]:
    """{"commit", "dirty"} when this package is imported from a git checkout of lineage, else {}."""
    root = Path(__file__).resolve().parents[3]  # src/lineage/report/tool.py -> the checkout
    if not (root / "pyproject.toml").is_file() or not (root / ".git").exists():
        return {}  # an installed wheel: the version says it all
    git = ["git", "-C", str(root)]
    try:
        head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL)
        status = subprocess.run([*git, "status", "--porcelain", "--", "src"],
                                capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if head.returncode != 0 or status.returncode != 0:
        return {}
    # dirty: the sources differ from that commit (edited or new files), so the commit alone does not name the code
    return {"commit": head.stdout.strip(), "dirty": bool(status.stdout.strip())}
