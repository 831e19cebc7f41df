"""Warlords of Terra: the game's own resolvers (resources, building, movement, combat, abilities).

Every number and condition comes from the seed 003_b22e0db6fc3adf98.txt; where the seed is silent the
resolver does the least it can and the entry's notes say so.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal
from collections.abc import Callable

from kb.mechanics import Chance, Outcome, RuleError, Trace, outcome, resolver, between, covers, keys_of
from kb.mechanics.damage import hit

BANNER = {"gold": 1, "mana": 1}
"""What the Banner gives every resources phase."""

LUCK_DIE = ("horseshoe", "horseshoe", "blank", "blank", "blank", "blank")
"""The luck die: six faces, two of them show the horseshoe."""

_RES_ES = {"gold": "oro", "mana": "maná"}


# --------------------------------------------------------------------------------------------
# Resources and construction
# --------------------------------------------------------------------------------------------


def _yield_totals(trace: Trace, gold: int, mana: int, places_gold: int, places_mana: int,
                  named: bool) -> tuple[int, int]:
    """Add what the places built in earlier turns yield, given as totals (``named``: some place already produced)."""
    if places_gold < 0 or places_mana < 0:
        raise RuleError("negative-yield", "un lugar no produce menos de 0", "a place yields no less than 0", kind="impossible")
    if places_gold or places_mana:
        gold, mana = gold + places_gold, mana + places_mana
        trace.add("Tus lugares de turnos anteriores: +{g} de oro y +{m} de maná → {gold} oro, {mana} maná",
                  "Your places from earlier turns: +{g} gold and +{m} mana → {gold} gold, {mana} mana",
                  g=places_gold, m=places_mana, gold=gold, mana=mana)
    elif not named:
        trace.add("Sin lugares de turnos anteriores que produzcan (si los tienes, suma lo que dan en «oro/maná de tus lugares»)",
                  "No places from earlier turns yielding (if you have some, add what they give in “gold/mana from your places”)")
    return gold, mana


@resolver("warlords-of-terra.resources",
          ranges={"turn": covers(1, 10),  # no bound in the seed: turns 1 to 10 taken
                  "places.*.*": covers(0, 5),  # no bound in the seed: 0 to 5 of each taken
                  "divert": covers(0, 5),
                  "places_gold": covers(0, 10),  # no bound in the seed: 0 to 10 taken
                  "places_mana": covers(0, 10)},
          outputs={
    "gold": "gold the player keeps for this turn (after any diversion)",
    "mana": "mana the player keeps for this turn (after any diversion)",
    "hero_power": "resources added to the Hero's Power this turn (0 or 1)",
    "producing": "places that produce in this resources phase",
    "draws": "cards drawn at the end of the phase (0 or 1)",
})
def resources(turn: int, places: dict[str, dict[str, int]] = {}, divert: int = 0,
              hero_takes: Literal["mana", "gold"] = "mana", first_player: bool = False, places_gold: int = 0,
              places_mana: int = 0):
    """The resources phase of one player's turn: the Banner, the places built before, the Hero, the draw.

    ``turn`` is the player's own turn number (1 = their first). Each place gives ``gold``/``mana`` and says
    in which of the player's turns it was ``built``; a place only produces from the turn after that.
    ``divert`` is how many units go to the Hero's Power (at most one, of the kind the Hero asks for).
    ``places_gold`` and ``places_mana`` are what the player's places built in earlier turns yield, as totals (the
    calculator's inputs; ``places`` names them one by one instead).
    """
    if turn < 1:
        raise RuleError("bad-turn", "el número de turno empieza en 1", "turn numbers start at 1", kind="impossible")
    if divert < 0 or divert > 1:
        raise RuleError("divert-one", "solo se puede desviar UN recurso al Poder del Héroe, no {d}",
                        "only ONE resource may be diverted to the Hero's Power, not {d}", d=divert)
    trace = Trace()
    gold, mana = BANNER["gold"], BANNER["mana"]
    trace.add("Estandarte: {g} de oro y {m} de maná", "Banner: {g} gold and {m} mana", g=gold, m=mana)
    producing: list[str] = []
    for name, place in places.items():
        for key in place:
            if key not in ("gold", "mana", "built"):
                raise RuleError("unknown-stat", "el lugar {p} tiene un dato desconocido: «{k}»",
                                "place {p} has an unknown field: “{k}”", p=name, k=key)
        built = place.get("built", 0)
        if built > turn:
            raise RuleError("built-later", "{p} se construye en el turno {b}, después del turno {t}",
                            "{p} is built in turn {b}, after turn {t}", p=name, b=built, t=turn, kind="impossible")
        if built == turn:
            trace.add("{name}: construido en este mismo turno (fase de construcción, posterior a la de recursos); aún no produce",
                      "{name}: built this very turn (construction comes after resources); it does not produce yet",
                      name=name)
            continue
        g, m = place.get("gold", 0), place.get("mana", 0)
        gold, mana = gold + g, mana + m
        producing.append(name)
        trace.add("{name} produce {g} de oro y {m} de maná → {gold} oro, {mana} maná",
                  "{name} produces {g} gold and {m} mana → {gold} gold, {mana} mana",
                  name=name, g=g, m=m, gold=gold, mana=mana)
    gold, mana = _yield_totals(trace, gold, mana, places_gold, places_mana, bool(producing))
    hero_power = 0
    if divert:
        if hero_takes == "gold":
            gold -= 1
        else:
            mana -= 1
        hero_power = 1
        trace.add("Se desvía 1 de {res} al Poder del Héroe → quedan {gold} oro y {mana} maná",
                  "1 {res_en} is diverted to the Hero's Power → {gold} gold and {mana} mana left",
                  res=_RES_ES[hero_takes], res_en=hero_takes, gold=gold, mana=mana)
    draws = 0 if (first_player and turn == 1) else 1
    if draws:
        trace.add("Se roba 1 carta del mazo de construcción o del de batalla",
                  "Draw 1 card from the construction deck or the battle deck")
    else:
        trace.add("Primer jugador en su primer turno: no roba", "First player on their first turn: no draw")
    return outcome(trace, gold=gold, mana=mana, hero_power=hero_power, producing=producing, draws=draws)


@resolver("warlords-of-terra.build",
          ranges={"gold": covers(0, 10),  # no bound in the seed: 0 to 10 taken
                  "mana": covers(0, 10),
                  "places.*.*": covers(0, 5)},
          outputs={
    "gold_left": "gold left after building",
    "mana_left": "mana left after building",
    "built": "places built, in order",
})
def build(gold: int, mana: int, places: dict[str, dict[str, int]]):
    """Build places from the hand in the given order, paying each one's gold and mana cost."""
    trace = Trace()
    built: list[str] = []
    for name, cost in places.items():
        cg, cm = cost.get("gold", 0), cost.get("mana", 0)
        if cg > gold or cm > mana:
            raise RuleError("not-enough-resources",
                            "{place} cuesta {cg} de oro y {cm} de maná; solo quedan {g} de oro y {m} de maná",
                            "{place} costs {cg} gold and {cm} mana; only {g} gold and {m} mana are left",
                            place=name, cg=cg, cm=cm, g=gold, m=mana)
        gold, mana = gold - cg, mana - cm
        built.append(name)
        trace.add("Se construye {name} ({cg} oro, {cm} maná) → quedan {gold} oro y {mana} maná",
                  "{name} is built ({cg} gold, {cm} mana) → {gold} gold and {mana} mana left",
                  name=name, cg=cg, cm=cm, gold=gold, mana=mana)
    trace.add("Los lugares nuevos no producen hasta la próxima fase de recursos",
              "New places produce nothing until the next resources phase")
    return outcome(trace, gold_left=gold, mana_left=mana, built=built)


# --------------------------------------------------------------------------------------------
# Movement and troop activation
# --------------------------------------------------------------------------------------------


@resolver("warlords-of-terra.move",
          ranges={"speed": covers(0, 4),  # no bound in the seed: Speed 0 to 4 taken
                  "zones": covers(0, 4)},  # the zones a troop crosses: 0 to 4 taken
          outputs={
    "max_zones": "how many zones the troop may move this activation",
    "flip_ability_allowed": "whether it may still use an ability that flips it",
    "flipped": "whether the troop ends flipped",
}, labels={"attack": ("ataca", "attacks"), "flipped": ("queda volteada", "ends flipped")})
def move(speed: int, zones: int = 0, preparation: bool = False, attack: bool = False,
         flip_ability: bool = False, charge: bool = False, ends_in_threat_area: bool = False,
         distance: bool = False, unforced_target: Literal["flipped-troop", "enemy-player"] | None = None,
         flies_over: bool = False):
    """A troop's activation: how far it may move, and whether it may attack or use a flip ability.

    ``ends_in_threat_area``: it ends in a zone of an enemy troop's active threat area. ``flies_over``: the
    troop flies and that area is a non-flier's, which it ignores (no combat unless it chooses to attack).
    ``unforced_target``: what it attacks where no active threat area holds it: an adjacent flipped enemy
    troop (with its own threat area), or the enemy player (from their summoning line, no enemy troop adjacent:
    refused when it ends in an active threat area it does not fly over).
    """
    trace = Trace()
    limit = speed
    trace.add("Velocidad {s}", "Speed {s}", s=speed)
    if preparation:
        limit = max(0, limit - 1)
        trace.add("Turno de Preparación: −1 de Velocidad → {n} {n:p:zona|zonas}", "Preparation turn: −1 Speed → {n} {n:p:zone|zones}",
                  n=limit)
    # Preparation and Charge together: the seed does not say how they combine; both are applied as written (−1, +1).
    if charge and ends_in_threat_area:
        limit += 1
        trace.add("Carga: acaba en un área de amenaza enemiga, +1 zona → {n}",
                  "Charge: it ends in an enemy threat area, +1 zone → {n}", n=limit)
    if zones < 0:
        raise RuleError("bad-zones", "no se mueve un número negativo de zonas", "a troop cannot move a negative number of zones",
                        kind="impossible")
    if zones > limit:
        raise RuleError("too-far", "mueve {z} {z:p:zona|zonas} y solo puede {n}",
                        "it moves {z} {z:p:zone|zones} but may only move {n}", z=zones, n=limit)
    trace.add("Mueve {z} de {n} {n:p:zona|zonas}", "Moves {z} of {n} {n:p:zone|zones}", z=zones, n=limit)
    # A troop ending in an enemy threat area attacks (combat is not optional); the seed does not say whether a troop
    # in preparation may attack, and this reading makes it attack like any other (see preparation-turn's notes).
    # A flier ignores the threat area of a troop that does not fly: no combat unless it chooses to attack (seed, Vuela).
    if ends_in_threat_area and flies_over and not attack:
        trace.add("Vuela y el área es de una tropa que no vuela: la ignora y no combate, salvo que quiera atacar",
                  "It flies and the area is a non-flier's: it ignores it and does not fight unless it chooses to attack")
    elif ends_in_threat_area and not attack:
        attack = True
        trace.add("Acaba en el área de amenaza de una tropa enemiga: el combate no es voluntario, ataca",
                  "It ends in an enemy troop's threat area: combat is not optional, it attacks")
    # Attacks no threat area forces are legal too: a flipped troop, with the attacker's "propia Área de amenaza",
    # and the enemy player once no enemy troop is adjacent (seed, Combate); hit-player checks the latter.
    if unforced_target == "flipped-troop":
        attack = True
        trace.add("Elige atacar a la tropa volteada que tiene al lado, con su propia área de amenaza",
                  "It chooses to attack the adjacent flipped troop, with its own threat area")
    elif unforced_target == "enemy-player":
        # An active threat area it does not ignore means an enemy troop next to it: "No puede golpearse al jugador
        # enemigo hasta que no haya tropas enemigas adyacentes" (seed, Combate); a flier may ignore a non-flier (Vuela).
        if ends_in_threat_area and not flies_over:
            raise RuleError("enemy-troops-adjacent",
                            "acaba en el área de amenaza de una tropa enemiga, que está adyacente: tiene que combatir con ella y no puede golpear al jugador",
                            "it ends in an enemy troop's threat area, so that troop is adjacent: it must fight it and cannot hit the player")
        attack = True
        trace.add("Ataca al jugador enemigo: sin tropas enemigas adyacentes puede golpearlo",
                  "It attacks the enemy player: with no enemy troop adjacent it may hit them")
    if attack and not (ends_in_threat_area or distance or unforced_target):
        raise RuleError("not-in-threat-area",
                        "para atacar hay que acabar junto a una tropa enemiga (en su área de amenaza) o frente al jugador enemigo, o tener Distancia",
                        "to attack it must end next to an enemy troop (in its threat area) or facing the enemy player, or have Distance")
    allowed = True
    if attack:
        allowed = False
        trace.add("Ataca: se voltea, así que ya no puede usar una habilidad de volteo",
                  "It attacks: it flips, so it can no longer use a flip ability")
    if preparation and zones > 0:
        allowed = False
        trace.add("En Preparación, si se mueve no puede usar su habilidad de volteo hasta tu próximo turno",
                  "In its preparation turn, having moved it cannot use its flip ability until your next turn")
    if flip_ability and not allowed:
        code = "attack-flips" if attack else "preparation-choice"
        raise RuleError(code, "esta activación no permite además una habilidad de volteo",
                        "this activation does not also allow a flip ability")
    flipped = attack or flip_ability
    if flip_ability:
        trace.add("Usa su habilidad de volteo y se voltea", "It uses its flip ability and flips")
    return outcome(trace, max_zones=limit, flip_ability_allowed=allowed, flipped=flipped)


# --------------------------------------------------------------------------------------------
# Combat
# --------------------------------------------------------------------------------------------

_ABILITIES = {"fire_shield": ("Escudo Ígneo", "Fire Shield"), "last_word": ("Última Palabra", "Last Word"),
              "tenacity": ("Ahínco", "Tenacity"), "area_strike": ("Golpe en Área", "Area Strike"),
              "distance": ("Distancia", "Distance"), "flies": ("Vuela", "Flies"), "trample": ("Arrasar", "Trample")}
"""The abilities a troop's card text gives it in combat (Spanish and English names); Nullify removes them all."""
_ATTACKER_KEYS = {"attack", "life", "nullified"} | set(_ABILITIES)
_DEFENDER_KEYS = {"attack", "life", "flipped", "alert", "adjacent", "next_to_target", "gone", "replaces", "ally",
                  "nullified"} | set(_ABILITIES)


def _nullify(trace: Trace, name: str, data: dict) -> dict:
    """A troop under Nullify keeps its numbers and its place, and loses every ability of its card text."""
    if not data.get("nullified"):
        return data
    lost = sorted(k for k in _ABILITIES if data.get(k))
    trace.add("La tropa {n} está anulada: pierde {lost:none:nada}", "{n} is nullified: it loses {lost_en:none:nothing}", n=name,
              lost=[_ABILITIES[k][0] for k in lost], lost_en=[_ABILITIES[k][1] for k in lost])
    return {k: v for k, v in data.items() if k not in _ABILITIES}


def _check_keys(name: str, data: dict, allowed: set[str]) -> None:
    for key in data:
        if key not in allowed:
            raise RuleError("unknown-stat", "{t}: dato desconocido «{k}»", "{t}: unknown field “{k}”", t=name, k=key)
    for key in ("attack", "life"):
        if not isinstance(data.get(key), int) or isinstance(data.get(key), bool):
            raise RuleError("missing-stat", "{t}: falta su {k} (un número entero)",
                            "{t}: its {k} (a whole number) is missing", t=name, k=key, kind="incomplete")


DIES_BELOW = 1
"""A troop whose Life drops below 1 dies and is discarded (Daño de combate): a rule, never a player's input."""


@resolver("warlords-of-terra.damage",
          ranges={"life": covers(0, 9), "damage": covers(0, 9)},  # as a troop's values in combat: 0 to 9 taken
          outputs={"life": "Life left", "dead": "whether the troop dies (Life below 1)"},
          labels={"dead": ("muere", "dies")})
def damage(life: int, damage: int) -> Outcome:
    """One troop takes damage: it is subtracted from its Life, and below 1 Life the troop dies."""
    trace = Trace()
    left, dead = hit(trace, ("Tropa", "Troop"), life, damage, DIES_BELOW)
    return outcome(trace, life=left, dead=dead)


@resolver("warlords-of-terra.damage-exchange",
          ranges={k: covers(0, 9) for k in ("attacker_attack", "attacker_life", "defender_attack", "defender_life")},
          outputs={"attacker_life": "the attacker's Life left", "defender_life": "the defender's Life left",
                   "attacker_dead": "whether the attacker dies", "defender_dead": "whether the defender dies"},
          labels={"defender_life": ("vida del defensor", "defender's life"), "defender_dead": ("muere el defensor", "the defender dies")})
def damage_exchange(attacker_attack: int, attacker_life: int, defender_attack: int, defender_life: int) -> Outcome:
    """Two troops in combat at once: each one's Attack (ATQ on the card) is subtracted from the other's Life; below 1 Life
    a troop dies."""
    trace = Trace()
    d_left, d_dead = hit(trace, ("Defensor", "Defender"), defender_life, attacker_attack, DIES_BELOW)
    a_left, a_dead = hit(trace, ("Atacante", "Attacker"), attacker_life, defender_attack, DIES_BELOW)
    return outcome(trace, attacker_life=a_left, defender_life=d_left, attacker_dead=a_dead, defender_dead=d_dead)


@resolver("warlords-of-terra.combat",
          ranges={"attacker.*": covers(0, 9),  # the values of a troop (attack, life, Fire Shield X): no bound in the seed, 0 to 9 taken
                  "defenders.*.*": covers(0, 9),
                  "target": keys_of("defenders")},  # the seed: the attacker decides whom to hit (a calculator: a list)
          outputs={
    "target": "the troop the attacker chose to hit",
    "fighters": "enemy troops that fight the attacker (deal it damage), in input order",
    "struck": "troops that take the attacker's damage",
    "attacker_life": "the attacker's Life after combat damage",
    "attacker_dead": "whether the attacker dies (Life below 1)",
    "life": "each listed troop's Life after combat damage",
    "dead": "listed troops that die",
    "magical": "magical damage each troop took (Fire Shield), the attacker under its name",
    "flipped": "troops flipped after the combat, the attacker under its name",
    "player_damage": "damage dealt to the enemy player (Trample)",
})
def combat(attacker: dict[str, int | bool], defenders: dict[str, dict[str, int | bool | str]],
           target: str | None = None, behind: str | None = None, attacker_name: str = "attacker"):
    """A troop attacks: who is forced to fight, who is hit, combat damage (Attack taken from Life) and who flips.

    ``attacker``: ``attack``, ``life`` and the abilities it has (``fire_shield``: X, ``last_word``,
    ``tenacity``, ``area_strike``, ``distance``, ``flies``, ``trample``). ``defenders``: each enemy troop
    whose threat area holds the zone the attacker entered, or that it may choose to hit, with ``attack``,
    ``life``, ``flipped``, ``alert``, ``tenacity``, ``flies``, ``distance``, ``fire_shield``, ``adjacent``
    (default true), ``next_to_target`` (for a ranged Area Strike), ``gone`` (removed before the damage
    step) and ``replaces`` (the name of the troop it stands in for); an ``ally`` entry is one of the
    attacker's own troops (only hit by Trample). ``behind`` names what stands behind the target for
    Trample: a listed troop or ``player``. ``nullified`` (on any troop): a Nullify has wiped its ability
    text, so none of its abilities count.
    """
    _check_keys(attacker_name, attacker, _ATTACKER_KEYS)
    for name, d in defenders.items():
        _check_keys(name, d, _DEFENDER_KEYS)
    trace = Trace()
    a = _nullify(trace, attacker_name, attacker)
    defenders = {n: _nullify(trace, n, d) for n, d in defenders.items()}
    enemies = {n: d for n, d in defenders.items() if not d.get("ally") and not d.get("replaces")}
    forced = _forced(trace, a, enemies)
    target = _choose_target(trace, a, enemies, forced, target)
    struck = _struck(trace, a, enemies, target)
    behind_hit, player_damage = _trample(trace, a, defenders, target, struck, behind)
    # The forced ones and every enemy hit. The seed does not say whether troops reached by Area Strike that did not
    # force the combat strike back; reading: an attacked troop fights, so they do (see area-strike's notes).
    fighters = [n for n in enemies if n in forced or n in struck]
    resolve = _stand_ins(trace, defenders)
    fighters = [r for r in map(resolve, fighters) if r]
    struck = [r for r in map(resolve, struck) if r]
    behind_hit = resolve(behind_hit) if behind_hit else None
    hits = struck + ([behind_hit] if behind_hit else [])
    life, magical, a_life = _damage(trace, a, defenders, attacker_name, hits, behind_hit, fighters)
    flipped = _flips(trace, a, defenders, attacker_name, fighters)
    dead = [n for n in defenders if n in hits + fighters and life[n] < 1]
    a_dead = a_life < 1
    trace.add("Muertas (Vida por debajo de 1): {d:none:ninguna}", "Dead (Life below 1): {d:none:none}",
              d=dead + ([attacker_name] if a_dead else []))
    return outcome(trace, target=target, fighters=fighters, struck=hits, attacker_life=a_life, attacker_dead=a_dead,
                   life=life, dead=dead, magical=magical, flipped=flipped, player_damage=player_damage)


Troops = dict[str, dict]
"""Troops by name, each its data (attack, life, abilities...)."""


def _forced(trace: Trace, a: dict, enemies: Troops) -> list[str]:
    """Step 1: the enemies whose active threat area forces the combat."""
    forced: list[str] = []
    for n, d in enemies.items():
        if not d.get("adjacent", True):
            continue
        active = not d.get("flipped") or bool(d.get("alert"))
        if not active:
            trace.add("La tropa {n} está volteada: su área de amenaza no está activa", "{n} is flipped: its threat area is off", n=n)
            continue
        if d.get("flipped"):
            trace.add("La tropa {n} está volteada pero en Alerta en su línea de invocación: su área sigue activa",
                      "{n} is flipped but on Alert on its summoning line: its area stays active", n=n)
        if a.get("flies") and not d.get("flies"):
            trace.add("{n} no vuela: la tropa voladora ignora su área de amenaza", "{n} does not fly: the flier ignores its threat area", n=n)
            continue
        forced.append(n)
        trace.add("{n}: su área de amenaza obliga a combatir", "{n}: its threat area forces combat", n=n)
    return forced


def _choose_target(trace: Trace, a: dict, enemies: Troops, forced: list[str], target: str | None) -> str:
    """Step 2: the troop the attacker hits (the one forcing it, or its choice among several)."""
    if target is None:
        if len(forced) == 1:
            target = forced[0]
        elif not forced:
            raise RuleError("no-combat", "ninguna área de amenaza activa obliga a combatir y no se ha elegido a quién golpear",
                            "no active threat area forces a combat and no troop was chosen to hit", kind="elsewhere")
        else:
            raise RuleError("choose-target", "{f} obligan a combatir: el atacante debe elegir a quién golpea",
                            "{f} force combat: the attacker must choose whom to hit", f=forced, kind="incomplete")
    if target not in enemies:
        raise RuleError("unknown-target", "{t} no es una tropa enemiga de este combate",
                        "{t} is not an enemy troop in this combat", t=target, kind="impossible")
    if not enemies[target].get("adjacent", True) and not a.get("distance"):
        raise RuleError("out-of-reach", "{t} no está adyacente y el atacante no tiene Distancia",
                        "{t} is not adjacent and the attacker lacks Distance", t=target)
    trace.add("El atacante golpea a {t}", "The attacker hits {t}", t=target)
    return target


def _struck(trace: Trace, a: dict, enemies: Troops, target: str) -> list[str]:
    """Step 3: who takes the attacker's hit (the target, and its neighbours with Area Strike)."""
    struck = [target]
    if a.get("area_strike"):
        ranged = not enemies[target].get("adjacent", True)
        for n, d in enemies.items():
            if n == target:
                continue
            if (ranged and d.get("next_to_target")) or (not ranged and d.get("adjacent", True)):
                struck.append(n)
        trace.add("Golpe en Área: no golpea a ninguna otra tropa{s:none:}" if not struck[1:] else "Golpe en Área: golpea también a {s}",
                  "Area Strike: it hits no other troop{s:none:}" if not struck[1:] else "Area Strike: it also hits {s}", s=struck[1:])
    return struck


def _trample(trace: Trace, a: dict, defenders: Troops, target: str, struck: list[str],
             behind: str | None) -> tuple[str | None, int]:
    """Trample: the troop behind the target that is hit too, and the damage dealt to the enemy player."""
    behind_hit: str | None = None
    player_damage = 0
    if behind is not None:
        if behind != "player" and behind not in defenders:
            raise RuleError("unknown-target", "{b} no está en la lista de tropas", "{b} is not a listed troop", b=behind, kind="impossible")
        if behind == target:
            raise RuleError("behind-is-target", "{b} es el blanco: una tropa no puede estar detrás de sí misma",
                            "{b} is the target: a troop cannot stand behind itself", b=behind, kind="impossible")
        if not a.get("trample"):
            # What stands behind the target is the board, not a choice: without Trample (or with it nullified)
            # the attack is an ordinary one and hits nothing behind (seed: only Arrasar does). No refusal.
            trace.add("Sin Arrasar: lo que hay detrás de {t} no recibe el golpe", "No Trample: what stands behind {t} is not hit",
                      t=target)
        elif behind == "player":
            player_damage = int(a["attack"])
            trace.add("Arrasar: detrás está el jugador enemigo, que recibe {d}", "Trample: the enemy player is behind and takes {d}",
                      d=player_damage)
        elif behind in struck:
            # The seed does not say what happens when Trample and a ranged Area Strike name the same troop;
            # reading: a troop named twice takes a single hit (see trample's notes).
            trace.add("Arrasar: {b}, detrás de {t}, ya recibe el golpe del Golpe en Área; no se golpea dos veces",
                      "Trample: {b}, behind {t}, already takes the Area Strike hit; it is not hit twice", b=behind, t=target)
        else:
            # The seed does not say whether the troop behind strikes back: it only takes the damage (trample's notes).
            behind_hit = behind
            trace.add("Arrasar: golpea también a {b}, detrás de {t}{ally}", "Trample: it also hits {b}, behind {t}{ally_en}",
                      b=behind, t=target, ally=" (¡aliada!)" if defenders[behind].get("ally") else "",
                      ally_en=" (an ally!)" if defenders[behind].get("ally") else "")
    return behind_hit, player_damage


def _stand_ins(trace: Trace, defenders: Troops) -> Callable[[str], str | None]:
    """Step 5: troops gone before the damage step, and who stands in for them."""
    stand_in = {str(d["replaces"]): n for n, d in defenders.items() if d.get("replaces")}

    def resolve(n: str) -> str | None:
        if not defenders[n].get("gone"):
            return n
        if n in stand_in:
            trace.add("{n} desaparece antes del daño; {r} la suplanta y combate", "{n} is gone before damage; {r} replaces it and fights",
                      n=n, r=stand_in[n])
            return stand_in[n]
        trace.add("{n} desaparece antes del daño: ni hace ni recibe daño", "{n} is gone before damage: it deals and takes none", n=n)
        return None

    return resolve


def _damage(trace: Trace, a: dict, defenders: Troops, attacker_name: str, hits: list[str], behind_hit: str | None,
            fighters: list[str]) -> tuple[dict[str, int], dict[str, int], int]:
    """Step 6: all damage at once — the attacker's hits, Fire Shields, and the fighters striking back."""
    life = {n: int(d["life"]) for n, d in defenders.items()}
    magical = {n: 0 for n in defenders}
    magical[attacker_name] = 0
    a_life = int(a["life"])
    for n in hits:
        d = defenders[n]
        life[n] -= int(a["attack"])
        trace.add("{n} recibe {d} de daño físico → Vida {l}", "{n} takes {d} physical damage → Life {l}",
                  n=n, d=int(a["attack"]), l=life[n])
        # Fire Shield burns an adjacent enemy that hits it; the seed does not say how it combines with Last Word:
        # reading, a Last Word attacker still hits, so it is burned (see fire-shield's notes).
        shield = int(d.get("fire_shield", 0))
        if shield and n != behind_hit and d.get("adjacent", True):
            a_life -= shield
            magical[attacker_name] += shield
            trace.add("Escudo Ígneo de {n}: el atacante recibe {x} de daño mágico → Vida {l}",
                      "{n}'s Fire Shield: the attacker takes {x} magical damage → Life {l}", n=n, x=shield, l=a_life)
    for n in fighters:
        d = defenders[n]
        if d.get("last_word"):
            trace.add("{n} tiene Última Palabra, pero defiende: combate con normalidad",
                      "{n} has Last Word, but it is defending: it fights normally", n=n)
        if a.get("last_word"):
            trace.add("Última Palabra: {n} no puede golpear al atacante", "Last Word: {n} cannot hit the attacker", n=n)
            continue
        if not d.get("adjacent", True) and not d.get("distance"):
            trace.add("{n} no está adyacente y no tiene Distancia: no devuelve el golpe",
                      "{n} is not adjacent and lacks Distance: it cannot strike back", n=n)
            continue
        a_life -= int(d["attack"])
        trace.add("{n} golpea al atacante: {d} de daño físico → Vida {l}", "{n} hits the attacker: {d} physical damage → Life {l}",
                  n=n, d=int(d["attack"]), l=a_life)
        shield = int(a.get("fire_shield", 0))
        if shield and d.get("adjacent", True):
            life[n] -= shield
            magical[n] += shield
            trace.add("Escudo Ígneo del atacante: {n} recibe {x} de daño mágico → Vida {l}",
                      "The attacker's Fire Shield: {n} takes {x} magical damage → Life {l}", n=n, x=shield, l=life[n])
    return life, magical, a_life


def _flips(trace: Trace, a: dict, defenders: Troops, attacker_name: str, fighters: list[str]) -> list[str]:
    """Step 7: troops left flipped after the combat (Tenacity keeps a troop upright)."""
    # Every troop that fights flips unless it has Tenacity: the seed says so for the troops of a double threat area
    # and implies it for any combatant by defining Tenacity as not flipping in combat.
    flipped: list[str] = []
    if a.get("tenacity"):
        trace.add("Ahínco: el atacante no se voltea", "Tenacity: the attacker does not flip")
    else:
        flipped.append(attacker_name)
    for n in fighters:
        if defenders[n].get("tenacity"):
            trace.add("Ahínco: {n} no se voltea y mantiene su área de amenaza", "Tenacity: {n} does not flip and keeps its threat area", n=n)
        else:
            flipped.append(n)
    for n, d in defenders.items():
        if d.get("flipped") and n not in flipped:
            flipped.append(n)
    trace.add("Quedan volteadas: {f:none:ninguna}", "Left flipped: {f:none:none}", f=flipped)
    return flipped


@resolver("warlords-of-terra.hit-player", outputs={
    "allowed": "whether the troop may take the enemy player as the target of its attack",
    "player_hit": "whether the enemy player takes a hit (as the target, or through Trample)",
    "must_fight": "adjacent enemy troops it has to fight instead",
    "ignored": "adjacent enemy troops a flier ignores",
}, labels={"adjacent": ("tropas enemigas adyacentes", "adjacent enemy troops")})
def hit_player(adjacent: dict[str, dict[str, bool]] = {}, flies: bool = False, trample: bool = False):
    """May a troop on the enemy's summoning line hit the enemy player? Not as its target while an enemy troop is adjacent.

    ``adjacent`` lists the enemy troops next to it: ``flies`` (whether it flies) and ``player_behind``
    (the enemy player stands right behind that troop, seen from the attacker). A troop that flies ignores
    the non-flying ones; Area Strike changes nothing here. Trample never makes the player the target,
    but the troop it fights passes the hit on to what stands behind it: the player, when it is there.
    """
    trace = Trace()
    blockers: list[str] = []
    ignored: list[str] = []
    for n, d in adjacent.items():
        for key in d:
            if key not in ("flies", "player_behind"):
                raise RuleError("unknown-stat", "{t}: dato desconocido «{k}»", "{t}: unknown field “{k}”", t=n, k=key)
        if flies and not d.get("flies"):
            ignored.append(n)
            trace.add("{n} no vuela: la voladora la ignora", "{n} does not fly: the flier ignores it", n=n)
        else:
            blockers.append(n)
    if not blockers:
        trace.add("Sin tropas enemigas adyacentes que cuenten: puede golpear al jugador",
                  "No enemy troop adjacent that counts: it may hit the player")
        return outcome(trace, allowed=True, player_hit=True, must_fight=[], ignored=ignored)
    shields = [n for n in blockers if adjacent[n].get("player_behind")]
    if not (trample and shields):
        raise RuleError("enemy-troops-adjacent", "hay tropas enemigas adyacentes ({b}): hay que combatir con ellas antes",
                        "enemy troops are adjacent ({b}): it must fight them first", b=blockers)
    trace.add("Tropas enemigas adyacentes ({b}): no puede tomar al jugador como blanco y combate con ellas",
              "Enemy troops are adjacent ({b}): it cannot target the player and fights them", b=blockers)
    trace.add("Arrasar: si golpea a {s}, el golpe sigue hasta el jugador, que está detrás",
              "Trample: if it hits {s}, the blow carries on to the player standing behind", s=shields)
    return outcome(trace, allowed=False, player_hit=True, must_fight=blockers, ignored=ignored)


# --------------------------------------------------------------------------------------------
# Abilities
# --------------------------------------------------------------------------------------------


@resolver("warlords-of-terra.luck", outputs={
    "success": "whether the luck die shows a horseshoe (absent without a result)",
    "roll_when": "when the die is rolled: the card's own moment, or on entering the battlefield",
})
def luck(result: Literal["horseshoe", "blank"] | None = None, moment: str | None = None,
         horseshoe_first: bool = True):
    """The luck die: a six-sided die, two faces with a horseshoe; a horseshoe carries out the card's text."""
    trace = Trace()
    favourable = sum(1 for f in LUCK_DIE if f == "horseshoe")
    odds = Fraction(favourable, len(LUCK_DIE))
    trace.add("Dado de suerte: {h} de {n} caras con herradura", "Luck die: {h} of {n} faces show a horseshoe",
              h=favourable, n=len(LUCK_DIE))
    if moment:
        when = moment
        trace.add("La carta dice cuándo tirar: {m}", "The card says when to roll: {m}", m=moment)
    elif horseshoe_first:
        when = "on entering the battlefield"
        trace.add("La carta no dice cuándo y la herradura va primero: se tira al entrar en el campo de batalla",
                  "The card does not say when and the horseshoe comes first: roll on entering the battlefield")
    else:
        raise RuleError("timing-not-covered", "el texto no dice cuándo tirar y la herradura no va al principio: el artículo no cubre el caso",
                        "the text does not say when to roll and the horseshoe is not first: the article does not cover it", kind="unstated")
    success = None if result is None else result == "horseshoe"
    if result is not None:
        trace.add("Sale {r}: {ok}", "Rolls {r}: {ok_en}", r=result, ok="se aplica" if success else "no se aplica",
                  ok_en="it applies" if success else "it does not apply")
    return outcome(trace, Chance.of(odds, "sacar una herradura", "rolling a horseshoe", output="success"),
                   success=success, roll_when=when)


@resolver("warlords-of-terra.regenerate",
          ranges={"card_life": covers(0, 9),  # no bound in the seed: 0 to 9 taken
                  "x": covers(0, 5),  # Regenerate X: 0 to 5 taken
                  "damage": covers(0, 9),
                  "turns": covers(1, 5)},
          outputs={
    "life": "Life after the damage and the end-of-turn healing",
    "dead": "whether the troop died before it could regenerate",
}, labels={"dead": ("muere", "dies"), "card_life": ("vida de la carta", "card's life"), "damage": ("daño recibido", "damage taken")})
def regenerate(card_life: int, x: int, damage: int = 0, turns: int = 1):
    """Regenerate (X): the damage taken first, then X Life healed at the end of each turn, up to the card's Life.

    ``card_life`` is the Life printed on the card; ``damage`` what the troop has taken when the turn ends.
    """
    # Regenerate (0) heals nothing; no rule forbids it, so only a negative X or no turn at all is refused.
    if x < 0 or turns < 1:
        raise RuleError("bad-value", "X no es negativo y hay al menos un turno", "X is not negative and there is at least one turn",
                        kind="impossible")
    if card_life < 1:
        raise RuleError("already-dead", "una tropa con Vida por debajo de 1 ya ha muerto y se ha descartado",
                        "a troop with Life below 1 is already dead and discarded", kind="impossible")
    trace = Trace()
    left = card_life - damage
    if damage:
        trace.add("Recibe {d} de daño → Vida {l}", "Takes {d} damage → Life {l}", d=damage, l=left)
        if left < 1:
            trace.add("Su Vida baja de 1: muere y se descarta antes del final del turno",
                      "Its Life drops below 1: it dies and is discarded before the end of the turn")
            return outcome(trace, life=left, dead=True)
    for t in range(1, turns + 1):
        if left + x > card_life:
            # The seed gives no cap on the healing, nor says there is none: past the card's Life it is not settled.
            raise RuleError("above-card-life",
                            "al final del turno {t} la curación llevaría la Vida de {l} a {n}, por encima de la de la carta "
                            "({p}); el texto no dice si Regenerar puede pasar de ella",
                            "at the end of turn {t} the healing would take Life from {l} to {n}, above the card's ({p}); "
                            "the text does not say whether Regenerate can go past it",
                            t=t, l=left, n=left + x, p=card_life, kind="unstated")
        left += x
        trace.add("Final del turno {t}: Regenerar ({x}) → Vida {l}", "End of turn {t}: Regenerate ({x}) → Life {l}", t=t, x=x, l=left)
    return outcome(trace, life=left, dead=False)


@resolver("warlords-of-terra.immune", outputs={
    "ignored": "whether the immune troop ignores the effect",
    "may_choose": "whether a player carrying out the effect may pick the immune troop",
})
def immune(immune_to: Literal["spells", "items", "troops", "places"],
           card_type: Literal["spells", "items", "troops", "places"],
           affects: Literal["troop", "player"], mass: bool = False):
    """Immune to ...: effects of that card type that touch the troop are ignored, even mass effects."""
    trace = Trace()
    if card_type != immune_to:
        trace.add("La carta no es del tipo al que es inmune: le afecta con normalidad",
                  "The card is not of the type it is immune to: it affects it normally")
        return outcome(trace, ignored=False, may_choose=True)
    if affects == "player":
        trace.add("El efecto afecta al jugador, no a la tropa: no se ignora y el jugador puede elegirla",
                  "The effect affects the player, not the troop: it is not ignored and the player may pick it")
        return outcome(trace, ignored=False, may_choose=True)
    trace.add("El efecto afecta a la tropa{m}: lo ignora", "The effect affects the troop{m_en}: it ignores it",
              m=" (efecto masivo)" if mass else "", m_en=" (a mass effect)" if mass else "")
    return outcome(trace, ignored=True, may_choose=False)


LABELS = {
    "gold": ("oro", "gold"),
    "mana": ("maná", "mana"),
    "places": ("lugares", "places"),
    "gold_left": ("oro restante", "gold left"),
    "mana_left": ("maná restante", "mana left"),
    "built": ("construidos", "built"),
    "attacker": ("atacante", "attacker"),
    "defenders": ("defensores", "defenders"),
    "target": ("objetivo", "target"),
    "behind": ("tropa detrás", "troop behind"),
    "attacker_name": ("nombre del atacante", "attacker's name"),
    "fighters": ("combaten con el atacante", "fight the attacker"),
    "struck": ("reciben el daño del atacante", "take the attacker's damage"),
    "attacker_attack": ("ATQ del atacante", "attacker's Attack"),
    "attacker_life": ("vida del atacante", "attacker's life"),
    "defender_attack": ("ATQ del defensor", "defender's Attack"),
    "attacker_dead": ("muere el atacante", "the attacker dies"),
    "life": ("vida", "life"),
    "dead": ("mueren", "die"),
    "magical": ("daño mágico", "magical damage"),
    "flipped": ("volteadas", "flipped"),
    "player_damage": ("daño al jugador enemigo", "damage to the enemy player"),
    "adjacent": ("adyacente", "adjacent"),
    "flies": ("vuela", "flies"),
    "allowed": ("permitido", "allowed"),
    "player_hit": ("el jugador enemigo recibe el golpe", "the enemy player is hit"),
    "must_fight": ("tiene que combatir con", "must fight"),
    "ignored": ("ignoradas", "ignored"),
    "immune_to": ("inmune a", "immune to"),
    "card_type": ("tipo de carta", "card type"),
    "affects": ("afecta a", "affects"),
    "mass": ("efecto en masa", "mass effect"),
    "may_choose": ("puede elegirla", "may pick it"),
    "spells": ("hechizos", "spells"),
    "items": ("objetos", "items"),
    "troops": ("tropas", "troops"),
    "troop": ("una tropa", "a troop"),
    "player": ("un jugador", "a player"),
    "result": ("resultado del dado", "die result"),
    "moment": ("momento que indica la carta", "moment the card gives"),
    "horseshoe_first": ("la herradura va primero", "the horseshoe comes first"),
    "success": ("se aplica", "applies"),
    "roll_when": ("se tira", "rolled"),
    "on entering the battlefield": ("al entrar en el campo de batalla", "on entering the battlefield"),
    "horseshoe": ("herradura", "horseshoe"),
    "blank": ("cara en blanco", "blank face"),
    "speed": ("velocidad", "speed"),
    "zones": ("zonas", "zones"),
    "preparation": ("en preparación", "in preparation"),
    "attack": ("ATQ", "Attack"),  # the card's stat: ATQ as the seed (and the card) names it, Attack in English
    "flip_ability": ("usa una habilidad de volteo", "uses a flip ability"),
    "charge": ("carga", "charges"),
    "ends_in_threat_area": ("acaba en un área de amenaza enemiga activa", "ends in an active enemy threat area"),
    "unforced_target": ("blanco elegido sin área de amenaza activa", "target chosen with no active threat area"),
    "flipped-troop": ("una tropa enemiga volteada adyacente", "an adjacent flipped enemy troop"),
    "enemy-player": ("el jugador enemigo, desde su línea de invocación (sin tropas enemigas adyacentes; una voladora ignora las que no vuelan)",
                     "the enemy player, from their summoning line (no enemy troop adjacent; a flier ignores non-fliers)"),
    "flies_over": ("vuela y el área es de una tropa que no vuela", "flies, and the area is a non-flier's"),
    "max_zones": ("zonas que puede mover", "zones it may move"),
    "flip_ability_allowed": ("aún puede usar una habilidad de volteo", "may still use an ability that flips it"),
    "x": ("X", "X"),
    "damage": ("daño", "damage"),
    "turns": ("turnos", "turns"),
    "turn": ("turno", "turn"),
    "divert": ("recursos desviados", "resources diverted"),
    "places_gold": ("oro de tus lugares (construidos en turnos anteriores)", "gold from your places (built in earlier turns)"),
    "places_mana": ("maná de tus lugares (construidos en turnos anteriores)", "mana from your places (built in earlier turns)"),
    "hero_takes": ("el héroe toma", "the Hero takes"),
    "first_player": ("es el primer jugador", "is the first player"),
    "hero_power": ("poder del héroe ganado", "Hero's Power gained"),
    "producing": ("lugares que producen", "places that produce"),
    "draws": ("cartas robadas", "cards drawn"),
    **_ABILITIES,
    "distance": ("ataque a Distancia", "Distance attack"),
    "nullified": ("anulada", "nullified"),
    "alert": ("en Alerta", "on Alert"),
    "next_to_target": ("junto al objetivo", "next to the target"),
    "gone": ("ya no está", "gone"),
    "replaces": ("sustituye a", "replaces"),
    "ally": ("aliada", "ally"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English); the abilities by their card names."""
