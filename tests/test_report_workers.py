"""Tests for lineage.report._write_all: reporters in forked processes write the files, and list
them in the manifest, exactly as in one process."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import lineage.report as report
from lineage.api import compare
from lineage.compare_and_write import compare_and_write
from lineage.settings import RunSettings
from tests.test_table_reuse import _reports, _trees


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "manifest.json"}


@pytest.mark.parametrize("html", [False, True])
def test_reports_written_by_two_processes_are_those_of_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           html: bool) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)  # the attachments' time must still be one
    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    forked: list[int] = []
    original = report._write_all
    monkeypatch.setattr(report, "_write_all",
                        lambda r, c, f, jobs, *rest: forked.append(jobs) or original(r, c, f, jobs, *rest))
    comparison.write(tmp_path / "one", html=html, jobs=1)
    comparison.write(tmp_path / "two", html=html, jobs=2)
    assert forked == [1, 2]
    one, two = (json.loads((tmp_path / name / "manifest.json").read_text(encoding="utf-8")) for name in ("one", "two"))
    assert list(one["outputs"]) == list(two["outputs"])  # the same files, in the same order
    spdx = json.loads((tmp_path / "two" / "lineage.spdx.json").read_text(encoding="utf-8"))
    created = spdx["creationInfo"]["created"].replace("Z", "+00:00")
    assert created == two["attachments_created"]  # the parent's report time, in the worker
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    comparison.write(tmp_path / "one-fixed", html=html, jobs=1)
    comparison.write(tmp_path / "two-fixed", html=html, jobs=2)
    assert _files(tmp_path / "one-fixed") == _files(tmp_path / "two-fixed")
    # The digests the workers computed as they wrote are the files' own, and those of one process.
    fixed = [json.loads((tmp_path / name / "manifest.json").read_text(encoding="utf-8"))["outputs"]
             for name in ("one-fixed", "two-fixed")]
    assert fixed[0] == fixed[1]
    for name, digest in fixed[1].items():
        assert digest == "sha256:" + hashlib.sha256((tmp_path / "two-fixed" / name).read_bytes()).hexdigest(), name


def test_the_manifest_takes_the_digests_a_reporter_worker_computed(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import lineage.report.manifest as manifest

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    hashed: list[str] = []
    original = manifest.file_sha256
    monkeypatch.setattr(manifest, "file_sha256", lambda path: hashed.append(path.name) or original(path))
    comparison.write(tmp_path / "two", html=False, jobs=2)
    assert hashed == []  # every output was hashed where it was written
    comparison.write(tmp_path / "one", html=False, jobs=1)
    assert "lines.csv" in hashed  # in one process the manifest hashes them itself


def test_the_parent_makes_the_obligations_while_the_workers_start(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The obligations table, read by every reporter but the tables', is made once, by the
    parent after the workers were forked (they import their libraries meanwhile), and each worker
    that reads it takes the parent's; the files are those of one process."""
    import multiprocessing
    import os

    import lineage.results.obligations as obligations

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)
    log = tmp_path / "made.log"  # by whichever process makes the table
    real = obligations.build_obligations

    def logged(*args: object, **kwargs: object) -> object:
        with log.open("a") as out:  # who made it, and how many workers were running then
            out.write(f"{os.getpid()}:{len(multiprocessing.active_children())}\n")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(obligations, "build_obligations", logged)
    for jobs in (2, 1):
        comparison = compare(str(target), [str(upstream)],
                             settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
        assert "obligations" not in comparison.__dict__
        comparison.write(tmp_path / f"j{jobs}", html=True, jobs=jobs)
        assert log.read_text().split() == [f"{os.getpid()}:{jobs if jobs > 1 else 0}"]  # once, here
        log.unlink()
    assert _files(tmp_path / "j1") == _files(tmp_path / "j2")
    assert (tmp_path / "j2" / "obligations.csv").read_text(encoding="utf-8").count("\n") > 1  # rows, not a header


@pytest.mark.parametrize("memfd", [True, False])
def test_a_late_value_reaches_every_worker_that_takes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         memfd: bool) -> None:
    import os

    from lineage.match.workers import LateValue

    if not memfd:  # another system: an unlinked temporary file
        def no_memfd(*args: object) -> int:
            raise OSError("no memfd here")

        monkeypatch.setattr(os, "memfd_create", no_memfd, raising=False)
    late = LateValue()
    children = []
    for k in range(2):
        pid = os.fork()
        if pid == 0:  # a worker: waits for the value, then writes what it took
            try:
                (tmp_path / f"took{k}").write_text(repr(late.take()))
            finally:
                os._exit(0)
        children.append(pid)
    value = {"rows": list(range(100_000)), "name": "obligations"}  # larger than a pipe's buffer
    late.give(value, len(children))
    for pid in children:
        os.waitpid(pid, 0)
    late.close()
    assert [(tmp_path / f"took{k}").read_text() for k in range(2)] == [repr(value)] * 2


def test_without_a_file_to_hand_it_over_the_obligations_are_made_before_the_fork(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing

    import lineage.match.workers as workers
    import lineage.results.obligations as obligations

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)

    def unavailable() -> None:
        raise OSError("no temporary files here")

    monkeypatch.setattr(workers, "LateValue", unavailable)
    running: list[int] = []
    real = obligations.build_obligations
    monkeypatch.setattr(obligations, "build_obligations", lambda *args, **kwargs: running.append(
        len(multiprocessing.active_children())) or real(*args, **kwargs))
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    comparison.write(tmp_path / "two", html=False, jobs=2)
    assert running == [0]  # here, before the workers, which inherit it
    comparison.write(tmp_path / "one", html=False, jobs=1)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_jobs_one_and_two_write_the_same_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)
    for jobs in (1, 2):
        compare_and_write(str(target), [str(upstream)], tmp_path / f"out{jobs}", html=False,
                          settings=RunSettings(cache_dir=tmp_path / f"cache{jobs}", jobs=jobs))
    assert _reports(tmp_path / "out1") == _reports(tmp_path / "out2")


def test_a_failing_reporter_fails_the_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lineage.errors import LineageError
    from lineage.report.sarif import SarifReporter

    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))

    def broken(self: object, comparison: object, folder: object) -> None:
        raise LineageError("broken reporter")

    monkeypatch.setattr(SarifReporter, "write", broken)
    with pytest.raises(LineageError, match="broken reporter"):
        comparison.write(tmp_path / "out", html=False, jobs=2)
    assert not (tmp_path / "out").exists()  # nothing half-written left in place


_PARENT_PROBE = """
import sys
from pathlib import Path
from tests.test_table_reuse import _trees
from lineage.api import compare
from lineage.settings import RunSettings
root = Path(sys.argv[1])
target, upstream = _trees(root)
comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=root / "cache", jobs=1))
comparison.write(root / "out", html=False, jobs=2)
print(sorted(name for name in ("spdx_tools", "cyclonedx") if name in sys.modules))
"""


def test_the_workers_import_the_attachment_libraries_not_the_parent(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _PARENT_PROBE, str(tmp_path)], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.split() == ["[]"]
    assert (tmp_path / "out" / "lineage.spdx.json").is_file() and (tmp_path / "out" / "lineage.cdx.json").is_file()


def test_the_costliest_reporter_is_handed_out_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers, the longest writer starts first rather than behind the short ones: the
    tables when lines.csv is rendered whole (no table rows reused, a cold run), else SPDX; the
    manifest keeps the reporters' order all the same."""
    import lineage.match.workers as workers

    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    assert comparison.table_rows_reused == 0
    handed: list[list[list[int]]] = []
    original = workers.chunks
    monkeypatch.setattr(workers, "chunks", lambda weights, n: handed.append(original(weights, n)) or handed[-1])
    comparison.write(tmp_path / "two", html=False, jobs=2)
    comparison.write(tmp_path / "one", html=False, jobs=1)
    # the workers' tasks (summary and obligations are the parent's: _IN_PARENT), in the reporters' order
    order = ["tables", "spdx", "cyclonedx", "sarif"]
    assert len(handed) == 1 and handed[0][0] == [order.index("tables")] and handed[0][1] == [order.index("spdx")]
    assert sorted(k for chunk in handed[0] for k in chunk) == list(range(len(order)))
    comparison.table_rows_reused = 3  # as a run that joined lines.csv from the per-file cache
    comparison.write(tmp_path / "reused", html=False, jobs=2)
    # each its own task, costliest first (the pinned pair's measured costs, lineage.report._COST)
    assert len(handed) == 2 and handed[1] == [[order.index(name)] for name in ("spdx", "cyclonedx", "tables", "sarif")]
    one, two = (json.loads((tmp_path / name / "manifest.json").read_text(encoding="utf-8")) for name in ("one", "two"))
    assert list(one["outputs"]) == list(two["outputs"])


def test_the_html_pages_are_shared_by_the_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The HTML pages (Pygments: most of the writing on a large pair) are written by every
    process, a group of about equal lines each; the index and assets by the first part."""
    from lineage.report.html import HtmlReporter, html_shards

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    files = comparison.files
    shared_code = files["shared_third_party_code_lines"] + files["shared_from_target_code_lines"]
    shown = sorted(files.loc[(files["verbatim_lines"] + files["near_lines"] > 0) | (shared_code > 0)
                             | (files["marker"] != ""), "target_path"])
    groups = html_shards(comparison, 2)
    assert len(groups) == 2 and all(groups) and sorted(groups[0] + groups[1]) == shown
    assert html_shards(comparison, 2) == groups  # the same groups every time
    sizes = comparison.files.set_index("target_path")["nonblank_lines"]
    loads = [sum(int(sizes[p]) + 1 for p in g) for g in groups]
    assert abs(loads[0] - loads[1]) <= int(sizes.max()) + 1  # greedy: within one file of even
    log = tmp_path / "parts.log"  # written by the worker processes
    original = HtmlReporter.write_part

    def logged(self: HtmlReporter, c: object, f: object, k: int, n: int) -> None:
        with log.open("a") as out:
            out.write(f"{k}/{n}\n")
        original(self, c, f, k, n)  # type: ignore[arg-type]

    monkeypatch.setattr(HtmlReporter, "write_part", logged)
    comparison.write(tmp_path / "two", html=True, jobs=2)
    assert sorted(log.read_text().split()) == ["0/2", "1/2"]
    comparison.write(tmp_path / "one", html=True, jobs=1)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_more_html_parts_than_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parts with no page (more processes than shown files) write nothing but, for the first, the
    index; the files are those of one process at any number of processes."""
    from lineage.report.html import html_shards

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    n_shown = sum(len(g) for g in html_shards(comparison, 1))
    groups = html_shards(comparison, n_shown + 2)
    assert sum(1 for g in groups if not g) >= 2 and sorted(sum(groups, [])) == sorted(html_shards(comparison, 1)[0])
    comparison.write(tmp_path / "one", html=True, jobs=1)
    for jobs in (3, 6):
        comparison.write(tmp_path / f"j{jobs}", html=True, jobs=jobs)
        assert _files(tmp_path / "one") == _files(tmp_path / f"j{jobs}")
        manifests = [json.loads((tmp_path / name / "manifest.json").read_text(encoding="utf-8"))["outputs"]
                     for name in ("one", f"j{jobs}")]
        assert list(manifests[0]) == list(manifests[1])


def test_the_reporters_run_before_the_obligations_table_never_read_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """_write_all hands out the reporters of _WITHOUT_OBLIGATIONS first, while the parent still
    makes the obligations table: they must not read it (they would wait for it)."""
    from lineage.report.folder import ReportFolder
    from lineage.results.comparison import Comparison

    target, upstream = _trees(tmp_path)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    assert "obligations" not in comparison.__dict__ and not comparison.obligations.empty  # the pair has some

    def refuse(self: Comparison) -> None:
        raise AssertionError("read the obligations table")

    monkeypatch.setattr(Comparison, "obligations", property(refuse))
    written = []
    for mapping in (report._ALWAYS, report._HTML):
        for name in report._WITHOUT_OBLIGATIONS & set(mapping):
            folder = ReportFolder(tmp_path / name)
            (tmp_path / name).mkdir()
            mapping[name].write(comparison, folder)
            written.append((name, len(folder.written)))
    assert all(n > 0 for _, n in written)  # each wrote its files
    assert {name for name, _ in written} == set(report._WITHOUT_OBLIGATIONS)
    # the HTML reads it (each page states the file's obligations), so it is not among them
    assert "html" not in report._WITHOUT_OBLIGATIONS


def test_the_parent_writes_summary_and_obligations_while_the_workers_write_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers, the parent makes the obligations table and then writes the two light
    reporters that read it (report._IN_PARENT) itself; the others are the workers'. The files,
    and their order in the manifest, are those of one process."""
    import os

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    target, upstream = _trees(tmp_path)
    log = tmp_path / "writers.log"
    for mapping in (report._ALWAYS, report.ATTACHMENTS):
        for name in mapping:
            cls = type(mapping[name])
            original = cls.write

            def logged(self: object, comparison: object, folder: object, name: str = name,
                       original: object = original) -> None:
                with log.open("a") as out:
                    out.write(f"{name}:{os.getpid()}\n")
                original(self, comparison, folder)  # type: ignore[operator]

            monkeypatch.setattr(cls, "write", logged)
    comparison = compare(str(target), [str(upstream)], settings=RunSettings(cache_dir=tmp_path / "cache", jobs=1))
    comparison.write(tmp_path / "two", html=False, jobs=2)
    writers = dict(line.split(":") for line in log.read_text().split())
    here = {name for name, pid in writers.items() if pid == str(os.getpid())}
    assert here == set(report._IN_PARENT) and len(writers) == 6
    comparison.write(tmp_path / "one", html=False, jobs=1)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")
    one, two = (json.loads((tmp_path / name / "manifest.json").read_text(encoding="utf-8")) for name in ("one", "two"))
    assert list(one["outputs"]) == list(two["outputs"])
