"""From match results to tables.

The tables (pandas DataFrames, one row per thing, columns documented below) are the product;
every report is a view of them.

``lines``: one row per physical line of every indexed target file.
    target_path, line (1-based), kind (code/comment/docstring/blank), match (verbatim/near/none),
    upstream_path ("" when none), upstream_line (1-based, <NA> when none), similarity (0..1),
    upstream (label of the upstream the line came from, "" when none), region (region number
    within the target file, <NA> when none), shared_origin (why a line the matcher paired is
    not counted as copied, "" otherwise: ``third_party:<name>``, the upstream file is that third
    party's code; ``from_target``, the upstream file came from the target; ``header``, a licence
    or copyright line outside copied code; ``generated``, a version file a build tool wrote; see
    :mod:`lineage.match.origin`), shared_path and shared_line (the upstream line it was paired
    with; "" and <NA> when not shared).

``files``: one row per target Python file, indexed or skipped; see :data:`FILE_COLUMNS`.

``origins``: one row per upstream file that is not the upstream's own code (see
    :mod:`lineage.match.origin`): upstream, upstream_path, origin (third_party/from_target),
    name (the third party, or the target), evidence (folder or marker text), line (of the marker;
    <NA> for a folder).

``functions``: one row per def/class of an indexed target file: its span, code lines, copied
    code lines and share, and the upstream def/class most of its copied lines came from.

``regions``: one row per copied region: both spans, the upstream, verbatim and near counts (of
    the lines left copied after every matcher step), evidence_weight (the weight of the hits
    that made the region, as the region rule saw it: steps after it, the fill and the lone-line
    rule, change the lines but not this weight; a region joined from two chains' that are one
    stretch in both files, :func:`lineage.match.regions.join_abutting`, weighs their sum).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from lineage.index import BLANK, CODE, KIND_NAMES, FileIndex
from lineage.licences.notices import holders, keeps_holders
from lineage.markers import Marker, file_marker
from lineage.match import MATCH_NAMES, NEAR, VERBATIM, MatchResult
from lineage.match.gate import (
    SHARED_FROM_TARGET,
    SHARED_GENERATED,
    SHARED_HEADER,
    SHARED_NONE,
    SHARED_THIRD_PARTY,
    Gated,
)
from lineage.match.origin import OWN, Origin, origin_parts
from lineage.results.figures import Numbers

LINE_COLUMNS = ["target_path", "line", "kind", "match", "upstream_path", "upstream_line",
                "similarity", "upstream", "region", "shared_origin", "shared_path", "shared_line"]

FILE_COLUMNS = [
    "target_path",  # POSIX, relative to the target root
    "status",  # indexed | skipped
    "reason",  # why skipped, or a note (syntax errors)
    "lines",  # physical lines
    "nonblank_lines",
    "code_lines",
    "verbatim_lines",  # non-blank lines labelled verbatim
    "near_lines",
    "verbatim_code_lines",
    "near_code_lines",
    "copied_share",  # (verbatim + near) / non-blank lines
    "upstream",  # label of the main source's upstream
    "upstream_path",  # main source: the upstream file most copied lines came from
    "upstream_files",  # how many upstream files contributed copied lines
    "upstream_paths",  # every contributing upstream file with its line count, most first
    "marker",  # text of the first provenance marker naming an upstream, else of a copyright line naming its authors
    "marker_kind",
    "marker_line",
    "marker_ref",  # tag or commit from a marker URL, else the release its text states ("from py 1.8.1")
    "marker_path",  # upstream path named by the marker
    # whether that path exists in the upstream (exactly, as a suffix, or by trailing folders; or as a folder)
    "marker_path_found",
    "marker_upstream_path",  # the upstream file (or folder) that path was found as; "" when not found
    "other_markers",  # provenance markers naming something else (count)
    "spdx",  # SPDX-License-Identifier expression(s)
    "digest",  # git blob hash of the file's bytes
    # -- what the matcher paired but is not counted as copied (lineage.match.origin)
    "file_role",  # generated (a build tool wrote it) | reexport (imports and __all__ only) | ""
    "shared_third_party_lines",  # non-blank lines shared with upstream files that are third-party code
    "shared_third_party_code_lines",
    "shared_from_target_lines",  # non-blank lines shared with upstream files that came from the target
    "shared_from_target_code_lines",
    "shared_origin",  # origin of the upstream file holding most shared lines (third_party:<name>, ...)
    "shared_upstream_path",  # that upstream file
    "shared_evidence",  # why it has that origin: its folder, or "line N: <marker text>"
    "header_copied_lines",  # licence/copyright header lines labelled copied (inside copied code)
    "header_shared_lines",  # distinct SPDX/copyright lines of the file that header_upstream_path carries too
    "header_upstream_path",  # the upstream file sharing them: the main source if it does, else the one sharing most
]


@dataclass(frozen=True)
class UpstreamFile:
    upstream: str  # label
    path: str


def _strings(codes: np.ndarray, values: list[str]) -> pd.arrays.ArrowStringArray:
    """A string column from codes into a few distinct values, built in Arrow: converting two
    million Python strings one by one costs a second; comparing categoricals surprises users."""
    dictionary = pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32)), pa.array(values, pa.string()))
    return pd.arrays.ArrowStringArray(dictionary.cast(pa.large_string()))


def build_lines(files: Sequence[FileIndex], result: MatchResult, up_files: Sequence[UpstreamFile],
                gated: Gated | None = None, origins: Sequence[Origin] = ()) -> pd.DataFrame:
    n = [f.n_lines for f in files]
    total = int(sum(n))
    if total == 0:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in LINE_COLUMNS})
    up_file = np.concatenate([m.up_file for m in result.files])
    up_row = np.concatenate([m.up_row for m in result.files])
    region = np.concatenate([m.region for m in result.files])
    has_up = up_file >= 0
    # Categorical columns: two million short strings would otherwise be converted one by one.
    path_codes: dict[str, int] = {"": 0}
    label_codes: dict[str, int] = {"": 0}
    file_path_code = np.array([path_codes.setdefault(u.path, len(path_codes)) for u in up_files] + [0])
    file_label_code = np.array([label_codes.setdefault(u.upstream, len(label_codes)) for u in up_files] + [0])
    up_index = np.where(has_up, up_file, len(up_files))
    frame = pd.DataFrame({
        "target_path": _strings(np.repeat(np.arange(len(files), dtype=np.int32), n), [f.path for f in files]),
        "line": np.concatenate([np.arange(1, k + 1, dtype=np.int32) for k in n]),
        "kind": pd.Categorical.from_codes(np.concatenate([f.kinds for f in files]).astype(np.int8),
                                          categories=list(KIND_NAMES)),
        "match": pd.Categorical.from_codes(np.concatenate([m.match for m in result.files]).astype(np.int8),
                                           categories=list(MATCH_NAMES)),
        "upstream_path": _strings(file_path_code[up_index], list(path_codes)),
        "upstream_line": pd.array(np.where(has_up, up_row + 1, 0), dtype="Int64"),
        "similarity": np.concatenate([m.similarity for m in result.files]).astype(np.float64).round(3),
        "upstream": _strings(file_label_code[up_index], list(label_codes)),
        "region": pd.array(np.where(has_up, region, 0), dtype="Int64"),
    })
    frame.loc[~has_up, ["upstream_line", "region"]] = pd.NA
    # shared lines: their kind (and for third-party/from-target the upstream file's origin label)
    kinds = (np.concatenate([g.kind for g in gated.shared]) if gated is not None
             else np.zeros(total, np.uint8))
    s_file = np.concatenate([g.up_file for g in gated.shared]) if gated is not None else np.full(total, -1)
    s_row = np.concatenate([g.up_row for g in gated.shared]) if gated is not None else np.full(total, -1)
    is_shared = kinds != SHARED_NONE
    origin_names: dict[str, int] = {"": 0, "header": 1, "generated": 2}
    by_file = np.array([origin_names.setdefault(o.label, len(origin_names)) for o in origins] + [0])
    s_index = np.where(is_shared, s_file, len(origins))
    codes = np.where(kinds == SHARED_HEADER, 1, np.where(kinds == SHARED_GENERATED, 2,
                                                          by_file[np.minimum(s_index, len(origins))]))
    set_apart = (kinds == SHARED_THIRD_PARTY) | (kinds == SHARED_FROM_TARGET)
    for u, o in enumerate(origins):  # a section of an own file: its own label (lineage.match.origin)
        if o.sections:
            for held, part in origin_parts(o, s_row):
                codes[set_apart & (s_file == u) & held] = origin_names.setdefault(part.label, len(origin_names))
    frame["shared_origin"] = _strings(np.where(is_shared, codes, 0), list(origin_names))
    frame["shared_path"] = _strings(file_path_code[np.where(is_shared, s_file, len(up_files))], list(path_codes))
    frame["shared_line"] = pd.array(np.where(is_shared, s_row + 1, 0), dtype="Int64")
    frame.loc[~is_shared, "shared_line"] = pd.NA
    return frame


def file_numbers(f: FileIndex, match: np.ndarray) -> Numbers:
    code = f.kinds == CODE
    nonblank = f.kinds != BLANK
    verbatim = match == VERBATIM
    near = match == NEAR
    return Numbers(
        files=1,
        code=int(code.sum()),
        code_verbatim=int((code & verbatim).sum()),
        code_near=int((code & near).sum()),
        nonblank=int(nonblank.sum()),
        nonblank_verbatim=int((nonblank & verbatim).sum()),
        nonblank_near=int((nonblank & near).sum()),
    )


def pick_marker(markers: Sequence[Marker], names: set[str],
                own_notice: Sequence[str] = ()) -> tuple[Marker | None, int]:
    """The marker that makes a file marked for an upstream (rules: :func:`lineage.markers.file_marker`),
    without the copyright lines of the target's own notice (:func:`without_own_notice`)."""
    return file_marker(without_own_notice(markers, own_notice), names)


def without_own_notice(markers: Sequence[Marker], own_notice: Sequence[str]) -> list[Marker]:
    """``markers`` without the copyright lines of the target's own project notice when the file
    repeats that notice whole: ``own_notice`` is the copyright lines of the target's root licence
    files, and a file whose copyright lines name every holder they name states the project's
    copyright, not where the file came from, even where a holder is the upstream's too (celery
    5.4.0's ``__init__.py`` repeats celery's LICENSE, "Asif Saif Uddin", "Ask Solem", "GoPivotal";
    Ask Solem, author of both, holds kombu's copyright, and the file counted as marked for kombu
    5.4.2). A file naming only some of them keeps them as markers (pypdf's "Copyright (c) 2006,
    Mathieu Fenniak", one of pypdf's three holders)."""
    held = [m.text for m in markers if m.kind == "copyright"]
    if not own_notice or not held or not all(names_holder(line, held) for line in own_notice):
        return list(markers)
    return [m for m in markers if m.kind != "copyright" or not names_holder(m.text, own_notice)]


def names_holder(line: str, lines: Sequence[str]) -> bool:
    """Whether ``lines`` name the holder of copyright line ``line``: kept as obligations keep it
    (:func:`lineage.licences.notices.keeps_holders`), or led by the same name, whatever the tail
    says of contributors (celery's LICENSE "Asif Saif Uddin, core team & contributors", its
    ``__init__.py`` "Asif Saif Uddin, celery core and individual contributors")."""
    lead = _lead_name(line)
    return keeps_holders([line], lines) or bool(lead) and any(_lead_name(other) == lead for other in lines)


def _lead_name(line: str) -> str:
    """The first two words of a copyright line's folded holder ("asif saif"), or "" for a
    one-word holder, too weak a name to stand for a person or a company."""
    folded = holders([line])
    words = folded[0].split() if folded else []
    return " ".join(words[:2]) if len(words) >= 2 else ""


def upstream_folders(paths: Iterable[str]) -> set[str]:
    """Every folder that holds an upstream file, at any depth (``a/b/c.py``: ``a/b``, ``a``)."""
    return {p.rsplit("/", k)[0] for p in paths for k in range(1, p.count("/") + 1)}


def upstream_folder_named(path: str, folders: set[str]) -> str:
    """The folder of the upstream (``folders``: :func:`upstream_folders`) a marker's ``path`` names,
    "" when none: a marker may name one ("adapted from .../vllm/blob/main/vllm/attention/",
    lmdeploy's ``nn/__init__.py``). As for a file (:func:`lineage.markers.paths.resolve_marker_path`): exactly, or with
    the repository's leading folders more or fewer (``src/vllm/attention`` for a wheel's
    ``vllm/attention``), on at least two trailing components when not exact; of several, the
    shortest, then the first in sorted order."""
    path = path.strip("/")
    if not path or path in folders:
        return path
    parts = path.split("/")
    for k in range(1, len(parts)):
        if len(parts[k:]) >= 2 and "/".join(parts[k:]) in folders:
            return "/".join(parts[k:])
    if len(parts) >= 2:
        below = sorted((f for f in folders if f.endswith("/" + path)), key=lambda f: (len(f), f))
        return below[0] if below else ""
    return ""


def names_upstream_folder(path: str, folders: set[str]) -> bool:
    """Whether a marker's ``path`` names a folder of the upstream (:func:`upstream_folder_named`)."""
    return bool(upstream_folder_named(path, folders))


def indexed_file_rows(files: Sequence[FileIndex], result: MatchResult, up_files: Sequence[UpstreamFile],
                      names: set[str], marker_paths: Sequence[str], gated: Gated | None = None,
                      origins: Sequence[Origin] = (),
                      header_sharing: Sequence[tuple[int, int]] | None = None,
                      own_notice: Sequence[str] = ()) -> list[dict[str, object]]:
    """The files table's row of each indexed target file, in the order of ``files``: a function
    of that file and the comparison's context alone (``history`` keeps them between commits).
    ``own_notice``: the target's own copyright lines (:func:`without_own_notice`)."""
    rows: list[dict[str, object]] = []
    folders: set[str] | None = None  # the upstream files' folders, made when a marker path is no file
    for t, (f, m, marker_path) in enumerate(zip(files, result.files, marker_paths, strict=True)):
        numbers = file_numbers(f, m.match)
        sources = Counter(int(u) for u in m.up_file[(m.up_file >= 0) & (f.kinds != BLANK)])
        ranked = sorted(sources.items(), key=lambda kv: (-kv[1], up_files[kv[0]].upstream, up_files[kv[0]].path))
        main = up_files[ranked[0][0]] if ranked else None
        marker, others = pick_marker(f.markers, names, own_notice)
        spdx = sorted({mk.licence for mk in f.markers if mk.kind == "spdx" and mk.licence})
        copied = numbers.nonblank_verbatim + numbers.nonblank_near
        found_as = marker_path  # the file the marker's path resolved to, else a folder it names
        if marker and marker.path and not found_as:
            if folders is None:
                folders = upstream_folders(u.path for u in up_files)
            found_as = upstream_folder_named(marker.path, folders)
        found = bool(found_as)
        rows.append({
            "target_path": f.path,
            "status": "indexed",
            "reason": f.reason,
            "lines": f.n_lines,
            "nonblank_lines": numbers.nonblank,
            "code_lines": numbers.code,
            "verbatim_lines": numbers.nonblank_verbatim,
            "near_lines": numbers.nonblank_near,
            "verbatim_code_lines": numbers.code_verbatim,
            "near_code_lines": numbers.code_near,
            "copied_share": round(copied / numbers.nonblank, 4) if numbers.nonblank else 0.0,
            "upstream": main.upstream if main else "",
            "upstream_path": main.path if main else "",
            "upstream_files": len(ranked),
            "upstream_paths": "; ".join(f"{up_files[k].path} ({v})" for k, v in ranked),
            "marker": marker.text if marker else "",
            "marker_kind": marker.kind if marker else "",
            "marker_line": marker.line if marker and marker.line else pd.NA,  # none for a vendoring record
            "marker_ref": marker.ref if marker else "",
            "marker_path": marker.path if marker else "",
            "marker_path_found": (found if marker and marker.path else pd.NA),
            "marker_upstream_path": found_as if marker and marker.path else "",
            "other_markers": others,
            "spdx": " ; ".join(spdx),
            "digest": f.digest,
        } | _shared_columns(t, f, gated, origins, up_files, header_sharing))
    return rows


def files_frame(indexed_rows: Sequence[dict[str, object]], skipped: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """The files table: the indexed files' rows and a row per skipped file, sorted by path."""
    rows = list(indexed_rows)
    for path, reason in skipped:
        rows.append({c: "" for c in FILE_COLUMNS} | {
            "target_path": path, "status": "skipped", "reason": reason,
            **{c: 0 for c in ("lines", "nonblank_lines", "code_lines", "verbatim_lines", "near_lines",
                              "verbatim_code_lines", "near_code_lines", "upstream_files", "other_markers",
                              *_SHARED_COUNTS)},
            "copied_share": 0.0, "marker_line": pd.NA, "marker_path_found": pd.NA,
        })
    frame = pd.DataFrame(rows, columns=FILE_COLUMNS)
    frame["marker_line"] = frame["marker_line"].astype("Int64")
    frame["marker_path_found"] = frame["marker_path_found"].astype("boolean")
    return frame.sort_values("target_path", kind="stable").reset_index(drop=True)


_SHARED_COUNTS = ("shared_third_party_lines", "shared_third_party_code_lines", "shared_from_target_lines",
                  "shared_from_target_code_lines", "header_copied_lines", "header_shared_lines")


def _shared_columns(t: int, f: FileIndex, gated: Gated | None, origins: Sequence[Origin],
                    up_files: Sequence[UpstreamFile], header_sharing: Sequence[tuple[int, int]] | None
                    ) -> dict[str, object]:
    """The files.csv columns about shared lines of target file ``t`` (see FILE_COLUMNS)."""
    out: dict[str, object] = {c: 0 for c in _SHARED_COUNTS} | {
        "file_role": "", "shared_origin": "", "shared_upstream_path": "", "shared_evidence": "",
        "header_upstream_path": ""}
    if header_sharing is not None:
        n, u = header_sharing[t]
        out["header_shared_lines"] = n
        out["header_upstream_path"] = up_files[u].path if u >= 0 else ""
    if gated is None:
        return out
    s = gated.shared[t]
    code = f.kinds == CODE
    nonblank = f.kinds != BLANK
    third, from_target = s.kind == SHARED_THIRD_PARTY, s.kind == SHARED_FROM_TARGET
    out |= {
        "file_role": gated.roles[t],
        "shared_third_party_lines": int((third & nonblank).sum()),
        "shared_third_party_code_lines": int((third & code).sum()),
        "shared_from_target_lines": int((from_target & nonblank).sum()),
        "shared_from_target_code_lines": int((from_target & code).sum()),
        "header_copied_lines": gated.header_copied[t],
    }
    sources = Counter(int(u) for u in s.up_file[(third | from_target) & nonblank])
    if sources:
        u = sorted(sources.items(), key=lambda kv: (-kv[1], up_files[kv[0]].upstream, up_files[kv[0]].path))[0][0]
        origin = origins[u]
        if origin.sections:  # the section most of the file's shared lines from u fall in
            rows = s.up_row[(s.up_file == u) & (third | from_target) & nonblank]
            origin = max(origin_parts(origin, rows), key=lambda part: (int(part[0].sum()), -part[1].line))[1]
        out |= {"shared_origin": origin.label, "shared_upstream_path": up_files[u].path,
                "shared_evidence": origin.where}
    return out


def build_origins(origins: Sequence[Origin], up_files: Sequence[UpstreamFile]) -> pd.DataFrame:
    """The ``origins`` table: every upstream file that is not its upstream's own code, and every
    section of an own file that is not (``first_line``/``last_line``; NA for a whole file)."""
    rows = [{"upstream": u.upstream, "upstream_path": u.path, "origin": o.kind, "name": o.name,
             "evidence": o.evidence, "line": o.line if o.line else pd.NA, "first_line": pd.NA, "last_line": pd.NA}
            for o, u in zip(origins, up_files, strict=True) if o.kind != OWN]
    rows += [{"upstream": u.upstream, "upstream_path": u.path, "origin": sec.origin.kind, "name": sec.origin.name,
              "evidence": sec.origin.evidence, "line": sec.origin.line, "first_line": sec.start,
              "last_line": sec.end}
             for o, u in zip(origins, up_files, strict=True) for sec in o.sections]
    columns = ["upstream", "upstream_path", "origin", "name", "evidence", "line", "first_line", "last_line"]
    frame = pd.DataFrame(rows, columns=columns)
    for column in ("line", "first_line", "last_line"):
        frame[column] = frame[column].astype("Int64")
    return frame.sort_values(["upstream", "upstream_path", "first_line"], kind="stable",
                             na_position="first").reset_index(drop=True)


def _nesting(index: FileIndex, kind: str) -> tuple[list[int], list[int], list[int]]:
    """Per row of a file: the innermost definition of ``kind`` (function/class) holding it, or -1;
    per definition: the one of ``kind`` holding it (-1 for none) and how many of ``kind`` hold it."""
    owner = np.full(index.n_lines, -1, np.int64)
    parent = [-1] * len(index.definitions)
    depth = [0] * len(index.definitions)
    # outer definitions first, so inner ones overwrite their lines
    ordered = sorted((k for k, d in enumerate(index.definitions) if d.kind == kind),
                     key=lambda k: (index.definitions[k].start, -index.definitions[k].end))
    open_defs: list[int] = []
    for k in ordered:
        d = index.definitions[k]
        while open_defs and index.definitions[open_defs[-1]].end < d.start:
            open_defs.pop()
        if open_defs:
            parent[k], depth[k] = open_defs[-1], depth[open_defs[-1]] + 1
        open_defs.append(k)
        owner[d.start - 1 : d.end] = k
    return owner.tolist(), parent, depth


def build_functions(files: Sequence[FileIndex], result: MatchResult, up_indexes: Sequence[FileIndex],
                    up_files: Sequence[UpstreamFile]) -> pd.DataFrame:
    """Each target def/class with its copied share and best upstream def/class: the upstream
    definition of its kind (function or class; a copied class is credited to the upstream class,
    not to the method holding most of its lines) that most of its copied code lines vote for. A
    line votes for the innermost upstream definition of the kind holding its upstream line, or,
    when it lies in a definition nested N deep inside the target one, for the one N levels above
    that (the outermost when there are fewer): a function copied with its nested function came
    from the upstream function, not from the nested one that holds most of its lines (disnake
    2.1.0's ``bot_has_permissions`` read ``bot_has_permissions.predicate`` against discord.py
    1.7.3), and the nested one from the nested one."""
    nesting_cache: dict[tuple[int, str], tuple[list[int], list[int], list[int]]] = {}
    names_cache: dict[int, list[str]] = {}

    def nesting(u_file: int, kind: str) -> tuple[list[int], list[int], list[int]]:
        if (u_file, kind) not in nesting_cache:
            nesting_cache[(u_file, kind)] = _nesting(up_indexes[u_file], kind)
        return nesting_cache[(u_file, kind)]

    def names(u_file: int) -> list[str]:
        if u_file not in names_cache:
            names_cache[u_file] = [d.qualname for d in up_indexes[u_file].definitions]
        return names_cache[u_file]

    rows = []
    for f, m in zip(files, result.files, strict=True):
        if not f.definitions:
            continue
        code = f.kinds == CODE
        copied = (m.match == VERBATIM) | (m.match == NEAR)
        # prefix sums: each definition's counts in constant time
        code_sum = np.concatenate(([0], np.cumsum(code))).tolist()
        copied_sum = np.concatenate(([0], np.cumsum(code & copied))).tolist()
        own_nesting: dict[str, tuple[list[int], list[int], list[int]]] = {}  # made on first need
        for k_t, d in enumerate(f.definitions):
            span = slice(d.start - 1, d.end)
            code_lines = code_sum[d.end] - code_sum[d.start - 1]
            copied_lines = copied_sum[d.end] - copied_sum[d.start - 1]
            best_path = best_name = best_upstream = ""
            if copied_lines:
                if d.kind not in own_nesting:
                    own_nesting[d.kind] = _nesting(f, d.kind)
                t_owner, _, t_depth = own_nesting[d.kind]
                rows_copied = np.flatnonzero(code[span] & copied[span]) + d.start - 1
                votes: Counter[tuple[int, str]] = Counter()
                # plain ints in the loop: it runs once per copied line per enclosing definition
                for t_row, u_file, u_row in zip(rows_copied.tolist(), m.up_file[rows_copied].tolist(),
                                                m.up_row[rows_copied].tolist(), strict=True):
                    owner, parent, _ = nesting(u_file, d.kind)
                    k = owner[u_row]
                    for _ in range(t_depth[t_owner[t_row]] - t_depth[k_t]):  # nested that deep in d
                        if k < 0 or parent[k] < 0:
                            break
                        k = parent[k]
                    votes[(u_file, names(u_file)[k] if k >= 0 else "")] += 1
                (u_file, best_name), _ = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0]
                best_path = up_files[u_file].path
                best_upstream = up_files[u_file].upstream
            rows.append({
                "target_path": f.path, "qualname": d.qualname, "kind": d.kind,
                "start_line": d.start, "end_line": d.end, "code_lines": code_lines,
                "copied_code_lines": copied_lines,
                "copied_share": round(copied_lines / code_lines, 4) if code_lines else 0.0,
                "upstream": best_upstream, "upstream_path": best_path, "upstream_qualname": best_name,
            })
    columns = ["target_path", "qualname", "kind", "start_line", "end_line", "code_lines",
               "copied_code_lines", "copied_share", "upstream", "upstream_path", "upstream_qualname"]
    return pd.DataFrame(rows, columns=columns)


def build_regions(files: Sequence[FileIndex], result: MatchResult, up_files: Sequence[UpstreamFile]
                  ) -> pd.DataFrame:
    rows = [{
        "target_path": files[r.target_file].path, "region": r.region,
        "target_start": r.target_start, "target_end": r.target_end,
        "upstream": up_files[r.up_file].upstream, "upstream_path": up_files[r.up_file].path,
        "upstream_start": r.upstream_start, "upstream_end": r.upstream_end,
        "verbatim_lines": r.verbatim, "near_lines": r.near, "evidence_weight": r.weight,
    } for r in result.regions]
    columns = ["target_path", "region", "target_start", "target_end", "upstream", "upstream_path",
               "upstream_start", "upstream_end", "verbatim_lines", "near_lines", "evidence_weight"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.sort_values(["target_path", "target_start", "region"], kind="stable").reset_index(drop=True)
