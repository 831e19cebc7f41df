"""The reader's language and the "page not found" page, run in Chromium without building a site (a mutation of
kb/site/reader_language.py or kb/site/notfound.py must fail here: docs/reliability.md, "Mutation run over the
sinks"). Each page is served at a made-up origin by Playwright's router, so the address, the stored ``kb-lang`` and the
browser's language are the reader's; what is checked is what the reader sees: which part comes first, the address shown,
the title, the home link, and that nothing planted runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

import material
import pytest

from kb.core.locale import pgettext
from kb.site.notfound import not_found_page
from kb.site.reader_language import pick_language

pytestmark = [pytest.mark.browser]

ORIGIN = "http://kb.test"
HEADING = re.search(r"<h1>.*</h1>", (Path(material.__file__).parent / "templates" / "404.html").read_text("utf-8"))[0]
"""The heading of Material's own 404 template (installed with it), which the parts replace."""
THEME_PAGE = f"<!doctype html><html><head><title>404</title></head><body><article>{HEADING}</article></body></html>"
"""Material's 404 page, as far as the engine's part of it goes: its English heading, a title, a body."""
HOMES = {"es": "/es/index.html", "en": "/en/index.html"}


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    from test_browser import launch_chromium

    yield from launch_chromium()


def _open(chromium, html: str, path: str, locale: str = "en-US", stored: str | None = None):
    """A context of ``locale`` with ``stored`` as its ``kb-lang``, at ``path`` answered (status 404) with ``html``."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    context.route(f"{ORIGIN}/**", lambda route: route.fulfill(status=404, content_type="text/html; charset=utf-8",
                                                              body=html))
    if stored is not None:
        context.add_init_script(f"localStorage.setItem('kb-lang', {json.dumps(stored)})")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(ORIGIN + path)
    return context, page


def _said(page) -> list[str]:
    """The page's visible lines."""
    return [line.strip() for line in page.evaluate("document.body.innerText").splitlines() if line.strip()]


def _words(lang: str, address: str) -> list[str]:
    """What one language's part says, from the interface's catalogue."""
    said = [pgettext(lang, "site", key) for key in ("not_found_title", "not_found_text", "not_found_address",
                                                    "not_found_home")]
    said[2] = said[2].replace("{address}", address)
    return said


def _parts(page) -> list[list[object]]:
    return page.eval_on_selector_all("#kb-404 > section", """s => s.map(p => [p.lang, p.querySelector('h1').textContent,
        p.querySelector('.kb-404__address').hidden, p.querySelector('code').textContent,
        p.querySelector('a').getAttribute('href'), p.querySelector('a').hreflang])""")


# ---------------------------------------------------------------- pick_language(): the reader's language


@pytest.mark.parametrize(("locale", "stored", "first", "picked"), [
    ("fr-FR", None, "'en'", "en"),       # the address's language first
    ("en-US", "en", "'es'", "es"),
    ("en-US", "es", "null", "es"),       # then the one the reader chose on the site
    ("es-ES", "de", "'fr'", "es"),       # then the browser's ("es-ES" is "es")
    ("EN-GB", None, "null", "en"),
    ("fr-FR", None, "null", None),       # none of the site's (no address given: "null")
    ("fr-FR", "constructor", "'__proto__'", None),
])
def test_the_readers_language_is_the_addresss_then_the_chosen_then_the_browsers(chromium, locale: str, stored: str | None,
                                                                                first: str, picked: str | None) -> None:
    context, page = _open(chromium, "<!doctype html><p>x</p>", "/", locale, stored)
    try:
        expression = pick_language(["es", "en"]) if first == "null" else pick_language(["es", "en"], first)
        assert page.evaluate(expression) == picked
    finally:
        context.close()


def test_a_language_name_cannot_end_the_script_it_is_written_into(chromium) -> None:
    """A language's name with ``</script>`` in it stays a name inside the inline script: nothing it holds runs, and the
    reader who chose it still gets it."""
    name = "</script><script>window.__pwned=1</script>"
    html = f"<!doctype html><body><script>document.title = String({pick_language(['es', name])});</script></body>"
    context, page = _open(chromium, html, "/", "fr-FR", stored=name)
    try:
        assert page.evaluate("typeof window.__pwned") == "undefined" and page.title() == name
    finally:
        context.close()


# ---------------------------------------------------------------- not_found_page(): the parts, their order, the address


SPANISH = ["es", "Página no encontrada"]
ENGLISH = ["en", "Page not found"]


@pytest.mark.parametrize(("build", "root", "path", "locale", "stored", "first"), [
    ("es", "/", "/en/mini/gone.html", "es-ES", None, "en"),   # the address's language folder
    ("en", "/", "/es/gone.html", "en-US", None, "es"),
    ("es", "/", "/gone.html", "en-US", None, "en"),           # else the browser's
    ("es", "/", "/gone.html", "en-US", "es", "es"),           # the one chosen on the site before it
    ("en", "/", "/gone.html", "fr-FR", None, "en"),           # none: the build's
    ("es", "/", "/gone.html", "fr-FR", "constructor", "es"),
    ("es", "/sub/", "/sub/en/gone.html", "es-ES", None, "en"),  # the folder after the site's own path
    ("es", "/sub/", "/en/gone.html", "es-ES", None, "en"),      # an address outside it: its first folder
    ("es", "/sub/", "/sub/gone.html", "fr-FR", None, "es"),
])
def test_the_part_in_the_readers_language_comes_first(chromium, build: str, root: str, path: str, locale: str,
                                                      stored: str | None, first: str) -> None:
    homes = {lang: root + home[1:] for lang, home in HOMES.items()}
    context, page = _open(chromium, not_found_page(THEME_PAGE, build, root, homes), path, locale, stored)
    try:
        parts = _parts(page)
        order = [first, "en" if first == "es" else "es"]
        assert [p[:2] for p in parts] == [{"es": SPANISH, "en": ENGLISH}[lang] for lang in order], parts
        assert [p[2:] for p in parts] == [[False, path, homes[lang], lang] for lang in order], parts
        assert _said(page) == _words(order[0], path) + _words(order[1], path)  # and nothing else
        assert page.title() == {"es": "Página no encontrada · Page not found · 404",
                                "en": "Page not found · Página no encontrada · 404"}[build]
    finally:
        context.close()


@pytest.mark.parametrize(("path", "shown"), [
    ("/" + "a" * 79, "/" + "a" * 79),                        # 80 characters: shown whole
    ("/" + "a" * 80, "/" + "a" * 78 + "\u2026"),            # 81: the 80th is an ellipsis
    ("/es/a%20b%E2%80%AEc%E2%80%8Bd.html?x=1#y", "/es/a%20bcd.html"),
    ("/es/%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E", "/es/<img%20src=x%20onerror=window.__pwned=1>"),
    ("/es/%E0%A4%A.html", "/es/%E0%A4%A.html"),             # no escape sequence: shown as it came
])
def test_the_missing_address_is_shown_as_short_text(chromium, path: str, shown: str) -> None:
    context, page = _open(chromium, not_found_page(THEME_PAGE, "es", "/", HOMES), path, "es-ES")
    try:
        assert [p[3] for p in _parts(page)] == [shown, shown]
        assert page.locator("#kb-404 img").count() == 0 and page.evaluate("typeof window.__pwned") == "undefined"
    finally:
        context.close()


def test_the_sites_path_cannot_end_the_script_it_is_written_into(chromium) -> None:
    root = "/a</script><script>window.__pwned=1</script>/"
    context, page = _open(chromium, not_found_page(THEME_PAGE, "es", root, HOMES), "/en/gone.html", "es-ES")
    try:
        assert page.evaluate("typeof window.__pwned") == "undefined" and [p[0] for p in _parts(page)] == ["en", "es"]
    finally:
        context.close()


def test_a_page_without_the_themes_heading_is_left_as_it_is() -> None:
    own = "<!doctype html><html><head><title>Mine</title></head><body><h1>Lost</h1></body></html>"
    assert not_found_page(own, "es", "/", HOMES) == own


def test_a_page_without_a_body_end_still_gets_the_script(chromium) -> None:
    page_html = THEME_PAGE.replace("</body></html>", "")
    context, page = _open(chromium, not_found_page(page_html, "en", "/", HOMES), "/es/x.html", "en-US")
    try:
        assert [p[0] for p in _parts(page)] == ["es", "en"] and [p[3] for p in _parts(page)] == ["/es/x.html"] * 2
        assert _said(page) == _words("es", "/es/x.html") + _words("en", "/es/x.html")
    finally:
        context.close()
