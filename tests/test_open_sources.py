"""The comparison's sources opened side by side (lineage.compare_and_write._open_with_identities):
specs of one cache entry are one entry (one PyPI release named twice is fetched once:
tests/test_sources.py), the first failing spec is told at once, and every source opened is
closed when the run fails or is interrupted."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from pathlib import Path

import pytest

import lineage.compare_and_write
from lineage.compare_and_write import _entry, _open_with_identities
from lineage.errors import LineageError
from lineage.settings import RunSettings


def _eventually(check: object, seconds: float = 10.0) -> bool:
    """Whether ``check()`` holds within ``seconds`` (a thread closing a source it opened late)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return bool(check())  # type: ignore[operator]


def _trees(tmp_path: Path) -> list[str]:
    specs = []
    for name in ("target", "up"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.py").write_text("x = 1\n")
        specs.append(str(tmp_path / name))
    return specs


def _held(monkeypatch: pytest.MonkeyPatch, held: str, release: threading.Event) -> list:  # type: ignore[type-arg]
    """open_source recording the sources it made; opening ``held`` waits for ``release``."""
    made = []
    real = lineage.compare_and_write.open_source

    def opening(spec: str, root: Path | None = None, check_later: bool = False):  # type: ignore[no-untyped-def]
        if spec == held:
            assert release.wait(30)
        made.append(real(spec, root, check_later))
        return made[-1]

    monkeypatch.setattr(lineage.compare_and_write, "open_source", opening)
    return made


def test_specs_of_one_cache_entry_are_one_entry() -> None:
    same = {_entry("pypi:Foo==1.0"), _entry("pypi:foo==1.0"), _entry("pypi:FOO==1.0#sha256=" + "a" * 64)}
    assert len(same) == 1
    assert _entry("pypi:foo==1.1") not in same and _entry("pypi:foo-bar==1.0") == _entry("pypi:Foo_Bar==1.0")
    assert _entry("some/dir") == ("spec", "some/dir")
    assert _entry("foo-1.0") != _entry("pypi:foo==1.0")  # a folder named like the entry is another input


def test_the_first_failing_spec_is_told_while_another_still_opens(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A typo in the target is reported while the upstream is still opening (a download), not
    after it; the upstream is closed once it is open."""
    specs = _trees(tmp_path)
    release = threading.Event()
    made = _held(monkeypatch, specs[1], release)
    with contextlib.ExitStack() as stack, pytest.raises(LineageError, match="no-such-target"):
        _open_with_identities([str(tmp_path / "no-such-target"), specs[1]],
                              RunSettings(cache_dir=tmp_path / "cache", jobs=1), stack)
    assert made == []  # told before the upstream could open
    release.set()
    assert _eventually(lambda: len(made) == 1 and made[0]._closed)


def test_an_interrupt_while_opening_closes_every_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (the CLI turns SIGTERM into the same) while the sources open: the ones open by then
    are closed, and the one still opening once it is open."""
    specs = _trees(tmp_path)
    release = threading.Event()
    made = _held(monkeypatch, specs[1], release)

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with contextlib.ExitStack() as stack, pytest.raises(KeyboardInterrupt):
            _open_with_identities(specs, RunSettings(cache_dir=tmp_path / "cache", jobs=1), stack)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    release.set()
    assert _eventually(lambda: len(made) == 2 and all(s._closed for s in made))
