"""The built site in a real browser: Debian's Chromium driven by Playwright (which never downloads one).

Builds the fixture content, serves it on 127.0.0.1 and checks what a reader does: switch language
and stay on the entry, search without accents, hover a glossary term, follow "referenced by";
then opens the site from disk, offline, and searches there too. Skips with the reason when
Chromium or Playwright is missing, unless ``KB_REQUIRE_BROWSER=1`` (set by CI), which fails instead.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path
from typing import Iterator

import pytest

from conftest import cli

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site" / "content"


def _unavailable() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    reason = _unavailable()
    if reason:
        if os.environ.get("KB_REQUIRE_BROWSER") == "1":
            pytest.fail(f"KB_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser") / "site"
    code, stdout, stderr = cli("--content", str(FIXTURE), "build", "--site-dir", str(out))
    assert code == 0, stdout + stderr
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base(site: Path) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


def _search(pg, query: str, expect: str) -> list[str]:
    """Type ``query`` in the search box; the result links once the first one contains ``expect``
    (results refresh while the worker catches up with the typing), or the last ones seen."""
    box = pg.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query, delay=30)
    links = pg.locator(".md-search-result__item > a")
    hits: list[str] = []
    for _ in range(75):
        hits = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
        if hits and expect in hits[0]:
            break
        pg.wait_for_timeout(200)
    return hits


def test_language_switch_stays_on_the_entry(page, base: str) -> None:
    page.goto(f"{base}/es/mini/shooting.html")
    assert page.locator("article h1").first.inner_text().startswith("Disparo")
    page.locator(".md-header__option .md-select button").hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url(f"{base}/en/mini/shooting.html")
    assert page.locator("article h1").first.inner_text().startswith("Shooting")
    assert page.locator("html").get_attribute("lang") == "en"


def test_search_without_accents_finds_the_spanish_term(page, base: str) -> None:
    page.goto(f"{base}/es/index.html")
    hits = _search(page, "linea de vision", "/es/mini/line-of-sight.html")
    assert hits and "/es/mini/line-of-sight.html" in hits[0], hits


def test_search_for_the_english_name_finds_the_spanish_page(page, base: str) -> None:
    page.goto(f"{base}/es/index.html")
    hits = _search(page, "line of sight", "/es/mini/line-of-sight.html")
    assert hits and "/es/mini/line-of-sight.html" in hits[0], hits
    assert all("/en/" not in h for h in hits)  # the Spanish site searches Spanish pages only


def test_hovering_a_glossary_term_shows_its_definition(page, base: str) -> None:
    page.goto(f"{base}/es/mini/shooting.html")
    abbr = page.locator("article abbr", has_text="LdV").first
    abbr.hover()
    tip = page.locator(".md-tooltip2--active")
    tip.wait_for(state="visible")
    assert tip.inner_text().startswith("Línea de visión: Una miniatura tiene línea de visión")


def test_following_a_referenced_by_link(page, base: str) -> None:
    page.goto(f"{base}/es/mini/shooting.html")
    section = page.locator("h2#citada-por + ul")
    section.locator("a", has_text="Apuntar").click()
    page.wait_for_url(f"{base}/es/mini/aim.html")
    assert page.locator("article h1").first.inner_text().startswith("Apuntar")


def test_english_untranslated_entry_shows_a_notice(page, base: str) -> None:
    page.goto(f"{base}/en/mini/aim.html")
    notice = page.locator(".admonition.warning").first
    assert "not been translated into English" in notice.inner_text()


def test_site_works_from_disk_offline(browser, site: Path) -> None:
    context = browser.new_context(offline=True)
    try:
        pg = context.new_page()
        pg.set_default_timeout(15_000)
        pg.goto((site / "index.html").as_uri())
        pg.wait_for_url("**/es/index.html")
        pg.locator("nav.md-nav a", has_text="Mini Escaramuza").first.click()
        pg.wait_for_url("**/es/mini/index.html")
        hits = _search(pg, "linea de vision", "/es/mini/line-of-sight.html")
        assert hits and hits[0].startswith("file://") and "/es/mini/line-of-sight.html" in hits[0], hits
    finally:
        context.close()
