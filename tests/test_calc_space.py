"""The calculators' input spaces (issue 30): fields from a resolver's declared ranges and an example, every
combination numbered in mixed radix, and the resolver's own answer for each."""

from __future__ import annotations

import random

import pytest

from kb.api import KnowledgeBase
from kb.mechanics import Outcome
from kb.mechanics.space import FIXED, MAX_COMBINATIONS, WHOLE_SPACE, answer, call, enumerate_space, space


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load("content")


def _first(kb: KnowledgeBase, mechanic: str):
    for e in kb.entries.values():
        for ex in e.examples:
            if ex.mechanic == mechanic:
                return e, ex
    raise AssertionError(mechanic)


def test_fields_follow_the_declared_ranges(kb) -> None:
    res = kb.registry.get("battletech-solaris.swamp-check")
    _, ex = _first(kb, res.name)
    sp = space(res, ex.given)
    by_name = {f.name: f for f in sp.fields}
    assert by_name["roll"].values == (None,) + tuple(range(2, 13))  # optional: "not given" first, then 2D6
    assert by_name["piloting_skill"].values == (None,) + tuple(range(2, 14))
    assert by_name["unit"].values == ("mech", "ground-vehicle", "infantry")
    assert by_name["jumping"].values == (False, True)
    assert sp.size == 3 * 2 * 2 * 13 * 12


def test_every_combination_is_numbered_and_answered_by_the_resolver(kb) -> None:
    res = kb.registry.get("battletech-solaris.to-hit")
    _, ex = _first(kb, res.name)
    sp = space(res, ex.given)
    results = enumerate_space(sp, res)
    assert len(results) == sp.size == 15 * 2 * 2 * 12
    for n, pos in enumerate(sp.combinations()):
        assert sp.number(pos) == n
        given = sp.given(pos)
        assert sp.positions(given) == pos
        assert answer(results[n]) == answer(call(res, given))
    rng = random.Random(30)
    for _ in range(50):  # the numbering agrees with the inputs: base 16 with a roll of 6 is a miss, base 5 a hit
        pos = tuple(rng.randrange(len(f.values)) for f in sp.variable)
        assert answer(results[sp.number(pos)]) == answer(call(res, sp.given(pos)))


def test_a_refusal_is_kept_with_its_code_and_kind(kb) -> None:
    res = kb.registry.get("battletech-solaris.swamp-cost")
    _, ex = _first(kb, res.name)
    sp = space(res, ex.given)
    given = dict(sp.base, base_allows_unit=False)
    result = enumerate_space(sp, res)[sp.number(sp.positions(given))]
    assert answer(result) == {"error": "base-terrain-prohibited", "kind": "forbidden"}  # the swamp does not lift it
    assert isinstance(enumerate_space(sp, res)[sp.number(sp.positions(dict(given, base_allows_unit=True)))], Outcome)


def test_over_the_budget_later_fields_keep_the_example_value(kb) -> None:
    res = kb.registry.get("battletech-solaris.swamp-check")
    _, ex = _first(kb, res.name)
    sp = space(res, ex.given, budget=20, whole=20)
    assert sp.size <= 20
    fixed = [f for f in sp.fields if f.kind == FIXED]
    assert [f.name for f in fixed] == ["piloting_skill", "roll"]
    assert all(f.values == (sp.base[f.name],) for f in fixed)


def test_nested_values_become_dotted_and_listed_fields(kb) -> None:
    res = kb.registry.get("dice.initiative")
    _, ex = _first(kb, res.name)
    sp = space(res, ex.given)
    rows = [f for f in sp.fields if f.name != "highest_first" and f.item != "empty"]  # "empty": the list with no row
    assert rows and all(f.name.startswith("rolls[].") for f in rows)
    assert rows[0].path[:2] == ("rolls", 0)
    assert {f.path[1] for f in rows} == {0, 1, 2, 3}  # the example's two rows and room for more (ROW_ROOM)


def test_a_space_that_fits_whole_is_taken_whole_past_the_budget(kb) -> None:
    res = kb.registry.get("hunt-begins.seal")
    _, ex = _first(kb, res.name)
    whole = space(res, ex.given)
    assert MAX_COMBINATIONS < whole.size <= WHOLE_SPACE
    assert not [f for f in whole.fields if f.kind == FIXED]  # every number and choice editable
    held = space(res, ex.given, whole=MAX_COMBINATIONS)  # not whole: the budget holds some at the example's value
    assert held.size <= MAX_COMBINATIONS and [f for f in held.fields if f.kind == FIXED]
    attack = kb.registry.get("hunt-begins.attack")  # far past WHOLE_SPACE: the budget, not WHOLE_SPACE
    _, ex = _first(kb, attack.name)
    assert space(attack, ex.given).size <= MAX_COMBINATIONS
