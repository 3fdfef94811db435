"""The HTML report in a real browser: Debian's chromium (scripts/setup.sh installs it), driven
headless by Playwright, which is pointed at that executable and never downloads a browser.

Skipped, saying why, only where chromium cannot be had; under CI (``CI`` set) a missing browser
fails instead. ``LINEAGE_SCREENSHOT=docs/html-report.png`` writes the README's screenshot there
(by default it goes to the test's temporary folder, so a test run leaves the work tree alone).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import htmlfixture
import pytest

from lineage.report.html import page_name, write_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# As the machine's probe runs it: no sandbox as root, and none of chromium's background traffic.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def _need_browser() -> str:
    why = ""
    if CHROMIUM is None:
        why = "chromium is not installed (scripts/setup.sh installs Debian's chromium as root)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "playwright is not installed (pip install -e '.[test]')"
    if why and os.environ.get("CI"):
        pytest.fail(f"browser tests must run in CI: {why}")
    if why:
        pytest.skip(why)
    return str(CHROMIUM)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("browser")
    out = base / "out"
    out.mkdir()
    write_html(htmlfixture.build(base), out)
    return out / "html"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    executable = _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        yield b
        b.close()


class Watched:
    """A page with every console message, page error and request recorded."""

    def __init__(self, browser, width: int = 1280, height: int = 800) -> None:  # type: ignore[no-untyped-def]
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.problems.append(f"{m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self, url: str) -> object:
        self.page.goto(url)
        self.page.wait_for_load_state("load")
        return self.page

    def check(self, site: Path) -> None:
        assert self.problems == []
        # nothing but the report's own files: no network, nothing outside html/
        assert all(u.startswith(site.as_uri() + "/") or u.startswith("data:") for u in self.requests), self.requests
        assert self.page.evaluate("typeof window.__lineage_pwned") == "undefined"
        self.page.close()


@pytest.fixture
def watched(browser) -> Iterator[Watched]:  # type: ignore[no-untyped-def]
    w = Watched(browser)
    yield w


def _visible_paths(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all("#files tbody tr:not([hidden]) td:first-child", "c => c.map(x => x.textContent)")


def test_index_sorts_and_filters(site: Path, watched: Watched) -> None:
    page = watched.open((site / "index.html").as_uri())
    assert _visible_paths(page) == sorted(_visible_paths(page))  # by path to start with
    assert page.text_content("#count") == "3 of 3 files shown"
    share = page.locator("#files th", has_text="copied")
    share.click()  # numbers: largest first
    assert share.get_attribute("aria-sort") == "descending"
    shares = page.eval_on_selector_all("#files tbody tr td:nth-child(5)", "c => c.map(x => Number(x.dataset.v))")
    assert shares == sorted(shares, reverse=True) and shares[0] > shares[-1]
    assert _visible_paths(page) == [htmlfixture.EVIL_NAME, "app/scheduler.py", "app/marked_only.py"]
    share.click()
    assert share.get_attribute("aria-sort") == "ascending"
    assert _visible_paths(page) == ["app/marked_only.py", "app/scheduler.py", htmlfixture.EVIL_NAME]
    marker = page.locator("#files th", has_text="marker")
    marker.click()  # the marker's own column (it once stood under no heading)
    assert marker.get_attribute("aria-sort") == "ascending"
    texts = page.eval_on_selector_all("#files tbody tr td:nth-child(7)", "c => c.map(x => x.textContent)")
    assert texts[0] == "" and all(texts[1:]) and _visible_paths(page)[0] == htmlfixture.EVIL_NAME
    assert page.evaluate("t => t.every((x, i) => i === 0 || new Intl.Collator(undefined, {numeric: true})"
                         ".compare(t[i - 1], x) <= 0)", texts)
    page.fill("#q", "scheduler")
    assert _visible_paths(page) == ["app/scheduler.py"]
    assert page.text_content("#count") == "1 of 3 files shown"
    page.fill("#q", "")
    page.select_option("#marker", "no")
    assert _visible_paths(page) == [htmlfixture.EVIL_NAME]
    page.select_option("#marker", "yes")
    assert sorted(_visible_paths(page)) == ["app/marked_only.py", "app/scheduler.py"]
    page.fill("#minshare", "30")
    assert _visible_paths(page) == ["app/scheduler.py"]
    page.press("#minshare", "Enter")  # the form is never submitted
    assert page.url == (site / "index.html").as_uri()
    watched.check(site)


def test_anchors_scroll_unfold_and_regions_navigate(site: Path, watched: Watched) -> None:
    url = (site / page_name("app/scheduler.py")).as_uri()
    page = watched.open(url + "#L20")  # a folded, unchanged line
    page.wait_for_function("() => document.getElementById('L20') !== null")
    page.wait_for_timeout(100)
    box = page.evaluate("(() => { const r = document.getElementById('L20').getBoundingClientRect();"
                        " return [r.top, r.bottom, innerHeight, document.querySelector('header.bar')"
                        ".getBoundingClientRect().bottom]; })()")
    top, bottom, height, header = box
    assert header <= top < bottom <= height  # in view, below the sticky header
    assert page.text_content("#L20 td:nth-child(2)") == htmlfixture.target_files()["app/scheduler.py"].splitlines()[19]
    assert page.evaluate("window.scrollY") > 0
    # next / previous region
    page.goto(url)
    page.wait_for_load_state("load")
    header = page.evaluate("document.querySelector('header.bar').getBoundingClientRect().bottom")
    for key, region in (("#next", "R0"), ("#next", "R1"), ("n", "R1"), ("p", "R0"), ("#prev", "R0")):
        if key.startswith("#"):
            page.click(key)
        else:
            page.keyboard.press(key)
        page.wait_for_function(f"() => location.hash === '#{region}'")
        page.wait_for_timeout(50)
        top = page.evaluate(f"document.getElementById('{region}').getBoundingClientRect().top")
        assert header <= top < header + 40, (key, region, top)  # just below the sticky header
    # a line number links to its line
    page.click("#L61 td:first-child")
    assert page.evaluate("location.hash") == "#L61"
    assert page.evaluate("getComputedStyle(document.getElementById('L61')).outlineStyle") == "solid"
    # a region's upstream file opens the index searching for it
    page.click("#R0 a[href^='index.html#q=']")
    page.wait_for_load_state("load")
    assert page.input_value("#q") == "upstreamlib/scheduler.py"
    assert _visible_paths(page) == ["app/scheduler.py"]
    page.go_back()
    page.wait_for_load_state("load")
    # show all lines: every line of the file has its row
    page.click("#unfold")
    n = len(htmlfixture.target_files()["app/scheduler.py"].splitlines())
    page.wait_for_function(f"() => document.querySelectorAll('tr[id^=L]').length === {n}")
    watched.check(site)


def test_licence_obligations_open_in_the_header_and_regions_still_land_below_it(site: Path,
                                                                               watched: Watched) -> None:
    """The page's licence section (obligations.csv's rows of the file) opens inside the sticky
    header; a region stepped to then still starts just below the header, now taller."""
    page = watched.open((site / page_name("app/scheduler.py")).as_uri())
    summary = page.text_content("details.licence summary")
    assert summary == "Licence obligations (1 upstream file, obligations.csv): upstream licence unknown"
    assert not page.is_visible("details.licence li")
    closed = page.evaluate("document.querySelector('header.bar').getBoundingClientRect().bottom")
    page.click("details.licence summary")
    assert page.is_visible("details.licence li")
    assert "upstreamlib/scheduler.py" in page.text_content("details.licence li")
    header = page.evaluate("document.querySelector('header.bar').getBoundingClientRect().bottom")
    assert closed < header < 0.6 * 800
    page.keyboard.press("n")
    page.wait_for_function("() => location.hash === '#R0'")
    page.wait_for_timeout(50)
    top = page.evaluate("document.getElementById('R0').getBoundingClientRect().top")
    assert header <= top < header + 40
    watched.check(site)


def test_injected_script_in_a_name_or_code_never_runs(site: Path, watched: Watched) -> None:
    page = watched.open((site / "index.html").as_uri())
    assert htmlfixture.EVIL_NAME in _visible_paths(page)  # shown as text
    page.click(f"text={htmlfixture.EVIL_NAME}")
    page.wait_for_load_state("load")
    assert page.url.endswith(page_name(htmlfixture.EVIL_NAME))
    assert page.text_content("h1") == htmlfixture.EVIL_NAME
    body = page.text_content("table.sbs")
    assert "<script>" + htmlfixture.PWNED + "</script>" in body
    assert page.evaluate("document.scripts.length") == 1
    page.click("#unfold")
    watched.check(site)


def test_screenshot_at_1280(site: Path, browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The README's picture: a file page at 1,280 px, the upstream column fully on screen."""
    w = Watched(browser, 1280, 860)
    page = w.open((site / page_name("app/scheduler.py")).as_uri() + "#R0")
    page.wait_for_timeout(200)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280  # nothing off-screen sideways
    right = page.evaluate("document.querySelector('#L61 td:nth-child(4)').getBoundingClientRect().right")
    assert right <= 1280
    target = Path(os.environ.get("LINEAGE_SCREENSHOT") or tmp_path / "html-report.png")
    target.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    index = w.open((site / "index.html").as_uri())
    assert index.evaluate("document.documentElement.scrollWidth") <= 1280
    w.check(site)
