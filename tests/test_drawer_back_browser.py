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


_STOPS = """nav => { document.querySelectorAll('[data-kb-stop]').forEach(e => e.removeAttribute('data-kb-stop'));
    return Array.from(nav.querySelectorAll('a[href], button, input, select, textarea, label, [tabindex]'))
    .filter(e => e.tabIndex >= 0 && !e.disabled && e.checkVisibility({visibilityProperty: true}))
    .map((e, i) => { e.setAttribute('data-kb-stop', i); return i; }); }"""


def _unnamed_stops(pg) -> list:
    """The drawer's tab stops in sight that Chromium's own accessibility tree gives no name (the screen reader's
    word for them), each as its HTML's start."""
    stops = pg.locator(".md-sidebar--primary nav").first.evaluate(_STOPS)
    assert stops
    cdp = pg.context.new_cdp_session(pg)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    unnamed = []
    for i in stops:
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f"[data-kb-stop='{i}']"})["nodeId"]
        ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]
        if not str(ax.get("name", {}).get("value", "")).strip():
            unnamed.append(pg.locator(f"[data-kb-stop='{i}']").evaluate("e => e.outerHTML.slice(0, 120)"))
    cdp.detach()
    return unnamed


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_tab_stop_in_the_drawer_has_a_name(browser, base: str, lang: str) -> None:  # noqa: F811
    """Beside a level's own page the theme's arrow that opens the level was a tab stop with no name (only an icon);
    now it is named with the catalog's ``menu_open``: «Abrir Mini Escaramuza» / "Open Mini Skirmish". Every level
    from the page's up to the top, by the levels' titles (back)."""
    with phone_drawer(browser, f"{base}/{lang}/mini/turn-sequence.html") as (pg, _menu):
        for up in ("__nav_2_4", "__nav_2", None):
            assert _unnamed_stops(pg) == [], up
            if up:
                pg.locator(f".md-nav--primary .md-nav__title[for='{up}']").focus()
                pg.keyboard.press("Enter")
                pg.wait_for_timeout(400)
        arrow = pg.locator(".md-nav--primary .md-nav__container > label[for='__nav_2']")
        expect(arrow).to_be_visible()
        page = arrow.evaluate("l => l.parentNode.querySelector(':scope > a').textContent.trim()")
        expect(arrow).to_have_accessible_name(fill(pgettext(lang, "site", "menu_open"), {"level": page}))
