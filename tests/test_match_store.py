"""Tests for lineage.match.store: the match cache key covers the whole matcher code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import lineage.match
from lineage.match.store import FINGERPRINTED, code_files, code_fingerprint
from lineage.settings import RunSettings


def test_every_matcher_module_is_fingerprinted() -> None:
    files = set(code_files())
    package = Path(lineage.match.__file__).parent
    assert set(package.rglob("*.py")) <= files
    assert len([f for f in files if f.parent == package]) >= 7  # __init__, params, hits, ...
    assert FINGERPRINTED == ("lineage",)  # the whole package: see the comment above it
    from lineage import api, arrays, file_labels
    from lineage.licences import notices

    for module in (api, arrays, file_labels, notices):
        assert Path(module.__file__) in files, module.__name__  # type: ignore[arg-type]


def test_a_new_or_changed_module_changes_the_fingerprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    pkg = tmp_path / "fakepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = code_fingerprint.__wrapped__(("fakepkg",))
    (pkg / "added.py").write_text("y = 2\n")
    second = code_fingerprint.__wrapped__(("fakepkg",))
    (pkg / "added.py").write_text("y = 3\n")
    third = code_fingerprint.__wrapped__(("fakepkg",))
    assert len({first, second, third}) == 3
    assert code_fingerprint(("fakepkg",)) == third
    (pkg / "added.py").write_text("y = 4\n")
    assert code_fingerprint(("fakepkg",)) == third  # made once per process: the code it loaded
    code_fingerprint.cache_clear()
    sys.modules.pop("fakepkg", None)


def test_the_compiled_pass_is_in_the_index_and_match_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    import lineage.index.store as index_store

    compiled = index_store.compiled_pass_files()
    assert compiled and set(compiled) <= set(code_files())  # the C source, or the built extension
    fake = tmp_path / "_lineforms.c"
    fake.write_text("/* one */\n")
    monkeypatch.setattr(index_store, "compiled_pass_files", lambda: [fake])
    first = (index_store.index_code_fingerprint.__wrapped__(), code_fingerprint.__wrapped__())
    fake.write_text("/* two */\n")
    second = (index_store.index_code_fingerprint.__wrapped__(), code_fingerprint.__wrapped__())
    assert first[0] != second[0] and first[1] != second[1]


def test_a_swapped_match_entry_is_a_miss_and_figures_do_not_move(tmp_path: Path) -> None:
    """Another file's entry of the same line count, copied over this file's: recomputed, not used."""
    import json

    import treegen

    from lineage.api import compare
    from lineage.match.store import MatchCache

    up = treegen.gen_upstream(seed=7, n_modules=1)
    copied = list(up.module(0).lines)
    own = [f"value_{k} = {k} * 3" for k in range(len(copied))]  # same line count, nothing copied
    t_root = treegen.write_tree(tmp_path / "target", {"copy.py": "\n".join(copied) + "\n",
                                                      "own.py": "\n".join(own) + "\n"})
    u_root = treegen.write_tree(tmp_path / "upstream", up.files())
    cache = tmp_path / "cache"

    def run(out: str) -> dict:
        settings = RunSettings(cache_dir=cache, jobs=1, reuse_tables=False)  # the match cache alone
        comparison = compare(str(t_root), [str(u_root)], settings=settings)
        comparison.write(tmp_path / out, html=False)
        return json.loads((tmp_path / out / "manifest.json").read_text(encoding="utf-8"))

    run("out1")
    entries = {p.name: p for p in cache.glob("match-v*/*/*/*.rec")}
    context = next(cache.glob("match-v*/*")).name
    first = compare(str(t_root), [str(u_root)], settings=RunSettings(cache_dir=cache, jobs=1))
    files = {f.path: f for f in first.target.files}
    assert files["copy.py"].n_lines == files["own.py"].n_lines
    probe = MatchCache(cache, context)
    name_of = {path: probe._path(f.digest, path).name for path, f in files.items()}
    copy_entry, own_entry = entries[name_of["copy.py"]], entries[name_of["own.py"]]
    copy_blob, own_blob = copy_entry.read_bytes(), own_entry.read_bytes()
    copy_entry.write_bytes(own_blob)
    own_entry.write_bytes(copy_blob)
    swapped = run("out2")
    assert swapped["match_cache"] == {"hits": 0, "misses": 2, "table_rows_reused": 0}
    for name in ("lines.csv", "files.csv", "regions.csv", "summary.json"):
        assert (tmp_path / "out1" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes(), name
    assert copy_entry.read_bytes() == copy_blob and own_entry.read_bytes() == own_blob  # rewritten whole
