"""Copyright holders as the origin rules compare them (:mod:`lineage.match.origin`) and the
obligations read them (:mod:`lineage.results.obligations`): the holder a copyright line names
(:func:`holder`), its key for comparing (:func:`holder_key`), the persons it names
(:func:`holder_persons`) and which holders share one (:func:`linked_groups`), an upstream's main
holders (:func:`main_holders`) and whether a line names one of them (:func:`names_own_holder`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from lineage.index import FileIndex
from lineage.index.project import NAMELESS_PARTS
from lineage.licences.notices import without_licence_clause
from lineage.markers import notice_holder
from lineage.markers.attribution import STATEMENT_LEAD, YEAR_RANGE, holder_organisation

_RESERVED_RE = re.compile(r"[\s.,;]*all rights reserved[\s.]*$", re.IGNORECASE)
# The words before a copyright line's holder; an open year range ("2016-present Sanic Community",
# "Copyright 2022-present, the HuggingFace Inc. team.") is years too, not the holder's name:
# huggingface-hub 0.26.2's 33 such files had the holder "present, the HuggingFace Inc. team", of
# no organisation. A slash after the years is a separator too: Neural Magic's "Copyright (c)
# 2021 - present / Neuralmagic, Inc." named the holder "/ Neuralmagic, Inc", of no organisation,
# so llmcompressor 0.1.0 (its authors "Neuralmagic, Inc.") was not sparseml's own organisation.
_HOLDER_RE = re.compile(rf"^(?:spdx-filecopyrighttext:\s*)?{STATEMENT_LEAD}"
                        r"(?:copyright\b|\(c\)|©|\s|[-–,:/]|(?:19|20)\d\d(?:\s*[-–]\s*present\b)?)*", re.IGNORECASE)


def holder(text: str) -> str:
    """The holder named by a copyright line ("Copyright (c) 2024, Tri Dao." -> "Tri Dao"; a
    trailing "All rights reserved." is no part of the name; an ASF-style "Licensed to
    Elasticsearch B.V. under one or more ..." -> "Elasticsearch B.V")."""
    name = notice_holder(text) or _RESERVED_RE.sub("", _HOLDER_RE.sub("", text))
    return name.strip(" .,;") or text.strip()


def holder_key(name: str) -> str:
    """A holder's name as compared: lower case, without a leading "the" or a trailing "all rights
    reserved" ("The Python Software Foundation." and "Python Software Foundation" are one holder)."""
    key = _RESERVED_RE.sub("", name.lower()).strip(" .,;")
    return key[4:] if key.startswith("the ") else key


def names_own_holder(key: str, own_holders: frozenset[str]) -> bool:
    """Whether a copyright line's holder (:func:`holder_key`) is one of the upstream's own holders
    or names one, or its organisation (:func:`holder_organisation`), among others: transformers'
    "The Qwen team, Alibaba Group and the HuggingFace Inc. team" is a file of transformers (its
    own holder "HuggingFace Inc. team"), not a third party's; 747 of its files carry such joint
    lines. So is its ``utils/logging.py``, "Copyright 2020 Optuna, Hugging Face" (its licence's
    holder "The Hugging Face team"): diffusers 0.31 copied that file whole, and it was 156 code
    lines of Optuna's third-party code, in no review list."""
    if key in own_holders:
        return True
    names = {own for own in own_holders if own} | {org for own in own_holders if (org := holder_organisation(own))}
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", key) for name in names)


def main_holders(files: Sequence[FileIndex], share: float = 1.0) -> frozenset[str]:
    """The copyright holders (:func:`holder_key`) named in most of these files, and any named in
    at least ``share`` of the files that name a holder; empty when none is. A holder one file
    alone names counts too (urllib3 1.26's one copyright line, in its vendored
    ``packages/six.py``, makes Benjamin Peterson urllib3's holder; click's, in ``parser.py``, makes
    optparse's Gregory P. Ward click's): not counting it set both files apart as third-party, which
    the synthetic suite, whose cases copy click's parser.py as click's, scores as 6 points of recall
    lost in click's cases (2026-12-06), so it is left as it is."""
    counts: Counter[str] = Counter()
    for f in files:
        named = {holder_key(holder(m.text)) for m in f.markers if m.kind == "copyright"}
        counts.update(named)
    if not counts:
        return frozenset()
    top = max(counts.values())
    speaking = sum(1 for f in files if any(m.kind == "copyright" for m in f.markers))
    return frozenset(h for h, n in counts.items() if n == top or n >= share * speaking)


_PERSON_SPLIT_RE = re.compile(r"\s*(?:,|;|&|\band\b)\s*", re.IGNORECASE)


# A joint holder's later party may carry its own years: disnake 2.1.0's "Copyright (c) 2015-present
# Rapptz, 2021-present EQUENOS" names "Rapptz" and "EQUENOS", not "2021-present EQUENOS".
_LEADING_YEARS_RE = re.compile(rf"^\s*{YEAR_RANGE}[\s,]*", re.IGNORECASE)


def _persons(name: str) -> list[tuple[str, str]]:
    """(key as :func:`holder_key` makes it, spelling without a leading "the") of each person or
    organisation a holder names, without years before it; a part that names no one ("Inc.",
    "affiliates") is none."""
    out = []
    for part in (_LEADING_YEARS_RE.sub("", p) for p in _PERSON_SPLIT_RE.split(name)):
        key = holder_key(part)
        if key and key not in NAMELESS_PARTS:
            out.append((key, re.sub(r"^the\s+", "", part.strip(" .,;"), flags=re.IGNORECASE)))
    return out


def holder_persons(name: str) -> frozenset[str]:
    """The persons or organisations a holder names, compared as :func:`holder_key` does ("Jay
    Shah, Ganesh Bikshandi and Tri Dao" -> {"jay shah", "ganesh bikshandi", "tri dao"}); a holder
    of no part that names someone is one (:func:`_persons`)."""
    return frozenset(key for key, _ in _persons(name)) or frozenset({holder_key(name)})


# Years after the holder, where a line opens with the sign and the holder ("(c) Holger Krekel and
# others, 2004-2014", py 1.11.0's one statement of its holders).
_TRAILING_YEARS_RE = re.compile(rf"[\s,]*{YEAR_RANGE}[\s.]*$", re.IGNORECASE)


def stated_persons(text: str) -> frozenset[str]:
    """The persons or organisations a copyright line names (:func:`holder_persons` of its holder,
    without a trailing licence clause or years): "(C) Ronny Pfannschmidt, Holger Krekel -- MIT
    licensed" -> {"ronny pfannschmidt", "holger krekel"}; "(c) Holger Krekel and others, 2004-2014"
    -> {"holger krekel"} ("others" names no one)."""
    name = joint_holder_name(text)
    return holder_persons(name) if name else frozenset()


def joint_holder_name(text: str) -> str:
    """A copyright line's holder (:func:`holder`) without a trailing licence clause or years, as
    written: "(C) Ronny Pfannschmidt, Holger Krekel -- MIT licensed" -> "Ronny Pfannschmidt, Holger
    Krekel"."""
    return _TRAILING_YEARS_RE.sub("", without_licence_clause(holder(text))).strip(" .,;")


def linked_groups(names: Sequence[str]) -> list[int]:
    """For each holder of ``names``, the first index of its linked group: two holders are linked
    when they share a person (:func:`holder_persons`), and linking is transitive."""
    group = list(range(len(names)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        for person in sorted(holder_persons(name)):
            if person in seen:
                a, b = root(seen[person]), root(i)
                group[max(a, b)] = min(a, b)
            else:
                seen[person] = i
    return [root(i) for i in range(len(names))]


def largest_linked_group(members: Sequence[int], names: Sequence[str]) -> list[int]:
    """The largest group of ``members`` whose holders (``names``, one per member) are linked
    (:func:`linked_groups`). Ties go to the group holding the first member, so the result is stable."""
    roots = linked_groups(names)
    sizes = Counter(roots)
    if not sizes:
        return []
    best = min(sizes, key=lambda r: (-sizes[r], r))
    return [m for m, r in zip(members, roots, strict=True) if r == best]


def common_person(names: Sequence[str]) -> str:
    """The person or organisation most of these linked holders name (ties: the first
    alphabetically), as first written: "Tri Dao" of "Tri Dao" and "Jay Shah, ..., Tri Dao";
    "HuggingFace Inc. team" of "Cohere and the HuggingFace Inc. team" and "The Qwen team, Alibaba
    Group and the HuggingFace Inc. team" (transformers' model files)."""
    counts: Counter[str] = Counter()
    spelled: dict[str, str] = {}
    for name in names:
        for key, spelling in _persons(name):
            counts[key] += 1
            spelled.setdefault(key, spelling)
    if not counts:
        return min(names)
    return spelled[min(counts, key=lambda key: (-counts[key], key))]
