"""Tests for lineage.sources: every fixture is built in tmp_path by the test itself."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import stat
import subprocess
import sys
import tarfile
import urllib.error
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import treegen

from lineage import sources
from lineage.cli import main
from lineage.errors import SourceError
from lineage.sources import SourceInfo, blob_digest, default_cache_dir, open_source

# --------------------------------------------------------------------------- builders


def write_tree(root: Path, files: dict[str, bytes | str]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)


def make_zip(path: Path, files: dict[str, bytes | str], dirs: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for d in dirs:
            zf.writestr(zipfile.ZipInfo(d.rstrip("/") + "/"), b"")
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def tar_file(name: str, data: bytes) -> tuple[tarfile.TarInfo, io.BytesIO]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, io.BytesIO(data)


def make_tar(
    path: Path, files: dict[str, bytes | str], extra: tuple[tarfile.TarInfo, ...] = ()
) -> Path:
    lower = path.name.lower()
    mode = "w:gz" if lower.endswith((".tar.gz", ".tgz")) else "w"
    with tarfile.open(path, mode) as tf:
        for name, data in files.items():
            tf.addfile(*tar_file(name, data.encode() if isinstance(data, str) else data))
        for info in extra:
            tf.addfile(info)
    return path


def tar_dir(name: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    return info


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --------------------------------------------------------------------------- directories


def test_dir_walk_sorted_skips_tool_dirs_and_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_tree(
        root,
        {
            "z.py": "z",
            "a.py": "a",
            "pkg/b.py": "b",
            "pkg/sub/c.txt": "c",
            "pkg/__pycache__/b.cpython-311.pyc": b"\0",
            ".git/config": "[core]",
            ".venv/lib/site.py": "x",
            "node_modules/m.js": "x",
            ".tox/x": "x",
            ".mypy_cache/x": "x",
            ".pytest_cache/x": "x",
            ".hg/x": "x",
            ".svn/x": "x",
            ".hidden.py": "kept",
        },
    )
    os.symlink(root / "a.py", root / "link.py")
    os.symlink(root / "pkg", root / "linkdir")
    os.symlink(tmp_path / "nowhere", root / "pkg" / "dangling")
    os.mkfifo(root / "pipe")

    with open_source(str(root)) as src:
        assert src.paths() == [".hidden.py", "a.py", "pkg/b.py", "pkg/sub/c.txt", "z.py"]
        info = src.info
        assert info.kind == "dir"
        assert info.digest == ""
        assert info.label == "proj"
        assert info.location == str(root.resolve())
        assert info.details == {}
        assert ("link.py", "symlink") in info.skipped
        assert ("linkdir", "symlink") in info.skipped
        assert ("pkg/dangling", "symlink") in info.skipped
        assert ("pipe", "special file") in info.skipped
        assert src.read("pkg/b.py") == b"b"
        assert list(src.read_many(["z.py", "a.py"])) == [("z.py", b"z"), ("a.py", b"a")]
        with pytest.raises(SourceError, match="no such file in source"):
            src.read("link.py")
        with pytest.raises(SourceError):
            src.read("pkg/../a.py")
    with pytest.raises(SourceError, match="closed"):
        src.read("a.py")


def test_dir_with_at_sign_in_name(tmp_path: Path) -> None:
    root = tmp_path / "user@host"
    write_tree(root, {"m.py": "x"})
    with open_source(str(root)) as src:
        assert src.info.kind == "dir"
        assert src.paths() == ["m.py"]


def test_info_is_frozen_and_json_serialisable(tmp_path: Path) -> None:
    write_tree(tmp_path / "p", {"m.py": "x"})
    with open_source(str(tmp_path / "p")) as src:
        with pytest.raises(AttributeError):
            src.info.kind = "git"  # type: ignore[misc]
        assert isinstance(src.info, SourceInfo)
        json.dumps(src.info.__dict__)


# --------------------------------------------------------------------------- archives


def test_zip_single_top_level_folder_is_stripped(tmp_path: Path) -> None:
    path = make_zip(
        tmp_path / "foo-1.0.zip",
        {"foo-1.0/foo/__init__.py": "init", "foo-1.0/setup.py": "setup"},
        dirs=("foo-1.0", "foo-1.0/foo"),
    )
    with open_source(str(path)) as src:
        assert src.paths() == ["foo/__init__.py", "setup.py"]
        assert src.read("foo/__init__.py") == b"init"
        info = src.info
        assert info.kind == "archive"
        assert info.label == "foo"
        assert info.location == str(path.resolve())
        assert info.digest == "sha256:" + sha256_of(path)
        assert info.details == {"format": "zip", "stripped_prefix": "foo-1.0"}
        assert info.skipped == ()


@pytest.mark.parametrize(("files", "stripped"), [
    ({"pkg/__init__.py": "i", "pkg/core.py": "c"}, None),  # a zip of a package folder: the code itself
    ({"pkg/core.py": "c", "pkg/sub/x.py": "x"}, None),  # a namespace package's folder too
    ({"proj/setup.py": "s", "proj/proj/core.py": "c"}, "proj"),  # git archive --prefix=proj/: a wrapper
    ({"proj/pyproject.toml": "p", "proj/src/proj/core.py": "c"}, "proj"),
    ({"repo-main/pkg/core.py": "c"}, "repo-main"),  # GitHub's REPO-REF/: never a Python name
])
def test_a_single_top_folder_is_stripped_only_when_it_wraps_the_project(
        tmp_path: Path, files: dict[str, str], stripped: str | None) -> None:
    """A zip of pkg/ lost pkg/ from every path (core.py), so a comparison with it paired files
    otherwise than one with the folder itself: 71.2 % copied instead of 77.0 % on one test pair."""
    path = make_zip(tmp_path / "a.zip", files)
    with open_source(str(path)) as src:
        assert src.info.details["stripped_prefix"] == stripped
        prefix = f"{stripped}/" if stripped else ""
        assert src.paths() == sorted(p.removeprefix(prefix) for p in files)


def test_a_label_from_a_file_name_is_shown_on_one_line(tmp_path: Path) -> None:
    """An archive's label comes from its file name, as a folder's from its name (already shown
    escaped): 'evil\\nname.zip' put a newline into the headline ('... naming evil' / 'name; ...'),
    an escape sequence reached the terminal."""
    for name, label in (("evil\nname.zip", "evil\\nname"), ("esc\x1b[31mred.zip", "esc\\x1b[31mred")):
        path = make_zip(tmp_path / name, {"a.py": "a = 1\n"})
        with open_source(str(path)) as src:
            assert src.info.label == label


def test_zip_with_several_top_levels_is_not_stripped(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "bundle.zip", {"a.py": "a", "pkg/b.py": "b"})
    with open_source(str(path)) as src:
        assert src.paths() == ["a.py", "pkg/b.py"]
        assert src.info.details["stripped_prefix"] is None
        assert src.info.label == "bundle"


def test_wheel_is_never_stripped(tmp_path: Path) -> None:
    path = make_zip(
        tmp_path / "vllm-0.32.0-cp38-abi3-manylinux1_x86_64.whl",
        {"vllm/__init__.py": "v", "vllm/engine.py": "e"},
    )
    with open_source(str(path)) as src:
        assert src.paths() == ["vllm/__init__.py", "vllm/engine.py"]
        assert src.info.label == "vllm"
        assert src.info.details == {"format": "wheel", "stripped_prefix": None}
        assert dict(src.read_many(["vllm/engine.py"])) == {"vllm/engine.py": b"e"}


@pytest.mark.parametrize("suffix", [".tar.gz", ".tgz", ".tar"])
def test_tarball_single_top_level_folder_is_stripped(tmp_path: Path, suffix: str) -> None:
    path = make_tar(
        tmp_path / f"my-pkg-2.1{suffix}",
        {"my-pkg-2.1/PKG-INFO": "meta", "my-pkg-2.1/src/my_pkg/core.py": "core"},
        extra=(tar_dir("my-pkg-2.1"), tar_dir("my-pkg-2.1/src")),
    )
    with open_source(str(path)) as src:
        assert src.paths() == ["PKG-INFO", "src/my_pkg/core.py"]
        assert src.read("src/my_pkg/core.py") == b"core"
        assert src.info.label == "my-pkg"
        assert src.info.details["stripped_prefix"] == "my-pkg-2.1"
        assert src.info.details["format"] == ("tar" if suffix == ".tar" else "tar.gz")


def test_tar_dot_slash_names_are_normalised(tmp_path: Path) -> None:
    path = make_tar(tmp_path / "x.tar.gz", {"./a.py": "a", "./pkg/b.py": "b"})
    with open_source(str(path)) as src:
        assert src.paths() == ["a.py", "pkg/b.py"]


def test_unsafe_tar_members_are_skipped_and_listed(tmp_path: Path) -> None:
    link = tarfile.TarInfo("pkg-1/pkg/link.py")
    link.type, link.linkname = tarfile.SYMTYPE, "../../../etc/passwd"
    hard = tarfile.TarInfo("pkg-1/pkg/hard.py")
    hard.type, hard.linkname = tarfile.LNKTYPE, "pkg-1/pkg/ok.py"
    dev = tarfile.TarInfo("pkg-1/dev")
    dev.type = tarfile.CHRTYPE
    fifo = tarfile.TarInfo("pkg-1/fifo")
    fifo.type = tarfile.FIFOTYPE
    path = make_tar(
        tmp_path / "pkg-1.tar.gz",
        {
            "pkg-1/pkg/ok.py": "ok",
            "../evil.py": "evil",
            "/abs.py": "abs",
            "pkg-1/../../evil2.py": "evil",
        },
        extra=(link, hard, dev, fifo),
    )
    with open_source(str(path)) as src:
        # The unsafe members do not prevent stripping the single safe top-level folder.
        assert src.paths() == ["pkg/ok.py"]
        skipped = dict(src.info.skipped)
        assert skipped["../evil.py"].startswith("parent directory")
        assert skipped["/abs.py"] == "absolute path"
        assert skipped["pkg-1/../../evil2.py"].startswith("parent directory")
        assert skipped["pkg-1/pkg/link.py"] == "symlink"
        assert skipped["pkg-1/pkg/hard.py"] == "hard link"
        assert skipped["pkg-1/dev"] == "device"
        assert skipped["pkg-1/fifo"] == "fifo"
        with pytest.raises(SourceError):
            src.read("../evil.py")


def test_unsafe_zip_members_are_skipped_and_listed(tmp_path: Path) -> None:
    path = tmp_path / "bad.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("good.py", "good")
        zf.writestr("../evil.py", "evil")
        zf.writestr("/abs.py", "abs")
        zf.writestr("C:/win.py", "win")
        zf.writestr("dir\\..\\..\\back.py", "back")
        link = zipfile.ZipInfo("link.py")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    with open_source(str(path)) as src:
        assert src.paths() == ["good.py"]
        skipped = dict(src.info.skipped)
        assert set(skipped) == {
            "../evil.py",
            "/abs.py",
            "C:/win.py",
            "dir\\..\\..\\back.py",
            "link.py",
        }
        assert skipped["link.py"] == "symlink"
        assert skipped["/abs.py"] == skipped["C:/win.py"] == "absolute path"


def test_duplicate_zip_member_last_one_wins(tmp_path: Path) -> None:
    path = tmp_path / "dup.zip"
    with zipfile.ZipFile(path, "w") as zf, pytest.warns(UserWarning):
        zf.writestr("a.py", "first")
        zf.writestr("a.py", "second")
    with open_source(str(path)) as src:
        assert src.paths() == ["a.py"]
        assert src.read("a.py") == b"second"
        assert src.info.skipped[0][1].startswith("duplicate")


def test_corrupt_archives_raise_source_error(tmp_path: Path) -> None:
    good = make_tar(tmp_path / "good.tar.gz", {f"p/f{i}.py": os.urandom(4000) for i in range(20)})
    truncated = tmp_path / "trunc.tar.gz"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    garbage_zip = tmp_path / "garbage.zip"
    garbage_zip.write_bytes(b"this is not a zip file" * 10)
    garbage_whl = tmp_path / "x-1.0-py3-none-any.whl"
    garbage_whl.write_bytes(b"PK\x03\x04 truncated")
    empty_tar = tmp_path / "empty.tar"
    empty_tar.write_bytes(b"")
    garbage_tgz = tmp_path / "g.tgz"
    garbage_tgz.write_bytes(gzip.compress(b"not a tar header at all" * 40))
    for path in (truncated, garbage_zip, garbage_whl, empty_tar, garbage_tgz):
        with pytest.raises(SourceError, match=r"^cannot read archive ") as excinfo:
            open_source(str(path))
        assert "\n" not in str(excinfo.value)


def test_corrupt_member_data_raises_on_read(tmp_path: Path) -> None:
    path = tmp_path / "crc.zip"
    payload = b"A" * 200
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("a.py", payload)
    raw = bytearray(path.read_bytes())
    at = raw.index(payload)
    raw[at + 10] = ord("B")  # same length, wrong CRC
    path.write_bytes(bytes(raw))
    with open_source(str(path)) as src:
        assert src.paths() == ["a.py"]
        with pytest.raises(SourceError, match="cannot read archive"):
            src.read("a.py")


def test_tar_read_many_any_order_and_duplicates(tmp_path: Path) -> None:
    files = {f"r-1/m{i:02d}.py": f"content {i}" for i in range(30)}
    path = make_tar(tmp_path / "r-1.tar.gz", files)
    with open_source(str(path)) as src:
        names = src.paths()
        order = [*reversed(names), names[3], names[3], names[0]]
        got = list(src.read_many(order))
        assert [p for p, _ in got] == order
        assert all(data == src.read(p) for p, data in got)
        with pytest.raises(SourceError, match="no such file"):
            list(src.read_many([names[0], "missing.py"]))


# --------------------------------------------------------------------------- git


@pytest.fixture
def git_repo(tmp_path: Path) -> dict[str, Any]:
    git = pytest.importorskip("git")
    path = tmp_path / "myrepo"
    repo = git.Repo.init(path)
    who = git.Actor("Test", "test@example.com")

    write_tree(path, {"a.py": "v1\n", "pkg/b.py": "b\n"})
    os.symlink("a.py", path / "alias.py")
    repo.index.add(["a.py", "pkg/b.py", "alias.py"])
    first = repo.index.commit("first", author=who, committer=who)
    repo.create_tag("v1")
    repo.create_tag("v1-annotated", message="annotated", ref=first)

    write_tree(path, {"a.py": "v2\n", "c.py": "c\n"})
    repo.index.add(["a.py", "c.py"])
    second = repo.index.commit("second", author=who, committer=who)

    # Uncommitted changes must never show up in a git source.
    write_tree(path, {"a.py": "dirty\n", "untracked.py": "u\n"})
    repo.close()
    return {"path": path, "first": first.hexsha, "second": second.hexsha}


def test_git_source_reads_the_commit_not_the_work_tree(git_repo: dict[str, Any]) -> None:
    path = git_repo["path"]
    for ref in ("v1", "HEAD~1", "v1-annotated", git_repo["first"][:10]):
        with open_source(f"{path}@{ref}") as src:
            assert src.paths() == ["a.py", "pkg/b.py"], ref
            assert src.read("a.py") == b"v1\n"
            info = src.info
            assert info.kind == "git"
            assert info.label == "myrepo"
            assert info.location == str(path.resolve())
            assert info.digest == f"git:{git_repo['first']}"
            assert info.details == {"ref": ref, "commit": git_repo["first"]}
            assert ("alias.py", "symlink") in info.skipped

    with open_source(f"{path}@HEAD") as src:
        assert src.paths() == ["a.py", "c.py", "pkg/b.py"]
        assert dict(src.read_many(src.paths())) == {
            "a.py": b"v2\n",
            "c.py": b"c\n",
            "pkg/b.py": b"b\n",
        }
        assert src.info.details["commit"] == git_repo["second"]


def test_git_blob_ids_match_blob_digest(git_repo: dict[str, Any]) -> None:
    import git

    repo = git.Repo(git_repo["path"])
    expected = {b.path: b.hexsha for b in repo.commit("HEAD").tree.traverse() if b.type == "blob"}
    repo.close()
    with open_source(f"{git_repo['path']}@HEAD") as src:
        for path, data in src.read_many(src.paths()):
            assert blob_digest(data) == expected[path]
            # the tree already names the blob: known without reading, and equal to the digest
            assert src.known_digest(path) == blob_digest(data)


def test_only_git_sources_know_digests_without_reading(tmp_path: Path) -> None:
    write_tree(tmp_path / "d", {"a.py": "x = 1\n"})
    with open_source(str(tmp_path / "d")) as src:
        assert src.known_digest("a.py") is None


def test_git_unknown_ref(git_repo: dict[str, Any]) -> None:
    path = git_repo["path"]
    for ref in ("v9", "HEAD~9", "", "-v", "v1..HEAD", "v9:pkg"):
        with pytest.raises(SourceError, match=r"^git: unknown ref ") as excinfo:
            open_source(f"{path}@{ref}")
        assert str(excinfo.value) == f"git: unknown ref {ref.partition(':')[0]!r} in {path.resolve()}"


def test_git_ref_with_a_folder_reads_only_that_folder(git_repo: dict[str, Any], tmp_path: Path) -> None:
    """``REF:PATH``, git's notation for a tree inside a commit: the folder's files at paths
    relative to it (a repository's ``src/`` as its wheel lays it out), pinned and reopenable."""
    from lineage.sources.git import commit_spec

    path = git_repo["path"]
    with open_source(f"{path}@v1:pkg/") as src:
        assert src.paths() == ["b.py"] and src.read("b.py") == b"b\n"
        assert src.info.digest == f"git:{git_repo['first']}:pkg"
        assert src.info.details == {"ref": "v1", "commit": git_repo["first"], "path": "pkg"}
        assert commit_spec(str(path), src.info.details) == f"{path}@{git_repo['first']}:pkg"
    with open_source(f"{path}@v1") as src:  # no folder: no "path" in the details, the spec as before
        assert commit_spec(str(path), src.info.details) == f"{path}@{git_repo['first']}"
    for folder in ("./pkg", "pkg//", "/pkg"):  # the folder's path normalised as any member's
        with open_source(f"{path}@v1:{folder}") as src:
            assert src.paths() == ["b.py"] and src.info.details["path"] == "pkg", folder
    with open_source(f"{path}@v1:.") as src:  # the root: the whole commit
        assert src.paths() == ["a.py", "pkg/b.py"] and "path" not in src.info.details
    with open_source(f"{path}@v1:nope") as src:  # a commit without the folder: an empty tree
        assert src.paths() == [] and src.info.details["path"] == "nope"
    for folder, message in (("a.py", "'a.py' is no folder at v1 in"), ("alias.py", "(symlink)"),
                            ("../x", "is no folder path inside a commit")):
        with pytest.raises(SourceError, match=re.escape(message)):
            open_source(f"{path}@v1:{folder}")


def test_git_repo_without_ref_is_the_work_tree(git_repo: dict[str, Any]) -> None:
    with open_source(str(git_repo["path"])) as src:
        assert src.info.kind == "dir"
        assert "untracked.py" in src.paths()
        assert not any(p.startswith(".git/") for p in src.paths())
        assert src.read("a.py") == b"dirty\n"


def test_git_bare_repo_and_at_sign_in_path(git_repo: dict[str, Any], tmp_path: Path) -> None:
    import git

    bare = tmp_path / "mirror@x" / "proj.git"
    git.Repo.clone_from(str(git_repo["path"]), str(bare), bare=True).close()
    with open_source(f"{bare}@v1") as src:
        assert src.paths() == ["a.py", "pkg/b.py"]
        assert src.info.label == "proj"
        assert src.info.details["commit"] == git_repo["first"]


def test_at_ref_on_a_plain_directory(tmp_path: Path) -> None:
    write_tree(tmp_path / "plain", {"m.py": "x"})
    with pytest.raises(SourceError, match="^git: not a git repository: "):
        open_source(f"{tmp_path / 'plain'}@HEAD")


def test_blob_digest_equals_git_hash_object(tmp_path: Path) -> None:
    for data in (b"", b"hello\n", bytes(range(256)) * 3, "naïve ✓\r\n".encode()):
        out = subprocess.run(
            ["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True
        )
        assert blob_digest(data) == out.stdout.decode().strip()


# --------------------------------------------------------------------------- bad specs


def test_missing_path(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope")
    with pytest.raises(SourceError, match=r"^no such file or directory: "):
        open_source(missing)
    with pytest.raises(SourceError, match=r"^no such file or directory: "):
        open_source(missing + "@v1")


def test_unsupported_file(tmp_path: Path) -> None:
    path = tmp_path / "README.txt"
    path.write_text("hi")
    with pytest.raises(SourceError) as excinfo:
        open_source(str(path))
    assert str(excinfo.value) == (
        f"unsupported source: {path} (expected a directory, .whl/.zip/.tar.gz/.tgz/.tar "
        "archive, PATH@REF git ref, or pypi:NAME==VERSION)"
    )


def test_empty_spec() -> None:
    with pytest.raises(SourceError):
        open_source("")


@pytest.mark.parametrize(
    "spec", ["pypi:six", "pypi:six>=1.0", "pypi:six==", "pypi:six==1.0#md5=abc", "pypi:==1.0"]
)
def test_bad_pypi_spec(spec: str, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="^pypi: expected pypi:NAME==VERSION"):
        open_source(spec, cache_dir=tmp_path)


# --------------------------------------------------------------------------- pypi (offline)


def tiny_wheel(directory: Path, name: str = "tinypkg", version: str = "1.0") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    return make_zip(
        directory / f"{name}-{version}-py3-none-any.whl",
        {
            f"{name}/__init__.py": "VALUE = 1\n",
            f"{name}-{version}.dist-info/METADATA": f"Name: {name}\nVersion: {version}\n",
        },
    )


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> Any:
        raise AssertionError("network used")

    monkeypatch.setattr(sources.pypi, "_pip_download", forbidden)
    monkeypatch.setattr(sources.pypi, "_http_get", forbidden)


def test_pypi_cache_is_reused_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network: None
) -> None:
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    wheel = tiny_wheel(tmp_path / "cache" / "downloads" / "pypi" / "tinypkg-1.0")
    wheel.with_name(wheel.name + ".sha256").write_text(sha256_of(wheel) + "\n", encoding="ascii")
    with open_source("pypi:TinyPkg==1.0", cache_dir=tmp_path / "cache") as src:
        assert src.paths() == ["tinypkg-1.0.dist-info/METADATA", "tinypkg/__init__.py"]
        info = src.info
        assert info.kind == "pypi"
        assert info.label == "tinypkg"
        assert info.location == str(wheel.resolve())
        assert info.digest == "sha256:" + sha256_of(wheel)
        assert info.details["name"] == "tinypkg"
        assert info.details["version"] == "1.0"
        assert info.details["filename"] == wheel.name
        assert "url" not in info.details
        json.dumps(info.details)

    # The same cache found through $LINEAGE_CACHE_DIR.
    monkeypatch.setenv("LINEAGE_CACHE_DIR", str(tmp_path / "cache"))
    assert default_cache_dir() == tmp_path / "cache"
    with open_source("pypi:tinypkg==1.0") as src:
        assert src.info.location == str(wheel.resolve())



def test_a_pypi_label_keeps_the_projects_capitals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network: None
) -> None:
    """A release whose archive spells its name with capitals (``PyPDF2-1.26.0.tar.gz``) is
    labelled so, however the spec writes it: the titles and tables read ``PyPDF2``, not the
    canonical ``pypdf2``, which stays the cache entry's and the details' name."""
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    wheel = tiny_wheel(tmp_path / "downloads" / "pypi" / "tinypkg-1.0", name="TinyPkg")
    wheel.with_name(wheel.name + ".sha256").write_text(sha256_of(wheel) + "\n", encoding="ascii")
    for spec in ("pypi:tinypkg==1.0", "pypi:TINYPKG==1.0"):
        with open_source(spec, cache_dir=tmp_path) as src:
            assert src.info.label == "TinyPkg"
            assert src.info.details["name"] == "tinypkg"


def test_spelled_name() -> None:
    from lineage.sources.base import spelled_name

    assert spelled_name("PyPDF2-1.26.0.tar.gz", "pypdf2") == "PyPDF2"
    assert spelled_name("pypdf-3.17.4-py3-none-any.whl", "pypdf") == "pypdf"
    # separators as the canonical name has them: a wheel's escaped "-" is no new spelling
    assert spelled_name("Foo_Bar-1.0-py3-none-any.whl", "foo-bar") == "Foo-Bar"
    assert spelled_name("zope.interface-6.0.tar.gz", "zope-interface") == "zope-interface"
    # a file of another name leaves the canonical name
    assert spelled_name("Other-1.0.tar.gz", "tinypkg") == "tinypkg"


def test_pypi_sha256_pin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network: None) -> None:
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    wheel = tiny_wheel(tmp_path / "downloads" / "pypi" / "tinypkg-1.0")
    good = sha256_of(wheel)
    with open_source(f"pypi:tinypkg==1.0#sha256={good.upper()}", cache_dir=tmp_path) as src:
        assert src.info.digest == f"sha256:{good}"
    with pytest.raises(
        SourceError, match="^pypi: sha256 mismatch for tinypkg==1.0: expected 0{64}"
    ):
        open_source(f"pypi:tinypkg==1.0#sha256={'0' * 64}", cache_dir=tmp_path)


def test_pypi_offline_cache_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network: None
) -> None:
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    with pytest.raises(SourceError, match="not in the cache"):
        open_source("pypi:tinypkg==1.0", cache_dir=tmp_path)
    # Two archives for one release are ambiguous: not a cache hit.
    cached = tmp_path / "downloads" / "pypi" / "tinypkg-1.0"
    tiny_wheel(cached)
    make_zip(cached / "tinypkg-1.0.zip", {"tinypkg-1.0/x.py": "x"})
    with pytest.raises(SourceError, match="not in the cache"):
        open_source("pypi:tinypkg==1.0", cache_dir=tmp_path)


def test_default_cache_dir_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("XDG_CACHE_HOME is a Linux convention")
    monkeypatch.delenv("LINEAGE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "lineage"


def _fake_pip_serving_tiny_wheel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 listing: dict[str, Any] | None = None) -> tuple[Path, list[str]]:
    """`pip download` replaced by a copy of a tiny wheel; the requirements it was asked for.
    PyPI's JSON API (asked where the downloaded file is published) answers ``listing`` for
    tinypkg 1.0, else 404."""
    monkeypatch.delenv("LINEAGE_OFFLINE", raising=False)
    built = tiny_wheel(tmp_path / "built")
    calls: list[str] = []

    def fake_pip(requirement: str, dest: Path) -> tuple[bool, str]:
        calls.append(requirement)
        (dest / built.name).write_bytes(built.read_bytes())
        return True, ""

    def fake_get(url: str, timeout: float = sources.pypi.NET_TIMEOUT) -> io.BytesIO:
        if listing is None or url != "https://pypi.org/pypi/TinyPkg/1.0/json" and \
                url != "https://pypi.org/pypi/tinypkg/1.0/json":
            raise urllib.error.HTTPError(url, 404, "Not Found", None, None)  # type: ignore[arg-type]
        return io.BytesIO(json.dumps(listing).encode())

    monkeypatch.setattr(sources.pypi, "_pip_download", fake_pip)
    monkeypatch.setattr(sources.pypi, "_http_get", fake_get)
    return built, calls


def test_pypi_download_records_where_pypi_publishes_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip does not say where it downloaded from; the URL at which PyPI lists the file with the
    same sha256 is recorded beside the archive, so every later run from the cache (offline too)
    names the same download location (SPDX ``downloadLocation``)."""
    url = "https://files.example/packages/ab/cd/tinypkg-1.0-py3-none-any.whl"
    built = tiny_wheel(tmp_path / "peek")
    listing = {"urls": [{"packagetype": "bdist_wheel", "filename": built.name, "url": url,
                         "upload_time_iso_8601": "2031-08-23T04:40:09.812296Z",
                         "digests": {"sha256": sha256_of(built)}},
                        # the release's first file, uploaded before the wheel: the release's date
                        {"packagetype": "sdist", "filename": "tinypkg-1.0.tar.gz", "url": url + ".tar.gz",
                         "upload_time_iso_8601": "2029-01-02T03:04:05Z", "digests": {"sha256": "0" * 64}}]}  # fmt: skip
    _fake_pip_serving_tiny_wheel(tmp_path, monkeypatch, listing)
    asked: list[float] = []  # the timeouts the registry was asked with
    registry = sources.pypi._http_get

    def timed(url: str, timeout: float = sources.pypi.NET_TIMEOUT) -> Any:
        asked.append(timeout)
        return registry(url, timeout)

    monkeypatch.setattr(sources.pypi, "_http_get", timed)
    cache = tmp_path / "cache"
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        # and when: the file's upload, and the release's first (the date forkpoint gives a candidate)
        assert (src.info.details["url"], src.info.details["uploaded"]) == (url, "2031-08-23T04:40:09Z")
        assert src.info.details["released"] == "2029-01-02T03:04:05Z"
    assert asked and set(asked) == {sources.pypi.LOCATION_TIMEOUT}  # a detail: never a minute's wait
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    monkeypatch.setattr(sources.pypi, "_http_get", lambda *args: pytest.fail("network used"))
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        assert (src.info.details["url"], src.info.details["uploaded"]) == (url, "2031-08-23T04:40:09Z")
        assert src.info.details["released"] == "2029-01-02T03:04:05Z"
    # a record made before release dates were kept (URL and upload time) reads as before
    record = cache / "downloads" / "pypi" / "tinypkg-1.0" / (built.name + ".url")
    record.write_text(f"{sha256_of(built)} {url} 2031-08-23T04:40:09Z\n", encoding="utf-8")
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        assert src.info.details["uploaded"] == "2031-08-23T04:40:09Z" and "released" not in src.info.details
    # a record made before upload times were kept (its URL alone) still names the URL
    record = cache / "downloads" / "pypi" / "tinypkg-1.0" / (built.name + ".url")
    record.write_text(f"{sha256_of(built)} {url}\n", encoding="utf-8")
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        assert src.info.details["url"] == url and "uploaded" not in src.info.details
    # an archive replaced in the cache (its sha256 record rewritten to match) is not the file at
    # that URL; with its record deleted it is not used at all (offline: refused)
    archive = cache / "downloads" / "pypi" / "tinypkg-1.0" / built.name
    tiny_wheel(tmp_path / "other", version="1.0").replace(archive)
    archive.write_bytes(archive.read_bytes() + b"\0")  # other bytes, still a readable zip
    archive.with_name(archive.name + ".sha256").write_text(sha256_of(archive) + "\n", encoding="ascii")
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        assert "url" not in src.info.details
    archive.with_name(archive.name + ".sha256").unlink()
    with pytest.raises(SourceError, match="has no sha256 record"):
        open_source("pypi:tinypkg==1.0", cache_dir=cache)


@pytest.mark.parametrize("listed", ["other digest", "not listed", "no answer", "digests not a mapping"])
def test_pypi_download_location_unknown_unless_pypi_lists_that_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, listed: str
) -> None:
    """A file PyPI lists with another sha256 (a mirror's own build), or does not list, or a
    registry that does not answer: no location is claimed, and the download still succeeds."""
    built = tiny_wheel(tmp_path / "peek")
    entry = {"packagetype": "bdist_wheel", "filename": built.name, "url": "https://files.example/t.whl",
             "digests": {"sha256": "3" * 64 if listed == "other digest" else sha256_of(built)}}
    if listed == "digests not a mapping":  # a mirror's own answer: no location, no failure
        entry["digests"] = ["sha256", sha256_of(built)]
    listing = None if listed == "no answer" else {"urls": [] if listed == "not listed" else [entry]}
    _fake_pip_serving_tiny_wheel(tmp_path, monkeypatch, listing)
    with open_source("pypi:tinypkg==1.0", cache_dir=tmp_path / "cache") as src:
        assert src.paths()[-1] == "tinypkg/__init__.py"
        assert "url" not in src.info.details


def test_one_release_named_twice_is_fetched_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two specs of one release share its cache entry: the comparison opens them in turn (its
    sources otherwise open side by side), so the second finds the first's download; two threads
    fetched it twice into one entry, and with a damaged archive there both removed it."""
    import contextlib
    import time

    from lineage.compare_and_write import _open_with_identities
    from lineage.settings import RunSettings

    _, calls = _fake_pip_serving_tiny_wheel(tmp_path, monkeypatch)
    fetch = sources.pypi._pip_download

    def slow_fetch(requirement: str, dest: Path) -> tuple[bool, str]:
        time.sleep(0.3)  # a download takes a while: two threads would both be in it
        return fetch(requirement, dest)

    monkeypatch.setattr(sources.pypi, "_pip_download", slow_fetch)
    with contextlib.ExitStack() as stack:
        _, _, identities = _open_with_identities(["pypi:TinyPkg==1.0", "pypi:tinypkg==1.0"],
                                                 RunSettings(cache_dir=tmp_path / "cache", jobs=1), stack)
    assert identities[0]["tree_digest"] == identities[1]["tree_digest"] and len(calls) == 1


def test_pypi_download_with_pip_then_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built, calls = _fake_pip_serving_tiny_wheel(tmp_path, monkeypatch)
    cache = tmp_path / "cache"
    with pytest.raises(SourceError, match="sha256 mismatch"):
        open_source(f"pypi:tinypkg==1.0#sha256={'1' * 64}", cache_dir=cache)
    release_dir = cache / "downloads" / "pypi" / "tinypkg-1.0"
    assert not release_dir.exists()  # a rejected download is not cached
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        assert src.info.location == str((release_dir / built.name).resolve())
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        assert src.paths()[-1] == "tinypkg/__init__.py"
    assert calls == ["tinypkg==1.0", "tinypkg==1.0"]  # the third open was a cache hit
    assert sorted(p.name for p in (cache / "downloads" / "pypi").iterdir()) == ["tinypkg-1.0"]


def fake_registry(monkeypatch: pytest.MonkeyPatch, answers: dict[str, Any]) -> list[str]:
    """Replace pip (no wheel found) and the HTTP layer with in-memory answers.

    ``answers`` maps a URL to bytes (a file) or a JSON-able object; other URLs get 404.
    """
    fetched: list[str] = []

    def fake_pip(requirement: str, dest: Path) -> tuple[bool, str]:
        return False, f"No matching distribution found for {requirement}"

    def fake_get(url: str, timeout: float = sources.pypi.NET_TIMEOUT) -> io.BytesIO:
        fetched.append(url)
        if url not in answers:
            raise urllib.error.HTTPError(url, 404, "Not Found", None, None)  # type: ignore[arg-type]
        answer = answers[url]
        return io.BytesIO(answer if isinstance(answer, bytes) else json.dumps(answer).encode())

    monkeypatch.setattr(sources.pypi, "_pip_download", fake_pip)
    monkeypatch.setattr(sources.pypi, "_http_get", fake_get)
    monkeypatch.delenv("LINEAGE_OFFLINE", raising=False)
    return fetched


def test_pypi_sdist_fallback_without_pip_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sdist = make_tar(tmp_path / "old_pkg-0.6.tar.gz", {"old_pkg-0.6/old_pkg.py": "x = 1\n"})
    url = "https://files.example/old_pkg-0.6.tar.gz"
    release = {
        "urls": [
            {
                "packagetype": "bdist_wheel",
                "filename": "old_pkg-0.6-cp27-cp27m-win32.whl",
                "url": "https://files.example/w.whl",
                "digests": {"sha256": "2" * 64},
            },
            {
                "packagetype": "sdist",
                "filename": sdist.name,
                "url": url,
                "digests": {"sha256": sha256_of(sdist)},
            },
        ]
    }
    version_url = "https://pypi.org/pypi/Old.Pkg/0.6/json"
    fetched = fake_registry(monkeypatch, {version_url: release, url: sdist.read_bytes()})
    with open_source("pypi:Old.Pkg==0.6", cache_dir=tmp_path / "c") as src:
        assert src.paths() == ["old_pkg.py"]
        assert src.info.label == "old-pkg"
        assert src.info.details["url"] == url
        assert src.info.details["filename"] == sdist.name
        assert src.info.details["stripped_prefix"] == "old_pkg-0.6"
        assert src.info.digest == "sha256:" + sha256_of(sdist)
    assert fetched == [version_url, url]


def test_pypi_sdist_fallback_via_project_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Some proxies answer 404 for /pypi/NAME/VERSION/json but serve /pypi/NAME/json.
    sdist = make_tar(tmp_path / "q-2.0.tar.gz", {"q-2.0/q.py": "q"})
    url = "https://files.example/q-2.0.tar.gz"
    entry = {"packagetype": "sdist", "filename": "q-2.0.tar.gz", "url": url,
             "digests": {"sha256": sha256_of(sdist)}}  # fmt: skip
    project = {"releases": {"1.0": [], "2.0": [entry]}}
    fetched = fake_registry(
        monkeypatch, {"https://pypi.org/pypi/q/json": project, url: sdist.read_bytes()}
    )
    with open_source("pypi:q==2.0", cache_dir=tmp_path / "c") as src:
        assert src.paths() == ["q.py"]
    assert fetched == ["https://pypi.org/pypi/q/2.0/json", "https://pypi.org/pypi/q/json", url]
    with pytest.raises(SourceError, match=r"^pypi: no release q==1\.0 \(pip: "):
        open_source("pypi:q==1.0", cache_dir=tmp_path / "c")
    with pytest.raises(SourceError, match=r"^pypi: no release q==3\.0 \(pip: "):
        open_source("pypi:q==3.0", cache_dir=tmp_path / "c")


def test_pypi_relative_file_url_is_resolved_against_the_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Some proxies answer with file URLs relative to the JSON document.
    sdist = make_tar(tmp_path / "r-1.0.tar.gz", {"r-1.0/r.py": "r = 1\n"})
    entry = {"packagetype": "sdist", "filename": "r-1.0.tar.gz", "url": "../../packages/ab/r-1.0.tar.gz",
             "digests": {"sha256": sha256_of(sdist)}}  # fmt: skip
    absolute = "https://pypi.org/pypi/packages/ab/r-1.0.tar.gz"
    fetched = fake_registry(monkeypatch, {"https://pypi.org/pypi/r/1.0/json": {"urls": [entry]},
                                          absolute: sdist.read_bytes()})
    with open_source("pypi:r==1.0", cache_dir=tmp_path / "c") as src:
        assert src.paths() == ["r.py"]
        assert src.info.details["url"] == absolute
    assert fetched == ["https://pypi.org/pypi/r/1.0/json", absolute]


def test_published_location_is_pypis_file_host_whoever_relayed_the_listing() -> None:
    """PyPI keeps every file at a path made of its BLAKE2b-256 digest; a proxy answering for
    pypi.org lists the same file under its own address (this machine's proxy: relative
    "../../packages/packages/75/f0/..."), which is no download location for anyone else."""
    b2 = "75f00fec660b472732881496c8f9fc0a91fb9f9820f46f140d5601d1d733657e"
    on_pypi = f"https://files.pythonhosted.org/packages/75/f0/{b2[4:]}/yt_dlp-2021.2.24-py2.py3-none-any.whl"
    proxied = f"https://pypi.org/packages/packages/75/f0/{b2[4:]}/yt_dlp-2021.2.24-py2.py3-none-any.whl"
    location = sources.pypi.published_location
    assert location(on_pypi) == on_pypi and location(on_pypi, b2) == on_pypi
    assert location(proxied) == on_pypi and location(proxied, b2.upper()) == on_pypi
    # the listed digest decides where the path does not say it
    assert location("https://mirror.example/simple/y/yt_dlp-2021.2.24-py2.py3-none-any.whl", b2) == on_pypi
    # neither a digest nor a content-addressed path: the URL as listed
    plain = "https://files.example/packages/ab/cd/t-1.0.tar.gz"
    assert location(plain) == plain and location(plain, "not a digest") == plain
    assert location("https://files.example/", b2) == "https://files.example/"


def test_pypi_download_location_through_a_proxy_names_pypis_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Downloaded through a proxy's relative link, the file is recorded at PyPI's address; so is
    one whose record (written before) holds the proxy's."""
    sdist = make_tar(tmp_path / "r-1.0.tar.gz", {"r-1.0/r.py": "r = 1\n"})
    b2 = hashlib.blake2b(sdist.read_bytes(), digest_size=32).hexdigest()
    relative = f"../../packages/packages/{b2[:2]}/{b2[2:4]}/{b2[4:]}/r-1.0.tar.gz"
    proxied = f"https://pypi.org/pypi/packages/packages/{b2[:2]}/{b2[2:4]}/{b2[4:]}/r-1.0.tar.gz"  # joined
    on_pypi = f"https://files.pythonhosted.org/packages/{b2[:2]}/{b2[2:4]}/{b2[4:]}/r-1.0.tar.gz"
    entry = {"packagetype": "sdist", "filename": "r-1.0.tar.gz", "url": relative,
             "digests": {"sha256": sha256_of(sdist), "blake2b_256": b2}}  # fmt: skip
    fetched = fake_registry(monkeypatch, {"https://pypi.org/pypi/r/1.0/json": {"urls": [entry]},
                                          proxied: sdist.read_bytes()})
    cache = tmp_path / "c"
    with open_source("pypi:r==1.0", cache_dir=cache) as src:
        assert src.info.details["url"] == on_pypi
    assert fetched == ["https://pypi.org/pypi/r/1.0/json", proxied]  # downloaded where listed
    record = cache / "downloads" / "pypi" / "r-1.0" / "r-1.0.tar.gz.url"
    assert record.read_text(encoding="utf-8").split()[1] == on_pypi
    record.write_text(f"{sha256_of(sdist)} {proxied} 2031-08-23T04:40:09Z\n", encoding="utf-8")
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    with open_source("pypi:r==1.0", cache_dir=cache) as src:
        assert src.info.details["url"] == on_pypi


def test_pypi_sdist_fallback_checks_registry_sha(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "https://files.example/p-1.tar.gz"
    release = {
        "urls": [
            {"packagetype": "sdist", "filename": "p-1.tar.gz", "url": url,
             "digests": {"sha256": "3" * 64}},
        ]
    }  # fmt: skip
    fake_registry(monkeypatch, {"https://pypi.org/pypi/p/1/json": release, url: b"tampered"})
    with pytest.raises(SourceError, match="sha256 mismatch for p-1.tar.gz: PyPI states 3{64}"):
        open_source("pypi:p==1", cache_dir=tmp_path)
    assert list((tmp_path / "downloads" / "pypi").iterdir()) == []


def test_pypi_pin_of_the_sdist_fetches_the_sdist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pin names one file of the release: the sdist's sha256 (as PyPI's page shows it) gets the
    sdist, not 'sha256 mismatch' against the wheel pip chose; a pin no file has is a mismatch."""
    wheel = tiny_wheel(tmp_path / "built")
    sdist = make_tar(tmp_path / "tinypkg-1.0.tar.gz", {"tinypkg-1.0/tinypkg/__init__.py": "VALUE = 2\n"})
    url = "https://files.example/tinypkg-1.0.tar.gz"
    listing = {"urls": [
        {"packagetype": "bdist_wheel", "filename": wheel.name, "url": "https://files.example/" + wheel.name,
         "digests": {"sha256": sha256_of(wheel)}},
        {"packagetype": "sdist", "filename": sdist.name, "url": url, "digests": {"sha256": sha256_of(sdist)}},
    ]}
    fetched = fake_registry(monkeypatch, {"https://pypi.org/pypi/tinypkg/1.0/json": listing,
                                          url: sdist.read_bytes()})

    def pip_gets_the_wheel(requirement: str, dest: Path) -> tuple[bool, str]:
        (dest / wheel.name).write_bytes(wheel.read_bytes())
        return True, ""

    monkeypatch.setattr(sources.pypi, "_pip_download", pip_gets_the_wheel)
    with open_source(f"pypi:tinypkg==1.0#sha256={sha256_of(sdist)}", cache_dir=tmp_path / "c") as src:
        assert src.info.details["filename"] == sdist.name and src.read("tinypkg/__init__.py") == b"VALUE = 2\n"
    assert fetched == ["https://pypi.org/pypi/tinypkg/1.0/json", url]
    with pytest.raises(SourceError, match="^pypi: sha256 mismatch for tinypkg==1.0: expected 0{64}, downloaded"):
        open_source(f"pypi:tinypkg==1.0#sha256={'0' * 64}", cache_dir=tmp_path / "d")
    # The wheel and the sdist pinned in one run (a wheel compared with its sdist): the second
    # download keeps the first file, which the first source may still read member by member
    # (it was removed: "cannot read archive ...whl: No such file or directory").
    cache = tmp_path / "e"
    with open_source(f"pypi:tinypkg==1.0#sha256={sha256_of(wheel)}", cache_dir=cache) as first:
        reader = first.later_reader()
    with open_source(f"pypi:tinypkg==1.0#sha256={sha256_of(sdist)}", cache_dir=cache) as second:
        assert second.info.details["filename"] == sdist.name
    assert reader is not None and reader.read("tinypkg/__init__.py") == b"VALUE = 1\n"
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")  # both are cache hits now
    for pinned in (wheel, sdist):
        with open_source(f"pypi:tinypkg==1.0#sha256={sha256_of(pinned)}", cache_dir=cache) as src:
            assert src.info.details["filename"] == pinned.name


def test_pypi_no_release_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_registry(monkeypatch, {})
    with pytest.raises(SourceError) as excinfo:
        open_source("pypi:vllm==9.9.9", cache_dir=tmp_path)
    assert str(excinfo.value) == (
        "pypi: no release vllm==9.9.9 (pip: No matching distribution found for vllm==9.9.9)"
    )


# --------------------------------------------------------------------------- pypi (network)


@pytest.fixture
def network(request: pytest.FixtureRequest) -> None:
    # pyproject registers "slow" but does not deselect it by default; keep the default run
    # offline by running these only when asked for with -m slow.
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("needs the network: run with -m slow")


SIX_WHEEL_SHA256 = "8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254"


@pytest.mark.slow
def test_pypi_download_real_wheel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, network: None
) -> None:
    monkeypatch.delenv("LINEAGE_OFFLINE", raising=False)
    with open_source(f"pypi:six==1.16.0#sha256={SIX_WHEEL_SHA256}", cache_dir=tmp_path) as src:
        assert src.info.kind == "pypi"
        assert src.info.label == "six"
        assert src.info.details["filename"] == "six-1.16.0-py2.py3-none-any.whl"
        assert src.info.digest == f"sha256:{SIX_WHEEL_SHA256}"
        assert "six.py" in src.paths()
        assert b"def add_metaclass" in src.read("six.py")
    # Second open is served from the cache even when the network is forbidden.
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    with open_source("pypi:six==1.16.0", cache_dir=tmp_path) as src:
        assert src.info.digest == f"sha256:{SIX_WHEEL_SHA256}"


@pytest.mark.slow
def test_pypi_sdist_only_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, network: None
) -> None:
    # docopt 0.6.2 was only ever published as an sdist.
    monkeypatch.delenv("LINEAGE_OFFLINE", raising=False)
    with open_source("pypi:docopt==0.6.2", cache_dir=tmp_path) as src:
        assert src.info.details["filename"] == "docopt-0.6.2.tar.gz"
        assert src.info.details["stripped_prefix"] == "docopt-0.6.2"
        assert src.info.details["url"].endswith("/docopt-0.6.2.tar.gz")
        assert "docopt.py" in src.paths()


@pytest.mark.slow
def test_pypi_nonexistent_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, network: None
) -> None:
    monkeypatch.delenv("LINEAGE_OFFLINE", raising=False)
    with pytest.raises(SourceError, match=r"^pypi: no release six==9\.9\.9 \(pip: .+\)$"):
        open_source("pypi:six==9.9.9", cache_dir=tmp_path)


def test_pypi_truncated_download_is_fetched_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sha256 a download had is recorded beside it and checked on every use: a truncated wheel
    is downloaded again online, and refused with one clear line offline."""
    built, calls = _fake_pip_serving_tiny_wheel(tmp_path, monkeypatch)
    cache = tmp_path / "cache"
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        cached = Path(src.info.location)
    cached.write_bytes(built.read_bytes()[:-40])
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        assert src.paths()[-1] == "tinypkg/__init__.py"
        assert src.info.digest == "sha256:" + sha256_of(built)
    assert calls == ["tinypkg==1.0", "tinypkg==1.0"]
    cached.write_bytes(built.read_bytes()[:-40])
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    with pytest.raises(SourceError, match="^pypi: sha256 mismatch for tinypkg==1.0: recorded at download"):
        open_source("pypi:tinypkg==1.0", cache_dir=cache)



@pytest.mark.parametrize("record", ["garbage\n", "", "0" * 63 + "\n"])
def test_pypi_archive_with_a_damaged_sha256_record_is_fetched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: str
) -> None:
    """A damaged sha256 record checks nothing: its archive, here another build's wheel in the
    release's place, is downloaded again (refused offline). Before, it was read as the release and
    its sha256 recorded as the right one, the next runs reading it too (a figure of other code)."""
    built, calls = _fake_pip_serving_tiny_wheel(tmp_path, monkeypatch)
    cache = tmp_path / "cache"
    with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
        cached = Path(src.info.location)
    (tmp_path / "other").mkdir()
    other = make_zip(tmp_path / "other" / cached.name, {"tinypkg/__init__.py": "VALUE = 2\n"})
    record_file = cached.with_name(cached.name + ".sha256")
    for offline in (True, False):
        cached.write_bytes(other.read_bytes())
        record_file.write_text(record, encoding="ascii")
        if offline:
            monkeypatch.setenv("LINEAGE_OFFLINE", "1")
            with pytest.raises(SourceError, match=r"^pypi: sha256 mismatch for tinypkg==1\.0: its record .* damaged"):
                open_source("pypi:tinypkg==1.0", cache_dir=cache)
            monkeypatch.delenv("LINEAGE_OFFLINE")
            continue
        with open_source("pypi:tinypkg==1.0", cache_dir=cache) as src:
            assert src.info.digest == "sha256:" + sha256_of(built)
            assert src.paths() == ["tinypkg-1.0.dist-info/METADATA", "tinypkg/__init__.py"]
    assert calls == ["tinypkg==1.0", "tinypkg==1.0"]
    assert record_file.read_text(encoding="ascii") == sha256_of(built) + "\n"

@pytest.mark.parametrize("pin", [False, True])
def test_pypi_archive_without_a_sha256_record_is_fetched_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pin: bool
) -> None:
    """An archive whose ``.sha256`` record is missing is not trusted: another build's wheel put in
    the release's place with the record deleted is downloaded again (refused offline), the pin
    checked against the download, and the record written. Before (round robust142's item (1)) it
    was read as the release and its sha256 recorded as the right one."""
    built, calls = _fake_pip_serving_tiny_wheel(tmp_path, monkeypatch)
    spec = f"pypi:tinypkg==1.0#sha256={sha256_of(built)}" if pin else "pypi:tinypkg==1.0"
    cache = tmp_path / "cache"
    with open_source(spec, cache_dir=cache) as src:
        cached = Path(src.info.location)
    (tmp_path / "other").mkdir()
    other = make_zip(tmp_path / "other" / cached.name, {"tinypkg/__init__.py": "VALUE = 2\n"})
    record_file = cached.with_name(cached.name + ".sha256")
    cached.write_bytes(other.read_bytes())
    record_file.unlink()
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    refused = ("sha256 mismatch for tinypkg==1\\.0: expected" if pin
               else "tinypkg==1\\.0: cached .* has no sha256 record")
    with pytest.raises(SourceError, match=refused):
        open_source(spec, cache_dir=cache)
    monkeypatch.delenv("LINEAGE_OFFLINE")
    with open_source(spec, cache_dir=cache) as src:
        assert src.info.digest == "sha256:" + sha256_of(built)
        assert src.paths() == ["tinypkg-1.0.dist-info/METADATA", "tinypkg/__init__.py"]
    assert calls == ["tinypkg==1.0", "tinypkg==1.0"]
    assert record_file.read_text(encoding="ascii") == sha256_of(built) + "\n"


def test_pinned_archive_without_a_sha256_record_is_used_when_it_has_the_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network: None
) -> None:
    """The pin proves the archive: a pinned release cached without a record is the pinned file
    when its sha256 is the pin's, so it is read offline and its record written; an unpinned spec
    of the same cache entry is refused (nothing says which file it is)."""
    monkeypatch.setenv("LINEAGE_OFFLINE", "1")
    wheel = tiny_wheel(tmp_path / "downloads" / "pypi" / "tinypkg-1.0")
    record = wheel.with_name(wheel.name + ".sha256")
    with pytest.raises(SourceError, match="has no sha256 record"):
        open_source("pypi:tinypkg==1.0", cache_dir=tmp_path)
    assert not record.exists()
    with open_source(f"pypi:tinypkg==1.0#sha256={sha256_of(wheel)}", cache_dir=tmp_path) as src:
        assert src.info.digest == "sha256:" + sha256_of(wheel)
    assert record.read_text(encoding="ascii") == sha256_of(wheel) + "\n"
    with open_source("pypi:tinypkg==1.0", cache_dir=tmp_path) as src:  # recorded now
        assert src.info.digest == "sha256:" + sha256_of(wheel)


def test_download_folders_left_by_an_interrupted_run_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    import fcntl

    from lineage.sources.pypi import ABANDONED_DOWNLOAD_SECONDS, _downloading, _remove_abandoned_downloads

    names = ("live", "dead", "old", "fresh", "waiting", "just-made")
    folders = {name: tmp_path / f".download-{name}" for name in names}
    other = tmp_path / "sglang-0.5.23"
    for folder in [*folders.values(), other]:
        folder.mkdir()
    for name in ("dead", "old", "fresh"):
        (folders[name] / "part.whl").write_bytes(b"x" * 10)
    now = 1_700_000_000.0
    long_ago = (now - ABANDONED_DOWNLOAD_SECONDS - 5,) * 2
    for path in (folders["old"], folders["old"] / "part.whl", other, folders["waiting"]):
        os.utime(path, long_ago)
    os.utime(folders["fresh"] / "part.whl", (now - 2,) * 2)
    (folders["dead"] / ".lock").touch()  # its run is gone: nobody holds the lock
    os.utime(folders["dead"], (now - 300,) * 2)
    # made a moment ago, its lock not yet taken (another thread of the same run opening the
    # other source saw it): not judged, its run's flock would fail
    (folders["just-made"] / ".lock").touch()
    os.utime(folders["just-made"], (now - 10,) * 2)
    with _downloading(folders["waiting"]):  # pip still fetching into its own folder: nothing here changes
        os.utime(folders["waiting"] / ".lock", long_ago)
        os.utime(folders["waiting"], long_ago)
        with _downloading(folders["live"]):
            with pytest.raises(BlockingIOError), (folders["live"] / ".lock").open("a") as again:
                fcntl.flock(again, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the lock excludes another open
            removed = _remove_abandoned_downloads(tmp_path, now)
    assert removed == [folders["dead"], folders["old"]]
    assert all(folders[name].exists() for name in ("live", "fresh", "waiting", "just-made")) and other.exists()


def test_a_pypi_download_holds_its_folder_locked_and_clears_abandoned_ones(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import lineage.sources.pypi as pypi

    calls: list[Path] = []
    monkeypatch.setattr(pypi, "_remove_abandoned_downloads", lambda folder, now=None: calls.append(folder) or [])
    held: list[bool] = []

    def fetch(name: str, version: str, dest: Path, pinned: str = "") -> tuple[Path, str]:
        import fcntl

        with (dest / ".lock").open("a") as lock:  # our own run holds it: another open cannot take it
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held.append(False)
            except BlockingIOError:
                held.append(True)
        raise SourceError("pypi: stop here")

    monkeypatch.setattr(pypi, "_fetch_release", fetch)
    monkeypatch.delenv("LINEAGE_OFFLINE", raising=False)
    with pytest.raises(SourceError, match="stop here"):
        open_source("pypi:somepkg==1.0", tmp_path / "cache")
    assert held == [True] and len(calls) == 1 and not list(calls[0].glob(".download-*"))


def test_symlinked_python_files_are_reported_skipped(tmp_path: Path) -> None:
    """A symlinked module (and a symlinked package) is not read, and says so beyond the manifest:
    files.csv lists the module as skipped, summary.md counts the entries not read."""
    body = treegen.distinctive_functions(2)
    up = treegen.write_tree(tmp_path / "up", {"pkg/core.py": body})
    outside = treegen.write_tree(tmp_path / "outside", {"core.py": body, "sub/x.py": body})
    target = treegen.write_tree(tmp_path / "target", {"pkg/own.py": "VALUE = 1\n"})
    os.symlink(outside / "core.py", target / "pkg" / "core.py")
    os.symlink(outside / "sub", target / "linkedpkg")
    out = tmp_path / "out"
    assert main(["compare", str(target), str(up), "--out", str(out), "--no-cache", "-q", "--no-html"]) == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False).set_index("target_path")
    assert (files.loc["pkg/core.py", "status"], files.loc["pkg/core.py", "reason"]) == ("skipped", "symlink")
    summary = (out / "summary.md").read_text()
    assert "Entries of the target not read: 2 (symlink 2;" in summary


@pytest.mark.parametrize("top", ["tgt-1.0", "./tgt-1.0"])
def test_an_archives_members_not_read_are_skipped_rows_at_their_tree_paths(tmp_path: Path, top: str) -> None:
    """A duplicate member is the manifest's business, not a skipped file (its path is indexed);
    an sdist's symlinked module is a skipped row at its path below the stripped NAME-VERSION/
    (also when tar wrote it as ./NAME-VERSION/)."""
    body = treegen.distinctive_functions(2)
    up = treegen.write_tree(tmp_path / "up", {"pkg/a.py": body})
    sdist = tmp_path / "tgt-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tar:
        for name, text in ((f"{top}/pkg/a.py", body), (f"{top}/pkg/a.py", body + "# later\n")):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo(f"{top}/pkg/link.py")
        link.type, link.linkname = tarfile.SYMTYPE, "a.py"
        tar.addfile(link)
    out = tmp_path / "out"
    assert main(["compare", str(sdist), str(up), "--out", str(out), "--no-cache", "-q", "--no-html"]) == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False)
    assert sorted(zip(files["target_path"], files["status"], files["reason"], strict=True)) == [
        ("pkg/a.py", "indexed", ""), ("pkg/link.py", "skipped", "symlink")]


def test_missing_path_names_the_spec_it_looks_like(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # user32's fresh-eyes round: ``npm:flask==3.0.3`` or ``flask==3.0.3`` said only "no such file
    # or directory"; the error now says which form a source takes.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SourceError, match=r"'npm:' is no scheme lineage reads\)$"):
        open_source("npm:flask==3.0.3")
    with pytest.raises(SourceError, match=r"'PyPI:' is no scheme"):
        open_source("PyPI:flask==3.0.3")
    with pytest.raises(SourceError, match=r"'https:' is no scheme"):
        open_source("https://github.com/pallets/flask")
    with pytest.raises(SourceError, match=r"^no such file or directory: flask==3\.0\.3 \(a PyPI release is named "
                                          r"pypi:flask==3\.0\.3\)$"):
        open_source("flask==3.0.3")
    # a plain missing path, a one-letter drive and a pin inside a path get no hint
    for spec in (str(tmp_path / "nope"), "C:nope", "dir/flask==3.0.3"):
        with pytest.raises(SourceError, match=r"^no such file or directory: [^(]*$"):
            open_source(spec)
