"""The Hunt Begins (Aliens vs Predator board game): the game's own resolvers.

Every check of the game is a D20 roll that succeeds on the target number or less. The numbers
the seed gives (two action points, -10 against engaged or hidden targets, -2 per contested square,
+4 for aiming, -4 and +1 RoF for rapid fire, 8 occupancy points in the worked example, D20 <= 10 to
treat wounds, at most two strategy cards a turn, five cards in hand...) are written here once.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any, Literal
from collections.abc import Mapping

from kb.mechanics import (Chance, Context, Outcome, RuleError, Trace, between, covers, entry_ids, items, keys_of, outcome,
                          resolver)
from kb.mechanics.checks import roll_under
from kb.mechanics.dice import chance, check_roll, parse

D20 = parse("1d20")
ACTION_POINTS = 2
ENGAGED_PENALTY = -10
HIDDEN_PENALTY = -10
CONTESTED_PENALTY = -2
AIM_BONUS = 4
RAPID_FIRE_PENALTY = -4
HAND_SIZE = 5
CARDS_PER_TURN = 2
TREAT_WOUNDS_TARGET = 10
CARRY_LIMIT = 2
KEEPS_HIDDEN = ("hunt-begins.stalking-advance", "hunt-begins.pass")
ENTERS_HIDDEN = ("hunt-begins.concealment", "hunt-begins.stalking-advance")
ENDS_ACTIVATION = ("hunt-begins.sentry", "hunt-begins.pass")
EXCLUSIVE = ("hunt-begins.shotgun", "hunt-begins.point-blank-shot")
ACTIONS = (
    "hunt-begins.move", "hunt-begins.run", "hunt-begins.shoot", "hunt-begins.close-combat", "hunt-begins.disengage",
    "hunt-begins.interact", "hunt-begins.sentry", "hunt-begins.pass",
    "hunt-begins.aim", "hunt-begins.rapid-fire", "hunt-begins.tactical-move", "hunt-begins.shotgun",
    "hunt-begins.point-blank-shot", "hunt-begins.grenade-launcher", "hunt-begins.scorching-inferno", "hunt-begins.seal-it",
    "hunt-begins.seal-the-doors", "hunt-begins.sentry-turret-installation", "hunt-begins.sentry-turret-pickup",
    "hunt-begins.acid-spit", "hunt-begins.concealment", "hunt-begins.stalking-advance", "hunt-begins.frenzy",
    "hunt-begins.force-doors", "hunt-begins.face-hugging", "hunt-begins.assist-force-doors",
    "hunt-begins.smart-disc-throw", "hunt-begins.treating-wounds",
)
"""Every action entry (``kind: action``): general, Marines', Aliens', Predators'. What an activation's calculator offers
for each action (tests/test_content_calculators.py checks it against the entries)."""
MOST_ACTIONS = 3
"""Actions an activation's calculator offers room for: two action points, and one more to see it refused."""
SENTRY_ACTIONS = ("move", "shoot", "close-combat", "pass")
"""What a model may do when it spends its sentry marker."""


def _d20(need: int) -> Fraction:
    fav, total = chance(D20, at_most=need)
    return Fraction(fav, total)


def _rolls(rolls: list[int]) -> None:
    for r in rolls:
        check_roll(D20, r)


# ---------------------------------------------------------------------------------------------
# Attacks: shooting and close combat


@resolver("hunt-begins.attack",
          ranges={"skill": between(1, 20),  # checks roll a D20 under the skill
                  "rof": covers(1, 4),  # no bound in the seed: 1 to 4 shots taken
                  "hit_rolls[]": between(1, 20),  # D20
                  "armour": between(1, 20),  # D20 under the armour
                  "armour_reduction": covers(0, 10),  # no bound in the seed: 0 to 10 taken
                  "save_rolls[]": between(1, 20),  # D20
                  "wounds": covers(1, 6),  # no bound in the seed: 1 to 6 wounds taken
                  "wounds_per_failed_save": covers(1, 3),  # the seed knows 1 and 2
                  "contested_squares": covers(0, 4),  # no bound in the seed: 0 to 4 taken
                  "modifiers.*": covers(-6, 6)},  # no bound in the seed: -6 to +6 taken
          outputs={
    "checks": "number of RC/CC checks made (one per RoF point)",
    "needs": "the number each check needs, or less, on the D20",
    "hits": "checks that hit (all of them for an automatic hit)",
    "save_target": "the armour (or constitution) check's number after the reduction",
    "wounds_caused": "wounds the target loses",
    "wounds_left": "wounds the target keeps",
    "removed": "whether the target is removed as a casualty",
})
def attack(skill: int, kind: Literal["shooting", "close-combat"] = "shooting", rof: int = 1,
           hit_rolls: list[int] = [], automatic: bool = False,
           armour: int | None = None, armour_reduction: int = 0,
           save: Literal["armour", "constitution"] = "armour", save_rolls: list[int] = [],
           wounds: int = 1, wounds_per_failed_save: int = 1,
           target_engaged: bool = False, contested_squares: int = 0, target_hidden: bool = False,
           aim: bool = False, rapid_fire: bool = False, modifiers: dict[str, int] = {}):
    """An attack: one D20 check per RoF point (hit on the skill or less), then a save per hit.

    The odds given are those of the first check causing a wound (hit and failed save), or of
    hitting when no save is described.
    """
    trace = Trace()
    if rof < 1:
        raise RuleError("bad-rof", "la VdA es al menos 1", "RoF is at least 1", kind="impossible")
    if contested_squares < 0:
        raise RuleError("bad-count", "el número de cuadrantes en disputa no puede ser negativo",
                        "the number of contested squares cannot be negative", kind="impossible")
    shooting_actions = {"aim": aim, "rapid_fire": rapid_fire}
    if kind == "close-combat" and any(shooting_actions.values()):
        used = [k for k, v in shooting_actions.items() if v]
        raise RuleError("not-for-close-combat", "{used}: solo se aplica a los disparos", "{used}: for shooting only",
                        used=used, kind="elsewhere")
    if target_hidden and (target_engaged or kind == "close-combat"):
        raise RuleError("hidden-and-engaged", "trabarse en combate revela a la miniatura oculta",
                        "being engaged reveals a hidden model", kind="impossible")
    if aim and rapid_fire:
        raise RuleError("one-shooting-action",
                        "Apuntar y Fuego rápido son dos acciones de disparo: solo cabe una por turno",
                        "Aim and Rapid fire are two shooting actions: only one is allowed a turn")
    checks = rof + (1 if rapid_fire else 0)
    trace.add("{checks} {checks:p:chequeo|chequeos} de {stat}", "{checks} {stat_en} {checks:p:check|checks}", checks=checks,
              stat="CD" if kind == "shooting" else "CC", stat_en="RC" if kind == "shooting" else "CC")
    need = skill
    if kind == "close-combat":
        _no_shooting_modifiers(trace, target_engaged, contested_squares)
        target_engaged, contested_squares = False, 0
    mods: list[tuple[str, str, int, dict[str, Any]]] = []
    if target_engaged:
        mods.append(("objetivo trabado", "target engaged", ENGAGED_PENALTY, {}))
    if target_hidden:
        mods.append(("objetivo oculto (sustituye a −4)", "hidden target (replaces −4)", HIDDEN_PENALTY, {}))
    if contested_squares:
        mods.append(("{c} {c:p:cuadrante|cuadrantes} en disputa", "{c} contested {c:p:square|squares}",
                     CONTESTED_PENALTY * contested_squares, {"c": contested_squares}))
    if rapid_fire:
        mods.append(("fuego rápido", "rapid fire", RAPID_FIRE_PENALTY, {}))
    for name, value in modifiers.items():
        mods.append(("{name}", "{name}", value, {"name": name}))
    for es, en, value, fields in mods:
        need += value
        trace.add(es + ": {value:+d} → {need}", en + ": {value:+d} → {need}", value=value, need=need, **fields)
    needs = [need] * checks
    if aim:
        needs[0] += AIM_BONUS
        trace.add("Apuntar: +4 al primer disparo → {first}", "Aim: +4 to the first shot → {first}", first=needs[0])
    if automatic:
        if hit_rolls:
            raise RuleError("automatic-hit-rolled", "un impacto automático no se tira",
                            "an automatic hit is not rolled", kind="impossible")
        hits = checks
        p_hit = Fraction(1)
        trace.add("Impacto automático: {hits} {hits:p:impacto|impactos}", "Automatic hit: {hits} {hits:p:hit|hits}", hits=hits)
    else:
        p_hit = _d20(needs[0])
        trace.add("Primer chequeo: {need} o menos en 1d20 ({p})", "First check: {need} or less on 1d20 ({p})",
                  need=needs[0], p=p_hit)
        if max(needs) < 1:  # the seed forbids no shot: the modifiers only leave it a number no D20 rolls
            trace.add("No puede impactar: necesita {need} o menos y un D20 saca al menos 1",
                      "It cannot hit: it needs {need} or less and a D20 rolls at least 1", need=max(needs))
        hits = None
        if hit_rolls:
            if len(hit_rolls) != checks:  # fewer: a roll still to type (the calculator's rows), not a rule's "no"
                raise RuleError("wrong-number-of-rolls",
                                "{c:p:se hace|se hacen} {c} {c:p:chequeo|chequeos}, no {r}: una tirada por chequeo",
                                "{c} {c:p:check is|checks are} made, not {r}: one roll per check", c=checks, r=len(hit_rolls),
                                kind="incomplete" if len(hit_rolls) < checks else "impossible")
            _rolls(hit_rolls)
            hits = sum(r <= n for r, n in zip(hit_rolls, needs))
            trace.add("Tiradas {rolls}: {hits} {hits:p:impacto|impactos}", "Rolls {rolls}: {hits} {hits:p:hit|hits}", rolls=hit_rolls, hits=hits)
    save_target = wounds_caused = wounds_left = removed = None
    odds = p_hit
    if armour is not None:
        save_target = armour - armour_reduction
        name_es, name_en = ("armadura", "armour") if save == "armour" else ("constitución", "constitution")
        trace.add("Chequeo de {n}: {a} − {r} = {t} o menos", "{n_en} check: {a} − {r} = {t} or less",
                  n=name_es, n_en=name_en.capitalize(), a=armour, r=armour_reduction, t=save_target)
        odds = p_hit * (1 - _d20(save_target))
        if hits is not None:
            wounds_caused, wounds_left, removed = _saves(trace, hits, save_rolls, save_target, wounds, wounds_per_failed_save)
    event = (Chance.of(odds, "herir con el primer chequeo (impacto y salvación fallada)",
                    "wounding with the first check (a hit and a failed save)") if armour is not None
             else Chance.of(odds, "impactar con el primer chequeo", "hitting with the first check"))
    return outcome(trace, event, checks=checks, needs=needs, hits=hits, save_target=save_target,
                   wounds_caused=wounds_caused, wounds_left=wounds_left, removed=removed)


def _no_shooting_modifiers(trace: Trace, target_engaged: bool, contested_squares: int) -> None:
    """Close combat: an engaged target and contested squares (always there in a melee) are shooting modifiers only."""
    if target_engaged:
        trace.add("Objetivo trabado: no modifica el combate cuerpo a cuerpo (el −10 solo se aplica a los disparos)",
                  "Target engaged: no effect on close combat (the −10 applies to shooting only)")
    if contested_squares:
        trace.add("{c} {c:p:cuadrante|cuadrantes} en disputa: no {c:p:modifica|modifican} el combate cuerpo a cuerpo (el −2 por cuadrante solo se aplica a los disparos)",
                  "{c} contested {c:p:square|squares}: no effect on close combat (the −2 per square applies to shooting only)",
                  c=contested_squares)


def _saves(trace: Trace, hits: int, save_rolls: list[int], save_target: int, wounds: int,
           per_failed: int) -> tuple[int, int, bool]:
    """The save rolls of ``hits`` hits: wounds caused, wounds left, removed. No hit, no save: any save rolls given
    (a calculator's field left from an example) are ignored, not refused."""
    if not hits:
        if save_rolls:
            trace.add("Sin impactos no hay chequeo de salvación; tiradas de salvación ignoradas: {rolls}",
                      "No hits, no save; save rolls ignored: {rolls}", rolls=save_rolls)
        return 0, wounds, False
    if not save_rolls:
        raise RuleError("no-save-rolls", "faltan las tiradas de salvación: una por impacto ({h})",
                        "the save rolls are missing: one for each hit ({h})", h=hits, kind="incomplete")
    if len(save_rolls) != hits:  # fewer: a save still to type, not a rule's "no"
        raise RuleError("wrong-number-of-saves",
                        "hay {h} {h:p:impacto|impactos} y {s} {s:p:tirada|tiradas} de salvación: tiene que haber una por impacto",
                        "there {h:p:is|are} {h} {h:p:hit|hits} and {s} save {s:p:roll|rolls}: there must be one for each hit",
                        h=hits, s=len(save_rolls), kind="incomplete" if len(save_rolls) < hits else "impossible")
    _rolls(save_rolls)
    failed = sum(r > save_target for r in save_rolls)
    caused = failed * per_failed
    left = max(0, wounds - caused)
    trace.add("Salvaciones {rolls}: {failed} {failed:p:fallada|falladas} → {w} {w:p:herida|heridas}",
              "Saves {rolls}: {failed} failed → {w} {w:p:wound|wounds}", rolls=save_rolls, failed=failed, w=caused)
    trace.add("Heridas: {wounds} − {w} = {left}{dead}", "Wounds: {wounds} − {w} = {left}{dead_en}",
              wounds=wounds, w=caused, left=left, dead=" (baja)" if left == 0 else "", dead_en=" (casualty)" if left == 0 else "")
    return caused, left, left == 0


# ---------------------------------------------------------------------------------------------
# Action points within one activation


def _action(context: Context, action_id: str) -> Mapping[str, Any]:
    data = context.lookup(action_id)
    if data is None or data.get("kind") != "action":
        raise RuleError("unknown-action", "{a} no es una acción", "{a} is not an action", a=action_id, kind="impossible")
    return data


@resolver("hunt-begins.activation", ranges={"actions": items(0, MOST_ACTIONS), "actions[]": entry_ids(*ACTIONS)}, outputs={
    "spent": "action points spent",
    "left": "action points left",
    "types": "the action type each action used",
    "hidden": "whether the model is still hidden at the end",
})
def activation(context: Context, actions: list[str], hidden: bool = False):
    """One model's activation: two action points, one action of each type, hidden state kept or lost.

    Costs and types are read from the action entries (``action.cost`` and ``action.categories``;
    an action whose type the seed does not give counts as a type of its own).
    """
    if not actions:
        raise RuleError("no-actions", "falta elegir las acciones de la activación", "the activation's actions are not chosen yet",
                        kind="incomplete")
    trace = Trace()
    left = ACTION_POINTS
    seen: dict[str, str] = {}
    types: list[str] = []
    ended_by: str | None = None
    for action_id in actions:
        data = _action(context, action_id)
        block = data.get("action", {})
        if ended_by:
            raise RuleError("activation-ended", "{a} termina la activación", "{a} ends the activation", a=ended_by)
        if block.get("passive"):  # the seed never defines "pasiva"; not chosen, it counts by itself (its costing no
            # points is the entries' reading: hunt-begins.passive-action's notes)
            raise RuleError("passive-action", "{a} es una acción pasiva: no se elige, se aplica sola",
                            "{a} is a passive action: it is not chosen, it applies by itself", a=action_id, kind="elsewhere")
        kinds = list(block.get("categories") or [action_id.split(".", 1)[1]])
        cost = int(block.get("cost", 1))
        for k in kinds:
            if k in seen:
                if not block.get("categories"):
                    # The seed gives this action no type (hunt-begins.action-points' notes): whether it may be
                    # taken twice in a turn is not settled, so it is not refused as the same type twice; a repeat
                    # the points cannot pay is refused below for the points.
                    if cost > left:
                        break
                    raise RuleError("type-not-stated", "la guía no da el tipo de {a}: no dice si puede repetirse en el turno",
                                    "the guide gives no type for {a}: it does not say whether it may be repeated in a turn",
                                    a=action_id, kind="unstated")
                raise RuleError("same-type-twice", "{a} y {b} son del mismo tipo ({k})",
                                "{a} and {b} are of the same type ({k})", a=action_id, b=seen[k], k=k)
            seen[k] = action_id
        if cost > left:
            raise RuleError("not-enough-points", "{a} cuesta {cost} y {left:p:queda|quedan} {left}", "{a} costs {cost} and {left} {left:p:is|are} left",
                            a=action_id, cost=cost, left=left)
        if all(a in actions[:actions.index(action_id) + 1] for a in EXCLUSIVE):
            raise RuleError("shotgun-and-point-blank", "¡Escopeta! y Disparo a quemarropa no se usan en el mismo turno",
                            "Shotgun! and Point-blank shot cannot be used in the same turn")
        left -= cost
        types.append("/".join(kinds))
        if action_id in ENTERS_HIDDEN:
            hidden = True
        elif action_id not in KEEPS_HIDDEN:
            hidden = False
        trace.add("{a}: {cost} {cost:p:punto|puntos}, tipo {k}; {left:p:queda|quedan} {left}", "{a}: {cost} {cost:p:point|points}, type {k}; {left} left",
                  a=action_id, cost=cost, k=kinds, left=left)
        if action_id in ENDS_ACTIVATION:
            ended_by = action_id
    trace.add("Oculta al final: {h}", "Hidden at the end: {h}", h=hidden)
    return outcome(trace, spent=ACTION_POINTS - left, left=left, types=types, hidden=hidden)


# ---------------------------------------------------------------------------------------------
# Turn sequence helpers


@resolver("hunt-begins.pass-initiative", outputs={"order": "initiative order after the handover"})
def pass_initiative(order: list[str], to: str):
    """The initiative winner hands it to an opponent; with three or more players they swap places."""
    if len(order) < 2:
        raise RuleError("no-opponent", "hace falta al menos un oponente", "at least one opponent is needed", kind="impossible")
    if to not in order:
        raise RuleError("not-a-player", "{p} no está en la partida", "{p} is not playing", p=to, kind="impossible")
    if to == order[0]:
        raise RuleError("same-player", "el ganador no puede cederse la iniciativa a sí mismo",
                        "the winner cannot hand the initiative to themselves")
    new = list(order)
    i = new.index(to)
    new[0], new[i] = new[i], new[0]
    trace = Trace()
    trace.add("{w} cede la iniciativa a {to}: intercambian sus puestos", "{w} hands the initiative to {to}: they swap places",
              w=order[0], to=to)
    trace.add("Orden: {o}", "Order: {o}", o=new)
    return outcome(trace, order=new)


@resolver("hunt-begins.first-activation", outputs={"allowed": "whether the chosen model may activate first"})
def first_activation(models: list[str], choice: str, last_activated: str | None = None):
    """A player's first activation of the turn: not the model they activated last in the previous turn, unless it is the only one left."""
    if choice not in models:
        raise RuleError("unknown-model", "{m} no está entre las miniaturas del jugador",
                        "{m} is not among the player's models", m=choice, kind="impossible")
    trace = Trace()
    others = [m for m in models if m != last_activated]
    if choice == last_activated and others:
        raise RuleError("last-model-first", "{c} fue la última en activarse y hay otras: {o}",
                        "{c} was activated last and there are others: {o}", c=choice, o=others)
    trace.add("{c} puede activarse primero", "{c} may activate first", c=choice)
    return outcome(trace, allowed=True)


@resolver("hunt-begins.upkeep-draw",
          ranges={"hand": covers(0, 8)},  # no bound in the seed: 0 to 8 cards taken
          outputs={"draws": "strategy cards drawn", "hand": "cards in hand afterwards"})
def upkeep_draw(hand: int):
    """Upkeep: each player draws strategy cards until holding five."""
    if hand < 0:
        raise RuleError("bad-count", "la mano no puede ser negativa", "a hand cannot be negative", kind="impossible")
    draws = max(0, HAND_SIZE - hand)
    trace = Trace()
    if draws:
        trace.add("Mano {h}: roba {d} hasta tener {n}", "Hand {h}: draws {d} to hold {n}", h=hand, d=draws, n=HAND_SIZE)
    else:
        trace.add("Mano {h}: ya tiene {n} o más, no roba (se roba hasta tener {n}; la guía no dice qué pasa con más)",
                  "Hand {h}: it already holds {n} or more and draws none (players draw up to {n}; the guide does not say what happens with more)",
                  h=hand, n=HAND_SIZE)
    return outcome(trace, draws=draws, hand=max(hand, HAND_SIZE))


def _over_the_limit(play: int, before: int) -> None:
    """Refuse ``play`` cards when ``before`` were already played this turn: the real reason, the limit of 2."""
    if before:
        raise RuleError("two-per-turn",
                        "no se pueden jugar {p} más: ya {b:p:se ha jugado|se han jugado} {b} y el máximo por turno es {m}",
                        "{p} more cannot be played: {b} already played and the limit is {m} a turn",
                        p=play, b=before, m=CARDS_PER_TURN)
    raise RuleError("two-per-turn", "no se pueden jugar {p}: el máximo por turno es {m}",
                    "{p} cannot be played: the limit is {m} a turn", p=play, m=CARDS_PER_TURN)


@resolver("hunt-begins.play-strategy-cards",
          ranges={"hand": covers(0, 8),  # no bound in the seed: 0 to 8 cards taken
                  "play": covers(0, 4),
                  "played_this_turn": covers(0, 4)},
          outputs={"played": "cards played this turn afterwards",
                                                      "remaining": "cards that may still be played this turn",
                                                      "hand": "cards left in hand"})
def play_strategy_cards(hand: int, play: int, played_this_turn: int = 0):
    """Strategy cards are played in the activation phase, at most two a turn."""
    # Playing no card is allowed: the seed says cards "may" be used, up to two a turn.
    if play < 0:
        raise RuleError("bad-count", "no se juega un número negativo de cartas", "a negative number of cards is not played",
                        kind="impossible")
    if play > hand:
        raise RuleError("not-enough-cards", "no hay bastantes cartas en la mano (hay {h})",
                        "there are not enough cards in hand ({h})", h=hand, kind="impossible")
    total = played_this_turn + play
    if total > CARDS_PER_TURN:
        _over_the_limit(play, played_this_turn)
    trace = Trace()
    trace.add("Jugadas este turno: {t} de 2", "Played this turn: {t} of 2", t=total)
    return outcome(trace, played=total, remaining=CARDS_PER_TURN - total, hand=hand - play)


# ---------------------------------------------------------------------------------------------
# Squares: contested squares and engaging by displacement


@resolver("hunt-begins.square-contested", outputs={
    "contested": "whether the square counts as contested",
    "reasons": "the conditions that make it contested",
    "melee_into_full_square": "whether models here may make close-combat attacks into an adjacent full one-faction square",
})
def square_contested(factions_here: list[str], adjacent_full: list[list[str]] = [], baseless_nearby: bool = False):
    """Whether a square is contested: two factions in it, a full two-faction square next to it, or a baseless model in it or next to it."""
    trace = Trace()
    reasons: list[str] = []
    if len(set(factions_here)) >= 2:
        reasons.append("two-factions")
        trace.add("Hay miniaturas de dos facciones en el cuadrante", "Models of two factions share the square")
    if any(len(set(f)) >= 2 for f in adjacent_full):
        reasons.append("full-mixed-neighbour")
        trace.add("Un cuadrante adyacente está totalmente ocupado por dos facciones",
                  "An adjacent square is fully occupied by two factions")
    if baseless_nearby:
        reasons.append("baseless-model")
        trace.add("Una miniatura sin peana está aquí o al lado", "A baseless model is here or next to it")
    here = set(factions_here)
    melee = any(len(set(f)) == 1 and here - set(f) for f in adjacent_full)
    if melee:
        trace.add("Cuadrante adyacente lleno de una sola facción: cuenta como trabado para el cuerpo a cuerpo",
                  "Adjacent square full of one faction: it counts as engaged for close combat")
    trace.add("En disputa: {c}", "Contested: {c}", c=bool(reasons))
    return outcome(trace, contested=bool(reasons), reasons=reasons, melee_into_full_square=melee)


def _valid_choice(chosen: tuple[str, ...], owners: Mapping[str, str], own: set[str],
                  occupants: Mapping[str, int]) -> str | None:
    """None when some order of choosing could displace exactly ``chosen``, else the error code.

    Order-independent: the mover's own models all go first (when any other model goes), then one other
    player at a time, each until none is left, except the last player chosen, who may keep some. So at
    most one other player may have models left in the square; which one does not depend on how the
    models happen to be listed.
    """
    picked = set(chosen)
    others = [m for m in chosen if m not in own]
    if others and not own <= picked:
        return "own-models-first"
    players = {owners[m] for m in others}
    partial = [p for p in players if not {m for m in occupants if owners[m] == p} <= picked]
    if len(partial) > 1:
        return "one-player-at-a-time"
    return None


Side = Literal["marines", "aliens", "predators"]
"""The game's three factions: the displacement calculator takes one player per faction."""
SHOWN_OPTIONS = 6
"""Most legal displacements a calculator's answer lists."""


def _legal_sets(occupants: Mapping[str, int], owners: Mapping[str, str], own: set[str], excess: int
                ) -> list[tuple[str, ...]]:
    """Every set of models whose displacement leaves the square exactly full in the seed's order, fewest models first."""
    if len(occupants) > 16:
        raise RuleError("too-many-models", "demasiadas miniaturas para una casilla", "too many models for one square",
                        kind="impossible")
    return [c for n in range(1, len(occupants) + 1) for c in combinations(occupants, n)
            if sum(occupants[m] for m in c) == excess and _valid_choice(c, owners, own, occupants) is None]


def _chosen_set(choice: str, legal: list[tuple[str, ...]], occupants: Mapping[str, int], trace: Trace) -> list[str]:
    """The first legal displacement that takes ``choice`` out (the player's pick among the occupants)."""
    if choice not in occupants:
        raise RuleError("not-in-square", "{m} no está en la casilla", "{m} is not in the square", m=choice,
                        kind="impossible")
    found = next((list(c) for c in legal if choice in c), None)
    if found is None:
        raise RuleError("no-fill-with-choice",
                        "sacar a {m} no deja la casilla justo llena siguiendo el orden (primero las propias, luego un jugador hasta agotarlo)",
                        "taking {m} out does not leave the square exactly full in the rule's order (own models first, then one player until none is left)",
                        m=choice)
    if len(found) > 1:
        trace.add("Se elige sacar a {m}: la primera forma válida que lo incluye es {d}",
                  "{m} is chosen to leave: the first legal way that includes it is {d}", m=choice, d=found)
    return found


def _list_options(legal: list[tuple[str, ...]], trace: Trace) -> None:
    for c in legal[:SHOWN_OPTIONS]:
        trace.add("Vale desplazar {d}", "Displacing {d} is legal", d=list(c))
    if len(legal) > SHOWN_OPTIONS:
        trace.add("… y {n} formas más", "… and {n} more ways", n=len(legal) - SHOWN_OPTIONS)


def _fits(capacity: int, before: int, mover_points: int, owners: Mapping[str, str], mover_owner: str,
          displaced: list[str], choice: str | None, trace: Trace) -> Outcome:
    """The model fits without displacing anyone."""
    if displaced or choice is not None:
        raise RuleError("no-displacement-needed", "la miniatura cabe sin desplazar a nadie",
                        "the model fits without displacing anyone")
    after = before + mover_points
    trace.add("Cabe sin desplazar: {a} de {c}", "Fits without displacing: {a} of {c}", a=after, c=capacity)
    factions = set(owners.values()) | {mover_owner}
    full = after == capacity
    return outcome(trace, before=before, needed=False, after=after, full=full, displaced=None,
                   neighbours_contested=full and len(factions) >= 2, possible=True, attacks_as_if_engaged=False)


def _check_displaced(displaced: list[str], owners: Mapping[str, str], own: set[str],
                     occupants: Mapping[str, int]) -> None:
    for m in displaced:
        if m not in occupants:
            raise RuleError("not-in-square", "{m} no está en la casilla", "{m} is not in the square", m=m, kind="impossible")
    problem = _valid_choice(tuple(displaced), owners, own, occupants)
    if problem == "own-models-first":
        raise RuleError(problem, "el jugador desplaza primero sus propias miniaturas",
                        "the player displaces their own models first")
    if problem:
        raise RuleError(problem, "se sigue con las miniaturas del mismo jugador hasta agotarlas",
                        "the same player's models are displaced until none is left")


@resolver("hunt-begins.displacement",
          ranges={"capacity": between(1, 8),  # the seed: a square holds 8 occupancy points
                  "occupants.*": covers(1, 3),  # no bound in the seed: its example uses 1 and 2 points; 1 to 3 taken
                  "mover_points": covers(0, 6),  # no bound in the seed: 0 to 6 taken
                  "choice": keys_of("occupants")},  # one of the models in the square
          labels={"choice": ("quiere desplazar a", "wants to displace")},
          outputs={
    "before": "occupancy points in the square before the move",
    "needed": "whether models must be displaced",
    "displaced": "the models taken out of the square",
    "after": "occupancy points once the mover is in and the displaced are out",
    "full": "whether the square ends fully occupied",
    "neighbours_contested": "whether the adjacent squares become contested",
    "possible": "whether some legal displacement fills the square exactly",
    "attacks_as_if_engaged": "no displacement can fill the square: the mover attacks as if engaged, without being engaged",
})
def displacement(capacity: int, occupants: dict[str, int], owners: dict[str, Side], mover_points: int,
                 mover_owner: Side, mover_base: Literal["small", "medium", "large"] = "medium",
                 displaced: list[str] = [], choice: str | None = None):
    """Engaging by displacement: a medium or larger model enters a square with a free point but no room, and pushes models out until the square is exactly full."""
    trace = Trace()
    missing = [m for m in occupants if m not in owners]
    if missing:
        raise RuleError("unknown-owner", "falta el dueño de {m}", "the owner of {m} is missing", m=missing,
                        kind="incomplete")
    before = sum(occupants.values())
    free = capacity - before
    trace.add("Ocupación {b} de {c}: {f} {f:p:libre|libres}; la miniatura necesita {m}", "Occupancy {b} of {c}: {f} free; the model needs {m}",
              b=before, c=capacity, f=free, m=mover_points)
    if free < 1:
        raise RuleError("no-free-point", "hace falta al menos un punto de ocupación libre",
                        "at least one free occupancy point is needed")
    # The base size only limits displacing: a small-based model that fits simply moves in (answered below).
    if mover_base == "small" and mover_points > free:
        raise RuleError("base-too-small", "solo una miniatura de peana mediana o mayor se traba desplazando",
                        "only a model with a medium or larger base engages by displacement")
    if mover_points <= free:
        return _fits(capacity, before, mover_points, owners, mover_owner, displaced, choice, trace)
    excess = before + mover_points - capacity
    own = {m for m, o in owners.items() if o == mover_owner and m in occupants}
    legal = _legal_sets(occupants, owners, own, excess)
    possible = bool(legal)
    trace.add("{e:p:Sobra|Sobran} {e} {e:p:punto|puntos}; ¿se puede llenar exactamente? {p}", "{e} {e:p:point|points} too many; can it be filled exactly? {p}",
              e=excess, p=possible)
    if not displaced and choice is not None and possible:
        displaced = _chosen_set(choice, legal, occupants, trace)
    if not displaced:
        if not possible:
            trace.add("Ningún desplazamiento llena la casilla: ataca como si estuviera trabada, sin estarlo",
                      "No displacement fills the square: it attacks as if engaged, without being engaged")
        _list_options(legal, trace)
        return outcome(trace, before=before, needed=True, displaced=None, after=None, full=False,
                       neighbours_contested=False, possible=possible, attacks_as_if_engaged=not possible)
    _check_displaced(displaced, owners, own, occupants)
    after = before + mover_points - sum(occupants[m] for m in displaced)
    trace.add("Desplazadas {d}: {b} + {m} − {out} = {a}", "Displaced {d}: {b} + {m} − {out} = {a}", d=displaced,
              b=before, m=mover_points, out=sum(occupants[m] for m in displaced), a=after)
    if after > capacity:
        raise RuleError("still-over", "{a} supera el límite de {c}", "{a} exceeds the limit of {c}", a=after, c=capacity)
    if after < capacity:
        raise RuleError("not-full", "la casilla quedaría con {a} de {c}: no está totalmente ocupada",
                        "the square would hold {a} of {c}: it is not fully occupied", a=after, c=capacity)
    stay = [m for m in occupants if m not in displaced]
    factions = {owners[m] for m in stay} | {mover_owner}
    contested = len(factions) >= 2
    trace.add("Totalmente ocupada; adyacentes en disputa: {c}", "Fully occupied; adjacent squares contested: {c}", c=contested)
    return outcome(trace, before=before, needed=True, displaced=displaced, after=after, full=True,
                   neighbours_contested=contested, possible=True, attacks_as_if_engaged=False)


# ---------------------------------------------------------------------------------------------
# Movement and objective markers


@resolver("hunt-begins.movement",
          ranges={"m": covers(0, 8),  # no bound in the seed: 0 to 8 squares taken
                  "modifiers.*": covers(-4, 4),  # no bound in the seed: -4 to +4 taken
                  "moved_this_activation": covers(0, 16)},
          outputs={"squares": "squares the model may move"})
def movement(m: int, action: Literal["move", "run", "tactical-move"] = "move", carrying: bool = False,
             modifiers: dict[str, int] = {}, moved_this_activation: int = 0):
    """Squares a move covers: M for Move, M + 1 for Run, one for Tactical move; at most two an activation while carrying an objective marker."""
    trace = Trace()
    # Run: the seed only says "+1 cuadrante"; read as one square more than M (see hunt-begins.run).
    base = {"move": m, "run": m + 1, "tactical-move": 1}[action]
    trace.add("{a}: {b} {b:p:cuadrante|cuadrantes}", "{a}: {b} {b:p:square|squares}", a=action, b=base)
    for name, value in modifiers.items():
        base += value
        trace.add("{n}: {v:+d} → {b}", "{n}: {v:+d} → {b}", n=name, v=value, b=base)
    squares = max(0, base)
    if carrying:
        cap = max(0, CARRY_LIMIT - moved_this_activation)
        if squares > cap:
            trace.add("Lleva un marcador de objetivo: máximo 2 por activación, sin modificar → {c}",
                      "Carrying an objective marker: at most 2 an activation, unmodifiable → {c}", c=cap)
        squares = min(squares, cap)
    return outcome(trace, squares=squares)


@resolver("hunt-begins.disengage",
          ranges={"cc": between(1, 20),  # D20 under the close-combat skill
                  "roll": between(1, 20),
                  "modifiers.*": covers(-6, 6)},  # no bound in the seed: -6 to +6 taken
          outputs={
    "target": "the CC the D20 must not exceed",
    "moves": "whether the model steps into an adjacent square with no enemies (absent without a roll)",
    "points_spent": "action points the attempt costs, whether it works or not",
})
def disengage(cc: int, roll: int | None = None, engaged: bool = True, modifiers: dict[str, int] = {}):
    """Disengaging: an engaged model makes a CC check; on a pass it moves to an adjacent square with no
    enemies, on a fail it stays where it is and the action point is lost. The stated probability is
    the chance of getting away."""
    if not engaged:
        raise RuleError("not-engaged", "solo se destraba una miniatura trabada", "only an engaged model disengages")
    trace = Trace()
    need, success, odds = roll_under(trace, "1d20", cc, roll, modifiers)
    if success is True:
        trace.add("Supera el chequeo: pasa a un cuadrante adyacente sin enemigos",
                  "It passes: it moves into an adjacent square with no enemies")
    elif success is False:
        trace.add("Falla el chequeo: se queda en su cuadrante y pierde el punto de acción",
                  "It fails: it stays in its square and the action point is lost")
    event = Chance.of(odds, "destrabarse", "getting away", output="moves", roll="roll", dice="1d20")
    return outcome(trace, event, target=need, moves=success, points_spent=1)


@resolver("hunt-begins.objective-marker", outputs={
    "carrier": "who carries the marker at the end (absent when it lies loose)",
    "pick_ups": "how many times it was picked up this turn",
})
def objective_marker(actions: list[dict[str, str]], carrier: str | None = None):
    """One objective marker through one game turn: each ``actions`` item is an interact action on it,
    ``{model: ..., action: pick-up | drop}``, in the order they happen; ``carrier`` holds it when the
    turn starts. A marker may be picked up only once a turn; dropping it costs an interact action."""
    trace = Trace()
    picks = 0
    for n, step in enumerate(actions, 1):
        model, action = step.get("model"), step.get("action")
        if not model or action not in ("pick-up", "drop") or set(step) - {"model", "action"}:
            raise RuleError("bad-action", "la acción {n} debe decir qué miniatura recoge o suelta el marcador",
                            "action {n} must say which model picks up or drops the marker", n=n, kind="incomplete")
        if action == "drop":
            if carrier != model:
                raise RuleError("not-carrying", "{m} no lleva el marcador", "{m} is not carrying the marker", m=model,
                                kind="impossible")
            carrier = None
            trace.add("{m} suelta el marcador en su cuadrante (acción de interactuar)",
                      "{m} drops the marker in its square (an interact action)", m=model)
            continue
        if carrier is not None:
            if carrier == model:
                raise RuleError("already-carried", "{m} ya lleva el marcador", "{m} already carries the marker", m=carrier,
                                kind="impossible")
            if picks:  # picked up already this turn: the seed's once-a-turn limit settles it
                raise RuleError("once-a-turn", "cada marcador solo se puede recoger una vez por turno",
                                "each marker may be picked up only once a turn")
            # The seed only describes picking up a marker lying in the square (or left loose by a removed
            # carrier); it does not say whether a model may take it from another model that carries it.
            raise RuleError("taken-from-carrier", "{m} lleva el marcador: la guía no dice si otra miniatura puede quitárselo",
                            "{m} carries the marker: the guide does not say whether another model may take it", m=carrier,
                            kind="unstated")
        if picks:
            raise RuleError("once-a-turn", "cada marcador solo se puede recoger una vez por turno",
                            "each marker may be picked up only once a turn")
        picks += 1
        carrier = model
        trace.add("{m} recoge el marcador (acción de interactuar): ya no moverá más de 2 cuadrantes por activación",
                  "{m} picks the marker up (an interact action): it moves no more than 2 squares an activation", m=model)
    return outcome(trace, carrier=carrier, pick_ups=picks)


@resolver("hunt-begins.sentry-interrupt",
          ranges={"after": covers(0, 4)},  # no bound in the seed: after 0 to 4 actions taken
          labels={"model": ("miniatura que se activa", "active model"),
                  "actions": ("sus acciones", "its actions"),
                  "after": ("reaccionan tras la acción", "sentries react after action"),
                  "sentries": ("centinelas y lo que hacen", "sentries and what they do"),
                  "owners": ("jugador de cada centinela", "each sentry's player"),
                  "order": ("quién actúa, por orden", "who acts, in order"),
                  "resumes": ("acciones que le quedan", "actions it has left")},
          outputs={
    "order": "who acts, in order: the active model, the sentries one by one, the active model again",
    "sentry_actions": "the action each sentry takes, in the order they act",
    "resumes": "the actions the interrupted model still takes afterwards",
})
def sentry_interrupt(model: str, actions: list[str], after: int, sentries: dict[str, str], owners: dict[str, str],
                     initiative: list[str]):
    """Sentry markers spent right after another model completes an action.

    ``model`` is activating with ``actions``; the sentries answer after its ``after``-th action.
    ``sentries`` maps each model spending its marker to the action it takes (move, shoot, close-combat
    or pass); ``owners`` gives each sentry's player; with several players, they spend one marker at a
    time in ``initiative`` order. Then the interrupted model goes on with its activation.
    """
    if after > len(actions):
        raise RuleError("no-such-action", "la miniatura no hace {n} acciones", "the model does not take {n} actions",
                        n=after, kind="impossible")
    if after < 1:
        raise RuleError("no-completed-action", "los centinelas responden cuando otra miniatura completa una de sus acciones",
                        "sentries react when another model finishes one of its actions")
    for s, act in sentries.items():
        if act not in SENTRY_ACTIONS:
            raise RuleError("not-a-sentry-action", "{model}: con un marcador de centinela solo se mueve, dispara, combate o "
                            "pasa, no {action}", "{model}: a sentry marker only allows move, shoot, close combat or pass, "
                            "not {action}", model=s, action=f"hunt-begins.{act}")
        if owners.get(s) not in initiative:
            raise RuleError("unknown-owner", "falta el jugador de {m} en la iniciativa", "{m}'s player is missing from the initiative", m=s,
                            kind="incomplete")
    if model in sentries:
        raise RuleError("own-sentry", "{m} no responde a su propia acción", "{m} cannot react to its own action", m=model)
    trace = Trace()
    trace.add("{m} completa: {a}", "{m} has taken {a}: sentries may react now", m=model, a=actions[:after])
    queues = {p: [s for s in sentries if owners[s] == p] for p in initiative}
    order_sentries: list[str] = []
    while any(queues.values()):
        for p in initiative:
            if queues[p]:
                s = queues[p].pop(0)
                order_sentries.append(s)
                trace.add("{p} gasta el marcador de {s}, que hace {a}; el marcador se retira",
                          "the {p} player spends {s}'s sentry marker (it is removed): {s} takes a {a} action", p=p, s=s, a=sentries[s])
    rest = actions[after:]
    trace.add("{m} sigue su activación: {r:none:nada más}", "back to {m}, which finishes its activation: {r:none:no actions left}", m=model, r=rest)
    order = [model] + order_sentries + ([model] if rest else [])
    return outcome(trace, order=order, sentry_actions=[sentries[s] for s in order_sentries], resumes=rest)


# ---------------------------------------------------------------------------------------------
# Faction actions


@resolver("hunt-begins.door-assist", outputs={"bonus": "+1 per assisting friendly model", "assistants": "models counted"})
def door_assist(forcer: Literal["alien", "hound"], adjacent: list[Literal["alien", "small-alien", "hound", "other"]]):
    """Assisting to force doors: +1 to the check for each friendly model adjacent to the door (aliens without the small rule; hounds count only hounds)."""
    trace = Trace()
    counted = [a for a in adjacent if a == forcer]
    skipped = len(adjacent) - len(counted)
    trace.add("{n} {n:p:asistente|asistentes} {n:p:cuenta|cuentan}, {s} no", "{n} {n:p:assistant|assistants} {n:p:counts|count}, {s} do not", n=len(counted), s=skipped)
    return outcome(trace, bonus=len(counted), assistants=len(counted))


@resolver("hunt-begins.treat-wounds",
          ranges={"wounds_lost": covers(0, 6),  # no bound in the seed: 0 to 6 taken
                  "roll": between(1, 20)},  # D20
          outputs={"target": "the number to roll or less", "success": "a wound is recovered",
                                               "wounds_lost": "wounds still lost afterwards"})
def treat_wounds(wounds_lost: int, roll: int | None = None, healed_before: bool = False, contested: bool = False):
    """Treating wounds: D20 <= 10 recovers one wound, once a game, never in a contested square."""
    if healed_before:
        raise RuleError("once-per-game", "solo se recupera una herida por partida", "only one wound is recovered a game")
    if contested:
        raise RuleError("contested-square", "no se puede en un cuadrante en disputa", "not allowed in a contested square")
    if wounds_lost < 1:
        # The seed does not say whether the action may be taken (or uses up the game's wound) with no wound lost.
        raise RuleError("no-wound-lost", "no hay herida que recuperar: la guía no dice qué pasa entonces",
                        "there is no lost wound to recover: the guide does not say what happens then", kind="unstated")
    if roll is not None:
        check_roll(D20, roll)
    trace = Trace()
    p = _d20(TREAT_WOUNDS_TARGET)
    trace.add("D20 ≤ 10 ({p})", "D20 ≤ 10 ({p})", p=p)
    success = None if roll is None else roll <= TREAT_WOUNDS_TARGET
    left = wounds_lost - 1 if success else wounds_lost
    if roll is not None:
        trace.add("Sale {r}: {ok}", "Rolls {r}: {ok_en}", r=roll, ok="recupera una herida" if success else "nada",
                  ok_en="recovers a wound" if success else "nothing")
    event = Chance.of(p, "recuperar una herida", "recovering a wound", output="success", roll="roll", dice="1d20")
    return outcome(trace, event, target=TREAT_WOUNDS_TARGET, success=success, wounds_lost=left)


@resolver("hunt-begins.seal",
          ranges={"done_before": covers(0, 6),  # no bound in the seed: 0 to 6 taken
                  "close_combat": between(1, 20),  # D20 under the skill
                  "roll": between(1, 20)},  # D20
          outputs={"allowed": "the action may be taken", "success": "the door is placed (doors only)",
                                       "left": "vents or doors that may still be sealed or created this game"})
def seal(what: Literal["vent", "door"], done_before: int = 0, contested: bool = False, close_combat: int | None = None,
         roll: int | None = None):
    """Seal it! (up to four vents a game) and Seal the doors (a CC check; up to three doors a game); never from a contested square."""
    limit = 4 if what == "vent" else 3
    if contested:
        raise RuleError("contested-square", "no se puede desde un cuadrante en disputa", "not allowed from a contested square")
    if done_before >= limit:
        code = "vent-limit" if what == "vent" else "door-limit"
        raise RuleError(code, "ya se ha llegado al máximo de {n} por partida", "the limit of {n} a game is reached", n=limit)
    trace = Trace()
    trace.add("{d} de {l} usados", "{d} of {l} used", d=done_before, l=limit)
    if what == "vent":
        return outcome(trace, allowed=True, success=None, left=limit - done_before - 1)
    if close_combat is None:
        raise RuleError("needs-cc", "Sellar las compuertas exige un chequeo de CC: falta la CC",
                        "Seal the doors needs a CC check: the CC is missing", kind="incomplete")
    p = _d20(close_combat)
    success = None
    if roll is not None:
        check_roll(D20, roll)
        success = roll <= close_combat
    trace.add("Chequeo de CC: {cc} o menos ({p})", "CC check: {cc} or less ({p})", cc=close_combat, p=p)
    event = Chance.of(p, "sellar la compuerta", "sealing the door", output="success", roll="roll", dice="1d20")
    return outcome(trace, event, allowed=True, success=success, left=limit - done_before - (1 if success else 0))


def _up_to_two(distance: int) -> None:
    """A target square "at most two squares away" (Shotgun!, Scorching inferno, Smart-disc throw).

    Beyond two is refused as the seed's limit. The model's own square (distance 0) is within "at most
    two" by the letter, but the seed never says whether it may be the target: refused as unstated.
    """
    if distance < 0:
        raise RuleError("bad-count", "la distancia no puede ser negativa", "a distance cannot be negative", kind="impossible")
    if distance == 0:
        raise RuleError("own-square", "la guía no dice si el cuadrante de la propia miniatura puede ser el objetivo",
                        "the guide does not say whether the model's own square may be the target", kind="unstated")
    if distance > 2:
        raise RuleError("out-of-range", "el objetivo debe estar a 2 cuadrantes o menos", "the target must be 2 squares away or less")


@resolver("hunt-begins.shotgun",
          ranges={"distance": covers(0, 6),  # no bound in the seed: 0 to 6 squares taken
                  "enemies_target": between(0, 8),  # a square holds 8 occupancy points
                  "enemies_between": between(0, 8)},
          outputs={"checks": "RC checks made", "strength": "strength of each hit"})
def shotgun(distance: int, enemies_target: int, enemies_between: int = 0, line_of_sight: bool = True,
            used_point_blank: bool = False):
    """Shotgun!: a square in line of sight up to two away; one RC check for up to four enemies there and up to four in the square between; each hit is S8."""
    if used_point_blank:
        raise RuleError("shotgun-and-point-blank", "ya se usó Disparo a quemarropa este turno",
                        "Point-blank shot was already used this turn")
    _up_to_two(distance)
    if not line_of_sight:
        raise RuleError("no-line-of-sight", "hace falta línea de visión", "line of sight is needed")
    if distance == 1 and enemies_between:
        raise RuleError("no-square-between", "a un cuadrante no hay cuadrante intermedio", "one square away there is no square between",
                        kind="impossible")
    a, b = min(4, enemies_target), min(4, enemies_between)
    trace = Trace()
    trace.add("Objetivo: {a} de {t}; intermedio: {b} de {u}", "Target square: {a} of {t}; between: {b} of {u}",
              a=a, t=enemies_target, b=b, u=enemies_between)
    return outcome(trace, checks=a + b, strength=8)


@resolver("hunt-begins.point-blank",
          ranges={"targets": between(0, 8)},  # a square holds 8 occupancy points
          outputs={"checks": "CC checks made"})
def point_blank(targets: int, used_shotgun: bool = False):
    """Point-blank shot: up to three models engaged with the shooter, one CC check each."""
    if used_shotgun:
        raise RuleError("shotgun-and-point-blank", "ya se usó ¡Escopeta! este turno", "Shotgun! was already used this turn")
    if not 1 <= targets <= 3:
        raise RuleError("too-many-targets", "entre una y tres miniaturas trabadas", "between one and three engaged models")
    trace = Trace()
    trace.add("{t} {t:p:chequeo|chequeos} de CC", "{t} CC {t:p:check|checks}", t=targets)
    return outcome(trace, checks=targets)


@resolver("hunt-begins.scorching-inferno",
          ranges={"distance": covers(0, 6),  # no bound in the seed: 0 to 6 squares taken
                  "models": between(0, 8),  # a square holds 8 occupancy points
                  "rof": covers(1, 4),  # no bound in the seed: 1 to 4 taken
                  "alert_within": covers(0, 6)},
          outputs={"automatic_hits": "automatic hits dealt in the square",
                                                    "dodge_allowed": "whether dodge saves are allowed"})
def scorching_inferno(distance: int, models: int, rof: int, target: Literal["square", "vent", "corner"] = "square",
                      line_of_sight: bool = True, alert_within: int | None = None):
    """Scorching inferno: a square up to two away; every model there takes one automatic hit per RoF point, no dodge saves.

    Without line of sight, an adjacent vent or a corner may be chosen only if the target is within
    three squares of a marine with the Alert! ability.
    """
    if target == "vent" and distance == 0:  # a vent in the model's own square is not "adjacent"
        raise RuleError("vent-not-adjacent", "el conducto debe ser adyacente", "the vent must be adjacent")
    _up_to_two(distance)
    if target == "vent" and distance != 1:
        raise RuleError("vent-not-adjacent", "el conducto debe ser adyacente", "the vent must be adjacent")
    # The seed names the vent and the corner only as targets chosen without line of sight (both then need a
    # marine with Alert! within 3 squares of the target); it is silent on a vent or corner in line of sight,
    # which this resolver treats as an ordinary target needing no Alert!.
    alert = alert_within is not None and alert_within <= 3
    trace = Trace()
    if target == "corner":
        trace.add("Esquina a {d}: la guía dice «un conducto de ventilación adyacente o una esquina»; aquí «adyacente» se lee solo del conducto, y la esquina llega hasta 2 como cualquier objetivo",
                  "Corner {d} away: the guide says \"an adjacent vent or a corner\"; here \"adjacent\" is read as the vent's only, and the corner reaches up to 2 like any target",
                  d=distance)
    if not line_of_sight:
        if target == "square" or not alert:
            raise RuleError("no-line-of-sight", "sin línea de visión solo vale un conducto o esquina a 3 de un marine con ¡Alerta!",
                            "without line of sight only a vent or corner within 3 of a marine with Alert! will do")
        trace.add("¡Alerta! a {d} {d:p:cuadrante|cuadrantes}: se puede elegir sin línea de visión",
                  "Alert! {d} {d:p:square|squares} away: it may be chosen without line of sight", d=alert_within)
    hits = models * rof
    trace.add("{m} {m:p:miniatura|miniaturas} × VdA {r} = {h} {h:p:impacto|impactos} {h:p:automático|automáticos}", "{m} {m:p:model|models} × RoF {r} = {h} automatic {h:p:hit|hits}",
              m=models, r=rof, h=hits)
    return outcome(trace, automatic_hits=hits, dodge_allowed=False)


@resolver("hunt-begins.smart-disc",
          ranges={"distance": covers(0, 6),  # as shotgun
                  "enemies_target": between(0, 8),
                  "enemies_between": between(0, 8)},
          outputs={"squares_attacked": "squares the disc attacks", "checks": "RC checks made (RoF 2 per square)"})
def smart_disc(distance: int, enemies_target: int, enemies_between: int = 0, target: Literal["square", "vent"] = "square"):
    """Smart-disc throw: a square up to two away, no line of sight needed; an RC attack with RoF 2 there and in the square between, where enemies are."""
    if target == "vent" and distance == 0:  # a vent in the model's own square is not "adjacent"
        raise RuleError("vent-not-adjacent", "el conducto debe ser adyacente", "the vent must be adjacent")
    _up_to_two(distance)
    if target == "vent" and distance != 1:
        raise RuleError("vent-not-adjacent", "el conducto debe ser adyacente", "the vent must be adjacent")
    if (distance == 1 or target == "vent") and enemies_between:
        raise RuleError("no-square-between", "no hay cuadrante intermedio", "there is no square between", kind="impossible")
    squares = (enemies_target > 0) + (enemies_between > 0)
    trace = Trace()
    trace.add("{s} {s:p:cuadrante|cuadrantes} con enemigos × VdA 2", "{s} {s:p:square|squares} with enemies × RoF 2", s=squares)
    return outcome(trace, squares_attacked=squares, checks=2 * squares)


@resolver("hunt-begins.acid-spit",
          ranges={"distance": covers(0, 6),  # no bound in the seed: 0 to 6 squares taken
                  "enemies": between(0, 8)},  # a square holds 8 occupancy points
          outputs={"checks": "RC checks made", "strength": "strength of each hit", "av": "AV of each hit"})
def acid_spit(distance: int, enemies: int):
    """Acid spit: an adjacent square, one RC check per enemy model in it; each hit is S12, AV0."""
    if distance != 1:
        raise RuleError("not-adjacent", "el cuadrante debe ser adyacente", "the square must be adjacent")
    trace = Trace()
    trace.add("{e} {e:p:chequeo|chequeos} de CD", "{e} RC {e:p:check|checks}", e=enemies)
    return outcome(trace, checks=enemies, strength=12, av=0)


LABELS = {
    "distance": ("distancia en cuadrantes", "distance in squares"),
    "enemies": ("enemigos", "enemies"),
    "checks": ("chequeos", "checks"),
    "strength": ("fuerza", "strength"),
    "av": ("VA", "AV"),
    "actions": ("acciones", "actions"),
    "hidden": ("oculta", "hidden"),
    "spent": ("puntos de acción gastados", "action points spent"),
    "left": ("quedan", "left"),
    "types": ("tipos de acción", "action types"),
    "skill": ("habilidad", "skill"),
    "kind": ("tipo de ataque", "kind of attack"),
    "rof": ("VdA", "RoF"),
    "hit_rolls": ("tiradas para impactar", "rolls to hit"),
    "automatic": ("impacto automático", "automatic hit"),
    "armour": ("armadura", "armour"),
    "armour_reduction": ("reducción de armadura", "armour reduction"),
    "save": ("salvación", "save"),
    "save_rolls": ("tiradas de salvación", "save rolls"),
    "wounds": ("heridas", "wounds"),
    "wounds_per_failed_save": ("heridas por salvación fallada", "wounds per failed save"),
    "target_engaged": ("objetivo trabado", "target engaged"),
    "contested_squares": ("cuadrantes en disputa", "contested squares"),
    "target_hidden": ("objetivo oculto", "target hidden"),
    "aim": ("apunta", "aims"),
    "rapid_fire": ("fuego rápido", "rapid fire"),
    "modifiers": ("modificadores", "modifiers"),
    "needs": ("necesita (o menos)", "needs (or less)"),
    "hits": ("impactos", "hits"),
    "save_target": ("salvación con", "save on"),
    "wounds_caused": ("heridas causadas", "wounds caused"),
    "wounds_left": ("heridas que le quedan", "wounds left"),
    "removed": ("baja", "casualty"),
    "shooting": ("disparo", "shooting"),
    "close-combat": ("combate cuerpo a cuerpo", "close combat"),
    "constitution": ("constitución", "constitution"),
    "cc": ("CC", "CC"),
    "roll": ("tirada", "roll"),
    "engaged": ("trabada", "engaged"),
    "target": ("objetivo", "target"),
    "moves": ("se mueve", "moves"),
    "points_spent": ("puntos de acción gastados", "action points spent"),
    "capacity": ("capacidad del cuadrante", "square capacity"),
    "occupants": ("ocupantes", "occupants"),
    "owners": ("bandos", "sides"),
    "mover_points": ("puntos de quien entra", "points of the model moving in"),
    "mover_owner": ("bando de quien entra", "side of the model moving in"),
    "mover_base": ("peana de la miniatura que entra", "base of the model moving in"),
    "displaced": ("desplazadas", "displaced"),
    "before": ("ocupación antes", "occupancy before"),
    "needed": ("hay que desplazar", "displacement needed"),
    "after": ("ocupación después", "occupancy after"),
    "full": ("cuadrante lleno", "square full"),
    "neighbours_contested": ("los adyacentes quedan en disputa", "adjacent squares contested"),
    "possible": ("posible", "possible"),
    "attacks_as_if_engaged": ("ataca como si estuviera trabada", "attacks as if engaged"),
    "marines": ("Marines Coloniales", "Colonial Marines"),
    "aliens": ("Aliens", "Aliens"),
    "predators": ("Predators", "Predators"),
    "small": ("pequeña", "small"),
    "medium": ("mediana", "medium"),
    "large": ("grande", "large"),
    "forcer": ("quien fuerza", "forcing model"),
    "adjacent": ("adyacentes", "adjacent"),
    "bonus": ("bonificación", "bonus"),
    "assistants": ("ayudantes", "assistants"),
    "alien": ("alien", "alien"),
    "hound": ("mastín", "hound"),
    "small-alien": ("alien pequeño", "small alien"),
    "other": ("otra miniatura", "another model"),
    "models": ("miniaturas", "models"),
    "choice": ("elegida", "chosen"),
    "last_activated": ("última activada", "last activated"),
    "allowed": ("permitido", "allowed"),
    "m": ("M", "M"),
    "action": ("acción", "action"),
    "carrying": ("lleva algo", "carrying"),
    "moved_this_activation": ("ya movido en esta activación", "already moved this activation"),
    "squares": ("cuadrantes", "squares"),
    "move": ("Mover", "Move"),
    "run": ("Correr", "Run"),
    "tactical-move": ("Movimiento táctico", "Tactical move"),
    "carrier": ("quien lo lleva", "carrier"),
    "pick_ups": ("veces recogido este turno", "times picked up this turn"),
    "order": ("orden", "order"),
    "to": ("hasta", "to"),
    "hand": ("cartas en la mano", "cards in hand"),
    "play": ("cartas que juega", "cards played"),
    "played_this_turn": ("ya jugadas este turno", "already played this turn"),
    "played": ("jugadas este turno", "played this turn"),
    "remaining": ("aún se pueden jugar", "may still be played"),
    "targets": ("objetivos", "targets"),
    "used_shotgun": ("ya usó la escopeta", "already used the shotgun"),
    "line_of_sight": ("línea de visión", "line of sight"),
    "alert_within": ("¡Alerta! a (cuadrantes)", "Alert! within (squares)"),
    "automatic_hits": ("impactos automáticos", "automatic hits"),
    "dodge_allowed": ("se permite esquivar", "dodge allowed"),
    "square": ("cuadrante", "square"),
    "vent": ("conducto", "vent"),
    "corner": ("esquina", "corner"),
    "what": ("qué se sella", "what is sealed"),
    "done_before": ("hechas antes", "done before"),
    "contested": ("en disputa", "contested"),
    "close_combat": ("CC", "CC"),
    "success": ("éxito", "success"),
    "door": ("compuerta", "door"),
    "model": ("miniatura", "model"),
    "sentries": ("centinelas", "sentries"),
    "initiative": ("iniciativa", "initiative"),
    "sentry_actions": ("acciones de los centinelas", "sentry actions"),
    "resumes": ("acciones que retoma", "actions it resumes"),
    "enemies_target": ("enemigos en el cuadrante objetivo", "enemies in the target square"),
    "enemies_between": ("enemigos en medio", "enemies in between"),
    "used_point_blank": ("ya disparó a quemarropa", "already fired point-blank"),
    "squares_attacked": ("cuadrantes atacados", "squares attacked"),
    "factions_here": ("bandos en el cuadrante", "sides in the square"),
    "adjacent_full": ("adyacentes llenos", "adjacent full squares"),
    "baseless_nearby": ("miniatura sin peana cerca", "baseless model nearby"),
    "reasons": ("motivos", "reasons"),
    "melee_into_full_square": ("puede atacar cuerpo a cuerpo a un cuadrante lleno", "may attack into a full square"),
    "wounds_lost": ("heridas perdidas", "wounds lost"),
    "healed_before": ("ya curó antes", "healed before"),
    "draws": ("cartas de estrategia robadas", "strategy cards drawn"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
