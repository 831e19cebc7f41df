"""What a player can type, tried in Chromium at 390x844 with the keyboard only, in both languages (calculator audit
2026-12-07; tests/test_calc_rows.py has the same without a browser): a second roll is added with «Añadir …» / "Add …"
and a missing one reads «Falta un dato» (C1), both players' VP come and go together (C5), and a long form's short
answer line stays in the top of the screen while the last field is typed in (C14)."""

from __future__ import annotations

import json

import pytest

from test_calc_browser import (_forms, base, browser, expected_calculators, kb, page, playwright,  # noqa: F401
                               python_answer, site)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ATTACK = 'form[data-kb-resolver="hunt-begins.attack"]'
FIRST = 'form[data-kb-resolver="starcraft-tmg.first-player"]'
MISSING = {"es": "Falta un dato: ", "en": "Missing information: "}


def _type(pg, field, text: str) -> None:
    """``text`` typed into ``field`` from the keyboard (focused, its old value selected and typed over)."""
    field.focus()
    pg.keyboard.press("Control+A")
    pg.keyboard.type(text)


def _shown(pg, form) -> dict:
    """The answer once the form has one (not waiting, the runtime loaded when it needs it)."""
    pg.wait_for_function("f => !f.dataset.kbBusy", arg=form.element_handle(), timeout=120_000)
    return json.loads(form.locator("[data-kb-outcome]").get_attribute("data-kb-outcome"))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_second_roll_is_added_by_keyboard_and_a_missing_one_is_a_missing_fact(page, base: str, kb, lang: str) -> None:  # noqa: F811
    page.goto(f"{base}/{lang}/hunt-begins/shoot.html")
    _forms(page)
    form = page.locator(ATTACK).first
    _type(page, form.locator('[name="rof"]'), "2")
    answer = _shown(page, form)
    assert answer == {"error": "wrong-number-of-rolls", "kind": "incomplete"}
    assert form.locator(".kb-calc-refusal").text_content().startswith(MISSING[lang])
    form.locator('[data-kb-add="hit_rolls"]').focus()
    page.keyboard.press("Enter")  # the button, from the keyboard: the focus moves to the new roll
    added = form.locator('[data-kb-item="hit_rolls"]:not([hidden]) [data-kb-field]')
    assert added.count() == 2
    assert page.evaluate("document.activeElement.name") == "hit_rolls[]"
    page.keyboard.press("Control+A")
    page.keyboard.type("19")
    entry, ex = expected_calculators(kb)[("hunt-begins/shoot.html", "hunt-begins.attack")]
    given = {**dict(ex.given), "rof": 2, "hit_rolls": [*ex.given.get("hit_rolls", [])[:1], 19]}
    assert _shown(page, form) == python_answer(kb, entry, "hunt-begins.attack", given)
    assert page.kb_errors == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_both_players_vp_are_added_and_removed_together(page, base: str, kb, lang: str) -> None:  # noqa: F811
    page.goto(f"{base}/{lang}/starcraft-tmg/first-player-round-one.html")
    _forms(page)
    form = page.locator(FIRST).first
    _type(page, form.locator('[name="round"]'), "2")
    assert _shown(page, form) == {"error": "missing-vp", "kind": "incomplete"}
    vp = form.locator('[data-kb-item="vp"]')
    assert vp.count() == 2 and form.locator('[data-kb-item="vp"] [data-kb-remove]').count() == 0
    form.locator('[data-kb-add="vp"]').focus()
    page.keyboard.press("Enter")
    assert form.locator('[data-kb-item="vp"]:not([hidden])').count() == 2  # both at once
    assert page.evaluate("document.activeElement.name") == form.locator('[data-kb-item="vp"] [data-kb-field]').first.get_attribute("name")
    page.keyboard.press("Control+A")
    page.keyboard.type("5")  # the first player 5 VP, the second 0: fewer VP hold the marker
    shown = _shown(page, form)
    assert "error" not in shown and shown["decided_by"] == "fewer-vp"
    form.locator('[data-kb-remove-all="vp"]').focus()
    page.keyboard.press("Enter")
    assert form.locator('[data-kb-item="vp"]:not([hidden])').count() == 0
    assert _shown(page, form) == {"error": "missing-vp", "kind": "incomplete"}
    assert page.kb_errors == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_long_forms_answer_line_stays_in_sight_while_typing(page, base: str, kb, lang: str) -> None:  # noqa: F811
    """On shoot.html the answer sat 1,400 px below the first field: with a phone's keyboard over the lower half of the
    screen, the player never saw it change. The short line stays under the header, in the top 40 % of the screen,
    uncovered, and says the new answer."""
    page.goto(f"{base}/{lang}/hunt-begins/shoot.html")
    _forms(page)
    form = page.locator(ATTACK).first
    fields = form.locator("[data-kb-field]:not([disabled])")
    last = fields.nth(fields.count() - 1)
    last.scroll_into_view_if_needed()
    _type(page, form.locator('[name="rof"]'), "2")  # an answer that reads differently: a roll is missing
    _shown(page, form)
    last.focus()
    page.evaluate("el => el.scrollIntoView({block: 'end'})", last.element_handle())
    line = form.locator(".kb-calc-brief")
    box = line.bounding_box()
    result = form.locator("[data-kb-outcome]").bounding_box()
    assert box is not None and result is not None
    assert 0 <= box["y"] and box["y"] + box["height"] <= 0.4 * 844, box  # above a keyboard
    assert result["y"] > 844 or result["y"] + result["height"] > 0.6 * 844  # the answer itself is under it
    seen = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.kb-calc-brief') !== null",
                         [box["x"] + 4, box["y"] + 4])
    assert seen  # not under the header (the theme's "back to top" button may float over its middle while scrolling up)
    assert line.text_content() == form.locator(".kb-calc-refusal").text_content()
    assert line.text_content().startswith(MISSING[lang])
    assert page.kb_errors == []


INITIATIVE = 'form[data-kb-resolver="dice.initiative"]'


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_three_way_tie_and_a_tie_in_the_re_roll_are_typed_by_keyboard(page, base: str, kb, lang: str) -> None:  # noqa: F811
    """Audit C2: 18/18/18, then 7/7/3, then 9/2 for the two still tied; the re-roll boxes added with «Añadir tiradas»
    / "Add rolls" (each press shows the next box and moves the focus to it)."""
    page.goto(f"{base}/{lang}/hunt-begins/initiative-roll.html")
    _forms(page)
    form = page.locator(INITIATIVE).first
    for p in ("marines", "aliens", "predators"):
        _type(page, form.locator(f'[data-kb-path=\'["rolls", 0, "{p}"]\']'), "18")
    assert _shown(page, form) == {"error": "unresolved-tie", "kind": "incomplete"}
    add = form.locator('[data-kb-add="rolls"]')

    def added(text: str) -> None:
        add.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Control+A")
        page.keyboard.type(text)

    for p, r in (("marines", "7"), ("aliens", "7")):
        _type(page, form.locator(f'[data-kb-path=\'["rolls", 1, "{p}"]\']'), r)
    added("3")  # the third player's re-roll, in the second row
    assert page.evaluate("document.activeElement.dataset.kbPath") == '["rolls", 1, "predators"]'
    assert _shown(page, form) == {"error": "unresolved-tie", "kind": "incomplete"}  # 7 and 7 tie again
    added("9")
    added("2")
    assert page.evaluate("document.activeElement.dataset.kbPath") == '["rolls", 2, "aliens"]'
    entry, ex = expected_calculators(kb)[("hunt-begins/initiative-roll.html", "dice.initiative")]
    rolls = [{"marines": 18, "aliens": 18, "predators": 18}, {"marines": 7, "aliens": 7, "predators": 3},
             {"marines": 9, "aliens": 2}]
    assert _shown(page, form) == python_answer(kb, entry, "dice.initiative", {**dict(ex.given), "rolls": rolls})
    assert page.kb_errors == []


ACTIVATION = 'form[data-kb-resolver="hunt-begins.activation"]'
PHASE = 'form[data-kb-resolver="starcraft-tmg.activation-phase"]'


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_players_own_activation_is_chosen_by_keyboard(page, base: str, kb, lang: str) -> None:  # noqa: F811
    """Hunt Begins' activation held its actions at the page's example (audit C13): each is a list of the game's
    actions, the player's own Move + Shoot is answered, and no action left reads «Falta un dato»."""
    page.goto(f"{base}/{lang}/hunt-begins/move.html")
    _forms(page)
    form = page.locator(ACTIVATION).first
    second = form.locator('[data-kb-item="actions"]:not([hidden]) select').nth(1)
    second.focus()
    page.keyboard.press("ArrowDown")  # Run → Shoot, the next action in the list
    entry, ex = expected_calculators(kb)[("hunt-begins/move.html", "hunt-begins.activation")]
    assert _shown(page, form) == python_answer(kb, entry, "hunt-begins.activation",
                                               {**dict(ex.given), "actions": ["hunt-begins.move", "hunt-begins.shoot"]})
    for _ in range(2):
        form.locator('[data-kb-item="actions"]:not([hidden]) [data-kb-remove]').first.focus()
        page.keyboard.press("Enter")
    assert _shown(page, form) == {"error": "no-actions", "kind": "incomplete"}
    assert form.locator(".kb-calc-refusal").text_content().startswith(MISSING[lang])
    assert page.kb_errors == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_players_own_decisions_close_up_when_one_is_removed(page, base: str, kb, lang: str) -> None:  # noqa: F811
    """StarCraft's «decisiones · n» were held at the page's example, so Bruno with 2 units read «La regla lo prohíbe»
    (audit C13): removing Bruno's third activation closes the list up (1, 2, 3, 4, no gap) and answers; «Añadir»
    appends a fifth decision after the last."""
    page.goto(f"{base}/{lang}/starcraft-tmg/passing.html")
    _forms(page)
    form = page.locator(PHASE).first
    _type(page, form.locator('[name="units.bruno"]'), "2")
    assert _shown(page, form)["kind"] == "forbidden"  # the example's decisions activate a third unit of Bruno's
    form.locator('[data-kb-item="decisions"]:not([hidden]) [data-kb-remove]').nth(3).focus()
    page.keyboard.press("Enter")
    shown = form.locator('[data-kb-item="decisions"]:not([hidden]) [data-kb-field]')
    assert [json.loads(p)[1] for p in shown.evaluate_all("l => l.map(e => e.dataset.kbPath)")] == [0, 1, 2, 3]
    entry, ex = expected_calculators(kb)[("starcraft-tmg/passing.html", "starcraft-tmg.activation-phase")]
    mine = [*ex.given["decisions"][:3], ex.given["decisions"][4]]
    answer = _shown(page, form)
    assert answer == python_answer(kb, entry, "starcraft-tmg.activation-phase",
                                   {**dict(ex.given), "units": {**ex.given["units"], "bruno": 2}, "decisions": mine})
    assert answer["activations"] == {"ana": 0, "bruno": 2}
    form.locator('[data-kb-add="decisions"]').focus()
    page.keyboard.press("Enter")
    assert json.loads(page.evaluate("document.activeElement.dataset.kbPath")) == ["decisions", 4]
    assert _shown(page, form) == {"error": "phase-over", "kind": "impossible"}
    assert page.kb_errors == []
