"""Renamed folders: the same relative path after a package rename.

A fork that renamed its package (``discord/`` -> ``nextcord/``) keeps its files' relative paths
below the new name: ``nextcord/sticker.py`` is the later version of ``discord/sticker.py``, as a
vendored ``pip/_vendor/six.py`` is of ``six.py`` (:func:`lineage.match.same_paths`). Such a
pair is *established* for the fill (step 6) like a same-path pair, even when no region formed:
a file rewritten over years (annotations added, methods moved) keeps only lone survivors and
edited lines, and without the pair they were all left ``none``, and the file had no upstream at
all (on the real renamed fork, ``nextcord/sticker.py``, 20 copied code lines of
``discord/sticker.py``, and ``nextcord/ext/commands/__init__.py``).

The rename is learnt from the whole tree, never guessed from a name: each target file votes
with the upstream file its runs weigh most with (:func:`best_upstream_files`) when the two paths
end alike (at least the file name), for the pair of folders above the shared ending
(``nextcord`` -> ``discord`` for ``nextcord/ext/commands/core.py`` <-
``discord/ext/commands/core.py``), or when the target file keeps the upstream module's place
in another form (:func:`vote_place`: a part of the module split into a package of its name, the
module made private by a leading underscore; pypdf's ``generic/_base.py`` and ``_merger.py``
from PyPDF2's ``generic.py`` and ``merger.py``). A folder pair is a rename when at least
``rename_min_files`` target files vote for it and they are at least ``rename_min_share`` of the
target files below that target folder that have a best upstream file at all: most of what the
folder copies keeps its place below the other name. A project that merely copied a few files
into a folder of its own (sglang's ``srt/layers/`` from vLLM's ``model_executor/layers/``,
among hundreds of files copying from everywhere) is no rename.

A file's vote depends on that file alone (its hits and runs against the upstream, steps 1 to 3
of :mod:`lineage.match`), never on the other target files; the renames depend on every file's
vote. So a run with per-file caches (:func:`lineage.api.compare_trees`) first collects every
target file's vote (a cached file's from its entry, :class:`lineage.match.records.MatchEntry`;
the others' from their fresh runs), learns the renames from them all, and then hands them to the
matcher (:func:`lineage.match.match_sides`, ``renames``). A file's labels depend on the renames
only through its renamed paths that exist upstream (:func:`renamed_upstream_paths`): a cached
entry matched with other such paths than the current renames give is matched again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass

import numpy as np

from lineage.match.params import MatchParams


def best_upstream_files(t_file: np.ndarray, up_file: np.ndarray, weight: np.ndarray) -> dict[int, int]:
    """Per target file, the upstream file its runs weigh most with (the lower number on a tie)."""
    if len(t_file) == 0:
        return {}
    pairs: dict[tuple[int, int], float] = {}
    for t, u, w in zip(t_file.tolist(), up_file.tolist(), weight.tolist(), strict=True):
        pairs[(t, u)] = pairs.get((t, u), 0.0) + w
    best: dict[int, tuple[float, int]] = {}
    for (t, u), w in sorted(pairs.items()):
        if t not in best or w > best[t][0]:
            best[t] = (w, u)
    return {t: u for t, (_, u) in best.items()}


def shared_ending_folders(t_path: str, u_path: str) -> tuple[str, str] | None:
    """The folders above the ending two paths share (None: not even the file name is shared,
    or the paths are the same)."""
    t, u = t_path.split("/"), u_path.split("/")
    shared = 0
    while shared < min(len(t), len(u)) and t[-1 - shared] == u[-1 - shared]:
        shared += 1
    if shared == 0 or (shared == len(t) and shared == len(u)):
        return None
    return "/".join(t[: len(t) - shared]), "/".join(u[: len(u) - shared])


def _public_name(path: str) -> str:
    """``path`` with one leading underscore taken off its file name (``pkg/_merger.py`` ->
    ``pkg/merger.py``); a dunder name (``__init__.py``) or a name of underscores alone unchanged."""
    folder, slash, name = path.rpartition("/")
    if not name.startswith("_") or name.startswith("__") or not name.strip("_."):
        return path
    return f"{folder}{slash}{name[1:]}"


def vote_place(t_path: str, u_path: str, p: MatchParams) -> tuple[str, str] | None:
    """The pair of folders a target file's vote (its best upstream file ``u_path``) is for: the
    folders above the two paths' shared ending (:func:`shared_ending_folders`), or, when they
    share not even the file name, the same for two restructurings that keep a module's place
    below a renamed package, each its own knob. ``rename_split_votes``: a part of a module split
    into a package of the module's name (``pypdf/generic/_base.py`` <- ``PyPDF2/generic.py`` is
    ``pypdf/generic.py`` <- ``PyPDF2/generic.py``, the split :func:`split_module_paths` reads).
    ``rename_private_votes``: a module made private by a leading underscore, or made public by
    dropping one (``pypdf/_merger.py`` <- ``PyPDF2/merger.py``). Without them pypdf 3.17.4, PyPDF2
    renamed and restructured, showed the rename in 3 of its 17 voting files; with them in 9."""
    folders = shared_ending_folders(t_path, u_path)
    if folders is not None or t_path == u_path:
        return folders
    if p.rename_split_votes and "/" in t_path:
        folders = shared_ending_folders(t_path.rpartition("/")[0] + ".py", u_path)
        if folders is not None:
            return folders
    if p.rename_private_votes:
        t_public, u_public = _public_name(t_path), _public_name(u_path)
        if (t_public, u_public) != (t_path, u_path):
            return shared_ending_folders(t_public, u_public)
    return None


def upstream_votes(best: dict[int, int], up_paths: Sequence[str], n_target: int) -> list[str | None]:
    """Per target file (0 .. n_target-1): the path of its best upstream file, None when it has none."""
    return [up_paths[best[t]] if t in best else None for t in range(n_target)]


@dataclass(frozen=True)
class FolderVote:
    """A pair of folders enough target files voted for (``rename_min_files``), and whether the
    rule took it for a rename: ``files`` of the ``voting_below`` voting target files below
    ``target_folder`` keep their upstream place below ``upstream_folder`` (``learnt`` when that
    is at least ``rename_min_share`` of them). summary.json and summary.md report them, learnt or
    not: pypdf 3.17.4 against PyPDF2 1.26.0 learnt no rename while a vote needed the file name
    (``filters.py``, ``pagerange.py``, ``xmp.py``, 3 of 17: PyPDF2's ``pdf.py`` was split), and
    no report said so; with :func:`vote_place`'s split and private modules, 9 of 17, learnt."""

    target_folder: str
    upstream_folder: str
    files: int
    voting_below: int
    learnt: bool

    def to_dict(self) -> dict[str, object]:
        return {"target_folder": self.target_folder, "upstream_folder": self.upstream_folder,
                "files": self.files, "voting_files_below": self.voting_below, "learnt": self.learnt}


def folder_votes(t_paths: Sequence[str], votes: Sequence[str | None], p: MatchParams,
                 not_own: Container[str] = (), named: Sequence[bool] = ()) -> list[FolderVote]:
    """Every pair of folders at least ``rename_min_files`` target files vote for (see the module
    docstring), most votes first, each with whether it is a rename (:class:`FolderVote`; a
    target folder another pair already renamed is left out); ``votes[t]``: the path of target
    file t's best upstream file (None: it has none). An empty target folder (``""``) stands for
    the target's root. With ``MatchParams.rename_own_votes``, a vote for an upstream path in
    ``not_own`` (files that are not the upstream's own code) is no vote unless ``named[t]``: the
    target file's markers name an upstream (with several upstreams, any of them: ``attributed``
    in :func:`lineage.api.compare_trees`), so it took the upstream's copy (sglang's mamba ops from
    vLLM's, which vLLM adapted from state-spaces/mamba)."""
    if not p.rename_folders or p.rename_min_files <= 0:
        return []

    def abstains(t: int, vote: str) -> bool:
        return bool(p.rename_own_votes) and vote in not_own and not (t < len(named) and named[t])

    counts: Counter[tuple[str, str]] = Counter()
    voting = []
    for t, vote in enumerate(votes):
        if vote is not None and not abstains(t, vote):
            voting.append(t)
            folders = vote_place(t_paths[t], vote, p)
            if folders is not None:
                counts[folders] += 1
    found: list[FolderVote] = []
    renamed: set[str] = set()
    for (t_folder, u_folder), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if n < p.rename_min_files or t_folder in renamed:
            continue
        below = sum(1 for t in voting if _below(t_paths[t], t_folder))
        learnt = n >= p.rename_min_share * below
        if learnt:
            renamed.add(t_folder)
        found.append(FolderVote(t_folder, u_folder, n, below, learnt))
    return found


def folder_renames(t_paths: Sequence[str], votes: Sequence[str | None], p: MatchParams,
                   not_own: Container[str] = (), named: Sequence[bool] = ()) -> dict[str, str]:
    """Target folder -> upstream folder for every rename the tree's evidence shows: the learnt
    pairs of :func:`folder_votes`."""
    return renames_of(folder_votes(t_paths, votes, p, not_own, named))


def renames_of(found: Sequence[FolderVote]) -> dict[str, str]:
    """The learnt renames among ``found`` (:func:`folder_votes`), target folder -> upstream folder."""
    return {v.target_folder: v.upstream_folder for v in found if v.learnt}


def _below(path: str, folder: str) -> bool:
    return not folder or path.startswith(folder + "/")


def renamed_paths(path: str, renames: dict[str, str]) -> set[str]:
    """Upstream paths target ``path`` has after each rename of a folder above it."""
    out = set()
    for t_folder, u_folder in renames.items():
        if _below(path, t_folder):
            rest = path[len(t_folder) + 1 :] if t_folder else path
            out.add(f"{u_folder}/{rest}" if u_folder else rest)
    return out


def split_module_paths(paths: set[str]) -> set[str]:
    """The module each of these paths would be a part of had its module been split into a
    package of the module's name (``discord/webhook/async_.py`` -> ``discord/webhook.py``);
    only a module inside a folder (a bare ``webhook.py`` names no place)."""
    return {f"{folder}.py" for path in paths if "/" in (folder := path.rpartition("/")[0])}


# The mark :func:`renamed_upstream_paths` ends with for a file below a renamed folder, whether or
# not an upstream file stands at its renamed path, when the weak-pair rule is on: the rule reads
# it (a file of a renamed fork descends from the upstream as a whole,
# :mod:`lineage.match.weak_pairs`). With the rule off nothing else does, and the mark would only
# make a rename that comes or goes match such files again for nothing.
BELOW_RENAME = "\0below a renamed folder"


def renamed_upstream_paths(path: str, renames: dict[str, str], upstream_paths: Container[str], *,
                           weak_pairs: bool) -> tuple[str, ...]:
    """Target ``path``'s renamed paths (:func:`renamed_paths`) that an upstream file has, sorted,
    then the modules they would be split from (:func:`split_module_paths`) that an upstream file
    has, sorted, each behind a mark no path starts with (``"\\0split "``): all a file's labels
    read of the renames (the matcher establishes a pair only with a file at a renamed path, and
    ``fill_module_split`` reads the modules), so what a cached entry is checked on. The mark
    keeps the two apart: a module that one set of renames places the file at and another only
    splits it from labels the file otherwise; and the gate's same-place exemption, which reads
    these paths, is a renamed path's alone (a part of a module stands at no upstream file's place).
    Last, with ``weak_pairs`` (the rule on, :attr:`MatchParams.judges_weak_pairs`),
    :data:`BELOW_RENAME` when a rename applies to the file at all."""
    renamed = renamed_paths(path, renames)
    return (tuple(sorted(u for u in renamed if u in upstream_paths))
            + tuple(f"\0split {u}" for u in sorted(split_module_paths(renamed)) if u in upstream_paths)
            + ((BELOW_RENAME,) if renamed and weak_pairs else ()))

