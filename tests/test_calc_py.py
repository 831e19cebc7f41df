"""The page's Python (issue 30, kb/site/calc_py.py) under CPython: what Pyodide runs in the page, checked here.

For every form the page's Python answers, in both languages: the answer rebuilt from the head's ``py`` part (the
space from the example's inputs, the numbering, the names table) equals the build's own wording of the resolver's
answer, at the example's inputs and at random ones, each odds-table row too. And the bundle the page imports
(kb/site/calc_runtime.py) holds everything that needs: a stdlib-only interpreter answers from it alike.
"""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from kb.api import KnowledgeBase
from kb.mechanics.space import call
from kb.mechanics import Context
from kb.site.calc import _context_read, _in_page, _name_table, calculators, form_html, head_path
from kb.site.calc_py import Calc
from kb.site.calc_runtime import bundle
from kb.site.calc_words import Words
from kb.site.structure import SiteContext

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(ROOT / "content")


def _in_page_forms(kb: KnowledgeBase) -> list[Any]:
    return [c for e in sorted(kb.entries.values(), key=lambda e: e.id) for c in calculators(e, kb.registry.get, in_page=True)
            if c.py]


def _spelled(shard: dict[str, Any], k: int) -> list[Any]:
    S = shard["strings"]
    ids, steps, pairs, odds, refusal = shard["outcomes"][shard["index"][k]]
    return [S[ids], [S[x] for x in steps], [[S[a], S[b]] for a, b in pairs], [S[x] for x in odds] if odds else None,
            S[refusal] if refusal is not None else None]


def test_every_formerly_held_form_is_answered_in_the_page(kb: KnowledgeBase) -> None:
    forms = _in_page_forms(kb)
    assert len(forms) >= 32  # every form whose space was past what a build enumerates (32 held fields before)
    assert {"hunt-begins.attack", "warlords-of-terra.combat", "malifaux.engaged", "dice.initiative"} <= {
        c.resolver.name for c in forms}
    assert all(c.space.size > 2048 for c in forms)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pages_python_words_the_resolvers_answer_as_the_build(kb: KnowledgeBase, lang: str) -> None:
    ctx = SiteContext(kb, {}, lang)
    rng = random.Random(30)
    checked = 0
    for calc in _in_page_forms(kb):
        words = Words(calc.resolver, calc.own_names, lang, ctx.names(calc.entry.game))
        head = _in_page(calc, words, lang, _name_table(ctx, calc.entry.game), None, _context_read(kb, calc))
        page = Calc(json.loads(json.dumps(head["py"])), calc.resolver)
        sp, order = calc.space, head["order"]
        start = sp.positions(sp.base)
        assert start is not None
        tries = [start] + [tuple(rng.randrange(len(f.values)) for f in sp.variable) for _ in range(5)]
        for pos in tries:
            shard = json.loads(page.answer(json.dumps([pos[i] for i in order])))
            rows = ([pos] if head["odds"] is None else
                    [pos[:order[-1]] + (v,) + pos[order[-1] + 1:] for v in range(len(sp.variable[order[-1]].values))])
            want = [words.outcome(_row(kb, calc, p, pos)) for p in rows]
            assert [_spelled(shard, k) for k in range(len(rows))] == want, (calc.resolver.name, pos)
            assert _spelled(shard, shard["at"]) == words.outcome(call(calc.resolver, sp.given(pos), _extra(kb, calc)))
            checked += 1
        assert head["first"] == want_first(calc, words, kb)
    assert checked >= 6 * 32


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_form_with_an_odds_field_shows_its_odds_table_before_the_pages_python_runs(kb: KnowledgeBase, lang: str) -> None:
    """The page shows the build's answer until a value changes (kb-calc.js loads no runtime before): that answer
    holds the odds table, each row the resolver's chance at that value of the odds field, the example's marked."""
    ctx = SiteContext(kb, {}, lang)
    tables = 0
    for calc in _in_page_forms(kb):
        words = Words(calc.resolver, calc.own_names, lang, ctx.names(calc.entry.game))
        head = _in_page(calc, words, lang, _name_table(ctx, calc.entry.game), None, _context_read(kb, calc))
        form = form_html(calc, 0, words, head_path(calc), head)
        found = re.findall(r'<table class="kb-calc-odds-table">.*?</table>', form)
        if head["odds"] is None or not want_first(calc, words, kb)[3]:
            assert not found, calc.resolver.name
            continue
        sp, i = calc.space, head["order"][-1]
        start = sp.positions(sp.base)
        assert start is not None and len(found) == 1, calc.resolver.name
        want = []
        for v, value in enumerate(sp.variable[i].values):
            if value is not None:
                odds = words.outcome(_row(kb, calc, start[:i] + (v,) + start[i + 1:], start))[3]
                want.append((v == start[i], words.show(value), odds[2] if odds else "—"))
        rows = re.findall(r'<tr( class="kb-calc-current" aria-current="true")?><td>(.*?)</td><td>(.*?)</td></tr>', found[0])
        assert [(bool(m), html.unescape(a), html.unescape(b)) for m, a, b in rows] == want, calc.resolver.name
        assert sum(m for m, _, _ in want) == 1
        tables += 1
    # 11 forms the page's Python answers have an odds field; at its example battletech-solaris.drop-down's answer has
    # no chance (kb-calc.js shows no table there either): 10 tables, 8 of them hunt-begins.attack's
    assert tables >= 10


def _row(kb: KnowledgeBase, calc: Any, p: tuple[int, ...], pos: tuple[int, ...]) -> Any:
    """An odds-table row as the page gives it: the resolver's answer, or for a row the typed rolls do not fit, the
    answer with the rolls (lists of whole numbers) empty when that keeps the player's own chance."""
    sp, extra = calc.space, _extra(kb, calc)
    found, mine = call(calc.resolver, sp.given(p), extra), call(calc.resolver, sp.given(pos), extra)
    rolls = {f.path[0] for f in sp.variable if f.kind == "integer" and isinstance(f.path[-1], int)}
    if not hasattr(found, "code") or getattr(mine, "chance", None) is None or not rolls:
        return found
    bare = [call(calc.resolver, {**sp.given(q), **{r: [] for r in rolls}}, extra) for q in (pos, p)]
    return bare[1] if getattr(bare[0], "probability", None) == mine.probability else found


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_shooting_odds_table_gives_every_skills_chance_whatever_the_roll_typed(kb: KnowledgeBase, lang: str) -> None:
    """The chance to wound before rolling does not depend on the roll typed: with the example's hit roll 8 (a miss
    for any skill under 8) the rows for skill 1 and 7 are 1/20 x 9/20 and 7/20 x 9/20 (save on 11 or less), no dash."""
    ctx = SiteContext(kb, {}, lang)
    calc = next(c for c in _in_page_forms(kb) if c.example.id == "pulse-rifle-kills-a-drone")
    words = Words(calc.resolver, calc.own_names, lang, ctx.names(calc.entry.game))
    head = _in_page(calc, words, lang, _name_table(ctx, calc.entry.game), None, _context_read(kb, calc))
    field = head["fields"][head["odds"]]
    assert field["name"] == "skill"
    chances = {shown: row[3][2] if row[3] else "—" for shown, row in zip(field["shown"], head["table"][1 if field["optional"] else 0:])}
    assert chances["1"].startswith("9/400") and chances["7"].startswith("63/400"), chances
    assert "—" not in chances.values()


def want_first(calc: Any, words: Words, kb: KnowledgeBase) -> list[Any]:
    sp = calc.space
    start = sp.positions(sp.base)
    assert start is not None
    return words.outcome(call(calc.resolver, sp.given(start), _extra(kb, calc)))


def _extra(kb: KnowledgeBase, calc: Any) -> dict[str, Any]:
    """The resolver's context as the worked examples give it (every entry of the knowledge base), not the page's."""
    if not calc.resolver.wants_context:
        return {}
    return {"context": Context(calc.entry.data, lambda i: e.data if (e := kb.get(i)) else None)}


CHILD = """
import json, sys
sys.path = [p for p in sys.path if "site-packages" not in p] + [sys.argv[1]]
from kb.site.calc_py import Calc
calc = Calc.load(sys.argv[2], sys.argv[1] + "/games")
print(calc.answer(sys.argv[3]))
print(sorted({m.split(".")[0] for m in sys.modules} & {"yaml", "jsonschema", "whoosh", "mkdocs", "markdown"}))
"""


def test_the_bundle_alone_answers_alike(kb: KnowledgeBase, tmp_path: Path) -> None:
    (tmp_path / "b.zip").write_bytes(bundle(ROOT / "content"))
    with zipfile.ZipFile(tmp_path / "b.zip") as zf:
        zf.extractall(tmp_path / "x")
    calc = next(c for c in _in_page_forms(kb) if c.resolver.name == "hunt-begins.attack")
    ctx = SiteContext(kb, {}, "es")
    words = Words(calc.resolver, calc.own_names, "es", ctx.names(calc.entry.game))
    head = _in_page(calc, words, "es", _name_table(ctx, calc.entry.game))
    positions = json.dumps([0] * len(head["order"]))
    here = Calc(head["py"], calc.resolver).answer(positions)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", CHILD, str(tmp_path / "x"), json.dumps(head["py"]), positions],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    answer, imported = done.stdout.splitlines()
    assert answer == here
    assert imported == "[]"  # no loader, validator, search or site code: only what the page's Python needs


def test_ci_has_the_pinned_pyodide() -> None:
    """In CI (browser tests required) the build finds the pinned Pyodide that .ci/run installed (README and .ci/run
    agree with the code: tests/test_agreement.py)."""
    import os

    from kb.mkdocs_plugin import pyodide_folder
    from kb.site.calc_runtime import INSTALL, PYODIDE

    if not os.environ.get("KB_REQUIRE_BROWSER"):
        pytest.skip("outside CI the large calculators may be built without Pyodide (kb build warns)")
    where, found = pyodide_folder()
    assert found is not None, f"Pyodide {PYODIDE} is not installed in {where} ({INSTALL})"


def test_the_pages_python_finds_a_resolver_beside_one_the_loader_refused(tmp_path: Path, monkeypatch) -> None:
    """The loader registers a module's good resolvers and refuses a bad one (``resolver-signature``); the page's
    Python describes only the one its form names, so the bad one cannot stop it."""
    from kb.site.calc_py import resolver

    (tmp_path / "pyfine").mkdir()
    (tmp_path / "pyfine" / "mechanics.py").write_text(
        "from kb.mechanics import Trace, outcome, resolver\n\n\n"
        "@resolver('pyfine.bad', outputs={'x': 'x'})\ndef bad(**mods: int):\n    return outcome(Trace(), x=0)\n\n\n"
        "@resolver('pyfine.good', outputs={'x': 'x'})\ndef good(a: int):\n    return outcome(Trace(), x=a)\n", encoding="utf-8")
    monkeypatch.delitem(sys.modules, "kb_game_pyfine", raising=False)
    found = resolver("pyfine.good", tmp_path)
    assert found is not None and list(found.inputs) == ["a"]
    sys.modules.pop("kb_game_pyfine", None)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_an_odds_table_with_a_dash_says_what_the_dash_means(lang: str) -> None:
    """A row the other fields as typed give no answer for shows «—», and a note under the table says why; a table
    with no dash has no note."""
    from kb.core.locale import pgettext
    from kb.site.calc import _odds_html
    data = {"odds": 0, "fields": [{"label": "skill", "optional": False, "shown": ["1", "2"]}]}
    yes = [None, None, None, ["p", "hitting", "1/2 ≈ 50 %"], None]
    no = [None, None, None, None, "refused"]
    note = html.escape(pgettext(lang, "site", "calc_odds_dash"), quote=False)
    assert note.split()[0] in _odds_html(data, [no, yes], 1, yes, lang)
    assert "kb-calc-odds-note" in _odds_html(data, [no, yes], 1, yes, lang)
    assert "kb-calc-odds-note" not in _odds_html(data, [yes, yes], 1, yes, lang)
