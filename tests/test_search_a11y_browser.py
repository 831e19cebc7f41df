"""The search dialog and the game page's offline buttons for a keyboard-only or screen-reader player (accessibility
audit of 2026-12-07: M3, M4, M5, L4, L5), on a phone (390×844), in both languages and both colour schemes. The fixture
content's site, Debian's Chromium under Playwright, axe-core for contrast."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import built_site, served
from test_browser import FIXTURE, PHONE, _open, axe_script, launch_chromium  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch_chromium()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(built_site(FIXTURE, tmp_path_factory.mktemp("a11y") / "site")) as url:
        yield url


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
    in either scheme, white on the theme's accent, 4.25:1."""
    context = browser.new_context(**PHONE, color_scheme=scheme)
    try:
        pg = context.new_page()
        _open(pg, f"{base}/{lang}/mini/index.html")
        button = pg.locator(".kb-offline__button:not([hidden])").first
        button.wait_for(state="visible")
        pg.mouse.move(1, 800)
        for state in ("at rest", "focused"):
            failed, checked = _contrast(axe_script, pg, ".kb-offline")
            assert failed == [], state
            assert any("kb-offline__button" in h for h in checked), (state, checked)
            button.focus()
    finally:
        context.close()

