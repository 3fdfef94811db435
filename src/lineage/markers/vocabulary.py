"""The phrase vocabulary: verbs, lead-ins, prose words, and how a phrase's source is judged.

The rules are in the docstring of :mod:`lineage.markers` (section "Phrase markers").
"""

from __future__ import annotations

import re

from lineage.markers.urls import find_urls, parse_url, without_urls


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ADVERB = (
    r"(?:mostly|partially|partly|originally|heavily|largely|loosely|directly|primarily|mainly"
    r"|closely|lightly|slightly|shamelessly|initially|also|substantially|entirely|fully|simply"
    r"|verbatim|liberally|significantly|roughly|wilfully|willfully)"
)
# "backported from": a newer version's code carried back, as flask-restplus 0.13.0's _http.py says of
# Python 3.5's http module (its HTTPStatus read as flask-restplus' own in flask-restx 1.3.0)
# "Copy-pasted from" (also "copy pasted", "copypasted", "copy-and-pasted", the noun "copy-paste from"):
# copied, said plainly (trl 0.12.1's online_dpo_trainer.py: "Copy-pasted from transformers.Trainer";
# diffusers 0.31.0's blip_diffusion: "Copy-pasted from transformers.models.blip..."; scipy 1.14.1's
# _lib/_util.py: "copy-pasted from scikit-learn utils/validation.py"); before the imperative "copy".
_COPY_PASTE = r"copy[\s-]*(?:(?:and|&)[\s-]*)?past(?:ed|e)"
# "duplicated from": copied, said plainly (a reviewer reads it as "copied from"). "stolen from": taken,
# said in jest (requests-toolbelt 1.0.0's utils/user_agent.py: "The majority of this code has been
# wilfully stolen from the equivalent function in Requests", above requests' help.py code).
# "brought over from": taken, said of functions moved into the file (pip 24.2's utils/_jaraco_text.py:
# "Functions brought over from jaraco.text.", unread, its lines went to a third party named by its
# copyright holder). "lifted from", "cribbed from": taken, said plainly (setuptools 72.1.0's vendored
# typeguard: "Lifted from mypy.sharedparse"; sympy 1.13.3's printing/octave.py: "cribbed from str.py").
# "translated from": code written again in another framework ("Downsampler modules (translated from
# HF downsampling.py)", vLLM 0.32.0's granite4_vision.py), a port; judged by its own rule in
# :func:`accepts` (TRANSLATED: a URL, a module or a file path), since values are translated too
# ("translated from full pool indices to SWA pool indices", sglang 0.5.23, names no source).
_FROM_VERBS = (
    rf"derived|adapted|adopted|copied|{_COPY_PASTE}|duplicated|modified|ported|backported|taken|borrowed|forked"
    r"|vendored|stolen|brought\s+over|lifted|cribbed|translated|copy"
)
# A taking verb, or the adjective "duplicate", with the code it took between it and "from": "Duplicate
# logic from Pydantic to filter config kwargs" (sqlmodel 0.0.22's main.py, above pydantic v1's
# config-kwargs filter), "copied code from". Not the imperative "copy" ("copy code from smem" is
# an instruction). The third person says the same of the code it stands above: "Adapts logic from
# `pydantic._repr.display_as_type`" (pydantic-settings 2.6.1's sources.py, a docstring); not
# "duplicates", which states a repetition ("This duplicates the code from `__enter__`", numpy), nor
# "ports", also said of data moved ("ports code from smem to registers").
_OBJECT_VERBS = r"derived|adapted|copied|duplicated|duplicate|ported|taken|borrowed|adapts|borrows"
_CODE_OBJECT = r"(?:(?:the|this|some)\s+)?(?:code|logic|implementation)"
_BE = r"(?:is|are|was|were|has\s+been|have\s+been)"
# The imperative "copy from": judged by its own rule in :func:`accepts`, reported as copied_from.
COPY_FROM = "copy_from"
# "translated from": judged by its own rule in :func:`accepts`, reported as ported_from.
TRANSLATED = "translated"
# "a copy of" / "a port of": judged by their own rule in :func:`accepts`, reported as
# copied_from / ported_from (REPORTED_KIND).
COPY_OF, PORT_OF = "copy_of", "port_of"
# "an adaptation of": judged like "a copy of", reported as adapted_from (xarray 2024.10.0's
# accessor_str.py: "The StringAccessor class defined below is an adaptation of the pandas string
# methods source code (see pd.core.strings)").
ADAPTATION_OF = "adaptation_of"
# "a rewrite of" / "a rewriting of": judged like "a copy of", reported as adapted_from: the code was
# written again from the named source (scikit-learn 1.5.2's feature_selection/_univariate_selection.py:
# "The following function is a rewriting of scipy.stats.f_oneway"; unread, its copied lines were
# in the review list).
# "Code from" / "Original code from" opening a clause, with no verb: judged by its own rule in
# :func:`accepts`, reported as taken_from (transformers 4.46.3's falcon_mamba kernel: "Original
# code from: https://github.com/state-spaces/mamba/blob/main/mamba_ssm/ops/...").
CODE_FROM = "code_from"
# "a modified file from": judged like "a copy of", reported as modified_from (scikit-learn 1.5.2's
# utils/optimize.py: "This is a modified file from scipy.optimize"; unread, the lines it shares
# with scipy's optimize/_optimize.py went to a third party). "a modified version of": its own rule below.
MODIFIED_FILE = "modified_file"
# "a modified version of X from SOURCE": read only when "from" names a URL, a module or a file path
# (diffusers 0.31.0's blip_diffusion/modeling_ctx_clip.py: "This is a modified version of the
# CLIPTextModel from transformers.models.clip.modeling_clip", unread, the file in the review list);
# without "from" it describes what was modified ("a modified version of the Golub-Welsch algorithm").
MODIFIED_VERSION = "modified_version"
# A comment that is nothing but "from" and a named release ("# from jaraco.functools 3.3" above
# importlib_metadata 8.5.0's method_cache and pass_none, beside its "# copied from more_itertools 8.8";
# unread, _functools.py was listed unmarked): the release says where the code below was taken from.
# Only a whole-line comment opening its text (detect): "x = f()  # from numpy 2.0" says "since".
BARE_FROM = "bare_from"
REPORTED_KIND = {BARE_FROM: "taken_from", COPY_FROM: "copied_from", COPY_OF: "copied_from", PORT_OF: "ported_from",
                 ADAPTATION_OF: "adapted_from", CODE_FROM: "taken_from", MODIFIED_FILE: "modified_from",
                 MODIFIED_VERSION: "modified_from", TRANSLATED: "ported_from"}

# A short parenthesis inside a phrase ("adapted (with changes) from", "a verbatim copy (vendored)
# of": pandas 2.2.3's interchange/dataframe_protocol.py, the data-apis spec, read as pandas' own)
_ASIDE = r"(?:\s+\([^()]{0,60}\))?"

_PHRASE = (
    rf"(?:(?:{_FROM_VERBS})\s*(?:and|&|/|,)\s*)?"
    rf"(?:(?P<verb>{_FROM_VERBS}){_ASIDE}"
    rf"(?:\s+{_ADVERB}|\s+in\s+part|\s+with\s+(?:\w+\s+)?(?:changes|modifications))?\s+from"
    rf"|(?P<objverb>{_OBJECT_VERBS})\s+{_CODE_OBJECT}\s+from"
    rf"|(?P<based>based)(?:\s+{_ADVERB})?\s+(?:on|upon|off(?:\s+of)?)"
    rf"|(?P<inspired>inspired)(?:\s+{_ADVERB})?\s+by"
    # "This file is a copy of the scipy.sparse.csgraph._laplacian module", "A port of FNMatcher
    # from py.path.common", "a rewriting of scipy.stats.f_oneway", "a modified file from
    # scipy.optimize": never after a generic lead-in ("Return a copy of Config" is prose)
    rf"|an?\s+(?:(?:{_ADVERB}|modified|edited)\s+)?(?P<copyof>copy|port|adaptation|rewrite|rewriting){_ASIDE}\s+of"
    rf"|an?\s+modified\s+(?P<modfile>file|module){_ASIDE}\s+from"
    rf"|an?\s+modified\s+(?P<modver>version){_ASIDE}\s+of)"
    r"(?![\w-])"
)

_KNOWN_LEAD = (
    r"(?P<lead>"
    rf"(?:this|the\s+following|following)(?:\s+[\w-]+){{0,3}}?\s+{_BE}\s+"
    r"|(?:some|most|much|all|large\s+parts|parts?|portions?|pieces?|bits|(?:the\s+)?(?:majority|bulk))\s+of\s+(?:this|the)"
    rf"(?:\s+[\w-]+){{0,2}}?\s+{_BE}\s+"
    r"|(?:(?:this|the)(?:\s+[\w-]+){0,2}?\s+)?(?:contains|includes|uses|has)\s+"
    r"(?:some\s+|the\s+)?(?:code|parts|portions|functions|classes|snippets|logic|pieces"
    rf"|implementations?)(?:\s+(?:that|which)\s+{_BE})?\s+"
    r"|(?:(?:some|most|much|the|this|all)\s+)?(?:code|implementation|impl|logic|kernels?"
    r"|modules?|files?|classes|functions|methods|parts|portions)(?:\s+(?:here|below|above))?"
    rf"(?:\s+(?:in|of|within)\s+this\s+(?:file|module|class|function|package))?(?:\s+{_BE})?\s+"
    # "The rearrangement algorithm is", "the fused MoE kernels were": "the", up to two
    # words, then a noun of code and its verb (the verb required: "the kernel from" is prose)
    r"|the\s+(?:[\w-]+\s+){1,2}?(?:code|implementation|logic|kernels?|algorithms?"
    rf"|modules?|classes|functions|methods)\s+{_BE}\s+"
    r")?"
)

# A phrase cut by a line break: its verb ends one comment line and its preposition opens the
# next ("# Adapted" / "# from https://..."); the two lines are then read as one.
SPLIT_HEAD_RE = re.compile(rf"(?<![\w-])(?:{_FROM_VERBS}|based|inspired)(?:\s+{_ADVERB})?\s*$", re.IGNORECASE)
SPLIT_TAIL_RE = re.compile(r"^(?:from|on|upon|off|by)(?![\w-])", re.IGNORECASE)
# Words a phrase's source cannot end on ("adapted from the" / "vLLM project"): the next line
# of the comment finishes the source.
_DANGLING = _words(
    """
    the a an of from in at by to and or for with this these those our their its his her on into
    via as original official upstream equivalent corresponding analogous same similar
    """
)


def dangling(rest: str) -> bool:
    """Whether a phrase's source text stops where no sentence can: a comma or a word of _DANGLING."""
    rest = rest.rstrip()
    if rest.endswith(","):
        return True
    words = rest.split()
    return bool(words) and words[-1].lower() in _DANGLING


# "Code from" has no verb: read only opening its clause or after a known lead-in ("Ref code from
# https://huggingface.co/...", sglang 0.5.23's fused_moe_native.py, names a reference)
_CODE_FROM = r"(?P<codefrom>(?:original\s+)?code)\s+from(?![\w-])"
# "originally from" has no verb either: read only after a known lead-in ("This file is originally
# from the Stable Baselines3 repository (https://github.com/DLR-RM/stable-baselines3/)", gym
# 0.26.2's env_checker.py); an aside ("(originally from DeepGEMM)") or a sentence is no marker.
_ORIGINALLY_FROM = r"(?P<origfrom>originally)\s+from(?![\w-])"
KNOWN_RE = re.compile(rf"{_KNOWN_LEAD}(?:(?:{_ADVERB}\s+){{0,2}}{_PHRASE}|{_CODE_FROM}|{_ORIGINALLY_FROM})",
                      re.IGNORECASE)
_GENERIC_RE = re.compile(rf"(?P<generic>(?:[A-Za-z][\w-]*\s+){{1,3}}?)(?:{_ADVERB}\s+){{0,2}}{_PHRASE}", re.IGNORECASE)
_CLAUSE_START_RE = re.compile(r"[.!?;:]\s+|[(\[]\s*|\s[-–—]{1,2}\s+")
_CLAUSE_END_RE = re.compile(r";|,\s|(?<=\S)[.!?](?=\s|$)")

# Words that make a would-be generic lead-in a sentence ("The key is derived from ...").
_GENERIC_STOP = _words(
    """
    is are was were be been being am the a an it its we they he she you i this that these those
    then and or but if when where which who whom whose to for by with as will would should shall
    can could may might must not no so because since while until than there here only just do
    does did done has have had get gets got make makes made use used uses using value values
    result results data number numbers tensor tensors cache caches buffer buffers state states
    memory output outputs input inputs shape shapes size sizes
    """
)
# First words after a lenient verb that mark prose rather than a source.
PROSE_START = _words(
    """
    the a an this that these those its their our my your his her it them there here previous
    next above below former latter each every some any all both input inputs output outputs one
    """
)
SOURCE_NOUN_RE = re.compile(
    r"\b(?:implementations?|impl|code|codebase|versions?|repo|repos|repository|repositories"
    r"|project|library|libraries|lib|package|upstream|commit|PR|pull\s+request|gist"
    r"|source\s+code|reference)\b",
    re.IGNORECASE,
)
NOT_PROPER = _words(
    """
    the a an this that these those it its we our i in on at for see note and or but if when
    with from to of by as is nb todo fixme xxx hack warning
    table tables figure fig eq eqn equation section sec appendix algorithm alg step line lines
    kv gpu gpus cpu cpus tpu tpus npu hbm sram dram ram sm sms io oom api tp pp dp ep
    """
)
_WORD_RE = re.compile(r"[A-Za-z][\w+'’-]*")
_POSSESSIVE_RE = re.compile(r"\b\w+['’]s\b")
_VERSION_RE = re.compile(r"(?<![\w.])(?:v\d+(?:\.\d+)+|\d+\.\d+\.\d+)", re.IGNORECASE)
# A source that opens with a name and a two-part release ("more_itertools 8.8", "numpy 1.26"); a
# word of prose before the number ("section 2.3", "table 3.1", "page 4.1") names no release.
_NAMED_RELEASE_RE = re.compile(r"[\s`'\"*]*([A-Za-z][\w.-]*)\s+v?\d+\.\d+(?![\w.])", re.IGNORECASE)
_NOT_RELEASE_NAMES = frozenset({"page", "pages", "chapter", "version", "versions", "release", "paper", "rfc",
                                "python", "py", "step", "stage", "phase", "part", "item", "rule", "theorem",
                                "lemma", "proposition", "corollary", "example", "exercise", "formula", "remark",
                                "definition", "listing", "problem", "claim", "case", "note", "level", "round"})

_FILE_EXT = (
    "py|pyi|pyx|pxd|cu|cuh|cpp|cc|cxx|c|h|hpp|hh|rs|go|js|ts|java|jl|sh|yaml|yml|json|toml|cfg|ini|md|rst|txt|ipynb"
)
_FILE_EXTS = frozenset(_FILE_EXT.split("|"))
_FILE_PATH_RE = re.compile(rf"(?<![\w./:-])((?:[\w.-]+/)*[\w-]+\.(?:{_FILE_EXT}))(?![\w/-])", re.IGNORECASE)
# Without an extension a path needs two slashes; "min/default/max" still slips through, so
# such paths fill ``path`` but never make a phrase a marker on their own.
_DIR_PATH_RE = re.compile(r"(?<![\w./:-])((?:[\w.-]+/){2,}[\w.-]+)(?![\w/-])")
_DOTTED_RE = re.compile(r"(?<![\w./-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?![\w/-]|\.\w)")
_TLDS = _words("com org net io ai co dev edu gov html htm")
# Dotted names that are attribute access on a local, not a module path.
_BAD_DOTTED_FIRST = _words(
    """
    self cls ctx args kwargs config cfg x y z model module input inputs output outputs tensor
    e i eg ie etc np
    """
)


REPL_START_RE = re.compile(r"\bwith\s+(?=[^\s,;]+?\s*(?:->|→|=>))", re.IGNORECASE)
_REPL_PAIR_RE = re.compile(r"\s*(?:,|\band\b)?\s*([^\s,;>]+?)\s*(?:->|→|=>)\s*([^\s,;]+)")
_REPL_STRIP = "`'\"().[]:"


def qualified_dotted(text: str) -> str:
    """The first dotted name in ``text`` that looks like a module path, or ""."""
    stripped = text.lstrip(" `'\"*:")
    opening = len(text) - len(stripped)
    for m in _DOTTED_RE.finditer(text):
        parts = m.group(1).split(".")
        last = parts[-1].lower()
        if last in _FILE_EXTS or last in _TLDS or parts[0].lower() in _BAD_DOTTED_FIRST:
            continue
        if (
            len(parts) >= 3
            or parts[-1].lstrip("_")[:1].isupper()
            or (m.start() == opening and len(parts[0]) >= 2 and len(parts[1]) >= 2)
        ):
            return m.group(1)
    return ""


def file_path(text: str, dirs: bool = False) -> str:
    m = _FILE_PATH_RE.search(text) or (_DIR_PATH_RE.search(text) if dirs else None)
    return m.group(1) if m else ""


def has_proper_noun(text: str) -> bool:
    for m in _WORD_RE.finditer(text):
        word = re.sub(r"['’]s$", "", m.group(0)).rstrip("'’-")
        if len(word) > 1 and any(c.isupper() for c in word) and word.lower() not in NOT_PROPER:
            return True
    return False


def _strong(clause: str) -> bool:
    """A URL, module path, file path, release or proper noun."""
    if find_urls(clause):
        return True
    plain = without_urls(clause)
    return bool(qualified_dotted(plain) or file_path(plain) or _VERSION_RE.search(plain) or _named_release(plain)
                or has_proper_noun(plain))


def _named_release(text: str) -> bool:
    m = _NAMED_RELEASE_RE.match(text)
    return bool(m) and m.group(1).lower() not in NOT_PROPER and m.group(1).lower() not in _NOT_RELEASE_NAMES


# "from", then a name and its release and nothing else (a trailing full stop at most)
_BARE_NAME_RE = re.compile(r"[`'\"*]*([A-Za-z][\w.-]*)")
_BARE_FROM_RE = re.compile(
    r"\s*(?P<barefrom>from)\s+(?=[`'\"*]*[A-Za-z][\w.-]*[`'\"*]*\s+v?\d+(?:\.\d+)+[`'\"*]*\.?\s*$)", re.IGNORECASE)


def _pathlike(clause: str) -> bool:
    plain = without_urls(clause)
    return bool(find_urls(clause) or qualified_dotted(plain) or file_path(plain))


def first_clause(rest: str) -> str:
    rest = rest.lstrip(" \t:-–—")
    return _CLAUSE_END_RE.split(rest, maxsplit=1)[0].strip()


def accepts(kind: str, lead: str, clause: str) -> bool:
    """Whether the text after a phrase names a source (rules in the module docstring)."""
    if not clause:
        return False
    if kind == COPY_FROM:  # "copy from smem to registers" is an instruction, not a source
        return bool(find_urls(clause) or file_path(without_urls(clause)))
    if kind == BARE_FROM:  # _BARE_FROM_RE saw a name and a release; a word of prose names none
        name = _BARE_NAME_RE.match(clause)
        return bool(name) and name.group(1).lower() not in NOT_PROPER | _NOT_RELEASE_NAMES
    if kind == CODE_FROM:  # "code from the cache" is prose; a URL or a module or file path is a source
        return _pathlike(clause)
    if kind == TRANSLATED:  # "translated from full pool indices" is prose; after any lead-in, as a taking verb
        return _module_source(clause) if lead == "any" else _pathlike(clause)
    if lead == "any":
        return kind in _ANY_LEAD_KINDS and _module_source(clause)
    if kind == MODIFIED_VERSION:  # only a path or URL after "from" names a source
        after = re.split(r"\sfrom\s", clause, maxsplit=1)
        return len(after) == 2 and _pathlike(after[1])
    if kind in (COPY_OF, PORT_OF, ADAPTATION_OF, MODIFIED_FILE):
        # a URL, module or file path, or a strong source after "from" ("a copy of `glob` from
        # Python 3.5"); a proper noun alone is the object copied ("A copy of the Rotation in
        # CUDA memory", transformers' openfold utils), not a source
        after = re.split(r"\sfrom\s", clause, maxsplit=1)
        return _pathlike(clause) or (len(after) == 2 and _strong(after[1]))
    if lead == "generic":
        if kind in ("based_on", "inspired_by"):
            return _pathlike(clause) or (
                has_proper_noun(without_urls(clause)) and bool(SOURCE_NOUN_RE.search(clause))
            )
        return _strong(clause)
    if _strong(clause):
        return True
    if kind in ("copied_from", "taken_from"):
        return False
    if SOURCE_NOUN_RE.search(clause):
        return True
    if kind in ("based_on", "inspired_by"):
        return False
    if _POSSESSIVE_RE.search(clause):
        return True
    first = _WORD_RE.match(clause.lstrip(" `'\"*"))
    return bool(first) and first.group(0).lower() not in PROSE_START


# "comes / came from", "is pulled from": said of code only after a lead-in naming code ("The code
# for this method comes directly from botocore", "Most of the code here is pulled straight up from
# botocore", aiobotocore 2.15.2's client.py and retries/bucket.py, which copy botocore's methods and
# add ``await``; unread, all 28 of its files with copies were unmarked); a value, a scale or an
# index "comes from" data ("that one comes from positions"), so no other lead-in is read.
_CODE_LEAD = (
    r"(?:(?:some|most|much|all|parts?|portions?)\s+of\s+)?(?:the|this|these)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:code|implementation|logic|class(?:es)?|functions?|methods?|modules?|files?)"
    r"(?:\s+(?:here|below|above))?(?:\s+(?:in|of|for|within)\s+this\s+(?:file|module|class|function|method|package))?\s+"
)
# (Plural nouns too: "Some of the functions in this module come from the following sources:", future
# 1.0.0's utils/__init__.py, whose list names six.py.)
_COMES_FROM_RE = re.compile(
    rf"{_CODE_LEAD}(?:{_BE}\s+)?(?:{_ADVERB}\s+)?(?:comes|came|come|pulled)"
    rf"(?:\s+(?:{_ADVERB}|straight(?:\s+up)?))?\s+from(?![\w-])", re.IGNORECASE)
COMES_FROM_KIND = "derived_from"  # where the code came from, nothing of how it was changed


# A comment that opens with a to-do word states work to do, not where code came from (xarray
# 2024.10.0's concat.py: "TODO: add ignore_index arguments copied from pandas.concat"); only a
# phrase opening its text, without a lead-in or after a known one, is a note on the code below
# (pandas 2.2.3's test_numeric.py: "TODO: taken from tests.frame.test_operators, needs cleanup").
_TODO_RE = re.compile(r"\s*(?:TODO|FIXME|XXX)(?!\w)(?:\s*\([^()]{0,40}\))?\s*[:,-]?\s*", re.IGNORECASE)
# Any lead-in, up to the phrase, inside one clause ("The mechanisms for resampling CFTimeIndex was
# copied and adapted from", xarray 2024.10.0's resample_cftime.py): judged by _module_source alone.
_ANY_LEAD_RE = re.compile(rf"(?P<anylead>[^.!?;:()\[\]]*?\s)(?:{_ADVERB}\s+){{0,2}}{_PHRASE}", re.IGNORECASE)
# The verbs that say code was taken (not "based on", "inspired by", the imperative "copy from" or
# "a copy of" an object): the only phrases read after any lead-in.
_ANY_LEAD_KINDS = frozenset({"derived_from", "adapted_from", "copied_from", "modified_from", "ported_from",
                             "taken_from", ADAPTATION_OF})


# Files of data or prose: "the max length derived from the model's config.json" (vLLM 0.32.0's
# envs.py) says where a value comes from, not code.
_DATA_EXTS = _words("json yaml yml toml cfg ini md rst txt ipynb")


def _module_source(clause: str) -> bool:
    """A URL into a repository (not to a data file: a paper, a model's page or its config.json is
    no code), a file path of code, or a module path of three or more components
    (``pandas.core.resample``): a source no sentence uses as a common word; a two-part name
    (``layer.weight_scale``, ``pandas.concat``) may be an attribute or a call."""
    urls = find_urls(clause)
    if urls:
        info = parse_url(urls[0][2])
        return bool(info.repository) and not _data_file(info.path)
    plain = without_urls(clause)
    dotted = qualified_dotted(plain)
    path = file_path(plain)
    return bool(path and not _data_file(path) or dotted and dotted.count(".") >= 2)


def _data_file(path: str) -> bool:
    return "." in path.rsplit("/", 1)[-1] and path.rsplit(".", 1)[-1].lower() in _DATA_EXTS


def _aside_in_sentence(text: str, start: int) -> bool:
    """Whether the phrase at ``start`` opens a parenthesis inside a sentence, after a word and
    followed by more of it: the aside says where the word before it came from, and the sentence
    goes on about it (xarray 2024.10.0's test_dataarray.py: "The rule (copied from pandas.Series)
    is keep the current name only if ...", a rule the test checks, not code)."""
    before = text[:start].rstrip()
    if not before.endswith("(") or not re.search(r"\w", before[:-1]):
        return False
    close = text.find(")", start)
    return close >= 0 and re.match(r"\s*[\w`'\"]", text[close + 1:]) is not None


def replacements(text: str) -> tuple[tuple[str, str], ...]:
    start = REPL_START_RE.search(text)
    if not start:
        return ()
    pairs: list[tuple[str, str]] = []
    pos = start.end()
    while True:
        m = _REPL_PAIR_RE.match(text, pos)
        if not m:
            break
        old, new = m.group(1).strip(_REPL_STRIP), m.group(2).strip(_REPL_STRIP)
        if old and new:
            pairs.append((old, new))
        pos = m.end()
    return tuple(pairs)


def _phrase_kind(m: re.Match[str]) -> str:
    if m.group("based"):
        return "based_on"
    if m.group("inspired"):
        return "inspired_by"
    if m.groupdict().get("codefrom") or m.groupdict().get("origfrom"):
        return CODE_FROM
    if m.group("modfile"):
        return MODIFIED_FILE
    if m.group("modver"):
        return MODIFIED_VERSION
    if m.group("copyof"):
        return {"copy": COPY_OF, "port": PORT_OF}.get(m.group("copyof").lower(), ADAPTATION_OF)
    verb = " ".join((m.group("verb") or m.group("objverb")).lower().split())
    if re.fullmatch(_COPY_PASTE, verb):
        return "copied_from"
    return {
        "forked": "derived_from",
        "adopted": "adapted_from",
        "vendored": "copied_from",
        "borrowed": "taken_from",
        "stolen": "taken_from",
        "brought over": "taken_from",
        "lifted": "taken_from",
        "cribbed": "copied_from",
        "translated": TRANSLATED,
        "backported": "ported_from",
        "copy": COPY_FROM,
        "duplicated": "copied_from",
        "duplicate": "copied_from",
        "adapts": "adapted_from",
        "borrows": "taken_from",
    }.get(verb, f"{verb}_from")


def phrase_matches(text: str, mid_sentence: bool) -> list[tuple[int, int, str, str]]:
    """(start, end, kind, lead) for each phrase that opens a clause, left to right.

    ``mid_sentence``: the line continues a sentence from the line above, so a lower-case phrase
    at its start is judged as strictly as one after a generic lead-in.
    """
    bare = None if mid_sentence else _BARE_FROM_RE.match(text)
    if bare:
        return [(bare.start("barefrom"), bare.end(), BARE_FROM, "none")]
    todo = _TODO_RE.match(text)
    starts = sorted({0, *(m.end() for m in _CLAUSE_START_RE.finditer(text))})
    found: list[tuple[int, int, str, str]] = []
    last_end = -1
    for s in starts:
        if s < last_end or s >= len(text) or _aside_in_sentence(text, s):
            continue
        m = KNOWN_RE.match(text, s)
        comes = None if m else _COMES_FROM_RE.match(text, s)
        if comes is not None:
            if not todo or s == todo.end():
                found.append((s, comes.end(), COMES_FROM_KIND, "known"))
                last_end = comes.end()
            continue
        lead = "known" if m and m.group("lead") else "none"
        if m and lead == "none" and m.group("origfrom"):
            m = None  # "originally from" only after a known lead-in
        if not m:
            m = _GENERIC_RE.match(text, s)
            if m and (m.group("copyof") or m.group("modfile") or m.group("modver") or any(
                    w.lower() in _GENERIC_STOP for w in m.group("generic").split())):
                m = None
            lead = "generic"
        if not m:
            m = _ANY_LEAD_RE.match(text, s)
            if not m:
                continue
            lead = "any"
        if s == 0 and mid_sentence and text[:1].islower() and lead != "any":
            lead = "generic"
        if lead == "generic" and m.groupdict().get("codefrom"):
            continue  # a line continuing a sentence: "... the\n code from the cache"
        if todo and (s != todo.end() or lead not in ("none", "known")):
            continue  # part of the work to do
        found.append((s, m.end(), _phrase_kind(m), lead))
        last_end = m.end()
    return found

