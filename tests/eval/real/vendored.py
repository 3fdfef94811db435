"""Truth of the vendored case: each vendored file against the same file of its release.

A target file ``<prefix><rel>`` (``pip/_vendor/idna/core.py``) is the vendored copy of the
upstream file ``<rel>`` (``idna/core.py``) when the upstream tree holds that path.  Its lines
are paired with the release file's by :func:`tests.eval.real.align.diff_pairs`:

* ``equal``: a line of a diff ``equal`` block: copied, ``verbatim`` (identical text);
* ``changed``: a line of a ``replace`` block paired with the most similar line opposite it
  (similarity >= ``align.NEAR_CUTOFF``): copied, ``verbatim`` when the stripped texts agree
  (re-indented) and ``near`` otherwise (the vendoring rewrote imports, a patch edited it);
* ``unpaired``: every other line of a vendored file (pip's patches, lines added): not copied;
* ``not_vendored``: every line of a target file with no release file at that path
  (``pip/_vendor/__init__.py``, pip's own): not copied.

The category goes into the truth's ``operator`` column, so the suite scores each separately.
"""

from __future__ import annotations

from tests.eval import generate
from tests.eval.real import align


def truth_rows(target: dict[str, str], upstream: dict[str, str], prefix: str) -> list[dict]:
    """Truth rows (``generate.TRUTH_COLUMNS``) for every line of every target file."""
    rows = []
    for path in sorted(target):
        lines = generate.split_lines(target[path])
        kinds = generate.line_kinds(target[path])
        rel = path[len(prefix) :] if path.startswith(prefix) else None
        origin: dict[int, tuple[int, bool]] = {}
        up_lines: list[str] = []
        if rel is not None and rel in upstream:
            up_lines = generate.split_lines(upstream[rel])
            origin = {i: (j, equal) for i, j, equal in align.diff_pairs(lines, up_lines)}
            category = "unpaired"
        else:
            category = "not_vendored"
        for index, (text, kind) in enumerate(zip(lines, kinds, strict=True)):
            row = {
                "target_path": path,
                "line": index + 1,
                "copied": 0,
                "expected": "none",
                "upstream_path": "",
                "upstream_line": "",
                "operator": category,
                "kind": kind,
            }
            if index in origin and text.strip():
                j, equal = origin[index]
                row.update(
                    copied=1,
                    expected="verbatim" if text.strip() == up_lines[j].strip() else "near",
                    upstream_path=rel,
                    upstream_line=j + 1,
                    operator="equal" if equal else "changed",
                )
            rows.append(row)
    return rows
