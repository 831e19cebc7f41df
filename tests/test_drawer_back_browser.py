"""On a phone the menu's drawer shows one level at a time; a level's title (the theme's arrow and the level's name)
goes back up a level. A screen reader heard the level's name only; now the title is named with the catalog's
``menu_back``, its own name first: «Términos: volver a Mini Escaramuza» / "Terms: back to Mini Skirmish"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from kb.core.locale import fill, pgettext
from test_browser import base, browser, phone_drawer, site  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_TEXT = """l => { const c = l.cloneNode(true); c.querySelectorAll('a, .md-nav__icon').forEach(x => x.remove());
    return c.textContent.replace(/\\s+/g, ' ').trim(); }"""


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_drawer_levels_title_says_it_goes_back_and_where(browser, base: str, lang: str) -> None:  # noqa: F811
    with phone_drawer(browser, f"{base}/{lang}/mini/turn-sequence.html") as (pg, _menu):
        back = pg.locator(".md-nav--primary .md-nav__title[for='__nav_2_4']")
        above = pg.locator(".md-nav--primary .md-nav__title[for='__nav_2']")
        level, parent = back.evaluate(_TEXT), above.evaluate(_TEXT)
        assert level and parent and level != parent
        back.focus()  # where Shift+Tab from the level's first link puts it
        said = fill(pgettext(lang, "site", "menu_back"), {"level": level, "parent": parent})
        assert ("volver a" if lang == "es" else "back to") in said
        expect(back).to_have_accessible_name(said)
        pg.keyboard.press("Enter")  # it still goes back
        pg.wait_for_timeout(400)
        assert not pg.evaluate("document.getElementById('__nav_2_4').checked")
        expect(above).to_have_accessible_name(fill(pgettext(lang, "site", "menu_back"),
                                                   {"level": parent, "parent": pg.locator(
                                                       ".md-nav--primary > .md-nav__title").evaluate(_TEXT)}))
