"""Reports that cannot mislead: whole or absent, never over a source, safe for people and spreadsheets."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pandas as pd
import pytest
import treegen

from lineage.cli import main
from lineage.report import outdir
from lineage.report.markdown import md_code, md_text
from lineage.report.outdir import ReportError, atomic_out_dir, check_complete
from lineage.report.summary import SummaryReporter

FIGURES = ("lines.csv", "files.csv", "functions.csv", "regions.csv", "summary.json", "summary.md")


def _pair(base: Path, n_modules: int = 3) -> tuple[Path, Path]:
    up = treegen.gen_upstream(seed=77, n_modules=n_modules)
    target = {f"pkg/m{k}.py": "\n".join(up.module(k).lines) + "\n" for k in range(n_modules)}
    return treegen.write_tree(base / "target", target), treegen.write_tree(base / "upstream", up.files())


def _digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _written(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A generated pair and a first report of it in ``tmp_path/out``."""
    target, upstream = _pair(tmp_path)
    out = tmp_path / "out"
    assert _run(str(target), str(upstream), "--out", str(out)) == 0
    return target, upstream, out


def _run(*args: str) -> int:
    return main(["compare", *args, "--no-cache", "-q", "--jobs", "1"])


def test_a_rerun_replaces_the_report_whole(tmp_path: Path) -> None:
    target, upstream, out = _written(tmp_path)
    assert (out / "html" / "index.html").is_file()
    assert check_complete(out)["complete"] is True
    # --no-html into a folder holding a report: the old html/ of that report must not survive
    assert _run(str(target), str(upstream), "--out", str(out), "--no-html") == 0
    assert not (out / "html").exists()
    assert not [p for p in tmp_path.iterdir() if ".lineage-" in p.name]


def test_a_failing_write_leaves_the_previous_report_untouched(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    target, upstream, out = _written(tmp_path)
    before = _digests(out)

    def broken(*args: object, **kwargs: object) -> list[Path]:
        raise KeyboardInterrupt

    monkeypatch.setattr(SummaryReporter, "write", broken)
    assert _run(str(target), str(upstream), "--out", str(out)) == 130
    assert _digests(out) == before
    assert not [p for p in tmp_path.iterdir() if ".lineage-" in p.name]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_never_leaves_a_report_that_reads_as_complete(tmp_path: Path, sig: int) -> None:
    """Kill a run at several moments: the folder holds the old report or the new one, whole."""
    target, upstream = _pair(tmp_path, n_modules=6)
    out = tmp_path / "out"
    old_target, _ = _pair(tmp_path / "old", n_modules=2)
    assert _run(str(old_target), str(upstream), "--out", str(out)) == 0
    old = _digests(out)
    clean = tmp_path / "clean"
    assert _run(str(target), str(upstream), "--out", str(clean)) == 0
    new = {k: v for k, v in _digests(clean).items() if k in FIGURES}
    code = "import sys; from lineage.cli import main; sys.exit(main())"
    for delay in (0.3, 0.8, 1.5, 2.5):
        proc = subprocess.Popen([sys.executable, "-c", code, "compare", str(target), str(upstream), "--out",
                                 str(out), "--no-cache", "-q", "--jobs", "1"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(sig)
        proc.wait(timeout=60)
        now = _digests(out)
        if now != old:  # it finished: the whole new report, complete
            assert {k: v for k, v in now.items() if k in FIGURES} == new
            assert check_complete(out)["complete"] is True
            break
    # whatever happened, a rerun gives the clean run's figures and removes dead runs' leftovers
    assert _run(str(target), str(upstream), "--out", str(out)) == 0
    assert {k: v for k, v in _digests(out).items() if k in FIGURES} == new
    assert not [p for p in tmp_path.iterdir() if ".lineage-" in p.name]


def test_incomplete_reports_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="no manifest"):
        check_complete(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "lineage.manifest"}), encoding="utf-8")
    with pytest.raises(ReportError, match="incomplete"):
        check_complete(tmp_path)


def _error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("lineage: error: "), err
    return err[0]


@pytest.mark.parametrize("where", ["target", "inside_target", "upstream", "parent"])
def test_out_may_not_be_inside_or_contain_a_source(tmp_path: Path, where: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    target, upstream = _pair(tmp_path)
    before = _digests(tmp_path)
    out = {"target": target, "inside_target": target / "report", "upstream": upstream, "parent": tmp_path}[where]
    assert _run(str(target), str(upstream), "--out", str(out)) == 2
    assert "source" in _error_line(capsys)
    assert _digests(tmp_path) == before


def test_out_with_other_files_is_never_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target, upstream = _pair(tmp_path)
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert _run(str(target), str(upstream), "--out", str(out)) == 2
    assert "not a lineage report" in _error_line(capsys)
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_out_as_a_symlink_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target, upstream = _pair(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "link"
    link.symlink_to(elsewhere)
    assert _run(str(target), str(upstream), "--out", str(link)) == 2
    assert "symlink" in _error_line(capsys)
    assert list(elsewhere.iterdir()) == []


def test_out_below_a_file_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'File exists' (the OS's word for making a folder below a file) named no culprit."""
    target, upstream = _pair(tmp_path)
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert _run(str(target), str(upstream), "--out", str(tmp_path / "notes.txt" / "report")) == 2
    assert "notes.txt, which is a file" in _error_line(capsys)


def test_stale_temporary_folders_of_dead_runs_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / ".out.lineage-tmp-999999999-abcd"
    dead.mkdir()
    with atomic_out_dir(tmp_path / "out") as fresh:
        (fresh / "summary.json").write_text("{}", encoding="utf-8")
    assert not dead.exists()
    assert (tmp_path / "out" / "summary.json").is_file()


def test_formula_cells_are_neutralised_in_csv(tmp_path: Path) -> None:
    up = treegen.gen_upstream(seed=5, n_modules=1)
    code = "\n".join(up.module(0).lines) + "\n"
    target = treegen.write_tree(tmp_path / "t", {"=HYPERLINK(1).py": code, "+x.py": code, "@y.py": code,
                                                 "-z.py": code, "ok.py": code})
    upstream = treegen.write_tree(tmp_path / "u", up.files())
    out = tmp_path / "out"
    assert _run(str(target), str(upstream), "--out", str(out), "--no-html") == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False)
    assert sorted(files["target_path"]) == ["'+x.py", "'-z.py", "'=HYPERLINK(1).py", "'@y.py", "ok.py"]
    lines = pd.read_csv(out / "lines.csv", keep_default_na=False, usecols=["target_path"])
    assert not lines["target_path"].str.match(r"[=+\-@]").any()
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert "=HYPERLINK(1).py" in json.dumps(summary)  # the raw value stays in JSON


def test_markdown_cells_are_escaped() -> None:
    assert md_text("a|b `c` <script>alert(4)</script>\nx") == \
        "a\\|b \\`c\\` &lt;script&gt;alert(4)&lt;/script&gt; x"
    assert md_text("Rapptz & co, &copy; &#169; a&b;") == "Rapptz & co, &amp;copy; &amp;#169; a&amp;b;"
    assert md_code("pkg/a|b.py") == "`pkg/a\\|b.py`"
    assert md_code("we`ird.py") == "``we`ird.py``"
    assert md_code("`x`") == "`` `x` ``"


def test_summary_md_holds_no_raw_html_from_inputs(tmp_path: Path) -> None:
    up = treegen.gen_upstream(seed=6, n_modules=1)
    code = "# Adapted from <script>alert(4)</script> upstream/m0.py\n" + "\n".join(up.module(0).lines) + "\n"
    target = treegen.write_tree(tmp_path / "<b>t", {"a|b`c.py": code})
    upstream = treegen.write_tree(tmp_path / "upstream", up.files())
    out = tmp_path / "out"
    assert _run(str(target), str(upstream), "--out", str(out), "--no-html") == 0
    text = (out / "summary.md").read_text(encoding="utf-8")
    # Markdown shows a code span's text as it is; outside code spans no tag may remain.
    outside = re.sub(r"(`+).*?\1", "", text)
    assert "<" not in outside
    assert "&lt;script&gt;" in text
    assert "``a\\|b`c.py``" in text


NON_UTF8 = os.fsdecode(b"caf\xe9.py")  # latin-1 bytes: not UTF-8


def _non_utf8_dir(root: Path, code: str) -> Path:
    root.mkdir(parents=True)
    (root / NON_UTF8).write_text(code, encoding="utf-8")
    (root / "line\nbreak.py").write_text(code, encoding="utf-8")
    return root


def test_non_utf8_file_names_in_a_folder_are_reported_escaped(tmp_path: Path) -> None:
    up = treegen.gen_upstream(seed=9, n_modules=1)
    code = "\n".join(up.module(0).lines) + "\n"
    target = _non_utf8_dir(tmp_path / "t", code)
    upstream = treegen.write_tree(tmp_path / "u", up.files())
    out = tmp_path / "out"
    assert _run(str(target), str(upstream), "--out", str(out)) == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False)
    assert sorted(files["target_path"]) == ["caf\\xe9.py", "line\\nbreak.py"]
    assert (files["verbatim_lines"] > 0).all()


def test_non_utf8_file_names_in_a_tarball_are_reported_escaped(tmp_path: Path) -> None:
    up = treegen.gen_upstream(seed=9, n_modules=1)
    code = ("\n".join(up.module(0).lines) + "\n").encode()
    archive = tmp_path / "t.tar.gz"
    with tarfile.open(archive, "w:gz", encoding="utf-8", errors="surrogateescape") as tar:
        info = tarfile.TarInfo("pkg-1.0/" + NON_UTF8)
        info.size = len(code)
        tar.addfile(info, io.BytesIO(code))
    upstream = treegen.write_tree(tmp_path / "u", up.files())
    out = tmp_path / "out"
    assert _run(str(archive), str(upstream), "--out", str(out)) == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False)
    assert files["target_path"].tolist() == ["caf\\xe9.py"]


def test_non_utf8_file_names_in_a_git_tree_are_reported_escaped(tmp_path: Path) -> None:
    up = treegen.gen_upstream(seed=9, n_modules=1)
    code = "\n".join(up.module(0).lines) + "\n"
    repo = _non_utf8_dir(tmp_path / "repo", code)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e"}
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(repo), *cmd], check=True, env=env)
    upstream = treegen.write_tree(tmp_path / "u", up.files())
    out = tmp_path / "out"
    assert _run(f"{repo}@HEAD", str(upstream), "--out", str(out)) == 0
    files = pd.read_csv(out / "files.csv", keep_default_na=False)
    assert sorted(files["target_path"]) == ["caf\\xe9.py", "line\\nbreak.py"]


def test_display_names_are_one_to_one() -> None:
    from lineage.sources import display_path

    assert display_path("pkg/ok é.py") == "pkg/ok é.py"
    assert display_path(os.fsdecode(b"a\xff\\b")) == "a\\xff\\\\b"
    assert {"lines.csv", "manifest.json", "html"} <= outdir.REPORT_ENTRIES


@pytest.mark.parametrize("cookie", ["utf-16", "utf-32", "rot13", "hex"])
def test_a_coding_cookie_cpython_refuses_is_a_recorded_skip(cookie: str) -> None:
    from lineage.index import Indexer

    data = f"# coding: {cookie}\n".encode() + b"".join(b"x%d = %d\n" % (k, k) for k in range(10))
    record = Indexer().index("m.py", data, "d")
    assert record.status == "skipped"
    assert "CPython refuses" in record.reason or "not a text encoding" in record.reason


def test_ascii_compatible_cookies_still_decode() -> None:
    from lineage.index import Indexer

    for cookie in ("latin-1", "cp1252", "euc-jp"):
        record = Indexer().index("m.py", f"# coding: {cookie}\nx = 1\ny = 2\n".encode(), "d")
        assert record.status == "ok" and record.n_lines == 3, cookie


@pytest.mark.parametrize("manifest", ["report", "bare"])
def test_a_users_files_inside_an_old_report_are_never_deleted(tmp_path: Path, manifest: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A folder that holds a report (its own manifest, or a bare one of ours) and a user's folder
    is no report to replace: refused, naming the user's entry, and left as it was."""
    target, upstream, out = _written(tmp_path)
    if manifest == "bare":
        (out / "manifest.json").write_text(json.dumps({"format": "lineage.manifest"}), encoding="utf-8")
    (out / "mywork").mkdir()
    (out / "mywork" / "thesis.txt").write_text("precious", encoding="utf-8")
    before = _digests(out)
    capsys.readouterr()
    assert _run(str(target), str(upstream), "--out", str(out)) == 2
    assert "mywork" in _error_line(capsys)
    assert _digests(out) == before


def test_only_what_lineage_writes_makes_a_folder_replaceable(tmp_path: Path) -> None:
    report = tmp_path / "r"
    (report / "html").mkdir(parents=True)
    for name in ("lines.csv", "scan.json", "html/index.html", "html/lineage.css", "html/a.py-0123.html"):
        (report / name).write_text("x", encoding="utf-8")
    (report / "manifest.json").write_text(json.dumps(
        {"format": "lineage.manifest", "outputs": {"extra/listed.txt": "sha256:0", "/etc/passwd": "sha256:0"}}),
        encoding="utf-8")
    (report / "extra").mkdir()
    (report / "extra" / "listed.txt").write_text("x", encoding="utf-8")
    assert outdir.foreign_entry(report) is None
    for foreign, make in (("html/notes.txt", lambda p: p.write_text("x", encoding="utf-8")),
                          ("html/sub/", lambda p: p.mkdir()),
                          ("extra/other.txt", lambda p: p.write_text("x", encoding="utf-8")),
                          ("a.txt", lambda p: p.write_text("x", encoding="utf-8")),
                          ("files.csv", lambda p: p.symlink_to(report / "lines.csv"))):
        path = report / foreign.rstrip("/")
        make(path)
        assert outdir.foreign_entry(report) == foreign
        (path.rmdir if path.is_dir() and not path.is_symlink() else path.unlink)()
    assert outdir.foreign_entry(report) is None


def test_files_added_while_the_run_writes_are_not_deleted(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ReportError, match="thesis.txt"), atomic_out_dir(out) as fresh:
        (fresh / "summary.json").write_text('{"new": 1}', encoding="utf-8")
        (out / "thesis.txt").write_text("precious", encoding="utf-8")
    assert (out / "thesis.txt").read_text(encoding="utf-8") == "precious"
    assert not [p for p in tmp_path.iterdir() if ".lineage-" in p.name]


def test_a_signal_between_the_two_renames_waits_for_the_swap(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGINT delivered right after the old report is set aside: the swap completes, --out holds
    the new report and the run is not interrupted."""
    out = tmp_path / "out"
    with atomic_out_dir(out) as fresh:
        (fresh / "summary.json").write_text('{"old": 1}', encoding="utf-8")
    real_rename = os.rename

    def rename(src: Path, dst: Path) -> None:
        real_rename(src, dst)
        if ".lineage-old-" in str(dst):
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(outdir.os, "rename", rename)
    interrupted = False
    try:
        with atomic_out_dir(out) as fresh:
            (fresh / "summary.json").write_text('{"new": 1}', encoding="utf-8")
    except KeyboardInterrupt:  # (before: raised between the renames, --out left missing)
        interrupted = True
    assert not interrupted and json.loads((out / "summary.json").read_text(encoding="utf-8")) == {"new": 1}
    assert not [p for p in tmp_path.iterdir() if ".lineage-" in p.name]


def test_a_signal_while_the_old_report_is_removed_is_no_interruption(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    target, upstream, out = _written(tmp_path)
    real_rmtree = shutil.rmtree

    def rmtree(path: Path, *args: object, **kwargs: object) -> None:
        if ".lineage-old-" in str(path):
            os.kill(os.getpid(), signal.SIGTERM)  # the CLI's handler raises KeyboardInterrupt
        real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(outdir.shutil, "rmtree", rmtree)
    assert _run(str(target), str(upstream), "--out", str(out), "--set", "seed_min_tokens=4") == 0
    assert check_complete(out)["parameters"]["seed_min_tokens"] == 4  # type: ignore[index]
    # what is left of the old report waits for a run of another process (test_stale_... above)
    assert all(".lineage-old-" in p.name for p in tmp_path.iterdir() if ".lineage-" in p.name)


def test_an_old_report_set_aside_by_a_killed_run_is_put_back(tmp_path: Path) -> None:
    """SIGKILL between the two renames: no --out, the old report in a dead run's hidden folder.
    The next run puts it back instead of deleting it (here that run fails, so it stays)."""
    out = tmp_path / "out"
    aside = tmp_path / ".out.lineage-old-999999999-abcd"
    aside.mkdir()
    (aside / "summary.json").write_text('{"old": 1}', encoding="utf-8")
    (tmp_path / ".out.lineage-tmp-999999999-abcd").mkdir()
    with pytest.raises(RuntimeError), atomic_out_dir(out):
        raise RuntimeError("the run fails")
    assert json.loads((out / "summary.json").read_text(encoding="utf-8")) == {"old": 1}
    assert not [p for p in tmp_path.iterdir() if ".lineage-" in p.name]
