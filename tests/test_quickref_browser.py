"""The quick references and the steppers of the bundled content's site in Chromium (docs/site.md, "Quick
reference" and "Stepper").

- Each game's quick reference, in both languages, printed to PDF on A4 with Chromium's default margins
  (CDP ``Page.printToPDF``, no header or footer) takes one or two pages, counted in the PDF; on paper it is
  two columns with no menu, header or footer; at 390×844 nothing overflows sideways; the game page links it
  (``a[data-kb-quickref]``); the game's offline save holds it.
- Every ``sequence`` entry's page, in both languages, at 390×844 with touch: the stepper walks every step
  forward and back by clicking ``data-kb-step`` buttons and by the arrow keys (Home/End too), showing each
  step's number as ``numbered_steps`` (the resolvers' numbering) gives it and announcing it in an
  ``aria-live`` line; a swipe moves it; without JavaScript the whole list is shown and there are no buttons;
  on paper the whole list prints; axe-core finds nothing serious on a stepper and a quick reference.

Skips like tests/test_browser.py (fails instead when ``KB_REQUIRE_BROWSER=1``).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Iterator

import pytest

from conftest import served
from kb.api import KnowledgeBase
from kb.core.model import LANGS
from kb.mechanics.procedures import numbered_steps
from kb.site.structure import entry_path
from test_browser import _serious, axe_script, launch_chromium  # noqa: F401  (axe_script: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
A4 = {"paperWidth": 8.27, "paperHeight": 11.69}
"""Inches; margins, header and footer left to Chromium's defaults (1 cm margins, no header or footer)."""
PAGE = re.compile(rb"/Type\s*/Page(?![a-z])")


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load()


@pytest.fixture(scope="module")
def site(bundled_site: Path) -> Path:
    return bundled_site


@pytest.fixture(scope="module")
def base(site: Path) -> Iterator[str]:
    with served(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch_chromium()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


def pdf_pages(data: bytes) -> int:
    """The number of pages of a PDF Chromium wrote (its page objects; Skia writes no object streams)."""
    assert data.startswith(b"%PDF-")
    return len(PAGE.findall(data))


def test_pdf_pages_are_counted() -> None:
    one = b"%PDF-1.4\n1 0 obj << /Type /Pages /Kids [2 0 R] /Count 1 >>\n2 0 obj << /Type /Page /Parent 1 0 R >>"
    assert pdf_pages(one) == 1
    assert pdf_pages(one + b"\n3 0 obj <</Type/Page/Parent 1 0 R>>") == 2


@pytest.mark.parametrize("lang", LANGS)
def test_each_quick_reference_prints_on_at_most_two_a4_pages(browser, base: str, kb: KnowledgeBase, lang: str) -> None:
    context = browser.new_context()
    pg = context.new_page()
    cdp = context.new_cdp_session(pg)
    pages = {}
    for game in sorted(kb.games):
        pg.goto(f"{base}/{lang}/{game}/quickref.html")
        pg.wait_for_load_state("load")
        data = base64.b64decode(cdp.send("Page.printToPDF", A4)["data"])
        pages[game] = pdf_pages(data)
        pg.emulate_media(media="print")
        shown = pg.evaluate("""() => ({
            chrome: ['.md-header', '.md-sidebar--primary', '.md-footer'].map(s => document.querySelector(s))
                     .filter(e => e && getComputedStyle(e).display !== 'none').length,
            columns: getComputedStyle(document.querySelector('.kb-quickref')).columnCount })""")
        pg.emulate_media(media="screen")
        assert shown == {"chrome": 0, "columns": "2"}, (game, shown)
    context.close()
    print(f"\nA4 pages per quick reference ({lang}): {pages}")
    assert all(1 <= n <= 2 for n in pages.values()), pages


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_page_links_a_quick_reference_readable_on_a_phone(phone, base: str, kb: KnowledgeBase, lang: str) -> None:
    for game in sorted(kb.games):
        phone.goto(f"{base}/{lang}/{game}/index.html")
        link = phone.locator(f'a[data-kb-quickref="{game}"]')
        assert link.count() == 1
        link.click()
        phone.wait_for_url(f"**/{lang}/{game}/quickref.html")
        wide = phone.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], (game, wide)
        assert phone.locator(".kb-quickref a").count() > 10


def test_the_offline_save_of_a_game_holds_its_quick_reference(site: Path, kb: KnowledgeBase) -> None:
    for lang in LANGS:
        index = json.loads((site / lang / "kb-offline.json").read_text(encoding="utf-8"))
        for game in kb.games:
            assert f"{game}/quickref.html" in [f for f, _ in index["games"][game]["files"]], (lang, game)


def _expected(entry) -> list[tuple[str, str | None]]:
    """(step id, number as the rulebook prints it) of every step, in reading order."""
    steps = entry.data["sequence"]["steps"]
    return [(str(s["id"]), None if n is None else str(n)) for s, n in numbered_steps(steps)]


def _at(pg, seq: str) -> tuple[str | None, str]:
    box = pg.locator(f'[data-kb-stepper="{seq}"]')
    return box.get_attribute("data-kb-stepper-at"), box.locator(".kb-stepper__status").text_content() or ""


def _ready(pg, seq: str) -> None:
    """Wait for the stepper of ``seq`` to be set up: kb-stepper.js comes once the page has loaded (the page's loader,
    kb.site.app.script_loader), so a test that reads or swipes right after ``goto`` must wait for it."""
    pg.locator(f'[data-kb-stepper="{seq}"].kb-stepper--on').wait_for(state="attached")


def _check(pg, seq: str, want: tuple[str, str | None], index: int, count: int, words: dict) -> None:
    at, status = _at(pg, seq)
    assert at == want[0], (seq, at, want)
    if want[1] is not None:
        assert words["step_number"].format(number=want[1]) in status, (seq, status)
    assert words["step_position"].format(index=index + 1, count=count) in status, (seq, status)


@pytest.mark.parametrize("lang", LANGS)
def test_every_stepper_walks_by_click_and_keyboard(phone, base: str, kb: KnowledgeBase, lang: str) -> None:
    sequences = kb.filter(kind="sequence")
    assert len(sequences) >= 10
    walked = 0
    for entry in sequences:
        want = _expected(entry)
        phone.goto(f"{base}/{lang}/{entry_path(entry).removesuffix('.md')}.html")
        box = phone.locator(f'[data-kb-stepper="{entry.id}"]')
        assert box.count() == 1, entry.id
        words = json.loads(box.get_attribute("data-kb-words") or "{}")
        status = box.locator(".kb-stepper__status")
        assert status.get_attribute("aria-live") == "polite"
        nxt, back = box.locator('button[data-kb-step="next"]'), box.locator('button[data-kb-step="back"]')
        assert nxt.text_content().strip().startswith(words["next"]) and words["previous"] in back.text_content()
        _check(phone, entry.id, want[0], 0, len(want), words)
        assert back.get_attribute("aria-disabled") == "true"
        for i in range(1, len(want)):
            nxt.click()
            _check(phone, entry.id, want[i], i, len(want), words)
        assert nxt.get_attribute("aria-disabled") == "true"
        nxt.click(force=True)  # at the end (aria-disabled, which Playwright respects): stays
        _check(phone, entry.id, want[-1], len(want) - 1, len(want), words)
        for i in reversed(range(len(want) - 1)):
            back.click()
            _check(phone, entry.id, want[i], i, len(want), words)
        box.locator(".kb-stepper__panel").focus()
        for i in range(1, len(want)):
            phone.keyboard.press("ArrowRight")
            _check(phone, entry.id, want[i], i, len(want), words)
        for i in reversed(range(len(want) - 1)):
            phone.keyboard.press("ArrowLeft")
            _check(phone, entry.id, want[i], i, len(want), words)
        phone.keyboard.press("End")
        _check(phone, entry.id, want[-1], len(want) - 1, len(want), words)
        nxt.focus()
        phone.keyboard.press("Home")
        _check(phone, entry.id, want[0], 0, len(want), words)
        phone.keyboard.press("Enter")  # the focused "next" button, by keyboard
        if len(want) > 1:
            _check(phone, entry.id, want[1], 1, len(want), words)
        shown = box.locator(".kb-stepper__panel").inner_text()
        assert shown.strip() and phone.locator(f'[data-kb-stepper="{entry.id}"] > ol').is_hidden()
        walked += len(want)
    print(f"\n{lang}: {len(sequences)} steppers, {walked} steps walked")


def _swipe(pg, selector: str, dx: int) -> None:
    pg.locator(selector).scroll_into_view_if_needed()
    box = pg.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = pg.context.new_cdp_session(pg)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx / 2, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_swipe_moves_the_stepper_and_a_step_link_opens_at_its_step(phone, base: str, kb: KnowledgeBase) -> None:
    entry = kb.get("warlords-of-terra.turn-phases")
    want = _expected(entry)
    phone.goto(f"{base}/es/warlords-of-terra/turn-phases.html")
    _ready(phone, entry.id)
    panel = '[data-kb-stepper="warlords-of-terra.turn-phases"] .kb-stepper__panel'
    _swipe(phone, panel, -150)
    assert _at(phone, entry.id)[0] == want[1][0]
    _swipe(phone, panel, 150)
    assert _at(phone, entry.id)[0] == want[0][0]
    phone.goto(f"{base}/en/warlords-of-terra/turn-phases.html#step-divert")
    _ready(phone, entry.id)
    at, status = _at(phone, entry.id)
    assert at == "divert" and "Step 3.2" in status


def test_without_javascript_the_whole_list_reads_and_prints(browser, base: str, kb: KnowledgeBase) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    pg = context.new_page()
    entry = kb.get("hunt-begins.turn-sequence")
    pg.goto(f"{base}/es/hunt-begins/turn-sequence.html")
    box = pg.locator('[data-kb-stepper="hunt-begins.turn-sequence"]')
    assert box.locator("button").count() == 0
    for step_id, _ in _expected(entry):
        assert box.locator(f"#step-{step_id}").locator("xpath=..").is_visible(), step_id
    context.close()
    pg = browser.new_page(viewport=PHONE)
    pg.goto(f"{base}/es/hunt-begins/turn-sequence.html")
    pg.emulate_media(media="print")
    assert pg.locator(".kb-stepper__ui").is_hidden()
    assert pg.locator('[data-kb-stepper="hunt-begins.turn-sequence"] > ol').is_visible()
    pg.close()


CITE_BUTTON = "label-content-name-mismatch "
"""kb-table.js's ¶ copy-link buttons, always shown on a touch screen, are named «Copiar enlace (párrafo 3)»
while they read «¶3»: axe's finding on every page of the site at a phone's size, not the stepper's or the
quick reference's (tests/test_browser.py runs axe at a desktop's size, where it does not come up)."""


@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_nothing_serious_on_a_stepper_and_a_quick_reference(browser, base: str, axe_script: str,  # noqa: F811
                                                                       lang: str) -> None:
    """At a desktop's size (as tests/test_browser.py runs axe) and at a phone's, the stepper shown at a middle step."""
    found = []
    for viewport in ({"width": 1280, "height": 900}, PHONE):
        context = browser.new_context(viewport=viewport, has_touch=viewport == PHONE)
        pg = context.new_page()
        for path in ("malifaux/sequencing.html", "warlords-of-terra/turn-phases.html#step-divert",
                     "hunt-begins/quickref.html", "battletech-solaris/quickref.html"):
            pg.goto(f"{base}/{lang}/{path}")
            pg.wait_for_selector('html[data-kb-table="ready"]', state="attached")  # the ¶ buttons and tooltips too
            found += [f"{viewport['width']}px {path}: {v}" for v in _serious(pg, axe_script)
                      if not (viewport == PHONE and v.startswith(CITE_BUTTON) and "kb-cite-btn" in v)]
        context.close()
    assert not found, "\n".join(found)
