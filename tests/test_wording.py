"""The wording lint of worked examples (issue 27, item 4; :mod:`kb.view.wording`): clean on the bundled
content in both languages, and each kind of fault planted in a small game is reported by
``kb check --strict`` at the example, while the same game worded right is clean."""

from __future__ import annotations

import textwrap

import pytest

from conftest import cli
from kb.api import KnowledgeBase

GAME = """\
id: g
name: {es: Juego g, en: Game g}
source_language: es
sources:
  - doc: seed.txt
names:
  guild-guard: {es: Guardia del Gremio, en: Guild Guard}
"""

MECHANICS = '''\
from kb.mechanics import RuleError, Trace, outcome, resolver

LABELS = {"unit": ("unidad", "unit"), "zones": ("zonas", "zones"), "moved": ("movida", "moved"),
          "variant": ("variante", "variant")}


@resolver("g.move", outputs={"moved": "whether it moves"})
def move(unit: str, zones: int, variant: int = 0):
    """A planted resolver: ``variant`` picks the fault its wording carries (0: none)."""
    trace = Trace()
    if variant == 1:
        trace.add(f"{unit} avanza", f"{unit} advances")  # an f-string: the id, not its name
    elif variant == 2:
        trace.add("{unit} avanza: sí", "{unit} advances: sí", unit=unit)  # Spanish on the English page
    elif variant == 3:
        trace.add("{unit} avanza {z} zonas", "{unit} advances {z} zones", unit=unit, z=zones)  # no plural rule
    elif variant == 4:
        trace.add("Paso 3 ({s})", "Step 3 ({s})", s="g.turn#advance")  # the step is number 1
    elif variant == 5:
        trace.add("Quedan {z} por recorrer", "{z} {z:p:zone is|zones are} left", z=zones)  # the verb ignores the number
    else:
        trace.add("{unit} avanza {z} {z:p:zona|zonas}", "{unit} advances {z} {z:p:zone|zones}", unit=unit, z=zones)
        trace.add("{z:p:Queda|Quedan} {z} por recorrer", "{z} {z:p:zone is|zones are} left", z=zones)
    return outcome(trace, moved=True)
'''


def _rule(bad: int) -> str:
    return textwrap.dedent(f"""\
        id: g.advance
        kind: rule
        game: g
        title: {{es: Avanzar, en: Advancing}}
        summary: {{es: Una unidad avanza por zonas., en: A unit advances zone by zone.}}
        source: {{doc: seed.txt, section: Avance}}
        examples:
          - id: one-zone
            title: {{es: Una zona, en: One zone}}
            mechanic: g.move
            given: {{unit: guild-guard, zones: 1, variant: {bad}}}
            expect: {{moved: true}}
          - id: three-zones
            title: {{es: Tres zonas, en: Three zones}}
            mechanic: g.move
            given: {{unit: guild-guard, zones: 3}}
            expect: {{moved: true}}
        """)


def _sequence(numbered: bool = False) -> str:
    """A turn of two steps: an unnumbered preparation, then «Fase 1 · Avance» (numbered 2 when the preparation is numbered)."""
    return textwrap.dedent(f"""\
        id: g.turn
        kind: sequence
        game: g
        title: {{es: El turno, en: The turn}}
        summary: {{es: Un turno tiene una preparación y una fase., en: A turn has a preparation and one phase.}}
        source: {{doc: seed.txt, section: Turno}}
        sequence:
          steps:
            - id: prepare
              numbered: {'true' if numbered else 'false'}
              title: {{es: Preparación, en: Preparation}}
              text: {{es: Se prepara la mesa., en: The table is set.}}
            - id: advance
              title: {{es: Fase 1 · Avance, en: Phase 1 · Advance}}
              text: {{es: Las unidades avanzan., en: Units advance.}}
        """)


def _check(tree, bad: int) -> list[str]:
    tree({"g/game.yaml": GAME, "g/mechanics.py": MECHANICS, "g/rules/advance.yaml": _rule(bad), "g/turn.yaml": _sequence()})
    code, out, _ = cli("check", "--strict")
    return [ln for ln in out.splitlines() if "example-wording" in ln]


def test_the_game_worded_right_is_clean(tree) -> None:
    assert _check(tree, 0) == []


@pytest.mark.parametrize("bad, langs, finding", [
    (1, ("es", "en"), "raw-id: 'guild-guard'"),
    (2, ("en",), "other-language: 'sí'"),
    (3, ("es", "en"), "agreement: '1 zon"),
    (4, ("es", "en"), "step-number: '"),
    (5, ("es",), "agreement: 'Quedan 1'"),
])
def test_a_planted_fault_is_reported_at_its_example(tree, bad: int, langs: tuple[str, ...], finding: str) -> None:
    found = _check(tree, bad)
    assert found, bad
    assert all(ln.startswith("content/g/rules/advance.yaml:8:5: warning[example-wording]: example 'one-zone'") for ln in found)
    assert sorted({ln.split("(")[1][:2] for ln in found}) == sorted(langs)
    assert all(finding in ln for ln in found), found


def test_plain_kb_check_does_not_run_the_wording_lint(tree) -> None:
    tree({"g/game.yaml": GAME, "g/mechanics.py": MECHANICS, "g/rules/advance.yaml": _rule(1)})
    code, out, _ = cli("check")
    assert code == 0 and "example-wording" not in out


def test_the_bundled_examples_read_right_in_both_languages() -> None:
    kb = KnowledgeBase.load()
    found = kb.wording()
    assert [d.format() for d in found] == []


REFUSING = '''\
from kb.mechanics import RuleError, Trace, between, outcome, resolver

LABELS = {"unit": ("unidad", "unit"), "zones": ("zonas", "zones"), "moved": ("movida", "moved")}


@resolver("g.move", outputs={"moved": "whether it moves"}, ranges={"zones": between(0, 12)})
def move(unit: str, zones: int):
    """A planted resolver whose refusal no example reaches."""
    if zones > 9:
        raise RuleError("too-far", @ES@, @EN@@VALUES@)
    seen = set()
    seen.add(f"{unit}")  # a set's add, not a message
    trace = Trace()
    trace.add("{unit} avanza", "{unit} advances", unit=unit)
    return outcome(trace, moved=True)
'''


def _fstrings(tree, es: str, en: str, values: str = "") -> list[str]:
    tree({"g/game.yaml": GAME, "g/mechanics.py": REFUSING.replace("@ES@", es).replace("@EN@", en).replace("@VALUES@", values),
          "g/rules/advance.yaml": _rule(0).replace(", variant: 0", "")})
    code, out, _ = cli("check", "--strict")
    return [ln for ln in out.splitlines() if "warning[" in ln]


def test_an_fstring_refusal_no_example_reaches_is_reported_at_its_line(tree) -> None:
    found = _fstrings(tree, 'f"{unit} no llega a {zones} zonas"', '"{unit} cannot reach " + f"{zones} zones"')
    assert [ln.split(": warning")[0] for ln in found] == ["content/g/mechanics.py:10:36", "content/g/mechanics.py:10:97"]
    assert all("[message-fstring]" in ln for ln in found)
    assert "f\"{unit} no llega a {zones} zonas\"" in found[0]


def test_the_same_refusal_with_fields_is_clean(tree) -> None:
    assert _fstrings(tree, '"{unit} no llega a {zones} zonas"', '"{unit} cannot reach {zones} zones"',
                     ", unit=unit, zones=zones") == []


def test_no_message_of_the_engine_or_the_packs_is_an_fstring() -> None:
    import pathlib

    from kb.view.wording import fstring_messages

    root = pathlib.Path(__file__).parents[1]
    files = [*sorted((root / "kb" / "mechanics").glob("*.py")), *sorted((root / "content").glob("*/mechanics.py"))]
    assert len(files) >= 10
    found = [f"{p.relative_to(root)}:{line}:{col}: {text}" for p in files for line, col, text in fstring_messages(p.read_text())]
    assert found == []


def test_an_fstring_step_is_reported_too(tree) -> None:
    tree({"g/game.yaml": GAME, "g/rules/advance.yaml": _rule(0).replace(", variant: 0", ""),
          "g/mechanics.py": REFUSING.replace("@ES@", '"lejos"').replace("@EN@", '"far"').replace("@VALUES@", "")
          .replace('trace.add("{unit} avanza"', 'trace.add(f"{unit} avanza"')})
    code, out, _ = cli("check", "--strict")
    assert [ln.split(": warning")[0] for ln in out.splitlines() if "[message-fstring]" in ln] == ["content/g/mechanics.py:14:15"]


def test_a_step_titled_with_another_number_is_reported_at_its_title(tree) -> None:
    tree({"g/game.yaml": GAME, "g/mechanics.py": MECHANICS, "g/rules/advance.yaml": _rule(0), "g/turn.yaml": _sequence(True)})
    code, out, _ = cli("check", "--strict")
    found = [ln for ln in out.splitlines() if "[step-number]" in ln]
    assert [ln.split(": warning")[0] for ln in found] == ["content/g/turn.yaml:14:19", "content/g/turn.yaml:14:40"]
    assert all("says 1 but the step is numbered 2" in ln for ln in found)
