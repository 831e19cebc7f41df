"""Inputs made of items (issue 30): a list whose length (``items``) or a mapping whose keys (``keys_of``) the resolver
declares. One declaration read by the form's fields (kb/mechanics/space.py), the checks (``input-out-of-range``),
``kb resolvers`` and the wording of an empty list in a step (``{d:none:ninguna}``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kb.api import KnowledgeBase
from kb.examples.runner import _input_problems
from kb.mechanics import Step, Trace
from kb.mechanics.space import ABSENT, space

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(ROOT / "content")


def _example(kb: KnowledgeBase, entry: str, mechanic: str) -> tuple:
    e = kb.entries[entry]
    return e, next(x for x in e.examples if x.mechanic == mechanic)


def test_a_list_of_declared_length_is_offered_item_by_item(kb: KnowledgeBase) -> None:
    _, ex = _example(kb, "battletech-solaris.climb", "battletech-solaris.climb")
    sp = space(kb.registry.get("battletech-solaris.climb"), ex.given, 10**30, 10**30)
    rolls = [f for f in sp.variable if f.name == "rolls[]"]
    assert len(rolls) == 6 and all(f.values[0] is ABSENT and f.values[1:] == tuple(range(2, 13)) for f in rolls)
    start = sp.positions(sp.base)
    assert start is not None and sp.given(start)["rolls"] is None  # none added: the optional input left out
    at = {id(f): i for i, f in enumerate(sp.variable)}
    pos = list(start)
    pos[at[id(rolls[0])]], pos[at[id(rolls[2])]] = 8, 1  # 9 in the first item, 2 in the third; the second not added
    assert sp.given(tuple(pos))["rolls"] == [9, 2]
    assert sp.positions(sp.given(tuple(pos))) is not None


def test_a_mappings_keys_come_from_the_inputs_it_names(kb: KnowledgeBase) -> None:
    _, ex = _example(kb, "starcraft-tmg.first-player-later-rounds", "starcraft-tmg.first-player")
    sp = space(kb.registry.get("starcraft-tmg.first-player"), ex.given, 10**30, 10**30)
    assert [f.name for f in sp.variable if f.item] == ["roll_off.ana", "roll_off.bruno", "vp.ana", "vp.bruno"]
    _, ex = _example(kb, "malifaux.projectile-attack-action", "malifaux.random-target")
    sp = space(kb.registry.get("malifaux.random-target"), ex.given, 10**30, 10**30)
    assert [f.name for f in sp.variable if f.item] == ["flips.silurid", "flips.guild-guard"]  # the target, then distances


def test_the_checks_read_the_same_declaration(kb: KnowledgeBase) -> None:
    e, ex = _example(kb, "battletech-solaris.climb", "battletech-solaris.climb")
    res = kb.registry.get("battletech-solaris.climb")
    found = _input_problems(e, replace(ex, given={**ex.given, "rolls": [6] * 7}), res)
    assert [d.code for d in found] == ["input-out-of-range"] and "from 1 to 6 items" in d_text(found[0])
    assert _input_problems(e, replace(ex, given={**ex.given, "rolls": [6] * 6}), res) == []
    e, ex = _example(kb, "malifaux.projectile-attack-action", "malifaux.random-target")
    res = kb.registry.get("malifaux.random-target")
    found = _input_problems(e, replace(ex, given={**ex.given, "flips": {"silurid": 3, "nobody": 4}}), res)
    assert [d.code for d in found] == ["input-out-of-range"] and "'nobody'" in d_text(found[0])
    assert "keys among those of target, distances" in d_text(found[0])
    assert _input_problems(e, replace(ex, given={**ex.given, "flips": {"silurid": 3, "guild-guard": 4}}), res) == []


def d_text(d: object) -> str:
    return str(getattr(d, "message", None) or d)


def test_kb_resolvers_shows_the_declaration(kb: KnowledgeBase) -> None:
    ranges = kb.registry.get("starcraft-tmg.activation-phase").ranges()
    assert ranges["reserves"] == {"x-kb-keys-from": ["units"]}
    assert kb.registry.get("battletech-solaris.climb").ranges()["rolls"] == {"minItems": 1, "maxItems": 6}


def test_an_empty_list_in_a_step_reads_in_the_templates_own_words() -> None:
    t = Trace()
    t.add("Muertas (Vida por debajo de 1): {d:none:ninguna}", "Dead (Life below 1): {d:none:none}", d=[])
    t.add("El paso {n} permite: {a:none:nada}", "Step {n} allows: {a:none:nothing}", n=1, a=["mover", "correr"])
    show = lambda v: " y ".join(v) if isinstance(v, list) else str(v)  # noqa: E731
    s: list[Step] = t.steps
    assert s[0].say("es", show) == "Muertas (Vida por debajo de 1): ninguna"
    assert s[0].say("en", show) == "Dead (Life below 1): none"
    assert s[1].say("es", show) == "El paso 1 permite: mover y correr"


def test_a_text_input_declared_with_keys_of_is_a_choice_among_those_keys(kb: KnowledgeBase) -> None:
    """The «elección» that settles a tie for the lowest card was held at the example's value («fijo en este ejemplo»),
    so a player could not finish a tied draw in the calculator (phone audit 3, D19): a text input declared with
    ``keys_of`` is a list of those keys (none chosen first), and the checks refuse a value outside them."""
    e, ex = _example(kb, "malifaux.shooting-into-combat", "malifaux.random-target")
    res = kb.registry.get("malifaux.random-target")
    sp = space(res, ex.given, 10**30, 10**30)
    choice = next(f for f in sp.fields if f.name == "choice")
    assert choice.kind == "enum" and choice.values == (None, "silurid", "death-marshal", "terror-tot", "guild-guard")
    found = _input_problems(e, replace(ex, given={**ex.given, "choice": "nobody"}), res)
    assert [d.code for d in found] == ["input-out-of-range"] and "'nobody'" in d_text(found[0])
    assert "a name among those of target, distances" in d_text(found[0])
    assert _input_problems(e, replace(ex, given={**ex.given, "choice": "terror-tot"}), res) == []
