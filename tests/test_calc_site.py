"""The calculators' forms and data (issue 30), without a browser: one form per entry and resolver in both
languages, first filled with the entry's first example and showing the resolver's answer for it; the data
scripts hold one index entry per combination; content reaches a form only escaped."""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path

import pytest

from kb.api import KnowledgeBase
from kb.mechanics import RuleError
from kb.mechanics.space import plain, takes_choices
from kb.mkdocs_plugin import pyodide_folder
from kb.site.calc import IN_PAGE, calc_site, py_data_path
from kb.site.structure import entry_path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = pyodide_folder()[1]
"""The pinned Pyodide as ``kb build`` finds it (``$KB_PYODIDE_DIR`` or ``~/.cache/kb-pyodide``), or ``None``."""


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(ROOT / "content")


@pytest.fixture(scope="module", params=["es", "en"])
def built(request, kb):
    return request.param, calc_site(kb, request.param, RUNTIME is not None)


def _answer(kb, entry, ex):
    res = kb.registry.get(ex.mechanic)
    from kb.mechanics import Context
    extra = {"context": Context(entry.data, lambda i: e.data if (e := kb.get(i)) else None)} if res.wants_context else {}
    try:
        return {k: plain(v) for k, v in res.func(**dict(ex.given), **extra).values.items()}
    except RuleError as err:
        return {"error": err.code, "kind": err.kind}


def test_every_entry_gets_a_form_per_resolver_first_filled_with_its_example(kb, built) -> None:
    lang, site = built
    wanted = {}
    for e in kb.entries.values():
        for ex in e.examples:
            if takes_choices(kb.registry.get(ex.mechanic)):
                wanted.setdefault((entry_path(e), ex.mechanic), (e, ex))
    found = {}
    for page, forms in site.forms.items():
        for form in forms:
            name = re.search(r'data-kb-resolver="([^"]+)"', form).group(1)
            found[(page, name)] = form
    assert set(found) == set(wanted)
    assert len({m for _, m in wanted}) >= 59
    for key, form in found.items():
        entry, ex = wanted[key]
        shown = json.loads(html.unescape(re.search(r'data-kb-outcome="([^"]*)"', form).group(1)))
        assert shown == json.loads(json.dumps(_answer(kb, entry, ex))), key
        names = {n.split(".")[0].split("[")[0] for n in re.findall(r' name="([^"]+)"', form)}
        assert names <= set(kb.registry.get(ex.mechanic).inputs), key


def _data(text: str) -> dict:
    return json.loads(text.split("]=", 1)[1].rstrip(";\n"))


def test_each_space_has_one_answer_per_combination_in_its_shards(built) -> None:
    _, site = built
    assert all(site.sizes[path] == len(text.encode()) for path, text in site.files.items())
    assert all("<" not in text for path, text in site.files.items())  # data only (the runtime is the plugin's to write)
    heads = {re.search(r'data-kb-file="([^"]+)"', f).group(1) for fs in site.forms.values() for f in fs}
    assert heads and heads <= set(site.files)  # (a head's key may be all digits, like a shard's number)
    shards = {p for p in site.files if re.search(r"-\d+\.js$", p) and p.rsplit("-", 1)[0] + ".js" in heads}
    shared = {py_data_path(g) for g in {h.split("/")[0] for h in heads if "py" in _data(site.files[h])}}
    assert set(site.files) == heads | shards | shared  # the page's Python's names and entries: one file per game
    for head in heads:
        data = _data(site.files[head])
        total, n = math.prod(f["n"] for f in data["fields"]), 0
        if "py" in data:  # answered by the page's Python: no shards, the runtime beside the pages
            assert (total > IN_PAGE or any(f.get("item") and f["kind"] == "enum" for f in data["fields"])) and not any(p.startswith(head.removesuffix(".js") + "-") for p in site.files), head
            assert site.python
            continue
        assert total <= 3 * 8192, head
        assert data["shard"] % (data["fields"][-1]["n"] if data["fields"] else 1) == 0  # whole runs of the odds field
        while (path := head.removesuffix(".js") + f"-{n}.js") in site.files:
            shard = _data(site.files[path])
            assert len(shard["index"]) == min(data["shard"], total - n * data["shard"]), path
            assert max(shard["index"]) < len(shard["outcomes"])
            n += 1
        assert n * data["shard"] >= total > (n - 1) * data["shard"], head


GAME_NAMED = {"g/a.yaml": """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: check.roll-over
    given: {target: 7, modifiers: {g.cover: 1}}
    expect: {target: 8}
""", "g/cover.yaml": """\
id: g.cover
kind: term
game: g
title: {es: Cobertura, en: Cover}
summary: {es: Algo que tapa., en: Something in the way.}
source: {doc: seed.txt, section: s}
"""}


def test_a_second_build_reads_the_cache_and_gives_the_same_data(tree) -> None:
    root = tree(GAME_NAMED)
    first = calc_site(KnowledgeBase.load(root), "es")
    second = calc_site(KnowledgeBase.load(root), "es")  # a new load: nothing remembered but the cache files
    assert (first.computed, first.cached) == (1, 0) and (second.computed, second.cached) == (0, 1)
    assert second.files == first.files and second.forms == first.forms


def test_one_enumeration_words_every_language(tree) -> None:
    root = tree(GAME_NAMED)
    kb = KnowledgeBase.load(root)
    es, en = calc_site(kb, "es"), calc_site(kb, "en")
    assert (es.computed, en.computed, en.cached) == (1, 0, 0)  # the English words were made with the Spanish
    assert any("Cover" in text for text in en.files.values()) and len(en.kept) == 1
    assert calc_site(KnowledgeBase.load(root), "en").cached == 1  # and cached, not tidied away by its own build


def test_a_renamed_id_is_worded_again_not_read_from_the_cache(tree) -> None:
    root = tree(GAME_NAMED)
    calc_site(KnowledgeBase.load(root), "en")
    cover = root / "g" / "cover.yaml"
    cover.write_text(cover.read_text().replace("en: Cover}", "en: Shelter}"))
    again = calc_site(KnowledgeBase.load(root), "en")
    assert again.computed == 1
    assert any("Shelter" in text for text in again.files.values()) and not any("Cover" in t for t in again.files.values())


def test_a_planted_or_edited_cache_file_is_never_served(tree, caplog) -> None:
    root = tree(GAME_NAMED)
    calc_site(KnowledgeBase.load(root), "es")
    [record] = (root.parent / ".kb-cache" / "calc").rglob("*-es.json")
    raw = record.read_bytes()
    record.write_bytes(raw.replace(b'"Cobertura"', b'"<img src=x onerror=alert(1)>"'))  # its signature no longer fits
    again = calc_site(KnowledgeBase.load(root), "es")
    assert again.computed == 1 and not any("onerror" in text for text in again.files.values())
    assert "ignored a damaged cache file" in caplog.text


def test_content_reaches_a_form_only_escaped(tree) -> None:
    root = tree({"g/a.yaml": """\
id: g.ok
kind: rule
game: g
title: {es: Bien, en: Fine}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: check.roll-over
    given: {target: 7, modifiers: {"<img src=x onerror=alert(1)>": 1}}
    expect: {target: 8}
"""})
    site = calc_site(KnowledgeBase.load(root), "es")
    form = site.forms["g/ok.md"][0]
    assert "<img" not in form and "&lt;img src=x onerror=alert(1)&gt;" in form


SPOOF = {"g/mechanics.py": """\
from fractions import Fraction

from kb.core.model import Text
from kb.mechanics import Chance, Trace, between, outcome, resolver


@resolver("g.spoof", ranges={"a": between(1, 3)}, outputs={"said": "what it says"},
          labels={"a": ("a", "a"), "said": ("dice", "says")})
def spoof(a: int):
    # it says odd things
    t = Trace()
    t.add("Paso\\x1b[2J {a} {w}", "Step\\x1b[2J {a} {w}", a=a, w="\\u202eevil\\u202c\\u200b")
    return outcome(t, Chance(Fraction(1, 2), Text("ca\\x1bra", "he\\u202ead")), said="\\u200bword\\x1b[31m")
""", "g/a.yaml": """\
id: g.spoof
kind: rule
game: g
title: {es: Raro, en: Odd}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.spoof
    given: {a: 1}
    probability: 1/2
"""}
"""A resolver whose trace, output and odds' event hold ESC, a bidi override and a zero-width space."""
RAW = re.compile("[\x1b\u202e\u202c\u200b]")


def test_a_resolvers_control_characters_reach_a_page_only_as_escapes(tree) -> None:
    """What a resolver says at run time (its steps, its output text, its odds' event) is code nothing checks as YAML
    is checked: the calculator's answers (form and data, worded alike by the page's Python) and the worked example
    show its ESC, bidi override and zero-width space as escapes (audit-hostile2 #7)."""
    from kb.view.worked import example_view

    kb = KnowledgeBase.load(tree(SPOOF))
    for lang in ("es", "en"):
        site = calc_site(kb, lang)
        form = re.sub(r' data-kb-outcome="[^"]*"', "", "".join(site.forms["g/spoof.md"]))  # the answer as data, unshown
        words = [w for body in site.files.values() for w in json.loads(body[body.index("]=") + 2:-2]).get("strings", [])
                 if not w.startswith("{")]  # what the page's script shows (not the answers as data)
        assert "\\x1b[2J" in form and "\\u202eevil" in form, lang  # the step and its value, as escapes
        step, event = {"es": ("Paso", "ca\\x1bra"), "en": ("Step", "he\\u202ead")}[lang]
        assert f"{step}\\x1b[2J 1 \\u202eevil\\u202c\\u200b." in words and event in words, lang
        assert not RAW.search(form + "".join(words)), lang  # nor raw
    entry = kb.get("g.spoof")
    [result] = kb.run_examples(["g.spoof"])
    view = example_view(entry, entry.examples[0], result, "en", kb.registry.get("g.spoof"), lambda _i: None)
    assert view.steps[0].text == "Step\\x1b[2J 1 \\u202eevil\\u202c\\u200b."
    assert [(r.label, r.value) for r in view.result] == [("Says", "\\u200bword\\x1b[31m")]
    assert view.odds == "Chance of he\\u202ead: 1/2 ≈ 50%."


BIG_SPACE = {"g/mechanics.py": '''\
from kb.mechanics import Trace, between, outcome, resolver


@resolver("g.sum", ranges={n: between(1, 20) for n in "abcd"}, outputs={"total": "the four numbers added"},
          labels={"a": ("a", "a"), "b": ("b", "b"), "c": ("c", "c"), "d": ("d", "d"), "total": ("total", "total")})
def total(a: int, b: int, c: int, d: int):
    """Four numbers added: 20 ** 4 combinations, more than a build enumerates whole."""
    return outcome(Trace(), total=a + b + c + d)
''', "g/a.yaml": """\
id: g.sum
kind: rule
game: g
title: {es: Suma, en: Sum}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.sum
    given: {a: 1, b: 2, c: 3, d: 4}
    expect: {total: 10}
"""}
"""A space (160,000 combinations) past ``WHOLE_SPACE``: the page's Python answers it, or the build holds it in part."""


def test_without_the_runtime_a_large_space_is_held_and_counted(tree) -> None:
    site = calc_site(KnowledgeBase.load(tree(BIG_SPACE)), "es")  # no runtime given: none used, whatever is installed
    assert site.held == 1 and not site.python and not any(p.startswith("kb-py/") for p in site.files)
    assert "data-kb-fixed" in site.forms["g/sum.md"][0] and "data-kb-py" not in site.forms["g/sum.md"][0]


def test_with_the_runtime_a_large_space_is_answered_in_the_page(tree) -> None:
    site = calc_site(KnowledgeBase.load(tree(BIG_SPACE)), "es", True, "../kb-py")
    assert site.held == 0 and site.python
    assert "data-kb-fixed" not in site.forms["g/sum.md"][0] and 'data-kb-py="../../kb-py/"' in site.forms["g/sum.md"][0]


def test_kb_build_without_the_runtime_warns_with_the_install_command_and_passes_strict(tree, monkeypatch) -> None:
    """A fresh machine with no npm: ``kb build --strict`` builds (the large forms held in part) and says, last, how
    many calculators are held and the command that installs the runtime: a warning, not a failure (docs/site.md)."""
    from conftest import MKDOCS, cli
    from kb.core.diagnostics import format_path
    from kb.site.calc_runtime import INSTALL, PYODIDE

    root = tree(BIG_SPACE)
    monkeypatch.setenv("KB_PYODIDE_DIR", str(root.parent / "no-pyodide"))
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--strict", "--site-dir", str(root.parent / "site"))
    assert code == 0, out + err
    line = err.splitlines()[-1]
    assert line.startswith(f"kb build: {format_path(root.parent / 'no-pyodide')}:1:1: warning[calc-runtime]: "
                           "1 calculator(s) built held in part")
    assert line.endswith(f"Pyodide {PYODIDE}, which answers them in the page, is not installed in "
                         f"{root.parent / 'no-pyodide'}; install it with: {INSTALL}")
    assert (root.parent / "site" / "es" / "g" / "sum.html").is_file()
    assert not list((root.parent / "site").rglob("kb-py"))


def test_kb_build_writes_one_runtime_for_both_languages_and_both_save_it(tree, monkeypatch) -> None:
    """The runtime (9 MB) once, at the site's root: both languages' forms point there (relative, so from file:// too)
    and each language's offline lists (issue 29) hold it, so "save for offline play" stores it in either language."""
    if RUNTIME is None:
        pytest.skip("Pyodide is not installed (tests/test_calc_py.py requires it in CI)")
    from conftest import MKDOCS, cli

    root = tree(BIG_SPACE)
    monkeypatch.setenv("KB_PYODIDE_DIR", str(RUNTIME))
    site = root.parent / "site"
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--strict", "--site-dir", str(site))
    assert code == 0 and "calc-runtime" not in err, out + err
    assert (site / "kb-py" / "kb-py-wasm.js").is_file() and (site / "kb-py" / "pyodide.js").is_file()
    assert not (site / "es" / "kb-py").exists() and not (site / "en" / "kb-py").exists()
    for lang in ("es", "en"):
        page = (site / lang / "g" / "sum.html").read_text(encoding="utf-8")
        where = re.search(r'data-kb-py="([^"]+)"', page).group(1)
        assert ((site / lang / "g") / where).resolve() == (site / "kb-py").resolve()
        offline = json.loads((site / lang / "kb-offline.json").read_text(encoding="utf-8"))
        saved = offline["games"]["g"]["files"]
        # listed apart (the game's second button, "+ full calculators", saves it), and offered to g, whose page needs it
        assert {"../kb-py/kb-py-wasm.js", "../kb-py/kb-py-bundle.js"} <= {path for path, _ in offline["runtime"]["files"]}, lang
        assert offline["games"]["g"]["runtime"] is True and not any("kb-py/" in path for path, _ in saved), lang
        worker = "../kb-calc-worker.js"  # beside kb-calc.js, at the site's root for both languages (audit-phone3 D9)
        assert {worker, worker.replace("-worker", "")} <= {path for path, _ in saved}, lang  # the page's Python runs in it


def test_the_progress_line_names_the_calculator_on_one_line() -> None:
    """The "still working" line names the calculator's entry and example as they are (an id that fails the schema
    still builds): a line break in one is an escape on that line, never a forged ``kb:`` line below it
    (audit-hostile2 #4), and a terminal command or a bidi override is an escape too."""
    from types import SimpleNamespace

    from kb.site.calc import Working

    calc = SimpleNamespace(entry=SimpleNamespace(id="g.slow"),
                           example=SimpleNamespace(id="bad\nkb: en: built in 0.1 s\x1b[2J\u202eid"))
    said = str(Working(calc))  # type: ignore[arg-type]
    assert said == "the calculator of 'g.slow', example 'bad\\nkb: en: built in 0.1 s\\x1b[2J\\u202eid'"
    assert len(said.splitlines()) == 1


SLOW = {"g/mechanics.py": '''\
import time

from kb.mechanics import Trace, between, outcome, resolver


@resolver("g.slow", ranges={"a": between(1, 10)}, outputs={"double": "twice a"},
          labels={"a": ("a", "a"), "double": ("doble", "double")})
def slow(a: int):
    """Twice a, slowly."""
    time.sleep(0.05)
    return outcome(Trace(), double=2 * a)
''', "g/a.yaml": """\
id: g.slow
kind: rule
game: g
title: {es: Lento, en: Slow}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.slow
    given: {a: 1}
    expect: {double: 2}
"""}


def test_a_slow_resolver_does_not_leave_the_build_silent(tree) -> None:
    """Working out a calculator's answers calls its resolver for every combination of its inputs: while that takes
    long, a progress line says so every ``still_working`` seconds (the plugin's option, default 10; docs/site.md), and
    names the calculator."""
    from conftest import cli

    root = tree(SLOW)
    (root.parent / "mkdocs.yml").write_text("site_name: Lento · Slow\nplugins:\n  - kb:\n      still_working: 0.1\n",
                                            encoding="utf-8")
    code, out, err = cli("--content", str(root), "build", "--site-dir", str(root.parent / "site"))
    assert code == 0, out + err
    said = [ln for ln in out.splitlines() if ln.startswith("kb: es: still working out the calculators' answers, ")]
    # it names the calculator being worked out then (its entry and example)
    assert said and said[0].endswith(" s so far, now the calculator of 'g.slow', example 'e' (each calculator calls its "
                                     "resolver once for every combination of its inputs: a resolver slow to answer "
                                     "makes it long)"), out


UNRANGED = {"g/mechanics.py": '''\
from typing import Literal

from kb.mechanics import Trace, between, outcome, resolver


@resolver("g.left", outputs={"left": "wounds left"},
          labels={"wounds": ("heridas", "wounds"), "hits": ("impactos", "hits"), "left": ("quedan", "left")})
def left(wounds: int, hits: int):
    """Each hit removes a wound."""
    return outcome(Trace(), left=wounds - hits)


@resolver("g.some", outputs={"left": "wounds left"}, labels={"wounds": ("heridas", "wounds"), "hard": ("duro", "hard"),
          "left": ("quedan", "left"), "soft": ("blando", "soft")})
def some(wounds: int, hard: Literal["soft", "hard"] = "soft"):
    """A choice a reader changes, beside a number with no range: nothing to warn of."""
    return outcome(Trace(), left=wounds)
''', "g/a.yaml": """\
id: g.left
kind: rule
game: g
title: {es: Heridas, en: Wounds}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.left
    given: {wounds: 3, hits: 1}
    expect: {left: 2}
  - id: s
    mechanic: g.some
    given: {wounds: 3}
    expect: {left: 3}
""", "g/b.yaml": """\
id: g.more
kind: rule
game: g
title: {es: Más, en: More}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.left
    given: {wounds: 2, hits: 2}
    expect: {left: 0}
"""}
"""A resolver whose numbers declare no range (a dead calculator, audit-pack2 defect 1), used by two entries, and one
whose calculator a reader can change (its choice) though its number has no range."""


def test_a_calculator_no_reader_can_change_is_a_warning_at_the_resolver_naming_the_ranges_to_declare(tree) -> None:
    root = tree(UNRANGED)
    kb = KnowledgeBase.load(root)
    form = calc_site(kb, "es").forms["g/left.md"][0]
    assert form.count("data-kb-fixed") == 2  # what the warning is about: both fields read-only
    fixed = [d for d in kb.diagnostics if d.code == "calc-fixed"]
    assert [d.format() for d in fixed] == [  # once for the resolver, at its def (decorator) line, not per entry
        "content/g/mechanics.py:6:1: warning[calc-fixed]: resolver 'g.left' gives the calculator of 'g.left' (from "
        "example 'e') no field a reader can change: a number with no declared range (wounds, hits) is shown fixed at the "
        "example's value; declare each one's range in the decorator: @resolver(..., ranges="
        '{"wounds": between(LOW, HIGH), "hits": between(LOW, HIGH)}) (between from kb.mechanics)']
    fixed_source = (root / "g/mechanics.py").read_text().replace('@resolver("g.left", ',
                                                                '@resolver("g.left", ranges={"wounds": between(1, 5), '
                                                                '"hits": between(0, 5)}, ')
    (root / "g/mechanics.py").write_text(fixed_source)
    kb = KnowledgeBase.load(root)
    assert not [d for d in kb.diagnostics if d.code == "calc-fixed"]
    assert "data-kb-fixed" not in calc_site(kb, "es").forms["g/left.md"][0]


def test_the_masc_calculator_takes_the_turns_in_a_row(kb) -> None:
    """Audit D23: BattleTech's MASC calculator answered only a first use; it has a number of turns in a row with MASC
    before this one, each value the seed's step (3+, 5+, 7+, 11+, the 5th freezing), within what a build enumerates."""
    from kb.mechanics.space import Refusal, call
    from kb.site.calc import calculators
    entry = kb.entries["battletech-solaris.masc-failure-progression"]
    calc = next(c for c in calculators(entry, kb.registry.get) if c.resolver.name == "battletech-solaris.masc-roll")
    names = [f.name for f in calc.space.variable]
    # the turns in a row, and the turns rested since them (calculator audit C6: after three uses and a rest it said 3+)
    assert "in_a_row" in names and "rested" in names
    i = names.index("in_a_row")
    start = calc.space.positions(calc.space.base)
    needs = []
    for v, value in enumerate(calc.space.variable[i].values):
        found = call(calc.resolver, calc.space.given(start[:i] + (v,) + start[i + 1:]))
        assert not isinstance(found, Refusal)
        needs.append((value, found.values["threshold"], found.values["frozen"]))
    assert needs == [(0, 3, None), (1, 5, None), (2, 7, None), (3, 11, None), (4, None, True)]
