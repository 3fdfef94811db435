"""Provenance markers in Python comments and docstrings.

A *marker* is a note a developer left saying where code came from::

    # Adapted from https://github.com/vllm-project/vllm/blob/v0.6.4/vllm/model_executor/models/llama.py
    # Copied from transformers.models.llama.modeling_llama.LlamaRMSNorm with Llama->Mistral
    # SPDX-License-Identifier: Apache-2.0

:func:`find_markers` reads them from comment text (full-line and trailing comments) and
docstring lines only, never from code or from ordinary string literals.

Where text is read
------------------
With ``kinds`` (one of ``"code" | "comment" | "docstring" | "blank"`` per line) the caller's
classification decides: ``comment`` and ``code`` lines contribute the text after the first ``#``
that is not inside a string literal (so trailing comments count), ``docstring`` lines contribute
their string text, ``blank`` lines nothing. Missing or unknown kinds are treated like ``code``.
Without ``kinds`` a small scanner finds ``#`` comments outside quotes and the text of string
literals that start a statement (nothing but indentation before them and not inside brackets),
which is what docstrings look like; ``x = \"\"\"...\"\"\"`` and string arguments are ignored.

Phrase markers
--------------
A phrase must open a clause: the start of the text, or after ``. ; : ! ?``, ``(`` or a dash.
Phrases (case-insensitive) and their kinds:

* ``derived from`` / ``forked from`` -> ``derived_from``
* ``adapted from`` (and the common misspelling ``adopted from``) -> ``adapted_from``
* ``copied from`` / ``vendored from`` / ``copy-pasted from`` (``copy pasted``, ``copypasted``,
  ``copy-and-pasted``, the noun ``copy-paste from``) / ``duplicated from`` / ``cribbed from`` ->
  ``copied_from``
* a taking verb or the adjective ``duplicate`` with the code taken before ``from`` (``code``,
  ``logic``, ``implementation``, after ``the``, ``this`` or ``some``): ``duplicate logic from``,
  ``copied code from`` -> ``copied_from``; ``taken the logic from`` -> ``taken_from``; judged as
  the verb alone is (the imperative ``copy code from`` is not one of them)
* ``modified from`` -> ``modified_from``; ``ported from`` / ``backported from`` -> ``ported_from``
* ``taken from`` / ``borrowed from`` / ``stolen from`` / ``brought over from`` / ``lifted from`` ->
  ``taken_from`` (pip 24.2's "Functions brought over from jaraco.text.", since round left160)
* ``translated from`` -> ``ported_from``, only before a URL, a module or a file path ("translated
  from HF downsampling.py", vLLM 0.32.0; "translated from full pool indices" is prose)
* ``based on`` / ``based upon`` / ``based off (of)`` -> ``based_on``
* ``inspired by`` -> ``inspired_by``
* ``a copy of`` -> ``copied_from``; ``a port of`` -> ``ported_from`` ("This file is a copy of
  the scipy.sparse.csgraph._laplacian module"); ``an adaptation of``, ``a rewrite of`` and ``a
  rewriting of`` -> ``adapted_from`` ("The following function is a rewriting of
  scipy.stats.f_oneway", scikit-learn 1.5.2); ``a modified file from`` (``a modified module
  from``) -> ``modified_from`` ("This is a modified file from scipy.optimize"); ``a modified
  version of`` -> ``modified_from`` only with "from" and a URL, a module or a file path after it
  ("a modified version of the CLIPTextModel from transformers.models.clip.modeling_clip",
  diffusers 0.31.0; without, as often a description as a credit); never
  after a generic lead-in ("Return a copy of Config" is prose); its source must be a URL, a
  module or file path, or a strong source after "from" ("a copy of `glob` from Python 3.5"): a
  proper noun alone is the object copied ("A copy of the Rotation in CUDA memory")

* ``code from`` / ``original code from`` -> ``taken_from``, with no verb: only opening its
  clause (or after a known lead-in), never after another word ("Ref code from https://..." names
  a reference) nor on a line continuing a sentence; its source must be a URL, a module or a file
  path ("Original code from: https://github.com/state-spaces/mamba/blob/main/..." above
  transformers 4.46.3's falcon_mamba kernel; "code from the cache" is prose)
* ``originally from`` -> ``taken_from``, with no verb: only after a known lead-in ("This file is
  originally from the Stable Baselines3 repository (https://github.com/DLR-RM/stable-baselines3/)",
  gym 0.26.2's ``env_checker.py``), judged as ``code from`` is (a URL, a module or a file path);
  an aside ("(originally from DeepGEMM)") or a clause of its own is no marker
* ``from`` alone -> ``taken_from``: only a whole-line comment or docstring line that is nothing but
  "from", a name and its release ("# from jaraco.functools 3.3" above importlib_metadata 8.5.0's
  ``method_cache``); a trailing comment ("x = f()  # from numpy 2.0" says since when), a line
  continuing a sentence, more words after the release or a word of prose for the name ("from
  section 2.3", "from Python 3.12") is no marker
* ``comes / came from``, ``is pulled from`` -> ``derived_from``: only after a lead-in that names
  code ("The code for this method comes directly from botocore", "Most of the code here is
  pulled straight up from botocore": aiobotocore 2.15.2's ``client.py`` and
  ``retries/bucket.py``), judged as after a known lead-in; a value or a scale that "comes from"
  something is prose (``vocabulary._COMES_FROM_RE``)

"Copied and modified from" takes the kind of the last verb. An adverb ("heavily", "mostly",
"originally", ...) or a short parenthesis may sit inside the phrase.

A phrase may follow a *known lead-in* ("This file is", "This code was originally", "Parts of
this file are", "The majority of this code has been", "This file contains code", "Code", "All code
within this function is" (pip 24.2's "... is stolen from shutil.which implementation"), "Some
code", "Implementation", "Mostly", "Partially", "The rearrangement algorithm is": "the", one or
two words, a noun of code and its verb, ...) or a *generic lead-in* of one to three words
("Weight loading adapted from", "Implementation of RoPE adapted from") that contains no function
word such as "is", "the", "it".
After *any other lead-in* within the clause ("The mechanisms for resampling CFTimeIndex was
copied and adapted from ... pandas.core.resample", "The StringAccessor class defined below is an
adaptation of ... pd.core.strings") a phrase of taking (derived, adapted, copied, modified,
ported, taken from; an adaptation of; not "based on" or "inspired by") is read only when its
source names code no sentence uses as a common word: a URL into a repository (not to a data or
prose file, ``.json``, ``.md``, ...; not a paper's or a model's page), a file path of code, or a
module path of three or more parts ("the scale is derived from layer.weight_scale", "the max
length derived from the model's config.json" stay prose).

Not read as provenance:

* a phrase inside a to-do: a comment opening with ``TODO``, ``FIXME`` or ``XXX`` states work to
  do ("TODO: add ignore_index arguments copied from pandas.concat"), unless the phrase opens the
  to-do's text without a lead-in or after a known one ("TODO: taken from
  tests.frame.test_operators, needs cleanup" says where the code below came from);
* a phrase opening a parenthesis inside a sentence, after a word and followed by more of the
  sentence ("The rule (copied from pandas.Series) is keep the current name ..."): the aside
  qualifies the word before it, which the sentence goes on about; a parenthesis ending the text
  ("Single-phase softmax step (forked from FA4's softmax_step).") or opening it still holds one.

What follows the phrase (its *source*) is judged on its first clause (up to ``;``, ``, `` or
the end of a sentence):

* *strong sources*: a URL, a dotted path (``vllm.model_executor.layers``; two-part paths only
  when they open the clause or end in a CapWord, never ``self.x``/``x.shape``), a file name with a
  known extension (``foo/bar.py``), a release (``v0.6.4``, ``0.6.4``), a source that opens with a
  name and a two-part release (``more_itertools 8.8``; not ``section 2.3``), or a proper noun:
  a word with an upper-case letter (``vLLM``, ``HuggingFace``) other than function words, single
  letters, hardware acronyms (``KV``, ``GPU``) and paper references (``Table``, ``Eq``).
* *source nouns*: implementation, code, codebase, version, repo, repository, project, library,
  package, upstream, commit, PR, gist, ...

Rules per phrase:

* ``copied from`` (``copy-pasted from``) / ``taken from``: a strong source ("copied from the cache" is prose).
* the imperative ``copy from``: a URL or a file name ("copy from https://..." and "Copy from
  qwen_vl.py" are markers, ``copied_from``; "Copy from smem to registers" is an instruction).
* ``based on`` / ``inspired by``: a strong source or a source noun ("based on the input shape"
  is prose; "based on the original implementation" is a marker).
* ``derived``/``adapted``/``modified``/``ported from`` are lenient: also a possessive or any first
  word that is not an article or a prose word ("ported from numpy" counts, "derived from the max
  value" does not).
* After a generic lead-in every phrase needs a strong source; ``based on``/``inspired by`` need a
  URL, dotted or file path, or a proper noun together with a source noun.

When the marker line has no URL, the next line of the same comment block / docstring is attached
if it starts with a URL (``# Adapted from`` + ``# https://...``) or with ``with A->B``; when the
phrase has nothing after it (or ends with ``:``, a comma, or a word that needs more after it: an
article, a preposition, "original", "upstream", or an adjective awaiting its noun such as
"equivalent", "corresponding", "same": "stolen from the equivalent" / "function in Requests.")
the next line is attached as its source whatever it says, unless it is a marker itself. Attached
lines produce no markers of their own. An attached URL to a file of a repository at a ref is a
strong source even when the phrase's own clause is not ("taken from scikit-learn, see" above
such a URL, in scipy's ``_lib/deprecation.py``).
The lines right below a phrase (or its attached lines) that each list one more URL to a
repository's file and nothing else but an "and", "or", "&" or a list bullet are more of its
sources: each is a marker of the phrase's kind, its text the phrase's words, "…" and the line
(sglang's ``chatglm.py``: "Adapted from" / a project URL / vLLM's file URL; its
``causal_conv1d_triton.py``: "Adapted from <causal-conv1d URL>" / "and <vLLM URL>"). Before,
each was a bare ``url`` marker, and "Adapted from ... and <vLLM's file>" stated no change of it.

A code host's URL that ends its line at a ``/`` runs on into the next line of the same comment
block / docstring when that line is only the rest of its path (no spaces, maybe a ``#L`` fragment):
a docstring wrapped it there (``detect._wraps_url``).

A line that continues a sentence (the line above, in the same comment block or docstring, does
not end with ``. ! ? : ;``) and starts in lower case is judged like a generic lead-in: wrapped
prose such as "...the colours are mapped\\n based on the norm set for this Colorizer." is no marker.

Other markers
-------------
* ``url``: a bare GitHub / raw.githubusercontent / GitLab / Bitbucket URL that points at a file (it has a ref
  and a path) and is not part of a phrase marker. Not one to a document (a notebook, Markdown,
  reST, HTML, text, PDF or image file): "See the example [notebook](https://github.com/KxSystems/
  langchain/blob/.../kdbai.ipynb)" in langchain-community's ``kdbai.py`` is a reference for the
  reader, not where the code came from (``urls.is_document``). Nor one to a folder (a ``tree`` view,
  or Bitbucket's ``src`` view, of a path without a suffix): tornado 4.5's "See the `file receiver
  demo <https://github.com/tornadoweb/tornado/tree/master/demos/file_upload/>`_" points the reader
  at examples, and was the marker of salt 3006.9's vendored ``ext/tornado/web.py`` over its folder
  (``urls.is_folder_link``).
  Also a GitHub or GitLab commit page right after the label "Source:" (or "Sources:", "Origin:")
  that opens its line: the label says where the code came from, so it names that repository at
  that commit (``ref``; no ``path``): cached-property 1.3.0's docstring "Source: https://github.com/
  bottlepy/bottle/commit/fa7733e..." (``urls.commit_page``). Without the label a commit page is a
  reference ("see <commit> for the fix"), and a repository's home page after it is not a source.
* ``spdx``: ``SPDX-License-Identifier: <expr>`` (``licence`` is the expression).
* ``licence_pointer``: a pointer to another project's licence for the code beside it ("Licence
  at LICENSES/PYPERCLIP_LICENSE", pandas' copy of pyperclip; "See numpy license at <URL>");
  ``project`` is the project named (:mod:`lineage.markers.pointers`). Not on a line whose phrase
  marker says more, and never the Apache header's pointer to its own text.
* ``copyright``: ``SPDX-FileCopyrightText: ...`` or text starting with "Copyright" (or ``©``)
  followed by a year, ``(c)``/``©``, a proper noun, or contributors/authors/team/project. A
  comment line of the word, sign and years alone ("Copyright (C) 2001-2018") names its holders on
  the comment lines below: the marker's text runs on to the end of that paragraph, at most
  ``attribution.HOLDER_LINES`` lines, and stops before licence prose or another marker
  (``detect._holder_lines``; nothing is taken unless a line names someone).
  Also the ASF header's "Licensed to HOLDER under one [or more contributor license agreements]"
  (elasticsearch's "Licensed to Elasticsearch B.V. under one or more contributor"), HOLDER with
  a proper noun: ASF policy puts that line where a copyright line would be, so it names the
  holder as one does (:func:`lineage.markers.attribution.notice_holder` reads the holder).
* ``copied_from`` also from a bundling record written as code, a module-level
  ``_BUNDLED_METADATA = {"pypi_name": "six", "version": "1.16.0"}`` line (ansible-core's bundled
  six and distro): ``project`` the name, ``ref`` the version (:mod:`lineage.markers.bundled`).
* ``copyright`` also from a module's top-level ``__license__`` string, a notice written as code:
  its copyright lines only (feedparser 5.2.1's ``feedparser.py``;
  :mod:`lineage.markers.licence_string`).
* ``vendored``: not read from the file but from the tree's vendoring records (a ``vendor.txt``
  line, a vendored copy's ``*.dist-info``; :mod:`lineage.index.vendoring`), one per file a record
  covers: line 0 (the record speaks for the whole file), ``project`` the distribution name as
  declared, ``ref`` its pinned version, ``path`` the file's path inside the vendored package. It
  names an upstream when the declared name, in its normal form (PEP 503), is one of the
  upstream's names; its text (the record's file path) is never searched for names.

Fields
------
URLs fill ``repository`` (``owner/name``; GitLab keeps its subgroups), ``ref`` and ``path`` from
``/blob|tree|raw|blame/<ref>/<path>``, ``raw.githubusercontent.com/<owner>/<name>/<ref>/<path>``
(also ``refs/heads/<ref>``), GitLab ``/-/blob/<ref>/<path>``, Bitbucket
``bitbucket.org/<owner>/<name>/src|raw|annotate/<ref>/<path>`` (``#lines-10:20`` its line range:
kafka-python 2.0.2's ``vendor/enum34.py`` names enum34 so) and the Hugging Face Hub's
``huggingface.co/[datasets/|spaces/]<owner>/<name>/blob|resolve|raw|tree/<ref>/<path>`` (a Hub
URL without a file path names a model, not code, and fills nothing); the ref is always one path
segment (a branch like ``release/v1`` cannot be told from a path). ``#L10-L20`` (or GitLab's
``#L10-20``) fills ``line_start``/``line_end``, a single ``#L10`` sets both to 10. Without a URL
the path comes from a dotted path: the components before the first one that starts with an
upper-case letter become ``a/b/c.py`` and the rest is ``symbol``
(``...modeling_llama.LlamaAttention.forward`` -> symbol ``LlamaAttention.forward``; ``Axis.set``
gives only a symbol); an all lower-case dotted path becomes ``a/b/c.py`` with no symbol. Failing
that, from a file path, or a directory path with at least two slashes (which fills ``path`` but
never makes a phrase a marker on its own). ``replacements`` come from
``with A->B, C->D`` (``->``, ``→`` or ``=>``).

Where each rule lives
---------------------
This docstring is the specification; the code follows it module by module: ``text`` (where text
is read), ``vocabulary`` (phrases, lead-ins, how a source is judged), ``urls`` (URL fields),
``attribution`` (SPDX and copyright lines, and :data:`ATTRIBUTION_KINDS`, the one test that tells
them from provenance markers), ``detect`` (one segment's markers and the lines attached to them)
and this module (the pre-filter, :func:`find_markers`, :func:`marker_names_upstream`).

Known limits: a phrase split across two lines ("... Adapted\\nfrom vLLM") is not seen, and the
lenient verbs accept some prose that starts with a plain word ("modified from previous step").
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from lineage.markers.attribution import ATTRIBUTION_KINDS, is_attribution, notice_holder
from lineage.markers.bundled import bundled_markers
from lineage.markers.detect import detect
from lineage.markers.licence_string import licence_string_copyrights
from lineage.markers.naming import file_marker, marker_names_upstream, mentions
from lineage.markers.prefilter import HINTS, hint_windows, may_hold_marker
from lineage.markers.record import MARKER_KINDS, Marker
from lineage.markers.text import scan, select

__all__ = [
    "ATTRIBUTION_KINDS",
    "HINTS",
    "MARKER_KINDS",
    "RULES_FINGERPRINT",
    "Marker",
    "file_marker",
    "find_file_markers",
    "find_markers",
    "is_attribution",
    "marker_names_upstream",
    "mentions",
    "notice_holder",
]


def _rules_fingerprint() -> str:
    """SHA-256 of every source file of this package: the marker rules, as cache keys see them."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# Part of every cache key whose entries hold markers (the index cache's directory): a rule change
# can never be answered from an entry written under other rules, even when no version was bumped.
RULES_FINGERPRINT = _rules_fingerprint()


def find_markers(lines: Sequence[str], kinds: Sequence[str] | None = None) -> list[Marker]:
    """Provenance markers in comments and docstrings of a file's physical ``lines``, and its
    bundling records written as code (:mod:`lineage.markers.bundled`).

    ``kinds`` optionally classifies each line as ``"code"``, ``"comment"``, ``"docstring"`` or
    ``"blank"``; without it a simple quote-aware scan decides. Markers are sorted by line (then
    by position on the line) and the result is deterministic.
    """
    lines = [str(x) for x in lines]
    return _with_bundled(_comment_markers(lines, kinds), lines, kinds)


def _comment_markers(lines: list[str], kinds: Sequence[str] | None) -> list[Marker]:
    """The markers of :func:`find_markers` that comments and docstrings hold."""
    selected = select(lines, kinds, scan(lines))
    consumed: set[tuple[int, int]] = set()
    found: list[tuple[int, int, int, Marker]] = []
    for segs in selected:
        for seg in segs:
            if (seg.line, seg.col) in consumed or not may_hold_marker(seg.text):
                continue
            for pos, marker in detect(seg, selected, consumed):
                found.append((seg.line, seg.col, pos, marker))
    found.sort(key=lambda item: item[:3])
    return [item[3] for item in found]


def _with_bundled(found: list[Marker], lines: Sequence[str], kinds: Sequence[str] | None,
                  text: str | None = None) -> list[Marker]:
    """``found`` (comment and docstring markers, in order) with the file's bundling records, a
    code line's (:mod:`lineage.markers.bundled`), and the copyright lines of its ``__license__``
    string (:mod:`lineage.markers.licence_string`), in line order (a comment marker first on a line).
    ``text``: ``lines`` joined by newlines, when the caller has it (both readers skip their pass
    over the lines when it lacks the name they look for)."""
    extra = bundled_markers(lines, kinds, text) + licence_string_copyrights(lines, text)
    return sorted(found + extra, key=lambda m: m.line) if extra else found


def find_file_markers(lines: Sequence[str], kinds: Sequence[str]) -> list[Marker]:
    """The markers :func:`find_markers` finds, reading only windows of lines around hints."""
    names = list(kinds)
    # The lines joined once (round speed174): the pre-filter's ASCII test and the two code-line
    # readers' tests for their names each took a pass over the lines in Python.
    text = "\n".join(lines)
    windows = hint_windows(lines, names, text)
    if windows is None:
        return find_markers(lines, names)
    found: list[Marker] = []
    for lo, hi in windows:  # the comments around hints; the bundling records once, over the whole file
        found.extend(replace(m, line=m.line + lo)
                     for m in _comment_markers([str(x) for x in lines[lo:hi]], names[lo:hi]))
    return _with_bundled(found, lines, names, text)
