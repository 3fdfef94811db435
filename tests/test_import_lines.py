"""Tests for lineage.match.imports' pair test: two import statements are an edit of one another
only if they import the same module (also below a package renamed from one of the upstream's
own, or re-rooted by a vendoring tool) or bind the same names.

The end-to-end case is a hand-made pair whose truth is in its construction; thresholds come from
MatchParams, never typed in here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import treegen
from conftest import Runner, file_lines

from lineage.api import compare
from lineage.match import MatchParams, pair_label
from lineage.match.imports import imports_disagree
from lineage.settings import RunSettings

_NONE: tuple[str, frozenset[str]] = ("", frozenset())
# A file of the renamed package ``nextcord`` against an upstream whose top package is ``discord``.
_FORK = ("nextcord", frozenset({"discord"}))


@pytest.mark.parametrize(("target", "upstream", "packages"), [
    ("from . import enums, utils", "from . import utils, enums", _NONE),  # names re-sorted
    ("from .utils import MISSING, snowflake_time", "from .utils import snowflake_time", _NONE),
    ("import nextcord", "import discord", _FORK),  # the file's own package, renamed
    ("import nextcord.abc", "import discord.abc", _NONE),  # a module of the same name
    ("from sglang.srt.layers.linear import (", "from vllm.model_executor.layers.linear import (", _NONE),
    ("from pip._vendor.urllib3.exceptions import (", "from urllib3.exceptions import (", _NONE),
    ("from deepinfer.layers import Linear", "from vllm.layers import Linear", _NONE),  # same name bound
    ("from pip._vendor import six", "import six", _NONE),
    ("import typing as t", "import typing_extensions as t", _NONE),
    ("import torch.nn as nn", "from torch import nn", _NONE),  # the same module imported
    ("from attr_fork import (", "from attr import (", _NONE),  # no names shown: no opinion
    ("from x import \\", "from y import z", _NONE),  # continued with a backslash: no opinion
    ("x = compute(1)", "import os", _NONE),  # not two imports: no opinion
])
def test_imports_that_agree(target: str, upstream: str, packages: tuple[str, frozenset[str]]) -> None:
    assert not imports_disagree(target, upstream, packages)


@pytest.mark.parametrize(("target", "upstream", "packages"), [
    ("import io", "import asyncio", _NONE),  # neighbours in a sorted block
    ("import nextcord", "import discord", _NONE),  # discord is not the upstream's package
    ("import json", "import discord", _FORK),  # json is not the target file's own package
    ("import discord", "import nextcord", _FORK),
    ("from sglang.srt.layers.norm import RMSNorm", "from vllm.model_executor.layers.linear import Linear", _NONE),
    ("from io import (BytesIO)", "from asyncio import (Queue)", _NONE),  # a closed list shows its names
    ("from .widget import *", "from .team import *", _NONE),  # a star binds no name of its own
])
def test_imports_that_disagree(target: str, upstream: str, packages: tuple[str, frozenset[str]]) -> None:
    assert imports_disagree(target, upstream, packages)


def test_pair_label_refuses_an_import_of_another_module() -> None:
    p = MatchParams()
    assert pair_label("import io", "import asyncio", p) is None
    assert pair_label("import io", "import io", p) == (2, 1.0)  # verbatim whatever the rule
    assert pair_label("import io", "import asyncio", MatchParams(near_imports_same_module=0)) is not None


_BODY = ("\n\ndef tally_sprocket_orders(first_batch, second_batch):\n"
         "    merged_sprockets = first_batch * 29 + second_batch\n"
         "    trimmed_sprockets = merged_sprockets // 11 - first_batch\n"
         "    return merged_sprockets - SPROCKET_OFFSET_VALUE\n")


def test_an_import_of_another_module_between_copied_imports_is_none(run_compare: Runner) -> None:
    """A region's gap pairs ``import io`` with the upstream's ``import asyncio`` opposite it (the
    same shape) only with ``near_imports_same_module`` off."""
    up = {"pkg/sprockets.py": "import json\nimport asyncio\nimport os\n" + _BODY}
    target = {"pkg/sprockets.py": "import json\nimport io\nimport os\n" + _BODY}
    frame = file_lines(run_compare(target, [("up", up)]), "pkg/sprockets.py")
    assert list(frame.loc[[1, 2, 3], "match"]) == ["verbatim", "none", "verbatim"]
    off = file_lines(run_compare(target, [("up", up)], params=MatchParams(near_imports_same_module=0)),
                     "pkg/sprockets.py")
    assert off.loc[2, "match"] == "near" and off.loc[2, "upstream_line"] == 2


def test_the_renamed_package_is_read_from_the_trees(run_compare: Runner) -> None:
    """The upstream's top-level packages come from its tree (``discord/``) and the target file's
    own package from its path (``nextcord/``): ``import nextcord`` opposite ``import discord`` is
    the package renamed (near); ``import json`` there is another module (none)."""
    up = {"discord/client.py": "import asyncio\nimport discord\nimport os\n" + _BODY,
          "discord/__init__.py": "VERSION_OF_THE_PACKAGE = '1.7.0'\n"}

    def at_line_2(first_import: str) -> tuple[str, object]:
        target = {"nextcord/client.py": f"import asyncio\n{first_import}\nimport os\n" + _BODY}
        frame = file_lines(run_compare(target, [("up", up)]), "nextcord/client.py")
        return frame.loc[2, "match"], frame.loc[2, "upstream_line"]

    assert at_line_2("import nextcord") == ("near", 2)
    assert at_line_2("import json")[0] == "none"


def test_the_renamed_package_is_read_below_a_src_root(run_compare: Runner) -> None:
    """Both trees in a ``src/`` layout (the folder is no package): the packages are ``discord``
    and ``nextcord``, not ``src``, so the rename is seen as at the top."""
    up = {"src/discord/client.py": "import asyncio\nimport discord\nimport os\n" + _BODY,
          "src/discord/__init__.py": "VERSION_OF_THE_PACKAGE = '1.7.0'\n"}
    target = {"src/nextcord/client.py": "import asyncio\nimport nextcord\nimport os\n" + _BODY}
    frame = file_lines(run_compare(target, [("up", up)]), "src/nextcord/client.py")
    assert (frame.loc[2, "match"], frame.loc[2, "upstream_line"]) == ("near", 2)


def test_a_rerun_of_one_changed_file_labels_it_as_a_cold_run_does(tmp_path: Path) -> None:
    """Whether src/ is a package is read from the whole target tree, not from the files a rerun
    rematches: with src/__init__.py, src/nextcord is no renamed top package (cold and rerun alike)."""
    up = treegen.write_tree(tmp_path / "up", {
        "discord/client.py": "import asyncio\nimport discord\nimport os\n" + _BODY,
        "discord/__init__.py": "VERSION_OF_THE_PACKAGE = '1.7.0'\n"})
    files = {"src/__init__.py": "", "src/nextcord/__init__.py": "",
             "src/nextcord/client.py": "import asyncio\nimport nextcord\nimport os\n" + _BODY}
    target = treegen.write_tree(tmp_path / "target", files)

    def labels(cache: str) -> list[tuple[str, str]]:
        frame = compare(str(target), [str(up)], settings=RunSettings(cache_dir=tmp_path / cache, jobs=1)).lines
        rows = frame[frame["target_path"] == "src/nextcord/client.py"]
        return list(zip(rows["match"].astype(str), rows["upstream_line"].astype(str), strict=True))

    labels("cache")  # every file matched
    (target / "src/nextcord/client.py").write_text(files["src/nextcord/client.py"] + "# edited\n")
    rerun = labels("cache")  # only client.py rematched
    assert rerun == labels("fresh")
    assert rerun[1][0] == "none"  # import nextcord: src is a package here, so nextcord is no top package
