"""Generic resolvers: exact odds, checks, flips, activation, damage, procedures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kb import KnowledgeBase
from kb.mechanics import Context, Registry, RuleError
from kb.mechanics.dice import Dice, chance, distribution, parse

REG = Registry.generic()


def call(name: str, **given):
    resolver = REG.get(name)
    assert resolver is not None
    return resolver.func(**given)


@pytest.mark.parametrize("expr, dice", [("d20", Dice(1, 20)), ("2D6", Dice(2, 6)), ("1d6+1", Dice(1, 6, 1)), ("3d6-2", Dice(3, 6, -2))])
def test_dice_expressions_parse(expr: str, dice: Dice) -> None:
    assert parse(expr) == dice


@pytest.mark.parametrize("expr", ["", "d", "2d1", "0d6", "d6+", "abc"])
def test_bad_dice_expressions_raise_a_rule_error(expr: str) -> None:
    with pytest.raises(RuleError) as err:
        parse(expr)
    assert err.value.code == "bad-dice"


def test_two_dice_distribution_is_the_triangle() -> None:
    assert distribution(Dice(2, 6)) == {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


@pytest.mark.parametrize("expr, at_least, at_most, odds", [
    ("2d6", 5, None, Fraction(30, 36)),
    ("2d6", None, 4, Fraction(6, 36)),
    ("2d6", 10, None, Fraction(6, 36)),
    ("2d6", 3, None, Fraction(35, 36)),
    ("d20", None, 10, Fraction(1, 2)),
    ("d20", None, 14, Fraction(14, 20)),
    ("2d6", 13, None, Fraction(0)),
])
def test_exact_odds(expr: str, at_least, at_most, odds: Fraction) -> None:
    assert KnowledgeBase.odds(expr, at_least, at_most) == odds
    out = call("dice.odds", dice=expr, at_least=at_least, at_most=at_most)
    assert out.probability == odds
    fav, total = chance(parse(expr), at_least, at_most)
    assert out.values == {"favourable": fav, "outcomes": total, "probability": f"{fav}/{total}"}


def test_roll_under_check_with_modifiers_and_trace() -> None:
    out = call("check.roll-under", target=13, roll=14, modifiers={"strength": -2})
    assert out.values == {"target": 11, "success": False, "margin": -3}
    assert out.probability == Fraction(11, 20)
    assert [s.text.en for s in out.trace] == ["Modifier strength: -2 → 11", "Needs 11 or less on 1d20 (11/20)", "Rolls 14: failure"]
    assert [s.text.es for s in out.trace][-1] == "Sale 14: fallo"


def test_roll_over_check_without_a_roll_states_only_the_odds() -> None:
    out = call("check.roll-over", target=5, dice="2d6")
    assert out.values == {"target": 5, "success": None, "margin": None}
    assert out.probability == Fraction(30, 36)


def test_impossible_roll_is_a_rule_error() -> None:
    with pytest.raises(RuleError) as err:
        call("check.roll-under", target=10, roll=21)
    assert err.value.code == "impossible-roll"


def test_initiative_rerolls_only_the_tied_players() -> None:
    out = call("dice.initiative", rolls=[{"ana": 15, "bo": 15, "cy": 3, "di": 18}, {"ana": 4, "bo": 11}])
    assert out.values == {"order": ["di", "bo", "ana", "cy"], "rerolls": 1}


def test_initiative_with_an_unsettled_tie_is_an_error() -> None:
    with pytest.raises(RuleError) as err:
        call("dice.initiative", rolls=[{"ana": 15, "bo": 15}])
    assert err.value.code == "unresolved-tie"


def test_flip_select_lowest_and_ties() -> None:
    assert call("cards.flip-select", flips={"a": 8, "b": 5, "c": 6}).values == {"target": "b", "tied": None}
    assert call("cards.flip-select", flips={"a": 5, "b": 5}).values == {"target": None, "tied": ["a", "b"]}
    assert call("cards.flip-select", flips={"a": 5, "b": 5}, choice="b").values["target"] == "b"
    assert call("cards.flip-select", flips={"a": 5, "b": 9}, lowest=False).values["target"] == "b"
    with pytest.raises(RuleError):
        call("cards.flip-select", flips={"a": 5, "b": 5}, choice="z")


def test_alternating_activation_leaves_the_rest_to_the_last_player() -> None:
    out = call("activation.alternate", order=["red", "blue"], units={"red": 2, "blue": 4})
    assert out.values == {"order": ["red", "blue", "red", "blue", "blue", "blue"], "run": 3}


def test_damage_exchange_is_simultaneous() -> None:
    out = call("damage.exchange", attacker_attack=4, attacker_life=4, defender_attack=3, defender_life=4)
    assert out.values == {"attacker_life": 1, "defender_life": 0, "attacker_dead": False, "defender_dead": True}


def test_procedures_read_the_entry_steps() -> None:
    entry = {"sequence": {"steps": [
        {"id": "move", "title": {"es": "M"}, "allows": ["deploy", "move"]},
        {"id": "assault", "title": {"es": "A"}, "allows": ["charge"], "steps": [{"id": "sub", "title": {"es": "S"}}]},
        {"id": "score", "title": {"es": "P"}},
    ]}}
    ctx = Context(entry, lambda _id: None)
    assert call("procedure.step-allows", context=ctx, step="move", action="charge").values == {
        "allowed": False, "number": 1, "actions": ["deploy", "move"]}
    assert call("procedure.order", context=ctx, items=["score", "move", "sub"]).values == {
        "order": ["move", "sub", "score"], "numbers": [1, "2.1", 3]}
    assert call("procedure.next-step", context=ctx, step="sub").values == {"next": "score", "number": 3}  # the next's number
    assert call("procedure.next-step", context=ctx, step="assault").values == {"next": "sub", "number": "2.1"}
    assert call("procedure.next-step", context=ctx, step="score").values == {"next": None, "number": None}
    with pytest.raises(RuleError):
        call("procedure.next-step", context=ctx, step="nope")


def test_a_step_that_allows_nothing_says_so_in_words() -> None:
    """Audit 2, defect 9: «El paso 1 (Inicio del turno) permite: nada.» read machine-made; a step with no actions
    says it as a sentence, and one with actions lists them."""
    entry = {"sequence": {"steps": [{"id": "start", "title": {"es": "I"}}, {"id": "move", "title": {"es": "M"}, "allows": ["run"]}]}}
    ctx = Context(entry, lambda _id: None)
    first = call("procedure.step-allows", context=ctx, step="start", action="run").trace[0].text
    assert (first.es, first.en) == ("El paso 1 (start) no permite ninguna acción", "Step 1 (start) allows no action")
    second = call("procedure.step-allows", context=ctx, step="move", action="run").trace[0].text
    assert (second.es, second.en) == ("El paso 2 (move) permite: run", "Step 2 (move) allows: run")
    labels = REG.get("procedure.step-allows")
    assert labels is not None and labels.label("allowed", "es") == "se puede hacer"  # not «Permitida: no»


def test_step_numbers_are_the_rulebook_numbers() -> None:
    """Top-level steps count 1, 2...; nested ones are 2.1...; an unnumbered step is skipped by the count."""
    entry = {"sequence": {"steps": [
        {"id": "intro", "title": {"es": "I"}, "numbered": False},
        {"id": "one", "title": {"es": "U"}, "steps": [{"id": "one-a", "title": {"es": "Ua"}},
                                                       {"id": "one-b", "title": {"es": "Ub"}}]},
        {"id": "two", "title": {"es": "D"}, "allows": ["x"]},
    ]}}
    ctx = Context(entry, lambda _id: None)
    assert call("procedure.order", context=ctx, items=["two", "one-b", "intro", "one"]).values == {
        "order": ["intro", "one", "one-b", "two"], "numbers": [None, 1, "1.2", 2]}
    out = call("procedure.step-allows", context=ctx, step="two", action="x")
    assert out.values["number"] == 2
    assert "Step 2 (two)" in [t.text.en for t in out.trace][0]
    assert call("procedure.next-step", context=ctx, step="intro").values == {"next": "one", "number": 1}
    out = call("procedure.next-step", context=ctx, step="one-a")
    assert [t.text.en for t in out.trace] == ["After step 1.1 (one-a) comes step 1.2 (one-b)"]  # one scheme, both numbers
    assert out.trace[0].rule == "#one-b"  # the step it names (the running entry has no id here)


def test_resolver_signatures_become_json_schemas() -> None:
    r = REG.get("dice.initiative")
    assert r is not None
    assert r.required == frozenset({"rolls"})
    assert r.inputs["rolls"] == {"type": "array", "items": {"type": "object", "additionalProperties": {
        "type": "integer", "x-kb-window": [1, 20]}}}  # the type, and the calculator's window the resolver declares
    assert not r.wants_context and REG.get("procedure.order").wants_context


def test_numbered_steps_pass_over_malformed_steps() -> None:
    """Found by the mutation fuzz: a step that is not a mapping (the schema reports it) crashed the procedure resolvers."""
    from kb.mechanics.procedures import numbered_steps

    steps = [5, {"id": "a"}, {"id": "b", "steps": 7}, {"id": "c", "steps": [None, {"id": "c1"}]}]
    assert [(s["id"], n) for s, n in numbered_steps(steps)] == [("a", 1), ("b", 2), ("c", 3), ("c1", "3.1")]
    assert list(numbered_steps(3)) == []


def test_a_steps_text_is_remembered_only_for_the_same_plain_values() -> None:
    """Trace.add remembers worded steps (a calculator's enumeration words the same step thousands of times): the
    same templates with values that differ in value or only in type (1, 1.0, True) each read as their own."""
    from kb.mechanics import Trace

    trace = Trace()
    for v in (1, 1.0, True, "1", [1, 2], {"a": 1}, 1, Fraction(1, 2), None):
        trace.add("valor {v}", "value {v}", v=v)
    assert [s.text.en for s in trace.steps] == ["value 1", "value 1.0", "value ✔", "value 1", "value 1, 2", "value a=1",
                                                "value 1", "value 1/2", "value None"]

    class Odd:
        def __init__(self, said: str) -> None:
            self.said = said

        def __str__(self) -> str:
            return self.said

        __repr__ = object.__repr__

    first = Odd("uno")
    trace.add("{v}", "{v}", v=first)
    first.said = "dos"  # the same object (same repr) says something else now: not remembered
    trace.add("{v}", "{v}", v=first)
    assert [s.text.es for s in trace.steps[-2:]] == ["uno", "dos"]


BIDI_LABELS = '''\
from kb.mechanics import Trace, outcome, resolver


@resolver('g.hit', outputs={'x': 'x'}, labels={'x': ('equis', 'ex\\x1b[2J')})
def hit(a: int):
    return outcome(Trace(), x=a)


@resolver('g.miss', outputs={'y': 'y'})
def miss(b: int):
    return outcome(Trace(), y=b)


LABELS = {
    'b': ('be', 'bee'),
    'y': ('i griega', 'why \\u202eevil\\u202c'),
    'z': ('zeta\\u200b', 'zed'),
    'w': ('uve\\ndoble', 'double-u'),
}
'''


def test_a_label_with_a_control_character_is_refused_at_its_line(tree) -> None:
    """A resolver's labels are names a page and the terminal show: an ESC, a bidi override, a zero-width space or a
    line break in one is refused as in a YAML name (audit-hostile2 #7), located where it is declared (the LABELS key's
    line; a decorator's ``labels=`` at the resolver's def, which is not registered)."""
    from conftest import cli

    tree({"g/mechanics.py": BIDI_LABELS})
    code, out, _ = cli("check")
    assert code == 1
    assert [ln for ln in out.splitlines() if "error[" in ln] == [
        ("content/g/mechanics.py:4:1: error[resolver-signature]: resolver 'g.hit' (def hit) cannot be used as declared: "
         "labels= 'x' holds the control character \\x1b; a label is plain text on one line"),
        ("content/g/mechanics.py:16:5: error[label-format]: LABELS['y'] holds the control character \\u202e; a label is "
         "plain text on one line"),
        ("content/g/mechanics.py:17:5: error[label-format]: LABELS['z'] holds the control character \\u200b; a label is "
         "plain text on one line"),
        ("content/g/mechanics.py:18:5: error[label-format]: LABELS['w'] holds the control character \\n; a label is "
         "plain text on one line"),
    ], out


CONTROL_WORDS = '''\
from typing import Literal

from kb.mechanics import Trace, outcome, resolver


@resolver('g.hit', outputs={'x': 'the hit\\x1b[2J'})
def hit(a: int):
    return outcome(Trace(), x=a)


@resolver('g.pick', outputs={'y': 'the pick'})
def pick(kind: Literal['a', 'b\\u202ec']):
    return outcome(Trace(), y=kind)


@resolver('g.ok', outputs={'z': 'fine'}, labels={'z': ('zeta', 'zed'), 'n': ('ene', 'en')})
def ok(n: int):
    """Fine.
content/g/x.yaml:1:1: error[forged]: a line of its own"""
    return outcome(Trace(), z=n)


@resolver('g.name\\nforged', outputs={'w': 'w'})
def named(n: int):
    return outcome(Trace(), w=n)
'''


def test_a_control_character_in_an_output_description_or_a_literal_value_is_refused_at_its_line(tree) -> None:
    """An ``outputs=`` description and a ``Literal``'s values are text the terminal and the pages show, as labels are:
    an ESC or a bidi override in one is refused at the resolver's line, as a label's is (audit-hostile3), and the
    resolver is not registered; the module's other resolvers are."""
    from conftest import cli

    tree({"g/mechanics.py": CONTROL_WORDS})
    code, out, _ = cli("check")
    assert code == 1
    assert [ln for ln in out.splitlines() if "error[" in ln] == [
        ("content/g/mechanics.py:6:1: error[resolver-signature]: resolver 'g.hit' (def hit) cannot be used as declared: "
         "outputs= 'x' holds the control character \\x1b; an output and its description are plain text on one line"),
        ("content/g/mechanics.py:11:1: error[resolver-signature]: resolver 'g.pick' (def pick) cannot be used as declared: "
         "its parameter 'kind' has the value 'b\\u202ec', which holds the control character \\u202e; a value is plain text "
         "on one line"),
        ("content/g/mechanics.py:23:1: error[resolver-signature]: resolver 'g.name\\nforged' (def named) cannot be used as "
         "declared: its name holds the control character \\n; a resolver's name is plain text on one line"),
    ], out
    code, out, _ = cli("resolvers")
    assert "g.ok(n) -> z" in out and "g.hit(" not in out and "g.pick(" not in out  # the refused are not listed
    assert "    Fine. content/g/x.yaml:1:1: error[forged]: a line of its own" in out.splitlines(), out  # its doc: one line


def test_kb_resolvers_writes_each_word_on_its_own_line() -> None:
    """The sink: ``kb resolvers`` writes a resolver's call, doc and words each on one line, a line break in any written
    as ``\\n`` (the engine's own resolvers are not checked as a pack's are)."""
    import io

    from kb.cli.main import _resolver_text
    from kb.mechanics import Resolver, Text

    r = Resolver("g.x\nforged", lambda: None, {"a\nb": {"enum": ["c\nd"]}}, frozenset(), {"o\np": "q"}, False,
                 {"o\np": Text("e\nf", "g")})
    out = io.StringIO()
    _resolver_text(r, True, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "g.x\\nforged(a\\nb?) -> o\\np" and len(lines) == 6, lines
