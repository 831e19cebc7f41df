"""The questions a page shows are written as questions, at most five per language, each once (kb check)."""

from __future__ import annotations

import pytest

from conftest import cli
from kb.core.questions import MAX_QUESTIONS, form_problem, same_question

RULE = """\
id: g.charge
kind: rule
game: g
title: {{es: Carga, en: Charge}}
text: {{es: Se carga en línea recta., en: A charge goes in a straight line.}}
source: {{doc: seed.txt, section: Carga}}
questions:
  es: {es}
  en: {en}
"""


@pytest.mark.parametrize("question", ["¿Puedo cargar después de correr?", "Si estoy trabado, ¿puedo cargar?",
                                      "¿Cuántas pulgadas mueve una carga?", "¿Cuando cargo, puedo girar?",
                                      "¿Está trabada si la toco?"])
def test_well_written_spanish_passes(question: str) -> None:
    assert form_problem(question, "es") is None


@pytest.mark.parametrize("question, says", [
    ("puedo cargar despues de correr", "«¿»"),
    ("¿Puedo cargar después de correr", "«?»"),
    ("¿puedo cargar?", "capital"),
    ("¿Puedo cargar? ¿y girar", "«?»"),
    ("¿Puedo cargar después? Y girar?", "each «¿»"),
    ("¿Cuantas pulgadas mueve una carga?", "«Cuántas»"),
    ("¿Que pasa si cargo?", "«Qué»"),
    ("¿Puedo cargar despues de correr?", "«después»"),
    ("¿Se mide en linea recta?", "«línea»"),
])
def test_badly_written_spanish_is_named(question: str, says: str) -> None:
    problem = form_problem(question, "es")
    assert problem is not None and says in problem, problem


@pytest.mark.parametrize("question, ok", [("Can I charge after running?", True), ("can I charge?", False),
                                          ("Can I charge after running", False), ('"Charge" through a wall?', True)])
def test_english(question: str, ok: bool) -> None:
    assert (form_problem(question, "en") is None) is ok


def test_the_same_question_in_other_order_or_spelling() -> None:
    assert same_question("¿Puedo cargar contra un enemigo trabado?", "¿Contra un enemigo trabado, puedo cargar?", "es")
    assert same_question("Can I charge an engaged enemy?", "can i charge an ENGAGED enemy", "en")
    assert not same_question("¿Cuánto cuesta un bosque pantanoso?", "¿Cuánto cuesta un bosque pesado pantanoso?", "es")


def test_kb_check_reports_each_kind_located(tree) -> None:
    es = ["¿Puedo cargar?", "puedo cargar trabado", "¿Cargo en línea recta?", "¿Cargo en recta línea?",
          "¿Mueve el doble?", "¿Gira al final?"]
    en = ["Can I charge?"]
    tree({"g/rules/charge.yaml": RULE.format(es=es, en=en) + "typed: {es: [cargo]}\n"})
    code, out, _ = cli("check", "--strict")
    assert code == 1
    lines = [ln for ln in out.splitlines() if "question" in ln]
    assert any(":8:27:" in ln and "warning[question-form]" in ln and "puedo cargar trabado" in ln for ln in lines), out
    assert any("warning[duplicate-question]" in ln and "recta línea" in ln for ln in lines), out
    assert any("warning[too-many-questions]" in ln and f"at most {MAX_QUESTIONS}" in ln for ln in lines), out
    assert len(lines) == 3, out


def test_after_an_edit_the_edited_entry_is_checked_again_and_the_others_kept(tree) -> None:
    """The linker keeps each entry's question problems between commands (by its file's content and wordfreq's lists,
    issue 33): an edit changes its own entry's warnings, and the other entries' stay."""
    root = tree({"g/rules/charge.yaml": RULE.format(es=["puedo cargar trabado"], en=["Can I charge?"]) + "typed: {es: [x]}\n",
                 "g/rules/run.yaml": RULE.replace("g.charge", "g.run").format(es=["¿Puedo correr?"], en=["can I run?"])
                 + "typed: {es: [x]}\n"})

    def warned() -> list[str]:
        code, out, _ = cli("check", "--strict")
        return sorted(ln.split(":")[0] + " " + ln.split("warning[")[1].split("]")[0] for ln in out.splitlines()
                      if "warning[question-form]" in ln)

    assert warned() == ["content/g/rules/charge.yaml question-form", "content/g/rules/run.yaml question-form"]
    charge = root / "g" / "rules" / "charge.yaml"
    charge.write_text(charge.read_text(encoding="utf-8").replace("puedo cargar trabado", "¿Puedo cargar trabado?"),
                      encoding="utf-8")
    assert warned() == ["content/g/rules/run.yaml question-form"]
    run = root / "g" / "rules" / "run.yaml"
    run.write_text(run.read_text(encoding="utf-8").replace("can I run?", "Can I run?"), encoding="utf-8")
    assert warned() == []


def test_typed_spellings_are_never_linted(tree) -> None:
    tree({"g/rules/charge.yaml": RULE.format(es=["¿Puedo cargar?"], en=["Can I charge?"])
          + "typed: {es: [puedo cargar, cargo trabado, 'que pasa', a, b, c, d], en: [can i charge]}\n"})
    code, out, _ = cli("check", "--strict")
    assert code == 0, out


def test_a_page_lists_only_well_written_questions_each_once_at_most_five(tree) -> None:
    from kb import KnowledgeBase
    from kb.core.questions import shown_questions

    es = ["se suman el -4 y el -10", "¿Puedo cargar?", "¿Puedo cargar?", "¿Cargo en línea recta?", "¿Mueve el doble?",
          "¿Gira al final?", "¿Cuenta el terreno?", "¿Hace daño?"]
    kb = KnowledgeBase.load(tree({"g/rules/charge.yaml": RULE.format(es=es, en=["can I charge", "Can I charge?"])}))
    e = kb.get("g.charge")
    assert shown_questions(e, "es") == ("¿Puedo cargar?", "¿Cargo en línea recta?", "¿Mueve el doble?",
                                        "¿Gira al final?", "¿Cuenta el terreno?")
    assert shown_questions(e, "en") == ("Can I charge?",)
    code, out, _ = cli("check", "--strict")
    assert code == 0, out  # not split into questions/typed yet: listed filtered, not linted
    shown = cli("show", "g.charge")[1]
    assert "se suman" not in shown and shown.count("¿Puedo cargar?") == 1 and "¿Hace daño?" not in shown
