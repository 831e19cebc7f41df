"""The quick reference of each game (kb/site/quickref.py), without a browser: every action, every step of the
turn sequence and every key rule of the game is linked, in both languages, for the bundled content; the game page
links it (``data-kb-quickref``); a reference that drops one of those kinds fails the check; content stays text.
Printing (two A4 pages at most) and the stepper are tested in Chromium: tests/test_quickref_browser.py."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Callable

import pytest

from kb.api import KnowledgeBase
from kb.core.model import LANGS, page_stem
from kb.site import quickref
from kb.site.pages import build_site
from kb.site.place import turn_sequence
from kb.site.quickref import quickref_path
from kb.site.render import anchor
from kb.site.sanitise import sanitise
from kb.site.structure import entry_path
from kb.view.entry import modifier_rows

LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load()


def _linked(markdown: str, page: str) -> set[str]:
    """Every link target of a page's Markdown, as a path from the language's root (with its #anchor)."""
    out = set()
    for target in LINK.findall(markdown):
        path, _, frag = target.partition("#")
        full = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
        out.add(full + (f"#{frag}" if frag else ""))
    return out


def _step_ids(items: object) -> list[str]:
    out: list[str] = []
    for step in items if isinstance(items, list) else ():
        out.append(str(step["id"]))
        out += _step_ids(step.get("steps"))
    return out


SECTIONS = {"action": "qr-actions", "phase": "qr-turn", "rule": "qr-rules"}
"""The section of the reference that must link each kind."""


def _section(markdown: str, anchor_id: str) -> str:
    return markdown.partition(f"{{#{anchor_id}}}")[2].partition("\n## ")[0]


def missing(kb: KnowledgeBase, game: str, markdown: str) -> dict[str, list[str]]:
    """What the quick reference of ``game`` fails to link, by kind, each in its own section: actions (with
    their costs), phases (steps of the turn sequence, each to its anchor on the sequence's page) and key
    rules (core ``rule`` entries)."""
    seq = turn_sequence(kb.filter(game=game, kind="sequence"))
    want = {
        "action": [entry_path(e) for e in kb.filter(game=game, kind="action")],
        "phase": [f"{entry_path(seq)}#{anchor('step', s)}" for s in _step_ids(seq.data["sequence"]["steps"])] if seq else [],
        "rule": [entry_path(e) for e in kb.filter(game=game, kind="rule") if e.rule_type == "core"],
    }
    have = {kind: _linked(_section(markdown, SECTIONS[kind]), quickref_path(game)) for kind in want}
    return {kind: [w for w in wanted if w not in have[kind]] for kind, wanted in want.items()}


@pytest.fixture(scope="module")
def sites(kb: KnowledgeBase):
    return {lang: build_site(kb, [], lang) for lang in LANGS}


def test_every_game_has_a_quick_reference_in_both_languages(kb: KnowledgeBase, sites) -> None:
    assert len(kb.games) == 5
    for lang, site in sites.items():
        for game in kb.games:
            page = site.page(quickref_path(game))
            assert page is not None, (lang, game)
            assert missing(kb, game, page.markdown) == {"action": [], "phase": [], "rule": []}, (lang, game)
            intro = page.markdown.partition("-quickref}\n\n")[2].partition("\n")[0]
            assert f"[{kb.games[game].name.best(lang)}](index.md)" in intro and "{" not in intro, (lang, intro)


def test_the_bundled_games_give_each_kind_something_to_link(kb: KnowledgeBase) -> None:
    """So that the check above checks something: every game has a turn sequence and key rules, all but none actions."""
    for game in kb.games:
        found = missing(kb, game, "")
        assert found["phase"] and found["rule"] and found["action"], game


def test_each_game_page_links_its_quick_reference(kb: KnowledgeBase, sites) -> None:
    for site in sites.values():
        for game in kb.games:
            md = site.page(f"{game}/index.md").markdown
            assert f'(quickref.md){{: .kb-quickref-link data-kb-quickref="{game}" }}' in md


@pytest.mark.parametrize("part, kind", [("turn", "phase"), ("actions", "action"), ("rules", "rule")])
def test_a_reference_that_drops_a_kind_fails_the_check(kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch,
                                                       part: str, kind: str) -> None:
    monkeypatch.setattr(quickref._Page, part, lambda self: [])
    site = build_site(kb, [], "es")
    for game in kb.games:
        found = missing(kb, game, site.page(quickref_path(game)).markdown)
        assert found[kind], (game, kind)
        assert not [k for k, v in found.items() if v and k != kind], (game, found)


def test_key_numbers_are_every_modifier_and_terrain_cost(kb: KnowledgeBase, sites) -> None:
    for lang, site in sites.items():
        for game in kb.games:
            md = site.page(quickref_path(game)).markdown
            section = _section(md, "qr-numbers")
            rows = [line for line in section.splitlines() if line.startswith("| [")]
            mods = sum(len(modifier_rows(e, lang)) for e in kb.filter(game=game))
            facts = sum(1 for e in kb.filter(game=game, kind="terrain")  # an entry's facts share one row
                        if any(k in (e.data.get("terrain") or {}) for k in quickref.KEY_FACTS))
            assert len(rows) == mods + facts, (lang, game)
    battletech = sites["en"].page(quickref_path("battletech-solaris")).markdown
    assert "| [A 'Mech that is climbing](climbing-mech.md) | +2 |" in battletech
    # a terrain's costs are no "when": the fact's label goes with its value, the "when" cell stays empty
    assert "| [Pavement and ice](paved-and-ice.md) | Costs: pavement: 1, ice: 1 | |" in battletech
    # a terrain with two key facts is one row, not its title twice in a row (audit D18)
    assert battletech.count("| [Swamp](swamp.md) |") == 1
    assert "| [Swamp](swamp.md) | Movement cost change: +1; Costs: clear: 2, light woods: 3 | |" in battletech


def test_actions_carry_their_cost_and_phase(sites) -> None:
    es = sites["es"].page(quickref_path("hunt-begins")).markdown
    assert "| [Correr](run.md) | 2 · extendida |" in es
    en = sites["en"].page(quickref_path("starcraft-tmg")).markdown
    assert re.search(r"\| \[Charge\]\(charge\.md\) \| \[Phase 2 · Assault\]\(round-sequence\.md#step-assault\) \|", en)
    assert "| Action | Phase |" in en  # StarCraft's rules give no action a cost: no column of dashes
    assert "| Acción | Coste | Fase |" in es
    malifaux = _section(sites["en"].page(quickref_path("malifaux")).markdown, "qr-actions")
    assert "| Action | Cost |\n|---|---|\n" in malifaux  # one free action; no phases in its rules
    assert en.index("(deploy.md)") < en.index("(charge.md)") < en.index("(close-combat-attack.md)")  # turn order


def test_optional_and_clarification_rules_are_not_key_rules(kb: KnowledgeBase, sites) -> None:
    md = sites["es"].page(quickref_path("battletech-solaris")).markdown
    rules = _section(md, "qr-rules")
    others = [e for e in kb.filter(game="battletech-solaris", kind="rule") if e.rule_type != "core"]
    assert others
    assert not [e.id for e in others if f"]({entry_path(e).split('/')[1]})" in rules]


HOSTILE = {
    "g/sequences/turn.yaml": """\
        id: g.turn
        kind: sequence
        game: g
        title: {es: Turno <script>alert(1)</script>, en: Turn}
        source: {doc: seed.txt, section: Turno}
        sequence:
          steps:
            - id: act
              title: {es: "Actuar {: onclick=x }", en: Act}
              allows: [shoot]
        """,
    "g/actions/shoot.yaml": """\
        id: g.shoot
        kind: action
        game: g
        title: {es: "Disparar <img src=x onerror=alert(1)>", en: Shoot}
        source: {doc: seed.txt, section: Disparo}
        action: {cost: 2, cost_type: basic, phase: "g.turn#act"}
        modifiers: [{value: -2, when: {es: "a cubierto <b>x</b>", en: in cover}}]
        """,
    "g/rules/quickref.yaml": """\
        id: g.quickref
        kind: rule
        game: g
        title: {es: Una regla llamada como la página, en: A rule named like the page}
        summary: {es: "Resumen [con](javascript:alert(1)) corchetes", en: Summary}
        source: {doc: seed.txt, section: Regla}
        """,
}


def test_content_is_text_and_a_rule_named_quickref_keeps_its_own_page(tree: Callable[..., Path]) -> None:
    kb = KnowledgeBase.load(tree(HOSTILE))
    assert page_stem("rule", "g", "g.quickref") == "g/quickref-entry"
    site = build_site(kb, [], "es")
    md = site.page(quickref_path("g")).markdown
    assert site.page("g/quickref-entry.md") is not None
    assert missing(kb, "g", md) == {"action": [], "phase": [], "rule": []}
    for bad in ("<script", "<img", "<b>", "{: onclick", "](javascript:"):
        assert bad not in md, bad
    assert "| [Disparar &lt;img src=x onerror=alert(1)&gt;](shoot.md) | 2 · basic |" in md


def test_the_sanitiser_keeps_the_quick_reference_mark_only() -> None:
    out = sanitise('<a href="quickref.html" data-kb-quickref="g" data-kb-other="x" onclick="y">r</a>')
    assert 'data-kb-quickref="g"' in out and "data-kb-other" not in out and "onclick" not in out


def test_every_sequence_page_holds_a_stepper_with_the_rulebook_numbers(kb: KnowledgeBase, sites) -> None:
    from kb.mechanics.procedures import numbered_steps

    sequences = kb.filter(kind="sequence")
    assert len(sequences) >= 10
    for lang, site in sites.items():
        for entry in sequences:
            md = site.page(entry_path(entry)).markdown
            assert md.count(f'<div class="kb-stepper" data-kb-stepper="{entry.id}" data-kb-words="') == 1, (lang, entry.id)
            for step, number in numbered_steps(entry.data["sequence"]["steps"]):
                mark = f'<span id="{anchor("step", step["id"])}"'
                want = mark + (f' data-kb-number="{number}"></span>' if number is not None else "></span>")
                assert want in md, (lang, entry.id, want)


def test_the_steppers_words_are_the_pages_language() -> None:
    from kb.site.render import stepper

    es, en = stepper("g.turn", "es", ["1. paso"]), stepper("g.turn", "en", ["1. step"])
    assert "&quot;next&quot;: &quot;Siguiente&quot;" in es[0] and "&quot;next&quot;: &quot;Next&quot;" in en[0]
    assert "&quot;step_number&quot;: &quot;Paso {number}&quot;" in es[0]
    assert stepper('g."><script>', "es", [])[0].count("<script>") == 0


def test_the_sanitiser_keeps_the_steppers_marks_only() -> None:
    out = sanitise('<div class="kb-stepper" data-kb-stepper="g.turn" data-kb-words="{}" data-kb-x="1">'
                   '<span id="step-a" data-kb-number="3.2" data-kb-y="2"></span></div>')
    assert 'data-kb-stepper="g.turn"' in out and 'data-kb-words="{}"' in out and 'data-kb-number="3.2"' in out
    assert "data-kb-x" not in out and "data-kb-y" not in out


def test_an_english_reference_showing_spanish_says_so(tree: Callable[..., Path]) -> None:
    files = dict(HOSTILE)
    files["g/rules/quickref.yaml"] = files["g/rules/quickref.yaml"].replace(
        "summary: {es: \"Resumen [con](javascript:alert(1)) corchetes\", en: Summary}", "summary: {es: Solo en español}")
    kb = KnowledgeBase.load(tree(files))
    en = build_site(kb, [], "en").page(quickref_path("g")).markdown
    assert "Solo en español" in en
    assert en.partition("---\n")[2].partition("---\n")[2].lstrip().startswith("!!! warning")
    es = build_site(kb, [], "es").page(quickref_path("g")).markdown
    assert "!!! warning" not in es
