"""Which vLLM releases are sglang 0.5.23's vLLM-marked files closest to, against the refs the markers pin?

    .venv/bin/python scripts/forkpoint_sglang.py --pin            # (re)write corpora/vllm-sdists.json from PyPI
    .venv/bin/python scripts/forkpoint_sglang.py run --out DIR    # download the pinned sdists, run forkpoint
    .venv/bin/python scripts/forkpoint_sglang.py analyse --out DIR --files /work/main/out/sglang-vllm/files.csv \
        --md tests/eval/results/forkpoint-sglang-DATE.md

``run``: every pinned vLLM sdist (``corpora/vllm-sdists.json``) is downloaded into lineage's cache
(``<cache>/downloads/pypi-sdist/vllm-<version>/``, sha256 checked against the pin) and passed to
``lineage forkpoint`` as a local archive (sdists, not wheels: a wheel is ~400 MB, an sdist 3-50 MB,
and both hold the same ``vllm/`` sources); the target is the whole sglang wheel pinned in
``corpora/sglang-vllm.json``, so ``forkpoint_files.csv`` ranks every sglang file.

``analyse``: the files of a ``lineage compare`` report of sglang against vLLM (``files.csv``) that carry
a provenance marker (column ``marker``) are compared with their per-file closest release. A marker
ref that names a release (``v0.7.3``, ``v0.6.4.post1``; ``v0.9.1rc2`` maps to the release it led to,
``v0.7.3+rocm`` to 0.7.3) can agree or disagree; ``main``, a bare commit SHA (cannot be dated
without vLLM's git history, which is too big to fetch here) and no ref are counted apart.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import urllib.parse
from collections import Counter
from pathlib import Path

import pandas as pd
from packaging.version import InvalidVersion, Version

from lineage.errors import LineageError
from lineage.fork.forkpoint import run_forkpoint
from lineage.settings import RunSettings, default_cache_dir, print_progress
from lineage.sources.base import _sha256_file
from lineage.sources.pypi import _download_url, _pypi_release_files

ROOT = Path(__file__).resolve().parent.parent
PIN_FILE = ROOT / "corpora" / "vllm-sdists.json"
TARGET_FILE = ROOT / "corpora" / "sglang-vllm.json"
# Spread over 0.6.3-0.34.0 (about one release per quarter), plus every release a sglang marker
# pins by tag (0.5.5, 0.6.3.post1, 0.6.4.post1, 0.6.6.post1, 0.7.3, 0.8.3, 0.10.0, 0.21.0) and
# 0.9.1 (a marker pins v0.9.1rc2). 0.32.0 is the release of the main job.
VERSIONS = ["0.5.5", "0.6.3.post1", "0.6.4.post1", "0.6.6.post1", "0.7.3", "0.8.3", "0.9.1", "0.10.0",
            "0.11.0", "0.13.0", "0.17.1", "0.21.0", "0.25.0", "0.29.0", "0.32.0", "0.34.0"]
SHA = re.compile(r"[0-9a-f]{7,40}")
TAG = re.compile(r"v?(\d+\.\d+(?:\.\d+)*(?:\.post\d+)?(?:rc\d+)?)(?:\+.*)?")


def pin(path: Path) -> None:
    """Write the sdist (filename, sha256, upload date) of each of VERSIONS, as PyPI states them."""
    releases = []
    for version in VERSIONS:
        files = _pypi_release_files("vllm", version, "not asked (sdist pin)")
        sdists = [f for f in files
                  if f.get("packagetype") == "sdist" and str(f.get("filename", "")).endswith(".tar.gz")]
        if len(sdists) != 1:
            raise LineageError(f"vllm {version} has {len(sdists)} .tar.gz sdists on PyPI")
        f = sdists[0]
        releases.append({"name": "vllm", "version": version, "filename": f["filename"],
                         "sha256": f["digests"]["sha256"], "size": int(f["size"]),
                         "uploaded": str(f.get("upload_time_iso_8601") or f.get("upload_time", ""))[:10]})
    doc = {"name": "vllm-sdists",
           "description": "vLLM sdists compared with sglang 0.5.23 by scripts/forkpoint_sglang.py; fetched "
                          "from PyPI at run time into lineage's cache, never committed.",
           "releases": releases}
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(f"forkpoint_sglang: pinned {len(releases)} sdists in {path}")


def load_pins(path: Path) -> list[dict[str, object]]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))["releases"]
    except (OSError, ValueError, KeyError) as exc:
        raise LineageError(f"cannot read {path}: {exc}") from None


def fetch_sdist(release: dict[str, object], cache: Path) -> Path:
    """The cached sdist of one pinned release, downloaded (and sha256-checked) when missing."""
    folder = cache / "downloads" / "pypi-sdist" / f"vllm-{release['version']}"
    archive = folder / str(release["filename"])
    if archive.is_file() and _sha256_file(archive) == release["sha256"]:
        return archive
    folder.mkdir(parents=True, exist_ok=True)
    files = _pypi_release_files("vllm", str(release["version"]), "not asked (sdist)")
    url = next((f["url"] for f in files if f.get("filename") == release["filename"]), None)
    if url is None:
        raise LineageError(f"PyPI no longer lists {release['filename']}")
    partial = archive.with_name(archive.name + ".part")
    _download_url(urllib.parse.urljoin("https://pypi.org/", url), str(release["sha256"]), partial)
    partial.replace(archive)
    return archive


def target_spec(path: Path) -> str:
    target = json.loads(path.read_text(encoding="utf-8"))["target"]
    return f"pypi:{target['name']}=={target['version']}#sha256={target['sha256']}"


def run(out: Path, jobs: int | None) -> None:
    cache = default_cache_dir()
    pins = load_pins(PIN_FILE)
    archives = []
    for release in pins:
        archives.append(fetch_sdist(release, cache))
        print(f"forkpoint_sglang: {archives[-1]} ok", file=sys.stderr, flush=True)
    result = run_forkpoint(target_spec(TARGET_FILE), [str(a) for a in archives],
                           settings=RunSettings(jobs=jobs, progress=print_progress))
    result.inputs["candidate_versions"] = {str(a): str(r["version"]) for a, r in zip(archives, pins, strict=True)}
    for path in result.write(out):
        print(f"forkpoint_sglang: wrote {path}", file=sys.stderr)


# ---------------------------------------------------------------------------------------------------
# analyse


def ref_release(ref: str, versions: list[Version]) -> tuple[str, str]:
    """(kind, release) of a marker ref: kind is tag, main, sha or none; release the candidate it maps to."""
    ref = urllib.parse.unquote(ref).strip()
    if not ref:
        return "none", ""
    if ref in {"main", "master"}:
        return "main", ""
    m = TAG.fullmatch(ref)
    if m and ref.startswith("v"):
        try:
            v = Version(m.group(1))
        except InvalidVersion:
            return "other", ""
        # a pre-release (v0.9.1rc2) maps to the release it led to; a local build (+rocm) to its base
        base = Version(v.base_version) if v.pre else v
        later = [c for c in versions if c >= base]
        return "tag", str(later[0]) if later and later[0] == base else f"not a candidate ({v})"
    if SHA.fullmatch(ref.lower()):
        return "sha", ""
    return "other", ""


def closest(files: pd.DataFrame, version_of: dict[str, str]) -> pd.DataFrame:
    """One row per target file: its rank-1 candidates (as versions), its best distance and verbatim lines.

    ``undecided``: every candidate ties, or even the best one is no closer than pairing with no
    file at all (distance >= the file's code lines): then the release with the fewest paired
    lines wins by default (often the oldest), which says nothing about where the file came from.
    """
    files = files.assign(version=files["candidate"].map(version_of))
    best = files[files["rank"] == 1]
    rows = []
    n_candidates = files["candidate"].nunique()
    for path, g in best.groupby("target_path", sort=True):
        vs = sorted(g["version"], key=Version)
        rows.append({"target_path": path, "closest": " ".join(vs), "n_tied": len(vs),
                     "undecided": len(vs) == n_candidates or int(g["distance"].iat[0]) >= int(g["code_lines"].iat[0]),
                     "distance": int(g["distance"].iat[0]),
                     "verbatim": int(g["verbatim_code_lines"].iat[0]), "code_lines": int(g["code_lines"].iat[0]),
                     "upstream_path": str(g["upstream_path"].iat[0])})
    return pd.DataFrame(rows)


def analyse(out: Path, files_csv: Path, md: Path, command: str) -> None:
    meta = json.loads((out / "forkpoint.json").read_text(encoding="utf-8"))
    version_of = meta["candidate_versions"]
    versions = sorted(Version(v) for v in version_of.values())
    per_file = pd.read_csv(out / "forkpoint_files.csv", keep_default_na=False)
    report = pd.read_csv(files_csv, keep_default_na=False)
    marked = report[report["marker"] != ""][["target_path", "marker", "marker_kind", "marker_ref", "marker_path"]]
    near = closest(per_file, version_of).set_index("target_path")
    # (file, version) -> (rank, distance): where the pinned release itself stands
    standing = {(t, version_of[c]): (int(k), int(d)) for t, c, k, d in
                per_file[["target_path", "candidate", "rank", "distance"]].itertuples(index=False)}
    missing = {"closest": "", "undecided": True, "distance": 0, "code_lines": 0, "verbatim": 0, "upstream_path": ""}
    rows = []
    for r in marked.itertuples(index=False):
        kind, pinned = ref_release(r.marker_ref, versions)
        c = near.loc[r.target_path].to_dict() if r.target_path in near.index else missing
        if c["undecided"]:
            status = "no release beats no match"
        elif kind == "tag" and pinned.startswith("not a candidate"):
            status = "pinned release not compared"
        elif kind == "tag":
            status = "agrees" if pinned in c["closest"].split() else "disagrees"
        else:
            status = {"main": "ref main (undated)", "sha": "ref a commit SHA (undated)",
                      "none": "no ref", "other": "other ref"}[kind]
        rows.append({"target_path": r.target_path, "marker_ref": r.marker_ref, "ref_kind": kind, "pinned": pinned,
                     "closest": c["closest"], "undecided": bool(c["undecided"]), "distance": int(c["distance"]),
                     "code_lines": int(c["code_lines"]), "verbatim": int(c["verbatim"]), "status": status,
                     "marker_path": r.marker_path, "upstream_path": c["upstream_path"],
                     "pinned_rank_distance": standing.get((r.target_path, pinned), ("", ""))})
    table = pd.DataFrame(rows).sort_values("target_path")
    whole = pd.read_csv(out / "forkpoint.csv", keep_default_na=False)
    md.write_text(render(table, meta, version_of, command) + render_whole(whole, version_of), encoding="utf-8")
    print(f"forkpoint_sglang: wrote {md}")


def _closest_counts(table: pd.DataFrame, versions: list[str]) -> list[str]:
    """Marked files per closest release (a file tied between releases counts for each)."""
    counted = table[~table["undecided"]]
    single = Counter(v for c in counted["closest"] for v in c.split())
    only = Counter(c for c in counted["closest"] if " " not in c)
    lines = ["| release | marked files closest (ties count for each) | of them closest to this release alone |",
             "|---|---:|---:|"]
    lines += [f"| {v} | {single.get(v, 0)} | {only.get(v, 0)} |" for v in versions]
    return lines


def render_whole(whole: pd.DataFrame, version_of: dict[str, str]) -> str:
    """forkpoint.csv: the whole-wheel ranking, in release order."""
    whole = whole.assign(version=whole["candidate"].map(version_of))
    whole = whole.sort_values("order")
    lines = ["", "## Whole wheel (forkpoint.csv)", "",
             "The whole-target distance is dominated by sglang's own code (every code line not verbatim in "
             "the candidate counts), so its rank 1 goes to the release with the fewest upstream-only lines; "
             "the per-file tables above are the answer.", "",
             "| release | rank | distance | verbatim code lines | upstream-only code lines | paired files |",
             "|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {r.version} | {r.rank} | {r.distance:,} | {r.verbatim_code_lines:,} | "
              f"{r.upstream_only_code_lines:,} | {r.paired_files:,} |" for r in whole.itertuples(index=False)]
    return "\n".join(lines) + "\n"


def render(table: pd.DataFrame, meta: dict[str, object], version_of: dict[str, str], command: str) -> str:
    versions = sorted(set(version_of.values()), key=Version)
    n = len(table)
    decided = table[~table["undecided"]]
    by_kind = Counter(table["ref_kind"])
    status = Counter(table["status"])
    tag_rows = table[table["ref_kind"] == "tag"]
    lines = [f"# forkpoint: sglang 0.5.23's vLLM-marked files against {len(versions)} vLLM releases", "",
             "Commands: `.venv/bin/python scripts/forkpoint_sglang.py run --out DIR` (downloads the pinned "
             f"sdists, runs forkpoint), then `.venv/bin/python {command}`.", "",
             f"Target `{meta['target']['spec']}` (whole wheel, {meta['target']['python_files']} Python files); "
             f"candidates: the vLLM sdists pinned in `corpora/vllm-sdists.json` ({', '.join(versions)}); "
             f"forkpoint ran {meta['seconds']:.0f} s. Marked files: the {n} files of the main job's "
             "`files.csv` with a provenance marker. Per file, *closest* is rank 1 in `forkpoint_files.csv` "
             "(distance = target code lines not verbatim + code lines of the paired vLLM file no target line "
             "matched); a file where no release does better than no match is counted apart.", "",
             "## Closest release of each marked file", "",
             f"{len(decided)} of {n} marked files have a closest release; {n - len(decided)} have none "
             "(all candidates tie, or the best distance is not below the file's code lines, i.e. no release "
             "explains the file better than no match).", "", *_closest_counts(table, versions), "",
             "## Marker ref against closest release", "",
             "| marker ref | files | agrees | disagrees | pinned release not compared | no release beats no match |",
             "|---|---:|---:|---:|---:|---:|"]
    for kind, label in [("tag", "release tag"), ("main", "`main` (undated)"), ("sha", "commit SHA (undated)"),
                        ("none", "no ref"), ("other", "other")]:
        g = table[table["ref_kind"] == kind]
        if len(g) == 0:
            continue
        s = Counter(g["status"])
        lines.append(f"| {label} | {len(g)} | {s.get('agrees', 0) or '-'} | {s.get('disagrees', 0) or '-'} | "
                     f"{s.get('pinned release not compared', 0) or '-'} | {s.get('no release beats no match', 0)} |")
    wrong = tag_rows[tag_rows["status"] == "disagrees"]
    pairs = list(zip(wrong["pinned"], wrong["closest"], strict=True))
    newer = sum(all(Version(v) > Version(p) for v in c.split()) for p, c in pairs)
    older = sum(all(Version(v) < Version(p) for v in c.split()) for p, c in pairs)
    lines += ["", f"Of the {len(wrong)} disagreements, the closest release is newer than the pinned one for "
              f"{newer} and older for {older}.", "",
              f"Refs by kind: {dict(sorted(by_kind.items()))}; statuses: {dict(sorted(status.items()))}.", "",
              "A bare commit SHA or `main` cannot be dated without vLLM's git history (too big to fetch here), so "
              "those files only appear in the first table.", "",
              "## Files whose marker pins a release tag", "",
              "| sglang file | marker ref | pinned | closest (rank 1) | distance | verbatim / code lines "
              "| pinned release: rank, distance | status |",
              "|---|---|---|---|---:|---|---|---|"]
    for r in tag_rows.itertuples(index=False):
        shown = "(none)" if r.undecided else r.closest
        lines.append(f"| `{r.target_path}` | {r.marker_ref} | {r.pinned} | {shown} | "
                     f"{r.distance} | {r.verbatim} / {r.code_lines} | {', '.join(map(str, r.pinned_rank_distance))} "
                     f"| {r.status} |")
    lines += ["", "## Other marked files (ref undated or absent)", "",
              "| sglang file | marker ref | closest (rank 1) | distance | verbatim / code lines |",
              "|---|---|---|---:|---|"]
    for r in table[table["ref_kind"] != "tag"].itertuples(index=False):
        ref = r.marker_ref[:12] if r.ref_kind == "sha" else r.marker_ref
        lines.append(f"| `{r.target_path}` | {ref or '-'} | {r.closest if not r.undecided else '(none)'} | "
                     f"{r.distance} | {r.verbatim} / {r.code_lines} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pin", action="store_true", help="rewrite corpora/vllm-sdists.json from PyPI and stop")
    parser.add_argument("mode", nargs="?", choices=["run", "analyse"], default="run")
    parser.add_argument("--out", type=Path, default=Path("out/forkpoint-sglang"))
    parser.add_argument("--files", type=Path, default=Path("/work/main/out/sglang-vllm/files.csv"),
                        help="files.csv of a lineage compare of sglang against vLLM (markers)")
    parser.add_argument("--md", type=Path, default=None, help="where analyse writes its table")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        if args.pin:
            pin(PIN_FILE)
        elif args.mode == "run":
            run(args.out, args.jobs)
        else:
            md = args.md or args.out / "forkpoint-sglang.md"
            analyse(args.out, args.files, md, "scripts/forkpoint_sglang.py " + " ".join(sys.argv[1:]))
    except (OSError, KeyError, ValueError) as exc:  # a missing or foreign forkpoint/compare output
        print(f"forkpoint_sglang: cannot read the outputs: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    except LineageError as exc:
        print(f"forkpoint_sglang: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
