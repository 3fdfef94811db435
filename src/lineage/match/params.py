"""Every threshold of the matcher, each with its reason, validated once.

All of them reach the manifest (:meth:`MatchParams.to_dict`) and the match cache key, and each
can be set from the command line (``--set KEY=VALUE``, parsed by :func:`params_from_settings`).

The design, for every stage that decides something: one frozen params object per decision
stage, each built on :mod:`lineage.knobs` (every field a ``knob(default, low, high)`` beside its
reason, checked by ``check_fields``, set by ``assign``), each recorded whole in its command's
output and settable there. :class:`MatchParams` (here; ``manifest.json``, ``--set``) decides which
lines are copies; :class:`lineage.store.params.StoreParams` (``store.json``/``scan.json``,
``--store-set``) what a fingerprint store keeps and ranks; :class:`lineage.fork.params.DriftParams`
(``drift.json``, ``--drift-set``) a drift status. They are kept apart because a drift or store
setting never changes a copied line: one object for all would put settings in every manifest
(and the match cache key) that its command never reads. Two knobs of the compare run that do not
change the matcher's labels live in :class:`MatchParams` all the same, as every figure of one
report should be set in one place: ``generated_head_lines`` (the origin gate's generated-file
rule) and ``licence_head_lines`` (licence notices, for the obligations and attachments). They are
in the match cache key too, so changing one re-labels every file once: the price of one object.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from lineage.knobs import assign, check_fields, keys_of, knob


@dataclass(frozen=True)
class MatchParams:
    """Every knob of the matcher; all of them are written to the manifest."""

    # -- hits (hits.py)
    short_seed_min_tokens: int = knob(2, 1)  # a one-token line (``)``, ``pass``) never seeds
    seed_min_tokens: int = knob(3, 1)  # a line with fewer tokens (``return x``) seeds only when rare (below)
    seed_max_count: int = knob(128, 1)  # a form found in more upstream places than this is boilerplate
    short_seed_max_count: int = knob(2, 1)  # a two-token line (``"name",`` in a list) seeds only if this rare
    seed_max_per_file: int = knob(4, 1)  # a form repeated more often inside one upstream file seeds nothing
    nominate_max_count: int = knob(16, 1)  # a commoner form only supports file pairs that rarer ones found
    abstract_seed_min_tokens: int = knob(8, 1)  # renamed-identifier hits only for lines long enough to be rare
    abstract_seed_max_count: int = knob(8, 1)  # an abstract shape is common far sooner than a text
    abstract_weight: float = knob(0.5, 0.0, 1.0)  # an abstract-only hit is weaker evidence than a textual one
    token_weight_cap: int = knob(16, 1)  # one very long line must not outweigh a copied block
    # ``def keys(self):``, ``def __radd__(self, other):``: a signature of at most this many plain
    # parameters (no defaults, no annotations) is written the same way everywhere; it never seeds.
    # Each count adds 12 shapes to hash (hits.generic_signatures), so the bound is a signature's
    # length, not the int32 one.
    generic_signature_max_params: int = knob(2, 0, 255)
    # -- runs and chains (regions.py)
    run_max_gap: int = knob(3, 0)  # content lines between two hits on one diagonal
    chain_max_gap: int = knob(12, 0)  # content lines between two runs of one region
    # A region as reported ends where more than this many non-blank target lines hold none of its
    # lines: the fill labels lines far from a chain with its number (regions.report_regions).
    region_split_gap: int = knob(12, 0)
    # ... and where two of its consecutive lines (in target order) lie more than this many
    # non-blank upstream lines apart, forwards or backwards, so that its upstream span, too,
    # holds no more than this many non-blank lines in a row none of its lines is paired with.
    # The span is read as where the code came from, and one fill label far off (pytest 8.3.3's
    # ``import ast`` paired with the function-local one of py 1.11.0's ``_code/source.py:313``,
    # beside line 3) made a 2-line region's span 3-313. 12, as ``chain_max_gap`` and
    # ``region_split_gap``: a deletion the chains bridge keeps a region whole, and a swapped pair
    # of lines never cuts one. Measured 2026-12-07 (sglang/vLLM, labels unchanged): 3,228 ->
    # 3,715 regions, upstream spans 123,401 -> 97,893 lines; with 24, 3,475 and 102,584; with the
    # cut on the jump less the target's own gap (a replaced stretch kept whole), 3,624 and 99,536.
    region_split_jump: int = knob(12, 0)
    # With 1, two regions as reported are one where they are one stretch in both files: the same
    # upstream file, nothing between them in the target but lines no region holds (none set apart
    # by the gate), the later one's upstream span after the earlier one's, and the step from one
    # to the other within the two cuts above (regions.join_abutting). Chains meet so where too few
    # hits lie between them (an edited import block, common lines), and where they met says
    # nothing of the copy: pydantic 2.10.6's v1/fields.py, 1.10.19's fields.py with its imports
    # rewritten, was regions 1-10 and 11-1253, two SPDX snippets and two SARIF results for one
    # copied file. Measured 2026-12-07 (labels unchanged): see docs/fresh-eyes.md, round merge170.
    # 0: each piece of a chain is a region of its own, as before.
    region_join_abutting: int = knob(1, 0, 1)
    # Chains a run may join. Code repeated many times in one file (tables, register calls) would
    # otherwise make chaining quadratic; the most recent chains are the ones that can continue.
    max_open_chains: int = knob(32, 1)
    # -- the region rule (regions.py)
    region_min_weight: float = knob(16.0, 0.0)  # about two distinctive lines
    # One line, however long and rare, is never a region on its own: an idiom such as
    # ``pytestmark = pytest.mark.skipif(...)`` is written the same way in many projects.
    region_min_hits: int = knob(2, 1)
    # A weak region weighs at least this share of ``region_min_weight`` (a small function moved
    # on its own) and counts only if it holds ``weak_region_min_lines`` consecutive lines
    # identical, in order, to consecutive upstream lines; before labelling, it must hold a run
    # of ``weak_region_min_run_hits`` hits on one diagonal (single coincidental hits never do).
    weak_region_weight_share: float = knob(0.5, 0.0, 1.0)
    weak_region_min_run_hits: int = knob(2, 1)
    weak_region_min_lines: int = knob(6, 1)
    # With 1, a weak region without such a block counts too when the target file stands at its
    # upstream file's place (the same path, below a renamed folder, a part of the module split
    # into a package) and the weak region stands wholly before or wholly after, in both files,
    # each strong region of that file pair labelled before it (regions.weak_region_proven): such
    # a file pair descends as a whole, and code kept in its order past an edit is its copy.
    # Measured 2026-12-07 on the renamed fork (nextcord 2.6.0 vs discord.py 1.7.0) and the main
    # job: see docs/fresh-eyes.md, round fork171. 0: a weak region proves itself by its block alone.
    weak_region_anchored: int = knob(1, 0, 1)
    # -- claims (claims.py): with 1, in a target file whose markers name the upstream, candidates
    # (of at least region_min_weight) from an upstream file they name are claimed before all
    # others, whatever the others weigh: the file says where it came from, so lines that file
    # holds in order are its, not a twin's (vLLM's fused_moe_lora_fp8_op.py beside the
    # fused_moe_lora_op.py a sglang file names).
    # 0: weight first, the named file only on a tie.
    claim_named_file_first: int = knob(1, 0, 1)
    # ... and with 1, in a target file that stands at an upstream file's place (the same path, or
    # the same below a folder rename), candidates (of at least region_min_weight) from that file
    # are claimed first likewise: a file descends from the one at its place, so lines its twin
    # holds too are that file's (aphrodite-engine 0.6.3's solar.py against vLLM 0.6.3, whose
    # solar.py and granite.py share most lines: 68 of its copied lines went to solar.py, 399 to
    # granite.py, alternating; now 464 and 33). Measured 2026-12-06: sglang/vLLM 189 copied lines
    # of one file (fla's kda.py, placed below the folder rename) credited to vLLM's kda.py, 17
    # code lines fewer copied, truth set src file 0.945 -> 0.948; real cases unchanged; synthetic
    # suite the same P/R everywhere, src file 1.000 -> 0.996 in more-itertools/merge_files (a
    # merged file credits a few lines of the module merged in to the module at its place).
    # 0: the placed file only on a tie.
    claim_placed_file_first: int = knob(1, 0, 1)
    # -- labels (labels.py)
    near_min_similarity: float = knob(0.6, 0.0, 1.0)  # a line between two hits on the same diagonal
    edge_min_similarity: float = knob(0.75, 0.0, 1.0)  # a line beyond the outermost hit
    # With 1, a region extends upward past a definition's header (``def``, ``class``, a
    # decorator) only by identical lines where the line above is indented deeper than the
    # header: it ends the body of another definition, and position and likeness alone paired
    # requests' ``return new_jar`` (the end of a new function) with ``return new_cj`` (the end
    # of another), both just above ``def create_cookie``. An enclosing ``class`` header or a
    # module constant above extends it as before. 0: by similarity, as below a region's last hit.
    edge_definition_boundary: int = knob(1, 0, 1)
    # Beyond the outermost hit a region grows line by line on its diagonal; where the upstream
    # dropped a line (or the target inserted one) that walk pairs every following line with its
    # neighbour's line, near by shape: opensearch-py 2.2.0's ``pipeline: Optional[Any] = ...,``
    # <- elasticsearch 7.13.4's ``doc_type: Optional[Any] = ...,`` and the five parameters below
    # it, each one line off its identical upstream line. When the line in place is not
    # identical but, at most ``edge_shift_max_lines`` lines further on one side, consecutive
    # identical lines start that hold at least ``edge_shift_min_tokens`` tokens together, the
    # walk moves to that diagonal (the skipped lines stay unpaired: the parameter opensearch
    # added, ``cluster_manager_timeout: ...``, is its own). 0 turns it off. The tokens keep
    # ``)`` or ``self,`` found a line further from moving a walk.
    edge_shift_max_lines: int = knob(3, 0)
    edge_shift_min_tokens: int = knob(8, 1)
    # No pair is labelled near below this similarity (the reported rapidfuzz ratio), whatever
    # placed it: a fragment of a re-wrapped call shares too little with the whole upstream line.
    near_floor_similarity: float = knob(0.3, 0.0, 1.0)
    # ... and no comment or docstring line below this one: prose has no structure of its own to
    # carry a weak textual likeness, so a sentence that shares under this much with the line it is
    # paired with is another sentence (the fork's and the survival case's prose `near` rows under
    # 0.6 were wrong 12 and 6 times, right 3 and 0 times). Code keeps ``near_floor_similarity``.
    near_floor_similarity_prose: float = knob(0.6, 0.0, 1.0)
    # With 1, two import statements are never labelled near unless they import the same module
    # (or one of the same name elsewhere, or below a renamed package) or bind the same names (a
    # vendored ``from pip._vendor import six`` / ``import six``): ``import io`` opposite ``import
    # asyncio`` is the place in a sorted import block, not an edit (``imports.imports_disagree``).
    near_imports_same_module: int = knob(1, 0, 1)
    gap_min_aligned: float = knob(0.7, 0.0, 1.0)  # share of a gap line's characters aligned to upstream text
    gap_min_chars: int = knob(6, 0)  # shorter gap lines (``)``, ``else:``) need identical text or a re-wrap group
    # With 1, a gap of equal length on both sides pairs lines of one shape in place only where
    # the gap's character alignment does not place them at another upstream line (a pair it
    # keeps): in place they fill what the alignment misses, not override it. aphrodite-engine
    # 0.6.3's fp8.py added two imports above vLLM's ``from ...linear import (LinearBase,
    # LinearMethodBase,`` / ``UnquantizedLinearMethod)`` and dropped two: in place the statement
    # was paired with the ``fused_moe`` import two lines above, its identical second line near
    # (0.34) ``FusedMoeWeightScaleSupported)``. Measured 2026-12-06 (against 0): sglang/vLLM
    # copied code lines of marked files -1, truth set P/R unchanged, its label accuracy 0.870 ->
    # 0.873 and upstream-line accuracy 0.918 -> 0.923; real cases and synthetic suite the same.
    gap_in_place_yields: int = knob(1, 0, 1)
    # With 1, a code line a region's gap alignment scores as a piece of a longer upstream line (a
    # fragment, below) and finds under ``near_min_similarity`` in it is kept only beside another
    # piece of it: a neighbouring target line the gap maps to, or a run pairs with, that upstream
    # line, as a re-wrap leaves them (the rule ``gap_min_chars`` holds short lines to). Alone, half
    # its characters align inside any line: pycryptodome 3.20's hash modules end ``update`` with
    # ``raise ValueError("Error %d while hashing ..."`` / ``% result)``, the second line near (0.5)
    # pycrypto 2.6.1's ``return self._hash.update(data)`` in 8 files. Measured 2026-12-06 (user46,
    # against 0): sglang/vLLM 62,665 -> 62,657 copied code lines (11 wrong near pairs gone, 5
    # lines paired better or newly, 2 doubtfully), truth set P/R unchanged, real cases and
    # synthetic suite the same. Without the similarity clause (every lone fragment) the truth set's
    # recall fell 0.971 -> 0.966: well-found pieces of re-wrapped calls are copies.
    gap_fragment_siblings: int = knob(1, 0, 1)
    # A line this many times shorter than its upstream line is a fragment of a re-wrapped call and
    # is scored by its best alignment inside the longer line.
    fragment_length_ratio: float = knob(2.0, 1.0)
    fragment_min_chars: int = knob(8, 0)  # beyond a region's end, shorter lines are compared whole, never as fragments
    # With 1, a target line that is a whole statement (its logical line on that line alone) is
    # compared whole where a similarity threshold decides (a region's diagonal and edges, the
    # fill's lines edited in place), never as a fragment of the upstream line: requests'
    # ``return`` and ``while url:`` lay opposite ``return netrc_path`` and ``while (('location'
    # in resp.headers and ...)):`` and were near at 0.999 and 0.75 as "pieces" of them. In a
    # region's gap, where the character alignment places a line, such a statement must then
    # reach ``near_min_similarity`` (``HA1 = hash_utf8(A1)`` in ``respdig = KD(hash_utf8(A1),
    # ...)``, requests' digest rewritten). 0: off.
    near_whole_statements: int = knob(1, 0, 1)
    rewrap_max_lines: int = knob(8, 2)  # lines one re-wrapped statement may span on either side
    rewrap_min_chars: int = knob(20, 0)  # a re-wrapped statement this short is not evidence
    # -- fill (fill.py), inside a (target file, upstream file) pair already established
    # Between two paired lines of the pair, a stretch at most this long (content lines, each
    # side) is inside the copy: every line there that aligns is paired, repetitive forms too
    # (table rows, repeated argument lines never seed). A longer stretch is rewritten code,
    # where only lone survivors (below) are paired; 0 turns the alignment off.
    align_max_gap: int = knob(400, 0)
    # A lone survivor: an identical line in order with the pair's other lines, paired even
    # alone, if it has at least this many tokens and characters (``else:``, ``return x``,
    # ``import os`` are written the same way everywhere).
    survivor_min_tokens: int = knob(3, 1)
    survivor_min_chars: int = knob(12, 0)
    # With 1, a survivor's text that stands more often in the target's stretch than in the
    # upstream's is no survivor (the text cannot say which target line kept the upstream one;
    # ``lineage.match.fill_survivors.lone_survivors``); 0: the first in order is paired.
    survivor_target_repeats: int = knob(1, 0, 1)
    # With 1, lone survivors only where the pair says the target file is the upstream file's
    # later version (at its place: the same path, a renamed folder, a vendored path ending) or
    # its markers name the upstream; a pair known only by a region, between files at different
    # places, keeps none (sglang/vLLM truth set: 0 of 8 such lines were copies). 0: in every main pair.
    survivor_place_or_marker: int = knob(1, 0, 1)
    # Inside such a stretch, the lines left between two aligned lines (edited in place:
    # annotations added, names or literals changed, calls re-wrapped) are paired, by their most
    # similar pairs and then by characters as a region's gap is, if neither side is longer than
    # this (content lines): a longer block is code rewritten there. 0 turns it off.
    fill_edit_max_gap: int = knob(40, 0)
    # ... and each such pair must be at least this similar (rapidfuzz ``fuzz.ratio`` of the two
    # stripped texts for the most similar pairs, the region gap's line similarity for the
    # character alignment): in a block of new code opposite old code, characters align by chance.
    fill_edit_min_similarity: float = knob(0.7, 0.0, 1.0)
    # With 1, that pass never pairs a ``def`` line with an upstream ``def`` of another name when
    # the upstream file defines the target's own name (qualified by the classes around it, each
    # file defining it once) and that definition's line is free: the function kept its name and
    # its upstream definition lies outside the stretch. mysqlclient 1.3.14 dropped MySQL-python
    # 1.2.5's ``BaseCursor.__del__`` and the alignment slid by one method: ``def close(self):``
    # was paired with ``def __del__(self):`` (0.705) while the upstream ``close`` stood free two
    # methods below (the identical-twin rule then gives the fork's ``close`` its own header).
    # Measured 2026-12-07 (round user175, off -> on): sglang/vLLM 12 code lines moved, 62,776 ->
    # 62,773 copied (5 false pairs of another function's header gone, 3 headers moved to their
    # own name's, 2 copies gained, 1 edited copy lost, 1 false gained: a
    # ``return`` paired with the freed ``def``); truth set, real cases and the synthetic suite
    # unchanged. The unequal blocks' pairs (``fill_placed_unequal_edits``) honour the same bar,
    # and so do the late edits (``fill_late_edit_max_gap``, since round fix175), which read the
    # same stretches again. 0: any ``def`` as similar.
    fill_edit_own_name_defs: int = knob(1, 0, 1)

    # With 1, in a pair at the upstream file's place (its later version: the same path, a
    # vendored copy's path ending, the same below a folder rename), a block left between two
    # aligned lines one side of which is at most ``fill_edit_max_gap`` content lines and the
    # other longer (code added, or removed, around old lines edited in place:
    # ``lineage.match.fill_inside._unequal_edits``) has its code lines paired by their most
    # similar pairs at ``fill_unequal_edit_min_similarity``, no character alignment. 0: off.
    fill_placed_unequal_edits: int = knob(1, 0, 1)
    # ... the floor of those pairs (rapidfuzz ``fuzz.ratio``, annotations off as in the block
    # rule): the longer side is new code, where a line as alike as 0.7 stands by chance.
    fill_unequal_edit_min_similarity: float = knob(0.8, 0.0, 1.0)
    # The same second pass once more after the statement, signature and shape rules, between
    # the pairs they added, where neither side of a stretch of the pair's final in-order chain
    # is longer than this (content lines; ``lineage.match.fill_inside.late_edits``): those rules
    # run after rule (a), so the lines between two lines they paired were never read. 0: off.
    fill_late_edit_max_gap: int = knob(3, 0)
    # With 1, rule (a) whole (the fold-form alignment, then the edited lines and statements, the
    # body floor ``fill_body_min_name_share`` on the edited ones) reads once more each stretch of
    # the pair's final in-order chain bounded by two anchors at least one of which the later
    # rules paired (``lineage.match.fill_inside.late_alignment``), when neither side is longer
    # than ``fill_edit_max_gap`` content lines: rule (a) read the stretches between the anchors
    # it had, and a stretch one end of which a signature survivor or a re-wrapped statement
    # made was never aligned (nextcord's ``Sticker._from_data``, discord.py's ``__init__`` body
    # moved into a new method between ``__init__`` and ``__repr__``, both paired late). 0: off.
    fill_late_alignment: int = knob(1, 0, 1)
    # With 1, a line that is the upstream line with whole arguments added inside its brackets
    # and nothing else changed (``raise ConnectionError(e, request=request)`` <- ``raise
    # ConnectionError(e)``; ``def get_netrc_auth(url, raise_errors=False):`` <- ``def
    # get_netrc_auth(url):``; ``lineage.match.statements.added_arguments``) is that line edited,
    # however long the added text: such a pair reaches ``fill_edit_min_similarity``, the
    # statement rule's word share, and the lone-line rule's ``lone_near_min_similarity``. An API
    # that gained a keyword adds it to the calls it keeps; the ratio alone (0.67 for ``raise
    # SSLError(e, request=request)`` <- ``raise SSLError(e)``) read the kept call as new code.
    # 0: the ratios alone.
    # Measured 2026-12-05 (branch recall8, each rule off -> on): survival +4 true lines, fork +1,
    # no false copy; sglang/vLLM +9 code lines (``attn_output = self.attn(q, k, v, forward_batch,
    # ...)`` <- ``self.attn(q, k, v)``), truth set unchanged.
    fill_added_arguments: int = knob(1, 0, 1)
    # Statements edited in place (``lineage.match.statements``): inside such a stretch, a
    # statement of several lines opposite one it was re-wrapped or edited from (a signature that
    # gained annotations and was broken one argument a line) is paired as a whole when the two
    # statements' tokens are at least this similar (rapidfuzz ``fuzz.ratio`` of the joined
    # tokens), and so are the free lines of a statement whose other lines are paired already.
    fill_statement_min_similarity: float = knob(0.6, 0.0, 1.0)
    # A statement whose argument lines (all but its first) are those of the one upstream
    # statement its paired lines name, each once, in another order, and at least this many, has
    # them paired argument by argument (fill_statements.resorted_arguments): requests sorted the
    # 13 keyword arguments of its ``create_cookie(...)`` call by name, the statement text fell
    # under ``fill_statement_min_similarity`` (0.58), and position paired ``comment=...`` with
    # ``domain=...``. 0: off.
    fill_resorted_arguments: int = knob(3, 0)
    # ... each line of it is a copy when at least this share of its words (names, literals) are
    # words of the upstream statement: an argument added by the edit is new text.
    fill_statement_min_word_share: float = knob(0.75, 0.0, 1.0)
    # ... except, with 1, a line binding a keyword the upstream statement binds too
    # (``embed=embed_payload,`` <- ``embed=embed``: the argument kept, its value edited), in a
    # target file of the upstream file's own name; 0: the word share alone.
    fill_statement_kept_keywords: int = knob(1, 0, 1)
    # ... and a line after the statement's first that fails the word share but whose parts (cut
    # at its commas outside brackets, annotations cut) begin with consecutive arguments of one
    # bracket of an upstream line, in order, every later part an argument added, copies that
    # line when its kept arguments hold at least this share of its words
    # (``lineage.match.statements.kept_arguments``): ``Route("GET", "/guilds/{guild_id}/bans",
    # guild_id=guild_id), params=params`` <- ``return self.request(Route('GET', ...,
    # guild_id=guild_id))`` (word share 0.71), ``self, name: str, *, package: Optional[str] =
    # None, extras: ... = None`` <- ``def load_extension(self, name, *, package=None):`` (0.67):
    # a call or signature broken open by Black that gained an argument kept its old ones, and the
    # word share read the line as new when the added argument was long. ``self, webhook_id: int,
    # token: str,`` (only ``self`` kept, a third of its words) is no such line. 0: off.
    # Measured 2026-12-07 (branch fork153, off -> on): renamed fork +16 code lines, all copies by
    # its truth, no false copy (0.5: +12; 0.3: +22 and 1 false, ``cls, url: str, *, session: ...``
    # of ``SyncWebhook.from_url``, 2 of 6 words kept); vendored and survival unchanged.
    fill_kept_arguments_min_share: float = knob(0.4, 0.0, 1.0)
    # ... and the kept arguments hold at least this many words: ``self, layer_type: str`` of
    # sglang's ``def get_checkpoint_configs_for_layer(`` kept only ``self`` of the header of
    # another method vLLM has at that place (``def get_layer_input_config(self, config, prefix)``),
    # half its words; ``self`` or ``cls`` alone is every method's.
    fill_kept_arguments_min_words: int = knob(2, 1)
    # ... and, with 1, a line after the statement's first that is one keyword argument whose
    # value is a whole argument the upstream line passes without a keyword
    # (``channel_type=ChannelType.text,`` <- ``self._create_channel(name, overwrites,
    # ChannelType.text, category, ...)``: a positional argument named when Black broke the call
    # open), in the files of ``fill_statement_kept_keywords``, copies that line
    # (``lineage.match.statements.line_partners``); a constant value (``reduce_results=False,``
    # <- ``getattr(config, "mlp_bias", False)``) names no argument. 0: off.
    # Measured 2026-12-07 (branch fork161, each of the three rules below off -> on, the others
    # on): renamed fork +9 true copies, no false one; sglang/vLLM +2 code lines (``quant_config=
    # quant_config,`` of ``GPT2MLP(...)`` / ``GPTJMLP(...)``, copies).
    fill_statement_named_arguments: int = knob(1, 0, 1)
    # ... and, with 1, a line holding a string literal whose words, each string cut into the
    # words it holds (``f"<{self.__class__.__name__} id={self.id} "`` -> ``self, __class__,
    # __name__, id, self, id``), are at least ``fill_statement_min_word_share`` words of the
    # upstream statement counted the same way copies the upstream line sharing most of them: a
    # message moved from ``%`` or ``.format`` into an f-string and re-wrapped keeps its words, but
    # a string is one word to the word share, none of the upstream's. Only where the upstream
    # statement holds a string too: ``f"{param_data.shape=}, {loaded_weight.shape=}"``, a message
    # sglang added to vLLM's ``assert``, names the statement's own words. 0: off.
    # Measured 2026-12-07 (fork161): renamed fork +22 true copies, no false one; survival +3
    # (``b64encode(b":".join(...)).strip()`` of a re-wrapped ``authstr = "Basic " + ...``); sglang/vLLM
    # the messages of ``weight_utils.py``'s kv-scale warnings (8), a ``ValueError`` piece, 24 rows
    # of ``mistral_large_3.py``'s remapping table (vLLM's ``regex.compile(r"\A...\Z")`` keys
    # written as plain strings: 23 copies, 1 doubtful, ``wq`` paired with ``wq_a``'s row),
    # ``ParallelLMHead``'s argument line in ``stablelm.py``; and a ``}`` of ``llama.py`` paired
    # verbatim with another dict's ``}`` is none again (35 rows, +34 code lines).
    fill_statement_string_words: int = knob(1, 0, 1)
    # ... and, with 1, the statement's first line, an assignment to the target the upstream
    # statement's first line assigns (annotations cut: ``data: List[MessagePayload] = await
    # self.state.http.logs_from(`` <- ``data = await self.logs_from(...)``), copies that line
    # when it fails the word share: the call it assigns was edited, its arguments (the
    # statement's other lines) kept. The two values must share a name other than ``self`` or
    # ``cls``: ``final_hidden_states = self._apply_latent_projection(`` <- ``final_hidden_states =
    # tensor_model_parallel_all_gather(`` is another operation on one variable. 0: off.
    # Measured 2026-12-07 (fork161): renamed fork +6 true copies, no false one; sglang/vLLM
    # ``self.logits_processor = LogitsProcessor(...)`` (2), ``self.model = self._init_model(...)``,
    # ``use_fc_norm = getattr(...) or getattr(`` and its ``)``, and ``self.config = config``
    # verbatim between them (6 code lines, copies); without the shared name, +4 on the fork and 11
    # more first lines on sglang/vLLM, 1 wrong and 6 doubtful by eye.
    fill_statement_kept_target: int = knob(1, 0, 1)
    # ... and, with 1, a dict entry whose literal key the upstream statement gives too
    # (``"Accept-Encoding": DEFAULT_ACCEPT_ENCODING,`` <- ``'Accept-Encoding': ', '.join(...)``: the
    # entry kept, its value edited), in the same files; 0: keywords only.
    # Measured 2026-12-05: survival +1, fork +5, no false copy; sglang/vLLM +5 / -1 code lines.
    fill_statement_kept_keys: int = knob(1, 0, 1)
    # ... and, with 1, a line identical to a line of the upstream statement copies that line,
    # which no other line then takes, and a line of brackets alone finds the upstream's closing
    # line by its words without annotations (statements.line_partners): ``) -> None:`` was
    # paired near (0.4) with ``eps: float = 1e-6,``, held verbatim by the line above it, with
    # the same ``) -> None:`` two lines below (aphrodite-engine 0.6.3's layer norm, 12 more such
    # closing lines there). 0: the word counts alone. Measured 2026-12-06 (against 0): that
    # pair's near pairs under 0.5 naming an upstream line the file holds verbatim 14 -> 1;
    # sglang/vLLM 35 -> 9, copied code lines of marked files +18, truth set unchanged (P 0.819,
    # R 0.971); renamed fork +16 true copies, no false one; survival, vendored, synthetic same.
    fill_statement_identical_lines: int = knob(1, 0, 1)
    # ... and a statement of more lines than this is not used (a bracket left open inside a
    # multi-line string would join what follows); 0 turns the statement rule off. It was off
    # by default until branch recall5 (2026-12-04), which limits it to a target file of the
    # upstream file's own name (``fill_statement_own_file``, below) and turns it on: the
    # history of that choice follows. Measured on the real cases (2026-12-03) it raises the
    # renamed fork's recall 0.884 -> 0.934 (F1 0.904 -> 0.919) and survival's 0.900 -> 0.917,
    # but on the sglang/vLLM pair it added about 3,900 copied code lines of which about half
    # were wrong (generic signature pieces, ``def __init__(`` / ``self,`` of another class),
    # which a licence review cannot sign.
    # Against the remade git truths (2026-12-03 evening) it raises the fork's recall 0.847 ->
    # 0.913 and survival's 0.884 -> 0.915 with precision unchanged (0.965 -> 0.963, 0.963 -> 0.964).
    # With the re-wrap rule below on and the pieces and kept keywords of lineage.match.statements
    # (2026-12-04): fork 0.881 -> 0.928 at precision 0.966 -> 0.963, survival 0.888 -> 0.915 at
    # 0.964; on the sglang/vLLM truth set code-line precision 0.789 -> 0.785 (one more false copy,
    # a ``super().__init__`` idiom), recall 0.975 both, and 3,679 more copied code lines.
    # Limited to own-name files (recall5, 2026-12-04): fork recall 0.882 -> 0.928 (0.929 in
    # every pair) at precision 0.968 -> 0.964, survival 0.887 -> 0.913 at 0.968; on the
    # sglang/vLLM pair 1,297 more copied code lines (about 1,900 fewer than in every pair) and
    # no new false copy on the truth set, where every pair added two (``prefix: str = "",`` of
    # ``qwen3vl.py`` <- ``keye.py``, ``super().__init__`` of ``ernie45_moe_vl.py`` <-
    # ``ernie45_vl_moe.py``, both files of other names).
    # 30 -> 80 lines (2026-12-04, 20:12 UTC): a kernel's signature or launch and a ``__slots__`` or
    # ``__all__`` tuple Black broke one item a line run past 30 lines. Fork recall 0.935 ->
    # 0.936, survival 0.935 -> 0.937 (25 more copied code lines, all copies by the truths), no
    # new false copy; on the sglang/vLLM pair 146 more copied code lines (the Mamba SSD kernels
    # adapted from vLLM's, a fused-MoE signature), truth-set scores unchanged; the synthetic
    # suite identical; 200 adds nothing more on the real cases; matcher CPU about 2 % more.
    fill_statement_max_lines: int = knob(80, 0)
    # With 1, the statement rule pairs an import statement only with an import of the same
    # module (``from .utils import (`` with ``from .utils import (``): an import of the fork's
    # own module (``from sglang.srt.layers.linear import (`` <- ``from vllm.model_executor.
    # layers.linear import (``) is no copy, whatever names it imports; 0: any statements.
    fill_statement_same_module: int = knob(1, 0, 1)
    # With 1, the statement rule works only in a target file of the upstream file's own name
    # (its later version: ``nextcord/http.py`` <- ``discord/http.py``), where statements stay
    # in place when they are edited; 0: in every pair the fill works in.
    fill_statement_own_file: int = knob(1, 0, 1)
    # With 1, a target file inside a package that stands where an upstream module stands (the
    # same path, or the same below a folder rename the tree shows, ``.py`` aside: nextcord's
    # ``webhook/async_.py`` and ``webhook/sync.py`` <- discord.py's ``webhook.py``) is a part of
    # that module split into a package of its name, and counts as the module's own later
    # version where the statement rule and the rules of a file of the upstream file's own name
    # ask (``lineage.match.fill_lines.is_own_file``): its methods keep their exploded, typed
    # signatures and edited statements in place as a same-named file's do. Not the place rules
    # (``fill_same_place_end_anchor``, ``lone_placed_imports``, the gate's
    # ``origin_same_place_exempts``): one part holds only some of the module. Measured
    # 2026-12-05 (branch fork22, off -> on): renamed fork +84 code lines, 76 copies by its
    # truth, 8 doubtful by eye (the requests adapter's ``data = json.loads(data)``, ``return
    # data``, ``webhook_id,`` where the truth aligned the aiohttp one, ``import json``, ``class
    # WebhookAdapter:``); survival, vendored, the synthetic suite
    # and the sglang/vLLM report unchanged (a first draft that took any folder of the module's
    # name, wherever it stood, paired 20 code lines there, ``sglang/srt/layers/dcp/comm.py`` <-
    # ``vllm/v1/attention/ops/dcp.py``). 0: file names only.
    fill_module_split: int = knob(1, 0, 1)
    # With 1, a signature is a lone survivor as a statement: in a pair the statement rule works
    # in, once the fill's other rules are done, a ``def`` statement with a free line is paired
    # with the upstream file's ``def`` of the same name (a name each whole file defines once),
    # in order with the pair's paired lines, when the two statements are
    # ``fill_statement_min_similarity`` alike: a method whose body was rewritten keeps its
    # exploded, edited signature (``def resolve_redirects(`` / ``self,`` / ``resp,`` ... with
    # ``yield_requests=False,`` added <- ``def resolve_redirects(self, resp, req, stream=False,``),
    # no line of which is identical to the upstream's, so the line survivors never see it; the
    # added parameter stays new. 2026-12-04: survival +10 true lines, the renamed fork +7, no
    # false copy on either; sglang/vLLM +8 code lines (signatures of same-named functions in
    # files of the upstream file's name), truth set unchanged. 0: off.
    fill_signature_survivors: int = knob(1, 0, 1)
    # With 1, the body below a signature the signature survivors paired is read by rule (a) as a
    # stretch between two anchors is (``lineage.match.fill_inside.signature_bodies``): rule (a)
    # ran before, when the signature was no anchor, and the class body around it, its calls
    # exploded one argument a line, was over ``fill_edit_max_gap`` (ruamel.yaml 0.18.6's
    # ``dumper.py``, PyYAML 3.11's three ``__init__`` bodies, ``Emitter.__init__(`` / ``self,`` /
    # ``stream,`` ... with ``dumper=self,`` added: 27 lines of 9 each, all none). Only a stretch
    # that opens at a ``def`` statement's last line paired by that rule, and only the two
    # functions' bodies in it, each at most ``fill_edit_max_gap`` content lines (a first draft
    # read the whole stretch, up to ``align_max_gap``, and paired sglang's ``Lfm2MoeShortConv``
    # with vLLM's ``Lfm2MoeAttentionDecoderLayer`` past the end of a ``forward``). 0: off.
    fill_signature_bodies: int = knob(1, 0, 1)
    # With 1, the body below a ``def`` the signature rule paired out of the pair's in-order chain
    # (a function moved within its file, ``fill_signature_any_order``) is read by rule (a) against
    # the upstream function's body, each at most ``fill_edit_max_gap`` content lines
    # (``lineage.match.fill_inside._moved_def_bodies``): ``fill_signature_bodies`` reads only
    # stretches of the chain, and suds-community 1.2.0's ``cache.py``, ``FileCache``'s methods
    # sorted by name, kept ``def get(self, id):`` paired with suds-jurko 0.6's and its body, seven
    # lines verbatim, none. Only bodies sharing a code line by its fold form: a first draft read
    # rewritten ones too and paired nextcord's ``"PATCH",`` with discord.py's one-line ``return
    # self.request('PATCH', ...)`` (4 of 5 false copies by the fork's truth). 0: off.
    fill_moved_def_bodies: int = knob(1, 0, 1)
    # In those bodies, a code line rule (a) pairs as edited in place (not aligned by its fold
    # form) must share at least this share of its names with its partner
    # (``lineage.match.statements.name_share``: identifiers without its annotation, not
    # ``self``/``cls``/``_``; a line holding none, ``return 80`` <- ``return 75``, is not held to
    # it). A body of the same length whose names were all changed is another body: sglang's
    # ``LagunaMLP`` merges ``gate_up_proj`` where vLLM keeps ``gate_proj``/``up_proj``, and its
    # ``self.gate_up_proj = MergedColumnParallelLinear(`` <- ``self.up_proj =
    # ColumnParallelLinear(`` (0.0), ``gate_up, _ = self.gate_up_proj(x)`` <- ``gate, _ =
    # self.gate_proj(x)`` (0.33) and ``x, _ = self.down_proj(x)`` <- ``up, _ = self.up_proj(x)``
    # (0.33) were paired. Measured 2026-12-07 (round prec170) on the main job's 18 such lines: under
    # 0.4 sat those three, ``share_output = self.share_expert(hidden_states)`` <- ``ffn_output =
    # self.moe(hidden_states)`` (0.33) and ``return Fp8LinearMethod(self)`` <- ``return
    # Fp8KVCacheMethod(self)`` (0.0), all wrong by eye; the lowest copy kept, ``return
    # DeciModel(config=config, ...)`` <- ``return DeciModel(vllm_config=vllm_config, ...)``, 0.43.
    # 0: off.
    fill_body_min_name_share: float = knob(0.4, 0.0, 1.0)
    # With 1, the signature survivors take class headers too (``class NAME``, a name each file
    # defines once as a class): a class whose methods were rewritten keeps its header, edited
    # by pyupgrade or a renamed base (``class BaseAdapter:`` <- ``class BaseAdapter(object):``,
    # ``class CaseInsensitiveDict(MutableMapping):`` <- ``class
    # CaseInsensitiveDict(collections.MutableMapping):``). 0: ``def`` statements only.
    # Measured 2026-12-05: survival +3, fork +1 and 1 false by its git truth (``class
    # VocalGuildChannel(abc.Connectable, ...)`` <- ``(discord.abc.Connectable, ...)``, a copy by
    # eye); sglang/vLLM +16 / -2 code lines (model class headers without vLLM's interfaces).
    fill_signature_classes: int = knob(1, 0, 1)
    # With 1, they take statements of one line on both sides too (before, only a statement of
    # several lines on one side was a survivor): ``def get_netrc_auth(url, raise_errors=False):``
    # <- ``def get_netrc_auth(url):`` above a rewritten body, too far from the pair's other
    # lines for the edited-line rule. Not for a dunder name (``def __str__(self) -> str:``):
    # a protocol method's one-line signature is written alike by anyone, its name says nothing
    # of where the class came from (on the renamed fork these were the lines blame counts new).
    # 0: statements of several lines only.
    # Measured 2026-12-05: survival +5, fork +12 (and the false header above); sglang/vLLM about
    # +25 / -2 code lines; truth set unchanged.
    fill_signature_one_line: int = knob(1, 0, 1)
    # With 1, a ``def`` right below ``@overload`` is no definition of its name for the signature
    # survivors: a fork that typed a method with overloads declares its name several times
    # (nextcord's ``abc.py`` ``send``, 4 overloads and the implementation) and defines it once,
    # and that definition is the upstream's method, exploded and annotated. 0: every ``def``.
    # Measured 2026-12-05: fork +14, no false copy; survival and sglang/vLLM unchanged.
    fill_signature_overloads: int = knob(1, 0, 1)
    # With 1, the edited-statements rule (``fill_statements.edited_statements``) never pairs a
    # ``def`` right below ``@overload`` with an upstream ``def`` that is no such declaration: the
    # declarations type the function, the definition after them is the upstream's function
    # (nextcord's ``GroupMixin.command``/``group``: two overloads and the definition, exploded and
    # annotated, of discord.py's one-line ``def command(self, *args, **kwargs):``; the first
    # overload, most like it by its characters, took it). 0: any ``def``.
    fill_statement_overloads: int = knob(1, 0, 1)
    # With 1, before the signature survivors, a header paired with a definition of another name
    # is unpaired, in a pair the statement rule works in, when the target file defines that
    # name once itself: a ``def`` statement whose paired lines all lie in one upstream ``def``
    # of another name (or an ``@overload`` declaration paired with the upstream function its
    # implementation below continues). By position the alignment gives a header to the
    # definition placed first: nextcord's new ``get_message_payload`` took the exploded
    # signature of ``send_message`` (defined right below it), an ``@overload`` of
    # ``set_permissions`` that of the method it declares, ``timeout`` that of ``edit``. The definition
    # of the same name is the upstream function's later version. Only a header of several
    # lines all of whose paired lines are near (pieces of a one-line upstream signature): one
    # with a line equal to the upstream statement's is that exploded signature copied whole
    # (sglang's new kernels open with the parameter lines of vLLM's; a first draft without this
    # test unpaired 117 such code lines there); a one-line header was paired by its whole text
    # (``og_blurple`` <- ``blurple``, renamed: a first draft took 6 such, copies by the truth).
    # Measured 2026-12-05 (branch fork21, rule off -> on): renamed fork 37 code lines unpaired
    # (29 new by the truth: ``get_message_payload``, ``get_message_multipart_form``,
    # ``timeout``, ``_retrieve_users_*_strategy``; 8 copies: an ``@overload`` of
    # ``set_permissions`` and a body line left alone) and 6 paired (the implementation of
    # ``set_permissions``), precision 0.9752 -> 0.9771, recall 0.9352 -> 0.9350; survival,
    # vendored, the synthetic suite and the sglang/vLLM report unchanged. 0: off.
    fill_header_names: int = knob(1, 0, 1)
    # With 1, the signature survivors also take a name either file defines more than once, as
    # long as each defines it once qualified by the classes around it (``def Guild.edit``,
    # ``def VocalGuildChannel.__init__``, ``def ConnectionState.chunker`` beside
    # ``AutoShardedConnectionState.chunker``): a class's method is one definition however many
    # other classes of the file define the name, if its signature keeps every parameter name of
    # the upstream's (edited, not rewritten: sglang's model classes' ``__init__(self, config,
    # quant_config, prefix)`` opposite vLLM's ``__init__(self, *, vllm_config, prefix)`` share
    # only generic pieces; a first draft without this test paired 52 code lines there, 21 of
    # them such pieces of rewritten signatures). Measured 2026-12-05 (branch fork21, off -> on):
    # renamed fork +27 code lines (``VocalGuildChannel.__init__``, ``ConnectionState.chunker``:
    # 16 copies by the truth; the module-level ``command``/``group`` of ``ext/commands/core.py``,
    # 11 new by the truth, by eye the same functions' signatures, typed and exploded, with 4
    # closing-bracket lines doubtful); synthetic suite +1 true line in click/ and
    # jinja2/dedent_methods, no other case changed; sglang/vLLM +9 code lines (``forward`` of
    # ``nemotron_h.py``, ``__init__`` of ``muse_glimmer.py``: signatures of the same class's
    # method), truth set unchanged. 0: bare names only.
    fill_signature_qualified: int = knob(1, 0, 1)
    # With 1, a ``def`` statement all of whose lines are free, right above a body whose first
    # line is paired with the line right below the upstream ``def`` of the same name, is paired
    # with that statement (``lineage.match.fill_statements.second_copy_headers``) when the upstream
    # statement and that first body line are each paired with another target line of the file
    # too: the function is copied there twice (a method copied into a sibling class, nextcord's
    # ``create_webhook`` of ``VoiceChannel`` and ``ForumChannel`` <- discord.py's
    # ``TextChannel.create_webhook``), the regions take the second body, and the signature
    # rules pair an upstream line once per file and a name only where each file defines it once,
    # so the second signature, exploded and annotated as the first, stayed none. In the pairs the
    # statement rule works in; statements ``fill_statement_min_similarity`` alike. 0: off.
    fill_second_copy_headers: int = knob(1, 0, 1)
    # With 1, a ``def`` signature survivor need not stand in order with the pair's paired lines
    # when no line of the upstream signature is paired in the target file: a function moved
    # within its file is that function (the name defined once in each file, the file its later
    # version, as the statement rule requires). nextcord moved ``send_message``'s payload code
    # into a new ``get_message_payload`` above it, so its header came after the body it once
    # opened. Measured 2026-12-05 (branch fork21, off -> on): renamed fork +25 code lines, all
    # copies by the truth (``send_message``, ``send_files``, ``get_template``, ``cleanup``), 2
    # false copies fewer (``player.py``'s ``self._process.terminate()`` / ``return`` gave
    # ``cleanup`` its place); survival +1 (``def get_environ_proxies(url, no_proxy=None):``);
    # synthetic suite +7 true lines in five reorder_functions/dedent_methods/mixed cases, none
    # worse; sglang/vLLM +47 code lines, by eye 45 the signatures of same-named functions of
    # files of the upstream file's name (``forward_native``/``forward_cuda`` of
    # ``layernorm.py``, ``forward`` of ``llama_eagle3.py``, ``mxfp4_marlin_process_scales``)
    # and 2 doubtful (``minicpmv4_7.py``'s ``frame_cursor = group_start``, ``for frame in
    # frames:``), truth set unchanged. 0: in order only.
    fill_signature_any_order: int = knob(1, 0, 1)
    # With 1, a signature survivor whose lines the word share refuses every one of still pairs
    # its name line (the statement's first line, holding ``def NAME`` or ``class NAME``) with the
    # upstream statement's first line: the survivors' tests (the name each file defines once, in
    # order with the pair, the two statements ``fill_statement_min_similarity`` alike) are the
    # evidence, and a one-line signature that gained parameters (``def _from_avatar(cls, state,
    # user_id: int, avatar: str) -> Asset:`` <- ``def _from_avatar(cls, state, user, *,
    # format=None, static_format='webp', size=1024):``, 4 of its 6 words kept) or a class header
    # given another base (``class Sticker(_StickerTag):`` <- ``class Sticker(Hashable):``) is
    # that definition's later header, its added parameters on the same line. Only where the
    # survivors rule would pair the statement but no line of it passed the word share; the other
    # lines of an exploded header stay as the word share left them; a name line so paired bounds
    # no later survivor's order. Measured 2026-12-07 (round fork170, off -> on): renamed fork +17
    # code lines (13 name lines, 4 ``@classmethod`` above them), all copies by its truth, none
    # false; sglang/vLLM, of the 15 code lines the round's three rules moved, 11 this rule's by
    # reading (6 class headers whose base changed, ``def get_min_capability(self) -> int:`` <-
    # ``(cls)``: copies but 1 doubtful, a class whose body is all new; the header of
    # ``Step3p5MTP`` then continues 4 pieces of its rewritten ``__init__`` signature that the
    # lone-line rule used to drop: doubtful), truth set unchanged. 0: off.
    fill_signature_name_line: int = knob(1, 0, 1)
    # With 1, the one-line signature survivors take a dunder method too when its name qualified
    # by the classes around it is the same in both files (``def Asset.__str__`` <- ``def
    # Asset.__str__``, annotated: ``def __str__(self) -> str:`` <- ``def __str__(self):``): a
    # protocol method is written alike by anyone, so its bare name says nothing (a first draft
    # that took every dunder defined once in each file paired ``Embed.__bool__`` with discord.py's
    # ``_EmptyEmbed.__bool__``), but the same class's protocol method in the file's later
    # version is that method. Measured 2026-12-07 (round fork170, off -> on): renamed fork +13
    # code lines (``Asset.__str__``/``__len__``/``__repr__``, ``Sticker.__init__``, the helper's
    # ``__getattr__`` with its body), all copies by its truth; the round's three rules together:
    # synthetic suite +17 true code lines (dedent_methods, jinja2's rewrap_calls); sglang/vLLM 4 of the
    # round's 15 by reading (``PostGradPassManager.__init__``/``__call__`` and the line below,
    # ``ParakeetExtractor.__call__``: copies), truth set unchanged. 0: no dunder of one line on both sides.
    fill_signature_same_class_dunders: int = knob(1, 0, 1)
    # Likewise for collections (``lineage.match.fill_statements.collection_survivors``): a literal
    # collection assigned to a name (``__slots__ = (`` / ``"_state",`` / ``"id",`` ... with items
    # added and reordered <- ``__slots__ = ('_state', 'description', 'id', ...``), exploded one
    # item a line and edited, so no line is the upstream's and no region reaches it, is paired
    # with the one upstream assignment of that name in order with the pair, when at least half
    # of its worded lines are copies by the word share above; an item added stays new. 0: off.
    fill_collection_survivors: int = knob(1, 0, 1)
    # Statements re-wrapped in place (``lineage.match.fill_statements.split_at_rewrapped``): inside a
    # stretch between two paired lines, a statement of at most this many lines whose tokens
    # (without annotations) are those of a statement of the upstream stretch, each found once
    # there, is paired piece by piece and the stretch is cut at it; 0 turns this off. Unlike the
    # statement rule above it judges no similarity (the same tokens, other line breaks), so it
    # is on by default: on the real cases (2026-12-04) it raises the renamed fork's recall
    # 0.849 -> 0.881 at precision 0.965 -> 0.966, and adds a few dozen code lines on the
    # sglang/vLLM pair, its truth-set scores unchanged.
    fill_rewrapped_max_lines: int = knob(30, 0)
    # With 1, the rule above also takes a line of the stretch that a region paired out of the
    # pair's order (with an upstream line outside the stretch): a re-wrapped call's opening
    # piece, ``bound_setattr(``, stands as a whole line in another, exploded call upstream and
    # was paired with it, so the call it re-wraps (``bound_setattr("name", name)``, in order)
    # was never whole and free. If the statement is paired, its lines leave their stray pair.
    # Only a line paired alone (no neighbour on its upstream diagonal): a run out of the
    # anchors' order is another part of the file copied. 2026-12-04: attrs/mixed near recall
    # 0.886 -> 0.905, every other synthetic and real row and the sglang/vLLM figures unchanged.
    fill_rewrapped_strays: int = knob(1, 0, 1)
    # Type annotations added to copied code (a fork that adopts typing: ``self.tts: bool =
    # data["tts"]`` <- ``self.tts = data['tts']``, ``def copy(self) -> Mapping:`` <- ``def
    # copy(self):``): with 1, lines and statements are also compared without their annotations
    # (``lineage.match.statements.strip_annotations``) when fill aligns a stretch, pairs edited
    # lines and compares statements; 0 compares them as written.
    fill_strip_annotations: int = knob(1, 0, 1)
    # A stretch between two paired lines longer than ``align_max_gap`` is rewritten code where
    # only lone survivors are paired; with 1 they then serve as the pair's further paired lines,
    # and the stretches between them that are now short enough are aligned as inside a copy (a
    # fork that inserted hundreds of lines of new code between two old methods kept the old
    # methods after it, edited); 0: survivors only.
    fill_survivor_anchors: int = knob(1, 0, 1)
    # Between two lone survivors on one diagonal, up to this many comment lines whose text is
    # the upstream lines' at the same places are paired with them (a licence header's ``#`` and
    # URL lines between its notice sentences, too common to survive alone); 0: off.
    fill_survivor_gap_lines: int = knob(3, 0)
    # The same after the pair's last paired line, in a target file of the upstream file's own
    # name: with 1 the survivors found there are anchors too, and the stretches between them
    # (and between the copy and the first) short enough are aligned as inside a copy (a region
    # that ended early, the rest of the file found again by its survivors); 0: survivors and
    # edge blocks only there. Never before the first paired line (the imports; fill.py says why).
    fill_edge_survivor_anchors: int = knob(1, 0, 1)
    # The same before the pair's first paired line, in a target file of the upstream file's
    # own name, from the first survivor there that is not an import on (the import block, which
    # a fork rewrites to its own modules, stays as it is): with 1 those survivors are anchors
    # too. This also covers a pair with no paired line at all before the fill (established by
    # the same or a renamed path, or a marker, with no region: a file rewritten over years,
    # ``nextcord/sticker.py`` <- ``discord/sticker.py``); 0: survivors only there (and these
    # alone rarely pass the lone-line rule).
    fill_leading_survivor_anchors: int = knob(1, 0, 1)
    # In a target file that stands where the upstream file stands (the same path, a vendored
    # copy's path ending, or the same below a folder rename the whole tree shows,
    # ``lineage.match.renames``: a fork's or a later version's file), the two files' ends anchor
    # the stretch after the pair's last paired line, which is then aligned as inside a copy when
    # short enough (``align_max_gap``): such a file is the upstream file's later version to its
    # end, and its last methods, edited in place (annotations added, re-quoted), were otherwise
    # left to the lone survivors (``nextcord/ext/tasks/__init__.py``'s ``loop`` decorator,
    # ``nextcord/emoji.py``'s ``edit``). Not in a file that only keeps the upstream file's name
    # in another layout (``sglang/srt/models/qwen3.py`` <- ``vllm/model_executor/models/qwen3.py``),
    # where the tail held more of the target's own code than edited copies (a trial with the name
    # alone: 507 more copied code lines on the sglang/vLLM pair, about half generic ``)``, ``self,``
    # or lines of another file of the same name), nor where a one-folder-deep path merely ends the
    # same (``tests/utils.py``, ``pkg/utils.py``) without the tree showing that folder renamed.
    # 0: lone survivors only there.
    fill_same_place_end_anchor: int = knob(1, 0, 1)
    # Before the pair's first paired line and after its last (only lone survivors there), a
    # block of at least this many consecutive code lines aligned with as many consecutive
    # upstream lines (re-quoted ``__all__`` entries above the first copied function) is copied;
    # 0 turns it off.
    fill_edge_block_lines: int = knob(6, 0)
    # With 1, such a block is part of the copy: the stretch between it and the pair's first
    # paired line (or its last, after it) is aligned as inside a copy when short enough
    # (``lineage.match.fill._inside_edge_block``); 0: the block alone.
    fill_edge_block_anchors: int = knob(1, 0, 1)
    # In a pair that is not the target file's main pair (code moved in from another file, no
    # lone survivors), the lines before its first paired line and after its last are read as
    # inside a copy when that line and its partner stand in functions of the same name, from the
    # anchor to the end (or from its first decorator, else its header) of that function on each
    # side, never past it
    # (``lineage.match.fill._function_window``); 0: nothing is read there.
    fill_edge_function_window: int = knob(1, 0, 1)
    # ... only when at least this share of the shorter function's content lines is already
    # paired with the other function (in this pair): two functions of one name written apart
    # (nextcord's webhook adapter's ``request`` and discord.py's HTTP client's, 0.26) share a
    # few lines; nextcord's moved methods had 0.5 to 0.9. At 0.5, 3 more true lines on the fork
    # (``Guild.fetch_channel``'s end, at 0.5) and 13 more code lines on the main job, 10 of them
    # doubtful (a 4-line ``__init__`` of two RMSNorms, half paired: ``super().__init__()``).
    fill_edge_function_min_share: float = knob(0.6, 0.0, 1.0)
    # Imports out of order (isort sorted them again): in the file's main pair, a one-line
    # import with at least this many tokens that the upstream file also has is paired in any
    # order. Unlike a lone survivor (above), which may sit anywhere in a rewritten file, these
    # are lines of the import block of a file whose code is copied from that upstream file, so
    # even ``import os`` (2 tokens) is counted as taken with it; 0 turns it off.
    fill_import_min_tokens: int = knob(2, 0)
    # Lines moved within the file (fill_survivors.moved_lines): in a pair at the target file's
    # own path (a renamed folder's included) that has paired lines, a code line whose fold form
    # stands once in each file and holds at least this many letters and digits is paired in any
    # order (git blame -M's minimum for a moved line; a shorter one is written alike by
    # chance). 0: off.
    fill_moved_min_alnum: int = knob(20, 0)
    # With 1, in a vendored copy of the upstream file (it sits in a `vendor_folders` folder at
    # the upstream file's own path), that rule compares a target import as it stood before the
    # vendoring tool re-rooted it (``from pip._vendor import requests`` <- ``import requests``;
    # ``from pip._vendor.cachecontrol.caches.file_cache import FileCache`` <- ``from
    # cachecontrol.caches.file_cache import FileCache``), and pairs it near. 2026-12-04, real
    # vendored case: 7 more true copies (missed 12 -> 5) and 4 more "false" ones, all ``from
    # pip._vendor import idna`` <- ``import idna``: the same rewrite, which that truth leaves
    # unpaired only because the short name keeps the pair under its 0.6 ratio (``... import
    # requests``, 0.638, is near there); the other cases and the sglang/vLLM figures unchanged.
    fill_vendored_imports: int = knob(1, 0, 1)
    # With 1, the import rule (``fill_import_min_tokens``) also pairs a one-line ``from X import
    # a, b`` with the upstream's import of the same module and the same names in another order,
    # near: isort sorts the names inside an import as well as the imports (requests 2.32.3's
    # ``from .api import delete, get, head, ...`` <- 2.0.0's ``from .api import request, get,
    # head, ...``, which git blame counts unchanged). 0: only the same text.
    fill_import_sorted_names: int = knob(1, 0, 1)
    # Statements of the same shape (``lineage.match.shapes.complete_same_shape``): a target
    # statement of at most this many lines, one line of which is paired with the upstream line
    # the shape of an upstream statement puts it at (the same tokens once names, strings and
    # numbers are abstracted: a call re-wrapped one argument a line with a literal edited), is
    # paired piece by piece with that statement; its edited piece shares no word with it and
    # the statement rule's word share leaves it none. In every pair (the shape is the whole
    # statement's, token for token); 0 turns it off.
    fill_shape_max_lines: int = knob(30, 0)
    # ... only when at least this share of the two statements' tokens are the same as written:
    # a re-wrap with a literal or a name edited changes one or two, while a call passing other
    # keyword arguments (``return cls(a=a, b=b, ...)`` of another config) has the upstream's
    # shape and few of its tokens (about 0.75 on the sglang/vLLM pair's false copy).
    fill_shape_min_same: float = knob(0.8, 0.0, 1.0)
    # With 1, the same-shape rule works only in a target file of the upstream file's own name,
    # as the statement rule does (``fill_statement_own_file``): on the real renamed fork, in
    # every pair it added 10 copies and 5 false ones, two in ``nextcord/webhook/sync.py`` <-
    # ``discord/webhook.py`` (``webhook_id,`` <- the ``_id`` of another log call); 0: every pair.
    fill_shape_own_file: int = knob(1, 0, 1)
    # ... and only when at most this many of the two statements' tokens differ (a re-wrap with
    # a literal or a name edited changes one or two: ``_log.debug(`` / ``response.status,`` <-
    # ``log.debug(..., r.status)``); a long statement passes the share above with more edits
    # (``nextcord/invite.py``'s ``__slots__``, three names given a leading underscore: three
    # false copies on the real renamed fork); 0: the share alone.
    fill_shape_max_edits: int = knob(2, 0)
    # With 1, a piece of the statement that the labeller had paired by its text with an
    # identical short line elsewhere in the upstream file (``v,`` of another call) is moved to
    # its place in the statement; 0 (the default) leaves it there: on the synthetic suite the
    # moves cost a line each in click/rewrap_calls and attrs/edit_literals.
    fill_shape_move_pieces: int = knob(0, 0, 1)
    # Witnessed renames (``lineage.match.shapes.pair_renamed``): a free line equal to a free
    # upstream line once names are renamed as the pair's other near lines rename them (lines
    # that differ only by names) is paired, in order between two paired lines or outward from
    # the first and last, if each rename has at least this many witnesses (``self.msg = msg``
    # <- ``self.value = value`` is too unlike for the edited-line similarity); 0 turns it off.
    # 2, not 1: one near pair that differs by a name is as often an argument swapped for
    # another (``layer_id=layer_id,`` <- ``cache_config=cache_config,`` on sglang/vLLM) as a
    # rename; two agreeing pairs are a rename (2026-12-04: synthetic near recall
    # ``requests/mixed`` 0.948 -> 0.956, ``attrs/rename_identifiers`` 0.940 -> 0.970; the real
    # renamed fork 6 more true copies and 1 more false one, ``parent_id = MISSING`` <-
    # ``parent_id = _undefined``, a sentinel nextcord did rename; the pair's truth set unchanged).
    fill_rename_min_witnesses: int = knob(2, 0)
    # With 1, the witnessed-rename rule works only in a target file of the upstream file's own
    # name: on the real renamed fork, in every pair it added 6 copies and 8 false ones, 7 in
    # ``nextcord/webhook/sync.py`` <- ``discord/webhook.py`` (a file that rewrote a part of the
    # upstream file with its own names: ``for attempt in range(5):`` <- ``for tries in
    # range(5):``); 0: every pair.
    fill_rename_own_file: int = knob(1, 0, 1)
    # With 1, a rename is used only when more lines witness it than keep either of its names
    # as written on both sides (``shapes.witnessed_renames``): ``entries = reversed(entries)``
    # <- ``data = reversed(data)`` in ``nextcord/iterators.py``, whose copied lines keep both
    # ``data`` and ``entries`` (one false copy on the real renamed fork); 0: witnesses alone.
    fill_rename_kept_names: int = knob(1, 0, 1)
    # -- renamed folders (renames.py): a target folder most of whose copying files copy most
    # from the file at the same path below another folder is that folder renamed (``nextcord/``
    # <- ``discord/``), and each of its files is established with the file at its renamed path,
    # as a same-path pair is. The rule reads every target file's vote at once; compare_trees
    # collects the votes (cached files' from their entries) before it uses any per-file cache,
    # and uses a cached entry or table row only if it was made with the renamed paths the
    # current renames give (branch renames6), so a rerun that matches one changed file gives the
    # tables of a cold run. Off (0) until then, when reruns could not see the renames; on by
    # default since. Measured on 2026-12-04 (branch renames6): on the real renamed fork file
    # pairing 0.925 -> 0.955 (nextcord/sticker.py and nextcord/ext/commands/__init__.py paired
    # with their discord/ files), P 0.965 and R 0.930 unchanged, the other real cases unchanged;
    # on the sglang/vLLM pair 31 more copied code lines (68,399 -> 68,430), truth-set code-line
    # P 0.816 -> 0.817, R 0.975 -> 0.980; a cold match no slower within the machine's swing.
    rename_folders: int = knob(1, 0, 1)
    # At least this many files must show a rename (0 turns the rule off too) ...
    rename_min_files: int = knob(3, 0)
    # ... and at least this share of the folder's files that copy from anywhere: a project
    # that copied a few files into a folder of its own renamed nothing.
    rename_min_share: float = knob(0.5, 0.0, 1.0)
    # A target file whose best upstream file is not the upstream's own code (a third party's
    # copy, or one taken from the target: lineage.match.origin) casts no vote unless its markers
    # name an upstream (any of the run's): the two share that other project's code, which says where each put
    # it, not that the target renamed the upstream's folder. lmdeploy 0.6.4's
    # vl/model/{internvl,minicpmv,mllama}.py, each paired with the vLLM file of its model's name
    # (adapted from OpenGVLab's, transformers', Hugging Face's code), made vl/model/ a rename of
    # vLLM's model_executor/models/, and the same-place exemption then counted 186 code lines,
    # mostly that third-party code, as copied from vLLM.
    rename_own_votes: int = knob(1, 0, 1)
    # A vote whose two paths share not even the file name still shows a folder pair when the
    # target file is a part of the upstream module split into a package of its name
    # (``pypdf/generic/_base.py`` <- ``PyPDF2/generic.py``) ...
    rename_split_votes: int = knob(1, 0, 1)
    # ... or the module made private (or public) by one leading underscore (``pypdf/_merger.py``
    # <- ``PyPDF2/merger.py``): renames.vote_place. pypdf 3.17.4, PyPDF2 renamed, restructured
    # and made private module by module, showed its rename in 3 of 17 voting files without
    # them (under rename_min_share, so the weak-pair rule judged its files as strangers' and
    # dropped 47 copied code lines), in 9 of 17 with them.
    rename_private_votes: int = knob(1, 0, 1)
    # -- idioms (idioms.py): a file pair whose shared lines are all common forms is no region
    # A line whose form is in more upstream files is not distinctive (read by the lone-line
    # rule too: a lone line must be as rare as an idiom region's evidence).
    idiom_max_files: int = knob(3, 1)
    # Tokens of distinctive lines a (target file, upstream file) pair needs, unless the target
    # file's markers name the upstream file; 0 (with idiom_min_lines 1) turns the rule off.
    idiom_min_evidence: float = knob(20.0, 0.0)
    # ... and at least this many distinctive lines: one long rare line is never a region on its
    # own (``region_min_hits``), however many common lines surround it, and two rare lines that
    # unrelated code writes alike (a helper's signature and body) are none either: 3 since
    # 2026-12-04 night (2 before; a side sample of the lines 2 kept and 3 drops: 4 of 40 copies).
    idiom_min_lines: int = knob(3, 1)
    # ... and a pair with fewer than ``idiom_min_lines`` distinctive lines found by their text
    # (the rest found only by their abstract form) needs this many distinctive lines in all.
    idiom_min_abstract_lines: int = knob(4, 1)
    # With 1, convention lines (``idioms.is_convention_line``: a data model method's plain
    # signature, ``def __lt__(self, other):``; a type variable's declaration) are never
    # distinctive evidence of a pair: against a small upstream (jaraco.text's six files) they are
    # rare there yet every project writes them. setuptools 70.0.0 against more-itertools 10.3.0
    # and jaraco.text 3.12.1, 2026-12-05: 3 false files of 18 left the review list (an
    # EntryPoint's comparison methods, a typing stub's TypeVars); the real cases, the synthetic
    # suite and the sglang/vLLM report unchanged. 0: off.
    idiom_conventions: int = knob(1, 0, 1)
    # A candidate chain holding a table row (``idioms.is_constant_statement``: ``return 1 <<
    # 12``) forms a region with an upstream file its markers do not name, nor its place, only
    # if it holds this many distinctive lines that are no such rows (``IdiomFilter._table_rows``):
    # two flag tables write the same bits in order (nextcord's ``ApplicationFlags`` against
    # discord.py's ``Permissions``: 9 false copies). 0: off.
    idiom_table_min_lines: int = knob(3, 0)
    # -- weak pairs (weak_pairs.py): in a target file whose markers name no upstream, an
    # upstream file neither named nor at the file's place keeps its lines only if the pair
    # shares a run of this many consecutive verbatim code lines in order (each the upstream's
    # next line or at most lone_max_skip + 1 further). First a stricter review list, off (0) by
    # default: measured on 2026-12-05 evening with 5, the sglang/vLLM report loses 1,924 copied
    # code lines of unmarked files (64,283 -> 62,359), the truth set's P 0.778 -> 0.815 and R
    # 0.979 -> 0.971 (found on it: 24 of the 27 truth lines it drops are false copies), and a
    # blind side sample of 30 dropped lines outside the truth set held 8 copies and 22 not
    # (corpora/sglang-vllm-truth.md); but on the real renamed fork it drops 403 true copies for
    # 51 false ones (R 0.932 -> 0.906: files the fork moved, copied in short runs) and on the
    # survival case 11 true copies; the synthetic suite 118 true copies in 11 cases and no false
    # one (lowest near-line recall 0.955 -> 0.905). Since then files that descend from the
    # upstream (at an upstream file's place, a part of a split module, below a renamed folder;
    # on the renamed fork that is every file) are not judged, nor pairs
    # over weak_pair_max_share: with 5, the real cases unchanged, sglang/vLLM -1,864 copied code
    # lines (105 of 396 unmarked files leave the list), truth set P 0.813 R 0.971, the
    # synthetic suite -31 true copies in 5 cases (requests/mixed near-line recall 0.948), all
    # short documented functions copied with their docstrings. With weak_pair_prose_runs
    # (below; 2026-12-05 night, branch weak25) those are kept: the synthetic suite -7 true
    # copies in 2 subset_functions cases (a 4-line function, three exception classes under a
    # docstring of one to three lines, no other line of their upstream file in the target file),
    # no false one, lowest near-line recall 0.955 unchanged, pooled F1 0.999; the real cases
    # byte-identical; sglang/vLLM 64,578 -> 62,753 copied code lines (unmarked files with
    # copied code 396 -> 294), truth set P 0.780 -> 0.815, R 0.979 -> 0.971, report-wide
    # estimate (fresh draws) 0.752 -> 0.778. So on by default, 5. 0 or 1: off.
    weak_pair_min_run: int = knob(5, 0)
    # ... and a pair holding more than this share of the target file's code lines is never
    # weak: the file is that upstream file edited throughout (the synthetic suite's modules
    # moved and renamed with their names: every line near, no verbatim run).
    weak_pair_max_share: float = knob(0.5, 0.0, 1.0)
    # ... and docstring and comment lines copied word for word count in a pair's run as code
    # lines do (licence notices excepted): two authors do not write the same sentences, so
    # the upstream's prose in order is evidence of descent as its code is. 0: a run counts code
    # lines only (prose skipped on both sides). Measured (weak_pair_min_run 5) 1 against 0
    # here: sglang/vLLM +38 copied code lines of 4 pairs (vLLM's CUDA-graph capture comments in
    # npu_piecewise_backend.py, the scaled_mm fallback's comment block in fp8_utils.py, a
    # gptq_utils comment block, and DeepSeek EPLB's docstring, third-party code both hold),
    # truth set unchanged; the synthetic suite +24 true copies in 5 cases.
    weak_pair_prose_runs: int = knob(1, 0, 1)
    # -- lone lines (lone.py): a paired line that neither neighbour continues in order is
    # copied only if it is evidence on its own: long enough to be a lone survivor
    # (``survivor_min_tokens``, ``survivor_min_chars``) and rare (``idiom_max_files``, not an
    # argument line); ``else:`` or ``super().__init__()`` placed by position alone is not.
    # 0 turns the rule off, and with it lone_clause_pairs, lone_decorator_pairs, lone_try_pairs,
    # lone_except_pairs and lone_bracket_pairs below, which pair in its pass
    # (``lineage.match.lone.drop_lone_lines``).
    lone_rule: int = knob(1, 0, 1)
    # How far apart two paired lines may be and still continue each other: one side moves by
    # one line and the other by at most 1 + this (lines of the target's own inserted, or
    # upstream lines left out), or both by the same number up to 1 + this (edited in place).
    # ``else:`` six lines after its neighbour's pair is not continued. The labeller reads it
    # too: a one-line run next to another run, on a diagonal more than this off, is a lone hit
    # that does not end a region or bound a gap (``lineage.match.labels._stray``).
    lone_max_skip: int = knob(3, 0)
    # With 1, the target's own comment and docstring lines (unpaired) are not counted in that
    # distance: a fork that documents a copied attribute with a block of new comments
    # (``self.verify = True`` under seven new ``#:`` lines) has not moved the code apart;
    # 0 counts every content line.
    lone_skip_comments: int = knob(1, 0, 1)
    # With 1, in a pair at the target file's own place (as for ``lone_placed_imports``: the
    # file's later version), the paired pieces of one target statement of several lines paired
    # with one upstream statement continue each other in any order: an exploded import whose names isort
    # sorted again (``parse_header_links,`` / ``to_key_val_list,`` of ``from .utils import (``,
    # upstream ``stream_decode_response_unicode, to_key_val_list, parse_header_links,``), a call
    # whose keyword arguments were sorted (``secure=bool(morsel["secure"]),`` below ``rfc2109=False,``).
    # Not in a file elsewhere (nextcord's ``ext/application_checks/core.py`` wrote its own
    # ``__all__`` opposite ``ext/commands/core.py``'s, and its items are alike by their quotes).
    # 0: only in order.
    # Measured 2026-12-05: survival +3, fork +10, no false copy (in every pair, not only at the
    # file's own place: fork 4 more false); sglang/vLLM +47 code lines, pieces of kernel
    # signatures and launches below renamed folders, about half naming another line of the right
    # statement (``a1_q: Optional[torch.Tensor] = None,`` <- ``w1_bias: ... = None,``).
    lone_statement_pieces: int = knob(1, 0, 1)
    # A lone near line needs at least this similarity (and its upstream line must be rare); a
    # line continued only across lines edited in place on both sides needs it too: an edited
    # line with nothing copied next to it is a guess unless the two texts are close.
    lone_near_min_similarity: float = knob(0.8, 0.0, 1.0)
    # With 1, a lone near line whose edit only added or only dropped tokens (quotes aside:
    # ``lineage.match.statements.only_added_or_dropped``) is rare by its text (an edited line
    # found nowhere upstream is rare), beside the upstream line's rarity and this similarity;
    # not by its abstract form, which counts the files writing its shape: ``class I:`` (``class
    # SessionRedirectMixin:`` <- ``class SessionRedirectMixin(object):``) and ``if I(I, S):``
    # (``if hasattr(o, "__len__"):`` <- ``if hasattr(o, '__len__'):``) stand in many files, and
    # the upstream line's own rarity already says whether the pair is evidence. A line with a
    # name renamed or a literal rewritten is found by its shape alone, and its shape must be
    # rare (``self._stdin = self._process.stdin`` <- ``self._stdout = self._process.stdout``;
    # ``if quant_method == "fp8":`` <- ``if quant_method == "NVFP4":``). 0: the abstract form for
    # every line whose text is found nowhere.
    # Measured 2026-12-05: survival +3, fork +3, no false copy; sglang/vLLM +46 code lines, by eye
    # about 36 plausible (class headers without vLLM's interfaces, annotated signatures) and about
    # 10 doubtful (a ``not`` added or dropped, ``sampling_params.py``'s ``stop_token_ids`` lines);
    # truth set unchanged. Without the token test (any line renaming no name) it took 21 more
    # there, mostly literals rewritten (``if quant_method == "fp8":`` <- ``... == "NVFP4":``).
    lone_near_text_rarity: int = knob(1, 0, 1)
    # A small group of paired lines that continue each other but nothing else (a signature's
    # common parameter lines, an import block, ``config=config, quant_config=quant_config``) is
    # judged like one lone line when the target file's markers do not name the upstream: it stays
    # paired only if one of its lines is evidence on its own. A group counts as small with at most
    # this many paired lines (0 turns the rule off) ...
    lone_group_max_lines: int = knob(8, 0)
    # ... and as isolated when no other paired line of the file is within this many lines of it.
    lone_group_min_gap: int = knob(15, 1)
    # A target file at least this share of whose code lines are paired with the group's upstream
    # file is evidently derived from it, and keeps such groups too (a fork's surviving imports).
    lone_group_keep_share: float = knob(0.2, 0.0, 1.0)
    # A target file whose markers name the upstream keeps its small groups, unless a group is all
    # its lines paired with that upstream file hold: then it is judged as in any file (1; 0: kept).
    # pip 24.2's ``metadata/base.py`` and ``req/constructors.py`` say a method of theirs is "a copy
    # of ``pkg_resources.to_filename()``" / "heavily based on ``pkg_resources.parse_requirements``"
    # and rewrote it: their only lines paired with setuptools 72.1.0's ``pkg_resources/__init__.py``
    # were two imports each (``import re``, ``import zipfile``), counted as copied.
    lone_group_attributed_alone: int = knob(1, 0, 1)
    # A line of closing brackets (``)``, ``],``, ``) -> None:``) is copied only with its statement:
    # none when no other line of the statement it closes is paired. 0 turns this off.
    lone_closing_brackets: int = knob(1, 0, 1)
    # A decorator line (``@property``, ``@flag_value``) is copied only with the definition it
    # decorates: none when the ``def``/``class`` line below it is not paired with the same
    # upstream file. Placed by position at a method boundary it names the upstream's next method
    # while the target's own method follows (requests' ``@property`` above its new
    # ``is_redirect``; nextcord's ``@property`` above its own ``status``). 0 turns this off.
    lone_decorators: int = knob(1, 0, 1)
    # An ``else:`` or ``finally:`` line is copied only with the compound statement it continues:
    # none when the clause header above it (``if``/``elif``/``for``/``while``/``try``/``except``
    # at its indentation) is not paired with the header above the upstream clause it names. By
    # text and place the gap alignment paired requests' new ``else:`` of ``if not
    # os.path.isdir(cert_loc):`` with the old ``else:`` of ``if verify:`` one level out. 0: off.
    lone_clauses: int = knob(1, 0, 1)
    # With 1, the three rules above are asked once more after the lone lines and groups are
    # dropped: a ``)`` whose statement's other paired lines were all lone is its statement's no
    # more (sglang's ``glm4_moe.py`` ``)`` of its own ``apply_qk_norm(...)`` call stayed verbatim
    # with vLLM's after the two keyword lines that held it were dropped as lone). 0: off.
    lone_shapes_after_drop: int = knob(1, 0, 1)
    # With 1, a ``near`` line of punctuation alone (``*,``, ``(``, ``) -> None:``) is none when
    # the upstream line it names does not start as it does and no other line of its statement
    # names that line: it has no text to be like another's, only a place (sglang's ``*,`` of its
    # own ``create(`` paired with vLLM's ``def kda_state_shape(``, a ``) -> torch.Tensor:`` with
    # a parameter line). A piece of a re-wrapped statement shares its upstream line with the
    # statement's other pieces and stays. 0: off.
    lone_punctuation_pieces: int = knob(1, 0, 1)
    # With 1, a line of a ``def`` header (signature) paired with an upstream line outside one, or
    # the reverse, moves to the upstream line next to its partner when that one is of its role,
    # free and like it (nextcord's edited ``def __init__(...)`` paired by position with discord's
    # first body line, its own header right above), else is none: a call's arguments one a line
    # are not the parameter lines they name (sglang's own ``asm_verify_attn_supported(q, k, v,
    # ...)`` paired with vLLM's ``unified_attention`` signature), a dataclass field not a
    # parameter of its name. 0: off.
    lone_header_roles: int = knob(1, 0, 1)
    # With 1, a free ``else:``/``finally:`` whose clause header is paired with an upstream
    # header (the header's block too: its first paired line inside that header's) is paired
    # with the same clause of that upstream statement, when it is free: the statement was
    # copied, the clause continues it (requests' outer ``else:`` of ``cert_verify`` stayed none
    # after its inner new ``else:`` took, then lost, the upstream one). 0: off.
    lone_clause_pairs: int = knob(1, 0, 1)
    # With 1, a free decorator line whose definition is paired with an upstream ``def``/``class``
    # line is paired with that definition's identical decorator, when it is free (requests'
    # ``apparent_encoding``'s ``@property``, whose upstream one the alignment gave to the new
    # ``is_redirect``'s, which lone_decorators then dropped). 0: off.
    lone_decorator_pairs: int = knob(1, 0, 1)
    # With 1, a free ``try:`` whose block's first paired line lies in the block of an upstream
    # ``try:``, free, is paired with it: it holds no text, its block says which statement it opens
    # (requests' ``__init__.py``: new code wrapped around the import inside the kept ``try:``). 0: off.
    lone_try_pairs: int = knob(1, 0, 1)
    # With 1, a free ``except ...:`` whose block's first paired line (in its own block) lies in
    # the block of an upstream ``except ...:``, free, is paired with it (near when edited): its
    # block says which clause it is, while its text often changed with the library's exception
    # (requests' ``except (ProtocolError, OSError) as err:`` <- ``except socket.error as
    # sockerr:``, its ``raise ConnectionError(err, request=request)`` paired). 0: off.
    lone_except_pairs: int = knob(1, 0, 1)
    # With 1, a free line of brackets alone (``)``, ``},``, ``{``) whose partner bracket stands on
    # a paired line is paired with the upstream line that holds the partner of that line's
    # bracket (near): a statement copied and re-wrapped keeps its brackets, but an upstream
    # ``rfc2109=False,)`` or ``308: ("resume_incomplete", "resume"),`` has no line of brackets
    # of its own for the statement rule to pair them with, nor a similar text. 0: off.
    lone_bracket_pairs: int = knob(1, 0, 1)
    # With lone_bracket_pairs, the share of the code lines between the two brackets that must be
    # paired with that upstream file: the bracketed content was copied, not only the line that
    # opens it (a re-sorted import list keeps its ``from .compat import (``, not its ``)``).
    lone_bracket_min_share: float = knob(0.5, 0.0, 1.0)
    # With 1, a lone unit (consecutive target lines naming one upstream line: a statement
    # re-wrapped) stays whole when one of its lines is evidence on its own (the rare head
    # ``def resolve_redirects(`` keeps its pieces ``self,``, ``resp,``); 0: each line alone.
    lone_unit_evidence: int = knob(1, 0, 1)
    # With 1, a lone unit that is a whole target statement of several lines (every code line of
    # the logical line paired, all with one upstream line: Black exploded it) is judged as that
    # statement: its near lines are as strong as the statement's joined text, annotations cut, is
    # like the upstream line (at least ``lone_near_min_similarity``), not as each piece is alone.
    # ``previous_mentions: Optional[AllowedMentions] = getattr(`` / ``self._state,
    # "allowed_mentions", None`` / ``)`` <- ``previous_mentions = getattr(self._state,
    # 'allowed_mentions', None)``: pieces at 0.60, 0.68 and a bracket, the statement re-joined
    # equal to it (1.0: the token text reads both quotes alike); it still needs a line that is
    # rare and long enough to be evidence. Only a whole statement: a signature that gained
    # parameters (lines of it unpaired) is no re-wrap, and its paired pieces alone read like the
    # upstream's more than the statement does. Measured 2026-12-07 (round fork170, off -> on):
    # renamed fork +14 code lines, all copies by its truth; survival, vendored and the sglang/vLLM
    # labels unchanged but 3 lines there set apart as third-party code (a re-wrapped
    # ``mO_cur = seqlen.offset_batch_Q(...)[...]`` both took from flash-attention). 0: each line's
    # own similarity.
    lone_unit_statement: int = knob(1, 0, 1)
    # With 1, in a pair at the target file's own place (the same path, a vendored copy's path
    # ending, the same below a folder rename the tree shows) whose content links the files too
    # (a non-import code line paired in order with a neighbour: a place alone is no evidence,
    # any two ``setup.py`` share one), a one-line import paired verbatim is evidence on its own:
    # a later version of a file keeps its imports, and isort or the imports added around them
    # move them apart (truth by git blame on the survival and fork cases); elsewhere ``from
    # .asset import Asset`` alone is no evidence. 0 turns this off.
    lone_placed_imports: int = knob(1, 0, 1)
    # With 1, in such a pair the fill's import rule (``fill_import_min_tokens``) also pairs a
    # one-line import of the target's own top package with the upstream's import of its renamed
    # package (``from nextcord.backoff import ExponentialBackoff`` <- ``from discord.backoff
    # import ExponentialBackoff``, ``import nextcord`` <- ``import discord``:
    # ``lineage.match.imports.as_upstream_package``), or of a module below the folder the pair's
    # paths show renamed where that is no single top package (lightning 2.4.0's ``from
    # lightning.pytorch.loggers.wandb import WandbLogger`` <- pytorch-lightning 2.4.0's ``from
    # pytorch_lightning.loggers.wandb import ...``, whose wheel also holds ``lightning_fabric/``:
    # ``as_upstream_folder``; 2026-12-06, that pair +78 code lines in 18 re-export files, the
    # real cases, the truth set and the sglang/vLLM report unchanged), and the rule above
    # keeps, as it keeps a verbatim one, an import paired near that is the upstream's but for
    # that rename or the
    # order of its names (isort's ``from . import enums, utils`` <- ``from . import utils,
    # enums``, which ``fill_import_sorted_names`` pairs): such a line is the upstream import
    # unchanged but for what the rename and isort do to every file; as near lines, alone, the
    # lone-line rule dropped them. 0: verbatim imports only.
    lone_placed_import_variants: int = knob(1, 0, 1)
    # With 1, when the target tree and an upstream tree differ in exactly one top-level name each
    # (``lineage.match.imports.tree_rename``), that is the renamed package for every target file
    # (the import rules above, ``near_imports_same_module``): ssh 1.8.0's demos and tests write
    # ``import ssh`` where paramiko 1.8.0's wrote ``import paramiko``, but paramiko's sdist holds
    # ``demos/``, ``test.py`` and ``setup_helper.py`` beside ``paramiko/``, so which of its four
    # names was renamed went untold and the 12 imports were ``none``. 0: the target file's own top
    # package against the upstream's one top-level name only.
    import_tree_rename: int = knob(1, 0, 1)
    # With 1, in such a pair (the file's later version, linked by its content), a ``def`` header
    # paired near with the upstream header of the same name, which each file defines once, is
    # evidence on its own: the method's later signature (annotations added, parameters edited:
    # ``def sync_template(self, guild_id: Snowflake, code: str) -> ...`` <- ``def
    # sync_template(self, guild_id, code):``), not a generic line placed by position; 0: off.
    lone_placed_headers: int = knob(1, 0, 1)
    # With 1, a lone verbatim line that is the last code line of a ``def``'s body, paired with the
    # last code line of an upstream ``def``'s body, is continued by the function it ends when the
    # two headers are paired with each other and another line of the body (not brackets alone, nor
    # an exploded header's parameter line) is paired inside that upstream body: a copied function
    # whose middle was edited keeps its ``return None``, its neighbour's partner moved up past the
    # branches the target left out (sglang's multimodal ``fp8.py`` ``get_quant_method`` <- vLLM's,
    # which added the MoE and KV-cache branches before its last line). 0: off.
    lone_def_ends: int = knob(1, 0, 1)
    # -- second copies (second_copies.py): a near line whose upstream line the same target file
    # also holds verbatim elsewhere is the file's own second, edited copy, not a copy from the
    # upstream; 0 turns the rule off.
    second_copy_rule: int = knob(1, 0, 1)
    # With 1, a unit (consecutive paired lines naming one upstream line, which the rule leaves
    # alone: the pieces of one re-wrapped statement) lies inside one statement: nextcord's
    # ``self._stickers.pop(sticker.id, None)``, two lines below the verbatim
    # ``self._emojis.pop(emoji.id, None)`` it was written from, was one unit with it, the
    # unpaired ``for`` between them skipped. 0: consecutive paired lines, whatever lies between.
    second_copy_statement_units: int = knob(1, 0, 1)
    # With 1, after the fill also a near line (a one-line statement) whose upstream line another
    # line of the same outermost function names too, that one on the longest in-order chain of
    # the file's lines paired with the upstream file and this one off it: the function's own
    # second copy of a block it kept (requests' SHA-256 and SHA-512 blocks of
    # ``build_digest_header``, written from its MD5 and SHA blocks). Not across functions: a
    # method written from another (a fork's ``VoiceChannel.purge`` from ``TextChannel.purge``)
    # is a copy by git blame. 0: off.
    second_copy_off_chain: int = knob(1, 0, 1)
    # With 1 the rule runs before the fill as well as after it: a line a region paired near by
    # its abstract form with the line above its own (``self._private_channels_by_user.pop(...)``
    # opposite ``self._private_channels.pop(...)``, which the line above holds verbatim) is
    # unpaired before the fill, which then pairs it with the upstream line it edits; after the
    # fill only, it stayed none. The fill never pairs an upstream line twice, so it makes no
    # second copy of its own. 0: after the fill only.
    second_copy_before_fill: int = knob(1, 0, 1)
    # With 1, before the fill a new top-level class whose only pairs with an upstream class are
    # comment or docstring lines the target's class of that name holds too is blocked from that
    # upstream file, so the fill aligns the upstream class with the class of its name
    # (``lineage.match.class_names``: nextcord's ``PartialAppInfo``, written from ``AppInfo``,
    # took ``AppInfo``'s slots and ``__init__``). 0: off.
    class_name_yield: int = knob(1, 0, 1)
    # With 1, after the fill a ``def`` or ``class`` header paired near with an upstream header of
    # another name, while more of its definition's lines (code lines first) pair into an
    # upstream definition of its own name, is paired with that one's header, its decorators with
    # that one's (``lineage.match.class_names.headers_follow_bodies``: flask 3.0.3's ``class
    # MethodView(View):`` was near 0.12's ``class MethodViewType(type):``, its docstring 0.12's
    # MethodView's). Measured 2026-12-06 (against 0): sglang/vLLM copied code lines of marked
    # files -4 (headers that moved, then stood alone), truth set P/R unchanged, upstream-line
    # accuracy 0.923 -> 0.926; real cases' tp/fp/fn the same (fork upstream line 0.9903 ->
    # 0.9906); synthetic suite: click/dedent_methods +1 true copy, every other case the same.
    header_follows_body: int = knob(1, 0, 1)
    # -- identical twins (identical_twins.py): a near line paired alone gives its upstream line
    # to the one free line identical to it between the same two paired lines (a swapped or
    # inserted line took the upstream line's place); run before and after the fill. 0: off.
    identical_twin_rule: int = knob(1, 0, 1)
    # With 1, a ``def`` header paired near with an upstream header of another name (the name
    # defined once in each file) gives the upstream line to its identical free twin anywhere in
    # the file, not only in its stretch: a definition's place is its name (requests'
    # ``iterkeys``, added above ``keys``, took the old ``def keys(self):``). 0: the stretch only.
    identical_twin_headers: int = knob(1, 0, 1)
    # -- repeats (repeats.py): free code lines that repeat, line for line at one distance, lines of
    # the same file paired with one upstream file in order (a copied block written out again for a
    # second class: nextcord's ``create_webhook`` signature in three channel classes, the
    # ``@overload`` declarations above ``command`` and ``group``) are paired as their twins are.
    # At least this many lines (0: off) ...
    repeat_min_lines: int = knob(3, 0)
    # ... at most this many content lines between two of them (lines the second copy edited) ...
    repeat_max_gap: int = knob(2, 0)
    # ... and at least this many of them evidence on their own (the lone-line rule's test:
    # ``except KeyError:`` / ``pass`` / ``else:`` of another ``try`` is no repeat).
    repeat_min_evidence: int = knob(1, 0)
    # With 1, only in functions of one name, not a dunder (the method written again for another
    # class, an ``@overload`` above its definition): nextcord's new functions repeat the lines of
    # its own re-wrapped copies (a ``Route(...)`` call, a signature's parameters), which blame
    # calls new (the first draft, without it: fork +120 true copies, +353 false). 0: any.
    repeat_same_name: int = knob(1, 0, 1)
    # Its lines belong to at least this many statements: one signature re-wrapped over lines
    # (``def forward(`` / ``self,`` / ``hidden_states: torch.Tensor,`` of another class, an
    # ``@overload`` of a signature) is a shape many methods share, not a block; 1: any.
    repeat_min_statements: int = knob(2, 1)
    # -- near-identical files (near_identical.py): a target file that follows one upstream file
    # over nearly all its lines, in order, is one whole-file candidate even when no line of it is
    # distinctive (a moved ``__init__.py`` of short re-export lines, its import renamed). 0: off.
    near_file_rule: int = knob(1, 0, 1)
    near_file_min_lines: int = knob(10, 1)  # content lines the target file holds at least
    near_file_max_form_files: int = knob(8, 1)  # a code form in more upstream files names no file
    # share of each file's content lines the in-order alignment by abstract form pairs
    near_file_min_coverage: float = knob(0.9, 0.5, 1.0)
    # share of the target file's content lines paired with the same normal form (the rest may
    # differ in names and literals; a file of the same shape but other words is not taken)
    near_file_min_same: float = knob(0.5, 0.0, 1.0)
    # -- recorded identical files (claims.recorded_identical_files): a target file a vendoring
    # record pins to this upstream, byte-identical to the upstream file at its own place
    # (``pip/_vendor/idna/package_data.py`` <- ``idna/package_data.py``), is copied whole however
    # small: the record and the place are the evidence a one-line version file cannot give
    # itself (it stayed ``none``, below a region's weight). 0: off.
    recorded_identical_rule: int = knob(1, 0, 1)
    # -- upstream-file origin (origin.py)
    # Folders (any path component, case-insensitive, comma-separated) that hold code a project
    # carries from elsewhere: an upstream file inside one is third-party code, named after the
    # component that follows ("vllm/third_party/pynvml.py" -> pynvml). ``_vendored`` (pandas 1.x's
    # typing_extensions) and ``vendored_packages`` (pytest 2.8's pluggy) name such folders too.
    # Each name is read with and without a leading underscore (a private folder, the same folder:
    # ``vendor_folder_names``), so ``vendored_packages`` covers py 1.8.1's ``_vendored_packages``
    # and ``third_party`` a ``_third_party``.
    vendor_folders: str = knob("third_party,thirdparty,3rdparty,_vendor,vendor,vendored,_vendored,"
                               "vendored_packages,external,extern")
    # With 1, a target file that sits in one of those folders at the upstream file's own path
    # (``pip/_vendor/rich/filesize.py`` <- rich's ``rich/filesize.py``) says by its place that it
    # is a copy of that upstream: what it shares with a third-party upstream file (rich's
    # filesize.py says it was "Borrowed from" pyfilesystem2) counts as copied from the upstream,
    # as a marker naming the upstream would make it (lineage.match.origin.vendored_root); and a
    # vendored copy of the upstream's generated version file was copied, not generated again. On
    # the real vendored case (pip 24.2's _vendor against its pins, 2026-12-04) it turns 91 code
    # lines of three such files from shared into copied, as the vendoring truth says (recall
    # 0.9985 -> 0.9998); the sglang/vLLM report is unchanged. 0: only markers exempt (and the
    # place rule below: since it came, 2026-12-05, a vendored copy's path ends with the upstream
    # file's, so it is exempted by its place too unless that knob is 0 as well; this one alone
    # still decides the generated-version-file case, which the place rule does not touch).
    origin_vendored_path_exempts: int = knob(1, 0, 1)
    # With 1, a target file that stands where the upstream file stands (the same relative path,
    # ``lineage.match.same_paths``, or the same below a folder rename the whole tree shows,
    # ``lineage.match.renames``: a fork's or a later version's file) is that file's later version
    # and took its code via the upstream: what it shares with a third-party upstream file counts
    # as copied, as in a vendored copy above: rich 13.7.1's ``filesize.py`` against rich 10.0.0 is
    # rich's file, whatever rich took from pyfilesystem2 (its header says "Borrowed from"), and so
    # is its ``syntax.py``, whose header names pygments. The generated-file rule
    # keeps its own test: two versions of one project each generate their ``_version.py``.
    # Only for an upstream file inside one of the upstream's own packages (not ``tests/`` or
    # ``docs/``: two unrelated projects share such paths) and set apart by its own header (rules 3 and 4 of
    # ``lineage.match.origin``), not by its folder (rules 2 and 5): a target folder standing where
    # a vendored one stands is a copy of the same third party (sglang's ``flash_attn/cute/`` below
    # vLLM's ``third_party/tml_fa4/``, a folder rename by its files' votes: 14,924 code lines on
    # the sglang/vLLM pair were credited to vLLM by a first version without this limit).
    # Measured 2026-12-05: rich 13.7.1 against 10.0.0, 578 more copied code lines (syntax.py 545,
    # filesize.py 33); the real cases and the sglang/vLLM report unchanged. Not reached: pypdf
    # 4.3.1's ``pagerange.py`` against PyPDF2 1.26.0's (a contributor's copyright), as the tree,
    # restructured since, shows no rename of ``PyPDF2/`` to ``pypdf/``.
    # 0: only markers and vendored copies exempt.
    origin_same_place_exempts: int = knob(1, 0, 1)
    # A file's header, where an origin statement counts for the whole file: its lines before the
    # first def/class, at most this many (an "Adapted from" above one function further down
    # speaks for that function only, and is not read as the file's origin).
    origin_header_lines: int = knob(40, 1)
    # With 1, a comment block that runs straight into the first def/class (no blank line between)
    # below the module's code heads that def/class, as it would further down, not the file: gym
    # 0.26.2's normalize.py opens its RunningMeanStd class, below the imports, with "# taken from
    # .../baselines/.../vec_normalize.py", and its own NormalizeObservation / NormalizeReward
    # wrappers were set apart as baselines' code with it (origin.heading_comment_start). 0: the
    # header runs to the first def/class.
    origin_header_def_comment: int = knob(1, 0, 1)
    # With 1, an origin marker further down an own upstream file (naming the target, or another
    # project's repository by URL) sets apart its section, the def/class holding it or the lines
    # from it to the end of the next one (lineage.match.origin.file_sections): vLLM 0.32's
    # fused_moe.py says two functions came from an sglang pull request, system_utils.py and
    # network_utils.py that a helper each came from sglang 0.4.1. 0: such markers are not read.
    origin_sections: int = knob(1, 0, 1)
    # With 1, a section's marker that is a comment inside a def/class speaks for what it heads:
    # the def/class right below it, else its paragraph (up to the next blank line; a paragraph of
    # comments alone: to the end of the def); at the head of a body, or a docstring, the def
    # holding it (origin._marker_span: transformers' pytest-adapted 15-line block set apart
    # diffusers' copy of its whole 130-line function). 0: the innermost def/class holding it.
    origin_section_paragraphs: int = knob(1, 0, 1)
    # With 1, a section's comment marker outside any def/class, in a comment block standing apart
    # from the code below it (a blank line between), whose source pins no line, heads a part of
    # the module: to the next comment outside any def/class, or the end of the file
    # (origin._heading_span: pandas 2.2.3's accessor.py, "Ported with modifications from xarray",
    # spoke for CachedAccessor alone, and xarray's _register_accessor counted as copied from
    # pandas). 0: the lines from it to the end of the next def/class.
    origin_section_headings: int = knob(1, 0, 1)
    # With 1, a marker below a target file's header that names the upstream (so that what the
    # file shares with a third party's upstream file was taken via the upstream:
    # lineage.match.gate.marker_scope) speaks at most up to the next top-level class after the
    # top-level definition it sits in or heads, not on to the next column-0 comment or the end of
    # the file. sglang 0.5.23's fla/fused_recurrent.py, flash-linear-attention's by its header,
    # says "# Adapted from vllm project." above the packed-decode kernels vLLM added to its fla
    # copy (vllm/third_party/flash_linear_attention/); no column-0 comment follows for 680 lines,
    # so fla's own FusedRecurrentFunction class and fused_recurrent_gated_delta_rule below them
    # (125 code lines) counted as taken via vLLM. Measured 2026-12-07 (round prec170): main job
    # 151 rows of lines.csv copied -> shared third-party, those 125 and 26 of transformers'
    # output_attentions/return_dict boilerplate in multimodal_gen's qwen2_5vl.py (a "Copyright
    # 2023 The vLLM team" line below the 40-line header, paired with vLLM's dots audio encoder, a
    # cybertron_alm port); truth set one false copy out, none of its copies. 0: to the next
    # column-0 comment.
    origin_section_class_stop: int = knob(1, 0, 1)
    # With 1, a section's marker that says its code was copied or taken ("copied from", "stolen
    # from", "borrowed from": not "adapted from" or "based on", which name an API the code follows)
    # from a module of Python's standard library, named without a URL ("all code within this
    # function is stolen from shutil.which implementation", pip 24.2's auth.py), sets the section
    # apart as third-party code, "Python standard library" (origin.file_sections): setuptools
    # 72.1.0's distutils took the same CPython code, and its lines counted as copied from pip. 0:
    # a module named without a URL sets nothing apart below the header.
    origin_stdlib_sections: int = knob(1, 0, 1)
    # With 1, when the third party an upstream file is taken from is itself an upstream of the run
    # (a further --upstream), the lines the target shares with that file whose normal form the
    # third party holds nowhere are the upstream's own, copies from it; the others stay shared
    # third-party code. A user test: sglang 0.4.1's qwen2.py against vLLM 0.6.4 (whose qwen2.py
    # says "Adapted from transformers") with --upstream transformers kept all 238 shared code
    # lines set apart, vLLM's tensor-parallel code included. Not for a target file that names the
    # third party and not the upstream (seaborn's docscrape.py, numpydoc's copyright, beside scipy's
    # older copy of numpydoc's file): all it shares stays third-party. 0: the whole file stays third-party.
    origin_third_party_lines: int = knob(1, 0, 1)
    # A file whose header says nothing of its origin (no copyright, no origin marker) inherits
    # third-party origin from its folder when at least this share of the folder's files that do
    # say something are third-party by their copyright lines (another holder's), and at least
    # `origin_folder_min_files` of them are (an "Adapted from" header does not vote):
    # vendored packages named after their project (vLLM's `vllm_flash_attn/cute/`) carry a holder's
    # copyright on most files and nothing on the rest.
    origin_folder_share: float = knob(0.75, 0.5, 1.0)
    origin_folder_min_files: int = knob(3, 1)
    # With 1, only the largest group of those voters whose holders are linked (share a person or
    # organisation, "Tri Dao" and "Jay Shah, ..., Tri Dao") votes: a third party's package names
    # its authors throughout, while a folder of contributors' files, each by another holder
    # (scikit-learn 1.5.2 vs scipy 1.14: `scipy/optimize/`, whose four files with copyright lines
    # name Cooke, Roy, Gubian and Virtanen), is the upstream's own, its silent files included
    # (they went to the first holder alphabetically). 0: every voter counts, whoever it names.
    origin_folder_linked_holders: int = knob(1, 0, 1)
    # With 1, an upstream's third parties by copyright whose holders are linked (as above) are one
    # third party, named after the group's most common holder: vLLM 0.32's flash-attention files
    # name "Tri Dao" alone or with co-authors, which summary.md listed as five third parties.
    origin_third_party_linked_names: int = knob(1, 0, 1)
    # With 1, an upstream's third parties whose names are one name as PyPI compares them (case,
    # "-", "_", ".") are one, named as most of their files spell it: vLLM 0.32's "LightLLM" and
    # "lightllm", "FlashMLA" and "flashmla", "ATOM" and "atom" were separate third parties.
    origin_third_party_one_spelling: int = knob(1, 0, 1)
    # A copyright holder named by at least this share of an upstream's (or of one of its top-level
    # packages') files that name a holder is one of its own, not a third party.
    origin_own_holder_share: float = knob(0.3, 0.0, 1.0)
    # With 1, an upstream file whose header carries only other holders' copyright but also a
    # marker pointing into the upstream's own repository (a URL: "see
    # https://github.com/mstamy2/PyPDF2/blob/master/LICENSE") is the upstream's own, not a third
    # party's (origin rule 4): a contributor's file under the project's licence. pypdf 3.17.4's
    # ``pagerange.py`` against PyPDF2 1.26.0's: 60 code lines were set apart as Steve Witham's
    # third-party code. A derived / adapted / copied / based-on marker of the header naming the
    # upstream (by URL, path or name) claims it too: transformers 4.45.2's ``modeling_cohere.py``,
    # "Copyright 2024 Cohere team" above "This file is based on the LLama model definition file
    # in transformers", was a third party's, its lines copied into unsloth 2024.11.9's
    # ``cohere.py`` set apart (user122). 0: copyright lines alone decide.
    origin_own_link_claims: int = knob(1, 0, 1)
    # With 1, an upstream folder holding a licence file of another licence than the release's
    # declared one is another project's code the release carries (origin rule 2, as a vendoring
    # record; ``lineage.index.vendoring.licensed_folder_markers``), named after the folder: mypy
    # 1.13.0's ``mypy/typeshed/`` (typeshed's stubs, "Apache-2.0 AND MIT" in a MIT release) was
    # counted as mypy's own code (user108). 0: only vendoring folders and records say so.
    origin_licensed_folders: int = knob(1, 0, 1)
    # With 1, an author name the target's metadata declares too stands for the upstream (a
    # copyright line naming it marks a file) only when a copyright line of the upstream names it
    # (``lineage.api.unheld_shared_authors``; two releases of one project aside): ssh 1.8.0's
    # "Copyright (C) 2011 Jeff Forcier", written over paramiko's Robey Pointer lines, made 58 of
    # its files marked for paramiko 1.8.0, whose metadata names Jeff Forcier. 0: every declared
    # author name marks.
    marking_shared_author_held: int = knob(1, 0, 1)
    # With 1, a target file whose copyright lines name every holder of the target's root licence
    # files' copyright lines (the project notice repeated) is not marked by those lines
    # (``lineage.results.tables.without_own_notice``): celery 5.4.0's ``__init__.py`` repeats
    # celery's LICENSE, whose "Ask Solem" also holds kombu's copyright. 0: every copyright line
    # naming an upstream's holder marks.
    marking_own_notice_apart: int = knob(1, 0, 1)
    # With 1, a target file inside one of the target's own packages, in a folder named after an
    # upstream (its distribution name, which is also its top-level package, or its one top-level
    # package when the distribution's name extends it: fluidity-sm's ``fluidity``) at that upstream
    # file's own path below it, is marked by its place (kind ``folder``,
    # ``lineage.index.vendoring.folder_markers``) when no vendoring record covers it:
    # PyInstaller 6.11's ``PyInstaller/lib/modulegraph/modulegraph.py`` holds modulegraph's
    # ``modulegraph/modulegraph.py``, isort 5.13's ``isort/_vendored/tomli/_parser.py`` tomli's
    # ``tomli/_parser.py``; both releases say so only in a README or not at all, and the files
    # stood in the review list as unmarked. A folder the upstream holds at the same place below
    # its own package is its layout, carried by a renamed fork, not a copy (tf-keras 2.17's
    # ``tf_keras/api/_v1/keras/``, keras 2.15's ``keras/api/_v1/keras/``: 129 files were marked).
    # Likewise a one-module upstream vendored as one file named after it in a vendoring folder
    # (``vendor_folders``) of the target's package (pip 9.0.3's ``pip/_vendor/pyparsing.py``,
    # ``lineage.index.vendoring.module_markers``; summary.md's definition speaks of folders only).
    # 0: only markers, records and copyright lines mark.
    marking_vendored_folder: int = knob(1, 0, 1)
    # With 1, a copyright line naming the target's authors makes an upstream file ``from_target``
    # (origin rule 1) only when that holder is not also one of the upstream's own holders (as
    # rule 4 finds them: its licence files', or another main one's organisation; a main holder
    # of the same name is not enough, an upstream of the target's files names its authors): two projects of
    # one organisation share it, and it says nothing of which way code went. accelerate 1.0.1
    # against transformers 4.44.2 (both "The HuggingFace Team"): 398 transformers files were
    # taken from accelerate by that line alone, and 206 shared code lines of 8 accelerate files
    # (testing.py, imports.py, commands/env.py, ...) in no review list. 0: the line decides.
    origin_shared_holder_no_direction: int = knob(1, 0, 1)
    # A version file (``_version.py``) or a protobuf module (``*_pb2.py``, ``*_pb2_grpc.py``) is
    # generated, and shared lines of it are no evidence, when one of its first this many lines says
    # a build tool or protoc wrote it (setuptools-scm, versioneer, hatch-vcs and protoc write it on
    # line 1 or 2).
    generated_head_lines: int = knob(5, 1)
    # -- licences (results/file_licences.py; not the matcher's, but every figure's knob is here)
    # Licence headers open a file: the comments of its first lines are read for licence notices,
    # so a notice quoted deep inside a module (a docstring explaining licences) does not count.
    licence_head_lines: int = knob(120, 1)
    # A release whose licence files, NOTICE and ``__copyright__`` name no holder: the one holder
    # its files' copyright lines name is the release's, for its files that name none, when at
    # least this many files name it (``lineage.results.obligations.release_copyrights``): ply
    # 3.11's lex.py and yacc.py (David M. Beazley), its cpp.py, ctokens.py, ygen.py silent; one
    # file alone may be a copy of another project's (urllib3 1.26's six.py).
    licence_release_holder_files: int = knob(2, 1)
    # A GNU licence read from its text alone is declared in its ``-or-later`` form when every
    # own file stating a licence states that form and at least this share of the release's own
    # files holding code state it (``lineage.results.obligations.declared_or_later``): suds-jurko
    # 0.6's files all do; one file granting later versions among many silent ones speaks for
    # itself, not for the release.
    licence_or_later_min_share: float = knob(0.5, 0.0, 1.0)

    def __post_init__(self) -> None:
        check_fields(self, "matcher parameter")

    def to_dict(self) -> dict[str, float | int | str]:
        return asdict(self)

    @property
    def vendor_folder_names(self) -> frozenset[str]:
        """The folder names of ``vendor_folders``, lower case, each with and without a leading
        underscore (``_vendored_packages`` is ``vendored_packages`` made private, as ``_vendor``
        is ``vendor``): the one place a path component is read as a vendoring folder."""
        names = {n.strip().lower().lstrip("_") for n in self.vendor_folders.split(",")}
        return frozenset(form for n in names if n for form in (n, "_" + n))

    @property
    def judges_weak_pairs(self) -> bool:
        """Whether the weak-pair rule is on (``weak_pair_min_run``: 0 or 1 is off)."""
        return self.weak_pair_min_run > 1

    @property
    def weak_region_min_weight(self) -> float:
        return self.region_min_weight * self.weak_region_weight_share


def param_keys() -> list[str]:
    """Every parameter name, for ``--set`` help and errors."""
    return keys_of(MatchParams)


def params_from_settings(assignments: Sequence[str], base: MatchParams | None = None) -> MatchParams:
    """``--set KEY=VALUE`` items applied to ``base`` (defaults); LineageError on a bad item."""
    return assign(base or MatchParams(), assignments, "--set")
