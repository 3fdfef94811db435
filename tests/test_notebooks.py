"""The notebooks in notebooks/: the small one is executed here (nbclient) from a folder that is not
notebooks/, the big ones are checked as saved."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebooks extra is not installed (scripts/setup.sh)")
nbclient = pytest.importorskip("nbclient", reason="the notebooks extra is not installed (scripts/setup.sh)")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
HEADLINE = re.compile(r"^[\d,]+ of [\d,]+ files carry a marker naming ")


def _texts(cell: dict) -> list[str]:
    """The text a code cell printed or returned."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(o["text"])
        elif "text/plain" in o.get("data", {}):
            out.append(o["data"]["text/plain"])
    return out


def test_quick_fixture_notebook_runs_from_any_folder(tmp_path: Path) -> None:
    nb = nbformat.read(NOTEBOOKS / "quick-fixture.ipynb", as_version=4)
    # run in an unrelated folder: the notebook may not rely on being started from notebooks/
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = "\n".join(t for c in nb.cells if c.cell_type == "code" for t in _texts(c))
    headline = [line for line in printed.splitlines() if HEADLINE.match(line)]
    assert len(headline) == 1 and "verbatim" in headline[0]
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) == 1
    # lineage's labels against the generator's truth, both printed by the notebook
    truth = re.search(r"^by construction: (\{.*\})$", printed, re.M)
    found = re.search(r"^lineage\s+: (\{.*\})$", printed, re.M)
    assert truth and found and ast.literal_eval(truth.group(1))["verbatim"] > 0
    assert ast.literal_eval(found.group(1)) == ast.literal_eval(truth.group(1))
    assert re.search(r"^reproduced: \d+ files identical$", printed, re.M)
    assert list(tmp_path.iterdir()) == []  # it wrote into its own temporary folder, and removed it


@pytest.mark.parametrize("name", ["api-walkthrough.ipynb", "main-job.ipynb", "quick-fixture.ipynb"])
def test_notebook_paths_do_not_depend_on_the_working_folder(name: str) -> None:
    path = NOTEBOOKS / name
    if not path.exists():
        pytest.skip(f"{name} is not written yet")
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "'../" not in code and '"../' not in code and "os.chdir" not in code


def _readme_headlines() -> list[list[str]]:
    """Every four-line headline block the README prints (with or without a '> ' quote)."""
    lines = [re.sub(r"^> ?", "", line) for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()]
    blocks = []
    for k, line in enumerate(lines):
        if line.startswith("- ") and HEADLINE.match(line[2:]):
            blocks.append([x[2:] for x in lines[k:k + 4]])
    return blocks


def test_main_job_notebook_headline_is_the_readmes() -> None:
    path = NOTEBOOKS / "main-job.ipynb"
    if not path.exists():
        pytest.skip("notebooks/main-job.ipynb is not written yet")
    nb = nbformat.read(path, as_version=4)
    printed = "\n".join(t for c in nb.cells if c.cell_type == "code" for t in _texts(c)).splitlines()
    start = [k for k, line in enumerate(printed) if HEADLINE.match(line)]
    if not start:
        pytest.skip("notebooks/main-job.ipynb is saved without its outputs")
    headline = [line.rstrip(".") + "." for line in printed[start[0]:start[0] + 4]]
    readme = _readme_headlines()
    assert readme, "the README prints no headline"
    assert headline in readme, ("the notebook's saved headline is not one the README prints; rerun the main job "
                                "and the notebook, and update the README", headline)
