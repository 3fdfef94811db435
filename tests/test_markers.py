"""Tests for lineage.markers: provenance markers in comments and docstrings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lineage.markers import MARKER_KINDS, Marker, find_markers, marker_names_upstream


def markers(src: str) -> list[Marker]:
    return find_markers(src.splitlines())


def one(src: str) -> Marker:
    found = markers(src)
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------------------------------------
# Phrase markers with URLs
# ---------------------------------------------------------------------------------------------


def test_a_phrase_whose_source_is_an_attached_file_url_after_see() -> None:
    """scipy 1.12.0's ``_lib/deprecation.py``: "taken from scikit-learn, see" above a URL into
    scikit-learn's ``validation.py``. The clause "scikit-learn" alone is no strong source; the
    attached URL to a file is (before: a bare ``url`` marker, which sets apart no section, and
    scikit-learn's own function counted as copied from scipy). A URL that points at no file (an
    issue) below prose stays prose."""
    m = one("# taken from scikit-learn, see\n"
            "# https://github.com/scikit-learn/scikit-learn/blob/1.3.0/sklearn/utils/validation.py#L38\n"
            "def f():\n    pass\n")
    assert (m.kind, m.line, m.repository, m.path) == (
        "taken_from", 1, "scikit-learn/scikit-learn", "sklearn/utils/validation.py")
    prose = markers("# chosen based on the input shape, see\n# https://github.com/org/repo/issues/12\n")
    assert [x.kind for x in prose] == []


def test_a_word_left_after_the_phrases_sentence_ends_attaches_no_next_line() -> None:
    """pexpect 4.9.0's screen.py: "Most of the methods are inspired by ANSI screen control codes.
    The" / ":class:`~pexpect.ANSI.ANSI` class extends this class": the dangling "The" starts the
    next sentence, so that line is not the phrase's source (it was attached, and the marker named
    ``pexpect.py``). A phrase whose source does run on to the next line still takes it."""
    m = one('"""Most of the methods are inspired by ANSI screen control codes. The\n'
            ':class:`~pexpect.ANSI.ANSI` class extends this class to add parsing.\n"""\n')
    assert (m.line, m.path, m.symbol) == (1, "", "")
    assert "extends" not in m.text
    joined = one("# Adapted from the\n# vllm.model_executor.layers.linear module\nx = 1\n")
    assert (joined.kind, joined.path) == ("adapted_from", "vllm/model_executor/layers/linear.py")


@pytest.mark.parametrize(("line", "copyright_line"), [
    ("COPYRIGHT NOTICE AND THIS PERMISSION NOTICE APPEAR IN ALL COPIES.", False),  # pexpect's ISC text
    ("COPYRIGHT HOLDERS AND CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT,", False),  # a wrapped BSD text
    ("Copyright and Related Rights in the Work", False),
    ("Copyright The Quillwort Authors", True),
    ("Copyright holders 2020 Sedge Ltd", True),  # a year: a statement, whatever words it uses
    ("Copyright (c) 2012, Moss Spurrier <moss@example.org>", True),
])
def test_licence_prose_opening_with_copyright_is_no_copyright_line(line: str, copyright_line: bool) -> None:
    found = [m.kind for m in markers(f'"""\n{line}\n"""\n')]
    assert found == (["copyright"] if copyright_line else [])


def test_a_copy_of_and_a_port_of_name_their_source() -> None:
    """scikit-learn 1.5.2's vendored ``_laplacian.py`` ("This file is a copy of the
    scipy.sparse.csgraph._laplacian module from SciPy 1.12") and pytest 8.3.3's ``fnmatch_ex``
    ("A port of FNMatcher from py.path.common") were unmarked. The phrase opens a clause or
    follows a known lead-in, never a generic one ("Return a copy of Config" is prose), and its
    source is a path, a URL, or a strong source after "from": transformers 4.45.2's "A copy of the
    Rotation in CUDA memory" (a method's docstring) names the object copied."""
    m = one('"""\nThis file is a copy of the scipy.sparse.csgraph._laplacian module from SciPy 1.12\n"""\n')
    assert (m.kind, m.line) == ("copied_from", 2)
    assert marker_names_upstream(m, ["scipy"])
    port = one('def f():\n    """A port of FNMatcher from py.path.common which works with PurePath() instances."""\n')
    assert port.kind == "ported_from" and marker_names_upstream(port, ["py"])
    assert one("# Mostly a copy of `glob` from Python 3.5.\n").kind == "copied_from"
    for prose in ("# Return a copy of Config with defaults\n", "# a copy of the input tensor\n",
                  "# A copy of the weights is kept\n", "# support of the ops\n",
                  '"""A copy of the Rotation in CUDA memory"""\n'):
        assert markers(prose) == [], prose


def test_a_phrase_naming_a_module_path_or_repository_is_read_after_any_lead_in() -> None:
    """xarray 2024.10.0's resample_cftime.py: "The mechanisms for resampling CFTimeIndex was copied
    and adapted from" / "the source code defined in pandas.core.resample", a subject no lead-in
    rule knew. After any lead-in a phrase of taking (not "based on", "inspired by") is read when
    its source is a URL into a repository (not to a data file), a file path of code or a module
    path of three or more parts; other sources stay prose."""
    m = one("# The mechanisms for resampling Quillwort was copied and adapted from\n"
            "# the source code defined in sedge.core.resample\n\nx = 1\n")
    assert (m.kind, m.line, m.path, m.project) == ("adapted_from", 1, "sedge/core/resample.py", "sedge")
    assert one("# Helpers for the Sedge tiles are adapted from: https://github.com/o/sedge/blob/v1/t.py\n").kind \
        == "adapted_from"
    for prose in ("# the max length derived from the model's config.json.\n",
                  "# the scale is derived from layer.weight_scale\n",
                  "# instructions are always taken from the most recent Responses API request.\n",
                  "# the defaults are taken from https://huggingface.co/sedge/quillwort-7b\n",
                  "# The schedule is based on torch.optim.lr_scheduler.StepLR\n"):
        assert markers(prose) == [], prose


def test_an_adaptation_of_names_its_source() -> None:
    """xarray 2024.10.0's accessor_str.py: "The StringAccessor class defined below is an adaptation
    of the" / "pandas string methods source code (see pd.core.strings)". Judged as "a copy of"."""
    m = one("# The Quillwort class defined below is an adaptation of the\n"
            "# sedge string methods source code (see sd.core.strings)\n\nx = 1\n")
    assert (m.kind, m.line, m.path) == ("adapted_from", 1, "sd/core/strings.py")
    assert marker_names_upstream(m, ["sedge"])
    assert one("# This module is an adaptation of sedge/strings.py\n").kind == "adapted_from"
    for prose in ("# an adaptation of the learning rate\n", "# Return an adaptation of Config\n"):
        assert markers(prose) == [], prose


def test_a_rewriting_of_names_its_source() -> None:
    """scikit-learn 1.5.2's feature_selection/_univariate_selection.py: "The following function is a
    rewriting of scipy.stats.f_oneway" went unread, and the file's copied lines were in the review
    list. Judged as "a copy of": a module path or file is a source, prose is not."""
    m = one("# The following function is a rewriting of sedge.stats.f_twoway\n"
            "# Contrary to the sedge implementation it does not copy the data.\ndef f():\n    pass\n")
    assert (m.kind, m.line, m.path) == ("adapted_from", 1, "sedge/stats/f_twoway.py")
    assert marker_names_upstream(m, ["sedge"])
    assert one("# This module is a rewrite of sedge/strings.py\n").kind == "adapted_from"
    for prose in ("# a rewrite of the learning rate\n", "# Return a rewriting of Config\n",
                  "# the caller's opt-in rules out a later rewrite of ids or weights.\n",
                  "# TODO: a rewrite of this loop would be faster\n"):
        assert markers(prose) == [], prose


def test_a_modified_file_from_names_its_source() -> None:
    """scikit-learn 1.5.2's utils/optimize.py: "This is a modified file from scipy.optimize" went
    unread, and the lines it shares with scipy's optimize/_optimize.py were set apart as a third
    party's. Judged as "a copy of"; "a modified version of" stays unread (a description as often)."""
    m = one("# This is a modified file from sedge.optimize\n# Original authors: Ann Example\nx = 1\n")
    assert (m.kind, m.line, m.path) == ("modified_from", 1, "sedge/optimize.py")
    assert marker_names_upstream(m, ["sedge"])
    assert one("# A modified module from https://github.com/sedge/sedge/blob/v1/sedge/a.py\n").kind == "modified_from"
    for prose in ("# Write a modified file from the template\n", "# a modified file from disk\n",
                  "# This is a modified version of sedge.layers.Quill\n"):
        assert markers(prose) == [], prose


def test_code_from_opening_its_clause_names_a_source() -> None:
    """transformers 4.46.3's falcon_mamba kernel: "Original code from:
    https://github.com/state-spaces/mamba/blob/main/mamba_ssm/ops/selective_scan_interface.py" was a
    bare URL, so the file was transformers' own and vLLM's mamba_ssm.py, adapted from the same
    mamba code, shared 12 lines with it "copied from transformers". "Code from" has no verb: it
    counts opening its clause, with a URL or a module or file path; after another word ("Ref code
    from", sglang's fused_moe_native.py) or continuing a sentence it is no marker."""
    m = one("# Original code from: https://github.com/quill/sedge/blob/main/sedge/ops/scan.py\n")
    assert (m.kind, m.repository, m.path) == ("taken_from", "quill/sedge", "sedge/ops/scan.py")
    assert one('"""Code from: https://github.com/quill/sedge"""\n').kind == "taken_from"
    assert one("# Code from sedge.ops.scan_interface\n").kind == "taken_from"
    assert one("# Ref code from https://github.com/quill/sedge/blob/main/scan.py\n").kind == "url"
    for prose in ("# Code from the cache is reused here\n",
                  "# Ported Quillwort code from C++ to Python:\n",
                  "# we keep the\n# code from sedge.ops.scan_interface\n"):
        assert markers(prose) == [], prose


def test_a_todo_states_work_to_do_not_provenance() -> None:
    """xarray 2024.10.0's concat.py: "TODO: add ignore_index arguments copied from pandas.concat"
    made the file marked. A phrase opening the to-do's text is a note on the code below it (pandas
    2.2.3's test_numeric.py: "TODO: taken from tests.frame.test_operators, needs cleanup")."""
    for todo in ("# TODO: add ignore_index arguments copied from sedge.concat\n",
                 "# FIXME(moss): port the Quillwort logic adapted from sedge.core.x\n",
                 "# todo: more rate limiting based on Sedge backend performance\n"):
        assert markers(todo) == [], todo
    m = one("# TODO: taken from tests.frame.test_sedge, needs cleanup\n")
    assert (m.kind, m.path) == ("taken_from", "tests/frame/test_sedge.py")
    assert one("# TODO(moss): This file is adapted from sedge.core.ops\n").kind == "adapted_from"


def test_a_parenthesis_inside_a_sentence_qualifies_the_word_before_it() -> None:
    """xarray 2024.10.0's test_dataarray.py: "The rule (copied from pandas.Series) is keep the
    current name only if ...", a rule the test checks; vLLM 0.32.0's helion register.py: "a key
    function (derived from config_picker) that ...". A parenthesis ending the text, or one that
    opens it, still holds a marker."""
    for prose in ("# The rule (copied from sedge.Series) is keep the current name\n",
                  '"""We provide a key function (derived from config_picker) that maps"""\n'):
        assert markers(prose) == [], prose
    assert one("# (taken from sedge.core.reshape.util)\n").kind == "taken_from"
    assert one('"""Softmax step (forked from Sedge\'s softmax_step, signalling removed)."""\n').kind \
        == "derived_from"


def test_a_parenthesis_inside_a_copy_of_phrase() -> None:
    """A short parenthesis may sit inside every phrase, "a copy of" too: pandas 2.2.3's
    ``core/interchange/dataframe_protocol.py`` opens "A verbatim copy (vendored) of the spec from
    https://github.com/data-apis/dataframe-api" and was unmarked, so modin's copy of that spec
    counted as copied from pandas. Prose stays prose: the source must still be a path or URL."""
    m = one('"""\nA verbatim copy (vendored) of the spec from https://github.com/data-apis/dataframe-api\n"""\n')
    assert (m.kind, m.line, m.repository) == ("copied_from", 2, "data-apis/dataframe-api")
    assert one("# This file is a port (simplified) of lib/foo.py\n").kind == "ported_from"
    for prose in ("# Return a copy (shallow) of the config\n", "# a copy (on the GPU) of the input tensor\n"):
        assert markers(prose) == [], prose


def test_adapted_from_github_blob_url() -> None:
    m = one(
        "# Adapted from https://github.com/vllm-project/vllm/blob/v0.6.4.post1/vllm/model_executor/models/llama.py\n"
    )
    assert m.line == 1
    assert m.kind == "adapted_from"
    assert m.repository == "vllm-project/vllm"
    assert m.ref == "v0.6.4.post1"
    assert m.path == "vllm/model_executor/models/llama.py"
    assert (m.line_start, m.line_end) == (0, 0)
    assert m.text.startswith("Adapted from https://github.com/vllm-project/vllm/blob/")


def test_url_on_next_comment_line_belongs_to_marker() -> None:
    src = (
        "import torch\n"
        "\n"
        "# Adapted from\n"
        "# https://github.com/vllm-project/vllm/blob/main/vllm/attention/layer.py\n"
        "class Attention:\n"
        "    pass\n"
    )
    m = one(src)
    assert m.line == 3
    assert m.kind == "adapted_from"
    assert m.repository == "vllm-project/vllm"
    assert m.ref == "main"
    assert m.path == "vllm/attention/layer.py"
    assert m.text == ("Adapted from https://github.com/vllm-project/vllm/blob/main/vllm/attention/layer.py")


def test_url_after_prose_source_on_next_line() -> None:
    src = "# Adapted from the vLLM implementation:\n# https://github.com/vllm-project/vllm/tree/v0.5.0/vllm/lora\n"
    m = one(src)
    assert (m.kind, m.repository, m.ref, m.path) == (
        "adapted_from",
        "vllm-project/vllm",
        "v0.5.0",
        "vllm/lora",
    )


def test_colon_then_source_then_url_on_following_lines() -> None:
    src = "# Ported from:\n#   vLLM's paged attention kernel\n#   https://github.com/a/b/blob/x/k.cu\n"
    m = one(src)
    assert m.kind == "ported_from"
    assert m.line == 1
    assert (m.repository, m.ref, m.path) == ("a/b", "x", "k.cu")


def test_continuation_does_not_cross_a_blank_comment_or_code() -> None:
    src = "# Adapted from\n#\n# https://github.com/a/b/blob/main/x.py\n"
    found = markers(src)
    # "Adapted from" with nothing after it is no marker; the URL stands alone.
    assert [m.kind for m in found] == ["url"]
    assert found[0].line == 3

    src = "x = 1  # Adapted from\ny = 2\n"
    assert markers(src) == []


def test_line_range_fragment() -> None:
    m = one("# Code based on https://github.com/a/b/blob/main/src/x.py#L10-L20\n")
    assert m.kind == "based_on"
    assert (m.path, m.line_start, m.line_end) == ("src/x.py", 10, 20)


def test_single_line_fragment_and_column_fragment() -> None:
    m = one("# Taken from https://github.com/a/b/blob/abc123/x.py#L42\n")
    assert (m.kind, m.ref, m.line_start, m.line_end) == ("taken_from", "abc123", 42, 42)
    m = one("# Taken from https://github.com/a/b/blob/abc123/x.py#L3C5-L9C2\n")
    assert (m.line_start, m.line_end) == (3, 9)


def test_modified_from_with_colon_and_gitlab_url() -> None:
    m = one("# Modified from: https://gitlab.com/grp/sub/proj/-/blob/v1.2/src/a.py#L5-9\n")
    assert m.kind == "modified_from"
    assert (m.repository, m.ref, m.path) == ("grp/sub/proj", "v1.2", "src/a.py")
    assert (m.line_start, m.line_end) == (5, 9)


def test_raw_githubusercontent_urls() -> None:
    m = one("# Copied from https://raw.githubusercontent.com/o/r/v1.0/pkg/mod.py\n")
    assert (m.kind, m.repository, m.ref, m.path) == ("copied_from", "o/r", "v1.0", "pkg/mod.py")
    m = one("# Copied from https://raw.githubusercontent.com/o/r/refs/heads/dev/pkg/mod.py\n")
    assert (m.ref, m.path) == ("dev", "pkg/mod.py")


def test_repository_only_url_in_parentheses() -> None:
    m = one("# This file is derived from vLLM (https://github.com/vllm-project/vllm)\n")
    assert m.kind == "derived_from"
    assert m.repository == "vllm-project/vllm"
    assert (m.ref, m.path) == ("", "")
    assert m.text == "This file is derived from vLLM (https://github.com/vllm-project/vllm)"


def test_git_suffix_query_and_markdown_link() -> None:
    m = one("# Based on [flash-attn](https://github.com/Dao-AILab/flash-attention.git)\n")
    assert m.repository == "Dao-AILab/flash-attention"
    m = one("# Adapted from https://github.com/a/b/blob/main/c.py?plain=1#L1-L2.\n")
    assert (m.path, m.line_start, m.line_end) == ("c.py", 1, 2)


def test_schemeless_github_url() -> None:
    m = one("# adapted from github.com/sgl-project/sglang/blob/v0.3.0/python/sglang/x.py\n")
    assert (m.repository, m.ref, m.path) == ("sgl-project/sglang", "v0.3.0", "python/sglang/x.py")


def test_non_code_host_url_leaves_repository_empty() -> None:
    m = one("# Inspired by https://arxiv.org/abs/2309.06180\n")
    assert m.kind == "inspired_by"
    assert (m.repository, m.ref, m.path) == ("", "", "")


# ---------------------------------------------------------------------------------------------
# Dotted paths and replacements (HF transformers style)
# ---------------------------------------------------------------------------------------------


def test_hf_copied_from_with_replacement() -> None:
    m = one("    # Copied from transformers.models.llama.modeling_llama.LlamaRMSNorm with Llama->Mistral\n")
    assert m.kind == "copied_from"
    assert m.path == "transformers/models/llama/modeling_llama.py"
    assert m.symbol == "LlamaRMSNorm"
    assert m.replacements == (("Llama", "Mistral"),)
    assert m.repository == ""


def test_hf_replacements_comma_forms() -> None:
    base = "# Copied from transformers.models.llama.modeling_llama.LlamaMLP with "
    assert one(base + "Llama->Mistral,llama->mistral").replacements == (
        ("Llama", "Mistral"),
        ("llama", "mistral"),
    )
    assert one(base + "Llama->Mistral, LLAMA->MISTRAL").replacements == (
        ("Llama", "Mistral"),
        ("LLAMA", "MISTRAL"),
    )
    assert one(base + "Llama→Qwen2").replacements == (("Llama", "Qwen2"),)
    assert one(base + "`Llama` -> `Gemma`.").replacements == (("Llama", "Gemma"),)


def test_replacements_on_next_line() -> None:
    src = "# Copied from transformers.models.bert.modeling_bert.BertSelfOutput\n# with Bert->Roberta\n"
    m = one(src)
    assert m.symbol == "BertSelfOutput"
    assert m.replacements == (("Bert", "Roberta"),)


def test_dotted_class_path() -> None:
    m = one("# Copied from vllm.model_executor.layers.rotary_embedding.RotaryEmbedding\n")
    assert m.kind == "copied_from"
    assert m.path == "vllm/model_executor/layers/rotary_embedding.py"
    assert m.symbol == "RotaryEmbedding"


def test_dotted_method_and_function_paths() -> None:
    m = one("# Copied from transformers.models.llama.modeling_llama.LlamaAttention.forward\n")
    assert (m.path, m.symbol) == (
        "transformers/models/llama/modeling_llama.py",
        "LlamaAttention.forward",
    )
    # All lower case: the dotted name is taken as a module path.
    m = one("# Copied from transformers.models.llama.modeling_llama.rotate_half\n")
    assert (m.path, m.symbol) == ("transformers/models/llama/modeling_llama/rotate_half.py", "")


def test_dotted_path_in_backticks_in_docstring() -> None:
    src = 'def f():\n    """Copied from `vllm.sampling_params.SamplingParams`."""\n'
    m = one(src)
    assert (m.line, m.kind, m.path, m.symbol) == (
        2,
        "copied_from",
        "vllm/sampling_params.py",
        "SamplingParams",
    )


def test_file_path_source() -> None:
    m = one("# Borrowed from vllm/model_executor/layers/sampler.py\n")
    assert (m.kind, m.path, m.symbol) == ("taken_from", "vllm/model_executor/layers/sampler.py", "")


# ---------------------------------------------------------------------------------------------
# Prose sources and lead-ins
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("comment", "kind"),
    [
        ("# Adapted from vLLM", "adapted_from"),
        ("# adapted from vllm", "adapted_from"),
        ("# ADAPTED FROM vLLM", "adapted_from"),
        ("# Adopted from vLLM's llama implementation", "adapted_from"),
        ("# ported from vllm's sampler", "ported_from"),
        ("# This file is backported from Python 3.5 http built-in module.", "ported_from"),
        ("# Derived from vLLM 0.32.0", "derived_from"),
        ("# Forked from FlashInfer", "derived_from"),
        ("# Vendored from https://github.com/a/b/blob/main/c.py", "copied_from"),
        ("# Borrowed from HuggingFace transformers", "taken_from"),
        ("# Mostly taken from PyTorch", "taken_from"),
        ("# Partially copied from SGLang", "copied_from"),
        ("# Originally adapted from vLLM", "adapted_from"),
        ("# Heavily inspired by FlashAttention", "inspired_by"),
        ("# Code based on vLLM", "based_on"),
        ("# Some code borrowed from DeepSpeed", "taken_from"),
        ("# Implementation based on the reference implementation", "based_on"),
        ("# This file is based off of vLLM", "based_on"),
        ("# This is based upon the TensorRT-LLM code", "based_on"),
        ("# This code was originally derived from Megatron-LM", "derived_from"),
        ("# Parts of this file are adapted from vLLM", "adapted_from"),
        ("# This file contains code copied from SGLang", "copied_from"),
        ("# The following code is adapted from xformers' implementation", "adapted_from"),
        ("# Copied and modified from vLLM", "modified_from"),
        ("# Adapted (with changes) from LightLLM", "adapted_from"),
        ("# Adapted with minor changes from vLLM", "adapted_from"),
        ("# NOTE(woosuk): This is adapted from the vLLM codebase.", "adapted_from"),
        ("# Weight loading adapted from vLLM", "adapted_from"),
        ("# Implementation of RoPE adapted from GPT-NeoX", "adapted_from"),
        ("# - Adapted from vLLM", "adapted_from"),
        ("#: Adapted from vLLM", "adapted_from"),
    ],
)
def test_real_world_spellings(comment: str, kind: str) -> None:
    m = one(comment + "\n")
    assert m.kind == kind
    assert m.line == 1


@pytest.mark.parametrize(
    "comment",
    [
        "    # Copy-pasted from transformers.Trainer to maintain compatibility with earlier versions.",
        "# copy pasted from transformers.Trainer",
        "# Copypasted from transformers.Trainer",
        "# copy-paste from transformers.Trainer",
        "# Copy-and-pasted from transformers.Trainer",
        "# copy & pasted from transformers.Trainer",
    ],
)
def test_copy_pasted_from_is_copied_from(comment: str) -> None:
    """An invented trainer says "Copy-pasted from transformers.Trainer" above a method taken
    from it (as trl 0.12.1's ``online_dpo_trainer.py`` does): before, no marker, and the file
    sat in the unmarked review list though it names its upstream."""
    m = one(comment + "\n")
    assert (m.kind, m.project, m.symbol) == ("copied_from", "transformers", "Trainer")


@pytest.mark.parametrize(
    "comment",
    [
        "# copy pasted from the cache",
        "# straight copy paste from above",
        "# Most of the code is copy pasted from the original repository",
    ],
)
def test_copy_pasted_from_needs_a_source(comment: str) -> None:
    """Judged like "copied from": a strong source, so prose stays prose."""
    assert markers(comment + "\n") == []


@pytest.mark.parametrize(
    ("comment", "kind"),
    [
        ("        # Duplicate logic from Acmeval to filter config kwargs because if they are", "copied_from"),
        ("# Duplicated from Acmeval", "copied_from"),
        ("# This function is duplicated from acmeval.utils.text", "copied_from"),
        ("# copied code from Acmeval", "copied_from"),
        ("# Taken the logic from Acmeval", "taken_from"),
        ("# Adapted this implementation from acmeval/fields.py", "adapted_from"),
    ],
)
def test_duplicated_and_code_object_phrases(comment: str, kind: str) -> None:
    """An invented model class says "Duplicate logic from Acmeval to filter config kwargs" above
    a filter taken from Acmeval's metaclass (as sqlmodel 0.0.22's ``main.py`` says of pydantic):
    before, no marker, and the file sat in the unmarked review list though it names its upstream.
    "duplicated from" is "copied from"; a taking verb (or the adjective "duplicate") may name the
    code it took before "from"."""
    m = one(comment + "\n")
    assert (m.kind, m.project.lower()) == (kind, "acmeval")


@pytest.mark.parametrize(
    "comment",
    [
        "# Copy code from smem to registers",  # the imperative "copy" is an instruction
        "# duplicate code from the cache",  # no source named
        "# remove duplicate logic from the loop",
        "# we removed the duplicate code from Acmeval",  # a sentence, not a note on the code below
        "# Mutex checks duplicated from the public-wrapper layer (gated_rule) so callers fail fast",
    ],
)
def test_duplicated_phrases_need_a_source(comment: str) -> None:
    """Judged as the verb alone is: a strong source, and no lead-in that makes it a sentence."""
    assert markers(comment + "\n") == []


def test_hf_style_header_based_on() -> None:
    src = (
        "# Copyright 2022 EleutherAI and the HuggingFace Inc. team. All rights reserved.\n"
        "#\n"
        "# This code is based on EleutherAI's GPT-NeoX library and the GPT-NeoX\n"
        "# and OPT implementations in this library. It has been modified from its\n"
        "# original forms to accommodate minor architectural differences compared\n"
        "# to GPT-NeoX and OPT used by the Meta AI team that trained the model.\n"
    )
    found = markers(src)
    assert [(m.line, m.kind) for m in found] == [(1, "copyright"), (3, "based_on")]


def test_marker_after_sentence_in_docstring() -> None:
    src = '"""Inference-only LLaMA model compatible with HuggingFace weights. Adapted from vLLM."""\nimport torch\n'
    m = one(src)
    assert (m.line, m.kind, m.text) == (1, "adapted_from", "Adapted from vLLM.")


def test_marker_inside_multiline_docstring() -> None:
    src = (
        "class Sampler:\n"
        '    """Samples the next tokens.\n'
        "\n"
        "    This sampler is heavily based on vLLM's Sampler\n"
        "    (https://github.com/vllm-project/vllm/blob/v0.4.0/vllm/model_executor/layers/sampler.py).\n"
        '    """\n'
    )
    # "This sampler is" is a known lead-in; the URL on the next docstring line is attached.
    m = one(src)
    assert m.line == 4
    assert m.kind == "based_on"
    assert (m.repository, m.ref) == ("vllm-project/vllm", "v0.4.0")
    assert m.path == "vllm/model_executor/layers/sampler.py"


def test_marker_in_parenthesis() -> None:
    m = one("# Paged attention kernel (adapted from vLLM).\n")
    assert m.kind == "adapted_from"
    assert m.text == "adapted from vLLM)."


def test_trailing_comment_after_code() -> None:
    src = "x = rms_norm(h)  # Copied from vllm.model_executor.layers.layernorm.RMSNorm\n"
    m = one(src)
    assert (m.kind, m.symbol) == ("copied_from", "RMSNorm")


def test_wrapped_prose_line_is_not_a_marker() -> None:
    src = (
        "def to_rgba(x):\n"
        '    """Return RGBA colours; scalars are mapped\n'
        "    based on the norm and colormap set for this Colorizer.\n"
        '    """\n'
    )
    assert markers(src) == []
    # A capitalised line or a strong source still counts after an unfinished line.
    assert [m.kind for m in markers("# Helpers\n# Adapted from vLLM\n")] == ["adapted_from"]
    src = "# Helpers\n# adapted from https://github.com/a/b/blob/main/c.py\n"
    assert [m.kind for m in markers(src)] == ["adapted_from"]


def test_single_quoted_docstring_and_comment_after_docstring() -> None:
    assert one("def f():\n    'Adapted from vLLM.'\n").line == 2
    assert markers("x = (\n    'Adapted from vLLM.'\n)\n") == []
    m = one('"""Module docs."""  # Derived from SGLang\n')
    assert (m.kind, m.text) == ("derived_from", "Derived from SGLang")


def test_known_lead_in_with_here() -> None:
    assert one("# The logic here is taken from Megatron-LM\n").kind == "taken_from"
    assert one("# Adapted & modified from SGLang\n").kind == "modified_from"


def test_class_dotted_path_fills_symbol_only() -> None:
    m = one("# Modified from Axis.set_ticks\n")
    assert (m.kind, m.path, m.symbol) == ("modified_from", "", "Axis.set_ticks")


def test_directory_path_needs_another_source() -> None:
    assert markers("# Normalizes location based on axis min/default/max values\n") == []
    m = one("# Adapted from vllm/model_executor/layers\n")
    assert m.path == "vllm/model_executor/layers"


def test_a_bare_url_to_a_document_is_no_marker() -> None:
    """langchain-community's kdbai.py links an example notebook in a fork's repository: a
    reference for the reader, not where the code came from. A file of code still is one."""
    assert markers('    See the example [notebook](https://github.com/acme/up/blob/main/docs/kdbai.ipynb).\n') == []
    assert markers("# https://github.com/acme/up/blob/main/README.md\n") == []
    assert one("# https://github.com/acme/up/blob/main/up/kdbai.py#L3\n").kind == "url"
    # a phrase marker naming a document is left as it was (it says where the code came from)
    assert one("# Adapted from https://github.com/acme/up/blob/main/docs/example.ipynb\n").kind == "adapted_from"


def test_self_hosted_gitlab() -> None:
    m = one("# https://gitlab.freedesktop.org/a/b/-/blob/main/c.py#L3\n")
    assert (m.kind, m.repository, m.ref, m.path) == ("url", "a/b", "main", "c.py")
    assert (m.line_start, m.line_end) == (3, 3)


def test_tool_pragmas_are_not_part_of_the_text() -> None:
    m = one("# Adapted from https://github.com/a/b/blob/main/c.py  # noqa: E501\n")
    assert m.text == "Adapted from https://github.com/a/b/blob/main/c.py"


def test_long_text_is_one_line_and_bounded() -> None:
    m = one("# Adapted from vLLM " + "and more words " * 40 + "\n")
    assert len(m.text) <= 200
    assert "\n" not in m.text


def test_two_markers_on_one_line_in_order() -> None:
    found = markers("# Adapted from vLLM. Copied from SGLang.\n")
    assert [(m.kind, m.text) for m in found] == [
        ("adapted_from", "Adapted from vLLM."),
        ("copied_from", "Copied from SGLang."),
    ]


# ---------------------------------------------------------------------------------------------
# Bare URLs, SPDX, copyright
# ---------------------------------------------------------------------------------------------


def test_bare_repository_file_url() -> None:
    m = one("# https://github.com/vllm-project/vllm/blob/v0.6.0/vllm/utils.py#L100-L120\n")
    assert m.kind == "url"
    assert (m.repository, m.ref, m.path) == ("vllm-project/vllm", "v0.6.0", "vllm/utils.py")
    assert (m.line_start, m.line_end) == (100, 120)


def test_a_phrase_speaks_for_the_sources_listed_below_it() -> None:
    # sglang 0.5.23's chatglm.py: "Adapted from" over a project URL and a file URL, one per line.
    found = markers("# Adapted from\n# https://github.com/acme/chat-model\n"
                    "# https://github.com/acme/engine/blob/main/engine/configs/chat.py\n\nimport os\n")
    assert [(m.line, m.kind, m.repository) for m in found] == [
        (1, "adapted_from", "acme/chat-model"), (3, "adapted_from", "acme/engine")]
    assert found[1].path == "engine/configs/chat.py"
    assert found[1].text == "Adapted from … https://github.com/acme/engine/blob/main/engine/configs/chat.py"
    # causal_conv1d_triton.py: a second source after "and" on the next line
    found = markers("# Adapted from https://github.com/kernels/conv/blob/main/conv/interface.py\n"
                    "# and https://github.com/acme/engine/blob/main/engine/ops/conv.py\n")
    assert [(m.kind, m.repository, m.path) for m in found] == [
        ("adapted_from", "kernels/conv", "conv/interface.py"), ("adapted_from", "acme/engine", "engine/ops/conv.py")]
    assert found[1].text.startswith("Adapted from … and https://")


def test_a_url_line_saying_more_than_a_source_is_not_listed_under_the_phrase() -> None:
    found = markers("# Adapted from https://github.com/a/b/blob/main/c.py\n"
                    "# https://github.com/d/e/blob/main/f.py explains the trick\n")
    assert [(m.kind, m.repository) for m in found] == [("adapted_from", "a/b"), ("url", "d/e")]
    # nor one after a blank comment line: a new paragraph
    found = markers("# Adapted from https://github.com/a/b/blob/main/c.py\n#\n"
                    "# https://github.com/d/e/blob/main/f.py\n")
    assert [(m.kind, m.repository) for m in found] == [("adapted_from", "a/b"), ("url", "d/e")]


def test_originally_from_after_a_known_lead_in() -> None:
    # gym 0.26.2's env_checker.py names where the whole file came from
    m = one("# This file is originally from the Gadget Baselines repository (https://github.com/acme/gadget-baselines/)\n")
    assert (m.kind, m.project) == ("taken_from", "gadget-baselines")
    # an aside, a clause of its own, or a weak source: no marker
    assert markers("    # the fp8 gemm (originally from GemmKit) is used here\n") == []
    assert markers("# Originally from numpy\n") == []
    assert markers("# This value is originally from the config\n") == []


def test_bare_urls_that_are_not_files_are_ignored() -> None:
    assert markers("# See https://github.com/vllm-project/vllm/issues/1234\n") == []
    assert markers("# https://github.com/vllm-project/vllm\n") == []
    assert markers("# https://docs.python.org/3/library/re.html\n") == []


def test_bare_gitlab_and_raw_urls() -> None:
    m = one("# see https://gitlab.com/a/b/-/raw/main/c/d.py for details\n")
    assert (m.kind, m.repository, m.ref, m.path) == ("url", "a/b", "main", "c/d.py")
    m = one("# https://raw.githubusercontent.com/a/b/main/c.py\n")
    assert (m.kind, m.repository, m.path) == ("url", "a/b", "c.py")


def test_url_survives_rejected_phrase() -> None:
    m = one("# based on the input shape, see https://github.com/a/b/blob/main/c.py\n")
    assert m.kind == "url"


def test_spdx_licence() -> None:
    m = one("# SPDX-License-Identifier: Apache-2.0\n")
    assert (m.kind, m.licence, m.text) == (
        "spdx",
        "Apache-2.0",
        "SPDX-License-Identifier: Apache-2.0",
    )
    m = one("# SPDX-License-Identifier: Apache-2.0 OR MIT\n")
    assert m.licence == "Apache-2.0 OR MIT"
    m = one('"""SPDX-License-Identifier: MIT"""\n')
    assert (m.kind, m.licence) == ("spdx", "MIT")


@pytest.mark.parametrize(
    "comment",
    [
        "# Copyright 2024 The vLLM team.",
        "# SPDX-FileCopyrightText: Copyright contributors to the vLLM project",
        "# Copyright (c) Microsoft Corporation.",
        "# Copyright (c) 2023, NVIDIA CORPORATION. All rights reserved.",
        "# © 2023 Meta Platforms, Inc.",
        "# copyright contributors to the SGLang project",
        "# Copyright: The Authors",
        "# Portions Copyright 2009 Bo Reed",
        "# Portions (c) 2009 by Bo Reed.",
    ],
)
def test_copyright(comment: str) -> None:
    m = one(comment + "\n")
    assert m.kind == "copyright"
    assert m.text == comment[2:]


def test_a_copyright_line_of_years_alone_takes_its_holders_from_the_lines_below() -> None:
    """ply 3.11's lex.py: "Copyright (C) 2001-2018" / "David M. Beazley (Dabeaz LLC)" / "All rights
    reserved.": the holder is on the next line (the marker named nobody, and an attribution drawn
    from it credited "Copyright (C) 2001-2018"); configobj lists its holders one per line below a
    legend. The statement stops at licence prose, a blank line or another marker, and takes no
    line that names no one."""
    from lineage.licences.notices import holder

    m = one("# Copyright (C) 2001-2019\n# Wendel Q. Marsh (Marsh Works LLC)\n# All rights reserved.\n#\n"
            "# Redistribution and use in source and binary forms\n")
    assert m.text == "Copyright (C) 2001-2019 Wendel Q. Marsh (Marsh Works LLC)"
    assert holder(m.text) == "wendel q. marsh marsh works llc"
    m = one("# Copyright (C) 2005-2014:\n# (name) : (email)\n# Ada Quill: ada AT example DOT org\n"
            "# Bo Reed: bo AT example DOT org\n\nimport os\n")
    # the legend of its columns, every word a placeholder, is no holder (user82's leftover)
    assert m.text == "Copyright (C) 2005-2014: Ada Quill: ada AT example DOT org Bo Reed: bo AT example DOT org"
    # nothing to take: licence prose, a blank comment line, lower-case prose, a holder on the line
    for src in ("# Copyright (C) 2007\n# All rights reserved\n", "# Copyright 2024\n#\n# Wendel Marsh\n",
                "# Copyright (c) 2020\n# Licensed under the Apache License, Version 2.0\n",
                "# Copyright (c) 2020\n# see below\n", "# Copyright 2020 Wendel Marsh\n# Bo Reed\n"):
        assert one(src).text == src.split("\n")[0][2:], src
    # a code line's trailing comment takes nothing from the lines below, nor does a docstring (plain
    # text: licence files, read as docstrings, are read by lineage.licences.declared)
    assert one("x = 1  # Copyright (c) 2020\n# Wendel Marsh\n").text == "Copyright (c) 2020"
    assert one('"""\nCopyright (c) 2020\nWendel Marsh\n"""\n').text == "Copyright (c) 2020"


def test_a_portions_line_in_the_sign_form_is_a_copyright_line() -> None:
    """IPython 8.28.0's lib/pretty.py docstring (vendored by hypothesis 6.115.5): ":copyright: 2007
    by Armin Ronacher." / "Portions (c) 2009 by Robert Kern."; the second holder went unread, so
    the obligations listed one upstream holder of two."""
    src = '"""Pretty printer.\n\n:copyright: 2007 by Ada Quill.\n            Portions (c) 2009 by Bo Reed.\n"""\n'
    assert [m.text for m in markers(src)] == ["Copyright 2007 by Ada Quill.", "Portions (c) 2009 by Bo Reed."]


@pytest.mark.parametrize(("field", "statement"), [
    (":copyright: (c) 2015-present Ada Quill", "Copyright (c) 2015-present Ada Quill"),
    ("    :copyright: Copyright 2007-2024 by the Quill team, see AUTHORS.",
     "Copyright 2007-2024 by the Quill team, see AUTHORS."),
    ("Copyright: (c) 2020 Ada Quill", "Copyright: (c) 2020 Ada Quill"),  # no field: as written
])
def test_a_copyright_field_is_kept_as_the_statement_it_stands_for(field: str, statement: str) -> None:
    """user153's Left 4: obligations.csv and the SPDX snippets wrote discord.py's ``:copyright:
    (c) 2015-present Rapptz`` as "copyright: (c) 2015-present Rapptz" (the label, its colon cut),
    ATTRIBUTION.md and the BOM as the statement."""
    assert [m.text for m in markers(f'"""Quill.\n\n{field}\n"""\nx = 1\n')] == [statement]


def test_a_copyright_statement_after_a_credit_on_one_line_is_read() -> None:
    """timm's "Hacked together by / Copyright 2020, Ross Wightman" (its files' only copyright
    line: obligations took timm's LICENSE holder for the file's own); sglang's "Adapted from ...;
    Copyright 2024 The Qwen team". Only a statement with a year counts after a credit."""
    doc = '"""Vision layers.\n\nHacked together by / Copyright 2020, Ada Quill\n"""\nx = 1\n'
    assert [(m.kind, m.text) for m in markers(doc)] == [("copyright", "Copyright 2020, Ada Quill")]
    both = markers("# Adapted from Upcore Models; Copyright 2024 The Bo team\nx = 1\n")
    assert [(m.kind, m.text) for m in both][1] == ("copyright", "Copyright 2024 The Bo team")
    assert markers("# Written by Ada | Copyright (c) 2019 Bo Reed\nx = 1\n")[0].text == "Copyright (c) 2019 Bo Reed"
    assert markers("# see the docs - copyright notices apply\nx = 1\n") == []
    assert markers("# note / copyright holders and contributors\nx = 1\n") == []


def test_file_markers_read_a_copyright_holder_list_as_the_whole_file_reader_does() -> None:
    from lineage.markers import find_file_markers

    lines = ["x = 1"] * 9 + ["# Copyright (C) 2005-2014:", "# (name) : (email)",
                             *(f"# Holder{k} Quill" for k in range(6)), "#", "y = 2"]
    kinds = ["code"] * 9 + ["comment"] * 9 + ["code"]
    found = find_file_markers(lines, kinds)
    assert found == find_markers(lines, kinds)
    assert found[0].text.endswith("Holder4 Quill")  # six lines below it at most, the legend among them


@pytest.mark.parametrize(
    "comment",
    [
        "# copyright notice must be kept",
        "# Copyright header below",
        "# Portions (c) and (d) of the spec apply",
    ],
)
def test_not_copyright(comment: str) -> None:
    assert markers(comment + "\n") == []


# ---------------------------------------------------------------------------------------------
# False positives
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src",
    [
        "# based on the input shape we choose the block size",
        "# Based on the number of tokens, pick a kernel",
        "# copied from the cache",
        "# The output is copied from the KV cache to the GPU",
        "# taken from the previous step",
        "# values taken from Table 3 of the paper",
        "# derived from the max value",
        "# The key is derived from the request id",
        "# scale is derived from the absmax of x",
        "# block size chosen based on the SM count",
        "# inspired by the way it works",
        "# copied from self.weight",
        "# based on x.shape",
        "# Adapted from",
        "# Chunk size based on Triton limits",
        "x = 'Adapted from vLLM'",
        's = "# Adapted from https://github.com/a/b/blob/main/c.py"',
        'msg = """\nAdapted from vLLM\n"""',
        'raise ValueError(\n    "Copied from vllm.model_executor.layers.X"\n)',
        "copied_from = based_on(vllm)",
        "adapted_from_vllm = True",
    ],
)
def test_false_positives_rejected(src: str) -> None:
    assert markers(src) == []


def test_named_code_lead_in() -> None:
    # vLLM's eplb/policy/default.py: "The <words> algorithm is adapted from" names its origin
    # (the generic lead-in stops at "the" and "is"), the source on the next docstring line.
    src = '"""\nThe rearrangement algorithm is adapted from\n[DeepSeek EPLB](https://github.com/deepseek-ai/eplb).\n"""\n'
    found = markers(src)
    assert [(m.line, m.kind, m.project) for m in found] == [(2, "adapted_from", "eplb")]


@pytest.mark.parametrize(
    "src",
    [
        "# The fused kernel is adapted from the previous step",
        "# The attention kernel is based on the input shape",
        "# The output tensor is copied from the KV cache",
        "# The block size is derived from the SM count",
    ],
)
def test_named_code_lead_in_prose_rejected(src: str) -> None:
    assert markers(src) == []


def test_code_mentioning_urls_is_not_a_marker() -> None:
    src = 'URL = "https://github.com/a/b/blob/main/c.py"\n'
    assert markers(src) == []


# ---------------------------------------------------------------------------------------------
# kinds given by the caller
# ---------------------------------------------------------------------------------------------


def test_kinds_decide_what_is_read() -> None:
    lines = [
        "# Adapted from vLLM",
        "x = 1  # Copied from SGLang",
        "Derived from FlashInfer",  # a docstring line per the caller
        "Derived from FlashInfer",  # code per the caller: never read
        "",
    ]
    kinds = ["comment", "code", "docstring", "code", "blank"]
    found = find_markers(lines, kinds)
    assert [(m.line, m.kind) for m in found] == [
        (1, "adapted_from"),
        (2, "copied_from"),
        (3, "derived_from"),
    ]


def test_kinds_docstring_with_quotes_and_string_code_line() -> None:
    lines = [
        "def f():",
        '    """Adapted from vLLM."""',
        '    s = """Adapted from vLLM"""',
    ]
    found = find_markers(lines, ["code", "docstring", "code"])
    assert [(m.line, m.text) for m in found] == [(2, "Adapted from vLLM.")]


def test_kinds_comment_line_the_scanner_misreads() -> None:
    # Without kinds line 2 is inside a string; with kinds the caller's classification wins.
    lines = ['x = """', "# Adapted from vLLM", '"""']
    assert find_markers(lines) == []
    found = find_markers(lines, ["code", "comment", "code"])
    assert [m.kind for m in found] == ["adapted_from"]


def test_kinds_shorter_than_lines_is_tolerated() -> None:
    found = find_markers(["# Adapted from vLLM", "y = 2  # Copied from SGLang"], ["comment"])
    assert [m.line for m in found] == [1, 2]


# ---------------------------------------------------------------------------------------------
# marker_names_upstream
# ---------------------------------------------------------------------------------------------


def test_names_upstream_by_repository() -> None:
    m = one("# Adapted from https://github.com/vllm-project/vllm/blob/main/vllm/x.py\n")
    assert marker_names_upstream(m, {"vllm"})
    assert marker_names_upstream(m, ["vllm-project/vllm"])
    assert marker_names_upstream(m, ["VLLM"])
    # The owner alone is not the project: vllm-project also owns vllm-ascend and vllm-metal.
    assert not marker_names_upstream(m, ["vllm-project"])
    assert not marker_names_upstream(m, ["sglang"])
    assert not marker_names_upstream(m, [])


def test_names_upstream_by_path_and_symbol() -> None:
    m = one("# Copied from vllm.model_executor.layers.rotary_embedding.RotaryEmbedding\n")
    assert marker_names_upstream(m, ["vllm"])
    # Whole words only: "rotary" is part of "rotary_embedding".
    assert not marker_names_upstream(m, ["rotary"])
    assert marker_names_upstream(Marker(1, "copied_from", "x", symbol="vllm.utils"), ["vllm"])
    assert marker_names_upstream(Marker(1, "adapted_from", "x", path="vllm/utils.py"), ["vllm"])


@pytest.mark.parametrize(("text", "project"), [
    ("# copied from more_itertools 8.8", "more_itertools"),  # setuptools' importlib_metadata/_itertools.py
    ("# Copied from numpy 1.26", "numpy"),
    ("# copied from section 2.3", None),
    ("# copied from table 3.1 of the paper", None),
    ("# taken from python 3.12", None),
    ("# copied from the cache 2.0", None),
    ("# based on theorem 2.1", None),
    ("# copied from lemma 3.4 of the paper", None),
])
def test_a_name_with_a_two_part_release_is_a_strong_source(text: str, project: str | None) -> None:
    found = find_markers([text, "x = 1"])
    assert [m.project for m in found] == ([project] if project else [])


def test_a_namespace_package_is_named_by_its_whole_dotted_name() -> None:
    """setuptools' "copied from jaraco.itertools 6.1" does not name jaraco.text, whose top-level
    package is ``jaraco/text`` below the ``jaraco`` namespace every jaraco distribution shares."""
    from types import SimpleNamespace

    from lineage.api import upstream_names
    from lineage.index.project import ProjectInfo

    paths = ("jaraco/text/__init__.py", "jaraco/text/layouts.py")
    tree = SimpleNamespace(files=[SimpleNamespace(path=p) for p in paths],
                           info=SimpleNamespace(label="jaraco-text"), project=ProjectInfo(name="jaraco.text"))
    names = upstream_names(tree)
    assert "jaraco" not in names and "jaraco.text" in names
    assert not marker_names_upstream(one("# copied from jaraco.itertools 6.1\n"), names)
    assert not marker_names_upstream(one("# adapted from jaraco.classes.properties:NonDataProperty\n"), names)
    assert marker_names_upstream(one("# Copied from jaraco.text.FoldedCase\n"), names)
    assert marker_names_upstream(Marker(1, "adapted_from", "x", path="jaraco/text/layouts.py"), names)
    assert not marker_names_upstream(Marker(1, "adapted_from", "x", path="jaraco/textual.py"), names)


def test_names_upstream_by_text_whole_word() -> None:
    assert marker_names_upstream(one("# Adapted from vLLM\n"), ["vllm"])
    assert marker_names_upstream(one("# ported from vLLM's sampler\n"), ["vllm"])
    assert not marker_names_upstream(one("# Adapted from vllmx\n"), ["vllm"])
    assert not marker_names_upstream(one("# Adapted from SGLang\n"), ["vllm"])
    assert marker_names_upstream(one("# Adapted from SGLang\n"), ["flashinfer", "sglang"])


def test_a_word_of_a_quoted_title_names_no_upstream() -> None:
    """timm 1.0.11 against torchvision 0.20.1 (repository ``pytorch/vision``): a paper's title
    quoted in a marker made mlp_mixer.py and vision_transformer.py marked."""
    names = ["torchvision", "vision", "pytorch/vision"]
    doc = ['"""', "    Based on: 'MLP-Mixer: An all-MLP Architecture for Vision' - https://arxiv.org/abs/2105.01601",
           '"""', "x = 1"]
    assert [marker_names_upstream(m, names) for m in find_markers(doc)] == [False]
    mixed = one("# Based on: 'Scaling Vision Transformers to 22 Billion Parameters` - https://arxiv.org/abs/2302.05442\n")
    assert not marker_names_upstream(mixed, names)
    # a quoted name, a short quoted phrase or a possessive is still a name
    assert marker_names_upstream(one("# Adapted from 'vision' ops\n"), names)
    assert marker_names_upstream(one("# Adapted from `vision ops` code\n"), names)
    assert marker_names_upstream(one("# Adapted from vision's 'box ops' module\n"), names)
    assert marker_names_upstream(one("# Adapted from torchvision, 'Faster R-CNN: Towards Real-Time'\n"), names)


def test_a_file_extension_or_dotted_part_does_not_name_an_upstream() -> None:
    """pytest 8.3.3 against py 1.11.0: "copied from cpython 3.9 Lib/pathlib.py file." and
    "Copied from cpython/Lib/test/support/threading_helper.py" made files marked for ``py``."""
    assert not marker_names_upstream(one("# copied from cpython 3.9 Lib/pathlib.py file.\n"), ["py"])
    assert not marker_names_upstream(one("# copied and modified from Python 3.5's builtin coroutines.py\n"), ["py"])
    assert not marker_names_upstream(one("# Based on doctest_nose_plugin.py from the nltk project\n"), ["py"])
    assert not marker_names_upstream(one("# Adapted from jaraco.text.layouts\n"), ["text"])
    assert marker_names_upstream(one("# This code was initially copied from py 1.8.1, file _io/terminalwriter.py.\n"),
                                 ["py"])
    assert marker_names_upstream(one("# Adapted from vllm.model_executor.layers\n"), ["vllm"])


def test_names_upstream_repository_name_not_substring() -> None:
    m = Marker(1, "url", "x", repository="someone/vllm-fork", path="src/a.py")
    assert not marker_names_upstream(m, ["vllm"])
    m = Marker(1, "url", "x", repository="gitlab-group/sub/vllm", path="a.py")
    assert marker_names_upstream(m, ["vllm"])


def test_names_upstream_spdx_and_copyright_only_by_text() -> None:
    spdx = one("# SPDX-License-Identifier: Apache-2.0\n")
    assert not marker_names_upstream(spdx, ["vllm"])
    c = one("# SPDX-FileCopyrightText: Copyright contributors to the vLLM project\n")
    assert marker_names_upstream(c, ["vllm"])
    c = one("# Copyright 2024 The vLLM team.\n")
    assert marker_names_upstream(c, {"vllm"})
    assert not marker_names_upstream(c, {"sglang"})
    # A copyright marker with fields set still only counts through its text.
    fake = Marker(1, "copyright", "Copyright 2024 ACME", repository="vllm-project/vllm")
    assert not marker_names_upstream(fake, ["vllm"])


# ---------------------------------------------------------------------------------------------
# Ordering, determinism, robustness
# ---------------------------------------------------------------------------------------------

_FILE = '''\
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Copyright contributors to the vLLM project
"""Inference-only Mistral model. Adapted from vLLM."""
import torch  # Adapted from https://github.com/a/b/blob/main/c.py


# Adapted from
# https://github.com/vllm-project/vllm/blob/v0.6.4/vllm/model_executor/models/llama.py
class MistralRMSNorm:
    # Copied from transformers.models.llama.modeling_llama.LlamaRMSNorm with Llama->Mistral
    def forward(self, x):
        return x  # based on the input shape we choose


# https://github.com/vllm-project/vllm/blob/v0.6.4/vllm/utils.py#L5
'''


def test_whole_file_in_line_order() -> None:
    found = markers(_FILE)
    assert [(m.line, m.kind) for m in found] == [
        (1, "spdx"),
        (2, "copyright"),
        (3, "adapted_from"),
        (4, "adapted_from"),
        (7, "adapted_from"),
        (10, "copied_from"),
        (15, "url"),
    ]
    assert all(kind in MARKER_KINDS for kind in {m.kind for m in found})


def test_deterministic_and_kinds_none_matches_scanner() -> None:
    lines = _FILE.splitlines()
    first = find_markers(lines)
    assert first == find_markers(list(lines)) == find_markers(tuple(lines))
    assert hash(tuple(first)) == hash(tuple(find_markers(lines)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=120), max_size=25))
def test_never_raises_and_sorted(lines: list[str]) -> None:
    found = find_markers(lines)
    assert [m.line for m in found] == sorted(m.line for m in found)
    assert all(1 <= m.line <= len(lines) for m in found)
    assert all(m.kind in MARKER_KINDS for m in found)


_PIECES = st.sampled_from(
    [
        "# ",
        '"""',
        "'",
        '"',
        "#",
        "Adapted from ",
        "Copied from ",
        "based on ",
        "https://github.com/a/b/blob/main/c.py#L1-L2 ",
        "vllm.x.Y ",
        "with A->B,C->D ",
        "SPDX-License-Identifier: ",
        "Copyright 2024 ",
        "(",
        ")",
        "\\",
        "x = ",
        "    ",
        ": ",
        ". ",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(_PIECES, max_size=8).map("".join), max_size=15),
    st.lists(st.sampled_from(["code", "comment", "docstring", "blank", "other"]), max_size=20),
)
def test_never_raises_with_markerish_text_and_kinds(lines: list[str], kinds: list[str]) -> None:
    for chosen in (None, kinds):
        found = find_markers(lines, chosen)
        assert [m.line for m in found] == sorted(m.line for m in found)
        assert all(1 <= m.line <= len(lines) for m in found)
        assert found == find_markers(lines, chosen)


def test_file_markers_skip_hints_in_code_without_a_comment() -> None:
    from lineage.markers import find_file_markers
    from lineage.markers.prefilter import hint_windows

    filler = ["x = 1"] * 12
    lines = ["based = taken + modified  # nothing here", *filler, "url = 'http://example.org'", *filler,
             "# Adapted from https://github.com/vllm-project/vllm/blob/main/vllm/utils.py", *filler,
             "def f():", '    """Copied from vllm.model_executor.layers.Linear"""', "    return based"]
    kinds = ["code"] * len(lines)
    kinds[26] = "comment"
    kinds[40] = "docstring"
    # The code line holding '#' and the comment and docstring lines are searched; the string in code is not.
    # (windows of 6 lines either side: a copyright line's holders may sit up to 6 lines below it)
    assert hint_windows(lines, kinds) == [(0, 7), (20, 33), (34, 42)]
    assert hint_windows(lines) == [(0, 33), (34, 42)]
    assert find_file_markers(lines, kinds) == find_markers(lines, kinds)
    assert [m.line for m in find_file_markers(lines, kinds)] == [27, 41]  # 1-based


def test_file_markers_open_a_window_inside_a_docstring_at_its_first_line() -> None:
    from lineage.markers import find_file_markers
    from lineage.markers.prefilter import hint_windows

    # a docstring whose example quotes a copyright line (pandas' Appender) and whose prose has
    # quotes and an apostrophe before a phrase (statsmodels' rates.py); its blank lines are "blank"
    doc = ['    """', "    Append to a docstring.", "", "    Pass 'sep' to join them. e.g.", "",
           "    - 'exact' : from the tables", "    - 'quick' : less exact", "",
           "    - 'jeffreys' : based on Jeffreys' prior, from the gamma law", "",
           '    stamp = Stamper("Copyright (c) 2009", sep=1)', '    """']
    lines = ["def f():", *doc, "    return 1"]
    kinds = ["code", *("blank" if not line else "docstring" for line in doc), "code"]
    assert hint_windows(lines, kinds) == [(1, 14)]  # from the docstring's first line, not row 4
    found = find_file_markers(lines, kinds)
    assert found == find_markers(lines, kinds)
    assert [(m.line, m.kind) for m in found] == [(10, "based_on")]  # no copyright line


def test_imperative_copy_from_needs_a_url_or_a_file() -> None:
    m = one("# copy from https://huggingface.co/org/Model-1/blob/main/enc/enc.py\n")
    assert (m.kind, m.repository, m.ref, m.path) == ("copied_from", "org/Model-1", "main", "enc/enc.py")
    assert one("# Copy from qwen_vl.py, adapted for points\n").path == "qwen_vl.py"
    m = one("# copy from\n# https://github.com/o/r/blob/main/x.py\n")
    assert (m.kind, m.repository) == ("copied_from", "o/r")
    for prose in ("# Copy from smem to registers\n", "# copy from vllm_config.compilation_config.forward_context\n",
                  "# Environment variables to copy from driver to workers\n", "# directly copy from suffix_output\n"):
        assert find_markers(prose.splitlines()) == [], prose


def test_hugging_face_hub_urls() -> None:
    m = one("# Adapted from https://huggingface.co/datasets/o/d/resolve/v2/load.py#L3-L5\n")
    assert (m.repository, m.ref, m.path, m.line_start, m.line_end) == ("o/d", "v2", "load.py", 3, 5)
    # a model page names a model, not a file of code
    m = one("# Adapted from https://huggingface.co/org/Model-1 (the reference code)\n")
    assert (m.repository, m.path) == ("", "")


@pytest.mark.parametrize(("line", "project"), [
    ("# Based on what Quillwort uses internally in sedge.lru_cache.", "Quillwort"),  # xarray's file_manager.py
    ("# Adapted from the Sedge implementation", "Sedge"),
])
def test_a_pronoun_opening_the_source_clause_names_no_project(line: str, project: str) -> None:
    assert one(line).project == project


def test_an_issue_link_beside_the_source_names_no_repository() -> None:
    """xarray's datatree.py: "Copied from xarray.Dataset so as not to call type(self) ... (see
    https://github.com/xarray-contrib/datatree/issues/188)": the source is the dotted name; the
    issue is a reference (the marker named datatree's repository). A pull request still names the
    repository the code came from (vLLM's "Adapted from: https://github.com/sgl-project/sglang/pull/2628")."""
    m = one("# Copied from quillwort.Dataset so as not to call type(self), which breaks "
            "(see https://github.com/sedge-contrib/mossy/issues/188).\n")
    assert (m.repository, m.path, m.project) == ("", "quillwort.py", "quillwort")
    pr = one("# Adapted from: https://github.com/sedge-project/sedge/pull/2628\n")
    assert (pr.repository, pr.project) == ("sedge-project/sedge", "sedge")


def test_a_character_tables_comment_naming_the_sign_is_no_copyright_line() -> None:
    # docutils' LaTeX writer maps characters to macros with their Unicode names beside them;
    # "© COPYRIGHT SIGN" made its upstream file's holder "COPYRIGHT SIGN"
    src = ("# Copyright: 2031 Ada Quillwort\n"
           "TABLE = {\n"
           "    0x00a9: '\\\\textcopyright{}',  # \u00a9 COPYRIGHT SIGN\n"
           "}\n")
    assert [(m.kind, m.line) for m in find_markers(src.splitlines())] == [("copyright", 1)]


def test_a_url_cited_as_evidence_of_a_bug_is_no_marker() -> None:
    """pydantic 2.9's _generate_schema.py cites typing_extensions' code as buggy, in a docstring."""
    doc = (
        'def schema():\n'
        '    """__required_keys__ was added in Python 3.9\n'
        '    however it is buggy\n'
        '    (https://github.com/alpha/widgetlib/blob/ac52ac5/src/widgetlib.py#L657-L666).\n'
        '    """\n'
    )
    assert markers(doc) == []
    assert markers("# works around a bug in https://github.com/alpha/widgetlib/blob/v1/src/w.py#L3\n") == []
    # the same link not called faulty, or after a finished sentence, is still a source
    (m,) = markers("# widget helpers\n# https://github.com/alpha/widgetlib/blob/v1/src/w.py#L3\n")
    assert (m.kind, m.path) == ("url", "src/w.py")
    (m,) = markers("# Fixed the bug.\n# https://github.com/alpha/widgetlib/blob/v1/src/w.py#L3\n")
    assert (m.kind, m.path) == ("url", "src/w.py")


@pytest.mark.parametrize(("line", "kind", "where"), [
    # pip 24.2's network/auth.py: "within this function" is a lead-in as "in this function" is
    ("# all code within this function is stolen from quillkit.which implementation", "taken_from", "quillkit/which.py"),
    # pip 24.2's utils/_jaraco_text.py: "Functions brought over from jaraco.text."
    ('"""Functions brought over from quill.text.\n"""', "taken_from", "quill/text.py"),
    ("# Lifted from sedge.sharedparse", "taken_from", "sedge/sharedparse.py"),  # setuptools' typeguard
    ("# cribbed from str.py", "copied_from", "str.py"),  # sympy 1.13.3's printing/octave.py
    ("# Downsampler modules (translated from HF downsampling.py)", "ported_from", "downsampling.py"),  # vLLM
])
def test_more_verbs_of_taking_are_markers(line: str, kind: str, where: str) -> None:
    """user154's Left 1 and 2 and the phrases a scan of cached trees found unread (round left160)."""
    m = one(line + "\nx = 1\n")
    assert (m.kind, m.path) == (kind, where)


@pytest.mark.parametrize("line", [
    "# Page table for SWA layers (translated from full pool indices to SWA pool indices)",  # sglang 0.5.23
    "# the weights are translated from Quill units",  # no path: a value translated
    "# Lifted from the stack when the frame returns",
])
def test_translated_and_lifted_need_a_source(line: str) -> None:
    assert markers(line + "\nx = 1\n") == []


def test_every_verb_of_the_vocabulary_holds_a_prefilter_hint() -> None:
    """The index reads only windows around a hint (:mod:`lineage.markers.prefilter`): a verb
    without one would be a marker ``find_markers`` reads and the index never sees."""
    from lineage.markers.prefilter import may_hold_marker
    from lineage.markers.vocabulary import _FROM_VERBS, _OBJECT_VERBS

    verbs = [v for v in (_FROM_VERBS + "|" + _OBJECT_VERBS).split("|") if v.isalpha() or "\\s+" in v]
    assert "stolen" in verbs and "lifted" in verbs
    for verb in verbs:
        assert may_hold_marker(verb.replace("\\s+", " ") + " from quill.text"), verb


def test_a_qualified_copyright_line_is_a_copyright_marker_as_it_is_a_holder_line() -> None:
    """Round fix177: a statement after a word saying which of a work's statements it is ("Original
    Copyright 2019 Ada Quill" above a fork's own) was a holder line for the header reader
    (lineage.match.headers, round fix175) and no marker at all for the marker reader, so the
    holder it names was read nowhere; both read it from one definition now
    (``attribution.QUALIFIER_WORDS``). Prose about a copyright stays none for both."""
    from lineage.licences.notices import holder
    from lineage.match.headers import is_holder_line
    from lineage.match.holders import holder as holder_of

    for comment in ("# Original Copyright 2019 Ada Quill", "# Additional Copyright (C) Fen Works",
                    "# Prior copyright: Bo Reed"):
        m = one(comment + "\n")
        assert (m.kind, m.text) == ("copyright", comment[2:]), comment
        assert is_holder_line(comment), comment
    assert holder(one("# Original Copyright 2019 Ada Quill\n").text) == "ada quill"
    assert holder_of("Original Copyright 2019 Ada Quill") == "Ada Quill"
    # the word opens a name too: cut only before the statement's word or sign
    assert holder_of("Prior Labs (c) 2024").startswith("Prior Labs")
    assert holder("Copyright 2024 Prior Labs") == "prior labs"
    # a holder named by the word alone is a holder, not a qualifier (review179): a line of years
    # and a qualifying word after them names it; before the statement the word names none
    from lineage.markers.attribution import names_no_holder

    assert not names_no_holder("Copyright (c) 2024 Prior")
    assert not names_no_holder("Copyright 2019 Original")
    assert names_no_holder("Original Copyright (C) 2019")
    assert names_no_holder("Prior copyright 2019-2020")
    # a qualified line of years alone takes its holder from the line below, as any such line
    assert one("# Original Copyright (C) 2019\n# Wendel Marsh\n").text == "Original Copyright (C) 2019 Wendel Marsh"
    for comment in ("# keep the original copyright header below", "# Original copyright and licence follow"):
        assert not markers(comment + "\nx = 1\n"), comment
        assert not is_holder_line(comment), comment
