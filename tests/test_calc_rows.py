"""What a player can type in a calculator (calculator audit, 2026-12-07): lists of rolls are not fixed to the page's
example (C1), a count the rows no longer fit reads «Falta un dato», not «La regla lo prohíbe» (C1, C13), a group the
rule fixes the size of is added whole (C5), a name the resolver declares the set of is a choice (C4), and a long form
keeps a short answer line in sight (C14). Without a browser: tests/test_calc_rows_browser.py tries them in Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.api import KnowledgeBase
from kb.mechanics import KEYS_EVERY, KEYS_FROM, Context, Outcome, Trace, describe, entry_ids, items, keys_of, outcome, resolver
from kb.mechanics.space import ABSENT, LIST_ROOM, ROW_ROOM, call, space
from kb.site.calc import Calculator, _in_page, brief_text, calculators, form_html, head_path
from kb.site.calc_words import Words

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(ROOT / "content")


def _calc(kb: KnowledgeBase, entry: str, mechanic: str) -> Calculator:
    return next(c for c in calculators(kb.entries[entry], kb.registry.get, in_page=True) if c.resolver.name == mechanic)


def _form(kb: KnowledgeBase, calc: Calculator, lang: str) -> str:
    words = Words(calc.resolver, calc.own_names, lang, lambda k: None)
    return form_html(calc, 0, words, head_path(calc), _in_page(calc, words, lang, {}))


def _group(form: str, name: str) -> list[str]:
    """The items of the input ``name`` in a form's HTML."""
    return re.findall(rf'<div class="kb-calc-field kb-calc-item" data-kb-item="{name}".*?</div>', form)


def test_the_rolls_of_an_attack_are_not_fixed_to_the_examples_count(kb: KnowledgeBase) -> None:
    """RoF 2, Rapid fire or a second hit need more rolls than the page's example gives: the list has room for
    ``LIST_ROOM`` rolls, the example's present, each added or removed (audit C1: exactly the example's, no button)."""
    calc = _calc(kb, "hunt-begins.rapid-fire", "hunt-begins.attack")
    sp = calc.space
    rolls = [f for f in sp.variable if f.name == "hit_rolls[]"]
    assert len(rolls) == LIST_ROOM and all(f.values[0] is ABSENT and f.values[1:] == tuple(range(1, 21)) for f in rolls)
    start = sp.positions(sp.base)
    assert start is not None and sp.given(start)["hit_rolls"] == calc.example.given["hit_rolls"]
    at = {id(f): i for i, f in enumerate(sp.variable)}
    pos = list(start)
    pos[at[id(rolls[2])]] = 5  # a third roll, 5
    assert sp.given(tuple(pos))["hit_rolls"] == [*calc.example.given["hit_rolls"], 5]
    for lang in ("es", "en"):
        form = _form(kb, calc, lang)
        shown = _group(form, "hit_rolls")
        assert len(shown) == LIST_ROOM and sum(" hidden>" in i for i in shown) == LIST_ROOM - 2
        assert all("data-kb-remove" in i for i in shown)
        assert re.search(r'data-kb-add="hit_rolls">(Añadir|Add) ', form)
        assert re.search(r'data-kb-add="save_rolls">(Añadir|Add) ', form)


def test_a_list_of_texts_stays_the_examples_unless_the_resolver_declares_its_values() -> None:
    """No options are invented: a list of texts the resolver declares no set of stays the example's; declared with
    ``entry_ids`` (or ``allowed``) and ``items``, each is a choice, added or removed (audit C13), and its ids need no
    label (a page shows an entry's name)."""

    @resolver("t.seq", outputs={"n": "how many"})
    def seq(actions: list[str]) -> Outcome:
        return outcome(Trace(), n=len(actions))

    @resolver("t.declared", ranges={"actions": items(0, 3), "actions[]": entry_ids("g.move", "g.run")}, outputs={"n": "how many"})
    def declared(actions: list[str]) -> Outcome:
        return outcome(Trace(), n=len(actions))

    given = {"actions": ["g.move", "g.run"]}
    bare = space(describe(seq), given)
    assert [f.kind for f in bare.fields if f.name == "actions[]"] == ["fixed", "fixed"]
    res = describe(declared)
    sp = space(res, given)
    listed = [f for f in sp.fields if f.name == "actions[]"]
    assert len(listed) == 3 and all(f.kind == "enum" and f.values == (ABSENT, "g.move", "g.run") for f in listed)
    assert "g.move" not in res.vocabulary()


def test_an_activation_is_the_players_own_actions(kb: KnowledgeBase) -> None:
    """Hunt Begins' activation form held «acciones · 1/2» at the page's example, only «oculta» editable (audit C13):
    each action is a choice among the game's action entries (shown by their names), up to three, added or removed;
    the player's own [Shoot, Move] is answered, and no action chosen reads «Falta un dato», not a rule's "no"."""
    calc = _calc(kb, "hunt-begins.move", "hunt-begins.activation")
    sp = calc.space
    actions = [f for f in sp.variable if f.name == "actions[]"]
    ids = sorted(e.id for e in kb.entries.values() if e.game == "hunt-begins" and e.kind == "action")
    assert len(actions) == 3 and all(sorted(f.values[1:]) == ids for f in actions)
    start = sp.positions(sp.base)
    assert start is not None
    at = {id(f): i for i, f in enumerate(sp.variable)}
    pos = list(start)
    for f, chosen in zip(actions, ("hunt-begins.shoot", "hunt-begins.move", ABSENT), strict=True):
        pos[at[id(f)]] = f.values.index(chosen)
    given = sp.given(tuple(pos))
    assert given["actions"] == ["hunt-begins.shoot", "hunt-begins.move"]
    names = {e.id: e.title for e in kb.entries.values()}
    ctx = {"context": Context(calc.entry.data, lambda i: kb.entries[i].data if i in kb.entries else None)}
    result = call(calc.resolver, given, ctx)
    assert isinstance(result, Outcome) and result.values["types"] == ["shooting", "movement"]
    for lang, said in (("es", "Falta un dato: "), ("en", "Missing information: ")):
        words = Words(calc.resolver, calc.own_names, lang, names.get)
        none = call(calc.resolver, sp.given(tuple(0 if id(f) in map(id, actions) else p for f, p in zip(sp.variable, pos, strict=True))), ctx)
        assert words.outcome(none)[4].startswith(said)
        form = _form(kb, calc, lang)
        assert len(_group(form, "actions")) == 3 and re.search(r'data-kb-add="actions">(Añadir|Add) ', form)
    shown = _form_named(kb, calc, "es")
    assert ">Disparo</option>" in shown and ">Mover</option>" in shown and "hunt-begins.shoot</option>" not in shown


def _form_named(kb: KnowledgeBase, calc: Calculator, lang: str) -> str:
    """A calculator's form with the entries' names (as the site shows ids)."""
    names = {e.id: e.title for e in kb.entries.values()}
    words = Words(calc.resolver, calc.own_names, lang, names.get)
    return form_html(calc, 0, words, head_path(calc), _in_page(calc, words, lang, {}))


def test_a_phase_of_alternating_activations_is_the_players_own_decisions(kb: KnowledgeBase) -> None:
    """StarCraft's activation phase held every «decisiones · n» at the page's example: with Bruno's units down to 2 it
    said «La regla lo prohíbe» (audit C13). Each decision is one choice of a player and an action (or a pass), added or
    removed; the holder is a choice of the players; Bruno with two units and his own three decisions is answered."""
    calc = _calc(kb, "starcraft-tmg.passing", "starcraft-tmg.activation-phase")
    sp = calc.space
    decisions = [f for f in sp.variable if f.name == "decisions[]"]
    assert len(decisions) >= 12 and all(f.kind == "enum" for f in decisions)
    assert {"ana": "pass"} in decisions[0].values and {"bruno": "hold"} in decisions[0].values
    assert next(f for f in sp.variable if f.name == "holder").values == ("ana", "bruno")
    start = sp.positions(sp.base)
    assert start is not None
    at = {id(f): i for i, f in enumerate(sp.variable)}
    pos = list(start)
    pos[at[id(next(f for f in sp.variable if f.name == "units.bruno"))]] = 2
    mine = [{"ana": "pass"}, {"bruno": "move"}, {"bruno": "hold"}, {"bruno": "pass"}]
    for i, f in enumerate(decisions):
        pos[at[id(f)]] = f.values.index(mine[i]) if i < len(mine) else 0
    given = sp.given(tuple(pos))
    assert given["decisions"] == mine and given["units"]["bruno"] == 2
    ctx = {"context": Context(calc.entry.data, lambda i: kb.entries[i].data if i in kb.entries else None)}
    result = call(calc.resolver, given, ctx)
    assert isinstance(result, Outcome) and result.values["activations"] == {"ana": 0, "bruno": 2}
    form = _form(kb, calc, "en")
    assert len(_group(form, "decisions")) == len(decisions) and 'data-kb-add="decisions">Add ' in form
    assert ">bruno: Hold</option>" in form and ">ana: pasar</option>" in _form(kb, calc, "es")  # names: the site's table


@pytest.mark.parametrize("lang, said", [("es", "Falta un dato: "), ("en", "Missing information: ")])
def test_fewer_rolls_than_checks_is_a_missing_fact_not_a_rule(kb: KnowledgeBase, lang: str, said: str) -> None:
    """RoF 2 with one roll typed was «La regla lo prohíbe: Se hacen 2 chequeos, no 1» (audit C1): a roll still to type
    is a missing fact; more rolls than checks cannot happen; neither is the rule's "no"."""
    calc = _calc(kb, "hunt-begins.rapid-fire", "hunt-begins.attack")
    words = Words(calc.resolver, calc.own_names, lang, lambda k: None)
    base = {"skill": 14, "armour": 13}
    fewer = words.outcome(call(calc.resolver, {**base, "rof": 2, "hit_rolls": [5]}))[4]
    assert fewer.startswith(said), fewer
    saves = words.outcome(call(calc.resolver, {**base, "hit_rolls": [5], "save_rolls": []}))[4]
    assert saves.startswith(said), saves
    more = call(calc.resolver, {**base, "rof": 1, "hit_rolls": [5, 6]})
    assert getattr(more, "kind", None) == "impossible"


def test_both_players_vp_are_added_together_and_never_removed_one_by_one(kb: KnowledgeBase) -> None:
    """«Añadir puntos de victoria» added Ana alone, the answer then «no puede darse», and each player had «Quitar»
    though a game always has both (audit C5): a group declared ``keys_of(..., every=True)`` is added whole, removed
    whole."""
    res = kb.registry.get("starcraft-tmg.first-player")
    assert res.ranges()["vp"] == {KEYS_FROM: ["roll_off"], KEYS_EVERY: True}
    calc = _calc(kb, "starcraft-tmg.first-player-round-one", "starcraft-tmg.first-player")
    for lang in ("es", "en"):
        form = _form(kb, calc, lang)
        vp = _group(form, "vp")
        assert len(vp) == 2 and not any("data-kb-remove" in i for i in vp)
        assert re.search(r'data-kb-add="vp" data-kb-all>', form) and 'data-kb-remove-all="vp"' in form
    climb = _form(kb, _calc(kb, "battletech-solaris.climb", "battletech-solaris.climb"), "es")
    assert "data-kb-all" not in climb and all("data-kb-remove" in i for i in _group(climb, "rolls"))


def test_the_roll_off_winners_choice_is_a_choice_among_the_players(kb: KnowledgeBase) -> None:
    """«elección» was «Bruno — fijo en este ejemplo» (audit C4): declared ``keys_of("roll_off", "vp")``, it is a list
    of the players."""
    calc = _calc(kb, "starcraft-tmg.first-player-round-one", "starcraft-tmg.first-player")
    choice = next(f for f in calc.space.fields if f.name == "choice")
    assert choice.kind == "enum" and set(choice.values) == {None, *calc.example.given["roll_off"]}


def test_a_long_form_has_a_short_answer_line_and_a_short_one_has_none(kb: KnowledgeBase) -> None:
    """On shoot.html the answer sat 1,400 px below the first field, under a phone's keyboard (audit C14): a long form
    opens with a one-line answer kept in sight (kb.css: sticky), the same as the answer box's."""
    calc = _calc(kb, "hunt-begins.shoot", "hunt-begins.attack")
    for lang in ("es", "en"):
        words = Words(calc.resolver, calc.own_names, lang, lambda k: None)
        data = _in_page(calc, words, lang, {})
        form = form_html(calc, 0, words, head_path(calc), data)
        line = re.search(r'<p class="kb-calc-brief" aria-hidden="true">([^<]*)</p><div class="kb-calc-fields">', form)
        assert line and line.group(1) and line.group(1) == _escaped(brief_text(data["first"]))
    short = _calc(kb, "battletech-solaris.swamp-stuck", "battletech-solaris.swamp-check")
    words = Words(short.resolver, short.own_names, "es", lambda k: None)
    assert "kb-calc-brief" not in form_html(short, 0, words, head_path(short), _in_page(short, words, "es", {}))


def _escaped(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def test_the_space_of_an_open_list_holds_the_examples_longer_list(kb: KnowledgeBase) -> None:
    """An example with more items than ``LIST_ROOM`` keeps them all (room is never less than the example's)."""
    res = kb.registry.get("hunt-begins.attack")
    sp = space(res, {"skill": 14, "rof": 4, "rapid_fire": True, "hit_rolls": [1] * (LIST_ROOM + 1)}, 10**30, 10**30)
    assert len([f for f in sp.fields if f.name == "hit_rolls[]"]) == LIST_ROOM + 1


def test_a_three_way_tie_and_a_tie_in_the_re_roll_can_be_typed(kb: KnowledgeBase) -> None:
    """The re-roll row had boxes only for the example's tied pair, and no third row (audit C2): a list of rows of
    rolls by player offers ``ROW_ROOM`` rows, each with a box per player the example names, each added or removed."""
    calc = _calc(kb, "hunt-begins.initiative-roll", "dice.initiative")
    sp = calc.space
    players = list(calc.example.given["rolls"][0])
    rows = [f for f in sp.variable if f.path[0] == "rolls"]
    assert [f.path[1:] for f in rows] == [(i, p) for i in range(ROW_ROOM) for p in players]
    at = {f.path[1:]: i for i, f in enumerate(sp.variable) if f.path[0] == "rolls"}
    start = sp.positions(sp.base)
    assert start is not None
    pos = [0 if f.path[0] == "rolls" else start[i] for i, f in enumerate(sp.variable)]  # no roll typed yet
    for p in players:  # every player rolls 18, all three re-roll (7, 7, 3), then the first two again (9, 2)
        pos[at[(0, p)]] = 18
    for p, r in zip(players, (7, 7, 3), strict=True):
        pos[at[(1, p)]] = r
    pos[at[(2, players[0])]], pos[at[(2, players[1])]] = 9, 2
    given = sp.given(tuple(pos))
    assert given["rolls"] == [dict.fromkeys(players, 18), dict(zip(players, (7, 7, 3), strict=True)),
                              {players[0]: 9, players[1]: 2}]
    result = call(calc.resolver, given)
    high = given.get("highest_first", True)
    assert result.values["order"] == ([players[0], players[1], players[2]] if high else [players[2], players[1], players[0]])
    assert result.values["rerolls"] == 2
    form = _form(kb, calc, "en")
    assert len(_group(form, "rolls")) == ROW_ROOM * len(players) and 'data-kb-add="rolls">Add ' in form


def test_a_one_entry_mapping_says_so_in_kb_resolvers() -> None:
    """``keys_of(..., one=True)`` (a decision, ``{player: action}``) reads as one entry in ``kb resolvers`` and checks."""
    from kb.examples.runner import describe_keys

    assert describe_keys(keys_of("units", one=True)) == "keys among those of units (one entry)"
    assert describe_keys(keys_of("units")) == "keys among those of units"


OWN_LIST = {"g/mechanics.py": '''\
from kb.mechanics import Trace, allowed, items, outcome, resolver


@resolver("g.turn", ranges={"actions": items(0, 2), "actions[]": allowed("move", "run")}, outputs={"n": "actions taken"},
          labels={"actions": ("acciones", "actions"), "move": ("mover", "move"), "run": ("correr", "run"),
                  "n": ("acciones hechas", "actions taken")})
def turn(actions: list[str]):
    """A turn of at most two actions: nine lists, a space the build could enumerate in one shard."""
    return outcome(Trace(), n=len(actions))
''', "g/a.yaml": """\
id: g.turn
kind: rule
game: g
title: {es: Turno, en: Turn}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.turn
    given: {actions: [move]}
    expect: {n: 1}
"""}


def test_a_players_own_list_is_answered_by_the_pages_python_however_small(tree) -> None:
    """A list of choices (the player's own actions, audit C13) is never answered from the build's tables, which the
    save without the runtime downloads: with the runtime the form is the page's Python's even when its space is
    small (no shard written), and offline without it the page says it needs the full calculators."""
    from kb.site.calc import IN_PAGE, calc_site, own_list

    kb = KnowledgeBase.load(tree(OWN_LIST))
    [calc] = calculators(kb.entries["g.turn"], kb.registry.get, in_page=True)
    assert own_list(calc.space) and calc.space.size <= IN_PAGE and calc.py
    site = calc_site(kb, "en", True, "../kb-py")
    assert site.python and 'data-kb-py="' in site.forms["g/turn.md"][0]
    assert not [p for p in site.files if re.search(r"-\d+\.js$", p)]  # no shard: no answer worked out ahead


def test_the_hunt_begins_calculators_data_stays_near_mains(kb: KnowledgeBase) -> None:
    """Re-applied, C13's Hunt Begins activation forms (the player's own actions, the page's Python's) each wrote
    the game's names and every action entry into its head: 18 heads of 190 KB, 4.0 MB of calculator data per
    language (563 KB before C13), the Spanish save without the runtime 8.1 → 11.6 MB. The heads now name one shared file
    of the game (``py_data_path``), and the game's calculator data stays under twice what it was before C13."""
    from kb.site.calc import Working, _game, py_data_path

    part = _game(kb, "hunt-begins", "es", True, "../kb-py", Working())
    sizes = {p: len(t.encode()) for p, t in part.files.items()}
    assert sum(sizes.values()) < 2 * 563_000, sorted(sizes.items(), key=lambda s: -s[1])[:3]
    shared = part.files[py_data_path("hunt-begins")]
    assert "hunt-begins.point-blank-shot" in shared  # an action an activation may take, read by the page's Python
    heads = [t for p, t in part.files.items() if "-activation-" in p and '"py":' in t]
    assert len(heads) >= 10 and all('"data":"kb-calc-hunt-begins-py.js"' in t and '"names":' not in t for t in heads)
    assert not [p for p in part.files if re.search(r"-hunt-begins-activation-[0-9a-f]{12}-\d+\.js$", p)]
