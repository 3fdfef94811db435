"""A file over the size limit is never read: archive members, directory files and the files read
for declarations (licence, metadata, records) by their stated size; a zip member whose header
understates its size is never inflated past it (lineage.sources, lineage.index.tree)."""

from __future__ import annotations

import io
import json
import shutil
import struct
import subprocess
import sys
import tarfile
import textwrap
import tracemalloc
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from lineage.errors import SourceError
from lineage.index import IndexCache, index_tree
from lineage.index.tree import ReadFiles, declarations, tree_identity
from lineage.settings import MAX_DECLARED_FILE_BYTES
from lineage.sources import open_source
from lineage.sources.archive import ArchiveSource
from lineage.sources.base import DeclaredView, Source, read_declared
from lineage.sources.directory import DirSource

LIMIT = 1000  # --max-file-bytes in these tests: a member of a few KB stands for a huge one
SMALL = b'"""Parse widgets."""\n\n\ndef frobnicate(widget):\n    return widget.knob * 2\n'


def _zeros_member(size: int) -> bytes:
    """A Python file of ``size`` bytes that compresses to almost nothing."""
    return b"#" + b"\0" * (size - 1) if size else b""


def _write_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def _write_tar(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def _write_dir(root: Path, members: dict[str, bytes]) -> Path:
    for name, data in members.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def _reads(monkeypatch: pytest.MonkeyPatch, cls: type[Source]) -> list[str]:
    """The paths ``cls`` reads from now on (one entry per read)."""
    seen: list[str] = []
    real = cls._read_member

    def counting(self: Source, path: str, handle: object) -> bytes:
        seen.append(path)
        return real(self, path, handle)

    monkeypatch.setattr(cls, "_read_member", counting)
    return seen


@pytest.mark.parametrize("kind", ["zip", "tar.gz", "dir"])
def test_a_python_file_over_the_limit_is_skipped_unread(tmp_path: Path, kind: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    members = {"widgets/__init__.py": SMALL, "widgets/table.py": _zeros_member(5000)}
    if kind == "zip":
        spec, cls = _write_zip(tmp_path / "widgets-1.0.zip", members), ArchiveSource
    elif kind == "tar.gz":
        spec, cls = _write_tar(tmp_path / "widgets-1.0.tar.gz", members), ArchiveSource
    else:
        spec, cls = _write_dir(tmp_path / "widgets", members), DirSource
    seen = _reads(monkeypatch, cls)
    with open_source(str(spec)) as source:
        blobs = ReadFiles()
        tree_identity(source, IndexCache(None), blobs, max_file_bytes=LIMIT)
        tree = index_tree(source, IndexCache(None), 1, max_file_bytes=LIMIT, read=blobs)
    assert "widgets/table.py" not in seen and "widgets/__init__.py" in seen
    # the row a file read and found too large has (lineage.index.parse.Indexer)
    assert tree.skipped == [("widgets/table.py", f"too large (5000 bytes > {LIMIT})")]
    assert [f.path for f in tree.files] == ["widgets/__init__.py"]
    assert "widgets/table.py" not in tree.data


def test_the_tree_digest_of_an_unread_file_is_its_bytes_under_any_limit(tmp_path: Path) -> None:
    # the file is skipped unindexed, but its digest is streamed: the tree digest (manifest,
    # store, reproduce) still pins its bytes, whatever the limit and the kind of source
    def identity(name: str, member: bytes, limit: int = LIMIT) -> tuple[object, object]:
        wheel = _write_zip(tmp_path / name, {"widgets/__init__.py": SMALL, "widgets/table.py": member})
        with open_source(str(wheel)) as source:
            found = tree_identity(source, max_file_bytes=limit)
            tree = index_tree(source, IndexCache(None), 1, max_file_bytes=limit)
        if len(member) > limit:
            assert [reason for _, reason in tree.skipped] == [f"too large ({len(member)} bytes > {limit})"]
        return found["tree_digest"], tree.tree_digest

    base = identity("a.zip", _zeros_member(5000))
    assert base[0] == base[1]  # the identity's digest and the index's agree
    assert identity("b.zip", b"#" + b"x" * 4999)[0] != base[0]  # same size, other bytes
    assert identity("c.zip", _zeros_member(5000), limit=10_000) == base  # read whole (a binary skip): the same digest
    directory = tmp_path / "tree"
    (directory / "widgets").mkdir(parents=True)
    (directory / "widgets" / "__init__.py").write_bytes(SMALL)
    (directory / "widgets" / "table.py").write_bytes(_zeros_member(5000))
    with open_source(str(directory)) as source:
        assert tree_identity(source, max_file_bytes=LIMIT)["tree_digest"] == base[0]


def _lying_zip(path: Path, inflated: int, stated: int) -> Path:
    """A zip whose member ``widgets/table.py`` inflates to ``inflated`` bytes while both its
    headers state ``stated``."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("widgets/__init__.py", SMALL)
        with zf.open("widgets/table.py", "w") as fh:
            chunk = b"\0" * (1 << 20)
            for _ in range(inflated // len(chunk)):
                fh.write(chunk)
    with zipfile.ZipFile(path) as zf:
        local = zf.getinfo("widgets/table.py").header_offset
    data = bytearray(path.read_bytes())
    central = data.index(b"PK\x01\x02", data.index(b"PK\x01\x02") + 4)  # the second entry's
    assert data[central + 46:central + 62] == b"widgets/table.py"
    struct.pack_into("<I", data, local + 22, stated)  # uncompressed size, local header
    struct.pack_into("<I", data, central + 24, stated)  # uncompressed size, central directory
    path.write_bytes(bytes(data))
    return path


def test_a_lying_zip_header_is_not_inflated_past_its_stated_size(tmp_path: Path) -> None:
    wheel = _lying_zip(tmp_path / "widgets-1.0.zip", inflated=64 << 20, stated=100)
    with open_source(str(wheel)) as source:
        assert source.size("widgets/table.py") == 100
        tracemalloc.start()
        try:
            with pytest.raises(SourceError, match="Bad CRC-32") as raised:
                index_tree(source, IndexCache(None), 1)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert "\n" not in str(raised.value) and "widgets/table.py" in str(raised.value)
    assert peak < 16 << 20  # zipfile's own read() inflated all 64 MiB before cutting it at 100 bytes


def _lineage(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from lineage.cli import run; run()"  # the console script's entry
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)


def test_the_command_skips_an_oversized_member_and_exits_0(tmp_path: Path) -> None:
    target = _write_zip(tmp_path / "widgets-1.0.zip",
                        {"widgets/__init__.py": SMALL, "widgets/table.py": _zeros_member(64 << 10)})
    upstream = _write_dir(tmp_path / "gadgets", {"gadgets/__init__.py": SMALL})
    out = tmp_path / "out"
    done = _lineage("compare", str(target), str(upstream), "--out", str(out), "--no-cache", "-q", "--no-html",
                    "--jobs", "1", "--max-file-bytes", str(LIMIT))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    files = pd.read_csv(out / "files.csv", keep_default_na=False).set_index("target_path")
    assert files.loc["widgets/table.py", "status"] == "skipped"
    assert files.loc["widgets/table.py", "reason"] == f"too large ({64 << 10} bytes > {LIMIT})"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is True
    assert {"path": "widgets/table.py", "reason": f"too large ({64 << 10} bytes > {LIMIT})"} in \
        manifest["target"]["skipped_files"]


def test_the_command_refuses_a_lying_member_in_one_line(tmp_path: Path) -> None:
    target = _lying_zip(tmp_path / "widgets-1.0.zip", inflated=8 << 20, stated=100)
    upstream = _write_dir(tmp_path / "gadgets", {"gadgets/__init__.py": SMALL})
    done = _lineage("compare", str(target), str(upstream), "--out", str(tmp_path / "out"), "--no-cache", "-q",
                    "--no-html", "--jobs", "1")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lineage: error: ") and "Bad CRC-32" in lines[0], done.stderr


_RSS_SCRIPT = textwrap.dedent("""
    import json, resource, sys
    from lineage.index import IndexCache, index_tree
    from lineage.index.tree import ReadFiles, tree_identity
    from lineage.sources import open_source

    def peak():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux

    out = {}
    for spec in sys.argv[1:]:
        with open_source(spec) as source:  # opened once before measuring: imports, archive headers
            pass
        before = peak()
        with open_source(spec) as source:
            blobs = ReadFiles()
            tree_identity(source, IndexCache(None), blobs)
            tree = index_tree(source, IndexCache(None), 1, read=blobs)
        out[spec] = {"growth": peak() - before, "skipped": tree.skipped}
    print(json.dumps(out))
""")


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's")
def test_a_200_mb_member_is_skipped_without_reading_it(tmp_path: Path) -> None:
    size = 200 << 20
    zipped = tmp_path / "widgets-1.0.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("widgets/__init__.py", SMALL)
        with zf.open("widgets/table.py", "w", force_zip64=True) as fh:
            for _ in range(size >> 20):
                fh.write(b"\0" * (1 << 20))
    tarred = tmp_path / "widgets-1.0.tar.gz"
    with tarfile.open(tarred, "w:gz", compresslevel=1) as tf:
        tf.addfile(_tar_info("widgets/__init__.py", len(SMALL)), io.BytesIO(SMALL))
        tf.addfile(_tar_info("widgets/table.py", size), _Zeros(size))
    assert zipped.stat().st_size + tarred.stat().st_size < 4 << 20
    done = subprocess.run([sys.executable, "-c", _RSS_SCRIPT, str(zipped), str(tarred)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for spec, found in json.loads(done.stdout).items():
        assert found["skipped"] == [["widgets/table.py", f"too large ({size} bytes > {4 << 20})"]], spec
        # before: the member was read whole (the 300 MB member of the report peaked at 634 MB)
        assert found["growth"] < 64 << 20, (spec, found)


def _tar_info(name: str, size: int) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size = size
    return info


class _Zeros(io.RawIOBase):
    """``size`` zero bytes, read in pieces (tarfile copies a member from a file object)."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = min(len(buffer), self.left)
        buffer[:n] = bytes(n)
        self.left -= n
        return n


def test_an_oversized_declaration_file_is_left_out_unread_and_noted(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    big_metadata = b"Metadata-Version: 2.1\nName: widgets\nVersion: 1.0\n\n" + b" " * MAX_DECLARED_FILE_BYTES
    wheel = _write_zip(tmp_path / "widgets-1.0-py3-none-any.whl", {
        "widgets/__init__.py": SMALL,
        "widgets-1.0.dist-info/METADATA": big_metadata,
        "widgets-1.0.dist-info/LICENSE": b"MIT License\n\nCopyright (c) 2020 Widget Makers\n",
        "widgets-1.0.dist-info/RECORD": b"widgets/__init__.py,,\n",
    })
    seen = _reads(monkeypatch, ArchiveSource)
    with open_source(str(wheel)) as source:
        licence, project, _, notes = declarations(source)
        identity = tree_identity(source)
        tree = index_tree(source, IndexCache(None), 1)
    assert "widgets-1.0.dist-info/METADATA" not in seen
    note = ("widgets-1.0.dist-info/METADATA",
            f"not read for declarations: over {MAX_DECLARED_FILE_BYTES} bytes")
    assert notes == [note]
    assert note in tree.info.skipped and note in identity["info"]["skipped"]  # type: ignore[index]
    assert [f.path for f in licence.files] == ["widgets-1.0.dist-info/LICENSE"]  # the others still read
    assert project.name == ""  # as a wheel without METADATA


def test_a_reader_runs_again_without_the_file_it_could_not_read(tmp_path: Path) -> None:
    root = _write_dir(tmp_path / "widgets", {"a.txt": b"x" * 50, "b.txt": b"small", "c.txt": b"y" * 60})
    calls: list[list[str]] = []

    def reader(source: Source) -> dict[str, int]:
        calls.append(source.paths())
        return {path: len(source.read(path)) for path in source.paths()}

    with open_source(str(root)) as source:
        view = DeclaredView(source, limit=10)
        assert read_declared(view, reader) == {"b.txt": 5}
    assert calls == [["a.txt", "b.txt", "c.txt"], ["b.txt", "c.txt"], ["b.txt"]]
    assert [path for path, _ in view.notes()] == ["a.txt", "c.txt"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_git_blob_over_the_limit_is_skipped_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lineage.sources.git import GitSource

    repo = _write_dir(tmp_path / "repo", {"widgets/__init__.py": SMALL, "widgets/table.py": _zeros_member(5000)})
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "one"]):
        subprocess.run(["git", *env_args, *cmd], cwd=repo, check=True, capture_output=True)
    seen = _reads(monkeypatch, GitSource)
    with open_source(f"{repo}@HEAD") as source:
        assert source.size("widgets/table.py") == 5000
        tree = index_tree(source, IndexCache(None), 1, max_file_bytes=LIMIT)
    assert "widgets/table.py" not in seen and "widgets/__init__.py" in seen
    assert tree.skipped == [("widgets/table.py", f"too large (5000 bytes > {LIMIT})")]
