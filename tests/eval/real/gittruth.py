"""Build the truth of a git case (survival, renamed fork) from a local clone, once.

    python -m tests.eval.real.gittruth CASE --repo PATH_TO_CLONE [--jobs 2]

Needs a clone of the repository whose history holds both releases (for the renamed fork: the
fork's repository, which holds the upstream's history up to the fork), the releases' pins in
``manifest.toml`` and the refs in the case's ``[case.git]`` table.  It writes, into
``tests/eval/real/CASE/``, ``truth.csv.gz`` (the copied target lines only: position, label,
upstream position, category; no code), ``files.csv`` (every target and upstream file with its
sha256, and whether the target file is scored) and ``truth.json`` (refs, options, counts).
The suite then needs only PyPI (:mod:`tests.eval.real.cases`).

How a target line is judged copied
    1. Each ``.py`` file of both releases is matched to the file of the git tree at its tag
       with the same path suffix (``requests/api.py`` <- ``src/requests/api.py``); when the
       blobs differ (a release rewrote its version line) the lines are mapped through the
       equal blocks of a diff, and unmapped lines are never copied.  A target file with no
       such git file is not scored.
    2. ``git blame --line-porcelain -w -M -C -C -C OLD..NEW -- path`` on the target's git
       file: a line whose blame ends at a boundary commit (OLD, or an older commit reached
       through a merged side branch) has been unchanged since OLD, up to whitespace (``-w``),
       and blame names where it stood: in that file, elsewhere in the same file (``-M``), or in
       any other file of the parent of the commit that brought it in (``-C -C -C``, since
       2026-12-03 evening; the first truths used ``-C -C``, which looks only in files that
       commit changed or, for a file it created, all files, and so missed a block copied into
       an existing file from a file the commit left alone: ``to_native_string`` in
       ``_internal_utils.py``).  A boundary commit other than OLD is mapped to OLD by the equal
       blocks of a diff of that file.
    3. The line is copied when that place is a line of the upstream release; ``verbatim`` if
       the stripped texts are equal, ``near`` if not (whitespace inside the line changed).
       Category ``same_file`` when the upstream file is the target file's own (after the
       rename, for a fork), ``moved`` when blame found it in another file.
    2b. With ``ignore_revs_file`` (the project's own ``.git-blame-ignore-revs`` at NEW), blame
       looks through those commits (a formatter's run); a line it follows through one must keep
       rapidfuzz ratio >= ``align.NEAR_CUTOFF`` with its origin, else it is not copied; and a
       comment line whose origin is code (or the reverse) is not copied either: Black moves a
       trailing comment that would make a line too long onto its own line, and blame then
       credits the comment with the code line, which would leave the code itself unpaired.
    4-7. In a target file, between the lines step 3 copied from its main upstream file, lines
       changed a little are copies too (:mod:`tests.eval.real.gaps`): ``renamed`` and
       ``reformatted`` (equal up to whitespace, quotes, a trailing comma and the fork's name),
       ``annotated`` (type annotations added), ``rewrapped`` (a statement broken over other
       lines) and ``edited`` (a changed line still similar to the line it replaced, the
       vendored case's rule); so are the other lines of a function blame found moved to
       another file, and ``reordered`` lines (moved within the file, unique in both).
    Every other line is not copied (category ``new`` in the suite): edited since OLD, or new,
    or moved in a block too short for blame (20 alphanumeric characters within a file, 40
    between files), or moved and edited in the same commit.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import io
import json
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import git
from rapidfuzz import fuzz

from tests.eval import generate
from tests.eval.real import align, cases, gaps

BLAME_OPTIONS = ("-w", "-M", "-C", "-C", "-C")


def blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _lines(data: bytes) -> list[str]:
    """Lines as the suite reads them (PEP 263 decoding, ``generate.split_lines``)."""
    return generate.split_lines(generate.decode_source(data))


def _git_lines(data: bytes) -> int:
    """How many lines git counts in a blob (blame numbers lines by ``\\n``)."""
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


@dataclass
class Mapped:
    """A release file matched to a git file: release line (1-based) <-> git line."""

    release_path: str
    git_path: str
    to_git: dict[int, int]

    @property
    def from_git(self) -> dict[int, int]:
        return {g: r for r, g in self.to_git.items()}


class Repo:
    def __init__(self, path: Path) -> None:
        self.repo = git.Repo(path)
        self._blobs: dict[tuple[str, str], bytes | None] = {}

    def commit(self, ref: str) -> str:
        return self.repo.git.rev_parse(f"{ref}^{{commit}}")

    def tree(self, commit: str) -> dict[str, str]:
        """git path -> blob sha1 of every ``.py`` file at ``commit``."""
        out = {}
        for line in self.repo.git.ls_tree("-r", commit).splitlines():
            meta, path = line.split("\t", 1)
            _, kind, sha = meta.split()
            if kind == "blob" and path.endswith(".py"):
                out[path] = sha
        return out

    def blob(self, commit: str, path: str) -> bytes | None:
        key = (commit, path)
        if key not in self._blobs:
            try:
                self._blobs[key] = self.repo.git.show(f"{commit}:{path}", stdout_as_string=False)
            except git.GitCommandError:
                self._blobs[key] = None
        return self._blobs[key]

    def blame(
        self, old: str, new: str, path: str, ignore: tuple[str, ...] = ()
    ) -> list[tuple[str, str, int, bool]]:
        """Per line of ``new:path``: (commit, path there, line there, boundary)."""
        skip = [arg for rev in ignore for arg in ("--ignore-rev", rev)]
        out = self.repo.git.blame("--line-porcelain", *BLAME_OPTIONS, *skip, f"{old}..{new}", "--", path)
        rows: list[tuple[str, str, int, bool]] = []
        header: list[str] | None = None
        boundary = False
        filename = ""
        for line in out.split("\n"):
            if header is None:
                if not line:
                    continue
                header = line.split()
                boundary, filename = False, ""
            elif line.startswith("\t"):
                rows.append((header[0], filename, int(header[1]), boundary))
                header = None
            elif line == "boundary":
                boundary = True
            elif line.startswith("filename "):
                filename = line[len("filename ") :]
        return rows


def match_release(repo: Repo, commit: str, files: dict[str, bytes]) -> dict[str, Mapped]:
    """Release path -> its git file at ``commit`` (see step 1 of the module docstring)."""
    tree = repo.tree(commit)
    by_blob: dict[str, list[str]] = defaultdict(list)
    for path, sha in tree.items():
        by_blob[sha].append(path)
    out = {}
    for rel, data in sorted(files.items()):
        if b"\r" in data.replace(b"\r\n", b""):
            continue  # a lone CR: git and Python number its lines differently
        suffix = [p for p in tree if p == rel or p.endswith("/" + rel)]
        same = [p for p in by_blob.get(blob_sha1(data), []) if p in suffix]
        if same:
            n = len(_lines(data))
            out[rel] = Mapped(rel, min(same, key=len), {i: i for i in range(1, n + 1)})
        elif len(suffix) == 1:
            theirs = repo.blob(commit, suffix[0]) or b""
            if _git_lines(theirs) != len(_lines(theirs)):
                continue
            pairs = align.equal_pairs(_lines(data), _lines(theirs))
            out[rel] = Mapped(rel, suffix[0], {i + 1: j + 1 for i, j in pairs})
    return out


class ToOld:
    """Maps a line of a boundary commit's file to the same line of OLD's file (or None)."""

    def __init__(self, repo: Repo, old: str) -> None:
        self.repo, self.old = repo, old
        self._maps: dict[tuple[str, str], dict[int, int]] = {}

    def __call__(self, commit: str, path: str, line: int) -> int | None:
        if commit == self.old:
            return line
        key = (commit, path)
        if key not in self._maps:
            mine, theirs = self.repo.blob(commit, path), self.repo.blob(self.old, path)
            pairs = align.equal_pairs(_lines(mine or b""), _lines(theirs or b"")) if mine and theirs else []
            self._maps[key] = {i + 1: j + 1 for i, j in pairs}
        return self._maps[key].get(line)


def ignore_revs(repo: Repo, new: str, spec: dict) -> tuple[str, ...]:
    """Commits blame looks through: the project's own ``.git-blame-ignore-revs`` at NEW (the
    file it asks ``git blame`` to use), when the case names it."""
    name = spec.get("ignore_revs_file")
    if not name:
        return ()
    data = repo.blob(new, name)
    if data is None:
        raise SystemExit(f"{name} is not in {new}")
    revs = [line.split("#", 1)[0].strip() for line in data.decode().splitlines()]
    return tuple(repo.commit(rev) for rev in revs if rev)


def build_truth(
    repo: Repo,
    old: str,
    new: str,
    target: dict[str, bytes],
    upstream: dict[str, bytes],
    rename: tuple[str, str] | None = None,
    ignore: tuple[str, ...] = (),
    jobs: int = 2,
) -> tuple[list[dict], list[dict], Counter]:
    """(truth rows of copied lines, files rows, counts); see the module docstring."""
    old, new = repo.commit(old), repo.commit(new)
    target_map = match_release(repo, new, target)
    upstream_map = match_release(repo, old, upstream)
    from_git = {m.git_path: (rel, m.from_git) for rel, m in upstream_map.items()}
    to_old = ToOld(repo, old)
    rename_text = gaps.renamer(rename)
    up_lines = {rel: _lines(data) for rel, data in upstream.items()}

    def own_file(rel: str) -> str:
        return rename_text(rel)

    def one(rel: str) -> list[dict]:
        mapped = target_map[rel]
        lines = _lines(target[rel])
        blamed = repo.blame(old, new, mapped.git_path, ignore)
        rows: dict[int, dict] = {}
        git_to_release = mapped.from_git
        for git_line, (commit, path, line, boundary) in enumerate(blamed, 1):
            number = git_to_release.get(git_line)
            if number is None or not boundary or not lines[number - 1].strip():
                continue
            old_line = to_old(commit, path, line)
            if old_line is None or path not in from_git:
                continue
            up_rel, up_from_git = from_git[path]
            up_line = up_from_git.get(old_line)
            if up_line is None:
                continue
            text, theirs = lines[number - 1].strip(), up_lines[up_rel][up_line - 1].strip()
            if text != theirs and fuzz.ratio(text, theirs) < align.NEAR_CUTOFF * 100:
                continue  # blame looked through an ignored commit to a line it rewrote
            if text != theirs and text.startswith("#") != theirs.startswith("#"):
                continue  # a comment the formatter split off a line of code is not that code
            rows[number] = {
                "target_path": rel,
                "line": number,
                "expected": "verbatim" if text == theirs else "near",
                "upstream_path": up_rel,
                "upstream_line": up_line,
                "category": "same_file" if up_rel == own_file(rel) else "moved",
            }
        rows = gaps.gap_rows(rel, lines, up_lines, rows, rename)
        return [rows[n] for n in sorted(rows)]

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        per_file = list(pool.map(one, sorted(target_map)))
    truth = [row for rows in per_file for row in rows]
    files = [
        {"side": "target", "path": rel, "sha256": cases.sha256_bytes(data), "scored": int(rel in target_map)}
        for rel, data in sorted(target.items())
    ] + [
        {"side": "upstream", "path": rel, "sha256": cases.sha256_bytes(data), "scored": int(rel in upstream_map)}
        for rel, data in sorted(upstream.items())
    ]
    counts = Counter(f"{row['category']}/{row['expected']}" for row in truth)
    counts["target_files"] = len(target)
    counts["target_files_scored"] = len(target_map)
    new_tree = repo.tree(new)
    counts["target_files_edited"] = sum(
        1 for rel, m in target_map.items() if blob_sha1(target[rel]) != new_tree.get(m.git_path)
    )
    counts["upstream_files"] = len(upstream)
    counts["upstream_files_matched"] = len(upstream_map)
    counts["target_lines_scored"] = sum(len(_lines(target[rel])) for rel in target_map)
    return truth, files, counts


def _write_csv(path: Path, rows: list[dict], columns: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build a git case's truth from a local clone.")
    parser.add_argument("case", help="case name in manifest.toml (kind = git)")
    parser.add_argument("--repo", type=Path, required=True, help="a clone holding both refs")
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    manifest = cases.load_manifest()
    case = manifest.get(args.case)
    if case is None or case.kind != "git" or not case.git:
        parser.error(f"{args.case!r} is not a git case of {cases.MANIFEST}")
    target, upstream = cases.collect(case, args.cache_dir)
    repo = Repo(args.repo)
    rename = tuple(case.git["rename"]) if case.git.get("rename") else None
    ignore = ignore_revs(repo, case.git["new"], case.git)
    truth, files, counts = build_truth(
        repo, case.git["old"], case.git["new"], target, upstream, rename=rename, ignore=ignore, jobs=args.jobs
    )
    case.dir.mkdir(parents=True, exist_ok=True)
    with (case.dir / cases.TRUTH_FILE).open("wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed, \
            io.TextIOWrapper(packed, encoding="utf-8", newline="") as fh:  # mtime 0: same bytes on a rerun
        writer = csv.DictWriter(fh, fieldnames=cases.GIT_TRUTH_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(truth)
    _write_csv(case.dir / "files.csv", files, cases.FILES_COLUMNS)
    record = {
        "repository": case.git["repository"],
        "old": {"ref": case.git["old"], "commit": repo.commit(case.git["old"]), "release": case.upstream[0].key},
        "new": {"ref": case.git["new"], "commit": repo.commit(case.git["new"]), "release": case.target.key},
        "blame": ["git", "blame", "--line-porcelain", *BLAME_OPTIONS, "OLD..NEW", "--", "PATH"],
        "rename": list(rename) if rename else None,
        "ignore_revs": list(ignore),
        "git_version": repo.repo.git.version(),
        "counts": dict(sorted(counts.items())),
    }
    (case.dir / "truth.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(record["counts"], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
