"""The Hunt Begins and StarCraft calculators answer the player's own situation (calculator audit, C3, C4, C5, C15,
C16): a choice the rule leaves to the player is a field, not the example's value, and a «no» says the real reason."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import CONTENT
from kb import KnowledgeBase
from kb.mechanics import Outcome
from kb.mechanics.space import FIXED, Refusal, call, space
from kb.view.worked import name_finder, value_shower


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(CONTENT)


def _form(kb: KnowledgeBase, entry: str, mechanic: str) -> tuple[Any, dict[str, Any]]:
    """The calculator's space as the site builds it (from the entry's first example of ``mechanic``) and its base."""
    ex = next(x for x in kb.entries[entry].examples if x.mechanic == mechanic)
    sp = space(kb.registry.get(mechanic), ex.given, 10**30, 10**30)
    return sp, dict(sp.base)


def _shower(kb: KnowledgeBase, game: str, mechanic: str, lang: str = "es"):
    meta = kb.games[game]
    return value_shower(lang, kb.registry.get(mechanic), name_finder(game, meta.name, meta.data.get("names"), kb.entries))


@pytest.mark.parametrize("entry", ["hunt-begins.engaging-by-displacement", "hunt-begins.power-loader-displacement"])
def test_the_displaced_model_is_the_players_choice(kb: KnowledgeBase, entry: str) -> None:
    """C3: a 3-point mover displacing the predator fills the square exactly; the form lets the player choose it."""
    mechanic = "hunt-begins.displacement"
    sp, base = _form(kb, entry, mechanic)
    fields = {f.name: f for f in sp.fields}
    assert "displaced" not in fields and "displaced[]" not in fields
    assert fields["choice"].kind != FIXED and "predator" in fields["choice"].values
    assert fields["mover_owner"].kind != FIXED and fields["owners.hound"].kind != FIXED
    got = call(kb.registry.get(mechanic), {**base, "mover_points": 3, "choice": "predator"})
    assert isinstance(got, Outcome) and got.values["after"] == 8 and got.values["displaced"] == ["predator"]


def test_with_no_model_chosen_the_legal_displacements_are_listed(kb: KnowledgeBase) -> None:
    sp, base = _form(kb, "hunt-begins.engaging-by-displacement", "hunt-begins.displacement")
    got = call(kb.registry.get("hunt-begins.displacement"), {**base, "mover_points": 3, "choice": None})
    assert isinstance(got, Outcome) and got.values["possible"]
    listed = [s.values.get("d") for s in got.trace if s.values.get("d") is not None]
    assert ["predator"] in listed and ["marine-1", "marine-2"] in listed


def test_the_displacement_words_agree(kb: KnowledgeBase) -> None:
    """C3 (minor), C15: one name for the hound, base sizes in the feminine of «peana», option lists in lower case."""
    res = kb.registry.get("hunt-begins.displacement")
    show = _shower(kb, "hunt-begins", "hunt-begins.displacement")
    assert res.label("hound", "es") == show("hound") == "mastín"
    assert [show(v) for v in ("small", "medium", "large")] == ["pequeña", "mediana", "grande"]
    inferno = _shower(kb, "hunt-begins", "hunt-begins.scorching-inferno")
    assert [inferno(v) for v in ("square", "vent", "corner")] == ["cuadrante", "conducto de ventilación", "esquina"]
    assert [inferno(v) for v in ("square", "vent", "corner")] == [x.lower() for x in map(inferno, ("square", "vent", "corner"))]


def test_close_combat_takes_the_melee_facts_and_opens_on_an_answer(kb: KnowledgeBase) -> None:
    """C16: in close combat the target is engaged and the square contested; they do not block the answer."""
    sp, base = _form(kb, "hunt-begins.close-combat", "hunt-begins.attack")
    res = kb.registry.get("hunt-begins.attack")
    assert isinstance(call(res, base), Outcome)
    got = call(res, {"skill": 14, "kind": "close-combat", "target_engaged": True, "contested_squares": 2})
    assert isinstance(got, Outcome) and got.values["needs"] == [14]
    said = " ".join(s.say("es", str) for s in got.trace)
    assert "no modifica el combate" in said and "no modifican el combate" in said
    refused = call(res, {"skill": 14, "kind": "close-combat", "aim": True})
    assert isinstance(refused, Refusal) and refused.kind == "elsewhere"


@pytest.mark.parametrize("entry", ["starcraft-tmg.first-player-round-one", "starcraft-tmg.first-player-later-rounds",
                                   "starcraft-tmg.initiative"])
def test_the_roll_off_winner_chooses_the_holder(kb: KnowledgeBase, entry: str) -> None:
    """C4: seed 001 §8.2.2, the winner gives the marker to either player: «elección» is a choice of the two."""
    sp, base = _form(kb, entry, "starcraft-tmg.first-player")
    choice = {f.name: f for f in sp.fields}["choice"]
    assert choice.kind != FIXED and {"ana", "bruno"} <= set(choice.values)


def test_a_winner_who_keeps_the_marker_keeps_it(kb: KnowledgeBase) -> None:
    res = kb.registry.get("starcraft-tmg.first-player")
    got = call(res, {"round": 1, "roll_off": {"ana": 12, "bruno": 2}, "choice": "ana"})
    assert isinstance(got, Outcome) and got.values["holder"] == "ana"
    show = _shower(kb, "starcraft-tmg", "starcraft-tmg.first-player")
    said = [s.say("es", show) for s in got.trace]
    assert "Ana se queda el marcador" in said and not any("da el First Player Marker a Ana" in s for s in said)
    assert "Ana keeps the marker" in [s.say("en", _shower(kb, "starcraft-tmg", "starcraft-tmg.first-player", "en"))
                                       for s in got.trace]


def test_a_half_filled_vp_table_is_missing_data(kb: KnowledgeBase) -> None:
    """C5: one player's VP added, the other's not yet: «Falta un dato», not «Esa situación no puede darse»."""
    got = call(kb.registry.get("starcraft-tmg.first-player"), {"round": 2, "vp": {"ana": 0}})
    assert isinstance(got, Refusal) and got.kind == "incomplete"
    three = call(kb.registry.get("starcraft-tmg.first-player"), {"round": 2, "vp": {"ana": 0, "bruno": 1, "carla": 2}})
    assert isinstance(three, Refusal) and three.kind == "impossible"


def _refusal_words(got: Any, lang: str = "es") -> str:
    assert isinstance(got, Refusal) and got.error is not None
    return got.error.step.say(lang, str)


def test_strategy_cards_say_the_real_reason(kb: KnowledgeBase) -> None:
    """C15: three cards at once are refused for the limit of 2, not «ya se han jugado 0»; a hand of 7 draws none
    because the rule tops up to 5, not «roba 0 hasta 7»."""
    play = kb.registry.get("hunt-begins.play-strategy-cards")
    said = _refusal_words(call(play, {"hand": 5, "play": 3}))
    assert "jugar 3" in said and "máximo por turno es 2" in said and "0" not in said
    draw = call(kb.registry.get("hunt-begins.upkeep-draw"), {"hand": 7})
    assert isinstance(draw, Outcome) and draw.values["draws"] == 0
    line = " ".join(s.say("es", str) for s in draw.trace)
    assert "hasta tener 5" in line and "hasta 7" not in line


def test_scorching_inferno_says_which_reading_a_corner_takes(kb: KnowledgeBase) -> None:
    got = call(kb.registry.get("hunt-begins.scorching-inferno"),
               {"distance": 2, "models": 1, "rof": 1, "target": "corner", "line_of_sight": False, "alert_within": 3})
    assert isinstance(got, Outcome)
    for lang, word in (("es", "adyacente"), ("en", "adjacent")):
        assert any(word in s.say(lang, str) for s in got.trace), lang


def test_option_lists_read_in_lower_case(kb: KnowledgeBase) -> None:
    """C15: door-assist «alien / alien pequeño / mastín», the save «armadura / constitución»."""
    door = _shower(kb, "hunt-begins", "hunt-begins.door-assist")
    assert [door(v) for v in ("alien", "small-alien", "hound", "other")] == ["alien", "alien pequeño", "mastín", "otra miniatura"]
    attack = _shower(kb, "hunt-begins", "hunt-begins.attack")
    assert [attack(v) for v in ("armour", "constitution")] == ["armadura", "constitución"]
    assert _shower(kb, "hunt-begins", "hunt-begins.seal")("door") == "puerta"
