"""Checks against a target number: roll under (d20 games) and roll over (2d6 games)."""

from __future__ import annotations

from fractions import Fraction

from kb.mechanics import Chance, Outcome, Trace, outcome, resolver, rolled_on, window
from kb.mechanics.dice import chance, check_roll, parse

__all__ = ["roll_under", "roll_over"]

_OUTPUTS = {
    "target": "the target number after modifiers",
    "success": "whether the roll succeeds (absent without a roll)",
    "margin": "how far the roll beat or missed the target",
}


def _apply(trace: Trace, target: int, modifiers: dict[str, int]) -> int:
    total = target
    for name, value in modifiers.items():
        total += value
        trace.add("Modificador {name}: {value:+d} → {total}", "Modifier {name}: {value:+d} → {total}",
                  name=name, value=value, total=total)
    return total


def _check(trace: Trace, dice: str, target: int, roll: int | None, modifiers: dict[str, int],
           under: bool) -> tuple[int, bool | None, Fraction]:
    d = parse(dice)
    check_roll(d, roll)
    need = _apply(trace, target, modifiers)
    fav, total = chance(d, at_most=need) if under else chance(d, at_least=need)
    trace.add("Se necesita {need} o {way} en {dice} ({fav}/{total})", "Needs {need} or {way_en} on {dice} ({fav}/{total})",
              need=need, dice=str(d), fav=fav, total=total, way="menos" if under else "más",
              way_en="less" if under else "more")
    success = None if roll is None else (roll <= need if under else roll >= need)
    if roll is not None:
        trace.add("Sale {roll}: {ok}", "Rolls {roll}: {ok_en}", roll=roll,
                  ok="éxito" if success else "fallo", ok_en="success" if success else "failure")
    return need, success, Fraction(fav, total)


def roll_under(trace: Trace, dice: str, target: int, roll: int | None, modifiers: dict[str, int]) -> tuple[int, bool | None, Fraction]:
    """Succeed on ``roll <= target + modifiers``; returns (target, success, probability)."""
    return _check(trace, dice, target, roll, modifiers, under=True)


def roll_over(trace: Trace, dice: str, target: int, roll: int | None, modifiers: dict[str, int]) -> tuple[int, bool | None, Fraction]:
    """Succeed on ``roll >= target + modifiers``; returns (target, success, probability)."""
    return _check(trace, dice, target, roll, modifiers, under=False)


@resolver("check.roll-under",
          ranges={"target": window(0, 21),  # a calculator offers the targets of 1D6, 2D6 and D20; any target is taken
                  "roll": {**window(1, 20), **rolled_on("dice")},  # kb check refuses a roll the dice cannot give
                  "modifiers.*": window(-6, 6)},
          outputs=_OUTPUTS)
def roll_under_check(target: int, roll: int | None = None, modifiers: dict[str, int] = {}, dice: str = "1d20") -> Outcome:  # noqa: B006 (read only)
    """A check that succeeds when the roll is at most the target number plus modifiers."""
    trace = Trace()
    need, success, p = roll_under(trace, dice, target, roll, modifiers)
    margin = None if roll is None else need - roll
    return outcome(trace, Chance.of(p, "superar el chequeo", "passing the check", output="success", roll="roll", dice=dice),
                   target=need, success=success, margin=margin)


@resolver("check.roll-over",
          ranges={"target": window(0, 21),  # as roll-under
                  "roll": {**window(1, 20), **rolled_on("dice")},
                  "modifiers.*": window(-6, 6)},
          outputs=_OUTPUTS)
def roll_over_check(target: int, roll: int | None = None, modifiers: dict[str, int] = {}, dice: str = "2d6") -> Outcome:  # noqa: B006 (read only)
    """A check that succeeds when the roll is at least the target number plus modifiers."""
    trace = Trace()
    need, success, p = roll_over(trace, dice, target, roll, modifiers)
    margin = None if roll is None else roll - need
    return outcome(trace, Chance.of(p, "superar el chequeo", "passing the check", output="success", roll="roll", dice=dice),
                   target=need, success=success, margin=margin)


LABELS = {
    "target": ("número objetivo", "target number"),
    "roll": ("tirada", "roll"),
    "modifiers": ("modificadores", "modifiers"),
    "dice": ("dados", "dice"),
    "success": ("éxito", "success"),
    "margin": ("margen", "margin"),
}
"""Labels of this module's inputs, outputs and values (Spanish, English)."""
