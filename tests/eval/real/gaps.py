"""Steps 4 and 5 of a git case's truth: the lines between the lines blame found unchanged.

    python -m tests.eval.real.gaps CASE      # recompute them on the committed truth (PyPI only)

Blame (steps 1-3, :mod:`tests.eval.real.gittruth`) says which target lines are unchanged since
OLD, up to whitespace.  A copy-detection truth must also count a copied line that was changed a
little since: the suite's synthetic cases count renamed identifiers, edited literals, re-wrapped
calls and reformatted lines as ``near`` copies, and the vendored case counts a changed line
still similar to the one it replaced (``align.diff_pairs``).  These rules give the git cases the
same meaning.  All work in one target file against its *main* upstream file (the one most of its
blame lines come from), in order only: the blame lines of that pair, the longest chain of them
increasing in both files (:func:`align.increasing_chain`), are anchors, and only the lines
strictly between two anchors (or before the first, after the last) are aligned with the
upstream lines between the same two places.

4. **Reformatted / renamed** (:func:`reformat_rows`): lines equal on :func:`reformat_key` (no
   whitespace, one quote character, no trailing comma; a fork's package name read as the
   upstream's) in the equal blocks of a diff of the two stretches, and not equal stripped:
   ``near``, category ``renamed`` when the line holds the fork's name, else ``reformatted``.
5. Then, with the lines of step 4 as further anchors:

   a. **Statements** (:func:`statement_rows`): the statements (logical lines, by ``tokenize``;
      tokens normalised as in step 4, a comma before a closing bracket dropped) of both
      stretches are aligned by a diff.  A statement whose tokens equal those of the statement
      opposite but broken over other lines (what Black does to a long call) is ``rewrapped``:
      each of its lines copies the upstream line that holds its first token (the synthetic
      ``rewrap_calls`` rule).  In a changed block, a multi-line statement paired with the most
      similar statement opposite (rapidfuzz ratio of the token texts >= ``NEAR_CUTOFF``, 0.6:
      re-wrapped *and* edited, a signature that gained annotations) is ``edited``: each of its
      lines at least half of whose words (names, literals) are words of that statement.
      Statements of one line on both sides are left to b.
   b. **Lines** (:func:`edited_rows`): the remaining lines of both stretches are aligned as the
      vendored case aligns a file (:func:`align.diff_pairs`): a line inside a changed block
      paired with the most similar line opposite it, at rapidfuzz ratio >= ``NEAR_CUTOFF``
      (0.6), is a ``near`` copy, category ``edited`` (an identifier renamed, a literal changed,
      an annotation added); a line identical to the line opposite it (an equal block, or the
      best pair of a changed block) is a ``verbatim`` copy, category ``realigned`` (blame
      credits it to a later commit whose diff aligned it with another ``else:`` or ``)``).

   Step 5 runs only where the main upstream file is the target file's own (after the rename):
   git's history says the file is a later version of it, so a line opposite a changed line is
   a changed copy of it.  A file created after OLD from a few lines of another file
   (``nextcord/interactions.py``: 2 blame lines from ``discord/webhook.py`` in 1,105) gets
   blame's lines and step 4 only.

Only the blame rows (categories ``same_file`` and ``moved``) are inputs, so recomputing the
steps on a committed truth gives the same rows as a rebuild from the clone.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import re
import sys
import tokenize
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.eval import generate
from tests.eval.real import align, cases

BLAME_CATEGORIES = ("same_file", "moved")
_SPACE = re.compile(r"\s+")
_CLOSERS = {")", "]", "}"}
_SKIP = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENDMARKER, tokenize.ENCODING}


def reformat_key(text: str) -> str:
    """A line as a formatter leaves it alone: no whitespace, one quote character, no trailing
    comma (what black or isort change inside one line)."""
    return _SPACE.sub("", text).replace("'", '"').rstrip(",")


def renamer(rename: tuple[str, str] | None) -> Callable[[str], str]:
    """Text with the fork's package name replaced by the upstream's (both casings)."""
    if not rename:
        return lambda text: text
    fork, upstream = rename

    def apply(text: str) -> str:
        return text.replace(fork, upstream).replace(fork.capitalize(), upstream.capitalize())

    return apply


Statement = list[tuple[str, int]]  # (normalised token, 0-based line of the token)


def statements(lines: Sequence[str], rename_text: Callable[[str], str]) -> dict[int, Statement]:
    """First line -> tokens of every logical line of a file (``tokenize``; comments left out,
    quotes unified, a comma before a closing bracket dropped: Black's magic trailing comma).
    A file tokenize refuses yields none (no statement rule there)."""
    source = "".join(line + "\n" for line in lines)
    out: dict[int, Statement] = {}
    current: Statement = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.NEWLINE or tok.type == tokenize.ENDMARKER:
                if current and all(text != "\0" for text, _ in current):
                    out[current[0][1]] = current
                current = []
            elif tok.type not in _SKIP:
                if tok.start[0] != tok.end[0]:
                    current.append(("\0", tok.start[0] - 1))  # a multi-line string: no statement rule
                text = rename_text(tok.string).replace("'", '"')
                if text in _CLOSERS and current and current[-1][0] == ",":
                    current.pop()
                current.append((text, tok.start[0] - 1))
    except (tokenize.TokenError, SyntaxError):
        return {}
    return out


def _gaps(n_a: int, n_b: int, anchors: Sequence[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """(i1, i2, j1, j2) half-open stretches between consecutive anchors of the chain."""
    chain = align.increasing_chain(anchors)
    bounds = [(-1, -1), *chain, (n_a, n_b)]
    return [(ia + 1, ib, ja + 1, jb) for (ia, ja), (ib, jb) in zip(bounds, bounds[1:], strict=False)
            if ia + 1 < ib and ja + 1 < jb]


def reformat_rows(lines: Sequence[str], up_lines: Sequence[str], anchors: Sequence[tuple[int, int]],
                  normalise: Callable[[str], str]) -> list[tuple[int, int]]:
    """Step 4: (i, j) of lines equal on ``normalise`` but not stripped, between anchors."""
    out = []
    for i1, i2, j1, j2 in _gaps(len(lines), len(up_lines), anchors):
        left = [normalise(text.strip()) for text in lines[i1:i2]]
        right = [normalise(text.strip()) for text in up_lines[j1:j2]]
        for i, j in align.equal_pairs(left, right):
            if left[i] and lines[i1 + i].strip() != up_lines[j1 + j].strip():
                out.append((i1 + i, j1 + j))
    return out


def statement_rows(lines: Sequence[str], up_lines: Sequence[str], anchors: Sequence[tuple[int, int]],
                   rename_text: Callable[[str], str], used_up: set[int]) -> list[tuple[int, int, str]]:
    """Step 5a: (i, j, category) of the lines of multi-line statements copied with other line
    breaks (``rewrapped``: the same tokens) or edited (``edited``: the most similar statement
    opposite, ratio >= ``NEAR_CUTOFF``, as step 5b pairs single lines); every line of a paired
    upstream statement goes into ``used_up``.  Two one-line statements are left to step 5b."""
    mine, theirs = statements(lines, rename_text), statements(up_lines, rename_text)
    if not mine or not theirs:
        return []
    out = []
    for i1, i2, j1, j2 in _gaps(len(lines), len(up_lines), anchors):
        left = [s for start, s in sorted(mine.items()) if start >= i1 and s[-1][1] < i2]
        right = [s for start, s in sorted(theirs.items()) if start >= j1 and s[-1][1] < j2]
        keys_l = [" ".join(t for t, _ in s) for s in left]
        keys_r = [" ".join(t for t, _ in s) for s in right]
        pairs: list[tuple[int, int, str]] = []
        for tag, a1, a2, b1, b2 in align.opcodes(keys_l, keys_r):
            if tag == "equal":
                pairs += [(a1 + k, b1 + k, "rewrapped") for k in range(a2 - a1)]
            elif tag == "replace":
                pairs += [(a, b, "edited") for a, b in align.similar_pairs(keys_l, keys_r, a1, a2, b1, b2)]
        for a, b, category in pairs:
            s, u = left[a], right[b]
            s_lines, u_lines = sorted({line for _, line in s}), sorted({line for _, line in u})
            if len(s_lines) == 1 and len(u_lines) == 1:
                continue  # one line each: steps 3-4 and 5b judge it
            if category == "rewrapped" and [line - s[0][1] for _, line in s] == [line - u[0][1] for _, line in u]:
                continue  # the same line breaks: not a re-wrap
            used_up.update(u_lines)
            out.extend((i, _partner(s, u, i, category), category) for i in s_lines
                       if category == "rewrapped" or _kept(s, u, i))
    return out


def _is_word(token: str) -> bool:
    return any(ch.isalnum() or ch == "_" for ch in token)


def _kept(s: Statement, u: Statement, line: int) -> bool:
    """A line of an edited statement is a copy when at least half of its words (names,
    literals) are words of the upstream statement: a slot or an argument added by the edit
    (``"subscriber_count",`` in a re-wrapped ``__slots__``) is new text, a bracket is not."""
    theirs = Counter(t for t, _ in u if _is_word(t))
    words = [t for t, at in s if at == line and _is_word(t)]
    found = 0
    for word in words:
        if theirs[word] > 0:
            theirs[word] -= 1
            found += 1
    return 2 * found >= len(words)


def _partner(s: Statement, u: Statement, line: int, category: str) -> int:
    """The upstream line a line of statement ``s`` copies: the one holding its first token
    (same tokens), else the first place after the line's start where its first token stands
    in ``u``, else ``u``'s first line."""
    k = next(k for k, (_, at) in enumerate(s) if at == line)
    if category == "rewrapped":
        return u[k][1]
    token = s[k][0]
    start = int(k * len(u) / len(s))
    for _, at in (x for x in u[start:] + u[:start] if x[0] == token):
        return at
    return u[0][1]


def edited_rows(lines: Sequence[str], up_lines: Sequence[str], anchors: Sequence[tuple[int, int]],
                rename_text: Callable[[str], str], taken_up: set[int]) -> list[tuple[int, int, bool]]:
    """Step 5b: (i, j, in an equal block) of the lines the vendored rule pairs in a stretch."""
    taken = {i for i, _ in anchors}
    out = []
    for i1, i2, j1, j2 in _gaps(len(lines), len(up_lines), anchors):
        left = [i for i in range(i1, i2) if i not in taken and lines[i].strip()]
        right = [j for j in range(j1, j2) if j not in taken_up and up_lines[j].strip()]
        if not left or not right:
            continue
        pairs = align.diff_pairs([rename_text(lines[i]) for i in left], [up_lines[j] for j in right])
        out.extend((left[a], right[b], equal) for a, b, equal in pairs)
    return out


def gap_rows(rel: str, lines: Sequence[str], up_lines: dict[str, list[str]], rows: dict[int, dict],
             rename: tuple[str, str] | None) -> dict[int, dict]:
    """Steps 4-5 for one target file: ``rows`` (1-based line -> blame row) with the new rows added."""
    rows = {n: row for n, row in rows.items() if row["category"] in BLAME_CATEGORIES}
    if not rows:
        return rows
    rename_text = renamer(rename)
    main = Counter(row["upstream_path"] for row in rows.values()).most_common(1)[0][0]
    theirs = up_lines[main]

    def anchors() -> list[tuple[int, int]]:
        return sorted((n - 1, row["upstream_line"] - 1) for n, row in rows.items() if row["upstream_path"] == main)

    def add(i: int, j: int, category: str) -> None:
        if i + 1 in rows or not lines[i].strip():
            return
        same = lines[i].strip() == theirs[j].strip()
        rows[i + 1] = {"target_path": rel, "line": i + 1, "expected": "verbatim" if same else "near",
                       "upstream_path": main, "upstream_line": j + 1, "category": category}

    for i, j in reformat_rows(lines, theirs, anchors(), lambda text: reformat_key(rename_text(text))):
        add(i, j, "renamed" if rename_text(lines[i]) != lines[i] else "reformatted")
    if main != rename_text(rel):
        return dict(sorted(rows.items()))  # step 5 only in a later version of the same file
    taken_up: set[int] = set()
    for i, j, category in statement_rows(lines, theirs, anchors(), rename_text, taken_up):
        add(i, j, category)
    taken_up |= {row["upstream_line"] - 1 for row in rows.values() if row["upstream_path"] == main}
    for i, j, _ in edited_rows(lines, theirs, anchors(), rename_text, taken_up):
        add(i, j, "realigned" if lines[i].strip() == theirs[j].strip() else "edited")
    return dict(sorted(rows.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Recompute steps 4-5 of a git case's committed truth.")
    parser.add_argument("case", help="case name in manifest.toml (kind = git)")
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    case = cases.load_manifest().get(args.case)
    if case is None or case.kind != "git":
        parser.error(f"{args.case!r} is not a git case of {cases.MANIFEST}")
    target, upstream = cases.collect(case, args.cache_dir)
    with gzip.open(case.dir / cases.TRUTH_FILE, "rt", newline="", encoding="utf-8") as fh:
        old = list(csv.DictReader(fh))
    by_file: dict[str, dict[int, dict]] = {}
    for row in old:
        row["line"], row["upstream_line"] = int(row["line"]), int(row["upstream_line"])
        by_file.setdefault(row["target_path"], {})[row["line"]] = row
    up_lines = {rel: generate.split_lines(generate.decode_source(data)) for rel, data in upstream.items()}
    rename = tuple(case.git["rename"]) if case.git.get("rename") else None
    truth = []
    for rel in sorted(by_file):
        lines = generate.split_lines(generate.decode_source(target[rel]))
        truth.extend(gap_rows(rel, lines, up_lines, by_file[rel], rename).values())
    write_truth(case.dir, truth)
    record = json.loads((case.dir / "truth.json").read_text(encoding="utf-8"))
    counts = {k: v for k, v in record["counts"].items() if "/" not in k}
    counts |= Counter(f"{row['category']}/{row['expected']}" for row in truth)
    record["counts"] = dict(sorted(counts.items()))
    (case.dir / "truth.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(record["counts"], indent=2))
    return 0


def write_truth(case_dir: Path, truth: list[dict]) -> None:
    """``truth.csv.gz`` (mtime 0: the same bytes on a rerun)."""
    with (case_dir / cases.TRUTH_FILE).open("wb") as raw, \
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed, \
            io.TextIOWrapper(packed, encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=cases.GIT_TRUTH_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(truth)


if __name__ == "__main__":
    sys.exit(main())
