"""A copy that differs from its upstream file only in line endings is not modified (obligations)."""

from __future__ import annotations

from lineage.results.obligations import same_text

_GPL = "# SPDX-License-Identifier: GPL-2.0-or-later\n# Copyright (c) 2020, Quillwort Team.\n"
_BODY = "".join(f"def step_{i}(value):\n    total = value * {i} + {i + 3}\n    return total - {i}\n\n\n"
                for i in range(12))
_UP_META = 'pyproject.toml', '[project]\nname = "up"\nlicense = "GPL-2.0-or-later"\n'
_TGT_META = 'pyproject.toml', '[project]\nname = "tgt"\nlicense = "GPL-2.0-or-later"\n'


def test_same_text_folds_line_endings_only() -> None:
    assert same_text(b"a = 1\r\nb = 2\r\n", b"a = 1\nb = 2\n")
    assert same_text(b"a = 1\rb = 2\r", b"a = 1\nb = 2\n")
    assert not same_text(b"a = 1\r\nb = 2\r\n", b"a = 1\nb = 3\n")
    assert not same_text(b"a = 1\n", b"a = 1\n\n")


def test_a_crlf_upstream_copied_with_lf_is_unmodified(run_compare) -> None:
    # lark 1.1.9's wheel ships CRLF files; poetry-core 1.9.1 vendors them with LF: its GPL-2.0
    # hook-lark.py read "modified: yes" and "modification-notice" missing for an identical copy
    crlf = (_GPL + _BODY).replace("\n", "\r\n").encode()
    upstream = {"up/hook.py": crlf, "up/other.py": crlf.replace(b"step_", b"walk_"), _UP_META[0]: _UP_META[1]}
    target = {"tgt/hook.py": _GPL + _BODY, "tgt/other.py": _GPL + _BODY.replace("step_", "walk_") + "\nX = 1\n",
              _TGT_META[0]: _TGT_META[1]}
    ob = run_compare(target, [("up", upstream)]).obligations.set_index("target_path")
    assert ob.loc["tgt/hook.py", "modified"] == "no"
    assert "modification-notice" not in ob.loc["tgt/hook.py", "missing"]
    # a real change still counts, whatever the line endings
    assert ob.loc["tgt/other.py", "modified"] == "yes"
