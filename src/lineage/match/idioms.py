"""Idioms: candidate regions made only of lines that many files write the same way.

A region is evidence of copying only if it holds lines that are *distinctive*: lines whose form
is found in few upstream files. The hit weights (:mod:`lineage.match.hits`) discount a common
form, but a region of many weak lines still adds up: a config class of keyword defaults
(``num_hidden_layers: int = 40,``), a ``load_weights`` loop, a Llama-style MLP signature or a row
of integers is written the same way in dozens of upstream files, and whichever of them happens to
share a few more such lines with the target file forms a region with it. So, between chaining and
claiming (:meth:`IdiomFilter.keep`, the one hook in :func:`lineage.match.match_sides`):

* The **evidence lines** of a candidate chain are its hits and the lines inside its target span
  whose text the paired upstream file holds (a generic-looking signature such as
  ``def is_ipv4_address(string_ip):`` never seeds, but its text is rare).
* An evidence line is **distinctive** when its form (its text, or for a line whose text is found
  nowhere upstream, its abstract form) is found in at most ``idiom_max_files`` upstream files,
  and it is not an **argument line**: a lone keyword argument or default (``hidden_act="silu",``,
  ``num_heads: int = 8,``, ``dim=dim,``, ``self.eps = eps``), a row of literals (``1, 2, 3,``)
  or an absolute import that the upstream writes the same (``from aiter.ops.triton.gluon.pa_decode_gluon
  import (``). An import the upstream writes with another package name (``from attr import`` ->
  ``from attr_fork import``: found by its abstract form only) or a relative one (``from . import
  converters``) stays evidence: they name the upstream's own modules, and a fork that renamed its
  package keeps them (its ``__init__.py`` may hold nothing else). Argument lines are
  written alike wherever the same library is called, configured or imported, with any value:
  two files calling one rare API import it alike (sglang's ``aiter_utils.py`` and a vLLM
  kernel, both calling AITER's ``pa_decode_gluon``). A field declaration
  (``partition_weight_shape: tuple[int, int]``) is not an argument line: its name is the
  author's, and a dataclass copied field by field has only such lines. Nor is it a
  **convention line** (:func:`is_convention_line`, ``idiom_conventions``): a data model method's
  plain signature (``def __lt__(self, other):``, ``def __init__(``) or a type variable declared
  under its own name (``_T = TypeVar('_T')``), which the language and PEP 484 dictate; a small
  upstream holds them in few files, yet every project writes them.
* The **evidence** of a (target file, upstream file) pair is over all its candidate chains (a
  short region in a file whose other regions come from the same upstream file is established
  by them), one line per distinct form (a mask line the target repeats in two kernels is one
  piece of evidence): the token count (capped at ``token_weight_cap``) of its distinctive lines.
* A line found upstream only by its abstract form (every name and literal replaced) is weaker
  evidence: two triton kernels that load, mask and store alike share rare abstract forms
  although no name is the same. A pair with fewer than ``idiom_min_lines`` distinctive lines
  found by their text (or imports, which a renamed package writes with its new name) needs
  ``idiom_min_abstract_lines`` distinctive lines in all (a function
  renamed throughout has many; a kernel's ``def`` and one ``tl.load`` line in a file that only
  shares ``@triton.jit`` with the upstream file are not a copy).
* A pair with fewer than ``idiom_min_evidence`` tokens or ``idiom_min_lines`` distinctive lines
  (3: two rare lines shared with one file of many alike, ``_align_up``'s signature and body,
  ``plt.savefig(...)`` and ``plt.close(fig)``, are what unrelated code writes the same; on the
  real pair 4 of 40 lines that 2 allowed and 3 does not were copies, by a side sample labelled
  by eye) forms no region (one long rare line is never a region, as ``region_min_hits``), unless
  the pair is established otherwise: the target file's provenance markers name that upstream
  file, or it is at the target's own relative path (:func:`lineage.match.same_paths`; the same
  pairs that step 6, the fill, trusts), or the chain is a whole identical file
  (:func:`lineage.match.claims.identical_files`).

Measured on the real-pair truth set (``corpora/sglang-vllm-truth.md``, "Idiom rule"): tuned on
one half, checked on the other.

The rule only removes candidates; it never adds a pair, so a true copy is lost only if all its
shared lines are common forms, and such a copy cannot be told from an idiom by its text alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from lineage.arrays import counts_sorted, distinct_pairs, positions, unique, unique_first
from lineage.index.normalise import abstract_code
from lineage.match.hits import Side
from lineage.match.imports import is_absolute_import
from lineage.match.params import MatchParams
from lineage.match.regions import Chain

# Abstract forms (names I, strings S, numbers N; keywords kept) of argument lines: an optional
# annotation, ``=`` and one simple value, an optional trailing comma; or literals only.
_VALUE = r"(?:- )?(?:I|S|N|None|True|False)(?: \. I)*"
_ARGUMENT = re.compile(
    rf"^(?:self \. )?I(?: : [^=]+)? = {_VALUE}(?: ,)?$"  # keyword argument or default
    rf"|^(?:{_VALUE} , )*{_VALUE}(?: ,)?$"  # a row of values: ``1, 2, 3,`` / ``"name",``
)


@lru_cache(maxsize=1 << 16)  # argument lines (``self,``, ``dim=dim,``) recur in many files
def is_argument_line(text: str) -> bool:
    """Whether a stripped code line is a lone keyword argument/default or a row of literals."""
    return bool(_ARGUMENT.match(abstract_code(text)))  # (normalise_code's abstract form alone)


# A ``return`` or ``yield`` of constants only, a number or a string among them: literals joined
# by operators, no name (``return 1 << 12``, ``return -1``, ``yield (1 << 3) | 4``): the row of
# a flag or constant table written one property at a time. ``return True`` is no row: every
# predicate ends so.
_CONSTANT_STATEMENT = re.compile(
    r"^(?:return|yield)(?=(?: \S+)* [NS](?: |$))(?: (?:N|S|None|True|False|[-+~*/%|&^()]|<<|>>|\*\*|//))+$")


def is_constant_statement(text: str) -> bool:
    """Whether a stripped code line returns or yields constants only (see the pattern above)."""
    return bool(_CONSTANT_STATEMENT.match(abstract_code(text)))


# A method of Python's data model with at most three plain parameters after ``self``/``cls``
# (``def __lt__(self, other):``, ``def __hash__(self):``, ``def __exit__(self, *args) -> None:``),
# or the opening line of one whose parameters follow on other lines (``def __init__(``): the
# language names it and convention its parameters, so every class that compares, hashes or
# constructs writes it so. A name of the data model has one or two words (``__lt__``,
# ``__class_getitem__``); ``__my_custom_kernel__`` is no protocol of the language's.
_PROTOCOL_DEF = re.compile(
    r"(?:async\s+)?def\s+__[a-z]+(?:_[a-z]+)?__\s*\((?:\s*\**\w+(?:\s*,\s*\**\w+){0,3}\s*,?\s*\)"
    r"(?:\s*->\s*[\w.\[\], ]+)?\s*:(?:\s*\.\.\.)?|\s*)")
_CONSTRUCTORS = ("def __init__(", "def __new__(", "def __post_init__(", "async def __init__(")
# A type variable declared under its own name (``_T = TypeVar('_T')``, ``P = ParamSpec("P")``,
# ``_T_co = TypeVar('_T_co', covariant=True)``): PEP 484 makes the name that of the string. A
# bound or constraints name the author's own types (``TypeVar('T', bound=Channel)``): not this.
_TYPE_VARIABLE = re.compile(r"(\w+)\s*=\s*(?:\w+\.)?(?:TypeVar|ParamSpec|TypeVarTuple)\(\s*(['\"])(\w+)\2"
                            r"(?:\s*,\s*(?:covariant|contravariant|infer_variance)\s*=\s*(?:True|False))*\s*\)")


def is_convention_line(text: str) -> bool:
    """Whether a stripped code line is written by convention rather than by its author: a data
    model method's plain signature or a type variable's declaration (see the patterns above).
    Such a line is found in few files of a small upstream (jaraco.text's six) and yet every
    project writes it, so it is no evidence of copying, however rare upstream. A trailing
    comment is no part of the line's code."""
    code = text.split("#", 1)[0].rstrip()
    if _PROTOCOL_DEF.fullmatch(code):
        # a constructor's parameters are the author's own names, beyond ``self``/``cls``
        return not code.startswith(_CONSTRUCTORS) or "," not in code
    m = _TYPE_VARIABLE.fullmatch(code)
    return m is not None and m.group(1) == m.group(3)


def form_file_counts(upstream: Side) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per distinct upstream form (text hashes, abstract hashes): in how many upstream files it
    occurs. Returns (sorted text keys, their file counts, sorted abstract keys, their counts)."""
    out = []
    for keys in (upstream.h_norm, upstream.h_abs):
        forms, counts = counts_sorted(distinct_pairs(keys, upstream.file_of)[0])  # sorted by form already
        out += [forms, counts]
    return out[0], out[1], out[2], out[3]


def _count(forms: np.ndarray, counts: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if len(forms) == 0:
        return np.zeros(len(keys), np.int64)
    pos = positions(forms, keys)
    return np.where(pos >= 0, counts[pos], 0)


class IdiomFilter:
    """The idiom rule for the target files of one :func:`~lineage.match.match_sides` call."""

    def __init__(self, target: Side, upstream: Side, p: MatchParams) -> None:
        self.target, self.upstream, self.p = target, upstream, p
        text_forms, text_counts, abs_forms, abs_counts = upstream.form_counts or form_file_counts(upstream)
        self._text_forms, self._text_counts = text_forms, text_counts
        by_text = _count(text_forms, text_counts, target.h_norm)
        by_abs = _count(abs_forms, abs_counts, target.h_abs)
        # A line whose text is found upstream hits by its text; else by its abstract form.
        self.files_of_form = np.where(by_text > 0, by_text, by_abs)
        self.files_of_text = by_text
        self.text_found = by_text > 0
        self._forms_of_file: dict[int, np.ndarray] = {}
        self._generic_memo: dict[int, bool] = {}

    def _shared_lines(self, t_file: int, chain: Chain) -> np.ndarray:
        """Global target lines of the chain's evidence: its hits, and the lines inside its span
        whose text the upstream file holds (a generic-looking signature never seeds, but it is
        evidence when its text is rare)."""
        t = self.target
        start = int(t.file_start[t_file])
        hits = np.concatenate([run.hits for run in chain.runs]) + start
        span = np.arange(start + chain.runs[0].t0, start + chain.t_end + 1)
        u_forms = self._file_forms(chain.up_file)
        forms = t.h_norm[span]
        at = np.minimum(np.searchsorted(u_forms, forms), len(u_forms) - 1)
        return unique(np.concatenate((hits, span[u_forms[at] == forms] if len(u_forms) else span[:0])))

    def _file_forms(self, up_file: int) -> np.ndarray:
        """The sorted distinct text forms of one upstream file, made once per file: a target
        file's chains test their spans against the same few upstream files again and again
        (``np.isin`` sorted the whole file for every chain)."""
        forms = self._forms_of_file.get(up_file)
        if forms is None:
            u = self.upstream
            forms = unique(u.h_norm[u.file_start[up_file] : u.file_start[up_file + 1]])
            self._forms_of_file[up_file] = forms
        return forms

    def distinctive(self, t_file: int, chains: list[Chain], lines: list[str],
                    shared: dict[int, np.ndarray] | None = None) -> np.ndarray:
        """Global target lines of the chains' evidence that are distinctive, one per distinct form.
        ``shared``: each chain's :meth:`_shared_lines` by ``id``, kept by the caller for chains
        it asks about again (:meth:`keep`)."""
        if shared is None:
            shared = {}
        for c in chains:
            if id(c) not in shared:
                shared[id(c)] = self._shared_lines(t_file, c)
        glob = unique(np.concatenate([shared[id(c)] for c in chains]))
        glob = glob[self.files_of_form[glob] <= self.p.idiom_max_files]
        # One form repeated in the target (the same mask line in two kernels) is one piece of evidence.
        glob = glob[unique_first(self.target.h_norm[glob])[1]]
        # A convention line (a data model method's plain signature) is no evidence of a pair; the
        # lone-line rule, which judges a line with its whole statement, still reads it as rare.
        conventions = bool(self.p.idiom_conventions)
        keep = [not self._generic(g, lines) and not (
                    conventions and is_convention_line(lines[int(self.target.row_of[g])].strip()))
                for g in glob.tolist()]
        return glob[np.array(keep, bool)] if len(glob) else glob

    def _generic(self, g: int, lines: list[str]) -> bool:
        """Whether global target line ``g`` is an argument line or an absolute import the upstream
        writes the same (memoised: a line is evidence of many candidate chains)."""
        found = self._generic_memo.get(g)
        if found is None:
            text = lines[int(self.target.row_of[g])].strip()
            found = self._generic_memo[g] = is_argument_line(text) or (
                bool(self.text_found[g]) and is_absolute_import(text))
        return found

    def _textual(self, g: int, lines: list[str]) -> bool:
        """Whether global target line ``g`` is found upstream by its text, or is an import found by
        its abstract form (a renamed package's import names the upstream's own module)."""
        return bool(self.text_found[g]) or is_absolute_import(lines[int(self.target.row_of[g])].strip())

    def rare(self, glob: np.ndarray, lines: list[str]) -> np.ndarray:
        """Per global target line: whether its form is rare, the rarity half of "distinctive"
        above (found in at most ``idiom_max_files`` upstream files, not an argument line, not an
        absolute import the upstream writes the same); its length is the caller's test. Read by
        the lone-line rule (:mod:`lineage.match.lone`) as well as by this rule."""
        return self._rare(self.files_of_form, glob, lines)

    def text_rare(self, glob: np.ndarray, lines: list[str]) -> np.ndarray:
        """:meth:`rare` by the line's text alone (an edited line found nowhere upstream is rare),
        not its abstract form: for a near line, whose rarity the upstream line it names carries
        (:meth:`upstream_rare`); its abstract form counts the files that write its shape
        (``class I:``, ``if I(I, S):``), which a short line shares with many."""
        return self._rare(self.files_of_text, glob, lines)

    def _rare(self, files_of: np.ndarray, glob: np.ndarray, lines: list[str]) -> np.ndarray:
        rare = files_of[glob] <= self.p.idiom_max_files
        for k in np.flatnonzero(rare).tolist():
            rare[k] = not self._generic(int(glob[k]), lines)
        return rare

    def upstream_rare(self, u_glob: np.ndarray, texts: list[str]) -> np.ndarray:
        """The same test for global upstream lines (``texts``: their stripped texts): the line a
        near pair names is evidence only if it is itself rare (an edited target line is found
        nowhere, so its own count says nothing)."""
        counts = _count(self._text_forms, self._text_counts, self.upstream.h_norm[u_glob])
        return np.array([int(c) <= self.p.idiom_max_files and not is_argument_line(t) and not is_absolute_import(t)
                         for c, t in zip(counts.tolist(), texts, strict=True)], bool)

    def keep(self, t_file: int, chains: list[Chain], named: set[int], identical: Chain | None) -> list[Chain]:
        """The chains of one target file that may form regions (see the module docstring).
        ``named``: upstream files the target file's markers name, or at its own relative path."""
        p = self.p
        if p.idiom_min_evidence <= 0 and p.idiom_min_lines <= 1:
            return chains
        lines = self.target.read_lines(t_file)
        by_pair: dict[int, list[Chain]] = {}
        for chain in chains:
            if chain is not identical and chain.up_file not in named:
                by_pair.setdefault(chain.up_file, []).append(chain)
        weak: set[int] = set()
        # each chain's evidence lines, made once for both tests (the pair's, then the chain's table rows)
        shared: dict[int, np.ndarray] = {}
        alone: dict[int, np.ndarray] = {}  # a pair's one chain: its distinctive lines are the pair's
        for up_file, mine in by_pair.items():
            found = self.distinctive(t_file, mine, lines, shared)
            if len(mine) == 1:
                alone[id(mine[0])] = found
            tokens = float(np.minimum(self.target.ntok[found], p.token_weight_cap).sum())
            if tokens < p.idiom_min_evidence or len(found) < p.idiom_min_lines or (
                    len(found) < p.idiom_min_abstract_lines
                    and sum(1 for g in found.tolist() if self._textual(g, lines)) < p.idiom_min_lines):
                weak.add(up_file)
        return [c for c in chains if c is identical or (c.up_file not in weak and not (
            c.up_file not in named and self._table_rows(t_file, c, lines, shared, alone.get(id(c)))))]

    def _table_rows(self, t_file: int, chain: Chain, lines: list[str],
                    shared: dict[int, np.ndarray] | None = None, found: np.ndarray | None = None) -> bool:
        """Whether a candidate chain is rows of a table and little else: among its distinctive
        lines (one per form, :meth:`distinctive`) a constant statement (``return 1 << 12``,
        :func:`is_constant_statement`), and fewer than ``idiom_table_min_lines`` that are not.
        Two flag tables of one project write the same bits in the same order, one property
        each, so their rows align with any such table's: nextcord's new ``ApplicationFlags``
        (bits 12 to 18, its own names and docstrings) formed a region with discord.py's
        ``Permissions`` (9 false copies), its pair established by ``flags.py``'s shared
        docstrings that ``discord/flags.py`` claimed. A chain's own rows name no file; the
        pair's other evidence is no evidence of this chain. ``found``: the chain's distinctive
        lines when the caller has them (``shared``: as :meth:`distinctive` takes it)."""
        need = self.p.idiom_table_min_lines
        if need <= 0:
            return False
        if found is None:
            found = self.distinctive(t_file, [chain], lines, shared)
        rows = [is_constant_statement(lines[int(self.target.row_of[g])].strip()) for g in found.tolist()]
        return any(rows) and len(rows) - sum(rows) < need
