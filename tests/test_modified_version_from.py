"""Tests for "a modified version of X from SOURCE" (lineage.markers.vocabulary.MODIFIED_VERSION)."""

from __future__ import annotations

from lineage.markers import find_markers, marker_names_upstream


def _markers(src: str) -> list:
    return find_markers(src.splitlines())


def test_a_modified_version_from_a_module_names_its_source() -> None:
    """diffusers 0.31.0's blip_diffusion/modeling_ctx_clip.py: "This is a modified version of the
    CLIPTextModel from transformers.models.clip.modeling_clip" went unread, and the file (73 copied
    code lines of modeling_clip.py's text model) sat in the unmarked review list."""
    (m,) = _markers("# This is a modified version of the QuillModel from sedge.models.quill.modeling_quill\nx = 1\n")
    assert (m.kind, m.line, m.path, m.project) == ("modified_from", 1, "sedge/models/quill/modeling_quill.py", "sedge")
    assert marker_names_upstream(m, ["sedge"])
    (u,) = _markers("# A modified version of quill from https://github.com/quill/sedge/blob/main/sedge/a.py\n")
    assert (u.kind, u.repository, u.path) == ("modified_from", "quill/sedge", "sedge/a.py")


def test_a_modified_version_without_a_path_after_from_is_a_description() -> None:
    """Without "from" and a URL, module or file path the phrase says what was modified, not where
    it came from (sglang's and vLLM's idefics2 "This is a modified version of
    `siglip.modelign_siglip.SiglipVisionEmbeddings`" stays unread, as before)."""
    for prose in ("# This is a modified version of sedge.layers.Quill\n",
                  "# a modified version of the Golub-Welsch algorithm from the paper\n",
                  "# a modified version of the loss from Quill et al.\n",
                  "# Returns a modified version of the config from disk\n"):
        assert _markers(prose) == [], prose
