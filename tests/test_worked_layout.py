"""Worked examples laid out as a rulebook prints them (issue 30, item 4), on the site and in ``kb show``:
the situation as a small table of named values, the steps as a numbered list each citing the rule it
applies, the outcome set apart with the odds beside it; a step of a sequence numbered one way only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import cli
from kb.api import KnowledgeBase
from kb.site.pages import build_site

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site" / "content"


@pytest.fixture(scope="module")
def sites():
    kb = KnowledgeBase.load(FIXTURE)
    results = kb.run_examples()
    return {lang: build_site(kb, results, lang) for lang in ("es", "en")}


def _example(md: str, anchor: str) -> str:
    start = md.rindex('<div class="kb-example" markdown>', 0, md.index(f"{{#{anchor}}}"))
    return md[start:md.index("</div>", start)]


def test_the_situation_is_a_table_of_named_values(sites) -> None:
    ex = _example(sites["es"].page("mini/shooting.md").markdown, "example-eight-or-more")
    assert ('<caption class="kb-sr">Situación</caption>\n<thead><tr><th scope="col">Situación</th>'
            '<th scope="col">Valor</th></tr></thead>\n<tbody>\n<tr><th scope="row">Dados</th><td>2d6</td></tr>\n'
            '<tr><th scope="row">Como mínimo</th><td>8</td></tr>\n') in ex
    en = _example(sites["en"].page("mini/shooting.md").markdown, "example-eight-or-more")
    assert '<th scope="col">Situation</th><th scope="col">Value</th>' in en
    assert '<tr><th scope="row">Dice</th><td>2d6</td></tr>' in en


def test_steps_are_numbered_and_each_cites_its_rule(sites) -> None:
    ex = _example(sites["es"].page("mini/shooting.md").markdown, "example-eight-or-more")
    # its own rule, the page it is on: no citation, so no link to the page's top for a stray tap (audit 2, defect 8)
    assert "**Pasos**\n\n1. 2d6 da ≥ 8 en 15 de 36 resultados.\n" in ex
    assert "kb-cite" not in ex and "(#mini-shooting)" not in ex
    seq = _example(sites["es"].page("mini/turn-sequence.md").markdown, "example-shoot-in-activation")
    # a procedure's step cites the sequence's step it reads, by the step's own title, and numbers it once
    assert "\n1. El paso 2 (Activación) permite: " in seq and "\n2. En este paso se permite " in seq
    assert "kb-cite" not in seq  # its own sequence's step, on the page it is on: no link either


def test_a_step_citing_another_entry_keeps_its_link() -> None:
    """Audit 2, defect 8: only the page's own entry loses its citation; another entry's rule or step stays a link."""
    from kb.core.model import Text
    from kb.site.render import _Page

    titles = {"g.a": Text("A", "A"), "g.b": Text("Be", "Be")}
    page = _Page("es", titles.get, lambda target, step: f"{target.split('.')[1]}.md" + (f"#step-{step}" if step else ""),
                 "#", "g.a")
    assert page.cite("g.b", None, "Be") == "[Be](b.md)"
    assert page.cite("g.b", "s", "Ese") == "[Ese](b.md#step-s)"
    assert page.cite("g.a", None, "A") == page.cite("g.a", "s", "Ese") == ""


def test_the_outcome_is_set_apart_with_its_odds(sites) -> None:
    ex = _example(sites["es"].page("mini/shooting.md").markdown, "example-eight-or-more")
    box = ex[ex.index('!!! success "Resultado"'):]
    assert ('    <caption class="kb-sr">Resultado</caption>\n    <thead><tr><th scope="col">Dato</th>'
            '<th scope="col">Valor</th></tr></thead>\n    <tbody>\n'
            '    <tr><th scope="row">Resultados favorables</th><td>15</td></tr>') in box
    assert "    **Probabilidad de sacar ≥ 8 en 2d6: 5/12 ≈ 41,7\u00a0%.**" in box  # the odds in the same box
    assert ex.index("**Pasos**") < ex.index("!!! success")


def test_a_refusal_box_says_its_kind(sites) -> None:
    from kb.site.render import _REFUSAL_BOX

    assert _REFUSAL_BOX == {"forbidden": "failure", "unstated": "question", "elsewhere": "info", "impossible": "warning",
                            "incomplete": "note"}


def test_kb_show_prints_the_same_layout() -> None:
    code, out, err = cli("--content", str(FIXTURE), "show", "mini.shooting")
    assert code == 0, err
    ex = out[out.index("* Sacar 8 o más con 2d6"):]
    assert "  Situación\n    Dados        2d6\n    Como mínimo  8\n" in ex
    assert "  Pasos\n    1. 2d6 da ≥ 8 en 15 de 36 resultados. → Disparo\n" in ex
    assert "  Resultado\n  │ Resultados favorables  15\n" in ex
    assert "  │ Probabilidad de sacar ≥ 8 en 2d6: 5/12 ≈ 41,7\u00a0%." in ex
    code, out, err = cli("--content", str(FIXTURE), "show", "mini.turn-sequence")
    assert "2. Activación" in out and "   2.1. Fin de la activación" in out  # the rulebook's numbering: 2.1, not a nested 1.
    assert "→ Activación" in out


def test_next_step_shows_the_next_steps_number_beside_its_name() -> None:
    code, out, err = cli("show", "--lang", "en", "hunt-begins.turn-sequence")
    assert code == 0, err
    assert "After step 2.2 (Draw strategy cards) comes step 2.3 (Remove activation markers)." in out
    ex = out[out.index("* After drawing strategy cards"):]
    ex = ex[:ex.index("\n* ")]
    assert "│ Next step    Remove activation markers\n  │ Step number  2.3\n" in ex
    assert "2.2" not in ex.replace("After step 2.2 (Draw", "")  # the given step's number only where it is named


def test_an_example_naming_no_kind_of_no_is_reported_and_still_rendered(tmp_path: Path) -> None:
    """A refusal's ``kind`` that is not one of the kinds (a typo) is a located error from ``kb check``, and
    both renderers still give the page (shown as the default kind) — no KeyError from the sentence table
    (found by the fuzz, which renders every variant that loads)."""
    import shutil

    from kb.core.loader import load_entry
    from kb.site.render import render_entry
    from kb.site.text import render_text

    src = Path(__file__).resolve().parents[1] / "content" / "hunt-begins"
    game = tmp_path / "content" / "hunt-begins"
    (game / "actions").mkdir(parents=True)
    shutil.copy(src / "game.yaml", game / "game.yaml")
    text = (src / "actions" / "general" / "close-combat.yaml").read_text(encoding="utf-8")
    assert "kind: elsewhere, see: hunt-begins.shoot}" in text
    path = game / "actions" / "close-combat.yaml"
    path.write_text(text.replace("kind: elsewhere, see: hunt-begins.shoot}", "kind: elsewhe!e, see: hunt-begins.shoot}"),
                    encoding="utf-8")
    line = text[:text.index("kind: elsewhere, see: hunt-begins.shoot}")].count("\n") + 1
    code, out, err = cli("--content", str(tmp_path / "content"), "check")
    assert code == 1 and f"close-combat.yaml:{line}:" in out + err and "elsewhe!e" in out + err
    entry, _, _ = load_entry(path, "hunt-begins")
    assert entry is not None
    for lang, said in (("es", "La regla lo prohíbe"), ("en", "The rules forbid it")):
        assert said in render_text(entry, lang, lambda _id: None, (), {})
        render_entry(entry, lang, lambda _id: None)


def test_a_first_use_with_no_history_reads_as_a_sentence_not_a_placeholder() -> None:
    """MASC's first use (no previous turns) once read «History —: step 0»: the empty history shown as a
    placeholder dash. Its step now says what an empty history means, in both languages."""
    for lang, said in (("es", "1. Primer uso, sin turnos anteriores: escalón 0, hace falta 3 o más en 2D6 (35/36)."),
                       ("en", "1. First use, no previous turns: step 0, needs 2D6 of 3 or more (35/36).")):
        code, out, err = cli("show", "--lang", lang, "battletech-solaris.masc")
        assert code == 0, err
        flat = " ".join(out.split())  # a step's sentence may wrap
        assert said in flat, flat
        assert "—:" not in flat
    code, out, err = cli("show", "--lang", "en", "battletech-solaris.masc-failure-progression")
    flat = " ".join(out.split())
    assert "1. After 1 previous turn, 1 with MASC: step 1, needs 2D6 of 5 or more (30/36)." in flat
    assert "After 3 previous turns, 2 with MASC: step 1" in flat


def _area_strike(lang: str):
    """The bundled ``warlords-of-terra.area-strike`` page's Markdown and ``kb show`` text in ``lang``."""
    from kb.site.render import render_entry
    from kb.site.text import render_text
    from kb.view.worked import name_finder

    kb = KnowledgeBase.load()
    e = kb.entry("warlords-of-terra.area-strike")
    results = {r.example.id: r for r in kb.run_examples([e.id])}
    meta = kb.games[e.game]
    names = name_finder(e.game, meta.name, meta.data.get("names"), kb.entries)
    titles = lambda i: kb.get(i).title if kb.get(i) else None  # noqa: E731
    return (render_entry(e, lang, titles, (), results, resolvers=kb.registry.get, names=names),
            render_text(e, lang, titles, (), results, kb.registry.get, names))


def test_a_situation_with_named_parts_is_rows_of_its_parts_not_colon_nested_text() -> None:
    """The audit's «Defensores» cell read «Mago: Atacar: 0, Vida: 2 y adyacente: no, Guardaespaldas: …»:
    a mapping of mappings strung together. Each part is now a row of its own, a level deeper, in the page's
    table and in ``kb show`` alike (one view, :class:`kb.view.worked.ExampleRow`)."""
    md, text = _area_strike("es")
    ex = _example(md, "example-ranged-area-strike")
    shown_rows = [re.sub(r'<span class="kb-sr">[^<]*</span>', "", ln) for ln in ex.splitlines()]
    assert "\n".join(['<tr><th scope="row">Defensores</th><td></td></tr>',
                      '<tr><th scope="row">&emsp;Mago</th><td></td></tr>',
                      '<tr><th scope="row">&emsp;&emsp;ATQ</th><td>0</td></tr>',
                      '<tr><th scope="row">&emsp;&emsp;Vida</th><td>2</td></tr>',
                      '<tr><th scope="row">&emsp;&emsp;Adyacente</th><td>no</td></tr>',
                      '<tr><th scope="row">&emsp;Guardaespaldas</th><td></td></tr>']) in "\n".join(shown_rows)
    assert '<tr><th scope="row">Objetivo</th><td>Mago</td></tr>' in ex
    # an output with parts too, in the outcome's box
    assert '    <tr><th scope="row">&emsp;<span class="kb-sr">Vida, </span>Mago</th><td>0</td></tr>\n' in ex
    assert not [ln for ln in shown_rows if ln.lstrip().startswith("<tr>") and ln.count(": ") > 1], ex
    shown = text[text.index("* A distancia, el blanco y sus vecinas"):]
    assert ("    Defensores\n      Mago\n        ATQ                0\n        Vida               2\n"
            "        Adyacente          no\n      Guardaespaldas\n") in shown
    assert "    Objetivo               Mago\n" in shown
    assert "Mago: ATQ" not in shown and "Mago: ATQ" not in md
    md_en, text_en = _area_strike("en")
    assert ('<tr><th scope="row">&emsp;&emsp;<span class="kb-sr">Defenders, Mage, </span>Attack</th><td>0</td></tr>'
            in _example(md_en, "example-ranged-area-strike"))


def test_a_parts_label_is_escaped_under_its_indent() -> None:
    """A part's label comes from content (a mapping's key, a name): the indent is the renderer's markup,
    the label never is (content is data, defended at the sink)."""
    from kb.site.render import _cells
    from kb.view.worked import ExampleRow

    cells = list(_cells([ExampleRow("<b>Mago</b>", "", 1), ExampleRow("Vida", "<i>2</i>", 2)]))
    assert cells[0][0].startswith("&emsp;") and "<b>" not in cells[0][0] and "Mago" in cells[0][0]
    assert cells[1][0] == '&emsp;&emsp;<span class="kb-sr">&lt;b&gt;Mago&lt;/b&gt;, </span>Vida' and "<i>" not in cells[1][1]


def test_a_failed_example_is_not_shown_in_the_green_box_of_one_that_holds(tree) -> None:
    """A non-strict build shows an example whose resolver disagrees with it: its outcome box is the red one, titled
    as an outcome that does not match the example's, never the green «Resultado» of an example that holds
    (audit-pack2 defect 9)."""
    from conftest import SAMPLE
    from kb.site.render import render_entry

    shoot = SAMPLE["g/rules/shoot.yaml"]
    wrong = shoot.replace("expect: {success: true, margin: 6}", "expect: {success: true, margin: 4}")
    for text, box in ((shoot, {"es": '!!! success "Resultado"', "en": '!!! success "Outcome"'}),
                      (wrong, {"es": '!!! failure "Resultado que NO coincide con el que el ejemplo afirma"',
                               "en": '!!! failure "Outcome that does NOT match the one the example states"'})):
        kb = KnowledgeBase.load(tree({**SAMPLE, "g/rules/shoot.yaml": text}, games=("g", "h")))
        e = kb.entry("g.shoot")
        results = {r.example.id: r for r in kb.run_examples([e.id])}
        for lang in ("es", "en"):
            md = render_entry(e, lang, lambda _i: None, (), results, resolvers=kb.registry.get)
            boxes = [ln for ln in md.splitlines() if ln.startswith("!!! ")]
            assert box[lang] in boxes, boxes
            assert ('!!! success' in md) == (text == shoot)
