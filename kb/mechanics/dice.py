"""Dice expressions and their exact odds: ``d20``, ``2d6``, ``1d6+1``."""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Callable, Mapping

from kb.mechanics import ROLLED_ON, Resolver, RuleError, Outcome, Trace, Chance, outcome, resolver, window

__all__ = ["Dice", "parse", "total_range", "bounded_inputs", "distribution", "chance", "over_limits", "MAX_DICE", "MAX_SIDES", "MAX_BONUS"]

MAX_DICE = 20
"""Most dice in one expression (``20d6``)."""
MAX_SIDES = 1000
"""Most faces of one die (``d1000``)."""
MAX_BONUS = 100_000
"""Largest constant added to a roll."""

_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_DICE_LIKE = re.compile(r"^\s*(\d{1,30})?\s*[dD]\s*(\d{1,30})\b")


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` faces plus a constant."""

    count: int
    """How many dice."""
    sides: int
    """Faces per die."""
    bonus: int = 0
    """Constant added to the total."""

    def __str__(self) -> str:
        extra = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{extra}"

    @property
    def low(self) -> int:
        """Smallest possible total."""
        return self.count + self.bonus

    @property
    def high(self) -> int:
        """Largest possible total."""
        return self.count * self.sides + self.bonus


def over_limits(expr: str) -> str | None:
    """What makes a dice expression too big to work out (``None`` for anything else)."""
    m = _DICE_LIKE.match(expr)
    if not m:
        return None
    count, sides = int(m.group(1) or 1), int(m.group(2))
    if count > MAX_DICE:
        return f"{count} dice; the limit is {MAX_DICE}"
    if sides > MAX_SIDES:
        return f"dice of {sides} sides; the limit is {MAX_SIDES}"
    bonus = _DICE.match(expr)
    if bonus and bonus.group(4) and (len(bonus.group(4)) > 6 or int(bonus.group(4)) > MAX_BONUS):
        return f"a bonus over {MAX_BONUS}"
    return None


def parse(expr: str) -> Dice:
    """Parse ``NdS[+K]``; raise :class:`RuleError` ``bad-dice`` when it is not one or passes the limits."""
    m = _DICE.match(expr) if len(expr) <= 100 else None
    if m and over_limits(expr):
        raise RuleError("dice-limit", "«{e}» pasa los límites: hasta {d} dados de hasta {s} caras y un modificador de hasta {b}",
                        "“{e}” is over the limits: up to {d} dice of up to {s} sides and a bonus up to {b}",
                        e=expr, d=MAX_DICE, s=MAX_SIDES, b=MAX_BONUS)
    if not _well_formed(m):
        raise RuleError("bad-dice", "«{e}» no es una expresión de dados como 2d6 o d20",
                        "“{e}” is not a dice expression such as 2d6 or d20", e=expr)
    assert m is not None  # _well_formed
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return Dice(int(m.group(1) or 1), int(m.group(2)), bonus)


def total_range(expr: object) -> tuple[int, int] | None:
    """The lowest and highest total of a dice expression (``4d6``: 4 and 24); ``None`` when it is not one."""
    try:
        d = parse(expr) if isinstance(expr, str) else None
    except RuleError:
        return None
    return None if d is None else (d.low, d.high)


def bounded_inputs(res: Resolver, given: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs' JSON Schema of ``res`` for ``given``: each :func:`~kb.mechanics.rolled_on` number bounded by what
    its dice roll (the dice ``given`` names, else the input's default; left unbounded when they do not parse)."""
    defaults = {k: p.default for k, p in inspect.signature(res.func).parameters.items()}
    return {name: _rolled(schema, lambda dice: total_range(given.get(dice, defaults.get(dice))))
            for name, schema in res.inputs.items()}


def _rolled(schema: Any, totals: Callable[[str], tuple[int, int] | None]) -> Any:
    """``schema`` with each :data:`ROLLED_ON` keyword turned into the ``minimum`` and ``maximum`` of ``totals``."""
    if isinstance(schema, list):
        return [_rolled(s, totals) for s in schema]
    if not isinstance(schema, Mapping):
        return schema
    out = {k: _rolled(v, totals) for k, v in schema.items() if k != ROLLED_ON}
    span = totals(schema[ROLLED_ON]) if ROLLED_ON in schema else None
    if span is not None:
        out.update(minimum=span[0], maximum=span[1])
    return out


def _well_formed(m: re.Match[str] | None) -> bool:
    """A dice match of two sides or more and, when a count is written, one die or more."""
    return m is not None and int(m.group(2)) >= 2 and not (m.group(1) and int(m.group(1)) < 1)


@cache
def distribution(dice: Dice) -> dict[int, int]:
    """How many of the ``sides**count`` equally likely outcomes give each total."""
    ways = [1]  # ways[t]: outcomes totalling t with the dice added so far
    for _ in range(dice.count):
        running, nxt = 0, [0] * (len(ways) + dice.sides)
        for total in range(1, len(nxt)):  # one more die: the sum of the previous `sides` totals (a sliding window)
            running += ways[total - 1] if total - 1 < len(ways) else 0
            if total - 1 - dice.sides >= 0:
                running -= ways[total - 1 - dice.sides]
            nxt[total] = running
        ways = nxt
    return {t + dice.bonus: n for t, n in enumerate(ways) if n}


def chance(dice: Dice, at_least: int | None = None, at_most: int | None = None) -> tuple[int, int]:
    """Favourable and total outcomes for ``at_least <= total <= at_most``."""
    ways = distribution(dice)
    lo = dice.low if at_least is None else at_least
    hi = dice.high if at_most is None else at_most
    return sum(n for t, n in ways.items() if lo <= t <= hi), dice.sides**dice.count


def check_roll(dice: Dice, roll: int | None) -> None:
    """Raise ``impossible-roll`` when ``roll`` cannot come out of ``dice``."""
    if roll is not None and not dice.low <= roll <= dice.high:
        raise RuleError("impossible-roll", "{r} no puede salir en {d} ({lo}–{hi})",
                        "{r} cannot be rolled on {d} ({lo}–{hi})", r=roll, d=str(dice), lo=dice.low, hi=dice.high, kind="impossible")


def _bounds(at_least: int | None, at_most: int | None, joiner: str) -> str:
    """``≥ 5 and ≤ 9`` (the bounds given, joined by ``joiner``); ``""`` when none is."""
    said = ([f"≥ {at_least}"] if at_least is not None else []) + ([f"≤ {at_most}"] if at_most is not None else [])
    return joiner.join(said)


@resolver("dice.odds",
          ranges={"at_least": window(0, 21),  # a calculator offers the bounds of 1D6, 2D6 and D20; any bound is taken
                  "at_most": window(0, 21)},
          outputs={"favourable": "outcomes that meet the bound",
                                "outcomes": "all equally likely outcomes",
                                "probability": "favourable/outcomes as a fraction text"})
def odds(dice: str, at_least: int | None = None, at_most: int | None = None) -> Outcome:
    """Exact odds that a dice total lands within bounds (2d6 >= 5 is 30/36)."""
    d = parse(dice)
    fav, total = chance(d, at_least, at_most)
    trace = Trace()
    bound_es, bound_en = _bounds(at_least, at_most, " y "), _bounds(at_least, at_most, " and ")
    trace.add("{dice} da {bound} en {fav} de {total} resultados", "{dice} rolls {bound_en} in {fav} of {total} outcomes",
              dice=str(d), bound=bound_es or "cualquier valor", bound_en=bound_en or "anything", fav=fav, total=total)
    event = Chance.of(Fraction(fav, total), f"sacar {bound_es or 'cualquier valor'} en {d}",
                         f"rolling {bound_en or 'anything'} on {d}")
    return outcome(trace, event, favourable=fav, outcomes=total, probability=f"{fav}/{total}")


@resolver("dice.initiative",
          ranges={"rolls[].*": window(1, 20)},  # a calculator offers 2D6 or D20 rolls; any roll is taken
          outputs={"order": "players from first to last", "rerolls": "tie-breaking rounds used"})
def initiative(rolls: list[dict[str, int]], highest_first: bool = True) -> Outcome:
    """Order players by a roll, re-rolling ties among the tied players only.

    ``rolls[0]`` holds every player's roll; each later round holds the rolls of the players
    still tied, in the order the ties are met.
    """
    if not rolls or not rolls[0]:
        raise RuleError("no-rolls", "falta la primera tirada", "the first round of rolls is missing", kind="incomplete")
    trace = Trace()
    rounds = iter(rolls[1:])
    used = 0

    def settle(scores: dict[str, int]) -> list[str]:
        nonlocal used
        groups: dict[int, list[str]] = {}
        for player, value in scores.items():
            groups.setdefault(value, []).append(player)
        order: list[str] = []
        for value in sorted(groups, reverse=highest_first):
            tied = groups[value]
            if len(tied) == 1:
                order += tied
                continue
            again = next(rounds, None)
            if again is None or set(again) != set(tied):
                raise RuleError("unresolved-tie", "el empate entre {t} sigue sin deshacer: repiten la tirada solo ellos",
                                "the tie between {t} needs a re-roll of exactly those players", t=tied, kind="incomplete")
            used += 1
            trace.add("Empate a {value} entre {tied}: repiten la tirada ({again})",
                      "Tie at {value} between {tied}: they roll again ({again})",
                      value=value, tied=tied, again={p: again[p] for p in tied})
            order += settle(again)
        return order

    trace.add("Tiradas: {rolls}", "Rolls: {rolls}", rolls=dict(rolls[0]))
    order = settle(rolls[0])
    trace.add("Orden: {order}", "Order: {order}", order=order)
    return outcome(trace, order=order, rerolls=used)


LABELS = {
    "rolls": ("tiradas", "rolls"),
    "highest_first": ("empieza la más alta", "highest goes first"),
    "order": ("orden", "order"),
    "rerolls": ("desempates", "tie-break rolls"),
    "dice": ("dados", "dice"),
    "at_least": ("como mínimo", "at least"),
    "at_most": ("como máximo", "at most"),
    "favourable": ("resultados favorables", "favourable outcomes"),
    "outcomes": ("resultados posibles", "possible outcomes"),
    "probability": ("probabilidad", "probability"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
