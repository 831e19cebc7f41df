"""What the bundled packs' calculators offer and answer (audit at the table, round 2): only values that can happen at
the table, no rule constant as a player's input, and no answer the seed does not give."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import CONTENT
from kb import KnowledgeBase
from kb.mechanics import Context, Outcome
from kb.mechanics.space import ABSENT, Refusal, call, space


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(CONTENT)


def _offered(kb: KnowledgeBase, entry: str, mechanic: str) -> dict[str, tuple[Any, ...]]:
    """The values each field of the entry's calculator for ``mechanic`` offers (its first example's, as the site
    builds it), items' "not added" left out."""
    ex = next(x for x in kb.entries[entry].examples if x.mechanic == mechanic)
    sp = space(kb.registry.get(mechanic), ex.given, 10**30, 10**30)
    return {f.name: tuple(v for v in f.values if v is not ABSENT and v is not None) for f in sp.fields}


@pytest.mark.parametrize("entry, mechanic, field, values", [
    ("battletech-solaris.skid-slide", "battletech-solaris.skid-slide", "hexes_moved", range(16)),
    ("battletech-solaris.masc", "battletech-solaris.masc-roll", "roll", range(2, 13)),  # 2D6
    ("battletech-solaris.masc-failure-progression", "battletech-solaris.masc-roll", "roll", range(2, 13)),
    ("battletech-solaris.swamp", "battletech-solaris.swamp-cost", "base_cost", range(1, 7)),  # a hex costs 1 MP or more
    ("starcraft-tmg.first-player-later-rounds", "starcraft-tmg.first-player", "round", range(1, 6)),  # §8.1: up to 5
    ("starcraft-tmg.first-player-later-rounds", "starcraft-tmg.first-player", "roll_off.ana", range(2, 13)),
    ("starcraft-tmg.first-player-round-one", "starcraft-tmg.first-player", "roll_off.bruno", range(2, 13)),
    # seed 002: initiative on 2D6 (the generic form offered 1 to 20, calculator audit C7)
    ("battletech-solaris.solaris-initiative", "battletech-solaris.initiative", "rolls[].kintaro", range(2, 13)),
    ("battletech-solaris.mp-by-mp-movement", "battletech-solaris.sub-turn-order", "rolls[].b", range(2, 13)),
])
def test_a_calculator_offers_only_what_can_happen(kb: KnowledgeBase, entry: str, mechanic: str, field: str,
                                                   values: range) -> None:
    assert _offered(kb, entry, mechanic)[field] == tuple(values)


def test_an_added_roll_off_row_starts_at_a_legal_roll(kb: KnowledgeBase) -> None:
    """«Añadir» shows the item at its field's lowest value: 2, never 1, on 2D6."""
    assert min(_offered(kb, "starcraft-tmg.first-player-later-rounds", "starcraft-tmg.first-player")["roll_off.bruno"]) == 2


def test_the_examples_that_show_an_impossible_value_still_hold(kb: KnowledgeBase) -> None:
    """kb check still takes the values the calculators no longer offer, for the examples that show their refusals."""
    wanted = {("battletech-solaris.skid-slide", "negative-distance"), ("battletech-solaris.masc", "impossible-roll"),
              ("starcraft-tmg.first-player-round-one", "impossible-roll"),
              ("starcraft-tmg.first-player-later-rounds", "no-round-nine")}
    results = {(r.entry.id, r.example.id): r for r in kb.run_examples()}
    assert all(results[k].passed and results[k].kind == "impossible" for k in wanted)


def test_dying_below_one_life_is_no_input_in_warlords(kb: KnowledgeBase) -> None:
    """Seed 003, Daño de combate: a troop below 1 Life dies. No Warlords calculator lets a player change that."""
    for e in kb.filter(game="warlords-of-terra"):
        for ex in e.examples:
            res = kb.registry.get(ex.mechanic)
            assert res is not None and "dies_below" not in res.inputs, (e.id, ex.id)
    given = {"attacker_attack": 4, "attacker_life": 4, "defender_attack": 3, "defender_life": 4}
    out = call(kb.registry.get("warlords-of-terra.damage-exchange"), given)
    assert isinstance(out, Outcome) and out.values["defender_dead"] is True and out.values["defender_life"] == 0
    out = call(kb.registry.get("warlords-of-terra.damage"), {"life": 2, "damage": 1})
    assert isinstance(out, Outcome) and out.values == {"life": 1, "dead": False}
    assert not isinstance(out, Refusal)


def test_regenerate_never_answers_past_the_card_life(kb: KnowledgeBase) -> None:
    """Seed 003, Anexo 4: «se cura X vidas al final de cada turno», no cap given nor denied. Over the whole calculator,
    a Life above the card's is never an answer: it is the text's silence («El texto no lo dice»)."""
    res = kb.registry.get("warlords-of-terra.regenerate")
    ex = kb.entries["warlords-of-terra.regenerate"].examples[0]
    sp = space(res, ex.given, 10**30, 10**30)
    above = 0
    for pos in sp.combinations():
        given = sp.given(pos)
        out = call(res, given)
        if isinstance(out, Outcome):
            assert out.values["life"] <= given["card_life"], given
        elif out.code == "above-card-life":
            assert out.kind == "unstated"
            above += 1
    assert above  # the space holds such cases: they are refused, not answered
    out = call(res, {"card_life": 4, "x": 5, "damage": 1, "turns": 3})  # the audit's «Vida 18»
    assert isinstance(out, Refusal) and out.kind == "unstated" and "(4)" in out.error.step.say("es", str)
    out = call(res, {"card_life": 4, "x": 2, "damage": 2})  # healed back to the card's Life: settled
    assert isinstance(out, Outcome) and out.values["life"] == 4


def test_a_card_for_a_model_moved_past_2_inches_says_to_take_it_away(kb: KnowledgeBase) -> None:
    """Seed 004, Disparar a un Combate: a card for the target and each model within 2". The audit moved the Terror Tot
    of the guide's example to 3" and read «La regla lo prohíbe: Hay que voltear exactamente una carta…»."""
    res = kb.registry.get("malifaux.random-target")
    ex = next(x for x in kb.entries["malifaux.shooting-into-combat"].examples if x.mechanic == res.name)
    sp = space(res, ex.given, 10**30, 10**30)
    offered = {f.name: f.values for f in sp.fields}
    assert 3 in offered["distances.terror-tot"] and "flips.terror-tot" in offered  # the form the audit used
    given = {**ex.given, "distances": {**ex.given["distances"], "terror-tot": 3}}
    out = call(res, given)
    assert isinstance(out, Refusal) and (out.code, out.kind) == ("no-card-due", "impossible")
    said = out.error.step.say("es", str)
    assert "terror-tot" in said and "quita su carta" in said and "prohíbe" not in said
    assert "take its card away" in out.error.step.say("en", str)
    given["flips"] = {k: v for k, v in given["flips"].items() if k != "terror-tot"}  # the card taken away: answered
    out = call(res, given)
    assert isinstance(out, Outcome) and out.values["target"] == "death-marshal"


def test_the_bridges_calculator_speaks_of_a_bridge(kb: KnowledgeBase) -> None:
    """BattleTech's bridges: the calculator offered «muere por debajo de» / "dies below" and a life (the generic
    damage resolver's words); a bridge has a CF and collapses when it reaches 0 (seed 002), in both languages."""
    for mechanic in {x.mechanic for x in kb.entries["battletech-solaris.bridges"].examples}:
        r = kb.registry.get(mechanic)
        labels = {lang: [r.label(w, lang).lower() for w in r.vocabulary()] for lang in ("es", "en")}
        assert not [t for t in labels["es"] if "muere" in t or "vida" in t], labels
        assert not [t for t in labels["en"] if "dies" in t or "life" in t], labels
        assert any("fc" in t for t in labels["es"]) and any("cf" in t for t in labels["en"]), labels
        assert any("derrumba" in t for t in labels["es"]) and any("collapses" in t for t in labels["en"]), labels
    over = call(kb.registry.get("battletech-solaris.bridge-damage"), {"cf": 40, "damage": 45})  # no CF below 0
    assert isinstance(over, Outcome) and over.values == {"cf_left": 0, "collapses": True}


def test_a_tie_for_the_lowest_card_is_settled_in_the_calculator(kb: KnowledgeBase) -> None:
    """Seed 004, Disparar a un Combate: on a tie for the lowest card the acting model chooses. The calculator said
    «Empate: falta elegir …» with its «elección» fixed, so the draw could not be finished there (phone audit 3, D19):
    the same form, the Terror Tot and the Death Marshal on 5 each, settles it for the model chosen."""
    res = kb.registry.get("malifaux.random-target")
    ex = next(x for x in kb.entries["malifaux.shooting-into-combat"].examples if x.mechanic == res.name)
    sp = space(res, ex.given, 10**30, 10**30)
    tie = {**sp.base, "flips": {"silurid": 8, "terror-tot": 5, "death-marshal": 5}}
    for chosen, target in ((None, None), ("death-marshal", "death-marshal"), ("terror-tot", "terror-tot")):
        at = sp.positions({**tie, "choice": chosen})
        assert at is not None, chosen  # a combination the form offers
        out = call(res, sp.given(at))
        assert isinstance(out, Outcome) and out.values["target"] == target
        assert sorted(out.values["tied"]) == ["death-marshal", "terror-tot"]
    out = call(res, sp.given(sp.positions({**tie, "choice": "silurid"})))
    assert isinstance(out, Refusal) and out.code == "not-tied"


def _form_given(kb: KnowledgeBase, entry: str, mechanic: str, **changes: Any) -> dict[str, Any]:
    """The given of the entry's first calculator for ``mechanic`` (as the site builds its form), ``changes`` typed in."""
    ex = next(x for x in kb.entries[entry].examples if x.mechanic == mechanic)
    return {**ex.given, **changes}


@pytest.mark.parametrize("changes", [{"movement": "push"}, {"movement": "other"}, {"leaves_range": False}])
def test_a_move_that_provokes_no_strike_is_answered_not_refused(kb: KnowledgeBase, changes: dict[str, Any]) -> None:
    """Seed 004, Destrabarse: only a Walk out of an engagement range provokes strikes; a push, another move or a Walk
    that stays in range is allowed with no strike. The calculator (its strikes still filled) said «La regla lo
    prohíbe: No hay golpes de destrabamiento…» (calculator audit, C11)."""
    res = kb.registry.get("malifaux.disengage")
    given = _form_given(kb, "malifaux.disengaging", res.name, **changes)
    assert given["strikes"]  # the form the audit used: a strike typed in
    out = call(res, given)
    assert isinstance(out, Outcome), out
    assert out.values["moves"] is True and out.values["may_strike"] == [] and out.values["disengaging"] is False


def test_a_shot_into_combat_with_nobody_within_2_goes_to_the_chosen_target(kb: KnowledgeBase) -> None:
    """Seed 004, Disparar a un Combate: with no model engaged with the target within 2", the attack is not random.
    The calculator, its cards still filled, said «La regla lo prohíbe: No se voltean cartas…» (calculator audit,
    C11): it answers «objetivo al azar: no» and the chosen target."""
    res = kb.registry.get("malifaux.random-target")
    ex = next(x for x in kb.entries["malifaux.shooting-into-combat"].examples if x.mechanic == res.name)
    far = {m: 2.5 for m in ex.given["distances"]}
    out = call(res, {**ex.given, "distances": far})
    assert isinstance(out, Outcome), out
    assert out.values["random"] is False and out.values["target"] == ex.given["target"]


def test_a_breach_roll_typed_for_going_under_damaged_does_not_count(kb: KnowledgeBase) -> None:
    """Seed 002, hull breach: going under already damaged needs no roll. The form keeps its roll box filled when the
    player switches the event; the answer is «hace falta tirada: no», not a «La regla lo prohíbe» refusal (C11's
    pattern in BattleTech)."""
    res = kb.registry.get("battletech-solaris.hull-breach")
    for armour in (False, True):
        out = call(res, {"event": "submerging-damaged", "roll": 11, "armour_destroyed": armour})
        assert isinstance(out, Outcome), out
        assert out.values["roll_needed"] is False and out.values["breached"] is armour


@pytest.mark.parametrize("entry", ["battletech-solaris.masc", "battletech-solaris.masc-failure-progression"])
def test_the_masc_calculator_takes_the_turns_rested(kb: KnowledgeBase, entry: str) -> None:
    """Seed 002, MASC: each turn without MASC lowers the roll one step. The form took only «turnos seguidos», so after
    three uses and a rest a player got the first use's 3+ (calculator audit, C6); it now takes the turns rested since,
    and answers 7+ (the reading named in the notes), 3+ after enough rests."""
    res = kb.registry.get("battletech-solaris.masc-roll")
    ex = next(x for x in kb.entries[entry].examples if x.mechanic == res.name)
    sp = space(res, ex.given, 10**30, 10**30)
    offered = {f.name: f.values for f in sp.fields}
    assert 1 in offered["rested"] and 3 in offered["in_a_row"]
    for rested, need in ((0, 11), (1, 7), (2, 5), (3, 3), (4, 3)):
        out = call(res, sp.given(sp.positions({**sp.base, "in_a_row": 3, "rested": rested})))
        assert isinstance(out, Outcome) and out.values["threshold"] == need, (rested, out)
    assert "sin MASC" in res.label("rested", "es") and "without MASC" in res.label("rested", "en")


def test_the_sub_turn_order_says_who_moves_first(kb: KnowledgeBase) -> None:
    """Seed 002, MP-by-MP movement: in the same sub-turn the initiative loser moves first. The answer read «orden =
    b y a · empieza la más alta = no» (calculator audit, C7); it now names the winner and who moves first, in words."""
    res = kb.registry.get("battletech-solaris.sub-turn-order")
    out = call(res, {"rolls": [{"a": 9, "b": 5}]})
    assert isinstance(out, Outcome) and out.values["winner"] == "a" and out.values["first"] == "b"
    assert "primero" in res.label("first", "es") and "first" in res.label("first", "en")
    said = " ".join(step.say("es", str) for step in out.trace)
    assert "mueve primero quien la pierde" in said
    for bad in ({"a": 17, "b": 5}, {"a": 1, "b": 5}):
        assert isinstance(call(res, {"rolls": [bad]}), Refusal)


@pytest.mark.parametrize("entry, mechanic, field", [
    ("malifaux.shooting-into-combat", "malifaux.random-target", "distances.death-marshal"),
    ("malifaux.engagement", "malifaux.engaged", "distance"),
    ("malifaux.elevation-in-combat", "malifaux.combat-distance", "distance"),
])
def test_malifaux_takes_a_measured_distance_in_tenths(kb: KnowledgeBase, entry: str, mechanic: str, field: str) -> None:
    """Seed 004: a card for each model within 2", engagement within the melee range. The forms took half inches only,
    so a measured 2,2" was refused right at the line the rule draws (calculator audit, C12)."""
    offered = _offered(kb, entry, mechanic)[field]
    assert {1.8, 2.1, 2.2} <= set(offered) and 0 in offered



@pytest.mark.parametrize("entry", ["warlords-of-terra.gathering-resources", "warlords-of-terra.draw-card",
                                   "warlords-of-terra.divert-to-hero-power"])
def test_the_resources_calculator_takes_what_the_places_built_yield(kb: KnowledgeBase, entry: str) -> None:
    """Seed 003, 3 – Recursos: the Banner's 1 gold and 1 mana, plus what the places built generate. The form had no
    box for the places, so every player past their first build read 1 and 1 (calculator audit, C9)."""
    res = kb.registry.get("warlords-of-terra.resources")
    ex = next(x for x in kb.entries[entry].examples if x.mechanic == res.name)
    sp = space(res, ex.given, 10**30, 10**30)
    assert {"places_gold", "places_mana"} <= {f.name for f in sp.fields}
    at = sp.positions({**sp.base, "turn": 3, "divert": 0, "places_gold": 2, "places_mana": 1})
    assert at is not None
    out = call(res, sp.given(at))
    assert isinstance(out, Outcome) and (out.values["gold"], out.values["mana"]) == (3, 2)


def test_the_build_calculator_takes_each_place_s_mana_cost(kb: KnowledgeBase) -> None:
    """Seed 003, 4 – Construcción: places cost gold and mana. The form had a gold box per place only, and its steps
    always read «(1 oro, 0 maná)» (calculator audit, C10)."""
    offered = _offered(kb, "warlords-of-terra.build-place", "warlords-of-terra.build")
    assert {"places.farm.gold", "places.farm.mana", "places.mine.mana"} <= set(offered)
    assert 1 in offered["places.mine.mana"]


def _said(out: Any, lang: str) -> str:
    return " ".join(step.say(lang, str) for step in out.trace)


def test_a_bridge_s_cf_never_reads_as_false_arithmetic(kb: KnowledgeBase) -> None:
    """FC 40, damage 55 read «FC: 40 − 55 = 0» (calculator audit, C8): the CF stops at 0, said so."""
    out = call(kb.registry.get("battletech-solaris.bridge-damage"), {"cf": 40, "damage": 55})
    assert isinstance(out, Outcome) and out.values["cf_left"] == 0
    assert "= 0" not in _said(out, "es") and "no baja de 0" in _said(out, "es")
    assert "= 0" not in _said(out, "en") and "below 0" in _said(out, "en")


def test_the_infantry_swamp_calculator_speaks_of_infantry_only(kb: KnowledgeBase) -> None:
    """Seed 002, Pantanos: infantry rolls a flat 2D6; «un BattleMech que falla esta tirada no se cae» is about 'Mechs.
    The infantry page printed the 'Mech aside and an odds table «según habilidad de pilotaje» (calculator audit, C8)."""
    mechanics = {x.mechanic for x in kb.entries["battletech-solaris.swamp-infantry"].examples} - {"dice.odds"}
    for mechanic in mechanics:
        res = kb.registry.get(mechanic)
        assert "piloting_skill" not in res.inputs and "unit" not in res.inputs
        for moment in ("entering", "escaping"):
            out = call(res, {"moment": moment, "roll": 4})
            assert isinstance(out, Outcome) and out.values["stuck"] is True
            assert "'Mech" not in _said(out, "es") and "'Mech" not in _said(out, "en")
    mech = call(kb.registry.get("battletech-solaris.swamp-check"),
                {"unit": "mech", "moment": "entering", "piloting_skill": 5, "roll": 4})
    assert isinstance(mech, Outcome) and "no se cae" in _said(mech, "es")


def test_the_sequence_calculators_offer_every_action_of_the_pack_and_no_other(kb: KnowledgeBase) -> None:
    """The actions an activation's calculator offers are the pack's declaration (audit C13): Hunt Begins' every action
    entry, StarCraft's every action the round's alternating phases allow; an entry added without it would be missing."""
    hunt = kb.registry.get("hunt-begins.activation").inputs["actions"]["items"]["enum"]
    assert sorted(hunt) == sorted(e.id for e in kb.entries.values() if e.game == "hunt-begins" and e.kind == "action")
    phase = kb.registry.get("starcraft-tmg.activation-phase")
    steps = kb.entries["starcraft-tmg.round-sequence"].data["sequence"]["steps"]
    allows = {a for s in steps for a in s.get("allows", [])}
    declared = set(phase.inputs["decisions"]["items"]["additionalProperties"]["enum"])
    assert declared == allows | {"pass"}


def test_the_attacker_chooses_whom_to_strike_among_the_threat_areas(kb: KnowledgeBase) -> None:
    """«objetivo» was «Arquero — fijo en este ejemplo» (audit C13): the attacker decides whom to hit, so the target is
    a list of the defenders, and striking the Spearman is answered."""
    assert _offered(kb, "warlords-of-terra.multiple-threat-areas", "warlords-of-terra.combat")["target"] == ("archer", "spearman")
    ex = next(x for x in kb.entries["warlords-of-terra.multiple-threat-areas"].examples if x.mechanic == "warlords-of-terra.combat")
    found = call(kb.registry.get("warlords-of-terra.combat"), {**dict(ex.given), "target": "spearman"})
    assert isinstance(found, Outcome) and found.values["struck"] == ["spearman"]


def test_a_players_order_of_simultaneous_effects_is_chosen_among_the_effects(kb: KnowledgeBase) -> None:
    """Malifaux's «orden del primer jugador» was fixed at the example's (audit C13): each place of each player's order
    is a list of the effects, added or removed; an order that misses one of the player's effects is a missing fact."""
    offered = _offered(kb, "malifaux.sequencing", "malifaux.simultaneous")
    ex = next(x for x in kb.entries["malifaux.sequencing"].examples if x.mechanic == "malifaux.simultaneous")
    assert offered["first_player_order[]"] == tuple(ex.given["effects"]) == offered["second_player_order[]"]
    res = kb.registry.get("malifaux.simultaneous")
    extra = {"context": Context(kb.entries["malifaux.sequencing"].data, kb.data)}
    mine = call(res, {**dict(ex.given), "first_player_order": ["ally-a-ability", "ally-b-ability"]}, extra)
    assert isinstance(mine, Outcome) and mine.values["order"][3:5] == ["ally-a-ability", "ally-b-ability"]
    half = call(res, {**dict(ex.given), "first_player_order": ["ally-a-ability"]}, extra)
    assert isinstance(half, Refusal) and half.kind == "incomplete"
