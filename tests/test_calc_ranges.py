"""Ranges declared by resolvers (issue 30): they join the inputs' JSON Schema at their path, `kb check`
refuses an example outside them at the value's line, and every bundled resolver that takes a number
declares the range of its player's numbers."""

from __future__ import annotations

import json
import types

import pytest

from conftest import cli
from kb.mechanics import WINDOW, Registry, allowed, between, outcome, resolver, Trace

BAD_RANGE = """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: check.roll-over
    given: {target: 7, roll: 25, modifiers: {cover: 9}}
    expect: {success: true}
"""


def _module(**ranges) -> Registry:
    mod = types.ModuleType("kb_game_t")

    @resolver("t.r", outputs={"x": "x"}, ranges=ranges)
    def r(roll: int | None, who: dict[str, dict[str, int]], rolls: list[int], mods: dict[str, int] = {},  # noqa: B006
          dice: str = "2d6"):
        return outcome(Trace(), x=1)

    r.__module__ = mod.__name__
    mod.r = r  # type: ignore[attr-defined]
    return Registry(Registry.scan(mod))


def test_a_range_joins_the_schema_at_its_path() -> None:
    res = _module(**{"roll": between(2, 12), "who.*.life": between(1, 5), "who.boss.life": between(1, 9),
                     "rolls[]": between(1, 20), "mods.*": between(-3, 3, 1), "dice": allowed("2d6", "1d20")}).get("t.r")
    assert res is not None
    assert res.inputs["roll"] == {"anyOf": [{"type": "integer", "minimum": 2, "maximum": 12}, {"type": "null"}]}
    who = res.inputs["who"]
    assert who["additionalProperties"]["properties"]["life"] == {"type": "integer", "minimum": 1, "maximum": 5}
    assert who["properties"]["boss"]["properties"]["life"] == {"type": "integer", "minimum": 1, "maximum": 9}
    assert who["additionalProperties"]["additionalProperties"] == {"type": "integer"}  # other keys keep the type only
    assert res.inputs["rolls"]["items"] == {"type": "integer", "minimum": 1, "maximum": 20}
    assert res.inputs["mods"]["additionalProperties"] == {"type": "integer", "minimum": -3, "maximum": 3, "multipleOf": 1}
    assert res.inputs["dice"] == {"type": "string", "enum": ["2d6", "1d20"]}


@pytest.mark.parametrize("path, problem", [
    ("luck", "names no input"),
    ("who.life", "bounds a object"),
    ("roll[]", r"'\[\]' on an input that is not a list"),
    ("rolls.x", "inside an input that is not a mapping"),
])
def test_a_range_that_fits_no_input_is_refused_by_name(path: str, problem: str) -> None:
    with pytest.raises(TypeError, match=problem):
        _module(**{path: between(0, 1)})


def test_a_range_bounds_the_number_branch_of_a_mixed_value() -> None:
    mod = types.ModuleType("kb_game_u")

    @resolver("u.r", outputs={"x": "x"}, ranges={"troop.*": between(0, 9)})
    def r(troop: dict[str, int | bool]):
        return outcome(Trace(), x=1)

    r.__module__ = mod.__name__
    mod.r = r  # type: ignore[attr-defined]
    res = Registry(Registry.scan(mod)).get("u.r")
    assert res.inputs["troop"]["additionalProperties"] == {
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 9}, {"type": "boolean"}]}


def test_between_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="minimum is above the maximum"):
        between(5, 2)


def test_kb_check_refuses_an_example_outside_the_range_at_the_value(tree) -> None:
    tree({"g/a.yaml": BAD_RANGE})
    code, out, err = cli("check", "--no-warnings")
    assert code == 1, out + err
    assert "Traceback" not in out + err
    assert out.splitlines() == [  # the roll is bounded by the dice (2d6 by default); a modifier of 9 is taken
        "content/g/a.yaml:9:30: error[input-out-of-range]: 'given.roll' = 25 is outside what 'check.roll-over' takes: "
        "from 2 to 12",
    ]


OTHER_DICE = """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
examples:
  - id: morale
    mechanic: check.roll-under
    given: {target: 65, roll: 40, dice: 1d100}
    expect: {success: true}
  - id: four-dice
    mechanic: dice.odds
    given: {dice: 4d6, at_least: 22}
    expect: {favourable: 15}
  - id: big
    mechanic: damage.apply
    given: {life: 60, damage: 12}
    expect: {life: 48}
  - id: forest
    mechanic: check.roll-over
    given: {target: 7, modifiers: {forest: 7}}
    expect: {target: 14}
  - id: percent
    mechanic: dice.initiative
    given: {rolls: [{ana: 73, bea: 41}]}
    expect: {order: [ana, bea]}
"""


def test_the_generic_resolvers_take_other_games_dice_and_sizes(tree) -> None:
    """A target, a bound or a life outside the bundled games' numbers is taken: ``kb check`` agrees with ``kb test``
    (audit-packs defect 10); a roll is bounded by the dice the example gives."""
    tree({"g/a.yaml": OTHER_DICE})
    code, out, err = cli("check", "--no-warnings")
    assert code == 0, out + err
    code, out, err = cli("test")
    assert code == 0, out + err
    tree({"g/a.yaml": OTHER_DICE.replace("roll: 40", "roll: 101")})
    code, out, err = cli("check", "--no-warnings")
    assert out.splitlines() == [
        "content/g/a.yaml:9:31: error[input-out-of-range]: 'given.roll' = 101 is outside what 'check.roll-under' takes: "
        "from 1 to 100"]


def test_the_calculators_window_is_kept_apart_from_what_check_takes() -> None:
    from kb.mechanics.space import space

    res = Registry.generic().get("check.roll-under")
    assert res is not None
    sp = space(res, {"target": 12, "roll": 5})
    target = next(f for f in sp.fields if f.name == "target")
    assert target.values == tuple(range(22)) and target.bounds == {"minimum": 0, "maximum": 21}
    sp = space(res, {"target": 65, "roll": 40, "dice": "1d100"})  # outside the window: held at the example's value
    assert [f.kind for f in sp.fields if f.name in ("target", "roll")] == ["fixed", "fixed"]


MANY_BAD = """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.order
    given: {rolls: {ana: 50, bea: 73, cy: 99}}
    expect: {n: 3}
"""

MANY_BAD_MECHANICS = """\
from kb.mechanics import Trace, between, outcome, resolver


@resolver("g.order", ranges={"rolls.*": between(1, 20)}, outputs={"n": "how many"})
def order(rolls: dict[str, int]):
    \"\"\"Count.\"\"\"
    return outcome(Trace(), n=len(rolls))


LABELS = {"rolls": ("tiradas", "rolls"), "n": ("n", "n")}
"""


def test_every_value_out_of_range_in_a_mapping_is_reported(tree) -> None:
    tree({"g/a.yaml": MANY_BAD, "g/mechanics.py": MANY_BAD_MECHANICS})
    code, out, err = cli("check", "--no-warnings")
    assert code == 1, out + err
    assert out.splitlines() == [
        f"content/g/a.yaml:9:{col}: error[input-out-of-range]: 'given.rolls.{who}' = {n} is outside what 'g.order' takes: "
        "from 1 to 20" for col, who, n in ((26, "ana", 50), (35, "bea", 73), (43, "cy", 99))]


def test_a_value_inside_the_range_passes(tree) -> None:
    tree({"g/a.yaml": BAD_RANGE.replace("roll: 25", "roll: 12").replace("cover: 9", "cover: 0")})
    code, out, err = cli("check", "--no-warnings")
    assert code == 0, out + err


def test_every_number_a_player_gives_has_a_declared_range() -> None:
    """Each integer or decimal input (at any depth) of a resolver that the bundled examples use declares a range."""
    from kb.api import KnowledgeBase

    kb = KnowledgeBase.load("content")
    used = {ex.mechanic for e in kb.entries.values() for ex in e.examples}
    missing = []
    for name in sorted(used):
        res = kb.registry.get(name)
        assert res is not None
        for top, schema in res.inputs.items():
            missing += [f"{name}:{where}" for where in _unbounded(top, schema)]
    assert missing == []


def _unbounded(where: str, schema: dict) -> list[str]:
    if "anyOf" in schema:
        return [w for b in schema["anyOf"] for w in _unbounded(where, b)]
    kind = schema.get("type")
    if kind in ("integer", "number"):
        return [] if "minimum" in schema and "maximum" in schema or WINDOW in schema else [where]
    found = []
    if kind == "array" and isinstance(schema.get("items"), dict):
        found += _unbounded(where + "[]", schema["items"])
    if kind == "object":
        for key, sub in schema.get("properties", {}).items():
            found += _unbounded(f"{where}.{key}", sub)
        if isinstance(schema.get("additionalProperties"), dict):
            found += _unbounded(where + ".*", schema["additionalProperties"])
    return found


def test_a_resolvers_ranges_read_back_as_declared() -> None:
    declared = {"roll": between(2, 12), "who.*.life": between(1, 5), "who.boss.life": between(1, 9),
                "rolls[]": between(1, 20), "mods.*": between(-3, 3, 1), "dice": allowed("2d6", "1d20")}
    res = _module(**declared).get("t.r")
    assert res is not None
    assert res.ranges() == declared
    assert res.to_dict()["ranges"] == declared


def test_every_bundled_resolver_lists_what_it_declares() -> None:
    """``ranges()`` holds each declared path with its keywords (and a ``Literal`` hint's values besides)."""
    from kb.api import KnowledgeBase

    kb = KnowledgeBase.load("content")
    checked = 0
    for name in kb.registry.names():
        res = kb.registry.get(name)
        assert res is not None
        declared = res.func.__kb_resolver__[3]  # type: ignore[attr-defined]
        listed = res.ranges()
        for path, keywords in declared.items():
            assert {k: listed.get(path, {}).get(k) for k in keywords} == dict(keywords), (name, path)
            checked += 1
    assert checked >= 100


def test_kb_resolvers_shows_the_ranges_and_allowed_values() -> None:
    code, out, _ = cli("resolvers", "check.roll-over", "--no-labels")
    assert code == 0
    assert ("    range target: a calculator offers from 0 to 21\n"
            "    range roll: what the dice of 'dice' roll; a calculator offers from 1 to 20\n"
            "    range modifiers.*: a calculator offers from -6 to 6\n") in out
    code, out, _ = cli("resolvers", "dice.initiative", "--no-labels")
    assert "    range rolls[].*: a calculator offers from 1 to 20\n" in out
    code, out, _ = cli("resolvers", "battletech-solaris.", "--no-labels")
    assert 'range tech: one of "clan", "inner-sphere"\n' in out
    code, out, _ = cli("resolvers", "check.roll-over", "--json")
    assert json.loads(out)[0]["ranges"]["roll"] == {WINDOW: [1, 20], "x-kb-rolled-on": "dice"}


def test_a_range_the_calculator_covers_is_told_apart_from_the_rules() -> None:
    """A phone audit (2026-12-07, D5) read «16 está fuera de lo que admite la regla (de 0 a 15)» for hexes moved, a
    number the rulebook does not bound: the range was the calculator's own. ``covers`` marks such a range; the page's
    field says so (``covers``) and its message is the calculator's coverage, in both languages."""
    from kb.core.locale import pgettext
    from kb.mechanics import COVERS, covers
    from kb.mechanics.space import space
    from kb.site.calc import _field_data, _messages

    assert covers(0, 15) == {**between(0, 15), COVERS: True}
    res = _module(roll=covers(0, 15), **{"rolls[]": between(1, 6)}).get("t.r")
    assert res is not None
    sp = space(res, {"roll": 3, "who": {}, "rolls": [2]})
    roll = next(f for f in sp.fields if f.name == "roll")
    assert roll.bounds == {"minimum": 0, "maximum": 15, COVERS: True}
    words = types.SimpleNamespace(label=lambda f: f.name, show=str)
    assert _field_data(roll, words, "es")["covers"] is True  # type: ignore[arg-type]
    rolled = next(f for f in sp.fields if f.name == "rolls[]")
    assert "covers" not in _field_data(rolled, words, "es")  # type: ignore[arg-type]
    for lang, said in (("es", "roll: 16 queda fuera de lo que cubre esta calculadora (de 0 a 15); la regla no pone ese límite."),
                       ("en", "roll: this calculator covers from 0 to 15, not 16; the rule itself sets no such limit.")):
        message = _messages(lang)["calc_out_of_coverage"]
        assert message.format(label="roll", value="16", range=pgettext(lang, "site", "calc_range").format(minimum=0, maximum=15)) == said
        assert message != _messages(lang)["calc_out_of_range"]


def test_a_range_the_seed_does_not_bound_is_declared_as_the_calculators_own() -> None:
    """Every range a bundled ``mechanics.py`` comments as unbounded by the seed is declared with ``covers``, so its
    calculator never says the rule refuses a value the rulebook allows (audit D5)."""
    import re
    from pathlib import Path

    unbounded = re.compile(r"#.*\b(no bound in the seed|no (cost|range|skill range) in the seed)", re.IGNORECASE)
    wrong = [f"{path}:{n}" for path in sorted(Path("content").glob("*/mechanics.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if unbounded.search(line) and "between(" in line.split("#")[0]]
    assert wrong == []
