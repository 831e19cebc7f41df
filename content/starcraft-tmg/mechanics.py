"""StarCraft tabletop miniatures game, chapter 07: rounds, alternating activation and arrivals.

Every resolver here follows seed 001_89f9918ebbc87fea.txt (§8.1–§8.3.3 and "Una ronda completa,
paso a paso"). Where the chapter leaves a case open (a tied Roll-Off, a VP tie's winner, a unit
exactly at 6"), the resolver refuses or leaves the answer empty instead of inventing a rule.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal
from collections.abc import Mapping

from kb.mechanics import Chance, Context, RuleError, Trace, allowed, between, covers, items, keys_of, outcome, resolver, window
from kb.mechanics.dice import distribution, parse
from kb.mechanics.procedures import flatten_steps

SEQUENCE = "starcraft-tmg.round-sequence"
"""The entry that holds the round's phases and the actions each allows."""

ALTERNATING = ("movement", "assault", "combat")
"""Phases 1, 2 and 3: played by alternating activation (§8.2)."""

MARK_ON_PASS = ("movement", "assault")
"""Phases where your unactivated units on the table get their Activation Marker when you pass (§8.2.1)."""

ZONE_OF_INFLUENCE = 6
"""Inches from the opponent's entry edge (§8.3.3)."""

ROLL_OFF_DICE = "2d6"
"""The Roll-Off for round 1 (§8.2.2)."""

LAST_ROUND = 5
"""A game lasts at most this many rounds (§8.1); a Mission Card may end it sooner."""

PASS = "pass"

PHASE_ACTIONS = ("deploy", "move", "disengage", "hold", "ranged-attack", "charge", "run", "close-combat-attack")
"""Every action the alternating phases allow (the ``allows`` of round-sequence's Movement, Assault and Combat steps):
what a calculator's decisions offer; the phase's own are checked against the sequence entry."""

DECISIONS_ROOM = 16
"""Decisions a calculator offers room for: a phase of up to 6 units a player (``covers(0, 6)``), each activated
once, and a pass each, with room for two more."""


# --------------------------------------------------------------------------- helpers


def _two_players(players: list[str], what: str) -> None:
    """``what`` is the input (shown by its label) that must name the two players."""
    if len(players) < 2:
        raise RuleError("two-players", "{what}: faltan jugadores, hay {n} de 2", "{what}: players are missing, {n} of 2 given",
                        what=what, n=len(players), kind="incomplete")
    if len(players) != 2:
        raise RuleError("two-players", "{what}: hacen falta exactamente los dos jugadores, no {players}",
                        "{what}: exactly the two players are needed, not {players}", what=what, players=players,
                        kind="impossible")


def _round_steps(context: Context) -> list[Mapping[str, Any]]:
    data = context.lookup(SEQUENCE)
    if data is None or "sequence" not in data:
        raise RuleError("no-sequence", "falta la secuencia {s}", "the sequence {s} is missing", s=SEQUENCE)
    return list(data["sequence"]["steps"])


def _step(steps: list[Mapping[str, Any]], step_id: str) -> Mapping[str, Any]:
    for step in flatten_steps(steps):
        if step["id"] == step_id:
            return step
    raise RuleError("unknown-step", "la ronda no tiene un paso «{step}»", "the round has no step “{step}”", step=step_id, kind="impossible")


def _check_2d6(rolls: dict[str, int]) -> None:
    dice = parse(ROLL_OFF_DICE)
    for player, value in rolls.items():
        if not dice.low <= value <= dice.high:
            raise RuleError("impossible-roll", "{p} no puede sacar {v} con 2D6 (2–12)",
                            "{p} cannot roll {v} on 2D6 (2–12)", p=player, v=value, kind="impossible")


def _roll_off(trace: Trace, rolls: dict[str, int]) -> str:
    """Winner of one 2D6 Roll-Off; a tie is refused because chapter 07 does not say how to break it."""
    _two_players(list(rolls), "roll_off")
    _check_2d6(rolls)
    trace.add("Roll-Off (2D6): {rolls}", "Roll-Off (2D6): {rolls}", rolls=dict(rolls))
    (a, ra), (b, rb) = rolls.items()
    if ra == rb:
        raise RuleError("roll-off-tie",
                        "empate a {r} en el Roll-Off: el capítulo 07 no explica cómo se deshace",
                        "the Roll-Off is tied at {r}: chapter 07 does not say how to break the tie", kind="unstated", r=ra)
    # The seed only says "Roll-Off (2D6)" and never says who wins it: the usual reading is taken, the higher total wins.
    winner = a if ra > rb else b
    trace.add("Gana el Roll-Off {w}", "{w} wins the Roll-Off", w=winner)
    return winner


# --------------------------------------------------------------------------- resolvers


@resolver("starcraft-tmg.activation-phase",
          ranges={"units.*": covers(0, 6),  # no bound in the seed: 0 to 6 units a player taken
                  "reserves": keys_of("units"),  # the seed: each player's Reserves (§8.3); the players are those of `units`
                  "reserves.*": covers(0, 6),  # no bound in the seed: 0 to 6 units taken, as for `units`
                  "no_longer_engaged": keys_of("units"),  # the players are those of `units`
                  "no_longer_engaged.*": covers(0, 6),  # as for `units`
                  # each decision is one player's ({player: action}); a calculator offers every player with every action
                  # of the round's alternating phases (round-sequence's `allows`) or a pass, and room for a whole phase
                  "holder": keys_of("units"),  # one of the two players
                  "starts": keys_of("units"),  # the player the holder has go first
                  "decisions": items(0, DECISIONS_ROOM),
                  "decisions[]": keys_of("units", one=True),
                  "decisions[].*": allowed(*PHASE_ACTIONS, PASS)},
          outputs={
    "turns": "what happened at each turn, as 'player: action'",
    "first_to_pass": "the player who passed first",
    "next_first_player": "who takes the First Player Marker for the next phase (the first to pass)",
    "marker_for": "the phase that marker is for",
    "activations": "units each player activated in the phase",
    "markers": "Activation Markers each player has on the table when the phase ends",
    "finishing_run": "activations the other player made alone after the first pass",
})
def activation_phase(context: Context, phase: Literal["movement", "assault", "combat"], holder: str,
                     units: dict[str, int], decisions: list[dict[str, str]], starts: str | None = None,
                     reserves: dict[str, int] | None = None, no_longer_engaged: dict[str, int] | None = None):
    """Play one alternating-activation phase (1, 2 or 3) from the players' decisions, turn by turn.

    ``units`` counts each player's units on the table that may activate in the phase (in Combat,
    their engaged units); ``reserves`` counts the units in Reserves that Supply lets each player
    Deploy (they count only in Movement: Deploy is no action of the other phases). ``holder`` has the First Player Marker and ``starts`` is the player
    they pick to activate first (the holder by default). Each decision is ``{player: action}``
    or ``{player: pass}``; the list must play the phase to its end (both players have passed).
    ``no_longer_engaged`` (Combat only) counts each player's engaged units that stop being engaged during
    the phase without attacking (destroyed, or their foes gone): they are not engaged units left.
    """
    players = list(units)
    _two_players(players, "units")
    reserves = dict(reserves or {})
    freed = dict(no_longer_engaged or {}) if phase == "combat" else {}
    for p, n in [*units.items(), *reserves.items(), *freed.items()]:
        if n < 0:
            raise RuleError("bad-count", "{p} no puede tener {n} {n:p:unidad|unidades}", "{p} cannot have {n} {n:p:unit|units}", p=p, n=n, kind="impossible")
    for p in [*reserves, *freed]:
        if p not in players:
            raise RuleError("unknown-player", "{p} no juega esta partida", "{p} is not playing this game", p=p, kind="impossible")
    for p, n in freed.items():
        if n > units[p]:
            raise RuleError("bad-count", "{p} tiene {u} {u:p:unidad trabada|unidades trabadas}: no pueden dejar de estarlo {n}",
                            "{p} has {u} engaged {u:p:unit|units}: {n} cannot stop being engaged", p=p, u=units[p], n=n,
                            kind="impossible")
    starts = starts or holder
    for who in (holder, starts):
        if who not in players:
            raise RuleError("unknown-player", "{p} no juega esta partida", "{p} is not playing this game", p=who, kind="impossible")

    steps = _round_steps(context)
    allowed = list(_step(steps, phase).get("allows", []))
    ids = [s["id"] for s in steps]
    marker_for = ids[ids.index(phase) + 1] if ids.index(phase) + 1 < len(ids) else None

    trace = Trace()
    trace.add("Fase de {phase}: acciones posibles {allowed}", "{phase} phase: available actions {allowed}",
              phase=phase, allowed=allowed)
    if starts == holder:
        trace.add("{h} tiene el First Player Marker y empieza", "{h} holds the First Player Marker and goes first", h=holder)
    else:
        trace.add("{h} tiene el First Player Marker y decide que empiece {s}",
                  "{h} holds the First Player Marker and has {s} go first", h=holder, s=starts)

    table = {p: units[p] for p in players}
    # Units in Reserves can only take Deploy, a Movement action (§8.3); in the other phases they have no
    # action to take, so they are not units that "can be activated" (§8.2.1) and do not spare a player from passing.
    if phase != "movement" and any(reserves.values()):
        trace.add("Las unidades en la reserva solo pueden hacer Deploy, que es de la fase de Movimiento: en esta fase no se activan",
                  "Units in Reserves can only take Deploy, a Movement-phase action: they do not activate in this phase")
        reserves = {}
    waiting = {p: reserves.get(p, 0) for p in players}
    activations = {p: 0 for p in players}
    markers = {p: 0 for p in players}
    passed: list[str] = []
    turns: list[str] = []
    run = 0
    turn = starts
    other = {players[0]: players[1], players[1]: players[0]}

    for n, decision in enumerate(decisions, 1):
        if len(passed) == 2:
            raise RuleError("phase-over", "la decisión {n} llega cuando los dos jugadores ya han pasado",
                            "decision {n} comes after both players have passed", n=n, kind="impossible")
        if len(decision) != 1:
            raise RuleError("bad-decision", "la decisión {n} debe nombrar a un jugador y lo que hace",
                            "decision {n} must name one player and what they do", n=n, kind="impossible")
        (player, action), = decision.items()
        if player in passed:
            raise RuleError("already-passed", "decisión {n}: {p} ya ha pasado y no activa nada más en esta fase",
                            "decision {n}: {p} has passed and activates nothing more this phase", n=n, p=player)
        if player != turn:
            raise RuleError("not-your-turn", "la decisión {n} es de {player}, pero le toca a {turn}",
                            "decision {n} is {player}'s, but it is {turn}'s turn", n=n, player=player, turn=turn)
        can_activate = table[player] + waiting[player] > 0
        if action == PASS:
            # "Solo pasas cuando ya no te quedan unidades trabadas": a unit that is no longer engaged (destroyed, or its
            # foes gone) is not one left, so it does not hold its player back (the chapter says no more on it).
            left = max(0, table[player] - freed.get(player, 0)) if phase == "combat" else table[player]
            if phase == "combat" and left > 0:
                raise RuleError("must-fight",
                                "{p} aún tiene {k} {k:p:unidad trabada|unidades trabadas}: en Combate solo se pasa sin ninguna",
                                "{p} still has {k} engaged {k:p:unit|units}: in Combat you pass only with none left",
                                p=player, k=left)
            if phase == "combat" and table[player] > 0:
                trace.add("{k} {k:p:unidad|unidades} de {p} ya no {k:p:está trabada|están trabadas}: pasa sin {k:p:ella|ellas}",
                          "{k} of {p}'s {k:p:unit is|units are} no longer engaged: {p} passes without {k:p:it|them}",
                          k=table[player], p=player)
            passed.append(player)
            turns.append(f"{player}: {PASS}")
            if len(passed) == 1:
                trace.add("{p} pasa el primero: se lleva el First Player Marker para la fase siguiente",
                          "{p} passes first: takes the First Player Marker for the next phase", p=player)
            else:
                trace.add("{p} pasa también: termina la fase", "{p} passes too: the phase ends", p=player)
            if phase in MARK_ON_PASS and table[player] > 0:
                trace.add("{k} {k:p:unidad|unidades} de {p} en mesa sin activar {k:p:recibe|reciben} su Activation Marker",
                          "{k} unactivated {k:p:unit|units} of {p} on the table {k:p:gets its|get their} Activation Marker", k=table[player], p=player)
                markers[player] += table[player]
                table[player] = 0
        else:
            if action not in allowed:
                raise RuleError("action-not-allowed", "{action} no es una acción de la fase de {phase} ({allowed})",
                                "{action} is not an action of the {phase} phase ({allowed})", action=action, phase=phase,
                                allowed=list(allowed))
            if not can_activate:
                raise RuleError("must-pass", "decisión {n}: a {p} no le queda ninguna unidad que activar, tiene que pasar",
                                "decision {n}: {p} has no unit left to activate, they must pass", n=n, p=player)
            pool = waiting if action == "deploy" else table
            if pool[player] == 0:
                raise RuleError("no-unit-for-action",
                                "decisión {n}: {p} no tiene ninguna unidad que pueda hacer {a}",
                                "decision {n}: {p} has no unit that can take {a}", n=n, p=player, a=action, kind="impossible")
            pool[player] -= 1
            activations[player] += 1
            markers[player] += 1
            turns.append(f"{player}: {action}")
            if passed:
                run += 1
            trace.add("{p} activa una unidad: {a} (y le pone su Activation Marker)",
                      "{p} activates a unit: {a} (and puts its Activation Marker next to it)", p=player, a=action)
        turn = player if other[player] in passed else other[player]

    if len(passed) < 2:
        raise RuleError("phase-unfinished", "las decisiones acaban antes de que pasen los dos jugadores",
                        "the decisions end before both players have passed", kind="incomplete")
    if marker_for:
        trace.add("{p} tendrá el First Player Marker en la fase de {nxt}", "{p} will hold the First Player Marker in the {nxt} phase",
                  p=passed[0], nxt=marker_for)
    return outcome(trace, turns=turns, first_to_pass=passed[0], next_first_player=passed[0], marker_for=marker_for,
                   activations=activations, markers=markers, finishing_run=run)


@resolver("starcraft-tmg.first-player",
          # A game has at most 5 rounds (§8.1). kb check also takes 0 and 6 to 10, and 1 and 13 on 2D6, for the examples
          # that show their refusals; a calculator offers only what can happen at the table (window).
          ranges={"round": {**between(0, 10), **window(1, LAST_ROUND)},
                  # the seed: a Roll-Off between the two players (those of `vp`, when given): both rolls or none
                  "roll_off": keys_of("vp", every=True),
                  "roll_off.*": {**between(1, 13), **window(2, 12)},  # 2D6
                  # the seed: each player's VP (the players of `roll_off`, when given): both or none
                  "vp": keys_of("roll_off", every=True),
                  "choice": keys_of("roll_off", "vp"),  # §8.2.2: the Roll-Off's winner gives the marker to either player
                  "vp.*": covers(0, 12)},  # no bound in the seed: 0 to 12 VP taken
          outputs={
    "holder": "who receives the First Player Marker for the round (empty when chapter 07 does not settle it)",
    "decided_by": "roll-off (round 1), fewer-vp, or vp-tie-roll-off",
    "roll_off_winner": "who won the Roll-Off, when one was made",
})
def first_player(round: int, roll_off: dict[str, int] | None = None, choice: str | None = None,
                 vp: dict[str, int] | None = None):
    """Who holds the First Player Marker at the start of a round (§8.2.2).

    Round 1: a 2D6 Roll-Off (``roll_off``), whose winner gives the marker to either player
    (``choice``). Later rounds: the player with fewer VP at the end of the previous round (``vp``);
    a VP tie calls for another Roll-Off. A game has at most 5 rounds (§8.1).
    """
    trace = Trace()
    if round < 1:
        raise RuleError("bad-round", "no hay ronda {r}", "there is no round {r}", r=round, kind="impossible")
    if round > LAST_ROUND:
        raise RuleError("past-last-round", "la partida dura como mucho {n} rondas: no hay ronda {r}",
                        "a game lasts at most {n} rounds: there is no round {r}", n=LAST_ROUND, r=round, kind="impossible")
    if round == 1:
        if roll_off is None:
            raise RuleError("missing-roll-off", "la ronda 1 empieza con un Roll-Off de 2D6",
                            "round 1 starts with a 2D6 Roll-Off", kind="incomplete")
        winner = _roll_off(trace, roll_off)
        if choice is None:
            raise RuleError("missing-choice", "{w} tiene que decidir a quién da el First Player Marker",
                            "{w} must decide who gets the First Player Marker", w=winner, kind="incomplete")
        if choice not in roll_off:
            raise RuleError("unknown-player", "{p} no juega esta partida", "{p} is not playing this game", p=choice, kind="impossible")
        if choice == winner:
            trace.add("{w} se queda el marcador", "{w} keeps the marker", w=winner)
        else:
            trace.add("{w} da el First Player Marker a {c}", "{w} gives the First Player Marker to {c}", w=winner, c=choice)
        return outcome(trace, holder=choice, decided_by="roll-off", roll_off_winner=winner)

    if vp is None:
        raise RuleError("missing-vp", "para la ronda {r} hacen falta los VP al final de la ronda {b}",
                        "round {r} needs the VP at the end of round {b}", r=round, b=round - 1, kind="incomplete")
    _two_players(list(vp), "vp")
    trace.add("VP al final de la ronda {r}: {vp}", "VP at the end of round {r}: {vp}", r=round - 1,
              vp=dict(vp))
    (a, va), (b, vb) = vp.items()
    if va != vb:
        holder = a if va < vb else b
        trace.add("{h} va por detrás y recibe el First Player Marker", "{h} is behind and receives the First Player Marker",
                  h=holder)
        return outcome(trace, holder=holder, decided_by="fewer-vp", roll_off_winner=None)
    trace.add("Empate a {v} VP: se hace otro Roll-Off", "Tied at {v} VP: another Roll-Off is made", v=va)
    if roll_off is None:
        raise RuleError("missing-roll-off", "con empate a VP hace falta otro Roll-Off", "a VP tie needs another Roll-Off", kind="incomplete")
    if set(roll_off) != set(vp):
        raise RuleError("unknown-player", "el Roll-Off debe ser entre los dos jugadores", "the Roll-Off must be between the two players", kind="impossible")
    winner = _roll_off(trace, roll_off)
    trace.add("El capítulo 07 no dice si {w} se queda el marcador o lo asigna como en la ronda 1",
              "Chapter 07 does not say whether {w} keeps the marker or assigns it as in round 1", w=winner)
    return outcome(trace, holder=None, decided_by="vp-tie-roll-off", roll_off_winner=winner)


@resolver("starcraft-tmg.roll-off-odds", outputs={
    "favourable": "Roll-Off outcomes (of both players' dice) with that result for the first player",
    "outcomes": "all equally likely outcomes",
    "probability": "favourable/outcomes as a fraction text",
})
def roll_off_odds(result: Literal["win", "tie", "lose"], dice: str = ROLL_OFF_DICE):
    """Exact odds that one player wins, ties or loses a single Roll-Off (2D6 each)."""
    d = parse(dice)
    ways = distribution(d)
    # "win" is the higher total: the seed does not say who wins a Roll-Off (same reading as _roll_off).
    fav = 0
    for mine, n in ways.items():
        for theirs, m in ways.items():
            if (result == "win" and mine > theirs) or (result == "tie" and mine == theirs) or (result == "lose" and mine < theirs):
                fav += n * m
    total = (d.sides ** d.count) ** 2
    names_es = {"win": "gana", "tie": "empata", "lose": "pierde"}
    names_en = {"win": "wins", "tie": "ties", "lose": "loses"}
    trace = Trace()
    trace.add("Cada jugador tira {dice}: {total} combinaciones igual de probables",
              "Each player rolls {dice}: {total} equally likely combinations", dice=str(d), total=total)
    trace.add("El primer jugador {r} en {fav} de ellas", "The first player {r_en} in {fav} of them",
              r=names_es[result], r_en=names_en[result], fav=fav)
    events = {"win": ("que el primer jugador gane la tirada enfrentada", "the first player winning the Roll-Off"),
              "tie": ("un empate en la tirada enfrentada", "a tie in the Roll-Off"),
              "lose": ("que el primer jugador pierda la tirada enfrentada", "the first player losing the Roll-Off")}
    return outcome(trace, Chance.of(Fraction(fav, total), *events[result]), favourable=fav, outcomes=total,
                   probability=f"{fav}/{total}")


@resolver("starcraft-tmg.arrival-check",
          ranges={"distance": covers(0, 24, 0.1)},  # inches, in tenths (the seed measures 6" exactly); 0 to 24 taken
          outputs={
    "legal": "whether the unit may end its arrival there",
    "margin": "inches beyond the Zone of Influence",
})
def arrival_check(distance: float, in_coherency: bool = True,
                  method: Literal["edge", "warp-prism", "summoned"] = "edge"):
    """May a unit arriving from Reserves end its activation here? (§8.3.3)

    ``distance`` is how far the unit ends from the opponent's entry edge, in inches;
    ``in_coherency`` says whether every model fits legally in Coherency; ``method`` is how it arrives.
    """
    if distance < 0:
        raise RuleError("bad-distance", "una distancia no puede ser negativa", "a distance cannot be negative", kind="impossible")
    trace = Trace()
    how_es = {"edge": "por el borde", "warp-prism": "con Warp Prism", "summoned": "invocada"}[method]
    how_en = {"edge": "from the edge", "warp-prism": "by Warp Prism", "summoned": "summoned"}[method]
    trace.add("Llega {how_es}: el límite es el mismo para cualquier forma de llegada",
              "Arrives {how_en}: the limit is the same for every way of arriving", how_es=how_es, how_en=how_en)
    trace.add("Zone of Influence rival: {z}\" desde su borde de entrada; la unidad acaba a {d}\"",
              "Opponent's Zone of Influence: {z}\" from their entry edge; the unit ends {d}\" away",
              z=ZONE_OF_INFLUENCE, d=distance)
    if distance < ZONE_OF_INFLUENCE:
        raise RuleError("inside-zone-of-influence",
                        "a {d}\" del borde rival la unidad acaba dentro de su Zone of Influence ({z}\")",
                        "at {d}\" from the opposing edge the unit ends inside their Zone of Influence ({z}\")",
                        d=distance, z=ZONE_OF_INFLUENCE)
    if distance == ZONE_OF_INFLUENCE:
        raise RuleError("zone-boundary",
                        "a {d}\" justos el capítulo 07 no aclara si la unidad está dentro o fuera",
                        "at exactly {d}\" chapter 07 does not say whether the unit is inside or outside", kind="unstated", d=distance)
    if not in_coherency:
        raise RuleError("out-of-coherency", "no caben todas en Coherency: no se puede desplegar ahí",
                        "they do not all fit in Coherency: you cannot deploy there")
    trace.add("Fuera de la zona y en Coherency: llegada válida", "Outside the zone and in Coherency: a legal arrival")
    return outcome(trace, legal=True, margin=distance - ZONE_OF_INFLUENCE)


@resolver("starcraft-tmg.start-of-round", outputs={
    "statuses": "each unit's statuses once the round has started",
    "effects_order": "the Start of the Round effects in the order they are resolved",
})
def start_of_round(first_player: str, units: dict[str, list[str]], effects: dict[str, list[str]] | None = None):
    """The start of a round: STATIONARY for all, HIDDEN for BURROWED, then Start of the Round effects in order.

    The First Player Marker holder's effects go first; each player orders their own.

    ``units`` maps each unit on the table to the statuses it has; ``effects`` maps each player to
    their Start of the Round effects in the order that player chooses.
    """
    effects = dict(effects or {})
    if len(effects) > 2:
        _two_players(list(effects), "effects")
    trace = Trace()
    statuses: dict[str, list[str]] = {}
    for unit, has in units.items():
        now = list(dict.fromkeys(has))
        gained = ["STATIONARY"] + (["HIDDEN"] if "BURROWED" in now else [])
        for status in gained:
            if status not in now:
                now.append(status)
        statuses[unit] = now
        trace.add("{u} gana {g}", "{u} gains {g}", u=unit, g=gained)
    order = [first_player] + [p for p in effects if p != first_player]
    resolved: list[str] = []
    for player in order:
        mine = effects.get(player, [])
        if mine:
            trace.add("Efectos de {p} (en el orden que elige): {e}", "{p}'s effects (in the order they choose): {e}",
                      p=player, e=mine)
        resolved += mine
    trace.add("Después se revisa el Supply disponible (capítulo 05)", "Then the available Supply is checked (chapter 05)")
    return outcome(trace, statuses=statuses, effects_order=resolved)


LABELS = {
    "phase": ("fase", "phase"),
    "holder": ("tiene el marcador de primer jugador", "holds the First Player Marker"),
    "units": ("unidades por jugador", "units per player"),
    "decisions": ("decisiones", "decisions"),
    "starts": ("empieza", "starts"),
    "reserves": ("unidades en reserva", "units in reserve"),
    "no_longer_engaged": ("unidades trabadas que dejan de estarlo antes de atacar", "engaged units that stop being engaged before attacking"),
    "turns": ("turnos", "turns"),
    "first_to_pass": ("primero en pasar", "first to pass"),
    "next_first_player": ("primer jugador de la fase siguiente", "first player of the next phase"),
    "marker_for": ("marcador para la fase", "marker for the phase"),
    "activations": ("activaciones", "activations"),
    "markers": ("marcadores de activación en mesa", "Activation Markers on the table"),
    "finishing_run": ("activaciones seguidas al final", "activations in a row at the end"),
    "deploy": ("Deploy", "Deploy"),  # the actions keep the seed's English names (round-sequence's phases)
    "move": ("Move", "Move"),
    "disengage": ("Disengage", "Disengage"),
    "hold": ("Hold", "Hold"),
    "ranged-attack": ("Ranged Attack", "Ranged Attack"),
    "charge": ("Charge", "Charge"),
    "run": ("Run", "Run"),
    "close-combat-attack": ("Close Combat Attack", "Close Combat Attack"),
    "pass": ("pasar", "pass"),
    "movement": ("Movimiento", "Movement"),
    "assault": ("Asalto", "Assault"),
    "combat": ("Combate", "Combat"),
    "distance": ("distancia", "distance"),
    "in_coherency": ("en coherencia", "in coherency"),
    "method": ("forma de llegar", "way of arriving"),
    "legal": ("permitida", "allowed"),
    "margin": ("pulgadas fuera de la zona", "inches clear of the zone"),
    "edge": ("por el borde de la mesa", "from the table edge"),
    "warp-prism": ("por un Warp Prism", "through a Warp Prism"),
    "summoned": ("invocada", "summoned"),
    "round": ("ronda", "round"),
    "roll_off": ("tirada enfrentada", "Roll-Off"),
    "choice": ("elección", "choice"),
    "vp": ("puntos de victoria", "victory points"),
    "decided_by": ("se decide por", "decided by"),
    "roll-off": ("tirada enfrentada", "a Roll-Off"),
    "fewer-vp": ("menos puntos de victoria", "fewer victory points"),
    "vp-tie-roll-off": ("tirada enfrentada por empate a puntos", "a Roll-Off after a tie in victory points"),
    "roll_off_winner": ("gana la tirada enfrentada", "wins the Roll-Off"),
    "result": ("resultado", "result"),
    "dice": ("dados", "dice"),
    "favourable": ("resultados favorables", "favourable outcomes"),
    "outcomes": ("resultados posibles", "possible outcomes"),
    "probability": ("probabilidad", "probability"),
    "win": ("gana", "wins"),
    "tie": ("empate", "tie"),
    "lose": ("pierde", "loses"),
    "first_player": ("primer jugador", "first player"),
    "effects": ("efectos", "effects"),
    "statuses": ("estados", "statuses"),
    "effects_order": ("orden de los efectos", "order of the effects"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
