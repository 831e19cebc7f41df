"""Polish for a keyboard-only or screen-reader player (accessibility audit of 2026-12-07, L9), on a phone
(390×844), in both languages: the stepper's buttons are named without their arrows, buttons with the focus show the
2-px ring that links and fields show, and the search's «Did you mean …?» word looks like a link."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from test_browser import PHONE, _open, _settled, launch_chromium
from test_search_a11y_browser import _tap_search

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch_chromium()


@pytest.fixture(scope="module")
def base(fixture_url: str) -> str:
    return fixture_url  # conftest's: the fixture pack's site, built once for the session (no test here writes in it)


_RING = "e => { const s = getComputedStyle(e); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_stepper_buttons_are_named_without_arrows_and_ringed_when_focused(browser, base: str, lang: str) -> None:
    """A voice read «flecha izquierda Anterior»; the focused button had the browser's thin default ring."""
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _open(pg, f"{base}/{lang}/mini/turn-sequence.html")
        pg.wait_for_selector(".kb-stepper--on", state="attached")
        words = json.loads(pg.get_attribute("[data-kb-stepper]", "data-kb-words"))
        for word in (words["previous"], words["next"]):
            assert pg.get_by_role("button", name=word, exact=True).count() == 1, word
        assert "\u2192" in pg.locator(".kb-stepper__button[data-kb-step='next']").inner_text()  # still seen
        pg.locator(".kb-stepper__button[data-kb-step='back']").focus()
        pg.keyboard.press("Tab")  # from the keyboard: the focus-visible ring
        focused = pg.locator(".kb-stepper__button[data-kb-step='next']")
        assert focused.evaluate("e => e === document.activeElement")
        style, width = focused.evaluate(_RING)
        assert style == "solid" and width >= 2, (style, width)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_did_you_mean_word_looks_like_a_link(browser, base: str, lang: str) -> None:
    """It was body text: the text's colour, no underline (WCAG 1.4.1)."""
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _tap_search(pg, f"{base}/{lang}/mini/aim.html")
        pg.locator("input.kb-search__input").press_sequentially("shoting", delay=60)
        _settled(pg)
        fix = pg.locator(".kb-search__fix")
        fix.wait_for(state="visible")
        seen = fix.evaluate("e => { const s = getComputedStyle(e), p = getComputedStyle(e.parentElement);"
                            " return [s.color !== p.color, s.textDecorationLine]; }")
        assert seen == [True, "underline"], seen
    finally:
        context.close()


@pytest.mark.parametrize("lang, words", [("es", ("Situación", "Resultado", "Dados")),
                                         ("en", ("Situation", "Outcome", "Dice"))])
def test_a_worked_examples_tables_are_named_and_their_rows_headed(browser, base: str, lang: str,
                                                                  words: tuple[str, str, str]) -> None:
    """Its tables had no name and their first column was plain cells: a screen reader read «Dados» as data, not as
    what the row's value is (audit-a11y L6). Each table is now named (a caption), each row headed by its label; the
    outcome's table inside its box too, and the page's look unchanged (the caption out of sight)."""
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _open(pg, f"{base}/{lang}/mini/shooting.html")
        example = pg.locator(".kb-example").first
        situation, outcome = (example.get_by_role("table", name=name, exact=True) for name in words[:2])
        assert situation.count() == 1 and outcome.count() == 1, words
        assert situation.get_by_role("rowheader", name=words[2], exact=True).count() == 1
        assert outcome.get_by_role("rowheader").count() >= 1
        assert outcome.locator("xpath=ancestor::div[contains(@class, 'admonition')]").count() == 1
        assert example.locator("caption").first.evaluate("e => e.getBoundingClientRect().width") <= 1
        assert not example.locator("p:has(> table)").count()
    finally:
        context.close()


_ROWS = """ex => [...ex.querySelectorAll('tbody tr')].map(tr => {
  const [th, td] = [tr.querySelector('th'), tr.querySelector('td')].map(e => getComputedStyle(e));
  return [th.fontWeight === td.fontWeight, th.borderTopWidth === td.borderTopWidth, getComputedStyle(tr.querySelector('th'), '::after').content];
})"""
_EMPTY_SHOWN = "ex => [...ex.querySelectorAll('.admonition > p:not(.admonition-title)')].filter(p => !p.textContent.trim() && p.getClientRects().length).length"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_worked_examples_row_headers_print_as_its_first_cells_did(browser, base: str, lang: str) -> None:
    """The row headers (audit-a11y L6) took Material's bold in print, and the outcome's table left two empty
    paragraphs around it in its box: a Malifaux page grew onto a second A4 page. On paper a row's label is as quiet
    and as wide as the first cell it replaced, unruled like its value, a space before it, and nothing empty takes a
    line; on a screen it is ruled like the value beside it."""
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _open(pg, f"{base}/{lang}/mini/shooting.html")
        example = pg.locator(".kb-example").first
        assert example.locator(".admonition tbody th").count() >= 1
        assert all(ruled for _, ruled, _ in example.evaluate(_ROWS))
        assert example.evaluate(_EMPTY_SHOWN) == 0
        pg.emulate_media(media="print")
        rows = example.evaluate(_ROWS)
        assert rows and all(same and ruled and after == '" "' for same, ruled, after in rows), rows
        assert example.evaluate(_EMPTY_SHOWN) == 0
    finally:
        context.close()
