"""The search dialog and the game page's offline buttons for a keyboard-only or screen-reader player (accessibility
audit of 2026-12-07: M3, M4, M5, L4, L5), on a phone (390×844), in both languages and both colour schemes. The fixture
content's site, Debian's Chromium under Playwright, axe-core for contrast."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_browser import FIXTURE, PHONE, _open, _ready, _search, _settled, axe_script, launch_chromium  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch_chromium()


@pytest.fixture(scope="module")
def base(fixture_url: str) -> str:
    return fixture_url  # conftest's: the fixture pack's site, built once for the session (no test here writes in it)


def _contrast(axe: str, pg, where: str) -> tuple[list[str], list[str]]:
    """axe's colour-contrast check of what ``where`` selects, once the theme's colour transitions have ended: the
    failures (with axe's message) and the checked elements (each as its selector and its HTML)."""
    pg.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished))")
    if not pg.evaluate("() => !!window.axe"):
        pg.add_script_tag(content=axe)
    result = pg.evaluate("""where => axe.run({include: [where]}, {runOnly: ['color-contrast'],
                                                              resultTypes: ['violations', 'passes']})""", where)
    failed = [f"{n['target']} {n['failureSummary']}" for v in result["violations"] for n in v["nodes"]]
    return failed, [f"{n['target']} {n['html']}" for v in result["passes"] for n in v["nodes"]]


@pytest.mark.parametrize("lang, scheme", [("es", "dark"), ("en", "dark"), ("es", "light")])
def test_the_offline_buttons_read_at_4_5_to_1_at_rest_and_focused(browser, base: str, axe_script: str,  # noqa: F811
                                                                  lang: str, scheme: str) -> None:
    """In the dark scheme «Guardar para jugar sin conexión» was the theme's indigo on near-black, 2.34:1 (M5); focused,
    in either scheme, white on the theme's accent, 4.25:1; saved, dimmed below 4.5:1 in both schemes."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    try:
        pg = context.new_page()
        _open(pg, f"{base}/{lang}/mini/index.html")
        button = pg.locator(".kb-offline__button:not([hidden])").first
        button.wait_for(state="visible")
        pg.mouse.move(1, 800)
        # the saved state's look (kb.css keys it on the attribute alone): its opacity .8 read 4.33:1 in the light
        # scheme and 3.47:1 in the dark one
        for state, then in (("at rest", "b => b.focus()"), ("focused", "b => { b.blur(); b.dataset.kbOfflineState = 'saved'; }"),
                            ("saved", "b => b")):
            failed, checked = _contrast(axe_script, pg, ".kb-offline")
            assert failed == [], state
            assert any("kb-offline__button" in h for h in checked), (state, checked)
            button.evaluate(then)
    finally:
        context.close()


def _tap_search(pg, url: str) -> None:
    """Open ``url`` and the search dialog as a phone player does, by a tap on its button (no key pressed)."""
    _open(pg, url)
    _ready(pg)
    pg.locator("button.kb-search__open").tap()
    pg.locator("input.kb-search__input").wait_for(state="visible")


_SPOKEN = """() => { window.kbSaid = []; const last = new Map();
    const live = () => [...document.querySelectorAll('.kb-search [aria-live], .kb-search [role=status], .kb-search [role=alert]')]
        .filter(e => e.getAttribute('aria-live') !== 'off');
    new MutationObserver(() => live().forEach(e => {  // as a screen reader: each change of a live region's text
        const now = e.textContent.trim();
        if (now !== (last.get(e) || '')) { last.set(e, now); if (now) kbSaid.push(now); }
    })).observe(document.querySelector('.kb-search'), {childList: true, subtree: true, characterData: true}); }"""


def _said(pg, seconds: float = 2.5) -> list[str]:
    """What the dialog's live regions said since the last call (each change of their text, in order), read once the
    typing has settled for ``seconds``."""
    pg.wait_for_timeout(seconds * 1000)
    return pg.evaluate("kbSaid.splice(0)")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_screen_reader_hears_how_many_results_once_the_typing_settles(browser, base: str, lang: str) -> None:
    """The dialog's live region said «Nada encontrado…» on a word's first letters and then nothing when the results
    came (M3): now, once the typing settles, only how many results there are, the catalog's plural form in the page's
    language (one result, several), with the suggestion when there is one, or what to try when nothing is found."""
    from kb.core.locale import npgettext
    from kb.site.search_box import COUNT, COUNT_CONTEXT, search_labels

    labels = search_labels(lang)
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _tap_search(pg, f"{base}/{lang}/mini/aim.html")
        pg.evaluate(_SPOKEN)
        box = pg.locator("input.kb-search__input")
        seen = set()
        for query in ("iniciativa" if lang == "es" else "initiative", "linea de vision", "shoting"):
            box.fill("")
            box.press_sequentially(query, delay=120)  # a player's pace: each key well before the last one settles
            _settled(pg)
            said = _said(pg)
            total = int(re.search(r"\((\d+)\)$", pg.locator("select.kb-search__kind option").first.inner_text()).group(1))
            count = npgettext(lang, COUNT_CONTEXT, *COUNT, total)
            fix = pg.locator(".kb-search__fix")
            want = f"{labels['did_you_mean']} {fix.inner_text()}? {count}" if fix.count() else count
            assert said == [want], (query, said)
            seen.add(total == 1)
        assert seen == {True, False}  # the singular and the plural form, both said
        box.fill("")
        box.press_sequentially("qqxqq", delay=120)
        assert _said(pg) == [f"{labels['no_results']} {labels['no_results_hint']}"]
    finally:
        context.close()


def _luminance(rgb: list[int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ratio(a: list[int], b: list[int]) -> float:
    """WCAG's contrast ratio of two colours."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _pixels(pg, locator, xs: list[int]) -> list[list[int]]:
    """The colours on screen of ``locator``'s element at each x of ``xs`` (CSS px from its left edge), half-way down."""
    import base64

    shot = "data:image/png;base64," + base64.b64encode(locator.screenshot(animations="disabled")).decode()
    return pg.evaluate("""async ([src, xs]) => { const img = new Image(); img.src = src; await img.decode();
        const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        return xs.map(x => [...g.getImageData(x, img.height >> 1, 1, 1).data]); }""", [shot, xs])


@pytest.mark.parametrize("lang, scheme", [("es", "dark"), ("en", "dark"), ("es", "light"), ("en", "light")])
def test_the_selected_result_is_marked_at_3_to_1_and_its_title_reads_at_4_5_to_1(browser, base: str, axe_script: str,  # noqa: F811
                                                                                  lang: str, scheme: str) -> None:
    """The selected result (↑ ↓, the one Enter opens) was told from the others only by a faint tint, 1.13:1, and in
    the dark scheme its title read 4.15:1 on it (M4): now a mark on its edge at 3:1 at least against the rows beside
    it, and every text of the list at 4.5:1."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    try:
        pg = context.new_page()
        _tap_search(pg, f"{base}/{lang}/mini/aim.html")
        pg.locator("input.kb-search__input").press_sequentially("linea de vision")
        _settled(pg)
        hits = pg.locator("a.kb-search__hit")
        assert hits.count() >= 3
        pg.keyboard.press("ArrowDown")
        assert pg.locator("input.kb-search__input").get_attribute("aria-activedescendant") == "kb-search-hit-1"
        failed, checked = _contrast(axe_script, pg, ".kb-search__results")
        assert failed == []
        assert any("#kb-search-hit-1 > .kb-search__title" in h for h in checked), checked
        edge = list(range(0, 4))
        before, on, after = (_pixels(pg, hits.nth(i), edge) for i in range(3))
        assert before == after  # the rows not selected alike
        assert max(_ratio(a, b) for a, b in zip(on, before, strict=True)) >= 3, (on, before)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_on_a_touch_screen_the_keys_line_shows_once_a_keyboard_is_used(browser, base: str, lang: str) -> None:
    """«Intro abre el primero; ↑ ↓ para moverse; Esc cierra.» was hidden on every touch screen, so the phone player with
    a Bluetooth keyboard never learnt the keys (L4): hidden while only the screen is touched and letters typed (a touch
    screen's own keyboard), shown once a key only a keyboard has is pressed (↓ here; "/" from the page), and the
    input's description for a screen reader either way."""
    from kb.site.search_box import search_labels

    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _tap_search(pg, f"{base}/{lang}/mini/aim.html")
        hint = pg.locator(".kb-search__hint")
        box = pg.locator("input.kb-search__input")
        described = box.get_attribute("aria-describedby")
        assert described and pg.locator(f"#{described}").inner_text() == search_labels(lang)["hint"]
        box.press_sequentially("linea de vision")
        _settled(pg)
        assert not hint.is_visible()  # letters: maybe the screen's own keyboard
        pg.keyboard.press("ArrowDown")
        assert hint.is_visible()
        _open(pg, f"{base}/{lang}/mini/shooting.html")  # a new page: the keyboard is known again by its keys
        _search(pg, "disparo")  # opened by "/" from the page
        assert pg.locator(".kb-search__hint").is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_result_opened_lands_the_focus_on_its_passage_and_back_on_the_search_button(browser, base: str,
                                                                                        lang: str) -> None:
    """A result opened with the keyboard showed its passage marked but left the focus on <body>; Back reloaded the
    page with the focus on <body> and the query gone (L5). Now the focus is on the passage, and back on the page the
    search was opened from it is on the search button, which opens the dialog with the query and the result selected
    as they were."""
    from playwright.sync_api import expect

    query = "sin LdV no se puede disparar" if lang == "es" else "without LoS you cannot shoot"
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        origin = f"{base}/{lang}/mini/aim.html"
        _open(pg, origin)
        _search(pg, query)
        first = pg.locator("a.kb-search__hit").first
        assert first.get_attribute("data-kb-id") == "mini.shooting"
        landing = first.evaluate("e => e.href")
        passage = landing.split("#")[1]
        with pg.expect_navigation():
            pg.keyboard.press("Enter")
        assert pg.url == landing
        pg.wait_for_function("id => document.activeElement && document.activeElement.id === id", arg=passage)
        assert pg.evaluate("document.activeElement.matches(':target')")
        pg.go_back()
        pg.wait_for_url(origin)
        pg.wait_for_selector('html[data-kb-table="ready"]', state="attached")
        assert pg.evaluate("performance.getEntriesByType('navigation')[0].type") == "back_forward"  # loaded again
        opener = pg.locator("button.kb-search__open")
        expect(opener).to_be_focused()
        pg.keyboard.press("Enter")
        box = pg.locator("input.kb-search__input")
        expect(box).to_be_focused()
        assert box.input_value() == query
        _settled(pg)
        expect(box).to_have_attribute("aria-activedescendant", "kb-search-hit-0")
        assert pg.locator("a.kb-search__hit").first.get_attribute("data-kb-id") == "mini.shooting"
        pg.keyboard.press("ArrowDown")  # the second result, opened, and back: still the one selected
        second = pg.locator("#kb-search-hit-1").evaluate("e => e.href")
        with pg.expect_navigation():
            pg.keyboard.press("Enter")
        assert pg.url == second
        pg.go_back()
        pg.wait_for_url(origin)
        expect(opener).to_be_focused()
        pg.keyboard.press("Enter")
        _settled(pg)
        expect(box).to_have_attribute("aria-activedescendant", "kb-search-hit-1")
        assert box.input_value() == query
    finally:
        context.close()
