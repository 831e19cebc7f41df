"""A stated probability names its event, and the engine checks it is that event's probability."""

from __future__ import annotations

import types
from fractions import Fraction

from kb.examples.runner import check_chance
from kb.mechanics import Chance, Registry, Trace, outcome, resolver


def _resolver(p: Fraction, when: bool):
    mod = types.ModuleType("odds_fake")

    @resolver("fake.swamp", outputs={"stuck": "stuck after the roll"})
    def swamp(need: int, roll: int | None = None):
        stuck = None if roll is None else roll < need
        return outcome(Trace(), Chance.of(p, "quedar atrapada", "getting stuck", output="stuck", when=when,
                                          roll="roll", dice="2d6"), stuck=stuck)

    swamp.__module__ = mod.__name__
    mod.swamp = swamp
    (r,) = Registry.scan(mod)
    return r


def test_the_true_probability_of_the_named_event_passes() -> None:
    r = _resolver(Fraction(15, 36), when=True)  # needing 7 on 2d6, a 2 to 6 leaves it stuck: 15 of 36 rolls
    assert check_chance(r, {"need": 7}, r.func(need=7)) == []
    r = _resolver(Fraction(1, 6), when=True)
    assert check_chance(r, {"need": 7}, r.func(need=7)) != []


def test_the_probability_of_the_opposite_event_is_caught() -> None:
    """The old bug: "stuck = true · Exact odds: 5/6" where 5/6 was the chance of *not* getting stuck."""
    r = _resolver(Fraction(21, 36), when=True)  # 21/36 is the chance of getting free, not of getting stuck
    problems = check_chance(r, {"need": 7}, r.func(need=7, roll=3))
    assert problems and "getting stuck" in problems[0] and "for 5/12 of the 2d6 rolls" in problems[0]


def test_a_probability_without_an_event_is_refused() -> None:
    mod = types.ModuleType("odds_fake2")

    @resolver("fake.bare", outputs={})
    def bare():
        return outcome(Trace(), Fraction(1, 2))

    bare.__module__ = mod.__name__
    mod.bare = bare
    (r,) = Registry.scan(mod)
    assert "without naming its event" in check_chance(r, {}, r.func())[0]


def test_certain_events_are_checked_against_the_outcome() -> None:
    mod = types.ModuleType("odds_fake3")

    @resolver("fake.frozen", outputs={"success": "it works"})
    def frozen():
        return outcome(Trace(), Chance.of(Fraction(0), "que funcione", "it working", output="success"), success=True)

    frozen.__module__ = mod.__name__
    mod.frozen = frozen
    (r,) = Registry.scan(mod)
    assert "is 0, yet success = True" in check_chance(r, {}, r.func())[0]
