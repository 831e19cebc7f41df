"""BattleTech, Solaris VII: the resolvers behind the worked examples of this pack.

Every number comes from the seed ``002_48351861e8e550db.txt`` (Solaris VII arena rules and
clarifications). Where the seed points to a table it does not contain (skid modifiers, underwater
ranges, coincident movement, falling damage, standard elevation costs), the value is an input of
the resolver and never a constant here. Piloting rolls succeed when 2D6 equals or beats the
modified piloting skill, as the seed says for skids.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import Literal

from kb.mechanics import Chance, RuleError, Trace, outcome, resolver, between, covers, items, window
from kb.mechanics.dice import chance, check_roll, initiative as _roll_order, parse

TWO_D6 = "2d6"

SWAMP_EXTRA_MP = 1
"""Entering any swamp hex costs this much more than its base terrain (hovercraft excepted)."""
INFANTRY_STUCK_AT_MOST = 4
"""Infantry entering a swamp is stuck on 2D6 of this or less."""
INFANTRY_ESCAPE_AT_LEAST = 5
"""Stuck infantry escapes on 2D6 of this or more."""

UNDERWATER_MP = {1: 2, 2: 4}
"""MP a submerged 'Mech spends per water hex entered, by depth."""
HULL_BREACH_AT_LEAST = 10
"""A damaging hit on an underwater unit breaches the hull on 2D6 of this or more."""

CLIMB_MP_PER_LEVEL = {2: 2, 1: 3}
"""MP per level climbed, by number of working hand actuators."""
CLIMBING_PILOTING_MODIFIER = {2: 1, 1: 2}
"""Modifier to every piloting roll made while climbing, by number of working hand actuators."""
ATTACKS_AGAINST_CLIMBER = -2
"""To-hit modifier for any attack against a climbing 'Mech."""
ATTACKS_AGAINST_STUCK = -2
"""To-hit modifier of every shot and physical attack against a unit stuck in a swamp."""
DROP_DOWN_MP = 4
"""MP to drop down more than 2 levels, whatever the levels or terrain."""

MASC_THRESHOLDS: list[int | None] = [3, 5, 7, 11, None]
"""2D6 needed on the 1st, 2nd, 3rd, 4th consecutive turn of MASC; the 5th fails automatically."""
MASC_DIVISOR = {"clan": 25, "inner-sphere": 20}
"""The 'Mech's tonnage is divided by this to weigh its MASC."""


def _odds_at_least(need: int) -> Fraction:
    fav, total = chance(parse(TWO_D6), at_least=need)
    return Fraction(fav, total)


def _shown_odds(need: int) -> str:
    """The odds of 2D6 >= need as ``favourable/36``, unreduced, the way players count them."""
    fav, total = chance(parse(TWO_D6), at_least=need)
    return f"{fav}/{total}"


def _check_2d6(roll: int | None) -> None:
    check_roll(parse(TWO_D6), roll)


def _two_mechs(mechs: list[str]) -> None:
    """The seed's conflicts are between two 'Mechs: fewer is no conflict; more, a case it does not settle."""
    if len(mechs) < 2:
        raise RuleError("two-mechs", "un conflicto de movimiento necesita dos 'Mechs", "a movement conflict needs two 'Mechs",
                        kind="impossible")
    if len(mechs) > 2:
        raise RuleError("two-mechs", "el texto solo resuelve conflictos entre dos 'Mechs, no entre {n}",
                        "the text only settles conflicts between two 'Mechs, not among {n}", kind="unstated", n=len(mechs))


def _initiative_winner(trace: Trace, rolls: list[dict[str, int]], mechs: list[str]) -> tuple[str, str]:
    """Each 'Mech rolls 2D6, the higher wins; tied rounds are rolled again. Returns (winner, loser)."""
    _two_mechs(mechs)
    for n, rnd in enumerate(rolls, 1):
        # A roll for a 'Mech outside the conflict cannot happen; a missing roll is a missing fact (not a rule).
        if set(rnd) - set(mechs):
            raise RuleError("bad-initiative", "la tirada {n} da un 2D6 a quien no está en el conflicto ({mechs})",
                            "round {n} gives a 2D6 to someone outside the conflict ({mechs})", kind="impossible",
                            n=n, mechs=mechs)
        if set(rnd) != set(mechs):
            raise RuleError("bad-initiative", "la tirada {n} debe dar un 2D6 a cada 'Mech ({mechs})",
                            "round {n} must give a 2D6 to each 'Mech ({mechs})", kind="incomplete", n=n, mechs=mechs)
        for v in rnd.values():
            _check_2d6(v)
        a, b = mechs
        trace.add("Iniciativa, tirada {n}: {a}={ra}, {b}={rb}", "Initiative, round {n}: {a}={ra}, {b}={rb}",
                  n=n, a=a, ra=rnd[a], b=b, rb=rnd[b])
        if rnd[a] != rnd[b]:
            win, lose = (a, b) if rnd[a] > rnd[b] else (b, a)
            trace.add("Gana {w} (más alto); pierde {l}", "{w} wins (higher); {l} loses", w=win, l=lose)
            return win, lose
        trace.add("Empate: se repite la tirada", "Tie: roll again")
    raise RuleError("unresolved-tie", "la iniciativa sigue empatada: falta otra tirada",
                    "initiative is still tied: another round of rolls is needed", kind="incomplete")


# --- Swamp -------------------------------------------------------------------------------------

@resolver("battletech-solaris.swamp-cost",
          ranges={"base_cost": covers(1, 6)},  # no cost in the seed: 1 (a hex costs at least 1 MP) to 6 taken
          outputs={"cost": "MP to enter the swamp hex"})
def swamp_cost(base_cost: int, unit: Literal["mech", "ground-vehicle", "infantry", "hovercraft"],
               base_allows_unit: bool = True):
    """MP to enter a swamp hex: the base terrain's cost plus 1, except for hovercraft."""
    trace = Trace()
    if base_cost < 1:
        raise RuleError("bad-cost", "el coste del terreno base es de al menos 1 PM",
                        "the base terrain costs at least 1 MP", kind="impossible")
    if not base_allows_unit:
        raise RuleError("base-terrain-prohibited",
                        "el terreno base ya prohíbe la entrada a esta unidad; el pantano no lo cambia",
                        "the base terrain already bars this unit; the swamp does not change that")
    if unit == "hovercraft":
        trace.add("Hovercraft: no paga el PM extra del pantano; cuesta {c} PM",
                  "Hovercraft: no extra swamp MP; it costs {c} MP", c=base_cost)
        return outcome(trace, cost=base_cost)
    cost = base_cost + SWAMP_EXTRA_MP
    trace.add("Terreno base {b} PM + {x} por pantano = {c} PM", "Base terrain {b} MP + {x} for swamp = {c} MP",
              b=base_cost, x=SWAMP_EXTRA_MP, c=cost)
    return outcome(trace, cost=cost)


@resolver("battletech-solaris.swamp-check",
          ranges={"piloting_skill": covers(2, 13),  # no skill range in the seed: 2 (always) to 13 (never) cover every 2D6 odds
                  "roll": between(2, 12)},  # 2D6
          outputs={
    "check": "the roll made: piloting, infantry-2d6, automatic (stuck, no roll) or none (not stuck, no roll)",
    "target": "2D6 needed to stay free (on entering) or to get out (on escaping)",
    "stuck": "whether the unit is stuck after this roll (absent without a roll)",
})
def swamp_check(unit: Literal["mech", "ground-vehicle", "infantry"], moment: Literal["entering", "escaping"],
                jumping: bool = False, piloting_skill: int | None = None, roll: int | None = None):
    """Getting stuck in a swamp on entering, or getting out at the start of the next movement phase.

    The stated probability is the chance of ending free: not stuck on entering, out on escaping.
    """
    trace = Trace()
    _check_2d6(roll)
    if moment == "entering" and jumping:
        if unit == "mech":
            trace.add("Un 'Mech que aterriza saltando en un pantano queda atrapado sin tirar",
                      "A 'Mech landing from a jump in a swamp is stuck with no roll")
            return outcome(trace, _free(Fraction(0), moment), check="automatic", target=None, stuck=True)
        if unit == "infantry":
            trace.add("La infantería que salta no queda atrapada", "Jumping infantry does not get stuck")
            return outcome(trace, _free(Fraction(1), moment), check="none", target=None, stuck=False)
        raise RuleError("cannot-jump", "solo los 'Mechs y la infantería saltan en estas reglas",
                        "only 'Mechs and infantry jump in these rules", kind="unstated")
    if unit == "infantry":
        need = INFANTRY_STUCK_AT_MOST + 1 if moment == "entering" else INFANTRY_ESCAPE_AT_LEAST
        if moment == "entering":
            trace.add("Infantería: 2D6, atrapada con {m} o menos, libre con {n} o más",
                      "Infantry: 2D6, stuck on {m} or less, free on {n} or more", m=INFANTRY_STUCK_AT_MOST, n=need)
        else:
            trace.add("Infantería atrapada: sale con {n} o más en 2D6", "Stuck infantry: gets out on 2D6 of {n} or more",
                      n=need)
        check = "infantry-2d6"
    else:
        if piloting_skill is None:
            raise RuleError("missing-skill", "hace falta la habilidad de pilotaje de la unidad",
                            "the unit's piloting skill is needed", kind="incomplete")
        need = piloting_skill
        what = "al entrar" if moment == "entering" else "al principio de la fase de movimiento"
        what_en = "on entering" if moment == "entering" else "at the start of the movement phase"
        trace.add("Chequeo de pilotaje {w}: hace falta {n} o más en 2D6", "Piloting roll {w_en}: needs 2D6 of {n} or more",
                  w=what, w_en=what_en, n=need)
        check = "piloting"
    odds = _odds_at_least(need)
    stuck = None
    if roll is not None:
        stuck = roll < need
        if stuck and moment == "entering" and unit == "mech":
            trace.add("Sale {r}: atrapada el resto del turno (un 'Mech que falla no se cae)",
                      "Rolls {r}: stuck for the rest of the turn (a 'Mech that fails does not fall)", r=roll)
        elif stuck and moment == "entering":
            trace.add("Sale {r}: atrapada el resto del turno", "Rolls {r}: stuck for the rest of the turn", r=roll)
        elif stuck:
            trace.add("Sale {r}: sigue atrapada y repetirá en la próxima fase de movimiento",
                      "Rolls {r}: still stuck, it tries again next movement phase", r=roll)
        else:
            trace.add("Sale {r}: libre", "Rolls {r}: free", r=roll)
    return outcome(trace, _free(odds, moment, roll="roll"), check=check, target=need, stuck=stuck)


@resolver("battletech-solaris.infantry-swamp-check",
          ranges={"roll": between(2, 12)},  # 2D6
          outputs={
    "check": "the roll made: infantry-2d6, or none (jumping infantry, no roll)",
    "target": "2D6 needed to stay free (on entering) or to get out (on escaping)",
    "stuck": "whether the infantry is stuck after this roll (absent without a roll)",
})
def infantry_swamp_check(moment: Literal["entering", "escaping"], jumping: bool = False, roll: int | None = None):
    """Infantry in a swamp: a flat 2D6 on entering or getting out, no piloting skill (swamp-check for infantry)."""
    return swamp_check("infantry", moment, jumping, None, roll)


def _free(p: Fraction, moment: str, roll: str | None = None) -> Chance:
    """The chance of ending free of the swamp: not stuck on entering, out on escaping."""
    es, en = (("no quedar atrapada al entrar", "not getting stuck on entering") if moment == "entering"
              else ("salir del pantano", "getting out of the swamp"))
    return Chance.of(p, es, en, output="stuck", when=False, roll=roll, dice="2d6" if roll else None)


@resolver("battletech-solaris.to-hit",
          ranges={"base": covers(2, 16),  # no range in the seed: 2 to 16 (13 or more after both -2s always misses)
                  "roll": between(2, 12)},  # 2D6
          outputs={
    "modifier": "the to-hit modifier from the target's situation",
    "target": "2D6 the attack needs after that modifier",
    "hit": "whether the attack hits (absent without a roll)",
})
def to_hit(base: int, stuck_in_swamp: bool = False, climbing: bool = False, roll: int | None = None):
    """An attack (shot or physical) against a unit stuck in a swamp or climbing: −2 to hit for each.

    ``base`` is the 2D6 the attack needs before these modifiers (gunnery or piloting plus the usual
    modifiers, which the text does not give). The stated probability is the chance of hitting.
    """
    trace = Trace()
    _check_2d6(roll)
    modifier = 0
    trace.add("El ataque necesita {b} antes de la situación del blanco", "The attack needs {b} before the target's situation", b=base)
    if stuck_in_swamp:
        modifier += ATTACKS_AGAINST_STUCK
        trace.add("Blanco atrapado en un pantano: {m:+d}", "Target stuck in a swamp: {m:+d}", m=ATTACKS_AGAINST_STUCK)
    if climbing:
        modifier += ATTACKS_AGAINST_CLIMBER
        trace.add("Blanco escalando: {m:+d}", "Target climbing: {m:+d}", m=ATTACKS_AGAINST_CLIMBER)
    target = base + modifier
    trace.add("Hace falta {t} o más en 2D6 ({p})", "Needs 2D6 of {t} or more ({p})", t=target, p=_shown_odds(target))
    hit = None
    if roll is not None:
        hit = roll >= target
        trace.add("Sale {r}: {h}", "Rolls {r}: {h_en}", r=roll, h="impacta" if hit else "falla", h_en="hits" if hit else "misses")
    event = Chance.of(_odds_at_least(target), "impactar", "hitting", output="hit", roll="roll", dice="2d6")
    return outcome(trace, event, modifier=modifier, target=target, hit=hit)


# --- Simultaneous movement ----------------------------------------------------------------------

CASES = ("different-paths-different-targets", "different-paths-same-target",
         "similar-paths-different-targets", "similar-paths-same-target")


@resolver("battletech-solaris.movement-conflict",
          ranges={"rolls[].*": between(2, 12)},  # 2D6 initiative
          outputs={
    "case": "the case that applies after jumping is taken into account (or no-conflict)",
    "winner": "the 'Mech that won the 2D6 initiative",
    "first": "the 'Mech that moves first (absent when the seed does not say)",
    "final": "the hex where each 'Mech ends its movement",
    "options": "what the winner may do in the firing phase",
    "resolved": "false when the seed's general resolution for the case is missing",
})
def movement_conflict(case: Literal["different-paths-different-targets", "different-paths-same-target",
                                    "similar-paths-different-targets", "similar-paths-same-target"],
                      paths: dict[str, list[str]], rolls: list[dict[str, int]], jumping: list[str] = []):
    """Two 'Mechs moving at once: where each ends, by the case the referee reads from the map.

    ``paths`` lists each 'Mech's hexes from its starting hex to its target hex.
    """
    trace = Trace()
    mechs = list(paths)
    _two_mechs(mechs)
    for m, p in paths.items():
        if not p:
            raise RuleError("no-movement", "falta el recorrido de {m}", "{m}'s path is missing", kind="incomplete", m=m)
        if len(p) < 2:
            # Staying put is legal; the seed's four cases are about two 'Mechs that both move, and it does not
            # say how a 'Mech that stays in its hex is settled with one that moves (the MP-by-MP method does).
            raise RuleError("no-movement",
                            "{m} no se mueve: los casos del texto son de dos 'Mechs que se mueven, y no dicen qué pasa con uno que se queda en su hexágono",
                            "{m} does not move: the text's cases are about two moving 'Mechs, and do not say what happens with one that stays in its hex",
                            kind="unstated", m=m)
    for m in jumping:
        if m not in paths:
            raise RuleError("unknown-mech", "{m} no está en el combate", "{m} is not in the fight", kind="impossible", m=m)
    a, b = mechs
    same = paths[a][-1] == paths[b][-1]
    if case.endswith("same-target") and not same:
        raise RuleError("targets-differ", "los dos recorridos no terminan en el mismo hexágono",
                        "the two paths do not end in the same hex", kind="elsewhere")
    if case.endswith("different-targets") and same:
        raise RuleError("same-target", "los dos recorridos terminan en el mismo hexágono",
                        "the two paths end in the same hex", kind="elsewhere")
    if jumping and case.endswith("different-targets"):
        trace.add("Con objetivos distintos, el salto de {j} elimina el conflicto",
                  "With different targets, {j} jumping removes the conflict", j=jumping)
        final = {m: p[-1] for m, p in paths.items()}
        return outcome(trace, case="no-conflict", winner=None, first=None, final=final, options=[], resolved=True)
    if jumping and case == "similar-paths-same-target":
        trace.add("{j} salta: el caso pasa a ser rutas distintas con el mismo objetivo",
                  "{j} jumps: the case becomes different paths with the same target", j=jumping)
        case = "different-paths-same-target"
    winner, loser = _initiative_winner(trace, rolls, mechs)
    if case == "different-paths-different-targets":
        trace.add("Se ignora el cruce: cada 'Mech llega a su objetivo", "The crossing is ignored: each 'Mech reaches its target")
        final = {m: p[-1] for m, p in paths.items()}
        return outcome(trace, case=case, winner=winner, first=None, final=final, options=[], resolved=True)
    if case == "similar-paths-different-targets":
        trace.add("El texto no conserva la solución general de este caso; la alternativa es mover PM a PM",
                  "The text lost the general resolution of this case; the alternative is moving MP by MP")
        return outcome(trace, case=case, winner=winner, first=None, final={}, options=[], resolved=False)
    final = {loser: paths[loser][-1], winner: paths[winner][-2]}
    trace.add("Mueve primero el perdedor, {l}, hasta {t}", "The loser, {l}, moves first, to {t}", l=loser, t=final[loser])
    trace.add("El ganador, {w}, se queda en el hexágono anterior de su recorrido: {h}",
              "The winner, {w}, stops in the hex before it on its own path: {h}", w=winner, h=final[winner])
    if case == "different-paths-same-target":
        options = ["death-from-above" if winner in jumping else "charge", "fire-at-1-hex"]
    else:
        options = ["charge"]
    trace.add("En la fase de disparo {w} puede: {o}", "In the firing phase {w} may: {o}", w=winner, o=options)
    return outcome(trace, case=case, winner=winner, first=loser, final=final, options=options, resolved=True)


@resolver("battletech-solaris.movement-mode",
          ranges={"walking_mp": covers(1, 12),  # no bound in the seed: 1 to 12 MP taken
                  "mp_spent": covers(0, 24)},  # up to twice 12 walking MP
          outputs={"counts_as": "walk or run, for heat and firing"})
def movement_mode(declared: Literal["walk", "run"], walking_mp: int, mp_spent: int, blocked: bool = False,
                  backwards: bool = False):
    """Which movement mode counts for heat and firing, with Solaris's rule for a blocked run."""
    trace = Trace()
    if walking_mp < 1 or mp_spent < 0:
        raise RuleError("bad-mp", "los PM de andar son al menos 1 y los gastados no son negativos",
                        "walking MP is at least 1 and MP spent is not negative", kind="impossible")
    if declared == "run" and backwards:
        raise RuleError("running-backwards", "ninguna unidad puede correr hacia atrás", "no unit may run backwards")
    if declared == "walk":
        if mp_spent > walking_mp:
            raise RuleError("walk-overspent", "andando no se gastan más PM que los de andar",
                            "a walking unit spends no more than its walking MP")
        trace.add("Declaró andar: cuenta como andar", "Declared walking: counts as walking")
        return outcome(trace, counts_as="walk")
    if blocked and mp_spent <= walking_mp:
        trace.add("Declaró correr, el rival lo bloqueó y solo gastó {s} de sus {w} PM de andar: cuenta como andar",
                  "Declared running, blocked by the opponent after only {s} of its {w} walking MP: counts as walking",
                  s=mp_spent, w=walking_mp)
        return outcome(trace, counts_as="walk")
    # Blocked past its walking MP: the seed only gives the walking-MP case; still a run is the entry's reading.
    trace.add("Declaró correr: cuenta como correr", "Declared running: counts as running")
    return outcome(trace, counts_as="run")


# --- Initiative ---------------------------------------------------------------------------------

def _initiative(rolls: list[dict[str, int]]) -> tuple[Trace, list[str], int]:
    """2D6 initiative, highest first, ties re-rolled (the engine's order): the trace, the order, the re-rolls."""
    for round_ in rolls:
        for roll in round_.values():
            _check_2d6(roll)
    done = _roll_order(rolls, True)
    trace = Trace()
    trace.steps.extend(done.trace[:-1])  # the engine's bare «Orden: …» is said again below, in words
    return trace, list(done.values["order"]), done.values["rerolls"]


@resolver("battletech-solaris.initiative",
          ranges={"rolls[].*": between(2, 12)},  # 2D6 per 'Mech
          outputs={"winner": "the 'Mech that wins the initiative (the higher 2D6)",
                   "order": "'Mechs from the initiative winner to the loser",
                   "rerolls": "tie-breaking rounds used"},
          labels={"order": ("orden, de la que gana a la que pierde", "order, from the winner to the loser")})
def initiative(rolls: list[dict[str, int]]):
    """Initiative in a movement conflict: each 'Mech rolls 2D6, the higher wins, ties are rolled again.

    ``rolls[0]`` holds each 'Mech's roll; each later round, the rolls of the 'Mechs still tied.
    """
    trace, order, rerolls = _initiative(rolls)
    trace.add("Gana la iniciativa {w} (el 2D6 más alto); orden de la más alta a la más baja: {o}",
              "{w} wins the initiative (the higher 2D6); order from highest to lowest: {o}", w=order[0], o=order)
    return outcome(trace, winner=order[0], order=order, rerolls=rerolls)


@resolver("battletech-solaris.sub-turn-order",
          ranges={"rolls[].*": between(2, 12)},  # 2D6 per 'Mech
          outputs={"winner": "the 'Mech that wins the initiative",
                   "first": "the 'Mech that enters the sub-turn first: the initiative loser",
                   "order": "'Mechs in the order they move in the same sub-turn, the initiative loser first",
                   "rerolls": "tie-breaking rounds used"},
          labels={"order": ("orden de entrada en el subturno (primero la que pierde)",
                            "order of entry in the sub-turn (the loser first)"),
                  "first": ("mueve primero en el subturno", "moves first in the sub-turn")})
def sub_turn_order(rolls: list[dict[str, int]]):
    """MP-by-MP movement: 'Mechs that move in the same sub-turn enter in reverse initiative order, loser first."""
    trace, order, rerolls = _initiative(rolls)
    entering = order[::-1]
    trace.add("Gana la iniciativa {w}; en el mismo subturno mueve primero quien la pierde: {f}",
              "{w} wins the initiative; in the same sub-turn the loser moves first: {f}", w=order[0], f=entering[0])
    trace.add("Orden de entrada en el subturno: {o}", "Order of entry in the sub-turn: {o}", o=entering)
    return outcome(trace, winner=order[0], first=entering[0], order=entering, rerolls=rerolls)


# --- Minimum movement, MP by MP, charges -----------------------------------------------------------

@resolver("battletech-solaris.minimum-move",
          ranges={"mp_available": covers(0, 12),  # no bound in the seed: 0 to 12 MP taken
                  "hex_cost": covers(1, 6)},  # no bound in the seed: 1 to 6 MP a hex taken
          outputs={
    "allowed": "whether the move (or the attempt to stand) may be made",
    "minimum_rule": "whether the minimum-movement rule was needed",
    "counts_as": "the movement mode it counts as",
    "stand_attempts": "attempts to stand a prone 'Mech gets",
})
def minimum_move(mp_available: int, action: Literal["enter-hex", "stand-up"] = "enter-hex", hex_cost: int = 1,
                 prohibited: bool = False, only_expenditure: bool = True):
    """Moving one hex straight ahead (or trying to stand) with too few MP at the start of the movement phase."""
    trace = Trace()
    if mp_available < 1:
        raise RuleError("no-mp", "hace falta al menos 1 PM para gastar", "at least 1 MP to spend is needed")
    if action == "stand-up":
        if mp_available != 1:
            trace.add("Con {m} PM el 'Mech tumbado no necesita esta regla", "With {m} MP the prone 'Mech does not need this rule",
                      m=mp_available)
            return outcome(trace, allowed=True, minimum_rule=False, counts_as=None, stand_attempts=None)
        trace.add("'Mech tumbado con un único PM: un solo intento de levantarse", "Prone 'Mech with a single MP: one attempt to stand")
        return outcome(trace, allowed=True, minimum_rule=True, counts_as=None, stand_attempts=1)
    if prohibited:
        raise RuleError("prohibited-hex", "la unidad tiene prohibido entrar en ese hexágono",
                        "the unit may not enter that hex")
    if hex_cost <= mp_available:
        trace.add("El hexágono cuesta {c} y tiene {m} PM: movimiento normal", "The hex costs {c} and it has {m} MP: a normal move",
                  c=hex_cost, m=mp_available)
        return outcome(trace, allowed=True, minimum_rule=False, counts_as=None, stand_attempts=None)
    if not only_expenditure:
        raise RuleError("not-only-expenditure",
                        "el movimiento mínimo solo vale si es el único gasto de PM del turno, al principio de la fase",
                        "minimum movement only works as the turn's only MP expenditure, at the start of the phase")
    trace.add("El hexágono de delante cuesta {c} y solo tiene {m} PM: entra igualmente y cuenta como correr",
              "The hex ahead costs {c} with only {m} MP: it enters anyway and counts as running", c=hex_cost, m=mp_available)
    return outcome(trace, allowed=True, minimum_rule=True, counts_as="run", stand_attempts=None)


@resolver("battletech-solaris.mp-schedule",
          ranges={"mp.*": covers(0, 12),  # no bound in the seed: 0 to 12 MP taken
                  "hex_costs.*[]": covers(1, 6)},  # 1 to 6 MP a hex taken
          outputs={
    "subturns": "how many sub-turns the movement phase is split into",
    "spends": "for each 'Mech, the sub-turns in which it spends one MP",
    "enters": "for each 'Mech, the sub-turn in which it enters each hex of its path",
})
def mp_schedule(mp: dict[str, int], hex_costs: dict[str, list[int]] = {}):
    """MP-by-MP movement with proportional MP: one sub-turn per MP of the fastest 'Mech.

    The text does not define "proportional"; read here as: the fastest 'Mech's MP are an exact multiple
    of each other 'Mech's MP (its cases: 3 against 6, and two 4/6 'Mechs).

    Slower 'Mechs spend one MP every (largest / their MP) sub-turns, on the last sub-turn of each
    stretch, so that everyone finishes together; a hex is entered once all its MP are spent.

    A 'Mech that spends no MP stays in its hex all phase (standing still is legal, and the seed counts a
    starting hex among the coincident ones): it spends in no sub-turn and enters no hex.
    """
    trace = Trace()
    if not mp:
        raise RuleError("no-mp", "faltan los PM que gasta cada 'Mech", "the MP each 'Mech spends are missing", kind="incomplete")
    if any(v < 0 for v in mp.values()):
        raise RuleError("no-mp", "los PM gastados no son negativos", "MP spent are not negative", kind="impossible")
    top = max(mp.values())
    for m, v in mp.items():
        if v and top % v:
            raise RuleError("not-proportional",
                            "los {v} PM del 'Mech {mech} no son proporcionales a {top}: hace falta la tabla de movimientos coincidentes, que el texto no incluye",
                            "the {v} MP of 'Mech {mech} are not proportional to {top}: the coincident-movement table is needed, and the text does not include it",
                            kind="unstated", mech=m, v=v, top=top)
    trace.add("La fase se divide en {n} subturnos (los PM del más rápido)", "The phase is split into {n} sub-turns (the fastest 'Mech's MP)",
              n=top)
    spends: dict[str, list[int]] = {}
    for m, v in mp.items():
        if not v:
            spends[m] = []
            trace.add("{m}: no gasta PM; se queda en su hexágono toda la fase", "{m}: spends no MP; it stays in its hex all phase",
                      m=m)
            continue
        step = top // v
        spends[m] = [step * k for k in range(1, v + 1)]
        trace.add("{m}: {v} PM, uno cada {s} {s:p:subturno|subturnos}: {t}", "{m}: {v} MP, one every {s} sub-{s:p:turn|turns}: {t}",
                  m=m, v=v, s=step, t=spends[m])
    enters: dict[str, list[int]] = {}
    for m, costs in hex_costs.items():
        if m not in mp:
            raise RuleError("unknown-mech", "{m} no tiene PM asignados", "{m} has no MP given", kind="incomplete", m=m)
        if any(c < 1 for c in costs):
            raise RuleError("bad-cost", "cada hexágono cuesta al menos 1 PM", "each hex costs at least 1 MP", kind="impossible")
        if len(costs) == 1 and 1 <= mp[m] < costs[0]:
            # Minimum movement (seed, "Movimiento Mínimo") lets a unit with at least 1 MP enter the hex straight
            # ahead whatever its cost, as its only expenditure of the turn: legal, but the seed does not say in
            # which sub-turn such a 'Mech enters when moving MP by MP.
            raise RuleError("minimum-move-subturn",
                            "{mech} entra en un hexágono de {c} PM con solo {mp}: el movimiento mínimo lo permite (el hexágono de delante, único gasto del turno), pero el texto no dice en qué subturno entra",
                            "{mech} enters a {c}-MP hex with only {mp}: minimum movement allows it (the hex straight ahead, the turn's only expenditure), but the text does not say in which sub-turn it enters",
                            kind="unstated", mech=m, c=costs[0], mp=mp[m])
        if sum(costs) > mp[m]:
            raise RuleError("not-enough-mp", "el recorrido de {mech} cuesta {c} PM y solo gasta {mp}",
                            "{mech}'s path costs {c} MP and it spends only {mp}", mech=m, c=sum(costs), mp=mp[m])
        paid, times = 0, []
        for c in costs:
            paid += c
            times.append(spends[m][paid - 1])
        enters[m] = times
        trace.add("{m} entra en cada hexágono al pagar su último PM: subturnos {t}",
                  "{m} enters each hex when it pays that hex's last MP: sub-turns {t}", m=m, t=times)
    return outcome(trace, subturns=top, spends=spends, enters=enters)


@resolver("battletech-solaris.charge-allowed",
          ranges={"hexes_moved": covers(0, 10)},  # no bound in the seed: 0 to 10 hexes taken
          outputs={"allowed": "whether the charge may be attempted"})
def charge_allowed(hexes_moved: int, target_prone: bool = False, same_elevation: bool = True):
    """May a 'Mech charge? It must have moved at least one hex, against a standing target at its elevation."""
    trace = Trace()
    if hexes_moved < 1:
        raise RuleError("no-run-up", "para cargar hay que haber recorrido antes al menos 1 hexágono",
                        "a charge needs at least 1 hex moved first")
    if target_prone:
        raise RuleError("prone-target", "no se puede cargar contra un objetivo tumbado", "a prone target cannot be charged")
    if not same_elevation:
        raise RuleError("different-elevation", "no se puede cargar contra un objetivo a distinta elevación",
                        "a target at a different elevation cannot be charged")
    trace.add("Ha recorrido {h} {h:p:hexágono|hexágonos}, objetivo en pie y a la misma elevación: puede cargar",
              "It moved {h} {h:p:hex|hexes}, the target stands at the same elevation: it may charge", h=hexes_moved)
    return outcome(trace, allowed=True)


# --- Ice, pavement, skids --------------------------------------------------------------------------

@resolver("battletech-solaris.skid-check",
          ranges={"modified_skill": between(2, 13),  # every 2D6 odds
                  "roll": between(2, 12)},  # 2D6
          outputs={
    "needed": "whether a skid roll is needed before moving on",
    "target": "2D6 needed (the piloting skill already modified by the skid table)",
    "falls": "whether the unit falls and skids (absent without a roll)",
})
def skid_check(running: bool, turned_on_paved_or_ice: bool, keeps_moving: bool,
               modified_skill: int | None = None, roll: int | None = None):
    """Does a turn on pavement or ice call for a skid roll, and does the unit keep its footing?

    ``modified_skill`` is the piloting skill after the skid modifiers table, which the seed omits.
    """
    trace = Trace()
    _check_2d6(roll)
    needed = running and turned_on_paved_or_ice and keeps_moving
    if not needed:
        trace.add("Solo tira quien corre, gira en pavimento o hielo y sigue moviendo: no hay tirada",
                  "Only a unit that runs, turns on pavement or ice and moves on rolls: no roll", )
        return outcome(trace, needed=False, target=None, falls=None)
    if modified_skill is None:
        trace.add("Hace falta tirada de pilotaje por derrape", "A piloting roll against skidding is needed")
        return outcome(trace, needed=True, target=None, falls=None)
    trace.add("Tirada de pilotaje: igualar o superar {n} en 2D6", "Piloting roll: equal or beat {n} on 2D6", n=modified_skill)
    falls = None if roll is None else roll < modified_skill
    if roll is not None:
        trace.add("Sale {r}: {t}", "Rolls {r}: {t_en}", r=roll, t="cae y patina" if falls else "gira sin problemas",
                  t_en="falls and skids" if falls else "turns safely")
    event = Chance.of(_odds_at_least(modified_skill), "no caer al girar (superar la tirada de derrape)",
                      "keeping its footing (passing the skid roll)", output="falls", when=False, roll="roll", dice="2d6")
    return outcome(trace, event, needed=True, target=modified_skill, falls=falls)


@resolver("battletech-solaris.skid-slide",
          # No bound in the seed: 0 to 15 hexes taken. kb check also takes -1, for the example that shows the refusal of
          # a negative distance; a calculator offers only what can happen at the table (window).
          ranges={"hexes_moved": {**covers(-1, 15), **window(0, 15)},
                  "falling_damage": covers(0, 20)},  # the seed points to a table it does not hold: 0 to 20 taken
          outputs={
    "slide_hexes": "hexes the unit would slide: hexes moved this turn / 2, rounded up",
    "damage_per_hex": "damage per hex slid: half the falling damage, rounded up",
    "hexes_slid": "hexes actually slid when something lay in the path (absent for a clear slide: slide_hexes)",
    "slide_damage": "damage from sliding",
    "total_damage": "the fall's normal damage plus the sliding damage",
    "stopped_by": "what stopped the slide (absent if nothing did)",
    "collisions": "what the unit crashed into, each resolved as a successful charge",
    "charge_distance": "hexes moved before the fall, used for the collision damage (absent with no collision)",
})
def skid_slide(hexes_moved: int, falling_damage: int,
               path: list[Literal["clear", "hill", "unit", "unit-destroyed", "building", "building-destroyed"]] = []):
    """After a failed skid roll: how far the unit slides, the damage, and what it crashes into.

    ``falling_damage`` is the unit's normal falling damage (the seed does not give its formula);
    ``path`` describes the hexes ahead in the slide's direction (clear when not given).
    """
    trace = Trace()
    if hexes_moved < 0 or falling_damage < 0:
        raise RuleError("negative", "ni los hexágonos movidos ni el daño pueden ser negativos",
                        "neither hexes moved nor damage can be negative", kind="impossible")
    slide = ceil(hexes_moved / 2)
    per_hex = ceil(falling_damage / 2)
    trace.add("Se desliza {m} / 2 = {s} {s:p:hexágono|hexágonos} (redondeando hacia arriba)",
              "Slides {m} / 2 = {s} {s:p:hex|hexes} (rounded up)",
              m=hexes_moved, s=slide)
    trace.add("Cada hexágono: la mitad de {f} = {p} (redondeando hacia arriba), columna frontal",
              "Each hex: half of {f} = {p} (rounded up), Front column", f=falling_damage, p=per_hex)
    slid, stopped, collisions = 0, None, []
    for i in range(slide):
        what = path[i] if i < len(path) else "clear"
        if what == "hill":
            stopped = "hill"
            trace.add("Una colina detiene el deslizamiento sin daño extra", "A hill stops the slide with no extra damage")
            break
        if what != "clear":
            kind = what.split("-")[0]
            collisions.append(kind)
            trace.add("Choca con {k}: se resuelve como una carga con éxito, con la distancia previa a la caída ({d})",
                      "Crashes into a {k_en}: resolved as a successful charge, with the distance before the fall ({d})",
                      k="una unidad" if kind == "unit" else "un edificio", k_en=kind, d=hexes_moved)
            if not what.endswith("destroyed"):
                stopped = kind
                trace.add("El obstáculo sigue en pie: el deslizamiento termina", "The obstacle still stands: the slide ends")
                break
            trace.add("El obstáculo queda destruido: el deslizamiento sigue", "The obstacle is destroyed: the slide goes on")
        slid += 1
    slide_damage = slid * per_hex
    total = falling_damage + slide_damage
    trace.add("Daño: caída {f} + deslizamiento {n} × {p} = {t}", "Damage: fall {f} + slide {n} × {p} = {t}",
              f=falling_damage, n=slid, p=per_hex, t=total)
    met = stopped is not None or bool(collisions)  # a clear slide: the hexes slid are the slide's, said once
    return outcome(trace, slide_hexes=slide, damage_per_hex=per_hex, hexes_slid=slid if met else None,
                   slide_damage=slide_damage, total_damage=total, stopped_by=stopped, collisions=collisions,
                   charge_distance=hexes_moved if collisions else None)


# --- Underwater ------------------------------------------------------------------------------------

@resolver("battletech-solaris.underwater-status",
          ranges={"depth": covers(0, 4)},  # depths the seed names (0 to 2) and deeper water
          outputs={"underwater": "whether the unit counts as underwater"})
def underwater_status(unit: Literal["mech", "submarine", "vehicle", "infantry"], depth: int, prone: bool = False):
    """Does a unit count as underwater: a 'Mech in depth 2+, a prone 'Mech in depth 1, a submarine at depth 1+."""
    trace = Trace()
    if depth < 0:
        raise RuleError("bad-depth", "la profundidad no es negativa", "depth is not negative", kind="impossible")
    if depth == 0:
        # Out of the water nobody is underwater; the seed only keeps other units from going under.
        trace.add("{u} a profundidad 0: no está bajo el agua", "{u} at depth 0: not underwater", u=unit)
        return outcome(trace, underwater=False)
    if unit in ("vehicle", "infantry"):
        raise RuleError("cannot-submerge", "solo los BattleMechs y los submarinos se mueven bajo el agua",
                        "only BattleMechs and submarines move underwater")
    if unit == "submarine":
        under = depth >= 1
    else:
        under = depth >= 2 or (prone and depth == 1)
    trace.add("{u} a profundidad {d}{p}: {r}", "{u} at depth {d}{p_en}: {r_en}", u=unit, d=depth,
              p=", tumbado" if prone else "", p_en=", prone" if prone else "",
              r="bajo el agua" if under else "no está bajo el agua", r_en="underwater" if under else "not underwater")
    return outcome(trace, underwater=under)


@resolver("battletech-solaris.underwater-path",
          ranges={"depths[]": covers(1, 4),  # depths 1 and 2 have costs in the seed; 3 and 4 are refused (unstated)
                  "start_depth": covers(0, 4),
                  "mp_per_level": covers(1, 6)},  # no bound in the seed: 1 to 6 MP taken
          outputs={
    "water_mp": "MP for the water hexes: 2 per depth-1 hex, 4 per depth-2 hex",
    "level_changes": "levels of depth changed along the path (each paid at the standard elevation cost)",
    "piloting_rolls": "one piloting roll per water hex entered",
    "total_mp": "water MP plus level changes at mp_per_level (absent without it)",
    "underwater": "for each hex, whether the standing 'Mech counts as underwater there",
})
def underwater_path(depths: list[int], start_depth: int = 0, mp_per_level: int | None = None):
    """MP a 'Mech spends along a path of water hexes, and the piloting rolls it makes.

    The cost belongs to the hex: a 'Mech standing in depth 1 is not underwater, yet it pays the depth-1
    cost all the same (the entry's note explains this reading of a text that contradicts itself).
    """
    trace = Trace()
    if not depths:
        raise RuleError("no-movement", "falta el recorrido: no tiene hexágonos", "the path is missing: it has no hexes",
                        kind="incomplete")
    water, changes, prev = 0, 0, start_depth
    for d in depths:
        if d not in UNDERWATER_MP:
            raise RuleError("depth-cost-unstated",
                            "el texto solo da el coste de profundidad 1 y 2, no de {d}",
                            "the text only gives the cost of depth 1 and 2, not of {d}", kind="unstated", d=d)
        water += UNDERWATER_MP[d]
        changes += abs(d - prev)
        prev = d
    trace.add("Hexágonos de profundidad {d}: {w} PM de agua", "Hexes of depth {d}: {w} water MP", d=depths, w=water)
    under = [d >= 2 for d in depths]  # a 'Mech on the move stands; only a prone one is underwater in depth 1
    trace.add("Bajo el agua en cada hexágono: {u} (el coste se paga igual)", "Underwater in each hex: {u} (the cost is paid all the same)",
              u=under)
    trace.add("Cambios de nivel de profundidad: {c}", "Depth level changes: {c}", c=changes)
    trace.add("Un chequeo de pilotaje por hexágono de agua: {n}", "One piloting roll per water hex: {n}", n=len(depths))
    total = None
    if mp_per_level is not None:
        total = water + changes * mp_per_level
        trace.add("Total: {w} + {c} × {l} = {t} PM", "Total: {w} + {c} × {l} = {t} MP", w=water, c=changes, l=mp_per_level,
                  t=total)
    return outcome(trace, water_mp=water, level_changes=changes, piloting_rolls=len(depths), total_mp=total,
                   underwater=under)


@resolver("battletech-solaris.water-level",
          ranges={"depth": covers(0, 4),  # as underwater-status
                  "other_level": covers(-4, 4)},  # no bound in the seed: 4 levels below to 4 above taken
          outputs={
    "level": "the water hex's level for line of sight (depth as a negative number)",
    "difference": "levels between the water hex and the other hex",
})
def water_level(depth: int, other_level: int = 0):
    """Depth counted as negative levels for line of sight."""
    trace = Trace()
    if depth < 0:
        raise RuleError("bad-depth", "la profundidad no es negativa", "depth is not negative", kind="impossible")
    level = -depth
    diff = abs(other_level - level)
    trace.add("Profundidad {d} = nivel {l}; hasta el nivel {o} hay {x} niveles", "Depth {d} = level {l}; {x} levels to level {o}",
              d=depth, l=level, o=other_level, x=diff)
    return outcome(trace, level=level, difference=diff)


@resolver("battletech-solaris.underwater-weapon", outputs={"allowed": "whether a submerged unit may fire it"})
def underwater_weapon(weapon: Literal["laser", "ppc", "other-energy", "torpedo", "ballistic", "missile"],
                      solaris: bool = True):
    """May a submerged unit fire this weapon? Energy weapons and torpedoes only; no torpedoes on Solaris VII."""
    trace = Trace()
    if weapon == "torpedo":
        if solaris:
            raise RuleError("torpedoes-banned", "los torpedos no están permitidos en Solaris VII",
                            "torpedoes are not allowed on Solaris VII")
        trace.add("Torpedo fuera de Solaris: permitido bajo el agua", "Torpedo outside Solaris: allowed underwater")
        return outcome(trace, allowed=True)
    if weapon in ("ballistic", "missile"):
        raise RuleError("not-energy", "bajo el agua solo se disparan armas de energía y torpedos",
                        "underwater only energy weapons and torpedoes fire")
    if weapon == "other-energy":
        # The seed reduces the ranges of lasers and PPCs only; it is silent on other energy weapons' ranges.
        trace.add("Arma de energía: permitida; el texto solo da alcances reducidos para láseres y CPP",
                  "Energy weapon: allowed; the text gives reduced ranges for lasers and PPCs only")
        return outcome(trace, allowed=True)
    trace.add("Arma de energía: permitida, con los alcances reducidos de la tabla que el texto no incluye",
              "Energy weapon: allowed, at the reduced ranges of a table the text does not include")
    return outcome(trace, allowed=True)


@resolver("battletech-solaris.bridge-damage",
          ranges={"cf": {"minimum": 1, **window(1, 100)},  # the seed gives no CF range by class: a calculator offers 1 to 100
                  "damage": {"minimum": 0, **window(0, 100)}},
          labels={"cf": ("FC del puente", "bridge's CF"), "damage": ("daño que recibe", "damage it takes"),
                  "cf_left": ("FC que le queda", "CF left"), "collapses": ("se derrumba", "collapses")},
          outputs={"cf_left": "the bridge's CF after the damage (never below 0)",
                   "collapses": "whether the bridge collapses into the river (its CF down to 0)"})
def bridge_damage(cf: int, damage: int):
    """A bridge attacked like a building: the damage comes off its CF; at 0 it collapses and falls into the river."""
    if damage < 0 or cf < 1:
        raise RuleError("negative", "un puente en pie tiene FC 1 o más y el daño no es negativo",
                        "a standing bridge has CF 1 or more, and damage is not negative", kind="impossible")
    trace = Trace()
    left = max(cf - damage, 0)
    if damage > cf:
        trace.add("FC: {cf} − {d} → 0 (no baja de 0)", "CF: {cf} − {d} → 0 (it does not go below 0)", cf=cf, d=damage)
    else:
        trace.add("FC: {cf} − {d} = {left}", "CF: {cf} − {d} = {left}", cf=cf, d=damage, left=left)
    if left == 0:
        trace.add("El FC llega a 0: el puente se derrumba y cae al río", "CF down to 0: the bridge collapses into the river")
    else:
        trace.add("Con FC {left} el puente sigue en pie", "At CF {left} the bridge still stands", left=left)
    return outcome(trace, cf_left=left, collapses=left == 0)


@resolver("battletech-solaris.underwater-physical",
          ranges={"damage": covers(0, 30)},  # no bound in the seed: 0 to 30 points taken
          outputs={
    "damage": "damage dealt after the water's effect",
    "rounding_stated": "false when the seed says 'half' without saying how to round",
})
def underwater_physical(attack: Literal["physical", "death-from-above"], damage: int, attacker_underwater: bool = False,
                        attacker_in_water: bool = False, target_underwater: bool = False):
    """Physical attacks and death from above when water is involved."""
    trace = Trace()
    if damage < 0:
        raise RuleError("negative", "el daño no puede ser negativo", "damage cannot be negative", kind="impossible")
    if attack == "death-from-above":
        if attacker_in_water or attacker_underwater:
            raise RuleError("dfa-from-water", "desde el agua no hay muerte desde el cielo: los retrorreactores no funcionan",
                            "no death from above from water: jump jets do not work there")
        if target_underwater:
            half = Fraction(damage, 2)
            shown = int(half) if half.denominator == 1 else float(half)
            trace.add("Contra un 'Mech sumergido, la mitad: {d} / 2 = {h} (el texto no dice cómo redondear)",
                      "Against a submerged 'Mech, half: {d} / 2 = {h} (the text does not say how to round)", d=damage, h=shown)
            return outcome(trace, damage=shown, rounding_stated=half.denominator == 1)
        trace.add("Daño normal: {d}", "Normal damage: {d}", d=damage)
        return outcome(trace, damage=damage, rounding_stated=True)
    if attacker_underwater:
        half = ceil(damage / 2)
        trace.add("Atacante sumergido: {d} / 2 = {h} (redondeando hacia arriba)",
                  "Submerged attacker: {d} / 2 = {h} (rounded up)", d=damage, h=half)
        return outcome(trace, damage=half, rounding_stated=True)
    # The seed halves the physical attacks of submerged 'Mechs; it is silent on a physical attack made from out of
    # the water against a submerged target, which is read here as normal damage (target_underwater is not used).
    trace.add("Atacante fuera del agua: daño normal {d}", "Attacker not submerged: normal damage {d}", d=damage)
    return outcome(trace, damage=damage, rounding_stated=True)


@resolver("battletech-solaris.hull-breach",
          ranges={"roll": between(2, 12),  # 2D6 (10 or more breaches)
                  "engine_slots": covers(0, 6)},  # no bound in the seed: 0 to 6 engine slots taken
          outputs={
    "roll_needed": "whether the 2D6 breach roll is made",
    "breached": "whether the location is breached and flooded (absent without a roll)",
    "engine_hits": "engine critical hits the flooded location counts as (its engine slots)",
})
def hull_breach(event: Literal["damaging-hit", "submerging-damaged"], roll: int | None = None,
                armour_destroyed: bool = False, engine_slots: int = 0):
    """Hull breach of an underwater unit: 2D6 of 10+ on each damaging hit; automatic flooding of
    an armourless location when a damaged unit goes under. The probability is that of a breach."""
    trace = Trace()
    _check_2d6(roll)
    if engine_slots < 0:
        raise RuleError("negative", "los espacios del reactor no son negativos", "engine slots are not negative", kind="impossible")
    if event == "submerging-damaged":
        if roll is not None:  # an answer, not a refusal: the roll typed in simply does not count
            trace.add("El {r} no cuenta: no se tira por sumergirse ya dañada",
                      "The {r} does not count: no breach roll is made for going under already damaged", r=roll)
        breached = armour_destroyed
        trace.add("Se sumerge ya dañada: sin tirada; inundada solo si la localización no tiene blindaje: {b}",
                  "Goes under already damaged: no roll; flooded only if the location has no armour left: {b}", b=breached)
        return outcome(trace, roll_needed=False, breached=breached, engine_hits=engine_slots if breached else 0)
    odds = _odds_at_least(HULL_BREACH_AT_LEAST)
    trace.add("Impacto con daño bajo el agua: perforación con {n} o más en 2D6 ({p})",
              "Damaging hit underwater: breach on 2D6 of {n} or more ({p})", n=HULL_BREACH_AT_LEAST, p=_shown_odds(HULL_BREACH_AT_LEAST))
    breached = None if roll is None else roll >= HULL_BREACH_AT_LEAST
    hits = None
    if roll is not None:
        hits = engine_slots if breached else 0
        trace.add("Sale {r}: {t}; impactos de reactor: {h}", "Rolls {r}: {t_en}; engine hits: {h}", r=roll, h=hits,
                  t="casco perforado" if breached else "el casco aguanta", t_en="hull breached" if breached else "the hull holds")
    event = Chance.of(odds, "perforar el casco", "breaching the hull", output="breached", roll="roll", dice="2d6")
    return outcome(trace, event, roll_needed=True, breached=breached, engine_hits=hits)


# --- Climbing and dropping down ------------------------------------------------------------------

def _fall_height(levels: int, reached: int) -> int:
    """Height of the last level reached, counted from the lower hex: climbing up, the levels climbed;
    climbing down (``levels`` negative), the levels still left below the 'Mech."""
    return reached if levels > 0 else abs(levels) - reached


@resolver("battletech-solaris.climb",
          ranges={"levels": covers(-6, 6),  # no bound in the seed: 6 levels down to 6 up (climbing 2 or less, or down, is refused)
                  "working_hands": between(0, 2),  # a Mech has two hand actuators
                  "piloting_skill": between(2, 13),  # 2 (always) to 13 (never) cover every 2D6 odds
                  "rolls": items(1, 6),  # the seed: one piloting roll per level climbed; levels are taken up to 6 (above)
                  "rolls[]": between(2, 12)},  # 2D6
          outputs={
    "mp": "walking MP the climb costs",
    "piloting_rolls": "one piloting roll per level",
    "piloting_modifier": "modifier to every piloting roll while climbing (+1, or +2 with one hand)",
    "attack_modifier": "to-hit modifier for attacks against the climbing 'Mech",
    "target": "2D6 needed on each level's roll (absent without a piloting skill)",
    "levels_reached": "levels climbed before a failed roll, or all of them (absent without rolls)",
    "falls": "whether a roll fails and the 'Mech falls (absent without rolls)",
    "fall_height": "levels it falls: the height of the last level it reached above the lower hex (absent unless it falls)",
})
def climb(levels: int, working_hands: int, hand_free: bool = True, running: bool = False,
          piloting_skill: int | None = None, rolls: list[int] | None = None):
    """Climbing up or down 3 or more levels (Maximum Tech).

    ``rolls`` are the piloting rolls, one per level in order; the first that fails ends the climb and
    the 'Mech falls from the last level it reached. The stated probability is that of one level's roll.
    """
    trace = Trace()
    for r in rolls or []:
        _check_2d6(r)
    if abs(levels) < 3:
        raise RuleError("not-a-climb", "la escalada es para hexágonos 3 o más niveles más altos o más bajos",
                        "climbing is for hexes 3 or more levels higher or lower", kind="elsewhere")
    if working_hands < 0 or working_hands > 2:
        raise RuleError("bad-hands", "un 'Mech tiene entre 0 y 2 actuadores de mano", "a 'Mech has 0 to 2 hand actuators",
                        kind="impossible")
    if working_hands == 0:
        raise RuleError("no-hand-actuator", "hace falta al menos un actuador de mano operativo",
                        "at least one working hand actuator is needed")
    if not hand_free:
        raise RuleError("hand-not-free", "la mano debe estar libre: sin hacha, arma de mano ni otro objeto",
                        "the hand must be free: no hatchet, hand-held weapon or other object")
    if running:
        raise RuleError("running", "solo se escala con PM de andar; quien corre no escala",
                        "only walking MP may be used to climb; a running unit cannot climb")
    n = abs(levels)
    per = CLIMB_MP_PER_LEVEL[working_hands]
    mod = CLIMBING_PILOTING_MODIFIER[working_hands]
    trace.add("{h} {h:p:mano|manos} {h:p:operativa|operativas}: {p} PM por nivel × {n} niveles = {t} PM de andar",
              "{h} working {h:p:hand|hands}: {p} MP per level × {n} levels = {t} walking MP", h=working_hands, p=per, n=n, t=per * n)
    trace.add("{n} {n:p:chequeo|chequeos} de pilotaje, cada uno con {m:+d}", "{n} piloting {n:p:roll|rolls}, each at {m:+d}",
              n=n, m=mod)
    trace.add("Ataques contra el 'Mech que escala: {a:+d}", "Attacks against the climbing 'Mech: {a:+d}", a=ATTACKS_AGAINST_CLIMBER)
    target, odds = None, None
    if piloting_skill is not None:
        target = piloting_skill + mod
        odds = _odds_at_least(target)
        trace.add("Cada nivel: {s} {m:+d} = {t} o más en 2D6", "Each level: {s} {m:+d} = {t} or more on 2D6",
                  s=piloting_skill, m=mod, t=target)
    reached = falls = height = None
    if rolls is not None:
        if target is None:
            raise RuleError("missing-skill", "para juzgar las tiradas hace falta la habilidad de pilotaje",
                            "the piloting skill is needed to judge the rolls", kind="incomplete")
        reached, falls = 0, False
        for k, r in enumerate(rolls, 1):
            if falls:
                raise RuleError("rolls-after-fall", "tras el chequeo fallido ya no se tira más: el 'Mech ha caído",
                                "no more rolls after the failed one: the 'Mech has fallen", kind="impossible")
            if r >= target:
                reached = k
                trace.add("Nivel {k}: sale {r}, lo alcanza", "Level {k}: rolls {r}, reaches it", k=k, r=r)
            else:
                falls, height = True, _fall_height(levels, reached)
                trace.add("Nivel {k}: sale {r}, falla; cae desde el último nivel alcanzado, {h} {h:p:nivel|niveles} sobre el hexágono más bajo",
                          "Level {k}: rolls {r}, fails; it falls from the last level it reached, {h} {h:p:level|levels} above the lower hex",
                          k=k, r=r, h=height)
        if len(rolls) > n:
            raise RuleError("too-many-rolls", "{n} {n:p:nivel pide|niveles piden} {n} {n:p:chequeo|chequeos}, no {r}",
                            "{n} {n:p:level calls|levels call} for {n} {n:p:roll|rolls}, not {r}", kind="impossible",
                            n=n, r=len(rolls))
        if not falls and len(rolls) < n:
            raise RuleError("missing-rolls", "{n} {n:p:nivel pide|niveles piden} {n} {n:p:chequeo|chequeos} y solo hay {r}",
                            "{n} {n:p:level calls|levels call} for {n} {n:p:roll|rolls} and there {r:p:is|are} only {r}",
                            kind="incomplete", n=n, r=len(rolls))
    event = None if odds is None else Chance.of(odds, "superar el chequeo de pilotaje de un nivel",
                                             "passing one level's piloting roll")
    return outcome(trace, event, mp=per * n, piloting_rolls=n, piloting_modifier=mod,
                   attack_modifier=ATTACKS_AGAINST_CLIMBER, target=target, levels_reached=reached, falls=falls,
                   fall_height=height)


@resolver("battletech-solaris.drop-down",
          ranges={"levels": covers(0, 8),  # no bound in the seed: 0 to 8 levels taken
                  "piloting_skill": between(2, 13),  # every 2D6 odds
                  "leg_roll": between(2, 12),  # 2D6
                  "fall_roll": between(2, 12)},  # 2D6
          outputs={
    "mp": "MP the drop costs",
    "leg_modifier": "modifier to the first roll (leg damage): levels × 2",
    "fall_modifier": "modifier to the second roll (falling): levels",
    "leg_damage": "damage to each leg (0 if the first roll passes; absent without rolls)",
    "leg_critical_rolls": "critical-hit rolls per leg (absent without rolls)",
    "falls": "whether the 'Mech falls, as many levels as it dropped (absent without rolls)",
})
def drop_down(levels: int, piloting_skill: int | None = None, leg_roll: int | None = None, fall_roll: int | None = None,
              structure_damaged: bool = False):
    """Dropping down more than 2 levels (Maximum Tech): 4 MP and two piloting rolls.

    The stated probability is that of passing both rolls (with a piloting skill).
    """
    trace = Trace()
    _check_2d6(leg_roll)
    _check_2d6(fall_roll)
    if levels <= 2:
        raise RuleError("not-a-drop", "dejarse caer es para más de 2 niveles", "dropping down is for more than 2 levels", kind="elsewhere")
    leg_mod, fall_mod = 2 * levels, levels
    trace.add("Cuesta {mp} PM sean cuantos sean los niveles", "It costs {mp} MP whatever the levels", mp=DROP_DOWN_MP)
    trace.add("Primer chequeo (piernas): +{n} × 2 = {m:+d}", "First roll (legs): +{n} × 2 = {m:+d}", n=levels, m=leg_mod)
    trace.add("Segundo chequeo (caída): {m:+d}", "Second roll (falling): {m:+d}", m=fall_mod)
    odds = None
    leg_damage = crits = falls = None
    if piloting_skill is not None:
        odds = _odds_at_least(piloting_skill + leg_mod) * _odds_at_least(piloting_skill + fall_mod)
        trace.add("Necesita {a}+ y {b}+ en 2D6", "Needs {a}+ and {b}+ on 2D6", a=piloting_skill + leg_mod,
                  b=piloting_skill + fall_mod)
        if leg_roll is not None:
            legs_fail = leg_roll < piloting_skill + leg_mod
            leg_damage = levels if legs_fail else 0
            crits = (2 if structure_damaged else 1) if legs_fail else 0
            trace.add("Piernas: sale {r}; daño {d} a cada pierna y {c} {c:p:tirada|tiradas} de crítico por pierna",
                      "Legs: rolls {r}; {d} damage to each leg and {c} critical {c:p:roll|rolls} per leg", r=leg_roll, d=leg_damage, c=crits)
        if fall_roll is not None:
            falls = fall_roll < piloting_skill + fall_mod
            if falls:
                trace.add("Caída: sale {r}; cae {n} {n:p:nivel|niveles} en el hexágono de destino",
                          "Fall: rolls {r}; falls {n} {n:p:level|levels} into the hex below", r=fall_roll, n=levels)
            else:
                trace.add("Caída: sale {r}; sigue en pie", "Fall: rolls {r}; stays standing", r=fall_roll)
    elif leg_roll is not None or fall_roll is not None:
        raise RuleError("missing-skill", "para juzgar las tiradas hace falta la habilidad de pilotaje",
                        "the piloting skill is needed to judge the rolls", kind="incomplete")
    event = None if odds is None else Chance.of(odds, "superar los dos chequeos de pilotaje", "passing both piloting rolls")
    return outcome(trace, event, mp=DROP_DOWN_MP, leg_modifier=leg_mod, fall_modifier=fall_mod, leg_damage=leg_damage,
                   leg_critical_rolls=crits, falls=falls)


# --- MASC --------------------------------------------------------------------------------------------

def _masc_history(history: list[bool], in_a_row: int, rested: int) -> list[bool]:
    """The previous turns, given as a list or as ``in_a_row`` uses then ``rested`` turns without (never both)."""
    if (in_a_row or rested) and history:
        raise RuleError("history-twice", "los turnos anteriores se dan como lista o como turnos seguidos, no de las dos formas",
                        "the previous turns are given as a list or as turns in a row, not both", kind="impossible")
    if in_a_row < 0 or rested < 0:
        raise RuleError("bad-count", "los turnos no pueden ser negativos", "turns cannot be negative",
                        kind="impossible")
    return history or [True] * in_a_row + [False] * rested


@resolver("battletech-solaris.masc-roll",
          # 2D6. kb check also takes 13, for the example that shows the refusal of an impossible roll; a calculator
          # offers only what 2D6 roll (window).
          ranges={"roll": {**between(2, 13), **window(2, 12)},
                  "walking_mp": covers(1, 12),  # no bound in the seed: 1 to 12 MP taken
                  "in_a_row": between(0, 4),  # the seed's steps: 4 turns in a row before, the 5th freezes
                  "rested": covers(0, 6)},  # no bound in the seed; from 4 rests on the roll is back at 3+
          outputs={
    "step": "0 for a first use; each consecutive use climbs one step, each turn without it drops one",
    "threshold": "2D6 needed this turn (absent when failure is automatic)",
    "success": "whether MASC works this turn (absent without a roll)",
    "run_mp": "running MP with MASC: twice the walking MP (absent without walking MP or on failure)",
    "frozen": "whether the legs freeze, as two hip critical hits",
})
def masc_roll(history: list[bool] = [], roll: int | None = None, walking_mp: int | None = None, in_a_row: int = 0,
              rested: int = 0):
    """Using MASC this turn after ``history`` (previous turns, oldest first: True = MASC used), or after ``in_a_row``
    turns in a row with MASC followed by ``rested`` turns without it (that many True, then that many False: the
    calculator's inputs). Each rest steps down from the roll the next use would need (the reading the notes name)."""
    trace = Trace()
    _check_2d6(roll)
    history = _masc_history(history, in_a_row, rested)
    step = 0
    for n, used in enumerate(history, 1):
        if used:
            if MASC_THRESHOLDS[step] is None:
                raise RuleError("legs-frozen", "en el turno {n} las piernas ya se congelaron: no hay más MASC",
                                "on turn {n} the legs already froze: no more MASC", n=n)
            step += 1
        else:
            step = max(0, step - 1)
    need = MASC_THRESHOLDS[step]
    if need is None:
        trace.add("Quinto turno seguido: las piernas se congelan sin tirar", "Fifth turn in a row: the legs freeze with no roll")
        return outcome(trace, Chance.of(Fraction(0), "que el MASC funcione", "MASC working", output="success"),
                       step=step, threshold=None, success=False if roll is not None else None,
                       run_mp=None, frozen=True)
    odds = _odds_at_least(need)
    if history:
        trace.add("Tras {t} {t:p:turno anterior|turnos anteriores}, {u} con MASC: escalón {s}, hace falta {n} o más en 2D6 ({f})",
                  "After {t} previous {t:p:turn|turns}, {u} with MASC: step {s}, needs 2D6 of {n} or more ({f})",
                  t=len(history), u=sum(history), s=step, n=need, f=_shown_odds(need))
    else:  # a first use: no history to name (an empty list would read as a placeholder)
        trace.add("Primer uso, sin turnos anteriores: escalón {s}, hace falta {n} o más en 2D6 ({f})",
                  "First use, no previous turns: step {s}, needs 2D6 of {n} or more ({f})",
                  s=step, n=need, f=_shown_odds(need))
    success = frozen = run_mp = None
    if roll is not None:
        success = roll >= need
        frozen = not success
        if success and walking_mp is not None:
            run_mp = 2 * walking_mp
        trace.add("Sale {r}: {t}", "Rolls {r}: {t_en}", r=roll,
                  t="funciona" if success else "las piernas se congelan (dos críticos de cadera)",
                  t_en="it works" if success else "the legs freeze (two hip critical hits)")
    elif walking_mp is not None:
        run_mp = 2 * walking_mp
    if run_mp is not None:
        trace.add("Corre a 2 × {w} = {r} PM", "Runs at 2 × {w} = {r} MP", w=walking_mp, r=run_mp)
    event = Chance.of(odds, "que el MASC funcione", "MASC working", output="success", roll="roll", dice="2d6")
    return outcome(trace, event, step=step, threshold=need, success=success, run_mp=run_mp, frozen=frozen)


@resolver("battletech-solaris.masc-weight",
          ranges={"tonnage": covers(10, 100, 5)},  # no bound in the seed (it gives no tonnage): 10 to 100 tons in 5-ton steps taken
          outputs={
    "exact": "tonnage divided by 25 (Clan) or 20 (Inner Sphere), before rounding",
    "tons": "weight rounded to the nearest half ton, at least 1",
    "slots": "critical slots: as many as its tons, at least 1 (absent for a weight ending in a half ton)",
})
def masc_weight(tonnage: int, tech: Literal["clan", "inner-sphere"], triple_strength_myomer: bool = False):
    """Weight of a 'Mech's MASC: tonnage / 25 (Clan) or / 20 (Inner Sphere), to the nearest half ton, at least 1."""
    trace = Trace()
    if tonnage < 1:
        raise RuleError("bad-tonnage", "el tonelaje es positivo", "tonnage is positive", kind="impossible")
    if triple_strength_myomer:
        raise RuleError("masc-with-tsm", "el MASC es incompatible con el miómero de triple fuerza",
                        "MASC cannot be combined with triple-strength myomer")
    div = MASC_DIVISOR[tech]
    exact = Fraction(tonnage, div)
    halves = exact * 2
    if halves.denominator == 2 and halves > 2:  # a tie at or below 1 ton (15/20 = 0.75) ends at the 1-ton minimum either way
        raise RuleError("rounding-tie",
                        "{t}/{d} = {x} queda a igual distancia de dos medias toneladas; el texto no dice hacia dónde redondear",
                        "{t}/{d} = {x} is equally near two half tons; the text does not say which way to round", kind="unstated",
                        t=tonnage, d=div, x=float(exact))
    if halves.denominator == 2:  # a tie at or below 1 ton: the minimum settles it
        rounded = Fraction(int(halves), 2)  # the lower half ton; the higher one is at most 1 as well
        trace.add("{t} / {d} = {e}: queda a igual distancia de {lo} y {hi}, y ninguna pasa de 1 tonelada",
                  "{t} / {d} = {e}: equally near {lo} and {hi}, neither above 1 ton",
                  t=tonnage, d=div, e=float(exact), lo=float(rounded), hi=float(rounded + Fraction(1, 2)))
    else:
        rounded = Fraction(round(halves), 2)
        trace.add("{t} / {d} = {e}; a la media tonelada más cercana: {r}", "{t} / {d} = {e}; to the nearest half ton: {r}",
                  t=tonnage, d=div, e=float(exact), r=float(rounded))
    tons = max(rounded, Fraction(1))
    if tons != rounded:
        trace.add("Mínimo 1 tonelada", "Minimum 1 ton")
    slots = int(tons) if tons.denominator == 1 else None
    if slots is None:
        trace.add("Espacios para críticos: el texto no dice cómo cuenta media tonelada", "Critical slots: the text does not say how half a ton counts")
    else:
        trace.add("Ocupa tantos espacios para críticos como toneladas: {s}", "It takes as many critical slots as tons: {s}", s=slots)
    return outcome(trace, exact=float(exact), tons=float(tons), slots=slots)


LABELS = {
    "hexes_moved": ("hexágonos recorridos", "hexes moved"),
    "target_prone": ("objetivo derribado", "target prone"),
    "same_elevation": ("a la misma elevación", "at the same elevation"),
    "allowed": ("permitido", "allowed"),
    "levels": ("niveles", "levels"),
    "working_hands": ("manos operativas", "working hands"),
    "hand_free": ("una mano operativa libre", "a free working hand"),
    "running": ("corre", "running"),
    "piloting_skill": ("habilidad de pilotaje", "piloting skill"),
    "rolls": ("tiradas", "rolls"),
    "mp": ("PM", "MP"),
    "piloting_rolls": ("chequeos de pilotaje", "piloting rolls"),
    "piloting_modifier": ("modificador de pilotaje", "piloting modifier"),
    "attack_modifier": ("modificador a los ataques contra él", "modifier to attacks against it"),
    "target": ("necesita en 2D6", "needs on 2D6"),
    "levels_reached": ("niveles alcanzados", "levels reached"),
    "falls": ("cae", "falls"),
    "fall_height": ("altura de la caída (niveles)", "height of the fall (levels)"),
    "leg_roll": ("tirada de piernas", "leg roll"),
    "fall_roll": ("tirada de caída", "fall roll"),
    "structure_damaged": ("estructura interna dañada", "internal structure damaged"),
    "leg_modifier": ("modificador de la tirada de piernas", "leg roll modifier"),
    "fall_modifier": ("modificador de la tirada de caída", "fall roll modifier"),
    "leg_damage": ("daño a cada pierna", "damage to each leg"),
    "leg_critical_rolls": ("tiradas de crítico por pierna", "critical rolls per leg"),
    "event": ("suceso", "event"),
    "roll": ("tirada", "roll"),
    "armour_destroyed": ("sin blindaje en la localización", "location armour destroyed"),
    "engine_slots": ("espacios del reactor en la localización", "engine slots in the location"),
    "roll_needed": ("hace falta tirada", "roll needed"),
    "breached": ("casco perforado", "hull breached"),
    "engine_hits": ("impactos de reactor", "engine hits"),
    "damaging-hit": ("impacto con daño", "damaging hit"),
    "submerging-damaged": ("se sumerge ya dañada", "goes under already damaged"),
    "history": ("turnos anteriores con MASC", "previous turns with MASC"),
    "in_a_row": ("turnos seguidos con MASC (la última racha)", "turns in a row with MASC (the last run)"),
    "rested": ("turnos sin MASC desde entonces", "turns without MASC since then"),
    "walking_mp": ("PM andando", "walking MP"),
    "step": ("escalón", "step"),
    "threshold": ("necesita en 2D6", "needs on 2D6"),
    "success": ("funciona", "works"),
    "run_mp": ("PM corriendo", "running MP"),
    "frozen": ("piernas congeladas", "legs frozen"),
    "tonnage": ("tonelaje", "tonnage"),
    "tech": ("tecnología", "technology"),
    "triple_strength_myomer": ("miómero de triple fuerza", "triple-strength myomer"),
    "exact": ("peso sin redondear", "weight before rounding"),
    "tons": ("toneladas", "tons"),
    "slots": ("espacios de crítico", "critical slots"),
    "clan": ("Clan", "Clan"),
    "inner-sphere": ("Esfera Interior", "Inner Sphere"),
    "mp_available": ("PM disponibles", "MP available"),
    "action": ("acción", "action"),
    "hex_cost": ("coste del hexágono", "hex cost"),
    "prohibited": ("terreno prohibido", "prohibited terrain"),
    "only_expenditure": ("es todo su gasto de PM", "its whole MP expenditure"),
    "minimum_rule": ("se aplica el movimiento mínimo", "minimum movement applies"),
    "counts_as": ("cuenta como", "counts as"),
    "stand_attempts": ("intentos de levantarse", "attempts to stand"),
    "enter-hex": ("entrar en un hexágono", "entering a hex"),
    "stand-up": ("levantarse", "standing up"),
    "case": ("caso", "case"),
    "paths": ("trayectorias", "paths"),
    "jumping": ("saltan", "jumping"),
    "winner": ("gana la iniciativa", "wins the initiative"),
    "rerolls": ("desempates", "tie-break rolls"),
    "first": ("mueve primero", "moves first"),
    "final": ("hexágono final", "final hex"),
    "options": ("opciones del ganador", "the winner's options"),
    "resolved": ("resuelto por la fuente", "resolved by the source"),
    "different-paths-different-targets": ("trayectorias distintas, destinos distintos", "different paths, different targets"),
    "different-paths-same-target": ("trayectorias distintas, mismo destino", "different paths, same target"),
    "similar-paths-different-targets": ("trayectorias parecidas, destinos distintos", "similar paths, different targets"),
    "similar-paths-same-target": ("trayectorias parecidas, mismo destino", "similar paths, same target"),
    "declared": ("movimiento declarado", "declared movement"),
    "mp_spent": ("PM gastados", "MP spent"),
    "blocked": ("bloqueado", "blocked"),
    "backwards": ("hacia atrás", "backwards"),
    "walk": ("andar", "walking"),
    "run": ("correr", "running"),
    "hex_costs": ("coste de cada hexágono", "cost of each hex"),
    "subturns": ("subturnos", "sub-turns"),
    "spends": ("subturnos en que gasta PM", "sub-turns in which it spends MP"),
    "enters": ("subturno en que entra en cada hexágono", "sub-turn in which it enters each hex"),
    "turned_on_paved_or_ice": ("gira sobre pavimento o hielo", "turned on pavement or ice"),
    "keeps_moving": ("sigue moviendo", "keeps moving"),
    "modified_skill": ("pilotaje modificado", "modified piloting"),
    "needed": ("hace falta tirada", "roll needed"),
    "falling_damage": ("daño por caída", "falling damage"),
    "path": ("hexágonos por delante", "hexes ahead"),
    "slide_hexes": ("hexágonos que patinaría", "hexes it would slide"),
    "damage_per_hex": ("daño por hexágono", "damage per hex"),
    "hexes_slid": ("hexágonos patinados", "hexes slid"),
    "slide_damage": ("daño por patinar", "sliding damage"),
    "total_damage": ("daño total", "total damage"),
    "stopped_by": ("lo detiene", "stopped by"),
    "collisions": ("choques", "collisions"),
    "charge_distance": ("distancia de carga", "charge distance"),
    "clear": ("terreno despejado", "clear terrain"),
    "hill": ("colina", "hill"),
    "unit": ("unidad", "unit"),
    "unit-destroyed": ("unidad destruida", "destroyed unit"),
    "building": ("edificio", "building"),
    "building-destroyed": ("edificio destruido", "destroyed building"),
    "moment": ("momento", "moment"),
    "check": ("tirada", "roll"),
    "stuck": ("atrapada", "stuck"),
    "mech": ("'Mech", "'Mech"),
    "ground-vehicle": ("vehículo de tierra", "ground vehicle"),
    "infantry": ("infantería", "infantry"),
    "entering": ("al entrar", "on entering"),
    "escaping": ("al intentar salir", "when getting out"),
    "piloting": ("chequeo de pilotaje", "piloting roll"),
    "infantry-2d6": ("2D6 de infantería", "infantry 2D6"),
    "automatic": ("automático, sin tirada", "automatic, no roll"),
    "none": ("ninguna", "none"),
    "base_cost": ("coste del terreno base", "base terrain cost"),
    "base_allows_unit": ("el terreno base admite la unidad", "the base terrain allows the unit"),
    "cost": ("coste en PM", "MP cost"),
    "hovercraft": ("aerodeslizador", "hovercraft"),
    "base": ("necesita en 2D6 antes de modificar", "needs on 2D6 before modifiers"),
    "stuck_in_swamp": ("atrapado en un pantano", "stuck in a swamp"),
    "climbing": ("escalando", "climbing"),
    "modifier": ("modificador", "modifier"),
    "hit": ("impacta", "hits"),
    "depths": ("profundidades", "depths"),
    "start_depth": ("profundidad de partida", "starting depth"),
    "mp_per_level": ("PM por nivel", "MP per level"),
    "water_mp": ("PM por agua", "water MP"),
    "level_changes": ("cambios de nivel", "level changes"),
    "total_mp": ("PM en total", "total MP"),
    "underwater": ("bajo el agua", "underwater"),
    "attack": ("ataque", "attack"),
    "damage": ("daño", "damage"),
    "attacker_underwater": ("atacante bajo el agua", "attacker underwater"),
    "attacker_in_water": ("atacante en el agua", "attacker in water"),
    "target_underwater": ("objetivo bajo el agua", "target underwater"),
    "rounding_stated": ("la fuente dice cómo redondear", "the source says how to round"),
    "physical": ("ataque físico", "physical attack"),
    "death-from-above": ("muerte desde el cielo", "death from above"),
    "depth": ("profundidad", "depth"),
    "prone": ("derribado", "prone"),
    "submarine": ("submarino", "submarine"),
    "vehicle": ("vehículo", "vehicle"),
    "weapon": ("arma", "weapon"),
    "solaris": ("reglas de Solaris", "Solaris rules"),
    "laser": ("láser", "laser"),
    "ppc": ("CPP", "PPC"),
    "other-energy": ("otra arma de energía", "other energy weapon"),
    "torpedo": ("torpedo", "torpedo"),
    "ballistic": ("balística", "ballistic"),
    "missile": ("misiles", "missile"),
    "other_level": ("nivel del otro hexágono", "level of the other hex"),
    "level": ("nivel", "level"),
    "difference": ("diferencia de niveles", "level difference"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
