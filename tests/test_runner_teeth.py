"""Every comparison run_example makes fails when its side is wrong (issue 27: "Checked" has teeth).

Each test runs a tiny resolver against an example that differs from it in exactly one way, and
asserts the example fails and names that difference; a twin example that matches passes, so a
runner that fails everything is caught too. The mutation run over kb/examples/runner.py (docs/format.md,
"How the checker is checked") leaves no surviving mutant among these comparisons.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import pytest

from kb.core.diagnostics import format_path
from kb.core.loader import _examples
from kb.core.model import Entry, Marks, Text
from kb.examples.runner import check_examples, run_example
from kb.mechanics import KINDS_OF_NO, Chance, Registry, RuleError, Trace, between, outcome, resolver
from kb.view.worked import refusal_sentence


@resolver("t.values", outputs={"n": "a number", "f": "a fraction", "items": "a list", "table": "a mapping",
                                  "flag": "a truth value", "word": "a word"})
def _values(n: float = 3, f: str = "1/3", items: int = 2, table: int = 2, flag: bool = True, word: str = "a") -> Any:
    return outcome(Trace(), n=n, f=Fraction(f), items=list(range(items)), table={str(i): i for i in range(table)},
                   flag=flag, word=word)


@resolver("t.odds", outputs={"hit": "true when the roll reaches 4"})
def _odds(roll: int = 4, state: str = "1/2") -> Any:
    return outcome(Trace(), Chance(Fraction(state), Text("acertar", "hitting")), hit=roll >= 4)


@resolver("t.silent", outputs={"hit": "true on 4 or more"}, ranges={"roll": between(1, 6)})
def _silent(roll: int = 4, kind: str = "unstated") -> Any:
    """On 1d6: 6 is refused (of ``kind``); 4 and 5 hit; the chance counts 4 and 5 of 6."""
    if roll == 6:
        raise RuleError("six", "el texto no dice qué pasa con un 6", "the text does not say what a 6 does", kind=kind)
    return outcome(Trace(), Chance.of(Fraction(2, 6), "acertar", "hitting", output="hit", roll="roll", dice="1d6"),
                   hit=roll >= 4)


@resolver("t.refuse", outputs={"never": "never given"})
def _refuse(code: str = "too-far", kind: str = "forbidden", refuse: bool = True) -> Any:
    if refuse:
        raise RuleError(code, "demasiado lejos", "too far", kind=kind)
    return outcome(Trace(), never=1)


@resolver("t.broken", outputs={"x": "never given"})
def _broken(how: str = "raise") -> Any:
    """A resolver bug of each kind the runner reports: it raises, loops past the limit, or returns no outcome."""
    if how == "raise":
        return 1 // 0
    if how == "exit":
        raise SystemExit(3)
    if how == "loop":
        while True:
            pass
    return 42


@resolver("t.rerun", outputs={"hit": "true on 4 or more"})
def _rerun(roll: int = 4, how: str = "raise") -> Any:
    """Answers the example's roll; fails on a 6, which only the chance's re-run over 1d6 meets."""
    if roll == 6:
        _broken(how)
    return outcome(Trace(), Chance.of(Fraction(1, 2), "acertar", "hitting", output="hit", roll="roll", dice="1d6"),
                   hit=roll >= 4)


@resolver("t.looks", outputs={"found": "what the lookup gives for another entry"})
def _looks(context: Any) -> Any:
    return outcome(Trace(), found=context.lookup("t.other"))


@resolver("t.typed", outputs={"total": "roll plus the bonuses"}, ranges={"roll": between(1, 6)})
def _typed(roll: int, bonus: dict[str, int] | None = None, twice: bool = False) -> Any:
    """Typed inputs, one required and one with a range: what the data check reads."""
    return outcome(Trace(), total=roll + sum((bonus or {}).values()))


@resolver("t.typo", outputs={"total": "the sum"})
def _typo(a: int = 1) -> Any:
    return outcome(Trace(), totl=a)


REG = Registry(Registry.scan(sys.modules[__name__]))
PATH = Path("t.yaml")
HERE = format_path(Path(__file__))
"""This file, as a resolver's exception names it (the innermost frame in the resolver's own file)."""
_LINES = Path(__file__).read_text(encoding="utf-8").splitlines()
RAISES, EXITS = (_LINES.index(f"        {code}") + 1 for code in ("return 1 // 0", "raise SystemExit(3)"))
"""The lines of ``t.broken`` that raise and exit."""


def entry(*examples: dict[str, Any]) -> Entry:
    data = {"examples": list(examples)}
    marks = Marks(PATH)
    return Entry(id="t.e", kind="rule", game="t", title=Text("E", "E"), data=data, marks=marks,
                 examples=_examples(data, marks))


def run(mechanic: str, given: dict[str, Any] | None = None, **example: Any):
    e = entry({"id": "x", "mechanic": mechanic, "given": given or {}, **example})
    return run_example(e, e.examples[0], REG)


def failed(result, says: str) -> None:
    assert result.status == "failed", result.details
    assert any(says in d for d in result.details), result.details


# --- refusals --------------------------------------------------------------------------------------

def test_the_expected_refusal_passes_and_says_its_kind() -> None:
    r = run("t.refuse", expect_error={"code": "too-far", "kind": "forbidden"})
    assert r.passed and r.kind == "forbidden" and r.error == "too-far" and r.details == ()
    assert r.to_dict()["kind"] == "forbidden" and r.to_dict()["see"] is None


def test_a_wrong_error_code_fails() -> None:
    failed(run("t.refuse", expect_error={"code": "too-near", "kind": "forbidden"}), "expected too-near")


def test_a_wrong_kind_of_no_fails() -> None:
    for got in KINDS_OF_NO:
        for want in KINDS_OF_NO:
            r = run("t.refuse", {"kind": got}, expect_error={"code": "too-far", "kind": want, "see": "t.other"})
            if got == want:
                assert r.passed and r.kind == got and r.details == (), r.details
            else:
                assert r.status == "failed" and r.details == (f"the refusal is of kind {got}; expected {want}",)


def test_elsewhere_carries_the_entry_it_names() -> None:
    r = run("t.refuse", {"kind": "elsewhere"}, expect_error={"code": "too-far", "kind": "elsewhere", "see": "t.other"})
    assert r.passed and r.see == "t.other" and r.to_dict()["see"] == "t.other"


def test_an_error_expected_but_none_raised_fails() -> None:
    failed(run("t.refuse", {"refuse": False}, expect_error={"code": "too-far", "kind": "forbidden"}),
           "expected error too-far, but the resolver succeeded")


def test_a_refusal_no_example_expects_fails() -> None:
    failed(run("t.refuse", expect={"never": 1}), "raised too-far (forbidden)")


def test_a_resolver_cannot_raise_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="one of forbidden, unstated, elsewhere, impossible, incomplete"):
        RuleError("x", "x", "x", kind="maybe")


@pytest.mark.parametrize("kind, es, en", [
    ("forbidden", "La regla lo prohíbe: 13 en 2D6", "The rules forbid it: 13 en 2D6"),
    ("unstated", "El texto no lo dice: 13 en 2D6", "The rules don't say: 13 en 2D6"),
    ("elsewhere", "Esto lo resuelve otra regla: 13 en 2D6 Consulta Tirada.",
     "Another rule settles this: 13 en 2D6 See Tirada."),
    ("impossible", "Esa situación no puede darse: 13 en 2D6", "That cannot happen: 13 en 2D6"),
    ("incomplete", "Falta un dato: 13 en 2D6", "Missing information: 13 en 2D6"),
])
def test_each_kind_of_no_reads_as_its_own_sentence(kind: str, es: str, en: str) -> None:
    """What a page, kb show and a calculator print for each kind, in both languages: only ``forbidden``
    says the rules forbid it."""
    see = "Tirada" if kind == "elsewhere" else None
    assert (refusal_sentence(kind, "13 en 2D6", see, "es"), refusal_sentence(kind, "13 en 2D6", see, "en")) == (es, en)
    bare = {lang: refusal_sentence(kind, None, None, lang) for lang in ("es", "en")}
    forbids = [lang for lang, said in bare.items() if "prohíbe" in said or "forbid" in said]
    assert forbids == (["es", "en"] if kind == "forbidden" else [])


# --- probabilities ---------------------------------------------------------------------------------

def test_the_right_probability_passes() -> None:
    assert run("t.odds", probability="1/2", expect={"hit": True}).passed


def test_a_wrong_probability_fails() -> None:
    wrong = run("t.odds", probability="1/3")
    failed(wrong, "probability: expected 1/3, got 1/2")
    assert wrong.mismatches == (("probability", "1/3", "1/2"),)
    failed(run("t.odds", {"state": "1/3"}, probability="1/2"), "probability: expected 1/2, got 1/3")


def test_a_probability_the_resolver_does_not_state_fails() -> None:
    failed(run("t.values", probability="1/2"), "states no probability")


# --- values ----------------------------------------------------------------------------------------

def test_matching_values_pass() -> None:
    r = run("t.values", expect={"n": 3, "f": 0.3333333333, "items": [0, 1], "table": {"0": 0, "1": 1}, "flag": True,
                                "word": "a"}, tolerance=1e-6)
    assert r.passed, r.details


@pytest.mark.parametrize("given, expect", [
    ({"n": 3.01}, {"n": 3}),                 # a near-miss number, no tolerance
    ({"n": 3.5}, {"n": 3}),                  # half a unit off
    ({"n": 2.99}, {"n": 3}),                 # just under
    ({"f": "1/3"}, {"f": 0.333}),            # a fraction near but not equal
    ({"items": 3}, {"items": [0, 1]}),       # a list of another length (longer)
    ({"items": 1}, {"items": [0, 1]}),       # shorter
    ({"items": 2}, {"items": [0, 2]}),       # same length, one item differs
    ({"table": 3}, {"table": {"0": 0, "1": 1}}),  # an extra key
    ({"table": 1}, {"table": {"0": 0, "1": 1}}),  # a missing key
    ({"table": 2}, {"table": {"0": 0, "1": 2}}),  # a key with another value
    ({"flag": False}, {"flag": True}),
    ({"flag": True}, {"flag": 1}),           # 1 is not true
    ({"n": 1}, {"n": True}),                 # nor true 1
    ({"word": "b"}, {"word": "a"}),
])
def test_each_difference_fails(given: dict[str, Any], expect: dict[str, Any]) -> None:
    r = run("t.values", given, expect=expect)
    name = next(iter(expect))
    failed(r, f"{name}: expected")
    assert r.mismatches and r.mismatches[0][0] == name


def test_a_value_the_resolver_does_not_declare_fails() -> None:
    r = run("t.typo", expect={"total": 1})
    assert r.details == ("the resolver returned 'totl', which it does not declare (declared: total)",
                         "total: expected 1, got '<absent>'")
    assert r.status == "failed"


def test_a_missing_output_fails() -> None:
    failed(run("t.values", expect={"absent": 1}), "absent: expected 1, got '<absent>'")


def test_tolerance_is_the_bound_and_no_more() -> None:
    assert run("t.values", {"n": 3.25}, expect={"n": 3}, tolerance=0.25).passed
    failed(run("t.values", {"n": 3.26}, expect={"n": 3}, tolerance=0.25), "n: expected 3")
    failed(run("t.values", {"n": 2.74}, expect={"n": 3}, tolerance=0.25), "n: expected 3")
    assert run("t.values", {"items": 2}, expect={"items": [0.125, 1.125]}, tolerance=0.125).passed  # reaches into lists
    failed(run("t.values", {"items": 2}, expect={"items": [0.25, 1]}, tolerance=0.125), "items: expected")


def test_odds_over_a_total_the_rules_do_not_cover_are_not_exact() -> None:
    """The odds side of "unstated": a total on which the source is silent is not a miss; the stated chance
    cannot be checked as exact (a forbidden total is: it cannot happen)."""
    failed(run("t.silent", probability="1/3"), "cannot be exact: the rules do not say what happens when 1d6 gives 6")
    failed(run("t.silent", {"kind": "incomplete"}, probability="1/3"),
           "cannot be exact: the rule needs a fact the example does not give when 1d6 gives 6")
    for out_of_the_count in ("forbidden", "impossible", "elsewhere"):
        r = run("t.silent", {"kind": out_of_the_count}, probability="1/3")
        assert r.passed, (out_of_the_count, r.details)


def test_a_mapping_is_not_a_list_nor_a_list_a_mapping() -> None:
    failed(run("t.values", expect={"items": {"0": 0, "1": 1}}), "items: expected")
    failed(run("t.values", expect={"table": [0, 1]}), "table: expected")
    failed(run("t.values", {"word": "ab"}, expect={"word": ["a", "b"]}), "word: expected")  # nor a text a list of its letters


# --- the data check --------------------------------------------------------------------------------

@pytest.mark.parametrize("error, codes", [
    ("too-far", ["error-kind-missing"]),  # prints as error[error-kind-missing]; error[error-see-missing] below
    ({"code": "too-far", "kind": "elsewhere"}, ["error-see-missing"]),
    ({"code": "too-far", "kind": "elsewhere", "see": "t.b"}, []),
    ({"code": "too-far", "kind": "unstated"}, []),
])
def test_a_refusal_without_its_kind_or_entry_is_an_error(error: Any, codes: list[str]) -> None:
    found = [d.code for d in check_examples([entry({"id": "x", "mechanic": "t.refuse", "given": {}, "expect_error": error})], REG)]
    assert found == codes


# --- the early answers: each its status, code and words ---------------------------------------------

def _error(result, code: str, *says: str) -> None:
    """An error answer: its status, its code and every line of its details, whole."""
    assert (result.status, result.error, result.details) == ("error", code, says)


def test_each_early_answer_is_an_error_with_its_code() -> None:
    # an example that is not run says why as kb check does (its message), never a bare code (audit-pack2 defect 2)
    unknown = ("unknown resolver 't.nope'; did you mean 't.typed'? (resolvers are kb's own, listed by 'kb resolvers', "
               "and those a game's mechanics.py registers)")
    _error(run("t.nope"), "unknown-resolver", unknown)
    assert run("t.nope").diagnostic().format() == f"t.yaml:1:1: error[example-not-run]: example 'x' was not run: {unknown}"
    _error(run("t.values", {"items": 10 ** 12}), "limit-exceeded",
           "'examples[0].given.items' is too big to work out: the number 1000000000000; the limit is ±1,000,000")
    for said, should in (("a lot", "a fraction such as 30/36"), ("3/2", "a fraction from 0/1 to 1/1 such as 30/36")):
        _error(run("t.values", probability=said), "invalid-probability",  # kb check's message (the schema's, for 'a lot')
               f"'examples[0].probability': '{said}' is not allowed; {should}")
    _error(run("t.broken"), "resolver-raised", f"ZeroDivisionError: integer division or modulo by zero, at {HERE}:{RAISES}")
    _error(run("t.broken", {"how": "exit"}), "resolver-raised", f"SystemExit(3), at {HERE}:{EXITS}")
    _error(run("t.typed", {"rol": 3}), "invalid-example", "'given.rol': resolver 't.typed' takes no input 'rol'; did "
           "you mean 'roll'?", "resolver 't.typed' needs input 'roll'", "kb check locates the example's problems")
    assert run("t.typed", {"rol": 3}).diagnostic().format() == (
        "t.yaml:1:1: error[example-failed]: example 'x' failed: 'given.rol': resolver 't.typed' takes no input 'rol'; "
        "did you mean 'roll'?; resolver 't.typed' needs input 'roll'; kb check locates the example's problems")
    _error(run("t.typed", {"roll": "3"}), "invalid-example",  # a wrong type is not run either (audit-cli defect 7)
           "line 1: input 'roll' of 't.typed' should be a whole number; 'given.roll' is text '3'",
           "kb check locates the example's problems")
    _error(run("t.broken", {"how": "none"}), "bad-outcome", "bad outcome: a int",
           "the resolver returned a int, not an outcome made with outcome()")
    e = entry({"id": "x", "mechanic": "t.broken", "given": {"how": "loop"}})
    _error(run_example(e, e.examples[0], REG, seconds=0.2), "timeout", "ran longer than 0.2 s, the limit per worked example")


def test_the_chances_second_run_answers_its_own_failures() -> None:
    """The re-run of the resolver over every total of the chance's dice: a total that raises, exits or
    loops is reported as the first run's would be, never a crash or a hang."""
    when = ", when the odds were checked with roll = 6 (1d6)"  # not the example's own roll, 4: that run succeeded
    r = run("t.rerun", expect={"hit": True})
    _error(r, "resolver-raised", f"ZeroDivisionError: integer division or modulo by zero, at {HERE}:{RAISES}{when}")
    assert r.outcome is not None and r.to_json()["actual"] == {"hit": True}
    _error(run("t.rerun", {"how": "exit"}, expect={"hit": True}), "resolver-raised", f"SystemExit(3), at {HERE}:{EXITS}{when}")
    e = entry({"id": "x", "mechanic": "t.rerun", "given": {"how": "loop"}, "expect": {"hit": True}})
    _error(run_example(e, e.examples[0], REG, seconds=0.2), "timeout", "ran longer than 0.2 s, the limit per worked example")


def test_a_probability_the_resolver_does_not_state_is_said() -> None:
    r = run("t.values", probability="1/2")
    assert (r.status, r.details, r.mismatches) == ("failed", ("the resolver states no probability",), ())


def test_a_resolver_reads_other_entries_through_the_lookup_it_is_given() -> None:
    """By default the lookup finds nothing (None, not an empty text); a given lookup is the one the resolver reads."""
    r = run("t.looks", expect={"found": None})
    assert r.passed and r.outcome.values == {"found": None}, r.details
    e = entry({"id": "x", "mechanic": "t.looks", "given": {}, "expect": {"found": {"id": "t.other"}}})
    assert run_example(e, e.examples[0], REG, lambda i: {"id": i}).passed


def test_the_schema_takes_every_kind_of_no_and_no_other() -> None:
    import json

    from kb.core.schema import schema_text

    found = json.loads(schema_text())
    stack, enums = [found], []
    while stack:  # every 'kind' enum under expect_error, wherever the schema nests it
        node = stack.pop()
        if isinstance(node, dict):
            if "expect_error" in node.get("properties", {}):
                enums += [alt["properties"]["kind"]["enum"] for alt in node["properties"]["expect_error"]["anyOf"]
                          if "properties" in alt]
            stack += list(node.values())
        elif isinstance(node, list):
            stack += node
    assert enums == [list(KINDS_OF_NO)]


def test_the_documented_count_of_each_kind_is_the_bundled_contents() -> None:
    """docs/format.md's table of refusals by pack and kind is the bundled content's (a kind changed in a
    pack, or an example added, without the reading documented fails here)."""
    import re
    from collections import Counter

    from kb.api import KnowledgeBase

    root = Path(__file__).resolve().parent.parent
    kb = KnowledgeBase.load(root / "content", use_cache=False)
    found = Counter((e.game, ex.error_kind) for e in kb.entries.values() for ex in e.examples if ex.expect_error)
    doc = (root / "docs" / "format.md").read_text(encoding="utf-8")
    head = "| pack | " + " | ".join(KINDS_OF_NO) + " | total |"
    assert head in doc
    rows = doc[doc.index(head):].split("\n\n", 1)[0].splitlines()[2:]
    table = {}
    for row in rows:
        pack, *counts = [c.strip() for c in row.strip("|").split("|")]
        table[pack] = [int(re.sub(r"\D", "", c)) for c in counts]
    games = sorted({g for g, _ in found})
    want = {g: [found[g, k] for k in KINDS_OF_NO] + [sum(found[g, k] for k in KINDS_OF_NO)] for g in games}
    want["all"] = [sum(found[g, k] for g in games) for k in KINDS_OF_NO] + [sum(found.values())]
    assert None not in {k for _, k in found}
    assert table == want


CHECKED = """\
id: g.checked
kind: rule
game: g
title: {es: E, en: E}
examples:
  - {id: each, mechanic: t.typed, given: {roll: 2}, expect: {total: 2}}
  - {id: only-error, mechanic: t.refuse, given: {}, expect_error: {code: too-far, kind: forbidden}}
  - {id: only-odds, mechanic: t.odds, given: {}, probability: 1/1}
  - {id: nothing-expected, mechanic: t.typed, given: {roll: 2}}
  - {id: bare-code, mechanic: t.refuse, given: {}, expect_error: too-far}
  - {id: no-see, mechanic: t.refuse, given: {}, expect_error: {code: too-far, kind: elsewhere}}
  - {id: not-a-fraction, mechanic: t.odds, given: {}, probability: a lot}
  - {id: above-one, mechanic: t.odds, given: {}, probability: 3/2}
  - {id: too-big, mechanic: t.typed, given: {roll: 2, bonus: {a: 1000000000000}}, expect: {total: 2}}
  - {id: no-such, mechanic: t.typd, given: {rol: 2}, expect: {totl: 2}}
  - {id: wrong-names, mechanic: t.typed, given: {rol: 2}, expect: {totl: 2}}
  - {id: wrong-types, mechanic: t.typed, given: {roll: two, bonus: {a: x, b: y}, twice: 1}, expect: {total: 2}}
  - {id: out-of-range, mechanic: t.typed, given: {roll: 7}, expect: {total: 7}}
"""


def test_the_data_check_says_each_problem_where_it_stands(tmp_path: Path) -> None:
    """Every diagnostic check_examples makes, as the whole line it prints (code, line, column, message):
    and none for an example that has each of expect, expect_error and probability, or a fraction of 1/1."""
    from kb.core.loader import load_entry

    path = tmp_path / "g" / "rules" / "checked.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(CHECKED, encoding="utf-8")
    checked, problems, _ = load_entry(path, "g")
    assert checked is not None
    p = str(path)
    origin = ("(resolvers are kb's own, listed by 'kb resolvers', and those a game's mechanics.py registers; "
              f"no {tmp_path / 'g' / 'mechanics.py'})")
    fraction = "is not allowed; a fraction from 0/1 to 1/1 such as 30/36"
    assert [d.format() for d in check_examples([checked], REG)] == [
        f"{p}:9:5: error[no-expectation]: example 'nothing-expected' needs 'expect', 'expect_error' or 'probability'",
        f"{p}:10:66: error[error-kind-missing]: example 'bare-code': 'expect_error' names no kind; write {{code: too-far, "
        "kind: forbidden|unstated|elsewhere|impossible|incomplete} (forbidden: a rule forbids it; unstated: the source "
        "does not say; elsewhere: another entry's case, with 'see'; impossible: the situation cannot happen; incomplete: "
        "a fact the rule needs is missing)",
        f"{p}:11:63: error[error-see-missing]: example 'no-see': a refusal of kind 'elsewhere' names the entry that covers "
        "the case: add 'see: <id>'",
        # 'a lot' (examples[6]) is no fraction at all: the schema's line says it, once (audit-pack2 defect 12)
        f"{p}:13:63: error[invalid-value]: 'examples[7].probability': '3/2' {fraction}",
        f"{p}:14:66: error[limit-exceeded]: 'examples[8].given.bonus.a' is too big to work out: the number 1000000000000; "
        "the limit is ±1,000,000",
        f"{p}:15:29: error[unknown-resolver]: unknown resolver 't.typd'; did you mean 't.typed'? {origin}",
        f"{p}:16:50: error[unknown-input]: resolver 't.typed' takes no input 'rol'; did you mean 'roll'?",
        f"{p}:16:49: error[missing-input]: resolver 't.typed' needs input 'roll'",
        f"{p}:16:68: error[unknown-output]: resolver 't.typed' gives no output 'totl'; did you mean 'total'?",
        f"{p}:17:56: error[wrong-input-type]: input 'roll' of 't.typed' should be a whole number; 'given.roll' is text 'two'",
        f"{p}:17:68: error[wrong-input-type]: input 'bonus' of 't.typed' should be a mapping of a whole number or empty; "
        "'given.bonus' is a mapping",
        f"{p}:17:89: error[wrong-input-type]: input 'twice' of 't.typed' should be true or false; 'given.twice' is a whole "
        "number 1",
        f"{p}:18:57: error[input-out-of-range]: 'given.roll' = 7 is outside what 't.typed' takes: from 1 to 6",
        # once per resolver, at its def: t.odds declares no range for its roll (audit-pack2 defect 1)
        f"{HERE}:33:1: warning[calc-fixed]: resolver 't.odds' gives the calculator of 'g.checked' "
        "(from example 'only-odds') no field a reader can change: a number with no declared range (roll) is shown fixed at "
        "the example's value; declare each one's range in the decorator: @resolver(..., ranges="
        '{"roll": between(LOW, HIGH)}) (between from kb.mechanics)',
    ]


@pytest.mark.parametrize("kind", KINDS_OF_NO)
def test_a_calculators_answer_carries_the_kind_of_no(kind: str) -> None:
    """What a calculator stores in data-kb-outcome for a refused combination: the code and the resolver's kind."""
    from kb.mechanics.space import Refusal, answer, enumerate_space, space

    res = REG.get("t.silent")
    sp = space(res, {"roll": 4, "kind": kind})
    results = enumerate_space(sp, res)
    six = results[sp.number(sp.positions(dict(sp.base, roll=6)))]
    assert isinstance(six, Refusal) and answer(six) == {"error": "six", "kind": kind}
    assert answer(results[sp.number(sp.positions(dict(sp.base, roll=5)))]) == {"hit": True}


def test_a_misspelt_choice_and_a_far_output_name_say_what_is_there() -> None:
    """``cover: ligth`` gets the did-you-mean of a choice; an output named nothing like the resolver's gets their list
    (audit-pack2 defect 6)."""
    from kb.mechanics import describe

    @resolver("t.cover", outputs={"saved": "the cover stops it", "margin": "by how much"},
              labels={w: (w, w) for w in ("cover", "none", "light", "heavy", "saved", "margin")})
    def cover(cover: Literal["none", "light", "heavy"] = "none") -> Any:
        return outcome(Trace(), saved=cover != "none", margin=0)

    reg = Registry([describe(cover, None)])
    found = check_examples([entry({"id": "x", "mechanic": "t.cover", "given": {"cover": "ligth"},
                                   "expect": {"step": 1}})], reg)
    assert [d.message for d in found] == [
        "input 'cover' of 't.cover' should be one of none, light, heavy; 'given.cover' is text 'ligth'; did you mean "
        "'light'?",
        "resolver 't.cover' gives no output 'step'; its outputs: saved, margin"]
