"""Malifaux's own resolvers: engagement, elevation, disengaging, shooting into combat, sequencing.

Every fact comes from the seed ``004_f696d02338d63821.txt``. Distances are plain numbers in the
table's unit; the seed gives none except the 2" of shooting into combat. "Within" a range is read
as "at that distance or less" (the seed does not define measuring).
"""

from __future__ import annotations

from typing import Literal

from kb.mechanics import Context, RuleError, Trace, outcome, resolver, between, covers, keys_of
from kb.mechanics.cards import flip_select
from kb.mechanics.procedures import numbered_steps

SHOOTING_INTO_COMBAT_RADIUS = 2
"""Models within this many inches of the target take part in the random flip."""

SEQUENCING = "malifaux.sequencing"
"""The sequence entry that fixes the order of simultaneous effects."""


def _engagement_range(trace: Trace, who: str, melee_ranges: list[float]) -> float | None:
    """The longest melee attack range of a model (its engagement range); None for a model with no melee attack."""
    if not melee_ranges:
        trace.add("{who} no tiene Ataques de Combate: no tiene alcance en combate propio",
                  "{who} has no melee attacks: it has no engagement range of its own", who=who)
        return None
    longest = max(melee_ranges)
    trace.add("Alcance en combate de {who}: el mayor de {ranges} = {r}",
              "Engagement range of {who}: the longest of {ranges} = {r}", who=who, ranges=melee_ranges, r=longest)
    return longest


def _with_elevation(trace: Trace, distance: float, elevation_a: float, elevation_b: float,
                    ht_a: float | None, ht_b: float | None) -> tuple[float, float, bool]:
    """Distance after elevation: (difference, distance, whether the difference was added)."""
    if distance < 0:
        raise RuleError("negative-distance", "una distancia no puede ser negativa", "a distance cannot be negative",
                        kind="impossible")
    diff = abs(elevation_a - elevation_b)
    if diff == 0:
        trace.add("Misma elevación: la distancia sigue siendo {d}", "Same elevation: the distance stays {d}", d=distance)
        return diff, distance, False
    if ht_a is None or ht_b is None:
        raise RuleError("missing-height", "con elevaciones distintas hace falta la Ht de las dos miniaturas",
                        "with different elevations the Ht of both models is needed", kind="incomplete")
    # The seed says "la miniatura de menor tamaño" without defining size: read as the model with the lower Ht.
    smaller = min(ht_a, ht_b)
    if smaller > diff:
        trace.add("Diferencia de elevación {diff}; la miniatura menor tiene Ht {ht} > {diff}: no se suma",
                  "Elevation difference {diff}; the smaller model has Ht {ht} > {diff}: not added",
                  diff=diff, ht=smaller)
        return diff, distance, False
    total = distance + diff
    trace.add("Diferencia de elevación {diff}; la miniatura menor tiene Ht {ht} (no mayor): {d} + {diff} = {t}",
              "Elevation difference {diff}; the smaller model has Ht {ht} (not greater): {d} + {diff} = {t}",
              diff=diff, ht=smaller, d=distance, t=total)
    return diff, total, True


def _shown(value: float | None) -> str:
    return "—" if value is None else str(value)


@resolver("malifaux.combat-distance",
          ranges={"distance": covers(0, 12, 0.1),  # inches, in tenths as measured; no bound in the seed: 0 to 12 taken
                  "elevation_a": covers(0, 6, 0.5),  # no bound in the seed: 0 to 6 inches taken
                  "elevation_b": covers(0, 6, 0.5),
                  "ht_a": covers(0, 6, 0.5),  # no bound in the seed: Ht 0 to 6 taken
                  "ht_b": covers(0, 6, 0.5),
                  "attack_range": covers(0, 12, 0.5)},
          outputs={
    "difference": "the difference between the two elevations",
    "added": "whether that difference is added to the distance",
    "distance": "the distance used for engagement range and melee attack range",
    "in_range": "whether that distance is within attack_range (absent without attack_range)",
})
def combat_distance(distance: float, elevation_a: float = 0, elevation_b: float = 0, ht_a: float | None = None,
                    ht_b: float | None = None, attack_range: float | None = None):
    """Distance between two models for engagement and melee range, counting their elevation difference."""
    trace = Trace()
    diff, total, added = _with_elevation(trace, distance, elevation_a, elevation_b, ht_a, ht_b)
    in_range = None
    if attack_range is not None:
        in_range = total <= attack_range
        trace.add("{t} frente a un alcance de {r}: {ok}", "{t} against a range of {r}: {ok}",
                  t=total, r=attack_range, ok=in_range)
    return outcome(trace, difference=diff, added=added, distance=total, in_range=in_range)


@resolver("malifaux.engaged",
          ranges={"distance": covers(0, 6, 0.1),  # inches, in tenths as measured; no bound in the seed: 0 to 6 taken
                  "melee_ranges_a[]": covers(0, 3, 0.5),  # no bound in the seed: engagement ranges 0 to 3 inches taken
                  "melee_ranges_b[]": covers(0, 3, 0.5),
                  "elevation_a": covers(0, 6, 0.5),
                  "elevation_b": covers(0, 6, 0.5),
                  "ht_a": covers(0, 6, 0.5),
                  "ht_b": covers(0, 6, 0.5)},
          outputs={
    "range_a": "engagement range of model A (its longest melee attack; absent without one)",
    "range_b": "engagement range of model B (absent without a melee attack)",
    "distance": "the distance used, after elevation",
    "engaged": "whether A and B are engaged with each other (both ways)",
})
def engaged(distance: float, melee_ranges_a: list[float], melee_ranges_b: list[float], a_sees_b: bool,
            b_sees_a: bool, friendly: bool = False, elevation_a: float = 0, elevation_b: float = 0,
            ht_a: float | None = None, ht_b: float | None = None):
    """Are two models engaged? Either inside the other's engagement range, and at least one sees the other.

    A model with no melee attack (``[]``) has no engagement range of its own, but it is engaged all the
    same when it stands inside the other model's range: engagement works both ways. (The seed does not say
    what engagement range such a model has; this is the reading taken.)
    """
    trace = Trace()
    range_a = _engagement_range(trace, "A", melee_ranges_a)
    range_b = _engagement_range(trace, "B", melee_ranges_b)
    _, total, _ = _with_elevation(trace, distance, elevation_a, elevation_b, ht_a, ht_b)
    if friendly:
        trace.add("Son miniaturas amigas: nunca están trabadas entre sí", "They are friendly models: never engaged",)
        return outcome(trace, range_a=range_a, range_b=range_b, distance=total, engaged=False)
    reach = any(r is not None and total <= r for r in (range_a, range_b))
    trace.add("Distancia {t}; alcance de A {a}, de B {b}: dentro de alguno {ok}",
              "Distance {t}; A's range {a}, B's range {b}: within either {ok}", t=total, a=_shown(range_a),
              b=_shown(range_b), ok=reach)
    sight = a_sees_b or b_sees_a
    trace.add("Línea de visión de al menos una: {ok}", "Line of sight from at least one: {ok}", ok=sight)
    result = reach and sight
    trace.add("Trabadas (en ambos sentidos): {ok}", "Engaged (both ways): {ok}", ok=result)
    return outcome(trace, range_a=range_a, range_b=range_b, distance=total, engaged=result)


Action = Literal["walk", "charge", "melee-attack", "projectile-attack"]


@resolver("malifaux.engaged-action", outputs={
    "allowed": "whether the model may take the action",
    "disengaging": "whether the action is a disengage (a Walk out of an enemy's engagement range)",
})
def engaged_action(action: Action, engaged: bool, leaves_engagement_range: bool = False):
    """What being engaged does to an action: no Charge, no projectile attack, a Walk out is a disengage."""
    trace = Trace()
    allowed, disengaging = True, False
    if engaged and action == "charge":
        allowed = False
        trace.add("Trabada: no puede Cargar", "Engaged: it cannot Charge")
    elif engaged and action == "projectile-attack":
        allowed = False
        trace.add("Trabada: no puede hacer Ataques de Proyectil", "Engaged: it cannot make projectile attacks")
    elif engaged and action == "walk" and leaves_engagement_range:
        disengaging = True
        trace.add("Caminar para salir del alcance en combate de un enemigo es destrabarse",
                  "Walking out of an enemy's engagement range is disengaging")
    else:
        trace.add("{action}: sin restricción por estar trabada ({engaged})",
                  "{action}: no restriction from being engaged ({engaged})", action=action, engaged=engaged)
    return outcome(trace, allowed=allowed, disengaging=disengaging)


@resolver("malifaux.disengage", outputs={
    "disengaging": "whether the move is a disengage that can provoke disengaging strikes",
    "may_strike": "enemies allowed to make a disengaging strike",
    "moves": "whether the model gets to move",
    "ap_spent": "whether the Walk's AP are spent (absent for movement other than Walk)",
})
def disengage(movement: Literal["walk", "push", "other"], leaves_range: bool, engaged_enemies: dict[str, bool],
              strikes: dict[str, bool] | None = None, declared: bool = True, special_movement: list[str] | None = None,
              strike_triggers: list[str] | None = None):
    """A move out of engagement: who may strike, and whether the Walk happens.

    ``engaged_enemies`` maps each enemy engaged with the mover to whether the mover is within
    the range of one of that enemy's melee attacks; ``strikes`` maps each striker to whether its
    attack hits.
    """
    trace = Trace()
    strikes = strikes or {}
    if movement != "walk" or not leaves_range:
        why_es = "no es la Acción Caminar" if movement != "walk" else "no abandona ningún alcance en combate"
        why_en = "it is not the Walk action" if movement != "walk" else "it leaves no engagement range"
        trace.add("Sin golpes de destrabamiento: {why}", "No disengaging strikes: {why_en}", why=why_es, why_en=why_en)
        if strikes:  # an answer, not a refusal: the move is allowed, the strikes simply do not happen
            trace.add("Los golpes de {s} no se dan: la miniatura se mueve sin que nadie pueda golpearla",
                      "{s} {n:p:makes|make} no strike: the model moves and nobody may strike it", s=list(strikes),
                      n=len(strikes))
        return outcome(trace, disengaging=False, may_strike=[], moves=True,
                       ap_spent=True if movement == "walk" else None)
    if not declared:
        raise RuleError("undeclared-disengage", "hay que declarar que se destraba antes de mover",
                        "the model must declare that it disengages before it moves")
    for ability in special_movement or []:
        trace.add("{a} no evita los golpes: llegan antes de que se mueva", "{a} does not prevent strikes: they come before it moves",
                  a=ability)
    may = [e for e, reach in engaged_enemies.items() if reach]
    trace.add("Pueden golpear (trabadas y con la miniatura a su alcance de combate): {may:none:ninguna}",
              "May strike (engaged, with the model in melee range): {may:none:none}", may=may)
    if strike_triggers:
        raise RuleError("strike-no-triggers", "un golpe de destrabamiento no puede declarar Disparadores",
                        "a disengaging strike cannot declare triggers")
    hit = False
    for striker, hits in strikes.items():
        if striker not in engaged_enemies:
            raise RuleError("striker-not-engaged", "la miniatura {s} no está trabada con la que se destraba",
                            "{s} is not engaged with the disengaging model", s=striker)
        if not engaged_enemies[striker]:
            raise RuleError("out-of-melee-range", "{s} no tiene a la miniatura al alcance de un Ataque de Combate",
                            "{s} does not have the model within range of a melee attack", s=striker)
        trace.add("Golpe de {s}, impacta: {ok} (sin daño ni otros efectos)", "Strike by {s}, hits: {ok} (no damage, no other effect)",
                  s=striker, ok=hits)
        # The seed does not say in which order several strikes come or whether the others still strike once one
        # has hit: every strike given is resolved, and one hit is enough to stop the Walk.
        hit = hit or hits
    if hit:
        trace.add("Un golpe impacta: no camina, pero gasta los PA", "A strike hits: no Walk, but the AP are spent")
    else:
        trace.add("Ningún golpe impacta: camina", "No strike hits: it walks")
    return outcome(trace, disengaging=True, may_strike=may, moves=not hit, ap_spent=True)


@resolver("malifaux.random-target",
          ranges={"distances.*": covers(0, 12, 0.1),  # inches, in tenths as measured (2,1" is past the 2"); 0 to 12 taken
                  "flips": keys_of("target", "distances"),  # the seed: a card for the target and each model within 2" of it
                  "flips.*": between(0, 14),  # the seed gives no card values: 0 to 14 taken (a fate card 1-13 and two jokers assumed)
                  "choice": keys_of("target", "distances")},  # a tie is settled for one of the models that got a card
          outputs={
    "random": "whether the target is picked at random",
    "candidates": "models that get a card: the target and the models within 2\" of it, never the attacker",
    "target": "the model the attack now targets (absent while a tie is open)",
    "tied": "models sharing the lowest card (absent when nothing is tied)",
    "duel": "the model whose targeting duel the attacker takes now (absent when none)",
})
def random_target(target: str, engaged_with: list[str], distances: dict[str, float],
                  flips: dict[str, int] | None = None, choice: str | None = None, attacker: str | None = None,
                  attacker_engaged: bool = False, duel_abilities: list[str] | None = None):
    """A projectile attack at an engaged model: is the target random, and which model it becomes.

    ``engaged_with`` are the models the target is engaged with; ``distances`` gives how far each other
    model near the target stands from it (engaged or not, friend or enemy, the attacker too), and must
    give one for every model in ``engaged_with``; a model left out is far away. The resolver works out
    which of them are within 2" (that distance or less). ``duel_abilities`` are the models with an
    ability that needs a duel to target them (Terrifying).
    """
    trace = Trace()
    for m, d in distances.items():
        if d < 0:
            raise RuleError("negative-distance", "una distancia no puede ser negativa", "a distance cannot be negative",
                            kind="impossible")
    unmeasured = [m for m in engaged_with if m not in distances]
    if unmeasured:
        raise RuleError("missing-distance", "falta la distancia al objetivo de {m}",
                        "the distance to the target is missing for {m}", m=unmeasured, kind="incomplete")
    within_2 = [m for m, d in distances.items() if m != target and d <= SHOOTING_INTO_COMBAT_RADIUS]
    trace.add("A {r}\" o menos de {t} (distancia en pulgadas): {w:none:ninguna}", "Within {r}\" of {t} (distance in inches): {w:none:none}",
              r=SHOOTING_INTO_COMBAT_RADIUS, t=target, w={m: distances[m] for m in within_2})
    if attacker_engaged:
        raise RuleError("engaged-attacker", "una miniatura trabada no puede hacer Ataques de Proyectil",
                        "an engaged model cannot make projectile attacks")
    if attacker is not None and attacker in engaged_with:
        raise RuleError("engaged-attacker", "una miniatura trabada no puede hacer Ataques de Proyectil",
                        "an engaged model cannot make projectile attacks")
    flips = flips or {}
    duels = set(duel_abilities or [])
    close = [m for m in engaged_with if m in within_2]
    trace.add("La miniatura {t} está trabada con {e:none:ninguna}; de ellas, a 2\": {c:none:ninguna}",
              "{t} is engaged with {e:none:no model}; of those, within 2\": {c:none:none}", t=target, e=engaged_with, c=close)
    if not close:
        trace.add("Ninguna miniatura trabada con el objetivo está a 2\": el ataque no es aleatorio",
                  "No model engaged with the target is within 2\": the attack is not random")
        if flips:  # an answer, not a refusal: the shot is allowed and goes to the chosen target
            trace.add("No se voltean cartas (las de {f} no cuentan): el disparo va al objetivo elegido, {t}",
                      "No cards are flipped (those for {f} do not count): the shot goes to the chosen target, {t}",
                      f=list(flips), t=target)
        duel = target if target in duels else None
        return outcome(trace, random=False, candidates=[], target=target, tied=None, duel=duel)
    candidates = [target] + [m for m in within_2 if m != target and m != attacker]
    if attacker is not None and attacker in within_2:
        trace.add("{a} está a 2\" pero no voltea carta por sí misma", "{a} is within 2\" but flips no card for itself",
                  a=attacker)
    if target in duels:
        trace.add("El duelo de {t} no se hace todavía: el objetivo es provisional",
                  "{t}'s duel is not taken yet: the target is provisional", t=target)
    trace.add("Objetivo provisional {t} (LdV y alcance); una carta por: {c}",
              "Provisional target {t} (LoS and range); one card for: {c}", t=target, c=candidates)
    if set(flips) != set(candidates):
        extra = sorted(set(flips) - set(candidates))
        if attacker is not None and attacker in extra:
            raise RuleError("attacker-flips", "el Atacante no voltea carta por sí mismo",
                            "the attacker flips no card for itself")
        if extra:  # a model beyond 2" (moved away, say) still holds a card: say which card to take away
            raise RuleError("no-card-due",
                            "{m} {n:p:está|están} a más de 2\" de {t} y no {n:p:recibe|reciben} carta: quita {n:p:su carta|sus cartas}",
                            "{m} {n:p:is|are} farther than 2\" from {t} and {n:p:gets|get} no card: take {n:p:its card|their cards} away",
                            m=extra, n=len(extra), t=target, kind="impossible")
        raise RuleError("wrong-flips", "hay que voltear exactamente una carta por cada una: {c}",
                        "exactly one card must be flipped for each of them: {c}", c=candidates, kind="incomplete")
    picked = flip_select(flips, True, choice)
    trace.steps.extend(picked.trace)
    final = picked.values["target"]
    duel = final if final is not None and final in duels else None
    if duel:
        trace.add("{d} pide un duelo para tomarla como objetivo: se hace ahora", "{d} needs a duel to be targeted: it is taken now",
                  d=duel)
    return outcome(trace, random=True, candidates=candidates, target=final, tied=picked.values["tied"], duel=duel)


Source = Literal["triggers", "actor", "defender", "first-player", "second-player"]


@resolver("malifaux.simultaneous",
          # each player's order names effects of `effects` (a calculator: a list of them per place, added or removed)
          ranges={"first_player_order[]": keys_of("effects"), "second_player_order[]": keys_of("effects")},
          outputs={
    "order": "the effects in the order they resolve",
})
def simultaneous(context: Context, effects: dict[str, Source], first_player_order: list[str] | None = None,
                 second_player_order: list[str] | None = None):
    """Order effects that happen at the same time: triggers, then abilities by the sequencing steps.

    ``effects`` maps each effect to where it comes from, one of the step ids of
    ``malifaux.sequencing``; each player's order lists the effects of that player's other models
    in the order the player picks.
    """
    seq = context.lookup(SEQUENCING)
    if seq is None or "sequence" not in seq:
        raise RuleError("no-sequence", "falta la secuencia {s}", "the sequence {s} is missing", s=SEQUENCING)
    numbers = {s["id"]: n for s, n in numbered_steps(seq["sequence"]["steps"])}
    steps = list(numbers)
    unknown = sorted(e for e, src in effects.items() if src not in steps)
    if unknown:
        raise RuleError("unknown-source", "{e}: su origen no es un paso de la secuencia", "{e}: the source is not a step of the sequence",
                        e=unknown)
    chosen = {"first-player": first_player_order, "second-player": second_player_order}
    trace = Trace()
    order: list[str] = []
    for step in steps:
        group = [e for e, src in effects.items() if src == step]
        if len(group) > 1:
            pick = chosen.get(step)
            if step not in chosen:
                raise RuleError("order-not-covered", "la fuente no ordena varios efectos del paso «{step}»: {group}",
                                "the source gives no order for several effects of the step “{step}”: {group}",
                                step=step, group=group, kind="unstated")
            if pick is None:
                raise RuleError("choice-needed", "el jugador del paso «{step}» debe elegir el orden de {group}",
                                "the player of the step “{step}” must choose the order of {group}", step=step, group=group, kind="incomplete")
            if sorted(pick) != sorted(group):
                raise RuleError("bad-choice", "el orden elegido debe contener exactamente {group}",
                                "the chosen order must hold exactly {group}", group=group, kind="incomplete")
            group = list(pick)
        if group and numbers[step] is None:
            trace.add("Antes de los pasos numerados ({step}): {g}", "Before the numbered steps ({step}): {g}", step=step, g=group)
        elif group:
            trace.add("Paso {n} ({step}): {g}", "Step {n} ({step}): {g}", n=numbers[step], step=step, g=group)
        order += group
    return outcome(trace, order=order)


LABELS = {
    "distance": ("distancia", "distance"),
    "distances": ("distancias al objetivo", "distances to the target"),
    "elevation_a": ("elevación de A", "elevation of A"),
    "elevation_b": ("elevación de B", "elevation of B"),
    "ht_a": ("Ht de A", "Ht of A"),
    "ht_b": ("Ht de B", "Ht of B"),
    "attack_range": ("alcance del ataque", "attack range"),
    "difference": ("diferencia de elevación", "elevation difference"),
    "added": ("se suma a la distancia", "added to the distance"),
    "in_range": ("dentro del alcance", "within range"),
    "movement": ("movimiento", "movement"),
    "leaves_range": ("sale del alcance en combate", "leaves the engagement range"),
    "engaged_enemies": ("enemigos trabados (¿pueden atacar?)", "engaged enemies (may they strike?)"),
    "strikes": ("golpes al destrabarse", "disengaging strikes"),
    "declared": ("declarado", "declared"),
    "special_movement": ("movimiento especial", "special movement"),
    "strike_triggers": ("disparadores del golpe", "strike triggers"),
    "disengaging": ("se destraba", "disengaging"),
    "may_strike": ("pueden golpear al destrabarse", "may make a disengaging strike"),
    "moves": ("se mueve", "moves"),
    "ap_spent": ("gasta los PA de Caminar", "the Walk's AP are spent"),
    "walk": ("Caminar", "Walk"),
    "push": ("empujón", "push"),
    "other": ("otro movimiento", "other movement"),
    "melee_ranges_a": ("alcances de combate de A", "melee ranges of A"),
    "melee_ranges_b": ("alcances de combate de B", "melee ranges of B"),
    "a_sees_b": ("A ve a B", "A sees B"),
    "b_sees_a": ("B ve a A", "B sees A"),
    "friendly": ("amigas", "friendly"),
    "range_a": ("alcance en combate de A", "engagement range of A"),
    "range_b": ("alcance en combate de B", "engagement range of B"),
    "engaged": ("trabadas", "engaged"),
    "action": ("acción", "action"),
    "leaves_engagement_range": ("sale del alcance en combate", "leaves the engagement range"),
    "allowed": ("permitida", "allowed"),
    "charge": ("Cargar", "Charge"),
    "melee-attack": ("ataque de combate", "melee attack"),
    "projectile-attack": ("ataque de proyectil", "projectile attack"),
    "target": ("objetivo", "target"),
    "engaged_with": ("trabado con", "engaged with"),
    "flips": ("cartas volteadas", "cards flipped"),
    "choice": ("elegida si empatan", "chosen if tied"),
    "attacker": ("atacante", "attacker"),
    "attacker_engaged": ("atacante trabado", "attacker engaged"),
    "duel_abilities": ("habilidades que dan un duelo", "abilities that call for a duel"),
    "random": ("objetivo al azar", "random target"),
    "candidates": ("miniaturas que reciben carta", "models that get a card"),
    "tied": ("empatadas", "tied"),
    "duel": ("duelo de selección con", "targeting duel against"),
    "effects": ("efectos", "effects"),
    "first_player_order": ("orden del primer jugador", "first player's order"),
    "second_player_order": ("orden del segundo jugador", "second player's order"),
    "order": ("orden de resolución", "order of resolution"),
    "triggers": ("disparadores", "triggers"),
    "actor": ("quien actúa", "acting model"),
    "defender": ("defensor", "defender"),
    "first-player": ("primer jugador", "first player"),
    "second-player": ("segundo jugador", "second player"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
