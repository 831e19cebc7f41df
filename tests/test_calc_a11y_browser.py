"""The calculators for a screen-reader and keyboard player, in Chromium at 390x844, both languages (accessibility
audit 2026-12-07): a drop-down's choices are named by their words, not emptied by the glossary's tooltips (H1); what
is announced is one short line once the typing settles, never the odds table (M1); a refused value's reason is its
field's description while it stands (M2); a row just added takes what is typed in place of its first value (L3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from test_calc_browser import (_forms, _needs_runtime, base, browser, kb, page, playwright,  # noqa: F401
                               site)
from test_calc_rows_browser import ATTACK, _shown, _type

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOOT = "hunt-begins/shoot.html"

# Every text the form's status takes, in order, from now on (what a screen reader is handed).
RECORD = """f => {
  const s = f.querySelector('[role=status]');
  window.kbSaid = [];
  new MutationObserver(() => window.kbSaid.push(s.textContent)).observe(s, {childList: true, subtree: true, characterData: true});
}"""


def _open(page, base: str, lang: str):  # noqa: F811
    page.goto(f"{base}/{lang}/{SHOOT}")
    _forms(page)
    page.wait_for_selector("article .kb-term", state="attached")  # the glossary's tooltips have been laid
    return page.locator(ATTACK).first


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_drop_downs_choices_are_named_by_their_words(page, base: str, lang: str) -> None:  # noqa: F811
    """«combate cuerpo a cuerpo» / "close combat" is a glossary term: the tooltips wrapped it inside its <option>, which
    Chromium then named nothing (``option`` alone in the tree, the selected choice unnamed)."""
    form = _open(page, base, lang)
    assert form.locator(".kb-term").count() == 0  # nothing of a form is the tooltips' (labels, choices, answer)
    selects = form.locator("select")
    assert selects.count() > 0
    for i in range(selects.count()):
        select = selects.nth(i)
        words = select.locator("option").all_text_contents()
        tree = select.aria_snapshot()
        assert all(f'option "{w}"' in tree for w in words), tree
        assert "- option\n" not in tree + "\n" and "- option [" not in tree, tree
    kind = form.locator('[name="kind"]')
    kind.focus()
    page.keyboard.press("ArrowDown")  # the keyboard's way to the second choice
    expect(kind).to_have_value('"close-combat"')
    assert f'option "{kind.locator("option").nth(1).text_content()}" [selected]' in kind.aria_snapshot()
    assert page.kb_errors == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_answer_is_announced_in_one_line_once_the_typing_settles(page, base: str, site: Path, lang: str) -> None:  # noqa: F811
    """The result box (outputs, steps and a 20-row odds table) was the live region, read whole at every keystroke:
    «abc» was announced three times. Now a status says the short answer once the values stay put."""
    _needs_runtime(site)
    form = _open(page, base, lang)
    box = form.locator("[data-kb-outcome]")
    assert box.evaluate("b => b.closest('[aria-live], [role=status], [role=alert], [role=log]')") is None
    status = form.locator("[role=status]")
    assert status.count() == 1 and status.text_content() == ""  # nothing said as the page opens
    form.evaluate(RECORD)
    skill = form.locator('[name="skill"]')
    skill.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("abc", delay=80)
    refusal = form.locator(".kb-calc-message")
    expect(refusal).to_have_count(1)
    page.wait_for_timeout(1_500)
    assert page.evaluate("window.kbSaid") == [refusal.text_content()]  # once, the last: not «a», «ab», «abc»
    page.keyboard.press("Control+A")
    page.keyboard.type("9")
    _shown(page, form)
    odds = form.locator(".kb-calc-odds").text_content()
    page.wait_for_function("([s, o]) => s.textContent.endsWith(o)", arg=[status.element_handle(), odds])
    said = status.text_content()
    assert said == form.locator(".kb-calc-brief").text_content() + " · " + odds  # the outputs, then the chance
    table = form.locator(".kb-calc-odds-table")
    assert table.locator("tbody tr").count() > 5
    assert table.locator("caption").text_content() not in said and form.locator(".kb-calc-steps").text_content() not in said
    assert page.evaluate("window.kbSaid").count(said) == 1
    assert page.kb_errors == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_refused_values_reason_is_its_fields_description(page, base: str, lang: str) -> None:  # noqa: F811
    """The field said only «entrada no válida, de 1 a 20» on coming back to it; now its description holds why, until
    the value is taken."""
    form = _open(page, base, lang)
    skill = form.locator('[name="skill"]')
    fid = skill.get_attribute("id")
    span = form.locator(f"#{fid}-range").text_content()
    for typed in ("25", "abc"):
        _type(page, skill, typed)
        expect(skill).to_have_attribute("aria-invalid", "true")
        message = form.locator(".kb-calc-message").text_content()
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")  # away and back, as the auditor did
        assert page.evaluate("document.activeElement.name") == "skill"
        expect(skill).to_have_attribute("aria-describedby", f"{fid}-range {fid}-error")
        expect(skill).to_have_accessible_description(f"{span} {message}")
        assert typed in message
    _type(page, skill, "9")
    expect(skill).not_to_have_attribute("aria-invalid", "true")
    expect(skill).to_have_attribute("aria-describedby", f"{fid}-range")
    expect(skill).to_have_accessible_description(span)
    assert page.kb_errors == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_row_just_added_takes_what_is_typed_in_place_of_its_first_value(page, base: str, lang: str) -> None:  # noqa: F811
    """«Añadir tiradas para impactar» / "Add rolls to hit", then 3: the new roll is 3, not 13."""
    form = _open(page, base, lang)
    form.locator('[data-kb-add="hit_rolls"]').focus()
    page.keyboard.press("Enter")
    added = form.locator('[data-kb-item="hit_rolls"]:not([hidden]) [data-kb-field]').last
    expect(added).to_be_focused()
    page.keyboard.type("3")  # no Control+A: the player types straight away
    expect(added).to_have_value("3")
    assert page.kb_errors == []
