"""The line rules of ``lineage drift``, as pure functions over line tables (no git, no files).

:mod:`lineage.fork.drift` specifies them (its docstring) and feeds them: it walks the range,
reads each commit's changed files and the target, and pairs the trees. Here, from those tables:

- :func:`learn_pairing`: which target files correspond to which upstream files, the folder map
  and the package renames (**Pairing**);
- :func:`counterparts`: the target files one changed upstream file counts against;
- :func:`count_change`: one file change counted against one counterpart (**Lines**);
- :func:`could_have_had`: the count of a text each side of a change is counted against, the
  target's (BASE's and applied commits'), not the parent's (**Later commits**);
- :func:`count_move`: a change that only reorders lines, judged by their order in the counterpart (**Lines**);
- :func:`judge`: every commit of the range judged newest first, twice (**Later commits**);
- :func:`classify`: the status from the counts, by :class:`lineage.fork.params.DriftParams` (**Status**).
"""

from __future__ import annotations

import difflib
import io
import re
import tokenize
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from lineage.fork.params import DriftParams
from lineage.index.normalise import formatting_free
from lineage.index.records import decode_source, split_lines

STATUSES = ("applied", "partial", "missing", "not_applicable")

_PR_SUFFIX = re.compile(r"\(#(\d+)\)")
_PR_MERGE = re.compile(r"^Merge pull request #(\d+)\b")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")

Rename = Callable[[str], str]


def pr_number(subject: str) -> str:
    """The pull request a commit subject names: ``... (#123)`` or ``Merge pull request #123``."""
    merged = _PR_MERGE.match(subject)
    if merged:
        return merged.group(1)
    found = _PR_SUFFIX.findall(subject)
    return found[-1] if found else ""


# --------------------------------------------------------------------------- pairing


@dataclass
class Pairing:
    """Which target files correspond to which upstream files, at one upstream tree."""

    upstream_paths: frozenset[str]  # Python files of the upstream tree paired against
    by_upstream: dict[str, list[str]]  # upstream path -> target paths pairing with it
    paired_targets: frozenset[str]
    folders: dict[tuple[str, ...], tuple[str, ...]]  # upstream folder -> target folder
    renames: dict[str, str]  # upstream package name -> target package name
    tree_digest: str = ""
    # upstream dotted module -> target dotted module, from the pairs (``vllm.sequence`` ->
    # ``aphrodite.common.sequence``): a nested package's rename, which ``renames`` cannot say
    modules: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    # upstream folder -> the target folder most of its own files (not its subfolders') went to:
    # where a new file of that folder goes. ``folders`` says where the folder went as a package;
    # the two differ when a fork moved a big subfolder up (aphrodite-engine 0.6.3:
    # ``vllm/model_executor/layers`` is ``aphrodite`` by its votes, swayed by
    # ``layers/quantization`` -> ``aphrodite/quantization``, while its own eleven files are in
    # ``aphrodite/modeling/layers``) or the folder's own modules down into a subpackage
    # (``vllm/config.py`` -> ``aphrodite/common/config.py``, the package ``vllm`` being ``aphrodite``).
    file_folders: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)

    def mapped(self, upstream_path: str) -> str:
        """The target path an upstream file maps to, "" when none does: through the nearest folder
        above it that is mapped, where that folder's own files went, else where it went."""
        parts = PurePosixPath(upstream_path).parts
        for cut in range(len(parts) - 1, -1, -1):
            target = self.file_folders.get(parts[:cut]) or self.folders.get(parts[:cut])
            if target is not None:
                return "/".join([*target, *parts[cut:]])
        return ""


def module_name(path: str, known: frozenset[str]) -> tuple[str, ...]:
    """The dotted name ``path`` is imported by: its parts from the first folder that is a package
    (holds an ``__init__.py`` among ``known``; ``src/pkg/a.py`` -> ``pkg.a``), a package's
    ``__init__.py`` naming the package; () for a file in no package (a script, a test file)."""
    parts = PurePosixPath(path).with_suffix("").parts
    folders = parts[:-1]
    start = next((i for i in range(len(folders)) if "/".join(folders[:i + 1]) + "/__init__.py" in known), None)
    if start is None or not all(_IDENTIFIER.fullmatch(p) for p in parts[start:]):
        return ()
    return parts[start:-1] if parts[-1] == "__init__" else parts[start:]


def learn_modules(by_upstream: dict[str, list[str]], folders: dict[tuple[str, ...], tuple[str, ...]],
                  upstream_paths: frozenset[str], target_paths: frozenset[str],
                  ) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The dotted module renames the pairing shows: an upstream module whose file pairs with one
    target file is imported there by that file's name, and a package by its folder's in the folder
    map (so ``from vllm.core.scheduler import X`` reads as the target's
    ``from aphrodite.processing.scheduler import X``)."""
    modules: dict[tuple[str, ...], tuple[str, ...]] = {}
    for folder, target in folders.items():
        u = module_name("/".join([*folder, "__init__.py"]), upstream_paths)
        t = module_name("/".join([*target, "__init__.py"]), target_paths)
        if u and t:
            modules[u] = t
    for upstream, targets in by_upstream.items():
        if len(targets) != 1:  # a file the fork split: no one name for it
            continue
        u, t = module_name(upstream, upstream_paths), module_name(targets[0], target_paths)
        if u and t:
            modules[u] = t  # a package's own __init__.py pair outranks the folder map
    return {u: t for u, t in modules.items() if u != t}


def learn_pairing(pairs: Iterable[tuple[str, str]], upstream_paths: Iterable[str], tree_digest: str = "",
                  target_paths: Iterable[str] = ()) -> Pairing:
    """The pairing and folder map from (target path, upstream path) pairs; ``target_paths`` (the
    target's Python files) tell its packages, for the module renames."""
    upstream_paths = frozenset(upstream_paths)
    by_upstream: dict[str, list[str]] = {}
    renames: Counter[tuple[str, str]] = Counter()
    votes: dict[tuple[str, ...], Counter[tuple[str, ...]]] = {}
    own: dict[tuple[str, ...], Counter[tuple[str, ...]]] = {}
    direct: dict[tuple[str, ...], Counter[tuple[str, ...]]] = {}  # the votes of a folder's own files
    kept: dict[str, set[str]] = {}  # package name -> upstream files a pair keeps it in
    renamed: dict[str, set[str]] = {}  # package name -> upstream files a pair renames it in
    for target, upstream in sorted(set(pairs)):
        by_upstream.setdefault(upstream, []).append(target)
        t, u = PurePosixPath(target).parts, PurePosixPath(upstream).parts
        shared = 0
        while shared < min(len(t), len(u)) and t[-1 - shared] == u[-1 - shared]:
            shared += 1
        # Same file name: the folders above the shared tail correspond, and so does each folder
        # of the shared tail (``discord/ext/commands`` -> ``nextcord/ext/commands`` too), so that
        # a few files moved elsewhere (nextcord's ``ext/application_checks/core.py``, paired with
        # ``discord/ext/commands/core.py``) do not outvote the folder's own files.
        for depth in range(len(u) - shared, len(u)) if shared else ():
            votes.setdefault(u[:depth], Counter())[t[:len(t) - (len(u) - depth)]] += 1
        if shared and len(u) > 1:
            direct.setdefault(u[:-1], Counter())[t[:-1]] += 1
        if shared:  # a pair's vote at the folder where it diverges breaks ties
            own.setdefault(u[:len(u) - shared], Counter())[t[:len(t) - shared]] += 1
        for name in u[len(u) - shared:-1]:
            kept.setdefault(name, set()).add(upstream)
        # Only the file name shared: the package holding it was renamed (a folder moved whole,
        # ``src/pkg`` -> ``vendor/pkg``, keeps its imports).
        if shared == 1 and len(t) > 1 and len(u) > 1 and _IDENTIFIER.fullmatch(t[-2]) \
                and _IDENTIFIER.fullmatch(u[-2]):
            renames[(u[-2], t[-2])] += 1
            renamed.setdefault(u[-2], set()).add(upstream)
    folders = {u: max(c.items(), key=lambda kv: (kv[1], own.get(u, Counter())[kv[0]], kv[0]))[0]
               for u, c in votes.items()}
    # ties go to the folder's own map
    file_folders = {u: max(c.items(), key=lambda kv: (kv[1], kv[0] == folders.get(u), kv[0]))[0]
                    for u, c in direct.items()}
    by_name: dict[str, str] = {}
    for (old, new), _ in sorted(renames.items(), key=lambda kv: (-kv[1], kv[0])):
        # a package most of whose files only ever kept its name was not renamed (a fork's alias
        # modules keep the old name beside the renamed package: their files count as renamed)
        if len(renamed[old]) >= len(kept.get(old, set()) - renamed[old]):
            by_name.setdefault(old, new)
    paired = frozenset(t for ts in by_upstream.values() for t in ts)
    modules = learn_modules(by_upstream, folders, upstream_paths, frozenset(target_paths) | paired)
    return Pairing(upstream_paths, by_upstream, paired, folders, by_name, tree_digest, modules, file_folders)


# --------------------------------------------------------------------------- lines


def line_counts(lines: Iterable[str]) -> Counter[str]:
    """:func:`line_forms` with counts."""
    return Counter(line_forms(lines))


def line_forms(lines: Iterable[str]) -> list[str]:
    """A file's non-blank lines in order, in the form drift compares them: code in
    :func:`formatting_free` (a fork that ran black still holds ``x = "a"`` where the upstream
    wrote ``x = 'a'``), a line inside a multi-line string as its stripped text (its quotes are
    the string's: ``WHERE name = 'x'`` is not ``WHERE name = "x"``)."""
    lines = list(lines)
    inside = _string_rows(lines)
    return [form for k, line in enumerate(lines)
            if (form := line.strip() if k in inside else formatting_free(line))]


def _string_rows(lines: list[str]) -> set[int]:
    """0-based rows strictly inside a multi-line string (not its opening and closing rows, which
    hold code too), by Python's tokenizer; what it read before an error when the file does not
    tokenize."""
    rows: set[int] = set()
    string_types = {tokenize.STRING} | ({tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set())
    text = "\n".join(lines) + "\n"
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in string_types and token.end[0] > token.start[0] + 1:
                rows.update(range(token.start[0], token.end[0] - 1))  # 1-based start+1..end-1, 0-based
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return rows


def stripped_lines(data: bytes | None) -> Counter[str]:
    """:func:`line_counts` of a Python file's bytes (undecodable: none)."""
    return Counter(stripped_forms(data))


def stripped_forms(data: bytes | None) -> list[str]:
    """:func:`line_forms` of a Python file's bytes (undecodable: none)."""
    if not data:
        return []
    try:
        text, _ = decode_source(data)
    except (UnicodeDecodeError, LookupError):
        return []
    return line_forms(split_lines(text))


# a dotted name as code lines hold it (``vllm . core . scheduler``, tokens spaced) or as text does
_DOTTED = re.compile(r"(?<![\w.])(?<!\. )[A-Za-z_]\w*(?: ?\. ?[A-Za-z_]\w*)*")


def renamer(renames: dict[str, str], modules: dict[tuple[str, ...], tuple[str, ...]] | None = None,
            ) -> Rename | None:
    """A line with each dotted name read in the target's names (None: no rename): the longest
    leading part that is a renamed module (``modules``) replaced by the target's module, else a
    renamed package's upstream name (``renames``) by the target's."""
    modules = modules or {}
    if not renames and not modules:
        return None
    heads = {u[0] for u in modules} | set(renames)

    def one(match: re.Match[str]) -> str:
        text = match.group(0)
        parts = [p.strip() for p in text.split(".")]
        if parts[0] not in heads:
            return text
        sep = " . " if " . " in text else "."
        for cut in range(len(parts), 0, -1):
            target = modules.get(tuple(parts[:cut]))
            if target is not None:
                return sep.join([*target, *parts[cut:]])
        return sep.join([renames.get(parts[0], parts[0]), *parts[1:]])

    return lambda text: _DOTTED.sub(one, text)


@dataclass(frozen=True)
class FileChange:
    """One touched upstream Python file: its paths before and after, and its stripped lines."""

    old_path: str  # "" when added
    new_path: str  # "" when deleted
    before: Counter[str]
    after: Counter[str]
    # the lines in order, kept for a change that only reorders them (``before == after``): see
    # :func:`count_move`
    order_before: tuple[str, ...] = ()
    order_after: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return self.new_path or self.old_path

    @property
    def moves_only(self) -> bool:
        """Whether the change only reorders the file's lines (its multiset unchanged)."""
        return bool(self.order_before) and self.before == self.after and self.order_before != self.order_after


def file_change(old_path: str, new_path: str, before: list[str], after: list[str]) -> FileChange:
    """The change of a file from its lines in order (:func:`stripped_forms`), the order kept only
    when the change only reorders them."""
    counted_before, counted_after = Counter(before), Counter(after)
    moved = counted_before == counted_after and before != after
    return FileChange(old_path, new_path, counted_before, counted_after,
                      tuple(before) if moved else (), tuple(after) if moved else ())


def count_move(change: FileChange, target_order: list[str], rename: Rename | None = None) -> tuple[int, int]:
    """(moved, in the new order) of a change that only reorders lines, against the counterpart's
    lines in order. Only texts the file and the counterpart each hold once are placed. The moved
    ones are those outside the longest common subsequence of their orders before and after; each
    is judged by its nearest unmoved neighbours: in the new order when the counterpart holds it
    between its new neighbours and not between its old ones, in the old order the other way round,
    neither (an ambiguous place, or a fork that rearranged the code) not counted. A move is a copy
    removed from one place and added at another: in the new order, its line is present and gone.
    ``rename``: the upstream lines read in the target's names (:func:`renamer`)."""
    read = rename or (lambda text: text)
    old = [read(t) for t in change.order_before]
    new = [read(t) for t in change.order_after]
    in_file, in_target = Counter(old), Counter(target_order)
    once = {t for t, n in in_file.items() if n == 1 and in_target[t] == 1}
    old = [t for t in old if t in once]
    new = [t for t in new if t in once]
    if old == new:
        return 0, 0
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    kept = {t for block in matcher.get_matching_blocks() for t in old[block.a:block.a + block.size]}
    place = {t: k for k, t in enumerate(target_order) if t in once}

    def between(order: list[str], text: str) -> bool:
        k = order.index(text)
        before = next((t for t in reversed(order[:k]) if t in kept), None)
        after = next((t for t in order[k + 1:] if t in kept), None)
        return (before is None or place[before] < place[text]) and (after is None or place[text] < place[after])

    moved = counted = 0
    for text in new:
        if text in kept:
            continue
        in_new, in_old = between(new, text), between(old, text)
        if in_new != in_old:
            moved += 1
            counted += in_new
    return moved, counted


def could_have_had(before: int, had: int | None) -> int:
    """How many copies of a text the parent holds ``before`` times the target can be shown to have
    held before the commit: what it had (``had``: BASE's count, or what applied commits brought),
    at most the parent's; None: the parent's. The one baseline both sides of a change count against:
    the parent may hold copies the target never had, added upstream after the fork."""
    return before if had is None else min(before, had)


def lacking(before: int, had: int | None, held: int) -> int:
    """How many copies of a removed text the target lacks, holding it ``held`` times: below
    :func:`could_have_had`, not below the parent's count: discord.py 96e6261d61 removes
    `oldest_first: Optional[bool] = False,` twice from channel.py, once in TextChannel.purge (at
    the fork point, still in disnake 2.1.3) and once in VoiceChannel.purge (added after it, never
    in disnake): none is gone."""
    return max(0, could_have_had(before, had) - held)


def beyond(before: int, had: int | None, held: int) -> int:
    """How many copies of an added text the target holds, ``held`` times, beyond
    :func:`could_have_had` (not beyond the parent's count: a copy the upstream added after the fork,
    which the target never had, hid the target's copy of the one a later commit adds, and the
    later commit read missing). :func:`count_change` gives no ``had`` for a text of fewer than
    ``fallback_min_tokens`` tokens: the fork's own code moves its count."""
    return max(0, held - could_have_had(before, had))


def count_change(change: FileChange, target: Counter[str], rename: Rename | None = None,
                 removed_later: Counter[str] | None = None, added_later: Counter[str] | None = None,
                 at_base: Counter[str] | None = None, min_tokens: int = 1) -> tuple[int, int, int, int, int, int]:
    """(added, present, removed, absent, added_superseded, removed_superseded) of one file
    change against one counterpart's lines.

    ``removed_later`` / ``added_later``: texts that later applied commits removed from / added
    to this file. An added line the target lacks because such a commit removed it again is
    *superseded* (and a removed line the target has because one added it back), not missing.
    ``at_base``: the file's lines the target can be shown to have held before the commit (BASE's,
    and what applied commits brought; :func:`could_have_had`), the baseline of both sides: a
    removed line absent from the target that it did not hold either is not counted, a copy is
    absent only when the target holds fewer than that (:func:`lacking`), and an added copy is
    present when it holds more (:func:`beyond`). None: the parent's counts.
    """
    added = present = removed = absent = added_superseded = removed_superseded = 0
    removed_later = removed_later or Counter()
    added_later = added_later or Counter()
    changed = [t for t in change.before.keys() | change.after.keys() if change.before[t] != change.after[t]]
    # A text the file holds both before and after (``"""``, ``)``, ``return None``) is ambiguous:
    # the target's count of it also moves with every other commit it did or did not take. Such
    # texts are counted only when the change has no other line.
    telling = [t for t in changed if not (change.before[t] and change.after[t])]
    # ...and of those, the ones of ``min_tokens`` tokens or more when there are any
    # (DriftParams.fallback_min_tokens: `try :` and `)` move with the fork's own code too)
    longer = [t for t in changed if len(t.split()) >= min_tokens]
    for text in telling or longer or changed:
        before, after = change.before[text], change.after[text]
        held = target[text]
        if rename is not None:
            renamed = rename(text)
            if renamed != text:
                held += target[renamed]
        had = None if at_base is None else at_base[text]
        if after > before:
            added += after - before
            # a short text's count (`* ,`, `try :`) moves with the fork's own code: copies above
            # BASE's count may be its own (discord.py 6dc314628e adds `*,` to Bot.remove_cog,
            # which disnake 2.1.3 never changed, and read applied); it counts beyond the parent's
            short = len(text.split()) < min_tokens
            found = min(after - before, beyond(before, None if short else had, held))
            present += found
            added_superseded += min(after - before - found, removed_later[text])
        else:
            removed += before - after
            gone = min(before - after, lacking(before, None, held))
            if at_base is not None:
                shown = min(gone, lacking(before, had, held))
                removed -= gone - shown
                gone = shown
            absent += gone
            removed_superseded += min(before - after - gone, added_later[text])
    return added, present, removed, absent, added_superseded, removed_superseded


def deltas(change: FileChange) -> list[tuple[str, int]]:
    """(text, after - before) of every text the change adds or removes copies of."""
    return [(t, change.after[t] - change.before[t]) for t in sorted(change.before.keys() | change.after.keys())
            if change.after[t] != change.before[t]]


def classify(added: int, present: int, removed: int, absent: int, params: DriftParams) -> str:
    """The status of a commit from its line counts over the files the target has a place for."""
    if added + removed == 0:
        return "not_applicable"
    share_added = present / added if added else 1.0
    share_removed = absent / removed if removed else 1.0
    if share_added >= params.applied_min_share and share_removed >= params.applied_min_share:
        return "applied"
    if (present + absent) / (added + removed) <= params.missing_max_share:
        return "missing"
    return "partial"


# --------------------------------------------------------------------------- commits


# A test module by its name (pytest's conventions; keras writes ``foo_test.py`` beside
# ``foo.py``): a target folder that holds none (a wheel's) has no place for an upstream's.
_TEST_FILE_RE = re.compile(r"(?:^|/)(?:test_[^/]*|[^/]*_test|conftest)\.py$")


def is_test_file(path: str) -> bool:
    return _TEST_FILE_RE.search(path) is not None


@dataclass
class TargetLines:
    """The target's stripped lines per file, and the paths and folders it holds."""

    lines: dict[str, Counter[str]]
    # the lines in order (:func:`line_forms`), for a change that only reorders lines (none: such a
    # change has nothing to count)
    order: dict[str, list[str]] = field(default_factory=dict)
    paths: frozenset[str] = field(init=False)
    folders: frozenset[str] = field(init=False)
    test_folders: frozenset[str] = field(init=False)  # folders holding a test module (:func:`is_test_file`)

    def __post_init__(self) -> None:
        self.paths = frozenset(self.lines)
        self.folders = frozenset(str(PurePosixPath(p).parent) for p in self.paths)
        self.test_folders = frozenset(str(PurePosixPath(p).parent) for p in self.paths if is_test_file(p))


def counterparts(change: FileChange, pairing: Pairing, target: TargetLines) -> tuple[list[str], bool]:
    """(target files corresponding to the changed file, whether the target has a place for it)."""
    found: list[str] = []
    for path in (change.old_path, change.new_path):
        for t in pairing.by_upstream.get(path, []) if path else []:
            if t not in found:
                found.append(t)
    # The target path the file maps to: the counterpart of a file new since the pairing (which
    # the target file, had it been there, paired with something else), or of one changed past
    # recognition (when that target file paired with nothing).
    new_since = bool(change.old_path) and change.old_path not in pairing.upstream_paths or not change.old_path
    for path in (change.old_path, change.new_path):
        mapped = pairing.mapped(path) if path else ""
        if mapped in target.paths and mapped not in found and (new_since or mapped not in pairing.paired_targets):
            found.append(mapped)
    if found:
        return found, True
    if change.new_path and change.old_path in pairing.upstream_paths:
        return [], False  # the target does not carry this upstream file
    # A file new since the pairing (its lines are missing), or one the commit deletes (its lines
    # are absent), where the target holds the folder it belongs in; for a test module, where that
    # folder holds test modules (keras 3.0.0's wheel, which ships none, against keras-core's
    # repository: a merge adding only ``backend_utils_test.py`` was "missing").
    mapped = pairing.mapped(change.path)
    folder = str(PurePosixPath(mapped).parent)
    return [], bool(mapped) and folder in (target.test_folders if is_test_file(change.path) else target.folders)


def judged_counterparts(change: FileChange, found: list[str], target: TargetLines, rename: Rename | None,
                        split_min_share: float) -> list[str]:
    """Of the target files ``found`` for a changed upstream file, those the change is judged
    against (their lines together): the one holding most of the file's lines as they were (else
    as they are; then the one the change's own lines decide most, then the first), and each other
    one holding at least ``split_min_share`` of them that those chosen do not (a file the fork
    split in two). A fork's alias module (``discord/abc.py``: ``from nextcord.abc import *``)
    pairs with the upstream file too and lacks every line a commit removes: judged on what it
    lacked, removals were "applied"."""
    if not found:
        return []
    reference = change.before or change.after
    if rename is not None:
        reference = Counter({rename(text): n for text, n in reference.items()})
    held = {t: reference & target.lines[t] for t in found}

    def rank(t: str) -> tuple[int, int, int]:
        counted = count_change(change, target.lines[t], rename)
        return -sum(held[t].values()), -(counted[1] + counted[3]), found.index(t)

    ranked = sorted(found, key=rank)
    chosen, covered = [ranked[0]], held[ranked[0]]
    need = split_min_share * sum(reference.values())
    for t in ranked[1:]:
        if sum((held[t] - covered).values()) >= max(need, 1):
            chosen.append(t)
            covered = covered | held[t]
    return chosen


def _gone_from_target(change: FileChange, had: Counter[str], found: list[str], target: TargetLines) -> bool:
    """Whether a text the change removes, which the target had (``had``), is gone from it."""
    for text, delta in deltas(change):
        if delta < 0 and had[text] and all(lacking(change.before[text], had[text], target.lines[t][text])
                                           for t in found):
            return True
    return False


@dataclass(frozen=True)
class TouchedCommit:
    """One commit of the range that touches Python files: its changes and the pairing they count by."""

    changes: list[FileChange]
    pairing: Pairing


@dataclass(frozen=True)
class Verdict:
    """The counted lines of one commit, its status, and the target files it was counted against."""

    added: int
    present: int
    removed: int
    absent: int
    added_superseded: int
    removed_superseded: int
    status: str
    target_files: str  # space-separated, sorted


def _evaluate(touched: list[TouchedCommit], target: TargetLines, params: DriftParams,
              proven: list[dict[str, Counter[str]]] | None) -> list[Verdict]:
    """One verdict per touched commit. Newest first, so that when an older commit's line is gone
    (or back) because a later commit changed it again, that later commit's status is known:
    only an applied one excuses it. ``proven[k]``: per upstream path, the lines the target
    can be expected to have held before commit ``k`` (none given: every absence counts)."""
    later_removed: dict[str, Counter[str]] = {}  # path -> texts later applied commits removed
    later_added: dict[str, Counter[str]] = {}
    verdicts: list[Verdict] = []
    for k in range(len(touched) - 1, -1, -1):
        changes, pairing = touched[k].changes, touched[k].pairing
        rename = renamer(pairing.renames, pairing.modules)
        totals = [0] * 6
        used: list[str] = []
        for change in changes:
            found, has_place = counterparts(change, pairing, target)
            if not has_place:
                continue
            path = change.new_path
            excused = (later_removed.get(path, Counter()), later_added.get(path, Counter()),
                       None if proven is None else proven[k].get(change.old_path, Counter()))
            chosen = judged_counterparts(change, found, target, rename, params.split_min_share)
            lines: Counter[str] = Counter()
            for t in chosen:
                lines |= target.lines[t]
            best = count_change(change, lines, rename, *excused, min_tokens=params.fallback_min_tokens)
            if change.moves_only and chosen and chosen[0] in target.order:
                moved, in_new = count_move(change, target.order[chosen[0]], rename)
                best = (moved, in_new, moved, in_new, 0, 0)
            used.extend(chosen)
            totals = [a + b for a, b in zip(totals, best, strict=True)]
        added, present, removed, absent, added_superseded, removed_superseded = totals
        status = classify(added - added_superseded, present, removed - removed_superseded, absent, params)
        if status == "applied":
            for change in changes:
                if not change.old_path:
                    continue
                for text, delta in deltas(change):
                    if delta < 0:
                        later_removed.setdefault(change.old_path, Counter())[text] -= delta
                    else:
                        later_added.setdefault(change.old_path, Counter())[text] += delta
        verdicts.append(Verdict(added, present, removed, absent, added_superseded, removed_superseded, status,
                                " ".join(sorted(set(used)))))
    return verdicts[::-1]


def judge(touched: list[TouchedCommit], target: TargetLines, at_base: Callable[[str], Counter[str]],
          params: DriftParams) -> list[Verdict]:
    """The verdict of every touched commit (oldest first), in two passes.

    A removed line is evidence only if the target had it: it was at BASE (``at_base``: an
    upstream path's lines there), or came with a commit the first pass found applied on evidence
    of its own, oldest first: an added line present, or a removed line gone that the target had
    (a chain of commits on a file the target never had is "applied" by absences alone). The
    second pass leaves the other absences out.
    """
    first = _evaluate(touched, target, params, None)
    proven: list[dict[str, Counter[str]]] = []
    held: dict[str, Counter[str]] = {}
    for commit, verdict in zip(touched, first, strict=True):
        changes = commit.changes
        before = {c.old_path: held.setdefault(c.old_path, at_base(c.old_path)).copy()
                  for c in changes if c.old_path}
        proven.append(before)
        if verdict.status != "applied":
            continue
        if not verdict.present and not any(
                _gone_from_target(c, before[c.old_path], counterparts(c, commit.pairing, target)[0], target)
                for c in changes if c.old_path):
            continue
        for c in changes:
            if c.new_path:
                held.setdefault(c.new_path, at_base(c.new_path)).update({t: d for t, d in deltas(c) if d > 0})
    return _evaluate(touched, target, params, proven)


__all__ = ["STATUSES", "FileChange", "Pairing", "TargetLines", "TouchedCommit", "Verdict", "classify",
           "count_change", "count_move", "counterparts", "deltas", "file_change", "judge", "learn_modules",
           "learn_pairing", "line_forms", "module_name", "pr_number", "renamer", "stripped_forms",
           "stripped_lines"]
