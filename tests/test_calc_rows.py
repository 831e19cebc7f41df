"""What a player can type in a calculator (calculator audit, 2026-12-07): lists of rolls are not fixed to the page's
example (C1), a count the rows no longer fit reads «Falta un dato», not «La regla lo prohíbe» (C1, C13), a group the
rule fixes the size of is added whole (C5), a name the resolver declares the set of is a choice (C4), and a long form
keeps a short answer line in sight (C14). Without a browser: tests/test_calc_rows_browser.py tries them in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.api import KnowledgeBase
from kb.mechanics import KEYS_EVERY, KEYS_FROM
from kb.mechanics.space import ABSENT, LIST_ROOM, ROW_ROOM, call, space
from kb.site.calc import Calculator, _in_page, brief_text, calculators, form_html, head_path
from kb.site.calc_words import Words

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(ROOT / "content")


def _calc(kb: KnowledgeBase, entry: str, mechanic: str) -> Calculator:
    return next(c for c in calculators(kb.entries[entry], kb.registry.get, in_page=True) if c.resolver.name == mechanic)


def _form(kb: KnowledgeBase, calc: Calculator, lang: str) -> str:
    words = Words(calc.resolver, calc.own_names, lang, lambda k: None)
    return form_html(calc, 0, words, head_path(calc), _in_page(calc, words, lang, {}))


def _group(form: str, name: str) -> list[str]:
    """The items of the input ``name`` in a form's HTML."""
    return re.findall(rf'<div class="kb-calc-field kb-calc-item" data-kb-item="{name}".*?</div>', form)


def test_the_rolls_of_an_attack_are_not_fixed_to_the_examples_count(kb: KnowledgeBase) -> None:
    """RoF 2, Rapid fire or a second hit need more rolls than the page's example gives: the list has room for
    ``LIST_ROOM`` rolls, the example's present, each added or removed (audit C1: exactly the example's, no button)."""
    calc = _calc(kb, "hunt-begins.rapid-fire", "hunt-begins.attack")
    sp = calc.space
    rolls = [f for f in sp.variable if f.name == "hit_rolls[]"]
    assert len(rolls) == LIST_ROOM and all(f.values[0] is ABSENT and f.values[1:] == tuple(range(1, 21)) for f in rolls)
    start = sp.positions(sp.base)
    assert start is not None and sp.given(start)["hit_rolls"] == calc.example.given["hit_rolls"]
    at = {id(f): i for i, f in enumerate(sp.variable)}
    pos = list(start)
    pos[at[id(rolls[2])]] = 5  # a third roll, 5
    assert sp.given(tuple(pos))["hit_rolls"] == [*calc.example.given["hit_rolls"], 5]
    for lang in ("es", "en"):
        form = _form(kb, calc, lang)
        shown = _group(form, "hit_rolls")
        assert len(shown) == LIST_ROOM and sum(" hidden>" in i for i in shown) == LIST_ROOM - 2
        assert all("data-kb-remove" in i for i in shown)
        assert re.search(r'data-kb-add="hit_rolls">(Añadir|Add) ', form)
        assert re.search(r'data-kb-add="save_rolls">(Añadir|Add) ', form)


def test_a_list_of_texts_stays_the_examples(kb: KnowledgeBase) -> None:
    """No options are invented: a list of ids (the actions of an activation) has no set the engine knows."""
    calc = _calc(kb, "hunt-begins.move", "hunt-begins.activation")
    assert [f.kind for f in calc.space.fields if f.name == "actions[]"] == ["fixed", "fixed"]


@pytest.mark.parametrize("lang, said", [("es", "Falta un dato: "), ("en", "Missing information: ")])
def test_fewer_rolls_than_checks_is_a_missing_fact_not_a_rule(kb: KnowledgeBase, lang: str, said: str) -> None:
    """RoF 2 with one roll typed was «La regla lo prohíbe: Se hacen 2 chequeos, no 1» (audit C1): a roll still to type
    is a missing fact; more rolls than checks cannot happen; neither is the rule's "no"."""
    calc = _calc(kb, "hunt-begins.rapid-fire", "hunt-begins.attack")
    words = Words(calc.resolver, calc.own_names, lang, lambda k: None)
    base = {"skill": 14, "armour": 13}
    fewer = words.outcome(call(calc.resolver, {**base, "rof": 2, "hit_rolls": [5]}))[4]
    assert fewer.startswith(said), fewer
    saves = words.outcome(call(calc.resolver, {**base, "hit_rolls": [5], "save_rolls": []}))[4]
    assert saves.startswith(said), saves
    more = call(calc.resolver, {**base, "rof": 1, "hit_rolls": [5, 6]})
    assert getattr(more, "kind", None) == "impossible"


def test_both_players_vp_are_added_together_and_never_removed_one_by_one(kb: KnowledgeBase) -> None:
    """«Añadir puntos de victoria» added Ana alone, the answer then «no puede darse», and each player had «Quitar»
    though a game always has both (audit C5): a group declared ``keys_of(..., every=True)`` is added whole, removed
    whole."""
    res = kb.registry.get("starcraft-tmg.first-player")
    assert res.ranges()["vp"] == {KEYS_FROM: ["roll_off"], KEYS_EVERY: True}
    calc = _calc(kb, "starcraft-tmg.first-player-round-one", "starcraft-tmg.first-player")
    for lang in ("es", "en"):
        form = _form(kb, calc, lang)
        vp = _group(form, "vp")
        assert len(vp) == 2 and not any("data-kb-remove" in i for i in vp)
        assert re.search(r'data-kb-add="vp" data-kb-all>', form) and 'data-kb-remove-all="vp"' in form
    climb = _form(kb, _calc(kb, "battletech-solaris.climb", "battletech-solaris.climb"), "es")
    assert "data-kb-all" not in climb and all("data-kb-remove" in i for i in _group(climb, "rolls"))


def test_the_roll_off_winners_choice_is_a_choice_among_the_players(kb: KnowledgeBase) -> None:
    """«elección» was «Bruno — fijo en este ejemplo» (audit C4): declared ``keys_of("roll_off", "vp")``, it is a list
    of the players."""
    calc = _calc(kb, "starcraft-tmg.first-player-round-one", "starcraft-tmg.first-player")
    choice = next(f for f in calc.space.fields if f.name == "choice")
    assert choice.kind == "enum" and set(choice.values) == {None, *calc.example.given["roll_off"]}


def test_a_long_form_has_a_short_answer_line_and_a_short_one_has_none(kb: KnowledgeBase) -> None:
    """On shoot.html the answer sat 1,400 px below the first field, under a phone's keyboard (audit C14): a long form
    opens with a one-line answer kept in sight (kb.css: sticky), the same as the answer box's."""
    calc = _calc(kb, "hunt-begins.shoot", "hunt-begins.attack")
    for lang in ("es", "en"):
        words = Words(calc.resolver, calc.own_names, lang, lambda k: None)
        data = _in_page(calc, words, lang, {})
        form = form_html(calc, 0, words, head_path(calc), data)
        line = re.search(r'<p class="kb-calc-brief" aria-hidden="true">([^<]*)</p><div class="kb-calc-fields">', form)
        assert line and line.group(1) and line.group(1) == _escaped(brief_text(data["first"]))
    short = _calc(kb, "battletech-solaris.swamp-stuck", "battletech-solaris.swamp-check")
    words = Words(short.resolver, short.own_names, "es", lambda k: None)
    assert "kb-calc-brief" not in form_html(short, 0, words, head_path(short), _in_page(short, words, "es", {}))


def _escaped(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def test_the_space_of_an_open_list_holds_the_examples_longer_list(kb: KnowledgeBase) -> None:
    """An example with more items than ``LIST_ROOM`` keeps them all (room is never less than the example's)."""
    res = kb.registry.get("hunt-begins.attack")
    sp = space(res, {"skill": 14, "rof": 4, "rapid_fire": True, "hit_rolls": [1] * (LIST_ROOM + 1)}, 10**30, 10**30)
    assert len([f for f in sp.fields if f.name == "hit_rolls[]"]) == LIST_ROOM + 1


def test_a_three_way_tie_and_a_tie_in_the_re_roll_can_be_typed(kb: KnowledgeBase) -> None:
    """The re-roll row had boxes only for the example's tied pair, and no third row (audit C2): a list of rows of
    rolls by player offers ``ROW_ROOM`` rows, each with a box per player the example names, each added or removed."""
    calc = _calc(kb, "hunt-begins.initiative-roll", "dice.initiative")
    sp = calc.space
    players = list(calc.example.given["rolls"][0])
    rows = [f for f in sp.variable if f.path[0] == "rolls"]
    assert [f.path[1:] for f in rows] == [(i, p) for i in range(ROW_ROOM) for p in players]
    at = {f.path[1:]: i for i, f in enumerate(sp.variable) if f.path[0] == "rolls"}
    start = sp.positions(sp.base)
    assert start is not None
    pos = [0 if f.path[0] == "rolls" else start[i] for i, f in enumerate(sp.variable)]  # no roll typed yet
    for p in players:  # every player rolls 18, all three re-roll (7, 7, 3), then the first two again (9, 2)
        pos[at[(0, p)]] = 18
    for p, r in zip(players, (7, 7, 3), strict=True):
        pos[at[(1, p)]] = r
    pos[at[(2, players[0])]], pos[at[(2, players[1])]] = 9, 2
    given = sp.given(tuple(pos))
    assert given["rolls"] == [dict.fromkeys(players, 18), dict(zip(players, (7, 7, 3), strict=True)),
                              {players[0]: 9, players[1]: 2}]
    result = call(calc.resolver, given)
    high = given.get("highest_first", True)
    assert result.values["order"] == ([players[0], players[1], players[2]] if high else [players[2], players[1], players[0]])
    assert result.values["rerolls"] == 2
    form = _form(kb, calc, "en")
    assert len(_group(form, "rolls")) == ROW_ROOM * len(players) and 'data-kb-add="rolls">Add ' in form
