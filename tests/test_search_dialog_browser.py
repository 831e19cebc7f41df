"""The search dialog on a phone (390×844), phone audit 3: a suggestion only once the query's words are in (D21), the
filters readable and the kinds counted within the game chosen (D2, D24), a step's hash kept in the address (D4), and
a hint when nothing is found (D20). The fixture content's site, Debian's Chromium under Playwright."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_browser import (
    PHONE,
    _eventually,
    _ids,
    _open,
    _search,
    _settled,
    launch_chromium,
)

from kb.site.search_box import search_labels

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch_chromium()


@pytest.fixture(scope="module")
def base(fixture_url: str) -> str:
    return fixture_url  # conftest's: the fixture pack's site, built once for the session (no test here writes in it)


def test_a_suggestion_for_an_earlier_query_goes_while_the_next_ones_words_load(browser, base: str) -> None:
    """A "did you mean" made for what was typed before stayed up while the words of the question were on their way
    («hit the pla» → «place» over «hit the player», D21): while they load, the dialog says it is loading."""
    context = browser.new_context(service_workers="block", **PHONE)  # Playwright's routes do not see a worker's fetches
    try:
        pg = context.new_page()
        _open(pg, f"{base}/en/mini/aim.html")
        box, status = pg.locator("input.kb-search__input"), pg.locator(".kb-search__status")
        _search(pg, "shoting")
        assert status.inner_text() == "Did you mean shooting?"
        held: list = []
        parts = lambda url: "kb-search-en-" in url
        pg.route(parts, lambda route: held.append(route))  # the next words' parts are held back
        box.press_sequentially(" velocity")
        assert _eventually(lambda: bool(held), True), "no part was asked for"
        assert status.inner_text() == search_labels("en")["loading"]  # not "Did you mean shooting?"
        pg.unroute(parts)  # the held requests go on
        _settled(pg)
        assert _eventually(lambda: status.inner_text() != search_labels("en")["loading"], True)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_on_a_phone_the_filters_show_their_choice_and_the_kinds_count_within_the_game(browser, base: str,
                                                                                       lang: str) -> None:
    """At 390 px the selects showed «Juego: to▾» beside the checkbox (D2): the checkbox goes on its own line and each
    select's choice fits. With a game chosen, the kinds are counted within it (D24)."""
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _open(pg, f"{base}/{lang}/other/index.html")
        _search(pg, "linea de vision")
        fits = """els => els.map(e => { const c = document.createElement('canvas').getContext('2d');
                      c.font = getComputedStyle(e).font;
                      return c.measureText(e.options[e.selectedIndex].text).width + 24 <= e.clientWidth; })"""
        assert pg.eval_on_selector_all(".kb-search__filters select", fits) == [True, True]
        pg.select_option("select.kb-search__game", "other")
        assert _eventually(lambda: _ids(pg), ["other.sight"]) == ["other.sight"]
        counts = pg.eval_on_selector_all("select.kb-search__kind option",
                                         "els => els.filter(o => !o.disabled).map(o => o.text)")
        everything = search_labels(lang)["all_kinds"]
        assert counts[0] == f"{everything} (1)" and len(counts) == 2, counts  # the game's one term, not every game's
        assert pg.eval_on_selector_all(".kb-search__filters select", fits) == [True, True]
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_link_to_a_step_keeps_its_hash_in_the_address(browser, base: str, lang: str) -> None:
    """The theme's navigation.tracking took the #step-… out of the address once the stepper had been scrolled to (D4)."""
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        pg.goto(f"{base}/{lang}/mini/turn-sequence.html#step-end-of-activation")
        pg.wait_for_selector(".kb-stepper--on", state="attached")
        pg.wait_for_timeout(500)
        pg.mouse.wheel(0, 2)  # a scroll the theme's tracking sees (the landing's own scroll it may miss, by timing)
        pg.wait_for_timeout(2500)  # past the theme's rewrite (500 ms after the scroll) and ours
        assert pg.evaluate("location.hash") == "#step-end-of-activation"
        pg.evaluate("location.hash = '#step-initiative'")  # the same page, smoothly
        pg.wait_for_timeout(1000)
        pg.mouse.wheel(0, 2)
        pg.wait_for_timeout(2500)
        assert pg.evaluate("location.hash") == "#step-initiative"
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_nothing_found_says_what_to_try(browser, base: str, lang: str) -> None:
    """«Nada encontrado.» alone (D20): now with what to try, in the page's language."""
    context = browser.new_context(**PHONE)
    try:
        pg = context.new_page()
        _open(pg, f"{base}/{lang}/mini/aim.html")
        _search(pg, "qqxqq")
        labels = search_labels(lang)
        want = f"{labels['no_results']} {labels['no_results_hint']}"
        assert _eventually(lambda: pg.locator(".kb-search__status").inner_text(), want) == want
    finally:
        context.close()
