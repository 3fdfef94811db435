"""Tests for lineage.index.tree: a whole source indexed through the cache, in parallel or not."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import treegen

from lineage.errors import SourceError
from lineage.index import IndexCache, index_tree
from lineage.sources import blob_digest, open_source


def _tree(root: Path, n_modules: int = 3) -> tuple[Path, treegen.Upstream]:
    up = treegen.gen_upstream(seed=5, n_modules=n_modules)
    files: dict[str, str | bytes] = dict(up.files())
    files["README.md"] = "not python\n"
    files["bad.py"] = b"\xff\xfe not utf-8 \x00\n"
    return treegen.write_tree(root, files), up


def _index(root: Path, cache: IndexCache, jobs: int = 1, **kwargs: object):  # type: ignore[no-untyped-def]
    with open_source(str(root), root.parent / "downloads") as source:
        return index_tree(source, cache, jobs, **kwargs)  # type: ignore[arg-type]


def test_files_sorted_skipped_recorded_and_others_counted(tmp_path: Path) -> None:
    root, up = _tree(tmp_path / "t")
    tree = _index(root, IndexCache(None))
    paths = [f.path for f in tree.files]
    assert paths == sorted(paths) == sorted([*up.modules, f"{up.pkg}/__init__.py"])
    assert [p for p, _ in tree.skipped] == ["bad.py"] and tree.skipped[0][1]
    assert tree.other_files == 1
    module = next(iter(up.modules.values()))
    assert tree.lines(module.path) == module.lines
    assert tree.files[0].digest == blob_digest((root / tree.files[0].path).read_bytes())


def test_tree_digest_is_over_python_paths_and_blobs(tmp_path: Path) -> None:
    root, _ = _tree(tmp_path / "t")
    tree = _index(root, IndexCache(None))
    expected = hashlib.sha256()
    for path in sorted(["bad.py", *(f.path for f in tree.files)]):
        expected.update(f"{path}\0{blob_digest((root / path).read_bytes())}\n".encode())
    assert tree.tree_digest == "sha256:" + expected.hexdigest()
    (root / "README.md").write_text("changed\n")
    assert _index(root, IndexCache(None)).tree_digest == tree.tree_digest  # non-Python files do not count
    (root / "extra.py").write_text("x = 1\n")
    assert _index(root, IndexCache(None)).tree_digest != tree.tree_digest


def test_the_cache_answers_a_second_run(tmp_path: Path) -> None:
    root, _ = _tree(tmp_path / "t")
    cache_root = tmp_path / "cache"
    first = _index(root, IndexCache(cache_root))
    assert (first.cache_hits, first.cache_misses) == (0, len(first.files) + 1)  # bad.py is tried too
    second = _index(root, IndexCache(cache_root))
    assert second.cache_hits == len(first.files)
    assert [f.digest for f in second.files] == [f.digest for f in first.files]
    assert [f.kinds.tolist() for f in second.files] == [f.kinds.tolist() for f in first.files]


def test_parallel_indexing_gives_the_same_records(tmp_path: Path) -> None:
    # Above the parallel threshold (64 files to parse), small files so that it stays quick.
    files: dict[str, str | bytes] = {
        f"pkg/m{k:02d}.py": f"# Adapted from upstream/m{k:02d}.py\n\n\ndef f{k}(x):\n    \"\"\"Add {k}.\"\"\"\n"
                            f"    return x + {k}\n" for k in range(70)}
    root = treegen.write_tree(tmp_path / "t", files)
    serial = _index(root, IndexCache(None), jobs=1)
    parallel = _index(root, IndexCache(None), jobs=2)
    assert len(serial.files) == 70
    assert [(f.path, f.digest, f.kinds.tolist(), f.markers) for f in parallel.files] == \
        [(f.path, f.digest, f.kinds.tolist(), f.markers) for f in serial.files]
    assert all(f.markers for f in serial.files)


def test_too_large_files_are_skipped_and_progress_is_reported(tmp_path: Path) -> None:
    root, up = _tree(tmp_path / "t")
    messages: list[str] = []
    tree = _index(root, IndexCache(None), max_file_bytes=200, progress=messages.append)
    assert {p for p, _ in tree.skipped} >= set(up.modules)
    # a start line and an end line (lineage.progress: plain lines when the callback is not a terminal);
    # the modules over the limit by their size are skipped unread, so 2 of the 5 files are parsed
    assert len(messages) == 2 and all(m.startswith("indexing t: 2 files") for m in messages)


def _wheel(tmp_path: Path) -> Path:
    import zipfile

    root, _ = _tree(tmp_path / "t")
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            zf.write(path, path.relative_to(root).as_posix())
    return wheel


def test_an_archive_identity_reads_no_member_once_its_blob_hashes_are_recorded(tmp_path: Path,
                                                                                monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from lineage.index.tree import tree_identity
    from lineage.sources.archive import ArchiveSource

    wheel, cache = _wheel(tmp_path), IndexCache(tmp_path / "cache")
    with open_source(str(wheel)) as source:
        plain = tree_identity(source)
        indexed = index_tree(source, cache, 1)  # records the archive's blob hashes
    assert plain["tree_digest"] == indexed.tree_digest
    read: list[str] = []
    real = ArchiveSource.read_many

    def counting(self, paths):  # type: ignore[no-untyped-def]
        paths = list(paths)
        read.extend(paths)
        return real(self, paths)

    monkeypatch.setattr(ArchiveSource, "read_many", counting)
    with open_source(str(wheel)) as source:
        assert tree_identity(source, cache) == plain
    assert not [p for p in read if p.endswith(".py")]  # no Python member was read for the key
    # A damaged entry is no answer: the members are read again and the entry written anew.
    entry = next((tmp_path / "cache").rglob("*.digests"))
    entry.write_bytes(entry.read_bytes()[:-5])
    with open_source(str(wheel)) as source:
        assert tree_identity(source, cache) == plain
    assert [p for p in read if p.endswith(".py")]
    assert cache.archive_digests(str(plain["info"]["digest"])) != {}  # type: ignore[index]


def test_recorded_blob_hashes_are_keyed_by_the_archive_bytes(tmp_path: Path) -> None:
    from lineage.index.tree import tree_identity

    wheel, cache = _wheel(tmp_path), IndexCache(tmp_path / "cache")
    with open_source(str(wheel)) as source:
        index_tree(source, cache, 1)
    with zipfile_append(wheel) as zf:  # other bytes, another sha256: the old record is not used
        zf.writestr("pkg_extra.py", "y = 2\n")
    with open_source(str(wheel)) as source:
        plain = tree_identity(source)
        assert tree_identity(source, cache) == plain
        assert "pkg_extra.py" in cache.archive_digests(source.info.digest)
    assert IndexCache(None).archive_digests(str(plain["info"]["digest"])) == {}  # type: ignore[index]
    assert cache.archive_digests("git:abc") == {}  # only an archive's sha256 names a record


def zipfile_append(path: Path):  # type: ignore[no-untyped-def]
    import zipfile

    return zipfile.ZipFile(path, "a")


def test_files_read_for_the_identity_are_indexed_without_reading_them_again(tmp_path: Path) -> None:
    from lineage.index.tree import tree_identity

    root, _ = _tree(tmp_path / "t")
    plain = _index(root, IndexCache(None))
    with open_source(str(root), tmp_path / "downloads") as source:
        blobs: dict[str, bytes] = {}
        identity = tree_identity(source, IndexCache(None), blobs)
        assert sorted(blobs) == sorted([f.path for f in plain.files] + [p for p, _ in plain.skipped])
        reads: list[str] = []
        real = source.read_many

        def counting(paths):  # type: ignore[no-untyped-def]
            paths = list(paths)
            reads.extend(paths)
            return real(paths)

        source.read_many = counting  # type: ignore[method-assign]
        # One file left out of what was read: that one alone is read again.
        left_out = sorted(blobs)[0]
        del blobs[left_out]
        tree = index_tree(source, IndexCache(None), 1, read=blobs)
    assert reads == [left_out] and blobs == {}
    assert identity["tree_digest"] == tree.tree_digest == plain.tree_digest
    assert tree.data == plain.data and list(tree.data) == list(plain.data)
    assert [(f.path, f.digest, f.h_norm.tolist()) for f in tree.files] == \
        [(f.path, f.digest, f.h_norm.tolist()) for f in plain.files]
    assert tree.skipped == plain.skipped


def test_files_read_for_the_identity_are_not_hashed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A :class:`ReadFiles` carries the blob digests the identity computed: index_tree hashes
    only the file it reads itself, and the tree is the one indexed from plain bytes."""
    import lineage.index.tree as tree_module
    from lineage.index.tree import ReadFiles, tree_identity

    root, _ = _tree(tmp_path / "t")
    plain = _index(root, IndexCache(None))
    hashed: list[int] = []
    real = tree_module.blob_digest
    monkeypatch.setattr(tree_module, "blob_digest", lambda data: hashed.append(len(data)) or real(data))
    with open_source(str(root), tmp_path / "downloads") as source:
        blobs = ReadFiles()
        tree_identity(source, IndexCache(None), blobs)
        assert sorted(blobs.digests) == sorted(blobs) and len(hashed) == len(blobs)
        left_out = sorted(blobs)[0]
        del blobs[left_out]
        hashed.clear()
        tree = index_tree(source, IndexCache(None), 1, read=blobs)
    assert hashed == [len((root / left_out).read_bytes())]
    assert tree.tree_digest == plain.tree_digest and tree.data == plain.data
    assert [(f.path, f.digest, f.h_norm.tolist()) for f in tree.files] == \
        [(f.path, f.digest, f.h_norm.tolist()) for f in plain.files]


def test_what_the_identity_declared_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A :class:`ReadFiles` carries the licence, project and vendoring records the identity read:
    index_tree reads none of them again, and the tree declares what a plain index reads."""
    import lineage.index.tree as tree_module
    from lineage.index.tree import ReadFiles, tree_identity

    root, _ = _tree(tmp_path / "t")
    (root / "LICENSE").write_text("MIT License\n\nCopyright (c) 2024 Someone\n", encoding="utf-8")
    (root / "pyproject.toml").write_text('[project]\nname = "someproj"\n', encoding="utf-8")
    (root / "vendor.txt").write_text("requests==2.32.3\n", encoding="utf-8")
    plain = _index(root, IndexCache(None))
    assert plain.licence is not None and plain.licence.files and plain.project is not None and plain.project.name
    calls: list[str] = []
    for name in ("read_source_licence", "read_project", "read_vendor_records"):
        real = getattr(tree_module, name)
        monkeypatch.setattr(tree_module, name, lambda source, real=real, name=name: calls.append(name) or real(source))
    with open_source(str(root), tmp_path / "downloads") as source:
        blobs = ReadFiles()
        tree_identity(source, IndexCache(None), blobs)
        assert len(calls) == 3
        tree = index_tree(source, IndexCache(None), 1, read=blobs)
    assert len(calls) == 3  # none read again
    assert (tree.licence, tree.project, tree.vendoring) == (plain.licence, plain.project, plain.vendoring)


def test_an_archive_indexed_from_the_cache_reads_a_member_only_when_its_lines_are_asked_for(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import os
    import zipfile

    from lineage.index.tree import TreeBytes
    from lineage.sources.archive import ArchiveSource, _ZipLaterReader

    wheel, cache = _wheel(tmp_path), IndexCache(tmp_path / "cache", 8)  # with record packs, as runs have
    with open_source(str(wheel)) as source:
        first = index_tree(source, cache, 1)  # parses, records the blob hashes and the pack
    assert isinstance(first.data, dict)
    read: list[str] = []
    real_many, real_later = ArchiveSource.read_many, _ZipLaterReader.read

    def counting(self, paths):  # type: ignore[no-untyped-def]
        paths = list(paths)
        read.extend(paths)
        return real_many(self, paths)

    def counting_later(self, path):  # type: ignore[no-untyped-def]
        read.append(path)
        return real_later(self, path)

    monkeypatch.setattr(ArchiveSource, "read_many", counting)
    monkeypatch.setattr(_ZipLaterReader, "read", counting_later)
    with open_source(str(wheel)) as source:
        second = index_tree(source, cache, 1)
    # Only bad.py (never cached: it is not indexed) was read; the source is closed now.
    assert read == ["bad.py"] and isinstance(second.data, TreeBytes)
    assert second.data.unread == len(second.files)
    assert second.cache_hits == len(first.files) and second.tree_digest == first.tree_digest
    assert [(f.path, f.digest, f.h_norm.tolist()) for f in second.files] == \
        [(f.path, f.digest, f.h_norm.tolist()) for f in first.files]
    one = second.files[0].path
    assert second.lines(one) == first.lines(one) and read == ["bad.py", one]
    assert second.lines(one) == first.lines(one) and read == ["bad.py", one]  # kept once read
    assert list(second.data) == list(first.data) and dict(second.data) == first.data
    assert second.data.unread == 0
    with pytest.raises(KeyError):
        second.data["no/such.py"]

    # A forked process reads through its own handle (a shared one would share its file offset).
    with open_source(str(wheel)) as source:
        third = index_tree(source, cache, 1)
    paths = [f.path for f in third.files]
    assert third.data[paths[0]] == first.data[paths[0]]
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's result is its exit status
        os._exit(0 if all(third.data[p] == first.data[p] for p in paths) else 1)
    assert os.waitpid(pid, 0)[1] == 0
    assert all(third.data[p] == first.data[p] for p in paths)

    # A member that changed after indexing is refused, not read as the indexed one.
    with open_source(str(wheel)) as source:
        fourth = index_tree(source, cache, 1)
    target = fourth.files[-1].path
    with zipfile.ZipFile(wheel) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    members[target] = members[target].replace(b"def ", b"def  ", 1)
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, blob in members.items():
            zf.writestr(name, blob)
    with pytest.raises(SourceError, match=target):  # the zip's own check (CRC, offsets) or ours
        fourth.data[target]


def test_tree_bytes_refuses_bytes_other_than_those_indexed() -> None:
    from lineage.index.tree import TreeBytes

    class Reader:
        def __init__(self, blob: bytes) -> None:
            self.blob = blob

        def read(self, path: str) -> bytes:
            return self.blob

    good = b"x = 1\n"
    data = TreeBytes(["a.py", "b.py"], {"a.py": b"y\n"}, {"b.py": blob_digest(good)}, Reader(good), "up")
    assert data["b.py"] == good and "b.py" in data and "c.py" not in data and len(data) == 2
    stale = TreeBytes(["b.py"], {}, {"b.py": blob_digest(good)}, Reader(b"x = 2\n"), "up")
    with pytest.raises(SourceError, match="up: b.py changed while lineage ran"):
        stale["b.py"]


def test_a_file_too_large_for_this_run_is_read_and_skipped_even_with_a_cached_record(tmp_path: Path) -> None:
    wheel, cache = _wheel(tmp_path), IndexCache(tmp_path / "cache", 8)
    with open_source(str(wheel)) as source:
        first = index_tree(source, cache, 1)
    biggest = max(first.files, key=lambda f: f.n_bytes)
    with open_source(str(wheel)) as source:
        small = index_tree(source, cache, 1, max_file_bytes=biggest.n_bytes - 1)
    assert biggest.path in dict(small.skipped) and biggest.path not in [f.path for f in small.files]
    assert small.cache_hits == len(first.files) - 1


@pytest.mark.parametrize("limit", [None, "small"])
def test_cache_counts_are_those_of_a_run_that_reads_every_member(tmp_path: Path, monkeypatch, limit) -> None:  # type: ignore[no-untyped-def]
    """Reruns of a wheel count the same cache hits and misses whether its members are read up
    front or on demand, with a file too large for the run among them (never cached: a miss on
    every run that looks it up, and none that does not)."""
    import zipfile

    from lineage.sources.archive import ArchiveSource

    wheel = _wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist() if i.filename.endswith(".py")}
    counts = []
    for lazy in (True, False):
        if not lazy:
            monkeypatch.setattr(ArchiveSource, "later_reader", lambda self: None)
        cache = IndexCache(tmp_path / f"cache-{lazy}", 8)
        size = max(len(blob) for blob in members.values()) - 1 if limit else 4 * 1024 * 1024
        runs = []
        for _ in range(3):  # the first parses and records; a too large file is never cached
            with open_source(str(wheel)) as source:
                tree = index_tree(source, cache, 1, max_file_bytes=size)
            runs.append((tree.cache_hits, tree.cache_misses, cache.rebuilt, isinstance(tree.data, dict)))
        counts.append(runs)
    assert [run[:3] for run in counts[0]] == [run[:3] for run in counts[1]]
    assert not any(run[3] for run in counts[0][1:]) and all(run[3] for run in counts[1])


def _die(batch: object) -> object:
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)
    return batch


def test_a_killed_indexing_worker_is_one_error_not_a_traceback(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """An indexing worker killed by the system (out of memory) ends the run with a WorkerError,
    which the CLI prints as one line (exit 2), not with concurrent.futures' BrokenProcessPool."""
    import multiprocessing

    from lineage.errors import WorkerError
    from lineage.index import tree as tree_module

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the pool's workers must inherit the patched batch function (fork)")
    monkeypatch.setattr(tree_module, "_index_batch", _die)
    root = treegen.write_tree(tmp_path / "t", {f"m{k}.py": f"x = {k}\n" for k in range(80)})
    with pytest.raises(WorkerError, match=r"^a worker process \(indexing .*\) ended abruptly"):
        _index(root, IndexCache(None), jobs=2)
